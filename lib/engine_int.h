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
#ifndef XQ_LIB_ENGINE_INT_H
#define XQ_LIB_ENGINE_INT_H

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
#include "diag.h"
#include "movegen.h"
#include "utf8.h"

extern char **environ;

#define DEFAULT_TIMEOUT_MS 10000u
#define DEFAULT_SEARCH_TIMEOUT_MS 300000u
#define SLICE_MS 50
#define LINE_MAX_BYTES 65536  /* a longer line is cut and counted as garbage */
#define WARNINGS_REPORTED 20  /* garbage warnings sent to the sink per engine */
#define QUIT_GRACE_MS 2000u   /* how long an engine may take to quit */

struct xq_engine {
	/* What the caller asked for (strings owned). */
	char *path;
	char **argv; /* path, args..., NULL */
	struct xq_engine_option *options;
	size_t noptions;
	enum xq_protocol want_proto;
	enum xq_rank_base want_ranks;
	uint32_t timeout_ms, search_timeout_ms;
	unsigned fen_flags;
	int keep_hash;
	const atomic_int *stop;
	const struct xq_sink *warnings;

	/* The running process. */
	pid_t pid; /* -1 when not running */
	int pid_lost; /* the child was reaped by someone else */
	int to_fd, from_fd, err_fd;
	struct xq_buf in;  /* bytes read from stdout not yet handed out */
	size_t in_used;    /* bytes of `in` already handed out as lines */
	char status[96];   /* how the last process ended */
	char last_out[160], last_err[160];

	/* What the engine said about itself. */
	enum xq_protocol proto; /* found (or forced) dialect */
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

/* What xq_eng_read_line() returns (engine_proc.c). */
enum { LINE_OK = 1, LINE_TIMEOUT = 0, LINE_EOF = -1, LINE_STOP = 2 };

/* engine.c: small helpers */
int64_t xq_eng_now_ms(void);
void xq_eng_printable(char *out, size_t cap, const char *s, size_t len);
void xq_eng_sleep_ms(int ms);

/* engine.c: the engine object */
const char *xq_eng_listed_option(const struct xq_engine *e, const char *name);
int xq_eng_add_listed(struct xq_engine *e, const char *s, size_t n);
int xq_eng_error(struct xq_engine *e, struct xq_diag *d, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
int xq_eng_user_sets(const struct xq_engine *e, const char *name);
void xq_eng_clear_listed(struct xq_engine *e);
void xq_eng_count_garbage(struct xq_engine *e, const char *line, size_t len);
void xq_eng_warn(struct xq_engine *e, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* engine.c: handshake */
int xq_eng_wait_ready(struct xq_engine *e, struct xq_diag *d, const char *after);

/* engine_text.c: the protocols' text */
int xq_eng_has_control(const char *s);
int xq_eng_add_moves(struct xq_buf *b, const xq_move *moves, size_t n, int rank_base);

/* engine_proc.c: the process and the conversation */
int xq_eng_died(struct xq_engine *e, struct xq_diag *d, const char *when);
int xq_eng_hung(struct xq_engine *e, struct xq_diag *d, const char *what, uint32_t ms);
int xq_eng_next_line(struct xq_engine *e, struct xq_diag *d, int64_t deadline, const char *cmd,
		     const char *context, struct xq_engine_line *l, const char **line,
		     size_t *len);
int xq_eng_read_line(struct xq_engine *e, int64_t deadline, int watch_stop, const char **line,
		     size_t *len);
int xq_eng_send_line(struct xq_engine *e, struct xq_diag *d, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
int xq_eng_send_line_when(struct xq_engine *e, struct xq_diag *d, const char *when, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;
int xq_eng_spawn(struct xq_engine *e, struct xq_diag *d);
void xq_eng_close_fd(int *fd);
void xq_eng_drain_pending(struct xq_engine *e);
void xq_eng_finish(struct xq_engine *e, uint32_t ms);
void xq_eng_reap(struct xq_engine *e);

#endif
