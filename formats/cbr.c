/*
 * cbr.c: CBR, the binary record of CCBridge (象棋桥), and CBL, its library
 * of records: readers (CCBridge is the only writer of these).
 *
 * CBR ("CCBridge Record\0", version byte at 19: 1 old layout, 2 current).
 * Fixed-size UTF-16LE fields, NUL-terminated (bytes after the NUL are
 * leftovers of CCBridge's memory, never read), then the start position and
 * the move tree.  Version 2 offsets, with the CBF element each field
 * matches (and so its game tag, see ccbridge.c):
 *
 *     52 ScriptFile (128)    180 Name (128)         308 Category (256)
 *    564 From                628 ContestType        692 Contest
 *    756 Round               820 Group (32)         852 Table (32)
 *    884 Date                948 Site              1012 TimeRule
 *   1076 Red                1140 RedTeam           1204 RedTime      1268 RedRating (32)
 *   1300 Black              1364 BlackTeam         1428 BlackTime    1492 BlackRating (32)
 *   1524 Referee            1588 Recorder          1652 Commentator  1716 CommentatorURL
 *   1780 Creator            1844 CreatorURL        1908 DateCreated  1972 DateModified
 *   2036 ECCO (4 ASCII)     2040 RecordType (u32)  2044 RecordKind (32)
 *   2076 result (u32: 0 unknown, 1 red, 2 black, 3 draw)   2080 ResultType (32)
 *   2112 side to move (u32: 1 red, 2 black)   2116 first move number (u16)
 *   2120 board (90 bytes)   2210 FF FF FF FF   2214 the move tree
 * (64 bytes where no size is given.)  Version 1 has no ScriptFile, Referee
 * or Recorder: the fields up to BlackRating sit 128 bytes earlier, the
 * rest 256 bytes earlier, and the tree starts at 1958.  The ECCO field is
 * established by a CBR and a CBF of the same game in the corpus (both say
 * C66); ScriptFile and Category are the names vschess gives them.
 *
 * Board: index = row from the top * 9 + column from red's left; red
 * R N B A K C P are 0x11-0x17, black 0x21-0x27, 0 empty.  Move tree:
 * depth-first nodes [flags, 0, from, to], flag 1 ends the line, 2 the move
 * has an alternative after its subtree, 4 a comment follows (u32 byte
 * length, UTF-16LE); the first node is the root (from == to) with the game
 * comment.  Squares are board indexes in version 2 and hex nibbles
 * (file, row from the top) in version 1.  The tree is built by ccbridge.h's
 * flat-list builder; comments have their CRLF turned into LF.
 *
 * CBL ("CCBridgeLibrary\0", u32 version 3 at 16).  UTF-16LE library fields:
 * name 64 (512), source 576 (256), creator 832, creator mail 896, created
 * 960, modified 1024 (64 each), remark 1088 (65536).  At 60 a u32 count of
 * index slots; the index follows at 66624, 276 bytes a slot, then the
 * records, each a whole CBR.  What the samples establish of a slot: u32
 * flags (7 in use, 0 free), u32 number, u32 1, u32 the record's size in
 * bytes, u32 0, a GUID string (80 bytes) and the record's title.  The
 * reader finds the records by their magic (vschess's method), and uses the
 * index only to check them: a size or title that disagrees, or flags
 * other than 7, is reported as a note, never acted on.  The library
 * fields become tags of every game (Library, LibrarySource, ...), except
 * the long remark, which only the first game carries (LibraryRemark), so
 * a converted collection keeps it once.
 *
 * The other CBL: "CCBridge", u32 21 (the library format's version, 2.1),
 * u32 compression method (0 none, 1-3 low to high: the two corpus files
 * say 1 and 3, and their zlib headers say fastest and best), u32 size of
 * the data part; the data part from byte 20 on, a zlib stream unless the
 * method is 0.  Inside, little-endian, text GBK with "||" for
 * a line break, "str" a u32 byte count then the bytes:
 *
 *   library: str name, str source, str reserved, str creator, str creator
 *     mail, created (19 bytes), modified (19; dates space-padded), u32 the
 *     number of records, str remark; then the records, back to back.
 *   record: u32 its size (these 4 bytes included), 32 bytes start position,
 *     u32 type, str event, u32 first move number, str title, str source,
 *     str reserved, str site, str date, str red, str black, u32 result
 *     (1 red wins, 2 black wins, 3 draw, 4 unknown), str commentator, str
 *     commentator mail, str creator, str creator mail, str game comment,
 *     1 byte side to move (1 red, 0 black), created (19), modified (19),
 *     u32 move count, the moves (6 bytes each), then one comment per move,
 *     each ended by CR LF.
 *   start position: one byte per piece, 车马相仕帅仕相马车炮炮兵兵兵兵兵 red
 *     then black, high nibble column 1-9 from red's left, low nibble row
 *     1-10 from the top, 0 for a piece not on the board.
 *   move: u16 index, from, to (high nibble column 0-8 from red's left, low
 *     nibble row 0-9 from the top), and the move's Chinese text in four
 *     nibbles, low byte first: piece (车马相仕帅炮兵, or 前中后), file
 *     (一..九 from the mover's right, or the piece after 前中后), 进退平,
 *     number (1-9).
 *   tree: the index is the ply.  An index one more than the previous one
 *     continues the line; a smaller or equal one starts an alternative to
 *     the move of that ply on the line just read (the depth-first order of
 *     the tree, main line first).
 *
 * How this was established.  A public description (the Dart reader of the
 * chinese-chess-fish-android lineage, which quotes CCBridge's format notes)
 * gives the field order, the nibble text and the result codes; the two
 * corpus libraries confirm every part byte for byte: 47 and 256 records,
 * as their headers say, whose sizes chain to the exact end of the data;
 * every one of their 1,970 and 9,415 moves legal from its start position
 * under the tree rule above (hanging variations off the main line instead
 * puts 273 moves of the second library where they cannot be played); every
 * move's text fits its squares (24 leave out the 前/后 that two pieces on
 * a file would need: CCBridge omits them, so an ambiguous text that fits
 * is accepted); results agree with the titles (巧胜 red wins, 难胜 draw);
 * every record has exactly one CR LF-ended comment per move.  The
 * squares are what is read; a text that does not name the move is noted.
 * The reserved fields are empty in every known record; text in them is
 * kept as a tag (Other, LibraryOther) and, for the library's, noted.  The
 * first move number is 1 in every known record; another value is noted
 * and taken as the number of the first move.  Method 0 (stored) is as the
 * description says; no such file is known.  Offsets of diagnostics are
 * inflated offsets, said so in the message (stored data: file offsets).
 */
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

extern const struct xq_format xq_format_cbr;
extern const struct xq_format xq_format_cbl;

#define CBR_MAGIC "CCBridge Record"  /* + NUL: 16 bytes */
#define CBL_MAGIC "CCBridgeLibrary"  /* + NUL: 16 bytes */
#define CBR_MAX_COMMENT ((uint32_t)16 << 20)
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
	struct xq_input *in;
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
	const struct xq_sink *sink;
	const char *name;
	const struct xq_format *fmt; /* cbr or cbl, for its limit */
	struct xq_read_opts opts;
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
	struct xq_transcoder utf16; /* UTF-16LE to UTF-8: one descriptor for every field */
	struct cbz *z;              /* the "CCBridge" + 21 container, once opened */
	struct xq_transcoder gbk;   /* its GBK text to UTF-8 */
	/* What the current task may read: input up to budget_from + budget
	 * (format.h's limits); past it, w.error is XQ_ERANGE. */
	uint64_t budget_from, budget;
	enum { TASK_RECORD, TASK_SEARCH, TASK_DATA } task;
	struct xq_read_guard guard;
};

static void report(const struct cbr_reader *r, uint64_t game, uint64_t off, uint32_t ply,
		   const char *move, enum xq_diag_code code, enum xq_severity sev, const char *fmt,
		   ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 8, 9)))
#endif
	;

/* Start a task that may read `budget` bytes of input from `from` on. */
static void budget_start(struct cbr_reader *r, int task, uint64_t from, uint64_t budget)
{
	r->task = task;
	r->budget_from = from;
	r->budget = budget;
}

/* The task read past its budget: say so, and read no further. */
static long over_budget(struct cbr_reader *r)
{
	if (r->task == TASK_RECORD) {
		struct xq_diag d;
		xq_diag_init(&d);
		xq_format_limit_diag(&d, r->fmt, &r->opts, "a record");
		report(r, r->games, r->budget_from, 0, NULL, XQ_D_RESOURCE, XQ_SEV_ERROR,
		       "%s; the rest of the input is not read", d.msg);
	} else if (r->task == TASK_SEARCH)
		report(r, 0, r->budget_from, 0, NULL, XQ_D_RESOURCE, XQ_SEV_ERROR,
		       "more than %llu MiB from here hold no record; the rest of the input is "
		       "not read",
		       (unsigned long long)(XQ_SKIP_MAX >> 20));
	else
		report(r, 0, r->budget_from, 0, NULL, XQ_D_RESOURCE, XQ_SEV_ERROR,
		       "the compressed data part runs more than %llu MiB past the size it "
		       "inflates to; the rest of the input is not read",
		       (unsigned long long)(XQ_SKIP_MAX >> 20));
	return r->w.error = XQ_ERANGE;
}

/* Read more input; 0 at the end, negative on error. */
static long window_fill(struct cbr_reader *r)
{
	struct window *w = &r->w;
	struct xq_diag d;
	long n;

	if (w->eof || w->error)
		return 0;
	if (w->base + w->len - r->budget_from > r->budget)
		return over_budget(r);
	if (XQ_ALLOC_GROW(w->buf, w->len + CHUNK, w->cap))
		return w->error = XQ_ENOMEM;
	xq_diag_init(&d);
	n = xq_input_read(w->in, w->buf + w->len, CHUNK, &d);
	if (n < 0) {
		d.source = r->name;
		xq_sink_report(r->sink, &d);
		w->error = (int)n;
		return n;
	}
	if (n == 0)
		w->eof = 1;
	w->len += (size_t)n;
	return n;
}

/* The `n` bytes at absolute offset `off`, or NULL if the input ends first. */
static const unsigned char *window_get(struct cbr_reader *r, uint64_t off, size_t n)
{
	struct window *w = &r->w;

	if (off < w->base)
		return NULL; /* dropped already: a bug in the caller */
	while (off + n > w->base + w->len)
		if (window_fill(r) <= 0)
			return NULL;
	return w->buf + (off - w->base);
}

/* Forget the bytes before `off`. */
static void window_drop(struct window *w, uint64_t off)
{
	size_t k;

	if (off <= w->base)
		return;
	k = off - w->base > w->len ? w->len : (size_t)(off - w->base);
	memmove(w->buf, w->buf + k, w->len - k);
	w->len -= k;
	w->base += k;
}

static uint32_t get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}


static void report(const struct cbr_reader *r, uint64_t game, uint64_t off, uint32_t ply,
		   const char *move, enum xq_diag_code code, enum xq_severity sev, const char *fmt,
		   ...)
{
	struct xq_place pl = {off, 0, 0};
	va_list ap;

	va_start(ap, fmt);
	xq_format_vreport(r->sink, r->name, game, &pl, 1, ply, move, move ? strlen(move) : 0, code,
		       sev, fmt, ap);
	va_end(ap);
}

/*
 * Decode `len` bytes of UTF-16LE (up to the first NUL unit) into `out`
 * (reset first).  A bad sequence is reported at its offset; what came
 * before it is kept.  Returns 0 or XQ_ENOMEM.
 */
static int utf16_field(struct cbr_reader *r, uint64_t game, const unsigned char *p,
		       size_t len, uint64_t off, struct xq_buf *out)
{
	size_t n = 0, bad = 0;
	int rc;

	xq_buf_reset(out);
	while (n + 1 < len && (p[n] | p[n + 1]))
		n += 2;
	if (n == 0)
		return 0;
	rc = xq_transcoder_convert(&r->utf16, (const char *)p, n, out, &bad);
	if (rc == XQ_EENCODING) {
		report(r, game, off + bad, 0, NULL, XQ_D_ENCODING, XQ_SEV_ERROR,
		       "bytes that are not UTF-16LE text; the text stops before them");
		rc = 0;
	}
	return rc;
}

/* The CBR fields, version 2 offsets, in CBF order; see the comment at the top. */
static const struct cbr_field {
	const char *element;
	uint16_t off, size;
} cbr_fields[] = {
	{"Name", 180, 128},          {"ScriptFile", 52, 128},     {"Category", 308, 256},
	{"From", 564, 64},           {"ContestType", 628, 64},    {"Contest", 692, 64},
	{"Round", 756, 64},          {"Group", 820, 32},          {"Table", 852, 32},
	{"Date", 884, 64},           {"Site", 948, 64},           {"TimeRule", 1012, 64},
	{"Red", 1076, 64},           {"RedTeam", 1140, 64},       {"RedTime", 1204, 64},
	{"RedRating", 1268, 32},     {"Black", 1300, 64},         {"BlackTeam", 1364, 64},
	{"BlackTime", 1428, 64},     {"BlackRating", 1492, 32},   {"Referee", 1524, 64},
	{"Recorder", 1588, 64},      {"Commentator", 1652, 64},   {"CommentatorURL", 1716, 64},
	{"Creator", 1780, 64},       {"CreatorURL", 1844, 64},    {"DateCreated", 1908, 64},
	{"DateModified", 1972, 64},
};

/* A version 2 offset in a version 1 record (0: the field is not there). */
static size_t v1_offset(size_t off)
{
	if (off == 52 || off == 1524 || off == 1588)
		return 0;
	return off < 1524 ? off - 128 : off - 256;
}

static size_t at(int version, size_t off)
{
	return version == 1 ? v1_offset(off) : off;
}

static const char *tag_of(const char *element)
{
	const struct xq_ccb_field *f = xq_ccb_field_by_element(element, strlen(element));
	return f ? f->tag : element;
}

static int add_tag(struct xq_game *g, const char *name, const char *value, size_t len)
{
	return xq_game_add_tag(g, name, strlen(name), value, len);
}

/* The header fields of a record at `base` (h: its first `hlen` bytes). */
static int read_fields(struct cbr_reader *r, struct xq_game *g, const unsigned char *h,
		       uint64_t base, int version)
{
	struct xq_buf text = XQ_BUF_INIT;
	char ecco[5];
	uint32_t v;
	int rc = 0;

	for (size_t i = 0; i < sizeof(cbr_fields) / sizeof(cbr_fields[0]) && !rc; i++) {
		size_t off = at(version, cbr_fields[i].off);
		if (!off)
			continue;
		rc = utf16_field(r, g->number, h + off, cbr_fields[i].size, base + off, &text);
		if (!rc && text.len)
			rc = add_tag(g, tag_of(cbr_fields[i].element), text.ptr, text.len);
	}
	xq_buf_release(&text);
	/* ECCO: up to 4 ASCII characters ("C66"), NUL-terminated. */
	memcpy(ecco, h + at(version, 2036), 4);
	ecco[4] = '\0';
	if (!rc && ecco[0]) {
		size_t n = strlen(ecco);
		int ok = 1;
		for (size_t i = 0; i < n; i++)
			ok &= xq_is_alpha(ecco[i]) || xq_is_digit(ecco[i]);
		if (ok)
			rc = add_tag(g, "ECCO", ecco, n);
		else
			report(r, g->number, base + at(version, 2036), 0, NULL, XQ_D_CORRUPT,
			       XQ_SEV_WARNING, "the ECCO field holds bytes that are not a code; not read");
	}
	if (!rc) {
		char num[16];
		int n = snprintf(num, sizeof(num), "%u", (unsigned)get_u32(h + at(version, 2040)));
		rc = add_tag(g, "RecordType", num, (size_t)n);
	}
	if (!rc) {
		struct xq_buf kind = XQ_BUF_INIT;
		rc = utf16_field(r, g->number, h + at(version, 2044), 32, base + at(version, 2044),
				 &kind);
		if (!rc && kind.len)
			rc = add_tag(g, "RecordKind", kind.ptr, kind.len);
		v = get_u32(h + at(version, 2076));
		if (!rc && xq_ccb_result_from_code(v, &g->result) == 0) {
			const char *s = xq_result_string(g->result);
			rc = add_tag(g, "Result", s, strlen(s));
		} else if (!rc) {
			char num[16];
			int n = snprintf(num, sizeof(num), "%u", (unsigned)v);
			g->result = XQ_RESULT_UNKNOWN;
			g->result_text = xq_game_strdup(g, num, (size_t)n);
			report(r, g->number, base + at(version, 2076), 0, NULL, XQ_D_NO_RESULT,
			       XQ_SEV_NOTE,
			       "result code %u is not one this reader knows (0-3); the result is "
			       "taken as unknown",
			       (unsigned)v);
			rc = add_tag(g, "Result", num, (size_t)n);
		}
		if (!rc)
			rc = utf16_field(r, g->number, h + at(version, 2080), 32,
					 base + at(version, 2080), &kind);
		if (!rc && kind.len)
			rc = add_tag(g, "ResultType", kind.ptr, kind.len);
		xq_buf_release(&kind);
	}
	return rc;
}

/*
 * Set up the start position: 0, 1 when it is unusable (reported), 2 when
 * the board is empty (libraries use such records as headings).
 */
static int read_board(struct cbr_reader *r, struct xq_game *g, const unsigned char *h,
		      uint64_t base, int version)
{
	static const int8_t types[8] = {-1, XQ_ROOK, XQ_HORSE, XQ_ELEPHANT, XQ_ADVISOR, XQ_KING,
					XQ_CANNON, XQ_PAWN};
	const unsigned char *board = h + at(version, 2120);
	uint32_t side = get_u32(h + at(version, 2112));
	unsigned first = (unsigned)h[at(version, 2116)] | (unsigned)h[at(version, 2116) + 1] << 8;
	struct xq_board b;
	struct xq_diag d;
	int pieces = 0;

	xq_board_clear(&b);
	for (int i = 0; i < 90; i++)
		pieces += board[i] != 0;
	if (pieces == 0)
		return 2;
	for (int i = 0; i < 90; i++) {
		unsigned c = board[i];
		int s = c >> 4, t = c & 15;
		if (!c)
			continue;
		xq_diag_init(&d);
		if ((s != 1 && s != 2) || t < 1 || t > 7 ||
		    xq_board_put(&b, s - 1, types[t], XQ_SQ(i % 9, 9 - i / 9), &d)) {
			report(r, g->number, base + at(version, 2120) + (uint64_t)i, 0, NULL,
			       XQ_D_CORRUPT, XQ_SEV_ERROR,
			       "board byte 0x%02x at row %d, column %d is not a piece that can be "
			       "there%s%s; no move can be read",
			       c, i / 9, i % 9, d.msg[0] ? ": " : "", d.msg);
			return 1;
		}
	}
	if (side != 1 && side != 2) {
		report(r, g->number, base + at(version, 2112), 0, NULL, XQ_D_CORRUPT, XQ_SEV_WARNING,
		       "side to move %u is neither 1 (red) nor 2 (black); red assumed",
		       (unsigned)side);
		side = 1;
	}
	b.side = side == 2 ? XQ_BLACK : XQ_RED;
	b.fullmove = first ? (uint16_t)first : 1;
	b.key = xq_board_compute_key(&b);
	xq_diag_init(&d);
	if (xq_board_validate(&b, XQ_FEN_LENIENT_PLACEMENT, &d)) {
		report(r, g->number, base + at(version, 2120), 0, NULL, XQ_D_BAD_FEN, XQ_SEV_ERROR,
		       "start position: %s; no move can be read", d.msg);
		return 1;
	}
	g->start = b;
	return 0;
}

/* A square byte of version `version`, or 0 when it names no square. */
static xq_sq square(int version, unsigned char c)
{
	if (version == 1) {
		int x = c >> 4, y = c & 15;
		return x <= 8 && y <= 9 ? XQ_SQ(x, 9 - y) : 0;
	}
	return c < 90 ? XQ_SQ(c % 9, 9 - c / 9) : 0;
}

/* Comment text: UTF-16LE to UTF-8 with CRLF as LF. */
static int set_comment(struct cbr_reader *r, struct xq_game *g, uint32_t node, uint32_t ply,
		       const unsigned char *p, uint32_t len, uint64_t off, struct xq_buf *tmp)
{
	size_t bad = 0, j = 0;
	int rc;

	xq_buf_reset(tmp);
	rc = xq_transcoder_convert(&r->utf16, (const char *)p, len, tmp, &bad);
	if (rc == XQ_EENCODING) {
		report(r, g->number, off + bad, ply, NULL, XQ_D_ENCODING,
		       XQ_SEV_ERROR, "comment: bytes that are not UTF-16LE text; the comment stops "
				     "before them");
		rc = 0;
	}
	if (rc)
		return rc;
	for (size_t i = 0; i < tmp->len; i++)
		if (!(tmp->ptr[i] == '\r' && i + 1 < tmp->len && tmp->ptr[i + 1] == '\n'))
			tmp->ptr[j++] = tmp->ptr[i];
	xq_buf_truncate(tmp, j);
	while (tmp->len && tmp->ptr[tmp->len - 1] == '\0')
		xq_buf_truncate(tmp, tmp->len - 1);
	return tmp->len ? xq_game_set_comment(g, node, tmp->ptr, tmp->len) : 0;
}

/* The record runs past its limit (r->cap): said, and reading stops. */
static int over_limit(struct cbr_reader *r, const struct xq_game *g)
{
	struct xq_diag d;
	char what[64];

	xq_diag_init(&d);
	snprintf(what, sizeof(what), "record %llu", (unsigned long long)g->number);
	xq_format_limit_diag(&d, r->fmt, &r->opts, what);
	report(r, g->number, g->place.offset, 0, NULL, XQ_D_RESOURCE, XQ_SEV_ERROR, "%s", d.msg);
	return XQ_ERANGE;
}

/*
 * Read the move tree of a record whose nodes start at `pos`, up to
 * `limit` (exclusive).  *end gets the offset after the last node.
 * Returns 0 or a negative code (input error or no memory).
 */
static int read_tree(struct cbr_reader *r, struct xq_game *g, uint64_t pos, uint64_t limit,
		     int version, int playable, uint64_t *end, uint32_t *unread)
{
	struct xq_ccb_tree t;
	struct xq_buf tmp = XQ_BUF_INIT;
	int root = 1, noted_flags = 0, rc = 0;
	uint32_t entries = 0;

	xq_ccb_tree_init(&t, g);
	/* Every node takes 4 bytes at least. */
	for (uint64_t was = pos; !t.complete; XQ_ADVANCED(was, pos)) {
		const unsigned char *p = pos + 4 <= limit ? window_get(r, pos, 4) : NULL;
		unsigned char raw[4];
		unsigned flags;
		uint32_t clen = 0, node = XQ_NODE_NONE, ply;
		uint64_t here = pos;
		xq_sq from, to;
		xq_move m = 0;
		char name[8];
		struct xq_diag d;
		int added;

		if (!p) {
			if (r->w.error)
				rc = r->w.error;
			else if (limit == r->cap && pos + 4 > limit)
				rc = over_limit(r, g);
			else
				report(r, g->number, pos, 0, NULL, XQ_D_TRUNCATED, XQ_SEV_ERROR,
				       "the record ends inside its move tree");
			g->flags |= XQ_GAME_BROKEN;
			break;
		}
		memcpy(raw, p, 4); /* p dies with the next window_get */
		flags = raw[0];
		from = square(version, raw[2]);
		to = square(version, raw[3]);
		if (!noted_flags && ((flags & ~7u) || raw[1])) {
			report(r, g->number, pos, 0, NULL, XQ_D_UNSUPPORTED, XQ_SEV_NOTE,
			       "move node flags 0x%02x%02x have bits this reader does not know; "
			       "they are ignored",
			       raw[0], raw[1]);
			noted_flags = 1;
		}
		if (from && to)
			m = XQ_MOVE(from, to);
		pos += 4;
		if (flags & 4) {
			p = pos + 4 <= limit ? window_get(r, pos, 4) : NULL;
			clen = p ? get_u32(p) : 0;
			if (!p || clen > CBR_MAX_COMMENT || (clen & 1) || pos + 4 + clen > limit ||
			    !window_get(r, pos + 4, clen)) {
				if (r->w.error) {
					rc = r->w.error;
					break;
				}
				if (limit == r->cap &&
				    (pos + 4 > limit || (p && pos + 4 + clen > limit))) {
					rc = over_limit(r, g);
					g->flags |= XQ_GAME_BROKEN;
					break;
				}
				report(r, g->number, here, 0, NULL, XQ_D_TRUNCATED, XQ_SEV_ERROR,
				       "comment of %u bytes runs past the end of the record",
				       (unsigned)clen);
				g->flags |= XQ_GAME_BROKEN;
				break;
			}
			pos += 4;
		}
		if (root) {
			root = 0;
			if (clen)
				rc = set_comment(r, g, XQ_ROOT, 0, window_get(r, pos, clen), clen,
						 pos, &tmp);
			pos += clen;
			if (rc)
				break;
			if (from != to || !from)
				report(r, g->number, here, 0, NULL, XQ_D_CORRUPT, XQ_SEV_WARNING,
				       "the root node names a move (bytes %02x %02x); taken as the "
				       "root",
				       raw[2], raw[3]);
			if (flags & 1)
				t.complete = 1;
			if (!playable)
				t.parent = XQ_NODE_NONE; /* no position: every move is skipped */
			continue;
		}
		entries++;
		ply = t.parent != XQ_NODE_NONE ? t.ply + 1 : 0;
		name[0] = '\0';
		if (m)
			xq_move_name(m, name);
		if (!m && t.parent != XQ_NODE_NONE) {
			report(r, g->number, here, ply, NULL, XQ_D_CORRUPT, XQ_SEV_ERROR,
			       "move bytes %02x %02x name no square; the line stops here", raw[2],
			       raw[3]);
			g->flags |= XQ_GAME_BROKEN;
		}
		xq_diag_init(&d);
		added = xq_ccb_tree_add(&t, m, flags & 2, flags & 1, &node, &d);
		if (added == XQ_EILLEGAL) {
			report(r, g->number, here, ply, name, XQ_D_ILLEGAL_MOVE, XQ_SEV_ERROR,
			       "illegal move %s: %s; the line stops here", name, d.msg);
			g->flags |= XQ_GAME_BROKEN;
		} else if (added == 1) {
			g->nodes[node].place.offset = here;
			if (clen)
				rc = set_comment(r, g, node, ply, window_get(r, pos, clen), clen, pos,
						 &tmp);
		} else if (added < 0 && added != XQ_EPARSE) {
			rc = added;
		}
		pos += clen;
		if (rc)
			break;
	}
	if (!rc && t.skipped && playable)
		report(r, g->number, pos, 0, NULL, XQ_D_ILLEGAL_MOVE, XQ_SEV_NOTE,
		       "%u moves after a bad move of their line were not read", (unsigned)t.skipped);
	*unread = t.skipped;
	if (entries == 0)
		g->flags |= XQ_GAME_EMPTY;
	*end = pos;
	xq_ccb_tree_release(&t);
	xq_buf_release(&tmp);
	return rc;
}

/*
 * Read the record that starts at `base` (its magic is there) into `g`;
 * it may not go past `limit`.  *end gets the offset after the record.
 * Returns 0 (g filled, perhaps broken) or a negative code.
 */
static int read_record(struct cbr_reader *r, struct xq_game *g, uint64_t base, uint64_t limit,
		       uint64_t *end)
{
	const unsigned char *h = window_get(r, base, 20);
	size_t hlen;
	uint32_t unread = 0;
	int version, rc, board;

	*end = base;
	g->place.offset = base;
	r->cap = base + r->record_limit;
	if (r->cap <= limit)
		limit = r->cap;
	else
		r->cap = UINT64_MAX - 1; /* the record has a nearer end: no limit to say */
	if (!h || memcmp(h, CBR_MAGIC, 16)) {
		report(r, g->number, base, 0, NULL, XQ_D_BAD_MAGIC, XQ_SEV_ERROR,
		       "not a CCBridge record (no \"CCBridge Record\" magic)");
		return r->w.error ? r->w.error : XQ_EPARSE;
	}
	version = h[19];
	if (version != 1 && version != 2) {
		report(r, g->number, base + 19, 0, NULL, XQ_D_UNSUPPORTED, XQ_SEV_ERROR,
		       "CBR version %d is not supported (1 and 2 are%s)", version,
		       version == 3 ? "; CCBridge itself asks to upgrade to read 3" : "");
		g->flags |= XQ_GAME_BROKEN | XQ_GAME_EMPTY;
		*end = base + 20;
		return 0;
	}
	hlen = version == 1 ? 1958 : 2214;
	h = base + hlen <= limit ? window_get(r, base, hlen) : NULL;
	if (!h) {
		report(r, g->number, base, 0, NULL, XQ_D_TRUNCATED, XQ_SEV_ERROR,
		       "the record ends inside its %zu-byte header", hlen);
		g->flags |= XQ_GAME_BROKEN | XQ_GAME_EMPTY;
		*end = limit != UINT64_MAX ? limit : r->w.base + r->w.len;
		return r->w.error;
	}
	rc = read_fields(r, g, h, base, version);
	if (rc)
		return rc;
	h = window_get(r, base, hlen); /* read_fields did not move the window, but be plain */
	if (get_u32(h + hlen - 4) != 0xFFFFFFFFu)
		report(r, g->number, base + hlen - 4, 0, NULL, XQ_D_UNSUPPORTED, XQ_SEV_NOTE,
		       "the 4 bytes before the move tree are %08x where records mostly have "
		       "ffffffff; what they mean is not known; ignored",
		       (unsigned)get_u32(h + hlen - 4));
	board = read_board(r, g, h, base, version);
	if (board == 1)
		g->flags |= XQ_GAME_BROKEN;
	/* Even without a position the tree is walked: its end, and the game comment. */
	rc = read_tree(r, g, base + hlen, limit, version, board == 0, end, &unread);
	if (rc || board != 2)
		return rc;
	if (unread) {
		report(r, g->number, base + at(version, 2120), 0, NULL, XQ_D_BAD_FEN, XQ_SEV_ERROR,
		       "the board is empty, yet the record has %u moves; they are not read",
		       (unsigned)unread);
		g->flags |= XQ_GAME_BROKEN;
	} else {
		report(r, g->number, base + at(version, 2120), 0, NULL, XQ_D_EMPTY_GAME, XQ_SEV_NOTE,
		       "a record with an empty board and no moves (a heading%s); read as a game "
		       "with no moves from the standard position",
		       g->nodes[XQ_ROOT].comment ? " with a comment" : "");
	}
	return 0; /* g->start stays the standard position: there is none to give */
}

static int open_common(void **out, struct xq_input *in, const struct xq_read_opts *opts,
		       const struct xq_sink *sink, int library)
{
	struct cbr_reader *r = calloc(1, sizeof(*r));
	struct xq_read_opts def = XQ_READ_OPTS_INIT;

	if (!r)
		return XQ_ENOMEM;
	r->opts = opts ? *opts : def;
	r->fmt = library ? &xq_format_cbl : &xq_format_cbr;
	/* A library record is held to a CBR record's limit (lowered by the budget). */
	r->record_limit = xq_format_record_limit(&xq_format_cbr, &r->opts);
	r->w.in = in;
	r->sink = sink;
	r->name = xq_input_name(in);
	r->library = library;
	budget_start(r, TASK_RECORD, 0, r->record_limit); /* a header is part of a record */
	xq_transcoder_init(&r->utf16, XQ_ENC_UTF16LE, XQ_ENC_UTF8);
	xq_transcoder_init(&r->gbk, XQ_ENC_GB18030, XQ_ENC_UTF8);
	*out = r;
	return 0;
}

static int cbr_open_reader(void **out, struct xq_input *in, const struct xq_read_opts *opts,
			   const struct xq_sink *sink)
{
	return open_common(out, in, opts, sink, 0);
}

static void cbr_close_reader(void *reader)
{
	struct cbr_reader *r = reader;

	for (size_t i = 0; i < r->nindex; i++)
		free(r->index[i].title);
	free(r->index);
	for (size_t i = 0; i < sizeof(r->lib_tags) / sizeof(r->lib_tags[0]); i++)
		free(r->lib_tags[i]);
	xq_transcoder_release(&r->utf16);
	xq_transcoder_release(&r->gbk);
	if (r->z) {
		free(r->z->data);
		free(r->z->other);
		free(r->z);
	}
	free(r->w.buf);
	free(r);
}

static void start_game(struct cbr_reader *r, struct xq_game *g)
{
	xq_game_clear(g);
	g->number = ++r->games;
	g->source = r->name;
	g->encoding = "utf-16le";
}

/*
 * Report the bytes from `from` (after what was read) to the end of the
 * input, which are not read (`what`: what they follow); read at most
 * XQ_SKIP_MAX of them, keeping nothing.
 */
static void skip_to_end(struct cbr_reader *r, uint64_t game, uint64_t from, const char *what)
{
	uint64_t total = r->w.base + r->w.len;

	/* The loop stops itself past XQ_SKIP_MAX; the budget is only a net. */
	budget_start(r, TASK_SEARCH, from, 2 * XQ_SKIP_MAX);
	window_drop(&r->w, total);
	while (total - from <= XQ_SKIP_MAX && window_fill(r) > 0) {
		total = r->w.base + r->w.len;
		window_drop(&r->w, total);
	}
	if (total - from > XQ_SKIP_MAX)
		report(r, game, from, 0, NULL, XQ_D_RESOURCE, XQ_SEV_ERROR,
		       "more than %llu MiB after %s are not read; reading stopped there",
		       (unsigned long long)(XQ_SKIP_MAX >> 20), what);
	else
		report(r, game, from, 0, NULL, XQ_D_TRAILING, XQ_SEV_WARNING,
		       "%llu bytes after %s are not read", (unsigned long long)(total - from), what);
}

static int cbr_read(void *reader, struct xq_game *g)
{
	struct cbr_reader *r = reader;
	uint64_t end;
	int rc;

	if (r->done)
		return 0;
	r->done = 1;
	start_game(r, g);
	budget_start(r, TASK_RECORD, 0, r->record_limit);
	rc = read_record(r, g, 0, UINT64_MAX, &end);
	if (rc < 0)
		return rc;
	if (window_get(r, end, 1))
		skip_to_end(r, g->number, end, "the end of the move tree");
	return xq_read_guard(&r->guard, r->w.error ? (int)r->w.error : 1, end, g, r->sink);
}

/* CBL. */

static const struct {
	const char *tag;
	uint32_t off, size;
} lib_fields[] = {
	{"Library", 64, 512},          {"LibrarySource", 576, 256},
	{"LibraryCreator", 832, 64},   {"LibraryCreatorURL", 896, 64},
	{"LibraryCreated", 960, 64},   {"LibraryModified", 1024, 64},
	{"LibraryRemark", 1088, 65536},
};

/* The library fields as tags of `g`; the remark only on the first game. */
static int library_tags(struct cbr_reader *r, struct xq_game *g)
{
	int rc = 0;

	for (size_t i = 0; i < sizeof(lib_fields) / sizeof(lib_fields[0]) && !rc; i++) {
		if (!r->lib_tags[i])
			continue;
		if (i == sizeof(lib_fields) / sizeof(lib_fields[0]) - 1) {
			if (r->remark_given)
				continue;
			r->remark_given = 1;
		}
		rc = add_tag(g, lib_fields[i].tag, r->lib_tags[i], strlen(r->lib_tags[i]));
	}
	return rc;
}

/*
 * The "CCBridge" + 21 container (CCBridge's library format 2.1): the
 * layout is in the comment at the top of the file.  The whole data part
 * is inflated into memory (it is small: 25,561 and 187,096 bytes in the
 * known files) and read from there.
 */

#define CBZ_HEADER 20
#define CBZ_DATE 19                       /* the fixed-size date fields */


/* A cursor over part of the data: [pos, end). */
struct cbz_cur {
	const unsigned char *p;
	size_t pos, end;
	int short_at;        /* set when a read ran past `end` */
};

static void zreport(const struct cbr_reader *r, uint64_t game, uint64_t off, uint32_t ply,
		    const char *move, enum xq_diag_code code, enum xq_severity sev,
		    const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 8, 9)))
#endif
	;

/*
 * Report at offset `off` of the data part.  For a stored library that is
 * byte off + 20 of the file; inflated bytes have no byte of the file, so
 * the message says where they are instead.
 */
static void zreport(const struct cbr_reader *r, uint64_t game, uint64_t off, uint32_t ply,
		    const char *move, enum xq_diag_code code, enum xq_severity sev,
		    const char *fmt, ...)
{
	struct xq_place pl = {off + CBZ_HEADER, 0, 0};
	char msg[XQ_DIAG_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (r->z->stored)
		xq_format_report(r->sink, r->name, game, &pl, 1, ply, move, move ? strlen(move) : 0,
			      code, sev, "%s", msg);
	else
		xq_format_report(r->sink, r->name, game, NULL, 0, ply, move, move ? strlen(move) : 0,
			      code, sev, "offset %llu of the inflated data: %s",
			      (unsigned long long)off, msg);
}

/* Whether `n` more bytes are there; sets c->short_at when not. */
static int cur_has(struct cbz_cur *c, size_t n)
{
	if (c->end - c->pos < n) {
		c->short_at = 1;
		return 0;
	}
	return 1;
}

/* The next u32 (0, with c->short_at set, past the end). */
static uint32_t cur_u32(struct cbz_cur *c)
{
	uint32_t v;

	if (!cur_has(c, 4))
		return 0;
	v = get_u32(c->p + c->pos);
	c->pos += 4;
	return v;
}

/*
 * GBK text to UTF-8 (appended to `out`), with "||" made a line break as
 * CCBridge shows it; a byte that is not GBK is reported at its offset and
 * the text stops before it.  `keep_bars` leaves "||" alone (names, dates).
 */
static int gbk_text(struct cbr_reader *r, uint64_t game, const unsigned char *p, size_t len,
		    uint64_t off, int keep_bars, struct xq_buf *out)
{
	size_t bad = 0, start = out->len, j;
	int rc = xq_transcoder_convert(&r->gbk, (const char *)p, len, out, &bad);

	if (rc == XQ_EENCODING) {
		zreport(r, game, off + bad, 0, NULL, XQ_D_ENCODING, XQ_SEV_ERROR,
			"bytes that are not GBK text; the text stops before them");
		rc = 0;
	}
	if (rc || keep_bars)
		return rc;
	j = start;
	for (size_t i = start; i < out->len; i++) {
		if (out->ptr[i] == '|' && i + 1 < out->len && out->ptr[i + 1] == '|') {
			out->ptr[j++] = '\n';
			i++;
		} else {
			out->ptr[j++] = out->ptr[i];
		}
	}
	xq_buf_truncate(out, j);
	return 0;
}

/*
 * A u32-length-prefixed GBK string into `out` (reset first).  Returns 0
 * (also when the data ends first: c->short_at is then set) or a negative
 * code.
 */
static int cur_string(struct cbr_reader *r, uint64_t game, struct cbz_cur *c, int keep_bars,
		      struct xq_buf *out)
{
	uint32_t n = cur_u32(c);
	size_t at = c->pos;

	xq_buf_reset(out);
	if (c->short_at || !cur_has(c, n))
		return 0;
	c->pos += n;
	return gbk_text(r, game, c->p + at, n, at, keep_bars, out);
}

/* A fixed 19-byte date, without the spaces and NULs that pad it. */
static int cur_date(struct cbr_reader *r, uint64_t game, struct cbz_cur *c, struct xq_buf *out)
{
	size_t n = CBZ_DATE, at = c->pos;

	xq_buf_reset(out);
	if (!cur_has(c, CBZ_DATE))
		return 0;
	c->pos += CBZ_DATE;
	while (n > 0 && (c->p[at + n - 1] == ' ' || c->p[at + n - 1] == '\0'))
		n--;
	return gbk_text(r, game, c->p + at, n, at, 1, out);
}

/* Inflate (or, for method 0, copy) the data part into r->z. */
static int cbz_load(struct cbr_reader *r, uint32_t method, uint32_t raw)
{
	struct cbz *z = r->z;
	uint64_t pos = CBZ_HEADER;
	size_t cap = 0;
	z_stream zs;
	int zrc = Z_OK, rc = 0;

	memset(&zs, 0, sizeof(zs));
	if (method && inflateInit(&zs) != Z_OK)
		return XQ_ENOMEM;
	/* Every round takes input, or inflates (or stops). */
	for (uint64_t was = pos + z->len;; XQ_ADVANCED(was, pos + z->len)) {
		const unsigned char *p = NULL;
		size_t n = 4096, used;
		while (n > 0 && !(p = window_get(r, pos, n)))
			n /= 2;
		if (r->w.error) {
			rc = r->w.error;
			break;
		}
		if (n == 0)
			break; /* the file ends */
		if (z->len + (method ? 65536 : n) > cap) {
			size_t want = z->len + (method ? 65536 : n);
			if (want > (size_t)raw + 1)
				want = (size_t)raw + 1; /* one more: enough to see the data is too long */
			if (XQ_ALLOC_GROW(z->data, want, cap)) {
				rc = XQ_ENOMEM;
				break;
			}
		}
		if (!method) {
			used = n < cap - z->len ? n : cap - z->len;
			memcpy(z->data + z->len, p, used);
			z->len += used;
		} else {
			zs.next_in = (unsigned char *)p;
			zs.avail_in = (uInt)n;
			zs.next_out = z->data + z->len;
			zs.avail_out = (uInt)(cap - z->len);
			zrc = inflate(&zs, Z_NO_FLUSH);
			z->len = cap - zs.avail_out;
			used = n - zs.avail_in;
		}
		pos += used;
		window_drop(&r->w, pos);
		if (z->len > raw || (method && zrc != Z_OK) || (method && used == 0 && z->len == cap))
			break;
	}
	if (method)
		inflateEnd(&zs);
	if (rc)
		return rc;
	if (z->len > raw) {
		report(r, 0, 16, 0, NULL, XQ_D_CORRUPT, XQ_SEV_ERROR,
		       "the data part %s more than the %u bytes the header gives; only those are read",
		       method ? "inflates to" : "holds", (unsigned)raw);
		z->len = raw;
	} else if (method && zrc != Z_STREAM_END && zrc != Z_OK) {
		report(r, 0, CBZ_HEADER + zs.total_in, 0, NULL, XQ_D_CORRUPT, XQ_SEV_ERROR,
		       "the zlib stream is damaged here (%s) after %llu of its %u inflated bytes; "
		       "what came before is read",
		       zs.msg ? zs.msg : "inflate error", (unsigned long long)z->len,
		       (unsigned)raw);
	} else if (method && zrc != Z_STREAM_END) {
		report(r, 0, pos, 0, NULL, XQ_D_TRUNCATED, XQ_SEV_ERROR,
		       "the zlib stream is cut short after %llu of its %u inflated bytes; what came "
		       "before is read",
		       (unsigned long long)z->len, (unsigned)raw);
	} else if (z->len < raw) {
		report(r, 0, 16, 0, NULL, XQ_D_CORRUPT, XQ_SEV_ERROR,
		       "the data part %s %llu bytes where the header gives %u; what there is is "
		       "read",
		       method ? "inflates to" : "holds", (unsigned long long)z->len, (unsigned)raw);
	}
	if (method && zrc == Z_STREAM_END && window_get(r, pos, 1))
		skip_to_end(r, 0, pos, "the end of the zlib stream");
	return r->w.error;
}

/* Open the container whose header `h` (20 bytes) starts the file: the library fields. */
static int cbz_open(struct cbr_reader *r, const unsigned char *h)
{
	static const int8_t slots[5] = {0, 1, -1, 2, 3}; /* field -> lib_tags (-1: reserved) */
	uint32_t method = get_u32(h + 12), raw = get_u32(h + 16);
	struct xq_buf text = XQ_BUF_INIT;
	struct cbz_cur c;
	int rc;

	if (method > 3) {
		report(r, 0, 12, 0, NULL, XQ_D_UNSUPPORTED, XQ_SEV_ERROR,
		       "compressed CCBridge library with compression method %u (0 to 3 are "
		       "known); no game read",
		       (unsigned)method);
		return XQ_EUNSUPPORTED;
	}
	if (raw > xq_format_record_limit(&xq_format_cbl, &r->opts)) {
		struct xq_diag d;
		char what[96];
		xq_diag_init(&d);
		snprintf(what, sizeof(what), "the data part of this compressed library (%u bytes, "
			 "its header says)", (unsigned)raw);
		xq_format_limit_diag(&d, &xq_format_cbl, &r->opts, what);
		report(r, 0, 16, 0, NULL, XQ_D_RESOURCE, XQ_SEV_ERROR, "%s", d.msg);
		return XQ_ERANGE;
	}
	r->z = calloc(1, sizeof(*r->z));
	if (!r->z)
		return XQ_ENOMEM;
	r->z->stored = method == 0;
	budget_start(r, TASK_DATA, 0, (uint64_t)CBZ_HEADER + raw + XQ_SKIP_MAX);
	rc = cbz_load(r, method, raw);
	if (rc)
		return rc;
	c = (struct cbz_cur){r->z->data, 0, r->z->len, 0};
	for (int i = 0; i < 5 && !rc; i++) {
		size_t at = c.pos;
		rc = cur_string(r, 0, &c, 1, &text);
		if (!rc && text.len && slots[i] >= 0 && !(r->lib_tags[slots[i]] = strdup(text.ptr)))
			rc = XQ_ENOMEM;
		if (!rc && text.len && slots[i] < 0) {
			if (!(r->z->other = strdup(text.ptr)))
				rc = XQ_ENOMEM;
			zreport(r, 0, at, 0, NULL, XQ_D_UNSUPPORTED, XQ_SEV_NOTE,
				"the library's reserved field holds text; kept as tag LibraryOther");
		}
	}
	for (int i = 4; i <= 5 && !rc; i++) {
		rc = cur_date(r, 0, &c, &text);
		if (!rc && text.len && !(r->lib_tags[i] = strdup(text.ptr)))
			rc = XQ_ENOMEM;
	}
	if (!rc)
		r->z->count = cur_u32(&c);
	if (!rc)
		rc = cur_string(r, 0, &c, 0, &text);
	if (!rc && text.len && !(r->lib_tags[6] = strdup(text.ptr)))
		rc = XQ_ENOMEM;
	xq_buf_release(&text);
	if (rc)
		return rc;
	if (c.short_at) {
		zreport(r, 0, r->z->len, 0, NULL, XQ_D_TRUNCATED, XQ_SEV_ERROR,
			"the data ends inside the library header; no game read");
		r->z->stop = 1;
	}
	r->z->pos = c.pos;
	return 0;
}

/* Piece types of the 32 bytes of the start position: 车马相仕帅仕相马车炮炮兵兵兵兵兵, red then black. */
static const int8_t cbz_piece[16] = {XQ_ROOK,    XQ_HORSE,  XQ_ELEPHANT, XQ_ADVISOR,
				     XQ_KING,    XQ_ADVISOR, XQ_ELEPHANT, XQ_HORSE,
				     XQ_ROOK,    XQ_CANNON, XQ_CANNON,   XQ_PAWN,
				     XQ_PAWN,    XQ_PAWN,   XQ_PAWN,     XQ_PAWN};

/* The start position: 0, 1 when unusable (reported), 2 when empty. */
static int cbz_board(struct cbr_reader *r, struct xq_game *g, const unsigned char *p, size_t at,
		     unsigned red_first, uint32_t first)
{
	struct xq_board b;
	struct xq_diag d;
	int pieces = 0;

	xq_board_clear(&b);
	for (int i = 0; i < 32; i++) {
		int x = (p[i] >> 4) - 1, y = (p[i] & 15) - 1;
		if (!p[i])
			continue;
		pieces++;
		xq_diag_init(&d);
		if (x < 0 || x > 8 || y < 0 || y > 9 ||
		    xq_board_put(&b, i / 16, cbz_piece[i % 16], XQ_SQ(x, 9 - y), &d)) {
			zreport(r, g->number, at + (size_t)i, 0, NULL, XQ_D_CORRUPT, XQ_SEV_ERROR,
				"piece %d of the start position has square byte 0x%02x, which it "
				"cannot be on%s%s; no move can be read",
				i + 1, p[i], d.msg[0] ? ": " : "", d.msg);
			return 1;
		}
	}
	if (pieces == 0)
		return 2;
	b.side = red_first ? XQ_RED : XQ_BLACK;
	b.fullmove = first ? (uint16_t)first : 1;
	b.key = xq_board_compute_key(&b);
	xq_diag_init(&d);
	if (xq_board_validate(&b, XQ_FEN_LENIENT_PLACEMENT, &d)) {
		zreport(r, g->number, at, 0, NULL, XQ_D_BAD_FEN, XQ_SEV_ERROR,
			"start position: %s; no move can be read", d.msg);
		return 1;
	}
	g->start = b;
	return 0;
}

/*
 * The Chinese text of a move's last two bytes (4 nibbles: piece or
 * 前/中/后, file or piece, 进/退/平, number), into `out` (UTF-8); 0 if
 * a nibble is out of range.
 */
static int cbz_move_text(unsigned char lo, unsigned char hi, int black, char out[16])
{
	static const char *const first[10] = {"车", "马", "相", "仕", "帅",
					      "炮", "兵", "前", "中", "后"};
	static const char *const first_b[7] = {"车", "马", "象", "士", "将", "炮", "卒"};
	static const char *const red_num[9] = {"一", "二", "三", "四", "五",
					       "六", "七", "八", "九"};
	static const char *const black_num[9] = {"１", "２", "３", "４", "５",
						 "６", "７", "８", "９"};
	static const char *const dirs[3] = {"进", "退", "平"};
	unsigned a = lo >> 4, b = lo & 15, c = hi >> 4, e = hi & 15;
	const char *const *num = black ? black_num : red_num;
	const char *s1, *s2;

	if (a > 9 || c > 2 || e > 8)
		return 0;
	s1 = a < 7 && black ? first_b[a] : first[a];
	s2 = b < 9 ? num[b] : black ? first_b[b - 9] : first[b - 9]; /* b - 9 <= 6 */
	snprintf(out, 16, "%s%s%s%s", s1, s2, dirs[c], num[e]);
	return 1;
}

/*
 * Whether the piece, file, direction and target of the request `q` are
 * those of the move `m` in `b` (the text "fits" the move even where it
 * leaves out the 前/后 that would single out one of two pieces on a file).
 */
static int cbz_text_fits(const struct xq_board *b, xq_move m, const struct xq_move_request *q)
{
	xq_sq from = XQ_MOVE_FROM(m), to = XQ_MOVE_TO(m);
	int type = XQ_KIND_TYPE(xq_board_kind(b, from)), black = b->side == XQ_BLACK;
	int fx = XQ_SQ_FILE(from), tx = XQ_SQ_FILE(to);
	int fwd = (XQ_SQ_RANK(to) - XQ_SQ_RANK(from)) * (black ? -1 : 1);
	char dir = fwd > 0 ? '+' : fwd < 0 ? '-' : '.';
	int diag = type == XQ_HORSE || type == XQ_ELEPHANT || type == XQ_ADVISOR;
	int target = dir == '.' || diag ? (black ? tx + 1 : 9 - tx) : (fwd < 0 ? -fwd : fwd);

	return q->position == XQ_TANDEM_NONE && q->piece == type &&
	       q->file == (black ? fx + 1 : 9 - fx) && q->direction == dir && q->target == target;
}

/*
 * Whether the text bytes `lo` `hi` name the legal move `m` of `b`: the
 * text resolves to `m`, or it is ambiguous (CCBridge leaves out 前/后
 * where two pieces on a file can make the same move) and fits `m`.
 * `text` gets the text ("" when the bytes are none), `d` the reason.
 */
static int cbz_text_names(struct xq_board *b, xq_move m, unsigned char lo, unsigned char hi,
			  char text[16], struct xq_diag *d)
{
	struct xq_move_request q;
	xq_move named = 0;
	int rc;

	xq_diag_init(d);
	text[0] = '\0';
	if (!cbz_move_text(lo, hi, b->side == XQ_BLACK, text))
		return 0;
	if (xq_notation_parse(&q, text, strlen(text), XQ_NOTATION_CHINESE, d))
		return 0;
	rc = xq_notation_resolve(&named, b, &q, d);
	if (rc == 0)
		return named == m;
	return rc == XQ_EAMBIGUOUS && cbz_text_fits(b, m, &q);
}

struct cbz_step {
	uint32_t node;            /* the node at this ply of the current line */
	xq_move move;             /* the move to it */
	struct xq_undo undo;
};

struct cbz_tree {
	struct cbz_step *line;    /* line[k]: ply k of the current line; line[0].node is the root */
	size_t cap;
	uint32_t depth;           /* plies on the current line */
	uint32_t stopped;         /* ply of the bad move of the current line, 0 if none */
	struct xq_board board;    /* the position at line[depth] */
};

/*
 * Take move entry `k` (index `idx`, bytes `e`) into the tree; *node gets
 * the node or XQ_NODE_NONE.  Returns 0 or a negative code (memory).
 */
static int cbz_add(struct cbr_reader *r, struct xq_game *g, struct cbz_tree *t,
		   const unsigned char *e, size_t at, uint32_t *skipped, int *text_notes,
		   uint32_t *node)
{
	unsigned idx = (unsigned)e[0] | (unsigned)e[1] << 8;
	int fx = e[2] >> 4, fy = e[2] & 15, tx = e[3] >> 4, ty = e[3] & 15;
	xq_move m;
	char iccs[8], text[16];
	struct xq_diag d;
	int rc;

	*node = XQ_NODE_NONE;
	if (t->stopped && (idx > t->stopped || idx == 0)) {
		(*skipped)++;
		return 0; /* the rest of a line that stopped */
	}
	t->stopped = 0;
	if (idx == 0 || idx > t->depth + 1) {
		zreport(r, g->number, at, t->depth + 1, NULL, XQ_D_CORRUPT, XQ_SEV_ERROR,
			"move index %u where the line has %u moves (1 to %u can come next); the "
			"line stops here",
			idx, (unsigned)t->depth, (unsigned)t->depth + 1);
		t->stopped = idx ? t->depth + 1 : 1;
		g->flags |= XQ_GAME_BROKEN;
		return 0;
	}
	while (t->depth >= idx) { /* an alternative: back to its parent */
		xq_board_unmake(&t->board, t->line[t->depth].move, &t->line[t->depth].undo);
		t->depth--;
	}
	if (fx > 8 || fy > 9 || tx > 8 || ty > 9) {
		zreport(r, g->number, at + 2, idx, NULL, XQ_D_CORRUPT, XQ_SEV_ERROR,
			"move bytes %02x %02x name no square; the line stops here", e[2], e[3]);
		t->stopped = idx;
		g->flags |= XQ_GAME_BROKEN;
		return 0;
	}
	m = XQ_MOVE(XQ_SQ(fx, 9 - fy), XQ_SQ(tx, 9 - ty));
	xq_move_name(m, iccs);
	xq_diag_init(&d);
	if (xq_move_check(&t->board, m, &d)) {
		zreport(r, g->number, at, idx, iccs, XQ_D_ILLEGAL_MOVE, XQ_SEV_ERROR,
			"illegal move %s: %s; the line stops here", iccs, d.msg);
		t->stopped = idx;
		g->flags |= XQ_GAME_BROKEN;
		return 0;
	}
	/* The text bytes must name the same move; the squares are what is read. */
	if (!cbz_text_names(&t->board, m, e[4], e[5], text, &d) && (*text_notes)++ == 0)
		zreport(r, g->number, at + 4, idx, iccs, XQ_D_CORRUPT, XQ_SEV_NOTE,
			"the move's text bytes %02x %02x (%s) do not name %s (%s); the squares are "
			"read",
			e[4], e[5], text[0] ? text : "not a text", iccs,
			d.msg[0] ? d.msg : "it names another move");
	if (XQ_ALLOC_GROW(t->line, (size_t)idx + 1, t->cap))
		return XQ_ENOMEM;
	rc = xq_game_add_move(g, t->line[idx - 1].node, m, node);
	if (rc)
		return rc;
	if (r->z->stored)
		g->nodes[*node].place.offset = at + CBZ_HEADER;
	t->depth = idx;
	t->line[idx].node = *node;
	t->line[idx].move = m;
	xq_board_make(&t->board, m, &t->line[idx].undo);
	return 0;
}

/* The record fields that are u32-prefixed strings, in file order, with their tags. */
static const char *const cbz_tags[] = {
	"Title", "From", "Other", "Site", "Date", "Red", "Black", /* after the start number */
	"Annotator", "CommentatorURL", "Author", "CreatorURL",    /* after the result */
};

/* The result field: 1 red wins, 2 black wins, 3 draw, 4 unknown. */
static int cbz_result(struct cbr_reader *r, struct xq_game *g, uint32_t v, size_t at)
{
	static const enum xq_result results[5] = {XQ_RESULT_NONE, XQ_RESULT_RED_WIN,
						  XQ_RESULT_BLACK_WIN, XQ_RESULT_DRAW,
						  XQ_RESULT_UNKNOWN};
	char num[16];
	int n;

	if (v >= 1 && v <= 4) {
		const char *s = xq_result_string(results[v]);
		g->result = results[v];
		return add_tag(g, "Result", s, strlen(s));
	}
	n = snprintf(num, sizeof(num), "%u", (unsigned)v);
	g->result = XQ_RESULT_UNKNOWN;
	g->result_text = xq_game_strdup(g, num, (size_t)n);
	zreport(r, g->number, at, 0, NULL, XQ_D_NO_RESULT, XQ_SEV_NOTE,
		"result code %u is not one this reader knows (1-4); the result is taken as unknown",
		(unsigned)v);
	return add_tag(g, "Result", num, (size_t)n);
}

/* The header fields of the record at c->pos (after its size); the board's bytes go to *board. */
static int cbz_fields(struct cbr_reader *r, struct xq_game *g, struct cbz_cur *c,
		      size_t *board, unsigned *red_first, uint32_t *first)
{
	struct xq_buf text = XQ_BUF_INIT;
	char num[16];
	uint32_t v;
	size_t at;
	int rc = 0, n;

	*board = c->pos;
	if (!cur_has(c, 32))
		return 0;
	c->pos += 32;
	v = cur_u32(c);
	if (!c->short_at) {
		n = snprintf(num, sizeof(num), "%u", (unsigned)v);
		rc = add_tag(g, "RecordType", num, (size_t)n);
	}
	if (!rc)
		rc = cur_string(r, g->number, c, 1, &text);
	if (!rc && text.len)
		rc = add_tag(g, "Event", text.ptr, text.len);
	at = c->pos;
	*first = cur_u32(c);
	if (!c->short_at && *first != 1)
		zreport(r, g->number, at, 0, NULL, XQ_D_UNSUPPORTED, XQ_SEV_NOTE,
			"first move number %u: the known files have 1 here; taken as the number of "
			"the first move",
			(unsigned)*first);
	for (size_t i = 0; i < sizeof(cbz_tags) / sizeof(cbz_tags[0]) && !rc; i++) {
		rc = cur_string(r, g->number, c, 1, &text);
		if (!rc && text.len)
			rc = add_tag(g, cbz_tags[i], text.ptr, text.len);
		if (!rc && i == 6) { /* after Black: the result */
			at = c->pos;
			v = cur_u32(c);
			if (!c->short_at)
				rc = cbz_result(r, g, v, at);
		}
	}
	if (!rc)
		rc = cur_string(r, g->number, c, 0, &text);
	if (!rc && text.len)
		rc = xq_game_set_comment(g, XQ_ROOT, text.ptr, text.len);
	at = c->pos;
	*red_first = 1;
	if (!rc && cur_has(c, 1)) {
		if (c->p[at] > 1)
			zreport(r, g->number, at, 0, NULL, XQ_D_CORRUPT, XQ_SEV_WARNING,
				"the side to move is %u, neither 1 (red) nor 0 (black); red assumed",
				c->p[at]);
		else
			*red_first = c->p[at];
		c->pos++;
	}
	for (int i = 0; i < 2 && !rc; i++) {
		rc = cur_date(r, g->number, c, &text);
		if (!rc && text.len)
			rc = add_tag(g, i ? "DateModified" : "DateCreated", text.ptr, text.len);
	}
	xq_buf_release(&text);
	return rc;
}

/* The moves and their comments, from c->pos to the end of the record. */
static int cbz_moves(struct cbr_reader *r, struct xq_game *g, struct cbz_cur *c, int playable)
{
	struct cbz_tree t;
	struct xq_buf text = XQ_BUF_INIT;
	uint32_t count, fit, skipped = 0, *nodes = NULL;
	size_t at = c->pos;
	int rc = 0, text_notes = 0;

	count = cur_u32(c);
	if (c->short_at)
		return 0;
	fit = (uint32_t)((c->end - c->pos) / 6 < count ? (c->end - c->pos) / 6 : count);
	if (fit < count) {
		zreport(r, g->number, at, 0, NULL, XQ_D_TRUNCATED, XQ_SEV_ERROR,
			"the record announces %u moves; it ends after %u of them (and has no room "
			"for their comments)",
			(unsigned)count, (unsigned)fit);
		g->flags |= XQ_GAME_BROKEN;
	}
	if (count == 0) {
		g->flags |= XQ_GAME_EMPTY;
		return 0;
	}
	memset(&t, 0, sizeof(t));
	t.board = g->start;
	nodes = malloc((size_t)fit * sizeof(*nodes) + 1);
	if (!nodes || XQ_ALLOC_GROW(t.line, 1, t.cap)) {
		free(nodes);
		free(t.line);
		return XQ_ENOMEM;
	}
	t.line[0].node = XQ_ROOT;
	for (uint32_t k = 0; k < fit && !rc; k++) {
		nodes[k] = XQ_NODE_NONE;
		if (playable)
			rc = cbz_add(r, g, &t, c->p + c->pos, c->pos, &skipped, &text_notes,
				     &nodes[k]);
		c->pos += 6;
	}
	if (!rc && text_notes > 1)
		zreport(r, g->number, at, 0, NULL, XQ_D_CORRUPT, XQ_SEV_NOTE,
			"%d moves in all have text bytes that do not name them", text_notes);
	if (fit < count)
		c->pos = c->end; /* the rest is the cut record's, not trailing bytes */
	if (!rc && skipped && playable)
		zreport(r, g->number, c->pos, 0, NULL, XQ_D_ILLEGAL_MOVE, XQ_SEV_NOTE,
			"%u moves after a bad move of their line were not read", (unsigned)skipped);
	/* One comment per move entry, each ended by CR LF ("||" is a line break). */
	for (uint32_t k = 0; k < fit && fit == count && !rc; k++) {
		const unsigned char *p = c->p + c->pos;
		size_t n = 0, room = c->end - c->pos;
		while (n + 1 < room && !(p[n] == '\r' && p[n + 1] == '\n'))
			n++;
		if (n + 1 >= room) {
			zreport(r, g->number, c->pos, 0, NULL, XQ_D_TRUNCATED, XQ_SEV_ERROR,
				"the record ends inside the comment of move entry %u of %u",
				(unsigned)k + 1, (unsigned)count);
			g->flags |= XQ_GAME_BROKEN;
			c->pos = c->end;
			break;
		}
		if (n && nodes[k] != XQ_NODE_NONE) {
			xq_buf_reset(&text);
			rc = gbk_text(r, g->number, p, n, c->pos, 0, &text);
			if (!rc && text.len)
				rc = xq_game_set_comment(g, nodes[k], text.ptr, text.len);
		}
		c->pos += n + 2;
	}
	xq_buf_release(&text);
	free(nodes);
	free(t.line);
	return rc;
}

/* Read the next record of the container into `g`: 1, 0 at the end, or a negative code. */
static int cbz_read(struct cbr_reader *r, struct xq_game *g)
{
	struct cbz *z = r->z;
	struct cbz_cur c;
	size_t start = z->pos, board = 0;
	uint32_t size, first = 1;
	unsigned red_first = 1;
	int rc, kind;

	if (z->stop || z->read == z->count) {
		if (!z->stop && z->pos < z->len)
			zreport(r, 0, z->pos, 0, NULL, XQ_D_TRAILING, XQ_SEV_WARNING,
				"%llu bytes after the last of the %u records are not read",
				(unsigned long long)(z->len - z->pos), (unsigned)z->count);
		z->stop = 1;
		return 0;
	}
	if (z->len - z->pos < 4) {
		zreport(r, 0, z->pos, 0, NULL, XQ_D_TRUNCATED, XQ_SEV_ERROR,
			"the library header announces %u records; the data ends after %u",
			(unsigned)z->count, (unsigned)z->read);
		z->stop = 1;
		return 0;
	}
	start_game(r, g);
	g->encoding = xq_encoding_name(XQ_ENC_GB18030);
	g->place.offset = z->stored ? start + CBZ_HEADER : CBZ_HEADER;
	z->read++;
	size = get_u32(z->data + start);
	c = (struct cbz_cur){z->data, start + 4, start + size, 0};
	if (size < 4 || size > z->len - start) {
		zreport(r, g->number, start, 0, NULL, XQ_D_TRUNCATED, XQ_SEV_ERROR,
			"record %u of %u gives its size as %u bytes; %llu are left; the records after "
			"it cannot be found",
			(unsigned)z->read, (unsigned)z->count, (unsigned)size,
			(unsigned long long)(z->len - start));
		g->flags |= XQ_GAME_BROKEN;
		z->stop = 1;
		c.end = z->len;
		if (size < 4)
			c.end = c.pos; /* nothing to read */
	}
	rc = cbz_fields(r, g, &c, &board, &red_first, &first);
	if (rc)
		return rc;
	if (c.short_at) {
		zreport(r, g->number, c.pos, 0, NULL, XQ_D_TRUNCATED, XQ_SEV_ERROR,
			"the record ends inside its header; no move read");
		g->flags |= XQ_GAME_BROKEN | XQ_GAME_EMPTY;
		z->pos = c.end;
	} else {
		kind = cbz_board(r, g, z->data + board, board, red_first, first);
		if (kind == 1)
			g->flags |= XQ_GAME_BROKEN;
		rc = cbz_moves(r, g, &c, kind == 0);
		if (rc)
			return rc;
		if (kind == 2 && !(g->flags & XQ_GAME_EMPTY)) {
			zreport(r, g->number, board, 0, NULL, XQ_D_BAD_FEN, XQ_SEV_ERROR,
				"the start position is empty, yet the record has moves; they are not "
				"read");
			g->flags |= XQ_GAME_BROKEN;
		} else if (kind == 2) {
			zreport(r, g->number, board, 0, NULL, XQ_D_EMPTY_GAME, XQ_SEV_NOTE,
				"a record with an empty start position and no moves (a heading); "
				"read as a game with no moves from the standard position");
		}
		if (c.short_at && !(g->flags & XQ_GAME_BROKEN)) {
			zreport(r, g->number, c.pos, 0, NULL, XQ_D_TRUNCATED, XQ_SEV_ERROR,
				"the record ends inside its move count");
			g->flags |= XQ_GAME_BROKEN | XQ_GAME_EMPTY;
		} else if (c.pos < c.end) {
			zreport(r, g->number, c.pos, 0, NULL, XQ_D_TRAILING, XQ_SEV_WARNING,
				"%llu bytes after the comments of the moves are not read",
				(unsigned long long)(c.end - c.pos));
		}
		z->pos = c.end;
	}
	rc = library_tags(r, g);
	if (!rc && z->other)
		rc = add_tag(g, "LibraryOther", z->other, strlen(z->other));
	return rc ? rc : 1;
}

/* The library header and index; 0, or a negative code when nothing can be read. */
static int read_library_header(struct cbr_reader *r)
{
	const unsigned char *h = window_get(r, 0, 20);
	struct xq_buf text = XQ_BUF_INIT;
	uint32_t version;
	uint64_t records;
	int rc = 0;

	if (h && !memcmp(h, "CCBridge", 8) && get_u32(h + 8) == 21)
		return cbz_open(r, h);
	h = window_get(r, 0, 64);
	if (!h || memcmp(h, CBL_MAGIC, 16)) {
		report(r, 0, 0, 0, NULL, XQ_D_BAD_MAGIC, XQ_SEV_ERROR,
		       "not a CCBridge library (no \"CCBridgeLibrary\" magic)");
		return r->w.error ? r->w.error : XQ_EPARSE;
	}
	version = get_u32(h + 16);
	r->slots = get_u32(h + 60);
	if (version != 3)
		report(r, 0, 16, 0, NULL, XQ_D_UNSUPPORTED, XQ_SEV_WARNING,
		       "library version %u (the known files have 3); records are read by their "
		       "magic",
		       (unsigned)version);
	h = window_get(r, 0, CBL_INDEX_AT);
	if (!h) {
		report(r, 0, 0, 0, NULL, XQ_D_TRUNCATED, XQ_SEV_ERROR,
		       "the library ends inside its %d-byte header", CBL_INDEX_AT);
		return r->w.error ? r->w.error : XQ_ETRUNCATED;
	}
	for (size_t i = 0; i < sizeof(lib_fields) / sizeof(lib_fields[0]) && !rc; i++) {
		rc = utf16_field(r, 0, h + lib_fields[i].off, lib_fields[i].size, lib_fields[i].off,
				 &text);
		if (!rc && text.len && !(r->lib_tags[i] = strdup(text.ptr)))
			rc = XQ_ENOMEM;
	}
	xq_buf_release(&text);
	if (rc)
		return rc;
	/* The index: believed only if the records start right after it. */
	records = CBL_INDEX_AT + (uint64_t)r->slots * CBL_SLOT;
	r->pos = CBL_INDEX_AT;
	if (r->slots > 0 && r->slots <= CBL_MAX_SLOTS && (h = window_get(r, records, 16)) &&
	    !memcmp(h, CBR_MAGIC, 16)) {
		r->index = calloc(r->slots, sizeof(*r->index));
		if (!r->index)
			return XQ_ENOMEM;
		for (uint32_t i = 0; i < r->slots; i++) {
			const unsigned char *s = window_get(r, CBL_INDEX_AT + (uint64_t)i * CBL_SLOT,
							    CBL_SLOT);
			struct slot *e = &r->index[r->nindex];
			if (!get_u32(s))
				continue;
			e->flags = get_u32(s);
			e->size = get_u32(s + 12);
			rc = utf16_field(r, 0, s + 100, CBL_SLOT - 100,
					 CBL_INDEX_AT + (uint64_t)i * CBL_SLOT + 100, &text);
			if (!rc && !(e->title = strdup(text.ptr)))
				rc = XQ_ENOMEM;
			if (rc)
				break;
			r->nindex++;
		}
		xq_buf_release(&text);
		r->index_ok = 1;
		r->pos = records;
	} else {
		report(r, 0, 60, 0, NULL, XQ_D_UNSUPPORTED, XQ_SEV_NOTE,
		       "the index area (%u slots) does not lead to the records as in the known "
		       "files; records are found by their magic instead",
		       (unsigned)r->slots);
	}
	window_drop(&r->w, r->pos);
	return rc;
}

static int cbl_open_reader(void **out, struct xq_input *in, const struct xq_read_opts *opts,
			   const struct xq_sink *sink)
{
	return open_common(out, in, opts, sink, 1);
}

/*
 * Offset of the next record magic at or after `from`, or UINT64_MAX at the
 * end; bytes before `keep` stay in the window.  The search stops at
 * `stop` (returned when no magic starts before it), so that the window
 * never holds more than a record's limit.
 */
static uint64_t find_magic(struct cbr_reader *r, uint64_t from, uint64_t keep, uint64_t stop)
{
	for (uint64_t was = from;; XQ_ADVANCED(was, from)) {
		const unsigned char *p = window_get(r, from, 16);
		size_t avail;
		if (from >= stop)
			return stop;
		if (!p)
			return UINT64_MAX;
		avail = (size_t)(r->w.base + r->w.len - from);
		for (size_t i = 0; i + 16 <= avail; i++)
			if (p[i] == 'C' && !memcmp(p + i, CBR_MAGIC, 16))
				return from + i < stop ? from + i : stop;
		from += avail - 15;
		window_drop(&r->w, from < keep ? from : keep);
		if (window_fill(r) <= 0 && !window_get(r, from, 16))
			return UINT64_MAX;
	}
}

/* Compare the record just read with its index slot. */
static void check_index(struct cbr_reader *r, const struct xq_game *g, uint64_t base, uint64_t end)
{
	const struct slot *e;
	const char *title = xq_game_tag(g, "Title");

	if (!r->index_ok)
		return;
	if (r->next_index >= r->nindex) {
		report(r, g->number, base, 0, NULL, XQ_D_CORRUPT, XQ_SEV_NOTE,
		       "record %llu has no slot in the library index (%zu in use); read anyway",
		       (unsigned long long)g->number, r->nindex);
		return;
	}
	e = &r->index[r->next_index++];
	if (e->size != end - base)
		report(r, g->number, base, 0, NULL, XQ_D_CORRUPT, XQ_SEV_NOTE,
		       "the library index gives record %llu %u bytes; its move tree ends after %llu",
		       (unsigned long long)g->number, (unsigned)e->size,
		       (unsigned long long)(end - base));
	if (strcmp(e->title, title ? title : ""))
		report(r, g->number, base, 0, NULL, XQ_D_CORRUPT, XQ_SEV_NOTE,
		       "the library index titles record %llu '%s', the record says '%s'",
		       (unsigned long long)g->number, e->title, title ? title : "");
	if (e->flags != 7)
		report(r, g->number, base, 0, NULL, XQ_D_UNSUPPORTED, XQ_SEV_NOTE,
		       "the index slot of record %llu has flags %u where the others have 7; what "
		       "that means is not known, and the record is read like the rest",
		       (unsigned long long)g->number, (unsigned)e->flags);
}

/* Report bytes between a record's end and `limit` that are not zero padding. */
static void check_gap(struct cbr_reader *r, const struct xq_game *g, uint64_t end, uint64_t limit)
{
	uint64_t nonzero = 0;

	if (limit == UINT64_MAX || end >= limit)
		return;
	for (uint64_t o = end; o < limit; o++) {
		const unsigned char *p = window_get(r, o, 1);
		if (!p)
			break;
		nonzero += *p != 0;
	}
	if (nonzero)
		report(r, g->number, end, 0, NULL, XQ_D_TRAILING, XQ_SEV_NOTE,
		       "%llu bytes between the end of record %llu and the next record are not "
		       "read (%llu of them not zero)",
		       (unsigned long long)(limit - end), (unsigned long long)g->number,
		       (unsigned long long)nonzero);
}

static int cbl_next(struct cbr_reader *r, struct xq_game *g)
{
	uint64_t base, end, limit;
	size_t slot;
	int rc;

	if (r->done)
		return 0;
	if (r->z)
		return cbz_read(r, g);
	if (r->games == 0 && r->pos == 0) {
		rc = read_library_header(r);
		if (rc) {
			r->done = 1;
			return rc;
		}
		if (r->z)
			return cbz_read(r, g);
	}
	budget_start(r, TASK_SEARCH, r->pos, XQ_SKIP_MAX);
	base = find_magic(r, r->pos, UINT64_MAX, UINT64_MAX);
	if (base == UINT64_MAX) {
		r->done = 1;
		if (r->w.error)
			return r->w.error;
		if (r->index_ok && r->next_index < r->nindex)
			report(r, 0, r->w.base + r->w.len, 0, NULL, XQ_D_TRUNCATED, XQ_SEV_WARNING,
			       "the library index lists %zu records; %llu were found",
			       r->nindex, (unsigned long long)r->games);
		if (r->games == 0)
			report(r, 0, 0, 0, NULL, XQ_D_EMPTY_GAME, XQ_SEV_WARNING,
			       "the library holds no record");
		return 0;
	}
	start_game(r, g);
	/* A record runs at most to the next magic (vschess splits there). */
	budget_start(r, TASK_RECORD, base, r->record_limit + 16);
	limit = find_magic(r, base + 16, base,
			   base + r->record_limit < base ? UINT64_MAX : base + r->record_limit);
	if (r->w.error)
		return r->w.error;
	rc = read_record(r, g, base, limit, &end);
	if (rc < 0)
		return rc;
	slot = r->next_index;
	check_index(r, g, base, end);
	/* Bytes after the tree are slot padding when the index vouches for the size. */
	if (!(r->index_ok && slot < r->nindex && r->index[slot].size == end - base))
		check_gap(r, g, end, limit);
	rc = library_tags(r, g);
	if (rc)
		return rc;
	r->pos = end > base ? end : base + 16;
	window_drop(&r->w, r->pos);
	return 1;
}

static int cbl_read(void *reader, struct xq_game *g)
{
	struct cbr_reader *r = reader;
	int rc = cbl_next(r, g);

	return xq_read_guard(&r->guard, rc, r->z ? r->z->pos : r->pos, g, r->sink);
}

static int cbr_probe(const unsigned char *head, size_t len)
{
	return len >= 16 && !memcmp(head, CBR_MAGIC, 16) ? 100 : 0;
}

static int cbl_probe(const unsigned char *head, size_t len)
{
	if (len >= 16 && !memcmp(head, CBL_MAGIC, 16))
		return 100;
	if (len >= 12 && !memcmp(head, "CCBridge", 8) && get_u32(head + 8) == 21)
		return 100;
	return 0;
}

const struct xq_format xq_format_cbr = {
	"cbr",
	"CCBridge (象棋桥) binary record, one game with variations and comments (read only)",
	".cbr",
	XQ_CAP_READ | XQ_CAP_VARIATIONS | XQ_CAP_COMMENTS | XQ_CAP_BINARY,
	cbr_probe,
	cbr_open_reader,
	cbr_read,
	cbr_close_reader,
	NULL,
	NULL,
	NULL,
	CBR_MAX_RECORD,
	CBR_MEM_FACTOR,
	NULL, /* no alias */
};

const struct xq_format xq_format_cbl = {
	"cbl",
	"CCBridge (象棋桥) library of binary records (read only)",
	".cbl",
	XQ_CAP_READ | XQ_CAP_MULTI | XQ_CAP_VARIATIONS | XQ_CAP_COMMENTS | XQ_CAP_BINARY,
	cbl_probe,
	cbl_open_reader,
	cbl_read,
	cbr_close_reader,
	NULL,
	NULL,
	NULL,
	CBL_MAX_RECORD,
	CBL_MEM_FACTOR,
	NULL, /* no alias */
};
