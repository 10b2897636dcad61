/*
 * cbr.c: CBR, the binary record of CCBridge (象棋桥): the reader, and
 * the window and record reading that the CBL readers (cbl.c, cbl_zlib.c)
 * share; records are written by cbr_write.c.
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
 */
#include "cbr_int.h"
#include "flattree.h"

/* Start a task that may read `budget` bytes of input from `from` on. */
void xqi_cbr_budget_start(struct cbr_reader *r, int task, uint64_t from, uint64_t budget)
{
	r->task = task;
	r->budget_from = from;
	r->budget = budget;
}

/* The task read past its budget: say so, and read no further. */
static long over_budget(struct cbr_reader *r)
{
	if (r->task == TASK_RECORD) {
		struct xq_diagnostic d;
		xqi_diagnostic_init(&d);
		xqi_format_limit_diag(&d, r->fmt, &r->opts, "a record");
		xqi_cbr_report(r, r->games, r->budget_from, 0, NULL, XQI_D_RESOURCE, XQ_SEVERITY_ERROR,
		       "%s; the rest of the input is not read", d.msg);
	} else if (r->task == TASK_SEARCH)
		xqi_cbr_report(r, 0, r->budget_from, 0, NULL, XQI_D_RESOURCE, XQ_SEVERITY_ERROR,
		       "more than %llu MiB from here hold no record; the rest of the input is "
		       "not read",
		       (unsigned long long)(XQI_SKIP_MAX >> 20));
	else
		xqi_cbr_report(r, 0, r->budget_from, 0, NULL, XQI_D_RESOURCE, XQ_SEVERITY_ERROR,
		       "the compressed data part runs more than %llu MiB past the size it "
		       "inflates to; the rest of the input is not read",
		       (unsigned long long)(XQI_SKIP_MAX >> 20));
	return r->w.error = XQ_ERANGE;
}

/* Read more input; 0 at the end, negative on error. */
long xqi_cbr_window_fill(struct cbr_reader *r)
{
	struct window *w = &r->w;
	struct xq_diagnostic d;
	long n;

	if (w->eof || w->error)
		return 0;
	if (w->base + w->len - r->budget_from > r->budget)
		return over_budget(r);
	if (XQ_ALLOC_GROW(w->buf, w->len + CHUNK, w->cap))
		return w->error = XQ_ENOMEM;
	xqi_diagnostic_init(&d);
	n = xqi_input_read(w->in, w->buf + w->len, CHUNK, &d);
	if (n < 0) {
		d.source = r->name;
		xqi_sink_report(r->sink, &d);
		w->error = (int)n;
		return n;
	}
	if (n == 0)
		w->eof = 1;
	w->len += (size_t)n;
	return n;
}

/* The `n` bytes at absolute offset `off`, or NULL if the input ends first. */
const unsigned char *xqi_cbr_window_get(struct cbr_reader *r, uint64_t off, size_t n)
{
	struct window *w = &r->w;

	if (off < w->base)
		return NULL; /* dropped already: a bug in the caller */
	while (off + n > w->base + w->len)
		if (xqi_cbr_window_fill(r) <= 0)
			return NULL;
	return w->buf + (off - w->base);
}

/* Forget the bytes before `off`. */
void xqi_cbr_window_drop(struct window *w, uint64_t off)
{
	size_t k;

	if (off <= w->base)
		return;
	k = off - w->base > w->len ? w->len : (size_t)(off - w->base);
	memmove(w->buf, w->buf + k, w->len - k);
	w->len -= k;
	w->base += k;
}

uint32_t xqi_cbr_get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}


void xqi_cbr_report(const struct cbr_reader *r, uint64_t game, uint64_t off, uint32_t ply,
		   const char *move, enum xqi_diagnostic_code code, enum xq_severity_level sev, const char *fmt,
		   ...)
{
	struct xqi_place pl = {off, 0, 0};
	va_list ap;

	va_start(ap, fmt);
	xqi_format_vreport(r->sink, r->name, game, &pl, 1, ply, move, move ? strlen(move) : 0, code,
		       sev, fmt, ap);
	va_end(ap);
}

/*
 * Decode `len` bytes of UTF-16LE (up to the first NUL unit) into `out`
 * (reset first).  A bad sequence is reported at its offset; what came
 * before it is kept.  Returns 0 or XQ_ENOMEM.
 */
int xqi_cbr_utf16_field(struct cbr_reader *r, uint64_t game, const unsigned char *p,
		       size_t len, uint64_t off, struct xq_buf *out)
{
	size_t n = 0, bad = 0;
	int rc;

	xq_buf_reset(out);
	while (n + 1 < len && (p[n] | p[n + 1]))
		n += 2;
	if (n == 0)
		return 0;
	rc = xqi_transcoder_convert(&r->utf16, (const char *)p, n, out, &bad);
	if (rc == XQ_EENCODING) {
		xqi_cbr_report(r, game, off + bad, 0, NULL, XQI_D_ENCODING, XQ_SEVERITY_ERROR,
		       "bytes that are not UTF-16LE text; the text stops before them");
		rc = 0;
	}
	return rc;
}


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
	const struct xqi_ccb_field *f = xqi_ccb_field_by_element(element, strlen(element));
	return f ? f->tag : element;
}

int xqi_cbr_add_tag(struct xqi_record *g, const char *name, const char *value, size_t len)
{
	return xqi_record_add_tag(g, name, strlen(name), value, len);
}

/* The header fields of a record at `base` (h: its first `hlen` bytes). */
static int read_fields(struct cbr_reader *r, struct xqi_record *g, const unsigned char *h,
		       uint64_t base, int version)
{
	struct xq_buf text = XQ_BUF_INIT;
	char ecco[5];
	uint32_t v;
	int rc = 0;

	for (const struct xqi_ccb_slot *f = xqi_cbr_fields; f->name && !rc; f++) {
		size_t off = at(version, f->off);
		if (!off)
			continue;
		rc = xqi_cbr_utf16_field(r, g->number, h + off, f->size, base + off, &text);
		if (!rc && text.len)
			rc = xqi_cbr_add_tag(g, tag_of(f->name), text.ptr, text.len);
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
			rc = xqi_cbr_add_tag(g, "ECCO", ecco, n);
		else
			xqi_cbr_report(r, g->number, base + at(version, 2036), 0, NULL, XQI_D_CORRUPT,
			       XQ_SEVERITY_WARNING, "the ECCO field holds bytes that are not a code; not read");
	}
	if (!rc) {
		char num[16];
		int n = snprintf(num, sizeof(num), "%u", (unsigned)xqi_cbr_get_u32(h + at(version, 2040)));
		rc = xqi_cbr_add_tag(g, "RecordType", num, (size_t)n);
	}
	if (!rc) {
		struct xq_buf kind = XQ_BUF_INIT;
		rc = xqi_cbr_utf16_field(r, g->number, h + at(version, 2044), 32, base + at(version, 2044),
				 &kind);
		if (!rc && kind.len)
			rc = xqi_cbr_add_tag(g, "RecordKind", kind.ptr, kind.len);
		v = xqi_cbr_get_u32(h + at(version, 2076));
		if (!rc && xqi_ccb_result_from_code(v, &g->result) == 0) {
			const char *s = xqi_result_string(g->result);
			rc = xqi_cbr_add_tag(g, "Result", s, strlen(s));
		} else if (!rc) {
			char num[16];
			int n = snprintf(num, sizeof(num), "%u", (unsigned)v);
			g->result = XQI_RESULT_UNKNOWN;
			g->result_text = xqi_record_strdup(g, num, (size_t)n);
			xqi_cbr_report(r, g->number, base + at(version, 2076), 0, NULL, XQI_D_NO_RESULT,
			       XQ_SEVERITY_NOTE,
			       "result code %u is not one this reader knows (0-3); the result is "
			       "taken as unknown",
			       (unsigned)v);
			rc = xqi_cbr_add_tag(g, "Result", num, (size_t)n);
		}
		if (!rc)
			rc = xqi_cbr_utf16_field(r, g->number, h + at(version, 2080), 32,
					 base + at(version, 2080), &kind);
		if (!rc && kind.len)
			rc = xqi_cbr_add_tag(g, "ResultType", kind.ptr, kind.len);
		xq_buf_release(&kind);
	}
	return rc;
}

/*
 * Set up the start position: 0, 1 when it is unusable (reported), 2 when
 * the board is empty (libraries use such records as headings).
 */
static int read_board(struct cbr_reader *r, struct xqi_record *g, const unsigned char *h,
		      uint64_t base, int version)
{
	static const int8_t types[8] = {-1, XQI_ROOK, XQI_HORSE, XQI_ELEPHANT, XQI_ADVISOR, XQI_KING,
					XQI_CANNON, XQI_PAWN};
	const unsigned char *board = h + at(version, 2120);
	uint32_t side = xqi_cbr_get_u32(h + at(version, 2112));
	unsigned first = (unsigned)h[at(version, 2116)] | (unsigned)h[at(version, 2116) + 1] << 8;
	struct xqi_position b;
	struct xq_diagnostic d;
	int pieces = 0;

	xqi_position_clear(&b);
	for (int i = 0; i < 90; i++)
		pieces += board[i] != 0;
	if (pieces == 0)
		return 2;
	for (int i = 0; i < 90; i++) {
		unsigned c = board[i];
		int s = c >> 4, t = c & 15;
		if (!c)
			continue;
		xqi_diagnostic_init(&d);
		if ((s != 1 && s != 2) || t < 1 || t > 7 ||
		    xqi_position_put(&b, s - 1, types[t], XQI_SQ(i % 9, 9 - i / 9), &d)) {
			xqi_cbr_report(r, g->number, base + at(version, 2120) + (uint64_t)i, 0, NULL,
			       XQI_D_CORRUPT, XQ_SEVERITY_ERROR,
			       "board byte 0x%02x at row %d, column %d is not a piece that can be "
			       "there%s%s; no move can be read",
			       c, i / 9, i % 9, d.msg[0] ? ": " : "", d.msg);
			return 1;
		}
	}
	if (side != 1 && side != 2) {
		xqi_cbr_report(r, g->number, base + at(version, 2112), 0, NULL, XQI_D_CORRUPT, XQ_SEVERITY_WARNING,
		       "side to move %u is neither 1 (red) nor 2 (black); red assumed",
		       (unsigned)side);
		side = 1;
	}
	b.side = side == 2 ? XQI_BLACK : XQI_RED;
	b.fullmove = first ? (uint16_t)first : 1;
	b.key = xqi_position_compute_key(&b);
	xqi_diagnostic_init(&d);
	if (xqi_position_validate(&b, XQI_FEN_LENIENT_PLACEMENT, &d)) {
		xqi_cbr_report(r, g->number, base + at(version, 2120), 0, NULL, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
		       "start position: %s; no move can be read", d.msg);
		return 1;
	}
	g->start = b;
	return 0;
}

/* A square byte of version `version`, or 0 when it names no square. */
static xqi_sq square(int version, unsigned char c)
{
	if (version == 1) {
		int x = c >> 4, y = c & 15;
		return x <= 8 && y <= 9 ? XQI_SQ(x, 9 - y) : 0;
	}
	return c < 90 ? XQI_SQ(c % 9, 9 - c / 9) : 0;
}

/* Comment text: UTF-16LE to UTF-8 with CRLF as LF. */
static int set_comment(struct cbr_reader *r, struct xqi_record *g, uint32_t node, uint32_t ply,
		       const unsigned char *p, uint32_t len, uint64_t off, struct xq_buf *tmp)
{
	size_t bad = 0, j = 0;
	int rc;

	xq_buf_reset(tmp);
	rc = xqi_transcoder_convert(&r->utf16, (const char *)p, len, tmp, &bad);
	if (rc == XQ_EENCODING) {
		xqi_cbr_report(r, g->number, off + bad, ply, NULL, XQI_D_ENCODING,
		       XQ_SEVERITY_ERROR, "comment: bytes that are not UTF-16LE text; the comment stops "
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
	return tmp->len ? xqi_record_set_comment(g, node, tmp->ptr, tmp->len) : 0;
}

/* The record runs past its limit (r->cap): said, and reading stops. */
static int over_limit(struct cbr_reader *r, const struct xqi_record *g)
{
	struct xq_diagnostic d;
	char what[64];

	xqi_diagnostic_init(&d);
	snprintf(what, sizeof(what), "record %llu", (unsigned long long)g->number);
	xqi_format_limit_diag(&d, r->fmt, &r->opts, what);
	xqi_cbr_report(r, g->number, g->place.offset, 0, NULL, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "%s", d.msg);
	return XQ_ERANGE;
}

/*
 * The length of the comment of the node at `here`, its 4 bytes at *pos
 * (moved past them): 0 with *clen set; 1 when the record ends inside it
 * (reported, the game broken); or a negative code (I/O, the record's
 * limit reported).
 */
static int comment_length(struct cbr_reader *r, struct xqi_record *g, uint64_t here, uint64_t *pos,
			  uint64_t limit, uint32_t *clen)
{
	const unsigned char *p = *pos + 4 <= limit ? xqi_cbr_window_get(r, *pos, 4) : NULL;

	*clen = p ? xqi_cbr_get_u32(p) : 0;
	if (!p || *clen > CBR_MAX_COMMENT || (*clen & 1) || *pos + 4 + *clen > limit ||
	    !xqi_cbr_window_get(r, *pos + 4, *clen)) {
		if (r->w.error)
			return r->w.error;
		g->flags |= XQI_RECORD_BROKEN;
		if (limit == r->cap && (*pos + 4 > limit || (p && *pos + 4 + *clen > limit)))
			return over_limit(r, g);
		xqi_cbr_report(r, g->number, here, 0, NULL, XQI_D_TRUNCATED, XQ_SEVERITY_ERROR,
		       "comment of %u bytes runs past the end of the record", (unsigned)*clen);
		return 1;
	}
	*pos += 4;
	return 0;
}

/*
 * A move node of the tree at `here` (bytes `raw`, move `m`, its comment of
 * `clen` bytes at `pos`), into `t`.  A move refused is said once its
 * subtree is over, with what it cost (lib/flattree.h).  0 or a negative
 * code.
 */
static int take_move(struct cbr_reader *r, struct xqi_record *g, struct xqi_flat_tree *t,
		     uint64_t here, const unsigned char raw[4], xqi_move m, uint32_t clen,
		     uint64_t pos, struct xq_buf *tmp)
{
	uint32_t node = XQ_NO_NODE, ply = t->parent != XQ_NO_NODE ? t->ply + 1 : 0;
	char name[8] = "";
	struct xq_diagnostic d;
	int added, rc = 0;

	if (m)
		xqi_move_name(m, name);
	xqi_diagnostic_init(&d);
	added = xqi_flat_tree_add(t, m, raw[0] & 2, raw[0] & 1, &node, &d);
	if (added == XQ_EILLEGAL || added == XQ_EPARSE) {
		struct xqi_sink hold = xqi_flat_tree_holder(t);
		struct xqi_place pl = {here, 0, 0};
		if (added == XQ_EPARSE)
			xqi_format_report(&hold, r->name, g->number, &pl, 1, ply, NULL, 0, XQI_D_CORRUPT,
					 XQ_SEVERITY_ERROR, "move bytes %02x %02x name no square", raw[2],
					 raw[3]);
		else
			xqi_format_report(&hold, r->name, g->number, &pl, 1, ply, name, strlen(name),
					 XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_ERROR, "illegal move %s: %s", name,
					 d.msg);
	} else if (added == 1) {
		g->nodes[node].place.offset = here;
		if (clen)
			rc = set_comment(r, g, node, ply, xqi_cbr_window_get(r, pos, clen), clen, pos, tmp);
	} else if (added < 0) {
		rc = added;
	}
	if (xqi_flat_tree_cut_done(t, 0, &d))
		xqi_sink_report(r->sink, &d);
	return rc;
}

/*
 * Read the move tree of a record whose nodes start at `pos`, up to
 * `limit` (exclusive).  *end gets the offset after the last node.
 * Returns 0 or a negative code (input error or no memory).
 */
static int read_tree(struct cbr_reader *r, struct xqi_record *g, uint64_t pos, uint64_t limit,
		     int version, int playable, uint64_t *end, uint32_t *unread)
{
	struct xqi_flat_tree t;
	struct xq_buf tmp = XQ_BUF_INIT;
	int root = 1, noted_flags = 0, rc = 0;
	uint32_t entries = 0;

	xqi_flat_tree_init(&t, g);
	/* Every node takes 4 bytes at least. */
	for (uint64_t was = pos; !t.complete; XQI_ADVANCED(was, pos)) {
		const unsigned char *p = pos + 4 <= limit ? xqi_cbr_window_get(r, pos, 4) : NULL;
		unsigned char raw[4];
		unsigned flags;
		uint32_t clen = 0;
		uint64_t here = pos;
		xqi_sq from, to;
		xqi_move m = 0;

		if (!p) {
			if (r->w.error)
				rc = r->w.error;
			else if (limit == r->cap && pos + 4 > limit)
				rc = over_limit(r, g);
			else
				xqi_cbr_report(r, g->number, pos, 0, NULL, XQI_D_TRUNCATED, XQ_SEVERITY_ERROR,
				       "the record ends inside its move tree");
			g->flags |= XQI_RECORD_BROKEN;
			break;
		}
		memcpy(raw, p, 4); /* p dies with the next window_get */
		flags = raw[0];
		from = square(version, raw[2]);
		to = square(version, raw[3]);
		if (!noted_flags && ((flags & ~7u) || raw[1])) {
			xqi_cbr_report(r, g->number, pos, 0, NULL, XQI_D_UNSUPPORTED, XQ_SEVERITY_NOTE,
			       "move node flags 0x%02x%02x have bits this reader does not know; "
			       "they are ignored",
			       raw[0], raw[1]);
			noted_flags = 1;
		}
		if (from && to)
			m = XQI_MOVE(from, to);
		pos += 4;
		if ((flags & 4) && (rc = comment_length(r, g, here, &pos, limit, &clen)) != 0) {
			rc = rc > 0 ? 0 : rc;
			break;
		}
		if (root) {
			root = 0;
			if (clen)
				rc = set_comment(r, g, XQI_ROOT, 0, xqi_cbr_window_get(r, pos, clen), clen,
						 pos, &tmp);
			pos += clen;
			if (rc)
				break;
			if (from != to || !from)
				xqi_cbr_report(r, g->number, here, 0, NULL, XQI_D_CORRUPT, XQ_SEVERITY_WARNING,
				       "the root node names a move (bytes %02x %02x); taken as the "
				       "root",
				       raw[2], raw[3]);
			if (flags & 1)
				t.complete = 1;
			if (!playable)
				t.parent = XQ_NO_NODE; /* no position: every move is skipped */
			continue;
		}
		entries++;
		rc = take_move(r, g, &t, here, raw, m, clen, pos, &tmp);
		pos += clen;
		if (rc)
			break;
	}
	{
		struct xq_diagnostic cut;
		if (xqi_flat_tree_cut_done(&t, 1, &cut))
			xqi_sink_report(r->sink, &cut);
	}
	*unread = t.skipped;
	if (entries == 0)
		g->flags |= XQI_RECORD_EMPTY;
	*end = pos;
	xqi_flat_tree_release(&t);
	xq_buf_release(&tmp);
	return rc;
}

/*
 * Read the record that starts at `base` (its magic is there) into `g`;
 * it may not go past `limit`.  *end gets the offset after the record.
 * Returns 0 (g filled, perhaps broken) or a negative code.
 */
int xqi_cbr_read_record(struct cbr_reader *r, struct xqi_record *g, uint64_t base, uint64_t limit,
		       uint64_t *end)
{
	const unsigned char *h = xqi_cbr_window_get(r, base, 20);
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
		xqi_cbr_report(r, g->number, base, 0, NULL, XQI_D_BAD_MAGIC, XQ_SEVERITY_ERROR,
		       "not a CCBridge record (no \"CCBridge Record\" magic)");
		return r->w.error ? r->w.error : XQ_EPARSE;
	}
	version = h[19];
	if (version != 1 && version != 2) {
		xqi_cbr_report(r, g->number, base + 19, 0, NULL, XQI_D_UNSUPPORTED, XQ_SEVERITY_ERROR,
		       "CBR version %d is not supported (1 and 2 are%s)", version,
		       version == 3 ? "; CCBridge itself asks to upgrade to read 3" : "");
		g->flags |= XQI_RECORD_BROKEN | XQI_RECORD_EMPTY;
		*end = base + 20;
		return 0;
	}
	hlen = version == 1 ? 1958 : 2214;
	h = base + hlen <= limit ? xqi_cbr_window_get(r, base, hlen) : NULL;
	if (!h) {
		xqi_cbr_report(r, g->number, base, 0, NULL, XQI_D_TRUNCATED, XQ_SEVERITY_ERROR,
		       "the record ends inside its %zu-byte header", hlen);
		g->flags |= XQI_RECORD_BROKEN | XQI_RECORD_EMPTY;
		*end = limit != UINT64_MAX ? limit : r->w.base + r->w.len;
		return r->w.error;
	}
	rc = read_fields(r, g, h, base, version);
	if (rc)
		return rc;
	h = xqi_cbr_window_get(r, base, hlen); /* read_fields did not move the window, but be plain */
	if (xqi_cbr_get_u32(h + hlen - 4) != 0xFFFFFFFFu)
		xqi_cbr_report(r, g->number, base + hlen - 4, 0, NULL, XQI_D_UNSUPPORTED, XQ_SEVERITY_NOTE,
		       "the 4 bytes before the move tree are %08x where records mostly have "
		       "ffffffff; what they mean is not known; ignored",
		       (unsigned)xqi_cbr_get_u32(h + hlen - 4));
	board = read_board(r, g, h, base, version);
	if (board == 1)
		g->flags |= XQI_RECORD_BROKEN;
	/* Even without a position the tree is walked: its end, and the game comment. */
	rc = read_tree(r, g, base + hlen, limit, version, board == 0, end, &unread);
	if (rc || board != 2)
		return rc;
	if (unread) {
		xqi_cbr_report(r, g->number, base + at(version, 2120), 0, NULL, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
		       "the board is empty, yet the record has %u moves; they are not read",
		       (unsigned)unread);
		g->flags |= XQI_RECORD_BROKEN;
	} else {
		xqi_cbr_report(r, g->number, base + at(version, 2120), 0, NULL, XQI_D_EMPTY_GAME, XQ_SEVERITY_NOTE,
		       "a record with an empty board and no moves (a heading%s); read as a game "
		       "with no moves from the standard position",
		       g->nodes[XQI_ROOT].comment ? " with a comment" : "");
	}
	return 0; /* g->start stays the standard position: there is none to give */
}

int xqi_cbr_open_common(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
		       const struct xqi_sink *sink, const struct xqi_format *fmt)
{
	struct cbr_reader *r = calloc(1, sizeof(*r));
	struct xqi_read_opts def = XQI_READ_OPTS_INIT;

	if (!r)
		return XQ_ENOMEM;
	r->opts = opts ? *opts : def;
	r->fmt = fmt;
	/* A library record is held to a CBR record's limit (lowered by the budget). */
	r->record_limit = xqi_format_record_limit(&xqi_format_cbr, &r->opts);
	r->w.in = in;
	r->sink = sink;
	r->name = xqi_input_name(in);
	r->library = fmt != &xqi_format_cbr;
	xqi_cbr_budget_start(r, TASK_RECORD, 0, r->record_limit); /* a header is part of a record */
	xqi_transcoder_init(&r->utf16, XQI_ENC_UTF16LE, XQI_ENC_UTF8);
	xqi_transcoder_init(&r->gbk, XQI_ENC_GB18030, XQI_ENC_UTF8);
	*out = r;
	return 0;
}

int xqi_cbr_open_reader(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
			   const struct xqi_sink *sink)
{
	return xqi_cbr_open_common(out, in, opts, sink, &xqi_format_cbr);
}

void xqi_cbr_close_reader(void *reader)
{
	struct cbr_reader *r = reader;

	for (size_t i = 0; i < r->nindex; i++)
		free(r->index[i].title);
	free(r->index);
	for (size_t i = 0; i < sizeof(r->lib_tags) / sizeof(r->lib_tags[0]); i++)
		free(r->lib_tags[i]);
	xqi_transcoder_release(&r->utf16);
	xqi_transcoder_release(&r->gbk);
	if (r->z) {
		free(r->z->data);
		free(r->z->other);
		free(r->z);
	}
	free(r->w.buf);
	free(r);
}

/* The library fields as tags of `g`; the remark only on the first game. */
int xqi_cbr_library_tags(struct cbr_reader *r, struct xqi_record *g)
{
	int rc = 0;

	for (size_t i = 0; xqi_cbl_fields[i].name && !rc; i++) {
		if (!r->lib_tags[i])
			continue;
		if (!xqi_cbl_fields[i + 1].name) { /* the remark */
			if (r->remark_given)
				continue;
			r->remark_given = 1;
		}
		rc = xqi_cbr_add_tag(g, xqi_cbl_fields[i].name, r->lib_tags[i], strlen(r->lib_tags[i]));
	}
	return rc;
}

void xqi_cbr_start_game(struct cbr_reader *r, struct xqi_record *g)
{
	xqi_record_clear(g);
	g->number = ++r->games;
	g->source = r->name;
	g->encoding = "utf-16le";
}

/*
 * Report the bytes from `from` (after what was read) to the end of the
 * input, which are not read (`what`: what they follow); read at most
 * XQI_SKIP_MAX of them, keeping nothing.
 */
void xqi_cbr_skip_to_end(struct cbr_reader *r, uint64_t game, uint64_t from, const char *what)
{
	uint64_t total = r->w.base + r->w.len;

	/* The loop stops itself past XQI_SKIP_MAX; the budget is only a net. */
	xqi_cbr_budget_start(r, TASK_SEARCH, from, 2 * XQI_SKIP_MAX);
	xqi_cbr_window_drop(&r->w, total);
	while (total - from <= XQI_SKIP_MAX && xqi_cbr_window_fill(r) > 0) {
		total = r->w.base + r->w.len;
		xqi_cbr_window_drop(&r->w, total);
	}
	if (total - from > XQI_SKIP_MAX)
		xqi_cbr_report(r, game, from, 0, NULL, XQI_D_RESOURCE, XQ_SEVERITY_ERROR,
		       "more than %llu MiB after %s are not read; reading stopped there",
		       (unsigned long long)(XQI_SKIP_MAX >> 20), what);
	else
		xqi_cbr_report(r, game, from, 0, NULL, XQI_D_TRAILING, XQ_SEVERITY_WARNING,
		       "%llu bytes after %s are not read", (unsigned long long)(total - from), what);
}

int xqi_cbr_read(void *reader, struct xqi_record *g)
{
	struct cbr_reader *r = reader;
	uint64_t end;
	int rc;

	if (r->done)
		return 0;
	r->done = 1;
	xqi_cbr_start_game(r, g);
	xqi_cbr_budget_start(r, TASK_RECORD, 0, r->record_limit);
	rc = xqi_cbr_read_record(r, g, 0, UINT64_MAX, &end);
	if (rc < 0)
		return rc;
	if (xqi_cbr_window_get(r, end, 1))
		xqi_cbr_skip_to_end(r, g->number, end, "the end of the move tree");
	return xqi_read_guard(&r->guard, r->w.error ? (int)r->w.error : 1, end, g, r->sink);
}

static int cbr_probe(const unsigned char *head, size_t len)
{
	return len >= 16 && !memcmp(head, CBR_MAGIC, 16) ? 100 : 0;
}

const struct xqi_format xqi_format_cbr = {
	"cbr",
	"CCBridge (象棋桥) binary record, one game with variations and comments; writes version 2",
	".cbr",
	XQI_CBR_CAPS,
	cbr_probe,
	xqi_cbr_open_reader,
	xqi_cbr_read,
	xqi_cbr_close_reader,
	xqi_cbr_open_writer,
	xqi_cbr_write,
	xqi_cbr_close_writer,
	CBR_MAX_RECORD,
	CBR_MEM_FACTOR,
	NULL, /* no alias */
	NULL, /* no separator: one game per file */
	NULL, /* no number or line in a game's bytes */
};
