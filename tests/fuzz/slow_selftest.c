/*
 * slow_selftest.c: a target for the replay driver's own test (`make
 * check`, tests/fuzz/slow_selftest.sh): an input that starts with "spin"
 * burns CPU until the driver's limit (slow.h) stops it, as a parser gone
 * quadratic would; any other input returns at once.  Not a fuzz target:
 * its name does not start with fuzz_.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	volatile uint64_t spins = 0;

	if (size < 4 || memcmp(data, "spin", 4) != 0)
		return 0;
	for (;;)
		spins++;
}
