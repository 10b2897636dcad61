/*
 * xqf_read.c: reading an XQF record (xqf.c describes the format and what
 * the reader does with damage).
 */
#include "xqf_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "position.h"
#include "buf.h"
#include "check.h"
#include "diagnostic.h"
#include "flattree.h"
#include "record.h"
#include "io.h"
#include "movegen.h"
#include "text.h"
#include "utf8.h"

/* A title may run on into the unused TitleB field (vschess writes up to 127 bytes). */
#define TITLE_READ_CAP 127

/* ------------------------------------------------------------------ */
/* Reading                                                             */

/* Where the next record goes: its parent, its ply, and whether it is
 * inside the subtree of a refused move (read, not kept). */
struct rd {
	const unsigned char *p;
	size_t len;
	const struct xqi_sink *sink;
	const char *source;
	struct xqi_record *g;
	struct xqi_xqf_stats *st;
	struct xqi_xqf_keys k;
	unsigned version;
	enum xqi_encoding enc;
	struct xqi_transcoder tc; /* enc to UTF-8: one descriptor for every string of the file */
	struct xq_buf raw, text;
	struct xqi_position b; /* the start position, as it is set up */
	/* alt[n]: which alternative node n is among its parent's children (1 =
	 * the main one), kept as nodes are added, for messages: counting the
	 * siblings at each message made many refused alternatives quadratic */
	uint32_t *alt;
	size_t alt_cap;
	/* why the start position cannot occur, when it cannot */
	char bad_start[XQ_MESSAGE_SIZE];
};

/* One move record as decoded (§5.1). */
struct rec {
	uint64_t off;
	uint8_t from, to; /* x*10+y; above 89 is off the board */
	int cont, sib;
	size_t coff, clen; /* comment bytes (file offset and length), clen 0 if none */
};

static void rd_diag(struct rd *r, struct xq_diagnostic *d, uint64_t off, uint32_t ply)
{
	xqi_diagnostic_init(d);
	d->source = r->source;
	d->place.offset = off;
	d->has_offset = 1;
	d->game = 1;
	d->ply = ply;
}

static void report(struct rd *r, enum xq_severity_level sev, enum xqi_diagnostic_code code, uint64_t off,
		   uint32_t ply, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 6, 7)))
#endif
	;

static void report(struct rd *r, enum xq_severity_level sev, enum xqi_diagnostic_code code, uint64_t off,
		   uint32_t ply, const char *fmt, ...)
{
	struct xqi_place pl = {off, 0, 0};
	va_list ap;

	va_start(ap, fmt);
	xqi_format_vreport(r->sink, r->source, 1, &pl, 1, ply, NULL, 0, code, sev, fmt, ap);
	va_end(ap);
}

/* Byte `pos` after the stream decryption (§3.2); pos >= 0x400 and < len. */
static inline unsigned char rd_byte(const struct rd *r, size_t pos)
{
	return (unsigned char)(r->p[pos] - r->k.f32[pos & 31]);
}

static uint32_t rd_u32(const struct rd *r, size_t pos)
{
	return (uint32_t)rd_byte(r, pos) | (uint32_t)rd_byte(r, pos + 1) << 8 |
	       (uint32_t)rd_byte(r, pos + 2) << 16 | (uint32_t)rd_byte(r, pos + 3) << 24;
}

/*
 * Decode `n` bytes of text (already decrypted) that start at file offset
 * `off` into r->text.  Bytes that are not text in the encoding are
 * replaced by U+FFFD and reported (with the offset of the first); a NUL
 * ends the text (reported).  Returns 0 or XQ_ENOMEM.
 */
static int decode_text(struct rd *r, const char *s, size_t n, uint64_t off, uint32_t ply,
		       const char *what)
{
	size_t i = 0, first_bad = 0, nul;
	unsigned bad_count = 0;
	int ascii = 1;

	xq_buf_reset(&r->text);
	for (size_t j = 0; j < n; j++)
		if ((unsigned char)s[j] >= 0x80) {
			ascii = 0;
			break;
		}
	if (ascii && r->enc != XQI_ENC_UTF16LE && r->enc != XQI_ENC_UTF16BE) {
		if (xq_buf_add(&r->text, s, n))
			return XQ_ENOMEM;
	} else {
		while (i < n) {
			size_t bad = 0;
			int rc = xqi_transcoder_convert(&r->tc, s + i, n - i, &r->text, &bad);
			if (rc == 0)
				break;
			if (rc != XQ_EENCODING) {
				if (rc == XQ_ENOMEM)
					return rc;
				report(r, XQ_SEVERITY_ERROR, XQI_D_ENCODING, off, ply,
				       "cannot decode %s as %s: %s; text dropped", what,
				       xqi_encoding_name(r->enc), xqi_strerror(rc));
				xq_buf_reset(&r->text);
				return 0;
			}
			if (!bad_count)
				first_bad = i + bad;
			bad_count++;
			if (xq_buf_add(&r->text, "\xEF\xBF\xBD", 3))
				return XQ_ENOMEM;
			i += bad + 1;
		}
		if (bad_count)
			report(r, XQ_SEVERITY_WARNING, XQI_D_ENCODING, off + first_bad, ply,
			       "%s is not valid %s: %u byte%s replaced by U+FFFD", what,
			       xqi_encoding_name(r->enc), bad_count, bad_count > 1 ? "s" : "");
	}
	nul = strlen(r->text.ptr);
	if (nul < r->text.len) {
		report(r, XQ_SEVERITY_WARNING, XQI_D_CORRUPT, off, ply,
		       "%s holds a NUL byte; the %zu bytes of text after it were dropped", what,
		       r->text.len - nul - 1);
		xq_buf_truncate(&r->text, nul);
	}
	return 0;
}

static int read_header_strings(struct rd *r)
{
	const unsigned char *h = r->p;
	size_t title_len = h[H_TITLE];

	for (size_t f = 0; f < NFIELDS; f++) {
		size_t off = xqi_xqf_fields[f].offset, n = h[off], cap = xqi_xqf_fields[f].cap;
		int rc;

		if (off == H_TITLE && n > cap)
			cap = TITLE_READ_CAP;
		if (off == H_TITLEB && title_len > xqi_xqf_fields[0].cap)
			continue; /* those bytes are the end of a long title */
		if (n > cap) {
			report(r, XQ_SEVERITY_WARNING, XQI_D_CORRUPT, off, 0,
			       "header field %s says %zu bytes, but the field holds %zu; read %zu",
			       xqi_xqf_fields[f].tag, n, cap, cap);
			n = cap;
		}
		if (n == 0)
			continue;
		rc = decode_text(r, (const char *)h + off + 1, n, off + 1, 0, xqi_xqf_fields[f].tag);
		if (rc)
			return rc;
		if (r->text.len && xqi_record_add_tag(r->g, xqi_xqf_fields[f].tag, strlen(xqi_xqf_fields[f].tag),
						   r->text.ptr, r->text.len))
			return XQ_ENOMEM;
	}
	return 0;
}

static int read_result_and_type(struct rd *r)
{
	struct xqi_record *g = r->g;
	unsigned res = r->p[H_RESULT], type = r->p[H_TYPE] | (unsigned)r->p[H_TYPE + 1] << 8;
	char num[16];
	const char *type_name;

	switch (res) {
	case 0:
		g->result = XQI_RESULT_UNKNOWN;
		break;
	case 1:
		g->result = XQI_RESULT_RED_WIN;
		break;
	case 2:
		g->result = XQI_RESULT_BLACK_WIN;
		break;
	case 3:
	case 4:
		g->result = XQI_RESULT_DRAW;
		if (res == 4)
			report(r, XQ_SEVERITY_NOTE, XQI_D_BAD_RESULT, H_RESULT, 0,
			       "result code 4 read as a draw (some writers use it)");
		break;
	default:
		g->result = XQI_RESULT_UNKNOWN;
		report(r, XQ_SEVERITY_WARNING, XQI_D_BAD_RESULT, H_RESULT, 0,
		       "unknown result code %u, read as unknown", res);
	}
	if (xqi_record_add_tag(g, "Result", 6, xqi_result_string(g->result),
			    strlen(xqi_result_string(g->result))))
		return XQ_ENOMEM;
	if (type < XQF_GAME_TYPES) {
		type_name = xqi_xqf_game_types[type];
	} else {
		snprintf(num, sizeof(num), "%u", type);
		type_name = num;
	}
	return xqi_record_add_tag(g, "GameType", 8, type_name, strlen(type_name));
}

/* The piece array into a board (§3.3); side from WhoPlay for now. */
static int read_pieces(struct rd *r)
{
	const unsigned char *h = r->p;
	uint8_t t[32];
	int owner[90];

	memset(owner, -1, sizeof(owner));
	for (int i = 0; i < 32; i++) {
		if (r->version >= 0x0C)
			t[(i + 1 + r->k.xy) % 32] = h[H_PIECES + i];
		else
			t[i] = h[H_PIECES + i];
	}
	xqi_position_clear(&r->b);
	for (int i = 0; i < 32; i++) {
		unsigned s = (uint8_t)(t[i] - r->k.xy);
		int side = i >= 16, type = xqi_xqf_slot_type[i & 15];
		xqi_sq sq;
		if (s > 89)
			continue; /* captured or absent (§3.3: any value above 89) */
		sq = XQI_SQ(s / 10, s % 10);
		if (owner[s] >= 0) {
			char name[3];
			xqi_sq_name(sq, name);
			report(r, XQ_SEVERITY_ERROR, XQI_D_CORRUPT, H_PIECES, 0,
			       "pieces in slots %d and %d are both on %s; the start position "
			       "cannot be built and nothing was read",
			       owner[s], i, name);
			return XQ_EILLEGAL;
		}
		owner[s] = i;
		if (xqi_position_put(&r->b, side, type, sq, NULL))
			return XQ_EINTERNAL; /* slots match the board's piece counts */
	}
	return 0;
}

/*
 * The last moves on the way to node `n`, for messages: "h2e2 h9g7 b0c2[2]",
 * where [k] marks the k-th alternative (alt[], see struct rd), with "..."
 * in front when longer.
 */
static void node_path(const struct xqi_record *g, const uint32_t *alt, uint32_t n, char *out,
		      size_t cap)
{
	enum { SHOW = 8 };
	uint32_t last[SHOW];
	size_t k = 0, len = 0;
	int more = 0;

	for (uint32_t m = n; m != XQI_ROOT && m != XQ_NO_NODE; m = g->nodes[m].parent) {
		if (k == SHOW) {
			more = 1;
			break;
		}
		last[k++] = m;
	}
	out[0] = '\0';
	if (k == 0) {
		snprintf(out, cap, "from the start");
		return;
	}
	if (more)
		len += (size_t)snprintf(out + len, cap - len, "... ");
	while (k-- > 0 && len < cap) {
		char name[5];
		unsigned a = alt[last[k]];
		xqi_move_name(g->nodes[last[k]].move, name);
		if (a > 1)
			len += (size_t)snprintf(out + len, cap - len, "%s[%u]%s", name, a,
						k ? " " : "");
		else
			len += (size_t)snprintf(out + len, cap - len, "%s%s", name, k ? " " : "");
	}
}

/* Report the refused move whose subtree is over (lib/flattree.h): with
 * `at_end`, the tree's reading ended. */
static void flush_pending(struct rd *r, struct xqi_flat_tree *t, int at_end)
{
	struct xq_diagnostic d;

	if (xqi_flat_tree_cut_done(t, at_end, &d))
		xqi_sink_report(r->sink, &d);
}

/*
 * Read the record at *pos.  Returns 0 with *out filled and *pos past it;
 * 1 when the record's move is usable but its comment length is not (the
 * reading must stop after it; reported); XQ_ETRUNCATED when the record
 * itself is cut (reported).
 */
static int read_record(struct rd *r, size_t *pos, uint32_t ply, struct rec *out)
{
	size_t p = *pos, need = r->version <= XQI_XQF_VERSION_PLAIN ? 8 : 4;
	unsigned char b0, b1, fl;
	int has_len;

	memset(out, 0, sizeof(*out));
	out->off = p;
	if (r->len - p < need) {
		report(r, XQ_SEVERITY_ERROR, XQI_D_TRUNCATED, p, ply,
		       "the %s record is cut: %zu of its %zu bytes are there",
		       ply ? "move" : "root", r->len - p, need);
		return XQ_ETRUNCATED;
	}
	b0 = rd_byte(r, p);
	b1 = rd_byte(r, p + 1);
	fl = rd_byte(r, p + 2);
	out->from = (uint8_t)(b0 - 0x18 - r->k.xyf);
	out->to = (uint8_t)(b1 - 0x20 - r->k.xyt);
	if (r->version <= XQI_XQF_VERSION_PLAIN) {
		out->cont = (fl & 0xF0) != 0;
		out->sib = (fl & 0x0F) != 0;
		has_len = 1;
	} else {
		out->cont = (fl & F_CONT) != 0;
		out->sib = (fl & F_SIB) != 0;
		has_len = (fl & F_LEN) != 0;
	}
	p += 4;
	if (has_len) {
		uint32_t stored;
		int64_t clen;
		if (r->version > XQI_XQF_VERSION_PLAIN) {
			if (r->len - p < 4) {
				report(r, XQ_SEVERITY_ERROR, XQI_D_TRUNCATED, p, ply,
				       "the comment length of the record at offset %llu is cut",
				       (unsigned long long)out->off);
				return XQ_ETRUNCATED;
			}
		}
		stored = rd_u32(r, p);
		p += 4;
		clen = stored;
		if (r->version > XQI_XQF_VERSION_PLAIN && stored > 0)
			clen = (int64_t)stored - r->k.rmk_size;
		if (clen < 0) {
			report(r, XQ_SEVERITY_ERROR, XQI_D_CORRUPT, p - 4, ply,
			       "comment length %lld is negative (stored %lu, key %u); the rest "
			       "of the file cannot be located",
			       (long long)clen, (unsigned long)stored, r->k.rmk_size);
			*pos = r->len;
			return 1;
		}
		if ((uint64_t)clen > r->len - p) {
			report(r, XQ_SEVERITY_ERROR, XQI_D_TRUNCATED, p - 4, ply,
			       "comment length %lld runs past the end of the file (%zu bytes left); "
			       "the comment and the rest of the tree are lost",
			       (long long)clen, r->len - p);
			*pos = r->len;
			return 1;
		}
		out->coff = p;
		out->clen = (size_t)clen;
		p += (size_t)clen;
	}
	*pos = p;
	return 0;
}

/* Decode a record's comment, strip one trailing CRLF, CRLF to LF. */
static int read_comment(struct rd *r, const struct rec *c, uint32_t ply, const char **out,
			size_t *outlen)
{
	char *s, *w;
	size_t n;
	int rc;

	*out = NULL;
	*outlen = 0;
	if (!c->clen)
		return 0;
	xq_buf_reset(&r->raw);
	if (xq_buf_grow(&r->raw, c->clen))
		return XQ_ENOMEM;
	for (size_t i = 0; i < c->clen; i++)
		r->raw.ptr[i] = (char)rd_byte(r, c->coff + i);
	r->raw.len = c->clen;
	r->raw.ptr[c->clen] = '\0';
	rc = decode_text(r, r->raw.ptr, r->raw.len, c->coff, ply,
			 ply ? "the comment" : "the game comment");
	if (rc)
		return rc;
	s = r->text.ptr;
	n = r->text.len;
	if (n >= 2 && s[n - 2] == '\r' && s[n - 1] == '\n')
		n -= 2;
	w = s;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\r' && i + 1 < n && s[i + 1] == '\n')
			continue;
		*w++ = s[i];
	}
	n = (size_t)(w - s);
	if (n) {
		*out = s;
		*outlen = n;
	}
	return 0;
}

/* The side whose piece stands on the first move's origin, or -1. */
static int first_move_side(struct rd *r, size_t pos)
{
	unsigned from;
	xqi_sq sq;

	if (r->len - pos < 4)
		return -1;
	from = (uint8_t)(rd_byte(r, pos) - 0x18 - r->k.xyf);
	if (from > 89)
		return -1;
	sq = XQI_SQ(from / 10, from % 10);
	if (!r->b.sq[sq])
		return -1;
	return XQI_ID_SIDE(r->b.sq[sq]);
}

/*
 * Can the board occur?  0 if it can, 1 if only as a composed position
 * (advisors, elephants or pawns where they never go), XQ_EILLEGAL if not
 * at all; `why` says what is wrong in the last two cases.
 */
static int check_position(const struct xqi_position *b, char *why, size_t cap)
{
	struct xq_diagnostic d;

	xqi_diagnostic_init(&d);
	if (xqi_position_validate(b, 0, &d) == 0)
		return 0;
	snprintf(why, cap, "%s", d.msg);
	if (xqi_position_validate(b, XQI_FEN_LENIENT_PLACEMENT, &d) == 0)
		return 1;
	snprintf(why, cap, "%s", d.msg);
	return XQ_EILLEGAL;
}

static void set_side(struct rd *r, int side)
{
	r->b.side = (uint8_t)side;
	r->b.key = xqi_position_compute_key(&r->b);
}

/*
 * Settle the side to move and check the position: 0 when it can occur
 * (notes for a composed position or a side taken from the moves), or
 * XQ_EILLEGAL with the reason in r->bad_start.
 */
static int setup_position(struct rd *r, int first_side)
{
	unsigned who = r->p[H_WHOPLAY];
	int side = who == 1 ? XQI_BLACK : XQI_RED, rc;
	char why[XQ_MESSAGE_SIZE], why2[XQ_MESSAGE_SIZE];

	if (who > 1)
		report(r, XQ_SEVERITY_WARNING, XQI_D_SIDE_TO_MOVE, H_WHOPLAY, 0,
		       "side-to-move byte is %u, not 0 or 1; red assumed", who);
	if (first_side >= 0 && first_side != side) {
		report(r, XQ_SEVERITY_NOTE, XQI_D_SIDE_TO_MOVE, H_WHOPLAY, 0,
		       "the header says %s moves first, but the first move is %s's; %s moves first",
		       side ? "black" : "red", first_side ? "black" : "red",
		       first_side ? "black" : "red");
		side = first_side;
	}
	set_side(r, side);
	rc = check_position(&r->b, why, sizeof(why));
	if (rc < 0) {
		/* A diagram of a mate has the mated side to move, whatever the
		 * header says.  Take the side that makes the position possible,
		 * if one does; a first move of the other side is then refused
		 * as illegal like any other.  (Deciding by the position alone
		 * also makes a written-back record read the same.) */
		set_side(r, side ^ 1);
		rc = check_position(&r->b, why2, sizeof(why2));
		if (rc >= 0) {
			report(r, XQ_SEVERITY_NOTE, XQI_D_SIDE_TO_MOVE, H_WHOPLAY, 0,
			       "%s to move is impossible (%s), so %s moves",
			       side ? "black" : "red", why, side ? "red" : "black");
		} else {
			size_t len = strlen(why);
			snprintf(why + len, sizeof(why) - len, ", and with %s to move, %.100s",
				 side ? "red" : "black", why2);
			set_side(r, side);
		}
		if (rc == 1)
			memcpy(why, why2, sizeof(why));
	}
	if (rc == 1)
		report(r, XQ_SEVERITY_NOTE, XQI_D_BAD_FEN, H_PIECES, 0,
		       "composed start position: %s; loaded as it is", why);
	if (rc >= 0)
		return 0;
	snprintf(r->bad_start, sizeof(r->bad_start), "%s", why);
	return XQ_EILLEGAL;
}

/*
 * Hand the builder `t` the diagnostic for the refused move of record `c`
 * (`m` is 0 when it names a square off the board), played from node
 * `parent` at `ply`: it is reported once its subtree has been skipped,
 * with what was cut (flush_pending()).  `why` is what the builder said.
 */
static void refuse_move(struct rd *r, struct xqi_flat_tree *t, const struct rec *c, xqi_move m,
			uint32_t parent, uint32_t ply, const struct xq_diagnostic *why)
{
	char name[5], path[120];
	struct xq_diagnostic d;

	node_path(r->g, r->alt, parent, path, sizeof(path));
	rd_diag(r, &d, c->off, ply);
	if (m) {
		xqi_move_name(m, name);
		xqi_diagnostic_set_move(&d, name, 4);
		xqi_diagnostic_set(&d, 0, XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_ERROR,
			    "illegal move %s at ply %u after %s: %.100s", name, ply, path, why->msg);
	} else {
		xqi_diagnostic_set(&d, 0, XQI_D_CORRUPT, XQ_SEVERITY_ERROR,
			    "move at ply %u after %s names a square off the board "
			    "(from byte %u, to byte %u)",
			    ply, path, c->from, c->to);
	}
	xqi_flat_tree_hold(t, &d);
	r->st->bad_moves++;
}

/*
 * Read the tree from the record after the root (§5.2), iteratively.  The
 * records are a flat depth-first list: a record's "continues" bit says
 * its line goes on, its "sibling" bit that an alternative to it comes
 * after its subtree, which is what lib/flattree.h builds from.
 */
static int read_tree(struct rd *r, size_t *pos, int skip_all)
{
	struct xqi_flat_tree t;
	int rc = 0, alternative = 0;

	xqi_flat_tree_init(&t, r->g);
	if (skip_all)
		t.parent = XQ_NO_NODE; /* every record is read and counted, none kept */

	/* Every record takes 4 bytes at least. */
	for (size_t was = *pos;; XQI_ADVANCED(was, *pos)) {
		struct rec c;
		struct xq_diagnostic why;
		uint32_t node = XQ_NO_NODE, parent = t.parent, ply = t.ply + 1, prev;
		size_t open = t.depth;
		xqi_move m = 0;
		int stop;

		rc = read_record(r, pos, ply, &c);
		stop = rc == 1;
		if (rc < 0) {
			size_t waiting = open + 1;
			flush_pending(r, &t, 1);
			report(r, XQ_SEVERITY_ERROR, XQI_D_TRUNCATED, c.off, ply,
			       "the move tree ends early: %zu more line%s announced and lost",
			       waiting, waiting == 1 ? " was" : "s were");
			r->g->flags |= XQI_RECORD_BROKEN;
			rc = 0;
			break;
		}
		r->st->records++;
		if (alternative)
			r->st->siblings++;
		if (c.clen)
			r->st->commented++;
		if (c.from <= 89 && c.to <= 89)
			m = XQI_MOVE(XQI_SQ(c.from / 10, c.from % 10), XQI_SQ(c.to / 10, c.to % 10));
		prev = parent == XQ_NO_NODE ? XQ_NO_NODE : r->g->nodes[parent].last_child;
		/* `why` is written only when the move is refused (this runs for
		 * every move, so nothing is cleared before). */
		rc = xqi_flat_tree_add(&t, m, c.sib, !c.cont, &node, &why);
		if (rc == XQ_ENOMEM)
			break;
		if (rc == 1) {
			if (XQ_ALLOC_GROW(r->alt, r->g->nnodes, r->alt_cap)) {
				rc = XQ_ENOMEM;
				break;
			}
			r->alt[node] = prev == XQ_NO_NODE ? 1 : r->alt[prev] + 1;
			r->g->nodes[node].place.offset = c.off;
		} else {
			if (rc == XQ_EILLEGAL || rc == XQ_EPARSE)
				refuse_move(r, &t, &c, m, parent, ply, &why);
			r->st->lost++;
		}
		rc = 0;
		if (node != XQ_NO_NODE && c.clen) {
			const char *text;
			size_t n;
			rc = read_comment(r, &c, ply, &text, &n);
			if (rc)
				break;
			if (text && xqi_record_set_comment(r->g, node, text, n)) {
				rc = XQ_ENOMEM;
				break;
			}
		}
		if (stop) {
			size_t lost = open + (size_t)c.cont;
			flush_pending(r, &t, 1);
			report(r, XQ_SEVERITY_ERROR, XQI_D_TRUNCATED, c.off, ply,
			       "reading stopped at this record; %zu more line%s lost", lost,
			       lost == 1 ? " was" : "s were");
			r->g->flags |= XQI_RECORD_BROKEN;
			break;
		}
		if (t.complete)
			break;
		/* After a line's end, the next record is an alternative; back on
		 * a kept line, the refused move's subtree is over. */
		alternative = !c.cont;
		flush_pending(r, &t, 0);
	}
	flush_pending(r, &t, 1);
	xqi_flat_tree_release(&t);
	return rc;
}

static void rd_release(struct rd *r)
{
	xqi_transcoder_release(&r->tc);
	xq_buf_release(&r->raw);
	xq_buf_release(&r->text);
	free(r->alt);
}

/*
 * The encoding of a record whose reader was not told one: UTF-8 when the
 * text of its header's strings is UTF-8 with a character of three bytes
 * or more (a CJK character: what xqkit writes with --output-encoding
 * utf-8), else GB18030, XQStudio's.  GBK text of a name or two is not
 * well-formed UTF-8 with such characters by chance; Big5, which XQF
 * records do not say either, is told with --input-encoding big5.
 */
static enum xqi_encoding header_encoding(const unsigned char *h, size_t len)
{
	int wide = 0;

	if (len < XQI_XQF_HEADER_SIZE)
		return XQI_ENC_GB18030;
	for (size_t f = 0; f < NFIELDS; f++) {
		size_t off = xqi_xqf_fields[f].offset, n = h[off], i = 0;
		if (n > TITLE_READ_CAP)
			n = TITLE_READ_CAP;
		while (i < n) {
			size_t k = h[off + 1 + i] < 0x80 ? 1
				   : xq_utf8_valid_prefix((const char *)h + off + 1 + i, n - i);
			if (!k)
				return XQI_ENC_GB18030;
			wide |= k >= 3;
			i += k;
		}
	}
	return wide ? XQI_ENC_UTF8 : XQI_ENC_GB18030;
}

/* The magic, the size and the version of the header, and the keys it
 * gives (§2): 0, or the error, reported. */
static int check_header(struct rd *r, const struct xqi_read_opts *opts)
{
	const unsigned char *data = r->p;
	uint8_t h16[16];

	if (r->len < 2 || data[0] != 'X' || data[1] != 'Q') {
		report(r, XQ_SEVERITY_ERROR, XQI_D_BAD_MAGIC, 0, 0,
		       "not an XQF file: it does not start with \"XQ\"");
		return XQ_EPARSE;
	}
	if (r->len < XQI_XQF_HEADER_SIZE) {
		report(r, XQ_SEVERITY_ERROR, XQI_D_TRUNCATED, r->len, 0,
		       "the XQF header is cut: %zu of its 1024 bytes are there; nothing was read",
		       r->len);
		return XQ_ETRUNCATED;
	}
	r->version = data[H_VERSION];
	r->st->version = r->version;
	if (r->version > XQI_XQF_VERSION_MAX) {
		if (!opts || !(opts->flags & XQI_XQF_TRY_NEWER)) {
			report(r, XQ_SEVERITY_ERROR, XQI_D_UNSUPPORTED, H_VERSION, 0,
			       "XQF version 0x%02X is newer than 0x12, the last XQStudio wrote; "
			       "not read",
			       r->version);
			return XQ_EUNSUPPORTED;
		}
		report(r, XQ_SEVERITY_WARNING, XQI_D_UNSUPPORTED, H_VERSION, 0,
		       "XQF version 0x%02X is newer than 0x12; read as 0x12", r->version);
		r->version = XQI_XQF_VERSION_MAX;
	}
	memcpy(h16, data, 16);
	h16[H_VERSION] = (uint8_t)r->version;
	xqi_xqf_keys_derive(&r->k, h16);
	if (r->version > XQI_XQF_VERSION_PLAIN &&
	    (uint8_t)(data[H_KEYSSUM] + data[H_KEYXY] + data[H_KEYXYF] + data[H_KEYXYT]) != 0)
		report(r, XQ_SEVERITY_WARNING, XQI_D_CHECKSUM, H_KEYSSUM, 0,
		       "key checksum bytes 0x0C-0x0F do not add up to 0 (XQStudio would refuse "
		       "the file); read anyway");
	return 0;
}

/* A start position that cannot occur: the game is broken, and says so. */
static void report_impossible(struct rd *r)
{
	char lost[64] = "";

	r->g->flags |= XQI_RECORD_BROKEN;
	if (r->st->records)
		snprintf(lost, sizeof(lost), "; %u move record%s not kept", r->st->records,
			 r->st->records == 1 ? "" : "s");
	report(r, XQ_SEVERITY_ERROR, XQI_D_BAD_FEN, H_PIECES, 0,
	       "the start position cannot occur: %s; the game keeps its header and game "
	       "comment only%s",
	       r->bad_start, lost);
}

/* After the header: the start position, the root record (its squares mean
 * nothing; its comment is the game's, §5.3) and the move tree. */
static int read_game(struct rd *r)
{
	struct xqi_record *g = r->g;
	struct rec root;
	size_t pos = XQI_XQF_HEADER_SIZE, n;
	int rc, first_side = -1, impossible;
	const char *s;

	rc = read_record(r, &pos, 0, &root);
	if (rc < 0) {
		/* No tree at all: the header alone is the game. */
		g->flags |= XQI_RECORD_BROKEN | XQI_RECORD_EMPTY;
		impossible = setup_position(r, -1) != 0;
		g->start = r->b;
		r->st->end = pos;
		if (impossible)
			report_impossible(r);
		return 0;
	}
	if (root.cont && rc == 0)
		first_side = first_move_side(r, pos);
	if (rc == 1) {
		g->flags |= XQI_RECORD_BROKEN;
		root.cont = 0;
	}
	impossible = setup_position(r, first_side) != 0;
	g->start = r->b;
	if (root.clen) {
		r->st->commented++;
		rc = read_comment(r, &root, 0, &s, &n);
		if (rc)
			return rc;
		if (s && xqi_record_set_comment(g, XQI_ROOT, s, n))
			return XQ_ENOMEM;
	}
	/* From a position that cannot occur no move can be checked: the tree
	 * is read through, to report its damage, but not kept. */
	if (root.cont && (rc = read_tree(r, &pos, impossible)) != 0)
		return rc;
	if (g->nnodes == 1)
		g->flags |= XQI_RECORD_EMPTY;
	r->st->end = pos;
	if (pos < r->len) {
		r->st->trailing = r->len - pos;
		report(r, XQ_SEVERITY_WARNING, XQI_D_TRAILING, pos, 0,
		       "%zu byte%s after the end of the move tree ignored", r->len - pos,
		       r->len - pos == 1 ? "" : "s");
	}
	if (impossible)
		report_impossible(r);
	return 0;
}

int xqi_xqf_read_mem(struct xqi_record *g, const unsigned char *data, size_t len,
		    const struct xqi_read_opts *opts, const struct xqi_sink *sink, const char *source,
		    struct xqi_xqf_stats *stats)
{
	struct xqi_xqf_stats st_local;
	struct rd r;
	int rc;

	memset(&r, 0, sizeof(r));
	r.p = data;
	r.len = len;
	r.sink = sink;
	r.source = source;
	r.g = g;
	r.st = stats ? stats : &st_local;
	memset(r.st, 0, sizeof(*r.st));
	r.enc = opts && opts->encoding != XQI_ENC_UNKNOWN ? opts->encoding
							 : header_encoding(data, len);
	xqi_transcoder_init(&r.tc, r.enc, XQI_ENC_UTF8);
	xq_buf_init(&r.raw);
	xq_buf_init(&r.text);
	xqi_record_clear(g);
	g->number = 1;
	g->source = source;
	g->encoding = xqi_encoding_name(r.enc);

	rc = check_header(&r, opts);
	if (!rc)
		rc = read_header_strings(&r);
	if (!rc)
		rc = read_result_and_type(&r);
	if (!rc)
		rc = read_pieces(&r);
	if (!rc)
		rc = read_game(&r);
	rd_release(&r);
	return rc;
}

/* The format interface: one game per input. */
struct xqf_reader {
	struct xqi_input *in;
	const struct xqi_format *fmt; /* the registry entry: its limit */
	struct xqi_read_opts opts;
	const struct xqi_sink *sink;
	struct xq_buf data;
	int done;
};

int xqi_xqf_open_reader(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
		       const struct xqi_sink *sink, const struct xqi_format *fmt)
{
	struct xqf_reader *rd = calloc(1, sizeof(*rd));
	struct xqi_read_opts def = XQI_READ_OPTS_INIT;

	if (!rd)
		return XQ_ENOMEM;
	rd->in = in;
	rd->fmt = fmt;
	rd->opts = opts ? *opts : def;
	rd->sink = sink;
	xq_buf_init(&rd->data);
	*out = rd;
	return 0;
}

int xqi_xqf_read(void *reader, struct xqi_record *g)
{
	struct xqf_reader *rd = reader;
	struct xq_diagnostic d;
	int rc;

	if (rd->done)
		return 0;
	rd->done = 1;
	xqi_diagnostic_init(&d);
	xq_buf_reset(&rd->data);
	rc = xqi_input_read_all(rd->in, &rd->data,
			       (size_t)xqi_format_record_limit(rd->fmt, &rd->opts), &d);
	if (rc) {
		d.source = xqi_input_name(rd->in);
		if (rc == XQ_ERANGE)
			xqi_format_limit_diag(&d, rd->fmt, &rd->opts, "the input");
		xqi_sink_report(rd->sink, &d);
		return rc;
	}
	rc = xqi_xqf_read_mem(g, (const unsigned char *)rd->data.ptr, rd->data.len, &rd->opts,
			     rd->sink, xqi_input_name(rd->in), NULL);
	return rc < 0 ? rc : 1;
}

void xqi_xqf_close_reader(void *reader)
{
	struct xqf_reader *rd = reader;

	if (!rd)
		return;
	xq_buf_release(&rd->data);
	free(rd);
}

int xqi_xqf_probe(const unsigned char *head, size_t len)
{
	if (len < 3 || head[0] != 'X' || head[1] != 'Q')
		return 0;
	return head[2] <= XQI_XQF_VERSION_MAX ? 95 : 60;
}
