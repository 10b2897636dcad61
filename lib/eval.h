/*
 * eval.h: the built-in engine's static evaluation: material plus
 * piece-square values, in centipawns with an uncrossed pawn at 100.
 *
 * The search keeps the evaluation up to date incrementally: every piece on
 * every square has one signed value (positive for red's pieces, negative
 * for black's), the position's value from red's point of view is their
 * sum, and a move changes it by three table entries.  struct
 * xq_eval_table holds those values; the search owns one (no global tables
 * are built at run time).
 */
#ifndef XQ_LIB_EVAL_H
#define XQ_LIB_EVAL_H

#include <stdint.h>

#include "board.h"

/* Material values (centipawns) by enum xq_piece_type; the king's is 0. */
extern const int16_t xq_piece_value[XQ_PIECE_TYPES];

/* Signed value of each piece kind (XQ_KIND) on each square, red's view. */
struct xq_eval_table {
	int16_t v[16][256];
};

/* Fill `t` from the piece values and the piece-square tables. */
void xq_eval_table_init(struct xq_eval_table *t);

/* The value of `b` from red's point of view, summed from `t`. */
int xq_eval_red(const struct xq_eval_table *t, const struct xq_board *b);

/*
 * The terms that depend on more than one piece, red's view, computed from
 * scratch (the search adds them at the leaves): mobility of rooks, horses
 * and cannons (a blocked horse or a buried rook is worth less), and a
 * bonus for a cannon facing the enemy king down an empty file.
 */
int xq_eval_positional(const struct xq_board *b);

/* How much making `m` (pseudo-legal in `b`, not yet made) changes the
 * red-view value. */
static inline int xq_eval_delta(const struct xq_eval_table *t, const struct xq_board *b,
				xq_move m)
{
	xq_sq from = XQ_MOVE_FROM(m), to = XQ_MOVE_TO(m);
	int k = xq_kind_of_id[b->sq[from]], c = xq_kind_of_id[b->sq[to]];

	return t->v[k][to] - t->v[k][from] - t->v[c][to];
}

#endif
