/*
 * <xq/io.h>: reading and writing records in every format.
 *
 * Reading.  xq_reader_open() takes a path, or "-" for standard input;
 * xq_reader_open_memory() bytes in memory.  Gzip is recognised by its
 * magic bytes and inflated as it is read; the format is found from the
 * content (the file name's extension only breaks ties), unless named in
 * the options; the text encoding (UTF-8, GBK, Big5, ...) is detected line
 * by line unless named.  Each xq_reader_next() gives the next game.
 * Every problem (a bad byte, an illegal move, a damaged binary field) goes
 * to the diagnostic callback with its place (line and column, or byte
 * offset), game number and ply; a game with an error is still returned,
 * marked broken (xq_record_is_broken()), with its tree up to the error,
 * and reading goes on with the next game.  An input that holds no game is
 * reported as a "no-game" error.  Every reading ends: each record is held
 * to its format's limit and the memory budget (man xqkit(1), LIMITS).
 *
 * Writing.  xq_writer_open() writes to a path ("-": standard output)
 * through a temporary file put in place only by xq_writer_close(), so a
 * failed run never leaves half a file; a name ending in ".gz" is
 * compressed.  What the target format cannot hold (variations, a
 * character outside its encoding) is reported to the callback as a "loss"
 * warning, never dropped silently.
 *
 * Formats: pgn, xqf, dhtmlxq, cbf, cbr, cbl, ndjson read; pgn, xqf,
 * dhtmlxq, cbf, ndjson, html written (xq_format_info() lists them).
 *
 * Readers and writers are owned by the caller; one thread at a time each.
 */
#ifndef XQ_PUBLIC_IO_H
#define XQ_PUBLIC_IO_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "error.h"
#include "record.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct xq_reader xq_reader;
typedef struct xq_writer xq_writer;
typedef struct xq_cancel xq_cancel;
typedef struct xq_stream xq_stream;

/* What a format can do (xq_format_info()). */
enum {
	XQ_FORMAT_READS = 1 << 0,
	XQ_FORMAT_WRITES = 1 << 1,
	XQ_FORMAT_MULTI = 1 << 2,      /* many games in one file */
	XQ_FORMAT_VARIATIONS = 1 << 3, /* holds variations */
	XQ_FORMAT_COMMENTS = 1 << 4,   /* holds comments */
	XQ_FORMAT_NAGS = 1 << 5,       /* holds NAGs ($1 = !, ...) */
	XQ_FORMAT_ANY_TAGS = 1 << 6,   /* holds tags of any name */
	XQ_FORMAT_BINARY = 1 << 7,     /* places are byte offsets */
	XQ_FORMAT_PRE_COMMENTS = 1 << 8 /* holds comments before a move */
};

/* The i-th format (from 0): its name ("pgn"), one line describing it and
 * its XQ_FORMAT_* abilities (each pointer may be NULL).  0, or
 * XQ_ENOTFOUND past the last. */
XQ_API int xq_format_info(size_t i, const char **name, const char **description, unsigned *caps);
/* The i-th format's file-name extensions, space-separated with their dots
 * (".pgn .pgn_zh"; the first is the one it writes; each is read with
 * ".gz" after it too), and the other names it answers to as the options'
 * `format`, space-separated, "" when none (each pointer may be NULL).
 * Static strings.  0, or XQ_ENOTFOUND past the last. */
XQ_API int xq_format_names(size_t i, const char **extensions, const char **aliases);
/*
 * The name of the format a user calls `name`, one of its names or aliases
 * in any ASCII case ("PGN", "ubb"): its name as xq_format_info() gives it
 * ("pgn", "dhtmlxq"); NULL when no format is called so (or `name` is
 * NULL).  The options' `format` accepts exactly the names that give one.
 * Static strings; thread-safe.  NULL `name`: NULL.
 */
XQ_API const char *xq_format_canonical(const char *name);
/*
 * Whether the writer of format `name` (any of its names, as
 * xq_format_canonical() takes them) writes each game apart: NULL when a
 * game's bytes depend on the others (HTML's index), the format holds one
 * game per file, or no writable format is called so; else the bytes it
 * writes between two games (PGN "\n", a blank line; NDJSON "", each
 * record a line).  Its writer then writes nothing before the first game
 * nor after the last, and writes for each game the bytes
 * xq_record_write_buf() gives for that game alone, after the separator
 * when a game came before: so games may be written apart (on several
 * threads, each with its own buffer) and joined with it, to the bytes one
 * writer gives.  Static strings; thread-safe.  NULL `name`: NULL.
 */
XQ_API const char *xq_format_separator(const char *name);

/*
 * The canonical name of the text encoding a user calls `name`, in any
 * ASCII case ("UTF8", "cp936", "GB2312", "Big5", "utf16le", "cp1252",
 * "Latin1"): "utf-8", "gb18030", "gbk", "big5", "utf-16le", "utf-16be",
 * "windows-1252" or "iso-8859-1" (the names xq_record_encoding() uses),
 * or, for any other encoding iconv knows that keeps ASCII as it is with
 * no shift state ("koi8-r", "cp1251", "euc-kr"), its name in lower case;
 * NULL when the library knows no such encoding by that name (or `name`
 * is NULL).  The options' `encoding` (reading and writing) accepts
 * exactly the names that give one, so a program can refuse a bad name
 * before it opens anything.  Static strings; no state, thread-safe.
 * NULL `name`: NULL.
 */
XQ_API const char *xq_encoding_canonical(const char *name);

/*
 * Options for reading; NULL means every default.  Start from
 * XQ_READ_OPTIONS_INIT: `size` lets later versions add fields.
 */
typedef struct xq_read_options {
	size_t size;           /* sizeof(xq_read_options) */
	const char *format;    /* a format name, or NULL: detect */
	const char *encoding;  /* "gbk", "big5", "utf-8", ..., or NULL: detect */
	int uci_ranks;         /* 1: coordinates have ranks 1-10 (UCI1); 0: 0-9 */
	uint64_t max_memory;   /* the memory one record may take; 0: 256 MiB */
	xq_cancel *cancel;     /* a flag that stops reading a path (xq_cancel_new()), or NULL */
	uint64_t max_game_size; /* the most bytes of text one record may hold; 0: each
				 * format's own limit (4 MiB a PGN game).  A record over
				 * it is reported ("resource") and, in a file of many
				 * records, skipped: reading goes on at the next one */
} xq_read_options;
#define XQ_READ_OPTIONS_INIT {sizeof(xq_read_options), NULL, NULL, 0, 0, NULL, 0}

/*
 * A cancel flag: a way to stop reading from elsewhere, for a program that
 * must stop on a signal or on its user's request.  Readers of a path
 * opened with it in their options look at it before every read, and
 * while they wait on a pipe or a terminal that stays silent they look at
 * it every 100 ms, so they stop within a second whatever they read: once
 * it is set, xq_reader_open() and xq_reader_next() return XQ_ECANCELED
 * (an "io" error diagnostic says the reading was interrupted), and keep
 * returning it.  Readers of memory never wait and do not look at it.  One
 * flag may serve any number of readers on any threads.
 *
 * xq_cancel_new(): a new flag, not set, or NULL when out of memory.
 * xq_cancel_set(): set it; safe from any thread and from a signal handler
 * (it is one lock-free atomic store).  xq_cancel_is_set(): is it set?
 * xq_cancel_free(): free it, after every reader that has it is closed;
 * NULL is allowed.
 * xq_cancel_set(): NULL `c`: nothing done; xq_cancel_is_set(): NULL `c`: 0.
 */
XQ_API xq_cancel *xq_cancel_new(void);
XQ_API void xq_cancel_set(xq_cancel *c);
XQ_API int xq_cancel_is_set(const xq_cancel *c);
XQ_API void xq_cancel_free(xq_cancel *c);

/*
 * Open `path` ("-": standard input) for reading, diagnostics to `fn` with
 * `user` (`fn` may be NULL).  Returns 0 with *out set; or XQ_EIO (cannot
 * open or read it), XQ_EUNSUPPORTED (no format recognises it, or the
 * named one cannot be read or is unknown), XQ_EENCODING (unknown encoding
 * name), XQ_ECANCELED (the options' cancel flag was set), XQ_ENOMEM,
 * with *out NULL and the reason sent to `fn`.  An empty
 * input opens, and reports no-game when read.
 * NULL `out` or `path`: XQ_EINVAL.
 */
XQ_API int xq_reader_open(xq_reader **out, const char *path, const xq_read_options *opts,
			  xq_diagnostic_fn fn, void *user);
/* The same over `len` bytes at `data`, borrowed: they must stay until
 * xq_reader_close().  `name` (may be NULL) names them in diagnostics.
 * NULL `out`, or NULL `data` with len > 0: XQ_EINVAL.
 * NULL `out` or `data`: XQ_EINVAL. */
XQ_API int xq_reader_open_memory(xq_reader **out, const char *name, const void *data, size_t len,
				 const xq_read_options *opts, xq_diagnostic_fn fn, void *user);
/*
 * The next game: 1 with *out a new record the caller owns (free it with
 * xq_record_free()); 0 at the end; a negative code when the input cannot
 * be read further (the reason went to the callback).  After 0 or a
 * negative code, it keeps returning that.  NULL `rd` or `out`: XQ_EINVAL.
 */
XQ_API int xq_reader_next(xq_reader *rd, xq_record **out);
/* The name of the format being read ("xqf"), or NULL for an empty input.
 * NULL `rd`: NULL. */
XQ_API const char *xq_reader_format(const xq_reader *rd);
/* Was the input gzip-compressed?  NULL `rd`: 0. */
XQ_API int xq_reader_is_gzip(const xq_reader *rd);
/* How many diagnostics of each severity the reader has reported so far.
 * NULL `rd`: 0. */
XQ_API uint64_t xq_reader_count(const xq_reader *rd, int severity);
/* Close the input and free the reader; the records it gave stay valid.
 * NULL is allowed. */
XQ_API void xq_reader_close(xq_reader *rd);

/*
 * An input's bytes as the readers get them, for a program that reads
 * them itself (a format of its own, or lines to copy unchanged): `path`
 * ("-": standard input), gzip undone when it starts as gzip does, reading
 * stopped by the options' cancel flag (the other options are not looked
 * at; NULL is allowed).  xq_stream_open() reads the first bytes at once
 * (a gzip header is checked), so an input that cannot be read fails
 * there: 0 with *out set; or XQ_EIO, XQ_ETRUNCATED, XQ_ECANCELED or
 * XQ_ENOMEM, with *out NULL and the reason sent to `fn` (may be NULL),
 * which later reads report to as well.  xq_stream_read(): up to `n` bytes
 * into `buf`; the number read, 0 at the end, or a negative code.
 * xq_stream_close(): close and free; NULL is allowed.  One thread at a
 * time.
 * xq_stream_open(): NULL `out` or `path`: XQ_EINVAL; xq_stream_read():
 * NULL `s`, or NULL `buf` with n > 0: XQ_EINVAL.
 * xq_stream_open(): NULL `out` or `path`: XQ_EINVAL; xq_stream_read():
 * NULL `s` or `buf`: XQ_EINVAL.
 */
XQ_API int xq_stream_open(xq_stream **out, const char *path, const xq_read_options *opts,
			  xq_diagnostic_fn fn, void *user);
XQ_API long xq_stream_read(xq_stream *s, void *buf, size_t n);
XQ_API void xq_stream_close(xq_stream *s);

/* Options for writing; NULL means every default.  Start from
 * XQ_WRITE_OPTIONS_INIT. */
typedef struct xq_write_options {
	size_t size;           /* sizeof(xq_write_options) */
	const char *format;    /* a format name, or NULL: from the file's extension */
	int dialect;           /* move notation of text formats (XQ_DIALECT_*); 0: the format's */
	unsigned dialect_flags; /* XQ_DIALECT_TRADITIONAL, ... */
	const char *encoding;  /* text encoding to write, NULL: the format's default (UTF-8) */
	int version;           /* format version to write (XQF: 0x0A or 0x12); 0: default */
	unsigned flags;        /* XQ_WRITE_* */
} xq_write_options;
#define XQ_WRITE_OPTIONS_INIT {sizeof(xq_write_options), NULL, 0, 0, NULL, 0, 0}
enum {
	XQ_WRITE_FORCE = 1 << 0, /* replace an existing file */
	XQ_WRITE_GZIP = 1 << 1,  /* compress (also when the name ends in ".gz") */
	/* A file's bytes reach the disk (fsync) before it takes its name, so
	 * that a crash leaves the old file or the new one, never an empty
	 * one.  XQ_WRITE_SYNC_REPLACED does so only for a file that replaces
	 * another (a program writing many new files syncs them at once at the
	 * end with xq_file_sync_dir()); XQ_WRITE_NO_SYNC never. */
	XQ_WRITE_SYNC_REPLACED = 1 << 2,
	XQ_WRITE_NO_SYNC = 1 << 3,
	/* The temporary file has a name of its own from the start
	 * (.xqkit-XXXXXXXX beside the file), as on a system without unnamed
	 * temporary files: for the tests of that way. */
	XQ_WRITE_NAMED_TEMP = 1 << 4,
	/* The name is only ever a regular file or free: a symbolic link, a
	 * FIFO, a socket, a device or a directory there is refused (XQ_EIO),
	 * even with XQ_WRITE_FORCE, and never followed or opened.  For names
	 * that come from the data (a folder of one file per game), where a
	 * link planted under a name would write outside the folder and a
	 * FIFO would block the run. */
	XQ_WRITE_NO_LINKS = 1 << 5
};

/*
 * Open `path` ("-": standard output) for writing.  Returns 0 with *out
 * set; or XQ_EIO (an existing file without XQ_WRITE_FORCE, a directory,
 * no permission), XQ_EUNSUPPORTED (no format named and none fits the
 * extension, or the format cannot be written), XQ_EENCODING, XQ_ENOMEM,
 * with *out NULL and the reason sent to `fn`.
 * NULL `out` or `path`: XQ_EINVAL.
 */
XQ_API int xq_writer_open(xq_writer **out, const char *path, const xq_write_options *opts,
			  xq_diagnostic_fn fn, void *user);
/* The same into memory: opts->format is needed; the bytes are handed
 * over by xq_writer_close_memory().  NULL `out` or `opts`: XQ_EINVAL. */
XQ_API int xq_writer_open_memory(xq_writer **out, const xq_write_options *opts,
				 xq_diagnostic_fn fn, void *user);
/* Add one game.  0, or a negative code (the reason went to the callback;
 * a "loss" warning alone is not a failure): a second game for a format
 * that holds one per file (XQF) is XQ_EUNSUPPORTED.  After a failure the
 * output is never put in place (xq_writer_close() fails): it is whole or
 * absent.  A broken record is written as far as it goes.
 * NULL `w` or `r`: XQ_EINVAL. */
XQ_API int xq_writer_write(xq_writer *w, const xq_record *r);
/* Finish the output and put the file in place; frees `w` in every case.
 * 0 or a negative code (nothing is left under the name then).
 * NULL `w`: XQ_EINVAL. */
XQ_API int xq_writer_close(xq_writer *w);
/* Finish a memory writer: *data (malloc'd, freed with xq_free(); a NUL
 * byte follows the `*len` bytes) and *len.  Frees `w`.
 * NULL `w`, `data` or `len`: XQ_EINVAL. */
XQ_API int xq_writer_close_memory(xq_writer *w, void **data, size_t *len);
/* Give up: nothing is left under the name.  Frees `w`; NULL is allowed. */
XQ_API void xq_writer_abort(xq_writer *w);

/*
 * Append to `out` the document a writer of opts->format (needed) makes
 * of `r` alone: the bytes xq_writer_open_memory(), xq_writer_write() and
 * xq_writer_close_memory() would give, without a writer to open and free
 * (the file flags of `opts` are not looked at).  Diagnostics go to `fn`
 * (may be NULL), what the format cannot hold as "loss" warnings.
 * Returns 0; XQ_EUNSUPPORTED or XQ_EENCODING when the options are
 * refused, or the writer refuses the record, the reason sent to `fn`;
 * XQ_ENOMEM when memory ran out (the buffer's sticky error too).  After a
 * failure `out` holds what it held plus, maybe, part of the record: cut
 * it back to its earlier length.  No state is kept between calls: it may
 * run on several threads at once, each with its own buffer.  With
 * xq_format_separator(), games written so can be joined into one file.
 * NULL `out`, `r` or `opts`: XQ_EINVAL.
 */
XQ_API int xq_record_write_buf(xq_buf *out, const xq_record *r, const xq_write_options *opts,
			       xq_diagnostic_fn fn, void *user);
/*
 * For a program that writes games before their numbers are known (a big
 * input read in pieces on several threads, each numbering its games from
 * its start) and joins them in order: `text` holds the bytes
 * xq_record_write_buf() appended for `r` in format `name` when r's number
 * was `number` and its line `line`; now that `r` has its own
 * (xq_record_number(), xq_record_place()), put them in their place in
 * `text`, so that `text` is what writing `r` gives now.  Formats that
 * write no number or line into a game's bytes (all but NDJSON's
 * "source") leave `text` as it is.  Returns 0; XQ_ENOMEM; XQ_ENOTFOUND
 * (no format is called `name`); XQ_EINTERNAL when `text` is not such
 * bytes (left as it was).  NULL `name`, `text` or `r`: XQ_EINVAL.
 */
XQ_API int xq_format_renumber(const char *name, xq_buf *text, const xq_record *r, uint64_t number,
			      uint64_t line);

/*
 * Append to `b` the member "source":{...} (no comma before it) by which
 * xqkit's NDJSON refers to a game (doc/ndjson.md): "file", "game",
 * "line" and "offset", each only when known (`file` NULL, `game` 0,
 * `line` 0, `offset` -1 when not), as xq_record_origin() gives them.
 * Returns 0, or XQ_ENOMEM (the buffer's sticky error).  NULL `b`: XQ_EINVAL.
 */
XQ_API int xq_buf_add_ndjson_source(xq_buf *b, const char *file, uint64_t game, uint64_t line,
				    int64_t offset);

#ifdef __cplusplus
}
#endif

#endif
