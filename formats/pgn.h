/*
 * pgn.h: the PGN format (xqbase "Chinese Chess" PGN and XBoard xiangqi
 * PGN), reader and writer.  Commands reach it through the registry
 * (format.h); tests and benchmark drivers use the struct directly.
 *
 * Reading (xq_format_pgn.read):
 *   - multi-game input of any size, streamed through a fixed window: memory
 *     does not grow with the number of games (the longest comment or tag
 *     line a reader accepts is XQ_PGN_TOKEN_MAX bytes);
 *   - the encoding is found once per input from its bytes (BOM, else valid
 *     UTF-8, else GB18030 against Big5 by content) unless
 *     xq_read_opts.encoding forces one; every game gets the name in
 *     xq_game.encoding; an undecodable byte is an "encoding" error at its
 *     byte offset;
 *   - CRLF, LF and bare CR line ends; tags in order with any name; the FEN
 *     tag sets xq_game.start; the move notation is recognised per game from
 *     the first move (the Format tag is only checked against it);
 *   - every problem is a diagnostic with source, line, column, byte offset,
 *     game number, ply and move text.  An error stops the game
 *     (XQ_GAME_BROKEN, the tree holds what came before) and the reader
 *     goes on at the next game; warnings and notes leave the game whole.
 *
 * Writing (xq_format_pgn.write): xq_write_opts.notation is
 * XQ_NOTATION_CHINESE (the default), XQ_NOTATION_ICCS or XQ_NOTATION_WXF;
 * xq_write_opts.encoding is UTF-8 (default), GBK, GB18030 or Big5 (Big5
 * implies traditional characters for Chinese moves).  The same game always
 * gives the same bytes: `[Game "Chinese Chess"]` first, the other tags in
 * their order (FEN regenerated from xq_game.start, added when the start is
 * not the standard one; Format set for ICCS and WXF), a blank line, the
 * move text wrapped at XQ_PGN_WIDTH columns (CJK characters count two),
 * and one blank line between games.
 */
#ifndef XQ_FORMATS_PGN_H
#define XQ_FORMATS_PGN_H

#include "format.h"

/* Longest comment or tag line the reader accepts, in bytes. */
#define XQ_PGN_TOKEN_MAX (1u << 20)
/* Width of the writer's move text lines, in columns. */
#define XQ_PGN_WIDTH 80

extern const struct xq_format xq_format_pgn;
/* The splitter with its token scan alone, without the quick scan in front
 * (xq_format_split() gives both): for tests that compare the two. */
extern const struct xq_split_ops xq_pgn_split_tokens;

#endif
