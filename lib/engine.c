/*
 * engine.c: running an external UCI or UCCI engine as a child process.
 *
 * Three layers, bottom up:
 *
 *  - the process: posix_spawn (fork and exec without a shell) with three
 *    pipes created close-on-exec, so an engine started by one thread never
 *    inherits the pipes of another engine (that would keep their EOF from
 *    ever arriving); its own process group; default signal dispositions.
 *    Ending it: `quit`, close its input, wait a moment, then SIGKILL to the
 *    whole group; the exit is first observed with waitid(WNOWAIT) so the
 *    group is killed while the leader's pid cannot have been reused, then
 *    the leader is reaped with waitpid on its own pid.
 *  - the conversation: lines written with poll() and a deadline (a pipe
 *    the engine does not read would otherwise block us forever), SIGPIPE
 *    blocked in this thread around the write; lines read with poll() in
 *    slices of at most 50 ms, between which the stop flag is checked and
 *    the child is checked for an exit (an engine whose stdout is still held
 *    open by a grandchild never gives EOF); the engine's stderr is drained
 *    alongside and its last line kept for messages.
 *  - the protocol: handshake (with the uci-then-ucci fallback), options,
 *    `position`, `isready`, `go`, reading `info` lines and `bestmove`, and
 *    checking the answer against the rules core.
 *
 * xq_engine_parse_line() is pure (no process) so it can be fuzzed.
 */
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

/* ---- small helpers ------------------------------------------------------- */

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* Copy engine text into `out` for a message: printable ASCII only, cut. */
static void printable(char *out, size_t cap, const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len && n + 4 < cap; i++) {
		unsigned char c = (unsigned char)s[i];
		out[n++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	if (n + 4 >= cap && len > n) {
		memcpy(out + n, "...", 3);
		n += 3;
	}
	out[n] = '\0';
}

/* ---- protocol names and options ------------------------------------------ */

const char *xq_protocol_name(enum xq_protocol p)
{
	switch (p) {
	case XQ_PROTOCOL_UCI:
		return "uci";
	case XQ_PROTOCOL_UCCI:
		return "ucci";
	default:
		return "auto";
	}
}

int xq_protocol_from_name(const char *name)
{
	if (!strcmp(name, "auto"))
		return XQ_PROTOCOL_AUTO;
	if (!strcmp(name, "uci"))
		return XQ_PROTOCOL_UCI;
	if (!strcmp(name, "ucci"))
		return XQ_PROTOCOL_UCCI;
	return -1;
}

static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

int xq_engine_option_parse(struct xq_engine_option *out, char *buf, size_t cap, const char *text,
			   struct xq_diag *d)
{
	const char *eq = strchr(text, '=');
	size_t len = strlen(text);

	if (!eq || eq == text)
		return xq_diag_set(d, XQ_EPARSE, XQ_D_SYNTAX, XQ_SEV_ERROR,
				   "engine option '%s' is not NAME=VALUE", text);
	if (has_control(text))
		return xq_diag_set(d, XQ_EPARSE, XQ_D_SYNTAX, XQ_SEV_ERROR,
				   "engine option has a control character");
	if (len + 1 > cap)
		return xq_diag_set(d, XQ_EPARSE, XQ_D_SYNTAX, XQ_SEV_ERROR,
				   "engine option is too long");
	memcpy(buf, text, len + 1);
	buf[eq - text] = '\0';
	out->name = buf;
	out->value = buf + (eq - text) + 1;
	return 0;
}

void xq_engine_opts_init(struct xq_engine_opts *o)
{
	memset(o, 0, sizeof(*o));
}

/* ---- move text ------------------------------------------------------------ */

size_t xq_engine_move_text(xq_move m, int rank_base, char out[7])
{
	size_t n = 0;
	xq_sq sq[2] = {XQ_MOVE_FROM(m), XQ_MOVE_TO(m)};

	for (int i = 0; i < 2; i++) {
		int rank = XQ_SQ_RANK(sq[i]) + (rank_base ? 1 : 0);
		out[n++] = (char)('a' + XQ_SQ_FILE(sq[i]));
		if (rank >= 10) {
			out[n++] = '1';
			out[n++] = '0';
		} else {
			out[n++] = (char)('0' + rank);
		}
	}
	out[n] = '\0';
	return n;
}

/* One square: file a-i, then a rank 0-9 (base 0) or 1-10 (base 1). */
static int parse_square(const char **p, const char *end, int rank_base, xq_sq *out)
{
	const char *s = *p;
	int file, rank;

	if (end - s < 2 || *s < 'a' || *s > 'i')
		return -1;
	file = *s++ - 'a';
	if (!xq_is_digit(*s))
		return -1;
	rank = *s++ - '0';
	if (rank_base) {
		if (rank == 1 && s < end && *s == '0') {
			rank = 10;
			s++;
		}
		if (rank == 0)
			return -1;
		rank--;
	}
	*out = XQ_SQ(file, rank);
	*p = s;
	return 0;
}

static int parse_move(const char *s, size_t len, int rank_base, xq_move *out)
{
	const char *p = s, *end = s + len;
	xq_sq from, to;

	if (parse_square(&p, end, rank_base, &from) || parse_square(&p, end, rank_base, &to) ||
	    p != end || from == to)
		return -1;
	*out = XQ_MOVE(from, to);
	return 0;
}

/* ---- parsing engine output ------------------------------------------------ */

struct tok {
	const char *p;
	size_t n;
};

static int next_tok(const char **s, const char *end, struct tok *t)
{
	const char *p = *s;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end)
		return 0;
	t->p = p;
	while (p < end && *p != ' ' && *p != '\t')
		p++;
	t->n = (size_t)(p - t->p);
	*s = p;
	return 1;
}

static int tok_is(const struct tok *t, const char *w)
{
	size_t n = strlen(w);
	return t->n == n && !memcmp(t->p, w, n);
}

static int tok_int(const struct tok *t, int64_t *v)
{
	size_t i = 0;
	int neg = 0;
	int64_t x = 0;

	if (t->n && (t->p[0] == '-' || t->p[0] == '+')) {
		neg = t->p[0] == '-';
		i = 1;
	}
	if (i == t->n || t->n - i > 18)
		return -1;
	for (; i < t->n; i++) {
		if (!xq_is_digit((unsigned char)t->p[i]))
			return -1;
		x = x * 10 + (t->p[i] - '0');
	}
	*v = neg ? -x : x;
	return 0;
}

/* A UCCI bare score: ElephantEye's mate (10000) and ban (9900) scales. */
static struct xq_score ucci_score(int64_t v)
{
	struct xq_score s;
	int64_t a = v < 0 ? -v : v;

	if (a > 9800) {
		int64_t plies = a >= 9900 ? 10000 - a : 9900 - a;
		if (plies < 0)
			plies = 0;
		s.kind = v > 0 ? XQ_SCORE_MATE : XQ_SCORE_MATED;
		s.value = (int32_t)(v > 0 ? (plies + 1) / 2 : plies / 2);
		if (v > 0 && s.value == 0)
			s.value = 1;
	} else {
		s.kind = XQ_SCORE_CP;
		s.value = (int32_t)v;
	}
	return s;
}

static void parse_info(struct xq_engine_line *out, const char *p, const char *end, int rank_base)
{
	struct tok t;
	int64_t v;

	while (next_tok(&p, end, &t)) {
		if (tok_is(&t, "string")) {
			out->is_string = 1;
			while (p < end && *p == ' ')
				p++;
			out->text = p;
			out->text_len = (size_t)(end - p);
			return;
		}
		if (tok_is(&t, "depth") || tok_is(&t, "seldepth") || tok_is(&t, "multipv") ||
		    tok_is(&t, "nodes") || tok_is(&t, "time") || tok_is(&t, "nps") ||
		    tok_is(&t, "hashfull") || tok_is(&t, "tbhits") || tok_is(&t, "currmovenumber") ||
		    tok_is(&t, "cpuload") || tok_is(&t, "sbhits")) {
			struct tok k = t;
			if (!next_tok(&p, end, &t) || tok_int(&t, &v) || v < 0)
				goto garbage;
			if (tok_is(&k, "depth"))
				out->depth = v > 1000 ? 1000 : (int)v;
			else if (tok_is(&k, "seldepth"))
				out->seldepth = v > 1000 ? 1000 : (int)v;
			else if (tok_is(&k, "multipv"))
				out->multipv = v > 1000 ? 1000 : (int)v;
			else if (tok_is(&k, "nodes"))
				out->nodes = (uint64_t)v;
			else if (tok_is(&k, "time"))
				out->time_ms = v;
			continue;
		}
		if (tok_is(&t, "score")) {
			if (!next_tok(&p, end, &t))
				goto garbage;
			if (tok_is(&t, "cp") || tok_is(&t, "mate")) {
				int mate = tok_is(&t, "mate");
				if (!next_tok(&p, end, &t) || tok_int(&t, &v) || v > 100000000 ||
				    v < -100000000)
					goto garbage;
				if (!mate) {
					out->score.kind = XQ_SCORE_CP;
					out->score.value = (int32_t)v;
				} else if (v > 0) {
					out->score.kind = XQ_SCORE_MATE;
					out->score.value = (int32_t)v;
				} else {
					out->score.kind = XQ_SCORE_MATED;
					out->score.value = (int32_t)-v;
				}
			} else if (!tok_int(&t, &v) && v <= 100000000 && v >= -100000000) {
				out->score = ucci_score(v);
			} else {
				goto garbage;
			}
			out->has_score = 1;
			/* Optional bound right after the score. */
			{
				const char *save = p;
				if (next_tok(&p, end, &t)) {
					if (tok_is(&t, "lowerbound"))
						out->bound = 1;
					else if (tok_is(&t, "upperbound"))
						out->bound = -1;
					else
						p = save;
				}
			}
			continue;
		}
		if (tok_is(&t, "wdl")) {
			for (int i = 0; i < 3; i++)
				if (!next_tok(&p, end, &t) || tok_int(&t, &v))
					goto garbage;
			continue;
		}
		if (tok_is(&t, "currmove")) {
			xq_move m;
			if (!next_tok(&p, end, &t) || parse_move(t.p, t.n, rank_base, &m))
				goto garbage;
			continue;
		}
		if (tok_is(&t, "pv") || tok_is(&t, "refutation") || tok_is(&t, "currline")) {
			int is_pv = tok_is(&t, "pv");
			for (;;) {
				const char *save = p;
				xq_move m;
				if (!next_tok(&p, end, &t))
					break;
				if (parse_move(t.p, t.n, rank_base, &m)) {
					p = save;
					break;
				}
				if (is_pv && out->pv_len < XQ_PV_MAX)
					out->pv[out->pv_len++] = m;
			}
			continue;
		}
		/* Unknown keywords are skipped: engines add their own. */
	}
	return;
garbage:
	out->kind = XQ_LINE_GARBAGE;
}

void xq_engine_parse_line(struct xq_engine_line *out, const char *line, size_t len,
			  enum xq_protocol proto, int rank_base)
{
	const char *p = line, *end = line + len;
	struct tok t;

	memset(out, 0, sizeof(*out));
	out->depth = out->seldepth = out->multipv = -1;
	out->time_ms = -1;
	out->score.kind = XQ_SCORE_CP;
	while (end > p && (end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (xq_utf8_check(p, (size_t)(end - p)) != (size_t)(end - p)) {
		out->kind = XQ_LINE_GARBAGE;
		return;
	}
	for (const char *q = p; q < end; q++)
		if (((unsigned char)*q < 0x20 && *q != '\t') || *q == 0x7f) {
			out->kind = XQ_LINE_GARBAGE;
			return;
		}
	if (!next_tok(&p, end, &t)) {
		out->kind = XQ_LINE_EMPTY;
		return;
	}
	if (tok_is(&t, "info")) {
		out->kind = XQ_LINE_INFO;
		parse_info(out, p, end, rank_base);
		return;
	}
	if (tok_is(&t, "bestmove")) {
		out->kind = XQ_LINE_BESTMOVE;
		if (!next_tok(&p, end, &t)) {
			out->bad_move = 1;
			return;
		}
		if (tok_is(&t, "(none)") || tok_is(&t, "none") || tok_is(&t, "0000"))
			return;
		if (parse_move(t.p, t.n, rank_base, &out->move))
			out->bad_move = 1;
		return;
	}
	if (tok_is(&t, "nobestmove")) {
		out->kind = XQ_LINE_BESTMOVE;
		return;
	}
	if (tok_is(&t, "readyok") || tok_is(&t, "uciok") || tok_is(&t, "ucciok") ||
	    tok_is(&t, "bye")) {
		out->kind = tok_is(&t, "readyok") ? XQ_LINE_READYOK
			    : tok_is(&t, "uciok") ? XQ_LINE_UCIOK
			    : tok_is(&t, "ucciok") ? XQ_LINE_UCCIOK
						  : XQ_LINE_BYE;
		if (next_tok(&p, end, &t))
			out->kind = XQ_LINE_GARBAGE;
		return;
	}
	if (tok_is(&t, "id")) {
		out->kind = XQ_LINE_ID_OTHER;
		if (next_tok(&p, end, &t) && tok_is(&t, "name")) {
			while (p < end && (*p == ' ' || *p == '\t'))
				p++;
			out->kind = XQ_LINE_ID_NAME;
			out->text = p;
			out->text_len = (size_t)(end - p);
		}
		return;
	}
	if (tok_is(&t, "copyprotection") || tok_is(&t, "registration")) {
		out->kind = XQ_LINE_ID_OTHER;
		return;
	}
	if (tok_is(&t, "option")) {
		const char *name_start, *name_end;
		struct tok n;
		if (!next_tok(&p, end, &n))
			goto garbage;
		if (proto != XQ_PROTOCOL_UCCI && tok_is(&n, "name")) {
			/* UCI: the name runs up to the word "type". */
			const char *q = p;
			if (!next_tok(&q, end, &t) || tok_is(&t, "type"))
				goto garbage;
			name_start = t.p;
			name_end = t.p + t.n;
			p = q;
			while (next_tok(&q, end, &t) && !tok_is(&t, "type")) {
				name_end = t.p + t.n;
				p = q;
			}
		} else {
			name_start = n.p;
			name_end = n.p + n.n;
		}
		out->kind = XQ_LINE_OPTION;
		out->text = name_start;
		out->text_len = (size_t)(name_end - name_start);
		while (next_tok(&p, end, &t))
			if (tok_is(&t, "var")) {
				struct tok v;
				if (next_tok(&p, end, &v) && tok_is(&v, "xiangqi"))
					out->has_xiangqi = 1;
			}
		return;
	}
garbage:
	out->kind = XQ_LINE_GARBAGE;
}

/* ---- the engine object --------------------------------------------------- */

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

static void clear_listed(struct xq_engine *e)
{
	for (size_t i = 0; i < e->nlisted; i++)
		free(e->listed[i]);
	e->nlisted = 0;
}

static int add_listed(struct xq_engine *e, const char *s, size_t n)
{
	char *c;

	if (XQ_ALLOC_GROW(e->listed, e->nlisted + 1, e->listed_alloc))
		return XQ_ENOMEM;
	c = malloc(n + 1);
	if (!c)
		return XQ_ENOMEM;
	memcpy(c, s, n);
	c[n] = '\0';
	e->listed[e->nlisted++] = c;
	return 0;
}

/* The option name as the engine lists it (case-insensitive match), or NULL. */
static const char *listed_option(const struct xq_engine *e, const char *name)
{
	for (size_t i = 0; i < e->nlisted; i++)
		if (xq_ascii_ieq(e->listed[i], name))
			return e->listed[i];
	return NULL;
}

static int user_sets(const struct xq_engine *e, const char *name)
{
	for (size_t i = 0; i < e->noptions; i++)
		if (xq_ascii_ieq(e->options[i].name, name))
			return 1;
	return 0;
}

/* Fill `d` with an engine error and return XQ_EENGINE. */
static int engine_error(struct xq_engine *e, struct xq_diag *d, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

static int engine_error(struct xq_engine *e, struct xq_diag *d, const char *fmt, ...)
{
	char what[XQ_DIAG_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return xq_diag_set(d, XQ_EENGINE, XQ_D_ENGINE, XQ_SEV_ERROR, "engine '%s' %s", e->name,
			   what);
}

static void warn(struct xq_engine *e, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static void warn(struct xq_engine *e, const char *fmt, ...)
{
	struct xq_diag w;
	char what[XQ_DIAG_MSG_MAX];
	va_list ap;

	if (!e->warnings || e->warned >= WARNINGS_REPORTED)
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	xq_diag_init(&w);
	w.game = e->cur_game;
	w.ply = e->cur_ply;
	e->warned++;
	xq_diag_set(&w, 0, XQ_D_ENGINE, XQ_SEV_WARNING, "engine '%s' %s%s", e->name, what,
		    e->warned == WARNINGS_REPORTED ? " (further warnings from this engine not shown)"
						   : "");
	xq_sink_report(e->warnings, &w);
}

static void count_garbage(struct xq_engine *e, const char *line, size_t len)
{
	char text[100];

	e->garbage++;
	printable(text, sizeof(text), line, len);
	warn(e, "printed a line that means nothing, ignored: '%s'", text);
}

/* ---- the process ---------------------------------------------------------- */

static int make_pipe(int fds[2])
{
#if defined(__linux__)
	return pipe2(fds, O_CLOEXEC);
#else
	if (pipe(fds))
		return -1;
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	return 0;
#endif
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void describe_status(struct xq_engine *e, int st)
{
	if (WIFEXITED(st))
		snprintf(e->status, sizeof(e->status), "exited with status %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(e->status, sizeof(e->status), "was killed by signal %d (%s)", WTERMSIG(st),
			 strsignal(WTERMSIG(st)));
	else
		snprintf(e->status, sizeof(e->status), "ended (status 0x%x)", (unsigned)st);
}

/*
 * Finish a process that has exited or must go: kill what is left of its
 * group while the leader is still unreaped (so its pid, which is the
 * group's id, cannot belong to anyone else yet), then reap the leader.
 */
static void reap(struct xq_engine *e)
{
	int st = 0;
	pid_t r;

	if (e->pid < 0)
		return;
	/* When the child was reaped behind our back (SIGCHLD ignored, or a
	 * waitpid(-1) elsewhere), its pid may already be someone else's:
	 * signal nothing then. */
	if (!e->pid_lost) {
		kill(-e->pid, SIGKILL);
		kill(e->pid, SIGKILL);
		do
			r = waitpid(e->pid, &st, 0);
		while (r < 0 && errno == EINTR);
		if (r == e->pid && !e->status[0])
			describe_status(e, st);
	}
	e->pid = -1;
	e->pid_lost = 0;
	close_fd(&e->to_fd);
	close_fd(&e->from_fd);
	close_fd(&e->err_fd);
}

/* Has the process exited (without reaping it)?  Records how it ended. */
static int exited(struct xq_engine *e)
{
	siginfo_t si;

	if (e->pid < 0)
		return 1;
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)e->pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0) {
		if (errno != ECHILD)
			return 0;
		/* Not our child any more: someone else reaped it. */
		e->pid_lost = 1;
		if (!e->status[0])
			snprintf(e->status, sizeof(e->status), "exited (reaped elsewhere)");
		return 1;
	}
	if (si.si_pid != e->pid)
		return 0;
	if (si.si_code == CLD_EXITED)
		snprintf(e->status, sizeof(e->status), "exited with status %d", si.si_status);
	else
		snprintf(e->status, sizeof(e->status), "was killed by signal %d (%s)", si.si_status,
			 strsignal(si.si_status));
	return 1;
}

static void drain_stderr(struct xq_engine *e);

/* Wait up to `ms` for the process to exit; keep its last words; reap it
 * either way. */
static void finish(struct xq_engine *e, uint32_t ms)
{
	int64_t until = now_ms() + ms;

	while (e->pid >= 0 && !exited(e) && now_ms() < until)
		sleep_ms(5);
	if (e->pid >= 0 && !e->status[0] && !exited(e))
		snprintf(e->status, sizeof(e->status), "was killed after %u ms", (unsigned)ms);
	drain_stderr(e);
	reap(e);
}

static int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static int spawn(struct xq_engine *e, struct xq_diag *d)
{
	int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1}, rc;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t def, none;
	const int sigs[] = {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGALRM,
			    SIGUSR1, SIGUSR2};

	e->status[0] = e->last_out[0] = e->last_err[0] = '\0';
	xq_buf_reset(&e->in);
	e->in_used = 0;
	if (make_pipe(in) || make_pipe(out) || make_pipe(err)) {
		rc = errno;
		close_fd(&in[0]), close_fd(&in[1]), close_fd(&out[0]), close_fd(&out[1]);
		close_fd(&err[0]), close_fd(&err[1]);
		return engine_error(e, d, "cannot be started: pipe: %s", strerror(rc));
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_adddup2(&fa, err[1], 2);
	posix_spawnattr_init(&at);
	sigemptyset(&def);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&def, sigs[i]);
	sigemptyset(&none);
	posix_spawnattr_setsigdefault(&at, &def);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF |
					      POSIX_SPAWN_SETSIGMASK);
	if (strchr(e->path, '/'))
		rc = posix_spawn(&e->pid, e->path, &fa, &at, e->argv, environ);
	else
		rc = posix_spawnp(&e->pid, e->path, &fa, &at, e->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close_fd(&in[0]);
	close_fd(&out[1]);
	close_fd(&err[1]);
	if (rc != 0) {
		e->pid = -1;
		close_fd(&in[1]), close_fd(&out[0]), close_fd(&err[0]);
		return engine_error(e, d, "cannot be started: %s: %s", e->path, strerror(rc));
	}
	e->to_fd = in[1];
	e->from_fd = out[0];
	e->err_fd = err[0];
	set_nonblock(e->to_fd);
	set_nonblock(e->from_fd);
	set_nonblock(e->err_fd);
	e->starts++;
	return 0;
}

/* ---- the conversation ----------------------------------------------------- */

/* Keep the last line the engine wrote on stderr, for messages. */
static void drain_stderr(struct xq_engine *e)
{
	char buf[4096];
	ssize_t n;

	while (e->err_fd >= 0) {
		n = read(e->err_fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				close_fd(&e->err_fd);
			return;
		}
		/* The last non-empty line in this chunk. */
		{
			ssize_t hi = n;
			while (hi > 0 && (buf[hi - 1] == '\n' || buf[hi - 1] == '\r'))
				hi--;
			if (hi > 0) {
				ssize_t lo = hi;
				while (lo > 0 && buf[lo - 1] != '\n')
					lo--;
				printable(e->last_err, sizeof(e->last_err), buf + lo, (size_t)(hi - lo));
			}
		}
	}
}

/* "; it said '...'" for messages, from the last output lines. */
static const char *last_words(const struct xq_engine *e, char *buf, size_t cap)
{
	if (e->last_err[0])
		snprintf(buf, cap, "; its last message: '%s'", e->last_err);
	else if (e->last_out[0])
		snprintf(buf, cap, "; its last line: '%s'", e->last_out);
	else
		buf[0] = '\0';
	return buf;
}

static void drain_pending(struct xq_engine *e);

/* The process is gone or going: read what it said last, reap it and report. */
static int died(struct xq_engine *e, struct xq_diag *d, const char *when)
{
	char words[200];
	int64_t until = now_ms() + 1000;

	/* Its last lines may still sit unread in the pipe (a write that met the
	 * dead engine comes here before any read): they often say why it died. */
	while (e->pid >= 0 && !exited(e) && now_ms() < until)
		sleep_ms(5);
	drain_pending(e);
	finish(e, 1000);
	return engine_error(e, d, "%s %s%s", e->status[0] ? e->status : "stopped", when,
			    last_words(e, words, sizeof(words)));
}

static int hung(struct xq_engine *e, struct xq_diag *d, const char *what, uint32_t ms)
{
	char words[200];

	snprintf(e->status, sizeof(e->status), "was killed");
	reap(e);
	return engine_error(e, d, "did not answer %s within %u ms and was killed%s", what,
			    (unsigned)ms, last_words(e, words, sizeof(words)));
}

/*
 * Write one command line.  SIGPIPE is blocked in this thread for the
 * write; a SIGPIPE it raised is consumed before the mask is restored.
 */
static int vsend_line(struct xq_engine *e, struct xq_diag *d, const char *when, const char *fmt,
		      va_list ap)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 0)))
#endif
	;

/* `when` says, if the engine turns out to be dead, after what it died. */
static int vsend_line(struct xq_engine *e, struct xq_diag *d, const char *when, const char *fmt,
		      va_list ap)
{
	struct xq_buf b = XQ_BUF_INIT;
	sigset_t pipe_set, old, pending;
	int was_pending, rc = 0, epipe = 0;
	int64_t until;
	size_t off = 0;

	if (e->pid < 0 || e->to_fd < 0)
		return engine_error(e, d, "is not running");
	rc = xq_buf_vaddf(&b, fmt, ap);
	if (rc || xq_buf_addc(&b, '\n')) {
		xq_buf_release(&b);
		return xq_diag_set(d, XQ_ENOMEM, XQ_D_RESOURCE, XQ_SEV_ERROR, "out of memory");
	}
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	sigemptyset(&pending);
	sigpending(&pending);
	was_pending = sigismember(&pending, SIGPIPE) == 1;
	until = now_ms() + e->timeout_ms;
	while (off < b.len) {
		ssize_t n = write(e->to_fd, b.ptr + off, b.len - off);
		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct pollfd pf = {e->to_fd, POLLOUT, 0};
			int64_t left = until - now_ms();
			if (left <= 0) {
				rc = 1; /* the engine does not read its input */
				break;
			}
			poll(&pf, 1, left > SLICE_MS ? SLICE_MS : (int)left);
			if (exited(e)) {
				epipe = 1;
				break;
			}
			continue;
		}
		epipe = 1;
		break;
	}
	if (epipe && !was_pending) {
		struct timespec zero = {0, 0};
		sigemptyset(&pending);
		sigpending(&pending);
		if (sigismember(&pending, SIGPIPE) == 1)
			while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR)
				;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	xq_buf_release(&b);
	if (epipe)
		return died(e, d, when);
	if (rc)
		return hung(e, d, "(it stopped reading its input)", e->timeout_ms);
	return 0;
}

static int send_line(struct xq_engine *e, struct xq_diag *d, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

static int send_line(struct xq_engine *e, struct xq_diag *d, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vsend_line(e, d, "before a command could be sent", fmt, ap);
	va_end(ap);
	return rc;
}

static int send_line_when(struct xq_engine *e, struct xq_diag *d, const char *when,
			  const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

static int send_line_when(struct xq_engine *e, struct xq_diag *d, const char *when,
			  const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vsend_line(e, d, when, fmt, ap);
	va_end(ap);
	return rc;
}

enum { LINE_OK = 1, LINE_TIMEOUT = 0, LINE_EOF = -1, LINE_STOP = 2 };

/*
 * Wait for the next line until `deadline` (now_ms() scale).  Returns
 * LINE_OK with the line in *line and *len (valid until the next call),
 * LINE_TIMEOUT, LINE_EOF when the engine closed its output or exited, or
 * LINE_STOP once when `watch_stop` is set and the stop flag is raised.
 */
static int read_line(struct xq_engine *e, int64_t deadline, int watch_stop, const char **line,
		     size_t *len)
{
	int polled = 0;

	for (;;) {
		char *start = e->in.ptr + e->in_used;
		size_t avail = e->in.len - e->in_used;
		char *nl = memchr(start, '\n', avail);
		struct pollfd pf[2];
		int nfds = 0, slice;
		int64_t left;

		if (nl || avail >= LINE_MAX_BYTES) {
			size_t n = nl ? (size_t)(nl - start) : avail;
			*line = start;
			*len = n;
			e->in_used += nl ? n + 1 : n;
			if (n && start[n - 1] == '\r')
				(*len)--;
			if (*len)
				printable(e->last_out, sizeof(e->last_out), start, *len);
			return LINE_OK; /* a line cut at LINE_MAX_BYTES goes on as another */
		}
		/* Compact the buffer before reading more. */
		if (e->in_used) {
			memmove(e->in.ptr, start, avail);
			xq_buf_truncate(&e->in, avail);
			e->in_used = 0;
		}
		if (e->from_fd < 0)
			return LINE_EOF;
		if (watch_stop && !e->stop_sent && e->stop &&
		    atomic_load_explicit(e->stop, memory_order_relaxed))
			return LINE_STOP;
		left = deadline - now_ms();
		if (left <= 0 && polled)
			return LINE_TIMEOUT;
		slice = left <= 0 ? 0 : left > SLICE_MS ? SLICE_MS : (int)left;
		polled = 1;
		pf[nfds++] = (struct pollfd){e->from_fd, POLLIN, 0};
		if (e->err_fd >= 0)
			pf[nfds++] = (struct pollfd){e->err_fd, POLLIN, 0};
		if (poll(pf, (nfds_t)nfds, slice) < 0 && errno != EINTR)
			return LINE_EOF;
		if (nfds > 1 && pf[1].revents)
			drain_stderr(e);
		if (pf[0].revents) {
			char buf[8192];
			ssize_t n = read(e->from_fd, buf, sizeof(buf));
			if (n > 0) {
				if (xq_buf_add(&e->in, buf, (size_t)n))
					return LINE_EOF;
				continue;
			}
			if (n == 0 || (errno != EAGAIN && errno != EINTR && errno != EWOULDBLOCK)) {
				close_fd(&e->from_fd);
				/* Hand out a last unterminated line, if any. */
				if (e->in.len > e->in_used && xq_buf_addc(&e->in, '\n'))
					return LINE_EOF;
				continue;
			}
		} else if (exited(e)) {
			/* Exited, but its output may still be held open by a
			 * child of its own: read what is there, then stop. */
			char buf[8192];
			ssize_t n;
			while ((n = read(e->from_fd, buf, sizeof(buf))) > 0)
				if (xq_buf_add(&e->in, buf, (size_t)n))
					break;
			close_fd(&e->from_fd);
			if (e->in.len > e->in_used && xq_buf_addc(&e->in, '\n'))
				return LINE_EOF;
		}
	}
}

/* Read and classify lines that are already waiting, without blocking. */
static void drain_pending(struct xq_engine *e)
{
	const char *line;
	size_t len;

	while (e->pid >= 0 && read_line(e, now_ms(), 0, &line, &len) == LINE_OK) {
		struct xq_engine_line l;
		xq_engine_parse_line(&l, line, len, e->proto, e->rank_base);
		if (l.kind == XQ_LINE_GARBAGE)
			count_garbage(e, line, len);
	}
}

/*
 * The next line before `deadline`, parsed in the current dialect.  On a
 * timeout or an exit the engine is reaped and XQ_EENGINE returned, with a
 * message saying it was answering `cmd` (and `context`, e.g. "after the
 * position was sent", when given); likewise when the stop flag is raised,
 * so that Ctrl-C never waits for a slow handshake.
 */
static int next_line(struct xq_engine *e, struct xq_diag *d, int64_t deadline, const char *cmd,
		     const char *context, struct xq_engine_line *l, const char **line, size_t *len)
{
	int r = read_line(e, deadline, 1, line, len);
	char what[160];

	if (r == LINE_STOP) {
		/* Ctrl-C while the engine is slow to answer: no point waiting. */
		snprintf(e->status, sizeof(e->status), "was stopped");
		reap(e);
		return engine_error(e, d, "was stopped by the stop flag while answering '%s'", cmd);
	}
	if (r == LINE_TIMEOUT) {
		snprintf(what, sizeof(what), "'%s'%s%s", cmd, context ? " " : "", context ? context : "");
		return hung(e, d, what, e->timeout_ms);
	}
	if (r != LINE_OK) {
		if (context)
			snprintf(what, sizeof(what), "%s", context);
		else
			snprintf(what, sizeof(what), "after '%s'", cmd);
		return died(e, d, what);
	}
	xq_engine_parse_line(l, *line, *len, e->proto, e->rank_base);
	return 0;
}

/* ---- handshake ------------------------------------------------------------ */

enum { HS_OK, HS_FAILED, HS_OTHER_PROTOCOL };

/*
 * Start the process and shake hands in `proto`.  HS_OK; HS_FAILED with `d`
 * filled (and the process reaped); HS_OTHER_PROTOCOL when a UCI handshake
 * was answered with `ucciok`.
 */
static int handshake(struct xq_engine *e, enum xq_protocol proto, struct xq_diag *d, int *spawn_failed)
{
	int64_t deadline;
	const char *hello = proto == XQ_PROTOCOL_UCCI ? "ucci" : "uci";

	*spawn_failed = 0;
	clear_listed(e);
	e->has_variant = e->variant_has_xiangqi = 0;
	e->proto = proto;
	if (spawn(e, d)) {
		*spawn_failed = 1;
		return HS_FAILED;
	}
	if (send_line(e, d, "%s", hello))
		return HS_FAILED;
	deadline = now_ms() + e->timeout_ms;
	for (;;) {
		const char *line;
		size_t len;
		struct xq_engine_line l;

		if (next_line(e, d, deadline, hello, NULL, &l, &line, &len))
			return HS_FAILED;
		switch (l.kind) {
		case XQ_LINE_ID_NAME:
			if (l.text_len) {
				size_t n = l.text_len < sizeof(e->name) - 1 ? l.text_len : sizeof(e->name) - 1;
				memcpy(e->name, l.text, n);
				e->name[n] = '\0';
			}
			break;
		case XQ_LINE_OPTION:
			if (add_listed(e, l.text, l.text_len))
				return xq_diag_set(d, XQ_ENOMEM, XQ_D_RESOURCE, XQ_SEV_ERROR,
						   "out of memory"), HS_FAILED;
			if (l.text_len == 11 && !memcmp(l.text, "UCI_Variant", 11)) {
				e->has_variant = 1;
				e->variant_has_xiangqi = l.has_xiangqi;
			}
			break;
		case XQ_LINE_UCIOK:
			if (proto == XQ_PROTOCOL_UCI)
				return HS_OK;
			break;
		case XQ_LINE_UCCIOK:
			if (proto == XQ_PROTOCOL_UCCI)
				return HS_OK;
			return HS_OTHER_PROTOCOL;
		default:
			break; /* banners and the like before the handshake ends */
		}
	}
}

static int wait_ready(struct xq_engine *e, struct xq_diag *d, const char *after)
{
	int64_t deadline;

	/* The engine may already have died of the last command (Pikafish exits on
	 * a FEN it rejects): then the write fails, and the message must still
	 * say after what. */
	if (send_line_when(e, d, after, "isready"))
		return XQ_EENGINE;
	deadline = now_ms() + e->timeout_ms;
	for (;;) {
		const char *line;
		size_t len;
		struct xq_engine_line l;

		if (next_line(e, d, deadline, "isready", after, &l, &line, &len))
			return XQ_EENGINE;
		if (l.kind == XQ_LINE_READYOK)
			return 0;
		if (l.kind == XQ_LINE_GARBAGE)
			count_garbage(e, line, len);
	}
}

static int set_option(struct xq_engine *e, struct xq_diag *d, const char *name, const char *value)
{
	if (e->proto == XQ_PROTOCOL_UCCI)
		return value && *value ? send_line(e, d, "setoption %s %s", name, value)
				       : send_line(e, d, "setoption %s", name);
	return value && *value ? send_line(e, d, "setoption name %s value %s", name, value)
			       : send_line(e, d, "setoption name %s", name);
}

/* After the handshake: variant, options, how to clear the hash, isready. */
static int configure(struct xq_engine *e, struct xq_diag *d)
{
	const char *n;

	if (e->proto == XQ_PROTOCOL_UCI && e->has_variant) {
		if (!e->variant_has_xiangqi) {
			reap(e);
			return engine_error(e, d, "does not list xiangqi among its variants");
		}
		if (set_option(e, d, "UCI_Variant", "xiangqi"))
			return XQ_EENGINE;
	}
	if (e->proto == XQ_PROTOCOL_UCCI)
		e->rank_base = 0;
	else if (e->want_ranks == XQ_RANKS_AUTO)
		e->rank_base = e->has_variant ? 1 : 0;
	else
		e->rank_base = e->want_ranks == XQ_RANKS_1;
	/* Deterministic analysis: one thread, no contempt. */
	if (!user_sets(e, "Threads") && (n = listed_option(e, "Threads")) && set_option(e, d, n, "1"))
		return XQ_EENGINE;
	if (!user_sets(e, "Contempt") && (n = listed_option(e, "Contempt")) &&
	    set_option(e, d, n, "0"))
		return XQ_EENGINE;
	for (size_t i = 0; i < e->noptions; i++) {
		if (!listed_option(e, e->options[i].name))
			warn(e, "does not list the option '%s'; sent anyway", e->options[i].name);
		if (set_option(e, d, e->options[i].name, e->options[i].value))
			return XQ_EENGINE;
	}
	e->newgame_cmd[0] = '\0';
	if (e->proto == XQ_PROTOCOL_UCI)
		snprintf(e->newgame_cmd, sizeof(e->newgame_cmd), "ucinewgame");
	else if ((n = listed_option(e, "newgame")) || (n = listed_option(e, "Clear_Hash")) ||
		 (n = listed_option(e, "Clear Hash")) || (n = listed_option(e, "clearhash")))
		snprintf(e->newgame_cmd, sizeof(e->newgame_cmd), "setoption %s", n);
	return wait_ready(e, d, "after the options were set");
}

static int start(struct xq_engine *e, struct xq_diag *d)
{
	struct xq_diag first;
	int r, spawn_failed;
	enum xq_protocol p = e->proto != XQ_PROTOCOL_AUTO ? e->proto : e->want_proto;

	e->stop_sent = 0;
	if (p != XQ_PROTOCOL_AUTO) {
		r = handshake(e, p, d, &spawn_failed);
		if (r == HS_OTHER_PROTOCOL) {
			reap(e);
			return engine_error(e, d, "answered 'uci' with 'ucciok'; use the ucci protocol");
		}
		if (r != HS_OK)
			return XQ_EENGINE;
		return configure(e, d);
	}
	xq_diag_init(&first);
	r = handshake(e, XQ_PROTOCOL_UCI, &first, &spawn_failed);
	if (r == HS_OK)
		return configure(e, d);
	if (spawn_failed) {
		if (d)
			*d = first;
		return XQ_EENGINE;
	}
	/* Not UCI (it exited, said nothing, or said ucciok): start it again with ucci. */
	reap(e);
	if (handshake(e, XQ_PROTOCOL_UCCI, d, &spawn_failed) != HS_OK) {
		if (d) {
			char second[XQ_DIAG_MSG_MAX];
			snprintf(second, sizeof(second), "%s", d->msg);
			engine_error(e, d, "answered neither 'uci' nor 'ucci' (uci: %.100s; ucci: %.100s)",
				     first.msg, second);
		}
		e->proto = XQ_PROTOCOL_AUTO;
		return XQ_EENGINE;
	}
	return configure(e, d);
}

void xq_engine_stop(struct xq_engine *e)
{
	if (!e || e->pid < 0)
		return;
	if (e->to_fd >= 0) {
		struct xq_diag ignore;
		xq_diag_init(&ignore);
		send_line(e, &ignore, "quit");
	}
	close_fd(&e->to_fd);
	if (e->pid >= 0)
		finish(e, e->timeout_ms < QUIT_GRACE_MS ? e->timeout_ms : QUIT_GRACE_MS);
}

int xq_engine_restart(struct xq_engine *e, struct xq_diag *d)
{
	xq_engine_stop(e);
	return start(e, d);
}

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *c = malloc(n);
	if (c)
		memcpy(c, s, n);
	return c;
}

void xq_engine_free(struct xq_engine *e)
{
	if (!e)
		return;
	xq_engine_stop(e);
	reap(e);
	clear_listed(e);
	free(e->listed);
	for (size_t i = 0; i < e->noptions; i++) {
		free((char *)e->options[i].name);
		free((char *)e->options[i].value);
	}
	free(e->options);
	if (e->argv)
		for (size_t i = 0; e->argv[i]; i++)
			free(e->argv[i]);
	free(e->argv);
	free(e->path);
	xq_buf_release(&e->in);
	free(e);
}

int xq_engine_new(struct xq_engine **out, const struct xq_engine_opts *o, struct xq_diag *d)
{
	struct xq_engine *e;
	size_t nargs = 0;
	const char *base;

	*out = NULL;
	if (!o || !o->path || !*o->path)
		return xq_diag_set(d, XQ_ERANGE, XQ_D_ENGINE, XQ_SEV_ERROR, "no engine program given");
	for (size_t i = 0; i < o->noptions; i++)
		if (!o->options[i].name || !*o->options[i].name || has_control(o->options[i].name) ||
		    (o->options[i].value && has_control(o->options[i].value)))
			return xq_diag_set(d, XQ_ERANGE, XQ_D_ENGINE, XQ_SEV_ERROR,
					   "engine option %zu has an empty name or a control character",
					   i + 1);
	e = calloc(1, sizeof(*e));
	if (!e)
		return xq_diag_set(d, XQ_ENOMEM, XQ_D_RESOURCE, XQ_SEV_ERROR, "out of memory");
	e->pid = -1;
	e->to_fd = e->from_fd = e->err_fd = -1;
	xq_buf_init(&e->in);
	e->want_proto = o->protocol;
	e->want_ranks = o->rank_base;
	e->timeout_ms = o->timeout_ms ? o->timeout_ms : DEFAULT_TIMEOUT_MS;
	e->search_timeout_ms = o->search_timeout_ms ? o->search_timeout_ms : DEFAULT_SEARCH_TIMEOUT_MS;
	e->fen_flags = o->fen_flags;
	e->keep_hash = o->keep_hash;
	e->stop = o->stop;
	e->warnings = o->warnings;
	e->path = dup_str(o->path);
	while (o->args && o->args[nargs])
		nargs++;
	e->argv = calloc(nargs + 2, sizeof(*e->argv));
	e->options = calloc(o->noptions + 1, sizeof(*e->options));
	if (!e->path || !e->argv || !e->options)
		goto nomem;
	e->argv[0] = dup_str(o->path);
	if (!e->argv[0])
		goto nomem;
	for (size_t i = 0; i < nargs; i++)
		if (!(e->argv[i + 1] = dup_str(o->args[i])))
			goto nomem;
	for (size_t i = 0; i < o->noptions; i++) {
		e->options[i].name = dup_str(o->options[i].name);
		e->options[i].value = dup_str(o->options[i].value ? o->options[i].value : "");
		e->noptions = i + 1;
		if (!e->options[i].name || !e->options[i].value)
			goto nomem;
	}
	base = strrchr(o->path, '/');
	snprintf(e->name, sizeof(e->name), "%s", base ? base + 1 : o->path);
	*out = e;
	return start(e, d);
nomem:
	xq_engine_free(e);
	return xq_diag_set(d, XQ_ENOMEM, XQ_D_RESOURCE, XQ_SEV_ERROR, "out of memory");
}

/* ---- analysis ------------------------------------------------------------- */

/* Append " m1 m2 ..." in the engine's notation. */
static int add_moves(struct xq_buf *b, const xq_move *moves, size_t n, int rank_base)
{
	for (size_t i = 0; i < n; i++) {
		char t[7];
		xq_engine_move_text(moves[i], rank_base, t);
		if (xq_buf_addc(b, ' ') || xq_buf_adds(b, t))
			return XQ_ENOMEM;
	}
	return 0;
}

int xq_engine_go_text(struct xq_buf *b, enum xq_protocol proto, const struct xq_limit *lim,
		      int *emulate_movetime)
{
	/* Appends go on after a failure (adding nothing): the sticky error
	 * is checked once, at the end. */
	*emulate_movetime = 0;
	xq_buf_adds(b, "go");
	if (proto == XQ_PROTOCOL_UCCI) {
		/* UCCI takes one mode; its `time` is a clock (in seconds for
		 * ElephantEye), so a move time is kept by us with `stop`. */
		if (lim->depth > 0)
			xq_buf_addf(b, " depth %d", lim->depth);
		else if (lim->nodes)
			xq_buf_addf(b, " nodes %llu", (unsigned long long)lim->nodes);
		else
			xq_buf_adds(b, " infinite");
		*emulate_movetime = lim->movetime_ms > 0;
	} else {
		if (lim->depth > 0)
			xq_buf_addf(b, " depth %d", lim->depth);
		if (lim->nodes)
			xq_buf_addf(b, " nodes %llu", (unsigned long long)lim->nodes);
		if (lim->movetime_ms)
			xq_buf_addf(b, " movetime %u", (unsigned)lim->movetime_ms);
	}
	return xq_buf_error(b);
}

static int go_command(struct xq_engine *e, struct xq_diag *d, const struct xq_limit *lim,
		      int *emulate_movetime)
{
	struct xq_buf b = XQ_BUF_INIT;
	int rc = xq_engine_go_text(&b, e->proto, lim, emulate_movetime);

	if (rc)
		rc = xq_diag_set(d, rc, XQ_D_RESOURCE, XQ_SEV_ERROR,
				 "out of memory: the search command was not sent");
	else
		rc = send_line(e, d, "%s", b.ptr);
	xq_buf_release(&b);
	return rc;
}

/* Keep only the part of the engine's PV that is legal from `now`. */
static void check_pv(struct xq_engine *e, struct xq_analysis *out, const struct xq_board *now,
		     const xq_move *pv, size_t n)
{
	struct xq_board b = *now;

	out->pv_len = 0;
	for (size_t i = 0; i < n && i < XQ_PV_MAX; i++) {
		struct xq_undo u;
		if (!xq_move_is_legal(&b, pv[i])) {
			char t[7];
			xq_engine_move_text(pv[i], e->rank_base, t);
			warn(e, "gave a principal variation with an illegal move '%s' at ply %zu; cut there",
			     t, i + 1);
			break;
		}
		out->pv[out->pv_len++] = pv[i];
		xq_board_make(&b, pv[i], &u);
	}
}

static int engine_analyse(void *impl, struct xq_analysis *out, const struct xq_board *start,
			  const xq_move *moves, size_t nmoves, const struct xq_board *now,
			  const struct xq_limit *limit, struct xq_diag *d)
{
	struct xq_engine *e = impl;
	struct xq_board base = *start, tmp = *now;
	xq_move legal[XQ_MAX_MOVES], pv[XQ_PV_MAX];
	size_t first = 0, pv_len = 0;
	struct xq_buf cmd = XQ_BUF_INIT;
	char fen[XQ_FEN_MAX];
	int rc, emulate, have_score = 0, stopped = 0, nlegal;
	int64_t t0, deadline, movetime_end = 0;
	uint32_t budget;

	e->cur_game = d ? d->game : 0;
	e->cur_ply = d ? d->ply : 0;
	out->side = now->side;
	nlegal = xq_gen_legal(&tmp, legal);
	if (nlegal == 0) {
		out->score.kind = XQ_SCORE_MATED;
		out->score.value = 0;
		out->flags |= XQ_ANALYSIS_NO_MOVES;
		return 0;
	}
	if (e->pid < 0)
		return engine_error(e, d, "is not running (%s); restart it",
				    e->status[0] ? e->status : "not started");

	/* The position after the last capture, and the moves since. */
	{
		struct xq_board b = *start;
		for (size_t i = 0; i < nmoves; i++) {
			struct xq_undo u;
			int capture = b.sq[XQ_MOVE_TO(moves[i])] != 0;
			xq_board_make(&b, moves[i], &u);
			if (capture) {
				first = i + 1;
				base = b;
			}
		}
	}
	rc = xq_board_validate(&base, e->fen_flags, d);
	if (rc) {
		if (d) {
			char msg[XQ_DIAG_MSG_MAX];
			snprintf(msg, sizeof(msg), "%s", d->msg);
			xq_diag_set(d, rc, XQ_D_BAD_FEN, XQ_SEV_ERROR,
				    "position not sent to engine '%s': %s", e->name, msg);
		}
		return rc;
	}
	if (base.halfmove > 100)
		base.halfmove = 100; /* Pikafish exits on a clock above 119 */
	xq_board_to_fen(&base, fen, sizeof(fen));

	drain_pending(e);
	if (e->pid < 0)
		return died(e, d, "while idle");
	if (!e->keep_hash && e->newgame_cmd[0] && send_line(e, d, "%s", e->newgame_cmd))
		return XQ_EENGINE;
	if (xq_buf_addf(&cmd, "position fen %s", fen) ||
	    (nmoves > first && (xq_buf_adds(&cmd, " moves") ||
				add_moves(&cmd, moves + first, nmoves - first, e->rank_base)))) {
		xq_buf_release(&cmd);
		return xq_diag_set(d, XQ_ENOMEM, XQ_D_RESOURCE, XQ_SEV_ERROR, "out of memory");
	}
	rc = send_line(e, d, "%s", cmd.ptr);
	xq_buf_release(&cmd);
	if (rc)
		return rc;
	rc = wait_ready(e, d, "after the position was sent (did it reject the position?)");
	if (rc)
		return rc;

	e->stop_sent = 0;
	if ((rc = go_command(e, d, limit, &emulate)))
		return rc == XQ_ENOMEM ? rc : XQ_EENGINE;
	t0 = now_ms();
	budget = limit->movetime_ms ? limit->movetime_ms + e->timeout_ms : e->search_timeout_ms;
	deadline = t0 + budget;
	if (emulate)
		movetime_end = t0 + limit->movetime_ms;

	for (;;) {
		const char *line;
		size_t len;
		struct xq_engine_line l;
		int64_t wait_until = movetime_end && !e->stop_sent && movetime_end < deadline
					     ? movetime_end
					     : deadline;
		int r = read_line(e, wait_until, 1, &line, &len);

		if (r == LINE_STOP || (r == LINE_TIMEOUT && wait_until == movetime_end && !e->stop_sent &&
				       movetime_end)) {
			if (r == LINE_STOP)
				stopped = 1;
			if (send_line(e, d, "stop"))
				return XQ_EENGINE;
			e->stop_sent = 1;
			if (stopped && deadline > now_ms() + e->timeout_ms)
				deadline = now_ms() + e->timeout_ms;
			continue;
		}
		if (r == LINE_TIMEOUT)
			return hung(e, d, stopped ? "'stop'" : "'go' (the search)",
				    stopped ? e->timeout_ms : budget);
		if (r != LINE_OK)
			return died(e, d, "during the search");
		xq_engine_parse_line(&l, line, len, e->proto, e->rank_base);
		if (l.kind == XQ_LINE_GARBAGE) {
			count_garbage(e, line, len);
			continue;
		}
		if (l.kind == XQ_LINE_INFO && !l.is_string && l.multipv <= 1) {
			if (l.has_score) {
				out->score = l.score;
				have_score = 1;
				if (l.bound)
					out->flags |= XQ_ANALYSIS_BOUND;
				else
					out->flags &= ~(unsigned)XQ_ANALYSIS_BOUND;
				if (l.depth >= 0)
					out->depth = l.depth;
				if (l.pv_len) {
					memcpy(pv, l.pv, l.pv_len * sizeof(pv[0]));
					pv_len = l.pv_len;
				}
			}
			if (l.seldepth >= 0)
				out->seldepth = l.seldepth;
			if (l.nodes)
				out->nodes = l.nodes;
			if (l.time_ms >= 0)
				out->time_ms = (uint32_t)(l.time_ms > UINT32_MAX ? UINT32_MAX : l.time_ms);
			continue;
		}
		if (l.kind != XQ_LINE_BESTMOVE)
			continue;
		/* The answer. */
		if (!out->time_ms) {
			int64_t took = now_ms() - t0;
			out->time_ms = (uint32_t)(took < 0 ? 0 : took);
		}
		if (l.bad_move) {
			char text[100];
			printable(text, sizeof(text), line, len);
			return engine_error(e, d, "sent a malformed best move: '%s'", text);
		}
		/* A lie is told about the position searched, not the one sent
		 * (the last capture, before the moves since). */
		if (!l.move) {
			xq_board_to_fen(now, fen, sizeof(fen));
			return engine_error(e, d,
					    "lied: it said there is no move, but %d legal moves exist in %s",
					    nlegal, fen);
		}
		tmp = *now;
		if (!xq_move_is_legal(&tmp, l.move)) {
			char t[7], iccs[5];
			xq_board_to_fen(now, fen, sizeof(fen));
			xq_engine_move_text(l.move, e->rank_base, t);
			xq_move_name(l.move, iccs);
			return engine_error(e, d, "lied: its best move '%s' (%s) is not legal in %s", t,
					    iccs, fen);
		}
		if (!have_score)
			return engine_error(e, d, "gave a best move but no score");
		out->best = l.move;
		if (pv_len && pv[0] == l.move)
			check_pv(e, out, now, pv, pv_len);
		else
			check_pv(e, out, now, &l.move, 1);
		if (stopped)
			out->flags |= XQ_ANALYSIS_STOPPED;
		return 0;
	}
}

int xq_engine_analyse(struct xq_engine *e, struct xq_analysis *out, const struct xq_board *start,
		      const xq_move *moves, size_t nmoves, const struct xq_limit *limit,
		      struct xq_diag *d)
{
	struct xq_analyser a;

	xq_engine_analyser(&a, e);
	return xq_analyse(&a, out, start, moves, nmoves, limit, d);
}

static int engine_restart(void *impl, struct xq_diag *d)
{
	return xq_engine_restart(impl, d);
}

static const char *engine_name(const void *impl)
{
	return xq_engine_name(impl);
}

static const struct xq_analyser_ops engine_ops = {
	engine_analyse,
	engine_restart,
	engine_name,
};

void xq_engine_analyser(struct xq_analyser *a, struct xq_engine *e)
{
	a->ops = &engine_ops;
	a->impl = e;
}

const char *xq_engine_name(const struct xq_engine *e)
{
	return e->name;
}

enum xq_protocol xq_engine_protocol(const struct xq_engine *e)
{
	return e->proto;
}

int xq_engine_rank_base(const struct xq_engine *e)
{
	return e->rank_base;
}

long xq_engine_pid(const struct xq_engine *e)
{
	return e->pid < 0 ? -1 : (long)e->pid;
}

unsigned long xq_engine_garbage_count(const struct xq_engine *e)
{
	return e->garbage;
}

unsigned long xq_engine_start_count(const struct xq_engine *e)
{
	return e->starts;
}
