/*
 * test_readers.c: what every reader owes its caller, whatever the input:
 * it moves on between two games (xq_read_guard).
 */
#include "testutil.h"

#include "ccb_testutil.h"

static void report_into(const struct xq_diag *d, void *payload)
{
	collect(d, payload);
}

static void reader_that_returns_a_game_without_moving_on_is_an_internal_error(void **state)
{
	static struct collected c;
	struct xq_sink sink = {report_into, &c};
	struct xq_read_guard gd = {0, 0};
	struct xq_game g;

	(void)state;
	assert_int_equal(xq_game_init(&g), 0);
	g.source = "in.pgn";
	g.number = 1;
	/* The first game may stand anywhere (even at 0: an empty XQF is one). */
	assert_int_equal(xq_read_guard(&gd, 1, 0, &g, &sink), 1);
	g.number = 2;
	assert_int_equal(xq_read_guard(&gd, 1, 10, &g, &sink), 1);
	assert_int_equal(c.n, 0);
	/* The end and errors pass as they are. */
	assert_int_equal(xq_read_guard(&gd, 0, 10, &g, &sink), 0);
	assert_int_equal(xq_read_guard(&gd, XQ_EPARSE, 10, &g, &sink), XQ_EPARSE);
	/* A game where the last one was returned: a bug, not a loop. */
	g.number = 3;
	assert_int_equal(xq_read_guard(&gd, 1, 10, &g, &sink), XQ_EINTERNAL);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.d[0].code, XQ_D_INTERNAL);
	assert_int_equal(c.d[0].severity, XQ_SEV_ERROR);
	assert_int_equal(c.d[0].game, 3);
	assert_string_equal(c.d[0].source, "in.pgn");
	assert_non_null(strstr(c.d[0].msg, "without moving on"));
	xq_game_release(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reader_that_returns_a_game_without_moving_on_is_an_internal_error),
	};
	return cmocka_run_group_tests_name("readers", tests, NULL, NULL);
}
