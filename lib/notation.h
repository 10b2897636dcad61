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
 *
 * What the parser accepts, dialect by dialect (full-width forms of ASCII
 * characters, U+FF01..U+FF5E, are read as their ASCII twins everywhere, so
 * `Ｃ２＝５` is `C2=5` and `ｈ２ｅ２` is `h2e2`):
 *
 *   ICCS, UCI  file letter a-i (either case), rank 0-9, an optional `-`,
 *              file, rank: `h2e2`, `H2-E2`.  UCI reads exactly what ICCS
 *              reads.  A square with rank 10 (`h10g8`) is an error that
 *              names the UCI1 dialect: it is never read as ranks 1-10
 *              unless UCI1 is asked for.
 *   UCI1       the same shape with ranks 1-10: `h3e3`, `h10g8`, `h10-g8`.
 *              Rank 0 is an error.
 *   WXF        piece letter (either case) K, A or G (advisor), E, B or M
 *              (elephant), H or N (horse), R, C, P; the file 1-9; the
 *              operator `+` forward, `-` backward, `.` or `=` sideways
 *              (or none at all for sideways: `C25`); the target 1-9.
 *              Tandem pieces: `+`/`-` for the file digit (`R+.3`,
 *              `C--1`), or before the letter (`+P+1`, `-R.4`); pawns:
 *              `++.4`/`--.4` (foremost/rearmost of four or five),
 *              `3+.4`, `33.4`, `3-.4` (pawns on two files: the file of
 *              the pawn, then its place; also `P3+.4`, `P3-.4`); the
 *              xqbase forms `P..5` (middle pawn) and `Pa.5`..`Pe.5`
 *              (first..fifth pawn).  As the WXF rules say, `P3.4` with
 *              three or five pawns on file 3 names the middle one.
 *   CHINESE    piece, file, direction, target, in simplified or
 *              traditional glyphs: 帅帥将將 仕士 相象 车車俥硨 马馬傌碼
 *              炮砲包 兵卒; 进進上 (forward) 退下 (back) 平 (sideways);
 *              files and targets as 一..九, ASCII or full-width digits,
 *              for either side.  Tandem pieces: 前/中/后/後 or 一..五
 *              before the piece (前车进一, 一兵平五), 前/中/后 after it
 *              (车前平三), before a file with the piece left out (the
 *              dpxq pawn form 前九平八, 二7平6), or before piece and file
 *              (前兵四平五); a digit 1-5 before the piece counts too
 *              (１卒平５).
 *   SAN        optional piece letter K A E H R C (B and N read as E and
 *              H, P optional; upper case only), optional origin file a-i
 *              and/or rank 0-9, optional `x`, target square: `Che2`,
 *              `Cxb0`, `exe6`, `Afe1`, `g5`.
 *   AUTO       the token's shape decides, as xq_notation_detect() says:
 *              CJK characters are Chinese; file-rank-file-rank is ICCS
 *              with ranks 0-9 (so `h3e3` is h3 to e3, and `h10g8` is an
 *              error naming UCI1), except an upper-case letter followed
 *              by a lower-case file (`A9e8`), which is SAN (the advisor
 *              from rank 9 to e8); a WXF shape is WXF; what else fits is
 *              SAN.  The shapes do not overlap otherwise.
 *
 * No dialect's move ends in `+ # ! ?`, so check marks and annotations
 * after a move are never part of it: xq_notation_parse() rejects them,
 * and callers cut them off with xq_notation_strip_suffix() first (which is
 * safe for WXF too, where `+` and `-` inside the text are operators).
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

/* Flags for writing (none changes how text is read). */
enum {
	XQ_NOTATION_TRADITIONAL = 1 << 0,  /* Chinese: 車 馬 帥 將 進 後 ... */
	XQ_NOTATION_ASCII_DIGITS = 1 << 1, /* Chinese: black's files as 1-9, not full-width １-９ */
	XQ_NOTATION_UPPER = 1 << 2,        /* ICCS: upper case (H2E2) */
	XQ_NOTATION_DASH = 1 << 3,         /* ICCS: with a dash (H2-E2) */
	XQ_NOTATION_DPXQ_PAWNS = 1 << 4,   /* Chinese: dpxq/technique convention for tandem pawns (前九平八) */
	/* Any dialect: the caller vouches that the move is legal (it was just
	 * read or generated), so the writer skips its legality test, most of
	 * its cost.  A move that is not legal then gets a text that may not
	 * read back, but never undefined behaviour: the writer still refuses
	 * a move whose origin holds no piece of the side to move. */
	XQ_NOTATION_KNOWN_LEGAL = 1 << 5
};

/* Longest text any writer produces, in bytes, with the NUL. */
#define XQ_MOVE_TEXT_MAX 32

/*
 * How a descriptive move singles out one of several pieces of a kind on
 * a file (the "tandem" pieces).  Counting is always from the front, the
 * side nearer the enemy: for black that is the side nearer red.  When the
 * request gives no file, the piece is looked for on every file that holds
 * two or more of the kind; the numbered forms then count those pieces file
 * by file from the mover's right, front to back within a file (xqbase).
 */
enum xq_tandem {
	XQ_TANDEM_NONE = 0,
	/* 1..5: the first..fifth piece (一..五, xqbase WXF a..e, dpxq 二三四五) */
	XQ_TANDEM_FRONT = 8,      /* 前: the frontmost of two or more */
	XQ_TANDEM_MIDDLE,         /* 中, xqbase WXF `.`, WXF `33`: the middle of three or five */
	XQ_TANDEM_REAR,           /* 后/後: the rearmost */
	XQ_TANDEM_WXF_FRONT,      /* WXF `P+`: front of two or three, second of four or five */
	XQ_TANDEM_WXF_REAR,       /* WXF `P-`: rear of two or three, second-rearmost of four or five */
	XQ_TANDEM_WXF_FOREMOST,   /* WXF `++`: the foremost */
	XQ_TANDEM_WXF_REARMOST,   /* WXF `--`: the rearmost */
	XQ_TANDEM_PREFIX_FRONT,   /* `+P`: front of two or three; ambiguous with four or five */
	XQ_TANDEM_PREFIX_REAR     /* `-P`: rear of two or three; ambiguous with four or five */
};

/*
 * A move as the text names it, before looking at a board.  Coordinate
 * dialects fill `from` and `to`; descriptive ones (WXF, Chinese) fill the
 * piece, how it is singled out, and where it goes; SAN fills the piece,
 * `to` and the origin hints.
 */
struct xq_move_request {
	enum xq_notation dialect; /* what the text turned out to be (never AUTO) */
	int8_t piece;             /* enum xq_piece_type; -1 for coordinates */
	/* Coordinates (ICCS, UCI, UCI1; SAN target). */
	xq_sq from, to;           /* 0 when not given */
	int8_t from_file;         /* SAN origin hint: file 0-8 (a-i) or -1 */
	int8_t from_rank;         /* SAN origin hint: rank 0-9 or -1 */
	uint8_t capture;          /* SAN 'x' */
	/* Descriptive notation (WXF, Chinese). */
	int8_t file;              /* 1-9 counted from the mover's right, or -1 */
	int8_t position;          /* enum xq_tandem, or 1..5 for the nth piece */
	char direction;           /* '+' forward, '-' backward, '.' sideways, 0 for coordinates */
	int8_t target;            /* steps, or destination file, 1-9 */
};

/*
 * Parse `len` bytes of `text` (UTF-8, not necessarily NUL-terminated) as a
 * move in `dialect` (XQ_NOTATION_AUTO recognises it as xq_notation_detect
 * does, reading coordinates as ICCS with ranks 0-9).  The whole text must
 * be the move: no spaces, no check marks or annotations (see the grammar
 * above and xq_notation_strip_suffix).  Returns 0, or XQ_EPARSE with the
 * reason in `d` (code XQ_D_BAD_MOVE_TEXT; `d` may be NULL).
 */
int xq_notation_parse(struct xq_move_request *out, const char *text, size_t len,
		      enum xq_notation dialect, struct xq_diag *d);

/*
 * Find the legal move `req` names in `b` (restored on return).  Returns
 * 0; or XQ_ENOTFOUND (XQ_D_ILLEGAL_MOVE) when the text names no piece
 * ("there is no red rook on file 2"); XQ_EILLEGAL (XQ_D_ILLEGAL_MOVE)
 * when the piece cannot make the move, with the reason (horse leg,
 * elephant eye, river, palace, screen, check, facing kings, off the
 * board); XQ_EAMBIGUOUS (XQ_D_AMBIGUOUS_MOVE) when two legal moves fit,
 * naming both.  A text matches a move when it designates the piece under
 * the dialect's rules and the piece can make the move: so 仕四进五 with two
 * advisors on file 4 names the one that can go forward, and 车二进三 with
 * two rooks on file 2 is read when only one of them can go there.
 */
int xq_notation_resolve(xq_move *out, struct xq_board *b, const struct xq_move_request *req,
			struct xq_diag *d);

/* Parse then resolve; on error `d` also carries the text (d->move). */
int xq_notation_read(xq_move *out, struct xq_board *b, const char *text, size_t len,
		     enum xq_notation dialect, struct xq_diag *d);
/* The same, told whether the side to move is in check (1 or 0, -1 not
 * known), as xq_move_check_hinted() is: a reader that follows a game
 * knows it from the move before (xq_board_check_after()). */
int xq_notation_read_hinted(xq_move *out, struct xq_board *b, const char *text, size_t len,
			    enum xq_notation dialect, int in_check, struct xq_diag *d);

/*
 * Write the legal move `m` of position `b` in `dialect` with `flags`, into
 * `out` (`cap` bytes, NUL-terminated; XQ_MOVE_TEXT_MAX is always enough).
 * Returns the length, or 0 (and an empty string when cap > 0) if `m` is
 * not legal in `b` (see XQ_NOTATION_KNOWN_LEGAL), the dialect cannot be
 * written (AUTO, SAN) or `cap` is too small.  `b` is restored.  Allocates
 * nothing.
 *
 * ICCS honours XQ_NOTATION_UPPER and XQ_NOTATION_DASH; UCI and UCI1 are
 * always lower case without a dash.  WXF follows the official WXF rules
 * for tandem pieces (R+.3; pawns P+ P3 P- with three on a file, ++ P+ P-
 * -- with four, ++ P+ P3 P- -- with five, 3+.4 33.4 3-.4 on two files)
 * and writes `.` for sideways.  Chinese follows xqbase (前/后, 前/中/后,
 * 一..五 for four or five pawns on a file or pawns on two files), or with
 * XQ_NOTATION_DPXQ_PAWNS the dpxq convention (前/中/后, 前二三四, 前二三四五;
 * 前九平八 with pawns on two files); red files are 一..九, black's are
 * full-width １..９ or, with XQ_NOTATION_ASCII_DIGITS, 1..9.
 */
size_t xq_notation_write(char *out, size_t cap, struct xq_board *b, xq_move m,
			 enum xq_notation dialect, unsigned flags);

/*
 * The dialect a single move token looks like, or XQ_NOTATION_AUTO if none
 * (move numbers, results, NAGs, words).  Check marks and annotations after
 * the move are ignored.  A coordinate token gives XQ_NOTATION_ICCS (which
 * also covers UCI; `h3e3` fits ranks 0-9 and 1-10 alike and is reported as
 * ICCS), or XQ_NOTATION_UCI1 only when it names rank 10 and no rank 0,
 * which fits ranks 1-10 alone: evidence for a caller to report, since
 * reading never switches to UCI1 by itself.
 */
enum xq_notation xq_notation_detect(const char *text, size_t len);

/*
 * Length of `text` without the check marks and annotations that may
 * follow a move: any run of `+ # ! ?` (ASCII or full-width) at the end.
 * `C2.5+` gives 4, `h2e2!?` 4, `R+.3` 4.
 */
size_t xq_notation_strip_suffix(const char *text, size_t len);

/* "iccs", "uci", "uci1", "wxf", "chinese", "san" (and "auto"), and back;
 * xq_notation_from_name returns 0 or XQ_ENOTFOUND. */
const char *xq_notation_name(enum xq_notation n);
int xq_notation_from_name(const char *name, enum xq_notation *out);

#endif
