/*
 * notation.h: move text in every dialect, read and written exactly.
 *
 * Dialects:
 *   ICCS     h2e2, H2-E2 (files a-i from red's left, ranks 0-9 from red's side)
 *   UCI      h2e2 (the same squares, as Pikafish and UCCI engines write them)
 *   UCI1     h3e3, h10g8 (ranks 1-10, as Fairy-Stockfish writes them in UCI mode)
 *   WXF      C2.5, H8+7, R+.3, P3-.4 (file numbers from each side's own right)
 *   CHINESE  炮二平五, 马８进７, 前车进一, 车前平三, 前九平八
 *   SAN      XBoard/WinBoard SAN (Che2, Hc7, Cxb0; ranks 0-9), read only
 *
 * Reading happens in two phases.  xq_notation_parse() turns text into a
 * board-free move request (so each grammar can be fuzzed on its own);
 * xq_notation_resolve() finds the one legal move the request names in a
 * position (which gives front/rear, tandem pieces, side-relative files and
 * the colour: the colour always comes from the position, never from the
 * glyph).  A text that names no legal move, or more than one, is an error
 * that says which: no such piece on that file, the piece cannot move there
 * and why, or ambiguous between two named squares.  Never a guess.
 *
 * Writing takes the position before the move and produces the text; every
 * legal move of a position gets a text that reads back as exactly that
 * move, and no two legal moves share one.
 */
#ifndef XQ_LIB_NOTATION_H
#define XQ_LIB_NOTATION_H

#include <stddef.h>
#include <stdint.h>

#include "board.h"

struct xq_diag;

enum xq_notation {
	XQ_NOTATION_AUTO = 0, /* reading only: recognise the dialect from the text */
	XQ_NOTATION_ICCS,
	XQ_NOTATION_UCI,
	XQ_NOTATION_UCI1,
	XQ_NOTATION_WXF,
	XQ_NOTATION_CHINESE,
	XQ_NOTATION_SAN /* reading only */
};

/* Flags for writing (and, where it says so, reading). */
enum {
	XQ_NOTATION_TRADITIONAL = 1 << 0,  /* Chinese: 車 馬 砲 帥 將 進 後 ... */
	XQ_NOTATION_ASCII_DIGITS = 1 << 1, /* Chinese: black's files as 1-9, not full-width １-９ */
	XQ_NOTATION_UPPER = 1 << 2,        /* ICCS: upper case (H2E2) */
	XQ_NOTATION_DASH = 1 << 3,         /* ICCS: with a dash (H2-E2) */
	XQ_NOTATION_DPXQ_PAWNS = 1 << 4    /* Chinese: dpxq/technique convention for tandem pawns (前九平八) */
};

/* Longest text any writer produces, in bytes, with the NUL. */
#define XQ_MOVE_TEXT_MAX 32

/*
 * A move as the text names it, before looking at a board.  Coordinate
 * dialects fill `from` and `to`; descriptive ones (WXF, Chinese, SAN) fill
 * the piece, how it is singled out, and where it goes.
 */
struct xq_move_request {
	enum xq_notation dialect; /* what the text turned out to be */
	int8_t piece;             /* enum xq_piece_type, or -1 when the text leaves it open */
	/* Coordinates (ICCS, UCI, UCI1; SAN target and optional origin hints). */
	xq_sq from, to;           /* 0 when not given */
	int8_t from_file;         /* SAN disambiguation: file 0-8 or -1 */
	int8_t from_rank;         /* SAN disambiguation: rank 0-9 or -1 */
	uint8_t capture;          /* SAN 'x' */
	/* Descriptive notation (WXF, Chinese). */
	int8_t file;              /* 1-9 counted from the mover's right, or -1 */
	int8_t position;          /* tandem qualifier: see notation.c; 0 = none */
	int8_t second_file;       /* pawns on two files (WXF 3+.4, Chinese 二7平6): -1 if none */
	char direction;           /* '+' forward, '-' backward, '.' sideways, 0 for coordinates */
	int8_t target;            /* steps or destination file, 1-9 */
};

/*
 * Parse `len` bytes of `text` (UTF-8, not necessarily NUL-terminated) as a
 * move in `dialect` (XQ_NOTATION_AUTO recognises it).  Check marks and
 * annotation suffixes (+ # ! ?) after a coordinate or SAN move are not
 * part of the move and are rejected here; callers strip them.  Returns 0,
 * or XQ_EPARSE with the reason in `d` (code XQ_D_BAD_MOVE_TEXT).
 */
int xq_notation_parse(struct xq_move_request *out, const char *text, size_t len,
		      enum xq_notation dialect, struct xq_diag *d);

/*
 * Find the legal move `req` names in `b` (restored on return).  Returns 0,
 * or XQ_EILLEGAL / XQ_ENOTFOUND (XQ_D_ILLEGAL_MOVE) or XQ_EAMBIGUOUS
 * (XQ_D_AMBIGUOUS_MOVE) with a message that says why.
 */
int xq_notation_resolve(xq_move *out, struct xq_board *b, const struct xq_move_request *req,
			struct xq_diag *d);

/* Parse then resolve. */
int xq_notation_read(xq_move *out, struct xq_board *b, const char *text, size_t len,
		     enum xq_notation dialect, struct xq_diag *d);

/*
 * Write the legal move `m` of position `b` in `dialect` with `flags`, into
 * `out` (`cap` bytes, NUL-terminated).  Returns the length, or 0 if `m` is
 * not legal in `b` or the dialect cannot be written.  `b` is restored.
 */
size_t xq_notation_write(char *out, size_t cap, struct xq_board *b, xq_move m,
			 enum xq_notation dialect, unsigned flags);

/* The dialect a single move token looks like, or XQ_NOTATION_AUTO if none. */
enum xq_notation xq_notation_detect(const char *text, size_t len);

/* "iccs", "uci", "uci1", "wxf", "chinese", "san" (and "auto"), and back. */
const char *xq_notation_name(enum xq_notation n);
int xq_notation_from_name(const char *name, enum xq_notation *out);

#endif
