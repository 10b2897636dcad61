/*
 * dhtmlxq_int.h: what the parts of the DhtmlXQ format share, private to
 * them.  The format is split along its layers:
 *   dhtmlxq_scan.c   the window over the input, decoding, finding elements;
 *   dhtmlxq_build.c  a record's elements into a game (tree, start, result);
 *   dhtmlxq_read.c   finding records (wrapped, implicit, URL-encoded) and
 *                    the reader's entry points;
 *   dhtmlxq_write.c  the writer;
 *   dhtmlxq_tables.c the words both sides use;
 *   dhtmlxq.c        the probe and the registry entry, which names the
 *                    reader and the writer and which none of the parts
 *                    names (the reader is given it when it is opened).
 * See dhtmlxq.c for the format itself.
 */
#ifndef XQI_FORMATS_DHTMLXQ_INT_H
#define XQI_FORMATS_DHTMLXQ_INT_H

#include "format.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "ccbridge.h"
#include "check.h"
#include "decode.h"
#include "movegen.h"
#include "utf8.h"

#define CHUNK 65536
/* The bytes that are not text reported one by one in a record; the rest are counted. */
#define DH_BAD_REPORTS 16
/*
 * The largest DhtmlXQ record read: 8 MiB of text.  The largest real one
 * known (the corpus's vschess dhtmlxq.txt, 106,998 moves) is 546,460
 * bytes: the limit is 15 times that, and holds what the writer makes of
 * 100,000 one-move variations (5.4 MB).  DH_MEM_FACTOR: measured 23 on
 * the densest move list (4 bytes a move, read and validated without the
 * repetition rules; 46 with them), 2 to 3 on variation-heavy records.  Reading keeps the record's text
 * (raw and decoded) and its game: at most DH_MEM_FACTOR bytes per byte
 * (4 digits of [DhtmlXQ_move] become a node of the tree).  A record over
 * the limit (or --max-game-size) is reported and, between its wrappers,
 * skipped up to its [/DhtmlXQ]; one without them ends the reading of its
 * input.
 */
#define DH_MAX_RECORD ((uint64_t)8 << 20)
#define DH_MEM_FACTOR 30
#define MAX_RECORD (r->max_record)

extern const struct xqi_format xqi_format_dhtmlxq;
/* What a DhtmlXQ record holds (xqi_format_dhtmlxq.caps, which the writer
 * says its losses by). */
#define XQI_DH_CAPS \
	(XQ_FORMAT_READS | XQ_FORMAT_WRITES | XQ_FORMAT_MULTI | XQ_FORMAT_VARIATIONS | XQ_FORMAT_COMMENTS | \
	 XQ_FORMAT_ANY_TAGS)
#define EXCERPT 40

/* Where a byte of the decoded text is in the source. */
struct dh_pos {
	uint64_t off;
	uint64_t line, col;
};

struct dh_elem {
	const char *name;
	size_t nlen;
	const char *val;
	size_t vlen;
	struct dh_pos at; /* the value's first byte */
};

enum { BR_WAITING, BR_RESOLVING, BR_BUILT, BR_FAILED };

struct dh_branch {
	uint32_t id, parent, ply; /* move_P_S_B: parent P, ply S, id B */
	size_t elem;
	int state;
	uint32_t first_ply;       /* ply of its first move */
	uint32_t attach;          /* the node its first move hangs from */
	size_t nodes_at, nnodes;  /* the nodes read, in bnodes[] */
	size_t nmoves;            /* the moves written in the element */
	int left;                 /* another branch leaves this one */
	size_t ckpt;              /* then its first position in ckpt[] (NO_CKPT: none) */
	size_t cut;               /* the cut (r->cuts) this branch is part of: its own line
				     was cut at a move, or it hangs below such a move
				     (NO_CUT: none) */
};

/*
 * A branch cut at a move that could not be read or played: the error,
 * said once every branch is built, with the moves cut: the branch's own
 * from that move on, and those of the branches that hang below it (at or
 * after it, and theirs).  The rest of the game is read whole.
 */
struct dh_cut {
	struct xq_diagnostic d;
	uint32_t ply;             /* the move's */
	uint64_t moves;
};
#define NO_CUT SIZE_MAX

/*
 * A branch starts from a position on the line it leaves.  Replaying that
 * line from the game's start for every branch made many branches far down
 * a long line quadratic, so a line that branches are known to leave keeps
 * its start position and one every CKPT_EVERY moves (ckpt[]): a branch
 * starts from the nearest one, at most CKPT_EVERY - 1 moves before.
 */
#define CKPT_EVERY 64
#define NO_CKPT SIZE_MAX

struct dh_reader {
	struct xqi_input *in;
	const struct xqi_sink *sink;
	const struct xqi_format *fmt; /* the registry entry (xqi_format_dhtmlxq): its limit */
	const char *name;
	struct xqi_read_opts opts;
	size_t max_record;       /* the limit of a record's text, from the format's and the budget */
	enum xqi_encoding enc;
	int enc_known;
	int enc_given;           /* by the caller: every line is read in it */
	struct xqi_textdec td;    /* the decoder (decode.h), once enc is known */
	int td_live;
	uint64_t dropped;        /* bytes that were not text, taken out of the text */
	uint64_t exact_end;      /* text offsets before this are source offsets (UTF-8) */
	size_t bom;              /* bytes of a BOM before the text */
	struct dh_mark {
		uint64_t at;          /* absolute text offset */
		struct xqi_place place; /* line, column and source offset */
		enum xqi_encoding enc;
		enum xqi_textdec_kind kind;
		unsigned char byte;
		uint64_t count;       /* bytes that were not text, in a row (the same `at`) */
		int repaired;         /* in a value made text with U+FFFD (xqi_dh_value_text()) */
	} *foreign;              /* the decoder's events, reported with their record */
	size_t nforeign, foreign_cap, foreign_first;
	uint64_t mark_abs;       /* the text offset of the last mark kept (UINT64_MAX: none) */
	struct dh_pos mark_at;   /* and its place, where the next mark's place counts from */
	struct xq_buf raw;       /* bytes read, not yet decoded */
	uint64_t raw_off;        /* source offset of raw.ptr[0] */
	int input_done;
	struct xq_buf text;      /* decoded text */
	uint64_t text_base;      /* absolute decoded offset of text.ptr[0] */
	size_t pos;              /* scanning position in text */
	struct dh_pos at;        /* place of text.ptr[pos] */
	int offsets;             /* decoded offsets are source offsets (UTF-8) */
	int eof;                 /* text holds everything that is left */
	int error;
	int quiet;               /* a trial split: diagnostics are not sent */
	int html;
	int dialect_noted;
	uint64_t outside;        /* bytes that were not text, outside every record */
	struct dh_mark first_outside;
	uint64_t games;
	struct xqi_read_guard guard;
	/* What the current task (finding a record, reading one) may still read:
	 * bytes read from the input up to budget_from + budget. */
	uint64_t budget_from, budget;
	int in_record;
	struct dh_pos budget_at; /* where the task started */
	/* Scratch for one record. */
	int exact;               /* places inside the record are exact */
	struct dh_pos rec_at;
	struct dh_elem *elems;
	size_t nelems, elems_cap;
	struct dh_branch *br;
	size_t nbr, br_cap;
	struct dh_order {
		uint32_t id;
		uint32_t idx;
	} *order;                /* branches sorted by id */
	uint32_t *bnodes;
	size_t nbnodes, bnodes_cap;
	struct xqi_position *ckpt;   /* see CKPT_EVERY */
	size_t nckpt, ckpt_cap;
	size_t main_ckpt;        /* the main line's first position in ckpt[], or NO_CKPT */
	struct dh_cut *cuts;
	size_t ncuts, cuts_cap;
	struct xq_buf tmp, tmp2;
};

/* Result words of DhtmlXQ_result, and the elements whose tag is not their
 * capitalised name (dhtmlxq_tables.c). */
struct dh_result_word {
	const char *word;
	enum xqi_result r;
};
extern const struct dh_result_word xqi_dh_results[];
extern const size_t xqi_dh_nresults;
struct dh_tag_element {
	const char *element, *tag;
};
extern const struct dh_tag_element xqi_dh_tags[];
extern const size_t xqi_dh_ntags;

/* dhtmlxq_scan.c: the window over the input, decoding, elements */
int xqi_dh_add_cp(struct xq_buf *b, uint32_t cp);
/*
 * The next character of a text with "u" escapes, at s[0..n) (n > 0): an
 * escape is `esc` (a backslash in comments, '%' as JavaScript's escape()
 * writes), 'u' (or 'U' with `any_case`) and four hexadecimal digits, and a
 * surrogate pair written as two escapes is one character.  Appends the
 * escaped character as UTF-8, or the byte s[0] as it is when s holds no
 * escape of a character; returns how many bytes it took (1, 6 or 12), or
 * XQ_ENOMEM.
 */
int xqi_dh_add_u_char(struct xq_buf *out, const char *s, size_t n, char esc, int any_case);
int xqi_dh_excerpt_len(const char *s, size_t len);
int xqi_dh_fill(struct dh_reader *r);
int xqi_dh_name_char(int c);
int xqi_dh_name_is(const char *name, size_t len, const char *lit);
int xqi_dh_parse_ids(const char *s, size_t len, uint32_t *ids, int want);
/* The result a [DhtmlXQ_result] word says: the WXF database's W, L, D
 * (red's result), and what xqi_result_word() reads (`first`: the side that
 * moves first, for 先胜).  0, or -1 for a word not known. */
int xqi_dh_result_word(const char *s, size_t len, int first, enum xqi_result *out);
int xqi_dh_split_elements(struct dh_reader *r, uint64_t game, const char *s, size_t len,
			 int implicit, size_t *consumed);
int xqi_dh_value_text(struct dh_reader *r, uint64_t game, const struct dh_elem *e, int comment);
size_t xqi_dh_find(const char *s, size_t len, size_t from, const char *pat);
struct dh_pos xqi_dh_place_in(const struct dh_reader *r, const struct dh_elem *e, size_t k);
uint64_t xqi_dh_bytes_read(const struct dh_reader *r);
void xqi_dh_advance(struct dh_reader *r, size_t to);
void xqi_dh_budget_start(struct dh_reader *r, int record);
void xqi_dh_compact(struct dh_reader *r);
void xqi_dh_pos_advance(struct dh_pos *p, const char *s, size_t n);
void xqi_dh_report_at(struct dh_reader *r, uint64_t game, const struct dh_pos *p, uint32_t ply,
		     const char *move, size_t mlen, enum xqi_diagnostic_code code, enum xq_severity_level sev,
		     const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 9, 10)))
#endif
	;
void xqi_dh_scan_html(struct dh_reader *r, const char *s, size_t len);
/* The record at r->at is over the limit: said, and XQ_ERANGE (reading stops). */
int xqi_dh_over_limit(struct dh_reader *r);

/* dhtmlxq_build.c: a record's elements into a game */
int xqi_dh_build_game(struct dh_reader *r, struct xqi_record *g);
void xqi_dh_capitalise(char *out, const char *name, size_t len);

/* dhtmlxq_read.c: finding records; the reader */
int xqi_dh_open_reader(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
		      const struct xqi_sink *sink, const struct xqi_format *fmt);
int xqi_dh_read(void *reader, struct xqi_record *g);
void xqi_dh_close_reader(void *reader);

/* dhtmlxq_write.c: the writer */
int xqi_dh_close_writer(void *writer);
int xqi_dh_open_writer(void **out, struct xq_file *o, const struct xqi_write_opts *opts,
		      const struct xqi_sink *sink);
int xqi_dh_write(void *writer, const struct xqi_record *g);

#endif
