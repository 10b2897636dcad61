/*
 * fuzz_notation.c: the move-text parser must never crash or read out of
 * bounds, whatever the bytes, and what it accepts must make sense: a
 * request's fields are in range, detection agrees with parsing, and a
 * request that resolves in a position names a legal move whose text in
 * every dialect reads back as that move.  Coordinates also go through the
 * trusted writer (XQI_DIALECT_KNOWN_LEGAL) whether legal or not.
 *
 * Input: the first byte picks the dialect (low 3 bits) and the position
 * (next 2 bits); the rest is the move text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "position.h"
#include "diagnostic.h"
#include "movegen.h"
#include "notation.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const positions[4] = {
	XQI_START_FEN,
	/* after 炮二平五: black to move */
	"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
	/* tandem pieces: five pawns on a file, two rooks, two horses */
	"2P2k3/2P6/2P6/2P6/2P6/9/7R1/2N4R1/2N6/4K4 w - - 0 1",
	/* pawns on two files, black to move, black tandem cannons */
	"4k4/4c4/9/9/4c4/9/3p1p3/3p1p3/3p5/5K3 b - - 0 1",
};

static void check_request(const struct xqi_move_request *r)
{
	if (r->dialect == XQ_DIALECT_AUTO || r->dialect > XQ_DIALECT_SAN)
		abort();
	if (r->piece < -1 || r->piece >= XQI_PIECE_TYPES)
		abort();
	switch (r->dialect) {
	case XQ_DIALECT_ICCS:
	case XQ_DIALECT_UCI:
	case XQ_DIALECT_UCI1:
		if (!xqi_on_board(r->from) || !xqi_on_board(r->to))
			abort();
		break;
	case XQ_DIALECT_SAN:
		if (!xqi_on_board(r->to) || r->piece < 0 || r->from_file > 8 || r->from_rank > 9)
			abort();
		break;
	default:
		if (r->piece < 0 || r->target < 1 || r->target > 9)
			abort();
		if (r->file != -1 && (r->file < 1 || r->file > 9))
			abort();
		if (r->file == -1 && r->position == XQI_TANDEM_NONE)
			abort();
		if (r->direction != '+' && r->direction != '-' && r->direction != '.')
			abort();
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum xq_dialect writable[] = {XQ_DIALECT_ICCS, XQ_DIALECT_UCI,
						    XQ_DIALECT_UCI1, XQ_DIALECT_WXF,
						    XQ_DIALECT_CHINESE};
	struct xqi_move_request r;
	struct xq_diagnostic d;
	struct xqi_position b, before;
	enum xq_dialect dialect, detected;
	const char *text;
	size_t len, stripped;
	xqi_move m;

	if (size == 0 || size > 1024)
		return 0; /* move text is a few bytes: longer is refused at once */
	dialect = (enum xq_dialect)(data[0] & 7);
	text = (const char *)data + 1;
	len = size - 1;
	if (dialect > XQ_DIALECT_SAN)
		dialect = XQ_DIALECT_AUTO;
	xqi_diagnostic_init(&d);

	stripped = xqi_notation_strip_suffix(text, len);
	if (stripped > len)
		abort();
	/* What detection recognises, that grammar accepts (once annotations are cut). */
	detected = xqi_notation_detect(text, len);
	if (detected != XQ_DIALECT_AUTO &&
	    xqi_notation_parse(&r, text, stripped, detected, &d) != 0)
		abort();

	if (xqi_notation_parse(&r, text, len, dialect, &d) != 0) {
		if (d.code != XQI_D_BAD_MOVE_TEXT || !d.msg[0])
			abort();
		return 0;
	}
	check_request(&r);
	if (xqi_position_from_fen(&b, positions[(data[0] >> 3) & 3],
			      strlen(positions[(data[0] >> 3) & 3]), 0, &d) != 0)
		abort();
	before = b;
	if (r.from) {
		/* Any coordinates, legal or not, through the trusted writer: it may
		 * write nonsense for an illegal move but must stay in bounds. */
		for (size_t i = 0; i < sizeof(writable) / sizeof(writable[0]); i++) {
			char out[XQ_MOVE_TEXT_SIZE];
			xqi_notation_write(out, sizeof(out), &b, XQI_MOVE(r.from, r.to), writable[i],
					  (unsigned)(data[0] >> 5) | XQI_DIALECT_KNOWN_LEGAL);
		}
		if (memcmp(&b, &before, sizeof(b)) != 0)
			abort();
	}
	if (xqi_notation_resolve(&m, &b, &r, &d) != 0) {
		if (!d.msg[0] || (d.code != XQI_D_ILLEGAL_MOVE && d.code != XQI_D_AMBIGUOUS_MOVE))
			abort();
		if (memcmp(&b, &before, sizeof(b)) != 0)
			abort();
		return 0;
	}
	if (!xqi_move_is_legal(&b, m) || memcmp(&b, &before, sizeof(b)) != 0)
		abort();
	for (size_t i = 0; i < sizeof(writable) / sizeof(writable[0]); i++) {
		char out[XQ_MOVE_TEXT_SIZE];
		xqi_move back;
		size_t n = xqi_notation_write(out, sizeof(out), &b, m, writable[i], data[0] >> 5);
		if (n == 0 || xqi_notation_read(&back, &b, out, n, writable[i], &d) != 0 || back != m)
			abort();
	}
	return 0;
}
