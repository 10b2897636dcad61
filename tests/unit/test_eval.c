/*
 * test_eval.c: the built-in engine's evaluation (lib/eval.c): each
 * xiangqi term is counted where it should be and nowhere else, the trace
 * the tuner reads is the evaluation the search uses, and the tuned weights
 * say what every xiangqi book says (a crossed pawn is worth more, a free
 * horse more than a hobbled one, a side with nothing to attack with cannot
 * win).
 */
#include "testutil.h"

#include "diagnostic.h"
#include "eval.h"
#include "movegen.h"
#include "position.h"

static struct xqi_position pos(const char *fen)
{
	struct xqi_position b;
	struct xq_diagnostic d;

	xqi_diagnostic_init(&d);
	if (xqi_position_from_fen(&b, fen, strlen(fen), XQI_FEN_LENIENT_PLACEMENT, &d))
		fail_msg("bad test FEN '%s': %s", fen, d.msg);
	return b;
}

static int feature(const char *fen, int f)
{
	struct xqi_position b = pos(fen);
	struct xqi_eval_trace tr;

	xqi_eval_trace(&b, &tr);
	return tr.f[f];
}

/* Every position of a few hundred plies of pseudo-random play from the
 * start and from a middle game: the trace times the weights is exactly
 * the evaluation, and so is the search's incremental form. */
static void traced_features_times_weights_give_the_evaluation(void **state)
{
	static const char *const starts[] = {
		XQI_START_FEN,
		"2bak4/9/3a5/p2Np3p/3n1P3/3pc3P/P4r1c1/B2CC2R1/4A4/3AK1B2 b - - 0 1",
	};
	uint32_t seed = 12345;

	(void)state;
	for (size_t k = 0; k < sizeof(starts) / sizeof(starts[0]); k++) {
		struct xqi_position b = pos(starts[k]);
		for (int ply = 0; ply < 200; ply++) {
			struct xqi_eval_trace tr;
			xqi_move moves[XQ_MOVES_MAX];
			struct xqi_undo u;
			int n = xqi_gen_legal(&b, moves);
			xqi_eval_trace(&b, &tr);
			assert_int_equal(xqi_eval_traced(&tr, xqi_eval_weights), xqi_eval(&b));
			if (!n)
				break;
			seed = seed * 1103515245u + 12345u;
			xqi_position_make(&b, moves[(seed >> 16) % (uint32_t)n], &u);
		}
	}
}

static void a_blocked_horse_leg_is_counted_and_its_moves_are_not(void **state)
{
	(void)state;
	/* Red's horse on b0: a2 and c2 through the leg b1, d1 through c0.  A
	 * piece on b1 blocks the leg of two of those moves. */
	assert_int_equal(feature("4k4/9/9/9/9/9/9/9/1P7/1N1K5 w", XQI_EF_HORSE_LEG_BLOCKED), 2);
	assert_int_equal(feature("4k4/9/9/9/9/9/9/9/9/1N1K5 w", XQI_EF_HORSE_LEG_BLOCKED), 0);
	assert_int_equal(feature("4k4/9/9/9/9/9/9/9/9/1N1K5 w", XQI_EF_HORSE_MOBILITY), 3);
	assert_int_equal(feature("4k4/9/9/9/9/9/9/9/1P7/1N1K5 w", XQI_EF_HORSE_MOBILITY), 1);
}

static void a_cannon_on_the_king_file_is_hollow_or_screened(void **state)
{
	(void)state;
	/* Nothing between the cannon on e2 and the king on e9: hollow. */
	assert_int_equal(feature("4k4/9/9/9/9/9/9/4C4/9/3K5 w", XQI_EF_CANNON_HOLLOW), 1);
	/* Two pieces between: one away from check. */
	assert_int_equal(feature("4k4/4a4/9/4p4/9/9/9/4C4/9/3K5 w", XQI_EF_CANNON_TWO_SCREENS), 1);
	assert_int_equal(feature("4k4/4a4/9/4p4/9/9/9/4C4/9/3K5 w", XQI_EF_CANNON_HOLLOW), 0);
	/* Black's hollow cannon counts against red. */
	assert_int_equal(feature("3k5/9/9/9/9/9/9/4c4/9/4K4 w", XQI_EF_CANNON_HOLLOW), -1);
}

static void missing_defenders_count_with_the_enemy_attack(void **state)
{
	(void)state;
	/* Black has no advisor and no elephant; red attacks with a rook (2)
	 * and a horse (1): 2 * 3 each, against black. */
	assert_int_equal(feature("4k4/9/9/9/9/9/9/9/4N4/R2AKA3 w", XQI_EF_MISSING_ADVISOR_X_ATTACK), -6);
	assert_int_equal(feature("4k4/9/9/9/9/9/9/9/4N4/R2AKA3 w", XQI_EF_MISSING_ELEPHANT_X_ATTACK), -6);
	/* Red keeps both advisors, black attacks with nothing. */
	assert_int_equal(feature("4k4/9/9/9/9/9/9/9/4N4/R2AKA3 w", XQI_EF_ADVISOR_PAIR), 1);
}

static void an_enemy_rook_faces_a_king_with_no_cover_on_its_file(void **state)
{
	(void)state;
	/* Black's king on d9 has nothing of its own in front on the d file;
	 * red has one rook. */
	assert_int_equal(feature("3k5/9/9/9/9/9/9/9/9/R3K4 w", XQI_EF_ROOK_ON_OPEN_KING_FILE), -1);
	/* A black pawn on d6 covers it. */
	assert_int_equal(feature("3k5/9/9/3p5/9/9/9/9/9/R3K4 w", XQI_EF_ROOK_ON_OPEN_KING_FILE), 0);
}

static void attackers_near_the_palace_and_crossed_pawns_side_by_side(void **state)
{
	(void)state;
	/* Two red pawns side by side on d6 and e6, just in front of black's
	 * palace (its ranks 9-7 and the rank in front, 6, on files d-f):
	 * two attackers near black's king, against black. */
	assert_int_equal(feature("4k4/9/9/3PP4/9/9/9/9/9/4K4 w", XQI_EF_PAWNS_SIDE_BY_SIDE), 1);
	assert_int_equal(feature("4k4/9/9/3PP4/9/9/9/9/9/4K4 w", XQI_EF_ATTACKERS_NEAR_KING), -2);
	/* Pawns at home do not count, even side by side. */
	assert_int_equal(feature("3k5/9/9/9/9/9/PP7/9/9/4K4 w", XQI_EF_PAWNS_SIDE_BY_SIDE), 0);
}

static void the_phase_runs_from_full_at_the_start_to_zero(void **state)
{
	struct xqi_eval_trace tr;
	struct xqi_position b;

	(void)state;
	xqi_position_start(&b);
	xqi_eval_trace(&b, &tr);
	assert_int_equal(tr.phase, XQI_EVAL_PHASE_MAX);
	b = pos("3k5/9/9/9/9/9/9/9/4P4/4K4 w");
	xqi_eval_trace(&b, &tr);
	assert_int_equal(tr.phase, 0);
}

/* The value of a piece of `type` of red's on `sq`, mg and eg. */
static int value(int type, xqi_sq sq, int eg)
{
	const struct xqi_eval_weight *w = xqi_eval_weights;
	int f = xqi_eval_pst_feature(XQI_RED, type, sq);

	return eg ? w[XQI_EF_MATERIAL + type].eg + w[f].eg : w[XQI_EF_MATERIAL + type].mg + w[f].mg;
}

static void tuned_weights_say_a_crossed_pawn_is_worth_more(void **state)
{
	(void)state;
	for (int eg = 0; eg < 2; eg++) {
		/* e3 (at home) against e5 and e6 (across the river). */
		assert_true(value(XQI_PAWN, XQI_SQ(4, 5), eg) > value(XQI_PAWN, XQI_SQ(4, 3), eg));
		assert_true(value(XQI_PAWN, XQI_SQ(4, 6), eg) > value(XQI_PAWN, XQI_SQ(4, 3), eg));
		/* A rook is worth more than a horse or a cannon on its home point. */
		assert_true(value(XQI_ROOK, XQI_SQ(0, 0), eg) > value(XQI_HORSE, XQI_SQ(1, 0), eg));
		assert_true(value(XQI_ROOK, XQI_SQ(0, 0), eg) > value(XQI_CANNON, XQI_SQ(1, 2), eg));
	}
	/* Mobility pays. */
	assert_true(xqi_eval_weights[XQI_EF_HORSE_MOBILITY].mg > 0);
	assert_true(xqi_eval_weights[XQI_EF_ROOK_MOBILITY].mg > 0);
}

static void a_side_with_nothing_to_attack_with_cannot_win(void **state)
{
	/* Red has both advisors and both elephants, black a bare king: red is
	 * ahead in material but cannot mate, so its advantage shrinks to an
	 * eighth of what the sum says. */
	struct xqi_position b = pos("4k4/9/9/9/9/9/9/4B4/4A4/2BAK4 w");
	struct xqi_eval_trace tr;
	int eg = 0;

	(void)state;
	xqi_eval_trace(&b, &tr);
	assert_int_equal(tr.cannot_win[XQI_RED], 1);
	assert_int_equal(tr.cannot_win[XQI_BLACK], 1);
	/* No piece that changes the phase is left: the endgame weights alone. */
	for (int f = 0; f < XQI_EVAL_FEATURES; f++)
		eg += xqi_eval_weights[f].eg * tr.f[f];
	assert_true(eg > 0);
	assert_int_equal(xqi_eval(&b), eg / 8);
}

static void every_feature_has_a_name(void **state)
{
	char name[64];

	(void)state;
	for (int f = 0; f < XQI_EVAL_FEATURES; f++) {
		xqi_eval_feature_name(f, name, sizeof(name));
		assert_true(name[0] != '\0');
	}
	xqi_eval_feature_name(XQI_EF_TEMPO, name, sizeof(name));
	assert_string_equal(name, "TEMPO");
	xqi_eval_feature_name(XQI_EF_PST + XQI_PAWN * XQI_EVAL_PST_POINTS + 5 * 5 + 4, name, sizeof(name));
	assert_string_equal(name, "pst pawn rank 5 file e");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(traced_features_times_weights_give_the_evaluation),
		cmocka_unit_test(a_blocked_horse_leg_is_counted_and_its_moves_are_not),
		cmocka_unit_test(a_cannon_on_the_king_file_is_hollow_or_screened),
		cmocka_unit_test(missing_defenders_count_with_the_enemy_attack),
		cmocka_unit_test(an_enemy_rook_faces_a_king_with_no_cover_on_its_file),
		cmocka_unit_test(attackers_near_the_palace_and_crossed_pawns_side_by_side),
		cmocka_unit_test(the_phase_runs_from_full_at_the_start_to_zero),
		cmocka_unit_test(tuned_weights_say_a_crossed_pawn_is_worth_more),
		cmocka_unit_test(a_side_with_nothing_to_attack_with_cannot_win),
		cmocka_unit_test(every_feature_has_a_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
