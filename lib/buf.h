/*
 * buf.h: the growable byte buffer.  It is public (<xq/buf.h>: the
 * structure, its invariants, sticky errors and every function but the
 * XML escaper below), so that the command and the library's users build
 * text the way the library does.
 */
#ifndef XQI_LIB_BUF_H
#define XQI_LIB_BUF_H

#include <stddef.h>

#include <xq/buf.h>

/*
 * Append `s` (`len` bytes of UTF-8) as XML 1.0 character data, the one
 * escaper of the tree for XML (CBF records, SVG diagrams): '&', '<' and
 * '>' always escaped, '"' too with XQI_XML_ATTR (for an attribute value in
 * double quotes), and a carriage return as "&#13;", which XML's line-end
 * normalisation would otherwise turn into a line feed.  The control
 * characters XML 1.0 cannot hold, escaped or not, are left out and
 * counted in *dropped (when not NULL), for the caller to report as lost.
 * Returns 0 or XQ_ENOMEM.  (HTML text has its own rules: formats/html.h.)
 */
enum { XQI_XML_ATTR = 1 };
int xqi_buf_add_xml(struct xq_buf *b, const char *s, size_t len, unsigned flags, size_t *dropped);

#endif
