/*
 * test_cancel.c: a long count through the public API can be stopped
 * from outside (issue 34, finding 4: perft(12) from Python could not be
 * interrupted).  Built and run by tests/install.sh as test_api.c is.
 */
#define _XOPEN_SOURCE 700
#include "testutil.h"

#include <pthread.h>
#include <time.h>

#include <xq/xq.h>

static void perft_cancel_counts_as_perft_does(void **state)
{
	xq_position *p = xq_position_new();
	uint64_t n = 7;

	(void)state;
	for (int depth = 0; depth <= 4; depth++) {
		assert_int_equal(xq_position_perft_cancel(p, depth, NULL, &n), 0);
		assert_true(n == xq_position_perft(p, depth));
	}
	assert_true(n == 3290240);
	xq_position_free(p);
}

static void perft_cancel_refuses_a_negative_depth(void **state)
{
	xq_position *p = xq_position_new();
	uint64_t n = 7;

	(void)state;
	assert_int_equal(xq_position_perft_cancel(p, -1, NULL, &n), XQ_ERANGE);
	assert_true(n == 0);
	xq_position_free(p);
}

struct later {
	xq_cancel *c;
	unsigned ms;
};

static void *set_later(void *arg)
{
	struct later *l = arg;
	struct timespec t = {(time_t)(l->ms / 1000), (long)(l->ms % 1000) * 1000000L};

	nanosleep(&t, NULL);
	xq_cancel_set(l->c);
	return NULL;
}

static double now_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* perft 9 from the start is some 10^13 leaves, days of counting: the flag
 * set from another thread after 50 ms stops it within milliseconds (the
 * test allows 5 s for a loaded machine; a count that never looks at the
 * flag runs for days).  A flag already set stops a count at once. */
static void perft_cancel_stops_soon_after_the_flag_is_set(void **state)
{
	xq_position *p = xq_position_new();
	struct later l = {xq_cancel_new(), 50};
	pthread_t th;
	uint64_t n = 0;
	double t0;

	(void)state;
	assert_non_null(l.c);
	t0 = now_seconds();
	assert_int_equal(pthread_create(&th, NULL, set_later, &l), 0);
	assert_int_equal(xq_position_perft_cancel(p, 9, l.c, &n), XQ_ECANCELED);
	assert_true(now_seconds() - t0 < 5.0);
	assert_true(n > 0);
	pthread_join(th, NULL);
	assert_int_equal(xq_position_perft_cancel(p, 5, l.c, &n), XQ_ECANCELED);
	xq_cancel_free(l.c);
	xq_position_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(perft_cancel_counts_as_perft_does),
		cmocka_unit_test(perft_cancel_refuses_a_negative_depth),
		cmocka_unit_test(perft_cancel_stops_soon_after_the_flag_is_set),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
