/*
 * html.h: games as a web page that needs nothing but a browser (write
 * only; the format is xqi_format_html in the registry, "html").
 *
 * One page holds one game or a whole collection.  It is one file: the
 * board is inline SVG drawn from lib/diagram.c's page drawings (glyph
 * outlines and pieces defined once per page, each board only places
 * them), the style and the script are inline, and nothing is loaded from
 * anywhere: a Content-Security-Policy allows no network at all and only
 * the page's own script and style (by their SHA-256), so even a record
 * that got past the escaping could not run a script or fetch a byte.
 *
 * Each game is a <section class="game" id="gN"> (N counts the games of
 * the page from 1) with its tags, the final position drawn and its FEN,
 * the move text in the writer's notation with variations, comments and
 * NAGs, and for an annotated game (scores in the comments, see
 * lib/evalnote.h) an evaluation graph and each player's losses and marked
 * moves.  A game read only up to an error (XQI_RECORD_BROKEN) says so, with
 * the game's `error` when its reader's caller set it.  With JavaScript
 * off that is the whole page: the final positions and the full move text.
 * With it, formats/html.js (embedded at build time, see html_assets.h)
 * replays the moves: the section's data-moves attribute lists every move
 * of the tree in ICCS, in the order the move text shows them, each
 * preceded by "P:" when its parent is not the move listed just before it
 * (P counts the moves from 1; 0 is the start), and data-start holds the
 * start FEN when it is not the standard one.  The i-th <a> of the
 * section's move text is move i.
 *
 * A page with more than one game also gets an index (written when the
 * writer closes, shown first) linking to each game's section.  Games are
 * written one at a time, as they come: only the index entries stay in
 * memory.
 *
 * Everything taken from a record (tags, comments, result text, the
 * error) goes through xqi_html_escape() and is only ever text or a quoted
 * attribute value, never part of the script or the style.
 */
#ifndef XQI_FORMATS_HTML_H
#define XQI_FORMATS_HTML_H

#include <stddef.h>

#include "buf.h"

/*
 * Append the `len` bytes of `s` (UTF-8) to `out` so that a browser shows
 * them as they are, in an element's text or in a quoted attribute value:
 *   - & < > " ' become character references;
 *   - a tab and a line feed stay; CR LF and a lone CR become a line feed;
 *   - what would not show, or would change how the text around it shows,
 *     is written visibly as "<U+XXXX>": the other control characters (C0,
 *     DEL, C1), the bidirectional controls (U+061C, U+200E, U+200F,
 *     U+202A-U+202E, U+2066-U+2069) and the noncharacters (U+FDD0-U+FDEF,
 *     U+xxFFFE, U+xxFFFF);
 *   - a byte that is not part of valid UTF-8 becomes U+FFFD.
 * Returns 0 or XQ_ENOMEM.
 */
int xqi_html_escape(struct xq_buf *out, const char *s, size_t len);

#endif
