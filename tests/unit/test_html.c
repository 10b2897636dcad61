/*
 * test_html.c: the HTML page writer (formats/html.c): its escaping, the
 * move data the script reads, the collection index, annotated games, and
 * that nothing from a record ever lands outside text or a quoted
 * attribute.  What the page does in a browser is tests/browser/'s job.
 */
#include "testutil.h"

#include "buf.h"
#include "diagnostic.h"
#include "format.h"
#include "record.h"
#include "html.h"
#include "io.h"
#include "notation.h"

extern const struct xqi_format xqi_format_pgn;
extern const struct xqi_format xqi_format_html;

/* ---- escaping --------------------------------------------------------------- */

static void escaped_is(const char *in, size_t len, const char *want)
{
	struct xq_buf out = XQ_BUF_INIT;

	assert_int_equal(xqi_html_escape(&out, in, len), 0);
	assert_string_equal(out.ptr, want);
	xq_buf_release(&out);
}

#define ESCAPED_IS(in, want) escaped_is(in, sizeof(in) - 1, want)

static void escape_turns_markup_characters_into_references(void **state)
{
	(void)state;
	ESCAPED_IS("<script>x=1</script>", "&lt;script&gt;x=1&lt;/script&gt;");
	ESCAPED_IS("a & b &amp; c", "a &amp; b &amp;amp; c");
	ESCAPED_IS("\"><img src=x onerror='y'>", "&quot;&gt;&lt;img src=x onerror=&#39;y&#39;&gt;");
	ESCAPED_IS("--> <!-- ]]>", "--&gt; &lt;!-- ]]&gt;");
	ESCAPED_IS("", "");
}

static void escape_keeps_text_and_line_feeds_and_folds_carriage_returns(void **state)
{
	(void)state;
	ESCAPED_IS("\xE7\x82\xAE\xE4\xBA\x8C\xE5\xB9\xB3\xE4\xBA\x94 +0.35/12",
		   "\xE7\x82\xAE\xE4\xBA\x8C\xE5\xB9\xB3\xE4\xBA\x94 +0.35/12"); /* 炮二平五 */
	ESCAPED_IS("one\ttwo\nthree", "one\ttwo\nthree");
	ESCAPED_IS("a\r\nb\rc", "a\nb\nc");
	/* Characters of other scripts are text like any other. */
	ESCAPED_IS("\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D", "\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D");
}

static void escape_shows_controls_bidi_and_noncharacters_as_codes(void **state)
{
	(void)state;
	ESCAPED_IS("a\x01" "b\x7F", "a&lt;U+0001&gt;b&lt;U+007F&gt;");
	ESCAPED_IS("\xC2\x85", "&lt;U+0085&gt;");                 /* C1 NEL */
	ESCAPED_IS("\xE2\x80\xAE" "evil", "&lt;U+202E&gt;evil");     /* RIGHT-TO-LEFT OVERRIDE */
	ESCAPED_IS("\xE2\x81\xA6x\xE2\x81\xA9", "&lt;U+2066&gt;x&lt;U+2069&gt;"); /* isolates */
	ESCAPED_IS("\xE2\x80\x8F\xD8\x9C", "&lt;U+200F&gt;&lt;U+061C&gt;");
	ESCAPED_IS("\xEF\xBF\xBE\xEF\xB7\x90", "&lt;U+FFFE&gt;&lt;U+FDD0&gt;");
	ESCAPED_IS("\xF0\x9F\xBF\xBF", "&lt;U+1FFFF&gt;");
	/* Neighbours that are not controls stay: ZWJ joins emoji, U+202F is a space. */
	ESCAPED_IS("\xE2\x80\x8D\xE2\x80\xAF", "\xE2\x80\x8D\xE2\x80\xAF");
}

static void escape_replaces_bytes_that_are_not_utf8(void **state)
{
	(void)state;
	ESCAPED_IS("a\xFF" "b", "a\xEF\xBF\xBD" "b");
	ESCAPED_IS("\xE7\x82", "\xEF\xBF\xBD\xEF\xBF\xBD"); /* cut short */
	ESCAPED_IS("\xED\xA0\x80", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"); /* a surrogate */
	escaped_is("a\0b", 3, "a&lt;U+0000&gt;b");
}

/* ---- pages ------------------------------------------------------------------- */

struct collected {
	struct xq_diagnostic d[8];
	int n;
};

static void collect(const struct xq_diagnostic *d, void *payload)
{
	struct collected *c = payload;
	if (c->n < 8)
		c->d[c->n++] = *d;
}

/* The page of every game in `pgn` (text), written with `notation`. */
static void page_of(const char *pgn, int notation, struct xq_buf *page)
{
	struct xqi_input *in;
	struct xq_file *o;
	struct xqi_write_opts wo = XQI_WRITE_OPTS_INIT;
	struct collected c = {{{0}}, 0};
	struct xqi_sink sink = {collect, &c};
	struct xqi_record g;
	void *rd, *wr;

	wo.notation = notation;
	assert_int_equal(xqi_input_open_mem(&in, "t.pgn", pgn, strlen(pgn)), 0);
	assert_int_equal(xqi_format_pgn.open_reader(&rd, in, NULL, &sink), 0);
	assert_int_equal(xqi_file_open_mem(&o, page), 0);
	assert_int_equal(xqi_format_html.open_writer(&wr, o, &wo, &sink), 0);
	assert_int_equal(xqi_record_init(&g), 0);
	while (xqi_format_pgn.read(rd, &g) == 1)
		assert_int_equal(xqi_format_html.write(wr, &g), 0);
	assert_int_equal(xqi_format_html.close_writer(wr), 0);
	assert_int_equal(xqi_file_commit(o, NULL), 0);
	xqi_format_pgn.close_reader(rd);
	xqi_input_close(in);
	xqi_record_release(&g);
	for (int i = 0; i < c.n; i++)
		assert_true(c.d[i].severity != XQ_SEVERITY_ERROR);
}

/* Occurrences of `needle` in all of `hay`. */
static int count_all(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* Occurrences of `needle` in `hay`, up to the page's script (whose own
 * text is not the page's markup) or `hay`'s end. */
static int count(const char *hay, const char *needle)
{
	const char *end = strstr(hay, "<script>");
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)) && (!end || p < end); p += strlen(needle))
		n++;
	return n;
}

/* The value of the first `attr="..."` after `from` in `page` (static buffer). */
static const char *attr_after(const char *page, const char *from, const char *attr)
{
	static char value[4096];
	const char *p = strstr(page, from), *q, *e;
	char key[64];

	assert_non_null(p);
	snprintf(key, sizeof(key), " %s=\"", attr);
	q = strstr(p, key);
	assert_non_null(q);
	q += strlen(key);
	e = strchr(q, '"');
	assert_non_null(e);
	assert_true((size_t)(e - q) < sizeof(value));
	memcpy(value, q, (size_t)(e - q));
	value[e - q] = '\0';
	return value;
}

/* One head, one style, one script and one end: a page, whatever it holds. */
static void is_one_page(const char *page)
{
	assert_int_equal(count(page, "<!DOCTYPE html>"), 1);
	assert_int_equal(count(page, "<style"), 1);
	assert_int_equal(count_all(page, "<script"), 1);
	assert_int_equal(count_all(page, "</script"), 1);
	assert_int_equal(count_all(page, "</html>"), 1);
}

static const char variations[] =
	"[Event \"v\"]\n\n"
	"{Game.} 1. h2e2 {Centre.} h9g7 (h7e7 2. h0g2 (2. b0c2 b9c7) 2... b9c7) (b9c7)\n"
	"2. h0g2 $1 i9h9 1-0\n";

static void data_moves_list_every_move_in_text_order_with_its_parent(void **state)
{
	struct xq_buf page = XQ_BUF_INIT;
	const char *moves;

	(void)state;
	page_of(variations, XQ_DIALECT_ICCS, &page);
	/* Text order: h2e2 h9g7 (h7e7 h0g2 (b0c2 b9c7) b9c7) (b9c7) h0g2 i9h9. */
	assert_string_equal(attr_after(page.ptr, "<section", "data-moves"),
			    "h2e2 h9g7 1:h7e7 h0g2 3:b0c2 b9c7 4:b9c7 1:b9c7 2:h0g2 i9h9");
	/* One <a> per move in the move text, in that order. */
	moves = strstr(page.ptr, "<div class=\"moves\"");
	assert_non_null(moves);
	assert_int_equal(count(moves, "<a") - count(strstr(moves, "</div>"), "<a"), 10);
	assert_non_null(strstr(moves, "<a>h2e2</a>"));
	assert_non_null(strstr(moves, "<a>h0g2!</a>"));
	assert_non_null(strstr(moves, "<span class=\"c\">Game.</span>"));
	assert_non_null(strstr(moves, "<span class=\"v\">(1...\xC2\xA0<a>h7e7</a>"));
	assert_non_null(strstr(moves, "<b class=\"res\">1-0</b>"));
	/* The standard start needs no data-start. */
	assert_null(strstr(page.ptr, "data-start="));
	xq_buf_release(&page);
}

static void page_is_one_document_with_one_script_and_an_index_for_collections(void **state)
{
	static const char three[] =
		"[Red \"A\"]\n[Black \"B\"]\n\n1. h2e2 *\n\n"
		"[Red \"C\"]\n[Black \"D\"]\n[FEN \"3k5/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 1\"]\n\n1... d9d8 *\n\n"
		"[Red \"E\"]\n[Black \"F\"]\n\n1. c3c4 *\n";
	struct xq_buf page = XQ_BUF_INIT;

	(void)state;
	page_of(three, XQ_DIALECT_CHINESE, &page);
	is_one_page(page.ptr);
	assert_int_equal(count(page.ptr, "<svg class=\"xq-defs\""), 1);
	assert_int_equal(count(page.ptr, "<section class=\"game\""), 3);
	assert_non_null(strstr(page.ptr, "id=\"g3\""));
	assert_non_null(strstr(page.ptr, "<nav id=\"index\"><h2>3 games</h2>"));
	assert_int_equal(count(page.ptr, "<li><a href=\"#g"), 3);
	assert_string_equal(attr_after(page.ptr, "id=\"g2\"", "data-start"),
			    "3k5/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 1");
	/* The title names the first game's players; the moves are Chinese. */
	assert_non_null(strstr(page.ptr, "<title>A \xE2\x80\x93 B</title>"));
	assert_non_null(strstr(page.ptr, "<a>\xE7\x82\xAE\xE4\xBA\x8C\xE5\xB9\xB3\xE4\xBA\x94</a>"));
	/* The script comes after everything it reads. */
	assert_true(strstr(page.ptr, "<script") > strstr(page.ptr, "<nav id=\"index\""));
	xq_buf_release(&page);

	/* One game: no index. */
	page_of("[Red \"A\"]\n\n1. h2e2 *\n", XQ_DIALECT_WXF, &page);
	assert_null(strstr(page.ptr, "id=\"index\""));
	assert_non_null(strstr(page.ptr, "<a>C2.5</a>"));
	xq_buf_release(&page);
}

/* An index of more than INDEX_KEEP bytes waits in a scratch file: the
 * page holds it whole, in order, after the games, as one kept in memory
 * would be, and the scratch file leaves nothing in $TMPDIR. */
static void a_long_index_waits_in_a_scratch_file_and_comes_back_whole(void **state)
{
	struct xq_buf pgn = XQ_BUF_INIT, page = XQ_BUF_INIT;
	char dir[256];
	const char *nav, *p;
	int n = 0;

	(void)state;
	for (int i = 1; i <= 8000; i++)
		xq_buf_addf(&pgn, "[Red \"R%d %0100d\"]\n[Black \"B%d\"]\n\n1. h2e2 *\n\n", i, 0, i);
	assert_int_equal(test_tmpdir(dir, sizeof(dir), "html-spill"), 0);
	test_set_tmpdir(dir);
	page_of(pgn.ptr, XQ_DIALECT_ICCS, &page);
	assert_int_equal(test_count_named(dir, "xqkit"), 0);
	is_one_page(page.ptr);
	nav = strstr(page.ptr, "<nav id=\"index\"><h2>8000 games</h2>");
	assert_non_null(nav);
	assert_true(nav > strstr(page.ptr, "id=\"g8000\""));
	for (p = nav; (p = strstr(p, "<li><a href=\"#g")); p++) {
		char want[32];
		snprintf(want, sizeof(want), "<li><a href=\"#g%d\">", ++n);
		assert_memory_equal(p, want, strlen(want));
	}
	assert_int_equal(n, 8000);
	assert_non_null(strstr(nav, "B8000</bdi></a>"));
	assert_true((size_t)(strstr(page.ptr, "</ol></nav>") - nav) > ((size_t)1 << 20));
	test_set_tmpdir(NULL);
	assert_int_equal(test_rmtree(dir), 0);
	xq_buf_release(&page);
	xq_buf_release(&pgn);
}

static void record_text_never_leaves_text_or_quoted_attributes(void **state)
{
	static const char hostile[] =
		"[Event \"\\\"><script>window.pwned=1</script>\"]\n"
		"[Red \"<img src=x onerror=alert(1)>\"]\n"
		"[Site \"</title><script>x()</script>\"]\n\n"
		"{</script><script>window.pwned=2</script>} 1. h2e2 {--> <!-- <style>*</style>} "
		"h9g7 {\"><svg onload=x()> \xE2\x80\xAE} *\n";
	struct xq_buf page = XQ_BUF_INIT;

	(void)state;
	page_of(hostile, XQ_DIALECT_CHINESE, &page);
	is_one_page(page.ptr);
	assert_int_equal(count(page.ptr, "<img"), 0);
	assert_int_equal(count(page.ptr, "<svg onload"), 0);
	assert_int_equal(count(page.ptr, "</title>"), 1);
	assert_int_equal(count(page.ptr, "<!--"), 0);
	assert_int_equal(count(page.ptr, "-->"), 0);
	assert_int_equal(count(page.ptr, "\xE2\x80\xAE"), 0);
	assert_non_null(strstr(page.ptr, "&lt;/script&gt;&lt;script&gt;window.pwned=2&lt;/script&gt;"));
	assert_non_null(strstr(page.ptr, "&quot;&gt;&lt;svg onload=x()&gt; &lt;U+202E&gt;"));
	assert_non_null(strstr(page.ptr, "<title>&lt;img src=x onerror=alert(1)&gt; \xE2\x80\x93 ?</title>"));
	xq_buf_release(&page);
}

static void scores_in_comments_give_a_graph_marks_and_each_players_losses(void **state)
{
	static const char scored[] =
		"[Red \"A\"]\n[Black \"B\"]\n\n"
		"1. h2e2 {[%eval 0.30]} h9g7 {[%eval 0.25]} 2. h0g2 {[%eval 0.35]} i9h9 {[%eval 0.28]}\n"
		"3. i0h0 {[%eval -1.10]} b9c7 {[%eval -0.95]} 4. h0h6 {[%eval -4.50]} h7i7 {[%eval #-3]} *\n";
	struct xq_buf page = XQ_BUF_INIT;
	const char *coach;

	(void)state;
	page_of(scored, XQ_DIALECT_ICCS, &page);
	assert_string_equal(attr_after(page.ptr, "<svg class=\"graph\"", "data-plies"), "8");
	/* Red lost 138 with 3. i0h0 (a mistake) and 355 with 4. h0h6 (a
	 * blunder).  No NAGs: marks from the losses. */
	assert_int_equal(count(page.ptr, "<circle class=\"k2\""), 1);
	assert_int_equal(count(page.ptr, "<circle class=\"k3\""), 1);
	assert_non_null(strstr(page.ptr, "<a id=\"g1-m5\" class=\"k2\">i0h0</a>"));
	assert_non_null(strstr(page.ptr, "<a id=\"g1-m7\" class=\"k3\">h0h6</a>"));
	coach = strstr(page.ptr, "<table class=\"coach\">");
	assert_non_null(coach);
	/* Red's losses 0, 138, 355 over three moves (the first has no score
	 * before it); black's 0, 0, 15 and 0 (it gained a mate). */
	assert_non_null(strstr(coach, "<tr class=\"red\"><th>Red <bdi>A</bdi></th><td>164 cp</td>"));
	assert_non_null(strstr(coach, "<tr class=\"black\"><th>Black <bdi>B</bdi></th><td>4 cp</td>"));
	assert_non_null(strstr(coach, "<a href=\"#g1-m7\">4.&nbsp;h0h6</a>"));
	/* The scores are set apart in the comments. */
	assert_non_null(strstr(page.ptr, "<span class=\"c\"><b class=\"ev\">[%eval #-3]</b></span>"));
	xq_buf_release(&page);

	/* No score: no graph, no summary. */
	page_of(variations, XQ_DIALECT_ICCS, &page);
	assert_null(strstr(page.ptr, "class=\"graph\""));
	assert_null(strstr(page.ptr, "class=\"coach\""));
	xq_buf_release(&page);
}

static void broken_game_says_so_with_the_reason_it_was_given(void **state)
{
	struct xq_buf page = XQ_BUF_INIT;
	struct xq_file *o;
	struct xqi_record g;
	void *wr;
	uint32_t n;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(xqi_record_add_move(&g, XQI_ROOT, XQI_MOVE(XQI_SQ(7, 2), XQI_SQ(4, 2)), &n), 0);
	g.flags |= XQI_RECORD_BROKEN;
	assert_int_equal(xqi_record_set_error(&g, "ply 2 (<b>): no such move", 25), 0);
	assert_int_equal(xqi_file_open_mem(&o, &page), 0);
	assert_int_equal(xqi_format_html.open_writer(&wr, o, NULL, NULL), 0);
	assert_int_equal(xqi_format_html.write(wr, &g), 0);
	assert_int_equal(xqi_format_html.close_writer(wr), 0);
	assert_int_equal(xqi_file_commit(o, NULL), 0);
	assert_non_null(strstr(page.ptr, "<p class=\"error\" role=\"alert\">"));
	assert_non_null(strstr(page.ptr, "<span class=\"why\">ply 2 (&lt;b&gt;): no such move</span>"));
	xq_buf_release(&page);
	xqi_record_release(&g);
}

static void writer_refuses_encodings_other_than_utf8(void **state)
{
	struct xq_buf page = XQ_BUF_INIT;
	struct xqi_write_opts wo = XQI_WRITE_OPTS_INIT;
	struct collected c = {{{0}}, 0};
	struct xqi_sink sink = {collect, &c};
	struct xq_file *o;
	void *wr = NULL;

	(void)state;
	wo.encoding = XQI_ENC_GBK;
	assert_int_equal(xqi_file_open_mem(&o, &page), 0);
	assert_int_equal(xqi_format_html.open_writer(&wr, o, &wo, &sink), XQ_EUNSUPPORTED);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.d[0].code, XQI_D_UNSUPPORTED);
	xqi_file_abort(o);
	xq_buf_release(&page);
}

static void a_page_of_no_game_is_still_a_whole_page(void **state)
{
	struct xq_buf page = XQ_BUF_INIT;
	struct xq_file *o;
	void *wr;

	(void)state;
	assert_int_equal(xqi_file_open_mem(&o, &page), 0);
	assert_int_equal(xqi_format_html.open_writer(&wr, o, NULL, NULL), 0);
	assert_int_equal(xqi_format_html.close_writer(wr), 0);
	assert_int_equal(xqi_file_commit(o, NULL), 0);
	is_one_page(page.ptr);
	assert_non_null(strstr(page.ptr, "No game."));
	xq_buf_release(&page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escape_turns_markup_characters_into_references),
		cmocka_unit_test(escape_keeps_text_and_line_feeds_and_folds_carriage_returns),
		cmocka_unit_test(escape_shows_controls_bidi_and_noncharacters_as_codes),
		cmocka_unit_test(escape_replaces_bytes_that_are_not_utf8),
		cmocka_unit_test(data_moves_list_every_move_in_text_order_with_its_parent),
		cmocka_unit_test(page_is_one_document_with_one_script_and_an_index_for_collections),
		cmocka_unit_test(a_long_index_waits_in_a_scratch_file_and_comes_back_whole),
		cmocka_unit_test(record_text_never_leaves_text_or_quoted_attributes),
		cmocka_unit_test(scores_in_comments_give_a_graph_marks_and_each_players_losses),
		cmocka_unit_test(broken_game_says_so_with_the_reason_it_was_given),
		cmocka_unit_test(writer_refuses_encodings_other_than_utf8),
		cmocka_unit_test(a_page_of_no_game_is_still_a_whole_page),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
