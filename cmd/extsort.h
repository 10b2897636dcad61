/*
 * extsort.h: sorting more fixed-size records than memory holds (dedupe's
 * games), in a memory bound given up front.
 *
 * Records are added one by one into a buffer of the bound's size; a full
 * buffer is sorted and written to a scratch file as a run.  At the end,
 * with no run written, the buffer is sorted and read in place; else the
 * runs are merged, at most EXTSORT_FANIN at a time (a run of merges
 * writes longer runs first when there are more), each read through its
 * share of the same memory.  The scratch file is unnamed in $TMPDIR (else
 * /tmp), so nothing is left behind however the process ends, and it
 * costs the disk what the records take, twice at most while merging.
 *
 * The sorter is the caller's, for one thread.  Errors are XQ_ENOMEM, or
 * XQ_EIO with errno kept in `err` (a full disk: ENOSPC).
 */
#ifndef CMD_EXTSORT_H
#define CMD_EXTSORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define EXTSORT_FANIN 64

struct extsort_run {
	uint64_t start, count; /* in records, in the scratch file */
};

struct extsort {
	size_t size;                              /* of a record */
	int (*cmp)(const void *a, const void *b); /* qsort's */
	size_t mem;                               /* the memory bound, in bytes */
	unsigned char *buf;                       /* the records being gathered */
	size_t cap, alloc, n;                     /* in records: the bound, the buffer, used */
	int fd;                                   /* the scratch file, or -1 */
	uint64_t written;                         /* records in the scratch file */
	struct extsort_run *runs;
	size_t nruns, runs_alloc;
	uint64_t total;                           /* records added */
	int err;                                  /* errno of the last XQ_EIO */
	/* reading */
	int reading;
	size_t pos;                               /* in the buffer, when no run was written */
	struct merge *merge;
};

/* A sorter of `size`-byte records ordered by `cmp`, in `mem` bytes (at
 * least 64 records' worth; the buffer grows to that as records come).
 * 0 (it allocates nothing yet). */
int extsort_init(struct extsort *s, size_t size, int (*cmp)(const void *, const void *),
		 size_t mem);
/* Add one record (before extsort_finish).  0, XQ_ENOMEM or XQ_EIO. */
int extsort_add(struct extsort *s, const void *rec);
/* The records are all in: sort what is left and ready the reading.
 * 0, XQ_ENOMEM or XQ_EIO. */
int extsort_finish(struct extsort *s);
/* The next record in order into `rec`: 1, 0 at the end, XQ_EIO. */
int extsort_next(struct extsort *s, void *rec);
/* Free everything, the scratch file too. */
void extsort_release(struct extsort *s);

/* A scratch file (the one way extsort.c makes its own, for the other
 * scratch data of a command): a descriptor open for reading and writing,
 * unnamed in $TMPDIR (else /tmp), or -1 with errno set. */
int extsort_scratch(void);

#endif
