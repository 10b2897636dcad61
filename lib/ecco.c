/*
 * ecco.c: the ECCO classification of openings (ecco.h), as a rule table
 * that a small engine walks.
 *
 * Where the rules come from.  The codes and names are those of the xqbase
 * "Encyclopedia of Chinese Chess Openings" (象棋百科全书, www.xqbase.com);
 * the decisions that lead from a game's first 20 plies to a code are the
 * ones of the classifier published in JavaScript by the vschess project
 * (github.com/FastLight126/vschess, vschess/develop/module/
 * function.wxfToEcco.js, LGPL), which is what the reference codes of our
 * test fixture come from.  We read it to learn the rules and wrote the
 * rules (ecco_rules.txt) and the engine below ourselves; no code of it is
 * copied.  Where that classifier gives an answer through an accident of
 * its control flow rather than a rule of openings, a rule reproduces the
 * answer (so that the two agree on every game) and says so in a comment.
 *
 * How the classification reads a game.  The moves are written in WXF as
 * the reference writes them: piece letter (K A B N R C P), the file it
 * leaves counted 1-9 from its owner's right (or, for two like pieces on
 * one file, a tandem mark that no rule mentions), then `+` forward, `-`
 * back or `.` across, then the file it goes to (advisors, elephants,
 * horses, and any piece moving across) or the number of ranks it moves.
 * When Red's first move starts on Red's left half (files 6-9) the whole
 * game is read turned left for right, so 炮八平五 and 炮二平五 openings
 * share their codes.  Plies past the 20th are never read; plies the game
 * does not have match nothing.
 *
 * The rules.  They are data: lib/ecco_rules.txt, one rule per line, its
 * top says how a rule is written.  tools/genecco.c turns them into the
 * `const` tables below when xqkit is built (the file ecco_rules.inc it
 * writes is included here).  Each rule is a node, one question about the
 * plies (the move at a ply, a run of plies, a side's moves in any order,
 * a scan over a side's moves that remembers some) whose answers lead to
 * another node or to a code; the engine below walks them from the first,
 * with no state outside the call.
 *
 * xqi_ecco_check() proves the table well formed; test_ecco runs it and
 * checks every opening of a 2,538-game fixture against the reference.
 */
#include "ecco.h"

#include <string.h>

#include "diagnostic.h"
#include "record.h"
#include "utf8.h"

/* ---- the names ------------------------------------------------------------ */

enum ecco_name {
#define ECCO(code, opening, variation) ECCO_##code,
#include "ecco_names.def"
#undef ECCO
	ECCO_NAMED
};

static const struct xqi_ecco names[ECCO_NAMED] = {
#define ECCO(code, opening, variation) {#code, opening, variation},
#include "ecco_names.def"
#undef ECCO
};

/* Not from the start position: the reference's answer, not a named code. */
static const struct xqi_ecco endgame = {"A00", "残局", ""};

/* ---- the rule table ------------------------------------------------------- */

enum op { OP_SWITCH = 1, OP_SEQ, OP_SAME, OP_ALL, OP_SEEN, OP_SCAN };
enum arm_kind { ARM_ON, ARM_MARK, ARM_BOTH };

/* Where a node or an arm leads: NEXT, a node, or a code (TO_CODE + name). */
typedef uint16_t ecco_to;
#define NEXT 0
#define TO_CODE 0x200

struct arm {
	const char *moves; /* WXF, separated by single spaces: any of them */
	ecco_to to;
	uint8_t kind;      /* enum arm_kind */
	const char *other; /* ARM_BOTH: the move that must have been seen too */
};

struct node {
	const char *name;
	uint8_t op;
	uint8_t here;       /* SWITCH, SEQ: `ply` counts from the ply being scanned */
	int8_t ply;         /* SWITCH, SEQ */
	uint8_t side;       /* SAME, ALL, SCAN */
	uint8_t first, last; /* SAME (first), ALL, SCAN: move numbers from 1 */
	const char *moves;  /* SEQ, SAME, ALL, SEEN */
	const struct arm *arms; /* SWITCH, SCAN: ends with an arm whose moves are NULL */
	ecco_to yes, no;    /* tests; SWITCH and SCAN: `no` takes a move no arm takes */
	ecco_to end;        /* SCAN */
};

#define RED 0
#define BLACK 1
#define PLY_OF(side, n) (2 * (n) - 2 + (side)) /* a side's n-th move, as a ply from 0 */

#define GO(label) ((ecco_to)(label))
#define CODE(c) ((ecco_to)(TO_CODE + ECCO_##c))

/* The rules of lib/ecco_rules.txt: enum label (L_<label> for each rule,
 * N_NODES), and rules[] with its arms. */
#include "ecco_rules.inc"

#define ROOT 1 /* the first rule is asked first */

/* ---- moves as WXF --------------------------------------------------------- */

/* Four characters packed, the same way for the game and for the table. */
static uint32_t pack4(const char *s)
{
	return (uint32_t)(unsigned char)s[0] | (uint32_t)(unsigned char)s[1] << 8 |
	       (uint32_t)(unsigned char)s[2] << 16 | (uint32_t)(unsigned char)s[3] << 24;
}

/* Is `m` one of the moves of `list` ("C2.5 N8+7")?  0 (no ply) never is. */
static int list_has(const char *list, uint32_t m)
{
	if (!m)
		return 0;
	for (;; list += 5) {
		if (pack4(list) == m)
			return 1;
		if (list[4] != ' ')
			return 0;
	}
}

static size_t list_count(const char *list)
{
	size_t n = 1;

	for (; *list; list++)
		n += *list == ' ';
	return n;
}

#define KIND(side, type) XQI_KIND(XQI_##side, XQI_##type)
static const uint8_t start_kinds[10][9] = {
	{KIND(RED, ROOK), KIND(RED, HORSE), KIND(RED, ELEPHANT), KIND(RED, ADVISOR),
	 KIND(RED, KING), KIND(RED, ADVISOR), KIND(RED, ELEPHANT), KIND(RED, HORSE),
	 KIND(RED, ROOK)},
	{0},
	{0, KIND(RED, CANNON), 0, 0, 0, 0, 0, KIND(RED, CANNON), 0},
	{KIND(RED, PAWN), 0, KIND(RED, PAWN), 0, KIND(RED, PAWN), 0, KIND(RED, PAWN), 0,
	 KIND(RED, PAWN)},
	{0},
	{0},
	{KIND(BLACK, PAWN), 0, KIND(BLACK, PAWN), 0, KIND(BLACK, PAWN), 0, KIND(BLACK, PAWN), 0,
	 KIND(BLACK, PAWN)},
	{0, KIND(BLACK, CANNON), 0, 0, 0, 0, 0, KIND(BLACK, CANNON), 0},
	{0},
	{KIND(BLACK, ROOK), KIND(BLACK, HORSE), KIND(BLACK, ELEPHANT), KIND(BLACK, ADVISOR),
	 KIND(BLACK, KING), KIND(BLACK, ADVISOR), KIND(BLACK, ELEPHANT), KIND(BLACK, HORSE),
	 KIND(BLACK, ROOK)},
};

/* The standard start, Red to move?  (The reference compares the board and
 * the side of the FEN, not the counters.) */
static int is_start(const struct xqi_position *b)
{
	if (b->side != XQI_RED)
		return 0;
	for (int r = 0; r < 10; r++)
		for (int f = 0; f < 9; f++)
			if (xqi_position_kind(b, XQI_SQ(f, r)) != start_kinds[r][f])
				return 0;
	return 1;
}

/* The pieces, as kinds by rank (0 = Red's back rank) and ICCS file. */
struct kinds {
	uint8_t at[10][9];
};

/*
 * The move from (ff, fr) to (tf, tr) on `b` in the reference's WXF, packed.  `turned`: read the board left for
 * right.  Two like rooks, horses, cannons or pawns on the file the piece
 * leaves get the mark '+' (the front one) or '-' in place of the file,
 * which no rule names; advisors and elephants never do, as in the
 * reference.
 */
static uint32_t wxf_move(const struct kinds *b, int ff, int fr, int tf, int tr, int turned)
{
	static const char letter[] = "KABNRCP";
	uint8_t kind = b->at[fr][ff];
	int side = XQI_KIND_SIDE(kind), type = XQI_KIND_TYPE(kind);
	int from_left = (side == XQI_BLACK) != turned; /* ICCS file a is file 1 */
	int ahead = side == XQI_RED ? tr - fr : fr - tr;
	char s[4];

	s[0] = letter[type];
	s[1] = (char)('0' + (from_left ? ff + 1 : 9 - ff));
	if (type != XQI_ADVISOR && type != XQI_ELEPHANT) {
		for (int r = 0; r < 10; r++) {
			if (r == fr || b->at[r][ff] != kind)
				continue;
			/* Another like piece on this file: is it behind this one? */
			s[1] = (side == XQI_RED ? r < fr : r > fr) ? '+' : '-';
			if (s[1] == '-')
				break;
		}
	}
	if (type == XQI_ADVISOR || type == XQI_ELEPHANT || type == XQI_HORSE || fr == tr) {
		s[2] = fr == tr ? '.' : ahead > 0 ? '+' : '-';
		s[3] = (char)('0' + (from_left ? tf + 1 : 9 - tf));
	} else {
		s[2] = ahead > 0 ? '+' : '-';
		s[3] = (char)('0' + (ahead > 0 ? ahead : -ahead));
	}
	return pack4(s);
}

/* ---- the engine ----------------------------------------------------------- */

#define MAX_MARKS 4
#define MAX_STEPS 1000

struct run {
	uint32_t ply[XQ_ECCO_PLIES]; /* packed WXF; 0 past the end of the game */
	const struct node *scan;     /* the scan under way, or NULL */
	int at;                      /* the ply it looks at */
	uint32_t seen[MAX_MARKS];    /* the moves it remembered */
	int nseen;
};

static uint32_t ply_at(const struct run *r, int p)
{
	return p >= 0 && p < XQ_ECCO_PLIES ? r->ply[p] : 0;
}

static int was_seen(const struct run *r, uint32_t m)
{
	for (int i = 0; i < r->nseen; i++)
		if (r->seen[i] == m)
			return 1;
	return 0;
}

static const struct arm *arm_for(const struct arm *a, uint32_t m)
{
	for (; a->moves; a++)
		if (list_has(a->moves, m))
			return a;
	return NULL;
}

/* The scan takes the move at r->at, or ends. */
static ecco_to scan_step(struct run *r)
{
	const struct node *s = r->scan;
	const struct arm *a;
	uint32_t m;

	if (r->at > PLY_OF(s->side, s->last))
		return s->end;
	m = r->ply[r->at];
	a = arm_for(s->arms, m);
	if (!a)
		return s->no;
	if (a->kind == ARM_ON)
		return a->to;
	if (!was_seen(r, m) && r->nseen < MAX_MARKS)
		r->seen[r->nseen++] = m;
	if (a->kind == ARM_BOTH && was_seen(r, pack4(a->other)))
		return a->to;
	return NEXT;
}

static int seq_matches(const struct run *r, int p, const char *moves)
{
	for (;; moves += 5, p++) {
		if (ply_at(r, p) != pack4(moves))
			return 0;
		if (moves[4] != ' ')
			return 1;
	}
}

/* One side's moves from its n-th on are `moves`, in any order. */
static int same_moves(const struct run *r, int side, int n, const char *moves)
{
	uint32_t want[XQ_ECCO_PLIES];
	size_t count = 0;

	for (const char *s = moves;; s += 5) {
		want[count++] = pack4(s);
		if (s[4] != ' ' || count == XQ_ECCO_PLIES)
			break;
	}
	for (size_t i = 0; i < count; i++) {
		uint32_t m = ply_at(r, PLY_OF(side, n + (int)i));
		size_t j = 0;
		while (j < count && (!m || want[j] != m))
			j++;
		if (j == count)
			return 0;
		want[j] = 0; /* each listed move answers one ply */
	}
	return 1;
}

static int all_moves(const struct run *r, int side, int a, int b, const char *moves)
{
	for (int n = a; n <= b; n++)
		if (!list_has(moves, ply_at(r, PLY_OF(side, n))))
			return 0;
	return 1;
}

/* Walk the table from the root; the name's index, or -1 if the table is
 * broken (a NEXT with no scan, a link out of range, a loop). */
static int walk(struct run *r)
{
	ecco_to to = ROOT;

	for (int steps = 0; steps < MAX_STEPS; steps++) {
		const struct node *nd;
		int base;

		if (to >= TO_CODE)
			return to - TO_CODE < ECCO_NAMED ? to - TO_CODE : -1;
		if (to == NEXT) {
			if (!r->scan)
				return -1;
			r->at += 2;
			to = scan_step(r);
			continue;
		}
		if (to >= N_NODES)
			return -1;
		nd = &rules[to];
		base = nd->here ? r->at + nd->ply : nd->ply;
		switch (nd->op) {
		case OP_SWITCH: {
			const struct arm *a = arm_for(nd->arms, ply_at(r, base));
			to = a ? a->to : nd->no;
			break;
		}
		case OP_SEQ:
			to = seq_matches(r, base, nd->moves) ? nd->yes : nd->no;
			break;
		case OP_SAME:
			to = same_moves(r, nd->side, nd->first, nd->moves) ? nd->yes : nd->no;
			break;
		case OP_ALL:
			to = all_moves(r, nd->side, nd->first, nd->last, nd->moves) ? nd->yes : nd->no;
			break;
		case OP_SEEN:
			to = was_seen(r, pack4(nd->moves)) ? nd->yes : nd->no;
			break;
		case OP_SCAN:
			r->scan = nd;
			r->at = PLY_OF(nd->side, nd->first);
			r->nseen = 0;
			to = scan_step(r);
			break;
		default:
			return -1;
		}
	}
	return -1;
}

/* ---- classification ------------------------------------------------------- */

int xqi_ecco_classify(const struct xqi_ecco **out, const struct xqi_position *start,
		     const xqi_move *moves, size_t n, struct xq_diagnostic *d)
{
	struct kinds b;
	struct run r;
	int turned, side = XQI_RED, code;

	if (!is_start(start)) {
		*out = &endgame;
		return 0;
	}
	if (n > XQ_ECCO_PLIES)
		n = XQ_ECCO_PLIES;
	memcpy(b.at, start_kinds, sizeof(b.at));
	memset(&r, 0, sizeof(r));
	/* Red's first move from files 6-9 (ICCS a-d): read the game turned. */
	turned = n > 0 && XQI_SQ_FILE(XQI_MOVE_FROM(moves[0])) < 4;
	for (size_t i = 0; i < n; i++) {
		xqi_sq from = XQI_MOVE_FROM(moves[i]), to = XQI_MOVE_TO(moves[i]);
		int ff = XQI_SQ_FILE(from), fr = XQI_SQ_RANK(from);
		int tf = XQI_SQ_FILE(to), tr = XQI_SQ_RANK(to);

		if (!xqi_on_board(from) || !xqi_on_board(to) || from == to || !b.at[fr][ff] ||
		    XQI_KIND_SIDE(b.at[fr][ff]) != side ||
		    (b.at[tr][tf] && XQI_KIND_SIDE(b.at[tr][tf]) == side)) {
			char text[5];
			if (d) {
				xqi_move_name(moves[i], text);
				d->ply = (uint32_t)i + 1;
				xqi_diagnostic_set_move(d, text, strlen(text));
			}
			return xqi_diagnostic_set(d, XQ_EILLEGAL, XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_ERROR,
					   "ply %zu does not move a %s piece to a square %s does "
					   "not hold",
					   i + 1, side == XQI_RED ? "red" : "black",
					   side == XQI_RED ? "red" : "black");
		}
		r.ply[i] = wxf_move(&b, ff, fr, tf, tr, turned);
		b.at[tr][tf] = b.at[fr][ff];
		b.at[fr][ff] = 0;
		side ^= 1;
	}
	code = walk(&r);
	if (code < 0)
		return xqi_diagnostic_set(d, XQ_EINTERNAL, XQI_D_INTERNAL, XQ_SEVERITY_ERROR,
				   "the ECCO rule table is broken (see xqi_ecco_check)");
	*out = &names[code];
	return 0;
}

int xqi_ecco_classify_game(const struct xqi_ecco **out, const struct xqi_record *g,
			  struct xq_diagnostic *d)
{
	xqi_move moves[XQ_ECCO_PLIES];
	size_t n = 0;

	for (uint32_t i = g->nnodes ? g->nodes[XQI_ROOT].child : XQ_NO_NODE;
	     i != XQ_NO_NODE && n < XQ_ECCO_PLIES; i = g->nodes[i].child)
		moves[n++] = g->nodes[i].move;
	return xqi_ecco_classify(out, &g->start, moves, n, d);
}

/* ---- names and codes ------------------------------------------------------ */

int xqi_ecco_index(const char *code, size_t len)
{
	if (len != 3 || code[0] < 'A' || code[0] > 'E' || !xq_is_digit(code[1]) ||
	    !xq_is_digit(code[2]))
		return -1;
	return (code[0] - 'A') * 100 + (code[1] - '0') * 10 + (code[2] - '0');
}

const struct xqi_ecco *xqi_ecco_lookup(const char *code, size_t len)
{
	size_t lo = 0, hi = ECCO_NAMED;

	if (xqi_ecco_index(code, len) < 0)
		return NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = memcmp(code, names[mid].code, 3);
		if (c == 0)
			return &names[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

const struct xqi_ecco *xqi_ecco_names(size_t *count)
{
	*count = ECCO_NAMED;
	return names;
}

/* ---- code sets ------------------------------------------------------------ */

static int set_error(struct xq_diagnostic *d, const char *text, size_t pos, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

static int set_error(struct xq_diagnostic *d, const char *text, size_t pos, const char *fmt, ...)
{
	va_list ap;

	if (!d)
		return XQ_EPARSE;
	d->place.offset = pos;
	d->has_offset = 1;
	d->place.col = (uint64_t)xq_utf8_count(text, pos) + 1;
	va_start(ap, fmt);
	xqi_diagnostic_vset(d, XQ_EPARSE, XQI_D_SYNTAX, XQ_SEVERITY_ERROR, fmt, ap);
	va_end(ap);
	return XQ_EPARSE;
}

/* What is at text[pos], for a message: 'x', "a space", "the end". */
static const char *found(const char *text, size_t len, size_t pos, char buf[8])
{
	unsigned char c;

	if (pos >= len)
		return "the end";
	c = (unsigned char)text[pos];
	if (c == ' ')
		return "a space";
	if (c < 0x20 || c >= 0x7f)
		return c >= 0x80 ? "a character that is not ASCII" : "a control character";
	buf[0] = '\'';
	buf[1] = (char)c;
	buf[2] = '\'';
	buf[3] = '\0';
	return buf;
}

/*
 * A letter and up to two digits at text[*pos]: the codes it names are
 * lo..hi, `digits` how many digits it had.
 */
static int parse_group(const char *text, size_t len, size_t *pos, int *lo, int *hi, int *digits,
		       struct xq_diagnostic *d)
{
	size_t i = *pos;
	char buf[8];
	int base, n = 0, value = 0;

	if (i >= len || text[i] < 'A' || text[i] > 'E') {
		if (i < len && text[i] >= 'a' && text[i] <= 'e')
			return set_error(d, text, i, "ECCO codes are written in capitals: '%c', not '%c'",
					 xq_to_upper(text[i]), text[i]);
		if (i < len && xq_is_alpha(text[i]))
			return set_error(d, text, i, "ECCO letters run from A to E, not '%c'", text[i]);
		return set_error(d, text, i, "expected an ECCO letter A-E, found %s",
				 found(text, len, i, buf));
	}
	base = (text[i] - 'A') * 100;
	for (i++; i < len && xq_is_digit(text[i]); i++) {
		if (++n > 2)
			return set_error(d, text, i, "an ECCO code has two digits after its letter");
		value = value * 10 + (text[i] - '0');
	}
	*digits = n;
	*lo = base + (n == 0 ? 0 : n == 1 ? value * 10 : value);
	*hi = base + (n == 0 ? 99 : n == 1 ? value * 10 + 9 : value);
	*pos = i;
	return 0;
}

int xqi_ecco_set_parse(struct xqi_ecco_set *out, const char *text, size_t len,
		      struct xq_diagnostic *d)
{
	struct xqi_ecco_set set;
	size_t i = 0;
	char buf[8];

	memset(&set, 0, sizeof(set));
	if (len == 0)
		return set_error(d, text, 0, "expected ECCO codes (like C1 or A00-B99), found nothing");
	for (;;) {
		size_t item = i;
		int lo, hi, digits, rc, range = 0;

		if ((rc = parse_group(text, len, &i, &lo, &hi, &digits, d)) != 0)
			return rc;
		if (i < len && text[i] == '-') {
			size_t second = i + 1;
			int lo2, hi2, digits2;

			if (digits != 2)
				return set_error(d, text, i,
						 "a range joins two full codes (like C10-C19), and "
						 "'%.*s' is a group",
						 (int)(i - item), text + item);
			i = second;
			if ((rc = parse_group(text, len, &i, &lo2, &hi2, &digits2, d)) != 0)
				return rc;
			if (digits2 != 2)
				return set_error(d, text, i,
						 "a range ends with a full code (letter and two "
						 "digits), found %s",
						 found(text, len, i, buf));
			if (lo2 < lo)
				return set_error(d, text, second, "the range %.*s runs backwards",
						 (int)(i - item), text + item);
			hi = hi2;
			range = 1;
		}
		for (int c = lo; c <= hi; c++)
			set.bits[c / 64] |= (uint64_t)1 << (c % 64);
		if (i == len)
			break;
		if (text[i] != ',')
			return set_error(d, text, i, "expected %s after '%.*s', found %s",
					 range	     ? "',' or the end"
					 : digits < 2 ? "a digit, ',' or the end"
						      : "'-', ',' or the end",
					 (int)(i - item), text + item, found(text, len, i, buf));
		if (++i == len)
			return set_error(d, text, i, "expected an ECCO code after ','");
	}
	*out = set;
	return 0;
}

int xqi_ecco_set_has(const struct xqi_ecco_set *set, int index)
{
	if (index < 0 || index >= XQI_ECCO_CODES)
		return 0;
	return (int)(set->bits[index / 64] >> (index % 64) & 1);
}

/* ---- the table's own check ------------------------------------------------ */

struct check {
	struct xq_diagnostic *d;
	uint8_t reached[N_NODES];
	uint8_t done[N_NODES][(N_NODES + 7) / 8]; /* node checked with scan context */
};

static int broken(struct check *c, const struct node *nd, const char *what, const char *detail)
{
	return xqi_diagnostic_set(c->d, XQ_EINTERNAL, XQI_D_INTERNAL, XQ_SEVERITY_ERROR,
			   "ECCO rule %s: %s%s%s", nd ? nd->name : "?", what, detail ? " " : "",
			   detail ? detail : "");
}

/* "R1.2 C8+4": WXF moves, one space between. */
static int moves_ok(const char *s)
{
	if (!s || !*s)
		return 0;
	for (;; s += 5) {
		if (!s[0] || !strchr("KABNRCP", s[0]) || s[1] < '1' || s[1] > '9' || !s[2] ||
		    !strchr("+-.", s[2]) || s[3] < '1' || s[3] > '9')
			return 0;
		if (s[4] == '\0')
			return 1;
		if (s[4] != ' ')
			return 0;
	}
}

static int marks(const struct node *scan, const char *move)
{
	for (const struct arm *a = scan->arms; a->moves; a++)
		if (a->kind != ARM_ON && list_has(a->moves, pack4(move)))
			return 1;
	return 0;
}

static int check_node(struct check *c, unsigned n, unsigned scan, int depth);

static int check_to(struct check *c, const struct node *from, ecco_to to, unsigned scan,
		    int depth)
{
	if (to >= TO_CODE)
		return to - TO_CODE < ECCO_NAMED ? 0 : broken(c, from, "names no code", NULL);
	if (to == NEXT)
		return scan ? 0 : broken(c, from, "goes on with no scan under way", NULL);
	if (to >= N_NODES)
		return broken(c, from, "links to no node", NULL);
	return check_node(c, to, scan, depth + 1);
}

static int check_node(struct check *c, unsigned n, unsigned scan, int depth)
{
	const struct node *nd = &rules[n];
	int rc;

	if (depth > 64)
		return broken(c, nd, "is on a loop", NULL);
	if (c->done[n][scan / 8] & (1u << (scan % 8)))
		return 0;
	c->reached[n] = 1;
	if (!nd->name)
		return broken(c, NULL, "a label has no node", NULL);
	if (nd->here && !scan)
		return broken(c, nd, "looks at the scanned ply outside a scan", NULL);
	switch (nd->op) {
	case OP_SWITCH:
	case OP_SCAN: {
		unsigned inner = nd->op == OP_SCAN ? n : scan;
		int nmarks = 0;

		if (nd->op == OP_SCAN &&
		    (nd->side > 1 || nd->first < 1 || nd->first > nd->last || nd->last > 10))
			return broken(c, nd, "scans moves that do not exist", NULL);
		if (nd->op == OP_SWITCH && !nd->here &&
		    (nd->ply < 0 || nd->ply >= XQ_ECCO_PLIES))
			return broken(c, nd, "looks past the 20th ply", NULL);
		for (const struct arm *a = nd->arms; a->moves; a++) {
			if (!moves_ok(a->moves))
				return broken(c, nd, "has an arm that is not WXF:", a->moves);
			if (a->kind != ARM_ON && nd->op != OP_SCAN)
				return broken(c, nd, "remembers a move outside a scan:", a->moves);
			if (a->kind != ARM_ON && list_count(a->moves) != 1)
				return broken(c, nd, "remembers more than one move at once:", a->moves);
			nmarks += a->kind != ARM_ON;
			if (a->kind == ARM_MARK && a->to != NEXT)
				return broken(c, nd, "decides on a move it only remembers:", a->moves);
			if (a->kind == ARM_BOTH && (!moves_ok(a->other) || !marks(nd, a->other)))
				return broken(c, nd, "waits for a move it never remembers:", a->other);
			if ((rc = check_to(c, nd, a->to, inner, depth)) != 0)
				return rc;
		}
		if (nmarks > MAX_MARKS)
			return broken(c, nd, "remembers too many moves", NULL);
		if ((rc = check_to(c, nd, nd->no, inner, depth)) != 0)
			return rc;
		if (nd->op == OP_SCAN) {
			if (nd->end == NEXT)
				return broken(c, nd, "goes on after its last move", NULL);
			if ((rc = check_to(c, nd, nd->end, inner, depth)) != 0)
				return rc;
		}
		break;
	}
	case OP_SEQ:
	case OP_SAME:
	case OP_ALL:
	case OP_SEEN:
		if (!moves_ok(nd->moves))
			return broken(c, nd, "has moves that are not WXF:", nd->moves);
		if (nd->op == OP_SEQ && !nd->here &&
		    (nd->ply < 0 || nd->ply + (int)list_count(nd->moves) > XQ_ECCO_PLIES))
			return broken(c, nd, "looks past the 20th ply", NULL);
		if (nd->op == OP_SAME &&
		    (nd->side > 1 || nd->first < 1 ||
		     nd->first - 1 + (int)list_count(nd->moves) > 10))
			return broken(c, nd, "looks past the 20th ply", NULL);
		if (nd->op == OP_ALL &&
		    (nd->side > 1 || nd->first < 1 || nd->first > nd->last || nd->last > 10))
			return broken(c, nd, "looks at moves that do not exist", NULL);
		if (nd->op == OP_SEEN &&
		    (!scan || list_count(nd->moves) != 1 || !marks(&rules[scan], nd->moves)))
			return broken(c, nd, "asks for a move its scan does not remember:",
				      nd->moves);
		if ((rc = check_to(c, nd, nd->yes, scan, depth)) != 0 ||
		    (rc = check_to(c, nd, nd->no, scan, depth)) != 0)
			return rc;
		break;
	default:
		return broken(c, nd, "has no known kind", NULL);
	}
	c->done[n][scan / 8] |= (uint8_t)(1u << (scan % 8));
	return 0;
}

int xqi_ecco_check(struct xq_diagnostic *d)
{
	struct check c;
	int rc;

	memset(&c, 0, sizeof(c));
	c.d = d;
	for (size_t i = 1; i < ECCO_NAMED; i++)
		if (memcmp(names[i - 1].code, names[i].code, 4) >= 0)
			return xqi_diagnostic_set(d, XQ_EINTERNAL, XQI_D_INTERNAL, XQ_SEVERITY_ERROR,
					   "ECCO names are not in code order at %s", names[i].code);
	if ((rc = check_node(&c, ROOT, 0, 0)) != 0)
		return rc;
	for (unsigned n = ROOT; n < N_NODES; n++)
		if (!c.reached[n])
			return broken(&c, &rules[n], "cannot be reached", NULL);
	return 0;
}
