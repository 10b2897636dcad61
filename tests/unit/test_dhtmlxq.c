/*
 * test_dhtmlxq.c: the DhtmlXQ (UBB) reader and writer: squares, branches
 * and comments, tags and results, the side to move, records in files and
 * HTML pages, encodings, every diagnostic, round trips, and every DhtmlXQ
 * file of the shared corpus.
 */
#include "testutil.h"

#include "ccb_testutil.h"
#include "movegen.h"

#define READ(text, games, c) read_games("dhtmlxq", (text), strlen(text), (games), MAX_GAMES, (c), NULL)

/* game.ubb of wukong-xiangqi (CCBridge output): three alternatives to ply 5. */
#define GAME_UBB_TREE                                                                       \
	"1h2e2 2h7e7 3h0g2 4h9g7 5c3c4 6g6g5 7b2b4 8i9h9 9g3g4 5i0h0* 6i9h9 7h0h9 8g7h9 "    \
	"5b0c2* 6b9c7 7i0h0 8i9h9 5a0a1* 6a9a8 7i0i1 8i9i8 9f0e1 10d9e8"

static char *fixture(const char *name, size_t *len)
{
	return fixture_in("dhtmlxq", name, len);
}

static void digit_squares_count_rows_from_the_top(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	char tree[256];
	int n;

	(void)state;
	n = READ("[DhtmlXQ][DhtmlXQ_movelist]77477242[/DhtmlXQ_movelist][/DhtmlXQ]", g, &c);
	assert_int_equal(n, 1);
	tree_string(&g[0], tree, sizeof(tree));
	assert_string_equal(tree, "1h2e2 2h7e7");
	assert_string_equal(g[0].nodes[1].text, "7747");
	assert_int_equal(g[0].flags, 0);
	assert_int_equal(count_diags(&c, XQ_SEVERITY_NOTE), 0);
	release_games(g, n);
}

static void branches_attach_to_the_ply_they_leave(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	char tree[1024];
	size_t len;
	char *data = fixture("game.ubb", &len);
	int n;

	(void)state;
	n = read_games("dhtmlxq", data, len, g, MAX_GAMES, &c, NULL);
	assert_int_equal(n, 1);
	tree_string(&g[0], tree, sizeof(tree));
	assert_string_equal(tree, GAME_UBB_TREE);
	assert_int_equal(g[0].flags, 0);
	release_games(g, n);
	free(data);
}

static void branch_of_a_branch_hangs_from_its_parent_branch(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	char tree[512];
	int n;

	(void)state;
	/* Main h2e2 h7e7 h0g2; branch 1 replaces ply 2 with b9c7 h0g2 (plies 2-3);
	 * branch 2 leaves branch 1 at ply 3 with b0c2. */
	n = READ("[DhtmlXQ][DhtmlXQ_movelist]774772427967[/DhtmlXQ_movelist]"
		 "[DhtmlXQ_move_0_2_1]10227967[/DhtmlXQ_move_0_2_1]"
		 "[DhtmlXQ_move_1_3_2]1927[/DhtmlXQ_move_1_3_2][/DhtmlXQ]",
		 g, &c);
	assert_int_equal(n, 1);
	tree_string(&g[0], tree, sizeof(tree));
	assert_string_equal(tree, "1h2e2 2h7e7 3h0g2 2b9c7* 3h0g2 3b0c2*");
	assert_int_equal(g[0].flags, 0);
	release_games(g, n);
}

/* `n` legal moves from the start, picked by a fixed pseudo-random sequence. */
static size_t pseudo_random_line(xqi_move *out, size_t n)
{
	struct xqi_position b;
	uint32_t seed = 2024;
	size_t k;

	xqi_position_start(&b);
	for (k = 0; k < n; k++) {
		xqi_move moves[XQ_MOVES_MAX];
		struct xqi_undo u;
		int m = xqi_gen_legal(&b, moves);
		if (m == 0)
			break;
		seed = seed * 1103515245u + 12345u;
		out[k] = moves[(seed >> 16) % (uint32_t)m];
		xqi_position_make(&b, out[k], &u);
	}
	return k;
}

static void add_digits(struct xq_buf *t, xqi_move m)
{
	xqi_sq f = XQI_MOVE_FROM(m), to = XQI_MOVE_TO(m);

	xq_buf_addf(t, "%d%d%d%d", XQI_SQ_FILE(f), 9 - XQI_SQ_RANK(f), XQI_SQ_FILE(to),
		    9 - XQI_SQ_RANK(to));
}

static void branches_far_down_long_lines_start_from_the_position_there(void **state)
{
	/* A line of a few hundred plies, left by a branch at every ply (the move
	 * played there, then the next): each branch must start from the exact
	 * position at its ply, however far from the line's start.  The same
	 * again for branches of a branch that repeats the whole line. */
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	struct xq_buf t = XQ_BUF_INIT;
	xqi_move line[300];
	size_t len = pseudo_random_line(line, 300);
	struct xqi_walk w;
	uint32_t copy = (uint32_t)len + 1, nodes = 0;
	int n;

	(void)state;
	assert_true(len >= 200);
	xq_buf_adds(&t, "[DhtmlXQ][DhtmlXQ_movelist]");
	for (size_t k = 0; k < len; k++)
		add_digits(&t, line[k]);
	xq_buf_adds(&t, "[/DhtmlXQ_movelist]");
	xq_buf_addf(&t, "[DhtmlXQ_move_0_1_%u]", (unsigned)copy);
	for (size_t k = 0; k < len; k++)
		add_digits(&t, line[k]);
	xq_buf_addf(&t, "[/DhtmlXQ_move_0_1_%u]", (unsigned)copy);
	for (uint32_t p = 1; p <= len; p++) {
		for (int of = 0; of < 2; of++) {
			uint32_t parent = of ? copy : 0, id = of ? copy + p : p;
			if (of && p == 1)
				continue;
			xq_buf_addf(&t, "[DhtmlXQ_move_%u_%u_%u]", (unsigned)parent, (unsigned)p,
				    (unsigned)id);
			add_digits(&t, line[p - 1]);
			if (p < len)
				add_digits(&t, line[p]);
			xq_buf_addf(&t, "[/DhtmlXQ_move_%u_%u_%u]", (unsigned)parent, (unsigned)p,
				    (unsigned)id);
		}
	}
	xq_buf_adds(&t, "[/DhtmlXQ]");
	n = read_games("dhtmlxq", t.ptr, t.len, g, MAX_GAMES, &c, NULL);
	assert_int_equal(n, 1);
	if (count_diags(&c, XQ_SEVERITY_WARNING))
		print_diags(&c);
	assert_int_equal(count_diags(&c, XQ_SEVERITY_WARNING), 0);
	assert_int_equal(g[0].flags, 0);
	/* Every move is legal where it stands (the walk replays from the start). */
	assert_int_equal(xqi_walk_init(&w, &g[0]), 0);
	while (xqi_walk_next(&w) == 1) {
		assert_true(xqi_move_is_legal(&w.before, g[0].nodes[w.node].move));
		nodes++;
	}
	xqi_walk_release(&w);
	/* Two lines of len moves, and 2 * len - 1 branches of two moves (one at the end). */
	assert_int_equal(nodes, 2 * len + 2 * (2 * len - 1) - 2);
	xq_buf_release(&t);
	release_games(g, n);
}

static void branches_listed_before_their_parent_are_placed(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	char tree[512];
	int n;

	(void)state;
	n = READ("[DhtmlXQ][DhtmlXQ_move_1_3_2]1927[/DhtmlXQ_move_1_3_2]"
		 "[DhtmlXQ_move_0_2_1]10227967[/DhtmlXQ_move_0_2_1]"
		 "[DhtmlXQ_movelist]774772427967[/DhtmlXQ_movelist][/DhtmlXQ]",
		 g, &c);
	assert_int_equal(n, 1);
	tree_string(&g[0], tree, sizeof(tree));
	assert_string_equal(tree, "1h2e2 2h7e7 3h0g2 2b9c7* 3h0g2 3b0c2*");
	release_games(g, n);
}

static void comments_attach_to_main_line_and_branch_moves(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	size_t len;
	char *data = fixture("game.ubb", &len);
	const struct xqi_record *x;
	uint32_t n5;
	int n;

	(void)state;
	n = read_games("dhtmlxq", data, len, g, MAX_GAMES, &c, NULL);
	assert_int_equal(n, 1);
	x = &g[0];
	assert_null(x->nodes[XQI_ROOT].comment);
	assert_string_equal(x->nodes[1].comment, "start of main line");
	/* Ply 5 of the main line, then its first alternative (branch 1). */
	n5 = x->nodes[x->nodes[x->nodes[x->nodes[1].child].child].child].child;
	assert_string_equal(x->nodes[n5].comment, "Here branching occurrs");
	assert_string_equal(x->nodes[x->nodes[n5].sibling].comment, "variation 1");
	assert_string_equal(x->nodes[x->nodes[x->nodes[n5].sibling].sibling].comment, "variation 2");
	release_games(g, n);
	free(data);
}

static void comment_bars_are_newlines_and_escapes_are_characters(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	n = READ("[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]"
		 "[DhtmlXQ_comment0]one||two\\u70AE[/DhtmlXQ_comment0]"
		 "[DhtmlXQ_comment1]a\r\nb[/DhtmlXQ_comment1][/DhtmlXQ]",
		 g, &c);
	assert_int_equal(n, 1);
	assert_string_equal(g[0].nodes[XQI_ROOT].comment, "one\ntwo炮");
	assert_string_equal(g[0].nodes[1].comment, "a\nb");
	release_games(g, n);
}

static void comment_for_a_missing_move_is_reported(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	const struct xq_diagnostic *d;
	int n;

	(void)state;
	n = READ("[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]"
		 "[DhtmlXQ_comment7]lost words[/DhtmlXQ_comment7][/DhtmlXQ]",
		 g, &c);
	assert_int_equal(n, 1);
	d = find_diag(&c, XQI_D_SYNTAX, "comment not kept: 'lost words'");
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_WARNING);
	assert_int_equal(d->place.line, 1);
	assert_int_equal(d->place.col, 69);
	release_games(g, n);
}

static void header_elements_map_to_canonical_tags(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	n = READ("[DhtmlXQ][DhtmlXQ_title]T[/DhtmlXQ_title][DhtmlXQ_event]E[/DhtmlXQ_event]"
		 "[DhtmlXQ_date]2024[/DhtmlXQ_date][DhtmlXQ_place]P[/DhtmlXQ_place]"
		 "[DhtmlXQ_round]3[/DhtmlXQ_round][DhtmlXQ_red]R[/DhtmlXQ_red]"
		 "[DhtmlXQ_redteam]RT[/DhtmlXQ_redteam][DhtmlXQ_black]B[/DhtmlXQ_black]"
		 "[DhtmlXQ_blackteam]BT[/DhtmlXQ_blackteam][DhtmlXQ_open]O[/DhtmlXQ_open]"
		 "[DhtmlXQ_variation]V[/DhtmlXQ_variation][DhtmlXQ_ecco]A00[/DhtmlXQ_ecco]"
		 "[DhtmlXQ_remark]C[/DhtmlXQ_remark][DhtmlXQ_author]A[/DhtmlXQ_author]"
		 "[DhtmlXQ_type]全局[/DhtmlXQ_type][DhtmlXQ_timerule]90+30[/DhtmlXQ_timerule]"
		 "[DhtmlXQ_redtime]1h[/DhtmlXQ_redtime][DhtmlXQ_blacktime]2h[/DhtmlXQ_time]"
		 "[/DhtmlXQ]",
		 g, &c);
	assert_int_equal(n, 1);
	assert_string_equal(xqi_record_tag(&g[0], "Title"), "T");
	assert_string_equal(xqi_record_tag(&g[0], "Event"), "E");
	assert_string_equal(xqi_record_tag(&g[0], "Date"), "2024");
	assert_string_equal(xqi_record_tag(&g[0], "Site"), "P");
	assert_string_equal(xqi_record_tag(&g[0], "Round"), "3");
	assert_string_equal(xqi_record_tag(&g[0], "Red"), "R");
	assert_string_equal(xqi_record_tag(&g[0], "RedTeam"), "RT");
	assert_string_equal(xqi_record_tag(&g[0], "Black"), "B");
	assert_string_equal(xqi_record_tag(&g[0], "BlackTeam"), "BT");
	assert_string_equal(xqi_record_tag(&g[0], "Opening"), "O");
	assert_string_equal(xqi_record_tag(&g[0], "Variation"), "V");
	assert_string_equal(xqi_record_tag(&g[0], "ECCO"), "A00");
	assert_string_equal(xqi_record_tag(&g[0], "Annotator"), "C");
	assert_string_equal(xqi_record_tag(&g[0], "Author"), "A");
	assert_string_equal(xqi_record_tag(&g[0], "GameType"), "全局");
	assert_string_equal(xqi_record_tag(&g[0], "TimeControl"), "90+30");
	assert_string_equal(xqi_record_tag(&g[0], "RedTime"), "1h");
	/* CCBridge closes blacktime with [/DhtmlXQ_time]: accepted without a word. */
	assert_string_equal(xqi_record_tag(&g[0], "BlackTime"), "2h");
	assert_int_equal(count_diags(&c, XQ_SEVERITY_NOTE), 0);
	release_games(g, n);
}

/* A header element's tag keeps where its value starts, for diagnostics
 * about it. */
static void header_tags_keep_the_place_of_their_value(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	struct xqi_place at;
	int n;

	(void)state;
	n = READ("[DhtmlXQ]\n[DhtmlXQ_title]T[/DhtmlXQ_title]\n  [DhtmlXQ_date]2006.13.45[/DhtmlXQ_date]\n"
		 "[/DhtmlXQ]",
		 g, &c);
	assert_int_equal(n, 1);
	assert_int_equal(xqi_record_tag_place(&g[0], "Title", &at), 1);
	assert_int_equal(at.line, 2);
	assert_int_equal(at.col, 16);
	assert_int_equal(xqi_record_tag_place(&g[0], "Date", &at), 1);
	assert_int_equal(at.line, 3);
	assert_int_equal(at.col, 17);
	assert_int_equal(at.offset, 59);
	release_games(g, n);
}

static void other_elements_keep_their_capitalised_names(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	n = READ("[DhtmlXQ][DhtmlXQ_owner]me[/DhtmlXQ_owner][DhtmlXQ_redrating]2500[/DhtmlXQ_redrating]"
		 "[DhtmlXQ_blackname]x[/DhtmlXQ_blackname][DhtmlXQ_table]4[/DhtmlXQ_table]"
		 "[DhtmlXQ_event][/DhtmlXQ_event][/DhtmlXQ]",
		 g, &c);
	assert_int_equal(n, 1);
	assert_int_equal(g[0].ntags, 4); /* the empty event makes no tag */
	assert_string_equal(g[0].tags[0].name, "Owner");
	assert_string_equal(g[0].tags[1].name, "RedRating");
	assert_string_equal(g[0].tags[2].name, "BlackName");
	assert_string_equal(g[0].tags[3].name, "Table");
	release_games(g, n);
}

/* A fuzzer's finding (issue 34, finding 5): an element named FEN in
 * capitals became a FEN tag, which the writer leaves out (the start is
 * binit), so the game came back without it.  It is no tag now. */
static void an_element_named_fen_in_capitals_is_no_tag_so_the_game_comes_back_whole(void **state)
{
	static struct collected c, c2, c3;
	struct xqi_record g[MAX_GAMES], back[MAX_GAMES];
	struct xq_buf out = XQ_BUF_INIT;
	char why[256];
	int n;

	(void)state;
	n = READ("[DhtmlXQ][DhtmlXQ_binit]0999999939999999999999999999999999999999999999999999999999999999"
		 "[DhtmlXQ_FEN]DQ[mlXQ]DhtmlXQ_fen]4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 lPQ_fen][~DhtmlXQ]",
		 g, &c);
	assert_int_equal(n, 1);
	assert_true(g[0].flags & XQI_RECORD_BROKEN);
	assert_int_equal(g[0].ntags, 0);
	assert_non_null(find_diag(&c, XQI_D_SYNTAX, "[DhtmlXQ_FEN] not read: the start position is"));
	write_games("dhtmlxq", g, 1, &out, &c2);
	assert_int_equal(read_games("dhtmlxq", out.ptr, out.len, back, MAX_GAMES, &c3, NULL), 1);
	assert_true(xqi_record_equal(&g[0], &back[0], 0, why, sizeof(why)));
	xq_buf_release(&out);
	release_games(back, 1);
	release_games(g, n);
}

static void result_words_become_results(void **state)
{
	static const struct {
		const char *word;
		enum xqi_result r;
		const char *tag;
	} cases[] = {
		{"红胜", XQI_RESULT_RED_WIN, "1-0"},   {"黑胜", XQI_RESULT_BLACK_WIN, "0-1"},
		{"和棋", XQI_RESULT_DRAW, "1/2-1/2"},  {"红先负", XQI_RESULT_BLACK_WIN, "0-1"},
		{"W", XQI_RESULT_RED_WIN, "1-0"},      {"L", XQI_RESULT_BLACK_WIN, "0-1"},
		{"D", XQI_RESULT_DRAW, "1/2-1/2"},     {"未知", XQI_RESULT_UNKNOWN, "*"},
		{"1-0", XQI_RESULT_RED_WIN, "1-0"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		static struct collected c;
		struct xqi_record g[MAX_GAMES];
		char text[128];
		int n;
		memset(&c, 0, sizeof(c));
		snprintf(text, sizeof(text), "[DhtmlXQ][DhtmlXQ_result]%s[/DhtmlXQ_result][/DhtmlXQ]",
			 cases[i].word);
		n = READ(text, g, &c);
		assert_int_equal(n, 1);
		assert_int_equal(g[0].result, cases[i].r);
		assert_string_equal(xqi_record_tag(&g[0], "Result"), cases[i].tag);
		if (strcmp(cases[i].word, cases[i].tag))
			assert_string_equal(g[0].result_text, cases[i].word);
		assert_null(find_diag(&c, XQI_D_NO_RESULT, NULL));
		release_games(g, n);
	}
}

static void unknown_result_word_is_kept_as_a_tag_and_noted(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	n = READ("[DhtmlXQ][DhtmlXQ_result]V[/DhtmlXQ_result][/DhtmlXQ]", g, &c);
	assert_int_equal(n, 1);
	assert_int_equal(g[0].result, XQI_RESULT_UNKNOWN);
	assert_string_equal(g[0].result_text, "V");
	assert_string_equal(xqi_record_tag(&g[0], "Result"), "V");
	assert_non_null(find_diag(&c, XQI_D_NO_RESULT, "'V' is not a result word"));
	release_games(g, n);
}

static void binit_sets_up_the_position_and_99_is_absent(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	char fen[XQ_FEN_SIZE];
	int n;

	(void)state;
	/* Red rook a0 (09), red king d0 (39), black king e9 (40); all others 99. */
	n = READ("[DhtmlXQ][DhtmlXQ_binit]09999999399999999999999999999999"
		 "99999999409999999999999999999999[/DhtmlXQ_binit][/DhtmlXQ]",
		 g, &c);
	assert_int_equal(n, 1);
	xqi_position_to_fen(&g[0].start, fen, sizeof(fen));
	assert_string_equal(fen, "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
	assert_int_equal(g[0].flags, XQI_RECORD_EMPTY);
	release_games(g, n);
}

static void side_to_move_comes_from_the_first_move(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	/* The same setup with black's king moving first (40 -> 41). */
	n = READ("[DhtmlXQ][DhtmlXQ_binit]09999999399999999999999999999999"
		 "99999999409999999999999999999999[/DhtmlXQ_binit]"
		 "[DhtmlXQ_movelist]4041[/DhtmlXQ_movelist][/DhtmlXQ]",
		 g, &c);
	assert_int_equal(n, 1);
	assert_int_equal(g[0].start.side, XQI_BLACK);
	assert_int_equal(g[0].nnodes, 2);
	assert_null(find_diag(&c, XQI_D_SIDE_TO_MOVE, NULL));
	release_games(g, n);
}

static void fen_whose_side_disagrees_with_the_first_move_is_noted(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	const struct xq_diagnostic *d;
	int n;

	(void)state;
	n = READ("[DhtmlXQ][DhtmlXQ_fen]4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1[/DhtmlXQ_fen]"
		 "[DhtmlXQ_movelist]4041[/DhtmlXQ_movelist][/DhtmlXQ]",
		 g, &c);
	assert_int_equal(n, 1);
	assert_int_equal(g[0].start.side, XQI_BLACK);
	d = find_diag(&c, XQI_D_SIDE_TO_MOVE, "says red moves, but the first move decides; black moves");
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_NOTE);
	release_games(g, n);
}

static void fen_with_the_wrong_side_to_move_is_read_with_the_right_one(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	/* "w" would leave black in check from the rook on e5: only black can move. */
	n = READ("[DhtmlXQ][DhtmlXQ_fen]4k4/9/9/9/4R4/9/9/9/9/3K5 w - - 0 1[/DhtmlXQ_fen]"
		 "[DhtmlXQ_movelist]4050[/DhtmlXQ_movelist][/DhtmlXQ]",
		 g, &c);
	assert_int_equal(n, 1);
	assert_int_equal(g[0].start.side, XQI_BLACK);
	assert_int_equal(g[0].nnodes, 2);
	assert_int_equal(g[0].flags, 0);
	assert_non_null(find_diag(&c, XQI_D_SIDE_TO_MOVE, "says red moves"));
	release_games(g, n);
}

static void illegal_move_stops_its_line_with_a_located_diagnostic(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	const struct xq_diagnostic *d;
	char tree[256];
	int n;

	(void)state;
	/* Ply 3 "7747" moves an empty square; the next record must still be read. */
	n = READ("[DhtmlXQ]\n[DhtmlXQ_movelist]774772427747[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n"
		 "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]",
		 g, &c);
	assert_int_equal(n, 2);
	tree_string(&g[0], tree, sizeof(tree));
	assert_string_equal(tree, "1h2e2 2h7e7");
	assert_true(g[0].flags & XQI_RECORD_BROKEN);
	assert_int_equal(g[1].flags, 0);
	d = find_diag(&c, XQI_D_ILLEGAL_MOVE, "illegal move 7747");
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_ERROR);
	assert_int_equal(d->game, 1);
	assert_int_equal(d->ply, 3);
	assert_string_equal(d->move, "7747");
	assert_int_equal(d->place.line, 2);
	assert_int_equal(d->place.col, 27);
	assert_int_equal(d->place.offset, 36);
	assert_int_equal(d->has_offset, 1);
	release_games(g, n);
}

static void branch_below_an_illegal_move_is_reported(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	n = READ("[DhtmlXQ][DhtmlXQ_movelist]774700007967[/DhtmlXQ_movelist]"
		 "[DhtmlXQ_move_0_3_1]1022[/DhtmlXQ_move_0_3_1][/DhtmlXQ]",
		 g, &c);
	assert_int_equal(n, 1);
	assert_non_null(find_diag(&c, XQI_D_ILLEGAL_MOVE, "illegal move 0000"));
	assert_non_null(find_diag(&c, XQI_D_ILLEGAL_MOVE, "after the point where that line stopped"));
	assert_true(g[0].flags & XQI_RECORD_BROKEN);
	release_games(g, n);
}

/* An illegal move in a branch cuts that branch from it on, with the
 * branches that hang below that point; a branch that is an alternative
 * to the bad move is read, and the game is whole otherwise. */
static void illegal_move_in_a_branch_cuts_that_branch_and_those_below_it(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	const struct xq_diagnostic *d;
	char tree[256];
	int n;

	(void)state;
	n = READ("[DhtmlXQ][DhtmlXQ_movelist]774770627967[/DhtmlXQ_movelist]"
		 "[DhtmlXQ_move_0_2_1]102279477062[/DhtmlXQ_move_0_2_1]"
		 "[DhtmlXQ_move_1_4_2]1927[/DhtmlXQ_move_1_4_2]"
		 "[DhtmlXQ_move_1_3_3]7967[/DhtmlXQ_move_1_3_3][/DhtmlXQ]",
		 g, &c);
	assert_int_equal(n, 1);
	tree_string(&g[0], tree, sizeof(tree));
	assert_string_equal(tree, "1h2e2 2h9g7 3h0g2 2b9c7* 3h0g2");
	assert_int_equal(g[0].flags & (XQI_RECORD_BROKEN | XQI_RECORD_CUT), XQI_RECORD_CUT);
	assert_int_equal(count_diags(&c, XQ_SEVERITY_ERROR), 1);
	d = find_diag(&c, XQI_D_ILLEGAL_MOVE, "branch 1: illegal move 7947");
	assert_non_null(d);
	assert_int_equal(d->ply, 3);
	assert_non_null(strstr(d->msg, "the variation is cut here: 3 moves not kept (this one and the 2 after it)"));
	release_games(g, n);
}

static void malformed_branches_are_reported(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	n = READ("[DhtmlXQ][DhtmlXQ_movelist]77477242[/DhtmlXQ_movelist]"
		 "[DhtmlXQ_move_0_9_1]1022[/DhtmlXQ_move_0_9_1]"
		 "[DhtmlXQ_move_7_2_2]1022[/DhtmlXQ_move_7_2_2]"
		 "[DhtmlXQ_move_0_2_3]1022[/DhtmlXQ_move_0_2_3]"
		 "[DhtmlXQ_move_0_2_3]1022[/DhtmlXQ_move_0_2_3]"
		 "[DhtmlXQ_move_0_x_4]1022[/DhtmlXQ_move_0_x_4]"
		 "[DhtmlXQ_move_0_2_5]10x2[/DhtmlXQ_move_0_2_5][/DhtmlXQ]",
		 g, &c);
	assert_int_equal(n, 1);
	assert_non_null(find_diag(&c, XQI_D_SYNTAX, "covers plies 1-3"));
	assert_non_null(find_diag(&c, XQI_D_SYNTAX, "which does not exist"));
	assert_non_null(find_diag(&c, XQI_D_SYNTAX, "branch id 3 is used twice"));
	assert_non_null(find_diag(&c, XQI_D_SYNTAX, "is not move_P_S_B"));
	assert_non_null(find_diag(&c, XQI_D_BAD_MOVE_TEXT, "'10x2' is not a move"));
	assert_true(g[0].flags & XQI_RECORD_BROKEN);
	assert_int_equal(g[0].nnodes, 4); /* the main line and branch 3 */
	release_games(g, n);
}

static void many_records_in_one_file_are_numbered(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	n = READ("forum text [DhtmlXQ][DhtmlXQ_title]1[/DhtmlXQ_title][/DhtmlXQ] more text\n"
		 "[DhtmlXQiFrame][DhtmlXQ_title]2[/DhtmlXQ_title][/DhtmlXQiFrame]\n"
		 "[DhtmlXQ][DhtmlXQ_title]3[/DhtmlXQ_title][/DhtmlXQ]",
		 g, &c);
	assert_int_equal(n, 3);
	for (int i = 0; i < 3; i++) {
		char want[2] = {(char)('1' + i), 0};
		assert_int_equal(g[i].number, (uint64_t)i + 1);
		assert_string_equal(xqi_record_tag(&g[i], "Title"), want);
	}
	assert_int_equal(g[1].place.line, 2);
	assert_int_equal(g[1].place.col, 1);
	release_games(g, n);
}

static void records_in_html_are_found_and_references_decoded(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	n = READ("<html><body><div style=\"display:none\">[DhtmlXQ]<br>\n"
		 "[DhtmlXQ_title]A &amp; B &#28846;&#x9A6C;[/DhtmlXQ_title]<br />"
		 "[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]"
		 "[DhtmlXQ_comment1]x&lt;y<br>z &bogus; <b>w</b>[/DhtmlXQ_comment1]"
		 "[/DhtmlXQ]</div></body></html>",
		 g, &c);
	assert_int_equal(n, 1);
	assert_string_equal(xqi_record_tag(&g[0], "Title"), "A & B 炮马");
	assert_string_equal(g[0].nodes[1].comment, "x<y\nz &bogus; <b>w</b>");
	/* What could not be interpreted is said. */
	assert_non_null(find_diag(&c, XQI_D_SYNTAX, "3 HTML references or tags not understood"));
	assert_null(find_diag(&c, XQI_D_SYNTAX, "text between"));
	release_games(g, n);
}

static void url_encoded_record_is_decoded(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	char tree[64];
	int n;

	(void)state;
	n = READ("<a href=\"view.htm?%5BDhtmlXQ%5D%5BDhtmlXQ_title%5D%E7%82%AE%5B%2FDhtmlXQ_title%5D"
		 "%5BDhtmlXQ_movelist%5D7747%5B/DhtmlXQ_movelist%5D%5B%2FDhtmlXQ%5D\">x</a>",
		 g, &c);
	assert_int_equal(n, 1);
	assert_string_equal(xqi_record_tag(&g[0], "Title"), "炮");
	tree_string(&g[0], tree, sizeof(tree));
	assert_string_equal(tree, "1h2e2");
	release_games(g, n);
}

static void url_encoded_character_beyond_the_bmp_is_read_from_its_two_surrogates(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	/* JavaScript's escape() writes U+1F600 U+70AE as %uD83D%uDE00%u70AE. */
	n = READ("<a href=\"view.htm?%5BDhtmlXQ%5D%5BDhtmlXQ_title%5D%uD83D%uDE00%u70AE%5B%2FDhtmlXQ_title%5D"
		 "%5BDhtmlXQ_movelist%5D7747%5B/DhtmlXQ_movelist%5D%5B%2FDhtmlXQ%5D\">x</a>",
		 g, &c);
	assert_int_equal(n, 1);
	assert_string_equal(xqi_record_tag(&g[0], "Title"), "\xF0\x9F\x98\x80\xE7\x82\xAE");
	release_games(g, n);
}

static void elements_without_a_wrapper_form_records(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	/* Two bare records: the second movelist starts the second one. */
	n = READ("[DhtmlXQ_title]one[/DhtmlXQ_title]\n[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n"
		 "[DhtmlXQ_movelist]1022[/DhtmlXQ_movelist][DhtmlXQ_title]two[/DhtmlXQ_title]\n"
		 "plain words end it\n[DhtmlXQ_title]three[/DhtmlXQ_title]",
		 g, &c);
	assert_int_equal(n, 3);
	assert_string_equal(xqi_record_tag(&g[0], "Title"), "one");
	assert_string_equal(xqi_record_tag(&g[1], "Title"), "two");
	assert_int_equal(g[1].nodes[1].move, mv("b9c7"));
	assert_int_equal(g[1].start.side, XQI_BLACK);
	assert_string_equal(xqi_record_tag(&g[2], "Title"), "three");
	assert_int_equal(count_diags(&c, XQ_SEVERITY_WARNING), 0);
	release_games(g, n);
}

static void text_between_elements_is_reported(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	const struct xq_diagnostic *d;
	int n;

	(void)state;
	n = READ("[DhtmlXQ][DhtmlXQ_title]t[/DhtmlXQ_title] stray words [DhtmlXQ_foo]x"
		 "[DhtmlXQ_bar]y[/DhtmlXQ_bar][/DhtmlXQ]",
		 g, &c);
	assert_int_equal(n, 1);
	d = find_diag(&c, XQI_D_SYNTAX, "not interpreted: ' stray words '");
	assert_non_null(d);
	assert_int_equal(d->place.col, 42);
	assert_non_null(find_diag(&c, XQI_D_SYNTAX, "[DhtmlXQ_foo] has no closing tag"));
	assert_string_equal(xqi_record_tag(&g[0], "Foo"), "x");
	assert_string_equal(xqi_record_tag(&g[0], "Bar"), "y");
	release_games(g, n);
}

static void mismatched_closing_tag_is_noted(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	n = READ("[DhtmlXQ][DhtmlXQ_title]t[/DhtmlXQ_event][/DhtmlXQ]", g, &c);
	assert_int_equal(n, 1);
	assert_string_equal(xqi_record_tag(&g[0], "Title"), "t");
	assert_non_null(find_diag(&c, XQI_D_SYNTAX, "is closed by [/DhtmlXQ_event]"));
	release_games(g, n);
}

static void record_without_its_closing_tag_reads_to_the_end(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	n = READ("[DhtmlXQ][DhtmlXQ_title]t[/DhtmlXQ_title]", g, &c);
	assert_int_equal(n, 1);
	assert_string_equal(xqi_record_tag(&g[0], "Title"), "t");
	assert_non_null(find_diag(&c, XQI_D_TRUNCATED, "read to the end of the input"));
	release_games(g, n);
}

static void gbk_text_is_decoded(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	/* 炮 in GBK is C5 DA; 马 is C2 ED. */
	static const char text[] = "[DhtmlXQ][DhtmlXQ_title]\xC5\xDA\xC2\xED[/DhtmlXQ_title][/DhtmlXQ]";
	struct xqi_read_opts opts = XQI_READ_OPTS_INIT;
	int n;

	(void)state;
	opts.encoding = XQI_ENC_GBK;
	n = read_games_opts("dhtmlxq", text, sizeof(text) - 1, g, MAX_GAMES, &c, NULL, &opts);
	assert_int_equal(n, 1);
	assert_string_equal(xqi_record_tag(&g[0], "Title"), "炮马");
	release_games(g, n);
	/* Detected when not given. */
	memset(&c, 0, sizeof(c));
	n = read_games("dhtmlxq", text, sizeof(text) - 1, g, MAX_GAMES, &c, NULL);
	assert_int_equal(n, 1);
	assert_string_equal(xqi_record_tag(&g[0], "Title"), "炮马");
	assert_string_equal(g[0].encoding, "gb18030");
	release_games(g, n);
}

static void byte_that_is_not_text_in_a_value_is_replaced_and_warned_about(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	static const char text[] = "[DhtmlXQ][DhtmlXQ_title]a\xFF"
				   "b[/DhtmlXQ_title][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]"
				   "[/DhtmlXQ][DhtmlXQ][/DhtmlXQ]";
	struct xqi_read_opts opts = XQI_READ_OPTS_INIT;
	const struct xq_diagnostic *d;
	int n;

	(void)state;
	opts.encoding = XQI_ENC_UTF8;
	n = read_games_opts("dhtmlxq", text, sizeof(text) - 1, g, MAX_GAMES, &c, NULL, &opts);
	assert_int_equal(n, 2);
	d = find_diag(&c, XQI_D_ENCODING,
		      "[DhtmlXQ_title] is not valid utf-8: 1 byte replaced by U+FFFD (the first, 0xFF, "
		      "at offset 25)");
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_WARNING);
	assert_int_equal(d->place.offset, 25);
	assert_int_equal(d->place.line, 1);
	assert_int_equal(d->place.col, 26);
	/* The byte stays in its value: the record keeps its moves and is whole. */
	assert_string_equal(xqi_record_tag(&g[0], "Title"), "a\xEF\xBF\xBD" "b");
	assert_int_equal(g[0].nnodes, 2);
	assert_false(g[0].flags & XQI_RECORD_BROKEN);
	assert_false(g[1].flags & XQI_RECORD_BROKEN);
	release_games(g, n);
}

static void byte_that_is_not_text_in_the_moves_breaks_its_record(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	static const char text[] = "[DhtmlXQ][DhtmlXQ_title]t[/DhtmlXQ_title]"
				   "[DhtmlXQ_movelist]77\xFF"
				   "47[/DhtmlXQ_movelist][/DhtmlXQ]";
	struct xqi_read_opts opts = XQI_READ_OPTS_INIT;
	const struct xq_diagnostic *d;
	int n;

	(void)state;
	opts.encoding = XQI_ENC_UTF8;
	n = read_games_opts("dhtmlxq", text, sizeof(text) - 1, g, MAX_GAMES, &c, NULL, &opts);
	assert_int_equal(n, 1);
	d = find_diag(&c, XQI_D_ENCODING,
		      "byte 0xFF at offset 61 is not valid utf-8: the game holding it is marked broken");
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_ERROR);
	assert_true(g[0].flags & XQI_RECORD_BROKEN);
	assert_string_equal(xqi_record_tag(&g[0], "Title"), "t");
	release_games(g, n);
}

static void gbk_record_in_a_utf8_file_is_read_as_gbk_with_a_warning(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	/* 全国象棋 and 胡荣华 in GBK between two UTF-8 records. */
	static const char text[] = "[DhtmlXQ]\n[DhtmlXQ_title]象棋 Café[/DhtmlXQ_title]\n[/DhtmlXQ]\n"
				   "[DhtmlXQ]\n[DhtmlXQ_title]\xC8\xAB\xB9\xFA\xCF\xF3\xC6\xE5[/DhtmlXQ_title]\n"
				   "[DhtmlXQ_red]\xBA\xFA\xC8\xD9\xBB\xAA[/DhtmlXQ_red]\n[/DhtmlXQ]\n"
				   "[DhtmlXQ]\n[DhtmlXQ_title]第二轮[/DhtmlXQ_title]\n[/DhtmlXQ]\n";
	const struct xq_diagnostic *d;
	int n;

	(void)state;
	n = READ(text, g, &c);
	assert_int_equal(n, 3);
	assert_string_equal(xqi_record_tag(&g[0], "Title"), "象棋 Café");
	assert_string_equal(g[0].encoding, "utf-8");
	assert_string_equal(xqi_record_tag(&g[1], "Title"), "全国象棋");
	assert_string_equal(xqi_record_tag(&g[1], "Red"), "胡荣华");
	assert_string_equal(g[1].encoding, "gb18030");
	assert_false(g[1].flags & XQI_RECORD_BROKEN);
	assert_string_equal(xqi_record_tag(&g[2], "Title"), "第二轮");
	assert_string_equal(g[2].encoding, "utf-8");
	/* One warning, for the second record, at its first GBK byte. */
	d = find_diag(&c, XQI_D_ENCODING, "this line is gb18030, not utf-8 like the input");
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_WARNING);
	assert_int_equal(d->game, 2);
	assert_int_equal(d->place.line, 5);
	assert_int_equal(d->place.col, 16);
	assert_int_equal(d->place.offset, 90);
	assert_true(d->has_offset);
	release_games(g, n);
}

static void nul_character_in_a_value_is_replaced_as_no_text(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	static const char text[] = "[DhtmlXQ][DhtmlXQ_owner]a\0b[/DhtmlXQ_owner][/DhtmlXQ]";
	const struct xq_diagnostic *d;
	int n;

	(void)state;
	/* Found by fuzz_dhtmlxq: a NUL cut the tag's C string short, silently. */
	n = read_games("dhtmlxq", text, sizeof(text) - 1, g, MAX_GAMES, &c, NULL);
	assert_int_equal(n, 1);
	d = find_diag(&c, XQI_D_ENCODING, "[DhtmlXQ_owner] holds a NUL byte");
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_WARNING);
	assert_int_equal(d->place.offset, 25);
	assert_int_equal(d->place.col, 26);
	assert_string_equal(xqi_record_tag(&g[0], "Owner"), "a\xEF\xBF\xBD" "b");
	assert_false(g[0].flags & XQI_RECORD_BROKEN);
	release_games(g, n);
}

static void nul_run_is_reported_once(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	static const char text[] = "[DhtmlXQ][DhtmlXQ_owner]a\0\0\0b[/DhtmlXQ_owner][/DhtmlXQ]";
	int n;

	(void)state;
	n = read_games("dhtmlxq", text, sizeof(text) - 1, g, MAX_GAMES, &c, NULL);
	assert_int_equal(n, 1);
	assert_int_equal(c.n, 1);
	assert_non_null(find_diag(&c, XQI_D_ENCODING, "3 bytes replaced by U+FFFD"));
	assert_int_equal(c.d[0].game, 1);
	assert_string_equal(xqi_record_tag(&g[0], "Owner"), "a\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD" "b");
	release_games(g, n);
}

static void bytes_that_are_not_text_outside_records_are_counted_in_one_report(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	static const char text[] = "\xFF\xFE<p>\x80</p>[DhtmlXQ][DhtmlXQ_title]t[/DhtmlXQ_title]"
				   "[/DhtmlXQ]\xFF";
	struct xqi_read_opts opts = XQI_READ_OPTS_INIT;
	const struct xq_diagnostic *d;
	int n;

	(void)state;
	/* Random bytes gave a report each (1.6 million for 16 MiB, all held
	 * until the end since no game came): they hold no record. */
	opts.encoding = XQI_ENC_UTF8;
	n = read_games_opts("dhtmlxq", text, sizeof(text) - 1, g, MAX_GAMES, &c, NULL, &opts);
	assert_int_equal(n, 1);
	assert_false(g[0].flags & XQI_RECORD_BROKEN);
	assert_int_equal(c.n, 1);
	d = find_diag(&c, XQI_D_ENCODING, "4 bytes outside the DhtmlXQ records are not text");
	assert_non_null(d);
	assert_int_equal(d->place.offset, 0);
	release_games(g, n);
}

static void element_cut_short_without_a_wrapper_is_no_record(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	/* It was read as an empty record, again and again, for ever. */
	n = READ("[DhtmlXQ_", g, &c);
	assert_int_equal(n, 0);
	assert_non_null(find_diag(&c, XQI_D_SYNTAX, "'[DhtmlXQ_' that opens no element"));
	assert_non_null(find_diag(&c, XQI_D_EMPTY_GAME, "no DhtmlXQ record"));
	memset(&c, 0, sizeof(c));
	n = READ("[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n[DhtmlXQ_movel", g, &c);
	assert_int_equal(n, 1);
	assert_int_equal(g[0].nodes[1].move, mv("h2e2"));
	assert_non_null(find_diag(&c, XQI_D_SYNTAX, "'[DhtmlXQ_' that opens no element"));
	release_games(g, n);
}

static void url_encoded_record_that_is_not_utf8_does_not_end_the_input(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	/* Its "no game" was taken for the end of the input. */
	n = READ("<a href=\"?%5BDhtmlXQ%5D%FF%5B/DhtmlXQ%5D\">x</a>\n"
		 "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]",
		 g, &c);
	assert_int_equal(n, 1);
	assert_int_equal(g[0].nodes[1].move, mv("h2e2"));
	assert_non_null(find_diag(&c, XQI_D_ENCODING, "URL-encoded DhtmlXQ record"));
	release_games(g, n);
}

static void input_holding_no_record_for_16_mib_is_read_no_further(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	size_t len = (size_t)(XQI_SKIP_MAX + (1 << 20));
	char *text = malloc(len);
	const struct xq_diagnostic *d;
	int n, rc;

	(void)state;
	assert_non_null(text);
	memset(text, 'x', len);
	memcpy(text, "\n\n", 2);
	/* A record after the limit is not reached. */
	memcpy(text + len - 60, "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]", 59);
	n = read_games("dhtmlxq", text, len, g, MAX_GAMES, &c, &rc);
	assert_int_equal(n, 0);
	assert_int_equal(rc, XQ_ERANGE);
	d = find_diag(&c, XQI_D_RESOURCE, "more than 16 MiB of input from here hold no DhtmlXQ record");
	assert_non_null(d);
	assert_int_equal(d->place.line, 1);
	assert_int_equal(d->place.col, 1);
	free(text);
}

static void input_without_records_is_warned_about(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	n = READ("just some text", g, &c);
	assert_int_equal(n, 0);
	assert_non_null(find_diag(&c, XQI_D_EMPTY_GAME, "no DhtmlXQ record"));
	memset(&c, 0, sizeof(c));
	n = READ("[DHJHtmlXQ][DHJHtmlXQ_34]1213[/DHJHtmlXQ_34][/DHJHtmlXQ]", g, &c);
	assert_int_equal(n, 0);
	assert_non_null(find_diag(&c, XQI_D_UNSUPPORTED, "DHJHtmlXQ"));
}

static void bad_setups_are_reported(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	n = READ("[DhtmlXQ][DhtmlXQ_binit]0919[/DhtmlXQ_binit][/DhtmlXQ]"
		 "[DhtmlXQ][DhtmlXQ_fen]rnbakabnr/9/9/9 w[/DhtmlXQ_fen][DhtmlXQ_comment0]kept[/DhtmlXQ_comment0][/DhtmlXQ]"
		 "[DhtmlXQ][DhtmlXQ_binit]0909999999999999999999999999999999999999999999999999999999999999[/DhtmlXQ_binit][/DhtmlXQ]",
		 g, &c);
	assert_int_equal(n, 3);
	assert_non_null(find_diag(&c, XQI_D_BAD_FEN, "has 4 digits, not 64"));
	assert_non_null(find_diag(&c, XQI_D_BAD_FEN, "[DhtmlXQ_fen]"));
	assert_non_null(find_diag(&c, XQI_D_BAD_FEN, "piece 2 at \"09\""));
	for (int i = 0; i < 3; i++)
		assert_true(g[i].flags & XQI_RECORD_BROKEN);
	assert_string_equal(g[1].nodes[XQI_ROOT].comment, "kept");
	release_games(g, n);
}

/* A game with nested variations, comments everywhere and tags of every kind. */
static void build_game(struct xqi_record *g)
{
	static const char *const main_line[] = {"h2e2", "h7e7", "h0g2", "h9g7", "i0h0"};
	uint32_t n[8], alt, alt2;

	assert_int_equal(xqi_record_init(g), 0);
	xqi_record_add_tag(g, "Title", 5, "测试", 6);
	xqi_record_add_tag(g, "Site", 4, "北京", 6);
	xqi_record_add_tag(g, "Result", 6, "1-0", 3);
	xqi_record_add_tag(g, "RedRating", 9, "2500", 4);
	xqi_record_add_tag(g, "Annotator", 9, "someone", 7);
	g->result = XQI_RESULT_RED_WIN;
	n[0] = XQI_ROOT;
	for (int i = 0; i < 5; i++)
		assert_int_equal(xqi_record_add_move(g, n[i], mv(main_line[i]), &n[i + 1]), 0);
	/* Alternatives: b9c7 for ply 2 with its own continuation and a nested one. */
	assert_int_equal(xqi_record_add_move(g, n[1], mv("b9c7"), &alt), 0);
	assert_int_equal(xqi_record_add_move(g, alt, mv("h0g2"), &alt2), 0);
	assert_int_equal(xqi_record_add_move(g, alt, mv("b0c2"), NULL), 0);
	assert_int_equal(xqi_record_add_move(g, alt2, mv("h9g7"), NULL), 0);
	assert_int_equal(xqi_record_add_move(g, n[1], mv("g6g5"), NULL), 0);
	assert_int_equal(xqi_record_add_move(g, XQI_ROOT, mv("c3c4"), NULL), 0);
	xqi_record_set_comment(g, XQI_ROOT, "game || note\nsecond", 20);
	xqi_record_set_comment(g, n[2], "main two", 8);
	xqi_record_set_comment(g, alt2, "nested \\u1234 [DhtmlXQ_x]", 25);
}

static void round_trip_keeps_tree_comments_tags_and_result(void **state)
{
	static struct collected c;
	struct xqi_record g, back[MAX_GAMES];
	struct xq_buf out = XQ_BUF_INIT;
	int n;

	(void)state;
	build_game(&g);
	assert_int_equal(write_games("dhtmlxq", &g, 1, &out, &c), 0);
	assert_int_equal(c.n, 0);
	n = read_games("dhtmlxq", out.ptr, out.len, back, MAX_GAMES, &c, NULL);
	assert_int_equal(n, 1);
	drop_result_notes(&c);
	if (c.n)
		print_diags(&c);
	assert_int_equal(c.n, 0);
	ASSERT_GAMES_EQUAL(&g, &back[0], 0);
	assert_string_equal(back[0].result_text, "红胜");
	/* The branch layout DhtmlXQ readers expect, numbered breadth first. */
	assert_non_null(strstr(out.ptr, "[DhtmlXQ_move_0_1_1]2625[/DhtmlXQ_move_0_1_1]"));
	assert_non_null(strstr(out.ptr, "[DhtmlXQ_move_0_2_2]102279677062[/DhtmlXQ_move_0_2_2]"));
	assert_non_null(strstr(out.ptr, "[DhtmlXQ_move_0_2_3]6364[/DhtmlXQ_move_0_2_3]"));
	assert_non_null(strstr(out.ptr, "[DhtmlXQ_move_2_3_4]1927[/DhtmlXQ_move_2_3_4]"));
	assert_non_null(strstr(out.ptr, "[DhtmlXQ_comment2_3]nested \\u005cu1234 \\u005bDhtmlXQ_x]"));
	assert_non_null(strstr(out.ptr, "[DhtmlXQ_comment0]game |\\u007c note||second"));
	release_games(back, n);
	xqi_record_release(&g);
	xq_buf_release(&out);
}

static void writer_reports_what_dhtmlxq_cannot_hold(void **state)
{
	static struct collected c;
	struct xqi_record g;
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	build_game(&g);
	xqi_record_add_nag(&g, 1, 1);
	xqi_record_set_pre_comment(&g, 2, "before", 6);
	xqi_record_add_tag(&g, "棋谱名称", strlen("棋谱名称"), "x", 1);
	xqi_record_add_tag(&g, "Movelist", 8, "x", 1);
	assert_int_equal(write_games("dhtmlxq", &g, 1, &out, &c), 0);
	assert_non_null(find_diag(&c, XQI_D_LOSS, "1 NAGs (the first at ply 1)"));
	assert_non_null(find_diag(&c, XQI_D_LOSS, "1 comments before a move (the first at ply 2)"));
	assert_non_null(find_diag(&c, XQI_D_LOSS, "tag '棋谱名称'"));
	assert_non_null(find_diag(&c, XQI_D_LOSS, "tag 'Movelist'"));
	/* Found by fuzz_dhtmlxq: a result word holding a tag ended the record early. */
	memset(&c, 0, sizeof(c));
	g.result = XQI_RESULT_UNKNOWN;
	g.result_text = "V[DhtmlXQ]x";
	xq_buf_reset(&out);
	assert_int_equal(write_games("dhtmlxq", &g, 1, &out, &c), 0);
	assert_non_null(strstr(out.ptr, "[DhtmlXQ_result]V\xEF\xBC\xBB" "DhtmlXQ]x[/DhtmlXQ_result]"));
	assert_non_null(find_diag(&c, XQI_D_LOSS, "tag Result: '[' before DhtmlXQ"));
	assert_int_equal(c.d[0].severity, XQ_SEVERITY_WARNING);
	xqi_record_release(&g);
	xq_buf_release(&out);
}

static void bars_next_to_line_ends_in_a_comment_come_back_as_written(void **state)
{
	static const char *const comments[] = {"a|\nb", "a\n|b", "a||\n|b", "|\n", "a|||b\n|"};
	static struct collected c;
	struct xqi_record g, back[MAX_GAMES];

	(void)state;
	/* "|" then a newline was written "|||", read back as a newline and
	 * a bar (found by fuzz_dhtmlxq). */
	for (size_t i = 0; i < sizeof(comments) / sizeof(comments[0]); i++) {
		struct xq_buf out = XQ_BUF_INIT;
		int n;
		assert_int_equal(xqi_record_init(&g), 0);
		xqi_record_set_comment(&g, XQI_ROOT, comments[i], strlen(comments[i]));
		memset(&c, 0, sizeof(c));
		assert_int_equal(write_games("dhtmlxq", &g, 1, &out, &c), 0);
		n = read_games("dhtmlxq", out.ptr, out.len, back, MAX_GAMES, &c, NULL);
		assert_int_equal(n, 1);
		assert_string_equal(back[0].nodes[XQI_ROOT].comment, comments[i]);
		release_games(back, n);
		xqi_record_release(&g);
		xq_buf_release(&out);
	}
}

static void tags_and_line_ends_keep_their_spelling_through_dhtmlxq(void **state)
{
	static struct collected c;
	struct xqi_record g, back[MAX_GAMES];
	struct xq_buf out = XQ_BUF_INIT;
	int n;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	xqi_record_add_tag(&g, "DateModified", 12, "2024", 4);
	xqi_record_add_tag(&g, "URL", 3, "u", 1);
	xqi_record_add_tag(&g, "Owner", 5, "o", 1);
	xqi_record_add_tag(&g, "RedElo", 6, "1", 1);
	xqi_record_add_tag(&g, "Place", 5, "p", 1);
	xqi_record_set_comment(&g, XQI_ROOT, "a\r\nb\rc", 7);
	assert_int_equal(write_games("dhtmlxq", &g, 1, &out, &c), 0);
	assert_non_null(strstr(out.ptr, "[DhtmlXQ_DateModified]2024[/DhtmlXQ_DateModified]"));
	assert_non_null(strstr(out.ptr, "[DhtmlXQ_URL]u[/DhtmlXQ_URL]"));
	assert_non_null(strstr(out.ptr, "[DhtmlXQ_owner]o[/DhtmlXQ_owner]"));
	assert_non_null(strstr(out.ptr, "[DhtmlXQ_redelo]1[/DhtmlXQ_redelo]"));
	/* "place" would read back as Site. */
	assert_non_null(find_diag(&c, XQI_D_LOSS, "tag 'Place'"));
	xqi_record_remove_tag(&g, "Place");
	memset(&c, 0, sizeof(c));
	n = read_games("dhtmlxq", out.ptr, out.len, back, MAX_GAMES, &c, NULL);
	assert_int_equal(n, 1);
	assert_int_equal(c.n, 0);
	ASSERT_GAMES_EQUAL(&g, &back[0], 0);
	release_games(back, n);
	xqi_record_release(&g);
	xq_buf_release(&out);
}

static void writer_in_gbk_reports_characters_it_cannot_hold(void **state)
{
	static struct collected c;
	struct xqi_record g, back[MAX_GAMES];
	struct xq_buf out = XQ_BUF_INIT;
	struct xqi_write_opts opts = XQI_WRITE_OPTS_INIT;
	int n;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	xqi_record_add_tag(&g, "Title", 5, "炮\xF0\x9F\x98\x80", 7); /* an emoji GBK lacks */
	opts.encoding = XQI_ENC_GBK;
	assert_int_equal(write_games_opts("dhtmlxq", &g, 1, &out, &c, &opts), 0);
	assert_non_null(strstr(out.ptr, "\xC5\xDA?"));
	assert_non_null(find_diag(&c, XQI_D_LOSS, "cannot be written in gbk"));
	memset(&c, 0, sizeof(c));
	n = read_games("dhtmlxq", out.ptr, out.len, back, MAX_GAMES, &c, NULL);
	assert_int_equal(n, 1);
	assert_string_equal(xqi_record_tag(&back[0], "Title"), "炮?");
	release_games(back, n);
	xqi_record_release(&g);
	xq_buf_release(&out);
}

static void black_to_move_is_written_so_that_it_reads_back(void **state)
{
	static struct collected c;
	struct xqi_record g, back[MAX_GAMES];
	struct xq_buf out = XQ_BUF_INIT;
	struct xq_diagnostic d;
	int n;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_position_from_fen(&g.start, "4k4/9/9/9/9/9/9/9/9/R2K5 b - - 0 5", 34, 0, &d), 0);
	assert_int_equal(write_games("dhtmlxq", &g, 1, &out, &c), 0);
	assert_non_null(strstr(out.ptr, "[DhtmlXQ_fen]4k4/9/9/9/9/9/9/9/9/R2K5 b - - 0 5[/DhtmlXQ_fen]"));
	n = read_games("dhtmlxq", out.ptr, out.len, back, MAX_GAMES, &c, NULL);
	assert_int_equal(n, 1);
	assert_int_equal(back[0].start.side, XQI_BLACK);
	ASSERT_GAMES_EQUAL(&g, &back[0], 0);
	release_games(back, n);
	xqi_record_release(&g);
	xq_buf_release(&out);
}

/*
 * With black to move the writer adds a FEN to the binit, and the reader
 * prefers the FEN; the binit must still give each piece its slot, or two
 * pieces of a kind (here the red rooks: a0 in the first rook's slot, i8 in
 * the second, where a FEN read from the top would put them the other way)
 * change slots and the game read back writes another binit.  Found by the
 * fuzz target.
 */
static void binit_with_a_fen_reads_back_to_the_same_binit(void **state)
{
	static const char text[] =
		"[DhtmlXQ][DhtmlXQ_binit]0919293949596979811777062646668600102030405060708012720323436383"
		"[/DhtmlXQ_binit][DhtmlXQ_movelist]7062[/DhtmlXQ_movelist][/DhtmlXQ]";
	static struct collected c;
	struct xqi_record g[MAX_GAMES], back[MAX_GAMES];
	struct xq_buf out = XQ_BUF_INIT, again = XQ_BUF_INIT;
	int n, m;

	(void)state;
	n = READ(text, g, &c);
	assert_int_equal(n, 1);
	for (int i = 0; i < c.n; i++)
		assert_int_not_equal(c.d[i].severity, XQ_SEVERITY_ERROR);
	assert_int_equal(write_games("dhtmlxq", g, n, &out, &c), 0);
	assert_non_null(strstr(out.ptr, "[DhtmlXQ_binit]0919293949596979811777062646668600102030405060708012720323436383[/DhtmlXQ_binit]"));
	assert_non_null(strstr(out.ptr, "[DhtmlXQ_fen]"));
	m = read_games("dhtmlxq", out.ptr, out.len, back, MAX_GAMES, &c, NULL);
	assert_int_equal(m, 1);
	assert_int_equal(write_games("dhtmlxq", back, m, &again, &c), 0);
	assert_string_equal(again.ptr, out.ptr);
	release_games(g, n);
	release_games(back, m);
	xq_buf_release(&out);
	xq_buf_release(&again);
}

/* Call fn(path, row) for every corpus file whose format guess contains `what`. */
static int for_corpus(const char *what, void (*fn)(const char *path, void *arg), void *arg)
{
	const char *dir = test_shared_dir();
	char path[4096], line[8192];
	FILE *f;
	int files = 0;

	snprintf(path, sizeof(path), "%.2000s/corpus/pgn/MANIFEST.tsv", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *col[8];
		int k = 0;
		col[k++] = line;
		for (char *p = line; *p && k < 8; p++)
			if (*p == '\t') {
				*p = '\0';
				col[k++] = p + 1;
			}
		if (k < 5 || !strstr(col[4], what))
			continue;
		for (char *p = col[0]; *p; p++)
			if (*p == '/') {
				snprintf(path, sizeof(path), "%.1000s/corpus/pgn/%.*s__%.500s/%.1000s",
					 dir, (int)(p - col[0]), col[0], p + 1, col[2]);
				break;
			}
		fn(path, arg);
		files++;
	}
	fclose(f);
	return files;
}

struct corpus_stats {
	int files, games, broken, cut, illegal;
};

static void read_and_round_trip(const char *path, void *arg)
{
	static struct collected c, c2;
	static struct xqi_record g[MAX_GAMES], back[MAX_GAMES];
	struct corpus_stats *st = arg;
	struct xq_buf out = XQ_BUF_INIT;
	size_t len;
	char *data = slurp(path, &len);
	int n, m, rc;

	if (!data)
		fail_msg("cannot read %s", path);
	memset(&c, 0, sizeof(c));
	memset(&c2, 0, sizeof(c2));
	n = read_games("dhtmlxq", data, len, g, MAX_GAMES, &c, &rc);
	if (n < 1 || rc != 0) {
		print_diags(&c);
		fail_msg("%s: %d games, rc %d", path, n, rc);
	}
	/* The only errors the corpus holds are illegal moves. */
	for (int i = 0; i < c.n; i++)
		if (c.d[i].severity == XQ_SEVERITY_ERROR && c.d[i].code != XQI_D_ILLEGAL_MOVE) {
			print_diags(&c);
			fail_msg("%s: unexpected error", path);
		}
	st->files++;
	st->games += n;
	for (int i = 0; i < n; i++) {
		st->broken += (g[i].flags & XQI_RECORD_BROKEN) != 0;
		st->cut += (g[i].flags & XQI_RECORD_CUT) != 0;
	}
	st->illegal += find_diag(&c, XQI_D_ILLEGAL_MOVE, "illegal move") != NULL;
	assert_int_equal(write_games("dhtmlxq", g, n, &out, &c2), 0);
	if (c2.n) {
		print_diags(&c2);
		fail_msg("%s: the writer lost something", path);
	}
	m = read_games("dhtmlxq", out.ptr, out.len, back, MAX_GAMES, &c2, &rc);
	assert_int_equal(m, n);
	drop_result_notes(&c2);
	assert_int_equal(c2.n, 0);
	for (int i = 0; i < n; i++)
		ASSERT_GAMES_EQUAL(&g[i], &back[i], 0);
	/* What was read back writes the very same bytes (xqkit convert --verify). */
	{
		struct xq_buf again = XQ_BUF_INIT;
		assert_int_equal(write_games("dhtmlxq", back, m, &again, &c2), 0);
		assert_int_equal(again.len, out.len);
		assert_memory_equal(again.ptr, out.ptr, out.len);
		xq_buf_release(&again);
	}
	release_games(g, n);
	release_games(back, m);
	xq_buf_release(&out);
	free(data);
}

static void every_corpus_file_reads_and_round_trips(void **state)
{
	struct corpus_stats st = {0, 0, 0, 0, 0};
	int files;

	(void)state;
	SKIP_WITHOUT_SHARED(test_shared_dir());
	files = for_corpus("DhtmlXQ", read_and_round_trip, &st);
	assert_int_equal(files, st.files);
	assert_true(files >= 600);
	assert_int_equal(st.games, files); /* one record each */
	/* Five records carry an illegal move (vschess's big file and four WXF
	 * games): on the main line in the four WXF games, which are broken;
	 * in a branch in vschess's, which is cut there and kept. */
	assert_int_equal(st.illegal, 5);
	assert_int_equal(st.broken, 4);
	assert_int_equal(st.cut, 1);
}

struct mate_stats {
	int mates, agree;
};

static void check_mate_result(const char *path, void *arg)
{
	static struct collected c;
	static struct xqi_record g[MAX_GAMES];
	struct mate_stats *st = arg;
	struct xqi_position b;
	size_t len;
	char *data = slurp(path, &len);
	int n;

	assert_non_null(data);
	memset(&c, 0, sizeof(c));
	n = read_games("dhtmlxq", data, len, g, MAX_GAMES, &c, NULL);
	for (int i = 0; i < n; i++) {
		const char *word = g[i].result_text;
		xqi_record_board_at(&g[i], xqi_record_mainline_end(&g[i]), &b);
		if (!word || strlen(word) != 1 || xqi_position_status(&b) != XQ_STATE_CHECKMATE)
			continue;
		st->mates++;
		/* The side to move is mated: red wins when it is black. */
		st->agree += (b.side == XQI_BLACK) == (g[i].result == XQI_RESULT_RED_WIN);
	}
	release_games(g, n);
	free(data);
}

static void wxf_database_results_are_reds_results(void **state)
{
	struct mate_stats st = {0, 0};

	(void)state;
	SKIP_WITHOUT_SHARED(test_shared_dir());
	for_corpus("DhtmlXQ", check_mate_result, &st);
	/* Every W/L game that ends in mate names the mated side's opponent as red's result. */
	assert_true(st.mates >= 10); /* 13 in the corpus */
	assert_int_equal(st.agree, st.mates);
}

static void fixtures_from_the_corpus_read(void **state)
{
	static const char *const files[] = {"game.ubb", "116.html", "utf8-names.ubb"};

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		static struct collected c;
		struct xqi_record g[MAX_GAMES];
		size_t len;
		char *data = fixture(files[i], &len);
		int n, rc;
		memset(&c, 0, sizeof(c));
		n = read_games("dhtmlxq", data, len, g, MAX_GAMES, &c, &rc);
		assert_int_equal(n, 1);
		assert_int_equal(rc, 0);
		assert_int_equal(count_diags(&c, XQ_SEVERITY_WARNING), 0);
		assert_true(g[0].nnodes > 20);
		release_games(g, n);
		free(data);
	}
}

static void probe_finds_records(void **state)
{
	const struct xqi_format *f = xqi_format_find("dhtmlxq");
	static const char a[] = "<html>...[DhtmlXQ]", b[] = "x%5BDhtmlXQ%5D", c[] = "[Event \"x\"]";

	(void)state;
	assert_int_equal(f->probe((const unsigned char *)a, sizeof(a) - 1), 90);
	assert_int_equal(f->probe((const unsigned char *)b, sizeof(b) - 1), 80);
	assert_int_equal(f->probe((const unsigned char *)c, sizeof(c) - 1), 0);
	assert_ptr_equal(xqi_format_detect((const unsigned char *)a, sizeof(a) - 1, "x.html"), f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(digit_squares_count_rows_from_the_top),
		cmocka_unit_test(branches_attach_to_the_ply_they_leave),
		cmocka_unit_test(branch_of_a_branch_hangs_from_its_parent_branch),
		cmocka_unit_test(branches_listed_before_their_parent_are_placed),
		cmocka_unit_test(branches_far_down_long_lines_start_from_the_position_there),
		cmocka_unit_test(comments_attach_to_main_line_and_branch_moves),
		cmocka_unit_test(comment_bars_are_newlines_and_escapes_are_characters),
		cmocka_unit_test(comment_for_a_missing_move_is_reported),
		cmocka_unit_test(header_elements_map_to_canonical_tags),
		cmocka_unit_test(header_tags_keep_the_place_of_their_value),
		cmocka_unit_test(other_elements_keep_their_capitalised_names),
		cmocka_unit_test(an_element_named_fen_in_capitals_is_no_tag_so_the_game_comes_back_whole),
		cmocka_unit_test(result_words_become_results),
		cmocka_unit_test(unknown_result_word_is_kept_as_a_tag_and_noted),
		cmocka_unit_test(binit_sets_up_the_position_and_99_is_absent),
		cmocka_unit_test(side_to_move_comes_from_the_first_move),
		cmocka_unit_test(fen_whose_side_disagrees_with_the_first_move_is_noted),
		cmocka_unit_test(fen_with_the_wrong_side_to_move_is_read_with_the_right_one),
		cmocka_unit_test(illegal_move_stops_its_line_with_a_located_diagnostic),
		cmocka_unit_test(branch_below_an_illegal_move_is_reported),
		cmocka_unit_test(illegal_move_in_a_branch_cuts_that_branch_and_those_below_it),
		cmocka_unit_test(malformed_branches_are_reported),
		cmocka_unit_test(many_records_in_one_file_are_numbered),
		cmocka_unit_test(records_in_html_are_found_and_references_decoded),
		cmocka_unit_test(url_encoded_record_is_decoded),
		cmocka_unit_test(url_encoded_character_beyond_the_bmp_is_read_from_its_two_surrogates),
		cmocka_unit_test(elements_without_a_wrapper_form_records),
		cmocka_unit_test(text_between_elements_is_reported),
		cmocka_unit_test(mismatched_closing_tag_is_noted),
		cmocka_unit_test(record_without_its_closing_tag_reads_to_the_end),
		cmocka_unit_test(gbk_text_is_decoded),
		cmocka_unit_test(byte_that_is_not_text_in_a_value_is_replaced_and_warned_about),
		cmocka_unit_test(byte_that_is_not_text_in_the_moves_breaks_its_record),
		cmocka_unit_test(nul_character_in_a_value_is_replaced_as_no_text),
		cmocka_unit_test(nul_run_is_reported_once),
		cmocka_unit_test(bytes_that_are_not_text_outside_records_are_counted_in_one_report),
		cmocka_unit_test(element_cut_short_without_a_wrapper_is_no_record),
		cmocka_unit_test(url_encoded_record_that_is_not_utf8_does_not_end_the_input),
		cmocka_unit_test(input_holding_no_record_for_16_mib_is_read_no_further),
		cmocka_unit_test(gbk_record_in_a_utf8_file_is_read_as_gbk_with_a_warning),
		cmocka_unit_test(input_without_records_is_warned_about),
		cmocka_unit_test(bad_setups_are_reported),
		cmocka_unit_test(round_trip_keeps_tree_comments_tags_and_result),
		cmocka_unit_test(writer_reports_what_dhtmlxq_cannot_hold),
		cmocka_unit_test(bars_next_to_line_ends_in_a_comment_come_back_as_written),
		cmocka_unit_test(tags_and_line_ends_keep_their_spelling_through_dhtmlxq),
		cmocka_unit_test(writer_in_gbk_reports_characters_it_cannot_hold),
		cmocka_unit_test(black_to_move_is_written_so_that_it_reads_back),
		cmocka_unit_test(binit_with_a_fen_reads_back_to_the_same_binit),
		cmocka_unit_test(fixtures_from_the_corpus_read),
		cmocka_unit_test(probe_finds_records),
		cmocka_unit_test(every_corpus_file_reads_and_round_trips),
		cmocka_unit_test(wxf_database_results_are_reds_results),
	};
	return cmocka_run_group_tests_name("dhtmlxq", tests, NULL, NULL);
}
