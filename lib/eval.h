/*
 * eval.h: the built-in engine's static evaluation: material plus
 * piece-square values, in centipawns with an uncrossed pawn at 100.
 *
 * The search keeps the evaluation up to date incrementally: every piece on
 * every square has one signed value (positive for red's pieces, negative
 * for black's), the position's value from red's point of view is their
 * sum, and a move changes it by three table entries.  struct
 * xqi_eval_table holds those values; the search owns one (no global tables
 * are built at run time).
 */
#ifndef XQI_LIB_EVAL_H
#define XQI_LIB_EVAL_H

#include <stdint.h>

#include "position.h"

/* Material values (centipawns) by enum xqi_piece_type; the king's is 0. */
extern const int16_t xqi_piece_value[XQI_PIECE_TYPES];

/* Signed value of each piece kind (XQI_KIND) on each square, red's view. */
struct xqi_eval_table {
	int16_t v[16][256];
};

/* Fill `t` from the piece values and the piece-square tables. */
void xqi_eval_table_init(struct xqi_eval_table *t);

/* The value of `b` from red's point of view, summed from `t`. */
int xqi_eval_red(const struct xqi_eval_table *t, const struct xqi_position *b);

/*
 * The terms that depend on more than one piece, red's view, computed from
 * scratch (the search adds them at the leaves): mobility of rooks, horses
 * and cannons (a blocked horse or a buried rook is worth less), and a
 * bonus for a cannon facing the enemy king down an empty file.
 */
int xqi_eval_positional(const struct xqi_position *b);

/* How much making `m` (pseudo-legal in `b`, not yet made) changes the
 * red-view value. */
static inline int xqi_eval_delta(const struct xqi_eval_table *t, const struct xqi_position *b,
				xqi_move m)
{
	xqi_sq from = XQI_MOVE_FROM(m), to = XQI_MOVE_TO(m);
	int k = xqi_kind_of_id[b->sq[from]], c = xqi_kind_of_id[b->sq[to]];

	return t->v[k][to] - t->v[k][from] - t->v[c][to];
}

#endif
