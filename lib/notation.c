/*
 * notation.c: move text in every dialect (ICCS, UCI, UCI1, WXF, Chinese,
 * XBoard SAN), read in two phases and written exactly.
 *
 * Reading.  A token is decoded from UTF-8 into at most TOK_MAX code
 * points with full-width ASCII folded to ASCII (real files write
 * `Ｃ２＝５` and `马８进７`), then one small grammar per dialect turns it
 * into a board-free struct xqi_move_request.  Resolution then works on the
 * position: it lists the pieces the text designates (by file, counted from
 * the mover's own right, and by the tandem qualifier, counted from the
 * front, the side nearer the enemy), computes where each would go, and
 * keeps those whose move xqi_move_check() accepts.  Exactly one survivor is
 * the move; none is an error that carries xqi_move_check()'s reason (leg,
 * eye, river, palace, screen, check, facing kings); two or more is an
 * ambiguity that names them.  That one rule covers the conventions that
 * leave the board to decide (two advisors on a file, 仕四进五 vs 仕四退五)
 * without ever picking between two legal readings.
 *
 * Writing.  Coordinates are direct.  WXF and Chinese share one
 * description of the move (file, direction, target, and the piece's place
 * among its tandem twins), computed from the piece lists without
 * generating moves, and each dialect spells it with its own tandem rules.
 * Nothing allocates; a write is a legality check (xqi_move_check, skipped
 * when the caller vouches for the move) plus a walk over at most five
 * pieces.
 */
#include "notation.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "diagnostic.h"
#include "movegen.h"
#include "utf8.h"

/* Longest move in characters: UCI1 `h10-g10` has 7; anything past 12 is not a move. */
#define TOK_MAX 12

struct tok {
	uint32_t c[TOK_MAX];
	int n;
	int ascii; /* every character is ASCII (after folding) */
};

static const char *const side_names[2] = {"red", "black"};
static const char *const type_names[XQI_PIECE_TYPES] = {
	"king", "advisor", "elephant", "horse", "rook", "cannon", "pawn",
};

/* ---- diagnostics ---------------------------------------------------------- */

static int fail(struct xq_diagnostic *d, int rc, enum xqi_diagnostic_code code, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

static int fail(struct xq_diagnostic *d, int rc, enum xqi_diagnostic_code code, const char *fmt, ...)
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

/* ---- tokens --------------------------------------------------------------- */

static int tok_init(struct tok *t, const char *s, size_t len, struct xq_diagnostic *d)
{
	size_t i = 0;

	t->n = 0;
	t->ascii = 1;
	if (len == 0)
		return BAD(d, "empty move text");
	while (i < len) {
		uint32_t cp;
		size_t k = xq_utf8_decode(s + i, len - i, &cp);
		if (k == 0)
			return BAD(d, "byte %zu is not valid UTF-8", i + 1);
		if (t->n == TOK_MAX)
			return BAD(d, "too long for a move (more than %d characters)", TOK_MAX);
		cp = xqi_fold_fullwidth(cp);
		if (cp >= 0x80)
			t->ascii = 0;
		t->c[t->n++] = cp;
		i += k;
	}
	return 0;
}

static int is_ascii_digit19(uint32_t c)
{
	return c >= '1' && c <= '9';
}

/* A token character for messages: printable ASCII as itself, '?' else. */
static int printable(uint32_t c)
{
	return c > 0x20 && c < 0x7F ? (int)c : '?';
}

/* A character as UTF-8 text for messages (5 bytes with the NUL). */
static const char *utf8_of(uint32_t cp, char buf[5])
{
	size_t n = xq_utf8_encode(cp, buf);
	buf[n] = '\0';
	return buf;
}

static int is_suffix_cp(uint32_t c)
{
	return c == '+' || c == '#' || c == '!' || c == '?';
}

static void req_init(struct xqi_move_request *r, enum xq_dialect dialect)
{
	memset(r, 0, sizeof(*r));
	r->dialect = dialect;
	r->piece = -1;
	r->from_file = -1;
	r->from_rank = -1;
	r->file = -1;
}

/* ---- coordinates: ICCS, UCI (ranks 0-9), UCI1 (ranks 1-10) ---------------- */

struct coord {
	int f[2], r[2]; /* files 0-8, ranks as written (0-10) */
	int upper[2];   /* the file letter was upper case */
};

/* The shape file rank [-] file rank, ranks being one digit or "10".
 * Returns 1 if the token has it. */
static int scan_coord(const struct tok *t, struct coord *c)
{
	int i = 0;

	if (!t->ascii)
		return 0;
	for (int k = 0; k < 2; k++) {
		uint32_t f;
		if (k == 1 && i < t->n && t->c[i] == '-')
			i++;
		if (i >= t->n)
			return 0;
		f = (uint32_t)xq_to_lower((int)t->c[i]);
		if (f < 'a' || f > 'i')
			return 0;
		c->upper[k] = f != t->c[i];
		c->f[k] = (int)(f - 'a');
		i++;
		if (i >= t->n || !xq_is_digit((int)t->c[i]))
			return 0;
		c->r[k] = (int)(t->c[i] - '0');
		i++;
		if (c->r[k] == 1 && i < t->n && t->c[i] == '0') {
			c->r[k] = 10;
			i++;
		}
	}
	return i == t->n;
}

static int parse_coord(struct xqi_move_request *r, const struct tok *t, enum xq_dialect dialect,
		       struct xq_diagnostic *d)
{
	struct coord c;
	int one = dialect == XQ_DIALECT_UCI1;

	if (!scan_coord(t, &c))
		return BAD(d, "not a coordinate move (expected a file a-i and a rank %s twice, as in %s)",
			   one ? "1-10" : "0-9", one ? "h3e3 or h10g8" : "h2e2 or H2-E2");
	for (int k = 0; k < 2; k++) {
		if (!one && c.r[k] == 10)
			return BAD(d, "rank 10 exists only in UCI with ranks 1-10 (Fairy-Stockfish), "
				      "which is read only when asked for (uci1)");
		if (one && c.r[k] == 0)
			return BAD(d, "rank 0 does not exist in UCI with ranks 1-10 (uci1); ranks 0-9 "
				      "are ICCS or UCI");
	}
	req_init(r, dialect == XQ_DIALECT_AUTO ? XQ_DIALECT_ICCS : dialect);
	r->from = XQI_SQ(c.f[0], c.r[0] - one);
	r->to = XQI_SQ(c.f[1], c.r[1] - one);
	return 0;
}

/* ---- WXF ------------------------------------------------------------------ */

static int wxf_piece(uint32_t c)
{
	if (c >= 0x80)
		return -1;
	switch (xq_to_upper((int)c)) {
	case 'K':
		return XQI_KING;
	case 'A':
	case 'G':
		return XQI_ADVISOR;
	case 'E':
	case 'B':
	case 'M':
		return XQI_ELEPHANT;
	case 'H':
	case 'N':
		return XQI_HORSE;
	case 'R':
		return XQI_ROOK;
	case 'C':
		return XQI_CANNON;
	case 'P':
		return XQI_PAWN;
	}
	return -1;
}

static int diagonal_mover(int type)
{
	return type == XQI_ADVISOR || type == XQI_ELEPHANT || type == XQI_HORSE;
}

/* Shared last step of WXF and Chinese: a diagonal mover never goes sideways. */
static int check_direction(const struct xqi_move_request *r, struct xq_diagnostic *d)
{
	if (r->piece >= 0 && diagonal_mover(r->piece) && r->direction == '.')
		return BAD(d, "the %s never moves sideways (平, . or =): it goes forward or back "
			      "to the file it names",
			   type_names[r->piece]);
	return 0;
}

static int parse_wxf(struct xqi_move_request *r, const struct tok *t, struct xq_diagnostic *d)
{
	const uint32_t *c = t->c;
	int n = t->n, i = 2, p;

	req_init(r, XQ_DIALECT_WXF);
	if (!t->ascii)
		return BAD(d, "not a WXF move (WXF uses letters, digits and + - . =)");
	if (n < 3)
		return BAD(d, "too short for a WXF move (as in C2.5, H8+7, R+.3)");
	if (c[0] == '+' || c[0] == '-') {
		int front = c[0] == '+';
		if ((p = wxf_piece(c[1])) >= 0) {
			r->piece = (int8_t)p;
			r->position = front ? XQI_TANDEM_PREFIX_FRONT : XQI_TANDEM_PREFIX_REAR;
		} else if (c[1] == c[0]) {
			r->piece = XQI_PAWN;
			r->position = front ? XQI_TANDEM_WXF_FOREMOST : XQI_TANDEM_WXF_REARMOST;
		} else {
			return BAD(d, "after '%c' expected a piece letter or a second '%c' (as in %cP+1 "
				      "or %c%c.4)",
				   (int)c[0], (int)c[0], (int)c[0], (int)c[0], (int)c[0]);
		}
	} else if (is_ascii_digit19(c[0])) {
		/* Pawns on two files: the file, then + - or the file again. */
		r->piece = XQI_PAWN;
		r->file = (int8_t)(c[0] - '0');
		if (c[1] == '+')
			r->position = XQI_TANDEM_WXF_FRONT;
		else if (c[1] == '-')
			r->position = XQI_TANDEM_WXF_REAR;
		else if (c[1] == c[0])
			r->position = XQI_TANDEM_MIDDLE;
		else
			return BAD(d, "a move starting with a file number is a pawn on one of two files, "
				      "written %c+ %c%c or %c- (front, middle, rear)",
				   (int)c[0], (int)c[0], (int)c[0], (int)c[0]);
	} else if ((p = wxf_piece(c[0])) >= 0) {
		uint32_t q = c[1] < 0x80 ? (uint32_t)xq_to_lower((int)c[1]) : c[1];
		r->piece = (int8_t)p;
		if (is_ascii_digit19(q)) {
			r->file = (int8_t)(q - '0');
			/* P3-.4: the file, then the place on it (pawns on two files). */
			if (n == 5 && (c[2] == '+' || c[2] == '-') &&
			    (c[3] == '+' || c[3] == '-' || c[3] == '.' || c[3] == '=')) {
				r->position = c[2] == '+' ? XQI_TANDEM_WXF_FRONT : XQI_TANDEM_WXF_REAR;
				i = 3;
			}
		} else if (q == '+')
			r->position = XQI_TANDEM_WXF_FRONT;
		else if (q == '-')
			r->position = XQI_TANDEM_WXF_REAR;
		else if (q == '.')
			r->position = XQI_TANDEM_MIDDLE;
		else if (q >= 'a' && q <= 'e')
			r->position = (int8_t)(q - 'a' + 1);
		else
			return BAD(d, "after the piece letter expected its file 1-9 or a tandem mark "
				      "(+ front, - rear), found '%c'",
				   printable(c[1]));
	} else {
		return BAD(d, "'%c' is not a WXF piece letter (K A E H R C P, or G B M N)",
			   printable(c[0]));
	}
	if (c[i] == '+' || c[i] == '-') {
		r->direction = (char)c[i++];
	} else if (c[i] == '.' || c[i] == '=') {
		r->direction = '.';
		i++;
	} else if (is_ascii_digit19(c[i]) && n == 3 && r->file > 0 &&
		   r->position == XQI_TANDEM_NONE) {
		r->direction = '.'; /* C25: sideways with the operator left out */
	} else {
		return BAD(d, "expected the operator + (forward), - (backward) or . = (sideways) at "
			      "character %d, found '%c'",
			   i + 1, printable(c[i]));
	}
	if (i >= n)
		return BAD(d, "the move ends before its target (a number 1-9)");
	if (!is_ascii_digit19(c[i]))
		return BAD(d, "the target must be a number 1-9, found '%c'", printable(c[i]));
	if (i != n - 1)
		return BAD(d, "unexpected '%c' after the target", printable(c[i + 1]));
	r->target = (int8_t)(c[i] - '0');
	return check_direction(r, d);
}

/* ---- Chinese -------------------------------------------------------------- */

enum { ZH_NONE, ZH_PIECE, ZH_NUM, ZH_DIGIT, ZH_DIR, ZH_QUAL };

struct zh_glyph {
	uint16_t cp;
	uint8_t cls;
	int8_t val;
};

/* Sorted by code point for the binary search. */
static const struct zh_glyph zh_glyphs[] = {
	{0x4E00, ZH_NUM, 1},                 /* 一 */
	{0x4E03, ZH_NUM, 7},                 /* 七 */
	{0x4E09, ZH_NUM, 3},                 /* 三 */
	{0x4E0A, ZH_DIR, '+'},               /* 上, old books' 进 */
	{0x4E0B, ZH_DIR, '-'},               /* 下, old books' 退 */
	{0x4E2D, ZH_QUAL, XQI_TANDEM_MIDDLE}, /* 中 */
	{0x4E5D, ZH_NUM, 9},                 /* 九 */
	{0x4E8C, ZH_NUM, 2},                 /* 二 */
	{0x4E94, ZH_NUM, 5},                 /* 五 */
	{0x4ED5, ZH_PIECE, XQI_ADVISOR},      /* 仕 */
	{0x4FE5, ZH_PIECE, XQI_ROOK},         /* 俥 */
	{0x508C, ZH_PIECE, XQI_HORSE},        /* 傌 */
	{0x516B, ZH_NUM, 8},                 /* 八 */
	{0x516D, ZH_NUM, 6},                 /* 六 */
	{0x5175, ZH_PIECE, XQI_PAWN},         /* 兵 */
	{0x524D, ZH_QUAL, XQI_TANDEM_FRONT},  /* 前 */
	{0x5305, ZH_PIECE, XQI_CANNON},       /* 包 */
	{0x5352, ZH_PIECE, XQI_PAWN},         /* 卒 */
	{0x540E, ZH_QUAL, XQI_TANDEM_REAR},   /* 后 */
	{0x56DB, ZH_NUM, 4},                 /* 四 */
	{0x58EB, ZH_PIECE, XQI_ADVISOR},      /* 士 */
	{0x5C06, ZH_PIECE, XQI_KING},         /* 将 */
	{0x5C07, ZH_PIECE, XQI_KING},         /* 將 */
	{0x5E05, ZH_PIECE, XQI_KING},         /* 帅 */
	{0x5E25, ZH_PIECE, XQI_KING},         /* 帥 */
	{0x5E73, ZH_DIR, '.'},               /* 平 */
	{0x5F8C, ZH_QUAL, XQI_TANDEM_REAR},   /* 後 */
	{0x70AE, ZH_PIECE, XQI_CANNON},       /* 炮 */
	{0x76F8, ZH_PIECE, XQI_ELEPHANT},     /* 相 */
	{0x7832, ZH_PIECE, XQI_CANNON},       /* 砲 */
	{0x7868, ZH_PIECE, XQI_ROOK},         /* 硨 */
	{0x78BC, ZH_PIECE, XQI_HORSE},        /* 碼 */
	{0x8C61, ZH_PIECE, XQI_ELEPHANT},     /* 象 */
	{0x8ECA, ZH_PIECE, XQI_ROOK},         /* 車 */
	{0x8F66, ZH_PIECE, XQI_ROOK},         /* 车 */
	{0x8FDB, ZH_DIR, '+'},               /* 进 */
	{0x9000, ZH_DIR, '-'},               /* 退 */
	{0x9032, ZH_DIR, '+'},               /* 進 */
	{0x99AC, ZH_PIECE, XQI_HORSE},        /* 馬 */
	{0x9A6C, ZH_PIECE, XQI_HORSE},        /* 马 */
	/* Full-width digits (what folding them gives), for the quick way. */
	{0xFF11, ZH_DIGIT, 1}, {0xFF12, ZH_DIGIT, 2}, {0xFF13, ZH_DIGIT, 3},
	{0xFF14, ZH_DIGIT, 4}, {0xFF15, ZH_DIGIT, 5}, {0xFF16, ZH_DIGIT, 6},
	{0xFF17, ZH_DIGIT, 7}, {0xFF18, ZH_DIGIT, 8}, {0xFF19, ZH_DIGIT, 9},
};

/*
 * zh_glyphs by a hash of the code point (every move read looks up four
 * characters): zh_slots[ZH_HASH(cp)] is the index + 1 of the glyph whose
 * code point may be cp, 0 for none.  The multiplier makes the 49 glyphs
 * fall in 49 slots of 128; xqi_notation_check() proves that every glyph is
 * found in its slot.
 */
#define ZH_HASH(cp) ((uint32_t)((uint32_t)(cp) * 0xF34EF2E7u) >> 25)
static const uint8_t zh_slots[128] = {
	 0, 11,  0, 23,  0, 35,  0,  1,  0, 22,  0,  0, 29,  0,  8,  0,
	 0, 40,  0, 25,  0,  0, 15,  0,  0,  0,  0, 19,  0,  0,  0, 36,
	 0,  0,  0,  0, 26,  0,  0,  0,  0,  0,  0,  0, 17, 27, 33,  0,
	 0,  0,  0, 49, 37,  0,  0,  0,  7, 48,  0,  0, 16,  0, 21, 10,
	47,  5,  0, 30, 18,  0, 46,  4,  0, 14,  0,  0, 45,  3,  0,  0,
	 0,  0,  0, 44, 39, 20, 13, 32,  0, 43,  0,  9,  0, 12, 24, 42,
	 0,  0,  0, 34,  0,  0, 41,  0,  0,  6,  0,  0, 31,  0,  0,  0,
	 0,  0,  0,  2, 28,  0,  0, 38,  0,  0,  0,  0,  0,  0,  0,  0,
};

static inline int zh_class(uint32_t cp, int *val)
{
	unsigned k;

	if (is_ascii_digit19(cp)) {
		*val = (int)(cp - '0');
		return ZH_DIGIT;
	}
	k = zh_slots[ZH_HASH(cp)];
	if (k && zh_glyphs[k - 1].cp == cp) {
		*val = zh_glyphs[k - 1].val;
		return zh_glyphs[k - 1].cls;
	}
	*val = 0;
	return ZH_NONE;
}

int xqi_notation_check(void)
{
	size_t n = sizeof(zh_glyphs) / sizeof(zh_glyphs[0]);

	for (size_t i = 0; i < n; i++)
		if (zh_slots[ZH_HASH(zh_glyphs[i].cp)] != i + 1 || (i > 0 && zh_glyphs[i - 1].cp >= zh_glyphs[i].cp))
			return -1;
	return 0;
}

static int is_number(int cls)
{
	return cls == ZH_NUM || cls == ZH_DIGIT;
}

/* 前 中 后, or a numeral 一..五 (also a digit 1-5 when a piece follows). */
static int is_qualifier(int cls, int val, int next_cls)
{
	return cls == ZH_QUAL || (cls == ZH_NUM && val <= 5) ||
	       (cls == ZH_DIGIT && val <= 5 && next_cls == ZH_PIECE);
}

/*
 * The request of a Chinese move whose `n` characters (four or five) are of
 * the classes cls[] with the values val[], none of them ZH_NONE.
 */
static int zh_request(struct xqi_move_request *r, const int *cls, const int *val, int n,
		      struct xq_diagnostic *d)
{
	int k;

	req_init(r, XQ_DIALECT_CHINESE);
	if (n == 5) {
		/* 前兵四平五: qualifier, piece, file. */
		if (!is_qualifier(cls[0], val[0], cls[1]) || cls[1] != ZH_PIECE || !is_number(cls[2]))
			return BAD(d, "a five-character move is qualifier, piece, file, direction, target "
				      "(as in 前兵四平五)");
		r->position = (int8_t)val[0];
		r->piece = (int8_t)val[1];
		r->file = (int8_t)val[2];
		k = 3;
	} else if (cls[0] == ZH_PIECE) {
		r->piece = (int8_t)val[0];
		if (is_number(cls[1]))
			r->file = (int8_t)val[1];
		else if (cls[1] == ZH_QUAL)
			r->position = (int8_t)val[1]; /* 车前平三 */
		else
			return BAD(d, "after the piece expected its file (一..九 or 1..9) or 前/中/后");
		k = 2;
	} else if (is_qualifier(cls[0], val[0], cls[1])) {
		r->position = (int8_t)val[0];
		if (cls[1] == ZH_PIECE) {
			r->piece = (int8_t)val[1];
		} else if (is_number(cls[1]) && cls[0] != ZH_DIGIT) {
			/* 前九平八, 二7平6: dpxq pawns on two files, piece left out. */
			r->piece = XQI_PAWN;
			r->file = (int8_t)val[1];
		} else {
			return BAD(d, "after 前/中/后 or a numeral expected a piece or a file");
		}
		k = 2;
	} else {
		return BAD(d, "a Chinese move starts with a piece (车 马 炮 兵 ...) or with 前/中/后 or "
			      "一..五");
	}
	if (cls[k] != ZH_DIR)
		return BAD(d, "character %d should be the direction 进 (forward), 退 (back) or 平 "
			      "(sideways)",
			   k + 1);
	r->direction = (char)val[k];
	if (!is_number(cls[k + 1]))
		return BAD(d, "the last character should be the target, a number 一..九 or 1..9");
	r->target = (int8_t)val[k + 1];
	return check_direction(r, d);
}

static int parse_chinese(struct xqi_move_request *r, const struct tok *t, struct xq_diagnostic *d)
{
	int cls[TOK_MAX], val[TOK_MAX], n = t->n;
	char u[5];

	req_init(r, XQ_DIALECT_CHINESE);
	for (int i = 0; i < n; i++)
		cls[i] = zh_class(t->c[i], &val[i]);
	if (n != 4 && n != 5)
		return BAD(d, "a Chinese move has four characters (five with both a qualifier and a "
			      "file), this text has %d",
			   n);
	for (int i = 0; i < n; i++)
		if (cls[i] == ZH_NONE)
			return BAD(d, "character %d ('%s') is not a piece, number, direction or 前/中/后",
				   i + 1, utf8_of(t->c[i], u));
	return zh_request(r, cls, val, n, d);
}

/* Eight (four) bytes as a little-endian number: one load where the
 * machine is little-endian. */
static inline uint64_t load_le64(const unsigned char *p)
{
	uint64_t w = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(&w, p, 8);
#else
	for (int k = 7; k >= 0; k--)
		w = w << 8 | p[k];
#endif
	return w;
}

static inline uint32_t load_le32(const unsigned char *p)
{
	uint32_t w = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(&w, p, 4);
#else
	for (int k = 3; k >= 0; k--)
		w = w << 8 | p[k];
#endif
	return w;
}

/*
 * The common case of reading Chinese notation, without building a token:
 * four characters, each a glyph of three UTF-8 bytes, a full-width digit
 * (EF BC 91 to 99) or an ASCII one, classified straight from its bytes.
 * Makes the request parse_chinese() makes of such text: 1 with *r, or 0
 * for any other text (five characters, a mistake), which takes the
 * general path, where what is wrong is said.
 */
static int quick_chinese(struct xqi_move_request *r, const char *text, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;
	int cls[4], val[4];
	size_t i = 0;

	if (len == 12) {
		/* Four characters of three bytes (炮二平五, 马８进７): their shape
		 * seen in two loads, then their code points. */
		uint64_t w0 = load_le64(s);
		uint32_t w1 = load_le32(s + 8);
		if ((w0 & 0xC0F0C0C0F0C0C0F0u) == 0x80E08080E08080E0u &&
		    (w1 & 0xC0C0F0C0u) == 0x8080E080u) {
			/* (no fold: the full-width digits are glyphs of their own) */
			for (int k = 0; k < 4; k++, s += 3) {
				uint32_t cp = (uint32_t)(s[0] & 0x0F) << 12 | (uint32_t)(s[1] & 0x3F) << 6 |
					      (s[2] & 0x3F);
				if (cp < 0x800 || (cls[k] = zh_class(cp, &val[k])) == ZH_NONE)
					return 0; /* (below U+0800: an overlong form, not UTF-8) */
			}
			return zh_request(r, cls, val, 4, NULL) == 0;
		}
	}
	for (int k = 0; k < 4; k++) {
		uint32_t cp;
		if (i < len && s[i] >= '1' && s[i] <= '9') {
			cls[k] = ZH_DIGIT;
			val[k] = s[i++] - '0';
			continue;
		}
		if (i + 2 >= len || (s[i] & 0xF0) != 0xE0 || (s[i + 1] & 0xC0) != 0x80 ||
		    (s[i + 2] & 0xC0) != 0x80)
			return 0;
		cp = (uint32_t)(s[i] & 0x0F) << 12 | (uint32_t)(s[i + 1] & 0x3F) << 6 | (s[i + 2] & 0x3F);
		if (cp < 0x800)
			return 0; /* an overlong form: not UTF-8 */
		i += 3;
		cls[k] = zh_class(cp, &val[k]);
		if (cls[k] == ZH_NONE)
			return 0;
	}
	return i == len && zh_request(r, cls, val, 4, NULL) == 0;
}

/* ---- XBoard SAN ----------------------------------------------------------- */

static int is_file_letter(uint32_t c)
{
	return c >= 'a' && c <= 'i';
}

static int parse_san(struct xqi_move_request *r, const struct tok *t, struct xq_diagnostic *d)
{
	const uint32_t *c = t->c;
	int n = t->n, i = 0, j;

	req_init(r, XQ_DIALECT_SAN);
	if (!t->ascii)
		return BAD(d, "not a SAN move (SAN uses letters and digits, as in Che2)");
	r->piece = XQI_PAWN;
	if (n > 0 && c[0] >= 'A' && c[0] <= 'Z') {
		int p = c[0] == 'G' || c[0] == 'M' ? -1 : wxf_piece(c[0]);
		if (p < 0)
			return BAD(d, "'%c' is not a SAN piece letter (K A E H R C, or B N)", (int)c[0]);
		r->piece = (int8_t)p;
		i = 1;
	} else if (n > 0 && !is_file_letter(c[0])) {
		return BAD(d, "a SAN move starts with a piece letter (K A E H R C) or, for a pawn, "
			      "a file a-i");
	}
	if (n - i < 2 || !is_file_letter(c[n - 2]) || !xq_is_digit((int)c[n - 1]))
		return BAD(d, "a SAN move ends with the target square, a file a-i and a rank 0-9");
	r->to = XQI_SQ((int)(c[n - 2] - 'a'), (int)(c[n - 1] - '0'));
	j = n - 2;
	if (j > i && c[j - 1] == 'x') {
		r->capture = 1;
		j--;
	}
	if (j - i > 2)
		return BAD(d, "too much before the target square for SAN");
	if (j - i >= 1 && is_file_letter(c[i])) {
		r->from_file = (int8_t)(c[i] - 'a');
		i++;
	}
	if (j - i == 1 && xq_is_digit((int)c[i])) {
		r->from_rank = (int8_t)(c[i] - '0');
		i++;
	}
	if (i != j)
		return BAD(d, "'%c' is not a file a-i or a rank 0-9 of the origin", printable(c[i]));
	return 0;
}

/* ---- dispatch ------------------------------------------------------------- */

/* Which grammar fits the token, without messages; AUTO for none. */
static enum xq_dialect classify(const struct tok *t, struct xqi_move_request *r)
{
	struct coord c;

	if (!t->ascii)
		return parse_chinese(r, t, NULL) == 0 ? XQ_DIALECT_CHINESE : XQ_DIALECT_AUTO;
	/* ICCS writes both squares in one case; `A9e8` is SAN (advisor from rank 9). */
	if (scan_coord(t, &c) && !(c.upper[0] && !c.upper[1] && parse_san(r, t, NULL) == 0)) {
		int has0 = c.r[0] == 0 || c.r[1] == 0, has10 = c.r[0] == 10 || c.r[1] == 10;
		if (has10)
			return has0 ? XQ_DIALECT_AUTO : XQ_DIALECT_UCI1;
		return XQ_DIALECT_ICCS;
	}
	if (parse_wxf(r, t, NULL) == 0)
		return XQ_DIALECT_WXF;
	if (parse_san(r, t, NULL) == 0)
		return XQ_DIALECT_SAN;
	return XQ_DIALECT_AUTO;
}

static int parse_tok(struct xqi_move_request *out, const struct tok *t, enum xq_dialect dialect,
		     struct xq_diagnostic *d)
{
	struct xqi_move_request r;
	enum xq_dialect guess;

	switch (dialect) {
	case XQ_DIALECT_ICCS:
	case XQ_DIALECT_UCI:
	case XQ_DIALECT_UCI1:
		return parse_coord(out, t, dialect, d);
	case XQ_DIALECT_WXF:
		return parse_wxf(out, t, d);
	case XQ_DIALECT_CHINESE:
		return parse_chinese(out, t, d);
	case XQ_DIALECT_SAN:
		return parse_san(out, t, d);
	case XQ_DIALECT_AUTO:
		break;
	default:
		return BAD(d, "unknown notation %d", (int)dialect);
	}
	guess = classify(t, &r);
	switch (guess) {
	case XQ_DIALECT_ICCS:
	case XQ_DIALECT_UCI1: /* AUTO reads coordinates with ranks 0-9 only: rank 10 is an error */
		return parse_coord(out, t, XQ_DIALECT_AUTO, d);
	case XQ_DIALECT_AUTO:
		break;
	default:
		*out = r;
		return 0;
	}
	/* Nothing fits: explain with the grammar the text looks most like. */
	if (!t->ascii)
		return parse_chinese(&r, t, d);
	if (t->n >= 4 && t->n <= 7 && is_file_letter((uint32_t)xq_to_lower((int)t->c[0])) &&
	    xq_is_digit((int)t->c[1]) && t->c[2] != '+' && t->c[2] != '-' && t->c[2] != '.' &&
	    t->c[2] != '=')
		return parse_coord(&r, t, XQ_DIALECT_AUTO, d);
	if (t->n >= 2 && t->c[0] >= 'A' && t->c[0] <= 'Z' && is_file_letter(t->c[1]))
		return parse_san(&r, t, d);
	if (t->n >= 2 && (wxf_piece(t->c[0]) >= 0 || t->c[0] == '+' || t->c[0] == '-' ||
			  is_ascii_digit19(t->c[0])))
		return parse_wxf(&r, t, d);
	return BAD(d, "not a move in any notation (ICCS h2e2, WXF C2.5, Chinese 炮二平五, SAN Che2)");
}

int xqi_notation_parse(struct xqi_move_request *out, const char *text, size_t len,
		      enum xq_dialect dialect, struct xq_diagnostic *d)
{
	struct tok t;
	struct xqi_move_request r;
	int rc, n;

	if ((rc = tok_init(&t, text, len, d)))
		return rc;
	for (int i = 0; i < t.n; i++)
		if (t.c[i] < 0x80 && xq_is_space((int)t.c[i]))
			return BAD(d, "white space inside the move at character %d", i + 1);
	rc = parse_tok(&r, &t, dialect, d);
	if (rc == 0) {
		*out = r;
		return 0;
	}
	/* A check mark or annotation after a good move: say so rather than
	 * what the grammar tripped on. */
	n = t.n;
	while (n > 0 && is_suffix_cp(t.c[n - 1]))
		n--;
	if (n > 0 && n < t.n) {
		struct tok s = t;
		s.n = n;
		if (parse_tok(&r, &s, dialect, NULL) == 0)
			return BAD(d, "'%c' after the move is a check mark or annotation, not part of "
				      "the move (strip it first)",
				   (int)t.c[n]);
	}
	return rc;
}

enum xq_dialect xqi_notation_detect(const char *text, size_t len)
{
	struct tok t;
	struct xqi_move_request r;

	len = xqi_notation_strip_suffix(text, len);
	if (tok_init(&t, text, len, NULL))
		return XQ_DIALECT_AUTO;
	return classify(&t, &r);
}

size_t xqi_notation_strip_suffix(const char *text, size_t len)
{
	while (len > 0) {
		char c = text[len - 1];
		if (c == '+' || c == '#' || c == '!' || c == '?') {
			len--;
			continue;
		}
		/* Full-width ＋ ＃ ！ ？ are EF BC 8B / 83 / 81 / EF BC 9F. */
		if (len >= 3 && (unsigned char)text[len - 3] == 0xEF &&
		    (unsigned char)text[len - 2] == 0xBC) {
			unsigned char e = (unsigned char)text[len - 1];
			if (e == 0x8B || e == 0x83 || e == 0x81 || e == 0x9F) {
				len -= 3;
				continue;
			}
		}
		break;
	}
	return len;
}

/* ---- the board side of descriptive notation ------------------------------- */

/* ICCS column (0-8, a-i) of the mover's file n (1-9, from the mover's right). */
static int col_of_file(int side, int n)
{
	return side == XQI_RED ? 9 - n : n - 1;
}

static int file_of_col(int side, int col)
{
	return side == XQI_RED ? 9 - col : col + 1;
}

/* How near the enemy a rank is for `side`: larger is further forward. */
static int advance(int side, int rank)
{
	return side == XQI_RED ? rank : 9 - rank;
}

/* The pieces of `side` and `type` on column `col`, front first; returns how many. */
static int on_column(const struct xqi_position *b, int side, int type, int col, xqi_sq out[5])
{
	int base = XQI_SIDE_TAG(side) + xqi_first_slot[type], n = 0;

	/* Appended without a branch on each piece, whose file no predictor
	 * guesses; then put in order, front first (two pieces at most, but
	 * for pawns). */
	for (int i = 0; i < xqi_slot_count[type]; i++) {
		xqi_sq s = b->pc[base + i];
		out[n] = s;
		n += s && XQI_SQ_FILE(s) == col;
	}
	for (int i = 1; i < n; i++) {
		xqi_sq s = out[i];
		int j;
		for (j = i; j > 0 && advance(side, XQI_SQ_RANK(out[j - 1])) < advance(side, XQI_SQ_RANK(s)); j--)
			out[j] = out[j - 1];
		out[j] = s;
	}
	return n;
}

static const char *tandem_name(int position)
{
	static const char *const numbered[6] = {"", "一 (first)", "二 (second)", "三 (third)",
						"四 (fourth)", "五 (fifth)"};
	switch (position) {
	case XQI_TANDEM_FRONT:
		return "前 (front)";
	case XQI_TANDEM_MIDDLE:
		return "中 (middle)";
	case XQI_TANDEM_REAR:
		return "后 (rear)";
	case XQI_TANDEM_WXF_FRONT:
		return "'+' (front)";
	case XQI_TANDEM_WXF_REAR:
		return "'-' (rear)";
	case XQI_TANDEM_WXF_FOREMOST:
		return "'++' (foremost)";
	case XQI_TANDEM_WXF_REARMOST:
		return "'--' (rearmost)";
	case XQI_TANDEM_PREFIX_FRONT:
		return "'+' before the piece (front)";
	case XQI_TANDEM_PREFIX_REAR:
		return "'-' before the piece (rear)";
	}
	return position >= 1 && position <= 5 ? numbered[position] : "qualifier";
}

/*
 * Which of the `k` pieces `on` one file (front first) the qualifier names:
 * returns 0 and the index, or an error.  `side` and `type` name the pieces
 * in messages (built only on the error path: this runs for every move read).
 */
static int pick(int position, const xqi_sq *on, int k, int *idx, int side, int type,
		struct xq_diagnostic *d)
{
	switch (position) {
	case XQI_TANDEM_FRONT:
	case XQI_TANDEM_WXF_FOREMOST:
		*idx = 0;
		return 0;
	case XQI_TANDEM_REAR:
	case XQI_TANDEM_WXF_REARMOST:
		*idx = k - 1;
		return 0;
	case XQI_TANDEM_MIDDLE:
		if (k == 3 || k == 5) {
			*idx = k / 2;
			return 0;
		}
		return NOTFOUND(d, "中 (middle) needs three or five %s %ss on the file, and there are %d",
				side_names[side], type_names[type], k);
	case XQI_TANDEM_WXF_FRONT:
		*idx = k >= 4 ? 1 : 0;
		return 0;
	case XQI_TANDEM_WXF_REAR:
		*idx = k >= 4 ? k - 2 : k - 1;
		return 0;
	case XQI_TANDEM_PREFIX_FRONT:
	case XQI_TANDEM_PREFIX_REAR: {
		int front = position == XQI_TANDEM_PREFIX_FRONT;
		char a[3], b[3];
		if (k < 4) {
			*idx = front ? 0 : k - 1;
			return 0;
		}
		/* WXF has '++'/'--' for the ends and 'P+'/'P-' next to them. */
		xqi_sq_name(on[front ? 0 : k - 1], a);
		xqi_sq_name(on[front ? 1 : k - 2], b);
		return AMBIGUOUS(d, "ambiguous: with %d %s %ss on the file, '%c' before the piece could be "
				    "the %s on %s (WXF '%c%c') or the one on %s (WXF 'P%c')",
				 k, side_names[side], type_names[type], front ? '+' : '-',
				 front ? "foremost" : "rearmost", a,
				 front ? '+' : '-', front ? '+' : '-', b, front ? '+' : '-');
	}
	}
	if (position >= 1 && position <= 5) {
		if (position <= k) {
			*idx = position - 1;
			return 0;
		}
		return NOTFOUND(d, "%s names a %s %s that is not there: the file has %d",
				tandem_name(position), side_names[side], type_names[type], k);
	}
	return NOTFOUND(d, "unknown tandem qualifier %d", position);
}

/*
 * Where the piece on `s` goes for direction `dir` and target `target`.
 * Returns 0 and the move, or XQ_EILLEGAL with the reason in `d`.
 */
static int destination(xqi_sq s, int side, int type, char dir, int target, xqi_move *m,
		       struct xq_diagnostic *d)
{
	int col = XQI_SQ_FILE(s), rank = XQI_SQ_RANK(s), fwd = side == XQI_RED ? 1 : -1;
	int tcol, trank, dc;

	if (target < 1 || target > 9)
		return ILLEGAL(d, "the target must be 1-9");
	if (!diagonal_mover(type)) {
		if (dir == '.') {
			tcol = col_of_file(side, target);
			if (tcol == col)
				return ILLEGAL(d, "a sideways move must leave file %d, where the %s stands",
					       target, type_names[type]);
			trank = rank;
		} else {
			tcol = col;
			trank = rank + (dir == '+' ? target : -target) * fwd;
			if (trank < 0 || trank > 9)
				return ILLEGAL(d, "%d %s is off the board", target,
					       dir == '+' ? "forward" : "backward");
		}
	} else {
		int dr;
		if (dir == '.')
			return ILLEGAL(d, "the %s never moves sideways", type_names[type]);
		tcol = col_of_file(side, target);
		dc = tcol > col ? tcol - col : col - tcol;
		if (type == XQI_ADVISOR && dc == 1)
			dr = 1;
		else if (type == XQI_ELEPHANT && dc == 2)
			dr = 2;
		else if (type == XQI_HORSE && (dc == 1 || dc == 2))
			dr = 3 - dc;
		else
			return ILLEGAL(d, "the %s cannot reach file %d from file %d", type_names[type],
				       target, file_of_col(side, col));
		trank = rank + (dir == '+' ? dr : -dr) * fwd;
		if (trank < 0 || trank > 9)
			return ILLEGAL(d, "file %d %s is off the board", target,
				       dir == '+' ? "forward" : "backward");
	}
	*m = XQI_MOVE(s, XQI_SQ(tcol, trank));
	return 0;
}

/* "forward 3", "back 1", "sideways to file 5", "forward to file 7" for messages. */
static void action_text(char *buf, size_t cap, int type, char dir, int target)
{
	const char *way = dir == '+' ? "forward" : dir == '-' ? "back" : "sideways";

	if (dir == '.' || diagonal_mover(type))
		snprintf(buf, cap, "%s to file %d", way, target);
	else
		snprintf(buf, cap, "%s %d", way, target);
}

/*
 * Try each candidate square; keep the legal moves.  Exactly one is the
 * answer; otherwise explain.
 */
static int settle(xqi_move *out, struct xqi_position *b, int type, const xqi_sq *cand, int nc,
		  char dir, int target, int file, int in_check, struct xq_diagnostic *d)
{
	xqi_move legal[5], tried[5];
	struct xq_diagnostic why[5];
	int nl = 0, side = b->side;
	char act[48], scope[24], a[3], c[3], e[3], f[3];

	/* The common case, one legal move, builds no message at all. */
	for (int i = 0; i < nc; i++) {
		tried[i] = 0;
		if (destination(cand[i], side, type, dir, target, &tried[i], NULL) == 0 &&
		    xqi_move_check_hinted(b, tried[i], in_check, NULL) == 0)
			legal[nl++] = tried[i];
	}
	if (nl == 1) {
		*out = legal[0];
		return 0;
	}
	action_text(act, sizeof(act), type, dir, target);
	if (nl > 1) {
		xqi_sq_name(XQI_MOVE_FROM(legal[0]), a);
		xqi_sq_name(XQI_MOVE_TO(legal[0]), c);
		xqi_sq_name(XQI_MOVE_FROM(legal[1]), e);
		xqi_sq_name(XQI_MOVE_TO(legal[1]), f);
		return AMBIGUOUS(d, "ambiguous: the %s %ss on %s and %s can both move %s (%s-%s or %s-%s)",
				 side_names[side], type_names[type], a, e, act, a, c, e, f);
	}
	/* No legal move: go again, this time collecting each candidate's reason. */
	for (int i = 0; i < nc && i < 2; i++) {
		xqi_diagnostic_init(&why[i]);
		tried[i] = 0;
		if (destination(cand[i], side, type, dir, target, &tried[i], &why[i]) == 0)
			xqi_move_check(b, tried[i], &why[i]);
	}
	xqi_sq_name(cand[0], a);
	if (nc == 1) {
		if (tried[0]) {
			xqi_sq_name(XQI_MOVE_TO(tried[0]), c);
			return ILLEGAL(d, "the %s %s on %s cannot move %s (to %s): %s", side_names[side],
				       type_names[type], a, act, c, why[0].msg);
		}
		return ILLEGAL(d, "the %s %s on %s cannot move %s: %s", side_names[side],
			       type_names[type], a, act, why[0].msg);
	}
	if (file)
		snprintf(scope, sizeof(scope), "on file %d", file);
	else
		snprintf(scope, sizeof(scope), "so named");
	xqi_sq_name(cand[1], e);
	return ILLEGAL(d, "none of the %s %ss %s can move %s: on %s, %s; on %s, %s", side_names[side],
		       type_names[type], scope, act, a, why[0].msg, e, why[1].msg);
}

/* `in_check`: whether the side to move in `b` is in check, -1 if not known. */
static int resolve_desc(xqi_move *out, struct xqi_position *b, const struct xqi_move_request *r,
			int in_check, struct xq_diagnostic *d)
{
	int side = b->side, type = r->piece, nc = 0, rc;
	xqi_sq cand[5], on[5];

	if (type < 0 || type >= XQI_PIECE_TYPES)
		return NOTFOUND(d, "the move does not say which piece moves");
	if (r->file >= 1 && r->file <= 9) {
		int col = col_of_file(side, r->file);
		int k = on_column(b, side, type, col, on);
		if (k == 0)
			return NOTFOUND(d, "there is no %s %s on file %d (column %c)", side_names[side],
					type_names[type], r->file, 'a' + col);
		if (r->position == XQI_TANDEM_NONE) {
			if (r->dialect == XQ_DIALECT_WXF && type == XQI_PAWN && (k == 3 || k == 5)) {
				/* WXF: the middle of three or five pawns keeps its file digit. */
				cand[nc++] = on[k / 2];
			} else {
				for (int i = 0; i < k; i++)
					cand[nc++] = on[i];
			}
		} else {
			int idx;
			if (k < 2)
				return NOTFOUND(d, "%s needs two or more %s %ss on file %d, and there is one",
						tandem_name(r->position), side_names[side],
						type_names[type], r->file);
			if ((rc = pick(r->position, on, k, &idx, side, type, d)))
				return rc;
			cand[nc++] = on[idx];
		}
	} else if (r->position != XQI_TANDEM_NONE) {
		/* No file: look on every file with two or more, from the mover's right. */
		int total = 0, files = 0;
		struct xq_diagnostic first;
		int first_rc = 0;

		xqi_diagnostic_init(&first);
		for (int n = 1; n <= 9; n++) {
			int k = on_column(b, side, type, col_of_file(side, n), on), idx;
			if (k < 2)
				continue;
			files++;
			if (r->position >= 1 && r->position <= 5) {
				if (r->position > total && r->position <= total + k)
					cand[nc++] = on[r->position - total - 1];
				total += k;
				continue;
			}
			rc = pick(r->position, on, k, &idx, side, type, &first);
			if (rc) {
				if (!first_rc)
					first_rc = rc;
				if (rc == XQ_EAMBIGUOUS)
					return fail(d, rc, first.code, "%s", first.msg);
				continue;
			}
			cand[nc++] = on[idx];
		}
		if (files == 0)
			return NOTFOUND(d, "no file holds two or more %s %ss, so %s names none",
					side_names[side], type_names[type], tandem_name(r->position));
		if (nc == 0) {
			if (first_rc)
				return fail(d, first_rc, first.code, "%s", first.msg);
			return NOTFOUND(d, "%s names a %s that is not there: the files with several "
					   "hold %d",
					tandem_name(r->position), type_names[type], total);
		}
	} else {
		return NOTFOUND(d, "the move gives neither the file nor the place of the piece");
	}
	return settle(out, b, type, cand, nc, r->direction, r->target,
		      r->file >= 1 && r->file <= 9 ? r->file : 0, in_check, d);
}

static int resolve_coord(xqi_move *out, struct xqi_position *b, const struct xqi_move_request *r,
			 int in_check, struct xq_diagnostic *d)
{
	xqi_move m = XQI_MOVE(r->from, r->to);
	struct xq_diagnostic why;
	int id;
	char f[3], t[3];

	if (!xqi_on_board(r->from) || !xqi_on_board(r->to))
		return NOTFOUND(d, "square off the board");
	id = b->sq[r->from];
	if (id && xqi_move_check_hinted(b, m, in_check, NULL) == 0) {
		*out = m;
		return 0;
	}
	xqi_sq_name(r->from, f);
	xqi_sq_name(r->to, t);
	if (!id)
		return NOTFOUND(d, "there is no piece on %s", f);
	xqi_diagnostic_init(&why); /* only now: the reason is wanted on the error path alone */
	xqi_move_check(b, m, &why);
	if (XQI_ID_SIDE(id) != b->side)
		return ILLEGAL(d, "%s", why.msg);
	return ILLEGAL(d, "the %s %s on %s cannot move to %s: %s", side_names[b->side],
		       type_names[XQI_KIND_TYPE(xqi_kind_of_id[id])], f, t, why.msg);
}

static int resolve_san(xqi_move *out, struct xqi_position *b, const struct xqi_move_request *r,
		       struct xq_diagnostic *d)
{
	int side = b->side, type = r->piece, base, nc = 0, nl = 0;
	xqi_sq cand[5];
	xqi_move legal[5];
	struct xq_diagnostic why;
	char t[3], a[3], e[3];

	if (type < 0 || type >= XQI_PIECE_TYPES || !xqi_on_board(r->to))
		return NOTFOUND(d, "the move does not name a piece and a square");
	xqi_sq_name(r->to, t);
	if (r->capture && !b->sq[r->to])
		return ILLEGAL(d, "the move captures on %s, but %s is empty", t, t);
	base = XQI_SIDE_TAG(side) + xqi_first_slot[type];
	for (int i = 0; i < xqi_slot_count[type]; i++) {
		xqi_sq s = b->pc[base + i];
		if (!s || (r->from_file >= 0 && XQI_SQ_FILE(s) != r->from_file) ||
		    (r->from_rank >= 0 && XQI_SQ_RANK(s) != r->from_rank))
			continue;
		cand[nc++] = s;
		if (xqi_move_check(b, XQI_MOVE(s, r->to), NULL) == 0)
			legal[nl++] = XQI_MOVE(s, r->to);
	}
	if (nl == 1) {
		*out = legal[0];
		return 0;
	}
	if (nl > 1) {
		xqi_sq_name(XQI_MOVE_FROM(legal[0]), a);
		xqi_sq_name(XQI_MOVE_FROM(legal[1]), e);
		return AMBIGUOUS(d, "ambiguous: the %s %ss on %s and %s can both move to %s",
				 side_names[side], type_names[type], a, e, t);
	}
	if (nc == 0) {
		char hint[4] = "", *h = hint;
		if (r->from_file >= 0)
			*h++ = (char)('a' + r->from_file);
		if (r->from_rank >= 0)
			*h++ = (char)('0' + r->from_rank);
		*h = '\0';
		return NOTFOUND(d, "there is no %s %s%s%s", side_names[side], type_names[type],
				hint[0] ? " on " : "", hint);
	}
	xqi_diagnostic_init(&why);
	xqi_move_check(b, XQI_MOVE(cand[0], r->to), &why);
	xqi_sq_name(cand[0], a);
	if (nc == 1)
		return ILLEGAL(d, "the %s %s on %s cannot move to %s: %s", side_names[side],
			       type_names[type], a, t, why.msg);
	{
		struct xq_diagnostic why2;
		xqi_diagnostic_init(&why2);
		xqi_move_check(b, XQI_MOVE(cand[1], r->to), &why2);
		xqi_sq_name(cand[1], e);
		return ILLEGAL(d, "no %s %s can move to %s: from %s, %s; from %s, %s", side_names[side],
			       type_names[type], t, a, why.msg, e, why2.msg);
	}
}

static int resolve_hinted(xqi_move *out, struct xqi_position *b, const struct xqi_move_request *req,
			  int in_check, struct xq_diagnostic *d)
{
	switch (req->dialect) {
	case XQ_DIALECT_ICCS:
	case XQ_DIALECT_UCI:
	case XQ_DIALECT_UCI1:
		return resolve_coord(out, b, req, in_check, d);
	case XQ_DIALECT_WXF:
	case XQ_DIALECT_CHINESE:
		return resolve_desc(out, b, req, in_check, d);
	case XQ_DIALECT_SAN:
		return resolve_san(out, b, req, d);
	case XQ_DIALECT_AUTO:
		break;
	}
	return NOTFOUND(d, "the move request has no dialect");
}

int xqi_notation_resolve(xqi_move *out, struct xqi_position *b, const struct xqi_move_request *req,
			struct xq_diagnostic *d)
{
	return resolve_hinted(out, b, req, -1, d);
}

/*
 * The common case of reading, without building a token: coordinates
 * written as four ASCII bytes (h2e2) or five with a dash (h2-e2) in a game
 * read as ICCS or UCI (ranks 0-9).  parse_coord makes the same request of
 * such text (from and to; the rest as req_init leaves it): returns 1 with
 * the move, or 0 for any other text (rank 10, another dialect, a
 * mistake), which takes the general path, where what is wrong is said.
 */
static int quick_coord(xqi_move *m, const char *s, size_t len, enum xq_dialect dialect)
{
	size_t j;
	int f0, r0, f1, r1;

	if (dialect != XQ_DIALECT_ICCS && dialect != XQ_DIALECT_UCI)
		return 0;
	if (len == 4)
		j = 2;
	else if (len == 5 && s[2] == '-')
		j = 3;
	else
		return 0;
	f0 = xq_to_lower((unsigned char)s[0]) - 'a';
	r0 = (unsigned char)s[1] - '0';
	f1 = xq_to_lower((unsigned char)s[j]) - 'a';
	r1 = (unsigned char)s[j + 1] - '0';
	if ((unsigned)f0 > 8 || (unsigned)r0 > 9 || (unsigned)f1 > 8 || (unsigned)r1 > 9)
		return 0;
	*m = XQI_MOVE(XQI_SQ(f0, r0), XQI_SQ(f1, r1));
	return 1;
}

int xqi_notation_read(xqi_move *out, struct xqi_position *b, const char *text, size_t len,
		     enum xq_dialect dialect, struct xq_diagnostic *d)
{
	return xqi_notation_read_hinted(out, b, text, len, dialect, -1, d);
}

int xqi_notation_read_hinted(xqi_move *out, struct xqi_position *b, const char *text, size_t len,
			    enum xq_dialect dialect, int in_check, struct xq_diagnostic *d)
{
	struct xqi_move_request r;
	xqi_move m;
	int rc;

	/* A legal move in plain coordinates is what resolve_coord() would
	 * find for it (both squares are on the board); anything else goes
	 * the whole way, to be explained. */
	if (quick_coord(&m, text, len, dialect) && b->sq[XQI_MOVE_FROM(m)] &&
	    xqi_move_check_hinted(b, m, in_check, NULL) == 0) {
		*out = m;
		return 0;
	}
	/* Chinese read from its bytes: a legal move is what the general path
	 * finds for the same request; anything else goes the whole way. */
	if (dialect == XQ_DIALECT_CHINESE && quick_chinese(&r, text, len) &&
	    resolve_desc(&m, b, &r, in_check, NULL) == 0) {
		*out = m;
		return 0;
	}
	rc = xqi_notation_parse(&r, text, len, dialect, d);
	if (rc == 0)
		rc = resolve_hinted(out, b, &r, in_check, d);
	if (rc)
		xqi_diagnostic_set_move(d, text, len);
	return rc;
}

/* ---- writing -------------------------------------------------------------- */

/* A move as descriptive notation sees it. */
struct desc {
	int type, side;
	int file;    /* the piece's file, 1-9 from the mover's right */
	char dir;    /* '+', '-', '.' */
	int target;  /* steps or file */
	int count;   /* pieces of the type on the file, the mover included */
	int index;   /* the mover's place among them, 0 = front */
	int files;   /* files holding two or more of the type */
	int across;  /* the mover's place among all those, files from the right */
};

static void describe(struct xqi_position *b, xqi_move m, struct desc *ds)
{
	xqi_sq from = XQI_MOVE_FROM(m), to = XQI_MOVE_TO(m);
	int id = b->sq[from], side = XQI_ID_SIDE(id), type = XQI_KIND_TYPE(xqi_kind_of_id[id]);
	int col = XQI_SQ_FILE(from), tcol = XQI_SQ_FILE(to);
	int dr = advance(side, XQI_SQ_RANK(to)) - advance(side, XQI_SQ_RANK(from));
	xqi_sq on[5];

	ds->type = type;
	ds->side = side;
	ds->file = file_of_col(side, col);
	if (diagonal_mover(type)) {
		ds->dir = dr > 0 ? '+' : '-';
		ds->target = file_of_col(side, tcol);
	} else if (tcol != col) {
		ds->dir = '.';
		ds->target = file_of_col(side, tcol);
	} else {
		ds->dir = dr > 0 ? '+' : '-';
		ds->target = dr > 0 ? dr : -dr;
	}
	ds->count = on_column(b, side, type, col, on);
	ds->index = 0;
	while (ds->index < ds->count - 1 && on[ds->index] != from)
		ds->index++;
	ds->files = 0;
	ds->across = 0;
	if (type == XQI_PAWN && ds->count > 1) {
		/* Pawns per file in one pass; the files with two or more count. */
		int per[9] = {0}, base = XQI_SIDE_TAG(side) + xqi_first_slot[XQI_PAWN];
		for (int i = 0; i < xqi_slot_count[XQI_PAWN]; i++)
			if (b->pc[base + i])
				per[XQI_SQ_FILE(b->pc[base + i])]++;
		for (int c = 0; c < 9; c++) {
			if (per[c] < 2)
				continue;
			ds->files++;
			if (file_of_col(side, c) < ds->file)
				ds->across += per[c];
		}
		ds->across += ds->index;
	} else if (type != XQI_PAWN && ds->count > 1) {
		ds->files = 1;
		ds->across = ds->index;
		if (type == XQI_ADVISOR || type == XQI_ELEPHANT) {
			/* They never need a qualifier when the direction decides, which it
			 * always does in a real game; placed freely, check the twin. */
			xqi_move twin;
			if (destination(on[1 - ds->index], side, type, ds->dir, ds->target, &twin,
					NULL) != 0 ||
			    xqi_move_check(b, twin, NULL) != 0) {
				ds->count = 1;
				ds->files = 0;
				ds->index = 0;
			}
		}
	}
}

/* A bounded writer into a local buffer; `full` records an overflow. */
struct out {
	char *p, *end;
	int full;
};

static void put(struct out *o, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(o->end - o->p) <= n) {
		o->full = 1;
		return;
	}
	memcpy(o->p, s, n);
	o->p += n;
}

static void putc1(struct out *o, char c)
{
	char s[2] = {c, '\0'};

	put(o, s);
}

static void write_wxf(struct out *o, const struct desc *ds)
{
	static const char letters[] = "KAEHRCP";
	char letter = letters[ds->type];
	char digit = (char)('0' + ds->file);

	if (ds->type != XQI_PAWN) {
		putc1(o, letter);
		putc1(o, ds->count > 1 ? (ds->index == 0 ? '+' : '-') : digit);
	} else if (ds->count == 1) {
		putc1(o, letter);
		putc1(o, digit);
	} else if (ds->files >= 2) {
		/* Pawns on two files: the file, then + (front) - (rear) or the file (middle). */
		putc1(o, digit);
		putc1(o, ds->index == 0 ? '+' : ds->index == ds->count - 1 ? '-' : digit);
	} else {
		int k = ds->count, i = ds->index;
		if (k >= 4 && i == 0)
			put(o, "++");
		else if (k >= 4 && i == k - 1)
			put(o, "--");
		else if ((k <= 3 && i == 0) || (k >= 4 && i == 1))
			put(o, "P+");
		else if ((k <= 3 && i == k - 1) || (k >= 4 && i == k - 2))
			put(o, "P-");
		else /* the middle of three or five keeps its file */
			put(o, (const char[]){letter, digit, '\0'});
	}
	putc1(o, ds->dir);
	putc1(o, (char)('0' + ds->target));
}

static const char *const zh_pieces[2][2][XQI_PIECE_TYPES] = {
	{{"帅", "仕", "相", "马", "车", "炮", "兵"}, {"将", "士", "象", "马", "车", "炮", "卒"}},
	{{"帥", "仕", "相", "馬", "車", "炮", "兵"}, {"將", "士", "象", "馬", "車", "炮", "卒"}},
};
static const char *const zh_numerals[10] = {"", "一", "二", "三", "四", "五", "六", "七", "八", "九"};
static const char *const zh_fullwidth[10] = {"", "１", "２", "３", "４", "５", "６", "７", "８", "９"};
static const char *const zh_ascii[10] = {"", "1", "2", "3", "4", "5", "6", "7", "8", "9"};

static void write_chinese(struct out *o, const struct desc *ds, unsigned flags)
{
	int trad = (flags & XQ_DIALECT_TRADITIONAL) != 0;
	const char *const *digits = ds->side == XQI_RED ? zh_numerals
				    : flags & XQ_DIALECT_ASCII_DIGITS ? zh_ascii
								       : zh_fullwidth;
	const char *piece = zh_pieces[trad][ds->side][ds->type];
	const char *front = "前", *middle = "中", *rear = trad ? "後" : "后";
	int k = ds->count, i = ds->index;

	if (k == 1) {
		put(o, piece);
		put(o, digits[ds->file]);
	} else if (ds->type != XQI_PAWN) {
		put(o, i == 0 ? front : rear);
		put(o, piece);
	} else if (flags & XQ_DIALECT_DPXQ_PAWNS) {
		const char *q = i == 0 ? front : k == 2 || (k == 3 && i == 2) ? rear
					     : k == 3			       ? middle
									       : zh_numerals[i + 1];
		put(o, q);
		if (ds->files >= 2)
			put(o, digits[ds->file]); /* 前九平八: the file, the piece left out */
		else
			put(o, piece);
	} else {
		if (ds->files >= 2 || k >= 4)
			put(o, zh_numerals[ds->across + 1]);
		else
			put(o, i == 0 ? front : i == k - 1 ? rear : middle);
		put(o, piece);
	}
	put(o, ds->dir == '+' ? (trad ? "進" : "进") : ds->dir == '-' ? "退" : "平");
	put(o, digits[ds->target]);
}

size_t xqi_notation_write(char *out, size_t cap, struct xqi_position *b, xqi_move m,
			 enum xq_dialect dialect, unsigned flags)
{
	char buf[XQ_MOVE_TEXT_SIZE];
	struct out o = {buf, buf + sizeof(buf), 0};
	xqi_sq from = XQI_MOVE_FROM(m), to = XQI_MOVE_TO(m);
	size_t n;

	if (cap > 0)
		out[0] = '\0';
	if (dialect == XQ_DIALECT_AUTO || dialect == XQ_DIALECT_SAN || dialect > XQ_DIALECT_SAN)
		return 0;
	if (flags & XQI_DIALECT_KNOWN_LEGAL) {
		/* Trusted: only what keeps describe() inside its tables. */
		int id = xqi_on_board(from) && xqi_on_board(to) ? b->sq[from] : 0;
		if (!id || XQI_ID_SIDE(id) != b->side || from == to ||
		    (b->sq[to] && XQI_ID_SIDE(b->sq[to]) == b->side))
			return 0;
	} else if (xqi_move_check(b, m, NULL) != 0) {
		return 0;
	}
	switch (dialect) {
	case XQ_DIALECT_ICCS:
	case XQ_DIALECT_UCI:
	case XQ_DIALECT_UCI1: {
		/* Direct: 4 to 7 bytes always fit. */
		char base = dialect == XQ_DIALECT_ICCS && (flags & XQ_DIALECT_UPPER) ? 'A' : 'a';
		int one = dialect == XQ_DIALECT_UCI1;
		char *p = o.p;
		for (int k = 0; k < 2; k++) {
			xqi_sq s = k ? to : from;
			int r = XQI_SQ_RANK(s) + one;
			if (k && dialect == XQ_DIALECT_ICCS && (flags & XQ_DIALECT_DASH))
				*p++ = '-';
			*p++ = (char)(base + XQI_SQ_FILE(s));
			if (r == 10) {
				*p++ = '1';
				*p++ = '0';
			} else {
				*p++ = (char)('0' + r);
			}
		}
		o.p = p;
		break;
	}
	case XQ_DIALECT_WXF:
	case XQ_DIALECT_CHINESE: {
		struct desc ds;
		describe(b, m, &ds);
		if (dialect == XQ_DIALECT_WXF)
			write_wxf(&o, &ds);
		else
			write_chinese(&o, &ds, flags);
		break;
	}
	default:
		return 0;
	}
	n = (size_t)(o.p - buf);
	if (o.full || n + 1 > cap)
		return 0;
	memcpy(out, buf, n);
	out[n] = '\0';
	return n;
}

/* ---- names ---------------------------------------------------------------- */

static const char *const notation_names[] = {
	[XQ_DIALECT_AUTO] = "auto", [XQ_DIALECT_ICCS] = "iccs",
	[XQ_DIALECT_UCI] = "uci",   [XQ_DIALECT_UCI1] = "uci1",
	[XQ_DIALECT_WXF] = "wxf",   [XQ_DIALECT_CHINESE] = "chinese",
	[XQ_DIALECT_SAN] = "san",
};

const char *xqi_notation_name(enum xq_dialect n)
{
	if ((unsigned)n < sizeof(notation_names) / sizeof(notation_names[0]))
		return notation_names[n];
	return "unknown";
}

int xqi_notation_from_name(const char *name, enum xq_dialect *out)
{
	for (size_t i = 0; i < sizeof(notation_names) / sizeof(notation_names[0]); i++)
		if (strcmp(name, notation_names[i]) == 0) {
			*out = (enum xq_dialect)i;
			return 0;
		}
	return XQ_ENOTFOUND;
}
