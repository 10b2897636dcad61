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
	/* A broken record whose start was not read, or whose main line stops
	 * before the plies that decide an opening, would be classified by what
	 * was read instead of by its game. */
	if ((r->g.flags & XQ_GAME_BROKEN) &&
	    (r->g.start_text || xq_game_mainline_length(&r->g) < XQ_ECCO_PLIES)) {
		r->has_err = 1;
		return xq_diag_set(&r->err, XQ_ENOTFOUND, XQ_D_NONE, XQ_SEV_ERROR,
				   "the record breaks off before its opening is decided");
	}
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
