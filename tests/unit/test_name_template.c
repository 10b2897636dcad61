/*
 * test_name_template.c: the file names `convert -o DIR/` gives games
 * (cmd/name_template.c, compiled into this test: unit tests link only
 * libxq).
 */
#include "testutil.h"

/* The library's own headers before the public ones name_template.c
 * includes: <xq/error.h> then takes its return codes from lib/diagnostic.h. */
#include "format.h"
#include "record.h"

#include "name_template.c"

extern const struct xqi_format xqi_format_pgn;

/* A game with these tags (name, value, ..., NULL) and number `number`,
 * as the command sees it: a record (the number is set as a reader sets
 * it). */
static xq_record *game_with(uint64_t number, ...)
{
	xq_record *r = xq_record_new();
	va_list ap;
	const char *name;

	assert_non_null(r);
	r->g.number = number;
	va_start(ap, number);
	while ((name = va_arg(ap, const char *))) {
		const char *value = va_arg(ap, const char *);
		assert_int_equal(xq_record_set_tag(r, name, value), 0);
	}
	va_end(ap);
	return r;
}

/* The name `tmpl` gives the game, checked against `want`. */
static void expect_name(const char *tmpl, const xq_record *g, const char *path,
			uint64_t seq, const char *want)
{
	struct xq_buf b = XQ_BUF_INIT;

	assert_int_equal(name_template_expand(&b, tmpl, g, path, seq), 0);
	xq_buf_addc(&b, '\0');
	assert_string_equal(b.ptr, want);
	xq_buf_release(&b);
}

static void every_tag_is_replaced_by_its_value(void **state)
{
	xq_record *g;

	(void)state;
	g = game_with(3, "Red", "Lü Qin", "Black", "Xu Yinchuan", "Event", "Cup", "Date", "2006.08.19",
		  NULL);
	expect_name("{Event}-{Date}-{Red}-{Black}", g, "a.pgn", 1,
		    "Cup-2006.08.19-Lü_Qin-Xu_Yinchuan");
	expect_name(NAME_TEMPLATE_DEFAULT, g, "a.pgn", 12, "0012-Lü_Qin-Xu_Yinchuan");
	xq_record_free(g);
}

static void a_tag_is_found_in_any_case(void **state)
{
	xq_record *g;

	(void)state;
	g = game_with(1, "Red", "A", "BLACK", "B", NULL);
	expect_name("{red}-{Black}-{rEd}", g, "x", 1, "A-B-A");
	xq_record_free(g);
}

static void a_missing_tag_leaves_no_doubled_separator(void **state)
{
	xq_record *g;

	(void)state;
	g = game_with(1, "Black", "B", NULL);
	expect_name("{n}-{Red}-{Black}", g, "x", 5, "5-B");
	expect_name("{Red}__--{Site}", g, "x", 5, "5"); /* nothing left: the run number */
	xq_record_free(g);
}

static void numbers_are_padded_to_the_width_asked_up_to_20(void **state)
{
	xq_record *g;

	(void)state;
	g = game_with(42, NULL);
	expect_name("{n:6}", g, "x", 7, "000007");
	expect_name("{game:3}", g, "x", 7, "042");
	expect_name("{n:99}", g, "x", 7, "00000000000000000007");
	expect_name("{n}", g, "x", 123456, "123456");
	xq_record_free(g);
}

static void file_is_the_base_name_without_gz_and_extension(void **state)
{
	xq_record *g;

	(void)state;
	g = game_with(1, NULL);
	expect_name("{file}-{n}", g, "some/dir/ccgc.2006.pgn.gz", 2, "ccgc.2006-2");
	expect_name("{file}", g, "-", 2, "2"); /* '-' alone is a separator: nothing left */
	expect_name("{file}", g, ".hidden", 2, "hidden");
	xq_record_free(g);
}

static void slash_and_reserved_characters_become_underscores(void **state)
{
	xq_record *g;

	(void)state;
	g = game_with(1, "Red", "../../etc/passwd", "Black", "a\\b:c*d?e\"f<g>h|i j", NULL);
	expect_name("{Red}", g, "x", 1, "etc_passwd");
	expect_name("{Black}", g, "x", 1, "a_b_c_d_e_f_g_h_i_j");
	expect_name("dir/{n}", g, "x", 1, "dir_1");
	xq_record_free(g);
}

static void bidi_invisible_and_control_characters_become_underscores(void **state)
{
	xq_record *g;

	(void)state;
	/* U+202E (right-to-left override), U+200B (zero-width space), U+FEFF,
	 * a C0 and a C1 control, DEL and a byte that is not UTF-8. */
	g = game_with(1, "Red", "gnp\xE2\x80\xAE" "exe", "Black",
		  "a\xE2\x80\x8B" "b\xEF\xBB\xBF" "c\x01" "d\xC2\x85" "e\x7F" "f\xFF" "g", NULL);
	expect_name("{Red}", g, "x", 1, "gnp_exe");
	expect_name("{Black}", g, "x", 1, "a_b_c_d_e_f_g");
	xq_record_free(g);
}

static void a_long_name_is_cut_to_200_bytes_on_a_character_boundary(void **state)
{
	xq_record *g;
	struct xq_buf b = XQ_BUF_INIT, red = XQ_BUF_INIT;

	(void)state;
	for (int i = 0; i < 100; i++)
		xq_buf_adds(&red, "\xE5\xB8\x85"); /* 帅, three bytes */
	xq_buf_addc(&red, '\0');
	g = game_with(1, "Red", red.ptr, NULL);
	assert_int_equal(name_template_expand(&b, "{Red}", g, "x", 1), 0);
	assert_int_equal(b.len, 198);
	assert_int_equal(xq_utf8_check(b.ptr, b.len), b.len);
	xq_buf_release(&b);
	xq_buf_release(&red);
	xq_record_free(g);
}

/* A template that names a long tag 20,000 times: 20 GB of text once
 * expanded whole.  The name stops growing at its length (the tag's first
 * 200 bytes); expanding everything before cutting took 12.5 s and
 * 200 MB with a tag of 10 KB. */
static void a_template_stops_expanding_once_the_name_is_long_enough(void **state)
{
	struct xq_buf tmpl = XQ_BUF_INIT, red = XQ_BUF_INIT, want = XQ_BUF_INIT;
	xq_record *g;

	(void)state;
	for (int i = 0; i < 20000; i++)
		xq_buf_adds(&tmpl, "{Red}");
	xq_buf_addc(&tmpl, '\0');
	for (int i = 0; i < 1 << 19; i++)
		xq_buf_adds(&red, "ab");
	xq_buf_addc(&red, '\0');
	xq_buf_add(&want, red.ptr, 200);
	xq_buf_addc(&want, '\0');
	g = game_with(1, "Red", red.ptr, NULL);
	expect_name(tmpl.ptr, g, "x", 1, want.ptr);
	xq_buf_release(&tmpl);
	xq_buf_release(&red);
	xq_buf_release(&want);
	xq_record_free(g);
}

/* The name as it was made before it stopped at its length: every part
 * expanded, then tidied whole (the rules of name_template.h), for the
 * comparison below. */
static void whole_name(struct xq_buf *out, const char *parts[], int n, uint64_t seq)
{
	struct xq_buf raw = XQ_BUF_INIT;
	size_t i = 0;

	/* (The pieces below: only a space is not safe.) */
	for (int k = 0; k < n; k++)
		for (const char *c = parts[k]; *c; c++)
			xq_buf_addc(&raw, *c == ' ' ? '_' : *c);
	xq_buf_reset(out);
	while (i < raw.len && (raw.ptr[i] == '-' || raw.ptr[i] == '_' || raw.ptr[i] == '.'))
		i++;
	for (; i < raw.len; i++) {
		int sep = raw.ptr[i] == '-' || raw.ptr[i] == '_';
		if (!(sep && out->len && (out->ptr[out->len - 1] == '-' || out->ptr[out->len - 1] == '_')))
			xq_buf_addc(out, raw.ptr[i]);
	}
	finish_name(out, seq);
	xq_buf_release(&raw);
}

static void a_name_stopped_at_its_length_is_the_name_made_whole(void **state)
{
	static const char *const pieces[] = {"-", "_", ".", "a", "\xE5\xB8\x85", " ", "--", "b."};
	uint64_t x = 12345;

	(void)state;
	for (int round = 0; round < 2000; round++) {
		const char *parts[40];
		struct xq_buf text[40], tmpl = XQ_BUF_INIT, whole = XQ_BUF_INIT;
		int n = 1 + (int)(x % 40);
		xq_record *g = xq_record_new();
		char name[16];

		for (int k = 0; k < n; k++) {
			xq_buf_init(&text[k]);
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			for (int len = (int)(x >> 58); len >= 0; len--)
				xq_buf_adds(&text[k], pieces[(x >> (len % 50)) % 8]);
			xq_buf_addc(&text[k], '\0');
			parts[k] = text[k].ptr;
			snprintf(name, sizeof(name), "T%d", k);
			assert_int_equal(xq_record_set_tag(g, name, text[k].ptr), 0);
			xq_buf_addf(&tmpl, "{T%d}", k);
		}
		xq_buf_addc(&tmpl, '\0');
		whole_name(&whole, parts, n, 9);
		xq_buf_addc(&whole, '\0');
		expect_name(tmpl.ptr, g, "x", 9, whole.ptr);
		for (int k = 0; k < n; k++)
			xq_buf_release(&text[k]);
		xq_buf_release(&tmpl);
		xq_buf_release(&whole);
		xq_record_free(g);
	}
}

static void text_of_the_template_keeps_its_characters(void **state)
{
	xq_record *g;

	(void)state;
	g = game_with(1, "Red", "A", NULL);
	/* A character of more than one byte was cut into bytes, each '_'. */
	expect_name("\xE5\xAF\xB9\xE5\xB1\x80-{n}-{Red}", g, "x", 7,
		    "\xE5\xAF\xB9\xE5\xB1\x80-7-A");
	expect_name("{Red", g, "x", 7, "{Red");
	xq_record_free(g);
}

static void the_extension_is_the_formats_first_in_lower_case(void **state)
{
	struct xq_buf b = XQ_BUF_INIT;

	(void)state;
	assert_int_equal(name_template_add_extension(&b, xqi_format_pgn.extensions), 0);
	assert_string_equal(b.ptr, ".pgn");
	xq_buf_reset(&b);
	assert_int_equal(name_template_add_extension(&b, ".XQF .xqf_old"), 0);
	assert_string_equal(b.ptr, ".xqf");
	xq_buf_release(&b);
}

static void no_extension_is_added_without_one_to_take(void **state)
{
	struct xq_buf b = XQ_BUF_INIT;

	(void)state;
	assert_int_equal(name_template_add_extension(&b, NULL), 0);
	assert_int_equal(name_template_add_extension(&b, ""), 0);
	assert_int_equal(name_template_add_extension(&b, "pgn"), 0);
	assert_int_equal((int)b.len, 0);
	xq_buf_release(&b);
}

static void the_name_set_keeps_every_name_as_it_grows(void **state)
{
	struct name_set s = {0};
	char name[32];

	(void)state;
	for (int i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "dir/%d.pgn", i);
		assert_false(name_set_has(&s, name));
		assert_int_equal(name_set_add(&s, name), 0);
	}
	assert_int_equal(s.n, 5000);
	assert_int_equal(name_set_add(&s, "dir/0.pgn"), 0);
	assert_int_equal(s.n, 5000);
	for (int i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "dir/%d.pgn", i);
		assert_true(name_set_has(&s, name));
	}
	assert_false(name_set_has(&s, "dir/5000.pgn"));
	name_set_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_tag_is_replaced_by_its_value),
		cmocka_unit_test(a_tag_is_found_in_any_case),
		cmocka_unit_test(a_missing_tag_leaves_no_doubled_separator),
		cmocka_unit_test(numbers_are_padded_to_the_width_asked_up_to_20),
		cmocka_unit_test(file_is_the_base_name_without_gz_and_extension),
		cmocka_unit_test(slash_and_reserved_characters_become_underscores),
		cmocka_unit_test(bidi_invisible_and_control_characters_become_underscores),
		cmocka_unit_test(a_long_name_is_cut_to_200_bytes_on_a_character_boundary),
		cmocka_unit_test(a_template_stops_expanding_once_the_name_is_long_enough),
		cmocka_unit_test(a_name_stopped_at_its_length_is_the_name_made_whole),
		cmocka_unit_test(text_of_the_template_keeps_its_characters),
		cmocka_unit_test(the_extension_is_the_formats_first_in_lower_case),
		cmocka_unit_test(no_extension_is_added_without_one_to_take),
		cmocka_unit_test(the_name_set_keeps_every_name_as_it_grows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
