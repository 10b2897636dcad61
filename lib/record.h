/*
 * record.h: one game record in memory, whatever format it came from.
 *
 * A game holds its tags in their original order (any name, any value, all
 * UTF-8), the start position, the move tree, comments, NAGs, the result,
 * and where each move came from in its source.  Everything a game owns
 * lives in its arena and in two growable arrays, so one call frees it and
 * a reader can reuse the memory for the next game (xqi_record_clear()).
 *
 * The tree.  Nodes live in one array; node 0 is the root and stands for
 * the start position (it has no move; its comment is the game comment).
 * Each node links to its parent, its first child (the main continuation)
 * and its next sibling (an alternative to this same move, from the same
 * position).  The main line is the chain of first children.  Variations
 * are the later siblings, in order.  Each node also keeps its last child,
 * so that adding an alternative costs the same whatever the number of
 * siblings before it (a list walk there made a record of n alternatives
 * take n*n/2 steps to read).  Links are array indices, so trees
 * with hundreds of thousands of nodes are walked with loops, never
 * recursion: xqi_record_next() gives the pre-order successor, and struct
 * xqi_walk replays positions along that order.  Adding a node, and a
 * step of either walk, cost constant time (amortized over a walk);
 * xqi_record_ply() and xqi_record_board_at() go up to the root, so a loop over
 * many nodes keeps the ply or the position itself (xqi_record_next_ply(),
 * struct xqi_walk) rather than asking them at every node.
 *
 * Moves in a tree are legal: readers check every move before adding it and
 * stop a line at the first one that is not (reporting a diagnostic), so
 * what is in the tree can be replayed blindly.  A main line that stops so
 * makes the game XQI_RECORD_BROKEN; a variation cut so, XQI_RECORD_CUT.
 *
 * Canonical tag names, shared by every format (so that a converted game
 * keeps its meaning): Event, Site, Date, Round, Red, Black, RedTeam,
 * BlackTeam, Result, ECCO, Opening, Variation, Title, Annotator, Author,
 * TimeControl, RedTime, BlackTime, GameType, FEN.  `start` is
 * authoritative for the position: a FEN tag is kept where it stood in the
 * tag order, and writers replace its value by the canonical FEN of
 * `start` (and add one when the start is not the standard position).
 * The one exception: a start position the source gave but that could not
 * be read (`start_text`, below).  `start` is then not the game's position,
 * and no writer may present it as one: text formats write the FEN back as
 * the source wrote it, the others refuse the game (formats/format.h,
 * xqi_write_start_check()).
 */
#ifndef XQI_LIB_GAME_H
#define XQI_LIB_GAME_H

#include <stddef.h>
#include <stdint.h>

#include <xq/record.h>

#include "arena.h"
#include "position.h"
#include "diagnostic.h"

#define XQI_ROOT 0u

struct xqi_tag {
	const char *name;  /* in the game's arena */
	const char *value;
	struct xqi_place place; /* where the tag is written in the source (all 0: not known) */
};

struct xqi_node {
	xqi_move move;            /* 0 at the root */
	uint8_t nnags;           /* number of entries in nags */
	uint32_t parent;         /* XQ_NO_NODE at the root */
	uint32_t child;          /* first child (main continuation) or XQ_NO_NODE */
	uint32_t sibling;        /* next alternative to this move or XQ_NO_NODE */
	uint32_t last_child;     /* last child (where the next one is linked) or XQ_NO_NODE */
	const char *text;        /* the move as written in the source, NULL if none */
	const char *comment;     /* after the move (root: the game comment), NULL if none */
	const char *pre_comment; /* before the move (PGN `{...} move`), NULL if none */
	const uint8_t *nags;     /* numeric annotation glyphs ($1 = !, $2 = ?, ...) */
	struct xqi_place place;   /* where the move text starts in the source */
};

enum xqi_result {
	XQI_RESULT_NONE,      /* no result given at all */
	XQI_RESULT_UNKNOWN,   /* "*", or a non-standard marker kept in result_text */
	XQI_RESULT_RED_WIN,   /* 1-0 */
	XQI_RESULT_BLACK_WIN, /* 0-1 */
	XQI_RESULT_DRAW       /* 1/2-1/2 */
};

enum {
	XQI_RECORD_BROKEN = 1 << 0, /* reading stopped at an error; the tree is what came before */
	XQI_RECORD_EMPTY = 1 << 1,  /* the record had no moves at all */
	/* A variation was cut at an error (a move in it illegal or not
	 * readable): the moves from there to its end are not in the tree, the
	 * main line and the other variations are, whole.  The reader reported
	 * the error, with how many moves were cut. */
	XQI_RECORD_CUT = 1 << 2
};

/*
 * Where a game was first read from: the file (as named to the reader),
 * its 1-based number there, and where its record starts.  A game read from
 * a record that carried its own origin (an NDJSON game record's "source")
 * keeps that one, so a chain of conversions still points at the original.
 */
struct xqi_origin {
	const char *file;  /* NULL: not known */
	uint64_t game;     /* 1-based number in the file, 0 = not known */
	uint64_t line;     /* 1-based line where the record starts, 0 = none (binary) */
	uint64_t offset;   /* byte offset where the record starts */
	int has_offset;    /* offset is known */
};

struct xqi_record {
	struct xqi_arena arena;
	struct xqi_tag *tags;
	size_t ntags, tags_alloc;
	struct xqi_position start;   /* the start position (standard unless set) */
	const char *start_text;  /* the source's FEN as written when it gave a start
				  * position that could not be read (the game is then
				  * XQI_RECORD_BROKEN and `start` is left standard, not the
				  * game's position); NULL otherwise */
	struct xqi_node *nodes;   /* nodes[0] is the root */
	size_t nnodes, nodes_alloc;
	enum xqi_result result;   /* from the record's result marker or field */
	const char *result_text; /* the marker as written when it is not standard ("未知") */
	uint64_t number;         /* 1-based position of the game in its source */
	const char *source;      /* borrowed: the source's name, for diagnostics */
	struct xqi_place place;   /* where the record starts in its source */
	const char *encoding;    /* static string: the source's text encoding, or NULL */
	struct xqi_origin origin; /* the origin the record carried (file in the arena),
				  * file NULL when it carried none: see xqi_record_origin() */
	unsigned flags;          /* XQI_RECORD_* */
	const char *error;       /* why the game is XQI_RECORD_BROKEN, for writers that show it
				  * (HTML), as whoever read it set it (xqi_record_set_error);
				  * NULL when not said.  Readers leave it alone: the reason
				  * goes to their sink. */
};

/* Start an empty game (standard start position, a root node, no tags). */
int xqi_record_init(struct xqi_record *g);
/* Empty the game for reuse, keeping its memory. */
void xqi_record_clear(struct xqi_record *g);
/* Free everything the game owns. */
void xqi_record_release(struct xqi_record *g);
/* Bytes of memory the game holds (its tree, tags and arena), for budgets. */
size_t xqi_record_memory(const struct xqi_record *g);

/*
 * What the game's reader reported already, so that the checks do not say
 * it again (record_check.h): bits of the codes its diagnostics had
 * (xqi_check_said_of()).
 */
enum {
	XQI_SAID_BAD_FEN = 1 << 0,    /* bad-fen: the start position or the FEN tag */
	XQI_SAID_EMPTY_GAME = 1 << 1, /* empty-game */
	XQI_SAID_NO_RESULT = 1 << 2,  /* no-result */
	XQI_SAID_BAD_RESULT = 1 << 3, /* bad-result: the Result tag against the record's result */
	/* Set by xqi_record_check(): the reader's bad-result stands, and counts
	 * as an error (the Result tag is a result, and not the record's). */
	XQI_SAID_BAD_RESULT_STANDS = 1 << 4
};

/* The XQI_SAID_* bit of a diagnostic code (0 for the others). */
unsigned xqi_check_said_of(enum xqi_diagnostic_code code);

/*
 * The public API's record (<xq/record.h>): a game and what the API keeps
 * beside it.  Defined here, below the public API, so that code which reads
 * games in bulk into games of its own (the batch, <xq/batch.h>) can hand them
 * out as records: it makes the record with xq_record_new(), reads into
 * its `g`, and calls xqi_record_forget() whenever it changes the game
 * other than through the public API (clearing it for the next game), so
 * that the API's memory of the game does not outlive it.
 */
struct xq_record {
	struct xqi_record g;
	struct xq_diagnostic err; /* the last failure, when has_err */
	int has_err;
	/* The position after node `at` (XQ_NO_NODE: none kept). */
	uint32_t at;
	struct xqi_position at_board;
	/* What the reader that read it reported about it (XQI_SAID_* above),
	 * for xq_record_validate() not to say it again. */
	unsigned said;
};

static inline void xqi_record_forget(struct xq_record *r)
{
	r->has_err = 0;
	r->at = XQ_NO_NODE;
	r->said = 0;
}

/* Empty the record for the next game read into it. */
static inline void xqi_record_reset(struct xq_record *r)
{
	xqi_record_clear(&r->g);
	xqi_record_forget(r);
}

/* Note in `r` that its reader reported `d` about it. */
static inline void xqi_record_heard(struct xq_record *r, const struct xq_diagnostic *d)
{
	r->said |= xqi_check_said_of(d->code);
}

/*
 * Point `d` at game `g` of `source` (its source, game number and place)
 * and at ply `ply`; then, unless `node` is the root (or not a node of
 * `g`), at that node's move: its place when the reader kept one, and its
 * text as written (else its ICCS coordinates).  The one way a diagnostic
 * about a game is placed: the whole-game checks (record_check.h) and every
 * command's.
 */
void xqi_record_place_diag(struct xq_diagnostic *d, const struct xqi_record *g, const char *source,
			uint32_t node, uint32_t ply);
/* The same for the move of main-line ply `ply` (0: the game itself; past
 * the main line's end: its last move). */
void xqi_record_place_diag_ply(struct xq_diagnostic *d, const struct xqi_record *g, const char *source,
			    uint32_t ply);

/* Where `g` was first read from: the origin its record carried, else its
 * own source, number and place (offset known when the source is named).
 * out->file lives as long as the game when the record carried it, else as
 * long as g->source does (the reader's input): copy it to keep it longer. */
void xqi_record_origin(const struct xqi_record *g, struct xqi_origin *out);

/* A copy of `len` bytes in the game's arena (NUL-terminated), or NULL. */
char *xqi_record_strdup(struct xqi_record *g, const char *s, size_t len);

/* Append a tag (duplicates are kept, as they were in the source); _at
 * also keeps where the source wrote it, so diagnostics about the tag can
 * point there (NULL: not known). */
int xqi_record_add_tag(struct xqi_record *g, const char *name, size_t nlen, const char *value,
		    size_t vlen);
int xqi_record_add_tag_at(struct xqi_record *g, const char *name, size_t nlen, const char *value,
		       size_t vlen, const struct xqi_place *place);
/* Set the first tag called `name`, or append it. */
int xqi_record_set_tag(struct xqi_record *g, const char *name, const char *value);
/* The value of the first tag called `name`, or NULL. */
const char *xqi_record_tag(const struct xqi_record *g, const char *name);
/* Where the source wrote the first tag called `name`: 1 with *out set, or
 * 0 when there is no such tag or its place is not known. */
int xqi_record_tag_place(const struct xqi_record *g, const char *name, struct xqi_place *out);
/* Remove every tag called `name`; returns how many. */
int xqi_record_remove_tag(struct xqi_record *g, const char *name);
/* Remove the tags called `name` but the first `keep` of them, in one pass
 * (linear in the tags); returns how many were removed. */
size_t xqi_record_remove_tags_after(struct xqi_record *g, const char *name, size_t keep);

/*
 * A game's tags sorted by name (bytes), the tags of one name in the order
 * they stand: xqi_record_tag_refs() returns `ntags` refs for the caller to
 * free, or NULL (no tags, or no memory).  xqi_tag_refs_first() finds the
 * first tag of a name among them in log n, so that a walk over the tags
 * that asks of each one about its name costs n log n, not n^2.
 */
struct xqi_tag_ref {
	const char *name;
	size_t index; /* in g->tags */
};
struct xqi_tag_ref *xqi_record_tag_refs(const struct xqi_record *g);
/* The first ref called `name` among refs[0..n), or NULL. */
const struct xqi_tag_ref *xqi_tag_refs_first(const struct xqi_tag_ref *refs, size_t n,
					   const char *name);

/*
 * Add `m` as the last child of `parent` (so the first child added is the
 * main continuation) and return its index in *out.  The caller has checked
 * that `m` is legal in the position at `parent`.
 */
int xqi_record_add_move(struct xqi_record *g, uint32_t parent, xqi_move m, uint32_t *out);

/* Set (replace) a node's comment, pre-comment or move text; len bytes. */
int xqi_record_set_comment(struct xqi_record *g, uint32_t node, const char *s, size_t len);
int xqi_record_set_pre_comment(struct xqi_record *g, uint32_t node, const char *s, size_t len);
int xqi_record_set_text(struct xqi_record *g, uint32_t node, const char *s, size_t len);
/* Add text to a node's comment, separated from what is there by a space. */
int xqi_record_append_comment(struct xqi_record *g, uint32_t node, const char *s, size_t len);
/* Record that the source's start position, `len` bytes of FEN as written,
 * could not be read (start_text); marks the game XQI_RECORD_BROKEN. */
int xqi_record_set_start_text(struct xqi_record *g, const char *s, size_t len);
/* Set (replace) the text saying why the game is broken; len bytes. */
int xqi_record_set_error(struct xqi_record *g, const char *s, size_t len);
/* Append a NAG to a node (at most 255): as the source wrote it, a NAG
 * given twice too.  0, XQ_ERANGE or XQ_ENOMEM. */
int xqi_record_add_nag(struct xqi_record *g, uint32_t node, uint8_t nag);
/* The same unless the node has that NAG already (0 then): a mark added. */
int xqi_record_add_nag_once(struct xqi_record *g, uint32_t node, uint8_t nag);

/* A 64-bit fingerprint of the game as read: start, tags, result, the tree
 * with comments and NAGs.  Any change to the record changes it; its values
 * never change (xqkit annotate keeps them in the games it annotates, and
 * --resume recognises its games by them).  xq_record_fingerprint(). */
uint64_t xqi_record_fingerprint(const struct xqi_record *g);

/* The node after `n` in pre-order (node, its subtree, its later siblings),
 * or XQ_NO_NODE after the last. */
uint32_t xqi_record_next(const struct xqi_record *g, uint32_t n);
/* The same, keeping count of the ply: *ply holds the ply of `n` and
 * becomes that of the node returned, so a walk that needs plies does not
 * count from the root at every node. */
uint32_t xqi_record_next_ply(const struct xqi_record *g, uint32_t n, uint32_t *ply);
/* Number of plies from the root to `n`. */
uint32_t xqi_record_ply(const struct xqi_record *g, uint32_t n);
/* Were the moves of `g` written in traditional Chinese glyphs where its
 * source wrote them (the nodes' texts)?  1 when the first glyph of its
 * move texts that tells the scripts apart is traditional (車 馬 帥 將 進
 * 後 俥 傌 ...), 0 when it is simplified (车 马 帅 将 进 后), when none
 * tells (炮二平五) or when the moves are in another notation. */
int xqi_record_traditional(const struct xqi_record *g);
/* Number of moves in the main line, and its last node (the root if none). */
uint32_t xqi_record_mainline_length(const struct xqi_record *g);
uint32_t xqi_record_mainline_end(const struct xqi_record *g);
/* Counts over the whole tree. */
struct xqi_record_counts {
	uint32_t nodes;      /* move nodes (the root not counted) */
	uint32_t variations; /* nodes that are an alternative (not a first child) */
	uint32_t comments;   /* nodes with a comment or pre-comment, root included */
	uint32_t nags;       /* NAGs over all nodes */
	uint32_t max_depth;  /* longest line in plies */
};
void xqi_record_count(const struct xqi_record *g, struct xqi_record_counts *out);

/* The position after the move of node `n` (the start at the root). */
void xqi_record_board_at(const struct xqi_record *g, uint32_t n, struct xqi_position *out);

/*
 * A pre-order walk that keeps the position: after each successful
 * xqi_walk_next(), `node` is the current node, `before` the position before
 * its move and `after` the position after it.  Iterative; allocates a path
 * stack as deep as the longest line.
 */
struct xqi_walk {
	const struct xqi_record *g;
	uint32_t node;
	struct xqi_position before, after;
	uint32_t *path;         /* nodes from the root's first level down to `node` */
	struct xqi_undo *undo;   /* in step with path: undo of each move on `cur` */
	size_t depth, cap, undo_cap;
	struct xqi_position cur;    /* position after the last node on the path */
	int started;
};
int xqi_walk_init(struct xqi_walk *w, const struct xqi_record *g);
/* 1 moved to the next node, 0 at the end, XQ_ENOMEM. */
int xqi_walk_next(struct xqi_walk *w);
void xqi_walk_release(struct xqi_walk *w);

/*
 * The tree in the order move text reads it (PGN, HTML pages): a move,
 * then each alternative to it as a variation (whole, with its own
 * variations), then the move after it.  After xqi_textwalk_next() returns
 *   XQI_TEXT_MOVE   `node` is the move, `ply` its ply (counted as the walk
 *                  goes, not from the root) and `before` the position
 *                  before it (a copy the caller may use freely);
 *   XQI_TEXT_OPEN   a variation starts: its first move comes next;
 *   XQI_TEXT_CLOSE  the variation ended;
 * and 0 after the last move, or XQ_ENOMEM.  Each step costs constant
 * time; the stack is as deep as variations nest.
 */
enum { XQI_TEXT_MOVE = 1, XQI_TEXT_OPEN, XQI_TEXT_CLOSE };
struct xqi_textwalk_frame;
struct xqi_textwalk {
	const struct xqi_record *g;
	uint32_t node, ply;
	struct xqi_position before;
	struct xqi_textwalk_frame *stack;
	size_t depth, cap;
};
int xqi_textwalk_init(struct xqi_textwalk *t, const struct xqi_record *g);
int xqi_textwalk_next(struct xqi_textwalk *t);
void xqi_textwalk_release(struct xqi_textwalk *t);

/* What xqi_record_equal() leaves out: the public XQ_EQUAL_* (<xq/record.h>). */

/*
 * Compare two games: start position, tree (moves and shape), comments,
 * NAGs, tags and result, less what `ignore` says.  Move texts, source
 * places and the text of FEN tags (the start positions are compared) are
 * never compared; a start that could not be read compares by its text.  Returns 1 if equal; 0 otherwise with the
 * first difference described in `why` (cap bytes).
 */
int xqi_record_equal(const struct xqi_record *a, const struct xqi_record *b, unsigned ignore, char *why,
		  size_t cap);

/* "1-0", "0-1", "1/2-1/2", "*" (also for NONE), and the reverse (-1 if none). */
const char *xqi_result_string(enum xqi_result r);
int xqi_result_parse(const char *s, size_t len, enum xqi_result *out);

/*
 * A result as records write it, in `len` bytes of `s` (white space around
 * it is left out): PGN's markers as xqi_result_parse() reads them, and the
 * words that programs and people write in their place, read as what they
 * say:
 *   - Chinese, simplified or traditional: a side (红 紅 红方 紅方 黑 黑方,
 *     or 先/先手 for the side that moves first and 后/後/后手/後手 for the
 *     other), after a colour perhaps 先 or 后 (红先胜: red moves first and
 *     wins), then the outcome for that side: 胜 勝 赢 贏 获胜 獲勝 胜利
 *     勝利 (wins), 负 負 输 輸 败 敗 (loses), 和 和棋 和局 (draws); a draw
 *     needs no side (和 和棋 和局 平局); 未知 不详 不詳 say it is unknown.
 *     胜 or 负 alone names no side and is not read.
 *   - English, in any case: "red wins" (win, won), "black loses" (lose,
 *     lost, resigns, resigned), "red draws", "draw", "drawn", "draw
 *     game", "drawn game", "unknown"; a final '.' or '!' is left out.
 * `first` is the side that moves first in the game (XQI_RED or XQI_BLACK:
 * the side to move in its start position), whom 先 names.  Returns
 * XQI_RESULT_IS_STANDARD for one of "1-0", "0-1", "1/2-1/2", "*";
 * XQI_RESULT_IS_WORD for a word (½-½ too), with *out set; -1 when `s` is
 * neither.  (DhtmlXQ's W, L, D are that format's: formats/dhtmlxq.c.)
 */
enum { XQI_RESULT_IS_STANDARD = 0, XQI_RESULT_IS_WORD = 1 };
int xqi_result_word(const char *s, size_t len, int first, enum xqi_result *out);
/* A result and what it means, for what readers say of a word they read:
 * "1-0, red wins", "0-1, black wins", "1/2-1/2, a draw", "*, unknown". */
const char *xqi_result_meaning(enum xqi_result r);

#endif
