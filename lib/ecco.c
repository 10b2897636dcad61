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
 * table and the engine below ourselves; no code of it is copied.  Where
 * that classifier gives an answer through an accident of its control flow
 * rather than a rule of openings, the table reproduces the answer (so
 * that the two agree on every game) and says so in a comment.
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
 * The table.  Each node is one question about those plies; its answer is
 * another node or a code:
 *   SWITCH(ply, ARMS(...), other)  the move at a ply: one arm per move
 *                               (or moves) that decides something, and
 *                               where any other move goes;
 *   IS(ply, moves, yes, no)     the move at a ply is one of these;
 *   SEQ(ply, moves, yes, no)    the plies from there on are these moves;
 *   SAME(side, n, moves, ...)   that side's moves from its n-th on are
 *                               these, in any order;
 *   ALL(side, a, b, moves, ...) every move of that side from its a-th to
 *                               its b-th is one of these;
 *   SCAN(side, a, b, ARMS(...), other, end)
 *                               look at that side's moves from its a-th
 *                               to its b-th in turn: an arm that takes the
 *                               move decides (ON), lets the scan go on
 *                               (PASS), or remembers it and goes on
 *                               (MARK; BOTH: and decides once the other
 *                               move it names was remembered too); a move
 *                               no arm takes goes to `other`, and `end` is
 *                               where the scan goes when its moves run out;
 *   SEEN(move, yes, no)         the scan under way remembered that move;
 *   IS_HERE / SEQ_HERE          as IS and SEQ, at plies counted from the
 *                               one the scan under way is looking at.
 * A node reached from a scan may answer NEXT: the scan goes on.  Plies
 * are written RM(n) and BM(n), Red's and Black's n-th move.
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
#define RM(n) (2 * (n) - 2) /* Red's n-th move, as a ply from 0 */
#define BM(n) (2 * (n) - 1) /* Black's n-th move */
#define PLY_OF(side, n) (2 * (n) - 2 + (side))

#define GO(label) ((ecco_to)(label))
#define CODE(c) ((ecco_to)(TO_CODE + ECCO_##c))

#define ARMS(...) ((const struct arm[]){__VA_ARGS__, {NULL, 0, 0, NULL}})
#define ON(m, to_) {m, to_, ARM_ON, NULL}
#define PASS(m) {m, NEXT, ARM_ON, NULL}
#define MARK(m) {m, NEXT, ARM_MARK, NULL}
#define BOTH(m, o, to_) {m, to_, ARM_BOTH, o}

#define RULE(label, body) [label] = {.name = #label, body}
#define SWITCH(p, arms_, other) .op = OP_SWITCH, .ply = (p), .arms = arms_, .no = other
#define IS(p, m, y, n) SWITCH(p, ARMS(ON(m, y)), n)
#define IS_HERE(off, m, y, n) IS(off, m, y, n), .here = 1
#define SEQ(p, m, y, n) .op = OP_SEQ, .ply = (p), .moves = m, .yes = y, .no = n
#define SEQ_HERE(off, m, y, n) SEQ(off, m, y, n), .here = 1
#define SAME(s, n1, m, y, n) .op = OP_SAME, .side = s, .first = n1, .moves = m, .yes = y, .no = n
#define ALL(s, a, b, m, y, n) \
	.op = OP_ALL, .side = s, .first = a, .last = b, .moves = m, .yes = y, .no = n
#define SEEN(m, y, n) .op = OP_SEEN, .moves = m, .yes = y, .no = n
#define SCAN(s, a, b, arms_, other, at_end) \
	.op = OP_SCAN, .side = s, .first = a, .last = b, .arms = arms_, .no = other, .end = at_end

enum label {
	NO_NODE, /* 0 is NEXT */
	ROOT,
	/* A: 飞相, 起马, 仕角炮, 过宫炮 */
	ELEPHANT, EL_HORSE, EL_CORNER, EL_CROSS, EL_CROSS_HORSE, EL_CROSS_R4, EL_PAWN,
	EL_CENTRAL,
	HORSE, HORSE_PAWN,
	CORNER, CORNER_CENTRAL,
	CROSS, CROSS_CENTRAL, CROSS_R3, CROSS_B23,
	/* B: 中炮 against anything but the screen horses */
	CENTRAL, RIGHT_HORSE, B1_R2, B1_R3, B1_R4, B11_B3, B0_B3,
	SANDWICH, SW_BLACK, SW_RED, SW_R1, SW_R2, SW_OTHER, SW_C86, SW_N87, SW_B41, SW_B42,
	SW_B43, SW_N89,
	B5, B5_BLACK, B54_B5, B55_R8, B5_SCAN,
	LEFT_HORSE, LH_N23, LH_N23_C84, LH_R91, LH_R91_C84, LH_C25, LH_C25_C84, LH_OTHER,
	LH_OTHER_C84, B2, B21_B,
	/* C: 中炮对屏风马 */
	SCREEN, C20_BLACK, C2_R6, C22_B6, C22_R8, C23_R9, C24_R9,
	C30_RED, C30_BLACK, C3_B5, C35_R6, C36_B6, C37_R7, C40_R6, C4_R7, C42_B7, C43_R8,
	C45_B8, C45_B9,
	C61_RED, C61_BLACK, C6_B5, C62_R6, C63_B6,
	C72_RED, C72_BLACK, C72_R7, C73_B7, C74_R8,
	SCREEN_PLAN, SCREEN_OTHER, SCREEN_N87, SCREEN_N89,
	C15_SCAN, C10_SCAN, C60_SCAN, C60_OTHER, C68_SCAN, C17_SCAN, C01_SCAN, C03_SCAN,
	C05_SCAN,
	C9, C9_BLACK, C9_RED, C93_B5, C96_R7,
	C8, C8_BLACK, C85_B5, C86_R6, C86_R7, C8_SCAN, C83_B7, C82_B7, C81_B7,
	C5, C5_BLACK, C52_B5, C53_B6, C55_RED, C55_BLACK, C55_B5, C5_SCAN,
	/* D: 顺炮, 列炮 */
	SAME_CANNONS, D_N23, D_N87, D_N87_B3, D_R12, D_N87_R11, D_N87_B4, D_R91, D_R11,
	D_R11_B3, D1, D2, D2_OTHER, D2_P71, D28_SCAN,
	D3, D3_R5, D4, D41_HERE, D5, D5_OTHER, D5_R98,
	/* E: 仙人指路, 对兵 */
	PAWN, PAWN_ELEPHANT, PAWN_C87, PAWN_C87_C85, E14_R3, E15_B3, E2_R3, E2_N87, E23_R4,
	E24_R6, E24_B7, E30_R4, E30_B4, E31_R5, E3_B5, E33_R6,
	PAWN_N23, PAWN_N23_N23, E4_R3, E08_B2, PAWN_P31, PAWN_P31_N23, E46_B2,
	N_NODES
};

static const struct node rules[N_NODES] = {
	/* Red's first move, on Red's right half (the board is turned if not). */
	RULE(ROOT, SWITCH(RM(1), ARMS(
		ON("B3+5", GO(ELEPHANT)),     /* 飞相局 */
		ON("N2+3", GO(HORSE)),        /* 起马局 */
		ON("C2.4", GO(CORNER)),       /* 仕角炮局 */
		ON("C2.5", GO(CENTRAL)),      /* 中炮 */
		ON("C2.6", GO(CROSS)),        /* 过宫炮局 */
		ON("P3+1", GO(PAWN)),         /* 仙人指路 */
		ON("P1+1", CODE(A08)),        /* 边兵局 */
		ON("C2.7", CODE(A07)),        /* 金钩炮局 */
		ON("C2.3", CODE(A06)),        /* 兵底炮局 */
		ON("C2+4", CODE(A05)),        /* 过河炮局 */
		ON("C2+2", CODE(A04)),        /* 巡河炮局 */
		ON("C2.1", CODE(A03)),        /* 边炮局 */
		ON("N2+1", CODE(A02)),        /* 边马局 */
		ON("A4+5", CODE(A01))),       /* 上仕局 */
		CODE(A00))),                  /* 其他开局 */

	/* ---- A10-A39 飞相局 ---- */
	RULE(ELEPHANT, SWITCH(BM(1), ARMS(
		ON("N2+3", GO(EL_HORSE)),
		ON("C2.4", GO(EL_CORNER)),
		ON("C8.4", GO(EL_CROSS)),
		ON("P7+1", GO(EL_PAWN)),
		ON("C8.5", GO(EL_CENTRAL)),
		ON("P3+1", CODE(A39)),
		ON("C2.6", CODE(A35)),
		ON("C2.5", CODE(A29)),
		ON("C8.6", CODE(A20)),
		ON("N8+7", CODE(A13)),
		ON("B3+5", CODE(A12)),
		ON("B7+5", CODE(A11))),
		CODE(A10))),
	/* 飞相对进右马 */
	RULE(EL_HORSE, SWITCH(RM(2), ARMS(
		ON("P7+1", CODE(A16)),
		ON("P3+1", CODE(A15))),
		CODE(A14))),
	/* 飞相对右士角炮 */
	RULE(EL_CORNER, SWITCH(RM(2), ARMS(
		ON("P7+1", CODE(A26)),
		ON("P3+1", CODE(A25)),
		ON("R9+1", CODE(A24)),
		ON("N8+9", CODE(A23)),
		ON("N8+7", CODE(A22))),
		CODE(A21))),
	/* 飞相对左过宫炮 */
	RULE(EL_CROSS, IS(RM(2), "N2+3", GO(EL_CROSS_HORSE), CODE(A30))),
	RULE(EL_CROSS_HORSE, SEQ(BM(2), "N8+7 R1.2 P7+1", GO(EL_CROSS_R4), CODE(A31))),
	RULE(EL_CROSS_R4, SWITCH(RM(4), ARMS(
		ON("P7+1", CODE(A34)),
		ON("C2.1", CODE(A33))),
		CODE(A32))),
	/* 飞相对进７卒 */
	RULE(EL_PAWN, SWITCH(RM(2), ARMS(
		ON("P7+1", CODE(A38)),
		ON("N8+7", CODE(A37))),
		CODE(A36))),
	/* 飞相对左中炮: 飞相转屏风马 when Red brings out both horses (with only a
	 * rook, 三兵 or 七兵 in between) before anything else. */
	RULE(EL_CENTRAL, SCAN(RED, 2, 10, ARMS(
		BOTH("N2+3", "N8+7", CODE(A28)),
		BOTH("N8+7", "N2+3", CODE(A28)),
		PASS("R1.2 P3+1 P7+1")),
		CODE(A27), CODE(A27))),

	/* ---- A40-A45 起马局 ---- */
	RULE(HORSE, IS(BM(1), "P7+1", GO(HORSE_PAWN), CODE(A40))),
	RULE(HORSE_PAWN, SWITCH(RM(2), ARMS(
		ON("P7+1", CODE(A45)),
		ON("C8.5", CODE(A44)),
		ON("C8.6", CODE(A43)),
		ON("C2.1", CODE(A42))),
		CODE(A41))),

	/* ---- A50-A54 仕角炮局 ---- */
	RULE(CORNER, SWITCH(BM(1), ARMS(
		ON("C2.5", GO(CORNER_CENTRAL)),
		ON("P7+1", CODE(A54)),
		ON("N8+7", CODE(A51))),
		CODE(A50))),
	/* 仕角炮对右中炮: 转反宫马 when both horses come out first */
	RULE(CORNER_CENTRAL, SCAN(RED, 2, 10, ARMS(
		BOTH("N2+3", "N8+7", CODE(A53)),
		BOTH("N8+7", "N2+3", CODE(A53)),
		PASS("R9.8 P3+1 P7+1")),
		CODE(A52), CODE(A52))),

	/* ---- A60-A65 过宫炮局 ---- */
	RULE(CROSS, SWITCH(BM(1), ARMS(
		ON("C8.5", GO(CROSS_CENTRAL)),
		ON("R9+1", CODE(A62)),
		ON("N8+7", CODE(A61))),
		CODE(A60))),
	RULE(CROSS_CENTRAL, IS(RM(2), "N2+3", GO(CROSS_R3), CODE(A63))),
	RULE(CROSS_R3, IS(RM(3), "R1.2", GO(CROSS_B23), CODE(A63))),
	/* 过宫炮直车对左中炮, 横车 when Black answers 马８进７ and 车９进１ */
	RULE(CROSS_B23, SAME(BLACK, 2, "N8+7 R9+1", CODE(A65), CODE(A64))),

	/* ---- 中炮: Black's first answer ---- */
	RULE(CENTRAL, SWITCH(BM(1), ARMS(
		ON("C8.5", GO(SAME_CANNONS)), /* 顺炮 */
		ON("N8+7", GO(LEFT_HORSE)),
		ON("N2+3", GO(RIGHT_HORSE)),
		ON("C2.5", CODE(D50))),       /* 列炮 */
		CODE(B00))),

	/* ---- B00-B56: 中炮 against 马２进３ first ---- */
	RULE(RIGHT_HORSE, SWITCH(BM(2), ARMS(
		ON("R9+1", GO(B1_R2)),        /* 单提马横车 */
		ON("C8.6", GO(B11_B3)),       /* 士角炮 */
		ON("P3+1 P7+1", GO(B0_B3)),
		ON("N8+7", GO(SCREEN)),       /* 屏风马 */
		ON("N8+9", CODE(B10)),        /* 单提马 */
		ON("C2.1", CODE(B04))),       /* 右三步虎 */
		CODE(B01))),
	RULE(B1_R2, IS(RM(2), "N2+3", GO(B1_R3), CODE(B10))),
	RULE(B1_R3, SEQ(RM(3), "R1.2 R9.4", GO(B1_R4), CODE(B10))),
	RULE(B1_R4, SWITCH(RM(4), ARMS(
		ON("P7+1", CODE(B14)),
		ON("C8+2", CODE(B13))),
		CODE(B12))),
	RULE(B11_B3, SWITCH(BM(3), ARMS(
		ON("N8+9 R9+1", CODE(B11))),  /* 士角炮转单提马 */
		GO(SANDWICH))),
	RULE(B0_B3, SWITCH(BM(3), ARMS(
		ON("A6+5 A4+5", CODE(B02)),
		ON("C8.6", GO(SANDWICH)),
		ON("N8+7", GO(SCREEN)),
		ON("R9+2", CODE(B03))),       /* 鸳鸯炮 */
		CODE(B01))),

	/* B30-B45 反宫马 (马２进３, 炮８平６, 马８进７) */
	RULE(SANDWICH, SEQ(RM(2), "P7+1 C8.6 N8+7", CODE(B32), GO(SW_BLACK))),
	RULE(SW_BLACK, SCAN(BLACK, 2, 10, ARMS(
		ON("N8+7", GO(SW_RED)),
		PASS("B7+5 B3+5 C8.6 P7+1 P3+1")),
		CODE(B30), CODE(B30))),
	RULE(SW_RED, SCAN(RED, 2, 10, ARMS(
		MARK("N8+9"),
		MARK("N8+7"),
		MARK("C8.6"),                 /* 五六炮 */
		PASS("N2+3 R1.2 P3+1 P7+1"),
		ON("R1+1", GO(SW_R1)),
		ON("R2+6", GO(SW_R2)),
		ON("C8.7", GO(B5)),           /* 五七炮 */
		ON("C8+4", CODE(B36)),        /* 五八炮 */
		ON("C8+2", CODE(B35))),       /* 巡河炮 */
		GO(SW_OTHER), CODE(B30))),
	RULE(SW_R1, SEEN("C8.6", NEXT, CODE(B34))),  /* 右横车, unless 五六炮 came first */
	RULE(SW_R2, SEEN("C8.6", NEXT, CODE(B33))),  /* 过河车, likewise */
	RULE(SW_OTHER, SEEN("C8.6", GO(SW_C86), CODE(B31))),
	RULE(SW_C86, SEQ(RM(2), "N2+3 C8.6 R1.2 N8+7", GO(SW_N87), CODE(B40))),
	RULE(SW_N87, SEEN("N8+7", GO(SW_B41), GO(SW_N89))),
	RULE(SW_B41, SEQ(RM(4), "C8.6 R1.2", GO(SW_B42), CODE(B41))),
	RULE(SW_B42, IS(BM(5), "C2.1", GO(SW_B43), CODE(B42))),
	RULE(SW_B43, IS(BM(6), "P7+1", CODE(B44), CODE(B43))),
	RULE(SW_N89, SEEN("N8+9", CODE(B45), CODE(B40))),
	/* B50-B56 五七炮对反宫马 */
	RULE(B5, ALL(RED, 2, 5, "N2+3 N8+9 R1.2 P3+1", GO(B5_BLACK), GO(B5_SCAN))),
	RULE(B5_BLACK, ALL(BLACK, 2, 4, "N8+7 C8.6 P3+1", GO(B54_B5), GO(B5_SCAN))),
	RULE(B54_B5, SEQ(BM(5), "B7+5 C8.7 R1.2 R9.8 C2+4", GO(B55_R8), CODE(B54))),
	RULE(B55_R8, SEQ(RM(8), "P7+1 P3+1 P3+1", CODE(B56), CODE(B55))),
	RULE(B5_SCAN, SCAN(BLACK, 2, 10, ARMS(
		PASS("B7+5 B3+5 N8+7 C8.6 P7+1 P3+1"),
		ON("R1.2", CODE(B53)),
		ON("R9+1", CODE(B52)),
		ON("R9.8", CODE(B51))),
		CODE(B50), CODE(B50))),

	/* ---- 中炮 against 马８进７ first: which plan Black's later moves show.
	 * 炮８平９ (三步虎) and 炮８进４ (封车) are remembered; when both were
	 * played, 炮８平９ came later (after it no cannon is left on file 8),
	 * and the later one counts, so SEEN asks for 炮８平９ first. ---- */
	RULE(LEFT_HORSE, SCAN(BLACK, 2, 10, ARMS(
		PASS("R9.8 R8+5 P7+1 P3+1"),
		ON("N2+3", GO(LH_N23)),
		ON("R9+1", GO(LH_R91)),
		MARK("C8+4"),
		MARK("C8.9"),
		ON("C2.5", GO(LH_C25))),
		GO(LH_OTHER), CODE(B05))),
	RULE(LH_N23, SEEN("C8.9", GO(B2), GO(LH_N23_C84))),
	RULE(LH_N23_C84, SEEN("C8+4", CODE(B07), GO(SCREEN))),
	RULE(LH_R91, SEEN("C8.9", GO(B2), GO(LH_R91_C84))),
	RULE(LH_R91_C84, SEEN("C8+4", CODE(B07), CODE(B06))),  /* 龟背炮 */
	RULE(LH_C25, SEEN("C8.9", GO(D4), GO(LH_C25_C84))),    /* 转列炮 */
	RULE(LH_C25_C84, SEEN("C8+4", GO(D3), GO(D5))),
	RULE(LH_OTHER, SEEN("C8.9", GO(B2), GO(LH_OTHER_C84))),
	RULE(LH_OTHER_C84, SEEN("C8+4", CODE(B07), CODE(B05))),
	/* B20-B25 中炮对左三步虎 */
	RULE(B2, SCAN(RED, 2, 10, ARMS(
		ON("B7+9", GO(B21_B)),
		BOTH("P3+1", "P7+1", CODE(B25)),  /* 两头蛇 */
		BOTH("P7+1", "P3+1", CODE(B25)),
		PASS("N2+3 N8+7"),
		ON("C8+4", CODE(B24)),
		ON("C8+2", CODE(B23)),
		ON("R1+1", CODE(B22))),
		CODE(B20), CODE(B20))),
	RULE(B21_B, IS_HERE(-1, "R8+5", CODE(B21), CODE(B20))),  /* 边相 against 骑河车 */

	/* ---- C00-C99 中炮对屏风马: first the main lines, each a set of moves
	 * played in any order within a side. ---- */
	/* C20-C25 中炮过河车七路马对屏风马两头蛇 */
	RULE(SCREEN, SAME(RED, 1, "C2.5 N2+3 R1.2 R2+6 N8+7", GO(C20_BLACK), GO(C30_RED))),
	RULE(C20_BLACK, SAME(BLACK, 1, "N8+7 R9.8 P7+1 N2+3 P3+1", GO(C2_R6), GO(C30_RED))),
	RULE(C2_R6, IS(RM(6), "R9+1", GO(C22_B6), CODE(C20))),
	RULE(C22_B6, SEQ(BM(6), "C2+1 R2-2 B3+5", GO(C22_R8), CODE(C21))),
	RULE(C22_R8, SWITCH(RM(8), ARMS(
		ON("P3+1", GO(C23_R9)),
		ON("P7+1", GO(C24_R9))),
		CODE(C22))),
	RULE(C23_R9, IS(RM(9), "P7+1", CODE(C25), CODE(C23))),
	RULE(C24_R9, IS(RM(9), "P7+1", CODE(C25), CODE(C24))),
	/* C30-C49 中炮过河车互进七兵对屏风马 */
	RULE(C30_RED, SAME(RED, 1, "C2.5 N2+3 R1.2 R2+6 P7+1", GO(C30_BLACK), GO(C61_RED))),
	RULE(C30_BLACK, SAME(BLACK, 1, "N8+7 R9.8 P7+1 N2+3", GO(C3_B5), GO(C61_RED))),
	RULE(C3_B5, SWITCH(BM(5), ARMS(
		ON("N7+6", GO(C35_R6)),       /* 左马盘河 */
		ON("C8.9", GO(C40_R6)),       /* 平炮兑车 */
		ON("B7+5 B3+5", CODE(C32)),
		ON("A6+5 A4+5", CODE(C31)),
		ON("C2+4", CODE(C34)),
		ON("R1+1", CODE(C33))),
		CODE(C30))),
	RULE(C35_R6, IS(RM(6), "N8+7", GO(C36_B6), CODE(C35))),
	RULE(C36_B6, IS(BM(6), "B3+5", GO(C37_R7), CODE(C36))),
	RULE(C37_R7, SWITCH(RM(7), ARMS(
		ON("C8.9", CODE(C39)),
		ON("C8+1", CODE(C38))),
		CODE(C37))),
	RULE(C40_R6, SEQ(RM(6), "R2.3 C9-1", GO(C4_R7), CODE(C40))),
	RULE(C4_R7, SWITCH(RM(7), ARMS(
		ON("N8+7", GO(C42_B7)),
		ON("P5+1", CODE(C49)),
		ON("C8.6", CODE(C48)),
		ON("N8+9", CODE(C47))),
		CODE(C41))),
	RULE(C42_B7, IS(BM(7), "A4+5", GO(C43_R8), CODE(C42))),
	RULE(C43_R8, SWITCH(RM(8), ARMS(
		ON("C8.9", GO(C45_B8)),
		ON("N7+6", CODE(C44))),
		CODE(C43))),
	RULE(C45_B8, IS(BM(8), "R1.2", CODE(C46), GO(C45_B9))),
	RULE(C45_B9, IS(BM(9), "R1.2", CODE(C46), CODE(C45))),
	/* C61-C67 五七炮对屏风马进７卒 */
	RULE(C61_RED, SAME(RED, 1, "C2.5 N2+3 R1.2 N8+9 C8.7", GO(C61_BLACK), GO(C72_RED))),
	RULE(C61_BLACK, SAME(BLACK, 1, "N8+7 R9.8 P7+1 N2+3", GO(C6_B5), GO(C72_RED))),
	RULE(C6_B5, SWITCH(BM(5), ARMS(
		ON("R1.2", GO(C62_R6)),
		ON("C2+2", CODE(C67))),
		CODE(C61))),
	RULE(C62_R6, IS(RM(6), "R9.8", GO(C63_B6), CODE(C62))),
	RULE(C63_B6, SWITCH(BM(6), ARMS(
		ON("C2+4", CODE(C66)),
		ON("C2+2", CODE(C65)),
		ON("C8+4", CODE(C64))),
		CODE(C63))),
	/* C72-C78 五七炮互进三兵对屏风马边卒右马外盘河 */
	RULE(C72_RED, SAME(RED, 1, "C2.5 N2+3 R1.2 P3+1 N8+9 C8.7", GO(C72_BLACK),
			   GO(SCREEN_PLAN))),
	RULE(C72_BLACK, SAME(BLACK, 1, "N8+7 R9.8 N2+3 P3+1 P1+1 N3+2", GO(C72_R7),
			     GO(SCREEN_PLAN))),
	RULE(C72_R7, IS(RM(7), "R9+1", GO(C73_B7), CODE(C72))),
	RULE(C73_B7, SWITCH(BM(7), ARMS(
		ON("B7+5", GO(C74_R8)),
		ON("P1+1", CODE(C78)),
		ON("B3+5", CODE(C77))),
		CODE(C73))),
	RULE(C74_R8, SWITCH(RM(8), ARMS(
		ON("R2+4", CODE(C76)),
		ON("N3+4", CODE(C75))),
		CODE(C74))),

	/* Otherwise Red's plan: the first of its moves 2-9 that is not a
	 * developing move says it; horses and 过河车 are remembered. */
	RULE(SCREEN_PLAN, SCAN(RED, 2, 9, ARMS(
		ON("R2+4", GO(C15_SCAN)),     /* 巡河车 */
		ON("R1+1", GO(C10_SCAN)),     /* 右横车 */
		ON("C8.7", GO(C60_SCAN)),     /* 五七炮 */
		PASS("N2+3 R1.2 P3+1 P7+1"),
		MARK("N8+9"),
		MARK("N8+7"),
		MARK("R2+6"),
		ON("C8+4", GO(C9)),           /* 五八炮 */
		ON("C8+2", GO(C8)),           /* 巡河炮 */
		ON("C8.6", GO(C5)),           /* 五六炮 */
		ON("C8.9", CODE(C99))),       /* 五九炮 */
		GO(SCREEN_OTHER), CODE(C00))),
	RULE(SCREEN_OTHER, SEEN("R2+6", GO(C17_SCAN), GO(SCREEN_N87))),
	RULE(SCREEN_N87, SEEN("N8+7", GO(C01_SCAN), GO(SCREEN_N89))),
	RULE(SCREEN_N89, SEEN("N8+9", GO(C05_SCAN), CODE(C00))),
	/* C15-C16 巡河车.  When Red's moves 2-10 are all of these, the
	 * reference goes on into its 右横车 test, which can only answer C10. */
	RULE(C15_SCAN, SCAN(RED, 2, 10, ARMS(
		PASS("N2+3 R1.2 R2+4 P3+1 P7+1"),
		ON("N8+7 N8+9", CODE(C16))),
		CODE(C15), CODE(C10))),
	/* C10-C14 右横车 */
	RULE(C10_SCAN, SCAN(RED, 2, 10, ARMS(
		PASS("N2+3 N8+7 R1+1 R1.4 R1.6 P3+1 P7+1"),
		ON("P5+1", CODE(C14)),
		ON("C8.9", CODE(C13)),
		ON("C8+2", CODE(C12)),
		ON("N7+6", CODE(C11))),
		CODE(C10), CODE(C10))),
	/* C60-C71 五七炮: Black's 卒 decides.  When Black's moves 2-10 are all
	 * of these, the reference's scan of Red's moves has run out: C00. */
	RULE(C60_SCAN, SCAN(BLACK, 2, 10, ARMS(
		ON("P7+1", GO(C68_SCAN)),
		MARK("P3+1"),
		ON("N3+2", CODE(C71)),
		PASS("N2+3 N8+7 R9.8")),
		GO(C60_OTHER), CODE(C00))),
	RULE(C60_OTHER, SEEN("P3+1", CODE(C70), CODE(C60))),
	RULE(C68_SCAN, SCAN(RED, 2, 10, ARMS(
		PASS("N2+3 N8+9 R1.2 R2+6 C8.7"),
		ON("P7+1", CODE(C68))),       /* 互进七兵 */
		CODE(C60), CODE(C60))),
	/* C17-C19 过河车 */
	RULE(C17_SCAN, SCAN(RED, 2, 10, ARMS(
		PASS("N2+3 R1.2 R2+6 P3+1 P7+1"),
		ON("N8+9", CODE(C19)),
		ON("N8+7", CODE(C18))),
		CODE(C17), CODE(C17))),
	/* C01-C04 七路马 */
	RULE(C01_SCAN, SCAN(RED, 2, 10, ARMS(
		ON("P5+1", GO(C03_SCAN)),
		PASS("N2+3 N8+7 R1.2 P3+1 P7+1"),
		ON("N7+6", CODE(C02))),
		CODE(C01), CODE(C01))),
	RULE(C03_SCAN, SCAN(BLACK, 2, 10, ARMS(
		PASS("N2+3 N8+7 R9.8 P7+1 P3+1"),
		BOTH("C8+4", "C2+4", CODE(C04)),  /* 双炮过河 */
		BOTH("C2+4", "C8+4", CODE(C04))),
		CODE(C03), CODE(C03))),
	/* C05-C06 左边马 */
	RULE(C05_SCAN, SCAN(RED, 2, 10, ARMS(
		PASS("N2+3 N8+9 R1.2 P3+1 P7+1"),
		ON("R9+1", CODE(C06))),
		CODE(C05), CODE(C05))),
	/* C90-C98 五八炮 */
	RULE(C9, SCAN(RED, 2, 10, ARMS(
		ON("P3+1", GO(C9_BLACK)),
		PASS("N2+3 N8+7 N8+9 R1.2 R2+6 C8+4")),
		CODE(C90), CODE(C90))),
	RULE(C9_BLACK, SCAN(BLACK, 2, 10, ARMS(
		ON("P3+1", GO(C9_RED)),       /* 互进三兵 */
		PASS("N8+7 N2+3 R9.8")),
		CODE(C90), CODE(C90))),
	RULE(C9_RED, SCAN(RED, 2, 10, ARMS(
		ON("N8+9", GO(C93_B5)),       /* 左边马 */
		PASS("N2+3 R1.2 C8+4 P3+1"),
		ON("C8.7", CODE(C98)),
		ON("N8+7", CODE(C92))),
		CODE(C91), CODE(C91))),
	/* Black's 5th move, or the 6th after 飞象 */
	RULE(C93_B5, SCAN(BLACK, 5, 6, ARMS(
		PASS("B7+5 B3+5"),
		ON("P1+1", GO(C96_R7)),
		ON("A6+5 A4+5", CODE(C94)),
		ON("P7+1", CODE(C95))),
		CODE(C93), CODE(C93))),
	RULE(C96_R7, IS(RM(7), "C8.7", CODE(C97), CODE(C96))),
	/* C80-C86 巡河炮 */
	RULE(C8, ALL(RED, 2, 5, "N2+3 N8+7 C8+2 P7+1", GO(C8_BLACK), GO(C8_SCAN))),
	RULE(C8_BLACK, ALL(BLACK, 2, 4, "N8+7 N2+3 R9.8 P7+1", GO(C85_B5), GO(C8_SCAN))),
	RULE(C85_B5, IS(BM(5), "N7+8", GO(C86_R6), GO(C8_SCAN))),
	RULE(C86_R6, IS(RM(6), "N7+6", GO(C86_R7), CODE(C85))),
	RULE(C86_R7, IS(RM(7), "R1+1", CODE(C86), CODE(C85))),
	RULE(C8_SCAN, SCAN(BLACK, 2, 10, ARMS(
		MARK("B7+5"),
		ON("B3+5", CODE(C84)),
		PASS("P7+1 P3+1 N8+7 N2+3 R9.8"),
		ON("C8+2", GO(C83_B7)),
		ON("R1+1", GO(C82_B7))),
		GO(C81_B7), CODE(C80))),
	RULE(C83_B7, SEEN("B7+5", CODE(C83), CODE(C80))),
	RULE(C82_B7, SEEN("B7+5", CODE(C82), CODE(C80))),
	RULE(C81_B7, SEEN("B7+5", CODE(C81), CODE(C80))),
	/* C50-C56 五六炮 */
	RULE(C5, ALL(RED, 2, 5, "N2+3 R1.2 C8.6 N8+9", GO(C5_BLACK), GO(C55_RED))),
	RULE(C5_BLACK, ALL(BLACK, 2, 4, "N2+3 N8+7 R9.8 P7+1", GO(C52_B5), GO(C55_RED))),
	RULE(C52_B5, SEQ(BM(5), "R1.2 R9.8", GO(C53_B6), CODE(C51))),
	RULE(C53_B6, IS(BM(6), "C2+4", CODE(C53), CODE(C52))),
	RULE(C55_RED, ALL(RED, 2, 5, "N2+3 R1.2 C8.6 R2+6", GO(C55_BLACK), GO(C5_SCAN))),
	RULE(C55_BLACK, ALL(BLACK, 2, 4, "N2+3 N8+7 R9.8 P7+1", GO(C55_B5), GO(C5_SCAN))),
	RULE(C55_B5, SWITCH(BM(5), ARMS(
		ON("P3+1", CODE(C56)),
		ON("R1.2", CODE(C55))),
		CODE(C54))),
	RULE(C5_SCAN, SCAN(RED, 2, 10, ARMS(
		PASS("N2+3 R1.2 C8.6 P3+1 P7+1"),
		ON("R2+6", CODE(C54)),
		ON("N8+9", CODE(C51))),
		CODE(C50), CODE(C50))),

	/* ---- D00-D29 顺炮 ---- */
	RULE(SAME_CANNONS, SWITCH(RM(2), ARMS(
		ON("N2+3", GO(D_N23)),
		ON("R1+1", GO(D_R11))),       /* 横车 */
		CODE(D00))),
	RULE(D_N23, SWITCH(BM(2), ARMS(
		ON("N8+7", GO(D_N87)),
		ON("R9+1", GO(D_R91))),
		CODE(D00))),
	RULE(D_N87, SWITCH(RM(3), ARMS(
		ON("R1.2", GO(D_R12)),        /* 直车 */
		ON("R1+1", GO(D_N87_R11))),
		GO(D_N87_B3))),
	RULE(D_N87_B3, SWITCH(BM(3), ARMS(
		ON("R9.8", CODE(D02)),
		ON("R9+1", CODE(D01))),
		CODE(D00))),
	RULE(D_R12, IS(BM(3), "R9+1", GO(D2), GO(D1))),
	RULE(D_N87_R11, IS(BM(3), "R9.8", GO(D_N87_B4), CODE(D03))),
	RULE(D_N87_B4, IS(BM(4), "R8+4", CODE(D05), CODE(D04))),
	RULE(D_R91, SEQ(RM(3), "R1.2 N8+7", GO(D2), CODE(D01))),
	RULE(D_R11, SEQ(BM(2), "R9.8 N8+7", GO(D_R11_B3), CODE(D03))),
	RULE(D_R11_B3, IS(BM(3), "R8+4", CODE(D05), CODE(D04))),
	/* D10-D15 顺炮直车对缓开车 */
	RULE(D1, SCAN(BLACK, 3, 10, ARMS(
		PASS("N2+3 P7+1 P3+1"),
		ON("C2.1", CODE(D15)),
		ON("C2+4", CODE(D14)),
		ON("R9.8", CODE(D13)),
		ON("R1+1", CODE(D12)),
		ON("R9+1", CODE(D11))),
		CODE(D10), CODE(D10))),
	/* D20-D29 顺炮直车对横车 */
	RULE(D2, SCAN(RED, 4, 10, ARMS(
		ON("A4+5 A6+5", CODE(D21)),
		ON("N8+9", CODE(D22)),
		ON("R2+4", CODE(D23)),
		ON("R2+6", CODE(D24)),
		ON("C8.6", CODE(D25)),
		BOTH("P3+1", "P7+1", GO(D28_SCAN)),  /* 两头蛇 */
		BOTH("P7+1", "P3+1", GO(D28_SCAN)),
		PASS("N8+7")),
		GO(D2_OTHER), CODE(D20))),
	RULE(D2_OTHER, SEEN("P3+1", CODE(D26), GO(D2_P71))),
	RULE(D2_P71, SEEN("P7+1", CODE(D27), CODE(D20))),
	RULE(D28_SCAN, SCAN(BLACK, 4, 10, ARMS(
		PASS("N2+3 R9.4"),
		ON("R1+1", CODE(D29))),       /* 双横车 */
		CODE(D28), CODE(D28))),

	/* ---- D30-D55 列炮, reached from 中炮 against 马８进７ ---- */
	RULE(D3, SEQ(RM(2), "N2+3 R9.8 R1.2 C8+4 P3+1 C2.5", GO(D3_R5), CODE(D30))),
	RULE(D3_R5, SWITCH(RM(5), ARMS(
		ON("P7+1", CODE(D36)),
		ON("C8+5", CODE(D35)),
		ON("N8+9", CODE(D34)),
		ON("N8+7", CODE(D33)),
		ON("N3+4", CODE(D32))),
		CODE(D31))),
	RULE(D4, SCAN(RED, 2, 10, ARMS(
		ON("P5+1", GO(D41_HERE)),
		BOTH("P3+1", "P7+1", CODE(D43)),
		BOTH("P7+1", "P3+1", CODE(D43)),
		PASS("N2+3 N8+7"),
		ON("R9.8", CODE(D42))),
		CODE(D40), CODE(D40))),
	/* 进中兵 between Black's 骑河车 and 列炮 */
	RULE(D41_HERE, SEQ_HERE(-1, "R8+5 P5+1 C2.5", CODE(D41), CODE(D40))),
	RULE(D5, SCAN(RED, 2, 10, ARMS(
		ON("R2+6", CODE(D53)),
		PASS("N2+3 N8+7 P3+1 P7+1"),
		BOTH("R1.2", "R9.8", CODE(D55)),  /* 双直车 */
		BOTH("R9.8", "R1.2", CODE(D55))),
		GO(D5_OTHER), CODE(D50))),
	RULE(D5_OTHER, SEEN("R1.2", CODE(D52), GO(D5_R98))),
	RULE(D5_R98, SEEN("R9.8", CODE(D54), CODE(D51))),

	/* ---- E00-E48 仙人指路 ---- */
	RULE(PAWN, SWITCH(BM(1), ARMS(
		ON("C8.7", GO(PAWN_C87)),     /* 卒底炮 */
		ON("N2+3", GO(PAWN_N23)),
		ON("P3+1", GO(PAWN_P31)),     /* 对兵 */
		ON("B7+5 B3+5", GO(PAWN_ELEPHANT)),
		ON("C8.6 C8.4 C2.6 C2.4", CODE(E04)),
		ON("C8.5 C2.5", CODE(E03)),
		ON("C2.7", CODE(E05))),
		CODE(E00))),
	RULE(PAWN_ELEPHANT, IS(RM(2), "N2+3", CODE(E02), CODE(E01))),
	RULE(PAWN_C87, SWITCH(RM(2), ARMS(
		ON("C8.5", GO(PAWN_C87_C85)), /* 转左中炮 */
		ON("B7+5 B3+5", CODE(E11)),
		ON("C2.5", CODE(E12))),
		CODE(E10))),
	RULE(PAWN_C87_C85, SWITCH(BM(2), ARMS(
		ON("B3+5", GO(E14_R3)),       /* 飞右象 */
		ON("B7+5", GO(E2_R3)),        /* 飞左象 */
		ON("C2.5", CODE(E17))),
		CODE(E13))),
	RULE(E14_R3, IS(RM(3), "N2+1", GO(E15_B3), CODE(E14))),
	RULE(E15_B3, IS(BM(3), "N8+9", CODE(E16), CODE(E15))),
	RULE(E2_R3, SWITCH(RM(3), ARMS(
		ON("N8+7", GO(E2_N87)),
		ON("C5+4", CODE(E38)),
		ON("N2+1", CODE(E37)),
		ON("A4+5", CODE(E21))),
		CODE(E20))),
	RULE(E2_N87, SWITCH(BM(3), ARMS(
		ON("R1+1", GO(E23_R4)),
		ON("P7+1", GO(E30_R4))),
		CODE(E22))),
	RULE(E23_R4, SEQ(RM(4), "R9.8 R1.8 N2+3 N8+6", GO(E24_R6), CODE(E23))),
	RULE(E24_R6, SEQ(RM(6), "C2.1 N2+1 N3+4", GO(E24_B7), CODE(E24))),
	RULE(E24_B7, SWITCH(BM(7), ARMS(
		ON("P1+1", CODE(E27)),
		ON("R8+6", CODE(E26)),
		ON("A6+5", CODE(E25))),
		CODE(E24))),
	RULE(E30_R4, IS(RM(4), "N2+1 R9.8", GO(E30_B4), CODE(E30))),
	RULE(E30_B4, IS(BM(4), "P7+1", GO(E31_R5), CODE(E30))),
	RULE(E31_R5, IS(RM(5), "N2+1 R9.8", GO(E3_B5), CODE(E31))),
	RULE(E3_B5, SWITCH(BM(5), ARMS(
		ON("R1+1", GO(E33_R6)),
		ON("N8+6", CODE(E32))),
		CODE(E31))),
	RULE(E33_R6, SWITCH(RM(6), ARMS(
		ON("R1.2", CODE(E36)),
		ON("R8+4", CODE(E35)),
		ON("A4+5", CODE(E34))),
		CODE(E33))),
	RULE(PAWN_N23, SWITCH(RM(2), ARMS(
		ON("N2+3", GO(PAWN_N23_N23)),
		ON("P7+1", GO(E08_B2))),      /* 两头蛇 */
		CODE(E06))),
	RULE(PAWN_N23_N23, IS(BM(2), "P3+1", GO(E4_R3), CODE(E07))),
	RULE(E4_R3, SWITCH(RM(3), ARMS(
		ON("B3+5 B7+5", CODE(E43)),
		ON("C2.1", CODE(E45)),
		ON("R1+1", CODE(E44))),
		CODE(E42))),
	RULE(E08_B2, IS(BM(2), "C8.7", CODE(E09), CODE(E08))),
	RULE(PAWN_P31, SWITCH(RM(2), ARMS(
		ON("N2+3", GO(PAWN_P31_N23)),
		ON("C8.7", GO(E46_B2))),      /* 转兵底炮 */
		CODE(E40))),
	RULE(PAWN_P31_N23, IS(BM(2), "N2+3", GO(E4_R3), CODE(E41))),
	RULE(E46_B2, SWITCH(BM(2), ARMS(
		ON("C8.5", CODE(E48)),
		ON("C2.5", CODE(E47))),
		CODE(E46))),
};

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
