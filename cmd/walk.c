/*
 * walk.c: a record's tree in pre-order (see walk.h).
 */
#include "walk.h"

void record_walk_init(struct record_walk *w, xq_record *r)
{
	w->r = r;
	w->node = XQ_ROOT_NODE;
	w->depth = 0;
}

int record_walk_next(struct record_walk *w)
{
	uint32_t n = w->node, c = xq_record_node_child(w->r, n);

	if (c != XQ_NO_NODE) {
		w->node = c;
		w->depth++;
		return 1;
	}
	while (n != XQ_ROOT_NODE) {
		uint32_t s = xq_record_node_sibling(w->r, n);
		if (s != XQ_NO_NODE) {
			w->node = s;
			return 1;
		}
		n = xq_record_node_parent(w->r, n);
		w->depth--;
	}
	return 0;
}
