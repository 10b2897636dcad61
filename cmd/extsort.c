/*
 * extsort.c: sorting more fixed-size records than memory holds (see
 * extsort.h).
 */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* O_TMPFILE */
#endif
#include "extsort.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xq/error.h>
#include <xq/memory.h>

int extsort_scratch(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd = -1;

	if (!dir || !*dir)
		dir = "/tmp";
#if defined(O_TMPFILE)
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
	if (fd < 0) {
		if ((size_t)snprintf(path, sizeof(path), "%s/.xqkit-scratch-XXXXXX", dir) >= sizeof(path)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		if ((fd = mkstemp(path)) >= 0)
			unlink(path);
	}
	return fd;
}

/* ---- writing runs ----------------------------------------------------------------- */

static int fail_io(struct extsort *s)
{
	s->err = errno ? errno : EIO;
	return XQ_EIO;
}

/* Write `n` bytes at the scratch file's end. */
static int put(struct extsort *s, int fd, const void *data, size_t n)
{
	const unsigned char *p = data;

	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return fail_io(s);
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int add_run(struct extsort *s, uint64_t start, uint64_t count)
{
	if (XQ_ALLOC_GROW(s->runs, s->nruns + 1, s->runs_alloc))
		return XQ_ENOMEM;
	s->runs[s->nruns].start = start;
	s->runs[s->nruns].count = count;
	s->nruns++;
	return 0;
}

/* The buffer, sorted, becomes a run of the scratch file. */
static int spill(struct extsort *s)
{
	int rc;

	if (s->fd < 0 && (s->fd = extsort_scratch()) < 0)
		return fail_io(s);
	qsort(s->buf, s->n, s->size, s->cmp);
	if ((rc = put(s, s->fd, s->buf, s->n * s->size)) || (rc = add_run(s, s->written, s->n)))
		return rc;
	s->written += s->n;
	s->n = 0;
	return 0;
}

int extsort_init(struct extsort *s, size_t size, int (*cmp)(const void *, const void *),
		 size_t mem)
{
	memset(s, 0, sizeof(*s));
	s->size = size;
	s->cmp = cmp;
	s->fd = -1;
	s->cap = mem / size < 64 ? 64 : mem / size;
	s->mem = s->cap * size;
	return 0;
}

/* Room for one more record: the buffer grows as records come, up to the
 * bound, where it is spilled.  It grows through the halvings of the
 * bound (cap >> k, at least 64 KiB of records, then each twice the last),
 * so that xq_alloc_grow(), which grows by half or more, gives each size
 * exactly and the last one is the bound itself, never more. */
static int room(struct extsort *s)
{
	size_t want = s->cap, first = ((size_t)1 << 16) / s->size;

	if (s->n < s->alloc)
		return 0;
	if (s->alloc == s->cap)
		return spill(s);
	while (want / 2 > s->alloc && want / 2 >= first)
		want /= 2;
	return xq_alloc_grow(&s->buf, &s->alloc, want, s->size);
}

int extsort_add(struct extsort *s, const void *rec)
{
	int rc;

	if ((rc = room(s)))
		return rc;
	memcpy(s->buf + s->n * s->size, rec, s->size);
	s->n++;
	s->total++;
	return 0;
}

/* ---- merging ---------------------------------------------------------------------- */

/* One run being read: a window of its records in the merge's memory. */
struct reader {
	uint64_t next, left;  /* the next record to fetch from the file, how many */
	unsigned char *win;
	size_t cap, len, pos; /* in records */
};

struct merge {
	int fd;
	struct reader *r;
	size_t k;
	size_t *heap, nheap; /* readers, the smallest current record first */
};

static const void *head_of(const struct extsort *s, const struct merge *m, size_t i)
{
	const struct reader *r = &m->r[i];
	return r->win + r->pos * s->size;
}

static int less(const struct extsort *s, const struct merge *m, size_t a, size_t b)
{
	int c = s->cmp(head_of(s, m, a), head_of(s, m, b));
	return c < 0 || (c == 0 && a < b); /* earlier runs first: a stable merge */
}

static void sift_down(const struct extsort *s, struct merge *m, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, min = i, t;
		if (l < m->nheap && less(s, m, m->heap[l], m->heap[min]))
			min = l;
		if (r < m->nheap && less(s, m, m->heap[r], m->heap[min]))
			min = r;
		if (min == i)
			return;
		t = m->heap[i], m->heap[i] = m->heap[min], m->heap[min] = t;
		i = min;
	}
}

/* Refill reader `r` when its window is used up: 1 when it holds a record,
 * 0 when its run is done, XQ_EIO. */
static int refill(struct extsort *s, struct merge *m, struct reader *r)
{
	size_t want, got = 0;

	if (r->pos < r->len)
		return 1;
	if (r->left == 0)
		return 0;
	want = r->left < r->cap ? (size_t)r->left : r->cap;
	while (got < want * s->size) {
		ssize_t n = pread(m->fd, r->win + got, want * s->size - got,
				  (off_t)(r->next * s->size + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return fail_io(s);
		}
		got += (size_t)n;
	}
	r->next += want;
	r->left -= want;
	r->pos = 0;
	r->len = want;
	return 1;
}

static void merge_free(struct merge *m)
{
	if (!m)
		return;
	free(m->r);
	free(m->heap);
	free(m);
}

/* Start merging runs `first`..`first + k - 1` of `fd`, each with a window
 * of `win` records of the buffer from `at` on. */
static int merge_start(struct extsort *s, struct merge **out, int fd, size_t first, size_t k,
		       unsigned char *at, size_t win)
{
	struct merge *m = calloc(1, sizeof(*m));
	int rc;

	*out = m;
	if (!m || !(m->r = calloc(k, sizeof(*m->r))) || !(m->heap = calloc(k, sizeof(*m->heap))))
		return XQ_ENOMEM;
	m->fd = fd;
	m->k = k;
	for (size_t i = 0; i < k; i++) {
		struct reader *r = &m->r[i];
		r->next = s->runs[first + i].start;
		r->left = s->runs[first + i].count;
		r->win = at + i * win * s->size;
		r->cap = win;
		if ((rc = refill(s, m, r)) < 0)
			return rc;
		if (rc)
			m->heap[m->nheap++] = i;
	}
	for (size_t i = m->nheap / 2; i-- > 0;)
		sift_down(s, m, i);
	return 0;
}

/* The smallest record of the merge into `rec`: 1, 0 at the end, XQ_EIO. */
static int merge_next(struct extsort *s, struct merge *m, void *rec)
{
	struct reader *r;
	int rc;

	if (m->nheap == 0)
		return 0;
	r = &m->r[m->heap[0]];
	memcpy(rec, r->win + r->pos * s->size, s->size);
	r->pos++;
	if ((rc = refill(s, m, r)) < 0)
		return rc;
	if (!rc)
		m->heap[0] = m->heap[--m->nheap];
	sift_down(s, m, 0);
	return 1;
}

/* How many runs one merge reads: EXTSORT_FANIN, or fewer so that each
 * has a window of 16 records at least (4 at least: the buffer holds 64). */
static size_t fanin(const struct extsort *s)
{
	return s->cap / 16 < EXTSORT_FANIN ? s->cap / 16 : EXTSORT_FANIN;
}

/* More runs than one merge reads: merge them a fan-in less one at a time
 * (the last window gathers what is written) into a new scratch file. */
static int merge_level(struct extsort *s)
{
	size_t k = fanin(s) - 1, win = s->cap / (k + 1), nruns = s->nruns, made = 0;
	unsigned char *out = s->buf + k * win * s->size;
	uint64_t written = 0;
	int fd = extsort_scratch(), rc = 0;

	if (fd < 0)
		return fail_io(s);
	for (size_t first = 0; first < nruns && !rc; first += k) {
		size_t take = nruns - first < k ? nruns - first : k, n = 0;
		uint64_t start = written;
		struct merge *m;
		if (!(rc = merge_start(s, &m, s->fd, first, take, s->buf, win))) {
			while ((rc = merge_next(s, m, out + n * s->size)) == 1) {
				written++;
				if (++n == win) {
					rc = put(s, fd, out, n * s->size);
					n = 0;
					if (rc)
						break;
				}
			}
			if (!rc && n)
				rc = put(s, fd, out, n * s->size);
		}
		merge_free(m);
		/* The new runs take the places of the old ones read already. */
		s->runs[made].start = start;
		s->runs[made++].count = written - start;
	}
	close(s->fd);
	s->fd = fd;
	s->nruns = made;
	s->written = written;
	return rc;
}

int extsort_finish(struct extsort *s)
{
	int rc;

	s->reading = 1;
	if (s->nruns == 0) {
		if (s->n) /* (no buffer yet when nothing was added) */
			qsort(s->buf, s->n, s->size, s->cmp);
		s->pos = 0;
		return 0;
	}
	if (s->n && (rc = spill(s)))
		return rc;
	while (s->nruns > fanin(s))
		if ((rc = merge_level(s)))
			return rc;
	return merge_start(s, &s->merge, s->fd, 0, s->nruns, s->buf, s->cap / s->nruns);
}

int extsort_next(struct extsort *s, void *rec)
{
	if (s->merge)
		return merge_next(s, s->merge, rec);
	if (s->pos >= s->n)
		return 0;
	memcpy(rec, s->buf + s->pos * s->size, s->size);
	s->pos++;
	return 1;
}

void extsort_release(struct extsort *s)
{
	merge_free(s->merge);
	if (s->fd >= 0)
		close(s->fd);
	free(s->runs);
	free(s->buf);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}
