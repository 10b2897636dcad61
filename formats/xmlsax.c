/*
 * xmlsax.c: one XML document in memory through libxml2's SAX2 parser,
 * hardened (see xmlsax.h).
 */
#include "xmlsax.h"

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
#include "buf.h"
#include "format.h"

struct sax {
	struct xqi_xml *x;
	const struct xqi_xml_handlers *h;
	void *user;
	struct xq_buf vals;       /* the attributes of the element starting: name\0value\0... */
	const char **av;          /* pointers into vals */
	size_t av_cap;
	char generic[200];        /* what libxml2 said on its generic channel */
	size_t generic_len;
};

static void say(struct xqi_xml *x, long line, long col, enum xqi_diagnostic_code code, const char *fmt,
		...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;

static void say(struct xqi_xml *x, long line, long col, enum xqi_diagnostic_code code, const char *fmt,
		...)
{
	struct xqi_place pl = {0, line > 0 ? (uint64_t)(line + x->line_base) : 0,
			      col > 0 ? (uint32_t)col : 0};
	va_list ap;

	x->errors++;
	if (line > 0 && (x->first_error == 0 || line + x->line_base < x->first_error))
		x->first_error = line + x->line_base;
	if (x->quiet || x->errors > XQI_XML_MAX_ERRORS)
		return;
	va_start(ap, fmt);
	xqi_format_vreport(x->sink, x->source, x->game, &pl, 0, 0, NULL, 0, code, XQ_SEVERITY_ERROR, fmt,
			  ap);
	va_end(ap);
}

/* Structured error handler of the parser context. */
static void on_error(void *ctx, xmlErrorPtr e)
{
	xmlParserCtxtPtr ctxt = ctx;
	struct sax *s = ctxt ? ctxt->_private : NULL;
	const char *msg;
	size_t len;

	if (!s || !e || e->level < XML_ERR_ERROR)
		return;
	msg = e->message ? e->message : "malformed XML";
	len = strlen(msg);
	while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
		len--;
	say(s->x, e->line, e->int2, XQI_D_XML, "%.*s", (int)len, msg);
}

/* libxml2's generic channel, set for this thread while the document is
 * parsed: kept, to be reported. */
static void on_generic(void *ctx, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static void on_generic(void *ctx, const char *fmt, ...)
{
	struct sax *s = ctx;
	size_t room = sizeof(s->generic) - s->generic_len;
	va_list ap;
	int n;

	if (room <= 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(s->generic + s->generic_len, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		s->generic_len += (size_t)n < room ? (size_t)n : room - 1;
}

static void on_entity_decl(void *ctx, const xmlChar *name, int type, const xmlChar *public_id,
			   const xmlChar *system_id, xmlChar *content)
{
	xmlParserCtxtPtr ctxt = ctx;
	struct sax *s = ctxt->_private;

	(void)type;
	(void)public_id;
	(void)system_id;
	(void)content;
	if (!s->x->entity_decl)
		say(s->x, xmlSAX2GetLineNumber(ctx), xmlSAX2GetColumnNumber(ctx), XQI_D_XML,
		    "entity declaration '%s': %s documents declare no entities; not read",
		    (const char *)name, s->x->format);
	s->x->entity_decl = 1;
	xmlStopParser(ctxt);
}

static void on_start_document(void *ctx)
{
	xmlParserCtxtPtr ctxt = ctx;
	struct sax *s = ctxt->_private;

	s->x->started = 1;
}

/* A value as the document means it: libxml2 leaves "&#38;" for '&' in the
 * attribute values it hands a SAX parser that does not substitute. */
static void add_value(struct xq_buf *b, const char *p, const char *e)
{
	while (p < e) {
		const char *amp = memchr(p, '&', (size_t)(e - p));
		if (!amp) {
			xq_buf_add(b, p, (size_t)(e - p));
			break;
		}
		xq_buf_add(b, p, (size_t)(amp - p));
		xq_buf_addc(b, '&');
		p = e - amp >= 5 && !memcmp(amp, "&#38;", 5) ? amp + 5 : amp + 1;
	}
	xq_buf_addc(b, '\0');
}

static void on_start(void *ctx, const xmlChar *localname, const xmlChar *prefix,
		     const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
		     int nb_attributes, int nb_defaulted, const xmlChar **attributes)
{
	xmlParserCtxtPtr ctxt = ctx;
	struct sax *s = ctxt->_private;
	size_t at = 0;

	(void)prefix;
	(void)uri;
	(void)nb_namespaces;
	(void)namespaces;
	(void)nb_defaulted;
	if (s->x->stop || !s->h->start)
		return;
	xq_buf_reset(&s->vals);
	for (int i = 0; i < nb_attributes; i++) {
		const xmlChar **a = attributes + 5 * i;
		xq_buf_add(&s->vals, a[0], strlen((const char *)a[0]) + 1);
		add_value(&s->vals, (const char *)a[3], (const char *)a[4]);
	}
	if (xq_buf_error(&s->vals) || XQ_ALLOC_GROW(s->av, 2 * (size_t)nb_attributes + 1, s->av_cap)) {
		s->x->oom = s->x->stop = 1;
		xmlStopParser(ctxt);
		return;
	}
	for (int i = 0; i < 2 * nb_attributes; i++) {
		s->av[i] = s->vals.ptr + at;
		at += strlen(s->vals.ptr + at) + 1;
	}
	s->h->start(s->user, (const char *)localname, ctxt->nameNr + 1, s->av, nb_attributes,
		    xmlSAX2GetLineNumber(ctx) + s->x->line_base);
	if (s->x->stop)
		xmlStopParser(ctxt);
}

static void on_end(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri)
{
	xmlParserCtxtPtr ctxt = ctx;
	struct sax *s = ctxt->_private;

	(void)prefix;
	(void)uri;
	if (s->x->stop || !s->h->end)
		return;
	/* The parser pops its count of open elements after this call. */
	s->h->end(s->user, (const char *)localname, ctxt->nameNr);
	if (s->x->stop)
		xmlStopParser(ctxt);
}

static void on_text(void *ctx, const xmlChar *t, int len)
{
	xmlParserCtxtPtr ctxt = ctx;
	struct sax *s = ctxt->_private;

	if (s->x->stop || !s->h->text || len <= 0)
		return;
	s->h->text(s->user, (const char *)t, (size_t)len, ctxt->nameNr);
	if (s->x->stop)
		xmlStopParser(ctxt);
}

/* The first line of what libxml2 said on its generic channel. */
static void report_generic(struct sax *s)
{
	const char *m = s->generic, *nl;
	size_t len;

	while (*m == ' ' || *m == '\n')
		m++;
	nl = strchr(m, '\n');
	len = nl ? (size_t)(nl - m) : strlen(m);
	while (len > 0 && m[len - 1] == ' ')
		len--;
	if (len)
		say(s->x, 0, 0, XQI_D_ENCODING,
		    "the text is not in the encoding its XML declaration names (libxml2: %.*s)",
		    (int)len, m);
}

int xqi_xml_parse(struct xqi_xml *x, const char *buf, size_t len, int recover,
		 const struct xqi_xml_handlers *h, void *user)
{
	struct sax s;
	xmlSAXHandler sax;
	xmlParserCtxtPtr ctxt;
	xmlGenericErrorFunc old_generic;
	void *old_generic_ctx;

	memset(&s, 0, sizeof(s));
	s.x = x;
	s.h = h;
	s.user = user;
	xq_buf_init(&s.vals);
	x->started = x->well_formed = x->stop = x->oom = 0;
	if (len > (size_t)INT32_MAX)
		return 0;
	xmlInitParser();
	if (!(ctxt = xmlCreateMemoryParserCtxt(buf, (int)len)))
		return XQ_ENOMEM;
	xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_BIG_LINES |
					(recover ? XML_PARSE_RECOVER : 0) |
					(x->huge ? XML_PARSE_HUGE : 0));
	/* These handlers only: no tree, no DTD, no entity loaded. */
	memset(&sax, 0, sizeof(sax));
	sax.initialized = XML_SAX2_MAGIC;
	sax.startDocument = on_start_document;
	sax.startElementNs = on_start;
	sax.endElementNs = on_end;
	sax.characters = on_text;
	sax.ignorableWhitespace = on_text;
	sax.cdataBlock = on_text;
	sax.entityDecl = on_entity_decl;
	sax.serror = on_error;
	*ctxt->sax = sax;
	ctxt->_private = &s;
	old_generic = xmlGenericError;
	old_generic_ctx = xmlGenericErrorContext;
	xmlSetGenericErrorFunc(&s, on_generic);
	xmlParseDocument(ctxt);
	xmlSetGenericErrorFunc(old_generic_ctx, old_generic);
	if (s.generic_len)
		report_generic(&s);
	x->well_formed = ctxt->wellFormed && !x->entity_decl;
	if (!x->well_formed && x->errors == 0 && !x->oom && !x->stop)
		say(x, 0, 0, XQI_D_XML, "malformed XML");
	/* libxml2 makes a document of its own for some declarations, even
	 * without a tree: not ours to keep. */
	xmlFreeDoc(ctxt->myDoc);
	ctxt->myDoc = NULL;
	xmlFreeParserCtxt(ctxt);
	xq_buf_release(&s.vals);
	free(s.av);
	return x->oom ? XQ_ENOMEM : 0;
}
