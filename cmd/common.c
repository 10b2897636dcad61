/*
 * common.c: small helpers every command uses: messages on stderr, clocks.
 */
#include "cmd.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <xq/position.h>

static void vmessage(const char *level, const char *fmt, va_list ap)
{
	fprintf(stderr, "xqkit: %s: ", level);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cmd_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("error", fmt, ap);
	va_end(ap);
}

void cmd_warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("warning", fmt, ap);
	va_end(ap);
}

int cmd_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("error", fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try 'xqkit %s --help' for more information.\n", cmd);
	return CMD_EXIT_USAGE;
}

double cmd_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int cmd_nproc(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

int cmd_test_fault(const char *what)
{
	const char *f = getenv("XQ_TEST_FAULT");
	return f && !strcmp(f, what);
}

volatile sig_atomic_t cmd_signal, cmd_keep_reading;
xq_cancel *cmd_stop, *cmd_cancel;
static volatile sig_atomic_t signals_seen;

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};

/* The deadline after the first signal (cmd.h): a timer that raises
 * SIGALRM, made when the signals are caught; `has_deadline` says it was
 * made (else alarm(), a second later). */
static timer_t deadline;
static int has_deadline;

/* Signal `sig` with its default action, to end the process by it
 * (async-signal-safe calls only: a handler may call it). */
static void raise_by_default(int sig)
{
	struct sigaction sa;
	sigset_t set;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}

/* End the process at once by signal `sig` (in a signal handler), saying
 * why in one write. */
static void stop_now(int sig, const char *why, size_t len)
{
	if (write(2, why, len) < 0) {
		/* nothing else can be done about it */
	}
	raise_by_default(sig);
	_exit(128 + sig); /* (only if the default action did not end it) */
}

#define SAY(s) s, sizeof(s) - 1

static void on_deadline(int sig)
{
	(void)sig;
	stop_now(cmd_signal ? cmd_signal : SIGTERM,
		 SAY("xqkit: error: interrupted: not stopped within a second, ended at once\n"));
}

void cmd_arm_deadline(void)
{
	struct itimerspec when;

	memset(&when, 0, sizeof(when));
	when.it_value.tv_nsec = CMD_DEADLINE_MS * 1000000L;
	if (has_deadline)
		timer_settime(deadline, 0, &when, NULL);
	else
		alarm(1);
}

static void on_signal(int sig)
{
	if (signals_seen)
		stop_now(sig, SAY("xqkit: error: interrupted again: ended at once\n"));
	cmd_signal = sig;
	if (cmd_stop)
		xq_cancel_set(cmd_stop);
	if (!cmd_keep_reading && cmd_cancel)
		xq_cancel_set(cmd_cancel);
	signals_seen = 1;
	if (!cmd_keep_reading)
		cmd_arm_deadline();
}

void cmd_catch_signals(void)
{
	struct sigaction sa, old;
	struct sigevent ev;

	if (!cmd_stop)
		cmd_stop = xq_cancel_new(); /* for the life of the process */
	if (!cmd_cancel)
		cmd_cancel = xq_cancel_new();
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGALRM;
	if (!has_deadline && timer_create(CLOCK_MONOTONIC, &ev, &deadline) == 0)
		has_deadline = 1;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_deadline;
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_handler = on_signal;
	/* No SA_RESTART: a wait on a pipe or a full one returns EINTR. */
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		if (sigaction(stop_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(stop_signals[i], &sa, NULL);
}

int cmd_reading_canceled(void)
{
	return cmd_cancel && xq_cancel_is_set(cmd_cancel);
}

int cmd_signal_status(void)
{
	return 128 + cmd_signal;
}

void cmd_die_by_signal(void)
{
	if (cmd_signal)
		raise_by_default(cmd_signal);
}

int cmd_position_worker_init(void *ctx, int id, void **worker)
{
	(void)ctx;
	(void)id;
	*worker = xq_position_new();
	return *worker ? 0 : XQ_ENOMEM;
}

void cmd_position_worker_fini(void *ctx, void *worker)
{
	(void)ctx;
	xq_position_free(worker);
}
