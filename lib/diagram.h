/*
 * diagram.h: a position drawn for people: plain ASCII, Unicode with the
 * Chinese piece glyphs (and ANSI colours for a terminal), or SVG for a
 * browser or a document.
 *
 * Every drawing is appended to a struct xq_buf; nothing is printed.  The
 * last move, when given, is marked: its starting point in parentheses and
 * its piece in brackets in text, a ring and a dot in SVG, so a diagram
 * reads the same in black and white.
 *
 * Text boards have red at the bottom (unless XQ_DIAGRAM_FLIP), ICCS
 * coordinates (files a-i, ranks 0-9) around the ASCII board, and in
 * Unicode the file numbers each side uses (１-９ across the top for black,
 * 九-一 across the bottom for red).  Red pieces are upper case in ASCII
 * (FEN letters: K A B N R C P) and 帥 仕 相 傌 俥 炮 兵 in Unicode; black
 * ones lower case and 將 士 象 馬 車 砲 卒, so colour is never needed to
 * tell them apart.
 */
#ifndef XQI_LIB_DIAGRAM_H
#define XQI_LIB_DIAGRAM_H

#include <xq/diagram.h>

#include "position.h"
#include "buf.h"

/* Flags: the public XQ_DIAGRAM_COLOR and XQ_DIAGRAM_FLIP (<xq/diagram.h>). */

/*
 * Append the board as 13 lines of ASCII (with the newlines).  `last` is
 * the move that led here, or 0.  Returns 0 or XQ_ENOMEM.
 */
int xqi_diagram_ascii(struct xq_buf *out, const struct xqi_position *b, xqi_move last, unsigned flags);

/* Append the board as 13 lines of UTF-8 with Chinese glyphs (each piece
 * two columns wide, as terminals show them).  Returns 0 or XQ_ENOMEM. */
int xqi_diagram_unicode(struct xq_buf *out, const struct xqi_position *b, xqi_move last,
		       unsigned flags);


/* Labels around an SVG board: the public XQ_DIAGRAM_LABELS_* (<xq/diagram.h>):
 * ICCS, files a-i below the board and ranks 0-9 on its left; Chinese,
 * each side's file numbers on its own edge, counted from its right (red's
 * 一-九, black's 1-9); none. */

struct xqi_svg_opts {
	unsigned cell;      /* distance between points, in user units (default 50) */
	int flip;           /* black at the bottom */
	int coordinates;    /* XQ_DIAGRAM_LABELS_*: ICCS (the default), Chinese, none */
	const char *title;  /* UTF-8 text for <title>, or NULL for the FEN */
};
#define XQI_SVG_OPTS_INIT {50, 0, XQ_DIAGRAM_LABELS_ICCS, NULL}

/*
 * Append a standalone SVG 1.1 document: the board's lines, river and
 * palaces, each piece as a disc in red or black with its glyph, and the
 * last move marked.  `o` may be NULL for the defaults.  The text is
 * well-formed XML (titles are escaped) in UTF-8.  Returns 0 or XQ_ENOMEM.
 *
 * Every character drawn (pieces, river, labels) is an outline, not text:
 * the document renders the same with no font installed (rsvg-convert or a
 * headless browser on a server would otherwise draw empty boxes).  Each
 * character is one <symbol id="xq-XXXX"> (XXXX its code point in hex) in
 * <defs>, and each occurrence a <use> of it, so a board stays small.
 * Each piece is a <g class="piece red|black" data-square="e0"
 * data-piece="K"> (FEN letter).  There is no text mode: text would need
 * the reader's fonts, and what text gave (the piece names) is in
 * data-piece, the position in <desc> as FEN.
 */
int xqi_diagram_svg(struct xq_buf *out, const struct xqi_position *b, xqi_move last,
		   const struct xqi_svg_opts *o);

/*
 * Boards inside an HTML page.  A page that shows many boards draws what
 * they share once: xqi_diagram_svg_page_defs() appends one hidden <svg
 * class="xq-defs" data-cell data-margin> whose <defs> hold
 *   - the glyphs of every piece, the river and the labels of
 *     o->coordinates (<symbol id="xq-XXXX">, as above);
 *   - "xq-board" and "xq-board-flip": the board without pieces
 *     (background, grid, palaces, river, labels), red at the bottom and
 *     at the top;
 *   - "xq-pX" for each piece, X its FEN letter ("xq-pK" the red king,
 *     "xq-pp" a black pawn): its disc and glyph centred on (0, 0), in a
 *     <g class="piece red|black">;
 *   - "xq-from" and "xq-to": the last move's two marks centred on (0, 0).
 * xqi_diagram_svg_page_board() appends one <svg class="board" role="img">
 * (no XML declaration: it is an element of the page) that uses them: a
 * <use> of the board, <g class="pieces"> with a <use href="#xq-pX" x y>
 * per piece, and <g class="last-move"> with a <use> of each mark (the
 * group display="none" when `last` is 0).  o->title, when given, is its
 * aria-label, else "board: FEN".  Both take the same options (o->flip
 * picks the board drawn; the defs hold both).  The point of ICCS file f
 * and rank r is at (margin + f * cell, margin + (9 - r) * cell), mirrored
 * in both when flipped, so a script can move pieces as these draw them.
 * Returns 0 or XQ_ENOMEM.
 */
int xqi_diagram_svg_page_defs(struct xq_buf *out, const struct xqi_svg_opts *o);
int xqi_diagram_svg_page_board(struct xq_buf *out, const struct xqi_position *b, xqi_move last,
			      const struct xqi_svg_opts *o);

/* The glyph of a piece kind (XQI_KIND) in the set above, "" for 0. */
const char *xqi_diagram_glyph(uint8_t kind);

#endif
