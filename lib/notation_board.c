/*
 * notation_board.c: move text on the board (see notation.c for the
 * grammars, notation_int.h for what the parts share): the pieces a
 * request designates, where each would go and which of those moves are
 * legal; and reading, the two phases together, with the quick ways of the
 * commonest texts.
 */
#include "notation.h"
#include "notation_int.h"

#include <stdio.h>
#include <string.h>

#include "movegen.h"
#include "utf8.h"

/* ---- the board side of descriptive notation ------------------------------- */

/* The pieces of `side` and `type` on column `col`, front first; returns how many. */
int xqi_notation_on_column(const struct xqi_position *b, int side, int type, int col, xqi_sq out[5])
{
	int base = XQI_SIDE_TAG(side) + xqi_first_slot[type], n = 0;

	/* Appended without a branch on each piece, whose file no predictor
	 * guesses; then put in order, front first (two pieces at most, but
	 * for pawns). */
	for (int i = 0; i < xqi_slot_count[type]; i++) {
		xqi_sq s = b->pc[base + i];
		out[n] = s;
		n += s && XQI_SQ_FILE(s) == col;
	}
	for (int i = 1; i < n; i++) {
		xqi_sq s = out[i];
		int j;
		for (j = i; j > 0 && advance(side, XQI_SQ_RANK(out[j - 1])) < advance(side, XQI_SQ_RANK(s)); j--)
			out[j] = out[j - 1];
		out[j] = s;
	}
	return n;
}

static const char *tandem_name(int position)
{
	static const char *const numbered[6] = {"", "一 (first)", "二 (second)", "三 (third)",
						"四 (fourth)", "五 (fifth)"};
	switch (position) {
	case XQI_TANDEM_FRONT:
		return "前 (front)";
	case XQI_TANDEM_MIDDLE:
		return "中 (middle)";
	case XQI_TANDEM_REAR:
		return "后 (rear)";
	case XQI_TANDEM_WXF_FRONT:
		return "'+' (front)";
	case XQI_TANDEM_WXF_REAR:
		return "'-' (rear)";
	case XQI_TANDEM_WXF_FOREMOST:
		return "'++' (foremost)";
	case XQI_TANDEM_WXF_REARMOST:
		return "'--' (rearmost)";
	case XQI_TANDEM_PREFIX_FRONT:
		return "'+' before the piece (front)";
	case XQI_TANDEM_PREFIX_REAR:
		return "'-' before the piece (rear)";
	}
	return position >= 1 && position <= 5 ? numbered[position] : "qualifier";
}

/*
 * Which of the `k` pieces `on` one file (front first) the qualifier names:
 * returns 0 and the index, or an error.  `side` and `type` name the pieces
 * in messages (built only on the error path: this runs for every move read).
 */
static int pick(int position, const xqi_sq *on, int k, int *idx, int side, int type,
		struct xq_diagnostic *d)
{
	switch (position) {
	case XQI_TANDEM_FRONT:
	case XQI_TANDEM_WXF_FOREMOST:
		*idx = 0;
		return 0;
	case XQI_TANDEM_REAR:
	case XQI_TANDEM_WXF_REARMOST:
		*idx = k - 1;
		return 0;
	case XQI_TANDEM_MIDDLE:
		if (k == 3 || k == 5) {
			*idx = k / 2;
			return 0;
		}
		return NOTFOUND(d, "中 (middle) needs three or five %s %ss on the file, and there are %d",
				side_names[side], type_names[type], k);
	case XQI_TANDEM_WXF_FRONT:
		*idx = k >= 4 ? 1 : 0;
		return 0;
	case XQI_TANDEM_WXF_REAR:
		*idx = k >= 4 ? k - 2 : k - 1;
		return 0;
	case XQI_TANDEM_PREFIX_FRONT:
	case XQI_TANDEM_PREFIX_REAR: {
		int front = position == XQI_TANDEM_PREFIX_FRONT;
		char a[3], b[3];
		if (k < 4) {
			*idx = front ? 0 : k - 1;
			return 0;
		}
		/* WXF has '++'/'--' for the ends and 'P+'/'P-' next to them. */
		xqi_sq_name(on[front ? 0 : k - 1], a);
		xqi_sq_name(on[front ? 1 : k - 2], b);
		return AMBIGUOUS(d, "ambiguous: with %d %s %ss on the file, '%c' before the piece could be "
				    "the %s on %s (WXF '%c%c') or the one on %s (WXF 'P%c')",
				 k, side_names[side], type_names[type], front ? '+' : '-',
				 front ? "foremost" : "rearmost", a,
				 front ? '+' : '-', front ? '+' : '-', b, front ? '+' : '-');
	}
	}
	if (position >= 1 && position <= 5) {
		if (position <= k) {
			*idx = position - 1;
			return 0;
		}
		return NOTFOUND(d, "%s names a %s %s that is not there: the file has %d",
				tandem_name(position), side_names[side], type_names[type], k);
	}
	return NOTFOUND(d, "unknown tandem qualifier %d", position);
}

/*
 * Where the piece on `s` goes for direction `dir` and target `target`.
 * Returns 0 and the move, or XQ_EILLEGAL with the reason in `d`.
 */
int xqi_notation_destination(xqi_sq s, int side, int type, char dir, int target, xqi_move *m,
		       struct xq_diagnostic *d)
{
	int col = XQI_SQ_FILE(s), rank = XQI_SQ_RANK(s), fwd = side == XQI_RED ? 1 : -1;
	int tcol, trank, dc;

	if (target < 1 || target > 9)
		return ILLEGAL(d, "the target must be 1-9");
	if (!diagonal_mover(type)) {
		if (dir == '.') {
			tcol = col_of_file(side, target);
			if (tcol == col)
				return ILLEGAL(d, "a sideways move must leave file %d, where the %s stands",
					       target, type_names[type]);
			trank = rank;
		} else {
			tcol = col;
			trank = rank + (dir == '+' ? target : -target) * fwd;
			if (trank < 0 || trank > 9)
				return ILLEGAL(d, "%d %s is off the board", target,
					       dir == '+' ? "forward" : "backward");
		}
	} else {
		int dr;
		if (dir == '.')
			return ILLEGAL(d, "the %s never moves sideways", type_names[type]);
		tcol = col_of_file(side, target);
		dc = tcol > col ? tcol - col : col - tcol;
		if (type == XQI_ADVISOR && dc == 1)
			dr = 1;
		else if (type == XQI_ELEPHANT && dc == 2)
			dr = 2;
		else if (type == XQI_HORSE && (dc == 1 || dc == 2))
			dr = 3 - dc;
		else
			return ILLEGAL(d, "the %s cannot reach file %d from file %d", type_names[type],
				       target, file_of_col(side, col));
		trank = rank + (dir == '+' ? dr : -dr) * fwd;
		if (trank < 0 || trank > 9)
			return ILLEGAL(d, "file %d %s is off the board", target,
				       dir == '+' ? "forward" : "backward");
	}
	*m = XQI_MOVE(s, XQI_SQ(tcol, trank));
	return 0;
}

/* "forward 3", "back 1", "sideways to file 5", "forward to file 7" for messages. */
static void action_text(char *buf, size_t cap, int type, char dir, int target)
{
	const char *way = dir == '+' ? "forward" : dir == '-' ? "back" : "sideways";

	if (dir == '.' || diagonal_mover(type))
		snprintf(buf, cap, "%s to file %d", way, target);
	else
		snprintf(buf, cap, "%s %d", way, target);
}

/*
 * Try each candidate square; keep the legal moves.  Exactly one is the
 * answer; otherwise explain.
 */
static int settle(xqi_move *out, struct xqi_position *b, int type, const xqi_sq *cand, int nc,
		  char dir, int target, int file, int in_check, struct xq_diagnostic *d)
{
	xqi_move legal[5], tried[5];
	struct xq_diagnostic why[5];
	int nl = 0, side = b->side;
	char act[48], scope[24], a[3], c[3], e[3], f[3];

	/* The common case, one legal move, builds no message at all. */
	for (int i = 0; i < nc; i++) {
		tried[i] = 0;
		if (xqi_notation_destination(cand[i], side, type, dir, target, &tried[i], NULL) == 0 &&
		    xqi_move_check_hinted(b, tried[i], in_check, NULL) == 0)
			legal[nl++] = tried[i];
	}
	if (nl == 1) {
		*out = legal[0];
		return 0;
	}
	action_text(act, sizeof(act), type, dir, target);
	if (nl > 1) {
		xqi_sq_name(XQI_MOVE_FROM(legal[0]), a);
		xqi_sq_name(XQI_MOVE_TO(legal[0]), c);
		xqi_sq_name(XQI_MOVE_FROM(legal[1]), e);
		xqi_sq_name(XQI_MOVE_TO(legal[1]), f);
		return AMBIGUOUS(d, "ambiguous: the %s %ss on %s and %s can both move %s (%s-%s or %s-%s)",
				 side_names[side], type_names[type], a, e, act, a, c, e, f);
	}
	/* No legal move: go again, this time collecting each candidate's reason. */
	for (int i = 0; i < nc && i < 2; i++) {
		xqi_diagnostic_init(&why[i]);
		tried[i] = 0;
		if (xqi_notation_destination(cand[i], side, type, dir, target, &tried[i], &why[i]) == 0)
			xqi_move_check(b, tried[i], &why[i]);
	}
	xqi_sq_name(cand[0], a);
	if (nc == 1) {
		if (tried[0]) {
			xqi_sq_name(XQI_MOVE_TO(tried[0]), c);
			return ILLEGAL(d, "the %s %s on %s cannot move %s (to %s): %s", side_names[side],
				       type_names[type], a, act, c, why[0].msg);
		}
		return ILLEGAL(d, "the %s %s on %s cannot move %s: %s", side_names[side],
			       type_names[type], a, act, why[0].msg);
	}
	if (file)
		snprintf(scope, sizeof(scope), "on file %d", file);
	else
		snprintf(scope, sizeof(scope), "so named");
	xqi_sq_name(cand[1], e);
	return ILLEGAL(d, "none of the %s %ss %s can move %s: on %s, %s; on %s, %s", side_names[side],
		       type_names[type], scope, act, a, why[0].msg, e, why[1].msg);
}

/* `in_check`: whether the side to move in `b` is in check, -1 if not known. */
static int resolve_desc(xqi_move *out, struct xqi_position *b, const struct xqi_move_request *r,
			int in_check, struct xq_diagnostic *d)
{
	int side = b->side, type = r->piece, nc = 0, rc;
	xqi_sq cand[5], on[5];

	if (type < 0 || type >= XQI_PIECE_TYPES)
		return NOTFOUND(d, "the move does not say which piece moves");
	if (r->file >= 1 && r->file <= 9) {
		int col = col_of_file(side, r->file);
		int k = xqi_notation_on_column(b, side, type, col, on);
		if (k == 0)
			return NOTFOUND(d, "there is no %s %s on file %d (column %c)", side_names[side],
					type_names[type], r->file, 'a' + col);
		if (r->position == XQI_TANDEM_NONE) {
			if (r->dialect == XQ_DIALECT_WXF && type == XQI_PAWN && (k == 3 || k == 5)) {
				/* WXF: the middle of three or five pawns keeps its file digit. */
				cand[nc++] = on[k / 2];
			} else {
				for (int i = 0; i < k; i++)
					cand[nc++] = on[i];
			}
		} else {
			int idx;
			if (k < 2)
				return NOTFOUND(d, "%s needs two or more %s %ss on file %d, and there is one",
						tandem_name(r->position), side_names[side],
						type_names[type], r->file);
			if ((rc = pick(r->position, on, k, &idx, side, type, d)))
				return rc;
			cand[nc++] = on[idx];
		}
	} else if (r->position != XQI_TANDEM_NONE) {
		/* No file: look on every file with two or more, from the mover's right. */
		int total = 0, files = 0;
		struct xq_diagnostic first;
		int first_rc = 0;

		xqi_diagnostic_init(&first);
		for (int n = 1; n <= 9; n++) {
			int k = xqi_notation_on_column(b, side, type, col_of_file(side, n), on), idx;
			if (k < 2)
				continue;
			files++;
			if (r->position >= 1 && r->position <= 5) {
				if (r->position > total && r->position <= total + k)
					cand[nc++] = on[r->position - total - 1];
				total += k;
				continue;
			}
			rc = pick(r->position, on, k, &idx, side, type, &first);
			if (rc) {
				if (!first_rc)
					first_rc = rc;
				if (rc == XQ_EAMBIGUOUS)
					return fail(d, rc, first.code, "%s", first.msg);
				continue;
			}
			cand[nc++] = on[idx];
		}
		if (files == 0)
			return NOTFOUND(d, "no file holds two or more %s %ss, so %s names none",
					side_names[side], type_names[type], tandem_name(r->position));
		if (nc == 0) {
			if (first_rc)
				return fail(d, first_rc, first.code, "%s", first.msg);
			return NOTFOUND(d, "%s names a %s that is not there: the files with several "
					   "hold %d",
					tandem_name(r->position), type_names[type], total);
		}
	} else {
		return NOTFOUND(d, "the move gives neither the file nor the place of the piece");
	}
	return settle(out, b, type, cand, nc, r->direction, r->target,
		      r->file >= 1 && r->file <= 9 ? r->file : 0, in_check, d);
}

static int resolve_coord(xqi_move *out, struct xqi_position *b, const struct xqi_move_request *r,
			 int in_check, struct xq_diagnostic *d)
{
	xqi_move m = XQI_MOVE(r->from, r->to);
	struct xq_diagnostic why;
	int id;
	char f[3], t[3];

	if (!xqi_on_board(r->from) || !xqi_on_board(r->to))
		return NOTFOUND(d, "square off the board");
	id = b->sq[r->from];
	if (id && xqi_move_check_hinted(b, m, in_check, NULL) == 0) {
		*out = m;
		return 0;
	}
	xqi_sq_name(r->from, f);
	xqi_sq_name(r->to, t);
	if (!id)
		return NOTFOUND(d, "there is no piece on %s", f);
	xqi_diagnostic_init(&why); /* only now: the reason is wanted on the error path alone */
	xqi_move_check(b, m, &why);
	if (XQI_ID_SIDE(id) != b->side)
		return ILLEGAL(d, "%s", why.msg);
	return ILLEGAL(d, "the %s %s on %s cannot move to %s: %s", side_names[b->side],
		       type_names[XQI_KIND_TYPE(xqi_kind_of_id[id])], f, t, why.msg);
}

static int resolve_san(xqi_move *out, struct xqi_position *b, const struct xqi_move_request *r,
		       struct xq_diagnostic *d)
{
	int side = b->side, type = r->piece, base, nc = 0, nl = 0;
	xqi_sq cand[5];
	xqi_move legal[5];
	struct xq_diagnostic why;
	char t[3], a[3], e[3];

	if (type < 0 || type >= XQI_PIECE_TYPES || !xqi_on_board(r->to))
		return NOTFOUND(d, "the move does not name a piece and a square");
	xqi_sq_name(r->to, t);
	if (r->capture && !b->sq[r->to])
		return ILLEGAL(d, "the move captures on %s, but %s is empty", t, t);
	base = XQI_SIDE_TAG(side) + xqi_first_slot[type];
	for (int i = 0; i < xqi_slot_count[type]; i++) {
		xqi_sq s = b->pc[base + i];
		if (!s || (r->from_file >= 0 && XQI_SQ_FILE(s) != r->from_file) ||
		    (r->from_rank >= 0 && XQI_SQ_RANK(s) != r->from_rank))
			continue;
		cand[nc++] = s;
		if (xqi_move_check(b, XQI_MOVE(s, r->to), NULL) == 0)
			legal[nl++] = XQI_MOVE(s, r->to);
	}
	if (nl == 1) {
		*out = legal[0];
		return 0;
	}
	if (nl > 1) {
		xqi_sq_name(XQI_MOVE_FROM(legal[0]), a);
		xqi_sq_name(XQI_MOVE_FROM(legal[1]), e);
		return AMBIGUOUS(d, "ambiguous: the %s %ss on %s and %s can both move to %s",
				 side_names[side], type_names[type], a, e, t);
	}
	if (nc == 0) {
		char hint[4] = "", *h = hint;
		if (r->from_file >= 0)
			*h++ = (char)('a' + r->from_file);
		if (r->from_rank >= 0)
			*h++ = (char)('0' + r->from_rank);
		*h = '\0';
		return NOTFOUND(d, "there is no %s %s%s%s", side_names[side], type_names[type],
				hint[0] ? " on " : "", hint);
	}
	xqi_diagnostic_init(&why);
	xqi_move_check(b, XQI_MOVE(cand[0], r->to), &why);
	xqi_sq_name(cand[0], a);
	if (nc == 1)
		return ILLEGAL(d, "the %s %s on %s cannot move to %s: %s", side_names[side],
			       type_names[type], a, t, why.msg);
	{
		struct xq_diagnostic why2;
		xqi_diagnostic_init(&why2);
		xqi_move_check(b, XQI_MOVE(cand[1], r->to), &why2);
		xqi_sq_name(cand[1], e);
		return ILLEGAL(d, "no %s %s can move to %s: from %s, %s; from %s, %s", side_names[side],
			       type_names[type], t, a, why.msg, e, why2.msg);
	}
}

static int resolve_hinted(xqi_move *out, struct xqi_position *b, const struct xqi_move_request *req,
			  int in_check, struct xq_diagnostic *d)
{
	switch (req->dialect) {
	case XQ_DIALECT_ICCS:
	case XQ_DIALECT_UCI:
	case XQ_DIALECT_UCI1:
		return resolve_coord(out, b, req, in_check, d);
	case XQ_DIALECT_WXF:
	case XQ_DIALECT_CHINESE:
		return resolve_desc(out, b, req, in_check, d);
	case XQ_DIALECT_SAN:
		return resolve_san(out, b, req, d);
	case XQ_DIALECT_AUTO:
		break;
	}
	return NOTFOUND(d, "the move request has no dialect");
}

int xqi_notation_resolve(xqi_move *out, struct xqi_position *b, const struct xqi_move_request *req,
			struct xq_diagnostic *d)
{
	return resolve_hinted(out, b, req, -1, d);
}

/*
 * The common case of reading, without building a token: coordinates
 * written as four ASCII bytes (h2e2) or five with a dash (h2-e2) in a game
 * read as ICCS or UCI (ranks 0-9).  parse_coord makes the same request of
 * such text (from and to; the rest as req_init leaves it): returns 1 with
 * the move, or 0 for any other text (rank 10, another dialect, a
 * mistake), which takes the general path, where what is wrong is said.
 */
static int quick_coord(xqi_move *m, const char *s, size_t len, enum xq_dialect dialect)
{
	size_t j;
	int f0, r0, f1, r1;

	if (dialect != XQ_DIALECT_ICCS && dialect != XQ_DIALECT_UCI)
		return 0;
	if (len == 4)
		j = 2;
	else if (len == 5 && s[2] == '-')
		j = 3;
	else
		return 0;
	f0 = xq_to_lower((unsigned char)s[0]) - 'a';
	r0 = (unsigned char)s[1] - '0';
	f1 = xq_to_lower((unsigned char)s[j]) - 'a';
	r1 = (unsigned char)s[j + 1] - '0';
	if ((unsigned)f0 > 8 || (unsigned)r0 > 9 || (unsigned)f1 > 8 || (unsigned)r1 > 9)
		return 0;
	*m = XQI_MOVE(XQI_SQ(f0, r0), XQI_SQ(f1, r1));
	return 1;
}

int xqi_notation_read(xqi_move *out, struct xqi_position *b, const char *text, size_t len,
		     enum xq_dialect dialect, struct xq_diagnostic *d)
{
	return xqi_notation_read_hinted(out, b, text, len, dialect, -1, d);
}

int xqi_notation_read_hinted(xqi_move *out, struct xqi_position *b, const char *text, size_t len,
			    enum xq_dialect dialect, int in_check, struct xq_diagnostic *d)
{
	struct xqi_move_request r;
	xqi_move m;
	int rc;

	/* A legal move in plain coordinates is what resolve_coord() would
	 * find for it (both squares are on the board); anything else goes
	 * the whole way, to be explained. */
	if (quick_coord(&m, text, len, dialect) && b->sq[XQI_MOVE_FROM(m)] &&
	    xqi_move_check_hinted(b, m, in_check, NULL) == 0) {
		*out = m;
		return 0;
	}
	/* Chinese read from its bytes: a legal move is what the general path
	 * finds for the same request; anything else goes the whole way. */
	if (dialect == XQ_DIALECT_CHINESE && xqi_notation_quick_chinese(&r, text, len) &&
	    resolve_desc(&m, b, &r, in_check, NULL) == 0) {
		*out = m;
		return 0;
	}
	rc = xqi_notation_parse(&r, text, len, dialect, d);
	if (rc == 0)
		rc = resolve_hinted(out, b, &r, in_check, d);
	if (rc)
		xqi_diagnostic_set_move(d, text, len);
	return rc;
}
