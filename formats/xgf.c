/*
 * xgf.c: XGF, the game record of 谢谢象棋 (XieXie Xiangqi), read only.
 * No documentation of it was found: the layout below was decoded from the
 * one sample there is (doc/formats/xgf.md says what is certain and what is
 * guessed):
 *
 *   0      2 bytes not known (06 0B)
 *   2      fields: a type byte (1-9, in order), a length byte, GBK text:
 *          1 Event, 2 Site, 3 Date ("2005-01-18"), 4 Round, 5 Red,
 *          6 RedRating, 7 Black, 8 BlackRating, 9 (empty in the sample;
 *          read as the game comment)
 *   B      = 9 bytes after the fields (not known): a 16x16 board, then
 *   B+212  32 u32: the square of each piece, 0 for none: red 1-16, black
 *          17-32, each side king, advisor x2, elephant x2, horse x2,
 *          rook x2, cannon x2, pawn x5; a square is (column + 2) << 4 |
 *          (row + 2), columns from red's right, rows from black's back rank
 *   B+340  u32 0, u32 the number of move records, u32 the same again
 *   B+352  20-byte move records: +0 from, +2 to (squares as above), +4 the
 *          number of the piece taken (0: none), +17 FF FF FF
 *
 * The start position is the piece list's, the side to move the first
 * move's piece's colour.
 */
#include "onegame.h"

#include <stdio.h>
#include <string.h>

#include "position.h"
#include "check.h"

#define XGF_PIECES 212 /* the piece list, from the board */
#define XGF_COUNT 344  /* the number of move records */
#define XGF_MOVES 352  /* the first move record */
#define XGF_REC 20

/* The piece types of numbers 1-16 (and 17-32). */
static const int8_t xgf_types[16] = {XQI_KING,   XQI_ADVISOR, XQI_ADVISOR, XQI_ELEPHANT,
				     XQI_ELEPHANT, XQI_HORSE, XQI_HORSE,   XQI_ROOK,
				     XQI_ROOK,   XQI_CANNON,  XQI_CANNON,  XQI_PAWN,
				     XQI_PAWN,   XQI_PAWN,    XQI_PAWN,    XQI_PAWN};

/* A square byte, or 0 when it is off the board. */
static xqi_sq xgf_sq(unsigned c)
{
	int col = (int)(c >> 4) - 2, row = (int)(c & 15) - 2;

	return col >= 0 && col <= 8 && row >= 0 && row <= 9 ? XQI_SQ(8 - col, 9 - row) : 0;
}

/* The fields from byte 2; *end gets where they end.  0 or < 0. */
static int read_fields(struct xqi_onegame *r, struct xqi_record *g, size_t *end)
{
	static const char *const tags[10] = {NULL,  "Event", "Site",  "Date",        "Round",
					     "Red", "RedRating", "Black", "BlackRating", NULL};
	const unsigned char *d = (const unsigned char *)r->data.ptr;
	size_t pos = 2, n = r->data.len;
	int last = 0, cut = 0, rc = 0;

	for (size_t was = 0; pos + 2 <= n && d[pos] > last && d[pos] <= 9 && !rc;
	     XQI_ADVANCED(was, pos)) {
		size_t len = d[pos + 1], off = pos + 2;
		if ((cut = off + len > n) != 0)
			break;
		last = d[pos];
		pos = off + len;
		if (last == 3)
			rc = xqi_onegame_date_tag(r, g, off, len);
		else if ((rc = xqi_onegame_gbk(r, off, len)) != 0 || !r->text.len)
			continue;
		else if (last == 9)
			rc = xqi_record_set_comment(g, XQI_ROOT, r->text.ptr, r->text.len);
		else
			rc = xqi_onegame_tag_text(g, tags[last], r->text.ptr, r->text.len);
	}
	*end = pos;
	if (!rc && last != 9)
		xqi_onegame_report(r, pos, 0, cut || pos + 2 > n ? XQI_D_TRUNCATED : XQI_D_CORRUPT,
				  XQ_SEVERITY_ERROR,
				  "the header's text fields end at field %d, not 9; the board and "
				  "moves cannot be found",
				  last);
	return rc < 0 ? rc : last == 9 ? 0 : 1;
}

/* The start position from the piece list at `off`; 0, or 1 (reported). */
static int read_pieces(struct xqi_onegame *r, struct xqi_record *g, size_t off, size_t moves)
{
	struct xqi_position b;
	struct xq_diagnostic d;
	int first = -1;

	xqi_position_clear(&b);
	for (int k = 0; k < 32; k++) {
		uint32_t v = xqi_onegame_u32(r, off + 4 * (size_t)k);
		xqi_sq sq = xgf_sq(v & 0xFF);
		if (!v)
			continue;
		xqi_diagnostic_init(&d);
		if (v > 0xFF || !sq || xqi_position_put(&b, k < 16 ? XQI_RED : XQI_BLACK, xgf_types[k % 16],
						    sq, &d)) {
			xqi_onegame_report(r, off + 4 * (uint64_t)k, 0, XQI_D_CORRUPT, XQ_SEVERITY_ERROR,
					  "piece %d stands on 0x%x, not a square it can stand on%s%s; "
					  "no move can be read",
					  k + 1, (unsigned)v, d.msg[0] ? ": " : "", d.msg);
			return 1;
		}
		if (moves && xgf_sq((unsigned char)r->data.ptr[moves]) == sq)
			first = k;
	}
	b.side = first >= 16 ? XQI_BLACK : XQI_RED;
	return xqi_onegame_start(r, g, &b, off);
}

static int read_moves(struct xqi_onegame *r, struct xqi_record *g, size_t pos, uint32_t count)
{
	const unsigned char *d = (const unsigned char *)r->data.ptr;
	size_t n = r->data.len, k = 0;
	int rc = 0;

	xqi_onegame_line_start(r, g);
	for (size_t was = 0; k < count && pos + XGF_REC <= n;
	     k++, pos += XGF_REC, XQI_ADVANCED(was, pos)) {
		xqi_sq from = xgf_sq(d[pos]), to = xgf_sq(d[pos + 2]);
		char raw[16];
		snprintf(raw, sizeof(raw), "%02x-%02x", d[pos], d[pos + 2]);
		rc = xqi_onegame_line_move(r, g, from && to ? XQI_MOVE(from, to) : 0, pos, raw);
		if (rc)
			return rc;
	}
	xqi_onegame_counted(r, g, count, k, pos);
	return xqi_onegame_line_end(r, g, pos);
}

static int xgf_read(void *reader, struct xqi_record *g)
{
	struct xqi_onegame *r = reader;
	size_t base;
	uint32_t count;
	int rc = xqi_onegame_begin(r, g);

	if (rc <= 0)
		return rc;
	g->encoding = "gbk";
	if ((rc = read_fields(r, g, &base)) < 0)
		return rc;
	base += 9;
	if (rc == 0 && base + XGF_MOVES > r->data.len) {
		xqi_onegame_report(r, base, 0, XQI_D_TRUNCATED, XQ_SEVERITY_ERROR,
				  "the record ends inside its board (%zu bytes from byte %zu)",
				  (size_t)XGF_MOVES, base);
		rc = 1;
	}
	if (rc == 0) {
		count = xqi_onegame_u32(r, base + XGF_COUNT);
		rc = read_pieces(r, g, base + XGF_PIECES,
				 count && base + XGF_MOVES < r->data.len ? base + XGF_MOVES : 0);
	}
	if (rc) {
		g->flags |= XQI_RECORD_BROKEN | XQI_RECORD_EMPTY;
		return xqi_onegame_end(r, g, 1);
	}
	rc = read_moves(r, g, base + XGF_MOVES, count);
	return rc < 0 ? rc : xqi_onegame_end(r, g, 1);
}

/* Fields 1, 2, 3... from byte 2, each within the head, up to field 9. */
static int xgf_probe(const unsigned char *head, size_t len)
{
	size_t pos = 2, was = 0;
	int last = 0;

	for (; pos + 2 <= len && head[pos] == last + 1 && pos + 2 + head[pos + 1] <= len;
	     XQI_ADVANCED(was, pos)) {
		last = head[pos];
		pos += 2 + head[pos + 1];
		if (last == 9)
			return 80;
	}
	return 0;
}

XQI_ONEGAME_FORMAT(xqi_format_xgf, "xgf",
		  "谢谢象棋 game record, layout decoded from one sample, one game (read only)",
		  ".xgf", XQ_FORMAT_COMMENTS, xgf_probe, xgf_read, NULL);
