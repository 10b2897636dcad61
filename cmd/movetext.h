/*
 * movetext.h: the move notations a user can name on the command line, for
 * the commands that print moves (replay, annotate) or pass a notation on
 * to a writer (convert).  The dialects are those of <xq/position.h>; a
 * name may add writing flags ("chinese-traditional").
 */
#ifndef CMD_MOVETEXT_H
#define CMD_MOVETEXT_H

#include <xq/position.h>

/* The names a user can give, for help texts. */
#define MOVETEXT_NAMES "chinese, chinese-traditional, wxf, iccs, uci, uci1"

struct movetext {
	int notation;   /* XQ_DIALECT_* (<xq/position.h>) */
	unsigned flags; /* XQ_DIALECT_* writing flags */
};

/* Fill `out` for `name`; 0, or -1 if no notation has that name. */
int movetext_parse(const char *name, struct movetext *out);
/* The notation used when none is named: Chinese. */
struct movetext movetext_default(void);

#endif
