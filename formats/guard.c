/*
 * guard.c: the check that every reader moves on between two games (see
 * xqi_read_guard in format.h).
 */
#include "format.h"

int xqi_read_guard(struct xqi_read_guard *gd, int rc, uint64_t pos, const struct xqi_record *g,
		  const struct xqi_sink *sink)
{
	struct xq_diagnostic d;

	if (rc != 1)
		return rc;
	if (gd->games == 0 || pos > gd->last) {
		gd->last = pos;
		gd->games++;
		return 1;
	}
	xqi_diagnostic_init(&d);
	d.source = g->source;
	d.game = g->number;
	xqi_diagnostic_set(&d, XQ_EINTERNAL, XQI_D_INTERNAL, XQ_SEVERITY_ERROR,
		    "the reader returned game %llu without moving on from where it returned the "
		    "game before it (position %llu); the rest of the input is not read",
		    (unsigned long long)g->number, (unsigned long long)pos);
	xqi_sink_report(sink, &d);
	return XQ_EINTERNAL;
}
