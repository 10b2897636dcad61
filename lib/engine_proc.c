/*
 * engine_proc.c: the engine's process and the conversation with it (see engine.c
 * for the whole, engine_int.h for what the parts share).
 */
#include "engine_int.h"

/* ---- time ------------------------------------------------------------------ */

int64_t xqi_eng_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void xqi_eng_sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* ---- what the engine did wrong ---------------------------------------------- */

/* Fill `d` with an engine error and return XQ_EENGINE. */
int xqi_eng_error(struct xqi_engine *e, struct xq_diagnostic *d, const char *fmt, ...)
{
	char what[XQ_MESSAGE_SIZE];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return xqi_diagnostic_set(d, XQ_EENGINE, XQI_D_ENGINE, XQ_SEVERITY_ERROR, "engine '%s' %s", e->name,
			   what);
}

void xqi_eng_warn(struct xqi_engine *e, const char *fmt, ...)
{
	struct xq_diagnostic w;
	char what[XQ_MESSAGE_SIZE];
	va_list ap;

	if (!e->warnings || e->warned >= WARNINGS_REPORTED)
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	xqi_diagnostic_init(&w);
	w.game = e->cur_game;
	w.ply = e->cur_ply;
	e->warned++;
	xqi_diagnostic_set(&w, 0, XQI_D_ENGINE, XQ_SEVERITY_WARNING, "engine '%s' %s%s", e->name, what,
		    e->warned == WARNINGS_REPORTED ? " (further warnings from this engine not shown)"
						   : "");
	xqi_sink_report(e->warnings, &w);
}

void xqi_eng_count_garbage(struct xqi_engine *e, const char *line, size_t len)
{
	char text[100];

	e->garbage++;
	xqi_eng_printable(text, sizeof(text), line, len);
	xqi_eng_warn(e, "printed a line that means nothing, ignored: '%s'", text);
}

/* ---- the process ----------------------------------------------------------- */

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

void xqi_eng_close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void describe_status(struct xqi_engine *e, int st)
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
void xqi_eng_reap(struct xqi_engine *e)
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
	xqi_eng_close_fd(&e->to_fd);
	xqi_eng_close_fd(&e->from_fd);
	xqi_eng_close_fd(&e->err_fd);
}

/* Has the process exited (without reaping it)?  Records how it ended. */
static int exited(struct xqi_engine *e)
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

static void drain_stderr(struct xqi_engine *e);

/* Wait up to `ms` for the process to exit; keep its last words; reap it
 * either way. */
void xqi_eng_finish(struct xqi_engine *e, uint32_t ms)
{
	int64_t until = xqi_eng_now_ms() + ms;

	while (e->pid >= 0 && !exited(e) && xqi_eng_now_ms() < until)
		xqi_eng_sleep_ms(5);
	if (e->pid >= 0 && !e->status[0] && !exited(e))
		snprintf(e->status, sizeof(e->status), "was killed after %u ms", (unsigned)ms);
	drain_stderr(e);
	xqi_eng_reap(e);
}

static int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

int xqi_eng_spawn(struct xqi_engine *e, struct xq_diagnostic *d)
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
		xqi_eng_close_fd(&in[0]), xqi_eng_close_fd(&in[1]), xqi_eng_close_fd(&out[0]), xqi_eng_close_fd(&out[1]);
		xqi_eng_close_fd(&err[0]), xqi_eng_close_fd(&err[1]);
		return xqi_eng_error(e, d, "cannot be started: pipe: %s", strerror(rc));
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
	xqi_eng_close_fd(&in[0]);
	xqi_eng_close_fd(&out[1]);
	xqi_eng_close_fd(&err[1]);
	if (rc != 0) {
		e->pid = -1;
		xqi_eng_close_fd(&in[1]), xqi_eng_close_fd(&out[0]), xqi_eng_close_fd(&err[0]);
		return xqi_eng_error(e, d, "cannot be started: %s: %s", e->path, strerror(rc));
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
static void drain_stderr(struct xqi_engine *e)
{
	char buf[4096];
	ssize_t n;

	while (e->err_fd >= 0) {
		n = read(e->err_fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				xqi_eng_close_fd(&e->err_fd);
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
				xqi_eng_printable(e->last_err, sizeof(e->last_err), buf + lo, (size_t)(hi - lo));
			}
		}
	}
}

/* "; it said '...'" for messages, from the last output lines. */
static const char *last_words(const struct xqi_engine *e, char *buf, size_t cap)
{
	if (e->last_err[0])
		snprintf(buf, cap, "; its last message: '%s'", e->last_err);
	else if (e->last_out[0])
		snprintf(buf, cap, "; its last line: '%s'", e->last_out);
	else
		buf[0] = '\0';
	return buf;
}

void xqi_eng_drain_pending(struct xqi_engine *e);

/* The process is gone or going: read what it said last, reap it and report. */
int xqi_eng_died(struct xqi_engine *e, struct xq_diagnostic *d, const char *when)
{
	char words[200];
	int64_t until = xqi_eng_now_ms() + 1000;

	/* Its last lines may still sit unread in the pipe (a write that met the
	 * dead engine comes here before any read): they often say why it died. */
	while (e->pid >= 0 && !exited(e) && xqi_eng_now_ms() < until)
		xqi_eng_sleep_ms(5);
	xqi_eng_drain_pending(e);
	xqi_eng_finish(e, 1000);
	return xqi_eng_error(e, d, "%s %s%s", e->status[0] ? e->status : "stopped", when,
			    last_words(e, words, sizeof(words)));
}

int xqi_eng_hung(struct xqi_engine *e, struct xq_diagnostic *d, const char *what, uint32_t ms)
{
	char words[200];

	snprintf(e->status, sizeof(e->status), "was killed");
	xqi_eng_reap(e);
	return xqi_eng_error(e, d, "did not answer %s within %u ms and was killed%s", what,
			    (unsigned)ms, last_words(e, words, sizeof(words)));
}

/*
 * Write one command line.  SIGPIPE is blocked in this thread for the
 * write; a SIGPIPE it raised is consumed before the mask is restored.
 */
static int vsend_line(struct xqi_engine *e, struct xq_diagnostic *d, const char *when, const char *fmt,
		      va_list ap)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 0)))
#endif
	;

/* `when` says, if the engine turns out to be dead, after what it died. */
static int vsend_line(struct xqi_engine *e, struct xq_diagnostic *d, const char *when, const char *fmt,
		      va_list ap)
{
	struct xq_buf b = XQ_BUF_INIT;
	sigset_t pipe_set, old, pending;
	int was_pending, rc = 0, epipe = 0;
	int64_t until;
	size_t off = 0;

	if (e->pid < 0 || e->to_fd < 0)
		return xqi_eng_error(e, d, "is not running");
	rc = xq_buf_vaddf(&b, fmt, ap);
	if (rc || xq_buf_addc(&b, '\n')) {
		xq_buf_release(&b);
		return xqi_diagnostic_set(d, XQ_ENOMEM, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "out of memory");
	}
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	sigemptyset(&pending);
	sigpending(&pending);
	was_pending = sigismember(&pending, SIGPIPE) == 1;
	until = xqi_eng_now_ms() + e->timeout_ms;
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
			int64_t left = until - xqi_eng_now_ms();
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
		return xqi_eng_died(e, d, when);
	if (rc)
		return xqi_eng_hung(e, d, "(it stopped reading its input)", e->timeout_ms);
	return 0;
}

int xqi_eng_send_line(struct xqi_engine *e, struct xq_diagnostic *d, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vsend_line(e, d, "before a command could be sent", fmt, ap);
	va_end(ap);
	return rc;
}

int xqi_eng_send_line_when(struct xqi_engine *e, struct xq_diagnostic *d, const char *when,
			  const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vsend_line(e, d, when, fmt, ap);
	va_end(ap);
	return rc;
}

/*
 * Wait for the next line until `deadline` (xqi_eng_now_ms() scale).  Returns
 * LINE_OK with the line in *line and *len (valid until the next call),
 * LINE_TIMEOUT, LINE_EOF when the engine closed its output or exited, or
 * LINE_STOP once when `watch_stop` is set and the stop flag is raised.
 */
int xqi_eng_read_line(struct xqi_engine *e, int64_t deadline, int watch_stop, const char **line,
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
				xqi_eng_printable(e->last_out, sizeof(e->last_out), start, *len);
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
		left = deadline - xqi_eng_now_ms();
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
				xqi_eng_close_fd(&e->from_fd);
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
			xqi_eng_close_fd(&e->from_fd);
			if (e->in.len > e->in_used && xq_buf_addc(&e->in, '\n'))
				return LINE_EOF;
		}
	}
}

/* Read and classify lines that are already waiting, without blocking. */
void xqi_eng_drain_pending(struct xqi_engine *e)
{
	const char *line;
	size_t len;

	while (e->pid >= 0 && xqi_eng_read_line(e, xqi_eng_now_ms(), 0, &line, &len) == LINE_OK) {
		struct xqi_engine_line l;
		xqi_engine_parse_line(&l, line, len, e->proto, e->rank_base);
		if (l.kind == XQI_LINE_GARBAGE)
			xqi_eng_count_garbage(e, line, len);
	}
}

/*
 * The next line before `deadline`, parsed in the current dialect.  On a
 * timeout or an exit the engine is reaped and XQ_EENGINE returned, with a
 * message saying it was answering `cmd` (and `context`, e.g. "after the
 * position was sent", when given); likewise when the stop flag is raised,
 * so that Ctrl-C never waits for a slow handshake.
 */
int xqi_eng_next_line(struct xqi_engine *e, struct xq_diagnostic *d, int64_t deadline, const char *cmd,
		     const char *context, struct xqi_engine_line *l, const char **line, size_t *len)
{
	int r = xqi_eng_read_line(e, deadline, 1, line, len);
	char what[160];

	if (r == LINE_STOP) {
		/* Ctrl-C while the engine is slow to answer: no point waiting. */
		snprintf(e->status, sizeof(e->status), "was stopped");
		xqi_eng_reap(e);
		return xqi_eng_error(e, d, "was stopped by the stop flag while answering '%s'", cmd);
	}
	if (r == LINE_TIMEOUT) {
		snprintf(what, sizeof(what), "'%s'%s%s", cmd, context ? " " : "", context ? context : "");
		return xqi_eng_hung(e, d, what, e->timeout_ms);
	}
	if (r != LINE_OK) {
		if (context)
			snprintf(what, sizeof(what), "%s", context);
		else
			snprintf(what, sizeof(what), "after '%s'", cmd);
		return xqi_eng_died(e, d, what);
	}
	xqi_engine_parse_line(l, *line, *len, e->proto, e->rank_base);
	return 0;
}
