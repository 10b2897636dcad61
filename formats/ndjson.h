/*
 * ndjson.h: parts of the NDJSON format (xqkit.game/1, doc/ndjson.md) that
 * commands writing other NDJSON objects share with the game record writer.
 * The reader and writer themselves are reached through the registry
 * (format.h).
 */
#ifndef XQI_FORMATS_NDJSON_H
#define XQI_FORMATS_NDJSON_H

#include "buf.h"
#include "record.h"

/*
 * Append the member `"source":{...}` (no comma before it) describing where
 * `g` was first read from (xqi_record_origin): "file", "game", "line" (text
 * formats) and "offset" (bytes), each only when known.  This is the object
 * game records carry and every NDJSON reference to a game uses.  Returns 0
 * or the buffer's error code.
 */
int xqi_ndjson_add_source(struct xq_buf *b, const struct xqi_record *g);
/* The same for origin `o` (xqi_record_origin()), kept apart from its game. */
int xqi_ndjson_add_origin(struct xq_buf *b, const struct xqi_origin *o);

#endif
