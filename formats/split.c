/*
 * split.c: which formats can split one input at record boundaries (see
 * format.h).  PGN and NDJSON can: a cheap scan finds where their records
 * start.  DhtmlXQ cannot: whether a record's values are HTML-decoded
 * depends on the markup seen anywhere before it in the file, which a
 * chunk read on its own cannot know.  Binary and one-game formats have
 * nothing to split.
 */
#include "format.h"

extern const struct xqi_format xqi_format_pgn;
extern const struct xqi_format xqi_format_ndjson;
extern const struct xqi_split_ops xqi_pgn_split;
extern const struct xqi_split_ops xqi_ndjson_split;

const struct xqi_split_ops *xqi_format_split(const struct xqi_format *f)
{
	if (f == &xqi_format_pgn)
		return &xqi_pgn_split;
	if (f == &xqi_format_ndjson)
		return &xqi_ndjson_split;
	return NULL;
}
