/*
 * search_int.h: what the two rooms of the built-in engine share.
 *
 * search.c holds the scores, the analyser interface and the driving of an
 * analysis (iterative deepening, aspiration windows, limits);
 * search_tree.c the tree search itself (alpha-beta, quiescence, the hash
 * table, move ordering, pruning).  search.c calls into search_tree.c,
 * never the other way round.
 */
#ifndef XQI_LIB_SEARCH_INT_H
#define XQI_LIB_SEARCH_INT_H

#include <stdint.h>
#include <time.h>

#include "eval.h"
#include "position.h"
#include "rules.h"
#include "search.h"

#define XQI_MAX_PLY 128                       /* search stack, quiescence included */
#define XQI_INF 32000
#define XQI_MATE 30000                        /* mated at ply p scores -XQI_MATE + p */
#define XQI_MATE_BOUND (XQI_MATE - XQI_MAX_PLY) /* beyond this a score is a mate */
#define XQI_HISTORY_PLIES 1024                /* game history kept for repetitions */
/*
 * Iterations shallower than this are searched full width: no null move,
 * futility pruning, late-move pruning or reductions, which all trade
 * exactness for depth.  They cost little at that depth, and they make
 * every forced mate in up to 3 moves certain to be found at depth 5
 * (2n - 1 plies).
 */
#define XQI_PRUNE_FROM_DEPTH 6

struct xqi_tt_entry {
	uint32_t lock; /* upper half of the key */
	int16_t score;
	uint16_t move;
	uint16_t gen; /* analysis number that wrote it; others are empty */
	uint8_t depth;
	uint8_t bound;
};

struct xqi_frame {
	int mg, eg; /* incremental material + piece-square sums, red's view */
	xqi_move killers[2];
	xqi_move move; /* the move that led to this ply (0: none, or a null move) */
};

struct xqi_search {
	struct xqi_search_opts o;
	struct xqi_tt_entry *tt;
	size_t tt_mask;
	uint16_t gen;
	struct xqi_eval_table ev;
	int32_t history[16][256];      /* [kind][to] */
	xqi_move counter[16][256];     /* the reply that refuted [kind][to] */

	/* Per analysis. */
	struct xqi_position b;
	struct xqi_frame f[XQI_MAX_PLY + 1];
	xqi_move pv[XQI_MAX_PLY + 1][XQI_MAX_PLY + 1];
	int pv_len[XQI_MAX_PLY + 1];
	struct xqi_rules_track track; /* history since the last capture, then the path */
	int in_null;                 /* inside null-move subtrees: the track is not kept */
	uint64_t nodes, node_limit;
	struct timespec deadline;
	int timed, aborted, can_abort, seldepth;
	int prune;      /* forward pruning allowed in this iteration */
	int root_depth; /* the iteration's depth */
};

/* Allocate the hash table of `mb` MiB; 0 or XQ_ENOMEM. */
int xqi_search_tt_alloc(struct xqi_search *s, size_t mb);
/* A new generation: every entry written before is now empty. */
void xqi_search_tt_new_generation(struct xqi_search *s);
/* The deadline of a timed search has passed. */
int xqi_search_time_up(const struct xqi_search *s);

/* Search the root position at `depth` in the window (alpha, beta); the
 * score, and the line in s->pv[0][0..s->pv_len[0]). */
int xqi_search_tree(struct xqi_search *s, int depth, int alpha, int beta, int in_check);

/*
 * May the side to move in `b` pass (null-move pruning)?  Only with a
 * rook, a horse or a cannon, and not in an ending with few pieces, where
 * zugzwang is real: it needs two of them, or one with pawns still on the
 * board.
 */
int xqi_search_null_move_allowed(const struct xqi_position *b);

/* How many plies late-move reductions take off the `n`th legal move
 * (from 1) at `depth` (before the adjustments of the node). */
int xqi_search_reduction(int depth, int n);

#endif
