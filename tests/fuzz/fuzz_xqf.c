/*
 * fuzz_xqf.c: the XQF reader must never crash or read out of bounds,
 * whatever the bytes.  What it returns must hold: every move in the tree
 * is legal where it stands, and a game written back as XQF 0x0A and 0x12
 * (when the writer reports no loss) reads back equal, tags, tree and
 * comments.  Versions above 0x12 are read as 0x12 so that their bytes are
 * fuzzed too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diagnostic.h"
#include "format.h"
#include "record.h"
#include "io.h"
#include "movegen.h"
#include "xqf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void count_loss(const struct xq_diagnostic *d, void *payload)
{
	if (d->code == XQI_D_LOSS)
		(*(unsigned *)payload)++;
}

static void ignore(const struct xq_diagnostic *d, void *payload)
{
	(void)d;
	(void)payload;
}

static void tree_is_legal(const struct xqi_record *g)
{
	struct xqi_walk w;
	int rc;

	xqi_walk_init(&w, g);
	while ((rc = xqi_walk_next(&w)) == 1) {
		struct xqi_position b = w.before;
		if (xqi_move_check(&b, g->nodes[w.node].move, NULL))
			abort();
	}
	xqi_walk_release(&w);
	if (rc < 0)
		abort();
}

static void round_trip(const struct xqi_record *g, int version)
{
	struct xq_buf out = XQ_BUF_INIT;
	struct xq_file *o;
	struct xqi_write_opts wo = XQI_WRITE_OPTS_INIT;
	unsigned losses = 0;
	struct xqi_sink sink = {count_loss, &losses}, quiet = {ignore, NULL};
	struct xqi_record again;
	void *w;
	int rc;

	if (xqi_file_open_mem(&o, &out))
		abort();
	wo.version = version;
	if (xqi_format_xqf.open_writer(&w, o, &wo, &sink))
		abort();
	rc = xqi_format_xqf.write(w, g);
	if (xqi_format_xqf.close_writer(w) || rc)
		abort();
	if (xqi_file_commit(o, NULL))
		abort();
	if (xqi_record_init(&again))
		abort();
	if (xqi_xqf_read_mem(&again, (const unsigned char *)out.ptr, out.len, NULL, &quiet, "again",
			    NULL))
		abort();
	if (!losses && !xqi_record_equal(g, &again, 0, NULL, 0))
		abort();
	xqi_record_release(&again);
	xq_buf_release(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xqi_read_opts opts = XQI_READ_OPTS_INIT;
	struct xqi_sink quiet = {ignore, NULL};
	struct xqi_input *in;
	struct xqi_record g;
	void *r;
	int rc;

	if (size > 65536)
		return 0; /* a record's bytes, however long, are read in one pass */
	opts.flags = XQI_XQF_TRY_NEWER;
	if (xqi_input_open_mem(&in, "fuzz.xqf", data, size))
		return 0;
	if (xqi_record_init(&g) || xqi_format_xqf.open_reader(&r, in, &opts, &quiet))
		abort();
	rc = xqi_format_xqf.read(r, &g);
	if (rc == 1) {
		tree_is_legal(&g);
		round_trip(&g, XQI_XQF_VERSION_PLAIN);
		round_trip(&g, XQI_XQF_VERSION_ENCRYPTED);
		if (xqi_format_xqf.read(r, &g) != 0)
			abort(); /* one game per file */
	}
	xqi_format_xqf.close_reader(r);
	xqi_input_close(in);
	xqi_record_release(&g);
	return 0;
}
