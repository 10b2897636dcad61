/*
 * fuzz_engine_line.c: the parser of engine output lines must never crash
 * or read outside the line, whatever the bytes; whatever it accepts must
 * be consistent: squares on the board, pointers inside the line, a PV no
 * longer than XQI_PV_MAX.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "position.h"
#include "engine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_move(xqi_move m)
{
	if (m && (!xqi_on_board(XQI_MOVE_FROM(m)) || !xqi_on_board(XQI_MOVE_TO(m)) ||
		  XQI_MOVE_FROM(m) == XQI_MOVE_TO(m)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xqi_engine_line l;
	const char *line;
	enum xqi_protocol proto;
	int base;
	char *copy;

	/* The first byte picks the dialect and the rank numbering; the rest is
	 * the line, copied so that a read past its end is caught. */
	if (size == 0 || size > 65536)
		return 0;
	proto = (enum xqi_protocol)(data[0] % 3);
	base = (data[0] >> 2) & 1;
	copy = malloc(size - 1 ? size - 1 : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	line = copy;
	xqi_engine_parse_line(&l, line, size - 1, proto, base);
	if (l.text && (l.text < line || l.text + l.text_len > line + size - 1))
		abort();
	if (l.pv_len > XQI_PV_MAX)
		abort();
	for (size_t i = 0; i < l.pv_len; i++)
		check_move(l.pv[i]);
	check_move(l.move);
	if (l.kind == XQI_LINE_BESTMOVE && l.bad_move && l.move)
		abort();
	free(copy);
	return 0;
}
