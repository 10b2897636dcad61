/*
 * buf.c: the growable buffer (see buf.h).
 */
#include "buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "diagnostic.h"
#include "utf8.h"

void xq_buf_init(struct xq_buf *b)
{
	if (!b)
		return;
	b->ptr = (char *)""; /* never written while alloc is 0 (buf.h) */
	b->len = 0;
	b->alloc = 0;
	b->err = 0;
}

void xq_buf_release(struct xq_buf *b)
{
	if (!b)
		return;
	if (b->alloc)
		free(b->ptr);
	xq_buf_init(b);
}

int xq_buf_grow(struct xq_buf *b, size_t extra)
{
	size_t need, n;
	char *p;

	if (!b)
		return XQ_EINVAL;
	if (b->err)
		return b->err;
	if (extra > (size_t)-1 / 2 - b->len)
		return b->err = XQ_ENOMEM;
	need = b->len + extra + 1;
	if (need <= b->alloc)
		return 0;
	n = b->alloc ? b->alloc : 64;
	while (n < need)
		n = n / 2 * 3 + 16;
	p = b->alloc ? xqi_alloc_move(b->ptr, b->alloc, b->len + 1, n) : malloc(n);
	if (!p)
		return b->err = XQ_ENOMEM;
	if (!b->alloc)
		p[0] = '\0';
	b->ptr = p;
	b->alloc = n;
	return 0;
}

void xq_buf_reset(struct xq_buf *b)
{
	if (!b)
		return;
	xq_buf_truncate(b, 0);
	b->err = 0;
}

void xq_buf_truncate(struct xq_buf *b, size_t len)
{
	if (!b || len > b->len)
		return;
	b->len = len;
	if (b->alloc)
		b->ptr[len] = '\0';
}

int xq_buf_add(struct xq_buf *b, const void *data, size_t len)
{
	if (!b || (!data && len))
		return XQ_EINVAL;
	if (xq_buf_grow(b, len))
		return XQ_ENOMEM;
	if (len)
		memcpy(b->ptr + b->len, data, len);
	b->len += len;
	b->ptr[b->len] = '\0';
	return 0;
}

int xq_buf_adds(struct xq_buf *b, const char *s)
{
	return s ? xq_buf_add(b, s, strlen(s)) : XQ_EINVAL;
}

int xq_buf_addc(struct xq_buf *b, char c)
{
	if (b && b->len + 1 < b->alloc && !b->err) {
		b->ptr[b->len++] = c;
		b->ptr[b->len] = '\0';
		return 0;
	}
	return xq_buf_add(b, &c, 1);
}

int xq_buf_vaddf(struct xq_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	if (!b || !fmt)
		return XQ_EINVAL;
	if (b->err)
		return b->err;
	va_copy(cp, ap);
	n = vsnprintf(b->alloc ? b->ptr + b->len : NULL, b->alloc ? b->alloc - b->len : 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return b->err = XQ_EINTERNAL;
	if (b->alloc && (size_t)n < b->alloc - b->len) {
		b->len += (size_t)n;
		return 0;
	}
	if (xq_buf_grow(b, (size_t)n))
		return XQ_ENOMEM;
	vsnprintf(b->ptr + b->len, b->alloc - b->len, fmt, ap);
	b->len += (size_t)n;
	return 0;
}

int xq_buf_addf(struct xq_buf *b, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = xq_buf_vaddf(b, fmt, ap);
	va_end(ap);
	return rc;
}

int xq_buf_add_json_string(struct xq_buf *b, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0;

	if (!b || (!s && len))
		return XQ_EINVAL;
	if (xq_buf_grow(b, len + 2))
		return XQ_ENOMEM;
	xq_buf_addc(b, '"'); /* cannot fail: room was made */
	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		int rc = 0;
		if (c >= 0x80) {
			size_t n = xq_utf8_valid_prefix(s + i, len - i);
			if (n == 0) {
				rc = xq_buf_adds(b, "\xEF\xBF\xBD"); /* U+FFFD */
				i++;
			} else {
				rc = xq_buf_add(b, s + i, n);
				i += n;
			}
			if (rc)
				return rc;
			continue;
		}
		switch (c) {
		case '"': rc = xq_buf_adds(b, "\\\""); break;
		case '\\': rc = xq_buf_adds(b, "\\\\"); break;
		case '\n': rc = xq_buf_adds(b, "\\n"); break;
		case '\r': rc = xq_buf_adds(b, "\\r"); break;
		case '\t': rc = xq_buf_adds(b, "\\t"); break;
		case '\b': rc = xq_buf_adds(b, "\\b"); break;
		case '\f': rc = xq_buf_adds(b, "\\f"); break;
		default:
			if (c < 0x20 || c == 0x7f) {
				char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
				rc = xq_buf_add(b, e, 6);
			} else {
				rc = xq_buf_addc(b, (char)c);
			}
		}
		if (rc)
			return rc;
		i++;
	}
	return xq_buf_addc(b, '"');
}

char *xq_buf_detach(struct xq_buf *b, size_t *len)
{
	char *p;

	if (len)
		*len = b ? b->len : 0;
	if (!b)
		return NULL;
	if (!b->alloc) {
		p = malloc(1);
		if (p)
			p[0] = '\0';
	} else {
		p = b->ptr;
	}
	xq_buf_init(b);
	return p;
}

int xqi_buf_add_xml(struct xq_buf *b, const char *s, size_t len, unsigned flags, size_t *dropped)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '&': xq_buf_adds(b, "&amp;"); break;
		case '<': xq_buf_adds(b, "&lt;"); break;
		case '>': xq_buf_adds(b, "&gt;"); break;
		case '\r': xq_buf_adds(b, "&#13;"); break;
		case '"':
			if (flags & XQI_XML_ATTR)
				xq_buf_adds(b, "&quot;");
			else
				xq_buf_addc(b, '"');
			break;
		default:
			if (c < 0x20 && c != '\t' && c != '\n') {
				if (dropped)
					(*dropped)++;
			} else {
				xq_buf_addc(b, (char)c);
			}
		}
	}
	return xq_buf_error(b); /* the appends' sticky error, checked once */
}
