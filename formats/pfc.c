/*
 * pfc.c: PFC, the XML record of 鹏飞象棋 (Pengfei Xiangqi), read through
 * libxml2 (xmlsax.h: no tree, no network, no entity, no DTD) and written
 * by hand in the shape Pengfei writes.  The layout is in doc/formats/pfc.md:
 *
 *   <?xml version="1.0" encoding="utf-8"?><n version="2" win="*"
 *     create-time="2012-01-27 22:29:27" m="<FEN>" c="<game comment>"><n
 *     m="h6f7" c="<comment>"><n m="e9d9"> ... </n></n></n>
 *
 * The tree is the nesting itself: each <n> below the root is a move (m,
 * in ICCS) from the position of the <n> around it, and <n> elements side
 * by side are alternatives; default="true" marks the one on the main line
 * when it is not the first (as Pengfei marks the line it shows).  A move
 * carries its comment (c) and, from Pengfei's engine, a score, a depth
 * and a time (s, d, t), which a game of xqkit has no place for: they are
 * noted, once a game.  The root gives the start position (m), the game
 * comment (c), the result (win: "*", "1-0", "0-1", "1/2-1/2") and when
 * the record was made (create-time, tag DateCreated); any other
 * attribute of the root is kept as a tag of its name.  Pengfei may wrap
 * the document in "[pfchessrecord]" and an HTML comment; what is inside
 * the comment is read.
 *
 * Reading is a stream of SAX events over the whole document (one game a
 * file, within PFC_MAX_RECORD): each move is checked against the position
 * as it comes, an illegal one stops its line (what is inside it is not
 * read, and counted), and the main line is put first when the document
 * is over.  A document that is not well-formed keeps the moves before its
 * first error, and the game is XQI_RECORD_BROKEN.  A line a move deeper per
 * element is what PFC is, so libxml2's depth limit is lifted
 * (XML_PARSE_HUGE) and the record limit bounds the document instead.
 *
 * Writing: UTF-8 with a BOM, no line breaks, the main line first (so no
 * default attribute is needed: a reader takes the first child when none
 * is marked, as Pengfei and vschess do), the comment's line breaks as
 * character references (an attribute keeps them so).  What PFC has no
 * place for is an XQI_D_LOSS warning: tags other than DateCreated, NAGs,
 * comments before a move, a result it cannot say.
 */
#include "format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "check.h"
#include "movegen.h"
#include "utf8.h"
#include "xmlsax.h"

/*
 * The largest PFC record read: 8 MiB (as a CBF).  Real ones are small
 * (the corpus's are 218 and 828 bytes; a whole game of 300 plies with
 * comments is a few KB).  Reading keeps the document, libxml2's stacks
 * (a few pointers per open element), the open lines and the game: at
 * most PFC_MEM_FACTOR bytes per byte, measured on the densest document,
 * one bare <n m="a0a1"> inside another (doc/formats/pfc.md).
 */
#define PFC_MAX_RECORD ((uint64_t)8 << 20)
#define PFC_MEM_FACTOR 24

extern const struct xqi_format xqi_format_pfc;

struct pfc_reader {
	struct xqi_input *in;
	const struct xqi_sink *sink;
	const char *name;
	struct xqi_read_opts opts;
	int done;
	struct xqi_read_guard guard;
};

/* An open element: the node it made (XQ_NO_NODE: none, or not read). */
struct pfc_level {
	uint32_t node;
	xqi_move move; /* the move made on the board for it, 0 if none */
	struct xqi_undo undo;
};

struct pfc_doc {
	struct pfc_reader *r;
	struct xqi_xml x;
	struct xqi_record *g;
	struct xqi_position board;       /* the position inside the innermost open element */
	struct pfc_level *stack;     /* stack[k]: the open element at depth k + 1 */
	size_t depth, cap;
	uint32_t *defaults;          /* the nodes marked default="true", in order */
	size_t ndefaults, dcap;
	int root;                    /* the root was a <n> */
	int bad_start;               /* its position could not be read: no move is */
	uint32_t entries, skipped, scored;
	int noted_attr, noted_text, noted_elem;
	int rc;                      /* a failure inside a callback (XQ_ENOMEM) */
};

static void report(struct pfc_doc *p, long line, uint32_t ply, const char *move,
		   enum xqi_diagnostic_code code, enum xq_severity_level sev, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 7, 8)))
#endif
	;

static void report(struct pfc_doc *p, long line, uint32_t ply, const char *move,
		   enum xqi_diagnostic_code code, enum xq_severity_level sev, const char *fmt, ...)
{
	struct xqi_place pl = {0, line > 0 ? (uint64_t)line : 0, 0};
	va_list ap;

	va_start(ap, fmt);
	xqi_format_vreport(p->r->sink, p->r->name, p->g->number, &pl, 0, ply, move,
			  move ? strlen(move) : 0, code, sev, fmt, ap);
	va_end(ap);
}

static void fail(struct pfc_doc *p, int rc)
{
	p->rc = rc;
	p->x.stop = 1;
}

/* Close the open elements down to `depth` (those deeper), taking their moves back. */
static void unwind(struct pfc_doc *p, size_t depth)
{
	while (p->depth > depth) {
		struct pfc_level *l = &p->stack[--p->depth];
		if (l->move)
			xqi_position_unmake(&p->board, l->move, &l->undo);
	}
}

static int push(struct pfc_doc *p, uint32_t node, xqi_move move)
{
	struct pfc_level *l;

	if (XQ_ALLOC_GROW(p->stack, p->depth + 1, p->cap))
		return XQ_ENOMEM;
	l = &p->stack[p->depth++];
	l->node = node;
	l->move = move;
	if (move)
		xqi_position_make(&p->board, move, &l->undo);
	return 0;
}

static const char *attr(const char *const *a, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(a[2 * i], name))
			return a[2 * i + 1];
	return NULL;
}

/* The root's attributes: the start position, the comment, the result, the tags. */
static int read_root(struct pfc_doc *p, const char *const *a, int n, long line)
{
	struct xqi_record *g = p->g;
	int rc = 0;

	for (int i = 0; i < n && !rc; i++) {
		const char *k = a[2 * i], *v = a[2 * i + 1];
		size_t len = strlen(v);
		struct xq_diagnostic d;
		if (!strcmp(k, "m")) {
			xqi_diagnostic_init(&d);
			if (xqi_position_from_fen(&g->start, v, len, XQI_FEN_LENIENT_PLACEMENT, &d)) {
				report(p, line, 0, NULL, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
				       "m=\"%.100s\": %s; no move can be read", v, d.msg);
				p->bad_start = 1;
				rc = xqi_record_set_start_text(g, v, len);
			}
		} else if (!strcmp(k, "c")) {
			rc = len ? xqi_record_set_comment(g, XQI_ROOT, v, len) : 0;
		} else if (!strcmp(k, "version")) {
			if (strcmp(v, "2"))
				report(p, line, 0, NULL, XQI_D_UNSUPPORTED, XQ_SEVERITY_WARNING,
				       "PFC version '%s' (this reader knows 2); read as 2", v);
		} else if (!strcmp(k, "win")) {
			if (len && xqi_result_parse(v, len, &g->result) != 0) {
				g->result = XQI_RESULT_UNKNOWN;
				g->result_text = xqi_record_strdup(g, v, len);
				report(p, line, 0, NULL, XQI_D_NO_RESULT, XQ_SEVERITY_NOTE,
				       "win=\"%s\" is not a result this reader knows; taken as unknown",
				       v);
			}
			if (len)
				rc = xqi_record_add_tag(g, "Result", 6, v, len);
		} else if (!strcmp(k, "FEN") || !strcmp(k, "Result")) {
			/* Tags the record itself decides: an attribute cannot be one. */
			report(p, line, 0, NULL, XQI_D_UNSUPPORTED, XQ_SEVERITY_NOTE,
			       "attribute '%s' of the root is not PFC's; not read", k);
		} else {
			const char *tag = !strcmp(k, "create-time") ? "DateCreated" : k;
			rc = len ? xqi_record_add_tag(g, tag, strlen(tag), v, len) : 0;
		}
	}
	return rc;
}

/* "h6f7": a move in ICCS (rank 0 is red's back rank), or 0. */
static xqi_move iccs_move(const char *s)
{
	if (strlen(s) != 4 || s[0] < 'a' || s[0] > 'i' || s[2] < 'a' || s[2] > 'i' ||
	    !xq_is_digit((unsigned char)s[1]) || !xq_is_digit((unsigned char)s[3]))
		return 0;
	return XQI_MOVE(XQI_SQ(s[0] - 'a', s[1] - '0'), XQI_SQ(s[2] - 'a', s[3] - '0'));
}

/* The attributes of a move that say nothing xqkit keeps, or that it does not know. */
static void move_extras(struct pfc_doc *p, const char *const *a, int n, long line)
{
	int scored = 0;

	for (int i = 0; i < n; i++) {
		const char *k = a[2 * i];
		if (!strcmp(k, "m") || !strcmp(k, "c") || !strcmp(k, "default"))
			continue;
		if (!strcmp(k, "s") || !strcmp(k, "d") || !strcmp(k, "t")) {
			scored = 1;
		} else if (!p->noted_attr) {
			report(p, line, 0, NULL, XQI_D_UNSUPPORTED, XQ_SEVERITY_NOTE,
			       "attribute '%s' of <n> is not understood; not read", k);
			p->noted_attr = 1;
		}
	}
	p->scored += (uint32_t)scored;
}

/* A move element at depth `depth` (its parent's level is open). */
static int read_move(struct pfc_doc *p, const char *const *a, int n, long line)
{
	uint32_t parent = p->stack[p->depth - 1].node, node, ply;
	const char *m = attr(a, n, "m"), *c = attr(a, n, "c"), *def = attr(a, n, "default");
	xqi_move mv;
	struct xq_diagnostic d;
	char name[5];
	int rc;

	if (parent == XQ_NO_NODE) {
		if (!p->bad_start)
			p->skipped++;
		return push(p, XQ_NO_NODE, 0);
	}
	p->entries++;
	ply = (uint32_t)p->depth;
	move_extras(p, a, n, line);
	if (!(mv = iccs_move(m ? m : ""))) {
		report(p, line, ply, m, XQI_D_BAD_MOVE_TEXT, XQ_SEVERITY_ERROR,
		       "m=\"%s\" is not a move in ICCS (\"h2e2\"); the line stops here", m ? m : "");
		p->g->flags |= XQI_RECORD_BROKEN;
		return push(p, XQ_NO_NODE, 0);
	}
	xqi_diagnostic_init(&d);
	if (xqi_move_check(&p->board, mv, &d)) {
		xqi_move_name(mv, name);
		report(p, line, ply, name, XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_ERROR,
		       "illegal move %s: %s; the line stops here", name, d.msg);
		p->g->flags |= XQI_RECORD_BROKEN;
		return push(p, XQ_NO_NODE, 0);
	}
	if ((rc = xqi_record_add_move(p->g, parent, mv, &node)))
		return rc;
	p->g->nodes[node].place.line = (uint64_t)line;
	if ((rc = xqi_record_set_text(p->g, node, m, 4)) ||
	    (c && *c && (rc = xqi_record_set_comment(p->g, node, c, strlen(c)))))
		return rc;
	if (def && strcmp(def, "false") && strcmp(def, "0") &&
	    XQ_ALLOC_GROW(p->defaults, p->ndefaults + 1, p->dcap) == 0)
		p->defaults[p->ndefaults++] = node;
	else if (def && strcmp(def, "false") && strcmp(def, "0"))
		return XQ_ENOMEM;
	return push(p, node, mv);
}

static void on_start(void *user, const char *name, int depth, const char *const *a, int n,
		     long line)
{
	struct pfc_doc *p = user;
	int rc = 0;

	unwind(p, (size_t)depth - 1);
	if (depth == 1) {
		if (strcmp(name, "n")) {
			report(p, line, 0, NULL, XQI_D_BAD_MAGIC, XQ_SEVERITY_ERROR,
			       "not a PFC record: the root element is <%s>, not <n>", name);
			fail(p, XQ_EPARSE);
			return;
		}
		if (p->root) {
			fail(p, XQ_EPARSE); /* (a second root: libxml2 has said so) */
			return;
		}
		p->root = 1;
		rc = read_root(p, a, n, line);
		p->board = p->g->start;
		if (!rc)
			rc = push(p, p->bad_start ? XQ_NO_NODE : XQI_ROOT, 0);
	} else if (strcmp(name, "n")) {
		if (!p->noted_elem++)
			report(p, line, 0, NULL, XQI_D_UNSUPPORTED, XQ_SEVERITY_WARNING,
			       "<%s> is not a move of a PFC tree; not read, nor what it holds", name);
		rc = push(p, XQ_NO_NODE, 0);
	} else {
		rc = read_move(p, a, n, line);
	}
	if (rc)
		fail(p, rc);
}

static void on_end(void *user, const char *name, int depth)
{
	(void)name;
	unwind(user, (size_t)depth - 1);
}

static void on_text(void *user, const char *s, size_t len, int depth)
{
	struct pfc_doc *p = user;

	(void)depth;
	for (size_t i = 0; i < len; i++)
		if (!xq_is_space((unsigned char)s[i]) && !p->noted_text) {
			report(p, 0, 0, NULL, XQI_D_UNSUPPORTED, XQ_SEVERITY_NOTE,
			       "text inside the PFC tree is not part of a record; not read");
			p->noted_text = 1;
			break;
		}
}

/* Put node `n` first among its siblings: the main line. */
static void make_first(struct xqi_record *g, uint32_t n)
{
	struct xqi_node *x = &g->nodes[n], *par = &g->nodes[x->parent];
	uint32_t prev = par->child;

	if (prev == n)
		return;
	while (g->nodes[prev].sibling != n)
		prev = g->nodes[prev].sibling;
	g->nodes[prev].sibling = x->sibling;
	if (par->last_child == n)
		par->last_child = prev;
	x->sibling = par->child;
	par->child = n;
}

static int apply_defaults(struct pfc_doc *p)
{
	uint8_t *seen;
	uint32_t twice = 0;

	if (!p->ndefaults)
		return 0;
	if (!(seen = calloc(p->g->nnodes, 1)))
		return XQ_ENOMEM;
	/* In document order: the first of a group marked is its main line. */
	for (size_t i = 0; i < p->ndefaults; i++) {
		uint32_t n = p->defaults[i], parent = p->g->nodes[n].parent;
		if (seen[parent]) {
			twice++;
			continue;
		}
		seen[parent] = 1;
		make_first(p->g, n);
	}
	free(seen);
	if (twice)
		report(p, 0, 0, NULL, XQI_D_CORRUPT, XQ_SEVERITY_NOTE,
		       "%u moves marked default=\"true\" beside another so marked; the first "
		       "is the main line",
		       (unsigned)twice);
	return 0;
}

/* The first `s` (n bytes) in buf[0..len), or NULL. */
static const char *find(const char *buf, size_t len, const char *s, size_t n)
{
	for (size_t i = 0; i + n <= len; i++)
		if (buf[i] == s[0] && !memcmp(buf + i, s, n))
			return buf + i;
	return NULL;
}

/* Where the document is: inside "[pfchessrecord]"'s HTML comment, or the whole. */
static void locate(const char *buf, size_t len, size_t *from, size_t *to, long *lines)
{
	static const char wrap[] = "[pfchessrecord]";
	const char *open, *close;
	size_t i = 0;

	*from = 0;
	*to = len;
	*lines = 0;
	if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3))
		i = 3;
	while (i < len && xq_is_space((unsigned char)buf[i]))
		i++;
	if (len - i < sizeof(wrap) - 1 || memcmp(buf + i, wrap, sizeof(wrap) - 1))
		return;
	open = find(buf, len, "<!--", 4);
	close = open ? find(open + 4, len - (size_t)(open + 4 - buf), "-->", 3) : NULL;
	if (!open || !close)
		return;
	*from = (size_t)(open + 4 - buf);
	*to = (size_t)(close - buf);
	while (*from < *to && xq_is_space((unsigned char)buf[*from]))
		(*from)++; /* the declaration must start the document */
	for (size_t k = 0; k < *from; k++)
		*lines += buf[k] == '\n';
}

static const struct xqi_xml_handlers pfc_handlers = {on_start, on_end, on_text};

/* After the document: the main lines, what was not read, the game's flags. */
static int finish(struct pfc_doc *p)
{
	int rc = apply_defaults(p);

	if (p->skipped)
		report(p, 0, 0, NULL, XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_NOTE,
		       "%u moves after a bad move of their line were not read", (unsigned)p->skipped);
	if (p->scored)
		report(p, 0, 0, NULL, XQI_D_UNSUPPORTED, XQ_SEVERITY_NOTE,
		       "%u move%s Pengfei's engine score, depth and time (s, d, t), which a game "
		       "has no place for; not read",
		       (unsigned)p->scored, p->scored == 1 ? " carries" : "s carry");
	if (p->entries == 0)
		p->g->flags |= XQI_RECORD_EMPTY;
	if (!p->x.well_formed)
		p->g->flags |= XQI_RECORD_BROKEN;
	return rc;
}

static int read_doc(struct pfc_reader *r, struct xqi_record *g, const char *buf, size_t len)
{
	struct pfc_doc p;
	size_t from, to;
	int rc;

	memset(&p, 0, sizeof(p));
	p.r = r;
	p.g = g;
	locate(buf, len, &from, &to, &p.x.line_base);
	p.x.sink = r->sink;
	p.x.source = r->name;
	p.x.format = "PFC";
	p.x.game = g->number;
	p.x.huge = 1;
	rc = xqi_xml_parse(&p.x, buf + from, to - from, 0, &pfc_handlers, &p);
	unwind(&p, 0);
	if (!rc)
		rc = p.rc;
	if (!rc && !p.root) {
		if (p.x.well_formed) {
			struct xqi_place pl = {0, 0, 0};
			xqi_format_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0, XQI_D_BAD_MAGIC,
					 XQ_SEVERITY_ERROR, "not a PFC record: no <n> root element");
		}
		rc = XQ_EPARSE;
	}
	if (!rc)
		rc = finish(&p);
	free(p.stack);
	free(p.defaults);
	return rc;
}

static int pfc_open_reader(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
			   const struct xqi_sink *sink)
{
	struct pfc_reader *r = calloc(1, sizeof(*r));
	struct xqi_read_opts def = XQI_READ_OPTS_INIT;

	/* PFC says its encoding in its XML declaration: opts->encoding is not used. */
	if (!r)
		return XQ_ENOMEM;
	r->in = in;
	r->sink = sink;
	r->name = xqi_input_name(in);
	r->opts = opts ? *opts : def;
	*out = r;
	return 0;
}

static void pfc_close_reader(void *reader)
{
	free(reader);
}

static int pfc_read(void *reader, struct xqi_record *g)
{
	struct pfc_reader *r = reader;
	struct xq_buf buf = XQ_BUF_INIT;
	uint64_t len;
	int rc;

	if (r->done)
		return 0;
	r->done = 1;
	if ((rc = xqi_format_read_whole(&xqi_format_pfc, r->in, &r->opts, r->sink, &buf))) {
		xq_buf_release(&buf);
		return rc;
	}
	xqi_record_clear(g);
	g->number = 1;
	g->source = r->name;
	g->encoding = "utf-8";
	g->place.line = 1;
	rc = read_doc(r, g, buf.ptr ? buf.ptr : "", buf.len);
	len = buf.len;
	xq_buf_release(&buf);
	return xqi_read_guard(&r->guard, rc ? rc : 1, len, g, r->sink);
}

/* Writing. */

struct pfc_writer {
	struct xq_file *o;
	const struct xqi_sink *sink;
	uint64_t games;
	struct xq_buf out;
};

static int pfc_open_writer(void **out, struct xq_file *o, const struct xqi_write_opts *opts,
			   const struct xqi_sink *sink)
{
	struct pfc_writer *w;

	if (opts && opts->encoding != XQI_ENC_UNKNOWN && opts->encoding != XQI_ENC_UTF8)
		return xqi_write_refuse(sink, o, "PFC is written in UTF-8 (as Pengfei reads it), not %s",
				       xqi_encoding_name(opts->encoding));
	if (!(w = calloc(1, sizeof(*w))))
		return XQ_ENOMEM;
	w->o = o;
	w->sink = sink;
	xq_buf_init(&w->out);
	*out = w;
	return 0;
}

/*
 * ` name="value"`, the value escaped for an attribute: XML's rules
 * (xqi_buf_add_xml), and line feeds and tabs as character references,
 * which attribute-value normalisation would otherwise turn into spaces.
 */
static int add_attr(struct pfc_writer *w, const char *name, const char *v, uint32_t ply)
{
	struct xq_buf *b = &w->out;
	size_t dropped = 0;

	xq_buf_addf(b, " %s=\"", name);
	for (const char *p = v; *p;) {
		size_t n = strcspn(p, "\n\t");
		xqi_buf_add_xml(b, p, n, XQI_XML_ATTR, &dropped);
		p += n;
		if (*p)
			xq_buf_adds(b, *p++ == '\n' ? "&#10;" : "&#9;");
	}
	xq_buf_addc(b, '"');
	if (dropped)
		xqi_write_report(w->sink, w->o, w->games, ply, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
				"%s: %zu control characters XML cannot hold were dropped",
				ply ? "comment" : name, dropped);
	return xq_buf_error(b);
}

/* The tags PFC has no place for, and a result it cannot say. */
static void tag_losses(struct pfc_writer *w, const struct xqi_record *g, const char *win)
{
	if (g->result == XQI_RESULT_UNKNOWN && g->result_text && *g->result_text)
		xqi_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
				"result \"%s\": PFC says \"*\", \"1-0\", \"0-1\" or \"1/2-1/2\"; "
				"written as \"*\"",
				g->result_text);
	for (size_t i = 0; i < g->ntags; i++) {
		const char *tag = g->tags[i].name, *v = g->tags[i].value;
		if (!*v || !strcmp(tag, "FEN"))
			continue;
		if (!strcmp(tag, "Result")) {
			if (strcmp(v, win) && !(g->result_text && !strcmp(v, g->result_text)))
				xqi_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
						"tag Result \"%s\" is not the game's result (\"%s\"); "
						"not written",
						v, win);
		} else if (strcmp(tag, "DateCreated")) {
			xqi_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
					"tag %s (\"%s\") has no PFC attribute; not written", tag, v);
		} else if (xqi_record_tag(g, tag) != v) {
			xqi_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
					"tag %s repeated: PFC holds one; \"%s\" not written", tag, v);
		}
	}
}

/* The root: version, result, when made, the start position, the game comment. */
static int write_root(struct pfc_writer *w, const struct xqi_record *g, const char *win)
{
	const char *made = xqi_record_tag(g, "DateCreated"), *c = g->nodes[XQI_ROOT].comment;
	char fen[XQ_FEN_SIZE];
	int rc;

	xqi_position_to_fen(&g->start, fen, sizeof(fen));
	rc = xq_buf_adds(&w->out, "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"utf-8\"?><n");
	rc |= add_attr(w, "version", "2", 0);
	rc |= add_attr(w, "win", win, 0);
	if (made && *made)
		rc |= add_attr(w, "create-time", made, 0);
	rc |= add_attr(w, "m", fen, 0);
	if (c && *c)
		rc |= add_attr(w, "c", c, 0);
	return rc ? XQ_ENOMEM : 0;
}

/*
 * The tree as nested <n>: a node's element holds its moves' elements, the
 * first child first.  A node without children is closed at once; after
 * it, the elements of its ancestors below the next node's parent close.
 */
static int write_tree(struct pfc_writer *w, const struct xqi_record *g)
{
	struct xq_buf *b = &w->out;
	uint32_t ply = 1, n = g->nodes[XQI_ROOT].child;
	int rc = xq_buf_adds(b, n == XQ_NO_NODE ? " />" : ">");

	while (n != XQ_NO_NODE && !rc) {
		const struct xqi_node *x = &g->nodes[n];
		uint32_t here = ply;
		char name[5];
		xqi_move_name(x->move, name);
		rc = xq_buf_adds(b, "<n");
		rc |= add_attr(w, "m", name, ply);
		if (x->comment && *x->comment)
			rc |= add_attr(w, "c", x->comment, ply);
		rc |= xq_buf_adds(b, x->child == XQ_NO_NODE ? " />" : ">");
		n = xqi_record_next_ply(g, n, &ply);
		if (x->child != XQ_NO_NODE)
			continue;
		/* Close the ancestors from here up to the next node's parent. */
		for (uint32_t k = n == XQ_NO_NODE ? here : here - ply + 1; k > 1 && !rc; k--)
			rc = xq_buf_adds(b, "</n>");
	}
	if (g->nodes[XQI_ROOT].child != XQ_NO_NODE)
		rc |= xq_buf_adds(b, "</n>");
	return rc ? XQ_ENOMEM : 0;
}

static int pfc_write(void *writer, const struct xqi_record *g)
{
	struct pfc_writer *w = writer;
	const char *win = g->result == XQI_RESULT_NONE ? "*" : xqi_result_string(g->result);
	int rc;

	w->games++;
	if (w->games > 1)
		return xqi_write_report(w->sink, w->o, w->games, 0, XQ_EUNSUPPORTED, XQ_SEVERITY_ERROR,
				       XQI_D_LOSS, "a PFC file holds one game; game %llu not written",
				       (unsigned long long)w->games);
	if ((rc = xqi_write_start_check(w->sink, w->o, g, "PFC", 0)))
		return rc;
	xq_buf_reset(&w->out);
	tag_losses(w, g, win);
	if ((rc = write_root(w, g, win)) || (rc = write_tree(w, g)))
		return rc;
	xqi_write_losses(w->sink, w->o, w->games, g, xqi_format_pfc.caps, 0, "PFC");
	return xqi_file_write(w->o, w->out.ptr, w->out.len);
}

static int pfc_close_writer(void *writer)
{
	struct pfc_writer *w = writer;

	xq_buf_release(&w->out);
	free(w);
	return 0;
}

/*
 * PFC by content: after a byte order mark, white space and an XML
 * declaration, the root element is <n>; or the "[pfchessrecord]" wrapper.
 */
static int pfc_probe(const unsigned char *h, size_t len)
{
	size_t i = 0;

	if (len >= 3 && !memcmp(h, "\xEF\xBB\xBF", 3))
		i = 3;
	while (i < len && xq_is_space(h[i]))
		i++;
	if (len - i >= 15 && !memcmp(h + i, "[pfchessrecord]", 15))
		return 90;
	if (len - i >= 5 && !memcmp(h + i, "<?xml", 5)) {
		const unsigned char *e = (const unsigned char *)find((const char *)h + i, len - i, "?>", 2);
		if (!e)
			return 0;
		i = (size_t)(e - h) + 2;
		while (i < len && xq_is_space(h[i]))
			i++;
	}
	if (len - i >= 3 && h[i] == '<' && h[i + 1] == 'n' &&
	    (xq_is_space(h[i + 2]) || h[i + 2] == '>' || h[i + 2] == '/'))
		return 90;
	return 0;
}

const struct xqi_format xqi_format_pfc = {
	.name = "pfc",
	.description = "鹏飞象棋 (Pengfei) XML record, one game with variations and comments",
	.extensions = ".pfc",
	.caps = XQ_FORMAT_READS | XQ_FORMAT_WRITES | XQ_FORMAT_VARIATIONS | XQ_FORMAT_COMMENTS,
	.probe = pfc_probe,
	.open_reader = pfc_open_reader,
	.read = pfc_read,
	.close_reader = pfc_close_reader,
	.open_writer = pfc_open_writer,
	.write = pfc_write,
	.close_writer = pfc_close_writer,
	.max_record = PFC_MAX_RECORD,
	.mem_factor = PFC_MEM_FACTOR,
};
