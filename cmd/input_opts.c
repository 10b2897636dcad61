/*
 * input_opts.c: the options every collection command shares, parsed and
 * checked once (see inputs.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "inputs.h"
#include "progress.h"
#include <xq/batch.h>
#include <xq/memory.h>
#include <xq/rules.h>

enum {
	I_RECURSIVE = OPT_ID_SHARED, I_FILES0, I_FROM, I_ENCODING, I_ENCODING_OLD, I_JOBS,
	I_QUIET, I_VERBOSE, I_PROGRESS, I_COLOR, I_FORMAT, I_RULES, I_SHARD, I_MAX_GAME, I_HELP
};

const struct opt_spec input_options[] = {
	OPT_FLAG(I_RECURSIVE, 'r', "recursive", "read the record files in directories, and below"),
	OPT_VALUE(I_FILES0, 0, "files0-from", "FILE", "also read the inputs named in FILE, NUL-separated ('-': stdin)"),
	OPT_VALUE(I_FROM, 0, "from", "FORMAT", "read every input as FORMAT (default: detect)"),
	OPT_VALUE(I_ENCODING, 0, "input-encoding", "ENC", "text encoding of the inputs (default: detect)"),
	OPT_VALUE(I_JOBS, 'j', "jobs", "THREADS", "read on this many threads, big files too (default 1)"),
	OPT_VALUE(I_SHARD, 0, "shard", "K/N", "read only shard K of N: every Nth input file, or game of one file"),
	OPT_MAX_MEMORY,
	OPT_VALUE(I_MAX_GAME, 0, "max-game-size", "SIZE", "largest game read (K, M, G; default each format's own, 4M a PGN game); a larger one is reported and skipped"),
	OPT_FLAG(I_QUIET, 'q', "quiet", "only warnings and errors: no notes, progress or summary"),
	OPT_FLAG(I_VERBOSE, 'v', "verbose", "also say what was skipped and written"),
	OPT_FLAG(I_PROGRESS, 0, "progress", "show progress even when stderr is not a terminal"),
	OPT_VALUE(I_COLOR, 0, "color", "WHEN", "colour on a terminal: auto (default), always or never"),
	OPT_VALUE(I_FORMAT, 0, "format", "FMT", "diagnostics as text (stderr, the default) or ndjson (stdout)"),
	OPT_FLAG(I_HELP, 'h', "help", "show this help"),
	OPT_END,
};

const struct opt_spec rules_options[] = {
	OPT_VALUE(I_RULES, 0, "rules", "SET", "repetition rules: asian (default), chinese or none"),
	OPT_END,
};

const struct opt_spec input_encoding_alias[] = {
	OPT_VALUE(I_ENCODING_OLD, 0, "encoding", "ENC", NULL),
	OPT_END,
};

void input_opts_init(struct input_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->read_options = (xq_read_options)XQ_READ_OPTIONS_INIT;
	o->threads = 1;
	o->progress = 1;
	o->ruleset = XQ_RULESET_ASIAN;
	o->rules_on = 1;
	o->shard_k = 1;
	o->shard_n = 1;
}

void input_opts_alias(struct input_opts *o, const char *old, const char *now)
{
	if (o->warned_alias)
		return;
	o->warned_alias = 1;
	cmd_warning("%s is an old spelling of %s, which it means here", old, now);
}

static int take_color(struct input_opts *o, struct opt_parser *p, const char *value)
{
	static const char *const names[] = {"auto", "always", "never", NULL};
	static const enum color_when when[] = {COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER};
	int i = opt_choice(p, "--color", value, names);

	if (i < 0)
		return -1;
	o->color = when[i];
	return 0;
}

/* --max-game-size SIZE: a size of at least 1 KiB (a byte count, or K, M, G). */
static int take_max_game(struct input_opts *o, struct opt_parser *p, const char *value)
{
	uint64_t v;

	if (xq_size_parse(value, &v) || v < 1024)
		return opt_error(p, "--max-game-size '%s': a size of at least 1K is needed (a number of bytes, "
				 "or with K, M or G)",
				 value);
	o->read_options.max_game_size = v;
	return 0;
}

/* --shard K/N: two whole numbers, 1 <= K <= N <= SHARD_MAX. */
#define SHARD_MAX 1000000
static int take_shard(struct input_opts *o, struct opt_parser *p, const char *value)
{
	const char *slash = strchr(value, '/');
	char *end;
	long k = 0, n = 0;

	errno = 0;
	if (slash && value[0] >= '0' && value[0] <= '9') {
		k = strtol(value, &end, 10);
		if (end == slash && slash[1] >= '0' && slash[1] <= '9')
			n = strtol(slash + 1, &end, 10);
	}
	if (errno || n < 1 || !slash || *end || k < 1 || k > n || n > SHARD_MAX)
		return opt_error(p, "--shard must be K/N, whole numbers with 1 <= K <= N <= %d, not '%s'",
				 SHARD_MAX, value);
	o->shard_k = (uint64_t)k;
	o->shard_n = (uint64_t)n;
	return 0;
}

int input_opts_take(struct input_opts *o, struct opt_parser *p, int id, const char *value)
{
	long v;
	const char *name;

	switch (id) {
	case I_RECURSIVE: o->recursive = 1; return 1;
	case I_FILES0: o->files0 = value; return 1;
	case I_FROM:
		o->read_options.format = format_by_name(value, 0, p->err, sizeof(p->err));
		return o->read_options.format ? 1 : -1;
	case I_ENCODING_OLD:
		input_opts_alias(o, "--encoding", "--input-encoding");
		/* fall through */
	case I_ENCODING:
		if (opt_encoding(p, value, &name))
			return -1;
		o->read_options.encoding = name;
		return 1;
	case I_JOBS:
		if ((v = opt_int(p, "--jobs", value, 1, 64)) < 0)
			return -1;
		o->threads = (int)v;
		return 1;
	case I_QUIET: o->quiet = 1; o->progress = 0; return 1;
	case I_VERBOSE: o->verbose = 1; return 1;
	case I_PROGRESS: o->progress = 2; return 1;
	case I_COLOR: return take_color(o, p, value) ? -1 : 1;
	case I_SHARD: return take_shard(o, p, value) ? -1 : 1;
	case I_MAX_GAME: return take_max_game(o, p, value) ? -1 : 1;
	case I_FORMAT:
		return report_format_parse(value, &o->fmt, p->err, sizeof(p->err)) ? -1 : 1;
	case I_RULES:
		return opt_rules(p, value, 1, &o->rules_on, &o->ruleset) ? -1 : 1;
	default:
		return 0;
	}
}

/* What input_opts_command() hands opt_command() to parse with. */
struct command_line {
	struct input_opts *o;
	const struct input_command *cmd;
	void *ctx;
};

static int parse_command(void *line, struct opt_parser *p)
{
	const struct command_line *l = line;
	const struct input_command *cmd = l->cmd;
	const char *value;
	int id, rc;

	while ((rc = opt_next(p, cmd->options, &id, &value)) > 0) {
		if ((rc = input_opts_take(l->o, p, id, value)) < 0)
			return -1;
		if (rc > 0)
			continue;
		if (id == I_HELP) {
			opt_print_help(stdout, cmd->usage, cmd->summary, cmd->options);
			return 1;
		}
		if (cmd->take(l->ctx, p, id, value))
			return -1;
	}
	return rc < 0 ? -1 : cmd->check(l->ctx, p);
}

int input_opts_command(struct input_opts *o, struct opt_parser *p, int argc, char **argv,
		       const struct input_command *cmd, void *ctx)
{
	struct command_line l = {o, cmd, ctx};

	return opt_command(p, argc, argv, cmd->name, parse_command, &l);
}

/* The run id (inputs.h): 0, or -1 with p->err. */
static int take_run_id(struct input_opts *o, struct opt_parser *p)
{
	const char *id = getenv("XQKIT_RUN_ID");
	size_t n = id ? strlen(id) : 0;

	if (!n) {
		char job[OPT_JOB_ID_SIZE];
		opt_job_id(p, job);
		snprintf(o->run_id, sizeof(o->run_id), "%s", job);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)id[i] < 0x20 || (unsigned char)id[i] >= 0x7F)
			n = INPUT_RUN_ID_MAX + 1;
	if (n > INPUT_RUN_ID_MAX)
		return opt_error(p, "XQKIT_RUN_ID must be at most %d printable ASCII characters", INPUT_RUN_ID_MAX);
	memcpy(o->run_id, id, n + 1);
	return 0;
}

int input_opts_check(struct input_opts *o, struct opt_parser *p)
{
	if (take_run_id(o, p))
		return -1;
	o->read_options.max_memory = p->max_memory;
	if (o->quiet && o->progress == 2)
		o->progress = 0;
	if (p->noperands == 0 && !o->files0 && isatty(0))
		return opt_error(p, "no input (give files, or '-' to read standard input)");
	return 0;
}

/*
 * How --shard divides the work: by game when the inputs are one file (a
 * single operand that is standard input or not a directory, and no
 * --files0-from), by input file otherwise.  Known from the command line
 * alone, so that every shard decides the same.
 */
static int shard_by_game(const struct input_opts *o, const struct opt_parser *p)
{
	struct stat st;

	if (o->files0 || p->noperands > 1)
		return 0;
	if (p->noperands == 0 || inputs_is_stdin(p->operands[0]))
		return 1;
	return stat(p->operands[0], &st) == 0 && !S_ISDIR(st.st_mode);
}

int input_opts_start(struct input_opts *o, struct inputs *it, struct opt_parser *p,
		     const char *cmd)
{
	struct report_message m = {""};
	int progress = o->progress;

	o->shard_by_game = o->shard_n > 1 && shard_by_game(o, p);

	if (inputs_check_operands(p->operands, p->noperands, o->recursive, report_keep_message,
				  &m) == CMD_EXIT_USAGE)
		return cmd_usage_error(cmd, "%s", m.msg);
	if (inputs_start(it, p->operands, p->noperands, o->recursive, o->files0, report_keep_message,
			 &m)) {
		cmd_error("%s", m.msg);
		return CMD_EXIT_IO;
	}
	/* Sharded by file, the inputs' total is not this shard's to read. */
	progress_start(progress, cmd,
		       progress && (progress == 2 || isatty(2)) &&
		       (o->shard_n == 1 || o->shard_by_game) ? inputs_total_size(it) : -1);
	return 0;
}

int input_opts_begin(struct input_opts *o, struct reporter *rep, struct inputs *it,
		     struct opt_parser *p)
{
	reporter_init(rep, p->cmd, o);
	cmd_catch_signals();
	return input_opts_start(o, it, p, p->cmd);
}

/* The inputs, for xq_batch_run(). */
static int next_input(void *it, char **path, int *in_dir, xq_diagnostic_fn fn, void *user)
{
	return inputs_next(it, path, in_dir, fn, user);
}

/* The progress line, drawn on the batch's output thread. */
static void show_progress(void *ctx, uint64_t games, uint64_t bytes)
{
	(void)ctx;
	progress_update(games, bytes);
}

/*
 * For the tests only: XQ_TEST_SPLIT=MIN,GAMES,BYTES cuts inputs from MIN
 * bytes on into chunks of GAMES games or BYTES bytes (xq_batch_config's
 * split_min, chunk_games, chunk_bytes), so that a test sees a file cut
 * into many chunks without writing megabytes (tests/split-numbers.sh).
 * A command that sets its own (annotate: one game a chunk) keeps them.
 */
static void test_split(xq_batch_config *cfg)
{
	const char *v = getenv("XQ_TEST_SPLIT");
	unsigned long long min, games, bytes;
	char *end;

	if (!v || cfg->split_min)
		return;
	min = strtoull(v, &end, 10);
	if (*end++ != ',')
		return;
	games = strtoull(end, &end, 10);
	if (*end++ != ',')
		return;
	bytes = strtoull(end, &end, 10);
	if (*end || !min || !games || !bytes)
		return;
	cfg->split_min = (int64_t)min;
	cfg->chunk_games = games;
	cfg->chunk_bytes = bytes;
}

int input_opts_run(const struct input_opts *o, struct inputs *it, xq_batch_config *cfg)
{
	int rc;

	cfg->size = sizeof(*cfg); /* the command's part was given by designated initializers */
	cfg->threads = o->threads;
	cfg->next_input = next_input;
	cfg->inputs = it;
	cfg->read_options = o->read_options;
	cfg->read_options.cancel = cmd_cancel;
	cfg->format_hint = " (name one with --from)";
	cfg->progress = progress_enabled() ? show_progress : NULL;
	cfg->shard_k = o->shard_k;
	cfg->shard_n = o->shard_n;
	cfg->shard_by_game = o->shard_by_game;
	cfg->tune_malloc = 1;
	test_split(cfg);
	rc = cmd_test_fault("pool-nomem") ? XQ_ENOMEM : xq_batch_run(cfg);
	progress_stop();
	if (rc == XQ_ENOMEM)
		cmd_error("out of memory reading the inputs");
	return rc;
}
