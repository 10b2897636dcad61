/*
 * ndjson_tok.c: pass 1 of reading a record: its line cut into JSON tokens,
 * checked strictly (ndjson.c says how), and string tokens decoded.
 */
#include "ndjson_int.h"

/* ---- pass 1: tokens ------------------------------------------------------ */

static int push_tok(struct nd_reader *r, enum jtype t, size_t start, size_t len, uint32_t col)
{
	struct jtok *k;

	if (XQ_ALLOC_GROW(r->toks, r->ntoks + 1, r->toks_alloc))
		return XQ_ENOMEM;
	k = &r->toks[r->ntoks];
	k->type = (uint8_t)t;
	k->start = (uint32_t)start;
	k->len = (uint32_t)len;
	k->next = (uint32_t)r->ntoks + 1;
	k->col = col;
	r->ntoks++;
	return 0;
}

long xqi_nd_hex4(const char *s, size_t len, size_t i)
{
	return i + 4 > len ? -1 : xqi_hex4(s + i);
}

/* Scan a string starting at the quote s[i]; returns the index after the
 * closing quote, or 0 after reporting the error. */
static size_t scan_string(struct nd_reader *r, size_t i)
{
	const char *s = r->line;
	size_t len = r->len;

	for (i++; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"')
			return i + 1;
		if (c < 0x20) {
			xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, i, 0, NULL,
			             "control character U+%04X in a string (write it as an escape)", c);
			return 0;
		}
		if (c != '\\')
			continue;
		if (++i >= len)
			break;
		switch (s[i]) {
		case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
			break;
		case 'u': {
			long v = xqi_nd_hex4(s, len, i + 1);
			if (v < 0) {
				xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, i - 1, 0, NULL,
				             "'\\u' must be followed by four hex digits");
				return 0;
			}
			if (v == 0) {
				xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, i - 1, 0, NULL,
				             "'\\u0000': a NUL character cannot be held in a game record");
				return 0;
			}
			if (v >= 0xDC00 && v <= 0xDFFF) {
				xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_ENCODING, i - 1, 0, NULL,
				             "'\\u%04lX' is a low surrogate with no high surrogate before it", v);
				return 0;
			}
			i += 4;
			if (v >= 0xD800 && v <= 0xDBFF) {
				long lo = i + 2 < len && s[i + 1] == '\\' && s[i + 2] == 'u'
						  ? xqi_nd_hex4(s, len, i + 3)
						  : -1;
				if (lo < 0xDC00 || lo > 0xDFFF) {
					xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_ENCODING, i - 5, 0, NULL,
					             "'\\u%04lX' is a high surrogate with no low surrogate after it",
					             v);
					return 0;
				}
				i += 6;
			}
			break;
		}
		default:
			xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, i - 1, 0, NULL,
			             "unknown escape '\\%c' in a string",
			             (unsigned char)s[i] < 0x80 && (unsigned char)s[i] >= 0x20 ? s[i] : '?');
			return 0;
		}
	}
	xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, len, 0, NULL, "the line ends inside a string");
	return 0;
}

/* Scan a number at s[i] by the JSON grammar; returns the index after it, or 0. */
static size_t scan_number(struct nd_reader *r, size_t i)
{
	const char *s = r->line;
	size_t len = r->len, start = i;

	if (i < len && s[i] == '-')
		i++;
	if (i < len && s[i] == '0') {
		i++;
	} else if (i < len && s[i] >= '1' && s[i] <= '9') {
		while (i < len && xq_is_digit((unsigned char)s[i]))
			i++;
	} else {
		goto bad;
	}
	if (i < len && s[i] == '.') {
		i++;
		if (i >= len || !xq_is_digit((unsigned char)s[i]))
			goto bad;
		while (i < len && xq_is_digit((unsigned char)s[i]))
			i++;
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		if (i >= len || !xq_is_digit((unsigned char)s[i]))
			goto bad;
		while (i < len && xq_is_digit((unsigned char)s[i]))
			i++;
	}
	return i;
bad:
	xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, start, 0, NULL, "malformed number");
	return 0;
}

enum expect { X_VALUE, X_VALUE_OR_CLOSE, X_KEY, X_KEY_OR_CLOSE, X_COLON, X_COMMA_OR_CLOSE };

/*
 * Cut the line into tokens.  Returns 0, XQ_EPARSE after reporting a syntax
 * error, or XQ_ENOMEM.
 */
int xqi_nd_tokenize(struct nd_reader *r)
{
	const char *s = r->line;
	size_t len = r->len, i = 0, depth = 0, colpos = 0;
	uint32_t col = 1;
	enum expect x = X_VALUE;

	r->ntoks = 0;
	for (;;) {
		unsigned char c;
		size_t end;
		int closing = 0;

		while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
			i++;
		if (i >= len) {
			if (r->ntoks == 0)
				xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, i, 0, NULL, "empty record");
			else
				xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, i, 0, NULL,
				             "the line ends before the record does");
			return XQ_EPARSE;
		}
		/* Columns grow monotonically with i: count only the new bytes. */
		col += (uint32_t)xq_utf8_count(s + colpos, i - colpos);
		colpos = i;
		c = (unsigned char)s[i];
		switch (x) {
		case X_COLON:
			if (c != ':') {
				xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, i, 0, NULL,
				             "expected ':' after a member name");
				return XQ_EPARSE;
			}
			i++;
			x = X_VALUE;
			continue;
		case X_COMMA_OR_CLOSE: {
			int obj = r->toks[r->stack[depth - 1]].type == JT_OBJECT;
			if (c == ',') {
				i++;
				x = obj ? X_KEY : X_VALUE;
				continue;
			}
			if (c == (obj ? '}' : ']')) {
				closing = 1;
				break;
			}
			xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, i, 0, NULL, "expected ',' or '%c'",
			             obj ? '}' : ']');
			return XQ_EPARSE;
		}
		case X_KEY:
		case X_KEY_OR_CLOSE:
			if (c == '}' && x == X_KEY_OR_CLOSE) {
				closing = 1;
				break;
			}
			if (c != '"') {
				xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, i, 0, NULL,
				             "expected a member name in double quotes");
				return XQ_EPARSE;
			}
			if (!(end = scan_string(r, i)))
				return XQ_EPARSE;
			if (push_tok(r, JT_STRING, i, end - i, col))
				return XQ_ENOMEM;
			i = end;
			x = X_COLON;
			continue;
		case X_VALUE:
		case X_VALUE_OR_CLOSE:
			if (c == ']' && x == X_VALUE_OR_CLOSE) {
				closing = 1;
				break;
			}
			if (c == '{' || c == '[') {
				if (XQ_ALLOC_GROW(r->stack, depth + 1, r->stack_alloc))
					return XQ_ENOMEM;
				if (push_tok(r, c == '{' ? JT_OBJECT : JT_ARRAY, i, 1, col))
					return XQ_ENOMEM;
				r->stack[depth++] = (uint32_t)r->ntoks - 1;
				i++;
				x = c == '{' ? X_KEY_OR_CLOSE : X_VALUE_OR_CLOSE;
				continue;
			}
			if (c == '"') {
				if (!(end = scan_string(r, i)))
					return XQ_EPARSE;
				if (push_tok(r, JT_STRING, i, end - i, col))
					return XQ_ENOMEM;
			} else if (c == '-' || xq_is_digit(c)) {
				if (!(end = scan_number(r, i)))
					return XQ_EPARSE;
				if (push_tok(r, JT_NUMBER, i, end - i, col))
					return XQ_ENOMEM;
			} else {
				static const struct {
					const char *word;
					enum jtype t;
				} words[] = {{"true", JT_TRUE}, {"false", JT_FALSE}, {"null", JT_NULL}};
				size_t k;
				for (k = 0; k < 3; k++) {
					size_t wl = strlen(words[k].word);
					if (len - i >= wl && !memcmp(s + i, words[k].word, wl))
						break;
				}
				if (k == 3) {
					xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, i, 0, NULL, "expected a value");
					return XQ_EPARSE;
				}
				end = i + strlen(words[k].word);
				if (push_tok(r, words[k].t, i, end - i, col))
					return XQ_ENOMEM;
			}
			i = end;
			break;
		}
		if (closing) {
			r->toks[r->stack[--depth]].next = (uint32_t)r->ntoks;
			i++;
		}
		/* A value is complete. */
		if (depth == 0) {
			while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
				i++;
			if (i < len) {
				xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, i, 0, NULL,
				             "text after the end of the record");
				return XQ_EPARSE;
			}
			return 0;
		}
		x = X_COMMA_OR_CLOSE;
	}
}

/* Decode string token `t` into r->scratch (ndjson_int.h). */
int xqi_nd_decode_string(struct nd_reader *r, uint32_t t)
{
	const char *s = r->line + r->toks[t].start + 1;
	size_t len = r->toks[t].len - 2, i = 0;

	xq_buf_reset(&r->scratch);
	r->fixed = 0;
	while (i < len) {
		size_t run = i;
		while (run < len && s[run] != '\\')
			run++;
		if (r->bad_bytes) {
			/* Bytes that are not UTF-8 stay in this string alone:
			 * each becomes U+FFFD (decode.h). */
			long k = xqi_textdec_repair(&r->scratch, s + i, run - i);
			if (k < 0)
				return XQ_ENOMEM;
			if (k && !r->fixed)
				r->fixed_at = (size_t)(s - r->line) + i + xq_utf8_check(s + i, run - i);
			r->fixed += k;
		} else if (xq_buf_add(&r->scratch, s + i, run - i)) {
			return XQ_ENOMEM;
		}
		i = run;
		if (i >= len)
			break;
		/* An escape, already checked by scan_string. */
		i++;
		if (s[i] == 'u') {
			uint32_t cp = (uint32_t)xqi_nd_hex4(s, len, i + 1);
			char enc[4];
			size_t n;
			i += 5;
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				uint32_t lo = (uint32_t)xqi_nd_hex4(s, len, i + 2);
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
				i += 6;
			}
			n = xq_utf8_encode(cp, enc);
			if (xq_buf_add(&r->scratch, enc, n))
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
			if (xq_buf_addc(&r->scratch, c))
				return XQ_ENOMEM;
			i++;
		}
	}
	return 0;
}
