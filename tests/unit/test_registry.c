/*
 * test_registry.c: the registry of formats (formats/registry.c): names
 * and aliases, and file names: every format lists the extensions of the
 * files it reads (checked on every file of the shared corpus), and the
 * format that writes a name is the one whose first extension it is.
 */
#include "testutil.h"

#include <strings.h>

#include "format.h"
#include "io.h"

static void ubb_is_another_name_for_dhtmlxq(void **state)
{
	const struct xq_format *dh = xq_format_find("dhtmlxq");

	(void)state;
	assert_non_null(dh);
	assert_ptr_equal(xq_format_find("ubb"), dh);
	assert_ptr_equal(xq_format_find("UBB"), dh);
	assert_ptr_equal(xq_format_find("DhtmlXQ"), dh);
	assert_null(xq_format_find("ub"));
	assert_null(xq_format_find(""));
}

static void a_name_is_written_by_the_format_whose_first_extension_it_is(void **state)
{
	static const struct {
		const char *name, *format;
	} cases[] = {
		{"out.pgn", "pgn"},       {"out.PGN", "pgn"},      {"a.pgn_zh", "pgn"},
		{"out.html", "html"},     {"out.htm", "html"},     {"out.ubb", "dhtmlxq"},
		{"dir.d/out.xqf", "xqf"}, {"out.XQF", "xqf"},      {"out.jsonl", "ndjson"},
		{"out.pgn.gz", "pgn"},    {"out.ndjson.GZ", "ndjson"}, {"out.cbf", "cbf"},
		{"out.cbr", NULL},        {"out.gz", NULL},        {"dir.pgn/out", NULL},
		{".pgn", NULL},           {"out", NULL},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct xq_format *f = xq_format_for_extension(cases[i].name);
		const char *got = f ? f->name : "(none)";
		const char *want = cases[i].format ? cases[i].format : "(none)";
		if (strcmp(got, want))
			fail_msg("'%s' is written as %s, not %s", cases[i].name, got, want);
	}
}

/* With a probe that is not sure (a bare move list), the extension decides,
 * also under a .gz. */
static void extension_under_gz_breaks_a_tie(void **state)
{
	static const char text[] = "\n";

	(void)state;
	assert_ptr_equal(xq_format_detect((const unsigned char *)text, 1, "x.pgn.gz"),
			 xq_format_find("pgn"));
	assert_ptr_equal(xq_format_detect((const unsigned char *)text, 1, "x.ubb.gz"),
			 xq_format_find("dhtmlxq"));
}

/* Extensions that name no format: text files hold any, and .xfen lists use
 * pieces xiangqi does not have (read as PGN, and refused). */
static int any_format(const char *ext)
{
	return !strcmp(ext, ".txt") || !strcmp(ext, ".TXT") || !strcmp(ext, ".xfen");
}

/* Is `ext` one of the space-separated `exts`, regardless of ASCII case? */
static int lists(const char *exts, const char *ext)
{
	size_t n = strlen(ext);

	while (*exts) {
		size_t k = strcspn(exts, " ");
		if (k == n && !strncasecmp(exts, ext, n))
			return 1;
		exts += k;
		while (*exts == ' ')
			exts++;
	}
	return 0;
}

static int files, mismatches;

static void check_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[4400];
		struct stat st;
		struct xq_input *in;
		struct xq_diag diag;
		const unsigned char *head;
		size_t len;
		const struct xq_format *f;
		const char *dot;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			check_tree(path);
			continue;
		}
		if (!S_ISREG(st.st_mode) || xq_input_open(&in, path, &diag))
			continue;
		if (xq_input_peek(in, &head, &len, &diag) == 0 &&
		    (f = xq_format_detect(head, len, NULL)) && (dot = strrchr(e->d_name, '.')) &&
		    !any_format(dot)) {
			files++;
			if (!lists(f->extensions, dot)) {
				fprintf(stderr, "%s: read as %s, but %s does not list '%s' (%s)\n", path,
					f->name, f->name, dot, f->extensions);
				mismatches++;
			}
		}
		xq_input_close(in);
	}
	closedir(d);
}

static void every_shared_record_is_read_by_a_format_that_lists_its_extension(void **state)
{
	const char *shared = test_shared_dir();
	char corpus[4200];

	(void)state;
	SKIP_WITHOUT_SHARED(shared);
	snprintf(corpus, sizeof(corpus), "%s/corpus", shared);
	files = mismatches = 0;
	check_tree(corpus);
	assert_true(files > 1000);
	assert_int_equal(mismatches, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ubb_is_another_name_for_dhtmlxq),
		cmocka_unit_test(a_name_is_written_by_the_format_whose_first_extension_it_is),
		cmocka_unit_test(extension_under_gz_breaks_a_tie),
		cmocka_unit_test(every_shared_record_is_read_by_a_format_that_lists_its_extension),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
