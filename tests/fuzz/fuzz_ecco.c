/*
 * fuzz_ecco.c: the ECCO code list parser and the opening classifier must
 * never crash or read out of bounds, whatever the input.
 *
 * Input: byte 0 picks the part.  Even: the rest is a code list for
 * xqi_ecco_set_parse(); an accepted list must name at least one code and
 * read back equal when written again as ranges, and a rejected one must
 * leave the set untouched and place the error inside the text.  Odd: every
 * further byte is a move from the start position (a legal one picked by
 * index, or with 255 and two more bytes a raw 16-bit move, mostly
 * impossible); the classification must succeed on a legal line, give a
 * named code, and give the same code to the line seen in a mirror.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "position.h"
#include "diagnostic.h"
#include "ecco.h"
#include "movegen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void parse_list(const char *text, size_t len)
{
	struct xqi_ecco_set set, again;
	struct xq_diagnostic d;
	char back[XQI_ECCO_CODES * 8 + 1];
	size_t n = 0;
	int any = 0;

	memset(&set, 0xa5, sizeof(set));
	xqi_diagnostic_init(&d);
	if (xqi_ecco_set_parse(&set, text, len, &d) != 0) {
		for (size_t i = 0; i < sizeof(set.bits) / sizeof(set.bits[0]); i++)
			if (set.bits[i] != 0xa5a5a5a5a5a5a5a5ull)
				abort(); /* a rejected list never half-fills the set */
		if (d.code != XQI_D_SYNTAX || !d.has_offset || d.place.offset > len ||
		    d.place.col < 1 || d.place.col > d.place.offset + 1)
			abort();
		return;
	}
	/* Write the set as ranges of full codes, and read that back. */
	for (int c = 0; c < XQI_ECCO_CODES; c++) {
		int end = c;
		if (!xqi_ecco_set_has(&set, c))
			continue;
		while (end + 1 < XQI_ECCO_CODES && xqi_ecco_set_has(&set, end + 1))
			end++;
		n += (size_t)snprintf(back + n, sizeof(back) - n, "%s%c%02d-%c%02d", any ? "," : "",
				      'A' + c / 100, c % 100, 'A' + end / 100, end % 100);
		any = 1;
		c = end;
	}
	if (!any || xqi_ecco_set_parse(&again, back, n, &d) != 0 ||
	    memcmp(&again, &set, sizeof(set)) != 0)
		abort();
}

#define MAX_PLIES 24

static void classify_line(const uint8_t *data, size_t size)
{
	struct xqi_position start, b;
	xqi_move line[MAX_PLIES], turned[MAX_PLIES];
	const struct xqi_ecco *e = NULL, *m = NULL;
	struct xq_diagnostic d;
	size_t n = 0;
	int legal = 1, rc;

	xqi_position_start(&start);
	b = start;
	for (size_t i = 0; i < size && n < MAX_PLIES; i++) {
		xqi_move moves[XQ_MOVES_MAX], mv;
		struct xqi_undo u;
		int nm = xqi_gen_legal(&b, moves);

		if (data[i] == 255 && i + 2 < size) {
			mv = (xqi_move)(data[i + 1] | data[i + 2] << 8);
			i += 2;
			legal = 0; /* from here on the line is not replayed */
		} else if (nm) {
			mv = moves[data[i] % nm];
		} else {
			break;
		}
		line[n++] = mv;
		if (legal)
			xqi_position_make(&b, mv, &u);
	}
	xqi_diagnostic_init(&d);
	rc = xqi_ecco_classify(&e, &start, line, n, &d);
	if (rc == 0 && (!e || xqi_ecco_lookup(e->code, 3) != e))
		abort(); /* from the start, every answer is a named code */
	if (!legal) {
		if (rc != 0 && rc != XQ_EILLEGAL)
			abort();
		return;
	}
	if (rc != 0)
		abort(); /* a legal line always classifies */
	for (size_t i = 0; i < n; i++) {
		xqi_sq f = XQI_MOVE_FROM(line[i]), t = XQI_MOVE_TO(line[i]);
		turned[i] = XQI_MOVE(XQI_SQ(8 - XQI_SQ_FILE(f), XQI_SQ_RANK(f)),
				    XQI_SQ(8 - XQI_SQ_FILE(t), XQI_SQ_RANK(t)));
	}
	if (xqi_ecco_classify(&m, &start, turned, n, &d) != 0 || m != e)
		abort(); /* a mirror changes nothing */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0 || size > 4096)
		return 0; /* code lists are short; a line stops at MAX_PLIES */
	if (data[0] & 1)
		classify_line(data + 1, size - 1);
	else
		parse_list((const char *)data + 1, size - 1);
	return 0;
}
