/*
 * common.c: small helpers every command uses: messages on stderr, clocks.
 */
#include "cmd.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
	return XQ_EXIT_USAGE;
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
