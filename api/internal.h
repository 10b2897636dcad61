/*
 * internal.h: what the public API's implementation shares.  The return
 * codes are spelt once, in <xq/error.h>, which lib/diag.h includes: the
 * library's headers and the public ones go together in any order.
 */
#ifndef XQ_API_INTERNAL_H
#define XQ_API_INTERNAL_H

#include <stdatomic.h>

#include "board.h"
#include "diag.h"
#include "format.h"
#include "game.h"
#include "movegen.h"
#include "notation.h"

#include <xq/xq.h>

/* A diagnostic of the public API is the library's own. */
static inline const xq_diagnostic *api_diag(const struct xq_diag *d)
{
	return xq_diag_public(d);
}

/* And back. */
static inline const struct xq_diag *api_diag_of(const xq_diagnostic *d)
{
	return (const struct xq_diag *)(const void *)d;
}

struct xq_position {
	struct xq_board b;
	struct xq_diag err; /* the last failure, when has_err */
	int has_err;
};

/* struct xq_record: lib/game.h, where the command's pool sees it too. */

/* The cancel flag (<xq/io.h>): readers and analysers poll `flag`. */
struct xq_cancel {
	atomic_int flag;
};

#if ATOMIC_INT_LOCK_FREE != 2
#error "xq_cancel_set() is safe in a signal handler only with a lock-free atomic_int"
#endif

/* The canonical FEN of `b` into `buf` (`cap` bytes): its length, or 0 and
 * "" when it does not fit. */
size_t api_fen(const struct xq_board *b, char *buf, size_t cap);

/* Rule sets between the public XQ_RULESET_* and the library's (api/rules.c):
 * default options of `ruleset`, and the public value of an enum
 * xq_rules_set. */
struct xq_rules_options;
void api_rules_options(struct xq_rules_options *o, int ruleset);
int api_ruleset_out(int rules);

/* Keep in r's error that it has no node `n`; returns XQ_ENOTFOUND. */
int api_no_node(xq_record *r, uint32_t n);

/* The node of the main line's ply `ply` (the root for 0; the last node
 * when the line is shorter). */
uint32_t api_mainline_node(const struct xq_game *g, uint32_t ply);

/* Squares and moves of the public API (0..89) and of the board (mailbox). */
xq_sq api_square_in(int square);
int api_square_out(xq_sq sq);
xq_move api_move_in(xq_move_code m);
xq_move_code api_move_out(xq_move m);

/* The public API's constants are the library's: same values. */
#define API_SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(API_SAME(XQ_DIALECT_AUTO, XQ_NOTATION_AUTO) && API_SAME(XQ_DIALECT_ICCS, XQ_NOTATION_ICCS) &&
		       API_SAME(XQ_DIALECT_UCI, XQ_NOTATION_UCI) && API_SAME(XQ_DIALECT_UCI1, XQ_NOTATION_UCI1) &&
		       API_SAME(XQ_DIALECT_WXF, XQ_NOTATION_WXF) &&
		       API_SAME(XQ_DIALECT_CHINESE, XQ_NOTATION_CHINESE) &&
		       API_SAME(XQ_DIALECT_SAN, XQ_NOTATION_SAN),
	       "dialects");
_Static_assert(API_SAME(XQ_DIALECT_TRADITIONAL, XQ_NOTATION_TRADITIONAL) &&
		       API_SAME(XQ_DIALECT_ASCII_DIGITS, XQ_NOTATION_ASCII_DIGITS) &&
		       API_SAME(XQ_DIALECT_UPPER, XQ_NOTATION_UPPER) &&
		       API_SAME(XQ_DIALECT_DASH, XQ_NOTATION_DASH) &&
		       API_SAME(XQ_DIALECT_DPXQ_PAWNS, XQ_NOTATION_DPXQ_PAWNS),
	       "notation flags");
_Static_assert(API_SAME(XQ_SEVERITY_NOTE, XQ_SEV_NOTE) && API_SAME(XQ_SEVERITY_WARNING, XQ_SEV_WARNING) &&
		       API_SAME(XQ_SEVERITY_ERROR, XQ_SEV_ERROR),
	       "severities");
_Static_assert(API_SAME(XQ_FORMAT_READS, XQ_CAP_READ) && API_SAME(XQ_FORMAT_WRITES, XQ_CAP_WRITE) &&
		       API_SAME(XQ_FORMAT_MULTI, XQ_CAP_MULTI) &&
		       API_SAME(XQ_FORMAT_VARIATIONS, XQ_CAP_VARIATIONS) &&
		       API_SAME(XQ_FORMAT_COMMENTS, XQ_CAP_COMMENTS) && API_SAME(XQ_FORMAT_NAGS, XQ_CAP_NAGS) &&
		       API_SAME(XQ_FORMAT_ANY_TAGS, XQ_CAP_ANY_TAGS) && API_SAME(XQ_FORMAT_BINARY, XQ_CAP_BINARY) &&
		       API_SAME(XQ_FORMAT_PRE_COMMENTS, XQ_CAP_PRE_COMMENTS),
	       "format abilities");
_Static_assert(API_SAME(XQ_EQUAL_IGNORE_TAGS, XQ_EQ_IGNORE_TAGS) &&
		       API_SAME(XQ_EQUAL_IGNORE_TAG_ORDER, XQ_EQ_IGNORE_TAG_ORDER) &&
		       API_SAME(XQ_EQUAL_IGNORE_COMMENTS, XQ_EQ_IGNORE_COMMENTS) &&
		       API_SAME(XQ_EQUAL_IGNORE_NAGS, XQ_EQ_IGNORE_NAGS) &&
		       API_SAME(XQ_EQUAL_IGNORE_RESULT, XQ_EQ_IGNORE_RESULT) &&
		       API_SAME(XQ_EQUAL_MAINLINE_ONLY, XQ_EQ_MAINLINE_ONLY) &&
		       API_SAME(XQ_EQUAL_IGNORE_PRE_COMMENTS, XQ_EQ_IGNORE_PRE_COMMENTS),
	       "what records are compared without");
_Static_assert(XQ_FEN_SIZE >= XQ_FEN_MAX && XQ_MOVE_TEXT_SIZE >= XQ_MOVE_TEXT_MAX &&
		       XQ_MOVES_MAX >= XQ_MAX_MOVES && XQ_NO_NODE == XQ_NODE_NONE,
	       "sizes");

#endif
