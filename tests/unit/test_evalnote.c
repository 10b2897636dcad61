/*
 * test_evalnote.c: scores written into comments and read back out of them
 * (annotate's "+0.35/12" and "#-3", chess tools' "[%eval ...]"), and the
 * scale losses are measured on.
 */
#include "testutil.h"

#include "position.h"
#include "evalnote.h"

static struct xqi_score cp(int32_t v)
{
	struct xqi_score s = {XQ_EVAL_CP, v};
	return s;
}

static struct xqi_score mate(enum xq_eval_kind k, int32_t n)
{
	struct xqi_score s = {k, n};
	return s;
}

/* The score found in `comment`, which must hold one. */
static struct xqi_evalnote found(const char *comment)
{
	struct xqi_evalnote n;

	memset(&n, 0, sizeof(n));
	if (!xqi_evalnote_find(&n, comment, strlen(comment)))
		fail_msg("no score found in '%s'", comment);
	return n;
}

static void none_in(const char *comment)
{
	struct xqi_evalnote n;

	if (xqi_evalnote_find(&n, comment, strlen(comment)))
		fail_msg("'%s' was taken for a score (%d %d)", comment, (int)n.score.kind,
			 (int)n.score.value);
}

static void annotate_form_is_written_as_annotate_always_wrote_it(void **state)
{
	char buf[XQI_EVALNOTE_MAX];

	(void)state;
	assert_int_equal(xqi_evalnote_format(buf, sizeof(buf), cp(35), 12), 8);
	assert_string_equal(buf, "+0.35/12");
	xqi_evalnote_format(buf, sizeof(buf), cp(-120), 8);
	assert_string_equal(buf, "-1.20/8");
	xqi_evalnote_format(buf, sizeof(buf), cp(0), 4);
	assert_string_equal(buf, "0.00/4");
	xqi_evalnote_format(buf, sizeof(buf), mate(XQ_EVAL_MATED, 3), 9);
	assert_string_equal(buf, "#-3");
	xqi_evalnote_format(buf, sizeof(buf), mate(XQ_EVAL_MATE, 1), 9);
	assert_string_equal(buf, "#1");
	/* Cut to fit, always terminated. */
	assert_int_equal(xqi_evalnote_format(buf, 5, cp(35), 12), 4);
	assert_string_equal(buf, "+0.3");
}

/* Every score `write` (one of the two written forms) writes is read back
 * as it was, from the first byte to the last written. */
static void assert_round_trips(size_t (*write)(char *, size_t, struct xqi_score, int))
{
	static const int32_t cps[] = {0, 1, -1, 35, -35, 99, 100, -100, 1234, -2000, 31999};
	char buf[XQI_EVALNOTE_MAX];

	for (size_t i = 0; i < sizeof(cps) / sizeof(cps[0]); i++) {
		struct xqi_evalnote n;
		size_t len = write(buf, sizeof(buf), cp(cps[i]), 17);
		n = found(buf);
		assert_int_equal(n.score.kind, XQ_EVAL_CP);
		assert_int_equal(n.score.value, cps[i]);
		assert_int_equal(n.depth, 17);
		assert_int_equal(n.start, 0);
		assert_int_equal(n.end, len);
	}
	for (int32_t m = 0; m <= 12; m++) {
		struct xqi_evalnote n;
		write(buf, sizeof(buf), mate(XQ_EVAL_MATE, m), 5);
		n = found(buf);
		assert_int_equal(n.score.kind, XQ_EVAL_MATE);
		assert_int_equal(n.score.value, m);
		assert_int_equal(n.depth, 0);
		write(buf, sizeof(buf), mate(XQ_EVAL_MATED, m), 5);
		n = found(buf);
		assert_int_equal(n.score.kind, XQ_EVAL_MATED);
		assert_int_equal(n.score.value, m);
	}
}

static void every_score_annotate_writes_reads_back_the_same(void **state)
{
	(void)state;
	assert_round_trips(xqi_evalnote_format);
}

static void every_score_written_as_an_eval_command_reads_back_the_same(void **state)
{
	char buf[XQI_EVALNOTE_MAX];

	(void)state;
	xqi_evalnote_format_command(buf, sizeof(buf), cp(35), 12);
	assert_string_equal(buf, "[%eval 0.35,12]");
	xqi_evalnote_format_command(buf, sizeof(buf), cp(-120), 8);
	assert_string_equal(buf, "[%eval -1.20,8]");
	xqi_evalnote_format_command(buf, sizeof(buf), mate(XQ_EVAL_MATED, 3), 8);
	assert_string_equal(buf, "[%eval #-3]");
	assert_round_trips(xqi_evalnote_format_command);
	/* Cut to fit, always terminated. */
	assert_int_equal(xqi_evalnote_format_command(buf, 5, cp(35), 12), 4);
	assert_string_equal(buf, "[%ev");
}

static void annotate_score_is_the_last_word_after_a_human_comment(void **state)
{
	struct xqi_evalnote n;

	(void)state;
	/* annotate appends its score to what the comment held. */
	n = found("a sharp reply +1.05/9");
	assert_int_equal(n.score.value, 105);
	assert_int_equal(n.start, 14);
	assert_int_equal(n.end, 21);
	n = found("  -0.07/4 \n");
	assert_int_equal(n.score.value, -7);
	assert_int_equal(n.start, 2);
	assert_int_equal(n.end, 9);
}

static void eval_commands_of_chess_tools_are_read_in_pawns_and_mates(void **state)
{
	struct xqi_evalnote n;

	(void)state;
	n = found("[%eval 0.35]");
	assert_int_equal(n.score.kind, XQ_EVAL_CP);
	assert_int_equal(n.score.value, 35);
	assert_int_equal(n.depth, 0);
	assert_int_equal(n.start, 0);
	assert_int_equal(n.end, 12);
	assert_int_equal(found("[%eval -1.2]").score.value, -120);
	assert_int_equal(found("[%eval +3]").score.value, 300);
	assert_int_equal(found("[%eval -0.125]").score.value, -13); /* rounded */
	assert_int_equal(found("[%eval 0.004]").score.value, 0);
	n = found("good move [%eval 0.35,18] [%clk 0:01:02]");
	assert_int_equal(n.score.value, 35);
	assert_int_equal(n.depth, 18);
	assert_int_equal(n.start, 10);
	assert_int_equal(n.end, 25);
	n = found("[%eval #-3]");
	assert_int_equal(n.score.kind, XQ_EVAL_MATED);
	assert_int_equal(n.score.value, 3);
	n = found("[%clk 0:00:10][%eval #7 ]");
	assert_int_equal(n.score.kind, XQ_EVAL_MATE);
	assert_int_equal(n.score.value, 7);
}

static void annotate_word_wins_over_an_older_eval_command(void **state)
{
	struct xqi_evalnote n;

	(void)state;
	n = found("[%eval 0.10] +0.35/12");
	assert_int_equal(n.score.value, 35);
	assert_int_equal(n.depth, 12);
}

static void ordinary_comments_are_never_taken_for_scores(void **state)
{
	(void)state;
	none_in("");
	none_in("the rook is lost");
	none_in("score 1.5");
	none_in("+0.3/12");        /* one decimal */
	none_in("1.20/8");         /* annotate signs what is not zero */
	none_in("+0.35");          /* annotate always gives the depth */
	none_in("+0.35/12 later"); /* not the last word */
	none_in("x+0.35/12");
	none_in("#");
	none_in("#-");
	none_in("#3/4");
	none_in("1-0");
	none_in("[%eval]");
	none_in("[%eval abc]");
	none_in("[%eval 0.35");
	none_in("[%eval0.35]");
	none_in("[%eval 0.]");
	none_in("[%eval 0.35,]");
	none_in("[%evaluation 0.35]");
	none_in("+12345678.00/3"); /* too many digits to be a score */
}

static void a_comment_is_read_only_within_its_length(void **state)
{
	struct xqi_evalnote n;
	const char *s = "+0.35/12 and more";

	(void)state;
	assert_int_equal(xqi_evalnote_find(&n, s, 8), 1);
	assert_int_equal(n.score.value, 35);
	assert_int_equal(xqi_evalnote_find(&n, "[%eval 0.35]", 11), 0);
	assert_int_equal(xqi_evalnote_find(&n, NULL, 0), 0);
}

static void losses_are_measured_from_the_movers_side_with_mates_above_material(void **state)
{
	(void)state;
	/* Red went from +0.50 to -0.30: it lost 80; black gained. */
	assert_int_equal(xqi_evalnote_loss(cp(50), cp(-30), XQI_RED), 80);
	assert_int_equal(xqi_evalnote_loss(cp(50), cp(-30), XQI_BLACK), 0);
	/* Black let red's score rise from -1.00 to +2.00: 300 lost. */
	assert_int_equal(xqi_evalnote_loss(cp(-100), cp(200), XQI_BLACK), 300);
	/* Scores are clamped before comparing. */
	assert_int_equal(xqi_evalnote_value(cp(99999)), XQI_EVALNOTE_CP_CAP);
	assert_int_equal(xqi_evalnote_value(cp(-99999)), -XQI_EVALNOTE_CP_CAP);
	/* A mate outranks any score, a shorter one a longer one. */
	assert_true(xqi_evalnote_value(mate(XQ_EVAL_MATE, 9)) > xqi_evalnote_value(cp(99999)));
	assert_true(xqi_evalnote_value(mate(XQ_EVAL_MATE, 2)) >
		    xqi_evalnote_value(mate(XQ_EVAL_MATE, 3)));
	assert_int_equal(xqi_evalnote_value(mate(XQ_EVAL_MATED, 3)),
			 -xqi_evalnote_value(mate(XQ_EVAL_MATE, 3)));
	/* Throwing away red's mate in 2 for +5.00 is a large loss. */
	assert_int_equal(xqi_evalnote_loss(mate(XQ_EVAL_MATE, 2), cp(500), XQI_RED),
			 XQI_EVALNOTE_MATE - 2 - 500);
	/* Mates beyond 100 moves count as 100. */
	assert_int_equal(xqi_evalnote_value(mate(XQ_EVAL_MATE, 500)), XQI_EVALNOTE_MATE - 100);
}

static void expected_score_is_a_logistic_of_the_centipawns(void **state)
{
	(void)state;
	assert_int_equal(xqi_evalnote_expected(cp(0), 200), 5000);
	/* 1 / (1 + e^-1) = 0.731059: 7311 hundredths of a percent. */
	assert_int_equal(xqi_evalnote_expected(cp(200), 200), 7311);
	assert_int_equal(xqi_evalnote_expected(cp(-200), 200), 10000 - 7311);
	/* A larger scale: the same centipawns mean less. */
	assert_true(xqi_evalnote_expected(cp(200), 400) < 7311);
	assert_int_equal(xqi_evalnote_expected(mate(XQ_EVAL_MATE, 3), 200), 10000);
	assert_int_equal(xqi_evalnote_expected(mate(XQ_EVAL_MATED, 3), 200), 0);
	/* Centipawns are clamped as losses are: far beyond a decided score
	 * nothing changes. */
	assert_int_equal(xqi_evalnote_expected(cp(5000), 200), xqi_evalnote_expected(cp(2000), 200));
}

static void a_move_that_loses_material_in_a_decided_position_drops_little(void **state)
{
	(void)state;
	/* Red is 15 pawns up and gives back 6: still winning, under 2 points of
	 * expected score (not even an inaccuracy), though 600 centipawns are
	 * gone. */
	assert_true(xqi_evalnote_drop(cp(1500), cp(900), XQI_RED, 220) < 200);
	assert_int_equal(xqi_evalnote_loss(cp(1500), cp(900), XQI_RED), 600);
	/* The same 600 centipawns from an even position: a blunder. */
	assert_true(xqi_evalnote_drop(cp(0), cp(-600), XQI_RED, 220) > 4000);
	/* Black's moves are measured from black's side; a gain is no drop. */
	assert_true(xqi_evalnote_drop(cp(0), cp(600), XQI_BLACK, 220) > 4000);
	assert_int_equal(xqi_evalnote_drop(cp(0), cp(600), XQI_RED, 220), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(annotate_form_is_written_as_annotate_always_wrote_it),
		cmocka_unit_test(every_score_annotate_writes_reads_back_the_same),
		cmocka_unit_test(every_score_written_as_an_eval_command_reads_back_the_same),
		cmocka_unit_test(annotate_score_is_the_last_word_after_a_human_comment),
		cmocka_unit_test(eval_commands_of_chess_tools_are_read_in_pawns_and_mates),
		cmocka_unit_test(annotate_word_wins_over_an_older_eval_command),
		cmocka_unit_test(ordinary_comments_are_never_taken_for_scores),
		cmocka_unit_test(a_comment_is_read_only_within_its_length),
		cmocka_unit_test(losses_are_measured_from_the_movers_side_with_mates_above_material),
		cmocka_unit_test(expected_score_is_a_logistic_of_the_centipawns),
		cmocka_unit_test(a_move_that_loses_material_in_a_decided_position_drops_little),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
