/*
 * fuzz_write_dhtmlxq.c: the DhtmlXQ writer's round trip from the richest
 * sources: games read from PGN or NDJSON (byte 0, bit 0), written as
 * DhtmlXQ in UTF-8 or GBK (bit 1), read back.  Unless the writer said
 * what it lost, every game comes back equal and writes the same bytes
 * again (fuzz_formats.h, fuzz_writer_trip).
 */
#include <stdint.h>

#include "fuzz_formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xqi_write_opts wo = XQI_WRITE_OPTS_INIT;

	if (size == 0 || size > FUZZ_MAX_INPUT)
		return 0;
	wo.encoding = data[0] & 2 ? XQI_ENC_GBK : XQI_ENC_UTF8;
	fuzz_writer_trip(data[0] & 1 ? "ndjson" : "pgn", "dhtmlxq", data + 1, size - 1, NULL, &wo,
			 XQ_EQUAL_IGNORE_TAG_ORDER);
	return 0;
}
