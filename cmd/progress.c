/*
 * progress.c: the progress line (see progress.h).
 *
 * It says how many games are done, the rate, and, when the total size of
 * the inputs is known, how far through the bytes the run is and the time
 * left at the current rate.  The state is one static struct: progress is
 * a property of the process's terminal, and only the output thread (the
 * one thread that emits at a time, <xq/batch.h>) touches it.
 */
#include "progress.h"

#include <stdio.h>
#include <unistd.h>

#include "cmd.h"

static struct {
	int on;
	int shown;       /* a line is on the screen */
	const char *what;
	int64_t total;   /* bytes, -1 unknown */
	double start, last;
} P;

void progress_start(int mode, const char *what, int64_t total_bytes)
{
	P.on = mode == 2 || (mode == 1 && isatty(2));
	P.shown = 0;
	P.what = what;
	P.total = total_bytes;
	P.start = cmd_now();
	P.last = 0;
}

int progress_enabled(void)
{
	return P.on;
}

static void fmt_time(char *out, size_t cap, double s)
{
	long t = (long)(s + 0.5);
	if (t >= 3600)
		snprintf(out, cap, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(out, cap, "%ld:%02ld", t / 60, t % 60);
}

void progress_update(uint64_t games, uint64_t bytes)
{
	double now, secs, rate;

	if (!P.on)
		return;
	now = cmd_now();
	if (now - P.last < 0.1)
		return;
	P.last = now;
	secs = now - P.start;
	rate = secs > 0 ? (double)games / secs : 0;
	fprintf(stderr, "\r%s: %llu game%s, %.0f games/s", P.what, (unsigned long long)games,
		games == 1 ? "" : "s", rate);
	if (P.total > 0 && bytes > 0) {
		double frac = (double)bytes / (double)P.total;
		char left[32];
		if (frac > 1)
			frac = 1;
		fmt_time(left, sizeof(left), secs / frac - secs);
		fprintf(stderr, ", %.0f%%, %s left", frac * 100, left);
	}
	fputs("\033[K", stderr);
	fflush(stderr);
	P.shown = 1;
}

void progress_clear(void)
{
	if (!P.shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	P.shown = 0;
}

void progress_stop(void)
{
	progress_clear();
	P.on = 0;
}
