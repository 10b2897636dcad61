/*
 * test_textexp.c: the text exports (formats/textexp.c): CCBridge's text
 * (its main line checked against CCBridge's own CBF of the same game),
 * 联众's table, bare move lists after text, comments, black moving
 * first, bad moves, several records, and detection that leaves what PGN
 * and DhtmlXQ read to them.
 */
#include "testutil.h"

#include "ccb_testutil.h"
#include "text.h"

static const char *const sample_dir = "zfdang__chinese-chess-fish-android/棋谱/";

static char *sample(const char *name, size_t *len)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "%s%s", sample_dir, name);
	return corpus_file(rel, len);
}

/* The main line of `g` in ICCS, space-separated. */
static void main_line(const struct xqi_record *g, char *out, size_t cap)
{
	size_t len = 0;

	out[0] = '\0';
	for (uint32_t n = g->nodes[XQI_ROOT].child; n != XQ_NO_NODE && len + 6 < cap;
	     n = g->nodes[n].child) {
		if (len)
			out[len++] = ' ';
		xqi_move_name(g->nodes[n].move, out + len);
		len += 4;
	}
}

static void ccbridge_export_is_the_main_line_ccbridge_saved_as_cbf(void **state)
{
	struct xqi_record t[2], c[2];
	struct collected d = {0};
	char a[1024], b[1024];
	size_t tl = 0, cl = 0;
	char *txt = NULL, *cbf = NULL;
	int rc;

	(void)state;
	if (!test_shared_dir() || !(txt = sample("sample_04x.txt", &tl)) ||
	    !(cbf = sample("sample_22_ccbridge.cbf", &cl)))
		TEST_SKIP("no shared corpus ($XQ_SHARED or ../shared)");
	assert_int_equal(read_games("text", txt, tl, t, 2, &d, &rc), 1);
	assert_int_equal(count_diags(&d, XQ_SEVERITY_WARNING), 0);
	assert_string_equal(xqi_record_tag(&t[0], "Title"), "五七炮对屏风马");
	assert_string_equal(xqi_record_tag(&t[0], "ECCO"), "C66");
	assert_string_equal(xqi_record_tag(&t[0], "Opening"), "五七炮对屏风马进７卒");
	assert_string_equal(xqi_record_tag(&t[0], "RecordType"), "摆谱全局/开局");
	assert_null(xqi_record_tag(&t[0], "Red")); /* empty fields make no tag */
	assert_int_equal(t[0].result, XQI_RESULT_UNKNOWN);
	assert_string_equal(t[0].nodes[XQI_ROOT].comment, "最新弈法");
	assert_string_equal(t[0].encoding, "utf-8");
	d.n = 0;
	read_games("cbf", cbf, cl, c, 2, &d, &rc); /* (the CBF's side lines have errors) */
	main_line(&t[0], a, sizeof(a));
	main_line(&c[0], b, sizeof(b));
	assert_int_equal(strlen(a), 45 * 5 - 1);
	assert_memory_equal(a, b, strlen(a));
	xqi_record_release(&t[0]);
	xqi_record_release(&c[0]);
	free(txt);
	free(cbf);
}

static void ourgame_table_reads_players_times_and_moves(void **state)
{
	struct xqi_record g[2];
	struct collected c = {0};
	size_t len = 0;
	char *data = NULL;
	int rc;

	(void)state;
	if (!test_shared_dir() || !(data = sample("sample_12x_ourgame-chess.txt", &len)))
		TEST_SKIP("no shared corpus ($XQ_SHARED or ../shared)");
	assert_int_equal(read_games("text", data, len, g, 2, &c, &rc), 1);
	assert_int_equal(c.n, 0);
	assert_string_equal(xqi_record_tag(&g[0], "Title"), "红方[689] - 黑方[811]");
	assert_string_equal(xqi_record_tag(&g[0], "Date"), "2016年12月27日20时");
	assert_string_equal(xqi_record_tag(&g[0], "Red"), "木易四郎(05355621689)");
	assert_string_equal(xqi_record_tag(&g[0], "RedTime"), "2分 24秒");
	assert_string_equal(xqi_record_tag(&g[0], "Black"), "温柔一刀(jyq0811)");
	assert_string_equal(xqi_record_tag(&g[0], "BlackTime"), "4分  1秒");
	assert_null(xqi_record_tag(&g[0], "Site"));
	assert_null(xqi_record_tag(&g[0], "Referee"));
	assert_int_equal(g[0].result, XQI_RESULT_NONE);
	assert_int_equal(xqi_record_mainline_length(&g[0]), 44);
	assert_string_equal(g[0].encoding, "gb18030");
	release_games(g, 1);
	free(data);
}

static void bare_list_after_text_reads_each_game_with_its_comments(void **state)
{
	static const char list[] = "某局 先手\n\n"
				   "1. 炮二平五 马８进７ 好棋\n这是注释\n2. 马二进三 ……\n\n"
				   "第二局\n1. h2e2 h9g7\n2. h0g2 1-0\n";
	struct xqi_record g[4];
	struct collected c = {0};
	int rc, n = read_games("text", list, sizeof(list) - 1, g, 4, &c, &rc);

	(void)state;
	assert_int_equal(n, 2);
	assert_int_equal(c.n, 0);
	assert_string_equal(g[0].nodes[XQI_ROOT].comment, "某局 先手");
	assert_string_equal(g[0].nodes[2].comment, "好棋\n这是注释");
	assert_int_equal(xqi_record_mainline_length(&g[0]), 3);
	assert_string_equal(g[1].nodes[XQI_ROOT].comment, "第二局");
	assert_int_equal(g[1].result, XQI_RESULT_RED_WIN);
	assert_int_equal(g[1].place.line, 7);
	release_games(g, n);
}

static void blank_first_move_means_black_moves_first(void **state)
{
	static const char list[] = "黑先\n1. …… 马８进７\n2. 炮二平五 车９平８\n";
	struct xqi_record g[2];
	struct collected c = {0};
	int rc;

	(void)state;
	assert_int_equal(read_games("text", list, sizeof(list) - 1, g, 2, &c, &rc), 1);
	assert_int_equal(g[0].start.side, XQI_BLACK);
	assert_int_equal(xqi_record_mainline_length(&g[0]), 3);
	assert_non_null(find_diag(&c, XQI_D_NONE, "black moves first"));
	release_games(g, 1);
}

static void a_bad_move_stops_the_game_at_its_place(void **state)
{
	static const char list[] = "题\n1. 炮二平五 马８进７\n2. 车二进三 马２进３\n3. 马八进七 z9z9 h9g7\n";
	struct xqi_record g[2];
	struct collected c = {0};
	const struct xq_diagnostic *d;
	int rc;

	(void)state;
	assert_int_equal(read_games("text", list, sizeof(list) - 1, g, 2, &c, &rc), 1);
	assert_non_null(d = find_diag(&c, XQI_D_ILLEGAL_MOVE, "the game stops here"));
	assert_int_equal(d->place.line, 3);
	assert_int_equal(d->place.col, 4);
	assert_int_equal(d->ply, 3);
	assert_true(g[0].flags & XQI_RECORD_BROKEN);
	assert_int_equal(xqi_record_mainline_length(&g[0]), 2);
	assert_non_null(find_diag(&c, XQI_D_ILLEGAL_MOVE, "3 moves after the bad move were not read"));
	release_games(g, 1);
}

static void several_ccbridge_records_and_their_start_positions(void **state)
{
	static const char list[] =
		"标题：一\n红方：甲\n结果：红胜\nFEN ：3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1\n\n"
		"  1. 帅五进一\n"
		"标题：二\n解说：王(Email:w@x.y)\nFEN ：rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\n"
		"\n  1. 炮二平五 马８进７\n";
	struct xqi_record g[3];
	struct collected c = {0};
	int rc, n = read_games("text", list, sizeof(list) - 1, g, 3, &c, &rc);

	(void)state;
	assert_int_equal(n, 2);
	assert_int_equal(c.n, 0);
	assert_string_equal(xqi_record_tag(&g[0], "Red"), "甲");
	assert_int_equal(g[0].result, XQI_RESULT_RED_WIN);
	assert_int_equal(xqi_record_mainline_length(&g[0]), 1);
	assert_string_equal(xqi_record_tag(&g[1], "Annotator"), "王");
	assert_string_equal(xqi_record_tag(&g[1], "CommentatorURL"), "w@x.y");
	assert_int_equal(xqi_record_mainline_length(&g[1]), 2);
	release_games(g, n);
}

static void utf16_exports_read_as_the_others(void **state)
{
	static const char utf8[] = "标题：一\r\n红方：甲\r\n\r\n  1. 炮二平五 马８进７\r\n  2. 马二进三\r\n";
	static const enum xqi_encoding encs[2] = {XQI_ENC_UTF16LE, XQI_ENC_UTF16BE};

	(void)state;
	for (int e = 0; e < 2; e++) {
		struct xq_buf doc = XQ_BUF_INIT;
		struct xqi_record g[2];
		struct collected c = {0};
		const struct xqi_format *f;
		size_t bad;
		int rc;
		xq_buf_add(&doc, e ? "\xFE\xFF" : "\xFF\xFE", 2);
		assert_int_equal(xqi_encode(encs[e], utf8, sizeof(utf8) - 1, &doc, &bad), 0);
		f = xqi_format_detect((const unsigned char *)doc.ptr, doc.len, NULL);
		assert_non_null(f);
		assert_string_equal(f->name, "text");
		assert_int_equal(read_games("text", doc.ptr, doc.len, g, 2, &c, &rc), 1);
		assert_int_equal(c.n, 0);
		assert_string_equal(xqi_record_tag(&g[0], "Title"), "一");
		assert_string_equal(xqi_record_tag(&g[0], "Red"), "甲");
		assert_int_equal(xqi_record_mainline_length(&g[0]), 3);
		assert_int_equal(g[0].nodes[3].place.line, 5);
		release_games(g, 1);
		xq_buf_release(&doc);
	}
}

static void a_result_ends_a_game_and_a_rule_closes_a_table(void **state)
{
	static const char list[] = "比赛\n1. h2e2 h9g7 1-0\n1. b2e2 b9c7 0-1\n"
				   "中 国 象 棋 对 局 记 录\n-----------\n红    方：甲\n"
				   "  1.  炮二平五       马２进３\n-----------\n";
	struct xqi_record g[4];
	struct collected c = {0};
	int rc, n = read_games("text", list, sizeof(list) - 1, g, 4, &c, &rc);

	(void)state;
	assert_int_equal(n, 3);
	assert_int_equal(c.n, 0); /* the closing rule is no game of its own */
	assert_int_equal(g[0].result, XQI_RESULT_RED_WIN);
	assert_int_equal(g[1].result, XQI_RESULT_BLACK_WIN);
	assert_int_equal(xqi_record_mainline_length(&g[1]), 2);
	assert_string_equal(xqi_record_tag(&g[2], "Red"), "甲");
	assert_int_equal(xqi_record_mainline_length(&g[2]), 2);
	release_games(g, n);
}

static void text_with_no_move_is_no_game(void **state)
{
	static const char list[] = "just some\ntext\n";
	struct xqi_record g[2];
	struct collected c = {0};
	int rc;

	(void)state;
	assert_int_equal(read_games("text", list, sizeof(list) - 1, g, 2, &c, &rc), 0);
	assert_non_null(find_diag(&c, XQI_D_TRAILING, "holds no move; not read"));
}

static void detection_leaves_pgn_and_dhtmlxq_their_files(void **state)
{
	static const struct {
		const char *head, *name, *want;
	} cases[] = {
		{"\xEF\xBB\xBF标题：五七炮\n分类：\n", "x.pgn", "text"},
		/* GBK */
		{"\r\n\xD6\xD0 \xB9\xFA \xCF\xF3 \xC6\xE5 \xB6\xD4 \xBE\xD6 \xBC\xC7 \xC2\xBC\r\n----------\r\n", NULL,
		 "text"},
		{"ZHAO - KE\nCup 1997\nh2e2 h9g7 h0g2 i9h9\n", "games.pgn", "text"},
		/* PGN's: tags, a numbered list, a list of moves, a FEN and moves. */
		{"[Event \"x\"]\n\n1. h2e2 h9g7 *\n", "x.txt", "pgn"},
		{"1. 炮二平五 马８进７\n2. 马二进三\n", "x.txt", "pgn"},
		{"h2e2 h9g7\nh0g2 i9h9\n", "x.txt", "pgn"},
		{"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\n炮二平五\n马８进７\n",
		 "x.txt", "pgn"},
		{"[DhtmlXQ]\n[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n", "x.txt",
		 "dhtmlxq"},
		/* Never by the name alone: a README is no record (-r skips it). */
		{"hello world\n", "README.txt", "none"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct xqi_format *f =
			xqi_format_detect((const unsigned char *)cases[i].head, strlen(cases[i].head),
					 cases[i].name);
		if (strcmp(f ? f->name : "none", cases[i].want))
			fail_msg("case %zu: %s, not %s", i, f ? f->name : "none", cases[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ccbridge_export_is_the_main_line_ccbridge_saved_as_cbf),
		cmocka_unit_test(ourgame_table_reads_players_times_and_moves),
		cmocka_unit_test(bare_list_after_text_reads_each_game_with_its_comments),
		cmocka_unit_test(blank_first_move_means_black_moves_first),
		cmocka_unit_test(a_bad_move_stops_the_game_at_its_place),
		cmocka_unit_test(several_ccbridge_records_and_their_start_positions),
		cmocka_unit_test(utf16_exports_read_as_the_others),
		cmocka_unit_test(a_result_ends_a_game_and_a_rule_closes_a_table),
		cmocka_unit_test(text_with_no_move_is_no_game),
		cmocka_unit_test(detection_leaves_pgn_and_dhtmlxq_their_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
