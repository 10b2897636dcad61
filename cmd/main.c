/*
 * main.c: the xqkit entry point and its one command table.
 *
 * main() finds the command, runs it, and then makes sure everything the
 * command wrote to standard output really reached it: a full disk or a
 * closed pipe becomes exit status 3 instead of a silently truncated
 * result.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "report.h"
#include <xq/io.h>

#ifndef XQ_VERSION
#define XQ_VERSION "0.0.0"
#endif
#ifndef XQ_GIT
#define XQ_GIT "unknown"
#endif

struct cmd_entry {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);

/* Sorted by name. */
static const struct cmd_entry commands[] = {
	{"annotate", cmd_annotate, "engine scores and ?! ? ?? marks for every move, as PGN or NDJSON"},
	{"convert", cmd_convert, "convert game records between formats, reporting what is lost"},
	{"dedupe", cmd_dedupe, "find the copies of the same game, or write one copy of each"},
	{"find", cmd_find, "select games by tags, position, material, moves, ECCO or problems"},
	{"help", cmd_help, "show help for xqkit or for one command"},
	{"merge-summaries", cmd_merge_summaries, "merge the NDJSON summaries of the shards of one job into one run's"},
	{"perft", cmd_perft, "count the move tree, to prove and measure the move generator"},
	{"replay", cmd_replay, "play a game ply by ply: moves, FENs, boards, SVG diagrams"},
	{"stats", cmd_stats, "count games by opening, player, event, year or tag; the tree of moves played"},
	{"validate", cmd_validate, "check every game of record files and report each problem"},
	{"version", cmd_version, "print the version"},
};

static const struct cmd_entry *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void print_overview(FILE *f)
{
	fprintf(f, "usage: xqkit <command> [options] [arguments]\n"
		   "       xqkit help <command>\n"
		   "       xqkit help formats\n"
		   "       xqkit --version\n\n"
		   "xqkit reads, checks, converts and analyses xiangqi (Chinese chess) game records.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-15s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nexit status: 0 success, 1 invalid input or failed check, 2 usage error,\n"
		   "3 I/O or system error, 4 internal error, 128 + N stopped by signal N\n"
		   "(130 Ctrl-C, 143 SIGTERM).  See xqkit(1).\n");
}

/* `xqkit help formats`: every format of the registry, what xqkit does
 * with it, how many games a file holds, its extensions. */
static int print_formats(void)
{
	const char *name, *description, *extensions, *aliases;
	unsigned caps;
	int w = 14; /* the extensions column: as wide as the longest list */
	int others = 0;

	for (size_t i = 0; xq_format_names(i, &extensions, NULL) == 0; i++)
		if ((int)strlen(extensions) > w)
			w = (int)strlen(extensions);
	printf("formats (the names -t, --to and --from take; the input's format is found\n"
	       "from its content, its extension breaking ties):\n\n"
	       "  name     read  write  games  %-*s description\n", w, "extensions");
	for (size_t i = 0; xq_format_info(i, &name, &description, &caps) == 0; i++) {
		xq_format_names(i, &extensions, NULL);
		printf("  %-8s %-5s %-6s %-6s %-*s %s\n", name, (caps & XQ_FORMAT_READS) ? "yes" : "no",
		       (caps & XQ_FORMAT_WRITES) ? "yes" : "no", (caps & XQ_FORMAT_MULTI) ? "many" : "one", w,
		       extensions, description ? description : "");
	}
	/* The other names a format answers to, as -t, --to and --from take them. */
	for (size_t i = 0; xq_format_info(i, &name, NULL, NULL) == 0; i++)
		if (xq_format_names(i, NULL, &aliases) == 0 && *aliases)
			printf("%s%s for %s", others++ ? "; " : "\nOther names: ", aliases, name);
	if (others)
		printf(".\n");
	printf("\nA format that holds one game per file is written with -o DIR/ when there\n"
	       "are several games.  See xqkit-convert(1).\n");
	return CMD_EXIT_OK;
}

static int cmd_help(int argc, char **argv)
{
	const struct cmd_entry *c;
	char *help_argv[3];

	if (argc < 2) {
		print_overview(stdout);
		return CMD_EXIT_OK;
	}
	if (!strcmp(argv[1], "formats"))
		return print_formats();
	c = find_command(argv[1]);
	if (!c) {
		cmd_error("'%s' is not an xqkit command", argv[1]);
		print_overview(stderr);
		return CMD_EXIT_USAGE;
	}
	if (c->fn == cmd_help || c->fn == cmd_version) {
		print_overview(stdout);
		return CMD_EXIT_OK;
	}
	help_argv[0] = (char *)c->name;
	help_argv[1] = (char *)"--help";
	help_argv[2] = NULL;
	return c->fn(2, help_argv);
}

static int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("xqkit %s (%s)\n", XQ_VERSION, XQ_GIT);
	return CMD_EXIT_OK;
}

/*
 * The end of every command: everything written to standard output must have
 * reached it (a write error must not look like success), an internal
 * error seen anywhere ends with CMD_EXIT_BUG, whatever else happened, and a
 * run stopped by a signal ends by that signal (cmd.h).
 */
static int finish(int status)
{
	/* A run a signal stopped says so itself: a write to standard output
	 * that the signal interrupted is no news. */
	int stopped = cmd_signal && status == cmd_signal_status();

	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (!stopped) {
			cmd_error("cannot write to standard output: %s", strerror(errno));
			status = CMD_EXIT_IO;
		}
	} else if (fclose(stdout) != 0 && !stopped) {
		cmd_error("cannot close standard output: %s", strerror(errno));
		status = CMD_EXIT_IO;
	}
	if (report_output_lost()) {
		cmd_error("out of memory: some output was not written");
		if (status != CMD_EXIT_BUG && !stopped)
			status = CMD_EXIT_IO;
	}
	if (report_bug_seen()) {
		cmd_error("internal error: this is a bug in xqkit %s; please report it with the "
			  "command and the input that showed it",
			  XQ_VERSION);
		status = CMD_EXIT_BUG;
	}
	/* Stopped by a signal: end by it (the caller sees 128 + its number). */
	if (stopped && status == cmd_signal_status())
		cmd_die_by_signal();
	return status;
}

int main(int argc, char **argv)
{
	const struct cmd_entry *c;

	if (argc < 2) {
		print_overview(stderr);
		return CMD_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return finish(cmd_help(1, argv));
	if (!strcmp(argv[1], "--version"))
		return finish(cmd_version(1, argv));
	c = find_command(argv[1]);
	if (!c) {
		cmd_error("'%s' is not an xqkit command; see 'xqkit help'", argv[1]);
		return CMD_EXIT_USAGE;
	}
	return finish(c->fn(argc - 1, argv + 1));
}
