/*
 * cancel.c: the cancel flag of the public API (<xq/io.h>), which a reader
 * (api/io.c), a perft (api/position.c) and an analyser poll.  A file of
 * its own, below all of them, so that none of them calls into another for it.
 */
#include "internal.h"

#include <stdatomic.h>
#include <stdlib.h>

/* struct xq_cancel: api/internal.h (the analyser polls it too). */

xq_cancel *xq_cancel_new(void)
{
	xq_cancel *c = malloc(sizeof(*c));

	if (c)
		atomic_init(&c->flag, 0);
	return c;
}

void xq_cancel_set(xq_cancel *c)
{
	if (c)
		atomic_store(&c->flag, 1);
}

int xq_cancel_is_set(const xq_cancel *c)
{
	return c && atomic_load(&c->flag) != 0;
}

void xq_cancel_free(xq_cancel *c)
{
	free(c);
}
