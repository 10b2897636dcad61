/*
 * feed.c: the feed: a big file cut into chunks, its splitter reading it
 * into the carry, each chunk's bytes copied into a segment (at split
 * points counted, or, late numbering, at the format's boundaries).
 */
#include "batch_int.h"

#include <stdlib.h>
#include <string.h>

/* Bytes the carry may hold before a split point comes: beyond, the rest
 * of the file is read sequentially (one game that size is read whole). */
#define CARRY_MAX ((size_t)16 << 20)

/* Append the next `n` bytes of the input to the carry, asking the input for
 * exactly `n` as a reader would.  Returns the count, 0 at the end, or the
 * input's error (kept, and given again to whoever asks after it). */
long xqi_batch_feed_read_input(struct feed *f, size_t n, struct xq_diagnostic *d)
{
	long got;

	if (f->in_rc) {
		*d = f->in_diag;
		return f->in_rc;
	}
	if (f->in_eof)
		return 0;
	if (f->carry_pos > 0 && f->carry_pos >= f->carry.len / 2) {
		memmove(f->carry.ptr, f->carry.ptr + f->carry_pos, f->carry.len - f->carry_pos);
		xq_buf_truncate(&f->carry, f->carry.len - f->carry_pos);
		f->carry_pos = 0;
	}
	if (xq_buf_grow(&f->carry, n)) {
		xqi_diagnostic_set(d, XQ_ENOMEM, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "out of memory");
		return XQ_ENOMEM;
	}
	got = xqi_input_read(f->src.in, f->carry.ptr + f->carry.len, n, d);
	if (got < 0) {
		f->in_rc = (int)got;
		f->in_diag = *d;
		return got;
	}
	if (got == 0)
		f->in_eof = 1;
	f->carry.len += (size_t)got;
	return got;
}

/* The splitter's bytes: read on into the carry (under the feed's lock). */
static long feed_pull(void *ctx, void *buf, size_t n, struct xq_diagnostic *d)
{
	struct feed *f = ctx;
	long got = xqi_batch_feed_read_input(f, n, d);

	if (got > 0)
		memcpy(buf, f->carry.ptr + f->carry.len - (size_t)got, (size_t)got);
	return got;
}

/* Drop the carry's bytes before input offset `to`. */
void xqi_batch_carry_drop(struct feed *f, uint64_t to)
{
	f->carry_pos += (size_t)(to - f->carry_off);
	f->carry_off = to;
}

/* The number of the first chunk not checked yet (mu held). */
uint64_t xqi_batch_first_unchecked(struct feed *f)
{
	uint64_t k;

	pthread_mutex_lock(&f->seg_mu);
	k = f->head ? f->head->k : f->nchunks;
	pthread_mutex_unlock(&f->seg_mu);
	return k;
}

/* No more chunks of this file (under the feed's lock). */
void xqi_batch_feed_finish(struct pool *p, struct feed *f)
{
	if (f->splitter) {
		f->ops->close(f->splitter);
		f->splitter = NULL;
	}
	if (!p->serial)
		pthread_mutex_lock(&p->mu);
	if (p->feed == f)
		p->feed = NULL;
	rec_of(f->file)->closed = 1;
	if (!p->serial)
		pthread_mutex_unlock(&p->mu);
}

/* Make `u` the chunk [f->at, end) of `f` (under the feed's lock). */
static void set_chunk(struct feed *f, struct unit *u, struct seg *s)
{
	u->feed = f;
	u->k = f->nchunks++;
	u->seg = s;
	u->chunk.name = f->file->name;
	u->chunk.offset = f->at;
	u->chunk.line = f->at_line;
	u->chunk.records = f->at_records;
	u->chunk.encoding = f->enc;
	u->chunk.first_high = f->first_high;
	u->stored = xqi_input_stored_offset(f->src.in);
}

/* A segment of the carry's first `len` bytes, kept by the feed; NULL when
 * memory is short. */
static struct seg *cut_segment(struct feed *f, size_t len, uint64_t body_end)
{
	struct seg *s = calloc(1, sizeof(*s));

	if (!s || !(s->data = malloc(len ? len : 1))) {
		free(s);
		return NULL;
	}
	memcpy(s->data, f->carry.ptr + f->carry_pos, len);
	s->k = f->nchunks;
	s->start = f->carry_off;
	s->body_end = body_end;
	s->end = f->carry_off + len;
	s->refs = 2; /* the feed's and the unit's */
	pthread_mutex_lock(&f->seg_mu);
	if (f->tail)
		f->tail->next = s;
	else
		f->head = s;
	f->tail = s;
	pthread_mutex_unlock(&f->seg_mu);
	return s;
}

static void cut_chunk_late(struct pool *p, struct feed *f, struct unit *u);

/* The last unit of the file, into `u`: to the end of the input.  `whole`
 * when every byte is in the carry (a segment of its own); else it reads
 * on from the carry and the input (an error the splitter met is met again
 * there, at the same byte). */
static void cut_last(struct pool *p, struct feed *f, struct unit *u, int whole)
{
	struct seg *s;

	atomic_fetch_add(&p->chunks, 1);
	u->final = 1;
	if (whole && (s = cut_segment(f, carry_len(f), f->carry_off + carry_len(f)))) {
		set_chunk(f, u, s);
		xqi_batch_carry_drop(f, s->end);
	} else {
		set_chunk(f, u, NULL);
		atomic_fetch_add(&p->gave_up, 1);
	}
	xqi_batch_feed_finish(p, f);
}

/*
 * Cut the next chunk of `f` into `u`: up to a split point past the
 * thresholds, or to the end of the input, or (when the splitter gives up
 * or no point comes within CARRY_MAX) everything left, read sequentially.
 * A feed cut late goes to cut_chunk_late().
 */
void xqi_batch_cut_chunk(struct pool *p, struct feed *f, struct unit *u)
{
	struct xqi_split_point pt;
	struct seg *s;
	int rc;

	if (f->late) {
		cut_chunk_late(p, f, u);
		return;
	}
	for (;;) {
		if (carry_len(f) > CARRY_MAX) {
			rc = XQ_ERANGE;
			break;
		}
		rc = f->ops->next(f->splitter, &pt);
		if (rc != 1)
			break;
		if (pt.encoding != XQI_ENC_UNKNOWN) {
			f->enc = pt.encoding;
			f->first_high = pt.first_high;
		}
		if (pt.offset <= f->at || pt.records <= f->at_records)
			continue; /* no game before it */
		if (pt.records - f->at_records < p->chunk_games && pt.offset - f->at < p->chunk_bytes)
			continue;
		s = cut_segment(f, (size_t)(pt.seen - f->carry_off), pt.offset);
		if (!s) {
			rc = XQ_ENOMEM;
			break;
		}
		set_chunk(f, u, s);
		u->end = pt.offset;
		u->end_line = pt.line;
		u->expect = pt.records - f->at_records;
		xqi_batch_carry_drop(f, pt.offset);
		atomic_fetch_add(&p->chunks, 1);
		f->at = pt.offset;
		f->at_line = pt.line;
		f->at_records = pt.records;
		return;
	}
	cut_last(p, f, u, rc == 0);
}

/*
 * Late numbering: the first byte over 0x7F in the input's bytes before
 * carry offset `upto` decides the encoding of the chunks that hold it and
 * of every later one, as a reader of the whole input decides it.  0 when
 * the bytes before `upto` are settled; 1 when deciding needs more bytes;
 * negative when no chunk may start after it (an encoding chunks cannot
 * start in).
 */
static int late_encoding(struct feed *f, size_t upto)
{
	const unsigned char *b = (const unsigned char *)f->carry.ptr + f->carry_pos;
	size_t i = (size_t)(f->scanned > f->carry_off ? f->scanned - f->carry_off : 0);
	enum xqi_encoding enc;
	int rc;

	if (f->enc_done)
		return 0;
	while (i < upto && b[i] < 0x80)
		i++;
	if (i == upto) {
		f->scanned = f->carry_off + upto;
		return 0;
	}
	/* The carry starts where a record does: at a line's start. */
	rc = f->ops->decide((const char *)b, carry_len(f), 0, i, f->in_eof, &enc);
	if (rc <= 0)
		return rc < 0 ? rc : 1;
	f->enc = enc;
	f->first_high = f->carry_off + i;
	f->enc_done = 1;
	return 0;
}

/* Late numbering: what is known at the input's start (the feed's first
 * bytes read): an encoding given, or a byte order mark.  0 when chunks may
 * be cut late; else (UTF-16, or an input that fails at once) the input is
 * one unit read in order. */
static int late_start(struct pool *p, struct feed *f)
{
	const unsigned char *b;
	struct xq_diagnostic d;

	xqi_diagnostic_init(&d);
	if (xqi_batch_feed_read_input(f, XQI_READ_SIZE, &d) < 0)
		return -1; /* met again by whoever reads on */
	b = (const unsigned char *)f->carry.ptr + f->carry_pos;
	if (p->ro.encoding != XQI_ENC_UNKNOWN) {
		f->enc_done = 1; /* the readers have it in their options */
	} else if (carry_len(f) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) {
		f->enc = XQI_ENC_UTF8;
		f->first_high = 0;
		f->enc_done = 1;
	} else if (carry_len(f) >= 2 && ((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF))) {
		return -1;
	}
	return 0;
}

/*
 * Late numbering: cut the next chunk of `f` into `u` at the format's
 * first boundary p->chunk_late bytes on or further, without a look at
 * what is before; or, at the end of the input (or when no boundary comes
 * within CARRY_MAX bytes, or the encoding forbids), leave the rest to one
 * last unit, read in order and numbered as it is read.
 */
static void cut_chunk_late(struct pool *p, struct feed *f, struct unit *u)
{
	size_t at = 0, seen = 0;
	struct seg *s;
	int rc = f->late_whole ? XQ_EUNSUPPORTED : 0;

	while (rc >= 0) {
		size_t len = carry_len(f), from = (size_t)p->chunk_late;
		int found = 0;
		/* Where the last look for this chunk stopped, so that a chunk
		 * that takes many reads is not looked through again for each. */
		if (f->searched > f->carry_off + from)
			from = (size_t)(f->searched - f->carry_off);
		if (len > from) {
			found = f->ops->boundary(f->carry.ptr + f->carry_pos, len, from, f->in_eof, &at,
						 &seen) == 1;
			if (!found)
				f->searched = f->carry_off + at;
		}
		rc = late_encoding(f, found ? seen : len);
		if (rc < 0)
			break;
		if (found && rc == 0) {
			if (!(s = cut_segment(f, seen, f->carry_off + at))) {
				rc = XQ_ENOMEM;
				break;
			}
			set_chunk(f, u, s);
			u->chunk.line = 1;
			u->chunk.records = 0;
			u->rel = 1;
			u->end = f->carry_off + at;
			xqi_batch_carry_drop(f, u->end);
			atomic_fetch_add(&p->chunks, 1);
			f->at = u->end;
			return;
		}
		if (f->in_eof || f->in_rc)
			break;
		if (len > CARRY_MAX) {
			rc = XQ_ERANGE;
			break;
		}
		{
			struct xq_diagnostic d;
			xqi_diagnostic_init(&d);
			if (xqi_batch_feed_read_input(f, XQI_READ_SIZE, &d) < 0)
				break; /* met again by the last unit, which reads on */
		}
	}
	/* Read in order to the end, numbered as it is read (its reader
	 * waits for the units before it to be numbered). */
	cut_last(p, f, u, rc == 0 && f->in_eof && !f->in_rc);
}

/* A whole-file unit: the feed's file turned out not to be split. */
static void unit_whole(struct pool *p, struct feed *f, struct unit *u)
{
	u->feed = NULL;
	xqi_batch_feed_finish(p, f);
}

/*
 * The first worker of a big file: open it, and cut its first chunk into
 * `u` (or leave `u` a whole-file unit when the file cannot be split).
 * Called with the feed's lock held.
 */
void xqi_batch_feed_start(struct pool *p, struct feed *f, struct unit *u)
{
	struct xq_batch_file *file = f->file;
	struct xqi_bytes pull = {feed_pull, f};
	int rc;

	xqi_diagnostic_init(&u->open_d);
	rc = xqi_source_open_input(&u->src, file->path, p->forced, p->cancel, FROM_HINT,
				  &u->open_d);
	u->opened = 1;
	if (rc != XQI_SOURCE_OK) {
		u->open_rc = rc;
		u->opened = 0;
		unit_whole(p, f, u);
		return;
	}
	xqi_batch_file_recognised(file, &u->src);
	f->ops = xqi_format_split(u->src.fmt);
	if (!f->ops || f->ops->open(&f->splitter, &pull, &p->ro)) {
		f->splitter = NULL;
		unit_whole(p, f, u);
		return;
	}
	/* The input is the feed's now. */
	f->src = u->src;
	u->opened = 0;
	memset(&u->src, 0, sizeof(u->src));
	f->at_line = 1;
	f->head_line = 1;
	f->late = p->late && f->ops->boundary && f->ops->decide;
	if (f->late && late_start(p, f))
		f->late_whole = 1;
	atomic_fetch_add(&p->split_files, 1);
	xqi_batch_cut_chunk(p, f, u);
}
