/*
 * fuzz_write_pgn.c: the PGN writer's round trip from another format:
 * games read from NDJSON (which can hold any tag name, comment and NAG),
 * written as PGN in the notation byte 0 picks (bits 0-1: Chinese, ICCS,
 * WXF) and encoding (bits 2-3: UTF-8, GB18030, Big5), read back.  Unless
 * the writer said what it lost, every game comes back equal and writes
 * the same bytes again (fuzz_formats.h, fuzz_writer_trip).  (PGN's own
 * round trip is fuzz_pgn's.)
 */
#include <stdint.h>

#include "fuzz_formats.h"
#include "notation.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int notations[4] = {XQ_DIALECT_CHINESE, XQ_DIALECT_ICCS, XQ_DIALECT_WXF,
					 XQ_DIALECT_CHINESE};
	static const enum xqi_encoding encs[4] = {XQI_ENC_UTF8, XQI_ENC_GB18030, XQI_ENC_BIG5,
						 XQI_ENC_UTF8};
	struct xqi_write_opts wo = XQI_WRITE_OPTS_INIT;

	if (size == 0 || size > FUZZ_MAX_INPUT)
		return 0;
	wo.notation = notations[data[0] & 3];
	wo.encoding = encs[(data[0] >> 2) & 3];
	fuzz_writer_trip("ndjson", "pgn", data + 1, size - 1, NULL, &wo, 0);
	return 0;
}
