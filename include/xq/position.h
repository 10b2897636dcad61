/*
 * <xq/position.h>: positions, legal moves, move text in every notation,
 * FEN, perft.
 *
 * Squares are numbered 0..89: XQ_SQUARE(file, rank) with files 0..8 (a..i
 * in ICCS, from red's left) and ranks 0..9 (red's back rank is 0).  A move
 * is a code: XQ_MOVE_CODE(from, to); 0 is no move (a square does not move
 * to itself).
 *
 * Notations (dialects), read and written exactly (ICCS and UCI h2e2, UCI1
 * with ranks 1-10, WXF C2.5, Chinese 炮二平五 in simplified or traditional
 * glyphs; XBoard SAN read only).  Reading a text never guesses: a text
 * that names no legal move or more than one is an error that says which.
 *
 * A position is opaque and owned by the caller (xq_position_new(),
 * xq_position_free()).  One thread at a time per position.
 */
#ifndef XQ_PUBLIC_POSITION_H
#define XQ_PUBLIC_POSITION_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct xq_position xq_position;
typedef uint16_t xq_move_code;

#define XQ_SQUARE(file, rank) ((rank) * 9 + (file))
#define XQ_SQUARE_FILE(sq) ((sq) % 9)
#define XQ_SQUARE_RANK(sq) ((sq) / 9)
#define XQ_MOVE_CODE(from, to) ((xq_move_code)((unsigned)(from) | ((unsigned)(to) << 8)))
#define XQ_MOVE_CODE_FROM(m) ((m) & 0xff)
#define XQ_MOVE_CODE_TO(m) ((m) >> 8)

/* Bytes that always hold a FEN, a move's text, a position's legal moves. */
#define XQ_FEN_SIZE 128
#define XQ_MOVE_TEXT_SIZE 32
#define XQ_MOVES_MAX 128

/* Notations.  AUTO and SAN are read only; AUTO tells the dialect by the
 * text's shape (coordinates are read with ranks 0-9). */
enum xq_dialect {
	XQ_DIALECT_AUTO = 0,
	XQ_DIALECT_ICCS,
	XQ_DIALECT_UCI,
	XQ_DIALECT_UCI1,
	XQ_DIALECT_WXF,
	XQ_DIALECT_CHINESE,
	XQ_DIALECT_SAN
};

/* Flags for writing move text. */
enum {
	XQ_DIALECT_TRADITIONAL = 1 << 0,  /* Chinese: 車 馬 帥 將 進 後 ... */
	XQ_DIALECT_ASCII_DIGITS = 1 << 1, /* Chinese: black's files as 1-9, not １-９ */
	XQ_DIALECT_UPPER = 1 << 2,        /* ICCS: H2E2 */
	XQ_DIALECT_DASH = 1 << 3,         /* ICCS: H2-E2 */
	XQ_DIALECT_DPXQ_PAWNS = 1 << 4    /* Chinese: dpxq's words for tandem pawns */
};

/* "iccs", "uci", "uci1", "wxf", "chinese", "san", "auto"; NULL for a value
 * that is none of them.  Static. */
XQ_API const char *xq_dialect_name(int dialect);
/* The dialect called `name` (those names), or XQ_ENOTFOUND.  NULL `name`:
 * XQ_EINVAL. */
XQ_API int xq_dialect_from_name(const char *name);

/* A new position: the standard start.  NULL when out of memory. */
XQ_API xq_position *xq_position_new(void);
/* Free a position.  NULL is allowed. */
XQ_API void xq_position_free(xq_position *p);
/* A copy of `p`, or NULL when out of memory.  NULL `p`: NULL. */
XQ_API xq_position *xq_position_dup(const xq_position *p);

/* Make `dst` the same position as `src` (no allocation: for a stack of
 * positions along a line).  NULL `dst` or `src`: nothing done. */
XQ_API void xq_position_copy(xq_position *dst, const xq_position *src);
/* Set the standard start position.  NULL `p`: nothing done. */
XQ_API void xq_position_set_start(xq_position *p);
/*
 * Set the position of a FEN ("rnbakabnr/9/... w - - 0 1"; board-only and
 * two-field FENs are read; letters KABNRCP, E and H accepted).  The
 * position must be one that can occur (one king a side in its palace,
 * pieces on squares they can reach, the side not to move not in check).
 * Returns 0; or XQ_EPARSE / XQ_EILLEGAL, the position unchanged, with the
 * reason (its column in the FEN) in xq_position_error().
 * NULL `p` or `fen`: XQ_EINVAL.
 */
XQ_API int xq_position_set_fen(xq_position *p, const char *fen);
/* The same, but advisors, elephants and pawns may stand on squares they
 * can never reach (composed problems, old files, search patterns); kings
 * must still be in their palaces, counts within one set, and the side not
 * to move not in check.  NULL `p` or `fen`: XQ_EINVAL. */
XQ_API int xq_position_set_fen_lenient(xq_position *p, const char *fen);
/* The canonical FEN into `buf` (`cap` bytes; XQ_FEN_SIZE is enough),
 * NUL-terminated.  Returns its length, or 0 when `cap` is too small.
 * NULL `p` or `buf`: 0. */
XQ_API size_t xq_position_fen(const xq_position *p, char *buf, size_t cap);

/* 0 when red is to move, 1 when black is.  NULL `p`: XQ_EINVAL. */
XQ_API int xq_position_side(const xq_position *p);
/* The number of the move to be made, as FEN's last field counts (1 at
 * the start; it goes up after each black move).  NULL `p`: XQ_EINVAL. */
XQ_API int xq_position_move_number(const xq_position *p);
/* The FEN letter of the piece on `square` (KABNRCP red, kabnrcp black),
 * or 0 when the square is empty or not one.  NULL `p`: 0. */
XQ_API char xq_position_piece(const xq_position *p, int square);

/* How many pieces of each type stand on the board: counts[0..6] red's
 * kings, advisors, elephants, horses, rooks, cannons and pawns (the order
 * of the FEN letters KABNRCP), counts[7..13] black's.
 * NULL `p` or `counts`: nothing done. */
XQ_API void xq_position_material(const xq_position *p, int counts[14]);

/* The legal moves of the side to move into `out` (XQ_MOVES_MAX entries);
 * returns how many.  NULL `p` or `out`: XQ_EINVAL. */
XQ_API int xq_position_legal_moves(const xq_position *p, xq_move_code *out);
/* Is the side to move in check?  NULL `p`: 0. */
XQ_API int xq_position_in_check(const xq_position *p);
/* XQ_STATE_PLAYING, or the side to move has no legal move and has lost:
 * XQ_STATE_CHECKMATE (in check) or XQ_STATE_STALEMATE. */
enum xq_state { XQ_STATE_PLAYING = 0, XQ_STATE_CHECKMATE = 1, XQ_STATE_STALEMATE = 2 };
/* The position's state, one of those.  NULL `p`: XQ_EINVAL. */
XQ_API int xq_position_state(const xq_position *p);

/*
 * Make the move `m`.  Returns 0; or XQ_EILLEGAL with the reason ("the
 * horse's leg at c1 is blocked", "it leaves the red king in check") in
 * xq_position_error(), the position unchanged.  NULL `p`: XQ_EINVAL.
 */
XQ_API int xq_position_play(xq_position *p, xq_move_code m);
/*
 * The legal move `text` (UTF-8, NUL-terminated; check marks and
 * annotations after it, `+ # ! ?`, are ignored) names in `dialect`, into
 * *out.  Returns 0; or XQ_EPARSE (not a move in that notation),
 * XQ_ENOTFOUND / XQ_EILLEGAL (no piece, or it cannot move there: the
 * reason says which), XQ_EAMBIGUOUS (two moves fit: both named), with the
 * reason in xq_position_error().  NULL `p`, `text` or `out`: XQ_EINVAL.
 */
XQ_API int xq_position_read_move(xq_position *p, const char *text, int dialect, xq_move_code *out);
/* xq_position_read_move() then xq_position_play().  NULL `p` or `text`:
 * XQ_EINVAL. */
XQ_API int xq_position_play_text(xq_position *p, const char *text, int dialect);
/*
 * The text of the legal move `m` in `dialect` with `flags` (XQ_DIALECT_*),
 * into `buf` (`cap` bytes; XQ_MOVE_TEXT_SIZE is enough), NUL-terminated;
 * the text reads back as exactly `m`.  Returns its length; 0 (and "")
 * when `m` is not legal here, the dialect cannot be written (AUTO, SAN)
 * or `cap` is too small.  NULL `p` or `buf`: 0.
 */
XQ_API size_t xq_position_move_text(const xq_position *p, xq_move_code m, int dialect,
				    unsigned flags, char *buf, size_t cap);

/*
 * A 64-bit hash (Zobrist) of the pieces and the side to move: equal
 * positions have equal keys, different ones almost always different
 * keys, whatever the move counters.  The values stay the same within a
 * major version of the library: keys may be kept, but only for this
 * version.  NULL `p`: 0.
 */
XQ_API uint64_t xq_position_key(const xq_position *p);
/* Are `a` and `b` the same position: the same pieces on the same squares
 * and the same side to move (the move counters do not count)?
 * NULL `a` or `b`: 0. */
XQ_API int xq_position_same(const xq_position *a, const xq_position *b);
/* Mirror `p` left-right in place (file a <-> i); the side to move and the
 * move counters are kept.  A legal position stays legal.
 * NULL `p`: nothing done. */
XQ_API void xq_position_mirror(xq_position *p);
/* The move `m` mirrored left-right, as xq_position_mirror() mirrors a
 * position: the mirror of a legal move is legal in the mirrored position. */
XQ_API xq_move_code xq_move_code_mirror(xq_move_code m);
/* The ICCS name of move `m` from its squares alone ("h2e2": no position
 * needed) into `out`, NUL-terminated; "" for 0 or a square off the board.
 * Returns its length (4 or 0).  NULL `out`: 0. */
XQ_API size_t xq_move_code_iccs(xq_move_code m, char out[5]);

struct xq_cancel; /* a cancel flag: xq_cancel of <xq/io.h> */

/* The number of leaves of the legal move tree `depth` plies deep (perft;
 * 1 for a depth of 0 or less).  Allocates nothing; takes time exponential
 * in `depth`.  NULL `p`: 0. */
XQ_API uint64_t xq_position_perft(const xq_position *p, int depth);
/*
 * The same into *out, stopping when `cancel` is set (NULL: never), which
 * it looks at every few milliseconds, so that a program can stop a deep
 * count from another thread or a signal handler (xq_cancel_set()).
 * Returns 0 with *out the count; XQ_ECANCELED (*out the leaves counted so
 * far); XQ_ERANGE for a negative depth.  NULL `p` or `out`: XQ_EINVAL.
 */
XQ_API int xq_position_perft_cancel(const xq_position *p, int depth,
				    const struct xq_cancel *cancel, uint64_t *out);

/* The diagnostic of the last call on `p` that failed, or NULL.  Valid
 * until the next call on `p`.  NULL `p`: NULL. */
XQ_API const xq_diagnostic *xq_position_error(const xq_position *p);

#ifdef __cplusplus
}
#endif

#endif
