/*
 * fuzz_write_xqf.c: the XQF writer's round trip from the richest sources:
 * games read from PGN or NDJSON (byte 0, bit 0), written as XQF 0x0A or
 * 0x12 (bit 1) in GB18030, Big5 or UTF-8 (bits 2-3), read back (one game
 * a file: the first).  Unless the writer said what it lost, the game
 * comes back equal and writes the same bytes again (fuzz_formats.h,
 * fuzz_writer_trip).  Tags come back in XQF's order of fields.
 */
#include <stdint.h>

#include "fuzz_formats.h"
#include "xqf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum xqi_encoding encs[4] = {XQI_ENC_GB18030, XQI_ENC_BIG5, XQI_ENC_UTF8,
						 XQI_ENC_GB18030};
	struct xqi_write_opts wo = XQI_WRITE_OPTS_INIT;

	if (size == 0 || size > FUZZ_MAX_INPUT)
		return 0;
	wo.version = data[0] & 2 ? XQI_XQF_VERSION_ENCRYPTED : XQI_XQF_VERSION_PLAIN;
	wo.encoding = encs[(data[0] >> 2) & 3];
	fuzz_writer_trip(data[0] & 1 ? "ndjson" : "pgn", "xqf", data + 1, size - 1, NULL, &wo,
			 XQ_EQUAL_IGNORE_TAG_ORDER);
	return 0;
}
