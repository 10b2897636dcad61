/*
 * report.c: diagnostics to text and JSON, counts for summaries (see
 * report.h).
 */
#include "report.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progress.h"
#include "utf8.h"

static atomic_int bug_seen;

static void note_bug(const struct xq_diag *d)
{
	if (d->code == XQ_D_INTERNAL)
		atomic_store(&bug_seen, 1);
}

int report_bug_seen(void)
{
	return atomic_load(&bug_seen);
}

int report_format_parse(const char *s, enum report_format *out, char *err, size_t errlen)
{
	if (!strcmp(s, "text"))
		*out = REPORT_TEXT;
	else if (!strcmp(s, "ndjson") || !strcmp(s, "json"))
		*out = REPORT_NDJSON;
	else {
		snprintf(err, errlen, "--format must be text or ndjson, not '%s'", s);
		return -1;
	}
	return 0;
}

int report_add_safe(struct xq_buf *b, const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		size_t n = c < 0x80 ? 1 : xq_utf8_valid_prefix(s + i, len - i);
		int rc;
		if (n == 0 || c < 0x20 || c == 0x7f) {
			rc = xq_buf_addf(b, "\\x%02X", c);
			n = 1;
		} else {
			rc = xq_buf_add(b, s + i, n);
		}
		if (rc)
			return rc;
		i += n;
	}
	return 0;
}

int report_add_json_safe(struct xq_buf *b, const char *s)
{
	struct xq_buf tmp = XQ_BUF_INIT;
	size_t len = strlen(s);
	int rc;

	/* Control characters are fine in JSON (escaped); only invalid UTF-8
	 * needs the \xNN spelling, which then travels as text. */
	if (xq_utf8_check(s, len) == len)
		return xq_buf_add_json_string(b, s, len);
	for (size_t i = 0; i < len;) {
		size_t n = xq_utf8_valid_prefix(s + i, len - i);
		if (n == 0) {
			xq_buf_addf(&tmp, "\\x%02X", (unsigned char)s[i]);
			i++;
		} else {
			xq_buf_add(&tmp, s + i, n);
			i += n;
		}
	}
	rc = xq_buf_add_json_string(b, tmp.ptr, tmp.len);
	xq_buf_release(&tmp);
	return rc;
}

static int add_place(struct xq_buf *b, const struct xq_diag *d, int binary)
{
	int rc = 0;

	if (d->source) {
		rc = report_add_safe(b, d->source, strlen(d->source));
		if (!rc && !binary && d->place.line)
			rc = d->place.col ? xq_buf_addf(b, ":%llu:%llu", (unsigned long long)d->place.line,
							(unsigned long long)d->place.col)
					  : xq_buf_addf(b, ":%llu", (unsigned long long)d->place.line);
		else if (!rc && d->has_offset)
			rc = xq_buf_addf(b, ": byte %llu", (unsigned long long)d->place.offset);
	} else {
		rc = xq_buf_adds(b, "xqkit");
	}
	return rc ? rc : xq_buf_adds(b, ": ");
}

int report_text(struct xq_buf *b, const struct xq_diag *d, int binary)
{
	int rc = add_place(b, d, binary);

	note_bug(d);

	if (!rc)
		rc = xq_buf_addf(b, "%s: ", xq_severity_name(d->severity));
	if (!rc && d->game) {
		rc = xq_buf_addf(b, "game %llu", (unsigned long long)d->game);
		if (!rc && d->ply)
			rc = xq_buf_addf(b, ", ply %u", d->ply);
		if (!rc && d->move[0]) {
			rc = xq_buf_adds(b, " (");
			if (!rc)
				rc = report_add_safe(b, d->move, strlen(d->move));
			if (!rc)
				rc = xq_buf_addc(b, ')');
		}
		if (!rc)
			rc = xq_buf_adds(b, ": ");
	}
	if (!rc)
		rc = report_add_safe(b, d->msg, strlen(d->msg));
	if (!rc && d->code != XQ_D_NONE)
		rc = xq_buf_addf(b, " [%s]", xq_diag_code_name(d->code));
	return rc ? rc : xq_buf_addc(b, '\n');
}

int report_json(struct xq_buf *b, const struct xq_diag *d, int binary)
{
	int rc = xq_buf_adds(b, "{\"schema\":\"" REPORT_DIAG_SCHEMA "\"");

	note_bug(d);

	if (!rc && d->source) {
		rc = xq_buf_adds(b, ",\"file\":");
		if (!rc)
			rc = report_add_json_safe(b, d->source);
	}
	if (!rc && d->place.line && !binary)
		rc = xq_buf_addf(b, ",\"line\":%llu,\"col\":%llu", (unsigned long long)d->place.line,
				 (unsigned long long)d->place.col);
	if (!rc && d->has_offset)
		rc = xq_buf_addf(b, ",\"offset\":%llu", (unsigned long long)d->place.offset);
	if (!rc && d->game)
		rc = xq_buf_addf(b, ",\"game\":%llu", (unsigned long long)d->game);
	if (!rc && d->ply)
		rc = xq_buf_addf(b, ",\"ply\":%u", d->ply);
	if (!rc && d->move[0]) {
		rc = xq_buf_adds(b, ",\"move\":");
		if (!rc)
			rc = report_add_json_safe(b, d->move);
	}
	if (!rc)
		rc = xq_buf_addf(b, ",\"severity\":\"%s\",\"code\":\"%s\",\"message\":",
				 xq_severity_name(d->severity), xq_diag_code_name(d->code));
	if (!rc)
		rc = report_add_json_safe(b, d->msg);
	return rc ? rc : xq_buf_adds(b, "}\n");
}

int diag_list_add(struct diag_list *l, const struct xq_diag *d)
{
	if (l->n == l->alloc) {
		size_t cap = l->alloc ? l->alloc * 2 : 8;
		struct xq_diag *p = realloc(l->v, cap * sizeof(*p));
		if (!p)
			return XQ_ENOMEM;
		l->v = p;
		l->alloc = cap;
	}
	l->v[l->n++] = *d;
	return 0;
}

void diag_list_clear(struct diag_list *l)
{
	l->n = 0;
}

void diag_list_release(struct diag_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->alloc = 0;
}

void report_count(struct report_counts *c, const struct xq_diag *d)
{
	unsigned code = (unsigned)d->code < XQ_D_CODE_COUNT ? (unsigned)d->code : XQ_D_NONE;
	unsigned sev = (unsigned)d->severity <= XQ_SEV_ERROR ? (unsigned)d->severity : XQ_SEV_ERROR;

	note_bug(d);
	c->by_sev[sev]++;
	c->by_code[code]++;
	c->by_code_sev[code][sev]++;
}

int report_codes_text(struct xq_buf *b, const struct report_counts *c, enum xq_severity sev)
{
	int n = 0, rc = 0;

	for (int i = 0; i < XQ_D_CODE_COUNT && !rc; i++)
		if (c->by_code_sev[i][sev])
			rc = xq_buf_addf(b, "%s%s %llu", n++ ? ", " : "",
					 xq_diag_code_name((enum xq_diag_code)i),
					 (unsigned long long)c->by_code_sev[i][sev]);
	return rc;
}

int report_codes_json(struct xq_buf *b, const struct report_counts *c)
{
	int n = 0, rc = xq_buf_addc(b, '{');

	for (int i = 0; i < XQ_D_CODE_COUNT && !rc; i++)
		if (c->by_code[i])
			rc = xq_buf_addf(b, "%s\"%s\":%llu", n++ ? "," : "",
					 xq_diag_code_name((enum xq_diag_code)i),
					 (unsigned long long)c->by_code[i]);
	return rc ? rc : xq_buf_addc(b, '}');
}

void report_flush_err(struct xq_buf *b)
{
	if (b->len == 0)
		return;
	progress_clear();
	fwrite(b->ptr, 1, b->len, stderr);
	fflush(stderr);
	xq_buf_reset(b);
}

void report_flush_out(struct xq_buf *b)
{
	if (b->len == 0)
		return;
	fwrite(b->ptr, 1, b->len, stdout);
	xq_buf_reset(b);
}
