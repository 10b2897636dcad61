/*
 * alloc.h: growing arrays, one way everywhere (as git's ALLOC_GROW, but an
 * error is returned, never a death).
 *
 *	struct xq_tag *tags; size_t ntags, tags_alloc;
 *	if (XQ_ALLOC_GROW(tags, ntags + 1, tags_alloc))
 *		return XQ_ENOMEM;
 *	tags[ntags++] = t;
 *
 * XQ_ALLOC_GROW(ptr, need, alloc) makes room for at least `need` elements
 * of *ptr in the array `ptr` whose capacity (in elements, a size_t lvalue)
 * is `alloc`: nothing happens when there is room; otherwise the capacity
 * grows by half (at least to `need`, at least 16) with realloc().  It
 * evaluates to 0, or to XQ_ENOMEM with `ptr` and `alloc` unchanged (also
 * when the byte size would overflow).  `ptr` and `alloc` are evaluated
 * more than once: pass plain lvalues.
 */
#ifndef XQ_LIB_ALLOC_H
#define XQ_LIB_ALLOC_H

#include <stddef.h>

/* The work behind XQ_ALLOC_GROW: `pptr` is the address of the array
 * pointer (of any object pointer type). */
int xq_alloc_grow(void *pptr, size_t *alloc, size_t need, size_t elem);

#define XQ_ALLOC_GROW(ptr, need, alloc)                                                  \
	((size_t)(need) <= (alloc) ? 0 : xq_alloc_grow(&(ptr), &(alloc), (size_t)(need), \
						       sizeof(*(ptr))))

#endif
