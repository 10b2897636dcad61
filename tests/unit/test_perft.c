/*
 * test_perft.c: every row of the reference suite (tests/data/perft.tsv, a
 * copy of ../shared/perft/suite.tsv counted by two independent engines)
 * up to depth 4.  `make check-slow` runs every depth through the CLI.
 */
#include "testutil.h"

#include "board.h"
#include "diag.h"
#include "movegen.h"

static void perft_suite_matches_reference_counts_to_depth_4(void **state)
{
	FILE *f = fopen("tests/data/perft.tsv", "r");
	char line[1024];
	int rows = 0, lineno = 0;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *id, *fen, *depth_s, *nodes_s, *save;
		struct xq_board b;
		struct xq_diag d;
		unsigned long long expect, got;
		int depth;
		lineno++;
		id = strtok_r(line, "\t", &save);
		fen = strtok_r(NULL, "\t", &save);
		depth_s = strtok_r(NULL, "\t", &save);
		nodes_s = strtok_r(NULL, "\t\n", &save);
		if (!id || !fen || !depth_s || !nodes_s || !strcmp(id, "id"))
			continue;
		depth = (int)strtol(depth_s, NULL, 10);
		expect = strtoull(nodes_s, NULL, 10);
		if (depth > 4)
			continue;
		xq_diag_init(&d);
		if (xq_board_from_fen(&b, fen, strlen(fen), 0, &d))
			fail_msg("line %d: %s: %s", lineno, id, d.msg);
		got = xq_perft(&b, depth);
		if (got != expect)
			fail_msg("line %d: %s depth %d: expected %llu, counted %llu", lineno, id, depth,
				 expect, got);
		rows++;
	}
	fclose(f);
	assert_true(rows >= 140);
}

static void perft_of_depth_zero_is_one(void **state)
{
	struct xq_board b;

	(void)state;
	xq_board_start(&b);
	assert_int_equal(xq_perft(&b, 0), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(perft_of_depth_zero_is_one),
		cmocka_unit_test(perft_suite_matches_reference_counts_to_depth_4),
	};
	return cmocka_run_group_tests_name("perft", tests, NULL, NULL);
}
