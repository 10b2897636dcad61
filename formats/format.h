/*
 * format.h: the one interface every record format fills, and the registry
 * that lists them.  Commands ask the registry (by name, or by probing the
 * first bytes of an input) and never name a format themselves, so adding a
 * format is a new formats/<name>.c plus one row in formats/registry.c.
 *
 * Reading.  open_reader() takes an opened input; read() fills a game and
 * returns 1, or 0 at the end of the input.  Every problem goes to the sink
 * as a diagnostic carrying its place (line/column or byte offset), game
 * number and ply.  A bad game is still returned, with XQ_GAME_BROKEN set
 * and the tree up to the error, so the caller decides whether to skip or
 * keep it; the reader then goes on with the next game.  A negative return
 * means the input cannot be read any further (an I/O error, or damage the
 * reader cannot step over); the reason has gone to the sink.
 *
 * Writing.  write() adds one game; anything the target cannot hold (a
 * field too long, a character outside its encoding, variations or NAGs it
 * has no place for) is reported to the sink as an XQ_D_LOSS warning that
 * says what was lost, never dropped silently.  close_writer() finishes the
 * output (it does not commit the xq_output; the caller does).
 */
#ifndef XQ_FORMATS_FORMAT_H
#define XQ_FORMATS_FORMAT_H

#include <stddef.h>

#include "diag.h"
#include "game.h"
#include "io.h"
#include "text.h"

/* What a format can do and hold. */
enum {
	XQ_CAP_READ = 1 << 0,
	XQ_CAP_WRITE = 1 << 1,
	XQ_CAP_MULTI = 1 << 2,      /* many games in one file */
	XQ_CAP_VARIATIONS = 1 << 3, /* holds variations */
	XQ_CAP_COMMENTS = 1 << 4,   /* holds comments */
	XQ_CAP_NAGS = 1 << 5,       /* holds NAGs */
	XQ_CAP_ANY_TAGS = 1 << 6,   /* holds tags of any name */
	XQ_CAP_BINARY = 1 << 7,     /* places are byte offsets, not lines */
	XQ_CAP_PRE_COMMENTS = 1 << 8 /* holds comments before a move */
};

struct xq_read_opts {
	enum xq_encoding encoding; /* XQ_ENC_UNKNOWN: detect */
	int uci_ranks;             /* 0: ranks 0-9 (ICCS); 1: ranks 1-10 (Fairy-Stockfish UCI) */
	unsigned flags;            /* format-specific */
};
#define XQ_READ_OPTS_INIT {XQ_ENC_UNKNOWN, 0, 0}

struct xq_write_opts {
	int notation;              /* an enum xq_notation value (notation.h); text formats */
	unsigned notation_flags;   /* notation.h XQ_NOTATION_* writing flags */
	enum xq_encoding encoding; /* XQ_ENC_UNKNOWN means the format's default (UTF-8) */
	int version;               /* format-specific (XQF: 0x0A or 0x12); 0 = default */
	unsigned flags;            /* format-specific */
};
#define XQ_WRITE_OPTS_INIT {0, 0, XQ_ENC_UNKNOWN, 0, 0}

struct xq_format {
	const char *name;        /* "pgn", "xqf", ... (lower case, used on the command line) */
	const char *description; /* one line for `xqkit help formats` */
	const char *extensions;  /* space-separated, with dots: ".pgn .PGN" */
	unsigned caps;           /* XQ_CAP_* */

	/* How sure is this format that `head` (up to XQ_PEEK_SIZE bytes) is its
	 * own: 0 (no) to 100 (magic bytes matched). */
	int (*probe)(const unsigned char *head, size_t len);

	int (*open_reader)(void **out, struct xq_input *in, const struct xq_read_opts *opts,
			   const struct xq_sink *sink);
	int (*read)(void *reader, struct xq_game *g);
	void (*close_reader)(void *reader);

	int (*open_writer)(void **out, struct xq_output *o, const struct xq_write_opts *opts,
			   const struct xq_sink *sink);
	int (*write)(void *writer, const struct xq_game *g);
	int (*close_writer)(void *writer);
};

/* All formats, NULL-terminated. */
extern const struct xq_format *const xq_formats[];

/* The format called `name` (case-insensitive), or NULL. */
const struct xq_format *xq_format_find(const char *name);

/*
 * The readable format that claims `head` most strongly; the file name's
 * extension breaks ties and decides when no probe is sure.  NULL if none.
 */
const struct xq_format *xq_format_detect(const unsigned char *head, size_t len,
					 const char *filename);

/* The writable format whose extension matches `filename`, or NULL. */
const struct xq_format *xq_format_for_extension(const char *filename);

#endif
