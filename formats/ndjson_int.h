/*
 * ndjson_int.h: what the parts of the NDJSON format share (formats/ndjson*.c),
 * SQLite's idiom as pgn_int.h: ndjson.c reads lines and holds the registry
 * entry and cuts a line into JSON tokens (pass 1, lib/json.h),
 * ndjson_game.c builds the game from them (pass 2), ndjson_split.c
 * splits an input for the batch, ndjson_write.c writes, ndjson_probe.c
 * tells an input of ours.  The format itself is described in ndjson.c.
 */
#ifndef XQI_FORMATS_NDJSON_INT_H
#define XQI_FORMATS_NDJSON_INT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "position.h"
#include "buf.h"
#include "check.h"
#include "decode.h"
#include "flattree.h"
#include "format.h"
#include "record.h"
#include "json.h"
#include "movegen.h"
#include "ndjson.h"
#include "notation.h"
#include "utf8.h"

#define NDJSON_SCHEMA "xqkit.game/1"
/*
 * The longest record (line) read: 12 MiB.  The largest real game known (the
 * corpus's vschess dhtmlxq.txt, 106,998 moves) is a line of 3,260,780
 * bytes: the limit is 3.8 times that.  Reading keeps the line, its JSON
 * tokens and the game: at most ND_MEM_FACTOR bytes per byte (the densest
 * line is one short token after another).  A line over the limit (or
 * --max-game-size) is a broken record: the rest of it is skipped, never
 * held (XQI_SKIP_MAX bytes of it at most), and reading goes on at the next
 * line.
 */
#define ND_MAX_RECORD ((uint64_t)12 << 20)
#define ND_MEM_FACTOR 16

extern const struct xqi_format xqi_format_ndjson;
#define CHUNK XQI_READ_SIZE

/* One line of moves still to read: an array token and where we are in it. */
struct frame {
	uint32_t arr;    /* the array token */
	uint32_t cur;    /* the next element's token */
	uint32_t parent; /* node the next move hangs from */
	uint32_t ply;    /* ply of the next move */
	struct xqi_position board; /* position before the next move */
};

struct nd_reader {
	struct xqi_input *in;  /* the input, or NULL when `src` gives the bytes */
	struct xqi_bytes src;
	const struct xqi_sink *sink; /* borrowed (format.h) */
	struct xq_buf buf;  /* bytes read, not yet consumed from `pos` */
	size_t pos;
	int eof;
	uint64_t lineno;    /* lines consumed so far */
	int line_ended;     /* the last line read ended with its '\n' */
	uint64_t offset;    /* content offset of buf.ptr[pos] */
	uint64_t games;
	const char *name;
	/* per record */
	const char *line;
	size_t len;
	uint64_t line_offset;
	/* The column of byte col_at of the line at col_line (a cursor, so that
	 * many reports on one long line do not each count from its start). */
	uint64_t col_line;
	size_t col_at;
	uint32_t col;
	size_t max_line;   /* the limit of a line, from the format's and the budget */
	struct xqi_read_opts opts;
	struct xq_json json; /* the line's tokens */
	struct frame *frames;
	size_t frames_alloc;
	struct xq_buf scratch;
	struct xqi_record *g;
	int bad; /* the record has had an error */
	/* A move of a variation that cannot be read or played: its error is
	 * held here (xqi_nd_report() with `holding`) and said with what was cut. */
	int holding;
	struct xq_diagnostic held;
	uint32_t cut_alts;  /* the bad move's "variations" (alternatives to it), or 0 */
	int bad_bytes;    /* the line holds bytes that are not UTF-8, all inside strings */
	long fixed;       /* such bytes the last xqi_nd_decode_string() replaced by U+FFFD */
	size_t fixed_at;  /* and where the first of them is in the line */
	struct xqi_read_guard guard;
	struct xqi_textdec td; /* UTF-8 only: checks each record's bytes (decode.h) */
};

/* Report a problem at byte `at` of the current line (column counted in
 * characters), in game `g` at `ply` with move text `move` (held in
 * r->held, not said, while r->holding).  In ndjson_game.c, which the line
 * reader (ndjson.c) calls and which calls nothing of it. */
void xqi_nd_report(struct nd_reader *r, enum xq_severity_level sev, enum xqi_diagnostic_code code,
		  size_t at, uint32_t ply, const char *move, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 7, 8)))
#endif
	;

/* Pass 2: the game of the record's tokens into r->g. */
int xqi_nd_build_game(struct nd_reader *r);
/* A reader with nothing to read yet (ndjson.c). */
struct nd_reader *xqi_nd_new_reader(const struct xqi_read_opts *opts, const struct xqi_sink *sink);

/* The writer (ndjson_write.c) and the probe (ndjson_probe.c), for the
 * registry entry. */
int xqi_nd_open_writer(void **out, struct xq_file *o, const struct xqi_write_opts *opts,
		      const struct xqi_sink *sink);
int xqi_nd_write(void *writer, const struct xqi_record *g);
int xqi_nd_close_writer(void *writer);
int xqi_nd_renumber(struct xq_buf *text, const struct xqi_record *g, uint64_t number, uint64_t line);
int xqi_nd_probe(const unsigned char *head, size_t len);

#endif
