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
#include "diag.h"
#include "format.h"
#include "game.h"
#include "io.h"
#include "movegen.h"
#include "xqf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void count_loss(const struct xq_diag *d, void *payload)
{
	if (d->code == XQ_D_LOSS)
		(*(unsigned *)payload)++;
}

static void ignore(const struct xq_diag *d, void *payload)
{
	(void)d;
	(void)payload;
}

static void tree_is_legal(const struct xq_game *g)
{
	struct xq_walk w;
	int rc;

	xq_walk_init(&w, g);
	while ((rc = xq_walk_next(&w)) == 1) {
		struct xq_board b = w.before;
		if (xq_move_check(&b, g->nodes[w.node].move, NULL))
			abort();
	}
	xq_walk_release(&w);
	if (rc < 0)
		abort();
}

static void round_trip(const struct xq_game *g, int version)
{
	struct xq_buf out = XQ_BUF_INIT;
	struct xq_output *o;
	struct xq_write_opts wo = XQ_WRITE_OPTS_INIT;
	unsigned losses = 0;
	struct xq_sink sink = {count_loss, &losses}, quiet = {ignore, NULL};
	struct xq_game again;
	void *w;
	int rc;

	if (xq_output_open_mem(&o, &out))
		abort();
	wo.version = version;
	if (xq_format_xqf.open_writer(&w, o, &wo, &sink))
		abort();
	rc = xq_format_xqf.write(w, g);
	if (xq_format_xqf.close_writer(w) || rc)
		abort();
	if (xq_output_commit(o, NULL))
		abort();
	if (xq_game_init(&again))
		abort();
	if (xq_xqf_read_mem(&again, (const unsigned char *)out.ptr, out.len, NULL, &quiet, "again",
			    NULL))
		abort();
	if (!losses && !xq_game_equal(g, &again, 0, NULL, 0))
		abort();
	xq_game_release(&again);
	xq_buf_release(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xq_read_opts opts = XQ_READ_OPTS_INIT;
	struct xq_sink quiet = {ignore, NULL};
	struct xq_input *in;
	struct xq_game g;
	void *r;
	int rc;

	if (size > 65536)
		return 0; /* a record's bytes, however long, are read in one pass */
	opts.flags = XQ_XQF_TRY_NEWER;
	if (xq_input_open_mem(&in, "fuzz.xqf", data, size))
		return 0;
	if (xq_game_init(&g) || xq_format_xqf.open_reader(&r, in, &opts, &quiet))
		abort();
	rc = xq_format_xqf.read(r, &g);
	if (rc == 1) {
		tree_is_legal(&g);
		round_trip(&g, XQ_XQF_VERSION_PLAIN);
		round_trip(&g, XQ_XQF_VERSION_ENCRYPTED);
		if (xq_format_xqf.read(r, &g) != 0)
			abort(); /* one game per file */
	}
	xq_format_xqf.close_reader(r);
	xq_input_close(in);
	xq_game_release(&g);
	return 0;
}
