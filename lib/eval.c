/*
 * eval.c: the built-in engine's evaluation (see eval.h for the terms).
 *
 * Every term goes through one accumulator, add(): the search's leaves sum
 * the weights with it, and the tuner's trace counts the features with it,
 * so the two cannot drift apart (test_search.c checks that a trace times
 * the weights is the evaluation, over many positions).
 */
#include "eval.h"

#include <stdio.h>
#include <string.h>

#include "search.h"
#include "tables.h"

const int16_t xqi_piece_value[XQI_PIECE_TYPES] = {
	[XQI_KING] = 0,      [XQI_ADVISOR] = 200, [XQI_ELEPHANT] = 200, [XQI_HORSE] = 400,
	[XQI_ROOK] = 900,    [XQI_CANNON] = 450,  [XQI_PAWN] = 100,
};

static const char *const type_name[XQI_PIECE_TYPES] = {
	"king", "advisor", "elephant", "horse", "rook", "cannon", "pawn",
};

static const char *const term_name[] = {
#define XQI_EF_NAME(name) #name,
	XQI_EVAL_TERMS(XQI_EF_NAME)
#undef XQI_EF_NAME
};

int xqi_eval_pst_feature(int side, int type, xqi_sq sq)
{
	int file = XQI_SQ_FILE(sq), rank = XQI_SQ_RANK(sq);

	if (side == XQI_BLACK)
		rank = 9 - rank, file = 8 - file;
	if (file > 4)
		file = 8 - file;
	return XQI_EF_PST + type * XQI_EVAL_PST_POINTS + rank * 5 + file;
}

void xqi_eval_feature_name(int f, char *buf, size_t cap)
{
	if (f < XQI_EF_PST) {
		snprintf(buf, cap, "material %s", type_name[f - XQI_EF_MATERIAL]);
	} else if (f < XQI_EF_TERMS) {
		int p = (f - XQI_EF_PST) % XQI_EVAL_PST_POINTS;
		snprintf(buf, cap, "pst %s rank %d file %c", type_name[(f - XQI_EF_PST) / XQI_EVAL_PST_POINTS],
			 p / 5, 'a' + p % 5);
	} else if (f < XQI_EVAL_FEATURES) {
		snprintf(buf, cap, "%s", term_name[f - XQI_EF_TERMS]);
	} else if (cap) {
		buf[0] = '\0';
	}
}

/* ---- the piece-square tables the search updates ---------------------------- */

void xqi_eval_table_init(struct xqi_eval_table *t)
{
	const struct xqi_eval_weight *w = xqi_eval_weights;

	memset(t, 0, sizeof(*t));
	for (int sq = 0; sq < 256; sq++) {
		if (!xqi_on_board(sq))
			continue;
		for (int side = 0; side < 2; side++)
			for (int type = 0; type < XQI_PIECE_TYPES; type++) {
				int f = xqi_eval_pst_feature(side, type, (xqi_sq)sq), sign = side ? -1 : 1;
				uint8_t k = XQI_KIND(side, type);
				t->mg[k][sq] = (int16_t)(sign * (w[XQI_EF_MATERIAL + type].mg + w[f].mg));
				t->eg[k][sq] = (int16_t)(sign * (w[XQI_EF_MATERIAL + type].eg + w[f].eg));
			}
	}
}

void xqi_eval_table_sum(const struct xqi_eval_table *t, const struct xqi_position *b, int *mg,
			int *eg)
{
	*mg = *eg = 0;
	for (int id = 16; id < 48; id++)
		if (b->pc[id]) {
			*mg += t->mg[xqi_kind_of_id[id]][b->pc[id]];
			*eg += t->eg[xqi_kind_of_id[id]][b->pc[id]];
		}
}

/* ---- the terms ------------------------------------------------------------------ */

/* Weighted sums of the middle game and the endgame, and the trace when
 * one is taken. */
struct acc {
	int mg, eg;
	const struct xqi_eval_weight *w;
	struct xqi_eval_trace *tr;
};

static inline void add(struct acc *a, int f, int n)
{
	a->mg += a->w[f].mg * n;
	a->eg += a->w[f].eg * n;
	if (a->tr)
		a->tr->f[f] = (int16_t)(a->tr->f[f] + n);
}

/* Points a slider on `s` can move to, captures counted for rooks only. */
static int slider_moves(const struct xqi_position *b, xqi_sq s, int rook)
{
	int x = s & 15, y = s >> 4, n;
	const struct xqi_slide *r = &xqi_rank_slide[x - 3][b->rank_bits[y]];
	const struct xqi_slide *f = &xqi_file_slide[y - 3][b->file_bits[x]];

	n = (r->noncap[0] - x) + (x - r->noncap[1]) + (f->noncap[0] - y) + (y - f->noncap[1]);
	if (rook)
		n += (r->first[0] != 0) + (r->first[1] != 0) + (f->first[0] != 0) + (f->first[1] != 0);
	return n;
}

/* Pieces strictly between two squares of one file. */
static int between_on_file(const struct xqi_position *b, xqi_sq a, xqi_sq c)
{
	int lo = (a < c ? a : c) >> 4, hi = (a < c ? c : a) >> 4;
	unsigned bits = b->file_bits[a & 15] & (((1u << (hi - 3)) - 1) & ~((1u << (lo - 3 + 1)) - 1));
	int n = 0;

	for (; bits; bits &= bits - 1)
		n++;
	return n;
}

/* What several terms need, counted once: pieces of each type per side,
 * and the files that hold a pawn (bit column - 3). */
struct census {
	uint8_t n[2][XQI_PIECE_TYPES];
	unsigned pawn_files;
};

static void take_census(const struct xqi_position *b, struct census *c)
{
	c->pawn_files = 0;
	for (int side = 0; side < 2; side++) {
		const uint8_t *pc = b->pc + XQI_SIDE_TAG(side);
		uint8_t *n = c->n[side], pawns = 0;
		n[XQI_KING] = pc[0] != 0;
		n[XQI_ADVISOR] = (uint8_t)((pc[1] != 0) + (pc[2] != 0));
		n[XQI_ELEPHANT] = (uint8_t)((pc[3] != 0) + (pc[4] != 0));
		n[XQI_HORSE] = (uint8_t)((pc[5] != 0) + (pc[6] != 0));
		n[XQI_ROOK] = (uint8_t)((pc[7] != 0) + (pc[8] != 0));
		n[XQI_CANNON] = (uint8_t)((pc[9] != 0) + (pc[10] != 0));
		for (int i = 11; i <= 15; i++)
			if (pc[i]) {
				pawns++;
				c->pawn_files |= 1u << ((pc[i] & 15) - 3);
			}
		n[XQI_PAWN] = pawns;
	}
}

/* Horses, rooks and cannons of `side` (ids from `tag`), against the king on `ek`. */
static void piece_terms(const struct xqi_position *b, const struct census *c, int tag, xqi_sq ek,
			struct acc *a, int sign)
{
	for (int id = tag + 5; id <= tag + 6; id++) {
		xqi_sq s = b->pc[id];
		int mob = 0, blocked = 0;
		if (!s)
			continue;
		for (int i = 0; xqi_horse_to[s][i]; i++) {
			if (b->sq[xqi_horse_leg[s][i]])
				blocked++;
			else if (!(b->sq[xqi_horse_to[s][i]] & tag))
				mob++;
		}
		add(a, XQI_EF_HORSE_MOBILITY, sign * mob);
		add(a, XQI_EF_HORSE_LEG_BLOCKED, sign * blocked);
	}
	for (int id = tag + 7; id <= tag + 8; id++) {
		xqi_sq s = b->pc[id];
		if (!s)
			continue;
		add(a, XQI_EF_ROOK_MOBILITY, sign * slider_moves(b, s, 1));
		if (!(c->pawn_files & 1u << ((s & 15) - 3)))
			add(a, XQI_EF_ROOK_PAWNLESS_FILE, sign);
	}
	for (int id = tag + 9; id <= tag + 10; id++) {
		xqi_sq s = b->pc[id];
		if (!s)
			continue;
		add(a, XQI_EF_CANNON_MOBILITY, sign * slider_moves(b, s, 0));
		if (ek && (s & 15) == (ek & 15)) {
			int n = between_on_file(b, s, ek);
			if (n == 0)
				add(a, XQI_EF_CANNON_HOLLOW, sign);
			else if (n == 2)
				add(a, XQI_EF_CANNON_TWO_SCREENS, sign);
		}
	}
}

/* Is `sq` in or just in front of the palace of `side`? */
static inline int near_palace(int side, xqi_sq sq)
{
	int col = sq & 15, row = sq >> 4;

	return col >= 6 && col <= 8 && (side == XQI_RED ? row >= 9 : row <= 6);
}

/* The safety of the king of `side` (ids from `tag`; the enemy's from `etag`). */
static void king_terms(const struct xqi_position *b, const struct census *c, int side,
		       struct acc *a, int sign)
{
	int tag = XQI_SIDE_TAG(side), etag = XQI_SIDE_TAG(side ^ 1);
	const uint8_t *own = c->n[side], *foe = c->n[side ^ 1];
	int advisors = own[XQI_ADVISOR], elephants = own[XQI_ELEPHANT], erooks = foe[XQI_ROOK];
	int attack = 2 * erooks + foe[XQI_HORSE] + foe[XQI_CANNON];
	int near = 0, step = side == XQI_RED ? -16 : 16;
	xqi_sq k = b->pc[tag];

	add(a, XQI_EF_MISSING_ADVISOR_X_ATTACK, sign * (2 - advisors) * attack);
	add(a, XQI_EF_MISSING_ELEPHANT_X_ATTACK, sign * (2 - elephants) * attack);
	if (advisors == 2)
		add(a, XQI_EF_ADVISOR_PAIR, sign);
	if (elephants == 2)
		add(a, XQI_EF_ELEPHANT_PAIR, sign);
	if (k && erooks) {
		int covered = 0;
		for (int s = k + step; xqi_on_board(s) && !covered; s += step)
			covered = (b->sq[s] & tag) != 0;
		if (!covered)
			add(a, XQI_EF_ROOK_ON_OPEN_KING_FILE, sign * erooks);
	}
	/* Horses and rooks (slots 5-8) and pawns (11-15) of the enemy. */
	for (int id = etag + 5; id <= etag + 15; id = id == etag + 8 ? etag + 11 : id + 1)
		near += b->pc[id] && near_palace(side, b->pc[id]);
	add(a, XQI_EF_ATTACKERS_NEAR_KING, sign * near);
}

/* Crossed pawns of `side` side by side. */
static void pawn_terms(const struct xqi_position *b, int side, struct acc *a, int sign)
{
	int tag = XQI_SIDE_TAG(side), pairs = 0;

	for (int i = tag + 11; i <= tag + 15; i++) {
		xqi_sq s = b->pc[i];
		if (!s || XQI_SQ_SIDE_HALF(s) == side)
			continue;
		for (int j = i + 1; j <= tag + 15; j++)
			if (b->pc[j] && (b->pc[j] == s + 1 || b->pc[j] == s - 1))
				pairs++;
	}
	add(a, XQI_EF_PAWNS_SIDE_BY_SIDE, sign * pairs);
}

static int phase_of(const struct census *c)
{
	int ph = 0;

	for (int side = 0; side < 2; side++)
		ph += 2 * c->n[side][XQI_HORSE] + 4 * c->n[side][XQI_ROOK] + 2 * c->n[side][XQI_CANNON];
	return ph < XQI_EVAL_PHASE_MAX ? ph : XQI_EVAL_PHASE_MAX;
}

/* No rook, horse, cannon or pawn: `side` cannot win. */
static int cannot_win(const struct census *c, int side)
{
	const uint8_t *n = c->n[side];

	return !n[XQI_HORSE] && !n[XQI_ROOK] && !n[XQI_CANNON] && !n[XQI_PAWN];
}

/* Everything but material and piece-square values, into `a`. */
static void terms(const struct xqi_position *b, const struct census *c, struct acc *a)
{
	piece_terms(b, c, XQI_SIDE_TAG(XQI_RED), b->pc[XQI_SIDE_TAG(XQI_BLACK)], a, 1);
	piece_terms(b, c, XQI_SIDE_TAG(XQI_BLACK), b->pc[XQI_SIDE_TAG(XQI_RED)], a, -1);
	king_terms(b, c, XQI_RED, a, 1);
	king_terms(b, c, XQI_BLACK, a, -1);
	pawn_terms(b, XQI_RED, a, 1);
	pawn_terms(b, XQI_BLACK, a, -1);
	add(a, XQI_EF_TEMPO, b->side == XQI_RED ? 1 : -1);
}

/* Mix the sums by the phase, apply the rule of the side that cannot win,
 * and turn to the side to move's view. */
static int finish(int mg, int eg, int phase, const uint8_t no_win[2], int side)
{
	int v = (mg * phase + eg * (XQI_EVAL_PHASE_MAX - phase)) / XQI_EVAL_PHASE_MAX;

	if ((v > 0 && no_win[XQI_RED]) || (v < 0 && no_win[XQI_BLACK]))
		v /= 8;
	return side == XQI_RED ? v : -v;
}

int xqi_eval_leaf(const struct xqi_position *b, int mg, int eg)
{
	struct acc a = {mg, eg, xqi_eval_weights, NULL};
	struct census c;
	uint8_t no_win[2];

	take_census(b, &c);
	terms(b, &c, &a);
	no_win[XQI_RED] = (uint8_t)cannot_win(&c, XQI_RED);
	no_win[XQI_BLACK] = (uint8_t)cannot_win(&c, XQI_BLACK);
	return finish(a.mg, a.eg, phase_of(&c), no_win, b->side);
}

int xqi_eval(const struct xqi_position *b)
{
	struct xqi_eval_trace tr;

	xqi_eval_trace(b, &tr);
	return xqi_eval_traced(&tr, xqi_eval_weights);
}

void xqi_eval_trace(const struct xqi_position *b, struct xqi_eval_trace *tr)
{
	struct acc a = {0, 0, xqi_eval_weights, tr};
	struct census c;

	memset(tr, 0, sizeof(*tr));
	take_census(b, &c);
	for (int id = 16; id < 48; id++) {
		uint8_t kind = xqi_kind_of_id[id];
		int side, type;
		if (!b->pc[id])
			continue;
		side = XQI_KIND_SIDE(kind);
		type = XQI_KIND_TYPE(kind);
		add(&a, XQI_EF_MATERIAL + type, side ? -1 : 1);
		add(&a, xqi_eval_pst_feature(side, type, b->pc[id]), side ? -1 : 1);
	}
	terms(b, &c, &a);
	tr->phase = phase_of(&c);
	tr->cannot_win[XQI_RED] = (uint8_t)cannot_win(&c, XQI_RED);
	tr->cannot_win[XQI_BLACK] = (uint8_t)cannot_win(&c, XQI_BLACK);
	tr->side = b->side;
}

int xqi_eval_traced(const struct xqi_eval_trace *tr, const struct xqi_eval_weight *w)
{
	int mg = 0, eg = 0;

	for (int f = 0; f < XQI_EVAL_FEATURES; f++) {
		mg += w[f].mg * tr->f[f];
		eg += w[f].eg * tr->f[f];
	}
	return finish(mg, eg, tr->phase, tr->cannot_win, tr->side);
}
