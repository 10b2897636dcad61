/*
 * test_perft.c: every row of the reference suite (tests/data/perft.tsv, a
 * copy of ../shared/perft/suite.tsv counted by two independent engines)
 * up to depth 4.  `make check-slow` runs every depth through the CLI.
 */
#include "testutil.h"

#include "position.h"
#include "diagnostic.h"
#include "movegen.h"

/*
 * Perft counted the way a reader checks a game's moves: every pseudo-legal
 * move checked with xqi_move_check_hinted(), told whether the side to move
 * is in check as xqi_position_check_after() found it from the move before
 * (the start position's from the full test).  On the side, every move's
 * verdict is compared with the unhinted xqi_move_check(), every
 * position's check with xqi_position_in_check(), and xqi_position_status() with
 * what the moves found say.
 */
struct hinted {
	unsigned long long verdicts, checks;
};

static unsigned long long perft_hinted(struct xqi_position *b, int depth, int in_check,
				       struct hinted *h)
{
	xqi_move moves[XQ_MOVES_MAX];
	unsigned long long total = 0;
	int n, nlegal = 0;

	if (depth == 0)
		return 1;
	n = xqi_gen_pseudo(b, moves);
	for (int i = 0; i < n; i++) {
		struct xqi_undo u;
		int legal = xqi_move_check_hinted(b, moves[i], in_check, NULL) == 0, after;
		assert_int_equal(legal, xqi_move_check(b, moves[i], NULL) == 0);
		h->verdicts++;
		if (!legal)
			continue;
		nlegal++;
		xqi_position_make(b, moves[i], &u);
		after = xqi_position_check_after(b, moves[i]);
		assert_int_equal(after, xqi_position_in_check(b));
		h->checks += after;
		total += perft_hinted(b, depth - 1, after, h);
		xqi_position_unmake(b, moves[i], &u);
	}
	/* xqi_position_status() stops at the first legal move: the same verdict
	 * (above the leaves, where it would cost more than the count) */
	if (depth >= 2)
		assert_int_equal(xqi_position_status(b), nlegal ? XQ_STATE_PLAYING
							    : in_check ? XQ_STATE_CHECKMATE : XQ_STATE_STALEMATE);
	return total;
}

/*
 * Count every row of the suite up to depth 4 and compare with its
 * reference count: with xqi_perft(), or with perft_hinted() when `h` is
 * not NULL.  Returns the rows counted.
 */
static int count_suite(struct hinted *h)
{
	FILE *f = fopen("tests/data/perft.tsv", "r");
	char line[1024];
	int rows = 0, lineno = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *id, *fen, *depth_s, *nodes_s, *save;
		struct xqi_position b;
		struct xq_diagnostic d;
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
		xqi_diagnostic_init(&d);
		if (xqi_position_from_fen(&b, fen, strlen(fen), 0, &d))
			fail_msg("line %d: %s: %s", lineno, id, d.msg);
		got = h ? perft_hinted(&b, depth, xqi_position_in_check(&b), h) : xqi_perft(&b, depth);
		if (got != expect)
			fail_msg("line %d: %s depth %d: expected %llu, counted %llu", lineno, id, depth,
				 expect, got);
		rows++;
	}
	fclose(f);
	return rows;
}

static void perft_suite_matches_reference_counts_to_depth_4(void **state)
{
	(void)state;
	assert_true(count_suite(NULL) >= 140);
}

static void perft_of_depth_zero_is_one(void **state)
{
	struct xqi_position b;

	(void)state;
	xqi_position_start(&b);
	assert_int_equal(xqi_perft(&b, 0), 1);
}

static void hinted_move_checks_count_the_reference_perft_to_depth_4(void **state)
{
	struct hinted h = {0, 0};

	(void)state;
	assert_true(count_suite(&h) >= 140);
	/* 31.9 million verdicts, 1.08 million positions in check among them */
	assert_true(h.verdicts > 30000000 && h.checks > 1000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(perft_of_depth_zero_is_one),
		cmocka_unit_test(perft_suite_matches_reference_counts_to_depth_4),
		cmocka_unit_test(hinted_move_checks_count_the_reference_perft_to_depth_4),
	};
	return cmocka_run_group_tests_name("perft", tests, NULL, NULL);
}
