/*
 * test_position.c: FEN in and out, validation, make/unmake and the key.
 */
#include "testutil.h"

#include "position.h"
#include "diagnostic.h"
#include "movegen.h"

static int load(struct xqi_position *b, const char *fen, struct xq_diagnostic *d)
{
	xqi_diagnostic_init(d);
	return xqi_position_from_fen(b, fen, strlen(fen), 0, d);
}

static void assert_rejected(const char *fen, int rc, unsigned col, const char *msg_part)
{
	struct xqi_position b;
	struct xq_diagnostic d;

	memset(&b, 0x5A, sizeof(b));
	assert_int_equal(load(&b, fen, &d), rc);
	assert_int_equal(d.code, XQI_D_BAD_FEN);
	if (col)
		assert_int_equal(d.place.col, col);
	if (!strstr(d.msg, msg_part))
		fail_msg("message '%s' does not mention '%s'", d.msg, msg_part);
	/* Never half-loads: the output is untouched. */
	for (size_t i = 0; i < sizeof(b); i++)
		assert_int_equal(((unsigned char *)&b)[i], 0x5A);
}

static void fen_start_position_round_trips(void **state)
{
	struct xqi_position b;
	struct xq_diagnostic d;
	char out[XQ_FEN_SIZE];

	(void)state;
	assert_int_equal(load(&b, XQI_START_FEN, &d), 0);
	xqi_position_to_fen(&b, out, sizeof(out));
	assert_string_equal(out, XQI_START_FEN);
	assert_int_equal(b.side, XQI_RED);
	assert_true(b.key == xqi_position_compute_key(&b));
}

static void fen_accepts_r_for_red_and_board_only_forms(void **state)
{
	struct xqi_position b;
	struct xq_diagnostic d;
	char out[XQ_FEN_SIZE];

	(void)state;
	assert_int_equal(load(&b, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r", &d), 0);
	assert_int_equal(b.side, XQI_RED);
	assert_int_equal(load(&b, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR", &d), 0);
	assert_int_equal(b.side, XQI_RED);
	assert_int_equal(load(&b, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 12", &d), 0);
	assert_int_equal(b.side, XQI_BLACK);
	assert_int_equal(b.halfmove, 7);
	assert_int_equal(b.fullmove, 12);
	xqi_position_to_fen(&b, out, sizeof(out));
	assert_string_equal(out, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 12");
}

static void fen_accepts_e_and_h_for_elephant_and_horse(void **state)
{
	struct xqi_position b;
	struct xq_diagnostic d;
	char out[XQ_FEN_SIZE];

	(void)state;
	assert_int_equal(load(&b, "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1", &d), 0);
	xqi_position_to_fen(&b, out, sizeof(out));
	assert_string_equal(out, XQI_START_FEN);
}

static void fen_rejects_wrong_row_and_column_counts(void **state)
{
	(void)state;
	assert_rejected("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w", XQ_EPARSE, 0,
			"rows");
	assert_rejected("rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", XQ_EPARSE, 12,
			"row 2 has 8 columns");
	assert_rejected("rnbakabnr/91/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", XQ_EPARSE, 12,
			"more than 9 columns");
	assert_rejected("", XQ_EPARSE, 1, "empty");
}

static void fen_rejects_unknown_letter_at_its_column(void **state)
{
	(void)state;
	assert_rejected("rnbakabnr/9/1c5c1/p1p1x1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", XQ_EPARSE, 23,
			"unknown piece letter 'x'");
	assert_rejected("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x", XQ_EPARSE, 61,
			"side to move");
}

static void fen_rejects_more_pieces_than_a_set_has(void **state)
{
	(void)state;
	assert_rejected("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/RNBAKABNR w", XQ_EILLEGAL, 0,
			"more than 2 red rooks");
	assert_rejected("3k5/9/9/9/9/P1P1P1P1P/P8/9/9/4K4 w", XQ_EILLEGAL, 0, "more than 5 red pawns");
	assert_rejected("3k5/9/9/9/9/9/9/9/9/4KK3 w", XQ_EILLEGAL, 0, "more than 1 red king");
}

static void fen_rejects_missing_king(void **state)
{
	(void)state;
	assert_rejected("9/9/9/9/9/9/9/9/9/4K4 w", XQ_EILLEGAL, 0, "no black king");
}

static void fen_rejects_king_outside_its_palace(void **state)
{
	(void)state;
	assert_rejected("3k5/9/9/9/9/9/9/9/9/K8 w", XQ_EILLEGAL, 0, "red king on a0, outside its palace");
	assert_rejected("9/9/9/9/3k5/9/9/9/9/4K4 w", XQ_EILLEGAL, 0, "black king on d5, outside its palace");
}

static void fen_rejects_advisor_elephant_and_pawn_on_unreachable_squares(void **state)
{
	(void)state;
	assert_rejected("3k5/9/9/9/9/9/9/9/3A5/4K4 w", XQ_EILLEGAL, 0, "red advisor on d1");
	assert_rejected("3k5/9/9/9/9/9/9/9/9/3KB4 w", XQ_EILLEGAL, 0, "red elephant on e0");
	assert_rejected("3k5/9/9/9/2B6/9/9/9/9/4K4 w", XQ_EILLEGAL, 0, "red elephant on c5");
	assert_rejected("3k5/9/9/9/9/9/9/P8/9/4K4 w", XQ_EILLEGAL, 0, "red pawn on a2");
	assert_rejected("3k5/9/9/9/9/9/1P7/9/9/4K4 w", XQ_EILLEGAL, 0, "red pawn on b3");
	assert_rejected("3k5/9/p8/9/9/9/9/9/9/4K4 w", XQ_EILLEGAL, 0, "black pawn on a7");
	assert_rejected("3k5/9/9/1p7/9/9/9/9/9/4K4 w", XQ_EILLEGAL, 0, "black pawn on b6");
}

static void fen_lenient_placement_accepts_composed_positions(void **state)
{
	struct xqi_position b;
	struct xq_diagnostic d;
	const char *fen = "3k5/9/9/9/9/9/9/9/3A5/4K4 w";

	(void)state;
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_position_from_fen(&b, fen, strlen(fen), XQI_FEN_LENIENT_PLACEMENT, &d), 0);
}

static void fen_rejects_kings_facing_on_an_open_file(void **state)
{
	(void)state;
	assert_rejected("4k4/9/9/9/9/9/9/9/9/4K4 w", XQ_EILLEGAL, 0, "face each other");
}

static void fen_rejects_side_not_to_move_in_check(void **state)
{
	(void)state;
	assert_rejected("4k4/9/9/9/9/9/9/9/4R4/3K5 w", XQ_EILLEGAL, 0,
			"black is in check but it is red's move");
}

static void make_unmake_restores_position_and_key(void **state)
{
	struct xqi_position b, copy;
	uint64_t seed = 12345;

	(void)state;
	for (int game = 0; game < 200; game++) {
		xqi_position_start(&b);
		for (int ply = 0; ply < 150; ply++) {
			xqi_move moves[XQ_MOVES_MAX];
			struct xqi_undo u;
			int n = xqi_gen_legal(&b, moves);
			xqi_move m;
			if (n == 0)
				break;
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			m = moves[(seed >> 33) % (uint64_t)n];
			copy = b;
			xqi_position_make(&b, m, &u);
			assert_true(b.key == xqi_position_compute_key(&b));
			xqi_position_unmake(&b, m, &u);
			assert_memory_equal(&b, &copy, sizeof(b));
			xqi_position_make(&b, m, &u);
		}
	}
}

static void key_differs_by_side_to_move(void **state)
{
	struct xqi_position r, k;
	struct xq_diagnostic d;

	(void)state;
	assert_int_equal(load(&r, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", &d), 0);
	assert_int_equal(load(&k, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b", &d), 0);
	assert_true(r.key != k.key);
}

static void null_move_flips_side_and_restores(void **state)
{
	struct xqi_position b, copy;
	struct xqi_undo u;

	(void)state;
	xqi_position_start(&b);
	copy = b;
	xqi_position_make_null(&b, &u);
	assert_int_equal(b.side, XQI_BLACK);
	assert_true(b.key == xqi_position_compute_key(&b));
	xqi_position_unmake_null(&b, &u);
	assert_memory_equal(&b, &copy, sizeof(b));
}

static void mirror_reads_every_file_the_other_way_and_keeps_the_side(void **state)
{
	struct xqi_position b, m, back;
	struct xq_diagnostic d;
	char out[XQ_FEN_SIZE];

	(void)state;
	assert_int_equal(load(&b, "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 3 2", &d), 0);
	xqi_position_mirror(&b, &m);
	xqi_position_to_fen(&m, out, sizeof(out));
	assert_string_equal(out, "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/4C2C1/9/RNBAKABNR b - - 3 2");
	assert_true(m.key == xqi_position_compute_key(&m));
	xqi_position_mirror(&m, &back);
	assert_true(back.key == b.key);
	/* the start position is its own mirror */
	xqi_position_start(&b);
	xqi_position_mirror(&b, &m);
	assert_true(m.key == b.key);
	assert_int_equal(xqi_move_mirror(XQI_MOVE(XQI_SQ(7, 2), XQI_SQ(4, 2))),
			 XQI_MOVE(XQI_SQ(1, 2), XQI_SQ(4, 2))); /* h2e2 is b2e2 */
}

static void piece_letters_name_their_types(void **state)
{
	(void)state;
	assert_int_equal(xqi_piece_type_of_letter('R'), XQI_ROOK);
	assert_int_equal(xqi_piece_type_of_letter('B'), XQI_ELEPHANT);
	assert_int_equal(xqi_piece_type_of_letter('E'), XQI_ELEPHANT);
	assert_int_equal(xqi_piece_type_of_letter('H'), XQI_HORSE);
	assert_int_equal(xqi_piece_type_of_letter('N'), XQI_HORSE);
	assert_int_equal(xqi_piece_type_of_letter('x'), -1);
	assert_int_equal(xqi_piece_type_of_letter('r'), -1); /* upper case only */
}


static void start_position_set_up_directly_equals_the_start_fen_read(void **state)
{
	struct xqi_position a, b;
	struct xq_diagnostic d;

	(void)state;
	assert_int_equal(load(&a, XQI_START_FEN, &d), 0);
	memset(&b, 0x5A, sizeof(b));
	xqi_position_start(&b);
	assert_memory_equal(a.sq, b.sq, sizeof(a.sq));
	assert_memory_equal(a.pc, b.pc, sizeof(a.pc));
	assert_memory_equal(a.rank_bits, b.rank_bits, sizeof(a.rank_bits));
	assert_memory_equal(a.file_bits, b.file_bits, sizeof(a.file_bits));
	assert_true(a.key == b.key);
	assert_int_equal(a.side, b.side);
	assert_int_equal(a.halfmove, b.halfmove);
	assert_int_equal(a.fullmove, b.fullmove);
}

/* The attack test as the rules state it, walking out of the king square
 * by square: the first piece on a line (a rook, or the other king on the
 * file), the second (a cannon), a horse whose leg is empty, a pawn ahead
 * or beside. */
static int attacked_by_walking(const struct xqi_position *b, int side)
{
	static const int steps[4] = {1, -1, 16, -16};
	int them = side ^ 1;
	xqi_sq k = b->pc[XQI_SIDE_TAG(side)];

	for (int i = 0; i < 4; i++) {
		int seen = 0;
		for (int s = k + steps[i]; xqi_on_board(s); s += steps[i]) {
			uint8_t kind = xqi_position_kind(b, (xqi_sq)s);
			if (!kind)
				continue;
			if (seen == 0 && (kind == XQI_KIND(them, XQI_ROOK) ||
					  (i >= 2 && kind == XQI_KIND(them, XQI_KING))))
				return 1;
			if (seen == 1 && kind == XQI_KIND(them, XQI_CANNON))
				return 1;
			if (++seen == 2)
				break;
		}
	}
	for (int dy = -2; dy <= 2; dy++)
		for (int dx = -2; dx <= 2; dx++) {
			int h = k + 16 * dy + dx, leg;
			if (dx * dx + dy * dy != 5 || xqi_position_kind(b, (xqi_sq)h) != XQI_KIND(them, XQI_HORSE))
				continue;
			/* the leg is next to the horse, on its long step towards k */
			leg = dx == 2 || dx == -2 ? h - dx / 2 : h - 16 * (dy / 2);
			if (!b->sq[leg])
				return 1;
		}
	{
		int ahead = side == XQI_RED ? -16 : 16;
		uint8_t pawn = XQI_KIND(them, XQI_PAWN);
		if (xqi_position_kind(b, (xqi_sq)(k + ahead)) == pawn || xqi_position_kind(b, (xqi_sq)(k - 1)) == pawn ||
		    xqi_position_kind(b, (xqi_sq)(k + 1)) == pawn)
			return 1;
	}
	return 0;
}

static void king_attack_test_agrees_with_walking_the_lines_on_random_games(void **state)
{
	static const char *const fens[] = {
		XQI_START_FEN,
		"4k4/4a4/4b4/9/9/9/9/4C4/4R4/3K5 w - - 0 1",
		"2bak4/4a4/4b4/4c4/1N7/9/2p6/4C4/3R5/4K4 w - - 0 1",
		"4k4/9/3P1P3/9/2n6/9/9/9/4p4/3AK4 w - - 0 1",
	};
	uint32_t seed = 12345;
	long checks = 0, attacked = 0;

	(void)state;
	for (size_t f = 0; f < sizeof(fens) / sizeof(fens[0]); f++)
		for (int game = 0; game < 200; game++) {
			struct xqi_position b;
			struct xq_diagnostic d;
			assert_int_equal(load(&b, fens[f], &d), 0);
			for (int ply = 0; ply < 150; ply++) {
				xqi_move moves[XQ_MOVES_MAX];
				struct xqi_undo u;
				/* pseudo-legal moves: kings left attacked, and taken */
				int n = xqi_gen_pseudo(&b, moves);
				for (int side = 0; side < 2; side++) {
					int want = b.pc[XQI_SIDE_TAG(side)] ? attacked_by_walking(&b, side) : 0;
					assert_int_equal(xqi_position_king_attacked(&b, side), want);
					checks++;
					attacked += want;
				}
				if (n == 0 || !b.pc[16] || !b.pc[32])
					break;
				seed = seed * 1103515245u + 12345u;
				xqi_position_make(&b, moves[(seed >> 16) % (uint32_t)n], &u);
			}
		}
	/* both answers were seen often */
	assert_true(attacked > 1000 && checks - attacked > 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fen_start_position_round_trips),
		cmocka_unit_test(fen_accepts_r_for_red_and_board_only_forms),
		cmocka_unit_test(fen_accepts_e_and_h_for_elephant_and_horse),
		cmocka_unit_test(fen_rejects_wrong_row_and_column_counts),
		cmocka_unit_test(fen_rejects_unknown_letter_at_its_column),
		cmocka_unit_test(fen_rejects_more_pieces_than_a_set_has),
		cmocka_unit_test(fen_rejects_missing_king),
		cmocka_unit_test(fen_rejects_king_outside_its_palace),
		cmocka_unit_test(fen_rejects_advisor_elephant_and_pawn_on_unreachable_squares),
		cmocka_unit_test(fen_lenient_placement_accepts_composed_positions),
		cmocka_unit_test(fen_rejects_kings_facing_on_an_open_file),
		cmocka_unit_test(fen_rejects_side_not_to_move_in_check),
		cmocka_unit_test(make_unmake_restores_position_and_key),
		cmocka_unit_test(key_differs_by_side_to_move),
		cmocka_unit_test(null_move_flips_side_and_restores),
		cmocka_unit_test(mirror_reads_every_file_the_other_way_and_keeps_the_side),
		cmocka_unit_test(piece_letters_name_their_types),
		cmocka_unit_test(start_position_set_up_directly_equals_the_start_fen_read),
		cmocka_unit_test(king_attack_test_agrees_with_walking_the_lines_on_random_games),
	};
	return cmocka_run_group_tests_name("board", tests, NULL, NULL);
}
