/*
 * search_tree.c: the built-in engine's tree search (see search.c for the
 * whole engine, search_int.h for what the two share).
 *
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
 *    valuable attacker, two killer moves per ply, the counter-move (the
 *    reply that last refuted the opponent's move), then quiet moves by a
 *    piece-to-square history that rewards the move that cut off and
 *    punishes the quiet moves tried before it;
 *  - one ply of extension for a move that gives check, as long as the line
 *    is not already twice the iteration's depth;
 *  - from iteration XQI_PRUNE_FROM_DEPTH on (shallower iterations are full
 *    width, so short mates are exact), at nodes off the principal
 *    variation and not in check: reverse futility at depth 3 and below;
 *    null-move pruning with a reduction that grows with depth
 *    (xqi_search_null_move_allowed(): xiangqi's middle games know no
 *    zugzwang, endings with few pieces do); futility pruning of quiet moves
 *    at depth 2 and below; late-move pruning of quiet moves at depth 3 and
 *    below; a ply less where no hash move guides a deep node; and
 *    late-move reductions of quiet moves, growing with depth and with the
 *    move's place in the order (xqi_search_reduction());
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
 * Nothing here reads a clock unless the search has a time limit, and every
 * table starts empty for each analysis, so a depth or node limit gives the
 * same result on every machine.  The recursion is over plies, bounded by
 * XQI_MAX_PLY.
 */
#include "search_int.h"

#include <stdlib.h>
#include <string.h>

#include "movegen.h"

enum { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT };

/* ---- hash table ---------------------------------------------------------- */

int xqi_search_tt_alloc(struct xqi_search *s, size_t mb)
{
	size_t want = mb * 1024 * 1024 / sizeof(struct xqi_tt_entry), n = 1;

	while (n * 2 <= want)
		n *= 2;
	s->tt = calloc(n, sizeof(*s->tt));
	if (!s->tt)
		return XQ_ENOMEM;
	s->tt_mask = n - 1;
	s->gen = 0;
	return 0;
}

void xqi_search_tt_new_generation(struct xqi_search *s)
{
	if (++s->gen == 0) {
		memset(s->tt, 0, (s->tt_mask + 1) * sizeof(*s->tt));
		s->gen = 1;
	}
}

static inline int score_to_tt(int score, int ply)
{
	return score >= XQI_MATE_BOUND ? score + ply : score <= -XQI_MATE_BOUND ? score - ply : score;
}

static inline int score_from_tt(int score, int ply)
{
	return score >= XQI_MATE_BOUND ? score - ply : score <= -XQI_MATE_BOUND ? score + ply : score;
}

static inline struct xqi_tt_entry *tt_probe(struct xqi_search *s, uint64_t key)
{
	struct xqi_tt_entry *e = &s->tt[key & s->tt_mask];
	return e->gen == s->gen && e->lock == (uint32_t)(key >> 32) ? e : NULL;
}

static inline void tt_store(struct xqi_search *s, uint64_t key, int depth, int score, int bound,
			    xqi_move move, int ply)
{
	struct xqi_tt_entry *e = &s->tt[key & s->tt_mask];

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

int xqi_search_time_up(const struct xqi_search *s)
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
		if (s->timed && xqi_search_time_up(s))
			return s->aborted = 1;
	}
	return 0;
}

/* ---- move ordering ------------------------------------------------------- */

#define ORDER_HASH (1 << 30)
#define ORDER_CAPTURE (1 << 24)
#define ORDER_KILLER (1 << 22)
#define ORDER_COUNTER (ORDER_KILLER - 1)
#define HISTORY_MAX (1 << 20)

static inline int mvv_lva(const struct xqi_position *b, xqi_move m)
{
	int victim = XQI_KIND_TYPE(xqi_kind_of_id[b->sq[XQI_MOVE_TO(m)]]);
	int attacker = XQI_KIND_TYPE(xqi_kind_of_id[b->sq[XQI_MOVE_FROM(m)]]);
	/* The king attacks last: losing it is never the question here. */
	int av = attacker == XQI_KING ? 1000 : xqi_piece_value[attacker];
	return xqi_piece_value[victim] * 16 - av / 10;
}

/* The counter-move slot of the move that led to `ply` (NULL: none). */
static inline xqi_move *counter_slot(struct xqi_search *s, int ply)
{
	xqi_move prev = ply > 0 ? s->f[ply].move : 0;

	if (!prev)
		return NULL;
	return &s->counter[xqi_kind_of_id[s->b.sq[XQI_MOVE_TO(prev)]]][XQI_MOVE_TO(prev)];
}

static void score_moves(struct xqi_search *s, const xqi_move *moves, int *scores, int n,
			xqi_move hash_move, int ply, int quiet_order)
{
	const struct xqi_position *b = &s->b;
	const struct xqi_frame *f = quiet_order ? &s->f[ply] : NULL;
	xqi_move *cs = quiet_order ? counter_slot(s, ply) : NULL, counter = cs ? *cs : 0;

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
		else if (m == counter)
			scores[i] = ORDER_COUNTER;
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

static inline int32_t *history_of(struct xqi_search *s, xqi_move m)
{
	return &s->history[xqi_kind_of_id[s->b.sq[XQI_MOVE_FROM(m)]]][XQI_MOVE_TO(m)];
}

/* The quiet move `m` cut off at `ply`: a killer, the counter-move, and a
 * history bonus; the quiet moves tried before it (`tried`) lose as much. */
static void reward_quiet(struct xqi_search *s, xqi_move m, int depth, int ply,
			 const xqi_move *tried, int ntried)
{
	struct xqi_frame *f = &s->f[ply];
	xqi_move *cs = counter_slot(s, ply);
	int32_t *h = history_of(s, m);

	if (f->killers[0] != m) {
		f->killers[1] = f->killers[0];
		f->killers[0] = m;
	}
	if (cs)
		*cs = m;
	*h += depth * depth;
	for (int i = 0; i < ntried; i++) {
		int32_t *o = history_of(s, tried[i]);
		*o -= depth * depth;
		if (*o < -HISTORY_MAX)
			*o = -HISTORY_MAX;
	}
	if (*h > HISTORY_MAX)
		for (int k = 0; k < 16; k++)
			for (int t = 0; t < 256; t++)
				s->history[k][t] /= 2;
}

/* ---- helpers --------------------------------------------------------------- */

static inline int side_eval(const struct xqi_search *s, int ply)
{
	return xqi_eval_leaf(&s->b, s->f[ply].mg, s->f[ply].eg);
}

/* Make `m` at `ply`: board, incremental evaluation, the move of the frame. */
static inline void make(struct xqi_search *s, xqi_move m, int ply, struct xqi_undo *u)
{
	struct xqi_frame *next = &s->f[ply + 1];

	next->mg = s->f[ply].mg;
	next->eg = s->f[ply].eg;
	next->move = m;
	xqi_eval_delta(&s->ev, &s->b, m, &next->mg, &next->eg);
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
	if (ply >= XQI_MAX_PLY - 1) {
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

static int has_legal_move(struct xqi_position *b)
{
	xqi_move moves[XQ_MOVES_MAX];
	int n = xqi_gen_pseudo(b, moves);

	for (int i = 0; i < n; i++)
		if (xqi_move_keeps_king_safe(b, moves[i]))
			return 1;
	return 0;
}

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
		*score = loser == s->b.side ? -XQI_MATE + ply : XQI_MATE - ply;
	} else if (p.limit && !has_legal_move(&s->b)) {
		*score = -XQI_MATE + ply; /* a mate at the limit still counts */
	} else {
		*score = 0;
	}
	return 1;
}

/* Rooks, horses and cannons of the side to move. */
static inline int big_pieces(const struct xqi_position *b)
{
	int tag = XQI_SIDE_TAG(b->side), n = 0;

	for (int id = tag + 5; id <= tag + 10; id++)
		n += b->pc[id] != 0;
	return n;
}

int xqi_search_null_move_allowed(const struct xqi_position *b)
{
	int big = big_pieces(b);

	if (big >= 2)
		return 1;
	if (big == 0)
		return 0;
	for (int id = 16 + 11; id < 48; id++)
		if ((id & 15) >= 11 && b->pc[id])
			return 1;
	return 0;
}

/* floor(log2(x)) + 1 for x >= 1. */
static inline int bits(int x)
{
	int n = 0;

	for (; x > 0; x >>= 1)
		n++;
	return n;
}

int xqi_search_reduction(int depth, int n)
{
	if (depth < 3 || n < 4)
		return 0;
	/* Integers only, so that every machine reduces alike. */
	return bits(depth) * bits(n) / 5;
}

static void update_pv(struct xqi_search *s, int ply, xqi_move m)
{
	s->pv[ply][ply] = m;
	for (int i = ply + 1; i < s->pv_len[ply + 1]; i++)
		s->pv[ply][i] = s->pv[ply + 1][i];
	s->pv_len[ply] = s->pv_len[ply + 1] > ply + 1 ? s->pv_len[ply + 1] : ply + 1;
}

/* ---- quiescence ------------------------------------------------------------ */

static int qsearch(struct xqi_search *s, int alpha, int beta, int ply, int in_check)
{
	xqi_move moves[XQ_MOVES_MAX];
	int scores[XQ_MOVES_MAX];
	int n, best, stand;

	if (node_ends(s, ply, &best))
		return best;
	if (in_check) {
		best = -XQI_MATE + ply;
		stand = best;
		n = xqi_gen_pseudo(&s->b, moves);
	} else {
		/* Stalemate loses: with only pawns, advisors and elephants left
		 * (where it happens) look for a legal move before standing pat. */
		if (!big_pieces(&s->b) && !has_legal_move(&s->b))
			return -XQI_MATE + ply;
		stand = best = side_eval(s, ply);
		if (best >= beta)
			return best;
		if (best > alpha)
			alpha = best;
		n = xqi_gen_pseudo_captures(&s->b, moves);
	}
	score_moves(s, moves, scores, n, 0, ply, 0);
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
	return best; /* in check with no legal move: -XQI_MATE + ply */
}

/* ---- the main search --------------------------------------------------------- */

static int search(struct xqi_search *s, int depth, int alpha, int beta, int ply, int in_check,
		  int allow_null);

/*
 * Prunings before the moves, at a node off the principal variation and not
 * in check (pruning iterations only): reverse futility, then a null move.
 * Returns 1 with *score when the node is cut.
 */
static int cut_before_moves(struct xqi_search *s, int depth, int beta, int ply, int eval,
			    int allow_null, int *score)
{
	if (depth <= 3 && eval - 120 * depth >= beta && beta > -XQI_MATE_BOUND &&
	    beta < XQI_MATE_BOUND) {
		*score = eval;
		return 1;
	}
	if (allow_null && depth >= 3 && eval >= beta && xqi_search_null_move_allowed(&s->b)) {
		struct xqi_undo u;
		int r = 3 + depth / 6 + (eval - beta >= 200), v;
		xqi_position_make_null(&s->b, &u);
		s->f[ply + 1] = s->f[ply];
		s->f[ply + 1].move = 0;
		s->in_null++;
		v = -search(s, depth - r, -beta, -beta + 1, ply + 1, 0, 0);
		s->in_null--;
		xqi_position_unmake_null(&s->b, &u);
		if (s->aborted) {
			*score = 0;
			return 1;
		}
		if (v >= beta) {
			*score = v >= XQI_MATE_BOUND ? beta : v;
			return 1;
		}
	}
	return 0;
}

/* What a node knows before its moves. */
struct node {
	int depth, alpha, beta, ply, in_check, pvnode, eval;
	xqi_move hash_move;
};

/*
 * The moves of node `nd`, best first: returns the best score (-XQI_INF when
 * no move is legal) with its move in *best_move and the bound it is.
 */
static int search_moves(struct xqi_search *s, struct node *nd, xqi_move *best_move, int *bound)
{
	xqi_move moves[XQ_MOVES_MAX], quiets[XQ_MOVES_MAX];
	int scores[XQ_MOVES_MAX];
	int n, best = -XQI_INF, legal = 0, nquiets = 0, depth = nd->depth, ply = nd->ply;
	int may_prune = s->prune && !nd->pvnode && !nd->in_check;
	int extend_ok = ply < 2 * s->root_depth;

	n = xqi_gen_pseudo(&s->b, moves);
	score_moves(s, moves, scores, n, nd->hash_move, ply, 1);
	for (int i = 0; i < n; i++) {
		xqi_move m;
		struct xqi_undo u;
		int score, child_check, capture, quiet, new_depth, r = 0, tracked;

		pick(moves, scores, i, n);
		m = moves[i];
		capture = s->b.sq[XQI_MOVE_TO(m)] != 0;
		quiet = !capture && scores[i] < ORDER_COUNTER;
		if (!make_legal(s, m, ply, &u))
			continue;
		legal++;
		child_check = xqi_position_in_check(&s->b);
		/* Quiet moves that cannot matter at the frontier: too far below
		 * alpha (futility), or too late in the order (late-move pruning). */
		if (may_prune && quiet && !child_check && legal > 1 && best > -XQI_MATE_BOUND &&
		    ((depth <= 2 && nd->eval + 100 + 120 * depth <= nd->alpha) ||
		     (depth <= 3 && legal > 4 + 3 * depth * depth))) {
			xqi_position_unmake(&s->b, m, &u);
			continue;
		}
		tracked = track_push(s, m, &u, child_check);
		new_depth = depth - 1 + (child_check && extend_ok);
		if (s->prune && quiet && !nd->in_check && !child_check) {
			r = xqi_search_reduction(depth, legal) + !nd->pvnode;
			if (r > new_depth - 1)
				r = new_depth - 1;
			if (r < 0)
				r = 0;
		}
		if (legal == 1) {
			score = -search(s, new_depth, -nd->beta, -nd->alpha, ply + 1, child_check, 1);
		} else {
			score = -search(s, new_depth - r, -nd->alpha - 1, -nd->alpha, ply + 1, child_check, 1);
			if (score > nd->alpha && r)
				score = -search(s, new_depth, -nd->alpha - 1, -nd->alpha, ply + 1, child_check, 1);
			if (score > nd->alpha && score < nd->beta)
				score = -search(s, new_depth, -nd->beta, -nd->alpha, ply + 1, child_check, 1);
		}
		if (tracked)
			xqi_rules_track_pop(&s->track);
		xqi_position_unmake(&s->b, m, &u);
		if (s->aborted)
			return 0;
		if (score > best) {
			best = score;
			*best_move = m;
			if (score > nd->alpha) {
				nd->alpha = score;
				*bound = BOUND_EXACT;
				update_pv(s, ply, m);
				if (score >= nd->beta) {
					*bound = BOUND_LOWER;
					if (!capture)
						reward_quiet(s, m, depth, ply, quiets, nquiets);
					break;
				}
			}
		}
		if (!capture)
			quiets[nquiets++] = m;
	}
	return legal ? best : -XQI_INF;
}

static int search(struct xqi_search *s, int depth, int alpha, int beta, int ply, int in_check,
		  int allow_null)
{
	struct node nd;
	int best, bound = BOUND_UPPER, alpha0 = alpha;
	xqi_move best_move = 0;
	uint64_t key = s->b.key;
	struct xqi_tt_entry *e;

	if (ply > 0 && ruled(s, ply, &best))
		return best;
	if (depth <= 0)
		return qsearch(s, alpha, beta, ply, in_check);
	if (node_ends(s, ply, &best))
		return best;
	if (ply > 0) {
		/* Mate-distance pruning: no line from here beats a mate already found. */
		if (alpha < -XQI_MATE + ply)
			alpha = -XQI_MATE + ply;
		if (beta > XQI_MATE - ply - 1)
			beta = XQI_MATE - ply - 1;
		if (alpha >= beta)
			return alpha;
	}
	nd.depth = depth;
	nd.ply = ply;
	nd.in_check = in_check;
	nd.pvnode = beta - alpha > 1;
	nd.hash_move = 0;
	e = tt_probe(s, key);
	if (e) {
		nd.hash_move = e->move;
		if (!nd.pvnode && e->depth >= depth) {
			int sc = score_from_tt(e->score, ply);
			if (e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER && sc >= beta) ||
			    (e->bound == BOUND_UPPER && sc <= alpha))
				return sc;
		}
	}
	nd.eval = in_check ? -XQI_INF : side_eval(s, ply);
	if (s->prune && !nd.pvnode && !in_check && ply > 0 &&
	    cut_before_moves(s, depth, beta, ply, nd.eval, allow_null, &best))
		return best;
	/* No hash move to guide a deep node: search it a ply less. */
	if (s->prune && !nd.hash_move && depth >= 5 && ply > 0)
		nd.depth = --depth;
	nd.alpha = alpha;
	nd.beta = beta;
	best = search_moves(s, &nd, &best_move, &bound);
	if (s->aborted)
		return 0;
	if (best == -XQI_INF)
		return -XQI_MATE + ply; /* checkmate or stalemate: both lose */
	if (bound == BOUND_EXACT && best <= alpha0)
		bound = BOUND_UPPER;
	tt_store(s, key, depth, best, bound, best_move, ply);
	return best;
}

int xqi_search_tree(struct xqi_search *s, int depth, int alpha, int beta, int in_check)
{
	s->root_depth = depth;
	return search(s, depth, alpha, beta, 0, in_check, 0);
}
