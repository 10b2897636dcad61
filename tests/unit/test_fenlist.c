/*
 * test_fenlist.c: lists of positions (formats/fenlist.c, over the line
 * reader formats/lines.c): FEN and EPD lines, XQMagic's blocks, XFEN
 * refused as the variant it is, positions that are not, encodings, the
 * limits, and detection that leaves PGN's files to PGN.
 */
#include "testutil.h"

#include "ccb_testutil.h"

static int read_list(const char *data, size_t len, struct xqi_record *g, int max, struct collected *c,
		     int *rc)
{
	return read_games("fen", data, len, g, max, c, rc);
}

static void corpus_blocks_read_as_positions_with_their_tags(void **state)
{
	struct xqi_record g[4];
	struct collected c = {0};
	char fen[XQ_FEN_SIZE];
	size_t len = 0;
	char *data = NULL;
	int rc, n;

	(void)state;
	if (!test_shared_dir() ||
	    !(data = corpus_file("zfdang__chinese-chess-fish-android/棋谱/sample_41_fen.fen", &len)))
		TEST_SKIP("no shared corpus ($XQ_SHARED or ../shared)");
	n = read_list(data, len, g, 4, &c, &rc);
	assert_int_equal(n, 2);
	assert_int_equal(rc, 0);
	assert_int_equal(c.n, 0);
	assert_string_equal(xqi_record_tag(&g[0], "FEN_INDEX"), "001_19aa0594");
	assert_string_equal(xqi_record_tag(&g[0], "Event"), "标准象棋开局");
	assert_string_equal(xqi_record_tag(&g[1], "Event"), "例2");
	xqi_position_to_fen(&g[1].start, fen, sizeof(fen));
	assert_string_equal(fen, "rnbak4/9/1c7/p8/9/9/9/9/9/5K3 w - - 0 1");
	assert_int_equal(g[1].place.line, 5);
	assert_true(g[0].flags & XQI_RECORD_EMPTY);
	assert_false(g[0].flags & XQI_RECORD_BROKEN);
	release_games(g, n);
	free(data);
}

static void xfen_is_refused_as_a_variant_not_an_unknown_letter(void **state)
{
	struct xqi_record g[4];
	struct collected c = {0};
	size_t len = 0;
	char *data = NULL;
	int rc, n;

	(void)state;
	if (!test_shared_dir() ||
	    !(data = corpus_file("zfdang__chinese-chess-fish-android/棋谱/sample_42_xfen.xfen", &len)))
		TEST_SKIP("no shared corpus ($XQ_SHARED or ../shared)");
	n = read_list(data, len, g, 4, &c, &rc);
	assert_int_equal(n, 2);
	assert_int_equal(count_diags(&c, XQ_SEVERITY_ERROR), 2);
	assert_non_null(find_diag(&c, XQI_D_BAD_FEN,
				  "an XFEN position, a variant of xiangqi: 'x', '0' are not xiangqi "
				  "pieces ('x' and 'X' are 揭棋's pieces face down)"));
	assert_null(find_diag(&c, XQI_D_BAD_FEN, "unknown piece letter"));
	assert_int_equal(c.d[0].place.line, 3);
	assert_int_equal(c.d[0].place.col, 7);
	for (int i = 0; i < n; i++) {
		assert_true(g[i].flags & XQI_RECORD_BROKEN);
		assert_non_null(g[i].start_text);
	}
	release_games(g, n);
	free(data);
}

static void fen_and_epd_lines_each_make_a_position(void **state)
{
	static const char list[] =
		"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\r\n"
		"\n"
		"3k5/9/9/9/9/9/9/9/9/4K4 b\n"
		"3ak4/9/9/9/9/9/9/9/4p4/4K4 w - - id \"p-12\"; bm e0f0; c0 \"a; b\";\n"
		"4k4/4a4/9/9/9/9/9/9/9/3K5 w - - 0 1 red to play\n"
		"4k4/9/9/9/9/9/9/9/9/3K5";
	struct xqi_record g[8];
	struct collected c = {0};
	int rc, n = read_list(list, sizeof(list) - 1, g, 8, &c, &rc);

	(void)state;
	assert_int_equal(n, 5);
	assert_int_equal(c.n, 0);
	assert_int_equal(g[1].start.side, XQI_BLACK);
	assert_int_equal(g[1].place.line, 3);
	assert_string_equal(xqi_record_tag(&g[2], "id"), "p-12");
	assert_string_equal(xqi_record_tag(&g[2], "bm"), "e0f0");
	assert_string_equal(xqi_record_tag(&g[2], "c0"), "a; b");
	assert_string_equal(g[3].nodes[XQI_ROOT].comment, "red to play");
	assert_int_equal(g[4].start.side, XQI_RED);
	release_games(g, n);
}

static void what_is_no_position_is_an_error_at_its_place_and_the_next_is_read(void **state)
{
	static const char list[] = "a line of text\n"
				   "4k4/9/9/9/9/9/9/9/9/4KK3 w\n"
				   "3k5/9/9/9/9/9/9/9/9/4K4 w\n"
				   "[FEN_INDEX \"1\"]\n[EVENT \"no fen\"]\n";
	struct xqi_record g[8];
	struct collected c = {0};
	int rc, n = read_list(list, sizeof(list) - 1, g, 8, &c, &rc);
	const struct xq_diagnostic *d;

	(void)state;
	assert_int_equal(n, 3);
	assert_non_null(d = find_diag(&c, XQI_D_SYNTAX, "'a line of text' is neither a FEN"));
	assert_int_equal(d->place.line, 1);
	assert_non_null(d = find_diag(&c, XQI_D_BAD_FEN, "more than 1 red king"));
	assert_int_equal(d->place.line, 2);
	assert_int_equal(d->place.col, 23);
	assert_true(g[0].flags & XQI_RECORD_BROKEN);
	assert_string_equal(g[0].start_text, "4k4/9/9/9/9/9/9/9/9/4KK3 w");
	assert_false(g[1].flags & XQI_RECORD_BROKEN);
	assert_non_null(find_diag(&c, XQI_D_BAD_FEN, "a block of tags with no FEN tag"));
	assert_true(g[2].flags & XQI_RECORD_BROKEN);
	release_games(g, n);
}

static void gbk_blocks_and_bad_bytes_are_read_as_every_text_format_reads_them(void **state)
{
	/* [EVENT "中局"] in GBK, then a block whose EVENT has a byte that is no text. */
	static const char list[] = "[FEN_INDEX \"1\"]\n[EVENT \"\xD6\xD0\xBE\xD6\"]\n"
				   "[FEN \"3k5/9/9/9/9/9/9/9/9/4K4 w\"]\n\n"
				   "[FEN_INDEX \"2\"]\n[EVENT \"\xD6\xFF\"]\n"
				   "[FEN \"3k5/9/9/9/9/9/9/9/9/4K4 w\"]\n";
	struct xqi_record g[4];
	struct collected c = {0};
	int rc, n = read_list(list, sizeof(list) - 1, g, 4, &c, &rc);

	(void)state;
	assert_int_equal(n, 2);
	assert_string_equal(xqi_record_tag(&g[0], "Event"), "中局");
	assert_string_equal(g[0].encoding, "gb18030");
	assert_non_null(find_diag(&c, XQI_D_ENCODING, "is not valid"));
	assert_false(g[0].flags & XQI_RECORD_BROKEN);
	assert_true(g[1].flags & XQI_RECORD_BROKEN);
	release_games(g, n);
}

static void a_line_over_the_limit_stops_the_reading(void **state)
{
	struct xq_buf list = XQ_BUF_INIT;
	struct xqi_record g[2];
	struct collected c = {0};
	int rc, n;

	(void)state;
	xq_buf_adds(&list, "3k5/9/9/9/9/9/9/9/9/4K4 w ");
	for (int i = 0; i < 140000; i++) /* 1.1 MB */
		xq_buf_adds(&list, "comment ");
	n = read_list(list.ptr, list.len, g, 2, &c, &rc);
	assert_int_equal(n, 0);
	assert_int_equal(rc, XQ_ERANGE);
	assert_non_null(find_diag(&c, XQI_D_RESOURCE, "a line longer than 1048576 bytes"));
	xq_buf_release(&list);
}

static void detection_takes_position_lists_and_leaves_pgn_its_own(void **state)
{
	static const struct {
		const char *head, *name, *want;
	} cases[] = {
		{"3k5/9/9/9/9/9/9/9/9/4K4 w\n4k4/9/9/9/9/9/9/9/9/3K5 w\n", "x.txt", "fen"},
		{"3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1\n", NULL, "fen"},
		{"[FEN_INDEX \"1\"]\n[EVENT \"e\"]\n[FEN \"3k5/9/9/9/9/9/9/9/9/4K4 w\"]\n", "x.pgn", "fen"},
		/* PGN's: a FEN before moves, tag blocks of its own, moves after tags. */
		{"3k5/9/9/9/9/9/9/9/9/4K4 w\nd9e9 e0f0\n", "x.fen", "pgn"},
		{"[Event \"e\"]\n[FEN \"3k5/9/9/9/9/9/9/9/9/4K4 w\"]\n", "x.fen", "pgn"},
		{"[FEN_INDEX \"1\"]\n[FEN \"3k5/9/9/9/9/9/9/9/9/4K4 w\"]\n\n1. d9e9 *\n", NULL, "pgn"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct xqi_format *f =
			xqi_format_detect((const unsigned char *)cases[i].head, strlen(cases[i].head),
					 cases[i].name);
		if (!f || strcmp(f->name, cases[i].want))
			fail_msg("case %zu: %s, not %s", i, f ? f->name : "none", cases[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(corpus_blocks_read_as_positions_with_their_tags),
		cmocka_unit_test(xfen_is_refused_as_a_variant_not_an_unknown_letter),
		cmocka_unit_test(fen_and_epd_lines_each_make_a_position),
		cmocka_unit_test(what_is_no_position_is_an_error_at_its_place_and_the_next_is_read),
		cmocka_unit_test(gbk_blocks_and_bad_bytes_are_read_as_every_text_format_reads_them),
		cmocka_unit_test(a_line_over_the_limit_stops_the_reading),
		cmocka_unit_test(detection_takes_position_lists_and_leaves_pgn_its_own),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
