/*
 * fuzz_dhtmlxq.c: the DhtmlXQ reader must never crash, read out of bounds
 * or put an illegal move in a tree, whatever the bytes; and what it reads
 * must survive the writer: written and read again, every game comes back
 * equal, unless the writer said what it lost.  The first byte picks the
 * encoding the reader is told (its low 7 bits modulo 3 = 0: detect, 1:
 * UTF-8, 2: GBK) and, with bit 7, a record's limit (--max-game-size) of
 * 512 bytes, so that records over it are skipped and the next read.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "fuzz_formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum xqi_encoding encs[3] = {XQI_ENC_UNKNOWN, XQI_ENC_UTF8, XQI_ENC_GBK};
	struct xqi_read_opts opts = XQI_READ_OPTS_INIT;

	if (size == 0 || size > FUZZ_MAX_INPUT)
		return 0;
	opts.encoding = encs[(data[0] & 0x7f) % 3];
	if (data[0] & 0x80)
		opts.max_record = 512;
	fuzz_round_trip("dhtmlxq", data + 1, size - 1, &opts, 0);
	return 0;
}
