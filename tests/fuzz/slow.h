/*
 * slow.h: the time limit every fuzz input runs under.  Slowness is a
 * finding: an input that takes more than FUZZ_SLOW_SECONDS of CPU time
 * (XQI_FUZZ_SLOW, in seconds, changes it: for a run under valgrind, say)
 * is reported, naming it, and the run stops.  CPU time, not wall-clock
 * time: on a loaded machine an input waits for a core without being slow.
 *
 * Every target refuses inputs above 64 KiB; a linear reader takes
 * milliseconds over that much, a tenth of a second under the sanitizers
 * and libFuzzer's instrumentation, where a quadratic one over 64 KiB
 * takes seconds to minutes.  A hang is caught by the same clock
 * (SIGPROF), so a run always ends.
 *
 * The replay of `make check` (standalone.c) arms the limit around each
 * input; a libFuzzer target is linked with --wrap=LLVMFuzzerTestOneInput
 * so that every input it runs goes through slow.c's wrapper, which does
 * the same and aborts on a slow input, so that libFuzzer keeps it (as a
 * crash-* artifact, after the "slow input" line).
 */
#ifndef XQI_FUZZ_SLOW_H
#define XQI_FUZZ_SLOW_H

#define FUZZ_SLOW_SECONDS 5

/* Install the SIGPROF handler and read XQI_FUZZ_SLOW; on a slow input the
 * handler exits with status 1 (abort_on_slow 0) or aborts. */
void fuzz_slow_init(int abort_on_slow);
/* The limit in seconds. */
int fuzz_slow_limit(void);
/* Arm the limit for the input called `name` (kept for the message) /
 * disarm it. */
void fuzz_slow_arm(const char *name);
void fuzz_slow_disarm(void);
/* CPU time of the process so far, in seconds. */
double fuzz_cpu_seconds(void);

#endif
