/*
 * pgn_lex.c: the PGN reader's lexer: the tokens of the text its window
 * holds (pgn_window.c), with their places, and the first byte of each that
 * is not text (see pgn.c for the whole, pgn_int.h for what the parts
 * share).
 */
#include "pgn_int.h"

/*
 * A limit of format.h is reached at `pl`: report it, and read no further
 * (the input then fails with XQ_ERANGE, as if it could not be read).
 */
static void stop_at_limit(struct pgn_reader *r, const struct xqi_place *pl, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

static void stop_at_limit(struct pgn_reader *r, const struct xqi_place *pl, const char *fmt, ...)
{
	struct xq_diagnostic d;
	va_list ap;

	xqi_diagnostic_init(&d);
	d.place = *pl;
	d.has_offset = 1;
	va_start(ap, fmt);
	xqi_diagnostic_vset(&d, XQ_ERANGE, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, fmt, ap);
	va_end(ap);
	xqi_pgn_report_io(r, &d);
	r->io_rc = XQ_ERANGE;
}

static inline struct xqi_place place_at(struct pgn_reader *r, uint64_t p)
{
	struct xqi_place pl;

	xqi_pgn_advance_col(r, p);
	pl.line = r->line;
	pl.col = r->col_val + 1;
	pl.offset = xqi_pgn_offset_of(r, p);
	return pl;
}

static void newline(struct pgn_reader *r, uint64_t p, unsigned char c)
{
	if (r->td.ev_first < r->td.nevents && r->td.events[r->td.ev_first].dpos < p)
		xqi_pgn_take_foreign(r, p);
	if (c == '\n' && r->cr_at == p) {
		r->col_pos = r->line_start = p + 1; /* the LF of a CRLF */
		return;
	}
	r->line++;
	r->col_pos = r->line_start = p + 1;
	r->col_val = 0;
	if (c == '\r')
		r->cr_at = p + 1;
}

/*
 * Length of the well-formed UTF-8 character at p (0 if the bytes there
 * are not one: an undecodable byte).  Reads ahead as needed.
 */
static size_t char_at(struct pgn_reader *r, uint64_t p, uint64_t keep)
{
	unsigned char c = AT(r, p);
	size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;

	xqi_pgn_have(r, p + need - 1, keep);
	return xq_utf8_valid_prefix(r->text + (p - r->base), (size_t)(END(r) - p));
}

/* U+3000 ideographic space, U+00A0 no-break space, U+FEFF (a BOM inside
 * concatenated files) separate tokens like spaces. */
static int is_wide_space(struct pgn_reader *r, uint64_t p, size_t n)
{
	const unsigned char *s = (const unsigned char *)r->text + (p - r->base);

	if (s[0] != 0xE3 && s[0] != 0xEF && s[0] != 0xC2)
		return 0; /* most characters: a hanzi is never one */
	return (n == 3 && s[0] == 0xE3 && s[1] == 0x80 && s[2] == 0x80) ||
	       (n == 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) ||
	       (n == 2 && s[0] == 0xC2 && s[1] == 0xA0);
}

static void mark_bad(struct pgn_reader *r, struct tok *t, uint64_t p)
{
	if (t->bad)
		return;
	t->bad = 1;
	xqi_pgn_advance_col(r, p);
	t->bad_place.line = r->line;
	t->bad_place.col = r->col_val + 1;
	t->bad_byte = AT(r, p);
	t->bad_place.offset = xqi_pgn_offset_peek(r, p);
	t->bad_enc = r->td_live ? xqi_textdec_enc_at(&r->td, p) : XQI_ENC_UTF8;
	if (r->conv)
		t->bad_byte = (unsigned char)r->raw.ptr[t->bad_place.offset - r->raw_base];
}

enum { C_WORD, C_SPACE, C_NL, C_DELIM, C_NUL };

/* What an ASCII byte is to the lexer (C_WORD, the zero, for the rest). */
static const unsigned char cls_table[128] = {
	[' '] = C_SPACE, ['\t'] = C_SPACE, ['\v'] = C_SPACE, ['\f'] = C_SPACE,
	['\n'] = C_NL,    ['\r'] = C_NL,
	['{'] = C_DELIM, ['}'] = C_DELIM, ['('] = C_DELIM, [')'] = C_DELIM,
	['['] = C_DELIM, [']'] = C_DELIM, [';'] = C_DELIM, ['$'] = C_DELIM,
	['\0'] = C_NUL,
};

static void skip_space(struct pgn_reader *r)
{
	uint64_t p;
	int in_step;
	uint32_t chars = 0;

	if (r->pos + 1 < END(r)) {
		/* Move text, mostly: no space, or one, before the next token (a
		 * byte that is no space, nor the first of a wide one). */
		unsigned char c0 = AT(r, r->pos), c1 = AT(r, r->pos + 1);
		if (c0 != ' ')
			c1 = c0;
		if (c1 < 0x80 ? cls_table[c1] == C_WORD || cls_table[c1] == C_DELIM
			      : c1 != 0xE3 && c1 != 0xEF && c1 != 0xC2) {
			if (c0 == ' ') {
				if (r->col_pos == r->pos) {
					r->col_val++;
					r->col_pos++;
				}
				r->pos++;
			}
			return;
		}
	}
	if (!r->bom_checked)
		xqi_pgn_have(r, r->pos, r->pos); /* the first read steps over a BOM */
	p = r->pos;
	/* The column cursor moves along when it stood here: every space is
	 * one character, and a line end restarts it. */
	in_step = r->col_pos == p;

	/* Every round scans to the end of the text, which then grows. */
	for (uint64_t was = END(r);; XQI_ADVANCED(was, END(r))) {
		const unsigned char *x = (const unsigned char *)r->text;
		size_t i = (size_t)(p - r->base), lim = r->tlen;
		int stop = 0;
		/* No further than the limit of blank text (XQI_SKIP_MAX). */
		if (r->base + lim > r->pos + XQI_SKIP_MAX + 1)
			lim = (size_t)(r->pos + XQI_SKIP_MAX + 1 - r->base);
		while (i < lim) {
			unsigned char c = x[i];
			if (c < 0x80) {
				unsigned char k = cls_table[c];
				if (k == C_NL) {
					newline(r, r->base + i, c);
					in_step = 1;
					chars = 0;
				} else if (k != C_SPACE) {
					stop = 1;
					break;
				} else {
					chars++;
				}
				i++;
			} else {
				size_t n;
				/* Only U+3000, U+FEFF and U+00A0 are spaces: a hanzi
				 * (most text that is not ASCII) is done with at once. */
				if (c != 0xE3 && c != 0xEF && c != 0xC2) {
					stop = 1;
					break;
				}
				n = xq_utf8_valid_prefix((const char *)x + i, lim - i);
				if (n < 2 || !is_wide_space(r, r->base + i, n)) {
					stop = 1;
					break;
				}
				chars++;
				i += n;
			}
		}
		p = r->base + i;
		if (stop)
			break;
		/* Settle the column before reading on: a refill compacts the
		 * window and moves a lagging column cursor up to `p` itself. */
		if (in_step) {
			r->col_val += chars;
			r->col_pos = p;
			chars = 0;
		}
		if (p - r->pos > XQI_SKIP_MAX) {
			struct xqi_place pl = place_at(r, p);
			stop_at_limit(r, &pl,
				      "more than %llu MiB of blank text up to here and no game; the rest "
				      "of the input is not read",
				      (unsigned long long)(XQI_SKIP_MAX >> 20));
			break;
		}
		if (!xqi_pgn_have(r, p, p))
			break;
	}
	if (in_step) {
		r->col_val += chars;
		r->col_pos = p;
	}
	r->pos = p;
}

/* Has a token scan reached the end of the text, or XQI_PGN_TOKEN_MAX? */
static int scan_stops(struct pgn_reader *r, const struct tok *t, uint64_t p, int *too_long)
{
	*too_long = p - t->start > XQI_PGN_TOKEN_MAX;
	return *too_long || (p >= END(r) && !xqi_pgn_have(r, p, t->start));
}

/* Bytes of the character at p; an undecodable byte (or NUL) is marked
 * on the token (when `mark`) and counts as one. */
static size_t text_char(struct pgn_reader *r, struct tok *t, uint64_t p, int mark)
{
	unsigned char c = AT(r, p);
	size_t n = 1;

	if (c >= 0x80)
		n = char_at(r, p, t->start);
	if ((n == 0 || c == 0) && mark)
		mark_bad(r, t, p);
	return n ? n : 1;
}

static void scan_comment(struct pgn_reader *r, struct tok *t)
{
	uint64_t p = t->start + 1;
	int too_long;

	t->type = T_COMMENT;
	t->body = p;
	for (uint64_t was = p;; XQI_ADVANCED(was, p)) {
		unsigned char c;
		if (scan_stops(r, t, p, &too_long)) {
			t->type = T_UNTERMINATED;
			t->end = t->start + 1;
			return;
		}
		c = AT(r, p);
		if (c == '}') {
			t->body_end = p;
			t->end = p + 1;
			return;
		}
		if (c == '\n' || c == '\r') {
			newline(r, p, c);
			p++;
		} else {
			p += text_char(r, t, p, 1);
		}
	}
}

/* To the end of the line: ';' comments, '%' escapes and tag lines (which
 * mark their undecodable bytes themselves: `mark` 0). */
static void scan_line(struct pgn_reader *r, struct tok *t, enum tok_type type, int mark)
{
	uint64_t p = t->start + 1;
	int too_long;

	t->type = type;
	t->body = p;
	while (!scan_stops(r, t, p, &too_long)) {
		/* ASCII bytes other than NUL and line ends are a character each:
		 * stepped over here up to the window's end or the length limit,
		 * which scan_stops() then judges. */
		const unsigned char *x = (const unsigned char *)r->text;
		uint64_t lim = END(r), cap = t->start + XQI_PGN_TOKEN_MAX + 1;
		unsigned char c;
		if (lim > cap)
			lim = cap;
		while (p < lim && (unsigned)x[p - r->base] - 1u < 0x7Fu && x[p - r->base] != '\n' &&
		       x[p - r->base] != '\r')
			p++;
		if (p >= lim)
			continue;
		c = AT(r, p);
		if (c == '\n' || c == '\r')
			break;
		p += text_char(r, t, p, mark);
	}
	if (too_long)
		t->type = T_TOO_LONG;
	t->body_end = t->end = p;
}

/* Index of the last `c` in s[from, to), or `to` if none. */
static size_t last_of(const char *s, size_t from, size_t to, char c)
{
	for (size_t i = to; i > from; i--)
		if (s[i - 1] == c)
			return i - 1;
	return to;
}

/*
 * A quoted tag value that goes on past the end of its line (old files put
 * line breaks in titles): look at most 8 lines ahead for one that ends
 * with `"]`, stopping at a line that starts a tag.  Returns the position
 * after that ']' (and the closing quote's in *quote) with the line ends on
 * the way counted, or 0 if the value is not closed that way.
 */
static uint64_t continued_tag(struct pgn_reader *r, uint64_t p, uint64_t keep, uint64_t *quote)
{
	uint64_t q = p, line_start = 0, last_quote = 0;
	int lines = 0, blank = 1;

	while (xqi_pgn_have(r, q, keep) && q - p < 4096) {
		unsigned char c = AT(r, q);
		if (c == '\n' || c == '\r') {
			if (c == '\n' || !(xqi_pgn_have(r, q + 1, keep) && AT(r, q + 1) == '\n'))
				if (++lines > 8)
					return 0;
			q++;
			line_start = q;
			blank = 1;
			last_quote = 0;
			continue;
		}
		if (blank && c != ' ' && c != '\t') {
			blank = 0;
			if (c == '[' && line_start)
				return 0;
		}
		if (c == '"')
			last_quote = q + 1;
		else if (c == ']' && last_quote) {
			uint64_t k = last_quote;
			while (k < q && (AT(r, k) == ' ' || AT(r, k) == '\t'))
				k++;
			if (k == q) {
				/* Found: count the line ends passed. */
				for (uint64_t x = p; x < line_start; x++)
					if (AT(r, x) == '\n' || AT(r, x) == '\r')
						newline(r, x, AT(r, x));
				*quote = last_quote - 1;
				return q + 1;
			}
		} else if (c != ' ' && c != '\t') {
			last_quote = 0;
		}
		q++;
	}
	return 0;
}

/*
 * A quoted tag value from `vs` in the line `s` (`len` bytes) that is not
 * closed the standard way, read by the line's shape: where the value
 * ends (*ve) and the tag (*end), and what was wrong in t->tag_flags.
 */
static void tag_by_shape(struct tok *t, const char *s, size_t vs, size_t len, size_t *ve, size_t *end)
{
	size_t rb = last_of(s, vs, len, ']');
	if (rb < len) {
		size_t q = last_of(s, vs, rb, '"');
		if (q < rb) {
			*ve = q;
			t->tag_flags |= TAG_STRAY_QUOTE;
		} else {
			*ve = rb;
			t->tag_flags |= TAG_NO_QUOTE;
		}
		*end = rb + 1;
	} else {
		size_t q = last_of(s, vs, len, '"');
		t->tag_flags |= TAG_NO_BRACKET;
		if (q < len) {
			*ve = q;
		} else {
			*ve = len;
			t->tag_flags |= TAG_NO_QUOTE;
		}
		*end = len;
	}
}

/* A tag value from `vs` in the line `s` (`len` bytes) with no quote: it
 * runs to the ']' (*ve, less the blanks before it; *end past it). */
static void tag_unquoted(struct tok *t, const char *s, size_t vs, size_t len, size_t *ve, size_t *end)
{
	size_t rb = vs;
	while (rb < len && s[rb] != ']')
		rb++;
	*ve = rb;
	while (*ve > vs && (s[*ve - 1] == ' ' || s[*ve - 1] == '\t'))
		(*ve)--;
	t->tag_flags |= TAG_UNQUOTED;
	if (rb < len) {
		*end = rb + 1;
	} else {
		*end = len;
		t->tag_flags |= TAG_NO_BRACKET;
	}
}

/* The first byte of the tag's `end` bytes `s` that is not text (not
 * UTF-8, or a NUL), marked bad. */
static void tag_bytes(struct pgn_reader *r, struct tok *t, const char *s, size_t end)
{
	for (size_t i = 0; i < end;) {
		size_t n = 1;
		if ((unsigned char)s[i] >= 0x80)
			n = xq_utf8_valid_prefix(s + i, end - i);
		if (n == 0 || s[i] == '\0') {
			mark_bad(r, t, t->start + i);
			break;
		}
		i += n;
	}
}

/*
 * A tag line: `[Name "value"]`, leniently.  The token ends after its ']'
 * when the value is properly quoted (so several tags may share a line);
 * otherwise the value runs to the last '"' before the last ']' of the line.
 */
static void scan_tag(struct pgn_reader *r, struct tok *t)
{
	struct tok probe = *t;
	uint64_t p;
	size_t len, i, j, ns, ne, vs, ve, end;
	const char *s;

	scan_line(r, &probe, T_TAG, 0);
	if (probe.type == T_TOO_LONG) {
		*t = probe;
		return;
	}
	p = probe.end;
	s = r->text + (t->start - r->base);
	len = (size_t)(p - t->start);
	t->type = T_TAG;
	t->tag_flags = 0;
	i = 1;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	ns = i;
	while (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '"' && s[i] != ']' && s[i] != '[')
		i++;
	ne = i;
	if (ne == ns)
		t->tag_flags |= TAG_NO_NAME;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i < len && s[i] == '"') {
		vs = ++i;
		for (j = vs; j < len && s[j] != '"'; j++)
			if (s[j] == '\\' && j + 1 < len)
				j++;
		if (j < len) {
			size_t k = j + 1;
			while (k < len && (s[k] == ' ' || s[k] == '\t'))
				k++;
			if (k < len && s[k] == ']') {
				ve = j;
				end = k + 1;
				goto done;
			}
		}
		if (j >= len && last_of(s, vs, len, ']') == len) {
			uint64_t quote, after = continued_tag(r, t->start + len, t->start, &quote);
			/* Reading ahead may have moved (or decoded) the window. */
			s = r->text + (t->start - r->base);
			if (after) {
				ve = (size_t)(quote - t->start);
				end = (size_t)(after - t->start);
				t->tag_flags |= TAG_LINES;
				goto done;
			}
		}
		/* Not closed the standard way: fall back on the line's shape. */
		tag_by_shape(t, s, vs, len, &ve, &end);
	} else {
		vs = i;
		tag_unquoted(t, s, vs, len, &ve, &end);
	}
done:
	t->body = t->start + ns;
	t->body_end = t->start + ne;
	t->value = t->start + vs;
	t->value_end = t->start + ve;
	t->end = t->start + end;
	tag_bytes(r, t, s, end);
}

/*
 * After the digits of a word at [start, p) comes '.' at p: if the dots
 * are not followed by a digit ("33.4" is a WXF move, "2006.08.03" a
 * word), the word is a move number ending after them.  Returns that end,
 * or 0.
 */
static uint64_t number_end(struct pgn_reader *r, const struct tok *t, uint64_t p)
{
	uint64_t q = p;

	while (xqi_pgn_have(r, q, t->start) && AT(r, q) == '.')
		q++;
	return q < END(r) && xq_is_digit(AT(r, q)) ? 0 : q;
}

/*
 * Are the twelve bytes at x four characters of three bytes whose first
 * byte is E1-EF but E3 and ED (so neither an overlong form, a surrogate,
 * nor U+3000), and whose second byte is not BB (so no U+FEFF)?  What most
 * Chinese moves are (炮二平五, and 马８进７ in full-width digits, EF BC 9x);
 * any other goes the byte by byte way.
 */
static int four_plain_hanzi(const unsigned char *x)
{
	/* First bytes E0, E3 and ED are looked at closer; EF when U+FEFF. */
	unsigned odd = (x[0] == 0xE0) | (x[3] == 0xE0) | (x[6] == 0xE0) | (x[9] == 0xE0) |
		       (x[0] == 0xE3) | (x[3] == 0xE3) | (x[6] == 0xE3) | (x[9] == 0xE3) |
		       (x[0] == 0xED) | (x[3] == 0xED) | (x[6] == 0xED) | (x[9] == 0xED) |
		       (x[1] == 0xBB) | (x[4] == 0xBB) | (x[7] == 0xBB) | (x[10] == 0xBB);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t w0;
	uint32_t w1;

	memcpy(&w0, x, 8);
	memcpy(&w1, x + 8, 4);
	return !odd && (w0 & 0xC0F0C0C0F0C0C0F0u) == 0x80E08080E08080E0u &&
	       (w1 & 0xC0C0F0C0u) == 0x8080E080u;
#else
	for (int k = 0; k < 12; k++)
		if ((x[k] & (k % 3 ? 0xC0 : 0xF0)) != (k % 3 ? 0x80 : 0xE0))
			return 0;
	return !odd;
#endif
}

/*
 * A word of Chinese move text (炮二平五, 马８进７, 马8进7), read without the
 * general loop: characters of three UTF-8 bytes but the wide spaces (which
 * end it), and ASCII word bytes, wholly inside the window and ended there
 * by a space, a line end, a delimiter or a wide space.  Returns 1 with the
 * token done, or 0 for the general loop (another character, a byte that
 * is not UTF-8, the window's end).
 */
static int quick_wide_word(struct pgn_reader *r, struct tok *t)
{
	const unsigned char *x = (const unsigned char *)r->text;
	size_t i = (size_t)(t->start - r->base), lim = r->tlen, j = i;
	uint64_t chars = 0;

	if (lim - i > 12 && x[i + 12] < 0x80 && cls_table[x[i + 12]] != C_WORD &&
	    cls_table[x[i + 12]] != C_NUL && four_plain_hanzi(x + i)) {
		j = i + 12; /* 炮二平五: the commonest word, at one look */
		chars = 4;
		goto done;
	}
	while (j < lim) {
		unsigned char c = x[j], c1, c2;
		if (c < 0x80) {
			if (cls_table[c] != C_WORD)
				break;
			j++;
			chars++;
			continue;
		}
		if (c < 0xE0 || c > 0xEF || lim - j < 3)
			return 0;
		c1 = x[j + 1];
		c2 = x[j + 2];
		if ((c1 & 0xC0) != 0x80 || (c2 & 0xC0) != 0x80 || (c == 0xE0 && c1 < 0xA0) ||
		    (c == 0xED && c1 >= 0xA0))
			return 0; /* not UTF-8 (overlong, a surrogate): the general loop marks it */
		if ((c == 0xE3 && c1 == 0x80 && c2 == 0x80) || (c == 0xEF && c1 == 0xBB && c2 == 0xBF))
			break; /* U+3000, U+FEFF: a space */
		j += 3;
		chars++;
	}
	if (j == lim || cls_table[x[j] & 0x7F] == C_NUL)
		return 0; /* (the window's end, or a NUL: the general loop's) */
done:
	t->type = T_WORD;
	t->end = r->base + j;
	if (r->col_pos == t->start) {
		r->col_val += chars;
		r->col_pos = t->end;
	}
	return 1;
}

/*
 * The words most text is made of, read without the general loop: ASCII
 * word bytes wholly inside the window and ended there by a space, a line
 * end or a delimiter.  A word starting with a letter is a word (a move,
 * mostly); digits then dots then no digit are a move number (T_NUMBER,
 * "12." or "12..."), as the general loop reads them.  Returns 1 with the
 * token done, or 0 for the general loop (scan_word(), which starts over).
 */
static int quick_word(struct pgn_reader *r, struct tok *t)
{
	const unsigned char *x = (const unsigned char *)r->text;
	size_t i = (size_t)(t->start - r->base), lim = r->tlen, j = i, q;
	unsigned char c = x[i];

	if (xq_is_digit(c)) {
		while (j < lim && xq_is_digit(x[j]))
			j++;
		if (j == lim || x[j] != '.')
			return 0;
		for (q = j; q < lim && x[q] == '.'; q++)
			;
		if (q == lim || x[q] >= 0x80 || xq_is_digit(x[q]))
			return 0;
		/* After the dots anything but a digit ends the number, even
		 * word bytes ("1.h2e2" is the number 1 then h2e2). */
		t->num = 0;
		for (size_t k = i; k < j && t->num < 100000000ul; k++)
			t->num = t->num * 10 + (x[k] - '0');
		t->type = T_NUMBER;
		t->end = r->base + q;
	} else if (xq_is_alpha(c)) {
		/* Four word bytes then a separator (h2e2, the commonest move)
		 * without a loop, whose end no predictor guesses; else the loop. */
		if (i + 4 < lim && (x[i + 1] | x[i + 2] | x[i + 3]) < 0x80 &&
		    !(cls_table[x[i + 1]] | cls_table[x[i + 2]] | cls_table[x[i + 3]]) &&
		    x[i + 4] < 0x80 && cls_table[x[i + 4]] != C_WORD)
			j = i + 4;
		else
			while (j < lim && x[j] < 0x80 && cls_table[x[j]] == C_WORD)
				j++;
		/* ended by a separator: not the window's end, a NUL (marked as bad
		 * by the general loop) or a byte that is not ASCII */
		if (j == lim || x[j] >= 0x80 || cls_table[x[j]] == C_NUL)
			return 0;
		t->type = T_WORD;
		t->end = r->base + j;
	} else if (c >= 0xE0 && c <= 0xEF) {
		return quick_wide_word(r, t);
	} else {
		return 0;
	}
	/* ASCII only: a character per byte. */
	if (r->col_pos == t->start) {
		r->col_val += (uint64_t)(t->end - t->start);
		r->col_pos = t->end;
	}
	return 1;
}

static void scan_word(struct pgn_reader *r, struct tok *t)
{
	uint64_t p = t->start;
	int digits = 1;
	uint32_t chars = 0;

	t->type = T_WORD;
	/* Every round scans to the end of the text, which then grows. */
	for (uint64_t was = END(r);; XQI_ADVANCED(was, END(r))) {
		/* The window holds whole characters (publish() holds back a cut
		 * one), so the bytes in it can be read without asking for more. */
		const unsigned char *x = (const unsigned char *)r->text;
		size_t i = (size_t)(p - r->base), lim = r->tlen;
		int stop = 0;
		while (i < lim && !stop) {
			unsigned char c = x[i];
			if (c < 0x80) {
				unsigned char k = cls_table[c];
				if (k == C_NUL) {
					mark_bad(r, t, r->base + i);
				} else if (k != C_WORD) {
					stop = 1;
					break;
				} else if (digits && xq_is_digit(c)) {
					i++;
					chars++;
					continue;
				} else if (digits && c == '.' && r->base + i > t->start) {
					uint64_t at = r->base + i, q = number_end(r, t, at);
					if (q) {
						t->num = 0;
						for (uint64_t k2 = t->start; k2 < at && t->num < 100000000ul; k2++)
							t->num = t->num * 10 + (AT(r, k2) - '0');
						t->type = T_NUMBER;
						t->end = q;
						if (r->col_pos == t->start) {
							r->col_val += (uint64_t)(q - t->start);
							r->col_pos = q;
						}
						return;
					}
					/* number_end() may have moved the window. */
					x = (const unsigned char *)r->text;
					i = (size_t)(at - r->base);
					lim = r->tlen;
				}
				i++;
			} else {
				size_t n;
				if (c >= 0xE4 && c <= 0xE9 && i + 2 < lim && (x[i + 1] & 0xC0) == 0x80 &&
				    (x[i + 2] & 0xC0) == 0x80) {
					/* A CJK character: never a space, always whole. */
					i += 3;
					chars++;
					digits = 0;
					continue;
				}
				n = xq_utf8_valid_prefix((const char *)x + i, lim - i);
				if (n == 0) {
					mark_bad(r, t, r->base + i);
					n = 1;
				} else if (n > 1 && is_wide_space(r, r->base + i, n)) {
					stop = 1;
					break;
				}
				i += n;
			}
			chars++;
			digits = 0;
		}
		p = r->base + i;
		if (stop)
			break;
		if (p - t->start > XQI_PGN_TOKEN_MAX) {
			t->type = T_TOO_LONG;
			break;
		}
		if (!xqi_pgn_have(r, p, t->start))
			break;
	}
	t->end = p;
	/* Words hold no line end: the column cursor can jump to the end (unless
	 * a bad byte moved it already). */
	if (r->col_pos == t->start) {
		r->col_val += chars;
		r->col_pos = p;
	}
}

static void scan_token(struct pgn_reader *r, struct tok *t)
{
	unsigned char c;

	t->bad = 0;
	t->tag_flags = 0;
	t->num = 0;
	skip_space(r);
	t->start = t->end = r->pos;
	if (r->io_rc) {
		t->type = T_IO;
		return;
	}
	if (r->pos >= END(r) && !xqi_pgn_have(r, r->pos, r->pos)) {
		t->type = r->io_rc ? T_IO : T_EOF;
		t->place = place_at(r, r->pos);
		return;
	}
	t->place = place_at(r, t->start);
	c = AT(r, t->start);
	switch (c) {
	case '{': {
		/* A '{' that closes no comment is read again as what follows
		 * it: the line ends the scan passed are not passed yet. */
		uint64_t line = r->line, col_val = r->col_val;
		uint64_t col_pos = r->col_pos, cr_at = r->cr_at;
		scan_comment(r, t);
		if (t->type == T_UNTERMINATED) {
			/* (a byte that is not text after it is met again) */
			t->bad = 0;
			r->line = line;
			r->col_val = col_val;
			r->col_pos = col_pos;
			r->cr_at = cr_at;
		}
		break;
	}
	case ';':
		scan_line(r, t, T_COMMENT, 1);
		break;
	case '[':
		scan_tag(r, t);
		break;
	case '(':
		t->type = T_LPAREN;
		t->end = t->start + 1;
		break;
	case ')':
		t->type = T_RPAREN;
		t->end = t->start + 1;
		break;
	case '}':
	case ']':
		t->type = T_STRAY;
		t->end = t->start + 1;
		break;
	case '$': {
		uint64_t p = t->start + 1;
		t->num = 0;
		while (xqi_pgn_have(r, p, t->start) && xq_is_digit(AT(r, p))) {
			if (t->num < 100000)
				t->num = t->num * 10 + (AT(r, p) - '0');
			p++;
		}
		if (p == t->start + 1) {
			scan_word(r, t);
			if (t->end == t->start)
				t->end = t->start + 1;
			t->type = T_WORD;
		} else {
			t->type = T_NAG;
			t->end = p;
		}
		break;
	}
	case '%':
		if (t->place.col == 1) {
			scan_line(r, t, T_ESCAPE, 1);
			break;
		}
		/* fall through */
	default:
		if (quick_word(r, t))
			break;
		scan_word(r, t);
		if (t->end == t->start) {
			/* Only an undecodable byte or a separator we do not know. */
			t->end = t->start + 1;
		}
		break;
	}
	if (t->type == T_UNTERMINATED)
		r->pos = t->start + 1;
	else
		r->pos = t->end;
}

/*
 * The limit on the text skipped (XQI_SKIP_MAX of format.h), checked on the
 * token just scanned: past it, the token becomes the end of the readable
 * input.  (The limit of a game is the parser's: xqi_pgn_over_game().)
 */
static void check_skip(struct pgn_reader *r, struct tok *t)
{
	if (t->type == T_EOF || t->type == T_IO || t->end - r->skip_start <= XQI_SKIP_MAX)
		return;
	stop_at_limit(r, &t->place,
		      "more than %llu MiB skipped since line %u without reaching the next "
		      "game; the rest of the input is not read",
		      (unsigned long long)(XQI_SKIP_MAX >> 20), r->skip_line);
	t->type = T_IO;
	t->bad = 0;
	t->end = t->start;
}

const struct tok *xqi_pgn_next_tok(struct pgn_reader *r)
{
	if (r->pushed) {
		r->pushed = 0;
	} else {
		scan_token(r, &r->tok);
		if (r->skip_start != NO_POS)
			check_skip(r, &r->tok);
	}
	return &r->tok;
}


/* How far a loop over tokens has gone (each token it takes is past the last). */
uint64_t xqi_pgn_tok_progress(const struct pgn_reader *r)
{
	return r->pushed ? r->tok.start : r->pos;
}

void xqi_pgn_push_back(struct pgn_reader *r)
{
	r->pushed = 1;
}

/* The token's text (valid until the next token is read). */
const char *xqi_pgn_tok_text(const struct pgn_reader *r, uint64_t from)
{
	return r->text + (from - r->base);
}

const char *xqi_pgn_tok_fixed(struct pgn_reader *r, const struct tok *t, uint64_t from, uint64_t to,
			     int k, size_t *n, long *count)
{
	const char *text = r->text + (from - r->base);
	long replaced;

	*n = (size_t)(to - from);
	if (!t->bad)
		return text;
	xq_buf_reset(&r->fixed[k]);
	replaced = xqi_textdec_repair(&r->fixed[k], text, *n);
	if (replaced < 0)
		return NULL;
	*count += replaced;
	*n = r->fixed[k].len;
	return r->fixed[k].ptr;
}

void xqi_pgn_warn_fixed(struct pgn_reader *r, const struct tok *t, uint64_t game, uint32_t ply,
		       const char *what, long count)
{
	char msg[256];

	if (count == 0)
		return;
	xqi_textdec_repaired_message(msg, sizeof(msg), what, t->bad_byte, xqi_encoding_name(t->bad_enc),
				    t->bad_place.offset, count);
	xqi_format_report(r->sink, r->name, game, &t->bad_place, 1, ply, NULL, 0, XQI_D_ENCODING,
			 XQ_SEVERITY_WARNING, "%s", msg);
}
