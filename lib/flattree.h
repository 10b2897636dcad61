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
 *
 * What that costs the game depends on where the refused move is.  On the
 * main line (the entries before the first line ends) the game stops
 * there: it is XQI_RECORD_BROKEN, as any record whose moves stop at an
 * error.  In a variation only that variation is cut, from the refused
 * move on: the game is XQI_RECORD_CUT and the rest of it whole.  The reader
 * hands the builder its diagnostic of the refused move
 * (xqi_flat_tree_hold()), and reports it when xqi_flat_tree_cut_done()
 * says the subtree is over, with how many moves were cut.
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
	int ended;             /* a line has ended: the entries now are not the main line */
	/* The refused move whose subtree is being skipped. */
	int cutting;           /* since it was refused, until its subtree is over */
	int cut_main;          /* it was on the main line */
	uint32_t cut_from;     /* `skipped` when it was refused */
	int held;              /* cut_diag holds the reader's diagnostic of it */
	struct xq_diagnostic cut_diag;
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

/*
 * After xqi_flat_tree_add() refused a move (XQ_EILLEGAL, XQ_EPARSE): keep
 * `d`, the reader's diagnostic of it (an error, placed), to report once
 * its subtree is over.
 */
void xqi_flat_tree_hold(struct xqi_flat_tree *t, const struct xq_diagnostic *d);
/* A sink that holds what is reported to it so: for a reader that reports
 * through functions that take a sink. */
struct xqi_sink xqi_flat_tree_holder(struct xqi_flat_tree *t);

/*
 * After each xqi_flat_tree_add(), and once more with `at_end` when the list
 * ends (whole or not): 1 when the subtree of the refused move is over,
 * with *out its held diagnostic, the message ending with what was cut
 * ("...; the variation is cut here: 3 moves not kept (this one and the 2
 * after it)"), and the game marked XQI_RECORD_BROKEN (the move was on the
 * main line) or XQI_RECORD_CUT (in a variation); 0 otherwise.
 */
int xqi_flat_tree_cut_done(struct xqi_flat_tree *t, int at_end, struct xq_diagnostic *out);

/*
 * The end of the message of a move refused where its line is cut, the
 * one wording of every reader: "; the variation is cut here: 3 moves not
 * kept (this one and the 2 after it)", or "...: this move is not kept"
 * (`main_line`: "the main line stops here"; `partial`: the input ended
 * inside the line, "...after it that were read"), appended to d->msg.
 */
void xqi_cut_message(struct xq_diagnostic *d, int main_line, uint32_t moves, int partial);

#endif
