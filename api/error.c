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
	return xqi_strerror(rc);
}

int xq_diagnostic_severity(const xq_diagnostic *d)
{
	return d ? (int)d->severity : XQ_EINVAL;
}

const char *xq_diagnostic_severity_name(const xq_diagnostic *d)
{
	return d ? xqi_severity_name(d->severity) : NULL;
}

const char *xq_diagnostic_code(const xq_diagnostic *d)
{
	return d ? xqi_diagnostic_code_name(d->code) : NULL;
}

const char *xq_diagnostic_code_name(int index)
{
	if (index < 0 || index >= XQI_D_CODE_COUNT)
		return NULL;
	return xqi_diagnostic_code_name((enum xqi_diagnostic_code)index);
}

int xq_diagnostic_code_index(const xq_diagnostic *d)
{
	return d ? (int)d->code : XQ_EINVAL;
}

const char *xq_diagnostic_message(const xq_diagnostic *d)
{
	return d ? d->msg : NULL;
}

const char *xq_diagnostic_source(const xq_diagnostic *d)
{
	return d ? d->source : NULL;
}

uint64_t xq_diagnostic_line(const xq_diagnostic *d)
{
	return d ? d->place.line : 0;
}

uint64_t xq_diagnostic_column(const xq_diagnostic *d)
{
	return d ? d->place.col : 0;
}

int64_t xq_diagnostic_offset(const xq_diagnostic *d)
{
	return d && d->has_offset ? (int64_t)d->place.offset : -1;
}

uint64_t xq_diagnostic_game(const xq_diagnostic *d)
{
	return d ? d->game : 0;
}

uint32_t xq_diagnostic_ply(const xq_diagnostic *d)
{
	return d ? d->ply : 0;
}

const char *xq_diagnostic_move(const xq_diagnostic *d)
{
	return d ? d->move : NULL;
}

size_t xq_diagnostic_format(const xq_diagnostic *dd, char *buf, size_t cap)
{
	const struct xq_diagnostic *d = dd ? dd : NULL;
	struct xq_buf b = XQ_BUF_INIT;
	size_t len;

	if (!d || !buf) {
		if (buf && cap)
			buf[0] = '\0';
		return 0;
	}
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
	xq_buf_addf(&b, "%s: ", xqi_severity_name(d->severity));
	if (d->game) {
		xq_buf_addf(&b, "game %llu", (unsigned long long)d->game);
		if (d->ply)
			xq_buf_addf(&b, ", ply %u", (unsigned)d->ply);
		if (d->move[0])
			xq_buf_addf(&b, " (%s)", d->move);
		xq_buf_adds(&b, ": ");
	}
	xq_buf_addf(&b, "%s [%s]", d->msg, xqi_diagnostic_code_name(d->code));
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

int xq_diagnostic_fix(const xq_diagnostic *dd, const char **field, const char **old_value,
		      const char **new_value)
{
	static const struct xqi_diagnostic_fix none;
	const struct xqi_diagnostic_fix *f = dd ? &dd->fix : &none;

	if (field)
		*field = f->field;
	if (old_value)
		*old_value = f->field ? f->old_value : NULL;
	if (new_value)
		*new_value = f->field ? f->new_value : NULL;
	return f->field != NULL;
}

/* ---- a list of diagnostics ------------------------------------------------ */

/* struct xq_diagnostics: lib/diagnostic.h. */

xq_diagnostics *xq_diagnostics_new(void)
{
	return calloc(1, sizeof(xq_diagnostics));
}

/* Blocks of the list's strings: never moved, so the copies stay put. */
struct xqi_diagnostic_strings {
	struct xqi_diagnostic_strings *next;
	size_t size, used;
	char data[];
};

#define STRINGS_FIRST 256
#define STRINGS_MAX 65536

/* A copy of `s` in the list's memory (NULL stays NULL); 0 or -1. */
static int keep_string(xq_diagnostics *l, const char *s, const char **out)
{
	struct xqi_diagnostic_strings *b = l->strings;
	size_t len;

	*out = NULL;
	if (!s)
		return 0;
	len = strlen(s) + 1;
	if (!b || b->size - b->used < len) {
		size_t size = b ? b->size * 2 : STRINGS_FIRST;
		if (size > STRINGS_MAX)
			size = STRINGS_MAX;
		if (size < len)
			size = len;
		if (!(b = malloc(sizeof(*b) + size)))
			return -1;
		b->size = size;
		b->used = 0;
		b->next = l->strings;
		l->strings = b;
		l->strings_size += size;
	}
	memcpy(b->data + b->used, s, len);
	*out = b->data + b->used;
	b->used += len;
	return 0;
}

/* Free the string blocks; with `keep`, all but the newest, emptied. */
static void drop_strings(xq_diagnostics *l, int keep)
{
	struct xqi_diagnostic_strings *b = l->strings, *next;

	if (keep && b) {
		next = b->next;
		b->next = NULL;
		b->used = 0;
		l->strings_size = b->size;
		b = next;
	} else {
		l->strings = NULL;
		l->strings_size = 0;
	}
	for (; b; b = next) {
		next = b->next;
		free(b);
	}
	l->last_copy = NULL;
}

int xq_diagnostics_add(xq_diagnostics *l, const xq_diagnostic *dd)
{
	struct xq_diagnostic d;

	if (!l || !dd)
		return XQ_EINVAL;
	d = *dd;
	if (XQ_ALLOC_GROW(l->v, l->n + 1, l->alloc))
		return XQ_ENOMEM;
	/* The inputs of a run are few, their diagnostics many: a source is
	 * copied once while it stays the same. */
	if (d.source && (!l->last_copy || strcmp(d.source, l->last_copy))) {
		const char *copy;
		if (keep_string(l, d.source, &copy))
			return XQ_ENOMEM;
		l->last_copy = copy;
	}
	if (d.source)
		d.source = l->last_copy;
	if (d.fix.field && (keep_string(l, d.fix.field, &d.fix.field) ||
			    keep_string(l, d.fix.old_value, &d.fix.old_value) ||
			    keep_string(l, d.fix.new_value, &d.fix.new_value)))
		return XQ_ENOMEM;
	l->v[l->n++] = d;
	return 0;
}

void xq_diagnostics_collect(const xq_diagnostic *d, void *user)
{
	xq_diagnostics *l = user;

	if (l && d && xq_diagnostics_add(l, d))
		l->lost++;
}

size_t xq_diagnostics_count(const xq_diagnostics *l)
{
	return l ? l->n : 0;
}

const xq_diagnostic *xq_diagnostics_at(const xq_diagnostics *l, size_t i)
{
	return l && i < l->n ? &l->v[i] : NULL;
}

void xq_diagnostics_truncate(xq_diagnostics *l, size_t n)
{
	if (!l || n >= l->n)
		return;
	l->n = n;
	if (n == 0)
		drop_strings(l, 1); /* nothing refers to the copies any more */
}

void xq_diagnostics_keep(xq_diagnostics *l, int severity)
{
	size_t k = 0;

	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		if ((int)l->v[i].severity >= severity)
			l->v[k++] = l->v[i];
	xq_diagnostics_truncate(l, k);
}

void xq_diagnostics_set_severity(xq_diagnostics *l, size_t i, int severity)
{
	if (l && i < l->n && severity >= XQ_SEVERITY_NOTE && severity <= XQ_SEVERITY_ERROR)
		l->v[i].severity = (enum xq_severity_level)severity;
}

void xq_diagnostics_move(xq_diagnostics *l, size_t i, size_t to)
{
	struct xq_diagnostic d;

	if (!l || i >= l->n || to >= l->n || i == to)
		return;
	d = l->v[i];
	if (to < i)
		memmove(&l->v[to + 1], &l->v[to], (i - to) * sizeof(d));
	else
		memmove(&l->v[i], &l->v[i + 1], (to - i) * sizeof(d));
	l->v[to] = d;
}

uint64_t xq_diagnostics_lost(const xq_diagnostics *l)
{
	return l ? l->lost : 0;
}

void xq_diagnostics_free(xq_diagnostics *l)
{
	if (!l)
		return;
	free(l->v);
	drop_strings(l, 0);
	free(l);
}
