/*
 * fenlist.c: lists of positions, each read as a game with no moves, so
 * that find, replay --svg and convert work on problem sets (the layouts
 * are in doc/formats/fen-lists.md):
 *
 *   - one position a line: a FEN (board, side, `- -`, the counters; any
 *     prefix of those from the board on), or an EPD line (the board, the
 *     side and two fields, then operations `id "name"; bm h2e2;`), each
 *     operation kept as a tag of its opcode's name; text after a FEN that
 *     is not EPD is the game comment;
 *   - XQMagic's blocks of tags, `[FEN_INDEX "..."]`, `[EVENT "..."]`,
 *     `[FEN "..."]`, one block a position, blocks apart by a blank line
 *     (or by a tag a block has already).  A tag whose name is a canonical
 *     one in another case (EVENT) takes the canonical spelling (Event).
 *
 * A position that is not one is an error at its line and column, and the
 * game is returned broken with the text as written (start_text).  XFEN,
 * XQMagic's extended FEN, is a variant: 'x' and 'X' are 揭棋's pieces face
 * down, and its other letters are not xiangqi pieces either; it is refused
 * with that reason (and not with "unknown piece letter").
 *
 * Detected by content (fenlist_probe): the first two lines that are not
 * blank both FEN lines, each a FEN alone or an EPD line (a FEN followed by
 * moves is a PGN move list, and stays PGN's), or nothing but tag lines, a
 * FEN_INDEX among them (a block list without one reads the same as PGN
 * and stays PGN's).
 */
#include "format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lines.h"
#include "utf8.h"

/*
 * Limits: a record (a line, or a block of tag lines) within 1 MiB, far
 * above any real one (a few hundred bytes); reading keeps the record's
 * line and its game, FENLIST_MEM_FACTOR bytes per byte at most.
 */
#define FENLIST_MAX_RECORD ((uint64_t)1 << 20)
#define FENLIST_MEM_FACTOR 8
/* A block holds at most this many tags (XQMagic's hold three): each tag
 * is looked for among the block's, so the check stays cheap. */
#define FENLIST_MAX_TAGS 256

extern const struct xqi_format xqi_format_fenlist;

/* The place of column `col` of the current line. */
static struct xqi_place here(const struct xqi_line_reader *r, uint32_t col)
{
	struct xqi_place pl = {r->lines.offset, r->lines.lineno, col};

	return pl;
}

static void report(struct xqi_line_reader *r, const struct xqi_record *g, struct xqi_place pl,
		   enum xqi_diagnostic_code code, enum xq_severity_level sev, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 6, 7)))
#endif
	;

static void report(struct xqi_line_reader *r, const struct xqi_record *g, struct xqi_place pl,
		   enum xqi_diagnostic_code code, enum xq_severity_level sev, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	xqi_format_vreport(r->sink, r->name, g ? g->number : 0, &pl, 1, 0, NULL, 0, code, sev, fmt,
			  ap);
	va_end(ap);
}

/* The characters of a FEN's board field (any piece letter, as XFEN has). */
static int board_char(unsigned char c)
{
	return xq_is_digit(c) || xq_is_alpha(c) || c == '/';
}

/* Does the word at s (n bytes) look like a FEN's board: 10 ranks? */
static int board_word(const char *s, size_t n)
{
	size_t slashes = 0;

	for (size_t i = 0; i < n; i++) {
		if (!board_char((unsigned char)s[i]))
			return 0;
		slashes += s[i] == '/';
	}
	return slashes == 9;
}

/*
 * XFEN: 'x' or 'X' (揭棋's pieces face down), or another letter or a 0 no
 * xiangqi FEN has.  Returns how many such characters the board holds, and
 * puts the first few of them, each once, in `what`; *hidden says whether
 * 'x' or 'X' is one.
 */
static int xfen_letters(const char *s, size_t n, char *what, size_t cap, int *hidden)
{
	static const char known[] = "KABNRCPEHkabnrcpeh123456789/";
	size_t k = 0;
	int found = 0;

	what[0] = '\0';
	*hidden = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (strchr(known, c))
			continue;
		*hidden |= c == 'x' || c == 'X';
		if (memchr(what, c, k))
			continue;
		found++;
		if (k + 10 < cap)
			k += (size_t)snprintf(what + k, cap - k, "%s'%c'", k ? ", " : "", c);
		else if (k + 5 < cap && strcmp(what + k - 4, " ...") != 0)
			k += (size_t)snprintf(what + k, cap - k, " ...");
	}
	return found;
}

/* Read the position `fen` (n bytes; its board is the first word, at `pl`) into g's start. */
static int read_position(struct xqi_line_reader *r, struct xqi_record *g, const char *fen, size_t n,
			 struct xqi_place pl)
{
	struct xq_diagnostic d;
	char letters[80];
	size_t board = 0;
	int hidden, odd;

	while (board < n && fen[board] != ' ')
		board++;
	if ((odd = xfen_letters(fen, board, letters, sizeof(letters), &hidden))) {
		report(r, g, pl, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
		       "an XFEN position, a variant of xiangqi: %s %s%s; not read", letters,
		       odd > 1 ? "are not xiangqi pieces" : "is not a xiangqi piece",
		       hidden ? " ('x' and 'X' are 揭棋's pieces face down)" : "");
		g->flags |= XQI_RECORD_EMPTY;
		return xqi_record_set_start_text(g, fen, n);
	}
	xqi_diagnostic_init(&d);
	if (xqi_position_from_fen(&g->start, fen, n, XQI_FEN_LENIENT_PLACEMENT, &d)) {
		if (d.place.col)
			pl.col += d.place.col - 1;
		report(r, g, pl, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR, "%s", d.msg);
		g->flags |= XQI_RECORD_EMPTY;
		return xqi_record_set_start_text(g, fen, n);
	}
	g->flags |= XQI_RECORD_EMPTY;
	return 0;
}

/* A tag line `[Name "value"]`: 1 with its name and value, else 0. */
static int tag_line(const char *s, size_t len, const char **name, size_t *nlen, const char **val,
		    size_t *vlen)
{
	size_t i = 0, e = len;

	while (i < len && xq_is_space((unsigned char)s[i]))
		i++;
	while (e > i && xq_is_space((unsigned char)s[e - 1]))
		e--;
	if (e - i < 5 || s[i] != '[' || s[e - 1] != ']' || s[e - 2] != '"')
		return 0;
	*name = s + ++i;
	while (i < e && (xq_is_alpha((unsigned char)s[i]) || xq_is_digit((unsigned char)s[i]) || s[i] == '_'))
		i++;
	*nlen = (size_t)(s + i - *name);
	while (i < e && s[i] == ' ')
		i++;
	if (*nlen == 0 || i >= e - 2 || s[i] != '"')
		return 0;
	*val = s + i + 1;
	*vlen = (size_t)(s + e - 2 - *val);
	return 1;
}

/* A tag's name as the game keeps it: a canonical name whatever its case. */
static const char *tag_name(const char *name, size_t n, char *buf, size_t cap)
{
	static const char *const canon[] = {
		"Event", "Site", "Date", "Round", "Red", "Black", "RedTeam", "BlackTeam",
		"Result", "ECCO", "Opening", "Variation", "Title", "Annotator", "Author",
		"TimeControl", "RedTime", "BlackTime", "GameType", "FEN",
	};

	snprintf(buf, cap, "%.*s", (int)n, name);
	for (size_t i = 0; i < sizeof(canon) / sizeof(canon[0]); i++)
		if (xq_ascii_ieq(canon[i], buf))
			return canon[i];
	return buf;
}

/* The fields of a FEN from `s`: the board, then what follows it as a FEN
 * does (side, `-`, `-`, two counts); the bytes they take. */
static size_t fen_span(const char *s, size_t len)
{
	size_t i = 0, end;
	int field = 0;

	while (i < len && s[i] != ' ' && s[i] != '\t')
		i++;
	end = i;
	for (field = 1; field < 6; field++) {
		size_t a = i, b;
		int ok;
		while (a < len && (s[a] == ' ' || s[a] == '\t'))
			a++;
		b = a;
		while (b < len && s[b] != ' ' && s[b] != '\t' && s[b] != ';')
			b++;
		if (b == a)
			break;
		if (field == 1)
			ok = b - a == 1 && memchr("wbrWBR", s[a], 6);
		else if (field < 4)
			ok = b - a == 1 && s[a] == '-';
		else
			ok = strspn(s + a, "0123456789") == b - a;
		if (!ok)
			break;
		i = end = b;
	}
	return end;
}

/* EPD operations (`id "name"; bm h2e2;`): each a tag of its opcode's name. */
static int epd_ops(struct xqi_line_reader *r, struct xqi_record *g, const char *s, size_t len,
		   size_t at)
{
	size_t i = 0;
	int rc = 0;

	for (size_t was = 0; i < len && !rc; XQI_ADVANCED(was, i + 1)) {
		size_t op, opn, val, end;
		int quoted = 0;
		while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == ';'))
			i++;
		if (i >= len)
			break;
		op = i;
		while (i < len && (xq_is_alpha((unsigned char)s[i]) || xq_is_digit((unsigned char)s[i]) || s[i] == '_'))
			i++;
		opn = i - op;
		while (i < len && s[i] == ' ')
			i++;
		val = i;
		/* Up to the ';' outside quotes. */
		while (i < len && (quoted || s[i] != ';')) {
			quoted ^= s[i] == '"';
			i++;
		}
		end = i;
		while (end > val && s[end - 1] == ' ')
			end--;
		if (end - val >= 2 && s[val] == '"' && s[end - 1] == '"')
			val++, end--;
		if (opn == 0 || (i < len && s[i] != ';' && quoted)) {
			report(r, g, here(r, xqi_lines_col(&r->lines, at + op)), XQI_D_SYNTAX,
			       XQ_SEVERITY_WARNING, "'%.*s' is not an EPD operation; not read",
			       (int)(i - op), s + op);
			continue;
		}
		rc = xqi_record_add_tag(g, s + op, opn, s + val, end - val);
	}
	return rc;
}

/* A record of one line: a FEN or an EPD line. */
static int read_fen_line(struct xqi_line_reader *r, struct xqi_record *g)
{
	const char *s = r->lines.text;
	size_t start = 0, len = r->lines.len, span, rest;
	int rc;

	while (start < len && xq_is_space((unsigned char)s[start]))
		start++;
	span = fen_span(s + start, len - start);
	rc = read_position(r, g, s + start, span, here(r, xqi_lines_col(&r->lines, start)));
	rest = start + span;
	while (rest < len && xq_is_space((unsigned char)s[rest]))
		rest++;
	while (len > rest && xq_is_space((unsigned char)s[len - 1]))
		len--;
	if (rc || rest >= len)
		return rc;
	if (memchr(s + rest, ';', len - rest))
		return epd_ops(r, g, s + rest, len - rest, rest);
	return xqi_record_set_comment(g, XQI_ROOT, s + rest, len - rest);
}

/* Has `g` a tag called `name` (n bytes) among its first `from`.. tags? */
static int has_tag(const struct xqi_record *g, size_t from, const char *name)
{
	for (size_t i = from; i < g->ntags; i++)
		if (!strcmp(g->tags[i].name, name))
			return 1;
	return 0;
}

/*
 * A record of tag lines: up to a blank line, a line that is no tag, or a
 * tag the block has already (the next block's).  The FEN tag is the
 * position; every tag is kept.
 */
static int read_block(struct xqi_line_reader *r, struct xqi_record *g)
{
	struct xq_buf fen = XQ_BUF_INIT;
	struct xqi_place fen_at = {0, 0, 0};
	int rc = 0, got = 1, have_fen = 0;

	for (uint64_t was = 0; got == 1 && !rc; XQI_ADVANCED(was, r->lines.lineno + (got != 1))) {
		const char *name, *val;
		size_t nlen, vlen;
		char buf[64];
		const char *tag;
		if (!tag_line(r->lines.text, r->lines.len, &name, &nlen, &val, &vlen)) {
			if (r->lines.len && strspn(r->lines.text, " \t") != r->lines.len)
				xqi_lines_again(&r->lines); /* the next record's */
			break;
		}
		tag = tag_name(name, nlen, buf, sizeof(buf));
		if (g->ntags >= FENLIST_MAX_TAGS) {
			report(r, g, here(r, 0), XQI_D_RESOURCE, XQ_SEVERITY_ERROR,
			       "a block of more than %d tags (XQMagic's have three); the rest of the "
			       "input is not read",
			       FENLIST_MAX_TAGS);
			rc = XQ_ERANGE;
			break;
		}
		if (has_tag(g, 0, tag)) {
			xqi_lines_again(&r->lines);
			break;
		}
		if (r->lines.offset + r->lines.len - g->place.offset > r->limit) {
			struct xq_diagnostic d;
			xqi_diagnostic_init(&d);
			xqi_format_limit_diag(&d, &xqi_format_fenlist, &r->opts, "a block of tags");
			report(r, g, here(r, 0), XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "%s", d.msg);
			rc = XQ_ERANGE;
			break;
		}
		if (r->lines.bad)
			g->flags |= XQI_RECORD_BROKEN;
		rc = xqi_record_add_tag(g, tag, strlen(tag), val, vlen);
		if (!rc && !strcmp(tag, "FEN") && !have_fen) {
			have_fen = 1;
			fen_at = here(r, xqi_lines_col(&r->lines, (size_t)(val - r->lines.text)));
			xq_buf_add(&fen, val, vlen);
			rc = xq_buf_error(&fen);
		}
		if (!rc)
			got = xqi_lines_next(&r->lines);
	}
	if (got < 0 && !rc)
		rc = got;
	if (!rc && have_fen)
		rc = read_position(r, g, fen.ptr ? fen.ptr : "", fen.len, fen_at);
	else if (!rc) {
		report(r, g, g->place, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
		       "a block of tags with no FEN tag: no position; not read");
		g->flags |= XQI_RECORD_BROKEN | XQI_RECORD_EMPTY;
	}
	xq_buf_release(&fen);
	return rc;
}

/* Is the FEN line s[0..len) a FEN alone, or a FEN and EPD operations (no other text)? */
static int pure_fen(const char *s, size_t len)
{
	size_t i = 0, span;

	while (i < len && xq_is_space((unsigned char)s[i]))
		i++;
	span = fen_span(s + i, len - i);
	for (i += span; i < len && xq_is_space((unsigned char)s[i]); i++)
		;
	return i == len || memchr(s + i, ';', len - i) != NULL;
}

/* What a line is: 0 blank, 1 a tag, 2 a FEN or EPD line, 3 neither. */
static int line_kind(const char *s, size_t len)
{
	const char *name, *val;
	size_t nlen, vlen, i = 0, w;

	while (i < len && xq_is_space((unsigned char)s[i]))
		i++;
	if (i == len)
		return 0;
	if (tag_line(s, len, &name, &nlen, &val, &vlen))
		return 1;
	for (w = i; w < len && !xq_is_space((unsigned char)s[w]) && s[w] != ';'; w++)
		;
	return board_word(s + i, w - i) ? 2 : 3;
}

/*
 * To the next record's first line: past blank lines and lines that are
 * no position (each an error), within XQI_SKIP_MAX bytes.  Its kind, 0 at
 * the end, or a negative code.
 */
static int next_record(struct xqi_line_reader *r)
{
	uint64_t from = 0;
	int first = 1;

	for (uint64_t was = 0;; XQI_ADVANCED(was, r->lines.lineno)) {
		int got = xqi_lines_next(&r->lines), kind;
		if (got <= 0)
			return got;
		if (first)
			from = r->lines.offset, first = 0;
		kind = line_kind(r->lines.text, r->lines.len);
		if (kind == 1 || kind == 2)
			return kind;
		if (r->lines.offset - from > XQI_SKIP_MAX) {
			report(r, NULL, here(r, 0), XQI_D_RESOURCE, XQ_SEVERITY_ERROR,
			       "more than %llu MiB from here hold no position; the rest of the input "
			       "is not read",
			       (unsigned long long)(XQI_SKIP_MAX >> 20));
			return XQ_ERANGE;
		}
		if (kind == 3)
			report(r, NULL, here(r, 1), XQI_D_SYNTAX, XQ_SEVERITY_ERROR,
			       "'%.40s%s' is neither a FEN, an EPD line nor a tag; not read",
			       r->lines.text, r->lines.len > 40 ? "..." : "");
	}
}

static int fenlist_read(void *reader, struct xqi_record *g)
{
	struct xqi_line_reader *r = reader;
	int kind, rc;

	if (r->done)
		return 0;
	r->lines.game = 0;
	kind = next_record(r);
	if (kind <= 0) {
		r->done = 1;
		return kind;
	}
	xqi_record_clear(g);
	g->number = ++r->games;
	g->source = r->name;
	g->encoding = xqi_encoding_name(xqi_lines_encoding(&r->lines));
	g->place = here(r, 0);
	r->lines.game = g->number;
	if (r->lines.bad)
		g->flags |= XQI_RECORD_BROKEN;
	rc = kind == 1 ? read_block(r, g) : read_fen_line(r, g);
	if (rc < 0)
		r->done = 1;
	return xqi_read_guard(&r->guard, rc < 0 ? rc : 1, g->place.offset + 1, g, r->sink);
}

static int fenlist_open_reader(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
			       const struct xqi_sink *sink)
{
	return xqi_line_reader_open(out, &xqi_format_fenlist, in, opts, sink);
}

/* What the lines of `text` say (see the top of the file): 70 a list, 0 not one. */
static int list_score(const char *t, size_t tlen, int whole)
{
	int fens = 0, tags = 0, index = 0, lines = 0;

	for (size_t i = 0; i < tlen;) {
		const char *s = t + i, *nl = memchr(s, '\n', tlen - i);
		size_t n = nl ? (size_t)(nl - s) : tlen - i;
		int kind;
		i += n + 1;
		while (n && s[n - 1] == '\r')
			n--;
		if ((kind = line_kind(s, n)) == 0)
			continue;
		lines++;
		if (kind == 3 || (kind == 2 && (tags || !pure_fen(s, n))) || (kind == 1 && fens))
			return 0;
		fens += kind == 2;
		tags += kind == 1;
		index |= kind == 1 && n > 11 && !memcmp(s + strspn(s, " \t"), "[FEN_INDEX ", 11);
		if (fens == 2)
			return 70;
	}
	if (fens == 1 && lines == 1 && whole)
		return 70; /* one position, nothing else */
	return tags && index ? 70 : 0;
}

/* A list by content, decoded as the reader will read it (lines.h). */
static int fenlist_probe(const unsigned char *h, size_t len)
{
	struct xq_buf text = XQ_BUF_INIT;
	int score = 0;

	if (!xqi_lines_head(h, len, &text) && text.len && !memchr(text.ptr, 0, text.len))
		score = list_score(text.ptr, text.len, len < XQI_PEEK_SIZE);
	xq_buf_release(&text);
	return score;
}

const struct xqi_format xqi_format_fenlist = {
	.name = "fen",
	.description = "FEN and EPD lists, one position a line, and XQMagic's [FEN] blocks: each "
		       "position a game with no moves (read only; XFEN is refused)",
	.extensions = ".fen .epd .xfen",
	.caps = XQ_FORMAT_READS | XQ_FORMAT_MULTI | XQ_FORMAT_ANY_TAGS | XQ_FORMAT_COMMENTS,
	.probe = fenlist_probe,
	.open_reader = fenlist_open_reader,
	.read = fenlist_read,
	.close_reader = xqi_line_reader_close,
	.max_record = FENLIST_MAX_RECORD,
	.mem_factor = FENLIST_MEM_FACTOR,
};
