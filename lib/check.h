/*
 * check.h: internal checks that cost nothing in the release build.
 *
 * XQ_CHECKS is defined in the builds made to test (the sanitizer builds,
 * DEVELOPER=1, the fuzzers, and any build with CHECKS=1; see the
 * Makefile).  There a failed check names its file and line on standard
 * error and aborts, so a sanitizer run, a fuzzer or a test stops at the
 * bug.  In the release build the checks compile to nothing.
 *
 * A check states an invariant of the code, never something the input can
 * break: what input can cause is reported as a diagnostic (diagnostic.h).
 *
 * XQI_ADVANCED(was, now) is the step of a loop that must make progress:
 * `now` (a measure of the work done, such as the input position plus the
 * bytes read) must be above `was`, which then takes its value.  Written in
 * the third clause of a for loop, it runs at the end of every iteration
 * that goes on, `continue` included:
 *
 *     for (uint64_t was = progress(r);; XQI_ADVANCED(was, progress(r))) {
 *             ...
 *     }
 *
 * A loop whose measure rises at every step and is bounded (by the input's
 * size and the limits of LIMITS in xqkit(1)) ends.
 */
#ifndef XQI_LIB_CHECK_H
#define XQI_LIB_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static inline void xqi_check_failed(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: internal check failed: %s\n", file, line, what);
	abort();
}

#ifdef XQ_CHECKS
#define XQI_CHECK(cond) ((cond) ? (void)0 : xqi_check_failed(__FILE__, __LINE__, #cond))
#define XQI_ADVANCED(was, now)                                                                  \
	((now) > (was) ? (void)((was) = (now))                                                 \
		       : xqi_check_failed(__FILE__, __LINE__, "no progress: " #now " <= " #was))
#else
#define XQI_CHECK(cond) ((void)sizeof(cond))
#define XQI_ADVANCED(was, now) ((void)(was))
#endif

#endif
