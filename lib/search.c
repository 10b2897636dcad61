/*
 * search.c: scores, the analyser interface, and the built-in engine.
 *
 * The engine is a textbook alpha-beta searcher, kept small and exact:
 *
 *  - iterative deepening from depth 1, with aspiration windows from depth 5;
 *  - principal-variation search (null windows after the first move);
 *  - a transposition table owned by the search context, emptied before each
 *    analysis in O(1) by a generation number (entries of another generation
 *    are treated exactly as empty, so results do not depend on what was
 *    searched before); mate scores are stored relative to the node;
 *  - quiescence search on captures, and on every move when in check (so a
 *    mate at the horizon is seen); a stand-pat cut otherwise, except that
 *    a side left with only pawns, advisors and elephants is first checked
 *    for a legal move (a stalemate at the horizon is a loss too);
 *  - move ordering: hash move, captures by most valuable victim and least
 *    valuable attacker, two killer moves per ply, then quiet moves by a
 *    piece-to-square history table;
 *  - one ply of extension for a move that gives check; from iteration 6 on
 *    (shallower iterations are full width, so short mates are exact),
 *    null-move pruning (not in check, with a piece other than pawns,
 *    advisors and elephants left, so zugzwang-prone endings are not
 *    pruned), reverse futility at depth 3 and below, late-move reductions
 *    for quiet moves;
 *  - mate-distance pruning, and no legal move loses (in xiangqi stalemate
 *    is a loss too);
 *  - repetitions and the move limit by the rules of lib/rules.c, through
 *    its incremental track (game history since the last capture, then the
 *    search path): a side that checks or chases perpetually loses, other
 *    repetitions and 120 plies without a capture are draws.  A decided
 *    loss is scored like being mated at that ply, as Fairy-Stockfish and
 *    Pikafish do, so a win by the rules shows as a mate.  A position that
 *    repeats one from before the root counts only at its third occurrence
 *    (rules.h, search_repeats), one after the root at once.  Inside the
 *    subtree of a null move (not a real move; the rules cannot judge a
 *    cycle through it) repetitions are not looked for.
 *
 * Determinism.  With a depth or node limit nothing reads the clock, the
 * tables (hash, killers, history) start empty for every analysis, and the
 * node count is checked at every node, so the same input always gives the
 * same output.  Depth 1 always completes, whatever the limits, so there is
 * always a legal best move when one exists.
 *
 * The search recurses over plies (at most MAX_PLY deep, including
 * quiescence); that is bounded by the constant, unlike the game trees the
 * house rule about recursion is about.
 */
#include "search.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diagnostic.h"
#include "eval.h"
#include "movegen.h"
#include "rules.h"

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the stop flag must be safe to set from a signal handler");

/* ---- scores ------------------------------------------------------------- */

struct xqi_score xqi_score_negate(struct xqi_score s)
{
	switch (s.kind) {
	case XQ_EVAL_MATE:
		s.kind = XQ_EVAL_MATED;
		break;
	case XQ_EVAL_MATED:
		s.kind = XQ_EVAL_MATE;
		break;
	default:
		s.value = -s.value;
		break;
	}
	return s;
}

struct xqi_score xqi_score_for_red(struct xqi_score s, int side)
{
	return side == XQI_BLACK ? xqi_score_negate(s) : s;
}

int32_t xqi_score_order(struct xqi_score s)
{
	const int32_t cap = XQI_SCORE_ORDER_MATE - 1000;

	switch (s.kind) {
	case XQ_EVAL_MATE:
		return XQI_SCORE_ORDER_MATE - (s.value < 999 ? s.value : 999);
	case XQ_EVAL_MATED:
		return -(XQI_SCORE_ORDER_MATE - (s.value < 999 ? s.value : 999));
	default:
		return s.value > cap ? cap : s.value < -cap ? -cap : s.value;
	}
}

size_t xqi_score_format(struct xqi_score s, char *buf, size_t cap)
{
	char tmp[32];
	int n;

	if (s.kind == XQ_EVAL_MATE)
		n = snprintf(tmp, sizeof(tmp), "#%ld", (long)s.value);
	else if (s.kind == XQ_EVAL_MATED)
		n = snprintf(tmp, sizeof(tmp), "#-%ld", (long)s.value);
	else {
		long v = s.value < 0 ? -(long)s.value : (long)s.value;
		n = snprintf(tmp, sizeof(tmp), "%s%ld.%02ld", s.value < 0 ? "-" : s.value > 0 ? "+" : "",
			     v / 100, v % 100);
	}
	if (cap) {
		size_t c = (size_t)n < cap - 1 ? (size_t)n : cap - 1;
		memcpy(buf, tmp, c);
		buf[c] = '\0';
	}
	return (size_t)n;
}

void xqi_analysis_clear(struct xqi_analysis *a)
{
	memset(a, 0, sizeof(*a));
	a->score.kind = XQ_EVAL_CP;
}

/* ---- the analyser interface --------------------------------------------- */

int xqi_analyse(struct xqi_analyser *a, struct xqi_analysis *out, const struct xqi_position *start,
	       const xqi_move *moves, size_t nmoves, const struct xqi_limit *limit,
	       struct xq_diagnostic *d)
{
	struct xqi_position now;
	int rc;

	xqi_analysis_clear(out);
	if (!limit || (limit->depth <= 0 && !limit->nodes && !limit->movetime_ms))
		return xqi_diagnostic_set(d, XQ_ERANGE, XQI_D_RESOURCE, XQ_SEVERITY_ERROR,
				   "no search limit: give a depth, a node count or a time");
	if (limit->depth < 0 || limit->depth > XQ_ANALYSIS_MAX_DEPTH)
		return xqi_diagnostic_set(d, XQ_ERANGE, XQI_D_RESOURCE, XQ_SEVERITY_ERROR,
				   "search depth %d is outside 1..%d", limit->depth,
				   XQ_ANALYSIS_MAX_DEPTH);
	rc = xqi_position_validate(start, XQI_FEN_LENIENT_PLACEMENT, d);
	if (rc)
		return rc;
	now = *start;
	for (size_t i = 0; i < nmoves; i++) {
		struct xq_diagnostic why;
		struct xqi_undo u;
		char name[5];
		xqi_diagnostic_init(&why);
		if (xqi_move_check(&now, moves[i], &why)) {
			if (xqi_on_board(XQI_MOVE_FROM(moves[i])) && xqi_on_board(XQI_MOVE_TO(moves[i])))
				xqi_move_name(moves[i], name);
			else
				memcpy(name, "????", 5);
			if (d)
				xqi_diagnostic_set_move(d, name, 4);
			return xqi_diagnostic_set(d, XQ_EILLEGAL, XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_ERROR,
					   "history move %zu (%s) is illegal: %s", i + 1, name,
					   why.msg);
		}
		xqi_position_make(&now, moves[i], &u);
	}
	rc = a->ops->analyse(a->impl, out, start, moves, nmoves, &now, limit, d);
	if (rc)
		xqi_analysis_clear(out);
	out->side = now.side;
	return rc;
}

int xqi_analyser_start_over(struct xqi_analyser *a, struct xq_diagnostic *d)
{
	return a->ops->restart ? a->ops->restart(a->impl, d) : 0;
}

const char *xqi_analyser_name(const struct xqi_analyser *a)
{
	const char *n = a->ops->name ? a->ops->name(a->impl) : NULL;
	return n ? n : "analyser";
}

/* ---- the built-in engine: constants and state ---------------------------- */

#define MAX_PLY 128                 /* search stack, quiescence included */
#define INF 32000
#define MATE 30000                  /* mated at ply p scores -MATE + p */
#define MATE_BOUND (MATE - MAX_PLY) /* beyond this a score is a mate */
#define HISTORY_PLIES 1024          /* game history kept for repetitions */
/*
 * Iterations shallower than this are searched full width: no null move,
 * reverse futility or late-move reductions, which all trade exactness for
 * depth.  They cost little at that depth, and they make every forced mate
 * in up to 3 moves certain to be found at depth 5 (2n - 1 plies).
 */
#define PRUNE_FROM_DEPTH 6

enum { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT };

struct tt_entry {
	uint32_t lock; /* upper half of the key */
	int16_t score;
	uint16_t move;
	uint16_t gen; /* analysis number that wrote it; others are empty */
	uint8_t depth;
	uint8_t bound;
};

struct frame {
	int eval_red; /* incremental material + squares, red's view */
	xqi_move killers[2];
};

struct xqi_search {
	struct xqi_search_opts o;
	struct tt_entry *tt;
	size_t tt_mask;
	uint16_t gen;
	struct xqi_eval_table ev;
	int32_t history[16][256]; /* [kind][to] */

	/* Per analysis. */
	struct xqi_position b;
	struct frame f[MAX_PLY + 1];
	xqi_move pv[MAX_PLY + 1][MAX_PLY + 1];
	int pv_len[MAX_PLY + 1];
	struct xqi_rules_track track; /* history since the last capture, then the path */
	int in_null;                 /* inside null-move subtrees: the track is not kept */
	uint64_t nodes, node_limit;
	struct timespec deadline;
	int timed, aborted, can_abort, seldepth;
	int prune; /* forward pruning allowed in this iteration */
};

/* ---- hash table ---------------------------------------------------------- */

static int tt_alloc(struct xqi_search *s, size_t mb)
{
	size_t want = mb * 1024 * 1024 / sizeof(struct tt_entry), n = 1;

	while (n * 2 <= want)
		n *= 2;
	s->tt = calloc(n, sizeof(*s->tt));
	if (!s->tt)
		return XQ_ENOMEM;
	s->tt_mask = n - 1;
	s->gen = 0;
	return 0;
}

/* A new generation: every entry written before is now empty. */
static void tt_new_generation(struct xqi_search *s)
{
	if (++s->gen == 0) {
		memset(s->tt, 0, (s->tt_mask + 1) * sizeof(*s->tt));
		s->gen = 1;
	}
}

static inline int score_to_tt(int score, int ply)
{
	return score >= MATE_BOUND ? score + ply : score <= -MATE_BOUND ? score - ply : score;
}

static inline int score_from_tt(int score, int ply)
{
	return score >= MATE_BOUND ? score - ply : score <= -MATE_BOUND ? score + ply : score;
}

static inline struct tt_entry *tt_probe(struct xqi_search *s, uint64_t key)
{
	struct tt_entry *e = &s->tt[key & s->tt_mask];
	return e->gen == s->gen && e->lock == (uint32_t)(key >> 32) ? e : NULL;
}

static inline void tt_store(struct xqi_search *s, uint64_t key, int depth, int score, int bound,
			    xqi_move move, int ply)
{
	struct tt_entry *e = &s->tt[key & s->tt_mask];

	if (e->gen == s->gen && e->depth > depth && bound != BOUND_EXACT &&
	    e->lock == (uint32_t)(key >> 32))
		return; /* keep the deeper result for this same position */
	if (e->gen == s->gen && e->lock == (uint32_t)(key >> 32) && !move)
		move = e->move; /* keep a known best move */
	e->lock = (uint32_t)(key >> 32);
	e->score = (int16_t)score_to_tt(score, ply);
	e->move = move;
	e->gen = s->gen;
	e->depth = (uint8_t)(depth < 0 ? 0 : depth);
	e->bound = (uint8_t)bound;
}

/* ---- limits -------------------------------------------------------------- */

static int time_up(const struct xqi_search *s)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > s->deadline.tv_sec ||
	       (now.tv_sec == s->deadline.tv_sec && now.tv_nsec >= s->deadline.tv_nsec);
}

/* Called at every node: counts it and decides whether to give up. */
static inline int out_of_budget(struct xqi_search *s)
{
	if (s->aborted)
		return 1;
	s->nodes++;
	if (!s->can_abort)
		return 0;
	if (s->node_limit && s->nodes >= s->node_limit)
		return s->aborted = 1;
	if ((s->nodes & 2047) == 0) {
		if (s->o.stop && atomic_load_explicit(s->o.stop, memory_order_relaxed))
			return s->aborted = 1;
		if (s->timed && time_up(s))
			return s->aborted = 1;
	}
	return 0;
}

/* ---- move ordering ------------------------------------------------------- */

#define ORDER_HASH (1 << 30)
#define ORDER_CAPTURE (1 << 24)
#define ORDER_KILLER (1 << 22)
#define HISTORY_MAX (1 << 20)

static inline int mvv_lva(const struct xqi_position *b, xqi_move m)
{
	int victim = XQI_KIND_TYPE(xqi_kind_of_id[b->sq[XQI_MOVE_TO(m)]]);
	int attacker = XQI_KIND_TYPE(xqi_kind_of_id[b->sq[XQI_MOVE_FROM(m)]]);
	/* The king attacks last: losing it is never the question here. */
	int av = attacker == XQI_KING ? 1000 : xqi_piece_value[attacker];
	return xqi_piece_value[victim] * 16 - av / 10;
}

static void score_moves(const struct xqi_search *s, const xqi_move *moves, int *scores, int n,
			xqi_move hash_move, const struct frame *f)
{
	const struct xqi_position *b = &s->b;

	for (int i = 0; i < n; i++) {
		xqi_move m = moves[i];
		if (m == hash_move)
			scores[i] = ORDER_HASH;
		else if (b->sq[XQI_MOVE_TO(m)])
			scores[i] = ORDER_CAPTURE + mvv_lva(b, m);
		else if (f && m == f->killers[0])
			scores[i] = ORDER_KILLER + 1;
		else if (f && m == f->killers[1])
			scores[i] = ORDER_KILLER;
		else
			scores[i] = s->history[xqi_kind_of_id[b->sq[XQI_MOVE_FROM(m)]]][XQI_MOVE_TO(m)];
	}
}

/* Move the best-scored move of [i, n) to i. */
static inline void pick(xqi_move *moves, int *scores, int i, int n)
{
	int best = i;

	for (int j = i + 1; j < n; j++)
		if (scores[j] > scores[best])
			best = j;
	if (best != i) {
		xqi_move m = moves[i];
		int sc = scores[i];
		moves[i] = moves[best];
		scores[i] = scores[best];
		moves[best] = m;
		scores[best] = sc;
	}
}

static void reward_quiet(struct xqi_search *s, xqi_move m, int depth, int ply)
{
	struct frame *f = &s->f[ply];
	int32_t *h = &s->history[xqi_kind_of_id[s->b.sq[XQI_MOVE_FROM(m)]]][XQI_MOVE_TO(m)];

	if (f->killers[0] != m) {
		f->killers[1] = f->killers[0];
		f->killers[0] = m;
	}
	*h += depth * depth;
	if (*h > HISTORY_MAX)
		for (int k = 0; k < 16; k++)
			for (int t = 0; t < 256; t++)
				s->history[k][t] /= 2;
}

/* ---- the search ----------------------------------------------------------- */

static inline int side_eval(const struct xqi_search *s, int ply)
{
	int red = s->f[ply].eval_red + xqi_eval_positional(&s->b);
	return s->b.side == XQI_RED ? red : -red;
}

/* Make `m` at `ply`: board, key history, incremental evaluation. */
static inline void make(struct xqi_search *s, xqi_move m, int ply, struct xqi_undo *u)
{
	s->f[ply + 1].eval_red = s->f[ply].eval_red + xqi_eval_delta(&s->ev, &s->b, m);
	xqi_position_make(&s->b, m, u);
}

/* Make `m` if it leaves the mover's king safe (returns 1); else leave
 * the position as it was (returns 0). */
static inline int make_legal(struct xqi_search *s, xqi_move m, int ply, struct xqi_undo *u)
{
	make(s, m, ply, u);
	if (xqi_position_king_attacked(&s->b, s->b.side ^ 1)) {
		xqi_position_unmake(&s->b, m, u);
		return 0;
	}
	return 1;
}

/* What every node does first: count itself, give up when out of budget
 * (*score 0) or at the bottom of the stack (*score the evaluation).
 * Returns 1 when the node ends there. */
static inline int node_ends(struct xqi_search *s, int ply, int *score)
{
	s->pv_len[ply] = ply;
	if (out_of_budget(s)) {
		*score = 0;
		return 1;
	}
	if (ply > s->seldepth)
		s->seldepth = ply;
	if (ply >= MAX_PLY - 1) {
		*score = side_eval(s, ply);
		return 1;
	}
	return 0;
}

/* Record a legal move just made on the track (not under a null move).
 * Returns whether it was recorded, so the caller knows to pop it. */
static inline int track_push(struct xqi_search *s, xqi_move m, const struct xqi_undo *u, int check)
{
	return !s->in_null && xqi_rules_track_push_check(&s->track, &s->b, m, u, check) == 0;
}

static int has_legal_move(struct xqi_position *b);

/*
 * Is the position at `ply` decided by the rules (a repetition or the move
 * limit)?  Returns 1 and the score for the side to move: a loss by the
 * rules is scored as a mate at this ply, a draw as 0.
 */
static int ruled(struct xqi_search *s, int ply, int *score)
{
	struct xqi_rules_probe p;

	if (s->in_null || xqi_rules_track_probe(&s->track, &s->b, &p) != 1)
		return 0;
	if (s->o.plain_repetitions) {
		if (p.limit)
			return 0; /* no move limit without rules */
		*score = 0;
	} else if (p.verdict == XQ_RULING_RED_LOSES || p.verdict == XQ_RULING_BLACK_LOSES) {
		int loser = p.verdict == XQ_RULING_RED_LOSES ? XQI_RED : XQI_BLACK;
		*score = loser == s->b.side ? -MATE + ply : MATE - ply;
	} else if (p.limit && !has_legal_move(&s->b)) {
		*score = -MATE + ply; /* a mate at the limit still counts */
	} else {
		*score = 0;
	}
	return 1;
}

/* Does the side to move have a piece that makes null-move pruning safe? */
static inline int has_big_piece(const struct xqi_position *b)
{
	int tag = XQI_SIDE_TAG(b->side);

	for (int id = tag + 5; id <= tag + 10; id++)
		if (b->pc[id])
			return 1;
	return 0;
}

static int has_legal_move(struct xqi_position *b)
{
	xqi_move moves[XQ_MOVES_MAX];
	int n = xqi_gen_pseudo(b, moves);

	for (int i = 0; i < n; i++)
		if (xqi_move_keeps_king_safe(b, moves[i]))
			return 1;
	return 0;
}

static void update_pv(struct xqi_search *s, int ply, xqi_move m)
{
	s->pv[ply][ply] = m;
	for (int i = ply + 1; i < s->pv_len[ply + 1]; i++)
		s->pv[ply][i] = s->pv[ply + 1][i];
	s->pv_len[ply] = s->pv_len[ply + 1] > ply + 1 ? s->pv_len[ply + 1] : ply + 1;
}

static int qsearch(struct xqi_search *s, int alpha, int beta, int ply, int in_check)
{
	xqi_move moves[XQ_MOVES_MAX];
	int scores[XQ_MOVES_MAX];
	int n, best, legal = 0, stand;

	if (node_ends(s, ply, &best))
		return best;
	if (in_check) {
		best = -MATE + ply;
		stand = best;
		n = xqi_gen_pseudo(&s->b, moves);
	} else {
		/* Stalemate loses: with only pawns, advisors and elephants left
		 * (where it happens) look for a legal move before standing pat. */
		if (!has_big_piece(&s->b) && !has_legal_move(&s->b))
			return -MATE + ply;
		stand = best = side_eval(s, ply);
		if (best >= beta)
			return best;
		if (best > alpha)
			alpha = best;
		n = xqi_gen_pseudo_captures(&s->b, moves);
	}
	score_moves(s, moves, scores, n, 0, NULL);
	for (int i = 0; i < n; i++) {
		xqi_move m;
		struct xqi_undo u;
		int score, child_check, victim, gain;

		pick(moves, scores, i, n);
		m = moves[i];
		victim = xqi_kind_of_id[s->b.sq[XQI_MOVE_TO(m)]]; /* 0 for an evasion that takes nothing */
		gain = victim ? xqi_piece_value[XQI_KIND_TYPE(victim)] : 0;
		if (!make_legal(s, m, ply, &u))
			continue;
		legal++;
		child_check = xqi_position_in_check(&s->b);
		/* Delta pruning: even winning this piece cannot reach alpha
		 * (unless the capture gives check, which may be a mate). */
		if (!in_check && !child_check && stand + gain + 250 <= alpha) {
			xqi_position_unmake(&s->b, m, &u);
			continue;
		}
		score = -qsearch(s, -beta, -alpha, ply + 1, child_check);
		xqi_position_unmake(&s->b, m, &u);
		if (s->aborted)
			return 0;
		if (score > best) {
			best = score;
			if (score > alpha) {
				alpha = score;
				update_pv(s, ply, m);
				if (score >= beta)
					break;
			}
		}
	}
	(void)legal; /* in check with no legal move: best stays -MATE + ply */
	return best;
}

static int search(struct xqi_search *s, int depth, int alpha, int beta, int ply, int in_check,
		  int allow_null)
{
	xqi_move moves[XQ_MOVES_MAX];
	int scores[XQ_MOVES_MAX];
	int n, best = -INF, legal = 0, bound = BOUND_UPPER, eval;
	int pvnode = beta - alpha > 1, alpha0 = alpha;
	xqi_move hash_move = 0, best_move = 0;
	uint64_t key = s->b.key;
	struct tt_entry *e;

	if (ply > 0 && ruled(s, ply, &best))
		return best;
	if (depth <= 0)
		return qsearch(s, alpha, beta, ply, in_check);
	if (node_ends(s, ply, &best))
		return best;
	if (ply > 0) {
		/* Mate-distance pruning: no line from here beats a mate already found. */
		if (alpha < -MATE + ply)
			alpha = -MATE + ply;
		if (beta > MATE - ply - 1)
			beta = MATE - ply - 1;
		if (alpha >= beta)
			return alpha;
	}

	e = tt_probe(s, key);
	if (e) {
		hash_move = e->move;
		if (!pvnode && e->depth >= depth) {
			int sc = score_from_tt(e->score, ply);
			if (e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER && sc >= beta) ||
			    (e->bound == BOUND_UPPER && sc <= alpha))
				return sc;
		}
	}

	eval = in_check ? -INF : side_eval(s, ply);
	if (s->prune && !pvnode && !in_check && ply > 0) {
		/* Reverse futility: far above beta at a shallow depth. */
		if (depth <= 3 && eval - 120 * depth >= beta && beta > -MATE_BOUND && beta < MATE_BOUND)
			return eval;
		/* Null move: if passing still fails high, a real move will too. */
		if (allow_null && depth >= 3 && eval >= beta && has_big_piece(&s->b)) {
			struct xqi_undo u;
			int r = depth >= 7 ? 4 : 3, score;
			xqi_position_make_null(&s->b, &u);
			s->f[ply + 1].eval_red = s->f[ply].eval_red;
			s->in_null++;
			score = -search(s, depth - r, -beta, -beta + 1, ply + 1, 0, 0);
			s->in_null--;
			xqi_position_unmake_null(&s->b, &u);
			if (s->aborted)
				return 0;
			if (score >= beta)
				return score >= MATE_BOUND ? beta : score;
		}
	}

	n = xqi_gen_pseudo(&s->b, moves);
	score_moves(s, moves, scores, n, hash_move, &s->f[ply]);
	for (int i = 0; i < n; i++) {
		xqi_move m;
		struct xqi_undo u;
		int score, child_check, capture, new_depth, reduction = 0, tracked;

		pick(moves, scores, i, n);
		m = moves[i];
		capture = s->b.sq[XQI_MOVE_TO(m)] != 0;
		if (!make_legal(s, m, ply, &u))
			continue;
		legal++;
		child_check = xqi_position_in_check(&s->b);
		tracked = track_push(s, m, &u, child_check);
		new_depth = depth - 1 + child_check;
		if (s->prune && legal > 3 && depth >= 3 && !in_check && !child_check && !capture &&
		    scores[i] < ORDER_KILLER)
			reduction = legal > 10 && depth >= 6 ? 2 : 1;
		if (legal == 1) {
			score = -search(s, new_depth, -beta, -alpha, ply + 1, child_check, 1);
		} else {
			score = -search(s, new_depth - reduction, -alpha - 1, -alpha, ply + 1,
					child_check, 1);
			if (score > alpha && reduction)
				score = -search(s, new_depth, -alpha - 1, -alpha, ply + 1, child_check,
						1);
			if (score > alpha && score < beta)
				score = -search(s, new_depth, -beta, -alpha, ply + 1, child_check, 1);
		}
		if (tracked)
			xqi_rules_track_pop(&s->track);
		xqi_position_unmake(&s->b, m, &u);
		if (s->aborted)
			return 0;
		if (score > best) {
			best = score;
			best_move = m;
			if (score > alpha) {
				alpha = score;
				bound = BOUND_EXACT;
				update_pv(s, ply, m);
				if (score >= beta) {
					bound = BOUND_LOWER;
					if (!capture)
						reward_quiet(s, m, depth, ply);
					break;
				}
			}
		}
	}
	if (legal == 0)
		return -MATE + ply; /* checkmate or stalemate: both lose */
	if (bound == BOUND_EXACT && best <= alpha0)
		bound = BOUND_UPPER;
	tt_store(s, key, depth, best, bound, best_move, ply);
	return best;
}

/* ---- driving an analysis ------------------------------------------------- */

static struct xqi_score engine_score(int v)
{
	struct xqi_score sc;

	if (v >= MATE_BOUND) {
		sc.kind = XQ_EVAL_MATE;
		sc.value = (MATE - v + 1) / 2;
	} else if (v <= -MATE_BOUND) {
		sc.kind = XQ_EVAL_MATED;
		sc.value = (MATE + v) / 2;
	} else {
		sc.kind = XQ_EVAL_CP;
		sc.value = v;
	}
	return sc;
}

/* Load the position, and the history since the last capture into the
 * rules track (only those positions can repeat). */
static void load(struct xqi_search *s, const struct xqi_position *start, const xqi_move *moves,
		 size_t nmoves)
{
	struct xqi_position b = *start;
	size_t first = 0;

	for (size_t i = 0; i < nmoves; i++) {
		struct xqi_undo u;
		if (b.sq[XQI_MOVE_TO(moves[i])])
			first = i + 1;
		xqi_position_make(&b, moves[i], &u);
	}
	if (nmoves - first > HISTORY_PLIES)
		first = nmoves - HISTORY_PLIES;
	b = *start;
	for (size_t i = 0; i < first; i++) {
		struct xqi_undo u;
		xqi_position_make(&b, moves[i], &u);
	}
	xqi_rules_track_reset(&s->track, &b);
	for (size_t i = first; i < nmoves; i++) {
		struct xqi_undo u;
		xqi_position_make(&b, moves[i], &u);
		xqi_rules_track_push_check(&s->track, &b, moves[i], &u, xqi_position_in_check(&b));
	}
	xqi_rules_track_set_root(&s->track);
	s->in_null = 0;
	s->b = b;
	memset(s->f, 0, sizeof(s->f));
	s->f[0].eval_red = xqi_eval_red(&s->ev, &b);
}

static void set_deadline(struct xqi_search *s, uint32_t ms)
{
	clock_gettime(CLOCK_MONOTONIC, &s->deadline);
	s->deadline.tv_sec += ms / 1000;
	s->deadline.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (s->deadline.tv_nsec >= 1000000000L) {
		s->deadline.tv_sec++;
		s->deadline.tv_nsec -= 1000000000L;
	}
}

static uint32_t elapsed_ms(const struct timespec *t0)
{
	struct timespec now;
	long long ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (long long)(now.tv_sec - t0->tv_sec) * 1000 + (now.tv_nsec - t0->tv_nsec) / 1000000;
	return ms < 0 ? 0 : (uint32_t)ms;
}

static int search_root(struct xqi_search *s, struct xqi_analysis *out, const struct xqi_limit *limit)
{
	int max_depth = limit->depth > 0 ? limit->depth : XQ_ANALYSIS_MAX_DEPTH;
	int prev = 0, in_check = xqi_position_in_check(&s->b);
	struct timespec t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	s->nodes = 0;
	s->node_limit = limit->nodes;
	s->timed = limit->movetime_ms > 0;
	if (s->timed)
		set_deadline(s, limit->movetime_ms);
	s->aborted = 0;
	s->can_abort = 0;
	s->seldepth = 0;

	for (int depth = 1; depth <= max_depth; depth++) {
		int alpha = -INF, beta = INF, window = 40, score;

		if (depth >= 5 && prev > -MATE_BOUND && prev < MATE_BOUND) {
			alpha = prev - window;
			beta = prev + window;
		}
		s->prune = depth >= PRUNE_FROM_DEPTH;
		for (;;) {
			score = search(s, depth, alpha, beta, 0, in_check, 0);
			if (s->aborted)
				break;
			if (score <= alpha && alpha > -INF) {
				window *= 4;
				alpha = score - window < -INF ? -INF : score - window;
				if (window > 1000)
					alpha = -INF;
			} else if (score >= beta && beta < INF) {
				window *= 4;
				beta = score + window > INF ? INF : score + window;
				if (window > 1000)
					beta = INF;
			} else {
				break;
			}
		}
		if (s->aborted)
			break;
		prev = score;
		out->score = engine_score(score);
		out->depth = depth;
		out->pv_len = 0;
		for (int i = 0; i < s->pv_len[0] && i < XQI_PV_MAX; i++)
			out->pv[out->pv_len++] = s->pv[0][i];
		out->best = out->pv_len ? out->pv[0] : 0;
		s->can_abort = 1;
		/* A mate found with a margin of two plies will not get shorter. */
		if ((score >= MATE_BOUND && MATE - score + 2 <= depth) ||
		    (score <= -MATE_BOUND && MATE + score + 2 <= depth))
			break;
		if (s->node_limit && s->nodes >= s->node_limit)
			break;
		if (s->o.stop && atomic_load_explicit(s->o.stop, memory_order_relaxed))
			break;
		if (s->timed && time_up(s))
			break;
	}
	if (s->o.stop && atomic_load_explicit(s->o.stop, memory_order_relaxed))
		out->flags |= XQI_ANALYSIS_STOPPED;
	out->nodes = s->nodes;
	out->seldepth = s->seldepth;
	out->time_ms = elapsed_ms(&t0);
	return 0;
}

int xqi_search_run(struct xqi_search *s, struct xqi_analysis *out, const struct xqi_position *start,
		  const xqi_move *moves, size_t nmoves, const struct xqi_limit *limit,
		  struct xq_diagnostic *d)
{
	struct xqi_analyser a;

	xqi_search_analyser(&a, s);
	return xqi_analyse(&a, out, start, moves, nmoves, limit, d);
}

static int builtin_analyse(void *impl, struct xqi_analysis *out, const struct xqi_position *start,
			   const xqi_move *moves, size_t nmoves, const struct xqi_position *now,
			   const struct xqi_limit *limit, struct xq_diagnostic *d)
{
	struct xqi_search *s = impl;
	xqi_move legal[XQ_MOVES_MAX];
	struct xqi_position tmp = *now;

	(void)d;
	out->side = now->side;
	if (xqi_gen_legal(&tmp, legal) == 0) {
		out->score.kind = XQ_EVAL_MATED;
		out->score.value = 0;
		out->flags |= XQI_ANALYSIS_NO_MOVES;
		return 0;
	}
	if (!s->o.keep_hash || s->gen == 0) {
		tt_new_generation(s);
		memset(s->history, 0, sizeof(s->history));
	}
	load(s, start, moves, nmoves);
	return search_root(s, out, limit);
}

static int builtin_restart(void *impl, struct xq_diagnostic *d)
{
	struct xqi_search *s = impl;

	(void)d;
	memset(s->tt, 0, (s->tt_mask + 1) * sizeof(*s->tt));
	memset(s->history, 0, sizeof(s->history));
	s->gen = 0;
	return 0;
}

static const char *builtin_name(const void *impl)
{
	(void)impl;
	return "built-in";
}

static const struct xqi_analyser_ops builtin_ops = {
	builtin_analyse,
	builtin_restart,
	builtin_name,
};

void xqi_search_analyser(struct xqi_analyser *a, struct xqi_search *s)
{
	a->ops = &builtin_ops;
	a->impl = s;
}

int xqi_search_new(struct xqi_search **out, const struct xqi_search_opts *o, struct xq_diagnostic *d)
{
	struct xqi_search *s;
	size_t mb = o && o->hash_mb ? o->hash_mb : 16;

	*out = NULL;
	if (mb > 65536)
		return xqi_diagnostic_set(d, XQ_ERANGE, XQI_D_RESOURCE, XQ_SEVERITY_ERROR,
				   "hash size %zu MiB is above 65536", mb);
	s = calloc(1, sizeof(*s));
	if (!s)
		return xqi_diagnostic_set(d, XQ_ENOMEM, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "out of memory");
	if (o)
		s->o = *o;
	if (tt_alloc(s, mb)) {
		free(s);
		return xqi_diagnostic_set(d, XQ_ENOMEM, XQI_D_RESOURCE, XQ_SEVERITY_ERROR,
				   "cannot allocate a %zu MiB hash table", mb);
	}
	xqi_eval_table_init(&s->ev);
	{
		struct xqi_position start;
		struct xqi_rules_options ro = XQI_RULES_OPTIONS_INIT;
		xqi_position_start(&start);
		if (o && o->rules)
			ro = *o->rules;
		if (xqi_rules_track_init(&s->track, &start, HISTORY_PLIES + MAX_PLY + 2, &ro)) {
			free(s->tt);
			free(s);
			return xqi_diagnostic_set(d, XQ_ENOMEM, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "out of memory");
		}
	}
	*out = s;
	return 0;
}

void xqi_search_free(struct xqi_search *s)
{
	if (!s)
		return;
	xqi_rules_track_release(&s->track);
	free(s->tt);
	free(s);
}
