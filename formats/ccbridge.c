/*
 * ccbridge.c: the pieces the CCBridge formats share (see ccbridge.h): the
 * header vocabulary, the result codes, the builder for the flat
 * branch/end move list, and a one-call diagnostic report.
 */
#include "ccbridge.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "movegen.h"

const struct xq_ccb_field xq_ccb_fields[] = {
	{"Name", "Title"},
	{"URL", "URL"},
	{"From", "From"},
	{"ContestType", "ContestType"},
	{"Contest", "Event"},
	{"Round", "Round"},
	{"Group", "Group"},
	{"Table", "Table"},
	{"Date", "Date"},
	{"Site", "Site"},
	{"TimeRule", "TimeControl"},
	{"Red", "Red"},
	{"RedTeam", "RedTeam"},
	{"RedTime", "RedTime"},
	{"RedRating", "RedRating"},
	{"Black", "Black"},
	{"BlackTeam", "BlackTeam"},
	{"BlackTime", "BlackTime"},
	{"BlackRating", "BlackRating"},
	{"Referee", "Referee"},
	{"Recorder", "Recorder"},
	{"Commentator", "Annotator"},
	{"CommentatorURL", "CommentatorURL"},
	{"Creator", "Author"},
	{"CreatorURL", "CreatorURL"},
	{"DateCreated", "DateCreated"},
	{"DateModified", "DateModified"},
	{"ECCO", "ECCO"},
	{"RecordType", "RecordType"},
	{"RecordKind", "RecordKind"},
	{"RecordResult", "Result"},
	{"ResultType", "ResultType"},
	{"FEN", "FEN"},
	{NULL, NULL},
};

const struct xq_ccb_field *xq_ccb_field_by_element(const char *name, size_t len)
{
	for (const struct xq_ccb_field *f = xq_ccb_fields; f->element; f++)
		if (strlen(f->element) == len && !memcmp(f->element, name, len))
			return f;
	return NULL;
}

const struct xq_ccb_field *xq_ccb_field_by_tag(const char *name)
{
	for (const struct xq_ccb_field *f = xq_ccb_fields; f->element; f++)
		if (!strcmp(f->tag, name))
			return f;
	return NULL;
}

int xq_ccb_result_from_code(unsigned code, enum xq_result *out)
{
	static const enum xq_result results[] = {XQ_RESULT_UNKNOWN, XQ_RESULT_RED_WIN,
						 XQ_RESULT_BLACK_WIN, XQ_RESULT_DRAW};

	if (code >= sizeof(results) / sizeof(results[0]))
		return -1;
	*out = results[code];
	return 0;
}

unsigned xq_ccb_result_code(enum xq_result r)
{
	switch (r) {
	case XQ_RESULT_RED_WIN:
		return 1;
	case XQ_RESULT_BLACK_WIN:
		return 2;
	case XQ_RESULT_DRAW:
		return 3;
	case XQ_RESULT_NONE:
	case XQ_RESULT_UNKNOWN:
		break;
	}
	return 0;
}

void xq_ccb_tree_init(struct xq_ccb_tree *t, struct xq_game *g)
{
	memset(t, 0, sizeof(*t));
	t->g = g;
	t->parent = XQ_ROOT;
	t->board = g->start;
}

void xq_ccb_tree_release(struct xq_ccb_tree *t)
{
	free(t->stack);
	t->stack = NULL;
	t->depth = t->cap = 0;
}

static int push(struct xq_ccb_tree *t)
{
	if (XQ_ALLOC_GROW(t->stack, t->depth + 1, t->cap))
		return XQ_ENOMEM;
	t->stack[t->depth].node = t->parent;
	t->stack[t->depth].ply = t->ply;
	t->stack[t->depth].board = t->board;
	t->depth++;
	return 0;
}

int xq_ccb_tree_add(struct xq_ccb_tree *t, xq_move m, int branch, int end, uint32_t *node,
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

