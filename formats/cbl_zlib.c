/*
 * cbl_zlib.c: the zlib-compressed CBL of CCBridge (象棋桥), read through
 * cbl.c's reader.
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
#include "cbr_int.h"

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
		    const char *move, enum xqi_diagnostic_code code, enum xq_severity_level sev,
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
		    const char *move, enum xqi_diagnostic_code code, enum xq_severity_level sev,
		    const char *fmt, ...)
{
	struct xqi_place pl = {off + CBZ_HEADER, 0, 0};
	char msg[XQ_MESSAGE_SIZE];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (r->z->stored)
		xqi_format_report(r->sink, r->name, game, &pl, 1, ply, move, move ? strlen(move) : 0,
			      code, sev, "%s", msg);
	else
		xqi_format_report(r->sink, r->name, game, NULL, 0, ply, move, move ? strlen(move) : 0,
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
	v = xqi_cbr_get_u32(c->p + c->pos);
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
	int rc = xqi_transcoder_convert(&r->gbk, (const char *)p, len, out, &bad);

	if (rc == XQ_EENCODING) {
		zreport(r, game, off + bad, 0, NULL, XQI_D_ENCODING, XQ_SEVERITY_ERROR,
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
	for (uint64_t was = pos + z->len;; XQI_ADVANCED(was, pos + z->len)) {
		const unsigned char *p = NULL;
		size_t n = 4096, used;
		while (n > 0 && !(p = xqi_cbr_window_get(r, pos, n)))
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
		xqi_cbr_window_drop(&r->w, pos);
		if (z->len > raw || (method && zrc != Z_OK) || (method && used == 0 && z->len == cap))
			break;
	}
	if (method)
		inflateEnd(&zs);
	if (rc)
		return rc;
	if (z->len > raw) {
		xqi_cbr_report(r, 0, 16, 0, NULL, XQI_D_CORRUPT, XQ_SEVERITY_ERROR,
		       "the data part %s more than the %u bytes the header gives; only those are read",
		       method ? "inflates to" : "holds", (unsigned)raw);
		z->len = raw;
	} else if (method && zrc != Z_STREAM_END && zrc != Z_OK) {
		xqi_cbr_report(r, 0, CBZ_HEADER + zs.total_in, 0, NULL, XQI_D_CORRUPT, XQ_SEVERITY_ERROR,
		       "the zlib stream is damaged here (%s) after %llu of its %u inflated bytes; "
		       "what came before is read",
		       zs.msg ? zs.msg : "inflate error", (unsigned long long)z->len,
		       (unsigned)raw);
	} else if (method && zrc != Z_STREAM_END) {
		xqi_cbr_report(r, 0, pos, 0, NULL, XQI_D_TRUNCATED, XQ_SEVERITY_ERROR,
		       "the zlib stream is cut short after %llu of its %u inflated bytes; what came "
		       "before is read",
		       (unsigned long long)z->len, (unsigned)raw);
	} else if (z->len < raw) {
		xqi_cbr_report(r, 0, 16, 0, NULL, XQI_D_CORRUPT, XQ_SEVERITY_ERROR,
		       "the data part %s %llu bytes where the header gives %u; what there is is "
		       "read",
		       method ? "inflates to" : "holds", (unsigned long long)z->len, (unsigned)raw);
	}
	if (method && zrc == Z_STREAM_END && xqi_cbr_window_get(r, pos, 1))
		xqi_cbr_skip_to_end(r, 0, pos, "the end of the zlib stream");
	return r->w.error;
}

/* Open the container whose header `h` (20 bytes) starts the file: the library fields. */
int xqi_cbz_open(struct cbr_reader *r, const unsigned char *h)
{
	static const int8_t slots[5] = {0, 1, -1, 2, 3}; /* field -> lib_tags (-1: reserved) */
	uint32_t method = xqi_cbr_get_u32(h + 12), raw = xqi_cbr_get_u32(h + 16);
	struct xq_buf text = XQ_BUF_INIT;
	struct cbz_cur c;
	int rc;

	if (method > 3) {
		xqi_cbr_report(r, 0, 12, 0, NULL, XQI_D_UNSUPPORTED, XQ_SEVERITY_ERROR,
		       "compressed CCBridge library with compression method %u (0 to 3 are "
		       "known); no game read",
		       (unsigned)method);
		return XQ_EUNSUPPORTED;
	}
	if (raw > xqi_format_record_limit(r->fmt, &r->opts)) {
		struct xq_diagnostic d;
		char what[96];
		xqi_diagnostic_init(&d);
		snprintf(what, sizeof(what), "the data part of this compressed library (%u bytes, "
			 "its header says)", (unsigned)raw);
		xqi_format_limit_diag(&d, r->fmt, &r->opts, what);
		xqi_cbr_report(r, 0, 16, 0, NULL, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "%s", d.msg);
		return XQ_ERANGE;
	}
	r->z = calloc(1, sizeof(*r->z));
	if (!r->z)
		return XQ_ENOMEM;
	r->z->stored = method == 0;
	xqi_cbr_budget_start(r, TASK_DATA, 0, (uint64_t)CBZ_HEADER + raw + XQI_SKIP_MAX);
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
			zreport(r, 0, at, 0, NULL, XQI_D_UNSUPPORTED, XQ_SEVERITY_NOTE,
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
		zreport(r, 0, r->z->len, 0, NULL, XQI_D_TRUNCATED, XQ_SEVERITY_ERROR,
			"the data ends inside the library header; no game read");
		r->z->stop = 1;
	}
	r->z->pos = c.pos;
	return 0;
}

/* Piece types of the 32 bytes of the start position: 车马相仕帅仕相马车炮炮兵兵兵兵兵, red then black. */
static const int8_t cbz_piece[16] = {XQI_ROOK,    XQI_HORSE,  XQI_ELEPHANT, XQI_ADVISOR,
				     XQI_KING,    XQI_ADVISOR, XQI_ELEPHANT, XQI_HORSE,
				     XQI_ROOK,    XQI_CANNON, XQI_CANNON,   XQI_PAWN,
				     XQI_PAWN,    XQI_PAWN,   XQI_PAWN,     XQI_PAWN};

/* The start position: 0, 1 when unusable (reported), 2 when empty. */
static int cbz_board(struct cbr_reader *r, struct xqi_record *g, const unsigned char *p, size_t at,
		     unsigned red_first, uint32_t first)
{
	struct xqi_position b;
	struct xq_diagnostic d;
	int pieces = 0;

	xqi_position_clear(&b);
	for (int i = 0; i < 32; i++) {
		int x = (p[i] >> 4) - 1, y = (p[i] & 15) - 1;
		if (!p[i])
			continue;
		pieces++;
		xqi_diagnostic_init(&d);
		if (x < 0 || x > 8 || y < 0 || y > 9 ||
		    xqi_position_put(&b, i / 16, cbz_piece[i % 16], XQI_SQ(x, 9 - y), &d)) {
			zreport(r, g->number, at + (size_t)i, 0, NULL, XQI_D_CORRUPT, XQ_SEVERITY_ERROR,
				"piece %d of the start position has square byte 0x%02x, which it "
				"cannot be on%s%s; no move can be read",
				i + 1, p[i], d.msg[0] ? ": " : "", d.msg);
			return 1;
		}
	}
	if (pieces == 0)
		return 2;
	b.side = red_first ? XQI_RED : XQI_BLACK;
	b.fullmove = first ? (uint16_t)first : 1;
	b.key = xqi_position_compute_key(&b);
	xqi_diagnostic_init(&d);
	if (xqi_position_validate(&b, XQI_FEN_LENIENT_PLACEMENT, &d)) {
		zreport(r, g->number, at, 0, NULL, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
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
static int cbz_text_fits(const struct xqi_position *b, xqi_move m, const struct xqi_move_request *q)
{
	xqi_sq from = XQI_MOVE_FROM(m), to = XQI_MOVE_TO(m);
	int type = XQI_KIND_TYPE(xqi_position_kind(b, from)), black = b->side == XQI_BLACK;
	int fx = XQI_SQ_FILE(from), tx = XQI_SQ_FILE(to);
	int fwd = (XQI_SQ_RANK(to) - XQI_SQ_RANK(from)) * (black ? -1 : 1);
	char dir = fwd > 0 ? '+' : fwd < 0 ? '-' : '.';
	int diag = type == XQI_HORSE || type == XQI_ELEPHANT || type == XQI_ADVISOR;
	int target = dir == '.' || diag ? (black ? tx + 1 : 9 - tx) : (fwd < 0 ? -fwd : fwd);

	return q->position == XQI_TANDEM_NONE && q->piece == type &&
	       q->file == (black ? fx + 1 : 9 - fx) && q->direction == dir && q->target == target;
}

/*
 * Whether the text bytes `lo` `hi` name the legal move `m` of `b`: the
 * text resolves to `m`, or it is ambiguous (CCBridge leaves out 前/后
 * where two pieces on a file can make the same move) and fits `m`.
 * `text` gets the text ("" when the bytes are none), `d` the reason.
 */
static int cbz_text_names(struct xqi_position *b, xqi_move m, unsigned char lo, unsigned char hi,
			  char text[16], struct xq_diagnostic *d)
{
	struct xqi_move_request q;
	xqi_move named = 0;
	int rc;

	xqi_diagnostic_init(d);
	text[0] = '\0';
	if (!cbz_move_text(lo, hi, b->side == XQI_BLACK, text))
		return 0;
	if (xqi_notation_parse(&q, text, strlen(text), XQ_DIALECT_CHINESE, d))
		return 0;
	rc = xqi_notation_resolve(&named, b, &q, d);
	if (rc == 0)
		return named == m;
	return rc == XQ_EAMBIGUOUS && cbz_text_fits(b, m, &q);
}

struct cbz_step {
	uint32_t node;            /* the node at this ply of the current line */
	xqi_move move;             /* the move to it */
	struct xqi_undo undo;
};

struct cbz_tree {
	struct cbz_step *line;    /* line[k]: ply k of the current line; line[0].node is the root */
	size_t cap;
	uint32_t depth;           /* plies on the current line */
	uint32_t stopped;         /* ply of the bad move of the current line, 0 if none */
	struct xqi_position board;    /* the position at line[depth] */
};

/*
 * Take move entry `k` (index `idx`, bytes `e`) into the tree; *node gets
 * the node or XQ_NO_NODE.  Returns 0 or a negative code (memory).
 */
static int cbz_add(struct cbr_reader *r, struct xqi_record *g, struct cbz_tree *t,
		   const unsigned char *e, size_t at, uint32_t *skipped, int *text_notes,
		   uint32_t *node)
{
	unsigned idx = (unsigned)e[0] | (unsigned)e[1] << 8;
	int fx = e[2] >> 4, fy = e[2] & 15, tx = e[3] >> 4, ty = e[3] & 15;
	xqi_move m;
	char iccs[8], text[16];
	struct xq_diagnostic d;
	int rc;

	*node = XQ_NO_NODE;
	if (t->stopped && (idx > t->stopped || idx == 0)) {
		(*skipped)++;
		return 0; /* the rest of a line that stopped */
	}
	t->stopped = 0;
	if (idx == 0 || idx > t->depth + 1) {
		zreport(r, g->number, at, t->depth + 1, NULL, XQI_D_CORRUPT, XQ_SEVERITY_ERROR,
			"move index %u where the line has %u moves (1 to %u can come next); the "
			"line stops here",
			idx, (unsigned)t->depth, (unsigned)t->depth + 1);
		t->stopped = idx ? t->depth + 1 : 1;
		g->flags |= XQI_RECORD_BROKEN;
		return 0;
	}
	while (t->depth >= idx) { /* an alternative: back to its parent */
		xqi_position_unmake(&t->board, t->line[t->depth].move, &t->line[t->depth].undo);
		t->depth--;
	}
	if (fx > 8 || fy > 9 || tx > 8 || ty > 9) {
		zreport(r, g->number, at + 2, idx, NULL, XQI_D_CORRUPT, XQ_SEVERITY_ERROR,
			"move bytes %02x %02x name no square; the line stops here", e[2], e[3]);
		t->stopped = idx;
		g->flags |= XQI_RECORD_BROKEN;
		return 0;
	}
	m = XQI_MOVE(XQI_SQ(fx, 9 - fy), XQI_SQ(tx, 9 - ty));
	xqi_move_name(m, iccs);
	xqi_diagnostic_init(&d);
	if (xqi_move_check(&t->board, m, &d)) {
		zreport(r, g->number, at, idx, iccs, XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_ERROR,
			"illegal move %s: %s; the line stops here", iccs, d.msg);
		t->stopped = idx;
		g->flags |= XQI_RECORD_BROKEN;
		return 0;
	}
	/* The text bytes must name the same move; the squares are what is read. */
	if (!cbz_text_names(&t->board, m, e[4], e[5], text, &d) && (*text_notes)++ == 0)
		zreport(r, g->number, at + 4, idx, iccs, XQI_D_CORRUPT, XQ_SEVERITY_NOTE,
			"the move's text bytes %02x %02x (%s) do not name %s (%s); the squares are "
			"read",
			e[4], e[5], text[0] ? text : "not a text", iccs,
			d.msg[0] ? d.msg : "it names another move");
	if (XQ_ALLOC_GROW(t->line, (size_t)idx + 1, t->cap))
		return XQ_ENOMEM;
	rc = xqi_record_add_move(g, t->line[idx - 1].node, m, node);
	if (rc)
		return rc;
	if (r->z->stored)
		g->nodes[*node].place.offset = at + CBZ_HEADER;
	t->depth = idx;
	t->line[idx].node = *node;
	t->line[idx].move = m;
	xqi_position_make(&t->board, m, &t->line[idx].undo);
	return 0;
}

/* The record fields that are u32-prefixed strings, in file order, with their tags. */
static const char *const cbz_tags[] = {
	"Title", "From", "Other", "Site", "Date", "Red", "Black", /* after the start number */
	"Annotator", "CommentatorURL", "Author", "CreatorURL",    /* after the result */
};

/* The result field: 1 red wins, 2 black wins, 3 draw, 4 unknown. */
static int cbz_result(struct cbr_reader *r, struct xqi_record *g, uint32_t v, size_t at)
{
	static const enum xqi_result results[5] = {XQI_RESULT_NONE, XQI_RESULT_RED_WIN,
						  XQI_RESULT_BLACK_WIN, XQI_RESULT_DRAW,
						  XQI_RESULT_UNKNOWN};
	char num[16];
	int n;

	if (v >= 1 && v <= 4) {
		const char *s = xqi_result_string(results[v]);
		g->result = results[v];
		return xqi_cbr_add_tag(g, "Result", s, strlen(s));
	}
	n = snprintf(num, sizeof(num), "%u", (unsigned)v);
	g->result = XQI_RESULT_UNKNOWN;
	g->result_text = xqi_record_strdup(g, num, (size_t)n);
	zreport(r, g->number, at, 0, NULL, XQI_D_NO_RESULT, XQ_SEVERITY_NOTE,
		"result code %u is not one this reader knows (1-4); the result is taken as unknown",
		(unsigned)v);
	return xqi_cbr_add_tag(g, "Result", num, (size_t)n);
}

/* The header fields of the record at c->pos (after its size); the board's bytes go to *board. */
static int cbz_fields(struct cbr_reader *r, struct xqi_record *g, struct cbz_cur *c,
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
		rc = xqi_cbr_add_tag(g, "RecordType", num, (size_t)n);
	}
	if (!rc)
		rc = cur_string(r, g->number, c, 1, &text);
	if (!rc && text.len)
		rc = xqi_cbr_add_tag(g, "Event", text.ptr, text.len);
	at = c->pos;
	*first = cur_u32(c);
	if (!c->short_at && *first != 1)
		zreport(r, g->number, at, 0, NULL, XQI_D_UNSUPPORTED, XQ_SEVERITY_NOTE,
			"first move number %u: the known files have 1 here; taken as the number of "
			"the first move",
			(unsigned)*first);
	for (size_t i = 0; i < sizeof(cbz_tags) / sizeof(cbz_tags[0]) && !rc; i++) {
		rc = cur_string(r, g->number, c, 1, &text);
		if (!rc && text.len)
			rc = xqi_cbr_add_tag(g, cbz_tags[i], text.ptr, text.len);
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
		rc = xqi_record_set_comment(g, XQI_ROOT, text.ptr, text.len);
	at = c->pos;
	*red_first = 1;
	if (!rc && cur_has(c, 1)) {
		if (c->p[at] > 1)
			zreport(r, g->number, at, 0, NULL, XQI_D_CORRUPT, XQ_SEVERITY_WARNING,
				"the side to move is %u, neither 1 (red) nor 0 (black); red assumed",
				c->p[at]);
		else
			*red_first = c->p[at];
		c->pos++;
	}
	for (int i = 0; i < 2 && !rc; i++) {
		rc = cur_date(r, g->number, c, &text);
		if (!rc && text.len)
			rc = xqi_cbr_add_tag(g, i ? "DateModified" : "DateCreated", text.ptr, text.len);
	}
	xq_buf_release(&text);
	return rc;
}

/* The moves and their comments, from c->pos to the end of the record. */
static int cbz_moves(struct cbr_reader *r, struct xqi_record *g, struct cbz_cur *c, int playable)
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
		zreport(r, g->number, at, 0, NULL, XQI_D_TRUNCATED, XQ_SEVERITY_ERROR,
			"the record announces %u moves; it ends after %u of them (and has no room "
			"for their comments)",
			(unsigned)count, (unsigned)fit);
		g->flags |= XQI_RECORD_BROKEN;
	}
	if (count == 0) {
		g->flags |= XQI_RECORD_EMPTY;
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
	t.line[0].node = XQI_ROOT;
	for (uint32_t k = 0; k < fit && !rc; k++) {
		nodes[k] = XQ_NO_NODE;
		if (playable)
			rc = cbz_add(r, g, &t, c->p + c->pos, c->pos, &skipped, &text_notes,
				     &nodes[k]);
		c->pos += 6;
	}
	if (!rc && text_notes > 1)
		zreport(r, g->number, at, 0, NULL, XQI_D_CORRUPT, XQ_SEVERITY_NOTE,
			"%d moves in all have text bytes that do not name them", text_notes);
	if (fit < count)
		c->pos = c->end; /* the rest is the cut record's, not trailing bytes */
	if (!rc && skipped && playable)
		zreport(r, g->number, c->pos, 0, NULL, XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_NOTE,
			"%u moves after a bad move of their line were not read", (unsigned)skipped);
	/* One comment per move entry, each ended by CR LF ("||" is a line break). */
	for (uint32_t k = 0; k < fit && fit == count && !rc; k++) {
		const unsigned char *p = c->p + c->pos;
		size_t n = 0, room = c->end - c->pos;
		while (n + 1 < room && !(p[n] == '\r' && p[n + 1] == '\n'))
			n++;
		if (n + 1 >= room) {
			zreport(r, g->number, c->pos, 0, NULL, XQI_D_TRUNCATED, XQ_SEVERITY_ERROR,
				"the record ends inside the comment of move entry %u of %u",
				(unsigned)k + 1, (unsigned)count);
			g->flags |= XQI_RECORD_BROKEN;
			c->pos = c->end;
			break;
		}
		if (n && nodes[k] != XQ_NO_NODE) {
			xq_buf_reset(&text);
			rc = gbk_text(r, g->number, p, n, c->pos, 0, &text);
			if (!rc && text.len)
				rc = xqi_record_set_comment(g, nodes[k], text.ptr, text.len);
		}
		c->pos += n + 2;
	}
	xq_buf_release(&text);
	free(nodes);
	free(t.line);
	return rc;
}

/* Read the next record of the container into `g`: 1, 0 at the end, or a negative code. */
int xqi_cbz_read(struct cbr_reader *r, struct xqi_record *g)
{
	struct cbz *z = r->z;
	struct cbz_cur c;
	size_t start = z->pos, board = 0;
	uint32_t size, first = 1;
	unsigned red_first = 1;
	int rc, kind;

	if (z->stop || z->read == z->count) {
		if (!z->stop && z->pos < z->len)
			zreport(r, 0, z->pos, 0, NULL, XQI_D_TRAILING, XQ_SEVERITY_WARNING,
				"%llu bytes after the last of the %u records are not read",
				(unsigned long long)(z->len - z->pos), (unsigned)z->count);
		z->stop = 1;
		return 0;
	}
	if (z->len - z->pos < 4) {
		zreport(r, 0, z->pos, 0, NULL, XQI_D_TRUNCATED, XQ_SEVERITY_ERROR,
			"the library header announces %u records; the data ends after %u",
			(unsigned)z->count, (unsigned)z->read);
		z->stop = 1;
		return 0;
	}
	xqi_cbr_start_game(r, g);
	g->encoding = xqi_encoding_name(XQI_ENC_GB18030);
	g->place.offset = z->stored ? start + CBZ_HEADER : CBZ_HEADER;
	z->read++;
	size = xqi_cbr_get_u32(z->data + start);
	c = (struct cbz_cur){z->data, start + 4, start + size, 0};
	if (size < 4 || size > z->len - start) {
		zreport(r, g->number, start, 0, NULL, XQI_D_TRUNCATED, XQ_SEVERITY_ERROR,
			"record %u of %u gives its size as %u bytes; %llu are left; the records after "
			"it cannot be found",
			(unsigned)z->read, (unsigned)z->count, (unsigned)size,
			(unsigned long long)(z->len - start));
		g->flags |= XQI_RECORD_BROKEN;
		z->stop = 1;
		c.end = z->len;
		if (size < 4)
			c.end = c.pos; /* nothing to read */
	}
	rc = cbz_fields(r, g, &c, &board, &red_first, &first);
	if (rc)
		return rc;
	if (c.short_at) {
		zreport(r, g->number, c.pos, 0, NULL, XQI_D_TRUNCATED, XQ_SEVERITY_ERROR,
			"the record ends inside its header; no move read");
		g->flags |= XQI_RECORD_BROKEN | XQI_RECORD_EMPTY;
		z->pos = c.end;
	} else {
		kind = cbz_board(r, g, z->data + board, board, red_first, first);
		if (kind == 1)
			g->flags |= XQI_RECORD_BROKEN;
		rc = cbz_moves(r, g, &c, kind == 0);
		if (rc)
			return rc;
		if (kind == 2 && !(g->flags & XQI_RECORD_EMPTY)) {
			zreport(r, g->number, board, 0, NULL, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
				"the start position is empty, yet the record has moves; they are not "
				"read");
			g->flags |= XQI_RECORD_BROKEN;
		} else if (kind == 2) {
			zreport(r, g->number, board, 0, NULL, XQI_D_EMPTY_GAME, XQ_SEVERITY_NOTE,
				"a record with an empty start position and no moves (a heading); "
				"read as a game with no moves from the standard position");
		}
		if (c.short_at && !(g->flags & XQI_RECORD_BROKEN)) {
			zreport(r, g->number, c.pos, 0, NULL, XQI_D_TRUNCATED, XQ_SEVERITY_ERROR,
				"the record ends inside its move count");
			g->flags |= XQI_RECORD_BROKEN | XQI_RECORD_EMPTY;
		} else if (c.pos < c.end) {
			zreport(r, g->number, c.pos, 0, NULL, XQI_D_TRAILING, XQ_SEVERITY_WARNING,
				"%llu bytes after the comments of the moves are not read",
				(unsigned long long)(c.end - c.pos));
		}
		z->pos = c.end;
	}
	rc = xqi_cbr_library_tags(r, g);
	if (!rc && z->other)
		rc = xqi_cbr_add_tag(g, "LibraryOther", z->other, strlen(z->other));
	return rc ? rc : 1;
}

/* The library header and index; 0, or a negative code when nothing can be read. */
