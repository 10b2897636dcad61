/*
 * flattree.c: building a game tree from a flat depth-first move list (see
 * flattree.h).
 */
#include "flattree.h"

#include <stdio.h>
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
	if (rc < 0) {
		/* Refused: its subtree is skipped from here on. */
		t->cutting = 1;
		t->cut_main = !t->ended;
		t->cut_from = t->skipped;
		t->held = 0;
	}
	/* The alternative comes back to this move's parent and position. */
	if (branch && push(t))
		return XQ_ENOMEM;
	if (end) {
		t->ended = 1;
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

void xqi_flat_tree_hold(struct xqi_flat_tree *t, const struct xq_diagnostic *d)
{
	t->cut_diag = *d;
	t->held = 1;
}

static void hold_report(const struct xq_diagnostic *d, void *payload)
{
	xqi_flat_tree_hold(payload, d);
}

struct xqi_sink xqi_flat_tree_holder(struct xqi_flat_tree *t)
{
	struct xqi_sink s = {hold_report, t};

	return s;
}

int xqi_flat_tree_cut_done(struct xqi_flat_tree *t, int at_end, struct xq_diagnostic *out)
{
	uint32_t moves;

	if (!t->cutting || (!at_end && t->parent == XQ_NO_NODE && !t->complete))
		return 0;
	t->cutting = 0;
	t->g->flags |= t->cut_main ? XQI_RECORD_BROKEN : XQI_RECORD_CUT;
	if (!t->held)
		return 0;
	t->held = 0;
	moves = t->skipped - t->cut_from + 1;
	*out = t->cut_diag;
	xqi_cut_message(out, t->cut_main, moves, at_end && t->parent == XQ_NO_NODE && !t->complete);
	return 1;
}

void xqi_cut_message(struct xq_diagnostic *d, int main_line, uint32_t moves, int partial)
{
	const char *what = main_line ? "main line stops" : "variation is cut";
	size_t len = strlen(d->msg);

	if (moves <= 1)
		snprintf(d->msg + len, sizeof(d->msg) - len, "; the %s here: this move is not kept",
			 what);
	else
		snprintf(d->msg + len, sizeof(d->msg) - len,
			 "; the %s here: %u moves not kept (this one and the %u after it%s)", what,
			 (unsigned)moves, (unsigned)(moves - 1), partial ? " that were read" : "");
}
