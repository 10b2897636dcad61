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
#ifndef XQI_LIB_MOVEGEN_H
#define XQI_LIB_MOVEGEN_H

#include <stdint.h>

#include "position.h"

struct xq_diagnostic;

/*
 * Pseudo-legal moves of the side to move (they obey how each piece moves
 * but may leave the king attacked), written to `out`, which must hold
 * XQ_MOVES_MAX; returns how many.
 */
int xqi_gen_pseudo(const struct xqi_position *b, xqi_move *out);
/* The captures among the pseudo-legal moves. */
int xqi_gen_pseudo_captures(const struct xqi_position *b, xqi_move *out);

/*
 * Legal moves of the side to move into `out` (XQ_MOVES_MAX entries);
 * returns how many.  `b` is used as scratch for some legality tests and is
 * exactly restored before returning.
 */
int xqi_gen_legal(struct xqi_position *b, xqi_move *out);
/* The legal captures. */
int xqi_gen_legal_captures(struct xqi_position *b, xqi_move *out);

/* Does the pseudo-legal move `m` keep the mover's king safe?  (Restores b.) */
int xqi_move_keeps_king_safe(struct xqi_position *b, xqi_move m);

/*
 * Is `m` (any 16-bit value) a legal move for the side to move?  Returns 0
 * if it is, otherwise XQ_EILLEGAL with the reason in `d` ("the horse's leg
 * at c1 is blocked", "it leaves the red king in check", ...).
 */
int xqi_move_check(struct xqi_position *b, xqi_move m, struct xq_diagnostic *d);

/*
 * xqi_move_check() told whether the side to move is in check: `in_check`
 * 1 or 0, or -1 when not known (then it is xqi_move_check()).  When the
 * side is not in check, a move of another piece than the king that
 * neither leaves nor enters the king's rank or file, and does not leave a
 * point diagonally next to the king (where a horse's leg would be), cannot
 * expose the king, and is checked without making it.  A wrong `in_check`
 * gives wrong answers: pass what xqi_position_in_check() or
 * xqi_position_check_after() said of this very position.
 */
int xqi_move_check_hinted(struct xqi_position *b, xqi_move m, int in_check, struct xq_diagnostic *d);

/*
 * Is the side to move in check, in position `b` reached by the legal move
 * `last` from a position where that side was not in check (as in every
 * game from a valid start, whose side not to move is never in check)?
 * The same answer as xqi_position_in_check(), found without looking when
 * `last` went nowhere near the king: only a piece that left a point on
 * the king's rank or file or diagonally next to it, or that arrived on
 * the king's rank or file or a horse's step from it, can give check.
 */
int xqi_position_check_after(const struct xqi_position *b, xqi_move last);

/* Is `m` one of the legal moves?  (Restores b.) */
int xqi_move_is_legal(struct xqi_position *b, xqi_move m);

/* Does making `m` give check?  `m` must be legal.  (Restores b.) */
int xqi_move_gives_check(struct xqi_position *b, xqi_move m);

/* The states (enum xq_state) are the public XQ_STATE_* (<xq/position.h>). */
enum xq_state xqi_position_status(struct xqi_position *b);

/*
 * Count the leaves of the legal move tree `depth` plies deep (the last ply
 * is counted from the move list, not made).  Allocates nothing.
 */
uint64_t xqi_perft(struct xqi_position *b, int depth);

#endif
