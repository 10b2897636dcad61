/*
 * fuzz_notation.c: the move-text parser must never crash or read out of
 * bounds, whatever the bytes, and what it accepts must make sense: a
 * request's fields are in range, detection agrees with parsing, and a
 * request that resolves in a position names a legal move whose text in
 * every dialect reads back as that move.  Coordinates also go through the
 * trusted writer (XQ_NOTATION_KNOWN_LEGAL) whether legal or not.
 *
 * Input: the first byte picks the dialect (low 3 bits) and the position
 * (next 2 bits); the rest is the move text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "diag.h"
#include "movegen.h"
#include "notation.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const positions[4] = {
	XQ_START_FEN,
	/* after 炮二平五: black to move */
	"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
	/* tandem pieces: five pawns on a file, two rooks, two horses */
	"2P2k3/2P6/2P6/2P6/2P6/9/7R1/2N4R1/2N6/4K4 w - - 0 1",
	/* pawns on two files, black to move, black tandem cannons */
	"4k4/4c4/9/9/4c4/9/3p1p3/3p1p3/3p5/5K3 b - - 0 1",
};

static void check_request(const struct xq_move_request *r)
{
	if (r->dialect == XQ_NOTATION_AUTO || r->dialect > XQ_NOTATION_SAN)
		abort();
	if (r->piece < -1 || r->piece >= XQ_PIECE_TYPES)
		abort();
	switch (r->dialect) {
	case XQ_NOTATION_ICCS:
	case XQ_NOTATION_UCI:
	case XQ_NOTATION_UCI1:
		if (!xq_on_board(r->from) || !xq_on_board(r->to))
			abort();
		break;
	case XQ_NOTATION_SAN:
		if (!xq_on_board(r->to) || r->piece < 0 || r->from_file > 8 || r->from_rank > 9)
			abort();
		break;
	default:
		if (r->piece < 0 || r->target < 1 || r->target > 9)
			abort();
		if (r->file != -1 && (r->file < 1 || r->file > 9))
			abort();
		if (r->file == -1 && r->position == XQ_TANDEM_NONE)
			abort();
		if (r->direction != '+' && r->direction != '-' && r->direction != '.')
			abort();
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum xq_notation writable[] = {XQ_NOTATION_ICCS, XQ_NOTATION_UCI,
						    XQ_NOTATION_UCI1, XQ_NOTATION_WXF,
						    XQ_NOTATION_CHINESE};
	struct xq_move_request r;
	struct xq_diag d;
	struct xq_board b, before;
	enum xq_notation dialect, detected;
	const char *text;
	size_t len, stripped;
	xq_move m;

	if (size == 0 || size > 1024)
		return 0; /* move text is a few bytes: longer is refused at once */
	dialect = (enum xq_notation)(data[0] & 7);
	text = (const char *)data + 1;
	len = size - 1;
	if (dialect > XQ_NOTATION_SAN)
		dialect = XQ_NOTATION_AUTO;
	xq_diag_init(&d);

	stripped = xq_notation_strip_suffix(text, len);
	if (stripped > len)
		abort();
	/* What detection recognises, that grammar accepts (once annotations are cut). */
	detected = xq_notation_detect(text, len);
	if (detected != XQ_NOTATION_AUTO &&
	    xq_notation_parse(&r, text, stripped, detected, &d) != 0)
		abort();

	if (xq_notation_parse(&r, text, len, dialect, &d) != 0) {
		if (d.code != XQ_D_BAD_MOVE_TEXT || !d.msg[0])
			abort();
		return 0;
	}
	check_request(&r);
	if (xq_board_from_fen(&b, positions[(data[0] >> 3) & 3],
			      strlen(positions[(data[0] >> 3) & 3]), 0, &d) != 0)
		abort();
	before = b;
	if (r.from) {
		/* Any coordinates, legal or not, through the trusted writer: it may
		 * write nonsense for an illegal move but must stay in bounds. */
		for (size_t i = 0; i < sizeof(writable) / sizeof(writable[0]); i++) {
			char out[XQ_MOVE_TEXT_MAX];
			xq_notation_write(out, sizeof(out), &b, XQ_MOVE(r.from, r.to), writable[i],
					  (unsigned)(data[0] >> 5) | XQ_NOTATION_KNOWN_LEGAL);
		}
		if (memcmp(&b, &before, sizeof(b)) != 0)
			abort();
	}
	if (xq_notation_resolve(&m, &b, &r, &d) != 0) {
		if (!d.msg[0] || (d.code != XQ_D_ILLEGAL_MOVE && d.code != XQ_D_AMBIGUOUS_MOVE))
			abort();
		if (memcmp(&b, &before, sizeof(b)) != 0)
			abort();
		return 0;
	}
	if (!xq_move_is_legal(&b, m) || memcmp(&b, &before, sizeof(b)) != 0)
		abort();
	for (size_t i = 0; i < sizeof(writable) / sizeof(writable[0]); i++) {
		char out[XQ_MOVE_TEXT_MAX];
		xq_move back;
		size_t n = xq_notation_write(out, sizeof(out), &b, m, writable[i], data[0] >> 5);
		if (n == 0 || xq_notation_read(&back, &b, out, n, writable[i], &d) != 0 || back != m)
			abort();
	}
	return 0;
}
