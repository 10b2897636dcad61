/*
 * movetext.c: notation names and moves written in them (see movetext.h).
 */
#include "movetext.h"

#include <string.h>

#include "notation.h"

int movetext_parse(const char *name, struct movetext *out)
{
	enum xq_notation n;

	out->flags = 0;
	if (!strcmp(name, "chinese-traditional")) {
		out->notation = XQ_NOTATION_CHINESE;
		out->flags = XQ_NOTATION_TRADITIONAL;
		return 0;
	}
	/* Every dialect notation.c can write; "auto" and "san" only read. */
	if (xq_notation_from_name(name, &n) || n == XQ_NOTATION_AUTO || n == XQ_NOTATION_SAN)
		return -1;
	out->notation = (int)n;
	return 0;
}

struct movetext movetext_default(void)
{
	struct movetext mt = {XQ_NOTATION_CHINESE, 0};
	return mt;
}

size_t movetext_write(char *out, size_t cap, struct xq_board *b, xq_move m,
		      const struct movetext *mt)
{
	return xq_notation_write(out, cap, b, m, (enum xq_notation)mt->notation, mt->flags);
}
