/*
 * tagmap.h: where the first tag of each name of a record stands, found in
 * one step: for the walks over a record's tags that ask of each tag
 * whether one of its name came before (find --list), or what another
 * record holds under that name (convert --verify).  Asking by a scan of
 * the tags made those walks quadratic in the tags (issue 34).
 */
#ifndef CMD_TAGMAP_H
#define CMD_TAGMAP_H

#include <stddef.h>

#include <xq/record.h>

/* A hash table of tag indexes (open addressing); `slots` NULL when there
 * was no memory for it: then every question is answered by a scan. */
struct tagmap {
	const xq_record *r;
	size_t *slots; /* tag index + 1, 0 for an empty slot */
	size_t mask;
};

/* The map of the tags `r` holds now (it is not told of later changes). */
void tagmap_init(struct tagmap *m, const xq_record *r);
/* The index of the first tag called `name`, or TAGMAP_NONE. */
#define TAGMAP_NONE ((size_t)-1)
size_t tagmap_first(const struct tagmap *m, const char *name);
void tagmap_release(struct tagmap *m);

#endif
