/*
 * testutil.h: what every cmocka test file includes, in the order older
 * cmocka releases need, plus the one way a test finds what it needs from
 * the machine and the one way it says it could not run.
 *
 * What a test may need from outside the repository, and where it looks:
 *   - the shared reference corpus: $XQ_SHARED, else ../shared;
 *   - Fairy-Stockfish: $FAIRY_STOCKFISH, else `fairy-stockfish` on $PATH,
 *     else /usr/games/fairy-stockfish (Debian's place, not on root's PATH
 *     on every system);
 *   - the xqkit binary: $XQKIT (make check sets it);
 *   - other programs a test runs (python3): on $PATH (test_on_path());
 *   - scratch space: a fresh folder under $TMPDIR (else /tmp), made by
 *     test_tmpdir() and removed by test_rmtree().
 * When something is missing, TEST_SKIP() says which test skipped and why.
 * With XQ_TEST_NO_SKIP=1 in the environment (CI sets it) a skip is a
 * failure instead: there, everything that can run must run.
 */
#ifndef XQI_TESTS_TESTUTIL_H
#define XQI_TESTS_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

static inline int test_no_skip(void)
{
	const char *s = getenv("XQ_TEST_NO_SKIP");
	return s && *s && strcmp(s, "0") != 0;
}

/*
 * Skip the running test with a reason (printf format).  Used in the test
 * function itself, so that __func__ names the test.
 */
#define TEST_SKIP(...)                                                                        \
	do {                                                                                  \
		fprintf(stderr, "skipped: %s: ", __func__);                                  \
		fprintf(stderr, __VA_ARGS__);                                                 \
		fputc('\n', stderr);                                                          \
		if (test_no_skip())                                                           \
			fail_msg("%s skipped, but XQ_TEST_NO_SKIP says everything must run", \
				 __func__);                                                   \
		skip();                                                                       \
	} while (0)

/*
 * Where the shared reference material is: $XQ_SHARED, else ../shared (the
 * layout CI uses).  Returns NULL when it is absent (a user's clone); tests
 * that need it then skip with a message.
 */
static inline const char *test_shared_dir(void)
{
	static char path[4096];
	const char *env = getenv("XQ_SHARED");
	char probe[4200];

	snprintf(path, sizeof(path), "%s", env && *env ? env : "../shared");
	snprintf(probe, sizeof(probe), "%s/README.md", path);
	if (access(probe, R_OK) != 0)
		return NULL;
	return path;
}

#define SKIP_WITHOUT_SHARED(dir)                                                          \
	do {                                                                              \
		if (!(dir))                                                               \
			TEST_SKIP("../shared not found (set XQ_SHARED to the shared "    \
				  "reference folder to run this test)");                  \
	} while (0)

/*
 * A program named `name` on $PATH, as `command -v` finds it: its path (in
 * a buffer that the next call reuses), or NULL when no directory of $PATH
 * has it as an executable file.
 */
static inline const char *test_on_path(const char *name)
{
	static char found[4096];
	const char *path = getenv("PATH");

	while (path && *path) {
		const char *end = strchr(path, ':');
		size_t n = end ? (size_t)(end - path) : strlen(path);
		if (n > 0 && n + strlen(name) + 2 < sizeof(found)) {
			snprintf(found, sizeof(found), "%.*s/%s", (int)n, path, name);
			if (access(found, X_OK) == 0)
				return found;
		}
		path = end ? end + 1 : NULL;
	}
	return NULL;
}

/*
 * Fairy-Stockfish, found the one documented way: $FAIRY_STOCKFISH, then
 * `fairy-stockfish` on $PATH, then /usr/games/fairy-stockfish.  NULL when
 * none is an executable file.
 */
static inline const char *test_fairy(void)
{
	static char found[4096];
	const char *env = getenv("FAIRY_STOCKFISH");
	const char *onpath;

	if (env && *env)
		return access(env, X_OK) == 0 ? env : NULL;
	if ((onpath = test_on_path("fairy-stockfish"))) {
		snprintf(found, sizeof(found), "%s", onpath);
		return found;
	}
	return access("/usr/games/fairy-stockfish", X_OK) == 0 ? "/usr/games/fairy-stockfish"
								   : NULL;
}

#define SKIP_WITHOUT_FAIRY(p)                                                              \
	do {                                                                               \
		if (!(p))                                                                  \
			TEST_SKIP("fairy-stockfish not found (apt-get install "           \
				  "fairy-stockfish, or set FAIRY_STOCKFISH)");             \
	} while (0)

/* Is /proc mounted (a Linux procfs with this process in it)? */
static inline int test_have_proc(void)
{
	return access("/proc/self/stat", R_OK) == 0;
}

#define SKIP_WITHOUT_PROC()                                                                \
	do {                                                                               \
		if (!test_have_proc())                                                     \
			TEST_SKIP("/proc is not mounted here (the check reads "           \
				  "/proc/<pid>/stat)");                                    \
	} while (0)

/*
 * A fresh, empty folder for one test, under $TMPDIR (else /tmp), written
 * into `out` (cap bytes); `tag` names it for whoever finds one left behind.
 * Returns 0, or -1 (the test should fail).
 */
static inline int test_tmpdir(char *out, size_t cap, const char *tag)
{
	const char *t = getenv("TMPDIR");
	int n = snprintf(out, cap, "%s/xqkit-test-%s-XXXXXX", t && *t ? t : "/tmp", tag);

	if (n < 0 || (size_t)n >= cap)
		return -1;
	return mkdtemp(out) ? 0 : -1;
}

/* A temporary file name under $TMPDIR (else /tmp), made and opened by
 * mkstemp(); returns its descriptor or -1. */
static inline int test_tmpfile(char *out, size_t cap, const char *tag)
{
	const char *t = getenv("TMPDIR");
	int n = snprintf(out, cap, "%s/xqkit-test-%s-XXXXXX", t && *t ? t : "/tmp", tag);

	if (n < 0 || (size_t)n >= cap)
		return -1;
	return mkstemp(out);
}

/* How many entries of `dir` have `part` in their name (each is named on
 * stderr): temporary files left behind, for one.  -1 if `dir` cannot be
 * read. */
static inline int test_count_named(const char *dir, const char *part)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strstr(e->d_name, part)) {
			fprintf(stderr, "in %s: %s\n", dir, e->d_name);
			n++;
		}
	closedir(d);
	return n;
}

/* Point $TMPDIR at `dir` for a test's scratch files; NULL puts back what
 * it was before the first call. */
static inline void test_set_tmpdir(const char *dir)
{
	static char *saved;
	static int have;

	if (dir) {
		if (!have) {
			const char *now = getenv("TMPDIR");
			saved = now ? strdup(now) : NULL;
			have = 1;
		}
		setenv("TMPDIR", dir, 1);
		return;
	}
	if (!have)
		return;
	if (saved)
		setenv("TMPDIR", saved, 1);
	else
		unsetenv("TMPDIR");
	free(saved);
	saved = NULL;
	have = 0;
}

/* Remove a folder and everything in it (no symlinks are followed).
 * Returns 0 or -1. */
static inline int test_rmtree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return unlink(dir);
	while ((e = readdir(d))) {
		char p[4400];
		struct stat st;
		int n;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		n = snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (n < 0 || (size_t)n >= sizeof(p)) {
			rc = -1;
			continue;
		}
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			rc |= test_rmtree(p);
		else
			rc |= unlink(p);
	}
	closedir(d);
	return rmdir(dir) | rc;
}

#endif
