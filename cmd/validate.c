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
#include "diag.h"
#include "diagplace.h"
#include "ecco_tags.h"
#include "game.h"
#include "gamecheck.h"
#include "inputs.h"
#include "opt.h"
#include "pool.h"
#include "progress.h"
#include "report.h"
#include "validate.h"
#include <xq/buf.h>
#include <xq/utf8.h>

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
	enum xq_severity fail_on;
	const char *required[MAX_REQUIRED];
	int nrequired;
	int ecco;               /* --ecco: also note a missing ECCO tag (ecco_tags.h) */
	/* totals, on the output thread */
	struct reporter rep;
	uint64_t plies, broken;
};

/* validate's rulings (validate.h) as the library's checks answer them. */
static const enum xq_rules_support support_of[] = {
	[VALIDATE_RULING_SILENT] = XQ_SUPPORT_SILENT,
	[VALIDATE_RULING_CONFIRMED] = XQ_SUPPORT_CONFIRMED,
	[VALIDATE_RULING_CONTRADICTED] = XQ_SUPPORT_CONTRADICTED,
	[VALIDATE_RULING_DOUBTFUL] = XQ_SUPPORT_DOUBTFUL,
	[VALIDATE_RULING_NOT_SHOWN] = XQ_SUPPORT_NOT_SHOWN,
};

const char *validate_ruling_name(enum validate_ruling r)
{
	return xq_rules_support_name((unsigned)r < sizeof(support_of) / sizeof(support_of[0])
					     ? support_of[r]
					     : XQ_SUPPORT_SILENT);
}

static enum validate_ruling ruling_of(enum xq_rules_support s)
{
	switch (s) {
	case XQ_SUPPORT_CONFIRMED: return VALIDATE_RULING_CONFIRMED;
	case XQ_SUPPORT_CONTRADICTED: return VALIDATE_RULING_CONTRADICTED;
	case XQ_SUPPORT_DOUBTFUL: return VALIDATE_RULING_DOUBTFUL;
	case XQ_SUPPORT_NOT_SHOWN: return VALIDATE_RULING_NOT_SHOWN;
	default: return VALIDATE_RULING_SILENT;
	}
}

/* The library's checks send their diagnostics to the job's list. */
static void add_to_job(const struct xq_diag *d, void *payload)
{
	struct pool_job *j = payload;

	diag_list_add(&j->diags, d);
}

enum validate_ruling validate_checks(struct pool_job *j, const struct input_opts *in,
				     const char *const *required, int nrequired)
{
	struct xq_rules_options ro = XQ_RULES_OPTIONS_INIT;
	struct xq_check_opts o = {in->rules_on ? &ro : NULL, required, (size_t)nrequired};
	struct xq_sink sink = {add_to_job, j};
	enum xq_rules_support support;
	unsigned said = 0;
	size_t bad_result = 0; /* 1 + the index of the reader's last bad-result */

	ro.rules = (enum xq_rules_set)in->ruleset; /* --rules: the same values */
	/* What a reader said already (a start position it rejected, a game
	 * with no moves, ...) is not said again. */
	for (size_t i = 0; i < j->diags.n; i++) {
		said |= xq_check_said_of(j->diags.v[i].code);
		if (j->diags.v[i].code == XQ_D_BAD_RESULT)
			bad_result = i + 1;
	}
	xq_game_check(j->game, &o, &said, &sink, &support);
	if ((said & XQ_SAID_BAD_RESULT_STANDS) && bad_result)
		j->diags.v[bad_result - 1].severity = XQ_SEV_ERROR;
	return ruling_of(support);
}

/* Worker thread: the checks on one game. */
static void validate_process(void *ctx, void *worker, struct pool_job *j)
{
	struct vctx *c = ctx;
	struct xq_game_counts counts;

	(void)worker;
	validate_checks(j, &c->in, c->required, c->nrequired);
	ecco_tags_check(j, c->ecco);
	xq_game_count(j->game, &counts);
	j->counts[0] = counts.nodes;
	j->counts[1] = counts.variations;
}

static void add_tag_json(struct xq_buf *b, const struct xq_game *g, const char *key,
			 const char *tag)
{
	const char *v = xq_game_tag(g, tag);

	if (!v)
		return;
	xq_buf_addf(b, ",\"%s\":", key);
	report_add_json_safe(b, v);
}

static void game_json(struct vctx *c, const struct pool_job *j, const uint64_t sev[3])
{
	const struct xq_game *g = j->game;
	struct xq_buf *b = &c->rep.out;

	xq_buf_adds(b, "{\"schema\":\"" CHECK_SCHEMA "\",\"file\":");
	report_add_json_safe(b, j->file->name);
	xq_buf_addf(b, ",\"game\":%llu", (unsigned long long)g->number);
	if (g->place.line && !j->file->binary)
		xq_buf_addf(b, ",\"line\":%llu", (unsigned long long)g->place.line);
	else
		xq_buf_addf(b, ",\"offset\":%llu", (unsigned long long)g->place.offset);
	xq_buf_addf(b, ",\"format\":\"%s\"", format_name(j->file->fmt));
	if (g->encoding)
		xq_buf_addf(b, ",\"encoding\":\"%s\"", g->encoding);
	add_tag_json(b, g, "event", "Event");
	add_tag_json(b, g, "date", "Date");
	add_tag_json(b, g, "red", "Red");
	add_tag_json(b, g, "black", "Black");
	xq_buf_addf(b, ",\"result\":\"%s\",\"plies\":%u,\"nodes\":%llu,\"variations\":%llu",
		    xq_result_string(g->result), xq_game_mainline_length(g),
		    (unsigned long long)j->counts[0], (unsigned long long)j->counts[1]);
	xq_buf_addf(b, ",\"errors\":%llu,\"warnings\":%llu,\"notes\":%llu,\"broken\":%s,\"ok\":%s}\n",
		    (unsigned long long)sev[XQ_SEV_ERROR], (unsigned long long)sev[XQ_SEV_WARNING],
		    (unsigned long long)sev[XQ_SEV_NOTE],
		    (g->flags & XQ_GAME_BROKEN) ? "true" : "false",
		    sev[XQ_SEV_ERROR] + sev[XQ_SEV_WARNING] ? "false" : "true");
}

/* Output thread: print in input order and count. */
static int validate_emit(void *ctx, struct pool_job *j)
{
	struct vctx *c = ctx;
	uint64_t sev[3] = {0, 0, 0};

	reporter_job(&c->rep, j, sev);
	if (j->kind == POOL_GAME) {
		c->plies += j->counts[0];
		if (j->game->flags & XQ_GAME_BROKEN)
			c->broken++;
		if (c->rep.fmt == REPORT_NDJSON)
			game_json(c, j, sev);
	}
	reporter_flush(&c->rep);
	return cmd_signal ? 1 : 0;
}

/* `stopped`: the run ended before every input was checked. */
static void print_summary(struct vctx *c, double secs, int stopped)
{
	struct reporter *r = &c->rep;
	struct xq_buf *b;

	if (r->fmt == REPORT_NDJSON) {
		b = reporter_summary_open(r);
		reporter_summary_inputs(r, b, r->games);
		xq_buf_addf(b, ",\"broken_games\":%llu,\"plies\":%llu",
			    (unsigned long long)c->broken, (unsigned long long)c->plies);
		reporter_summary_close(r, secs);
		return;
	}
	if (!(b = reporter_summary_text(r)))
		return;
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
	if (stopped)
		xq_buf_adds(b, "stopped early: not every game was checked\n");
	else if (!r->counts.by_sev[XQ_SEV_ERROR] && !r->counts.by_sev[XQ_SEV_WARNING])
		xq_buf_adds(b, "no problems found\n");
	reporter_flush(r);
}

static int parse_required(struct vctx *c, char *list, struct opt_parser *p)
{
	char *s = list;

	while (*s) {
		char *comma = strchr(s, ',');
		if (comma)
			*comma = '\0';
		if (*s) {
			if (c->nrequired == MAX_REQUIRED) {
				snprintf(p->err, sizeof(p->err), "--require takes at most %d tags",
					 MAX_REQUIRED);
				return -1;
			}
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
	static const enum xq_severity sev[] = {XQ_SEV_ERROR, XQ_SEV_WARNING, XQ_SEV_NOTE};
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
	case O_STRICT: c->rep.strict = 1; break;
	case O_ECCO: c->ecco = 1; break;
	case O_FAIL_ON: return parse_fail_on(c, p, value);
	case O_REQUIRE: return parse_required(c, (char *)value, p);
	}
	return 0;
}

/* The options: 0 to run, 1 when --help was shown, -1 on a usage error
 * (p->err says what). */
static int parse_args(struct vctx *c, struct opt_parser *p)
{
	int rc = input_opts_parse(&c->in, p, options, usage, summary, take_option, c);

	return rc ? rc : input_opts_check(&c->in, p);
}

/* The exit status of a run that was not stopped. */
static int verdict(const struct vctx *c)
{
	if (c->rep.io_error)
		return XQ_EXIT_IO;
	for (int sev = XQ_SEV_ERROR; sev >= (int)c->fail_on; sev--)
		if (c->rep.counts.by_sev[sev])
			return XQ_EXIT_INVALID;
	return XQ_EXIT_OK;
}

int cmd_validate(int argc, char **argv)
{
	struct opt_parser p;
	struct vctx c;
	struct inputs inputs;
	/* Numbers and lines reach the output only through the games and
	 * their diagnostics, which the pool puts right (pool.h). */
	struct pool_config cfg = {.process = validate_process, .emit = validate_emit, .ctx = &c,
				  .late_numbers = 1};
	int rc, strict;
	double t0;

	memset(&c, 0, sizeof(c));
	input_opts_init(&c.in);
	c.fail_on = XQ_SEV_WARNING;
	if (opt_init(&p, argc, argv, "validate")) {
		/* Nothing was checked: never a word that could read as a verdict. */
		cmd_error("out of memory: stopped early, before any game was checked");
		return XQ_EXIT_IO;
	}
	if ((rc = parse_args(&c, &p)) != 0) {
		rc = rc > 0 ? XQ_EXIT_OK : cmd_usage_error("validate", "%s", p.err);
		opt_release(&p);
		return rc;
	}
	strict = c.rep.strict; /* parsed before the reporter starts */
	reporter_init(&c.rep, "validate", &c.in);
	c.rep.strict = strict;
	t0 = cmd_now();
	cmd_catch_signals();
	if ((rc = input_opts_start(&c.in, &inputs, &p, "validate")) == 0) {
		rc = input_opts_run(&c.in, &inputs, &cfg);
		inputs_release(&inputs);
		if (rc == XQ_ENOMEM)
			c.rep.io_error = 1;
		if (cmd_signal)
			cmd_error("interrupted: the summary counts what was checked before the signal");
		print_summary(&c, cmd_now() - t0, rc != 0 || cmd_signal);
		rc = cmd_signal ? cmd_signal_status() : verdict(&c);
	}
	reporter_release(&c.rep);
	opt_release(&p);
	return rc;
}
