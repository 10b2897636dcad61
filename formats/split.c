/*
 * split.c: which formats can split one input at record boundaries (see
 * format.h).  PGN and NDJSON can: a cheap scan finds where their records
 * start.  DhtmlXQ cannot: whether a record's values are HTML-decoded
 * depends on the markup seen anywhere before it in the file, which a
 * chunk read on its own cannot know.  Binary and one-game formats have
 * nothing to split.
 */
#include "format.h"

extern const struct xq_format xq_format_pgn;
extern const struct xq_format xq_format_ndjson;
extern const struct xq_split_ops xq_pgn_split;
extern const struct xq_split_ops xq_ndjson_split;

const struct xq_split_ops *xq_format_split(const struct xq_format *f)
{
	if (f == &xq_format_pgn)
		return &xq_pgn_split;
	if (f == &xq_format_ndjson)
		return &xq_ndjson_split;
	return NULL;
}
