/*
 * arena.c: the region allocator (see arena.h).
 */
#include "arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct xqi_arena_block {
	struct xqi_arena_block *next;
	size_t size; /* usable bytes in data[] */
	size_t used;
	alignas(max_align_t) unsigned char data[];
};

#define BLOCK_MIN 16384

void xqi_arena_init(struct xqi_arena *a)
{
	a->head = NULL;
	a->total = 0;
}

void *xqi_arena_alloc(struct xqi_arena *a, size_t size)
{
	const size_t align = alignof(max_align_t);
	struct xqi_arena_block *b = a->head;
	size_t need = (size + align - 1) & ~(align - 1);

	if (size == 0)
		need = align;
	if (need < size)
		return NULL;
	if (!b || b->size - b->used < need) {
		size_t bsize = need > BLOCK_MIN ? need : BLOCK_MIN;
		if (b && b->size >= BLOCK_MIN && bsize < b->size * 2 && need <= BLOCK_MIN * 64)
			bsize = b->size * 2 > BLOCK_MIN * 64 ? BLOCK_MIN * 64 : b->size * 2;
		if (bsize > SIZE_MAX - sizeof(*b))
			return NULL;
		b = malloc(sizeof(*b) + bsize);
		if (!b)
			return NULL;
		b->size = bsize;
		b->used = 0;
		b->next = a->head;
		a->head = b;
		a->total += bsize;
	}
	b->used += need;
	return b->data + b->used - need;
}

char *xqi_arena_strndup(struct xqi_arena *a, const char *s, size_t len)
{
	const size_t align = alignof(max_align_t);
	struct xqi_arena_block *b = a->head;
	size_t need = (len + align) & ~(align - 1); /* what xqi_arena_alloc(len + 1) takes */
	char *p;

	/* Most strings are short (a move's text) and fit in the current
	 * block: taken here, and copied without a call, as xqi_arena_alloc()
	 * would place them. */
	if (len < align && b && b->size - b->used >= need) {
		p = (char *)b->data + b->used;
		b->used += need;
		if (len >= 4 && len <= 8) {
			/* two overlapping fixed-size copies: no loop */
			memcpy(p, s, 4);
			memcpy(p + len - 4, s + len - 4, 4);
		} else if (len > 8) {
			/* the same for a Chinese move's 12 bytes */
			memcpy(p, s, 8);
			memcpy(p + len - 8, s + len - 8, 8);
		} else {
			for (size_t i = 0; i < len; i++)
				p[i] = s[i];
		}
		p[len] = '\0';
		return p;
	}
	p = xqi_arena_alloc(a, len + 1);
	if (!p)
		return NULL;
	if (len)
		memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void xqi_arena_reset(struct xqi_arena *a)
{
	struct xqi_arena_block *keep = a->head, *b;

	if (!keep)
		return;
	/* Keep the newest (largest) block, free the rest. */
	b = keep->next;
	while (b) {
		struct xqi_arena_block *next = b->next;
		a->total -= b->size;
		free(b);
		b = next;
	}
	keep->next = NULL;
	keep->used = 0;
	a->head = keep;
}

void xqi_arena_release(struct xqi_arena *a)
{
	struct xqi_arena_block *b = a->head;

	while (b) {
		struct xqi_arena_block *next = b->next;
		free(b);
		b = next;
	}
	a->head = NULL;
	a->total = 0;
}
