/*
 * fuzz_rules.c: the rules engine must never crash or read out of bounds on
 * any line of moves, legal or not, and the search track must rule on the
 * final position exactly as the analysis does.
 *
 * Input: byte 0 picks the options (rule set, limits, classify all) and the
 * recorded result and claim checked against the line, byte 1
 * the start position; every further byte is a move: 0-15 take back the
 * mover's move of two plies before (so cycles are common), 255 followed by
 * two bytes is a raw 16-bit move (mostly illegal), anything else picks a
 * legal move by index.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "position.h"
#include "buf.h"
#include "diagnostic.h"
#include "movegen.h"
#include "rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const starts[] = {
	XQI_START_FEN,
	"4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 0 1",
	"3rr4/4k4/9/4P4/3P5/9/9/3C5/9/5K3 w - - 0 1",
	"4k4/9/4b4/9/2n6/9/4R4/9/9/3K5 w - - 100 1",
	"2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
	"5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1",
	"4k4/9/9/9/4n4/9/5C3/9/4N4/4K4 w - - 0 1",
	"3k5/8R/9/9/9/9/9/9/9/4K4 w - - 0 1",
};

#define MAX_PLIES 512

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xqi_rules_options o = XQI_RULES_OPTIONS_INIT;
	struct xqi_position start, b;
	struct xqi_rules_report r;
	struct xqi_rules_track t;
	struct xqi_rules_probe p;
	struct xq_diagnostic d;
	struct xq_buf out = XQ_BUF_INIT;
	enum xqi_rules_support st;
	xqi_move line[MAX_PLIES + 1];
	size_t n = 0, i;
	int legal = 1, hit;

	if (size < 2 || size > 4096)
		return 0; /* MAX_PLIES moves take 3 bytes each at most */
	o.rules = data[0] & 1 ? XQ_RULESET_CHINESE : XQ_RULESET_ASIAN;
	o.counted_checks = data[0] & 2 ? 10 : 0;
	o.cxq = (data[0] & 4) != 0;
	o.natural_limit = data[0] & 8 ? 20 : 120;
	o.flags = data[0] & 16 ? XQI_RULES_CLASSIFY_ALL : 0;
	if (xqi_position_from_fen(&start, starts[data[1] % 8], strlen(starts[data[1] % 8]), 0, NULL))
		abort();
	b = start;
	for (i = 2; i < size && n < MAX_PLIES; i++) {
		xqi_move moves[XQ_MOVES_MAX], m = 0;
		struct xqi_undo u;
		int nm = xqi_gen_legal(&b, moves);

		if (data[i] == 255 && i + 2 < size) {
			m = (xqi_move)(data[i + 1] | data[i + 2] << 8);
			i += 2;
		} else if (data[i] < 16 && n >= 2) {
			xqi_move back = line[n - 2];
			m = XQI_MOVE(XQI_MOVE_TO(back), XQI_MOVE_FROM(back));
			if (!xqi_move_is_legal(&b, m))
				m = nm ? moves[data[i] % nm] : 0;
		} else if (nm) {
			m = moves[data[i] % nm];
		}
		if (!m)
			break;
		line[n++] = m;
		if (legal && xqi_move_is_legal(&b, m))
			xqi_position_make(&b, m, &u);
		else
			legal = 0;
	}

	xqi_rules_report_init(&r);
	xqi_diagnostic_init(&d);
	if (xqi_rules_analyze(&r, &start, line, n, &o, &d) != (legal ? 0 : XQ_EILLEGAL))
		abort();
	if (xqi_rules_describe(&out, &r))
		abort();
	for (size_t k = 1; k <= r.nplies; k++)
		if (xqi_rules_describe_ply(&out, &r, k))
			abort();
	xqi_diagnostic_init(&d);
	if (xqi_rules_check_result(&st, &start, line, n, (enum xqi_result)((data[0] >> 5) % 5),
				  (enum xqi_rules_claim)((data[0] >> 5) % 3), &o, &d, &out) !=
	    (legal ? 0 : XQ_EILLEGAL))
		abort();

	/* The track sees what the analysis sees. */
	if (legal) {
		const struct xqi_rules_cycle *c =
			r.ncycles && r.cycles[r.ncycles - 1].last == n ? &r.cycles[r.ncycles - 1]
								      : NULL;
		b = start;
		if (xqi_rules_track_init(&t, &b, n, &o))
			abort();
		for (size_t k = 0; k < n; k++) {
			struct xqi_undo u;
			xqi_position_make(&b, line[k], &u);
			if (xqi_rules_track_push(&t, &b, line[k], &u))
				abort();
		}
		hit = xqi_rules_track_probe(&t, &b, &p);
		if (c && c->repeats >= 3 && (hit != 1 || p.limit || p.verdict != c->verdict))
			abort();
		if (!c && hit == 1 && !p.limit)
			abort();
		xqi_rules_track_release(&t);
	}
	xq_buf_release(&out);
	xqi_rules_report_release(&r);
	return 0;
}
