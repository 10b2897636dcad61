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
 * Reading happens in two phases.  xqi_notation_parse() turns text into a
 * board-free move request (so each grammar can be fuzzed on its own);
 * xqi_notation_resolve() finds the one legal move the request names in a
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
 *   AUTO       the token's shape decides, as xqi_notation_detect() says:
 *              CJK characters are Chinese; file-rank-file-rank is ICCS
 *              with ranks 0-9 (so `h3e3` is h3 to e3, and `h10g8` is an
 *              error naming UCI1), except an upper-case letter followed
 *              by a lower-case file (`A9e8`), which is SAN (the advisor
 *              from rank 9 to e8); a WXF shape is WXF; what else fits is
 *              SAN.  The shapes do not overlap otherwise.
 *
 * No dialect's move ends in `+ # ! ?`, so check marks and annotations
 * after a move are never part of it: xqi_notation_parse() rejects them,
 * and callers cut them off with xqi_notation_strip_suffix() first (which is
 * safe for WXF too, where `+` and `-` inside the text are operators).
 */
#ifndef XQI_LIB_NOTATION_H
#define XQI_LIB_NOTATION_H

#include <stddef.h>
#include <stdint.h>

#include <xq/position.h>

#include "position.h"

struct xq_diagnostic;

/* The dialects (enum xq_dialect, XQ_DIALECT_*) and the flags for writing
 * move text are the public API's (<xq/position.h>); one more here: */
enum {
	/* Any dialect: the caller vouches that the move is legal (it was just
	 * read or generated), so the writer skips its legality test, most of
	 * its cost.  A move that is not legal then gets a text that may not
	 * read back, but never undefined behaviour: the writer still refuses
	 * a move whose origin holds no piece of the side to move. */
	XQI_DIALECT_KNOWN_LEGAL = 1 << 5
};

/* The longest text any writer produces, in bytes with the NUL, is the
 * public XQ_MOVE_TEXT_SIZE. */

/*
 * How a descriptive move singles out one of several pieces of a kind on
 * a file (the "tandem" pieces).  Counting is always from the front, the
 * side nearer the enemy: for black that is the side nearer red.  When the
 * request gives no file, the piece is looked for on every file that holds
 * two or more of the kind; the numbered forms then count those pieces file
 * by file from the mover's right, front to back within a file (xqbase).
 */
enum xqi_tandem {
	XQI_TANDEM_NONE = 0,
	/* 1..5: the first..fifth piece (一..五, xqbase WXF a..e, dpxq 二三四五) */
	XQI_TANDEM_FRONT = 8,      /* 前: the frontmost of two or more */
	XQI_TANDEM_MIDDLE,         /* 中, xqbase WXF `.`, WXF `33`: the middle of three or five */
	XQI_TANDEM_REAR,           /* 后/後: the rearmost */
	XQI_TANDEM_WXF_FRONT,      /* WXF `P+`: front of two or three, second of four or five */
	XQI_TANDEM_WXF_REAR,       /* WXF `P-`: rear of two or three, second-rearmost of four or five */
	XQI_TANDEM_WXF_FOREMOST,   /* WXF `++`: the foremost */
	XQI_TANDEM_WXF_REARMOST,   /* WXF `--`: the rearmost */
	XQI_TANDEM_PREFIX_FRONT,   /* `+P`: front of two or three; ambiguous with four or five */
	XQI_TANDEM_PREFIX_REAR     /* `-P`: rear of two or three; ambiguous with four or five */
};

/*
 * A move as the text names it, before looking at a board.  Coordinate
 * dialects fill `from` and `to`; descriptive ones (WXF, Chinese) fill the
 * piece, how it is singled out, and where it goes; SAN fills the piece,
 * `to` and the origin hints.
 */
struct xqi_move_request {
	enum xq_dialect dialect; /* what the text turned out to be (never AUTO) */
	int8_t piece;             /* enum xqi_piece_type; -1 for coordinates */
	/* Coordinates (ICCS, UCI, UCI1; SAN target). */
	xqi_sq from, to;           /* 0 when not given */
	int8_t from_file;         /* SAN origin hint: file 0-8 (a-i) or -1 */
	int8_t from_rank;         /* SAN origin hint: rank 0-9 or -1 */
	uint8_t capture;          /* SAN 'x' */
	/* Descriptive notation (WXF, Chinese). */
	int8_t file;              /* 1-9 counted from the mover's right, or -1 */
	int8_t position;          /* enum xqi_tandem, or 1..5 for the nth piece */
	char direction;           /* '+' forward, '-' backward, '.' sideways, 0 for coordinates */
	int8_t target;            /* steps, or destination file, 1-9 */
};

/*
 * Parse `len` bytes of `text` (UTF-8, not necessarily NUL-terminated) as a
 * move in `dialect` (XQ_DIALECT_AUTO recognises it as xqi_notation_detect
 * does, reading coordinates as ICCS with ranks 0-9).  The whole text must
 * be the move: no spaces, no check marks or annotations (see the grammar
 * above and xqi_notation_strip_suffix).  Returns 0, or XQ_EPARSE with the
 * reason in `d` (code XQI_D_BAD_MOVE_TEXT; `d` may be NULL).
 */
int xqi_notation_parse(struct xqi_move_request *out, const char *text, size_t len,
		      enum xq_dialect dialect, struct xq_diagnostic *d);

/*
 * Find the legal move `req` names in `b` (restored on return).  Returns
 * 0; or XQ_ENOTFOUND (XQI_D_ILLEGAL_MOVE) when the text names no piece
 * ("there is no red rook on file 2"); XQ_EILLEGAL (XQI_D_ILLEGAL_MOVE)
 * when the piece cannot make the move, with the reason (horse leg,
 * elephant eye, river, palace, screen, check, facing kings, off the
 * board); XQ_EAMBIGUOUS (XQI_D_AMBIGUOUS_MOVE) when two legal moves fit,
 * naming both.  A text matches a move when it designates the piece under
 * the dialect's rules and the piece can make the move: so 仕四进五 with two
 * advisors on file 4 names the one that can go forward, and 车二进三 with
 * two rooks on file 2 is read when only one of them can go there.
 */
int xqi_notation_resolve(xqi_move *out, struct xqi_position *b, const struct xqi_move_request *req,
			struct xq_diagnostic *d);

/* Parse then resolve; on error `d` also carries the text (d->move). */
int xqi_notation_read(xqi_move *out, struct xqi_position *b, const char *text, size_t len,
		     enum xq_dialect dialect, struct xq_diagnostic *d);
/* The same, told whether the side to move is in check (1 or 0, -1 not
 * known), as xqi_move_check_hinted() is: a reader that follows a game
 * knows it from the move before (xqi_position_check_after()). */
int xqi_notation_read_hinted(xqi_move *out, struct xqi_position *b, const char *text, size_t len,
			    enum xq_dialect dialect, int in_check, struct xq_diagnostic *d);

/*
 * Write the legal move `m` of position `b` in `dialect` with `flags`, into
 * `out` (`cap` bytes, NUL-terminated; XQ_MOVE_TEXT_SIZE is always enough).
 * Returns the length, or 0 (and an empty string when cap > 0) if `m` is
 * not legal in `b` (see XQI_DIALECT_KNOWN_LEGAL), the dialect cannot be
 * written (AUTO, SAN) or `cap` is too small.  `b` is restored.  Allocates
 * nothing.
 *
 * ICCS honours XQ_DIALECT_UPPER and XQ_DIALECT_DASH; UCI and UCI1 are
 * always lower case without a dash.  WXF follows the official WXF rules
 * for tandem pieces (R+.3; pawns P+ P3 P- with three on a file, ++ P+ P-
 * -- with four, ++ P+ P3 P- -- with five, 3+.4 33.4 3-.4 on two files)
 * and writes `.` for sideways.  Chinese follows xqbase (前/后, 前/中/后,
 * 一..五 for four or five pawns on a file or pawns on two files), or with
 * XQ_DIALECT_DPXQ_PAWNS the dpxq convention (前/中/后, 前二三四, 前二三四五;
 * 前九平八 with pawns on two files); red files are 一..九, black's are
 * full-width １..９ or, with XQ_DIALECT_ASCII_DIGITS, 1..9.
 */
size_t xqi_notation_write(char *out, size_t cap, struct xqi_position *b, xqi_move m,
			 enum xq_dialect dialect, unsigned flags);

/*
 * The dialect a single move token looks like, or XQ_DIALECT_AUTO if none
 * (move numbers, results, NAGs, words).  Check marks and annotations after
 * the move are ignored.  A coordinate token gives XQ_DIALECT_ICCS (which
 * also covers UCI; `h3e3` fits ranks 0-9 and 1-10 alike and is reported as
 * ICCS), or XQ_DIALECT_UCI1 only when it names rank 10 and no rank 0,
 * which fits ranks 1-10 alone: evidence for a caller to report, since
 * reading never switches to UCI1 by itself.
 */
enum xq_dialect xqi_notation_detect(const char *text, size_t len);

/*
 * Length of `text` without the check marks and annotations that may
 * follow a move: any run of `+ # ! ?` (ASCII or full-width) at the end.
 * `C2.5+` gives 4, `h2e2!?` 4, `R+.3` 4.
 */
size_t xqi_notation_strip_suffix(const char *text, size_t len);

/* "iccs", "uci", "uci1", "wxf", "chinese", "san" (and "auto"), and back;
 * xqi_notation_from_name returns 0 or XQ_ENOTFOUND. */
const char *xqi_notation_name(enum xq_dialect n);
int xqi_notation_from_name(const char *name, enum xq_dialect *out);

/* 0 when the notation's own tables are well formed (each Chinese glyph
 * found by the hash that reading looks it up with), -1 when not. */
int xqi_notation_check(void);

#endif
