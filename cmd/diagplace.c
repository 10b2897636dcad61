/*
 * diagplace.c: a diagnostic pointed at a game's move (see diagplace.h).
 */
#include "diagplace.h"

#include <stdarg.h>
#include <string.h>

#include "board.h"
#include "pool.h"

void diag_place(struct xq_diag *d, const struct xq_game *g, const char *file, uint32_t node,
		uint32_t ply)
{
	const struct xq_node *x;

	d->source = file;
	d->place = g->place;
	d->has_offset = g->place.offset > 0 || g->place.line == 0;
	d->game = g->number;
	d->ply = ply;
	d->move[0] = '\0';
	if (node == XQ_ROOT || node >= g->nnodes)
		return;
	x = &g->nodes[node];
	if (x->place.line || x->place.offset) {
		d->place = x->place;
		d->has_offset = 1;
	}
	if (x->text) {
		xq_diag_set_move(d, x->text, strlen(x->text));
	} else {
		char iccs[5];
		xq_move_name(x->move, iccs);
		xq_diag_set_move(d, iccs, 4);
	}
}

void diag_place_ply(struct xq_diag *d, const struct xq_game *g, const char *file, uint32_t ply)
{
	uint32_t n = XQ_ROOT;

	for (uint32_t k = 0; k < ply && g->nodes[n].child != XQ_NODE_NONE; k++)
		n = g->nodes[n].child;
	diag_place(d, g, file, n, ply);
}

void diag_job_tag(struct pool_job *j, const char *name, enum xq_severity sev,
		  enum xq_diag_code code, const char *fmt, ...)
{
	struct xq_diag d;
	va_list ap;

	xq_diag_init(&d);
	diag_place_ply(&d, j->game, j->file->name, 0);
	if (name && xq_game_tag_place(j->game, name, &d.place))
		d.has_offset = 1;
	va_start(ap, fmt);
	xq_diag_vset(&d, 0, code, sev, fmt, ap);
	va_end(ap);
	diag_list_add(&j->diags, &d);
}
