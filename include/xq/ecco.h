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

#include "record.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The ECCO classification of the main line of `r`: its code ("C45") into
 * *code, its opening's name into *opening and its variation ("" when the
 * code has none) into *variation; any of the three may be NULL.  Returns
 * 0; XQ_ENOTFOUND for a broken record (xq_record_is_broken()) whose
 * start position could not be read or whose main line stops before its
 * 20th ply, since what was read of it does not decide its opening; or
 * XQ_EINTERNAL (a bug: the library's rule table is broken); the reason
 * in xq_record_error().
 */
XQ_API int xq_record_ecco(xq_record *r, const char **code, const char **opening, const char **variation);

/*
 * The names of ECCO code `code` ("C45": a capital A-E and two digits):
 * the opening into *opening and the variation ("" when none) into
 * *variation (either may be NULL).  Returns 0, or XQ_ENOTFOUND when
 * `code` is not a code or the published table names none (A09, C87,
 * E99...).  "A00" names 其他开局.
 */
XQ_API int xq_ecco_name(const char *code, const char **opening, const char **variation);

#ifdef __cplusplus
}
#endif

#endif
