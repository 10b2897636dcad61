/*
 * test_io.c: inputs (plain, gzip by content, peeking, stdin-like streams)
 * and outputs (temporary file renamed on commit, no overwrite by default).
 */
#include "testutil.h"

#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "buf.h"
#include "diag.h"
#include "io.h"

static char dir[4096];

static int setup(void **state)
{
	(void)state;
	return test_tmpdir(dir, sizeof(dir), "io");
}

static int teardown(void **state)
{
	(void)state;
	return test_rmtree(dir);
}

static void path_in_dir(char *out, size_t cap, const char *name)
{
	int n = snprintf(out, cap, "%s/%s", dir, name);
	assert_true(n > 0 && (size_t)n < cap);
}

static void write_gzip(const char *path, const char *const *members, int n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fclose(f);
	for (int i = 0; i < n; i++) {
		gzFile gz = gzopen(path, "ab");
		assert_non_null(gz);
		gzwrite(gz, members[i], (unsigned)strlen(members[i]));
		gzclose(gz);
	}
}

static void gzip_is_recognised_by_content_not_name(void **state)
{
	char path[4400];
	const char *members[] = {"[Game \"Chinese Chess\"]\n", "1. h2e2 h9g7 *\n"};
	struct xq_input *in;
	struct xq_diag d;
	struct xq_buf all = XQ_BUF_INIT;
	const unsigned char *head;
	size_t hlen;

	(void)state;
	path_in_dir(path, sizeof(path), "games.pgn"); /* no .gz in the name */
	write_gzip(path, members, 2);
	xq_diag_init(&d);
	assert_int_equal(xq_input_open(&in, path, &d), 0);
	assert_int_equal(xq_input_peek(in, &head, &hlen, &d), 0);
	assert_true(xq_input_is_gzip(in));
	assert_true(hlen >= 5 && !memcmp(head, "[Game", 5));
	/* Peeking consumed nothing, and both gzip members are read. */
	assert_int_equal(xq_input_read_all(in, &all, 1 << 20, &d), 0);
	assert_string_equal(all.ptr, "[Game \"Chinese Chess\"]\n1. h2e2 h9g7 *\n");
	xq_input_close(in);
	xq_buf_release(&all);
}

static void memory_input_reads_in_small_pieces(void **state)
{
	static const char text[] = "abcdefghij";
	struct xq_input *in;
	struct xq_diag d;
	char piece[3];
	struct xq_buf all = XQ_BUF_INIT;
	long n;

	(void)state;
	xq_diag_init(&d);
	assert_int_equal(xq_input_open_mem(&in, "mem", text, 10), 0);
	while ((n = xq_input_read(in, piece, sizeof(piece), &d)) > 0)
		xq_buf_add(&all, piece, (size_t)n);
	assert_int_equal(n, 0);
	assert_string_equal(all.ptr, text);
	assert_false(xq_input_is_gzip(in));
	xq_input_close(in);
	xq_buf_release(&all);
}

static void truncated_gzip_is_an_error_not_a_short_file(void **state)
{
	char path[4400], cut[256];
	const char *members[] = {"a fairly long line of text that compresses\n"};
	struct xq_input *in;
	struct xq_diag d;
	struct xq_buf all = XQ_BUF_INIT;
	FILE *f, *g;
	char data[512];
	size_t n;

	(void)state;
	path_in_dir(path, sizeof(path), "whole.gz");
	path_in_dir(cut, sizeof(cut), "cut.gz");
	write_gzip(path, members, 1);
	f = fopen(path, "rb");
	n = fread(data, 1, sizeof(data), f);
	fclose(f);
	g = fopen(cut, "wb");
	fwrite(data, 1, n - 10, g);
	fclose(g);
	xq_diag_init(&d);
	assert_int_equal(xq_input_open(&in, cut, &d), 0);
	assert_true(xq_input_read_all(in, &all, 1 << 20, &d) < 0);
	assert_int_equal(d.code, XQ_D_TRUNCATED);
	xq_input_close(in);
	xq_buf_release(&all);
}

static void missing_file_is_an_io_error_naming_it(void **state)
{
	struct xq_input *in;
	struct xq_diag d;

	(void)state;
	xq_diag_init(&d);
	assert_int_equal(xq_input_open(&in, "/nonexistent/x.pgn", &d), XQ_EIO);
	assert_int_equal(d.code, XQ_D_IO);
	assert_non_null(strstr(d.msg, "/nonexistent/x.pgn"));
}

static void output_appears_only_after_commit(void **state)
{
	char path[4400];
	struct xq_output *o;
	struct xq_diag d;
	struct stat st;

	(void)state;
	path_in_dir(path, sizeof(path), "out.txt");
	xq_diag_init(&d);
	assert_int_equal(xq_output_open(&o, path, 0, &d), 0);
	assert_int_equal(xq_output_write(o, "hello\n", 6), 0);
	assert_int_not_equal(stat(path, &st), 0); /* not there yet */
	assert_int_equal(xq_output_commit(o, &d), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 6);
}

static void existing_output_is_refused_without_force(void **state)
{
	char path[4400];
	struct xq_output *o;
	struct xq_diag d;

	(void)state;
	path_in_dir(path, sizeof(path), "exists.txt");
	fclose(fopen(path, "w"));
	xq_diag_init(&d);
	assert_int_equal(xq_output_open(&o, path, 0, &d), XQ_EIO);
	assert_non_null(strstr(d.msg, "already exists"));
	assert_int_equal(xq_output_open(&o, path, XQ_OUTPUT_FORCE, &d), 0);
	xq_output_write(o, "x", 1);
	assert_int_equal(xq_output_commit(o, &d), 0);
}

static void aborted_output_leaves_no_file(void **state)
{
	char path[4400], cmd[512];
	struct xq_output *o;
	struct xq_diag d;
	struct stat st;

	(void)state;
	path_in_dir(path, sizeof(path), "aborted.txt");
	xq_diag_init(&d);
	assert_int_equal(xq_output_open(&o, path, 0, &d), 0);
	xq_output_write(o, "partial", 7);
	xq_output_abort(o);
	assert_int_not_equal(stat(path, &st), 0);
	assert_true(snprintf(cmd, sizeof(cmd), "ls -A '%s' | grep -q xqkit-", dir) < (int)sizeof(cmd));
	assert_int_not_equal(system(cmd), 0); /* no temporary file left */
}

static void gz_output_name_compresses(void **state)
{
	char path[4400];
	struct xq_output *o;
	struct xq_input *in;
	struct xq_diag d;
	struct xq_buf all = XQ_BUF_INIT;

	(void)state;
	path_in_dir(path, sizeof(path), "out.pgn.gz");
	xq_diag_init(&d);
	assert_int_equal(xq_output_open(&o, path, 0, &d), 0);
	xq_output_write(o, "compressed\n", 11);
	assert_int_equal(xq_output_commit(o, &d), 0);
	assert_int_equal(xq_input_open(&in, path, &d), 0);
	assert_int_equal(xq_input_read_all(in, &all, 1024, &d), 0);
	assert_true(xq_input_is_gzip(in));
	assert_string_equal(all.ptr, "compressed\n");
	xq_input_close(in);
	xq_buf_release(&all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gzip_is_recognised_by_content_not_name),
		cmocka_unit_test(memory_input_reads_in_small_pieces),
		cmocka_unit_test(truncated_gzip_is_an_error_not_a_short_file),
		cmocka_unit_test(missing_file_is_an_io_error_naming_it),
		cmocka_unit_test(output_appears_only_after_commit),
		cmocka_unit_test(existing_output_is_refused_without_force),
		cmocka_unit_test(aborted_output_leaves_no_file),
		cmocka_unit_test(gz_output_name_compresses),
	};
	return cmocka_run_group_tests_name("io", tests, setup, teardown);
}
