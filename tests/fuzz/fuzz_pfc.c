/*
 * fuzz_pfc.c: the PFC reader (libxml2's SAX parser underneath, with its
 * depth limit lifted: the nesting is the tree) must never crash, read out
 * of bounds, recurse or put an illegal move in a tree; and a game it
 * reads, written as PFC and read again, comes back equal unless the
 * writer said what it lost, and writes the same bytes again.
 */
#include <stdint.h>
#include <stdlib.h>

#include "format.h"
#include "fuzz_formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > FUZZ_MAX_INPUT)
		return 0;
	fuzz_round_trip("pfc", data, size, NULL, XQ_EQUAL_IGNORE_TAG_ORDER);
	return 0;
}
