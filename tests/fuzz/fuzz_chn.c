/*
 * fuzz_chn.c: the 联众 CHN/XQI reader must never crash, read out of bounds,
 * put an illegal move in a tree or fail to end, whatever the bytes
 * (fuzz_formats.h checks each game read).
 */
#include <stdint.h>

#include "fuzz_formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size <= FUZZ_MAX_INPUT)
		fuzz_read_only("chn", data, size);
	return 0;
}
