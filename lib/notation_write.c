/*
 * notation_write.c: move text written in each dialect (see notation.c for
 * how moves are read and described, notation_int.h for what both share):
 * coordinates are direct; WXF and Chinese spell one description of the
 * move (file, direction, target, and the piece's place among its tandem
 * twins) with their own tandem rules.  Nothing allocates; a write is a
 * legality check (skipped when the caller vouches for the move) plus a walk
 * over at most five pieces.  And the dialects' names.
 */
#include "notation.h"
#include "notation_int.h"

#include <stdio.h>
#include <string.h>

#include "movegen.h"
#include "utf8.h"

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
	ds->count = xqi_notation_on_column(b, side, type, col, on);
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
			if (xqi_notation_destination(on[1 - ds->index], side, type, ds->dir, ds->target, &twin,
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
