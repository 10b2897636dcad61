/*
 * ndjson.h: parts of the NDJSON format (xqkit.game/1, doc/ndjson.md) that
 * commands writing other NDJSON objects share with the game record writer.
 * The reader and writer themselves are reached through the registry
 * (format.h).
 */
#ifndef XQ_FORMATS_NDJSON_H
#define XQ_FORMATS_NDJSON_H

#include "buf.h"
#include "game.h"

/*
 * Append the member `"source":{...}` (no comma before it) describing where
 * `g` was first read from (xq_game_origin): "file", "game", "line" (text
 * formats) and "offset" (bytes), each only when known.  This is the object
 * game records carry and every NDJSON reference to a game uses.  Returns 0
 * or the buffer's error code.
 */
int xq_ndjson_add_source(struct xq_buf *b, const struct xq_game *g);
/* The same for origin `o` (xq_game_origin()), kept apart from its game. */
int xq_ndjson_add_origin(struct xq_buf *b, const struct xq_origin *o);

#endif
