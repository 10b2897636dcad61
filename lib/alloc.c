/*
 * alloc.c: growing arrays (see alloc.h).
 */
#include "alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diagnostic.h"

void *xqi_alloc_move(void *p, size_t old, size_t used, size_t n)
{
	void *q;

	if (!p || old >= ((size_t)1 << 16))
		return realloc(p, n);
	if ((q = malloc(n)) != NULL) {
		memcpy(q, p, used < n ? used : n);
		free(p);
	}
	return q;
}

int xq_alloc_grow(void *pptr, size_t *alloc, size_t need, size_t elem)
{
	size_t n;
	void *p;

	if (!pptr || !alloc)
		return XQ_EINVAL;
	n = *alloc;
	if (need <= n)
		return 0;
	if (elem == 0 || need > SIZE_MAX / elem)
		return XQ_ENOMEM;
	n = n < SIZE_MAX / 3 ? n + n / 2 : need;
	if (n < need)
		n = need;
	if (n < 16)
		n = 16;
	if (n > SIZE_MAX / elem)
		n = need;
	/* The array pointer is read and written through memcpy, so that any
	 * object pointer type can be grown without aliasing it as void *. */
	memcpy(&p, pptr, sizeof(p));
	p = xqi_alloc_move(p, *alloc * elem, *alloc * elem, n * elem);
	if (!p)
		return XQ_ENOMEM;
	memcpy(pptr, &p, sizeof(p));
	*alloc = n;
	return 0;
}
