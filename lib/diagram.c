/*
 * diagram.c: boards as ASCII, Unicode and SVG (see diagram.h).
 *
 * The text boards give each point a cell with a free character on each
 * side, so the last move's marks ( ) and [ ] never overlap even when its
 * two points are neighbours.  The SVG is built as text from a small set of
 * elements with fixed attribute order, so the same position always gives
 * the same bytes (tests compare them) and any XML parser reads it.  Its
 * characters are outlines from glyphs.c, so it needs no font.
 */
#include "diagram.h"

#include <stdio.h>
#include <string.h>

#include "diagnostic.h"
#include "glyphs.h"
#include "utf8.h"

/* Indexed by kind: 1..7 red K A E H R C P, 9..15 black. */
static const char *const glyphs[16] = {
	"", "\xE5\xB8\xA5", "\xE4\xBB\x95", "\xE7\x9B\xB8", "\xE5\x82\x8C", "\xE4\xBF\xA5",
	"\xE7\x82\xAE", "\xE5\x85\xB5", /* 帥 仕 相 傌 俥 炮 兵 */
	"", "\xE5\xB0\x87", "\xE5\xA3\xAB", "\xE8\xB1\xA1", "\xE9\xA6\xAC", "\xE8\xBB\x8A",
	"\xE7\xA0\xB2", "\xE5\x8D\x92", /* 將 士 象 馬 車 砲 卒 */
};

static const char letters[16] = {'.', 'K', 'A', 'B', 'N', 'R', 'C', 'P',
				 '.', 'k', 'a', 'b', 'n', 'r', 'c', 'p'};

const char *xqi_diagram_glyph(uint8_t kind)
{
	return glyphs[kind & 15];
}

/* The square shown at display row `row` (0 = top) and column `col`. */
static xqi_sq display_sq(int row, int col, int flip)
{
	return flip ? XQI_SQ(8 - col, row) : XQI_SQ(col, 9 - row);
}

static void marks(xqi_sq sq, xqi_move last, char *l, char *r)
{
	*l = *r = ' ';
	if (!last)
		return;
	if (sq == XQI_MOVE_FROM(last)) {
		*l = '(';
		*r = ')';
	} else if (sq == XQI_MOVE_TO(last)) {
		*l = '[';
		*r = ']';
	}
}

static int add_ascii_files(struct xq_buf *out, int flip)
{
	int rc = xq_buf_adds(out, "  ");
	for (int c = 0; c < 9 && !rc; c++)
		rc = xq_buf_addf(out, c < 8 ? " %c " : " %c", 'a' + (flip ? 8 - c : c));
	return rc ? rc : xq_buf_addc(out, '\n');
}

/* One point of a text board: the piece of `kind` (0: none) between the
 * last move's marks `l` and `r`, in colour or not. */
typedef int (*text_point_fn)(struct xq_buf *out, uint8_t kind, char l, char r, int color);

/* The ten ranks of a text board, numbered on both sides, with the line
 * `river` between the fifth and the sixth: what the ASCII and the Unicode
 * boards share, each drawing its points with `point`. */
static int add_text_ranks(struct xq_buf *out, const struct xqi_position *b, xqi_move last,
			  unsigned flags, const char *river, text_point_fn point)
{
	int flip = (flags & XQ_DIAGRAM_FLIP) != 0, color = (flags & XQ_DIAGRAM_COLOR) != 0;
	int rc = 0;

	for (int row = 0; row < 10 && !rc; row++) {
		int rank = flip ? row : 9 - row;
		if (row == 5)
			rc = xq_buf_adds(out, river);
		if (!rc)
			rc = xq_buf_addf(out, "%d ", rank);
		for (int col = 0; col < 9 && !rc; col++) {
			xqi_sq sq = display_sq(row, col, flip);
			char l, r;
			marks(sq, last, &l, &r);
			rc = point(out, xqi_position_kind(b, sq), l, r, color);
		}
		if (!rc)
			rc = xq_buf_addf(out, " %d\n", rank);
	}
	return rc;
}

static int ascii_point(struct xq_buf *out, uint8_t kind, char l, char r, int color)
{
	if (color && kind)
		return xq_buf_addf(out, "%c%s%c\033[0m%c", l,
				   XQI_KIND_SIDE(kind) == XQI_RED ? "\033[31m" : "\033[1m",
				   letters[kind], r);
	return xq_buf_addf(out, "%c%c%c", l, letters[kind], r);
}

int xqi_diagram_ascii(struct xq_buf *out, const struct xqi_position *b, xqi_move last, unsigned flags)
{
	int flip = (flags & XQ_DIAGRAM_FLIP) != 0;
	int rc = add_ascii_files(out, flip);

	if (!rc)
		rc = add_text_ranks(out, b, last, flags, "  ~~~~~~~~~~ river ~~~~~~~~~~\n",
				    ascii_point);
	return rc ? rc : add_ascii_files(out, flip);
}

/* File numbers as each side counts them: black's １-９ from red's left,
 * red's 九-一 from red's left (reversed when flipped). */
static int add_unicode_files(struct xq_buf *out, int top, int flip)
{
	static const char *const fw[9] = {"\xEF\xBC\x91", "\xEF\xBC\x92", "\xEF\xBC\x93",
					  "\xEF\xBC\x94", "\xEF\xBC\x95", "\xEF\xBC\x96",
					  "\xEF\xBC\x97", "\xEF\xBC\x98", "\xEF\xBC\x99"};
	static const char *const cn[9] = {"\xE4\xB8\x80", "\xE4\xBA\x8C", "\xE4\xB8\x89",
					  "\xE5\x9B\x9B", "\xE4\xBA\x94", "\xE5\x85\xAD",
					  "\xE4\xB8\x83", "\xE5\x85\xAB", "\xE4\xB9\x9D"};
	int rc = xq_buf_adds(out, "  ");

	for (int col = 0; col < 9 && !rc; col++) {
		int file = flip ? 8 - col : col; /* ICCS file 0..8 = a..i */
		/* Black's side: its file 1 is file a (its right); red's: 一 is file i. */
		const char *s = (top != flip) ? fw[file] : cn[8 - file];
		rc = xq_buf_addf(out, col < 8 ? " %s " : " %s", s);
	}
	return rc ? rc : xq_buf_addc(out, '\n');
}

static int unicode_point(struct xq_buf *out, uint8_t kind, char l, char r, int color)
{
	if (!kind)
		return xq_buf_addf(out, "%c\xEF\xBC\x8B%c", l, r); /* ＋ */
	if (color)
		return xq_buf_addf(out, "%c%s%s\033[0m%c", l,
				   XQI_KIND_SIDE(kind) == XQI_RED ? "\033[1;31m" : "\033[1m",
				   glyphs[kind], r);
	return xq_buf_addf(out, "%c%s%c", l, glyphs[kind], r);
}

int xqi_diagram_unicode(struct xq_buf *out, const struct xqi_position *b, xqi_move last,
		       unsigned flags)
{
	int flip = (flags & XQ_DIAGRAM_FLIP) != 0;
	int rc = add_unicode_files(out, 1, flip);

	/* 楚 河 over files b and c, 漢 界 over g and h. */
	if (!rc)
		rc = add_text_ranks(out, b, last, flags,
				    "       \xE6\xA5\x9A  \xE6\xB2\xB3              "
				    "\xE6\xBC\xA2  \xE7\x95\x8C\n",
				    unicode_point);
	return rc ? rc : add_unicode_files(out, 0, flip);
}

/* ---- SVG ------------------------------------------------------------------ */

/* Text in an SVG element or attribute (quotes escaped for both). */
static int add_xml_text(struct xq_buf *out, const char *s)
{
	return xqi_buf_add_xml(out, s, strlen(s), XQI_XML_ATTR, NULL);
}

struct geo {
	unsigned cell, margin;
	int flip;
};

/* Coordinates of the point at ICCS file and rank. */
static unsigned px(const struct geo *g, int file)
{
	return g->margin + (unsigned)(g->flip ? 8 - file : file) * g->cell;
}
static unsigned py(const struct geo *g, int rank)
{
	return g->margin + (unsigned)(g->flip ? rank : 9 - rank) * g->cell;
}

/*
 * Characters are drawn from outlines (glyphs.h), never as <text>: a
 * renderer with no CJK font (rsvg-convert or a headless browser on a
 * server) would draw empty boxes.  Each character the board needs is one
 * <symbol> in <defs>, and every occurrence a <use> of it.
 */
enum { SVG_GLYPHS_MAX = 64 };
struct svg_glyphs {
	uint32_t cp[SVG_GLYPHS_MAX];
	unsigned n;
};

/* The outline of `cp`, or NULL. */
static const char *glyph_path(uint32_t cp)
{
	size_t lo = 0, hi = xqi_glyph_count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (xqi_glyphs[mid].cp < cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < xqi_glyph_count && xqi_glyphs[lo].cp == cp ? xqi_glyphs[lo].path : NULL;
}

static uint32_t first_cp(const char *s)
{
	uint32_t cp = 0;
	xq_utf8_decode(s, strlen(s), &cp);
	return cp;
}

static void want(struct svg_glyphs *s, uint32_t cp)
{
	for (unsigned i = 0; i < s->n; i++)
		if (s->cp[i] == cp)
			return;
	if (s->n < SVG_GLYPHS_MAX)
		s->cp[s->n++] = cp;
}

/* The river's words: 楚 河 and 漢 界. */
static const uint32_t river_cp[4] = {0x695A, 0x6CB3, 0x6F22, 0x754C};
/* Red's file numbers 一 .. 九. */
static const uint32_t red_file_cp[9] = {0x4E00, 0x4E8C, 0x4E09, 0x56DB, 0x4E94,
					0x516D, 0x4E03, 0x516B, 0x4E5D};

static int svg_defs(struct xq_buf *out, const struct svg_glyphs *s)
{
	int rc = xq_buf_adds(out, "<defs>\n");

	for (unsigned i = 0; i < s->n && !rc; i++) {
		const char *d = glyph_path(s->cp[i]);
		if (d)
			rc = xq_buf_addf(out,
					 "<symbol id=\"xq-%04X\" viewBox=\"%d %d %d %d\" overflow=\"visible\">"
					 "<path d=\"%s\"/></symbol>\n",
					 (unsigned)s->cp[i], -XQI_GLYPH_EM / 2, -XQI_GLYPH_EM / 2, XQI_GLYPH_EM,
					 XQI_GLYPH_EM, d);
	}
	return rc ? rc : xq_buf_adds(out, "</defs>\n");
}

/* Half of `twice`, with ".5" when it is odd. */
static int add_half(struct xq_buf *out, const char *name, long twice)
{
	unsigned long m = (unsigned long)(twice < 0 ? -twice : twice);

	return xq_buf_addf(out, " %s=\"%s%lu%s\"", name, twice < 0 ? "-" : "", m / 2,
			   m & 1 ? ".5" : "");
}

/*
 * A <use> of the glyph of `cp`, `size` units square, centred on (x, y);
 * `fill` is NULL to take the enclosing group's.
 */
static int svg_glyph(struct xq_buf *out, uint32_t cp, long x, long y, unsigned size,
		     const char *fill)
{
	int rc = xq_buf_addf(out, "<use xlink:href=\"#xq-%04X\"", (unsigned)cp);

	if (!rc)
		rc = add_half(out, "x", 2 * x - (long)size);
	if (!rc)
		rc = add_half(out, "y", 2 * y - (long)size);
	if (!rc)
		rc = xq_buf_addf(out, " width=\"%u\" height=\"%u\"", size, size);
	if (!rc && fill)
		rc = xq_buf_addf(out, " fill=\"%s\"", fill);
	return rc ? rc : xq_buf_adds(out, "/>");
}

static int svg_line(struct xq_buf *out, unsigned x1, unsigned y1, unsigned x2, unsigned y2)
{
	return xq_buf_addf(out, "<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\"/>\n", x1, y1, x2, y2);
}

static int svg_grid(struct xq_buf *out, const struct geo *g)
{
	int rc = xq_buf_addf(out, "<g class=\"grid\" stroke=\"#5a3a1a\" stroke-width=\"%u\" stroke-linecap=\"square\">\n",
			     g->cell / 25 ? g->cell / 25 : 1);
	/* Ranks. */
	for (int r = 0; r < 10 && !rc; r++)
		rc = svg_line(out, px(g, 0), py(g, r), px(g, 8), py(g, r));
	/* Files: the edges cross the river, the others stop at it. */
	for (int f = 0; f < 9 && !rc; f++) {
		if (f == 0 || f == 8) {
			rc = svg_line(out, px(g, f), py(g, 0), px(g, f), py(g, 9));
		} else {
			rc = svg_line(out, px(g, f), py(g, 0), px(g, f), py(g, 4));
			if (!rc)
				rc = svg_line(out, px(g, f), py(g, 5), px(g, f), py(g, 9));
		}
	}
	/* Palaces: the diagonals of files d-f, ranks 0-2 and 7-9. */
	if (!rc)
		rc = svg_line(out, px(g, 3), py(g, 0), px(g, 5), py(g, 2));
	if (!rc)
		rc = svg_line(out, px(g, 5), py(g, 0), px(g, 3), py(g, 2));
	if (!rc)
		rc = svg_line(out, px(g, 3), py(g, 7), px(g, 5), py(g, 9));
	if (!rc)
		rc = svg_line(out, px(g, 5), py(g, 7), px(g, 3), py(g, 9));
	if (!rc)
		rc = xq_buf_addf(out, "<rect class=\"frame\" x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" fill=\"none\" stroke-width=\"%u\"/>\n",
				 g->margin - g->cell / 10, g->margin - g->cell / 10,
				 8 * g->cell + g->cell / 5, 9 * g->cell + g->cell / 5,
				 g->cell / 16 ? g->cell / 16 : 1);
	return rc ? rc : xq_buf_adds(out, "</g>\n");
}

/* 楚 河 between files b and d, 漢 界 between f and h (red's view), as two words. */
static int svg_river(struct xq_buf *out, const struct geo *g)
{
	unsigned size = g->cell * 11 / 20, y = (py(g, 4) + py(g, 5)) / 2;
	unsigned half = size * 13 / 20; /* from a word's centre to a glyph's */
	unsigned word[2] = {(px(g, 1) + px(g, 3)) / 2, (px(g, 5) + px(g, 7)) / 2};
	int rc = xq_buf_adds(out, "<g class=\"river\" fill=\"#5a3a1a\">\n");

	for (int i = 0; i < 4 && !rc; i++) {
		unsigned c = word[i / 2];
		rc = svg_glyph(out, river_cp[i], i % 2 ? c + half : c - half, y, size, NULL);
		if (!rc && i % 2)
			rc = xq_buf_addc(out, '\n');
	}
	return rc ? rc : xq_buf_adds(out, "</g>\n");
}

static int svg_labels(struct xq_buf *out, const struct geo *g, int style)
{
	unsigned size = g->cell * 7 / 20, off = g->cell * 3 / 4;
	unsigned bottom = g->margin + 9 * g->cell + off, top = g->margin - off;
	int rc = xq_buf_adds(out, "<g class=\"coordinates\" fill=\"#5a3a1a\">\n");

	if (style == XQ_DIAGRAM_LABELS_CHINESE) {
		/* Each side's file numbers next to it, counted from its right:
		 * red's 一 is file i, black's 1 is file a. */
		unsigned red = g->flip ? top : bottom, black = g->flip ? bottom : top;
		for (int f = 0; f < 9 && !rc; f++)
			rc = svg_glyph(out, red_file_cp[8 - f], px(g, f), red, size, NULL);
		if (!rc)
			rc = xq_buf_addc(out, '\n');
		for (int f = 0; f < 9 && !rc; f++)
			rc = svg_glyph(out, (uint32_t)('1' + f), px(g, f), black, size, NULL);
	} else {
		for (int f = 0; f < 9 && !rc; f++)
			rc = svg_glyph(out, (uint32_t)('a' + f), px(g, f), bottom, size, NULL);
		if (!rc)
			rc = xq_buf_addc(out, '\n');
		for (int r = 0; r < 10 && !rc; r++)
			rc = svg_glyph(out, (uint32_t)('0' + r), g->margin - off, py(g, r), size, NULL);
	}
	return rc ? rc : xq_buf_adds(out, "\n</g>\n");
}

static const char *piece_colour(uint8_t kind)
{
	return XQI_KIND_SIDE(kind) == XQI_RED ? "#c0392b" : "#1b1b1b";
}

/* The disc, ring and glyph of a piece of `kind` centred on (x, y). */
static int svg_piece_body(struct xq_buf *out, const struct geo *g, uint8_t kind, long x, long y)
{
	unsigned rad = g->cell * 22 / 50, inner = g->cell * 18 / 50, size = g->cell * 14 / 25;
	const char *col = piece_colour(kind);
	int rc = xq_buf_addf(out,
			     "<circle cx=\"%ld\" cy=\"%ld\" r=\"%u\" fill=\"#fbeed2\" stroke=\"%s\" stroke-width=\"%u\"/>"
			     "<circle cx=\"%ld\" cy=\"%ld\" r=\"%u\" fill=\"none\" stroke=\"%s\" stroke-width=\"1\"/>",
			     x, y, rad, col, g->cell / 20 ? g->cell / 20 : 1, x, y, inner, col);

	return rc ? rc : svg_glyph(out, first_cp(glyphs[kind]), x, y, size, col);
}

/* The last move's two marks, each centred on its point: the origin's dashed
 * ring and the destination's full one.  `attrs` goes into each <circle>. */
static int svg_mark(struct xq_buf *out, const struct geo *g, int to, const char *attrs, long x,
		    long y)
{
	unsigned rad = g->cell * 22 / 50, dash = g->cell / 12 ? g->cell / 12 : 1;

	if (to)
		return xq_buf_addf(out, "<circle %s cx=\"%ld\" cy=\"%ld\" r=\"%u\"/>", attrs, x, y,
				   rad + g->cell / 20);
	return xq_buf_addf(out, "<circle %s cx=\"%ld\" cy=\"%ld\" r=\"%u\" stroke-dasharray=\"%u %u\"/>",
			   attrs, x, y, g->cell / 5, dash, dash);
}

static unsigned mark_width(const struct geo *g)
{
	return g->cell / 16 ? g->cell / 16 : 1;
}

static int svg_pieces(struct xq_buf *out, const struct geo *g, const struct xqi_position *b,
		      xqi_move last)
{
	int rc = xq_buf_adds(out, "<g class=\"pieces\">\n");

	for (int r = 9; r >= 0 && !rc; r--) {
		for (int f = 0; f < 9 && !rc; f++) {
			xqi_sq sq = XQI_SQ(f, r);
			uint8_t kind = xqi_position_kind(b, sq);
			char name[3];
			if (!kind)
				continue;
			xqi_sq_name(sq, name);
			rc = xq_buf_addf(out, "<g class=\"piece %s\" data-square=\"%s\" data-piece=\"%c\">",
					 XQI_KIND_SIDE(kind) == XQI_RED ? "red" : "black", name, letters[kind]);
			if (!rc)
				rc = svg_piece_body(out, g, kind, px(g, f), py(g, r));
			if (!rc)
				rc = xq_buf_adds(out, "</g>\n");
		}
	}
	if (!rc)
		rc = xq_buf_adds(out, "</g>\n");
	if (!rc && last) {
		xqi_sq from = XQI_MOVE_FROM(last), to = XQI_MOVE_TO(last);
		rc = xq_buf_addf(out,
				 "<g class=\"last-move\" fill=\"none\" stroke=\"#1f6fd1\" stroke-width=\"%u\">",
				 mark_width(g));
		if (!rc)
			rc = svg_mark(out, g, 0, "class=\"from\"", px(g, XQI_SQ_FILE(from)),
				      py(g, XQI_SQ_RANK(from)));
		if (!rc)
			rc = svg_mark(out, g, 1, "class=\"to\"", px(g, XQI_SQ_FILE(to)),
				      py(g, XQI_SQ_RANK(to)));
		if (!rc)
			rc = xq_buf_adds(out, "</g>\n");
	}
	return rc;
}

/* Every character the drawing uses, in the order it first appears. */
static void svg_want(struct svg_glyphs *s, const struct xqi_position *b, int labels)
{
	s->n = 0;
	for (int i = 0; i < 4; i++)
		want(s, river_cp[i]);
	if (labels == XQ_DIAGRAM_LABELS_CHINESE) {
		for (int f = 8; f >= 0; f--)
			want(s, red_file_cp[f]);
		for (int f = 0; f < 9; f++)
			want(s, (uint32_t)('1' + f));
	} else if (labels != XQ_DIAGRAM_LABELS_NONE) {
		for (int f = 0; f < 9; f++)
			want(s, (uint32_t)('a' + f));
		for (int r = 0; r < 10; r++)
			want(s, (uint32_t)('0' + r));
	}
	for (int r = 9; r >= 0; r--) {
		for (int f = 0; f < 9; f++) {
			uint8_t kind = b ? xqi_position_kind(b, XQI_SQ(f, r)) : 0;
			if (kind)
				want(s, first_cp(glyphs[kind]));
		}
	}
	/* No board: every piece (a page's boards show any of them). */
	for (uint8_t kind = 1; !b && kind < 16; kind++)
		if (*glyphs[kind])
			want(s, first_cp(glyphs[kind]));
}

static const struct xqi_svg_opts svg_defaults = XQI_SVG_OPTS_INIT;

/* The geometry options `o` (NULL: the defaults) give; returns the options used. */
static const struct xqi_svg_opts *geometry(struct geo *g, const struct xqi_svg_opts *o, unsigned *w,
					  unsigned *h)
{
	if (!o)
		o = &svg_defaults;
	g->cell = o->cell >= 10 && o->cell <= 1000 ? o->cell : 50;
	g->margin = g->cell;
	g->flip = o->flip;
	*w = 8 * g->cell + 2 * g->margin;
	*h = 9 * g->cell + 2 * g->margin;
	return o;
}

int xqi_diagram_svg(struct xq_buf *out, const struct xqi_position *b, xqi_move last,
		   const struct xqi_svg_opts *o)
{
	struct svg_glyphs used;
	struct geo g;
	unsigned w, h;
	char fen[XQ_FEN_SIZE];
	int rc;

	o = geometry(&g, o, &w, &h);
	xqi_position_to_fen(b, fen, sizeof(fen));
	svg_want(&used, b, o->coordinates);
	rc = xq_buf_addf(out,
			 "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			 "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\">\n"
			 "<title>",
			 w, h, w, h);
	if (!rc)
		rc = add_xml_text(out, o->title ? o->title : fen);
	if (!rc)
		rc = xq_buf_adds(out, "</title>\n<desc>");
	if (!rc)
		rc = add_xml_text(out, fen);
	if (!rc)
		rc = xq_buf_adds(out, "</desc>\n");
	if (!rc)
		rc = svg_defs(out, &used);
	if (!rc)
		rc = xq_buf_addf(out, "<rect class=\"board\" width=\"%u\" height=\"%u\" fill=\"#eed3a0\"/>\n",
				 w, h);
	if (!rc)
		rc = svg_grid(out, &g);
	if (!rc)
		rc = svg_river(out, &g);
	if (!rc && o->coordinates != XQ_DIAGRAM_LABELS_NONE)
		rc = svg_labels(out, &g, o->coordinates);
	if (!rc)
		rc = svg_pieces(out, &g, b, last);
	return rc ? rc : xq_buf_adds(out, "</svg>\n");
}

/* ---- boards in an HTML page --------------------------------------------------- */

/* The board without its pieces, as one group: background, grid, river, labels. */
static int page_board_group(struct xq_buf *out, const struct geo *g, unsigned w, unsigned h,
			    int labels)
{
	int rc = xq_buf_addf(out, "<g id=\"xq-board%s\">\n<rect class=\"board\" width=\"%u\" height=\"%u\" fill=\"#eed3a0\"/>\n",
			     g->flip ? "-flip" : "", w, h);
	if (!rc)
		rc = svg_grid(out, g);
	if (!rc)
		rc = svg_river(out, g);
	if (!rc && labels != XQ_DIAGRAM_LABELS_NONE)
		rc = svg_labels(out, g, labels);
	return rc ? rc : xq_buf_adds(out, "</g>\n");
}

int xqi_diagram_svg_page_defs(struct xq_buf *out, const struct xqi_svg_opts *o)
{
	struct svg_glyphs used;
	struct geo g;
	unsigned w, h;
	int rc;

	o = geometry(&g, o, &w, &h);
	svg_want(&used, NULL, o->coordinates);
	rc = xq_buf_addf(out,
			 "<svg class=\"xq-defs\" width=\"0\" height=\"0\" aria-hidden=\"true\" data-cell=\"%u\" data-margin=\"%u\">\n",
			 g.cell, g.margin);
	if (!rc)
		rc = svg_defs(out, &used);
	/* svg_defs closed its <defs>: the drawings shared by every board get their own. */
	if (!rc)
		rc = xq_buf_adds(out, "<defs>\n");
	if (!rc)
		rc = page_board_group(out, &g, w, h, o->coordinates);
	if (!rc) {
		g.flip = 1;
		rc = page_board_group(out, &g, w, h, o->coordinates);
		g.flip = 0;
	}
	for (uint8_t kind = 1; kind < 16 && !rc; kind++) {
		if (!*glyphs[kind])
			continue;
		rc = xq_buf_addf(out, "<g id=\"xq-p%c\" class=\"piece %s\">", letters[kind],
				 XQI_KIND_SIDE(kind) == XQI_RED ? "red" : "black");
		if (!rc)
			rc = svg_piece_body(out, &g, kind, 0, 0);
		if (!rc)
			rc = xq_buf_adds(out, "</g>\n");
	}
	for (int to = 0; to < 2 && !rc; to++) {
		char attrs[128];
		snprintf(attrs, sizeof(attrs),
			 "id=\"xq-%s\" fill=\"none\" stroke=\"#1f6fd1\" stroke-width=\"%u\"",
			 to ? "to" : "from", mark_width(&g));
		rc = svg_mark(out, &g, to, attrs, 0, 0);
		if (!rc)
			rc = xq_buf_addc(out, '\n');
	}
	return rc ? rc : xq_buf_adds(out, "</defs>\n</svg>\n");
}

int xqi_diagram_svg_page_board(struct xq_buf *out, const struct xqi_position *b, xqi_move last,
			      const struct xqi_svg_opts *o)
{
	struct geo g;
	unsigned w, h;
	char fen[XQ_FEN_SIZE];
	int rc;

	o = geometry(&g, o, &w, &h);
	rc = xq_buf_addf(out, "<svg class=\"board\" viewBox=\"0 0 %u %u\" role=\"img\" aria-label=\"", w,
			 h);
	if (!rc && !o->title) {
		xqi_position_to_fen(b, fen, sizeof(fen));
		rc = xq_buf_adds(out, "board: ");
		if (!rc)
			rc = add_xml_text(out, fen);
	} else if (!rc) {
		rc = add_xml_text(out, o->title);
	}
	if (!rc)
		rc = xq_buf_addf(out, "\"><use href=\"#xq-board%s\"/>\n<g class=\"pieces\">",
				 g.flip ? "-flip" : "");
	for (int r = 9; r >= 0 && !rc; r--) {
		for (int f = 0; f < 9 && !rc; f++) {
			uint8_t kind = xqi_position_kind(b, XQI_SQ(f, r));
			if (kind)
				rc = xq_buf_addf(out, "<use href=\"#xq-p%c\" x=\"%u\" y=\"%u\"/>",
						 letters[kind], px(&g, f), py(&g, r));
		}
	}
	if (!rc)
		rc = xq_buf_adds(out, "</g>\n<g class=\"last-move\"");
	if (!rc && last) {
		xqi_sq from = XQI_MOVE_FROM(last), to = XQI_MOVE_TO(last);
		rc = xq_buf_addf(out, "><use href=\"#xq-from\" x=\"%u\" y=\"%u\"/><use href=\"#xq-to\" x=\"%u\" y=\"%u\"/>",
				 px(&g, XQI_SQ_FILE(from)), py(&g, XQI_SQ_RANK(from)),
				 px(&g, XQI_SQ_FILE(to)), py(&g, XQI_SQ_RANK(to)));
	} else if (!rc) {
		rc = xq_buf_adds(out, " display=\"none\"><use href=\"#xq-from\"/><use href=\"#xq-to\"/>");
	}
	return rc ? rc : xq_buf_adds(out, "</g></svg>\n");
}
