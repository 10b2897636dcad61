/*
 * source.h: the front door of reading, once for the whole library: an
 * input opened (a path, "-" or memory, through gzip), its format found by
 * content (the registry breaks ties by the name's extension) or named,
 * and that format's reader opened on it.  xq_reader_open() and
 * xq_reader_open_memory() (api/io.c) stand on it, and so does xqkit's
 * batch (batch/), which looks at an input before it reads it (to cut a
 * big file into chunks).
 *
 * An input that holds no byte, or white space only, is empty: no format
 * recognises it by content (a name's extension or a named format still
 * may), and what to make of that is the caller's (xqkit reports a
 * no-game error, or skips a file found in a directory; the public reader
 * opens and reports no-game when read).
 */
#ifndef XQI_SOURCE_H
#define XQI_SOURCE_H

#include <stdatomic.h>

#include "diagnostic.h"
#include "format.h"
#include "record.h"
#include "io.h"
#include <xq/io.h>

/* An input, its format and a reader on it; all NULL when closed. */
struct xqi_source {
	struct xqi_input *in;
	const struct xqi_format *fmt;
	void *reader;
};

enum {
	XQI_SOURCE_OK = 0,
	XQI_SOURCE_UNKNOWN = 1, /* no format recognises the content or the name */
	XQI_SOURCE_EMPTY = 2    /* no byte but white space, and no format named (or found by name) */
};

/*
 * The format of the input s->in (opened, nothing read yet) named `name`
 * (NULL: standard input, or memory without a name; a final ".gz" is not
 * part of its extension), or `forced`.  Returns XQI_SOURCE_OK with s->fmt
 * set; XQI_SOURCE_UNKNOWN (the reason in `d`, followed by `hint` when not
 * NULL) or XQI_SOURCE_EMPTY (a no-game diagnostic in `d`, with no source);
 * or a negative XQ_E* code with the reason in `d`: the input could not be
 * read, or its format cannot be read, only written.  The input stays open
 * in every case, and `d` names it (the input's own name) until it is
 * closed.
 */
int xqi_source_find(struct xqi_source *s, const char *name, const struct xqi_format *forced,
		   const char *hint, struct xq_diagnostic *d);

/*
 * Open `path` ("-": standard input) into `s`, reading stopped by `cancel`
 * (NULL: never), and find its format as xqi_source_find() does.  The same
 * returns; unless XQI_SOURCE_OK, `s` is closed and `d` names no source (the
 * caller names the input it asked for).
 */
int xqi_source_open_input(struct xqi_source *s, const char *path, const struct xqi_format *forced,
			 const atomic_int *cancel, const char *hint, struct xq_diagnostic *d);

/* The format's reader on s->in, with the options `ro` (NULL: the
 * defaults), reporting to `sink`.  0, or a negative XQ_E* code with the
 * reason in `d`, which names the input until the caller closes `s`. */
int xqi_source_open_reader(struct xqi_source *s, const struct xqi_read_opts *ro,
			  const struct xqi_sink *sink, struct xq_diagnostic *d);

/*
 * The public read options `in` (<xq/io.h>, read as far as its `size`
 * says: the encoding by name, UCI ranks, the memory budget) as the
 * formats take them, into *out: 0, or XQ_EENCODING for an encoding the
 * library does not know.  The format and the cancel flag are the
 * caller's to look at.
 */
int xqi_source_read_opts(struct xqi_read_opts *out, const xq_read_options *in);

/* xqi_source_open_input() and xqi_source_open_reader() in one; unless 0,
 * `s` is closed and `d` names no source. */
int xqi_source_open(struct xqi_source *s, const char *path, const struct xqi_format *forced,
		   const atomic_int *cancel, const char *hint, const struct xqi_read_opts *ro,
		   const struct xqi_sink *sink, struct xq_diagnostic *d);

/* The next game of an opened source into `g` (cleared by the caller): the
 * format's read(): 1, 0 at the end, or a negative XQ_E* code. */
static inline int xqi_source_read(struct xqi_source *s, struct xqi_record *g)
{
	return s->fmt->read(s->reader, g);
}

/* Close the reader and the input; a closed source is allowed. */
void xqi_source_close(struct xqi_source *s);

/* `d` made the diagnostic of an input that holds no game (code no-game),
 * about `name` (may be NULL). */
void xqi_source_no_game(struct xq_diagnostic *d, const char *name);

#endif
