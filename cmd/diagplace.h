/*
 * diagplace.h: pointing a diagnostic about a game at the move it is about,
 * the one way every command does it (validate's checks, annotate's engine
 * failures).
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

#endif
