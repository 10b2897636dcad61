/*
 * record.c: one game record of the public API (<xq/record.h>), around
 * the library's struct xqi_record.
 */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

static int rfail(xq_record *r, int rc)
{
	r->has_err = 1;
	return rc;
}

static void rok(xq_record *r)
{
	r->has_err = 0;
}

xq_record *xq_record_new(void)
{
	xq_record *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	if (xqi_record_init(&r->g) != 0) {
		free(r);
		return NULL;
	}
	r->at = XQ_NO_NODE;
	return r;
}

void xq_record_free(xq_record *r)
{
	if (!r)
		return;
	xqi_record_release(&r->g);
	free(r);
}

uint64_t xq_record_number(const xq_record *r)
{
	return r ? r->g.number : 0;
}

int xq_record_is_broken(const xq_record *r)
{
	return r && (r->g.flags & XQI_RECORD_BROKEN) != 0;
}

int xq_record_set_broken(xq_record *r, const char *why)
{
	if (!r)
		return XQ_EINVAL;
	r->g.flags |= XQI_RECORD_BROKEN;
	if (!why) {
		r->g.error = NULL;
		return 0;
	}
	return xqi_record_set_error(&r->g, why, strlen(why));
}

int xq_record_is_empty(const xq_record *r)
{
	return r && r->g.nnodes <= 1;
}

int xq_record_is_cut(const xq_record *r)
{
	return r && (r->g.flags & XQI_RECORD_CUT) != 0;
}

const char *xq_record_encoding(const xq_record *r)
{
	return r ? r->g.encoding : NULL;
}

size_t xq_record_tag_count(const xq_record *r)
{
	return r ? r->g.ntags : 0;
}

const char *xq_record_tag_name(const xq_record *r, size_t i)
{
	return r && i < r->g.ntags ? r->g.tags[i].name : NULL;
}

const char *xq_record_tag_value(const xq_record *r, size_t i)
{
	return r && i < r->g.ntags ? r->g.tags[i].value : NULL;
}

const char *xq_record_tag(const xq_record *r, const char *name)
{
	return r && name ? xqi_record_tag(&r->g, name) : NULL;
}

int xq_record_set_tag(xq_record *r, const char *name, const char *value)
{
	if (!r || !name || !value)
		return XQ_EINVAL;
	return xqi_record_set_tag(&r->g, name, value);
}

int xq_record_remove_tag(xq_record *r, size_t i)
{
	if (!r)
		return XQ_EINVAL;
	if (i >= r->g.ntags)
		return XQ_ENOTFOUND;
	memmove(&r->g.tags[i], &r->g.tags[i + 1], (r->g.ntags - i - 1) * sizeof(r->g.tags[0]));
	r->g.ntags--;
	return 0;
}

size_t xq_record_remove_tags(xq_record *r, const char *name, size_t keep)
{
	return r && name ? xqi_record_remove_tags_after(&r->g, name, keep) : 0;
}

const char *xq_record_result(const xq_record *r)
{
	return r ? xqi_result_string(r->g.result) : NULL;
}

const char *xq_record_result_text(const xq_record *r)
{
	return r ? r->g.result_text : NULL;
}

void xq_record_origin(const xq_record *r, const char **file, uint64_t *game, uint64_t *line,
		      int64_t *offset)
{
	struct xqi_origin o;

	memset(&o, 0, sizeof(o));
	if (r)
		xqi_record_origin(&r->g, &o);
	if (file)
		*file = o.file;
	if (game)
		*game = o.game;
	if (line)
		*line = o.line;
	if (offset)
		*offset = o.has_offset ? (int64_t)o.offset : -1;
}

int xq_record_has_result(const xq_record *r)
{
	return r && r->g.result != XQI_RESULT_NONE;
}

int xq_record_set_result(xq_record *r, const char *result)
{
	enum xqi_result res;

	if (!r || !result)
		return XQ_EINVAL;
	xqi_diagnostic_init(&r->err);
	if (xqi_result_parse(result, strlen(result), &res) != 0)
		return rfail(r, xqi_diagnostic_set(&r->err, XQ_EPARSE, XQI_D_BAD_RESULT, XQ_SEVERITY_ERROR,
					    "'%s' is not a result (1-0, 0-1, 1/2-1/2 or *)", result));
	r->g.result = res;
	r->g.result_text = NULL;
	rok(r);
	return 0;
}

size_t xq_record_start_fen(const xq_record *r, char *buf, size_t cap)
{
	return xqi_api_fen(r ? &r->g.start : NULL, buf, cap);
}

const char *xq_record_start_text(const xq_record *r)
{
	return r ? r->g.start_text : NULL;
}

int xq_record_set_start(xq_record *r, const xq_position *p)
{
	if (!r || !p)
		return XQ_EINVAL;
	xqi_diagnostic_init(&r->err);
	if (r->g.nnodes > 1)
		return rfail(r, xqi_diagnostic_set(&r->err, XQ_EILLEGAL, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
					    "the start position of a record with moves cannot change"));
	r->g.start = p->b;
	r->at = XQ_NO_NODE;
	rok(r);
	return 0;
}

int xqi_api_no_node(xq_record *r, uint32_t n)
{
	xqi_diagnostic_init(&r->err);
	return rfail(r, xqi_diagnostic_set(&r->err, XQ_ENOTFOUND, XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_ERROR,
				    "no node %u in the record", (unsigned)n));
}

/* Node `n` of `r`, or NULL (no such node, or no record). */
static const struct xqi_node *node(const xq_record *r, uint32_t n)
{
	return r && n < r->g.nnodes ? &r->g.nodes[n] : NULL;
}

void xq_record_place(const xq_record *r, uint64_t *line, uint64_t *column, uint64_t *offset)
{
	if (line)
		*line = r ? r->g.place.line : 0;
	if (column)
		*column = r ? r->g.place.col : 0;
	if (offset)
		*offset = r ? r->g.place.offset : 0;
}

uint32_t xq_record_node_count(const xq_record *r)
{
	return r ? (uint32_t)r->g.nnodes : 0;
}

uint32_t xq_record_node_parent(const xq_record *r, uint32_t n)
{
	const struct xqi_node *x = node(r, n);
	return x ? x->parent : XQ_NO_NODE;
}

uint32_t xq_record_node_child(const xq_record *r, uint32_t n)
{
	const struct xqi_node *x = node(r, n);
	return x ? x->child : XQ_NO_NODE;
}

uint32_t xq_record_node_sibling(const xq_record *r, uint32_t n)
{
	const struct xqi_node *x = node(r, n);
	return x ? x->sibling : XQ_NO_NODE;
}

xq_move_code xq_record_node_move(const xq_record *r, uint32_t n)
{
	const struct xqi_node *x = node(r, n);
	return x ? xqi_api_move_out(x->move) : 0;
}

uint32_t xq_record_node_ply(const xq_record *r, uint32_t n)
{
	return node(r, n) ? xqi_record_ply(&r->g, n) : 0;
}

const char *xq_record_node_comment(const xq_record *r, uint32_t n)
{
	const struct xqi_node *x = node(r, n);
	return x ? x->comment : NULL;
}

const char *xq_record_node_pre_comment(const xq_record *r, uint32_t n)
{
	const struct xqi_node *x = node(r, n);
	return x ? x->pre_comment : NULL;
}

const char *xq_record_node_source_text(const xq_record *r, uint32_t n)
{
	const struct xqi_node *x = node(r, n);
	return x ? x->text : NULL;
}

int xq_record_node_nag_count(const xq_record *r, uint32_t n)
{
	const struct xqi_node *x = node(r, n);
	return x ? x->nnags : 0;
}

int xq_record_node_nag(const xq_record *r, uint32_t n, int i)
{
	const struct xqi_node *x = node(r, n);
	return x && i >= 0 && i < x->nnags ? x->nags[i] : 0;
}

int xq_record_node_place(const xq_record *r, uint32_t n, uint64_t *line, uint64_t *column,
			 uint64_t *offset)
{
	const struct xqi_node *x = node(r, n);

	if (!r)
		return XQ_EINVAL;
	if (!x)
		return XQ_ENOTFOUND;
	if (line)
		*line = x->place.line;
	if (column)
		*column = x->place.col;
	if (offset)
		*offset = x->place.offset;
	return 0;
}

/* The position after node `n` (which exists), kept for the next call:
 * a child of the node asked for last costs one move. */
static const struct xqi_position *board_after(xq_record *r, uint32_t n)
{
	if (r->at != n) {
		uint32_t parent = r->g.nodes[n].parent;
		if (n != XQI_ROOT && parent == r->at) {
			struct xqi_undo u;
			xqi_position_make(&r->at_board, r->g.nodes[n].move, &u);
		} else {
			xqi_record_board_at(&r->g, n, &r->at_board);
		}
		r->at = n;
	}
	return &r->at_board;
}

int xq_record_node_position(xq_record *r, uint32_t n, xq_position *out)
{
	if (!r || !out)
		return XQ_EINVAL;
	if (!node(r, n))
		return XQ_ENOTFOUND;
	out->b = *board_after(r, n);
	out->has_err = 0;
	return 0;
}

size_t xq_record_node_fen(xq_record *r, uint32_t n, char *buf, size_t cap)
{
	return xqi_api_fen(node(r, n) ? board_after(r, n) : NULL, buf, cap);
}

size_t xq_record_node_move_text(xq_record *r, uint32_t n, int dialect, unsigned flags, char *buf,
				size_t cap)
{
	struct xqi_position b;

	if (!node(r, n) || n == XQI_ROOT || dialect <= XQ_DIALECT_AUTO || dialect >= XQ_DIALECT_SAN ||
	    !buf) {
		if (cap && buf)
			buf[0] = '\0';
		return 0;
	}
	b = *board_after(r, r->g.nodes[n].parent);
	flags &= XQ_DIALECT_TRADITIONAL | XQ_DIALECT_ASCII_DIGITS | XQ_DIALECT_UPPER | XQ_DIALECT_DASH |
		 XQ_DIALECT_DPXQ_PAWNS;
	return xqi_notation_write(buf, cap, &b, r->g.nodes[n].move, (enum xq_dialect)dialect,
				 flags | XQI_DIALECT_KNOWN_LEGAL);
}

char *xq_record_mainline_text(xq_record *r, int dialect, unsigned flags)
{
	struct xq_buf b = XQ_BUF_INIT;
	struct xqi_position pos;

	if (!r)
		return NULL;
	pos = r->g.start;
	flags &= XQ_DIALECT_TRADITIONAL | XQ_DIALECT_ASCII_DIGITS | XQ_DIALECT_UPPER | XQ_DIALECT_DASH |
		 XQ_DIALECT_DPXQ_PAWNS;
	if (dialect <= XQ_DIALECT_AUTO || dialect >= XQ_DIALECT_SAN)
		dialect = XQ_DIALECT_ICCS;
	if (xq_buf_grow(&b, 1) != 0)
		return NULL;
	for (uint32_t n = r->g.nodes[XQI_ROOT].child; n != XQ_NO_NODE; n = r->g.nodes[n].child) {
		char text[XQ_MOVE_TEXT_SIZE];
		struct xqi_undo u;
		size_t len = xqi_notation_write(text, sizeof(text), &pos, r->g.nodes[n].move,
					       (enum xq_dialect)dialect,
					       flags | XQI_DIALECT_KNOWN_LEGAL);
		if (n != r->g.nodes[XQI_ROOT].child)
			xq_buf_addc(&b, ' ');
		xq_buf_add(&b, text, len);
		xqi_position_make(&pos, r->g.nodes[n].move, &u);
	}
	if (xq_buf_error(&b)) {
		xq_buf_release(&b);
		return NULL;
	}
	return xq_buf_detach(&b, NULL);
}

uint32_t xqi_api_mainline_node(const struct xqi_record *g, uint32_t ply)
{
	uint32_t n = XQI_ROOT;

	while (ply-- > 0 && g->nodes[n].child != XQ_NO_NODE)
		n = g->nodes[n].child;
	return n;
}

uint32_t xq_record_mainline_length(const xq_record *r)
{
	return r ? xqi_record_mainline_length(&r->g) : 0;
}

int xq_record_add_move(xq_record *r, uint32_t parent, xq_move_code m, uint32_t *out)
{
	struct xqi_position b;
	xqi_move mv = xqi_api_move_in(m);
	uint32_t n;
	int rc;

	if (!r)
		return XQ_EINVAL;
	if (!node(r, parent))
		return xqi_api_no_node(r, parent);
	xqi_diagnostic_init(&r->err);
	b = *board_after(r, parent);
	if (!mv)
		return rfail(r, xqi_diagnostic_set(&r->err, XQ_EILLEGAL, XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_ERROR,
					    "move code %u names a square off the board", (unsigned)m));
	if ((rc = xqi_move_check(&b, mv, &r->err)) != 0)
		return rfail(r, rc);
	if ((rc = xqi_record_add_move(&r->g, parent, mv, &n)) != 0)
		return rfail(r, xqi_diagnostic_set(&r->err, rc, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "out of memory"));
	r->g.flags &= ~(unsigned)XQI_RECORD_EMPTY;
	if (out)
		*out = n;
	rok(r);
	return 0;
}

int xq_record_add_move_text(xq_record *r, uint32_t parent, const char *text, int dialect,
			    uint32_t *out)
{
	xq_position p;
	xq_move_code m;
	int rc;

	if (!r || !text)
		return XQ_EINVAL;
	if (!node(r, parent))
		return xqi_api_no_node(r, parent);
	xqi_diagnostic_init(&r->err);
	p.b = *board_after(r, parent);
	p.has_err = 0;
	if ((rc = xq_position_read_move(&p, text, dialect, &m)) != 0) {
		r->err = p.err;
		return rfail(r, rc);
	}
	return xq_record_add_move(r, parent, m, out);
}

int xq_record_set_comment(xq_record *r, uint32_t n, const char *text)
{
	if (!r)
		return XQ_EINVAL;
	if (!node(r, n))
		return XQ_ENOTFOUND;
	if (!text) {
		r->g.nodes[n].comment = NULL;
		return 0;
	}
	return xqi_record_set_comment(&r->g, n, text, strlen(text));
}

const xq_diagnostic *xq_record_error(const xq_record *r)
{
	return r && r->has_err ? &r->err : NULL;
}

int xq_record_add_nag(xq_record *r, uint32_t n, int nag)
{
	int rc;

	if (!r)
		return XQ_EINVAL;
	if (!node(r, n) || n == XQI_ROOT)
		return xqi_api_no_node(r, n);
	xqi_diagnostic_init(&r->err);
	if (nag < 1 || nag > 255)
		return rfail(r, xqi_diagnostic_set(&r->err, XQ_ERANGE, XQI_D_NONE, XQ_SEVERITY_ERROR,
					    "$%d is no NAG (1-255)", nag));
	if ((rc = xqi_record_add_nag_once(&r->g, n, (uint8_t)nag)) != 0)
		return rfail(r, xqi_diagnostic_set(&r->err, rc, XQI_D_NONE, XQ_SEVERITY_ERROR,
					    rc == XQ_ERANGE ? "the move has 255 NAGs already" : "out of memory"));
	rok(r);
	return 0;
}

uint64_t xq_record_fingerprint(const xq_record *r)
{
	return r ? xqi_record_fingerprint(&r->g) : 0;
}

int xq_record_equal(const xq_record *a, const xq_record *b, unsigned flags, char *why, size_t cap)
{
	if (why && cap)
		why[0] = '\0';
	if (!a || !b) {
		if (why && cap)
			snprintf(why, cap, "no record to compare (NULL)");
		return 0;
	}
	return xqi_record_equal(&a->g, &b->g,
			     flags & (XQ_EQUAL_IGNORE_TAGS | XQ_EQUAL_IGNORE_TAG_ORDER |
				      XQ_EQUAL_IGNORE_COMMENTS | XQ_EQUAL_IGNORE_NAGS |
				      XQ_EQUAL_IGNORE_RESULT | XQ_EQUAL_MAINLINE_ONLY |
				      XQ_EQUAL_IGNORE_PRE_COMMENTS),
			     why, cap);
}

/* ---- diagnostics about a record ---------------------------------------- */

static void about_of(const xq_diagnostic_about *in, xq_diagnostic_about *out)
{
	xq_diagnostic_about def = XQ_DIAGNOSTIC_ABOUT_INIT;

	*out = def;
	if (in && in->size)
		memcpy(out, in, in->size < sizeof(*out) ? in->size : sizeof(*out));
	out->size = sizeof(*out);
}

static int severity_ok(int severity)
{
	return severity >= XQ_SEVERITY_NOTE && severity <= XQ_SEVERITY_ERROR;
}

int xq_diagnostics_vreport(xq_diagnostics *l, const xq_diagnostic_about *about, int severity,
			   const char *code, const char *fmt, va_list ap)
{
	xq_diagnostic_about a;
	int c = code ? xqi_diagnostic_code_from_name(code) : -1;
	struct xq_diagnostic d;

	if (!l || !code || !fmt)
		return XQ_EINVAL;
	if (c < 0)
		return XQ_ENOTFOUND;
	if (!severity_ok(severity))
		return XQ_ERANGE;
	about_of(about, &a);
	xqi_diagnostic_init(&d);
	if (a.record) {
		const struct xqi_record *g = &a.record->g;
		const char *source = a.source ? a.source : g->source;
		if (a.node != XQ_NO_NODE)
			xqi_record_place_diag(&d, g, source, a.node, a.ply);
		else
			xqi_record_place_diag_ply(&d, g, source, a.ply);
		if (a.tag && xqi_record_tag_place(g, a.tag, &d.place))
			d.has_offset = 1;
	} else {
		d.source = a.source;
		d.ply = a.ply;
	}
	xqi_diagnostic_vset(&d, 0, (enum xqi_diagnostic_code)c, (enum xq_severity_level)severity, fmt, ap);
	if (a.fix_field) {
		d.fix.field = a.fix_field;
		d.fix.old_value = a.fix_old;
		d.fix.new_value = a.fix_new;
	}
	return xq_diagnostics_add(l, &d);
}

int xq_diagnostics_report(xq_diagnostics *l, const xq_diagnostic_about *about, int severity,
			  const char *code, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = xq_diagnostics_vreport(l, about, severity, code, fmt, ap);
	va_end(ap);
	return rc;
}

int xq_diagnostics_add_about(xq_diagnostics *l, const xq_diagnostic *pd,
			     const xq_diagnostic_about *about, int severity)
{
	xq_diagnostic_about a;
	struct xq_diagnostic d;

	if (!l || !pd)
		return XQ_EINVAL;
	d = *pd;
	if (severity != -1 && !severity_ok(severity))
		return XQ_ERANGE;
	about_of(about, &a);
	if (a.record) {
		const struct xqi_record *g = &a.record->g;
		d.source = a.source ? a.source : g->source;
		d.game = g->number;
		if (!d.place.line && !d.place.offset) {
			d.place = g->place;
			d.has_offset = g->place.line == 0;
		}
	} else if (a.source) {
		d.source = a.source;
	}
	if (severity != -1)
		d.severity = (enum xq_severity_level)severity;
	return xq_diagnostics_add(l, &d);
}
