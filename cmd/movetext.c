/*
 * movetext.c: notation names (see movetext.h).
 */
#include "movetext.h"

#include <string.h>

int movetext_parse(const char *name, struct movetext *out)
{
	int d;

	out->flags = 0;
	if (!strcmp(name, "chinese-traditional")) {
		out->notation = XQ_DIALECT_CHINESE;
		out->flags = XQ_DIALECT_TRADITIONAL;
		return 0;
	}
	/* Every dialect the library can write; "auto" and "san" only read. */
	d = xq_dialect_from_name(name);
	if (d < 0 || d == XQ_DIALECT_AUTO || d == XQ_DIALECT_SAN)
		return -1;
	out->notation = d;
	return 0;
}

struct movetext movetext_default(void)
{
	struct movetext mt = {XQ_DIALECT_CHINESE, 0};
	return mt;
}
