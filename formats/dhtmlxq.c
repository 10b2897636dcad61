/*
 * dhtmlxq.c: DhtmlXQ, the UBB record format of dpxq.com (东萍象棋网), also
 * written by CCBridge and vschess: reader and writer.
 *
 * A record is a flat list of elements [DhtmlXQ_name]value[/DhtmlXQ_name],
 * usually wrapped in [DhtmlXQ]...[/DhtmlXQ] (or [DhtmlXQiFrame]), with or
 * without newlines, pasted into forum posts or hidden in HTML pages.  A
 * file may hold many records and any text around them; the reader finds
 * each record by its tags and reads it as one game.  Elements outside any
 * wrapper form a record too, which ends at text that is not an element, at
 * a wrapper, or where a second movelist or binit begins.  Once the text
 * around the records shows HTML markup (the records are in a page), values
 * have their character references decoded (&amp;, &#27704;, ...; <br> is
 * a newline); a plain UBB file keeps "&amp;" as written.  Records that are
 * URL-encoded (%5BDhtmlXQ...) are decoded first.  Whatever cannot be
 * interpreted is reported, not dropped in silence.  Text is UTF-8 or GBK (detected, or
 * given by the caller), decoded strictly.
 *
 * Squares are digit pairs "xy": x the file 0-8 from red's left, y the row
 * 0-9 from the top, so the move "7747" is h2e2 (ICCS rank = 9 - y).
 *
 *   binit     32 squares, pieces R N B A K A B N R C C P P P P P (red) then
 *             the same for black; "99" is a piece not on the board.  Only a
 *             slot's piece type matters (writers order tandem pieces
 *             differently).  [DhtmlXQ_fen] (vschess) takes precedence.
 *   movelist  the main line, four digits a move.
 *   move_P_S_B  the moves of branch B, whose first move is an alternative
 *             to ply S (counted from the start of the game) of branch P
 *             (0 = the main line).
 *   commentS / commentB_S  the comment after ply S of the main line or of
 *             branch B; comment0 is the game comment.  "||" is a newline;
 *             \uhhhh is a character (vschess).
 *   result    红胜 黑胜 和棋 未知 ... or W L D (red's result), see dh_results.
 *
 * The side to move is not stored: like vschess, the reader takes the
 * colour of the piece the first move lifts (red when there is no move),
 * and says so in a note when an explicit FEN disagrees.
 *
 * Tags (element -> game tag): title Title, event Event, date Date, place
 * Site, round Round, red Red, black Black, redteam RedTeam, blackteam
 * BlackTeam, redtime RedTime, blacktime BlackTime, result Result (and the
 * game's result), open Opening, variation Variation, ecco ECCO, remark
 * Annotator (dpxq's commentator), author Author, type GameType, timerule
 * TimeControl.  Any other lower-case element keeps its name with the first
 * letter (and the letter after a red/black prefix) upper-cased: table
 * Table, redrating RedRating, owner Owner, generator Generator, ...; an
 * element name with capitals is the tag name as it is.  The writer maps
 * back the same way: lower case when that reads back as the same tag,
 * else the tag's own spelling ([DhtmlXQ_DateModified]), so any tag whose
 * name is letters, digits and '_' has a slot; others are reported as
 * lost.  Empty elements make no tag.
 *
 * An illegal or unreadable move stops its line (the branches hanging
 * below it cannot be placed either and are reported); the game is kept
 * with XQ_GAME_BROKEN and the reader goes on with the next record.
 */
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
 * the limit ends the reading of its input.
 */
#define DH_MAX_RECORD ((uint64_t)8 << 20)
#define DH_MEM_FACTOR 30
#define MAX_RECORD (r->max_record)

extern const struct xq_format xq_format_dhtmlxq;
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
};

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
	struct xq_input *in;
	const struct xq_sink *sink;
	const char *name;
	struct xq_read_opts opts;
	size_t max_record;       /* the limit of a record's text, from the format's and the budget */
	enum xq_encoding enc;
	int enc_known;
	int enc_given;           /* by the caller: every line is read in it */
	struct xq_textdec td;    /* the decoder (decode.h), once enc is known */
	int td_live;
	uint64_t dropped;        /* bytes that were not text, taken out of the text */
	uint64_t exact_end;      /* text offsets before this are source offsets (UTF-8) */
	size_t bom;              /* bytes of a BOM before the text */
	struct dh_mark {
		uint64_t at;          /* absolute text offset */
		struct xq_place place; /* line, column and source offset */
		enum xq_encoding enc;
		enum xq_textdec_kind kind;
		unsigned char byte;
		uint64_t count;       /* bytes that were not text, in a row (the same `at`) */
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
	uint64_t *bad;           /* absolute decoded offsets where bytes were not text */
	size_t bad_head, nbad, bad_cap; /* those before bad_head are behind every record */
	uint64_t outside;        /* bytes that were not text, outside every record */
	struct dh_mark first_outside;
	uint64_t games;
	struct xq_read_guard guard;
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
	struct xq_board *ckpt;   /* see CKPT_EVERY */
	size_t nckpt, ckpt_cap;
	size_t main_ckpt;        /* the main line's first position in ckpt[], or NO_CKPT */
	struct xq_buf tmp, tmp2;
};

/* Result words of DhtmlXQ_result. */
static const struct {
	const char *word;
	enum xq_result r;
} dh_results[] = {
	{"红胜", XQ_RESULT_RED_WIN},    {"红先胜", XQ_RESULT_RED_WIN},  {"红方胜", XQ_RESULT_RED_WIN},
	{"黑负", XQ_RESULT_RED_WIN},    {"黑先负", XQ_RESULT_RED_WIN},  {"紅勝", XQ_RESULT_RED_WIN},
	{"紅先勝", XQ_RESULT_RED_WIN},  {"黑負", XQ_RESULT_RED_WIN},    {"W", XQ_RESULT_RED_WIN},
	{"1-0", XQ_RESULT_RED_WIN},     {"黑胜", XQ_RESULT_BLACK_WIN},  {"黑先胜", XQ_RESULT_BLACK_WIN},
	{"黑方胜", XQ_RESULT_BLACK_WIN}, {"红负", XQ_RESULT_BLACK_WIN}, {"红先负", XQ_RESULT_BLACK_WIN},
	{"黑勝", XQ_RESULT_BLACK_WIN},  {"紅負", XQ_RESULT_BLACK_WIN},  {"紅先負", XQ_RESULT_BLACK_WIN},
	{"L", XQ_RESULT_BLACK_WIN},     {"0-1", XQ_RESULT_BLACK_WIN},   {"和棋", XQ_RESULT_DRAW},
	{"和", XQ_RESULT_DRAW},         {"和局", XQ_RESULT_DRAW},       {"红和", XQ_RESULT_DRAW},
	{"红先和", XQ_RESULT_DRAW},     {"黑先和", XQ_RESULT_DRAW},     {"紅和", XQ_RESULT_DRAW},
	{"紅先和", XQ_RESULT_DRAW},     {"D", XQ_RESULT_DRAW},          {"1/2-1/2", XQ_RESULT_DRAW},
	{"未知", XQ_RESULT_UNKNOWN},    {"*", XQ_RESULT_UNKNOWN},
};

/* Elements whose tag is not their capitalised name. */
static const struct {
	const char *element, *tag;
} dh_tags[] = {
	{"place", "Site"},      {"open", "Opening"},         {"ecco", "ECCO"},
	{"remark", "Annotator"}, {"type", "GameType"},       {"timerule", "TimeControl"},
};

static int result_word(const char *s, size_t len, enum xq_result *out)
{
	for (size_t i = 0; i < sizeof(dh_results) / sizeof(dh_results[0]); i++)
		if (strlen(dh_results[i].word) == len && !memcmp(dh_results[i].word, s, len)) {
			*out = dh_results[i].r;
			return 0;
		}
	return -1;
}

static int name_is(const char *name, size_t len, const char *lit)
{
	return strlen(lit) == len && !memcmp(name, lit, len);
}

/* Search `pat` in s[from, len); len if absent. */
static size_t find(const char *s, size_t len, size_t from, const char *pat)
{
	size_t n = strlen(pat);

	while (from + n <= len) {
		const char *p = memchr(s + from, pat[0], len - from - n + 1);
		if (!p)
			break;
		if (!memcmp(p, pat, n))
			return (size_t)(p - s);
		from = (size_t)(p - s) + 1;
	}
	return len;
}

static void pos_advance(struct dh_pos *p, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\n') {
			p->line++;
			p->col = 1;
		} else if ((c & 0xC0) != 0x80) {
			p->col++;
		}
	}
	p->off += n;
}

/* Diagnostics. */

static void report_at(struct dh_reader *r, uint64_t game, const struct dh_pos *p, uint32_t ply,
		      const char *move, size_t mlen, enum xq_diag_code code, enum xq_severity sev,
		      const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 9, 10)))
#endif
	;

static void report_at(struct dh_reader *r, uint64_t game, const struct dh_pos *p, uint32_t ply,
		      const char *move, size_t mlen, enum xq_diag_code code, enum xq_severity sev,
		      const char *fmt, ...)
{
	struct xq_place pl = {0, 0, 0};
	va_list ap;

	if (r->quiet)
		return;
	if (p) {
		pl.line = p->line;
		pl.col = p->col;
		pl.offset = p->off;
	}
	va_start(ap, fmt);
	/* Offsets only while the text is the source's bytes (UTF-8, before
	 * a line converted from another encoding or a byte taken out). */
	xq_format_vreport(r->sink, r->name, game, p ? &pl : NULL,
		       p && r->offsets && p->off - r->bom < r->exact_end, ply, move, mlen,
		       code, sev, fmt, ap);
	va_end(ap);
}

/* The place of `val + k` inside element value `e` (the record's start when
 * places inside it are not exact). */
static struct dh_pos place_in(const struct dh_reader *r, const struct dh_elem *e, size_t k)
{
	struct dh_pos p = r->exact ? e->at : r->rec_at;

	if (r->exact)
		pos_advance(&p, e->val, k);
	return p;
}

/* Up to EXCERPT characters of s, for messages. */
static int excerpt_len(const char *s, size_t len)
{
	size_t i = 0, chars = 0;

	while (i < len && chars < EXCERPT) {
		size_t n = xq_utf8_valid_prefix(s + i, len - i);
		i += n ? n : 1;
		chars++;
	}
	return (int)i;
}

/* The input stream. */

static int note_bad(struct dh_reader *r, uint64_t where)
{
	/* A run of them all stands at one place of the text: noted once. */
	if (r->nbad > r->bad_head && r->bad[r->nbad - 1] == where)
		return 0;
	if (XQ_ALLOC_GROW(r->bad, r->nbad + 1, r->bad_cap))
		return XQ_ENOMEM;
	r->bad[r->nbad++] = where;
	return 0;
}

/* Keep an event of the decoder at text offset `at` (absolute, after the
 * bytes taken out) for the record holding it. */
static int keep_mark(struct dh_reader *r, const struct xq_textdec_event *e, uint64_t at,
		     size_t from_pos)
{
	struct dh_mark *m;
	struct dh_pos p = r->at;
	size_t from = r->pos;

	if (e->kind != XQ_TEXTDEC_BAD && r->nforeign > r->foreign_first &&
	    r->foreign[r->nforeign - 1].kind == e->kind &&
	    r->foreign[r->nforeign - 1].enc == e->enc)
		return 0; /* only the first of a run is reported */
	if (e->kind == XQ_TEXTDEC_BAD && r->nforeign > r->foreign_first &&
	    r->foreign[r->nforeign - 1].kind == XQ_TEXTDEC_BAD &&
	    r->foreign[r->nforeign - 1].at == at) {
		r->foreign[r->nforeign - 1].count++; /* bytes in a row (/dev/zero): one mark */
		return 0;
	}
	if (r->foreign_first == r->nforeign)
		r->foreign_first = r->nforeign = 0;
	if (XQ_ALLOC_GROW(r->foreign, r->nforeign + 1, r->foreign_cap))
		return XQ_ENOMEM;
	m = r->foreign + r->nforeign++;
	/* The place counts on from the last mark's (from the scanning position
	 * for each mark, it was quadratic in the bytes that are not text). */
	if (r->mark_abs != UINT64_MAX && r->mark_abs >= r->text_base + r->pos &&
	    r->mark_abs <= r->text_base + from_pos) {
		p = r->mark_at;
		from = (size_t)(r->mark_abs - r->text_base);
	}
	pos_advance(&p, r->text.ptr + from, from_pos - from);
	r->mark_abs = r->text_base + from_pos;
	r->mark_at = p;
	m->at = at;
	m->place.line = p.line;
	m->place.col = p.col;
	m->place.offset = e->raw;
	m->enc = e->enc;
	m->kind = e->kind;
	m->byte = e->byte;
	m->count = 1;
	return 0;
}

/*
 * The decoder's events for the text appended from index `from` on: a byte
 * that is not text (or a NUL) is taken out of the text (its record is
 * marked broken); it and each line read in another encoding are kept, with
 * their places, to be reported with the record holding them.
 */
static int take_events(struct dh_reader *r, size_t from)
{
	struct xq_textdec *d = &r->td;
	size_t j = from, i = from;
	uint64_t dropped = r->dropped; /* before this text: its bytes are where the decoder put them */

	while (d->ev_first < d->nevents) {
		const struct xq_textdec_event *e = &d->events[d->ev_first++];
		size_t at = (size_t)(e->dpos - dropped - r->text_base);
		/* Keep the text up to the event (where it will be once the bytes
		 * before it are out). */
		memmove(r->text.ptr + j, r->text.ptr + i, at - i);
		j += at - i;
		i = at;
		if (keep_mark(r, e, r->text_base + j, j))
			return XQ_ENOMEM;
		if (e->kind != XQ_TEXTDEC_AMBIGUOUS && r->exact_end > r->text_base + j)
			r->exact_end = r->text_base + j;
		if (e->kind != XQ_TEXTDEC_BAD)
			continue;
		/* Leave the byte out. */
		i++;
		if (note_bad(r, r->text_base + j))
			return XQ_ENOMEM;
		r->dropped++;
	}
	if (i > j) {
		memmove(r->text.ptr + j, r->text.ptr + i, r->text.len - i);
		xq_buf_truncate(&r->text, r->text.len - (i - j));
	}
	return 0;
}

/* Decode what `raw` holds into text (whole lines, all of it at the end). */
static int decode_raw(struct dh_reader *r)
{
	size_t from = r->text.len;
	long used;

	if (!r->td_live) {
		unsigned flags = XQ_TEXTDEC_COPY | XQ_TEXTDEC_BAD_EVENTS;
		if (!r->enc_given)
			flags |= XQ_TEXTDEC_MIXED;
		if (xq_textdec_init(&r->td, r->enc, flags, r->text_base + r->text.len, r->raw_off)) {
			report_at(r, 0, NULL, 0, NULL, 0, XQ_D_ENCODING, XQ_SEV_ERROR,
				  "this system cannot convert %s", xq_encoding_name(r->enc));
			return XQ_EUNSUPPORTED;
		}
		r->td_live = 1;
	}
	used = xq_textdec_feed(&r->td, r->raw.ptr, r->raw.len, r->input_done, &r->text);
	if (used < 0)
		return (int)used;
	if (take_events(r, from))
		return XQ_ENOMEM;
	memmove(r->raw.ptr, r->raw.ptr + used, r->raw.len - (size_t)used);
	xq_buf_truncate(&r->raw, r->raw.len - (size_t)used);
	r->raw_off += (uint64_t)used;
	return 0;
}


/* Bytes read from the input so far. */
static uint64_t bytes_read(const struct dh_reader *r)
{
	return r->raw_off + r->raw.len;
}

/*
 * Start a task: finding the next record (`record` 0), which may read
 * XQ_SKIP_MAX more bytes, or reading the record that starts at the
 * scanning position, which may read the format's record limit.
 */
static void budget_start(struct dh_reader *r, int record)
{
	r->budget_from = bytes_read(r);
	r->budget = record ? (uint64_t)r->max_record : XQ_SKIP_MAX;
	r->in_record = record;
	r->budget_at = r->at;
}

static int over_limit(struct dh_reader *r);

/* The task read more than its budget: the rest of the input is not read. */
static int over_budget(struct dh_reader *r)
{
	if (r->in_record)
		return r->error = over_limit(r);
	report_at(r, 0, &r->budget_at, 0, NULL, 0, XQ_D_RESOURCE, XQ_SEV_ERROR,
		  "more than %llu MiB of input from here hold no DhtmlXQ record; the rest "
		  "of the input is not read",
		  (unsigned long long)(XQ_SKIP_MAX >> 20));
	return r->error = XQ_ERANGE;
}

/*
 * Read and decode more of the input: 1 when bytes were taken (the text
 * may not have grown: bytes that are not text are dropped, and only whole
 * lines are decoded), 0 at the end (r->eof), or a negative code.  A task
 * that reads past its budget gets XQ_ERANGE (reported).
 */
static int fill(struct dh_reader *r)
{
	if (r->eof)
		return 0;
	if (bytes_read(r) - r->budget_from > r->budget)
		return over_budget(r);
	/* Every round reads bytes, or meets the end of the input. */
	for (uint64_t was = bytes_read(r) + (uint64_t)r->input_done;;
	     XQ_ADVANCED(was, bytes_read(r) + (uint64_t)r->input_done)) {
		int rc;
		if (!r->input_done) {
			struct xq_diag d;
			long got;
			if (xq_buf_grow(&r->raw, CHUNK))
				return XQ_ENOMEM;
			xq_diag_init(&d);
			got = xq_input_read(r->in, r->raw.ptr + r->raw.len, CHUNK, &d);
			if (got < 0) {
				d.source = r->name;
				xq_sink_report(r->sink, &d);
				return r->error = (int)got;
			}
			if (got == 0)
				r->input_done = 1;
			r->raw.len += (size_t)got;
			r->raw.ptr[r->raw.len] = '\0';
			if (!r->enc_known && (r->raw.len >= CHUNK || r->input_done)) {
				size_t bom = 0;
				r->enc = xq_encoding_detect(r->raw.ptr, r->raw.len, &bom);
				if (!bom)
					r->enc = xq_textdec_detect(r->raw.ptr, r->raw.len);
				r->enc_known = 1;
				r->offsets = r->enc == XQ_ENC_UTF8;
				r->at.off = bom;
				r->raw_off = bom;
				r->bom = bom;
				memmove(r->raw.ptr, r->raw.ptr + bom, r->raw.len - bom);
				xq_buf_truncate(&r->raw, r->raw.len - bom);
			}
			if (!r->enc_known)
				continue;
		}
		rc = decode_raw(r);
		if (rc)
			return r->error = rc;
		if (r->input_done && r->raw.len == 0)
			r->eof = 1;
		return !r->eof;
	}
}

/* Move the scanning position to text index `to`, keeping the place. */
static void advance(struct dh_reader *r, size_t to)
{
	if (to <= r->pos)
		return;
	pos_advance(&r->at, r->text.ptr + r->pos, to - r->pos);
	r->pos = to;
}

/* Forget the text before the scanning position. */
static void compact(struct dh_reader *r)
{
	if (r->pos < CHUNK)
		return;
	memmove(r->text.ptr, r->text.ptr + r->pos, r->text.len - r->pos);
	xq_buf_truncate(&r->text, r->text.len - r->pos);
	r->text_base += r->pos;
	r->pos = 0;
}

/* Does s[0, len) look like HTML markup ("<p", "</div", "<!--")? */
static void scan_html(struct dh_reader *r, const char *s, size_t len)
{
	for (size_t i = 0; !r->html && i + 1 < len; i++)
		if (s[i] == '<' && (xq_is_alpha((unsigned char)s[i + 1]) || s[i + 1] == '/' ||
				    s[i + 1] == '!'))
			r->html = 1;
}

/* Text decoding of values. */

static int add_cp(struct xq_buf *b, uint32_t cp)
{
	char u[4];
	size_t n = xq_utf8_encode(cp, u);

	return n ? xq_buf_add(b, u, n) : -1;
}

/*
 * Append `s` to `out` with HTML character references decoded and <br> as
 * a newline.  *unknown counts references and tags left as written.
 */
static int html_decode(struct xq_buf *out, const char *s, size_t len, int *unknown)
{
	static const struct {
		const char *name;
		uint32_t cp;
	} named[] = {{"amp", '&'},      {"lt", '<'},       {"gt", '>'},
		     {"quot", '"'},     {"apos", '\''},    {"nbsp", 0xA0},
		     {"ldquo", 0x201C}, {"rdquo", 0x201D}, {"middot", 0xB7}};

	for (size_t i = 0; i < len;) {
		if (s[i] == '&') {
			size_t semi = i + 1;
			while (semi < len && semi - i <= 10 && s[semi] != ';')
				semi++;
			if (semi < len && s[semi] == ';') {
				const char *e = s + i + 1;
				size_t elen = semi - i - 1;
				uint32_t cp = 0;
				int ok = 0;
				if (elen >= 2 && e[0] == '#') {
					int hex = e[1] == 'x' || e[1] == 'X';
					size_t k = hex ? 2 : 1;
					ok = k < elen;
					for (; ok && k < elen; k++) {
						int v = hex ? xq_hex_value((unsigned char)e[k])
							    : (xq_is_digit((unsigned char)e[k]) ? e[k] - '0' : -1);
						ok = v >= 0 && cp < 0x110000;
						cp = cp * (hex ? 16 : 10) + (uint32_t)(v < 0 ? 0 : v);
					}
				} else {
					for (size_t k = 0; k < sizeof(named) / sizeof(named[0]); k++)
						if (name_is(e, elen, named[k].name)) {
							cp = named[k].cp;
							ok = 1;
						}
				}
				if (ok && add_cp(out, cp) == 0) {
					i = semi + 1;
					continue;
				}
				if (ok)
					return XQ_ENOMEM;
				(*unknown)++;
			}
		} else if (s[i] == '<') {
			size_t k = i + 1;
			if (k < len && (s[k] == 'b' || s[k] == 'B') && k + 1 < len &&
			    (s[k + 1] == 'r' || s[k + 1] == 'R')) {
				size_t end = k + 2;
				while (end < len && (s[end] == ' ' || s[end] == '/'))
					end++;
				if (end < len && s[end] == '>') {
					if (xq_buf_addc(out, '\n'))
						return XQ_ENOMEM;
					i = end + 1;
					continue;
				}
			}
			if (k < len && (xq_is_alpha((unsigned char)s[k]) || s[k] == '/'))
				(*unknown)++;
		}
		if (xq_buf_addc(out, s[i]))
			return XQ_ENOMEM;
		i++;
	}
	return 0;
}

/* Comments: "||" is a newline, \uhhhh a character, CRLF a newline. */
static int comment_decode(struct xq_buf *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		if (s[i] == '|' && i + 1 < len && s[i + 1] == '|') {
			if (xq_buf_addc(out, '\n'))
				return XQ_ENOMEM;
			i += 2;
			continue;
		}
		if (s[i] == '\r' && i + 1 < len && s[i + 1] == '\n') {
			i++;
			continue;
		}
		if (s[i] == '\\' && i + 5 < len + 0 && s[i + 1] == 'u') {
			uint32_t cp = 0;
			int ok = 1;
			for (size_t k = 2; k < 6; k++) {
				int v = xq_hex_value((unsigned char)s[i + k]);
				ok &= v >= 0;
				cp = cp * 16 + (uint32_t)(v < 0 ? 0 : v);
			}
			/* A surrogate pair written as two escapes. */
			if (ok && cp >= 0xD800 && cp <= 0xDBFF && i + 11 < len && s[i + 6] == '\\' &&
			    s[i + 7] == 'u') {
				uint32_t lo = 0;
				int ok2 = 1;
				for (size_t k = 8; k < 12; k++) {
					int v = xq_hex_value((unsigned char)s[i + k]);
					ok2 &= v >= 0;
					lo = lo * 16 + (uint32_t)(v < 0 ? 0 : v);
				}
				if (ok2 && lo >= 0xDC00 && lo <= 0xDFFF) {
					if (add_cp(out, 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00)))
						return XQ_ENOMEM;
					i += 12;
					continue;
				}
			}
			if (ok && add_cp(out, cp) == 0) {
				i += 6;
				continue;
			}
		}
		if (xq_buf_addc(out, s[i]))
			return XQ_ENOMEM;
		i++;
	}
	return 0;
}

/* The text of a value, decoded as the record's setting says, in r->tmp. */
static int value_text(struct dh_reader *r, uint64_t game, const struct dh_elem *e, int comment)
{
	struct xq_buf *out = &r->tmp;
	const char *s = e->val;
	size_t len = e->vlen;
	int unknown = 0, rc;

	xq_buf_reset(out);
	if (r->html) {
		xq_buf_reset(&r->tmp2);
		rc = html_decode(&r->tmp2, s, len, &unknown);
		if (rc)
			return rc;
		if (unknown) {
			struct dh_pos p = place_in(r, e, 0);
			report_at(r, game, &p, 0, NULL, 0, XQ_D_SYNTAX, XQ_SEV_NOTE,
				  "[DhtmlXQ_%.*s]: %d HTML references or tags not understood; kept as "
				  "written",
				  (int)e->nlen, e->name, unknown);
		}
		s = r->tmp2.ptr;
		len = r->tmp2.len;
	}
	if (comment)
		return comment_decode(out, s, len);
	return xq_buf_add(out, s, len) ? XQ_ENOMEM : 0;
}

/* Elements of one record. */

static int push_elem(struct dh_reader *r, const struct dh_elem *e)
{
	if (XQ_ALLOC_GROW(r->elems, r->nelems + 1, r->elems_cap))
		return XQ_ENOMEM;
	r->elems[r->nelems++] = *e;
	return 0;
}

static int name_char(int c)
{
	return xq_is_alpha(c) || xq_is_digit(c) || c == '_';
}

/* Is s[0, len) only space and HTML tags (which lay out a page and carry no record data)? */
static int ignorable(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (xq_is_space((unsigned char)s[i]))
			continue;
		if (s[i] == '<' && i + 1 < len &&
		    (xq_is_alpha((unsigned char)s[i + 1]) || s[i + 1] == '/' || s[i + 1] == '!')) {
			const char *gt = memchr(s + i, '>', len - i);
			if (!gt)
				return 0;
			i = (size_t)(gt - s);
			continue;
		}
		if (len - i >= 6 && !memcmp(s + i, "&nbsp;", 6)) {
			i += 5;
			continue;
		}
		return 0;
	}
	return 1;
}

/*
 * Split s[0, len) into elements (r->elems).  In a wrapped record, text
 * between elements is reported; an implicit record (no wrapper) ends at
 * such text, or where a second movelist or binit starts.  *consumed gets
 * the length read.
 */
static int split_elements(struct dh_reader *r, uint64_t game, const char *s, size_t len,
			  int implicit, size_t *consumed)
{
	struct dh_pos cur = r->rec_at, tag;
	size_t ci = 0, i = 0;
	int seen_moves = 0, seen_binit = 0;

/* Places only move forward. */
#define MOVE_TO(k)                                                   \
	do {                                                         \
		if ((k) > ci) {                                      \
			if (r->exact)                                \
				pos_advance(&cur, s + ci, (k) - ci); \
			ci = (k);                                    \
		}                                                    \
	} while (0)

	r->nelems = 0;
	while (i < len) {
		size_t j = find(s, len, i, "[DhtmlXQ_"), k, v, e1, e2;
		struct dh_elem e;
		if (j > i && !ignorable(s + i, j - i)) {
			if (implicit)
				break;
			MOVE_TO(i);
			report_at(r, game, &cur, 0, NULL, 0, XQ_D_SYNTAX, XQ_SEV_WARNING,
				  "text between DhtmlXQ elements not interpreted: '%.*s'",
				  excerpt_len(s + i, j - i), s + i);
		}
		if (j == len) {
			i = len;
			break;
		}
		for (k = j + 9; k < len && name_char((unsigned char)s[k]); k++)
			;
		if (k == len || s[k] != ']' || k == j + 9) {
			if (implicit) {
				i = j;
				break;
			}
			MOVE_TO(j);
			report_at(r, game, &cur, 0, NULL, 0, XQ_D_SYNTAX, XQ_SEV_WARNING,
				  "'[DhtmlXQ_' that opens no element; not interpreted");
			i = j + 9;
			continue;
		}
		e.name = s + j + 9;
		e.nlen = k - j - 9;
		if (implicit && ((name_is(e.name, e.nlen, "movelist") && seen_moves++) ||
				 (name_is(e.name, e.nlen, "binit") && seen_binit++))) {
			i = j;
			break;
		}
		v = k + 1;
		e1 = find(s, len, v, "[/DhtmlXQ");
		e2 = find(s, len, v, "[DhtmlXQ_");
		e.val = s + v;
		MOVE_TO(j);
		tag = cur;
		MOVE_TO(v);
		e.at = cur;
		if (e2 < e1 || e1 == len) {
			size_t stop = e2 < e1 ? e2 : len;
			e.vlen = stop - v;
			report_at(r, game, &tag, 0, NULL, 0, XQ_D_SYNTAX, XQ_SEV_WARNING,
				  "[DhtmlXQ_%.*s] has no closing tag; its value runs to %s",
				  (int)e.nlen, e.name, stop == len ? "the end of the record" : "the next element");
			i = stop;
		} else {
			size_t c = e1 + 9, close;
			e.vlen = e1 - v;
			for (close = c; close < len && name_char((unsigned char)s[close]); close++)
				;
			if (close == len || s[close] != ']') {
				MOVE_TO(e1);
				report_at(r, game, &cur, 0, NULL, 0, XQ_D_SYNTAX, XQ_SEV_WARNING,
					  "malformed closing tag of [DhtmlXQ_%.*s]", (int)e.nlen, e.name);
				i = e1 + 9;
			} else {
				const char *cn = s + c + 1;
				size_t cl = close > c ? close - c - 1 : 0;
				/* CCBridge closes blacktime and redtime with [/DhtmlXQ_time]. */
				if (!(s[c] == '_' && (name_is(cn, cl, "time") ||
						      (cl == e.nlen && !memcmp(cn, e.name, cl))))) {
					MOVE_TO(e1);
					report_at(r, game, &cur, 0, NULL, 0, XQ_D_SYNTAX, XQ_SEV_NOTE,
						  "[DhtmlXQ_%.*s] is closed by [/DhtmlXQ%.*s]",
						  (int)e.nlen, e.name, (int)(close - c), s + c);
				}
				i = close + 1;
			}
		}
		if (push_elem(r, &e))
			return XQ_ENOMEM;
	}
#undef MOVE_TO
	*consumed = i;
	return 0;
}

/* Building the game. */

static int parse_uint(const char *s, size_t len, uint32_t *out)
{
	uint32_t v = 0;

	if (len == 0 || len > 9)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (!xq_is_digit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (uint32_t)(s[i] - '0');
	}
	*out = v;
	return 0;
}

/* "P_S_B" (after "move_") or "S" / "B_S" (after "comment"). */
static int parse_ids(const char *s, size_t len, uint32_t *ids, int want)
{
	int n = 0;
	size_t i = 0;

	while (n < want) {
		size_t j = i;
		while (j < len && s[j] != '_')
			j++;
		if (parse_uint(s + i, j - i, &ids[n++]))
			return -1;
		if (j == len)
			break;
		i = j + 1;
	}
	return n;
}

/*
 * A lower-case element name as a tag name: the first letter, and the one
 * after a "red" or "black" prefix, upper-cased (redteam -> RedTeam).
 * `out` holds len + 1 bytes.
 */
static void capitalise(char *out, const char *name, size_t len)
{
	memcpy(out, name, len);
	out[len] = '\0';
	out[0] = (char)xq_to_upper((unsigned char)out[0]);
	if (len > 3 && !memcmp(name, "red", 3))
		out[3] = (char)xq_to_upper((unsigned char)out[3]);
	if (len > 5 && !memcmp(name, "black", 5))
		out[5] = (char)xq_to_upper((unsigned char)out[5]);
}

static int tag_of_element(struct xq_game *g, const char *name, size_t len, const char *value,
			  size_t vlen, const struct xq_place *at)
{
	char tag[64];

	for (size_t i = 0; i < sizeof(dh_tags) / sizeof(dh_tags[0]); i++)
		if (name_is(name, len, dh_tags[i].element))
			return xq_game_add_tag_at(g, dh_tags[i].tag, strlen(dh_tags[i].tag), value,
						  vlen, at);
	/* Names written with capitals (by this writer: DateModified) are kept as they are. */
	for (size_t i = 0; i < len; i++)
		if (name[i] >= 'A' && name[i] <= 'Z')
			return xq_game_add_tag_at(g, name, len, value, vlen, at);
	if (len >= sizeof(tag))
		return xq_game_add_tag_at(g, name, len, value, vlen, at);
	capitalise(tag, name, len);
	return xq_game_add_tag_at(g, tag, len, value, vlen, at);
}

/* binit: 64 digits, 32 squares in the fixed piece order, "99" absent. */
static int setup_binit(struct dh_reader *r, struct xq_game *g, const struct dh_elem *e,
		       struct xq_board *b, int quiet)
{
	static const int8_t types[16] = {XQ_ROOK,   XQ_HORSE,  XQ_ELEPHANT, XQ_ADVISOR,
					 XQ_KING,   XQ_ADVISOR, XQ_ELEPHANT, XQ_HORSE,
					 XQ_ROOK,   XQ_CANNON, XQ_CANNON,   XQ_PAWN,
					 XQ_PAWN,   XQ_PAWN,   XQ_PAWN,     XQ_PAWN};
	struct xq_diag d;
	size_t n = 0;
	char digits[64];

	for (size_t i = 0; i < e->vlen; i++) {
		if (xq_is_space((unsigned char)e->val[i]))
			continue;
		if (!xq_is_digit((unsigned char)e->val[i]) || n == 64) {
			struct dh_pos p = place_in(r, e, i);
			if (!quiet)
				report_at(r, g->number, &p, 0, NULL, 0, XQ_D_BAD_FEN, XQ_SEV_ERROR,
				  "[DhtmlXQ_binit] must be 64 digits; no move can be read");
			return -1;
		}
		digits[n++] = e->val[i];
	}
	if (n != 64) {
		struct dh_pos p = place_in(r, e, 0);
		if (!quiet)
			report_at(r, g->number, &p, 0, NULL, 0, XQ_D_BAD_FEN, XQ_SEV_ERROR,
			  "[DhtmlXQ_binit] has %zu digits, not 64; no move can be read", n);
		return -1;
	}
	xq_board_clear(b);
	for (int i = 0; i < 32; i++) {
		int x = digits[2 * i] - '0', y = digits[2 * i + 1] - '0';
		if (x == 9 && y == 9)
			continue;
		xq_diag_init(&d);
		if (x > 8 || xq_board_put(b, i / 16, types[i % 16], XQ_SQ(x, 9 - y), &d)) {
			struct dh_pos p = place_in(r, e, 0);
			if (!quiet)
				report_at(r, g->number, &p, 0, NULL, 0, XQ_D_BAD_FEN, XQ_SEV_ERROR,
				  "[DhtmlXQ_binit] piece %d at \"%c%c\": %s; no move can be read",
				  i + 1, digits[2 * i], digits[2 * i + 1],
				  x > 8 ? "no such square" : d.msg);
			return -1;
		}
	}
	return 0;
}

/* Four digits at s: the move, or 0. */
static xq_move digits_move(const char *s)
{
	for (int k = 0; k < 4; k++)
		if (!xq_is_digit((unsigned char)s[k]))
			return 0;
	if (s[0] > '8' || s[2] > '8')
		return 0;
	return XQ_MOVE(XQ_SQ(s[0] - '0', 9 - (s[1] - '0')), XQ_SQ(s[2] - '0', 9 - (s[3] - '0')));
}

/* The first move of a value (skipping space), or 0. */
static xq_move first_move(const struct dh_elem *e)
{
	size_t i = 0;

	while (i < e->vlen && xq_is_space((unsigned char)e->val[i]))
		i++;
	return i + 4 <= e->vlen ? digits_move(e->val + i) : 0;
}

static size_t count_moves(const struct dh_elem *e)
{
	size_t digits = 0;

	for (size_t i = 0; i < e->vlen; i++)
		digits += !xq_is_space((unsigned char)e->val[i]);
	return (digits + 3) / 4;
}

static int push_node(struct dh_reader *r, uint32_t n)
{
	if (XQ_ALLOC_GROW(r->bnodes, r->nbnodes + 1, r->bnodes_cap))
		return XQ_ENOMEM;
	r->bnodes[r->nbnodes++] = n;
	return 0;
}

static int push_ckpt(struct dh_reader *r, const struct xq_board *b)
{
	if (XQ_ALLOC_GROW(r->ckpt, r->nckpt + 1, r->ckpt_cap))
		return XQ_ENOMEM;
	r->ckpt[r->nckpt++] = *b;
	return 0;
}

/*
 * The position after the first `q` moves of a line that starts at `start`,
 * whose nodes are bnodes[at...] and whose first position in ckpt[] is
 * `first` (NO_CKPT: none kept, the line is replayed from `start`).
 */
static void line_board(const struct dh_reader *r, const struct xq_game *g, size_t first,
		       const struct xq_board *start, size_t at, size_t q, struct xq_board *out)
{
	size_t k = 0;

	*out = *start;
	if (first != NO_CKPT) {
		k = q / CKPT_EVERY * CKPT_EVERY;
		*out = r->ckpt[first + q / CKPT_EVERY];
	}
	for (; k < q; k++) {
		struct xq_undo u;
		xq_board_make(out, g->nodes[r->bnodes[at + k]].move, &u);
	}
}

/*
 * Play the moves of `e` from node `attach` (position `b`), the first being
 * ply `ply`; their nodes are appended to r->bnodes.  Stops at the first
 * move that cannot be read or played (reported; the game is broken).
 * With `ckpt`, the line's positions are kept (CKPT_EVERY) and *ckpt is the
 * first one's index in r->ckpt.
 */
static int play_line(struct dh_reader *r, struct xq_game *g, const struct dh_elem *e,
		     uint32_t attach, struct xq_board *b, uint32_t ply, const char *what,
		     size_t *ckpt)
{
	uint32_t parent = attach;
	size_t i = 0, at = 0, played = 0;
	struct dh_pos p = place_in(r, e, 0);

	if (ckpt) {
		*ckpt = r->nckpt;
		if (push_ckpt(r, b))
			return XQ_ENOMEM;
	}

	while (i < e->vlen) {
		struct xq_diag d;
		xq_move m;
		uint32_t n;
		int rc;
		if (xq_is_space((unsigned char)e->val[i])) {
			i++;
			continue;
		}
		/* The place of byte i, from that of the last move (place_in()
		 * counts from the value's start: quadratic in a long line). */
		if (r->exact)
			pos_advance(&p, e->val + at, i - at);
		at = i;
		m = i + 4 <= e->vlen ? digits_move(e->val + i) : 0;
		if (!m) {
			size_t k = i;
			while (k < e->vlen && k < i + 4 && !xq_is_space((unsigned char)e->val[k]))
				k++;
			report_at(r, g->number, &p, ply, e->val + i, k - i, XQ_D_BAD_MOVE_TEXT,
				  XQ_SEV_ERROR,
				  "%s: '%.*s' is not a move (four digits x1y1x2y2); the line stops here",
				  what, (int)(k - i), e->val + i);
			g->flags |= XQ_GAME_BROKEN;
			return 0;
		}
		xq_diag_init(&d);
		if (xq_move_check(b, m, &d)) {
			report_at(r, g->number, &p, ply, e->val + i, 4, XQ_D_ILLEGAL_MOVE, XQ_SEV_ERROR,
				  "%s: illegal move %.4s: %s; the line stops here", what, e->val + i,
				  d.msg);
			g->flags |= XQ_GAME_BROKEN;
			return 0;
		}
		rc = xq_game_add_move(g, parent, m, &n);
		if (!rc)
			rc = xq_game_set_text(g, n, e->val + i, 4);
		if (!rc)
			rc = push_node(r, n);
		if (rc)
			return rc;
		g->nodes[n].place.line = p.line;
		g->nodes[n].place.col = p.col;
		g->nodes[n].place.offset = p.off;
		{
			struct xq_undo u;
			xq_board_make(b, m, &u);
		}
		if (ckpt && ++played % CKPT_EVERY == 0 && (rc = push_ckpt(r, b)))
			return rc;
		parent = n;
		ply++;
		i += 4;
	}
	return 0;
}

static int push_branch(struct dh_reader *r, const struct dh_branch *b)
{
	if (XQ_ALLOC_GROW(r->br, r->nbr + 1, r->br_cap))
		return XQ_ENOMEM;
	r->br[r->nbr++] = *b;
	return 0;
}

static int by_id(const void *a, const void *b)
{
	const struct dh_order *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Index in r->br of branch `id` (the first of that id), or (size_t)-1. */
static size_t branch_index(const struct dh_reader *r, uint32_t id)
{
	size_t lo = 0, hi = r->nbr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (r->order[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->nbr && r->order[lo].id == id ? r->order[lo].idx : (size_t)-1;
}

/* Build branch `bi` whose parent is built (or the main line: main_*). */
static int build_branch(struct dh_reader *r, struct xq_game *g, size_t bi, size_t main_at,
			size_t main_n, size_t main_moves)
{
	struct dh_branch *b = &r->br[bi];
	const struct dh_elem *e = &r->elems[b->elem];
	uint32_t fp, attach;
	size_t at, n, moves, ckpt;
	struct dh_pos p = place_in(r, e, 0);
	struct xq_board board;
	char what[64];
	int rc;

	if (b->parent == 0) {
		fp = 1;
		attach = XQ_ROOT;
		at = main_at;
		n = main_n;
		moves = main_moves;
		ckpt = r->main_ckpt;
	} else {
		const struct dh_branch *pb = &r->br[branch_index(r, b->parent)];
		fp = pb->first_ply;
		attach = pb->attach;
		at = pb->nodes_at;
		n = pb->nnodes;
		moves = pb->nmoves;
		ckpt = pb->ckpt;
	}
	if (b->ply < fp || b->ply > fp + moves) {
		report_at(r, g->number, &p, 0, NULL, 0, XQ_D_SYNTAX, XQ_SEV_ERROR,
			  "branch %u leaves branch %u at ply %u, but that branch covers plies %u-%zu; "
			  "not read",
			  (unsigned)b->id, (unsigned)b->parent, (unsigned)b->ply, (unsigned)fp,
			  fp + moves);
		g->flags |= XQ_GAME_BROKEN;
		b->state = BR_FAILED;
		return 0;
	}
	if (b->ply > fp + n) {
		report_at(r, g->number, &p, b->ply, NULL, 0, XQ_D_ILLEGAL_MOVE, XQ_SEV_ERROR,
			  "branch %u leaves branch %u at ply %u, after the point where that line "
			  "stopped; not read",
			  (unsigned)b->id, (unsigned)b->parent, (unsigned)b->ply);
		g->flags |= XQ_GAME_BROKEN;
		b->state = BR_FAILED;
		return 0;
	}
	if (b->ply > fp)
		attach = r->bnodes[at + (b->ply - 1 - fp)];
	b->first_ply = b->ply;
	b->attach = attach;
	b->nodes_at = r->nbnodes;
	b->nmoves = count_moves(e);
	if (b->nmoves == 0)
		report_at(r, g->number, &p, 0, NULL, 0, XQ_D_EMPTY_GAME, XQ_SEV_NOTE,
			  "branch %u has no moves", (unsigned)b->id);
	if (ckpt != NO_CKPT)
		line_board(r, g, ckpt, &g->start, at, b->ply - fp, &board);
	else
		xq_game_board_at(g, attach, &board);
	snprintf(what, sizeof(what), "branch %u", (unsigned)b->id);
	rc = play_line(r, g, e, attach, &board, b->ply, what, b->left ? &ckpt : NULL);
	b = &r->br[bi];
	b->ckpt = b->left ? ckpt : NO_CKPT;
	b->nnodes = r->nbnodes - b->nodes_at;
	b->state = BR_BUILT;
	return rc;
}

/* Build every branch, parents before children, each once. */
static int build_branches(struct dh_reader *r, struct xq_game *g, size_t main_n,
			  size_t main_moves)
{
	size_t *stack;

	if (r->nbr == 0)
		return 0;
	r->order = malloc(r->nbr * sizeof(*r->order));
	stack = malloc(r->nbr * sizeof(*stack));
	if (!r->order || !stack) {
		free(stack);
		return XQ_ENOMEM;
	}
	if (r->nbr > UINT32_MAX) {
		free(stack);
		return XQ_ERANGE;
	}
	for (size_t i = 0; i < r->nbr; i++) {
		r->order[i].id = r->br[i].id;
		r->order[i].idx = (uint32_t)i;
	}
	qsort(r->order, r->nbr, sizeof(*r->order), by_id);
	/* A second branch with an id already used cannot be told apart. */
	for (size_t i = 1; i < r->nbr; i++) {
		struct dh_branch *b = &r->br[r->order[i].idx];
		if (b->id == r->order[i - 1].id && b->id != 0) {
			struct dh_pos p = place_in(r, &r->elems[b->elem], 0);
			report_at(r, g->number, &p, 0, NULL, 0, XQ_D_SYNTAX, XQ_SEV_ERROR,
				  "branch id %u is used twice; the second one is not read",
				  (unsigned)b->id);
			g->flags |= XQ_GAME_BROKEN;
			b->state = BR_FAILED;
		}
	}
	/* Which branches others leave (the first of an id is the one read). */
	for (size_t i = 0; i < r->nbr; i++)
		r->br[i].ckpt = NO_CKPT;
	for (size_t i = 0; i < r->nbr; i++) {
		size_t pi = r->br[i].parent ? branch_index(r, r->br[i].parent) : (size_t)-1;
		if (pi != (size_t)-1)
			r->br[pi].left = 1;
	}
	for (size_t i = 0; i < r->nbr && r->order[i].id == 0; i++) {
		struct dh_branch *b = &r->br[r->order[i].idx];
		struct dh_pos p = place_in(r, &r->elems[b->elem], 0);
		report_at(r, g->number, &p, 0, NULL, 0, XQ_D_SYNTAX, XQ_SEV_ERROR,
			  "branch id 0 is the main line's; this branch is not read");
		g->flags |= XQ_GAME_BROKEN;
		b->state = BR_FAILED;
	}
	for (size_t i = 0; i < r->nbr; i++) {
		size_t depth = 0;
		if (r->br[i].state != BR_WAITING)
			continue;
		stack[depth++] = i;
		r->br[i].state = BR_RESOLVING;
		while (depth > 0) {
			size_t bi = stack[depth - 1], pi;
			struct dh_branch *b = &r->br[bi];
			const char *why = NULL;
			int rc;
			pi = b->parent ? branch_index(r, b->parent) : (size_t)-1;
			if (b->parent && pi != (size_t)-1 && r->br[pi].state == BR_WAITING) {
				r->br[pi].state = BR_RESOLVING;
				stack[depth++] = pi;
				continue;
			}
			depth--;
			if (b->parent && pi == (size_t)-1)
				why = "which does not exist";
			else if (b->parent && r->br[pi].state == BR_RESOLVING)
				why = "which leads back to it";
			else if (b->parent && r->br[pi].state == BR_FAILED)
				why = "which could not be read";
			if (why) {
				struct dh_pos p = place_in(r, &r->elems[b->elem], 0);
				report_at(r, g->number, &p, 0, NULL, 0, XQ_D_SYNTAX, XQ_SEV_ERROR,
					  "branch %u hangs from branch %u, %s; not read",
					  (unsigned)b->id, (unsigned)b->parent, why);
				g->flags |= XQ_GAME_BROKEN;
				b->state = BR_FAILED;
				continue;
			}
			rc = build_branch(r, g, bi, 0, main_n, main_moves);
			if (rc) {
				free(stack);
				return rc;
			}
		}
	}
	free(stack);
	return 0;
}

/* The node comment (B, S) names, or XQ_NODE_NONE. */
static uint32_t comment_node(struct dh_reader *r, uint32_t b, uint32_t s, size_t main_n)
{
	const struct dh_branch *br;
	size_t bi;

	if (b == 0) {
		if (s == 0)
			return XQ_ROOT;
		return s <= main_n ? r->bnodes[s - 1] : XQ_NODE_NONE;
	}
	bi = branch_index(r, b);
	if (bi == (size_t)-1)
		return XQ_NODE_NONE;
	br = &r->br[bi];
	if (br->state != BR_BUILT || s < br->first_ply || s >= br->first_ply + br->nnodes)
		return XQ_NODE_NONE;
	return r->bnodes[br->nodes_at + (s - br->first_ply)];
}

/*
 * The position of a [DhtmlXQ_fen].  Its side may be the wrong one (the
 * first move decides), and with the wrong side the FEN can be refused for
 * the side not to move being in check; so a refused FEN is tried once more
 * with the other side before its error is reported.
 */
static int fen_setup(const struct dh_elem *fen, struct xq_board *b, struct xq_diag *d,
		     int *flipped)
{
	char text[XQ_FEN_MAX + 8];
	const char *sp = memchr(fen->val, ' ', fen->vlen);
	size_t board = sp ? (size_t)(sp - fen->val) : fen->vlen, rest;
	struct xq_diag d2;

	*flipped = 0;
	if (xq_board_from_fen(b, fen->val, fen->vlen, XQ_FEN_LENIENT_PLACEMENT, d) == 0)
		return 0;
	*flipped = 1;
	if (board >= XQ_FEN_MAX)
		return -1;
	/* The board, the other side, and whatever followed the side. */
	memcpy(text, fen->val, board);
	rest = sp && fen->vlen - board >= 2 ? fen->vlen - board - 2 : 0;
	if (rest > XQ_FEN_MAX - board)
		return -1;
	text[board] = ' ';
	text[board + 1] = sp && board + 1 < fen->vlen && fen->val[board + 1] == 'b' ? 'w' : 'b';
	memcpy(text + board + 2, fen->val + board + 2, rest);
	xq_diag_init(&d2);
	return xq_board_from_fen(b, text, board + 2 + rest, XQ_FEN_LENIENT_PLACEMENT, &d2) ? -1 : 0;
}

/*
 * With both a FEN and a binit (xqkit writes both when black moves first),
 * the FEN decides, but a binit that holds the same placement gives each
 * piece its slot: which of two rooks is the first rook is written in the
 * binit only, and a game read back must write the same binit again.
 */
static void slots_from_binit(struct dh_reader *r, struct xq_game *g, const struct dh_elem *binit,
			     struct xq_board *b)
{
	struct xq_board slots;

	if (setup_binit(r, g, binit, &slots, 1))
		return;
	for (int sq = 0; sq < 256; sq++)
		if (xq_kind_of_id[b->sq[sq]] != xq_kind_of_id[slots.sq[sq]])
			return;
	memcpy(b->sq, slots.sq, sizeof(b->sq));
	memcpy(b->pc, slots.pc, sizeof(b->pc));
}

/* The start position: fen, else binit, else the standard one.  1: unusable. */
static int setup(struct dh_reader *r, struct xq_game *g, const struct dh_elem *binit,
		 const struct dh_elem *fen, xq_move first)
{
	struct xq_board b;
	struct xq_diag d;
	int stated = -1, flipped = 0; /* the side the FEN says, when it says one */

	xq_board_start(&b);
	if (fen) {
		xq_diag_init(&d);
		if (fen_setup(fen, &b, &d, &flipped)) {
			struct dh_pos p = place_in(r, fen, d.place.col ? d.place.col - 1 : 0);
			report_at(r, g->number, &p, 0, NULL, 0, XQ_D_BAD_FEN, XQ_SEV_ERROR,
				  "[DhtmlXQ_fen]: %s; no move can be read", d.msg);
			return 1;
		}
		if (memchr(fen->val, ' ', fen->vlen))
			stated = flipped ? !b.side : b.side;
		if (binit)
			slots_from_binit(r, g, binit, &b);
	} else if (binit && setup_binit(r, g, binit, &b, 0)) {
		return 1;
	}
	if (first) {
		int kind = xq_board_kind(&b, XQ_MOVE_FROM(first));
		if (kind && XQ_KIND_SIDE(kind) != b.side)
			b.side = (uint8_t)XQ_KIND_SIDE(kind);
	}
	if (stated >= 0 && stated != b.side) {
		struct dh_pos p = place_in(r, fen, 0);
		report_at(r, g->number, &p, 0, NULL, 0, XQ_D_SIDE_TO_MOVE, XQ_SEV_NOTE,
			  "[DhtmlXQ_fen] says %s moves, but %s; %s moves",
			  stated == XQ_RED ? "red" : "black",
			  first && xq_board_kind(&b, XQ_MOVE_FROM(first))
				  ? "the first move decides"
				  : "the other king would be in check",
			  b.side == XQ_RED ? "red" : "black");
	}
	b.key = xq_board_compute_key(&b);
	xq_diag_init(&d);
	if (xq_board_validate(&b, XQ_FEN_LENIENT_PLACEMENT, &d)) {
		const struct dh_elem *e = fen ? fen : binit;
		struct dh_pos p = e ? place_in(r, e, 0) : r->rec_at;
		report_at(r, g->number, &p, 0, NULL, 0, XQ_D_BAD_FEN, XQ_SEV_ERROR,
			  "start position: %s; no move can be read", d.msg);
		return 1;
	}
	g->start = b;
	return 0;
}

static int set_result(struct dh_reader *r, struct xq_game *g, const struct dh_elem *e)
{
	const char *s;
	size_t len;
	int rc = value_text(r, g->number, e, 0);

	if (rc)
		return rc;
	s = r->tmp.ptr;
	len = r->tmp.len;
	while (len && xq_is_space((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && xq_is_space((unsigned char)s[len - 1]))
		len--;
	if (len == 0)
		return 0;
	if (result_word(s, len, &g->result) == 0) {
		const char *std = xq_result_string(g->result);
		if (strlen(std) != len || memcmp(std, s, len))
			g->result_text = xq_game_strdup(g, s, len);
		return xq_game_add_tag(g, "Result", 6, std, strlen(std));
	}
	{
		struct dh_pos p = place_in(r, e, 0);
		report_at(r, g->number, &p, 0, NULL, 0, XQ_D_NO_RESULT, XQ_SEV_NOTE,
			  "result '%.*s' is not a result word this reader knows; kept as the "
			  "Result tag, the result is unknown",
			  (int)len, s);
	}
	g->result = XQ_RESULT_UNKNOWN;
	g->result_text = xq_game_strdup(g, s, len);
	return xq_game_add_tag(g, "Result", 6, s, len);
}

static int attach_comment(struct dh_reader *r, struct xq_game *g, const struct dh_elem *e,
			  uint32_t b, uint32_t s, size_t main_n)
{
	uint32_t node = comment_node(r, b, s, main_n);
	const char *old;
	int rc = value_text(r, g->number, e, 1);

	if (rc || r->tmp.len == 0)
		return rc;
	if (node == XQ_NODE_NONE) {
		struct dh_pos p = place_in(r, e, 0);
		report_at(r, g->number, &p, s, NULL, 0, XQ_D_SYNTAX, XQ_SEV_WARNING,
			  "[DhtmlXQ_%.*s] is for ply %u of %s %u, which has no move that was read; "
			  "comment not kept: '%.*s'",
			  (int)e->nlen, e->name, (unsigned)s, b ? "branch" : "line", (unsigned)b,
			  excerpt_len(r->tmp.ptr, r->tmp.len), r->tmp.ptr);
		return 0;
	}
	old = g->nodes[node].comment;
	if (old) {
		/* Two comments for one move: keep both, a line apart. */
		xq_buf_reset(&r->tmp2);
		if (xq_buf_adds(&r->tmp2, old) || xq_buf_addc(&r->tmp2, '\n') ||
		    xq_buf_add(&r->tmp2, r->tmp.ptr, r->tmp.len))
			return XQ_ENOMEM;
		return xq_game_set_comment(g, node, r->tmp2.ptr, r->tmp2.len);
	}
	return xq_game_set_comment(g, node, r->tmp.ptr, r->tmp.len);
}

/* Make a game of the elements in r->elems. */
static int build_game(struct dh_reader *r, struct xq_game *g)
{
	const struct dh_elem *binit = NULL, *fen = NULL, *moves = NULL, *result = NULL;
	size_t main_n = 0, main_moves = 0;
	xq_move first = 0;
	int rc = 0;

	r->nbr = 0;
	r->nbnodes = 0;
	r->nckpt = 0;
	r->main_ckpt = NO_CKPT;
	free(r->order);
	r->order = NULL;
	/* Pass 1: tags, and find the structural elements. */
	for (size_t i = 0; i < r->nelems && !rc; i++) {
		const struct dh_elem *e = &r->elems[i];
		const struct dh_elem **slot = NULL;
		uint32_t ids[3];
		if (name_is(e->name, e->nlen, "binit"))
			slot = &binit;
		else if (name_is(e->name, e->nlen, "fen"))
			slot = &fen;
		else if (name_is(e->name, e->nlen, "movelist"))
			slot = &moves;
		else if (name_is(e->name, e->nlen, "result"))
			slot = &result;
		if (slot) {
			if (*slot) {
				struct dh_pos p = place_in(r, e, 0);
				report_at(r, g->number, &p, 0, NULL, 0, XQ_D_SYNTAX, XQ_SEV_WARNING,
					  "a second [DhtmlXQ_%.*s] in one record; not read",
					  (int)e->nlen, e->name);
				continue;
			}
			*slot = e;
			if (slot == &result)
				rc = set_result(r, g, e);
			continue;
		}
		if (e->nlen > 5 && !memcmp(e->name, "move_", 5)) {
			struct dh_branch b;
			if (parse_ids(e->name + 5, e->nlen - 5, ids, 3) != 3) {
				struct dh_pos p = place_in(r, e, 0);
				report_at(r, g->number, &p, 0, NULL, 0, XQ_D_SYNTAX, XQ_SEV_ERROR,
					  "[DhtmlXQ_%.*s] is not move_P_S_B; its moves are not read",
					  (int)e->nlen, e->name);
				g->flags |= XQ_GAME_BROKEN;
				continue;
			}
			memset(&b, 0, sizeof(b));
			b.parent = ids[0];
			b.ply = ids[1];
			b.id = ids[2];
			b.elem = i;
			b.state = BR_WAITING;
			rc = push_branch(r, &b);
			continue;
		}
		if (e->nlen > 7 && !memcmp(e->name, "comment", 7)) {
			int n = parse_ids(e->name + 7, e->nlen - 7, ids, 2);
			if (n < 1) {
				struct dh_pos p = place_in(r, e, 0);
				report_at(r, g->number, &p, 0, NULL, 0, XQ_D_SYNTAX, XQ_SEV_WARNING,
					  "[DhtmlXQ_%.*s] is not commentS or commentB_S; not read",
					  (int)e->nlen, e->name);
			}
			continue;
		}
		if (e->vlen == 0)
			continue;
		rc = value_text(r, g->number, e, 0);
		if (!rc && r->tmp.len) {
			/* Where the value starts, when the reader knows it exactly. */
			struct dh_pos p = place_in(r, e, 0);
			struct xq_place at = {p.off, p.line, p.col};
			rc = tag_of_element(g, e->name, e->nlen, r->tmp.ptr, r->tmp.len,
					    r->exact ? &at : NULL);
		}
	}
	if (rc)
		return rc;
	/* The first move decides the side to move. */
	if (moves)
		first = first_move(moves);
	for (size_t i = 0; !first && i < r->nbr; i++)
		if (r->br[i].parent == 0 && r->br[i].ply == 1)
			first = first_move(&r->elems[r->br[i].elem]);
	if (setup(r, g, binit, fen, first)) {
		/* No move can be placed; the game comment still belongs to the game. */
		g->flags |= XQ_GAME_BROKEN | XQ_GAME_EMPTY;
		for (size_t i = 0; i < r->nelems && !rc; i++)
			if (name_is(r->elems[i].name, r->elems[i].nlen, "comment0"))
				rc = attach_comment(r, g, &r->elems[i], 0, 0, 0);
		return rc;
	}
	if (moves) {
		struct xq_board b = g->start;
		int left = 0;
		for (size_t i = 0; i < r->nbr && !left; i++)
			left = r->br[i].parent == 0;
		main_moves = count_moves(moves);
		rc = play_line(r, g, moves, XQ_ROOT, &b, 1, "movelist",
			       left ? &r->main_ckpt : NULL);
		main_n = r->nbnodes;
	}
	if (!rc)
		rc = build_branches(r, g, main_n, main_moves);
	for (size_t i = 0; i < r->nelems && !rc; i++) {
		const struct dh_elem *e = &r->elems[i];
		uint32_t ids[2];
		int n;
		if (e->nlen <= 7 || memcmp(e->name, "comment", 7))
			continue;
		n = parse_ids(e->name + 7, e->nlen - 7, ids, 2);
		if (n == 1)
			rc = attach_comment(r, g, e, 0, ids[0], main_n);
		else if (n == 2)
			rc = attach_comment(r, g, e, ids[0], ids[1], main_n);
	}
	if (g->nnodes == 1)
		g->flags |= XQ_GAME_EMPTY;
	return rc;
}

/* Was a byte of the text between absolute offsets [a, b) not text? */
static int had_bad_bytes(struct dh_reader *r, uint64_t a, uint64_t b)
{
	/* Records come in the order of the text: what lies before this one
	 * concerns none of the next ones. */
	while (r->bad_head < r->nbad && r->bad[r->bad_head] < a)
		r->bad_head++;
	if (r->bad_head > 4096 && r->bad_head > r->nbad / 2) {
		memmove(r->bad, r->bad + r->bad_head, (r->nbad - r->bad_head) * sizeof(*r->bad));
		r->nbad -= r->bad_head;
		r->bad_head = 0;
	}
	return r->bad_head < r->nbad && r->bad[r->bad_head] < b;
}

/*
 * Report the decoder's events before text offset `b`, those from `a` on
 * for game g (NULL: none; the events outside records): each byte that was
 * not text, and the first line in another encoding, which says the game
 * is in that encoding.
 */
static void take_marks(struct dh_reader *r, struct xq_game *g, uint64_t a, uint64_t b)
{
	int told = 0, warned = 0, bads = 0;
	uint64_t more = 0;

	while (r->foreign_first < r->nforeign && r->foreign[r->foreign_first].at < b) {
		const struct dh_mark *m = &r->foreign[r->foreign_first++];
		int in = g && m->at >= a;
		char msg[200];
		if (r->quiet)
			continue;
		if (m->kind == XQ_TEXTDEC_BAD && !in) {
			/* Outside every record: counted, said once at the end
			 * (random bytes were 1.6 million reports in 16 MiB). */
			if (r->outside == 0)
				r->first_outside = *m;
			r->outside += m->count;
		} else if (m->kind == XQ_TEXTDEC_BAD && bads >= DH_BAD_REPORTS) {
			more += m->count;
		} else if (m->kind == XQ_TEXTDEC_BAD) {
			bads++;
			xq_textdec_bad_message(msg, sizeof(msg), m->byte, m->enc, m->place.offset);
			if (m->count > 1)
				xq_format_report(r->sink, r->name, g->number, &m->place, 1, 0, NULL, 0,
					      XQ_D_ENCODING, XQ_SEV_ERROR,
					      "%s (and so are the %llu bytes after it)", msg,
					      (unsigned long long)(m->count - 1));
			else
				xq_format_report(r->sink, r->name, g->number, &m->place, 1, 0, NULL, 0,
					      XQ_D_ENCODING, XQ_SEV_ERROR, "%s", msg);
		} else if (m->kind == XQ_TEXTDEC_AMBIGUOUS) {
			if (in && !warned) {
				xq_format_report(r->sink, r->name, g->number, &m->place, 1, 0, NULL, 0,
					      XQ_D_ENCODING, XQ_SEV_WARNING, "%s",
					      xq_textdec_ambiguous_message(msg, sizeof(msg), m->enc));
				warned = 1;
			}
		} else if (in && !told) {
			xq_format_report(r->sink, r->name, g->number, &m->place, 1, 0, NULL, 0,
				      XQ_D_ENCODING, XQ_SEV_WARNING, "%s",
				      xq_textdec_foreign_message(msg, sizeof(msg), m->enc, r->enc));
			g->encoding = xq_encoding_name(m->enc);
			told = 1;
		}
	}
	if (more)
		xq_format_report(r->sink, r->name, g->number, NULL, 0, 0, NULL, 0, XQ_D_ENCODING,
			      XQ_SEV_ERROR, "and %llu more bytes of the record that are not text",
			      (unsigned long long)more);
}

/* At the end: one report for the bytes that were not text outside every record. */
static void report_outside(struct dh_reader *r)
{
	char msg[200];

	take_marks(r, NULL, 0, UINT64_MAX);
	if (r->outside == 0)
		return;
	if (r->first_outside.byte)
		snprintf(msg, sizeof(msg), "byte 0x%02X, not valid %s", r->first_outside.byte,
			 xq_encoding_name(r->first_outside.enc));
	else
		snprintf(msg, sizeof(msg), "a NUL byte");
	xq_format_report(r->sink, r->name, 0, &r->first_outside.place, 1, 0, NULL, 0, XQ_D_ENCODING,
		      XQ_SEV_ERROR,
		      "%llu bytes outside the DhtmlXQ records are not text (the first, at offset "
		      "%llu, is %s); skipped",
		      (unsigned long long)r->outside,
		      (unsigned long long)r->first_outside.place.offset, msg);
	r->outside = 0;
}

/* Read the record s[0, len) into g. */
static int read_record(struct dh_reader *r, struct xq_game *g, const char *s, size_t len,
		       struct dh_pos at, int exact, int implicit, size_t *consumed)
{
	int rc;

	xq_game_clear(g);
	g->number = ++r->games;
	g->source = r->name;
	g->encoding = xq_encoding_name(r->enc);
	g->place.line = at.line;
	g->place.col = at.col;
	g->place.offset = at.off;
	r->rec_at = at;
	r->exact = exact;
	rc = split_elements(r, g->number, s, len, implicit, consumed);
	if (!rc)
		rc = build_game(r, g);
	return rc;
}

/* URL-decoding (%hh, and %uhhhh as JavaScript's escape() writes). */
static int url_decode(struct xq_buf *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		if (s[i] == '%' && i + 2 < len + 0 && xq_hex_value((unsigned char)s[i + 1]) >= 0 &&
		    xq_hex_value((unsigned char)s[i + 2]) >= 0) {
			if (xq_buf_addc(out, (char)(xq_hex_value((unsigned char)s[i + 1]) * 16 +
						    xq_hex_value((unsigned char)s[i + 2]))))
				return XQ_ENOMEM;
			i += 3;
			continue;
		}
		if (s[i] == '%' && i + 5 < len && (s[i + 1] == 'u' || s[i + 1] == 'U')) {
			uint32_t cp = 0;
			int ok = 1;
			for (size_t k = 2; k < 6; k++) {
				int v = xq_hex_value((unsigned char)s[i + k]);
				ok &= v >= 0;
				cp = cp * 16 + (uint32_t)(v < 0 ? 0 : v);
			}
			if (ok && add_cp(out, cp) == 0) {
				i += 6;
				continue;
			}
		}
		if (xq_buf_addc(out, s[i]))
			return XQ_ENOMEM;
		i++;
	}
	return 0;
}

/*
 * A URL-encoded record at text index `o` ("%5BDhtmlXQ..."): it runs to the
 * first character a URL cannot hold.  Places inside it are the place of
 * its start.  Returns 1 with the game, 2 when it is no record after all
 * (the reading goes on after it), or a negative code.
 */
static int read_urlencoded(struct dh_reader *r, struct xq_game *g, size_t o)
{
	static const char stops[] = " \t\r\n\"'<>&";
	struct xq_buf dec = XQ_BUF_INIT;
	size_t end = o, consumed, cs, ce, skip;
	const char *s;
	int rc;

	budget_start(r, 1);
	for (uint64_t was = bytes_read(r) + (uint64_t)r->eof;;
	     XQ_ADVANCED(was, bytes_read(r) + (uint64_t)r->eof)) {
		while (end < r->text.len && !strchr(stops, r->text.ptr[end]))
			end++;
		if (end < r->text.len || r->eof)
			break;
		rc = fill(r);
		if (rc < 0)
			return rc;
	}
	rc = url_decode(&dec, r->text.ptr + o, end - o);
	if (!rc && xq_utf8_check(dec.ptr, dec.len) != dec.len) {
		report_at(r, r->games + 1, &r->at, 0, NULL, 0, XQ_D_ENCODING, XQ_SEV_ERROR,
			  "URL-encoded DhtmlXQ record whose bytes are not UTF-8; not read");
		xq_buf_release(&dec);
		advance(r, end);
		return 2; /* no record: the reading goes on after it */
	}
	s = dec.ptr;
	/* Inside: a wrapped record, or bare elements. */
	cs = 0;
	ce = dec.len;
	skip = 0;
	if (!strncmp(s, "[DhtmlXQ]", 9))
		skip = 9;
	else if (!strncmp(s, "[DhtmlXQiFrame]", 15))
		skip = 15;
	if (skip) {
		cs = skip;
		ce = find(s, dec.len, skip, skip == 9 ? "[/DhtmlXQ]" : "[/DhtmlXQiFrame]");
	}
	if (!rc)
		rc = read_record(r, g, s + cs, ce - cs, r->at, 0, 0, &consumed);
	if (!rc && had_bad_bytes(r, r->text_base + o, r->text_base + end))
		g->flags |= XQ_GAME_BROKEN;
	take_marks(r, g, r->text_base + o, r->text_base + end);
	xq_buf_release(&dec);
	advance(r, end);
	return rc ? rc : 1;
}

/* The record at r->at is longer than the limit: said, and reading stops. */
static int over_limit(struct dh_reader *r)
{
	struct xq_diag d;

	xq_diag_init(&d);
	xq_format_limit_diag(&d, &xq_format_dhtmlxq, &r->opts, "a DhtmlXQ record");
	report_at(r, r->games + 1, &r->at, 0, NULL, 0, XQ_D_RESOURCE, XQ_SEV_ERROR,
		  "%s; the rest of the input is not read", d.msg);
	return XQ_ERANGE;
}

/* Read the wrapped record whose content starts at text index `cs`. */
static int read_wrapped(struct dh_reader *r, struct xq_game *g, size_t o, size_t cs)
{
	size_t ce, after, consumed, from = cs;
	struct dh_pos at;
	int rc;

	/* Find the end: a closing wrapper, or a new record's opening one. */
	budget_start(r, 1);
	for (uint64_t was = bytes_read(r) + (uint64_t)r->eof;;
	     XQ_ADVANCED(was, bytes_read(r) + (uint64_t)r->eof)) {
		size_t h = from;
		ce = after = (size_t)-1;
		while ((h = find(r->text.ptr, r->text.len, h, "DhtmlXQ")) < r->text.len) {
			const char *t = r->text.ptr;
			size_t tail = h + 7, tl = 0;
			if (tail < r->text.len && t[tail] == ']')
				tl = 1;
			else if (r->text.len - tail >= 7 && !memcmp(t + tail, "iFrame]", 7))
				tl = 7;
			if (tl && h >= 2 && t[h - 2] == '[' && t[h - 1] == '/') {
				ce = h - 2;
				after = tail + tl;
				break;
			}
			if (tl && h >= 1 && t[h - 1] == '[') {
				ce = after = h - 1;
				break;
			}
			h++;
		}
		if (ce != (size_t)-1 || r->eof)
			break;
		if (r->text.len - o > MAX_RECORD)
			return over_limit(r);
		/* Search the new text only (with room for a tag cut at the end). */
		if (r->text.len > cs + 16)
			from = r->text.len - 16;
		rc = fill(r);
		if (rc < 0)
			return rc;
	}
	if (ce != (size_t)-1 && ce - o > MAX_RECORD)
		return over_limit(r);
	if (ce == (size_t)-1) {
		ce = after = r->text.len;
		report_at(r, r->games + 1, &r->at, 0, NULL, 0, XQ_D_TRUNCATED, XQ_SEV_WARNING,
			  "record without its closing [/DhtmlXQ]: read to the end of the input");
	} else if (ce == after) {
		report_at(r, r->games + 1, &r->at, 0, NULL, 0, XQ_D_TRUNCATED, XQ_SEV_WARNING,
			  "record without its closing [/DhtmlXQ]: read up to the next record");
	}
	at = r->at;
	pos_advance(&at, r->text.ptr + o, cs - o);
	rc = read_record(r, g, r->text.ptr + cs, ce - cs, at, 1, 0, &consumed);
	if (!rc && had_bad_bytes(r, r->text_base + o, r->text_base + after))
		g->flags |= XQ_GAME_BROKEN;
	take_marks(r, g, r->text_base + o, r->text_base + after);
	g->place.line = r->at.line; /* the record starts at its wrapper */
	g->place.col = r->at.col;
	g->place.offset = r->at.off;
	advance(r, after);
	return rc ? rc : 1;
}

/* Read the record of bare elements that starts at text index `o`: 1 with
 * the game, 2 when it is no record after all, or a negative code. */
static int read_implicit(struct dh_reader *r, struct xq_game *g, size_t o)
{
	size_t consumed, span;
	int rc;

	/* Where it ends: split quietly, and read on while it runs to the end of
	 * the text (at least doubling the text each time, so that a long record
	 * is split a few times, not once a block). */
	budget_start(r, 1);
	for (uint64_t was = bytes_read(r) + (uint64_t)r->eof;;
	     XQ_ADVANCED(was, bytes_read(r) + (uint64_t)r->eof)) {
		size_t want;
		r->quiet = 1;
		r->exact = 0;
		rc = split_elements(r, 0, r->text.ptr + o, r->text.len - o, 1, &span);
		r->quiet = 0;
		if (rc)
			return rc;
		if (o + span < r->text.len || r->eof)
			break;
		want = r->text.len + (r->text.len - o);
		do
			rc = fill(r);
		while (rc > 0 && r->text.len < want);
		if (rc < 0)
			return rc;
	}
	if (span == 0) {
		/* "[DhtmlXQ_" opens no element (cut short, or no name): no record. */
		report_at(r, 0, &r->at, 0, NULL, 0, XQ_D_SYNTAX, XQ_SEV_WARNING,
			  "'[DhtmlXQ_' that opens no element; not interpreted");
		advance(r, o + 9);
		return 2;
	}
	if (span > MAX_RECORD)
		return over_limit(r);
	rc = read_record(r, g, r->text.ptr + o, span, r->at, 1, 1, &consumed);
	if (!consumed)
		consumed = span;
	if (!rc && had_bad_bytes(r, r->text_base + o, r->text_base + o + consumed))
		g->flags |= XQ_GAME_BROKEN;
	take_marks(r, g, r->text_base + o, r->text_base + o + consumed);
	advance(r, o + consumed);
	return rc ? rc : 1;
}

/* How far the scanning has gone: the position, the bytes read, the end. */
static uint64_t scan_progress(const struct dh_reader *r)
{
	return r->text_base + r->pos + bytes_read(r) + (uint64_t)r->eof;
}

/* The next record (1), the end (0) or an error (negative). */
static int next_record(struct dh_reader *r, struct xq_game *g)
{
	budget_start(r, 0);
	for (uint64_t was = scan_progress(r);; XQ_ADVANCED(was, scan_progress(r))) {
		size_t h, o;
		const char *t;
		int rc;
		/* What was scanned past holds no record: its marks are counted. */
		take_marks(r, NULL, 0, r->text_base + r->pos);
		compact(r);
		if (r->text.len - r->pos < 32 && !r->eof) {
			rc = fill(r);
			if (rc < 0)
				return rc;
			continue;
		}
		h = find(r->text.ptr, r->text.len, r->pos, "tmlXQ");
		if (h == r->text.len) {
			/* Keep a tail that could start a tag cut by the buffer's end. */
			size_t keep = r->eof ? r->text.len : (r->text.len > r->pos + 16 ? r->text.len - 16 : r->pos);
			scan_html(r, r->text.ptr + r->pos, keep - r->pos);
			advance(r, keep);
			if (r->eof) {
				if (r->games == 0)
					report_at(r, 0, NULL, 0, NULL, 0, XQ_D_EMPTY_GAME,
						  XQ_SEV_WARNING, "no DhtmlXQ record in the input");
				return 0;
			}
			rc = fill(r);
			if (rc < 0)
				return rc;
			continue;
		}
		/* Make sure the tag around the hit is in the buffer. */
		if (h + 24 > r->text.len && !r->eof) {
			rc = fill(r);
			if (rc < 0)
				return rc;
			continue;
		}
		t = r->text.ptr;
		if (h >= 2 && t[h - 2] == 'D' && t[h - 1] == 'h') {
			o = h - 2;
		} else if (h >= 5 && !memcmp(t + h - 5, "[DHJH", 5)) {
			if (!r->dialect_noted) {
				advance(r, h - 5);
				report_at(r, r->games + 1, &r->at, 0, NULL, 0, XQ_D_UNSUPPORTED,
					  XQ_SEV_WARNING,
					  "DHJHtmlXQ (打虎将) records are a different dialect; not read");
				r->dialect_noted = 1;
			}
			advance(r, h + 5);
			continue;
		} else {
			advance(r, h + 5);
			continue;
		}
		scan_html(r, t + r->pos, o > r->pos ? o - r->pos : 0);
		/* A tag starts at or after the scanning position: what is before
		 * it was read already. */
		if (o >= r->pos + 1 && t[o - 1] == '[') {
			size_t tail = o + 7;
			advance(r, o - 1);
			if (tail < r->text.len && t[tail] == ']')
				return read_wrapped(r, g, o - 1, tail + 1);
			if (r->text.len - tail >= 7 && !memcmp(t + tail, "iFrame]", 7))
				return read_wrapped(r, g, o - 1, tail + 7);
			if (tail < r->text.len && t[tail] == '_') {
				rc = read_implicit(r, g, o - 1);
				if (rc != 2)
					return rc;
				continue; /* not a record after all */
			}
		} else if (o >= r->pos + 3 && t[o - 3] == '%' && t[o - 2] == '5' &&
			   (t[o - 1] == 'B' || t[o - 1] == 'b')) {
			advance(r, o - 3);
			r->html = 1;
			rc = read_urlencoded(r, g, o - 3);
			if (rc != 2)
				return rc;
			continue;
		}
		advance(r, o + 7);
	}
}

static int dh_read(void *reader, struct xq_game *g)
{
	struct dh_reader *r = reader;
	int rc;

	if (r->error)
		return r->error;
	rc = next_record(r, g);
	if (rc <= 0)
		report_outside(r);
	return xq_read_guard(&r->guard, rc, r->text_base + r->pos, g, r->sink);
}

static int dh_open_reader(void **out, struct xq_input *in, const struct xq_read_opts *opts,
			  const struct xq_sink *sink)
{
	struct dh_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return XQ_ENOMEM;
	r->in = in;
	r->sink = sink;
	r->name = xq_input_name(in);
	if (opts)
		r->opts = *opts;
	r->max_record = (size_t)xq_format_record_limit(&xq_format_dhtmlxq, opts);
	r->at.line = 1;
	r->at.col = 1;
	r->exact_end = UINT64_MAX;
	r->mark_abs = UINT64_MAX;
	budget_start(r, 0);
	xq_buf_init(&r->raw);
	xq_buf_init(&r->text);
	xq_buf_init(&r->tmp);
	xq_buf_init(&r->tmp2);
	if (opts && opts->encoding != XQ_ENC_UNKNOWN) {
		r->enc = opts->encoding;
		r->enc_known = 1;
		r->enc_given = 1;
		r->offsets = r->enc == XQ_ENC_UTF8;
	}
	*out = r;
	return 0;
}

static void dh_close_reader(void *reader)
{
	struct dh_reader *r = reader;

	if (r->td_live)
		xq_textdec_release(&r->td);
	free(r->foreign);
	xq_buf_release(&r->raw);
	xq_buf_release(&r->text);
	xq_buf_release(&r->tmp);
	xq_buf_release(&r->tmp2);
	free(r->bad);
	free(r->elems);
	free(r->br);
	free(r->order);
	free(r->bnodes);
	free(r->ckpt);
	free(r);
}

/* Writing. */

struct dh_writer {
	struct xq_output *o;
	const struct xq_sink *sink;
	const char *name;
	enum xq_encoding enc;
	struct xq_transcoder tc; /* UTF-8 to enc, opened once for the writer */
	uint64_t games;
	struct xq_buf out;      /* the record */
	struct xq_buf comments; /* its comment elements, written after the moves */
	struct xq_buf line, tmp;
};

/* Append UTF-8 `s` to `b` in the writer's encoding, as every writer does
 * (format.h, "Encoding"; `what` names the field). */
static int emit(struct dh_writer *w, struct xq_buf *b, const char *s, size_t len,
		const char *what)
{
	return xq_write_text(w->sink, w->o, w->games, 0, &w->tc, what, s, len, b, NULL);
}

/* [DhtmlXQ_name]value[/DhtmlXQ_name] into `b`, `value` already in DhtmlXQ form. */
static int element(struct dh_writer *w, struct xq_buf *b, const char *name, const char *value,
		   size_t len, const char *what)
{
	if (xq_buf_addf(b, "[DhtmlXQ_%s]", name))
		return XQ_ENOMEM;
	if (emit(w, b, value, len, what))
		return XQ_ENOMEM;
	return xq_buf_addf(b, "[/DhtmlXQ_%s]\n", name) ? XQ_ENOMEM : 0;
}

/*
 * The element for a tag, or NULL when it has none (`buf` holds 64 bytes):
 * the lower-case name dpxq uses when the reader turns it back into the
 * same tag (RedRating -> redrating), else the tag's own spelling
 * (DateModified), which the reader keeps as it is.
 */
static const char *element_of_tag(const char *tag, char *buf)
{
	size_t len = strlen(tag);
	char back[64];

	for (size_t i = 0; i < sizeof(dh_tags) / sizeof(dh_tags[0]); i++)
		if (!strcmp(tag, dh_tags[i].tag))
			return dh_tags[i].element;
	if (len == 0 || len >= 64)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		if (!name_char((unsigned char)tag[i]))
			return NULL;
		buf[i] = (char)xq_to_lower((unsigned char)tag[i]);
	}
	buf[len] = '\0';
	if (!strcmp(buf, "binit") || !strcmp(buf, "fen") || !strcmp(buf, "movelist") ||
	    !strcmp(buf, "result") || !strncmp(buf, "move_", 5) || !strncmp(buf, "comment", 7))
		return NULL;
	for (size_t i = 0; i < sizeof(dh_tags) / sizeof(dh_tags[0]); i++)
		if (!strcmp(buf, dh_tags[i].element))
			return NULL; /* "Place" would read back as Site */
	capitalise(back, buf, len);
	if (strcmp(back, tag))
		memcpy(buf, tag, len + 1);
	return buf;
}

/* Would "[" at v + i start a tag that ends the element? */
static int opens_tag(const char *v)
{
	return v[0] == '[' && (!strncmp(v + 1, "DhtmlXQ", 7) || !strncmp(v + 1, "/DhtmlXQ", 8));
}

/* A tag value in w->tmp, with any "[DhtmlXQ" defused (it would end the element). */
static int plain_value(struct dh_writer *w, const char *v, const char *tag)
{
	int defused = 0;

	xq_buf_reset(&w->tmp);
	for (size_t i = 0; v[i]; i++) {
		int rc;
		if (opens_tag(v + i)) {
			rc = xq_buf_adds(&w->tmp, "\xEF\xBC\xBB"); /* U+FF3B, a full-width [ */
			defused++;
		} else {
			rc = xq_buf_addc(&w->tmp, v[i]);
		}
		if (rc)
			return XQ_ENOMEM;
	}
	if (defused)
		xq_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEV_WARNING, XQ_D_LOSS, "tag %s: '[' before DhtmlXQ written as a full-width '[' (it would end "
			   "the element)",
		     tag);
	return 0;
}

static int is_hex4(const char *s)
{
	for (int k = 0; k < 4; k++)
		if (xq_hex_value((unsigned char)s[k]) < 0)
			return 0;
	return 1;
}

/*
 * A comment in DhtmlXQ form in w->tmp: newlines as "||"; carriage
 * returns, "||", "\uhhhh" and "[DhtmlXQ" in the text escaped as \u000d,
 * \u007c, \u005c and \u005b so that they read back as written
 * (comment_decode).
 */
static int comment_value(struct dh_writer *w, const char *c)
{
	struct xq_buf *b = &w->tmp;
	size_t len = strlen(c);
	int rc = 0;

	xq_buf_reset(b);
	for (size_t i = 0; i < len && !rc; i++) {
		if (c[i] == '\n') {
			rc = xq_buf_adds(b, "||");
		} else if (c[i] == '\r') {
			rc = xq_buf_adds(b, "\\u000d"); /* "||" is a bare newline */
		} else if (c[i] == '|' && i + 1 < len && c[i + 1] == '|') {
			rc = xq_buf_adds(b, "|\\u007c");
			i++;
		} else if (c[i] == '|' && i + 1 < len && c[i + 1] == '\n') {
			rc = xq_buf_adds(b, "\\u007c"); /* "|||" would read as a newline and a bar */
		} else if (c[i] == '\\' && i + 5 < len && c[i + 1] == 'u' && is_hex4(c + i + 2)) {
			rc = xq_buf_adds(b, "\\u005c");
		} else if (opens_tag(c + i)) {
			rc = xq_buf_adds(b, "\\u005b");
		} else {
			rc = xq_buf_addc(b, c[i]);
		}
	}
	return rc ? XQ_ENOMEM : 0;
}

static int write_comment(struct dh_writer *w, const char *name, const char *comment)
{
	int rc;

	if (!comment || !*comment)
		return 0;
	rc = comment_value(w, comment);
	return rc ? rc : element(w, &w->comments, name, w->tmp.ptr, w->tmp.len, "comment");
}

/* The result word to write, or NULL for none. */
static const char *result_element(const struct xq_game *g)
{
	enum xq_result r;

	/* The word as read, when it still says the same. */
	if (g->result_text && *g->result_text) {
		if (result_word(g->result_text, strlen(g->result_text), &r) == 0 ? r == g->result
										 : g->result == XQ_RESULT_UNKNOWN)
			return g->result_text;
	}
	switch (g->result) {
	case XQ_RESULT_RED_WIN:
		return "红胜";
	case XQ_RESULT_BLACK_WIN:
		return "黑胜";
	case XQ_RESULT_DRAW:
		return "和棋";
	case XQ_RESULT_UNKNOWN:
		return "未知";
	case XQ_RESULT_NONE:
		break;
	}
	return NULL;
}

/* The result element; an unknown word is a value like any other. */
static int write_result(struct dh_writer *w, const char *word)
{
	int rc = plain_value(w, word, "Result");

	return rc ? rc : element(w, &w->out, "result", w->tmp.ptr, w->tmp.len, "result");
}

static int write_tags(struct dh_writer *w, const struct xq_game *g)
{
	const char *word = result_element(g);
	int rc = 0, result_done = 0;

	for (size_t i = 0; i < g->ntags && !rc; i++) {
		const char *tag = g->tags[i].name, *v = g->tags[i].value, *el;
		char buf[64];
		if (!strcmp(tag, "FEN"))
			continue; /* the start position is written as binit */
		if (!strcmp(tag, "Result")) {
			/* The element says the game's result; a tag saying something else is lost. */
			enum xq_result r;
			const char *as_read = !word ? "" : result_word(word, strlen(word), &r) == 0
								  ? xq_result_string(r) : word;
			if (!result_done && word)
				rc = write_result(w, word);
			if (*v && (result_done || strcmp(v, as_read)))
				xq_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEV_WARNING, XQ_D_LOSS, "tag Result \"%s\" not written: %s", v,
				     result_done ? "the result is written once"
						 : "it is not the game's result");
			result_done = 1;
			continue;
		}
		if (!*v)
			continue;
		el = element_of_tag(tag, buf);
		if (!el) {
			xq_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEV_WARNING, XQ_D_LOSS, "tag '%s' (\"%s\") has no DhtmlXQ element; not written", tag, v);
			continue;
		}
		rc = plain_value(w, v, tag);
		if (!rc)
			rc = element(w, &w->out, el, w->tmp.ptr, w->tmp.len, tag);
	}
	if (!rc && !result_done && word)
		rc = write_result(w, word);
	return rc;
}

static int write_binit(struct dh_writer *w, const struct xq_game *g)
{
	/* Identity slots in binit's order R N B A K A B N R C C P P P P P. */
	static const uint8_t order[16] = {7, 5, 3, 1, 0, 2, 4, 6, 8, 9, 10, 11, 12, 13, 14, 15};
	const struct xq_board *b = &g->start;
	char binit[65];
	int rc;

	for (int side = 0; side < 2; side++)
		for (int i = 0; i < 16; i++) {
			xq_sq sq = b->pc[XQ_SIDE_TAG(side) + order[i]];
			char *p = binit + side * 32 + i * 2;
			p[0] = sq ? (char)('0' + XQ_SQ_FILE(sq)) : '9';
			p[1] = sq ? (char)('0' + 9 - XQ_SQ_RANK(sq)) : '9';
		}
	binit[64] = '\0';
	rc = element(w, &w->out, "binit", binit, 64, "binit");
	/* DhtmlXQ has red move first unless the first move says otherwise;
	 * with black to move, say it with vschess's FEN element too. */
	if (!rc && b->side == XQ_BLACK) {
		char fen[XQ_FEN_MAX];
		size_t n = xq_board_to_fen(b, fen, sizeof(fen));
		rc = element(w, &w->out, "fen", fen, n, "fen");
	}
	return rc;
}

/* A line to write: movelist (id 0) or move_P_S_B. */
struct dh_line {
	uint32_t first, parent_id, ply, id;
};

static int write_tree(struct dh_writer *w, const struct xq_game *g)
{
	struct dh_line *queue;
	size_t head = 0, tail = 0, cap = 64;
	uint32_t next_id = 1;
	int rc;

	queue = malloc(cap * sizeof(*queue));
	if (!queue)
		return XQ_ENOMEM;
	queue[tail++] = (struct dh_line){g->nodes[XQ_ROOT].child, 0, 1, 0};
	rc = write_comment(w, "comment0", g->nodes[XQ_ROOT].comment);
	/* Breadth first: a branch is written after the line it leaves. */
	while (head < tail && !rc) {
		struct dh_line L = queue[head++];
		uint32_t ply = L.ply;
		char name[48];
		xq_buf_reset(&w->line);
		for (uint32_t n = L.first; n != XQ_NODE_NONE && !rc; n = g->nodes[n].child, ply++) {
			const struct xq_node *x = &g->nodes[n];
			xq_sq f = XQ_MOVE_FROM(x->move), t = XQ_MOVE_TO(x->move);
			if (xq_buf_addf(&w->line, "%d%d%d%d", XQ_SQ_FILE(f), 9 - XQ_SQ_RANK(f),
					XQ_SQ_FILE(t), 9 - XQ_SQ_RANK(t)))
				rc = XQ_ENOMEM;
			if (L.id == 0)
				snprintf(name, sizeof(name), "comment%u", (unsigned)ply);
			else
				snprintf(name, sizeof(name), "comment%u_%u", (unsigned)L.id,
					 (unsigned)ply);
			if (!rc)
				rc = write_comment(w, name, x->comment);
			/* Alternatives to a branch's first move belong to the line it leaves. */
			if (n == L.first && L.id != 0)
				continue;
			for (uint32_t s = x->sibling; s != XQ_NODE_NONE && !rc; s = g->nodes[s].sibling) {
				if (XQ_ALLOC_GROW(queue, tail + 1, cap)) {
					rc = XQ_ENOMEM;
					break;
				}
				queue[tail++] = (struct dh_line){s, L.id, ply, next_id++};
			}
		}
		if (rc)
			break;
		if (L.id == 0)
			snprintf(name, sizeof(name), "movelist");
		else
			snprintf(name, sizeof(name), "move_%u_%u_%u", (unsigned)L.parent_id,
				 (unsigned)L.ply, (unsigned)L.id);
		rc = element(w, &w->out, name, w->line.ptr, w->line.len, "moves");
	}
	free(queue);
	if (!rc && xq_buf_add(&w->out, w->comments.ptr, w->comments.len))
		rc = XQ_ENOMEM;
	xq_write_losses(w->sink, w->o, w->games, g, xq_format_dhtmlxq.caps, 0, "DhtmlXQ");
	return rc;
}

static int dh_write(void *writer, const struct xq_game *g)
{
	struct dh_writer *w = writer;
	int rc;

	if ((rc = xq_write_start_check(w->sink, w->o, g, "DhtmlXQ", 0)))
		return rc;
	w->games++;
	xq_buf_reset(&w->out);
	xq_buf_reset(&w->comments);
	rc = xq_buf_adds(&w->out, w->games > 1 ? "\n[DhtmlXQ]\n" : "[DhtmlXQ]\n") ? XQ_ENOMEM : 0;
	if (!rc)
		rc = write_tags(w, g);
	if (!rc)
		rc = write_binit(w, g);
	if (!rc)
		rc = write_tree(w, g);
	if (!rc && xq_buf_adds(&w->out, "[/DhtmlXQ]\n"))
		rc = XQ_ENOMEM;
	if (rc)
		return rc;
	return xq_output_write(w->o, w->out.ptr, w->out.len);
}

static int dh_open_writer(void **out, struct xq_output *o, const struct xq_write_opts *opts,
			  const struct xq_sink *sink)
{
	struct dh_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return XQ_ENOMEM;
	w->o = o;
	w->sink = sink;
	w->name = xq_output_name(o);
	w->enc = opts && opts->encoding != XQ_ENC_UNKNOWN ? opts->encoding : XQ_ENC_UTF8;
	xq_transcoder_init(&w->tc, XQ_ENC_UTF8, w->enc);
	xq_buf_init(&w->out);
	xq_buf_init(&w->comments);
	xq_buf_init(&w->line);
	xq_buf_init(&w->tmp);
	*out = w;
	return 0;
}

static int dh_close_writer(void *writer)
{
	struct dh_writer *w = writer;

	xq_transcoder_release(&w->tc);
	xq_buf_release(&w->out);
	xq_buf_release(&w->comments);
	xq_buf_release(&w->line);
	xq_buf_release(&w->tmp);
	free(w);
	return 0;
}

static int dh_probe(const unsigned char *head, size_t len)
{
	const char *s = (const char *)head;

	if (find(s, len, 0, "[DhtmlXQ") < len)
		return 90;
	if (find(s, len, 0, "%5BDhtmlXQ") < len || find(s, len, 0, "%5bDhtmlXQ") < len)
		return 80;
	return 0;
}

const struct xq_format xq_format_dhtmlxq = {
	"dhtmlxq",
	"DhtmlXQ / UBB records of dpxq.com, also inside HTML pages (many games, variations, comments)",
	".ubb .html",
	XQ_CAP_READ | XQ_CAP_WRITE | XQ_CAP_MULTI | XQ_CAP_VARIATIONS | XQ_CAP_COMMENTS |
		XQ_CAP_ANY_TAGS,
	dh_probe,
	dh_open_reader,
	dh_read,
	dh_close_reader,
	dh_open_writer,
	dh_write,
	dh_close_writer,
	DH_MAX_RECORD,
	DH_MEM_FACTOR,
	"ubb",
};
