/*
 * fuzz_fen.c: the FEN parser must never crash, read out of bounds or
 * half-load, whatever the bytes; an accepted position must survive a
 * round trip through the canonical FEN and support move generation.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "position.h"
#include "diagnostic.h"
#include "movegen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xqi_position b, again;
	struct xq_diagnostic d;
	char fen[XQ_FEN_SIZE];
	unsigned flags = size ? data[0] & XQI_FEN_LENIENT_PLACEMENT : 0;

	xqi_diagnostic_init(&d);
	/* The first byte picks the flags; the rest is the FEN (not NUL-terminated),
	 * at most 4 KiB (a FEN is under 100 bytes). */
	if (size == 0 || size > 4096 || xqi_position_from_fen(&b, (const char *)data + 1, size - 1, flags, &d) != 0)
		return 0;
	xqi_position_to_fen(&b, fen, sizeof(fen));
	if (xqi_position_from_fen(&again, fen, strlen(fen), flags, &d) != 0)
		abort(); /* canonical output must read back */
	if (again.key != b.key || memcmp(again.sq, b.sq, sizeof(b.sq)))
		abort();
	if (b.key != xqi_position_compute_key(&b))
		abort();
	(void)xqi_perft(&b, 2);
	return 0;
}
