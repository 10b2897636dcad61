/*
 * chunk.c: reading a chunk: its games read from its segment (and after a
 * fall back, on to the end of the input), checked to end where the
 * splitter said, handed over in order; late numbering's last unit.
 */
#include "batch_int.h"

#include <string.h>

/* A chunk reader's bytes: its segment; after a fall back, the segments
 * after it, then the carry and the input. */
struct stream {
	struct feed *f;
	struct seg *seg;   /* a reference, or NULL */
	uint64_t pos;      /* input offset of the next byte */
	uint64_t k;        /* the chunk's number */
	int tail;          /* reading on to the end of the input */
};

static long stream_read(void *ctx, void *buf, size_t n, struct xq_diagnostic *d)
{
	struct stream *st = ctx;
	struct feed *f = st->f;
	struct pool *p = f->pool;
	long got;

	/* Bytes already read are a chunk's or the carry's (up to CARRY_MAX):
	 * reading them stops on a signal as reading the input does. */
	if (atomic_load(p->cancel))
		return xqi_diagnostic_set(d, XQ_ECANCELED, XQI_D_IO, XQ_SEVERITY_ERROR, "reading interrupted");

	if (st->seg && !st->tail) {
		size_t take = (size_t)(st->seg->end - st->pos);
		if (take > n)
			take = n;
		memcpy(buf, st->seg->data + (st->pos - st->seg->start), take);
		st->pos += take;
		return (long)take;
	}
	pthread_mutex_lock(&f->mu);
	while (st->seg) {
		struct seg *next;
		if (st->pos < st->seg->body_end) {
			size_t take = (size_t)(st->seg->body_end - st->pos);
			if (take > n)
				take = n;
			memcpy(buf, st->seg->data + (st->pos - st->seg->start), take);
			st->pos += take;
			pthread_mutex_unlock(&f->mu);
			return (long)take;
		}
		pthread_mutex_lock(&f->seg_mu);
		next = st->seg->next;
		if (next)
			next->refs++;
		xqi_batch_seg_unref(st->seg);
		pthread_mutex_unlock(&f->seg_mu);
		st->seg = next;
	}
	for (;;) {
		size_t avail = carry_len(f);
		if (st->pos < f->carry_off) {
			/* The bytes were dropped: a bug, said rather than read wrong. */
			got = xqi_diagnostic_set(d, XQ_EINTERNAL, XQI_D_INTERNAL, XQ_SEVERITY_ERROR,
					  "bytes before offset %llu are no longer kept",
					  (unsigned long long)f->carry_off);
			break;
		}
		if (st->pos < f->carry_off + avail) {
			size_t take = (size_t)(f->carry_off + avail - st->pos);
			if (take > n)
				take = n;
			memcpy(buf, f->carry.ptr + f->carry_pos + (st->pos - f->carry_off), take);
			st->pos += take;
			/* The carry is this reader's alone once no chunk before it
			 * can fall back (and read these bytes again). */
			if (xqi_batch_first_unchecked(f) >= st->k)
				xqi_batch_carry_drop(f, st->pos);
			got = (long)take;
			break;
		}
		got = xqi_batch_feed_read_input(f, XQI_READ_SIZE, d);
		if (got <= 0)
			break;
	}
	pthread_mutex_unlock(&f->mu);
	return got;
}

static void stream_release(struct stream *st)
{
	if (!st->seg)
		return;
	pthread_mutex_lock(&st->f->seg_mu);
	xqi_batch_seg_unref(st->seg);
	pthread_mutex_unlock(&st->f->seg_mu);
	st->seg = NULL;
}

/* The chunk of segment `s` is checked: drop the segments no fall back can
 * need any more. */
static void chunk_checked(struct feed *f, struct seg *s)
{
	pthread_mutex_lock(&f->seg_mu);
	s->checked = 1;
	while (f->head && f->head->checked) {
		struct seg *first = f->head;
		f->head = first->next;
		if (!f->head)
			f->tail = NULL;
		xqi_batch_seg_unref(first);
	}
	pthread_mutex_unlock(&f->seg_mu);
}

/*
 * Chunk `u` did not end where the splitter said: void the chunks after it,
 * stop cutting, and point `st` at the chunk's start to read on to the end
 * of the input.
 */
static void fall_back(struct pool *p, struct unit *u, struct stream *st)
{
	struct feed *f = u->feed;

	atomic_fetch_add(&p->fallbacks, 1);
	pthread_mutex_lock(&f->mu);
	if (atomic_load(&f->void_from) > u->k + 1)
		atomic_store(&f->void_from, u->k + 1);
	if (f->splitter)
		xqi_batch_feed_finish(p, f);
	st->pos = u->chunk.offset;
	st->tail = 1;
	u->final = 1;
	pthread_mutex_unlock(&f->mu);
}

/* The file's END job from a chunk, unless the chunk is void (under the
 * feed's lock, so that a void chunk and the one reading on never both set
 * the file's status). */
static int chunk_end(struct unit *u, xq_batch_file_status status)
{
	int ok;

	pthread_mutex_lock(&u->feed->mu);
	ok = !voided(u);
	if (ok)
		u->file->status = status;
	pthread_mutex_unlock(&u->feed->mu);
	return ok;
}

/* Chunk `u`'s turn at the budget: its bytes, and its games (one record's
 * worth of them at most: the ring's games are held to it). */
static void chunk_reserve(struct worker *w, struct unit *u, const struct stream *st)
{
	const struct xqi_format *fmt = rec_of(u->file)->fmt;
	uint64_t limit = xqi_format_record_limit(fmt, &w->pool->ro);
	uint64_t span = st->seg && !st->tail ? st->seg->end - st->seg->start : limit;

	xqi_batch_unit_reserve(w, u, (st->seg ? span : 0) +
				   xqi_format_record_memory(fmt, span < limit ? span : limit));
}

/*
 * Late numbering: unit `u`, which reads on to the end of the input (the
 * last unit, or a chunk fallen back), numbers its games and lines as it
 * reads them, from those of every unit before it: it waits until they
 * have been emitted.  A no-op for a chunk of a feed not cut late.
 */
static void late_absolute(struct worker *w, struct unit *u)
{
	struct pool *p = w->pool;
	struct feed *f = u->feed;

	if (!f->late || voided(u))
		return;
	if (w->holds)
		xqi_batch_let_go(w);
	if (!p->share)
		xqi_batch_emit_ready(p);
	pthread_mutex_lock(&p->mu);
	while (p->out_seq != u->seq && !p->stop) {
		/* What is ready may wait for a sleeping output thread. */
		pthread_cond_signal(&p->cond);
		pthread_cond_wait(&p->head_cond, &p->mu);
	}
	u->chunk.line = f->head_line;
	u->chunk.records = f->head_games;
	pthread_mutex_unlock(&p->mu);
	u->rel = 0;
}

/* A chunk being read: its reader, its bytes, the job being filled, and
 * its games read and handed over (since the chunk's start, or since a
 * fall back). */
struct chunk_read {
	struct worker *w;
	struct unit *u;
	const struct xqi_format *fmt;
	struct stream st;         /* the reader's bytes (u->chunk.bytes) */
	struct xqi_sink sink;     /* the reader's diagnostics, while it is open */
	struct xq_batch_job *j;
	void *rd;
	uint64_t handed, skip, count;
};

/* What a game read from a chunk leads to. */
enum chunk_step {
	STEP_ON,        /* read the next game */
	STEP_CHECKED,   /* the chunk ended where the splitter said */
	STEP_FALL_BACK, /* it did not: read on to the end of the input */
	STEP_STOP       /* the run stops */
};

/* The game just read into c->j: skipped (handed over already, before a
 * fall back), or processed and handed over, and checked against where
 * and after how many games the chunk should end. */
static enum chunk_step chunk_game(struct chunk_read *c)
{
	struct pool *p = c->w->pool;
	struct unit *u = c->u;
	struct xqi_place nx;
	int last = 0, known;

	c->count++;
	if (c->skip) {
		/* Handed over already, before the fall back. */
		c->skip--;
		xqi_batch_job_reset(p, c->j, u->file);
		return STEP_ON;
	}
	if (!u->final) {
		known = u->feed->ops->chunk_next(c->rd, &nx);
		if (known && nx.offset == u->end && nx.col == 1 &&
		    (u->rel || nx.line == u->end_line)) {
			last = 1;
			u->rel_end_line = nx.line; /* for late numbering */
		} else if (!known || nx.offset >= u->end) {
			return STEP_FALL_BACK; /* the game may go on past the chunk */
		}
	}
	game_of(c->j)->source = u->file->name;
	c->j->late = u->rel;
	xqi_batch_process_job(p->cfg, c->w->data, c->j);
	xqi_batch_publish(c->w, c->j, 0);
	c->handed++;
	if (!(c->j = xqi_batch_acquire(c->w, u->file)))
		return STEP_STOP;
	if (!last)
		return STEP_ON;
	if (u->rel || c->count == u->expect) {
		chunk_checked(u->feed, c->st.seg);
		return STEP_CHECKED;
	}
	/* Right end, but not the games the splitter counted: the
	 * chunks after it are numbered wrong. */
	return STEP_FALL_BACK;
}

/* The end of the input, met by the unit that reads on to it (`rc`: its
 * last read): the file's END job, which the diagnostics of this last read
 * go with.  0, or -1 when the run stops. */
static int chunk_input_end(struct chunk_read *c, int rc)
{
	struct unit *u = c->u;

	if (rc < 0)
		xqi_batch_read_stopped(c->w, c->j, rc);
	c->fmt->close_reader(c->rd);
	c->rd = NULL;
	stream_release(&c->st);
	if (chunk_end(u, xqi_batch_read_status(rc))) {
		c->j->kind = XQ_BATCH_END;
		xqi_batch_publish(c->w, c->j, 0);
		if (!(c->j = xqi_batch_acquire(c->w, u->file)))
			return -1;
	}
	return 0;
}

/* Read on from the chunk's start to the end of the input, over the games
 * handed over already. */
static void chunk_fall_back(struct chunk_read *c)
{
	struct pool *p = c->w->pool;

	fall_back(p, c->u, &c->st);
	c->fmt->close_reader(c->rd);
	c->rd = NULL;
	xqi_batch_job_reset(p, c->j, c->u->file);
	c->skip = c->handed;
	c->count = 0;
	late_absolute(c->w, c->u);
}

/* Read the games of c's chunk until it is checked or void, or to the end
 * of the input: 0, or -1 when the run stops. */
static int chunk_games(struct chunk_read *c)
{
	struct pool *p = c->w->pool;
	struct unit *u = c->u;
	int rc;

	for (;;) {
		if (!c->rd && u->feed->ops->open_chunk(&c->rd, &u->chunk, &p->ro, &c->sink)) {
			c->rd = NULL;
			pthread_mutex_lock(&p->mu);
			xqi_batch_stop_all(p, XQ_ENOMEM);
			pthread_mutex_unlock(&p->mu);
			return -1;
		}
		if (voided(u))
			return 0;
		rc = c->fmt->read(c->rd, game_of(c->j));
		if (rc == XQ_ECANCELED) {
			xqi_batch_stop_canceled(p);
			return -1;
		}
		if (rc > 0) {
			enum chunk_step step = chunk_game(c);
			if (step == STEP_ON)
				continue;
			if (step != STEP_FALL_BACK)
				return step == STEP_CHECKED ? 0 : -1;
		} else if (u->final) {
			return chunk_input_end(c, rc);
		}
		chunk_fall_back(c);
	}
}

/* Read chunk `u`, publishing its games, then the file's END if it is the
 * last, then the marker. */
void xqi_batch_read_chunk(struct worker *w, struct unit *u)
{
	struct chunk_read c = {
		.w = w,
		.u = u,
		.fmt = rec_of(u->file)->fmt,
		.st = {u->feed, u->seg, u->chunk.offset, u->k, u->seg == NULL},
		.sink = {xqi_batch_pool_sink, w},
	};
	int ok;

	u->seg = NULL; /* the stream has its reference */
	u->chunk.bytes.read = stream_read;
	u->chunk.bytes.ctx = &c.st;
	chunk_reserve(w, u, &c.st);
	w->file = u->file;
	atomic_store(&w->bytes, u->stored);
	ok = (c.j = xqi_batch_acquire(w, u->file)) != NULL;
	if (ok && u->final)
		late_absolute(w, u);
	if (ok)
		ok = chunk_games(&c) == 0;
	if (c.rd)
		c.fmt->close_reader(c.rd);
	c.rd = NULL;
	stream_release(&c.st);
	w->file = NULL;
	if (!ok)
		return;
	xqi_batch_unit_read(w, u);
	xqi_batch_publish_marker(w, c.j);
}
