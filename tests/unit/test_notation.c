/*
 * test_notation.c: move text in every dialect.  A property test writes
 * every legal move of many positions (the perft suite, positions from
 * real games, random positions full of tandem pieces) in every dialect
 * and reads it back; the twins of real records (Chinese, ICCS and WXF
 * texts of the same games) must agree move for move; and a table of
 * tricky cases pins down the tandem conventions and the error messages.
 */
#include "testutil.h"

#include <dirent.h>

#include "position.h"
#include "buf.h"
#include "diagnostic.h"
#include "movegen.h"
#include "notation.h"
#include "text.h"
#include "utf8.h"

/* ---- helpers -------------------------------------------------------------- */

static struct xqi_position pos_flags(const char *fen, unsigned flags)
{
	struct xqi_position b;
	struct xq_diagnostic d;

	xqi_diagnostic_init(&d);
	if (xqi_position_from_fen(&b, fen, strlen(fen), flags, &d))
		fail_msg("bad test FEN '%s': %s", fen, d.msg);
	return b;
}

static struct xqi_position pos(const char *fen)
{
	return pos_flags(fen, 0);
}

static xqi_move mv(const char *iccs)
{
	return XQI_MOVE(XQI_SQ(iccs[0] - 'a', iccs[1] - '0'), XQI_SQ(iccs[2] - 'a', iccs[3] - '0'));
}

static void expect_read(const char *fen, const char *text, enum xq_dialect dialect,
			const char *iccs)
{
	struct xqi_position b = pos(fen), before = b;
	struct xq_diagnostic d;
	xqi_move m = 0;
	char name[5];
	int rc;

	xqi_diagnostic_init(&d);
	rc = xqi_notation_read(&m, &b, text, strlen(text), dialect, &d);
	if (rc)
		fail_msg("reading '%s' (%s) in %s: %s", text, xqi_notation_name(dialect), fen, d.msg);
	xqi_move_name(m, name);
	if (strcmp(name, iccs) != 0)
		fail_msg("'%s' (%s) read as %s, expected %s", text, xqi_notation_name(dialect), name,
			 iccs);
	assert_memory_equal(&b, &before, sizeof(b));
}

/* Reading fails with `rc`, and the message contains `needle`. */
static void expect_error(const char *fen, const char *text, enum xq_dialect dialect, int rc,
			 const char *needle)
{
	struct xqi_position b = pos(fen);
	struct xq_diagnostic d;
	xqi_move m = 0;
	int got;

	xqi_diagnostic_init(&d);
	got = xqi_notation_read(&m, &b, text, strlen(text), dialect, &d);
	if (got != rc)
		fail_msg("reading '%s' (%s): got %d (%s), expected %d", text,
			 xqi_notation_name(dialect), got, d.msg, rc);
	if (!strstr(d.msg, needle))
		fail_msg("reading '%s': message '%s' lacks '%s'", text, d.msg, needle);
	assert_string_equal(d.move, text);
}

static void expect_write(const char *fen, const char *iccs, enum xq_dialect dialect,
			 unsigned flags, const char *text)
{
	struct xqi_position b = pos(fen);
	char out[XQ_MOVE_TEXT_SIZE];
	size_t n = xqi_notation_write(out, sizeof(out), &b, mv(iccs), dialect, flags);

	if (n == 0 || strcmp(out, text) != 0)
		fail_msg("writing %s in %s (flags %u): got '%s', expected '%s'", iccs,
			 xqi_notation_name(dialect), flags, out, text);
	assert_int_equal(n, strlen(text));
}

/* Both ways: `text` is how the writer spells `iccs`, and it reads back. */
static void expect_both(const char *fen, const char *iccs, enum xq_dialect dialect,
			unsigned flags, const char *text)
{
	expect_write(fen, iccs, dialect, flags, text);
	expect_read(fen, text, dialect, iccs);
	expect_read(fen, text, XQ_DIALECT_AUTO, iccs);
}

/* ---- tricky cases ---------------------------------------------------------- */

#define START XQI_START_FEN
#define ZH XQ_DIALECT_CHINESE
#define WXF XQ_DIALECT_WXF
#define TRAD XQ_DIALECT_TRADITIONAL
#define DPXQ XQ_DIALECT_DPXQ_PAWNS

/* Red rooks on h4 (front) and h2 (rear), file 2. */
#define TWO_RED_ROOKS "3k5/9/9/9/9/7R1/9/7R1/9/4K4 w"
/* Black rooks on b7 (rear) and b4 (front: nearer red), black's file 2. */
#define TWO_BLACK_ROOKS "3k5/9/1r7/9/9/1r7/9/9/9/4K4 b"
/* Red cannons b5 and b1 (file 8), red horses c3 and c1 (file 7). */
#define CANNONS_AND_HORSES "3k5/9/9/9/1C7/9/2N6/9/1CN6/4K4 w"
/* Three red pawns on file 7: c7, c6, c5. */
#define THREE_PAWNS "4k4/9/2P6/2P6/2P6/9/9/9/9/3K5 w"
/* Four and five red pawns on file 7. */
#define FOUR_PAWNS "5k3/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w"
#define FIVE_PAWNS "2P2k3/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w"
/* Red pawns on two files: c7 c6 c5 (file 7) and g6 g5 (file 3). */
#define PAWNS_ON_TWO_FILES "4k4/9/2P6/2P3P2/2P3P2/9/9/9/9/3K5 w"
/* Black pawns d3 and d2 (black's file 4; d2 is the front one). */
#define TWO_BLACK_PAWNS "4k4/9/9/9/9/9/3p5/3p5/9/5K3 b"

static void tandem_rooks_are_front_and_rear(void **state)
{
	(void)state;
	expect_both(TWO_RED_ROOKS, "h4h7", ZH, 0, "前车进三");
	expect_both(TWO_RED_ROOKS, "h2h3", ZH, 0, "后车进一");
	expect_both(TWO_RED_ROOKS, "h4e4", ZH, 0, "前车平五");
	expect_both(TWO_RED_ROOKS, "h2e2", ZH, TRAD, "後車平五");
	expect_both(TWO_RED_ROOKS, "h4h7", WXF, 0, "R++3");
	expect_both(TWO_RED_ROOKS, "h2h3", WXF, 0, "R-+1");
	expect_both(TWO_RED_ROOKS, "h4e4", WXF, 0, "R+.5");
	/* The qualifier after the piece (WXF's Chinese), and before the WXF letter. */
	expect_read(TWO_RED_ROOKS, "车前进三", ZH, "h4h7");
	expect_read(TWO_RED_ROOKS, "車後平五", ZH, "h2e2");
	expect_read(TWO_RED_ROOKS, "+R+3", WXF, "h4h7");
	expect_read(TWO_RED_ROOKS, "-R.5", WXF, "h2e2");
	expect_read(TWO_RED_ROOKS, "R-=5", WXF, "h2e2");
}

static void tandem_rooks_without_qualifier_are_read_only_when_one_can_move(void **state)
{
	(void)state;
	/* Both can go one forward: ambiguous, naming both squares. */
	expect_error(TWO_RED_ROOKS, "车二进一", ZH, XQ_EAMBIGUOUS, "h4 and h2");
	expect_error(TWO_RED_ROOKS, "R2+1", WXF, XQ_EAMBIGUOUS, "h4-h5 or h2-h3");
	/* Only the front rook can go five forward. */
	expect_read(TWO_RED_ROOKS, "车二进五", ZH, "h4h9");
	/* The named rook cannot: the reason is given. */
	expect_error(TWO_RED_ROOKS, "后车进三", ZH, XQ_EILLEGAL, "path is blocked at h4");
}

static void black_front_is_the_piece_nearer_red(void **state)
{
	(void)state;
	expect_both(TWO_BLACK_ROOKS, "b4b3", ZH, 0, "前车进１");
	expect_both(TWO_BLACK_ROOKS, "b4b5", ZH, 0, "前车退１");
	expect_both(TWO_BLACK_ROOKS, "b7d7", ZH, 0, "后车平４");
	expect_both(TWO_BLACK_ROOKS, "b4b3", ZH, XQ_DIALECT_ASCII_DIGITS, "前车进1");
	expect_both(TWO_BLACK_ROOKS, "b4b3", WXF, 0, "R++1");
	expect_both(TWO_BLACK_ROOKS, "b7d7", WXF, 0, "R-.4");
	expect_both(TWO_BLACK_PAWNS, "d2e2", ZH, 0, "前卒平５");
	expect_both(TWO_BLACK_PAWNS, "d3e3", ZH, TRAD, "後卒平５");
	expect_both(TWO_BLACK_PAWNS, "d2d1", ZH, XQ_DIALECT_ASCII_DIGITS, "前卒进1");
	expect_both(TWO_BLACK_PAWNS, "d2e2", WXF, 0, "P+.5");
	expect_both(TWO_BLACK_PAWNS, "d3c3", WXF, 0, "P-.3");
}

static void tandem_cannons_and_horses(void **state)
{
	(void)state;
	expect_both(CANNONS_AND_HORSES, "b5e5", ZH, 0, "前炮平五");
	expect_both(CANNONS_AND_HORSES, "b1b3", ZH, 0, "后炮进二");
	expect_both(CANNONS_AND_HORSES, "b5e5", WXF, 0, "C+.5");
	expect_both(CANNONS_AND_HORSES, "b1b3", WXF, 0, "C-+2");
	expect_both(CANNONS_AND_HORSES, "c3d5", ZH, 0, "前马进六");
	expect_both(CANNONS_AND_HORSES, "c3e2", ZH, 0, "前马退五");
	expect_both(CANNONS_AND_HORSES, "c1b3", ZH, TRAD, "後馬進八");
	expect_both(CANNONS_AND_HORSES, "c1d3", WXF, 0, "H-+6");
	expect_both(CANNONS_AND_HORSES, "c3d5", WXF, 0, "H++6");
	expect_read(CANNONS_AND_HORSES, "+H+6", WXF, "c3d5");
	expect_read(CANNONS_AND_HORSES, "炮后进二", ZH, "b1b3");
}

static void three_pawns_on_a_file(void **state)
{
	(void)state;
	expect_both(THREE_PAWNS, "c7d7", ZH, 0, "前兵平六");
	expect_both(THREE_PAWNS, "c6d6", ZH, 0, "中兵平六");
	expect_both(THREE_PAWNS, "c5b5", ZH, 0, "后兵平八");
	expect_both(THREE_PAWNS, "c7c8", ZH, DPXQ, "前兵进一");
	expect_both(THREE_PAWNS, "c6d6", ZH, DPXQ, "中兵平六");
	/* WXF: the middle pawn keeps its file digit. */
	expect_both(THREE_PAWNS, "c7d7", WXF, 0, "P+.6");
	expect_both(THREE_PAWNS, "c6d6", WXF, 0, "P7.6");
	expect_both(THREE_PAWNS, "c5d5", WXF, 0, "P-.6");
	/* xqbase's WXF: the middle pawn as '.' after the letter. */
	expect_read(THREE_PAWNS, "P..6", WXF, "c6d6");
	/* Chinese with the file only: three pawns could go, so no guess. */
	expect_error(THREE_PAWNS, "兵七平六", ZH, XQ_EAMBIGUOUS, "ambiguous");
	expect_error(THREE_PAWNS, "中兵进一", ZH, XQ_EILLEGAL, "occupied by red's own pawn");
}

static void four_and_five_pawns_on_a_file(void **state)
{
	(void)state;
	/* WXF: ++ P+ P3 P- -- for five, ++ P+ P- -- for four. */
	expect_both(FIVE_PAWNS, "c9d9", WXF, 0, "++.6");
	expect_both(FIVE_PAWNS, "c8d8", WXF, 0, "P+.6");
	expect_both(FIVE_PAWNS, "c7d7", WXF, 0, "P7.6");
	expect_both(FIVE_PAWNS, "c6d6", WXF, 0, "P-.6");
	expect_both(FIVE_PAWNS, "c5d5", WXF, 0, "--.6");
	expect_both(FOUR_PAWNS, "c8d8", WXF, 0, "++.6");
	expect_both(FOUR_PAWNS, "c7d7", WXF, 0, "P+.6");
	expect_both(FOUR_PAWNS, "c6d6", WXF, 0, "P-.6");
	expect_both(FOUR_PAWNS, "c5d5", WXF, 0, "--.6");
	/* xqbase: 一..五 from the front; dpxq: 前 二 三 四 五. */
	expect_both(FIVE_PAWNS, "c9d9", ZH, 0, "一兵平六");
	expect_both(FIVE_PAWNS, "c7d7", ZH, 0, "三兵平六");
	expect_both(FIVE_PAWNS, "c5d5", ZH, 0, "五兵平六");
	expect_both(FIVE_PAWNS, "c9d9", ZH, DPXQ, "前兵平六");
	expect_both(FIVE_PAWNS, "c8d8", ZH, DPXQ, "二兵平六");
	expect_both(FIVE_PAWNS, "c5d5", ZH, DPXQ, "五兵平六");
	expect_both(FOUR_PAWNS, "c5d5", ZH, DPXQ, "四兵平六");
	expect_both(FOUR_PAWNS, "c6d6", ZH, 0, "三兵平六");
	/* 后 is the rearmost, 中 the middle of five; xqbase WXF a..e. */
	expect_read(FIVE_PAWNS, "后兵平六", ZH, "c5d5");
	expect_read(FIVE_PAWNS, "中兵平六", ZH, "c7d7");
	expect_read(FIVE_PAWNS, "Pa.6", WXF, "c9d9");
	expect_read(FIVE_PAWNS, "Pe.6", WXF, "c5d5");
	expect_error(FOUR_PAWNS, "中兵平六", ZH, XQ_ENOTFOUND, "three or five");
	/* '+P' with four or more could be '++' or 'P+': never guessed. */
	expect_error(FIVE_PAWNS, "+P.6", WXF, XQ_EAMBIGUOUS, "the foremost on c9 (WXF '++') or the one on c8");
	expect_error(FOUR_PAWNS, "-P.6", WXF, XQ_EAMBIGUOUS, "the rearmost on c5 (WXF '--') or the one on c6");
	expect_error(FOUR_PAWNS, "五兵平六", ZH, XQ_ENOTFOUND, "hold 4");
	expect_error(FOUR_PAWNS, "五兵七平六", ZH, XQ_ENOTFOUND, "the file has 4");
}

static void pawns_on_two_files(void **state)
{
	(void)state;
	/* xqbase numbers them file by file from the mover's right, front first. */
	expect_both(PAWNS_ON_TWO_FILES, "g6f6", ZH, 0, "一兵平四");
	expect_both(PAWNS_ON_TWO_FILES, "g5h5", ZH, 0, "二兵平二");
	expect_both(PAWNS_ON_TWO_FILES, "c7d7", ZH, 0, "三兵平六");
	expect_both(PAWNS_ON_TWO_FILES, "c6d6", ZH, 0, "四兵平六");
	expect_both(PAWNS_ON_TWO_FILES, "c5d5", ZH, 0, "五兵平六");
	/* WXF: the file, then + (front), the file again (middle), - (rear). */
	expect_both(PAWNS_ON_TWO_FILES, "g6f6", WXF, 0, "3+.4");
	expect_both(PAWNS_ON_TWO_FILES, "g5f5", WXF, 0, "3-.4");
	expect_both(PAWNS_ON_TWO_FILES, "c7d7", WXF, 0, "7+.6");
	expect_both(PAWNS_ON_TWO_FILES, "c6d6", WXF, 0, "77.6");
	expect_both(PAWNS_ON_TWO_FILES, "c5d5", WXF, 0, "7-.6");
	expect_read(PAWNS_ON_TWO_FILES, "P7-.6", WXF, "c5d5");
	/* dpxq: qualifier and file, the piece left out. */
	expect_both(PAWNS_ON_TWO_FILES, "g6f6", ZH, DPXQ, "前三平四");
	expect_both(PAWNS_ON_TWO_FILES, "g5f5", ZH, DPXQ, "后三平四");
	expect_both(PAWNS_ON_TWO_FILES, "c6d6", ZH, DPXQ, "中七平六");
	expect_read(PAWNS_ON_TWO_FILES, "二7平6", ZH, "c6d6");
	/* Printed five-character form. */
	expect_read(PAWNS_ON_TWO_FILES, "前兵三平四", ZH, "g6f6");
	/* 前兵 without a file: the front pawn of either file; only g6 can go to file 4. */
	expect_read(PAWNS_ON_TWO_FILES, "前兵平四", ZH, "g6f6");
	expect_error(PAWNS_ON_TWO_FILES, "前兵进一", ZH, XQ_EAMBIGUOUS, "g6 and c7");
}

static void advisors_and_elephants_on_one_file_need_no_qualifier(void **state)
{
	(void)state;
	/* Red advisors d0 and d2: the direction says which. */
	expect_both("3k5/9/9/9/9/9/9/3A5/9/3AK4 w", "d0e1", ZH, 0, "仕六进五");
	expect_both("3k5/9/9/9/9/9/9/3A5/9/3AK4 w", "d2e1", ZH, 0, "仕六退五");
	expect_both("3k5/9/9/9/9/9/9/3A5/9/3AK4 w", "d2e1", WXF, 0, "A6-5");
	expect_read("3k5/9/9/9/9/9/9/3A5/9/3AK4 w", "士六退五", ZH, "d2e1");
	expect_read("3k5/9/9/9/9/9/9/3A5/9/3AK4 w", "前仕退五", ZH, "d2e1");
	/* Red elephants c0 and c4. */
	expect_both("3k5/9/9/9/9/2B6/9/9/9/2B1K4 w", "c0e2", ZH, 0, "相七进五");
	expect_both("3k5/9/9/9/9/2B6/9/9/9/2B1K4 w", "c4a2", ZH, 0, "相七退九");
	expect_both("3k5/9/9/9/9/2B6/9/9/9/2B1K4 w", "c4e2", WXF, 0, "E7-5");
	/* Black advisors f9 and f7, black's file 6. */
	expect_both("3k1a3/9/5a3/9/9/9/9/9/9/4K4 b", "f9e8", ZH, 0, "士６进５");
	expect_both("3k1a3/9/5a3/9/9/9/9/9/9/4K4 b", "f7e8", ZH, 0, "士６退５");
}

static void traditional_and_variant_glyphs(void **state)
{
	(void)state;
	expect_both(START, "h0g2", ZH, TRAD, "馬二進三");
	expect_both(START, "i0i1", ZH, TRAD, "車一進一");
	expect_both(START, "e0e1", ZH, TRAD, "帥五進一");
	expect_read(START, "俥一進一", ZH, "i0i1");
	expect_read(START, "傌二進三", ZH, "h0g2");
	expect_read(START, "砲二平五", ZH, "h2e2");
	expect_read(START, "帅五进一", ZH, "e0e1");
	/* Black moves with red's glyphs, and 包 for the cannon: colour comes from the board. */
	expect_read("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b", "包８平５", ZH,
		    "h7e7");
	expect_read("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b", "炮8平5", ZH,
		    "h7e7");
	expect_read("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b", "將５進１", ZH,
		    "e9e8");
	expect_read("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b", "马八进七", ZH,
		    "h9g7");
	/* Old books' 上/下. */
	expect_read(START, "马二上三", ZH, "h0g2");
}

static void chinese_glyphs_are_each_found_by_their_hash(void **state)
{
	(void)state;
	assert_int_equal(xqi_notation_check(), 0);
}

static void an_overlong_or_odd_character_is_never_read_as_a_glyph(void **state)
{
	struct xqi_position b;
	struct xq_diagnostic d;
	xqi_move m;
	/* 炮二平五 with its 五 as an overlong form of '5' (E0 80 B5), with
	 * U+3000 inside, with a surrogate (ED A0 80). */
	static const char *const texts[] = {
		"\xE7\x82\xAE\xE4\xBA\x8C\xE5\xB9\xB3\xE0\x80\xB5",
		"\xE7\x82\xAE\xE4\xBA\x8C\xE3\x80\x80\xE5\xB9\xB3",
		"\xE7\x82\xAE\xE4\xBA\x8C\xE5\xB9\xB3\xED\xA0\x80",
	};

	(void)state;
	xqi_position_start(&b);
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		xqi_diagnostic_init(&d);
		assert_int_not_equal(xqi_notation_read_hinted(&m, &b, texts[i], strlen(texts[i]),
							     ZH, 0, &d), 0);
		assert_int_equal(d.code, XQI_D_BAD_MOVE_TEXT);
	}
}

static void full_width_letters_and_digits(void **state)
{
	(void)state;
	expect_read(START, "Ｃ２＝５", WXF, "h2e2");
	expect_read(START, "Ｃ２＝５", XQ_DIALECT_AUTO, "h2e2");
	expect_read(START, "ｈ２ｅ２", XQ_DIALECT_ICCS, "h2e2");
	expect_read(START, "炮２平５", ZH, "h2e2");
	expect_read(START, "Ｈ２＋３", XQ_DIALECT_AUTO, "h0g2");
	expect_error(START, "Ｈ２．３", XQ_DIALECT_AUTO, XQ_EPARSE, "never moves sideways");
	expect_read("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b", "Ｈ８＋７",
		    WXF, "h9g7");
}

static void wxf_alternate_letters_and_separators(void **state)
{
	(void)state;
	expect_read(START, "C2=5", WXF, "h2e2");
	expect_read(START, "C25", WXF, "h2e2");
	expect_read(START, "c2.5", WXF, "h2e2");
	expect_read(START, "N2+3", WXF, "h0g2");
	expect_read(START, "B3+5", WXF, "g0e2");
	expect_read(START, "M3+5", WXF, "g0e2");
	expect_read(START, "G4+5", WXF, "f0e1");
	expect_read(START, "K5+1", WXF, "e0e1");
	expect_both(START, "h2e2", WXF, 0, "C2.5");
	expect_both(START, "h0g2", WXF, 0, "H2+3");
}

static void moves_that_look_legal_but_expose_the_king(void **state)
{
	(void)state;
	/* The rook on e3 shields its king from the rook on e8. */
	expect_error("3k5/4r4/9/9/9/9/4R4/9/9/4K4 w", "车五平四", ZH, XQ_EILLEGAL,
		     "exposes the red king");
	expect_error("3k5/4r4/9/9/9/9/4R4/9/9/4K4 w", "e3f3", XQ_DIALECT_ICCS, XQ_EILLEGAL,
		     "the red rook on e3 cannot move to f3: it exposes the red king");
	/* The horse is the only piece between the kings. */
	expect_error("4k4/9/9/9/9/4N4/9/9/9/4K4 w", "马五进四", ZH, XQ_EILLEGAL,
		     "kings would face each other");
	/* In check from the rook on i0, a rook move elsewhere does not help. */
	expect_error("3k5/9/9/9/R8/9/9/9/9/4K3r w", "车九进一", ZH, XQ_EILLEGAL,
		     "leaves the red king in check");
	expect_error("3k5/9/9/9/R8/9/9/9/9/4K3r w", "R9+1", WXF, XQ_EILLEGAL,
		     "leaves the red king in check");
}

static void errors_say_why_the_piece_cannot_move(void **state)
{
	(void)state;
	expect_error(START, "马二进四", ZH, XQ_EILLEGAL, "horse's leg at g0 is blocked");
	expect_error("3k5/9/9/9/9/9/9/9/3N5/2B1K4 w", "相七进五", ZH, XQ_EILLEGAL,
		     "elephant's eye at d1 is blocked");
	expect_error("3k5/9/9/9/9/2B6/9/9/9/4K4 w", "相七进五", ZH, XQ_EILLEGAL,
		     "cannot cross the river");
	expect_error(START, "仕四进三", ZH, XQ_EILLEGAL, "cannot leave its palace");
	expect_error(START, "炮二进六", ZH, XQ_EILLEGAL, "path is blocked at h7");
	expect_error(START, "兵七退一", ZH, XQ_EILLEGAL, "never move backward");
	expect_error(START, "车一进十", ZH, XQ_EPARSE, "character 4");
	expect_error(START, "车一进九", ZH, XQ_EILLEGAL, "path is blocked");
	expect_error(START, "车九退一", ZH, XQ_EILLEGAL, "off the board");
	expect_error(START, "马二进五", ZH, XQ_EILLEGAL, "cannot reach file 5");
}

static void errors_say_when_no_piece_is_there(void **state)
{
	(void)state;
	expect_error(START, "车三进一", ZH, XQ_ENOTFOUND, "no red rook on file 3");
	expect_error(START, "前车进一", ZH, XQ_ENOTFOUND, "no file holds two or more red rooks");
	expect_error(START, "R+.3", WXF, XQ_ENOTFOUND, "no file holds");
	expect_error(START, "e4e5", XQ_DIALECT_ICCS, XQ_ENOTFOUND, "no piece on e4");
	expect_error(START, "h7e7", XQ_DIALECT_ICCS, XQ_EILLEGAL, "black's, but red is to move");
	expect_error(START, "Rh5", XQ_DIALECT_SAN, XQ_EILLEGAL,
		     "no red rook can move to h5: from a0, the rook moves along a rank or a file; "
		     "from i0, the rook moves along a rank or a file");
	expect_error(START, "Cxe2", XQ_DIALECT_SAN, XQ_EILLEGAL, "e2 is empty");
	expect_error(START, "前兵进一", ZH, XQ_ENOTFOUND, "no file holds two or more red pawns");
}

static void san_reads_origin_hints(void **state)
{
	(void)state;
	expect_read(START, "Che2", XQ_DIALECT_SAN, "h2e2");
	expect_read(START, "Hg2", XQ_DIALECT_SAN, "h0g2");
	expect_read(START, "Cxh9", XQ_DIALECT_SAN, "h2h9");
	expect_read(START, "Ch2h9", XQ_DIALECT_SAN, "h2h9");
	expect_read(START, "c4", XQ_DIALECT_SAN, "c3c4");
	expect_read(START, "Nc2", XQ_DIALECT_SAN, "b0c2");
	expect_error(TWO_RED_ROOKS, "Rh3", XQ_DIALECT_SAN, XQ_EAMBIGUOUS, "on h4 and h2");
	expect_read(TWO_RED_ROOKS, "R2h3", XQ_DIALECT_SAN, "h2h3");
	expect_read(TWO_RED_ROOKS, "R4h3", XQ_DIALECT_SAN, "h4h3");
	expect_read(TWO_RED_ROOKS, "R4h3", XQ_DIALECT_AUTO, "h4h3");
}

static void iccs_and_uci_forms(void **state)
{
	(void)state;
	expect_both(START, "h2e2", XQ_DIALECT_ICCS, 0, "h2e2");
	expect_both(START, "h2e2", XQ_DIALECT_ICCS, XQ_DIALECT_UPPER, "H2E2");
	expect_both(START, "h2e2", XQ_DIALECT_ICCS, XQ_DIALECT_UPPER | XQ_DIALECT_DASH, "H2-E2");
	expect_both(START, "h2e2", XQ_DIALECT_ICCS, XQ_DIALECT_DASH, "h2-e2");
	expect_both(START, "h2e2", XQ_DIALECT_UCI, XQ_DIALECT_UPPER | XQ_DIALECT_DASH, "h2e2");
	expect_write(START, "h2e2", XQ_DIALECT_UCI1, 0, "h3e3");
	expect_read(START, "h3e3", XQ_DIALECT_UCI1, "h2e2");
	expect_read(START, "h2e2", XQ_DIALECT_UCI, "h2e2");
	expect_write("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b", "h9g7",
		     XQ_DIALECT_UCI1, 0, "h10g8");
	expect_read("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b", "h10g8",
		    XQ_DIALECT_UCI1, "h9g7");
	expect_read("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b", "h10-g8",
		    XQ_DIALECT_UCI1, "h9g7");
}

static void rank_ten_is_read_only_when_uci1_is_asked_for(void **state)
{
	static const char *const black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b";

	(void)state;
	expect_error(black, "h10g8", XQ_DIALECT_AUTO, XQ_EPARSE, "uci1");
	expect_error(black, "h10g8", XQ_DIALECT_ICCS, XQ_EPARSE, "rank 10");
	expect_error(black, "h10g8", XQ_DIALECT_UCI, XQ_EPARSE, "rank 10");
	expect_error(START, "a0a1", XQ_DIALECT_UCI1, XQ_EPARSE, "rank 0");
	/* AUTO reads a square like h3 as ICCS rank 3, never as UCI1. */
	expect_error(START, "h3e3", XQ_DIALECT_AUTO, XQ_ENOTFOUND, "no piece on h3");
}

/* ---- grammar, detection, API edges ----------------------------------------- */

static struct xqi_move_request parsed(const char *text, enum xq_dialect dialect)
{
	struct xqi_move_request r;
	struct xq_diagnostic d;

	xqi_diagnostic_init(&d);
	if (xqi_notation_parse(&r, text, strlen(text), dialect, &d))
		fail_msg("parsing '%s': %s", text, d.msg);
	return r;
}

static void parse_fills_a_board_free_request(void **state)
{
	struct xqi_move_request r;

	(void)state;
	r = parsed("R+.3", XQ_DIALECT_AUTO);
	assert_int_equal(r.dialect, XQ_DIALECT_WXF);
	assert_int_equal(r.piece, XQI_ROOK);
	assert_int_equal(r.position, XQI_TANDEM_WXF_FRONT);
	assert_int_equal(r.file, -1);
	assert_int_equal(r.direction, '.');
	assert_int_equal(r.target, 3);
	r = parsed("前九平八", XQ_DIALECT_AUTO);
	assert_int_equal(r.dialect, XQ_DIALECT_CHINESE);
	assert_int_equal(r.piece, XQI_PAWN);
	assert_int_equal(r.position, XQI_TANDEM_FRONT);
	assert_int_equal(r.file, 9);
	assert_int_equal(r.target, 8);
	r = parsed("二7平6", XQ_DIALECT_CHINESE);
	assert_int_equal(r.position, 2);
	assert_int_equal(r.file, 7);
	r = parsed("车前平三", XQ_DIALECT_CHINESE);
	assert_int_equal(r.piece, XQI_ROOK);
	assert_int_equal(r.position, XQI_TANDEM_FRONT);
	r = parsed("++.4", XQ_DIALECT_WXF);
	assert_int_equal(r.piece, XQI_PAWN);
	assert_int_equal(r.position, XQI_TANDEM_WXF_FOREMOST);
	r = parsed("33.4", XQ_DIALECT_WXF);
	assert_int_equal(r.position, XQI_TANDEM_MIDDLE);
	assert_int_equal(r.file, 3);
	r = parsed("Cxb0", XQ_DIALECT_AUTO);
	assert_int_equal(r.dialect, XQ_DIALECT_SAN);
	assert_int_equal(r.piece, XQI_CANNON);
	assert_int_equal(r.capture, 1);
	assert_int_equal(r.to, XQI_SQ(1, 0));
	r = parsed("Afe1", XQ_DIALECT_SAN);
	assert_int_equal(r.piece, XQI_ADVISOR);
	assert_int_equal(r.from_file, 5);
	assert_int_equal(r.from_rank, -1);
	r = parsed("H2-E2", XQ_DIALECT_AUTO);
	assert_int_equal(r.dialect, XQ_DIALECT_ICCS);
	assert_int_equal(r.from, XQI_SQ(7, 2));
	assert_int_equal(r.to, XQI_SQ(4, 2));
	assert_int_equal(r.piece, -1);
	r = parsed("h10g8", XQ_DIALECT_UCI1);
	assert_int_equal(r.dialect, XQ_DIALECT_UCI1);
	assert_int_equal(r.from, XQI_SQ(7, 9));
}

static void expect_parse_error(const char *text, size_t len, enum xq_dialect dialect,
			       const char *needle)
{
	struct xqi_move_request r;
	struct xq_diagnostic d;

	xqi_diagnostic_init(&d);
	if (xqi_notation_parse(&r, text, len, dialect, &d) != XQ_EPARSE)
		fail_msg("'%.*s' parsed in %s", (int)len, text, xqi_notation_name(dialect));
	assert_int_equal(d.code, XQI_D_BAD_MOVE_TEXT);
	if (!strstr(d.msg, needle))
		fail_msg("parsing '%.*s': message '%s' lacks '%s'", (int)len, text, d.msg, needle);
}

static void parse_rejects_annotations_spaces_and_bad_bytes(void **state)
{
	(void)state;
	expect_parse_error("C2.5+", 5, XQ_DIALECT_AUTO, "check mark or annotation");
	expect_parse_error("C2.5+", 5, XQ_DIALECT_WXF, "check mark or annotation");
	expect_parse_error("h2e2!?", 6, XQ_DIALECT_ICCS, "check mark or annotation");
	expect_parse_error("炮二平五＋", strlen("炮二平五＋"), XQ_DIALECT_AUTO, "check mark");
	expect_parse_error("h2 e2", 5, XQ_DIALECT_AUTO, "white space");
	expect_parse_error("", 0, XQ_DIALECT_AUTO, "empty");
	expect_parse_error("\xff\xfe", 2, XQ_DIALECT_AUTO, "byte 1 is not valid UTF-8");
	expect_parse_error("C2.", 3, XQ_DIALECT_WXF, "target");
	expect_parse_error("X2.5", 4, XQ_DIALECT_WXF, "not a WXF piece letter");
	expect_parse_error("H2.3", 4, XQ_DIALECT_WXF, "never moves sideways");
	expect_parse_error("马二平三", strlen("马二平三"), XQ_DIALECT_CHINESE, "never moves sideways");
	expect_parse_error("炮二走五", strlen("炮二走五"), XQ_DIALECT_CHINESE, "character 3 ('走')");
	expect_parse_error("炮二平", strlen("炮二平"), XQ_DIALECT_CHINESE, "four characters");
	expect_parse_error("1-0", 3, XQ_DIALECT_AUTO, "");
	expect_parse_error("h2e2", 4, XQ_DIALECT_WXF, "");
	expect_parse_error("i9j9", 4, XQ_DIALECT_ICCS, "not a coordinate move");
	expect_parse_error("Gc7", 3, XQ_DIALECT_SAN, "not a SAN piece letter");
	expect_parse_error("5e6", 3, XQ_DIALECT_SAN, "starts with a piece letter");
	expect_parse_error("C2.5 and some more text", 23, XQ_DIALECT_AUTO, "too long");
}

static void detect_names_the_dialect_of_one_token(void **state)
{
	static const struct {
		const char *text;
		enum xq_dialect dialect;
	} cases[] = {
		{"h2e2", XQ_DIALECT_ICCS},	  {"H2-E2", XQ_DIALECT_ICCS},
		{"h3e3", XQ_DIALECT_ICCS},	  {"h10g8", XQ_DIALECT_UCI1},
		{"a10a0", XQ_DIALECT_AUTO},	  {"h2e2!?", XQ_DIALECT_ICCS},
		{"C2.5", XQ_DIALECT_WXF},	  {"C2.5+", XQ_DIALECT_WXF},
		{"Ｃ２＝５", XQ_DIALECT_WXF},	  {"＋Ｐ＋１", XQ_DIALECT_WXF},
		{"3+.4", XQ_DIALECT_WXF},	  {"炮二平五", XQ_DIALECT_CHINESE},
		{"馬８進７", XQ_DIALECT_CHINESE}, {"前九平八", XQ_DIALECT_CHINESE},
		{"Che2", XQ_DIALECT_SAN},	  {"Rxd9#", XQ_DIALECT_SAN},
		{"exe6", XQ_DIALECT_SAN},	  {"A9e8", XQ_DIALECT_SAN},
		{"a9e8", XQ_DIALECT_ICCS},	  {"1.", XQ_DIALECT_AUTO},
		{"12...", XQ_DIALECT_AUTO},	  {"1-0", XQ_DIALECT_AUTO},
		{"0-1", XQ_DIALECT_AUTO},	  {"1/2-1/2", XQ_DIALECT_AUTO},
		{"*", XQ_DIALECT_AUTO},	  {"$1", XQ_DIALECT_AUTO},
		{"红胜", XQ_DIALECT_AUTO},	  {"{comment}", XQ_DIALECT_AUTO},
		{"", XQ_DIALECT_AUTO},		  {"中炮对屏风马", XQ_DIALECT_AUTO},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum xq_dialect got = xqi_notation_detect(cases[i].text, strlen(cases[i].text));
		if (got != cases[i].dialect)
			fail_msg("'%s' detected as %s, expected %s", cases[i].text,
				 xqi_notation_name(got), xqi_notation_name(cases[i].dialect));
	}
}

static void strip_suffix_cuts_only_trailing_annotations(void **state)
{
	(void)state;
	assert_int_equal(xqi_notation_strip_suffix("C2.5+", 5), 4);
	assert_int_equal(xqi_notation_strip_suffix("h2e2!?", 6), 4);
	assert_int_equal(xqi_notation_strip_suffix("Rxd9#", 5), 4);
	assert_int_equal(xqi_notation_strip_suffix("R+.3", 4), 4);
	assert_int_equal(xqi_notation_strip_suffix("+P+1", 4), 4);
	assert_int_equal(xqi_notation_strip_suffix("炮二平五！", strlen("炮二平五！")),
			 strlen("炮二平五"));
	assert_int_equal(xqi_notation_strip_suffix("++", 2), 0);
}

static void notation_names_round_trip(void **state)
{
	enum xq_dialect n;

	(void)state;
	for (int i = XQ_DIALECT_AUTO; i <= XQ_DIALECT_SAN; i++) {
		assert_int_equal(xqi_notation_from_name(xqi_notation_name((enum xq_dialect)i), &n), 0);
		assert_int_equal(n, i);
	}
	assert_string_equal(xqi_notation_name(XQ_DIALECT_UCI1), "uci1");
	assert_int_equal(xqi_notation_from_name("klingon", &n), XQ_ENOTFOUND);
}

static void write_refuses_illegal_moves_unwritable_dialects_and_small_buffers(void **state)
{
	struct xqi_position b = pos(START), before = b;
	char out[XQ_MOVE_TEXT_SIZE];

	(void)state;
	assert_int_equal(xqi_notation_write(out, sizeof(out), &b, mv("h2h8"), ZH, 0), 0);
	assert_string_equal(out, "");
	assert_int_equal(xqi_notation_write(out, sizeof(out), &b, mv("e4e5"), XQ_DIALECT_ICCS, 0), 0);
	assert_int_equal(xqi_notation_write(out, sizeof(out), &b, 0, WXF, 0), 0);
	assert_int_equal(xqi_notation_write(out, sizeof(out), &b, mv("h2e2"), XQ_DIALECT_SAN, 0), 0);
	assert_int_equal(xqi_notation_write(out, sizeof(out), &b, mv("h2e2"), XQ_DIALECT_AUTO, 0), 0);
	/* 炮二平五 is 12 bytes: 12 do not hold it with the NUL, 13 do. */
	assert_int_equal(xqi_notation_write(out, 12, &b, mv("h2e2"), ZH, 0), 0);
	assert_string_equal(out, "");
	assert_int_equal(xqi_notation_write(out, 13, &b, mv("h2e2"), ZH, 0), 12);
	assert_string_equal(out, "炮二平五");
	/* Trusted writing still refuses what it cannot describe. */
	assert_int_equal(xqi_notation_write(out, sizeof(out), &b, mv("e4e5"), ZH,
					   XQI_DIALECT_KNOWN_LEGAL), 0);
	assert_int_equal(xqi_notation_write(out, sizeof(out), &b, mv("h7e7"), WXF,
					   XQI_DIALECT_KNOWN_LEGAL), 0);
	assert_int_equal(xqi_notation_write(out, sizeof(out), &b, mv("a0a3"), WXF,
					   XQI_DIALECT_KNOWN_LEGAL), 0);
	assert_int_equal(xqi_notation_write(out, sizeof(out), &b, 0, ZH, XQI_DIALECT_KNOWN_LEGAL), 0);
	assert_memory_equal(&b, &before, sizeof(b));
}

static void resolve_takes_a_request_built_by_hand(void **state)
{
	struct xqi_position b = pos(TWO_RED_ROOKS);
	struct xqi_move_request r;
	struct xq_diagnostic d;
	xqi_move m = 0;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.dialect = XQ_DIALECT_CHINESE;
	r.piece = XQI_ROOK;
	r.file = -1;
	r.from_file = r.from_rank = -1;
	r.position = XQI_TANDEM_REAR;
	r.direction = '+';
	r.target = 1;
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_notation_resolve(&m, &b, &r, &d), 0);
	assert_int_equal(m, mv("h2h3"));
	r.dialect = XQ_DIALECT_AUTO;
	assert_int_equal(xqi_notation_resolve(&m, &b, &r, &d), XQ_ENOTFOUND);
}

/* ---- the property: every legal move, every dialect, reads back --------------- */

struct variant {
	enum xq_dialect dialect;
	unsigned flags;
};

static const struct variant variants[] = {
	{XQ_DIALECT_ICCS, 0},
	{XQ_DIALECT_ICCS, XQ_DIALECT_UPPER},
	{XQ_DIALECT_ICCS, XQ_DIALECT_DASH},
	{XQ_DIALECT_ICCS, XQ_DIALECT_UPPER | XQ_DIALECT_DASH},
	{XQ_DIALECT_UCI, 0},
	{XQ_DIALECT_UCI1, 0},
	{XQ_DIALECT_WXF, 0},
	{XQ_DIALECT_CHINESE, 0},
	{XQ_DIALECT_CHINESE, XQ_DIALECT_TRADITIONAL},
	{XQ_DIALECT_CHINESE, XQ_DIALECT_ASCII_DIGITS},
	{XQ_DIALECT_CHINESE, XQ_DIALECT_DPXQ_PAWNS},
	{XQ_DIALECT_CHINESE,
	 XQ_DIALECT_DPXQ_PAWNS | XQ_DIALECT_TRADITIONAL | XQ_DIALECT_ASCII_DIGITS},
};
#define NVARIANTS (sizeof(variants) / sizeof(variants[0]))

/* SAN as WinBoard writes it (a test-only writer, since xqkit reads SAN only). */
static void san_text(const struct xqi_position *b, xqi_move m, const xqi_move *all, int n, char *out)
{
	static const char letters[] = "KAEHRC";
	xqi_sq from = XQI_MOVE_FROM(m), to = XQI_MOVE_TO(m);
	int type = XQI_KIND_TYPE(xqi_position_kind(b, from)), others = 0, same_file = 0,
	    same_rank = 0;
	char *p = out;

	for (int i = 0; i < n; i++) {
		xqi_sq f = XQI_MOVE_FROM(all[i]);
		if (all[i] == m || XQI_MOVE_TO(all[i]) != to ||
		    XQI_KIND_TYPE(xqi_position_kind(b, f)) != type)
			continue;
		others++;
		same_file += XQI_SQ_FILE(f) == XQI_SQ_FILE(from);
		same_rank += XQI_SQ_RANK(f) == XQI_SQ_RANK(from);
	}
	if (type != XQI_PAWN)
		*p++ = letters[type];
	if (others && (!same_file || same_rank)) {
		*p++ = (char)('a' + XQI_SQ_FILE(from));
		if (same_file && same_rank)
			*p++ = (char)('0' + XQI_SQ_RANK(from));
	} else if (others) {
		*p++ = (char)('0' + XQI_SQ_RANK(from));
	} else if (type == XQI_PAWN && b->sq[to]) {
		*p++ = (char)('a' + XQI_SQ_FILE(from));
	}
	if (b->sq[to])
		*p++ = 'x';
	*p++ = (char)('a' + XQI_SQ_FILE(to));
	*p++ = (char)('0' + XQI_SQ_RANK(to));
	*p = '\0';
}

static int cmp_text(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

static enum xq_dialect family(enum xq_dialect n)
{
	return n == XQ_DIALECT_UCI ? XQ_DIALECT_ICCS : n;
}

static unsigned long roundtrips;

/* Every legal move of `b`, in every dialect, reads back as itself, and no
 * two moves share a text. */
static void roundtrip_position(struct xqi_position *b, const char *where)
{
	xqi_move moves[XQ_MOVES_MAX];
	static char texts[XQ_MOVES_MAX][XQ_MOVE_TEXT_SIZE];
	struct xqi_position before = *b;
	int n = xqi_gen_legal(b, moves);
	char fen[XQ_FEN_SIZE];

	xqi_position_to_fen(b, fen, sizeof(fen));
	for (size_t v = 0; v <= NVARIANTS; v++) {
		int san = v == NVARIANTS;
		enum xq_dialect dialect = san ? XQ_DIALECT_SAN : variants[v].dialect;
		for (int i = 0; i < n; i++) {
			struct xq_diagnostic d;
			xqi_move back = 0;
			size_t len;
			if (san) {
				san_text(b, moves[i], moves, n, texts[i]);
				len = strlen(texts[i]);
			} else {
				len = xqi_notation_write(texts[i], XQ_MOVE_TEXT_SIZE, b, moves[i], dialect,
							variants[v].flags);
				if (len == 0 || len != strlen(texts[i]))
					fail_msg("%s: no %s text for move %d of %s", where,
						 xqi_notation_name(dialect), i, fen);
				{
					/* Vouching for the move changes nothing but the cost. */
					char trusted[XQ_MOVE_TEXT_SIZE];
					xqi_notation_write(trusted, sizeof(trusted), b, moves[i], dialect,
							  variants[v].flags | XQI_DIALECT_KNOWN_LEGAL);
					if (strcmp(trusted, texts[i]) != 0)
						fail_msg("%s: trusted write '%s' differs from '%s'", where,
							 trusted, texts[i]);
				}
			}
			xqi_diagnostic_init(&d);
			if (xqi_notation_read(&back, b, texts[i], len, dialect, &d) || back != moves[i])
				fail_msg("%s: %s '%s' did not read back in %s: %s", where,
					 xqi_notation_name(dialect), texts[i], fen, d.msg);
			/* Told whether the side to move is in check (as a reader that
			 * follows a game is), the same move. */
			back = 0;
			if (xqi_notation_read_hinted(&back, b, texts[i], len, dialect,
						    xqi_position_king_attacked(b, b->side), &d) ||
			    back != moves[i])
				fail_msg("%s: %s '%s' did not read back hinted in %s: %s", where,
					 xqi_notation_name(dialect), texts[i], fen, d.msg);
			if (dialect != XQ_DIALECT_UCI1) {
				enum xq_dialect det = xqi_notation_detect(texts[i], len);
				if (family(det) != family(dialect))
					fail_msg("%s: '%s' detected as %s", where, texts[i],
						 xqi_notation_name(det));
				if (xqi_notation_read(&back, b, texts[i], len, XQ_DIALECT_AUTO, &d) ||
				    back != moves[i])
					fail_msg("%s: '%s' did not read back with auto in %s: %s", where,
						 texts[i], fen, d.msg);
			}
			roundtrips++;
		}
		qsort(texts, (size_t)n, XQ_MOVE_TEXT_SIZE, cmp_text);
		for (int i = 1; i < n; i++)
			if (strcmp(texts[i - 1], texts[i]) == 0)
				fail_msg("%s: two moves share the %s text '%s' in %s", where,
					 xqi_notation_name(dialect), texts[i], fen);
	}
	if (memcmp(b, &before, sizeof(*b)) != 0)
		fail_msg("%s: the board was not restored", where);
}

static void every_move_of_the_perft_suite_reads_back_in_every_dialect(void **state)
{
	FILE *f = fopen("tests/data/perft.tsv", "r");
	char line[1024], last[256] = "";
	int positions = 0;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *fen = strchr(line, '\t'), *end;
		struct xqi_position b;
		xqi_move moves[XQ_MOVES_MAX];
		struct xqi_undo u;
		int n;
		if (!fen || strncmp(line, "id\t", 3) == 0)
			continue;
		fen++;
		end = strchr(fen, '\t');
		if (!end)
			continue;
		*end = '\0';
		if (strcmp(fen, last) == 0)
			continue;
		snprintf(last, sizeof(last), "%s", fen);
		b = pos(fen);
		roundtrip_position(&b, "perft suite");
		positions++;
		/* And every position one ply further. */
		n = xqi_gen_legal(&b, moves);
		for (int i = 0; i < n; i++) {
			xqi_position_make(&b, moves[i], &u);
			roundtrip_position(&b, "perft suite, one ply on");
			xqi_position_unmake(&b, moves[i], &u);
			positions++;
		}
	}
	fclose(f);
	fprintf(stderr, "perft suite: %d positions\n", positions);
	assert_true(positions > 500);
}

/* A small deterministic generator for the random positions. */
static uint64_t rng_next(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

static xqi_sq random_square(uint64_t *s, uint8_t flag, int side)
{
	for (;;) {
		xqi_sq sq = XQI_SQ((int)(rng_next(s) % 9), (int)(rng_next(s) % 10));
		if (flag && !(xqi_square_flags[sq] & flag))
			continue;
		if (flag == XQI_SQF_ADVISOR || flag == XQI_SQF_ELEPHANT || flag == XQI_SQF_PALACE)
			if (XQI_SQ_SIDE_HALF(sq) != side)
				continue;
		return sq;
	}
}

/*
 * A legal-looking position crowded with tandem pieces: pawns piled on one
 * or two files across the river, rooks, horses and cannons paired on a
 * file, advisors and elephants sharing files.  With `free_placement`,
 * advisors and elephants go anywhere on their side's half (composed
 * problems), which is where they could need a qualifier.
 */
static int random_tandem_position(struct xqi_position *b, uint64_t *s, int free_placement)
{
	unsigned flags = free_placement ? XQI_FEN_LENIENT_PLACEMENT : 0;

	xqi_position_clear(b);
	for (int side = 0; side < 2; side++) {
		uint8_t pawn_flag = side == XQI_RED ? XQI_SQF_PAWN_RED : XQI_SQF_PAWN_BLACK;
		int pile[2] = {(int)(rng_next(s) % 9), (int)(rng_next(s) % 9)};
		xqi_position_put(b, side, XQI_KING, random_square(s, XQI_SQF_PALACE, side), NULL);
		for (int i = 0; i < 2; i++) {
			if (rng_next(s) % 3)
				xqi_position_put(b, side, XQI_ADVISOR,
					     random_square(s, free_placement ? 0 : XQI_SQF_ADVISOR, side),
					     NULL);
			if (rng_next(s) % 3)
				xqi_position_put(b, side, XQI_ELEPHANT,
					     random_square(s, free_placement ? 0 : XQI_SQF_ELEPHANT, side),
					     NULL);
		}
		for (int type = XQI_HORSE; type <= XQI_CANNON; type++) {
			int col = (int)(rng_next(s) % 9);
			for (int i = 0; i < 2; i++) {
				xqi_sq sq;
				if (rng_next(s) % 4 == 0)
					continue;
				/* Half the time on one shared file. */
				if (rng_next(s) % 2)
					sq = XQI_SQ(col, (int)(rng_next(s) % 10));
				else
					sq = random_square(s, 0, side);
				xqi_position_put(b, side, type, sq, NULL);
			}
		}
		for (int i = 0; i < 5; i++) {
			xqi_sq sq;
			int mode = (int)(rng_next(s) % 4);
			if (mode < 3) {
				/* On one of the two pile files, across the river. */
				int col = pile[mode == 2], rank = (int)(rng_next(s) % 5);
				sq = XQI_SQ(col, side == XQI_RED ? 5 + rank : 4 - rank);
			} else {
				sq = random_square(s, pawn_flag, side);
			}
			xqi_position_put(b, side, XQI_PAWN, sq, NULL);
		}
	}
	b->side = (uint8_t)(rng_next(s) % 2);
	b->key = xqi_position_compute_key(b);
	return xqi_position_validate(b, flags, NULL) == 0;
}

static void every_move_of_random_tandem_positions_reads_back(void **state)
{
	uint64_t seed = 20240531;
	int positions = 0, tandem_pawns = 0;

	(void)state;
	while (positions < 4000) {
		struct xqi_position b;
		if (!random_tandem_position(&b, &seed, positions % 4 == 3))
			continue;
		for (int side = 0; side < 2; side++)
			for (int col = 0; col < 9; col++) {
				int k = 0;
				for (int id = 11; id < 16; id++) {
					xqi_sq s = b.pc[XQI_SIDE_TAG(side) + id];
					k += s && XQI_SQ_FILE(s) == col;
				}
				tandem_pawns += k >= 3;
			}
		roundtrip_position(&b, "random tandem position");
		positions++;
	}
	/* The generator must really produce the hard cases. */
	assert_true(tandem_pawns > 1000);
}

/* ---- reading real records ------------------------------------------------- */

/* A file read whole and decoded to UTF-8 (NULL if it cannot be). */
static char *slurp(const char *path, enum xqi_encoding enc, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct xq_buf raw = XQ_BUF_INIT, text = XQ_BUF_INIT;
	char chunk[65536];
	size_t n, bad;

	if (!f)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		xq_buf_add(&raw, chunk, n);
	fclose(f);
	if (enc == XQI_ENC_UNKNOWN) {
		size_t bom = 0;
		enc = xqi_encoding_detect(raw.ptr, raw.len, &bom);
		if (bom)
			memmove(raw.ptr, raw.ptr + bom, raw.len - bom), raw.len -= bom;
	}
	if (xqi_decode(enc, raw.ptr, raw.len, &text, &bad) != 0) {
		xq_buf_release(&raw);
		xq_buf_release(&text);
		return NULL;
	}
	xq_buf_release(&raw);
	return xq_buf_detach(&text, len);
}

/*
 * A test-only PGN movetext walker: skips tags, {comments}, ;comments,
 * move numbers, NAGs and results, and reports moves and the ( ) of
 * variations.  Enough for the corpus records, not a PGN reader.
 */
enum ev_kind { EV_END, EV_MOVE, EV_OPEN, EV_CLOSE, EV_GAME };

struct walker {
	const char *p, *end;
	char fen[128]; /* the current game's FEN tag, "" if none */
	int moves;     /* moves seen in the current game */
	int over;      /* a result token ended the movetext: skip to the next tag */
	int lenient;   /* bare move lists: skip words that are not moves, take FEN lines */
	int skipped;   /* words skipped that way */
};

static void walker_init(struct walker *w, const char *text, size_t len)
{
	w->p = text;
	w->end = text + len;
	w->fen[0] = '\0';
	w->moves = 0;
	w->over = 0;
	w->lenient = 0;
	w->skipped = 0;
}

static int is_result(const char *t, size_t n)
{
	static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "*"};
	for (size_t i = 0; i < 4; i++)
		if (strlen(results[i]) == n && memcmp(t, results[i], n) == 0)
			return 1;
	return 0;
}

static enum ev_kind walker_next(struct walker *w, const char **tok, size_t *len)
{
	while (w->p < w->end) {
		unsigned char c = (unsigned char)*w->p;
		const char *start;
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\0') {
			w->p++;
		} else if (c == '[') {
			/* A tag (its value may run over lines); after moves, a new game. */
			const char *q = strstr(w->p, "\"]");
			w->over = 0;
			if (w->moves) {
				w->moves = 0;
				w->fen[0] = '\0';
				return EV_GAME;
			}
			if (!strncmp(w->p, "[FEN \"", 6) && q && q - (w->p + 6) < (long)sizeof(w->fen))
				snprintf(w->fen, sizeof(w->fen), "%.*s", (int)(q - (w->p + 6)), w->p + 6);
			w->p = q ? q + 2 : w->end;
		} else if (c == '{') {
			while (w->p < w->end && *w->p != '}')
				w->p++;
			w->p++;
		} else if (c == ';') {
			while (w->p < w->end && *w->p != '\n')
				w->p++;
		} else if (w->over && c != '[') {
			w->p++;
		} else if (c == '(') {
			w->p++;
			return EV_OPEN;
		} else if (c == ')') {
			w->p++;
			return EV_CLOSE;
		} else if (!strncmp(w->p, "\xe3\x80\x80", 3)) { /* ideographic space */
			w->p += 3;
		} else {
			start = w->p;
			while (w->p < w->end && !strchr(" \t\r\n(){}", *w->p) &&
			       strncmp(w->p, "\xe3\x80\x80", 3))
				w->p++;
			*tok = start;
			*len = (size_t)(w->p - start);
			if (w->lenient && memchr(*tok, '/', *len) && *len < 100) {
				/* A FEN line starts a position: "board side" (after a
				 * heading's full-width colon, in some). */
				int game = w->moves > 0;
				const char *side = w->p;
				if (*len > 3 && !strncmp(*tok, "\xef\xbc\x9a", 3))
					*tok += 3, *len -= 3;
				while (side < w->end && *side == ' ')
					side++;
				snprintf(w->fen, sizeof(w->fen), "%.*s %c", (int)*len, *tok,
					 side < w->end && *side == 'b' ? 'b' : 'w');
				if (side < w->end && (*side == 'b' || *side == 'w'))
					w->p = side + 1;
				if (game) {
					w->moves = 0;
					return EV_GAME;
				}
				continue;
			}
			/* Move numbers ("12.", "12...", "1.h2e2", not WXF's "33.4"), NAGs
			 * and results. */
			{
				size_t k = 0;
				while (k < *len && xq_is_digit((unsigned char)(*tok)[k]))
					k++;
				if (k > 0 && k < *len && (*tok)[k] == '.' &&
				    !(k == 2 && (*tok)[0] == (*tok)[1] && *len == 4)) {
					while (k < *len && (*tok)[k] == '.')
						k++;
					*tok += k;
					*len -= k;
				}
				while (*len && **tok == '.') /* "..." on its own; no move starts with '.' */
					(*tok)++, (*len)--;
			}
			if (is_result(*tok, *len))
				w->over = 1;
			if (*len == 0 || **tok == '$' || w->over)
				continue;
			*len = xqi_notation_strip_suffix(*tok, *len);
			if (w->lenient && xqi_notation_detect(*tok, *len) == XQ_DIALECT_AUTO) {
				w->skipped++;
				continue;
			}
			w->moves++;
			return EV_MOVE;
		}
	}
	return EV_END;
}

/*
 * The board part of a FEN (the side to move is fixed from the first move).
 * Returns 0, or -1 for a FEN that describes no playable position (a few
 * opening studies in the corpus leave out a king).
 */
static int try_start_board(struct xqi_position *b, const char *fen)
{
	char board[100];
	size_t n = strcspn(fen, " ");

	if (!fen[0]) {
		xqi_position_start(b);
		return 0;
	}
	/* The side as written when it is clear, else the other one if the
	 * written one leaves the side not to move in check. */
	for (int k = 0; k < 2; k++) {
		int black = (strstr(fen, " b") && !strstr(fen, " -b")) ^ k;
		snprintf(board, sizeof(board), "%.*s %s", (int)n, fen, black ? "b" : "w");
		if (xqi_position_from_fen(b, board, strlen(board), XQI_FEN_LENIENT_PLACEMENT, NULL) == 0)
			return 0;
	}
	return -1;
}

static struct xqi_position start_board(const char *fen)
{
	struct xqi_position b;

	if (try_start_board(&b, fen))
		fail_msg("unplayable FEN '%s'", fen);
	return b;
}

static int unplayable_games;

/* A variation stack for replaying: the position before the last move too. */
#define DEPTH_MAX 64
struct replay {
	struct xqi_position cur, prev;
	int ply; /* moves made in the main line */
	struct xqi_position stack_cur[DEPTH_MAX], stack_prev[DEPTH_MAX];
	int depth;
};

static void replay_move(struct replay *r, xqi_move m)
{
	struct xqi_undo u;
	r->prev = r->cur;
	xqi_position_make(&r->cur, m, &u);
}

static void replay_event(struct replay *r, enum ev_kind k)
{
	if (k == EV_OPEN) {
		assert_true(r->depth < DEPTH_MAX);
		r->stack_cur[r->depth] = r->cur;
		r->stack_prev[r->depth] = r->prev;
		r->depth++;
		r->cur = r->prev; /* a variation replaces the move before it */
	} else if (k == EV_CLOSE) {
		assert_true(r->depth > 0);
		r->depth--;
		r->cur = r->stack_cur[r->depth];
		r->prev = r->stack_prev[r->depth];
	}
}

/* If the first move does not fit the side to move, the other side starts
 * (records do not all say who moves first), when that position is valid. */
static void fix_first_side(struct xqi_position *b, const char *tok, size_t len, enum xq_dialect n)
{
	struct xqi_position other = *b;
	xqi_move m;

	if (xqi_notation_read(&m, b, tok, len, n, NULL) == 0)
		return;
	other.side ^= 1;
	other.key = xqi_position_compute_key(&other);
	if (xqi_position_validate(&other, XQI_FEN_LENIENT_PLACEMENT, NULL) == 0 &&
	    xqi_notation_read(&m, &other, tok, len, n, NULL) == 0)
		*b = other;
}

/* `src` with every `from` replaced by `to`. */
static void replace_all(const char *src, const char *from, const char *to, char *out, size_t cap)
{
	size_t n = 0, fl = strlen(from), tl = strlen(to);

	while (*src && n + 1 < cap) {
		if (strncmp(src, from, fl) == 0 && n + tl < cap) {
			memcpy(out + n, to, tl);
			n += tl;
			src += fl;
		} else {
			out[n++] = *src++;
		}
	}
	out[n] = '\0';
}

static char *shared_path(const char *dir, const char *rel, char *buf, size_t cap)
{
	if ((size_t)snprintf(buf, cap, "%s/%s", dir, rel) >= cap)
		fail_msg("path too long: %s/%s", dir, rel);
	return buf;
}

/*
 * Known defects of the real texts, where the descriptive text names a
 * different legal move than its coordinate twin:
 * - hbsxcjp/cchess_c writes 前/中/后 for a pawn by counting every pawn of
 *   the side (src/board.c, getZhStr and getSortPawnLiveSeats), not the
 *   pawns on its file.  In 神骑突围 red has pawns on g8 and g7 (and e9);
 *   it wrote 前兵平四 for g7f7, the rear pawn.  前兵平四 is g8f8.
 * - wukong's WXF writes the front of red's two pawns on e5 and e3 as
 *   `－Ｐ＋１` (game 2, ply 71), though it marks front pieces `+` in every
 *   other case (black pawns, red and black rooks, horses, cannons).
 *   `-P+1` is the rear pawn, e3e4.
 * In both the text must be read as written, never "corrected".
 */
static const struct {
	const char *record; /* a unique part of the file name */
	int game, ply;      /* 1-based; ply in the main line */
	const char *text, *reads_as, *truth;
} known_defects[] = {
	{"神骑突围", 1, 9, "前兵平四", "g8f8", "g7f7"},
	{"bulk_games.pgn", 2, 71, "－Ｐ＋１", "e3e4", "e5e6"},
};

/*
 * Replay two texts of the same game side by side (with their variations)
 * and check that every pair of moves reads as the same move; every
 * position on the way also goes through the round-trip property.  Returns
 * the number of moves compared.
 */
static int defects_seen;

static int known_defect(const char *name, int game, int ply, const char *text, size_t len,
			xqi_move read, xqi_move truth)
{
	for (size_t i = 0; i < sizeof(known_defects) / sizeof(known_defects[0]); i++)
		if (strstr(name, known_defects[i].record) && known_defects[i].game == game &&
		    known_defects[i].ply == ply &&
		    strlen(known_defects[i].text) == len && !memcmp(known_defects[i].text, text, len) &&
		    read == mv(known_defects[i].reads_as) && truth == mv(known_defects[i].truth))
			return 1;
	return 0;
}

static int agree(const char *a, size_t alen, enum xq_dialect an, const char *b, size_t blen,
		 enum xq_dialect bn, const char *name)
{
	struct walker wa, wb;
	static struct replay r;
	const char *ta = NULL, *tb = NULL;
	size_t la = 0, lb = 0;
	int moves = 0, first = 1, game = 1;

	walker_init(&wa, a, alen);
	walker_init(&wb, b, blen);
	memset(&r, 0, sizeof(r));
	for (;;) {
		enum ev_kind ka = walker_next(&wa, &ta, &la), kb = walker_next(&wb, &tb, &lb);
		struct xq_diagnostic d;
		xqi_move ma = 0, mb = 0;
		if (ka != kb)
			fail_msg("%s: the texts diverge after %d moves", name, moves);
		if (ka == EV_END)
			break;
		if (ka == EV_GAME) {
			memset(&r, 0, sizeof(r));
			first = 1;
			game++;
			continue;
		}
		if (ka != EV_MOVE) {
			replay_event(&r, ka);
			continue;
		}
		if (first) {
			r.cur = start_board(wb.fen);
			fix_first_side(&r.cur, tb, lb, bn);
			r.prev = r.cur;
		}
		first = 0;
		/* Every position of the record is a real-game position for the property. */
		roundtrip_position(&r.cur, name);
		xqi_diagnostic_init(&d);
		if (xqi_notation_read(&ma, &r.cur, ta, la, an, &d))
			fail_msg("%s: move %d '%.*s': %s", name, moves + 1, (int)la, ta, d.msg);
		if (xqi_notation_read(&mb, &r.cur, tb, lb, bn, &d))
			fail_msg("%s: move %d '%.*s': %s", name, moves + 1, (int)lb, tb, d.msg);
		if (ma != mb) {
			char got[5], truth[5];
			xqi_move_name(ma, got);
			xqi_move_name(mb, truth);
			if (r.depth > 0 || !known_defect(name, game, r.ply + 1, ta, la, ma, mb))
				fail_msg("%s: move %d: '%.*s' (%s) and '%.*s' (%s) differ", name,
					 moves + 1, (int)la, ta, got, (int)lb, tb, truth);
			defects_seen++;
			ma = mb; /* follow the coordinates, which come from the XQF */
		} else {
			/* Auto-detection reads both the same way. */
			assert_int_equal(xqi_notation_read(&ma, &r.cur, ta, la, XQ_DIALECT_AUTO, &d), 0);
			assert_int_equal(ma, mb);
		}
		if (r.depth == 0)
			r.ply++;
		replay_move(&r, ma);
		moves++;
	}
	return moves;
}

/* The main line of a .pgn_cc record: the first column of its move grid. */
static int cc_main_line(const char *text, char moves[][16], int cap)
{
	const char *p = strstr(text, "\xe5\xbc\x80\xe5\xa7\x8b"); /* 开始 */
	int n = 0;

	if (!p)
		return 0;
	p = strchr(p, '\n');
	while (p && *++p && n < cap) {
		const char *eol = strchr(p, '\n'), *q = p;
		int chars = 0;
		char cell[16];
		size_t len = 0;
		/* The first cell: four characters. */
		while (q < (eol ? eol : p + strlen(p)) && chars < 4) {
			size_t k = xq_utf8_valid_prefix(q, 4);
			if (!k)
				break;
			if (len + k < sizeof(cell))
				memcpy(cell + len, q, k), len += k;
			q += k;
			chars++;
		}
		cell[len] = '\0';
		if (chars == 4 && !strstr(cell, "\xe2\x86\x93") && /* not the ↓ line */
		    strncmp(cell, "\xe3\x80\x80", 3) != 0) {
			snprintf(moves[n++], 16, "%s", cell);
		} else if (chars == 4 && !strstr(cell, "\xe2\x86\x93")) {
			break; /* an empty cell ends the main line */
		}
		p = eol;
	}
	return n;
}

/* Called before each main-line move with the position and the move's text. */
typedef void (*visit_fn)(struct xqi_position *b, int game, int ply, const char *tok, size_t len,
			 void *ctx);

/*
 * Replay the main line of every game of a record, reading each move in
 * `dialect` and with auto-detection (which must agree).  A move that does
 * not read fails the test.  Returns the number of moves read.
 */
static int replay_games(const char *text, size_t len, enum xq_dialect dialect, const char *name,
			visit_fn visit, void *ctx, int *games, int lenient)
{
	struct walker w;
	struct xqi_position b;
	const char *tok = NULL;
	size_t tl = 0;
	enum ev_kind k;
	int depth = 0, need_start = 1, ply = 0, moves = 0;

	*games = 0;
	walker_init(&w, text, len);
	w.lenient = lenient;
	while ((k = walker_next(&w, &tok, &tl)) != EV_END) {
		struct xq_diagnostic d;
		struct xqi_undo u;
		xqi_move m, a;
		if (k == EV_GAME) {
			need_start = 1;
			depth = 0;
			continue;
		}
		depth += k == EV_OPEN ? 1 : k == EV_CLOSE ? -1 : 0;
		if (k != EV_MOVE || depth > 0)
			continue;
		if (need_start == 2)
			continue; /* the rest of a game that cannot be played */
		if (need_start) {
			if (try_start_board(&b, w.fen)) {
				fprintf(stderr, "%s: skipped a game with the unplayable FEN '%s'\n", name,
					w.fen);
				unplayable_games++;
				need_start = 2;
				continue;
			}
			fix_first_side(&b, tok, tl, dialect);
			need_start = 0;
			(*games)++;
			ply = 0;
		}
		if (visit)
			visit(&b, *games, ply, tok, tl, ctx);
		xqi_diagnostic_init(&d);
		if (xqi_notation_read(&m, &b, tok, tl, dialect, &d))
			fail_msg("%s: game %d, ply %d, '%.*s': %s", name, *games, ply + 1, (int)tl, tok,
				 d.msg);
		if (xqi_notation_read(&a, &b, tok, tl, XQ_DIALECT_AUTO, &d) || a != m)
			fail_msg("%s: game %d, ply %d, '%.*s' reads differently with auto: %s", name,
				 *games, ply + 1, (int)tl, tok, d.msg);
		xqi_position_make(&b, m, &u);
		ply++;
		moves++;
	}
	if (lenient)
		fprintf(stderr, "%s: skipped %d words that are not moves\n", name, w.skipped);
	return moves;
}

static void sample_position(struct xqi_position *b, int game, int ply, const char *tok, size_t len,
			    void *ctx)
{
	int *sampled = ctx;

	(void)tok;
	(void)len;
	/* Every 16th ply, at a different phase in each game. */
	if ((ply + game) % 16 == 0) {
		roundtrip_position(b, "real game");
		(*sampled)++;
	}
}

static void every_move_of_positions_from_real_games_reads_back(void **state)
{
	static const struct {
		const char *path;
		enum xqi_encoding enc;
	} files[] = {
		{"corpus/pgn/maksimKorzh__wukong-xiangqi/xqdb/xqdb/Liu_Dahua_1125_UCI_games.pgn",
		 XQI_ENC_UTF8},
		{"corpus/pgn/maksimKorzh__wukong-xiangqi/xiangqi_pgn_parser/bulk_games_uci.pgn",
		 XQI_ENC_UTF8},
		{"corpus/pgn/hbsxcjp__cchess/01.pgn_iccs", XQI_ENC_GB18030},
	};
	const char *dir = test_shared_dir();
	int sampled = 0, moves = 0, games = 0;

	(void)state;
	SKIP_WITHOUT_SHARED(dir);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[4096];
		size_t len;
		char *text = slurp(shared_path(dir, files[i].path, path, sizeof(path)), files[i].enc,
				   &len);
		int g;
		assert_non_null(text);
		moves += replay_games(text, len, XQ_DIALECT_ICCS, path, sample_position, &sampled, &g,
				      0);
		games += g;
		free(text);
	}
	fprintf(stderr, "real games: %d games, %d moves read, %d positions round-tripped\n", games,
		moves, sampled);
	assert_true(games > 1100);
	assert_true(sampled > 5000);
}

static void wxf_and_iccs_twins_agree_move_for_move(void **state)
{
	static const char *const pairs[][2] = {
		{"corpus/pgn/maksimKorzh__wukong-xiangqi/opening_book_generator/bulk_games.pgn",
		 "corpus/pgn/maksimKorzh__wukong-xiangqi/xiangqi_pgn_parser/bulk_games_uci.pgn"},
		{"corpus/pgn/maksimKorzh__wukong-xiangqi/xiangqi_pgn_parser/single_game.pgn",
		 "corpus/pgn/maksimKorzh__wukong-xiangqi/xiangqi_pgn_parser/game_uci.pgn"},
	};
	const char *dir = test_shared_dir();
	int moves = 0;

	(void)state;
	SKIP_WITHOUT_SHARED(dir);
	defects_seen = 0;
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		char pa[4096], pb[4096];
		size_t la, lb;
		char *a = slurp(shared_path(dir, pairs[i][0], pa, sizeof(pa)), XQI_ENC_UTF8, &la);
		char *b = slurp(shared_path(dir, pairs[i][1], pb, sizeof(pb)), XQI_ENC_UTF8, &lb);
		assert_non_null(a);
		assert_non_null(b);
		moves += agree(a, la, XQ_DIALECT_WXF, b, lb, XQ_DIALECT_ICCS, pa);
		free(a);
		free(b);
	}
	fprintf(stderr, "WXF twins: %d moves\n", moves);
	assert_true(moves > 1000);
	assert_int_equal(defects_seen, 1);
}

static void xboard_san_games_replay_to_the_end(void **state)
{
	static const struct {
		const char *path;
		int moves;
	} files[] = {
		{"corpus/pgn/maksimKorzh__wukong-xiangqi/pgn/WukongJS_1.0_(UCI2WB)-MaxQi_4.8F(1-0).pgn",
		 87},
		{"corpus/pgn/maksimKorzh__wukong-xiangqi/pgn/WukongJS_1.0_(UCI2WB)-MaxQi_4.8F(1-0)2.pgn",
		 -1},
		{"corpus/pgn/maksimKorzh__wukong-xiangqi/pgn/WukongJS_1.0_(UCI2WB)-MaxQi_4.8F.pgn", -1},
	};
	const char *dir = test_shared_dir();

	(void)state;
	SKIP_WITHOUT_SHARED(dir);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[4096];
		size_t len;
		char *text = slurp(shared_path(dir, files[i].path, path, sizeof(path)), XQI_ENC_UTF8,
				   &len);
		int games, n;
		assert_non_null(text);
		n = replay_games(text, len, XQ_DIALECT_SAN, path, NULL, NULL, &games, 0);
		fprintf(stderr, "SAN: %s: %d moves\n", files[i].path, n);
		assert_int_equal(games, 1);
		if (files[i].moves > 0)
			assert_int_equal(n, files[i].moves);
		free(text);
	}
}

/* Replay the main line of a .pgn_cc grid; returns the moves read. */
static int replay_grid(const char *text, size_t len, const char *name)
{
	static char grid[1024][16];
	int n = cc_main_line(text, grid, 1024);
	struct walker w;
	struct xqi_position b;
	const char *tok;
	size_t tl;

	/* The FEN tag comes before the grid. */
	walker_init(&w, text, len);
	while (walker_next(&w, &tok, &tl) == EV_MOVE && w.fen[0] == '\0')
		;
	b = start_board(w.fen);
	if (n > 0)
		fix_first_side(&b, grid[0], strlen(grid[0]), XQ_DIALECT_CHINESE);
	for (int i = 0; i < n; i++) {
		struct xq_diagnostic d;
		struct xqi_undo u;
		xqi_move m;
		xqi_diagnostic_init(&d);
		if (xqi_notation_read(&m, &b, grid[i], strlen(grid[i]), XQ_DIALECT_CHINESE, &d))
			fail_msg("%s: move %d '%s': %s", name, i + 1, grid[i], d.msg);
		xqi_position_make(&b, m, &u);
	}
	return n;
}

/*
 * Our Chinese writer against the text of a real record.  Where they differ,
 * the record must have left out a qualifier the board makes unnecessary
 * (车４平７ for 後車平７ when only that rook can go there): the two texts
 * must read as the same move, ours with 前/中/后 and the record's with the
 * plain file.
 */
struct compare {
	unsigned flags;
	int same, qualifier_left_out;
	const char *name;
};

static void compare_text(struct xqi_position *b, int game, int ply, const char *tok, size_t len,
			 void *ctx)
{
	struct compare *c = ctx;
	char ours[XQ_MOVE_TEXT_SIZE];
	xqi_move theirs, mine;
	struct xqi_move_request r;

	if (xqi_notation_read(&theirs, b, tok, len, XQ_DIALECT_CHINESE, NULL) != 0)
		return; /* replay_games reports it */
	xqi_notation_write(ours, sizeof(ours), b, theirs, XQ_DIALECT_CHINESE, c->flags);
	if (strlen(ours) == len && memcmp(ours, tok, len) == 0) {
		c->same++;
		return;
	}
	assert_int_equal(xqi_notation_read(&mine, b, ours, strlen(ours), XQ_DIALECT_CHINESE, NULL), 0);
	assert_int_equal(mine, theirs);
	assert_int_equal(xqi_notation_parse(&r, tok, len, XQ_DIALECT_CHINESE, NULL), 0);
	if (r.position != XQI_TANDEM_NONE || r.file < 0)
		fail_msg("%s: game %d, ply %d: wrote '%s' where the record has '%.*s'", c->name, game,
			 ply + 1, ours, (int)len, tok);
	c->qualifier_left_out++;
}

/*
 * Every main-line move of every Chinese-notation record in the corpus
 * (xqbase GB2312, CCPD Big5 with traditional glyphs and FEN starts,
 * gmchess ASCII digits, UTF-8 with and without BOM) reads as a legal move.
 */
static void chinese_records_of_the_corpus_read_move_by_move(void **state)
{
	const char *dir = test_shared_dir();
	char path[8192], line[4096];
	FILE *manifest;
	int files = 0, moves = 0, games = 0;
	struct compare xqbase = {0, 0, 0, "xqbase"}, others = {0, 0, 0, "other"};

	(void)state;
	SKIP_WITHOUT_SHARED(dir);
	manifest = fopen(shared_path(dir, "corpus/pgn/MANIFEST.tsv", path, sizeof(path)), "r");
	assert_non_null(manifest);
	while (fgets(line, sizeof(line), manifest)) {
		char *f[8], *p = line, *text;
		enum xqi_encoding enc;
		size_t len;
		int g;
		for (int i = 0; i < 8; i++) {
			f[i] = p;
			p = p ? strchr(p, '\t') : NULL;
			if (p)
				*p++ = '\0';
		}
		if (!f[5] || (strncmp(f[4], "PGN Chinese", 11) != 0 &&
			      strncmp(f[4], "move list (no PGN tags) Chinese", 31) != 0))
			continue;
		enc = !strncmp(f[5], "big5", 4)	    ? XQI_ENC_BIG5
		      : !strncmp(f[5], "gb", 2)	    ? XQI_ENC_GB18030
		      : !strncmp(f[5], "utf-8;", 6) ? XQI_ENC_UTF8
						    : XQI_ENC_UNKNOWN;
		snprintf(path, sizeof(path), "%s/corpus/pgn/%s", dir, f[0]);
		*strchr(path + strlen(dir) + 12, '/') = '\0';
		snprintf(path + strlen(path), sizeof(path) - strlen(path), "__%s/%s",
			 strchr(f[0], '/') + 1, f[2]);
		text = slurp(path, enc, &len);
		if (!text)
			fail_msg("cannot read %s as %s", path, f[5]);
		/* PGN strictly; bare move lists have headings in prose to skip;
		 * hbsxcjp's .pgn_cc holds the moves in a grid. */
		if (strlen(path) > 7 && !strcmp(path + strlen(path) - 7, ".pgn_cc")) {
			moves += replay_grid(text, len, path);
			g = 1;
		} else {
			/* xqbase's own records must come out byte for byte; the others
			 * with their glyphs and digits. */
			struct compare *c = !strcmp(f[0], "xqbase/eleeye") ? &xqbase : &others;
			c->flags = (strstr(f[4], "traditional") ? XQ_DIALECT_TRADITIONAL : 0) |
				   (strstr(f[4], "ASCII digits") ? XQ_DIALECT_ASCII_DIGITS : 0);
			c->name = path;
			moves += replay_games(text, len, XQ_DIALECT_CHINESE, path, compare_text, c,
					      &g, strncmp(f[4], "PGN", 3) != 0);
		}
		games += g;
		free(text);
		files++;
	}
	fclose(manifest);
	fprintf(stderr, "Chinese corpus: %d files, %d games, %d moves\n", files, games, moves);
	fprintf(stderr, "written as in the record: xqbase %d of %d; others %d, and %d where the "
			"record leaves out a qualifier\n",
		xqbase.same, xqbase.same + xqbase.qualifier_left_out, others.same,
		others.qualifier_left_out);
	assert_true(xqbase.same > 1500);
	assert_int_equal(xqbase.qualifier_left_out, 0);
	assert_true(files > 900);
	assert_true(unplayable_games <= 2);
}

static void chinese_and_iccs_twins_of_xqf_records_agree_move_for_move(void **state)
{
	const char *dir = test_shared_dir();
	char path[8192], line[2048];
	FILE *pairs;
	int files = 0, moves = 0, cc_moves = 0;

	(void)state;
	SKIP_WITHOUT_SHARED(dir);
	defects_seen = 0;
	pairs = fopen(shared_path(dir, "corpus/xqf/PAIRS.tsv", path, sizeof(path)), "r");
	assert_non_null(pairs);
	while (fgets(line, sizeof(line), pairs)) {
		char *f[4], *p = line, zh[8192], cc[8192];
		char *iccs_text, *zh_text, *cc_text, *ext;
		size_t iccs_len, zh_len, cc_len;
		for (int i = 0; i < 4; i++) {
			f[i] = p;
			p = p ? strchr(p, '\t') : NULL;
			if (p)
				*p++ = '\0';
		}
		if (!f[2] || strlen(f[2]) < 9)
			continue;
		ext = f[2] + strlen(f[2]) - 9;
		if (strcmp(ext, ".pgn_iccs") != 0)
			continue;
		/* The twins: <owner>__<repo>/.../示例文件.pgn_iccs/x.pgn_iccs, and the
		 * same with .pgn_zh and .pgn_cc in both places. */
		{
			char repo[256], rel[2048];
			snprintf(repo, sizeof(repo), "%s", f[0]);
			*strchr(repo, '/') = '\0';
			snprintf(rel, sizeof(rel), "%s", f[2]);
			snprintf(path, sizeof(path), "%s/corpus/xqf/%s__%s/%s", dir, repo,
				 strchr(f[0], '/') + 1, rel);
		}
		iccs_text = slurp(path, XQI_ENC_GB18030, &iccs_len);
		assert_non_null(iccs_text);
		replace_all(path, ".pgn_iccs", ".pgn_zh", zh, sizeof(zh));
		replace_all(path, ".pgn_iccs", ".pgn_cc", cc, sizeof(cc));
		zh_text = slurp(zh, XQI_ENC_GB18030, &zh_len);
		assert_non_null(zh_text);
		moves += agree(zh_text, zh_len, XQ_DIALECT_CHINESE, iccs_text, iccs_len,
			       XQ_DIALECT_ICCS, zh);
		cc_text = slurp(cc, XQI_ENC_GB18030, &cc_len);
		assert_non_null(cc_text);
		{
			/* The grid's main line against the main line of the ICCS twin. */
			static char grid[1024][16];
			int n = cc_main_line(cc_text, grid, 1024), i = 0;
			struct walker w;
			struct xqi_position b;
			const char *tok;
			size_t len;
			enum ev_kind k;
			int depth = 0, first = 1;
			walker_init(&w, iccs_text, iccs_len);
			while ((k = walker_next(&w, &tok, &len)) != EV_END) {
				xqi_move a, c;
				struct xqi_undo u;
				struct xq_diagnostic d;
				depth += k == EV_OPEN ? 1 : k == EV_CLOSE ? -1 : 0;
				if (k != EV_MOVE || depth > 0)
					continue;
				if (first) {
					b = start_board(w.fen);
					fix_first_side(&b, tok, len, XQ_DIALECT_ICCS);
				}
				first = 0;
				assert_true(i < n);
				xqi_diagnostic_init(&d);
				assert_int_equal(xqi_notation_read(&a, &b, tok, len, XQ_DIALECT_ICCS, &d), 0);
				if (xqi_notation_read(&c, &b, grid[i], strlen(grid[i]), XQ_DIALECT_CHINESE,
						     &d))
					fail_msg("%s: move %d '%s': %s", cc, i + 1, grid[i], d.msg);
				if (a != c && !known_defect(cc, 1, i + 1, grid[i], strlen(grid[i]), c, a))
					fail_msg("%s: move %d '%s' differs from '%.*s'", cc, i + 1, grid[i],
						 (int)len, tok);
				defects_seen += a != c;
				xqi_position_make(&b, a, &u);
				i++;
			}
			assert_int_equal(i, n);
			cc_moves += n;
		}
		free(iccs_text);
		free(zh_text);
		free(cc_text);
		files++;
	}
	fclose(pairs);
	fprintf(stderr, "twins: %d records, %d moves (Chinese vs ICCS), %d grid moves, %d known "
			"defects\n",
		files, moves, cc_moves, defects_seen);
	assert_int_equal(files, 34);
	assert_true(moves > 1000);
	/* The one defect, in the Chinese text and in the grid. */
	assert_int_equal(defects_seen, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_fills_a_board_free_request),
		cmocka_unit_test(parse_rejects_annotations_spaces_and_bad_bytes),
		cmocka_unit_test(detect_names_the_dialect_of_one_token),
		cmocka_unit_test(strip_suffix_cuts_only_trailing_annotations),
		cmocka_unit_test(notation_names_round_trip),
		cmocka_unit_test(write_refuses_illegal_moves_unwritable_dialects_and_small_buffers),
		cmocka_unit_test(resolve_takes_a_request_built_by_hand),
		cmocka_unit_test(tandem_rooks_are_front_and_rear),
		cmocka_unit_test(tandem_rooks_without_qualifier_are_read_only_when_one_can_move),
		cmocka_unit_test(black_front_is_the_piece_nearer_red),
		cmocka_unit_test(tandem_cannons_and_horses),
		cmocka_unit_test(three_pawns_on_a_file),
		cmocka_unit_test(four_and_five_pawns_on_a_file),
		cmocka_unit_test(pawns_on_two_files),
		cmocka_unit_test(advisors_and_elephants_on_one_file_need_no_qualifier),
		cmocka_unit_test(traditional_and_variant_glyphs),
		cmocka_unit_test(chinese_glyphs_are_each_found_by_their_hash),
		cmocka_unit_test(an_overlong_or_odd_character_is_never_read_as_a_glyph),
		cmocka_unit_test(full_width_letters_and_digits),
		cmocka_unit_test(wxf_alternate_letters_and_separators),
		cmocka_unit_test(moves_that_look_legal_but_expose_the_king),
		cmocka_unit_test(errors_say_why_the_piece_cannot_move),
		cmocka_unit_test(errors_say_when_no_piece_is_there),
		cmocka_unit_test(san_reads_origin_hints),
		cmocka_unit_test(iccs_and_uci_forms),
		cmocka_unit_test(rank_ten_is_read_only_when_uci1_is_asked_for),
		cmocka_unit_test(every_move_of_the_perft_suite_reads_back_in_every_dialect),
		cmocka_unit_test(every_move_of_random_tandem_positions_reads_back),
		cmocka_unit_test(every_move_of_positions_from_real_games_reads_back),
		cmocka_unit_test(chinese_and_iccs_twins_of_xqf_records_agree_move_for_move),
		cmocka_unit_test(wxf_and_iccs_twins_agree_move_for_move),
		cmocka_unit_test(chinese_records_of_the_corpus_read_move_by_move),
		cmocka_unit_test(xboard_san_games_replay_to_the_end),
	};
	int rc = cmocka_run_group_tests_name("notation", tests, NULL, NULL);
	fprintf(stderr, "notation: %lu round trips\n", roundtrips);
	return rc;
}
