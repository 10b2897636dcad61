/*
 * notation.c: move text in every dialect (ICCS, UCI, UCI1, WXF, Chinese,
 * XBoard SAN), read in two phases and written exactly.  This file holds
 * the first phase of reading, the grammars; notation_board.c the second,
 * on the board, and reading as a whole; notation_write.c the writing
 * (notation_int.h says what they share).
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
 * without ever picking between two legal readings.  The commonest texts
 * (four ASCII coordinates, four Chinese characters) are read from their
 * bytes, and what the quick way does not read goes the whole way, where
 * what is wrong is said.
 *
 * Writing.  Coordinates are direct.  WXF and Chinese share one
 * description of the move (file, direction, target, and the piece's place
 * among its tandem twins), computed from the piece lists without
 * generating moves, and each dialect spells it with its own tandem rules.
 */
#include "notation.h"
#include "notation_int.h"

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
int xqi_notation_quick_chinese(struct xqi_move_request *r, const char *text, size_t len)
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
