/*
 * flattree.c: building a game tree from a flat depth-first move list (see
 * flattree.h).
 */
#include "flattree.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "movegen.h"

void xq_flat_tree_init(struct xq_flat_tree *t, struct xq_game *g)
{
	memset(t, 0, sizeof(*t));
	t->g = g;
	t->parent = XQ_ROOT;
	t->board = g->start;
}

void xq_flat_tree_release(struct xq_flat_tree *t)
{
	free(t->stack);
	t->stack = NULL;
	t->depth = t->cap = 0;
}

static int push(struct xq_flat_tree *t)
{
	if (XQ_ALLOC_GROW(t->stack, t->depth + 1, t->cap))
		return XQ_ENOMEM;
	t->stack[t->depth].node = t->parent;
	t->stack[t->depth].ply = t->ply;
	t->stack[t->depth].board = t->board;
	t->depth++;
	return 0;
}

int xq_flat_tree_add(struct xq_flat_tree *t, xq_move m, int branch, int end, uint32_t *node,
		    struct xq_diag *d)
{
	uint32_t n = XQ_NODE_NONE;
	int rc;

	if (t->complete)
		return XQ_ERANGE;
	if (t->parent == XQ_NODE_NONE) {
		t->skipped++;
		rc = 0;
	} else if (m == 0) {
		rc = XQ_EPARSE;
	} else {
		rc = xq_move_check(&t->board, m, d);
		if (rc == 0) {
			rc = xq_game_add_move(t->g, t->parent, m, &n);
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
			t->parent = XQ_NODE_NONE;
		} else {
			t->depth--;
			t->parent = t->stack[t->depth].node;
			t->ply = t->stack[t->depth].ply;
			t->board = t->stack[t->depth].board;
		}
	} else {
		if (n != XQ_NODE_NONE) {
			struct xq_undo u;
			xq_board_make(&t->board, m, &u);
		}
		t->parent = n;
		t->ply++;
	}
	return rc;
}
