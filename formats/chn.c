/*
 * chn.c: CHN and XQI, the game records of 联众 (ourgame, an online game
 * server), read only.  Both extensions hold one layout ("GL" at byte 0);
 * it is in doc/formats/chn.md, in short:
 *
 *   0x000 "GL", then 6 bytes not known      0x008 the date as C's ctime()
 *   0x024 title (64 bytes, GBK, NUL-ended)    writes it ("Tue Dec 27 ...")
 *   0x064 red's account (20)  0x078 red's name (20)
 *   0x08C black's account (20)  0x0A0 black's name (20)
 *   0x0B4 the start position, 0x10E the final one: 90 bytes each, column
 *         by column from red's left, each column from black's back rank;
 *         a piece byte's low 3 bits are its type (1 rook, 2 horse,
 *         3 cannon, 4 king, 5 advisor, 6 elephant, 7 pawn), bit 3 is set
 *         for black, the high nibble numbers pieces of a kind
 *   0x1D8 36-byte move records, the first the root (from and to 0xFF):
 *         +14 from, +15 to (row from black's back rank << 4 | column),
 *         +16 the piece that moves, +17 the piece it takes
 *
 * Tags: Title, Red, Black (the names), Date and Time (from the ctime
 * date).  The side to move first is the colour of the first move's
 * piece.  After the moves, the position is compared with the final one
 * the record stores (a warning when they differ).
 */
#include "onegame.h"

#include <stdio.h>
#include <string.h>

#include "position.h"
#include "check.h"
#include "movegen.h"
#include "utf8.h"

#define CHN_START 0xB4
#define CHN_FINAL 0x10E
#define CHN_MOVES 0x1D8
#define CHN_REC 36

/* Piece types of a piece byte's low 3 bits. */
static const int8_t chn_types[8] = {-1,      XQI_ROOK,    XQI_HORSE,    XQI_CANNON,
				    XQI_KING, XQI_ADVISOR, XQI_ELEPHANT, XQI_PAWN};

/* The square of board byte i (column-major, rows from the top). */
static xqi_sq board_sq(int i)
{
	return XQI_SQ(i / 10, 9 - i % 10);
}

/*
 * The position of the 90 bytes at `off` into *b (red to move): 0, or 1
 * when a byte is no piece that can be there (reported when `say`).
 */
static int read_board(struct xqi_onegame *r, size_t off, struct xqi_position *b, int say)
{
	const unsigned char *p = (const unsigned char *)r->data.ptr + off;
	struct xq_diagnostic d;

	xqi_position_clear(b);
	for (int i = 0; i < 90; i++) {
		unsigned c = p[i];
		if (!c)
			continue;
		xqi_diagnostic_init(&d);
		if (!(c & 7) || xqi_position_put(b, c & 8 ? XQI_BLACK : XQI_RED, chn_types[c & 7],
					     board_sq(i), &d)) {
			if (say)
				xqi_onegame_report(r, off + (uint64_t)i, 0, XQI_D_CORRUPT, XQ_SEVERITY_ERROR,
						  "board byte 0x%02x is not a piece that can stand there%s%s",
						  c, d.msg[0] ? ": " : "", d.msg);
			return 1;
		}
	}
	b->key = xqi_position_compute_key(b);
	return 0;
}

/* A square byte (row << 4 | column), or 0 when it is off the board. */
static xqi_sq chn_sq(unsigned c)
{
	return (c >> 4) <= 9 && (c & 15) <= 8 ? XQI_SQ(c & 15, 9 - (c >> 4)) : 0;
}

/* The start position into g->start; 0, or 1 when it cannot be used (reported). */
static int start_position(struct xqi_onegame *r, struct xqi_record *g, size_t nrec)
{
	struct xqi_position b;

	if (read_board(r, CHN_START, &b, 1))
		return 1;
	/* Who moves first: the colour of the first move's piece. */
	if (nrec > 1 && (r->data.ptr[CHN_MOVES + CHN_REC + 16] & 8))
		b.side = XQI_BLACK;
	return xqi_onegame_start(r, g, &b, CHN_START);
}

/* Are the `n` bytes at s ASCII digits? */
static int digits(const char *s, int n)
{
	for (int i = 0; i < n; i++)
		if (!xq_is_digit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* The header's text: title, names, date. */
static int read_tags(struct xqi_onegame *r, struct xqi_record *g)
{
	static const char *const days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
	static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
					     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
	const char *t = r->data.ptr + 8; /* "Tue Dec 27 20:57:56 2016\n" */
	int rc = xqi_onegame_tag(r, g, "Title", 0x24, 64), day = -1, month = -1;

	if (!rc)
		rc = xqi_onegame_tag(r, g, "Red", 0x78, 20);
	if (!rc)
		rc = xqi_onegame_tag(r, g, "Black", 0xA0, 20);
	for (int i = 0; i < 12; i++) {
		if (i < 7 && !memcmp(t, days[i], 3))
			day = i;
		if (!memcmp(t + 4, months[i], 3))
			month = i;
	}
	if (!rc && day >= 0 && month >= 0 && t[3] == ' ' && t[7] == ' ' && t[10] == ' ' &&
	    t[13] == ':' && t[16] == ':' && t[19] == ' ' && xq_is_digit((unsigned char)t[9]) &&
	    digits(t + 20, 4)) {
		char date[32];
		snprintf(date, sizeof(date), "%.4s.%02d.%02d", t + 20, (month + 1) % 100,
			 ((t[8] == ' ' ? 0 : t[8] - '0') * 10 + (t[9] - '0')) % 100);
		rc = xqi_onegame_tag_text(g, "Date", date, 10);
		if (!rc)
			rc = xqi_onegame_tag_text(g, "Time", t + 11, 8);
	} else if (!rc) {
		xqi_onegame_report(r, 8, 0, XQI_D_BAD_DATE, XQ_SEVERITY_WARNING,
				  "the date field is not of the form \"Tue Dec 27 20:57:56 2016\"; "
				  "not read");
	}
	return rc;
}

/* After the moves: the position against the final one the record stores. */
static void check_final(struct xqi_onegame *r, const struct xqi_record *g)
{
	struct xqi_position want, now;

	if (g->flags & XQI_RECORD_BROKEN || read_board(r, CHN_FINAL, &want, 0))
		return;
	xqi_record_board_at(g, xqi_record_mainline_end(g), &now);
	for (int i = 0; i < 90; i++)
		if (xqi_position_kind(&want, board_sq(i)) != xqi_position_kind(&now, board_sq(i))) {
			xqi_onegame_report(r, CHN_FINAL + (uint64_t)i, 0, XQI_D_CORRUPT,
					  XQ_SEVERITY_WARNING,
					  "the final position the record stores differs from the one "
					  "its moves reach (first at column %d, row %d)",
					  i / 10, i % 10);
			return;
		}
}

/* The move records after the root; 0 or < 0. */
static int read_moves(struct xqi_onegame *r, struct xqi_record *g, size_t nrec)
{
	const unsigned char *d = (const unsigned char *)r->data.ptr;
	size_t pos = CHN_MOVES + CHN_REC, end = CHN_MOVES + nrec * CHN_REC;
	int rc = 0;

	if (d[CHN_MOVES + 14] != 0xFF || d[CHN_MOVES + 15] != 0xFF)
		xqi_onegame_report(r, CHN_MOVES + 14, 0, XQI_D_CORRUPT, XQ_SEVERITY_WARNING,
				  "the first record names a move (%02x %02x) where records have "
				  "the root (ff ff); taken as the root",
				  d[CHN_MOVES + 14], d[CHN_MOVES + 15]);
	xqi_onegame_line_start(r, g);
	for (size_t was = 0; pos < end; pos += CHN_REC, XQI_ADVANCED(was, pos)) {
		xqi_sq from = chn_sq(d[pos + 14]), to = chn_sq(d[pos + 15]);
		char raw[16];
		snprintf(raw, sizeof(raw), "%02x-%02x", d[pos + 14], d[pos + 15]);
		rc = xqi_onegame_line_move(r, g, from && to ? XQI_MOVE(from, to) : 0, pos + 14, raw);
		if (rc)
			return rc;
	}
	return xqi_onegame_line_end(r, g, pos);
}

static int chn_read(void *reader, struct xqi_record *g)
{
	struct xqi_onegame *r = reader;
	size_t nrec, len;
	int rc = xqi_onegame_begin(r, g);

	if (rc <= 0)
		return rc;
	g->encoding = "gbk";
	len = r->data.len;
	if (len < CHN_MOVES + CHN_REC || memcmp(r->data.ptr, "GL", 2)) {
		xqi_onegame_report(r, 0, 0, len < 2 || memcmp(r->data.ptr, "GL", 2) ? XQI_D_BAD_MAGIC
										: XQI_D_TRUNCATED,
				  XQ_SEVERITY_ERROR, "%s",
				  len >= 2 && !memcmp(r->data.ptr, "GL", 2)
					  ? "the record ends before its first move record (byte 508)"
					  : "not a 联众 record (no \"GL\" at byte 0)");
		g->flags |= XQI_RECORD_BROKEN | XQI_RECORD_EMPTY;
		return xqi_onegame_end(r, g, 1);
	}
	nrec = (len - CHN_MOVES) / CHN_REC;
	if ((rc = read_tags(r, g)) < 0)
		return rc;
	if (start_position(r, g, nrec)) {
		g->flags |= XQI_RECORD_BROKEN | XQI_RECORD_EMPTY;
		return xqi_onegame_end(r, g, 1);
	}
	if ((rc = read_moves(r, g, nrec)) < 0)
		return rc;
	if ((len - CHN_MOVES) % CHN_REC) {
		xqi_onegame_report(r, CHN_MOVES + nrec * CHN_REC, 0, XQI_D_TRUNCATED, XQ_SEVERITY_ERROR,
				  "the record ends inside a move record (%zu of its %d bytes)",
				  (len - CHN_MOVES) % CHN_REC, CHN_REC);
		g->flags |= XQI_RECORD_BROKEN;
	}
	check_final(r, g);
	return xqi_onegame_end(r, g, 1);
}

/* "GL", and C's ctime() date at byte 8. */
static int chn_probe(const unsigned char *head, size_t len)
{
	if (len < 2 || memcmp(head, "GL", 2))
		return 0;
	if (len >= 34 && head[11] == ' ' && head[15] == ' ' && head[18] == ' ' && head[21] == ':' &&
	    head[24] == ':' && head[27] == ' ' && head[32] == '\n')
		return 95;
	return 20;
}

XQI_ONEGAME_FORMAT(xqi_format_chn, "chn",
		  "联众 (ourgame) game record, .chn and .xqi, moves only, one game (read only)",
		  ".chn .xqi", 0, chn_probe, chn_read, "xqi");
