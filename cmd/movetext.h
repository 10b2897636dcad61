/*
 * movetext.h: the move notations a user can name on the command line, and
 * moves written in them, for the commands that print moves (replay) or
 * pass a notation on to a writer (convert).  The dialects are those of
 * lib/notation.h; a name may add writing flags ("chinese-traditional").
 */
#ifndef XQ_CMD_MOVETEXT_H
#define XQ_CMD_MOVETEXT_H

#include <stddef.h>

#include "board.h"

/* The names a user can give, for help texts. */
#define MOVETEXT_NAMES "chinese, chinese-traditional, wxf, iccs, uci, uci1"

struct movetext {
	int notation;   /* enum xq_notation */
	unsigned flags; /* XQ_NOTATION_* writing flags */
};

/* Fill `out` for `name`; 0, or -1 if no notation has that name. */
int movetext_parse(const char *name, struct movetext *out);
/* The notation used when none is named: Chinese. */
struct movetext movetext_default(void);
/* Write the legal move `m` of `b` (restored) into `out`; returns the
 * length, 0 when it cannot be written. */
size_t movetext_write(char *out, size_t cap, struct xq_board *b, xq_move m,
		      const struct movetext *mt);

#endif
