/*
 * position.h: the xiangqi (象棋, Chinese chess) position.
 *
 * A position is a plain value (copy it with `=`): a 16x16 mailbox with
 * piece identities, bit-ranks and bit-files for the sliding pieces, the
 * side to move, the move counters and a 64-bit Zobrist key kept up to date
 * by every make and unmake.
 *
 * Squares.  The 9x10 board sits in a 256-entry array at columns 3..11 and
 * rows 3..12.  Row 3 is black's back rank (ICCS rank 9), row 12 is red's
 * back rank (ICCS rank 0), so a square is `row << 4 | column` and red's half
 * of the board is exactly the squares with bit 0x80 set.  Use XQI_SQ() to
 * build a square from ICCS file (0..8 = a..i) and rank (0..9).
 *
 * Pieces.  Every piece has an identity: 16..31 for red, 32..47 for black;
 * within a side slot 0 is the king, 1-2 advisors, 3-4 elephants, 5-6
 * horses, 7-8 rooks, 9-10 cannons, 11-15 pawns.  `sq[]` maps square to
 * identity (0 = empty) and `pc[]` maps identity to square (0 = absent).
 * Identities let "for each of my rooks" touch two slots, and let notation
 * tell tandem pieces apart.
 *
 * Moves.  A move is `from | to << 8` in 16 bits (see XQI_MOVE); 0 is "no
 * move" because square 0 is off the board.
 */
#ifndef XQI_LIB_BOARD_H
#define XQI_LIB_BOARD_H

#include <stddef.h>
#include <stdint.h>

#include <xq/position.h>

struct xq_diagnostic;

typedef uint16_t xqi_move; /* from | to << 8 */
typedef uint8_t xqi_sq;    /* 16x16 mailbox index */

enum xqi_side { XQI_RED = 0, XQI_BLACK = 1 };

enum xqi_piece_type {
	XQI_KING,     /* 帅/将 */
	XQI_ADVISOR,  /* 仕/士 */
	XQI_ELEPHANT, /* 相/象 */
	XQI_HORSE,    /* 马 */
	XQI_ROOK,     /* 车, chariot */
	XQI_CANNON,   /* 炮 */
	XQI_PAWN,     /* 兵/卒 */
	XQI_PIECE_TYPES
};

/* XQ_MOVES_MAX (<xq/position.h>, 128) is more than any position's
 * pseudo-legal moves (at most 119). */

/* Square from ICCS file (0..8 = a..i) and rank (0..9, red's back rank 0). */
#define XQI_SQ(file, rank) ((xqi_sq)(((12 - (rank)) << 4) | ((file) + 3)))
#define XQI_SQ_FILE(sq) (((sq) & 15) - 3)  /* 0..8 */
#define XQI_SQ_RANK(sq) (12 - ((sq) >> 4)) /* 0..9 */
#define XQI_MOVE(from, to) ((xqi_move)((unsigned)(from) | ((unsigned)(to) << 8)))
#define XQI_MOVE_FROM(m) ((xqi_sq)((m) & 0xff))
#define XQI_MOVE_TO(m) ((xqi_sq)((m) >> 8))

/* Piece identities and kinds. */
#define XQI_SIDE_TAG(side) (16 << (side)) /* 16 red, 32 black */
#define XQI_ID_SIDE(id) (((id) >> 5) & 1)
#define XQI_ID_SLOT(id) ((id) & 15)
/* A "kind" is colour and type in 4 bits: 1..7 red K A E H R C P, 9..15 black. */
#define XQI_KIND(side, type) ((uint8_t)(((side) << 3) | ((type) + 1)))
#define XQI_KIND_SIDE(kind) ((kind) >> 3)
#define XQI_KIND_TYPE(kind) (((kind) & 7) - 1)

extern const uint8_t xqi_kind_of_id[48]; /* 0 for ids that are not pieces */
extern const uint8_t xqi_first_slot[XQI_PIECE_TYPES];
extern const uint8_t xqi_slot_count[XQI_PIECE_TYPES];

struct xqi_position {
	uint8_t sq[256];        /* square -> piece id, 0 = empty or off board */
	uint8_t pc[48];         /* piece id -> square, 0 = not on the board */
	uint16_t rank_bits[16]; /* row -> occupied columns (bit c-3) */
	uint16_t file_bits[16]; /* column -> occupied rows (bit r-3) */
	uint64_t key;           /* Zobrist key of pieces and side to move */
	uint8_t side;           /* enum xqi_side: who moves */
	uint16_t halfmove;      /* plies since the last capture */
	uint16_t fullmove;      /* move number, starts at 1, grows after black moves */
};

/* What make saves so that unmake can restore the position exactly. */
struct xqi_undo {
	uint64_t key;
	uint16_t halfmove;
	uint8_t captured; /* piece id taken, 0 if none */
};

/* The standard start position in FEN. */
#define XQI_START_FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

/* Empty the board (no pieces, red to move, counters 0 and 1). */
void xqi_position_clear(struct xqi_position *b);

/* Set up the standard start position. */
void xqi_position_start(struct xqi_position *b);

/*
 * Put piece `type` of `side` on square `sq`, taking the first free slot of
 * that type.  Returns 0, or XQ_EILLEGAL when the square is off the board or
 * occupied, or the side already has all its pieces of that type (fills `d`
 * when not NULL).  Keeps the key, bit-lines and piece lists in step.
 */
int xqi_position_put(struct xqi_position *b, int side, int type, xqi_sq sq, struct xq_diagnostic *d);

/* Flags for xqi_position_from_fen() and xqi_position_validate(). */
enum {
	/* Accept advisors, elephants and pawns on squares they can never
	 * reach (composed problems in old files); kings must still be in
	 * their palaces and counts within one set. */
	XQI_FEN_LENIENT_PLACEMENT = 1 << 0
};
/*
 * There is deliberately no flag to skip the check tests: in a position
 * where the side not to move is attacked, the king could be taken, and
 * every later rule (check, mate, repetition) would stop making sense.
 */

/*
 * Parse a xiangqi FEN: board (rank 9 first), then optionally side
 * (`w`/`r` red, `b` black), two `-` fields, the halfmove clock and the move
 * number.  Board-only and two-field FENs are accepted; piece letters are
 * KABNRCP (upper case red, lower case black) with E and H accepted for
 * elephant and horse.  The position is validated (xqi_position_validate) unless
 * flags relax it.
 *
 * Returns 0 and fills `out`, or XQ_EPARSE (malformed text) / XQ_EILLEGAL
 * (a position that cannot occur) and fills `d` with a message whose
 * column is the 1-based character in `fen` where the problem is.  On error
 * `out` is left untouched: a rejected FEN never half-loads.
 */
int xqi_position_from_fen(struct xqi_position *out, const char *fen, size_t len, unsigned flags,
		      struct xq_diagnostic *d);

/*
 * Check that a position can occur: one king a side, in its palace; no more
 * pieces of a kind than a set has; advisors, elephants and pawns on squares
 * they can reach; kings not facing on an open file; the side not to move
 * not in check.  Returns 0 or XQ_EILLEGAL with a message in `d`.
 */
int xqi_position_validate(const struct xqi_position *b, unsigned flags, struct xq_diagnostic *d);

/*
 * Write the canonical FEN (letters KABNRCP, side w/b, `- -`, halfmove,
 * move number) into `buf` of `cap` bytes, NUL-terminated.  Returns the
 * length, which is always below 100; `cap` of XQ_FEN_SIZE is enough.
 */
size_t xqi_position_to_fen(const struct xqi_position *b, char *buf, size_t cap);

/* Make a move that is at least pseudo-legal; `u` receives what unmake needs. */
void xqi_position_make(struct xqi_position *b, xqi_move m, struct xqi_undo *u);
/* Undo `m`, which must be the last move made with `u`. */
void xqi_position_unmake(struct xqi_position *b, xqi_move m, const struct xqi_undo *u);
/* Pass the turn (for search); undo with xqi_position_unmake_null(). */
void xqi_position_make_null(struct xqi_position *b, struct xqi_undo *u);
void xqi_position_unmake_null(struct xqi_position *b, const struct xqi_undo *u);

/* Is `side`'s king attacked, or facing the other king on an open file? */
int xqi_position_king_attacked(const struct xqi_position *b, int side);

/* Which attacks on a king xqi_position_king_attacked_via() looks for. */
enum {
	XQI_VIA_RANK = 1,  /* a rook or cannon on the king's rank */
	XQI_VIA_FILE = 2,  /* a rook, cannon or the other king on its file */
	XQI_VIA_HORSE = 4, /* a horse whose leg is empty */
	XQI_VIA_PAWN = 8,  /* a pawn ahead of the king or beside it */
	XQI_VIA_ALL = 15   /* all of them: xqi_position_king_attacked() */
};
/* The attacks that `via` names only: after a change that leaves the rest
 * of the king's surroundings as they were (see xqi_move_check_hinted()). */
int xqi_position_king_attacked_via(const struct xqi_position *b, int side, unsigned via);
/* Is the side to move in check? */
#define xqi_position_in_check(b) xqi_position_king_attacked((b), (b)->side)

/* The key recomputed from scratch (tests compare it with b->key). */
uint64_t xqi_position_compute_key(const struct xqi_position *b);

/* Piece kind (XQI_KIND) on a square, 0 if empty. */
static inline uint8_t xqi_position_kind(const struct xqi_position *b, xqi_sq sq)
{
	return xqi_kind_of_id[b->sq[sq]];
}

/* Is the square on the 9x10 board? */
extern const uint8_t xqi_square_flags[256];
#define XQI_SQF_BOARD 0x01
#define XQI_SQF_PALACE 0x02
#define XQI_SQF_ADVISOR 0x04  /* one of the 10 advisor points */
#define XQI_SQF_ELEPHANT 0x08 /* one of the 14 elephant points */
#define XQI_SQF_PAWN_RED 0x10 /* a square a red pawn can reach */
#define XQI_SQF_PAWN_BLACK 0x20
#define xqi_on_board(sq) (xqi_square_flags[(sq)] & XQI_SQF_BOARD)
/* Red's half of the board is the rows with bit 0x80. */
#define XQI_SQ_SIDE_HALF(sq) ((sq) & 0x80 ? XQI_RED : XQI_BLACK)

/* Write the square in ICCS form ("e0") into 3 bytes. */
void xqi_sq_name(xqi_sq sq, char out[3]);
/* Write the move in ICCS lower case ("h2e2") into 5 bytes. */
void xqi_move_name(xqi_move m, char out[5]);

/* The piece type of an upper-case FEN letter (K A B|E N|H R C P), or -1. */
int xqi_piece_type_of_letter(int c);

/* The left-right mirror (file a..i read as i..a) of a move, and of a
 * position (the same side to move and counters). */
xqi_move xqi_move_mirror(xqi_move m);
void xqi_position_mirror(const struct xqi_position *b, struct xqi_position *out);

/* Do `a` and `b` have the same kind of piece on every square?  Not the
 * same piece identities: readers put pieces on a board in their own
 * orders (XQF by its slots), so two boards of one position can number
 * them otherwise.  xqi_position_same() also wants the same side to move. */
int xqi_position_same_pieces(const struct xqi_position *a, const struct xqi_position *b);
int xqi_position_same(const struct xqi_position *a, const struct xqi_position *b);

#endif
