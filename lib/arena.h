/*
 * arena.h: a region allocator for everything that lives as long as one
 * game (strings, NAG lists): allocate many small pieces, free them all at
 * once with xq_arena_reset() (keeping the first block for reuse) or
 * xq_arena_release().
 */
#ifndef XQ_LIB_ARENA_H
#define XQ_LIB_ARENA_H

#include <stddef.h>

struct xq_arena_block;

struct xq_arena {
	struct xq_arena_block *head; /* current block, newest first */
	size_t total;                /* bytes allocated from the system */
};

#define XQ_ARENA_INIT {NULL, 0}

void xq_arena_init(struct xq_arena *a);
/* Memory aligned for any type, or NULL when out of memory. */
void *xq_arena_alloc(struct xq_arena *a, size_t size);
/* A NUL-terminated copy of `len` bytes of `s` (which need not be terminated). */
char *xq_arena_strndup(struct xq_arena *a, const char *s, size_t len);
/* Forget every allocation; keep one block so the next game reuses it. */
void xq_arena_reset(struct xq_arena *a);
/* Free everything. */
void xq_arena_release(struct xq_arena *a);

#endif
