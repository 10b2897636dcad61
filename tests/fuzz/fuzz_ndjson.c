/*
 * fuzz_ndjson.c: the NDJSON game reader must never crash or read out of
 * bounds, whatever the bytes, and it must end (no more calls to read()
 * than bytes, no game without moving on); and every game it returns,
 * broken or not, must write back and read again to an equal game (the
 * writer can hold everything the reader builds; the first 64 are tried).
 * The probe reads the same bytes, as detection would hand them to it: it
 * must stay inside them and answer on its 0-100 scale.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "format.h"
#include "fuzz_formats.h"
#include "game.h"
#include "io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int read_one(const struct xq_format *f, const char *text, size_t len, struct xq_game *g)
{
	struct xq_input *in;
	void *r;
	int rc;

	if (xq_input_open_mem(&in, "again", text, len))
		abort();
	if (f->open_reader(&r, in, NULL, NULL))
		abort();
	rc = f->read(r, g);
	f->close_reader(r);
	xq_input_close(in);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct xq_format *f = xq_format_find("ndjson");
	struct fuzz_diags c = {0, 0};
	struct xq_sink sink = {fuzz_count, &c};
	struct xq_input *in;
	struct xq_game g, back;
	uint64_t calls = 0;
	void *r;
	int games = 0;

	if (size > FUZZ_MAX_INPUT || !f)
		return 0;
	{
		int score = f->probe(data, size < XQ_PEEK_SIZE ? size : XQ_PEEK_SIZE);
		if (score < 0 || score > 100)
			abort();
	}
	if (xq_input_open_mem(&in, "fuzz", data, size))
		return 0;
	if (f->open_reader(&r, in, NULL, &sink)) {
		xq_input_close(in);
		return 0;
	}
	if (xq_game_init(&g) || xq_game_init(&back))
		abort();
	for (;;) {
		struct xq_buf out = XQ_BUF_INIT;
		struct xq_output *o;
		void *w;
		char why[256];
		fuzz_count_call(&calls, size);
		if (f->read(r, &g) != 1)
			break;
		if (++games > 64)
			continue;
		if (xq_output_open_mem(&o, &out) || f->open_writer(&w, o, NULL, NULL))
			abort();
		if (f->write(w, &g))
			abort();
		f->close_writer(w);
		xq_output_commit(o, NULL);
		if (read_one(f, out.ptr, out.len, &back) != 1)
			abort();
		if (!xq_game_equal(&g, &back, 0, why, sizeof(why)))
			abort();
		xq_buf_release(&out);
	}
	f->close_reader(r);
	xq_input_close(in);
	xq_game_release(&g);
	xq_game_release(&back);
	return 0;
}
