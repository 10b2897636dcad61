/*
 * flattree.c: building a game tree from a flat depth-first move list (see
 * flattree.h).
 */
#include "flattree.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "movegen.h"

void xqi_flat_tree_init(struct xqi_flat_tree *t, struct xqi_record *g)
{
	memset(t, 0, sizeof(*t));
	t->g = g;
	t->parent = XQI_ROOT;
	t->board = g->start;
}

void xqi_flat_tree_release(struct xqi_flat_tree *t)
{
	free(t->stack);
	t->stack = NULL;
	t->depth = t->cap = 0;
}

static int push(struct xqi_flat_tree *t)
{
	if (XQ_ALLOC_GROW(t->stack, t->depth + 1, t->cap))
		return XQ_ENOMEM;
	t->stack[t->depth].node = t->parent;
	t->stack[t->depth].ply = t->ply;
	t->stack[t->depth].board = t->board;
	t->depth++;
	return 0;
}

int xqi_flat_tree_add(struct xqi_flat_tree *t, xqi_move m, int branch, int end, uint32_t *node,
		    struct xq_diagnostic *d)
{
	uint32_t n = XQ_NO_NODE;
	int rc;

	if (t->complete)
		return XQ_ERANGE;
	if (t->parent == XQ_NO_NODE) {
		t->skipped++;
		rc = 0;
	} else if (m == 0) {
		rc = XQ_EPARSE;
	} else {
		rc = xqi_move_check(&t->board, m, d);
		if (rc == 0) {
			rc = xqi_record_add_move(t->g, t->parent, m, &n);
			if (rc)
				return rc;
			rc = 1;
			if (node)
				*node = n;
		}
	}
	/* The alternative comes back to this move's parent and position. */
	if (branch && push(t))
		return XQ_ENOMEM;
	if (end) {
		if (t->depth == 0) {
			t->complete = 1;
			t->parent = XQ_NO_NODE;
		} else {
			t->depth--;
			t->parent = t->stack[t->depth].node;
			t->ply = t->stack[t->depth].ply;
			t->board = t->stack[t->depth].board;
		}
	} else {
		if (n != XQ_NO_NODE) {
			struct xqi_undo u;
			xqi_position_make(&t->board, m, &u);
		}
		t->parent = n;
		t->ply++;
	}
	return rc;
}
