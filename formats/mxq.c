/*
 * mxq.c: MXQ, the game record of 弈天 (movesky, an online xiangqi server),
 * read only.  The layout is in doc/formats/mxq.md; in short, the record
 * is a run of fields, each a length byte and that many bytes of GBK text:
 *
 *    0 site ("弈天棋缘")            1 date ("2016年12月27日 21点14分")
 *    2 "RED-胜-BLACK" (胜 red won, 和 draw, 负 red lost; 勝/負 also read)
 *    3 red's rating   4 black's rating   5-9 five numbers not known
 *   10 the game's closing comment ("红方认输")
 *   11 "Moves"  then one field a move, "7C-4C" (file digit 0-8 from red's
 *      left, rank letter A-J from red's side), up to "Ends"; then
 *      "CommentsEnd".
 *
 * Tags: Site, Date (as PGN's YYYY.MM.DD when it is one, else as written),
 * Event (field 2 as written), Red and Black (its two sides), Result,
 * RedRating, BlackRating.  The comment goes after the last move.  The
 * game starts from the standard position with red to move.
 */
#include "onegame.h"

#include <stdio.h>
#include <string.h>

#include "position.h"
#include "check.h"

#define MXQ_FIELDS 12 /* the fields before the moves, "Moves" the last */

/* A field: its text at data + off, `len` bytes. */
struct field {
	size_t off, len;
};

/* The field at *pos (moved past it): 1, or 0 when the record ends in it (reported). */
static int next_field(struct xqi_onegame *r, size_t *pos, struct field *f, const char *what)
{
	size_t n = r->data.len;

	if (*pos >= n || *pos + 1 + (unsigned char)r->data.ptr[*pos] > n) {
		xqi_onegame_report(r, *pos, 0, XQI_D_TRUNCATED, XQ_SEVERITY_ERROR,
				  "the record ends inside %s", what);
		return 0;
	}
	f->len = (unsigned char)r->data.ptr[*pos];
	f->off = *pos + 1;
	*pos = f->off + f->len;
	return 1;
}

static int is(const struct xqi_onegame *r, const struct field *f, const char *word)
{
	return f->len == strlen(word) && !memcmp(r->data.ptr + f->off, word, f->len);
}

/* Field 2, "RED-胜-BLACK": the Event tag, and the players and result it names. */
static int players(struct xqi_onegame *r, struct xqi_record *g, const struct field *f)
{
	static const struct {
		const char *word;
		enum xqi_result result;
	} words[] = {{"-胜-", XQI_RESULT_RED_WIN}, {"-勝-", XQI_RESULT_RED_WIN},
		     {"-和-", XQI_RESULT_DRAW},    {"-负-", XQI_RESULT_BLACK_WIN},
		     {"-負-", XQI_RESULT_BLACK_WIN}};
	const char *s;
	size_t n;
	int rc = xqi_onegame_gbk(r, f->off, f->len);

	if (rc || (rc = xqi_onegame_tag_text(g, "Event", r->text.ptr, r->text.len)))
		return rc;
	s = r->text.ptr;
	n = r->text.len;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		const char *w = strstr(s, words[i].word);
		const char *res;
		if (!w)
			continue;
		rc = xqi_onegame_tag_text(g, "Red", s, (size_t)(w - s));
		w += strlen(words[i].word);
		if (!rc)
			rc = xqi_onegame_tag_text(g, "Black", w, n - (size_t)(w - s));
		g->result = words[i].result;
		res = xqi_result_string(g->result);
		return rc ? rc : xqi_onegame_tag_text(g, "Result", res, strlen(res));
	}
	return 0;
}

/* The fields before the moves; 1 when they are all there, 0 (reported), or < 0. */
static int read_head(struct xqi_onegame *r, struct xqi_record *g, size_t *pos, struct field *comment)
{
	struct field f[MXQ_FIELDS];
	size_t was = *pos;
	int rc;

	for (int i = 0; i < MXQ_FIELDS; i++, XQI_ADVANCED(was, *pos))
		if (!next_field(r, pos, &f[i], "its header"))
			return 0;
	if (!is(r, &f[MXQ_FIELDS - 1], "Moves")) {
		xqi_onegame_report(r, f[MXQ_FIELDS - 1].off - 1, 0, XQI_D_CORRUPT, XQ_SEVERITY_ERROR,
				  "the 12th field is not \"Moves\": not an MXQ record this reader "
				  "knows; no move is read");
		return 0;
	}
	rc = xqi_onegame_tag(r, g, "Site", f[0].off, f[0].len);
	if (!rc)
		rc = xqi_onegame_date_tag(r, g, f[1].off, f[1].len);
	if (!rc)
		rc = players(r, g, &f[2]);
	if (!rc)
		rc = xqi_onegame_tag(r, g, "RedRating", f[3].off, f[3].len);
	if (!rc)
		rc = xqi_onegame_tag(r, g, "BlackRating", f[4].off, f[4].len);
	*comment = f[10];
	return rc < 0 ? rc : 1;
}

/* "7C-4C": the move, or 0 when the text names no squares. */
static xqi_move move_of(const char *s, size_t len)
{
	if (len != 5 || s[2] != '-')
		return 0;
	for (int i = 0; i < 5; i += 3)
		if (s[i] < '0' || s[i] > '8' || s[i + 1] < 'A' || s[i + 1] > 'J')
			return 0;
	return XQI_MOVE(XQI_SQ(s[0] - '0', s[1] - 'A'), XQI_SQ(s[3] - '0', s[4] - 'A'));
}

/* The moves from *pos up to "Ends"; 0 or < 0. */
static int read_moves(struct xqi_onegame *r, struct xqi_record *g, size_t *pos)
{
	struct field f;
	int rc = 0;

	xqi_onegame_line_start(r, g);
	for (size_t was = *pos;; XQI_ADVANCED(was, *pos)) {
		char raw[16];
		size_t at = *pos;
		if (!next_field(r, pos, &f, "its moves (no \"Ends\")")) {
			g->flags |= XQI_RECORD_BROKEN;
			break;
		}
		if (is(r, &f, "Ends"))
			break;
		snprintf(raw, sizeof(raw), "%.*s", (int)(f.len < 8 ? f.len : 8), r->data.ptr + f.off);
		for (char *c = raw; *c; c++)
			if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7E)
				*c = '?';
		if ((rc = xqi_onegame_line_move(r, g, move_of(r->data.ptr + f.off, f.len), at,
					       raw)) != 0)
			break;
	}
	return rc ? rc : xqi_onegame_line_end(r, g, *pos);
}

/* The closing comment, after the last move of the main line. */
static int set_comment(struct xqi_onegame *r, struct xqi_record *g, const struct field *c)
{
	int rc = xqi_onegame_gbk(r, c->off, c->len);

	if (rc || !r->text.len)
		return rc;
	return xqi_record_set_comment(g, xqi_record_mainline_end(g), r->text.ptr, r->text.len);
}

static int mxq_read(void *reader, struct xqi_record *g)
{
	struct xqi_onegame *r = reader;
	struct field comment, f;
	size_t pos = 0;
	int rc = xqi_onegame_begin(r, g);

	if (rc <= 0)
		return rc;
	g->encoding = "gbk";
	rc = read_head(r, g, &pos, &comment);
	if (rc == 0) {
		g->flags |= XQI_RECORD_BROKEN | XQI_RECORD_EMPTY;
		return xqi_onegame_end(r, g, 1);
	}
	if (rc > 0)
		rc = read_moves(r, g, &pos);
	if (!rc)
		rc = set_comment(r, g, &comment);
	if (rc < 0)
		return rc;
	if (g->flags & XQI_RECORD_BROKEN || pos >= r->data.len)
		return xqi_onegame_end(r, g, 1);
	/* After "Ends", the sample has "CommentsEnd" and nothing else. */
	if (next_field(r, &pos, &f, "the field after \"Ends\"") && !is(r, &f, "CommentsEnd"))
		xqi_onegame_report(r, f.off - 1, 0, XQI_D_UNSUPPORTED, XQ_SEVERITY_WARNING,
				  "a field after \"Ends\" that is not \"CommentsEnd\"; what follows "
				  "the moves is not read");
	else if (pos < r->data.len)
		xqi_onegame_report(r, pos, 0, XQI_D_TRAILING, XQ_SEVERITY_WARNING,
				  "%zu bytes after the record are not read", r->data.len - pos);
	return xqi_onegame_end(r, g, 1);
}

/* Twelve length-prefixed fields, the last "Moves". */
static int mxq_probe(const unsigned char *head, size_t len)
{
	size_t pos = 0, was = 0;

	for (int i = 0; i < MXQ_FIELDS - 1; i++, XQI_ADVANCED(was, pos + 1)) {
		if (pos >= len)
			return 0;
		pos += 1 + head[pos];
	}
	return pos + 6 <= len && head[pos] == 5 && !memcmp(head + pos + 1, "Moves", 5) ? 95 : 0;
}

XQI_ONEGAME_FORMAT(xqi_format_mxq, "mxq",
		  "弈天 (movesky) game record, GBK, one game (read only)",
		  ".mxq", XQ_FORMAT_COMMENTS, mxq_probe, mxq_read, NULL);
