/*
 * fuzz_split.c: reading an input in chunks at its splitter's points
 * (format.h) must give exactly what reading it whole gives, whatever the
 * bytes: the same games (with their numbers, places and encodings) and
 * the same diagnostics, in the same order; and every read ends (no more
 * calls to read() than bytes, no game without moving on).
 *
 * The chunks are read as the pool (cmd/pool.c) reads them, one after the
 * other here: a chunk's games are handed over while chunk_next() says
 * that the next game starts before the chunk's end; the last must end
 * exactly at the chunk's end, and the chunk must hold as many games as
 * the splitter counted; otherwise the rest of the input is read from the
 * chunk's start, over the games handed over already.
 *
 * The first byte picks the format (bit 0: PGN or NDJSON), a forced
 * encoding for PGN (bits 1-2: none, UTF-8, GB18030, Big5) and how many
 * games a chunk aims at (bits 3-4: 1 to 4).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "format.h"
#include "game.h"
#include "io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

extern const struct xq_format xq_format_pgn;
extern const struct xq_format xq_format_ndjson;

#define MAX_POINTS 4096

struct reading {
	struct xq_buf game;   /* the game being read: its diagnostics, then itself */
	struct xq_buf out;    /* what was handed over */
	void *writer;
	struct xq_output *o;
	struct xq_buf rec;
};

static void put_diag(const struct xq_diag *d, void *payload)
{
	struct reading *r = payload;

	if (d->code == XQ_D_INTERNAL)
		abort(); /* a reader returned a game without moving on */
	xq_buf_addf(&r->game, "%llu:%llu:%llu:%d g%llu p%u %d %s [%s] %s\n",
		    (unsigned long long)d->place.line, (unsigned long long)d->place.col,
		    (unsigned long long)d->place.offset, d->has_offset,
		    (unsigned long long)d->game, d->ply, (int)d->severity,
		    xq_diag_code_name(d->code), d->move, d->msg);
}

static void put_game(struct reading *r, const struct xq_game *g)
{
	xq_buf_addf(&r->game, "game %llu at %llu:%llu:%llu %s %u\n", (unsigned long long)g->number,
		    (unsigned long long)g->place.line, (unsigned long long)g->place.col,
		    (unsigned long long)g->place.offset,
		    g->encoding ? g->encoding : "-", g->flags);
	xq_buf_reset(&r->rec);
	if (xq_format_ndjson.write(r->writer, g))
		abort();
	xq_buf_add(&r->game, r->rec.ptr, r->rec.len);
}

/* Hand the game read (and its diagnostics) over. */
static void hand_over(struct reading *r)
{
	xq_buf_add(&r->out, r->game.ptr, r->game.len);
	xq_buf_reset(&r->game);
}

static void reading_init(struct reading *r)
{
	struct xq_write_opts wo = XQ_WRITE_OPTS_INIT;

	memset(r, 0, sizeof(*r));
	if (xq_output_open_mem(&r->o, &r->rec) || xq_format_ndjson.open_writer(&r->writer, r->o, &wo, NULL))
		abort();
}

static void reading_release(struct reading *r)
{
	xq_format_ndjson.close_writer(r->writer);
	xq_output_commit(r->o, NULL);
	xq_buf_release(&r->game);
	xq_buf_release(&r->out);
	xq_buf_release(&r->rec);
}

/* Bytes [pos, end) of the input. */
struct span {
	const char *text;
	size_t pos, end;
};

static long span_read(void *ctx, void *buf, size_t n, struct xq_diag *d)
{
	struct span *s = ctx;
	size_t take = s->end - s->pos < n ? s->end - s->pos : n;

	(void)d;
	memcpy(buf, s->text + s->pos, take);
	s->pos += take;
	return (long)take;
}

/* Read the chunk at `start` to `end` (the whole rest when `final`), over
 * its first `skip` games; returns 1 when it ended as the splitter said, and
 * the games handed over in *handed. */
static int read_chunk(const struct xq_format *fmt, const struct xq_split_ops *ops,
		      const struct xq_read_opts *ro, struct reading *r, const char *text, size_t len,
		      const struct xq_split_point *start, const struct xq_split_point *end,
		      enum xq_encoding enc, uint64_t first_high, int final, uint64_t skip,
		      uint64_t *handed)
{
	struct span sp = {text, (size_t)start->offset, final ? len : (size_t)end->seen};
	size_t bytes = sp.end - sp.pos;
	struct xq_sink sink = {put_diag, r};
	struct xq_chunk c;
	struct xq_game g;
	void *rd;
	uint64_t count = 0, calls = 0;
	int rc, ok = 0;

	memset(&c, 0, sizeof(c));
	c.bytes.read = span_read;
	c.bytes.ctx = &sp;
	c.name = "fuzz";
	c.offset = start->offset;
	c.line = start->line;
	c.records = start->records;
	c.encoding = enc;
	c.first_high = first_high;
	if (ops->open_chunk(&rd, &c, ro, &sink) || xq_game_init(&g))
		abort();
	for (;;) {
		struct xq_place nx;
		int last = 0;
		if (++calls > bytes + 1)
			abort(); /* a game takes a byte at least */
		rc = fmt->read(rd, &g);
		if (rc <= 0)
			break;
		count++;
		put_game(r, &g);
		if (skip) {
			skip--;
			xq_buf_reset(&r->game);
			continue;
		}
		if (!final) {
			int known = ops->chunk_next(rd, &nx);
			if (known && nx.offset == end->offset && nx.line == end->line && nx.col == 1)
				last = 1;
			else if (!known || nx.offset >= end->offset)
				break; /* not handed over: the game may go on */
		}
		hand_over(r);
		(*handed)++;
		if (last) {
			ok = count == end->records - start->records;
			break;
		}
	}
	if (final) {
		xq_buf_addf(&r->game, "end %d\n", rc < 0 ? rc : 0);
		hand_over(r);
		ok = 1;
	}
	xq_buf_reset(&r->game);
	fmt->close_reader(rd);
	xq_game_release(&g);
	return ok;
}

/* Everything read from the input sequentially. */
static void read_whole(const struct xq_format *fmt, const struct xq_read_opts *ro,
		       struct reading *r, const char *text, size_t len)
{
	struct xq_sink sink = {put_diag, r};
	struct xq_input *in;
	struct xq_game g;
	uint64_t calls = 0;
	void *rd;
	int rc;

	if (xq_input_open_mem(&in, "fuzz", text, len) || fmt->open_reader(&rd, in, ro, &sink) ||
	    xq_game_init(&g))
		abort();
	for (;;) {
		if (++calls > len + 1)
			abort(); /* a game takes a byte at least */
		if ((rc = fmt->read(rd, &g)) <= 0)
			break;
		put_game(r, &g);
		hand_over(r);
	}
	xq_buf_addf(&r->game, "end %d\n", rc < 0 ? rc : 0);
	hand_over(r);
	fmt->close_reader(rd);
	xq_input_close(in);
	xq_game_release(&g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum xq_encoding encs[] = {XQ_ENC_UNKNOWN, XQ_ENC_UTF8, XQ_ENC_GB18030,
						XQ_ENC_BIG5};
	static struct xq_split_point pts[MAX_POINTS];
	const struct xq_format *fmt;
	const struct xq_split_ops *ops;
	struct xq_read_opts ro = XQ_READ_OPTS_INIT;
	struct reading whole, split;
	struct span all;
	struct xq_bytes src = {span_read, &all};
	struct xq_split_point start = {0, 1, 0, 0, XQ_ENC_UNKNOWN, UINT64_MAX};
	enum xq_encoding enc = XQ_ENC_UNKNOWN;
	uint64_t first_high = UINT64_MAX, games, handed = 0;
	const char *text;
	size_t len, n = 0;
	void *sp;
	int rc, done = 0;

	if (size == 0 || size > 65536)
		return 0;
	fmt = data[0] & 1 ? &xq_format_ndjson : &xq_format_pgn;
	ops = xq_format_split(fmt);
	if (fmt == &xq_format_pgn)
		ro.encoding = encs[(data[0] >> 1) & 3];
	games = 1 + ((data[0] >> 3) & 3);
	text = (const char *)data + 1;
	len = size - 1;

	reading_init(&whole);
	read_whole(fmt, &ro, &whole, text, len);

	/* The split points, then the chunks between them. */
	all.text = text;
	all.pos = 0;
	all.end = len;
	if (ops->open(&sp, &src, &ro))
		abort();
	while (n < MAX_POINTS && (rc = ops->next(sp, &pts[n])) == 1)
		n++;
	ops->close(sp);
	reading_init(&split);
	for (size_t i = 0; i < n && !done; i++) {
		const struct xq_split_point *pt = &pts[i];
		if (pt->encoding != XQ_ENC_UNKNOWN) {
			enc = pt->encoding;
			first_high = pt->first_high;
		}
		if (pt->offset <= start.offset || pt->records <= start.records ||
		    pt->records - start.records < games)
			continue;
		if (!read_chunk(fmt, ops, &ro, &split, text, len, &start, pt, enc, first_high, 0, 0,
				&handed)) {
			/* From the chunk's start to the end, over the games
			 * handed over already. */
			uint64_t again = 0;
			read_chunk(fmt, ops, &ro, &split, text, len, &start, pt, enc, first_high, 1, handed,
				   &again);
			done = 1;
			break;
		}
		handed = 0;
		start = *pt;
	}
	if (!done)
		read_chunk(fmt, ops, &ro, &split, text, len, &start, &start, enc, first_high, 1, 0,
			   &handed);

	if (whole.out.len != split.out.len || memcmp(whole.out.ptr, split.out.ptr, whole.out.len)) {
		/* Say where, then crash for the fuzzer. */
		size_t k = 0, line = 0;
		while (k < whole.out.len && k < split.out.len && whole.out.ptr[k] == split.out.ptr[k])
			if (whole.out.ptr[k++] == '\n')
				line = k;
		fprintf(stderr, "fuzz invariant broken: chunks read otherwise than the whole input\n"
				"  whole: %.300s\n  split: %.300s\n",
			whole.out.ptr + line, split.out.ptr + line);
		abort();
	}
	reading_release(&whole);
	reading_release(&split);
	return 0;
}
