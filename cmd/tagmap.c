/*
 * tagmap.c: the first tag of each name of a record (tagmap.h).
 */
#include "tagmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a of a tag name. */
static size_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (size_t)(h ^ (h >> 32));
}

/* The slot of `name`: the one holding its first tag, or the empty one
 * where it would go. */
static size_t *slot_of(const struct tagmap *m, const char *name)
{
	size_t i = name_hash(name) & m->mask;

	while (m->slots[i] && strcmp(xq_record_tag_name(m->r, m->slots[i] - 1), name))
		i = (i + 1) & m->mask;
	return &m->slots[i];
}

void tagmap_init(struct tagmap *m, const xq_record *r)
{
	size_t n = xq_record_tag_count(r), cap = 16;

	m->r = r;
	m->slots = NULL;
	/* At most half full. */
	while (cap < 2 * n && cap < SIZE_MAX / 4)
		cap *= 2;
	if (n == 0 || !(m->slots = calloc(cap, sizeof(*m->slots))))
		return;
	m->mask = cap - 1;
	for (size_t i = 0; i < n; i++) {
		size_t *s = slot_of(m, xq_record_tag_name(r, i));
		if (!*s)
			*s = i + 1;
	}
}

size_t tagmap_first(const struct tagmap *m, const char *name)
{
	size_t n = xq_record_tag_count(m->r);

	if (m->slots) {
		size_t s = *slot_of(m, name);
		return s ? s - 1 : TAGMAP_NONE;
	}
	/* No memory for the table: a scan gives the same answer. */
	for (size_t i = 0; i < n; i++)
		if (!strcmp(xq_record_tag_name(m->r, i), name))
			return i;
	return TAGMAP_NONE;
}

void tagmap_release(struct tagmap *m)
{
	free(m->slots);
	m->slots = NULL;
}
