/*
 * source.h: the pool's record sources (cmd/pool.c, cmd/inputs.c), the
 * plumbing's own view: an input opened, its format found by content (or
 * forced) and a reader on it, in the library's private types.  Commands
 * see only inputs.h.  This is the debt that moves with the pool into the
 * library's batch API (ARCHITECTURE.md, step 5 of the road).
 */
#ifndef XQ_CMD_SOURCE_H
#define XQ_CMD_SOURCE_H

#include "diag.h"
#include "format.h"
#include "io.h"
#include <xq/record.h>

/* An opened record source: the input, its format and a reader on it. */
struct source {
	struct xq_input *in;
	const struct xq_format *fmt;
	void *reader;
};

enum {
	SOURCE_OK = 0,
	SOURCE_UNKNOWN = 1, /* no format recognises the content or the name */
	SOURCE_EMPTY = 2    /* no byte, and no format named (or found by name) */
};

/*
 * An input that holds no game, whatever the command and however it is
 * given (an empty file or standard input, a PGN file of comments only),
 * is an error: the diagnostic source_no_game() fills (code no-game).  A
 * file found in a directory walk that is empty and has no extension of a
 * format is skipped, as any file no format recognises.
 */
void source_no_game(struct xq_diag *d, const char *name);

/*
 * Open `path` (or `-`), find its format (or use `forced`) and open a reader
 * with the options `ro` (NULL: the defaults) that reports to `sink`.  Returns SOURCE_OK, SOURCE_UNKNOWN or
 * SOURCE_EMPTY (nothing opened; `d` says why), or a negative XQ_E* code
 * (XQ_ECANCELED once cmd_cancel is set) with the reason in `d`
 * (the reader may also have sent diagnostics to the sink).
 */
int source_open(struct source *s, const char *path, const struct xq_format *forced,
		const struct xq_read_opts *ro, const struct xq_sink *sink, struct xq_diag *d);
void source_close(struct source *s);

/*
 * source_open() in two steps, for a caller that looks at the input before
 * reading it: open `path` and find its format (no reader yet; the same
 * returns as source_open()), then open the reader on it.  After a failed
 * source_open_reader() the source is closed.
 */
int source_open_input(struct source *s, const char *path, const struct xq_format *forced,
		      struct xq_diag *d);
int source_open_reader(struct source *s, const struct xq_read_opts *ro, const struct xq_sink *sink,
		       struct xq_diag *d);

/* The next game of an opened source into `g` (cleared by the caller):
 * the format's read(), 1, 0 at the end, or a negative XQ_E* code
 * (formats/format.h). */
static inline int source_read(struct source *s, struct xq_game *g)
{
	return s->fmt->read(s->reader, g);
}

#endif
