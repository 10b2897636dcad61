/*
 * <xq/memory.h>: growing arrays the library's way, and memory sizes as
 * people write them (the budget of xq_read_options.max_memory, <xq/io.h>;
 * xqkit's --max-memory).
 *
 * Growing an array (as git's ALLOC_GROW, but an error is returned, never
 * a death):
 *
 *	struct item *items = NULL; size_t n = 0, items_alloc = 0;
 *	if (XQ_ALLOC_GROW(items, n + 1, items_alloc))
 *		return XQ_ENOMEM;
 *	items[n++] = it;
 *	...
 *	free(items);
 *
 * The array is the caller's: plain realloc() memory, freed with free().
 * No global state; thread-safe on different arrays.
 */
#ifndef XQ_PUBLIC_MEMORY_H
#define XQ_PUBLIC_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#include "version.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * XQ_ALLOC_GROW(ptr, need, alloc) makes room for at least `need` elements
 * of *ptr in the array `ptr` whose capacity (in elements, a size_t lvalue)
 * is `alloc`: nothing happens when there is room; otherwise the capacity
 * grows by half (at least to `need`, at least 16): realloc(), or for an
 * array under 64 KiB a new block and a copy, which keeps the memory of
 * each thread in its own malloc arena.  It
 * evaluates to 0, or to XQ_ENOMEM with `ptr` and `alloc` unchanged (also
 * when the byte size would overflow).  `ptr` and `alloc` are evaluated
 * more than once: pass plain lvalues.  The test for room is inline, so a
 * loop that appends pays a call only when the array grows.
 */
#define XQ_ALLOC_GROW(ptr, need, alloc)                                                  \
	((size_t)(need) <= (alloc) ? 0 : xq_alloc_grow(&(ptr), &(alloc), (size_t)(need), \
						       sizeof(*(ptr))))

/* The work behind XQ_ALLOC_GROW: `pptr` is the address of the array
 * pointer (of any object pointer type; NULL for a new array), *alloc its
 * capacity in elements of `elem` bytes.  0, or XQ_ENOMEM with nothing
 * changed.  NULL `pptr` or `alloc`: XQ_EINVAL. */
XQ_API int xq_alloc_grow(void *pptr, size_t *alloc, size_t need, size_t elem);

/* The default memory budget of a read: 256 MiB. */
#define XQ_MEMORY_DEFAULT ((uint64_t)256 << 20)
/* The smallest budget a read accepts: 8 MiB (less cannot read a record
 * of any format). */
#define XQ_MEMORY_MIN ((uint64_t)8 << 20)

/*
 * A size as people write it: digits with an optional K, M or G suffix
 * (powers of 1024; a trailing "B" or "iB" is allowed: 256M, 256MB,
 * 256MiB, 1G, 65536).  0 with *out set, or -1 (*out unchanged) when `s`
 * is not a size or the size does not fit in 64 bits.
 * NULL `s` or `out`: XQ_EINVAL.
 */
XQ_API int xq_size_parse(const char *s, uint64_t *out);

#ifdef __cplusplus
}
#endif

#endif
