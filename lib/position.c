/*
 * position.c: the position: set-up, FEN in and out, validation, make and
 * unmake, and the attack test on a king.
 */
#include "position.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "diagnostic.h"
#include "tables.h"

const uint8_t xqi_first_slot[XQI_PIECE_TYPES] = {0, 1, 3, 5, 7, 9, 11};
const uint8_t xqi_slot_count[XQI_PIECE_TYPES] = {1, 2, 2, 2, 2, 2, 5};

#define K(side, type) (((side) << 3) | ((type) + 1))
const uint8_t xqi_kind_of_id[48] = {
	[16] = K(0, XQI_KING),     [17] = K(0, XQI_ADVISOR),  [18] = K(0, XQI_ADVISOR),
	[19] = K(0, XQI_ELEPHANT), [20] = K(0, XQI_ELEPHANT), [21] = K(0, XQI_HORSE),
	[22] = K(0, XQI_HORSE),    [23] = K(0, XQI_ROOK),     [24] = K(0, XQI_ROOK),
	[25] = K(0, XQI_CANNON),   [26] = K(0, XQI_CANNON),   [27] = K(0, XQI_PAWN),
	[28] = K(0, XQI_PAWN),     [29] = K(0, XQI_PAWN),     [30] = K(0, XQI_PAWN),
	[31] = K(0, XQI_PAWN),
	[32] = K(1, XQI_KING),     [33] = K(1, XQI_ADVISOR),  [34] = K(1, XQI_ADVISOR),
	[35] = K(1, XQI_ELEPHANT), [36] = K(1, XQI_ELEPHANT), [37] = K(1, XQI_HORSE),
	[38] = K(1, XQI_HORSE),    [39] = K(1, XQI_ROOK),     [40] = K(1, XQI_ROOK),
	[41] = K(1, XQI_CANNON),   [42] = K(1, XQI_CANNON),   [43] = K(1, XQI_PAWN),
	[44] = K(1, XQI_PAWN),     [45] = K(1, XQI_PAWN),     [46] = K(1, XQI_PAWN),
	[47] = K(1, XQI_PAWN),
};
#undef K

static const char piece_letters[] = "KABNRCP";
static const char *const type_names[XQI_PIECE_TYPES] = {
	"king", "advisor", "elephant", "horse", "rook", "cannon", "pawn",
};
static const char *const side_names[2] = {"red", "black"};

static inline void toggle_bits(struct xqi_position *b, xqi_sq s)
{
	b->rank_bits[s >> 4] ^= (uint16_t)(1u << ((s & 15) - 3));
	b->file_bits[s & 15] ^= (uint16_t)(1u << ((s >> 4) - 3));
}

void xqi_position_clear(struct xqi_position *b)
{
	memset(b, 0, sizeof(*b));
	b->fullmove = 1;
}

int xqi_position_put(struct xqi_position *b, int side, int type, xqi_sq sq, struct xq_diagnostic *d)
{
	int base = XQI_SIDE_TAG(side) + xqi_first_slot[type];
	char name[3];

	if (!xqi_on_board(sq))
		return xqi_diagnostic_set(d, XQ_EILLEGAL, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR, "square off the board");
	xqi_sq_name(sq, name);
	if (b->sq[sq])
		return xqi_diagnostic_set(d, XQ_EILLEGAL, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
				   "square %s is already occupied", name);
	for (int i = 0; i < xqi_slot_count[type]; i++) {
		int id = base + i;
		if (b->pc[id])
			continue;
		b->pc[id] = sq;
		b->sq[sq] = (uint8_t)id;
		toggle_bits(b, sq);
		b->key ^= xqi_zobrist[xqi_kind_of_id[id]][sq];
		return 0;
	}
	return xqi_diagnostic_set(d, XQ_EILLEGAL, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
			   "more than %d %s %s%s", xqi_slot_count[type], side_names[side],
			   type_names[type], xqi_slot_count[type] > 1 ? "s" : "");
}

/*
 * The start position as data: the square of each piece identity 16..47
 * (slot order within a side: king, advisors, elephants, horses, rooks,
 * cannons, pawns, as XQI_START_FEN read left to right fills them) and the
 * bit-ranks and bit-files they make.  Every game begins by setting this
 * up, so it is copied rather than parsed and validated each time; a unit
 * test compares it with XQI_START_FEN read.
 */
#define START_SIDE(r0, r2, r3)                                                              \
	XQI_SQ(4, r0), XQI_SQ(3, r0), XQI_SQ(5, r0), XQI_SQ(2, r0), XQI_SQ(6, r0), XQI_SQ(1, r0),     \
		XQI_SQ(7, r0), XQI_SQ(0, r0), XQI_SQ(8, r0), XQI_SQ(1, r2), XQI_SQ(7, r2), XQI_SQ(0, r3), \
		XQI_SQ(2, r3), XQI_SQ(4, r3), XQI_SQ(6, r3), XQI_SQ(8, r3)
static const uint8_t start_squares[32] = {START_SIDE(0, 2, 3), START_SIDE(9, 7, 6)};
#undef START_SIDE
static const uint16_t start_rank_bits[16] = {
	[3] = 0x1FF, [5] = 0x082, [6] = 0x155, [9] = 0x155, [10] = 0x082, [12] = 0x1FF,
};
static const uint16_t start_file_bits[16] = {
	[3] = 0x249, [4] = 0x285, [5] = 0x249, [6] = 0x201, [7] = 0x249,
	[8] = 0x201, [9] = 0x249, [10] = 0x285, [11] = 0x249,
};

void xqi_position_start(struct xqi_position *b)
{
	xqi_position_clear(b);
	memcpy(b->rank_bits, start_rank_bits, sizeof(b->rank_bits));
	memcpy(b->file_bits, start_file_bits, sizeof(b->file_bits));
	for (int i = 0; i < 32; i++) {
		int id = 16 + i;
		xqi_sq sq = start_squares[i];
		b->pc[id] = sq;
		b->sq[sq] = (uint8_t)id;
		b->key ^= xqi_zobrist[xqi_kind_of_id[id]][sq];
	}
}

void xqi_sq_name(xqi_sq sq, char out[3])
{
	out[0] = (char)('a' + XQI_SQ_FILE(sq));
	out[1] = (char)('0' + XQI_SQ_RANK(sq));
	out[2] = '\0';
}

void xqi_move_name(xqi_move m, char out[5])
{
	xqi_sq_name(XQI_MOVE_FROM(m), out);
	xqi_sq_name(XQI_MOVE_TO(m), out + 2);
}

xqi_move xqi_move_mirror(xqi_move m)
{
	xqi_sq from = XQI_MOVE_FROM(m), to = XQI_MOVE_TO(m);

	return XQI_MOVE(XQI_SQ(8 - XQI_SQ_FILE(from), XQI_SQ_RANK(from)),
		       XQI_SQ(8 - XQI_SQ_FILE(to), XQI_SQ_RANK(to)));
}

int xqi_position_same_pieces(const struct xqi_position *a, const struct xqi_position *b)
{
	for (int r = 0; r < 10; r++)
		for (int f = 0; f < 9; f++)
			if (xqi_position_kind(a, XQI_SQ(f, r)) != xqi_position_kind(b, XQI_SQ(f, r)))
				return 0;
	return 1;
}

int xqi_position_same(const struct xqi_position *a, const struct xqi_position *b)
{
	/* The key says "almost surely"; the squares say for sure. */
	return a->key == b->key && a->side == b->side && xqi_position_same_pieces(a, b);
}

void xqi_position_mirror(const struct xqi_position *b, struct xqi_position *out)
{
	xqi_position_clear(out);
	for (int r = 0; r < 10; r++)
		for (int f = 0; f < 9; f++) {
			uint8_t k = xqi_position_kind(b, XQI_SQ(f, r));
			/* a square of a board is never off it, nor taken twice */
			if (k)
				xqi_position_put(out, XQI_KIND_SIDE(k), XQI_KIND_TYPE(k), XQI_SQ(8 - f, r), NULL);
		}
	out->side = b->side;
	out->halfmove = b->halfmove;
	out->fullmove = b->fullmove;
	out->key = xqi_position_compute_key(out);
}

uint64_t xqi_position_compute_key(const struct xqi_position *b)
{
	uint64_t k = b->side == XQI_BLACK ? xqi_zobrist_side : 0;

	for (int id = 16; id < 48; id++)
		if (b->pc[id])
			k ^= xqi_zobrist[xqi_kind_of_id[id]][b->pc[id]];
	return k;
}

/* ---- FEN ---------------------------------------------------------------- */

int xqi_piece_type_of_letter(int c)
{
	switch (c) {
	case 'K': return XQI_KING;
	case 'A': return XQI_ADVISOR;
	case 'B': case 'E': return XQI_ELEPHANT;
	case 'N': case 'H': return XQI_HORSE;
	case 'R': return XQI_ROOK;
	case 'C': return XQI_CANNON;
	case 'P': return XQI_PAWN;
	}
	return -1;
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int fen_error(struct xq_diagnostic *d, int rc, size_t pos, const char *fmt, ...)
{
	va_list ap;

	if (!d)
		return rc;
	d->place.col = (uint32_t)pos + 1;
	va_start(ap, fmt);
	xqi_diagnostic_vset(d, rc, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR, fmt, ap);
	va_end(ap);
	return rc;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* Parse an unsigned decimal field; returns -1 when it is not one. */
static long parse_uint(const char *s, size_t len)
{
	long v = 0;
	if (len == 0 || len > 6)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/*
 * FEN's first field, the board (rank 9 first), from fen[*at] into `b`;
 * *at ends past it.  0, or an error said in `d` at its column.
 */
static int fen_board(struct xqi_position *b, const char *fen, size_t len, size_t *at,
		     struct xq_diagnostic *d)
{
	size_t i = *at;
	int row = 0, col = 0, rc;

	for (; i < len && !is_space(fen[i]); i++) {
		char c = fen[i];
		if (c == '/') {
			if (col != 9)
				return fen_error(d, XQ_EPARSE, i, "row %d has %d columns, not 9",
						 row + 1, col);
			if (++row > 9)
				return fen_error(d, XQ_EPARSE, i, "more than 10 rows");
			col = 0;
		} else if (c >= '1' && c <= '9') {
			col += c - '0';
			if (col > 9)
				return fen_error(d, XQ_EPARSE, i, "row %d has more than 9 columns", row + 1);
		} else {
			int side = c >= 'a' && c <= 'z';
			int type = xqi_piece_type_of_letter(side ? c - 'a' + 'A' : c);
			if (type < 0) {
				if ((unsigned char)c >= 0x80 || (unsigned char)c < 0x20)
					return fen_error(d, XQ_EPARSE, i,
							 "unexpected byte 0x%02x in the board",
							 (unsigned char)c);
				return fen_error(d, XQ_EPARSE, i, "unknown piece letter '%c'", c);
			}
			if (col >= 9)
				return fen_error(d, XQ_EPARSE, i, "row %d has more than 9 columns", row + 1);
			rc = xqi_position_put(b, side, type, (xqi_sq)((row + 3) << 4 | (col + 3)), d);
			if (rc) {
				if (d)
					d->place.col = (uint32_t)i + 1;
				return rc;
			}
			col++;
		}
	}
	*at = i;
	if (col != 9)
		return fen_error(d, XQ_EPARSE, i, "row %d has %d columns, not 9", row + 1, col);
	if (row != 9)
		return fen_error(d, XQ_EPARSE, i, "the board has %d rows, not 10", row + 1);
	return 0;
}

/* FEN's field `field` (2 to 6: side, '-', '-', halfmove, move number),
 * fen[start..start+flen), into `b`.  0, or an error said in `d`. */
static int fen_field(struct xqi_position *b, int field, const char *fen, size_t start, size_t flen,
		     struct xq_diagnostic *d)
{
	long v;

	switch (field) {
	case 2:
		if (flen == 1 && (fen[start] == 'w' || fen[start] == 'r'))
			b->side = XQI_RED;
		else if (flen == 1 && fen[start] == 'b')
			b->side = XQI_BLACK;
		else
			return fen_error(d, XQ_EPARSE, start, "side to move must be 'w', 'r' or 'b'");
		return 0;
	case 3:
	case 4:
		if (flen != 1 || fen[start] != '-')
			return fen_error(d, XQ_EPARSE, start, "field %d must be '-' in xiangqi", field);
		return 0;
	default:
		v = parse_uint(fen + start, flen);
		if (v < 0 || (field == 6 && v == 0) || v > 65535)
			return fen_error(d, XQ_EPARSE, start, "%s must be a number%s",
					 field == 6 ? "the move number" : "the halfmove clock",
					 field == 6 ? " from 1" : "");
		if (field == 5)
			b->halfmove = (uint16_t)v;
		else
			b->fullmove = (uint16_t)v;
		return 0;
	}
}

int xqi_position_from_fen(struct xqi_position *out, const char *fen, size_t len, unsigned flags,
		      struct xq_diagnostic *d)
{
	struct xqi_position b;
	size_t i = 0, field_start;
	int rc;

	xqi_position_clear(&b);
	while (i < len && is_space(fen[i]))
		i++;
	if (i == len)
		return fen_error(d, XQ_EPARSE, i, "empty FEN");
	if ((rc = fen_board(&b, fen, len, &i, d)))
		return rc;
	/* Fields 2 to 6, each optional. */
	for (int field = 2; field <= 6; field++) {
		while (i < len && is_space(fen[i]))
			i++;
		if (i == len)
			break;
		field_start = i;
		while (i < len && !is_space(fen[i]))
			i++;
		if ((rc = fen_field(&b, field, fen, field_start, i - field_start, d)))
			return rc;
	}
	while (i < len && is_space(fen[i]))
		i++;
	if (i < len)
		return fen_error(d, XQ_EPARSE, i, "unexpected text after the FEN");

	if (b.side == XQI_BLACK)
		b.key ^= xqi_zobrist_side;
	rc = xqi_position_validate(&b, flags, d);
	if (rc) {
		if (d)
			d->place.col = 1;
		return rc;
	}
	*out = b;
	return 0;
}

int xqi_position_validate(const struct xqi_position *b, unsigned flags, struct xq_diagnostic *d)
{
	char name[3];

	for (int side = 0; side < 2; side++) {
		int tag = XQI_SIDE_TAG(side);
		xqi_sq k = b->pc[tag];
		if (!k)
			return xqi_diagnostic_set(d, XQ_EILLEGAL, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR, "no %s king",
					   side_names[side]);
		xqi_sq_name(k, name);
		if (!(xqi_square_flags[k] & XQI_SQF_PALACE) || XQI_SQ_SIDE_HALF(k) != side)
			return xqi_diagnostic_set(d, XQ_EILLEGAL, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
					   "%s king on %s, outside its palace", side_names[side], name);
		if (flags & XQI_FEN_LENIENT_PLACEMENT)
			continue;
		for (int id = tag + 1; id < tag + 16; id++) {
			xqi_sq s = b->pc[id];
			int type = XQI_KIND_TYPE(xqi_kind_of_id[id]);
			if (!s)
				continue;
			xqi_sq_name(s, name);
			if (type == XQI_ADVISOR &&
			    (!(xqi_square_flags[s] & XQI_SQF_ADVISOR) || XQI_SQ_SIDE_HALF(s) != side))
				return xqi_diagnostic_set(d, XQ_EILLEGAL, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
						   "%s advisor on %s, not one of its palace points",
						   side_names[side], name);
			if (type == XQI_ELEPHANT &&
			    (!(xqi_square_flags[s] & XQI_SQF_ELEPHANT) || XQI_SQ_SIDE_HALF(s) != side))
				return xqi_diagnostic_set(d, XQ_EILLEGAL, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
						   "%s elephant on %s, not one of its seven points",
						   side_names[side], name);
			if (type == XQI_PAWN &&
			    !(xqi_square_flags[s] & (side ? XQI_SQF_PAWN_BLACK : XQI_SQF_PAWN_RED)))
				return xqi_diagnostic_set(d, XQ_EILLEGAL, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
						   "%s pawn on %s, behind its starting rank or on a file it cannot reach",
						   side_names[side], name);
		}
	}
	{
		xqi_sq rk = b->pc[16], bk = b->pc[32];
		if ((rk & 15) == (bk & 15)) {
			int open = 1;
			for (int s = bk + 16; s < rk; s += 16)
				if (b->sq[s])
					open = 0;
			if (open)
				return xqi_diagnostic_set(d, XQ_EILLEGAL, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
						   "the kings face each other on an open file");
		}
	}
	if (xqi_position_king_attacked(b, b->side ^ 1))
		return xqi_diagnostic_set(d, XQ_EILLEGAL, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
				   "%s is in check but it is %s's move", side_names[b->side ^ 1],
				   side_names[b->side]);
	return 0;
}

size_t xqi_position_to_fen(const struct xqi_position *b, char *buf, size_t cap)
{
	char tmp[XQ_FEN_SIZE];
	size_t n = 0;

	for (int row = 3; row <= 12; row++) {
		int empty = 0;
		for (int col = 3; col <= 11; col++) {
			int id = b->sq[row << 4 | col];
			if (!id) {
				empty++;
				continue;
			}
			if (empty)
				tmp[n++] = (char)('0' + empty);
			empty = 0;
			{
				uint8_t kind = xqi_kind_of_id[id];
				char c = piece_letters[XQI_KIND_TYPE(kind)];
				tmp[n++] = XQI_KIND_SIDE(kind) ? (char)(c - 'A' + 'a') : c;
			}
		}
		if (empty)
			tmp[n++] = (char)('0' + empty);
		if (row < 12)
			tmp[n++] = '/';
	}
	n += (size_t)snprintf(tmp + n, sizeof(tmp) - n, " %c - - %u %u",
			      b->side == XQI_BLACK ? 'b' : 'w', (unsigned)b->halfmove,
			      (unsigned)b->fullmove);
	if (cap) {
		size_t c = n < cap - 1 ? n : cap - 1;
		memcpy(buf, tmp, c);
		buf[c] = '\0';
	}
	return n;
}

/* ---- make / unmake ------------------------------------------------------ */

void xqi_position_make(struct xqi_position *b, xqi_move m, struct xqi_undo *u)
{
	xqi_sq from = XQI_MOVE_FROM(m), to = XQI_MOVE_TO(m);
	uint8_t id = b->sq[from], cap = b->sq[to];
	unsigned quiet = !cap;

	u->key = b->key;
	u->halfmove = b->halfmove;
	u->captured = cap;

	/* Without branches on the capture and the side, which no predictor
	 * guesses: id 0 (no piece) has an all-zero key and pc[0] stays 0. */
	b->sq[from] = 0;
	b->sq[to] = id;
	b->pc[cap] = 0;
	b->pc[id] = to;
	toggle_bits(b, from);
	b->rank_bits[to >> 4] ^= (uint16_t)(quiet << ((to & 15) - 3));
	b->file_bits[to & 15] ^= (uint16_t)(quiet << ((to >> 4) - 3));
	b->key ^= xqi_zobrist[xqi_kind_of_id[id]][from] ^ xqi_zobrist[xqi_kind_of_id[id]][to] ^
		  xqi_zobrist[xqi_kind_of_id[cap]][to] ^ xqi_zobrist_side;
	b->halfmove = (uint16_t)((b->halfmove + 1u) * quiet);
	b->fullmove = (uint16_t)(b->fullmove + b->side); /* after black's move */
	b->side ^= 1;
}

void xqi_position_unmake(struct xqi_position *b, xqi_move m, const struct xqi_undo *u)
{
	xqi_sq from = XQI_MOVE_FROM(m), to = XQI_MOVE_TO(m);
	uint8_t id = b->sq[to], cap = u->captured;

	b->side ^= 1;
	if (b->side == XQI_BLACK)
		b->fullmove--;
	b->sq[from] = id;
	b->pc[id] = from;
	b->sq[to] = cap;
	toggle_bits(b, from);
	if (cap)
		b->pc[cap] = to;
	else
		toggle_bits(b, to);
	b->key = u->key;
	b->halfmove = u->halfmove;
}

void xqi_position_make_null(struct xqi_position *b, struct xqi_undo *u)
{
	u->key = b->key;
	u->halfmove = b->halfmove;
	u->captured = 0;
	b->key ^= xqi_zobrist_side;
	b->halfmove++;
	if (b->side == XQI_BLACK)
		b->fullmove++;
	b->side ^= 1;
}

void xqi_position_unmake_null(struct xqi_position *b, const struct xqi_undo *u)
{
	b->side ^= 1;
	if (b->side == XQI_BLACK)
		b->fullmove--;
	b->key = u->key;
	b->halfmove = u->halfmove;
}

/* ---- attacks ------------------------------------------------------------ */

/* For each diagonal neighbour (dx, dy) of a king: the horses that would
 * attack it from (2dx, dy) and (dx, 2dy) have that neighbour as their leg. */
const struct xqi_horse_check xqi_horse_checks[4] = {
	{-17, {-18, -33}}, /* dx -1, dy -1 */
	{-15, {-14, -31}}, /* dx +1, dy -1 */
	{15, {14, 31}},    /* dx -1, dy +1 */
	{17, {18, 33}},    /* dx +1, dy +1 */
};
/*
 * Each test is computed, not branched on, and the answers are or-ed: which
 * piece stands where follows no pattern a predictor could learn.  A line
 * table's 0 (no such piece) reads column or row 0 of the mailbox, which is
 * off the board and empty.
 */
int xqi_position_king_attacked_via(const struct xqi_position *b, int side, unsigned via)
{
	int them = side ^ 1;
	xqi_sq k = b->pc[XQI_SIDE_TAG(side)];
	int x = k & 15, y = k >> 4;
	const uint8_t rook = XQI_KIND(them, XQI_ROOK), cannon = XQI_KIND(them, XQI_CANNON);
	const uint8_t horse = XQI_KIND(them, XQI_HORSE), pawn = XQI_KIND(them, XQI_PAWN);
	const uint8_t king = XQI_KIND(them, XQI_KING);
	const uint8_t *kind = xqi_kind_of_id;
	unsigned hit = 0;

	if (!k)
		return 0; /* no king (a board built piece by piece): nothing to attack */
	if (via & XQI_VIA_RANK) {
		const struct xqi_slide *r = &xqi_rank_slide[x - 3][b->rank_bits[y]];
		hit |= (kind[b->sq[y << 4 | r->first[0]]] == rook) |
		       (kind[b->sq[y << 4 | r->first[1]]] == rook) |
		       (kind[b->sq[y << 4 | r->second[0]]] == cannon) |
		       (kind[b->sq[y << 4 | r->second[1]]] == cannon);
	}
	if (via & XQI_VIA_FILE) {
		const struct xqi_slide *f = &xqi_file_slide[y - 3][b->file_bits[x]];
		uint8_t k0 = kind[b->sq[f->first[0] << 4 | x]], k1 = kind[b->sq[f->first[1] << 4 | x]];
		hit |= (k0 == rook) | (k0 == king) | (k1 == rook) | (k1 == king) |
		       (kind[b->sq[f->second[0] << 4 | x]] == cannon) |
		       (kind[b->sq[f->second[1] << 4 | x]] == cannon);
	}
	/* Horses: the leg of a horse that attacks k is diagonally next to k;
	 * each such leg serves the two horse squares beyond it. */
	if (via & XQI_VIA_HORSE)
		for (int i = 0; i < 4; i++)
			hit |= (b->sq[k + xqi_horse_checks[i].leg] == 0) &
			       ((kind[b->sq[k + xqi_horse_checks[i].from[0]]] == horse) |
				(kind[b->sq[k + xqi_horse_checks[i].from[1]]] == horse));
	/* Pawns: ahead of the king (from the enemy's side) or beside it. */
	if (via & XQI_VIA_PAWN) {
		int ahead = side == XQI_RED ? -16 : 16;
		hit |= (kind[b->sq[k + ahead]] == pawn) | (kind[b->sq[k - 1]] == pawn) |
		       (kind[b->sq[k + 1]] == pawn);
	}
	return hit != 0;
}

int xqi_position_king_attacked(const struct xqi_position *b, int side)
{
	return xqi_position_king_attacked_via(b, side, XQI_VIA_ALL);
}
