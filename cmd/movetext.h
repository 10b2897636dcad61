/*
 * movetext.h: moves as text in the notation a user asked for, for the
 * commands that print moves (replay) or pass a notation on to a writer
 * (convert).  The names are those of lib/notation.h.
 */
#ifndef XQ_CMD_MOVETEXT_H
#define XQ_CMD_MOVETEXT_H

#include <stddef.h>

#include "board.h"

/* The notations a user can name, for help texts. */
#define MOVETEXT_NAMES "iccs"

/* The enum xq_notation value called `name`, or -1. */
int movetext_parse(const char *name);
/* The notation used when none is named. */
int movetext_default(void);
/* Write the legal move `m` of `b` (restored) into `out`; returns the
 * length, 0 when it cannot be written. */
size_t movetext_write(char *out, size_t cap, struct xq_board *b, xq_move m, int notation);

#endif
