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
 * 3-4 pick the notation the round trip writes (Chinese, ICCS, WXF).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "game.h"
#include "io.h"
#include "notation.h"
#include "pgn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct check {
	uint64_t games; /* games read so far; 0 for the round trip's reads and writes */
	int loss;       /* the writer reported a loss */
};

static void check_diag(const struct xq_diag *d, void *payload)
{
	struct check *c = payload;

	if (d->code == XQ_D_NONE || d->code >= XQ_D_CODE_COUNT || !d->msg[0])
		abort();
	if (d->code == XQ_D_INTERNAL)
		abort(); /* the reader returned a game without moving on */
	if (d->code == XQ_D_LOSS)
		c->loss = 1;
	if (c->games && d->game > c->games)
		abort();
}

/* Read the first game of `text`. */
static int read_one(const char *text, size_t len, struct xq_game *g, struct check *c)
{
	struct xq_input *in;
	struct xq_sink sink = {check_diag, c};
	void *rd;
	int rc;

	if (xq_input_open_mem(&in, "round-trip", text, len))
		abort();
	if (xq_format_pgn.open_reader(&rd, in, NULL, &sink))
		abort();
	rc = xq_format_pgn.read(rd, g);
	xq_format_pgn.close_reader(rd);
	xq_input_close(in);
	return rc;
}

static int write_one(const struct xq_game *g, int notation, struct xq_buf *out, struct check *c)
{
	struct xq_output *o;
	struct xq_write_opts opts = XQ_WRITE_OPTS_INIT;
	struct xq_sink sink = {check_diag, c};
	void *wr;
	int rc;

	opts.notation = notation;
	if (xq_output_open_mem(&o, out) || xq_format_pgn.open_writer(&wr, o, &opts, &sink))
		abort();
	rc = xq_format_pgn.write(wr, g);
	xq_format_pgn.close_writer(wr);
	xq_output_commit(o, NULL);
	return rc;
}

/* What the writer sets itself: compared through `start` and the moves. */
static void drop_framing(struct xq_game *g)
{
	xq_game_remove_tag(g, "Game");
	xq_game_remove_tag(g, "Format");
	xq_game_remove_tag(g, "FEN");
}

static void round_trip(struct xq_game *g, int notation)
{
	struct xq_buf a = XQ_BUF_INIT, b = XQ_BUF_INIT;
	struct xq_game again;
	struct check c = {0, 0};

	if (write_one(g, notation, &a, &c) != 0 || c.loss)
		goto out;
	if (xq_game_init(&again) || read_one(a.ptr, a.len, &again, &c) != 1)
		abort();
	if (again.flags & XQ_GAME_BROKEN)
		abort();
	if (write_one(&again, notation, &b, &c) != 0 || a.len != b.len || memcmp(a.ptr, b.ptr, a.len))
		abort();
	drop_framing(g);
	drop_framing(&again);
	if (!xq_game_equal(g, &again, 0, NULL, 0))
		abort();
	xq_game_release(&again);
out:
	xq_buf_release(&a);
	xq_buf_release(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum xq_encoding encs[] = {XQ_ENC_UNKNOWN, XQ_ENC_UTF8, XQ_ENC_GB18030,
						XQ_ENC_BIG5};
	static const int notations[] = {XQ_NOTATION_CHINESE, XQ_NOTATION_ICCS, XQ_NOTATION_WXF,
					XQ_NOTATION_CHINESE};
	struct xq_read_opts opts = XQ_READ_OPTS_INIT;
	struct check c = {1, 0}; /* counts from 1: the game being read */
	struct xq_sink sink = {check_diag, &c};
	struct xq_input *in;
	struct xq_game g;
	uint64_t calls = 0;
	void *rd;
	int rc;

	if (size == 0 || size > 65536)
		return 0;
	opts.encoding = encs[data[0] & 3];
	opts.uci_ranks = (data[0] >> 2) & 1;
	if (xq_input_open_mem(&in, "fuzz.pgn", data + 1, size - 1))
		abort();
	if (xq_format_pgn.open_reader(&rd, in, &opts, &sink) || xq_game_init(&g))
		abort();
	for (;;) {
		/* A game takes a byte at least: more calls than bytes is a
		 * reader that does not advance. */
		if (++calls > size + 1)
			abort();
		if ((rc = xq_format_pgn.read(rd, &g)) <= 0)
			break;
		if (g.number != c.games++)
			abort();
		if (!(g.flags & XQ_GAME_BROKEN))
			round_trip(&g, notations[(data[0] >> 3) & 3]);
	}
	xq_format_pgn.close_reader(rd);
	xq_input_close(in);
	xq_game_release(&g);
	return 0;
}
