/*
 * xqf_write.c: writing an XQF record, version 0x0A or 0x12 (xqf.c).
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

static const char *const game_types_en[XQF_GAME_TYPES] = {"full", "opening", "middlegame", "endgame"};

/* ------------------------------------------------------------------ */
/* Writing                                                             */

struct xqf_writer {
	struct xq_file *o;
	const struct xqi_sink *sink;
	unsigned version;
	enum xqi_encoding enc;
	struct xqi_transcoder tc; /* UTF-8 to enc, opened once for the writer */
	uint64_t games;
	struct xq_buf out, tmp, text;
	const char *name;
};

static int ascii_only(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] >= 0x80)
			return 0;
	return 1;
}

/* Quote at most `max` bytes of `s` for a message, whole UTF-8 characters only. */
static int clip(const char *s, size_t len, size_t max)
{
	if (len <= max)
		return (int)len;
	while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
		max--;
	return (int)max;
}

/* Write a tag value into the Pascal string at h + off (cap bytes of text). */
static int put_field(struct xqf_writer *w, unsigned char *h, const struct xqf_field *f,
		     const char *value)
{
	size_t len = strlen(value), used = 0, cut = len;
	char what[64];
	int rc;

	xq_buf_reset(&w->tmp);
	snprintf(what, sizeof(what), "tag %s", f->tag);
	if (w->enc != XQI_ENC_UTF8 && ascii_only(value, len))
		rc = xq_buf_add(&w->tmp, value, len) ? XQ_ENOMEM : 0;
	else
		rc = xqi_write_text(w->sink, w->o, w->games, 0, &w->tc, what, value, len, &w->tmp,
				   NULL);
	if (rc)
		return rc;
	if (w->tmp.len > f->cap) {
		/* Find the longest whole-character prefix that fits. */
		struct xq_buf part = XQ_BUF_INIT;
		size_t i = 0, lost, first;
		used = 0;
		while (i < len) {
			size_t ch = xq_utf8_valid_prefix(value + i, len - i);
			if (!ch)
				ch = 1;
			xq_buf_reset(&part);
			if (xqi_transcoder_convert_lossy(&w->tc, value + i, ch, &part, &lost, &first)) {
				xq_buf_release(&part);
				return XQ_ENOMEM;
			}
			if (used + part.len > f->cap)
				break;
			used += part.len;
			i += ch;
		}
		xq_buf_release(&part);
		cut = i;
		xqi_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
			 "tag %s is %zu bytes in %s but XQF holds %u: kept '%.*s', lost '%.*s'",
			 f->tag, w->tmp.len, xqi_encoding_name(w->enc), f->cap,
			 clip(value, cut, 60), value, clip(value + cut, len - cut, 60),
			 value + cut);
		xq_buf_truncate(&w->tmp, used);
	}
	h[f->offset] = (unsigned char)w->tmp.len;
	memcpy(h + f->offset + 1, w->tmp.ptr, w->tmp.len);
	return 0;
}

/* Is this tag held elsewhere than in a header string? */
static int tag_has_other_place(const struct xqi_tag *t)
{
	return !strcmp(t->name, "Result") || !strcmp(t->name, "GameType") ||
	       !strcmp(t->name, "FEN") ||
	       (!strcmp(t->name, "Game") && !strcmp(t->value, "Chinese Chess"));
}

static int parse_game_type(const char *v, unsigned *out)
{
	size_t n = XQF_GAME_TYPES;
	unsigned num = 0;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(v, xqi_xqf_game_types[i]) || !strcmp(v, game_types_en[i])) {
			*out = (unsigned)i;
			return 0;
		}
	/* "开局" is the other common word for an opening. */
	if (!strcmp(v, "开局")) {
		*out = 1;
		return 0;
	}
	if (!*v)
		return -1;
	for (const char *p = v; *p; p++) {
		if (!xq_is_digit((unsigned char)*p) || num > 6553)
			return -1;
		num = num * 10 + (unsigned)(*p - '0');
	}
	if (num > 65535)
		return -1;
	*out = num;
	return 0;
}

/*
 * The tags into the header's strings: the first of each field's, the
 * others reported as lost.  The names met so far are kept as bits (the
 * fields, then the tags XQF holds elsewhere), so a repeat is known at
 * once: looking back through every tag before it was quadratic.
 */
static int write_tags(struct xqf_writer *w, const struct xqi_record *g, unsigned char *h)
{
	static const char *const other[] = {"Result", "GameType", "FEN", "Game"};
	uint32_t seen = 0;

	for (size_t i = 0; i < g->ntags; i++) {
		const struct xqi_tag *tg = &g->tags[i];
		size_t f, k = 0;
		uint32_t bit = 0;
		int first, rc;
		for (f = 0; f < NFIELDS; f++)
			if (!strcmp(xqi_xqf_fields[f].tag, tg->name))
				break;
		if (f < NFIELDS)
			bit = (uint32_t)1 << f;
		else
			while (k < 4 && strcmp(other[k], tg->name))
				k++;
		if (k < 4 && f == NFIELDS)
			bit = (uint32_t)1 << (NFIELDS + k);
		first = !(seen & bit);
		seen |= bit;
		if (tag_has_other_place(tg)) {
			if (!first && strcmp(tg->name, "Game"))
				xqi_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
					 "tag %s appears again ('%.60s'); only the first is kept",
					 tg->name, tg->value);
			continue;
		}
		if (f == NFIELDS) {
			if (*tg->value)
				xqi_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
					 "tag %s ('%.60s') has no place in XQF and was dropped",
					 tg->name, tg->value);
			continue;
		}
		if (!first) {
			xqi_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
				 "tag %s appears again ('%.60s'); only the first is kept", tg->name,
				 tg->value);
			continue;
		}
		rc = put_field(w, h, &xqi_xqf_fields[f], tg->value);
		if (rc)
			return rc;
	}
	return 0;
}

static int write_header(struct xqf_writer *w, const struct xqi_record *g, unsigned char *h)
{
	const struct xqi_position *b = &g->start;
	uint8_t t[32];
	unsigned type;
	const char *gt = xqi_record_tag(g, "GameType");

	memset(h, 0, XQI_XQF_HEADER_SIZE);
	h[0] = 'X';
	h[1] = 'Q';
	h[H_VERSION] = (uint8_t)w->version;
	/* Key bytes stay zero: KeyXY = KeyXYf = KeyXYt = 0, keystream 0, KeyRMKSize 767. */

	/* Piece array: each board piece into the next XQF slot of its kind. */
	memset(t, 0xFF, sizeof(t));
	for (int side = 0; side < 2; side++) {
		int base = XQI_SIDE_TAG(side);
		for (int id = base; id < base + 16; id++) {
			xqi_sq sq = b->pc[id];
			int type_id = XQI_KIND_TYPE(xqi_kind_of_id[id]);
			if (!sq)
				continue;
			for (int s = 0; s < 16; s++) {
				if (xqi_xqf_slot_type[s] == type_id && t[side * 16 + s] == 0xFF) {
					t[side * 16 + s] =
						(uint8_t)(XQI_SQ_FILE(sq) * 10 + XQI_SQ_RANK(sq));
					break;
				}
			}
		}
	}
	for (int i = 0; i < 32; i++)
		h[H_PIECES + i] = w->version >= 0x0C ? t[(i + 1) % 32] : t[i];

	h[H_WHOPLAY] = b->side == XQI_BLACK ? 1 : 0;
	switch (g->result) {
	case XQI_RESULT_RED_WIN:
		h[H_RESULT] = 1;
		break;
	case XQI_RESULT_BLACK_WIN:
		h[H_RESULT] = 2;
		break;
	case XQI_RESULT_DRAW:
		h[H_RESULT] = 3;
		break;
	case XQI_RESULT_NONE:
	case XQI_RESULT_UNKNOWN:
		h[H_RESULT] = 0;
		if (g->result_text && strcmp(g->result_text, "*"))
			xqi_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
				 "result '%s' has no XQF code; written as unknown", g->result_text);
		break;
	}

	{
		struct xqi_position start;
		xqi_position_start(&start);
		/* The pieces, not their identities: an XQF record read back
		 * numbers the start's pieces by its slots. */
		type = xqi_position_same_pieces(&start, b) ? 0 : 2;
	}
	if (gt && parse_game_type(gt, &type))
		xqi_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
			 "tag GameType '%.60s' is not an XQF game type; written as %s", gt,
			 xqi_xqf_game_types[type]);
	h[H_TYPE] = (uint8_t)(type & 0xFF);
	h[H_TYPE + 1] = (uint8_t)(type >> 8);
	return write_tags(w, g, h);
}

/* Append text for a comment: LF to CRLF (UTF-8 still). */
static int add_crlf_text(struct xq_buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n' && xq_buf_addc(b, '\r'))
			return XQ_ENOMEM;
		if (xq_buf_addc(b, *s))
			return XQ_ENOMEM;
	}
	return 0;
}

/*
 * The comment of node `n` as XQF holds it: its own comment, then the
 * comments written before each of its children's moves (XQF has no place
 * for those; they are shown at the same position, and reported).
 */
static int node_comment(struct xqf_writer *w, const struct xqi_record *g, uint32_t n,
			uint32_t ply)
{
	const struct xqi_node *nd = &g->nodes[n];
	int rc = 0;

	xq_buf_reset(&w->text);
	if (nd->pre_comment && *nd->pre_comment && n == XQI_ROOT)
		rc = add_crlf_text(&w->text, nd->pre_comment);
	if (!rc && nd->comment && *nd->comment) {
		if (w->text.len)
			rc = xq_buf_adds(&w->text, "\r\n");
		if (!rc)
			rc = add_crlf_text(&w->text, nd->comment);
	}
	for (uint32_t c = nd->child; !rc && c != XQ_NO_NODE; c = g->nodes[c].sibling) {
		const char *pre = g->nodes[c].pre_comment;
		char name[5];
		if (!pre || !*pre)
			continue;
		xqi_move_name(g->nodes[c].move, name);
		xqi_write_report(w->sink, w->o, w->games, ply + 1, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
			 "XQF has no comment before a move: the comment before %s was added to "
			 "the comment of the position it is played from",
			 name);
		if (w->text.len)
			rc = xq_buf_adds(&w->text, "\r\n");
		if (!rc)
			rc = add_crlf_text(&w->text, pre);
	}
	if (!rc && w->text.len)
		rc = xq_buf_adds(&w->text, "\r\n");
	return rc;
}

static void put_u32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static int flush_out(struct xqf_writer *w)
{
	int rc = xqi_file_write(w->o, w->out.ptr, w->out.len);

	xq_buf_reset(&w->out);
	return rc;
}

static int write_tree(struct xqf_writer *w, const struct xqi_record *g)
{
	uint32_t ply = 0;
	int plain = w->version <= XQI_XQF_VERSION_PLAIN;

	for (uint32_t n = XQI_ROOT; n != XQ_NO_NODE; n = xqi_record_next_ply(g, n, &ply)) {
		const struct xqi_node *nd = &g->nodes[n];
		unsigned char rec[8];
		int cont = nd->child != XQ_NO_NODE, sib = n != XQI_ROOT && nd->sibling != XQ_NO_NODE;
		size_t clen = 0;
		int rc;

		rc = node_comment(w, g, n, ply);
		if (rc)
			return rc;
		xq_buf_reset(&w->tmp);
		if (w->text.len) {
			if (w->enc != XQI_ENC_UTF8 && ascii_only(w->text.ptr, w->text.len))
				rc = xq_buf_add(&w->tmp, w->text.ptr, w->text.len) ? XQ_ENOMEM : 0;
			else
				rc = xqi_write_text(w->sink, w->o, w->games, ply, &w->tc,
						   n == XQI_ROOT ? "game comment" : "comment",
						   w->text.ptr, w->text.len, &w->tmp, NULL);
			if (rc)
				return rc;
			clen = w->tmp.len;
			if (clen > UINT32_MAX - 767u) {
				xqi_write_report(w->sink, w->o, w->games, ply, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
					 "comment of %zu bytes is too long for XQF and was dropped",
					 clen);
				clen = 0;
			}
		}
		if (n == XQI_ROOT) {
			/* XQF 1.0 writes the root as square 0 plus the offsets; XQStudio as "XQ". */
			rec[0] = plain ? 0x18 : 'X';
			rec[1] = plain ? 0x20 : 'Q';
		} else {
			xqi_sq from = XQI_MOVE_FROM(nd->move), to = XQI_MOVE_TO(nd->move);
			rec[0] = (unsigned char)(XQI_SQ_FILE(from) * 10 + XQI_SQ_RANK(from) + 0x18);
			rec[1] = (unsigned char)(XQI_SQ_FILE(to) * 10 + XQI_SQ_RANK(to) + 0x20);
		}
		if (plain) {
			rec[2] = (unsigned char)((cont ? 0xF0 : 0) | (sib ? 0x0F : 0));
			rec[3] = n == XQI_ROOT ? 0xFF : 0;
			put_u32(rec + 4, (uint32_t)clen);
			rc = xq_buf_add(&w->out, rec, 8);
		} else {
			rec[2] = (unsigned char)((cont ? F_CONT : 0) | (sib ? F_SIB : 0) |
						 (clen ? F_LEN : 0));
			rec[3] = 0;
			put_u32(rec + 4, (uint32_t)(clen + 767));
			rc = xq_buf_add(&w->out, rec, clen ? 8 : 4);
		}
		if (!rc && clen)
			rc = xq_buf_add(&w->out, w->tmp.ptr, clen) ? XQ_ENOMEM : 0;
		if (rc)
			return XQ_ENOMEM;
		if (w->out.len >= 65536 && (rc = flush_out(w)) != 0)
			return rc;
	}
	/* Comments before a move are folded into the comment before it. */
	xqi_write_losses(w->sink, w->o, w->games, g, XQI_XQF_CAPS, XQI_LOSS_PRE_COMMENTS_KEPT,
			"XQF");
	return 0;
}

int xqi_xqf_open_writer(void **out, struct xq_file *o, const struct xqi_write_opts *opts,
		       const struct xqi_sink *sink)
{
	struct xqf_writer *w;
	unsigned version = opts && opts->version ? (unsigned)opts->version : XQI_XQF_VERSION_PLAIN;
	enum xqi_encoding enc = opts && opts->encoding ? opts->encoding : XQI_ENC_GB18030;

	if (version != XQI_XQF_VERSION_PLAIN && version != XQI_XQF_VERSION_ENCRYPTED)
		return xqi_write_refuse(sink, o,
				       "XQF version 0x%02X cannot be written; use 0x0A (10) or 0x12 (18)",
				       version);
	if (enc == XQI_ENC_UTF16LE || enc == XQI_ENC_UTF16BE)
		return xqi_write_refuse(sink, o,
				       "XQF text cannot be %s; use gbk, gb18030, big5 or utf-8",
				       xqi_encoding_name(enc));
	w = calloc(1, sizeof(*w));
	if (!w)
		return XQ_ENOMEM;
	w->o = o;
	w->sink = sink;
	w->version = version;
	w->enc = enc;
	xqi_transcoder_init(&w->tc, XQI_ENC_UTF8, enc);
	w->name = xqi_file_name(o);
	xq_buf_init(&w->out);
	xq_buf_init(&w->tmp);
	xq_buf_init(&w->text);
	*out = w;
	return 0;
}

int xqi_xqf_write(void *writer, const struct xqi_record *g)
{
	struct xqf_writer *w = writer;
	unsigned char h[XQI_XQF_HEADER_SIZE];
	int rc;

	w->games++;
	if (w->games > 1) {
		xqi_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEVERITY_ERROR, XQI_D_UNSUPPORTED,
			 "XQF holds one game per file: game %llu was not written (write one "
			 "file per game)",
			 (unsigned long long)w->games);
		return XQ_EUNSUPPORTED;
	}
	if ((rc = xqi_write_start_check(w->sink, w->o, g, "XQF", 0)))
		return rc;
	rc = write_header(w, g, h);
	if (!rc)
		rc = xq_buf_add(&w->out, h, sizeof(h)) ? XQ_ENOMEM : 0;
	if (!rc)
		rc = write_tree(w, g);
	if (!rc)
		rc = flush_out(w);
	return rc;
}

int xqi_xqf_close_writer(void *writer)
{
	struct xqf_writer *w = writer;
	int rc;

	if (!w)
		return 0;
	rc = flush_out(w);
	xqi_transcoder_release(&w->tc);
	xq_buf_release(&w->out);
	xq_buf_release(&w->tmp);
	xq_buf_release(&w->text);
	free(w);
	return rc;
}
