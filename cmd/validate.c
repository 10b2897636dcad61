/*
 * validate.c: `xqkit validate`, check every game of every input and say
 * exactly what is wrong where.
 *
 * The readers already check each move against the position as they read
 * (a game in memory holds only legal moves, and a bad one comes back
 * flagged broken with its diagnostics).  On top of that this command
 * checks what only a whole game shows: the start position, the FEN tag,
 * the result against the final position (a mate or stalemate must be won
 * by the side that delivered it; a decisive result with no mate is noted
 * as a resignation or a loss on time), the Result tag against the result,
 * the Date tag and the tags the user requires.  It never changes a byte.
 *
 * Exit status: 0 when no error or warning was found (notes do not count
 * unless --strict turns them into errors; --fail-on moves the line), 1
 * when some were, 2 on a usage
 * error, 3 when an input could not be read.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "diagplace.h"
#include "ecco_tags.h"
#include "inputs.h"
#include "opt.h"
#include <xq/batch.h>
#include "progress.h"
#include "report.h"
#include "validate.h"
#include <xq/buf.h>
#include <xq/error.h>
#include <xq/record.h>
#include <xq/rules.h>

#define CHECK_SCHEMA "xqkit.check/1"

static const char usage[] =
	"xqkit validate [-r] [--from FORMAT] [--strict] [--require TAGS] [--ecco] [--rules SET]\n"
	"                      [--format text|ndjson] [-j THREADS] [-q] [INPUT...]";
static const char summary[] =
	"Check every move of every game (variations included) from its start position,\n"
	"the result against the final position and the repetition rules, the FEN, Date\n"
	"and required tags, and\n"
	"report each problem with its file, line and column (byte offset in binary\n"
	"files), game number, ply and move.  INPUT is a file, a directory (with -r) or\n"
	"'-' for standard input (the default); gzip is read transparently and the\n"
	"format is found from the content.  Exit status 1 when an error or a warning\n"
	"was found.";

enum { O_STRICT = 's', O_REQUIRE = 'R', O_FAIL_ON = 0x101, O_ECCO };

static const struct opt_spec options[] = {
	OPT_FLAG(O_STRICT, 0, "strict", "notes (resignation, no result, ...) count as errors"),
	OPT_VALUE(O_FAIL_ON, 0, "fail-on", "LEVEL", "exit 1 from this severity up: error, warning (default) or note"),
	OPT_VALUE(O_REQUIRE, 0, "require", "TAGS", "comma-separated tags every game must have"),
	OPT_FLAG(O_ECCO, 0, "ecco", "also note a game with no ECCO tag (a tag that disagrees with the moves is always a warning)"),
	OPT_INCLUDE(rules_options),
	OPT_INCLUDE(input_options),
	OPT_INCLUDE(input_encoding_alias),
	OPT_END,
};

#define MAX_REQUIRED 32

struct vctx {
	struct input_opts in;
	int fail_on;            /* XQ_SEVERITY_*: exit 1 from this one up */
	const char *required[MAX_REQUIRED];
	int nrequired;
	int ecco;               /* --ecco: also note a missing ECCO tag (ecco_tags.h) */
	int strict;             /* --strict: notes count as errors (the reporter's strict) */
	/* totals, on the output thread */
	struct reporter rep;
	uint64_t plies, broken;
	int stopped;            /* the run ended before every input was checked */
};

const char *validate_ruling_name(enum validate_ruling r)
{
	static const char *const names[] = {
		[VALIDATE_RULING_SILENT] = "silent",
		[VALIDATE_RULING_CONFIRMED] = "confirmed",
		[VALIDATE_RULING_CONTRADICTED] = "contradicted",
		[VALIDATE_RULING_DOUBTFUL] = "doubtful",
		[VALIDATE_RULING_NOT_SHOWN] = "not-shown",
	};

	return (unsigned)r < sizeof(names) / sizeof(names[0]) ? names[r] : names[0];
}

/* The library's checks send their diagnostics to the job's list. */
static void add_to_job(const xq_diagnostic *d, void *user)
{
	xq_batch_job *j = user;

	xq_diagnostics_add(j->diags, d);
}

enum validate_ruling validate_checks(xq_batch_job *j, const struct input_opts *in,
				     const char *const *required, int nrequired)
{
	xq_validate_options o = XQ_VALIDATE_OPTIONS_INIT;
	int rc;

	o.ruleset = in->rules_on ? in->ruleset : -1;
	o.required = required;
	o.nrequired = nrequired > 0 ? (size_t)nrequired : 0;
	/* What the reader said already is in the record (<xq/batch.h>). */
	rc = xq_record_validate(j->record, &o, add_to_job, j);
	diag_job_confirm_reader_result(j);
	return rc > 0 ? (enum validate_ruling)rc : VALIDATE_RULING_SILENT;
}

/* The moves of `r` (the root not counted) into *nodes, and how many of
 * them are an alternative to another (not a first child) into *variations. */
static void count_nodes(const xq_record *r, uint64_t *nodes, uint64_t *variations)
{
	uint32_t n = xq_record_node_count(r);

	*nodes = n - 1;
	*variations = 0;
	for (uint32_t i = 1; i < n; i++)
		if (xq_record_node_child(r, xq_record_node_parent(r, i)) != i)
			++*variations;
}

/* Worker thread: the checks on one game. */
static void validate_process(void *ctx, void *worker, xq_batch_job *j)
{
	struct vctx *c = ctx;

	(void)worker;
	validate_checks(j, &c->in, c->required, c->nrequired);
	ecco_tags_check(j, c->ecco);
	count_nodes(j->record, &j->counts[0], &j->counts[1]);
}

static void add_tag_json(struct xq_buf *b, const xq_record *r, const char *key, const char *tag)
{
	const char *v = xq_record_tag(r, tag);

	if (!v)
		return;
	xq_buf_addf(b, ",\"%s\":", key);
	report_add_json_safe(b, v);
}

static void game_json(struct vctx *c, const xq_batch_job *j, const uint64_t sev[3])
{
	const xq_record *r = j->record;
	struct xq_buf *b = &c->rep.out;
	uint64_t line, offset;

	xq_record_place(r, &line, NULL, &offset);
	xq_buf_adds(b, "{\"schema\":\"" CHECK_SCHEMA "\",\"file\":");
	report_add_json_safe(b, j->file->name);
	xq_buf_addf(b, ",\"game\":%llu", (unsigned long long)xq_record_number(r));
	if (line && !j->file->binary)
		xq_buf_addf(b, ",\"line\":%llu", (unsigned long long)line);
	else
		xq_buf_addf(b, ",\"offset\":%llu", (unsigned long long)offset);
	xq_buf_addf(b, ",\"format\":\"%s\"", j->file->format);
	if (xq_record_encoding(r))
		xq_buf_addf(b, ",\"encoding\":\"%s\"", xq_record_encoding(r));
	add_tag_json(b, r, "event", "Event");
	add_tag_json(b, r, "date", "Date");
	add_tag_json(b, r, "red", "Red");
	add_tag_json(b, r, "black", "Black");
	xq_buf_addf(b, ",\"result\":\"%s\",\"plies\":%u,\"nodes\":%llu,\"variations\":%llu",
		    xq_record_result(r), xq_record_mainline_length(r), (unsigned long long)j->counts[0],
		    (unsigned long long)j->counts[1]);
	xq_buf_addf(b, ",\"errors\":%llu,\"warnings\":%llu,\"notes\":%llu,\"broken\":%s,\"ok\":%s}\n",
		    (unsigned long long)sev[XQ_SEVERITY_ERROR], (unsigned long long)sev[XQ_SEVERITY_WARNING],
		    (unsigned long long)sev[XQ_SEVERITY_NOTE], xq_record_is_broken(r) ? "true" : "false",
		    sev[XQ_SEVERITY_ERROR] + sev[XQ_SEVERITY_WARNING] ? "false" : "true");
}

/* Output thread: print in input order and count. */
static int validate_emit(void *ctx, xq_batch_job *j)
{
	struct vctx *c = ctx;
	uint64_t sev[3] = {0, 0, 0};

	reporter_job(&c->rep, j, sev);
	if (j->kind == XQ_BATCH_GAME) {
		c->plies += j->counts[0];
		if (xq_record_is_broken(j->record))
			c->broken++;
		if (c->rep.fmt == REPORT_NDJSON)
			game_json(c, j, sev);
	}
	reporter_flush(&c->rep);
	return cmd_signal ? 1 : 0;
}

static void summary_json(void *ctx, struct xq_buf *b)
{
	struct vctx *c = ctx;

	xq_buf_addf(b, ",\"broken_games\":%llu,\"plies\":%llu",
		    (unsigned long long)c->broken, (unsigned long long)c->plies);
}

static void summary_text(void *ctx, struct xq_buf *b, double secs)
{
	struct vctx *c = ctx;
	struct reporter *r = &c->rep;

	report_plural(b, r->files, "file", "files");
	xq_buf_adds(b, ", ");
	report_plural(b, r->games, "game", "games");
	xq_buf_adds(b, ", ");
	report_plural(b, c->plies, "ply", "plies");
	xq_buf_addf(b, " checked in %.2f s", secs);
	if (r->skipped_files) {
		xq_buf_adds(b, "; ");
		report_plural(b, r->skipped_files, "file", "files");
		xq_buf_adds(b, " skipped (not game records)");
	}
	if (r->failed_files) {
		xq_buf_adds(b, "; ");
		report_plural(b, r->failed_files, "input", "inputs");
		xq_buf_adds(b, " not read");
	}
	xq_buf_addc(b, '\n');
	reporter_counts_text(r, b);
	if (c->stopped)
		xq_buf_adds(b, "stopped early: not every game was checked\n");
	else if (!r->counts.by_sev[XQ_SEVERITY_ERROR] && !r->counts.by_sev[XQ_SEVERITY_WARNING])
		xq_buf_adds(b, "no problems found\n");
}

static const struct report_summary summary_parts = {.json = summary_json, .text = summary_text};

static int parse_required(struct vctx *c, char *list, struct opt_parser *p)
{
	char *s = list;

	while (*s) {
		char *comma = strchr(s, ',');
		if (comma)
			*comma = '\0';
		if (*s) {
			if (c->nrequired == MAX_REQUIRED)
				return opt_error(p, "--require takes at most %d tags",
						 MAX_REQUIRED);
			c->required[c->nrequired++] = s;
		}
		if (!comma)
			break;
		s = comma + 1;
	}
	return 0;
}

static int parse_fail_on(struct vctx *c, struct opt_parser *p, const char *value)
{
	static const char *const names[] = {"error", "warning", "note", NULL};
	static const int sev[] = {XQ_SEVERITY_ERROR, XQ_SEVERITY_WARNING, XQ_SEVERITY_NOTE};
	int i = opt_choice(p, "--fail-on", value, names);

	if (i < 0)
		return -1;
	c->fail_on = sev[i];
	return 0;
}

/* One option of validate's own: 0, or -1 with the message in p->err. */
static int take_option(void *ctx, struct opt_parser *p, int id, const char *value)
{
	struct vctx *c = ctx;

	switch (id) {
	case O_STRICT: c->strict = 1; break;
	case O_ECCO: c->ecco = 1; break;
	case O_FAIL_ON: return parse_fail_on(c, p, value);
	case O_REQUIRE: return parse_required(c, (char *)value, p);
	}
	return 0;
}

/* After the last option: 0, or -1 with p->err. */
static int check_args(void *ctx, struct opt_parser *p)
{
	struct vctx *c = ctx;

	return input_opts_check(&c->in, p);
}

static const struct input_command command = {"validate", options, usage, summary, take_option,
					     check_args};

/* The exit status of a run that was not stopped. */
static int verdict(const struct vctx *c)
{
	if (c->rep.io_error)
		return CMD_EXIT_IO;
	for (int sev = XQ_SEVERITY_ERROR; sev >= c->fail_on; sev--)
		if (c->rep.counts.by_sev[sev])
			return CMD_EXIT_INVALID;
	return CMD_EXIT_OK;
}

int cmd_validate(int argc, char **argv)
{
	struct opt_parser p;
	struct vctx c;
	struct inputs inputs;
	/* Numbers and lines reach the output only through the games and
	 * their diagnostics, which the pool puts right (<xq/batch.h>). */
	xq_batch_config cfg = {.process = validate_process, .emit = validate_emit, .ctx = &c,
				  .late_numbers = 1};
	int rc;
	double t0;

	memset(&c, 0, sizeof(c));
	input_opts_init(&c.in);
	c.fail_on = XQ_SEVERITY_WARNING;
	if ((rc = input_opts_command(&c.in, &p, argc, argv, &command, &c)) != OPT_RUN)
		return rc;
	t0 = cmd_now();
	if ((rc = input_opts_begin(&c.in, &c.rep, &inputs, &p)) == 0) {
		c.rep.strict = c.strict;
		rc = input_opts_run(&c.in, &inputs, &cfg);
		inputs_release(&inputs);
		if (rc == XQ_ENOMEM)
			c.rep.io_error = 1;
		if (cmd_signal)
			cmd_error("interrupted: the summary counts what was checked before the signal");
		c.stopped = rc != 0 || cmd_signal;
		reporter_summary(&c.rep, cmd_now() - t0, c.rep.games, &summary_parts, &c);
		rc = cmd_signal ? cmd_signal_status() : verdict(&c);
	}
	reporter_release(&c.rep);
	opt_release(&p);
	return rc;
}
