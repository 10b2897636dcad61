/*
 * fuzz_evalnote.c: reading scores out of comments must never crash or read
 * out of bounds, whatever the comment.
 *
 * Input: the comment.  When a score is found, its place must lie inside
 * the comment, the bytes there alone must give the same score, and a
 * score in centipawns written again in annotate's form must read back
 * equal.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "evalnote.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct xqi_evalnote n, again;
	char buf[XQI_EVALNOTE_MAX];

	if (size > 65536) /* the cap of every target (README.md) */
		return 0;
	if (!xqi_evalnote_find(&n, s, size))
		return 0;
	if (n.start >= n.end || n.end > size)
		abort();
	if (!xqi_evalnote_find(&again, s + n.start, n.end - n.start) || again.start != 0 ||
	    again.end != n.end - n.start || again.score.kind != n.score.kind ||
	    again.score.value != n.score.value || again.depth != n.depth)
		abort();
	if (n.score.kind == XQ_EVAL_CP) {
		size_t len = xqi_evalnote_format(buf, sizeof(buf), n.score, n.depth);
		if (!xqi_evalnote_find(&again, buf, len) || again.score.value != n.score.value ||
		    again.depth != n.depth)
			abort();
	}
	return 0;
}
