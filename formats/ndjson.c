/*
 * ndjson.c: game records as newline-delimited JSON, one game per line,
 * schema "xqkit.game/1" (documented in doc/ndjson.md).
 *
 * The point of this format is pipelines: `xqkit convert -t ndjson` turns
 * any collection into lines that jq can filter and edit, and the reader
 * turns them back into games that the other writers accept, losing
 * nothing: tags in order (duplicates too), the start position, the whole
 * move tree with variations, comments before and after moves, NAGs, the
 * result, and each move's text as the source wrote it.
 *
 * A record is read in two passes over its line.  The first cuts the line
 * into a flat array of JSON tokens (each container knows where it ends,
 * so a value can be skipped in one step) and checks the syntax strictly:
 * UTF-8 only, no raw control characters, escapes and surrogate pairs as
 * RFC 8259 says.  The second walks the tokens to build the game: the
 * start position first (members may come in any order), then the moves,
 * each checked for legality before it is added.  Both passes use explicit
 * stacks, never recursion, because a variation can nest as deep as the
 * tree is long.  A bad line is reported with its line and column and
 * returned as a broken game; the next line starts afresh, so one damaged
 * record never hides the ones after it.
 */
#include "format.h"
#include "ndjson.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "position.h"
#include "buf.h"
#include "check.h"
#include "flattree.h"
#include "record.h"
#include "movegen.h"
#include "notation.h"
#include "decode.h"
#include "utf8.h"

#define NDJSON_SCHEMA "xqkit.game/1"
/*
 * The longest record (line) read: 12 MiB.  The largest real game known (the
 * corpus's vschess dhtmlxq.txt, 106,998 moves) is a line of 3,260,780
 * bytes: the limit is 3.8 times that.  Reading keeps the line, its JSON
 * tokens and the game: at most ND_MEM_FACTOR bytes per byte (the densest
 * line is one short token after another).  A line over the limit (or
 * --max-game-size) is a broken record: the rest of it is skipped, never
 * held (XQI_SKIP_MAX bytes of it at most), and reading goes on at the next
 * line.
 */
#define ND_MAX_RECORD ((uint64_t)12 << 20)
#define ND_MEM_FACTOR 16

extern const struct xqi_format xqi_format_ndjson;
#define CHUNK XQI_READ_SIZE

enum jtype { JT_OBJECT, JT_ARRAY, JT_STRING, JT_NUMBER, JT_TRUE, JT_FALSE, JT_NULL };

struct jtok {
	uint8_t type;  /* enum jtype */
	uint32_t start; /* byte offset in the line of the token's first byte */
	uint32_t len;   /* bytes of a scalar, quotes included for strings */
	uint32_t next;  /* index of the token after this value and everything inside it */
	uint32_t col;   /* 1-based column (characters) of `start` */
};

/* One line of moves still to read: an array token and where we are in it. */
struct frame {
	uint32_t arr;    /* the array token */
	uint32_t cur;    /* the next element's token */
	uint32_t parent; /* node the next move hangs from */
	uint32_t ply;    /* ply of the next move */
	struct xqi_position board; /* position before the next move */
};

struct nd_reader {
	struct xqi_input *in;  /* the input, or NULL when `src` gives the bytes */
	struct xqi_bytes src;
	const struct xqi_sink *sink; /* borrowed (format.h) */
	struct xq_buf buf;  /* bytes read, not yet consumed from `pos` */
	size_t pos;
	int eof;
	uint64_t lineno;    /* lines consumed so far */
	int line_ended;     /* the last line read ended with its '\n' */
	uint64_t offset;    /* content offset of buf.ptr[pos] */
	uint64_t games;
	const char *name;
	/* per record */
	const char *line;
	size_t len;
	uint64_t line_offset;
	/* The column of byte col_at of the line at col_line (a cursor, so that
	 * many reports on one long line do not each count from its start). */
	uint64_t col_line;
	size_t col_at;
	uint32_t col;
	size_t max_line;   /* the limit of a line, from the format's and the budget */
	struct xqi_read_opts opts;
	struct jtok *toks;
	size_t ntoks, toks_alloc;
	uint32_t *stack;
	size_t stack_alloc;
	struct frame *frames;
	size_t frames_alloc;
	struct xq_buf scratch;
	struct xqi_record *g;
	int bad; /* the record has had an error */
	/* A move of a variation that cannot be read or played: its error is
	 * held here (report() with `holding`) and said with what was cut. */
	int holding;
	struct xq_diagnostic held;
	uint32_t cut_alts;  /* the bad move's "variations" (alternatives to it), or 0 */
	int bad_bytes;    /* the line holds bytes that are not UTF-8, all inside strings */
	long fixed;       /* such bytes the last decode_string() replaced by U+FFFD */
	size_t fixed_at;  /* and where the first of them is in the line */
	struct xqi_read_guard guard;
	struct xqi_textdec td; /* UTF-8 only: checks each record's bytes (decode.h) */
};

/* ---- diagnostics -------------------------------------------------------- */

static void hold_report(const struct xq_diagnostic *d, void *payload)
{
	*(struct xq_diagnostic *)payload = *d;
}

/* Report a problem at byte `at` of the current line (column counted in
 * characters), in game `g` at `ply` with move text `move` (held in
 * r->held, not said, while r->holding). */
static void report(struct nd_reader *r, enum xq_severity_level sev, enum xqi_diagnostic_code code,
		   size_t at, uint32_t ply, const char *move, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 7, 8)))
#endif
	;
static void report(struct nd_reader *r, enum xq_severity_level sev, enum xqi_diagnostic_code code,
		   size_t at, uint32_t ply, const char *move, const char *fmt, ...)
{
	struct xqi_place pl;
	va_list ap;

	if (at > r->len)
		at = r->len;
	if (r->col_line != r->line_offset + 1 || at < r->col_at) {
		r->col_line = r->line_offset + 1;
		r->col_at = 0;
		r->col = 1;
	}
	r->col += (uint32_t)xq_utf8_count(r->line + r->col_at, at - r->col_at);
	r->col_at = at;
	if (sev == XQ_SEVERITY_ERROR && !r->holding) {
		r->bad = 1;
		if (r->g)
			r->g->flags |= XQI_RECORD_BROKEN;
	}
	pl.line = r->lineno;
	pl.col = r->col;
	pl.offset = r->line_offset + at;
	va_start(ap, fmt);
	if (r->holding) {
		struct xqi_sink hold = {hold_report, &r->held};
		xqi_format_vreport(&hold, r->name, r->games, &pl, 1, ply, move,
				  move ? strlen(move) : 0, code, sev, fmt, ap);
	} else {
		xqi_format_vreport(r->sink, r->name, r->games, &pl, 1, ply, move,
				  move ? strlen(move) : 0, code, sev, fmt, ap);
	}
	va_end(ap);
}

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

/* Four hex digits at s[i..i+3], or -1. */
static long hex4(const char *s, size_t len, size_t i)
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
			report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, i, 0, NULL,
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
			long v = hex4(s, len, i + 1);
			if (v < 0) {
				report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, i - 1, 0, NULL,
				       "'\\u' must be followed by four hex digits");
				return 0;
			}
			if (v == 0) {
				report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, i - 1, 0, NULL,
				       "'\\u0000': a NUL character cannot be held in a game record");
				return 0;
			}
			if (v >= 0xDC00 && v <= 0xDFFF) {
				report(r, XQ_SEVERITY_ERROR, XQI_D_ENCODING, i - 1, 0, NULL,
				       "'\\u%04lX' is a low surrogate with no high surrogate before it", v);
				return 0;
			}
			i += 4;
			if (v >= 0xD800 && v <= 0xDBFF) {
				long lo = i + 2 < len && s[i + 1] == '\\' && s[i + 2] == 'u'
						  ? hex4(s, len, i + 3)
						  : -1;
				if (lo < 0xDC00 || lo > 0xDFFF) {
					report(r, XQ_SEVERITY_ERROR, XQI_D_ENCODING, i - 5, 0, NULL,
					       "'\\u%04lX' is a high surrogate with no low surrogate after it",
					       v);
					return 0;
				}
				i += 6;
			}
			break;
		}
		default:
			report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, i - 1, 0, NULL,
			       "unknown escape '\\%c' in a string",
			       (unsigned char)s[i] < 0x80 && (unsigned char)s[i] >= 0x20 ? s[i] : '?');
			return 0;
		}
	}
	report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, len, 0, NULL, "the line ends inside a string");
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
	report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, start, 0, NULL, "malformed number");
	return 0;
}

enum expect { X_VALUE, X_VALUE_OR_CLOSE, X_KEY, X_KEY_OR_CLOSE, X_COLON, X_COMMA_OR_CLOSE };

/*
 * Cut the line into tokens.  Returns 0, XQ_EPARSE after reporting a syntax
 * error, or XQ_ENOMEM.
 */
static int tokenize(struct nd_reader *r)
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
				report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, i, 0, NULL, "empty record");
			else
				report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, i, 0, NULL,
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
				report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, i, 0, NULL,
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
			report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, i, 0, NULL, "expected ',' or '%c'",
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
				report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, i, 0, NULL,
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
					report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, i, 0, NULL, "expected a value");
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
				report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, i, 0, NULL,
				       "text after the end of the record");
				return XQ_EPARSE;
			}
			return 0;
		}
		x = X_COMMA_OR_CLOSE;
	}
}

/* ---- pass 2: the game ---------------------------------------------------- */

/* Decode string token `t` into r->scratch (NUL-terminated). */
static int decode_string(struct nd_reader *r, uint32_t t)
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
			uint32_t cp = (uint32_t)hex4(s, len, i + 1);
			char enc[4];
			size_t n;
			i += 5;
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				uint32_t lo = (uint32_t)hex4(s, len, i + 2);
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

static const char *type_name(uint8_t t)
{
	static const char *const names[] = {"an object", "an array", "a string", "a number",
					    "true", "false", "null"};
	return t <= JT_NULL ? names[t] : "a value";
}

/* Is token `t` of type `want`?  Otherwise report "`what` must be ...". */
static int expect_type(struct nd_reader *r, uint32_t t, enum jtype want, uint32_t ply,
		       const char *what)
{
	if (r->toks[t].type == want)
		return 1;
	report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, r->toks[t].start, ply, NULL, "%s must be %s, not %s",
	       what, type_name((uint8_t)want), type_name(r->toks[t].type));
	return 0;
}

/* A non-negative integer number token below 2^63; -1 if it is not one. */
static int64_t tok_u63(struct nd_reader *r, uint32_t t)
{
	const char *s = r->line + r->toks[t].start;
	int64_t v = 0;

	if (r->toks[t].type != JT_NUMBER)
		return -1;
	for (size_t i = 0; i < r->toks[t].len; i++) {
		if (!xq_is_digit((unsigned char)s[i]) || v > (INT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* A non-negative integer number token up to 10^9; -1 if it is not one. */
static long tok_int(struct nd_reader *r, uint32_t t)
{
	int64_t v = tok_u63(r, t);

	return v < 0 || v > 1000000000 ? -1 : (long)v;
}

/*
 * The members of object token `obj` that are named in `names` (NULL-ended):
 * their value tokens go to vals[] (0 when absent).  A repeated member is an
 * error; an unknown one is reported (a warning: it is ignored) unless its
 * name is in `ignored`.
 */
static int members(struct nd_reader *r, uint32_t obj, const char *const *names,
		   const char *const *ignored, uint32_t *vals, uint32_t ply)
{
	size_t n = 0;
	uint32_t k = obj + 1;

	while (names[n])
		vals[n++] = 0;
	while (k < r->toks[obj].next) {
		uint32_t v = k + 1;
		size_t i;
		int rc = decode_string(r, k);
		if (rc)
			return rc;
		for (i = 0; i < n; i++)
			if (!strcmp(r->scratch.ptr, names[i]))
				break;
		if (i < n) {
			if (vals[i]) {
				report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, r->toks[k].start, ply, NULL,
				       "member \"%s\" appears twice", names[i]);
				return XQ_EPARSE;
			}
			vals[i] = v;
		} else {
			int known = 0;
			for (size_t j = 0; ignored && ignored[j]; j++)
				if (!strcmp(r->scratch.ptr, ignored[j]))
					known = 1;
			if (!known)
				report(r, XQ_SEVERITY_WARNING, XQI_D_SYNTAX, r->toks[k].start, ply, NULL,
				       "unknown member \"%.60s\" ignored", r->scratch.ptr);
		}
		k = r->toks[v].next;
	}
	return 0;
}

/* After decode_string(): the warning about bytes it replaced, if any,
 * in `what` (the text of the record that held them) at ply `ply`. */
static void warn_fixed(struct nd_reader *r, const char *what, uint32_t ply)
{
	char msg[256];

	if (!r->fixed)
		return;
	xqi_textdec_repaired_message(msg, sizeof(msg), what, (unsigned char)r->line[r->fixed_at],
				    "utf-8", r->line_offset + r->fixed_at, r->fixed);
	report(r, XQ_SEVERITY_WARNING, XQI_D_ENCODING, r->fixed_at, ply, NULL, "%s", msg);
}

/* Copy string token `t` into the game's arena; `what` it is, for a
 * warning about bytes that are not UTF-8 in it (at ply `ply`). */
static const char *game_string(struct nd_reader *r, uint32_t t, size_t *len, const char *what,
			       uint32_t ply)
{
	const char *p;

	if (decode_string(r, t))
		return NULL;
	warn_fixed(r, what, ply);
	p = xqi_record_strdup(r->g, r->scratch.ptr, r->scratch.len);
	if (len)
		*len = r->scratch.len;
	return p;
}

static int read_tags(struct nd_reader *r, uint32_t arr)
{
	static const char *const names[] = {"name", "value", NULL};
	uint32_t t = arr + 1;

	if (!expect_type(r, arr, JT_ARRAY, 0, "\"tags\""))
		return XQ_EPARSE;
	while (t < r->toks[arr].next) {
		uint32_t v[2];
		const char *name, *value;
		size_t nlen, vlen;
		int rc;
		if (!expect_type(r, t, JT_OBJECT, 0, "a tag"))
			return XQ_EPARSE;
		if ((rc = members(r, t, names, NULL, v, 0)))
			return rc;
		if (!v[0] || !v[1]) {
			report(r, XQ_SEVERITY_ERROR, XQI_D_BAD_TAG, r->toks[t].start, 0, NULL,
			       "a tag needs a \"name\" and a \"value\"");
			return XQ_EPARSE;
		}
		if (!expect_type(r, v[0], JT_STRING, 0, "a tag name") ||
		    !expect_type(r, v[1], JT_STRING, 0, "a tag value"))
			return XQ_EPARSE;
		if (!(name = game_string(r, v[0], &nlen, "a tag name", 0)))
			return XQ_ENOMEM;
		{
			char what[80];
			snprintf(what, sizeof(what), "tag %.40s", name);
			if (!(value = game_string(r, v[1], &vlen, what, 0)))
				return XQ_ENOMEM;
		}
		if (nlen == 0) {
			report(r, XQ_SEVERITY_ERROR, XQI_D_BAD_TAG, r->toks[v[0]].start, 0, NULL,
			       "a tag name cannot be empty");
			return XQ_EPARSE;
		}
		{
			struct xqi_place at;
			at.line = r->lineno;
			at.col = r->toks[t].col;
			at.offset = r->line_offset + r->toks[t].start;
			if (xqi_record_add_tag_at(r->g, name, nlen, value, vlen, &at))
				return XQ_ENOMEM;
		}
		t = r->toks[t].next;
	}
	return 0;
}

/*
 * The record's "source" (where the game was first read from) into
 * g->origin.  It describes the record rather than the game, so a bad one
 * is a warning and is left out: the game then gets this input as its
 * origin.  Returns 0 or XQ_ENOMEM.
 */
static int read_source(struct nd_reader *r, uint32_t obj)
{
	static const char *const names[] = {"file", "game", "line", "offset", NULL};
	enum { S_FILE, S_GAME, S_LINE, S_OFFSET };
	struct xqi_origin o;
	uint32_t v[4];
	int64_t n[4] = {0, 0, 0, 0};
	int bad = -1;
	int rc;

	memset(&o, 0, sizeof(o));
	if (r->toks[obj].type != JT_OBJECT) {
		report(r, XQ_SEVERITY_WARNING, XQI_D_SYNTAX, r->toks[obj].start, 0, NULL,
		       "\"source\" must be an object, not %s; it is ignored",
		       type_name(r->toks[obj].type));
		return 0;
	}
	if ((rc = members(r, obj, names, NULL, v, 0)))
		return rc == XQ_ENOMEM ? rc : 0;
	if (!v[S_FILE] || r->toks[v[S_FILE]].type != JT_STRING)
		bad = S_FILE;
	for (int i = S_GAME; bad < 0 && i <= S_OFFSET; i++)
		if (v[i] && (n[i] = tok_u63(r, v[i])) < 0)
			bad = i;
	if (bad >= 0) {
		report(r, XQ_SEVERITY_WARNING, XQI_D_SYNTAX, r->toks[v[bad] ? v[bad] : obj].start, 0, NULL,
		       "\"source\" needs \"%s\" as %s; it is ignored", names[bad],
		       bad == S_FILE ? "a string" : "a non-negative integer");
		return 0;
	}
	if (!(o.file = game_string(r, v[S_FILE], NULL, "the \"file\" of \"source\"", 0)))
		return XQ_ENOMEM;
	o.game = (uint64_t)n[S_GAME];
	o.line = (uint64_t)n[S_LINE];
	o.offset = (uint64_t)n[S_OFFSET];
	o.has_offset = v[S_OFFSET] != 0;
	r->g->origin = o;
	return 0;
}

/* Parse ICCS "h2e2" or "H2-E2" into a move; 0 if it is not ICCS. */
static xqi_move parse_iccs(const char *s, size_t len)
{
	int f1, r1, f2, r2;
	size_t i = 0;

	if (len != 4 && len != 5)
		return 0;
	f1 = xq_to_lower((unsigned char)s[i++]) - 'a';
	r1 = s[i++] - '0';
	if (len == 5 && s[i++] != '-')
		return 0;
	f2 = xq_to_lower((unsigned char)s[i++]) - 'a';
	r2 = s[i] - '0';
	if (f1 < 0 || f1 > 8 || f2 < 0 || f2 > 8 || r1 < 0 || r1 > 9 || r2 < 0 || r2 > 9)
		return 0;
	return XQI_MOVE(XQI_SQ(f1, r1), XQI_SQ(f2, r2));
}

static int push_frame(struct nd_reader *r, size_t *nframes, uint32_t arr, uint32_t parent,
		      uint32_t ply, const struct xqi_position *board)
{
	struct frame *f;

	if (XQ_ALLOC_GROW(r->frames, *nframes + 1, r->frames_alloc))
		return XQ_ENOMEM;
	f = &r->frames[(*nframes)++];
	f->arr = arr;
	f->cur = arr + 1;
	f->parent = parent;
	f->ply = ply;
	f->board = *board;
	return 0;
}

/*
 * The "variations" `a` of a move at `ply` (alternatives to it, from `parent`
 * and position `before`): a line each, pushed to be read next, in order.
 * 0, 1 when they are malformed (reported), or XQ_ENOMEM.
 */
static int push_variations(struct nd_reader *r, size_t *nframes, uint32_t a, uint32_t parent,
			   uint32_t ply, const struct xqi_position *before)
{
	size_t first = *nframes;

	if (!expect_type(r, a, JT_ARRAY, ply, "\"variations\""))
		return 1;
	for (uint32_t k = a + 1; k < r->toks[a].next; k = r->toks[k].next) {
		if (!expect_type(r, k, JT_ARRAY, ply, "a variation")) {
			*nframes = first;
			return 1;
		}
		if (push_frame(r, nframes, k, parent, ply, before))
			return XQ_ENOMEM;
	}
	/* The stack pops last first: reverse so the lines are read, and
	 * their first moves added as siblings, in order. */
	for (size_t i = first, j = *nframes; i + 1 < j; i++, j--) {
		struct frame tmp = r->frames[i];
		r->frames[i] = r->frames[j - 1];
		r->frames[j - 1] = tmp;
	}
	return 0;
}

/* Derived move texts a writer may add; the reader takes the move from "iccs". */
static const char *const derived_texts[] = {"wxf", "chinese", "uci", "uci1", "san", NULL};

/*
 * One move object `t` of a line whose state is frames[top] (frames[0] is
 * the main line); on success the frame has moved past it and the move's
 * variations are pushed.  Returns 0, 1 when the line must stop here (error
 * reported), 2 when the variation is to be cut here (a move that cannot
 * be read or played; its error held in r->held), or XQ_ENOMEM.
 */
static int read_move(struct nd_reader *r, size_t *nframes, size_t top, uint32_t t)
{
	static const char *const names[] = {"iccs", "text", "comment", "pre_comment", "nags",
					    "variations", NULL};
	enum { M_ICCS, M_TEXT, M_COMMENT, M_PRE, M_NAGS, M_VARS };
	uint32_t v[6], node, ply = r->frames[top].ply, parent = r->frames[top].parent;
	struct xqi_position before = r->frames[top].board;
	struct xq_diagnostic d;
	struct xqi_undo u;
	struct xqi_record *g = r->g;
	char iccs[8];
	xqi_move m;
	int rc;

	if (!expect_type(r, t, JT_OBJECT, ply, "a move"))
		return 1;
	if ((rc = members(r, t, names, derived_texts, v, ply)))
		return rc == XQ_ENOMEM ? rc : 1;
	if (!v[M_ICCS]) {
		report(r, XQ_SEVERITY_ERROR, XQI_D_BAD_MOVE_TEXT, r->toks[t].start, ply, NULL,
		       "a move needs its \"iccs\" coordinates");
		return 1;
	}
	if (!expect_type(r, v[M_ICCS], JT_STRING, ply, "\"iccs\""))
		return 1;
	if (decode_string(r, v[M_ICCS]))
		return XQ_ENOMEM;
	if (r->fixed) {
		/* Moves that are not text: the record is broken there. */
		char msg[160];
		report(r, XQ_SEVERITY_ERROR, XQI_D_ENCODING, r->fixed_at, ply, NULL, "%s",
		       xqi_textdec_bad_message(msg, sizeof(msg), (unsigned char)r->line[r->fixed_at],
					      XQI_ENC_UTF8, r->line_offset + r->fixed_at));
		return 1;
	}
	snprintf(iccs, sizeof(iccs), "%.7s", r->scratch.ptr);
	m = parse_iccs(r->scratch.ptr, r->scratch.len);
	xqi_diagnostic_init(&d);
	if (!m || xqi_move_check(&before, m, &d)) {
		/* In a variation only that variation is cut (read_moves()); the
		 * alternatives to this move are read all the same. */
		r->holding = top > 0;
		r->cut_alts = 0;
		if (!m)
			report(r, XQ_SEVERITY_ERROR, XQI_D_BAD_MOVE_TEXT, r->toks[v[M_ICCS]].start, ply, iccs,
			       "\"%s\" is not an ICCS move (files a-i, ranks 0-9, like \"h2e2\")",
			       iccs);
		else
			report(r, XQ_SEVERITY_ERROR, XQI_D_ILLEGAL_MOVE, r->toks[v[M_ICCS]].start, ply, iccs,
			       "illegal move: %s", d.msg);
		if (!r->holding)
			return 1;
		r->holding = 0; /* held: what follows is said as it comes */
		r->cut_alts = v[M_VARS];
		if (v[M_VARS] && (rc = push_variations(r, nframes, v[M_VARS], parent, ply, &before)) < 0)
			return rc;
		return 2;
	}
	if (xqi_record_add_move(g, parent, m, &node))
		return XQ_ENOMEM;
	g->nodes[node].place.line = r->lineno;
	g->nodes[node].place.col = r->toks[t].col;
	g->nodes[node].place.offset = r->line_offset + r->toks[t].start;
	{
		const uint32_t strs[3] = {v[M_TEXT], v[M_COMMENT], v[M_PRE]};
		const char *const what[3] = {"\"text\"", "\"comment\"", "\"pre_comment\""};
		const char *const field[3] = {"the move's text", "a comment",
					      "a comment before the move"};
		for (int k = 0; k < 3; k++) {
			const char *s;
			size_t len;
			if (!strs[k])
				continue;
			if (!expect_type(r, strs[k], JT_STRING, ply, what[k]))
				return 1;
			if (!(s = game_string(r, strs[k], &len, field[k], ply)))
				return XQ_ENOMEM;
			if (k == 0)
				g->nodes[node].text = s;
			else if (k == 1)
				g->nodes[node].comment = s;
			else
				g->nodes[node].pre_comment = s;
		}
	}
	if (v[M_NAGS]) {
		if (!expect_type(r, v[M_NAGS], JT_ARRAY, ply, "\"nags\""))
			return 1;
		for (uint32_t k = v[M_NAGS] + 1; k < r->toks[v[M_NAGS]].next; k = r->toks[k].next) {
			long nag = tok_int(r, k);
			if (nag < 0 || nag > 255) {
				report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, r->toks[k].start, ply, iccs,
				       "a NAG must be a whole number from 0 to 255");
				return 1;
			}
			if ((rc = xqi_record_add_nag(g, node, (uint8_t)nag)))
				return rc == XQ_ENOMEM ? rc : 1;
		}
	}
	/* Move the line on before pushing (pushing may move the frames). */
	r->frames[top].cur = r->toks[t].next;
	r->frames[top].parent = node;
	r->frames[top].ply = ply + 1;
	xqi_position_make(&r->frames[top].board, m, &u);
	return v[M_VARS] ? push_variations(r, nframes, v[M_VARS], parent, ply, &before) : 0;
}

/*
 * The variation whose move at token `from` could not be read or played is
 * cut there: that move and the rest of the line, tokens [from, end), with
 * the variations inside them, are not kept (but for the move's own
 * "variations", r->cut_alts: alternatives to it, which are read).  The held error is said with
 * how many moves that is (every move is an object there, and only they);
 * the game is XQI_RECORD_CUT, not broken.
 */
static void cut_variation(struct nd_reader *r, uint32_t from, uint32_t end)
{
	uint32_t moves = 0;

	for (uint32_t k = from; k < end; k++) {
		if (k == r->cut_alts) {
			k = r->toks[k].next - 1; /* the alternatives to the bad move are read */
			continue;
		}
		moves += r->toks[k].type == JT_OBJECT;
	}
	r->g->flags |= XQI_RECORD_CUT;
	xqi_cut_message(&r->held, 0, moves, 0);
	xqi_sink_report(r->sink, &r->held);
}

static int read_moves(struct nd_reader *r, uint32_t arr)
{
	size_t nframes = 0;

	if (!expect_type(r, arr, JT_ARRAY, 0, "\"moves\""))
		return 0;
	if (push_frame(r, &nframes, arr, XQI_ROOT, 1, &r->g->start))
		return XQ_ENOMEM;
	while (nframes > 0) {
		size_t top = nframes - 1;
		struct frame *f = &r->frames[top];
		int rc;
		if (f->cur >= r->toks[f->arr].next) {
			nframes--;
			continue;
		}
		rc = read_move(r, &nframes, top, f->cur);
		if (rc < 0)
			return rc;
		if (rc == 2)
			cut_variation(r, r->frames[top].cur, r->toks[r->frames[top].arr].next);
		if (rc > 0) /* the line stops at a bad move; later lines still count */
			r->frames[top].cur = r->toks[r->frames[top].arr].next;
	}
	return 0;
}

static int build_game(struct nd_reader *r)
{
	static const char *const names[] = {"schema", "tags",   "fen",    "result", "result_text",
					    "comment", "moves", "broken", "source", NULL};
	enum { G_SCHEMA, G_TAGS, G_FEN, G_RESULT, G_RTEXT, G_COMMENT, G_MOVES, G_BROKEN, G_SOURCE };
	uint32_t v[9];
	struct xqi_record *g = r->g;
	int rc, bad_start = 0;

	if (r->toks[0].type != JT_OBJECT) {
		report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, r->toks[0].start, 0, NULL,
		       "a game record must be a JSON object, not %s", type_name(r->toks[0].type));
		return 0;
	}
	if ((rc = members(r, 0, names, NULL, v, 0)))
		return rc == XQ_ENOMEM ? rc : 0;
	if (!v[G_SCHEMA]) {
		report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, 0, 0, NULL,
		       "no \"schema\" member: not an xqkit game record");
		return 0;
	}
	if (!expect_type(r, v[G_SCHEMA], JT_STRING, 0, "\"schema\""))
		return 0;
	if (decode_string(r, v[G_SCHEMA]))
		return XQ_ENOMEM;
	if (strcmp(r->scratch.ptr, NDJSON_SCHEMA)) {
		int ours = !strncmp(r->scratch.ptr, "xqkit.game/", 11);
		report(r, XQ_SEVERITY_ERROR, ours ? XQI_D_UNSUPPORTED : XQI_D_SYNTAX,
		       r->toks[v[G_SCHEMA]].start, 0, NULL,
		       ours ? "schema \"%.40s\" is not supported (this xqkit reads \"" NDJSON_SCHEMA "\")"
			    : "schema \"%.40s\" is not a game record (expected \"" NDJSON_SCHEMA "\")",
		       r->scratch.ptr);
		return 0;
	}
	if (v[G_SOURCE] && (rc = read_source(r, v[G_SOURCE])))
		return rc;
	if (v[G_FEN]) {
		struct xq_diagnostic d;
		if (!expect_type(r, v[G_FEN], JT_STRING, 0, "\"fen\""))
			return 0;
		if (decode_string(r, v[G_FEN]))
			return XQ_ENOMEM;
		xqi_diagnostic_init(&d);
		/* Composed positions with pieces on unusual points are kept
		 * (validate reports them); anything else wrong is an error. */
		if (xqi_position_from_fen(&g->start, r->scratch.ptr, r->scratch.len,
				      XQI_FEN_LENIENT_PLACEMENT, &d)) {
			report(r, XQ_SEVERITY_ERROR, XQI_D_BAD_FEN,
			       r->toks[v[G_FEN]].start + (d.place.col ? d.place.col : 0), 0, NULL,
			       "bad FEN: %s", d.msg);
			/* Kept as written, never replaced by another position;
			 * the rest of the record is read, but no move. */
			if (xqi_record_set_start_text(g, r->scratch.ptr, r->scratch.len))
				return XQ_ENOMEM;
			bad_start = 1;
		}
	}
	if (v[G_TAGS] && (rc = read_tags(r, v[G_TAGS])))
		return rc == XQ_ENOMEM ? rc : 0;
	if (v[G_RESULT] && r->toks[v[G_RESULT]].type != JT_NULL) {
		if (!expect_type(r, v[G_RESULT], JT_STRING, 0, "\"result\""))
			return 0;
		if (decode_string(r, v[G_RESULT]))
			return XQ_ENOMEM;
		if (xqi_result_parse(r->scratch.ptr, r->scratch.len, &g->result)) {
			report(r, XQ_SEVERITY_ERROR, XQI_D_BAD_RESULT, r->toks[v[G_RESULT]].start, 0, NULL,
			       "\"result\" must be \"1-0\", \"0-1\", \"1/2-1/2\", \"*\" or null, not \"%.40s\"",
			       r->scratch.ptr);
			return 0;
		}
	}
	if (v[G_RTEXT]) {
		if (!expect_type(r, v[G_RTEXT], JT_STRING, 0, "\"result_text\""))
			return 0;
		if (!(g->result_text = game_string(r, v[G_RTEXT], NULL, "\"result_text\"", 0)))
			return XQ_ENOMEM;
	}
	if (v[G_COMMENT]) {
		if (!expect_type(r, v[G_COMMENT], JT_STRING, 0, "\"comment\""))
			return 0;
		if (!(g->nodes[XQI_ROOT].comment = game_string(r, v[G_COMMENT], NULL, "the game's comment", 0)))
			return XQ_ENOMEM;
	}
	if (v[G_MOVES] && !bad_start && (rc = read_moves(r, v[G_MOVES])))
		return rc;
	if (g->nnodes == 1 && !r->bad)
		g->flags |= XQI_RECORD_EMPTY;
	if (v[G_BROKEN] && r->toks[v[G_BROKEN]].type == JT_TRUE) {
		report(r, XQ_SEVERITY_WARNING, XQI_D_TRUNCATED, r->toks[v[G_BROKEN]].start, 0, NULL,
		       "the record is marked broken: it was kept only up to an error in its source");
		g->flags |= XQI_RECORD_BROKEN;
	}
	return 0;
}

/* ---- reading lines ------------------------------------------------------- */

/* Bytes read from the input so far. */
static uint64_t nd_bytes_read(const struct nd_reader *r)
{
	return r->offset + (r->buf.len - r->pos);
}

/*
 * The next line in r->line/r->len (without the newline).  Returns 1, 0 at
 * the end of the input, or a negative code (reported).  A line over the
 * limit returns 2, with no more of the input read: it may never end.
 */
/*
 * The line at r->buf.ptr[0] runs past the limit with no line end in the
 * buffer: its bytes are dropped as they come, up to its end, at most
 * XQI_SKIP_MAX of them past the limit.  Returns 2 with the line taken (its
 * place set, r->len 0), 3 when it goes on past that (read no further), or
 * the input's error.
 */
static int skip_long_line(struct nd_reader *r)
{
	uint64_t start = r->offset, skipped = 0;
	char *nl = NULL;

	r->lineno++;
	r->line_offset = start;
	r->len = 0;
	/* Every round drops the bytes read, or meets the end. */
	for (uint64_t was = r->offset;; XQI_ADVANCED(was, r->offset)) {
		struct xq_diagnostic d;
		long n;
		nl = memchr(r->buf.ptr, '\n', r->buf.len);
		if (nl)
			break;
		r->offset += r->buf.len;
		skipped += r->buf.len;
		xq_buf_reset(&r->buf);
		if (skipped > r->max_line + XQI_SKIP_MAX)
			return 3;
		if (xq_buf_grow(&r->buf, CHUNK))
			return XQ_ENOMEM;
		xqi_diagnostic_init(&d);
		n = r->in ? xqi_input_read(r->in, r->buf.ptr, CHUNK, &d)
			  : r->src.read(r->src.ctx, r->buf.ptr, CHUNK, &d);
		if (n < 0) {
			if (!d.source)
				d.source = r->name;
			d.game = r->games + 1;
			xqi_sink_report(r->sink, &d);
			return (int)n;
		}
		if (n == 0) {
			r->eof = 1;
			r->line_ended = 0;
			r->pos = 0;
			return 2;
		}
		r->buf.len = (size_t)n;
		r->buf.ptr[r->buf.len] = '\0';
	}
	r->pos = (size_t)(nl - r->buf.ptr) + 1;
	r->offset += r->pos;
	r->line_ended = 1;
	return 2;
}

static int next_line(struct nd_reader *r)
{
	size_t scan = r->pos;

	/* Every round reads bytes, or meets the end of the input. */
	for (uint64_t was = nd_bytes_read(r) + (uint64_t)r->eof;;
	     XQI_ADVANCED(was, nd_bytes_read(r) + (uint64_t)r->eof)) {
		char *nl = memchr(r->buf.ptr + scan, '\n', r->buf.len - scan);
		struct xq_diagnostic d;
		long n;
		if (nl || (r->eof && r->pos < r->buf.len)) {
			size_t end = nl ? (size_t)(nl - r->buf.ptr) : r->buf.len;
			r->lineno++;
			r->line = r->buf.ptr + r->pos;
			r->len = end - r->pos;
			r->line_offset = r->offset;
			r->offset += end - r->pos + (nl ? 1 : 0);
			r->line_ended = nl != NULL;
			r->pos = end + (nl ? 1 : 0);
			if (r->len > r->max_line) {
				r->len = 0; /* the record is skipped */
				return 2;
			}
			return 1;
		}
		if (r->eof)
			return 0;
		scan = r->buf.len;
		/* Drop what was consumed before growing. */
		if (r->pos > 0) {
			memmove(r->buf.ptr, r->buf.ptr + r->pos, r->buf.len - r->pos);
			scan -= r->pos;
			xq_buf_truncate(&r->buf, r->buf.len - r->pos);
			r->pos = 0;
		}
		if (r->buf.len > r->max_line)
			return skip_long_line(r); /* over the limit: skipped */
		if (xq_buf_grow(&r->buf, CHUNK))
			return XQ_ENOMEM;
		xqi_diagnostic_init(&d);
		n = r->in ? xqi_input_read(r->in, r->buf.ptr + r->buf.len, CHUNK, &d)
			  : r->src.read(r->src.ctx, r->buf.ptr + r->buf.len, CHUNK, &d);
		if (n < 0) {
			if (!d.source)
				d.source = r->name;
			d.game = r->games + 1;
			xqi_sink_report(r->sink, &d);
			return (int)n;
		}
		if (n == 0) {
			r->eof = 1;
			continue;
		}
		r->buf.len += (size_t)n;
		r->buf.ptr[r->buf.len] = '\0';
	}
}

static struct nd_reader *new_reader(const struct xqi_read_opts *opts, const struct xqi_sink *sink)
{
	struct nd_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	if (opts)
		r->opts = *opts;
	r->max_line = (size_t)xqi_format_record_limit(&xqi_format_ndjson, opts);
	r->sink = sink;
	xq_buf_init(&r->buf);
	xq_buf_init(&r->scratch);
	if (xqi_textdec_init(&r->td, XQI_ENC_UTF8, XQI_TEXTDEC_BAD_EVENTS, 0, 0)) {
		xq_buf_release(&r->buf);
		xq_buf_release(&r->scratch);
		free(r);
		return NULL;
	}
	return r;
}

static int nd_open_reader(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
			  const struct xqi_sink *sink)
{
	struct nd_reader *r = new_reader(opts, sink);

	if (!r)
		return XQ_ENOMEM;
	r->in = in;
	r->name = xqi_input_name(in);
	*out = r;
	return 0;
}

/*
 * The first of the decoder's events (bytes that are not UTF-8, NULs) that
 * is not inside a JSON string of the line, or NULL when every one is.
 */
static const struct xqi_textdec_event *outside_strings(struct nd_reader *r)
{
	const struct xqi_textdec *d = &r->td;
	size_t i = 0, e = d->ev_first;
	int in = 0;

	/* Events come in the order of their places: one pass over the line. */
	while (e < d->nevents) {
		size_t at = (size_t)(d->events[e].raw - r->line_offset);
		for (; i < at && i < r->len; i++) {
			if (r->line[i] == '"')
				in = !in;
			else if (in && r->line[i] == '\\')
				i++;
		}
		if (!in || d->events[e].byte == 0)
			return &d->events[e];
		e++;
	}
	return NULL;
}

static int read_record(struct nd_reader *r, struct xqi_record *g)
{
	uint64_t blank_from = r->offset;
	uint32_t blank_line = r->lineno + 1;

	/* Every round takes a line. */
	for (uint64_t was = r->offset + (uint64_t)r->eof;;
	     XQI_ADVANCED(was, r->offset + (uint64_t)r->eof)) {
		int rc = next_line(r);
		size_t skip = 0;
		if (rc <= 0)
			return rc;
		/* A UTF-8 byte order mark may start the input. */
		if (r->lineno == 1 && r->len >= 3 && !memcmp(r->line, "\xEF\xBB\xBF", 3))
			skip = 3;
		{
			size_t i = skip;
			while (i < r->len && xq_is_space((unsigned char)r->line[i]))
				i++;
			if (i == r->len && rc == 1) {
				/* Blank lines separate nothing; a run of them
				 * longer than XQI_SKIP_MAX is the end. */
				if (r->offset - blank_from <= XQI_SKIP_MAX)
					continue;
				report(r, XQ_SEVERITY_ERROR, XQI_D_RESOURCE, 0, 0, NULL,
				       "more than %llu MiB of blank lines since line %u and no "
				       "record; the rest of the input is not read",
				       (unsigned long long)(XQI_SKIP_MAX >> 20), (unsigned)blank_line);
				return XQ_ERANGE;
			}
		}
		r->games++;
		r->g = g;
		r->bad = 0;
		xqi_record_clear(g);
		g->number = r->games;
		g->source = r->name;
		g->place.line = r->lineno;
		g->place.col = 1;
		g->place.offset = r->line_offset;
		g->encoding = "utf-8";
		if (rc >= 2) {
			/* Over the limit: the record is skipped (broken, with
			 * nothing read) and the next line is read, unless the
			 * line went on past what may be skipped. */
			struct xq_diagnostic d;
			xqi_diagnostic_init(&d);
			r->line = "";
			xqi_format_limit_diag_then(&d, &xqi_format_ndjson, &r->opts, "the record",
						  rc == 2 ? "it is skipped and reading goes on at the "
							    "next line"
							  : "it is skipped, and more than 16 MiB after "
							    "the limit had no line end: the rest of the "
							    "input is not read");
			report(r, XQ_SEVERITY_ERROR, XQI_D_RESOURCE, 0, 0, NULL, "%s", d.msg);
			return rc == 2 ? 1 : XQ_ERANGE;
		}
		{
			/* NDJSON is UTF-8, whatever the bytes look like: the decoder
			 * reads the line in place and finds what is not text. */
			struct xqi_textdec *d = &r->td;
			long used;
			d->dpos = d->raw = r->line_offset;
			d->ev_first = d->nevents = 0;
			used = xqi_textdec_feed(d, r->line, r->len, 1, NULL);
			if (used < 0)
				return (int)used;
			r->bad_bytes = 0;
			if (d->nevents) {
				/* Inside strings such bytes are confined to the text
				 * that holds them (decode_string()); anywhere else the
				 * record cannot be read. */
				const struct xqi_textdec_event *e = outside_strings(r);
				char msg[160];
				if (e) {
					report(r, XQ_SEVERITY_ERROR, XQI_D_ENCODING,
					       (size_t)(e->raw - r->line_offset), 0, NULL, "%s",
					       xqi_textdec_bad_message(msg, sizeof(msg), e->byte, e->enc,
								      e->raw));
					return 1;
				}
				r->bad_bytes = 1;
			}
		}
		/* Columns and offsets count from the line start, BOM included. */
		if (skip) {
			r->line += skip;
			r->len -= skip;
			r->line_offset += skip;
		}
		rc = tokenize(r);
		if (rc == XQ_ENOMEM)
			return rc;
		if (rc == 0 && (rc = build_game(r)) == XQ_ENOMEM)
			return rc;
		r->g = NULL;
		return 1;
	}
}

static int nd_read(void *reader, struct xqi_record *g)
{
	struct nd_reader *r = reader;

	return xqi_read_guard(&r->guard, read_record(r, g), r->offset, g, r->sink);
}

static void nd_close_reader(void *reader)
{
	struct nd_reader *r = reader;

	if (!r)
		return;
	xq_buf_release(&r->buf);
	xq_buf_release(&r->scratch);
	xqi_textdec_release(&r->td);
	free(r->toks);
	free(r->stack);
	free(r->frames);
	free(r);
}

/* ---- splitting ------------------------------------------------------------ */

/*
 * A record is a line, so an input splits after any line end: the splitter
 * counts the lines that are not blank (as nd_read() skips them) and
 * proposes the start of the line after each record.  A chunk reader is
 * the reader with its line, offset and record count set to the chunk's.
 */
struct nd_split {
	struct xqi_bytes src;
	char buf[CHUNK];
	size_t len, pos;
	uint64_t off;      /* input offset of buf[pos] */
	uint64_t line;     /* the line being scanned */
	size_t line_len;   /* its bytes so far */
	uint64_t records;
	uint64_t run_from; /* offset after the last record: what follows is blank so far */
	int nonblank;      /* the line has a byte that is not white space */
	int bom;           /* line 1 has started with the bytes of a byte order mark so far */
	int eof;
	uint64_t max_line; /* the reader's limit of a line */
};

static int nd_split_open(void **out, const struct xqi_bytes *src, const struct xqi_read_opts *opts)
{
	struct nd_split *s = calloc(1, sizeof(*s));

	if (!s)
		return XQ_ENOMEM;
	s->max_line = xqi_format_record_limit(&xqi_format_ndjson, opts);
	s->src = *src;
	s->line = 1;
	s->bom = 1;
	*out = s;
	return 0;
}

static void nd_split_close(void *sp)
{
	free(sp);
}

static int nd_split_next(void *sp, struct xqi_split_point *pt)
{
	static const unsigned char bom[3] = {0xEF, 0xBB, 0xBF};
	struct nd_split *s = sp;

	/* Every round takes a byte (off) or reads (len - pos): 2 off + len - pos grows. */
	for (uint64_t was = 2 * s->off + (s->len - s->pos) + (uint64_t)s->eof;;
	     XQI_ADVANCED(was, 2 * s->off + (s->len - s->pos) + (uint64_t)s->eof)) {
		unsigned char c;
		/* What the reader stops at (a line XQI_SKIP_MAX past its limit,
		 * blank text over XQI_SKIP_MAX) cannot be split: it is left to the
		 * reader.  A line over the limit, which the reader skips, is a
		 * record all the same. */
		if (s->line_len > s->max_line + XQI_SKIP_MAX ||
		    (!s->nonblank && s->off - s->run_from > XQI_SKIP_MAX))
			return XQ_ERANGE;
		if (s->pos == s->len) {
			struct xq_diagnostic d;
			long n;
			if (s->eof)
				return 0;
			xqi_diagnostic_init(&d);
			n = s->src.read(s->src.ctx, s->buf, CHUNK, &d);
			if (n < 0)
				return (int)n;
			s->eof = n == 0;
			s->len = (size_t)n;
			s->pos = 0;
			continue;
		}
		c = (unsigned char)s->buf[s->pos++];
		s->off++;
		if (c != '\n') {
			/* nd_read(): a byte order mark may start line 1; the rest of
			 * the line is blank when every byte is white space. */
			if (s->line == 1 && s->bom && s->line_len < 3 && c == bom[s->line_len]) {
				s->line_len++;
				continue;
			}
			if (s->line == 1 && s->bom) {
				if (s->line_len < 3 && s->line_len > 0)
					s->nonblank = 1; /* the start of a mark, cut short */
				s->bom = 0;
			}
			if (!xq_is_space(c))
				s->nonblank = 1;
			s->line_len++;
			continue;
		}
		if (s->line == 1 && s->bom && s->line_len > 0 && s->line_len < 3)
			s->nonblank = 1;
		s->line++;
		s->line_len = 0;
		s->bom = 0;
		if (s->nonblank) {
			s->nonblank = 0;
			s->run_from = s->off;
			pt->offset = s->off;
			pt->line = s->line;
			pt->records = ++s->records;
			pt->seen = s->off;
			pt->encoding = XQI_ENC_UTF8;
			pt->first_high = 0;
			return 1;
		}
	}
}

static int nd_open_chunk(void **out, const struct xqi_chunk *c, const struct xqi_read_opts *opts,
			 const struct xqi_sink *sink)
{
	struct nd_reader *r = new_reader(opts, sink);

	if (!r)
		return XQ_ENOMEM;
	r->src = c->bytes;
	r->name = c->name;
	r->lineno = c->line - 1;
	r->offset = c->offset;
	r->games = c->records;
	*out = r;
	return 0;
}

static int nd_chunk_next(void *reader, struct xqi_place *next)
{
	struct nd_reader *r = reader;

	if (!r->line_ended)
		return 0;
	next->offset = r->offset;
	next->line = r->lineno + 1;
	next->col = 1;
	return 1;
}

const struct xqi_split_ops xqi_ndjson_split = {
	nd_split_open,
	nd_split_next,
	nd_split_close,
	nd_open_chunk,
	nd_chunk_next,
	NULL, /* boundary: NDJSON is cut at line ends, and counting them is cheap */
	NULL,
};

/* ---- writing ------------------------------------------------------------- */

struct nd_writer {
	struct xq_file *o;
	const struct xqi_sink *sink; /* borrowed (format.h) */
	struct xqi_write_opts opts;
	const char *derived;  /* member name of the derived move text, or NULL */
	struct xq_buf b;
	unsigned char *levels; /* per open line of the tree being written: LEVEL_* */
	size_t levels_alloc;
};

static int add_member(struct xq_buf *b, const char *name, const char *value)
{
	int rc = xq_buf_addf(b, ",\"%s\":", name);
	return rc ? rc : xq_buf_add_json_string(b, value, strlen(value));
}

/* Write the object of node `n`, played from `before`, up to (not
 * including) its closing brace. */
static int write_move(struct nd_writer *w, const struct xqi_record *g, uint32_t n,
		      struct xqi_position *before)
{
	const struct xqi_node *x = &g->nodes[n];
	struct xq_buf *b = &w->b;
	char iccs[5];
	int rc;

	xqi_move_name(x->move, iccs);
	rc = xq_buf_addf(b, "{\"iccs\":\"%s\"", iccs);
	if (!rc && x->text)
		rc = add_member(b, "text", x->text);
	if (!rc && w->derived) {
		char text[XQ_MOVE_TEXT_SIZE];
		if (xqi_notation_write(text, sizeof(text), before, x->move,
				      (enum xq_dialect)w->opts.notation, w->opts.notation_flags))
			rc = add_member(b, w->derived, text);
	}
	if (!rc && x->pre_comment)
		rc = add_member(b, "pre_comment", x->pre_comment);
	if (!rc && x->comment)
		rc = add_member(b, "comment", x->comment);
	if (!rc && x->nnags) {
		rc = xq_buf_adds(b, ",\"nags\":[");
		for (unsigned i = 0; !rc && i < x->nnags; i++)
			rc = xq_buf_addf(b, "%s%u", i ? "," : "", x->nags[i]);
		if (!rc)
			rc = xq_buf_addc(b, ']');
	}
	return rc;
}

/* What is open in a line being written. */
enum { LEVEL_MOVES = 1, LEVEL_MOVE_OPEN = 2, LEVEL_IN_VARIATIONS = 4 };

/* End the move object left open in a line (and its variations). */
static int close_move(struct xq_buf *b, unsigned char *level)
{
	int rc = 0;

	if (*level & LEVEL_MOVE_OPEN)
		rc = xq_buf_adds(b, *level & LEVEL_IN_VARIATIONS ? "]}" : "}");
	*level &= (unsigned char)~(LEVEL_MOVE_OPEN | LEVEL_IN_VARIATIONS);
	return rc;
}

/*
 * The tree as nested lines: a line is the array of a move and its first
 * children; a move that is the first child of its parent and has later
 * siblings carries them as "variations", each the start of a line.  This
 * is the order of the text walk (record.h, xqi_textwalk): a move, then each
 * alternative to it as a variation, then the move after it, so the walk
 * gives the moves with their positions and only the brackets are kept
 * here, one level per open line.
 */
static int write_tree(struct nd_writer *w, const struct xqi_record *g)
{
	struct xq_buf *b = &w->b;
	struct xqi_textwalk t;
	size_t depth = 1;
	int step, rc;

	if ((rc = xq_buf_adds(b, ",\"moves\":[")))
		return rc;
	if (XQ_ALLOC_GROW(w->levels, 1, w->levels_alloc) || xqi_textwalk_init(&t, g))
		return XQ_ENOMEM;
	w->levels[0] = 0;
	while (!rc && (step = xqi_textwalk_next(&t)) > 0) {
		unsigned char *level = &w->levels[depth - 1];
		switch (step) {
		case XQI_TEXT_MOVE:
			rc = close_move(b, level);
			if (!rc && (*level & LEVEL_MOVES))
				rc = xq_buf_addc(b, ',');
			if (!rc)
				rc = write_move(w, g, t.node, &t.before);
			*level |= LEVEL_MOVES | LEVEL_MOVE_OPEN;
			break;
		case XQI_TEXT_OPEN:
			rc = xq_buf_adds(b, *level & LEVEL_IN_VARIATIONS ? ",[" : ",\"variations\":[[");
			*level |= LEVEL_IN_VARIATIONS;
			if (!rc && XQ_ALLOC_GROW(w->levels, depth + 1, w->levels_alloc))
				rc = XQ_ENOMEM;
			if (!rc)
				w->levels[depth++] = 0;
			break;
		case XQI_TEXT_CLOSE:
			rc = close_move(b, level);
			if (!rc)
				rc = xq_buf_addc(b, ']');
			depth--;
			break;
		}
	}
	xqi_textwalk_release(&t);
	if (rc || step < 0)
		return rc ? rc : step;
	rc = close_move(b, &w->levels[0]);
	return rc ? rc : xq_buf_addc(b, ']');
}

/* `sep`, "name": and v in decimal at p; returns the end. */
static char *put_member(char *p, const char *sep, const char *name, uint64_t v)
{
	char digits[20];
	size_t n = 0;

	while (*sep)
		*p++ = *sep++;
	*p++ = '"';
	while (*name)
		*p++ = *name++;
	*p++ = '"';
	*p++ = ':';
	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n)
		*p++ = digits[--n];
	return p;
}

/* What follows the file in the "source" of origin `o`: its game, line and
 * offset members (after a comma when `after` is set) and the closing
 * brace, into buf (ORIGIN_TAIL_MAX bytes); returns its length.  No
 * printf: renumber writes it twice a game, on the one thread that emits. */
#define ORIGIN_TAIL_MAX 128
static size_t origin_tail(char *buf, const struct xqi_origin *o, int after)
{
	const char *sep = after ? "," : "";
	char *p = buf;

	if (o->game) {
		p = put_member(p, sep, "game", o->game);
		sep = ",";
	}
	if (o->line) {
		p = put_member(p, sep, "line", o->line);
		sep = ",";
	}
	if (o->has_offset)
		p = put_member(p, sep, "offset", o->offset);
	*p++ = '}';
	*p = '\0';
	return (size_t)(p - buf);
}

#define SOURCE_OPEN "\"source\":{"
#define SOURCE_FILE "\"file\":"

/* The "source" member of origin `o` (ndjson.h). */
int xqi_ndjson_add_origin(struct xq_buf *b, const struct xqi_origin *o)
{
	char tail[ORIGIN_TAIL_MAX];
	size_t n = origin_tail(tail, o, o->file != NULL);
	int rc = xq_buf_adds(b, SOURCE_OPEN);

	if (!rc && o->file) {
		rc = xq_buf_adds(b, SOURCE_FILE);
		if (!rc)
			rc = xq_buf_add_json_string(b, o->file, strlen(o->file));
	}
	return rc ? rc : xq_buf_add(b, tail, n);
}

int xqi_ndjson_add_source(struct xq_buf *b, const struct xqi_record *g)
{
	struct xqi_origin o;

	xqi_record_origin(g, &o);
	return xqi_ndjson_add_origin(b, &o);
}

#define RECORD_HEAD "{\"schema\":\"" NDJSON_SCHEMA "\","

/* Does `s` (up to `end`) start with `lit`?  Then the byte after it. */
static const char *skip_lit(const char *s, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	return (size_t)(end - s) >= n && !memcmp(s, lit, n) ? s + n : NULL;
}

/*
 * format.h, `renumber`: the record's "source" is right after its schema;
 * what follows its file (its game, line and offset) is written again with
 * g's number and line.  In place and with no memory of its own: it runs
 * once a game on the one thread that emits, and the buffer is a worker's
 * (swapping in a buffer of the emitter's made the threads free each
 * other's memory).
 */
static int nd_renumber(struct xq_buf *text, const struct xqi_record *g, uint64_t number, uint64_t line)
{
	char was[ORIGIN_TAIL_MAX], now[ORIGIN_TAIL_MAX];
	const char *p = text->ptr, *end = text->ptr + text->len;
	struct xqi_origin o;
	size_t nw, nn, at;

	/* The origin a record came with holds no number of this reading; a
	 * game with no source has no "source" (nd_format_game). */
	if (g->origin.file || !g->source)
		return 0;
	xqi_record_origin(g, &o);
	nn = origin_tail(now, &o, 1);
	o.game = number;
	o.line = line;
	nw = origin_tail(was, &o, 1);
	if (!(p = skip_lit(p, end, RECORD_HEAD)) || !(p = skip_lit(p, end, SOURCE_OPEN)) ||
	    !(p = skip_lit(p, end, SOURCE_FILE "\"")))
		return XQ_EINTERNAL;
	/* The file's JSON string, as written: to its unescaped quote. */
	while (p < end && *p != '"')
		p += *p == '\\' ? 2 : 1;
	if (p++ >= end)
		return XQ_EINTERNAL;
	if (!skip_lit(p, end, was))
		return XQ_EINTERNAL;
	at = (size_t)(p - text->ptr);
	if (nn > nw && xq_buf_grow(text, nn - nw))
		return XQ_ENOMEM;
	memmove(text->ptr + at + nn, text->ptr + at + nw, text->len - at - nw + 1); /* and the NUL */
	memcpy(text->ptr + at, now, nn);
	text->len = text->len - nw + nn;
	return 0;
}

static int nd_format_game(struct nd_writer *w, const struct xqi_record *g)
{
	struct xq_buf *b = &w->b;
	char fen[XQ_FEN_SIZE];
	const char *start;
	int rc;

	xq_buf_reset(b);
	xqi_position_to_fen(&g->start, fen, sizeof(fen));
	/* The start position is authoritative (record.h), unless the source's
	 * could not be read: then its text as written. */
	xqi_write_start_check(w->sink, w->o, g, "NDJSON", 1);
	start = g->start_text ? g->start_text : fen;
	rc = xq_buf_adds(b, RECORD_HEAD);
	/* Where the game came from, when known (a game built by a program
	 * may have no origin at all). */
	if (!rc && (g->origin.file || g->source)) {
		rc = xqi_ndjson_add_source(b, g);
		if (!rc)
			rc = xq_buf_addc(b, ',');
	}
	if (!rc)
		rc = xq_buf_adds(b, "\"tags\":[");
	for (size_t i = 0; !rc && i < g->ntags; i++) {
		const char *value = g->tags[i].value;
		if (!strcmp(g->tags[i].name, "FEN"))
			value = start;
		rc = xq_buf_adds(b, i ? ",{\"name\":" : "{\"name\":");
		if (!rc)
			rc = xq_buf_add_json_string(b, g->tags[i].name, strlen(g->tags[i].name));
		if (!rc)
			rc = xq_buf_adds(b, ",\"value\":");
		if (!rc)
			rc = xq_buf_add_json_string(b, value, strlen(value));
		if (!rc)
			rc = xq_buf_addc(b, '}');
	}
	if (!rc)
		rc = xq_buf_addc(b, ']');
	if (!rc)
		rc = add_member(b, "fen", start);
	if (!rc)
		rc = g->result == XQI_RESULT_NONE ? xq_buf_adds(b, ",\"result\":null")
						 : add_member(b, "result", xqi_result_string(g->result));
	if (!rc && g->result_text)
		rc = add_member(b, "result_text", g->result_text);
	if (!rc && g->nodes[XQI_ROOT].comment)
		rc = add_member(b, "comment", g->nodes[XQI_ROOT].comment);
	if (!rc)
		rc = write_tree(w, g);
	if (!rc && (g->flags & XQI_RECORD_BROKEN))
		rc = xq_buf_adds(b, ",\"broken\":true");
	if (!rc)
		rc = xq_buf_adds(b, "}\n");
	return rc;
}

static int nd_open_writer(void **out, struct xq_file *o, const struct xqi_write_opts *opts,
			  const struct xqi_sink *sink)
{
	struct nd_writer *w;

	if (opts && opts->encoding != XQI_ENC_UNKNOWN && opts->encoding != XQI_ENC_UTF8)
		return xqi_write_refuse(sink, o,
				       "NDJSON is always UTF-8; it cannot be written in %s",
				       xqi_encoding_name(opts->encoding));
	w = calloc(1, sizeof(*w));
	if (!w)
		return XQ_ENOMEM;
	w->o = o;
	w->sink = sink;
	if (opts)
		w->opts = *opts;
	/* Moves also in the notation asked for (ICCS is there already). */
	if (w->opts.notation > XQ_DIALECT_ICCS && w->opts.notation != XQ_DIALECT_SAN)
		w->derived = xqi_notation_name((enum xq_dialect)w->opts.notation);
	xq_buf_init(&w->b);
	/* Room for a typical record at once (3 KB of a 76,000-game PGN): a
	 * writer opened for each game (cmd/output.c on several threads)
	 * otherwise grows its buffer nine times a game. */
	if (xq_buf_grow(&w->b, 4096)) {
		free(w);
		return XQ_ENOMEM;
	}
	*out = w;
	return 0;
}

static int nd_write(void *writer, const struct xqi_record *g)
{
	struct nd_writer *w = writer;
	int rc = nd_format_game(w, g);

	if (rc)
		return rc;
	return xqi_file_write(w->o, w->b.ptr, w->b.len);
}

static int nd_close_writer(void *writer)
{
	struct nd_writer *w = writer;

	if (!w)
		return 0;
	xq_buf_release(&w->b);
	free(w->levels);
	free(w);
	return 0;
}

/* ---- probe --------------------------------------------------------------- */

static int json_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * The JSON string at head[*i] (its opening quote), decoded as far as its
 * first `cap` bytes into `out` (only what the probe compares: ASCII; any
 * other character becomes 0x80, which matches nothing it looks for).
 * Returns the decoded length (possibly more than `cap`) and leaves *i
 * after the closing quote, or -1 if the string is not whole in `head`.
 */
static long probe_string(const unsigned char *head, size_t len, size_t *i, char *out, size_t cap)
{
	size_t k = *i + 1;
	long n = 0;

	while (k < len && head[k] != '"') {
		unsigned c = head[k++];
		if (c == '\\') {
			static const char esc[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
			const char *e;
			if (k >= len)
				return -1;
			c = head[k++];
			if (c == 'u') {
				unsigned v = 0;
				for (int d = 0; d < 4; d++, k++) {
					if (k >= len || xqi_hex_value(head[k]) < 0)
						return -1;
					v = v * 16 + (unsigned)xqi_hex_value(head[k]);
				}
				c = v < 0x80 ? v : 0x80;
			} else if (c && (e = strchr(esc, (int)c)) && (e - esc) % 2 == 0) {
				c = (unsigned char)e[1];
			} else {
				return -1;
			}
		} else if (c >= 0x80) {
			c = 0x80;
		}
		if ((size_t)n < cap)
			out[n] = (char)c;
		n++;
	}
	if (k >= len)
		return -1;
	*i = k + 1;
	return n;
}

/* Past JSON white space, is head[*i] the byte `c`? */
static int probe_at(const unsigned char *head, size_t len, size_t *i, unsigned char c)
{
	while (*i < len && json_space(head[*i]))
		(*i)++;
	return *i < len && head[*i] == c;
}

/* Skip the JSON value at head[*i] (not checking it: a probe only looks);
 * 0, or -1 if it is not whole in `head`. */
static int probe_skip_value(const unsigned char *head, size_t len, size_t *i)
{
	size_t k = *i, depth = 0;

	while (k < len) {
		unsigned char c = head[k];
		if (!depth && (c == ',' || c == '}' || json_space(c))) {
			*i = k;
			return 0;
		}
		if (c == '"') {
			if (probe_string(head, len, &k, NULL, 0) < 0)
				return -1;
			continue;
		}
		if (c == '{' || c == '[')
			depth++;
		else if (c == '}' || c == ']') {
			if (!depth)
				return -1;
			depth--;
		}
		k++;
	}
	return -1;
}

/* Does the line from head[i] hold a byte that JSON text never holds raw
 * (a control character other than its white space)? */
static int probe_binary_line(const unsigned char *head, size_t len, size_t i)
{
	for (; i < len && head[i] != '\n'; i++)
		if (head[i] < 0x20 && head[i] != '\t' && head[i] != '\r')
			return 1;
	return 0;
}

/*
 * Ours when the first line is a JSON object whose "schema" member names
 * xqkit.game: found whatever the spelling (spaces around ':' and ',' as
 * Python's json.dumps writes them, escapes in the names, members in any
 * order), as far as `head` holds the record.  Any other first line that
 * starts as an object may still be a damaged record of ours (a low
 * score), unless it is not JSON from its first member on or holds bytes
 * no JSON text holds: binary data that happens to start with '{'.
 */
static int nd_probe(const unsigned char *head, size_t len)
{
	static const char prefix[] = "xqkit.game/";
	size_t i = 0;
	int first = 1;

	if (len >= 3 && !memcmp(head, "\xEF\xBB\xBF", 3))
		i = 3;
	while (i < len && json_space(head[i]))
		i++;
	if (i >= len || head[i] != '{' || probe_binary_line(head, len, i))
		return 0;
	i++;
	while (i < len && json_space(head[i]))
		i++;
	if (i < len && head[i] != '"' && head[i] != '}')
		return 0; /* an object holds members, named by strings */
	for (;;) {
		char name[8], value[sizeof(prefix) - 1];
		long n;
		if (!probe_at(head, len, &i, '"') ||
		    (n = probe_string(head, len, &i, name, sizeof(name))) < 0 ||
		    !probe_at(head, len, &i, ':'))
			return 10;
		i++;
		while (i < len && json_space(head[i]))
			i++;
		if (n == 6 && !memcmp(name, "schema", 6)) {
			if (i >= len || head[i] != '"')
				return 10;
			n = probe_string(head, len, &i, value, sizeof(value));
			if (n < (long)sizeof(value) || memcmp(value, prefix, sizeof(value)))
				return 10;
			return first ? 100 : 80; /* our own writer puts the schema first */
		}
		if (probe_skip_value(head, len, &i) || !probe_at(head, len, &i, ','))
			return 10;
		i++;
		first = 0;
	}
}

const struct xqi_format xqi_format_ndjson = {
	"ndjson",
	"game records as JSON, one per line (schema " NDJSON_SCHEMA ", see doc/ndjson.md)",
	".ndjson .jsonl",
	XQ_FORMAT_READS | XQ_FORMAT_WRITES | XQ_FORMAT_MULTI | XQ_FORMAT_VARIATIONS | XQ_FORMAT_COMMENTS |
		XQ_FORMAT_NAGS | XQ_FORMAT_ANY_TAGS | XQ_FORMAT_PRE_COMMENTS,
	nd_probe,
	nd_open_reader,
	nd_read,
	nd_close_reader,
	nd_open_writer,
	nd_write,
	nd_close_writer,
	ND_MAX_RECORD,
	ND_MEM_FACTOR,
	NULL, /* no alias */
	"",   /* one line per game, nothing between */
	nd_renumber,
};
