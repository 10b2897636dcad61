/*
 * movetext.c: the notation names a user can give, and moves written in
 * them (see movetext.h).
 */
#include "movetext.h"

#include <stdio.h>
#include <string.h>

#include "notation.h"

int movetext_parse(const char *name)
{
	if (!strcmp(name, "iccs"))
		return XQ_NOTATION_ICCS;
	return -1;
}

int movetext_default(void)
{
	return XQ_NOTATION_ICCS;
}

size_t movetext_write(char *out, size_t cap, struct xq_board *b, xq_move m, int notation)
{
	char iccs[5];

	(void)b;
	if (notation != XQ_NOTATION_ICCS || cap < 5)
		return 0;
	xq_move_name(m, iccs);
	return (size_t)snprintf(out, cap, "%s", iccs);
}
