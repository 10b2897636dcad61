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
 * Reading uses libxml2's SAX2 parser with handlers of this file only: no
 * tree is built (libxml2's tree costs about 25 bytes per byte of a
 * document of short elements), only the few things the reader needs of
 * each element are kept (struct cbf_elem).  No network access
 * (XML_PARSE_NONET), no entity substitution and no DTD loading (the
 * handlers for DTD declarations are not set); entity declarations stop
 * the parse, since CBF has none and they are what expansion attacks are
 * made of.  Errors are collected through a structured error handler set on
 * the parser context (not the global one), so they carry libxml2's line
 * and column and reading stays thread-safe.  A malformed document is read
 * a second time in libxml2's recovery mode to keep the part before the
 * first error (the game is then XQI_RECORD_BROKEN).
 *
 * Writing: UTF-8 with a BOM and CRLF line ends as CCBridge does, every
 * <Head> element (empty ones as <X />), comments in CDATA.  What CBF has
 * no place for (NAGs, comments before a move, tags outside the list,
 * characters XML 1.0 forbids) is reported as XQI_D_LOSS.
 */
#include "format.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "alloc.h"
#include "ccbridge.h"
#include "flattree.h"
#include "movegen.h"
#include "utf8.h"

/*
 * The largest CBF record read: 8 MiB.  The format has no maximum; the
 * largest real one known (the corpus's sample_22_ccbridge.cbf) is 407,536
 * bytes with 15,243 moves: the limit is 20 times that.  Reading keeps the
 * document, the elements of struct cbf_elem and the game: at most
 * CBF_MEM_FACTOR bytes per byte (the densest document is one short <Move/>
 * after another).
 */
#define CBF_MAX_RECORD ((uint64_t)8 << 20)
#define CBF_MEM_FACTOR 16
#define CBF_MAX_XML_ERRORS 20

extern const struct xqi_format xqi_format_cbf;

struct cbf_reader {
	struct xqi_input *in;
	const struct xqi_sink *sink;
	const char *name;
	struct xqi_read_opts opts;
	int done;
	/* One parse: */
	int quiet;          /* recovery pass: errors were already reported */
	int errors;         /* errors seen */
	long first_error;   /* line of the first error, 0 if none */
	int entity_decl;    /* an entity declaration stopped the parse */
};

/*
 * What a parse keeps of the document: no tree, only the elements the
 * reader looks at, in document order, with their text.  The root's
 * children (E_ROOT), the children of its first <Head> (E_FIELD) and of its
 * first <MoveList> (E_MOVE, or E_OTHER for an element that is not a Move).
 * The children of one <Head> or <MoveList> follow it, up to the next
 * E_ROOT.  They are kept, rather than used as they come, because <Head>
 * (the start position) must be read before the moves wherever it stands,
 * and so that the diagnostics come in the same order as from a tree.
 */
enum { E_ROOT, E_FIELD, E_MOVE, E_OTHER };

struct cbf_elem {
	uint32_t line;       /* where its start tag ends, as libxml2 counts */
	uint8_t kind;
	uint8_t has_value;   /* E_MOVE: it has a value attribute */
	uint8_t end, branch; /* E_MOVE: its flags */
	uint32_t nextra;     /* E_MOVE: attributes not understood (names at `extra`) */
	size_t name;         /* offsets in the pool: its name (NUL-terminated) */
	size_t value, extra; /* E_MOVE: its value, the names of the other attributes */
	size_t text, text_len; /* its text (every text and CDATA inside it) */
};

struct cbf_doc {
	struct cbf_reader *r;
	struct xq_buf pool;
	struct cbf_elem *elems;
	size_t n, cap;
	int started;         /* there is a document (libxml2 started one) */
	int has_root, root_open;
	uint32_t root_line;
	size_t root_name;
	int has_version;
	size_t version;
	int head_open, list_open; /* the last depth-2 element is the first <Head> / <MoveList> */
	int seen_head, seen_list;
	size_t head, list;   /* their indexes */
	long capture;        /* the element whose text is being kept, -1 if none */
	int capture_depth;   /* its depth (the root's is 1) */
	int oom;
	/* What libxml2 said through its generic channel while parsing (the
	 * errors of its encoding converters come there, not to the parser
	 * context's handler); kept, never printed. */
	char generic[200];
	size_t generic_len;
};

/* Structured error handler of one parser context (ctx is the context). */
static void on_xml_error(void *ctx, xmlErrorPtr e)
{
	xmlParserCtxtPtr ctxt = ctx;
	struct cbf_doc *doc = ctxt ? ctxt->_private : NULL;
	struct cbf_reader *r = doc ? doc->r : NULL;
	struct xqi_place pl = {0, 0, 0};
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
	xqi_format_report(r->sink, r->name, 1, &pl, 0, 0, NULL, 0, XQI_D_XML, XQ_SEVERITY_ERROR, "%.*s",
		      (int)len, msg);
}

/*
 * libxml2's generic error channel, set for the calling thread while one
 * document is parsed (libxml2 keeps it per thread): its text is kept in
 * the document, to be reported as a diagnostic, instead of being printed
 * on standard error.
 */
static void on_generic_error(void *ctx, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static void on_generic_error(void *ctx, const char *fmt, ...)
{
	struct cbf_doc *doc = ctx;
	size_t room = sizeof(doc->generic) - doc->generic_len;
	va_list ap;
	int n;

	if (!doc || room <= 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(doc->generic + doc->generic_len, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		doc->generic_len += (size_t)n < room ? (size_t)n : room - 1;
}

/* The first line of what libxml2 said on its generic channel, reported. */
static void report_generic(struct cbf_reader *r, struct cbf_doc *doc)
{
	struct xqi_place pl = {0, 0, 0};
	const char *m = doc->generic, *nl;
	size_t len;

	while (*m == ' ' || *m == '\n')
		m++;
	nl = strchr(m, '\n');
	len = nl ? (size_t)(nl - m) : strlen(m);
	while (len > 0 && m[len - 1] == ' ')
		len--;
	if (len == 0)
		return;
	r->errors++;
	xqi_format_report(r->sink, r->name, 1, &pl, 0, 0, NULL, 0, XQI_D_ENCODING, XQ_SEVERITY_ERROR,
		      "the text is not in the encoding its XML declaration names (libxml2: %.*s)",
		      (int)len, m);
}

/* CBF has no entities; a declaration ends the parse before any expansion. */
static void on_entity_decl(void *ctx, const xmlChar *name, int type, const xmlChar *public_id,
			   const xmlChar *system_id, xmlChar *content)
{
	xmlParserCtxtPtr ctxt = ctx;
	struct cbf_doc *doc = ctxt->_private;
	struct cbf_reader *r = doc->r;

	(void)type;
	(void)public_id;
	(void)system_id;
	(void)content;
	if (!r->entity_decl && !r->quiet) {
		struct xqi_place pl = {0, (uint32_t)xmlSAX2GetLineNumber(ctx),
				      (uint32_t)xmlSAX2GetColumnNumber(ctx)};
		xqi_format_report(r->sink, r->name, 1, &pl, 0, 0, NULL, 0, XQI_D_XML, XQ_SEVERITY_ERROR,
			      "entity declaration '%s': CBF documents declare no entities; not read",
			      (const char *)name);
	}
	r->entity_decl = 1;
	r->errors++;
	if (r->first_error == 0 || xmlSAX2GetLineNumber(ctx) < r->first_error)
		r->first_error = xmlSAX2GetLineNumber(ctx);
	xmlStopParser(ctxt);
}

static void on_start_document(void *ctx)
{
	xmlParserCtxtPtr ctxt = ctx;
	struct cbf_doc *doc = ctxt->_private;

	doc->started = 1;
}

/* Add `len` bytes (and a NUL when `nul`) to the pool; their offset. */
static size_t pool_add(struct cbf_doc *doc, const void *s, size_t len, int nul)
{
	size_t at = doc->pool.len;

	if (xq_buf_add(&doc->pool, s, len) || (nul && xq_buf_addc(&doc->pool, '\0')))
		doc->oom = 1;
	return at;
}

/* Add an attribute value, with the "&#38;" libxml2 leaves for '&' (its
 * parser keeps references to '&' for the tree builder) turned into '&'. */
static size_t pool_add_value(struct cbf_doc *doc, const xmlChar *v, const xmlChar *end)
{
	size_t at = doc->pool.len;
	const char *p = (const char *)v, *e = (const char *)end;

	while (p < e) {
		const char *amp = memchr(p, '&', (size_t)(e - p));
		if (!amp) {
			pool_add(doc, p, (size_t)(e - p), 0);
			break;
		}
		pool_add(doc, p, (size_t)(amp - p), 0);
		if (e - amp >= 5 && !memcmp(amp, "&#38;", 5)) {
			pool_add(doc, "&", 1, 0);
			p = amp + 5;
		} else {
			pool_add(doc, "&", 1, 0);
			p = amp + 1;
		}
	}
	pool_add(doc, "", 0, 1);
	return at;
}

static struct cbf_elem *new_elem(struct cbf_doc *doc, void *ctx, int kind, const xmlChar *name)
{
	struct cbf_elem *e;

	if (XQ_ALLOC_GROW(doc->elems, doc->n + 1, doc->cap)) {
		doc->oom = 1;
		return NULL;
	}
	e = &doc->elems[doc->n++];
	memset(e, 0, sizeof(*e));
	e->line = (uint32_t)xmlSAX2GetLineNumber(ctx);
	e->kind = (uint8_t)kind;
	e->name = pool_add(doc, name, strlen((const char *)name), 1);
	return e;
}

/* Keep the text of `e` (the last element, at `depth`) from here to its end. */
static void capture(struct cbf_doc *doc, struct cbf_elem *e, int depth)
{
	e->text = doc->pool.len;
	doc->capture = (long)(e - doc->elems);
	doc->capture_depth = depth;
}

static int attr_is(const xmlChar **a, const char *name)
{
	return !strcmp((const char *)a[0], name);
}

/*
 * An element starts.  Its depth is the parser's own count of open
 * elements (ctxt->nameNr, its parent's depth here), not a count of start
 * and end callbacks: in recovery, libxml2 closes elements without an end
 * callback.
 */
static void on_start_element(void *ctx, const xmlChar *localname, const xmlChar *prefix,
			     const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
			     int nb_attributes, int nb_defaulted, const xmlChar **attributes)
{
	xmlParserCtxtPtr ctxt = ctx;
	struct cbf_doc *doc = ctxt->_private;
	const char *name = (const char *)localname;
	int depth = ctxt->nameNr + 1;
	struct cbf_elem *e;

	(void)prefix;
	(void)uri;
	(void)nb_namespaces;
	(void)namespaces;
	(void)nb_defaulted;
	if (doc->capture >= 0 && depth <= doc->capture_depth)
		doc->capture = -1;
	if (doc->oom || doc->capture >= 0)
		return;
	if (depth == 1) {
		doc->root_open = !doc->has_root;
		if (doc->has_root)
			return;
		doc->has_root = 1;
		doc->root_line = (uint32_t)xmlSAX2GetLineNumber(ctx);
		doc->root_name = pool_add(doc, name, strlen(name), 1);
		for (int i = 0; i < nb_attributes; i++) {
			const xmlChar **a = attributes + 5 * i;
			if (attr_is(a, "Version") && !doc->has_version) {
				doc->has_version = 1;
				doc->version = pool_add_value(doc, a[3], a[4]);
			}
		}
		return;
	}
	if (!doc->root_open)
		return;
	if (depth == 2) {
		doc->head_open = doc->list_open = 0;
		if (!(e = new_elem(doc, ctx, E_ROOT, localname)))
			return;
		if (!strcmp(name, "Head") && !doc->seen_head) {
			doc->seen_head = doc->head_open = 1;
			doc->head = doc->n - 1;
		} else if (!strcmp(name, "MoveList") && !doc->seen_list) {
			doc->seen_list = doc->list_open = 1;
			doc->list = doc->n - 1;
		}
		return;
	}
	if (depth != 3 || (!doc->head_open && !doc->list_open))
		return;
	if (doc->head_open) {
		if ((e = new_elem(doc, ctx, E_FIELD, localname)))
			capture(doc, e, depth);
		return;
	}
	if (strcmp(name, "Move")) {
		new_elem(doc, ctx, E_OTHER, localname);
		return;
	}
	if (!(e = new_elem(doc, ctx, E_MOVE, localname)))
		return;
	for (int i = 0; i < nb_attributes; i++) {
		const xmlChar **a = attributes + 5 * i;
		const char *v = (const char *)a[3];
		size_t vlen = (size_t)(a[4] - a[3]);
		if (attr_is(a, "value")) {
			if (!e->has_value) {
				e->has_value = 1;
				e->value = pool_add_value(doc, a[3], a[4]);
			}
		} else if (attr_is(a, "end") || attr_is(a, "branch")) {
			/* A boolean attribute: absent or "0" is false. */
			int set = vlen > 0 && !(vlen == 1 && v[0] == '0');
			if (attr_is(a, "end"))
				e->end = (uint8_t)set;
			else
				e->branch = (uint8_t)set;
		} else {
			size_t at = pool_add(doc, a[0], strlen((const char *)a[0]), 1);
			if (e->nextra++ == 0)
				e->extra = at;
		}
	}
	capture(doc, e, depth);
}

static void on_text(void *ctx, const xmlChar *s, int len)
{
	xmlParserCtxtPtr ctxt = ctx;
	struct cbf_doc *doc = ctxt->_private;

	if (doc->capture >= 0 && ctxt->nameNr < doc->capture_depth)
		doc->capture = -1; /* its element has ended */
	if (doc->capture < 0 || doc->oom || len <= 0)
		return;
	pool_add(doc, s, (size_t)len, 0);
	doc->elems[doc->capture].text_len = doc->pool.len - doc->elems[doc->capture].text;
}

static void doc_release(struct cbf_doc *doc)
{
	xq_buf_release(&doc->pool);
	free(doc->elems);
	memset(doc, 0, sizeof(*doc));
}

/*
 * Parse `len` bytes into `doc`: 1 when there is a document to read, 0
 * when libxml2 gave none (or, when not recovering, a malformed one),
 * XQ_ENOMEM.
 */
static int parse(struct cbf_reader *r, struct cbf_doc *doc, const char *buf, size_t len,
		 int recover)
{
	xmlSAXHandler sax;
	xmlParserCtxtPtr ctxt;
	xmlGenericErrorFunc old_generic;
	void *old_generic_ctx;
	int ok;

	memset(doc, 0, sizeof(*doc));
	doc->r = r;
	doc->capture = -1;
	xq_buf_init(&doc->pool);
	if (len > (size_t)INT32_MAX)
		return 0;
	ctxt = xmlCreateMemoryParserCtxt(buf, (int)len);
	if (!ctxt)
		return 0;
	xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_BIG_LINES |
					(recover ? XML_PARSE_RECOVER : 0));
	/* Our handlers only: no tree, no DTD, no entity loading. */
	memset(&sax, 0, sizeof(sax));
	sax.initialized = XML_SAX2_MAGIC;
	sax.startDocument = on_start_document;
	sax.startElementNs = on_start_element;
	sax.characters = on_text;
	sax.ignorableWhitespace = on_text;
	sax.cdataBlock = on_text;
	sax.entityDecl = on_entity_decl;
	sax.serror = on_xml_error;
	*ctxt->sax = sax;
	ctxt->_private = doc;
	r->quiet = recover;
	old_generic = xmlGenericError;
	old_generic_ctx = xmlGenericErrorContext;
	xmlSetGenericErrorFunc(doc, on_generic_error);
	xmlParseDocument(ctxt);
	xmlSetGenericErrorFunc(old_generic_ctx, old_generic);
	if (!recover && doc->generic_len)
		report_generic(r, doc);
	ok = doc->started;
	if (!recover && (!ctxt->wellFormed || r->entity_decl)) {
		if (r->errors == 0) {
			struct xqi_place pl = {0, 0, 0};
			xqi_format_report(r->sink, r->name, 1, &pl, 0, 0, NULL, 0, XQI_D_XML,
				      XQ_SEVERITY_ERROR, "malformed XML");
			r->errors = 1;
		}
		ok = 0;
	}
	/* libxml2 makes a document of its own for some declarations, even
	 * without a tree (entities it records for later): not ours to keep. */
	xmlFreeDoc(ctxt->myDoc);
	ctxt->myDoc = NULL;
	xmlFreeParserCtxt(ctxt);
	if (doc->oom)
		return XQ_ENOMEM;
	return ok;
}

static int cbf_open_reader(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
			   const struct xqi_sink *sink)
{
	struct cbf_reader *r = calloc(1, sizeof(*r));
	struct xqi_read_opts def = XQI_READ_OPTS_INIT;

	/* CBF says its encoding in the XML declaration: opts->encoding is not used. */
	if (!r)
		return XQ_ENOMEM;
	xmlInitParser();
	r->in = in;
	r->sink = sink;
	r->name = xqi_input_name(in);
	r->opts = opts ? *opts : def;
	*out = r;
	return 0;
}

static void cbf_close_reader(void *reader)
{
	free(reader);
}

static const char *elem_name(const struct cbf_doc *doc, const struct cbf_elem *e)
{
	return doc->pool.ptr + e->name;
}

static struct xqi_place elem_place(const struct cbf_elem *e)
{
	struct xqi_place pl = {0, e->line, 0};

	return pl;
}

/* Past the first error line when reading a recovered document? */
static int beyond(const struct cbf_reader *r, const struct cbf_elem *e)
{
	return r->first_error > 0 && (long)e->line >= r->first_error;
}

/*
 * The text of `e` (in the pool, not NUL-terminated), with *len.  In a
 * recovered document, text that runs onto the first error's line is not
 * the document's: *late is set and the text must not be used.  Bytes that
 * are not UTF-8 (recovery can let them through) are reported and the text
 * is cut before them.
 */
static const char *elem_text(struct cbf_reader *r, const struct cbf_doc *doc,
			     const struct xqi_record *g, const struct cbf_elem *e, size_t *len,
			     int *late)
{
	const char *text = doc->pool.ptr + e->text;
	size_t ok;
	long lines = 0;

	*late = 0;
	*len = e->text_len;
	for (size_t i = 0; i < *len; i++)
		lines += text[i] == '\n';
	if (r->first_error > 0 && (long)e->line + lines >= r->first_error)
		*late = 1;
	ok = xq_utf8_check(text, *len);
	if (ok < *len && !*late) {
		struct xqi_place pl = elem_place(e);
		xqi_format_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0, XQI_D_ENCODING,
			      XQ_SEVERITY_ERROR, "<%s>: bytes that are not UTF-8 after %zu bytes; the "
			      "text stops there",
			      elem_name(doc, e), ok);
		*len = ok;
	}
	return text;
}

/* The elements inside the E_ROOT element `at`: [at + 1, *end). */
static size_t children_end(const struct cbf_doc *doc, size_t at)
{
	size_t i = at + 1;

	while (i < doc->n && doc->elems[i].kind != E_ROOT)
		i++;
	return i;
}

/* A <RecordResult> that is not a code (`e`, its text in result_text): a
 * result in words (红胜, 和棋) is read as what it says, with a note; else
 * the result is unknown (a note too).  0 or XQ_ENOMEM. */
static int result_word(struct cbf_reader *r, struct xqi_record *g, const struct cbf_elem *e)
{
	struct xqi_place pl = elem_place(e);
	enum xqi_result res;

	if (xqi_result_word(g->result_text, strlen(g->result_text), g->start.side, &res) < 0) {
		xqi_format_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0, XQI_D_NO_RESULT,
				 XQ_SEVERITY_NOTE,
				 "<RecordResult> '%s' is not a result code this reader knows (0-3) "
				 "nor a result in words; the result is taken as unknown",
				 g->result_text);
		return 0;
	}
	g->result = res;
	xqi_format_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0, XQI_D_BAD_TAG, XQ_SEVERITY_NOTE,
			 "<RecordResult> '%s' is read as %s", g->result_text, xqi_result_meaning(res));
	return xqi_record_set_tag(g, "Result", xqi_result_string(res));
}

static int read_head(struct cbf_reader *r, const struct cbf_doc *doc, struct xqi_record *g,
		     int *bad_fen)
{
	size_t end = children_end(doc, doc->head);
	const struct cbf_elem *word_at = NULL;

	for (size_t i = doc->head + 1; i < end; i++) {
		const struct cbf_elem *e = &doc->elems[i];
		const struct xqi_ccb_field *f;
		const char *name, *text;
		size_t len;
		int rc = 0, late;

		if (beyond(r, e))
			break;
		name = elem_name(doc, e);
		text = elem_text(r, doc, g, e, &len, &late);
		if (late)
			break;
		f = xqi_ccb_field_by_element(name, strlen(name));
		if (f && !strcmp(f->element, "FEN")) {
			struct xq_diagnostic d;
			struct xqi_place pl = elem_place(e);
			xqi_diagnostic_init(&d);
			if (len && xqi_position_from_fen(&g->start, text, len, XQI_FEN_LENIENT_PLACEMENT,
						     &d)) {
				xqi_format_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0,
					      XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
					      "<FEN>: %s; no move can be read", d.msg);
				*bad_fen = 1;
			}
		} else if (f && !strcmp(f->element, "RecordResult")) {
			unsigned long code = 0;
			int ok = len > 0 && len < 6;
			for (size_t k = 0; ok && k < len; k++) {
				ok = xq_is_digit((unsigned char)text[k]);
				code = code * 10 + (unsigned long)(text[k] - '0');
			}
			if (ok && xqi_ccb_result_from_code((unsigned)code, &g->result) == 0) {
				const char *s = xqi_result_string(g->result);
				rc = xqi_record_add_tag(g, "Result", 6, s, strlen(s));
			} else if (len) {
				/* Not a code: read as words (红胜) once the FEN
				 * says who moves first (result_word()). */
				g->result = XQI_RESULT_UNKNOWN;
				g->result_text = xqi_record_strdup(g, text, len);
				word_at = e;
				rc = g->result_text ? xqi_record_add_tag(g, "Result", 6, text, len)
						    : XQ_ENOMEM;
			}
		} else if (len) {
			const char *tag = f ? f->tag : name;
			rc = xqi_record_add_tag(g, tag, strlen(tag), text, len);
		}
		if (rc)
			return rc;
	}
	return word_at && g->result_text ? result_word(r, g, word_at) : 0;
}

/* "x1y1-x2y2" with x 0-8 and y 0-9 from the top; 0 if it is not that. */
static xqi_move parse_value(const char *v)
{
	if (!v || strlen(v) != 5 || v[2] != '-')
		return 0;
	for (int i = 0; i < 5; i++)
		if (i != 2 && !xq_is_digit(v[i]))
			return 0;
	if (v[0] > '8' || v[3] > '8')
		return 0;
	return XQI_MOVE(XQI_SQ(v[0] - '0', 9 - (v[1] - '0')), XQI_SQ(v[3] - '0', 9 - (v[4] - '0')));
}

/* The comment of a Move; 1 when it runs past the first error (not read). */
static int set_comment(struct cbf_reader *r, const struct cbf_doc *doc, struct xqi_record *g,
		       uint32_t node, const struct cbf_elem *e)
{
	size_t len;
	int late;
	const char *text = elem_text(r, doc, g, e, &len, &late);

	if (late)
		return 1;
	return len ? xqi_record_set_comment(g, node, text, len) : 0;
}

/*
 * Move entry `e` (move `m`, its value as written `value`) into `t`.  A
 * move refused is said once its subtree is over, with what it cost
 * (lib/flattree.h).  0; 1 when its comment runs into the damage (the move
 * stays, reading stops); or a negative code.
 */
static int take_move(struct cbf_reader *r, const struct cbf_doc *doc, struct xqi_record *g,
		     struct xqi_flat_tree *t, const struct cbf_elem *e, xqi_move m, const char *value)
{
	struct xqi_place pl = elem_place(e);
	uint32_t node = XQ_NO_NODE, ply = t->parent != XQ_NO_NODE ? t->ply + 1 : 0;
	size_t vlen = value ? strlen(value) : 0;
	struct xq_diagnostic d;
	int added, rc = 0;

	xqi_diagnostic_init(&d);
	added = xqi_flat_tree_add(t, m, e->branch, e->end, &node, &d);
	if (added == XQ_EILLEGAL || added == XQ_EPARSE) {
		struct xqi_sink hold = xqi_flat_tree_holder(t);
		if (added == XQ_EPARSE)
			xqi_format_report(&hold, r->name, g->number, &pl, 0, ply, value, vlen,
					 XQI_D_BAD_MOVE_TEXT, XQ_SEVERITY_ERROR,
					 "<Move value=\"%s\"> is not a move (\"x1y1-x2y2\")",
					 value ? value : "");
		else
			xqi_format_report(&hold, r->name, g->number, &pl, 0, ply, value, vlen,
					 XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_ERROR, "illegal move %s: %s",
					 value ? value : "", d.msg);
	} else if (added == 1) {
		g->nodes[node].place = pl;
		rc = xqi_record_set_text(g, node, value ? value : "", vlen);
		if (!rc)
			rc = set_comment(r, doc, g, node, e);
	} else if (added < 0) {
		rc = added;
	}
	if (xqi_flat_tree_cut_done(t, 0, &d))
		xqi_sink_report(r->sink, &d);
	return rc;
}

static int read_moves(struct cbf_reader *r, const struct cbf_doc *doc, struct xqi_record *g)
{
	struct xqi_flat_tree t;
	int first = 1, rc = 0, attr_noted = 0;
	uint32_t after_end = 0, entries = 0;
	size_t end = children_end(doc, doc->list);

	xqi_flat_tree_init(&t, g);
	for (size_t i = doc->list + 1; i < end; i++) {
		const struct cbf_elem *e = &doc->elems[i];
		struct xqi_place pl;
		const char *value;
		xqi_move m;

		if (beyond(r, e)) {
			g->flags |= XQI_RECORD_BROKEN;
			break;
		}
		pl = elem_place(e);
		if (e->kind != E_MOVE) {
			xqi_format_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0, XQI_D_SYNTAX,
				      XQ_SEVERITY_WARNING, "<%s> in <MoveList> is not a move; not read",
				      elem_name(doc, e));
			continue;
		}
		if (!attr_noted && e->nextra) {
			const char *an = doc->pool.ptr + e->extra;
			for (uint32_t k = 0; k < e->nextra; k++, an += strlen(an) + 1)
				xqi_format_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0,
					      XQI_D_UNSUPPORTED, XQ_SEVERITY_NOTE,
					      "attribute '%s' of <Move> is not understood; not read",
					      an);
			attr_noted = 1;
		}
		value = e->has_value ? doc->pool.ptr + e->value : NULL;
		m = parse_value(value);
		if (first) {
			first = 0;
			if (m && XQI_MOVE_FROM(m) == XQI_MOVE_TO(m)) {
				/* The root entry: its text is the game comment. */
				rc = set_comment(r, doc, g, XQI_ROOT, e);
				if (rc == 1) {
					rc = 0;
					g->flags |= XQI_RECORD_BROKEN;
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
			continue;
		}
		rc = take_move(r, doc, g, &t, e, m, value);
		if (rc == 1) {
			/* Its comment runs into the damage: the move stays, the
			 * comment is not the document's, reading stops. */
			rc = 0;
			g->flags |= XQI_RECORD_BROKEN;
			break;
		}
		if (rc)
			break;
	}
	if (!rc) {
		struct xqi_place pl = elem_place(&doc->elems[doc->list]);
		struct xq_diagnostic cut;
		if (xqi_flat_tree_cut_done(&t, 1, &cut))
			xqi_sink_report(r->sink, &cut);
		if (after_end)
			xqi_format_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0,
				      XQI_D_TRAILING, XQ_SEVERITY_WARNING,
				      "%u <Move> entries after the end of the move tree are not "
				      "read",
				      (unsigned)after_end);
		if (!t.complete && t.depth > 0 && !(g->flags & XQI_RECORD_BROKEN)) {
			xqi_format_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0,
				      XQI_D_TRUNCATED, XQ_SEVERITY_WARNING,
				      "the move list ends with %zu announced variations "
				      "(branch=\"1\") missing",
				      t.depth);
			g->flags |= XQI_RECORD_BROKEN;
		}
		if (entries == 0)
			g->flags |= XQI_RECORD_EMPTY;
	}
	xqi_flat_tree_release(&t);
	return rc;
}

static int read_doc(struct cbf_reader *r, const struct cbf_doc *doc, struct xqi_record *g)
{
	int bad_fen = 0, rc;

	if (!doc->has_root || strcmp(doc->pool.ptr + doc->root_name, "ChineseChessRecord")) {
		struct xqi_place pl = {0, doc->has_root ? doc->root_line : 0, 0};
		xqi_format_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0, XQI_D_BAD_MAGIC,
			      XQ_SEVERITY_ERROR, "not a CBF record: the root element is <%s>, not "
			      "<ChineseChessRecord>",
			      doc->has_root ? doc->pool.ptr + doc->root_name : "");
		return XQ_EPARSE;
	}
	if (doc->has_version && strcmp(doc->pool.ptr + doc->version, "1.0")) {
		struct xqi_place pl = {0, doc->root_line, 0};
		xqi_format_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0, XQI_D_UNSUPPORTED,
			      XQ_SEVERITY_WARNING, "CBF version '%s' (this reader knows 1.0); read as 1.0",
			      doc->pool.ptr + doc->version);
	}
	for (size_t i = 0; i < doc->n; i++) {
		const struct cbf_elem *e = &doc->elems[i];
		if (e->kind != E_ROOT || (doc->seen_head && i == doc->head) ||
		    (doc->seen_list && i == doc->list))
			continue;
		struct xqi_place pl = elem_place(e);
		xqi_format_report(r->sink, r->name, g->number, &pl, 0, 0, NULL, 0, XQI_D_UNSUPPORTED,
			      XQ_SEVERITY_WARNING, "element <%s> is not understood; not read",
			      elem_name(doc, e));
	}
	if (doc->seen_head && (rc = read_head(r, doc, g, &bad_fen)) != 0)
		return rc;
	if (bad_fen) {
		g->flags |= XQI_RECORD_BROKEN;
		return 0;
	}
	if (!doc->seen_list) {
		g->flags |= XQI_RECORD_EMPTY;
		return 0;
	}
	return read_moves(r, doc, g);
}

static int cbf_read(void *reader, struct xqi_record *g)
{
	struct cbf_reader *r = reader;
	struct xq_buf buf = XQ_BUF_INIT;
	struct cbf_doc doc;
	int rc, ok;

	if (r->done)
		return 0;
	r->done = 1;
	if ((rc = xqi_format_read_whole(&xqi_format_cbf, r->in, &r->opts, r->sink, &buf))) {
		xq_buf_release(&buf);
		return rc;
	}
	xqi_record_clear(g);
	g->number = 1;
	g->source = r->name;
	g->encoding = "utf-8";
	g->place.line = 1;
	ok = parse(r, &doc, buf.ptr, buf.len, 0);
	if (ok == 0 && r->errors && !r->entity_decl) {
		/* Keep what comes before the first error. */
		doc_release(&doc);
		ok = parse(r, &doc, buf.ptr, buf.len, 1);
		g->flags |= XQI_RECORD_BROKEN;
		if (r->first_error == 0)
			r->first_error = 1;
	}
	xq_buf_release(&buf);
	if (ok <= 0) {
		doc_release(&doc);
		return ok < 0 ? ok : XQ_EPARSE;
	}
	rc = read_doc(r, &doc, g);
	doc_release(&doc);
	if (rc == XQ_EPARSE && (g->flags & XQI_RECORD_BROKEN))
		return XQ_EPARSE;
	if (rc < 0)
		return rc;
	return 1;
}

/* Writing. */

struct cbf_writer {
	struct xq_file *o;
	const struct xqi_sink *sink;
	const char *name;
	uint64_t games;
	struct xq_buf out;
};

static int cbf_open_writer(void **out, struct xq_file *o, const struct xqi_write_opts *opts,
			   const struct xqi_sink *sink)
{
	struct cbf_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return XQ_ENOMEM;
	w->o = o;
	w->sink = sink;
	w->name = xqi_file_name(o);
	xq_buf_init(&w->out);
	if (opts && opts->encoding != XQI_ENC_UNKNOWN && opts->encoding != XQI_ENC_UTF8)
		xqi_format_report(sink, w->name, 0, NULL, 0, 0, NULL, 0, XQI_D_UNSUPPORTED,
			      XQ_SEVERITY_WARNING, "CBF is written in UTF-8 (as CCBridge reads it), not %s",
			      xqi_encoding_name(opts->encoding));
	*out = w;
	return 0;
}

/* Characters XML 1.0 cannot hold at all. */
static int xml_forbidden(unsigned char c)
{
	return c < 0x20 && c != '\t' && c != '\n' && c != '\r';
}

/*
 * Append `s` escaped for element content (cdata = 0: lib's one XML
 * escaper) or as CDATA sections (cdata = 1, as CCBridge writes comments);
 * carriage returns become &#13; either way, so that XML's line-end
 * normalisation does not eat them.  Returns the number of characters XML
 * cannot hold (dropped), or XQ_ENOMEM.
 */
static int add_text(struct xq_buf *b, const char *s, int cdata)
{
	int dropped = 0, in_cdata = 0, rc = 0;

	if (!cdata) {
		size_t n = 0;
		if (xqi_buf_add_xml(b, s, strlen(s), 0, &n))
			return XQ_ENOMEM;
		return n > INT_MAX ? INT_MAX : (int)n;
	}
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
	xqi_format_report(w->sink, w->name, w->games, NULL, 0, ply, NULL, 0, XQI_D_LOSS,
		      XQ_SEVERITY_WARNING, "%s: %d control characters XML cannot hold were dropped",
		      what, count);
}

/* An unknown result read from a CBR or CBF code ("4") goes back as that code. */
static int numeric_result(const struct xqi_record *g)
{
	const char *t = g->result_text;

	return g->result == XQI_RESULT_UNKNOWN && t && *t && strlen(t) < 6 &&
	       strspn(t, "0123456789") == strlen(t);
}

static int write_head(struct cbf_writer *w, const struct xqi_record *g)
{
	struct xq_buf *b = &w->out;
	const char *result_tag = numeric_result(g) ? g->result_text : xqi_result_string(g->result);
	uint64_t seen = 0;
	int rc = 0;

	for (const struct xqi_ccb_field *f = xqi_ccb_fields; f->element && !rc; f++) {
		char val[XQ_FEN_SIZE];
		const char *v = NULL;
		int dropped;
		if (!strcmp(f->element, "FEN")) {
			xqi_position_to_fen(&g->start, val, sizeof(val));
			v = val;
		} else if (!strcmp(f->element, "RecordResult")) {
			if (numeric_result(g)) {
				v = g->result_text;
			} else {
				snprintf(val, sizeof(val), "%u", xqi_ccb_result_code(g->result));
				v = val;
			}
		} else {
			v = xqi_record_tag(g, f->tag);
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
	/* Tags with no element, and repeated tags (an element holds one value):
	 * the fields met so far are bits, so a repeat is known at once
	 * (asking xqi_record_tag() for each tag's first was quadratic). */
	for (size_t i = 0; i < g->ntags && !rc; i++) {
		const char *tag = g->tags[i].name;
		const struct xqi_ccb_field *f = xqi_ccb_field_by_tag(tag);
		uint64_t bit = f ? (uint64_t)1 << (f - xqi_ccb_fields) : 0;
		int repeated = (seen & bit) != 0;
		seen |= bit;
		if (!strcmp(tag, "Result")) {
			/* The code says the result; a tag that says otherwise is not kept. */
			if (strcmp(g->tags[i].value, result_tag))
				xqi_format_report(w->sink, w->name, w->games, NULL, 0, 0, NULL, 0, XQI_D_LOSS,
					      XQ_SEVERITY_WARNING,
					      "tag Result \"%s\" is not the result CBF's code gives "
					      "(\"%s\"); not written",
					      g->tags[i].value, result_tag);
			continue;
		}
		if (!*g->tags[i].value || !strcmp(tag, "FEN"))
			continue;
		if (!f)
			xqi_format_report(w->sink, w->name, w->games, NULL, 0, 0, NULL, 0, XQI_D_LOSS,
				      XQ_SEVERITY_WARNING, "tag %s (\"%s\") has no CBF field; not written",
				      tag, g->tags[i].value);
		else if (repeated)
			xqi_format_report(w->sink, w->name, w->games, NULL, 0, 0, NULL, 0, XQI_D_LOSS,
				      XQ_SEVERITY_WARNING,
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

static int write_moves(struct cbf_writer *w, const struct xqi_record *g)
{
	struct xq_buf *b = &w->out;
	uint32_t ply = 1;
	int rc;

	rc = xq_buf_adds(b, "  <Move value=\"00-00\"");
	if (!rc)
		rc = write_comment(w, g->nodes[XQI_ROOT].comment, 0);
	for (uint32_t n = g->nodes[XQI_ROOT].child; n != XQ_NO_NODE && !rc;
	     n = xqi_record_next_ply(g, n, &ply)) {
		const struct xqi_node *x = &g->nodes[n];
		xqi_sq f = XQI_MOVE_FROM(x->move), t = XQI_MOVE_TO(x->move);
		rc = xq_buf_addf(b, "  <Move value=\"%d%d-%d%d\"%s%s", XQI_SQ_FILE(f),
				 9 - XQI_SQ_RANK(f), XQI_SQ_FILE(t), 9 - XQI_SQ_RANK(t),
				 x->child == XQ_NO_NODE ? " end=\"1\"" : "",
				 x->sibling != XQ_NO_NODE ? " branch=\"1\"" : "");
		if (!rc)
			rc = write_comment(w, x->comment, ply);
	}
	if (rc)
		return XQ_ENOMEM;
	xqi_write_losses(w->sink, w->o, w->games, g, xqi_format_cbf.caps, 0, "CBF");
	return 0;
}

static int cbf_write(void *writer, const struct xqi_record *g)
{
	struct cbf_writer *w = writer;
	struct xq_buf *b = &w->out;
	int rc;

	w->games++;
	if (w->games > 1) {
		xqi_format_report(w->sink, w->name, w->games, NULL, 0, 0, NULL, 0, XQI_D_LOSS,
			      XQ_SEVERITY_ERROR, "a CBF file holds one game; game %llu not written",
			      (unsigned long long)w->games);
		return XQ_EUNSUPPORTED;
	}
	if ((rc = xqi_write_start_check(w->sink, w->o, g, "CBF", 0)))
		return rc;
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
	return xqi_file_write(w->o, b->ptr, b->len);
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
	const unsigned char *p = head, *end = head + len;

	/* From '<' to '<': every file is probed, and most are not XML. */
	while ((size_t)(end - p) >= n && (p = memchr(p, '<', (size_t)(end - p) - n + 1))) {
		if (!memcmp(p, root, n))
			return 95;
		p++;
	}
	return 0;
}

const struct xqi_format xqi_format_cbf = {
	"cbf",
	"CCBridge (象棋桥) XML record, one game with variations and comments",
	".cbf",
	XQ_FORMAT_READS | XQ_FORMAT_WRITES | XQ_FORMAT_VARIATIONS | XQ_FORMAT_COMMENTS,
	cbf_probe,
	cbf_open_reader,
	cbf_read,
	cbf_close_reader,
	cbf_open_writer,
	cbf_write,
	cbf_close_writer,
	CBF_MAX_RECORD,
	CBF_MEM_FACTOR,
	NULL, /* no alias */
	NULL, /* no separator: one game per file */
	NULL, /* no number or line in a game's bytes */
};
