/*
 * rules.c: rulings on repetitions and move limits of the public API
 * (<xq/rules.h>), over lib/rules.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "record_check.h"
#include "rules.h"

int xq_ruleset_from_name(const char *name)
{
	enum xq_ruleset s;

	if (!name)
		return XQ_EINVAL;
	if (xqi_rules_set_from_name(name, &s) != 0)
		return XQ_ENOTFOUND;
	return (int)s;
}

const char *xq_ruleset_name(int ruleset)
{
	switch (ruleset) {
	case XQ_RULESET_ASIAN:
		return xqi_rules_set_name(XQ_RULESET_ASIAN);
	case XQ_RULESET_CHINESE:
		return xqi_rules_set_name(XQ_RULESET_CHINESE);
	case -1:
		return "none";
	default:
		return NULL;
	}
}

void xqi_api_rules_options(struct xqi_rules_options *o, int ruleset)
{
	*o = (struct xqi_rules_options)XQI_RULES_OPTIONS_INIT;
	o->rules = ruleset == XQ_RULESET_CHINESE ? XQ_RULESET_CHINESE : XQ_RULESET_ASIAN;
}

int xq_record_ruling(xq_record *r, uint32_t n, int ruleset, char **why)
{
	struct xqi_rules_options o;
	struct xqi_rules_report rep;
	struct xq_buf text = XQ_BUF_INIT;
	int ruling = XQ_RULING_NONE, rc;

	if (why)
		*why = NULL;
	if (!r)
		return XQ_EINVAL;
	if (n >= r->g.nnodes)
		return xqi_api_no_node(r, n);
	xqi_diagnostic_init(&r->err);
	xqi_api_rules_options(&o, ruleset);
	xqi_rules_report_init(&rep);
	rc = xqi_rules_analyze_game(&rep, &r->g, n, &o, &r->err);
	if (rc) {
		/* The tree holds legal moves only: memory ran out. */
		xqi_rules_report_release(&rep);
		r->has_err = 1;
		return rc;
	}
	for (size_t i = 0; i < rep.ncycles && ruling == XQ_RULING_NONE; i++) {
		const struct xqi_rules_cycle *c = &rep.cycles[i];
		if (c->last != rep.nplies || c->repeats < o.min_repeats || c->verdict == XQ_RULING_NONE)
			continue;
		ruling = (int)c->verdict;
		if (why)
			rc = xqi_rules_describe_cycle(&text, &rep, i);
	}
	for (size_t i = 0; i < rep.nlimits && ruling == XQ_RULING_NONE; i++) {
		if (rep.limits[i].mate)
			continue;
		ruling = XQ_RULING_DRAW;
		if (why)
			rc = xqi_rules_describe_limit(&text, &rep, i);
	}
	xqi_rules_report_release(&rep);
	if (!rc && why && ruling != XQ_RULING_NONE) {
		if (xq_buf_error(&text) || xq_buf_grow(&text, 1) != 0)
			rc = XQ_ENOMEM;
		else
			*why = xq_buf_detach(&text, NULL);
	}
	xq_buf_release(&text);
	if (rc) {
		r->has_err = 1;
		return xqi_diagnostic_set(&r->err, XQ_ENOMEM, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "out of memory");
	}
	r->has_err = 0;
	return ruling;
}

/* Say in `d` where the main line's ply `ply` stands in the source: the
 * move's own place when the reader kept one, else the record's. */
static void place_at(struct xq_diagnostic *d, const struct xqi_record *g, uint32_t ply)
{
	const struct xqi_node *x = &g->nodes[xqi_api_mainline_node(g, ply)];
	int own = ply && (x->place.line || x->place.offset);

	d->source = g->source;
	d->game = g->number;
	d->ply = ply;
	d->place = own ? x->place : g->place;
	d->has_offset = own || g->place.offset > 0 || g->place.line == 0;
}

/* ---- the rules along a line ------------------------------------------- */

struct xq_rules_line {
	struct xqi_rules_report rep;
};

int xq_record_rules_line(xq_record *r, int ruleset, xq_rules_line **out)
{
	struct xqi_rules_options o;
	xq_rules_line *l;
	int rc;

	if (!r || !out)
		return XQ_EINVAL;
	*out = NULL;
	if (!(l = calloc(1, sizeof(*l))))
		return XQ_ENOMEM;
	xqi_api_rules_options(&o, ruleset);
	xqi_rules_report_init(&l->rep);
	xqi_diagnostic_init(&r->err);
	rc = xqi_rules_analyze_game(&l->rep, &r->g, xqi_api_mainline_node(&r->g, UINT32_MAX), &o, &r->err);
	if (rc) {
		/* The tree holds legal moves only: memory ran out. */
		xq_rules_line_free(l);
		r->has_err = 1;
		return XQ_ENOMEM;
	}
	r->has_err = 0;
	*out = l;
	return 0;
}

void xq_rules_line_free(xq_rules_line *l)
{
	if (!l)
		return;
	xqi_rules_report_release(&l->rep);
	free(l);
}

uint32_t xq_rules_line_plies(const xq_rules_line *l)
{
	return l ? (uint32_t)l->rep.nplies : 0;
}

int xq_rules_line_cycle(const xq_rules_line *l, uint32_t ply, const char **kind, const char **verdict)
{
	long cyc = l && ply >= 1 && ply <= l->rep.nplies ? xqi_rules_cycle_at(&l->rep, ply) : -1;

	if (kind)
		*kind = NULL;
	if (verdict)
		*verdict = NULL;
	if (cyc < 0)
		return 0;
	if (kind)
		*kind = xqi_rules_kind_name((enum xqi_rules_kind)l->rep.plies[ply - 1].kind);
	if (verdict && l->rep.cycles[cyc].last == ply)
		*verdict = xqi_rules_verdict_name((enum xq_ruling)l->rep.cycles[cyc].verdict);
	return (int)cyc + 1;
}

/* The text `b` made, into *text: 1, or XQ_ENOMEM. */
static int give_text(struct xq_buf *b, char **text)
{
	int rc = 1;

	if (xq_buf_error(b) || xq_buf_grow(b, 1) != 0)
		rc = XQ_ENOMEM;
	else
		*text = xq_buf_detach(b, NULL);
	xq_buf_release(b);
	return rc;
}

int xq_rules_line_describe_cycle(const xq_rules_line *l, int cycle, char **text)
{
	struct xq_buf b = XQ_BUF_INIT;

	if (!l || !text)
		return XQ_EINVAL;
	*text = NULL;
	if (cycle < 1 || (size_t)cycle > l->rep.ncycles)
		return 0;
	xqi_rules_describe_cycle(&b, &l->rep, (size_t)cycle - 1);
	return give_text(&b, text);
}

int xq_rules_line_limit(const xq_rules_line *l, uint32_t ply, size_t i, char **text)
{
	if (!l || !text)
		return XQ_EINVAL;
	*text = NULL;
	for (size_t k = 0; k < l->rep.nlimits; k++) {
		struct xq_buf b = XQ_BUF_INIT;
		if (l->rep.limits[k].ply != ply || i-- > 0)
			continue;
		xqi_rules_describe_limit(&b, &l->rep, k);
		return give_text(&b, text);
	}
	return 0;
}

/* The library's checks report to the caller's function. */
struct validate_sink {
	xq_diagnostic_fn fn;
	void *user;
};

static void validate_report(const struct xq_diagnostic *d, void *payload)
{
	const struct validate_sink *v = payload;

	if (v->fn)
		v->fn(d, v->user);
}

static int result_check_of(enum xqi_rules_support s)
{
	switch (s) {
	case XQI_SUPPORT_CONFIRMED:
		return XQ_RESULT_CHECK_CONFIRMED;
	case XQI_SUPPORT_CONTRADICTED:
		return XQ_RESULT_CHECK_CONTRADICTED;
	case XQI_SUPPORT_DOUBTFUL:
		return XQ_RESULT_CHECK_DOUBTFUL;
	default:
		return XQ_RESULT_CHECK_SILENT;
	}
}

int xq_record_validate(xq_record *r, const xq_validate_options *o, xq_diagnostic_fn fn, void *user)
{
	xq_validate_options opts = XQ_VALIDATE_OPTIONS_INIT;
	struct xqi_rules_options ro;
	struct validate_sink v = {fn, user};
	struct xqi_sink sink = {validate_report, &v};
	struct xqi_check_opts co;
	enum xqi_rules_support support;
	unsigned said;
	int rc;

	if (!r)
		return XQ_EINVAL;
	said = r->said;
	if (o && o->size)
		memcpy(&opts, o, o->size < sizeof(opts) ? o->size : sizeof(opts));
	xqi_api_rules_options(&ro, opts.ruleset);
	co.rules = opts.ruleset < 0 ? NULL : &ro;
	co.required = opts.required;
	co.nrequired = opts.required ? opts.nrequired : 0;
	rc = xqi_record_check(&r->g, &co, &said, &sink, &support);
	r->said = said; /* with XQI_SAID_BAD_RESULT_STANDS when the reader's stands */
	if (rc) {
		r->has_err = 1;
		return xqi_diagnostic_set(&r->err, rc, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "out of memory");
	}
	r->has_err = 0;
	return result_check_of(support);
}

int xq_record_result_tag_stands(const xq_record *r)
{
	return r && (r->said & XQI_SAID_BAD_RESULT_STANDS) != 0;
}

int xq_record_check_result(xq_record *r, int ruleset, xq_diagnostic_fn fn, void *user)
{
	struct xqi_rules_options o;
	enum xqi_rules_support support = XQI_SUPPORT_SILENT;
	struct xq_diagnostic d;
	char move[XQI_DIAG_MOVE_MAX];
	int rc;

	if (!r)
		return XQ_EINVAL;
	xqi_api_rules_options(&o, ruleset);
	xqi_diagnostic_init(&d);
	rc = xqi_rules_check_game(&support, &r->g, XQI_CLAIM_UNSPECIFIED, &o, &d, NULL);
	if (rc) {
		r->err = d;
		r->has_err = 1;
		return rc;
	}
	r->has_err = 0;
	if (d.code != XQI_D_NONE) {
		/* The rules name the ply; the record knows where it was written. */
		memcpy(move, d.move, sizeof(move));
		place_at(&d, &r->g, d.ply);
		memcpy(d.move, move, sizeof(move));
		if (fn)
			fn(&d, user);
	}
	return result_check_of(support);
}
