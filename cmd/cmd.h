/*
 * cmd.h: the subcommands and what they share.
 *
 * Adding a command: write `int cmd_<name>(int argc, char **argv)` in
 * cmd/<name>.c (argv[0] is the command name; the return value is the exit
 * status), declare it here, add a row to the table in cmd/main.c, add
 * man/xqkit-<name>.1 (its EXIT STATUS rows in tests/exit-status.tsv) and
 * golden cases under tests/cli/<name>/.  Build it on the skeleton the
 * commands share: opt_command() (opt.h) reads the command line, or
 * input_opts_command() (inputs.h) for a command that reads collections,
 * with input_opts_begin() to start its run; reporter_summary() and
 * reporter_status() (report.h) write its summary and pick its status.
 */
#ifndef CMD_CMD_H
#define CMD_CMD_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>

#include <xq/io.h>

/* Exit statuses, the same for every command and in every man page. */
enum cmd_exit {
	CMD_EXIT_OK = 0,      /* success */
	CMD_EXIT_INVALID = 1, /* the input was read but is invalid, or a check failed */
	CMD_EXIT_USAGE = 2,   /* bad arguments */
	CMD_EXIT_IO = 3,      /* I/O or system error */
	CMD_EXIT_BUG = 4      /* internal error: a bug in xqkit */
};

int cmd_annotate(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_dedupe(int argc, char **argv);
int cmd_find(int argc, char **argv);
int cmd_merge_summaries(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_stats(int argc, char **argv);
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

/* Report a usage error for `cmd` and return CMD_EXIT_USAGE. */
int cmd_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/*
 * Fault injection for the tests, the way git's GIT_TEST_* variables work:
 * true when the environment variable XQ_TEST_FAULT names `what`.  Known
 * faults: "verify" (convert --verify reads back half of what was written,
 * so that the internal-error path and exit status 4 can be tested);
 * "pool-nomem" (xq_batch_run() finds no memory for its workers, as under a
 * tight limit, which sanitizer builds cannot impose); "named-temp" (output
 * files are written to temporary files with a name, as on a file system
 * without O_TMPFILE: formats/io.h).  Never set outside the test suite.
 */
int cmd_test_fault(const char *what);

/*
 * Stopping on a signal, the same way in every command that writes or
 * reads for long (perft keeps the default actions: it has nothing to
 * clean up).  cmd_catch_signals() sets one handler for SIGINT, SIGTERM
 * and SIGHUP that only records the signal: in cmd_signal (which every loop
 * of the main thread over inputs, games or plies looks at), in cmd_stop
 * (the cancel flag of <xq/io.h> that analysers poll) and in
 * cmd_cancel, another: the cancel flag of every input read (the batch's
 * readers look at it before each read, and every 100 ms while they wait
 * on a silent pipe, so they stop within a second whatever they read;
 * cmd_reading_canceled() says whether it is set).  A command that must read on
 * after the first signal (annotate --resume, copying the games of its
 * earlier output) sets cmd_keep_reading: then cmd_cancel is left alone
 * until the command sets it (and calls cmd_arm_deadline()).  A signal
 * that was ignored when xqkit started stays ignored (nohup, and the
 * background jobs of a script, ask for that).  The command removes its
 * temporary files, says what was kept, and returns cmd_signal_status();
 * main() then ends xqkit by the same signal, so the caller sees 128 + its
 * number (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP) and a shell
 * loop stops as it should.
 *
 * Whatever a thread is doing (a write to a full pipe on a worker, which
 * no signal reaches, a wait nobody ends), the first signal also arms a
 * deadline: CMD_DEADLINE_MS later, a process still running is ended at
 * once by that signal, as a second signal ends it at once; then only the
 * temporary files the kernel keeps unnamed (O_TMPFILE) are sure to go.
 */
extern volatile sig_atomic_t cmd_signal, cmd_keep_reading;
/* Made by cmd_catch_signals() (NULL after it only when memory ran out). */
extern xq_cancel *cmd_stop, *cmd_cancel;
void cmd_catch_signals(void);
#define CMD_DEADLINE_MS 900
/* Arm the deadline (annotate, when its reading after the first signal
 * ends); the first signal arms it itself otherwise. */
void cmd_arm_deadline(void);
int cmd_reading_canceled(void);
/* 128 + the signal received (call it only when cmd_signal is set). */
int cmd_signal_status(void);
/* End the process by the signal received, after everything is flushed:
 * returns only if the signal did not end it. */
void cmd_die_by_signal(void);

/* worker_init and worker_fini of a batch (<xq/batch.h>) whose workers
 * each need a position of their own (an xq_position, <xq/position.h>, is
 * the worker's state): stats' tree, dedupe's hashes, find's matches. */
int cmd_position_worker_init(void *ctx, int id, void **worker);
void cmd_position_worker_fini(void *ctx, void *worker);

/* Seconds on a monotonic clock. */
double cmd_now(void);

/* Number of processors online (at least 1). */
int cmd_nproc(void);

#endif
