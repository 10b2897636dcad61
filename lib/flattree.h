/*
 * flattree.h: building a game tree from a flat depth-first move list, the
 * shape in which the binary and XML formats of CCBridge and XQStudio store
 * their trees (formats/cbf.c, cbr.c and xqf.c).  It checks each move
 * against the position and keeps the positions of the open alternatives.
 */
#ifndef XQI_LIB_FLATTREE_H
#define XQI_LIB_FLATTREE_H

#include <stddef.h>
#include <stdint.h>

#include "position.h"
#include "diagnostic.h"
#include "record.h"

/*
 * A flat move list: the tree in depth-first order, each
 * entry a move with two flags.  `end` closes the current line; `branch`
 * says the move has an alternative, which comes after the whole subtree
 * of this move.  After an `end`, the next entry is an alternative to the
 * most recent `branch` move still open (a stack).  The first line's `end`
 * with nothing open completes the tree.  CCBridge's CBF and CBR write
 * their trees this way (branch/end flags), and so does XQStudio's XQF (a
 * record's "has a sibling" and "has no child" bits).
 *
 * Moves are checked against the position; an illegal one stops its line:
 * it and everything below it (its continuation and the variations inside
 * it) are skipped and counted, while the flags are still followed, so the
 * reader resumes at the next alternative outside the broken subtree.
 */
struct xqi_flat_open {
	uint32_t node;         /* parent of the alternatives to come, or XQ_NO_NODE (skipped) */
	uint32_t ply;          /* the ply of `node` */
	struct xqi_position board; /* the position at `node` */
};

struct xqi_flat_tree {
	struct xqi_record *g;
	uint32_t parent;       /* where the next move attaches; XQ_NO_NODE inside a skipped line */
	uint32_t ply;          /* the ply of `parent` (kept here: counting from the root at
				* every move made deep lines quadratic) */
	struct xqi_position board; /* the position at `parent` */
	struct xqi_flat_open *stack;
	size_t depth, cap;
	int complete;          /* the first line has ended: the tree is whole */
	uint32_t skipped;      /* moves not read because their line had stopped */
};

/* Start building into `g` (whose start position is already set). */
void xqi_flat_tree_init(struct xqi_flat_tree *t, struct xqi_record *g);
void xqi_flat_tree_release(struct xqi_flat_tree *t);

/*
 * Take the next entry of the list.  `m` is the move, or 0 for an entry
 * whose move could not be read at all (the caller has reported it; the
 * line stops there as for an illegal move).  Returns:
 *   1           the move was added; *node is its index
 *   0           skipped, inside a line that had stopped
 *   XQ_EILLEGAL `m` is not legal here: `d` says why (xqi_move_check); the line stops
 *   XQ_EPARSE   `m` was 0; the line stops
 *   XQ_ERANGE   the tree was already complete: the entry is not part of it
 *   XQ_ENOMEM
 */
int xqi_flat_tree_add(struct xqi_flat_tree *t, xqi_move m, int branch, int end, uint32_t *node,
		    struct xq_diagnostic *d);

#endif
