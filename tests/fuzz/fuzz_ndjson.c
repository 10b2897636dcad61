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
#include "diagnostic.h"
#include "format.h"
#include "fuzz_formats.h"
#include "record.h"
#include "io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int read_one(const struct xqi_format *f, const char *text, size_t len, struct xqi_record *g)
{
	struct xqi_input *in;
	void *r;
	int rc;

	if (xqi_input_open_mem(&in, "again", text, len))
		abort();
	if (f->open_reader(&r, in, NULL, NULL))
		abort();
	rc = f->read(r, g);
	f->close_reader(r);
	xqi_input_close(in);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct xqi_format *f = xqi_format_find("ndjson");
	struct fuzz_diags c = {0, 0};
	struct xqi_sink sink = {fuzz_count, &c};
	struct xqi_input *in;
	struct xqi_record g, back;
	uint64_t calls = 0;
	void *r;
	int games = 0;

	if (size > FUZZ_MAX_INPUT || !f)
		return 0;
	{
		int score = f->probe(data, size < XQI_PEEK_SIZE ? size : XQI_PEEK_SIZE);
		if (score < 0 || score > 100)
			abort();
	}
	if (xqi_input_open_mem(&in, "fuzz", data, size))
		return 0;
	if (f->open_reader(&r, in, NULL, &sink)) {
		xqi_input_close(in);
		return 0;
	}
	if (xqi_record_init(&g) || xqi_record_init(&back))
		abort();
	for (;;) {
		struct xq_buf out = XQ_BUF_INIT;
		struct xq_file *o;
		void *w;
		char why[256];
		fuzz_count_call(&calls, size);
		if (f->read(r, &g) != 1)
			break;
		if (++games > 64)
			continue;
		if (xqi_file_open_mem(&o, &out) || f->open_writer(&w, o, NULL, NULL))
			abort();
		if (f->write(w, &g))
			abort();
		f->close_writer(w);
		xqi_file_commit(o, NULL);
		if (read_one(f, out.ptr, out.len, &back) != 1)
			abort();
		if (!xqi_record_equal(&g, &back, 0, why, sizeof(why)))
			abort();
		xq_buf_release(&out);
	}
	f->close_reader(r);
	xqi_input_close(in);
	xqi_record_release(&g);
	xqi_record_release(&back);
	return 0;
}
