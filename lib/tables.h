/*
 * tables.h: precomputed move tables (internal to lib/).
 *
 * The data is generated at build time by tools/gentables.c; see there for
 * the exact meaning of each table.  Leaper lists are zero-terminated lists
 * of target squares; the elephant's eye and the horse's leg lists run in
 * step with the target lists.
 */
#ifndef XQI_LIB_TABLES_H
#define XQI_LIB_TABLES_H

#include <stdint.h>

/*
 * One slider line entry.  For a piece on a rank (or file) with a given
 * occupancy, per direction (0 towards higher column/row numbers, 1 towards
 * lower): the furthest empty coordinate (the piece's own when none), and
 * the coordinates of the first, second and third occupied squares (0 when
 * there is none).  Coordinates are mailbox columns (ranks table) or rows
 * (files table).
 */
struct xqi_slide {
	uint8_t noncap[2];
	uint8_t first[2];  /* rook capture, nearest blocker */
	uint8_t second[2]; /* cannon capture */
	uint8_t third[2];  /* the piece behind the cannon's target */
};

extern const uint8_t xqi_square_flags[256];
extern const uint8_t xqi_king_to[256][5];
extern const uint8_t xqi_advisor_to[256][5];
extern const uint8_t xqi_elephant_to[256][5];
extern const uint8_t xqi_elephant_eye[256][4];
extern const uint8_t xqi_horse_to[256][9];
extern const uint8_t xqi_horse_leg[256][8];
extern const uint8_t xqi_red_pawn_to[256][4];
extern const uint8_t xqi_black_pawn_to[256][4];
extern const struct xqi_slide xqi_rank_slide[9][512];   /* [column-3][rank bits] */
extern const struct xqi_slide xqi_file_slide[10][1024]; /* [row-3][file bits] */
extern const uint64_t xqi_zobrist[16][256];            /* [kind][square] */
extern const uint64_t xqi_zobrist_side;                /* black to move */

/* Defined in position.c: for a king at k, the leg square k + leg and the two
 * horse squares k + from[i] whose horse attacks k when the leg is empty. */
struct xqi_horse_check {
	int8_t leg;
	int8_t from[2];
};
extern const struct xqi_horse_check xqi_horse_checks[4];

#endif
