/*
 * test_diagram.c: boards drawn as ASCII, Unicode and SVG (lib/diagram.c);
 * the SVG is parsed with libxml2 and its structure checked.
 */
#include "testutil.h"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "board.h"
#include "buf.h"
#include "diag.h"
#include "diagram.h"
#include "utf8.h"

static xq_move iccs(const char *m)
{
	return XQ_MOVE(XQ_SQ(m[0] - 'a', m[1] - '0'), XQ_SQ(m[2] - 'a', m[3] - '0'));
}

static void ascii_start_position_is_drawn_with_coordinates(void **state)
{
	static const char want[] =
		"   a  b  c  d  e  f  g  h  i\n"
		"9  r  n  b  a  k  a  b  n  r  9\n"
		"8  .  .  .  .  .  .  .  .  .  8\n"
		"7  .  c  .  .  .  .  .  c  .  7\n"
		"6  p  .  p  .  p  .  p  .  p  6\n"
		"5  .  .  .  .  .  .  .  .  .  5\n"
		"  ~~~~~~~~~~ river ~~~~~~~~~~\n"
		"4  .  .  .  .  .  .  .  .  .  4\n"
		"3  P  .  P  .  P  .  P  .  P  3\n"
		"2  .  C  .  .  .  .  .  C  .  2\n"
		"1  .  .  .  .  .  .  .  .  .  1\n"
		"0  R  N  B  A  K  A  B  N  R  0\n"
		"   a  b  c  d  e  f  g  h  i\n";
	struct xq_board b;
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	xq_board_start(&b);
	assert_int_equal(xq_diagram_ascii(&out, &b, 0, 0), 0);
	assert_string_equal(out.ptr, want);
	xq_buf_release(&out);
}

static void last_move_marks_its_two_points_even_side_by_side(void **state)
{
	struct xq_board b;
	struct xq_undo u;
	struct xq_buf out = XQ_BUF_INIT;
	xq_move m;

	(void)state;
	xq_board_start(&b);
	xq_board_make(&b, iccs("h2e2"), &u);
	xq_board_make(&b, iccs("h9g7"), &u);
	xq_board_make(&b, iccs("e3e4"), &u);
	xq_board_make(&b, iccs("g7h9"), &u);
	m = iccs("b2c2"); /* neighbours on one rank */
	xq_board_make(&b, m, &u);
	assert_int_equal(xq_diagram_ascii(&out, &b, m, 0), 0);
	assert_non_null(strstr(out.ptr, "2  . (.)[C] .  C "));
	xq_buf_release(&out);
}

static void flip_puts_black_at_the_bottom(void **state)
{
	struct xq_board b;
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	xq_board_start(&b);
	assert_int_equal(xq_diagram_ascii(&out, &b, 0, XQ_DIAGRAM_FLIP), 0);
	assert_memory_equal(out.ptr, "   i  h  g  f  e  d  c  b  a\n0  R  N  B  A  K  A  B  N  R  0\n", 61);
	assert_non_null(strstr(out.ptr, "9  r  n  b  a  k  a  b  n  r  9\n   i  h"));
	xq_buf_release(&out);
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void unicode_board_gives_each_side_its_own_glyphs(void **state)
{
	struct xq_board b;
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	xq_board_start(&b);
	assert_int_equal(xq_diagram_unicode(&out, &b, 0, 0), 0);
	assert_int_equal(count(out.ptr, "\xE5\xB8\xA5"), 1); /* 帥 */
	assert_int_equal(count(out.ptr, "\xE5\xB0\x87"), 1); /* 將 */
	assert_int_equal(count(out.ptr, "\xE5\x85\xB5"), 5); /* 兵 */
	assert_int_equal(count(out.ptr, "\xE5\x8D\x92"), 5); /* 卒 */
	assert_int_equal(count(out.ptr, "\xE4\xBF\xA5"), 2); /* 俥 */
	assert_int_equal(count(out.ptr, "\xE8\xBB\x8A"), 2); /* 車 */
	assert_non_null(strstr(out.ptr, "\xE6\xA5\x9A  \xE6\xB2\xB3")); /* 楚  河 */
	/* Black's numbers on top, red's along the bottom. */
	assert_memory_equal(out.ptr, "   \xEF\xBC\x91  \xEF\xBC\x92", 11);
	assert_non_null(strstr(out.ptr, "   \xE4\xB9\x9D  \xE5\x85\xAB")); /* 九  八 */
	assert_int_equal(xq_utf8_check(out.ptr, out.len), out.len);
	xq_buf_release(&out);
}

static void colour_wraps_pieces_in_ansi_codes_and_only_then(void **state)
{
	struct xq_board b;
	struct xq_buf plain = XQ_BUF_INIT, color = XQ_BUF_INIT;

	(void)state;
	xq_board_start(&b);
	xq_diagram_unicode(&plain, &b, 0, 0);
	xq_diagram_unicode(&color, &b, 0, XQ_DIAGRAM_COLOR);
	assert_null(strchr(plain.ptr, '\033'));
	assert_int_equal(count(color.ptr, "\033[1;31m"), 16);
	assert_int_equal(count(color.ptr, "\033[0m"), 32);
	xq_buf_release(&plain);
	xq_buf_release(&color);
}

/* Count elements called `name` whose class attribute starts with `cls` (NULL: any). */
static int count_elements(xmlNode *n, const char *name, const char *cls)
{
	int total = 0;
	/* Iterative pre-order walk over the element tree. */
	while (n) {
		if (n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name)) {
			xmlChar *c = xmlGetProp(n, (const xmlChar *)"class");
			if (!cls || (c && !strncmp((const char *)c, cls, strlen(cls))))
				total++;
			xmlFree(c);
		}
		if (n->children) {
			n = n->children;
			continue;
		}
		while (n && !n->next)
			n = n->parent;
		if (n)
			n = n->next;
	}
	return total;
}

static xmlDoc *parse(const struct xq_buf *svg)
{
	xmlDoc *doc = xmlReadMemory(svg->ptr, (int)svg->len, "board.svg", NULL,
				    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	assert_non_null(doc);
	return doc;
}

static void svg_is_well_formed_with_board_river_palaces_and_a_disc_per_piece(void **state)
{
	struct xq_board b;
	struct xq_undo u;
	struct xq_buf svg = XQ_BUF_INIT;
	xmlDoc *doc;
	xmlNode *root;
	xq_move m = iccs("h2e2");

	(void)state;
	xq_board_start(&b);
	xq_board_make(&b, m, &u);
	assert_int_equal(xq_diagram_svg(&svg, &b, m, NULL), 0);
	doc = parse(&svg);
	root = xmlDocGetRootElement(doc);
	assert_string_equal((const char *)root->name, "svg");
	assert_non_null(root->ns);
	assert_string_equal((const char *)root->ns->href, "http://www.w3.org/2000/svg");
	/* 10 ranks, 2 edge files, 7 inner files in two halves, 4 palace diagonals. */
	assert_int_equal(count_elements(root, "line", NULL), 10 + 2 + 14 + 4);
	assert_int_equal(count_elements(root, "g", "piece red"), 16);
	assert_int_equal(count_elements(root, "g", "piece black"), 16);
	assert_int_equal(count_elements(root, "g", "river"), 1);
	assert_int_equal(count_elements(root, "circle", "from"), 1);
	assert_int_equal(count_elements(root, "circle", "to"), 1);
	assert_int_equal(count_elements(root, "title", NULL), 1);
	xmlFreeDoc(doc);
	xq_buf_release(&svg);
}

static void svg_escapes_its_title_and_counts_only_pieces_on_the_board(void **state)
{
	struct xq_board b;
	struct xq_diag d;
	struct xq_buf svg = XQ_BUF_INIT;
	struct xq_svg_opts o = XQ_SVG_OPTS_INIT;
	xmlDoc *doc;
	xmlNode *root, *n;
	static const char fen[] = "3k5/8R/9/9/9/9/9/R8/9/4K4 w - - 0 1";

	(void)state;
	xq_diag_init(&d);
	assert_int_equal(xq_board_from_fen(&b, fen, strlen(fen), 0, &d), 0);
	o.title = "<Red> & \"Black\"";
	o.flip = 1;
	o.coordinates = 0;
	assert_int_equal(xq_diagram_svg(&svg, &b, 0, &o), 0);
	doc = parse(&svg);
	root = xmlDocGetRootElement(doc);
	assert_int_equal(count_elements(root, "g", "piece "), 4);
	assert_int_equal(count_elements(root, "g", "coordinates"), 0);
	assert_int_equal(count_elements(root, "g", "last-move"), 0);
	for (n = root->children; n && !(n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, "title")); n = n->next)
		;
	assert_non_null(n);
	{
		xmlChar *t = xmlNodeGetContent(n);
		assert_string_equal((const char *)t, "<Red> & \"Black\"");
		xmlFree(t);
	}
	xmlFreeDoc(doc);
	xq_buf_release(&svg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ascii_start_position_is_drawn_with_coordinates),
		cmocka_unit_test(last_move_marks_its_two_points_even_side_by_side),
		cmocka_unit_test(flip_puts_black_at_the_bottom),
		cmocka_unit_test(unicode_board_gives_each_side_its_own_glyphs),
		cmocka_unit_test(colour_wraps_pieces_in_ansi_codes_and_only_then),
		cmocka_unit_test(svg_is_well_formed_with_board_river_palaces_and_a_disc_per_piece),
		cmocka_unit_test(svg_escapes_its_title_and_counts_only_pieces_on_the_board),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	xmlCleanupParser();
	return rc;
}
