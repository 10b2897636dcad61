/*
 * test_pfc.c: the PFC reader and writer (formats/pfc.c): the corpus
 * samples, the main line a default="true" marks, the wrapper, what the
 * reader notes and refuses (engine scores, illegal moves, broken XML,
 * entities, a bad start), what the writer writes and says it loses, a
 * line deeper than libxml2's default limit, the record limit, and an
 * independent reader of what xqkit writes (tests/decoders/pfc.py).
 */
#include "testutil.h"

#include "ccb_testutil.h"

#define HEAD "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"utf-8\"?>"
#define START "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

/* Read one PFC document; fails unless exactly one game (or none, want 0). */
static int read_pfc(const char *doc, size_t len, struct xqi_record *g, struct collected *c)
{
	struct xqi_record two[2];
	int rc, n = read_games("pfc", doc, len, two, 2, c, &rc);

	if (n == 1)
		*g = two[0]; /* the game and what it owns change hands */
	return n == 1 ? 1 : rc;
}

static void corpus_sample_reads_its_position_moves_comment_and_date(void **state)
{
	struct xqi_record g;
	struct collected c = {0};
	char tree[256];
	size_t len = 0;
	char *data = NULL;

	(void)state;
	if (!test_shared_dir() ||
	    !(data = corpus_file("zfdang__chinese-chess-fish-android/棋谱/sample_31_pengfei.pfc", &len)))
		TEST_SKIP("no shared corpus ($XQ_SHARED or ../shared)");
	assert_int_equal(read_pfc(data, len, &g, &c), 1);
	assert_int_equal(c.n, 0);
	tree_string(&g, tree, sizeof(tree));
	assert_string_equal(tree, "1h6f7 2e9d9 3i8d8");
	assert_string_equal(g.nodes[xqi_record_mainline_end(&g)].comment, "  杀！(红胜)  ");
	assert_string_equal(xqi_record_tag(&g, "DateCreated"), "2012-01-27 22:29:27");
	assert_int_equal(g.result, XQI_RESULT_UNKNOWN);
	assert_int_equal(xqi_position_kind(&g.start, XQI_SQ(0, 0)), XQI_KIND(XQI_BLACK, XQI_CANNON));
	xqi_record_release(&g);
	free(data);
}

/* The second corpus sample, its third row's extra advisor read as the
 * horse the title (连环马) and the moves need. */
static char *second_sample(size_t *len)
{
	static const char path[] = "zfdang__chinese-chess-fish-android/app/src/main/assets/XQF/"
				   "1.棋理大全-赵鑫鑫/中局/谋子篇/p06 双子星之最强场控——连环马02.pfc";
	char *data = corpus_file(path, len);
	char *at = data ? strstr(data, "1c2ac2r") : NULL;

	if (at)
		at[3] = 'n';
	return data;
}

static void default_marks_the_main_line_and_engine_scores_are_noted(void **state)
{
	struct xqi_record g;
	struct collected c = {0};
	char tree[512];
	size_t len = 0;
	char *data = NULL;

	(void)state;
	if (!test_shared_dir() || !(data = second_sample(&len)))
		TEST_SKIP("no shared corpus ($XQ_SHARED or ../shared)");
	assert_int_equal(read_pfc(data, len, &g, &c), 1);
	tree_string(&g, tree, sizeof(tree));
	/* g5g4 and f6f4 (default="true", last of their groups) lead their
	 * groups; the others keep their order. */
	assert_string_equal(tree, "1i7h7 2c2d4 3c6c5 4e1f3 5g5g4 6c0e2 5g9i7* 5h7h4* 6f6f7 7b7f7 "
				  "8b0b9 3g3e4* 4b0b2 5c6d6 6f6f4 7d6d4 8e6e4 6e1c2* 7e4d2 8e0e1 "
				  "9h7h1 6e1f3* 7f7f3 8f6f3 9d6d4");
	assert_string_equal(g.nodes[XQI_ROOT].comment, "&孟辰");
	assert_non_null(find_diag(&c, XQI_D_UNSUPPORTED, "2 moves carry Pengfei's engine score"));
	assert_int_equal(count_diags(&c, XQ_SEVERITY_WARNING), 0);
	xqi_record_release(&g);
	free(data);
}

static void corpus_sample_with_three_advisors_is_refused_for_that_reason(void **state)
{
	struct xqi_record g;
	struct collected c = {0};
	size_t len = 0;
	char *data = NULL;

	(void)state;
	if (!test_shared_dir() ||
	    !(data = corpus_file("zfdang__chinese-chess-fish-android/app/src/main/assets/XQF/"
				 "1.棋理大全-赵鑫鑫/中局/谋子篇/p06 双子星之最强场控——连环马02.pfc",
				 &len)))
		TEST_SKIP("no shared corpus ($XQ_SHARED or ../shared)");
	assert_int_equal(read_pfc(data, len, &g, &c), 1);
	assert_non_null(find_diag(&c, XQI_D_BAD_FEN, "more than 2 black advisors; no move can be read"));
	assert_true(g.flags & XQI_RECORD_BROKEN);
	assert_int_equal(g.nnodes, 1);
	assert_int_equal(count_diags(&c, XQ_SEVERITY_ERROR), 1); /* its moves are not counted as skipped */
	xqi_record_release(&g);
	free(data);
}

static void wrapped_record_is_read_inside_its_comment(void **state)
{
	static const char doc[] = "[pfchessrecord]\n<html>\n<!--\n" HEAD
				  "<n version=\"2\" win=\"1-0\" m=\"" START "\"><n m=\"h2e2\" c=\"a\nb\">"
				  "<n m=\"x9x9\" /></n></n>-->\n</html>";
	struct xqi_record g;
	struct collected c = {0};

	(void)state;
	assert_int_equal(read_pfc(doc, sizeof(doc) - 1, &g, &c), 1);
	assert_int_equal(g.result, XQI_RESULT_RED_WIN);
	assert_int_equal(g.nnodes, 2);
	/* An attribute's line break is a space, as XML reads it. */
	assert_string_equal(g.nodes[1].comment, "a b");
	/* The bad move's line is counted from the top of the file. */
	assert_non_null(find_diag(&c, XQI_D_BAD_MOVE_TEXT, "m=\"x9x9\" is not a move in ICCS"));
	assert_int_equal(find_diag(&c, XQI_D_BAD_MOVE_TEXT, NULL)->place.line, 5);
	assert_true(g.flags & XQI_RECORD_BROKEN);
	xqi_record_release(&g);
}

static void illegal_move_stops_its_line_and_what_it_holds_is_counted(void **state)
{
	static const char doc[] = HEAD "<n m=\"" START "\"><n m=\"h2e2\"><n m=\"h9g7\" />"
				  "<n m=\"a9a5\"><n m=\"h0g2\"><n m=\"i9h9\" /></n></n>"
				  "<n m=\"b9c7\" /></n></n>";
	struct xqi_record g;
	struct collected c = {0};
	char tree[256];

	(void)state;
	assert_int_equal(read_pfc(doc, sizeof(doc) - 1, &g, &c), 1);
	tree_string(&g, tree, sizeof(tree));
	assert_string_equal(tree, "1h2e2 2h9g7 2b9c7*");
	assert_non_null(find_diag(&c, XQI_D_ILLEGAL_MOVE, "illegal move a9a5"));
	assert_non_null(find_diag(&c, XQI_D_ILLEGAL_MOVE, "2 moves after a bad move"));
	assert_true(g.flags & XQI_RECORD_BROKEN);
	xqi_record_release(&g);
}

static void malformed_document_keeps_the_moves_before_its_error(void **state)
{
	static const char doc[] = HEAD "\n<n m=\"" START "\">\n<n m=\"h2e2\">\n<n m=\"h9g7\">\n"
				  "<n m=\"h0g2\" <</n></n></n>";
	struct xqi_record g;
	struct collected c = {0};
	const struct xq_diagnostic *d;

	(void)state;
	assert_int_equal(read_pfc(doc, sizeof(doc) - 1, &g, &c), 1);
	assert_int_equal(g.nnodes, 3);
	assert_non_null(d = find_diag(&c, XQI_D_XML, NULL));
	assert_int_equal(d->place.line, 5);
	assert_true(g.flags & XQI_RECORD_BROKEN);
	xqi_record_release(&g);
}

static void entity_declaration_stops_before_any_expansion(void **state)
{
	static const char doc[] =
		"<?xml version=\"1.0\"?><!DOCTYPE n [<!ENTITY a \"aaaaaaaaaa\">"
		"<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;\">]>"
		"<n m=\"" START "\" c=\"&c;\"><n m=\"h2e2\" /></n>";
	struct xqi_record g;
	struct collected c = {0};
	int rc;

	(void)state;
	rc = read_pfc(doc, sizeof(doc) - 1, &g, &c);
	assert_non_null(find_diag(&c, XQI_D_XML, "entity declaration 'a': PFC documents declare no entities"));
	if (rc == 1) {
		assert_null(g.nodes[XQI_ROOT].comment);
		xqi_record_release(&g);
	}
}

static void not_a_pfc_root_is_said(void **state)
{
	static const char doc[] = HEAD "<ChineseChessRecord />";
	struct xqi_record g;
	struct collected c = {0};

	(void)state;
	assert_int_equal(read_pfc(doc, sizeof(doc) - 1, &g, &c), XQ_EPARSE);
	assert_non_null(find_diag(&c, XQI_D_BAD_MAGIC, "the root element is <ChineseChessRecord>, not <n>"));
}

/* A game read from PGN (one, else the test fails). */
static void read_pgn(const char *pgn, struct xqi_record *g)
{
	struct xqi_record two[2];
	struct collected c = {0};
	int rc;

	assert_int_equal(read_games("pgn", pgn, strlen(pgn), two, 2, &c, &rc), 1);
	*g = two[0];
}

static void written_reads_back_the_same_tree_comments_and_start(void **state)
{
	static const char pgn[] =
		"[DateCreated \"2012-01-27 22:29:27\"]\n[Result \"0-1\"]\n"
		"[FEN \"4ka3/8R/9/7N1/9/9/9/9/4A4/crBAK4 w - - 0 1\"]\n\n"
		"{开局 \"引号\" & <尖>\n第二行\t制表} 1. h6f7 {a\n\nb} (1. i8i9+ {将}) 1... e9d9 "
		"2. i8d8 {杀} 0-1\n";
	struct xqi_record g, back;
	struct xq_buf out = XQ_BUF_INIT;
	struct collected c = {0}, rc = {0};

	(void)state;
	read_pgn(pgn, &g);
	assert_int_equal(write_games("pfc", &g, 1, &out, &c), 0);
	assert_int_equal(c.n, 0);
	assert_int_equal(read_pfc(out.ptr, out.len, &back, &rc), 1);
	assert_int_equal(rc.n, 0);
	ASSERT_GAMES_EQUAL(&g, &back, XQ_EQUAL_IGNORE_TAGS);
	assert_string_equal(xqi_record_tag(&back, "DateCreated"), "2012-01-27 22:29:27");
	assert_string_equal(xqi_record_tag(&back, "Result"), "0-1");
	assert_memory_equal(out.ptr, HEAD "<n version=\"2\" win=\"0-1\" create-time=", strlen(HEAD) + 37);
	assert_non_null(strstr(out.ptr, "c=\"开局 &quot;引号&quot; &amp; &lt;尖&gt;&#10;第二行&#9;制表\""));
	assert_null(strchr(out.ptr, '\n')); /* no line breaks, as Pengfei writes */
	xqi_record_release(&g);
	xqi_record_release(&back);
	xq_buf_release(&out);
}

static void writer_says_what_pfc_cannot_hold(void **state)
{
	static const char pgn[] = "[Event \"赛\"]\n[Result \"1-0\"]\n\n1. h2e2 $1 h9g7 {前} 2. h0g2 "
				  "(2. {x} b0c2) 0-1\n";
	struct xqi_record g[2];
	struct xq_buf out = XQ_BUF_INIT;
	struct collected c = {0};

	(void)state;
	read_pgn(pgn, &g[0]);
	assert_int_equal(write_games("pfc", g, 1, &out, &c), 0);
	assert_non_null(find_diag(&c, XQI_D_LOSS, "tag Event (\"赛\") has no PFC attribute"));
	assert_non_null(find_diag(&c, XQI_D_LOSS, "tag Result \"1-0\" is not the game's result"));
	assert_non_null(find_diag(&c, XQI_D_LOSS, "1 NAGs"));
	assert_non_null(find_diag(&c, XQI_D_LOSS, "1 comments before a move"));
	read_pgn(pgn, &g[1]);
	c.n = 0;
	xq_buf_reset(&out);
	assert_int_equal(write_games("pfc", g, 2, &out, &c), XQ_EUNSUPPORTED);
	assert_non_null(find_diag(&c, XQI_D_LOSS, "a PFC file holds one game"));
	release_games(g, 2);
	xq_buf_release(&out);
}

static void a_line_deeper_than_libxml2s_default_limit_reads_and_writes(void **state)
{
	static const char *const shuffle[4] = {"h0g2", "h9g7", "g2h0", "g7h9"};
	struct xqi_record g, back;
	struct xq_buf out = XQ_BUF_INIT;
	struct collected c = {0};
	uint32_t at = XQI_ROOT;
	struct xqi_position b;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	b = g.start;
	/* 2,000 plies: past libxml2's 256, within the 2,048 it keeps with
	 * XML_PARSE_HUGE from 2.11 on (doc/formats/pfc.md). */
	for (int i = 0; i < 2000; i++) {
		xqi_move m = mv(shuffle[i % 4]);
		struct xqi_undo u;
		assert_int_equal(xqi_record_add_move(&g, at, m, &at), 0);
		xqi_position_make(&b, m, &u);
	}
	assert_int_equal(write_games("pfc", &g, 1, &out, &c), 0);
	assert_int_equal(read_pfc(out.ptr, out.len, &back, &c), 1);
	assert_int_equal(c.n, 0);
	assert_int_equal(xqi_record_mainline_length(&back), 2000);
	xqi_record_release(&g);
	xqi_record_release(&back);
	xq_buf_release(&out);
}

static void record_over_its_budget_is_not_read(void **state)
{
	struct xq_buf doc = XQ_BUF_INIT;
	struct xqi_read_opts o = XQI_READ_OPTS_INIT;
	struct xqi_record g[2];
	struct collected c = {0};
	int rc;

	(void)state;
	xq_buf_adds(&doc, HEAD "<n m=\"" START "\" c=\"");
	for (int i = 0; i < 200000; i++)
		xq_buf_adds(&doc, "xxxxxxxxxx");
	xq_buf_adds(&doc, "\" />");
	o.max_memory = (uint64_t)4 << 20; /* 4 MiB: 2 MiB of content at 24 bytes a byte is far over */
	assert_int_equal(read_games_opts("pfc", doc.ptr, doc.len, g, 2, &c, &rc, &o), 0);
	assert_int_equal(rc, XQ_ERANGE);
	assert_non_null(find_diag(&c, XQI_D_RESOURCE, "--max-memory"));
	xq_buf_release(&doc);
}

static void probe_knows_the_root_and_the_wrapper(void **state)
{
	const struct xqi_format *f = xqi_format_find("pfc");
	static const char a[] = HEAD "<n version=\"2\">", b[] = "  [pfchessrecord]<!--",
			  cbf[] = HEAD "<ChineseChessRecord>", pgn[] = "[Event \"n\"]";

	(void)state;
	assert_int_equal(f->probe((const unsigned char *)a, sizeof(a) - 1), 90);
	assert_int_equal(f->probe((const unsigned char *)b, sizeof(b) - 1), 90);
	assert_int_equal(f->probe((const unsigned char *)cbf, sizeof(cbf) - 1), 0);
	assert_int_equal(f->probe((const unsigned char *)pgn, sizeof(pgn) - 1), 0);
	assert_ptr_equal(xqi_format_detect((const unsigned char *)a, sizeof(a) - 1, "x.txt"), f);
}

static void independent_reader_reads_what_xqkit_writes(void **state)
{
	char dir[512], path[600], cmd[4800], line[8192], want[4096], field[4200];
	const char *py = test_on_path("python3");
	struct xqi_record g;
	struct xq_buf out = XQ_BUF_INIT;
	struct collected c = {0};
	size_t len = 0, k = 0;
	char *data = NULL;
	FILE *f;

	(void)state;
	if (!py)
		TEST_SKIP("no python3 on PATH");
	if (!test_shared_dir() || !(data = second_sample(&len)))
		TEST_SKIP("no shared corpus ($XQ_SHARED or ../shared)");
	assert_int_equal(read_pfc(data, len, &g, &c), 1);
	assert_int_equal(write_games("pfc", &g, 1, &out, &c), 0);
	assert_int_equal(test_tmpdir(dir, sizeof(dir), "pfcw"), 0);
	snprintf(path, sizeof(path), "%s/g.pfc", dir);
	assert_non_null(f = fopen(path, "wb"));
	assert_int_equal(fwrite(out.ptr, 1, out.len, f), out.len);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s tests/decoders/pfc.py '%s'", py, path);
	assert_non_null(f = popen(cmd, "r"));
	assert_non_null(fgets(line, sizeof(line), f));
	assert_int_equal(pclose(f), 0);
	want[0] = '\0';
	for (uint32_t n = g.nodes[XQI_ROOT].child; n != XQ_NO_NODE; n = g.nodes[n].child, k += 5)
		xqi_move_name(g.nodes[n].move, want + k), want[k + 4] = ' ', want[k + 5] = '\0';
	want[k ? k - 1 : 0] = '\0';
	snprintf(field, sizeof(field), "\"main\": \"%s\"", want);
	if (!strstr(line, field))
		fail_msg("the independent reader reads %s; xqkit's main line is %s", line, want);
	assert_non_null(strstr(line, "\"nodes\": 25"));
	test_rmtree(dir);
	xqi_record_release(&g);
	xq_buf_release(&out);
	free(data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(corpus_sample_reads_its_position_moves_comment_and_date),
		cmocka_unit_test(default_marks_the_main_line_and_engine_scores_are_noted),
		cmocka_unit_test(corpus_sample_with_three_advisors_is_refused_for_that_reason),
		cmocka_unit_test(wrapped_record_is_read_inside_its_comment),
		cmocka_unit_test(illegal_move_stops_its_line_and_what_it_holds_is_counted),
		cmocka_unit_test(malformed_document_keeps_the_moves_before_its_error),
		cmocka_unit_test(entity_declaration_stops_before_any_expansion),
		cmocka_unit_test(not_a_pfc_root_is_said),
		cmocka_unit_test(written_reads_back_the_same_tree_comments_and_start),
		cmocka_unit_test(writer_says_what_pfc_cannot_hold),
		cmocka_unit_test(a_line_deeper_than_libxml2s_default_limit_reads_and_writes),
		cmocka_unit_test(record_over_its_budget_is_not_read),
		cmocka_unit_test(probe_knows_the_root_and_the_wrapper),
		cmocka_unit_test(independent_reader_reads_what_xqkit_writes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
