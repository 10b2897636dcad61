/*
 * eval.c: material and piece-square values for the built-in engine.
 *
 * The scale is "an uncrossed pawn is 100": advisor and elephant 200, horse
 * 400, cannon 450, rook 900, the usual proportions of xiangqi teaching
 * (1 : 2 : 2 : 4 : 4.5 : 9).  The square tables, written from red's side
 * (rank 0 is red's back rank) and mirrored for black, encode the ideas
 * every beginner's book gives: a pawn roughly doubles in value once across
 * the river, most near the enemy palace, and is weak again on the last
 * rank where it can only move sideways; horses and rooks want to be
 * developed and advanced; a central cannon is good, and so is a cannon on
 * the enemy's back rank; the king should stay home.  They are small
 * numbers on purpose: material decides, the tables break ties.
 *
 * On top of those, xqi_eval_positional() adds what one piece's square
 * cannot tell: how many points rooks, horses and cannons can reach, and a
 * cannon aimed at the king down an empty file.  (A palace-safety term,
 * missing advisors and elephants against attackers, was tried and scored
 * 50% against this evaluation in self-play, so it is not here.)
 */
#include "eval.h"

#include <string.h>

#include "search.h"
#include "tables.h"

const int16_t xqi_piece_value[XQI_PIECE_TYPES] = {
	[XQI_KING] = 0,      [XQI_ADVISOR] = 200, [XQI_ELEPHANT] = 200, [XQI_HORSE] = 400,
	[XQI_ROOK] = 900,    [XQI_CANNON] = 450,  [XQI_PAWN] = 100,
};

/* [rank][file] from red's side; squares a piece can never reach are 0. */
static const int8_t pst_king[10][9] = {
	{0, 0, 0, -5, 0, -5, 0, 0, 0},
	{0, 0, 0, -15, -10, -15, 0, 0, 0},
	{0, 0, 0, -30, -25, -30, 0, 0, 0},
};

static const int8_t pst_advisor[10][9] = {
	{0, 0, 0, 0, 0, 0, 0, 0, 0},
	{0, 0, 0, 0, 5, 0, 0, 0, 0},
	{0, 0, 0, -5, 0, -5, 0, 0, 0},
};

static const int8_t pst_elephant[10][9] = {
	{0, 0, 0, 0, 0, 0, 0, 0, 0},
	{0, 0, 0, 0, 0, 0, 0, 0, 0},
	{-5, 0, 0, 0, 8, 0, 0, 0, -5},
	{0, 0, 0, 0, 0, 0, 0, 0, 0},
	{0, 0, -3, 0, 0, 0, -3, 0, 0},
};

static const int8_t pst_horse[10][9] = {
	{-15, -5, 0, -5, -10, -5, 0, -5, -15},
	{-10, 0, 5, 0, -10, 0, 5, 0, -10},
	{-5, 5, 10, 5, 10, 5, 10, 5, -5},
	{0, 5, 10, 10, 10, 10, 10, 5, 0},
	{0, 10, 15, 15, 15, 15, 15, 10, 0},
	{0, 10, 20, 20, 20, 20, 20, 10, 0},
	{0, 15, 20, 25, 25, 25, 20, 15, 0},
	{5, 15, 25, 30, 25, 30, 25, 15, 5},
	{0, 10, 20, 30, 20, 30, 20, 10, 0},
	{-5, 0, 5, 10, 0, 10, 5, 0, -5},
};

static const int8_t pst_rook[10][9] = {
	{-10, 0, -5, 0, -10, 0, -5, 0, -10},
	{-5, 5, 0, 5, -10, 5, 0, 5, -5},
	{0, 5, 0, 5, 0, 5, 0, 5, 0},
	{5, 10, 5, 10, 10, 10, 5, 10, 5},
	{5, 10, 5, 10, 10, 10, 5, 10, 5},
	{5, 15, 10, 15, 15, 15, 10, 15, 5},
	{5, 10, 10, 15, 15, 15, 10, 10, 5},
	{5, 15, 15, 20, 20, 20, 15, 15, 5},
	{10, 20, 20, 25, 25, 25, 20, 20, 10},
	{5, 10, 10, 15, 15, 15, 10, 10, 5},
};

static const int8_t pst_cannon[10][9] = {
	{0, 0, 0, -5, -5, -5, 0, 0, 0},
	{0, 0, 0, 0, 0, 0, 0, 0, 0},
	{0, 5, 0, 0, 10, 0, 0, 5, 0},
	{0, 0, 0, 0, 5, 0, 0, 0, 0},
	{0, 0, 0, 0, 5, 0, 0, 0, 0},
	{0, 0, 0, 0, 5, 0, 0, 0, 0},
	{0, 0, 0, 0, 5, 0, 0, 0, 0},
	{0, 0, 0, 5, 10, 5, 0, 0, 0},
	{0, 0, 0, 5, 5, 5, 0, 0, 0},
	{5, 5, 0, 10, 10, 10, 0, 5, 5},
};

static const int8_t pst_pawn[10][9] = {
	{0, 0, 0, 0, 0, 0, 0, 0, 0},
	{0, 0, 0, 0, 0, 0, 0, 0, 0},
	{0, 0, 0, 0, 0, 0, 0, 0, 0},
	{0, 0, -2, 0, 4, 0, -2, 0, 0},
	{0, 0, 2, 0, 8, 0, 2, 0, 0},
	{50, 60, 65, 70, 75, 70, 65, 60, 50},
	{60, 75, 85, 100, 110, 100, 85, 75, 60},
	{60, 80, 100, 120, 127, 120, 100, 80, 60},
	{50, 70, 90, 110, 120, 110, 90, 70, 50},
	{10, 10, 20, 30, 40, 30, 20, 10, 10},
};

static const int8_t (*const pst[XQI_PIECE_TYPES])[9] = {
	[XQI_KING] = pst_king,     [XQI_ADVISOR] = pst_advisor, [XQI_ELEPHANT] = pst_elephant,
	[XQI_HORSE] = pst_horse,   [XQI_ROOK] = pst_rook,       [XQI_CANNON] = pst_cannon,
	[XQI_PAWN] = pst_pawn,
};

/* Value of a piece of `type` owned by `side` on `sq`, from its owner's view. */
static int square_value(int side, int type, xqi_sq sq)
{
	int file = XQI_SQ_FILE(sq), rank = XQI_SQ_RANK(sq);

	if (side == XQI_BLACK)
		rank = 9 - rank, file = 8 - file;
	return xqi_piece_value[type] + pst[type][rank][file];
}

void xqi_eval_table_init(struct xqi_eval_table *t)
{
	memset(t, 0, sizeof(*t));
	for (int sq = 0; sq < 256; sq++) {
		if (!xqi_on_board(sq))
			continue;
		for (int side = 0; side < 2; side++)
			for (int type = 0; type < XQI_PIECE_TYPES; type++) {
				int v = square_value(side, type, (xqi_sq)sq);
				t->v[XQI_KIND(side, type)][sq] = (int16_t)(side == XQI_RED ? v : -v);
			}
	}
}

int xqi_eval_red(const struct xqi_eval_table *t, const struct xqi_position *b)
{
	int sum = 0;

	for (int id = 16; id < 48; id++)
		if (b->pc[id])
			sum += t->v[xqi_kind_of_id[id]][b->pc[id]];
	return sum;
}

/* Mobility weights, centipawns per reachable point (around a typical
 * count, so the material values keep their meaning). */
#define ROOK_MOBILITY 4
#define HORSE_MOBILITY 8
#define CANNON_MOBILITY 2
#define HOLLOW_CANNON 40

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

static int side_positional(const struct xqi_position *b, int side)
{
	int tag = XQI_SIDE_TAG(side), sum = 0;
	xqi_sq king = b->pc[XQI_SIDE_TAG(side ^ 1)];

	for (int id = tag + 5; id <= tag + 6; id++) {
		xqi_sq s = b->pc[id];
		int n = 0;
		if (!s)
			continue;
		for (int i = 0; xqi_horse_to[s][i]; i++)
			n += !b->sq[xqi_horse_leg[s][i]] && !(b->sq[xqi_horse_to[s][i]] & tag);
		sum += HORSE_MOBILITY * (n - 4);
	}
	for (int id = tag + 7; id <= tag + 8; id++)
		if (b->pc[id])
			sum += ROOK_MOBILITY * (slider_moves(b, b->pc[id], 1) - 8);
	for (int id = tag + 9; id <= tag + 10; id++) {
		xqi_sq s = b->pc[id];
		if (!s)
			continue;
		sum += CANNON_MOBILITY * (slider_moves(b, s, 0) - 6);
		/* A cannon on the king's file with nothing between threatens
		 * to check behind any piece that steps in. */
		if (king && (s & 15) == (king & 15)) {
			int lo = (s < king ? s : king) >> 4, hi = (s < king ? king : s) >> 4;
			if (!(b->file_bits[s & 15] & (((1u << (hi - 3)) - 1) & ~((1u << (lo - 3 + 1)) - 1))))
				sum += HOLLOW_CANNON;
		}
	}
	return sum;
}

int xqi_eval_positional(const struct xqi_position *b)
{
	return side_positional(b, XQI_RED) - side_positional(b, XQI_BLACK);
}

int xqi_eval(const struct xqi_position *b)
{
	int sum = 0, pos = xqi_eval_positional(b);

	for (int id = 16; id < 48; id++) {
		uint8_t kind = xqi_kind_of_id[id];
		int v;
		if (!b->pc[id])
			continue;
		v = square_value(XQI_KIND_SIDE(kind), XQI_KIND_TYPE(kind), b->pc[id]);
		sum += XQI_KIND_SIDE(kind) == b->side ? v : -v;
	}
	return sum + (b->side == XQI_RED ? pos : -pos);
}
