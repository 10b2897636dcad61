/*
 * test_movegen.c: how each piece moves, check, the flying general, mate
 * and stalemate, and the reasons given for illegal moves.
 */
#include "testutil.h"

#include "position.h"
#include "diagnostic.h"
#include "movegen.h"

static struct xqi_position pos(const char *fen)
{
	struct xqi_position b;
	struct xq_diagnostic d;

	xqi_diagnostic_init(&d);
	if (xqi_position_from_fen(&b, fen, strlen(fen), 0, &d))
		fail_msg("bad test FEN '%s': %s", fen, d.msg);
	return b;
}

static xqi_move mv(const char *iccs)
{
	return XQI_MOVE(XQI_SQ(iccs[0] - 'a', iccs[1] - '0'), XQI_SQ(iccs[2] - 'a', iccs[3] - '0'));
}

static int legal(struct xqi_position *b, const char *iccs)
{
	return xqi_move_is_legal(b, mv(iccs));
}

/* Legal moves of the piece on `from`, as a sorted space-separated string. */
static void moves_from(struct xqi_position *b, const char *from, char *out, size_t cap)
{
	xqi_move m[XQ_MOVES_MAX];
	char names[XQ_MOVES_MAX][5];
	int n = xqi_gen_legal(b, m), k = 0;
	xqi_sq f = XQI_SQ(from[0] - 'a', from[1] - '0');

	for (int i = 0; i < n; i++)
		if (XQI_MOVE_FROM(m[i]) == f)
			xqi_move_name(m[i], names[k++]);
	qsort(names, (size_t)k, 5, (int (*)(const void *, const void *))strcmp);
	out[0] = '\0';
	for (int i = 0; i < k; i++) {
		strncat(out, names[i] + 2, cap - strlen(out) - 1);
		if (i + 1 < k)
			strncat(out, " ", cap - strlen(out) - 1);
	}
}

#define ASSERT_MOVES(fen, from, expect)                          \
	do {                                                     \
		struct xqi_position b_ = pos(fen);                   \
		char got_[512];                                  \
		moves_from(&b_, (from), got_, sizeof(got_));     \
		assert_string_equal(got_, (expect));             \
	} while (0)

static void start_position_has_44_legal_moves(void **state)
{
	struct xqi_position b;
	xqi_move m[XQ_MOVES_MAX];

	(void)state;
	xqi_position_start(&b);
	assert_int_equal(xqi_gen_legal(&b, m), 44);
}

static void cannon_needs_exactly_one_screen_to_capture(void **state)
{
	(void)state;
	/* Black pawns on a2 and a4: the cannon on a0 captures a4 over a2, not a2. */
	ASSERT_MOVES("3k5/9/9/9/9/p8/9/p8/9/C3K4 w", "a0", "a1 a4 b0 c0 d0");
}

static void cannon_cannot_capture_over_two_screens(void **state)
{
	(void)state;
	ASSERT_MOVES("3k5/9/9/9/9/p8/p8/p8/9/C3K4 w", "a0", "a1 a3 b0 c0 d0");
}

static void horse_leg_blocks_move(void **state)
{
	(void)state;
	/* A black pawn on b1 blocks the horse on b0 towards a2 and c2. */
	ASSERT_MOVES("3k5/9/9/9/9/9/9/9/1p7/1N2K4 w", "b0", "d1");
}

static void elephant_eye_blocks_move(void **state)
{
	(void)state;
	ASSERT_MOVES("3k5/9/9/9/9/9/9/9/3p5/2B1K4 w", "c0", "a2");
}

static void elephant_cannot_cross_the_river(void **state)
{
	(void)state;
	ASSERT_MOVES("3k5/9/9/9/9/2B6/9/9/9/4K4 w", "c4", "a2 e2");
}

static void pawn_moves_sideways_only_after_crossing_the_river(void **state)
{
	(void)state;
	ASSERT_MOVES("3k5/9/9/9/2P6/9/2P6/9/9/4K4 w", "c3", "c4");
	ASSERT_MOVES("3k5/9/9/9/2P6/9/2P6/9/9/4K4 w", "c5", "b5 c6 d5");
}

static void pawn_never_moves_backward(void **state)
{
	struct xqi_position b = pos("3k5/9/9/9/2P6/9/9/9/9/4K4 w");
	struct xq_diagnostic d;

	(void)state;
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_move_check(&b, mv("c5c4"), &d), XQ_EILLEGAL);
	assert_string_equal(d.msg, "pawns never move backward");
}

static void king_and_advisor_stay_in_the_palace(void **state)
{
	(void)state;
	ASSERT_MOVES("5k3/9/9/9/9/9/9/9/9/3K5 w", "d0", "d1 e0");
	ASSERT_MOVES("5k3/9/9/9/9/9/9/9/9/3AK4 w", "d0", "e1");
}

static void flying_general_makes_move_illegal(void **state)
{
	struct xqi_position b = pos("4k4/9/9/9/9/9/9/9/4A4/4K4 w");
	struct xq_diagnostic d;

	(void)state;
	/* The advisor on e1 is the only piece between the kings. */
	ASSERT_MOVES("4k4/9/9/9/9/9/9/9/4A4/4K4 w", "e1", "");
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_move_check(&b, mv("e1d2"), &d), XQ_EILLEGAL);
	assert_string_equal(d.msg, "the kings would face each other on an open file");
}

static void king_cannot_step_onto_the_other_kings_open_file(void **state)
{
	(void)state;
	ASSERT_MOVES("3k5/9/9/9/9/9/9/9/9/4K4 w", "e0", "e1 f0");
}

static void moving_a_screen_uncovers_cannon_check(void **state)
{
	(void)state;
	/* Black cannon e8, red horse e2 and advisor e1 as its two screens. */
	ASSERT_MOVES("3k5/4c4/9/9/9/9/9/4N4/4A4/4K4 w", "e2", "");
}

static void piece_stepping_between_cannon_and_king_gives_check(void **state)
{
	struct xqi_position b = pos("3k5/4c4/9/9/9/R8/9/9/9/4K4 w");

	(void)state;
	/* The cannon on e8 faces the king with no screen: the rook may not become one. */
	assert_false(legal(&b, "a4e4"));
	assert_true(legal(&b, "a4d4"));
	assert_true(legal(&b, "a4a5"));
}

static void pinned_rook_moves_only_along_the_pin(void **state)
{
	(void)state;
	ASSERT_MOVES("3k5/9/4r4/9/9/9/4R4/9/9/4K4 w", "e3", "e1 e2 e4 e5 e6 e7");
}

static void horse_check_is_blocked_by_its_leg(void **state)
{
	struct xqi_position open = pos("3k5/9/9/9/9/9/3n5/9/4K4/9 w");
	struct xqi_position blocked = pos("3k5/9/9/9/9/9/3n5/3R5/4K4/9 w");

	(void)state;
	/* Horse d3 attacks the king on e1 through its leg d2. */
	assert_true(xqi_position_in_check(&open));
	assert_false(xqi_position_in_check(&blocked));
	/* The rook on the leg is pinned, but may take the horse. */
	assert_false(legal(&blocked, "d2c2"));
	assert_false(legal(&blocked, "d2d1"));
	assert_true(legal(&blocked, "d2d3"));
}

static void checkmate_and_stalemate_both_lose(void **state)
{
	struct xqi_position mate = pos("3aka3/4P4/9/3N5/4C4/9/9/9/9/3K5 b");
	struct xqi_position stale = pos("3k5/9/3P5/9/9/9/9/9/9/4K4 b");
	struct xqi_position play;

	(void)state;
	xqi_position_start(&play);
	assert_int_equal(xqi_position_status(&mate), XQ_STATE_CHECKMATE);
	assert_int_equal(xqi_position_status(&stale), XQ_STATE_STALEMATE);
	assert_int_equal(xqi_position_status(&play), XQ_STATE_PLAYING);
}

static void move_check_explains_why_a_move_is_illegal(void **state)
{
	static const struct {
		const char *fen, *move, *why;
	} cases[] = {
		{"3k5/9/9/9/9/9/9/9/1p7/1N2K4 w", "b0c2", "the horse's leg at b1 is blocked"},
		{"3k5/9/9/9/9/9/9/9/3p5/2B1K4 w", "c0e2", "the elephant's eye at d1 is blocked"},
		{"3k5/9/9/9/9/2B6/9/9/9/4K4 w", "c4e6", "the elephant cannot cross the river"},
		{"3k5/9/9/9/9/9/9/9/9/4K4 w", "e0e3", "the king moves one point along a line"},
		{"3k5/9/9/9/9/9/9/9/9/5K3 w", "f0g0", "the king cannot leave its palace"},
		{"3k5/9/9/9/9/9/2P6/9/9/4K4 w", "c3d3", "a pawn moves sideways only after crossing the river"},
		{"3k5/9/9/9/9/p8/p8/p8/9/C3K4 w", "a0a4", "a cannon captures by jumping exactly one screen, and there are 2"},
		{"3k5/9/9/9/9/p8/9/p8/9/C3K4 w", "a0a2", "a cannon captures by jumping exactly one screen, and there are 0"},
		{"3k5/9/9/9/9/p8/9/p8/9/C3K4 w", "a0a3", "the cannon's path is blocked at a2"},
		{"3k5/9/9/9/9/9/9/p8/9/R3K4 w", "a0a5", "the rook's path is blocked at a2"},
		{"3k5/9/9/9/9/9/9/9/9/4K4 w", "a0a1", "there is no piece on a0"},
		{XQI_START_FEN, "h7e7", "the cannon on h7 is black's, but red is to move"},
		{XQI_START_FEN, "a0b0", "b0 is occupied by red's own horse"},
		{"3k5/9/4r4/9/9/9/4R4/9/9/4K4 w", "e3d3", "it exposes the red king to check"},
		{"3k5/9/9/9/9/9/9/3n5/9/R3K4 w", "a0a1", "it leaves the red king in check"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct xqi_position b = pos(cases[i].fen);
		struct xq_diagnostic d;
		xqi_diagnostic_init(&d);
		assert_int_equal(xqi_move_check(&b, mv(cases[i].move), &d), XQ_EILLEGAL);
		assert_int_equal(d.code, XQI_D_ILLEGAL_MOVE);
		if (strcmp(d.msg, cases[i].why))
			fail_msg("%s %s: got '%s', expected '%s'", cases[i].fen, cases[i].move, d.msg,
				 cases[i].why);
	}
}

static void move_generation_is_safe_on_a_board_without_a_king(void **state)
{
	/* Boards built piece by piece need not be legal; found by fuzzing: a
	 * king taken in perft left pc[king] = 0 and the line tables were
	 * indexed with -3. */
	struct xqi_position b;
	xqi_move m[XQ_MOVES_MAX];

	(void)state;
	xqi_position_clear(&b);
	assert_int_equal(xqi_position_put(&b, XQI_RED, XQI_KING, XQI_SQ(4, 0), NULL), 0);
	assert_int_equal(xqi_position_put(&b, XQI_RED, XQI_ROOK, XQI_SQ(0, 0), NULL), 0);
	assert_int_equal(xqi_position_put(&b, XQI_BLACK, XQI_ROOK, XQI_SQ(8, 9), NULL), 0);
	assert_false(xqi_position_king_attacked(&b, XQI_BLACK));
	assert_int_equal(xqi_gen_legal(&b, m), 15);
	b.side = XQI_BLACK;
	assert_int_equal(xqi_gen_legal(&b, m), 17);
	assert_true(xqi_perft(&b, 3) > 0);
}

/* Brute force: pseudo-legal moves kept only if make/test/unmake says so. */
static int legal_by_brute_force(struct xqi_position *b, xqi_move *out)
{
	xqi_move m[XQ_MOVES_MAX];
	int n = xqi_gen_pseudo(b, m), k = 0;

	for (int i = 0; i < n; i++) {
		struct xqi_undo u;
		xqi_position_make(b, m[i], &u);
		if (!xqi_position_king_attacked(b, b->side ^ 1))
			out[k++] = m[i];
		xqi_position_unmake(b, m[i], &u);
	}
	return k;
}

static void legal_filter_agrees_with_brute_force_in_random_games(void **state)
{
	uint64_t seed = 99;

	(void)state;
	for (int game = 0; game < 300; game++) {
		struct xqi_position b;
		xqi_position_start(&b);
		for (int ply = 0; ply < 200; ply++) {
			xqi_move fast[XQ_MOVES_MAX], slow[XQ_MOVES_MAX];
			struct xqi_undo u;
			int nf = xqi_gen_legal(&b, fast), ns = legal_by_brute_force(&b, slow);
			assert_int_equal(nf, ns);
			for (int i = 0; i < nf; i++) {
				struct xq_diagnostic d;
				assert_int_equal(fast[i], slow[i]);
				xqi_diagnostic_init(&d);
				assert_int_equal(xqi_move_check(&b, fast[i], &d), 0);
			}
			if (nf == 0)
				break;
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			xqi_position_make(&b, fast[(seed >> 33) % (uint64_t)nf], &u);
		}
	}
}

/* The legal captures are the legal moves that land on a piece: the rook
 * takes along its rank and its file, and a capture that would leave the
 * king in check is not one. */
static void legal_captures_are_the_legal_moves_onto_a_piece(void **state)
{
	struct xqi_position b = pos("4k4/9/9/9/p8/9/9/9/R7n/3K5 w - - 0 1");
	xqi_move caps[XQ_MOVES_MAX];
	int n;

	(void)state;
	n = xqi_gen_legal_captures(&b, caps);
	assert_int_equal(n, 2);
	assert_true((caps[0] == mv("a1a5") && caps[1] == mv("a1i1")) ||
		    (caps[0] == mv("a1i1") && caps[1] == mv("a1a5")));
	/* Pinned on the e-file by a rook, the rook may take the pinner but
	 * not the pawn on its rank. */
	b = pos("4k4/4r4/9/9/9/9/9/4R3p/9/4K4 w - - 0 1");
	assert_int_equal(xqi_gen_legal_captures(&b, caps), 1);
	assert_int_equal(caps[0], mv("e2e8"));
	assert_true(legal(&b, "e2e5"));
}

static void gives_check_only_for_moves_that_attack_the_king(void **state)
{
	struct xqi_position b = pos("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1");
	struct xqi_position before = b;

	(void)state;
	assert_true(xqi_move_gives_check(&b, mv("a1e1")));
	assert_true(xqi_move_gives_check(&b, mv("a1a9")));
	assert_false(xqi_move_gives_check(&b, mv("a1a5")));
	assert_false(xqi_move_gives_check(&b, mv("d0d1")));
	/* The board is restored. */
	assert_memory_equal(&b, &before, sizeof(b));
}

/*
 * A composed position may put an advisor where it can never stand (readers
 * keep it, with a warning; a king there they refuse).  It has no move, and the
 * check of one move says so as the move generator does: the CHN reader,
 * which checks each move, once kept an advisor's step from d3 into the
 * palace that the generator (and so the fuzz target's check) refused.
 */
static void an_advisor_outside_its_palace_has_no_move_in_either_check(void **state)
{
	static const char *const cases[][2] = {
		{"2ba1ab1r/4k4/c1n1c1n2/p3p1p1p/2p6/6P2/PrPAP3P/1CN3NC1/4A4/1RB1K1BR1 w - - 0 1", "d3e2"},
		{"2ba1ab1r/4k4/c1n1c1n2/p3p1p1p/2p6/6P2/PrPAP3P/1CN3NC1/4A4/1RB1K1BR1 w - - 0 1", "d3c4"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct xqi_position b;
		struct xq_diagnostic d;
		xqi_diagnostic_init(&d);
		assert_int_equal(xqi_position_from_fen(&b, cases[i][0], strlen(cases[i][0]),
						       XQI_FEN_LENIENT_PLACEMENT, &d), 0);
		assert_false(xqi_move_is_legal(&b, mv(cases[i][1])));
		xqi_diagnostic_init(&d);
		assert_int_equal(xqi_move_check(&b, mv(cases[i][1]), &d), XQ_EILLEGAL);
		assert_non_null(strstr(d.msg, "outside its palace"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(start_position_has_44_legal_moves),
		cmocka_unit_test(legal_captures_are_the_legal_moves_onto_a_piece),
		cmocka_unit_test(gives_check_only_for_moves_that_attack_the_king),
		cmocka_unit_test(cannon_needs_exactly_one_screen_to_capture),
		cmocka_unit_test(cannon_cannot_capture_over_two_screens),
		cmocka_unit_test(horse_leg_blocks_move),
		cmocka_unit_test(elephant_eye_blocks_move),
		cmocka_unit_test(elephant_cannot_cross_the_river),
		cmocka_unit_test(pawn_moves_sideways_only_after_crossing_the_river),
		cmocka_unit_test(pawn_never_moves_backward),
		cmocka_unit_test(king_and_advisor_stay_in_the_palace),
		cmocka_unit_test(flying_general_makes_move_illegal),
		cmocka_unit_test(king_cannot_step_onto_the_other_kings_open_file),
		cmocka_unit_test(moving_a_screen_uncovers_cannon_check),
		cmocka_unit_test(piece_stepping_between_cannon_and_king_gives_check),
		cmocka_unit_test(pinned_rook_moves_only_along_the_pin),
		cmocka_unit_test(horse_check_is_blocked_by_its_leg),
		cmocka_unit_test(checkmate_and_stalemate_both_lose),
		cmocka_unit_test(move_check_explains_why_a_move_is_illegal),
		cmocka_unit_test(an_advisor_outside_its_palace_has_no_move_in_either_check),
		cmocka_unit_test(move_generation_is_safe_on_a_board_without_a_king),
		cmocka_unit_test(legal_filter_agrees_with_brute_force_in_random_games),
	};
	return cmocka_run_group_tests_name("movegen", tests, NULL, NULL);
}
