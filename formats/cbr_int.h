/*
 * cbr_int.h: what the CCBridge binary readers share, private to them:
 *   cbr.c       CBR records: the window over the input, fields, board,
 *               move tree, and the CBR reader;
 *   cbl.c       CBL libraries: the reader of both kinds, and the first
 *               kind ("CCBridgeLibrary", records that are whole CBRs);
 *   cbl_zlib.c  the second kind ("CCBridge" 2.1, zlib-compressed).
 * Calls go one way: cbl.c calls cbl_zlib.c and cbr.c, cbl_zlib.c calls
 * cbr.c, and cbr.c calls neither (the format it reads for is passed to
 * xqi_cbr_open_common; the field layouts are ccbridge.c's).
 * The formats themselves are described at the top of each file.
 */
#ifndef XQI_FORMATS_CBR_INT_H
#define XQI_FORMATS_CBR_INT_H

#include "format.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "alloc.h"
#include "ccbridge.h"
#include "check.h"
#include "movegen.h"
#include "notation.h"
#include "utf8.h"

extern const struct xqi_format xqi_format_cbr;
/* What a CBR record holds (xqi_format_cbr.caps, which the writer, below
 * the format's entry in cbr.c, says its losses by). */
#define XQI_CBR_CAPS \
	(XQ_FORMAT_READS | XQ_FORMAT_WRITES | XQ_FORMAT_VARIATIONS | XQ_FORMAT_COMMENTS | XQ_FORMAT_BINARY)
extern const struct xqi_format xqi_format_cbl;

#define CBR_MAGIC "CCBridge Record"  /* + NUL: 16 bytes */
#define CBL_MAGIC "CCBridgeLibrary"  /* + NUL: 16 bytes */
#define CBR_MAX_COMMENT ((uint32_t)16 << 20)
#define CBR_HEADER_V2 2214 /* a version 2 record's header: its tree starts here */
/*
 * Limits (man xqkit(1), LIMITS).  A CBR record, and each record of a CBL
 * library, is read within 4 MiB: the largest real record known (the
 * corpus's sample_23_ccbridge.cbr, 15,243 moves) is 64,482 bytes, 65 times
 * less; library records are about 4 KB.  Reading a record keeps its bytes
 * and its game: at most CBR_MEM_FACTOR bytes per byte (a 4-byte node
 * becomes a node of the tree).  The data part of a compressed library
 * ("CCBridge" + 21) is inflated whole, within 4 MiB: the largest known,
 * 187,096 bytes for 256 records, is 22 times less (about 5,600 records at
 * that density); it is kept while its records are read, one game at a
 * time, so CBL_MEM_FACTOR is a CBR record's.
 */
#define CBR_MAX_RECORD ((uint64_t)4 << 20)
#define CBR_MEM_FACTOR 48
#define CBL_MAX_RECORD ((uint64_t)4 << 20)
#define CBL_MEM_FACTOR 48
#define CBL_INDEX_AT 66624
#define CBL_SLOT 276
#define CBL_MAX_SLOTS 65536u
#define CHUNK 65536

/* A window over the input: bytes [base, base + len) are in buf. */
struct window {
	struct xqi_input *in;
	unsigned char *buf;
	size_t len, cap;
	uint64_t base;
	int eof;
	int error; /* the negative code of a read error, reported */
};

/* The "CCBridge" + 21 container (see cbz_open). */
struct cbz {
	unsigned char *data; /* the inflated (or stored) data part */
	size_t len;
	size_t pos;          /* where the next record starts */
	uint32_t count;      /* records the library header announces */
	uint32_t read;       /* records read */
	int stored;          /* method 0: data offset + 20 is the file offset */
	int stop;            /* no record can be found after the last one */
	char *other;         /* the library's reserved field, when it holds text */
};

struct cbr_reader {
	struct window w;
	const struct xqi_sink *sink;
	const char *name;
	const struct xqi_format *fmt; /* cbr or cbl, for its limit */
	struct xqi_read_opts opts;
	uint64_t record_limit; /* the most bytes of one record */
	uint64_t cap;          /* where the current record must end by that limit */
	int library;          /* reading a CBL */
	int done;
	uint64_t games;
	uint64_t pos;         /* where the next record is looked for */
	/* CBL */
	int index_ok;         /* the index area matched the records */
	uint32_t slots;
	struct slot {
		uint32_t flags, size;
		char *title;
	} *index;
	size_t nindex, next_index;
	char *lib_tags[7];
	int remark_given;
	struct xqi_transcoder utf16; /* UTF-16LE to UTF-8: one descriptor for every field */
	struct cbz *z;              /* the "CCBridge" + 21 container, once opened */
	struct xqi_transcoder gbk;   /* its GBK text to UTF-8 */
	/* What the current task may read: input up to budget_from + budget
	 * (format.h's limits); past it, w.error is XQ_ERANGE. */
	uint64_t budget_from, budget;
	enum { TASK_RECORD, TASK_SEARCH, TASK_DATA } task;
	struct xqi_read_guard guard;
};

/* cbr.c: the window, CBR fields and records, the CBR reader */
const unsigned char *xqi_cbr_window_get(struct cbr_reader *r, uint64_t off, size_t n);
int xqi_cbr_add_tag(struct xqi_record *g, const char *name, const char *value, size_t len);
int xqi_cbr_open_common(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
		       const struct xqi_sink *sink, const struct xqi_format *fmt);
int xqi_cbr_open_reader(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
		       const struct xqi_sink *sink);
int xqi_cbr_read(void *reader, struct xqi_record *g);
int xqi_cbr_read_record(struct cbr_reader *r, struct xqi_record *g, uint64_t base, uint64_t limit,
		       uint64_t *end);
int xqi_cbr_utf16_field(struct cbr_reader *r, uint64_t game, const unsigned char *p, size_t len,
		       uint64_t off, struct xq_buf *out);
long xqi_cbr_window_fill(struct cbr_reader *r);
uint32_t xqi_cbr_get_u32(const unsigned char *p);
void xqi_cbr_budget_start(struct cbr_reader *r, int task, uint64_t from, uint64_t budget);
void xqi_cbr_close_reader(void *reader);
void xqi_cbr_report(const struct cbr_reader *r, uint64_t game, uint64_t off, uint32_t ply,
		   const char *move, enum xqi_diagnostic_code code, enum xq_severity_level sev, const char *fmt,
		   ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 8, 9)))
#endif
	;
void xqi_cbr_skip_to_end(struct cbr_reader *r, uint64_t game, uint64_t from, const char *what);
void xqi_cbr_start_game(struct cbr_reader *r, struct xqi_record *g);
void xqi_cbr_window_drop(struct window *w, uint64_t off);

int xqi_cbr_library_tags(struct cbr_reader *r, struct xqi_record *g);

/* cbr_write.c: records written, for the CBR writer and each slot of the CBL writer */
struct cbr_writer {
	struct xq_file *o;
	const struct xqi_sink *sink;
	const char *format; /* "CBR" or "CBL", in messages */
	int library;        /* the Library tags are the library's (a CBL), not lost */
	uint64_t games;     /* games written, the current one included */
	struct xq_buf rec;  /* the record being written (CBR) */
	struct xq_buf text; /* scratch: a text as UTF-16LE */
};
int xqi_cbr_write_record(struct cbr_writer *w, const struct xqi_record *g, struct xq_buf *out);
int xqi_cbr_put_text(struct cbr_writer *w, unsigned char *dst, size_t size, const char *what,
		    const char *s);
void xqi_cbr_guid(const unsigned char *p, size_t n, unsigned char out[16]);
void xqi_cbr_writer_release(struct cbr_writer *w);
int xqi_cbr_open_writer(void **out, struct xq_file *o, const struct xqi_write_opts *opts,
		       const struct xqi_sink *sink);
int xqi_cbr_write(void *writer, const struct xqi_record *g);
int xqi_cbr_close_writer(void *writer);

/* cbl.c: the CBL reader */
int xqi_cbl_open_reader(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
		       const struct xqi_sink *sink);
int xqi_cbl_read(void *reader, struct xqi_record *g);

/* cbl_zlib.c: the zlib CBL */
int xqi_cbz_open(struct cbr_reader *r, const unsigned char *h);
int xqi_cbz_read(struct cbr_reader *r, struct xqi_record *g);

#endif
