/*
 * test_tags.c: a record's tags through the public API when there are many
 * of them: what a program does with each tag costs no scan of the others
 * (issue 34, finding 3).  Built and run by tests/install.sh as
 * test_api.c is.
 */
#define _XOPEN_SOURCE 700
#include "testutil.h"

#include <sys/resource.h>

#include <xq/xq.h>

#define MANY 200000

/* At most `secs` more seconds of CPU for this process (SIGXCPU ends it,
 * and the test fails, past them): a limit a loaded machine does not
 * reach, where a quadratic walk over MANY tags runs for minutes. */
static struct rlimit cpu_limit(double secs)
{
	struct rlimit was, now;
	struct rusage u;

	getrlimit(RLIMIT_CPU, &was);
	getrusage(RUSAGE_SELF, &u);
	now = was;
	now.rlim_cur = (rlim_t)(u.ru_utime.tv_sec + u.ru_stime.tv_sec + secs);
	if (was.rlim_max != RLIM_INFINITY && now.rlim_cur > was.rlim_max)
		now.rlim_cur = was.rlim_max;
	setrlimit(RLIMIT_CPU, &now);
	return was;
}

/* The one game of the PGN text in `b`, read as a program reads it. */
static xq_record *read_pgn(const struct xq_buf *b)
{
	xq_reader *rd;
	xq_record *r = NULL;

	assert_int_equal(xq_reader_open_memory(&rd, "tags.pgn", b->ptr, b->len, NULL, NULL, NULL), 0);
	assert_int_equal(xq_reader_next(rd, &r), 1);
	xq_reader_close(rd);
	return r;
}

/* A game of MANY tags T0 .. T<MANY-1>, in that order or the other. */
static xq_record *many_tags(int reversed)
{
	xq_buf b = XQ_BUF_INIT;
	xq_record *r;

	for (int i = 0; i < MANY; i++)
		xq_buf_addf(&b, "[T%d \"v\"]\n", reversed ? MANY - 1 - i : i);
	xq_buf_adds(&b, "\n1. h2e2 *\n");
	assert_int_equal(xq_buf_error(&b), 0);
	r = read_pgn(&b);
	xq_buf_release(&b);
	assert_int_equal(xq_record_tag_count(r), MANY);
	return r;
}

static void records_of_many_tags_compare_in_any_order_in_linear_time(void **state)
{
	xq_record *a = many_tags(0), *b = many_tags(1);
	struct rlimit was;
	char why[256];

	(void)state;
	/* Each tag of one looked up by a scan of the other's: 2 x 10^10
	 * comparisons, minutes; sorted, a fraction of a second. */
	was = cpu_limit(20);
	assert_int_equal(xq_record_equal(a, b, XQ_EQUAL_IGNORE_TAG_ORDER, why, sizeof(why)), 1);
	assert_int_equal(xq_record_equal(a, b, 0, why, sizeof(why)), 0);
	assert_string_equal(why, "tag 1 differs: [T0 \"v\"] and [T199999 \"v\"]");
	assert_int_equal(xq_record_set_tag(b, "T7", "w"), 0);
	assert_int_equal(xq_record_equal(a, b, XQ_EQUAL_IGNORE_TAG_ORDER, why, sizeof(why)), 0);
	assert_string_equal(why, "tag T7 differs: 'v' and 'w'");
	assert_int_equal(xq_record_set_tag(a, "Extra", "x"), 0);
	assert_int_equal(xq_record_set_tag(b, "T7", "v"), 0);
	assert_int_equal(xq_record_equal(b, a, XQ_EQUAL_IGNORE_TAG_ORDER, why, sizeof(why)), 0);
	assert_string_equal(why, "tag Extra only in the second game");
	setrlimit(RLIMIT_CPU, &was);
	xq_record_free(a);
	xq_record_free(b);
}

static void tags_of_one_name_are_removed_in_one_call_but_the_first_asked_for(void **state)
{
	static const char pgn[] = "[ECCO \"A00\"]\n[Event \"e\"]\n[ECCO \"B00\"]\n[Red \"r\"]\n"
				  "[ECCO \"C00\"]\n\n1. h2e2 *\n";
	xq_buf b = XQ_BUF_INIT;
	xq_record *r;

	(void)state;
	xq_buf_adds(&b, pgn);
	r = read_pgn(&b);
	xq_buf_release(&b);
	assert_int_equal(xq_record_remove_tags(r, "ECCO", 1), 2);
	assert_int_equal(xq_record_tag_count(r), 3);
	assert_string_equal(xq_record_tag_name(r, 0), "ECCO");
	assert_string_equal(xq_record_tag_value(r, 0), "A00");
	assert_string_equal(xq_record_tag_name(r, 1), "Event");
	assert_string_equal(xq_record_tag_name(r, 2), "Red");
	assert_int_equal(xq_record_remove_tags(r, "ECCO", 1), 0);
	assert_int_equal(xq_record_remove_tags(r, "ECCO", 0), 1);
	assert_int_equal(xq_record_remove_tags(r, "Nothing", 0), 0);
	assert_int_equal(xq_record_tag_count(r), 2);
	xq_record_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(records_of_many_tags_compare_in_any_order_in_linear_time),
		cmocka_unit_test(tags_of_one_name_are_removed_in_one_call_but_the_first_asked_for),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
