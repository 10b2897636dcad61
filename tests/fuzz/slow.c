/*
 * slow.c: the CPU-time limit per fuzz input (slow.h), and the wrapper of
 * LLVMFuzzerTestOneInput that puts it around every input of a libFuzzer
 * run (linked with -Wl,--wrap=LLVMFuzzerTestOneInput: libFuzzer's call
 * comes here, and __real_ is the target's function).
 */
#define _POSIX_C_SOURCE 200809L
#include "slow.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* The input being run, for the message (the handler only writes it). */
static char current[4096];
static volatile sig_atomic_t limit_secs = FUZZ_SLOW_SECONDS;
static volatile sig_atomic_t abort_slow;

static void too_slow(int sig)
{
	static const char head[] = "slow input: ";
	char tail[96];
	int n;

	(void)sig;
	n = snprintf(tail, sizeof(tail), " runs for more than %d s of CPU: a finding\n",
		     (int)limit_secs);
	if (write(2, head, sizeof(head) - 1) < 0 || write(2, current, strlen(current)) < 0 ||
	    write(2, tail, n > 0 ? (size_t)n : 0) < 0)
		_exit(1);
	if (abort_slow)
		abort();
	_exit(1);
}

void fuzz_slow_init(int abort_on_slow)
{
	const char *env = getenv("XQI_FUZZ_SLOW");
	struct sigaction sa;
	long secs = env ? strtol(env, NULL, 10) : 0;

	if (secs > 0 && secs < 100000)
		limit_secs = (sig_atomic_t)secs;
	abort_slow = abort_on_slow;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = too_slow;
	sigaction(SIGPROF, &sa, NULL);
}

int fuzz_slow_limit(void)
{
	return (int)limit_secs;
}

static void alarm_cpu(int secs)
{
	struct itimerval t;

	memset(&t, 0, sizeof(t));
	t.it_value.tv_sec = secs;
	setitimer(ITIMER_PROF, &t, NULL);
}

void fuzz_slow_arm(const char *name)
{
	snprintf(current, sizeof(current), "%s", name);
	alarm_cpu(limit_secs);
}

void fuzz_slow_disarm(void)
{
	alarm_cpu(0);
}

double fuzz_cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#ifdef FUZZ_WRAP
int __real_LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int __wrap_LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int __wrap_LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	int rc;

	if (!ready) {
		fuzz_slow_init(1);
		ready = 1;
	}
	fuzz_slow_arm("this input (libFuzzer writes it below)");
	rc = __real_LLVMFuzzerTestOneInput(data, size);
	fuzz_slow_disarm();
	return rc;
}
#endif
