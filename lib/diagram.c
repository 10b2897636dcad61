/*
 * diagram.c: boards as ASCII, Unicode and SVG (see diagram.h).
 *
 * The text boards give each point a cell with a free character on each
 * side, so the last move's marks ( ) and [ ] never overlap even when its
 * two points are neighbours.  The SVG is built as text from a small set of
 * elements with fixed attribute order, so the same position always gives
 * the same bytes (tests compare them) and any XML parser reads it.
 */
#include "diagram.h"

#include <string.h>

#include "diag.h"

/* Indexed by kind: 1..7 red K A E H R C P, 9..15 black. */
static const char *const glyphs[16] = {
	"", "\xE5\xB8\xA5", "\xE4\xBB\x95", "\xE7\x9B\xB8", "\xE5\x82\x8C", "\xE4\xBF\xA5",
	"\xE7\x82\xAE", "\xE5\x85\xB5", /* 帥 仕 相 傌 俥 炮 兵 */
	"", "\xE5\xB0\x87", "\xE5\xA3\xAB", "\xE8\xB1\xA1", "\xE9\xA6\xAC", "\xE8\xBB\x8A",
	"\xE7\xA0\xB2", "\xE5\x8D\x92", /* 將 士 象 馬 車 砲 卒 */
};

static const char letters[16] = {'.', 'K', 'A', 'B', 'N', 'R', 'C', 'P',
				 '.', 'k', 'a', 'b', 'n', 'r', 'c', 'p'};

const char *xq_diagram_glyph(uint8_t kind)
{
	return glyphs[kind & 15];
}

/* The square shown at display row `row` (0 = top) and column `col`. */
static xq_sq display_sq(int row, int col, int flip)
{
	return flip ? XQ_SQ(8 - col, row) : XQ_SQ(col, 9 - row);
}

static void marks(xq_sq sq, xq_move last, char *l, char *r)
{
	*l = *r = ' ';
	if (!last)
		return;
	if (sq == XQ_MOVE_FROM(last)) {
		*l = '(';
		*r = ')';
	} else if (sq == XQ_MOVE_TO(last)) {
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

int xq_diagram_ascii(struct xq_buf *out, const struct xq_board *b, xq_move last, unsigned flags)
{
	int flip = (flags & XQ_DIAGRAM_FLIP) != 0, color = (flags & XQ_DIAGRAM_COLOR) != 0;
	int rc = add_ascii_files(out, flip);

	for (int row = 0; row < 10 && !rc; row++) {
		int rank = flip ? row : 9 - row;
		if (row == 5)
			rc = xq_buf_adds(out, "  ~~~~~~~~~~ river ~~~~~~~~~~\n");
		if (!rc)
			rc = xq_buf_addf(out, "%d ", rank);
		for (int col = 0; col < 9 && !rc; col++) {
			xq_sq sq = display_sq(row, col, flip);
			uint8_t kind = xq_board_kind(b, sq);
			char l, r;
			marks(sq, last, &l, &r);
			if (color && kind)
				rc = xq_buf_addf(out, "%c%s%c\033[0m%c", l,
						 XQ_KIND_SIDE(kind) == XQ_RED ? "\033[31m" : "\033[1m",
						 letters[kind], r);
			else
				rc = xq_buf_addf(out, "%c%c%c", l, letters[kind], r);
		}
		if (!rc)
			rc = xq_buf_addf(out, " %d\n", rank);
	}
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

int xq_diagram_unicode(struct xq_buf *out, const struct xq_board *b, xq_move last,
		       unsigned flags)
{
	int flip = (flags & XQ_DIAGRAM_FLIP) != 0, color = (flags & XQ_DIAGRAM_COLOR) != 0;
	int rc = add_unicode_files(out, 1, flip);

	for (int row = 0; row < 10 && !rc; row++) {
		int rank = flip ? row : 9 - row;
		if (row == 5)
			/* 楚 河 over files b and c, 漢 界 over g and h. */
			rc = xq_buf_adds(out, "       \xE6\xA5\x9A  \xE6\xB2\xB3              "
					      "\xE6\xBC\xA2  \xE7\x95\x8C\n");
		if (!rc)
			rc = xq_buf_addf(out, "%d ", rank);
		for (int col = 0; col < 9 && !rc; col++) {
			xq_sq sq = display_sq(row, col, flip);
			uint8_t kind = xq_board_kind(b, sq);
			char l, r;
			marks(sq, last, &l, &r);
			if (!kind)
				rc = xq_buf_addf(out, "%c\xEF\xBC\x8B%c", l, r); /* ＋ */
			else if (color)
				rc = xq_buf_addf(out, "%c%s%s\033[0m%c", l,
						 XQ_KIND_SIDE(kind) == XQ_RED ? "\033[1;31m" : "\033[1m",
						 glyphs[kind], r);
			else
				rc = xq_buf_addf(out, "%c%s%c", l, glyphs[kind], r);
		}
		if (!rc)
			rc = xq_buf_addf(out, " %d\n", rank);
	}
	return rc ? rc : add_unicode_files(out, 0, flip);
}

/* ---- SVG ------------------------------------------------------------------ */

static int add_xml_text(struct xq_buf *out, const char *s)
{
	int rc = 0;

	for (; *s && !rc; s++) {
		switch (*s) {
		case '&': rc = xq_buf_adds(out, "&amp;"); break;
		case '<': rc = xq_buf_adds(out, "&lt;"); break;
		case '>': rc = xq_buf_adds(out, "&gt;"); break;
		case '"': rc = xq_buf_adds(out, "&quot;"); break;
		default:
			/* XML 1.0 forbids most control characters, escaped or not. */
			if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' && *s != '\r')
				rc = xq_buf_addc(out, ' ');
			else
				rc = xq_buf_addc(out, *s);
		}
	}
	return rc;
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
 * How far below a point to put the baseline of text of `size` so that the
 * text is centred on it.  Computed here rather than left to
 * dominant-baseline, which some renderers (librsvg, older viewers) ignore.
 */
static unsigned baseline(unsigned size)
{
	return size * 7 / 20;
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

static const char font[] =
	"font-family=\"'KaiTi','STKaiti','Noto Serif CJK SC','Noto Sans CJK SC','Source Han Serif SC',serif\"";

static int svg_river(struct xq_buf *out, const struct geo *g)
{
	unsigned y = (py(g, 4) + py(g, 5)) / 2;
	return xq_buf_addf(out,
			   "<g class=\"river\" fill=\"#5a3a1a\" font-size=\"%u\" %s text-anchor=\"middle\">\n"
			   "<text x=\"%u\" y=\"%u\">\xE6\xA5\x9A \xE6\xB2\xB3</text>\n"
			   "<text x=\"%u\" y=\"%u\">\xE6\xBC\xA2 \xE7\x95\x8C</text>\n</g>\n",
			   g->cell * 11 / 20, font, (px(g, 1) + px(g, 3)) / 2, y + baseline(g->cell * 11 / 20),
			   (px(g, 5) + px(g, 7)) / 2, y + baseline(g->cell * 11 / 20));
}

static int svg_coords(struct xq_buf *out, const struct geo *g)
{
	int rc = xq_buf_addf(out, "<g class=\"coordinates\" fill=\"#5a3a1a\" font-size=\"%u\" font-family=\"sans-serif\" text-anchor=\"middle\">\n",
			     g->cell * 7 / 20);
	for (int f = 0; f < 9 && !rc; f++)
		rc = xq_buf_addf(out, "<text x=\"%u\" y=\"%u\">%c</text>\n", px(g, f),
				 py(g, g->flip ? 9 : 0) + g->cell * 3 / 4 + baseline(g->cell * 7 / 20), 'a' + f);
	for (int r = 0; r < 10 && !rc; r++)
		rc = xq_buf_addf(out, "<text x=\"%u\" y=\"%u\">%d</text>\n",
				 g->margin - g->cell * 3 / 4, py(g, r) + baseline(g->cell * 7 / 20), r);
	return rc ? rc : xq_buf_adds(out, "</g>\n");
}

static int svg_pieces(struct xq_buf *out, const struct geo *g, const struct xq_board *b,
		      xq_move last)
{
	unsigned rad = g->cell * 22 / 50, inner = g->cell * 18 / 50;
	int rc = xq_buf_addf(out, "<g class=\"pieces\" font-size=\"%u\" %s text-anchor=\"middle\">\n",
			     g->cell * 3 / 5, font);

	for (int r = 9; r >= 0 && !rc; r--) {
		for (int f = 0; f < 9 && !rc; f++) {
			xq_sq sq = XQ_SQ(f, r);
			uint8_t kind = xq_board_kind(b, sq);
			const char *col;
			char name[3];
			if (!kind)
				continue;
			col = XQ_KIND_SIDE(kind) == XQ_RED ? "#c0392b" : "#1b1b1b";
			xq_sq_name(sq, name);
			rc = xq_buf_addf(out,
					 "<g class=\"piece %s\" data-square=\"%s\">"
					 "<circle cx=\"%u\" cy=\"%u\" r=\"%u\" fill=\"#fbeed2\" stroke=\"%s\" stroke-width=\"%u\"/>"
					 "<circle cx=\"%u\" cy=\"%u\" r=\"%u\" fill=\"none\" stroke=\"%s\" stroke-width=\"1\"/>"
					 "<text x=\"%u\" y=\"%u\" fill=\"%s\">%s</text></g>\n",
					 XQ_KIND_SIDE(kind) == XQ_RED ? "red" : "black", name, px(g, f),
					 py(g, r), rad, col, g->cell / 20 ? g->cell / 20 : 1, px(g, f),
					 py(g, r), inner, col, px(g, f), py(g, r) + baseline(g->cell * 3 / 5), col,
					 glyphs[kind]);
		}
	}
	if (!rc)
		rc = xq_buf_adds(out, "</g>\n");
	if (!rc && last) {
		xq_sq from = XQ_MOVE_FROM(last), to = XQ_MOVE_TO(last);
		int ff = XQ_SQ_FILE(from), fr = XQ_SQ_RANK(from), tf = XQ_SQ_FILE(to),
		    tr = XQ_SQ_RANK(to);
		rc = xq_buf_addf(out,
				 "<g class=\"last-move\" fill=\"none\" stroke=\"#1f6fd1\" stroke-width=\"%u\">"
				 "<circle class=\"from\" cx=\"%u\" cy=\"%u\" r=\"%u\" stroke-dasharray=\"%u %u\"/>"
				 "<circle class=\"to\" cx=\"%u\" cy=\"%u\" r=\"%u\"/></g>\n",
				 g->cell / 16 ? g->cell / 16 : 1, px(g, ff), py(g, fr), g->cell / 5,
				 g->cell / 12 ? g->cell / 12 : 1, g->cell / 12 ? g->cell / 12 : 1,
				 px(g, tf), py(g, tr), rad + g->cell / 20);
	}
	return rc;
}

int xq_diagram_svg(struct xq_buf *out, const struct xq_board *b, xq_move last,
		   const struct xq_svg_opts *o)
{
	static const struct xq_svg_opts defaults = XQ_SVG_OPTS_INIT;
	struct geo g;
	unsigned w, h;
	char fen[XQ_FEN_MAX];
	int rc;

	if (!o)
		o = &defaults;
	g.cell = o->cell >= 10 && o->cell <= 1000 ? o->cell : 50;
	g.margin = g.cell;
	g.flip = o->flip;
	w = 8 * g.cell + 2 * g.margin;
	h = 9 * g.cell + 2 * g.margin;
	xq_board_to_fen(b, fen, sizeof(fen));
	rc = xq_buf_addf(out,
			 "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			 "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\">\n"
			 "<title>",
			 w, h, w, h);
	if (!rc)
		rc = add_xml_text(out, o->title ? o->title : fen);
	if (!rc)
		rc = xq_buf_adds(out, "</title>\n<desc>");
	if (!rc)
		rc = add_xml_text(out, fen);
	if (!rc)
		rc = xq_buf_addf(out, "</desc>\n<rect class=\"board\" width=\"%u\" height=\"%u\" fill=\"#eed3a0\"/>\n",
				 w, h);
	if (!rc)
		rc = svg_grid(out, &g);
	if (!rc)
		rc = svg_river(out, &g);
	if (!rc && o->coordinates)
		rc = svg_coords(out, &g);
	if (!rc)
		rc = svg_pieces(out, &g, b, last);
	return rc ? rc : xq_buf_adds(out, "</svg>\n");
}
