/*
 * test_source.c: the library's one front door (formats/source.c): an
 * input's format found by content, by its name's extension when the
 * content says nothing (an empty file), or named; what is empty, what no
 * format recognises, and what can only be written.
 */
#include "testutil.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source.h"

/* The format found for the bytes of `data` named `name`, the input left
 * open in `s` for the caller to close. */
static int find_in_memory(const char *name, const char *data, const struct xqi_format *forced,
			  const char *hint, struct xqi_source *s, struct xq_diagnostic *d)
{
	int rc;

	memset(s, 0, sizeof(*s));
	xqi_diagnostic_init(d);
	assert_int_equal(xqi_input_open_mem(&s->in, name ? name : "<memory>", data, strlen(data)), 0);
	rc = xqi_source_find(s, name, forced, hint, d);
	/* The format stays known; the input (and the name `d` borrows) goes
	 * when the caller closes `s`. */
	return rc;
}

static void content_decides_and_the_name_breaks_ties(void **state)
{
	struct xqi_source s;
	struct xq_diagnostic d;

	(void)state;
	assert_int_equal(find_in_memory("a.txt", "[Event \"x\"]\n\n1. h2e2 *\n", NULL, NULL, &s, &d),
			 XQI_SOURCE_OK);
	assert_string_equal(s.fmt->name, "pgn");
	xqi_source_close(&s);
	/* Nothing but white space: empty, unless the name says what it is;
	 * a final .gz is not the extension. */
	assert_int_equal(find_in_memory(NULL, " \n\n", NULL, NULL, &s, &d), XQI_SOURCE_EMPTY);
	assert_int_equal(d.code, XQI_D_NO_GAME);
	assert_null(d.source);
	xqi_source_close(&s);
	assert_int_equal(find_in_memory("a.pgn.gz", "", NULL, NULL, &s, &d), XQI_SOURCE_OK);
	assert_string_equal(s.fmt->name, "pgn");
	xqi_source_close(&s);
	assert_int_equal(find_in_memory("a.xqf", "", NULL, NULL, &s, &d), XQI_SOURCE_OK);
	assert_string_equal(s.fmt->name, "xqf");
	xqi_source_close(&s);
}

static void what_no_format_recognises_is_said_with_the_callers_hint(void **state)
{
	struct xqi_source s;
	struct xq_diagnostic d;

	(void)state;
	assert_int_equal(find_in_memory("j.txt", "hello world\n", NULL, " (name one)", &s, &d),
			 XQI_SOURCE_UNKNOWN);
	assert_int_equal(d.code, XQI_D_UNSUPPORTED);
	assert_string_equal(d.msg, "no record format recognises it (name one)");
	assert_string_equal(d.source, "j.txt");
	xqi_source_close(&s);
	/* A format named is taken whatever the content. */
	assert_int_equal(find_in_memory("j.txt", "hello world\n", xqi_format_find("pgn"), NULL, &s, &d),
			 XQI_SOURCE_OK);
	assert_string_equal(s.fmt->name, "pgn");
	xqi_source_close(&s);
	/* One that can only be written is refused. */
	assert_int_equal(find_in_memory("j.txt", "x", xqi_format_find("html"), NULL, &s, &d),
			 XQ_EUNSUPPORTED);
	assert_string_equal(d.msg, "html records cannot be read, only written");
	xqi_source_close(&s);
}

/* Opened by path: what fails leaves the source closed and the
 * diagnostic naming no input (the caller names what it asked for). */
static void a_path_no_format_recognises_is_closed_and_unnamed(void **state)
{
	char path[4096];
	struct xqi_source s;
	struct xq_diagnostic d;
	int fd;

	(void)state;
	assert_true((fd = test_tmpfile(path, sizeof(path), "source")) >= 0);
	assert_int_equal(write(fd, "hello world\n", 12), 12);
	close(fd);
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_source_open_input(&s, path, NULL, NULL, NULL, &d), XQI_SOURCE_UNKNOWN);
	assert_null(s.in);
	assert_null(d.source);
	assert_string_equal(d.msg, "no record format recognises it");
	unlink(path);
}

/* A path of any length keeps its extension: an empty .pgn deep in a
 * tree (a path over 255 bytes) is a PGN file that holds no game, not a
 * file of no format (xqkit used to skip it, and say nothing). */
static void a_long_path_keeps_its_extension(void **state)
{
	char dir[4096], path[4096];
	struct xqi_source s;
	struct xq_diagnostic d;
	size_t len;
	int fd;

	(void)state;
	assert_int_equal(test_tmpdir(dir, sizeof(dir), "source"), 0);
	snprintf(path, sizeof(path), "%s", dir);
	for (int i = 0; i < 3; i++) {
		len = strlen(path);
		snprintf(path + len, sizeof(path) - len, "/%0120d", i);
		assert_int_equal(mkdir(path, 0700), 0);
	}
	len = strlen(path);
	snprintf(path + len, sizeof(path) - len, "/e.pgn");
	assert_true(strlen(path) > 300);
	assert_true((fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600)) >= 0);
	close(fd);
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_source_open_input(&s, path, NULL, NULL, NULL, &d), XQI_SOURCE_OK);
	assert_string_equal(s.fmt->name, "pgn");
	xqi_source_close(&s);
	assert_int_equal(test_rmtree(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(content_decides_and_the_name_breaks_ties),
		cmocka_unit_test(what_no_format_recognises_is_said_with_the_callers_hint),
		cmocka_unit_test(a_path_no_format_recognises_is_closed_and_unnamed),
		cmocka_unit_test(a_long_path_keeps_its_extension),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
