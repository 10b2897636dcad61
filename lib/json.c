/*
 * json.c: the one JSON reader (json.h, <xq/json.h>).
 *
 * One pass over the text cuts it into tokens and checks the syntax
 * strictly, with an explicit stack of the open containers (never
 * recursion: a value may nest as deep as the text is long).  Columns grow
 * with the offset, so each token's is counted from the last one's: the
 * whole text is counted once.  Decoding a string and reading a number are
 * separate, for the tokens a caller looks at.
 */
#include "json.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "check.h"
#include "diagnostic.h"
#include "utf8.h"

/* ---- failing --------------------------------------------------------------- */

static int fail(struct xq_json *j, int code, size_t at, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;
static int fail(struct xq_json *j, int code, size_t at, const char *fmt, ...)
{
	va_list ap;

	j->err = code;
	j->err_at = at;
	va_start(ap, fmt);
	vsnprintf(j->err_msg, sizeof(j->err_msg), fmt, ap);
	va_end(ap);
	j->ntoks = 0;
	return code;
}

/* ---- the tokens ------------------------------------------------------------ */

static int push_tok(struct xq_json *j, enum xq_json_type t, size_t start, size_t len,
		    uint32_t col)
{
	struct xqi_json_tok *k;

	if (XQ_ALLOC_GROW(j->toks, j->ntoks + 1, j->toks_alloc))
		return fail(j, XQ_ENOMEM, start, "out of memory");
	k = &j->toks[j->ntoks];
	k->type = (uint8_t)t;
	k->start = (uint32_t)start;
	k->len = (uint32_t)len;
	k->next = (uint32_t)j->ntoks + 1;
	k->col = col;
	j->ntoks++;
	return 0;
}

/* Four hex digits at s[i..i+3], or -1. */
static long hex4(const char *s, size_t len, size_t i)
{
	return i + 4 > len ? -1 : xqi_hex4(s + i);
}

/* The escape "\uXXXX" whose 'u' is s[i]: the index of its last digit
 * (of the low half's, for a surrogate pair), or 0 after failing. */
static size_t scan_u_escape(struct xq_json *j, size_t i)
{
	const char *s = j->text;
	size_t len = j->len;
	long v = hex4(s, len, i + 1), lo;

	if (v < 0) {
		fail(j, XQ_EPARSE, i - 1, "'\\u' must be followed by four hex digits");
		return 0;
	}
	if (v == 0) {
		fail(j, XQ_EPARSE, i - 1, "'\\u0000': a NUL character cannot be held in a record");
		return 0;
	}
	if (v >= 0xDC00 && v <= 0xDFFF) {
		fail(j, XQ_EENCODING, i - 1,
		     "'\\u%04lX' is a low surrogate with no high surrogate before it", v);
		return 0;
	}
	i += 4;
	if (v < 0xD800 || v > 0xDBFF)
		return i;
	lo = i + 2 < len && s[i + 1] == '\\' && s[i + 2] == 'u' ? hex4(s, len, i + 3) : -1;
	if (lo < 0xDC00 || lo > 0xDFFF) {
		fail(j, XQ_EENCODING, i - 5, "'\\u%04lX' is a high surrogate with no low surrogate after it",
		     v);
		return 0;
	}
	return i + 6;
}

/* Scan a string starting at the quote text[i]; returns the index after
 * the closing quote, or 0 after failing. */
static size_t scan_string(struct xq_json *j, size_t i)
{
	const char *s = j->text;
	size_t len = j->len;

	for (i++; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"')
			return i + 1;
		if (c < 0x20) {
			fail(j, XQ_EPARSE, i, "control character U+%04X in a string (write it as an escape)",
			     c);
			return 0;
		}
		if (c != '\\')
			continue;
		if (++i >= len)
			break;
		switch (s[i]) {
		case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
			break;
		case 'u':
			if (!(i = scan_u_escape(j, i)))
				return 0;
			break;
		default:
			fail(j, XQ_EPARSE, i - 1, "unknown escape '\\%c' in a string",
			     (unsigned char)s[i] < 0x80 && (unsigned char)s[i] >= 0x20 ? s[i] : '?');
			return 0;
		}
	}
	fail(j, XQ_EPARSE, len, "the line ends inside a string");
	return 0;
}

static size_t skip_digits(const char *s, size_t len, size_t i)
{
	while (i < len && xq_is_digit((unsigned char)s[i]))
		i++;
	return i;
}

/* Scan a number at text[i] by the JSON grammar; returns the index after
 * it, or 0 after failing. */
static size_t scan_number(struct xq_json *j, size_t i)
{
	const char *s = j->text;
	size_t len = j->len, start = i;

	if (i < len && s[i] == '-')
		i++;
	if (i < len && s[i] == '0')
		i++;
	else if (i < len && s[i] >= '1' && s[i] <= '9')
		i = skip_digits(s, len, i);
	else
		goto bad;
	if (i < len && s[i] == '.') {
		if (++i >= len || !xq_is_digit((unsigned char)s[i]))
			goto bad;
		i = skip_digits(s, len, i);
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		if (i >= len || !xq_is_digit((unsigned char)s[i]))
			goto bad;
		i = skip_digits(s, len, i);
	}
	return i;
bad:
	fail(j, XQ_EPARSE, start, "malformed number");
	return 0;
}

/* A scalar value at text[i] (its first byte is `c`) as a token: the index
 * after it, or 0 after failing. */
static size_t scan_scalar(struct xq_json *j, size_t i, unsigned char c, uint32_t col)
{
	static const struct {
		const char *word;
		size_t len;
		enum xq_json_type t;
	} words[] = {{"true", 4, XQ_JSON_TRUE}, {"false", 5, XQ_JSON_FALSE}, {"null", 4, XQ_JSON_NULL}};
	enum xq_json_type t;
	size_t end = 0;

	if (c == '"') {
		t = XQ_JSON_STRING;
		end = scan_string(j, i);
	} else if (c == '-' || xq_is_digit(c)) {
		t = XQ_JSON_NUMBER;
		end = scan_number(j, i);
	} else {
		size_t k;
		for (k = 0; k < 3; k++)
			if (j->len - i >= words[k].len && !memcmp(j->text + i, words[k].word, words[k].len))
				break;
		if (k == 3) {
			fail(j, XQ_EPARSE, i, "expected a value");
			return 0;
		}
		t = words[k].t;
		end = i + words[k].len;
	}
	if (!end || push_tok(j, t, i, end - i, col))
		return 0;
	return end;
}

static int json_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

enum expect { X_VALUE, X_VALUE_OR_CLOSE, X_KEY, X_KEY_OR_CLOSE, X_COLON, X_COMMA_OR_CLOSE };

/* Open an object or array at text[i]. */
static int open_container(struct xq_json *j, size_t *depth, size_t i, unsigned char c,
			  uint32_t col)
{
	if (XQ_ALLOC_GROW(j->stack, *depth + 1, j->stack_alloc))
		return fail(j, XQ_ENOMEM, i, "out of memory");
	if (push_tok(j, c == '{' ? XQ_JSON_OBJECT : XQ_JSON_ARRAY, i, 1, col))
		return j->err;
	j->stack[(*depth)++] = (uint32_t)j->ntoks - 1;
	return 0;
}

/*
 * What the byte at text[i] (`c`, not white space) does in state *x: 1
 * when it closes the innermost container, 0 when it was taken (*i moved
 * past it, *x the next state), or a code after failing.
 */
static int step(struct xq_json *j, size_t *i, size_t *depth, enum expect *x, unsigned char c,
		uint32_t col)
{
	size_t end;

	switch (*x) {
	case X_COLON:
		if (c != ':')
			return fail(j, XQ_EPARSE, *i, "expected ':' after a member name");
		++*i;
		*x = X_VALUE;
		return 0;
	case X_COMMA_OR_CLOSE: {
		int obj = j->toks[j->stack[*depth - 1]].type == XQ_JSON_OBJECT;
		if (c == ',') {
			++*i;
			*x = obj ? X_KEY : X_VALUE;
			return 0;
		}
		if (c == (obj ? '}' : ']'))
			return 1;
		return fail(j, XQ_EPARSE, *i, "expected ',' or '%c'", obj ? '}' : ']');
	}
	case X_KEY:
	case X_KEY_OR_CLOSE:
		if (c == '}' && *x == X_KEY_OR_CLOSE)
			return 1;
		if (c != '"')
			return fail(j, XQ_EPARSE, *i, "expected a member name in double quotes");
		if (!(end = scan_string(j, *i)) || push_tok(j, XQ_JSON_STRING, *i, end - *i, col))
			return j->err;
		*i = end;
		*x = X_COLON;
		return 0;
	case X_VALUE:
	case X_VALUE_OR_CLOSE:
		if (c == ']' && *x == X_VALUE_OR_CLOSE)
			return 1;
		if (c == '{' || c == '[') {
			if (open_container(j, depth, *i, c, col))
				return j->err;
			++*i;
			*x = c == '{' ? X_KEY_OR_CLOSE : X_VALUE_OR_CLOSE;
			return 0;
		}
		if (!(end = scan_scalar(j, *i, c, col)))
			return j->err;
		*i = end;
		*x = *depth ? X_COMMA_OR_CLOSE : X_VALUE;
		return 2; /* a value ended */
	}
	return fail(j, XQ_EINTERNAL, *i, "bad state");
}

/* The tokens of text[0..len), its UTF-8 checked by the caller. */
static int tokenize(struct xq_json *j)
{
	const char *s = j->text;
	size_t len = j->len, i = 0, depth = 0, colpos = 0;
	uint32_t col = 1;
	enum expect x = X_VALUE;

	/* Every round takes a byte at least, or ends. */
	for (size_t was = i;; XQI_ADVANCED(was, i)) {
		int rc;
		while (i < len && json_space((unsigned char)s[i]))
			i++;
		if (i >= len)
			return fail(j, XQ_EPARSE, i,
				    j->ntoks ? "the line ends before the record does" : "empty record");
		/* Columns grow with i: count only the new bytes.  The text is
		 * UTF-8 (checked): its characters are the bytes that do not
		 * continue one. */
		for (; colpos < i; colpos++)
			col += ((unsigned char)s[colpos] & 0xC0) != 0x80;
		rc = step(j, &i, &depth, &x, (unsigned char)s[i], col);
		if (rc < 0)
			return rc;
		if (rc == 0)
			continue;
		if (rc == 1) {
			/* The innermost container closes. */
			j->toks[j->stack[--depth]].next = (uint32_t)j->ntoks;
			i++;
		}
		if (depth)
			x = X_COMMA_OR_CLOSE;
		else
			break; /* the value is complete */
	}
	while (i < len && json_space((unsigned char)s[i]))
		i++;
	if (i < len)
		return fail(j, XQ_EPARSE, i, "text after the end of the record");
	return 0;
}

void xqi_json_init(struct xq_json *j)
{
	memset(j, 0, sizeof(*j));
}

void xqi_json_release(struct xq_json *j)
{
	free(j->toks);
	free(j->stack);
	xqi_json_init(j);
}

/* The parse of json.h: UTF-8 checked by the caller (`checked`) or here. */
static int parse(struct xq_json *j, const char *text, size_t len, int checked)
{
	j->text = text;
	j->len = len;
	j->ntoks = 0;
	j->err = 0;
	j->err_at = 0;
	j->err_msg[0] = '\0';
	if (len >= UINT32_MAX)
		return fail(j, XQ_ERANGE, 0, "a text of 4 GiB or more");
	if (!checked) {
		size_t bad = xq_utf8_check(text, len);
		if (bad < len)
			return fail(j, XQ_EENCODING, bad, "byte 0x%02X is not UTF-8",
				    (unsigned char)text[bad]);
	}
	return tokenize(j);
}

int xqi_json_parse_utf8(struct xq_json *j, const char *text, size_t len)
{
	return parse(j, text, len, 1);
}

/* ---- what the tokens hold -------------------------------------------------- */

int xqi_json_decode(const struct xq_json *j, uint32_t t, struct xq_buf *out)
{
	const char *s = j->text + j->toks[t].start + 1;
	size_t len = j->toks[t].len - 2, i = 0;

	xq_buf_reset(out);
	while (i < len) {
		size_t run = i;
		while (run < len && s[run] != '\\')
			run++;
		if (xq_buf_add(out, s + i, run - i))
			return XQ_ENOMEM;
		i = run;
		if (i >= len)
			break;
		/* An escape, already checked by scan_string. */
		i++;
		if (s[i] == 'u') {
			uint32_t cp = (uint32_t)hex4(s, len, i + 1);
			char enc[4];
			i += 5;
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				uint32_t lo = (uint32_t)hex4(s, len, i + 2);
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
				i += 6;
			}
			if (xq_buf_add(out, enc, xq_utf8_encode(cp, enc)))
				return XQ_ENOMEM;
			continue;
		}
		{
			char c = s[i];
			switch (c) {
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			default: break; /* " \ / stand for themselves */
			}
			if (xq_buf_addc(out, c))
				return XQ_ENOMEM;
			i++;
		}
	}
	return 0;
}

/*
 * The whole number that a number token's text `s` (`len` bytes, JSON's
 * grammar) stands for, exactly: 0 with *out set, or XQ_ERANGE.  Its
 * digits (integer part, then fraction) without leading and trailing
 * zeros, times 10 to a power, are a whole number when that power is not
 * negative.
 */
static int whole_number(const char *s, size_t len, uint64_t *out)
{
	size_t i = s[0] == '-', a = i, b, c, d, n, lo, hi;
	int64_t e = 0, x;
	int esign = 1;
	uint64_t v = 0;

	b = skip_digits(s, len, a);
	c = d = b;
	if (b < len && s[b] == '.')
		d = skip_digits(s, len, c = b + 1);
	if (d < len) { /* the exponent, its size bounded (a larger one is out of range anyway) */
		i = d + 1;
		if (s[i] == '+' || s[i] == '-')
			esign = s[i++] == '-' ? -1 : 1;
		for (; i < len; i++)
			e = e > 1000000 ? e : e * 10 + (s[i] - '0');
	}
	n = (b - a) + (d - c);
#define DIGIT(k) ((k) < b - a ? s[a + (k)] : s[c + (k) - (b - a)])
	for (lo = 0; lo < n && DIGIT(lo) == '0'; lo++)
		;
	*out = 0;
	if (lo == n)
		return 0; /* zero, "-0" and "0.0e5" included */
	if (s[0] == '-')
		return XQ_ERANGE;
	for (hi = n - 1; DIGIT(hi) == '0'; hi--)
		;
	/* The power of ten of digit `hi`. */
	x = esign * e - (int64_t)(d - c) + (int64_t)(n - 1 - hi);
	if (x < 0 || (int64_t)(hi - lo + 1) + x > 20)
		return XQ_ERANGE;
	for (size_t k = lo; k <= hi; k++) {
		unsigned dg = (unsigned)(DIGIT(k) - '0');
		if (v > (UINT64_MAX - dg) / 10)
			return XQ_ERANGE;
		v = v * 10 + dg;
	}
#undef DIGIT
	for (; x > 0; x--) {
		if (v > UINT64_MAX / 10)
			return XQ_ERANGE;
		v *= 10;
	}
	*out = v;
	return 0;
}

/* ---- the public face (<xq/json.h>) ---------------------------------------- */

xq_json *xq_json_new(void)
{
	struct xq_json *j = malloc(sizeof(*j));

	if (j)
		xqi_json_init(j);
	return j;
}

void xq_json_free(xq_json *j)
{
	if (!j)
		return;
	xqi_json_release(j);
	free(j);
}

int xq_json_parse(xq_json *j, const char *text, size_t len)
{
	if (!j || (!text && len))
		return XQ_EINVAL;
	return parse(j, text ? text : "", len, 0);
}

size_t xq_json_error_offset(const xq_json *j)
{
	return j && j->err ? j->err_at : 0;
}

const char *xq_json_error_message(const xq_json *j)
{
	return j && j->err ? j->err_msg : "";
}

size_t xq_json_count(const xq_json *j)
{
	return j ? j->ntoks : 0;
}

int xq_json_type(const xq_json *j, size_t t)
{
	return j && t < j->ntoks ? j->toks[t].type : -1;
}

const char *xq_json_type_name(int type)
{
	static const char *const names[] = {"an object", "an array", "a string", "a number",
					    "true",      "false",    "null"};
	return type >= XQ_JSON_OBJECT && type <= XQ_JSON_NULL ? names[type] : "a value";
}

size_t xq_json_next(const xq_json *j, size_t t)
{
	if (!j)
		return 0;
	return t < j->ntoks ? j->toks[t].next : t;
}

size_t xq_json_offset(const xq_json *j, size_t t)
{
	return j && t < j->ntoks ? j->toks[t].start : 0;
}

size_t xq_json_column(const xq_json *j, size_t t)
{
	return j && t < j->ntoks ? j->toks[t].col : 0;
}

const char *xq_json_text(const xq_json *j, size_t t, size_t *len)
{
	if (!j || t >= j->ntoks || j->toks[t].type <= XQ_JSON_ARRAY)
		return NULL;
	if (len)
		*len = j->toks[t].len;
	return j->text + j->toks[t].start;
}

/* Is string token `t` the text `name` once decoded? */
static int string_is(const struct xq_json *j, uint32_t t, const char *name)
{
	const char *raw = j->text + j->toks[t].start + 1;
	size_t rlen = j->toks[t].len - 2, n = strlen(name);
	struct xq_buf b = XQ_BUF_INIT;
	int same;

	if (!memchr(raw, '\\', rlen))
		return rlen == n && !memcmp(raw, name, n);
	same = !xqi_json_decode(j, t, &b) && b.len == n && !memcmp(b.ptr, name, n);
	xq_buf_release(&b);
	return same;
}

size_t xq_json_member(const xq_json *j, size_t obj, const char *name)
{
	if (!j || !name || obj >= j->ntoks || j->toks[obj].type != XQ_JSON_OBJECT)
		return 0;
	for (uint32_t k = (uint32_t)obj + 1; k < j->toks[obj].next; k = j->toks[k + 1].next)
		if (string_is(j, k, name))
			return k + 1;
	return 0;
}

int xq_json_string(const xq_json *j, size_t t, xq_buf *out)
{
	struct xq_buf b = XQ_BUF_INIT;
	int rc;

	if (!j || !out || t >= j->ntoks || j->toks[t].type != XQ_JSON_STRING)
		return XQ_EINVAL;
	rc = xqi_json_decode(j, (uint32_t)t, &b);
	if (!rc)
		rc = xq_buf_add(out, b.ptr, b.len);
	xq_buf_release(&b);
	return rc;
}

int xq_json_uint(const xq_json *j, size_t t, uint64_t *out)
{
	if (!j || !out || t >= j->ntoks || j->toks[t].type != XQ_JSON_NUMBER)
		return XQ_EINVAL;
	return whole_number(j->text + j->toks[t].start, j->toks[t].len, out);
}

int xq_json_number(const xq_json *j, size_t t, double *out)
{
	char small[64], *num = small;
	locale_t c, was;
	size_t n;

	if (!j || !out || t >= j->ntoks || j->toks[t].type != XQ_JSON_NUMBER)
		return XQ_EINVAL;
	n = j->toks[t].len;
	if (n >= sizeof(small) && !(num = malloc(n + 1)))
		return XQ_ENOMEM;
	memcpy(num, j->text + j->toks[t].start, n);
	num[n] = '\0';
	/* strtod() reads the decimal point of the locale: the thread's is
	 * made the C locale's for the call, whatever the program set. */
	c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	was = c ? uselocale(c) : (locale_t)0;
	*out = strtod(num, NULL);
	if (c) {
		uselocale(was);
		freelocale(c);
	}
	if (num != small)
		free(num);
	return isinf(*out) ? XQ_ERANGE : 0;
}
