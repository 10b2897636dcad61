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

static void on_signal(int sig)
{
	cmd_signal = sig;
	if (cmd_stop)
		xq_cancel_set(cmd_stop);
	if ((!cmd_keep_reading || signals_seen) && cmd_cancel)
		xq_cancel_set(cmd_cancel);
	signals_seen = 1;
}

void cmd_catch_signals(void)
{
	struct sigaction sa, old;

	if (!cmd_stop)
		cmd_stop = xq_cancel_new(); /* for the life of the process */
	if (!cmd_cancel)
		cmd_cancel = xq_cancel_new();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
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
	struct sigaction sa;
	sigset_t set;
	int sig = cmd_signal;

	if (!sig)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
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
