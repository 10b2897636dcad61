/*
 * test_ecco.c: the ECCO opening classification: agreement with the
 * reference on every opening of the fixture (tests/data/ecco/cases.tsv,
 * 2,538 openings of the shared corpus with the reference's codes), the
 * names byte for byte (tests/data/ecco/codes.tsv, the published table),
 * and the behaviours the rules promise: a mirrored game, moves of a side
 * in another order, short games, games not from the start, and the code
 * list parser that `find --ecco` and `stats` use.
 */
#include "testutil.h"

#include "position.h"
#include "diagnostic.h"
#include "ecco.h"
#include "record.h"
#include "notation.h"

#define CASES "tests/data/ecco/cases.tsv"
#define CODES "tests/data/ecco/codes.tsv"

static xqi_move iccs(const char *s)
{
	return XQI_MOVE(XQI_SQ(s[0] - 'a', s[1] - '0'), XQI_SQ(s[2] - 'a', s[3] - '0'));
}

/* The same move on the board turned left for right (file a <-> i). */
static xqi_move mirrored(xqi_move m)
{
	xqi_sq f = XQI_MOVE_FROM(m), t = XQI_MOVE_TO(m);
	return XQI_MOVE(XQI_SQ(8 - XQI_SQ_FILE(f), XQI_SQ_RANK(f)), XQI_SQ(8 - XQI_SQ_FILE(t), XQI_SQ_RANK(t)));
}

/* Moves written in WXF ("C2.5 N8+7 ..."), played from the start. */
static size_t wxf_game(const char *game, xqi_move *out, size_t cap)
{
	const char *text = game;
	struct xqi_position b;
	struct xqi_undo u;
	struct xq_diagnostic d;
	size_t n = 0;

	xqi_position_start(&b);
	while (*text) {
		size_t len = strcspn(text, " ");
		if (len) {
			xqi_diagnostic_init(&d);
			if (xqi_notation_read(&out[n], &b, text, len, XQ_DIALECT_WXF, &d) != 0)
				fail_msg("move %zu '%.*s' of \"%s\": %s", n + 1, (int)len, text, game,
					 d.msg);
			xqi_position_make(&b, out[n], &u);
			assert_true(++n < cap);
		}
		text += len;
		while (*text == ' ')
			text++;
	}
	return n;
}

static const struct xqi_ecco *classify(const xqi_move *moves, size_t n)
{
	struct xqi_position start;
	const struct xqi_ecco *e = NULL;
	struct xq_diagnostic d;

	xqi_position_start(&start);
	xqi_diagnostic_init(&d);
	if (xqi_ecco_classify(&e, &start, moves, n, &d) != 0)
		fail_msg("classify: %s", d.msg);
	assert_non_null(e);
	return e;
}

static const struct xqi_ecco *classify_wxf(const char *text)
{
	xqi_move moves[64];
	return classify(moves, wxf_game(text, moves, 64));
}

/* Games in WXF and the codes they must get. */
struct line {
	const char *moves, *code;
};

static void expect_lines(const struct line *lines, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct xqi_ecco *e = classify_wxf(lines[i].moves);
		if (strcmp(e->code, lines[i].code) != 0)
			fail_msg("\"%s\" is %s, not %s", lines[i].moves, e->code, lines[i].code);
	}
}

/* One row of cases.tsv: id, code, moves in ICCS. */
struct case_row {
	char id[16];
	char code[4];
	xqi_move moves[XQ_ECCO_PLIES];
	size_t n;
};

/* Read the fixture; returns the number of rows, fills up to `cap`. */
static size_t read_cases(struct case_row *rows, size_t cap)
{
	FILE *f = fopen(CASES, "r");
	char line[512];
	size_t n = 0;

	if (!f)
		fail_msg("cannot open %s", CASES);
	assert_non_null(fgets(line, sizeof(line), f)); /* header */
	while (fgets(line, sizeof(line), f)) {
		struct case_row *r = &rows[n];
		char *p = line, *tab;

		assert_true(n < cap);
		memset(r, 0, sizeof(*r));
		tab = strchr(p, '\t');
		assert_non_null(tab);
		snprintf(r->id, sizeof(r->id), "%.*s", (int)(tab - p), p);
		p = tab + 1;
		assert_true(strlen(p) >= 3 && p[3] == '\t');
		memcpy(r->code, p, 3);
		for (p += 4; *p && *p != '\n';) {
			size_t len = strcspn(p, " \n");
			assert_int_equal(len, 4);
			assert_true(r->n < XQ_ECCO_PLIES);
			r->moves[r->n++] = iccs(p);
			p += len;
			while (*p == ' ')
				p++;
		}
		n++;
	}
	fclose(f);
	return n;
}

#define MAX_CASES 3000

static void every_opening_of_the_fixture_gets_the_reference_code(void **state)
{
	static struct case_row rows[MAX_CASES];
	size_t n = read_cases(rows, MAX_CASES), wrong = 0;

	(void)state;
	assert_int_equal(n, 2538);
	for (size_t i = 0; i < n; i++) {
		const struct xqi_ecco *e = classify(rows[i].moves, rows[i].n);
		if (strcmp(e->code, rows[i].code) != 0 && wrong++ < 20)
			fprintf(stderr, "case %s: %s, reference %s\n", rows[i].id, e->code,
				rows[i].code);
	}
	if (wrong)
		fail_msg("%zu of %zu openings disagree with the reference", wrong, n);
}

static void a_mirrored_game_gets_the_same_code(void **state)
{
	static struct case_row rows[MAX_CASES];
	size_t n = read_cases(rows, MAX_CASES);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		xqi_move turned[XQ_ECCO_PLIES];
		for (size_t j = 0; j < rows[i].n; j++)
			turned[j] = mirrored(rows[i].moves[j]);
		if (strcmp(classify(turned, rows[i].n)->code, rows[i].code) != 0)
			fail_msg("case %s mirrored is %s, not %s", rows[i].id,
				 classify(turned, rows[i].n)->code, rows[i].code);
	}
	/* 炮八平五 马２进３ is 炮二平五 马８进７ seen in a mirror. */
	assert_string_equal(classify_wxf("C8.5 N2+3")->code, "B05");
	assert_string_equal(classify_wxf("C8.5 N2+3")->opening, "中炮对进左马");
}

static void moves_in_another_order_within_a_side_get_the_same_code(void **state)
{
	static const struct line lines[] = {
		/* 中炮过河车七路马对屏风马两头蛇, in the book's order and in another */
		{"C2.5 N8+7 N2+3 R9.8 R1.2 P7+1 R2+6 N2+3 N8+7 P3+1", "C20"},
		{"C2.5 N8+7 N2+3 P7+1 R1.2 R9.8 N8+7 N2+3 R2+6 P3+1", "C20"},
		/* ... and the line goes on the same way from either order */
		{"C2.5 N8+7 N2+3 R9.8 R1.2 P7+1 R2+6 N2+3 N8+7 P3+1 R9+1 C2+1 R2-2 B3+5 P3+1",
		 "C23"},
		{"C2.5 N8+7 N2+3 P7+1 R1.2 R9.8 N8+7 N2+3 R2+6 P3+1 R9+1 C2+1 R2-2 B3+5 P3+1",
		 "C23"},
		/* 中炮两头蛇对左三步虎: 三兵 and 七兵 in either order */
		{"C2.5 N8+7 N2+3 C8.9 P3+1 N2+3 P7+1", "B25"},
		{"C2.5 N8+7 N2+3 C8.9 P7+1 N2+3 P3+1", "B25"},
		/* 飞相转屏风马: Red's horses in either order */
		{"B3+5 C8.5 N2+3 N8+7 N8+7", "A28"},
		{"B3+5 C8.5 N8+7 N8+7 N2+3", "A28"},
		/* but the order of the plies matters where the book fixes it */
		{"B3+5 C8.4 N2+3 N8+7 R1.2 P7+1", "A32"},
		{"B3+5 C8.4 N2+3 P7+1 R1.2 N8+7", "A31"},
	};

	(void)state;
	expect_lines(lines, sizeof(lines) / sizeof(lines[0]));
}

static void games_shorter_than_20_plies(void **state)
{
	static const struct line lines[] = {
		{"C2.5", "B00"},
		{"C2.5 N8+7", "B05"},
		{"B3+5", "A10"},
		{"P3+1 C8.7", "E10"},
		{"P5+1", "A00"}, /* a first move the book does not name */
	};
	const struct xqi_ecco *e;

	(void)state;
	e = classify(NULL, 0);
	assert_string_equal(e->code, "A00");
	assert_string_equal(e->opening, "其他开局");
	expect_lines(lines, sizeof(lines) / sizeof(lines[0]));
}

/*
 * Lines of the book that no game of the fixture reaches, with the codes
 * the reference's rules give them.
 */
static void lines_the_fixture_does_not_reach(void **state)
{
	static const struct line lines[] = {
		{"P1+1", "A08"}, /* 边兵局 */
		{"C2+4", "A05"}, /* 过河炮局 */
		{"C2+2", "A04"}, /* 巡河炮局 */
		{"C2.1", "A03"}, /* 边炮局 */
		/* 中炮右横车对左三步虎, Black's 横车 coming after 三步虎 */
		{"C2.5 N8+7 N2+3 C8.9 R1+1 R9+1", "B22"},
		/* 反宫马: 右横车 is B34, but after 五六炮 the 五六炮 lines decide */
		{"C2.5 N2+3 N2+3 C8.6 R1+1 N8+7", "B34"},
		{"C2.5 N2+3 N2+3 C8.6 C8.6 N8+7 R1+1", "B40"},
		/* 巡河车 against the screen horses, and nothing but the moves of
		 * that line to the 10th: the reference answers C10 (its scan
		 * falls through into the 右横车 one), not C15. */
		{"C2.5 N8+7 N2+3 N2+3 R1.2 R1+1 R2+4 R1-1 P7+1 R1+1 P7+1 R1-1 P7+1 R1+1 "
		 "P7+1 R1-1 P7+1 R1+1 P7+1 R1-1",
		 "C10"},
		/* ... and with one other move among them, 巡河车 as expected */
		{"C2.5 N8+7 N2+3 N2+3 R1.2 R1+1 R2+4 R1-1 P7+1 R1+1 P7+1 R1-1 P7+1 R1+1 "
		 "P7+1 R1-1 P7+1 R1+1 A4+5 R1-1",
		 "C15"},
		/* 五八炮互进三兵对屏风马红左边马: Black's 5th move decides, or
		 * the 6th after 飞象 */
		{"C2.5 N8+7 N2+3 N2+3 P3+1 P3+1 C8+4 R9.8 N8+9 B7+5 R1.2 A4+5", "C94"},
	};

	(void)state;
	expect_lines(lines, sizeof(lines) / sizeof(lines[0]));
}

static void plies_after_the_20th_are_never_read(void **state)
{
	static struct case_row rows[MAX_CASES];
	size_t n = read_cases(rows, MAX_CASES);
	xqi_move longer[XQ_ECCO_PLIES + 2];

	(void)state;
	for (size_t i = 0; i < n; i++) {
		if (rows[i].n != XQ_ECCO_PLIES)
			continue;
		memcpy(longer, rows[i].moves, sizeof(rows[i].moves));
		longer[XQ_ECCO_PLIES] = 0; /* not even a move: never looked at */
		longer[XQ_ECCO_PLIES + 1] = iccs("a0a9");
		assert_string_equal(classify(longer, XQ_ECCO_PLIES + 2)->code, rows[i].code);
	}
}

static void a_game_not_from_the_start_is_an_endgame(void **state)
{
	static const char *fens[] = {
		/* a pawn short */
		"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P2/1C5C1/9/RNBAKABNR w - - 0 1",
		/* the start, but Black to move */
		"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
		/* an endgame */
		"3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1",
	};
	struct xqi_position b;
	struct xq_diagnostic d;
	const struct xqi_ecco *e;
	xqi_move m = iccs("h2e2");

	(void)state;
	for (size_t i = 0; i < sizeof(fens) / sizeof(fens[0]); i++) {
		xqi_diagnostic_init(&d);
		assert_int_equal(xqi_position_from_fen(&b, fens[i], strlen(fens[i]), 0, &d), 0);
		e = NULL;
		assert_int_equal(xqi_ecco_classify(&e, &b, &m, 1, &d), 0);
		assert_string_equal(e->code, "A00");
		assert_string_equal(e->opening, "残局");
		assert_string_equal(e->variation, "");
	}
	/* The move counters are not part of the position. */
	xqi_position_start(&b);
	b.halfmove = 7;
	b.fullmove = 30;
	assert_int_equal(xqi_ecco_classify(&e, &b, &m, 1, &d), 0);
	assert_string_equal(e->code, "B00");
}

static void classify_game_reads_the_main_line(void **state)
{
	struct xqi_record g;
	struct xq_diagnostic d;
	const struct xqi_ecco *e = NULL;
	uint32_t a, b, v;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(xqi_record_add_move(&g, XQI_ROOT, iccs("h2e2"), &a), 0);
	assert_int_equal(xqi_record_add_move(&g, a, iccs("h9g7"), &b), 0); /* 马８进７ */
	assert_int_equal(xqi_record_add_move(&g, a, iccs("b7e7"), &v), 0); /* variation: 顺炮 */
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_ecco_classify_game(&e, &g, &d), 0);
	assert_string_equal(e->code, "B05");
	xqi_record_clear(&g);
	assert_int_equal(xqi_ecco_classify_game(&e, &g, &d), 0);
	assert_string_equal(e->opening, "其他开局");
	xqi_record_release(&g);
}

static void a_move_array_that_cannot_be_played_is_reported(void **state)
{
	struct xqi_position start;
	struct xq_diagnostic d;
	const struct xqi_ecco *e = NULL;
	xqi_move black_first[] = {iccs("h7e7")};
	xqi_move from_empty[] = {iccs("h2e2"), iccs("e5e4")};
	xqi_move onto_own[] = {iccs("h2e2"), iccs("h9g7"), iccs("i0h0")};

	(void)state;
	xqi_position_start(&start);
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_ecco_classify(&e, &start, black_first, 1, &d), XQ_EILLEGAL);
	assert_int_equal(d.code, XQI_D_ILLEGAL_MOVE);
	assert_int_equal(d.ply, 1);
	assert_string_equal(d.move, "h7e7");
	assert_null(e);
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_ecco_classify(&e, &start, from_empty, 2, &d), XQ_EILLEGAL);
	assert_int_equal(d.ply, 2);
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_ecco_classify(&e, &start, onto_own, 3, &d), XQ_EILLEGAL);
	assert_int_equal(d.ply, 3);
	assert_int_equal(xqi_ecco_classify(&e, &start, onto_own, 3, NULL), XQ_EILLEGAL);
}

/* Split a line of codes.tsv at its tabs (in place). */
static void split3(char *line, char **a, char **b, char **c)
{
	line[strcspn(line, "\r\n")] = '\0';
	*a = line;
	*b = strchr(*a, '\t');
	assert_non_null(*b);
	*(*b)++ = '\0';
	*c = strchr(*b, '\t');
	assert_non_null(*c);
	*(*c)++ = '\0';
}

static void every_published_code_has_its_names_byte_for_byte(void **state)
{
	FILE *f = fopen(CODES, "r");
	char line[512], *code, *opening, *variation;
	size_t count, row = 0;
	const struct xqi_ecco *all = xqi_ecco_names(&count);

	(void)state;
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	split3(line, &code, &opening, &variation);
	assert_string_equal(code, "code");
	while (fgets(line, sizeof(line), f)) {
		const struct xqi_ecco *e;
		split3(line, &code, &opening, &variation);
		e = xqi_ecco_lookup(code, strlen(code));
		assert_non_null(e);
		assert_string_equal(e->code, code);
		assert_memory_equal(e->opening, opening, strlen(opening) + 1);
		assert_memory_equal(e->variation, variation, strlen(variation) + 1);
		/* and the list holds exactly these, in this order */
		assert_true(row < count);
		assert_ptr_equal(&all[row], e);
		row++;
	}
	fclose(f);
	assert_int_equal(row, 260);
	assert_int_equal(count, row);
	/* Full-width digits stay full width. */
	assert_string_equal(xqi_ecco_lookup("C52", 3)->variation, "黑进７卒右直车");
}

static void lookup_finds_only_named_codes(void **state)
{
	(void)state;
	assert_string_equal(xqi_ecco_lookup("A00", 3)->opening, "其他开局");
	assert_string_equal(xqi_ecco_lookup("E48", 3)->opening, "对兵转兵底炮对左中炮");
	assert_null(xqi_ecco_lookup("A09", 3));
	assert_null(xqi_ecco_lookup("E99", 3));
	assert_null(xqi_ecco_lookup("a00", 3));
	assert_null(xqi_ecco_lookup("F00", 3));
	assert_null(xqi_ecco_lookup("C4", 2));
	assert_null(xqi_ecco_lookup("C455", 4));
	assert_string_equal(xqi_ecco_lookup("C455", 3)->code, "C45");
	assert_int_equal(xqi_ecco_index("A00", 3), 0);
	assert_int_equal(xqi_ecco_index("C45", 3), 245);
	assert_int_equal(xqi_ecco_index("E99", 3), 499);
	assert_int_equal(xqi_ecco_index("E9", 2), -1);
	assert_int_equal(xqi_ecco_index("e99", 3), -1);
}

static void the_rule_table_is_well_formed(void **state)
{
	struct xq_diagnostic d;

	(void)state;
	xqi_diagnostic_init(&d);
	if (xqi_ecco_check(&d) != 0)
		fail_msg("%s", d.msg);
}

static void every_code_the_rules_give_has_a_name(void **state)
{
	static struct case_row rows[MAX_CASES];
	size_t n = read_cases(rows, MAX_CASES);

	(void)state;
	/* The table names its answers by the name list's own entries, so
	 * this holds by construction; the fixture shows it in practice. */
	for (size_t i = 0; i < n; i++) {
		const struct xqi_ecco *e = classify(rows[i].moves, rows[i].n);
		assert_ptr_equal(xqi_ecco_lookup(e->code, 3), e);
	}
}

struct accept_case {
	const char *text;
	int count;           /* codes in the set */
	const char *in[4];   /* some codes in it */
	const char *out[4];  /* some codes not in it */
};

static int set_count(const struct xqi_ecco_set *s)
{
	int n = 0;
	for (int i = 0; i < XQI_ECCO_CODES; i++)
		n += xqi_ecco_set_has(s, i);
	return n;
}

static void code_lists_accept_letters_groups_codes_ranges_and_lists(void **state)
{
	static const struct accept_case cases[] = {
		{"A", 100, {"A00", "A99"}, {"B00"}},
		{"E", 100, {"E00", "E99"}, {"D99"}},
		{"C1", 10, {"C10", "C19"}, {"C09", "C20", "C01"}},
		{"C45", 1, {"C45"}, {"C44", "C46"}},
		{"C10-C19", 10, {"C10", "C15", "C19"}, {"C09", "C20"}},
		{"A00-B99", 200, {"A00", "B99"}, {"C00"}},
		{"B95-C04", 10, {"B95", "C00", "C04"}, {"B94", "C05"}},
		{"A00-A00", 1, {"A00"}, {"A01"}},
		{"C1,D5", 20, {"C10", "C19", "D50", "D59"}, {"C20", "D49"}},
		{"C,C1,C10-C12", 100, {"C00", "C99"}, {"B99", "D00"}},
		{"A00-E99", 500, {"A00", "E99"}, {NULL}},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct xqi_ecco_set s;
		struct xq_diagnostic d;
		const char *t = cases[i].text;

		xqi_diagnostic_init(&d);
		if (xqi_ecco_set_parse(&s, t, strlen(t), &d) != 0)
			fail_msg("'%s' rejected: %s", t, d.msg);
		assert_int_equal(set_count(&s), cases[i].count);
		for (int j = 0; j < 4 && cases[i].in[j]; j++)
			assert_true(xqi_ecco_set_has(&s, xqi_ecco_index(cases[i].in[j], 3)));
		for (int j = 0; j < 4 && cases[i].out[j]; j++)
			assert_false(xqi_ecco_set_has(&s, xqi_ecco_index(cases[i].out[j], 3)));
	}
	/* Only `len` bytes are read. */
	{
		struct xqi_ecco_set s;
		assert_int_equal(xqi_ecco_set_parse(&s, "C1,junk", 2, NULL), 0);
		assert_int_equal(set_count(&s), 10);
		assert_false(xqi_ecco_set_has(&s, -1));
		assert_false(xqi_ecco_set_has(&s, XQI_ECCO_CODES));
	}
}

struct reject_case {
	const char *text;
	uint32_t col;
	const char *says;
};

static void code_lists_reject_anything_else_at_its_place(void **state)
{
	static const struct reject_case cases[] = {
		{"", 1, "found nothing"},
		{"c1", 1, "capitals: 'C', not 'c'"},
		{"F1", 1, "from A to E, not 'F'"},
		{"1", 1, "expected an ECCO letter A-E, found '1'"},
		{",C1", 1, "found ','"},
		{"C100", 4, "two digits"},
		{"C1x", 3, "expected a digit, ',' or the end after 'C1', found 'x'"},
		{"C10x", 4, "expected '-', ',' or the end after 'C10', found 'x'"},
		{"C1 ,D5", 3, "found a space"},
		{"C1;D5", 3, "found ';'"},
		{"C1-C19", 3, "a range joins two full codes (like C10-C19), and 'C1' is a group"},
		{"A-B", 2, "'A' is a group"},
		{"C10-C1", 7, "a range ends with a full code"},
		{"C10-D", 6, "a range ends with a full code"},
		{"C10-", 5, "expected an ECCO letter A-E, found the end"},
		{"C10--C12", 5, "found '-'"},
		{"C10-C12-C14", 8, "expected ',' or the end"},
		{"C19-C10", 5, "the range C19-C10 runs backwards"},
		{"C1,", 4, "expected an ECCO code after ','"},
		{"C1,,D5", 4, "found ','"},
		{"C1,中", 4, "not ASCII"},
		{"C1,\t", 4, "a control character"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct xqi_ecco_set s;
		struct xq_diagnostic d;
		const char *t = cases[i].text;

		memset(&s, 0x5a, sizeof(s));
		xqi_diagnostic_init(&d);
		if (xqi_ecco_set_parse(&s, t, strlen(t), &d) != XQ_EPARSE)
			fail_msg("'%s' accepted", t);
		assert_int_equal(d.code, XQI_D_SYNTAX);
		if (d.place.col != cases[i].col || !strstr(d.msg, cases[i].says))
			fail_msg("'%s': column %llu '%s', expected column %u '%s'", t,
				 (unsigned long long)d.place.col, d.msg, cases[i].col, cases[i].says);
		assert_true(d.has_offset);
		assert_int_equal(d.place.offset, cases[i].col - 1);
		assert_int_equal(s.bits[0], 0x5a5a5a5a5a5a5a5aull); /* untouched */
	}
	assert_int_equal(xqi_ecco_set_parse(NULL, "x", 1, NULL), XQ_EPARSE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_opening_of_the_fixture_gets_the_reference_code),
		cmocka_unit_test(a_mirrored_game_gets_the_same_code),
		cmocka_unit_test(moves_in_another_order_within_a_side_get_the_same_code),
		cmocka_unit_test(games_shorter_than_20_plies),
		cmocka_unit_test(lines_the_fixture_does_not_reach),
		cmocka_unit_test(plies_after_the_20th_are_never_read),
		cmocka_unit_test(a_game_not_from_the_start_is_an_endgame),
		cmocka_unit_test(classify_game_reads_the_main_line),
		cmocka_unit_test(a_move_array_that_cannot_be_played_is_reported),
		cmocka_unit_test(every_published_code_has_its_names_byte_for_byte),
		cmocka_unit_test(lookup_finds_only_named_codes),
		cmocka_unit_test(the_rule_table_is_well_formed),
		cmocka_unit_test(every_code_the_rules_give_has_a_name),
		cmocka_unit_test(code_lists_accept_letters_groups_codes_ranges_and_lists),
		cmocka_unit_test(code_lists_reject_anything_else_at_its_place),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
