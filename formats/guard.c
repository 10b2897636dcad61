/*
 * guard.c: the check that every reader moves on between two games (see
 * xq_read_guard in format.h).
 */
#include "format.h"

int xq_read_guard(struct xq_read_guard *gd, int rc, uint64_t pos, const struct xq_game *g,
		  const struct xq_sink *sink)
{
	struct xq_diag d;

	if (rc != 1)
		return rc;
	if (gd->games == 0 || pos > gd->last) {
		gd->last = pos;
		gd->games++;
		return 1;
	}
	xq_diag_init(&d);
	d.source = g->source;
	d.game = g->number;
	xq_diag_set(&d, XQ_EINTERNAL, XQ_D_INTERNAL, XQ_SEV_ERROR,
		    "the reader returned game %llu without moving on from where it returned the "
		    "game before it (position %llu); the rest of the input is not read",
		    (unsigned long long)g->number, (unsigned long long)pos);
	xq_sink_report(sink, &d);
	return XQ_EINTERNAL;
}
