/*
 * fix.c: what a record can be proven to mean, of the public API
 * (<xq/fix.h>), over lib/fix.  The dates are lib/fix.c's own function.
 */
#include "internal.h"

#include <string.h>

#include "fix.h"

const char *xq_result_canonical(const char *text)
{
	enum xqi_result r;

	if (!text || xqi_result_parse(text, strlen(text), &r) != 0)
		return NULL;
	return xqi_result_string(r);
}

const char *xq_result_read(const char *text, const xq_record *r)
{
	enum xqi_result res;

	if (!text || xqi_result_word(text, strlen(text), r ? r->g.start.side : XQI_RED, &res) < 0)
		return NULL;
	return xqi_result_string(res);
}

/* The offender's conduct as convert --fix has always named it: the
 * Chinese rules' other forbidden conducts under one name. */
static const char *conduct_text(enum xqi_rules_conduct c)
{
	return c == XQI_CONDUCT_PERPETUAL_CHECK || c == XQI_CONDUCT_PERPETUAL_CHASE
		       ? xqi_rules_conduct_name(c)
		       : "a forbidden perpetual attack";
}

int xq_record_prove_result(xq_record *r, int ruleset, xq_proof *out)
{
	struct xqi_rules_options o;
	struct xqi_result_proof p;
	int rc;

	if (!r || !out)
		return XQ_EINVAL;
	memset(out, 0, sizeof(*out));
	out->result = "*";
	xqi_diagnostic_init(&r->err);
	xqi_api_rules_options(&o, ruleset);
	rc = xqi_result_prove(&p, &r->g, ruleset < 0 ? NULL : &o, &r->err);
	if (rc) {
		if (rc == XQ_ENOMEM)
			xqi_diagnostic_set(&r->err, 0, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "out of memory");
		r->has_err = 1;
		return rc;
	}
	r->has_err = 0;
	out->why = p.why;
	out->ply = p.ply;
	if (p.why == XQ_PROOF_NONE)
		return 0;
	out->result = xqi_result_string(p.result);
	if (p.why == XQ_PROOF_PERPETUAL) {
		out->first = p.first;
		out->conduct = conduct_text(p.conduct);
		out->ruleset = (int)p.rules;
	}
	return 0;
}
