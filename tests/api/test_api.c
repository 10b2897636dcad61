/*
 * test_api.c: the public API (<xq/xq.h>) as a program outside the project
 * uses it: tests/install.sh builds it against the installed library
 * through pkg-config (no private header is reachable) and runs it from
 * the top of the source tree, where tests/data is.
 */
#define _XOPEN_SOURCE 700
#include "testutil.h"

#include <pthread.h>
#include <stddef.h>
#include <time.h>
#include <unistd.h>

#include <xq/xq.h>

struct seen {
	int n, errors, warnings;
	char codes[16][32];
	uint64_t line[16], col[16], game[16];
	int64_t offset[16];
	uint32_t ply[16];
	char move[16][48];
	char first[512];
};

static void collect(const xq_diagnostic *d, void *user)
{
	struct seen *s = user;

	if (xq_diagnostic_severity(d) == XQ_SEVERITY_ERROR)
		s->errors++;
	if (xq_diagnostic_severity(d) == XQ_SEVERITY_WARNING)
		s->warnings++;
	if (s->n == 0)
		xq_diagnostic_format(d, s->first, sizeof(s->first));
	if (s->n < 16) {
		snprintf(s->codes[s->n], sizeof(s->codes[0]), "%s", xq_diagnostic_code(d));
		s->line[s->n] = xq_diagnostic_line(d);
		s->col[s->n] = xq_diagnostic_column(d);
		s->offset[s->n] = xq_diagnostic_offset(d);
		s->game[s->n] = xq_diagnostic_game(d);
		s->ply[s->n] = xq_diagnostic_ply(d);
		snprintf(s->move[s->n], sizeof(s->move[0]), "%s", xq_diagnostic_move(d));
	}
	s->n++;
}

/* Every game of `path`, the first one kept in *first (may be NULL). */
static int read_all(const char *path, struct seen *s, xq_record **first, const char **format)
{
	xq_reader *rd;
	xq_record *r;
	int n = 0;

	if (first)
		*first = NULL;
	assert_int_equal(xq_reader_open(&rd, path, NULL, collect, s), 0);
	while (xq_reader_next(rd, &r) == 1) {
		if (n++ == 0 && first)
			*first = r;
		else
			xq_record_free(r);
	}
	if (format)
		*format = xq_reader_format(rd);
	xq_reader_close(rd);
	return n;
}

static void version_macros_match_the_library(void **state)
{
	(void)state;
	assert_string_equal(xq_version(), XQ_VERSION_STRING);
	assert_int_equal(xq_version_number(), XQ_VERSION_NUMBER);
	assert_int_equal(XQ_VERSION_NUMBER >> 16, XQ_VERSION_MAJOR);
}

static void error_codes_have_texts(void **state)
{
	(void)state;
	assert_string_equal(xq_error_string(XQ_OK), "success");
	assert_true(strlen(xq_error_string(XQ_EPARSE)) > 0);
	assert_true(strcmp(xq_error_string(XQ_EPARSE), xq_error_string(XQ_EILLEGAL)) != 0);
}

/* The list of codes holds each name once, ends with NULL, and holds the
 * code of a diagnostic the library gives (a FEN's "bad-fen"). */
static void diagnostic_code_names_are_listed_once_each_up_to_null(void **state)
{
	xq_position *p = xq_position_new();
	int n = 0, bad_fen = -1;

	(void)state;
	assert_null(xq_diagnostic_code_name(-1));
	while (xq_diagnostic_code_name(n)) {
		const char *name = xq_diagnostic_code_name(n);
		assert_true(strlen(name) > 0);
		for (int i = 0; i < n; i++)
			assert_string_not_equal(xq_diagnostic_code_name(i), name);
		if (!strcmp(name, "bad-fen"))
			bad_fen = n;
		n++;
	}
	assert_true(n > 20);
	assert_null(xq_diagnostic_code_name(n + 1));
	assert_non_null(p);
	assert_int_equal(xq_position_set_fen(p, "9/9 w"), XQ_EPARSE);
	assert_true(bad_fen >= 0);
	assert_string_equal(xq_diagnostic_code(xq_position_error(p)), xq_diagnostic_code_name(bad_fen));
	xq_position_free(p);
}

struct code_indices {
	int n, distinct[8], ndistinct;
};

static void check_code_index(const xq_diagnostic *d, void *user)
{
	struct code_indices *c = user;
	int i = xq_diagnostic_code_index(d), k;

	assert_true(i >= 0);
	assert_non_null(xq_diagnostic_code_name(i));
	assert_string_equal(xq_diagnostic_code_name(i), xq_diagnostic_code(d));
	for (k = 0; k < c->ndistinct && c->distinct[k] != i; k++)
		;
	if (k == c->ndistinct && k < 8)
		c->distinct[c->ndistinct++] = i;
	c->n++;
}

/* A diagnostic's code index is where its code stands in the list of
 * codes: for each a reader reports (text that is no move, an illegal move)
 * and for a position's error (a bad FEN). */
static void diagnostic_code_index_finds_its_code_in_the_list(void **state)
{
	static const char pgn[] = "[Event \"a\"]\n\n1. h2e2 zz9 *\n\n[Event \"b\"]\n\n1. h2e2 h9g7 2. e2e9 *\n";
	struct code_indices c = {0};
	xq_position *p = xq_position_new();
	xq_reader *rd;
	xq_record *r;

	(void)state;
	assert_int_equal(xq_reader_open_memory(&rd, "mem.pgn", pgn, sizeof(pgn) - 1, NULL, check_code_index, &c), 0);
	while (xq_reader_next(rd, &r) == 1)
		xq_record_free(r);
	xq_reader_close(rd);
	assert_true(c.ndistinct >= 2);
	assert_non_null(p);
	assert_int_equal(xq_position_set_fen(p, "9/9 w"), XQ_EPARSE);
	check_code_index(xq_position_error(p), &c);
	assert_string_equal(xq_diagnostic_code_name(xq_diagnostic_code_index(xq_position_error(p))), "bad-fen");
	xq_position_free(p);
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* The board after h2e2, drawn in each style with the move marked, flipped,
 * and an SVG whose title is escaped; bad options draw nothing. */
static void diagrams_draw_every_style_with_the_last_move_marked(void **state)
{
	xq_position *p = xq_position_new();
	xq_diagram_options o = XQ_DIAGRAM_OPTIONS_INIT;
	xq_move_code m;
	char *out;
	size_t len;

	(void)state;
	assert_int_equal(xq_position_read_move(p, "h2e2", XQ_DIALECT_ICCS, &m), 0);
	assert_int_equal(xq_position_play(p, m), 0);
	assert_int_equal(xq_position_diagram(p, NULL, &out, &len), 0);
	assert_int_equal(count_lines(out), 13);
	assert_int_equal(strlen(out), len);
	assert_non_null(strstr(out, "\n2  .  C  .  .  C  .  .  .  .  2\n"));
	xq_free(out);

	o.last = m;
	assert_int_equal(xq_position_diagram(p, &o, &out, NULL), 0);
	assert_non_null(strstr(out, "\n2  .  C  .  . [C] .  . (.) .  2\n"));
	assert_true(strncmp(out, "   a  b  c", 10) == 0);
	xq_free(out);
	o.flags = XQ_DIAGRAM_FLIP;
	assert_int_equal(xq_position_diagram(p, &o, &out, NULL), 0);
	assert_true(strncmp(out, "   i  h  g", 10) == 0);
	assert_non_null(strstr(out, "\n2  . (.) .  . [C] .  .  C  .  2\n"));
	xq_free(out);

	o.flags = 0;
	o.style = XQ_DIAGRAM_STYLE_UNICODE;
	assert_int_equal(xq_position_diagram(p, &o, &out, NULL), 0);
	assert_int_equal(count_lines(out), 13);
	assert_non_null(strstr(out, "[炮]"));
	assert_non_null(strstr(out, "帥"));
	assert_null(strchr(out, '\033'));
	xq_free(out);
	o.flags = XQ_DIAGRAM_COLOR;
	assert_int_equal(xq_position_diagram(p, &o, &out, NULL), 0);
	assert_non_null(strchr(out, '\033'));
	xq_free(out);

	o.flags = 0;
	o.style = XQ_DIAGRAM_STYLE_SVG;
	o.title = "a <b>";
	assert_int_equal(xq_position_diagram(p, &o, &out, &len), 0);
	assert_true(strncmp(out, "<?xml", 5) == 0);
	assert_non_null(strstr(out, "<title>a &lt;b&gt;</title>"));
	assert_non_null(strstr(out, "<desc>rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1</desc>"));
	assert_non_null(strstr(out, "data-piece=\"K\""));
	assert_non_null(strstr(out, "</svg>"));
	xq_free(out);

	o.style = 7;
	out = (char *)"kept?";
	assert_int_equal(xq_position_diagram(p, &o, &out, NULL), XQ_EUNSUPPORTED);
	assert_null(out);
	o.style = XQ_DIAGRAM_STYLE_ASCII;
	o.last = XQ_MOVE_CODE(95, 4);
	assert_int_equal(xq_position_diagram(p, &o, &out, NULL), XQ_ERANGE);
	assert_null(out);
	xq_position_free(p);
}

/* A record's opening from its main line, as convert --ecco tags it; a
 * record from another start is 残局; names of a code, or none. */
static void ecco_classifies_the_main_line_and_names_codes(void **state)
{
	static const char *const moves[] = {"h2e2", "h9g7", "h0g2", "i9h9"};
	xq_record *r = xq_record_new();
	xq_position *p = xq_position_new();
	const char *code = NULL, *opening = NULL, *variation = NULL;
	uint32_t at = XQ_ROOT_NODE;

	(void)state;
	assert_int_equal(xq_record_ecco(r, &code, &opening, &variation), 0);
	assert_string_equal(code, "A00");
	assert_string_equal(opening, "其他开局");
	for (size_t i = 0; i < sizeof(moves) / sizeof(moves[0]); i++)
		assert_int_equal(xq_record_add_move_text(r, at, moves[i], XQ_DIALECT_ICCS, &at), 0);
	/* A variation does not count: only the main line does. */
	assert_int_equal(xq_record_add_move_text(r, XQ_ROOT_NODE, "c3c4", XQ_DIALECT_ICCS, NULL), 0);
	assert_int_equal(xq_record_ecco(r, &code, &opening, &variation), 0);
	assert_string_equal(code, "B05");
	assert_string_equal(opening, "中炮对进左马");
	assert_string_equal(variation, "");
	assert_null(xq_record_error(r));
	assert_int_equal(xq_record_ecco(r, NULL, NULL, NULL), 0);
	xq_record_free(r);

	r = xq_record_new();
	assert_int_equal(xq_position_set_fen(p, "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"), 0);
	assert_int_equal(xq_record_set_start(r, p), 0);
	assert_int_equal(xq_record_ecco(r, &code, &opening, NULL), 0);
	assert_string_equal(code, "A00");
	assert_string_equal(opening, "残局");
	xq_record_free(r);
	xq_position_free(p);

	assert_int_equal(xq_ecco_name("B05", &opening, &variation), 0);
	assert_string_equal(opening, "中炮对进左马");
	assert_int_equal(xq_ecco_name("A00", &opening, NULL), 0);
	assert_string_equal(opening, "其他开局");
	assert_int_equal(xq_ecco_name("A09", &opening, &variation), XQ_ENOTFOUND);
	assert_int_equal(xq_ecco_name("F10", NULL, NULL), XQ_ENOTFOUND);
	assert_int_equal(xq_ecco_name("C4", NULL, NULL), XQ_ENOTFOUND);
}

static void ecco_of_a_line_and_sets_of_codes(void **state)
{
	xq_move_code line[XQ_ECCO_PLIES + 5];
	xq_position *p = xq_position_new(), *start = xq_position_new();
	static const char *const moves[] = {"h2e2", "h9g7", "h0g2", "i9h9"};
	const char *code, *opening, *variation;
	xq_ecco_codes *set;
	size_t column;
	char why[100];

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(xq_position_read_move(p, moves[i], XQ_DIALECT_ICCS, &line[i]), 0);
		assert_int_equal(xq_position_play(p, line[i]), 0);
	}
	/* The same line as ecco_classifies_the_main_line_and_names_codes's
	 * record, and its prefix. */
	assert_int_equal(xq_ecco_of_line(start, line, 4, &code, &opening, &variation), 0);
	assert_string_equal(code, "B05");
	assert_string_equal(opening, "中炮对进左马");
	assert_string_equal(variation, "");
	assert_int_equal(xq_ecco_of_line(start, line, 1, &code, NULL, NULL), 0);
	assert_string_equal(code, "B00");
	assert_int_equal(xq_ecco_of_line(start, line, 0, &code, NULL, NULL), 0);
	assert_string_equal(code, "A00");
	/* A wrong array is refused: black's move first. */
	assert_int_equal(xq_ecco_of_line(start, line + 1, 1, &code, NULL, NULL), XQ_EILLEGAL);

	assert_int_equal(xq_ecco_codes_parse(&set, "C1,D5,A00-A09,E", &column, why, sizeof(why)), 0);
	assert_int_equal(column, 0);
	assert_string_equal(why, "");
	assert_true(xq_ecco_codes_has(set, "C15"));
	assert_true(xq_ecco_codes_has(set, "A09"));
	assert_true(xq_ecco_codes_has(set, "E99"));
	assert_false(xq_ecco_codes_has(set, "C20"));
	assert_false(xq_ecco_codes_has(set, "B05"));
	assert_false(xq_ecco_codes_has(set, "C1"));
	assert_false(xq_ecco_codes_has(set, NULL));
	xq_ecco_codes_free(set);
	assert_int_equal(xq_ecco_codes_parse(&set, "C10-C05", &column, why, sizeof(why)), XQ_EPARSE);
	assert_null(set);
	assert_int_equal(column, 5);
	assert_string_equal(why, "the range C10-C05 runs backwards");
	assert_int_equal(xq_ecco_codes_parse(&set, "F", NULL, NULL, 0), XQ_EPARSE);
	xq_ecco_codes_free(NULL);
	xq_position_free(p);
	xq_position_free(start);
}

static void xqf_reads_with_tags_start_and_moves(void **state)
{
	struct seen s = {0};
	xq_record *r;
	const char *format;
	char fen[XQ_FEN_SIZE], text[XQ_MOVE_TEXT_SIZE];
	char *moves;

	(void)state;
	assert_int_equal(read_all("tests/data/xqf/sample-v12.xqf", &s, &r, &format), 1);
	assert_non_null(r);
	assert_string_equal(format, "xqf");
	assert_int_equal(s.errors, 0);
	assert_string_equal(xq_record_tag(r, "Red"), "许银川");
	assert_string_equal(xq_record_tag(r, "Black"), "聂卫平");
	assert_string_equal(xq_record_result(r), "1-0");
	assert_int_equal(xq_record_number(r), 1);
	assert_false(xq_record_is_broken(r));
	assert_false(xq_record_is_empty(r));
	assert_non_null(xq_record_encoding(r));
	/* A handicap game: the start is the FEN of the record. */
	assert_true(xq_record_start_fen(r, fen, sizeof(fen)) > 0);
	assert_string_equal(fen, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1");
	assert_true(xq_record_tag_count(r) > 3);
	assert_non_null(xq_record_tag_name(r, 0));
	assert_non_null(xq_record_tag_value(r, 0));
	assert_null(xq_record_tag_name(r, xq_record_tag_count(r)));
	assert_null(xq_record_tag_value(r, xq_record_tag_count(r)));
	/* The game comment is on the root. */
	assert_non_null(xq_record_node_comment(r, XQ_ROOT_NODE));
	assert_int_equal(xq_record_mainline_length(r), 75);
	moves = xq_record_mainline_text(r, XQ_DIALECT_ICCS, 0);
	assert_non_null(moves);
	assert_memory_equal(moves, "b2e2 h7e7 e2e7", 14);
	xq_free(moves);
	assert_true(xq_record_node_move_text(r, xq_record_node_child(r, XQ_ROOT_NODE), XQ_DIALECT_CHINESE,
					     0, text, sizeof(text)) > 0);
	assert_string_equal(text, "炮八平五");
	assert_true(xq_record_node_move_text(r, xq_record_node_child(r, XQ_ROOT_NODE), XQ_DIALECT_WXF,
					     0, text, sizeof(text)) > 0);
	assert_string_equal(text, "C8.5");
	/* The root has no move and no text. */
	assert_int_equal(xq_record_node_move_text(r, XQ_ROOT_NODE, XQ_DIALECT_ICCS, 0, text, sizeof(text)), 0);
	assert_int_equal(xq_record_node_move(r, XQ_ROOT_NODE), 0);
	xq_record_free(r);
}

static void big5_pgn_reads_in_traditional_and_simplified_glyphs(void **state)
{
	struct seen s = {0};
	xq_record *r;
	char *moves;

	(void)state;
	assert_int_equal(read_all("tests/data/pgn/big5-black-first.pgn", &s, &r, NULL), 1);
	assert_string_equal(xq_record_tag(r, "Event"), "實戰殺局88");
	assert_string_equal(xq_record_result(r), "0-1");
	moves = xq_record_mainline_text(r, XQ_DIALECT_CHINESE, 0);
	assert_string_equal(moves, "车１平５ 仕六进五 车６平５ 帅五平六 马４进３");
	xq_free(moves);
	moves = xq_record_mainline_text(r, XQ_DIALECT_CHINESE, XQ_DIALECT_TRADITIONAL | XQ_DIALECT_ASCII_DIGITS);
	assert_string_equal(moves, "車1平5 仕六進五 車6平5 帥五平六 馬4進3");
	xq_free(moves);
	xq_record_free(r);
}

static void illegal_move_is_reported_with_its_place_and_the_game_kept_broken(void **state)
{
	struct seen s = {0};
	xq_record *r;

	(void)state;
	assert_int_equal(read_all("tests/data/xqf/no-piece-on-origin-v12.xqf", &s, &r, NULL), 1);
	assert_true(xq_record_is_broken(r));
	assert_int_equal(xq_record_mainline_length(r), 9);
	assert_int_equal(s.errors, 1);
	assert_string_equal(s.codes[0], "illegal-move");
	assert_int_equal(s.offset[0], 1106);
	assert_int_equal(s.line[0], 0);
	assert_int_equal(s.game[0], 1);
	assert_int_equal(s.ply[0], 10);
	assert_string_equal(s.move[0], "e1f0");
	assert_non_null(strstr(s.first, "no-piece-on-origin-v12.xqf: byte 1106: error: game 1, ply 10 (e1f0): "));
	assert_non_null(strstr(s.first, "[illegal-move]"));
	xq_record_free(r);
}

static void text_diagnostics_carry_line_and_column(void **state)
{
	static const char pgn[] = "[Event \"x\"]\n\n1. h2e2 h9g7 2. h0g2 zz9 *\n";
	struct seen s = {0};
	xq_reader *rd;
	xq_record *r, *none;

	(void)state;
	assert_int_equal(xq_reader_open_memory(&rd, "mem.pgn", pgn, sizeof(pgn) - 1, NULL, collect, &s), 0);
	assert_string_equal(xq_reader_format(rd), "pgn");
	assert_false(xq_reader_is_gzip(rd));
	assert_int_equal(xq_reader_next(rd, &r), 1);
	assert_int_equal(xq_reader_next(rd, &none), 0);
	assert_null(none);
	assert_true(xq_reader_count(rd, XQ_SEVERITY_ERROR) >= 1);
	xq_reader_close(rd);
	assert_true(xq_record_is_broken(r));
	assert_int_equal(xq_record_mainline_length(r), 3);
	{
		uint64_t line = 0, column = 0, offset = 9;
		xq_record_place(r, &line, &column, &offset);
		assert_int_equal(line, 1); /* the record starts at its first tag */
		assert_int_equal(column, 1);
		assert_int_equal(offset, 0);
		xq_record_place(r, NULL, NULL, NULL);
	}
	assert_true(s.n >= 1);
	assert_int_equal(s.line[0], 3);
	assert_int_equal(s.col[0], 22);
	assert_non_null(strstr(s.first, "mem.pgn:3:22: error: game 1"));
	/* Three plies read of a game that breaks off decide no opening. */
	assert_int_equal(xq_record_ecco(r, NULL, NULL, NULL), XQ_ENOTFOUND);
	assert_non_null(xq_record_error(r));
	xq_record_free(r);
}

/* How many of the diagnostics seen have code `code`. */
static int count_code(const struct seen *s, const char *code)
{
	int n = 0;

	for (int i = 0; i < s->n && i < 16; i++)
		n += !strcmp(s->codes[i], code);
	return n;
}

/* xq_diagnostics_vreport() through a function of the caller's own. */
static int say(xq_diagnostics *l, const xq_diagnostic_about *a, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = xq_diagnostics_vreport(l, a, XQ_SEVERITY_WARNING, "bad-tag", fmt, ap);
	va_end(ap);
	return rc;
}

/* A program's own diagnostics about a record read the way the library's
 * do: at the move of a node or of a ply of the main line, at a tag, with
 * what a fix changed, named after the record's input and game. */
static void a_program_reports_its_own_diagnostics_at_the_move_or_tag(void **state)
{
	static const char pgn[] = "[Event \"x\"]\n\n1. h2e2 h9g7\n\n"
				  "[Event \"y\"]\n[Date \"1999\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9\n";
	xq_diagnostic_about a = XQ_DIAGNOSTIC_ABOUT_INIT;
	xq_diagnostics *l = xq_diagnostics_new(), *other = xq_diagnostics_new();
	const xq_diagnostic *d;
	const char *field, *old_value, *new_value;
	uint64_t line, column, offset;
	xq_reader *rd;
	xq_record *r, *first;
	uint32_t n;

	(void)state;
	assert_non_null(l);
	assert_non_null(other);
	assert_int_equal(xq_reader_open_memory(&rd, "mine.pgn", pgn, sizeof(pgn) - 1, NULL, NULL, NULL), 0);
	assert_int_equal(xq_reader_next(rd, &first), 1);
	assert_int_equal(xq_reader_next(rd, &r), 1);
	xq_reader_close(rd);

	/* Ply 3 of the main line: its move, where it was written. */
	a.record = r;
	a.ply = 3;
	assert_int_equal(xq_diagnostics_report(l, &a, XQ_SEVERITY_NOTE, "none", "ply %d", 3), 0);
	d = xq_diagnostics_at(l, 0);
	assert_string_equal(xq_diagnostic_source(d), "mine.pgn");
	assert_int_equal(xq_diagnostic_game(d), 2);
	assert_int_equal(xq_diagnostic_ply(d), 3);
	assert_string_equal(xq_diagnostic_move(d), "h0g2");
	assert_string_equal(xq_diagnostic_message(d), "ply 3");
	assert_string_equal(xq_diagnostic_code(d), "none");
	n = xq_record_node_child(r, xq_record_node_child(r, xq_record_node_child(r, XQ_ROOT_NODE)));
	assert_int_equal(xq_record_node_place(r, n, &line, &column, &offset), 0);
	assert_int_equal(xq_diagnostic_line(d), line);
	assert_int_equal(xq_diagnostic_column(d), column);

	/* A node, with another ply said; the root is the game as a whole. */
	a.ply = 9;
	a.node = xq_record_node_child(r, XQ_ROOT_NODE);
	assert_int_equal(xq_diagnostics_report(l, &a, XQ_SEVERITY_ERROR, "engine", "at the node"), 0);
	d = xq_diagnostics_at(l, 1);
	assert_int_equal(xq_diagnostic_ply(d), 9);
	assert_string_equal(xq_diagnostic_move(d), "h2e2");
	assert_int_equal(xq_diagnostic_severity(d), XQ_SEVERITY_ERROR);
	a.node = XQ_ROOT_NODE;
	a.ply = 0;
	assert_int_equal(xq_diagnostics_report(l, &a, XQ_SEVERITY_NOTE, "none", "the game"), 0);
	d = xq_diagnostics_at(l, 2);
	assert_string_equal(xq_diagnostic_move(d), "");
	assert_int_equal(xq_diagnostic_line(d), 5); /* the game's first line */

	/* At a tag, saying what a fix changed; through a va_list too. */
	a.node = XQ_NO_NODE;
	a.tag = "Date";
	a.fix_field = "Date";
	a.fix_old = "1999";
	a.fix_new = "1999.??.??";
	assert_int_equal(say(l, &a, "the date %s", "1999"), 0);
	d = xq_diagnostics_at(l, 3);
	assert_int_equal(xq_diagnostic_line(d), 6);
	assert_int_equal(xq_diagnostic_column(d), 1);
	assert_int_equal(xq_diagnostic_severity(d), XQ_SEVERITY_WARNING);
	assert_string_equal(xq_diagnostic_message(d), "the date 1999");
	assert_int_equal(xq_diagnostic_fix(d, &field, &old_value, &new_value), 1);
	assert_string_equal(field, "Date");
	assert_string_equal(old_value, "1999");
	assert_string_equal(new_value, "1999.??.??");

	/* About nothing; a code or severity that is none adds nothing. */
	assert_int_equal(xq_diagnostics_report(l, NULL, XQ_SEVERITY_NOTE, "none", "alone"), 0);
	d = xq_diagnostics_at(l, 4);
	assert_null(xq_diagnostic_source(d));
	assert_int_equal(xq_diagnostic_game(d), 0);
	assert_int_equal(xq_diagnostic_line(d), 0);
	assert_int_equal(xq_diagnostics_report(l, NULL, XQ_SEVERITY_NOTE, "no-such-code", "x"),
			 XQ_ENOTFOUND);
	assert_int_equal(xq_diagnostics_report(l, NULL, 3, "none", "x"), XQ_ERANGE);
	assert_int_equal(xq_diagnostics_count(l), 5);

	/* A diagnostic with no place of its own, named after the first game:
	 * its input, number and place; its severity kept or replaced. */
	a = (xq_diagnostic_about)XQ_DIAGNOSTIC_ABOUT_INIT;
	a.record = first;
	assert_int_equal(xq_diagnostics_add_about(other, xq_diagnostics_at(l, 4), &a, -1), 0);
	d = xq_diagnostics_at(other, 0);
	assert_string_equal(xq_diagnostic_source(d), "mine.pgn");
	assert_int_equal(xq_diagnostic_game(d), 1);
	assert_int_equal(xq_diagnostic_line(d), 1);
	assert_int_equal(xq_diagnostic_severity(d), XQ_SEVERITY_NOTE);
	assert_string_equal(xq_diagnostic_message(d), "alone");
	/* One with a place keeps it; another source may be named. */
	a.source = "elsewhere.pgn";
	assert_int_equal(xq_diagnostics_add_about(other, xq_diagnostics_at(l, 3), &a, XQ_SEVERITY_ERROR), 0);
	d = xq_diagnostics_at(other, 1);
	assert_string_equal(xq_diagnostic_source(d), "elsewhere.pgn");
	assert_int_equal(xq_diagnostic_game(d), 1);
	assert_int_equal(xq_diagnostic_line(d), 6);
	assert_int_equal(xq_diagnostic_severity(d), XQ_SEVERITY_ERROR);
	assert_int_equal(xq_diagnostics_add_about(other, d, &a, 7), XQ_ERANGE);
	assert_int_equal(xq_diagnostics_count(other), 2);

	/* They print as the library's do. */
	{
		char line_text[300];
		xq_diagnostic_format(xq_diagnostics_at(l, 0), line_text, sizeof(line_text));
		assert_non_null(strstr(line_text, "mine.pgn:"));
		assert_non_null(strstr(line_text, "note: game 2, ply 3 (h0g2): ply 3 [none]"));
	}
	xq_diagnostics_free(l);
	xq_diagnostics_free(other);
	xq_record_free(first);
	xq_record_free(r);
}

/* What only a whole game shows, as xqkit validate checks it, with the
 * places of the tags and moves; what the reader said is not said again. */
static void validate_checks_what_only_the_whole_game_shows(void **state)
{
	static const char pgn[] = "[Event \"x\"]\n[Date \"2006.13.45\"]\n[Result \"1-0\"]\n\n"
				  "1. h2e2 h9g7 1-0\n\n"
				  "[Event \"y\"]\n\n1. h2e2\n\n"
				  "[Event \"w\"]\n[Result \"1-0\"]\n\n1. h2e2 0-1\n\n"
				  "[Event \"z\"]\n[FEN \"3k5/4R2R1/9/9/9/9/9/9/9/4K4 w - - 0 1\"]\n\n"
				  "1. e8d8 0-1\n";
	static const char *const required[] = {"Event", "Red"};
	xq_validate_options o = XQ_VALIDATE_OPTIONS_INIT;
	struct seen read = {0}, s = {0};
	xq_reader *rd;
	xq_record *r[4];

	(void)state;
	assert_int_equal(xq_reader_open_memory(&rd, "v.pgn", pgn, sizeof(pgn) - 1, NULL, collect, &read), 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(xq_reader_next(rd, &r[i]), 1);
	xq_reader_close(rd);

	/* A date that is none, a required tag missing, a win with no mate. */
	o.required = required;
	o.nrequired = 2;
	assert_int_equal(xq_record_validate(r[0], &o, collect, &s), XQ_RESULT_CHECK_SILENT);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.codes[0], "resignation");
	assert_string_equal(s.codes[1], "bad-date");
	assert_int_equal(s.line[1], 2); /* at the Date tag */
	assert_string_equal(s.codes[2], "missing-tag");
	assert_non_null(strstr(s.first, "red wins with no mate on the board"));

	/* The reader said the moves end with no result; it is not said again
	 * (nor that the Result tag disagrees with the moves, in the next). */
	assert_int_equal(count_code(&read, "no-result"), 1);
	assert_int_equal(count_code(&read, "bad-result"), 1);
	memset(&s, 0, sizeof(s));
	assert_int_equal(xq_record_validate(r[1], NULL, collect, &s), XQ_RESULT_CHECK_SILENT);
	assert_int_equal(s.n, 0);
	memset(&s, 0, sizeof(s));
	assert_int_equal(xq_record_validate(r[2], NULL, collect, &s), XQ_RESULT_CHECK_SILENT);
	assert_int_equal(count_code(&s, "bad-result"), 0);
	assert_string_equal(s.codes[0], "resignation"); /* 0-1 with no mate */
	/* ... but the reader's warning, a tag naming another result, stands
	 * as an error; a tag that agrees, or none, has nothing to stand. */
	assert_int_equal(xq_record_result_tag_stands(r[2]), 1);
	assert_int_equal(xq_record_result_tag_stands(r[0]), 0);
	assert_int_equal(xq_record_result_tag_stands(r[1]), 0);

	/* Mate on the board, the result the other way: an error at the move. */
	memset(&s, 0, sizeof(s));
	assert_int_equal(xq_record_validate(r[3], NULL, collect, &s), XQ_RESULT_CHECK_SILENT);
	assert_int_equal(count_code(&s, "bad-result"), 1);
	assert_int_equal(s.errors, 1);
	assert_int_equal(s.ply[0], 1);
	assert_string_equal(s.move[0], "e8d8");
	assert_non_null(strstr(s.first, "checkmate (red wins) but the result is 0-1"));
	for (int i = 0; i < 4; i++)
		xq_record_free(r[i]);
}

/* The rules ply by ply, as replay shows them: the cycle a move belongs
 * to, its kind and the verdict at the cycle's end, its description; a
 * move limit reached, described. */
static void rules_line_gives_each_ply_its_cycle_and_the_limits(void **state)
{
	static const char *const shuffle[] = {"b0c2", "b9c7", "c2b0", "c7b9"};
	xq_record *r = NULL, *s = xq_record_new();
	xq_rules_line *l;
	const char *kind, *verdict;
	char *text;
	uint32_t at = XQ_ROOT_NODE, limit_ply = 0;

	(void)state;
	{
		struct seen seen = {0};
		read_all("tests/data/ndjson/repetition.ndjson", &seen, &r, NULL);
	}
	assert_non_null(r);
	assert_int_equal(xq_record_rules_line(r, XQ_RULESET_ASIAN, &l), 0);
	assert_int_equal(xq_rules_line_plies(l), xq_record_mainline_length(r));
	assert_int_equal(xq_rules_line_cycle(l, 1, &kind, &verdict), 1);
	assert_string_equal(kind, "check");
	assert_null(verdict);
	assert_int_equal(xq_rules_line_cycle(l, 8, &kind, &verdict), 1);
	assert_string_equal(verdict, "red loses");
	assert_int_equal(xq_rules_line_cycle(l, 0, NULL, NULL), 0);
	assert_int_equal(xq_rules_line_cycle(l, 99, &kind, &verdict), 0);
	assert_null(kind);
	assert_int_equal(xq_rules_line_describe_cycle(l, 1, &text), 1);
	assert_non_null(strstr(text, "plies 1-8, period 4 plies"));
	xq_free(text);
	assert_int_equal(xq_rules_line_describe_cycle(l, 2, &text), 0);
	assert_null(text);
	assert_int_equal(xq_rules_line_limit(l, 8, 0, &text), 0);
	xq_rules_line_free(l);
	xq_rules_line_free(NULL);
	xq_record_free(r);

	/* 120 plies without a capture: the natural limit, at ply 120. */
	for (int i = 0; i < 120; i++)
		assert_int_equal(xq_record_add_move_text(s, at, shuffle[i % 4], XQ_DIALECT_ICCS, &at), 0);
	assert_int_equal(xq_record_rules_line(s, XQ_RULESET_ASIAN, &l), 0);
	for (uint32_t ply = 1; ply <= 120 && !limit_ply; ply++)
		if (xq_rules_line_limit(l, ply, 0, &text) == 1) {
			limit_ply = ply;
			assert_true(strlen(text) > 0);
			xq_free(text);
			assert_int_equal(xq_rules_line_limit(l, ply, 1, &text), 0);
		}
	assert_int_equal(limit_ply, 120);
	xq_rules_line_free(l);
	xq_record_free(s);
}

/* A result marker that is none of the four is kept as written. */
static void result_text_keeps_a_marker_that_is_no_result(void **state)
{
	static const char pgn[] = "[Event \"x\"]\n\n1. h2e2 h9g7 未知\n";
	xq_reader *rd;
	xq_record *r;

	(void)state;
	assert_int_equal(xq_reader_open_memory(&rd, "m.pgn", pgn, sizeof(pgn) - 1, NULL, NULL, NULL), 0);
	assert_int_equal(xq_reader_next(rd, &r), 1);
	xq_reader_close(rd);
	assert_string_equal(xq_record_result(r), "*");
	assert_string_equal(xq_record_result_text(r), "未知");
	assert_int_equal(xq_record_set_result(r, "1-0"), 0);
	assert_null(xq_record_result_text(r));
	xq_record_free(r);
}

static void dates_are_normalized_only_when_their_meaning_is_certain(void **state)
{
	xq_date d;

	(void)state;
	assert_int_equal(xq_date_normalize(&d, "1999.03.05", 10), XQ_DATE_CANONICAL);
	assert_int_equal(xq_date_normalize(&d, "1999年3月5日", strlen("1999年3月5日")), XQ_DATE_FIXED);
	assert_string_equal(d.date, "1999.03.05");
	assert_string_equal(d.time, "");
	assert_int_equal(xq_date_normalize(&d, " 20091114-09：00 ", strlen(" 20091114-09：00 ")), XQ_DATE_FIXED);
	assert_string_equal(d.date, "2009.11.14");
	assert_string_equal(d.time, "09:00:00");
	/* April or July: never guessed at. */
	assert_int_equal(xq_date_normalize(&d, "4/7/1994", 8), XQ_DATE_AMBIGUOUS);
	assert_true(d.why[0] != '\0');
	assert_int_equal(xq_date_normalize(&d, "1999-02-29", 10), XQ_DATE_UNKNOWN);
	assert_int_equal(xq_date_normalize(&d, "  ", 2), XQ_DATE_UNKNOWN);
	assert_string_equal(d.why, "no date");
}

static void result_texts_read_as_the_standard_results_they_spell(void **state)
{
	(void)state;
	assert_string_equal(xq_result_canonical("1-0"), "1-0");
	assert_string_equal(xq_result_canonical("\xC2\xBD-\xC2\xBD"), "1/2-1/2");
	assert_string_equal(xq_result_canonical("*"), "*");
	assert_null(xq_result_canonical("红胜"));
	assert_null(xq_result_canonical("1-0 "));
	assert_null(xq_result_canonical(NULL));
}

/* 红胜 says 1-0 whatever the record; 先胜 names the side that moves first. */
static void results_in_words_read_as_the_results_they_say(void **state)
{
	xq_record *r = xq_record_new();
	xq_position *p = xq_position_new();

	(void)state;
	assert_string_equal(xq_result_read("红胜", NULL), "1-0");
	assert_string_equal(xq_result_read("紅負", NULL), "0-1");
	assert_string_equal(xq_result_read(" 和棋 ", NULL), "1/2-1/2");
	assert_string_equal(xq_result_read("Red wins", NULL), "1-0");
	assert_string_equal(xq_result_read("未知", NULL), "*");
	assert_string_equal(xq_result_read("1/2-1/2", NULL), "1/2-1/2");
	assert_string_equal(xq_result_read("先胜", NULL), "1-0");
	assert_null(xq_result_read("胜", NULL));
	assert_null(xq_result_read("V", NULL));
	assert_null(xq_result_read(NULL, NULL));
	/* Black moves first in this record: 先胜 is black's win. */
	assert_int_equal(xq_position_set_fen(p, "4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1"), 0);
	assert_int_equal(xq_record_set_start(r, p), 0);
	assert_string_equal(xq_result_read("先胜", r), "0-1");
	assert_string_equal(xq_result_read("红胜", r), "1-0");
	xq_position_free(p);
	xq_record_free(r);
}

/* A record whose reader cut a variation at an illegal move is whole but for
 * it: not broken, and says it was cut. */
static void a_record_with_a_variation_cut_at_an_error_says_so(void **state)
{
	static const char pgn[] = "1. h2e2 h9g7 (1... b9c7 2. a0a5 h7h3) 2. h0g2 *\n"
				  "1. h2e2 a0a5 *\n";
	xq_read_options ro = XQ_READ_OPTIONS_INIT;
	xq_reader *rd;
	xq_record *r = NULL;

	(void)state;
	ro.format = "pgn";
	assert_int_equal(xq_reader_open_memory(&rd, "cut.pgn", pgn, sizeof(pgn) - 1, &ro, NULL, NULL), 0);
	assert_int_equal(xq_reader_next(rd, &r), 1);
	assert_true(xq_record_is_cut(r));
	assert_false(xq_record_is_broken(r));
	assert_int_equal(xq_record_mainline_length(r), 3);
	xq_record_free(r);
	assert_int_equal(xq_reader_next(rd, &r), 1);
	assert_false(xq_record_is_cut(r));
	assert_true(xq_record_is_broken(r));
	xq_record_free(r);
	xq_reader_close(rd);
}

static void main_line_proves_mate_and_under_rules_a_perpetual(void **state)
{
	xq_position *p = xq_position_new();
	xq_reader *rd;
	xq_record *r = xq_record_new();
	xq_proof proof;

	(void)state;
	/* Rook to d1: the black king on d9 has no square left (e9 and e8
	 * face the red king). */
	assert_int_equal(xq_position_set_fen(p, "3k5/9/9/9/9/9/9/9/8R/4K4 w - - 0 1"), 0);
	assert_int_equal(xq_record_set_start(r, p), 0);
	assert_int_equal(xq_record_prove_result(r, -1, &proof), 0);
	assert_int_equal(proof.why, XQ_PROOF_NONE);
	assert_string_equal(proof.result, "*");
	assert_int_equal(xq_record_add_move_text(r, XQ_ROOT_NODE, "i1d1", XQ_DIALECT_ICCS, NULL), 0);
	assert_int_equal(xq_record_prove_result(r, -1, &proof), 0);
	assert_int_equal(proof.why, XQ_PROOF_CHECKMATE);
	assert_string_equal(proof.result, "1-0");
	assert_int_equal(proof.ply, 1);
	assert_null(proof.conduct);
	assert_int_equal(xq_record_has_result(r), 0);
	xq_record_free(r);
	xq_position_free(p);

	/* Red checks for ever (recorded 1-0): a perpetual only under rules. */
	assert_int_equal(xq_reader_open(&rd, "tests/data/ndjson/repetition.ndjson", NULL, NULL, NULL), 0);
	assert_int_equal(xq_reader_next(rd, &r), 1);
	xq_reader_close(rd);
	assert_int_equal(xq_record_has_result(r), 1);
	assert_int_equal(xq_record_prove_result(r, -1, &proof), 0);
	assert_int_equal(proof.why, XQ_PROOF_NONE);
	assert_int_equal(proof.ply, 8);
	assert_int_equal(xq_record_prove_result(r, XQ_RULESET_CHINESE, &proof), 0);
	assert_int_equal(proof.why, XQ_PROOF_PERPETUAL);
	assert_string_equal(proof.result, "0-1");
	assert_string_equal(proof.conduct, "perpetual check");
	assert_int_equal(proof.ruleset, XQ_RULESET_CHINESE);
	assert_int_equal(proof.ply, 8);
	assert_true(proof.first < proof.ply);
	xq_record_free(r);
}

static void lenient_fen_copies_and_sameness(void **state)
{
	/* A red pawn on a1 (behind its start) and an advisor on a3: squares
	 * they can never reach. */
	static const char *const odd = "3k5/9/9/9/9/9/A8/9/P8/4K4 w - - 0 1";
	xq_position *a = xq_position_new(), *b = xq_position_new();
	char fen[XQ_FEN_SIZE];

	(void)state;
	assert_int_equal(xq_position_set_fen(a, odd), XQ_EILLEGAL);
	assert_int_equal(xq_position_set_fen_lenient(a, odd), 0);
	assert_null(xq_position_error(a));
	assert_false(xq_position_same(a, b));
	xq_position_copy(b, a);
	assert_true(xq_position_same(a, b));
	xq_position_fen(b, fen, sizeof(fen));
	assert_string_equal(fen, odd);
	{
		static const int want[14] = {1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0};
		int counts[14];
		xq_position_material(b, counts);
		assert_memory_equal(counts, want, sizeof(want));
		xq_position_set_start(a);
		xq_position_material(a, counts);
		assert_int_equal(counts[4], 2);  /* red's rooks */
		assert_int_equal(counts[13], 5); /* black's pawns */
		xq_position_copy(a, b);
	}
	/* Kings are still kept to their palaces, and counters do not count. */
	assert_int_equal(xq_position_set_fen_lenient(a, "3k5/9/9/9/9/9/9/9/9/K8 w - - 0 1"), XQ_EILLEGAL);
	assert_non_null(xq_position_error(a));
	assert_true(xq_position_same(a, b)); /* unchanged by the failure */
	assert_int_equal(xq_position_set_fen_lenient(a, "3k5/9/9/9/9/9/A8/9/P8/4K4 w - - 9 40"), 0);
	assert_true(xq_position_same(a, b));
	assert_int_equal(xq_position_set_fen_lenient(a, "3k5/9/9/9/9/9/A8/9/P8/4K4 b - - 0 1"), 0);
	assert_false(xq_position_same(a, b));
	xq_position_free(a);
	xq_position_free(b);
}

static void same_position_whatever_order_its_pieces_were_read_in(void **state)
{
	xq_position *start = xq_position_new(), *read = xq_position_new();
	xq_reader *rd;
	xq_record *r;

	(void)state;
	/* An XQF record from the start: its reader puts the pieces on the
	 * board in its own order, not the FEN's (stats --tree once missed
	 * such games). */
	assert_int_equal(xq_reader_open(&rd, "tests/data/xqf/bad-gbk-comment-v12.xqf", NULL, NULL, NULL), 0);
	assert_int_equal(xq_reader_next(rd, &r), 1);
	xq_reader_close(rd);
	assert_int_equal(xq_record_node_position(r, XQ_ROOT_NODE, read), 0);
	assert_true(xq_position_same(read, start));
	assert_true(xq_position_same(start, read));
	assert_true(xq_position_key(read) == xq_position_key(start));
	xq_record_free(r);
	xq_position_free(start);
	xq_position_free(read);
}

static void fingerprint_keeps_its_values_and_sees_every_change(void **state)
{
	xq_reader *rd;
	xq_record *r;
	uint64_t f;
	uint32_t n;

	(void)state;
	assert_int_equal(xq_reader_open(&rd, "samples/ccgc-2006-01-gbk.pgn", NULL, NULL, NULL), 0);
	assert_int_equal(xq_reader_next(rd, &r), 1);
	xq_reader_close(rd);
	/* The value xqkit annotate has always written for this game
	 * ("input a96ad932306e3a38"): annotate --resume finds its games by it. */
	f = xq_record_fingerprint(r);
	assert_true(f == 0xa96ad932306e3a38ull);
	n = xq_record_node_child(r, XQ_ROOT_NODE);
	assert_int_equal(xq_record_add_nag(r, n, 2), 0);
	assert_true(xq_record_fingerprint(r) != f);
	f = xq_record_fingerprint(r);
	/* A NAG the move has already is not added twice. */
	assert_int_equal(xq_record_add_nag(r, n, 2), 0);
	assert_int_equal(xq_record_node_nag_count(r, n), 1);
	assert_int_equal(xq_record_node_nag(r, n, 0), 2);
	assert_true(xq_record_fingerprint(r) == f);
	assert_int_equal(xq_record_add_nag(r, n, 0), XQ_ERANGE);
	assert_non_null(xq_record_error(r));
	assert_int_equal(xq_record_add_nag(r, n, 256), XQ_ERANGE);
	assert_int_equal(xq_record_add_nag(r, XQ_ROOT_NODE, 1), XQ_ENOTFOUND);
	assert_int_equal(xq_record_add_nag(r, 99999, 1), XQ_ENOTFOUND);
	assert_int_equal(xq_record_set_comment(r, n, "!"), 0);
	assert_true(xq_record_fingerprint(r) != f);
	f = xq_record_fingerprint(r);
	assert_int_equal(xq_record_set_tag(r, "Event", "x"), 0);
	assert_true(xq_record_fingerprint(r) != f);
	xq_record_free(r);
}

static void scores_are_written_into_comments_and_read_back(void **state)
{
	char note[XQ_EVAL_NOTE_SIZE];
	int kind, score, depth;

	(void)state;
	xq_eval_note(note, sizeof(note), XQ_EVAL_CP, 35, 12, 0);
	assert_string_equal(note, "+0.35/12");
	xq_eval_note(note, sizeof(note), XQ_EVAL_CP, -120, 8, 0);
	assert_string_equal(note, "-1.20/8");
	xq_eval_note(note, sizeof(note), XQ_EVAL_CP, 0, 4, 0);
	assert_string_equal(note, "0.00/4");
	assert_int_equal(xq_eval_note(note, sizeof(note), XQ_EVAL_MATE, 3, 9, 0), 2);
	assert_string_equal(note, "#3");
	xq_eval_note(note, sizeof(note), XQ_EVAL_MATED, 3, 9, 0);
	assert_string_equal(note, "#-3");
	xq_eval_note(note, sizeof(note), XQ_EVAL_CP, 35, 12, XQ_EVAL_NOTE_COMMAND);
	assert_string_equal(note, "[%eval 0.35,12]");
	xq_eval_note(note, sizeof(note), XQ_EVAL_MATED, 3, 0, XQ_EVAL_NOTE_COMMAND);
	assert_string_equal(note, "[%eval #-3]");
	assert_int_equal(xq_eval_note(note, 4, XQ_EVAL_CP, 35, 12, 0), 3);
	assert_string_equal(note, "+0.");
	/* The score alone, as NDJSON records give it. */
	assert_int_equal(xq_eval_note(note, sizeof(note), XQ_EVAL_CP, 35, 12, XQ_EVAL_NOTE_NO_DEPTH), 5);
	assert_string_equal(note, "+0.35");
	xq_eval_note(note, sizeof(note), XQ_EVAL_MATED, 0, 0, XQ_EVAL_NOTE_NO_DEPTH);
	assert_string_equal(note, "#-0");
	assert_int_equal(xq_eval_note(note, 3, XQ_EVAL_CP, -120, 0, XQ_EVAL_NOTE_NO_DEPTH), 2);
	assert_string_equal(note, "-1");

	assert_int_equal(xq_eval_note_find("a good move +0.35/12", &kind, &score, &depth), 1);
	assert_int_equal(kind, XQ_EVAL_CP);
	assert_int_equal(score, 35);
	assert_int_equal(depth, 12);
	assert_int_equal(xq_eval_note_find("[%eval #-3] lost", &kind, &score, &depth), 1);
	assert_int_equal(kind, XQ_EVAL_MATED);
	assert_int_equal(score, 3);
	assert_int_equal(depth, 0);
	/* Both: annotate's, appended last, is the newer. */
	assert_int_equal(xq_eval_note_find("[%eval 1.00,5] -0.50/9", NULL, &score, NULL), 1);
	assert_int_equal(score, -50);
	assert_int_equal(xq_eval_note_find("score 1.5", &kind, &score, &depth), 0);
	assert_int_equal(xq_eval_note_find("+0.3/12", NULL, NULL, NULL), 0);
	assert_int_equal(xq_eval_note_find(NULL, NULL, NULL, NULL), 0);

	/* Red went from +0.50 to -1.00: red lost 150, black nothing. */
	assert_int_equal(xq_eval_loss(XQ_EVAL_CP, 50, XQ_EVAL_CP, -100, 0), 150);
	assert_int_equal(xq_eval_loss(XQ_EVAL_CP, 50, XQ_EVAL_CP, -100, 1), 0);
	/* Throwing a mate away costs more than any material. */
	assert_true(xq_eval_loss(XQ_EVAL_MATE, 2, XQ_EVAL_CP, 1500, 0) > 2000 - 1500);
	assert_true(xq_eval_loss(XQ_EVAL_MATE, 2, XQ_EVAL_MATE, 5, 0) > 0);
	assert_int_equal(XQ_EVAL_MISTAKE, 100);
	assert_int_equal(XQ_NAG_BLUNDER, 4);
}

static void expected_score_and_its_drop_go_by_the_engines_scale(void **state)
{
	xq_analyser *a;

	(void)state;
	/* Even is a half; the scale's own score is 1 / (1 + 1/e). */
	assert_int_equal(xq_eval_expected(XQ_EVAL_CP, 0, 200), 5000);
	assert_int_equal(xq_eval_expected(XQ_EVAL_CP, 200, 200), 7311);
	assert_int_equal(xq_eval_expected(XQ_EVAL_MATE, 5, 200), 10000);
	assert_int_equal(xq_eval_expected(XQ_EVAL_MATED, 0, 200), 0);
	/* Red went from +0.50 to -1.00: a drop for red, none for black. */
	assert_true(xq_eval_drop(XQ_EVAL_CP, 50, XQ_EVAL_CP, -100, 0, 200) >= XQ_EVAL_MISTAKE_DROP);
	assert_int_equal(xq_eval_drop(XQ_EVAL_CP, 50, XQ_EVAL_CP, -100, 1, 200), 0);
	/* Down 12 pawns and losing 3 more: the game was lost already. */
	assert_true(xq_eval_drop(XQ_EVAL_CP, -1200, XQ_EVAL_CP, -1500, 0, 200) < XQ_EVAL_INACCURACY_DROP);
	assert_true(XQ_EVAL_INACCURACY_DROP < XQ_EVAL_MISTAKE_DROP);
	assert_true(XQ_EVAL_MISTAKE_DROP < XQ_EVAL_BLUNDER_DROP);
	assert_int_equal(xq_analyser_new_builtin(&a, 1), 0);
	assert_int_equal(xq_analyser_cp_scale(a), XQ_EVAL_SCALE_BUILTIN);
	xq_analyser_free(a);
}

static void xqf_from_the_start_stays_a_whole_game_whatever_its_piece_order(void **state)
{
	xq_write_options wo = XQ_WRITE_OPTIONS_INIT;
	xq_reader *rd;
	xq_record *r;
	xq_writer *w;
	void *data;
	size_t len;

	(void)state;
	/* An XQF game from the start, its pieces numbered by XQF's slots;
	 * without its GameType tag the writer tells the type from the board
	 * (once from the pieces' numbers: it wrote 中局, a middle game). */
	assert_int_equal(xq_reader_open(&rd, "tests/data/xqf/bad-gbk-comment-v12.xqf", NULL, NULL, NULL), 0);
	assert_int_equal(xq_reader_next(rd, &r), 1);
	xq_reader_close(rd);
	for (size_t i = 0; i < xq_record_tag_count(r); i++)
		if (!strcmp(xq_record_tag_name(r, i), "GameType"))
			assert_int_equal(xq_record_remove_tag(r, i--), 0);
	wo.format = "xqf";
	assert_int_equal(xq_writer_open_memory(&w, &wo, NULL, NULL), 0);
	assert_int_equal(xq_writer_write(w, r), 0);
	assert_int_equal(xq_writer_close_memory(w, &data, &len), 0);
	xq_record_free(r);
	assert_int_equal(xq_reader_open_memory(&rd, "back.xqf", data, len, NULL, NULL, NULL), 0);
	assert_int_equal(xq_reader_next(rd, &r), 1);
	assert_string_equal(xq_record_tag(r, "GameType"), "全局");
	xq_record_free(r);
	xq_reader_close(rd);
	xq_free(data);
}

static void start_that_could_not_be_read_is_kept_as_written(void **state)
{
	static const char pgn[] = "[FEN \"rnbakabnr/9/1c5c1 w\"]\n\n1. h2e2 *\n\n[Event \"b\"]\n\n1. h2e2 *\n";
	xq_reader *rd;
	xq_record *r;

	(void)state;
	assert_int_equal(xq_reader_open_memory(&rd, "m.pgn", pgn, sizeof(pgn) - 1, NULL, NULL, NULL), 0);
	assert_int_equal(xq_reader_next(rd, &r), 1);
	assert_true(xq_record_is_broken(r));
	assert_string_equal(xq_record_start_text(r), "rnbakabnr/9/1c5c1 w");
	xq_record_free(r);
	assert_int_equal(xq_reader_next(rd, &r), 1);
	assert_null(xq_record_start_text(r));
	xq_record_free(r);
	xq_reader_close(rd);
}

static void position_keys_ignore_the_way_there_and_mirror_left_right(void **state)
{
	xq_position *a = xq_position_new(), *b = xq_position_new();
	static const char *const one[] = {"h2e2", "h9g7", "b0c2"}, *const two[] = {"b0c2", "h9g7", "h2e2"};
	char fen[XQ_FEN_SIZE];

	(void)state;
	for (int i = 0; i < 3; i++) {
		assert_int_equal(xq_position_play_text(a, one[i], XQ_DIALECT_ICCS), 0);
		assert_int_equal(xq_position_play_text(b, two[i], XQ_DIALECT_ICCS), 0);
	}
	/* A transposition: the same key. */
	assert_true(xq_position_key(a) == xq_position_key(b));
	xq_position_set_start(b);
	assert_true(xq_position_key(a) != xq_position_key(b));
	/* The start is its own mirror; the move counters do not count. */
	assert_int_equal(xq_position_set_fen(a, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 7 30"), 0);
	xq_position_mirror(b);
	assert_true(xq_position_key(a) == xq_position_key(b));
	/* h2e2 mirrored is b2e2, legal in the mirrored position, and the
	 * positions after them are each other's mirrors. */
	assert_int_equal(xq_move_code_mirror(XQ_MOVE_CODE(XQ_SQUARE(7, 2), XQ_SQUARE(4, 2))),
			 XQ_MOVE_CODE(XQ_SQUARE(1, 2), XQ_SQUARE(4, 2)));
	assert_int_equal(xq_move_code_mirror(0), 0);
	assert_int_equal(xq_position_play_text(a, "h2e2", XQ_DIALECT_ICCS), 0);
	assert_int_equal(xq_position_play(b, xq_move_code_mirror(XQ_MOVE_CODE(XQ_SQUARE(7, 2), XQ_SQUARE(4, 2)))), 0);
	assert_true(xq_position_key(a) != xq_position_key(b));
	xq_position_mirror(b);
	assert_true(xq_position_key(a) == xq_position_key(b));
	xq_position_fen(b, fen, sizeof(fen));
	assert_string_equal(fen, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
	xq_position_free(a);
	xq_position_free(b);
}

static void origin_survives_conversion_and_writes_as_ndjson_source(void **state)
{
	static const char pgn[] = "[Event \"a\"]\n\n1. h2e2 *\n\n[Event \"b\"]\n\n1. b0c2 *\n";
	static const char nd[] = "{\"schema\":\"xqkit.game/1\",\"source\":{\"file\":\"old.xqf\",\"game\":3,"
				 "\"offset\":0},\"tags\":[],\"result\":\"*\",\"moves\":[{\"iccs\":\"h2e2\"}]}\n";
	xq_buf b = XQ_BUF_INIT;
	xq_reader *rd;
	xq_record *r;
	const char *file;
	uint64_t game, line;
	int64_t offset;

	(void)state;
	assert_int_equal(xq_reader_open_memory(&rd, "m.pgn", pgn, sizeof(pgn) - 1, NULL, NULL, NULL), 0);
	assert_int_equal(xq_reader_next(rd, &r), 1);
	xq_record_free(r);
	assert_int_equal(xq_reader_next(rd, &r), 1);
	xq_reader_close(rd);
	xq_record_origin(r, &file, &game, &line, &offset);
	assert_string_equal(file, "m.pgn");
	assert_int_equal(game, 2);
	assert_int_equal(line, 5);
	assert_int_equal(offset, 24);
	assert_int_equal(xq_buf_add_ndjson_source(&b, file, game, line, offset), 0);
	assert_string_equal(b.ptr, "\"source\":{\"file\":\"m.pgn\",\"game\":2,\"line\":5,\"offset\":24}");
	xq_record_free(r);

	/* A record of xqkit's NDJSON keeps where it was first read. */
	assert_int_equal(xq_reader_open_memory(&rd, "new.ndjson", nd, sizeof(nd) - 1, NULL, NULL, NULL), 0);
	assert_int_equal(xq_reader_next(rd, &r), 1);
	xq_reader_close(rd);
	xq_record_origin(r, &file, &game, &line, NULL);
	assert_string_equal(file, "old.xqf");
	assert_int_equal(game, 3);
	assert_int_equal(line, 0);
	xq_record_free(r);

	/* What is not known is left out. */
	xq_buf_reset(&b);
	assert_int_equal(xq_buf_add_ndjson_source(&b, NULL, 0, 0, -1), 0);
	assert_string_equal(b.ptr, "\"source\":{}");
	r = xq_record_new();
	xq_record_origin(r, &file, &game, NULL, &offset);
	assert_null(file);
	assert_int_equal(game, 0);
	assert_int_equal(offset, -1);
	xq_record_free(r);
	xq_buf_release(&b);
}

static void gzip_input_is_read_through(void **state)
{
	struct seen s = {0};
	xq_reader *rd;
	xq_record *r;
	int n = 0;

	(void)state;
	assert_int_equal(xq_reader_open(&rd, "samples/liu-dahua-1956.ndjson.gz", NULL, collect, &s), 0);
	assert_true(xq_reader_is_gzip(rd));
	assert_string_equal(xq_reader_format(rd), "ndjson");
	while (xq_reader_next(rd, &r) == 1) {
		n++;
		xq_record_free(r);
	}
	xq_reader_close(rd);
	assert_true(n >= 1);
}

static void unknown_content_and_empty_input_are_errors(void **state)
{
	struct seen s = {0}, e = {0};
	xq_reader *rd = (xq_reader *)1;
	xq_record *r;
	xq_read_options o = XQ_READ_OPTIONS_INIT;

	(void)state;
	assert_int_equal(xq_reader_open_memory(&rd, "junk", "\x01\x02\x03\x04junk", 8, NULL, collect, &s),
			 XQ_EUNSUPPORTED);
	assert_null(rd); /* a failed open leaves no dangling reader */
	assert_string_equal(s.codes[0], "unsupported");
	assert_int_equal(xq_reader_open_memory(&rd, NULL, "", 0, NULL, collect, &e), 0);
	assert_null(xq_reader_format(rd));
	assert_int_equal(xq_reader_next(rd, &r), 0);
	assert_null(r);
	xq_reader_close(rd);
	assert_string_equal(e.codes[0], "no-game");
	o.format = "nosuch";
	assert_int_equal(xq_reader_open(&rd, "tests/data/xqf/sample-v12.xqf", &o, NULL, NULL), XQ_EUNSUPPORTED);
	o.format = NULL;
	o.encoding = "klingon";
	assert_int_equal(xq_reader_open(&rd, "tests/data/pgn/big5-black-first.pgn", &o, NULL, NULL), XQ_EENCODING);
	rd = (xq_reader *)1;
	assert_int_equal(xq_reader_open(&rd, "tests/data/no/such/file.pgn", NULL, NULL, NULL), XQ_EIO);
	assert_null(rd);
}

static void a_game_over_max_game_size_is_reported_and_the_next_one_read(void **state)
{
	/* A game of 2,000 bytes of comment between two small ones. */
	char pgn[4096];
	size_t n = 0;
	struct seen s = {0};
	xq_read_options o = XQ_READ_OPTIONS_INIT;
	xq_reader *rd;
	xq_record *r;

	(void)state;
	n += (size_t)snprintf(pgn + n, sizeof(pgn) - n, "[Event \"a\"]\n\n1. h2e2 *\n\n"
							"[Event \"big\"]\n\n1. h2e2 {");
	memset(pgn + n, 'x', 2000);
	n += 2000;
	n += (size_t)snprintf(pgn + n, sizeof(pgn) - n, "} h9g7 *\n\n[Event \"c\"]\n\n1. h2e2 *\n");
	o.max_game_size = 1024;
	assert_int_equal(xq_reader_open_memory(&rd, "big.pgn", pgn, n, &o, collect, &s), 0);
	assert_int_equal(xq_reader_next(rd, &r), 1);
	assert_string_equal(xq_record_tag(r, "Event"), "a");
	xq_record_free(r);
	/* Over the limit: kept broken with what came before it, and said. */
	assert_int_equal(xq_reader_next(rd, &r), 1);
	assert_string_equal(xq_record_tag(r, "Event"), "big");
	assert_true(xq_record_is_broken(r));
	xq_record_free(r);
	assert_int_equal(s.errors, 1);
	assert_string_equal(s.codes[0], "resource");
	assert_int_equal(s.game[0], 2);
	/* The reading goes on. */
	assert_int_equal(xq_reader_next(rd, &r), 1);
	assert_string_equal(xq_record_tag(r, "Event"), "c");
	assert_false(xq_record_is_broken(r));
	xq_record_free(r);
	assert_int_equal(xq_reader_next(rd, &r), 0);
	xq_reader_close(rd);
	/* Without the option, the format's own limit (4 MiB) holds it. */
	memset(&s, 0, sizeof(s));
	assert_int_equal(xq_reader_open_memory(&rd, "big.pgn", pgn, n, NULL, collect, &s), 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(xq_reader_next(rd, &r), 1);
		assert_false(xq_record_is_broken(r));
		xq_record_free(r);
	}
	xq_reader_close(rd);
	assert_int_equal(s.errors, 0);
}

static void named_format_and_encoding_are_used(void **state)
{
	static const char pgn[] = "[Event \"e\"]\n1. h2e2 *\n";
	xq_read_options o = XQ_READ_OPTIONS_INIT;
	xq_reader *rd;
	xq_record *r;

	(void)state;
	o.format = "pgn";
	o.encoding = "utf-8";
	assert_int_equal(xq_reader_open_memory(&rd, NULL, pgn, sizeof(pgn) - 1, &o, NULL, NULL), 0);
	assert_int_equal(xq_reader_next(rd, &r), 1);
	assert_string_equal(xq_record_tag(r, "Event"), "e");
	xq_record_free(r);
	xq_reader_close(rd);
}

static void formats_are_listed_with_what_they_can_do(void **state)
{
	const char *name, *desc;
	unsigned caps;
	int pgn = 0, html = 0;
	size_t i;

	(void)state;
	for (i = 0; xq_format_info(i, &name, &desc, &caps) == 0; i++) {
		assert_non_null(desc);
		if (!strcmp(name, "pgn"))
			pgn = (caps & XQ_FORMAT_READS) && (caps & XQ_FORMAT_WRITES) && (caps & XQ_FORMAT_MULTI);
		if (!strcmp(name, "html"))
			html = !(caps & XQ_FORMAT_READS) && (caps & XQ_FORMAT_WRITES);
	}
	assert_true(i >= 7);
	assert_true(pgn);
	assert_true(html);
	assert_int_equal(xq_format_info(i, NULL, NULL, NULL), XQ_ENOTFOUND);
}

/* Extensions (the written one first) and other names, for each format
 * xq_format_info() lists and no further. */
static void formats_give_their_extensions_and_other_names(void **state)
{
	const char *name, *ext, *aliases;
	size_t i;
	int pgn = 0;

	(void)state;
	for (i = 0; xq_format_info(i, &name, NULL, NULL) == 0; i++) {
		assert_int_equal(xq_format_names(i, &ext, &aliases), 0);
		assert_non_null(aliases);
		assert_int_equal(ext[0], '.');
		if (!strcmp(name, "pgn")) {
			pgn = 1;
			assert_true(strncmp(ext, ".pgn ", 5) == 0);
			assert_non_null(strstr(ext, " .pgn_zh"));
		}
		if (!strcmp(name, "xqf"))
			assert_string_equal(ext, ".xqf");
	}
	assert_true(pgn);
	assert_int_equal(xq_format_names(i, &ext, NULL), XQ_ENOTFOUND);
	assert_int_equal(xq_format_names(0, NULL, NULL), 0);
}

/* A user's encoding names, in any case, to the library's own; a name that
 * gives none is one the reader's options refuse, and one that gives one
 * they take. */
static void encoding_names_read_in_any_case_to_the_canonical_one(void **state)
{
	static const char pgn[] = "[Event \"e\"]\n1. h2e2 *\n";
	static const char *const names[][2] = {
		{"utf-8", "utf-8"},      {"UTF8", "utf-8"},      {"GB2312", "gb18030"},
		{"gb18030", "gb18030"},  {"gbk", "gbk"},         {"CP936", "gbk"},
		{"Big5", "big5"},        {"cp950", "big5"},      {"utf16le", "utf-16le"},
		{"UTF-16BE", "utf-16be"}, {"latin-1", "iso-8859-1"}, {"CP1252", "windows-1252"},
	};
	xq_read_options o = XQ_READ_OPTIONS_INIT;
	xq_reader *rd;

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_string_equal(xq_encoding_canonical(names[i][0]), names[i][1]);
	assert_null(xq_encoding_canonical("no-such-encoding"));
	assert_null(xq_encoding_canonical("utf-32")); /* ASCII is not kept as it is */
	assert_null(xq_encoding_canonical(""));
	assert_null(xq_encoding_canonical("utf-8 "));
	assert_null(xq_encoding_canonical("an encoding name far longer than any the library knows"));
	assert_null(xq_encoding_canonical(NULL));

	o.format = "pgn";
	o.encoding = "GB2312";
	assert_int_equal(xq_reader_open_memory(&rd, NULL, pgn, sizeof(pgn) - 1, &o, NULL, NULL), 0);
	xq_reader_close(rd);
	o.encoding = "no-such-encoding";
	assert_int_equal(xq_reader_open_memory(&rd, NULL, pgn, sizeof(pgn) - 1, &o, NULL, NULL),
			 XQ_EENCODING);
}

static void variations_comments_and_nags_are_in_the_tree(void **state)
{
	static const char pgn[] = "[Event \"v\"]\n\n{start} 1. h2e2 $1 {good} (1. b2e2 {also}) 1... h9g7 *\n";
	xq_reader *rd;
	xq_record *r;
	uint32_t first, alt, reply;
	uint64_t line, col, off;
	char fen[XQ_FEN_SIZE];
	xq_position *p = xq_position_new();

	(void)state;
	assert_int_equal(xq_reader_open_memory(&rd, "v.pgn", pgn, sizeof(pgn) - 1, NULL, NULL, NULL), 0);
	assert_int_equal(xq_reader_next(rd, &r), 1);
	xq_reader_close(rd); /* the record outlives its reader */
	assert_int_equal(xq_record_node_count(r), 4);
	assert_string_equal(xq_record_node_comment(r, XQ_ROOT_NODE), "start");
	first = xq_record_node_child(r, XQ_ROOT_NODE);
	assert_int_equal(xq_record_node_move(r, first), XQ_MOVE_CODE(XQ_SQUARE(7, 2), XQ_SQUARE(4, 2)));
	assert_string_equal(xq_record_node_comment(r, first), "good");
	assert_int_equal(xq_record_node_nag_count(r, first), 1);
	assert_int_equal(xq_record_node_nag(r, first, 0), 1);
	assert_int_equal(xq_record_node_nag(r, first, 1), 0);
	assert_string_equal(xq_record_node_source_text(r, first), "h2e2");
	assert_null(xq_record_node_pre_comment(r, first));
	alt = xq_record_node_sibling(r, first);
	assert_true(alt != XQ_NO_NODE);
	assert_string_equal(xq_record_node_comment(r, alt), "also");
	assert_int_equal(xq_record_node_parent(r, alt), XQ_ROOT_NODE);
	assert_int_equal(xq_record_node_sibling(r, alt), XQ_NO_NODE);
	reply = xq_record_node_child(r, first);
	assert_int_equal(xq_record_node_ply(r, reply), 2);
	assert_int_equal(xq_record_node_place(r, first, &line, &col, &off), 0);
	assert_int_equal(line, 3);
	assert_int_equal(col, 12);
	assert_int_equal(xq_record_node_place(r, 99, &line, &col, &off), XQ_ENOTFOUND);
	assert_int_equal(xq_record_node_parent(r, 99), XQ_NO_NODE);
	assert_true(xq_record_node_fen(r, reply, fen, sizeof(fen)) > 0);
	assert_string_equal(fen, "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
	/* A jump to another branch gives its own position. */
	assert_int_equal(xq_record_node_position(r, alt, p), 0);
	assert_int_equal(xq_position_piece(p, XQ_SQUARE(4, 2)), 'C');
	assert_int_equal(xq_position_piece(p, XQ_SQUARE(1, 2)), 0);
	assert_int_equal(xq_record_node_position(r, 99, p), XQ_ENOTFOUND);
	xq_position_free(p);
	xq_record_free(r);
}

static void fen_reads_writes_and_rejects_with_a_column(void **state)
{
	xq_position *p = xq_position_new();
	char fen[XQ_FEN_SIZE];

	(void)state;
	assert_true(xq_position_fen(p, fen, sizeof(fen)) > 0);
	assert_string_equal(fen, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
	assert_int_equal(xq_position_set_fen(p, "4k4/9/9/9/9/9/9/9/9/4K4 b"), XQ_EILLEGAL);
	assert_non_null(xq_position_error(p));
	assert_string_equal(xq_diagnostic_code(xq_position_error(p)), "bad-fen");
	/* The position is unchanged by a rejected FEN. */
	xq_position_fen(p, fen, sizeof(fen));
	assert_string_equal(fen, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
	assert_int_equal(xq_position_set_fen(p, "3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1"), 0);
	assert_null(xq_position_error(p));
	assert_int_equal(xq_position_side(p), 1);
	assert_int_equal(xq_position_piece(p, XQ_SQUARE(3, 9)), 'k');
	assert_int_equal(xq_position_piece(p, 90), 0);
	assert_int_equal(xq_position_fen(p, fen, 10), 0);
	xq_position_set_start(p);
	assert_int_equal(xq_position_side(p), 0);
	xq_position_free(p);
}

static void moves_read_and_write_in_every_dialect(void **state)
{
	xq_position *p = xq_position_new();
	xq_move_code m, m2;
	char text[XQ_MOVE_TEXT_SIZE];

	(void)state;
	assert_int_equal(xq_position_read_move(p, "炮二平五", XQ_DIALECT_CHINESE, &m), 0);
	assert_int_equal(m, XQ_MOVE_CODE(XQ_SQUARE(7, 2), XQ_SQUARE(4, 2)));
	assert_int_equal(xq_position_read_move(p, "C2.5", XQ_DIALECT_WXF, &m2), 0);
	assert_int_equal(m, m2);
	assert_int_equal(xq_position_read_move(p, "h2e2+", XQ_DIALECT_AUTO, &m2), 0);
	assert_int_equal(m, m2);
	assert_int_equal(xq_position_read_move(p, "h3e3", XQ_DIALECT_UCI1, &m2), 0);
	assert_int_equal(m, m2);
	assert_true(xq_position_move_text(p, m, XQ_DIALECT_ICCS, XQ_DIALECT_UPPER | XQ_DIALECT_DASH, text, sizeof(text)) > 0);
	assert_string_equal(text, "H2-E2");
	xq_position_move_text(p, m, XQ_DIALECT_UCI1, 0, text, sizeof(text));
	assert_string_equal(text, "h3e3");
	xq_position_move_text(p, m, XQ_DIALECT_WXF, 0, text, sizeof(text));
	assert_string_equal(text, "C2.5");
	xq_position_move_text(p, m, XQ_DIALECT_CHINESE, XQ_DIALECT_TRADITIONAL, text, sizeof(text));
	assert_string_equal(text, "炮二平五");
	assert_int_equal(xq_position_move_text(p, m, XQ_DIALECT_SAN, 0, text, sizeof(text)), 0);
	assert_string_equal(xq_dialect_name(XQ_DIALECT_WXF), "wxf");
	assert_int_equal(xq_dialect_from_name("chinese"), XQ_DIALECT_CHINESE);
	assert_int_equal(xq_dialect_from_name("klingon"), XQ_ENOTFOUND);
	assert_null(xq_dialect_name(99));
	xq_position_free(p);
}

static void illegal_and_ambiguous_moves_say_why(void **state)
{
	xq_position *p = xq_position_new();
	xq_move_code m;

	(void)state;
	assert_int_equal(xq_position_read_move(p, "马二进四", XQ_DIALECT_CHINESE, &m), XQ_EILLEGAL);
	assert_non_null(strstr(xq_diagnostic_message(xq_position_error(p)), "leg"));
	assert_int_equal(xq_position_read_move(p, "xx", XQ_DIALECT_ICCS, &m), XQ_EPARSE);
	/* h0g2 is a move; h0h2 is not a horse's. */
	assert_int_equal(xq_position_play(p, XQ_MOVE_CODE(XQ_SQUARE(7, 0), XQ_SQUARE(7, 2))), XQ_EILLEGAL);
	assert_string_equal(xq_diagnostic_code(xq_position_error(p)), "illegal-move");
	assert_int_equal(xq_position_play(p, XQ_MOVE_CODE(200, 3)), XQ_EILLEGAL);
	xq_position_free(p);
}

static void replay_reaches_mate_and_lists_legal_moves(void **state)
{
	xq_position *p = xq_position_new();
	xq_position *q;
	xq_move_code moves[XQ_MOVES_MAX];
	static const char *const line[] = {"h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", NULL};
	char fen[XQ_FEN_SIZE];

	(void)state;
	assert_int_equal(xq_position_legal_moves(p, moves), 44);
	assert_int_equal(xq_position_state(p), XQ_STATE_PLAYING);
	for (int i = 0; line[i]; i++)
		assert_int_equal(xq_position_play_text(p, line[i], XQ_DIALECT_ICCS), 0);
	xq_position_fen(p, fen, sizeof(fen));
	assert_string_equal(fen, "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 w - - 6 4");
	q = xq_position_dup(p);
	assert_non_null(q);
	assert_int_equal(xq_position_set_fen(q, "4k4/9/9/9/4R4/9/9/9/9/3K5 b"), 0);
	assert_true(xq_position_in_check(q));
	assert_int_equal(xq_position_state(q), XQ_STATE_PLAYING);
	assert_int_equal(xq_position_set_fen(q, "3k5/3R5/3R5/9/9/9/9/9/9/4K4 b"), 0);
	assert_int_equal(xq_position_state(q), XQ_STATE_CHECKMATE);
	assert_int_equal(xq_position_legal_moves(q, moves), 0);
	xq_position_free(q);
	xq_position_free(p);
}

static void perft_matches_the_reference_counts(void **state)
{
	xq_position *p = xq_position_new();

	(void)state;
	assert_int_equal(xq_position_perft(p, 0), 1);
	assert_int_equal(xq_position_perft(p, 1), 44);
	assert_int_equal(xq_position_perft(p, 2), 1920);
	assert_int_equal(xq_position_perft(p, 3), 79666);
	xq_position_free(p);
}

static void built_record_writes_and_reads_back(void **state)
{
	xq_write_options wo = XQ_WRITE_OPTIONS_INIT;
	xq_record *r = xq_record_new(), *back;
	xq_position *start = xq_position_new();
	xq_writer *w;
	xq_reader *rd;
	void *data;
	size_t len;
	uint32_t n1, n2;
	char *moves;

	(void)state;
	assert_int_equal(xq_record_set_tag(r, "Red", "红方"), 0);
	assert_int_equal(xq_record_set_tag(r, "Event", "x"), 0);
	assert_int_equal(xq_record_set_tag(r, "Black", "黑方"), 0);
	assert_int_equal(xq_record_remove_tag(r, 1), 0);
	assert_int_equal(xq_record_remove_tag(r, 2), XQ_ENOTFOUND);
	assert_int_equal(xq_record_tag_count(r), 2);
	assert_string_equal(xq_record_tag_name(r, 1), "Black");
	assert_null(xq_record_tag(r, "Event"));
	assert_int_equal(xq_record_set_result(r, "1-0"), 0);
	assert_int_equal(xq_record_set_result(r, "maybe"), XQ_EPARSE);
	assert_non_null(xq_record_error(r));
	assert_int_equal(xq_record_add_move_text(r, XQ_ROOT_NODE, "炮二平五", XQ_DIALECT_CHINESE, &n1), 0);
	assert_null(xq_record_error(r));
	assert_int_equal(xq_record_add_move_text(r, n1, "马8进7", XQ_DIALECT_CHINESE, &n2), 0);
	assert_int_equal(xq_record_add_move(r, XQ_ROOT_NODE, XQ_MOVE_CODE(XQ_SQUARE(1, 2), XQ_SQUARE(4, 2)), NULL), 0);
	assert_int_equal(xq_record_add_move_text(r, n2, "车一平二", XQ_DIALECT_CHINESE, NULL), XQ_EILLEGAL);
	assert_non_null(xq_record_error(r));
	assert_int_equal(xq_record_add_move(r, 42, 0, NULL), XQ_ENOTFOUND);
	assert_int_equal(xq_record_set_comment(r, n2, "中炮对屏风马"), 0);
	assert_int_equal(xq_record_set_start(r, start), XQ_EILLEGAL);
	wo.format = "pgn";
	wo.dialect = XQ_DIALECT_WXF;
	assert_int_equal(xq_writer_open_memory(&w, &wo, NULL, NULL), 0);
	assert_int_equal(xq_writer_write(w, r), 0);
	assert_int_equal(xq_writer_close_memory(w, &data, &len), 0);
	assert_non_null(strstr(data, "C2.5"));
	assert_int_equal(xq_reader_open_memory(&rd, "back.pgn", data, len, NULL, NULL, NULL), 0);
	assert_int_equal(xq_reader_next(rd, &back), 1);
	xq_reader_close(rd);
	xq_free(data);
	assert_string_equal(xq_record_tag(back, "Red"), "红方");
	assert_string_equal(xq_record_result(back), "1-0");
	assert_int_equal(xq_record_node_count(back), 4);
	/* Read back in text order: the variation comes before the reply. */
	n2 = xq_record_node_child(back, xq_record_node_child(back, XQ_ROOT_NODE));
	assert_string_equal(xq_record_node_comment(back, n2), "中炮对屏风马");
	moves = xq_record_mainline_text(back, XQ_DIALECT_ICCS, 0);
	assert_string_equal(moves, "h2e2 h9g7");
	xq_free(moves);
	assert_int_equal(xq_record_set_comment(back, n2, NULL), 0);
	assert_null(xq_record_node_comment(back, n2));
	xq_record_free(back);
	xq_record_free(r);
	xq_position_free(start);
}

static void record_start_can_be_set_before_moves(void **state)
{
	xq_record *r = xq_record_new();
	xq_position *p = xq_position_new();
	char fen[XQ_FEN_SIZE];

	(void)state;
	assert_int_equal(xq_position_set_fen(p, "3k5/9/9/9/9/9/9/9/4R4/4K4 w"), 0);
	assert_int_equal(xq_record_set_start(r, p), 0);
	xq_record_start_fen(r, fen, sizeof(fen));
	assert_string_equal(fen, "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1");
	assert_int_equal(xq_record_add_move_text(r, XQ_ROOT_NODE, "e1d1", XQ_DIALECT_ICCS, NULL), 0);
	xq_position_free(p);
	xq_record_free(r);
}

static void file_writer_replaces_only_with_force_and_leaves_no_temporary(void **state)
{
	char dir[256], path[300];
	struct seen s = {0};
	xq_write_options wo = XQ_WRITE_OPTIONS_INIT;
	xq_record *r;
	xq_writer *w;

	(void)state;
	assert_int_equal(test_tmpdir(dir, sizeof(dir), "api-writer"), 0);
	snprintf(path, sizeof(path), "%s/out.xqf", dir);
	assert_int_equal(read_all("tests/data/pgn/big5-black-first.pgn", &s, &r, NULL), 1);
	assert_int_equal(xq_writer_open(&w, path, NULL, NULL, NULL), 0); /* xqf by the name */
	assert_int_equal(xq_writer_write(w, r), 0);
	assert_int_equal(xq_writer_close(w), 0);
	assert_int_equal(xq_writer_open(&w, path, NULL, collect, &s), XQ_EIO);
	wo.flags = XQ_WRITE_FORCE;
	assert_int_equal(xq_writer_open(&w, path, &wo, NULL, NULL), 0);
	xq_writer_abort(w);
	{
		struct seen t = {0};
		xq_record *back;
		char *a, *b;
		assert_int_equal(read_all(path, &t, &back, NULL), 1);
		a = xq_record_mainline_text(r, XQ_DIALECT_ICCS, 0);
		b = xq_record_mainline_text(back, XQ_DIALECT_ICCS, 0);
		assert_string_equal(a, b);
		xq_free(a);
		xq_free(b);
		xq_record_free(back);
	}
	/* An unknown extension names no format. */
	snprintf(path, sizeof(path), "%s/out.unknown", dir);
	assert_int_equal(xq_writer_open(&w, path, NULL, NULL, NULL), XQ_EUNSUPPORTED);
	wo.format = "text"; /* read only (text exports) */
	assert_int_equal(xq_writer_open_memory(&w, &wo, NULL, NULL), XQ_EUNSUPPORTED);
	/* XQF holds one game: a second fails, and the output is never put in place. */
	snprintf(path, sizeof(path), "%s/two.xqf", dir);
	assert_int_equal(xq_writer_open(&w, path, NULL, NULL, NULL), 0);
	assert_int_equal(xq_writer_write(w, r), 0);
	assert_int_equal(xq_writer_write(w, r), XQ_EUNSUPPORTED);
	assert_int_equal(xq_writer_close(w), XQ_EUNSUPPORTED);
	assert_int_equal(test_count_named(dir, "two"), 0);
	assert_int_equal(test_count_named(dir, "out."), 1); /* out.xqf and nothing else */
	xq_record_free(r);
	assert_int_equal(test_rmtree(dir), 0);
}

/* The bytes of the file at `path` into `buf` (NUL-terminated); their count,
 * or -1 when it cannot be read. */
static long file_bytes(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, cap - 1, f);
	fclose(f);
	buf[n] = '\0';
	return (long)n;
}

static void file_takes_its_name_only_when_committed_and_replaces_only_with_force(void **state)
{
	char dir[256], path[300], gz[300], bytes[64];
	struct seen s = {0};
	xq_file *f;

	(void)state;
	assert_int_equal(test_tmpdir(dir, sizeof(dir), "api-file"), 0);
	snprintf(path, sizeof(path), "%s/board.svg", dir);
	assert_int_equal(xq_file_check(path, 0, NULL, NULL), XQ_FILE_NEW);
	assert_int_equal(xq_file_open(&f, path, 0, NULL, NULL), 0);
	assert_int_equal(xq_file_write(f, "<svg/>", 6), 0);
	assert_int_equal(test_count_named(dir, "board"), 0); /* not under its name yet */
	assert_int_equal(xq_file_commit(f, NULL, NULL), 0);
	assert_int_equal(file_bytes(path, bytes, sizeof(bytes)), 6);
	assert_string_equal(bytes, "<svg/>");
	/* An existing file: refused without XQ_WRITE_FORCE, and said why. */
	assert_int_equal(xq_file_check(path, 0, collect, &s), XQ_EIO);
	assert_int_equal(xq_file_open(&f, path, 0, collect, &s), XQ_EIO);
	assert_null(f);
	assert_int_equal(s.errors, 2);
	assert_string_equal(s.codes[0], "io");
	assert_non_null(strstr(s.first, "already exists"));
	assert_int_equal(xq_file_check(path, XQ_WRITE_FORCE, NULL, NULL), XQ_FILE_REPLACE);
	/* Given up, it leaves the old file and nothing else. */
	assert_int_equal(xq_file_open(&f, path, XQ_WRITE_FORCE, NULL, NULL), 0);
	assert_int_equal(xq_file_write(f, "new", 3), 0);
	xq_file_abort(f);
	xq_file_abort(NULL);
	assert_int_equal(file_bytes(path, bytes, sizeof(bytes)), 6);
	assert_int_equal(test_count_named(dir, "xqkit"), 0);
	/* Replaced with it. */
	assert_int_equal(xq_file_open(&f, path, XQ_WRITE_FORCE, NULL, NULL), 0);
	assert_int_equal(xq_file_write(f, "new", 3), 0);
	assert_int_equal(xq_file_commit(f, NULL, NULL), 0);
	assert_int_equal(file_bytes(path, bytes, sizeof(bytes)), 3);
	assert_string_equal(bytes, "new");
	/* A ".gz" name is compressed. */
	snprintf(gz, sizeof(gz), "%s/list.txt.gz", dir);
	assert_int_equal(xq_file_open(&f, gz, 0, NULL, NULL), 0);
	assert_int_equal(xq_file_write(f, "abc", 3), 0);
	assert_int_equal(xq_file_commit(f, NULL, NULL), 0);
	assert_true(file_bytes(gz, bytes, sizeof(bytes)) > 2);
	assert_int_equal((unsigned char)bytes[0], 0x1f);
	assert_int_equal((unsigned char)bytes[1], 0x8b);
	/* Standard output is written directly; a folder never. */
	assert_int_equal(xq_file_check("-", 0, NULL, NULL), XQ_FILE_DIRECT);
	assert_int_equal(xq_file_check(dir, XQ_WRITE_FORCE, NULL, NULL), XQ_EIO);
	assert_int_equal(test_rmtree(dir), 0);
}

static void losses_are_reported_as_warnings(void **state)
{
	static const char pgn[] = "[Event \"v\"]\n\n1. h2e2 (1. b2e2) h9g7 *\n";
	xq_write_options wo = XQ_WRITE_OPTIONS_INIT;
	struct seen s = {0};
	xq_reader *rd;
	xq_record *r;
	xq_writer *w;
	void *data;
	size_t len;

	(void)state;
	assert_int_equal(xq_reader_open_memory(&rd, NULL, pgn, sizeof(pgn) - 1, NULL, NULL, NULL), 0);
	assert_int_equal(xq_reader_next(rd, &r), 1);
	xq_reader_close(rd);
	wo.format = "dhtmlxq";
	assert_int_equal(xq_writer_open_memory(&w, &wo, collect, &s), 0);
	assert_int_equal(xq_writer_write(w, r), 0);
	assert_int_equal(xq_writer_close_memory(w, &data, &len), 0);
	xq_free(data);
	xq_record_free(r);
	assert_int_equal(s.warnings, 0); /* DhtmlXQ holds variations: nothing lost */
	wo.format = "xqf";
	assert_int_equal(xq_reader_open_memory(&rd, NULL, pgn, sizeof(pgn) - 1, NULL, NULL, NULL), 0);
	assert_int_equal(xq_reader_next(rd, &r), 1);
	xq_reader_close(rd);
	assert_int_equal(xq_record_set_tag(r, "Opening", "x"), 0);
	assert_int_equal(xq_writer_open_memory(&w, &wo, collect, &s), 0);
	assert_int_equal(xq_writer_write(w, r), 0);
	assert_int_equal(xq_writer_close_memory(w, &data, &len), 0);
	assert_true(len > 0);
	/* XQF has no field for an opening's name. */
	assert_int_equal(s.warnings, 1);
	assert_string_equal(s.codes[0], "loss");
	assert_non_null(strstr(s.first, "warning: game 1: tag Opening"));
	xq_free(data);
	xq_record_free(r);
}

/* The last node of the main line. */
static uint32_t mainline_end(const xq_record *r)
{
	uint32_t n = XQ_ROOT_NODE;

	while (xq_record_node_child(r, n) != XQ_NO_NODE)
		n = xq_record_node_child(r, n);
	return n;
}

static void perpetual_check_is_ruled_a_loss_with_its_reasons(void **state)
{
	struct seen s = {0};
	xq_reader *rd;
	xq_record *r;
	char *why;

	(void)state;
	assert_int_equal(xq_reader_open(&rd, "tests/data/ndjson/repetition.ndjson", NULL, NULL, NULL), 0);
	assert_int_equal(xq_reader_next(rd, &r), 1); /* recorded 1-0: contradicted */
	assert_int_equal(xq_record_ruling(r, mainline_end(r), XQ_RULESET_ASIAN, &why), XQ_RULING_RED_LOSES);
	assert_non_null(why);
	assert_non_null(strstr(why, "red: perpetual check"));
	xq_free(why);
	assert_int_equal(xq_record_ruling(r, mainline_end(r), XQ_RULESET_CHINESE, NULL), XQ_RULING_RED_LOSES);
	assert_int_equal(xq_record_ruling(r, XQ_ROOT_NODE, XQ_RULESET_ASIAN, &why), XQ_RULING_NONE);
	assert_null(why);
	assert_int_equal(xq_record_ruling(r, 999, XQ_RULESET_ASIAN, NULL), XQ_ENOTFOUND);
	assert_non_null(xq_record_error(r));
	assert_int_equal(xq_record_check_result(r, XQ_RULESET_ASIAN, collect, &s), XQ_RESULT_CHECK_CONTRADICTED);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.codes[0], "perpetual-check");
	assert_int_equal(s.errors, 1);
	assert_int_equal(s.line[0], 1);
	assert_int_equal(s.col[0], 276);
	assert_int_equal(s.ply[0], 8);
	assert_string_equal(s.move[0], "d8d9");
	xq_record_free(r);
	assert_int_equal(xq_reader_next(rd, &r), 1); /* recorded 0-1: confirmed */
	memset(&s, 0, sizeof(s));
	assert_int_equal(xq_record_check_result(r, XQ_RULESET_ASIAN, collect, &s), XQ_RESULT_CHECK_CONFIRMED);
	assert_non_null(strstr(s.first, "note: game 2, ply 8 (d8d9)"));
	xq_record_free(r);
	xq_reader_close(rd);
}

static void move_limit_is_a_draw_and_a_plain_game_has_no_ruling(void **state)
{
	struct seen s = {0};
	xq_record *r;

	(void)state;
	assert_int_equal(read_all("tests/data/ndjson/move-limit.ndjson", &s, &r, NULL), 1);
	assert_int_equal(xq_record_ruling(r, mainline_end(r), XQ_RULESET_ASIAN, NULL), XQ_RULING_DRAW);
	assert_int_equal(xq_record_check_result(r, XQ_RULESET_ASIAN, collect, &s), XQ_RESULT_CHECK_CONFIRMED);
	assert_string_equal(s.codes[s.n - 1], "move-limit");
	xq_record_free(r);
	memset(&s, 0, sizeof(s));
	assert_int_equal(read_all("tests/data/pgn/big5-black-first.pgn", &s, &r, NULL), 1);
	assert_int_equal(xq_record_ruling(r, mainline_end(r), XQ_RULESET_ASIAN, NULL), XQ_RULING_NONE);
	assert_int_equal(xq_record_check_result(r, XQ_RULESET_ASIAN, collect, &s), XQ_RESULT_CHECK_SILENT);
	assert_int_equal(s.n, 0);
	xq_record_free(r);
	assert_int_equal(xq_ruleset_from_name("CXA"), XQ_RULESET_CHINESE);
	assert_int_equal(xq_ruleset_from_name("wxf"), XQ_RULESET_ASIAN);
	assert_int_equal(xq_ruleset_from_name("klingon"), XQ_ENOTFOUND);
}

static void builtin_analyser_finds_the_win_in_one_the_same_every_time(void **state)
{
	xq_record *r = xq_record_new();
	xq_position *p = xq_position_new();
	xq_analyser *a;
	xq_analysis_result res = XQ_ANALYSIS_RESULT_INIT, again = XQ_ANALYSIS_RESULT_INIT;
	struct seen s = {0};

	(void)state;
	/* Black's king can go nowhere: any red move that keeps it so wins. */
	assert_int_equal(xq_position_set_fen(p, "3k5/R8/1R7/9/9/9/9/9/9/4K4 w"), 0);
	assert_int_equal(xq_record_set_start(r, p), 0);
	assert_int_equal(xq_analyser_new_builtin(&a, 1), 0);
	assert_string_equal(xq_analyser_description(a), "built-in");
	assert_int_equal(xq_analyser_run(a, r, XQ_ROOT_NODE, 4, 0, 0, &res, collect, &s), 0);
	assert_int_equal(res.kind, XQ_EVAL_MATE);
	assert_int_equal(res.score, 1);
	assert_true(res.pv_len >= 1);
	assert_int_equal(res.pv[0], res.best);
	assert_int_equal(xq_position_play(p, res.best), 0);
	assert_int_not_equal(xq_position_state(p), XQ_STATE_PLAYING);
	assert_int_equal(xq_analyser_run(a, r, XQ_ROOT_NODE, 4, 0, 0, &again, NULL, NULL), 0);
	assert_int_equal(again.best, res.best);
	assert_int_equal(again.nodes, res.nodes);
	/* The position after a node of the main line, its history counted. */
	xq_record_free(r);
	r = xq_record_new();
	assert_int_equal(xq_record_add_move_text(r, XQ_ROOT_NODE, "h2e2", XQ_DIALECT_ICCS, NULL), 0);
	assert_int_equal(xq_analyser_run(a, r, 1, 3, 0, 0, &res, NULL, NULL), 0);
	assert_int_equal(res.depth, 3);
	assert_int_equal(res.kind, XQ_EVAL_CP);
	assert_true(res.best != 0);
	assert_int_equal(xq_analyser_run(a, r, 1, 0, 0, 0, &res, collect, &s), XQ_ERANGE);
	assert_int_equal(xq_analyser_run(a, r, 7, 3, 0, 0, &res, NULL, NULL), XQ_ENOTFOUND);
	xq_analyser_free(a);
	xq_record_free(r);
	xq_position_free(p);
}

static void a_line_from_a_position_is_analysed_as_the_record_s_node(void **state)
{
	static const char *const line[] = {"h2e2", "h9g7", "h0g2", "i9h9"};
	xq_record *r = xq_record_new();
	xq_position *from = xq_position_new();
	xq_move_code moves[4], bad[2];
	xq_analysis_result whole = XQ_ANALYSIS_RESULT_INIT, part = XQ_ANALYSIS_RESULT_INIT;
	xq_analysis_result from_start = XQ_ANALYSIS_RESULT_INIT;
	struct seen s = {0};
	xq_analyser *a;
	uint32_t at = XQ_ROOT_NODE;

	(void)state;
	for (int i = 0; i < 4; i++) {
		assert_int_equal(xq_record_add_move_text(r, at, line[i], XQ_DIALECT_ICCS, &at), 0);
		moves[i] = xq_record_node_move(r, at);
	}
	assert_int_equal(xq_analyser_new_builtin(&a, 1), 0);
	assert_int_equal(xq_analyser_run(a, r, at, 3, 0, 0, &whole, NULL, NULL), 0);
	/* From the start with all four moves, and from after two with the
	 * last two: the same position, nothing captured, the same answer. */
	assert_int_equal(xq_analyser_run_line(a, from, moves, 4, 3, 0, 0, &from_start, NULL, NULL), 0);
	assert_int_equal(xq_record_node_position(r, xq_record_node_parent(r, xq_record_node_parent(r, at)), from), 0);
	assert_int_equal(xq_analyser_run_line(a, from, moves + 2, 2, 3, 0, 0, &part, NULL, NULL), 0);
	assert_int_equal(whole.best, from_start.best);
	assert_int_equal(whole.best, part.best);
	assert_int_equal(whole.score, part.score);
	assert_int_equal(whole.nodes, part.nodes);
	/* A history move that is not legal in turn is refused, saying so. */
	bad[0] = moves[0];
	bad[1] = moves[0];
	xq_position_set_start(from);
	assert_int_equal(xq_analyser_run_line(a, from, bad, 2, 3, 0, 0, &part, collect, &s), XQ_EILLEGAL);
	assert_int_equal(s.n, 1);
	assert_non_null(strstr(s.first, "illegal"));
	xq_analyser_free(a);
	xq_position_free(from);
	xq_record_free(r);
}

static void external_engine_analyses_and_a_missing_one_is_an_engine_error(void **state)
{
	const char *fairy = test_fairy();
	struct seen s = {0};
	xq_analyser *a = NULL;
	xq_record *r;
	xq_analysis_result res = XQ_ANALYSIS_RESULT_INIT;

	(void)state;
	assert_int_equal(xq_analyser_new_program(&a, "/nonexistent/engine", NULL, collect, &s), XQ_EENGINE);
	assert_null(a);
	assert_string_equal(s.codes[0], "engine");
	SKIP_WITHOUT_FAIRY(fairy);
	assert_int_equal(xq_analyser_new_program(&a, fairy, NULL, NULL, NULL), 0);
	assert_non_null(strstr(xq_analyser_description(a), "Fairy-Stockfish"));
	r = xq_record_new();
	assert_int_equal(xq_analyser_run(a, r, XQ_ROOT_NODE, 5, 0, 0, &res, NULL, NULL), 0);
	assert_true(res.depth >= 5);
	assert_true(res.best != 0);
	{
		xq_position *p = xq_position_new();
		assert_int_equal(xq_position_play(p, res.best), 0); /* a legal move */
		xq_position_free(p);
	}
	xq_record_free(r);
	xq_analyser_free(a);
}

/* The bytes of an input as the readers get them, gzip undone: the same
 * bytes from the file and from its gzip copy; a file that cannot be
 * read fails at once, with the reason; a cancel flag stops it. */
static char *stream_all(const char *path, size_t *len)
{
	xq_stream *st;
	char *all = NULL, buf[1000];
	long n;

	*len = 0;
	assert_int_equal(xq_stream_open(&st, path, NULL, NULL, NULL), 0);
	while ((n = xq_stream_read(st, buf, sizeof(buf))) > 0) {
		assert_non_null(all = realloc(all, *len + (size_t)n));
		memcpy(all + *len, buf, (size_t)n);
		*len += (size_t)n;
	}
	assert_int_equal(n, 0);
	xq_stream_close(st);
	return all;
}

static void a_stream_gives_the_bytes_the_readers_read(void **state)
{
	xq_read_options o = XQ_READ_OPTIONS_INIT;
	struct seen s = {0};
	size_t plain_len, gz_len;
	char *plain = stream_all("samples/liu-dahua-1956.ndjson", &plain_len);
	char *gz = stream_all("samples/liu-dahua-1956.ndjson.gz", &gz_len);
	xq_stream *st;

	(void)state;
	assert_true(plain_len > 1000);
	assert_int_equal(gz_len, plain_len);
	assert_memory_equal(gz, plain, plain_len);
	assert_memory_equal(plain, "{\"schema\":", 10);
	free(plain);
	free(gz);
	assert_int_equal(xq_stream_open(&st, "samples/no-such-file.pgn", NULL, collect, &s), XQ_EIO);
	assert_null(st);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.codes[0], "io");
	xq_stream_close(NULL);
	/* A flag set before: nothing is read. */
	assert_non_null(o.cancel = xq_cancel_new());
	xq_cancel_set(o.cancel);
	assert_int_equal(xq_stream_open(&st, "samples/liu-dahua-1956.ndjson", &o, NULL, NULL),
			 XQ_ECANCELED);
	xq_cancel_free(o.cancel);
}

/* A format's name as a user writes it, to refuse a bad one before
 * anything is opened. */
static void a_format_is_found_by_any_of_its_names(void **state)
{
	const char *name;

	(void)state;
	assert_string_equal(xq_format_canonical("PGN"), "pgn");
	assert_string_equal(xq_format_canonical("ubb"), "dhtmlxq");
	assert_string_equal(xq_format_canonical("DhtmlXQ"), "dhtmlxq");
	assert_null(xq_format_canonical("ub"));
	assert_null(xq_format_canonical(""));
	assert_null(xq_format_canonical(NULL));
	for (size_t i = 0; xq_format_info(i, &name, NULL, NULL) == 0; i++)
		assert_string_equal(xq_format_canonical(name), name);
}

/* A list keeps what a callback was given, strings and all, after the
 * reader that gave it is gone; and can be cut, filtered and reordered. */
static void a_diagnostics_list_keeps_copies_beyond_the_callback(void **state)
{
	xq_diagnostics *l = xq_diagnostics_new();
	xq_read_options o = XQ_READ_OPTIONS_INIT;
	const char *field, *old_value, *new_value;
	xq_reader *rd;
	xq_record *r;
	size_t n;
	int rc;

	(void)state;
	assert_non_null(l);
	assert_int_equal(xq_diagnostics_count(l), 0);
	assert_null(xq_diagnostics_at(l, 0));
	assert_int_equal(xq_reader_open(&rd, "samples/ccgc-2006-02-illegal.pgn", &o, xq_diagnostics_collect, l), 0);
	while ((rc = xq_reader_next(rd, &r)) == 1)
		xq_record_free(r);
	assert_int_equal(rc, 0);
	xq_reader_close(rd);
	n = xq_diagnostics_count(l);
	assert_true(n >= 2);
	assert_int_equal(xq_diagnostics_lost(l), 0);
	/* Valid after the reader is closed, its source name copied. */
	assert_string_equal(xq_diagnostic_source(xq_diagnostics_at(l, 0)), "samples/ccgc-2006-02-illegal.pgn");
	assert_string_equal(xq_diagnostic_code(xq_diagnostics_at(l, 0)), "illegal-move");
	assert_int_equal(xq_diagnostic_fix(xq_diagnostics_at(l, 0), &field, &old_value, &new_value), 0);
	assert_null(field);
	assert_null(new_value);
	/* Reordered, re-graded, filtered and cut. */
	xq_diagnostics_add(l, xq_diagnostics_at(l, 0));
	assert_int_equal(xq_diagnostics_count(l), n + 1);
	xq_diagnostics_set_severity(l, n, XQ_SEVERITY_NOTE);
	xq_diagnostics_move(l, n, 0);
	assert_int_equal(xq_diagnostic_severity(xq_diagnostics_at(l, 0)), XQ_SEVERITY_NOTE);
	assert_int_equal(xq_diagnostic_severity(xq_diagnostics_at(l, 1)), XQ_SEVERITY_ERROR);
	xq_diagnostics_move(l, 0, n);
	assert_int_equal(xq_diagnostic_severity(xq_diagnostics_at(l, n)), XQ_SEVERITY_NOTE);
	xq_diagnostics_keep(l, XQ_SEVERITY_WARNING);
	assert_int_equal(xq_diagnostics_count(l), n);
	for (size_t i = 0; i < n; i++)
		assert_true(xq_diagnostic_severity(xq_diagnostics_at(l, i)) >= XQ_SEVERITY_WARNING);
	xq_diagnostics_truncate(l, 1);
	assert_int_equal(xq_diagnostics_count(l), 1);
	assert_string_equal(xq_diagnostic_source(xq_diagnostics_at(l, 0)), "samples/ccgc-2006-02-illegal.pgn");
	xq_diagnostics_truncate(l, 0);
	assert_int_equal(xq_diagnostics_count(l), 0);
	xq_diagnostics_free(l);
	xq_diagnostics_free(NULL);
}

#define FAKE_ENGINE "tests/engines/fake-engine.sh"

/* Counts the diagnostics given to it (an analyser's warnings). */
static void count_warning(const xq_diagnostic *d, void *user)
{
	(void)d;
	(*(int *)user)++;
}

static void analyser_open_takes_every_setting_and_refuses_bad_ones(void **state)
{
	xq_analyser_options o = XQ_ANALYSER_OPTIONS_INIT;
	static const char *const settings[] = {"Hash=8", "Weird Name=", NULL};
	static const char *const bad[] = {"Hash=8", "noequals", NULL};
	char *uci[] = {"uci", NULL};
	struct seen s = {0};
	xq_analyser *a = NULL;

	(void)state;
	/* A setting is NAME=VALUE, checked before any engine starts. */
	assert_int_equal(xq_analyser_check_setting("Hash=16", collect, &s), 0);
	assert_int_equal(xq_analyser_check_setting("Name=", NULL, NULL), 0);
	assert_int_equal(xq_analyser_check_setting("noequals", collect, &s), XQ_ERANGE);
	assert_int_equal(s.n, 1);
	assert_non_null(strstr(s.first, "noequals"));
	assert_int_equal(xq_analyser_check_setting("=3", NULL, NULL), XQ_ERANGE);
	assert_int_equal(xq_analyser_check_setting("A=b\nquit", NULL, NULL), XQ_ERANGE);

	/* The built-in engine with no repetition rules: running, nothing to restart. */
	o.hash_mb = 1;
	o.ruleset = -1;
	assert_int_equal(xq_analyser_open(&a, &o, NULL, NULL), 0);
	assert_string_equal(xq_analyser_description(a), "built-in");
	assert_string_equal(xq_analyser_protocol(a), "built-in");
	assert_int_equal(xq_analyser_is_running(a), 1);
	assert_int_equal(xq_analyser_restart(a, NULL, NULL), 0);
	xq_analyser_free(a);
	assert_int_equal(xq_analyser_open(&a, NULL, NULL, NULL), 0); /* the defaults */
	xq_analyser_free(a);
	o.ruleset = 7;
	memset(&s, 0, sizeof(s));
	assert_int_equal(xq_analyser_open(&a, &o, collect, &s), XQ_ERANGE);
	assert_null(a);
	assert_int_equal(s.errors, 1);
	assert_non_null(strstr(s.first, "no rule set 7"));

	/* An external engine with its protocol, arguments and settings. */
	o = (xq_analyser_options)XQ_ANALYSER_OPTIONS_INIT;
	o.program = FAKE_ENGINE;
	o.args = uci;
	o.protocol = "uci";
	o.settings = settings;
	assert_int_equal(xq_analyser_open(&a, &o, NULL, NULL), 0);
	assert_string_equal(xq_analyser_protocol(a), "uci");
	assert_int_equal(xq_analyser_is_running(a), 1);
	xq_analyser_free(a);
	o.protocol = "xboard";
	memset(&s, 0, sizeof(s));
	assert_int_equal(xq_analyser_open(&a, &o, collect, &s), XQ_ERANGE);
	assert_null(a);
	assert_non_null(strstr(s.first, "xboard"));
	o.protocol = NULL;
	o.settings = bad;
	memset(&s, 0, sizeof(s));
	assert_int_equal(xq_analyser_open(&a, &o, collect, &s), XQ_ERANGE);
	assert_null(a);
	assert_non_null(strstr(s.first, "noequals"));
}

static void a_manual_restart_analyser_waits_for_its_caller_to_restart_it(void **state)
{
	xq_analyser_options o = XQ_ANALYSER_OPTIONS_INIT;
	char *crash[] = {"crash-on-go", NULL};
	xq_analysis_result res = XQ_ANALYSIS_RESULT_INIT;
	struct seen s = {0};
	xq_record *r = xq_record_new();
	xq_analyser *a;

	(void)state;
	o.program = FAKE_ENGINE;
	o.args = crash;
	o.flags = XQ_ANALYSER_MANUAL_RESTART;
	assert_int_equal(xq_analyser_open(&a, &o, NULL, NULL), 0);
	assert_int_equal(xq_analyser_run(a, r, XQ_ROOT_NODE, 3, 0, 0, &res, collect, &s), XQ_EENGINE);
	assert_string_equal(s.codes[0], "engine");
	assert_int_equal(xq_analyser_is_running(a), 0);
	/* Not restarted behind the caller's back: still stopped. */
	memset(&s, 0, sizeof(s));
	assert_int_equal(xq_analyser_run(a, r, XQ_ROOT_NODE, 3, 0, 0, &res, collect, &s), XQ_EENGINE);
	assert_non_null(strstr(s.first, "not running"));
	assert_int_equal(xq_analyser_restart(a, NULL, NULL), 0);
	assert_int_equal(xq_analyser_is_running(a), 1);
	xq_analyser_free(a);
	xq_record_free(r);
}

static void an_engine_s_warnings_go_to_their_own_callback(void **state)
{
	xq_analyser_options o = XQ_ANALYSER_OPTIONS_INIT;
	char *garbage[] = {"garbage", NULL};
	xq_analysis_result res = XQ_ANALYSIS_RESULT_INIT;
	struct seen s = {0};
	xq_record *r = xq_record_new();
	xq_analyser *a;
	int warnings = 0;

	(void)state;
	o.program = FAKE_ENGINE;
	o.args = garbage;
	o.warn = count_warning;
	o.warn_user = &warnings;
	assert_int_equal(xq_analyser_open(&a, &o, NULL, NULL), 0);
	assert_int_equal(xq_analyser_run(a, r, XQ_ROOT_NODE, 3, 0, 0, &res, collect, &s), 0);
	assert_true(warnings > 0);
	assert_int_equal(s.n, 0); /* none of them to the run's callback */
	assert_true(res.best != 0);
	xq_analyser_free(a);
	xq_record_free(r);
}

static void a_hung_engine_is_given_up_after_the_timeout(void **state)
{
	xq_analyser_options o = XQ_ANALYSER_OPTIONS_INIT;
	char *hang[] = {"hang-on-go", NULL};
	xq_analysis_result res = XQ_ANALYSIS_RESULT_INIT;
	xq_record *r = xq_record_new();
	xq_analyser *a;

	(void)state;
	o.program = FAKE_ENGINE;
	o.args = hang;
	o.timeout_ms = 300;
	assert_int_equal(xq_analyser_open(&a, &o, NULL, NULL), 0);
	assert_int_equal(xq_analyser_run(a, r, XQ_ROOT_NODE, 3, 0, 0, &res, NULL, NULL), XQ_EENGINE);
	xq_analyser_free(a);
	xq_record_free(r);
}

static void a_set_cancel_flag_stops_the_search_and_no_move_is_no_search(void **state)
{
	xq_analyser_options o = XQ_ANALYSER_OPTIONS_INIT;
	xq_analysis_result res = XQ_ANALYSIS_RESULT_INIT;
	xq_cancel *stop = xq_cancel_new();
	xq_record *r = xq_record_new();
	xq_position *p = xq_position_new();
	xq_analyser *a;

	(void)state;
	o.hash_mb = 1;
	o.cancel = stop;
	assert_int_equal(xq_analyser_open(&a, &o, NULL, NULL), 0);
	assert_int_equal(xq_analyser_run(a, r, XQ_ROOT_NODE, 3, 0, 0, &res, NULL, NULL), 0);
	assert_int_equal(res.stopped, 0);
	assert_int_equal(res.no_moves, 0);
	assert_int_equal(res.depth, 3);
	xq_cancel_set(stop);
	assert_int_equal(xq_analyser_run(a, r, XQ_ROOT_NODE, 30, 0, 0, &res, NULL, NULL), 0);
	assert_int_equal(res.stopped, 1);
	assert_true(res.depth < 30);
	/* Red is mated: nothing to search, and it says so. */
	assert_int_equal(xq_position_set_fen(p, "3k5/9/9/9/9/9/9/9/3r5/3rK4 w"), 0);
	assert_int_equal(xq_record_set_start(r, p), 0);
	assert_int_equal(xq_analyser_run(a, r, XQ_ROOT_NODE, 3, 0, 0, &res, NULL, NULL), 0);
	assert_int_equal(res.no_moves, 1);
	assert_int_equal(res.kind, XQ_EVAL_MATED);
	assert_int_equal(res.score, 0);
	assert_int_equal(res.best, 0);
	xq_analyser_free(a);
	xq_cancel_free(stop);
	xq_position_free(p);
	xq_record_free(r);
}

static void a_writer_onto_an_open_file_leaves_the_file_to_its_owner(void **state)
{
	xq_write_options wo = XQ_WRITE_OPTIONS_INIT;
	char dir[256], path[300], bytes[4096];
	struct seen s = {0};
	xq_record *r = xq_record_new();
	xq_writer *w;
	xq_file *f;
	long n;

	(void)state;
	assert_int_equal(test_tmpdir(dir, sizeof(dir), "api-writer-file"), 0);
	snprintf(path, sizeof(path), "%s/games.pgn", dir);
	assert_int_equal(xq_record_add_move_text(r, XQ_ROOT_NODE, "h2e2", XQ_DIALECT_ICCS, NULL), 0);
	assert_int_equal(xq_file_open(&f, path, 0, NULL, NULL), 0);
	/* No format named: refused, the file untouched. */
	assert_int_equal(xq_writer_open_file(&w, f, &wo, collect, &s), XQ_EUNSUPPORTED);
	assert_null(w);
	assert_int_equal(s.errors, 1);
	wo.format = "pgn";
	wo.dialect = XQ_DIALECT_ICCS;
	assert_int_equal(xq_file_write(f, "; before\n", 9), 0);
	assert_int_equal(xq_writer_open_file(&w, f, &wo, NULL, NULL), 0);
	assert_int_equal(xq_writer_write(w, r), 0);
	assert_int_equal(xq_writer_close(w), 0);
	/* Closing the writer committed nothing: the name is free yet. */
	assert_int_equal(file_bytes(path, bytes, sizeof(bytes)), -1);
	/* An aborted writer leaves the file too. */
	assert_int_equal(xq_writer_open_file(&w, f, &wo, NULL, NULL), 0);
	xq_writer_abort(w);
	assert_int_equal(xq_file_write(f, "; after\n", 8), 0);
	assert_int_equal(xq_file_commit(f, NULL, NULL), 0);
	n = file_bytes(path, bytes, sizeof(bytes));
	assert_true(n > 17);
	assert_int_equal(strncmp(bytes, "; before\n", 9), 0);
	assert_non_null(strstr(bytes, "h2e2"));
	assert_string_equal(bytes + n - 8, "; after\n");
	xq_record_free(r);
	assert_int_equal(test_rmtree(dir), 0);
}

static void move_numbers_iccs_names_and_rule_set_names_read_as_written(void **state)
{
	xq_position *p = xq_position_new();

	(void)state;
	assert_int_equal(xq_position_move_number(p), 1);
	assert_int_equal(xq_position_play_text(p, "h2e2", XQ_DIALECT_ICCS), 0);
	assert_int_equal(xq_position_move_number(p), 1);
	assert_int_equal(xq_position_play_text(p, "h9g7", XQ_DIALECT_ICCS), 0);
	assert_int_equal(xq_position_move_number(p), 2);
	assert_int_equal(xq_position_set_fen(p, "3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 41"), 0);
	assert_int_equal(xq_position_move_number(p), 41);
	assert_string_equal(xq_ruleset_name(XQ_RULESET_ASIAN), "asian");
	assert_string_equal(xq_ruleset_name(XQ_RULESET_CHINESE), "chinese");
	assert_string_equal(xq_ruleset_name(-1), "none");
	assert_null(xq_ruleset_name(9));
	{
		char name[5];
		assert_int_equal(xq_move_code_iccs(XQ_MOVE_CODE(XQ_SQUARE(7, 2), XQ_SQUARE(4, 2)), name), 4);
		assert_string_equal(name, "h2e2");
		assert_int_equal(xq_move_code_iccs(XQ_MOVE_CODE(XQ_SQUARE(0, 9), XQ_SQUARE(8, 0)), name), 4);
		assert_string_equal(name, "a9i0");
		assert_int_equal(xq_move_code_iccs(0, name), 0);
		assert_string_equal(name, "");
		assert_int_equal(xq_move_code_iccs(XQ_MOVE_CODE(3, 95), name), 0);
	}
	assert_int_equal(xq_ruleset_from_name(xq_ruleset_name(XQ_RULESET_CHINESE)), XQ_RULESET_CHINESE);
	xq_position_free(p);
}

/* What one thread reads of a few files in every format: the ICCS main
 * lines, one after the other. */
static const char *const thread_files[] = {
	"samples/test.cbf", "tests/data/xqf/sample-v12.xqf", "samples/endgame-big5.pgn",
	"samples/asian-2007.ubb", "samples/liu-dahua-1956.ndjson.gz", "tests/data/pgn/gb2312-crlf.pgn",
};

static void *read_files(void *arg)
{
	char *out = arg;
	size_t used = 0;

	out[0] = '\0';
	for (int round = 0; round < 20; round++) {
		used = 0;
		for (size_t i = 0; i < sizeof(thread_files) / sizeof(thread_files[0]); i++) {
			xq_reader *rd;
			xq_record *r;
			if (xq_reader_open(&rd, thread_files[i], NULL, NULL, NULL) != 0)
				return NULL;
			while (xq_reader_next(rd, &r) == 1) {
				char *m = xq_record_mainline_text(r, XQ_DIALECT_CHINESE, 0);
				int n = snprintf(out + used, 65536 - used, "%s\n", m ? m : "?");
				if (n > 0 && used + (size_t)n < 65536)
					used += (size_t)n;
				xq_free(m);
				xq_record_free(r);
			}
			xq_reader_close(rd);
		}
	}
	return out;
}

static void readers_on_several_threads_read_what_one_reads(void **state)
{
	static char alone[65536], each[4][65536];
	pthread_t t[4];

	(void)state;
	assert_non_null(read_files(alone));
	assert_true(strlen(alone) > 100);
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&t[i], NULL, read_files, each[i]), 0);
	for (int i = 0; i < 4; i++) {
		void *res;
		assert_int_equal(pthread_join(t[i], &res), 0);
		assert_non_null(res);
		assert_string_equal(each[i], alone);
	}
}

/*
 * ABI: the structures a program fills or reads keep, within major version
 * 0, the layout version 0.1 gave them on LP64 systems (new fields go at
 * their end, where `size` says whether a caller has them).  A change here
 * breaks programs built against an earlier 0.x: it needs a new major.
 */
#define AT(type, field, offset) {#type "." #field, offsetof(type, field), offset}
static const struct {
	const char *what;
	size_t at, was;
} version_0_layout[] = {
	AT(xq_read_options, format, 8), AT(xq_read_options, encoding, 16),
	AT(xq_read_options, uci_ranks, 24), AT(xq_read_options, max_memory, 32),
	AT(xq_write_options, format, 8), AT(xq_write_options, dialect, 16),
	AT(xq_write_options, dialect_flags, 20), AT(xq_write_options, encoding, 24),
	AT(xq_write_options, version, 32), AT(xq_write_options, flags, 36),
	AT(xq_analysis_result, kind, 8), AT(xq_analysis_result, score, 12),
	AT(xq_analysis_result, depth, 16), AT(xq_analysis_result, nodes, 24),
	AT(xq_analysis_result, time_ms, 32), AT(xq_analysis_result, best, 36),
	AT(xq_analysis_result, pv_len, 40), AT(xq_analysis_result, pv, 48),
	AT(xq_analysis_result, stopped, 176),
	AT(xq_buf, ptr, 0), AT(xq_buf, len, 8), AT(xq_buf, alloc, 16), AT(xq_buf, err, 24),
	/* Added in 0.1 after the first ones (xq_record_validate()). */
	AT(xq_validate_options, ruleset, 8), AT(xq_validate_options, required, 16),
	AT(xq_validate_options, nrequired, 24),
	/* Added in 0.1 with <xq/fix.h>. */
	AT(xq_date, date, 0), AT(xq_date, time, 11), AT(xq_date, why, 20),
	AT(xq_proof, why, 0), AT(xq_proof, result, 8), AT(xq_proof, ply, 16),
	AT(xq_proof, first, 20), AT(xq_proof, conduct, 24), AT(xq_proof, ruleset, 32),
};
#undef AT

static void public_structures_keep_their_version_0_layout(void **state)
{
	(void)state;
	if (sizeof(void *) != 8 || sizeof(long) != 8)
		TEST_SKIP("the recorded layouts are those of LP64 systems");
	for (size_t i = 0; i < sizeof(version_0_layout) / sizeof(version_0_layout[0]); i++)
		if (version_0_layout[i].at != version_0_layout[i].was)
			fail_msg("%s is at byte %zu; version 0.1 had it at %zu", version_0_layout[i].what,
				 version_0_layout[i].at, version_0_layout[i].was);
	assert_true(sizeof(xq_read_options) >= 40);
	assert_true(sizeof(xq_write_options) >= 40);
	assert_true(sizeof(xq_analysis_result) >= 184);
	assert_int_equal(sizeof(xq_buf), 32);
	assert_int_equal(sizeof(xq_date), 116);
	assert_int_equal(sizeof(xq_proof), 40);
	/* Squares, moves and the enumerations' values are ABI too. */
	assert_int_equal(XQ_SQUARE(8, 9), 89);
	assert_int_equal(XQ_MOVE_CODE(1, 2), 0x0201);
	assert_int_equal(XQ_DIALECT_CHINESE, 5);
	assert_int_equal(XQ_EUNSUPPORTED, -5);
	assert_int_equal(XQ_RULING_BLACK_LOSES, 3);
}

/* The string buffer: appends of every kind, the content always a
 * NUL-terminated string of `len` bytes. */

/* A caller's own printf-like function, as xq_buf_vaddf() is for: the
 * text in brackets, the error checked once at the end. */
static int add_bracketed(xq_buf *b, const char *fmt, ...)
{
	va_list ap;

	xq_buf_addc(b, '[');
	va_start(ap, fmt);
	xq_buf_vaddf(b, fmt, ap);
	va_end(ap);
	xq_buf_addc(b, ']');
	return xq_buf_error(b);
}

static void buffer_appends_bytes_strings_and_formats_as_one_string(void **state)
{
	xq_buf b = XQ_BUF_INIT, c;
	char *taken;
	size_t len;

	(void)state;
	assert_string_equal(b.ptr, "");
	assert_int_equal(b.len, 0);
	assert_int_equal(xq_buf_add(&b, "ab\0cd", 5), 0);
	assert_int_equal(b.len, 5);
	assert_memory_equal(b.ptr, "ab\0cd", 6);
	xq_buf_truncate(&b, 2);
	xq_buf_truncate(&b, 99); /* longer than the content: nothing */
	assert_int_equal(xq_buf_adds(&b, "-"), 0);
	assert_int_equal(xq_buf_addc(&b, 'x'), 0);
	assert_int_equal(xq_buf_addf(&b, "%d:%s", 42, "y"), 0);
	assert_int_equal(add_bracketed(&b, "%05.1f", 2.5), 0);
	assert_string_equal(b.ptr, "ab-x42:y[002.5]");
	assert_int_equal(b.len, strlen("ab-x42:y[002.5]"));
	/* Room made ahead: that many bytes append without moving. */
	assert_int_equal(xq_buf_grow(&b, 1000), 0);
	{
		const char *before = b.ptr;
		for (int i = 0; i < 1000; i++)
			xq_buf_addc(&b, 'z');
		assert_ptr_equal(b.ptr, before);
	}
	assert_int_equal(xq_buf_error(&b), 0);
	assert_int_equal(b.len, 15 + 1000);
	xq_buf_reset(&b);
	assert_string_equal(b.ptr, "");
	assert_int_equal(xq_buf_adds(&b, "kept"), 0);
	taken = xq_buf_detach(&b, &len);
	assert_string_equal(taken, "kept");
	assert_int_equal(len, 4);
	assert_string_equal(b.ptr, "");
	assert_int_equal(b.len, 0);
	xq_free(taken);
	/* An empty buffer hands over an empty string of its own. */
	taken = xq_buf_detach(&b, NULL);
	assert_non_null(taken);
	assert_string_equal(taken, "");
	free(taken);
	xq_buf_init(&c);
	assert_int_equal(xq_buf_addf(&c, "%s", "released"), 0);
	xq_buf_release(&c);
	assert_string_equal(c.ptr, "");
	assert_int_equal(c.len, 0);
	xq_buf_release(&b);
}

static void buffer_error_is_sticky_so_many_appends_are_checked_once(void **state)
{
	xq_buf b = XQ_BUF_INIT;

	(void)state;
	assert_int_equal(xq_buf_adds(&b, "head"), 0);
	/* More than memory can hold: refused, and every later append too. */
	assert_int_equal(xq_buf_grow(&b, SIZE_MAX / 2), XQ_ENOMEM);
	assert_int_equal(xq_buf_adds(&b, "lost"), XQ_ENOMEM);
	assert_int_equal(xq_buf_addc(&b, '!'), XQ_ENOMEM);
	assert_int_equal(xq_buf_addf(&b, "%d", 1), XQ_ENOMEM);
	assert_int_equal(xq_buf_add_json_string(&b, "j", 1), XQ_ENOMEM);
	assert_int_equal(xq_buf_error(&b), XQ_ENOMEM);
	assert_string_equal(b.ptr, "head"); /* a whole prefix of what was appended */
	xq_buf_reset(&b);
	assert_int_equal(xq_buf_error(&b), 0);
	assert_int_equal(xq_buf_adds(&b, "again"), 0);
	assert_string_equal(b.ptr, "again");
	xq_buf_release(&b);
}

static void json_string_is_escaped_as_the_ndjson_outputs_write_it(void **state)
{
	static const char in[] = "q\"b\\n\n\r\t\b\f\x01\x1f\x7f/\xe7\x82\xae\xff.";
	xq_buf b = XQ_BUF_INIT;

	(void)state;
	assert_int_equal(xq_buf_add_json_string(&b, in, sizeof(in) - 1), 0);
	assert_string_equal(b.ptr, "\"q\\\"b\\\\n\\n\\r\\t\\b\\f\\u0001\\u001f\\u007f/\xe7\x82\xae\xef\xbf\xbd.\"");
	xq_buf_reset(&b);
	assert_int_equal(xq_buf_add_json_string(&b, "a\0b", 3), 0);
	assert_string_equal(b.ptr, "\"a\\u0000b\"");
	xq_buf_release(&b);
}

static void utf8_is_strict_and_ascii_classes_ignore_other_bytes(void **state)
{
	static const char pao[] = "\xe7\x82\xae"; /* 炮 */
	char out[4];
	uint32_t cp;

	(void)state;
	assert_int_equal(xq_utf8_valid_prefix(pao, 3), 3);
	assert_int_equal(xq_utf8_valid_prefix(pao, 2), 0);          /* cut */
	assert_int_equal(xq_utf8_valid_prefix("\xc0\xaf", 2), 0);   /* overlong '/' */
	assert_int_equal(xq_utf8_valid_prefix("\xed\xa0\x80", 3), 0); /* surrogate */
	assert_int_equal(xq_utf8_decode(pao, 3, &cp), 3);
	assert_int_equal(cp, 0x70AE);
	assert_int_equal(xq_utf8_decode("\xf4\x90\x80\x80", 4, &cp), 0); /* above U+10FFFF */
	assert_int_equal(cp, 0xFFFD);
	assert_int_equal(xq_utf8_encode(0x70AE, out), 3);
	assert_memory_equal(out, pao, 3);
	assert_int_equal(xq_utf8_encode(0x1F600, out), 4);
	assert_int_equal(xq_utf8_encode(0xD800, out), 0);
	assert_int_equal(xq_utf8_check("ab\xe7\x82\xae" "c\xb3\xb5", 8), 6); /* GBK after UTF-8 */
	assert_int_equal(xq_utf8_check(pao, 3), 3);
	assert_int_equal(xq_utf8_count("a\xe7\x82\xae\xff" "b", 6), 4);
	assert_true(xq_is_digit('7') && !xq_is_digit(0xB3));
	assert_true(xq_is_alpha('Q') && !xq_is_alpha(0xE7));
	assert_true(xq_is_space('\v') && !xq_is_space(0xA0));
	assert_int_equal(xq_to_lower('R'), 'r');
	assert_int_equal(xq_to_upper(0xE7), 0xE7);
	assert_true(xq_ascii_ieq("Chinese", "cHINESE"));
	assert_false(xq_ascii_ieq("wxf", "wxf2"));
}

static void arrays_grow_by_half_and_sizes_read_as_people_write_them(void **state)
{
	int *a = NULL;
	size_t n = 0, alloc = 0;
	uint64_t v = 7;

	(void)state;
	for (int i = 0; i < 100; i++) {
		assert_int_equal(XQ_ALLOC_GROW(a, n + 1, alloc), 0);
		a[n++] = i;
	}
	assert_true(alloc >= 100 && alloc < 200);
	assert_int_equal(a[99], 99);
	/* A byte size that would overflow is refused, nothing changed. */
	{
		int *before = a;
		size_t cap = alloc;
		assert_int_equal(xq_alloc_grow(&a, &alloc, SIZE_MAX / 2, sizeof(*a)), XQ_ENOMEM);
		assert_ptr_equal(a, before);
		assert_int_equal(alloc, cap);
	}
	free(a);
	assert_int_equal(xq_size_parse("256M", &v), 0);
	assert_true(v == XQ_MEMORY_DEFAULT);
	assert_int_equal(xq_size_parse("8MiB", &v), 0);
	assert_true(v == XQ_MEMORY_MIN);
	assert_int_equal(xq_size_parse("1g", &v), 0);
	assert_true(v == (uint64_t)1 << 30);
	assert_int_equal(xq_size_parse("65536", &v), 0);
	assert_true(v == 65536);
	assert_int_equal(xq_size_parse("12X", &v), -1);
	assert_int_equal(xq_size_parse("99999999999999999999", &v), -1);
	assert_int_equal(xq_size_parse("", &v), -1);
	assert_true(v == 65536); /* unchanged by a refusal */
}

/* An older caller's options, without the fields added since (here: all
 * but the format), are read as far as their size says. */
static void options_of_an_older_caller_are_read_as_far_as_their_size(void **state)
{
	static const char pgn[] = "[Event \"e\"]\n1. h2e2 *\n";
	xq_read_options o = XQ_READ_OPTIONS_INIT;
	xq_reader *rd;
	xq_record *r;

	(void)state;
	o.format = "pgn";
	o.encoding = "klingon"; /* beyond `size`: never read */
	o.size = offsetof(xq_read_options, encoding);
	assert_int_equal(xq_reader_open_memory(&rd, NULL, pgn, sizeof(pgn) - 1, &o, NULL, NULL), 0);
	assert_string_equal(xq_reader_format(rd), "pgn");
	assert_int_equal(xq_reader_next(rd, &r), 1);
	xq_record_free(r);
	xq_reader_close(rd);
}

static void *set_after_200_ms(void *arg)
{
	struct timespec t = {0, 200 * 1000 * 1000};

	nanosleep(&t, NULL);
	xq_cancel_set(arg);
	return NULL;
}

static double seconds_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A reader waiting on a pipe that never speaks stops within a second of
 * the flag being set by another thread, with XQ_ECANCELED and an "io"
 * error; a flag set before opening stops a file's reader at once; one
 * never set changes nothing. */
static void cancel_flag_stops_a_reader_waiting_on_a_silent_pipe(void **state)
{
	xq_read_options o = XQ_READ_OPTIONS_INIT;
	xq_cancel *c = xq_cancel_new();
	struct seen s = {0};
	xq_reader *rd;
	xq_record *r;
	pthread_t t;
	char path[64];
	int fds[2];
	double t0;

	(void)state;
	assert_non_null(c);
	assert_false(xq_cancel_is_set(c));
	o.cancel = c;
	assert_int_equal(xq_reader_open(&rd, "tests/data/xqf/sample-v12.xqf", &o, NULL, NULL), 0);
	assert_int_equal(xq_reader_next(rd, &r), 1);
	xq_record_free(r);
	xq_reader_close(rd);

	assert_int_equal(pipe(fds), 0);
	snprintf(path, sizeof(path), "/dev/fd/%d", fds[0]);
	assert_int_equal(pthread_create(&t, NULL, set_after_200_ms, c), 0);
	t0 = seconds_now();
	assert_int_equal(xq_reader_open(&rd, path, &o, collect, &s), XQ_ECANCELED);
	assert_true(seconds_now() - t0 < 1.5);
	pthread_join(t, NULL);
	assert_null(rd);
	assert_true(xq_cancel_is_set(c));
	assert_int_equal(s.errors, 1);
	assert_string_equal(s.codes[0], "io");
	close(fds[0]);
	close(fds[1]);

	assert_int_equal(xq_reader_open(&rd, "tests/data/xqf/sample-v12.xqf", &o, NULL, NULL), XQ_ECANCELED);
	xq_cancel_free(c);
	xq_cancel_free(NULL);
}

/* ---- batch: many inputs on threads, in order ---------------------------------- */

struct batch_seen {
	xq_buf out;      /* what emit saw, in order */
	int games, ends, failed, stop_at;
	xq_record *other; /* swapped into the 3rd game when set */
};

/* On a worker: a note of the program's own about the game. */
static void batch_process(void *ctx, void *worker, xq_batch_job *j)
{
	xq_diagnostic_about about = XQ_DIAGNOSTIC_ABOUT_INIT;

	(void)ctx;
	(void)worker;
	about.record = j->record;
	j->counts[0] = xq_record_mainline_length(j->record);
	assert_int_equal(xq_diagnostics_report(j->diags, &about, XQ_SEVERITY_NOTE, "none",
					       "%u plies", (unsigned)j->counts[0]),
			 0);
}

static int batch_emit(void *ctx, xq_batch_job *j)
{
	struct batch_seen *s = ctx;
	char line[512];

	if (j->kind == XQ_BATCH_END) {
		s->ends++;
		s->failed += j->file->status == XQ_BATCH_FILE_FAILED;
		xq_buf_addf(&s->out, "end #%llu %s [%s] status %d, %llu games\n",
			    (unsigned long long)j->file->seq, j->file->name, j->file->format,
			    (int)j->file->status, (unsigned long long)j->file->games);
	} else {
		char *moves;
		if (++s->games == 3 && s->other)
			xq_batch_job_swap_record(j, s->other);
		moves = xq_record_mainline_text(j->record, XQ_DIALECT_ICCS, 0);
		xq_buf_addf(&s->out, "game %s #%llu %s: %s\n", j->file->name,
			    (unsigned long long)xq_record_number(j->record),
			    xq_record_tag(j->record, "Event") ? xq_record_tag(j->record, "Event") : "-",
			    moves ? moves : "?");
		xq_free(moves);
		if (s->stop_at && s->games == s->stop_at)
			return 7;
	}
	for (size_t i = 0; i < xq_diagnostics_count(j->diags); i++) {
		xq_diagnostic_format(xq_diagnostics_at(j->diags, i), line, sizeof(line));
		xq_buf_addf(&s->out, "  %s\n", line);
	}
	return 0;
}

/* A PGN of `n` games in `dir`, game 7 with an illegal move. */
static void batch_pgn(const char *path, int n)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	for (int i = 1; i <= n; i++)
		fprintf(f, "[Event \"g%d\"]\n[Result \"*\"]\n\n1. h2e2 h9g7 2. %s *\n\n", i,
			i == 7 ? "h0h9" : "h0g2");
	assert_int_equal(fclose(f), 0);
}

static int batch_run(struct batch_seen *s, const char *const *paths, size_t n, int threads,
		     xq_batch_stats *st)
{
	xq_batch_config cfg = XQ_BATCH_CONFIG_INIT;

	cfg.threads = threads;
	cfg.paths = paths;
	cfg.n_paths = n;
	cfg.process = batch_process;
	cfg.emit = batch_emit;
	cfg.ctx = s;
	cfg.split_min = 1; /* cut every input that can be cut */
	cfg.chunk_games = 4;
	cfg.stats = st;
	return xq_batch_run(&cfg);
}

static void a_batch_gives_every_game_of_its_inputs_in_order_on_any_number_of_threads(void **state)
{
	char dir[256], big[300], missing[300];
	const char *paths[4];
	struct batch_seen one = {XQ_BUF_INIT, 0, 0, 0, 0, NULL};
	struct batch_seen four = {XQ_BUF_INIT, 0, 0, 0, 0, NULL};
	xq_batch_stats st;

	(void)state;
	assert_int_equal(test_tmpdir(dir, sizeof(dir), "api-batch"), 0);
	snprintf(big, sizeof(big), "%s/forty.pgn", dir);
	snprintf(missing, sizeof(missing), "%s/missing.pgn", dir);
	batch_pgn(big, 40);
	paths[0] = "tests/data/xqf/sample-v12.xqf";
	paths[1] = big;
	paths[2] = missing;
	paths[3] = "tests/data/pgn/big5-black-first.pgn";
	assert_int_equal(batch_run(&one, paths, 4, 1, NULL), 0);
	memset(&st, 0, sizeof(st));
	assert_int_equal(batch_run(&four, paths, 4, 4, &st), 0);
	/* Four threads cut the big PGN into chunks, and give what one gives. */
	assert_true(st.split_files >= 1 && st.chunks >= 2);
	assert_int_equal(xq_buf_error(&one.out), 0);
	assert_int_equal(one.out.len, four.out.len);
	assert_memory_equal(one.out.ptr, four.out.ptr, one.out.len);
	/* One END job per input, after its games; the missing one failed. */
	assert_int_equal(one.games, 1 + 40 + 1);
	assert_int_equal(one.ends, 4);
	assert_int_equal(one.failed, 1);
	xq_buf_addc(&one.out, '\0');
	assert_non_null(strstr(one.out.ptr, "end #0 tests/data/xqf/sample-v12.xqf [xqf] status 0, 1 games"));
	assert_non_null(strstr(one.out.ptr, "/forty.pgn #40 g40: h2e2 h9g7 h0g2\n"));
	assert_non_null(strstr(one.out.ptr, "/forty.pgn [pgn] status 0, 40 games"));
	assert_non_null(strstr(one.out.ptr, "/missing.pgn [] status 2, 0 games"));
	/* The reader's error at its place, then the program's own note. */
	assert_non_null(strstr(one.out.ptr, "/forty.pgn #7 g7: h2e2 h9g7\n  "));
	assert_non_null(strstr(one.out.ptr, "forty.pgn:"));
	assert_non_null(strstr(one.out.ptr, "2 plies"));
	assert_true(strstr(one.out.ptr, "#1 g1:") < strstr(one.out.ptr, "#2 g2:"));
	xq_buf_release(&one.out);
	xq_buf_release(&four.out);
	assert_int_equal(test_rmtree(dir), 0);
}

static void a_batch_stops_where_emit_says_and_swaps_a_record_in_keeping_its_number(void **state)
{
	const char *paths[] = {"tests/data/pgn/first-game-without-result.pgn",
			       "tests/data/pgn/wxf-fullwidth.pgn", "tests/data/xqf/sample-v12.xqf"};
	struct batch_seen s = {XQ_BUF_INIT, 0, 0, 0, 0, NULL};
	struct seen seen = {0};
	xq_batch_config cfg = XQ_BATCH_CONFIG_INIT;
	xq_record *other;

	(void)state;
	/* The 3rd game (the WXF one, game 1 of its input) becomes the XQF. */
	assert_int_equal(read_all("tests/data/xqf/sample-v12.xqf", &seen, &other, NULL), 1);
	s.other = other;
	assert_int_equal(batch_run(&s, paths, 3, 2, NULL), 0);
	xq_buf_addc(&s.out, '\0');
	/* ... as game 1 of the WXF input: its number and input, the XQF's tags and moves. */
	assert_non_null(strstr(s.out.ptr, "game tests/data/pgn/wxf-fullwidth.pgn #1 许银川让九子对聂棋圣: b2e2 h7e7"));
	assert_null(strstr(s.out.ptr, "Chinese National Champion 1956"));
	assert_string_equal(xq_record_tag(other, "Event"), "Chinese National Champion 1956");
	xq_record_free(other);
	xq_buf_release(&s.out);
	/* A non-zero emit stops the run, and is what it returns. */
	memset(&s, 0, sizeof(s));
	s.stop_at = 2;
	assert_int_equal(batch_run(&s, paths, 3, 2, NULL), 7);
	assert_int_equal(s.games, 2);
	xq_buf_release(&s.out);
	/* A configuration it does not know, or a format it does not, reads nothing. */
	memset(&s, 0, sizeof(s));
	cfg.paths = paths;
	cfg.n_paths = 3;
	cfg.emit = batch_emit;
	cfg.ctx = &s;
	cfg.size = 0;
	assert_int_equal(xq_batch_run(&cfg), XQ_EUNSUPPORTED);
	cfg.size = sizeof(cfg);
	cfg.read_options.format = "nonesuch";
	assert_int_equal(xq_batch_run(&cfg), XQ_EUNSUPPORTED);
	assert_int_equal(s.games + s.ends, 0);
	xq_buf_release(&s.out);
}

static void a_batch_ends_on_its_cancel_flag(void **state)
{
	const char *paths[] = {"tests/data/pgn/wxf-fullwidth.pgn"};
	struct batch_seen s = {XQ_BUF_INIT, 0, 0, 0, 0, NULL};
	xq_batch_config cfg = XQ_BATCH_CONFIG_INIT;
	xq_cancel *c = xq_cancel_new();

	(void)state;
	assert_non_null(c);
	xq_cancel_set(c);
	cfg.paths = paths;
	cfg.n_paths = 1;
	cfg.emit = batch_emit;
	cfg.ctx = &s;
	cfg.read_options.cancel = c;
	assert_int_equal(xq_batch_run(&cfg), XQ_ECANCELED);
	assert_int_equal(s.games, 0);
	xq_cancel_free(c);
	xq_buf_release(&s.out);
}

/* The games of `text` read from memory under the name `name`, into
 * r[0..max); returns how many. */
static int read_memory_games(const char *name, const char *text, xq_record **r, int max)
{
	xq_reader *rd;
	int n = 0;

	assert_int_equal(xq_reader_open_memory(&rd, name, text, strlen(text), NULL, NULL, NULL), 0);
	while (n < max && xq_reader_next(rd, &r[n]) == 1)
		n++;
	xq_reader_close(rd);
	return n;
}

static void records_compare_equal_but_for_what_the_flags_leave_out(void **state)
{
	static const char pgn[] =
		"[Event \"a\"]\n[Result \"1-0\"]\n\n1. h2e2 {centre} (1. b2e2) h9g7 $1 2. h0g2 1-0\n\n"
		"[Event \"b\"]\n[Result \"0-1\"]\n\n1. h2e2 {another} h9g7 2. h0g2 0-1\n\n"
		"[Event \"a\"]\n[Result \"1-0\"]\n\n1. h2e2 {centre} (1. b2e2) h9g7 $1 2. h0g2 1-0\n\n"
		"[Event \"a\"]\n[Result \"1-0\"]\n\n1. h2e2 {centre} (1. b2e2) h9g7 $1 2. b0c2 1-0\n";
	xq_record *r[4];
	char why[128];

	(void)state;
	assert_int_equal(read_memory_games("eq.pgn", pgn, r, 4), 4);
	/* The same game read twice: equal, whatever its number and place. */
	assert_int_equal(xq_record_equal(r[0], r[2], 0, why, sizeof(why)), 1);
	assert_string_equal(why, "");
	/* A comment, a variation, a NAG, a tag and the result apart. */
	assert_int_equal(xq_record_equal(r[0], r[1], 0, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "results differ"));
	assert_int_equal(xq_record_equal(r[0], r[1], XQ_EQUAL_IGNORE_RESULT, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "tag"));
	assert_int_equal(xq_record_equal(r[0], r[1], XQ_EQUAL_IGNORE_TAGS | XQ_EQUAL_IGNORE_RESULT, why,
					 sizeof(why)),
			 0);
	assert_non_null(strstr(why, "comments differ: 'centre' and 'another'"));
	assert_int_equal(xq_record_equal(r[0], r[1],
					 XQ_EQUAL_IGNORE_TAGS | XQ_EQUAL_IGNORE_RESULT |
						 XQ_EQUAL_IGNORE_COMMENTS,
					 why, sizeof(why)),
			 0);
	assert_non_null(strstr(why, "variations differ"));
	assert_int_equal(xq_record_equal(r[0], r[1],
					 XQ_EQUAL_IGNORE_TAGS | XQ_EQUAL_IGNORE_RESULT |
						 XQ_EQUAL_IGNORE_COMMENTS | XQ_EQUAL_MAINLINE_ONLY,
					 why, sizeof(why)),
			 0);
	assert_non_null(strstr(why, "NAGs differ"));
	assert_int_equal(xq_record_equal(r[0], r[1],
					 XQ_EQUAL_IGNORE_TAGS | XQ_EQUAL_IGNORE_RESULT |
						 XQ_EQUAL_IGNORE_COMMENTS | XQ_EQUAL_MAINLINE_ONLY |
						 XQ_EQUAL_IGNORE_NAGS,
					 NULL, 0),
			 1);
	/* A different move is never left out, and `why` may be NULL. */
	assert_int_equal(xq_record_equal(r[0], r[3], ~0u, NULL, 0), 0);
	assert_int_equal(xq_record_equal(r[0], r[3], ~0u, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "moves differ"));
	for (int i = 0; i < 4; i++)
		xq_record_free(r[i]);
}

static void a_record_marked_broken_is_written_with_its_reason(void **state)
{
	xq_write_options wo = XQ_WRITE_OPTIONS_INIT;
	xq_record *r = xq_record_new();
	xq_buf html = XQ_BUF_INIT, pgn = XQ_BUF_INIT;

	(void)state;
	assert_int_equal(xq_record_add_move_text(r, XQ_ROOT_NODE, "h2e2", XQ_DIALECT_ICCS, NULL), 0);
	assert_int_equal(xq_record_is_broken(r), 0);
	assert_int_equal(xq_record_set_broken(r, "line 3, column 9: ply 2 (h9h0): not a legal move"), 0);
	assert_int_equal(xq_record_is_broken(r), 1);
	wo.format = "html";
	assert_int_equal(xq_record_write_buf(&html, r, &wo, NULL, NULL), 0);
	assert_non_null(strstr(html.ptr, "This record has an error"));
	assert_non_null(strstr(html.ptr, "line 3, column 9: ply 2 (h9h0): not a legal move"));
	/* The moves before the error are written as ever. */
	wo.format = "pgn";
	wo.dialect = XQ_DIALECT_ICCS;
	assert_int_equal(xq_record_write_buf(&pgn, r, &wo, NULL, NULL), 0);
	assert_non_null(strstr(pgn.ptr, "h2e2"));
	/* Without a reason: broken all the same, nothing said. */
	xq_buf_reset(&html);
	wo.format = "html";
	assert_int_equal(xq_record_set_broken(r, NULL), 0);
	assert_int_equal(xq_record_is_broken(r), 1);
	assert_int_equal(xq_record_write_buf(&html, r, &wo, NULL, NULL), 0);
	assert_non_null(strstr(html.ptr, "This record has an error"));
	assert_null(strstr(html.ptr, "not a legal move"));
	xq_buf_release(&html);
	xq_buf_release(&pgn);
	xq_record_free(r);
}

/* Each game of `r` written apart and joined with the format's separator
 * gives what one writer gives of them all. */
static void assert_apart_joins_as_one(xq_record **r, int n, const char *format, int dialect)
{
	xq_write_options wo = XQ_WRITE_OPTIONS_INIT;
	const char *sep = xq_format_separator(format);
	xq_buf joined = XQ_BUF_INIT, one = XQ_BUF_INIT;
	xq_writer *w;
	void *data;
	size_t len;

	wo.format = format;
	wo.dialect = dialect;
	assert_non_null(sep);
	for (int i = 0; i < n; i++) {
		if (i)
			assert_int_equal(xq_buf_adds(&joined, sep), 0);
		assert_int_equal(xq_record_write_buf(&one, r[i], &wo, NULL, NULL), 0);
		assert_true(one.len > 0);
		assert_int_equal(xq_buf_add(&joined, one.ptr, one.len), 0);
		xq_buf_reset(&one);
	}
	assert_int_equal(xq_writer_open_memory(&w, &wo, NULL, NULL), 0);
	for (int i = 0; i < n; i++)
		assert_int_equal(xq_writer_write(w, r[i]), 0);
	assert_int_equal(xq_writer_close_memory(w, &data, &len), 0);
	assert_int_equal(len, joined.len);
	assert_memory_equal(data, joined.ptr, len);
	xq_free(data);
	xq_buf_release(&joined);
	xq_buf_release(&one);
}

static void games_written_apart_join_to_what_one_writer_writes(void **state)
{
	static const char pgn[] =
		"[Event \"one\"]\n\n1. h2e2 {a comment} (1. b2e2 $2) h9g7 *\n\n"
		"[Event \"two\"]\n[Red \"红方\"]\n\n1. c3c4 1-0\n\n"
		"[Event \"three\"]\n\n1. h2e2 h7e7 2. h0g2 1/2-1/2\n";
	xq_write_options wo = XQ_WRITE_OPTIONS_INIT;
	xq_buf b = XQ_BUF_INIT;
	struct seen s = {0};
	xq_record *r[3];

	(void)state;
	/* What writes games apart, and what does not. */
	assert_string_equal(xq_format_separator("pgn"), "\n");
	assert_string_equal(xq_format_separator("PGN"), "\n");
	assert_string_equal(xq_format_separator("ndjson"), "");
	assert_string_equal(xq_format_separator("ubb"), "\n");
	assert_null(xq_format_separator("html")); /* its index is of all the games */
	assert_null(xq_format_separator("xqf"));  /* one game per file */
	assert_null(xq_format_separator("cbr"));  /* one game per file */
	assert_null(xq_format_separator("cbl"));  /* its header and index are of all the games */
	assert_null(xq_format_separator("fen"));  /* read only */
	assert_null(xq_format_separator("nosuch"));
	assert_null(xq_format_separator(NULL));
	assert_int_equal(read_memory_games("apart.pgn", pgn, r, 3), 3);
	assert_apart_joins_as_one(r, 3, "pgn", XQ_DIALECT_CHINESE);
	assert_apart_joins_as_one(r, 3, "ndjson", 0);
	assert_apart_joins_as_one(r, 3, "dhtmlxq", 0);
	/* What the format cannot hold is a loss warning, the bytes written. */
	wo.format = "dhtmlxq";
	assert_int_equal(xq_record_write_buf(&b, r[0], &wo, collect, &s), 0);
	assert_true(b.len > 0);
	assert_int_equal(s.warnings, 1);
	assert_string_equal(s.codes[0], "loss");
	/* Options refused: said once, by the format, and nothing appended. */
	memset(&s, 0, sizeof(s));
	xq_buf_reset(&b);
	wo.format = "xqf";
	wo.version = 99;
	assert_int_equal(xq_record_write_buf(&b, r[0], &wo, collect, &s), XQ_EUNSUPPORTED);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.codes[0], "unsupported");
	assert_non_null(strstr(s.first, "0x63"));
	assert_int_equal(b.len, 0);
	memset(&s, 0, sizeof(s));
	wo.format = NULL;
	wo.version = 0;
	assert_int_equal(xq_record_write_buf(&b, r[0], &wo, collect, &s), XQ_EUNSUPPORTED);
	assert_int_equal(s.errors, 1);
	wo.format = "pgn";
	wo.encoding = "klingon";
	assert_int_equal(xq_record_write_buf(&b, r[0], &wo, collect, &s), XQ_EENCODING);
	assert_int_equal(s.errors, 2);
	assert_int_equal(b.len, 0);
	xq_buf_release(&b);
	for (int i = 0; i < 3; i++)
		xq_record_free(r[i]);
}

static void renumbering_puts_a_game_s_own_number_and_line_in_its_bytes(void **state)
{
	/* The same game at the same byte offset (10): the first game on line 11
	 * of one input, the second on line 2 of the other. */
	static const char game[] = "[Event \"x\"]\n\n1. h2e2 h9g7 *\n";
	char one[64], two[64];
	xq_write_options wo = XQ_WRITE_OPTIONS_INIT;
	xq_record *a, *b[2];
	xq_buf text = XQ_BUF_INIT, now = XQ_BUF_INIT, junk = XQ_BUF_INIT;
	uint64_t line, offset;

	(void)state;
	snprintf(one, sizeof(one), "\n\n\n\n\n\n\n\n\n\n%s", game);
	snprintf(two, sizeof(two), "1. h2e2 *\n%s", game);
	assert_int_equal(read_memory_games("games.pgn", one, &a, 1), 1);
	assert_int_equal(read_memory_games("games.pgn", two, b, 2), 2);
	xq_record_place(a, &line, NULL, &offset);
	assert_int_equal(xq_record_number(a), 1);
	assert_int_equal(line, 11);
	assert_int_equal(offset, 10);
	xq_record_place(b[1], &line, NULL, &offset);
	assert_int_equal(xq_record_number(b[1]), 2);
	assert_int_equal(line, 2);
	assert_int_equal(offset, 10);
	wo.format = "ndjson";
	assert_int_equal(xq_record_write_buf(&text, a, &wo, NULL, NULL), 0);
	assert_non_null(strstr(text.ptr, "\"game\":1,\"line\":11"));
	assert_int_equal(xq_record_write_buf(&now, b[1], &wo, NULL, NULL), 0);
	assert_non_null(strstr(now.ptr, "\"game\":2,\"line\":2"));
	/* Written as game 1 on line 11, it is now game 2 on line 2. */
	assert_int_equal(xq_format_renumber("ndjson", &text, b[1], 1, 11), 0);
	assert_int_equal(text.len, now.len);
	assert_string_equal(text.ptr, now.ptr);
	/* Bytes that are not such a record are left as they were. */
	assert_int_equal(xq_buf_adds(&junk, "{\"not\":\"a record\"}\n"), 0);
	assert_int_equal(xq_format_renumber("ndjson", &junk, b[1], 1, 11), XQ_EINTERNAL);
	assert_string_equal(junk.ptr, "{\"not\":\"a record\"}\n");
	/* PGN writes no number into a game: nothing to put right. */
	assert_int_equal(xq_format_renumber("pgn", &junk, b[1], 1, 11), 0);
	assert_string_equal(junk.ptr, "{\"not\":\"a record\"}\n");
	assert_int_equal(xq_format_renumber("nosuch", &junk, b[1], 1, 11), XQ_ENOTFOUND);
	xq_buf_release(&text);
	xq_buf_release(&now);
	xq_buf_release(&junk);
	xq_record_free(a);
	xq_record_free(b[0]);
	xq_record_free(b[1]);
}

static void a_memory_file_holds_each_record_as_soon_as_it_is_written(void **state)
{
	static const char pgn[] = "[Event \"one\"]\n\n1. h2e2 *\n\n[Event \"two\"]\n\n1. c3c4 *\n";
	xq_write_options wo = XQ_WRITE_OPTIONS_INIT;
	xq_buf mem = XQ_BUF_INIT, alone = XQ_BUF_INIT;
	xq_record *r[2];
	xq_writer *w;
	xq_file *f;

	(void)state;
	assert_int_equal(read_memory_games("two.pgn", pgn, r, 2), 2);
	assert_int_equal(xq_file_open_buf(&f, &mem), 0);
	assert_string_equal(xq_file_name(f), "<memory>");
	wo.format = "ndjson";
	assert_int_equal(xq_writer_open_file(&w, f, &wo, NULL, NULL), 0);
	/* Each record is in the buffer when its write returns: taken one by
	 * one, they are what each gives alone. */
	for (int i = 0; i < 2; i++) {
		assert_int_equal(xq_writer_write(w, r[i]), 0);
		xq_buf_reset(&alone);
		assert_int_equal(xq_record_write_buf(&alone, r[i], &wo, NULL, NULL), 0);
		assert_int_equal(mem.len, alone.len);
		assert_string_equal(mem.ptr, alone.ptr);
		xq_buf_reset(&mem);
	}
	assert_int_equal(xq_writer_close(w), 0);
	assert_int_equal(mem.len, 0);
	assert_int_equal(xq_file_write(f, "tail", 4), 0);
	assert_int_equal(xq_file_commit(f, NULL, NULL), 0);
	/* The buffer stays the caller's, with what was written last. */
	assert_string_equal(mem.ptr, "tail");
	/* An HTML page's end is written when its writer closes. */
	xq_buf_reset(&mem);
	assert_int_equal(xq_file_open_buf(&f, &mem), 0);
	wo.format = "html";
	assert_int_equal(xq_writer_open_file(&w, f, &wo, NULL, NULL), 0);
	assert_int_equal(xq_writer_write(w, r[0]), 0);
	assert_int_equal(xq_writer_write(w, r[1]), 0);
	assert_null(strstr(mem.ptr, "</html>"));
	assert_int_equal(xq_writer_close(w), 0);
	assert_non_null(strstr(mem.ptr, "2 games"));
	assert_non_null(strstr(mem.ptr, "</html>\n"));
	xq_file_abort(f);
	assert_true(mem.len > 0); /* aborting a memory file leaves its bytes */
	xq_buf_release(&mem);
	xq_buf_release(&alone);
	xq_record_free(r[0]);
	xq_record_free(r[1]);
}

static void files_synced_at_the_end_and_named_temporaries_take_their_names(void **state)
{
	char dir[256], path[300], path2[300], missing[300], bytes[64];
	struct seen s = {0};
	xq_file *f, *g;

	(void)state;
	assert_int_equal(test_tmpdir(dir, sizeof(dir), "api-sync"), 0);
	snprintf(path, sizeof(path), "%s/a.txt", dir);
	snprintf(path2, sizeof(path2), "%s/b.txt", dir);
	/* A named temporary file is there, beside the name, until commit. */
	assert_int_equal(xq_file_open(&f, path, XQ_WRITE_NAMED_TEMP | XQ_WRITE_SYNC_REPLACED, NULL, NULL),
			 0);
	assert_string_equal(xq_file_name(f), path);
	assert_int_equal(test_count_named(dir, ".xqkit-"), 1);
	assert_int_equal(xq_file_write(f, "one", 3), 0);
	assert_int_equal(xq_file_open(&g, path2, XQ_WRITE_NO_SYNC, NULL, NULL), 0);
	assert_int_equal(xq_file_write(g, "two", 3), 0);
	assert_int_equal(xq_file_commit(f, NULL, NULL), 0);
	assert_int_equal(xq_file_commit(g, NULL, NULL), 0);
	assert_int_equal(test_count_named(dir, ".xqkit-"), 0);
	assert_int_equal(file_bytes(path, bytes, sizeof(bytes)), 3);
	assert_string_equal(bytes, "one");
	assert_int_equal(file_bytes(path2, bytes, sizeof(bytes)), 3);
	assert_string_equal(bytes, "two");
	/* Then the directory's file system, names too, at once. */
	assert_int_equal(xq_file_sync_dir(dir, collect, &s), 0);
	assert_int_equal(s.n, 0);
	snprintf(missing, sizeof(missing), "%s/no-such-dir", dir);
	assert_int_equal(xq_file_sync_dir(missing, collect, &s), XQ_EIO);
	assert_int_equal(s.errors, 1);
	assert_string_equal(s.codes[0], "io");
	assert_non_null(strstr(s.first, "no-such-dir"));
	assert_int_equal(xq_file_sync_dir(missing, NULL, NULL), XQ_EIO);
	/* Standard output has a name of its own. */
	assert_int_equal(xq_file_open(&f, "-", XQ_WRITE_NO_SYNC, NULL, NULL), 0);
	assert_string_equal(xq_file_name(f), "<stdout>");
	xq_file_abort(f);
	assert_int_equal(test_rmtree(dir), 0);
}

/* A memory file that passes its bytes on: the end of a page reaches the
 * file in pieces, the buffer never holding more than a piece. */
static void a_memory_file_passes_its_bytes_on_in_pieces(void **state)
{
	char dir[256], path[300];
	struct xq_buf mem = XQ_BUF_INIT;
	xq_file *f, *to;
	size_t most = 0;
	struct stat st;

	(void)state;
	assert_int_equal(test_tmpdir(dir, sizeof(dir), "api-pass"), 0);
	snprintf(path, sizeof(path), "%s/page.html", dir);
	assert_int_equal(xq_file_open(&to, path, XQ_WRITE_NO_SYNC, NULL, NULL), 0);
	assert_int_equal(xq_file_open_buf(&f, &mem), 0);
	assert_int_equal(xq_file_pass_to(to, f), XQ_EUNSUPPORTED); /* not a memory file */
	assert_int_equal(xq_file_write(f, "head", 4), 0);
	assert_int_equal(xq_file_pass_to(f, to), 0);
	assert_int_equal(mem.len, 0); /* what it held went at once */
	for (int i = 0; i < 10000; i++) {
		char line[64];
		int n = snprintf(line, sizeof(line), "<li>%05d</li>\n", i);
		assert_int_equal(xq_file_write(f, line, (size_t)n), 0);
		most = mem.len > most ? mem.len : most;
	}
	assert_true(most < 65536 + 64);
	assert_int_equal(xq_file_commit(f, NULL, NULL), 0);
	assert_int_equal(xq_file_commit(to, NULL, NULL), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 4 + 10000 * 15);
	xq_buf_release(&mem);
	assert_int_equal(test_rmtree(dir), 0);
}

/* XQ_WRITE_NO_LINKS: a name that comes from the data is only ever a new
 * or replaced regular file.  A planted FIFO blocked the run; a planted
 * link, with XQ_WRITE_FORCE, replaced the file outside the folder. */
static void a_name_from_the_data_never_goes_through_a_link_or_into_a_fifo(void **state)
{
	char dir[256], outside[300], link[300], fifo[300], plain[300], bytes[64];
	struct seen s = {0};
	xq_file *f;

	(void)state;
	assert_int_equal(test_tmpdir(dir, sizeof(dir), "api-nolinks"), 0);
	snprintf(outside, sizeof(outside), "%s/outside.txt", dir);
	snprintf(link, sizeof(link), "%s/link.txt", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo.txt", dir);
	snprintf(plain, sizeof(plain), "%s/plain.txt", dir);
	assert_int_equal(xq_file_open(&f, outside, 0, NULL, NULL), 0);
	assert_int_equal(xq_file_write(f, "theirs", 6), 0);
	assert_int_equal(xq_file_commit(f, NULL, NULL), 0);
	assert_int_equal(symlink(outside, link), 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	for (int force = 0; force < 2; force++) {
		unsigned flags = XQ_WRITE_NO_LINKS | (force ? XQ_WRITE_FORCE : 0);
		assert_int_equal(xq_file_check(link, flags, collect, &s), XQ_EIO);
		assert_int_equal(xq_file_open(&f, link, flags, collect, &s), XQ_EIO);
		assert_null(f);
		assert_int_equal(xq_file_open(&f, fifo, flags, collect, &s), XQ_EIO);
		assert_null(f);
		assert_int_equal(xq_file_open(&f, dir, flags, collect, &s), XQ_EIO);
	}
	assert_int_equal(s.errors, 8);
	assert_string_equal(s.codes[0], "io");
	assert_non_null(strstr(s.first, "a symbolic link"));
	assert_int_equal(file_bytes(outside, bytes, sizeof(bytes)), 6);
	assert_string_equal(bytes, "theirs");
	/* A regular file is replaced with XQ_WRITE_FORCE, and a free name
	 * written, as without the flag. */
	assert_int_equal(xq_file_open(&f, plain, XQ_WRITE_NO_LINKS, NULL, NULL), 0);
	assert_int_equal(xq_file_write(f, "one", 3), 0);
	assert_int_equal(xq_file_commit(f, NULL, NULL), 0);
	assert_int_equal(xq_file_open(&f, plain, XQ_WRITE_NO_LINKS, NULL, NULL), XQ_EIO);
	assert_int_equal(xq_file_check(plain, XQ_WRITE_NO_LINKS | XQ_WRITE_FORCE, NULL, NULL),
			 XQ_FILE_REPLACE);
	assert_int_equal(xq_file_open(&f, plain, XQ_WRITE_NO_LINKS | XQ_WRITE_FORCE, NULL, NULL), 0);
	assert_int_equal(xq_file_write(f, "two", 3), 0);
	assert_int_equal(xq_file_commit(f, NULL, NULL), 0);
	assert_int_equal(file_bytes(plain, bytes, sizeof(bytes)), 3);
	assert_string_equal(bytes, "two");
	assert_int_equal(test_rmtree(dir), 0);
}

static void format_abilities_say_what_its_records_hold(void **state)
{
	const char *name;
	unsigned caps, pgn = 0, ubb = 0, xqf = 0;

	(void)state;
	for (size_t i = 0; xq_format_info(i, &name, NULL, &caps) == 0; i++) {
		if (!strcmp(name, "pgn"))
			pgn = caps;
		if (!strcmp(name, "dhtmlxq"))
			ubb = caps;
		if (!strcmp(name, "xqf"))
			xqf = caps;
	}
	assert_int_equal(pgn & (XQ_FORMAT_NAGS | XQ_FORMAT_ANY_TAGS | XQ_FORMAT_PRE_COMMENTS),
			 XQ_FORMAT_NAGS | XQ_FORMAT_ANY_TAGS | XQ_FORMAT_PRE_COMMENTS);
	/* DhtmlXQ keeps tags of any name, not NAGs nor comments before a move. */
	assert_int_equal(ubb & (XQ_FORMAT_NAGS | XQ_FORMAT_ANY_TAGS | XQ_FORMAT_PRE_COMMENTS),
			 XQ_FORMAT_ANY_TAGS);
	assert_int_equal(xqf & (XQ_FORMAT_NAGS | XQ_FORMAT_ANY_TAGS | XQ_FORMAT_PRE_COMMENTS), 0);
	assert_true(xqf & XQ_FORMAT_BINARY);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(version_macros_match_the_library),
		cmocka_unit_test(error_codes_have_texts),
		cmocka_unit_test(diagnostic_code_names_are_listed_once_each_up_to_null),
		cmocka_unit_test(diagnostic_code_index_finds_its_code_in_the_list),
		cmocka_unit_test(diagrams_draw_every_style_with_the_last_move_marked),
		cmocka_unit_test(ecco_classifies_the_main_line_and_names_codes),
		cmocka_unit_test(cancel_flag_stops_a_reader_waiting_on_a_silent_pipe),
		cmocka_unit_test(xqf_reads_with_tags_start_and_moves),
		cmocka_unit_test(big5_pgn_reads_in_traditional_and_simplified_glyphs),
		cmocka_unit_test(illegal_move_is_reported_with_its_place_and_the_game_kept_broken),
		cmocka_unit_test(text_diagnostics_carry_line_and_column),
		cmocka_unit_test(validate_checks_what_only_the_whole_game_shows),
		cmocka_unit_test(a_program_reports_its_own_diagnostics_at_the_move_or_tag),
		cmocka_unit_test(rules_line_gives_each_ply_its_cycle_and_the_limits),
		cmocka_unit_test(result_text_keeps_a_marker_that_is_no_result),
		cmocka_unit_test(dates_are_normalized_only_when_their_meaning_is_certain),
		cmocka_unit_test(result_texts_read_as_the_standard_results_they_spell),
		cmocka_unit_test(results_in_words_read_as_the_results_they_say),
		cmocka_unit_test(a_record_with_a_variation_cut_at_an_error_says_so),
		cmocka_unit_test(main_line_proves_mate_and_under_rules_a_perpetual),
		cmocka_unit_test(ecco_of_a_line_and_sets_of_codes),
		cmocka_unit_test(lenient_fen_copies_and_sameness),
		cmocka_unit_test(start_that_could_not_be_read_is_kept_as_written),
		cmocka_unit_test(same_position_whatever_order_its_pieces_were_read_in),
		cmocka_unit_test(xqf_from_the_start_stays_a_whole_game_whatever_its_piece_order),
		cmocka_unit_test(fingerprint_keeps_its_values_and_sees_every_change),
		cmocka_unit_test(scores_are_written_into_comments_and_read_back),
		cmocka_unit_test(a_line_from_a_position_is_analysed_as_the_record_s_node),
		cmocka_unit_test(position_keys_ignore_the_way_there_and_mirror_left_right),
		cmocka_unit_test(origin_survives_conversion_and_writes_as_ndjson_source),
		cmocka_unit_test(gzip_input_is_read_through),
		cmocka_unit_test(unknown_content_and_empty_input_are_errors),
		cmocka_unit_test(a_game_over_max_game_size_is_reported_and_the_next_one_read),
		cmocka_unit_test(named_format_and_encoding_are_used),
		cmocka_unit_test(formats_are_listed_with_what_they_can_do),
		cmocka_unit_test(formats_give_their_extensions_and_other_names),
		cmocka_unit_test(encoding_names_read_in_any_case_to_the_canonical_one),
		cmocka_unit_test(variations_comments_and_nags_are_in_the_tree),
		cmocka_unit_test(fen_reads_writes_and_rejects_with_a_column),
		cmocka_unit_test(moves_read_and_write_in_every_dialect),
		cmocka_unit_test(illegal_and_ambiguous_moves_say_why),
		cmocka_unit_test(replay_reaches_mate_and_lists_legal_moves),
		cmocka_unit_test(perft_matches_the_reference_counts),
		cmocka_unit_test(built_record_writes_and_reads_back),
		cmocka_unit_test(record_start_can_be_set_before_moves),
		cmocka_unit_test(file_writer_replaces_only_with_force_and_leaves_no_temporary),
		cmocka_unit_test(expected_score_and_its_drop_go_by_the_engines_scale),
		cmocka_unit_test(losses_are_reported_as_warnings),
		cmocka_unit_test(perpetual_check_is_ruled_a_loss_with_its_reasons),
		cmocka_unit_test(move_limit_is_a_draw_and_a_plain_game_has_no_ruling),
		cmocka_unit_test(builtin_analyser_finds_the_win_in_one_the_same_every_time),
		cmocka_unit_test(external_engine_analyses_and_a_missing_one_is_an_engine_error),
		cmocka_unit_test(a_diagnostics_list_keeps_copies_beyond_the_callback),
		cmocka_unit_test(a_stream_gives_the_bytes_the_readers_read),
		cmocka_unit_test(a_format_is_found_by_any_of_its_names),
		cmocka_unit_test(analyser_open_takes_every_setting_and_refuses_bad_ones),
		cmocka_unit_test(a_manual_restart_analyser_waits_for_its_caller_to_restart_it),
		cmocka_unit_test(an_engine_s_warnings_go_to_their_own_callback),
		cmocka_unit_test(a_hung_engine_is_given_up_after_the_timeout),
		cmocka_unit_test(a_set_cancel_flag_stops_the_search_and_no_move_is_no_search),
		cmocka_unit_test(a_writer_onto_an_open_file_leaves_the_file_to_its_owner),
		cmocka_unit_test(move_numbers_iccs_names_and_rule_set_names_read_as_written),
		cmocka_unit_test(readers_on_several_threads_read_what_one_reads),
		cmocka_unit_test(public_structures_keep_their_version_0_layout),
		cmocka_unit_test(options_of_an_older_caller_are_read_as_far_as_their_size),
		cmocka_unit_test(buffer_appends_bytes_strings_and_formats_as_one_string),
		cmocka_unit_test(buffer_error_is_sticky_so_many_appends_are_checked_once),
		cmocka_unit_test(json_string_is_escaped_as_the_ndjson_outputs_write_it),
		cmocka_unit_test(utf8_is_strict_and_ascii_classes_ignore_other_bytes),
		cmocka_unit_test(arrays_grow_by_half_and_sizes_read_as_people_write_them),
		cmocka_unit_test(file_takes_its_name_only_when_committed_and_replaces_only_with_force),
		cmocka_unit_test(a_batch_gives_every_game_of_its_inputs_in_order_on_any_number_of_threads),
		cmocka_unit_test(a_batch_stops_where_emit_says_and_swaps_a_record_in_keeping_its_number),
		cmocka_unit_test(a_batch_ends_on_its_cancel_flag),
		cmocka_unit_test(records_compare_equal_but_for_what_the_flags_leave_out),
		cmocka_unit_test(a_record_marked_broken_is_written_with_its_reason),
		cmocka_unit_test(games_written_apart_join_to_what_one_writer_writes),
		cmocka_unit_test(renumbering_puts_a_game_s_own_number_and_line_in_its_bytes),
		cmocka_unit_test(a_memory_file_holds_each_record_as_soon_as_it_is_written),
		cmocka_unit_test(files_synced_at_the_end_and_named_temporaries_take_their_names),
		cmocka_unit_test(a_name_from_the_data_never_goes_through_a_link_or_into_a_fifo),
		cmocka_unit_test(a_memory_file_passes_its_bytes_on_in_pieces),
		cmocka_unit_test(format_abilities_say_what_its_records_hold),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
