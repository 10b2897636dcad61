/*
 * test_rules.c: repetition cycles, the classification of their moves,
 * verdicts under the Asian and Chinese rule sets, move limits, the check
 * of a recorded result and the search track.
 *
 * Most cases live in tests/data/rules/: cases.tsv (positions built here
 * and the xiangqi positions of Fairy-Stockfish's test.py, each with the
 * verdict under both rule sets, what Fairy-Stockfish says and the rule
 * text that decides any disagreement) and corpus.tsv (real games from
 * ../shared/corpus that end in a repetition).  The tests here read them,
 * then look closer at the explanations, the limits and the APIs.
 */
#include "testutil.h"

#include <sys/stat.h>
#include <unistd.h>

#include "position.h"
#include "buf.h"
#include "diagnostic.h"
#include "format.h"
#include "record.h"
#include "io.h"
#include "movegen.h"
#include "rules.h"

#define MAX_LINE 2048

/* A red rook checking a king that steps back and forth. */
#define PCHECK_FEN "3k5/8R/9/9/9/9/9/9/9/4K4 w - - 0 1"
#define PCHECK "i8i9 d9d8 i9i8 d8d9"

struct line {
	struct xqi_position start;
	xqi_move moves[MAX_LINE];
	size_t n;
};

static struct xqi_position pos(const char *fen)
{
	struct xqi_position b;
	struct xq_diagnostic d;

	xqi_diagnostic_init(&d);
	if (xqi_position_from_fen(&b, fen, strlen(fen), XQI_FEN_LENIENT_PLACEMENT, &d))
		fail_msg("bad test FEN '%s': %s", fen, d.msg);
	return b;
}

static xqi_move iccs(const char *s)
{
	return XQI_MOVE(XQI_SQ(s[0] - 'a', s[1] - '0'), XQI_SQ(s[2] - 'a', s[3] - '0'));
}

/* Moves in ICCS separated by spaces; `times` copies of `cycle` follow `moves`. */
static void load(struct line *l, const char *fen, const char *moves, const char *cycle,
		 int times)
{
	const char *p;

	l->start = pos(fen);
	l->n = 0;
	for (int t = -1; t < times; t++) {
		p = t < 0 ? moves : cycle;
		while (p && *p) {
			while (*p == ' ')
				p++;
			if (!*p)
				break;
			assert_true(l->n < MAX_LINE);
			l->moves[l->n++] = iccs(p);
			p += 4;
		}
	}
}

static struct xqi_rules_options opts(enum xq_ruleset rs)
{
	struct xqi_rules_options o = XQI_RULES_OPTIONS_INIT;
	o.rules = rs;
	return o;
}

static void analyze(struct xqi_rules_report *r, const struct line *l,
		    const struct xqi_rules_options *o)
{
	struct xq_diagnostic d;

	xqi_diagnostic_init(&d);
	if (xqi_rules_analyze(r, &l->start, l->moves, l->n, o, &d))
		fail_msg("analysis failed at ply %u: %s", d.ply, d.msg);
}

/* The cycle that ends with the line, or NULL. */
static const struct xqi_rules_cycle *final_cycle(const struct xqi_rules_report *r)
{
	if (!r->ncycles || r->cycles[r->ncycles - 1].last != r->nplies)
		return NULL;
	return &r->cycles[r->ncycles - 1];
}

static const char *verdict_token(enum xq_ruling v)
{
	switch (v) {
	case XQ_RULING_DRAW:
		return "draw";
	case XQ_RULING_RED_LOSES:
		return "red-loses";
	case XQ_RULING_BLACK_LOSES:
		return "black-loses";
	default:
		return "-";
	}
}

static const char *final_verdict(const struct line *l, enum xq_ruleset rs)
{
	struct xqi_rules_report r;
	struct xqi_rules_options o = opts(rs);
	const struct xqi_rules_cycle *c;
	const char *v;

	xqi_rules_report_init(&r);
	analyze(&r, l, &o);
	c = final_cycle(&r);
	v = c ? verdict_token((enum xq_ruling)c->verdict) : "-";
	xqi_rules_report_release(&r);
	return v;
}

static int contains(const char *hay, const char *needle)
{
	return strstr(hay, needle) != NULL;
}

#define ASSERT_CONTAINS(hay, needle)                                                       \
	do {                                                                               \
		if (!contains((hay), (needle)))                                            \
			fail_msg("expected \"%s\" in:\n%s", (needle), (hay));              \
	} while (0)

/* ---- the fixture tables ---------------------------------------------------- */

#define MAX_FIELDS 12

struct table {
	char *text;
	char *rows[256][MAX_FIELDS];
	int nfields[256];
	int nrows;
};

/* The whole file, NUL-terminated, in a new buffer; NULL if it cannot be opened. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	long len;
	char *text;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	text = malloc((size_t)len + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	text[len] = '\0';
	return text;
}

/* Read a tab-separated file; '#' lines are comments. */
static void read_table(struct table *t, const char *path)
{
	char *p;

	t->text = slurp(path);
	if (!t->text)
		fail_msg("cannot open %s (tests run from the top of the worktree)", path);
	t->nrows = 0;
	for (p = t->text; *p;) {
		char *end = strchr(p, '\n'), *q = p;
		int nf = 0;
		if (end)
			*end = '\0';
		if (*p && *p != '#') {
			assert_true(t->nrows < 256);
			for (;;) {
				char *tab = strchr(q, '\t');
				t->rows[t->nrows][nf++] = q;
				if (!tab || nf == MAX_FIELDS)
					break;
				*tab = '\0';
				q = tab + 1;
			}
			t->nfields[t->nrows++] = nf;
		}
		if (!end)
			break;
		p = end + 1;
	}
}

static void free_table(struct table *t)
{
	free(t->text);
}

enum { C_NAME, C_FEN, C_MOVES, C_ASIAN, C_CHINESE, C_FS_TEST, C_FS11, C_NOTE };
enum { K_NAME, K_SOURCE, K_FEN, K_MOVES, K_RESULT, K_ASIAN, K_CHINESE, K_CYCLE, K_REPEATS, K_NOTE };

static void case_line(struct line *l, char **row, int fen, int moves)
{
	load(l, row[fen], row[moves], NULL, 0);
}

static void every_case_gets_its_recorded_verdict_under_both_rule_sets(void **state)
{
	struct table t;
	struct line l;

	(void)state;
	read_table(&t, "tests/data/rules/cases.tsv");
	assert_true(t.nrows >= 40);
	for (int i = 0; i < t.nrows; i++) {
		char **row = t.rows[i];
		assert_int_equal(t.nfields[i], 8);
		case_line(&l, row, C_FEN, C_MOVES);
		if (strcmp(final_verdict(&l, XQ_RULESET_ASIAN), row[C_ASIAN]))
			fail_msg("%s: asian verdict %s, expected %s", row[C_NAME],
				 final_verdict(&l, XQ_RULESET_ASIAN), row[C_ASIAN]);
		if (strcmp(final_verdict(&l, XQ_RULESET_CHINESE), row[C_CHINESE]))
			fail_msg("%s: chinese verdict %s, expected %s", row[C_NAME],
				 final_verdict(&l, XQ_RULESET_CHINESE), row[C_CHINESE]);
	}
	free_table(&t);
}

static void fairy_stockfish_disagreements_name_the_rule_text(void **state)
{
	struct table t;
	int fs_cases = 0, disagreements = 0;

	(void)state;
	read_table(&t, "tests/data/rules/cases.tsv");
	for (int i = 0; i < t.nrows; i++) {
		char **row = t.rows[i];
		if (strcmp(row[C_FS_TEST], "-")) {
			fs_cases++;
			if (strcmp(row[C_FS_TEST], row[C_ASIAN])) {
				disagreements++;
				if (!contains(row[C_NOTE], "AXF") && !contains(row[C_NOTE], "CXA"))
					fail_msg("%s: Fairy-Stockfish's test says %s, we say %s, and the "
						 "note names no rule text",
						 row[C_NAME], row[C_FS_TEST], row[C_ASIAN]);
			}
		}
		if (strcmp(row[C_FS11], row[C_ASIAN]) && !contains(row[C_NOTE], "fs11:"))
			fail_msg("%s: Fairy-Stockfish 11.1 says %s, we say %s, undocumented",
				 row[C_NAME], row[C_FS11], row[C_ASIAN]);
	}
	/* The 33 xiangqi cases of Fairy-Stockfish's test.py are in the table
	 * (one of them twice there, once here); three disagree: the two AXF 19
	 * pinned-rook diagrams and a case Fairy-Stockfish leaves unasserted. */
	assert_int_equal(fs_cases, 32);
	assert_int_equal(disagreements, 3);
	free_table(&t);
}

/*
 * The case mirrored left to right (`mirror`) and/or with the colours
 * swapped (`flip`: red plays black's pieces from the other end).  Rules
 * know no left or right, and no colour, so verdicts must follow.
 */
static void transform_case(struct line *out, const char *fen, const char *moves, int mirror,
			   int flip)
{
	char rows[10][10], text[160], *p = text;
	const char *f = fen;
	struct line l;
	int r = 0, c = 0;

	memset(rows, '.', sizeof(rows));
	for (; *f && *f != ' '; f++) {
		if (*f == '/') {
			r++;
			c = 0;
		} else if (*f >= '1' && *f <= '9') {
			c += *f - '0';
		} else {
			rows[r][c++] = *f;
		}
	}
	for (int rr = 0; rr < 10; rr++) {
		int empty = 0, src = flip ? 9 - rr : rr;
		for (int cc = 0; cc < 9; cc++) {
			char ch = rows[src][mirror ? 8 - cc : cc];
			if (ch == '.') {
				empty++;
				continue;
			}
			if (empty)
				*p++ = (char)('0' + empty);
			empty = 0;
			if (flip)
				ch = (char)(ch >= 'a' ? ch - 'a' + 'A' : ch - 'A' + 'a');
			*p++ = ch;
		}
		if (empty)
			*p++ = (char)('0' + empty);
		if (rr < 9)
			*p++ = '/';
	}
	snprintf(p, sizeof(text) - (size_t)(p - text), " %c%s", (f[1] == 'w') ^ flip ? 'w' : 'b',
		 f + 2);
	load(&l, fen, moves, NULL, 0);
	out->start = pos(text);
	out->n = l.n;
	for (size_t k = 0; k < l.n; k++) {
		xqi_sq a = XQI_MOVE_FROM(l.moves[k]), b = XQI_MOVE_TO(l.moves[k]);
		int fa = XQI_SQ_FILE(a), ra = XQI_SQ_RANK(a), fb = XQI_SQ_FILE(b), rb = XQI_SQ_RANK(b);
		if (mirror) {
			fa = 8 - fa;
			fb = 8 - fb;
		}
		if (flip) {
			ra = 9 - ra;
			rb = 9 - rb;
		}
		out->moves[k] = XQI_MOVE(XQI_SQ(fa, ra), XQI_SQ(fb, rb));
	}
}

static const char *swap_colours(const char *v)
{
	if (!strcmp(v, "red-loses"))
		return "black-loses";
	if (!strcmp(v, "black-loses"))
		return "red-loses";
	return v;
}

static void mirrored_and_colour_swapped_cases_get_the_same_verdicts(void **state)
{
	struct table t;
	struct line l;

	(void)state;
	read_table(&t, "tests/data/rules/cases.tsv");
	for (int i = 0; i < t.nrows; i++) {
		char **row = t.rows[i];
		for (int m = 0; m < 2; m++)
			for (int fl = 0; fl < 2; fl++) {
				if (!m && !fl)
					continue;
				transform_case(&l, row[C_FEN], row[C_MOVES], m, fl);
				for (int rs = XQ_RULESET_ASIAN; rs <= XQ_RULESET_CHINESE; rs++) {
					const char *want = rs == XQ_RULESET_ASIAN ? row[C_ASIAN]
										 : row[C_CHINESE];
					const char *got = final_verdict(&l, (enum xq_ruleset)rs);
					if (fl)
						want = swap_colours(want);
					if (strcmp(got, want))
						fail_msg("%s mirrored %d flipped %d (%s): %s, expected %s",
							 row[C_NAME], m, fl,
							 xqi_rules_set_name((enum xq_ruleset)rs), got,
							 want);
				}
			}
	}
	free_table(&t);
}

/* Push the line on a track and probe the final position. */
static int track_verdict(const struct line *l, const struct xqi_rules_options *o,
			 struct xqi_rules_probe *p)
{
	struct xqi_rules_track t;
	struct xqi_position b = l->start;
	int hit;

	assert_int_equal(xqi_rules_track_init(&t, &b, l->n, o), 0);
	for (size_t k = 0; k < l->n; k++) {
		struct xqi_undo u;
		xqi_position_make(&b, l->moves[k], &u);
		/* Both ways of pushing, in turn. */
		if (k & 1)
			assert_int_equal(xqi_rules_track_push(&t, &b, l->moves[k], &u), 0);
		else
			assert_int_equal(xqi_rules_track_push_check(&t, &b, l->moves[k], &u,
								   xqi_position_in_check(&b)),
					 0);
	}
	hit = xqi_rules_track_probe(&t, &b, p);
	xqi_rules_track_release(&t);
	return hit;
}

static void check_track_against_analysis(const struct line *l, const char *name)
{
	for (int rs = XQ_RULESET_ASIAN; rs <= XQ_RULESET_CHINESE; rs++) {
		struct xqi_rules_options o = opts((enum xq_ruleset)rs);
		struct xqi_rules_report r;
		struct xqi_rules_probe p;
		const struct xqi_rules_cycle *c;
		int hit;

		xqi_rules_report_init(&r);
		analyze(&r, l, &o);
		c = final_cycle(&r);
		hit = track_verdict(l, &o, &p);
		if (c && c->repeats >= 3) {
			if (hit != 1 || p.verdict != c->verdict || p.limit)
				fail_msg("%s (%s): track says %s, analysis %s", name,
					 xqi_rules_set_name((enum xq_ruleset)rs),
					 hit == 1 ? xqi_rules_verdict_name(p.verdict) : "nothing",
					 xqi_rules_verdict_name(c->verdict));
			/* Against a perpetual check the track does not analyse the other
			 * side (see rules.h); otherwise both conducts agree. */
			for (int s = 0; s < 2; s++)
				if (c->side[s].conduct == XQI_CONDUCT_PERPETUAL_CHECK ||
				    (c->side[s ^ 1].conduct != XQI_CONDUCT_PERPETUAL_CHECK))
					assert_int_equal(p.conduct[s], c->side[s].conduct);
		}
		xqi_rules_report_release(&r);
	}
}

static void search_track_agrees_with_the_analysis_on_every_case(void **state)
{
	struct table t;
	struct line l;

	(void)state;
	read_table(&t, "tests/data/rules/cases.tsv");
	for (int i = 0; i < t.nrows; i++) {
		case_line(&l, t.rows[i], C_FEN, C_MOVES);
		check_track_against_analysis(&l, t.rows[i][C_NAME]);
	}
	free_table(&t);
	read_table(&t, "tests/data/rules/corpus.tsv");
	for (int i = 0; i < t.nrows; i++) {
		case_line(&l, t.rows[i], K_FEN, K_MOVES);
		check_track_against_analysis(&l, t.rows[i][K_NAME]);
	}
	free_table(&t);
}

static void corpus_games_get_their_recorded_verdicts(void **state)
{
	struct table t;
	struct line l;

	(void)state;
	read_table(&t, "tests/data/rules/corpus.tsv");
	assert_true(t.nrows >= 10);
	for (int i = 0; i < t.nrows; i++) {
		char **row = t.rows[i], range[32] = "-", reps[16] = "-";
		struct xqi_rules_report r;
		struct xqi_rules_options o = opts(XQ_RULESET_ASIAN);
		const struct xqi_rules_cycle *c;

		assert_int_equal(t.nfields[i], 10);
		case_line(&l, row, K_FEN, K_MOVES);
		assert_string_equal(final_verdict(&l, XQ_RULESET_ASIAN), row[K_ASIAN]);
		assert_string_equal(final_verdict(&l, XQ_RULESET_CHINESE), row[K_CHINESE]);
		xqi_rules_report_init(&r);
		analyze(&r, &l, &o);
		c = final_cycle(&r);
		if (c) {
			snprintf(range, sizeof(range), "%lu-%lu", (unsigned long)c->first + 1,
				 (unsigned long)c->last);
			snprintf(reps, sizeof(reps), "%lu", (unsigned long)c->repeats);
		}
		if (strcmp(range, row[K_CYCLE]) || strcmp(reps, row[K_REPEATS]))
			fail_msg("%s: cycle %s x%s, expected %s x%s", row[K_NAME], range, reps,
				 row[K_CYCLE], row[K_REPEATS]);
		xqi_rules_report_release(&r);
	}
	free_table(&t);
}

/* The recorded results of the corpus games agree with the rules. */
static void corpus_recorded_results_are_checked(void **state)
{
	struct table t;
	struct line l;
	int checked = 0;

	(void)state;
	read_table(&t, "tests/data/rules/corpus.tsv");
	for (int i = 0; i < t.nrows; i++) {
		char **row = t.rows[i];
		enum xqi_result res;
		enum xqi_rules_support st;
		struct xq_diagnostic d;
		struct xqi_rules_options o = opts(XQ_RULESET_ASIAN);

		if (!strcmp(row[K_RESULT], "*"))
			continue;
		assert_int_equal(xqi_result_parse(row[K_RESULT], strlen(row[K_RESULT]), &res), 0);
		case_line(&l, row, K_FEN, K_MOVES);
		xqi_diagnostic_init(&d);
		assert_int_equal(xqi_rules_check_result(&st, &l.start, l.moves, l.n, res,
						       XQI_CLAIM_UNSPECIFIED, &o, &d, NULL),
				 0);
		if (!strcmp(row[K_ASIAN], "-")) {
			/* The repetition was in the middle game: the result rests on
			 * something else. */
			assert_int_equal(st, XQI_SUPPORT_SILENT);
		} else {
			assert_int_equal(st, XQI_SUPPORT_CONFIRMED);
			assert_int_equal(d.code, XQI_D_REPETITION);
			assert_int_equal(d.severity, XQ_SEVERITY_NOTE);
		}
		checked++;
	}
	assert_int_equal(checked, 2);
	free_table(&t);
}

/* ---- explanations ------------------------------------------------------------- */

static void describe_final_cycle(const struct line *l, enum xq_ruleset rs, struct xq_buf *out)
{
	struct xqi_rules_report r;
	struct xqi_rules_options o = opts(rs);

	xqi_rules_report_init(&r);
	analyze(&r, l, &o);
	assert_non_null(final_cycle(&r));
	assert_int_equal(xqi_rules_describe_cycle(out, &r, r.ncycles - 1), 0);
	xqi_rules_report_release(&r);
}

static void perpetual_check_names_each_check_and_the_rule(void **state)
{
	struct line l;
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	load(&l, "3k5/8R/9/9/9/9/9/9/9/4K4 w - - 0 1", "", "i8i9 d9d8 i9i8 d8d9", 2);
	describe_final_cycle(&l, XQ_RULESET_ASIAN, &out);
	ASSERT_CONTAINS(out.ptr, "repetition: plies 1-8, period 4 plies, a position occurs 3 times");
	ASSERT_CONTAINS(out.ptr, "1. red i8i9: check: the red rook on i9 checks the black king on d9");
	ASSERT_CONTAINS(out.ptr, "2. black d9d8: idle");
	ASSERT_CONTAINS(out.ptr, "red: perpetual check (4 moves: 4 check, 0 kill, 0 chase, 0 idle)");
	ASSERT_CONTAINS(out.ptr, "verdict under asian rules: red loses: red checks on every move "
				 "of the cycle and black does not (AXF 6, CXA 26.1)");
	xq_buf_release(&out);
}

static void horse_chasing_a_protected_rook_is_explained(void **state)
{
	struct line l;
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	load(&l, "r3k4/9/9/9/1N4N2/9/9/r8/3K2R2/9 w - - 0 1", "", "b5c3 a2a7 c3b5 a7a2", 2);
	describe_final_cycle(&l, XQ_RULESET_ASIAN, &out);
	ASSERT_CONTAINS(out.ptr, "1. red b5c3: chase: the red horse on c3 attacks the black rook "
				 "on a2: a horse or cannon chases a rook even when it is protected");
	ASSERT_CONTAINS(out.ptr, "red: perpetual chase");
	ASSERT_CONTAINS(out.ptr, "chasing the black rook on a7 every move");
	ASSERT_CONTAINS(out.ptr, "red loses: red chases the black rook on a7 on every move and "
				 "black does not (a horse or cannon may not chase a rook for ever, "
				 "protected or not: AXF 15)");
	xq_buf_reset(&out);
	load(&l, "7R1/1n7/P3k4/9/8P/9/6N2/9/9/5K3 w - - 0 1", "", "h9h8 b8d9 h8h9 d9b8", 2);
	describe_final_cycle(&l, XQ_RULESET_ASIAN, &out);
	ASSERT_CONTAINS(out.ptr, "red chases the black horse on d9 on every move and black does "
				 "not (one piece may not be chased for ever: AXF 18");
	xq_buf_reset(&out);
	describe_final_cycle(&l, XQ_RULESET_CHINESE, &out);
	ASSERT_CONTAINS(out.ptr, "verdict under chinese rules: red loses: red chases on every move "
				 "and black's moves are allowed (CXA 28.12, 26.4)");
	xq_buf_release(&out);
}

static void protected_piece_and_exchange_offer_are_not_chases(void **state)
{
	struct line l;
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	load(&l, "4P4/9/4k4/9/c6r1/9/9/5R3/9/3K5 w - - 0 1", "", "f2a2 a5f5 a2f2 f5a5", 2);
	describe_final_cycle(&l, XQ_RULESET_ASIAN, &out);
	ASSERT_CONTAINS(out.ptr, "1. red f2a2: idle: the red rook on a2 attacks the black cannon "
				 "on a5: it is protected, so this is not a chase");
	ASSERT_CONTAINS(out.ptr, "draw: neither side uses a forbidden perpetual attack");
	xq_buf_reset(&out);
	load(&l, "9/3k5/2r6/1R7/9/9/9/4K4/2c6/9 w - - 0 1", "", "b6b7 c7c6 b7b6 c6c7", 2);
	describe_final_cycle(&l, XQ_RULESET_CHINESE, &out);
	ASSERT_CONTAINS(out.ptr, "the red rook on b7 attacks the black rook on c7: it can take "
				 "back: an exchange offer, not a chase");
	ASSERT_CONTAINS(out.ptr, "verdict under chinese rules: draw");
	xq_buf_release(&out);
}

static void exchange_offer_inside_a_chase_still_chases(void **state)
{
	struct line l;
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	load(&l, "9/9/4k4/9/9/p3n4/3N5/C5N2/9/5K3 w - - 0 1", "", "d3c5 a4b4 c5d3 b4a4", 2);
	describe_final_cycle(&l, XQ_RULESET_ASIAN, &out);
	ASSERT_CONTAINS(out.ptr, "1. red d3c5: chase: the red horse on c5 attacks the black pawn "
				 "on a4: it is unprotected; the red horse on c5 attacks the black "
				 "horse on e4: it can take back: an exchange offer, not a chase");
	ASSERT_CONTAINS(out.ptr, "red loses");
	xq_buf_release(&out);
}

static void pawn_that_has_not_crossed_is_not_chased(void **state)
{
	struct line l;
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	load(&l, "3k5/6c2/9/7P1/6c2/6P2/9/9/9/5K3 w - - 0 1", "", "h6g6 g5h5 g6h6 h5g5", 2);
	describe_final_cycle(&l, XQ_RULESET_ASIAN, &out);
	ASSERT_CONTAINS(out.ptr, "2. black g5h5: idle: the black cannon on g8 attacks the red pawn "
				 "on g4: a pawn that has not crossed the river cannot be chased");
	ASSERT_CONTAINS(out.ptr, "verdict under asian rules: draw");
	xq_buf_release(&out);
	/* The same cycle against a horse is a perpetual chase. */
	load(&l, "3k5/6c2/9/7P1/6c2/6N2/9/9/9/5K3 w - - 0 1", "", "h6g6 g5h5 g6h6 h5g5", 2);
	assert_string_equal(final_verdict(&l, XQ_RULESET_ASIAN), "black-loses");
	assert_string_equal(final_verdict(&l, XQ_RULESET_CHINESE), "black-loses");
}

static void kings_and_pawns_may_attack_for_ever(void **state)
{
	struct line l;
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	load(&l, "7n1/9/4k4/9/9/2P6/3c5/4C4/9/3K1c3 w - - 0 1", "", "d0e0 d3d1 e0d0 d1d3", 2);
	describe_final_cycle(&l, XQ_RULESET_CHINESE, &out);
	ASSERT_CONTAINS(out.ptr, "the red king on e0 attacks the black cannon on f0: a king may "
				 "attack for ever");
	xq_buf_reset(&out);
	load(&l, "9/7cn/3k2P2/3N5/9/9/9/4K4/9/9 w - - 0 1", "", "g7h7 h8g8 h7g7 g8h8", 2);
	describe_final_cycle(&l, XQ_RULESET_CHINESE, &out);
	ASSERT_CONTAINS(out.ptr, "the red pawn on h7 attacks the black cannon on h8: a pawn may "
				 "attack for ever");
	ASSERT_CONTAINS(out.ptr, "verdict under chinese rules: draw");
	xq_buf_release(&out);
}

/* One ply, classified on its own (XQI_RULES_CLASSIFY_ALL). */
static struct xqi_rules_ply classify_one(const char *fen, const char *moves, size_t ply,
					enum xq_ruleset rs)
{
	struct line l;
	struct xqi_rules_report r;
	struct xqi_rules_options o = opts(rs);
	struct xqi_rules_ply p;

	o.flags = XQI_RULES_CLASSIFY_ALL;
	load(&l, fen, moves, NULL, 0);
	xqi_rules_report_init(&r);
	analyze(&r, &l, &o);
	assert_true(ply >= 1 && ply <= r.nplies);
	p = r.plies[ply - 1];
	xqi_rules_report_release(&r);
	return p;
}

static void elephant_attacking_a_protected_horse_chases_only_under_chinese_rules(void **state)
{
	/* The red elephant goes to e2 and attacks the black horse on g4,
	 * which the black rook on g9 protects. */
	const char *fen = "4k1r2/9/9/9/9/6n2/9/9/9/2BK5 w - - 0 1";
	struct xqi_rules_ply a = classify_one(fen, "c0e2", 1, XQ_RULESET_ASIAN);
	struct xqi_rules_ply c = classify_one(fen, "c0e2", 1, XQ_RULESET_CHINESE);

	(void)state;
	assert_int_equal(a.kind, XQI_RULES_IDLE);
	assert_int_equal(a.nthreats, 1);
	assert_int_equal(a.threats[0].why, XQI_WHY_PROTECTED);
	assert_int_equal(c.kind, XQI_RULES_CHASE);
	assert_int_equal(c.nthreats, 1);
	assert_int_equal(c.threats[0].why, XQI_WHY_GAINS_MATERIAL);
	assert_int_equal(c.threats[0].attacker, XQI_SQ(4, 2));
	assert_int_equal(c.threats[0].target, XQI_SQ(6, 4));
	assert_int_equal(XQI_KIND_TYPE(c.threats[0].target_kind), XQI_HORSE);
	assert_true(c.chased != 0);
}

static void rook_attack_on_an_uncrossed_and_a_crossed_pawn(void **state)
{
	/* A black pawn on c6 has not crossed; one on c4 has. */
	struct xqi_rules_ply a = classify_one("4k4/9/9/2p6/9/9/9/9/9/R2K5 w - - 0 1", "a0a6", 1,
					     XQ_RULESET_ASIAN);
	struct xqi_rules_ply b = classify_one("4k4/9/9/9/9/2p6/9/9/9/R2K5 w - - 0 1", "a0a4", 1,
					     XQ_RULESET_ASIAN);

	(void)state;
	assert_int_equal(a.kind, XQI_RULES_IDLE);
	assert_int_equal(a.threats[0].why, XQI_WHY_UNCROSSED_PAWN);
	assert_int_equal(b.kind, XQI_RULES_CHASE);
	assert_int_equal(b.threats[0].why, XQI_WHY_UNPROTECTED);
}

static void evasion_does_not_turn_old_attacks_into_chases(void **state)
{
	/* The black rook on a5 attacks the red horse on a1 but the red rook
	 * on e0 checks; the king steps aside.  Before the check the rook
	 * attacked the horse too, so the evasion is no chase. */
	const char *fen = "3k5/9/9/9/r8/9/9/9/N8/4K3R w - - 0 1";
	struct xqi_rules_ply p = classify_one(fen, "i0i9 d9d8", 2, XQ_RULESET_ASIAN);

	(void)state;
	assert_int_equal(p.kind, XQI_RULES_IDLE);
	assert_int_equal(p.chased, 0);
}

static void chase_that_existed_before_the_move_is_not_new(void **state)
{
	/* The red rook on b5 attacks the unprotected black horse on b9.
	 * Stepping to b4 keeps the attack: no new chase.  Coming back to the
	 * b-file from a5 makes it new. */
	const char *fen = "1n2k4/9/9/9/1R7/9/9/9/9/3K5 w - - 0 1";
	struct xqi_rules_ply p = classify_one(fen, "b5b4", 1, XQ_RULESET_ASIAN);

	(void)state;
	assert_int_equal(p.kind, XQI_RULES_IDLE);
	assert_int_equal(p.chased, 0);
	assert_int_equal(p.nthreats, 1);
	assert_int_equal(p.threats[0].why, XQI_WHY_ALREADY);
	p = classify_one(fen, "b5a5 e9e8 a5b5", 3, XQ_RULESET_ASIAN);
	assert_int_equal(p.kind, XQI_RULES_CHASE);
	assert_int_equal(p.threats[0].why, XQI_WHY_UNPROTECTED);
}

static void mate_threat_is_a_kill_with_its_mating_move(void **state)
{
	/* Corpus game liu_dahua_615: the red rook threatens mate every move. */
	struct table t;
	struct line l;
	struct xqi_rules_report r;
	struct xqi_rules_options o = opts(XQ_RULESET_CHINESE);
	const struct xqi_rules_cycle *c;
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	read_table(&t, "tests/data/rules/corpus.tsv");
	for (int i = 0; i < t.nrows; i++)
		if (!strcmp(t.rows[i][K_NAME], "liu_dahua_615"))
			case_line(&l, t.rows[i], K_FEN, K_MOVES);
	free_table(&t);
	xqi_rules_report_init(&r);
	analyze(&r, &l, &o);
	c = final_cycle(&r);
	assert_non_null(c);
	assert_int_equal(c->side[XQI_RED].conduct, XQI_CONDUCT_PERPETUAL_KILL);
	assert_int_equal(r.plies[50].kind, XQI_RULES_KILL);
	assert_int_equal(r.plies[50].mate, iccs("h7h9"));
	assert_int_equal(xqi_rules_describe_ply(&out, &r, 51), 0);
	assert_string_equal(out.ptr, "51. red g7h7: kill: threatens mate by h7h9; the red rook on h7 "
				     "attacks the black rook on h9: it can take back: an exchange "
				     "offer, not a chase");
	xq_buf_release(&out);
	xqi_rules_report_release(&r);
}

/* ---- cycles -------------------------------------------------------------------- */

static void cycle_periods_of_4_6_8_and_12_plies_are_found(void **state)
{
	static const struct {
		const char *cycle;
		uint32_t period;
	} cases[] = {
		{"a0a4 i9i5 a4a0 i5i9", 4},
		{"a0a4 i9i5 a4a2 i5i7 a2a0 i7i9", 6},
		{"a0a4 i9i5 a4a0 i5i7 a0a2 i7i8 a2a0 i8i9", 8},
		{"a0a4 i9i5 a4a2 i5i7 a2a0 i7i6 a0a3 i6i8 a3a1 i8i4 a1a0 i4i9", 12},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct line l;
		struct xqi_rules_report r;
		struct xqi_rules_options o = opts(XQ_RULESET_ASIAN);

		/* One move first, so the run does not start at the start. */
		load(&l, "4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", "d0d1 e9e8 d1d0 e8e9",
		     cases[i].cycle, 3);
		xqi_rules_report_init(&r);
		analyze(&r, &l, &o);
		/* The first four plies are a 4-ply cycle of their own; then the
		 * run of the cycle under test, from ply 4 to the end, where the
		 * start position occurs for the fifth time. */
		assert_int_equal(r.ncycles, 2);
		assert_int_equal(r.cycles[0].first, 0);
		assert_int_equal(r.cycles[0].last, 4);
		assert_int_equal(r.cycles[1].period, cases[i].period);
		assert_int_equal(r.cycles[1].first, 4);
		assert_int_equal(r.cycles[1].last, l.n);
		assert_int_equal(r.cycles[1].last - r.cycles[1].first, 3 * cases[i].period);
		assert_int_equal(r.cycles[1].repeats, 5);
		assert_int_equal(r.cycles[1].verdict, XQ_RULING_DRAW);
		xqi_rules_report_release(&r);
	}
}

static void no_position_repeats_after_two_plies(void **state)
{
	/* Each side moving one piece away and back is 4 plies; the earliest
	 * repetition in a line of back-and-forth moves is at ply 4. */
	struct line l;
	struct xqi_rules_report r;
	struct xqi_rules_options o = opts(XQ_RULESET_ASIAN);

	(void)state;
	load(&l, "4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", "a0a1 i9i8 a1a0", NULL, 0);
	xqi_rules_report_init(&r);
	analyze(&r, &l, &o);
	assert_int_equal(r.ncycles, 0);
	load(&l, "4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", "a0a1 i9i8 a1a0 i8i9", NULL, 0);
	analyze(&r, &l, &o);
	assert_int_equal(r.ncycles, 1);
	assert_int_equal(r.cycles[0].first, 0);
	assert_int_equal(r.cycles[0].last, 4);
	assert_int_equal(r.cycles[0].repeats, 2);
	xqi_rules_report_release(&r);
}

static void separate_repetitions_are_separate_cycles(void **state)
{
	struct line l;
	struct xqi_rules_report r;
	struct xqi_rules_options o = opts(XQ_RULESET_ASIAN);

	(void)state;
	/* Shuffle, move on, shuffle again elsewhere. */
	load(&l, "4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 0 1",
	     "a0a1 i9i8 a1a0 i8i9 a0a1 i9i8 a1a2 i8i7 a2a3 i7i6 a3a2 i6i7 a2a3 i7i6", NULL, 0);
	xqi_rules_report_init(&r);
	analyze(&r, &l, &o);
	assert_int_equal(r.ncycles, 2);
	assert_int_equal(r.cycles[0].first, 0);
	assert_int_equal(r.cycles[0].last, 6);
	assert_int_equal(r.cycles[1].first, 8);
	assert_int_equal(r.cycles[1].last, 14);
	assert_int_equal(xqi_rules_cycle_at(&r, 1), 0);
	assert_int_equal(xqi_rules_cycle_at(&r, 6), 0);
	assert_int_equal(xqi_rules_cycle_at(&r, 7), -1);
	assert_int_equal(xqi_rules_cycle_at(&r, 9), 1);
	assert_int_equal(xqi_rules_cycle_at(&r, 0), -1);
	/* Plies outside every cycle are not classified. */
	assert_int_equal(r.plies[6].kind, XQI_RULES_UNCLASSIFIED);
	assert_int_equal(r.plies[0].kind, XQI_RULES_IDLE);
	xqi_rules_report_release(&r);
}

/* ---- repetitions in long lines ------------------------------------------------ */

/*
 * The analysis finds repetitions through chains of equal positions and
 * judges every cycle in one pass (rules.c); these tests hold it to the
 * definitions: a scan back over the window at every ply, and each cycle
 * judged move by move over its own plies.
 */

static uint32_t next_rand(uint32_t *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 8;
}

/*
 * `n` legal moves from `start` (fewer if the side to move has none),
 * mostly back and forth: the mover takes back its own last move three
 * times in four when it can, so positions come back often, after periods
 * of all lengths.  With `quiet`, no captures unless nothing else is legal.
 */
static size_t wandering_line(xqi_move *out, size_t n, const struct xqi_position *start, uint32_t seed,
			     int quiet)
{
	struct xqi_position b = *start;
	xqi_move last[2] = {0, 0};
	size_t k;

	for (k = 0; k < n; k++) {
		xqi_move moves[XQ_MOVES_MAX], back = 0;
		struct xqi_undo u;
		int m = xqi_gen_legal(&b, moves), kept = 0, captures = 0;
		for (int i = 0; i < m; i++)
			captures += b.sq[XQI_MOVE_TO(moves[i])] != 0;
		for (int i = 0; i < m; i++) {
			if (quiet && captures < m && b.sq[XQI_MOVE_TO(moves[i])])
				continue;
			if (last[b.side] && moves[i] == XQI_MOVE(XQI_MOVE_TO(last[b.side]),
								 XQI_MOVE_FROM(last[b.side])))
				back = moves[i];
			moves[kept++] = moves[i];
		}
		if (!kept)
			break;
		out[k] = back && next_rand(&seed) % 4 ? back : moves[next_rand(&seed) % (uint32_t)kept];
		last[b.side] = out[k];
		xqi_position_make(&b, out[k], &u);
	}
	return k;
}

/* Keys and windows of the positions of a line, as rules.h defines them. */
static void line_keys(const struct xqi_position *start, const xqi_move *moves, size_t n, uint64_t *key,
		      uint32_t *window)
{
	struct xqi_position b = *start;

	key[0] = b.key;
	window[0] = 0;
	for (size_t k = 1; k <= n; k++) {
		struct xqi_undo u;
		xqi_position_make(&b, moves[k - 1], &u);
		key[k] = b.key;
		window[k] = u.captured ? 0 : window[k - 1] < 65535 ? window[k - 1] + 1 : 65535;
	}
}

/* The latest earlier occurrence of position j in its window, at least 4
 * plies back, by scanning back; returns the occurrences, j included. */
static unsigned scan_repetition(const uint64_t *key, const uint32_t *window, size_t j, long *match)
{
	unsigned occ = 1;

	*match = -1;
	for (size_t back = 4; back <= window[j]; back += 2) {
		if (key[j - back] != key[j])
			continue;
		if (*match < 0)
			*match = (long)(j - back);
		occ++;
	}
	return occ;
}

/*
 * The cycles of a line by scanning back at every ply: each a longest run
 * of plies that repeat the position the same number of plies back, from
 * the earlier occurrence of its first ply's position to its last ply.
 */
static size_t scan_cycles(const struct line *l, struct xqi_rules_cycle *out)
{
	uint64_t *key = malloc((l->n + 1) * sizeof(*key));
	uint32_t *window = malloc((l->n + 1) * sizeof(*window));
	long *match = malloc((l->n + 2) * sizeof(*match));
	unsigned *occ = malloc((l->n + 1) * sizeof(*occ));
	size_t nc = 0;

	assert_true(key && window && match && occ);
	line_keys(&l->start, l->moves, l->n, key, window);
	for (size_t j = 1; j <= l->n; j++)
		occ[j] = scan_repetition(key, window, j, &match[j]);
	match[l->n + 1] = -1;
	for (size_t j = 1; j <= l->n; j++) {
		size_t period = j - (size_t)match[j], end = j;
		unsigned most = occ[j];
		if (match[j] < 0)
			continue;
		while (match[end + 1] >= 0 && end + 1 - (size_t)match[end + 1] == period)
			most = occ[++end] > most ? occ[end] : most;
		memset(&out[nc], 0, sizeof(out[nc]));
		out[nc].first = (uint32_t)match[j];
		out[nc].last = (uint32_t)end;
		out[nc].period = (uint32_t)period;
		out[nc++].repeats = most;
		j = end;
	}
	free(key);
	free(window);
	free(match);
	free(occ);
	return nc;
}

/* One side's conduct and the verdict of cycle `c`, judged move by move
 * from the classification of every ply (`all`), as rules.h states them. */
static void judge_by_hand(const struct xqi_rules_report *all, const struct xqi_rules_cycle *c,
			  enum xq_ruleset rs, struct xqi_rules_side side[2], uint8_t *verdict)
{
	int pc[2], forbidden[2];

	for (int s = 0; s < 2; s++) {
		struct xqi_rules_side *o = &side[s];
		uint32_t common = UINT32_MAX;
		memset(o, 0, sizeof(*o));
		for (uint32_t k = c->first + 1; k <= c->last; k++) {
			const struct xqi_rules_ply *p = &all->plies[k - 1];
			if (p->side != s)
				continue;
			o->moves++;
			o->checks += p->kind == XQI_RULES_CHECK;
			o->kills += p->kind == XQI_RULES_KILL;
			o->chases += p->kind == XQI_RULES_CHASE;
			o->idles += p->kind == XQI_RULES_IDLE;
			common &= p->chased;
		}
		if (o->moves && o->checks == o->moves)
			o->conduct = XQI_CONDUCT_PERPETUAL_CHECK;
		else if (o->moves && rs == XQ_RULESET_ASIAN && common) {
			o->conduct = XQI_CONDUCT_PERPETUAL_CHASE;
			o->target_id = 16;
			while (!(common & (1u << (o->target_id - 16))))
				o->target_id++;
			o->target_kind = xqi_kind_of_id[o->target_id];
		} else if (o->moves && rs == XQ_RULESET_CHINESE && !o->idles)
			o->conduct = o->chases == o->moves ? XQI_CONDUCT_PERPETUAL_CHASE
				     : o->kills == o->moves ? XQI_CONDUCT_PERPETUAL_KILL
							     : XQI_CONDUCT_FORBIDDEN_MIX;
		/* Where the chased piece stood the last time it was chased. */
		for (uint32_t k = c->last; o->target_id && k > c->first && !o->target_sq; k--) {
			const struct xqi_rules_ply *p = &all->plies[k - 1];
			for (int t = 0; p->side == s && t < p->nthreats; t++)
				if (p->threats[t].target_id == o->target_id &&
				    XQI_RULES_WHY_COUNTS(p->threats[t].why)) {
					o->target_sq = p->threats[t].target;
					o->target_why = p->threats[t].why;
				}
		}
		pc[s] = o->conduct == XQI_CONDUCT_PERPETUAL_CHECK;
		forbidden[s] = o->conduct != XQI_CONDUCT_ALLOWED;
	}
	if (pc[0] != pc[1])
		*verdict = pc[XQI_RED] ? XQ_RULING_RED_LOSES : XQ_RULING_BLACK_LOSES;
	else if (!pc[0] && forbidden[0] != forbidden[1])
		*verdict = forbidden[XQI_RED] ? XQ_RULING_RED_LOSES : XQ_RULING_BLACK_LOSES;
	else
		*verdict = XQ_RULING_DRAW;
}

static const char *const wandering_fens[] = {
	"7R1/1n7/P3k4/9/8P/9/6N2/9/9/5K3 w - - 0 1",
	"9/3k1n3/9/9/5R3/9/9/5K3/9/9 w - - 0 1",
	"5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1",
	"4P4/9/4k4/9/c6r1/9/9/5R3/9/3K5 w - - 0 1",
	"2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
	XQI_START_FEN,
};

static void repetitions_found_in_one_pass_are_those_a_scan_of_the_window_finds(void **state)
{
	static struct line l;
	static struct xqi_rules_cycle want[MAX_LINE];
	struct xqi_rules_options o = opts(XQ_RULESET_ASIAN);
	struct xqi_rules_report r;
	size_t total = 0;

	(void)state;
	xqi_rules_report_init(&r);
	for (size_t f = 0; f < sizeof(wandering_fens) / sizeof(wandering_fens[0]); f++) {
		for (uint32_t seed = 1; seed <= 3; seed++) {
			size_t nc;
			l.start = pos(wandering_fens[f]);
			l.n = wandering_line(l.moves, MAX_LINE, &l.start, seed, seed != 3);
			analyze(&r, &l, &o);
			nc = scan_cycles(&l, want);
			total += nc;
			assert_int_equal(r.ncycles, nc);
			for (size_t i = 0; i < nc; i++) {
				assert_int_equal(r.cycles[i].first, want[i].first);
				assert_int_equal(r.cycles[i].last, want[i].last);
				assert_int_equal(r.cycles[i].period, want[i].period);
				assert_int_equal(r.cycles[i].repeats, want[i].repeats);
			}
			/* The first cycle containing each ply. */
			for (uint32_t ply = 0; ply <= l.n + 1; ply++) {
				long at = -1;
				for (size_t i = 0; i < nc && at < 0; i++)
					if (ply > want[i].first && ply <= want[i].last)
						at = (long)i;
				assert_int_equal(xqi_rules_cycle_at(&r, ply), at);
			}
		}
	}
	assert_true(total > 1000);
	xqi_rules_report_release(&r);
}

static void every_cycle_is_judged_over_exactly_its_own_moves(void **state)
{
	static struct line l;
	struct xqi_rules_report r, all, one;
	struct xqi_position b;

	(void)state;
	xqi_rules_report_init(&r);
	xqi_rules_report_init(&all);
	xqi_rules_report_init(&one);
	for (size_t f = 0; f < sizeof(wandering_fens) / sizeof(wandering_fens[0]); f++) {
		for (int rs = XQ_RULESET_ASIAN; rs <= XQ_RULESET_CHINESE; rs++) {
			struct xqi_rules_options o = opts((enum xq_ruleset)rs), oa = o;
			int judged[5] = {0};
			oa.flags |= XQI_RULES_CLASSIFY_ALL;
			l.start = pos(wandering_fens[f]);
			l.n = wandering_line(l.moves, MAX_LINE, &l.start, (uint32_t)(f + 7), 1);
			analyze(&r, &l, &o);
			analyze(&all, &l, &oa);
			for (size_t i = 0; i < r.ncycles; i++) {
				const struct xqi_rules_cycle *c = &r.cycles[i];
				struct xqi_rules_side side[2];
				uint8_t verdict;
				judge_by_hand(&all, c, (enum xq_ruleset)rs, side, &verdict);
				assert_int_equal(c->verdict, verdict);
				judged[c->side[0].conduct]++;
				judged[c->side[1].conduct]++;
				for (int s = 0; s < 2; s++) {
					assert_int_equal(c->side[s].conduct, side[s].conduct);
					assert_int_equal(c->side[s].moves, side[s].moves);
					assert_int_equal(c->side[s].checks, side[s].checks);
					assert_int_equal(c->side[s].kills, side[s].kills);
					assert_int_equal(c->side[s].chases, side[s].chases);
					assert_int_equal(c->side[s].idles, side[s].idles);
					assert_int_equal(c->side[s].target_id, side[s].target_id);
					assert_int_equal(c->side[s].target_kind, side[s].target_kind);
					assert_int_equal(c->side[s].target_sq, side[s].target_sq);
					assert_int_equal(c->side[s].target_why, side[s].target_why);
				}
			}
			/* Exactly the plies inside cycles are classified, as with all,
			 * and as the move alone is from its position (a classification
			 * is made once per position and move, then copied). */
			b = l.start;
			for (uint32_t k = 1; k <= l.n; k++) {
				const struct xqi_rules_ply *p = &r.plies[k - 1], *q;
				struct xq_diagnostic d;
				struct xqi_undo u;
				if (xqi_rules_cycle_at(&r, k) < 0) {
					assert_int_equal(p->kind, XQI_RULES_UNCLASSIFIED);
				} else {
					assert_int_equal(p->kind, all.plies[k - 1].kind);
					assert_int_equal(p->chased, all.plies[k - 1].chased);
					xqi_diagnostic_init(&d);
					assert_int_equal(xqi_rules_analyze(&one, &b, &l.moves[k - 1], 1,
									  &oa, &d),
							 0);
					q = &one.plies[0];
					assert_int_equal(p->kind, q->kind);
					assert_int_equal(p->flags, q->flags);
					assert_int_equal(p->chased, q->chased);
					assert_int_equal(p->mate, q->mate);
					assert_int_equal(p->more, q->more);
					assert_int_equal(p->nthreats, q->nthreats);
					assert_memory_equal(p->threats, q->threats,
							    p->nthreats * sizeof(p->threats[0]));
				}
				xqi_position_make(&b, l.moves[k - 1], &u);
			}
			/* The lines reach more than plain draws. */
			if (f == 0)
				assert_true(judged[XQI_CONDUCT_PERPETUAL_CHASE] > 0);
		}
	}
	xqi_rules_report_release(&r);
	xqi_rules_report_release(&all);
	xqi_rules_report_release(&one);
}

static void a_classification_is_copied_only_to_the_same_pieces_on_the_same_squares(void **state)
{
	/* The black cannon chases the rook on a0 twice from positions of the
	 * same key, but the red rooks have swapped places in between: the
	 * rook chased the second time is the other one. */
	struct line l;
	struct xqi_rules_report r;
	struct xqi_rules_options o = opts(XQ_RULESET_ASIAN);
	uint8_t first, second;

	(void)state;
	load(&l, "4k4/9/1c7/9/9/9/P8/9/9/R2K4R w - - 0 1",
	     "d0d1 b7a7 d1d0 a7b7 a0a1 e9e8 i0i2 e8e9 a1i1 e9e8 i2a2 e8e9 i1i0 e9e8 a2a0 e8e9 "
	     "d0d1 b7a7 d1d0 a7b7",
	     NULL, 0);
	first = l.start.sq[XQI_SQ(0, 0)];
	second = l.start.sq[XQI_SQ(8, 0)];
	xqi_rules_report_init(&r);
	analyze(&r, &l, &o);
	assert_int_equal(r.plies[1].kind, XQI_RULES_CHASE);
	assert_int_equal(r.plies[1].chased, 1u << (first - 16));
	assert_int_equal(r.plies[17].kind, XQI_RULES_CHASE);
	assert_int_equal(r.plies[17].chased, 1u << (second - 16));
	xqi_rules_report_release(&r);
}

static void a_long_shuffle_counts_its_repeats_within_the_window(void **state)
{
	/* `window` counts at most 65535 plies: a position that came back more
	 * often than that window holds is counted in the window only, now as
	 * when every ply scanned it. */
	static const char *cyc[4] = {"h0g2", "h9g7", "g2h0", "g7h9"};
	const size_t lens[2] = {40000, 70000};
	const unsigned repeats[2] = {10001, 16384};
	struct xqi_rules_report r;
	struct xqi_position start = pos(XQI_START_FEN);
	xqi_move *moves = malloc(70000 * sizeof(*moves));

	(void)state;
	assert_non_null(moves);
	for (size_t k = 0; k < 70000; k++)
		moves[k] = iccs(cyc[k % 4]);
	xqi_rules_report_init(&r);
	for (int i = 0; i < 2; i++) {
		struct xq_diagnostic d;
		xqi_diagnostic_init(&d);
		assert_int_equal(xqi_rules_analyze(&r, &start, moves, lens[i], NULL, &d), 0);
		assert_int_equal(r.ncycles, 1);
		assert_int_equal(r.cycles[0].first, 0);
		assert_int_equal(r.cycles[0].last, lens[i]);
		assert_int_equal(r.cycles[0].period, 4);
		assert_int_equal(r.cycles[0].repeats, repeats[i]);
		assert_int_equal(r.cycles[0].verdict, XQ_RULING_DRAW);
		assert_int_equal(r.cycles[0].side[XQI_RED].moves, lens[i] / 2);
	}
	xqi_rules_report_release(&r);
	free(moves);
}

/* ---- move limits ------------------------------------------------------------- */

#define IDLE12 "a0a4 i9i5 a4a2 i5i7 a2a0 i7i6 a0a3 i6i8 a3a1 i8i4 a1a0 i4i9"

static void natural_limit_is_reached_after_120_plies_without_capture(void **state)
{
	struct line l;
	struct xqi_rules_report r;
	struct xqi_rules_options o = opts(XQ_RULESET_ASIAN);
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	load(&l, "4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", "", IDLE12, 11);
	xqi_rules_report_init(&r);
	analyze(&r, &l, &o);
	assert_int_equal(r.nlimits, 1);
	assert_int_equal(r.limits[0].kind, XQI_LIMIT_NATURAL);
	assert_int_equal(r.limits[0].ply, 120);
	assert_int_equal(r.limits[0].since, 0);
	assert_int_equal(r.limits[0].mate, 0);
	assert_int_equal(r.plies[119].count, 120);
	assert_int_equal(xqi_rules_describe_limit(&out, &r, 0), 0);
	assert_string_equal(out.ptr, "natural limit: 120 plies reached at ply 120 (counted from ply "
				     "0): draw\n");
	/* The FEN's halfmove clock counts. */
	load(&l, "4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 100 51", "", IDLE12, 2);
	analyze(&r, &l, &o);
	assert_int_equal(r.nlimits, 1);
	assert_int_equal(r.limits[0].ply, 20);
	/* A capture starts the count again (without it: ply 10). */
	load(&l, "4k3r/9/9/9/p8/9/9/9/9/R2K5 w - - 110 51", "a0a5 i9i8 a5a0 i8i9", IDLE12, 1);
	analyze(&r, &l, &o);
	assert_int_equal(r.nlimits, 0);
	assert_int_equal(r.plies[0].count, 0);
	assert_int_equal(r.plies[15].count, 15);
	load(&l, "4k3r/9/9/9/p8/9/9/9/9/R2K5 w - - 110 51", "a0a4 i9i8 a4a0 i8i9", IDLE12, 1);
	analyze(&r, &l, &o);
	assert_int_equal(r.nlimits, 1);
	assert_int_equal(r.limits[0].ply, 10);
	o.natural_limit = 0;
	load(&l, "4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", "", IDLE12, 11);
	analyze(&r, &l, &o);
	assert_int_equal(r.nlimits, 0);
	xq_buf_release(&out);
	xqi_rules_report_release(&r);
}

static void axf_checks_beyond_ten_and_their_replies_do_not_count(void **state)
{
	struct line l;
	struct xqi_rules_report r;
	struct xqi_rules_options o = opts(XQ_RULESET_ASIAN);

	(void)state;
	load(&l, "3k5/8R/9/9/9/9/9/9/9/4K4 w - - 0 1", "", "i8i9 d9d8 i9i8 d8d9", 30);
	xqi_rules_report_init(&r);
	analyze(&r, &l, &o);
	assert_int_equal(r.nlimits, 1);
	assert_int_equal(r.limits[0].ply, 120);
	o.counted_checks = 10;
	analyze(&r, &l, &o);
	assert_int_equal(r.nlimits, 0);
	/* Red's first ten checks and black's replies count, then nothing. */
	assert_int_equal(r.plies[19].count, 20);
	assert_int_equal(r.plies[20].count, 20);
	assert_int_equal(r.plies[119].count, 20);
	/* A limit reached while uncounted plies follow is reached once. */
	o.natural_limit = 20;
	analyze(&r, &l, &o);
	assert_int_equal(r.nlimits, 1);
	assert_int_equal(r.limits[0].ply, 20);
	xqi_rules_report_release(&r);
}

static void clubxiangqi_limits_count_progress_total_and_effective_plies(void **state)
{
	struct line l;
	struct xqi_rules_report r;
	struct xqi_rules_options o = opts(XQ_RULESET_ASIAN);

	(void)state;
	o.cxq = 1;
	o.natural_limit = 0;
	load(&l, "4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", "", IDLE12, 6);
	xqi_rules_report_init(&r);
	analyze(&r, &l, &o);
	/* 72 idle plies: the progress limit (60) is reached, not the others. */
	assert_int_equal(r.nlimits, 1);
	assert_int_equal(r.limits[0].kind, XQI_LIMIT_CXQ_PROGRESS);
	assert_int_equal(r.limits[0].ply, 60);
	/* Smaller limits show the other two. */
	o.cxq_effective = 10;
	o.cxq_total = 30;
	analyze(&r, &l, &o);
	assert_int_equal(r.nlimits, 3);
	assert_int_equal(r.limits[0].kind, XQI_LIMIT_CXQ_EFFECTIVE);
	assert_int_equal(r.limits[0].ply, 10);
	assert_int_equal(r.limits[1].kind, XQI_LIMIT_CXQ_TOTAL);
	assert_int_equal(r.limits[1].ply, 30);
	/* The total counts from the FEN's move number. */
	load(&l, "4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 0 11", "", IDLE12, 1);
	analyze(&r, &l, &o);
	assert_int_equal(r.limits[r.nlimits - 1].kind, XQI_LIMIT_CXQ_TOTAL);
	assert_int_equal(r.limits[r.nlimits - 1].ply, 10);
	/* Checks and their replies are not effective. */
	load(&l, "3k5/8R/9/9/9/9/9/9/9/4K4 w - - 0 1", "", "i8i9 d9d8 i9i8 d8d9", 5);
	o.cxq_total = 600;
	analyze(&r, &l, &o);
	assert_int_equal(r.nlimits, 0);
	/* A pawn advance across the river is progress. */
	o.cxq_progress = 4;
	load(&l, "4k3r/9/9/9/P8/9/9/9/9/3K5 w - - 0 1", "a5a6 i9i8 a6a7 i8i9 a7a8 i9i8", NULL, 0);
	analyze(&r, &l, &o);
	assert_int_equal(r.nlimits, 0);
	load(&l, "4k3r/9/9/9/P8/9/9/9/9/3K5 w - - 0 1", "a5b5 i9i8 b5a5 i8i9", NULL, 0);
	analyze(&r, &l, &o);
	assert_int_equal(r.nlimits, 1);
	assert_int_equal(r.limits[0].ply, 4);
	xqi_rules_report_release(&r);
}

static void limit_reached_by_a_mating_move_is_marked(void **state)
{
	struct line l;
	struct xqi_rules_report r;
	struct xqi_rules_options o = opts(XQ_RULESET_ASIAN);
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	o.natural_limit = 1;
	load(&l, "3k5/R8/9/9/9/9/9/9/9/4K3R w - - 0 1", "i0i9", NULL, 0);
	xqi_rules_report_init(&r);
	analyze(&r, &l, &o);
	assert_int_equal(r.end, XQ_STATE_CHECKMATE);
	assert_int_equal(r.nlimits, 1);
	assert_int_equal(r.limits[0].mate, 1);
	assert_int_equal(xqi_rules_describe(&out, &r), 0);
	ASSERT_CONTAINS(out.ptr, "the position is mate, which decides instead");
	xq_buf_release(&out);
	xqi_rules_report_release(&r);
}

/* ---- errors and the game model -------------------------------------------------- */

static void illegal_move_is_reported_with_its_ply_and_text(void **state)
{
	struct line l;
	struct xqi_rules_report r;
	struct xq_diagnostic d;

	(void)state;
	load(&l, XQI_START_FEN, "h2e2 h9g7 h0h2", NULL, 0);
	xqi_rules_report_init(&r);
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_rules_analyze(&r, &l.start, l.moves, l.n, NULL, &d), XQ_EILLEGAL);
	assert_int_equal(d.code, XQI_D_ILLEGAL_MOVE);
	assert_int_equal(d.ply, 3);
	assert_string_equal(d.move, "h0h2");
	assert_int_equal(r.nplies, 2);
	xqi_rules_report_release(&r);
}

static void build_game(struct xqi_record *g, const char *fen, const char *moves, const char *cycle,
		       int times, enum xqi_result res)
{
	struct line l;
	uint32_t node = XQI_ROOT;

	load(&l, fen, moves, cycle, times);
	assert_int_equal(xqi_record_init(g), 0);
	g->start = l.start;
	for (size_t k = 0; k < l.n; k++)
		assert_int_equal(xqi_record_add_move(g, node, l.moves[k], &node), 0);
	g->result = res;
}

static void analysis_follows_a_game_line_to_a_variation(void **state)
{
	struct xqi_record g;
	struct xqi_rules_report r;
	uint32_t node = XQI_ROOT, var;

	(void)state;
	build_game(&g, PCHECK_FEN, PCHECK, NULL, 0, XQI_RESULT_NONE);
	/* A variation at ply 3 (after i8i9 d9d8) that does not repeat. */
	node = g.nodes[g.nodes[XQI_ROOT].child].child;
	assert_int_equal(xqi_record_add_move(&g, node, iccs("i9h9"), &var), 0);
	node = xqi_record_mainline_end(&g);
	xqi_rules_report_init(&r);
	assert_int_equal(xqi_rules_analyze_game(&r, &g, node, NULL, NULL), 0);
	assert_int_equal(r.nplies, 4);
	assert_int_equal(r.ncycles, 1);
	assert_int_equal(xqi_rules_analyze_game(&r, &g, var, NULL, NULL), 0);
	assert_int_equal(r.nplies, 3);
	assert_int_equal(r.ncycles, 0);
	assert_int_equal(xqi_rules_analyze_game(&r, &g, 9999, NULL, NULL), XQ_ERANGE);
	xqi_rules_report_release(&r);
	xqi_record_release(&g);
}

static void assert_same_board(const struct xqi_position *a, const struct xqi_position *b)
{
	assert_memory_equal(a->sq, b->sq, sizeof(a->sq));
	assert_memory_equal(a->pc, b->pc, sizeof(a->pc));
	assert_memory_equal(a->rank_bits, b->rank_bits, sizeof(a->rank_bits));
	assert_memory_equal(a->file_bits, b->file_bits, sizeof(a->file_bits));
	assert_true(a->key == b->key);
	assert_int_equal(a->side, b->side);
	assert_int_equal(a->halfmove, b->halfmove);
	assert_int_equal(a->fullmove, b->fullmove);
}

static void could_apply_says_when_the_rules_can_speak_and_leaves_the_final_position(void **state)
{
	struct xqi_rules_options o = opts(XQ_RULESET_ASIAN);
	struct xqi_position want, got;
	struct xqi_record g;
	uint32_t var;

	(void)state;
	/* The final position occurred before: the rules may speak. */
	build_game(&g, PCHECK_FEN, PCHECK, NULL, 0, XQI_RESULT_NONE);
	assert_int_equal(xqi_rules_could_apply(&g, &o, &got), 1);
	xqi_record_board_at(&g, xqi_record_mainline_end(&g), &want);
	assert_same_board(&got, &want);
	xqi_record_release(&g);

	/* Captures on both sides (the cannon takes on e6, the horse takes it
	 * back), black to move at the end, a variation beside the main line:
	 * nothing repeats, and the final position is the main line's. */
	build_game(&g, XQI_START_FEN, "h2e2 h9g7 e2e6 g7e6 h0g2 b9c7 g3g4", NULL, 0,
		   XQI_RESULT_NONE);
	assert_int_equal(xqi_record_add_move(&g, g.nodes[XQI_ROOT].child, iccs("b9c7"), &var), 0);
	assert_int_equal(xqi_rules_could_apply(&g, &o, &got), 0);
	xqi_record_board_at(&g, xqi_record_mainline_end(&g), &want);
	assert_same_board(&got, &want);
	assert_int_equal(got.side, XQI_BLACK);
	assert_int_equal(got.halfmove, 3);
	assert_int_equal(got.fullmove, 4);
	/* A move limit of 2 quiet plies is reached on the way. */
	o.natural_limit = 2;
	assert_int_equal(xqi_rules_could_apply(&g, &o, &got), 1);
	xqi_record_release(&g);

	/* No moves: the start position. */
	build_game(&g, PCHECK_FEN, "", NULL, 0, XQI_RESULT_NONE);
	o.natural_limit = 120;
	assert_int_equal(xqi_rules_could_apply(&g, &o, &got), 0);
	assert_same_board(&got, &g.start);
	xqi_record_release(&g);
}

/* ---- checking recorded results ------------------------------------------------- */

static enum xqi_rules_support check(const char *fen, const char *cycle, int times,
				   const char *tail, enum xqi_result res, enum xqi_rules_claim claim,
				   enum xq_ruleset rs, struct xq_diagnostic *d, struct xq_buf *explain)
{
	struct line l, t;
	struct xqi_rules_options o = opts(rs);
	enum xqi_rules_support st;

	load(&l, fen, "", cycle, times);
	if (tail) {
		load(&t, fen, tail, NULL, 0);
		for (size_t k = 0; k < t.n; k++)
			l.moves[l.n++] = t.moves[k];
	}
	xqi_diagnostic_init(d);
	assert_int_equal(xqi_rules_check_result(&st, &l.start, l.moves, l.n, res, claim, &o, d,
					       explain),
			 0);
	return st;
}

static void perpetual_checker_must_carry_the_loss(void **state)
{
	struct xq_diagnostic d;
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	assert_int_equal(check(PCHECK_FEN, PCHECK, 2, NULL, XQI_RESULT_BLACK_WIN,
			       XQI_CLAIM_UNSPECIFIED, XQ_RULESET_ASIAN, &d, &out),
			 XQI_SUPPORT_CONFIRMED);
	assert_int_equal(d.code, XQI_D_PERPETUAL_CHECK);
	assert_int_equal(d.severity, XQ_SEVERITY_NOTE);
	assert_int_equal(d.ply, 8);
	assert_string_equal(d.move, "d8d9");
	assert_string_equal(d.msg, "plies 1-8 repeat (i8i9 d9d8 i9i8 d8d9; 3 times): red checks "
				   "every move, black's moves are allowed: red loses under asian "
				   "rules, as recorded");
	ASSERT_CONTAINS(out.ptr, "verdict under asian rules: red loses");

	assert_int_equal(check(PCHECK_FEN, PCHECK, 2, NULL, XQI_RESULT_DRAW, XQI_CLAIM_REPETITION,
			       XQ_RULESET_CHINESE, &d, NULL),
			 XQI_SUPPORT_CONTRADICTED);
	assert_int_equal(d.code, XQI_D_PERPETUAL_CHECK);
	assert_int_equal(d.severity, XQ_SEVERITY_ERROR);
	assert_string_equal(d.msg, "plies 1-8 repeat (i8i9 d9d8 i9i8 d8d9; 3 times): red checks "
				   "every move, black's moves are allowed: red loses under chinese "
				   "rules, but the result is 1/2-1/2");
	assert_int_equal(check(PCHECK_FEN, PCHECK, 2, NULL, XQI_RESULT_RED_WIN, XQI_CLAIM_UNSPECIFIED,
			       XQ_RULESET_ASIAN, &d, NULL),
			 XQI_SUPPORT_CONTRADICTED);
	/* Seen only twice, it still counts (o.min_repeats is 2). */
	assert_int_equal(check(PCHECK_FEN, PCHECK, 1, NULL, XQI_RESULT_BLACK_WIN,
			       XQI_CLAIM_UNSPECIFIED, XQ_RULESET_ASIAN, &d, NULL),
			 XQI_SUPPORT_CONFIRMED);
	xq_buf_release(&out);
}

static void perpetual_chaser_must_carry_the_loss(void **state)
{
	struct xq_diagnostic d;

	(void)state;
	assert_int_equal(check("7R1/1n7/P3k4/9/8P/9/6N2/9/9/5K3 w - - 0 1",
			       "h9h8 b8d9 h8h9 d9b8", 2, NULL, XQI_RESULT_DRAW, XQI_CLAIM_UNSPECIFIED,
			       XQ_RULESET_ASIAN, &d, NULL),
			 XQI_SUPPORT_CONTRADICTED);
	assert_int_equal(d.code, XQI_D_PERPETUAL_CHASE);
	ASSERT_CONTAINS(d.msg, "red chases the horse on d9 every move");
	ASSERT_CONTAINS(d.msg, "red loses under asian rules, but the result is 1/2-1/2");
}

static void drawn_repetition_supports_a_draw_and_doubts_a_decision(void **state)
{
	struct xq_diagnostic d;
	const char *fen = "4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";

	(void)state;
	assert_int_equal(check(fen, "a0a4 i9i5 a4a0 i5i9", 2, NULL, XQI_RESULT_DRAW,
			       XQI_CLAIM_REPETITION, XQ_RULESET_ASIAN, &d, NULL),
			 XQI_SUPPORT_CONFIRMED);
	assert_int_equal(d.code, XQI_D_REPETITION);
	assert_int_equal(check(fen, "a0a4 i9i5 a4a0 i5i9", 2, NULL, XQI_RESULT_RED_WIN,
			       XQI_CLAIM_UNSPECIFIED, XQ_RULESET_ASIAN, &d, NULL),
			 XQI_SUPPORT_DOUBTFUL);
	assert_int_equal(d.severity, XQ_SEVERITY_WARNING);
	ASSERT_CONTAINS(d.msg, "draw under asian rules, but the result is 1-0");
	/* No result recorded: a note with what the rules give. */
	assert_int_equal(check(PCHECK_FEN, PCHECK, 2, NULL, XQI_RESULT_NONE, XQI_CLAIM_UNSPECIFIED,
			       XQ_RULESET_ASIAN, &d, NULL),
			 XQI_SUPPORT_SILENT);
	assert_int_equal(d.severity, XQ_SEVERITY_NOTE);
	ASSERT_CONTAINS(d.msg, "red loses under asian rules, and the record gives no result");
}

static void claimed_repetition_must_show_the_repetition(void **state)
{
	struct xq_diagnostic d;
	const char *fen = "4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";

	(void)state;
	/* The repetition happened, then red moved on. */
	assert_int_equal(check(fen, "a0a4 i9i5 a4a0 i5i9", 2, "a0a1", XQI_RESULT_DRAW,
			       XQI_CLAIM_REPETITION, XQ_RULESET_ASIAN, &d, NULL),
			 XQI_SUPPORT_NOT_SHOWN);
	assert_int_equal(d.code, XQI_D_REPETITION);
	assert_int_equal(d.severity, XQ_SEVERITY_ERROR);
	assert_int_equal(d.ply, 9);
	assert_string_equal(d.msg, "the result is claimed by repetition, but the final position "
				   "does not repeat (the last repetition is plies 1-8)");
	assert_int_equal(check(fen, "", 0, "a0a1", XQI_RESULT_DRAW, XQI_CLAIM_REPETITION,
			       XQ_RULESET_ASIAN, &d, NULL),
			 XQI_SUPPORT_NOT_SHOWN);
	assert_string_equal(d.msg, "the result is claimed by repetition, but no position repeats");
	/* Without a claim, a draw may be by agreement. */
	assert_int_equal(check(fen, "", 0, "a0a1", XQI_RESULT_DRAW, XQI_CLAIM_UNSPECIFIED,
			       XQ_RULESET_ASIAN, &d, NULL),
			 XQI_SUPPORT_SILENT);
	assert_int_equal(d.code, XQI_D_NONE);
}

static void move_limit_supports_a_draw(void **state)
{
	struct xq_diagnostic d;
	const char *fen = "4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";

	(void)state;
	assert_int_equal(check(fen, IDLE12, 10, "a0a1", XQI_RESULT_DRAW, XQI_CLAIM_MOVE_LIMIT,
			       XQ_RULESET_ASIAN, &d, NULL),
			 XQI_SUPPORT_CONFIRMED);
	assert_int_equal(d.code, XQI_D_MOVE_LIMIT);
	assert_int_equal(d.ply, 120);
	assert_string_equal(d.msg, "the natural limit of 120 plies is reached at ply 120: draw, as "
				   "recorded");
	assert_int_equal(check(fen, IDLE12, 10, "a0a1", XQI_RESULT_RED_WIN, XQI_CLAIM_UNSPECIFIED,
			       XQ_RULESET_ASIAN, &d, NULL),
			 XQI_SUPPORT_DOUBTFUL);
	assert_int_equal(d.severity, XQ_SEVERITY_WARNING);
	assert_int_equal(check(fen, IDLE12, 2, "a0a1", XQI_RESULT_DRAW, XQI_CLAIM_MOVE_LIMIT,
			       XQ_RULESET_ASIAN, &d, NULL),
			 XQI_SUPPORT_NOT_SHOWN);
	assert_int_equal(d.code, XQI_D_MOVE_LIMIT);
	ASSERT_CONTAINS(d.msg, "no limit is reached (25 plies without capture at the end");
}

static void mate_at_the_end_is_not_a_rule_ending(void **state)
{
	struct xq_diagnostic d;

	(void)state;
	assert_int_equal(check("3k5/R8/9/9/9/9/9/9/9/4K3R w - - 0 1", "", 0, "i0i9",
			       XQI_RESULT_RED_WIN, XQI_CLAIM_UNSPECIFIED, XQ_RULESET_ASIAN, &d, NULL),
			 XQI_SUPPORT_SILENT);
	assert_int_equal(d.code, XQI_D_NONE);
}

static void check_game_reads_the_main_line_and_result(void **state)
{
	struct xqi_record g;
	enum xqi_rules_support st;
	struct xq_diagnostic d;
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	build_game(&g, PCHECK_FEN, "", PCHECK, 2, XQI_RESULT_DRAW);
	xqi_diagnostic_init(&d);
	d.game = 7;
	assert_int_equal(xqi_rules_check_game(&st, &g, XQI_CLAIM_UNSPECIFIED, NULL, &d, &out), 0);
	assert_int_equal(st, XQI_SUPPORT_CONTRADICTED);
	assert_int_equal(d.game, 7);
	assert_int_equal(d.ply, 8);
	ASSERT_CONTAINS(out.ptr, "repetition: plies 1-8");
	xq_buf_release(&out);
	xqi_record_release(&g);
}

/* ---- the search track ---------------------------------------------------------- */

static void track_push(struct xqi_rules_track *t, struct xqi_position *b, const char *m,
		       struct xqi_undo *u)
{
	xqi_position_make(b, iccs(m), u);
	assert_int_equal(xqi_rules_track_push(t, b, iccs(m), u), 0);
}

static void track_needs_one_repetition_after_the_root_or_three_before(void **state)
{
	struct xqi_rules_track t;
	struct xqi_position b = pos(PCHECK_FEN);
	struct xqi_undo u[16];
	struct xqi_rules_probe p;
	const char *mv[] = {"i8i9", "d9d8", "i9i8", "d8d9", "i8i9", "d9d8", "i9i8", "d8d9"};

	(void)state;
	assert_int_equal(xqi_rules_track_init(&t, &b, 16, NULL), 0);
	/* The root is the start: one repetition after it decides. */
	for (int k = 0; k < 4; k++) {
		track_push(&t, &b, mv[k], &u[k]);
		if (k < 3)
			assert_int_equal(xqi_rules_track_probe(&t, &b, &p), 0);
	}
	assert_int_equal(xqi_rules_track_probe(&t, &b, &p), 0); /* P4 = P0, the root itself */
	track_push(&t, &b, mv[4], &u[4]);
	assert_int_equal(xqi_rules_track_probe(&t, &b, &p), 1); /* P5 = P1, after the root */
	assert_int_equal(p.verdict, XQ_RULING_RED_LOSES);
	assert_int_equal(p.conduct[XQI_RED], XQI_CONDUCT_PERPETUAL_CHECK);
	assert_int_equal(p.first, 1);
	assert_int_equal(p.last, 5);
	/* Back to P4 and make it the root: now P8 needs a third occurrence,
	 * which it has (P0, P4, P8). */
	xqi_rules_track_pop(&t);
	xqi_position_unmake(&b, iccs(mv[4]), &u[4]);
	xqi_rules_track_set_root(&t);
	for (int k = 4; k < 8; k++)
		track_push(&t, &b, mv[k], &u[k]);
	assert_int_equal(xqi_rules_track_probe(&t, &b, &p), 1);
	assert_int_equal(p.first, 4);
	/* With five occurrences required it is not yet decided. */
	t.opt.search_repeats = 5;
	assert_int_equal(xqi_rules_track_probe(&t, &b, &p), 0);
	/* A board that is not the track's position is refused. */
	xqi_rules_track_pop(&t);
	assert_int_equal(xqi_rules_track_probe(&t, &b, &p), XQ_EINTERNAL);
	xqi_rules_track_release(&t);
}

static void track_reports_the_natural_limit_and_its_capacity(void **state)
{
	struct xqi_rules_track t;
	struct xqi_position b = pos("4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 117 60");
	struct xqi_rules_probe p;
	struct xqi_undo u;
	const char *mv[] = {"a0a4", "i9i5", "a4a2"};

	(void)state;
	assert_int_equal(xqi_rules_track_init(&t, &b, 2, NULL), 0);
	track_push(&t, &b, mv[0], &u);
	assert_int_equal(xqi_rules_track_probe(&t, &b, &p), 0);
	track_push(&t, &b, mv[1], &u);
	assert_int_equal(xqi_rules_track_probe(&t, &b, &p), 0);
	xqi_position_make(&b, iccs(mv[2]), &u);
	assert_int_equal(xqi_rules_track_push(&t, &b, iccs(mv[2]), &u), XQ_ERANGE);
	xqi_position_unmake(&b, iccs(mv[2]), &u);
	xqi_rules_track_reset(&t, &b);
	assert_int_equal(xqi_rules_track_probe(&t, &b, &p), 0);
	track_push(&t, &b, mv[2], &u);
	assert_int_equal(xqi_rules_track_probe(&t, &b, &p), 1);
	assert_int_equal(p.limit, 1);
	assert_int_equal(p.verdict, XQ_RULING_DRAW);
	xqi_rules_track_pop(&t);
	xqi_rules_track_pop(&t);
	xqi_rules_track_pop(&t); /* at the start: nothing happens */
	assert_int_equal(t.n, 1);
	xqi_rules_track_release(&t);
}

/* ---- names -------------------------------------------------------------------------- */

static void track_probe_walks_only_the_positions_whose_keys_share_its_bucket(void **state)
{
	/* A line without captures in which the last position's key shares
	 * its low bits (its bucket) with an earlier, different position.
	 * Then the key recorded for another position of the same side to
	 * move is made equal to the last one's, behind the track's back: a
	 * probe that scanned the window would call that a repetition, but the
	 * probe only walks the last key's bucket, which that entry joined
	 * under its own key. */
	static xqi_move moves[MAX_LINE];
	static uint64_t key[MAX_LINE + 1];
	static uint32_t window[MAX_LINE + 1];
	struct xqi_position start = pos("4k3r/9/2n6/9/9/9/9/6N2/9/R2K5 w - - 0 1"), b = start;
	size_t n = wandering_line(moves, MAX_LINE, &start, 11, 1), j = 0, other = SIZE_MAX;
	struct xqi_rules_track t;
	struct xqi_rules_probe p;

	(void)state;
	line_keys(&start, moves, n, key, window);
	for (size_t k = 8; k <= n && !j; k++) {
		int shared = 0, repeats = 0;
		for (size_t i = 0; i + 4 <= k && i + window[k] >= k; i++) {
			repeats |= key[i] == key[k];
			shared |= key[i] != key[k] &&
				  !((key[i] ^ key[k]) & (XQI_RULES_FILTER_SIZE - 1));
		}
		if (shared && !repeats && window[k] >= 8)
			j = k;
	}
	assert_true(j > 0);
	for (size_t back = 4; back <= window[j] && other == SIZE_MAX; back += 2)
		if ((key[j - back] ^ key[j]) & (XQI_RULES_FILTER_SIZE - 1))
			other = j - back;
	assert_true(other != SIZE_MAX);
	assert_int_equal(xqi_rules_track_init(&t, &b, MAX_LINE, NULL), 0);
	for (size_t k = 0; k < j; k++) {
		struct xqi_undo u;
		xqi_position_make(&b, moves[k], &u);
		assert_int_equal(xqi_rules_track_push(&t, &b, moves[k], &u), 0);
	}
	assert_int_equal(xqi_rules_track_probe(&t, &b, &p), 0);
	t.e[other].key = t.e[j].key;
	assert_int_equal(xqi_rules_track_probe(&t, &b, &p), 0);
	xqi_rules_track_release(&t);
}

static void track_finds_the_repetitions_a_scan_of_the_window_finds(void **state)
{
	/* Random pushes, pops and roots; every probe against a scan back over
	 * the track's positions (which repetition decides, and where). */
	enum { CAP = 600 };
	struct xqi_rules_options o = opts(XQ_RULESET_ASIAN);
	struct xqi_rules_track t;
	uint64_t key[CAP + 1];
	uint32_t window[CAP + 1];
	xqi_move moves[CAP];
	struct xqi_undo undo[CAP];
	long hits = 0;

	(void)state;
	o.natural_limit = 0;
	for (size_t f = 0; f < sizeof(wandering_fens) / sizeof(wandering_fens[0]); f++) {
		struct xqi_position b = pos(wandering_fens[f]);
		uint32_t seed = (uint32_t)f + 100;
		size_t n = 0, root = 0;
		xqi_move last[2] = {0, 0};
		o.search_repeats = (uint8_t)(1 + f % 3);
		assert_int_equal(xqi_rules_track_init(&t, &b, CAP, &o), 0);
		key[0] = b.key;
		window[0] = 0;
		for (int step = 0; step < 20000; step++) {
			uint32_t r = next_rand(&seed) % 16;
			struct xqi_rules_probe p;
			xqi_move legal[XQ_MOVES_MAX], m;
			int nl, got;
			long match;
			unsigned occ, need = o.search_repeats;
			if ((r < 3 || n == CAP) && n > 0) {
				xqi_rules_track_pop(&t);
				xqi_position_unmake(&b, moves[n - 1], &undo[n - 1]);
				n--;
				if (root > n)
					root = n;
				continue;
			}
			if (r == 3) {
				xqi_rules_track_set_root(&t);
				root = n;
				continue;
			}
			nl = xqi_gen_legal(&b, legal);
			if (!nl)
				break;
			m = legal[next_rand(&seed) % (uint32_t)nl];
			for (int i = 0; i < nl && last[b.side]; i++)
				if (legal[i] == XQI_MOVE(XQI_MOVE_TO(last[b.side]),
							XQI_MOVE_FROM(last[b.side])) &&
				    next_rand(&seed) % 4)
					m = legal[i];
			last[b.side] = m;
			xqi_position_make(&b, m, &undo[n]);
			moves[n++] = m;
			key[n] = b.key;
			window[n] = undo[n - 1].captured ? 0 : window[n - 1] + 1;
			assert_int_equal(xqi_rules_track_push(&t, &b, m, &undo[n - 1]), 0);
			got = xqi_rules_track_probe(&t, &b, &p);
			occ = scan_repetition(key, window, n, &match);
			if (match >= 0 && (size_t)match <= root && occ < need)
				match = -1;
			assert_int_equal(got, match >= 0);
			if (got) {
				assert_int_equal(p.first, match);
				assert_int_equal(p.last, n);
				hits++;
			}
		}
		xqi_rules_track_release(&t);
	}
	assert_true(hits > 100);
}

static void rule_set_names_parse_and_print(void **state)
{
	enum xq_ruleset s;

	(void)state;
	assert_int_equal(xqi_rules_set_from_name("asian", &s), 0);
	assert_int_equal(s, XQ_RULESET_ASIAN);
	assert_int_equal(xqi_rules_set_from_name("AXF", &s), 0);
	assert_int_equal(s, XQ_RULESET_ASIAN);
	assert_int_equal(xqi_rules_set_from_name("wxf", &s), 0);
	assert_int_equal(xqi_rules_set_from_name("Chinese", &s), 0);
	assert_int_equal(s, XQ_RULESET_CHINESE);
	assert_int_equal(xqi_rules_set_from_name("cxa", &s), 0);
	assert_int_equal(xqi_rules_set_from_name("chinese2", &s), XQ_ENOTFOUND);
	assert_int_equal(xqi_rules_set_from_name("", &s), XQ_ENOTFOUND);
	assert_int_equal(xqi_rules_set_from_name(NULL, &s), XQ_ENOTFOUND);
	assert_string_equal(xqi_rules_set_name(XQ_RULESET_ASIAN), "asian");
	assert_string_equal(xqi_rules_set_name(XQ_RULESET_CHINESE), "chinese");
	assert_string_equal(xqi_rules_verdict_name(XQ_RULING_RED_LOSES), "red loses");
	assert_int_equal(xqi_rules_verdict_result(XQ_RULING_RED_LOSES), XQI_RESULT_BLACK_WIN);
	assert_int_equal(xqi_rules_verdict_result(XQ_RULING_BLACK_LOSES), XQI_RESULT_RED_WIN);
	assert_int_equal(xqi_rules_verdict_result(XQ_RULING_DRAW), XQI_RESULT_DRAW);
	assert_int_equal(xqi_rules_verdict_result(XQ_RULING_NONE), XQI_RESULT_NONE);
	assert_string_equal(xqi_rules_support_name(XQI_SUPPORT_NOT_SHOWN), "not-shown");
	assert_string_equal(xqi_rules_kind_name(XQI_RULES_KILL), "kill");
	assert_string_equal(xqi_rules_conduct_name(XQI_CONDUCT_FORBIDDEN_MIX),
			    "attacks on every move");
}

static void options_init_gives_the_documented_defaults(void **state)
{
	struct xqi_rules_options o = XQI_RULES_OPTIONS_INIT;

	(void)state;
	assert_int_equal(o.rules, XQ_RULESET_ASIAN);
	assert_int_equal(o.natural_limit, 120);
	assert_int_equal(o.counted_checks, 0);
	assert_int_equal(o.cxq, 0);
	assert_int_equal(o.cxq_effective, 240);
	assert_int_equal(o.cxq_progress, 60);
	assert_int_equal(o.cxq_total, 600);
	assert_int_equal(o.min_repeats, 2);
	assert_int_equal(o.search_repeats, 3);
	assert_int_equal(o.flags, 0);
}

static void describe_refuses_indexes_out_of_range(void **state)
{
	struct xqi_rules_report r;
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	xqi_rules_report_init(&r);
	assert_int_equal(xqi_rules_describe_ply(&out, &r, 1), XQ_ERANGE);
	assert_int_equal(xqi_rules_describe_cycle(&out, &r, 0), XQ_ERANGE);
	assert_int_equal(xqi_rules_describe_limit(&out, &r, 0), XQ_ERANGE);
	assert_int_equal(xqi_rules_describe(&out, &r), 0);
	assert_int_equal(out.len, 0);
	xq_buf_release(&out);
}

/* ---- the shared corpus --------------------------------------------------------------- */

/*
 * A test-only reader for the ICCS PGN of ../shared (the wukong collection,
 * no FEN, plain ASCII moves): games are split at "[Event", moves are the
 * tokens that look like ICCS moves.
 */
static int is_iccs_token(const char *p)
{
	return p[0] >= 'a' && p[0] <= 'i' && p[1] >= '0' && p[1] <= '9' && p[2] >= 'a' &&
	       p[2] <= 'i' && p[3] >= '0' && p[3] <= '9' &&
	       (p[4] == ' ' || p[4] == '\n' || p[4] == '\r' || p[4] == '\0');
}

static void every_game_ending_in_a_repetition_is_found_in_the_shared_corpus(void **state)
{
	const char *shared = test_shared_dir();
	char path[4200], *text, *g;
	int games = 0, repeating = 0;

	(void)state;
	SKIP_WITHOUT_SHARED(shared);
	snprintf(path, sizeof(path),
		 "%s/corpus/pgn/maksimKorzh__wukong-xiangqi/xqdb/xqdb/Liu_Dahua_1125_UCI_games.pgn",
		 shared);
	text = slurp(path);
	if (!text)
		TEST_SKIP("%s not found", path);
	for (g = strstr(text, "[Event"); g; g = strstr(g + 1, "[Event")) {
		char *end = strstr(g + 1, "[Event"), *body = strstr(g, "\n\n");
		static struct line l;
		static struct xqi_position seen[MAX_LINE];
		struct xqi_rules_report r;
		int naive = 0, found;

		if (!body || (end && body > end))
			continue;
		l.start = pos(XQI_START_FEN);
		l.n = 0;
		for (char *p = body; *p && (!end || p < end); p++)
			if ((p == body || p[-1] == ' ' || p[-1] == '\n') && is_iccs_token(p))
				l.moves[l.n++] = iccs(p);
		/* The naive way: compare the final board with every earlier one. */
		seen[0] = l.start;
		for (size_t k = 0; k < l.n; k++) {
			struct xqi_undo u;
			seen[k + 1] = seen[k];
			xqi_position_make(&seen[k + 1], l.moves[k], &u);
		}
		for (size_t k = 0; k < l.n; k++)
			if (seen[k].side == seen[l.n].side &&
			    !memcmp(seen[k].sq, seen[l.n].sq, sizeof(seen[k].sq)))
				naive = 1;
		xqi_rules_report_init(&r);
		analyze(&r, &l, NULL);
		found = final_cycle(&r) != NULL;
		xqi_rules_report_release(&r);
		if (naive != found)
			fail_msg("game %d: the final position %s earlier, the analysis says %s",
				 games + 1, naive ? "occurs" : "does not occur",
				 found ? "it does" : "it does not");
		games++;
		repeating += naive;
	}
	free(text);
	assert_int_equal(games, 1125);
	/* Counted independently with a script over the same file. */
	assert_int_equal(repeating, 51);
}

/* The XQF records the corpus fixture's hbsxcjp games were converted from. */
static void xqf_records_agree_with_the_fixture_and_their_results(void **state)
{
	static const struct {
		const char *name, *path;
		enum xqi_result result;
		enum xqi_rules_support support;
	} cases[] = {
		{"wuyang_2001_r2_tao_liu",
		 "chessManual/示例文件/第21届五羊杯赛对局选（评注版）/6、第二轮 陶汉明\u3000红先和 柳大华.XQF",
		 XQI_RESULT_DRAW, XQI_SUPPORT_CONFIRMED},
		{"wuyang_2001_r2_lv_xu",
		 "chessManual/示例文件/5、\uE5E5第二轮 吕钦\u3000红先胜 徐天红 2001.1.XQF",
		 XQI_RESULT_RED_WIN, XQI_SUPPORT_SILENT},
	};
	const char *shared = test_shared_dir();
	const struct xqi_format *xqf = xqi_format_find("xqf");
	struct table t;

	(void)state;
	SKIP_WITHOUT_SHARED(shared);
	assert_non_null(xqf);
	read_table(&t, "tests/data/rules/corpus.tsv");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[4400];
		struct xqi_input *in;
		struct xqi_record g;
		struct xq_diagnostic d;
		static struct line want;
		enum xqi_rules_support st;
		void *r;
		uint32_t node;
		size_t k = 0;

		for (int row = 0; row < t.nrows; row++)
			if (!strcmp(t.rows[row][K_NAME], cases[i].name))
				case_line(&want, t.rows[row], K_FEN, K_MOVES);
		snprintf(path, sizeof(path), "%s/corpus/xqf/hbsxcjp__cchess_c/%s", shared,
			 cases[i].path);
		xqi_diagnostic_init(&d);
		if (xqi_input_open(&in, path, &d))
			TEST_SKIP("%s: %s", path, d.msg);
		assert_int_equal(xqi_record_init(&g), 0);
		assert_int_equal(xqf->open_reader(&r, in, NULL, NULL), 0);
		assert_int_equal(xqf->read(r, &g), 1);
		/* The main line is the line the fixture took from the twin. */
		for (node = g.nodes[XQI_ROOT].child; node != XQ_NO_NODE; node = g.nodes[node].child) {
			assert_true(k < want.n);
			assert_int_equal(g.nodes[node].move, want.moves[k]);
			k++;
		}
		assert_int_equal(k, want.n);
		assert_int_equal(g.result, cases[i].result);
		xqi_diagnostic_init(&d);
		assert_int_equal(xqi_rules_check_game(&st, &g, XQI_CLAIM_UNSPECIFIED, NULL, &d, NULL), 0);
		assert_int_equal(st, cases[i].support);
		xqf->close_reader(r);
		xqi_input_close(in);
		xqi_record_release(&g);
	}
	free_table(&t);
}

/* ---- Fairy-Stockfish 11.1, live -------------------------------------------------- */


/* ICCS to Fairy-Stockfish's UCI (ranks 1-10). */
static void to_uci1(char *out, size_t cap, xqi_move m)
{
	xqi_sq f = XQI_MOVE_FROM(m), t = XQI_MOVE_TO(m);

	snprintf(out, cap, "%c%d%c%d", 'a' + XQI_SQ_FILE(f), XQI_SQ_RANK(f) + 1, 'a' + XQI_SQ_FILE(t),
		 XQI_SQ_RANK(t) + 1);
}

static void fairy_stockfish_11_1_still_gives_the_recorded_answers(void **state)
{
	struct table t;
	char script[4096];
	const char *fairy = test_fairy();
	char cmd[9000], buf[4096];
	FILE *f, *p;
	int fd, row = 0, compared = 0;

	(void)state;
	SKIP_WITHOUT_FAIRY(fairy);
	read_table(&t, "tests/data/rules/cases.tsv");
	fd = test_tmpfile(script, sizeof(script), "rules");
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fprintf(f, "uci\nsetoption name UCI_Variant value xiangqi\nsetoption name Threads value 1\n"
		   "setoption name Contempt value 0\nisready\n");
	for (int i = 0; i < t.nrows; i++) {
		struct line l;
		char m[8];
		case_line(&l, t.rows[i], C_FEN, C_MOVES);
		fprintf(f, "ucinewgame\nposition fen %s moves", t.rows[i][C_FEN]);
		for (size_t k = 0; k + 1 < l.n; k++) {
			to_uci1(m, sizeof(m), l.moves[k]);
			fprintf(f, " %s", m);
		}
		to_uci1(m, sizeof(m), l.moves[l.n - 1]);
		fprintf(f, "\ngo depth 6 searchmoves %s\n", m);
	}
	/* ucinewgame waits for the last search to finish; quit would stop it. */
	fprintf(f, "ucinewgame\nquit\n");
	fclose(f);
	snprintf(cmd, sizeof(cmd), "'%s' < '%s'", fairy, script);
	p = popen(cmd, "r");
	assert_non_null(p);
	{
		char last[4096] = "";
		while (fgets(buf, sizeof(buf), p)) {
			if (!strncmp(buf, "info", 4) && contains(buf, " score ") &&
			    !contains(buf, "bound"))
				snprintf(last, sizeof(last), "%s", buf);
			if (!strncmp(buf, "bestmove", 8) && row < t.nrows) {
				char **r = t.rows[row++];
				struct line l;
				int mover, mate, score;
				const char *got, *s = strstr(last, " score ");
				case_line(&l, r, C_FEN, C_MOVES);
				/* The side that made the last move. */
				mover = l.start.side ^ (int)((l.n - 1) & 1);
				assert_non_null(s);
				mate = !strncmp(s, " score mate ", 12);
				score = (int)strtol(s + (mate ? 12 : 10), NULL, 10);
				if (mate && score < 0)
					got = mover == XQI_RED ? "red-loses" : "black-loses";
				else if (mate)
					got = mover == XQI_RED ? "black-loses" : "red-loses";
				else
					got = score == 0 ? "draw" : "other";
				if (strcmp(got, r[C_FS11]))
					fail_msg("%s: Fairy-Stockfish 11.1 now says %s (%s), the "
						 "table says %s",
						 r[C_NAME], got, last, r[C_FS11]);
				compared++;
				last[0] = '\0';
			}
		}
	}
	pclose(p);
	unlink(script);
	assert_int_equal(compared, t.nrows);
	free_table(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rule_set_names_parse_and_print),
		cmocka_unit_test(options_init_gives_the_documented_defaults),
		cmocka_unit_test(every_case_gets_its_recorded_verdict_under_both_rule_sets),
		cmocka_unit_test(fairy_stockfish_disagreements_name_the_rule_text),
		cmocka_unit_test(mirrored_and_colour_swapped_cases_get_the_same_verdicts),
		cmocka_unit_test(search_track_agrees_with_the_analysis_on_every_case),
		cmocka_unit_test(corpus_games_get_their_recorded_verdicts),
		cmocka_unit_test(corpus_recorded_results_are_checked),
		cmocka_unit_test(perpetual_check_names_each_check_and_the_rule),
		cmocka_unit_test(horse_chasing_a_protected_rook_is_explained),
		cmocka_unit_test(protected_piece_and_exchange_offer_are_not_chases),
		cmocka_unit_test(exchange_offer_inside_a_chase_still_chases),
		cmocka_unit_test(pawn_that_has_not_crossed_is_not_chased),
		cmocka_unit_test(kings_and_pawns_may_attack_for_ever),
		cmocka_unit_test(elephant_attacking_a_protected_horse_chases_only_under_chinese_rules),
		cmocka_unit_test(rook_attack_on_an_uncrossed_and_a_crossed_pawn),
		cmocka_unit_test(evasion_does_not_turn_old_attacks_into_chases),
		cmocka_unit_test(chase_that_existed_before_the_move_is_not_new),
		cmocka_unit_test(mate_threat_is_a_kill_with_its_mating_move),
		cmocka_unit_test(cycle_periods_of_4_6_8_and_12_plies_are_found),
		cmocka_unit_test(no_position_repeats_after_two_plies),
		cmocka_unit_test(separate_repetitions_are_separate_cycles),
		cmocka_unit_test(repetitions_found_in_one_pass_are_those_a_scan_of_the_window_finds),
		cmocka_unit_test(every_cycle_is_judged_over_exactly_its_own_moves),
		cmocka_unit_test(a_classification_is_copied_only_to_the_same_pieces_on_the_same_squares),
		cmocka_unit_test(a_long_shuffle_counts_its_repeats_within_the_window),
		cmocka_unit_test(natural_limit_is_reached_after_120_plies_without_capture),
		cmocka_unit_test(axf_checks_beyond_ten_and_their_replies_do_not_count),
		cmocka_unit_test(clubxiangqi_limits_count_progress_total_and_effective_plies),
		cmocka_unit_test(limit_reached_by_a_mating_move_is_marked),
		cmocka_unit_test(illegal_move_is_reported_with_its_ply_and_text),
		cmocka_unit_test(analysis_follows_a_game_line_to_a_variation),
		cmocka_unit_test(could_apply_says_when_the_rules_can_speak_and_leaves_the_final_position),
		cmocka_unit_test(perpetual_checker_must_carry_the_loss),
		cmocka_unit_test(perpetual_chaser_must_carry_the_loss),
		cmocka_unit_test(drawn_repetition_supports_a_draw_and_doubts_a_decision),
		cmocka_unit_test(claimed_repetition_must_show_the_repetition),
		cmocka_unit_test(move_limit_supports_a_draw),
		cmocka_unit_test(mate_at_the_end_is_not_a_rule_ending),
		cmocka_unit_test(check_game_reads_the_main_line_and_result),
		cmocka_unit_test(track_needs_one_repetition_after_the_root_or_three_before),
		cmocka_unit_test(track_reports_the_natural_limit_and_its_capacity),
		cmocka_unit_test(track_probe_walks_only_the_positions_whose_keys_share_its_bucket),
		cmocka_unit_test(track_finds_the_repetitions_a_scan_of_the_window_finds),
		cmocka_unit_test(describe_refuses_indexes_out_of_range),
		cmocka_unit_test(every_game_ending_in_a_repetition_is_found_in_the_shared_corpus),
		cmocka_unit_test(xqf_records_agree_with_the_fixture_and_their_results),
		cmocka_unit_test(fairy_stockfish_11_1_still_gives_the_recorded_answers),
	};
	return cmocka_run_group_tests_name("rules", tests, NULL, NULL);
}
