/*
 * fuzz_write_cbf.c: the CBF writer's round trip from the richest sources:
 * games read from PGN or NDJSON (byte 0, bit 0), written as CBF, read back
 * (one game a file: the first).  Unless the writer said what it lost, the
 * game comes back equal and writes the same bytes again (fuzz_formats.h,
 * fuzz_writer_trip).  Tags come back in CBF's order of elements.
 */
#include <stdint.h>

#include "fuzz_formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0 || size > FUZZ_MAX_INPUT)
		return 0;
	fuzz_writer_trip(data[0] & 1 ? "ndjson" : "pgn", "cbf", data + 1, size - 1, NULL, NULL,
			 XQ_EQUAL_IGNORE_TAG_ORDER);
	return 0;
}
