/*
 * test_new_formats_verify.c: `xqkit convert --verify` from every format
 * issue 36 added or made writable (PFC, text exports, FEN lists, CBR,
 * CBL) to every format xqkit both writes and reads, on the shared
 * corpus's samples: every game written reads back as itself (what each
 * format cannot hold is reported as a loss, and --verify allows for it),
 * and the command ends with status 0.  Each is written one file a game
 * (-o DIR/), and, for the formats that hold many, also all in one file.
 */
#include "testutil.h"

#include <sys/wait.h>

#include "buf.h"

static const char *const inputs[] = {
	"pgn/zfdang__chinese-chess-fish-android/棋谱/sample_31_pengfei.pfc",
	"pgn/zfdang__chinese-chess-fish-android/棋谱/sample_04x.txt",
	"pgn/zfdang__chinese-chess-fish-android/棋谱/sample_12x_ourgame-chess.txt",
	"pgn/zfdang__chinese-chess-fish-android/棋谱/sample_41_fen.fen",
	"pgn/zfdang__chinese-chess-fish-android/棋谱/sample_21_MeiHuaPu.cbl",
	"pgn/walker8088__cchess/tests/data/test.cbr",
	"pgn/walker8088__cchess/tests/data/1989年龙化杯象棋名师邀请赛35局.CBL",
	"pgn/maksimKorzh__wukong-xiangqi/puzzle_generator/games.pgn",
};

static const char *const targets[] = {"pgn", "xqf", "dhtmlxq", "cbf", "ndjson", "cbr", "cbl", "pfc"};
/* Those that hold many games in one file. */
static const char *const multi[] = {"pgn", "dhtmlxq", "ndjson", "cbl"};

/* Run `cmd`: its status, its output in `out`. */
static int run(const char *cmd, struct xq_buf *out)
{
	char buf[4096];
	size_t n;
	FILE *p = popen(cmd, "r");

	assert_non_null(p);
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		xq_buf_add(out, buf, n);
	xq_buf_addc(out, '\0');
	return WEXITSTATUS(pclose(p));
}

/* The value of `key` in the summary line of `text` (-1 if absent). */
static long summary_value(const char *text, const char *key)
{
	const char *s = strstr(text, "\"schema\":\"xqkit.summary/1\"");
	char want[64];

	snprintf(want, sizeof(want), "\"%s\":", key);
	s = s ? strstr(s, want) : NULL;
	return s ? strtol(s + strlen(want), NULL, 10) : -1;
}

/* Convert input i to `target` into `to` (a folder or a file) with --verify; fail unless all verify. */
static void convert_verified(const char *xqkit, const char *shared, size_t i, const char *target,
			     const char *to)
{
	struct xq_buf out = XQ_BUF_INIT;
	char cmd[8192];
	long written, verified, failed;
	int status;

	snprintf(cmd, sizeof(cmd), "'%s' convert -q --verify --format ndjson -t %s -o '%s' '%s/corpus/%s' 2>&1",
		 xqkit, target, to, shared, inputs[i]);
	status = run(cmd, &out);
	written = summary_value(out.ptr, "written");
	verified = summary_value(out.ptr, "verified");
	failed = summary_value(out.ptr, "verify_failed");
	if (status != 0 || written <= 0 || verified != written || failed != 0)
		fail_msg("%s to %s: status %d, %ld written, %ld verified, %ld failed:\n%s", inputs[i],
			 to, status, written, verified, failed, out.ptr);
	xq_buf_release(&out);
}

static void every_new_format_converts_to_every_writable_one_with_verify(void **state)
{
	const char *xqkit = getenv("XQKIT"), *shared = test_shared_dir();
	char dir[512], to[700];
	int runs = 0;

	(void)state;
	if (!xqkit)
		TEST_SKIP("XQKIT is not set (make check sets it)");
	if (!shared)
		TEST_SKIP("no shared corpus ($XQ_SHARED or ../shared)");
	assert_int_equal(test_tmpdir(dir, sizeof(dir), "verify"), 0);
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		for (size_t k = 0; k < sizeof(targets) / sizeof(targets[0]); k++, runs++) {
			snprintf(to, sizeof(to), "%s/%zu-%s/", dir, i, targets[k]);
			convert_verified(xqkit, shared, i, targets[k], to);
		}
		for (size_t k = 0; k < sizeof(multi) / sizeof(multi[0]); k++, runs++) {
			snprintf(to, sizeof(to), "%s/%zu.%s", dir, i, multi[k]);
			convert_verified(xqkit, shared, i, multi[k], to);
		}
	}
	assert_int_equal(test_rmtree(dir), 0);
	assert_int_equal(runs, 8 * 12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_new_format_converts_to_every_writable_one_with_verify),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
