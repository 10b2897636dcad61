/*
 * test_cbr_write.c: the CBR and CBL writers (formats/cbr_write.c,
 * formats/cbl.c): what they write reads back as the same game, they say
 * what a record cannot hold, the same games always write the same bytes,
 * a library is laid out as CCBridge lays one out, the corpus's libraries
 * convert CBL to CBL byte-stable, and an independent decoder written from
 * doc/formats/cbr.md and cbl.md reads what they write.
 */
#include "testutil.h"

#include "ccb_testutil.h"

/* A game with every kind of thing a CBR record holds, read from PGN. */
static const char full_pgn[] =
	"[Title \"五七炮对屏风马\"]\n[Event \"全国象棋个人赛\"]\n[Round \"3\"]\n[Group \"甲\"]\n"
	"[Table \"1\"]\n[Date \"2016-12-26\"]\n[Site \"北京\"]\n[TimeControl \"60+30\"]\n"
	"[Red \"吕钦\"]\n[RedTeam \"广东\"]\n[RedTime \"59分\"]\n[RedRating \"2600\"]\n"
	"[Black \"胡荣华\"]\n[BlackTeam \"上海\"]\n[BlackTime \"58分\"]\n[BlackRating \"2590\"]\n"
	"[Referee \"张\"]\n[Recorder \"李\"]\n[Annotator \"王\"]\n[CommentatorURL \"a@b.c\"]\n"
	"[Author \"赵\"]\n[CreatorURL \"d@e.f\"]\n[DateCreated \"2016-12-26 12:05:41\"]\n"
	"[DateModified \"2016-12-27 08:00:00\"]\n[ECCO \"C66\"]\n[RecordType \"2\"]\n"
	"[RecordKind \"慢棋\"]\n[ResultType \"认负\"]\n[From \"书\"]\n[ContestType \"个人\"]\n"
	"[Category \"开局/中炮\"]\n[ScriptFile \"x.txt\"]\n[Result \"1-0\"]\n"
	"[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 7\"]\n\n"
	"{开局\n两行} 7... h9g7 {马 😀} 8. h2e2 (8. b2e2 {另一} b9c7 (b7e7) 9. h0g2) "
	"b9c7 9. b0c2 1-0\n";

static void read_one(const char *fmt, const char *data, size_t len, struct xqi_record *g)
{
	struct collected c = {0};
	struct xqi_record two[2];
	int rc, n = read_games(fmt, data, len, two, 2, &c, &rc);

	if (n != 1 || rc < 0) {
		print_diags(&c);
		fail_msg("%s: %d games read, rc %d", fmt, n, rc);
	}
	*g = two[0]; /* the game and what it owns change hands */
}

/* Write `g` with `fmt`, read it back into `back`; the writer's diagnostics into *c. */
static void write_read(const char *fmt, const struct xqi_record *g, int n, struct xq_buf *out,
		       struct xqi_record *back, int max, struct collected *c, int *nback)
{
	struct collected rc = {0};
	struct xqi_record *tmp = calloc((size_t)max + 1, sizeof(*tmp));
	int last;

	assert_non_null(tmp);
	xq_buf_reset(out);
	assert_int_equal(write_games(fmt, g, n, out, c), 0);
	*nback = read_games(fmt, out->ptr, out->len, tmp, max + 1, &rc, &last);
	if (count_diags(&rc, XQ_SEVERITY_WARNING) || last < 0 || *nback > max) {
		print_diags(&rc);
		fail_msg("what the %s writer wrote does not read back cleanly", fmt);
	}
	for (int i = 0; i < *nback; i++)
		back[i] = tmp[i]; /* each game and what it owns change hands */
	free(tmp);
}

static uint32_t u32_at(const struct xq_buf *b, size_t off)
{
	const unsigned char *p = (const unsigned char *)b->ptr + off;
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void cbr_written_reads_back_with_every_field_position_tree_and_comment(void **state)
{
	struct xqi_record g, back;
	struct xq_buf out = XQ_BUF_INIT;
	struct collected c = {0};
	char a[256], b[256];
	int n;

	(void)state;
	read_one("pgn", full_pgn, sizeof(full_pgn) - 1, &g);
	write_read("cbr", &g, 1, &out, &back, 1, &c, &n);
	assert_int_equal(n, 1);
	if (c.n) {
		print_diags(&c);
		fail_msg("a game CBR holds whole was reported lossy");
	}
	/* Every tag comes back but the ones that describe the record. */
	for (size_t i = 0; i < g.ntags; i++) {
		const char *v = xqi_record_tag(&back, g.tags[i].name);
		if (!strcmp(g.tags[i].name, "Game") || !strcmp(g.tags[i].name, "FEN"))
			continue;
		if (!v || strcmp(v, g.tags[i].value))
			fail_msg("tag %s \"%s\" came back as \"%s\"", g.tags[i].name, g.tags[i].value,
				 v ? v : "(none)");
	}
	ASSERT_GAMES_EQUAL(&g, &back, XQ_EQUAL_IGNORE_TAGS);
	tree_string(&g, a, sizeof(a));
	tree_string(&back, b, sizeof(b));
	assert_string_equal(a, b);
	assert_string_equal(back.nodes[XQI_ROOT].comment, "开局\n两行");
	assert_int_equal(back.start.side, XQI_BLACK);
	assert_int_equal(back.start.fullmove, 7);
	/* The bytes of the layout (doc/formats/cbr.md). */
	assert_memory_equal(out.ptr, "CCBridge Record", 16);
	assert_int_equal(out.ptr[19], 2);
	assert_int_equal(u32_at(&out, 2040), 2);    /* RecordType */
	assert_int_equal(u32_at(&out, 2076), 1);    /* red wins */
	assert_int_equal(u32_at(&out, 2112), 2);    /* black to move */
	assert_int_equal(u32_at(&out, 2210), 0xFFFFFFFFu);
	assert_memory_equal(out.ptr + 2036, "C66", 4);
	assert_int_equal((unsigned char)out.ptr[2120], 0x21); /* a9: black rook */
	assert_int_equal((unsigned char)out.ptr[2120 + 85], 0x15); /* e0: red king */
	/* The GUID is an RFC 9562 version 8 UUID. */
	assert_int_equal((unsigned char)out.ptr[27] >> 4, 8);
	assert_int_equal((unsigned char)out.ptr[28] >> 6, 2);
	xqi_record_release(&g);
	xqi_record_release(&back);
	xq_buf_release(&out);
}

static void cbr_writer_says_what_a_record_cannot_hold(void **state)
{
	static const char pgn[] =
		"[Game \"Chinese Chess\"]\n[Red \"吕钦\"]\n[Red \"胡荣华\"]\n[Opening \"中炮\"]\n"
		"[ECCO \"C66 五七炮\"]\n[RecordType \"实战\"]\n[Result \"0-1\"]\n"
		"[Title \"一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十一二三四五\"]\n\n"
		"1. h2e2 $1 {好} h9g7 2. {前} h0g2 *\n";
	struct xqi_record g, back;
	struct xq_buf out = XQ_BUF_INIT;
	struct collected c = {0};
	int n;

	(void)state;
	read_one("pgn", pgn, sizeof(pgn) - 1, &g);
	write_read("cbr", &g, 1, &out, &back, 1, &c, &n);
	assert_non_null(find_diag(&c, XQI_D_LOSS, "tag Red repeated"));
	assert_non_null(find_diag(&c, XQI_D_LOSS, "tag Opening (\"中炮\") has no CBR field"));
	assert_non_null(find_diag(&c, XQI_D_LOSS, "tag ECCO \"C66 五七炮\""));
	assert_non_null(find_diag(&c, XQI_D_LOSS, "tag RecordType \"实战\" is not a number"));
	assert_non_null(find_diag(&c, XQI_D_LOSS, "tag Result \"0-1\" is not the result"));
	assert_non_null(find_diag(&c, XQI_D_LOSS, "tag Title: 2 characters do not fit in CBR's 128-byte field"));
	assert_non_null(find_diag(&c, XQI_D_LOSS, "1 NAGs"));
	assert_non_null(find_diag(&c, XQI_D_LOSS, "1 comments before a move"));
	assert_int_equal(strlen(xqi_record_tag(&back, "Title")), 63 * 3);
	assert_string_equal(xqi_record_tag(&back, "Red"), "吕钦");
	ASSERT_GAMES_EQUAL(&g, &back,
			   XQ_EQUAL_IGNORE_TAGS | XQ_EQUAL_IGNORE_NAGS | XQ_EQUAL_IGNORE_PRE_COMMENTS |
				   XQ_EQUAL_IGNORE_RESULT);
	xqi_record_release(&g);
	xqi_record_release(&back);
	xq_buf_release(&out);
}

static void cbr_file_holds_one_game_and_refuses_the_second(void **state)
{
	static const char pgn[] = "1. h2e2 h9g7 *\n\n1. b2e2 *\n";
	struct xqi_record g[3];
	struct xq_buf out = XQ_BUF_INIT;
	struct collected c = {0};
	int rc;

	(void)state;
	assert_int_equal(read_games("pgn", pgn, sizeof(pgn) - 1, g, 3, &c, &rc), 2);
	c.n = 0;
	assert_int_equal(write_games("cbr", g, 2, &out, &c), XQ_EUNSUPPORTED);
	assert_non_null(find_diag(&c, XQI_D_LOSS, "a CBR file holds one game; game 2 not written"));
	release_games(g, 2);
	xq_buf_release(&out);
}

static void the_same_game_writes_the_same_bytes_and_its_guid_follows_its_content(void **state)
{
	struct xqi_record g;
	struct xq_buf one = XQ_BUF_INIT, two = XQ_BUF_INIT;
	struct collected c = {0};

	(void)state;
	read_one("pgn", full_pgn, sizeof(full_pgn) - 1, &g);
	assert_int_equal(write_games("cbr", &g, 1, &one, &c), 0);
	assert_int_equal(write_games("cbr", &g, 1, &two, &c), 0);
	assert_int_equal(one.len, two.len);
	assert_memory_equal(one.ptr, two.ptr, one.len);
	assert_int_equal(xqi_record_set_comment(&g, XQI_ROOT, "另一个", strlen("另一个")), 0);
	xq_buf_reset(&two);
	assert_int_equal(write_games("cbr", &g, 1, &two, &c), 0);
	assert_memory_not_equal(one.ptr + 20, two.ptr + 20, 16);
	xqi_record_release(&g);
	xq_buf_release(&one);
	xq_buf_release(&two);
}

/* `n` short games, numbered in their titles, the first with library tags. */
static void library_games(struct xqi_record *g, int n)
{
	static const char *const lines[] = {"h2e2 h9g7", "b2e2 b9c7", "c3c4 c6c5", "h0g2"};

	for (int i = 0; i < n; i++) {
		char pgn[512];
		int len = snprintf(pgn, sizeof(pgn),
				   "%s[Title \"第%d局\"]\n\n%s {%d} *\n",
				   i == 0 ? "[Library \"梅花谱\"]\n[LibraryRemark \"备注\"]\n"
					    "[LibraryCreator \"王\"]\n"
					  : "",
				   i + 1, lines[i % 4], i);
		read_one("pgn", pgn, (size_t)len, &g[i]);
	}
}

static void cbl_written_lays_out_header_index_and_blocks_as_ccbridge(void **state)
{
	struct xqi_record g[3], back[3];
	struct xq_buf out = XQ_BUF_INIT;
	struct collected c = {0};
	const unsigned char *p;
	int n;

	(void)state;
	library_games(g, 3);
	write_read("cbl", g, 3, &out, back, 3, &c, &n);
	assert_int_equal(n, 3);
	assert_int_equal(c.n, 0);
	/* 66,624 bytes of header, 128 slots of 276, three 4,096-byte blocks. */
	assert_int_equal(out.len, 66624 + 128 * 276 + 3 * 4096);
	p = (const unsigned char *)out.ptr;
	assert_memory_equal(p, "CCBridgeLibrary", 16);
	assert_int_equal(u32_at(&out, 16), 3);
	assert_int_equal(u32_at(&out, 52), 0x7FFFFFFFu);
	assert_int_equal(u32_at(&out, 60), 128);
	for (int k = 0; k < 3; k++) {
		size_t s = 66624 + (size_t)k * 276, at = 101952 + (size_t)k * 4096;
		assert_int_equal(u32_at(&out, s), 7);
		assert_int_equal(u32_at(&out, s + 4), (uint32_t)k);
		assert_int_equal(u32_at(&out, s + 8), 1);
		assert_memory_equal(p + at, "CCBridge Record", 16);
		assert_memory_equal(p + s + 100, p + at + 180, 128); /* the title, as the record's */
		assert_int_equal(p[s + 20], '{');
		ASSERT_GAMES_EQUAL(&g[k], &back[k], XQ_EQUAL_IGNORE_TAGS);
		assert_string_equal(xqi_record_tag(&back[k], "Library"), "梅花谱");
		assert_string_equal(xqi_record_tag(&back[k], "LibraryCreator"), "王");
	}
	assert_int_equal(u32_at(&out, 66624 + 3 * 276), 0); /* a free slot */
	/* The remark only on the first game, as a library is read. */
	assert_string_equal(xqi_record_tag(&back[0], "LibraryRemark"), "备注");
	assert_null(xqi_record_tag(&back[1], "LibraryRemark"));
	release_games(g, 3);
	release_games(back, 3);
	xq_buf_release(&out);
}

static void cbl_library_fields_come_from_the_first_game_and_others_are_losses(void **state)
{
	struct xqi_record g[2], back[2];
	struct xq_buf out = XQ_BUF_INIT;
	struct collected c = {0};
	int n;

	(void)state;
	library_games(g, 2);
	assert_int_equal(xqi_record_set_tag(&g[1], "Library", "橘中秘"), 0);
	write_read("cbl", g, 2, &out, back, 2, &c, &n);
	assert_int_equal(n, 2);
	assert_non_null(find_diag(&c, XQI_D_LOSS, "tag Library \"橘中秘\" is not the library's"));
	assert_int_equal(c.d[0].game, 2);
	assert_string_equal(xqi_record_tag(&back[1], "Library"), "梅花谱");
	release_games(g, 2);
	release_games(back, 2);
	xq_buf_release(&out);
}

static void cbl_index_grows_to_1024_slots_past_128_games(void **state)
{
	enum { N = 129 };
	struct xqi_record *g = calloc(N, sizeof(*g)), *back = calloc(N, sizeof(*back));
	struct xq_buf out = XQ_BUF_INIT;
	struct collected c = {0};
	int n;

	(void)state;
	assert_non_null(g);
	assert_non_null(back);
	library_games(g, N);
	write_read("cbl", g, N, &out, back, N, &c, &n);
	assert_int_equal(n, N);
	assert_int_equal(u32_at(&out, 60), 1024);
	/* 349,248: where CCBridge's notes put the first record past 128. */
	assert_memory_equal(out.ptr + 349248, "CCBridge Record", 16);
	assert_int_equal(out.len, 349248 + N * 4096);
	release_games(g, N);
	release_games(back, N);
	free(g);
	free(back);
	xq_buf_release(&out);
}

/* Read `data` as `fmt` and write every game as CBL into `out`; the games read. */
static int convert_to_cbl(const char *fmt, const char *data, size_t len, struct xqi_record *g,
			  struct xq_buf *out)
{
	struct collected c = {0};
	int rc, n = read_games(fmt, data, len, g, MAX_GAMES * 3, &c, &rc);

	assert_true(n > 0);
	xq_buf_reset(out);
	assert_int_equal(write_games("cbl", g, n, out, &c), 0);
	return n;
}

static void corpus_libraries_convert_byte_stable(void **state)
{
	static const char *const libs[] = {
		"walker8088__cchess/tests/data/1956年全国象棋锦标赛93局.CBL",
		"walker8088__cchess/tests/data/1989年龙化杯象棋名师邀请赛35局.CBL",
		"zfdang__chinese-chess-fish-android/棋谱/sample_21_MeiHuaPu.cbl",
		"zfdang__chinese-chess-fish-android/app/src/main/assets/XQF/象棋残局基础-刘殿中/象棋残局基础.CBL",
	};
	static struct xqi_record g[MAX_GAMES * 3], again[MAX_GAMES * 3];
	struct xq_buf one = XQ_BUF_INIT, two = XQ_BUF_INIT;

	(void)state;
	if (!test_shared_dir())
		TEST_SKIP("no shared corpus ($XQ_SHARED or ../shared)");
	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
		size_t len;
		char *data = corpus_file(libs[i], &len);
		int n, m;
		if (!data)
			TEST_SKIP("the corpus has no %s", libs[i]);
		n = convert_to_cbl("cbl", data, len, g, &one);
		m = convert_to_cbl("cbl", one.ptr, one.len, again, &two);
		assert_int_equal(n, m);
		for (int k = 0; k < n; k++) {
			char why[256];
			unsigned ig = XQ_EQUAL_IGNORE_TAG_ORDER;
			if (!xqi_record_equal(&g[k], &again[k], ig, why, sizeof(why)))
				fail_msg("%s game %d: %s", libs[i], k + 1, why);
		}
		if (one.len != two.len || memcmp(one.ptr, two.ptr, one.len))
			fail_msg("%s: the second CBL to CBL does not write the first's bytes", libs[i]);
		/* The plain ones come out as large as CCBridge wrote them. */
		if (i < 2)
			assert_int_equal(one.len, len);
		release_games(g, n);
		release_games(again, m);
		free(data);
	}
	xq_buf_release(&one);
	xq_buf_release(&two);
}

/* The main line of a game in ICCS, space-separated. */
static void main_line(const struct xqi_record *g, char *out, size_t cap)
{
	size_t len = 0;

	out[0] = '\0';
	for (uint32_t n = g->nodes[XQI_ROOT].child; n != XQ_NO_NODE && len + 6 < cap;
	     n = g->nodes[n].child) {
		xqi_move_name(g->nodes[n].move, out + len + (len ? 1 : 0));
		if (len)
			out[len] = ' ';
		len = strlen(out);
	}
}

static void independent_decoder_reads_what_xqkit_writes(void **state)
{
	static struct xqi_record g[MAX_GAMES];
	char dir[512], path[600], cmd[4800], line[65536];
	const char *py = test_on_path("python3");
	struct xq_buf out = XQ_BUF_INIT;
	size_t len = 0;
	char *data = NULL;
	FILE *f;
	int n, k = 0;

	(void)state;
	if (!py)
		TEST_SKIP("no python3 on PATH");
	if (!test_shared_dir() ||
	    !(data = corpus_file("walker8088__cchess/tests/data/1956年全国象棋锦标赛93局.CBL", &len)))
		TEST_SKIP("no shared corpus ($XQ_SHARED or ../shared)");
	n = convert_to_cbl("cbl", data, len, g, &out);
	assert_int_equal(test_tmpdir(dir, sizeof(dir), "cbrw"), 0);
	snprintf(path, sizeof(path), "%s/all.cbl", dir);
	assert_non_null(f = fopen(path, "wb"));
	assert_int_equal(fwrite(out.ptr, 1, out.len, f), out.len);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s tests/decoders/ccbridge.py '%s'", py, path);
	assert_non_null(f = popen(cmd, "r"));
	while (fgets(line, sizeof(line), f)) {
		char want[8192], field[8192 + 64];
		assert_true(k < n);
		main_line(&g[k], want, sizeof(want));
		snprintf(field, sizeof(field), "\"main\": \"%s\"", want);
		if (!strstr(line, field))
			fail_msg("game %d: the decoder reads %.300s; xqkit's main line is %.300s", k + 1,
				 line, want);
		snprintf(field, sizeof(field), "\"title\": \"%s\"", xqi_record_tag(&g[k], "Title"));
		assert_non_null(strstr(line, field));
		k++;
	}
	assert_int_equal(pclose(f), 0);
	assert_int_equal(k, n);
	test_rmtree(dir);
	release_games(g, n);
	free(data);
	xq_buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cbr_written_reads_back_with_every_field_position_tree_and_comment),
		cmocka_unit_test(cbr_writer_says_what_a_record_cannot_hold),
		cmocka_unit_test(cbr_file_holds_one_game_and_refuses_the_second),
		cmocka_unit_test(the_same_game_writes_the_same_bytes_and_its_guid_follows_its_content),
		cmocka_unit_test(cbl_written_lays_out_header_index_and_blocks_as_ccbridge),
		cmocka_unit_test(cbl_library_fields_come_from_the_first_game_and_others_are_losses),
		cmocka_unit_test(cbl_index_grows_to_1024_slots_past_128_games),
		cmocka_unit_test(corpus_libraries_convert_byte_stable),
		cmocka_unit_test(independent_decoder_reads_what_xqkit_writes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
