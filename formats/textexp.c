/*
 * textexp.c: the text exports of the programs players use, read (the
 * layouts are in doc/formats/text-exports.md):
 *
 *   - CCBridge's (象棋桥) text: a header of "标题：..." lines (the CBF
 *     fields in Chinese, each "name：value"), the game comment, then the
 *     numbered moves in Chinese, two a line;
 *   - 联众's 对局记录 table: "中 国 象 棋 对 局 记 录", lines of several
 *     "name：value" pairs between rules of dashes, a "棋谱 红方 黑方"
 *     heading, then the numbered moves;
 *   - bare move lists: lines of moves in any notation (numbered or not),
 *     after lines of text (a title, the players) that PGN would not read.
 *
 * One reader for the three: a game is its header lines (tags, the start
 * position), the text before its first move (the game comment), its move
 * lines (text after a move on its line, or on the lines after it, is that
 * move's comment), up to the next header or 联众 title, to moves after a
 * result, or to text after a blank line once moves have begun (the next
 * game of a bare list).  Each move is
 * read as it stands (lib/notation.h, any notation) and checked; one that
 * is not a move or not legal stops the game there (broken, the rest of
 * its moves not read).  A "……" in place of red's first move means black
 * moves first.
 *
 * Detected by content alone (text_probe, XQI_FORMAT_BY_CONTENT: a .txt file
 * is seldom a record, and one no probe claims stays unrecognised, skipped
 * by -r): a first line "标题：", or 联众's title,
 * or text followed by lines of at least two moves, that PGN does not
 * read (its first line is text, not a tag, a number, a move or a FEN):
 * so no file PGN or DhtmlXQ reads changes format.
 */
#include "format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lines.h"
#include "movegen.h"
#include "notation.h"
#include "utf8.h"

/*
 * Limits: a game's text within 1 MiB, far above a real one (a few KB);
 * reading keeps one line, the game and its comments: TEXT_MEM_FACTOR
 * bytes per byte at most (a move of 4 characters becomes a node).
 */
#define TEXT_MAX_RECORD ((uint64_t)1 << 20)
#define TEXT_MEM_FACTOR 24

extern const struct xqi_format xqi_format_text;

/* What a line is. */
enum { L_BLANK, L_HEADER, L_DECOR, L_FEN, L_MOVES, L_TEXT };

/* The game being read. */
struct text_game {
	struct xqi_line_reader *r;
	struct xqi_record *g;
	struct xqi_position board;   /* the position after the last move read */
	uint32_t node, ply;      /* the last move read (the root before any) */
	int moves;               /* moves read */
	int stopped;             /* a bad move stopped the game */
	int blank;               /* a blank line since the last move line */
	int fen;                 /* a start position was given */
	int ended;               /* a result ended the moves */
	uint32_t unread;         /* moves not read after the stop */
	struct xq_buf comment;   /* text waiting for its node, `pend` */
	uint32_t pend;
};

/* The header names and the tags they are (both exports' vocabularies). */
static const struct {
	const char *key, *tag;
} keys[] = {
	{"标题", "Title"},          {"分类", "Category"},       {"来源", "From"},
	{"赛事类型", "ContestType"}, {"赛事", "Event"},          {"轮次", "Round"},
	{"组别", "Group"},          {"台次", "Table"},          {"日期", "Date"},
	{"地点", "Site"},           {"时间规则", "TimeControl"}, {"裁判员", "Referee"},
	{"记录员", "Recorder"},      {"红方用时", "RedTime"},     {"红等级分", "RedRating"},
	{"红方", "Red"},            {"红队", "RedTeam"},         {"黑方用时", "BlackTime"},
	{"黑等级分", "BlackRating"}, {"黑方", "Black"},          {"黑队", "BlackTeam"},
	{"解说", "Annotator"},      {"录入", "Author"},          {"创建日期", "DateCreated"},
	{"修改日期", "DateModified"}, {"ECCO", "ECCO"},          {"棋谱类型", "RecordType"},
	{"对局种类", "RecordKind"},  {"结果", "Result"},         {"结束方式", "ResultType"},
	{"FEN", "FEN"},             {"对局名称", "Title"},       {"比赛日期", "Date"},
	{"比赛地点", "Site"},        {"比赛结果", "Result"},      {"耗时", "Time"},
};

/* Skip ASCII white space and ideographic spaces (U+3000) from s[i]. */
static size_t skip_space(const char *s, size_t len, size_t i)
{
	for (;;) {
		if (i < len && xq_is_space((unsigned char)s[i]))
			i++;
		else if (i + 3 <= len && !memcmp(s + i, "\xE3\x80\x80", 3))
			i += 3;
		else
			return i;
	}
}

/*
 * Does header name `key` start at s[i], its characters perhaps apart
 * ("红    方"), then a colon (full-width or not)?  Returns the index after
 * the colon, or 0.
 */
static size_t key_at(const char *s, size_t len, size_t i, const char *key)
{
	for (const char *k = key; *k;) {
		size_t n = xq_utf8_valid_prefix(k, strlen(k));
		if (n == 0 || i + n > len || memcmp(s + i, k, n))
			return 0;
		i += n;
		k += n;
		if (*k)
			i = skip_space(s, len, i);
	}
	i = skip_space(s, len, i);
	if (i + 3 <= len && !memcmp(s + i, "\xEF\xBC\x9A", 3)) /* ： */
		return i + 3;
	return i < len && s[i] == ':' ? i + 1 : 0;
}

/* The header name at s[i]: its index in keys[] and *after, or -1. */
static int any_key(const char *s, size_t len, size_t i, size_t *after)
{
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if ((*after = key_at(s, len, i, keys[k].key)))
			return (int)k;
	return -1;
}

/* The end of s[from..e) without its trailing spaces (ASCII and ideographic). */
static size_t trim_end(const char *s, size_t from, size_t e)
{
	for (;;) {
		if (e > from && xq_is_space((unsigned char)s[e - 1]))
			e--;
		else if (e >= from + 3 && !memcmp(s + e - 3, "\xE3\x80\x80", 3))
			e -= 3;
		else
			return e;
	}
}

/* The line without its spaces (ASCII and ideographic), into `out`. */
static void squeeze(const char *s, size_t len, char *out, size_t cap)
{
	size_t j = 0;

	for (size_t i = 0; i < len && j + 1 < cap;) {
		size_t k = skip_space(s, len, i);
		if (k > i) {
			i = k;
			continue;
		}
		out[j++] = s[i++];
	}
	out[j] = '\0';
}

/* 联众's title line, which starts a record. */
static int table_title(const char *s, size_t len)
{
	char sq[64];

	squeeze(s, len, sq, sizeof(sq));
	return !strcmp(sq, "中国象棋对局记录");
}

/* A line that frames a table: its title, a rule, the moves' heading. */
static int decor_line(const char *s, size_t len)
{
	char sq[64];
	size_t i = skip_space(s, len, 0), dashes = 0;

	for (size_t k = i; k < len && (s[k] == '-' || s[k] == '=' || s[k] == ' '); k++)
		dashes += s[k] != ' ';
	if (dashes >= 5 && skip_space(s, len, i + dashes) >= len)
		return 1;
	squeeze(s, len, sq, sizeof(sq));
	return table_title(s, len) || !strcmp(sq, "棋谱红方黑方");
}

/* Is the token s[0..n) a move (any notation) or a move's stand-in ("……")? */
static int move_token(const char *s, size_t n, int *placeholder)
{
	size_t k = 0;

	*placeholder = 0;
	while (k < n && (s[k] == '.' || (k + 3 <= n && !memcmp(s + k, "\xE2\x80\xA6", 3))))
		k += s[k] == '.' ? 1 : 3;
	if (k == n && n >= 3) {
		*placeholder = 1;
		return 1;
	}
	n = xqi_notation_strip_suffix(s, n);
	return n > 0 && xqi_notation_detect(s, n) != XQ_DIALECT_AUTO;
}

/* The length of a move number at s ("12.", "12．", "12、"), or 0. */
static size_t number_len(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && xq_is_digit((unsigned char)s[i]))
		i++;
	if (i == 0 || i == n)
		return 0;
	if (s[i] == '.')
		return i + 1;
	if (i + 3 <= n && (!memcmp(s + i, "\xEF\xBC\x8E", 3) || !memcmp(s + i, "\xE3\x80\x81", 3)))
		return i + 3;
	return 0;
}

/* The next token of s from *i: [*at, *at + *n), or 0 at the end. */
static int token(const char *s, size_t len, size_t *i, size_t *at, size_t *n)
{
	size_t a = skip_space(s, len, *i), b = a;

	while (b < len && skip_space(s, len, b) == b)
		b++;
	*i = b;
	*at = a;
	*n = b - a;
	return b > a;
}

/* Is the word s[0..n) a FEN's board (10 ranks of letters and digits)? */
static int board_word(const char *s, size_t n)
{
	size_t slashes = 0;

	for (size_t k = 0; k < n; k++) {
		if (!xq_is_alpha((unsigned char)s[k]) && !xq_is_digit((unsigned char)s[k]) && s[k] != '/')
			return 0;
		slashes += s[k] == '/';
	}
	return slashes == 9;
}

static int line_kind(const char *s, size_t len)
{
	size_t i = 0, at, n, after, skip;
	int ph;

	if (skip_space(s, len, 0) >= len)
		return L_BLANK;
	if (any_key(s, len, skip_space(s, len, 0), &after) >= 0)
		return L_HEADER;
	if (decor_line(s, len))
		return L_DECOR;
	token(s, len, &i, &at, &n);
	if (board_word(s + at, n))
		return L_FEN;
	if ((skip = number_len(s + at, n))) {
		if (skip < n)
			return move_token(s + at + skip, n - skip, &ph) ? L_MOVES : L_TEXT;
		if (!token(s, len, &i, &at, &n))
			return L_TEXT;
	}
	return move_token(s + at, n, &ph) ? L_MOVES : L_TEXT;
}

static void report(struct text_game *t, size_t at, uint32_t ply, const char *move, size_t mlen,
		   enum xqi_diagnostic_code code, enum xq_severity_level sev, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 8, 9)))
#endif
	;

/* Report about the current line, at its byte `at` (SIZE_MAX: the line as a whole). */
static void report(struct text_game *t, size_t at, uint32_t ply, const char *move, size_t mlen,
		   enum xqi_diagnostic_code code, enum xq_severity_level sev, const char *fmt, ...)
{
	struct xqi_lines *l = &t->r->lines;
	struct xqi_place pl = {l->offset, l->lineno, at == SIZE_MAX ? 0 : xqi_lines_col(l, at)};
	va_list ap;

	va_start(ap, fmt);
	xqi_format_vreport(t->r->sink, t->r->name, t->g->number, &pl, at == SIZE_MAX, ply, move,
			  mlen, code, sev, fmt, ap);
	va_end(ap);
}

/*
 * The text gathered for a node becomes its comment once the node's text
 * is over (a move comes, the game ends): gathered in t->comment, so that
 * a long comment costs its length, not its length times its lines.
 */
static int flush_comment(struct text_game *t)
{
	int rc = 0;

	if (t->comment.len)
		rc = xq_buf_error(&t->comment) ? XQ_ENOMEM
					       : xqi_record_set_comment(t->g, t->pend, t->comment.ptr,
								     t->comment.len);
	xq_buf_reset(&t->comment);
	return rc;
}

/* Add a line of text (or the rest of a move line) to the comment of the last move. */
static int add_comment(struct text_game *t, const char *s, size_t len, const char *sep)
{
	int rc;

	len = trim_end(s, 0, len);
	if (!len)
		return 0;
	if (t->pend != t->node && (rc = flush_comment(t)))
		return rc;
	t->pend = t->node;
	if (t->comment.len)
		xq_buf_adds(&t->comment, sep);
	xq_buf_add(&t->comment, s, len);
	return xq_buf_error(&t->comment) ? XQ_ENOMEM : 0;
}

/* The result a header or a move line gives ("红胜", "1-0", "未知"...). */
static int set_result(struct text_game *t, const char *v, size_t len, size_t at)
{
	struct xqi_record *g = t->g;
	enum xqi_result res;
	char buf[64];
	int red, black;

	snprintf(buf, sizeof(buf), "%.*s", (int)len, v);
	red = strstr(buf, "红") != NULL;
	black = strstr(buf, "黑") != NULL;
	if (xqi_result_parse(v, len, &res) == 0)
		g->result = res;
	else if (!strcmp(buf, "未知"))
		g->result = XQI_RESULT_UNKNOWN;
	else if (strstr(buf, "胜") && red != black)
		g->result = red ? XQI_RESULT_RED_WIN : XQI_RESULT_BLACK_WIN;
	else if (strstr(buf, "和") && !strstr(buf, "胜") && !strstr(buf, "负"))
		g->result = XQI_RESULT_DRAW;
	else {
		g->result = XQI_RESULT_UNKNOWN;
		g->result_text = xqi_record_strdup(g, v, len);
		report(t, at, 0, NULL, 0, XQI_D_NO_RESULT, XQ_SEVERITY_NOTE,
		       "result '%s' is not one this reader knows; taken as unknown", buf);
		return xqi_record_set_tag(g, "Result", g->result_text ? g->result_text : "*");
	}
	return xqi_record_set_tag(g, "Result", xqi_result_string(g->result));
}

/* "name(Email:mail)": the name as `tag`, the mail as `url`. */
static int person(struct xqi_record *g, const char *tag, const char *url, const char *v, size_t len)
{
	static const char mail[] = "(Email:";
	int rc = 0;

	for (size_t i = 0; i + sizeof(mail) - 1 <= len; i++) {
		size_t n = sizeof(mail) - 1, e = len;
		if (memcmp(v + i, mail, n))
			continue;
		while (e > i + n && v[e - 1] != ')')
			e--;
		if (e > i + n && v[e - 1] == ')' && e - 1 > i + n)
			rc = xqi_record_add_tag(g, url, strlen(url), v + i + n, e - 1 - (i + n));
		len = i;
		break;
	}
	while (len && xq_is_space((unsigned char)v[len - 1]))
		len--;
	return rc || !len ? rc : xqi_record_add_tag(g, tag, strlen(tag), v, len);
}

/* The start position a header or a line gives. */
static int set_start(struct text_game *t, const char *v, size_t len, size_t at)
{
	struct xq_diagnostic d;

	t->fen = 1;
	xqi_diagnostic_init(&d);
	if (!xqi_position_from_fen(&t->g->start, v, len, XQI_FEN_LENIENT_PLACEMENT, &d)) {
		t->board = t->g->start;
		return 0;
	}
	report(t, at + (d.place.col ? d.place.col - 1 : 0), 0, NULL, 0, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
	       "%s; no move can be read", d.msg);
	t->stopped = 1;
	return xqi_record_set_start_text(t->g, v, len);
}

/* One "name：value" of a header: the game's tag (`first` the line's first name's tag). */
static int set_field(struct text_game *t, int k, const char *first, const char *v, size_t len,
		     size_t at)
{
	struct xqi_record *g = t->g;
	const char *tag = keys[k].tag;
	size_t code = 0;

	if (!strcmp(tag, "FEN"))
		return set_start(t, v, len, at);
	if (!len)
		return 0;
	if (!strcmp(tag, "Result"))
		return set_result(t, v, len, at);
	if (!strcmp(tag, "Annotator"))
		return person(g, tag, "CommentatorURL", v, len);
	if (!strcmp(tag, "Author"))
		return person(g, tag, "CreatorURL", v, len);
	if (!strcmp(tag, "Time"))
		tag = !strcmp(first, "Red") ? "RedTime" : !strcmp(first, "Black") ? "BlackTime" : tag;
	if (!strcmp(tag, "ECCO")) {
		/* "C66 五七炮对屏风马进７卒": the code, and the opening's name. */
		while (code < len && code < 5 && !xq_is_space((unsigned char)v[code]))
			code++;
		if (code < len && code <= 4) {
			size_t o = skip_space(v, len, code);
			int rc = xqi_record_add_tag(g, "ECCO", 4, v, code);
			return rc || o >= len ? rc : xqi_record_add_tag(g, "Opening", 7, v + o, len - o);
		}
	}
	return xqi_record_add_tag(g, tag, strlen(tag), v, len);
}

/*
 * A header line: one "name：value" or several (联众's, set apart by two
 * spaces or more), each a tag.
 */
static int header_line(struct text_game *t)
{
	const char *s = t->r->lines.text, *first = NULL;
	size_t len = t->r->lines.len, i = skip_space(s, len, 0), after;
	int rc = 0;

	for (uint64_t was = 0; i < len && !rc; XQI_ADVANCED(was, i + 1)) {
		int k = any_key(s, len, i, &after);
		size_t v = skip_space(s, len, after), e = v, next = len;
		if (k < 0)
			break;
		/* The value runs to the next name set apart by spaces. */
		for (size_t j = after; j < len; j++) {
			size_t a, gap = skip_space(s, len, j) - j;
			/* Two spaces or more before a name (one after an empty value). */
			if (gap < (j == after ? 1u : 2u) || any_key(s, len, j + gap, &a) < 0)
				continue;
			next = skip_space(s, len, j);
			break;
		}
		e = trim_end(s, v, next > v ? next : v);
		rc = set_field(t, k, first ? first : keys[k].tag, s + v, e - v, v);
		if (!first)
			first = keys[k].tag;
		i = next;
	}
	return rc;
}

/* A move token s[0..n) at byte `at` of the line: read, checked, added. */
static int add_move(struct text_game *t, const char *s, size_t n, size_t at)
{
	struct xq_diagnostic d;
	xqi_move m;
	uint32_t node;
	int rc;

	n = xqi_notation_strip_suffix(s, n);
	xqi_diagnostic_init(&d);
	if ((rc = xqi_notation_read(&m, &t->board, s, n, XQ_DIALECT_AUTO, &d)) != 0) {
		report(t, at, t->ply + 1, s, n, d.code ? d.code : XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_ERROR,
		       "%s; the game stops here", d.msg);
		t->g->flags |= XQI_RECORD_BROKEN;
		t->stopped = 1;
		return 0;
	}
	if ((rc = xqi_record_add_move(t->g, t->node, m, &node)) ||
	    (rc = xqi_record_set_text(t->g, node, s, n)))
		return rc;
	t->g->nodes[node].place.line = t->r->lines.lineno;
	t->g->nodes[node].place.col = xqi_lines_col(&t->r->lines, at);
	{
		struct xqi_undo u;
		xqi_position_make(&t->board, m, &u);
	}
	t->node = node;
	t->ply++;
	t->moves++;
	return 0;
}

/* "……" in place of red's first move: black moves first. */
static void black_first(struct text_game *t, size_t at)
{
	if (t->moves || t->stopped || t->board.side == XQI_BLACK)
		return;
	t->board.side = XQI_BLACK;
	t->board.key = xqi_position_compute_key(&t->board);
	t->g->start = t->board;
	report(t, at, 0, NULL, 0, XQI_D_NONE, XQ_SEVERITY_NOTE,
	       "red's first move is left blank: black moves first");
}

/* The moves a line starts with (after its numbers): 2 or more make a move list. */
static int moves_on(const char *s, size_t len)
{
	size_t i = 0, at, n;
	int count = 0, ph;

	while (token(s, len, &i, &at, &n)) {
		size_t skip = number_len(s + at, n);
		if (skip < n && move_token(s + at + skip, n - skip, &ph))
			count++;
		else if (skip < n)
			break;
	}
	return count;
}

/* A line of moves: numbers, moves, a result; what follows a move that is none is its comment. */
static int moves_line(struct text_game *t)
{
	const char *s = t->r->lines.text;
	size_t len = t->r->lines.len, i = 0, at, n;
	int rc = 0, ph;

	t->blank = 0;
	while (!rc && token(s, len, &i, &at, &n)) {
		size_t skip = number_len(s + at, n);
		enum xqi_result res;
		if (skip == n)
			continue;
		at += skip;
		n -= skip;
		if (xqi_result_parse(s + at, n, &res) == 0) {
			rc = set_result(t, s + at, n, at);
			t->ended = t->moves > 0;
		} else if (!move_token(s + at, n, &ph) && moves_on(s + i, len - i) == 0) {
			/* Text after the moves of the line: the last move's comment. */
			rc = add_comment(t, s + at, len - at, t->moves ? " " : "\n");
			break;
		} else if (!move_token(s + at, n, &ph)) {
			if (!t->stopped)
				report(t, at, t->ply + 1, s + at, n, XQI_D_BAD_MOVE_TEXT, XQ_SEVERITY_ERROR,
				       "'%.*s' is not a move in any notation, and moves follow it; the "
				       "game stops here",
				       (int)n, s + at);
			t->g->flags |= XQI_RECORD_BROKEN;
			t->stopped = 1;
		} else if (ph) {
			black_first(t, at);
		} else if (t->stopped) {
			t->unread++;
		} else {
			rc = add_move(t, s + at, n, at);
		}
	}
	return rc;
}

/*
 * Take the current line into the game: 1 taken, 0 when it belongs to
 * the next game (it is kept for it), or a negative code.
 */
static int take_line(struct text_game *t, int kind)
{
	struct xqi_lines *l = &t->r->lines;
	size_t after, at = skip_space(l->text, l->len, 0);
	int k;

	switch (kind) {
	case L_BLANK:
		t->blank = t->moves > 0;
		return 1;
	case L_DECOR:
		/* A rule after the moves closes the table; a title starts the next. */
		return t->moves && table_title(l->text, l->len) ? 0 : 1;
	case L_HEADER:
		k = any_key(l->text, l->len, at, &after);
		/* A record's first name met again starts the next record. */
		if (t->moves || (!strcmp(keys[k].tag, "Title") && xqi_record_tag(t->g, "Title")))
			return 0;
		return header_line(t) ? -1 : 1;
	case L_FEN:
		if (t->moves)
			return 0;
		return set_start(t, l->text + at, trim_end(l->text, at, l->len) - at, at) ? -1 : 1;
	case L_MOVES:
		if (t->ended)
			return 0; /* moves after a result: the next game's */
		return moves_line(t) ? -1 : 1;
	default: /* text */
		if (t->moves && t->blank)
			return 0; /* after a blank line: the next game of a bare list */
		return add_comment(t, l->text + at, l->len - at, "\n") ? -1 : 1;
	}
}

/* Read the game whose first line is the current one. */
static int read_game(struct xqi_line_reader *r, struct text_game *t)
{
	struct xqi_lines *l = &r->lines;
	int got = 1, rc = 0;

	for (uint64_t was = 0; got == 1; XQI_ADVANCED(was, l->lineno + (got != 1))) {
		if (l->bad)
			t->g->flags |= XQI_RECORD_BROKEN;
		if (l->offset + l->len - t->g->place.offset > r->limit) {
			struct xq_diagnostic d;
			xqi_diagnostic_init(&d);
			xqi_format_limit_diag(&d, &xqi_format_text, &r->opts, "a game");
			report(t, SIZE_MAX, 0, NULL, 0, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "%s", d.msg);
			return XQ_ERANGE;
		}
		rc = take_line(t, line_kind(l->text, l->len));
		if (rc < 0)
			return XQ_ENOMEM;
		if (rc == 0) {
			xqi_lines_again(l);
			break;
		}
		got = xqi_lines_next(l);
	}
	if (got < 0)
		return got;
	if ((rc = flush_comment(t)))
		return rc;
	if (t->unread)
		report(t, SIZE_MAX, 0, NULL, 0, XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_NOTE,
		       "%u moves after the bad move were not read", (unsigned)t->unread);
	if (!t->moves)
		t->g->flags |= XQI_RECORD_EMPTY;
	return 0;
}

/*
 * To the first line of the next game, past blank lines (at most
 * XQI_SKIP_MAX bytes of them): 1, 0 at the end, or a negative code.
 */
static int next_game(struct xqi_line_reader *r)
{
	uint64_t from = UINT64_MAX;

	for (uint64_t was = 0;; XQI_ADVANCED(was, r->lines.lineno)) {
		int got = xqi_lines_next(&r->lines);
		if (got <= 0 || line_kind(r->lines.text, r->lines.len) != L_BLANK)
			return got;
		if (from == UINT64_MAX)
			from = r->lines.offset;
		if (r->lines.offset - from > XQI_SKIP_MAX) {
			struct xqi_place pl = {r->lines.offset, r->lines.lineno, 0};
			xqi_format_report(r->sink, r->name, 0, &pl, 1, 0, NULL, 0, XQI_D_RESOURCE,
					 XQ_SEVERITY_ERROR,
					 "more than %llu MiB of blank lines and no game; the rest of the "
					 "input is not read",
					 (unsigned long long)(XQI_SKIP_MAX >> 20));
			return XQ_ERANGE;
		}
	}
}

static int text_read(void *reader, struct xqi_record *g)
{
	struct xqi_line_reader *r = reader;
	struct text_game t;
	int rc;

	if (r->done)
		return 0;
	if ((rc = next_game(r)) <= 0) {
		r->done = 1;
		return rc;
	}
	xqi_record_clear(g);
	g->number = r->games + 1;
	g->source = r->name;
	g->encoding = xqi_encoding_name(xqi_lines_encoding(&r->lines));
	g->place.offset = r->lines.offset;
	g->place.line = r->lines.lineno;
	r->lines.game = g->number;
	memset(&t, 0, sizeof(t));
	t.r = r;
	t.g = g;
	t.board = g->start;
	t.node = XQI_ROOT;
	xq_buf_init(&t.comment);
	rc = read_game(r, &t);
	xq_buf_release(&t.comment);
	if (rc < 0) {
		r->done = 1;
		return rc;
	}
	if (!t.moves && g->ntags == 0 && !t.fen) {
		/* Text with no move, no header, no position (it runs to the end:
		 * text ends a game only after moves): no game. */
		struct xqi_place pl = g->place;
		xqi_format_report(r->sink, r->name, 0, &pl, 1, 0, NULL, 0, XQI_D_TRAILING,
				 XQ_SEVERITY_WARNING, "text from here to the end holds no move; not read");
		r->done = 1;
		return 0;
	}
	r->games++;
	return xqi_read_guard(&r->guard, 1, g->place.offset + 1, g, r->sink);
}

static int text_open_reader(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
			    const struct xqi_sink *sink)
{
	return xqi_line_reader_open(out, &xqi_format_text, in, opts, sink);
}

/* Does the line look like what PGN reads: a tag, a comment, a number, a move, a FEN? */
static int pgn_like(const char *s, size_t len)
{
	size_t i = skip_space(s, len, 0), at, n, k = 0;
	int ph;

	if (i < len && (s[i] == '[' || s[i] == '{' || s[i] == ';' || s[i] == '<' || s[i] == '%'))
		return 1;
	if (!token(s, len, &k, &at, &n))
		return 0;
	return xq_is_digit((unsigned char)s[at]) || board_word(s + at, n) || move_token(s + at, n, &ph);
}

/* See the top of the file. */
static int text_probe(const unsigned char *h, size_t len)
{
	struct xq_buf text = XQ_BUF_INIT;
	int score = 0, first = 1, lists = 0;

	if (xqi_lines_head(h, len, &text) || !text.len || memchr(text.ptr, 0, text.len)) {
		xq_buf_release(&text);
		return 0;
	}
	for (size_t i = 0; i < text.len;) {
		const char *s = text.ptr + i, *nl = memchr(s, '\n', text.len - i);
		size_t n = nl ? (size_t)(nl - s) : text.len - i, after;
		i += n + 1;
		if (line_kind(s, n) == L_BLANK)
			continue;
		if (first) {
			first = 0;
			if (any_key(s, n, skip_space(s, n, 0), &after) == 0 || decor_line(s, n)) {
				score = 80; /* 标题：, or 联众's title */
				break;
			}
			if (pgn_like(s, n))
				break;
			continue;
		}
		lists += moves_on(s, n) >= 2;
	}
	xq_buf_release(&text);
	return score ? score : lists ? 20 : 0;
}

const struct xqi_format xqi_format_text = {
	.name = "text",
	.description = "text exports: CCBridge's (标题：...), 联众's 对局记录 table, and bare move "
		       "lists in any notation after lines of text (read only)",
	.extensions = ".txt .pgn",
	.caps = XQ_FORMAT_READS | XQ_FORMAT_MULTI | XQ_FORMAT_COMMENTS | XQ_FORMAT_ANY_TAGS | XQI_FORMAT_BY_CONTENT,
	.probe = text_probe,
	.open_reader = text_open_reader,
	.read = text_read,
	.close_reader = xqi_line_reader_close,
	.max_record = TEXT_MAX_RECORD,
	.mem_factor = TEXT_MEM_FACTOR,
};
