/*
 * fuzz_write_ndjson.c: the NDJSON writer's round trip from other formats:
 * games read from PGN or DhtmlXQ (byte 0, bit 0), written as NDJSON, read
 * back.  NDJSON holds everything a game holds, so every game comes back
 * equal (the writer never reports a loss) and writes the same bytes again
 * (fuzz_formats.h, fuzz_writer_trip).  (NDJSON's own round trip is
 * fuzz_ndjson's.)
 */
#include <stdint.h>

#include "fuzz_formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0 || size > FUZZ_MAX_INPUT)
		return 0;
	fuzz_writer_trip(data[0] & 1 ? "dhtmlxq" : "pgn", "ndjson", data + 1, size - 1, NULL, NULL,
			 0);
	return 0;
}
