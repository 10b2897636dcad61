/*
 * fuzz_cbr.c: the CBR and CBL readers must never crash, read out of
 * bounds or put an illegal move in a tree.  The first byte picks what the
 * rest is: 0 a CBR file, 1 a CBL file, 2 and 3 the move tree of a version
 * 2 or 1 record (after a fixed header with the start position), 4 the
 * index and records of a library (after a fixed 66,624-byte header with
 * one to four index slots), so that the fuzzer spends its time where the
 * parsing is.  What is read is written back with the format's writer and
 * read again: the same games unless the writer said what it lost (every
 * tag back, as --verify checks: a record always states its RecordType),
 * and the same bytes when written again (fuzz_formats.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "fuzz_formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The fixed part of a record: magic, version, red to move, the start position. */
static size_t record_header(uint8_t *out, int version)
{
	static const uint8_t back[9] = {1, 2, 3, 4, 5, 4, 3, 2, 1};
	size_t board = version == 2 ? 2120 : 1864, side = version == 2 ? 2112 : 1856;

	memset(out, 0, board + 94);
	memcpy(out, "CCBridge Record", 16);
	out[19] = (uint8_t)version;
	out[side] = 1;
	out[side + 4] = 1;
	for (int c = 0; c < 9; c++) {
		out[board + c] = (uint8_t)(0x20 + back[c]);
		out[board + 81 + c] = (uint8_t)(0x10 + back[c]);
	}
	out[board + 19] = out[board + 25] = 0x26;
	out[board + 64] = out[board + 70] = 0x16;
	for (int c = 0; c < 9; c += 2) {
		out[board + 27 + c] = 0x27;
		out[board + 54 + c] = 0x17;
	}
	memset(out + board + 90, 0xFF, 4);
	return board + 94;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf;
	size_t head;
	int mode;

	if (size == 0 || size > FUZZ_MAX_INPUT)
		return 0;
	mode = data[0] % 5;
	data++;
	size--;
	if (mode < 2) {
		fuzz_round_trip(mode ? "cbl" : "cbr", data, size, NULL, XQ_EQUAL_IGNORE_TAGS);
		return 0;
	}
	head = mode == 4 ? 66624 : 2214;
	buf = malloc(head + size);
	if (!buf)
		return 0;
	if (mode == 4) {
		memset(buf, 0, head);
		memcpy(buf, "CCBridgeLibrary", 16);
		buf[16] = 3;
		buf[60] = (uint8_t)(1 + (size ? data[0] % 4 : 0));
	} else {
		head = record_header(buf, mode == 2 ? 2 : 1);
	}
	memcpy(buf + head, data, size);
	fuzz_round_trip(mode == 4 ? "cbl" : "cbr", buf, head + size, NULL, XQ_EQUAL_IGNORE_TAGS);
	free(buf);
	return 0;
}
