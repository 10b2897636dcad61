/*
 * test_readers.c: what every reader owes its caller, whatever the input:
 * it moves on between two games (xqi_read_guard), and it ends: cut at any
 * byte, a record of any format is read with a bounded number of calls to
 * read() (each game takes at least one byte), never an internal error.
 */
#include "testutil.h"

#include <signal.h>
#include <unistd.h>

#include "ccb_testutil.h"

static void report_into(const struct xq_diagnostic *d, void *payload)
{
	collect(d, payload);
}

static void reader_that_returns_a_game_without_moving_on_is_an_internal_error(void **state)
{
	static struct collected c;
	struct xqi_sink sink = {report_into, &c};
	struct xqi_read_guard gd = {0, 0};
	struct xqi_record g;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	g.source = "in.pgn";
	g.number = 1;
	/* The first game may stand anywhere (even at 0: an empty XQF is one). */
	assert_int_equal(xqi_read_guard(&gd, 1, 0, &g, &sink), 1);
	g.number = 2;
	assert_int_equal(xqi_read_guard(&gd, 1, 10, &g, &sink), 1);
	assert_int_equal(c.n, 0);
	/* The end and errors pass as they are. */
	assert_int_equal(xqi_read_guard(&gd, 0, 10, &g, &sink), 0);
	assert_int_equal(xqi_read_guard(&gd, XQ_EPARSE, 10, &g, &sink), XQ_EPARSE);
	/* A game where the last one was returned: a bug, not a loop. */
	g.number = 3;
	assert_int_equal(xqi_read_guard(&gd, 1, 10, &g, &sink), XQ_EINTERNAL);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.d[0].code, XQI_D_INTERNAL);
	assert_int_equal(c.d[0].severity, XQ_SEVERITY_ERROR);
	assert_int_equal(c.d[0].game, 3);
	assert_string_equal(c.d[0].source, "in.pgn");
	assert_non_null(strstr(c.d[0].msg, "without moving on"));
	xqi_record_release(&g);
}

/*
 * Read every game of data[0, len) with format `fmt`: the number of calls
 * to read() is at most len + 1 games and the end, and no diagnostic says
 * a reader failed to move on.
 */
static void read_to_the_end(const char *fmt, const void *data, size_t len, const char *what)
{
	static struct collected c;
	const struct xqi_format *f = xqi_format_find(fmt);
	struct xqi_sink sink = {report_into, &c};
	struct xqi_read_opts opts = XQI_READ_OPTS_INIT;
	struct xqi_input *in;
	struct xqi_record g;
	void *r;
	uint64_t calls = 0;
	int rc;

	memset(&c, 0, sizeof(c));
	assert_non_null(f);
	assert_int_equal(xqi_input_open_mem(&in, "cut", data, len), 0);
	assert_int_equal(xqi_record_init(&g), 0);
	if (f->open_reader(&r, in, &opts, &sink) == 0) {
		do {
			if (++calls > len + 2)
				fail_msg("%s: %s cut to %zu bytes: more than %zu calls to read()", fmt,
					 what, len, len + 2);
			rc = f->read(r, &g);
		} while (rc > 0);
		f->close_reader(r);
	}
	for (int i = 0; i < c.n; i++)
		if (c.d[i].code == XQI_D_INTERNAL)
			fail_msg("%s: %s cut to %zu bytes: %s", fmt, what, len, c.d[i].msg);
	xqi_record_release(&g);
	xqi_input_close(in);
}

/* Cut `data` at every byte from `from` on, and every `step` bytes before. */
static void every_cut(const char *fmt, const char *data, size_t len, size_t from, size_t step,
		      const char *what)
{
	for (size_t k = 0; k <= len; k += k < from ? step : 1)
		read_to_the_end(fmt, data, k, what);
}

static void every_cut_of(const char *fmt, const char *dir, const char *name)
{
	size_t len;
	char *data = fixture_in(dir, name, &len);

	every_cut(fmt, data, len, 0, 1, name);
	free(data);
}

/* Records of every syntax of each format, cut at every byte; a reader
 * that loops for ever inside read() is stopped by the alarm. */

static const char pgn_games[] =
	"[Event \"\xE6\xB5\x8B\xE8\xAF\x95\"]\n[Red \"A\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/"
	"P1P1P1P1P/1C5C1/9/RNBAKABNR w\"]\n\n"
	"1. h2e2 {center} h9g7 $1 (1... b9c7 2. h0g2) 2. h0g2 ; line comment\n"
	"%escape\n2... i9h9 1-0\n\n"
	"[Event \"2\"]\n1. \xE7\x82\xAE\xE4\xBA\x8C\xE5\xB9\xB3\xE4\xBA\x94 "
	"\xE9\xA9\xAC\xE8\x8A\xB1\xE8\xBF\x9B\xE4\xB8\x89 2. zz9 {after an error} *\n"
	"1. h2e2 h9g7 ) } ] 0-1 {trailing} words\n[Event \"3\" ]\n[Broken \"x\n1. h2e2 (";

static void every_cut_of_pgn_games_is_read_to_the_end(void **state)
{
	(void)state;
	every_cut("pgn", pgn_games, sizeof(pgn_games) - 1, 0, 1, "games");
	every_cut_of("pgn", "pgn", "gbk-bare-cr-variations.pgn");
	every_cut_of("pgn", "pgn", "utf8-bom-iccs.pgn");
	every_cut_of("pgn", "pgn", "big5-black-first.pgn");
}

static const char dhtmlxq_bare[] =
	"[DhtmlXQ_title]t[/DhtmlXQ_title][DhtmlXQ_binit]8979695949392919097717866646260600102030405"
	"060708012720323436383[/DhtmlXQ_binit][DhtmlXQ_movelist]77471927[/DhtmlXQ_movelist]"
	"[DhtmlXQ_move_0_1_1]1022[/DhtmlXQ_move_0_1_1][DhtmlXQ_comment1]c||d[/DhtmlXQ_comment1]"
	"[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]";
static const char dhtmlxq_url[] =
	"<a href=\"?%5BDhtmlXQ%5D%5BDhtmlXQ_title%5D%E7%82%AE%5B%2FDhtmlXQ_title%5D"
	"%5BDhtmlXQ_movelist%5D7747%5B/DhtmlXQ_movelist%5D%5B%2FDhtmlXQ%5D\">x</a>"
	"%5BDhtmlXQ_movelist%5D77%FF%5B [DhtmlXQiFrame][DhtmlXQ_movelist]7747"
	"[/DhtmlXQ_movelist][/DhtmlXQiFrame][DHJHtmlXQ_34]1213[/DHJHtmlXQ_34]";

static void every_cut_of_dhtmlxq_records_is_read_to_the_end(void **state)
{
	(void)state;
	every_cut_of("dhtmlxq", "dhtmlxq", "game.ubb");
	every_cut_of("dhtmlxq", "dhtmlxq", "116.html");
	every_cut_of("dhtmlxq", "dhtmlxq", "utf8-names.ubb");
	every_cut("dhtmlxq", dhtmlxq_bare, sizeof(dhtmlxq_bare) - 1, 0, 1, "bare elements");
	every_cut("dhtmlxq", dhtmlxq_url, sizeof(dhtmlxq_url) - 1, 0, 1, "URL-encoded records");
}

static void every_cut_of_ndjson_records_is_read_to_the_end(void **state)
{
	(void)state;
	every_cut_of("ndjson", "ndjson", "good.ndjson");
	every_cut_of("ndjson", "ndjson", "problems.ndjson");
}

static void every_cut_of_cbf_records_is_read_to_the_end(void **state)
{
	(void)state;
	every_cut_of("cbf", "cbf", "test.cbf");
}

static void every_cut_of_xqf_records_is_read_to_the_end(void **state)
{
	(void)state;
	every_cut_of("xqf", "xqf", "sample-v12.xqf");
	every_cut_of("xqf", "xqf", "variations-v0a.xqf");
}

static void put_u32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void every_cut_of_cbr_and_cbl_records_is_read_to_the_end(void **state)
{
	size_t a_len, b_len, z_len, len;
	char *a = fixture_in("cbr", "test.cbr", &a_len);
	char *b = fixture_in("cbr", "test2.cbr", &b_len);
	char *z = fixture_in("cbr", "compressed.cbl", &z_len);
	size_t records = 66624 + 2 * 276;
	unsigned char *lib;

	(void)state;
	every_cut("cbr", a, a_len, 0, 1, "test.cbr");
	every_cut("cbr", b, b_len, 0, 1, "test2.cbr");
	every_cut("cbl", z, z_len, 0, 1, "compressed.cbl");
	/* A library of the two records: every byte of the records, the header
	 * and index every 997 bytes. */
	len = records + a_len + b_len;
	lib = calloc(1, len);
	assert_non_null(lib);
	memcpy(lib, "CCBridgeLibrary", 16);
	put_u32(lib + 16, 3);
	put_u32(lib + 60, 2);
	for (int i = 0; i < 2; i++) {
		unsigned char *s = lib + 66624 + (size_t)i * 276;
		put_u32(s, 7);
		put_u32(s + 4, (uint32_t)i);
		put_u32(s + 8, 1);
		put_u32(s + 12, (uint32_t)(i ? b_len : a_len));
	}
	memcpy(lib + records, a, a_len);
	memcpy(lib + records + a_len, b, b_len);
	every_cut("cbl", (const char *)lib, len, records - 300, 997, "a library");
	free(lib);
	free(a);
	free(b);
	free(z);
}

/*
 * Inputs of exactly one read block (XQI_READ_SIZE), ending inside a record:
 * the last read returns no byte, only the end, and a loop that counts
 * bytes alone as progress stops there (the internal checks catch it).
 */
static void record_running_to_the_end_of_a_full_block_is_read_to_the_end(void **state)
{
	static const struct {
		const char *fmt, *tail;
	} cases[] = {
		{"dhtmlxq", "%5BDhtmlXQ%5D%5BDhtmlXQ_movelist%5D7747"},
		{"dhtmlxq", "[DhtmlXQ][DhtmlXQ_movelist]7747"},
		{"dhtmlxq", "[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][DhtmlXQ_title]t"},
		{"pgn", "[Event \"e\"]\n1. h2e2 {a comment"},
		{"pgn", "1. h2e2 h9g7 2. h0g2"},
		{"ndjson", "{\"schema\":\"xqkit.game/1\",\"moves\":["},
	};
	size_t len = XQI_READ_SIZE;
	char *text = malloc(len);

	(void)state;
	assert_non_null(text);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = strlen(cases[i].tail);
		memset(text, '\n', len - n);
		memcpy(text + len - n, cases[i].tail, n);
		read_to_the_end(cases[i].fmt, text, len, cases[i].tail);
	}
	free(text);
}

static int start_alarm(void **state)
{
	(void)state;
	/* A reader that loops inside read() never returns: the alarm ends the
	 * test (and says so) instead of hanging the suite. */
	alarm(300);
	return 0;
}

static int stop_alarm(void **state)
{
	(void)state;
	alarm(0);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reader_that_returns_a_game_without_moving_on_is_an_internal_error),
		cmocka_unit_test(every_cut_of_pgn_games_is_read_to_the_end),
		cmocka_unit_test(every_cut_of_dhtmlxq_records_is_read_to_the_end),
		cmocka_unit_test(every_cut_of_ndjson_records_is_read_to_the_end),
		cmocka_unit_test(every_cut_of_cbf_records_is_read_to_the_end),
		cmocka_unit_test(every_cut_of_xqf_records_is_read_to_the_end),
		cmocka_unit_test(every_cut_of_cbr_and_cbl_records_is_read_to_the_end),
		cmocka_unit_test(record_running_to_the_end_of_a_full_block_is_read_to_the_end),
	};
	return cmocka_run_group_tests_name("readers", tests, start_alarm, stop_alarm);
}
