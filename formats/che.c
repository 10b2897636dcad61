/*
 * che.c: CHE, the game record QQ象棋 (Tencent's QQ game hall) saves, read
 * only.  The layout is in doc/formats/che.md: ASCII decimal numbers
 * separated by spaces, the first not known (1), the second the number of
 * moves, then ten numbers a move:
 *
 *    piece (0-15 black, 16-31 red), 32, side (1 red, 0 black),
 *    from row, from column, to row, to column, 0, move number, 0
 *
 * rows counted from red's back rank (0) and columns from red's right
 * (file i is 0): ElephantEye's CHE2PGN counts the columns from the other
 * side, vschess and the note that published the format count them as
 * here; see the page for why this reader follows the latter.  No tags:
 * the record holds no names.  The game starts from the standard position.
 */
#include "onegame.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "position.h"
#include "check.h"
#include "utf8.h"

#define CHE_GROUP 10
#define CHE_MAX_NUMBER 100000 /* far above any number a record holds */

/* The numbers of the record, with their offsets. */
struct number {
	long v;
	size_t off;
};

/*
 * Split the record into numbers (*out, *count): 1, 0 when it holds other
 * bytes (reported), or XQ_ENOMEM.
 */
static int split(struct xqi_onegame *r, struct number **out, size_t *count)
{
	const char *p = r->data.ptr;
	size_t len = r->data.len, i = 0, cap = 0;

	for (size_t was = 0; i < len; XQI_ADVANCED(was, i)) {
		size_t start = i;
		long v = 0;
		if (xq_is_space((unsigned char)p[i])) {
			i++;
			continue;
		}
		for (; i < len && xq_is_digit((unsigned char)p[i]); i++)
			if (v <= CHE_MAX_NUMBER)
				v = v * 10 + (p[i] - '0');
		if (i == start) {
			xqi_onegame_report(r, i, 0, XQI_D_SYNTAX, XQ_SEVERITY_ERROR,
					  "byte 0x%02x where a CHE record has only numbers and spaces",
					  (unsigned char)p[i]);
			return 0;
		}
		if (v > CHE_MAX_NUMBER) {
			xqi_onegame_report(r, start, 0, XQI_D_SYNTAX, XQ_SEVERITY_ERROR,
					  "a number above %d, more than a CHE record holds",
					  CHE_MAX_NUMBER);
			return 0;
		}
		if (XQ_ALLOC_GROW(*out, *count + 1, cap))
			return XQ_ENOMEM;
		(*out)[*count].v = v;
		(*out)[(*count)++].off = start;
	}
	return 1;
}

/* The move of a group (row, column, row, column), or 0 when a square is off the board. */
static xqi_move che_move(const struct number *g)
{
	for (int i = 3; i < 7; i++)
		if (g[i].v < 0 || g[i].v > (i & 1 ? 9 : 8))
			return 0;
	return XQI_MOVE(XQI_SQ(8 - g[4].v, g[3].v), XQI_SQ(8 - g[6].v, g[5].v));
}

static int read_moves(struct xqi_onegame *r, struct xqi_record *g, const struct number *nums,
		      size_t n)
{
	long count = nums[1].v;
	size_t k = 0, at = 2;
	int rc = 0;

	xqi_onegame_line_start(r, g);
	for (size_t was = 0; k < (size_t)count && at + CHE_GROUP <= n;
	     k++, at += CHE_GROUP, XQI_ADVANCED(was, at)) {
		const struct number *grp = nums + at;
		char raw[64];
		snprintf(raw, sizeof(raw), "%ld %ld %ld %ld", grp[3].v, grp[4].v, grp[5].v,
			 grp[6].v);
		if ((rc = xqi_onegame_line_move(r, g, che_move(grp), grp[0].off, raw)) != 0)
			return rc;
	}
	if (k < (size_t)count) {
		xqi_onegame_counted(r, g, (uint64_t)count, k, r->data.len);
	} else if (at < n) {
		xqi_onegame_report(r, nums[at].off, 0, XQI_D_TRAILING, XQ_SEVERITY_WARNING,
				  "%zu numbers after the %ld moves the record announces are not read",
				  n - at, count);
	}
	return xqi_onegame_line_end(r, g, r->data.len);
}

static int che_read(void *reader, struct xqi_record *g)
{
	struct xqi_onegame *r = reader;
	struct number *nums = NULL;
	size_t n = 0;
	int rc = xqi_onegame_begin(r, g);

	if (rc <= 0)
		return rc;
	g->encoding = "ascii";
	rc = split(r, &nums, &n);
	if (rc == 1 && n < 2)
		xqi_onegame_report(r, r->data.len, 0, XQI_D_TRUNCATED, XQ_SEVERITY_ERROR,
				  "the record ends before the number of its moves");
	if (rc == 1 && n >= 2)
		rc = read_moves(r, g, nums, n);
	else if (rc >= 0)
		g->flags |= XQI_RECORD_BROKEN | XQI_RECORD_EMPTY;
	free(nums);
	return rc < 0 ? rc : xqi_onegame_end(r, g, 1);
}

/*
 * Numbers and spaces only, and the first move's group in its shape: the
 * 32 after the piece, a side of 0 or 1, squares on the board, a 0, move
 * number 1 and a 0.
 */
static int che_probe(const unsigned char *head, size_t len)
{
	long v[12];
	size_t i = 0, was = 0;
	int n = 0;

	for (; n < 12 && i < len; XQI_ADVANCED(was, i)) {
		if (xq_is_space(head[i])) {
			i++;
			continue;
		}
		if (!xq_is_digit(head[i]))
			return 0;
		v[n] = 0;
		for (; i < len && xq_is_digit(head[i]) && v[n] < CHE_MAX_NUMBER; i++)
			v[n] = v[n] * 10 + (head[i] - '0');
		n++;
	}
	if (n < 12 || v[3] != 32 || v[4] > 1 || v[5] > 9 || v[6] > 8 || v[7] > 9 || v[8] > 8 ||
	    v[9] != 0 || v[10] != 1 || v[11] != 0 || v[2] > 31)
		return 0;
	for (; i < len; i++, XQI_ADVANCED(was, i))
		if (!xq_is_space(head[i]) && !xq_is_digit(head[i]))
			return 0;
	return 85;
}

XQI_ONEGAME_FORMAT(xqi_format_che, "che",
		  "QQ象棋 game record, numbers as text, moves only, one game (read only)",
		  ".che", 0, che_probe, che_read, NULL);
