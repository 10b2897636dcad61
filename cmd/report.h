/*
 * report.h: diagnostics as people and programs read them.
 *
 * Text (stderr), in GNU form, one line each:
 *
 *     FILE:LINE:COL: SEVERITY: game G, ply P (MOVE): MESSAGE [CODE]
 *     FILE: byte OFFSET: SEVERITY: ...          (binary formats)
 *
 * with the parts that do not apply left out.  NDJSON (stdout), one object
 * per diagnostic, schema "xqkit.diag/1" (doc/ndjson.md).  Both are valid
 * UTF-8 whatever the input: a byte of a file name that is not UTF-8 is
 * written as the four characters \xNN, never passed through.
 */
#ifndef CMD_REPORT_H
#define CMD_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include <xq/buf.h>
#include <xq/error.h>
#include <xq/batch.h>

#define REPORT_DIAG_SCHEMA "xqkit.diag/1"
#define REPORT_SUMMARY_SCHEMA "xqkit.summary/1"

enum report_format { REPORT_TEXT, REPORT_NDJSON };

/* Parse "text" or "ndjson" for --format; -1 if neither, with the message
 * for the user in err. */
int report_format_parse(const char *s, enum report_format *out, char *err, size_t errlen);

/* Append `len` bytes of `s`, with bytes that are not UTF-8 and control
 * characters written as \xNN. */
int report_add_safe(struct xq_buf *b, const char *s, size_t len);
/* The same inside a JSON string (quotes added). */
int report_add_json_safe(struct xq_buf *b, const char *s);

/* One diagnostic as a text line (with the newline); `binary` prefers the
 * byte offset to line and column. */
int report_text(struct xq_buf *b, const xq_diagnostic *d, int binary);
/* The same with the severity word coloured (for a terminal). */
int report_text_color(struct xq_buf *b, const xq_diagnostic *d, int binary, int color);
/* One diagnostic as an "xqkit.diag/1" JSON line (with the newline). */
int report_json(struct xq_buf *b, const xq_diagnostic *d, int binary);

/*
 * The message of a diagnostic the public API reports, for cmd_error():
 * report_keep_message() is an xq_diagnostic_fn whose `user` is a struct
 * report_message, and keeps the last message it is given.  Start from
 * {""}.  (Inline: the unit tests that build report.c link the library
 * without its public API.)
 */
struct report_message {
	char msg[XQ_MESSAGE_SIZE];
};
static inline void report_keep_message(const xq_diagnostic *d, void *user)
{
	struct report_message *m = user;

	snprintf(m->msg, sizeof(m->msg), "%s", xq_diagnostic_message(d));
}

/*
 * The diagnostics of one game (or input): the public list of
 * <xq/error.h>, made when the first is added, so that a zeroed
 * diag_list is an empty one and costs nothing.  The functions are those
 * of the list; add is 0 or XQ_ENOMEM.
 */
struct diag_list {
	xq_diagnostics *l;
};
int diag_list_add(struct diag_list *l, const xq_diagnostic *d);
/* The list itself, made if it was not (NULL when out of memory): to add
 * to it with the library's functions (xq_diagnostics_report()). */
xq_diagnostics *diag_list_made(struct diag_list *l);
size_t diag_list_count(const struct diag_list *l);
const xq_diagnostic *diag_list_at(const struct diag_list *l, size_t i);
void diag_list_truncate(struct diag_list *l, size_t n);
void diag_list_set_severity(struct diag_list *l, size_t i, int severity);
void diag_list_move(struct diag_list *l, size_t i, size_t to);
/* Keep only the diagnostics of `severity` (XQ_SEVERITY_* of <xq/error.h>)
 * or above, in their order. */
void diag_list_keep(struct diag_list *l, int severity);
/* Count the diagnostics of `l` from index `from` on by severity into
 * sev[XQ_SEVERITY_*] (added to what is there). */
void diag_severities(const xq_diagnostics *l, size_t from, uint64_t sev[3]);
void diag_list_clear(struct diag_list *l);
void diag_list_release(struct diag_list *l);

/* Counts by severity and by code (xq_diagnostic_code_index()), for
 * summaries; REPORT_CODES is more than the library's codes (a unit test
 * checks it). */
#define REPORT_CODES 64
struct report_counts {
	uint64_t by_sev[3];
	uint64_t by_code[REPORT_CODES];
	uint64_t by_code_sev[REPORT_CODES][3];
};
void report_count(struct report_counts *c, const xq_diagnostic *d);
/* "illegal-move 2, bad-result 1" for the codes seen at `sev`. */
int report_codes_text(struct xq_buf *b, const struct report_counts *c, int sev);
/* {"illegal-move":2,...} for every code seen at any severity. */
int report_codes_json(struct xq_buf *b, const struct report_counts *c);

/*
 * Was an internal error (a diagnostic with code "internal": an invariant
 * of lib/ or formats/ that did not hold, or --verify finding that a writer
 * and its own reader disagree) counted or reported by this process?  main()
 * then ends with CMD_EXIT_BUG and asks for a bug report.  Thread-safe.
 */
int report_bug_seen(void);

/* Was output dropped because memory ran out while it was put together?
 * main() then ends with CMD_EXIT_IO.  Thread-safe. */
int report_output_lost(void);

/*
 * The reporter of a collection command: it owns the counts, writes every
 * diagnostic (text lines on stderr, or "xqkit.diag/1" records on stdout
 * with --format ndjson), counts the inputs by how their reading ended (a
 * file from its first game on: one a stop came in counts too),
 * and writes the summary by the one rule of xqkit(1): a text summary on
 * stderr, after the diagnostics (none with -q); with --format ndjson one
 * "xqkit.summary/1" record where the diagnostics go.  With -q a note is
 * counted but not written as text.
 */
struct input_opts;

struct reporter {
	const char *command;
	enum report_format fmt;
	int quiet, verbose, color;
	int strict;             /* notes count as errors (validate --strict) */
	struct report_counts counts;
	uint64_t files, skipped_files, failed_files, damaged_files, games;
	const struct input_opts *in; /* the options it was made with (--shard) */
	int file_open;          /* a game of the file being read was counted (and
				   the file with it), its end job is yet to come */
	int io_error;           /* an input could not be read */
	struct xq_buf err, out; /* text for stderr, records for stdout */
	uint64_t shard_k, shard_n; /* the summary's "shard" */
	const char *run_id;        /* and "run" (the input_opts' own) */
};

void reporter_init(struct reporter *r, const char *command, const struct input_opts *o);
void reporter_release(struct reporter *r);
/* Count one diagnostic and write it; returns the severity it was
 * reported at (with --strict a note is an error).  `d` is only read. */
int reporter_diag(struct reporter *r, const xq_diagnostic *d, int binary);
/* Every diagnostic of a pool job, counted by the severity it was
 * reported at into `sev` (may be NULL) too; for the END job of an input, the input counted by how its
 * reading ended (and with -v a note for a file no format recognises). */
void reporter_job(struct reporter *r, xq_batch_job *j, uint64_t sev[3]);
/* Every diagnostic of a game job, counted and written, the game not
 * counted again: for a command that reports a game a second time (dedupe,
 * what writing the copy it keeps said). */
void reporter_job_diags(struct reporter *r, const xq_batch_job *j);
/* Write what is buffered. */
void reporter_flush(struct reporter *r);
/* The NDJSON summary: _open() starts the record with its schema,
 * command, shard ("K/N") and run id and returns the buffer for the
 * command's own members
 * (",\"name\":value"); _close() adds the diagnostic counts and seconds,
 * ends the record and writes it. */
struct xq_buf *reporter_summary_open(struct reporter *r);
void reporter_summary_close(struct reporter *r, double secs);
/* The members about the inputs every NDJSON summary has, in this order:
 * ,"files":N,"skipped_files":N,"failed_files":N,"games":`games` (the
 * games as the command counts them). */
void reporter_summary_inputs(struct reporter *r, struct xq_buf *b, uint64_t games);
/* The text summary's buffer, or NULL when there is none (-q, or NDJSON);
 * reporter_flush() writes it. */
struct xq_buf *reporter_summary_text(struct reporter *r);
/* The same, begun with the line's head "COMMAND: N game(s) from M
 * file(s)" for the commands that start their summary so. */
struct xq_buf *reporter_summary_head(struct reporter *r, uint64_t games);
/*
 * The summary a collection command ends with, written one way for all: as
 * NDJSON, reporter_summary_open(), the members `head` adds (may be NULL:
 * convert's "to", annotate's engine come before the inputs'), the inputs'
 * (reporter_summary_inputs() with `games`, the games as the command
 * counts them), those `json` adds,
 * reporter_summary_close(); else, when there is a text summary (not with
 * -q), `text` writes it into `b`, begun by reporter_summary_head() when
 * `text_head` is set; then it is flushed.
 */
struct report_summary {
	int text_head;
	void (*head)(void *ctx, struct xq_buf *b);
	void (*json)(void *ctx, struct xq_buf *b);
	void (*text)(void *ctx, struct xq_buf *b, double secs);
};
void reporter_summary(struct reporter *r, double secs, uint64_t games,
		      const struct report_summary *s, void *ctx);
/* "N error(s): code n, ..." lines for every severity seen. */
void reporter_counts_text(struct reporter *r, struct xq_buf *b);
/* "3 files" / "1 file". */
void report_plural(struct xq_buf *b, uint64_t n, const char *one, const char *many);
/* "; 2 files skipped (not game records); 1 input not read", the parts
 * that apply, as the collection commands end their summary line. */
void reporter_unread_text(const struct reporter *r, struct xq_buf *b);
/* The exit status of a collection command from what was counted, with
 * `skipped` games it did not handle as asked: 3 after an input's I/O
 * error, 1 when a game was skipped, an input failed or was damaged, or an
 * error was reported, else 0. */
int reporter_status(const struct reporter *r, uint64_t skipped);

/* Is standard output a pipe or a socket?  Then what is written there is
 * flushed record by record (report_flush_out, convert's games). */
int report_stdout_is_pipe(void);

/*
 * Games written to a stream or a device that keeps no temporary file
 * (standard output, a FIFO, /dev/...) are there only once its buffer is
 * flushed: report_stream_wrote() takes the `len` bytes just handed to it
 * and flushes (fflush(NULL): an xq_file has no flush of its own, and its
 * stream is one of all) after each game to a pipe (`pipe`: each reaches
 * it whole), else once 64 KiB are waiting.  1: flushed, everything handed
 * so far reached the stream; 0: not flushed now; -1: the flush failed
 * (what was waiting is lost).  Start from {0}.
 */
struct report_stream {
	size_t waiting;
};
int report_stream_wrote(struct report_stream *s, size_t len, int pipe);

/* Write a buffer to stderr (clearing the progress line first) or stdout;
 * one whose appends failed (xq_buf_error) is dropped whole instead. */
void report_flush_err(struct xq_buf *b);
void report_flush_out(struct xq_buf *b);

#endif
