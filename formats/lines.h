/*
 * lines.h: an input read line by line as UTF-8, for the formats whose
 * records are lines of text (FEN lists, fenlist.c; text exports,
 * textexp.c).
 *
 * The input's encoding is found once, as the other text readers find it
 * (a byte order mark, else a sample of its first 64 KiB:
 * xqi_textdec_detect()), or given (--input-encoding).  Each line is then
 * decoded by lib/decode.h's rules, so that a GBK line in a UTF-8 file (or
 * the other way round) reads right, and every event is said where it
 * stands, in the same words as in every text format: a byte that is not
 * text (an error: the line is marked `bad` and the byte left out), a line
 * read in another encoding or one that reads better in another (a
 * warning, once a game).  A line ends at LF, CR LF or CR; its end is not
 * part of its text.
 *
 * Limits (format.h): a line longer than `line_max` is a resource error
 * and the input is read no further.  The format's reader keeps its own
 * record and skip limits, measuring with `offset`.
 */
#ifndef XQI_FORMATS_LINES_H
#define XQI_FORMATS_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "decode.h"
#include "format.h"

struct xqi_lines {
	/* The current line, after xqi_lines_next() returned 1: */
	const char *text;   /* UTF-8, NUL-terminated, without its line end */
	size_t len;
	uint64_t lineno;    /* 1-based */
	uint64_t offset;    /* the source offset of its first byte */
	int bad;            /* it held bytes that are not text (said; left out) */
	/* Set by the reader: */
	uint64_t game;      /* the game diagnostics are about (0: none) */
	/* Private: */
	struct xqi_input *in;
	const struct xqi_sink *sink;
	const char *name;
	uint64_t line_max;
	struct xq_buf raw;  /* bytes read and not yet taken: raw[pos..len) */
	size_t pos;
	uint64_t raw_off;   /* the source offset of raw[0] */
	struct xq_buf line;
	struct xqi_textdec td;
	enum xqi_encoding enc;
	int started, given, td_live, eof, error, again;
	uint64_t told_game; /* the game told of a line in another encoding (+1) */
};

/* Start reading `in` (`opts` may give the encoding). */
void xqi_lines_init(struct xqi_lines *l, struct xqi_input *in, const struct xqi_read_opts *opts,
		   const struct xqi_sink *sink, uint64_t line_max);
/* The next line: 1, 0 at the end of the input, or a negative code (said). */
int xqi_lines_next(struct xqi_lines *l);
/* Have the next xqi_lines_next() give the current line again. */
void xqi_lines_again(struct xqi_lines *l);
/* The input's encoding (known once a line was read). */
enum xqi_encoding xqi_lines_encoding(const struct xqi_lines *l);
/* The 1-based column of byte `i` of the current line (in characters). */
uint32_t xqi_lines_col(const struct xqi_lines *l, size_t i);
void xqi_lines_release(struct xqi_lines *l);

/*
 * The text of a peeked head (up to XQI_PEEK_SIZE bytes) as UTF-8, for the
 * probes of the line formats: decoded as the reader will (a byte order
 * mark, UTF-16 included; else the encoding xqi_textdec_detect() finds, a
 * line that is not text in it left out); the last line is left out when
 * the peek may have cut it.  Appended to `out`; 0, or a negative code
 * (the head cannot be read as text).
 */
int xqi_lines_head(const unsigned char *h, size_t len, struct xq_buf *out);

/*
 * A reader of a line format (fenlist.c, textexp.c): its lines, what it
 * reports to, its options, its games so far, the most bytes a record may
 * hold (the format's limit under the options), the guard of format.h.
 */
struct xqi_line_reader {
	struct xqi_lines lines;
	const struct xqi_sink *sink;
	const char *name;
	struct xqi_read_opts opts;
	uint64_t games, limit;
	struct xqi_read_guard guard;
	int done;
};

/* Open (open_reader of format.h) and close one for format `f`. */
int xqi_line_reader_open(void **out, const struct xqi_format *f, struct xqi_input *in,
			const struct xqi_read_opts *opts, const struct xqi_sink *sink);
void xqi_line_reader_close(void *reader);

#endif
