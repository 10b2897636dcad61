/*
 * onegame.h: what the readers of the small one-game records of Chinese
 * game servers and programs share (mxq.c, ccm.c, chn.c, che.c, xgf.c):
 * the record read whole within its format's limit, diagnostics at byte
 * offsets, GBK text turned into tags and comments, and the main line
 * built move by move (lib/flattree.h), an illegal move stopping it.
 *
 * None of these formats holds more than one game or any variation, and
 * their records are a few kilobytes (the largest sample is 2,128 bytes):
 * a record is read whole, never past xqi_format_record_limit(), and parsed
 * from memory, every field checked against the bytes left first.
 */
#ifndef XQI_FORMATS_ONEGAME_H
#define XQI_FORMATS_ONEGAME_H

#include <stdint.h>

#include "buf.h"
#include "flattree.h"
#include "format.h"

/*
 * Limits (man xqkit(1), LIMITS): a record of these formats is read within
 * 1 MiB, far above any real game (a 1,000-ply game is 36 KB in the widest
 * of them, CHN); reading keeps the record's bytes and its game, at most
 * ONEGAME_MEM_FACTOR bytes of memory per byte.
 */
#define ONEGAME_MAX_RECORD ((uint64_t)1 << 20)
#define ONEGAME_MEM_FACTOR 48

struct xqi_onegame {
	struct xqi_input *in;
	const struct xqi_sink *sink;
	const char *name;
	const struct xqi_format *fmt;
	struct xqi_read_opts opts;
	struct xq_buf data;          /* the whole record, once read */
	struct xqi_transcoder gbk;    /* GB18030 (so GBK and GB2312) to UTF-8 */
	struct xq_buf text;          /* a field's text, converted */
	struct xqi_flat_tree line;    /* the main line being built */
	struct xqi_read_guard guard;
	int done;
};

int xqi_onegame_open(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
		    const struct xqi_sink *sink, const struct xqi_format *fmt);
void xqi_onegame_close(void *reader);

/*
 * Start reading the one game: 1 with the record's bytes in r->data and
 * `g` cleared and numbered, 0 when it was read already or the input is
 * empty (no game: a game takes a byte at least), or a negative code
 * (reported: an input error, or a record over the limit).
 */
int xqi_onegame_begin(struct xqi_onegame *r, struct xqi_record *g);
/* What the reader's read() returns: `rc` through xqi_read_guard. */
int xqi_onegame_end(struct xqi_onegame *r, struct xqi_record *g, int rc);

/* Report about the game at byte `off` (ply 0: not about a move). */
void xqi_onegame_report(const struct xqi_onegame *r, uint64_t off, uint32_t ply,
		       enum xqi_diagnostic_code code, enum xq_severity_level sev, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 6, 7)))
#endif
	;

/*
 * `len` bytes of GBK text at r->data + off (up to a first NUL) into
 * r->text as UTF-8; a byte that is not GBK is reported at its offset and
 * the text stops before it.  Returns 0 or XQ_ENOMEM.
 */
int xqi_onegame_gbk(struct xqi_onegame *r, uint64_t off, size_t len);
/* The same text as tag `name` (nothing when it is empty). */
int xqi_onegame_tag(struct xqi_onegame *r, struct xqi_record *g, const char *name, uint64_t off,
		   size_t len);
/* A tag from UTF-8 text. */
int xqi_onegame_tag_text(struct xqi_record *g, const char *name, const char *value, size_t len);

/* GBK text as the Date tag: in PGN's form when it starts with a date
 * (xqi_onegame_date), else as written. */
int xqi_onegame_date_tag(struct xqi_onegame *r, struct xqi_record *g, uint64_t off, size_t len);

/*
 * "2016年12月27日 ..." or "2005-01-18" as a PGN date ("2016.12.27") in
 * out[16]: 1 when `s` starts with such a date, 0 when it does not.
 */
int xqi_onegame_date(const char *s, size_t len, char out[16]);

/*
 * The main line.  line_start() once the start position is in g->start;
 * line_move() for each move of the record (m 0: one whose squares could not
 * be read, which stops the line as an illegal move does), with its byte
 * offset and its bytes as the record has them (`raw`, for the message);
 * line_end() after the last.  An illegal move is an error at its offset
 * and ply, the game is broken, and the moves after it are counted and
 * said once in line_end().  Each returns 0 or XQ_ENOMEM.
 */
void xqi_onegame_line_start(struct xqi_onegame *r, struct xqi_record *g);
int xqi_onegame_line_move(struct xqi_onegame *r, struct xqi_record *g, xqi_move m, uint64_t off,
			 const char *raw);
int xqi_onegame_line_end(struct xqi_onegame *r, struct xqi_record *g, uint64_t off);

/*
 * The registry entry of one of these readers, at the end of its file: the
 * format `var` (read only, places in bytes, one game a file, the limit
 * above) with an open_reader() that opens an xqi_onegame for it.  `caps`
 * adds what the format holds (XQ_FORMAT_COMMENTS), `aliases` its other names
 * or NULL.
 */
#define XQI_ONEGAME_FORMAT(var, name, description, extensions, caps, probe, read, aliases)      \
	extern const struct xqi_format var;                                                    \
	static int var##_open(void **out, struct xqi_input *in, const struct xqi_read_opts *opts, \
			      const struct xqi_sink *sink)                                      \
	{                                                                                     \
		return xqi_onegame_open(out, in, opts, sink, &var);                            \
	}                                                                                     \
	const struct xqi_format var = {name,                                                   \
				      description,                                            \
				      extensions,                                             \
				      XQ_FORMAT_READS | XQ_FORMAT_BINARY | (caps),                   \
				      probe,                                                  \
				      var##_open,                                             \
				      read,                                                   \
				      xqi_onegame_close,                                       \
				      NULL,                                                   \
				      NULL,                                                   \
				      NULL,                                                   \
				      ONEGAME_MAX_RECORD,                                     \
				      ONEGAME_MEM_FACTOR,                                     \
				      aliases,                                                \
				      NULL,                                                   \
				      NULL}

/*
 * The start position `b` (its side to move set; its key is computed
 * here) as g->start: 0, or 1 when it is one no game can start from (an
 * error at byte `off`: no move can be read).
 */
int xqi_onegame_start(struct xqi_onegame *r, struct xqi_record *g, struct xqi_position *b, uint64_t off);

/*
 * After the moves of a record that announces `count` of them: `read` were
 * there, and its moves end at byte `pos`; fewer than announced is an error
 * (the game is broken), bytes after them a warning.
 */
void xqi_onegame_counted(struct xqi_onegame *r, struct xqi_record *g, uint64_t count, uint64_t read,
			size_t pos);

/* A little-endian integer of the record (the caller checked the bytes are there). */
uint32_t xqi_onegame_u32(const struct xqi_onegame *r, size_t off);

#endif
