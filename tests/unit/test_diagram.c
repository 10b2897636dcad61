/*
 * test_diagram.c: boards drawn as ASCII, Unicode and SVG (lib/diagram.c);
 * the SVG is parsed with libxml2 and its structure checked.  That it
 * renders with no font installed is tests/svg-render.sh's job.
 */
#include "testutil.h"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "position.h"
#include "buf.h"
#include "diagnostic.h"
#include "diagram.h"
#include "glyphs.h"
#include "utf8.h"

static xqi_move iccs(const char *m)
{
	return XQI_MOVE(XQI_SQ(m[0] - 'a', m[1] - '0'), XQI_SQ(m[2] - 'a', m[3] - '0'));
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
	struct xqi_position b;
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	xqi_position_start(&b);
	assert_int_equal(xqi_diagram_ascii(&out, &b, 0, 0), 0);
	assert_string_equal(out.ptr, want);
	xq_buf_release(&out);
}

static void last_move_marks_its_two_points_even_side_by_side(void **state)
{
	struct xqi_position b;
	struct xqi_undo u;
	struct xq_buf out = XQ_BUF_INIT;
	xqi_move m;

	(void)state;
	xqi_position_start(&b);
	xqi_position_make(&b, iccs("h2e2"), &u);
	xqi_position_make(&b, iccs("h9g7"), &u);
	xqi_position_make(&b, iccs("e3e4"), &u);
	xqi_position_make(&b, iccs("g7h9"), &u);
	m = iccs("b2c2"); /* neighbours on one rank */
	xqi_position_make(&b, m, &u);
	assert_int_equal(xqi_diagram_ascii(&out, &b, m, 0), 0);
	assert_non_null(strstr(out.ptr, "2  . (.)[C] .  C "));
	xq_buf_release(&out);
}

static void flip_puts_black_at_the_bottom(void **state)
{
	struct xqi_position b;
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	xqi_position_start(&b);
	assert_int_equal(xqi_diagram_ascii(&out, &b, 0, XQ_DIAGRAM_FLIP), 0);
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
	struct xqi_position b;
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	xqi_position_start(&b);
	assert_int_equal(xqi_diagram_unicode(&out, &b, 0, 0), 0);
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
	struct xqi_position b;
	struct xq_buf plain = XQ_BUF_INIT, color = XQ_BUF_INIT;

	(void)state;
	xqi_position_start(&b);
	xqi_diagram_unicode(&plain, &b, 0, 0);
	xqi_diagram_unicode(&color, &b, 0, XQ_DIAGRAM_COLOR);
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
	struct xqi_position b;
	struct xqi_undo u;
	struct xq_buf svg = XQ_BUF_INIT;
	xmlDoc *doc;
	xmlNode *root;
	xqi_move m = iccs("h2e2");

	(void)state;
	xqi_position_start(&b);
	xqi_position_make(&b, m, &u);
	assert_int_equal(xqi_diagram_svg(&svg, &b, m, NULL), 0);
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
	struct xqi_position b;
	struct xq_diagnostic d;
	struct xq_buf svg = XQ_BUF_INIT;
	struct xqi_svg_opts o = XQI_SVG_OPTS_INIT;
	xmlDoc *doc;
	xmlNode *root, *n;
	static const char fen[] = "3k5/8R/9/9/9/9/9/R8/9/4K4 w - - 0 1";

	(void)state;
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_position_from_fen(&b, fen, strlen(fen), 0, &d), 0);
	o.title = "<Red> & \"Black\"";
	o.flip = 1;
	o.coordinates = XQ_DIAGRAM_LABELS_NONE;
	assert_int_equal(xqi_diagram_svg(&svg, &b, 0, &o), 0);
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

/* ---- SVG characters as outlines --------------------------------------------- */

#define XLINK_NS "http://www.w3.org/1999/xlink"

/* One of each of the 14 piece kinds, none on a symmetric square. */
static const char every_kind_fen[] =
	"3k2b2/r3a4/2n4c1/9/1P7/4p4/9/1N2B3R/4A2C1/5K3 w - - 0 1";

static void board_from(struct xqi_position *b, const char *fen)
{
	struct xq_diagnostic d;

	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_position_from_fen(b, fen, strlen(fen), 0, &d), 0);
}

static xmlDoc *svg_of(const char *fen, int labels, int flip)
{
	struct xqi_position b;
	struct xqi_svg_opts o = XQI_SVG_OPTS_INIT;
	struct xq_buf svg = XQ_BUF_INIT;
	xmlDoc *doc;

	board_from(&b, fen);
	o.coordinates = labels;
	o.flip = flip;
	assert_int_equal(xqi_diagram_svg(&svg, &b, 0, &o), 0);
	doc = parse(&svg);
	xq_buf_release(&svg);
	return doc;
}

/* The next element after `n` in document order (pre-order), or NULL. */
static xmlNode *next_element(xmlNode *n)
{
	do {
		if (n->children) {
			n = n->children;
		} else {
			while (n && !n->next)
				n = n->parent;
			if (n)
				n = n->next;
		}
	} while (n && n->type != XML_ELEMENT_NODE);
	return n;
}

/* The first element called `name` whose `attr` is `value`, or NULL. */
static xmlNode *find(xmlDoc *doc, const char *name, const char *attr, const char *value)
{
	for (xmlNode *n = xmlDocGetRootElement(doc); n; n = next_element(n)) {
		xmlChar *v;
		int hit;
		if (strcmp((const char *)n->name, name))
			continue;
		v = xmlGetProp(n, (const xmlChar *)attr);
		hit = v && !strcmp((const char *)v, value);
		xmlFree(v);
		if (hit)
			return n;
	}
	return NULL;
}

static double num_attr(xmlNode *n, const char *attr)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)attr);
	double d;

	assert_non_null(v);
	d = strtod((const char *)v, NULL);
	xmlFree(v);
	return d;
}

/* The element a <use> points at ("#id" in xlink:href), after checking it. */
static xmlNode *used(xmlDoc *doc, xmlNode *use)
{
	xmlChar *href = xmlGetNsProp(use, (const xmlChar *)"href", (const xmlChar *)XLINK_NS);
	xmlNode *target;

	assert_non_null(href);
	assert_int_equal(href[0], '#');
	target = find(doc, "symbol", "id", (const char *)href + 1);
	xmlFree(href);
	return target;
}

/* The id a glyph's symbol has: "xq-" and its code point in hex. */
static void glyph_id(char out[16], uint32_t cp)
{
	snprintf(out, 16, "xq-%04X", (unsigned)cp);
}

static uint32_t first_cp(const char *s)
{
	uint32_t cp = 0;
	assert_true(xq_utf8_decode(s, strlen(s), &cp) > 0);
	return cp;
}

/* The one <use> inside a piece's group, after checking there is one. */
static xmlNode *piece_use(xmlNode *piece)
{
	xmlNode *use = NULL;

	for (xmlNode *c = piece->children; c; c = c->next) {
		if (c->type == XML_ELEMENT_NODE && !strcmp((const char *)c->name, "use")) {
			assert_null(use);
			use = c;
		}
	}
	assert_non_null(use);
	return use;
}

static void svg_holds_no_text_and_no_cjk_character_so_it_needs_no_font(void **state)
{
	static const int labels[] = {XQ_DIAGRAM_LABELS_NONE, XQ_DIAGRAM_LABELS_ICCS, XQ_DIAGRAM_LABELS_CHINESE};
	struct xqi_position b;
	struct xqi_undo u;
	xqi_move m = iccs("h2e2");

	(void)state;
	xqi_position_start(&b);
	xqi_position_make(&b, m, &u);
	for (int flip = 0; flip < 2; flip++) {
		for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++) {
			struct xqi_svg_opts o = XQI_SVG_OPTS_INIT;
			struct xq_buf svg = XQ_BUF_INIT;
			xmlDoc *doc;
			o.coordinates = labels[i];
			o.flip = flip;
			assert_int_equal(xqi_diagram_svg(&svg, &b, m, &o), 0);
			/* Not one byte outside ASCII: no character a font would have to draw. */
			for (size_t k = 0; k < svg.len; k++)
				assert_true((unsigned char)svg.ptr[k] < 0x80);
			doc = parse(&svg);
			assert_int_equal(count_elements(xmlDocGetRootElement(doc), "text", NULL), 0);
			assert_int_equal(count_elements(xmlDocGetRootElement(doc), "tspan", NULL), 0);
			xmlFreeDoc(doc);
			xq_buf_release(&svg);
		}
	}
}

static void svg_each_of_the_14_pieces_uses_its_own_glyph_defined_once(void **state)
{
	xmlDoc *doc = svg_of(every_kind_fen, XQ_DIAGRAM_LABELS_NONE, 0);
	xmlNode *root = xmlDocGetRootElement(doc);
	int pieces = 0;

	(void)state;
	assert_int_equal(count_elements(root, "g", "piece "), 14);
	for (xmlNode *n = root; n; n = next_element(n)) {
		xmlChar *cls, *letter;
		xmlNode *use, *sym, *path;
		uint8_t kind = 0;
		char id[16];
		if (strcmp((const char *)n->name, "g"))
			continue;
		cls = xmlGetProp(n, (const xmlChar *)"class");
		if (!cls || strncmp((const char *)cls, "piece ", 6)) {
			xmlFree(cls);
			continue;
		}
		xmlFree(cls);
		letter = xmlGetProp(n, (const xmlChar *)"data-piece");
		assert_non_null(letter);
		for (uint8_t k = 1; k < 16; k++)
			if (k != 8 && "?KABNRCP?kabnrcp"[k] == letter[0])
				kind = k;
		assert_int_not_equal(kind, 0);
		xmlFree(letter);
		use = piece_use(n);
		sym = used(doc, use);
		assert_non_null(sym);
		glyph_id(id, first_cp(xqi_diagram_glyph(kind)));
		{
			xmlChar *sid = xmlGetProp(sym, (const xmlChar *)"id");
			assert_string_equal((const char *)sid, id);
			xmlFree(sid);
		}
		/* Defined once, in <defs>, as the glyph table's outline. */
		assert_int_equal(count_elements(root, "symbol", NULL), 14 + 4); /* and the river */
		assert_string_equal((const char *)sym->parent->name, "defs");
		for (path = sym->children; path && path->type != XML_ELEMENT_NODE; path = path->next)
			;
		assert_non_null(path);
		assert_string_equal((const char *)path->name, "path");
		{
			xmlChar *d = xmlGetProp(path, (const xmlChar *)"d");
			int found = 0;
			for (size_t i = 0; i < xqi_glyph_count; i++)
				if (xqi_glyphs[i].cp == first_cp(xqi_diagram_glyph(kind)))
					found = !strcmp((const char *)d, xqi_glyphs[i].path);
			assert_true(found);
			xmlFree(d);
		}
		/* Its fill is its side's colour, as the disc's ring. */
		{
			xmlChar *fill = xmlGetProp(use, (const xmlChar *)"fill");
			assert_string_equal((const char *)fill,
					    XQI_KIND_SIDE(kind) == XQI_RED ? "#c0392b" : "#1b1b1b");
			xmlFree(fill);
		}
		pieces++;
	}
	assert_int_equal(pieces, 14);
	xmlFreeDoc(doc);
}

struct placed {
	const char *square, *piece;
	double x, y; /* the point's coordinates with cell 50, margin 50 */
};

static void check_placed(xmlDoc *doc, const struct placed *p)
{
	xmlNode *g = find(doc, "g", "data-square", p->square), *use, *disc;
	xmlChar *letter;

	assert_non_null(g);
	letter = xmlGetProp(g, (const xmlChar *)"data-piece");
	assert_string_equal((const char *)letter, p->piece);
	xmlFree(letter);
	use = piece_use(g);
	/* The glyph's square is centred on the point, as the disc is. */
	assert_true(num_attr(use, "x") + num_attr(use, "width") / 2 == p->x);
	assert_true(num_attr(use, "y") + num_attr(use, "height") / 2 == p->y);
	for (disc = g->children; disc && strcmp((const char *)disc->name, "circle"); disc = disc->next)
		;
	assert_non_null(disc);
	assert_true(num_attr(disc, "cx") == p->x);
	assert_true(num_attr(disc, "cy") == p->y);
}

static void svg_puts_each_piece_glyph_on_its_square_flipped_or_not(void **state)
{
	/* x = 50 + 50 * file, y = 50 + 50 * (9 - rank), red at the bottom. */
	static const struct placed want[] = {
		{"d9", "k", 200, 50},  {"g9", "b", 350, 50},  {"a8", "r", 50, 100},
		{"e8", "a", 250, 100}, {"c7", "n", 150, 150}, {"h7", "c", 400, 150},
		{"b5", "P", 100, 250}, {"e4", "p", 250, 300}, {"b2", "N", 100, 400},
		{"e2", "B", 250, 400}, {"i2", "R", 450, 400}, {"e1", "A", 250, 450},
		{"h1", "C", 400, 450}, {"f0", "K", 300, 500},
	};
	/* Black at the bottom: x = 50 + 50 * (8 - file), y = 50 + 50 * rank. */
	static const struct placed flipped[] = {
		{"d9", "k", 300, 500}, {"a8", "r", 450, 450}, {"b5", "P", 400, 300},
		{"i2", "R", 50, 150},  {"f0", "K", 200, 50},
	};
	xmlDoc *doc;

	(void)state;
	doc = svg_of(every_kind_fen, XQ_DIAGRAM_LABELS_ICCS, 0);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		check_placed(doc, &want[i]);
	assert_int_equal(count_elements(xmlDocGetRootElement(doc), "g", "piece "), 14);
	xmlFreeDoc(doc);
	doc = svg_of(every_kind_fen, XQ_DIAGRAM_LABELS_ICCS, 1);
	for (size_t i = 0; i < sizeof(flipped) / sizeof(flipped[0]); i++)
		check_placed(doc, &flipped[i]);
	xmlFreeDoc(doc);
}

/* The character of the label <use> centred on (x, y), or 0 when there is none. */
static uint32_t label_at(xmlDoc *doc, double x, double y)
{
	xmlNode *labels = find(doc, "g", "class", "coordinates");

	assert_non_null(labels);
	for (xmlNode *u = labels->children; u; u = u->next) {
		xmlChar *id;
		uint32_t cp;
		if (u->type != XML_ELEMENT_NODE)
			continue;
		if (num_attr(u, "x") + num_attr(u, "width") / 2 != x ||
		    num_attr(u, "y") + num_attr(u, "height") / 2 != y)
			continue;
		id = xmlGetProp(used(doc, u), (const xmlChar *)"id");
		cp = (uint32_t)strtoul((const char *)id + 3, NULL, 16);
		xmlFree(id);
		return cp;
	}
	return 0;
}

static void svg_chinese_labels_count_files_from_each_sides_right(void **state)
{
	/* Labels sit three quarters of a cell (37 units) outside the edge lines
	 * (rank 9 at y 50, rank 0 at y 500, file a at x 50). */
	const double top = 50 - 37, bottom = 500 + 37;
	xmlDoc *doc;
	xmlNode *labels;
	char id[16];

	(void)state;
	doc = svg_of(every_kind_fen, XQ_DIAGRAM_LABELS_CHINESE, 0);
	labels = find(doc, "g", "class", "coordinates");
	assert_non_null(labels);
	{
		int uses = 0;
		for (xmlNode *u = labels->children; u; u = u->next)
			uses += u->type == XML_ELEMENT_NODE && !strcmp((const char *)u->name, "use");
		assert_int_equal(uses, 18); /* files only, no ranks */
	}
	/* Red, along the bottom: 一 on file i (its right), 九 on file a. */
	assert_int_equal(label_at(doc, 450, bottom), 0x4E00); /* 一 */
	assert_int_equal(label_at(doc, 250, bottom), 0x4E94); /* 五 */
	assert_int_equal(label_at(doc, 50, bottom), 0x4E5D);  /* 九 */
	/* Black, along the top: 1 on file a (its right), 9 on file i. */
	assert_int_equal(label_at(doc, 50, top), '1');
	assert_int_equal(label_at(doc, 450, top), '9');
	/* The digits and numerals are outlines, defined once each. */
	glyph_id(id, 0x4E00);
	assert_non_null(find(doc, "symbol", "id", id));
	glyph_id(id, '1');
	assert_non_null(find(doc, "symbol", "id", id));
	xmlFreeDoc(doc);

	/* Flipped, each side's numbers stay on its own edge and its right. */
	doc = svg_of(every_kind_fen, XQ_DIAGRAM_LABELS_CHINESE, 1);
	assert_int_equal(label_at(doc, 50, top), 0x4E00);    /* file i, red's 一 */
	assert_int_equal(label_at(doc, 450, bottom), '1');   /* file a, black's 1 */
	assert_int_equal(label_at(doc, 50, bottom), '9');
	xmlFreeDoc(doc);

	/* ICCS labels, the default: letters along the bottom, ranks on the left. */
	doc = svg_of(every_kind_fen, XQ_DIAGRAM_LABELS_ICCS, 0);
	assert_int_equal(label_at(doc, 50, bottom), 'a');
	assert_int_equal(label_at(doc, 450, bottom), 'i');
	assert_int_equal(label_at(doc, 50 - 37, 500), '0');
	assert_int_equal(label_at(doc, 50 - 37, 50), '9');
	assert_int_equal(label_at(doc, 50, top), 0);
	xmlFreeDoc(doc);
}

static void svg_defines_only_the_glyphs_it_draws(void **state)
{
	xmlDoc *doc = svg_of("3k5/8R/9/9/9/9/9/R8/9/4K4 w - - 0 1", XQ_DIAGRAM_LABELS_NONE, 0);
	xmlNode *root = xmlDocGetRootElement(doc);
	char id[16];

	(void)state;
	/* 俥 帥 將 and the river's four characters. */
	assert_int_equal(count_elements(root, "symbol", NULL), 3 + 4);
	glyph_id(id, first_cp(xqi_diagram_glyph(XQI_KIND(XQI_RED, XQI_ROOK))));
	assert_non_null(find(doc, "symbol", "id", id));
	glyph_id(id, first_cp(xqi_diagram_glyph(XQI_KIND(XQI_BLACK, XQI_ROOK))));
	assert_null(find(doc, "symbol", "id", id));
	assert_int_equal(count_elements(root, "use", NULL), 4 + 4);
	xmlFreeDoc(doc);
}

/* ---- boards in an HTML page ----------------------------------------------------- */

/* The defs and boards of `fens` (flipped where `flip`), as one XML document. */
static xmlDoc *page_of(const char *const *fens, const int *flip, int n, xqi_move last)
{
	struct xq_buf page = XQ_BUF_INIT;
	struct xqi_svg_opts o = XQI_SVG_OPTS_INIT;
	xmlDoc *doc;

	o.coordinates = XQ_DIAGRAM_LABELS_CHINESE;
	xq_buf_adds(&page, "<page xmlns:xlink=\"" XLINK_NS "\">\n");
	assert_int_equal(xqi_diagram_svg_page_defs(&page, &o), 0);
	for (int i = 0; i < n; i++) {
		struct xqi_position b;
		board_from(&b, fens[i]);
		o.flip = flip[i];
		assert_int_equal(xqi_diagram_svg_page_board(&page, &b, last, &o), 0);
	}
	xq_buf_adds(&page, "</page>\n");
	doc = parse(&page);
	xq_buf_release(&page);
	return doc;
}

static int count_attr(xmlDoc *doc, const char *name, const char *attr, const char *value)
{
	int n = 0;

	for (xmlNode *e = xmlDocGetRootElement(doc); e; e = next_element(e)) {
		xmlChar *v;
		if (strcmp((const char *)e->name, name))
			continue;
		v = xmlGetProp(e, (const xmlChar *)attr);
		n += v && !strcmp((const char *)v, value);
		xmlFree(v);
	}
	return n;
}

/* Elements called `name` inside `root` (not `root` itself). */
static int count_inside(xmlNode *root, const char *name)
{
	int n = 0;

	for (xmlNode *e = root->children; e; e = e->next)
		if (e->type == XML_ELEMENT_NODE)
			n += !strcmp((const char *)e->name, name) + count_inside(e, name);
	return n;
}

/* The n-th <svg class="board"> of a page. */
static xmlNode *page_board(xmlDoc *doc, int n)
{
	for (xmlNode *e = xmlDocGetRootElement(doc); e; e = next_element(e)) {
		xmlChar *c = xmlGetProp(e, (const xmlChar *)"class");
		int hit = !strcmp((const char *)e->name, "svg") && c && !strcmp((const char *)c, "board");
		xmlFree(c);
		if (hit && n-- == 0)
			return e;
	}
	return NULL;
}

static void page_defs_hold_every_drawing_once_and_boards_only_place_them(void **state)
{
	static const char *const fens[2] = {XQI_START_FEN, every_kind_fen};
	static const int flips[2] = {0, 1};
	static const char pieces[] = "KABNRCPkabnrcp";
	xmlDoc *doc;
	char id[16];

	(void)state;
	doc = page_of(fens, flips, 2, 0);
	for (const char *p = pieces; *p; p++) {
		snprintf(id, sizeof(id), "xq-p%c", *p);
		assert_int_equal(count_attr(doc, "g", "id", id), 1);
	}
	assert_int_equal(count_attr(doc, "g", "id", "xq-board"), 1);
	assert_int_equal(count_attr(doc, "g", "id", "xq-board-flip"), 1);
	assert_int_equal(count_attr(doc, "circle", "id", "xq-from"), 1);
	assert_int_equal(count_attr(doc, "circle", "id", "xq-to"), 1);
	/* Every glyph the boards may draw is defined once. */
	for (uint8_t kind = 1; kind < 16; kind++) {
		if (!*xqi_diagram_glyph(kind))
			continue;
		glyph_id(id, first_cp(xqi_diagram_glyph(kind)));
		assert_int_equal(count_attr(doc, "symbol", "id", id), 1);
	}
	glyph_id(id, 0x4E5D); /* 九, a Chinese label */
	assert_int_equal(count_attr(doc, "symbol", "id", id), 1);
	/* A board draws nothing itself: one <use> of the board, one per piece. */
	for (int i = 0; i < 2; i++) {
		xmlNode *b = page_board(doc, i);
		assert_non_null(b);
		assert_int_equal(count_inside(b, "path"), 0);
		assert_int_equal(count_inside(b, "symbol"), 0);
		assert_int_equal(count_inside(b, "circle"), 0);
		assert_int_equal(count_inside(b, "use"), 1 + (i ? 14 : 32) + 2);
	}
	xmlFreeDoc(doc);
}

/* The x and y of the piece <use> pointing at `href` in board `board`. */
static void piece_at(xmlNode *board, const char *href, double *x, double *y)
{
	xmlNode *pieces = NULL;

	for (xmlNode *e = board->children; e && !pieces; e = e->next)
		if (e->type == XML_ELEMENT_NODE && !strcmp((const char *)e->name, "g"))
			pieces = e; /* the first group is the pieces */
	assert_non_null(pieces);
	for (xmlNode *e = pieces->children; e; e = e->next) {
		xmlChar *h = xmlGetProp(e, (const xmlChar *)"href");
		int hit = h && !strcmp((const char *)h, href);
		xmlFree(h);
		if (hit) {
			*x = num_attr(e, "x");
			*y = num_attr(e, "y");
			return;
		}
	}
	fail_msg("no %s on the board", href);
}

static void page_boards_put_pieces_on_their_points_flipped_or_not(void **state)
{
	static const char *const fens[2] = {every_kind_fen, every_kind_fen};
	static const int flips[2] = {0, 1};
	xmlDoc *doc;
	double x, y;

	(void)state;
	doc = page_of(fens, flips, 2, 0);
	/* The red king on f0, the black king on d9 (cell and margin 50). */
	piece_at(page_board(doc, 0), "#xq-pK", &x, &y);
	assert_true(x == 300 && y == 500);
	piece_at(page_board(doc, 0), "#xq-pk", &x, &y);
	assert_true(x == 200 && y == 50);
	piece_at(page_board(doc, 1), "#xq-pK", &x, &y);
	assert_true(x == 200 && y == 50);
	assert_int_equal(count_attr(doc, "use", "href", "#xq-board"), 1);
	assert_int_equal(count_attr(doc, "use", "href", "#xq-board-flip"), 1);
	xmlFreeDoc(doc);
}

static void page_board_marks_the_last_move_or_hides_the_marks(void **state)
{
	static const char *const fens[1] = {XQI_START_FEN};
	static const int flips[1] = {0};
	xmlDoc *doc;
	xmlNode *g;

	(void)state;
	doc = page_of(fens, flips, 1, 0);
	g = find(doc, "g", "class", "last-move");
	assert_non_null(g);
	assert_non_null(xmlHasProp(g, (const xmlChar *)"display"));
	xmlFreeDoc(doc);
	doc = page_of(fens, flips, 1, iccs("h2e2"));
	g = find(doc, "g", "class", "last-move");
	assert_null(xmlHasProp(g, (const xmlChar *)"display"));
	assert_true(num_attr(find(doc, "use", "href", "#xq-from"), "x") == 400);
	assert_true(num_attr(find(doc, "use", "href", "#xq-to"), "x") == 250);
	assert_true(num_attr(find(doc, "use", "href", "#xq-to"), "y") == 400);
	xmlFreeDoc(doc);
}

static void glyph_table_is_sorted_and_has_every_character_a_board_draws(void **state)
{
	static const char *const drawn[] = {
		"\xE6\xA5\x9A\xE6\xB2\xB3\xE6\xBC\xA2\xE7\x95\x8C", /* 楚河漢界 */
		/* 一二三四五六七八九 */
		"\xE4\xB8\x80\xE4\xBA\x8C\xE4\xB8\x89\xE5\x9B\x9B\xE4\xBA\x94\xE5\x85\xAD\xE4\xB8\x83\xE5\x85\xAB\xE4\xB9\x9D",
		"abcdefghi0123456789",
	};

	(void)state;
	for (size_t i = 1; i < xqi_glyph_count; i++)
		assert_true(xqi_glyphs[i - 1].cp < xqi_glyphs[i].cp);
	for (uint8_t kind = 1; kind < 16; kind++) {
		uint32_t cp;
		int found = 0;
		if (kind == 8)
			continue;
		cp = first_cp(xqi_diagram_glyph(kind));
		for (size_t i = 0; i < xqi_glyph_count; i++)
			found |= xqi_glyphs[i].cp == cp && xqi_glyphs[i].path[0] == 'm';
		assert_true(found);
	}
	for (size_t k = 0; k < sizeof(drawn) / sizeof(drawn[0]); k++) {
		const char *s = drawn[k];
		while (*s) {
			uint32_t cp;
			size_t n = xq_utf8_decode(s, strlen(s), &cp);
			int found = 0;
			assert_true(n > 0);
			for (size_t i = 0; i < xqi_glyph_count; i++)
				found |= xqi_glyphs[i].cp == cp;
			assert_true(found);
			s += n;
		}
	}
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
		cmocka_unit_test(svg_holds_no_text_and_no_cjk_character_so_it_needs_no_font),
		cmocka_unit_test(svg_each_of_the_14_pieces_uses_its_own_glyph_defined_once),
		cmocka_unit_test(svg_puts_each_piece_glyph_on_its_square_flipped_or_not),
		cmocka_unit_test(svg_chinese_labels_count_files_from_each_sides_right),
		cmocka_unit_test(svg_defines_only_the_glyphs_it_draws),
		cmocka_unit_test(glyph_table_is_sorted_and_has_every_character_a_board_draws),
		cmocka_unit_test(page_defs_hold_every_drawing_once_and_boards_only_place_them),
		cmocka_unit_test(page_boards_put_pieces_on_their_points_flipped_or_not),
		cmocka_unit_test(page_board_marks_the_last_move_or_hides_the_marks),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	xmlCleanupParser();
	return rc;
}
