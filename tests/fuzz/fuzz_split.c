/*
 * fuzz_split.c: reading an input in chunks at its splitter's points
 * (format.h) must give exactly what reading it whole gives, whatever the
 * bytes: the same games (with their numbers, places and encodings) and
 * the same diagnostics, in the same order; and every read ends (no more
 * calls to read() than bytes, no game without moving on).
 *
 * The chunks are read as the batch (batch/chunk.c) reads them, one after the
 * other here: a chunk's games are handed over while chunk_next() says
 * that the next game starts before the chunk's end; the last must end
 * exactly at the chunk's end, and the chunk must hold as many games as
 * the splitter counted; otherwise the rest of the input is read from the
 * chunk's start, over the games handed over already.
 *
 * A PGN input is also read cut late (batch/feed.c, cut_chunk_late: late
 * numbering), as the pool cuts it for validate, stats and convert: at the
 * format's boundary a window's length on, the encoding settled by its
 * decide at the first byte over 0x7F, the bytes coming in steps as reads
 * bring them; each chunk read with its games and lines counted from its
 * start and put right as the pool's late_fix puts them (a diagnostic's
 * game when it is the game's own, lines that are not 0); a chunk whose
 * last game does not end at its boundary, and the rest after the last
 * chunk, read in order from the chunk's start with the numbers of all
 * before it.  That too must give what reading the whole input gives.
 *
 * The first byte picks the format (bit 0: PGN or NDJSON), a forced
 * encoding for PGN (bits 1-2: none, UTF-8, GB18030, Big5), how many
 * games a chunk aims at (bits 3-4: 1 to 4), and for the late cut the
 * window and the step of the reads (bits 5-7); bit 7 also sets a record's
 * limit (--max-game-size) to 1 KiB, so that records over it are skipped
 * and the next read, whole and in chunks alike.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diagnostic.h"
#include "format.h"
#include "record.h"
#include "io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

extern const struct xqi_format xqi_format_pgn;
extern const struct xqi_format xqi_format_ndjson;

#define MAX_POINTS 4096

struct reading {
	struct xq_buf game;   /* the game being read: its diagnostics, then itself */
	struct xq_buf out;    /* what was handed over */
	void *writer;
	struct xq_file *o;
	struct xq_buf rec;
	/* Cut late: the game's diagnostics wait for its number; the lines
	 * and games of the chunks before this one. */
	int late;
	struct xq_diagnostic *held;
	size_t nheld, held_alloc;
	uint64_t line_base, game_base;
};

static void show_diag(struct reading *r, const struct xq_diagnostic *d)
{
	xq_buf_addf(&r->game, "%llu:%llu:%llu:%d g%llu p%u %d %s [%s] %s\n",
		    (unsigned long long)d->place.line, (unsigned long long)d->place.col,
		    (unsigned long long)d->place.offset, d->has_offset,
		    (unsigned long long)d->game, d->ply, (int)d->severity,
		    xqi_diagnostic_code_name(d->code), d->move, d->msg);
}

static void put_diag(const struct xq_diagnostic *d, void *payload)
{
	struct reading *r = payload;

	if (d->code == XQI_D_INTERNAL)
		abort(); /* a reader returned a game without moving on */
	if (!r->late) {
		show_diag(r, d);
		return;
	}
	if (r->nheld == r->held_alloc) {
		r->held_alloc = r->held_alloc ? 2 * r->held_alloc : 16;
		if (!(r->held = realloc(r->held, r->held_alloc * sizeof(*r->held))))
			abort();
	}
	r->held[r->nheld++] = *d;
}

static void put_game(struct reading *r, struct xqi_record *g)
{
	if (r->late) {
		/* As the pool's late_fix puts a job right. */
		uint64_t rel = g->number;
		for (size_t i = 0; i < r->nheld; i++) {
			struct xq_diagnostic *d = &r->held[i];
			if (d->game == rel)
				d->game = rel + r->game_base;
			if (d->place.line)
				d->place.line += r->line_base;
			show_diag(r, d);
		}
		r->nheld = 0;
		g->number = rel + r->game_base;
		if (g->place.line)
			g->place.line += r->line_base;
	}
	xq_buf_addf(&r->game, "game %llu at %llu:%llu:%llu %s %u\n", (unsigned long long)g->number,
		    (unsigned long long)g->place.line, (unsigned long long)g->place.col,
		    (unsigned long long)g->place.offset,
		    g->encoding ? g->encoding : "-", g->flags);
	xq_buf_reset(&r->rec);
	if (xqi_format_ndjson.write(r->writer, g))
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
	struct xqi_write_opts wo = XQI_WRITE_OPTS_INIT;

	memset(r, 0, sizeof(*r));
	if (xqi_file_open_mem(&r->o, &r->rec) || xqi_format_ndjson.open_writer(&r->writer, r->o, &wo, NULL))
		abort();
}

static void reading_release(struct reading *r)
{
	xqi_format_ndjson.close_writer(r->writer);
	xqi_file_commit(r->o, NULL);
	xq_buf_release(&r->game);
	xq_buf_release(&r->out);
	xq_buf_release(&r->rec);
	free(r->held);
}

/* Bytes [pos, end) of the input. */
struct span {
	const char *text;
	size_t pos, end;
};

static long span_read(void *ctx, void *buf, size_t n, struct xq_diagnostic *d)
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
 * the games handed over in *handed.  Cut late (r->late), its games and
 * lines are counted from its start, and where its last game ends is all
 * that is checked: *end_line gets the line of `end` counted so. */
static int read_chunk(const struct xqi_format *fmt, const struct xqi_split_ops *ops,
		      const struct xqi_read_opts *ro, struct reading *r, const char *text, size_t len,
		      const struct xqi_split_point *start, const struct xqi_split_point *end,
		      enum xqi_encoding enc, uint64_t first_high, int final, uint64_t skip,
		      uint64_t *handed, uint64_t *end_line)
{
	struct span sp = {text, (size_t)start->offset, final ? len : (size_t)end->seen};
	size_t bytes = sp.end - sp.pos;
	struct xqi_sink sink = {put_diag, r};
	struct xqi_chunk c;
	struct xqi_record g;
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
	if (ops->open_chunk(&rd, &c, ro, &sink) || xqi_record_init(&g))
		abort();
	for (;;) {
		struct xqi_place nx;
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
			if (known && nx.offset == end->offset && nx.col == 1 &&
			    (r->late || nx.line == end->line))
				last = 1;
			else if (!known || nx.offset >= end->offset)
				break; /* not handed over: the game may go on */
		}
		hand_over(r);
		(*handed)++;
		if (last) {
			ok = r->late || count == end->records - start->records;
			if (end_line)
				*end_line = nx.line;
			break;
		}
	}
	if (final) {
		xq_buf_addf(&r->game, "end %d\n", rc < 0 ? rc : 0);
		hand_over(r);
		ok = 1;
	}
	xq_buf_reset(&r->game);
	r->nheld = 0;
	fmt->close_reader(rd);
	xqi_record_release(&g);
	return ok;
}

/* Crash for the fuzzer, saying where, when `b` is not what `a` read. */
static void same_reading(const struct reading *a, const struct reading *b, const char *what)
{
	size_t k = 0, line = 0;

	if (a->out.len == b->out.len && !memcmp(a->out.ptr, b->out.ptr, a->out.len))
		return;
	while (k < a->out.len && k < b->out.len && a->out.ptr[k] == b->out.ptr[k])
		if (a->out.ptr[k++] == '\n')
			line = k;
	fprintf(stderr, "fuzz invariant broken: %s read otherwise than the whole input\n"
			"  whole: %.300s\n  split: %.300s\n",
		what, a->out.ptr + line, b->out.ptr + line);
	abort();
}

/* Everything read from the input sequentially. */
static void read_whole(const struct xqi_format *fmt, const struct xqi_read_opts *ro,
		       struct reading *r, const char *text, size_t len)
{
	struct xqi_sink sink = {put_diag, r};
	struct xqi_input *in;
	struct xqi_record g;
	uint64_t calls = 0;
	void *rd;
	int rc;

	if (xqi_input_open_mem(&in, "fuzz", text, len) || fmt->open_reader(&rd, in, ro, &sink) ||
	    xqi_record_init(&g))
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
	xqi_input_close(in);
	xqi_record_release(&g);
}

/*
 * The input cut late, as batch/feed.c's late_start, cut_chunk_late and
 * late_encoding cut it: chunks of `window` bytes or more, each ending at
 * the format's boundary, the input's bytes coming `step` at a time.
 */
static void read_late(const struct xqi_format *fmt, const struct xqi_split_ops *ops,
		      const struct xqi_read_opts *ro, struct reading *r, const char *text, size_t len,
		      size_t window, size_t step)
{
	const unsigned char *u = (const unsigned char *)text;
	struct xqi_split_point start = {0, 1, 0, 0, XQI_ENC_UNKNOWN, UINT64_MAX}, end;
	enum xqi_encoding enc = XQI_ENC_UNKNOWN, e;
	uint64_t first_high = UINT64_MAX, lines = 0, games = 0, handed;
	size_t have = step < len ? step : len, searched = 0, scanned = 0, at, seen;
	int enc_done = ro->encoding != XQI_ENC_UNKNOWN, whole = 0, rc;

	/* late_start: a byte order mark; UTF-16 is read in order. */
	if (!enc_done && len >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF) {
		enc = XQI_ENC_UTF8;
		first_high = 0;
		enc_done = 1;
	} else if (!enc_done && len >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) || (u[0] == 0xFE && u[1] == 0xFF))) {
		whole = 1;
	}
	while (!whole) {
		size_t clen = have - (size_t)start.offset, from = window, upto, i;
		int found = 0, need = 0;
		if (searched > start.offset + from)
			from = searched - (size_t)start.offset;
		if (clen > from) {
			found = ops->boundary(text + start.offset, clen, from, have == len, &at, &seen) == 1;
			if (!found)
				searched = (size_t)start.offset + at;
		}
		/* late_encoding: the first byte over 0x7F before `upto`. */
		upto = found ? seen : clen;
		i = scanned > start.offset ? scanned - (size_t)start.offset : 0;
		if (!enc_done) {
			while (i < upto && u[start.offset + i] < 0x80)
				i++;
			if (i == upto) {
				scanned = (size_t)start.offset + upto;
			} else {
				rc = ops->decide(text + start.offset, clen, 0, i, have == len, &e);
				if (rc < 0)
					break;
				if (rc == 0) {
					need = 1;
				} else {
					enc = e;
					first_high = start.offset + i;
					enc_done = 1;
				}
			}
		}
		if (found && !need) {
			uint64_t end_line = 0;
			end = start;
			end.offset = start.offset + at;
			end.seen = start.offset + seen;
			start.line = 1;
			start.records = 0;
			r->late = 1;
			r->line_base = lines;
			r->game_base = games;
			handed = 0;
			rc = read_chunk(fmt, ops, ro, r, text, len, &start, &end, enc, first_high, 0, 0,
					&handed, &end_line);
			r->late = 0;
			start.line = lines + 1;
			start.records = games;
			if (!rc) {
				/* Fallen back: in order from the chunk's start. */
				uint64_t again = 0;
				read_chunk(fmt, ops, ro, r, text, len, &start, &start, enc, first_high, 1,
					   handed, &again, NULL);
				return;
			}
			lines += end_line - 1;
			games += handed;
			start.offset = end.offset;
			continue;
		}
		if (have == len)
			break;
		have = have + step < len ? have + step : len;
	}
	/* The rest, in order, numbered from all before it. */
	start.line = lines + 1;
	start.records = games;
	handed = 0;
	read_chunk(fmt, ops, ro, r, text, len, &start, &start, enc, first_high, 1, 0, &handed, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum xqi_encoding encs[] = {XQI_ENC_UNKNOWN, XQI_ENC_UTF8, XQI_ENC_GB18030,
						XQI_ENC_BIG5};
	static struct xqi_split_point pts[MAX_POINTS];
	const struct xqi_format *fmt;
	const struct xqi_split_ops *ops;
	struct xqi_read_opts ro = XQI_READ_OPTS_INIT;
	struct reading whole, split;
	struct span all;
	struct xqi_bytes src = {span_read, &all};
	struct xqi_split_point start = {0, 1, 0, 0, XQI_ENC_UNKNOWN, UINT64_MAX};
	enum xqi_encoding enc = XQI_ENC_UNKNOWN;
	uint64_t first_high = UINT64_MAX, games, handed = 0;
	const char *text;
	size_t len, n = 0;
	void *sp;
	int rc, done = 0;

	if (size == 0 || size > 65536)
		return 0;
	fmt = data[0] & 1 ? &xqi_format_ndjson : &xqi_format_pgn;
	ops = xqi_format_split(fmt);
	if (fmt == &xqi_format_pgn)
		ro.encoding = encs[(data[0] >> 1) & 3];
	games = 1 + ((data[0] >> 3) & 3);
	if (data[0] & 0x80)
		ro.max_record = 1024;
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
		const struct xqi_split_point *pt = &pts[i];
		if (pt->encoding != XQI_ENC_UNKNOWN) {
			enc = pt->encoding;
			first_high = pt->first_high;
		}
		if (pt->offset <= start.offset || pt->records <= start.records ||
		    pt->records - start.records < games)
			continue;
		if (!read_chunk(fmt, ops, &ro, &split, text, len, &start, pt, enc, first_high, 0, 0,
				&handed, NULL)) {
			/* From the chunk's start to the end, over the games
			 * handed over already. */
			uint64_t again = 0;
			read_chunk(fmt, ops, &ro, &split, text, len, &start, pt, enc, first_high, 1, handed,
				   &again, NULL);
			done = 1;
			break;
		}
		handed = 0;
		start = *pt;
	}
	if (!done)
		read_chunk(fmt, ops, &ro, &split, text, len, &start, &start, enc, first_high, 1, 0,
			   &handed, NULL);

	same_reading(&whole, &split, "chunks");
	if (ops->boundary && ops->decide) {
		static const size_t windows[] = {1, 7, 40, 300};
		struct reading late;
		reading_init(&late);
		read_late(fmt, ops, &ro, &late, text, len, windows[(data[0] >> 5) & 3],
			  data[0] & 0x80 ? 64 : 4096);
		same_reading(&whole, &late, "chunks cut late");
		reading_release(&late);
	}
	reading_release(&whole);
	reading_release(&split);
	return 0;
}
