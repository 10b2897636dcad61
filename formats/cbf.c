/*
 * cbf.c: CBF, the XML record of CCBridge (象棋桥), read with libxml2 and
 * written by hand in the same shape CCBridge writes.
 *
 * A CBF file holds one game:
 *
 *   <ChineseChessRecord Version="1.0">
 *    <Head> <Name>…</Name> … <RecordResult>0</RecordResult> <FEN>…</FEN> </Head>
 *    <MoveList>
 *     <Move value="00-00"><![CDATA[game comment]]></Move>
 *     <Move value="77-47" branch="1" /> … <Move value="23-29" end="1" />
 *    </MoveList>
 *   </ChineseChessRecord>
 *
 * Squares are "xy" digit pairs: x the file 0-8 from red's left, y the row
 * 0-9 from the top (black's back rank), so "77-47" is h2e2.  The first
 * Move (from == to) is the root and carries the game comment.  The tree is
 * the flat depth-first list with `end` and `branch` flags that
 * ccbridge.h describes.
 *
 * Header mapping (element -> game tag), in ccbridge.c: Name -> Title,
 * Contest -> Event, TimeRule -> TimeControl, Commentator -> Annotator,
 * Creator -> Author, RecordResult -> the result (0 unknown, 1 red wins,
 * 2 black wins, 3 draw; also tag Result), FEN -> the start position (no
 * tag); every other element keeps its name as the tag name (Round, Date,
 * Site, Red, RedTeam, ..., ECCO, RecordType, ...).  Empty elements make no
 * tag; elements not in that list are kept as tags under their own name.
 *
 * Reading uses libxml2's parser with no network access (XML_PARSE_NONET),
 * no entity substitution and no DTD loading; entity declarations stop the
 * parse, since CBF has none and they are what expansion attacks are made
 * of.  Errors are collected through a structured error handler set on the
 * parser context (not the global one), so they carry libxml2's line and
 * column and reading stays thread-safe.  A malformed document is read a
 * second time in libxml2's recovery mode to keep the part before the
 * first error (the game is then XQ_GAME_BROKEN).
 *
 * Writing: UTF-8 with a BOM and CRLF line ends as CCBridge does, every
 * <Head> element (empty ones as <X />), comments in CDATA.  What CBF has
 * no place for (NAGs, comments before a move, tags outside the list,
 * characters XML 1.0 forbids) is reported as XQ_D_LOSS.
 */
#include "format.h"

#include <stdlib.h>
#include <string.h>

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "ccbridge.h"
#include "movegen.h"
#include "utf8.h"

#define CBF_MAX_SIZE ((size_t)256 << 20)
#define CBF_MAX_XML_ERRORS 20

struct cbf_reader {
	struct xq_input *in;
	const struct xq_sink *sink;
	const char *name;
	int done;
	/* One parse: */
	int quiet;          /* recovery pass: errors were already reported */
	int errors;         /* errors seen */
	long first_error;   /* line of the first error, 0 if none */
	int entity_decl;    /* an entity declaration stopped the parse */
};

/* Structured error handler of one parser context (ctx is the context). */
static void on_xml_error(void *ctx, xmlErrorPtr e)
{
	xmlParserCtxtPtr ctxt = ctx;
	struct cbf_reader *r = ctxt ? ctxt->_private : NULL;
	struct xq_place pl = {0, 0, 0};
	const char *msg;
	size_t len;

	if (!r || !e || e->level < XML_ERR_ERROR)
		return;
	r->errors++;
	if (e->line > 0 && (r->first_error == 0 || e->line < r->first_error))
		r->first_error = e->line;
	if (r->quiet || r->errors > CBF_MAX_XML_ERRORS)
		return;
	pl.line = e->line > 0 ? (uint64_t)e->line : 0;
	pl.col = e->int2 > 0 ? (uint32_t)e->int2 : 0;
	msg = e->message ? e->message : "malformed XML";
	len = strlen(msg);
	while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
		len--;
	xq_ccb_report(r->sink, r->name, 1, &pl, 0, 0, NULL, 0, XQ_D_XML, XQ_SEV_ERROR, "%.*s",
		      (int)len, msg);
}

/* CBF has no entities; a declaration ends the parse before any expansion. */
static void on_entity_decl(void *ctx, const xmlChar *name, int type, const xmlChar *public_id,
			   const xmlChar *system_id, xmlChar *content)
{
	xmlParserCtxtPtr ctxt = ctx;
	struct cbf_reader *r = ctxt->_private;

	(void)type;
	(void)public_id;
	(void)system_id;
	(void)content;
	if (!r->entity_decl && !r->quiet) {
		struct xq_place pl = {0, (uint32_t)xmlSAX2GetLineNumber(ctx),
				      (uint32_t)xmlSAX2GetColumnNumber(ctx)};
		xq_ccb_report(r->sink, r->name, 1, &pl, 0, 0, NULL, 0, XQ_D_XML, XQ_SEV_ERROR,
			      "entity declaration '%s': CBF documents declare no entities; not read",
			      (const char *)name);
	}
	r->entity_decl = 1;
	r->errors++;
	if (r->first_error == 0 || xmlSAX2GetLineNumber(ctx) < r->first_error)
		r->first_error = xmlSAX2GetLineNumber(ctx);
	xmlStopParser(ctxt);
}

/* Parse `len` bytes; NULL when libxml2 gave no document at all. */
static xmlDocPtr parse(struct cbf_reader *r, const char *buf, size_t len, int recover)
{
	xmlParserCtxtPtr ctxt;
	xmlDocPtr doc;

	if (len > (size_t)INT32_MAX)
		return NULL;
	ctxt = xmlCreateMemoryParserCtxt(buf, (int)len);
	if (!ctxt)
		return NULL;
	xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_BIG_LINES |
					(recover ? XML_PARSE_RECOVER : 0));
	ctxt->_private = r;
	ctxt->sax->serror = on_xml_error;
	ctxt->sax->entityDecl = on_entity_decl;
	r->quiet = recover;
	xmlParseDocument(ctxt);
	doc = ctxt->myDoc;
	ctxt->myDoc = NULL;
	if (!recover && (!ctxt->wellFormed || r->entity_decl)) {
		if (r->errors == 0) {
			struct xq_place pl = {0, 0, 0};
			xq_ccb_report(r->sink, r->name, 1, &pl, 0, 0, NULL, 0, XQ_D_XML,
				      XQ_SEV_ERROR, "malformed XML");
			r->errors = 1;
		}
		xmlFreeDoc(doc);
		doc = NULL;
	}
	xmlFreeParserCtxt(ctxt);
	return doc;
}

static int cbf_open_reader(void **out, struct xq_input *in, const struct xq_read_opts *opts,
			   const struct xq_sink *sink)
{
	struct cbf_reader *r = calloc(1, sizeof(*r));

	(void)opts; /* CBF says its encoding in the XML declaration */
	if (!r)
		return XQ_ENOMEM;
	xmlInitParser();
	r->in = in;
	r->sink = sink;
	r->name = xq_input_name(in);
	*out = r;
	return 0;
}

static void cbf_close_reader(void *reader)
{
	free(reader);
}

static int is_name(const xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

static struct xq_place node_place(const xmlNode *n)
{
	struct xq_place pl = {0, 0, 0};
	long line = xmlGetLineNo(n);

	if (line > 0)
		pl.line = (uint64_t)line;
	return pl;
}

/* Past the first error line when reading a recovered document? */
static int beyond(const struct cbf_reader *r, const xmlNode *n)
{
	return r->first_error > 0 && xmlGetLineNo(n) >= r->first_error;
}

/*
 * The text of element `n` (free with xmlFree), or NULL when out of memory.
 * In a recovered document, text that runs onto the first error's line is
 * not the document's: *late is set and the text must not be used.  Bytes
 * that are not UTF-8 (recovery can let them through) are reported and the
 * text is cut before them.
 */
static xmlChar *node_text(struct cbf_reader *r, const struct xq_game *g, const xmlNode *n,
			  size_t *len, int *late)
{
	xmlChar *text = xmlNodeGetContent(n);
	size_t ok;
	long lines = 0;

	*late = 0;
	if (!text)
		return NULL;
	*len = strlen((const char *)text);
	for (size_t i = 0; i < *len; i++)
		lines += text[i] == '\n';
	if (r->first_error > 0 && xmlGetLineNo(n) + lines >= r->first_error)
		*late = 1;
	ok = xq_utf8_check((const char *)text, *len);
	if (ok < *len && !*late) {
		struct xq_place pl = node_place(n);
		xq_ccb_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0, XQ_D_ENCODING,
			      XQ_SEV_ERROR, "<%s>: bytes that are not UTF-8 after %zu bytes; the "
			      "text stops there",
			      (const char *)n->name, ok);
		text[ok] = '\0';
		*len = ok;
	}
	return text;
}

static int read_head(struct cbf_reader *r, struct xq_game *g, const xmlNode *head, int *bad_fen)
{
	for (const xmlNode *n = head->children; n; n = n->next) {
		const struct xq_ccb_field *f;
		const char *name;
		xmlChar *text;
		size_t len;
		int rc = 0, late;

		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (beyond(r, n))
			break;
		name = (const char *)n->name;
		text = node_text(r, g, n, &len, &late);
		if (!text)
			return XQ_ENOMEM;
		if (late) {
			xmlFree(text);
			break;
		}
		f = xq_ccb_field_by_element(name, strlen(name));
		if (f && !strcmp(f->element, "FEN")) {
			struct xq_diag d;
			struct xq_place pl = node_place(n);
			xq_diag_init(&d);
			if (len && xq_board_from_fen(&g->start, (const char *)text, len,
						     XQ_FEN_LENIENT_PLACEMENT, &d)) {
				xq_ccb_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0,
					      XQ_D_BAD_FEN, XQ_SEV_ERROR,
					      "<FEN>: %s; no move can be read", d.msg);
				*bad_fen = 1;
			}
		} else if (f && !strcmp(f->element, "RecordResult")) {
			unsigned long code = 0;
			int ok = len > 0 && len < 6;
			for (size_t i = 0; ok && i < len; i++) {
				ok = xq_is_digit(text[i]);
				code = code * 10 + (unsigned long)(text[i] - '0');
			}
			if (ok && xq_ccb_result_from_code((unsigned)code, &g->result) == 0) {
				const char *s = xq_result_string(g->result);
				rc = xq_game_add_tag(g, "Result", 6, s, strlen(s));
			} else if (len) {
				struct xq_place pl = node_place(n);
				g->result = XQ_RESULT_UNKNOWN;
				g->result_text = xq_game_strdup(g, (const char *)text, len);
				xq_ccb_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0,
					      XQ_D_NO_RESULT, XQ_SEV_NOTE,
					      "<RecordResult> '%s' is not a result code this reader "
					      "knows (0-3); the result is taken as unknown",
					      (const char *)text);
				rc = g->result_text ? xq_game_add_tag(g, "Result", 6, (const char *)text, len)
						    : XQ_ENOMEM;
			}
		} else if (len) {
			const char *tag = f ? f->tag : name;
			rc = xq_game_add_tag(g, tag, strlen(tag), (const char *)text, len);
		}
		xmlFree(text);
		if (rc)
			return rc;
	}
	return 0;
}

/* "x1y1-x2y2" with x 0-8 and y 0-9 from the top; 0 if it is not that. */
static xq_move parse_value(const char *v)
{
	if (!v || strlen(v) != 5 || v[2] != '-')
		return 0;
	for (int i = 0; i < 5; i++)
		if (i != 2 && !xq_is_digit(v[i]))
			return 0;
	if (v[0] > '8' || v[3] > '8')
		return 0;
	return XQ_MOVE(XQ_SQ(v[0] - '0', 9 - (v[1] - '0')), XQ_SQ(v[3] - '0', 9 - (v[4] - '0')));
}

/* A boolean attribute: absent or "0" is false. */
static int flag_attr(const xmlNode *n, const char *name)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	int set = v && *v && strcmp((const char *)v, "0") != 0;

	xmlFree(v);
	return set;
}

/* The comment of a Move; 1 when it runs past the first error (not read). */
static int set_comment(struct cbf_reader *r, struct xq_game *g, uint32_t node, const xmlNode *n)
{
	size_t len;
	int late, rc = 0;
	xmlChar *text = node_text(r, g, n, &len, &late);

	if (!text)
		return XQ_ENOMEM;
	if (late)
		rc = 1;
	else if (len)
		rc = xq_game_set_comment(g, node, (const char *)text, len);
	xmlFree(text);
	return rc;
}

static int read_moves(struct cbf_reader *r, struct xq_game *g, const xmlNode *list)
{
	struct xq_ccb_tree t;
	int first = 1, rc = 0, attr_noted = 0;
	uint32_t after_end = 0, entries = 0;

	xq_ccb_tree_init(&t, g);
	for (const xmlNode *n = list->children; n; n = n->next) {
		struct xq_place pl;
		struct xq_diag d;
		xmlChar *value;
		xq_move m;
		uint32_t node = XQ_NODE_NONE, ply;
		int added;

		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (beyond(r, n)) {
			g->flags |= XQ_GAME_BROKEN;
			break;
		}
		pl = node_place(n);
		if (!is_name(n, "Move")) {
			xq_ccb_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0, XQ_D_SYNTAX,
				      XQ_SEV_WARNING, "<%s> in <MoveList> is not a move; not read",
				      (const char *)n->name);
			continue;
		}
		if (!attr_noted) {
			for (const xmlAttr *a = n->properties; a; a = a->next) {
				const char *an = (const char *)a->name;
				if (strcmp(an, "value") && strcmp(an, "end") && strcmp(an, "branch")) {
					xq_ccb_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0,
						      XQ_D_UNSUPPORTED, XQ_SEV_NOTE,
						      "attribute '%s' of <Move> is not understood; "
						      "not read", an);
					attr_noted = 1;
				}
			}
		}
		value = xmlGetProp(n, (const xmlChar *)"value");
		m = parse_value((const char *)value);
		if (first) {
			first = 0;
			if (m && XQ_MOVE_FROM(m) == XQ_MOVE_TO(m)) {
				/* The root entry: its text is the game comment. */
				xmlFree(value);
				rc = set_comment(r, g, XQ_ROOT, n);
				if (rc == 1) {
					rc = 0;
					g->flags |= XQ_GAME_BROKEN;
					break;
				}
				if (rc)
					break;
				continue;
			}
		}
		entries++;
		if (t.complete) {
			after_end++;
			xmlFree(value);
			continue;
		}
		ply = t.parent != XQ_NODE_NONE ? t.ply + 1 : 0;
		if (!m && t.parent != XQ_NODE_NONE) {
			xq_ccb_report(r->sink, r->name, g->number, &pl, 0, ply, (const char *)value,
				      value ? strlen((const char *)value) : 0, XQ_D_BAD_MOVE_TEXT,
				      XQ_SEV_ERROR,
				      "<Move value=\"%s\"> is not a move (\"x1y1-x2y2\"); "
				      "the line stops here",
				      value ? (const char *)value : "");
			g->flags |= XQ_GAME_BROKEN;
		}
		xq_diag_init(&d);
		added = xq_ccb_tree_add(&t, m, flag_attr(n, "branch"), flag_attr(n, "end"), &node,
					&d);
		if (added == XQ_EILLEGAL) {
			xq_ccb_report(r->sink, r->name, g->number, &pl, 0, ply, (const char *)value,
				      strlen((const char *)value), XQ_D_ILLEGAL_MOVE, XQ_SEV_ERROR,
				      "illegal move %s: %s; the line stops here",
				      (const char *)value, d.msg);
			g->flags |= XQ_GAME_BROKEN;
		} else if (added == 1) {
			g->nodes[node].place = pl;
			rc = xq_game_set_text(g, node, (const char *)value,
					      strlen((const char *)value));
			if (!rc)
				rc = set_comment(r, g, node, n);
			if (rc == 1) {
				/* Its comment runs into the damage: the move stays, the
				 * comment is not the document's, reading stops. */
				xmlFree(value);
				rc = 0;
				g->flags |= XQ_GAME_BROKEN;
				break;
			}
		} else if (added < 0 && added != XQ_EPARSE) {
			rc = added;
		}
		xmlFree(value);
		if (rc)
			break;
	}
	if (!rc) {
		struct xq_place pl = node_place(list);
		if (t.skipped)
			xq_ccb_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0,
				      XQ_D_ILLEGAL_MOVE, XQ_SEV_NOTE,
				      "%u moves after a bad move of their line were not read",
				      (unsigned)t.skipped);
		if (after_end)
			xq_ccb_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0,
				      XQ_D_TRAILING, XQ_SEV_WARNING,
				      "%u <Move> entries after the end of the move tree are not "
				      "read",
				      (unsigned)after_end);
		if (!t.complete && t.depth > 0 && !(g->flags & XQ_GAME_BROKEN)) {
			xq_ccb_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0,
				      XQ_D_TRUNCATED, XQ_SEV_WARNING,
				      "the move list ends with %zu announced variations "
				      "(branch=\"1\") missing",
				      t.depth);
			g->flags |= XQ_GAME_BROKEN;
		}
		if (entries == 0)
			g->flags |= XQ_GAME_EMPTY;
	}
	xq_ccb_tree_release(&t);
	return rc;
}

static int read_doc(struct cbf_reader *r, struct xq_game *g, xmlDocPtr doc)
{
	const xmlNode *root = xmlDocGetRootElement(doc);
	const xmlNode *head = NULL, *list = NULL;
	xmlChar *version;
	int bad_fen = 0, rc;

	if (!root || !is_name(root, "ChineseChessRecord")) {
		struct xq_place pl = root ? node_place(root) : (struct xq_place){0, 0, 0};
		xq_ccb_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0, XQ_D_BAD_MAGIC,
			      XQ_SEV_ERROR, "not a CBF record: the root element is <%s>, not "
			      "<ChineseChessRecord>",
			      root ? (const char *)root->name : "");
		return XQ_EPARSE;
	}
	version = xmlGetProp(root, (const xmlChar *)"Version");
	if (version && strcmp((const char *)version, "1.0")) {
		struct xq_place pl = node_place(root);
		xq_ccb_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0, XQ_D_UNSUPPORTED,
			      XQ_SEV_WARNING, "CBF version '%s' (this reader knows 1.0); read as 1.0",
			      (const char *)version);
	}
	xmlFree(version);
	for (const xmlNode *n = root->children; n; n = n->next) {
		if (is_name(n, "Head") && !head) {
			head = n;
		} else if (is_name(n, "MoveList") && !list) {
			list = n;
		} else if (n->type == XML_ELEMENT_NODE) {
			struct xq_place pl = node_place(n);
			xq_ccb_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0,
				      XQ_D_UNSUPPORTED, XQ_SEV_WARNING,
				      "element <%s> is not understood; not read", (const char *)n->name);
		}
	}
	if (head && (rc = read_head(r, g, head, &bad_fen)) != 0)
		return rc;
	if (bad_fen) {
		g->flags |= XQ_GAME_BROKEN;
		return 0;
	}
	if (!list) {
		g->flags |= XQ_GAME_EMPTY;
		return 0;
	}
	return read_moves(r, g, list);
}

static int cbf_read(void *reader, struct xq_game *g)
{
	struct cbf_reader *r = reader;
	struct xq_buf buf = XQ_BUF_INIT;
	struct xq_diag d;
	xmlDocPtr doc;
	int rc;

	if (r->done)
		return 0;
	r->done = 1;
	xq_diag_init(&d);
	rc = xq_input_read_all(r->in, &buf, CBF_MAX_SIZE, &d);
	if (rc) {
		d.source = r->name;
		xq_sink_report(r->sink, &d);
		xq_buf_release(&buf);
		return rc;
	}
	xq_game_clear(g);
	g->number = 1;
	g->source = r->name;
	g->encoding = "utf-8";
	g->place.line = 1;
	doc = parse(r, buf.ptr, buf.len, 0);
	if (!doc && r->errors && !r->entity_decl) {
		/* Keep what comes before the first error. */
		doc = parse(r, buf.ptr, buf.len, 1);
		g->flags |= XQ_GAME_BROKEN;
		if (r->first_error == 0)
			r->first_error = 1;
	}
	xq_buf_release(&buf);
	if (!doc)
		return XQ_EPARSE;
	rc = read_doc(r, g, doc);
	xmlFreeDoc(doc);
	if (rc == XQ_EPARSE && (g->flags & XQ_GAME_BROKEN))
		return XQ_EPARSE;
	if (rc < 0)
		return rc;
	return 1;
}

/* Writing. */

struct cbf_writer {
	struct xq_output *o;
	const struct xq_sink *sink;
	const char *name;
	uint64_t games;
	struct xq_buf out;
};

static int cbf_open_writer(void **out, struct xq_output *o, const struct xq_write_opts *opts,
			   const struct xq_sink *sink)
{
	struct cbf_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return XQ_ENOMEM;
	w->o = o;
	w->sink = sink;
	w->name = xq_output_name(o);
	xq_buf_init(&w->out);
	if (opts && opts->encoding != XQ_ENC_UNKNOWN && opts->encoding != XQ_ENC_UTF8)
		xq_ccb_report(sink, w->name, 0, NULL, 0, 0, NULL, 0, XQ_D_UNSUPPORTED,
			      XQ_SEV_WARNING, "CBF is written in UTF-8 (as CCBridge reads it), not %s",
			      xq_encoding_name(opts->encoding));
	*out = w;
	return 0;
}

/* Characters XML 1.0 cannot hold at all. */
static int xml_forbidden(unsigned char c)
{
	return c < 0x20 && c != '\t' && c != '\n' && c != '\r';
}

/*
 * Append `s` escaped for element content (cdata = 0) or as CDATA sections
 * (cdata = 1); carriage returns become &#13; so that XML's line-end
 * normalisation does not eat them.  Returns the number of characters XML
 * cannot hold (dropped), or XQ_ENOMEM.
 */
static int add_text(struct xq_buf *b, const char *s, int cdata)
{
	int dropped = 0, in_cdata = 0, rc = 0;

	for (; *s && !rc; s++) {
		unsigned char c = (unsigned char)*s;
		if (xml_forbidden(c)) {
			dropped++;
			continue;
		}
		if (c == '\r') {
			if (in_cdata)
				rc |= xq_buf_adds(b, "]]>");
			in_cdata = 0;
			rc |= xq_buf_adds(b, "&#13;");
			continue;
		}
		if (!cdata) {
			if (c == '&')
				rc |= xq_buf_adds(b, "&amp;");
			else if (c == '<')
				rc |= xq_buf_adds(b, "&lt;");
			else if (c == '>')
				rc |= xq_buf_adds(b, "&gt;");
			else
				rc |= xq_buf_addc(b, (char)c);
			continue;
		}
		if (!in_cdata) {
			rc |= xq_buf_adds(b, "<![CDATA[");
			in_cdata = 1;
		}
		/* "]]>" cannot appear inside CDATA: close after "]]" and reopen. */
		if (c == '>' && b->len >= 2 && b->ptr[b->len - 1] == ']' && b->ptr[b->len - 2] == ']')
			rc |= xq_buf_adds(b, "]]><![CDATA[");
		rc |= xq_buf_addc(b, (char)c);
	}
	if (in_cdata)
		rc |= xq_buf_adds(b, "]]>");
	return rc ? XQ_ENOMEM : dropped;
}

/* Report characters of `what` that XML cannot hold. */
static void report_dropped(struct cbf_writer *w, uint32_t ply, const char *what, int count)
{
	xq_ccb_report(w->sink, w->name, w->games, NULL, 0, ply, NULL, 0, XQ_D_LOSS,
		      XQ_SEV_WARNING, "%s: %d control characters XML cannot hold were dropped",
		      what, count);
}

/* An unknown result read from a CBR or CBF code ("4") goes back as that code. */
static int numeric_result(const struct xq_game *g)
{
	const char *t = g->result_text;

	return g->result == XQ_RESULT_UNKNOWN && t && *t && strlen(t) < 6 &&
	       strspn(t, "0123456789") == strlen(t);
}

static int write_head(struct cbf_writer *w, const struct xq_game *g)
{
	struct xq_buf *b = &w->out;
	const char *result_tag = numeric_result(g) ? g->result_text : xq_result_string(g->result);
	int rc = 0;

	for (const struct xq_ccb_field *f = xq_ccb_fields; f->element && !rc; f++) {
		char val[XQ_FEN_MAX];
		const char *v = NULL;
		int dropped;
		if (!strcmp(f->element, "FEN")) {
			xq_board_to_fen(&g->start, val, sizeof(val));
			v = val;
		} else if (!strcmp(f->element, "RecordResult")) {
			if (numeric_result(g)) {
				v = g->result_text;
			} else {
				snprintf(val, sizeof(val), "%u", xq_ccb_result_code(g->result));
				v = val;
			}
		} else {
			v = xq_game_tag(g, f->tag);
		}
		if (!v || !*v) {
			rc = xq_buf_addf(b, "  <%s />\r\n", f->element);
			continue;
		}
		rc = xq_buf_addf(b, "  <%s>", f->element);
		dropped = add_text(b, v, 0);
		if (dropped < 0)
			return dropped;
		if (dropped)
			report_dropped(w, 0, f->tag, dropped);
		rc |= xq_buf_addf(b, "</%s>\r\n", f->element);
	}
	/* Tags with no element, and repeated tags (an element holds one value). */
	for (size_t i = 0; i < g->ntags && !rc; i++) {
		const char *tag = g->tags[i].name;
		const struct xq_ccb_field *f = xq_ccb_field_by_tag(tag);
		if (!strcmp(tag, "Result")) {
			/* The code says the result; a tag that says otherwise is not kept. */
			if (strcmp(g->tags[i].value, result_tag))
				xq_ccb_report(w->sink, w->name, w->games, NULL, 0, 0, NULL, 0, XQ_D_LOSS,
					      XQ_SEV_WARNING,
					      "tag Result \"%s\" is not the result CBF's code gives "
					      "(\"%s\"); not written",
					      g->tags[i].value, result_tag);
			continue;
		}
		if (!*g->tags[i].value || !strcmp(tag, "FEN"))
			continue;
		if (!f)
			xq_ccb_report(w->sink, w->name, w->games, NULL, 0, 0, NULL, 0, XQ_D_LOSS,
				      XQ_SEV_WARNING, "tag %s (\"%s\") has no CBF field; not written",
				      tag, g->tags[i].value);
		else if (xq_game_tag(g, tag) != g->tags[i].value)
			xq_ccb_report(w->sink, w->name, w->games, NULL, 0, 0, NULL, 0, XQ_D_LOSS,
				      XQ_SEV_WARNING,
				      "tag %s repeated: CBF holds one; \"%s\" not written", tag,
				      g->tags[i].value);
	}
	return rc ? XQ_ENOMEM : 0;
}

static int write_comment(struct cbf_writer *w, const char *comment, uint32_t ply)
{
	int dropped;

	if (!comment || !*comment)
		return xq_buf_adds(&w->out, " />\r\n");
	if (xq_buf_addc(&w->out, '>'))
		return XQ_ENOMEM;
	dropped = add_text(&w->out, comment, 1);
	if (dropped < 0)
		return dropped;
	if (dropped)
		report_dropped(w, ply, "comment", dropped);
	return xq_buf_adds(&w->out, "</Move>\r\n");
}

static int write_moves(struct cbf_writer *w, const struct xq_game *g)
{
	struct xq_buf *b = &w->out;
	uint32_t nags = 0, pre = 0, first_nag = 0, first_pre = 0, ply = 1;
	int rc;

	rc = xq_buf_adds(b, "  <Move value=\"00-00\"");
	if (!rc)
		rc = write_comment(w, g->nodes[XQ_ROOT].comment, 0);
	for (uint32_t n = g->nodes[XQ_ROOT].child; n != XQ_NODE_NONE && !rc;
	     n = xq_game_next_ply(g, n, &ply)) {
		const struct xq_node *x = &g->nodes[n];
		xq_sq f = XQ_MOVE_FROM(x->move), t = XQ_MOVE_TO(x->move);
		if (x->nnags) {
			if (!nags)
				first_nag = ply;
			nags += x->nnags;
		}
		if (x->pre_comment && *x->pre_comment) {
			if (!pre)
				first_pre = ply;
			pre++;
		}
		rc = xq_buf_addf(b, "  <Move value=\"%d%d-%d%d\"%s%s", XQ_SQ_FILE(f),
				 9 - XQ_SQ_RANK(f), XQ_SQ_FILE(t), 9 - XQ_SQ_RANK(t),
				 x->child == XQ_NODE_NONE ? " end=\"1\"" : "",
				 x->sibling != XQ_NODE_NONE ? " branch=\"1\"" : "");
		if (!rc)
			rc = write_comment(w, x->comment, ply);
	}
	if (rc)
		return XQ_ENOMEM;
	if (nags)
		xq_ccb_report(w->sink, w->name, w->games, NULL, 0, first_nag, NULL, 0, XQ_D_LOSS,
			      XQ_SEV_WARNING,
			      "%u NAGs (the first at ply %u) not written: CBF has no place for them",
			      (unsigned)nags, (unsigned)first_nag);
	if (pre)
		xq_ccb_report(w->sink, w->name, w->games, NULL, 0, first_pre, NULL, 0, XQ_D_LOSS,
			      XQ_SEV_WARNING,
			      "%u comments before a move (the first at ply %u) not written: CBF "
			      "holds comments after moves only",
			      (unsigned)pre, (unsigned)first_pre);
	return 0;
}

static int cbf_write(void *writer, const struct xq_game *g)
{
	struct cbf_writer *w = writer;
	struct xq_buf *b = &w->out;
	int rc;

	w->games++;
	if (w->games > 1) {
		xq_ccb_report(w->sink, w->name, w->games, NULL, 0, 0, NULL, 0, XQ_D_LOSS,
			      XQ_SEV_ERROR, "a CBF file holds one game; game %llu not written",
			      (unsigned long long)w->games);
		return XQ_EUNSUPPORTED;
	}
	xq_buf_reset(b);
	rc = xq_buf_adds(b, "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n"
			    "<ChineseChessRecord Version=\"1.0\">\r\n <Head>\r\n");
	if (!rc)
		rc = write_head(w, g);
	if (!rc)
		rc = xq_buf_adds(b, " </Head>\r\n <MoveList>\r\n");
	if (!rc)
		rc = write_moves(w, g);
	if (!rc)
		rc = xq_buf_adds(b, " </MoveList>\r\n</ChineseChessRecord>\r\n");
	if (rc)
		return XQ_ENOMEM;
	return xq_output_write(w->o, b->ptr, b->len);
}

static int cbf_close_writer(void *writer)
{
	struct cbf_writer *w = writer;

	xq_buf_release(&w->out);
	free(w);
	return 0;
}

static int cbf_probe(const unsigned char *head, size_t len)
{
	static const char root[] = "<ChineseChessRecord";
	size_t n = sizeof(root) - 1;

	for (size_t i = 0; i + n <= len; i++)
		if (head[i] == '<' && !memcmp(head + i, root, n))
			return 95;
	return 0;
}

const struct xq_format xq_format_cbf = {
	"cbf",
	"CCBridge (象棋桥) XML record, one game with variations and comments",
	".cbf",
	XQ_CAP_READ | XQ_CAP_WRITE | XQ_CAP_VARIATIONS | XQ_CAP_COMMENTS,
	cbf_probe,
	cbf_open_reader,
	cbf_read,
	cbf_close_reader,
	cbf_open_writer,
	cbf_write,
	cbf_close_writer,
};
