/*
 * <xq/ecco.h>: ECCO, the standard classification of xiangqi openings
 * (象棋百科全书): a code A00..E99, an opening name and sometimes a
 * variation, decided by a game's first 20 plies from the standard start,
 * as `xqkit validate --ecco`, `convert --ecco`, `find --ecco` and `stats`
 * give it.
 *
 *   A  非中炮类开局  flank openings        B  中炮对非屏风马
 *   C  中炮对屏风马  screen horses          D  顺炮 / 列炮
 *   E  仙人指路 / 对兵  pawn openings
 *
 * A game whose start is not the standard position is A00 with the
 * opening 残局; one from the start with no move, or whose first move the
 * table does not know, is A00 其他开局.
 *
 * The strings given are static UTF-8 and live as long as the program; the
 * functions use no global state and may be called from any thread.
 */
#ifndef XQ_PUBLIC_ECCO_H
#define XQ_PUBLIC_ECCO_H

#include <stddef.h>

#include "position.h"
#include "record.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How many plies decide an opening; later moves are not looked at.  (The
 * library's sources define it too, the same: a difference fails to
 * build.) */
#define XQ_ECCO_PLIES 20

/*
 * The ECCO classification of the main line of `r`: its code ("C45") into
 * *code, its opening's name into *opening and its variation ("" when the
 * code has none) into *variation; any of the three may be NULL.  Returns
 * 0; XQ_ENOTFOUND for a broken record (xq_record_is_broken()) whose
 * start position could not be read or whose main line stops before its
 * 20th ply, since what was read of it does not decide its opening; or
 * XQ_EINTERNAL (a bug: the library's rule table is broken); the reason
 * in xq_record_error().  NULL `r`: XQ_EINVAL.
 */
XQ_API int xq_record_ecco(xq_record *r, const char **code, const char **opening, const char **variation);

/*
 * The names of ECCO code `code` ("C45": a capital A-E and two digits):
 * the opening into *opening and the variation ("" when none) into
 * *variation (either may be NULL).  Returns 0, or XQ_ENOTFOUND when
 * `code` is not a code or the published table names none (A09, C87,
 * E99...).  "A00" names 其他开局.  NULL `code`: XQ_EINVAL.
 */
XQ_API int xq_ecco_name(const char *code, const char **opening, const char **variation);

/*
 * The ECCO classification of the game that starts at `start` and plays
 * moves[0..n) (legal in turn, as a record's are): its code, opening and
 * variation as xq_record_ecco() gives them; only the first XQ_ECCO_PLIES
 * moves count,
 * and none when `start` is not the standard position.  For the openings
 * of lines that are not records: the moves of an opening tree, say.
 * Returns 0; XQ_EILLEGAL when a move does not move a piece of the side to
 * move onto a square that side does not hold (the array is wrong: a
 * legal line never does that); or XQ_EINTERNAL (a bug).
 * NULL `start`, or NULL `moves` with n > 0: XQ_EINVAL.
 * NULL `start` or `moves`: XQ_EINVAL.
 */
XQ_API int xq_ecco_of_line(const xq_position *start, const xq_move_code *moves, size_t n,
			   const char **code, const char **opening, const char **variation);

/*
 * A set of ECCO codes, as `xqkit find --ecco` and `stats --ecco` take
 * them.  Opaque; free it with xq_ecco_codes_free().  Reading it from
 * several threads at once is safe.
 */
typedef struct xq_ecco_codes xq_ecco_codes;

/*
 * Read `spec`, codes and groups separated by commas, no spaces: a letter
 * (A: A00-A99), a letter and a digit (C1: C10-C19), a code (C45), a
 * range of two codes, the first not after the second (C10-C19, A00-B99),
 * or a mix (C1,D5); capital letters A-E.  Returns 0 with *out set; or
 * XQ_EPARSE (*out NULL) with the 1-based column in `spec` where the
 * mistake is into *column (may be NULL) and the reason into `why` (`cap`
 * bytes, may be 0); or XQ_ENOMEM.  NULL `out` or `spec`: XQ_EINVAL.
 */
XQ_API int xq_ecco_codes_parse(xq_ecco_codes **out, const char *spec, size_t *column, char *why,
			       size_t cap);
/* Is `code` ("C45") one of the set?  0 for a text that is no code.
 * NULL `s` or `code`: 0. */
XQ_API int xq_ecco_codes_has(const xq_ecco_codes *s, const char *code);
/* Free it (NULL is fine). */
XQ_API void xq_ecco_codes_free(xq_ecco_codes *s);

#ifdef __cplusplus
}
#endif

#endif
