/*
 * <xq/buf.h>: a growable string (bytes, always NUL-terminated), the one
 * the library writes into and the xqkit command builds its output with:
 * appends of bytes, of printf-style formats and of JSON strings.
 *
 * Unlike the library's objects, an xq_buf is a structure the caller owns
 * and sees (as libgit2's git_buf): it lives on the stack or inside the
 * caller's own structures, and `ptr` and `len` may be read directly at
 * any time.  `alloc` and `err` are the library's: change them, or `ptr`
 * and `len`, only through the functions below.  Its layout is part of
 * the ABI of version 0.
 *
 *	xq_buf b = XQ_BUF_INIT;
 *	xq_buf_adds(&b, "{\"name\":");
 *	xq_buf_add_json_string(&b, name, strlen(name));
 *	xq_buf_addf(&b, ",\"games\":%d}\n", n);
 *	if (xq_buf_error(&b)) ... out of memory: b holds a prefix of the text
 *	fwrite(b.ptr, 1, b.len, stdout);
 *	xq_buf_release(&b);
 *
 * Invariants: `ptr` is never NULL (an empty buffer points at a static
 * ""); the content is NUL-terminated (the NUL is not counted in `len`)
 * and may itself hold NULs.
 *
 * Errors are sticky (as SQLite's sqlite3_str): every append returns 0 or
 * XQ_ENOMEM, and after one fails every later one fails too and adds
 * nothing, so a caller may append many pieces and check once, with
 * xq_buf_error(), before using the content; the content is then always a
 * whole prefix of what was appended.  xq_buf_reset() and
 * xq_buf_release() clear the error.
 *
 * Ownership: the memory is the buffer's until xq_buf_release() frees it
 * or xq_buf_detach() hands it to the caller (to free with free() or
 * xq_free()).  Thread safety: no global state; a buffer may be used by
 * one thread at a time, different buffers on different threads at once.
 */
#ifndef XQ_PUBLIC_BUF_H
#define XQ_PUBLIC_BUF_H

#include <stdarg.h>
#include <stddef.h>

#include "version.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct xq_buf {
	char *ptr;    /* the content, NUL-terminated; never NULL */
	size_t len;   /* its length in bytes, without the NUL */
	size_t alloc; /* the library's: 0 while ptr points at the static "" */
	int err;      /* the library's: 0, or the sticky error (XQ_ENOMEM) */
} xq_buf;

/* An empty buffer, for a declaration: xq_buf b = XQ_BUF_INIT.  The
 * static "" is never written (alloc 0: every write first allocates). */
#define XQ_BUF_INIT {(char *)"", 0, 0, 0}

/* Make `b` an empty buffer (as XQ_BUF_INIT), whatever it held: memory it
 * owned is not freed.  NULL `b`: nothing done. */
XQ_API void xq_buf_init(struct xq_buf *b);
/* Free the memory and return to the initial, empty state (no error).
 * NULL `b`: nothing done. */
XQ_API void xq_buf_release(struct xq_buf *b);
/* Make room for `extra` more bytes (plus the NUL), so that appending
 * that many cannot fail.  0, or XQ_ENOMEM (also when the size would
 * overflow, and when an earlier append failed).  NULL `b`: XQ_EINVAL. */
XQ_API int xq_buf_grow(struct xq_buf *b, size_t extra);
/* 0, or XQ_ENOMEM when an append failed since the last reset. */
static inline int xq_buf_error(const struct xq_buf *b)
{
	return b->err;
}
/* Empty the content and clear the error, keeping the memory.  NULL `b`:
 * nothing done. */
XQ_API void xq_buf_reset(struct xq_buf *b);
/* Cut the content to its first `len` bytes (nothing when len > b->len).
 * NULL `b`: nothing done. */
XQ_API void xq_buf_truncate(struct xq_buf *b, size_t len);

/* Append `len` bytes of `data` (which may hold NULs).  NULL `b`, or NULL
 * `data` with len > 0: XQ_EINVAL.  NULL `b` or `data`: XQ_EINVAL. */
XQ_API int xq_buf_add(struct xq_buf *b, const void *data, size_t len);
/* Append the string `s`.  NULL `b` or `s`: XQ_EINVAL. */
XQ_API int xq_buf_adds(struct xq_buf *b, const char *s);
/* Append the byte `c`.  NULL `b`: XQ_EINVAL. */
XQ_API int xq_buf_addc(struct xq_buf *b, char c);
/* Append as printf() would print; XQ_EINTERNAL (sticky too) when the
 * format cannot be printed.  NULL `b` or `fmt`: XQ_EINVAL. */
XQ_API int xq_buf_addf(struct xq_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
/* The same with a va_list.  NULL `b` or `fmt`: XQ_EINVAL. */
XQ_API int xq_buf_vaddf(struct xq_buf *b, const char *fmt, va_list ap)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 0)))
#endif
	;

/*
 * Append `s` (`len` bytes of UTF-8) as a JSON string with its quotes, as
 * every NDJSON output of xqkit writes strings: '"' and '\\' escaped,
 * \n \r \t \b \f for those controls, \u00XX (lower-case hex) for the
 * other controls and DEL, everything else as it is (no \/, no \u for
 * non-ASCII); a byte that is not part of valid UTF-8 becomes U+FFFD, so
 * the output is always valid UTF-8 (a caller that must not lose bytes
 * checks the input first with xq_utf8_check(), <xq/utf8.h>).
 * NULL `b`, or NULL `s` with len > 0: XQ_EINVAL.  NULL `b` or `s`: XQ_EINVAL.
 */
XQ_API int xq_buf_add_json_string(struct xq_buf *b, const char *s, size_t len);

/* Take the content: a string of *len bytes (when len is not NULL) plus a
 * NUL, malloc'd, for the caller to free with free() or xq_free(); NULL
 * when out of memory.  `b` is then empty, as after xq_buf_init().
 * NULL `b`: NULL. */
XQ_API char *xq_buf_detach(struct xq_buf *b, size_t *len);

#ifdef __cplusplus
}
#endif

#endif
