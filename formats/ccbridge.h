/*
 * ccbridge.h: what the CCBridge (象棋桥) formats share, for formats/cbf.c,
 * cbr.c, cbl.c, cbl_zlib.c and the dhtmlxq_*.c files: the header
 * vocabulary and its mapping onto game tags, the numeric result codes, the builder that turns
 * CCBridge's flat depth-first move list (branch/end flags) into a game
 * tree, and the helper that sends a located diagnostic to a sink.
 *
 * Internal to formats/: not part of the library's interface.
 */
#ifndef XQ_FORMATS_CCBRIDGE_H
#define XQ_FORMATS_CCBRIDGE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "diag.h"
#include "game.h"

/*
 * The CBF <Head> elements, in the order CCBridge writes them, with the
 * game tag each one maps to.  Canonical tags where the meaning is the
 * same (Name is the title, Contest the event, TimeRule the time control,
 * Commentator the annotator, Creator the author); the element's own name
 * otherwise.  Two entries are not plain tags: RecordResult is the result
 * code (tag "Result", see xq_ccb_result_from_code) and FEN is the start
 * position (game.start; no tag).  The CBR fields carry the same names.
 */
struct xq_ccb_field {
	const char *element; /* CBF element name */
	const char *tag;     /* game tag */
};
extern const struct xq_ccb_field xq_ccb_fields[]; /* ends with {NULL, NULL} */

/* The field whose element (or, for _by_tag, tag) is `name`, or NULL. */
const struct xq_ccb_field *xq_ccb_field_by_element(const char *name, size_t len);
const struct xq_ccb_field *xq_ccb_field_by_tag(const char *name);

/*
 * Result codes of CBF RecordResult and the CBR result field: 0 unknown,
 * 1 red wins, 2 black wins, 3 draw.  Returns 0 and sets *out, or -1 for a
 * code whose meaning is not established (CBR writes 4, "several").
 */
int xq_ccb_result_from_code(unsigned code, enum xq_result *out);
/* The code for a result (NONE and UNKNOWN are 0). */
unsigned xq_ccb_result_code(enum xq_result r);

/*
 * The flat move list of CBF and CBR: the tree in depth-first order, each
 * entry a move with two flags.  `end` closes the current line; `branch`
 * says the move has an alternative, which comes after the whole subtree
 * of this move.  After an `end`, the next entry is an alternative to the
 * most recent `branch` move still open (a stack).  The first line's `end`
 * with nothing open completes the tree.
 *
 * Moves are checked against the position; an illegal one stops its line:
 * it and everything below it (its continuation and the variations inside
 * it) are skipped and counted, while the flags are still followed, so the
 * reader resumes at the next alternative outside the broken subtree.
 */
struct xq_ccb_open {
	uint32_t node;         /* parent of the alternatives to come, or XQ_NODE_NONE (skipped) */
	uint32_t ply;          /* the ply of `node` */
	struct xq_board board; /* the position at `node` */
};

struct xq_ccb_tree {
	struct xq_game *g;
	uint32_t parent;       /* where the next move attaches; XQ_NODE_NONE inside a skipped line */
	uint32_t ply;          /* the ply of `parent` (kept here: counting from the root at
				* every move made deep lines quadratic) */
	struct xq_board board; /* the position at `parent` */
	struct xq_ccb_open *stack;
	size_t depth, cap;
	int complete;          /* the first line has ended: the tree is whole */
	uint32_t skipped;      /* moves not read because their line had stopped */
};

/* Start building into `g` (whose start position is already set). */
void xq_ccb_tree_init(struct xq_ccb_tree *t, struct xq_game *g);
void xq_ccb_tree_release(struct xq_ccb_tree *t);

/*
 * Take the next entry of the list.  `m` is the move, or 0 for an entry
 * whose move could not be read at all (the caller has reported it; the
 * line stops there as for an illegal move).  Returns:
 *   1           the move was added; *node is its index
 *   0           skipped, inside a line that had stopped
 *   XQ_EILLEGAL `m` is not legal here: `d` says why (xq_move_check); the line stops
 *   XQ_EPARSE   `m` was 0; the line stops
 *   XQ_ERANGE   the tree was already complete: the entry is not part of it
 *   XQ_ENOMEM
 */
int xq_ccb_tree_add(struct xq_ccb_tree *t, xq_move m, int branch, int end, uint32_t *node,
		    struct xq_diag *d);



#endif
