/*
 * fuzz_text.c: the text export reader (formats/textexp.c: CCBridge's
 * text, 联众's table, bare move lists, over the line reader
 * formats/lines.c) must never crash, read out of bounds, stop short of
 * the input's end or put an illegal move in a tree.  The first byte picks
 * the encoding the input is read in (fuzz_read_encodings).
 */
#include <stdint.h>
#include <stdlib.h>

#include "format.h"
#include "fuzz_formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_encodings("text", data, size, NULL);
	return 0;
}
