/*
 * fuzz_cbf.c: the CBF reader (libxml2's memory parser underneath) must
 * never crash, read out of bounds or put an illegal move in a tree; and a
 * game it reads, written as CBF and read again, comes back equal unless
 * the writer said what it lost.
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
	fuzz_round_trip("cbf", data, size, NULL, XQ_EQUAL_IGNORE_TAG_ORDER);
	return 0;
}
