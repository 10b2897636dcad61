/*
 * ecco.c: ECCO opening classification of the public API (<xq/ecco.h>),
 * over lib/ecco.
 */
#include "ecco.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void give(const struct xqi_ecco *e, const char **code, const char **opening, const char **variation)
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
	const struct xqi_ecco *e;
	int rc;

	if (!r)
		return XQ_EINVAL;
	xqi_diagnostic_init(&r->err);
	/* A broken record whose start was not read, or whose main line stops
	 * before the plies that decide an opening, would be classified by what
	 * was read instead of by its game. */
	if ((r->g.flags & XQI_RECORD_BROKEN) &&
	    (r->g.start_text || xqi_record_mainline_length(&r->g) < XQ_ECCO_PLIES)) {
		r->has_err = 1;
		return xqi_diagnostic_set(&r->err, XQ_ENOTFOUND, XQI_D_NONE, XQ_SEVERITY_ERROR,
				   "the record breaks off before its opening is decided");
	}
	if ((rc = xqi_ecco_classify_game(&e, &r->g, &r->err)) != 0) {
		r->has_err = 1;
		return rc;
	}
	r->has_err = 0;
	give(e, code, opening, variation);
	return 0;
}

int xq_ecco_name(const char *code, const char **opening, const char **variation)
{
	const struct xqi_ecco *e;

	if (!code)
		return XQ_EINVAL;
	e = xqi_ecco_lookup(code, strlen(code));
	if (!e)
		return XQ_ENOTFOUND;
	give(e, NULL, opening, variation);
	return 0;
}

int xq_ecco_of_line(const xq_position *start, const xq_move_code *moves, size_t n,
		    const char **code, const char **opening, const char **variation)
{
	xqi_move line[XQ_ECCO_PLIES];
	const struct xqi_ecco *e;
	int rc;

	if (!start || (!moves && n))
		return XQ_EINVAL;
	if (n > XQ_ECCO_PLIES)
		n = XQ_ECCO_PLIES; /* the later moves are not looked at */
	for (size_t i = 0; i < n; i++)
		if (!(line[i] = moves[i] ? xqi_api_move_in(moves[i]) : 0))
			return XQ_EILLEGAL;
	if ((rc = xqi_ecco_classify(&e, &start->b, line, n, NULL)) != 0)
		return rc;
	give(e, code, opening, variation);
	return 0;
}

struct xq_ecco_codes {
	struct xqi_ecco_set set;
};

int xq_ecco_codes_parse(xq_ecco_codes **out, const char *spec, size_t *column, char *why,
			size_t cap)
{
	struct xq_diagnostic d;
	xq_ecco_codes *s;
	int rc;

	if (column)
		*column = 0;
	if (cap && why)
		why[0] = '\0';
	if (!out || !spec)
		return XQ_EINVAL;
	*out = NULL;
	if (!(s = malloc(sizeof(*s))))
		return XQ_ENOMEM;
	xqi_diagnostic_init(&d);
	if ((rc = xqi_ecco_set_parse(&s->set, spec, strlen(spec), &d)) != 0) {
		free(s);
		if (column)
			*column = (size_t)d.place.col;
		if (cap && why)
			snprintf(why, cap, "%s", d.msg);
		return rc;
	}
	*out = s;
	return 0;
}

int xq_ecco_codes_has(const xq_ecco_codes *s, const char *code)
{
	return s && code && strlen(code) == 3 && xqi_ecco_set_has(&s->set, xqi_ecco_index(code, 3));
}

void xq_ecco_codes_free(xq_ecco_codes *s)
{
	free(s);
}
