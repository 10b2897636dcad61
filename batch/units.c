/*
 * units.c: the units of work (a whole file, or a chunk of one) in their
 * output order: numbered as they are handed out, in a ring that grows;
 * freed once passed.
 */
#include "batch_int.h"

#include <stdlib.h>
#include <string.h>

/* Give `u` the next place in the output order, for worker `w` (under mu). */
int xqi_batch_number_unit(struct pool *p, struct unit *u, struct worker *w)
{
	size_t n = (size_t)(p->next_seq - p->out_seq), cap = p->units_cap;

	if (n == cap) {
		if (XQ_ALLOC_GROW(p->units, cap + 1, p->units_cap))
			return -1;
		/* The units from the head to the old end move to the new end,
		 * so that the ring goes on from the head. */
		if (p->units_head) {
			size_t tail = cap - p->units_head;
			memmove(p->units + p->units_cap - tail, p->units + p->units_head,
				tail * sizeof(*p->units));
			p->units_head = p->units_cap - tail;
		}
	}
	u->seq = p->next_seq++;
	u->owner = w->id;
	p->units[(p->units_head + n) % p->units_cap] = u;
	rec_of(u->file)->units++;
	return 0;
}

void xqi_batch_unit_free(struct unit *u)
{
	if (u->opened)
		xqi_source_close(&u->src);
	free(u);
}
