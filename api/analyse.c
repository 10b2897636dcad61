/*
 * analyse.c: the analyser interface of the public API (<xq/analyse.h>):
 * the built-in search or an external engine behind lib/'s struct
 * xq_analyser.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "evalnote.h"
#include "search.h"

struct xq_analyser_public {
	struct xq_analyser an;      /* lib/search.h's interface */
	struct xq_search *search;   /* the built-in engine, or NULL */
	struct xq_engine *engine;   /* an external engine, or NULL */
	int needs_restart;          /* the external engine failed last time */
	/* Warnings of an external engine, for the call that runs it. */
	struct xq_sink warnings;
	xq_diagnostic_fn fn;
	void *user;
};

static void warn(const struct xq_diag *d, void *payload)
{
	xq_analyser *a = payload;

	if (a->fn)
		a->fn(api_diag(d), a->user);
}

static void tell(xq_diagnostic_fn fn, void *user, const struct xq_diag *d)
{
	if (fn)
		fn(api_diag(d), user);
}

int xq_analyser_new_builtin(xq_analyser **out, size_t hash_mb)
{
	xq_analyser *a = calloc(1, sizeof(*a));
	struct xq_search_opts o;
	int rc;

	*out = NULL;
	if (!a)
		return XQ_ENOMEM;
	memset(&o, 0, sizeof(o));
	o.hash_mb = hash_mb;
	if ((rc = xq_search_new(&a->search, &o, NULL)) != 0) {
		free(a);
		return rc;
	}
	xq_search_analyser(&a->an, a->search);
	*out = a;
	return 0;
}

int xq_analyser_new_program(xq_analyser **out, const char *path, char *const *args,
			    xq_diagnostic_fn fn, void *user)
{
	xq_analyser *a = calloc(1, sizeof(*a));
	struct xq_engine_opts o;
	struct xq_diag d;
	int rc;

	*out = NULL;
	if (!a)
		return XQ_ENOMEM;
	a->warnings.report = warn;
	a->warnings.payload = a;
	a->fn = fn;
	a->user = user;
	xq_engine_opts_init(&o);
	o.path = path;
	o.args = args;
	o.warnings = &a->warnings;
	xq_diag_init(&d);
	rc = xq_engine_new(&a->engine, &o, &d);
	if (rc) {
		tell(fn, user, &d);
		xq_engine_free(a->engine);
		free(a);
		return rc;
	}
	a->fn = NULL;
	a->user = NULL;
	xq_engine_analyser(&a->an, a->engine);
	*out = a;
	return 0;
}

const char *xq_analyser_description(const xq_analyser *a)
{
	return xq_analyser_name(&a->an);
}

/* Analyse the position `moves[0..n)` reach from `start` (the history the
 * analyser sees), with the restart after an engine failure; the result
 * into *out as the public API gives it. */
static int run(xq_analyser *a, const struct xq_board *start, const xq_move *moves, size_t n,
	       int depth, uint64_t nodes, uint32_t movetime_ms, xq_analysis_result *out,
	       xq_diagnostic_fn fn, void *user)
{
	struct xq_limit limit;
	struct xq_analysis an;
	struct xq_diag d;
	int rc = 0;

	xq_diag_init(&d);
	memset(&limit, 0, sizeof(limit));
	limit.depth = depth;
	limit.nodes = nodes;
	limit.movetime_ms = movetime_ms;
	a->fn = fn;
	a->user = user;
	if (a->needs_restart && (rc = xq_analyser_restart(&a->an, &d)) != 0)
		tell(fn, user, &d);
	if (!rc) {
		a->needs_restart = 0;
		rc = xq_analyse(&a->an, &an, start, moves, n, &limit, &d);
		if (rc) {
			if (rc == XQ_EENGINE)
				a->needs_restart = 1;
			tell(fn, user, &d);
		}
	}
	a->fn = NULL;
	a->user = NULL;
	if (rc)
		return rc;
	{
		xq_analysis_result res = XQ_ANALYSIS_RESULT_INIT;
		size_t size = out->size && out->size < sizeof(res) ? out->size : sizeof(res);
		res.kind = an.score.kind == XQ_SCORE_MATE ? XQ_EVAL_MATE
			   : an.score.kind == XQ_SCORE_MATED ? XQ_EVAL_MATED
							     : XQ_EVAL_CP;
		res.score = (int)an.score.value;
		res.depth = an.depth;
		res.nodes = an.nodes;
		res.time_ms = an.time_ms;
		res.best = api_move_out(an.best);
		res.pv_len = an.pv_len < XQ_PV_SIZE ? an.pv_len : XQ_PV_SIZE;
		for (size_t i = 0; i < res.pv_len; i++)
			res.pv[i] = api_move_out(an.pv[i]);
		res.stopped = (an.flags & XQ_ANALYSIS_STOPPED) != 0;
		memcpy(out, &res, size);
		out->size = size;
	}
	return 0;
}

int xq_analyser_run(xq_analyser *a, xq_record *r, uint32_t n, int depth, uint64_t nodes,
		    uint32_t movetime_ms, xq_analysis_result *out, xq_diagnostic_fn fn, void *user)
{
	struct xq_diag d;
	xq_move *moves = NULL;
	size_t nmoves, cap;
	int rc;

	if (n >= r->g.nnodes) {
		xq_diag_init(&d);
		xq_diag_set(&d, XQ_ENOTFOUND, XQ_D_ILLEGAL_MOVE, XQ_SEV_ERROR, "no node %u in the record",
			    (unsigned)n);
		tell(fn, user, &d);
		return XQ_ENOTFOUND;
	}
	/* The history: the moves from the root down to `n`. */
	cap = xq_game_ply(&r->g, n);
	if (cap && !(moves = malloc(cap * sizeof(*moves))))
		return XQ_ENOMEM;
	nmoves = cap;
	for (uint32_t k = n; k != XQ_ROOT; k = r->g.nodes[k].parent)
		moves[--cap] = r->g.nodes[k].move;
	rc = run(a, &r->g.start, moves, nmoves, depth, nodes, movetime_ms, out, fn, user);
	free(moves);
	return rc;
}

int xq_analyser_run_line(xq_analyser *a, const xq_position *from, const xq_move_code *moves,
			 size_t n, int depth, uint64_t nodes, uint32_t movetime_ms,
			 xq_analysis_result *out, xq_diagnostic_fn fn, void *user)
{
	xq_move *line = NULL;
	int rc;

	if (n && !(line = malloc(n * sizeof(*line))))
		return XQ_ENOMEM;
	for (size_t i = 0; i < n; i++)
		line[i] = moves[i] ? api_move_in(moves[i]) : 0; /* 0: the analyser refuses it */
	rc = run(a, &from->b, line, n, depth, nodes, movetime_ms, out, fn, user);
	free(line);
	return rc;
}

void xq_analyser_free(xq_analyser *a)
{
	if (!a)
		return;
	xq_search_free(a->search);
	xq_engine_free(a->engine);
	free(a);
}

/* ---- scores in comments ---------------------------------------------------- */

_Static_assert(API_SAME(XQ_EVAL_CP, XQ_SCORE_CP) && API_SAME(XQ_EVAL_MATE, XQ_SCORE_MATE) &&
		       API_SAME(XQ_EVAL_MATED, XQ_SCORE_MATED),
	       "score kinds");
_Static_assert(XQ_EVAL_NOTE_SIZE >= XQ_EVALNOTE_MAX, "a note's size");
_Static_assert(XQ_EVAL_INACCURACY == XQ_EVALNOTE_INACCURACY && XQ_EVAL_MISTAKE == XQ_EVALNOTE_MISTAKE &&
		       XQ_EVAL_BLUNDER == XQ_EVALNOTE_BLUNDER &&
		       XQ_NAG_INACCURACY == XQ_EVALNOTE_NAG_INACCURACY &&
		       XQ_NAG_MISTAKE == XQ_EVALNOTE_NAG_MISTAKE && XQ_NAG_BLUNDER == XQ_EVALNOTE_NAG_BLUNDER,
	       "annotate's marks");

static struct xq_score score_in(int kind, int score)
{
	struct xq_score s;

	s.kind = kind == XQ_EVAL_MATE ? XQ_SCORE_MATE : kind == XQ_EVAL_MATED ? XQ_SCORE_MATED : XQ_SCORE_CP;
	s.value = score;
	return s;
}

size_t xq_eval_note(char *buf, size_t cap, int kind, int score, int depth, unsigned flags)
{
	if (flags & XQ_EVAL_NOTE_COMMAND)
		return xq_evalnote_format_command(buf, cap, score_in(kind, score), depth);
	return xq_evalnote_format(buf, cap, score_in(kind, score), depth);
}

int xq_eval_note_find(const char *comment, int *kind, int *score, int *depth)
{
	struct xq_evalnote n;

	if (!comment || !xq_evalnote_find(&n, comment, strlen(comment)))
		return 0;
	if (kind)
		*kind = (int)n.score.kind;
	if (score)
		*score = (int)n.score.value;
	if (depth)
		*depth = n.depth;
	return 1;
}

int32_t xq_eval_loss(int kind_before, int score_before, int kind_after, int score_after, int side)
{
	return xq_evalnote_loss(score_in(kind_before, score_before), score_in(kind_after, score_after),
				side ? XQ_BLACK : XQ_RED);
}
