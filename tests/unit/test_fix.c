/*
 * test_fix.c: what `convert --fix` may prove (lib/fix.c): dates in the
 * forms records write them, and the result a main line proves.
 */
#include "testutil.h"

#include "position.h"
#include "fix.h"
#include "record.h"

static enum xq_date_kind norm(const char *s, struct xq_date *out)
{
	return xq_date_normalize(out, s, strlen(s));
}

static void expect_fixed(const char *in, const char *want)
{
	struct xq_date d;
	enum xq_date_kind k = norm(in, &d);

	if (k != XQ_DATE_FIXED)
		fail_msg("'%s': kind %d, not fixed (%s)", in, (int)k, d.why);
	if (strcmp(d.date, want))
		fail_msg("'%s' became '%s', not '%s'", in, d.date, want);
}

static void expect_kind(const char *in, enum xq_date_kind want)
{
	struct xq_date d;
	enum xq_date_kind k = norm(in, &d);

	if (k != want)
		fail_msg("'%s': kind %d, not %d (%s)", in, (int)k, (int)want, d.date);
	if (want >= XQ_DATE_AMBIGUOUS && !d.why[0])
		fail_msg("'%s': no reason given", in);
}

static void pgn_dates_are_left_as_they_are(void **state)
{
	(void)state;
	expect_kind("1999.03.05", XQ_DATE_CANONICAL);
	expect_kind("1999.??.??", XQ_DATE_CANONICAL);
	expect_kind("????.??.??", XQ_DATE_CANONICAL);
	expect_kind("2000.02.29", XQ_DATE_CANONICAL);
}

static void chinese_dates_become_pgn_dates_with_unknown_parts(void **state)
{
	(void)state;
	expect_fixed("1999年3月5日", "1999.03.05");
	expect_fixed("1948年12月10日", "1948.12.10");
	expect_fixed("1999年3月", "1999.03.??");
	expect_fixed("1979年", "1979.??.??");
	expect_fixed("1986年4月 日", "1986.04.??");
	expect_fixed("1986年11月 21日", "1986.11.21");
	expect_fixed("1981年12月20", "1981.12.20");
	expect_fixed("1993年4月21日       ", "1993.04.21");
}

static void separated_dates_with_the_year_first_become_pgn_dates(void **state)
{
	(void)state;
	expect_fixed("1999-03-05", "1999.03.05");
	expect_fixed("1999/3/5", "1999.03.05");
	expect_fixed("1988.7.17", "1988.07.17");
	expect_fixed("1995.9", "1995.09.??");
	expect_fixed("1994", "1994.??.??");
	expect_fixed("1995、01、11", "1995.01.11");
	expect_fixed("2001。1。20", "2001.01.20");
	expect_fixed("1993:8:11", "1993.08.11");
	expect_fixed("\t1993.4.27", "1993.04.27");
	expect_fixed("\n2005.01.18", "2005.01.18");
}

static void zero_parts_at_the_end_are_unknown_parts(void **state)
{
	(void)state;
	expect_fixed("2004-04-00", "2004.04.??");
	expect_fixed("1984-00-00", "1984.??.??");
	expect_fixed("0000-00-00", "????.??.??");
	expect_kind("1999-00-05", XQ_DATE_UNKNOWN);
	expect_kind("0000-03-05", XQ_DATE_UNKNOWN);
	expect_kind("24-04-0000", XQ_DATE_UNKNOWN);
	expect_kind("0000年", XQ_DATE_UNKNOWN);
}

static void compact_dates_become_pgn_dates_and_keep_their_time(void **state)
{
	struct xq_date d;

	(void)state;
	expect_fixed("19800831", "1980.08.31");
	assert_int_equal(norm("20091114-09：00", &d), XQ_DATE_FIXED);
	assert_string_equal(d.date, "2009.11.14");
	assert_string_equal(d.time, "09:00:00");
	expect_kind("198501024", XQ_DATE_UNKNOWN);
	expect_kind("19981340", XQ_DATE_UNKNOWN);
}

static void a_two_digit_year_is_read_only_when_it_cannot_be_a_day(void **state)
{
	(void)state;
	expect_fixed("99.3.5", "1999.03.05");
	expect_fixed("81-1-14   ", "1981.01.14");
	expect_fixed("65-10-29", "1965.10.29");
	expect_kind("26.5.01", XQ_DATE_AMBIGUOUS);
	expect_kind("05.3.5", XQ_DATE_AMBIGUOUS);
}

static void month_and_day_before_the_year_are_read_only_when_one_is_over_12(void **state)
{
	(void)state;
	expect_fixed("10/13/1996", "1996.10.13");
	expect_fixed("13/10/1996", "1996.10.13");
	expect_fixed("5/5/1990", "1990.05.05");
	expect_kind("4/7/1994", XQ_DATE_AMBIGUOUS);
}

static void impossible_days_and_other_texts_are_not_dates(void **state)
{
	(void)state;
	expect_kind("1999.02.29", XQ_DATE_UNKNOWN);
	expect_kind("1999.13.01", XQ_DATE_UNKNOWN);
	expect_kind("1999-04-31", XQ_DATE_UNKNOWN);
	expect_kind("1998年7月2l日", XQ_DATE_UNKNOWN);
	expect_kind("1989.5.1——15", XQ_DATE_UNKNOWN);
	expect_kind("1981年-2001年", XQ_DATE_UNKNOWN);
	expect_kind("20世纪30年代", XQ_DATE_UNKNOWN);
	expect_kind("比赛日期", XQ_DATE_UNKNOWN);
	expect_kind("1999.3-5", XQ_DATE_UNKNOWN);
	expect_kind("156年12月21日", XQ_DATE_UNKNOWN);
	expect_kind("6.10", XQ_DATE_UNKNOWN);
	expect_kind("   ", XQ_DATE_UNKNOWN);
	expect_kind("19??.03.05", XQ_DATE_UNKNOWN);
}

/* ---- results -------------------------------------------------------------- */

static void game(struct xqi_record *g, const char *fen, const char *moves)
{
	struct xq_diagnostic d;
	uint32_t at = XQI_ROOT;

	assert_int_equal(xqi_record_init(g), 0);
	xqi_diagnostic_init(&d);
	if (xqi_position_from_fen(&g->start, fen, strlen(fen), 0, &d))
		fail_msg("bad test FEN '%s': %s", fen, d.msg);
	for (const char *p = moves; *p;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		xqi_move m = XQI_MOVE(XQI_SQ(p[0] - 'a', p[1] - '0'), XQI_SQ(p[2] - 'a', p[3] - '0'));
		assert_int_equal(xqi_record_add_move(g, at, m, &at), 0);
		p += 4;
	}
}

static void checkmate_proves_a_win_for_the_side_that_gave_it(void **state)
{
	struct xqi_record g;
	struct xqi_result_proof p;

	(void)state;
	game(&g, "4k4/1R7/R8/9/9/9/9/9/9/3K5 w - - 0 1", "a7a9");
	g.result = XQI_RESULT_BLACK_WIN;
	assert_int_equal(xqi_result_prove(&p, &g, NULL, NULL), 0);
	assert_int_equal(p.why, XQ_PROOF_CHECKMATE);
	assert_int_equal(p.result, XQI_RESULT_RED_WIN);
	assert_int_equal(p.ply, 1);
	xqi_record_release(&g);
}

static void stalemate_proves_a_loss_for_the_side_that_cannot_move(void **state)
{
	struct xqi_record g;
	struct xqi_result_proof p;

	(void)state;
	game(&g, "4k4/1R7/9/9/9/9/5R3/9/9/3K5 w - - 0 1", "f3f4");
	assert_int_equal(xqi_result_prove(&p, &g, NULL, NULL), 0);
	assert_int_equal(p.why, XQ_PROOF_STALEMATE);
	assert_int_equal(p.result, XQI_RESULT_RED_WIN);
	xqi_record_release(&g);
}

static void a_game_still_in_play_proves_nothing(void **state)
{
	struct xqi_record g;
	struct xqi_result_proof p;
	struct xqi_rules_options o = XQI_RULES_OPTIONS_INIT;

	(void)state;
	game(&g, XQI_START_FEN, "h2e2 h9g7");
	assert_int_equal(xqi_result_prove(&p, &g, &o, NULL), 0);
	assert_int_equal(p.why, XQ_PROOF_NONE);
	assert_int_equal(p.result, XQI_RESULT_NONE);
	assert_int_equal(p.ply, 2);
	xqi_record_release(&g);
}

static void a_perpetual_check_proves_a_loss_only_under_repetition_rules(void **state)
{
	struct xqi_record g;
	struct xqi_result_proof p;
	struct xqi_rules_options o = XQI_RULES_OPTIONS_INIT;

	(void)state;
	game(&g, "3k5/8R/9/9/9/9/9/9/9/4K4 w - - 0 1",
	     "i8i9 d9d8 i9i8 d8d9 i8i9 d9d8 i9i8 d8d9");
	assert_int_equal(xqi_result_prove(&p, &g, NULL, NULL), 0);
	assert_int_equal(p.why, XQ_PROOF_NONE);
	assert_int_equal(xqi_result_prove(&p, &g, &o, NULL), 0);
	assert_int_equal(p.why, XQ_PROOF_PERPETUAL);
	assert_int_equal(p.result, XQI_RESULT_BLACK_WIN);
	assert_int_equal(p.conduct, XQI_CONDUCT_PERPETUAL_CHECK);
	assert_int_equal(p.ply, 8);
	xqi_record_release(&g);
}

static void a_drawn_repetition_proves_nothing(void **state)
{
	struct xqi_record g;
	struct xqi_result_proof p;
	struct xqi_rules_options o = XQI_RULES_OPTIONS_INIT;

	(void)state;
	game(&g, XQI_START_FEN, "h2e2 h9g7 e2h2 g7h9 h2e2 h9g7 e2h2 g7h9");
	assert_int_equal(xqi_result_prove(&p, &g, &o, NULL), 0);
	assert_int_equal(p.why, XQ_PROOF_NONE);
	xqi_record_release(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pgn_dates_are_left_as_they_are),
		cmocka_unit_test(chinese_dates_become_pgn_dates_with_unknown_parts),
		cmocka_unit_test(separated_dates_with_the_year_first_become_pgn_dates),
		cmocka_unit_test(zero_parts_at_the_end_are_unknown_parts),
		cmocka_unit_test(compact_dates_become_pgn_dates_and_keep_their_time),
		cmocka_unit_test(a_two_digit_year_is_read_only_when_it_cannot_be_a_day),
		cmocka_unit_test(month_and_day_before_the_year_are_read_only_when_one_is_over_12),
		cmocka_unit_test(impossible_days_and_other_texts_are_not_dates),
		cmocka_unit_test(checkmate_proves_a_win_for_the_side_that_gave_it),
		cmocka_unit_test(stalemate_proves_a_loss_for_the_side_that_cannot_move),
		cmocka_unit_test(a_game_still_in_play_proves_nothing),
		cmocka_unit_test(a_perpetual_check_proves_a_loss_only_under_repetition_rules),
		cmocka_unit_test(a_drawn_repetition_proves_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
