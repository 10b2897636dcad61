/*
 * xmlsax.h: one XML document in memory parsed by libxml2's SAX2 parser,
 * hardened the way a record reader needs it, for formats/pfc.c: no tree
 * is built, no network is reached (XML_PARSE_NONET), no DTD is loaded and
 * no entity is expanded (the DTD handlers are not set; an entity
 * declaration stops the parse: record formats declare none, and expansion
 * attacks are made of them).  libxml2's own limits on depth are lifted
 * (XML_PARSE_HUGE) only when the caller asks: a format whose tree is its
 * nesting (PFC) goes one element deeper per move, and the caller bounds
 * the document by its record limit instead.
 *
 * Errors go to the caller's sink as XQI_D_XML diagnostics with libxml2's
 * line and column (through a handler set on the parser context, not the
 * global one, so reading stays thread-safe); what libxml2 says on its
 * generic channel while parsing (its encoding converters do) is kept and
 * reported, never printed.  At most XQI_XML_MAX_ERRORS errors are said.
 *
 * Internal to formats/: not part of the library's interface.
 */
#ifndef XQI_FORMATS_XMLSAX_H
#define XQI_FORMATS_XMLSAX_H

#include <stddef.h>
#include <stdint.h>

#include "diagnostic.h"

#define XQI_XML_MAX_ERRORS 20

/*
 * What the caller does with the document, as it goes.  `attrs` holds
 * `nattrs` pairs (name, value), each NUL-terminated; a value is as the
 * document means it (character references resolved, "&amp;" as '&').
 * `depth` is the element's depth (the root's is 1), `line` the line where
 * its start tag ends.  A callback sets `stop` in struct xqi_xml to end the
 * parse (out of memory, a limit).
 */
struct xqi_xml_handlers {
	void (*start)(void *user, const char *name, int depth, const char *const *attrs,
		      int nattrs, long line);
	void (*end)(void *user, const char *name, int depth);
	void (*text)(void *user, const char *s, size_t len, int depth);
};

struct xqi_xml {
	/* Given: */
	const struct xqi_sink *sink;
	const char *source;  /* the input's name, for diagnostics */
	const char *format;  /* "PFC", in messages */
	uint64_t game;       /* the game the diagnostics are about */
	long line_base;      /* added to every line (a document inside a wrapper) */
	int huge;            /* lift libxml2's depth limit (XML_PARSE_HUGE) */
	int quiet;           /* say nothing (a second pass over a document already reported) */
	/* Found: */
	int started;         /* there is a document */
	int well_formed;
	int errors;          /* errors seen (said or not) */
	long first_error;    /* the line of the first error, 0 if none */
	int entity_decl;     /* an entity declaration stopped the parse */
	int stop;            /* set by a handler: the parse ends there */
	int oom;
};

/*
 * Parse `len` bytes with `h`, `user` handed to each callback; `recover`
 * reads on past errors (libxml2's recovery mode) to keep what comes
 * before the first one.  Returns 0, or XQ_ENOMEM (nothing said then).
 */
int xqi_xml_parse(struct xqi_xml *x, const char *buf, size_t len, int recover,
		 const struct xqi_xml_handlers *h, void *user);

#endif
