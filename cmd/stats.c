/*
 * stats.c: `xqkit stats`, what a collection holds, in one pass.
 *
 *   xqkit stats --by KEY INPUT...    a table: one row per value of KEY (an
 *                                    ECCO code, an opening, a player, an
 *                                    event, a year, any tag) with games,
 *                                    results, score, average length, dates
 *   xqkit stats --tree INPUT...      the moves played from a position, as
 *                                    deep as --depth, with counts and
 *                                    scores; --book writes them as a book
 *
 * Games are read on the pool's workers (-j), which work out what each game
 * adds (its keys, or the moves it played from the position); the output
 * thread adds it up in input order, so the figures never depend on -j.
 * Memory holds one row per distinct key (or one edge per distinct position
 * and move within the depth), never the games.
 *
 * A broken game (its reading stopped at an error) is counted: in its row,
 * in a `broken` column and in the totals, with the result its record gives;
 * only its plies, which stop at the error, are not averaged.
 *
 * This file is the command; the table (stats_by.c), the tree
 * (stats_tree.c), the book (stats_book.c) and what they stand on are
 * listed in stats.h.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "ecco_tags.h"
#include "inputs.h"
#include "opt.h"
#include <xq/batch.h>
#include "progress.h"
#include "report.h"
#include "stats.h"
#include <xq/buf.h>
#include <xq/ecco.h>
#include <xq/file.h>
#include <xq/memory.h>
#include <xq/position.h>
#include <xq/record.h>
#include <xq/utf8.h>

static const char usage[] =
	"xqkit stats [--by ecco|opening|player|event|year|TAG] [--ecco CODES] [--top N]\n"
	"                   [--format text|tsv|ndjson] [-r] [-j THREADS] [INPUT...]\n"
	"       xqkit stats --tree [--fen FEN | --moves MOVES] [--depth N] [--ecco CODES] [--top N]\n"
	"                   [--book OUT [--force]] [--format text|ndjson] [INPUT...]";
static const char summary[] =
	"Count the games of the inputs (files, directories with -r, '-' for standard\n"
	"input) by ECCO code, opening, player, event, year or any tag: games, Red\n"
	"wins, draws, Black wins, score, average plies, first and last date, sorted\n"
	"by count.  With --tree, every move played from a position (the start, a\n"
	"--fen, or after --moves) with its count, score for the side to move,\n"
	"average date and ECCO code, as deep as --depth; --book writes that tree as\n"
	"an opening book.  Broken games are counted, as broken.";

enum { O_BY = 'b', O_TOP = 'n', O_FORMAT = 'F', O_TREE = 'T', O_FEN = 'f', O_MOVES = 'm',
       O_DEPTH = 'd', O_BOOK = 'B', O_FORCE = 'o', O_ECCO = 'E' };

static const struct opt_spec options[] = {
	OPT_VALUE(O_BY, 0, "by", "KEY", "ecco (the default), opening, player, event, year or a tag name (Red, ECCO, ...)"),
	OPT_VALUE(O_ECCO, 0, "ecco", "CODES", "only games of these openings: C45, C4 (C40-C49), C, C10-C19, A,B1"),
	OPT_VALUE(O_TOP, 0, "top", "N", "only the N most frequent rows (with --tree: moves of each position)"),
	OPT_VALUE(O_FORMAT, 0, "format", "FMT", "text (the default), tsv or ndjson (diagnostics too, on stdout)"),
	OPT_FLAG(O_TREE, 0, "tree", "the moves played from a position instead of a table"),
	OPT_VALUE(O_FEN, 0, "fen", "FEN", "--tree: from this position (default: the start)"),
	OPT_VALUE(O_MOVES, 0, "moves", "MOVES", "--tree: from the position after these moves ('h2e2 h9g7', any notation)"),
	OPT_VALUE(O_DEPTH, 0, "depth", "N", "--tree: plies deep (default 1, at most 40)"),
	OPT_VALUE(O_BOOK, 0, "book", "OUT", "--tree: also write the tree as an opening book (xqkit-book/1)"),
	OPT_FLAG(O_FORCE, 0, "force", "replace an existing --book file"),
	OPT_INCLUDE(input_options),
	OPT_END,
};

static const char *const by_names[] = {"ecco", "opening", "player", "event", "year"};

/* ---- on the workers ---------------------------------------------------------------- */

static unsigned result_of(const xq_record *g)
{
	const char *r = xq_record_result(g);

	return !strcmp(r, "1-0") ? RES_RED_WINS : !strcmp(r, "0-1") ? RES_BLACK_WINS :
	       !strcmp(r, "1/2-1/2") ? RES_DRAW : RES_NONE;
}

static void stats_process(void *ctx, void *worker, xq_batch_job *j)
{
	struct sctx *c = ctx;
	const xq_record *g = j->record;

	/* What validate is for stays quiet here: only errors (what broke a
	 * game or an input) are said, unless -v. */
	if (!c->in.verbose)
		xq_diagnostics_keep(j->diags, XQ_SEVERITY_ERROR);
	j->flags = result_of(g) | (xq_record_is_broken(g) ? J_BROKEN : 0);
	j->counts[0] = xq_record_mainline_length(g);
	j->counts[1] = stats_date_value(xq_record_tag(g, "Date"));
	if (c->ecco) {
		struct ecco_opening e;
		if (!ecco_tags_classify(j, &e) || !xq_ecco_codes_has(c->codes, e.code)) {
			j->flags |= J_OUT;
			return;
		}
	}
	if (c->tree)
		stats_tree_process(c, j, worker);
	else
		stats_table_process(c, j);
}

/* ---- on the output thread ---------------------------------------------------------- */

static int stats_emit(void *ctx, xq_batch_job *j)
{
	struct sctx *c = ctx;

	reporter_job(&c->rep, j, NULL);
	if (j->kind == XQ_BATCH_GAME && (j->flags & J_OUT)) {
		c->left_out++;
	} else if (j->kind == XQ_BATCH_GAME) {
		c->games++;
		c->broken += (j->flags & J_BROKEN) != 0;
		c->no_result += (j->flags & J_RESULT) == RES_NONE;
		if (c->tree)
			stats_tree_emit(c, j);
		else
			stats_table_emit(c, j);
	}
	reporter_flush(&c->rep);
	return cmd_signal || c->nomem ? 1 : 0;
}

/* ---- options ----------------------------------------------------------------------- */

/* A tag name: a capital letter, then letters, digits and '_'. */
static int tag_name(const char *s)
{
	if (!(*s >= 'A' && *s <= 'Z'))
		return 0;
	for (s++; *s; s++)
		if (!xq_is_alpha((unsigned char)*s) && !xq_is_digit((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

static int take_by(struct sctx *c, struct opt_parser *p, const char *v)
{
	c->by_text = v;
	for (size_t i = 0; i < sizeof(by_names) / sizeof(by_names[0]); i++) {
		if (!strcmp(v, by_names[i])) {
			c->by = (enum by_key)i;
			return 0;
		}
	}
	if (tag_name(v) && strlen(v) <= 64) {
		c->by = BY_TAG;
		c->tag = v;
		return 0;
	}
	return opt_error(p, "unknown --by key '%.64s': give ecco, opening, player, event, year or a tag name (Red, Event, ECCO, ...)",
			 v);
}

static int take_option(void *ctx, struct opt_parser *p, int id, const char *value)
{
	struct sctx *c = ctx;
	long v;

	switch (id) {
	case O_BY: return take_by(c, p, value);
	case O_TOP:
		if ((v = opt_int(p, "--top", value, 1, 1000000000)) < 0)
			return -1;
		c->top = v;
		break;
	case O_FORMAT:
		if (!strcmp(value, "text"))
			c->out = OUT_TEXT;
		else if (!strcmp(value, "tsv"))
			c->out = OUT_TSV;
		else if (!strcmp(value, "ndjson"))
			c->out = OUT_NDJSON;
		else {
			return opt_error(p, "--format must be text, tsv or ndjson, not '%.64s'",
					 value);
		}
		/* Diagnostics go where the records go with ndjson, as text else. */
		c->in.fmt = c->out == OUT_NDJSON ? REPORT_NDJSON : REPORT_TEXT;
		break;
	case O_ECCO: {
		char why[200];
		size_t col;
		xq_ecco_codes_free(c->codes); /* the last --ecco counts */
		if (xq_ecco_codes_parse(&c->codes, value, &col, why, sizeof(why))) {
			if (!why[0])
				return opt_out_of_memory(p, "--ecco");
			return opt_error(p, "--ecco '%.40s', column %zu: %.160s", value, col, why);
		}
		c->ecco = 1;
		break;
	}
	case O_TREE: c->tree = 1; break;
	case O_FEN: c->fen = value; break;
	case O_MOVES: c->moves = value; break;
	case O_DEPTH:
		if ((v = opt_int(p, "--depth", value, 1, TREE_MAX_DEPTH)) < 0)
			return -1;
		c->depth = (int)v;
		break;
	case O_BOOK: c->book = value; break;
	case O_FORCE: c->force = 1; break;
	}
	return 0;
}

/* --moves played from the root: 0, or -1 naming the move that fails. */
static int play_moves(struct sctx *c, struct opt_parser *p)
{
	const char *s = c->moves;
	int n = 0;

	for (;;) {
		const char *t;
		size_t len;
		xq_move_code m;
		char *text;
		while (*s == ' ' || *s == '\t' || *s == ',')
			s++;
		if (!*s)
			return 0;
		for (t = s; *t && *t != ' ' && *t != '\t' && *t != ','; t++)
			;
		len = (size_t)(t - s);
		n++;
		if (!(text = strndup(s, len)))
			return opt_out_of_memory(p, "--moves");
		if (xq_position_read_move(c->root, text, XQ_DIALECT_AUTO, &m)) {
			opt_error(p, "--moves: move %d '%.*s' (column %d): %.160s", n,
				  (int)(len > 32 ? 32 : len), s, (int)xq_utf8_count(c->moves, (size_t)(s - c->moves)) + 1,
				  xq_diagnostic_message(xq_position_error(c->root)));
			free(text);
			return -1;
		}
		free(text);
		if (c->root_plies < ECCO_PLIES)
			c->root_line[c->root_plies++] = m;
		xq_position_play(c->root, m);
		s = t;
	}
}

/* What the options say together: 0, or -1 with the message in p->err. */
static int check_args(void *ctx, struct opt_parser *p)
{
	struct sctx *c = ctx;

	if (!c->tree && (c->fen || c->moves || c->depth || c->book || c->force))
		return opt_error(p, "%s needs --tree",
				 c->fen ? "--fen" : c->moves ? "--moves" : c->depth ? "--depth" : c->book ? "--book" : "--force");
	if (c->tree && c->by_text)
		return opt_error(p, "--by and --tree are two different reports: give one");
	if (c->tree && c->out == OUT_TSV)
		return opt_error(p, "--tree writes text or ndjson, not tsv");
	if (c->force && !c->book)
		return opt_error(p, "--force replaces a --book file: give --book");
	if (!c->by_text)
		c->by_text = "ecco";
	if (!c->depth)
		c->depth = 1;
	if (!(c->root = xq_position_new()) || !(c->scratch = xq_position_new()))
		return opt_out_of_memory(p, "the options");
	if (c->fen && xq_position_set_fen_lenient(c->root, c->fen)) {
		const xq_diagnostic *d = xq_position_error(c->root);
		return opt_error(p, "--fen, column %llu: %.200s",
				 (unsigned long long)xq_diagnostic_column(d), xq_diagnostic_message(d));
	}
	if (c->moves && play_moves(c, p))
		return -1;
	xq_position_fen(c->root, c->root_fen, sizeof(c->root_fen));
	c->root_pieces = stats_count_pieces(c->root);
	return input_opts_check(&c->in, p);
}

static const struct input_command command = {"stats", options, usage, summary, take_option,
					     check_args};

/* ---- the run ----------------------------------------------------------------------- */

static void summary_json(void *ctx, struct xq_buf *b)
{
	struct sctx *c = ctx;

	xq_buf_addf(b, ",\"broken_games\":%llu,\"no_result\":%llu",
		    (unsigned long long)c->broken, (unsigned long long)c->no_result);
	if (c->ecco)
		xq_buf_addf(b, ",\"left_out\":%llu", (unsigned long long)c->left_out);
	if (c->tree)
		xq_buf_addf(b, ",\"fen\":\"%s\",\"position_games\":%llu,\"moves\":%llu",
			    c->root_fen, (unsigned long long)c->root_games,
			    (unsigned long long)c->nedges);
	else
		xq_buf_addf(b, ",\"rows\":%llu,\"rows_shown\":%llu",
			    (unsigned long long)c->nrows, (unsigned long long)c->shown);
}

static void summary_text(void *ctx, struct xq_buf *b, double secs)
{
	struct sctx *c = ctx;
	struct reporter *r = &c->rep;

	xq_buf_addf(b, " (%llu broken, %llu without a result)", (unsigned long long)c->broken,
		    (unsigned long long)c->no_result);
	if (c->ecco)
		xq_buf_addf(b, ", %llu of other openings left out", (unsigned long long)c->left_out);
	if (c->tree) {
		xq_buf_adds(b, "; ");
		report_plural(b, c->root_games, "game reaches", "games reach");
		xq_buf_adds(b, " the position, ");
		report_plural(b, c->nedges, "move", "moves");
		xq_buf_addf(b, " within %d %s", c->depth, c->depth == 1 ? "ply" : "plies");
	} else {
		xq_buf_adds(b, "; ");
		report_plural(b, c->nrows, "row", "rows");
		if (c->shown < c->nrows)
			xq_buf_addf(b, ", the top %llu shown", (unsigned long long)c->shown);
	}
	xq_buf_addf(b, " (%.2f s)\n", secs);
	if (r->skipped_files) {
		report_plural(b, r->skipped_files, "file", "files");
		xq_buf_adds(b, " skipped (not game records)\n");
	}
	reporter_counts_text(r, b);
	if (c->stopped)
		xq_buf_adds(b, "stopped early: not every game was counted\n");
}

static const struct report_summary summary_parts = {.text_head = 1, .json = summary_json,
						    .text = summary_text};

/* What the options made (parse_args, check_args). */
static void free_options(struct sctx *c)
{
	xq_ecco_codes_free(c->codes);
	xq_position_free(c->root);
	xq_position_free(c->scratch);
	c->codes = NULL;
	c->root = c->scratch = NULL;
}

static void sctx_release(struct sctx *c)
{
	for (size_t i = 0; i < c->nrows; i++)
		free(c->rows[i].key);
	free(c->rows);
	free(c->edges);
	free(c->slots);
	free_options(c);
	reporter_release(&c->rep);
}

int cmd_stats(int argc, char **argv)
{
	struct opt_parser p;
	struct sctx c;
	struct inputs inputs;
	/* Numbers and lines reach the output only through the games and
	 * their diagnostics, which the pool puts right (<xq/batch.h>). */
	xq_batch_config cfg = {.process = stats_process, .emit = stats_emit, .ctx = &c,
				  .worker_init = cmd_position_worker_init, .worker_fini = cmd_position_worker_fini,
				  .late_numbers = 1};
	int rc;
	double t0;

	memset(&c, 0, sizeof(c));
	input_opts_init(&c.in);
	if ((rc = input_opts_command(&c.in, &p, argc, argv, &command, &c)) != OPT_RUN) {
		free_options(&c);
		return rc;
	}
	if (c.tree)
		cfg.job_data = sizeof(struct tree_job);
	t0 = cmd_now();
	if ((rc = input_opts_begin(&c.in, &c.rep, &inputs, &p)) == 0) {
		if ((rc = stats_plan_book(&c, &inputs)) == 0) {
			if (input_opts_run(&c.in, &inputs, &cfg) == XQ_ENOMEM)
				c.rep.io_error = 1;
			if (c.nomem) {
				cmd_error("out of memory counting the games: the tables are not written");
				c.rep.io_error = 1;
			} else if (!cmd_signal && c.tree) {
				rc = stats_write_tree(&c);
			} else if (!cmd_signal) {
				c.shown = stats_write_table(&c);
			}
		} else {
			progress_stop();
		}
		inputs_release(&inputs);
		if (cmd_signal)
			cmd_error("interrupted: nothing is written%s", c.book ? " (no book either)" : "");
		if (rc != CMD_EXIT_USAGE) {
			c.stopped = c.nomem || cmd_signal;
			reporter_summary(&c.rep, cmd_now() - t0, c.games, &summary_parts, &c);
		}
		if (cmd_signal)
			rc = cmd_signal_status();
		else if (!rc)
			rc = reporter_status(&c.rep, 0);
	}
	sctx_release(&c);
	opt_release(&p);
	return rc;
}
