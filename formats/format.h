/*
 * format.h: the one interface every record format fills, and the registry
 * that lists them.  Commands ask the registry (by name, or by probing the
 * first bytes of an input) and never name a format themselves, so adding a
 * format is a new formats/<name>.c plus one row in formats/registry.c.
 *
 * Reading.  open_reader() takes an opened input; read() fills a game and
 * returns 1, or 0 at the end of the input.  Every problem goes to the sink
 * as a diagnostic carrying its place (line/column or byte offset), game
 * number and ply.  A bad game is still returned, with XQI_RECORD_BROKEN set
 * and the tree up to the error, so the caller decides whether to skip or
 * keep it; the reader then goes on with the next game.  A negative return
 * means the input cannot be read any further (an I/O error, or damage the
 * reader cannot step over); the reason has gone to the sink.
 *
 * Every game read() returns starts past where the one before it did: a
 * reader that would return two games without moving on in its input
 * returns XQ_EINTERNAL instead (see xqi_read_guard), so that a caller's
 * loop over the games of an input always ends.  What an input can hold is
 * bounded (each format's record limit, XQI_SKIP_MAX): past a limit, the reader reports
 * an XQI_D_RESOURCE error with the place and reads no further (it returns
 * XQ_ERANGE), so an endless input (/dev/zero, a pipe of junk) ends too.
 *
 * The sink.  open_reader() and open_writer() keep the pointer `sink` (NULL:
 * no diagnostics), not a copy: the sink and its payload are borrowed and
 * must stay valid until close_reader() or close_writer().  Every format
 * follows this one rule.
 *
 * Writing.  write() adds one game; anything the target cannot hold (a
 * field too long, a character outside its encoding, variations or NAGs it
 * has no place for) is reported to the sink as an XQI_D_LOSS warning that
 * says what was lost, never dropped silently.  close_writer() finishes the
 * output (it does not commit the xq_file; the caller does).
 */
#ifndef XQI_FORMATS_FORMAT_H
#define XQI_FORMATS_FORMAT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <xq/io.h>

#include "diagnostic.h"
#include "record.h"
#include "io.h"
#include "text.h"

/* What a format can do and hold: the public XQ_FORMAT_* (<xq/io.h>), and
 * the library's own abilities from bit 16 on (xq_format_info() gives the
 * public ones only). */
enum {
	/* Found by its content only: its extension breaks a tie between
	 * formats that claim the content, but never names a file alone (the
	 * text exports: a .txt file is seldom a record) */
	XQI_FORMAT_BY_CONTENT = 1 << 16
};

struct xqi_read_opts {
	enum xqi_encoding encoding; /* XQI_ENC_UNKNOWN: detect */
	int uci_ranks;             /* 0: ranks 0-9 (ICCS); 1: ranks 1-10 (Fairy-Stockfish UCI) */
	unsigned flags;            /* format-specific */
	uint64_t max_memory;       /* the memory one record may take; 0: XQ_MEMORY_DEFAULT */
	uint64_t max_record;       /* the largest record read (--max-game-size); 0: each
				    * format's own max_record */
};
#define XQI_READ_OPTS_INIT {XQI_ENC_UNKNOWN, 0, 0, 0, 0}

struct xqi_write_opts {
	int notation;              /* an enum xq_dialect value (notation.h); text formats */
	unsigned notation_flags;   /* notation.h XQ_DIALECT_* writing flags */
	enum xqi_encoding encoding; /* XQI_ENC_UNKNOWN means the format's default (UTF-8) */
	int version;               /* format-specific (XQF: 0x0A or 0x12); 0 = default */
	unsigned flags;            /* format-specific */
};
#define XQI_WRITE_OPTS_INIT {0, 0, XQI_ENC_UNKNOWN, 0, 0}

/*
 * Splitting one input at record boundaries, so that the records of a
 * single big file can be read on several threads (optional: a format
 * without it is read sequentially, as always).
 *
 * A splitter scans the input's bytes cheaply (no record is built, no move
 * checked) and proposes places where a record starts and where the bytes
 * can be cut.  A chunk reader then reads the records between two such
 * places with exactly what the sequential reader would give: the same
 * games, the same diagnostics with the same line, column, byte offset and
 * game number, and the encoding found once for the whole input from its
 * start.  Since a cheap scan cannot know everything the reader will decide
 * (a game broken by an illegal move resynchronises on other tokens), the
 * caller checks each chunk with chunk_next(): the last record must end
 * exactly at the proposed place, and the chunk must hold the number of
 * records the splitter counted.  When a chunk does not, the caller reads
 * the rest of the input sequentially from that chunk's start.
 */

/*
 * What the streamed formats may skip (SKIP in LIMITS of xqkit(1)): at most
 * XQI_SKIP_MAX bytes in a row may hold no record (text around records,
 * blank lines, what a reader skips after an error).  A record itself is
 * held to its format's limit (xqi_format_record_limit()).
 */
#define XQI_SKIP_MAX ((uint64_t)16 << 20)

/*
 * The guard each reader's read() passes its result through: `rc` is what
 * read() is about to return and `pos` how far into its input the reader
 * has moved (any measure that only grows: a byte offset, a decoded
 * offset).  A game (rc 1, `g` the game) returned where the one before it
 * was, the reader not moved on, is a bug that would make the caller loop
 * for ever: it is reported to `sink` as an XQI_D_INTERNAL error (commands
 * then exit with status 4) and XQ_EINTERNAL is returned instead.  The
 * first game may stand anywhere; other values of `rc` pass unchanged.
 */
struct xqi_read_guard {
	uint64_t last;  /* `pos` when the last game was returned */
	uint64_t games; /* games returned */
};

int xqi_read_guard(struct xqi_read_guard *gd, int rc, uint64_t pos, const struct xqi_record *g,
		  const struct xqi_sink *sink);

/* What a text reader asks its input for at a time.  Whoever reads an
 * input for a splitter or a chunk reader asks for the same, so that an
 * input that fails (a damaged gzip stream) fails at the same byte. */
#define XQI_READ_SIZE 65536

/* Where bytes come from: like xqi_input_read() (count, 0 at the end, or a
 * negative XQ_E* code with the reason in `d`). */
struct xqi_bytes {
	long (*read)(void *ctx, void *buf, size_t n, struct xq_diagnostic *d);
	void *ctx;
};

/* A place where the input can be cut: a record starts there. */
struct xqi_split_point {
	uint64_t offset;   /* byte offset where the record starts; it starts a line */
	uint64_t line;     /* that line (1-based) */
	uint64_t records;  /* records that start before it */
	uint64_t seen;     /* a reader of the records before `offset` needs the bytes up to
			    * here (> offset for a format that ends a record on seeing the
			    * next one) to see where the last of them ends */
	enum xqi_encoding encoding; /* the input's encoding as the reader finds it, once
				    * known; XQI_ENC_UNKNOWN while every byte so far is ASCII */
	uint64_t first_high;       /* offset of the first byte that is not ASCII (or of
				    * the byte order mark), when `encoding` is known */
};

/* Where a chunk reader starts, and what the input told before it. */
struct xqi_chunk {
	struct xqi_bytes bytes;     /* the chunk's bytes from `offset` on */
	const char *name;          /* the input's name, for diagnostics */
	uint64_t offset;           /* byte offset of the chunk in the input (a split point's) */
	uint64_t line;             /* its line */
	uint64_t records;          /* records before it */
	enum xqi_encoding encoding; /* from the split point that ends the chunk (or any later) */
	uint64_t first_high;
};

struct xqi_split_ops {
	/* Start scanning the input whose bytes `src` gives from its first byte;
	 * the splitter reads them in the same sized requests as the reader
	 * would (so an input error surfaces at the same byte).  Returns 0 or
	 * XQ_ENOMEM. */
	int (*open)(void **out, const struct xqi_bytes *src, const struct xqi_read_opts *opts);
	/* The next split point after the last one: 1 with *pt set, 0 at the
	 * end of the input, or a negative code when the rest of the input
	 * cannot be split (XQ_EUNSUPPORTED: a dialect or an encoding the scan
	 * does not follow) or could not be read (the error `src` gave). */
	int (*next)(void *splitter, struct xqi_split_point *pt);
	void (*close)(void *splitter);
	/* A reader of the records of a chunk, read with the format's read()
	 * and closed with its close_reader().  Returns 0 or XQ_ENOMEM. */
	int (*open_chunk)(void **out, const struct xqi_chunk *c, const struct xqi_read_opts *opts,
			  const struct xqi_sink *sink);
	/* After read() returned 1: 1 with *next set to where the next record
	 * starts (line, column, offset), when the reader knows it without
	 * having met the end of its bytes; 0 when it does not. */
	int (*chunk_next)(void *reader, struct xqi_place *next);
	/*
	 * For a caller that numbers records late (the batch, batch/feed.c): it cuts chunks
	 * without scanning what is before, reads each with records and lines
	 * counted from the chunk's start (xqi_chunk.records 0, line 1), and
	 * numbers them as it takes them in order.  Both may be NULL.
	 *
	 * boundary: a place at or after `from` in buf[0..len) (bytes of the
	 * input that start where a record starts) where a record surely
	 * starts, unless the text is of a rare shape there, which the caller's
	 * check of each chunk catches: 1 with *at and *seen (how far a reader
	 * of the records before must see, as xqi_split_point.seen) set; 0 when
	 * buf holds none (more bytes may, unless `eof`), with *at where a call
	 * with more bytes must look again (what is before it was looked at).
	 *
	 * decide: the encoding a reader of the input decides at buf[h], its
	 * first byte over 0x7F, where `from` is where a record starts before
	 * h: 1 with *enc set; 0 when it needs bytes past `len` (unless `eof`);
	 * XQ_EUNSUPPORTED for one a chunk cannot start in.
	 */
	int (*boundary)(const char *buf, size_t len, size_t from, int eof, size_t *at, size_t *seen);
	int (*decide)(const char *buf, size_t len, size_t from, size_t h, int eof,
		      enum xqi_encoding *enc);
};

struct xqi_format {
	const char *name;        /* "pgn", "xqf", ... (lower case, used on the command line) */
	const char *description; /* one line for `xqkit help formats` */
	const char *extensions;  /* space-separated, with dots, compared without regard to case:
				  * the names of the files it reads (".pgn .pgn_zh"); the first is
				  * the one it writes (a name ending in ".gz" is compared
				  * without it: every reader reads gzip) */
	unsigned caps;           /* XQ_FORMAT_* */

	/* How sure is this format that `head` (up to XQI_PEEK_SIZE bytes) is its
	 * own: 0 (no) to 100 (magic bytes matched). */
	int (*probe)(const unsigned char *head, size_t len);

	int (*open_reader)(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
			   const struct xqi_sink *sink);
	int (*read)(void *reader, struct xqi_record *g);
	void (*close_reader)(void *reader);

	int (*open_writer)(void **out, struct xq_file *o, const struct xqi_write_opts *opts,
			   const struct xqi_sink *sink);
	int (*write)(void *writer, const struct xqi_record *g);
	int (*close_writer)(void *writer);

	/*
	 * Memory (see "Limits" below): the most content bytes (after gunzip)
	 * one record may hold, and the most bytes of memory reading one record
	 * takes per content byte (the record's bytes if it is read whole, its
	 * game, what the reader keeps about it), measured on the densest
	 * records the format allows.
	 */
	uint64_t max_record;
	unsigned mem_factor;

	/* Other names xqi_format_find() knows it by, space-separated ("ubb"),
	 * or NULL. */
	const char *aliases;

	/*
	 * Set by a writer whose games are written apart: open_writer() and
	 * close_writer() write nothing, and what write() adds for a game is
	 * the bytes a writer just opened would write for that game alone,
	 * preceded by `separator` when a write() before it returned 0.  A
	 * caller may then write games with writers of their own (one per
	 * thread) and join them.  NULL when a game's bytes depend on the
	 * others (an HTML collection's index) or the format holds one game.
	 */
	const char *separator;

	/*
	 * Set by a writer that writes a game's number or line into the
	 * game's bytes (NDJSON's "source"); NULL when they never show there.
	 * `text` holds the bytes write() gave for `g` alone (no separator)
	 * when `g`'s number was `number` and its line `line`: put `g`'s own in
	 * their place, so that `text` is what write() gives for `g` now.  For
	 * a caller that writes games before their numbers are known (a big
	 * input read in chunks on several threads).  Returns 0, XQ_ENOMEM, or
	 * XQ_EINTERNAL when `text` is not such bytes (left as it was).
	 */
	int (*renumber)(struct xq_buf *text, const struct xqi_record *g, uint64_t number, uint64_t line);
};

/*
 * How readers and writers report: every diagnostic of formats/ is made by
 * xqi_format_report() (or its va_list form), whatever wrapper a format
 * keeps to compute its places: code, severity and printf message, with
 * the source name, place (`has_offset` says whether place->offset is
 * meaningful; line 0 means no line), game number, ply and move text
 * (`move` may be NULL, `mlen` its bytes).  Nothing is formatted when the
 * sink takes nothing.
 */
void xqi_format_report(const struct xqi_sink *sink, const char *source, uint64_t game,
		      const struct xqi_place *place, int has_offset, uint32_t ply, const char *move,
		      size_t mlen, enum xqi_diagnostic_code code, enum xq_severity_level sev, const char *fmt,
		      ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 11, 12)))
#endif
	;
void xqi_format_vreport(const struct xqi_sink *sink, const char *source, uint64_t game,
		       const struct xqi_place *place, int has_offset, uint32_t ply, const char *move,
		       size_t mlen, enum xqi_diagnostic_code code, enum xq_severity_level sev, const char *fmt,
		       va_list ap)
#if defined(__GNUC__)
	__attribute__((format(printf, 11, 0)))
#endif
	;

/*
 * What every writer shares.
 *
 * xqi_write_report() is how every writer reports: about game number `game`
 * (0: not about one game) at ply `ply` (0: not about one move), written
 * to `o` (its name is the diagnostic's source); the diagnostic goes to
 * `sink` and `rc` is returned, so a refusal reads
 * `return xqi_write_report(..., XQ_EUNSUPPORTED, ...)`.  What a format
 * cannot hold is an XQI_D_LOSS warning; what it refuses, an error.
 *
 * xqi_write_start_check() keeps a writer from presenting a start position
 * the source did not have.  A game whose source gave a start position that
 * could not be read (g->start_text, record.h) is written by a writer that
 * can hold the FEN as text (`as_text`: PGN, NDJSON) with that text as the
 * source wrote it, and a warning says so; any other writer refuses it (an
 * error, and XQ_EUNSUPPORTED).  Returns 0 for every other game.
 */
int xqi_write_report(const struct xqi_sink *sink, struct xq_file *o, uint64_t game,
		    uint32_t ply, int rc, enum xq_severity_level sev, enum xqi_diagnostic_code code,
		    const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 8, 9)))
#endif
	;
int xqi_write_start_check(const struct xqi_sink *sink, struct xq_file *o,
			 const struct xqi_record *g, const char *format, int as_text);
/*
 * xqi_write_refuse() is how a writer refuses the options it is opened with
 * (a notation, an encoding, a version it cannot write): one XQI_D_UNSUPPORTED
 * error about no game, and XQ_EUNSUPPORTED returned, so its open reads
 * `return xqi_write_refuse(sink, o, "... not %s", name)`.
 */
int xqi_write_refuse(const struct xqi_sink *sink, struct xq_file *o, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

/*
 * What a format cannot hold, said from its caps: xqi_write_losses() reports
 * one XQI_D_LOSS warning per kind of thing in `g` that `caps` has no place
 * for (NAGs without XQ_FORMAT_NAGS; comments before a move without
 * XQ_FORMAT_PRE_COMMENTS, unless `flags` has XQI_LOSS_PRE_COMMENTS_KEPT: the
 * writer folds them into the comment before), with how many and the ply
 * of the first, `format` naming the format.  Writers call it instead of
 * counting for themselves.
 */
enum { XQI_LOSS_PRE_COMMENTS_KEPT = 1 };
void xqi_write_losses(const struct xqi_sink *sink, struct xq_file *o, uint64_t game,
		     const struct xqi_record *g, unsigned caps, unsigned flags, const char *format);

/*
 * Encoding.  The one policy of every writer for a character its output
 * encoding cannot hold: it is written as '?' and the loss is reported, as
 * xqi_write_text() does: `len` bytes of UTF-8 `s` (the field `what`, "tag
 * Event", "comment") appended to `out` through `tc` (from UTF-8 to the
 * output's encoding), and when characters were lost one XQI_D_LOSS
 * warning: "<what>: N characters cannot be written in <encoding> and
 * became '?' (the first: '<character>', U+XXXX)".  *lost (when not NULL)
 * gets the count.  Returns 0 or a negative XQ_E* code.  With --strict a
 * loss makes the game skipped, as any other loss.
 */
int xqi_write_text(const struct xqi_sink *sink, struct xq_file *o, uint64_t game, uint32_t ply,
		  struct xqi_transcoder *tc, const char *what, const char *s, size_t len,
		  struct xq_buf *out, size_t *lost);

/*
 * Limits.  Every record is read within two bounds: its format's own
 * max_record (set far above the largest real record known, and said in
 * man xqkit(1), LIMITS), or the one the caller sets instead
 * (opts->max_record, which --max-game-size sets), and what the memory
 * budget allows (opts->max_memory, which --max-memory sets): a record
 * whose reading could take more memory than the budget is refused.
 * Readers check the limit while they read (and inflate), so an oversized
 * record costs no more than the limit.  A reader of many records in one
 * text (PGN, NDJSON, DhtmlXQ) reports one over the limit and goes on at
 * the next record: what it skips of it is text that holds no record
 * (XQI_SKIP_MAX).
 */
/* Memory every reading takes besides its record: buffers, the parser. */
#define XQI_RECORD_BASE ((uint64_t)2 << 20)
/* The most content bytes a record of `f` may hold under `opts`. */
uint64_t xqi_format_record_limit(const struct xqi_format *f, const struct xqi_read_opts *opts);
/* The most memory reading a record of `content` bytes of `f` takes. */
uint64_t xqi_format_record_memory(const struct xqi_format *f, uint64_t content);
/*
 * The most memory reading one record of `in` (opened, and recognised as
 * `f`) can take: its content is at most its size, or 1032 times its size
 * when gzipped (deflate's largest ratio), or unknown (standard input), and
 * at most the record limit.
 */
uint64_t xqi_format_input_memory(const struct xqi_format *f, struct xqi_input *in,
				const struct xqi_read_opts *opts);
/*
 * Set `d` to the "resource" error for a record of `f` over its limit
 * under `opts` (the limit named, and which bound it is); `what` says
 * what is over it ("the input", "a DhtmlXQ record").  Returns XQ_ERANGE.
 */
int xqi_format_limit_diag(struct xq_diagnostic *d, const struct xqi_format *f,
			 const struct xqi_read_opts *opts, const char *what);
/* The same, saying `then` (what the reader does next) for "not read". */
int xqi_format_limit_diag_then(struct xq_diagnostic *d, const struct xqi_format *f,
			      const struct xqi_read_opts *opts, const char *what, const char *then);

/*
 * Read all of `in` into `out` (appended) within the record limit of `f`
 * under `opts`, as a format whose one record is its whole input reads it
 * (CBF, PFC): 0, or the negative code with its diagnostic sent to `sink`
 * (over the limit, the "resource" error of xqi_format_limit_diag() about
 * "the input").
 */
int xqi_format_read_whole(const struct xqi_format *f, struct xqi_input *in,
			 const struct xqi_read_opts *opts, const struct xqi_sink *sink,
			 struct xq_buf *out);

/*
 * The splitting of format `f`, or NULL when its inputs are read only
 * sequentially (binary formats, one game per file, formats whose records
 * depend on what came before them).  Kept apart from struct xqi_format so
 * that a format without it needs no line for it.
 */
const struct xqi_split_ops *xqi_format_split(const struct xqi_format *f);

/* All formats, NULL-terminated. */
extern const struct xqi_format *const xqi_formats[];

/* The format called `name` or one of its aliases (case-insensitive), or NULL. */
const struct xqi_format *xqi_format_find(const char *name);

/*
 * The readable format that claims `head` most strongly; the file name's
 * extension breaks ties and decides when no probe is sure.  NULL if none.
 */
const struct xqi_format *xqi_format_detect(const unsigned char *head, size_t len,
					 const char *filename);

/* The writable format that writes files named like `filename` (its first
 * extension), else one that reads them; NULL if none. */
const struct xqi_format *xqi_format_for_extension(const char *filename);

#endif
