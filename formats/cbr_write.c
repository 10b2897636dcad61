/*
 * cbr_write.c: CBR records written, in version 2 as CCBridge (象棋桥) 3
 * writes them (the layout is at the top of cbr.c and in doc/formats/
 * cbr.md): the CBR writer (one game a file), and the record writer the
 * CBL writer (cbl.c) puts in each of its slots.
 *
 * What a record holds is written whole: the tags of its fields (each
 * UTF-16LE, NUL-terminated inside its fixed size), ECCO, RecordType,
 * RecordKind, the result code, ResultType, the start position (board,
 * side to move, first move number), and the tree with a comment at every
 * node, depth-first, as the reader reads it.  Every thing a record has no
 * place for is an XQI_D_LOSS warning: a tag with no field, a repeated tag,
 * text cut to fit its field, a Result tag the code does not give, NAGs,
 * comments before a move.  The bytes CCBridge leaves unexplained are
 * written as the known files have them (FF FF FF FF before the tree,
 * zeros elsewhere), and the record's GUID (bytes 20-35) is derived from
 * the record's own bytes, so the same game always gives the same record.
 */
#include "cbr_int.h"

/* A UTF-16LE field's bytes for `s`: its text, cut to `size` - 2 bytes
 * (a NUL must follow) without splitting a surrogate pair.  *cut counts
 * the characters left out, *bad the bytes that were not UTF-8 ('?'). */
static int utf16_of(struct xq_buf *out, const char *s, size_t size, size_t *cut, size_t *bad)
{
	size_t len = strlen(s), i = 0, room = size >= 2 ? size - 2 : 0;

	xq_buf_reset(out);
	*cut = *bad = 0;
	for (size_t was = i; i < len; XQI_ADVANCED(was, i)) {
		uint32_t cp;
		size_t n = xq_utf8_decode(s + i, len - i, &cp);
		unsigned char u[4];
		size_t k = 2;
		if (n == 0) {
			cp = '?';
			n = 1;
			(*bad)++;
		}
		i += n;
		if (cp >= 0x10000) {
			uint32_t v = cp - 0x10000, hi = 0xD800 | (v >> 10), lo = 0xDC00 | (v & 0x3FF);
			u[0] = (unsigned char)hi;
			u[1] = (unsigned char)(hi >> 8);
			u[2] = (unsigned char)lo;
			u[3] = (unsigned char)(lo >> 8);
			k = 4;
		} else {
			u[0] = (unsigned char)cp;
			u[1] = (unsigned char)(cp >> 8);
		}
		if (*cut || (size && out->len + k > room)) {
			(*cut)++;
			continue;
		}
		if (xq_buf_add(out, u, k))
			return XQ_ENOMEM;
	}
	return 0;
}

/*
 * Put `s` in the field of `size` bytes at `dst` (zeroed already), saying
 * what it lost: `what` names it ("tag Red").
 */
int xqi_cbr_put_text(struct cbr_writer *w, unsigned char *dst, size_t size, const char *what,
		    const char *s)
{
	size_t cut, bad;
	int rc = utf16_of(&w->text, s, size, &cut, &bad);

	if (rc)
		return rc;
	memcpy(dst, w->text.ptr, w->text.len);
	if (cut)
		xqi_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
				"%s: %zu characters do not fit in %s's %zu-byte field and are not "
				"written",
				what, cut, w->format, size);
	if (bad)
		xqi_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
				"%s: %zu bytes that are not UTF-8 became '?'", what, bad);
	return 0;
}

static void put_u32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

/* FNV-1a over `n` bytes from `h`. */
static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

/*
 * A GUID made of `n` bytes (as Windows keeps one in memory: u32, u16, u16
 * little-endian, then 8 bytes): two 64-bit FNV-1a hashes, marked as an
 * RFC 9562 version 8 UUID (one of local design), so that the same bytes
 * always give the same GUID.
 */
void xqi_cbr_guid(const unsigned char *p, size_t n, unsigned char out[16])
{
	uint64_t a = fnv(0xcbf29ce484222325ull, p, n), b = fnv(a ^ 0x9e3779b97f4a7c15ull, p, n);

	for (int i = 0; i < 8; i++) {
		out[i] = (unsigned char)(a >> (8 * i));
		out[8 + i] = (unsigned char)(b >> (8 * i));
	}
	out[7] = (unsigned char)((out[7] & 0x0F) | 0x80); /* Data3's high nibble: version 8 */
	out[8] = (unsigned char)((out[8] & 0x3F) | 0x80); /* the variant of RFC 9562 */
}

/* The tag a record field is read as (its CBF element's, else its own name). */
static const char *field_tag(const char *element)
{
	const struct xqi_ccb_field *f = xqi_ccb_field_by_element(element, strlen(element));

	return f ? f->tag : element;
}

/*
 * The size the writer gives a field: the dates take 40 bytes (19
 * characters, as CCBridge writes "2016-12-26 12:05:41"): the 24 bytes
 * after them are not known to be text.
 */
static uint32_t field_size(const struct xqi_ccb_slot *f)
{
	return !strcmp(f->name, "DateCreated") || !strcmp(f->name, "DateModified") ? 40 : f->size;
}

/* An unknown result read from a CBR or CBF code ("4") goes back as that code. */
static int numeric_result(const struct xqi_record *g, uint32_t *code)
{
	const char *t = g->result_text;
	unsigned long v = 0;

	if (g->result != XQI_RESULT_UNKNOWN || !t || !*t || strlen(t) > 9 ||
	    strspn(t, "0123456789") != strlen(t))
		return 0;
	for (; *t; t++)
		v = v * 10 + (unsigned long)(*t - '0');
	*code = (uint32_t)v;
	return 1;
}

/* "0".."4294967295" as a u32; 0 when `s` is not one. */
static int u32_of(const char *s, uint32_t *out)
{
	uint64_t v = 0;

	if (!*s || strlen(s) > 10 || strspn(s, "0123456789") != strlen(s))
		return 0;
	for (; *s; s++)
		v = v * 10 + (uint64_t)(*s - '0');
	if (v > UINT32_MAX)
		return 0;
	*out = (uint32_t)v;
	return 1;
}

/* The header fields of the record at h (2214 bytes, zeroed). */
static int write_fields(struct cbr_writer *w, const struct xqi_record *g, unsigned char *h)
{
	char what[64];
	const char *v;
	uint32_t code = 0;
	int rc = 0;

	for (const struct xqi_ccb_slot *f = xqi_cbr_fields; f->name && !rc; f++) {
		const char *tag = field_tag(f->name);
		if (!(v = xqi_record_tag(g, tag)) || !*v)
			continue;
		snprintf(what, sizeof(what), "tag %s", tag);
		rc = xqi_cbr_put_text(w, h + f->off, field_size(f), what, v);
	}
	if (!rc && (v = xqi_record_tag(g, "RecordKind")) && *v)
		rc = xqi_cbr_put_text(w, h + 2044, 32, "tag RecordKind", v);
	if (!rc && (v = xqi_record_tag(g, "ResultType")) && *v)
		rc = xqi_cbr_put_text(w, h + 2080, 32, "tag ResultType", v);
	if ((v = xqi_record_tag(g, "ECCO")) && *v) {
		size_t n = strlen(v), ok = n <= 4;
		for (size_t i = 0; ok && i < n; i++)
			ok = xq_is_alpha((unsigned char)v[i]) || xq_is_digit((unsigned char)v[i]);
		if (ok)
			memcpy(h + 2036, v, n);
		else
			xqi_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
					"tag ECCO \"%s\": %s holds a code of 1 to 4 letters and "
					"digits; not written",
					v, w->format);
	}
	if ((v = xqi_record_tag(g, "RecordType")) && *v && !u32_of(v, &code))
		xqi_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
				"tag RecordType \"%s\" is not a number, as %s holds it; 0 written", v,
				w->format);
	put_u32(h + 2040, code);
	if (!numeric_result(g, &code))
		code = xqi_ccb_result_code(g->result);
	put_u32(h + 2076, code);
	return rc;
}

/* Board codes of the piece types: 1 rook, 2 horse, 3 elephant, 4 advisor, 5 king, 6 cannon, 7 pawn. */
static const uint8_t board_code[XQI_PIECE_TYPES] = {5, 4, 3, 2, 1, 6, 7};

static void write_board(const struct xqi_record *g, unsigned char *h)
{
	const struct xqi_position *b = &g->start;

	for (int i = 0; i < 90; i++) {
		uint8_t k = xqi_position_kind(b, XQI_SQ(i % 9, 9 - i / 9));
		if (k)
			h[2120 + i] = (uint8_t)((XQI_KIND_SIDE(k) ? 0x20 : 0x10) |
						board_code[XQI_KIND_TYPE(k)]);
	}
	put_u32(h + 2112, b->side == XQI_BLACK ? 2 : 1);
	h[2116] = (unsigned char)b->fullmove;
	h[2117] = (unsigned char)(b->fullmove >> 8);
	put_u32(h + 2210, 0xFFFFFFFFu);
}

/* A square as a CBR byte: row from the top * 9 + column from red's left. */
static unsigned char square_byte(xqi_sq sq)
{
	return (unsigned char)((9 - XQI_SQ_RANK(sq)) * 9 + XQI_SQ_FILE(sq));
}

/* A node: [flags, 0, from, to], then its comment (u32 bytes, UTF-16LE, LF as CR LF). */
static int write_node(struct cbr_writer *w, struct xq_buf *out, const struct xqi_node *x,
		      unsigned flags, uint32_t ply)
{
	unsigned char node[8] = {0};
	size_t cut = 0, bad = 0, at;
	int rc = 0;

	if (x->comment && *x->comment) {
		struct xq_buf crlf = XQ_BUF_INIT;
		for (const char *c = x->comment; *c && !rc; c++)
			rc = *c == '\n' ? xq_buf_add(&crlf, "\r\n", 2) : xq_buf_addc(&crlf, *c);
		if (!rc)
			rc = utf16_of(&w->text, crlf.ptr, 0, &cut, &bad);
		xq_buf_release(&crlf);
		if (rc)
			return rc;
		if (bad)
			xqi_write_report(w->sink, w->o, w->games, ply, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
					"comment: %zu bytes that are not UTF-8 became '?'", bad);
		flags |= 4;
	}
	node[0] = (unsigned char)flags;
	if (x->move) {
		node[2] = square_byte(XQI_MOVE_FROM(x->move));
		node[3] = square_byte(XQI_MOVE_TO(x->move));
	}
	at = out->len;
	if (xq_buf_add(out, node, 4))
		return XQ_ENOMEM;
	if (!(flags & 4))
		return 0;
	if (xq_buf_add(out, node, 4) || xq_buf_add(out, w->text.ptr, w->text.len))
		return XQ_ENOMEM;
	put_u32((unsigned char *)out->ptr + at + 4, (uint32_t)w->text.len);
	return 0;
}

/* The move tree, depth-first: flag 1 the line ends, 2 an alternative follows its subtree. */
static int write_tree(struct cbr_writer *w, const struct xqi_record *g, struct xq_buf *out)
{
	uint32_t ply = 1;
	int rc = write_node(w, out, &g->nodes[XQI_ROOT],
			    g->nodes[XQI_ROOT].child == XQ_NO_NODE ? 1u : 0u, 0);

	for (uint32_t n = g->nodes[XQI_ROOT].child; n != XQ_NO_NODE && !rc;
	     n = xqi_record_next_ply(g, n, &ply)) {
		const struct xqi_node *x = &g->nodes[n];
		rc = write_node(w, out, x,
				(x->child == XQ_NO_NODE ? 1u : 0u) |
					(x->sibling != XQ_NO_NODE ? 2u : 0u),
				ply);
	}
	return rc;
}

/* Is `tag` one a record (or, in a library, the library) holds? */
static int held(const struct cbr_writer *w, const char *tag)
{
	static const char *const own[] = {"ECCO", "RecordType", "RecordKind", "ResultType", "FEN"};

	for (const struct xqi_ccb_slot *f = xqi_cbr_fields; f->name; f++)
		if (!strcmp(field_tag(f->name), tag))
			return 1;
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (!strcmp(own[i], tag))
			return 1;
	if (w->library)
		for (const struct xqi_ccb_slot *f = xqi_cbl_fields; f->name; f++)
			if (!strcmp(f->name, tag))
				return 1;
	return 0;
}

/* Report the tags the record does not hold (as a CBF writer does). */
static void tag_losses(struct cbr_writer *w, const struct xqi_record *g)
{
	uint32_t code;
	const char *result = numeric_result(g, &code) ? g->result_text : xqi_result_string(g->result);

	for (size_t i = 0; i < g->ntags; i++) {
		const char *tag = g->tags[i].name, *v = g->tags[i].value;
		if (!strcmp(tag, "Result")) {
			if (strcmp(v, result))
				xqi_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
						"tag Result \"%s\" is not the result %s's code gives "
						"(\"%s\"); not written",
						v, w->format, result);
			continue;
		}
		if (!*v || !strcmp(tag, "FEN"))
			continue;
		if (!held(w, tag))
			xqi_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
					"tag %s (\"%s\") has no %s field; not written", tag, v,
					w->format);
		else if (xqi_record_tag(g, tag) != v)
			xqi_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
					"tag %s repeated: %s holds one; \"%s\" not written", tag,
					w->format, v);
	}
}

int xqi_cbr_write_record(struct cbr_writer *w, const struct xqi_record *g, struct xq_buf *out)
{
	unsigned char *h;
	int rc;

	if ((rc = xqi_write_start_check(w->sink, w->o, g, w->format, 0)))
		return rc;
	xq_buf_reset(out);
	if (xq_buf_grow(out, CBR_HEADER_V2))
		return XQ_ENOMEM;
	memset(out->ptr, 0, CBR_HEADER_V2);
	out->len = CBR_HEADER_V2;
	h = (unsigned char *)out->ptr;
	memcpy(h, CBR_MAGIC, 16);
	h[19] = 2;
	rc = write_fields(w, g, h);
	if (rc)
		return rc;
	write_board(g, h);
	tag_losses(w, g);
	if ((rc = write_tree(w, g, out)))
		return rc;
	xqi_write_losses(w->sink, w->o, w->games, g, XQI_CBR_CAPS, 0, w->format);
	if (out->len > CBR_MAX_RECORD)
		return xqi_write_report(w->sink, w->o, w->games, 0, XQ_EUNSUPPORTED, XQ_SEVERITY_ERROR,
				       XQI_D_LOSS,
				       "the record would take %zu bytes, more than the %llu MiB a "
				       "CBR record is read within; not written",
				       out->len, (unsigned long long)(CBR_MAX_RECORD >> 20));
	xqi_cbr_guid((const unsigned char *)out->ptr, out->len, (unsigned char *)out->ptr + 20);
	return 0;
}

/* The CBR writer: one game, one record. */

int xqi_cbr_open_writer(void **out, struct xq_file *o, const struct xqi_write_opts *opts,
		       const struct xqi_sink *sink)
{
	struct cbr_writer *w;

	if (opts && opts->encoding != XQI_ENC_UNKNOWN && opts->encoding != XQI_ENC_UTF16LE)
		return xqi_write_refuse(sink, o, "CBR text is UTF-16LE, not %s",
				       xqi_encoding_name(opts->encoding));
	if (opts && opts->version && opts->version != 2)
		return xqi_write_refuse(sink, o, "CBR is written in version 2 (CCBridge 3), not %d",
				       opts->version);
	if (!(w = calloc(1, sizeof(*w))))
		return XQ_ENOMEM;
	w->o = o;
	w->sink = sink;
	w->format = "CBR";
	*out = w;
	return 0;
}

int xqi_cbr_write(void *writer, const struct xqi_record *g)
{
	struct cbr_writer *w = writer;
	int rc;

	w->games++;
	if (w->games > 1)
		return xqi_write_report(w->sink, w->o, w->games, 0, XQ_EUNSUPPORTED, XQ_SEVERITY_ERROR,
				       XQI_D_LOSS, "a CBR file holds one game; game %llu not written",
				       (unsigned long long)w->games);
	if ((rc = xqi_cbr_write_record(w, g, &w->rec)))
		return rc;
	return xqi_file_write(w->o, w->rec.ptr, w->rec.len);
}

void xqi_cbr_writer_release(struct cbr_writer *w)
{
	xq_buf_release(&w->rec);
	xq_buf_release(&w->text);
}

int xqi_cbr_close_writer(void *writer)
{
	struct cbr_writer *w = writer;

	xqi_cbr_writer_release(w);
	free(w);
	return 0;
}
