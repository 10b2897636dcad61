/*
 * stats_index.c: the one hash index of `xqkit stats` (stats.h): rows by
 * the bytes of their key (--by), or the tree's edges by the Zobrist key of
 * the position and the move (--tree), open addressing kept under half
 * full, so that memory holds the distinct keys and never the games.
 * Calls no other part of stats.
 */
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include <xq/memory.h>

static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h ^ (h >> 29);
}

static uint64_t hash_edge(uint64_t pos, xq_move_code m)
{
	uint64_t h = pos ^ ((uint64_t)m * 0x9E3779B97F4A7C15ull);

	return h ^ (h >> 31);
}

/* Make room for one more entry (the load stays under a half). */
static int slots_grow(struct sctx *c, size_t n)
{
	size_t ns;
	uint32_t *s;

	if ((n + 1) * 2 <= c->nslots)
		return 0;
	ns = c->nslots ? c->nslots * 2 : 1024;
	if (n >= UINT32_MAX / 2 || !(s = calloc(ns, sizeof(*s))))
		return -1;
	for (size_t i = 0; i < n; i++) {
		uint64_t h = c->tree ? hash_edge(c->edges[i].pos, c->edges[i].move) : c->rows[i].hash;
		size_t k = (size_t)h & (ns - 1);
		while (s[k])
			k = (k + 1) & (ns - 1);
		s[k] = (uint32_t)i + 1;
	}
	free(c->slots);
	c->slots = s;
	c->nslots = ns;
	return 0;
}

/* The row of `key`, made when new; NULL when memory ran out. */
struct row *stats_row_of(struct sctx *c, const char *key, size_t len)
{
	uint64_t h = hash_bytes(key, len);
	size_t k;
	struct row *r;

	if (slots_grow(c, c->nrows))
		return NULL;
	for (k = (size_t)h & (c->nslots - 1); c->slots[k]; k = (k + 1) & (c->nslots - 1)) {
		r = &c->rows[c->slots[k] - 1];
		if (r->hash == h && r->len == len && !memcmp(r->key, key, len))
			return r;
	}
	if (XQ_ALLOC_GROW(c->rows, c->nrows + 1, c->rows_alloc))
		return NULL;
	r = &c->rows[c->nrows];
	memset(r, 0, sizeof(*r));
	if (!(r->key = malloc(len + 1)))
		return NULL;
	memcpy(r->key, key, len);
	r->key[len] = '\0';
	r->len = len;
	r->hash = h;
	c->slots[k] = (uint32_t)++c->nrows;
	return r;
}

/* The edge of `move` from `pos`, made when new (*made set); NULL when
 * memory ran out. */
struct edge *stats_edge_of(struct sctx *c, uint64_t pos, xq_move_code move, int *made)
{
	uint64_t h = hash_edge(pos, move);
	size_t k;
	struct edge *e;

	*made = 0;
	if (slots_grow(c, c->nedges))
		return NULL;
	for (k = (size_t)h & (c->nslots - 1); c->slots[k]; k = (k + 1) & (c->nslots - 1)) {
		e = &c->edges[c->slots[k] - 1];
		if (e->pos == pos && e->move == move)
			return e;
	}
	if (XQ_ALLOC_GROW(c->edges, c->nedges + 1, c->edges_alloc))
		return NULL;
	e = &c->edges[c->nedges];
	memset(e, 0, sizeof(*e));
	e->pos = pos;
	e->move = move;
	e->ecco = -1;
	c->slots[k] = (uint32_t)++c->nedges;
	*made = 1;
	return e;
}
