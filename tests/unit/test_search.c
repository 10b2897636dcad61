/*
 * test_search.c: scores, the analyser interface, and the built-in engine:
 * every forced mate in 1-3 moves of tests/data/engine/mates.tsv (each
 * confirmed by Fairy-Stockfish, see make-mates.sh) found at exactly the
 * depth it needs, determinism under depth and node limits, the stop flag,
 * repetitions, terminal positions and the checks on the input.
 */
#include "testutil.h"

#include <pthread.h>
#include <time.h>

#include "position.h"
#include "diagnostic.h"
#include "eval.h"
#include "movegen.h"
#include "search.h"
#include "search_int.h"

static xqi_move mv(const char *iccs)
{
	return XQI_MOVE(XQI_SQ(iccs[0] - 'a', iccs[1] - '0'), XQI_SQ(iccs[2] - 'a', iccs[3] - '0'));
}

static struct xqi_position pos(const char *fen)
{
	struct xqi_position b;
	struct xq_diagnostic d;

	xqi_diagnostic_init(&d);
	if (xqi_position_from_fen(&b, fen, strlen(fen), XQI_FEN_LENIENT_PLACEMENT, &d))
		fail_msg("bad test FEN '%s': %s", fen, d.msg);
	return b;
}

static struct xqi_search *new_search(void)
{
	struct xqi_search *s;
	struct xq_diagnostic d;

	xqi_diagnostic_init(&d);
	if (xqi_search_new(&s, NULL, &d))
		fail_msg("xqi_search_new: %s", d.msg);
	return s;
}

static void run(struct xqi_search *s, const struct xqi_position *b, const xqi_move *h, size_t n,
		struct xqi_limit lim, struct xqi_analysis *a)
{
	struct xq_diagnostic d;
	int rc;

	xqi_diagnostic_init(&d);
	rc = xqi_search_run(s, a, b, h, n, &lim, &d);
	if (rc)
		fail_msg("search failed (%d): %s", rc, d.msg);
}

#define PKB_B1 "2bak4/9/3a5/p2Np3p/3n1P3/3pc3P/P4r1c1/B2CC2R1/4A4/3AK1B2 b - - 0 1"

/* ---- scores --------------------------------------------------------------- */

static void score_text_is_pawns_with_sign_or_mate(void **state)
{
	char t[XQI_SCORE_TEXT_MAX];
	struct xqi_score s;

	(void)state;
	s = (struct xqi_score){XQ_EVAL_CP, 35};
	xqi_score_format(s, t, sizeof(t));
	assert_string_equal(t, "+0.35");
	s.value = -120;
	xqi_score_format(s, t, sizeof(t));
	assert_string_equal(t, "-1.20");
	s.value = 0;
	xqi_score_format(s, t, sizeof(t));
	assert_string_equal(t, "0.00");
	s.value = -5;
	xqi_score_format(s, t, sizeof(t));
	assert_string_equal(t, "-0.05");
	s = (struct xqi_score){XQ_EVAL_MATE, 3};
	xqi_score_format(s, t, sizeof(t));
	assert_string_equal(t, "#3");
	s = (struct xqi_score){XQ_EVAL_MATED, 3};
	xqi_score_format(s, t, sizeof(t));
	assert_string_equal(t, "#-3");
	/* Truncated, still terminated, and the length needed is returned. */
	s = (struct xqi_score){XQ_EVAL_CP, 12345};
	assert_int_equal(xqi_score_format(s, t, 4), 7);
	assert_string_equal(t, "+12");
}

static void score_for_red_flips_black_scores(void **state)
{
	struct xqi_score s = {XQ_EVAL_CP, 40}, r;

	(void)state;
	r = xqi_score_for_red(s, XQI_BLACK);
	assert_int_equal(r.kind, XQ_EVAL_CP);
	assert_int_equal(r.value, -40);
	r = xqi_score_for_red(s, XQI_RED);
	assert_int_equal(r.value, 40);
	s = (struct xqi_score){XQ_EVAL_MATE, 2};
	r = xqi_score_for_red(s, XQI_BLACK);
	assert_int_equal(r.kind, XQ_EVAL_MATED);
	assert_int_equal(r.value, 2);
	r = xqi_score_negate(r);
	assert_int_equal(r.kind, XQ_EVAL_MATE);
}

static void score_order_puts_mates_beyond_every_cp_score(void **state)
{
	struct xqi_score cp_hi = {XQ_EVAL_CP, 5000000}, cp = {XQ_EVAL_CP, 150};
	struct xqi_score m1 = {XQ_EVAL_MATE, 1}, m5 = {XQ_EVAL_MATE, 5};
	struct xqi_score l1 = {XQ_EVAL_MATED, 1}, l0 = {XQ_EVAL_MATED, 0};

	(void)state;
	assert_true(xqi_score_order(m1) > xqi_score_order(m5));
	assert_true(xqi_score_order(m5) > xqi_score_order(cp_hi));
	assert_true(xqi_score_order(cp_hi) > xqi_score_order(cp));
	assert_int_equal(xqi_score_order(cp), 150);
	assert_true(xqi_score_order(l1) > xqi_score_order(l0));
	assert_true(xqi_score_order(l1) < -xqi_score_order(cp_hi));
}

/* ---- evaluation ------------------------------------------------------------ */

static void evaluation_is_symmetric(void **state)
{
	struct xqi_position b, c;
	struct xqi_position red = pos("3k5/9/9/9/9/2R6/9/9/9/4K4 w");
	struct xqi_position black = pos("4k4/9/9/9/6r2/9/9/9/9/5K3 b");

	(void)state;
	xqi_position_start(&b);
	c = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b");
	/* The start is even: only the move is worth something, to either side. */
	assert_int_equal(xqi_eval(&b), xqi_eval(&c));
	assert_true(xqi_eval(&b) < 50);
	/* The same position seen from the other side. */
	assert_int_equal(xqi_eval(&red), xqi_eval(&black));
	assert_true(xqi_eval(&red) > 800);
}

static void incremental_evaluation_matches_a_full_sum(void **state)
{
	struct xqi_eval_table *t = malloc(sizeof(*t));
	struct xqi_position b = pos(PKB_B1);
	xqi_move moves[XQ_MOVES_MAX];
	int n;

	(void)state;
	assert_non_null(t);
	xqi_eval_table_init(t);
	n = xqi_gen_legal(&b, moves);
	for (int i = 0; i < n; i++) {
		struct xqi_undo u;
		int mg, eg, mg2, eg2;
		xqi_eval_table_sum(t, &b, &mg, &eg);
		xqi_eval_delta(t, &b, moves[i], &mg, &eg);
		xqi_position_make(&b, moves[i], &u);
		xqi_eval_table_sum(t, &b, &mg2, &eg2);
		assert_int_equal(mg, mg2);
		assert_int_equal(eg, eg2);
		/* xqi_eval() is the same sums with the other terms. */
		assert_int_equal(xqi_eval(&b), xqi_eval_leaf(&b, mg, eg));
		xqi_position_unmake(&b, moves[i], &u);
	}
	free(t);
}

/* ---- pruning and reductions ------------------------------------------------- */

static void null_move_is_not_tried_in_a_pawnless_ending(void **state)
{
	struct xqi_position b;

	(void)state;
	/* A lone rook against the advisors: zugzwang is real here. */
	b = pos("3aka3/9/9/9/9/9/9/9/R8/3K5 w");
	assert_false(xqi_search_null_move_allowed(&b));
	/* Nothing but a pawn: never. */
	b = pos("3aka3/9/9/9/9/9/4P4/9/9/3K5 w");
	assert_false(xqi_search_null_move_allowed(&b));
}

static void null_move_is_tried_in_a_middle_game(void **state)
{
	struct xqi_position b;

	(void)state;
	xqi_position_start(&b);
	assert_true(xqi_search_null_move_allowed(&b));
	/* Two pieces that move far, or one with pawns on the board. */
	b = pos("3aka3/9/9/9/9/9/9/9/RN7/3K5 w");
	assert_true(xqi_search_null_move_allowed(&b));
	b = pos("3aka3/9/9/9/9/9/4P4/9/R8/3K5 w");
	assert_true(xqi_search_null_move_allowed(&b));
	/* It is the side to move that passes: black here has nothing. */
	b = pos("3aka3/9/9/9/9/9/4P4/9/R8/3K5 b");
	assert_false(xqi_search_null_move_allowed(&b));
}

static void late_moves_are_reduced_more_the_deeper_and_later_they_are(void **state)
{
	(void)state;
	/* The first three moves, and every move near the leaves, in full. */
	for (int d = 1; d <= 30; d++)
		for (int n = 1; n <= 3; n++)
			assert_int_equal(xqi_search_reduction(d, n), 0);
	for (int n = 1; n <= 60; n++)
		assert_int_equal(xqi_search_reduction(2, n), 0);
	/* Never less for a later move or a deeper node. */
	for (int d = 3; d < 30; d++)
		for (int n = 4; n < 60; n++) {
			assert_true(xqi_search_reduction(d, n + 1) >= xqi_search_reduction(d, n));
			assert_true(xqi_search_reduction(d + 1, n) >= xqi_search_reduction(d, n));
		}
	assert_true(xqi_search_reduction(8, 20) >= 2);
	assert_true(xqi_search_reduction(8, 20) < 8);
}

static void pruning_keeps_the_best_move_of_a_won_exchange(void **state)
{
	/* Red's rook takes black's loose rook on the e file: a search deep
	 * enough to prune and reduce must still see it. */
	struct xqi_search *s = new_search();
	struct xqi_position b = pos("3akab2/9/4b4/9/4r4/9/9/4R4/4A4/3AK4 w");
	struct xqi_limit lim = {9, 0, 0};
	struct xqi_analysis a;

	(void)state;
	run(s, &b, NULL, 0, lim, &a);
	assert_int_equal(a.best, mv("e2e5"));
	assert_int_equal(a.score.kind, XQ_EVAL_CP);
	assert_true(a.score.value > 500);
	xqi_search_free(s);
}

/* ---- mates ---------------------------------------------------------------- */

struct mate_row {
	char id[128];
	char fen[128];
	int n;
	int by_rule; /* the mate needs the rule that a perpetual check loses */
};

static int read_mates(struct mate_row **rows)
{
	FILE *f = fopen("tests/data/engine/mates.tsv", "r");
	char line[512];
	int count = 0, cap = 0;

	if (!f)
		fail_msg("tests/data/engine/mates.tsv: cannot open (run the tests from the top of the tree)");
	*rows = NULL;
	while (fgets(line, sizeof(line), f)) {
		char *id = line, *fen, *n, *kind;
		if (line[0] == '#')
			continue;
		fen = strchr(id, '\t');
		if (!fen)
			continue;
		*fen++ = '\0';
		n = strchr(fen, '\t');
		if (!n)
			continue;
		*n++ = '\0';
		kind = strchr(n, '\t');
		if (!kind)
			continue;
		kind++;
		if (count == cap) {
			cap = cap ? cap * 2 : 64;
			*rows = realloc(*rows, (size_t)cap * sizeof(**rows));
			assert_non_null(*rows);
		}
		snprintf((*rows)[count].id, sizeof((*rows)[count].id), "%.100s", id);
		snprintf((*rows)[count].fen, sizeof((*rows)[count].fen), "%.100s", fen);
		(*rows)[count].n = (int)strtol(n, NULL, 10);
		(*rows)[count].by_rule = !strncmp(kind, "rule", 4);
		count++;
	}
	fclose(f);
	return count;
}

/*
 * Every position of the fixture is a forced mate in at most n moves
 * (Fairy-Stockfish found a mate in n; it does not always report the
 * shortest one, so a few are mates in fewer).  The built-in engine must
 * find a mate in at most n at depth 2n - 1 (the plies of the mate and no
 * more), with a principal variation of that many plies that ends in a
 * position without a legal move.
 *
 * Rows of kind "rule" are mates only because a perpetual check loses (the
 * defender's other choice is to check for ever): there the principal
 * variation may end in the repetition that loses instead.
 */
static void check_mates(int want_n)
{
	struct mate_row *rows;
	int count = read_mates(&rows), tried = 0, failed = 0, by_rule = 0;
	struct xqi_search *s = new_search();

	for (int i = 0; i < count; i++) {
		struct xqi_position b, end;
		struct xqi_analysis a;
		struct xqi_limit lim = {0, 0, 0};
		if (rows[i].n != want_n)
			continue;
		tried++;
		by_rule += rows[i].by_rule;
		b = pos(rows[i].fen);
		lim.depth = 2 * want_n - 1;
		run(s, &b, NULL, 0, lim, &a);
		end = b;
		for (size_t k = 0; k < a.pv_len; k++) {
			struct xqi_undo u;
			xqi_position_make(&end, a.pv[k], &u);
		}
		if (a.score.kind != XQ_EVAL_MATE || a.score.value > want_n ||
		    a.pv_len != (size_t)(2 * a.score.value - 1) ||
		    (!rows[i].by_rule && xqi_position_status(&end) == XQ_STATE_PLAYING)) {
			char sc[XQI_SCORE_TEXT_MAX];
			xqi_score_format(a.score, sc, sizeof(sc));
			fprintf(stderr, "%s: %s at depth %d: got %s, pv of %zu moves\n", rows[i].id,
				rows[i].fen, lim.depth, sc, a.pv_len);
			failed++;
		}
	}
	xqi_search_free(s);
	free(rows);
	assert_true(tried >= 20);
	assert_true(want_n < 3 || by_rule > 0);
	assert_int_equal(failed, 0);
}

static void finds_every_mate_in_one(void **state)
{
	(void)state;
	check_mates(1);
}

static void finds_every_mate_in_two(void **state)
{
	(void)state;
	check_mates(2);
}

static void finds_every_mate_in_three(void **state)
{
	(void)state;
	check_mates(3);
}

static void side_without_moves_is_lost_at_once(void **state)
{
	struct xqi_search *s = new_search();
	struct xqi_analysis a;
	struct xqi_limit lim = {4, 0, 0};
	/* mate_dbl and stale_b1 of the perft suite: checkmate and stalemate. */
	struct xqi_position mate = pos("3aka3/4P4/9/3N5/4C4/9/9/9/9/3K5 b - - 0 1");

	(void)state;
	run(s, &mate, NULL, 0, lim, &a);
	assert_true(a.flags & XQI_ANALYSIS_NO_MOVES);
	assert_int_equal(a.score.kind, XQ_EVAL_MATED);
	assert_int_equal(a.score.value, 0);
	assert_int_equal(a.best, 0);
	assert_int_equal(a.side, XQI_BLACK);
	/* From red's point of view that is a win already on the board. */
	assert_int_equal(xqi_analysis_red_score(&a).kind, XQ_EVAL_MATE);
	xqi_search_free(s);
}

static void stalemating_move_counts_as_a_mate(void **state)
{
	struct xqi_search *s = new_search();
	struct xqi_analysis a;
	struct xqi_limit lim = {3, 0, 0};
	/* The black king on d9 can go to d8 and e9; the red pawn stepping
	 * to e8 covers both without giving check: stalemate, which loses in
	 * xiangqi, and the only way to win at once. */
	struct xqi_position b = pos("3k5/9/4P4/9/9/9/9/9/9/4K4 w");
	struct xqi_position after = b;
	struct xqi_undo u;

	(void)state;
	run(s, &b, NULL, 0, lim, &a);
	assert_int_equal(a.score.kind, XQ_EVAL_MATE);
	assert_int_equal(a.score.value, 1);
	xqi_position_make(&after, a.best, &u);
	assert_false(xqi_position_in_check(&after));
	assert_int_equal(xqi_position_status(&after), XQ_STATE_STALEMATE);
	xqi_search_free(s);
}

/* ---- limits and determinism ----------------------------------------------- */

static void same_depth_gives_the_same_analysis(void **state)
{
	struct xqi_search *s1 = new_search(), *s2 = new_search();
	struct xqi_analysis a, b2, c;
	struct xqi_limit lim = {6, 0, 0};
	struct xqi_position b = pos(PKB_B1), start;

	(void)state;
	run(s1, &b, NULL, 0, lim, &a);
	xqi_position_start(&start);
	run(s1, &start, NULL, 0, lim, &c); /* something else in between */
	run(s1, &b, NULL, 0, lim, &b2);
	assert_int_equal(a.depth, 6);
	assert_memory_equal(&a.score, &b2.score, sizeof(a.score));
	assert_int_equal(a.nodes, b2.nodes);
	assert_int_equal(a.pv_len, b2.pv_len);
	assert_memory_equal(a.pv, b2.pv, a.pv_len * sizeof(xqi_move));
	/* A fresh context too. */
	run(s2, &b, NULL, 0, lim, &b2);
	assert_int_equal(a.nodes, b2.nodes);
	assert_int_equal(a.best, b2.best);
	xqi_search_free(s1);
	xqi_search_free(s2);
}

static void node_limit_is_deterministic_and_respected(void **state)
{
	struct xqi_search *s = new_search();
	struct xqi_analysis a, b2;
	struct xqi_limit lim = {0, 50000, 0};
	struct xqi_position b = pos(PKB_B1);

	(void)state;
	run(s, &b, NULL, 0, lim, &a);
	run(s, &b, NULL, 0, lim, &b2);
	assert_true(a.nodes <= 50000);
	assert_true(a.depth >= 3);
	assert_int_equal(a.nodes, b2.nodes);
	assert_int_equal(a.depth, b2.depth);
	assert_int_equal(a.best, b2.best);
	assert_memory_equal(&a.score, &b2.score, sizeof(a.score));
	/* A tiny budget still gives a legal move: depth 1 always completes. */
	lim.nodes = 1;
	run(s, &b, NULL, 0, lim, &a);
	assert_int_equal(a.depth, 1);
	assert_true(xqi_move_is_legal(&b, a.best));
	xqi_search_free(s);
}

static void pv_moves_are_legal_in_turn(void **state)
{
	struct xqi_search *s = new_search();
	struct xqi_analysis a;
	struct xqi_limit lim = {7, 0, 0};
	struct xqi_position b = pos(PKB_B1);

	(void)state;
	run(s, &b, NULL, 0, lim, &a);
	assert_true(a.pv_len >= 5);
	assert_int_equal(a.pv[0], a.best);
	for (size_t i = 0; i < a.pv_len; i++) {
		struct xqi_undo u;
		assert_true(xqi_move_is_legal(&b, a.pv[i]));
		xqi_position_make(&b, a.pv[i], &u);
	}
	xqi_search_free(s);
}

static void raised_stop_flag_ends_the_search(void **state)
{
	struct xqi_search *s;
	struct xqi_search_opts o;
	struct xq_diagnostic d;
	struct xqi_analysis a;
	struct xqi_limit lim = {60, 0, 0};
	struct xqi_position b;
	atomic_int stop;

	(void)state;
	atomic_init(&stop, 1);
	memset(&o, 0, sizeof(o));
	o.stop = &stop;
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_search_new(&s, &o, &d), 0);
	xqi_position_start(&b);
	run(s, &b, NULL, 0, lim, &a);
	assert_true(a.flags & XQI_ANALYSIS_STOPPED);
	assert_true(a.depth >= 1 && a.depth < 60);
	assert_true(xqi_move_is_legal(&b, a.best));
	xqi_search_free(s);
}

static void *raise_later(void *arg)
{
	struct timespec ts = {0, 150000000L};

	nanosleep(&ts, NULL);
	atomic_store((atomic_int *)arg, 1);
	return NULL;
}

/* What Ctrl-C does: a signal handler (here another thread) raises the flag
 * while the search runs; it returns soon with what it has. */
static void stop_flag_raised_during_the_search_ends_it(void **state)
{
	struct xqi_search *s;
	struct xqi_search_opts o;
	struct xq_diagnostic d;
	struct xqi_analysis a;
	struct xqi_limit lim = {60, 0, 0};
	struct xqi_position b = pos(PKB_B1);
	struct timespec t0, t1;
	pthread_t t;
	atomic_int stop;

	(void)state;
	atomic_init(&stop, 0);
	memset(&o, 0, sizeof(o));
	o.stop = &stop;
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_search_new(&s, &o, &d), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(pthread_create(&t, NULL, raise_later, &stop), 0);
	run(s, &b, NULL, 0, lim, &a);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pthread_join(t, NULL);
	assert_true(a.flags & XQI_ANALYSIS_STOPPED);
	assert_true(a.depth >= 1 && a.depth < 60);
	assert_true(xqi_move_is_legal(&b, a.best));
	assert_true((double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9 < 3.0);
	xqi_search_free(s);
}

static void move_time_limits_the_search(void **state)
{
	struct xqi_search *s = new_search();
	struct xqi_analysis a;
	struct xqi_limit lim = {0, 0, 200};
	struct xqi_position b;
	struct timespec t0, t1;
	double took;

	(void)state;
	xqi_position_start(&b);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	run(s, &b, NULL, 0, lim, &a);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	took = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	assert_true(took < 2.0);
	assert_true(a.depth >= 2);
	assert_false(a.flags & XQI_ANALYSIS_STOPPED);
	xqi_search_free(s);
}

/* ---- repetitions ------------------------------------------------------------ */

/* Black is a rook up against two advisors; both kings step out and back. */
#define DANCE_FEN "5k3/9/9/9/r8/9/9/9/9/3AKA3 w"
static const char *const dance[] = {"e0e1", "f9f8", "e1e0", "f8f9"};

static void returning_to_a_position_of_the_history_is_a_draw(void **state)
{
	struct xqi_search *s = new_search();
	struct xqi_analysis a;
	struct xqi_limit lim = {5, 0, 0};
	struct xqi_position b = pos(DANCE_FEN);
	xqi_move hist[8];

	(void)state;
	for (int i = 0; i < 8; i++)
		hist[i] = mv(dance[i % 4]);
	run(s, &b, NULL, 0, lim, &a);
	assert_int_equal(a.score.kind, XQ_EVAL_CP);
	assert_true(a.score.value < -300);
	/* After one round of the dance the position after e0e1 has occurred
	 * once, before the root: playing it again does not decide anything yet. */
	run(s, &b, hist, 4, lim, &a);
	assert_int_equal(a.score.kind, XQ_EVAL_CP);
	assert_true(a.score.value < -300);
	/* After two rounds it would be its third occurrence: a draw, since
	 * neither side checks or chases, and red takes it. */
	run(s, &b, hist, 8, lim, &a);
	assert_int_equal(a.score.kind, XQ_EVAL_CP);
	assert_int_equal(a.score.value, 0);
	assert_int_equal(a.best, mv("e0e1"));
	xqi_search_free(s);
}

static void perpetual_check_loses_in_the_search(void **state)
{
	struct xqi_search *s = new_search();
	struct xqi_analysis a;
	struct xqi_limit lim = {5, 0, 0};
	/* From the mate fixture (a "rule" row): black's only defence against
	 * the pawns is to check with the rook for ever, which loses. */
	struct xqi_position b = pos("3k5/2P1a4/4PP3/9/9/9/9/r8/5K3/9 w - - 0 1");
	struct xqi_search_opts o;
	struct xqi_rules_options ro = XQI_RULES_OPTIONS_INIT;
	struct xq_diagnostic d;

	(void)state;
	run(s, &b, NULL, 0, lim, &a);
	assert_int_equal(a.score.kind, XQ_EVAL_MATE);
	assert_true(a.score.value <= 3);
	xqi_search_free(s);
	/* With the Chinese rule set the verdict is the same. */
	memset(&o, 0, sizeof(o));
	ro.rules = XQ_RULESET_CHINESE;
	o.rules = &ro;
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_search_new(&s, &o, &d), 0);
	run(s, &b, NULL, 0, lim, &a);
	assert_int_equal(a.score.kind, XQ_EVAL_MATE);
	xqi_search_free(s);
}

static void without_rules_a_perpetual_check_is_only_a_draw(void **state)
{
	struct xqi_search *s;
	struct xqi_analysis a;
	struct xqi_limit lim = {5, 0, 0};
	/* The position above: black's endless checks lose by the rules; with
	 * none (plain_repetitions, `--rules none`) they hold the draw. */
	struct xqi_position b = pos("3k5/2P1a4/4PP3/9/9/9/9/r8/5K3/9 w - - 0 1");
	struct xqi_search_opts o;
	struct xq_diagnostic d;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.plain_repetitions = 1;
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_search_new(&s, &o, &d), 0);
	run(s, &b, NULL, 0, lim, &a);
	assert_int_equal(a.score.kind, XQ_EVAL_CP);
	assert_true(a.score.value > -300 && a.score.value < 300);
	xqi_search_free(s);
}

/* ---- the analyser interface ------------------------------------------------- */

static void analyser_checks_limit_and_history(void **state)
{
	struct xqi_search *s = new_search();
	struct xqi_analyser an;
	struct xqi_analysis a;
	struct xq_diagnostic d;
	struct xqi_position b;
	struct xqi_limit none = {0, 0, 0}, lim = {2, 0, 0};
	xqi_move bad[] = {mv("h2e2"), mv("h2e2")};

	(void)state;
	xqi_search_analyser(&an, s);
	assert_string_equal(xqi_analyser_name(&an), "built-in");
	xqi_position_start(&b);
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_analyse(&an, &a, &b, NULL, 0, &none, &d), XQ_ERANGE);
	d.game = 12;
	d.ply = 40;
	assert_int_equal(xqi_analyse(&an, &a, &b, bad, 2, &lim, &d), XQ_EILLEGAL);
	assert_int_equal(d.code, XQI_D_ILLEGAL_MOVE);
	assert_non_null(strstr(d.msg, "history move 2 (h2e2)"));
	assert_int_equal(d.game, 12);
	assert_int_equal(d.ply, 40);
	assert_int_equal(a.best, 0);
	/* A start where the side not to move is in check is refused. */
	{
		struct xqi_position c;
		xqi_position_clear(&c);
		assert_int_equal(xqi_position_put(&c, XQI_BLACK, XQI_KING, XQI_SQ(4, 9), NULL), 0);
		assert_int_equal(xqi_position_put(&c, XQI_RED, XQI_KING, XQI_SQ(3, 0), NULL), 0);
		assert_int_equal(xqi_position_put(&c, XQI_RED, XQI_ROOK, XQI_SQ(4, 1), NULL), 0);
		c.key = xqi_position_compute_key(&c);
		xqi_diagnostic_init(&d);
		assert_int_equal(xqi_analyse(&an, &a, &c, NULL, 0, &lim, &d), XQ_EILLEGAL);
		assert_int_equal(d.code, XQI_D_BAD_FEN);
	}
	assert_int_equal(xqi_analyser_start_over(&an, &d), 0);
	assert_int_equal(xqi_analyse(&an, &a, &b, bad, 1, &lim, &d), 0);
	assert_int_equal(a.side, XQI_BLACK);
	xqi_search_free(s);
}

static void oversized_hash_is_refused(void **state)
{
	struct xqi_search *s = (struct xqi_search *)&s;
	struct xqi_search_opts o;
	struct xq_diagnostic d;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.hash_mb = 1u << 20;
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_search_new(&s, &o, &d), XQ_ERANGE);
	assert_null(s);
	xqi_search_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(score_text_is_pawns_with_sign_or_mate),
		cmocka_unit_test(score_for_red_flips_black_scores),
		cmocka_unit_test(score_order_puts_mates_beyond_every_cp_score),
		cmocka_unit_test(evaluation_is_symmetric),
		cmocka_unit_test(incremental_evaluation_matches_a_full_sum),
		cmocka_unit_test(null_move_is_not_tried_in_a_pawnless_ending),
		cmocka_unit_test(null_move_is_tried_in_a_middle_game),
		cmocka_unit_test(late_moves_are_reduced_more_the_deeper_and_later_they_are),
		cmocka_unit_test(pruning_keeps_the_best_move_of_a_won_exchange),
		cmocka_unit_test(finds_every_mate_in_one),
		cmocka_unit_test(finds_every_mate_in_two),
		cmocka_unit_test(finds_every_mate_in_three),
		cmocka_unit_test(side_without_moves_is_lost_at_once),
		cmocka_unit_test(stalemating_move_counts_as_a_mate),
		cmocka_unit_test(same_depth_gives_the_same_analysis),
		cmocka_unit_test(node_limit_is_deterministic_and_respected),
		cmocka_unit_test(pv_moves_are_legal_in_turn),
		cmocka_unit_test(raised_stop_flag_ends_the_search),
		cmocka_unit_test(stop_flag_raised_during_the_search_ends_it),
		cmocka_unit_test(move_time_limits_the_search),
		cmocka_unit_test(returning_to_a_position_of_the_history_is_a_draw),
		cmocka_unit_test(perpetual_check_loses_in_the_search),
		cmocka_unit_test(without_rules_a_perpetual_check_is_only_a_draw),
		cmocka_unit_test(analyser_checks_limit_and_history),
		cmocka_unit_test(oversized_hash_is_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
