/*
 * arena.h: a region allocator for everything that lives as long as one
 * game (strings, NAG lists): allocate many small pieces, free them all at
 * once with xqi_arena_reset() (keeping the first block for reuse) or
 * xqi_arena_release().
 */
#ifndef XQI_LIB_ARENA_H
#define XQI_LIB_ARENA_H

#include <stddef.h>

struct xqi_arena_block;

struct xqi_arena {
	struct xqi_arena_block *head; /* current block, newest first */
	size_t total;                /* bytes allocated from the system */
};

#define XQI_ARENA_INIT {NULL, 0}

void xqi_arena_init(struct xqi_arena *a);
/* Memory aligned for any type, or NULL when out of memory. */
void *xqi_arena_alloc(struct xqi_arena *a, size_t size);
/* A NUL-terminated copy of `len` bytes of `s` (which need not be terminated). */
char *xqi_arena_strndup(struct xqi_arena *a, const char *s, size_t len);
/* Forget every allocation; keep one block so the next game reuses it. */
void xqi_arena_reset(struct xqi_arena *a);
/* Free everything. */
void xqi_arena_release(struct xqi_arena *a);

#endif
