/*
 * walk.h: every node of a record's tree in pre-order, first children
 * first (the main line, then each variation where it leaves it), with its
 * depth: annotate's analysis and find's --variations go through a record
 * so.
 */
#ifndef CMD_WALK_H
#define CMD_WALK_H

#include <stddef.h>
#include <stdint.h>

#include <xq/record.h>

/* Where the walk is: a node of the record and its depth (plies from the
 * start; the root is 0). */
struct record_walk {
	xq_record *r;
	uint32_t node;
	size_t depth;
};

/* A walk of `r` that stands on the root. */
void record_walk_init(struct record_walk *w, xq_record *r);
/* The next node in pre-order: 1, or 0 at the end (the root is not
 * visited again). */
int record_walk_next(struct record_walk *w);

#endif
