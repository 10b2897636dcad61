/*
 * <xq/record.h>: one game record: tags, start position, the move tree with
 * its comments and NAGs, the result, where each move stood in its source.
 *
 * The tree.  Nodes are numbered from 0, the root (the start position: it
 * has no move; its comment is the game's comment).  Each node has a
 * parent, a first child (the main continuation) and a next sibling (an
 * alternative to the same move); XQ_NO_NODE where there is none.  The
 * main line is the chain of first children from the root; variations are
 * the later siblings.  A child's number is always greater than its
 * parent's, and siblings are numbered in their order, so a loop over the
 * numbers visits each node after its parent.
 *
 * Moves in a record are legal: readers stop a line at the first move that
 * is not (the record is then "broken", and the reason went to the
 * diagnostic callback), and xq_record_add_move() checks.
 *
 * Text is UTF-8 whatever the source's encoding.  Strings a record returns
 * belong to it: valid until it is changed or freed.  A record is owned by
 * whoever got it (xq_record_new(), xq_reader_next()) and freed with
 * xq_record_free().  One thread at a time per record (the functions that
 * give a node's position keep a cache in the record).
 */
#ifndef XQ_PUBLIC_RECORD_H
#define XQ_PUBLIC_RECORD_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "position.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct xq_record xq_record;

#define XQ_NO_NODE UINT32_MAX
#define XQ_ROOT_NODE 0u

/* An empty record: standard start, no tags, no moves, no result.  NULL
 * when out of memory. */
XQ_API xq_record *xq_record_new(void);
/* Free a record and everything it owns (its strings too).  NULL is
 * allowed. */
XQ_API void xq_record_free(xq_record *r);

/* The game's 1-based number in its input (0 for a new record).  NULL `r`:
 * 0. */
XQ_API uint64_t xq_record_number(const xq_record *r);
/* Did reading stop at an error in this game (the tree holds what came
 * before it)?  Does the record hold no move at all?  NULL `r`: 0. */
XQ_API int xq_record_is_broken(const xq_record *r);
XQ_API int xq_record_is_empty(const xq_record *r);
/* Did reading cut a variation of this game at an error (a move in it
 * illegal or not readable)?  The moves of that variation from there on
 * are not in the record; its main line and its other variations are,
 * whole, and it is not broken.  The reader reported the error, with how
 * many moves it cut.  NULL `r`: 0. */
XQ_API int xq_record_is_cut(const xq_record *r);
/*
 * Mark the record broken, as a reader marks a game it stopped reading at
 * an error (xq_record_is_broken() is then 1; the tree stays as it is),
 * with `why` (copied; NULL: no reason) the error, as the writers that
 * show a broken game's error write it (HTML, at the top of the game:
 * "line 22, column 6: ply 17 (...): ...").  A program that read the game
 * itself, or that keeps the reader's diagnostics apart, gives it so the
 * reason that the reader only sent to its callback.  0, or XQ_ENOMEM
 * (the record marked all the same, without the reason).  NULL `r`: XQ_EINVAL.
 */
XQ_API int xq_record_set_broken(xq_record *r, const char *why);
/* The text encoding of the record's source as its reader names it
 * ("utf-8", "gb18030", "big5"), or NULL (binary fields, a new record).
 * NULL `r`: NULL. */
XQ_API const char *xq_record_encoding(const xq_record *r);

/* Tags, in the order of the source; names are canonical across formats
 * (Event, Site, Date, Round, Red, Black, RedTeam, BlackTeam, Result,
 * ECCO, Opening, Variation, Title, Annotator, Author, TimeControl,
 * RedTime, BlackTime, GameType, FEN).  Index from 0; NULL past the end.
 * xq_record_tag_count(): NULL `r`: 0; xq_record_tag_name(),
 * xq_record_tag_value(): NULL `r`: NULL. */
XQ_API size_t xq_record_tag_count(const xq_record *r);
XQ_API const char *xq_record_tag_name(const xq_record *r, size_t i);
XQ_API const char *xq_record_tag_value(const xq_record *r, size_t i);
/* The value of the first tag called `name`, or NULL.  NULL `r` or `name`:
 * NULL. */
XQ_API const char *xq_record_tag(const xq_record *r, const char *name);
/* Set the first tag called `name` (or append it).  0 or XQ_ENOMEM.
 * NULL `r`, `name` or `value`: XQ_EINVAL. */
XQ_API int xq_record_set_tag(xq_record *r, const char *name, const char *value);
/* Remove the tag of index `i` (the later ones move up by one).  0, or
 * XQ_ENOTFOUND past the end.  NULL `r`: XQ_EINVAL. */
XQ_API int xq_record_remove_tag(xq_record *r, size_t i);
/* Remove the tags called `name` but the first `keep` of them (0: every
 * one), in one pass over the tags, where removing them one by one with
 * xq_record_remove_tag() moves the later tags each time; returns how many
 * were removed.  NULL `r` or `name`: 0. */
XQ_API size_t xq_record_remove_tags(xq_record *r, const char *name, size_t keep);

/* "1-0", "0-1", "1/2-1/2", or "*" (none or unknown).  NULL `r`: NULL. */
XQ_API const char *xq_record_result(const xq_record *r);
/* The result marker as the record wrote it when it is none of those, else
 * NULL: a result in words that says one (红胜: xq_record_result() is then
 * "1-0"; xq_result_read() of <xq/fix.h>), or one that says none known
 * (未知, or a word no reader knows: xq_record_result() is then "*").  NULL `r`: NULL. */
XQ_API const char *xq_record_result_text(const xq_record *r);
/* Does the record give a result at all?  0 when its source gave none (no
 * Result tag, no result field); 1 when it gave one, "*" and unknown
 * markers included.  NULL `r`: 0. */
XQ_API int xq_record_has_result(const xq_record *r);
/* Set it from one of those.  0 or XQ_EPARSE.  NULL `r` or `result`:
 * XQ_EINVAL. */
XQ_API int xq_record_set_result(xq_record *r, const char *result);

/* The start position's FEN into `buf` (XQ_FEN_SIZE is enough); returns
 * its length.  The start is authoritative: a FEN tag is rewritten from it
 * by the writers.  NULL `r` or `buf`: 0. */
XQ_API size_t xq_record_start_fen(const xq_record *r, char *buf, size_t cap);
/* The source's FEN as written when it gave a start position that could
 * not be read (the record is then broken, its start the standard one
 * and no move), else NULL.  NULL `r`: NULL. */
XQ_API const char *xq_record_start_text(const xq_record *r);
/* Set the start position from `p`; only a record with no move yet
 * (otherwise XQ_EILLEGAL).  NULL `r` or `p`: XQ_EINVAL. */
XQ_API int xq_record_set_start(xq_record *r, const xq_position *p);

/* Where the record starts in its source, as xq_record_node_place() says
 * where a move does: its line and column (1-based; 0 in a binary source
 * or when unknown) and its byte offset (any pointer may be NULL).
 * NULL `r`: each output 0. */
XQ_API void xq_record_place(const xq_record *r, uint64_t *line, uint64_t *column, uint64_t *offset);

/*
 * Where the game was first read: the input's name into *file (NULL when
 * unknown), its 1-based number there into *game (0 when unknown), the
 * line it starts at into *line (0 in a binary input) and its byte offset
 * into *offset (-1 when unknown); any pointer may be NULL.  A record read
 * from xqkit's NDJSON keeps the "source" it carries (doc/ndjson.md), so
 * the origin survives conversions; any other record's origin is where it
 * was read (its reader's input, xq_record_number(), xq_record_place()).
 * NULL `r`: nothing known (NULL, 0, 0, -1).
 */
XQ_API void xq_record_origin(const xq_record *r, const char **file, uint64_t *game, uint64_t *line,
			     int64_t *offset);

/* The number of nodes, the root counted.  NULL `r`: 0. */
XQ_API uint32_t xq_record_node_count(const xq_record *r);
/* A node's parent, first child (its main continuation) and next sibling
 * (the next alternative to its move): XQ_NO_NODE when there is none, or
 * when `n` is no node.  NULL `r`: XQ_NO_NODE. */
XQ_API uint32_t xq_record_node_parent(const xq_record *r, uint32_t n);
XQ_API uint32_t xq_record_node_child(const xq_record *r, uint32_t n);
XQ_API uint32_t xq_record_node_sibling(const xq_record *r, uint32_t n);
/* The node's move (0 at the root or for a number that is no node).
 * NULL `r`: 0. */
XQ_API xq_move_code xq_record_node_move(const xq_record *r, uint32_t n);
/* Plies from the root to `n`.  NULL `r`: 0. */
XQ_API uint32_t xq_record_node_ply(const xq_record *r, uint32_t n);
/* The comment after the move (the root's: the game's), the comment
 * before it, the move as written in the source; NULL when none.
 * NULL `r`: NULL. */
XQ_API const char *xq_record_node_comment(const xq_record *r, uint32_t n);
XQ_API const char *xq_record_node_pre_comment(const xq_record *r, uint32_t n);
XQ_API const char *xq_record_node_source_text(const xq_record *r, uint32_t n);
/* NAGs ($1 = !, $2 = ?, ...): how many, and the i-th (0 past the end).
 * NULL `r`: 0. */
XQ_API int xq_record_node_nag_count(const xq_record *r, uint32_t n);
XQ_API int xq_record_node_nag(const xq_record *r, uint32_t n, int i);
/* Where the move's text started in the source: line and column (0 when
 * unknown), byte offset.  Returns 0, or XQ_ENOTFOUND for no such node.
 * NULL `r`: XQ_EINVAL. */
XQ_API int xq_record_node_place(const xq_record *r, uint32_t n, uint64_t *line, uint64_t *column,
				uint64_t *offset);

/*
 * The position after node `n`'s move (the start at the root) into `out`.
 * Walking the tree from parent to child costs one move a step (the record
 * keeps the last position asked for); a jump elsewhere replays from the
 * root.  Returns 0, or XQ_ENOTFOUND.  NULL `r` or `out`: XQ_EINVAL.
 */
XQ_API int xq_record_node_position(xq_record *r, uint32_t n, xq_position *out);
/* The FEN after node `n`, into `buf` (XQ_FEN_SIZE); its length, 0 if none.
 * NULL `r` or `buf`: 0. */
XQ_API size_t xq_record_node_fen(xq_record *r, uint32_t n, char *buf, size_t cap);
/* The text of node `n`'s move in `dialect` with `flags` (position.h),
 * into `buf` (XQ_MOVE_TEXT_SIZE); its length, 0 at the root.
 * NULL `r` or `buf`: 0. */
XQ_API size_t xq_record_node_move_text(xq_record *r, uint32_t n, int dialect, unsigned flags,
				       char *buf, size_t cap);

/* The main line's moves in `dialect`, separated by single spaces, as one
 * malloc'd string the caller frees with xq_free(); NULL when out of
 * memory.  NULL `r`: NULL. */
XQ_API char *xq_record_mainline_text(xq_record *r, int dialect, unsigned flags);
/* The number of moves of the main line.  NULL `r`: 0. */
XQ_API uint32_t xq_record_mainline_length(const xq_record *r);

/*
 * Add the move `m` after node `parent`, as its last child (so the first
 * added is the main continuation); its node number into *out (may be
 * NULL).  Returns 0; XQ_ENOTFOUND (no such node); XQ_EILLEGAL with the
 * reason in xq_record_error(); XQ_ENOMEM.  NULL `r`: XQ_EINVAL.
 */
XQ_API int xq_record_add_move(xq_record *r, uint32_t parent, xq_move_code m, uint32_t *out);
/* The same with the move as text in `dialect` (xq_position_read_move()).
 * NULL `r` or `text`: XQ_EINVAL. */
XQ_API int xq_record_add_move_text(xq_record *r, uint32_t parent, const char *text, int dialect,
				   uint32_t *out);
/* Set (replace) the comment after node `n` (the root: the game's); NULL
 * removes it.  0, XQ_ENOTFOUND or XQ_ENOMEM.  NULL `r`: XQ_EINVAL. */
XQ_API int xq_record_set_comment(xq_record *r, uint32_t n, const char *text);

/* Add NAG `nag` (1-255: $1 = !, $2 = ?, ...) to node `n`, after its
 * others, unless it has it already.  0; XQ_ENOTFOUND (no node `n`, or `n`
 * is the root); XQ_ERANGE (no such NAG, or 255 NAGs on the node);
 * XQ_ENOMEM.  NULL `r`: XQ_EINVAL. */
XQ_API int xq_record_add_nag(xq_record *r, uint32_t n, int nag);

/*
 * A 64-bit fingerprint of everything the record holds: start, tags,
 * result, the tree with its comments and NAGs.  Any change to the record
 * changes it (but for a chance in 2^64).  Its values do not change from
 * one version of the library to the next: `xqkit annotate` writes it into
 * the games it annotates and `--resume` recognises them by it.  NULL `r`: 0.
 */
XQ_API uint64_t xq_record_fingerprint(const xq_record *r);

/* What xq_record_equal() leaves out of the comparison (none: all of it). */
enum {
	XQ_EQUAL_IGNORE_TAGS = 1 << 0,        /* the tags */
	XQ_EQUAL_IGNORE_TAG_ORDER = 1 << 1,   /* the tags' order (a tag only one has, empty, counts for nothing) */
	XQ_EQUAL_IGNORE_COMMENTS = 1 << 2,    /* every comment (before a move too) */
	XQ_EQUAL_IGNORE_NAGS = 1 << 3,        /* the NAGs */
	XQ_EQUAL_IGNORE_RESULT = 1 << 4,      /* the result */
	XQ_EQUAL_MAINLINE_ONLY = 1 << 6,      /* the variations: the main lines alone */
	XQ_EQUAL_IGNORE_PRE_COMMENTS = 1 << 7 /* the comments before a move */
};

/*
 * Do `a` and `b` hold the same game: the same start position (the pieces
 * and the side to move; a start that could not be read compares by its
 * text), the same tree (moves and shape), comments, NAGs, tags and
 * result, less what `flags` (XQ_EQUAL_*) leaves out?  The moves' texts as
 * written, the places in the source and a FEN tag's text (the start
 * positions are compared) are never compared.  1 when they do; 0 when
 * they do not, with the first difference said in `why` (`cap` bytes,
 * NUL-terminated; NULL or 0: not said), as "ply 12: comments differ: 'a'
 * and 'b'".  Neither record is changed: records only read may be
 * compared on several threads at once.  `xqkit convert --verify` compares
 * each game with what the written bytes read back give so.
 * NULL `a` or `b`: 0.
 */
XQ_API int xq_record_equal(const xq_record *a, const xq_record *b, unsigned flags, char *why,
			   size_t cap);

/* The diagnostic of the last call on `r` that failed, or NULL.  NULL `r`:
 * NULL. */
XQ_API const xq_diagnostic *xq_record_error(const xq_record *r);

/*
 * Diagnostics a program makes itself about a record (its own checks, what
 * it changed), in the library's form, so that they are read, counted and
 * printed as the library's are (xq_diagnostic_format()).  Where one
 * points: start from XQ_DIAGNOSTIC_ABOUT_INIT (`size` lets later
 * versions add fields).  A node is pointed at with its move as written
 * and where it was written (the root: the game as a whole, at the game's
 * place); without one (XQ_NO_NODE), `ply` names the main line's move of
 * that ply (0: the game as a whole); a tag the reader kept the place of
 * moves the place there.
 */
typedef struct xq_diagnostic_about {
	size_t size;             /* sizeof(xq_diagnostic_about) */
	const xq_record *record; /* the game: its number and places; NULL: none */
	const char *source;      /* the input's name; NULL: the name `record` was read from */
	uint32_t node;           /* a node of `record`: at its move; XQ_NO_NODE: none */
	uint32_t ply;            /* the ply said (with no node, the main line's move of it) */
	const char *tag;         /* at this tag's place, when the reader kept it */
	const char *fix_field;   /* what the program changed (xq_diagnostic_fix()): a tag, */
	const char *fix_old;     /* its old value (NULL: the tag was added) */
	const char *fix_new;     /* and its new one; fix_field NULL: it changed nothing */
} xq_diagnostic_about;
#define XQ_DIAGNOSTIC_ABOUT_INIT \
	{sizeof(xq_diagnostic_about), NULL, NULL, XQ_NO_NODE, 0, NULL, NULL, NULL, NULL}

/*
 * Add to `l` a diagnostic about `about` (NULL: about nothing) of
 * `severity` (XQ_SEVERITY_*) and code `code`, by its stable name
 * (xq_diagnostic_code_name(): "bad-tag"), the message made from `fmt` as
 * printf does (cut to XQ_MESSAGE_SIZE bytes on a character boundary).
 * The list copies its strings.  Returns 0; XQ_ENOTFOUND for a code the
 * library does not name, XQ_ERANGE for a severity that is not one, or
 * XQ_ENOMEM (nothing added in each case).
 * NULL `l`, `code` or `fmt`: XQ_EINVAL.
 */
XQ_API int xq_diagnostics_report(xq_diagnostics *l, const xq_diagnostic_about *about, int severity,
				 const char *code, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;
XQ_API int xq_diagnostics_vreport(xq_diagnostics *l, const xq_diagnostic_about *about,
				  int severity, const char *code, const char *fmt, va_list ap);
/*
 * Add to `l` a copy of `d` (a diagnostic a library call gave about one
 * game: a writer's, say) named after `about`'s source and record: its
 * source, its game number, and the record's place when `d` has none of
 * its own (a node, ply or tag of `about` are not looked at).  With
 * `severity` (XQ_SEVERITY_*) in place of its own, or -1 to keep that.
 * Returns 0, XQ_ERANGE (a severity that is not one) or XQ_ENOMEM.
 * NULL `l` or `d`: XQ_EINVAL.
 */
XQ_API int xq_diagnostics_add_about(xq_diagnostics *l, const xq_diagnostic *d,
				    const xq_diagnostic_about *about, int severity);

#ifdef __cplusplus
}
#endif

#endif
