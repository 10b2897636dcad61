/*
 * movegen.h: legal moves, check, mate and stalemate, perft.
 *
 * The rules: kings and advisors stay in the palace (advisors on its
 * diagonals), elephants move two points diagonally unless the "eye" between
 * is occupied and never cross the river, horses move one point straight then
 * one diagonally unless the "leg" next to them is occupied, rooks slide,
 * cannons slide to move and jump over exactly one piece (the screen) to
 * capture, pawns step forward and, once across the river, sideways; no move
 * may leave one's own king attacked or facing the other king on an open
 * file (the flying-general rule).  A side with no legal move has lost,
 * whether it is in check (checkmate) or not (stalemate).
 *
 * Repetition, perpetual check and chase are rulings on a game's history
 * and live in rules.h, not here.
 */
#ifndef XQ_LIB_MOVEGEN_H
#define XQ_LIB_MOVEGEN_H

#include <stdint.h>

#include "board.h"

struct xq_diag;

/*
 * Pseudo-legal moves of the side to move (they obey how each piece moves
 * but may leave the king attacked), written to `out`, which must hold
 * XQ_MAX_MOVES; returns how many.
 */
int xq_gen_pseudo(const struct xq_board *b, xq_move *out);
/* The captures among the pseudo-legal moves. */
int xq_gen_pseudo_captures(const struct xq_board *b, xq_move *out);

/*
 * Legal moves of the side to move into `out` (XQ_MAX_MOVES entries);
 * returns how many.  `b` is used as scratch for some legality tests and is
 * exactly restored before returning.
 */
int xq_gen_legal(struct xq_board *b, xq_move *out);
/* The legal captures. */
int xq_gen_legal_captures(struct xq_board *b, xq_move *out);

/* Does the pseudo-legal move `m` keep the mover's king safe?  (Restores b.) */
int xq_move_keeps_king_safe(struct xq_board *b, xq_move m);

/*
 * Is `m` (any 16-bit value) a legal move for the side to move?  Returns 0
 * if it is, otherwise XQ_EILLEGAL with the reason in `d` ("the horse's leg
 * at c1 is blocked", "it leaves the red king in check", ...).
 */
int xq_move_check(struct xq_board *b, xq_move m, struct xq_diag *d);

/*
 * xq_move_check() told whether the side to move is in check: `in_check`
 * 1 or 0, or -1 when not known (then it is xq_move_check()).  When the
 * side is not in check, a move of another piece than the king that
 * neither leaves nor enters the king's rank or file, and does not leave a
 * point diagonally next to the king (where a horse's leg would be), cannot
 * expose the king, and is checked without making it.  A wrong `in_check`
 * gives wrong answers: pass what xq_board_in_check() or
 * xq_board_check_after() said of this very position.
 */
int xq_move_check_hinted(struct xq_board *b, xq_move m, int in_check, struct xq_diag *d);

/*
 * Is the side to move in check, in position `b` reached by the legal move
 * `last` from a position where that side was not in check (as in every
 * game from a valid start, whose side not to move is never in check)?
 * The same answer as xq_board_in_check(), found without looking when
 * `last` went nowhere near the king: only a piece that left a point on
 * the king's rank or file or diagonally next to it, or that arrived on
 * the king's rank or file or a horse's step from it, can give check.
 */
int xq_board_check_after(const struct xq_board *b, xq_move last);

/* Is `m` one of the legal moves?  (Restores b.) */
int xq_move_is_legal(struct xq_board *b, xq_move m);

/* Does making `m` give check?  `m` must be legal.  (Restores b.) */
int xq_move_gives_check(struct xq_board *b, xq_move m);

enum xq_status {
	XQ_PLAYING,   /* the side to move has a legal move */
	XQ_CHECKMATE, /* no legal move, in check: the side to move has lost */
	XQ_STALEMATE  /* no legal move, not in check: also lost in xiangqi */
};
enum xq_status xq_board_status(struct xq_board *b);

/*
 * Count the leaves of the legal move tree `depth` plies deep (the last ply
 * is counted from the move list, not made).  Allocates nothing.
 */
uint64_t xq_perft(struct xq_board *b, int depth);

#endif
