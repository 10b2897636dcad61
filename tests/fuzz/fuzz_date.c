/*
 * fuzz_date.c: reading a Date tag (lib/fix.h) must never crash or read out
 * of bounds, whatever the text.
 *
 * Input: the tag's value.  A date it fixes must be in PGN's form, and read
 * again that form must be left as it is: what --fix writes, a second
 * --fix never changes.  A reason is given for every date it leaves.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fix.h"

#define CAP 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int pgn_form(const char *s)
{
	if (strlen(s) != 10 || s[4] != '.' || s[7] != '.')
		return 0;
	for (int i = 0; i < 10; i++)
		if (i != 4 && i != 7 && s[i] != '?' && (s[i] < '0' || s[i] > '9'))
			return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xq_date d, again;
	enum xq_date_kind k;

	if (size > CAP)
		return 0;
	k = xq_date_normalize(&d, (const char *)data, size);
	switch (k) {
	case XQ_DATE_CANONICAL:
		if (!pgn_form(d.date) && d.date[0])
			abort();
		break;
	case XQ_DATE_FIXED:
		if (!pgn_form(d.date) ||
		    xq_date_normalize(&again, d.date, strlen(d.date)) != XQ_DATE_CANONICAL)
			abort();
		if (d.time[0] && strlen(d.time) != 8)
			abort();
		break;
	case XQ_DATE_AMBIGUOUS:
	case XQ_DATE_UNKNOWN:
		if (!d.why[0])
			abort();
		break;
	default:
		abort();
	}
	return 0;
}
