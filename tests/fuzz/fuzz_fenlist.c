/*
 * fuzz_fenlist.c: the FEN and EPD list reader (formats/fenlist.c, over
 * the line reader formats/lines.c) must never crash, read out of bounds
 * or stop short of the input's end; every game it returns is a position
 * with no move.  The first byte picks the encoding the input is read in
 * (fuzz_read_encodings).
 */
#include <stdint.h>
#include <stdlib.h>

#include "format.h"
#include "fuzz_formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void no_moves(const struct xqi_record *g)
{
	if (g->nnodes != 1)
		fuzz_fail("a position of a list has moves", NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_encodings("fen", data, size, no_moves);
	return 0;
}
