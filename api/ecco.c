/*
 * ecco.c: ECCO opening classification of the public API (<xq/ecco.h>),
 * over lib/ecco.
 */
#include "ecco.h"
#include "internal.h"

#include <string.h>

static void give(const struct xq_ecco *e, const char **code, const char **opening, const char **variation)
{
	if (code)
		*code = e->code;
	if (opening)
		*opening = e->opening;
	if (variation)
		*variation = e->variation;
}

int xq_record_ecco(xq_record *r, const char **code, const char **opening, const char **variation)
{
	const struct xq_ecco *e;
	int rc;

	xq_diag_init(&r->err);
	if ((rc = xq_ecco_classify_game(&e, &r->g, &r->err)) != 0) {
		r->has_err = 1;
		return rc;
	}
	r->has_err = 0;
	give(e, code, opening, variation);
	return 0;
}

int xq_ecco_name(const char *code, const char **opening, const char **variation)
{
	const struct xq_ecco *e = xq_ecco_lookup(code, strlen(code));

	if (!e)
		return XQ_ENOTFOUND;
	give(e, NULL, opening, variation);
	return 0;
}
