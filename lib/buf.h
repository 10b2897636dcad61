/*
 * buf.h: a growable byte buffer.
 *
 * Invariants (as git's strbuf): after xq_buf_init() `ptr` is never NULL;
 * the content is always NUL-terminated (the NUL is not counted in `len`)
 * and may itself contain NULs; `alloc` is the allocated size.  Functions
 * that grow the buffer return 0 or XQ_ENOMEM and leave the old content
 * intact on failure.  xq_buf_detach() is the only way to take the memory.
 *
 * Errors are sticky (as SQLite's sqlite3_str): after a failed growth every
 * later append fails too and adds nothing, so a caller may append many
 * pieces and check once, with xq_buf_error(), before using the content;
 * the content is then always a whole prefix of what was appended.
 * xq_buf_reset() and xq_buf_release() clear the error.
 */
#ifndef XQ_LIB_BUF_H
#define XQ_LIB_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct xq_buf {
	char *ptr;
	size_t len;
	size_t alloc; /* 0 while ptr points at the shared empty string */
	int err;      /* 0, or the sticky error of a failed append (XQ_ENOMEM) */
};

#define XQ_BUF_INIT {xq_buf_empty, 0, 0, 0}
extern char xq_buf_empty[1];

void xq_buf_init(struct xq_buf *b);
/* Free the memory and return to the initial, empty state. */
void xq_buf_release(struct xq_buf *b);
/* Make room for `extra` more bytes (plus the NUL). */
int xq_buf_grow(struct xq_buf *b, size_t extra);
/* 0, or XQ_ENOMEM when an append failed since the last reset. */
static inline int xq_buf_error(const struct xq_buf *b)
{
	return b->err;
}
/* Empty the content (and the error) but keep the memory. */
void xq_buf_reset(struct xq_buf *b);
/* Cut to `len` bytes (len <= b->len). */
void xq_buf_truncate(struct xq_buf *b, size_t len);

int xq_buf_add(struct xq_buf *b, const void *data, size_t len);
int xq_buf_adds(struct xq_buf *b, const char *s);
int xq_buf_addc(struct xq_buf *b, char c);
int xq_buf_addf(struct xq_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
int xq_buf_vaddf(struct xq_buf *b, const char *fmt, va_list ap)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 0)))
#endif
	;

/*
 * Append `s` (`len` bytes of UTF-8) as a JSON string with quotes.  Control
 * characters are escaped; bytes that are not valid UTF-8 are written as
 * U+FFFD so the output is always valid UTF-8 (callers that must not lose
 * bytes check the input first).
 */
int xq_buf_add_json_string(struct xq_buf *b, const char *s, size_t len);

/*
 * Append `s` (`len` bytes of UTF-8) as XML 1.0 character data, the one
 * escaper of the tree for XML (CBF records, SVG diagrams): '&', '<' and
 * '>' always escaped, '"' too with XQ_XML_ATTR (for an attribute value in
 * double quotes), and a carriage return as "&#13;", which XML's line-end
 * normalisation would otherwise turn into a line feed.  The control
 * characters XML 1.0 cannot hold, escaped or not, are left out and
 * counted in *dropped (when not NULL), for the caller to report as lost.
 * Returns 0 or XQ_ENOMEM.  (HTML text has its own rules: formats/html.h.)
 */
enum { XQ_XML_ATTR = 1 };
int xq_buf_add_xml(struct xq_buf *b, const char *s, size_t len, unsigned flags, size_t *dropped);

/* Take the memory (caller frees it with free()); `b` is re-initialised. */
char *xq_buf_detach(struct xq_buf *b, size_t *len);

#endif
