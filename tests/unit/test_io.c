/*
 * test_io.c: inputs (plain, gzip by content, peeking, stdin-like streams,
 * cancelling) and outputs (temporary file renamed on commit, no overwrite
 * by default, modes and owners kept, devices, FIFOs and sockets written
 * directly and never removed, links, full disks).
 */
/* mknod() and makedev() for the block device case; O_TMPFILE. */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE
#define _GNU_SOURCE
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "buf.h"
#include "diagnostic.h"
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
	struct xqi_input *in;
	struct xq_diagnostic d;
	struct xq_buf all = XQ_BUF_INIT;
	const unsigned char *head;
	size_t hlen;

	(void)state;
	path_in_dir(path, sizeof(path), "games.pgn"); /* no .gz in the name */
	write_gzip(path, members, 2);
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_input_open(&in, path, &d), 0);
	assert_int_equal(xqi_input_peek(in, &head, &hlen, &d), 0);
	assert_true(xqi_input_is_gzip(in));
	assert_true(hlen >= 5 && !memcmp(head, "[Game", 5));
	/* Peeking consumed nothing, and both gzip members are read. */
	assert_int_equal(xqi_input_read_all(in, &all, 1 << 20, &d), 0);
	assert_string_equal(all.ptr, "[Game \"Chinese Chess\"]\n1. h2e2 h9g7 *\n");
	xqi_input_close(in);
	xq_buf_release(&all);
}

static void memory_input_reads_in_small_pieces(void **state)
{
	static const char text[] = "abcdefghij";
	struct xqi_input *in;
	struct xq_diagnostic d;
	char piece[3];
	struct xq_buf all = XQ_BUF_INIT;
	long n;

	(void)state;
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_input_open_mem(&in, "mem", text, 10), 0);
	while ((n = xqi_input_read(in, piece, sizeof(piece), &d)) > 0)
		xq_buf_add(&all, piece, (size_t)n);
	assert_int_equal(n, 0);
	assert_string_equal(all.ptr, text);
	assert_false(xqi_input_is_gzip(in));
	xqi_input_close(in);
	xq_buf_release(&all);
}

static void truncated_gzip_is_an_error_not_a_short_file(void **state)
{
	char path[4400], cut[256];
	const char *members[] = {"a fairly long line of text that compresses\n"};
	struct xqi_input *in;
	struct xq_diagnostic d;
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
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_input_open(&in, cut, &d), 0);
	assert_true(xqi_input_read_all(in, &all, 1 << 20, &d) < 0);
	assert_int_equal(d.code, XQI_D_TRUNCATED);
	xqi_input_close(in);
	xq_buf_release(&all);
}

static void missing_file_is_an_io_error_naming_it(void **state)
{
	struct xqi_input *in;
	struct xq_diagnostic d;

	(void)state;
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_input_open(&in, "/nonexistent/x.pgn", &d), XQ_EIO);
	assert_int_equal(d.code, XQI_D_IO);
	assert_non_null(strstr(d.msg, "/nonexistent/x.pgn"));
}

static void output_appears_only_after_commit(void **state)
{
	char path[4400];
	struct xq_file *o;
	struct xq_diagnostic d;
	struct stat st;

	(void)state;
	path_in_dir(path, sizeof(path), "out.txt");
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_file_open(&o, path, 0, &d), 0);
	assert_int_equal(xqi_file_write(o, "hello\n", 6), 0);
	assert_int_not_equal(stat(path, &st), 0); /* not there yet */
	assert_int_equal(xqi_file_commit(o, &d), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 6);
}

static void unsynced_outputs_appear_at_commit_and_one_sync_of_their_directory_succeeds(void **state)
{
	static const unsigned flags[] = {XQ_WRITE_SYNC_REPLACED, XQ_WRITE_NO_SYNC,
					 XQ_WRITE_SYNC_REPLACED | XQ_WRITE_FORCE};
	char path[4400];
	struct xq_file *o;
	struct xq_diagnostic d;
	struct stat st;

	(void)state;
	path_in_dir(path, sizeof(path), "lazy.txt");
	xqi_diagnostic_init(&d);
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		if (i < 2)
			unlink(path);
		assert_int_equal(xqi_file_open(&o, path, flags[i], &d), 0);
		assert_int_equal(xqi_file_write(o, "hello\n", 6 - i), 0);
		assert_int_equal(xqi_file_commit(o, &d), 0);
		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_size, 6 - i);
	}
	assert_int_equal(xqi_file_sync(dir, &d), 0);
}

static void sync_of_a_missing_directory_is_an_io_error_naming_it(void **state)
{
	char path[4400];
	struct xq_diagnostic d;

	(void)state;
	path_in_dir(path, sizeof(path), "no-such-dir");
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_file_sync(path, &d), XQ_EIO);
	assert_int_equal(d.code, XQI_D_IO);
	assert_non_null(strstr(d.msg, "no-such-dir"));
}

static void existing_output_is_refused_without_force(void **state)
{
	char path[4400];
	struct xq_file *o;
	struct xq_diagnostic d;

	(void)state;
	path_in_dir(path, sizeof(path), "exists.txt");
	fclose(fopen(path, "w"));
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_file_open(&o, path, 0, &d), XQ_EIO);
	assert_non_null(strstr(d.msg, "already exists"));
	assert_int_equal(xqi_file_open(&o, path, XQ_WRITE_FORCE, &d), 0);
	xqi_file_write(o, "x", 1);
	assert_int_equal(xqi_file_commit(o, &d), 0);
}

static void aborted_output_leaves_no_file(void **state)
{
	char path[4400], cmd[512];
	struct xq_file *o;
	struct xq_diagnostic d;
	struct stat st;

	(void)state;
	path_in_dir(path, sizeof(path), "aborted.txt");
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_file_open(&o, path, XQ_WRITE_NAMED_TEMP, &d), 0);
	xqi_file_write(o, "partial", 7);
	xqi_file_abort(o);
	assert_int_not_equal(stat(path, &st), 0);
	assert_int_equal(xqi_file_open(&o, path, 0, &d), 0);
	xqi_file_write(o, "partial", 7);
	xqi_file_abort(o);
	assert_int_not_equal(stat(path, &st), 0);
	assert_true(snprintf(cmd, sizeof(cmd), "ls -A '%s' | grep -q xqkit-", dir) < (int)sizeof(cmd));
	assert_int_not_equal(system(cmd), 0); /* no temporary file left */
}

static void gz_output_name_compresses(void **state)
{
	char path[4400];
	struct xq_file *o;
	struct xqi_input *in;
	struct xq_diagnostic d;
	struct xq_buf all = XQ_BUF_INIT;

	(void)state;
	path_in_dir(path, sizeof(path), "out.pgn.gz");
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_file_open(&o, path, 0, &d), 0);
	xqi_file_write(o, "compressed\n", 11);
	assert_int_equal(xqi_file_commit(o, &d), 0);
	assert_int_equal(xqi_input_open(&in, path, &d), 0);
	assert_int_equal(xqi_input_read_all(in, &all, 1024, &d), 0);
	assert_true(xqi_input_is_gzip(in));
	assert_string_equal(all.ptr, "compressed\n");
	xqi_input_close(in);
	xq_buf_release(&all);
}

/* Temporary files left in the test folder. */
static int temp_files(void)
{
	return test_count_named(dir, "xqkit-");
}

static void write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

static void write_output(const char *path, unsigned flags, const char *text)
{
	struct xq_file *o;
	struct xq_diagnostic d;

	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_file_open(&o, path, flags, &d), 0);
	assert_int_equal(xqi_file_write(o, text, strlen(text)), 0);
	if (xqi_file_commit(o, &d))
		fail_msg("commit: %s", d.msg);
}

static void new_output_gets_0666_less_the_umask(void **state)
{
	char path[4400];
	struct stat st;
	mode_t old = umask(027);

	(void)state;
	path_in_dir(path, sizeof(path), "umask.txt");
	write_output(path, 0, "x\n");
	umask(old);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
}

/* Replace a file of mode `mode` named `name`; its mode must stay. */
static void replace_with_mode(const char *name, mode_t mode)
{
	char path[4400];
	struct stat st;

	path_in_dir(path, sizeof(path), name);
	write_file(path, "old\n", mode);
	write_output(path, XQ_WRITE_FORCE, "newer\n");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 6);
	assert_int_equal(st.st_mode & 07777, mode);
}

static void replaced_output_keeps_its_mode(void **state)
{
	(void)state;
	replace_with_mode("private.txt", 0600);
	replace_with_mode("shared.txt", 0664);
	replace_with_mode("odd.txt", 0401);
}

static void replaced_output_keeps_its_owner_and_group(void **state)
{
	char path[4400];
	struct stat st;

	(void)state;
	if (geteuid() != 0)
		TEST_SKIP("only root can give a file to another owner");
	path_in_dir(path, sizeof(path), "owned.txt");
	write_file(path, "old\n", 0640);
	assert_int_equal(chown(path, 4242, 4343), 0);
	write_output(path, XQ_WRITE_FORCE, "new\n");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_uid, 4242);
	assert_int_equal(st.st_gid, 4343);
	assert_int_equal(st.st_mode & 07777, 0640);
}

static void character_device_is_written_directly_and_kept(void **state)
{
	struct xq_file *o;
	struct xq_diagnostic d;
	struct stat st;

	(void)state;
	/* Without --force as with it: a device cannot be replaced. */
	write_output("/dev/null", 0, "discarded\n");
	write_output("/dev/null", XQ_WRITE_FORCE, "discarded\n");
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_file_open(&o, "/dev/null", XQ_WRITE_FORCE, &d), 0);
	xqi_file_write(o, "x", 1);
	xqi_file_abort(o); /* never removes it */
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
}

static void fifo_is_written_directly_and_never_removed(void **state)
{
	char path[4400], buf[64];
	struct xq_file *o;
	struct xq_diagnostic d;
	struct stat st;
	int rd;
	ssize_t n;

	(void)state;
	path_in_dir(path, sizeof(path), "pipe");
	assert_int_equal(mkfifo(path, 0600), 0);
	rd = open(path, O_RDONLY | O_NONBLOCK); /* a reader, so that opening to write does not wait */
	assert_true(rd >= 0);
	write_output(path, 0, "through the pipe\n");
	n = read(rd, buf, sizeof(buf));
	assert_int_equal(n, 17);
	assert_memory_equal(buf, "through the pipe\n", 17);
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_file_open(&o, path, XQ_WRITE_FORCE, &d), 0);
	xqi_file_abort(o);
	close(rd);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(temp_files(), 0);
	unlink(path);
}

static void socket_named_by_its_descriptor_is_written_through_it(void **state)
{
	char path[64], buf[64];
	int sv[2];
	ssize_t n;

	(void)state;
	if (access("/dev/fd/0", F_OK) != 0)
		TEST_SKIP("no /dev/fd here");
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	/* What -o /dev/stdout is when standard output is a socket. */
	snprintf(path, sizeof(path), "/dev/fd/%d", sv[0]);
	write_output(path, 0, "over the socket\n");
	n = read(sv[1], buf, sizeof(buf));
	assert_int_equal(n, 16);
	assert_memory_equal(buf, "over the socket\n", 16);
	close(sv[0]);
	close(sv[1]);
}

static void descriptor_name_writes_to_the_descriptor_even_on_a_file(void **state)
{
	char path[4400], name[64], got[16] = "";
	struct stat before, after;
	FILE *f;
	int fd;

	(void)state;
	if (access("/dev/fd/0", F_OK) != 0)
		TEST_SKIP("no /dev/fd here");
	/* xqkit -o /dev/stdout > file: the file the shell opened is written
	 * after what is there already, never replaced. */
	path_in_dir(path, sizeof(path), "redirected.txt");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "a", 1), 1);
	assert_int_equal(fstat(fd, &before), 0);
	snprintf(name, sizeof(name), "/dev/fd/%d", fd);
	write_output(name, 0, "b");
	assert_int_equal(write(fd, "c", 1), 1);
	close(fd);
	assert_int_equal(stat(path, &after), 0);
	assert_true(before.st_ino == after.st_ino);
	assert_int_equal(after.st_mode & 07777, 0600);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_non_null(fgets(got, sizeof(got), f));
	fclose(f);
	assert_string_equal(got, "abc");
	assert_int_equal(temp_files(), 0);
}

static void directory_and_block_device_are_refused(void **state)
{
	char path[4400];
	struct xq_file *o;
	struct xq_diagnostic d;
	struct stat st;

	(void)state;
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_file_open(&o, dir, XQ_WRITE_FORCE, &d), XQ_EIO);
	assert_non_null(strstr(d.msg, "is a directory"));
	path_in_dir(path, sizeof(path), "blockdev");
	if (mknod(path, S_IFBLK | 0600, makedev(7, 0)) != 0)
		TEST_SKIP("cannot make a block device node here (%s)", strerror(errno));
	assert_int_equal(xqi_file_open(&o, path, XQ_WRITE_FORCE, &d), XQ_EIO);
	assert_non_null(strstr(d.msg, "block device"));
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISBLK(st.st_mode));
	unlink(path);
}

static void name_of_255_bytes_can_be_written(void **state)
{
	char name[256], path[4400];
	struct stat st;

	(void)state;
	memset(name, 'n', 255);
	memcpy(name + 251, ".pgn", 5);
	path_in_dir(path, sizeof(path), name);
	write_output(path, 0, "long name\n");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(temp_files(), 0);
}

static void link_to_nothing_is_refused_without_force(void **state)
{
	char path[4400], target[4400];
	struct xq_file *o;
	struct xq_diagnostic d;
	struct stat st;

	(void)state;
	path_in_dir(path, sizeof(path), "dangling");
	path_in_dir(target, sizeof(target), "nowhere");
	assert_int_equal(symlink(target, path), 0);
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_file_open(&o, path, 0, &d), XQ_EIO);
	assert_non_null(strstr(d.msg, "symbolic link to a missing file"));
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	/* With --force the link is replaced, as cp --force does. */
	write_output(path, XQ_WRITE_FORCE, "file now\n");
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_not_equal(lstat(target, &st), 0);
}

static void link_to_a_file_is_kept_and_the_file_replaced(void **state)
{
	char path[4400], target[4400];
	struct stat st;

	(void)state;
	path_in_dir(target, sizeof(target), "real.txt");
	path_in_dir(path, sizeof(path), "alias.txt");
	write_file(target, "old\n", 0604);
	assert_int_equal(symlink("real.txt", path), 0);
	write_output(path, XQ_WRITE_FORCE, "replaced\n");
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(stat(target, &st), 0);
	assert_int_equal(st.st_size, 9);
	assert_int_equal(st.st_mode & 07777, 0604);
}

/* The two ways of a temporary file: unnamed where the system allows
 * (O_TMPFILE), and named, as on a file system without it. */
static const unsigned temp_ways[] = {0, XQ_WRITE_NAMED_TEMP};
#define N_WAYS (sizeof(temp_ways) / sizeof(temp_ways[0]))

/* Someone else's file takes the name `name` while an output is written to
 * it with `flags`, each way: the commit returns `rc` and the name holds
 * `size` bytes (7: theirs, 5: mine); no temporary file is left. */
static void race_for_the_name(const char *name, unsigned flags, int rc, off_t size)
{
	char path[4400];
	struct xq_file *o;
	struct xq_diagnostic d;
	struct stat st;

	path_in_dir(path, sizeof(path), name);
	for (size_t w = 0; w < N_WAYS; w++) {
		unlink(path);
		xqi_diagnostic_init(&d);
		assert_int_equal(xqi_file_open(&o, path, flags | temp_ways[w], &d), 0);
		xqi_file_write(o, "mine\n", 5);
		write_file(path, "theirs\n", 0644); /* someone else's, during the run */
		assert_int_equal(xqi_file_commit(o, &d), rc);
		if (rc)
			assert_non_null(strstr(d.msg, "already exists"));
		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_size, size);
		assert_int_equal(temp_files(), 0);
	}
}

static void commit_without_force_refuses_a_name_taken_meanwhile(void **state)
{
	(void)state;
	race_for_the_name("raced.txt", 0, XQ_EIO, 7);
}

static void commit_with_force_replaces_a_file_that_took_the_name_meanwhile(void **state)
{
	(void)state;
	race_for_the_name("raced-forced.txt", XQ_WRITE_FORCE, 0, 5);
}

static void outputs_written_both_ways_appear_whole_at_commit_and_nothing_else(void **state)
{
	char path[4400], name[64];
	struct xq_file *o[4];
	struct xq_diagnostic d;
	struct stat st;

	(void)state;
	/* Several at once, as --sync end leaves them, each way. */
	for (size_t w = 0; w < N_WAYS; w++) {
		for (int i = 0; i < 4; i++) {
			snprintf(name, sizeof(name), "many-%zu-%d.txt", w, i);
			path_in_dir(path, sizeof(path), name);
			xqi_diagnostic_init(&d);
			assert_int_equal(xqi_file_open(&o[i], path, XQ_WRITE_NO_SYNC | temp_ways[w], &d),
					 0);
			assert_int_equal(xqi_file_write(o[i], "0123456789", (size_t)i + 1), 0);
		}
		for (int i = 0; i < 4; i++) {
			snprintf(name, sizeof(name), "many-%zu-%d.txt", w, i);
			path_in_dir(path, sizeof(path), name);
			assert_int_not_equal(stat(path, &st), 0);
			assert_int_equal(xqi_file_commit(o[i], &d), 0);
			assert_int_equal(stat(path, &st), 0);
			assert_int_equal(st.st_size, i + 1);
			assert_int_equal(st.st_nlink, 1);
		}
		assert_int_equal(temp_files(), 0);
	}
}

static void killed_writer_leaves_no_file_where_the_temporary_file_is_unnamed(void **state)
{
	char path[4400];
	struct xq_file *o;
	struct xq_diagnostic d;
	int fd, status;
	pid_t pid;

	(void)state;
	fd = open(dir, O_TMPFILE | O_WRONLY, 0600);
	if (fd < 0)
		TEST_SKIP("the temporary folder's file system has no O_TMPFILE");
	close(fd);
	path_in_dir(path, sizeof(path), "killed.txt");
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* A fresh process: its first output file is unnamed too. */
		xqi_diagnostic_init(&d);
		if (xqi_file_open(&o, path, 0, &d) || xqi_file_write(o, "partial", 7))
			_exit(2);
		fflush(NULL);
		raise(SIGKILL);
		_exit(3);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	assert_int_not_equal(access(path, F_OK), 0);
	assert_int_equal(temp_files(), 0);
}

static void full_disk_is_a_resource_error(void **state)
{
	struct xq_file *o;
	struct xq_diagnostic d;
	char block[8192];

	(void)state;
	if (access("/dev/full", W_OK) != 0)
		TEST_SKIP("no /dev/full here");
	memset(block, 'x', sizeof(block));
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_file_open(&o, "/dev/full", 0, &d), 0);
	xqi_file_write(o, block, sizeof(block));
	assert_int_equal(xqi_file_commit(o, &d), XQ_EIO);
	assert_int_equal(d.code, XQI_D_RESOURCE);
	assert_non_null(strstr(d.msg, "No space left"));
}

static atomic_int cancel_flag;

static void *raise_cancel(void *arg)
{
	struct timespec ts = {0, 150 * 1000000L};

	(void)arg;
	nanosleep(&ts, NULL);
	atomic_store(&cancel_flag, 1);
	return NULL;
}

static void cancel_flag_stops_a_read_on_a_silent_pipe(void **state)
{
	char path[64];
	int fds[2];
	struct xqi_input *in;
	struct xq_diagnostic d;
	char buf[16];
	pthread_t t;

	(void)state;
	if (access("/dev/fd/0", F_OK) != 0)
		TEST_SKIP("no /dev/fd here");
	assert_int_equal(pipe(fds), 0);
	snprintf(path, sizeof(path), "/dev/fd/%d", fds[0]);
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_input_open(&in, path, &d), 0);
	atomic_store(&cancel_flag, 0);
	xqi_input_set_cancel(in, &cancel_flag);
	/* Nothing is ever written, and the writer stays open: only the flag
	 * can end the read. */
	assert_int_equal(pthread_create(&t, NULL, raise_cancel, NULL), 0);
	assert_int_equal(xqi_input_read(in, buf, sizeof(buf), &d), XQ_ECANCELED);
	pthread_join(t, NULL);
	/* And it stays stopped. */
	assert_int_equal(xqi_input_read(in, buf, sizeof(buf), &d), XQ_ECANCELED);
	xqi_input_close(in);
	close(fds[0]);
	close(fds[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gzip_is_recognised_by_content_not_name),
		cmocka_unit_test(memory_input_reads_in_small_pieces),
		cmocka_unit_test(truncated_gzip_is_an_error_not_a_short_file),
		cmocka_unit_test(missing_file_is_an_io_error_naming_it),
		cmocka_unit_test(output_appears_only_after_commit),
		cmocka_unit_test(unsynced_outputs_appear_at_commit_and_one_sync_of_their_directory_succeeds),
		cmocka_unit_test(sync_of_a_missing_directory_is_an_io_error_naming_it),
		cmocka_unit_test(existing_output_is_refused_without_force),
		cmocka_unit_test(aborted_output_leaves_no_file),
		cmocka_unit_test(gz_output_name_compresses),
		cmocka_unit_test(new_output_gets_0666_less_the_umask),
		cmocka_unit_test(replaced_output_keeps_its_mode),
		cmocka_unit_test(replaced_output_keeps_its_owner_and_group),
		cmocka_unit_test(character_device_is_written_directly_and_kept),
		cmocka_unit_test(fifo_is_written_directly_and_never_removed),
		cmocka_unit_test(socket_named_by_its_descriptor_is_written_through_it),
		cmocka_unit_test(descriptor_name_writes_to_the_descriptor_even_on_a_file),
		cmocka_unit_test(directory_and_block_device_are_refused),
		cmocka_unit_test(name_of_255_bytes_can_be_written),
		cmocka_unit_test(link_to_nothing_is_refused_without_force),
		cmocka_unit_test(link_to_a_file_is_kept_and_the_file_replaced),
		cmocka_unit_test(commit_without_force_refuses_a_name_taken_meanwhile),
		cmocka_unit_test(commit_with_force_replaces_a_file_that_took_the_name_meanwhile),
		cmocka_unit_test(outputs_written_both_ways_appear_whole_at_commit_and_nothing_else),
		cmocka_unit_test(killed_writer_leaves_no_file_where_the_temporary_file_is_unnamed),
		cmocka_unit_test(full_disk_is_a_resource_error),
		cmocka_unit_test(cancel_flag_stops_a_read_on_a_silent_pipe),
	};
	return cmocka_run_group_tests_name("io", tests, setup, teardown);
}
