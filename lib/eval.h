/*
 * eval.h: the built-in engine's static evaluation, in centipawns with an
 * uncrossed pawn at 100.
 *
 * The evaluation is linear in its weights: every term is a count (a
 * feature) taken from the position, red's minus black's, times a weight
 * for the middle game and one for the endgame, and the two sums are mixed
 * by the phase (how many rooks, horses and cannons are left: 32 with all
 * of them, 0 with none).  The features:
 *
 *   material       one per piece type;
 *   piece-square   one per piece type and point of the board, seen from
 *                  the piece's own side and mirrored left to right (50 a
 *                  type: ranks 0-9 from its own back rank, files a-e), so
 *                  a pawn across the river, a horse on the enemy's palace
 *                  corner or a cannon on the central file has its value;
 *   mobility       points a horse, a rook (its captures too) or a cannon
 *                  can move to;
 *   horse legs     a horse leg that is blocked;
 *   rook files     a rook on a file with no pawn;
 *   cannon screens a cannon on the enemy king's file with nothing between
 *                  (a "hollow cannon") or with two pieces between (one
 *                  piece away from checking);
 *   king safety    missing advisors and missing elephants, each times the
 *                  enemy's attacking force (rooks count two, horses and
 *                  cannons one); enemy rooks facing a king whose file has
 *                  no piece of its own side in front of it; enemy horses,
 *                  rooks and pawns in or just in front of the palace; both
 *                  advisors, both elephants kept;
 *   pawns          two crossed pawns side by side;
 *   tempo          the side to move.
 *
 * The weights (eval_weights.c) were tuned on positions of real games
 * against their results (tools/tune.c, Texel's method: the mean squared
 * error of 1 / (1 + exp(-eval / XQI_EVAL_SCALE)) against the score of the
 * game), and XQI_EVAL_SCALE is that fit's scale, so the same logistic
 * turns a score of the engine into an expected score (evalnote.h).
 *
 * One rule stands outside the linear sum: a side with no rook, horse,
 * cannon or pawn cannot win, and an advantage it has is divided by 8.
 *
 * The search keeps the material and piece-square part up to date
 * incrementally (struct xqi_eval_table: every piece kind on every square
 * has its middle-game and endgame value, positive for red, negative for
 * black; a move changes the sums by three entries each) and adds the other
 * terms at the leaves (xqi_eval_leaf).  The tuner reads the same features
 * through xqi_eval_trace(), from the same code, so what is tuned is what
 * is searched.
 */
#ifndef XQI_LIB_EVAL_H
#define XQI_LIB_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include <xq/analyse.h>

#include "position.h"

/* Material values (centipawns) by enum xqi_piece_type, for move ordering
 * and pruning margins; the king's is 0. */
extern const int16_t xqi_piece_value[XQI_PIECE_TYPES];

/* The phase: 4 a rook, 2 a horse or a cannon, both sides (32 at the start). */
#define XQI_EVAL_PHASE_MAX 32

/* Points of a piece-square table: ranks 0-9 from the owner's side, files
 * a-e (f-i mirrored). */
#define XQI_EVAL_PST_POINTS 50

/* The logistic scale of the evaluation, in centipawns: a score of s for
 * one side is an expected score of 1 / (1 + exp(-s / XQI_EVAL_SCALE)). */
#define XQI_EVAL_SCALE XQ_EVAL_SCALE_BUILTIN

/* The features (struct xqi_eval_trace.f indexes, xqi_eval_weights[]). */
#define XQI_EVAL_TERMS(X)                                                                       \
	X(HORSE_MOBILITY) X(HORSE_LEG_BLOCKED) X(ROOK_MOBILITY) X(ROOK_PAWNLESS_FILE)            \
	X(CANNON_MOBILITY) X(CANNON_HOLLOW) X(CANNON_TWO_SCREENS) X(MISSING_ADVISOR_X_ATTACK)    \
	X(MISSING_ELEPHANT_X_ATTACK) X(ROOK_ON_OPEN_KING_FILE) X(ATTACKERS_NEAR_KING)             \
	X(ADVISOR_PAIR) X(ELEPHANT_PAIR) X(PAWNS_SIDE_BY_SIDE) X(TEMPO)

enum {
	XQI_EF_MATERIAL = 0,
	XQI_EF_PST = XQI_EF_MATERIAL + XQI_PIECE_TYPES,
	XQI_EF_TERMS = XQI_EF_PST + XQI_PIECE_TYPES * XQI_EVAL_PST_POINTS,
	XQI_EF_TERMS_BEFORE = XQI_EF_TERMS - 1,
#define XQI_EF_ENUM(name) XQI_EF_##name,
	XQI_EVAL_TERMS(XQI_EF_ENUM)
#undef XQI_EF_ENUM
	XQI_EVAL_FEATURES
};

/* The piece-square feature of a piece of `type` owned by `side` on `sq`. */
int xqi_eval_pst_feature(int side, int type, xqi_sq sq);

/* Names of the features ("material horse", "pst horse r3 c", "TEMPO"),
 * into `buf` of `cap` bytes; for the tuner's output. */
void xqi_eval_feature_name(int feature, char *buf, size_t cap);

struct xqi_eval_weight {
	int16_t mg, eg;
};

/* The tuned weights (eval_weights.c). */
extern const struct xqi_eval_weight xqi_eval_weights[XQI_EVAL_FEATURES];

/* Middle-game and endgame value of each piece kind (XQI_KIND) on each
 * square, red's view: material plus piece-square. */
struct xqi_eval_table {
	int16_t mg[16][256];
	int16_t eg[16][256];
};

/* Fill `t` from the weights. */
void xqi_eval_table_init(struct xqi_eval_table *t);

/* The sums of `t` over the pieces of `b`, red's view. */
void xqi_eval_table_sum(const struct xqi_eval_table *t, const struct xqi_position *b, int *mg,
			int *eg);

/* How much making `m` (pseudo-legal in `b`, not yet made) changes the sums. */
static inline void xqi_eval_delta(const struct xqi_eval_table *t, const struct xqi_position *b,
				  xqi_move m, int *mg, int *eg)
{
	xqi_sq from = XQI_MOVE_FROM(m), to = XQI_MOVE_TO(m);
	int k = xqi_kind_of_id[b->sq[from]], c = xqi_kind_of_id[b->sq[to]];

	*mg += t->mg[k][to] - t->mg[k][from] - t->mg[c][to];
	*eg += t->eg[k][to] - t->eg[k][from] - t->eg[c][to];
}

/*
 * The evaluation of `b` from the side to move's point of view, given the
 * table sums `mg` and `eg` of its pieces (red's view): the other terms
 * are computed here.
 */
int xqi_eval_leaf(const struct xqi_position *b, int mg, int eg);

/* The whole evaluation of `b`, side to move's view (the table sums taken
 * from the weights directly). */
int xqi_eval(const struct xqi_position *b);

/* The features of a position, red's minus black's, and what mixes them. */
struct xqi_eval_trace {
	int16_t f[XQI_EVAL_FEATURES];
	int phase;         /* 0..XQI_EVAL_PHASE_MAX */
	uint8_t cannot_win[2]; /* per side: no rook, horse, cannon or pawn */
	uint8_t side;      /* side to move */
};

/* The features of `b`. */
void xqi_eval_trace(const struct xqi_position *b, struct xqi_eval_trace *tr);

/* The evaluation a trace and weights give, side to move's view: exactly
 * xqi_eval() when `w` is xqi_eval_weights. */
int xqi_eval_traced(const struct xqi_eval_trace *tr, const struct xqi_eval_weight *w);

#endif
