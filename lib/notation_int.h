/*
 * notation_int.h: what the parts of move text share, private to them:
 *   notation.c        the grammars: text into a board-free request;
 *   notation_board.c  requests on the board, and reading;
 *   notation_write.c  writing, and the dialects' names;
 * the names of sides and pieces and the diagnostics of their messages,
 * and the geometry of descriptive notation, counted from each side.
 */
#ifndef XQI_LIB_NOTATION_INT_H
#define XQI_LIB_NOTATION_INT_H

#include <stdarg.h>

#include "position.h"
#include "diagnostic.h"
#include "notation.h"

static const char *const side_names[2] = {"red", "black"};
static const char *const type_names[XQI_PIECE_TYPES] = {
	"king", "advisor", "elephant", "horse", "rook", "cannon", "pawn",
};

/* Diagnostics of the messages of reading and resolving. */
static inline int fail(struct xq_diagnostic *d, int rc, enum xqi_diagnostic_code code, const char *fmt,
		       ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

static inline int fail(struct xq_diagnostic *d, int rc, enum xqi_diagnostic_code code, const char *fmt,
		       ...)
{
	va_list ap;

	va_start(ap, fmt);
	xqi_diagnostic_vset(d, rc, code, XQ_SEVERITY_ERROR, fmt, ap);
	va_end(ap);
	return rc;
}

#define BAD(d, ...) fail((d), XQ_EPARSE, XQI_D_BAD_MOVE_TEXT, __VA_ARGS__)
#define NOTFOUND(d, ...) fail((d), XQ_ENOTFOUND, XQI_D_ILLEGAL_MOVE, __VA_ARGS__)
#define ILLEGAL(d, ...) fail((d), XQ_EILLEGAL, XQI_D_ILLEGAL_MOVE, __VA_ARGS__)
#define AMBIGUOUS(d, ...) fail((d), XQ_EAMBIGUOUS, XQI_D_AMBIGUOUS_MOVE, __VA_ARGS__)

/* Advisors, elephants and horses: their target is a file, never sideways. */
static inline int diagonal_mover(int type)
{
	return type == XQI_ADVISOR || type == XQI_ELEPHANT || type == XQI_HORSE;
}

/* ICCS column (0-8, a-i) of the mover's file n (1-9, from the mover's right). */
static inline int col_of_file(int side, int n)
{
	return side == XQI_RED ? 9 - n : n - 1;
}

static inline int file_of_col(int side, int col)
{
	return side == XQI_RED ? 9 - col : col + 1;
}

/* How near the enemy a rank is for `side`: larger is further forward. */
static inline int advance(int side, int rank)
{
	return side == XQI_RED ? rank : 9 - rank;
}

/* The pieces of `side` and `type` on column `col`, front first; returns how many. */
int xqi_notation_on_column(const struct xqi_position *b, int side, int type, int col, xqi_sq out[5]);

/*
 * Where the piece on `s` goes for direction `dir` ('+', '-', '.') and
 * target `target`.  Returns 0 and the move, or XQ_EILLEGAL with the reason
 * in `d` (may be NULL).
 */
int xqi_notation_destination(xqi_sq s, int side, int type, char dir, int target, xqi_move *m,
			    struct xq_diagnostic *d);

/* A request made straight from the bytes of a Chinese move of four
 * characters, as the grammar makes it (notation.c): 1, or 0 for any other
 * text, which takes the general way. */
int xqi_notation_quick_chinese(struct xqi_move_request *r, const char *text, size_t len);

#endif
