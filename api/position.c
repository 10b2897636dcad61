/*
 * position.c: positions, moves and their text, FEN and perft of the
 * public API (<xq/position.h>).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

xqi_sq xqi_api_square_in(int square)
{
	if (square < 0 || square >= 90)
		return 0;
	return XQI_SQ(square % 9, square / 9);
}

int xqi_api_square_out(xqi_sq sq)
{
	return XQI_SQ_RANK(sq) * 9 + XQI_SQ_FILE(sq);
}

xqi_move xqi_api_move_in(xq_move_code m)
{
	xqi_sq from = xqi_api_square_in(XQ_MOVE_CODE_FROM(m)), to = xqi_api_square_in(XQ_MOVE_CODE_TO(m));

	return from && to ? XQI_MOVE(from, to) : 0;
}

xq_move_code xqi_api_move_out(xqi_move m)
{
	if (!m)
		return 0;
	return XQ_MOVE_CODE(xqi_api_square_out(XQI_MOVE_FROM(m)), xqi_api_square_out(XQI_MOVE_TO(m)));
}

const char *xq_dialect_name(int dialect)
{
	if (dialect < XQ_DIALECT_AUTO || dialect > XQ_DIALECT_SAN)
		return NULL;
	return xqi_notation_name((enum xq_dialect)dialect);
}

int xq_dialect_from_name(const char *name)
{
	enum xq_dialect n;

	if (!name)
		return XQ_EINVAL;
	if (xqi_notation_from_name(name, &n) != 0)
		return XQ_ENOTFOUND;
	return (int)n;
}

xq_position *xq_position_new(void)
{
	xq_position *p = calloc(1, sizeof(*p));

	if (p)
		xqi_position_start(&p->b);
	return p;
}

void xq_position_free(xq_position *p)
{
	free(p);
}

xq_position *xq_position_dup(const xq_position *p)
{
	xq_position *q;

	if (!p)
		return NULL;
	q = malloc(sizeof(*q));
	if (q)
		*q = *p;
	return q;
}

static void ok(xq_position *p)
{
	p->has_err = 0;
}

static int fail(xq_position *p, int rc)
{
	p->has_err = 1;
	return rc;
}

void xq_position_set_start(xq_position *p)
{
	if (!p)
		return;
	xqi_position_start(&p->b);
	ok(p);
}

int xq_position_set_fen(xq_position *p, const char *fen)
{
	int rc;

	if (!p || !fen)
		return XQ_EINVAL;
	xqi_diagnostic_init(&p->err);
	rc = xqi_position_from_fen(&p->b, fen, strlen(fen), 0, &p->err);
	if (rc)
		return fail(p, rc);
	ok(p);
	return 0;
}

void xq_position_material(const xq_position *p, int counts[14])
{
	if (!counts)
		return;
	memset(counts, 0, 14 * sizeof(counts[0]));
	for (int id = 16; p && id < 48; id++)
		if (p->b.pc[id] && xqi_kind_of_id[id]) {
			uint8_t k = xqi_kind_of_id[id];
			counts[XQI_KIND_SIDE(k) * 7 + XQI_KIND_TYPE(k)]++;
		}
}

int xq_position_set_fen_lenient(xq_position *p, const char *fen)
{
	int rc;

	if (!p || !fen)
		return XQ_EINVAL;
	xqi_diagnostic_init(&p->err);
	rc = xqi_position_from_fen(&p->b, fen, strlen(fen), XQI_FEN_LENIENT_PLACEMENT, &p->err);
	if (rc)
		return fail(p, rc);
	ok(p);
	return 0;
}

void xq_position_copy(xq_position *dst, const xq_position *src)
{
	if (dst && src && dst != src)
		*dst = *src;
}

int xq_position_same(const xq_position *a, const xq_position *b)
{
	return a && b && xqi_position_same(&a->b, &b->b);
}

size_t xqi_api_fen(const struct xqi_position *b, char *buf, size_t cap)
{
	char fen[XQ_FEN_SIZE];
	size_t len;

	if (!buf)
		return 0;
	len = b ? xqi_position_to_fen(b, fen, sizeof(fen)) : cap;
	if (len >= cap) {
		if (cap)
			buf[0] = '\0';
		return 0;
	}
	memcpy(buf, fen, len + 1);
	return len;
}

size_t xq_position_fen(const xq_position *p, char *buf, size_t cap)
{
	return xqi_api_fen(p ? &p->b : NULL, buf, cap);
}

int xq_position_side(const xq_position *p)
{
	return p ? p->b.side : XQ_EINVAL;
}

int xq_position_move_number(const xq_position *p)
{
	return p ? (int)p->b.fullmove : XQ_EINVAL;
}

char xq_position_piece(const xq_position *p, int square)
{
	static const char letters[] = "KABNRCP";
	xqi_sq sq = xqi_api_square_in(square);
	uint8_t kind = sq && p ? xqi_position_kind(&p->b, sq) : 0;
	char c;

	if (!kind)
		return 0;
	c = letters[XQI_KIND_TYPE(kind)];
	return XQI_KIND_SIDE(kind) ? (char)(c - 'A' + 'a') : c;
}

int xq_position_legal_moves(const xq_position *p, xq_move_code *out)
{
	struct xqi_position b;
	xqi_move moves[XQ_MOVES_MAX];
	int n;

	if (!p || !out)
		return XQ_EINVAL;
	b = p->b;
	n = xqi_gen_legal(&b, moves);
	for (int i = 0; i < n; i++)
		out[i] = xqi_api_move_out(moves[i]);
	return n;
}

int xq_position_in_check(const xq_position *p)
{
	return p && xqi_position_in_check(&p->b) ? 1 : 0;
}

int xq_position_state(const xq_position *p)
{
	struct xqi_position b;

	if (!p)
		return XQ_EINVAL;
	b = p->b;
	switch (xqi_position_status(&b)) {
	case XQ_STATE_CHECKMATE:
		return XQ_STATE_CHECKMATE;
	case XQ_STATE_STALEMATE:
		return XQ_STATE_STALEMATE;
	default:
		return XQ_STATE_PLAYING;
	}
}

int xq_position_play(xq_position *p, xq_move_code m)
{
	xqi_move mv = xqi_api_move_in(m);
	struct xqi_undo u;
	int rc;

	if (!p)
		return XQ_EINVAL;
	xqi_diagnostic_init(&p->err);
	if (!mv)
		return fail(p, xqi_diagnostic_set(&p->err, XQ_EILLEGAL, XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_ERROR,
					   "move code %u names a square off the board", (unsigned)m));
	if ((rc = xqi_move_check(&p->b, mv, &p->err)) != 0)
		return fail(p, rc);
	xqi_position_make(&p->b, mv, &u);
	ok(p);
	return 0;
}

int xq_position_read_move(xq_position *p, const char *text, int dialect, xq_move_code *out)
{
	size_t len;
	xqi_move mv;
	int rc;

	if (!p || !text || !out)
		return XQ_EINVAL;
	len = strlen(text);
	xqi_diagnostic_init(&p->err);
	if (dialect < XQ_DIALECT_AUTO || dialect > XQ_DIALECT_SAN)
		return fail(p, xqi_diagnostic_set(&p->err, XQ_ENOTFOUND, XQI_D_BAD_MOVE_TEXT, XQ_SEVERITY_ERROR,
					   "no notation numbered %d", dialect));
	len = xqi_notation_strip_suffix(text, len);
	rc = xqi_notation_read(&mv, &p->b, text, len, (enum xq_dialect)dialect, &p->err);
	if (rc)
		return fail(p, rc);
	*out = xqi_api_move_out(mv);
	ok(p);
	return 0;
}

int xq_position_play_text(xq_position *p, const char *text, int dialect)
{
	xq_move_code m;
	int rc = xq_position_read_move(p, text, dialect, &m);

	return rc ? rc : xq_position_play(p, m);
}

size_t xq_position_move_text(const xq_position *p, xq_move_code m, int dialect, unsigned flags,
			     char *buf, size_t cap)
{
	struct xqi_position b;
	xqi_move mv = xqi_api_move_in(m);

	flags &= XQ_DIALECT_TRADITIONAL | XQ_DIALECT_ASCII_DIGITS | XQ_DIALECT_UPPER | XQ_DIALECT_DASH |
		 XQ_DIALECT_DPXQ_PAWNS;
	if (!p || !buf || !mv || dialect <= XQ_DIALECT_AUTO || dialect >= XQ_DIALECT_SAN) {
		if (cap && buf)
			buf[0] = '\0';
		return 0;
	}
	b = p->b;
	return xqi_notation_write(buf, cap, &b, mv, (enum xq_dialect)dialect, flags);
}

uint64_t xq_position_key(const xq_position *p)
{
	return p ? p->b.key : 0;
}

void xq_position_mirror(xq_position *p)
{
	struct xqi_position m;

	if (!p)
		return;
	xqi_position_mirror(&p->b, &m);
	p->b = m;
	ok(p);
}

/* On the public squares (rank * 9 + file) themselves: dedupe --mirror
 * mirrors every move it reads, so no trip through the board's squares. */
static unsigned mirror_square(unsigned sq)
{
	return sq + 8 - 2 * (sq % 9);
}

xq_move_code xq_move_code_mirror(xq_move_code m)
{
	unsigned from = XQ_MOVE_CODE_FROM(m), to = XQ_MOVE_CODE_TO(m);

	if (!m || from >= 90 || to >= 90)
		return 0; /* 0 is no move, not a1a1; the others are no squares */
	return XQ_MOVE_CODE(mirror_square(from), mirror_square(to));
}

size_t xq_move_code_iccs(xq_move_code m, char out[5])
{
	unsigned from = XQ_MOVE_CODE_FROM(m), to = XQ_MOVE_CODE_TO(m);

	if (!out)
		return 0;
	out[0] = '\0';
	if (!m || from >= 90 || to >= 90)
		return 0;
	xqi_move_name(xqi_api_move_in(m), out);
	out[4] = '\0';
	return 4;
}

uint64_t xq_position_perft(const xq_position *p, int depth)
{
	struct xqi_position b;

	if (!p)
		return 0;
	if (depth <= 0)
		return 1;
	b = p->b;
	return xqi_perft(&b, depth);
}

/* perft that looks at `cancel` before every subtree four plies deep or
 * more: a subtree three plies deep is some 10^5 leaves at most, a few
 * milliseconds, so a set flag stops it at once. */
static int perft_polled(struct xqi_position *b, int depth, const xq_cancel *cancel, uint64_t *total)
{
	xqi_move moves[XQ_MOVES_MAX];
	struct xqi_undo u;
	int n, rc = 0;

	if (depth < 4) {
		*total += xqi_perft(b, depth);
		return 0;
	}
	if (xq_cancel_is_set(cancel))
		return XQ_ECANCELED;
	n = xqi_gen_legal(b, moves);
	for (int i = 0; i < n && !rc; i++) {
		xqi_position_make(b, moves[i], &u);
		rc = perft_polled(b, depth - 1, cancel, total);
		xqi_position_unmake(b, moves[i], &u);
	}
	return rc;
}

int xq_position_perft_cancel(const xq_position *p, int depth, const xq_cancel *cancel,
			     uint64_t *out)
{
	struct xqi_position b;

	if (!p || !out)
		return XQ_EINVAL;
	*out = 0;
	if (depth < 0)
		return XQ_ERANGE;
	b = p->b;
	return perft_polled(&b, depth, cancel, out);
}

const xq_diagnostic *xq_position_error(const xq_position *p)
{
	return p && p->has_err ? &p->err : NULL;
}
