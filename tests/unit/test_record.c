/*
 * test_record.c: the game record: tags, the move tree, iteration without
 * recursion, positions along the tree, comparison.
 */
#include "testutil.h"

#include "position.h"
#include "record.h"
#include "movegen.h"

static xqi_move mv(const char *iccs)
{
	return XQI_MOVE(XQI_SQ(iccs[0] - 'a', iccs[1] - '0'), XQI_SQ(iccs[2] - 'a', iccs[3] - '0'));
}

static void tags_keep_their_order_and_duplicates(void **state)
{
	struct xqi_record g;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	xqi_record_add_tag(&g, "Game", 4, "Chinese Chess", 13);
	xqi_record_add_tag(&g, "Event", 5, "全国象棋个人赛", strlen("全国象棋个人赛"));
	xqi_record_add_tag(&g, "PlayType", 8, "x", 1);
	xqi_record_add_tag(&g, "PlayType", 8, "y", 1);
	assert_int_equal(g.ntags, 4);
	assert_string_equal(g.tags[1].value, "全国象棋个人赛");
	assert_string_equal(xqi_record_tag(&g, "PlayType"), "x");
	assert_int_equal(xqi_record_set_tag(&g, "Event", "b"), 0);
	assert_string_equal(g.tags[1].value, "b");
	assert_int_equal(xqi_record_remove_tag(&g, "PlayType"), 2);
	assert_int_equal(g.ntags, 2);
	assert_null(xqi_record_tag(&g, "Missing"));
	xqi_record_release(&g);
}

/* A tag added with its place keeps it, so a diagnostic can point there;
 * one added without has none, and asking for it says so. */
static void tag_keeps_the_place_the_source_wrote_it_at(void **state)
{
	struct xqi_record g;
	struct xqi_place at = {120, 7, 3}, got;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(xqi_record_add_tag(&g, "Event", 5, "e", 1), 0);
	assert_int_equal(xqi_record_add_tag_at(&g, "Date", 4, "2006.13.45", 10, &at), 0);
	assert_int_equal(xqi_record_tag_place(&g, "Date", &got), 1);
	assert_int_equal(got.offset, 120);
	assert_int_equal(got.line, 7);
	assert_int_equal(got.col, 3);
	assert_int_equal(xqi_record_tag_place(&g, "Event", &got), 0);
	assert_int_equal(xqi_record_tag_place(&g, "Site", &got), 0);
	/* Removing a tag before it keeps the place with its tag. */
	assert_int_equal(xqi_record_remove_tag(&g, "Event"), 1);
	assert_int_equal(xqi_record_tag_place(&g, "Date", &got), 1);
	assert_int_equal(got.line, 7);
	xqi_record_release(&g);
}

/* Main line h2e2 h9g7 h0g2, with alternatives to the second move. */
static void build_small_tree(struct xqi_record *g, uint32_t *alt)
{
	uint32_t a, b, c, v;

	assert_int_equal(xqi_record_init(g), 0);
	assert_int_equal(xqi_record_add_move(g, XQI_ROOT, mv("h2e2"), &a), 0);
	assert_int_equal(xqi_record_add_move(g, a, mv("h9g7"), &b), 0);
	assert_int_equal(xqi_record_add_move(g, b, mv("h0g2"), &c), 0);
	assert_int_equal(xqi_record_add_move(g, a, mv("b9c7"), &v), 0);
	assert_int_equal(xqi_record_add_move(g, a, mv("h7e7"), alt), 0);
	xqi_record_set_comment(g, XQI_ROOT, "game comment", 12);
	xqi_record_set_comment(g, v, "a variation", 11);
	xqi_record_add_nag(g, c, 1);
}

static void first_child_is_the_main_line_and_siblings_are_variations(void **state)
{
	struct xqi_record g;
	struct xqi_record_counts n;
	uint32_t alt;

	(void)state;
	build_small_tree(&g, &alt);
	assert_int_equal(xqi_record_mainline_length(&g), 3);
	assert_int_equal(g.nodes[xqi_record_mainline_end(&g)].move, mv("h0g2"));
	assert_int_equal(xqi_record_ply(&g, alt), 2);
	xqi_record_count(&g, &n);
	assert_int_equal(n.nodes, 5);
	assert_int_equal(n.variations, 2);
	assert_int_equal(n.comments, 2);
	assert_int_equal(n.nags, 1);
	assert_int_equal(n.max_depth, 3);
	xqi_record_release(&g);
}

static void preorder_visits_node_subtree_then_later_siblings(void **state)
{
	struct xqi_record g;
	uint32_t alt, n;
	const char *expect[] = {"h2e2", "h9g7", "h0g2", "b9c7", "h7e7"};
	int i = 0;

	(void)state;
	build_small_tree(&g, &alt);
	for (n = xqi_record_next(&g, XQI_ROOT); n != XQ_NO_NODE; n = xqi_record_next(&g, n)) {
		char name[5];
		xqi_move_name(g.nodes[n].move, name);
		assert_string_equal(name, expect[i++]);
	}
	assert_int_equal(i, 5);
	xqi_record_release(&g);
}

static void walk_gives_the_position_before_and_after_each_move(void **state)
{
	struct xqi_record g;
	struct xqi_walk w;
	uint32_t alt;
	int steps = 0;

	(void)state;
	build_small_tree(&g, &alt);
	xqi_walk_init(&w, &g);
	while (xqi_walk_next(&w) == 1) {
		struct xqi_position expect;
		xqi_record_board_at(&g, w.node, &expect);
		assert_memory_equal(&w.after, &expect, sizeof(expect));
		xqi_record_board_at(&g, g.nodes[w.node].parent, &expect);
		assert_memory_equal(&w.before, &expect, sizeof(expect));
		assert_true(xqi_move_is_legal(&expect, g.nodes[w.node].move));
		steps++;
	}
	assert_int_equal(steps, 5);
	xqi_walk_release(&w);
	xqi_record_release(&g);
}

static void deep_lines_are_walked_without_recursion(void **state)
{
	/* 100,000 plies of horse shuffling: recursion would overflow the stack. */
	struct xqi_record g;
	struct xqi_walk w;
	uint32_t n = XQI_ROOT;
	static const char *cycle[4] = {"b0c2", "b9c7", "c2b0", "c7b9"};
	long steps = 0;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	for (int i = 0; i < 100000; i++)
		assert_int_equal(xqi_record_add_move(&g, n, mv(cycle[i % 4]), &n), 0);
	assert_int_equal(xqi_record_mainline_length(&g), 100000);
	xqi_walk_init(&w, &g);
	while (xqi_walk_next(&w) == 1)
		steps++;
	assert_int_equal(steps, 100000);
	xqi_walk_release(&w);
	xqi_record_release(&g);
}

/* The position at a node far down a line (a path longer than the one
 * kept on the stack) is the one a walk reaches there. */
static void position_far_down_a_line_is_the_walks(void **state)
{
	static const char *cycle[4] = {"b0c2", "b9c7", "c2b0", "c7b9"};
	struct xqi_record g;
	struct xqi_walk w;
	struct xqi_position at;
	uint32_t n = XQI_ROOT, last;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(xqi_record_add_move(&g, n, mv("h0g2"), &n), 0);
	assert_int_equal(xqi_record_add_move(&g, n, mv("h9g7"), &n), 0);
	for (int i = 0; i < 1001; i++)
		assert_int_equal(xqi_record_add_move(&g, n, mv(cycle[i % 4]), &n), 0);
	last = n;
	xqi_walk_init(&w, &g);
	while (xqi_walk_next(&w) == 1 && w.node != last)
		;
	assert_int_equal(w.node, last);
	xqi_record_board_at(&g, last, &at);
	assert_memory_equal(&at, &w.after, sizeof(at));
	assert_int_equal(at.side, XQI_BLACK);
	xqi_walk_release(&w);
	xqi_record_release(&g);
}

static void appending_the_nth_alternative_does_not_walk_its_siblings(void **state)
{
	/* The new alternative is linked after the parent's last child as
	 * recorded, never found by walking the sibling list: here the list is
	 * cut after the first child, and a walk would stop there. */
	struct xqi_record g;
	uint32_t a, b, c, d;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(xqi_record_add_move(&g, XQI_ROOT, mv("h2e2"), &a), 0);
	assert_int_equal(xqi_record_add_move(&g, XQI_ROOT, mv("b2e2"), &b), 0);
	assert_int_equal(xqi_record_add_move(&g, XQI_ROOT, mv("c3c4"), &c), 0);
	assert_int_equal(g.nodes[XQI_ROOT].last_child, c);
	g.nodes[a].sibling = XQ_NO_NODE;
	assert_int_equal(xqi_record_add_move(&g, XQI_ROOT, mv("g3g4"), &d), 0);
	assert_int_equal(g.nodes[c].sibling, d);
	assert_int_equal(g.nodes[a].sibling, XQ_NO_NODE);
	assert_int_equal(g.nodes[XQI_ROOT].last_child, d);
	assert_int_equal(g.nodes[d].last_child, XQ_NO_NODE);
	xqi_record_release(&g);
}

static void many_alternatives_keep_the_order_they_were_added_in(void **state)
{
	struct xqi_record g;
	uint32_t first, n, k = 0;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(xqi_record_add_move(&g, XQI_ROOT, mv("h2e2"), &first), 0);
	for (int i = 0; i < 100000; i++)
		assert_int_equal(xqi_record_add_move(&g, XQI_ROOT, mv("c3c4"), NULL), 0);
	for (n = first; n != XQ_NO_NODE; n = g.nodes[n].sibling)
		assert_int_equal(n, first + k++);
	assert_int_equal(k, 100001);
	assert_int_equal(g.nodes[XQI_ROOT].last_child, first + 100000);
	xqi_record_release(&g);
}

static void next_ply_keeps_the_ply_of_every_node_in_preorder(void **state)
{
	struct xqi_record g;
	uint32_t alt, n, ply = 0, visited = 0, v;

	(void)state;
	build_small_tree(&g, &alt);
	/* A variation inside a variation, and one two plies deep. */
	assert_int_equal(xqi_record_add_move(&g, alt, mv("h0g2"), &v), 0);
	assert_int_equal(xqi_record_add_move(&g, v, mv("h9g7"), NULL), 0);
	assert_int_equal(xqi_record_add_move(&g, alt, mv("b0c2"), NULL), 0);
	for (n = XQI_ROOT; n != XQ_NO_NODE;) {
		uint32_t next = xqi_record_next(&g, n);
		assert_int_equal(ply, xqi_record_ply(&g, n));
		visited++;
		n = xqi_record_next_ply(&g, n, &ply);
		assert_int_equal(n, next);
	}
	assert_int_equal(visited, g.nnodes);
	xqi_record_release(&g);
}

static void textwalk_gives_moves_in_reading_order_with_variations_opened_and_closed(void **state)
{
	/* 1. h2e2 h9g7 (1... h7e7 2. h0g2 (2. b0c2 b9c7)) (1... b9c7) 2. h0g2 */
	struct xqi_record g;
	struct xqi_textwalk t;
	uint32_t a, b, b2, c, c2, d, b3, e;
	char got[256] = "", fen[XQ_FEN_SIZE];
	int step;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	xqi_record_add_move(&g, XQI_ROOT, mv("h2e2"), &a);
	xqi_record_add_move(&g, a, mv("h9g7"), &b);
	xqi_record_add_move(&g, a, mv("h7e7"), &b2);
	xqi_record_add_move(&g, b2, mv("h0g2"), &c);
	xqi_record_add_move(&g, b2, mv("b0c2"), &c2);
	xqi_record_add_move(&g, c2, mv("b9c7"), &d);
	xqi_record_add_move(&g, a, mv("b9c7"), &b3);
	xqi_record_add_move(&g, b, mv("h0g2"), &e);
	assert_int_equal(xqi_textwalk_init(&t, &g), 0);
	while ((step = xqi_textwalk_next(&t)) > 0) {
		char name[5];
		if (step == XQI_TEXT_MOVE) {
			xqi_move_name(g.nodes[t.node].move, name);
			/* `before` is the position the move is played from, and
			 * `ply` the move's ply. */
			assert_true(xqi_move_is_legal(&t.before, g.nodes[t.node].move));
			assert_int_equal(t.ply, xqi_record_ply(&g, t.node));
			if (t.node == c2) {
				xqi_position_to_fen(&t.before, fen, sizeof(fen));
				assert_string_equal(fen, "rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/"
							 "1C2C4/9/RNBAKABNR w - - 2 2");
			}
		}
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s ",
			 step == XQI_TEXT_MOVE ? name : step == XQI_TEXT_OPEN ? "(" : ")");
	}
	assert_int_equal(step, 0);
	assert_string_equal(got, "h2e2 h9g7 ( h7e7 h0g2 ( b0c2 b9c7 ) ) ( b9c7 ) h0g2 ");
	xqi_textwalk_release(&t);
	(void)d;
	(void)e;
	xqi_record_release(&g);

	/* No move at all: nothing to give. */
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(xqi_textwalk_init(&t, &g), 0);
	assert_int_equal(xqi_textwalk_next(&t), 0);
	xqi_textwalk_release(&t);
	xqi_record_release(&g);
}


static void textwalk_follows_variations_nested_thousands_deep_without_recursion(void **state)
{
	/* Every move has an alternative; red's line goes on from its main move
	 * (its b-horse), black's from the alternative (its h-horse), so each
	 * black move opens a variation inside the last one: 10,000 levels. */
	static const char *main_move[4] = {"b0c2", "b9c7", "c2b0", "b9c7"};
	static const char *alt_move[4] = {"h0g2", "h9g7", "h0g2", "g7h9"};
	struct xqi_record g;
	struct xqi_textwalk t;
	uint32_t n = XQI_ROOT;
	long moves = 0, opened = 0, closed = 0, depth = 0, deepest = 0;
	int step;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	for (int i = 0; i < 20000; i++) {
		uint32_t m, alt;
		assert_int_equal(xqi_record_add_move(&g, n, mv(main_move[i % 4]), &m), 0);
		assert_int_equal(xqi_record_add_move(&g, n, mv(alt_move[i % 4]), &alt), 0);
		n = i % 2 ? alt : m;
	}
	assert_int_equal(xqi_textwalk_init(&t, &g), 0);
	while ((step = xqi_textwalk_next(&t)) > 0) {
		moves += step == XQI_TEXT_MOVE;
		opened += step == XQI_TEXT_OPEN;
		closed += step == XQI_TEXT_CLOSE;
		depth += step == XQI_TEXT_OPEN ? 1 : step == XQI_TEXT_CLOSE ? -1 : 0;
		if (depth > deepest)
			deepest = depth;
	}
	assert_int_equal(step, 0);
	assert_int_equal(moves, 40000);
	assert_int_equal(opened, 20000);
	assert_int_equal(closed, 20000);
	assert_int_equal(deepest, 10000);
	xqi_textwalk_release(&t);
	xqi_record_release(&g);
}


static void equal_games_compare_equal_and_differences_are_named(void **state)
{
	struct xqi_record a, b;
	uint32_t alt;
	char why[256];

	(void)state;
	build_small_tree(&a, &alt);
	build_small_tree(&b, &alt);
	assert_true(xqi_record_equal(&a, &b, 0, why, sizeof(why)));
	xqi_record_set_comment(&b, alt, "new", 3);
	assert_false(xqi_record_equal(&a, &b, 0, why, sizeof(why)));
	assert_non_null(strstr(why, "comments differ"));
	assert_true(xqi_record_equal(&a, &b, XQ_EQUAL_IGNORE_COMMENTS, why, sizeof(why)));
	xqi_record_release(&b);
	build_small_tree(&b, &alt);
	xqi_record_add_move(&b, alt, mv("h0g2"), NULL);
	assert_false(xqi_record_equal(&a, &b, 0, why, sizeof(why)));
	xqi_record_release(&a);
	xqi_record_release(&b);
}

static void clear_reuses_the_game_for_the_next_record(void **state)
{
	struct xqi_record g;
	uint32_t alt;

	(void)state;
	build_small_tree(&g, &alt);
	xqi_record_add_tag(&g, "Red", 3, "x", 1);
	xqi_record_clear(&g);
	assert_int_equal(g.nnodes, 1);
	assert_int_equal(g.ntags, 0);
	assert_null(g.nodes[XQI_ROOT].comment);
	assert_int_equal(g.nodes[XQI_ROOT].child, XQ_NO_NODE);
	xqi_record_release(&g);
}

static void error_text_is_kept_until_the_game_is_cleared(void **state)
{
	struct xqi_record g;
	uint32_t alt;

	(void)state;
	build_small_tree(&g, &alt);
	assert_null(g.error);
	assert_int_equal(xqi_record_set_error(&g, "line 3: bad move and more", 15), 0);
	assert_string_equal(g.error, "line 3: bad mov");
	xqi_record_clear(&g);
	assert_null(g.error);
	xqi_record_release(&g);
}


static void results_parse_and_print(void **state)
{
	enum xqi_result r;

	(void)state;
	assert_int_equal(xqi_result_parse("1-0", 3, &r), 0);
	assert_int_equal(r, XQI_RESULT_RED_WIN);
	assert_int_equal(xqi_result_parse("1/2-1/2", 7, &r), 0);
	assert_int_equal(r, XQI_RESULT_DRAW);
	assert_int_equal(xqi_result_parse("未知", strlen("未知"), &r), -1);
	assert_string_equal(xqi_result_string(XQI_RESULT_BLACK_WIN), "0-1");
	assert_string_equal(xqi_result_string(XQI_RESULT_NONE), "*");
}

/* Results in words, as programs and people write them in place of 1-0. */
static void results_in_words_read_as_the_results_they_say(void **state)
{
	static const struct {
		const char *text;
		int kind;
		enum xqi_result r;
	} cases[] = {
		{"1-0", XQI_RESULT_IS_STANDARD, XQI_RESULT_RED_WIN},
		{" * ", XQI_RESULT_IS_STANDARD, XQI_RESULT_UNKNOWN},
		{"\xC2\xBD-\xC2\xBD", XQI_RESULT_IS_WORD, XQI_RESULT_DRAW},
		{"红胜", XQI_RESULT_IS_WORD, XQI_RESULT_RED_WIN},
		{"红方胜", XQI_RESULT_IS_WORD, XQI_RESULT_RED_WIN},
		{"紅方勝", XQI_RESULT_IS_WORD, XQI_RESULT_RED_WIN},
		{"红先胜", XQI_RESULT_IS_WORD, XQI_RESULT_RED_WIN},
		{"红方获胜", XQI_RESULT_IS_WORD, XQI_RESULT_RED_WIN},
		{"黑负", XQI_RESULT_IS_WORD, XQI_RESULT_RED_WIN},
		{"黑先負", XQI_RESULT_IS_WORD, XQI_RESULT_RED_WIN},
		{"黑胜", XQI_RESULT_IS_WORD, XQI_RESULT_BLACK_WIN},
		{"黑勝", XQI_RESULT_IS_WORD, XQI_RESULT_BLACK_WIN},
		{"红负", XQI_RESULT_IS_WORD, XQI_RESULT_BLACK_WIN},
		{"紅負", XQI_RESULT_IS_WORD, XQI_RESULT_BLACK_WIN},
		{"红输", XQI_RESULT_IS_WORD, XQI_RESULT_BLACK_WIN},
		{"和棋", XQI_RESULT_IS_WORD, XQI_RESULT_DRAW},
		{"和局", XQI_RESULT_IS_WORD, XQI_RESULT_DRAW},
		{"和", XQI_RESULT_IS_WORD, XQI_RESULT_DRAW},
		{"平局", XQI_RESULT_IS_WORD, XQI_RESULT_DRAW},
		{"红和", XQI_RESULT_IS_WORD, XQI_RESULT_DRAW},
		{"先和", XQI_RESULT_IS_WORD, XQI_RESULT_DRAW},
		{"未知", XQI_RESULT_IS_WORD, XQI_RESULT_UNKNOWN},
		{"不詳", XQI_RESULT_IS_WORD, XQI_RESULT_UNKNOWN},
		{"Red wins", XQI_RESULT_IS_WORD, XQI_RESULT_RED_WIN},
		{"RED  WON.", XQI_RESULT_IS_WORD, XQI_RESULT_RED_WIN},
		{"black resigns", XQI_RESULT_IS_WORD, XQI_RESULT_RED_WIN},
		{"Black wins", XQI_RESULT_IS_WORD, XQI_RESULT_BLACK_WIN},
		{"red lost", XQI_RESULT_IS_WORD, XQI_RESULT_BLACK_WIN},
		{"Draw", XQI_RESULT_IS_WORD, XQI_RESULT_DRAW},
		{"drawn game", XQI_RESULT_IS_WORD, XQI_RESULT_DRAW},
		{"unknown", XQI_RESULT_IS_WORD, XQI_RESULT_UNKNOWN},
	};
	enum xqi_result r;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		r = XQI_RESULT_NONE;
		if (xqi_result_word(cases[i].text, strlen(cases[i].text), XQI_RED, &r) != cases[i].kind)
			fail_msg("'%s' is not read as it should be", cases[i].text);
		if (r != cases[i].r)
			fail_msg("'%s' is read as %s", cases[i].text, xqi_result_string(r));
	}
}

/* 先 is whoever moves first, 后 the other; a colour is a colour. */
static void first_and_second_name_the_sides_by_who_moves_first(void **state)
{
	enum xqi_result r;

	(void)state;
	assert_int_equal(xqi_result_word("先胜", strlen("先胜"), XQI_RED, &r), XQI_RESULT_IS_WORD);
	assert_int_equal(r, XQI_RESULT_RED_WIN);
	assert_int_equal(xqi_result_word("先胜", strlen("先胜"), XQI_BLACK, &r), XQI_RESULT_IS_WORD);
	assert_int_equal(r, XQI_RESULT_BLACK_WIN);
	assert_int_equal(xqi_result_word("先负", strlen("先负"), XQI_BLACK, &r), XQI_RESULT_IS_WORD);
	assert_int_equal(r, XQI_RESULT_RED_WIN);
	assert_int_equal(xqi_result_word("后胜", strlen("后胜"), XQI_BLACK, &r), XQI_RESULT_IS_WORD);
	assert_int_equal(r, XQI_RESULT_RED_WIN);
	assert_int_equal(xqi_result_word("後手勝", strlen("後手勝"), XQI_RED, &r), XQI_RESULT_IS_WORD);
	assert_int_equal(r, XQI_RESULT_BLACK_WIN);
	assert_int_equal(xqi_result_word("红胜", strlen("红胜"), XQI_BLACK, &r), XQI_RESULT_IS_WORD);
	assert_int_equal(r, XQI_RESULT_RED_WIN);
}

/* What names no side, or is no result at all, is not read. */
static void words_that_say_no_result_are_not_read(void **state)
{
	static const char *const texts[] = {"胜", "负", "红", "红先", "胜红", "红胜了", "V", "W",
					     "wins", "green wins", "", "  ", "1-0 ", "炮二平五",
					     "后车进一"};
	enum xqi_result r;

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (xqi_result_word(texts[i], strlen(texts[i]), XQI_RED, &r) >= 0 &&
		    strcmp(texts[i], "1-0 "))
			fail_msg("'%s' is read as a result", texts[i]);
	/* (White space around a marker is left out.) */
	assert_int_equal(xqi_result_word("1-0 ", 4, XQI_RED, &r), XQI_RESULT_IS_STANDARD);
}

static void traditional_script_is_told_by_the_first_glyph_that_differs(void **state)
{
	static const struct {
		const char *moves[3];
		int traditional;
	} cases[] = {
		{{"炮二平五", "馬８進７", NULL}, 1},
		{{"炮二平五", "马８进７", NULL}, 0},
		{{"炮二平五", "炮８平５", "傌二進三"}, 1},
		{{"炮二平五", "炮８平５", NULL}, 0},
		{{"h2e2", "馬８進７", NULL}, 0},
	};
	static const char *const iccs[3] = {"h2e2", "h7e7", "h0g2"};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct xqi_record g;
		uint32_t at = XQI_ROOT;
		assert_int_equal(xqi_record_init(&g), 0);
		for (int k = 0; k < 3 && cases[i].moves[k]; k++) {
			assert_int_equal(xqi_record_add_move(&g, at, mv(iccs[k]), &at), 0);
			assert_int_equal(xqi_record_set_text(&g, at, cases[i].moves[k],
							  strlen(cases[i].moves[k])),
					 0);
		}
		if (xqi_record_traditional(&g) != cases[i].traditional)
			fail_msg("case %zu", i);
		xqi_record_release(&g);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tags_keep_their_order_and_duplicates),
		cmocka_unit_test(tag_keeps_the_place_the_source_wrote_it_at),
		cmocka_unit_test(first_child_is_the_main_line_and_siblings_are_variations),
		cmocka_unit_test(preorder_visits_node_subtree_then_later_siblings),
		cmocka_unit_test(walk_gives_the_position_before_and_after_each_move),
		cmocka_unit_test(deep_lines_are_walked_without_recursion),
		cmocka_unit_test(position_far_down_a_line_is_the_walks),
		cmocka_unit_test(appending_the_nth_alternative_does_not_walk_its_siblings),
		cmocka_unit_test(many_alternatives_keep_the_order_they_were_added_in),
		cmocka_unit_test(next_ply_keeps_the_ply_of_every_node_in_preorder),
		cmocka_unit_test(textwalk_gives_moves_in_reading_order_with_variations_opened_and_closed),
		cmocka_unit_test(textwalk_follows_variations_nested_thousands_deep_without_recursion),
		cmocka_unit_test(equal_games_compare_equal_and_differences_are_named),
		cmocka_unit_test(clear_reuses_the_game_for_the_next_record),
		cmocka_unit_test(error_text_is_kept_until_the_game_is_cleared),
		cmocka_unit_test(results_parse_and_print),
		cmocka_unit_test(results_in_words_read_as_the_results_they_say),
		cmocka_unit_test(first_and_second_name_the_sides_by_who_moves_first),
		cmocka_unit_test(words_that_say_no_result_are_not_read),
		cmocka_unit_test(traditional_script_is_told_by_the_first_glyph_that_differs),
	};
	return cmocka_run_group_tests_name("game", tests, NULL, NULL);
}
