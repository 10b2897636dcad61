/*
 * fuzz_text.c: the text export reader (formats/textexp.c: CCBridge's
 * text, 联众's table, bare move lists, over the line reader
 * formats/lines.c) must never crash, read out of bounds, stop short of
 * the input's end or put an illegal move in a tree.  The first byte picks
 * the encoding the input is read in (found from the content, UTF-8,
 * GB18030 or Big5 given).
 */
#include <stdint.h>
#include <stdlib.h>

#include "format.h"
#include "fuzz_formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum xqi_encoding encs[4] = {XQI_ENC_UNKNOWN, XQI_ENC_UTF8, XQI_ENC_GB18030,
						 XQI_ENC_BIG5};
	struct xqi_read_opts opts = XQI_READ_OPTS_INIT;
	struct xqi_record games[FUZZ_MAX_GAMES];
	struct fuzz_diags c = {0, 0};
	int n;

	if (size == 0 || size > FUZZ_MAX_INPUT)
		return 0;
	opts.encoding = encs[data[0] % 4];
	n = fuzz_read("text", data + 1, size - 1, &opts, games, &c);
	for (int i = 0; i < n; i++)
		xqi_record_release(&games[i]);
	return 0;
}
