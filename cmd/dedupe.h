/*
 * dedupe.h: what dedupe.c (the command, its passes over the inputs) and
 * dedupe_groups.c (the games compared, sorted into groups in a bounded
 * memory) share.
 *
 * A game compared is kept as one 64-byte record (struct drec) in an
 * external sort (extsort.h); a game not compared (broken, or shorter than
 * --min-plies) is only counted.  The records are sorted by key, so that a
 * group's copies come together; with --prefix the keys of the games that
 * start a longer one are first replaced by that one's (a join of sorted
 * streams, a Bloom filter keeping the candidates few).  The groups found
 * are sorted again by their first member for the report, and the copies
 * not kept are one bit each (`removed`), for the writing pass.  The
 * memory of the sorts, the filter and the bits is counted against a
 * quarter of --max-memory (the rest is reading's); beyond it the sorts
 * spill to scratch files in $TMPDIR.
 */
#ifndef CMD_DEDUPE_H
#define CMD_DEDUPE_H

#include <stdint.h>
#include <stdio.h>

#include "extsort.h"
#include "inputs.h"
#include "output.h"
#include "report.h"

/* One game compared, as the sorts carry it. */
struct drec {
	uint64_t key[2];   /* its group: the hash of start and main line (with
			      --prefix, then the longer game's it joins) */
	uint64_t offset;   /* origin: byte offset */
	uint64_t name;     /* origin: its file's name, at this offset of the names file */
	uint32_t idx;      /* its place among the games compared, in input order */
	uint32_t head;     /* the report: its group's first member (idx) */
	uint32_t number;   /* origin: game number (capped); a heading: the kept member */
	uint32_t line;     /* origin: line, 0 if none (capped) */
	uint32_t plies;
	uint32_t score;    /* information: variations, comments, NAGs, tags */
	uint8_t fmt;       /* the format read, as an index in the format names */
	uint8_t has_offset;
	uint8_t kind;      /* the report: 0 a group's heading, 1 a member */
	uint8_t pad;
	uint32_t copies;   /* a heading: the group's size */
};

/* --prefix: a game whose line starts with a group's key (40 bytes). */
struct dcand {
	uint64_t prefix[2]; /* the key of the start of the game's line */
	uint64_t own[2];    /* the game's own key */
	uint32_t plies;     /* the game's length */
	uint32_t idx;
};

struct dctx {
	struct output out;
	struct input_opts in;
	struct reporter rep;
	int mirror, prefix;
	unsigned min_plies;
	int pass;                  /* 1: keys; 2: prefixes; 3: writing */
	double t0;
	uint64_t state_mem;        /* the memory of the sorts, the filter and the bits */
	/* the games compared */
	struct extsort keys;       /* struct drec, by key then idx */
	uint32_t ncompared;        /* in pass 1; then seen again in passes 2 and 3 */
	uint32_t seen;
	uint64_t games;            /* every game read, in this pass */
	uint64_t games1;           /* ... in pass 1 */
	/* --prefix */
	struct extsort cands;      /* struct dcand, by prefix, longest then first */
	uint64_t *bloom;           /* the keys of the groups */
	uint64_t bloom_bits;
	FILE *sorted;              /* pass 1's records in key order */
	/* the origins' file names, each written once in a row to a scratch file */
	FILE *names;
	uint64_t names_len;
	char *last_name;
	uint64_t last_off;
	struct xq_buf name_buf;    /* a name read back */
	uint64_t name_buf_off;
	const char *fmt_names[32];
	uint32_t nfmts;
	/* the groups */
	uint8_t *removed;          /* a bit per game compared: a copy not kept */
	uint64_t compared, groups, duplicates, removed_n;
	int failed;                /* the run cannot go on: said, exit status 3 */
	struct xq_buf text;        /* group reports */
};

/* Say that the state could not be kept (`rc`: XQ_ENOMEM, or XQ_EIO with
 * errno `err`) while doing `what`; the run then ends with status 3. */
void dedupe_fail(struct dctx *c, int rc, int err, const char *what);

/* Ready the sort of pass 1 in c->state_mem: 0, or -1 (said). */
int dedupe_start(struct dctx *c);
/* Pass 1's emit, on the output thread: keep game `r` (compared) with the
 * name of the file it came from; 0, or -1 (said). */
int dedupe_keep(struct dctx *c, struct drec *r, const char *origin);
/* --prefix, before pass 2: the records in key order into c->sorted and
 * the filter of their keys.  0 or -1 (said). */
int dedupe_prepare_prefixes(struct dctx *c);
/* --prefix, pass 2's test on a worker: may `key` be a group's? */
int dedupe_maybe_group(const struct dctx *c, const uint64_t key[2]);
/* After the passes that read: the groups, reported (to standard output)
 * or only counted (report = 0); the copies not kept marked in c->removed.
 * 0, -1 (said), or 1 when a signal stopped it. */
int dedupe_groups(struct dctx *c, int report);
void dedupe_release(struct dctx *c);

#endif
