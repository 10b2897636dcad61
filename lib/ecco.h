/*
 * ecco.h: ECCO, the standard classification of xiangqi openings
 * (象棋百科全书 / "Encyclopedia of Chinese Chess Openings"): a code A00..E99,
 * an opening name and sometimes a variation for every game played from
 * the standard start position, decided by its first 20 plies.
 *
 *   A  非中炮类开局  flank openings: 飞相局, 仕角炮, 过宫炮, 起马局 ...
 *   B  中炮对非屏风马  central cannon against other defences
 *   C  中炮对屏风马  central cannon against the screen horses
 *   D  顺炮 / 列炮  same- and opposite-direction cannons
 *   E  仙人指路 / 对兵  pawn openings
 *
 * A game whose start is not the standard position (an endgame study, a
 * game taken up half way) is A00 with the opening name 残局, as in the
 * reference implementation; a game from the start with no moves, or one
 * whose first move the table does not know, is A00 其他开局.
 *
 * Everything here is a pure function of its arguments over const tables:
 * no allocation, no state, safe to call from any number of threads.  The
 * strings returned are static and live as long as the program.
 */
#ifndef XQI_LIB_ECCO_H
#define XQI_LIB_ECCO_H

#include <stddef.h>
#include <stdint.h>

#include "position.h"

struct xq_diagnostic;
struct xqi_record;

/* A code and its names.  All three are static UTF-8 strings. */
struct xqi_ecco {
	const char *code;      /* "C45" */
	const char *opening;   /* "中炮过河车互进七兵对屏风马平炮兑车" */
	const char *variation; /* "红左边炮对黑退边炮上右士", or "" when the code has none */
};

/* How many plies decide the classification; later moves are not looked at. */
#define XQ_ECCO_PLIES 20

/*
 * Classify the game that starts at `start` and plays `moves[0..n)`.  Only
 * the first XQ_ECCO_PLIES moves are read (none when the start is not the
 * standard position).  The moves must be legal in turn, as the moves of a
 * game tree are; they are not checked for legality, only that each moves
 * a piece of the side to move onto a square that side does not hold, so
 * that a wrong array is reported rather than classified.
 *
 * Returns 0 with *out set, or XQ_EILLEGAL (XQI_D_ILLEGAL_MOVE, with the
 * 1-based ply in `d`) for such a move, or XQ_EINTERNAL if the rule table
 * is broken (xqi_ecco_check() says how).  `d` may be NULL.
 */
int xqi_ecco_classify(const struct xqi_ecco **out, const struct xqi_position *start,
		     const xqi_move *moves, size_t n, struct xq_diagnostic *d);

/* The same for the main line of a game (its start and first children). */
int xqi_ecco_classify_game(const struct xqi_ecco **out, const struct xqi_record *g,
			  struct xq_diagnostic *d);

/*
 * The names of `code` (len bytes, exactly three: "C45"), or NULL when it
 * is not a code or the published table gives it no name (A09, C87, E99
 * ...).  "A00" gives 其他开局, never 残局.
 */
const struct xqi_ecco *xqi_ecco_lookup(const char *code, size_t len);

/* Every named code, in order (A00 first), and how many there are. */
const struct xqi_ecco *xqi_ecco_names(size_t *count);

/*
 * Codes as numbers: A00..E99 are 0..499 (letter * 100 + number), so that
 * a caller can count or filter by code with an array.  xqi_ecco_index()
 * returns -1 when `code` (len bytes) is not of the form A00..E99.
 */
#define XQI_ECCO_CODES 500
int xqi_ecco_index(const char *code, size_t len);

/* A set of codes, as `find --ecco` and `stats` take them. */
struct xqi_ecco_set {
	uint64_t bits[(XQI_ECCO_CODES + 63) / 64];
};

/*
 * Parse a list of codes and groups separated by commas, no spaces:
 *   A        a letter: A00-A99
 *   C1       a letter and a digit: C10-C19
 *   C45      one code
 *   C10-C19  a range of two full codes, the first not after the second
 *   A00-B99  ranges may span letters
 *   C1,D5    any mix of the above
 * Letters are A to E, in capitals.  Returns 0 and fills `out`, or
 * XQ_EPARSE (XQI_D_SYNTAX) with the place of the first character that does
 * not fit (place.col 1-based in characters, place.offset in bytes) and
 * what was expected there.  `out` is untouched on error.
 */
int xqi_ecco_set_parse(struct xqi_ecco_set *out, const char *text, size_t len,
		      struct xq_diagnostic *d);

/* Is code number `index` in the set?  (0 for an index out of range.) */
int xqi_ecco_set_has(const struct xqi_ecco_set *set, int index);

/*
 * For tests: check that the rule table is well formed (every move written
 * as WXF, every link to a node that exists, no loop, every node reachable,
 * scan-only steps used only inside a scan).  Returns 0, or XQ_EINTERNAL
 * with what is wrong in `d`.
 */
int xqi_ecco_check(struct xq_diagnostic *d);

#endif
