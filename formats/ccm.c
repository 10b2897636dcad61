/*
 * ccm.c: CCM, the game record of 中国游戏中心 (the China Game Center,
 * 17pk / 中游), read only.  The layout is in doc/formats/ccm.md: a 12-byte
 * header (byte 0 is 1, the u32 at 8 the number of moves), then one 9-byte
 * record a move:
 *
 *    0 the piece's number among its side's 16   1 side (1 red, 2 black)
 *    2 piece type (1 king, 2 advisor, 3 elephant, 4 horse, 5 rook,
 *      6 cannon, 7 pawn)
 *    3 from file, 4 from row, 5 to file, 6 to row (files from red's left,
 *      rows from black's back rank, both from 0)
 *    7 the captured piece's number, 8 its type (0: nothing captured)
 *
 * No tags: the header holds no names.  The game starts from the standard
 * position.  The type byte is checked against the piece on the square the
 * move leaves (a warning when they differ).  The older 7-byte layout that
 * ElephantEye and vschess read has no sample and is not read.
 */
#include "onegame.h"

#include <stdio.h>
#include <string.h>

#include "position.h"
#include "check.h"

#define CCM_HEAD 12
#define CCM_MOVE 9

/* The piece types of bytes 2 and 8, 1..7. */
static const int8_t ccm_types[8] = {-1,       XQI_KING,  XQI_ADVISOR, XQI_ELEPHANT,
				    XQI_HORSE, XQI_ROOK,  XQI_CANNON,  XQI_PAWN};

/* The move of a record, or 0 when a square is off the board. */
static xqi_move ccm_move(const unsigned char *p)
{
	if (p[3] > 8 || p[5] > 8 || p[4] > 9 || p[6] > 9)
		return 0;
	return XQI_MOVE(XQI_SQ(p[3], 9 - p[4]), XQI_SQ(p[5], 9 - p[6]));
}

/* Warn once when a record's type byte is not the piece on its from square. */
static void check_type(struct xqi_onegame *r, const unsigned char *p, uint64_t off, int *warned)
{
	xqi_move m = ccm_move(p);
	uint8_t kind;

	if (*warned || !m || r->line.parent == XQ_NO_NODE)
		return;
	kind = xqi_position_kind(&r->line.board, XQI_MOVE_FROM(m));
	if (!kind || p[2] < 1 || p[2] > 7 || XQI_KIND_TYPE(kind) == ccm_types[p[2]])
		return;
	xqi_onegame_report(r, off + 2, r->line.ply + 1, XQI_D_CORRUPT, XQ_SEVERITY_WARNING,
			  "the record says a piece of type %u moves, but another piece stands on "
			  "its square; the squares are followed",
			  (unsigned)p[2]);
	*warned = 1;
}

static int read_moves(struct xqi_onegame *r, struct xqi_record *g, uint32_t count)
{
	const unsigned char *d = (const unsigned char *)r->data.ptr;
	size_t pos = CCM_HEAD, n = r->data.len;
	int warned = 0, rc = 0;

	xqi_onegame_line_start(r, g);
	for (size_t was = 0; pos + CCM_MOVE <= n && (pos - CCM_HEAD) / CCM_MOVE < count;
	     pos += CCM_MOVE, XQI_ADVANCED(was, pos)) {
		char raw[32];
		snprintf(raw, sizeof(raw), "%u,%u-%u,%u", d[pos + 3], d[pos + 4], d[pos + 5],
			 d[pos + 6]);
		check_type(r, d + pos, pos, &warned);
		if ((rc = xqi_onegame_line_move(r, g, ccm_move(d + pos), pos, raw)) != 0)
			return rc;
	}
	xqi_onegame_counted(r, g, count, (pos - CCM_HEAD) / CCM_MOVE, pos);
	return xqi_onegame_line_end(r, g, pos);
}

static int ccm_read(void *reader, struct xqi_record *g)
{
	struct xqi_onegame *r = reader;
	int rc = xqi_onegame_begin(r, g);

	if (rc <= 0)
		return rc;
	if (r->data.len < CCM_HEAD || r->data.ptr[0] != 1) {
		xqi_onegame_report(r, 0, 0, XQI_D_BAD_MAGIC, XQ_SEVERITY_ERROR,
				  r->data.len < CCM_HEAD ? "the record ends inside its %d-byte header"
							 : "not a CCM record (its byte 0 is not 1)",
				  CCM_HEAD);
		g->flags |= XQI_RECORD_BROKEN | XQI_RECORD_EMPTY;
		return xqi_onegame_end(r, g, 1);
	}
	rc = read_moves(r, g, xqi_onegame_u32(r, 8));
	return rc < 0 ? rc : xqi_onegame_end(r, g, 1);
}

/* Is the record at p one a CCM game can hold? */
static int plausible(const unsigned char *p)
{
	return p[0] < 16 && (p[1] == 1 || p[1] == 2) && p[2] >= 1 && p[2] <= 7 && p[3] <= 8 &&
	       p[4] <= 9 && p[5] <= 8 && p[6] <= 9 && p[8] <= 7;
}

/* Byte 0 is 1, the records that are there look like moves, red's first;
 * all of the input there: exactly the moves announced. */
static int ccm_probe(const unsigned char *head, size_t len)
{
	uint32_t count;
	size_t seen = 0, was = 0;

	if (len < CCM_HEAD + CCM_MOVE || head[0] != 1 || head[1] != 0 || head[CCM_HEAD + 1] != 1)
		return 0;
	count = (uint32_t)head[8] | (uint32_t)head[9] << 8 | (uint32_t)head[10] << 16 |
		(uint32_t)head[11] << 24;
	for (size_t pos = CCM_HEAD; pos + CCM_MOVE <= len && seen < count;
	     pos += CCM_MOVE, seen++, XQI_ADVANCED(was, pos))
		if (!plausible(head + pos))
			return 0;
	if (len < XQI_PEEK_SIZE)
		return (uint64_t)CCM_HEAD + (uint64_t)count * CCM_MOVE == len ? 90 : 0;
	return 60;
}

XQI_ONEGAME_FORMAT(xqi_format_ccm, "ccm",
		  "中国游戏中心 (17pk) game record, moves only, one game (read only)",
		  ".ccm", 0, ccm_probe, ccm_read, NULL);
