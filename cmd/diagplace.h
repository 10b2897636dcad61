/*
 * diagplace.h: pointing a diagnostic about a game at the move or the tag it
 * is about, the one way every command does it (validate's checks,
 * annotate's engine failures, the ECCO tags).
 */
#ifndef XQ_CMD_DIAGPLACE_H
#define XQ_CMD_DIAGPLACE_H

#include <stdint.h>

#include "diag.h"
#include "game.h"

/*
 * Point `d` at game `g` of `file` (its source, game number and place) and
 * at ply `ply`; then, unless `node` is the root (or not a node of `g`), at
 * that node's move: its place when the reader kept one, and its text as
 * written (else its ICCS coordinates).
 */
void diag_place(struct xq_diag *d, const struct xq_game *g, const char *file, uint32_t node,
		uint32_t ply);

/* The same for the move of main-line ply `ply` (0: the game itself; past
 * the main line's end: its last move). */
void diag_place_ply(struct xq_diag *d, const struct xq_game *g, const char *file, uint32_t ply);

/*
 * Add to the diagnostics of pool job `j` one about its game's tag `name`,
 * at the tag's place when the reader kept it (else at the game; `name`
 * may be NULL for a tag that is not there).
 */
struct pool_job;
void diag_job_tag(struct pool_job *j, const char *name, enum xq_severity sev,
		  enum xq_diag_code code, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;

#endif
