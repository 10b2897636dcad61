/*
 * fuzz_pgn.c: the PGN reader must never crash, read out of bounds or
 * leak, whatever the bytes, and it must end (no more calls to read() than
 * bytes, no game without moving on); every diagnostic must carry a code, a
 * message and the right game number; and every game it reads whole must
 * survive a round trip: written, read back, the same game; written again,
 * the same bytes.
 *
 * The first byte picks the options: bits 0-1 force an encoding (none,
 * UTF-8, GB18030, Big5), bit 2 reads coordinates with ranks 1-10, bits
 * 3-4 pick the notation the round trip writes (Chinese, ICCS, WXF), bit 5
 * sets a game's limit (--max-game-size) to 256 bytes times 1, 2, 4 or 8
 * (bits 6-7), so that games over it are skipped and the next read.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diagnostic.h"
#include "record.h"
#include "io.h"
#include "notation.h"
#include "pgn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct check {
	uint64_t games; /* games read so far; 0 for the round trip's reads and writes */
	int loss;       /* the writer reported a loss */
};

static void check_diag(const struct xq_diagnostic *d, void *payload)
{
	struct check *c = payload;

	if (d->code == XQI_D_NONE || d->code >= XQI_D_CODE_COUNT || !d->msg[0])
		abort();
	if (d->code == XQI_D_INTERNAL)
		abort(); /* the reader returned a game without moving on */
	if (d->code == XQI_D_LOSS)
		c->loss = 1;
	if (c->games && d->game > c->games)
		abort();
}

/* Read the first game of `text`. */
static int read_one(const char *text, size_t len, struct xqi_record *g, struct check *c)
{
	struct xqi_input *in;
	struct xqi_sink sink = {check_diag, c};
	void *rd;
	int rc;

	if (xqi_input_open_mem(&in, "round-trip", text, len))
		abort();
	if (xqi_format_pgn.open_reader(&rd, in, NULL, &sink))
		abort();
	rc = xqi_format_pgn.read(rd, g);
	xqi_format_pgn.close_reader(rd);
	xqi_input_close(in);
	return rc;
}

static int write_one(const struct xqi_record *g, int notation, struct xq_buf *out, struct check *c)
{
	struct xq_file *o;
	struct xqi_write_opts opts = XQI_WRITE_OPTS_INIT;
	struct xqi_sink sink = {check_diag, c};
	void *wr;
	int rc;

	opts.notation = notation;
	if (xqi_file_open_mem(&o, out) || xqi_format_pgn.open_writer(&wr, o, &opts, &sink))
		abort();
	rc = xqi_format_pgn.write(wr, g);
	xqi_format_pgn.close_writer(wr);
	xqi_file_commit(o, NULL);
	return rc;
}

/* What the writer sets itself: compared through `start` and the moves;
 * and the result, which PGN always writes (a Result tag in its words,
 * "*" for none). */
static void drop_framing(struct xqi_record *g)
{
	xqi_record_remove_tag(g, "Game");
	xqi_record_remove_tag(g, "Format");
	xqi_record_remove_tag(g, "FEN");
	xqi_record_remove_tag(g, "Result");
}

/* The result `g` is written with: as it is read back. */
static void as_written(struct xqi_record *g)
{
	if (xqi_record_set_tag(g, "Result", xqi_pgn_result_tag(g)))
		abort();
	if (g->result == XQI_RESULT_NONE)
		g->result = XQI_RESULT_UNKNOWN;
}

static void round_trip(struct xqi_record *g, int notation)
{
	struct xq_buf a = XQ_BUF_INIT, b = XQ_BUF_INIT;
	struct xqi_record again;
	struct check c = {0, 0};

	if (write_one(g, notation, &a, &c) != 0 || c.loss)
		goto out;
	if (xqi_record_init(&again) || read_one(a.ptr, a.len, &again, &c) != 1)
		abort();
	if (again.flags & XQI_RECORD_BROKEN)
		abort();
	if (write_one(&again, notation, &b, &c) != 0 || a.len != b.len || memcmp(a.ptr, b.ptr, a.len))
		abort();
	as_written(g);
	if (strcmp(xqi_record_tag(g, "Result"), xqi_record_tag(&again, "Result")))
		abort();
	drop_framing(g);
	drop_framing(&again);
	if (!xqi_record_equal(g, &again, 0, NULL, 0))
		abort();
	xqi_record_release(&again);
out:
	xq_buf_release(&a);
	xq_buf_release(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum xqi_encoding encs[] = {XQI_ENC_UNKNOWN, XQI_ENC_UTF8, XQI_ENC_GB18030,
						XQI_ENC_BIG5};
	static const int notations[] = {XQ_DIALECT_CHINESE, XQ_DIALECT_ICCS, XQ_DIALECT_WXF,
					XQ_DIALECT_CHINESE};
	struct xqi_read_opts opts = XQI_READ_OPTS_INIT;
	struct check c = {1, 0}; /* counts from 1: the game being read */
	struct xqi_sink sink = {check_diag, &c};
	struct xqi_input *in;
	struct xqi_record g;
	uint64_t calls = 0;
	void *rd;
	int rc;

	if (size == 0 || size > 65536)
		return 0;
	opts.encoding = encs[data[0] & 3];
	opts.uci_ranks = (data[0] >> 2) & 1;
	if (data[0] & 0x20)
		opts.max_record = (uint64_t)256 << ((data[0] >> 6) & 3);
	if (xqi_input_open_mem(&in, "fuzz.pgn", data + 1, size - 1))
		abort();
	if (xqi_format_pgn.open_reader(&rd, in, &opts, &sink) || xqi_record_init(&g))
		abort();
	for (;;) {
		/* A game takes a byte at least: more calls than bytes is a
		 * reader that does not advance. */
		if (++calls > size + 1)
			abort();
		if ((rc = xqi_format_pgn.read(rd, &g)) <= 0)
			break;
		if (g.number != c.games++)
			abort();
		if (!(g.flags & XQI_RECORD_BROKEN))
			round_trip(&g, notations[(data[0] >> 3) & 3]);
	}
	xqi_format_pgn.close_reader(rd);
	xqi_input_close(in);
	xqi_record_release(&g);
	return 0;
}
