/*
 * pgn.h: the PGN format (xqbase "Chinese Chess" PGN and XBoard xiangqi
 * PGN), reader and writer.  Commands reach it through the registry
 * (format.h); tests and benchmark drivers use the struct directly.
 *
 * Reading (xqi_format_pgn.read):
 *   - multi-game input of any size, streamed through a fixed window: memory
 *     does not grow with the number of games (the longest comment or tag
 *     line a reader accepts is XQI_PGN_TOKEN_MAX bytes);
 *   - the encoding is found once per input from its bytes (BOM, else valid
 *     UTF-8, else GB18030 against Big5 by content) unless
 *     xqi_read_opts.encoding forces one; every game gets the name in
 *     xqi_record.encoding; an undecodable byte is an "encoding" error at its
 *     byte offset;
 *   - CRLF, LF and bare CR line ends; tags in order with any name; the FEN
 *     tag sets xqi_record.start; the move notation is recognised per game from
 *     the first move (the Format tag is only checked against it);
 *   - every problem is a diagnostic with source, line, column, byte offset,
 *     game number, ply and move text.  An error stops the game
 *     (XQI_RECORD_BROKEN, the tree holds what came before) and the reader
 *     goes on at the next game, but for a move that cannot be read in a
 *     variation, which cuts that variation alone (XQI_RECORD_CUT); warnings
 *     and notes leave the game whole.
 *
 * Writing (xqi_format_pgn.write): xqi_write_opts.notation is
 * XQ_DIALECT_CHINESE (the default), XQ_DIALECT_ICCS or XQ_DIALECT_WXF;
 * xqi_write_opts.encoding is UTF-8 (default), GBK, GB18030 or Big5 (Big5
 * implies traditional characters for Chinese moves).  The same game always
 * gives the same bytes: `[Game "Chinese Chess"]` first, the other tags in
 * their order (FEN regenerated from xqi_record.start, added when the start is
 * not the standard one; Format set for ICCS and WXF), a blank line, the
 * move text wrapped at XQI_PGN_WIDTH columns (CJK characters count two),
 * ending with the result ("*" when there is none), and one blank line
 * between games.  A Result tag is always written, in PGN's words
 * (xqi_pgn_result_tag()).  Chinese move text is in the script of the game's
 * source (xqi_record_traditional()) unless the notation was named.
 */
#ifndef XQI_FORMATS_PGN_H
#define XQI_FORMATS_PGN_H

#include "format.h"

/* Longest comment or tag line the reader accepts, in bytes. */
#define XQI_PGN_TOKEN_MAX (1u << 20)
/* Width of the writer's move text lines, in columns. */
#define XQI_PGN_WIDTH 80

extern const struct xqi_format xqi_format_pgn;
/* The Result tag the writer writes for `g`: its first Result tag read as
 * a result (in words too, xqi_result_word(): 红胜 is "1-0"), or the game's
 * result when it has none; "*" for a value that says no result known.
 * A static string. */
const char *xqi_pgn_result_tag(const struct xqi_record *g);
/* The splitter with its token scan alone, without the quick scan in front
 * (xqi_format_split() gives both): for tests that compare the two. */
extern const struct xqi_split_ops xqi_pgn_split_tokens;

#endif
