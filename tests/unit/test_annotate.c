/*
 * test_annotate.c: `xqkit annotate` as a process, for what golden cases
 * cannot show: the same bytes for any -j, engine failures recovered from
 * in the middle of a run (tests/engines/fake-engine.sh in its flaky mode),
 * no zombie and no engine left behind, Ctrl-C (exit status, no output and
 * no temporary file left), --resume after an interrupted run giving the
 * bytes of an uninterrupted one, and the real Fairy-Stockfish in UCI and
 * UCCI mode at a fixed node count (skipped with a message when it is not
 * installed: apt-get install fairy-stockfish).
 *
 * The binary is $XQKIT (make check sets it); tests run from the top of
 * the worktree.
 */
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"

extern char **environ;

#define FAKE "tests/engines/fake-engine.sh"
#define SHORT "tests/data/annotate/short.pgn"
#define MATES "tests/data/annotate/mates.pgn"
#define REPETITION "tests/data/annotate/repetition.pgn"
#define SIX_GAMES "samples/liu-dahua-iccs.pgn"

static char dir[4096];

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static const char *xqkit(void)
{
	const char *x = getenv("XQKIT");

	if (!x || !*x)
		TEST_SKIP("XQKIT is not set (make check sets it)");
	return x;
}

static const char *path(const char *name)
{
	static char p[8][4400];
	static int i;

	i = (i + 1) % 8;
	snprintf(p[i], sizeof(p[i]), "%s/%s", dir, name);
	return p[i];
}

static int setup(void **state)
{
	(void)state;
	return test_tmpdir(dir, sizeof(dir), "annotate");
}

static int teardown(void **state)
{
	(void)state;
	unsetenv("FAKE_STATE");
	unsetenv("FAKE_LOG");
	unsetenv("FAKE_FAIL_AT");
	unsetenv("FAKE_FAIL_HOW");
	unsetenv("FAKE_MAX_STARTS");
	return test_rmtree(dir);
}

/* Start `xqkit ARGS...` (NULL-terminated) with its output in the files
 * `out` and `err` of the test directory. */
static pid_t start(const char *out, const char *err, const char *const *args)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t sa;
	sigset_t def;
	const char *argv[64];
	size_t n = 0;
	pid_t pid;

	argv[n++] = xqkit();
	while (*args && n < 63)
		argv[n++] = *args++;
	argv[n] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, out[0] == '/' ? out : path(out),
					 O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_addopen(&fa, 2, path(err), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	/* The default actions for the stop signals, as at a terminal: xqkit
	 * keeps a signal ignored when it starts (nohup), and this test may
	 * run in the background of a script, which ignores SIGINT. */
	posix_spawnattr_init(&sa);
	sigemptyset(&def);
	sigaddset(&def, SIGINT);
	sigaddset(&def, SIGTERM);
	sigaddset(&def, SIGHUP);
	posix_spawnattr_setsigdefault(&sa, &def);
	posix_spawnattr_setflags(&sa, POSIX_SPAWN_SETSIGDEF);
	assert_int_equal(posix_spawn(&pid, argv[0], &fa, &sa, (char *const *)argv, environ), 0);
	posix_spawnattr_destroy(&sa);
	posix_spawn_file_actions_destroy(&fa);
	return pid;
}

/* Wait for `pid`: its exit status, or 128 + the signal that killed it. */
static int finish(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		assert_int_equal(errno, EINTR);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

#define RUN(out, err, ...) finish(start((out), (err), (const char *const[]){__VA_ARGS__, NULL}))

static void slurp(const char *p, struct xq_buf *b)
{
	char chunk[4096];
	size_t n;
	FILE *f = fopen(p, "rb");

	xq_buf_reset(b);
	if (!f)
		return;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		xq_buf_add(b, chunk, n);
	fclose(f);
}

static int contains(const char *file, const char *text)
{
	struct xq_buf b = XQ_BUF_INIT;
	int found;

	slurp(path(file), &b);
	found = strstr(b.ptr, text) != NULL;
	if (!found)
		fprintf(stderr, "%s does not hold '%s'; it holds:\n%.3000s\n", file, text, b.ptr);
	xq_buf_release(&b);
	return found;
}

static int count_of(const char *file, const char *text)
{
	struct xq_buf b = XQ_BUF_INIT;
	int n = 0;

	slurp(path(file), &b);
	for (const char *p = b.ptr; (p = strstr(p, text)); p += strlen(text))
		n++;
	xq_buf_release(&b);
	return n;
}

static void assert_same_files(const char *a, const char *b)
{
	struct xq_buf x = XQ_BUF_INIT, y = XQ_BUF_INIT;

	slurp(path(a), &x);
	slurp(path(b), &y);
	assert_true(x.len > 0);
	if (x.len != y.len || memcmp(x.ptr, y.ptr, x.len))
		fail_msg("%s (%zu bytes) and %s (%zu bytes) differ", a, x.len, b, y.len);
	xq_buf_release(&x);
	xq_buf_release(&y);
}

/* Fresh state for the flaky fake engine; its log in the test directory. */
static void fake_state(const char *fail_at, const char *how)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir '%s'", path("state"), path("state"));
	assert_int_equal(system(cmd), 0);
	setenv("FAKE_STATE", path("state"), 1);
	setenv("FAKE_LOG", path("engine.log"), 1);
	unlink(path("engine.log"));
	if (fail_at)
		setenv("FAKE_FAIL_AT", fail_at, 1);
	else
		unsetenv("FAKE_FAIL_AT");
	if (how)
		setenv("FAKE_FAIL_HOW", how, 1);
	else
		unsetenv("FAKE_FAIL_HOW");
}

/* Every engine process the fake engine logged ("start N pid P") is gone:
 * ended and reaped (a zombie of an exited xqkit is reaped by init, and
 * one of a running xqkit is checked by no_zombie_children()).  Returns
 * how many were started. */
static int engines_gone(void)
{
	char line[512];
	int started = 0;
	FILE *f = fopen(path("engine.log"), "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		long pid;
		int n;
		if (sscanf(line, "start %d pid %ld", &n, &pid) != 2)
			continue;
		started++;
		for (int i = 0; i < 200 && kill((pid_t)pid, 0) == 0; i++)
			sleep_ms(10); /* init may be a moment late reaping it */
		if (kill((pid_t)pid, 0) == 0)
			fail_msg("engine process %ld is still there", pid);
	}
	fclose(f);
	return started;
}

/* The pids of `parent`'s children that are zombies now, into `z` (max n). */
static int zombie_children(pid_t parent, long *z, int n)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int k = 0;

	assert_non_null(d);
	while ((e = readdir(d)) && k < n) {
		char p[300], buf[512], state;
		long pid, ppid;
		FILE *f;
		char *rp;
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(p, sizeof(p), "/proc/%s/stat", e->d_name);
		if (!(f = fopen(p, "r")))
			continue;
		if (fgets(buf, sizeof(buf), f) && (rp = strrchr(buf, ')')) &&
		    sscanf(buf, "%ld", &pid) == 1 && sscanf(rp + 1, " %c %ld", &state, &ppid) == 2 &&
		    ppid == parent && state == 'Z')
			z[k++] = pid;
		fclose(f);
	}
	closedir(d);
	return k;
}

/* Names in the test directory that look like a temporary output. */
static int temp_files(void)
{
	return test_count_named(dir, ".xqkit-");
}

/* Wait until the progress line on stderr says `games` games are done. */
static void wait_for_games(const char *err, int games, pid_t pid)
{
	char want[64];

	snprintf(want, sizeof(want), "annotate: %d game", games);
	for (int i = 0; i < 6000; i++) {
		struct xq_buf b = XQ_BUF_INIT;
		int found;
		slurp(path(err), &b);
		found = strstr(b.ptr, want) != NULL;
		xq_buf_release(&b);
		if (found)
			return;
		if (waitpid(pid, NULL, WNOHANG) == pid)
			fail_msg("xqkit ended before %d games were done", games);
		sleep_ms(10);
	}
	fail_msg("no progress after 60 s");
}

/* ---- the built-in engine ----------------------------------------------------- */

static void the_number_of_jobs_changes_no_byte(void **state)
{
	(void)state;
	assert_int_equal(RUN("j1.pgn", "j1.err", "annotate", "-q", "--depth", "3", SIX_GAMES, SHORT,
			     "samples/endgame-big5.pgn", MATES),
			 0);
	assert_int_equal(RUN("j3.pgn", "j3.err", "annotate", "-q", "--depth", "3", "-j", "3",
			     SIX_GAMES, SHORT, "samples/endgame-big5.pgn", MATES),
			 0);
	assert_same_files("j1.pgn", "j3.pgn");
	assert_int_equal(count_of("j1.pgn", "[XqkitAnnotate "), 6 + 2 + 1 + 3);
	assert_int_equal(RUN("j1.nd", "j1.err", "annotate", "-q", "--depth", "3", "-t", "ndjson",
			     "--variations", "--pv-threshold", "50", SIX_GAMES,
			     "tests/data/pgn/gbk-bare-cr-variations.pgn"),
			 0);
	assert_int_equal(RUN("j2.nd", "j2.err", "annotate", "-q", "--depth", "3", "-t", "ndjson",
			     "-j", "2", "--variations", "--pv-threshold", "50", SIX_GAMES,
			     "tests/data/pgn/gbk-bare-cr-variations.pgn"),
			 0);
	assert_same_files("j1.nd", "j2.nd");
}

static void the_same_run_gives_the_same_bytes(void **state)
{
	(void)state;
	assert_int_equal(RUN("a.nd", "a.err", "annotate", "-q", "--nodes", "3000", "-t", "ndjson",
			     SIX_GAMES),
			 0);
	assert_int_equal(RUN("b.nd", "b.err", "annotate", "-q", "--nodes", "3000", "-t", "ndjson",
			     SIX_GAMES),
			 0);
	assert_same_files("a.nd", "b.nd");
}

/* Ctrl-C (or SIGTERM) in the middle of a run to a file. */
static void interrupted(int sig, const char *engine_mode)
{
	pid_t pid;
	int status;

	if (engine_mode) {
		/* The engine searches until it is told to stop. */
		fake_state("1,2,3,4,5,6,7,8,9,10", "stop");
		pid = start("out", "err",
			    (const char *const[]){"annotate", "--progress", "--engine", FAKE,
						  "--engine-arg", engine_mode, "--engine-arg", "a0a1",
						  "--engine-arg", "a9a8", "-j", "2", "-o",
						  path("annotated.pgn"), SHORT, NULL});
		for (int i = 0; i < 3000 && count_of("engine.log", "\ngo ") < 2; i++)
			sleep_ms(10);
		assert_true(count_of("engine.log", "\ngo ") >= 2); /* both engines search */
	} else {
		pid = start("out", "err",
			    (const char *const[]){"annotate", "--progress", "--nodes", "20000", "-o",
						  path("annotated.pgn"), SIX_GAMES, NULL});
		wait_for_games("err", 1, pid);
	}
	kill(pid, sig);
	status = finish(pid);
	assert_int_equal(status, 128 + sig);
	assert_true(contains("err", "interrupted: no output is left behind"));
	assert_int_equal(access(path("annotated.pgn"), F_OK), -1);
	assert_int_equal(temp_files(), 0);
	if (engine_mode)
		assert_int_equal(engines_gone(), 2);
}

static void ctrl_c_leaves_no_output_and_no_temporary_file(void **state)
{
	(void)state;
	interrupted(SIGINT, NULL);
}

static void sigterm_ends_like_ctrl_c_with_its_own_status(void **state)
{
	(void)state;
	interrupted(SIGTERM, NULL);
}

static void ctrl_c_stops_the_engines_and_leaves_none_behind(void **state)
{
	(void)state;
	interrupted(SIGINT, "flaky");
}

/* Stop a --resume run after some games, run it again: the same bytes as
 * one run that was never stopped. */
static void resumed(const char *to)
{
	const char *full = !strcmp(to, "pgn") ? "full.pgn" : "full.nd";
	pid_t pid;
	int status;

	assert_int_equal(RUN(full, "full.err", "annotate", "-q", "--nodes", "10000", "-t", to, SIX_GAMES),
			 0);
	pid = start("out", "err1",
		    (const char *const[]){"annotate", "--progress", "--nodes", "10000", "-t", to,
					  "--resume", "-o", path("resumed"), SIX_GAMES, NULL});
	wait_for_games("err1", 2, pid);
	kill(pid, SIGINT);
	status = finish(pid);
	if (status == 0)
		TEST_SKIP("the run ended before the signal: nothing to resume");
	assert_int_equal(status, 130);
	assert_true(contains("err1", "the games finished so far are kept"));
	assert_int_equal(temp_files(), 0);
	/* What was kept is whole games, at least the two seen done. */
	if (!strcmp(to, "pgn"))
		assert_true(count_of("resumed", "[XqkitAnnotate ") >= 2);
	else
		assert_true(count_of("resumed", "\"schema\":\"xqkit.annotated/1\"") >= 2);
	assert_int_equal(RUN("out", "err2", "annotate", "--nodes", "10000", "-t", to, "--resume", "-o",
			     path("resumed"), SIX_GAMES),
			 0);
	assert_true(contains("err2", "copied from the earlier output"));
	assert_same_files(full, "resumed");
	/* Once more: every game is copied, nothing analysed. */
	assert_int_equal(RUN("out", "err3", "annotate", "--nodes", "10000", "-t", to, "--resume", "-o",
			     path("resumed"), SIX_GAMES),
			 0);
	assert_true(contains("err3", "0 annotated, 6 copied from the earlier output; 0 positions"));
	assert_same_files(full, "resumed");
}

static void resuming_a_stopped_pgn_run_gives_the_bytes_of_one_run(void **state)
{
	(void)state;
	resumed("pgn");
}

static void resuming_a_stopped_ndjson_run_gives_the_bytes_of_one_run(void **state)
{
	(void)state;
	resumed("ndjson");
}

static void resume_with_other_settings_analyses_again_but_keeps_the_file_whole(void **state)
{
	pid_t pid;

	(void)state;
	assert_int_equal(RUN("out", "err", "annotate", "-q", "--nodes", "1000", "-o", path("r.pgn"),
			     SIX_GAMES),
			 0);
	/* Deeper: no game matches; stopped early, the earlier games stay. */
	pid = start("out", "err1",
		    (const char *const[]){"annotate", "--progress", "--nodes", "30000", "--resume",
					  "-o", path("r.pgn"), SIX_GAMES, NULL});
	wait_for_games("err1", 1, pid);
	kill(pid, SIGINT);
	if (finish(pid) == 0)
		TEST_SKIP("the run ended before the signal");
	assert_int_equal(count_of("r.pgn", "[XqkitAnnotate "), 6);
	assert_true(count_of("r.pgn", "nodes 30000, marks") >= 1);
	assert_true(count_of("r.pgn", "nodes 1000, marks") >= 1);
	assert_int_equal(temp_files(), 0);
}

static void resume_with_other_inputs_says_so_and_analyses_them(void **state)
{
	(void)state;
	assert_int_equal(RUN("out", "err", "annotate", "-q", "--depth", "2", "-o", path("r.pgn"),
			     SHORT),
			 0);
	assert_int_equal(RUN("out", "err", "annotate", "--depth", "2", "--resume", "-o",
			     path("r.pgn"), MATES),
			 0);
	assert_true(contains("err", "--resume: game 1 of " MATES " is not game 1 of the earlier output"));
	assert_true(contains("err", "3 annotated; "));
	assert_int_equal(count_of("r.pgn", "[XqkitAnnotate "), 3);
}

/* The earlier output holds every game, but in another order: none can be
 * copied, and those the workers left to be copied are analysed after all,
 * on any number of threads. */
static void resume_with_the_inputs_reordered_analyses_every_game(void **state)
{
	(void)state;
	assert_int_equal(RUN("out", "err", "annotate", "-q", "--depth", "2", "-o", path("fresh.pgn"),
			     MATES, SHORT),
			 0);
	for (int j = 1; j <= 2; j++) {
		char jobs[12];
		snprintf(jobs, sizeof(jobs), "%d", j);
		assert_int_equal(RUN("out", "err", "annotate", "-q", "--depth", "2", "--force", "-o",
				     path("r.pgn"), SHORT, MATES),
				 0);
		assert_int_equal(RUN("out", "err", "annotate", "--depth", "2", "-j", jobs, "--resume",
				     "-o", path("r.pgn"), MATES, SHORT),
				 0);
		assert_true(contains("err", "5 games from 2 files: 5 annotated; 22 positions"));
		assert_same_files("fresh.pgn", "r.pgn");
	}
}

static void a_full_disk_is_exit_status_3(void **state)
{
	(void)state;
	if (access("/dev/full", W_OK) != 0)
		TEST_SKIP("no /dev/full here");
	assert_int_equal(RUN("/dev/full", "err", "annotate", "--depth", "1", SHORT), 3);
	assert_true(contains("err", "cannot write '<stdout>'"));
	assert_int_equal(RUN("/dev/full", "err", "annotate", "--depth", "1", "-t", "ndjson", SHORT), 3);
	assert_true(contains("err", "cannot write '<stdout>'"));
}

/* ---- external engines: failures ------------------------------------------------ */

/* The flaky engine fails on position 2 of the run (after ply 1 of game 1)
 * as `how` says; every other position is analysed. */
static void engine_fails_once(const char *how, int status, const char *message)
{
	(void)status;
	fake_state("2", how);
	assert_int_equal(RUN("out.nd", "err", "annotate", "--engine", FAKE, "--engine-arg", "flaky",
			     "--engine-arg", "a0a1", "--engine-arg", "a9a8", "--timeout", "1000",
			     "-t", "ndjson", SHORT),
			 status);
	assert_true(contains("err", message));
	if (status) {
		assert_true(contains("err", "game 1, ply 1 (h2e2): position not analysed: engine 'Fake flaky' "));
		assert_int_equal(count_of("out.nd", "\"analysed\":false"), 1);
		assert_true(contains("err", "2 annotated (1 incompletely)"));
	}
	/* The run went on: game 2 is whole. */
	assert_true(contains("out.nd", "\"game\":2,\"marker\""));
	assert_int_equal(count_of("out.nd", "\"complete\":true"), status ? 1 : 2);
	assert_int_equal(count_of("out.nd", "\"score\":"), status ? 7 : 8);
	engines_gone();
}

static void a_crash_is_reported_and_the_restarted_engine_goes_on(void **state)
{
	(void)state;
	engine_fails_once("crash", 1, "was killed by signal 11");
	assert_true(contains("engine.log", "start 2 pid")); /* restarted */
}

static void a_hang_is_reported_and_the_restarted_engine_goes_on(void **state)
{
	(void)state;
	engine_fails_once("hang", 1, "did not answer 'go' (the search) within 1000 ms and was killed");
	assert_true(contains("engine.log", "start 2 pid"));
}

static void a_rejected_position_is_reported_and_the_run_goes_on(void **state)
{
	(void)state;
	engine_fails_once("reject", 1, "after the position was sent (did it reject the position?)");
	assert_true(contains("engine.log", "start 2 pid"));
}

static void a_lie_is_reported_and_the_run_goes_on(void **state)
{
	(void)state;
	engine_fails_once("lie", 1, "lied: its best move 'a0a5'");
}

static void a_malformed_answer_is_reported_and_the_run_goes_on(void **state)
{
	(void)state;
	engine_fails_once("malformed", 1, "sent a malformed best move: 'bestmove zz99'");
}

static void an_answer_without_score_is_reported_and_the_run_goes_on(void **state)
{
	(void)state;
	engine_fails_once("no-score", 1, "gave a best move but no score");
}

static void garbage_lines_are_warnings_and_the_position_is_analysed(void **state)
{
	(void)state;
	engine_fails_once("garbage", 0, "game 1, ply 1 (h2e2): engine 'Fake flaky' printed a line that means nothing");
}

static void an_engine_that_cannot_be_restarted_stops_the_run(void **state)
{
	(void)state;
	fake_state("2", "crash");
	setenv("FAKE_MAX_STARTS", "1", 1);
	assert_int_equal(RUN("out.pgn", "err", "annotate", "--engine", FAKE, "--engine-arg", "flaky",
			     "--engine-arg", "a0a1", "--engine-arg", "a9a8", "-o", path("o.pgn"),
			     SHORT, SHORT),
			 3);
	unsetenv("FAKE_MAX_STARTS");
	assert_true(contains("err", "game 1, ply 1 (h2e2): the engine could not be restarted"));
	assert_true(contains("err", "refusing to start (start 4)"));
	assert_true(contains("err", "the engine cannot be restarted any more: stopping"));
	assert_int_equal(access(path("o.pgn"), F_OK), -1);
	assert_int_equal(temp_files(), 0);
	assert_int_equal(engines_gone(), 4);
}

static void engines_that_crash_again_and_again_leave_no_zombie(void **state)
{
	char list[600];
	const char *files[16];
	const char *args[40];
	size_t n = 0, k = 0;
	long seen[2][64], z[64];
	int nseen[2] = {0, 0}, zombies_kept = 0;
	pid_t pid;

	(void)state;
	SKIP_WITHOUT_PROC();
	/* Two of every three positions crash: a restart each time. */
	for (int i = 1; i <= 200 && n < sizeof(list) - 8; i++)
		if (i % 3)
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%d", n ? "," : "", i);
	fake_state(list, "crash");
	for (int i = 0; i < 16; i++)
		files[i] = SHORT;
	args[k++] = "annotate";
	args[k++] = "-q";
	args[k++] = "--engine";
	args[k++] = FAKE;
	args[k++] = "--engine-arg";
	args[k++] = "flaky";
	args[k++] = "--engine-arg";
	args[k++] = "a0a1";
	args[k++] = "--engine-arg";
	args[k++] = "a9a8";
	args[k++] = "-j";
	args[k++] = "2";
	for (int i = 0; i < 16; i++)
		args[k++] = files[i];
	args[k] = NULL;
	pid = start("out.pgn", "err", args);
	/* A zombie may exist for an instant between an engine's death and the
	 * waitpid() that reaps it; one seen in three samples 100 ms apart
	 * leaked. */
	while (waitpid(pid, NULL, WNOHANG) == 0) {
		int nz = zombie_children(pid, z, 64);
		for (int i = 0; i < nz; i++) {
			int in0 = 0, in1 = 0;
			for (int j = 0; j < nseen[0]; j++)
				in0 |= seen[0][j] == z[i];
			for (int j = 0; j < nseen[1]; j++)
				in1 |= seen[1][j] == z[i];
			if (in0 && in1) {
				fprintf(stderr, "zombie %ld stays\n", z[i]);
				zombies_kept++;
			}
		}
		memcpy(seen[0], seen[1], (size_t)nseen[1] * sizeof(z[0]));
		nseen[0] = nseen[1];
		memcpy(seen[1], z, (size_t)nz * sizeof(z[0]));
		nseen[1] = nz;
		sleep_ms(100);
	}
	assert_int_equal(zombies_kept, 0);
	assert_true(engines_gone() >= 20);
}

static void html_output_is_the_page_convert_makes_of_the_pgn_output(void **state)
{
	(void)state;
	/* Games that have a Result tag: PGN gives one to every game ("*"
	 * when it has none), which the page then shows. */
	assert_int_equal(RUN("out", "err", "convert", "-q", "-t", "pgn", "-o", path("six.pgn"),
			     SIX_GAMES),
			 0);
	assert_int_equal(RUN("out", "err", "annotate", "-q", "--depth", "2", "-t", "html", "-o",
			     path("a.html"), path("six.pgn")),
			 0);
	assert_int_equal(RUN("out", "err", "annotate", "-q", "--depth", "2", "-o", path("a.pgn"),
			     path("six.pgn")),
			 0);
	assert_int_equal(RUN("out", "err", "convert", "-q", "-t", "html", "-o", path("b.html"),
			     path("a.pgn")),
			 0);
	assert_same_files("a.html", "b.html");
	/* A graph of the scores for each of the six games. */
	assert_int_equal(count_of("a.html", "<svg class=\"graph\""), 6);
	/* --resume reads its output back, which HTML is not made for. */
	assert_int_equal(RUN("out", "err", "annotate", "--resume", "-t", "html", "-o",
			     path("a.html"), SIX_GAMES),
			 2);
	assert_true(contains("err", "--resume reads back PGN or NDJSON"));
}

/* The graphs of `file` (an HTML page): every <svg class="graph" ...</svg>. */
static void graphs_of(const char *file, struct xq_buf *out)
{
	struct xq_buf b = XQ_BUF_INIT;

	slurp(path(file), &b);
	xq_buf_reset(out);
	for (const char *p = b.ptr; (p = strstr(p, "<svg class=\"graph\"")); ) {
		const char *e = strstr(p, "</svg>");
		assert_non_null(e);
		xq_buf_add(out, p, (size_t)(e - p));
		p = e;
	}
	xq_buf_release(&b);
}

static void eval_commands_carry_the_scores_of_annotate_comments(void **state)
{
	struct xq_buf a = XQ_BUF_INIT, e = XQ_BUF_INIT;

	(void)state;
	assert_int_equal(RUN("out", "err", "annotate", "-q", "--depth", "2", "-o", path("a.pgn"),
			     SIX_GAMES, MATES),
			 0);
	assert_int_equal(RUN("out", "err", "annotate", "-q", "--depth", "2", "--eval-command", "-o",
			     path("e.pgn"), SIX_GAMES, MATES),
			 0);
	assert_true(contains("e.pgn", "{[%eval "));
	assert_true(contains("e.pgn", "[%eval #"));
	assert_int_equal(count_of("e.pgn", "/2}"), 0);
	/* Read back, the scores draw the same graphs. */
	assert_int_equal(RUN("out", "err", "convert", "-q", "-t", "html", "-o", path("a.html"),
			     path("a.pgn")),
			 0);
	assert_int_equal(RUN("out", "err", "convert", "-q", "-t", "html", "-o", path("e.html"),
			     path("e.pgn")),
			 0);
	graphs_of("a.html", &a);
	graphs_of("e.html", &e);
	assert_true(a.len > 0);
	assert_int_equal(a.len, e.len);
	assert_memory_equal(a.ptr, e.ptr, a.len);
	xq_buf_release(&a);
	xq_buf_release(&e);
}

static void each_position_is_sent_with_its_history(void **state)
{
	(void)state;
	fake_state(NULL, NULL);
	assert_int_equal(RUN("out.pgn", "err", "annotate", "-q", "--engine", FAKE, "--engine-arg",
			     "flaky", "--engine-arg", "a0a1", "--engine-arg", "a9a8", SHORT),
			 0);
	/* No capture in these games: every move since the start is sent. */
	assert_true(contains("engine.log",
			     "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7 h0g2 i9h9\n"));
	assert_true(contains("engine.log",
			     "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves c3c4 b9c7\n"));
	assert_int_equal(count_of("engine.log", "\nucinewgame\n"), 10); /* hash cleared each time */
}

/* ---- the real Fairy-Stockfish ------------------------------------------------------ */

/* Returns 0 when the engine is not the pinned version (the caller skips). */
static int fairy_run(const char *fs, const char *protocol)
{
	char marker[64];

	snprintf(marker, sizeof(marker), "engine Fairy-Stockfish 11.1 LB 64 (%s)", protocol);
	assert_int_equal(RUN("fs1.nd", "err1", "annotate", "-q", "--engine", fs, "--protocol",
			     protocol, "--nodes", "3000", "-t", "ndjson", SHORT, MATES, REPETITION),
			 0);
	assert_int_equal(RUN("fs2.nd", "err2", "annotate", "-q", "--engine", fs, "--protocol",
			     protocol, "--nodes", "3000", "-t", "ndjson", "-j", "2", SHORT, MATES,
			     REPETITION),
			 0);
	assert_same_files("fs1.nd", "fs2.nd");
	if (!contains("fs1.nd", marker))
		return 0;
	/* Every position analysed: 7 games, 4 + 4 + 5 + 1 + 3 + 7 + 7 plies. */
	assert_int_equal(count_of("fs1.nd", "\"schema\":\"xqkit.eval/1\""), 31);
	assert_int_equal(count_of("fs1.nd", "\"score\":"), 31);
	assert_int_equal(count_of("fs1.nd", "\"complete\":true"), 7);
	/* The mates, and the mating moves. */
	assert_true(contains("fs1.nd", "\"ply\":1,\"move_number\":53,\"side\":\"red\",\"iccs\":\"d9d8\",\"move\":\"车六退一\",\"score\":\"#2\""));
	assert_true(contains("fs1.nd", "\"iccs\":\"f5e7\",\"move\":\"后马进五\",\"score\":\"#0\""));
	assert_true(contains("fs1.nd", "\"iccs\":\"d3e3\",\"move\":\"车４平５\",\"score\":\"#-0\""));
	/* The perpetual check, seen through the history: after red's 7th
	 * check black wins by the rules (Fairy-Stockfish 11.1 has the
	 * perpetual-check rule; engines.md 4.1). */
	assert_true(contains("fs1.nd", "\"game\":2,\"ply\":7,\"move_number\":4,\"side\":\"red\",\"iccs\":\"i9i8\",\"move\":\"车一退一\",\"score\":\"#-"));
	return 1;
}

static void fairy_stockfish_uci_annotation_is_reproducible(void **state)
{
	const char *fs = test_fairy();

	(void)state;
	SKIP_WITHOUT_FAIRY(fs);
	if (!fairy_run(fs, "uci"))
		TEST_SKIP("not Fairy-Stockfish 11.1 (the expectations are pinned to it)");
}

static void fairy_stockfish_ucci_annotation_is_reproducible(void **state)
{
	const char *fs = test_fairy();

	(void)state;
	SKIP_WITHOUT_FAIRY(fs);
	if (!fairy_run(fs, "ucci"))
		TEST_SKIP("not Fairy-Stockfish 11.1 (the expectations are pinned to it)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(the_number_of_jobs_changes_no_byte, setup, teardown),
		cmocka_unit_test_setup_teardown(the_same_run_gives_the_same_bytes, setup, teardown),
		cmocka_unit_test_setup_teardown(ctrl_c_leaves_no_output_and_no_temporary_file, setup,
						teardown),
		cmocka_unit_test_setup_teardown(sigterm_ends_like_ctrl_c_with_its_own_status, setup,
						teardown),
		cmocka_unit_test_setup_teardown(ctrl_c_stops_the_engines_and_leaves_none_behind, setup,
						teardown),
		cmocka_unit_test_setup_teardown(resuming_a_stopped_pgn_run_gives_the_bytes_of_one_run,
						setup, teardown),
		cmocka_unit_test_setup_teardown(resuming_a_stopped_ndjson_run_gives_the_bytes_of_one_run,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			resume_with_other_settings_analyses_again_but_keeps_the_file_whole, setup,
			teardown),
		cmocka_unit_test_setup_teardown(resume_with_other_inputs_says_so_and_analyses_them,
						setup, teardown),
		cmocka_unit_test_setup_teardown(resume_with_the_inputs_reordered_analyses_every_game,
						setup, teardown),
		cmocka_unit_test_setup_teardown(a_full_disk_is_exit_status_3, setup, teardown),
		cmocka_unit_test_setup_teardown(a_crash_is_reported_and_the_restarted_engine_goes_on,
						setup, teardown),
		cmocka_unit_test_setup_teardown(a_hang_is_reported_and_the_restarted_engine_goes_on,
						setup, teardown),
		cmocka_unit_test_setup_teardown(a_rejected_position_is_reported_and_the_run_goes_on,
						setup, teardown),
		cmocka_unit_test_setup_teardown(a_lie_is_reported_and_the_run_goes_on, setup, teardown),
		cmocka_unit_test_setup_teardown(a_malformed_answer_is_reported_and_the_run_goes_on,
						setup, teardown),
		cmocka_unit_test_setup_teardown(an_answer_without_score_is_reported_and_the_run_goes_on,
						setup, teardown),
		cmocka_unit_test_setup_teardown(garbage_lines_are_warnings_and_the_position_is_analysed,
						setup, teardown),
		cmocka_unit_test_setup_teardown(an_engine_that_cannot_be_restarted_stops_the_run, setup,
						teardown),
		cmocka_unit_test_setup_teardown(engines_that_crash_again_and_again_leave_no_zombie,
						setup, teardown),
		cmocka_unit_test_setup_teardown(html_output_is_the_page_convert_makes_of_the_pgn_output,
						setup, teardown),
		cmocka_unit_test_setup_teardown(eval_commands_carry_the_scores_of_annotate_comments, setup,
						teardown),
		cmocka_unit_test_setup_teardown(each_position_is_sent_with_its_history, setup, teardown),
		cmocka_unit_test_setup_teardown(fairy_stockfish_uci_annotation_is_reproducible, setup,
						teardown),
		cmocka_unit_test_setup_teardown(fairy_stockfish_ucci_annotation_is_reproducible, setup,
						teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
