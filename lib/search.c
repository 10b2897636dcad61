/*
 * search.c: scores, the analyser interface, and the built-in engine's
 * driver: iterative deepening with aspiration windows, the limits, the
 * history handed to the rules track.  The tree search itself, and the
 * list of its techniques, is search_tree.c.
 *
 * Iterative deepening from depth 1; from depth 5 each iteration first
 * searches a window of 30 centipawns around the last score, and a score
 * that falls outside it is searched again in a window widened on that
 * side (twice as wide each time, then open past 1000).
 *
 * Determinism.  With a depth or node limit nothing reads the clock, the
 * tables (hash, killers, counter-moves, history) start empty for every
 * analysis, and the node count is checked at every node, so the same
 * input always gives the same output.  Depth 1 always completes, whatever
 * the limits, so there is always a legal best move when one exists.
 *
 * The search recurses over plies (at most XQI_MAX_PLY deep, including
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
#include "search_int.h"

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

/* ---- driving an analysis ------------------------------------------------- */

static struct xqi_score engine_score(int v)
{
	struct xqi_score sc;

	if (v >= XQI_MATE_BOUND) {
		sc.kind = XQ_EVAL_MATE;
		sc.value = (XQI_MATE - v + 1) / 2;
	} else if (v <= -XQI_MATE_BOUND) {
		sc.kind = XQ_EVAL_MATED;
		sc.value = (XQI_MATE + v) / 2;
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
	if (nmoves - first > XQI_HISTORY_PLIES)
		first = nmoves - XQI_HISTORY_PLIES;
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
	xqi_eval_table_sum(&s->ev, &b, &s->f[0].mg, &s->f[0].eg);
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

/* One iteration at `depth`, in windows around the last score `prev`. */
static int aspiration(struct xqi_search *s, int depth, int prev, int in_check)
{
	int alpha = -XQI_INF, beta = XQI_INF, window = 30, score;

	if (depth >= 5 && prev > -XQI_MATE_BOUND && prev < XQI_MATE_BOUND) {
		alpha = prev - window;
		beta = prev + window;
	}
	for (;;) {
		score = xqi_search_tree(s, depth, alpha, beta, in_check);
		if (s->aborted)
			return score;
		if (score <= alpha && alpha > -XQI_INF) {
			window *= 2;
			alpha = window > 1000 || score - window < -XQI_INF ? -XQI_INF : score - window;
		} else if (score >= beta && beta < XQI_INF) {
			window *= 2;
			beta = window > 1000 || score + window > XQI_INF ? XQI_INF : score + window;
		} else {
			return score;
		}
	}
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
		int score;

		s->prune = depth >= XQI_PRUNE_FROM_DEPTH;
		score = aspiration(s, depth, prev, in_check);
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
		if ((score >= XQI_MATE_BOUND && XQI_MATE - score + 2 <= depth) ||
		    (score <= -XQI_MATE_BOUND && XQI_MATE + score + 2 <= depth))
			break;
		if (s->node_limit && s->nodes >= s->node_limit)
			break;
		if (s->o.stop && atomic_load_explicit(s->o.stop, memory_order_relaxed))
			break;
		if (s->timed && xqi_search_time_up(s))
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
		xqi_search_tt_new_generation(s);
		memset(s->history, 0, sizeof(s->history));
		memset(s->counter, 0, sizeof(s->counter));
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
	memset(s->counter, 0, sizeof(s->counter));
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
	if (xqi_search_tt_alloc(s, mb)) {
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
		if (xqi_rules_track_init(&s->track, &start, XQI_HISTORY_PLIES + XQI_MAX_PLY + 2, &ro)) {
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
