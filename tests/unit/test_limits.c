/*
 * test_limits.c: the limits every format puts on a record (format.h,
 * man xqkit(1) LIMITS): each above the largest real record known by the
 * margin it documents, all held by the default memory budget, lowered by
 * a smaller one; a record over its limit refused with a resource error
 * that names the limit, found while reading (a gzip bomb is not inflated
 * past the limit), and the input not read on.
 */
#include "testutil.h"

#include <zlib.h>

#include "budget.h"
#include "ccb_testutil.h"

/* `n` bytes of `fill` after `head`, gzipped (the caller frees *out). */
static size_t gzip_of(unsigned char **out, const char *head, int fill, size_t n,
		      const char *tail)
{
	z_stream z;
	size_t cap = n / 500 + 65536, chunk = 1 << 16;
	unsigned char *in = malloc(chunk);
	int rc;

	assert_non_null(in);
	*out = malloc(cap);
	assert_non_null(*out);
	memset(&z, 0, sizeof(z));
	assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_out = *out;
	z.avail_out = (uInt)cap;
	z.next_in = (unsigned char *)head;
	z.avail_in = (uInt)strlen(head);
	assert_int_equal(deflate(&z, Z_NO_FLUSH), Z_OK);
	memset(in, fill, chunk);
	while (n > 0) {
		size_t k = n < chunk ? n : chunk;
		z.next_in = in;
		z.avail_in = (uInt)k;
		assert_int_equal(deflate(&z, Z_NO_FLUSH), Z_OK);
		n -= k;
	}
	z.next_in = (unsigned char *)tail;
	z.avail_in = (uInt)strlen(tail);
	rc = deflate(&z, Z_FINISH);
	assert_int_equal(rc, Z_STREAM_END);
	deflateEnd(&z);
	free(in);
	return cap - z.avail_out;
}

static void the_default_budget_holds_a_record_at_every_format_limit(void **state)
{
	struct xqi_read_opts opts = XQI_READ_OPTS_INIT;

	(void)state;
	for (size_t i = 0; xqi_formats[i]; i++) {
		const struct xqi_format *f = xqi_formats[i];
		if (!(f->caps & XQ_FORMAT_READS))
			continue; /* written only (HTML) */
		assert_true(f->max_record > 0);
		assert_true(f->mem_factor > 0);
		assert_true(xqi_format_record_limit(f, &opts) == f->max_record);
		assert_true(xqi_format_record_memory(f, f->max_record) <= XQ_MEMORY_DEFAULT);
	}
}

static void every_limit_is_far_above_the_largest_real_record_known(void **state)
{
	/* The largest records known (man xqkit(1), LIMITS, and each format's
	 * source): the corpus's, and XQF's opening libraries of 1.1 MB. */
	static const struct {
		const char *format;
		uint64_t largest;
	} known[] = {
		{"xqf", 1100000},  {"cbf", 407536},    {"cbr", 64482},  {"cbl", 187096},
		{"dhtmlxq", 546460}, {"pgn", 34763}, {"ndjson", 3260780},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		const struct xqi_format *f = xqi_format_find(known[i].format);
		assert_non_null(f);
		if (f->max_record < 3 * known[i].largest)
			fail_msg("%s: a limit of %llu is less than 3 times the largest record known",
				 f->name, (unsigned long long)f->max_record);
	}
}

static void a_smaller_budget_lowers_the_record_limit(void **state)
{
	struct xqi_read_opts opts = XQI_READ_OPTS_INIT;
	const struct xqi_format *f = xqi_format_find("xqf");

	(void)state;
	opts.max_memory = (uint64_t)8 << 20;
	assert_true(xqi_format_record_limit(f, &opts) ==
		    (opts.max_memory - XQI_RECORD_BASE) / f->mem_factor);
	assert_true(xqi_format_record_memory(f, xqi_format_record_limit(f, &opts)) <=
		    opts.max_memory);
	/* A budget below the memory any reading takes allows no record. */
	opts.max_memory = XQI_RECORD_BASE;
	assert_true(xqi_format_record_limit(f, &opts) == 0);
}

/* Read `len` bytes of `data` as `fmt` with `opts`; the first read's code. */
static int read_one(const char *fmt, const void *data, size_t len, const struct xqi_read_opts *opts,
		    struct collected *c, uint64_t *stored)
{
	const struct xqi_format *f = xqi_format_find(fmt);
	struct xqi_sink sink = {collect, c};
	struct xqi_input *in;
	struct xqi_record g;
	void *r;
	int rc;

	memset(c, 0, sizeof(*c));
	assert_int_equal(xqi_input_open_mem(&in, "bomb", data, len), 0);
	assert_int_equal(f->open_reader(&r, in, opts, &sink), 0);
	assert_int_equal(xqi_record_init(&g), 0);
	rc = f->read(r, &g);
	if (stored)
		*stored = xqi_input_stored_offset(in);
	xqi_record_release(&g);
	f->close_reader(r);
	xqi_input_close(in);
	return rc;
}

static void gzip_bombs_read_whole_stop_at_their_limit_uninflated(void **state)
{
	struct xqi_read_opts opts = XQI_READ_OPTS_INIT;
	static struct collected c;
	unsigned char *gz;
	uint64_t stored;
	size_t len;

	(void)state;
	/* 256 MiB of zeros after an XQF header: about 255 KB of gzip. */
	len = gzip_of(&gz, "XQ\n", 0, (size_t)256 << 20, "");
	assert_int_equal(read_one("xqf", gz, len, &opts, &c, &stored), XQ_ERANGE);
	assert_non_null(find_diag(&c, XQI_D_RESOURCE,
				  "larger than 4 MiB, the xqf format's limit for one record"));
	assert_true(stored < len / 2); /* a fraction of it inflated */
	free(gz);
	/* 256 MiB of spaces in a CBF root. */
	len = gzip_of(&gz, "<?xml version=\"1.0\"?><ChineseChessRecord>", ' ', (size_t)256 << 20,
		      "</ChineseChessRecord>");
	assert_int_equal(read_one("cbf", gz, len, &opts, &c, &stored), XQ_ERANGE);
	assert_non_null(find_diag(&c, XQI_D_RESOURCE,
				  "larger than 8 MiB, the cbf format's limit for one record"));
	assert_true(stored < len / 2);
	free(gz);
}

static void text_records_over_the_budget_are_skipped_and_the_next_one_is_read(void **state)
{
	static const struct {
		const char *format, *head;
		int fill;
		const char *tail;
	} cases[] = {
		/* One NDJSON line of spaces, then a record. */
		{"ndjson", "{\"schema\":\"xqkit.game/1\",\"tags\":[] ", ' ',
		 "}\n{\"schema\":\"xqkit.game/1\"}\n"},
		/* A PGN game of comments, then another game. */
		{"pgn", "[Event \"a\"]\n\n1. h2e2 {", 'x', "} h9g7 *\n\n[Event \"b\"]\n\n1. h2e2 *\n"},
		/* A DhtmlXQ record whose move list runs on, then another record. */
		{"dhtmlxq", "[DhtmlXQ][DhtmlXQ_movelist]", '7',
		 "[/DhtmlXQ_movelist][/DhtmlXQ]\n[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]"
		 "[/DhtmlXQ]\n"},
	};
	struct xqi_read_opts opts = XQI_READ_OPTS_INIT;

	(void)state;
	opts.max_memory = (uint64_t)8 << 20;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct xqi_format *f = xqi_format_find(cases[i].format);
		size_t n = (size_t)xqi_format_record_limit(f, &opts) + 1000;
		struct xq_buf text = XQ_BUF_INIT;
		static struct collected c;
		struct xqi_record g[MAX_GAMES];
		int rc, got;
		xq_buf_adds(&text, cases[i].head);
		for (size_t k = 0; k < n; k++)
			xq_buf_addc(&text, (char)cases[i].fill);
		xq_buf_adds(&text, cases[i].tail);
		memset(&c, 0, sizeof(c));
		got = read_games_opts(cases[i].format, text.ptr, text.len, g, MAX_GAMES, &c, &rc,
				      &opts);
		if (!find_diag(&c, XQI_D_RESOURCE, "within the memory budget of 8 MiB")) {
			print_diags(&c);
			fail_msg("%s: no resource error", cases[i].format);
		}
		/* The record over the limit is reported broken, and the one
		 * after it is read: the input goes on to its end. */
		assert_int_equal(rc, 0);
		assert_int_equal(got, 2);
		assert_true(g[0].flags & XQI_RECORD_BROKEN);
		assert_int_equal(c.d[0].game, 1);
		assert_false(g[1].flags & XQI_RECORD_BROKEN);
		assert_int_equal(g[1].number, 2);
		release_games(g, got);
		xq_buf_release(&text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_default_budget_holds_a_record_at_every_format_limit),
		cmocka_unit_test(every_limit_is_far_above_the_largest_real_record_known),
		cmocka_unit_test(a_smaller_budget_lowers_the_record_limit),
		cmocka_unit_test(gzip_bombs_read_whole_stop_at_their_limit_uninflated),
		cmocka_unit_test(text_records_over_the_budget_are_skipped_and_the_next_one_is_read),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
