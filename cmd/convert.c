/*
 * convert.c: `xqkit convert`, every game of every input into one format.
 *
 * Games go to one output (a file, or standard output) or, with -o DIR/,
 * one file per game named from a template of tags, through the writers
 * as cmd/output.h says (losses, --strict, --verify, --keep-broken).
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "convert_fix.h"
#include "diagplace.h"
#include "ecco_tags.h"
#include "inputs.h"
#include "opt.h"
#include "output.h"
#include <xq/batch.h>
#include "progress.h"
#include "report.h"
#include <xq/buf.h>

static const char usage[] =
	"xqkit convert -t FORMAT [-o OUT|-o DIR/] [--notation NAME] [--output-encoding ENC]\n"
	"                     [--verify] [--keep-broken] [--ecco] [--force] [-r] [-j THREADS]\n"
	"                     [--fix [--names FILE] [--rules SET] [--dry-run]] [INPUT...]";
static const char summary[] =
	"Convert every game of the inputs (files, directories with -r, '-' for standard\n"
	"input) to FORMAT: all into one output (standard output by default), or one file\n"
	"per game with -o DIR/ (names from --name).  What FORMAT cannot hold is reported\n"
	"for each game; a broken game is reported and skipped, a variation with an\n"
	"illegal move cut there (reported) and the game written.  An output no game\n"
	"reached is not made.  Exit status 1 when a game was skipped or did not verify\n"
	"or an error was reported.  'xqkit help formats' lists the formats.";

enum { O_ECCO = 0x101 };

static const struct opt_spec options[] = {
	OPT_INCLUDE(output_options),
	OPT_INCLUDE(fix_options),
	OPT_FLAG(O_ECCO, 0, "ecco", "set the ECCO, Opening and Variation tags from the moves"),
	OPT_INCLUDE(input_options),
	OPT_END,
};

struct cctx {
	struct output out;
	struct input_opts in;
	struct reporter rep;
	int ecco;                 /* --ecco */
	struct fix fix; /* --fix, and the check made without it (convert_fix.h) */
};

/* Worker thread: --fix (or the check made without it), with --ecco
 * the opening tags from the moves, and then, with more than one thread,
 * the game written into memory (output_render), so that the output thread
 * only puts it in place.  With one, output_game writes it straight into
 * the output: writing each game apart first cost 2.4% more instructions
 * (convert -t ndjson -j 1 of 5 MB of PGN: 2,474,483,065 against
 * 2,416,929,129), for nothing to overlap. */
static void convert_process(void *ctx, void *worker, xq_batch_job *j)
{
	struct cctx *c = ctx;

	(void)worker;
	fix_game(&c->fix, j);
	if (c->ecco && ecco_tags_set(j))
		diag_job_tag(j, NULL, XQ_SEVERITY_ERROR, "io", "out of memory setting the ECCO tags");
	if (c->in.threads > 1)
		output_render(&c->out, j, j->data);
}

static int convert_emit(void *ctx, xq_batch_job *j)
{
	struct cctx *c = ctx;

	if (j->kind == XQ_BATCH_GAME) {
		fix_count(&c->fix, j);
		output_game(&c->out, j, j->data);
	}
	reporter_job(&c->rep, j, NULL);
	reporter_flush(&c->rep);
	return output_emit_status(&c->out);
}

static void summary_head(void *ctx, struct xq_buf *b)
{
	struct cctx *cc = ctx;

	xq_buf_addf(b, ",\"to\":\"%s\"", cc->out.to);
}

static void summary_json(void *ctx, struct xq_buf *b)
{
	struct cctx *cc = ctx;
	struct output *c = &cc->out;

	xq_buf_addf(b, ",\"written\":%llu,\"skipped\":%llu,\"with_losses\":%llu,\"kept_broken\":%llu,\"cut\":%llu,\"verified\":%llu,\"verify_failed\":%llu,\"stopped\":%s",
		    (unsigned long long)c->written,
		    (unsigned long long)c->skipped, (unsigned long long)c->lossy,
		    (unsigned long long)c->kept_broken, (unsigned long long)c->cut,
		    (unsigned long long)c->verified,
		    (unsigned long long)c->verify_failed, c->stop ? "true" : "false");
	fix_summary_json(&cc->fix, b);
}

static void summary_text(void *ctx, struct xq_buf *b, double secs)
{
	struct cctx *cc = ctx;
	struct output *c = &cc->out;
	struct reporter *r = &cc->rep;

	xq_buf_addf(b, " to %s: ", c->to);
	if (c->dry_run)
		xq_buf_addf(b, "dry run, nothing written");
	else if (c->stop && !c->dir_mode && !c->out_path)
		/* Games reached standard output up to where it stopped or
		 * failed (a file output is never renamed: `written` is 0 then). */
		xq_buf_addf(b, "stopped, standard output is incomplete: %llu written",
			    (unsigned long long)c->written);
	else
		xq_buf_addf(b, "%s%llu written", c->stop ? "stopped, " : "",
			    (unsigned long long)c->written);
	if (c->skipped)
		xq_buf_addf(b, ", %llu skipped", (unsigned long long)c->skipped);
	if (c->lossy)
		xq_buf_addf(b, ", %llu with losses", (unsigned long long)c->lossy);
	if (c->kept_broken)
		xq_buf_addf(b, ", %llu kept up to an error", (unsigned long long)c->kept_broken);
	if (c->cut)
		xq_buf_addf(b, ", %llu with a variation cut at an error", (unsigned long long)c->cut);
	if (c->verify)
		xq_buf_addf(b, ", %llu verified", (unsigned long long)c->verified);
	fix_summary_text(&cc->fix, b);
	reporter_unread_text(r, b);
	xq_buf_addf(b, " (%.2f s)\n", secs);
}

static const struct report_summary summary_parts = {.text_head = 1, .head = summary_head,
						    .json = summary_json, .text = summary_text};

static void print_summary(void *ctx, double secs)
{
	struct cctx *c = ctx;

	reporter_summary(&c->rep, secs, c->rep.games, &summary_parts, c);
}

/* One option of convert's own: 0, or -1 with the message in p->err. */
static int take_option(void *ctx, struct opt_parser *p, int id, const char *value)
{
	struct cctx *c = ctx;
	int rc = fix_take(&c->fix, p, id, value);

	if (id == O_ECCO) {
		c->ecco = 1;
		return 0;
	}
	if (rc)
		return rc < 0 ? -1 : 0;
	return output_take(&c->out, &c->in, p, id, value) < 0 ? -1 : 0;
}

/* What the options say together: 0, or -1 with the message in p->err. */
static int check_args(void *ctx, struct opt_parser *p)
{
	struct cctx *c = ctx;

	if (!c->out.to_name)
		return opt_error(p, "missing -t FORMAT (the format to write)");
	if (fix_check(&c->fix, p))
		return -1;
	c->out.dry_run = c->fix.dry_run;
	return output_check(&c->out, &c->in, p);
}

static const struct input_command command = {"convert", options, usage, summary, take_option,
					     check_args};

int cmd_convert(int argc, char **argv)
{
	struct opt_parser p;
	struct cctx c;
	struct inputs inputs;
	/* Numbered late: what output_render writes with a game's number or
	 * line, output_game puts right (output.h). */
	xq_batch_config cfg = {.process = convert_process, .emit = convert_emit, .ctx = &c,
				  .job_data = sizeof(struct output_ready), .late_numbers = 1};
	int rc;
	double t0;

	memset(&c, 0, sizeof(c));
	output_init(&c.out, "convert");
	fix_init(&c.fix);
	input_opts_init(&c.in);
	if ((rc = input_opts_command(&c.in, &p, argc, argv, &command, &c)) != OPT_RUN)
		goto out;
	if ((rc = input_opts_begin(&c.in, &c.rep, &inputs, &p)) != 0)
		goto out;
	t0 = cmd_now();
	if ((rc = output_prepare(&c.out, &inputs, &c.rep)) == 0) {
		if (input_opts_run(&c.in, &inputs, &cfg) == XQ_ENOMEM)
			c.out.io_error = 1;
		rc = output_finish(&c.out, &inputs, &c.rep, print_summary, &c, t0);
	} else {
		progress_stop();
	}
	inputs_release(&inputs);
out:
	opt_release(&p);
	output_release(&c.out);
	fix_release(&c.fix);
	reporter_release(&c.rep);
	return rc;
}
