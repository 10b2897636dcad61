/*
 * error.c: the version, return codes and diagnostics of the public API
 * (<xq/version.h>, <xq/error.h>).
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

const char *xq_version(void)
{
	return XQ_VERSION_STRING;
}

int xq_version_number(void)
{
	return XQ_VERSION_NUMBER;
}

const char *xq_error_string(int rc)
{
	return xq_strerror(rc);
}

static const struct xq_diag *d_of(const xq_diagnostic *d)
{
	return (const struct xq_diag *)(const void *)d;
}

int xq_diagnostic_severity(const xq_diagnostic *d)
{
	return (int)d_of(d)->severity;
}

const char *xq_diagnostic_severity_name(const xq_diagnostic *d)
{
	return xq_severity_name(d_of(d)->severity);
}

const char *xq_diagnostic_code(const xq_diagnostic *d)
{
	return xq_diag_code_name(d_of(d)->code);
}

const char *xq_diagnostic_code_name(int index)
{
	if (index < 0 || index >= XQ_D_CODE_COUNT)
		return NULL;
	return xq_diag_code_name((enum xq_diag_code)index);
}

int xq_diagnostic_code_index(const xq_diagnostic *d)
{
	return (int)d_of(d)->code;
}

const char *xq_diagnostic_message(const xq_diagnostic *d)
{
	return d_of(d)->msg;
}

const char *xq_diagnostic_source(const xq_diagnostic *d)
{
	return d_of(d)->source;
}

uint64_t xq_diagnostic_line(const xq_diagnostic *d)
{
	return d_of(d)->place.line;
}

uint64_t xq_diagnostic_column(const xq_diagnostic *d)
{
	return d_of(d)->place.col;
}

int64_t xq_diagnostic_offset(const xq_diagnostic *d)
{
	return d_of(d)->has_offset ? (int64_t)d_of(d)->place.offset : -1;
}

uint64_t xq_diagnostic_game(const xq_diagnostic *d)
{
	return d_of(d)->game;
}

uint32_t xq_diagnostic_ply(const xq_diagnostic *d)
{
	return d_of(d)->ply;
}

const char *xq_diagnostic_move(const xq_diagnostic *d)
{
	return d_of(d)->move;
}

size_t xq_diagnostic_format(const xq_diagnostic *dd, char *buf, size_t cap)
{
	const struct xq_diag *d = d_of(dd);
	struct xq_buf b = XQ_BUF_INIT;
	size_t len;

	if (d->source) {
		xq_buf_adds(&b, d->source);
		if (d->place.line && d->place.col)
			xq_buf_addf(&b, ":%llu:%llu", (unsigned long long)d->place.line,
				    (unsigned long long)d->place.col);
		else if (d->place.line)
			xq_buf_addf(&b, ":%llu", (unsigned long long)d->place.line);
		else if (d->has_offset)
			xq_buf_addf(&b, ": byte %llu", (unsigned long long)d->place.offset);
		xq_buf_adds(&b, ": ");
	}
	xq_buf_addf(&b, "%s: ", xq_severity_name(d->severity));
	if (d->game) {
		xq_buf_addf(&b, "game %llu", (unsigned long long)d->game);
		if (d->ply)
			xq_buf_addf(&b, ", ply %u", (unsigned)d->ply);
		if (d->move[0])
			xq_buf_addf(&b, " (%s)", d->move);
		xq_buf_adds(&b, ": ");
	}
	xq_buf_addf(&b, "%s [%s]", d->msg, xq_diag_code_name(d->code));
	if (b.err) {
		/* out of memory: the message alone */
		xq_buf_release(&b);
		return (size_t)snprintf(buf, cap, "%s", d->msg);
	}
	len = b.len;
	if (cap > 0) {
		size_t n = len < cap - 1 ? len : cap - 1;
		/* Cut on a character boundary. */
		while (n > 0 && n < len && ((unsigned char)b.ptr[n] & 0xC0) == 0x80)
			n--;
		memcpy(buf, b.ptr, n);
		buf[n] = '\0';
	}
	xq_buf_release(&b);
	return len;
}

void xq_free(void *p)
{
	free(p);
}
