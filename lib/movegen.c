/*
 * movegen.c: pseudo-legal generation from the piece lists and line tables,
 * then a legality filter that does a full make/test/unmake only for moves
 * that could expose the king.
 *
 * Why the filter is sound.  When the side to move is not in check, a move
 * of a piece other than the king from s to t can only expose the king by:
 *   - emptying s when s is the only piece between the king and an enemy
 *     rook (or the enemy king on the same file),
 *   - emptying s when s is one of exactly two pieces between the king and
 *     an enemy cannon (the cannon is left with one screen),
 *   - filling an empty t between the king and an enemy cannon that has no
 *     screen at all ("hollow cannon"),
 *   - emptying s when s is the leg of an enemy horse aimed at the king.
 * A capture never changes the number of pieces between two points (the
 * mover takes the victim's place), and pawns, advisors and elephants cannot
 * be uncovered.  So such "pinned" pieces and "hollow" target squares are
 * marked once per position, and only moves touching them, king moves, and
 * every move when in check, get the full test.  Perft against the reference
 * suite checks this reasoning on millions of positions.
 */
#include "movegen.h"

#include <stdarg.h>
#include <string.h>

#include "diagnostic.h"
#include "tables.h"

/* Is square s diagonally next to k (where the leg of a horse attacking
 * k would be)? */
static inline int next_corner(xqi_sq s, xqi_sq k)
{
	int dx = (s & 15) - (k & 15), dy = (s >> 4) - (k >> 4);

	return dx * dx == 1 && dy * dy == 1;
}

#define ADD(f, t) (*out++ = XQI_MOVE((f), (t)))

static inline int gen_sliders(const struct xqi_position *b, int tag, int captures_only,
			      xqi_move *out)
{
	xqi_move *start = out;
	int enemy = tag ^ 48;

	for (int id = tag + 7; id <= tag + 10; id++) {
		xqi_sq s = b->pc[id];
		int x, y, cannon = id >= tag + 9;
		const struct xqi_slide *r, *f;
		if (!s)
			continue;
		x = s & 15;
		y = s >> 4;
		r = &xqi_rank_slide[x - 3][b->rank_bits[y]];
		f = &xqi_file_slide[y - 3][b->file_bits[x]];
		if (!captures_only) {
			for (int t = x + 1; t <= r->noncap[0]; t++)
				ADD(s, y << 4 | t);
			for (int t = x - 1; t >= r->noncap[1]; t--)
				ADD(s, y << 4 | t);
			for (int t = y + 1; t <= f->noncap[0]; t++)
				ADD(s, t << 4 | x);
			for (int t = y - 1; t >= f->noncap[1]; t--)
				ADD(s, t << 4 | x);
		}
		for (int d = 0; d < 2; d++) {
			int c = cannon ? r->second[d] : r->first[d];
			if (c && (b->sq[y << 4 | c] & enemy))
				ADD(s, y << 4 | c);
			c = cannon ? f->second[d] : f->first[d];
			if (c && (b->sq[c << 4 | x] & enemy))
				ADD(s, c << 4 | x);
		}
	}
	return (int)(out - start);
}

static inline int gen(const struct xqi_position *b, int captures_only, xqi_move *out)
{
	xqi_move *start = out;
	int side = b->side, tag = XQI_SIDE_TAG(side), enemy = tag ^ 48;
	/* A target is allowed if it holds no own piece (all moves) or holds an
	 * enemy piece (captures only). */
#define OK_TARGET(t) (captures_only ? (b->sq[t] & enemy) : !(b->sq[t] & tag))
	xqi_sq s;
	const uint8_t *t;

	s = b->pc[tag];
	if (s)
		for (t = xqi_king_to[s]; *t; t++)
			if (OK_TARGET(*t))
				ADD(s, *t);
	for (int id = tag + 1; id <= tag + 2; id++) {
		s = b->pc[id];
		if (!s)
			continue;
		for (t = xqi_advisor_to[s]; *t; t++)
			if (OK_TARGET(*t))
				ADD(s, *t);
	}
	for (int id = tag + 3; id <= tag + 4; id++) {
		s = b->pc[id];
		if (!s)
			continue;
		for (int i = 0; xqi_elephant_to[s][i]; i++) {
			xqi_sq to = xqi_elephant_to[s][i];
			if (!b->sq[xqi_elephant_eye[s][i]] && OK_TARGET(to))
				ADD(s, to);
		}
	}
	for (int id = tag + 5; id <= tag + 6; id++) {
		s = b->pc[id];
		if (!s)
			continue;
		for (int i = 0; xqi_horse_to[s][i]; i++) {
			xqi_sq to = xqi_horse_to[s][i];
			if (!b->sq[xqi_horse_leg[s][i]] && OK_TARGET(to))
				ADD(s, to);
		}
	}
	out += gen_sliders(b, tag, captures_only, out);
	{
		const uint8_t(*pawn_to)[4] = side == XQI_RED ? xqi_red_pawn_to : xqi_black_pawn_to;
		for (int id = tag + 11; id <= tag + 15; id++) {
			s = b->pc[id];
			if (!s)
				continue;
			for (t = pawn_to[s]; *t; t++)
				if (OK_TARGET(*t))
					ADD(s, *t);
		}
	}
#undef OK_TARGET
	return (int)(out - start);
}

int xqi_gen_pseudo(const struct xqi_position *b, xqi_move *out)
{
	return gen(b, 0, out);
}

int xqi_gen_pseudo_captures(const struct xqi_position *b, xqi_move *out)
{
	return gen(b, 1, out);
}

/* Make the move on the squares and lines only, test the king (the
 * attacks `via` names), undo. */
static int safe_after(struct xqi_position *b, xqi_move m, unsigned via)
{
	xqi_sq from = XQI_MOVE_FROM(m), to = XQI_MOVE_TO(m);
	uint8_t id = b->sq[from], cap = b->sq[to];
	int side = XQI_ID_SIDE(id), attacked;

	b->sq[from] = 0;
	b->sq[to] = id;
	b->pc[id] = to;
	b->rank_bits[from >> 4] ^= (uint16_t)(1u << ((from & 15) - 3));
	b->file_bits[from & 15] ^= (uint16_t)(1u << ((from >> 4) - 3));
	if (cap)
		b->pc[cap] = 0;
	else {
		b->rank_bits[to >> 4] ^= (uint16_t)(1u << ((to & 15) - 3));
		b->file_bits[to & 15] ^= (uint16_t)(1u << ((to >> 4) - 3));
	}
	attacked = xqi_position_king_attacked_via(b, side, via);
	b->sq[from] = id;
	b->sq[to] = cap;
	b->pc[id] = from;
	b->rank_bits[from >> 4] ^= (uint16_t)(1u << ((from & 15) - 3));
	b->file_bits[from & 15] ^= (uint16_t)(1u << ((from >> 4) - 3));
	if (cap)
		b->pc[cap] = to;
	else {
		b->rank_bits[to >> 4] ^= (uint16_t)(1u << ((to & 15) - 3));
		b->file_bits[to & 15] ^= (uint16_t)(1u << ((to >> 4) - 3));
	}
	return !attacked;
}

int xqi_move_keeps_king_safe(struct xqi_position *b, xqi_move m)
{
	return safe_after(b, m, XQI_VIA_ALL);
}

/* What the legality filter needs to know about one position. */
struct pins {
	int in_check;
	uint16_t pinned;      /* own slots whose move may uncover the king */
	uint16_t hollow_rank; /* columns (bit c-3) on the king's row where a piece would screen a cannon */
	uint16_t hollow_file; /* rows (bit r-3) on the king's column, likewise */
	xqi_sq king;
};

static inline int kind_at(const struct xqi_position *b, int sq)
{
	return xqi_kind_of_id[b->sq[sq]];
}

/* Bits strictly between positions a and b (0-based bit numbers). */
static inline uint16_t between(int a, int c)
{
	int lo = a < c ? a : c, hi = a < c ? c : a;
	return (uint16_t)(((1u << hi) - 1) & ~((1u << (lo + 1)) - 1));
}

static void find_pins(const struct xqi_position *b, struct pins *p)
{
	int side = b->side, tag = XQI_SIDE_TAG(side), them = side ^ 1;
	xqi_sq k = b->pc[tag];
	int x = k & 15, y = k >> 4;
	const struct xqi_slide *r, *f;
	const int rook = XQI_KIND(them, XQI_ROOK), cannon = XQI_KIND(them, XQI_CANNON);
	const int king = XQI_KIND(them, XQI_KING), horse = XQI_KIND(them, XQI_HORSE);

	p->in_check = xqi_position_king_attacked(b, side);
	p->pinned = 0;
	p->hollow_rank = p->hollow_file = 0;
	p->king = k;
	if (p->in_check || !k)
		return; /* every move gets the full test, or there is no king to expose */
	r = &xqi_rank_slide[x - 3][b->rank_bits[y]];
	f = &xqi_file_slide[y - 3][b->file_bits[x]];

	for (int d = 0; d < 2; d++) {
		/* Along the king's row. */
		if (r->first[d]) {
			int s1 = y << 4 | r->first[d];
			if (kind_at(b, s1) == cannon)
				p->hollow_rank |= between(x - 3, r->first[d] - 3);
			/* The first piece, even an enemy cannon, can be a screen. */
			if (r->second[d]) {
				int k2 = kind_at(b, y << 4 | r->second[d]);
				if (k2 == rook)
					p->pinned |= (uint16_t)(1u << (b->sq[s1] & 15));
				else if (r->third[d] && kind_at(b, y << 4 | r->third[d]) == cannon)
					p->pinned |= (uint16_t)(1u << (b->sq[s1] & 15) |
								1u << (b->sq[y << 4 | r->second[d]] & 15));
			}
		}
		/* Along the king's column; the enemy king counts as a rook. */
		if (f->first[d]) {
			int s1 = f->first[d] << 4 | x;
			if (kind_at(b, s1) == cannon)
				p->hollow_file |= between(y - 3, f->first[d] - 3);
			if (f->second[d]) {
				int k2 = kind_at(b, f->second[d] << 4 | x);
				if (k2 == rook || k2 == king)
					p->pinned |= (uint16_t)(1u << (b->sq[s1] & 15));
				else if (f->third[d] && kind_at(b, f->third[d] << 4 | x) == cannon)
					p->pinned |= (uint16_t)(1u << (b->sq[s1] & 15) |
								1u << (b->sq[f->second[d] << 4 | x] & 15));
			}
		}
	}
	for (int i = 0; i < 4; i++) {
		int leg = k + xqi_horse_checks[i].leg;
		if (!(b->sq[leg] & tag))
			continue;
		if (kind_at(b, k + xqi_horse_checks[i].from[0]) == horse ||
		    kind_at(b, k + xqi_horse_checks[i].from[1]) == horse)
			p->pinned |= (uint16_t)(1u << (b->sq[leg] & 15));
	}
	/* Enemy pieces may be marked above; they never move now, so no harm.
	 * The king (slot 0) always gets the full test. */
	p->pinned |= 1;
}

static inline int needs_full_test(const struct xqi_position *b, const struct pins *p, xqi_move m)
{
	xqi_sq from = XQI_MOVE_FROM(m), to = XQI_MOVE_TO(m);

	if (p->pinned >> (b->sq[from] & 15) & 1)
		return 1;
	if ((to >> 4) == (p->king >> 4) && (p->hollow_rank >> ((to & 15) - 3) & 1))
		return 1;
	if ((to & 15) == (p->king & 15) && (p->hollow_file >> ((to >> 4) - 3) & 1))
		return 1;
	return 0;
}

static int filter_legal(struct xqi_position *b, xqi_move *moves, int n)
{
	struct pins p;
	int kept = 0;

	find_pins(b, &p);
	for (int i = 0; i < n; i++) {
		xqi_move m = moves[i];
		if ((p.in_check || needs_full_test(b, &p, m)) && !xqi_move_keeps_king_safe(b, m))
			continue;
		moves[kept++] = m;
	}
	return kept;
}

int xqi_gen_legal(struct xqi_position *b, xqi_move *out)
{
	return filter_legal(b, out, gen(b, 0, out));
}

int xqi_gen_legal_captures(struct xqi_position *b, xqi_move *out)
{
	return filter_legal(b, out, gen(b, 1, out));
}

int xqi_move_is_legal(struct xqi_position *b, xqi_move m)
{
	xqi_move moves[XQ_MOVES_MAX];
	int n = xqi_gen_legal(b, moves);

	for (int i = 0; i < n; i++)
		if (moves[i] == m)
			return 1;
	return 0;
}

int xqi_move_gives_check(struct xqi_position *b, xqi_move m)
{
	struct xqi_undo u;
	int check;

	xqi_position_make(b, m, &u);
	check = xqi_position_in_check(b);
	xqi_position_unmake(b, m, &u);
	return check;
}

int xqi_position_check_after(const struct xqi_position *b, xqi_move last)
{
	xqi_sq k = b->pc[XQI_SIDE_TAG(b->side)], from = XQI_MOVE_FROM(last), to = XQI_MOVE_TO(last);
	int dx, dy;

	unsigned via = 0;

	if (!k)
		return 0;
	dx = (to & 15) - (k & 15);
	dy = (to >> 4) - (k >> 4);
	if ((from >> 4) == (k >> 4) || dy == 0)
		via |= XQI_VIA_RANK;
	if ((from & 15) == (k & 15) || dx == 0)
		via |= XQI_VIA_FILE;
	if (next_corner(from, k) || dx * dx + dy * dy == 5)
		via |= XQI_VIA_HORSE;
	if (dx * dx + dy * dy == 1)
		via |= XQI_VIA_PAWN;
	return via ? xqi_position_king_attacked_via(b, b->side, via) : 0;
}

enum xq_state xqi_position_status(struct xqi_position *b)
{
	xqi_move moves[XQ_MOVES_MAX];
	struct pins p;
	int n = gen(b, 0, moves);

	/* One legal move is enough: tested one by one, as filter_legal()
	 * would, up to the first that keeps the king safe. */
	find_pins(b, &p);
	for (int i = 0; i < n; i++)
		if (!(p.in_check || needs_full_test(b, &p, moves[i])) ||
		    xqi_move_keeps_king_safe(b, moves[i]))
			return XQ_STATE_PLAYING;
	return p.in_check ? XQ_STATE_CHECKMATE : XQ_STATE_STALEMATE;
}

uint64_t xqi_perft(struct xqi_position *b, int depth)
{
	xqi_move moves[XQ_MOVES_MAX];
	struct xqi_undo u;
	uint64_t total = 0;
	int n;

	if (depth <= 0)
		return 1;
	n = xqi_gen_legal(b, moves);
	if (depth == 1)
		return (uint64_t)n;
	for (int i = 0; i < n; i++) {
		xqi_position_make(b, moves[i], &u);
		total += xqi_perft(b, depth - 1);
		xqi_position_unmake(b, moves[i], &u);
	}
	return total;
}

/* ---- explaining why a move is not legal --------------------------------- */

static const char *const side_names[2] = {"red", "black"};
static const char *const type_names[XQI_PIECE_TYPES] = {
	"king", "advisor", "elephant", "horse", "rook", "cannon", "pawn",
};

/* Pieces strictly between two squares on one line; -1 if not on a line. */
static int count_between(const struct xqi_position *b, xqi_sq a, xqi_sq c, xqi_sq *first)
{
	int step, n = 0;

	if ((a >> 4) == (c >> 4))
		step = c > a ? 1 : -1;
	else if ((a & 15) == (c & 15))
		step = c > a ? 16 : -16;
	else
		return -1;
	for (int s = a + step; s != c; s += step)
		if (b->sq[s] && n++ == 0 && first)
			*first = (xqi_sq)s;
	return n;
}

/* Do a and c share a line with exactly `screens` pieces (0 or 1) between
 * them?  Read from the bit-ranks and bit-files; 0 also when they share no
 * line (count_between() then says what is wrong). */
static int line_clear(const struct xqi_position *b, xqi_sq a, xqi_sq c, int screens)
{
	unsigned bits;

	if ((a >> 4) == (c >> 4))
		bits = b->rank_bits[a >> 4] & between((a & 15) - 3, (c & 15) - 3);
	else if ((a & 15) == (c & 15))
		bits = b->file_bits[a & 15] & between((a >> 4) - 3, (c >> 4) - 3);
	else
		return 0;
	return screens ? bits && !(bits & (bits - 1)) : bits == 0;
}

static int illegal(struct xq_diagnostic *d, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static int illegal(struct xq_diagnostic *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	xqi_diagnostic_vset(d, XQ_EILLEGAL, XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_ERROR, fmt, ap);
	va_end(ap);
	return XQ_EILLEGAL;
}

/* Check how the piece moves, ignoring what the move does to the king. */
static int check_shape(const struct xqi_position *b, xqi_sq from, xqi_sq to, int side, int type,
		       struct xq_diagnostic *d)
{
	int dx = (to & 15) - (from & 15), dy = (to >> 4) - (from >> 4);
	int adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
	int capture = b->sq[to] != 0;
	xqi_sq blocker = 0;
	char where[3];
	int n;

	switch (type) {
	case XQI_KING:
		if (adx + ady != 1)
			return illegal(d, "the king moves one point along a line");
		if (!(xqi_square_flags[to] & XQI_SQF_PALACE))
			return illegal(d, "the king cannot leave its palace");
		return 0;
	case XQI_ADVISOR:
		/* A composed position may put one where it never stands (a king
		 * never: no reader takes that): it has no move there, as the
		 * move tables say. */
		if (!(xqi_square_flags[from] & XQI_SQF_PALACE))
			return illegal(d, "the advisor stands outside its palace, where it has no move");
		if (adx != 1 || ady != 1)
			return illegal(d, "the advisor moves one point diagonally");
		if (!(xqi_square_flags[to] & XQI_SQF_PALACE))
			return illegal(d, "the advisor cannot leave its palace");
		return 0;
	case XQI_ELEPHANT:
		if (adx != 2 || ady != 2)
			return illegal(d, "the elephant moves two points diagonally");
		if (XQI_SQ_SIDE_HALF(to) != XQI_SQ_SIDE_HALF(from))
			return illegal(d, "the elephant cannot cross the river");
		if (b->sq[from + dx / 2 + 16 * (dy / 2)]) {
			xqi_sq_name((xqi_sq)(from + dx / 2 + 16 * (dy / 2)), where);
			return illegal(d, "the elephant's eye at %s is blocked", where);
		}
		return 0;
	case XQI_HORSE: {
		int leg;
		if (!((adx == 1 && ady == 2) || (adx == 2 && ady == 1)))
			return illegal(d, "the horse moves one point straight and one diagonally");
		leg = adx == 2 ? from + dx / 2 : from + 16 * (dy / 2);
		if (b->sq[leg]) {
			xqi_sq_name((xqi_sq)leg, where);
			return illegal(d, "the horse's leg at %s is blocked", where);
		}
		return 0;
	}
	case XQI_ROOK:
		if (line_clear(b, from, to, 0))
			return 0;
		n = count_between(b, from, to, &blocker);
		if (n < 0)
			return illegal(d, "the rook moves along a rank or a file");
		if (n > 0) {
			xqi_sq_name(blocker, where);
			return illegal(d, "the rook's path is blocked at %s", where);
		}
		return 0;
	case XQI_CANNON:
		if (line_clear(b, from, to, capture))
			return 0;
		n = count_between(b, from, to, &blocker);
		if (n < 0)
			return illegal(d, "the cannon moves along a rank or a file");
		if (!capture && n > 0) {
			xqi_sq_name(blocker, where);
			return illegal(d, "the cannon's path is blocked at %s", where);
		}
		if (capture && n != 1)
			return illegal(d, "a cannon captures by jumping exactly one screen, and there %s %d",
				       n == 1 ? "is" : "are", n);
		return 0;
	case XQI_PAWN: {
		int fwd = side == XQI_RED ? -1 : 1;
		int crossed = XQI_SQ_SIDE_HALF(from) != side;
		if (adx + ady != 1)
			return illegal(d, "the pawn moves one point at a time");
		if (dy == -fwd)
			return illegal(d, "pawns never move backward");
		if (dy == 0 && !crossed)
			return illegal(d, "a pawn moves sideways only after crossing the river");
		return 0;
	}
	}
	return illegal(d, "unknown piece");
}

int xqi_move_check(struct xqi_position *b, xqi_move m, struct xq_diagnostic *d)
{
	return xqi_move_check_hinted(b, m, -1, d);
}

/*
 * Why a move far from the king cannot expose it, when the king was not in
 * check.  After a move from s to t of a piece other than the king, an
 * enemy piece A attacks the king only if
 *   - A is a rook, a cannon or the other king on the king's rank or file,
 *     and the points between them changed: s or t is on that line;
 *   - A is a horse whose leg (diagonally next to the king) was emptied:
 *     s is that point (a capture never empties t, and filling t only
 *     blocks legs);
 *   - A is a pawn: pawns beside or ahead of the king do not move.
 * Otherwise A attacked the king before the move already, which it did not.
 */
int xqi_move_check_hinted(struct xqi_position *b, xqi_move m, int in_check, struct xq_diagnostic *d)
{
	xqi_sq from = XQI_MOVE_FROM(m), to = XQI_MOVE_TO(m);
	int id, side, type, rc;
	char fname[3], tname[3];

	if (!xqi_on_board(from) || !xqi_on_board(to))
		return illegal(d, "square off the board");
	id = b->sq[from];
	side = XQI_ID_SIDE(id);
	if (from == to || !id || side != b->side || (b->sq[to] && XQI_ID_SIDE(b->sq[to]) == side)) {
		/* the names are written on these paths only */
		xqi_sq_name(from, fname);
		xqi_sq_name(to, tname);
		if (from == to)
			return illegal(d, "a move must change the square (%s to %s)", fname, tname);
		if (!id)
			return illegal(d, "there is no piece on %s", fname);
		type = XQI_KIND_TYPE(xqi_kind_of_id[id]);
		if (side != b->side)
			return illegal(d, "the %s on %s is %s's, but %s is to move", type_names[type],
				       fname, side_names[side], side_names[b->side]);
		return illegal(d, "%s is occupied by %s's own %s", tname, side_names[side],
			       type_names[XQI_KIND_TYPE(xqi_kind_of_id[b->sq[to]])]);
	}
	type = XQI_KIND_TYPE(xqi_kind_of_id[id]);
	rc = check_shape(b, from, to, side, type, d);
	if (rc)
		return rc;
	if (in_check == 0 && type != XQI_KING) {
		xqi_sq k = b->pc[XQI_SIDE_TAG(side)];
		unsigned via = 0;
		if (!k)
			return 0;
		if ((from >> 4) == (k >> 4) || (to >> 4) == (k >> 4))
			via |= XQI_VIA_RANK;
		if ((from & 15) == (k & 15) || (to & 15) == (k & 15))
			via |= XQI_VIA_FILE;
		if (next_corner(from, k))
			via |= XQI_VIA_HORSE;
		if (!via || safe_after(b, m, via))
			return 0;
	} else if (xqi_move_keeps_king_safe(b, m)) {
		return 0;
	}
	{
		struct xqi_position t = *b;
		struct xqi_undo u;
		if (xqi_position_king_attacked(b, side))
			return illegal(d, "it leaves the %s king in check", side_names[side]);
		xqi_position_make(&t, m, &u);
		if ((t.pc[16] & 15) == (t.pc[32] & 15) && count_between(&t, t.pc[32], t.pc[16], NULL) == 0)
			return illegal(d, "the kings would face each other on an open file");
		return illegal(d, "it exposes the %s king to check", side_names[side]);
	}
}
