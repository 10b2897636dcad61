/*
 * report.c: diagnostics to text and JSON, counts for summaries (see
 * report.h).
 */
#include "report.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "inputs.h"
#include "pool.h"
#include "progress.h"
#include <xq/memory.h>
#include <xq/utf8.h>

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
	return report_text_color(b, d, binary, 0);
}

/* The severity word's colour, as GCC colours them (SGR codes). */
static const char *severity_color(enum xq_severity s)
{
	return s == XQ_SEV_ERROR ? "01;31" : s == XQ_SEV_WARNING ? "01;35" : "01;36";
}

int report_text_color(struct xq_buf *b, const struct xq_diag *d, int binary, int color)
{
	int rc = add_place(b, d, binary);

	note_bug(d);

	if (!rc && color)
		rc = xq_buf_addf(b, "\033[%sm%s\033[m: ", severity_color(d->severity),
				 xq_severity_name(d->severity));
	else if (!rc)
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

/* ,"fix":{"field":...,"old":...,"new":...} (doc/ndjson.md). */
static int add_fix(struct xq_buf *b, const struct xq_diag_fix *f)
{
	int rc = xq_buf_adds(b, ",\"fix\":{\"field\":");

	if (!rc)
		rc = report_add_json_safe(b, f->field);
	if (!rc)
		rc = xq_buf_adds(b, ",\"old\":");
	if (!rc)
		rc = f->old_value ? report_add_json_safe(b, f->old_value) : xq_buf_adds(b, "null");
	if (!rc)
		rc = xq_buf_adds(b, ",\"new\":");
	if (!rc)
		rc = report_add_json_safe(b, f->new_value ? f->new_value : "");
	return rc ? rc : xq_buf_addc(b, '}');
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
	if (!rc && d->fix.field)
		rc = add_fix(b, &d->fix);
	return rc ? rc : xq_buf_adds(b, "}\n");
}

int diag_list_add(struct diag_list *l, const struct xq_diag *d)
{
	if (XQ_ALLOC_GROW(l->v, l->n + 1, l->alloc))
		return XQ_ENOMEM;
	l->v[l->n++] = *d;
	return 0;
}

int diag_list_add_diagnostic(struct diag_list *l, const xq_diagnostic *d)
{
	/* The public API's diagnostic is the library's own (api/internal.h). */
	return diag_list_add(l, (const struct xq_diag *)(const void *)d);
}

void diag_list_keep(struct diag_list *l, int severity)
{
	size_t k = 0;

	for (size_t i = 0; i < l->n; i++)
		if ((int)l->v[i].severity >= severity)
			l->v[k++] = l->v[i];
	l->n = k;
}

void diag_list_severities(const struct diag_list *l, size_t from, uint64_t sev[3])
{
	for (size_t i = from; i < l->n; i++)
		sev[(unsigned)l->v[i].severity <= XQ_SEV_ERROR ? l->v[i].severity : XQ_SEV_ERROR]++;
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

	/* Code "none" is information ("written to ..."), never a problem. */
	for (int i = 1; i < XQ_D_CODE_COUNT && !rc; i++)
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

static atomic_int output_lost;

int report_output_lost(void)
{
	return atomic_load(&output_lost);
}

/* A buffer that could not hold everything appended (xq_buf's sticky
 * error) is dropped whole: nothing is written half. */
static int lost(struct xq_buf *b)
{
	if (!xq_buf_error(b))
		return 0;
	atomic_store(&output_lost, 1);
	xq_buf_reset(b);
	return 1;
}

void report_flush_err(struct xq_buf *b)
{
	if (b->len == 0 || lost(b))
		return;
	progress_clear();
	fwrite(b->ptr, 1, b->len, stderr);
	fflush(stderr);
	xq_buf_reset(b);
}

int report_stdout_is_pipe(void)
{
	static int known = -1; /* set on the output thread only (one at a time, pool.h) */
	struct stat st;

	if (known < 0)
		known = fstat(1, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
	return known;
}

void report_flush_out(struct xq_buf *b)
{
	if (b->len == 0 || lost(b))
		return;
	fwrite(b->ptr, 1, b->len, stdout);
	/* Whole records reach a pipe at once: two processes writing into one
	 * pipe never cut each other's lines (within PIPE_BUF bytes). */
	if (report_stdout_is_pipe())
		fflush(stdout);
	xq_buf_reset(b);
}

/* ---- the reporter ------------------------------------------------------- */

int report_use_color(const struct input_opts *o, int fd)
{
	const char *no = getenv("NO_COLOR"), *term = getenv("TERM");

	if (o->color != COLOR_AUTO)
		return o->color == COLOR_ALWAYS;
	if ((no && *no) || (term && !strcmp(term, "dumb")))
		return 0;
	return isatty(fd);
}


void reporter_init(struct reporter *r, const char *command, const struct input_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->command = command;
	r->fmt = o->fmt;
	r->quiet = o->quiet;
	r->verbose = o->verbose;
	r->color = o->fmt == REPORT_TEXT && report_use_color(o, 2);
	xq_buf_init(&r->err);
	xq_buf_init(&r->out);
}

void reporter_release(struct reporter *r)
{
	xq_buf_release(&r->err);
	xq_buf_release(&r->out);
}

enum xq_severity reporter_diag(struct reporter *r, const struct xq_diag *d, int binary)
{
	struct xq_diag strict;

	/* --strict reports a note as an error: on a copy, so that the
	 * diagnostic stays what the library or the command made. */
	if (r->strict && d->severity == XQ_SEV_NOTE) {
		strict = *d;
		strict.severity = XQ_SEV_ERROR;
		d = &strict;
	}
	report_count(&r->counts, d);
	if (r->fmt == REPORT_NDJSON)
		report_json(&r->out, d, binary);
	else if (!(r->quiet && d->severity == XQ_SEV_NOTE))
		report_text_color(&r->err, d, binary, r->color);
	return d->severity;
}

static void count_file(struct reporter *r, const struct pool_file *f)
{
	struct xq_diag d;

	if (f->foreign)
		return; /* another shard's to count (--shard) */
	switch (f->status) {
	case POOL_FILE_OK: r->files++; break;
	case POOL_FILE_DAMAGED: r->files++; r->damaged_files++; break;
	case POOL_FILE_IO: r->files++; r->io_error = 1; break;
	case POOL_FILE_FAILED: r->failed_files++; break;
	case POOL_FILE_SKIPPED:
		r->skipped_files++;
		if (!r->verbose)
			break;
		xq_diag_init(&d);
		d.source = f->name;
		xq_diag_set(&d, 0, XQ_D_NONE, XQ_SEV_NOTE, "skipped: no record format recognises it");
		/* what no one asked to check is no error, even with --strict */
		report_count(&r->counts, &d);
		if (r->fmt == REPORT_NDJSON)
			report_json(&r->out, &d, 0);
		else
			report_text_color(&r->err, &d, 0, r->color);
		break;
	}
}

void reporter_job(struct reporter *r, struct pool_job *j, uint64_t sev[3])
{
	for (size_t i = 0; i < j->diags.n; i++) {
		const struct xq_diag *d = &j->diags.v[i];
		enum xq_severity s = reporter_diag(r, d, j->file->binary);
		if (sev)
			sev[s]++;
		if (j->kind == POOL_END && d->code == XQ_D_IO && s == XQ_SEV_ERROR)
			r->io_error = 1;
	}
	if (j->kind == POOL_GAME)
		r->games++;
	else
		count_file(r, j->file);
}

void reporter_job_diags(struct reporter *r, const struct pool_job *j)
{
	for (size_t i = 0; i < j->diags.n; i++)
		reporter_diag(r, &j->diags.v[i], j->file->binary);
}

void reporter_flush(struct reporter *r)
{
	report_flush_err(&r->err);
	report_flush_out(&r->out);
}

struct xq_buf *reporter_summary_open(struct reporter *r)
{
	xq_buf_addf(&r->out, "{\"schema\":\"" REPORT_SUMMARY_SCHEMA "\",\"command\":\"%s\"",
		    r->command);
	return &r->out;
}

void reporter_summary_close(struct reporter *r, double secs)
{
	xq_buf_addf(&r->out, ",\"errors\":%llu,\"warnings\":%llu,\"notes\":%llu,\"codes\":",
		    (unsigned long long)r->counts.by_sev[XQ_SEV_ERROR],
		    (unsigned long long)r->counts.by_sev[XQ_SEV_WARNING],
		    (unsigned long long)r->counts.by_sev[XQ_SEV_NOTE]);
	report_codes_json(&r->out, &r->counts);
	xq_buf_addf(&r->out, ",\"seconds\":%.3f}\n", secs);
	reporter_flush(r);
}

void reporter_summary_inputs(struct reporter *r, struct xq_buf *b, uint64_t games)
{
	xq_buf_addf(b, ",\"files\":%llu,\"skipped_files\":%llu,\"failed_files\":%llu,\"games\":%llu",
		    (unsigned long long)r->files, (unsigned long long)r->skipped_files,
		    (unsigned long long)r->failed_files, (unsigned long long)games);
}

struct xq_buf *reporter_summary_text(struct reporter *r)
{
	return r->quiet || r->fmt != REPORT_TEXT ? NULL : &r->err;
}

struct xq_buf *reporter_summary_head(struct reporter *r, uint64_t games)
{
	struct xq_buf *b = reporter_summary_text(r);

	if (b) {
		xq_buf_addf(b, "%s: ", r->command);
		report_plural(b, games, "game", "games");
		xq_buf_adds(b, " from ");
		report_plural(b, r->files, "file", "files");
	}
	return b;
}

void report_plural(struct xq_buf *b, uint64_t n, const char *one, const char *many)
{
	xq_buf_addf(b, "%llu %s", (unsigned long long)n, n == 1 ? one : many);
}

void reporter_unread_text(const struct reporter *r, struct xq_buf *b)
{
	if (r->skipped_files)
		xq_buf_addf(b, "; %llu file%s skipped (not game records)",
			    (unsigned long long)r->skipped_files, r->skipped_files == 1 ? "" : "s");
	if (r->failed_files)
		xq_buf_addf(b, "; %llu input%s not read", (unsigned long long)r->failed_files,
			    r->failed_files == 1 ? "" : "s");
}

int reporter_status(const struct reporter *r, uint64_t skipped)
{
	if (r->io_error)
		return XQ_EXIT_IO;
	if (skipped || r->failed_files || r->damaged_files || r->counts.by_sev[XQ_SEV_ERROR])
		return XQ_EXIT_INVALID;
	return XQ_EXIT_OK;
}

void reporter_counts_text(struct reporter *r, struct xq_buf *b)
{
	static const char *const one[3] = {"note", "warning", "error"};
	static const char *const many[3] = {"notes", "warnings", "errors"};

	for (int s = XQ_SEV_ERROR; s >= XQ_SEV_NOTE; s--) {
		if (!r->counts.by_sev[s])
			continue;
		report_plural(b, r->counts.by_sev[s], one[s], many[s]);
		xq_buf_adds(b, ": ");
		report_codes_text(b, &r->counts, (enum xq_severity)s);
		xq_buf_addc(b, '\n');
	}
}
