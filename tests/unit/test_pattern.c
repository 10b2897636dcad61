/*
 * test_pattern.c: the regular expressions of `find --tag 'Name~REGEX'`
 * (cmd/pattern.c, compiled into this test: unit tests link only libxq).
 */
#include "testutil.h"

#include <regex.h>

#include <xq/buf.h>

#include "pattern.c"

/* Does `re` match `text`?  The pattern must compile. */
static int matches(const char *re, const char *text)
{
	struct pattern *p;
	char why[200];
	size_t at;
	int rc;

	if (pattern_compile(&p, re, &at, why, sizeof(why)))
		fail_msg("'%s' refused at %zu: %s", re, at, why);
	rc = pattern_match(p, text, strlen(text), NULL, NULL);
	pattern_free(p);
	assert_true(rc == 0 || rc == 1);
	return rc;
}

/* The pattern is refused at byte `want_at`, the reason holding `want`. */
static void refused_at(const char *re, size_t want_at, const char *want)
{
	struct pattern *p;
	char why[200];
	size_t at = 12345;
	int rc = pattern_compile(&p, re, &at, why, sizeof(why));

	if (rc != -1)
		fail_msg("'%s' was not refused (%d)", re, rc);
	assert_null(p);
	if (at != want_at || !strstr(why, want))
		fail_msg("'%s': refused at %zu with '%s'; expected at %zu with '%s'", re, at, why,
			 want_at, want);
}

static void a_pattern_matches_anywhere_with_ascii_letters_in_any_case(void **state)
{
	(void)state;
	assert_true(matches("city cup", "The City Cup 1988"));
	assert_true(matches("^CITY", "city cup"));
	assert_false(matches("^cup", "city cup"));
	assert_true(matches("1988$", "City Cup 1988"));
	assert_false(matches("1987$", "City Cup 1988"));
	assert_true(matches("", ""));
	assert_true(matches("", "anything"));
	assert_true(matches("^$", ""));
	assert_false(matches("^$", "x"));
}

static void a_dot_and_a_bracket_take_one_utf8_character(void **state)
{
	(void)state;
	assert_true(matches("^..$", "胡荣"));
	assert_false(matches("^..$", "胡荣华"));
	assert_true(matches("^[胡许]", "许银川"));
	assert_false(matches("^[^胡许]", "许银川"));
	assert_true(matches("银.", "许银川"));
	assert_true(matches("^[一-龥]+$", "许银川"));
	assert_false(matches("^[一-龥]+$", "许银川 2"));
	/* A byte that is not UTF-8 is one character that only '.' and
	 * negated brackets take. */
	assert_true(matches("^a.b$", "a\xff" "b"));
	assert_true(matches("^a[^x]b$", "a\xff" "b"));
	assert_false(matches("^a[a-z]b$", "a\xff" "b"));
}

static void classes_ranges_repetitions_and_alternatives_read_as_posix_says(void **state)
{
	(void)state;
	assert_true(matches("^[[:digit:]]{4}\\.[0-9]{2}", "1995.11.20"));
	assert_false(matches("^[[:digit:]]{4}\\.[0-9]{2}", "1995-11-20"));
	assert_true(matches("^(19|20)[0-9]{2}$", "2006"));
	assert_false(matches("^(19|20)[0-9]{2}$", "1806"));
	assert_true(matches("^a{2,3}$", "aaa"));
	assert_false(matches("^a{2,3}$", "aaaa"));
	assert_true(matches("^a{,2}$", ""));
	assert_true(matches("^a{2,}$", "aaaaaaa"));
	assert_false(matches("^a{2,}$", "a"));
	assert_true(matches("^x+y?z*$", "xxxzz"));
	assert_true(matches("[]x]", "]"));
	assert_true(matches("[^]x]", "y"));
	assert_true(matches("^[a-]+$", "-a-"));
	assert_true(matches("[\\]", "\\"));
	assert_true(matches("^\\w+\\s\\W$", "ab_1 !"));
	assert_true(matches("\\(\\*\\)", "(*)"));
	assert_true(matches("^(a*)*$", "aaaa"));
	assert_true(matches("^(|a)b$", "b"));
	assert_true(matches("[[:upper:]]", "x")); /* any case */
}

static void a_back_reference_is_refused_at_its_place(void **state)
{
	(void)state;
	refused_at("(.*)(.*)(.*)\\3\\2\\1x", 12, "back-references");
	refused_at("(a)\\1", 3, "back-references");
}

static void repetitions_that_would_grow_past_the_limit_are_refused(void **state)
{
	struct pattern *p;
	char why[200];
	size_t at;

	(void)state;
	refused_at("(a{1,1000}){1,1000}", 2, "at most 255");
	refused_at("(a{1,100}){1,100}", 2, "too big");
	refused_at("x(a{1,255}){1,255}", 3, "too big");
	/* repetitions of what writes nothing are work all the same */
	refused_at("(){255}{255}{255}{255}", 2, "too big");
	refused_at("((((((((((((((((((((((((((((((((((a))))))))))))))))))))))))))))))))))", 32,
		   "too deep");
	/* the largest allowed still compiles */
	assert_int_equal(pattern_compile(&p, "a{1,255}x{255}", &at, why, sizeof(why)), 0);
	pattern_free(p);
}

static void what_cannot_be_read_is_refused_at_its_place(void **state)
{
	(void)state;
	refused_at("(cup", 0, "not closed");
	refused_at("cup)", 3, "without a '('");
	refused_at("[abc", 0, "not closed");
	refused_at("*a", 0, "nothing to repeat");
	refused_at("a|*b", 2, "nothing to repeat");
	refused_at("^*", 1, "nothing to repeat");
	refused_at("a{", 1, "expected a count");
	refused_at("a{1", 1, "not closed");
	refused_at("a{3,2}", 1, "smallest count");
	refused_at("a\\", 1, "ends the pattern");
	refused_at("\\d", 0, "not an escape");
	refused_at("[[:foo:]]", 1, "unknown class");
	refused_at("[[=a=]]", 1, "not supported");
	refused_at("[z-a]", 3, "ends before it starts");
	refused_at("ab\xff", 2, "not UTF-8");
}

/* A stop callback that says stop at once, counting its calls. */
static int stop_now(void *arg)
{
	(*(int *)arg)++;
	return 1;
}

static void a_long_match_asks_whether_to_stop_and_stops(void **state)
{
	size_t len = 1 << 20;
	char *text = malloc(len + 1);
	struct pattern *p;
	char why[200];
	size_t at;
	int asked = 0;

	(void)state;
	assert_non_null(text);
	memset(text, 'x', len);
	text[len] = '\0';
	assert_int_equal(pattern_compile(&p, "x.*y", &at, why, sizeof(why)), 0);
	assert_int_equal(pattern_match(p, text, len, NULL, NULL), 0);
	assert_int_equal(pattern_match(p, text, len, stop_now, &asked), -1);
	assert_int_equal(asked, 1);
	text[len - 1] = 'y';
	assert_int_equal(pattern_match(p, text, len, NULL, NULL), 1);
	pattern_free(p);
	free(text);
}

/* ---- the same answers as glibc's regexec(), on random patterns ----------------- */

static uint64_t rng = 88172645463325252ull;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static void random_atom(struct xq_buf *b, int depth);

static void random_expr(struct xq_buf *b, int depth)
{
	unsigned n = 1 + rnd(3);

	for (unsigned i = 0; i < n; i++) {
		random_atom(b, depth);
		switch (rnd(8)) {
		case 0: xq_buf_addc(b, '*'); break;
		case 1: xq_buf_addc(b, '+'); break;
		case 2: xq_buf_addc(b, '?'); break;
		case 3: xq_buf_addf(b, "{%u,%u}", rnd(2), 2 + rnd(2)); break;
		default: break;
		}
	}
	if (rnd(5) == 0) {
		xq_buf_addc(b, '|');
		random_expr(b, depth);
	}
}

static void random_atom(struct xq_buf *b, int depth)
{
	static const char *const atoms[] = {"a", "b", "A", ".", "[ab]", "[^a]", "[[:upper:]]", "\\w"};

	if (depth < 3 && rnd(4) == 0) {
		xq_buf_addc(b, '(');
		random_expr(b, depth + 1);
		xq_buf_addc(b, ')');
		return;
	}
	xq_buf_adds(b, atoms[rnd(sizeof(atoms) / sizeof(atoms[0]))]);
}

static void random_patterns_match_as_glibc_regexec_does(void **state)
{
	struct xq_buf re = XQ_BUF_INIT;
	int compared = 0;

	(void)state;
	for (int round = 0; round < 3000; round++) {
		struct pattern *p;
		regex_t posix;
		char why[200];
		size_t at;

		xq_buf_reset(&re);
		if (rnd(4) == 0)
			xq_buf_addc(&re, '^');
		random_expr(&re, 0);
		if (rnd(4) == 0)
			xq_buf_addc(&re, '$');
		if (pattern_compile(&p, re.ptr, &at, why, sizeof(why)))
			fail_msg("'%s' refused at %zu: %s", re.ptr, at, why);
		assert_int_equal(regcomp(&posix, re.ptr, REG_EXTENDED | REG_NOSUB | REG_ICASE), 0);
		for (int t = 0; t < 20; t++) {
			char text[16];
			size_t len = rnd(12);
			for (size_t i = 0; i < len; i++)
				text[i] = "abcAB"[rnd(5)];
			text[len] = '\0';
			int ours = pattern_match(p, text, len, NULL, NULL);
			int theirs = regexec(&posix, text, 0, NULL, 0) == 0;
			if (ours != theirs)
				fail_msg("'%s' on '%s': %d, regexec says %d", re.ptr, text, ours, theirs);
			compared++;
		}
		regfree(&posix);
		pattern_free(p);
	}
	xq_buf_release(&re);
	assert_int_equal(compared, 60000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_pattern_matches_anywhere_with_ascii_letters_in_any_case),
		cmocka_unit_test(a_dot_and_a_bracket_take_one_utf8_character),
		cmocka_unit_test(classes_ranges_repetitions_and_alternatives_read_as_posix_says),
		cmocka_unit_test(a_back_reference_is_refused_at_its_place),
		cmocka_unit_test(repetitions_that_would_grow_past_the_limit_are_refused),
		cmocka_unit_test(what_cannot_be_read_is_refused_at_its_place),
		cmocka_unit_test(a_long_match_asks_whether_to_stop_and_stops),
		cmocka_unit_test(random_patterns_match_as_glibc_regexec_does),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
