/*
 * analyse.c: the analyser interface of the public API (<xq/analyse.h>):
 * the built-in search or an external engine behind lib/'s struct
 * xq_analyser.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "evalnote.h"
#include "search.h"

struct xq_analyser {
	struct xqi_analyser an;      /* lib/search.h's interface */
	struct xqi_search *search;   /* the built-in engine, or NULL */
	struct xqi_engine *engine;   /* an external engine, or NULL */
	int needs_restart;          /* the external engine failed last time */
	int manual_restart;         /* XQ_ANALYSER_MANUAL_RESTART */
	/* Warnings of an external engine, for the call that runs it. */
	struct xqi_sink warnings;
	xq_diagnostic_fn fn;
	void *user;
	xq_diagnostic_fn warn;      /* xq_analyser_options.warn, else the run's fn */
	void *warn_user;
};

static void warn(const struct xq_diagnostic *d, void *payload)
{
	xq_analyser *a = payload;

	if (a->warn)
		a->warn(d, a->warn_user);
	else if (a->fn)
		a->fn(d, a->user);
}

static void tell(xq_diagnostic_fn fn, void *user, const struct xq_diagnostic *d)
{
	if (fn)
		fn(d, user);
}

/* lib/search.h's restart of the analyser's engine. */
static int restart_engine(xq_analyser *a, struct xq_diagnostic *d)
{
	return xqi_analyser_start_over(&a->an, d);
}

/* A failure before any engine runs: the reason to `fn`; returns `rc`. */
static int refuse(xq_diagnostic_fn fn, void *user, int rc, const char *fmt, const char *what)
{
	struct xq_diagnostic d;

	xqi_diagnostic_init(&d);
	xqi_diagnostic_set(&d, rc, XQI_D_ENGINE, XQ_SEVERITY_ERROR, fmt, what);
	tell(fn, user, &d);
	return rc;
}

int xq_analyser_check_setting(const char *text, xq_diagnostic_fn fn, void *user)
{
	struct xqi_engine_option opt;
	struct xq_diagnostic d;
	size_t cap;
	char *buf;
	int rc;

	if (!text)
		return XQ_EINVAL;
	cap = strlen(text) + 2;
	if (!(buf = malloc(cap)))
		return XQ_ENOMEM;
	xqi_diagnostic_init(&d);
	rc = xqi_engine_option_parse(&opt, buf, cap, text, &d);
	free(buf);
	if (rc) {
		d.code = XQI_D_ENGINE;
		tell(fn, user, &d);
		return XQ_ERANGE;
	}
	return 0;
}

/* The built-in engine of `o` into `a`. */
static int open_builtin(xq_analyser *a, const xq_analyser_options *o, xq_diagnostic_fn fn,
			void *user)
{
	struct xqi_rules_options rules;
	struct xqi_search_opts so;
	struct xq_diagnostic d;
	int rc;

	if (!xq_ruleset_name(o->ruleset)) {
		char what[16];
		snprintf(what, sizeof(what), "%d", o->ruleset);
		return refuse(fn, user, XQ_ERANGE, "no rule set %s (0 asian, 1 chinese, -1 none)", what);
	}
	xqi_api_rules_options(&rules, o->ruleset);
	memset(&so, 0, sizeof(so));
	so.hash_mb = o->hash_mb;
	so.stop = o->cancel ? &o->cancel->flag : NULL;
	so.rules = &rules;
	so.plain_repetitions = o->ruleset == -1;
	xqi_diagnostic_init(&d);
	if ((rc = xqi_search_new(&a->search, &so, &d)) != 0) {
		tell(fn, user, &d);
		return rc;
	}
	xqi_search_analyser(&a->an, a->search);
	return 0;
}

/* The external engine of `o` into `a`. */
static int open_program(xq_analyser *a, const xq_analyser_options *o, xq_diagnostic_fn fn,
			void *user)
{
	struct xqi_engine_opts eo;
	struct xqi_engine_option *opts = NULL;
	char **bufs = NULL;
	size_t n = 0;
	struct xq_diagnostic d;
	int rc = 0;

	xqi_engine_opts_init(&eo);
	if (o->protocol && strcmp(o->protocol, "auto")) {
		int pr = xqi_protocol_from_name(o->protocol);
		if (pr < 0)
			return refuse(fn, user, XQ_ERANGE, "no protocol '%s' (uci, ucci or auto)",
				      o->protocol);
		eo.protocol = (enum xqi_protocol)pr;
	}
	while (o->settings && o->settings[n])
		n++;
	if (n && (!(opts = calloc(n, sizeof(*opts))) || !(bufs = calloc(n, sizeof(*bufs))))) {
		rc = XQ_ENOMEM;
		goto out;
	}
	xqi_diagnostic_init(&d);
	for (size_t i = 0; i < n && !rc; i++) {
		size_t cap = strlen(o->settings[i]) + 2;
		if (!(bufs[i] = malloc(cap)))
			rc = XQ_ENOMEM;
		else if (xqi_engine_option_parse(&opts[i], bufs[i], cap, o->settings[i], &d)) {
			d.code = XQI_D_ENGINE;
			tell(fn, user, &d);
			rc = XQ_ERANGE;
		}
	}
	if (rc)
		goto out;
	eo.path = o->program;
	eo.args = o->args;
	eo.options = opts;
	eo.noptions = n;
	eo.stop = o->cancel ? &o->cancel->flag : NULL;
	eo.warnings = &a->warnings;
	if (o->timeout_ms) {
		eo.search_timeout_ms = o->timeout_ms;
		eo.timeout_ms = o->timeout_ms < 10000 ? o->timeout_ms : 10000;
	}
	xqi_diagnostic_init(&d);
	if ((rc = xqi_engine_new(&a->engine, &eo, &d)) != 0) {
		tell(fn, user, &d);
		goto out;
	}
	xqi_engine_analyser(&a->an, a->engine);
out:
	for (size_t i = 0; bufs && i < n; i++)
		free(bufs[i]);
	free(bufs);
	free(opts);
	return rc;
}

int xq_analyser_open(xq_analyser **out, const xq_analyser_options *o, xq_diagnostic_fn fn,
		     void *user)
{
	xq_analyser_options opts = XQ_ANALYSER_OPTIONS_INIT;
	xq_analyser *a;
	int rc;

	if (!out)
		return XQ_EINVAL;
	*out = NULL;
	if (o)
		memcpy(&opts, o, o->size && o->size < sizeof(opts) ? o->size : sizeof(opts));
	if (!(a = calloc(1, sizeof(*a))))
		return XQ_ENOMEM;
	a->warnings.report = warn;
	a->warnings.payload = a;
	a->warn = opts.warn;
	a->warn_user = opts.warn_user;
	a->manual_restart = (opts.flags & XQ_ANALYSER_MANUAL_RESTART) != 0;
	rc = opts.program ? open_program(a, &opts, fn, user) : open_builtin(a, &opts, fn, user);
	if (rc) {
		xq_analyser_free(a);
		return rc;
	}
	*out = a;
	return 0;
}

int xq_analyser_new_builtin(xq_analyser **out, size_t hash_mb)
{
	xq_analyser_options o = XQ_ANALYSER_OPTIONS_INIT;

	o.hash_mb = hash_mb;
	return xq_analyser_open(out, &o, NULL, NULL);
}

int xq_analyser_new_program(xq_analyser **out, const char *path, char *const *args,
			    xq_diagnostic_fn fn, void *user)
{
	xq_analyser_options o = XQ_ANALYSER_OPTIONS_INIT;

	if (!out || !path)
		return XQ_EINVAL;
	o.program = path;
	o.args = args;
	return xq_analyser_open(out, &o, fn, user);
}

const char *xq_analyser_description(const xq_analyser *a)
{
	return a ? xqi_analyser_name(&a->an) : NULL;
}

const char *xq_analyser_protocol(const xq_analyser *a)
{
	if (!a)
		return NULL;
	return a->engine ? xqi_protocol_name(xqi_engine_protocol(a->engine)) : "built-in";
}

int xq_analyser_is_running(const xq_analyser *a)
{
	return a && (!a->engine || xqi_engine_pid(a->engine) >= 0);
}

int xq_analyser_restart(xq_analyser *a, xq_diagnostic_fn fn, void *user)
{
	struct xq_diagnostic d;
	int rc;

	if (!a)
		return XQ_EINVAL;
	if (!a->engine)
		return 0;
	xqi_diagnostic_init(&d);
	a->fn = fn;
	a->user = user;
	rc = restart_engine(a, &d);
	a->fn = NULL;
	a->user = NULL;
	if (rc)
		tell(fn, user, &d);
	return rc;
}

/* Analyse the position `moves[0..n)` reach from `start` (the history the
 * analyser sees), with the restart after an engine failure; the result
 * into *out as the public API gives it. */
static int run(xq_analyser *a, const struct xqi_position *start, const xqi_move *moves, size_t n,
	       int depth, uint64_t nodes, uint32_t movetime_ms, xq_analysis_result *out,
	       xq_diagnostic_fn fn, void *user)
{
	struct xqi_limit limit;
	struct xqi_analysis an;
	struct xq_diagnostic d;
	int rc = 0;

	xqi_diagnostic_init(&d);
	memset(&limit, 0, sizeof(limit));
	limit.depth = depth;
	limit.nodes = nodes;
	limit.movetime_ms = movetime_ms;
	a->fn = fn;
	a->user = user;
	if (a->needs_restart && (rc = restart_engine(a, &d)) != 0)
		tell(fn, user, &d);
	if (!rc) {
		a->needs_restart = 0;
		rc = xqi_analyse(&a->an, &an, start, moves, n, &limit, &d);
		if (rc) {
			if (rc == XQ_EENGINE && !a->manual_restart)
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
		res.kind = an.score.kind == XQ_EVAL_MATE ? XQ_EVAL_MATE
			   : an.score.kind == XQ_EVAL_MATED ? XQ_EVAL_MATED
							     : XQ_EVAL_CP;
		res.score = (int)an.score.value;
		res.depth = an.depth;
		res.nodes = an.nodes;
		res.time_ms = an.time_ms;
		res.best = xqi_api_move_out(an.best);
		res.pv_len = an.pv_len < XQ_PV_SIZE ? an.pv_len : XQ_PV_SIZE;
		for (size_t i = 0; i < res.pv_len; i++)
			res.pv[i] = xqi_api_move_out(an.pv[i]);
		res.stopped = (an.flags & XQI_ANALYSIS_STOPPED) != 0;
		res.no_moves = (an.flags & XQI_ANALYSIS_NO_MOVES) != 0;
		memcpy(out, &res, size);
		out->size = size;
	}
	return 0;
}

int xq_analyser_run(xq_analyser *a, xq_record *r, uint32_t n, int depth, uint64_t nodes,
		    uint32_t movetime_ms, xq_analysis_result *out, xq_diagnostic_fn fn, void *user)
{
	struct xq_diagnostic d;
	xqi_move *moves = NULL;
	size_t nmoves, cap;
	int rc;

	if (!a || !r || !out)
		return XQ_EINVAL;
	if (n >= r->g.nnodes) {
		xqi_diagnostic_init(&d);
		xqi_diagnostic_set(&d, XQ_ENOTFOUND, XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_ERROR, "no node %u in the record",
			    (unsigned)n);
		tell(fn, user, &d);
		return XQ_ENOTFOUND;
	}
	/* The history: the moves from the root down to `n`. */
	cap = xqi_record_ply(&r->g, n);
	if (cap && !(moves = malloc(cap * sizeof(*moves))))
		return XQ_ENOMEM;
	nmoves = cap;
	for (uint32_t k = n; k != XQI_ROOT; k = r->g.nodes[k].parent)
		moves[--cap] = r->g.nodes[k].move;
	rc = run(a, &r->g.start, moves, nmoves, depth, nodes, movetime_ms, out, fn, user);
	free(moves);
	return rc;
}

int xq_analyser_run_line(xq_analyser *a, const xq_position *from, const xq_move_code *moves,
			 size_t n, int depth, uint64_t nodes, uint32_t movetime_ms,
			 xq_analysis_result *out, xq_diagnostic_fn fn, void *user)
{
	xqi_move *line = NULL;
	int rc;

	if (!a || !from || !out || (!moves && n))
		return XQ_EINVAL;
	if (n && !(line = malloc(n * sizeof(*line))))
		return XQ_ENOMEM;
	for (size_t i = 0; i < n; i++)
		line[i] = moves[i] ? xqi_api_move_in(moves[i]) : 0; /* 0: the analyser refuses it */
	rc = run(a, &from->b, line, n, depth, nodes, movetime_ms, out, fn, user);
	free(line);
	return rc;
}

void xq_analyser_free(xq_analyser *a)
{
	if (!a)
		return;
	xqi_search_free(a->search);
	xqi_engine_free(a->engine);
	free(a);
}

/* ---- scores in comments ---------------------------------------------------- */

_Static_assert(XQ_EVAL_NOTE_SIZE >= XQI_EVALNOTE_MAX, "a note's size");

static struct xqi_score score_in(int kind, int score)
{
	struct xqi_score s;

	s.kind = kind == XQ_EVAL_MATE ? XQ_EVAL_MATE : kind == XQ_EVAL_MATED ? XQ_EVAL_MATED : XQ_EVAL_CP;
	s.value = score;
	return s;
}

size_t xq_eval_note(char *buf, size_t cap, int kind, int score, int depth, unsigned flags)
{
	if (!buf)
		return 0;
	if (flags & XQ_EVAL_NOTE_NO_DEPTH)
		return xqi_score_format(score_in(kind, score), buf, cap) < cap || !cap
			       ? strlen(cap ? buf : "")
			       : cap - 1;
	if (flags & XQ_EVAL_NOTE_COMMAND)
		return xqi_evalnote_format_command(buf, cap, score_in(kind, score), depth);
	return xqi_evalnote_format(buf, cap, score_in(kind, score), depth);
}

int xq_eval_note_find(const char *comment, int *kind, int *score, int *depth)
{
	struct xqi_evalnote n;

	if (!comment || !xqi_evalnote_find(&n, comment, strlen(comment)))
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
	return xqi_evalnote_loss(score_in(kind_before, score_before), score_in(kind_after, score_after),
				side ? XQI_BLACK : XQI_RED);
}

int32_t xq_eval_expected(int kind, int score, int scale)
{
	return xqi_evalnote_expected(score_in(kind, score), scale);
}

int32_t xq_eval_drop(int kind_before, int score_before, int kind_after, int score_after, int side,
		     int scale)
{
	return xqi_evalnote_drop(score_in(kind_before, score_before), score_in(kind_after, score_after),
				 side ? XQI_BLACK : XQI_RED, scale);
}

int xq_analyser_cp_scale(const xq_analyser *a)
{
	const char *name = xq_analyser_description(a);

	if (!a)
		return XQ_EINVAL;
	if (!a->engine)
		return XQ_EVAL_SCALE_BUILTIN;
	if (!strncmp(name, "Fairy-Stockfish", 15))
		return XQ_EVAL_SCALE_FAIRY_STOCKFISH;
	if (!strncmp(name, "Pikafish", 8))
		return XQ_EVAL_SCALE_PIKAFISH;
	return XQ_EVAL_SCALE_BUILTIN;
}
