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
#include <xq/batch.h>
#include "progress.h"
#include <xq/memory.h>
#include <xq/utf8.h>

static atomic_int bug_seen;

/*
 * What a line of the report says: a diagnostic as its accessors read it
 * (item_of()), or one the reporter makes itself (a file skipped).
 */
struct item {
	const char *source;    /* NULL: "xqkit" */
	uint64_t line, col;
	int64_t offset;        /* -1: none */
	int severity;
	int code;              /* xq_diagnostic_code_index(); 0 is "none" */
	uint64_t game;
	uint32_t ply;
	const char *move;
	const char *msg;
	const char *fix_field, *fix_old, *fix_new; /* fix_field NULL: no fix */
};

static void item_of(struct item *it, const xq_diagnostic *d)
{
	it->source = xq_diagnostic_source(d);
	it->line = xq_diagnostic_line(d);
	it->col = xq_diagnostic_column(d);
	it->offset = xq_diagnostic_offset(d);
	it->severity = xq_diagnostic_severity(d);
	it->code = xq_diagnostic_code_index(d);
	it->game = xq_diagnostic_game(d);
	it->ply = xq_diagnostic_ply(d);
	it->move = xq_diagnostic_move(d);
	it->msg = xq_diagnostic_message(d);
	xq_diagnostic_fix(d, &it->fix_field, &it->fix_old, &it->fix_new);
}

static const char *const severity_names[3] = {"note", "warning", "error"};

static void note_bug(const struct item *it)
{
	if (it->code > 0 && !strcmp(xq_diagnostic_code_name(it->code), "internal"))
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

static int add_place(struct xq_buf *b, const struct item *d, int binary)
{
	int rc = 0;

	if (d->source) {
		rc = report_add_safe(b, d->source, strlen(d->source));
		if (!rc && !binary && d->line)
			rc = d->col ? xq_buf_addf(b, ":%llu:%llu", (unsigned long long)d->line,
						  (unsigned long long)d->col)
				    : xq_buf_addf(b, ":%llu", (unsigned long long)d->line);
		else if (!rc && d->offset >= 0)
			rc = xq_buf_addf(b, ": byte %llu", (unsigned long long)d->offset);
	} else {
		rc = xq_buf_adds(b, "xqkit");
	}
	return rc ? rc : xq_buf_adds(b, ": ");
}

/* The severity word's colour, as GCC colours them (SGR codes). */
static const char *severity_color(int s)
{
	return s == XQ_SEVERITY_ERROR ? "01;31" : s == XQ_SEVERITY_WARNING ? "01;35" : "01;36";
}

static int item_text(struct xq_buf *b, const struct item *d, int binary, int color)
{
	int rc = add_place(b, d, binary);

	note_bug(d);

	if (!rc && color)
		rc = xq_buf_addf(b, "\033[%sm%s\033[m: ", severity_color(d->severity),
				 severity_names[d->severity]);
	else if (!rc)
		rc = xq_buf_addf(b, "%s: ", severity_names[d->severity]);
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
	if (!rc && d->code > 0)
		rc = xq_buf_addf(b, " [%s]", xq_diagnostic_code_name(d->code));
	return rc ? rc : xq_buf_addc(b, '\n');
}

int report_text(struct xq_buf *b, const xq_diagnostic *d, int binary)
{
	return report_text_color(b, d, binary, 0);
}

int report_text_color(struct xq_buf *b, const xq_diagnostic *d, int binary, int color)
{
	struct item it;

	item_of(&it, d);
	return item_text(b, &it, binary, color);
}

/* ,"fix":{"field":...,"old":...,"new":...} (doc/ndjson.md). */
static int add_fix(struct xq_buf *b, const struct item *d)
{
	int rc = xq_buf_adds(b, ",\"fix\":{\"field\":");

	if (!rc)
		rc = report_add_json_safe(b, d->fix_field);
	if (!rc)
		rc = xq_buf_adds(b, ",\"old\":");
	if (!rc)
		rc = d->fix_old ? report_add_json_safe(b, d->fix_old) : xq_buf_adds(b, "null");
	if (!rc)
		rc = xq_buf_adds(b, ",\"new\":");
	if (!rc)
		rc = report_add_json_safe(b, d->fix_new ? d->fix_new : "");
	return rc ? rc : xq_buf_addc(b, '}');
}

static int item_json(struct xq_buf *b, const struct item *d, int binary)
{
	int rc = xq_buf_adds(b, "{\"schema\":\"" REPORT_DIAG_SCHEMA "\"");

	note_bug(d);

	if (!rc && d->source) {
		rc = xq_buf_adds(b, ",\"file\":");
		if (!rc)
			rc = report_add_json_safe(b, d->source);
	}
	if (!rc && d->line && !binary)
		rc = xq_buf_addf(b, ",\"line\":%llu,\"col\":%llu", (unsigned long long)d->line,
				 (unsigned long long)d->col);
	if (!rc && d->offset >= 0)
		rc = xq_buf_addf(b, ",\"offset\":%llu", (unsigned long long)d->offset);
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
				 severity_names[d->severity], xq_diagnostic_code_name(d->code));
	if (!rc)
		rc = report_add_json_safe(b, d->msg);
	if (!rc && d->fix_field)
		rc = add_fix(b, d);
	return rc ? rc : xq_buf_adds(b, "}\n");
}

int report_json(struct xq_buf *b, const xq_diagnostic *d, int binary)
{
	struct item it;

	item_of(&it, d);
	return item_json(b, &it, binary);
}

xq_diagnostics *diag_list_made(struct diag_list *l)
{
	if (!l->l)
		l->l = xq_diagnostics_new();
	return l->l;
}

int diag_list_add(struct diag_list *l, const xq_diagnostic *d)
{
	if (!diag_list_made(l))
		return XQ_ENOMEM;
	return xq_diagnostics_add(l->l, d);
}

size_t diag_list_count(const struct diag_list *l)
{
	return l->l ? xq_diagnostics_count(l->l) : 0;
}

const xq_diagnostic *diag_list_at(const struct diag_list *l, size_t i)
{
	return l->l ? xq_diagnostics_at(l->l, i) : NULL;
}

void diag_list_truncate(struct diag_list *l, size_t n)
{
	if (l->l)
		xq_diagnostics_truncate(l->l, n);
}

void diag_list_set_severity(struct diag_list *l, size_t i, int severity)
{
	if (l->l)
		xq_diagnostics_set_severity(l->l, i, severity);
}

void diag_list_move(struct diag_list *l, size_t i, size_t to)
{
	if (l->l)
		xq_diagnostics_move(l->l, i, to);
}

void diag_list_keep(struct diag_list *l, int severity)
{
	if (l->l)
		xq_diagnostics_keep(l->l, severity);
}

void diag_severities(const xq_diagnostics *l, size_t from, uint64_t sev[3])
{
	for (size_t i = from; i < xq_diagnostics_count(l); i++)
		sev[xq_diagnostic_severity(xq_diagnostics_at(l, i))]++;
}

void diag_list_clear(struct diag_list *l)
{
	diag_list_truncate(l, 0);
}

void diag_list_release(struct diag_list *l)
{
	xq_diagnostics_free(l->l);
	l->l = NULL;
}

static void count_item(struct report_counts *c, const struct item *d)
{
	unsigned code = d->code >= 0 && d->code < REPORT_CODES ? (unsigned)d->code : 0;
	unsigned sev = (unsigned)d->severity <= XQ_SEVERITY_ERROR ? (unsigned)d->severity
								  : XQ_SEVERITY_ERROR;

	note_bug(d);
	c->by_sev[sev]++;
	c->by_code[code]++;
	c->by_code_sev[code][sev]++;
}

void report_count(struct report_counts *c, const xq_diagnostic *d)
{
	struct item it;

	item_of(&it, d);
	count_item(c, &it);
}

int report_codes_text(struct xq_buf *b, const struct report_counts *c, int sev)
{
	int n = 0, rc = 0;

	/* Code "none" is information ("written to ..."), never a problem. */
	for (int i = 1; i < REPORT_CODES && xq_diagnostic_code_name(i) && !rc; i++)
		if (c->by_code_sev[i][sev])
			rc = xq_buf_addf(b, "%s%s %llu", n++ ? ", " : "", xq_diagnostic_code_name(i),
					 (unsigned long long)c->by_code_sev[i][sev]);
	return rc;
}

int report_codes_json(struct xq_buf *b, const struct report_counts *c)
{
	int n = 0, rc = xq_buf_addc(b, '{');

	for (int i = 0; i < REPORT_CODES && xq_diagnostic_code_name(i) && !rc; i++)
		if (c->by_code[i])
			rc = xq_buf_addf(b, "%s\"%s\":%llu", n++ ? "," : "", xq_diagnostic_code_name(i),
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
	static int known = -1; /* set on the output thread only (one at a time, <xq/batch.h>) */
	struct stat st;

	if (known < 0)
		known = fstat(1, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
	return known;
}

int report_stream_wrote(struct report_stream *s, size_t len, int pipe)
{
	s->waiting += len;
	if (!pipe && s->waiting < 65536)
		return 0;
	s->waiting = 0;
	return fflush(NULL) == EOF ? -1 : 1;
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
	r->in = o;
	r->fmt = o->fmt;
	r->quiet = o->quiet;
	r->verbose = o->verbose;
	r->color = o->fmt == REPORT_TEXT && report_use_color(o, 2);
	r->shard_k = o->shard_k;
	r->shard_n = o->shard_n;
	r->run_id = o->run_id;
	xq_buf_init(&r->err);
	xq_buf_init(&r->out);
}

void reporter_release(struct reporter *r)
{
	xq_buf_release(&r->err);
	xq_buf_release(&r->out);
}

/* Count one item and write it as the reporter writes. */
static void reporter_item(struct reporter *r, const struct item *d, int binary)
{
	count_item(&r->counts, d);
	if (r->fmt == REPORT_NDJSON)
		item_json(&r->out, d, binary);
	else if (!(r->quiet && d->severity == XQ_SEVERITY_NOTE))
		item_text(&r->err, d, binary, r->color);
}

int reporter_diag(struct reporter *r, const xq_diagnostic *d, int binary)
{
	struct item it;

	item_of(&it, d);
	/* --strict reports a note as an error: in what is written, the
	 * diagnostic staying what the library or the command made. */
	if (r->strict && it.severity == XQ_SEVERITY_NOTE)
		it.severity = XQ_SEVERITY_ERROR;
	reporter_item(r, &it, binary);
	return it.severity;
}

static void count_file(struct reporter *r, const xq_batch_file *f)
{
	struct item it;
	/* counted already when its first game came (reporter_job()) */
	int started = r->file_open;

	r->file_open = 0;
	if (f->foreign)
		return; /* another shard's to count (--shard) */
	switch (f->status) {
	case XQ_BATCH_FILE_OK: r->files += !started; break;
	case XQ_BATCH_FILE_DAMAGED: r->files += !started; r->damaged_files++; break;
	case XQ_BATCH_FILE_IO: r->files += !started; r->io_error = 1; break;
	case XQ_BATCH_FILE_FAILED: r->failed_files++; break;
	case XQ_BATCH_FILE_SKIPPED:
		r->skipped_files++;
		if (!r->verbose)
			break;
		memset(&it, 0, sizeof(it));
		it.source = f->name;
		it.offset = -1;
		it.severity = XQ_SEVERITY_NOTE;
		it.move = "";
		it.msg = "skipped: no record format recognises it";
		/* what no one asked to check is no error, even with --strict;
		 * and written even with -q, as asked for by -v */
		count_item(&r->counts, &it);
		if (r->fmt == REPORT_NDJSON)
			item_json(&r->out, &it, 0);
		else
			item_text(&r->err, &it, 0, r->color);
		break;
	}
}

void reporter_job(struct reporter *r, xq_batch_job *j, uint64_t sev[3])
{
	for (size_t i = 0; i < xq_diagnostics_count(j->diags); i++) {
		const xq_diagnostic *d = xq_diagnostics_at(j->diags, i);
		int s = reporter_diag(r, d, j->file->binary);
		if (sev)
			sev[s]++;
		if (j->kind == XQ_BATCH_END && s == XQ_SEVERITY_ERROR && !strcmp(xq_diagnostic_code(d), "io"))
			r->io_error = 1;
	}
	if (j->kind == XQ_BATCH_GAME) {
		r->games++;
		/* A file counts from its first game: a run stopped inside it
		 * (a signal) read it, though its end never came.  (With
		 * --shard by game, shard 1 counts it: <xq/batch.h>.) */
		if (!r->file_open && !j->file->foreign &&
		    !(r->in->shard_by_game && r->in->shard_n > 1 && r->in->shard_k != 1)) {
			r->file_open = 1;
			r->files++;
		}
	} else {
		count_file(r, j->file);
	}
}

void reporter_job_diags(struct reporter *r, const xq_batch_job *j)
{
	for (size_t i = 0; i < xq_diagnostics_count(j->diags); i++)
		reporter_diag(r, xq_diagnostics_at(j->diags, i), j->file->binary);
}

void reporter_flush(struct reporter *r)
{
	report_flush_err(&r->err);
	report_flush_out(&r->out);
}

struct xq_buf *reporter_summary_open(struct reporter *r)
{
	xq_buf_addf(&r->out,
		    "{\"schema\":\"" REPORT_SUMMARY_SCHEMA "\",\"command\":\"%s\",\"shard\":\"%llu/%llu\",\"run\":",
		    r->command, (unsigned long long)r->shard_k, (unsigned long long)r->shard_n);
	xq_buf_add_json_string(&r->out, r->run_id, strlen(r->run_id));
	return &r->out;
}

void reporter_summary_close(struct reporter *r, double secs)
{
	xq_buf_addf(&r->out, ",\"errors\":%llu,\"warnings\":%llu,\"notes\":%llu,\"codes\":",
		    (unsigned long long)r->counts.by_sev[XQ_SEVERITY_ERROR],
		    (unsigned long long)r->counts.by_sev[XQ_SEVERITY_WARNING],
		    (unsigned long long)r->counts.by_sev[XQ_SEVERITY_NOTE]);
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

void reporter_summary(struct reporter *r, double secs, uint64_t games,
		      const struct report_summary *s, void *ctx)
{
	struct xq_buf *b;

	if (r->fmt == REPORT_NDJSON) {
		b = reporter_summary_open(r);
		if (s->head)
			s->head(ctx, b);
		reporter_summary_inputs(r, b, games);
		s->json(ctx, b);
		reporter_summary_close(r, secs);
		return;
	}
	if (!(b = s->text_head ? reporter_summary_head(r, games) : reporter_summary_text(r)))
		return;
	s->text(ctx, b, secs);
	reporter_flush(r);
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
		return CMD_EXIT_IO;
	if (skipped || r->failed_files || r->damaged_files || r->counts.by_sev[XQ_SEVERITY_ERROR])
		return CMD_EXIT_INVALID;
	return CMD_EXIT_OK;
}

void reporter_counts_text(struct reporter *r, struct xq_buf *b)
{
	static const char *const one[3] = {"note", "warning", "error"};
	static const char *const many[3] = {"notes", "warnings", "errors"};

	for (int s = XQ_SEVERITY_ERROR; s >= XQ_SEVERITY_NOTE; s--) {
		if (!r->counts.by_sev[s])
			continue;
		report_plural(b, r->counts.by_sev[s], one[s], many[s]);
		xq_buf_adds(b, ": ");
		report_codes_text(b, &r->counts, s);
		xq_buf_addc(b, '\n');
	}
}
