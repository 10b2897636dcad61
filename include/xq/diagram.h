/*
 * <xq/diagram.h>: a position drawn for people: plain ASCII, Unicode with
 * the Chinese piece glyphs (and ANSI colours for a terminal), or a
 * standalone SVG document, as `xqkit replay --board` and `--svg` draw
 * them.
 *
 * Text boards are 13 lines, each ending in a newline, red at the bottom
 * unless XQ_DIAGRAM_FLIP: ICCS coordinates (files a-i, ranks 0-9) around
 * the ASCII board, FEN letters for the pieces (red upper case); Unicode
 * gives 帥 仕 相 傌 俥 炮 兵 for red and 將 士 象 馬 車 砲 卒 for black (each
 * two columns wide, as terminals show them) and each side's file numbers,
 * so colour is never needed to tell the sides apart.  The last move, when
 * given, is marked: its starting point in parentheses and its piece in
 * brackets in text, a ring and a dot in SVG.
 *
 * The SVG is well-formed XML in UTF-8 that needs no font: every character
 * (pieces, river, labels) is drawn as an outline, one <symbol> per
 * character used where it appears; each piece is a <g class="piece
 * red|black" data-square="e0" data-piece="K">, and the position is in
 * <desc> as FEN.
 *
 * Drawing uses no global state: any number of threads may draw different
 * positions at once.
 */
#ifndef XQ_PUBLIC_DIAGRAM_H
#define XQ_PUBLIC_DIAGRAM_H

#include <stddef.h>

#include "position.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Styles. */
enum { XQ_DIAGRAM_STYLE_ASCII = 0, XQ_DIAGRAM_STYLE_UNICODE = 1, XQ_DIAGRAM_STYLE_SVG = 2 };

/* Flags. */
enum {
	XQ_DIAGRAM_COLOR = 1 << 0, /* text: ANSI colours, red pieces red and black ones bold */
	XQ_DIAGRAM_FLIP = 1 << 1   /* black at the bottom */
};

/* SVG labels around the board: ICCS files a-i below and ranks 0-9 on the
 * left (the default); each side's file numbers on its own edge, counted
 * from its right (red's 一-九, black's 1-9); or none. */
enum { XQ_DIAGRAM_LABELS_ICCS = 0, XQ_DIAGRAM_LABELS_CHINESE = 1, XQ_DIAGRAM_LABELS_NONE = 2 };

/* How to draw; NULL means every default.  Start from
 * XQ_DIAGRAM_OPTIONS_INIT. */
typedef struct xq_diagram_options {
	size_t size;       /* sizeof(xq_diagram_options) */
	int style;         /* XQ_DIAGRAM_STYLE_*; 0: ASCII */
	unsigned flags;    /* XQ_DIAGRAM_COLOR (text only), XQ_DIAGRAM_FLIP */
	xq_move_code last; /* the move that led here, marked; 0: none */
	int labels;        /* SVG: XQ_DIAGRAM_LABELS_*; 0: ICCS */
	unsigned cell;     /* SVG: distance between points in user units; 0: 50 */
	const char *title; /* SVG: its <title> (UTF-8, escaped here); NULL: the FEN */
} xq_diagram_options;
#define XQ_DIAGRAM_OPTIONS_INIT {sizeof(xq_diagram_options), 0, 0, 0, 0, 0, NULL}

/*
 * The position `p` drawn as `opts` says, into *out (NUL-terminated;
 * freed with xq_free()) and its length in bytes into *len (when not
 * NULL).  Returns 0; or, with *out NULL, XQ_EUNSUPPORTED (a style or
 * labels value this version does not know), XQ_ERANGE (`last` names a
 * square off the board) or XQ_ENOMEM.  `last` is only marked, never
 * checked against the position.  NULL `p` or `out`: XQ_EINVAL.
 */
XQ_API int xq_position_diagram(const xq_position *p, const xq_diagram_options *opts, char **out,
			       size_t *len);

#ifdef __cplusplus
}
#endif

#endif
