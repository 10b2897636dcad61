/*
 * engine_int.h: what the parts of the engine driver share, private to
 * them (the public side is engine.h):
 *   engine_text.c  the protocols' text: names, options, move text, parsing
 *                  the engine's lines, `go` commands (pure: no process);
 *   engine_proc.c  the process and the conversation: spawning, ending,
 *                  writing and reading lines with deadlines;
 *   engine.c       the engine object, the handshake, the analysis.
 * See engine.c for how the layers fit together.
 */
#ifndef XQI_LIB_ENGINE_INT_H
#define XQI_LIB_ENGINE_INT_H

#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* pipe2(), standard since POSIX.1-2024; glibc declares it only here */
#endif
#include "engine.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "buf.h"
#include "diagnostic.h"
#include "movegen.h"
#include "utf8.h"

extern char **environ;

#define DEFAULT_TIMEOUT_MS 10000u
#define DEFAULT_SEARCH_TIMEOUT_MS 300000u
#define SLICE_MS 50
#define LINE_MAX_BYTES 65536  /* a longer line is cut and counted as garbage */
#define WARNINGS_REPORTED 20  /* garbage warnings sent to the sink per engine */
#define QUIT_GRACE_MS 2000u   /* how long an engine may take to quit */
/* How long an engine told to stop by the stop flag (a signal, in xqkit)
 * may take to answer 'stop' or 'quit' before it is killed: the signal
 * must end the run within a second. */
#define STOP_GRACE_MS 300u

struct xqi_engine {
	/* What the caller asked for (strings owned). */
	char *path;
	char **argv; /* path, args..., NULL */
	struct xqi_engine_option *options;
	size_t noptions;
	enum xqi_protocol want_proto;
	enum xqi_rank_base want_ranks;
	uint32_t timeout_ms, search_timeout_ms;
	unsigned fen_flags;
	int keep_hash;
	const atomic_int *stop;
	const struct xqi_sink *warnings;

	/* The running process. */
	pid_t pid; /* -1 when not running */
	int pid_lost; /* the child was reaped by someone else */
	int to_fd, from_fd, err_fd;
	struct xq_buf in;  /* bytes read from stdout not yet handed out */
	size_t in_used;    /* bytes of `in` already handed out as lines */
	char status[96];   /* how the last process ended */
	char last_out[160], last_err[160];

	/* What the engine said about itself. */
	enum xqi_protocol proto; /* found (or forced) dialect */
	int rank_base;
	char name[128];
	char **listed; /* option names the engine listed */
	size_t nlisted, listed_alloc;
	int has_variant, variant_has_xiangqi;
	char newgame_cmd[96]; /* how to clear its hash, "" for nothing */

	/* Counters. */
	unsigned long garbage, starts, warned;
	/* Where the current analysis is, for warnings. */
	uint64_t cur_game;
	uint32_t cur_ply;
	int stop_sent;
};

/* What xqi_eng_read_line() returns (engine_proc.c). */
enum { LINE_OK = 1, LINE_TIMEOUT = 0, LINE_EOF = -1, LINE_STOP = 2 };

/* engine.c: the engine object */
const char *xqi_eng_listed_option(const struct xqi_engine *e, const char *name);
int xqi_eng_add_listed(struct xqi_engine *e, const char *s, size_t n);
int xqi_eng_user_sets(const struct xqi_engine *e, const char *name);
void xqi_eng_clear_listed(struct xqi_engine *e);

/* engine.c: handshake */
int xqi_eng_wait_ready(struct xqi_engine *e, struct xq_diagnostic *d, const char *after);

/* engine_text.c: the protocols' text */
int xqi_eng_has_control(const char *s);
/* Copy engine text into `out` for a message: printable ASCII only, cut. */
void xqi_eng_printable(char *out, size_t cap, const char *s, size_t len);
int xqi_eng_add_moves(struct xq_buf *b, const xqi_move *moves, size_t n, int rank_base);

/* engine_proc.c: the clock */
int64_t xqi_eng_now_ms(void);
void xqi_eng_sleep_ms(int ms);

/* engine_proc.c: what the engine did wrong, as an error in `d` (returns
 * XQ_EENGINE) or a warning to the engine's sink (the first
 * WARNINGS_REPORTED), a line that means nothing counted and warned of */
int xqi_eng_error(struct xqi_engine *e, struct xq_diagnostic *d, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
void xqi_eng_warn(struct xqi_engine *e, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
void xqi_eng_count_garbage(struct xqi_engine *e, const char *line, size_t len);

/* engine_proc.c: the process and the conversation */
int xqi_eng_died(struct xqi_engine *e, struct xq_diagnostic *d, const char *when);
int xqi_eng_hung(struct xqi_engine *e, struct xq_diagnostic *d, const char *what, uint32_t ms);
int xqi_eng_next_line(struct xqi_engine *e, struct xq_diagnostic *d, int64_t deadline, const char *cmd,
		     const char *context, struct xqi_engine_line *l, const char **line,
		     size_t *len);
int xqi_eng_read_line(struct xqi_engine *e, int64_t deadline, int watch_stop, const char **line,
		     size_t *len);
int xqi_eng_send_line(struct xqi_engine *e, struct xq_diagnostic *d, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
int xqi_eng_send_line_when(struct xqi_engine *e, struct xq_diagnostic *d, const char *when, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;
int xqi_eng_spawn(struct xqi_engine *e, struct xq_diagnostic *d);
void xqi_eng_close_fd(int *fd);
void xqi_eng_drain_pending(struct xqi_engine *e);
void xqi_eng_finish(struct xqi_engine *e, uint32_t ms);
void xqi_eng_reap(struct xqi_engine *e);

#endif
