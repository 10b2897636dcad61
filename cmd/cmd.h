/*
 * cmd.h: the subcommands and what they share.
 *
 * Adding a command: write `int cmd_<name>(int argc, char **argv)` in
 * cmd/<name>.c (argv[0] is the command name; the return value is the exit
 * status), declare it here, add a row to the table in cmd/main.c, add
 * man/xqkit-<name>.1 and golden cases under tests/cli/<name>/.
 */
#ifndef XQ_CMD_CMD_H
#define XQ_CMD_CMD_H

#include <stdio.h>

/* Exit statuses, the same for every command and in every man page. */
enum xq_exit {
	XQ_EXIT_OK = 0,      /* success */
	XQ_EXIT_INVALID = 1, /* the input was read but is invalid, or a check failed */
	XQ_EXIT_USAGE = 2,   /* bad arguments */
	XQ_EXIT_IO = 3,      /* I/O or system error */
	XQ_EXIT_BUG = 4      /* internal error: a bug in xqkit */
};

int cmd_annotate(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_validate(int argc, char **argv);

/* Print "xqkit: error: ..." (or warning) on stderr. */
void cmd_error(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;
void cmd_warning(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;

/* Report a usage error for `cmd` and return XQ_EXIT_USAGE. */
int cmd_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/*
 * Fault injection for the tests, the way git's GIT_TEST_* variables work:
 * true when the environment variable XQ_TEST_FAULT names `what`.  Known
 * faults: "verify" (convert --verify reads back half of what was written,
 * so that the internal-error path and exit status 4 can be tested).  Never
 * set outside the test suite.
 */
int cmd_test_fault(const char *what);

/* Seconds on a monotonic clock. */
double cmd_now(void);

/* Number of processors online (at least 1). */
int cmd_nproc(void);

#endif
