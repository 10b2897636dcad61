/*
 * test_engine.c: the external engine client.  The line parser on its own;
 * the client against tests/engines/fake-engine.sh, which crashes, hangs,
 * lies and prints garbage on request; and against the real Fairy-Stockfish
 * in UCI and UCCI mode at a fixed node count (skipped with a message when
 * it is not installed: apt-get install fairy-stockfish).
 */
#include "testutil.h"

#include "buf.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "position.h"
#include "diagnostic.h"
#include "engine.h"
#include "movegen.h"
#include "search.h"
#include "utf8.h"

#define FAKE "tests/engines/fake-engine.sh"
#define PKB_B1_FEN "2bak4/9/3a5/p2Np3p/3n1P3/3pc3P/P4r1c1/B2CC2R1/4A4/3AK1B2 b - - 0 1"

static xqi_move mv(const char *iccs)
{
	return XQI_MOVE(XQI_SQ(iccs[0] - 'a', iccs[1] - '0'), XQI_SQ(iccs[2] - 'a', iccs[3] - '0'));
}

static struct xqi_position pos(const char *fen)
{
	struct xqi_position b;
	struct xq_diagnostic d;

	xqi_diagnostic_init(&d);
	if (xqi_position_from_fen(&b, fen, strlen(fen), XQI_FEN_LENIENT_PLACEMENT, &d))
		fail_msg("bad test FEN '%s': %s", fen, d.msg);
	return b;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* No child of the test process is left, running or zombie. */
static void assert_no_children(void)
{
	errno = 0;
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

struct warnings {
	int count;
	struct xq_diagnostic last;
};

static void collect(const struct xq_diagnostic *d, void *payload)
{
	struct warnings *w = payload;
	w->count++;
	w->last = *d;
}

/* A log file for the fake engine ($FAKE_LOG), emptied. */
static char log_path[4096];

static void use_log(void)
{
	int fd = test_tmpfile(log_path, sizeof(log_path), "fake-log");
	assert_true(fd >= 0);
	close(fd);
	setenv("FAKE_LOG", log_path, 1);
}

static void drop_log(void)
{
	unsetenv("FAKE_LOG");
	unlink(log_path);
}

static int log_has(const char *text)
{
	char line[4096];
	FILE *f = fopen(log_path, "r");
	int found = 0;
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, text) != NULL;
	fclose(f);
	return found;
}

/* Fail with the engine's message when `expr` is not 0. */
#define ASSERT_OK(f, expr)                                                  \
	do {                                                                \
		int rc_ = (expr);                                           \
		if (rc_)                                                    \
			fail_msg("%s returned %d: %s", #expr, rc_, (f)->d.msg); \
	} while (0)

struct fake {
	struct xqi_engine *e;
	struct xqi_engine_opts o;
	char *args[2];
	struct xq_diagnostic d;
	struct warnings w;
	struct xqi_sink sink;
};

/* The engine of the running test, freed by the teardown when a failed
 * assertion left the test early, so one failure does not leave a child
 * behind for the next test's checks. */
static struct xqi_engine **current;
static struct xqi_engine *second_engine; /* a test's other engine */

static void done(struct fake *f)
{
	xqi_engine_free(f->e);
	f->e = NULL;
	current = NULL;
}

static int teardown(void **state)
{
	(void)state;
	if (current && *current)
		xqi_engine_free(*current);
	current = NULL;
	xqi_engine_free(second_engine);
	second_engine = NULL;
	unsetenv("FAKE_BEST");
	unsetenv("FAKE_SCORE");
	unsetenv("FAKE_LOG");
	signal(SIGCHLD, SIG_DFL);
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	return 0;
}

/* Options for the fake engine in `mode`: answers within 3 s, warnings
 * collected; the test adjusts them, then calls launch(). */
static void prepare_fake(struct fake *f, const char *mode, enum xqi_protocol proto)
{
	memset(f, 0, sizeof(*f));
	xqi_engine_opts_init(&f->o);
	f->args[0] = (char *)mode;
	f->args[1] = NULL;
	f->o.path = FAKE;
	f->o.args = f->args;
	f->o.protocol = proto;
	f->o.timeout_ms = 3000;
	f->o.search_timeout_ms = 3000;
	f->sink.report = collect;
	f->sink.payload = &f->w;
	f->o.warnings = &f->sink;
	xqi_diagnostic_init(&f->d);
	current = &f->e;
}

static int launch(struct fake *f)
{
	return xqi_engine_new(&f->e, &f->o, &f->d);
}

/*
 * Start the fake engine in `mode`.  `timeout` bounds the search; the
 * handshake and the other answers get at least 3 s, so a loaded machine
 * cannot turn a slow start into a false failure.
 */
static int start_fake(struct fake *f, const char *mode, enum xqi_protocol proto, uint32_t timeout)
{
	prepare_fake(f, mode, proto);
	f->o.timeout_ms = timeout < 3000 ? 3000 : timeout;
	f->o.search_timeout_ms = timeout;
	return launch(f);
}

static int analyse_start(struct fake *f, struct xqi_analysis *a)
{
	struct xqi_position b;
	struct xqi_limit lim = {1, 0, 0};

	xqi_position_start(&b);
	xqi_diagnostic_init(&f->d);
	f->d.game = 7;
	f->d.ply = 3;
	return xqi_engine_analyse(f->e, a, &b, NULL, 0, &lim, &f->d);
}

/* ---- the line parser ---------------------------------------------------- */

static void parse_reads_uci_info_with_score_bound_and_pv(void **state)
{
	struct xqi_engine_line l;
	const char *s = "info depth 12 seldepth 17 multipv 1 score cp -35 lowerbound nodes 300159 "
			"nps 1000 tbhits 0 time 501 pv h7c7 e2e6 b9c7";

	(void)state;
	xqi_engine_parse_line(&l, s, strlen(s), XQI_PROTOCOL_UCI, 0);
	assert_int_equal(l.kind, XQI_LINE_INFO);
	assert_int_equal(l.depth, 12);
	assert_int_equal(l.seldepth, 17);
	assert_true(l.has_score);
	assert_int_equal(l.score.kind, XQ_EVAL_CP);
	assert_int_equal(l.score.value, -35);
	assert_int_equal(l.bound, 1);
	assert_int_equal(l.nodes, 300159);
	assert_int_equal(l.time_ms, 501);
	assert_int_equal(l.pv_len, 3);
	assert_int_equal(l.pv[0], mv("h7c7"));
	assert_int_equal(l.pv[2], mv("b9c7"));
}

static void parse_translates_fairy_stockfish_ranks_1_to_10(void **state)
{
	struct xqi_engine_line l;
	const char *s = "info depth 3 score mate -2 pv b10c8 h3h10 a10a9";
	const char *b = "bestmove h3e3 ponder b10c8";

	(void)state;
	xqi_engine_parse_line(&l, s, strlen(s), XQI_PROTOCOL_UCI, 1);
	assert_int_equal(l.kind, XQI_LINE_INFO);
	assert_int_equal(l.score.kind, XQ_EVAL_MATED);
	assert_int_equal(l.score.value, 2);
	assert_int_equal(l.pv_len, 3);
	assert_int_equal(l.pv[0], mv("b9c7"));
	assert_int_equal(l.pv[1], mv("h2h9"));
	assert_int_equal(l.pv[2], mv("a9a8"));
	xqi_engine_parse_line(&l, b, strlen(b), XQI_PROTOCOL_UCI, 1);
	assert_int_equal(l.kind, XQI_LINE_BESTMOVE);
	assert_int_equal(l.move, mv("h2e2"));
	/* Rank 0 does not exist in 1-10 numbering. */
	xqi_engine_parse_line(&l, "bestmove h0e0", 13, XQI_PROTOCOL_UCI, 1);
	assert_true(l.bad_move);
}

static void parse_converts_ucci_bare_scores(void **state)
{
	struct xqi_engine_line l;

	(void)state;
	xqi_engine_parse_line(&l, "info depth 9 score 123 pv h2e2", 30, XQI_PROTOCOL_UCCI, 0);
	assert_int_equal(l.score.kind, XQ_EVAL_CP);
	assert_int_equal(l.score.value, 123);
	/* 10000 - 9995 = 5 plies: the side to move mates on its 3rd move. */
	xqi_engine_parse_line(&l, "info depth 9 score 9995", 23, XQI_PROTOCOL_UCCI, 0);
	assert_int_equal(l.score.kind, XQ_EVAL_MATE);
	assert_int_equal(l.score.value, 3);
	/* -(10000 - 4): mated after 2 of its own moves. */
	xqi_engine_parse_line(&l, "info depth 9 score -9996", 24, XQI_PROTOCOL_UCCI, 0);
	assert_int_equal(l.score.kind, XQ_EVAL_MATED);
	assert_int_equal(l.score.value, 2);
	/* A win by the repetition rules, 9900 - 3 plies. */
	xqi_engine_parse_line(&l, "info score 9897", 15, XQI_PROTOCOL_UCCI, 0);
	assert_int_equal(l.score.kind, XQ_EVAL_MATE);
	assert_int_equal(l.score.value, 2);
}

static void parse_marks_unknown_and_malformed_lines_as_garbage(void **state)
{
	struct xqi_engine_line l;
	const char *bad[] = {
		"hello there", "info depth x", "info score cp", "info score mate abc",
		"uciok please", "info depth 3 \x01", "info string \xff\xfe", "readyok 1",
		"info score cp 5 currmove z9",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		xqi_engine_parse_line(&l, bad[i], strlen(bad[i]), XQI_PROTOCOL_UCI, 0);
		assert_int_equal(l.kind, XQI_LINE_GARBAGE);
	}
	xqi_engine_parse_line(&l, "", 0, XQI_PROTOCOL_UCI, 0);
	assert_int_equal(l.kind, XQI_LINE_EMPTY);
	/* Unknown keywords inside an info line are skipped, not fatal. */
	xqi_engine_parse_line(&l, "info depth 4 foo score cp 7", 27, XQI_PROTOCOL_UCI, 0);
	assert_int_equal(l.kind, XQI_LINE_INFO);
	assert_int_equal(l.score.value, 7);
}

static void parse_reads_bestmove_none_and_nobestmove(void **state)
{
	struct xqi_engine_line l;

	(void)state;
	xqi_engine_parse_line(&l, "bestmove (none)", 15, XQI_PROTOCOL_UCI, 1);
	assert_int_equal(l.kind, XQI_LINE_BESTMOVE);
	assert_int_equal(l.move, 0);
	assert_false(l.bad_move);
	xqi_engine_parse_line(&l, "nobestmove", 10, XQI_PROTOCOL_UCCI, 0);
	assert_int_equal(l.kind, XQI_LINE_BESTMOVE);
	assert_int_equal(l.move, 0);
	xqi_engine_parse_line(&l, "bestmove", 8, XQI_PROTOCOL_UCI, 0);
	assert_true(l.bad_move);
	xqi_engine_parse_line(&l, "bestmove h2e2 draw\r", 19, XQI_PROTOCOL_UCCI, 0);
	assert_int_equal(l.move, mv("h2e2"));
}

static void parse_reads_option_names_in_both_dialects(void **state)
{
	struct xqi_engine_line l;
	const char *uci = "option name Clear Hash type button";
	const char *var = "option name UCI_Variant type combo default chess var chess var xiangqi";
	const char *ucci = "option usemillisec type check default false";

	(void)state;
	xqi_engine_parse_line(&l, uci, strlen(uci), XQI_PROTOCOL_UCI, 0);
	assert_int_equal(l.kind, XQI_LINE_OPTION);
	assert_int_equal(l.text_len, 10);
	assert_memory_equal(l.text, "Clear Hash", 10);
	xqi_engine_parse_line(&l, var, strlen(var), XQI_PROTOCOL_UCI, 0);
	assert_true(l.has_xiangqi);
	xqi_engine_parse_line(&l, ucci, strlen(ucci), XQI_PROTOCOL_UCCI, 0);
	assert_int_equal(l.kind, XQI_LINE_OPTION);
	assert_int_equal(l.text_len, 11);
	assert_memory_equal(l.text, "usemillisec", 11);
}

static void move_text_writes_ranks_from_0_or_1(void **state)
{
	char t[7];

	(void)state;
	assert_int_equal(xqi_engine_move_text(mv("h2e2"), 0, t), 4);
	assert_string_equal(t, "h2e2");
	assert_int_equal(xqi_engine_move_text(mv("h2e2"), 1, t), 4);
	assert_string_equal(t, "h3e3");
	assert_int_equal(xqi_engine_move_text(mv("b9c7"), 1, t), 5);
	assert_string_equal(t, "b10c8");
	xqi_engine_move_text(mv("a9b9"), 1, t);
	assert_string_equal(t, "a10b10");
}

static void go_text_gives_the_limits_each_dialect_takes(void **state)
{
	struct xqi_limit lim = {8, 5000, 300};
	struct xq_buf b = XQ_BUF_INIT;
	int emulate = -1;

	(void)state;
	assert_int_equal(xqi_engine_go_text(&b, XQI_PROTOCOL_UCI, &lim, &emulate), 0);
	assert_string_equal(b.ptr, "go depth 8 nodes 5000 movetime 300");
	assert_int_equal(emulate, 0);
	xq_buf_reset(&b);
	assert_int_equal(xqi_engine_go_text(&b, XQI_PROTOCOL_UCCI, &lim, &emulate), 0);
	assert_string_equal(b.ptr, "go depth 8");
	assert_int_equal(emulate, 1);
	xq_buf_reset(&b);
	lim.depth = 0;
	lim.nodes = 0;
	assert_int_equal(xqi_engine_go_text(&b, XQI_PROTOCOL_UCCI, &lim, &emulate), 0);
	assert_string_equal(b.ptr, "go infinite");
	xq_buf_release(&b);
}

/* Under memory pressure the command is refused, never cut short: a bare
 * "go" would start a search without end.  The failure is injected as a
 * buffer already in error (its sticky error). */
static void go_text_in_a_failed_buffer_is_refused_not_cut_short(void **state)
{
	struct xqi_limit lim = {8, 0, 0};
	struct xq_buf b = XQ_BUF_INIT;
	int emulate;

	(void)state;
	b.err = XQ_ENOMEM;
	assert_int_equal(xqi_engine_go_text(&b, XQI_PROTOCOL_UCI, &lim, &emulate), XQ_ENOMEM);
	assert_int_equal(b.len, 0);
	b.err = XQ_ENOMEM;
	assert_int_equal(xqi_engine_go_text(&b, XQI_PROTOCOL_UCCI, &lim, &emulate), XQ_ENOMEM);
	xq_buf_release(&b);
}

static void option_parse_splits_at_the_first_equals_sign(void **state)
{
	struct xqi_engine_option o;
	struct xq_diagnostic d;
	char buf[64];

	(void)state;
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_engine_option_parse(&o, buf, sizeof(buf), "Hash=64", &d), 0);
	assert_string_equal(o.name, "Hash");
	assert_string_equal(o.value, "64");
	assert_int_equal(xqi_engine_option_parse(&o, buf, sizeof(buf), "EvalFile=a=b.nnue", &d), 0);
	assert_string_equal(o.value, "a=b.nnue");
	assert_int_equal(xqi_engine_option_parse(&o, buf, sizeof(buf), "Hash", &d), XQ_EPARSE);
	assert_int_equal(xqi_engine_option_parse(&o, buf, sizeof(buf), "=1", &d), XQ_EPARSE);
	assert_int_equal(xqi_engine_option_parse(&o, buf, sizeof(buf), "A=1\nquit", &d), XQ_EPARSE);
}

/* ---- the client against fake engines ------------------------------------ */

static void uci_engine_is_detected_and_answers(void **state)
{
	struct fake f;
	struct xqi_analysis a;

	(void)state;
	ASSERT_OK(&f, start_fake(&f, "uci", XQI_PROTOCOL_AUTO, 3000));
	assert_int_equal(xqi_engine_protocol(f.e), XQI_PROTOCOL_UCI);
	assert_int_equal(xqi_engine_rank_base(f.e), 0);
	assert_string_equal(xqi_engine_name(f.e), "Fake uci");
	ASSERT_OK(&f, analyse_start(&f, &a));
	assert_int_equal(a.best, mv("h2e2"));
	assert_int_equal(a.score.kind, XQ_EVAL_CP);
	assert_int_equal(a.score.value, 12);
	assert_int_equal(a.depth, 5);
	assert_int_equal(a.seldepth, 7);
	assert_int_equal(a.nodes, 1234);
	assert_int_equal(a.pv_len, 1);
	assert_int_equal(a.side, XQI_RED);
	assert_int_equal(xqi_engine_garbage_count(f.e), 0);
	done(&f);
	assert_no_children();
}

static void variant_engine_gets_xiangqi_and_ranks_1_to_10_both_ways(void **state)
{
	struct fake f;
	struct xqi_analysis a;
	struct xqi_position b;
	struct xqi_limit lim = {0, 5000, 0};
	xqi_move hist[2] = {mv("h2e2"), mv("h9g7")};

	(void)state;
	use_log();
	setenv("FAKE_BEST", "h1g3", 1); /* the horse h0 to g2 in 0-9 ranks */
	ASSERT_OK(&f, start_fake(&f, "fsuci", XQI_PROTOCOL_AUTO, 3000));
	unsetenv("FAKE_BEST");
	assert_int_equal(xqi_engine_rank_base(f.e), 1);
	xqi_position_start(&b);
	ASSERT_OK(&f, xqi_engine_analyse(f.e, &a, &b, hist, 2, &lim, &f.d));
	assert_int_equal(a.best, mv("h0g2"));
	assert_true(log_has("setoption name UCI_Variant value xiangqi"));
	assert_true(log_has("ucinewgame"));
	assert_true(log_has("moves h3e3 h10g8"));
	assert_true(log_has("go nodes 5000"));
	done(&f);
	drop_log();
	assert_no_children();
}

/* Start the fake with user options (as --engine-option gives them). */
static int start_fake_with_options(struct fake *f, const char *mode, enum xqi_protocol proto,
				   const struct xqi_engine_option *opt, size_t n, enum xqi_rank_base ranks)
{
	prepare_fake(f, mode, proto);
	f->o.options = opt;
	f->o.noptions = n;
	f->o.rank_base = ranks;
	return launch(f);
}

static void user_options_are_sent_in_each_dialect(void **state)
{
	struct fake f;
	const struct xqi_engine_option opt[] = {{"Threads", "2"}, {"Hash", "64"}, {"Clear Hash", ""}};

	(void)state;
	use_log();
	ASSERT_OK(&f, start_fake_with_options(&f, "uci", XQI_PROTOCOL_UCI, opt, 3, XQI_RANKS_AUTO));
	assert_true(log_has("setoption name Threads value 2"));
	assert_false(log_has("setoption name Threads value 1")); /* the user's value wins */
	assert_true(log_has("setoption name Hash value 64"));
	assert_true(log_has("setoption name Clear Hash"));
	/* Hash is not in the fake's list: sent, with a warning. */
	assert_int_equal(f.w.count, 1);
	assert_non_null(strstr(f.w.last.msg, "'Hash'"));
	done(&f);
	drop_log();
	use_log();
	ASSERT_OK(&f, start_fake_with_options(&f, "ucci", XQI_PROTOCOL_UCCI, opt, 2, XQI_RANKS_AUTO));
	assert_true(log_has("setoption Threads 2"));
	assert_true(log_has("setoption Hash 64"));
	done(&f);
	drop_log();
	assert_no_children();
}

static void forced_rank_numbering_is_used(void **state)
{
	struct fake f;
	struct xqi_analysis a;
	struct xqi_position b;
	struct xqi_limit lim = {1, 0, 0};
	xqi_move hist[1] = {mv("h2e2")};

	(void)state;
	use_log();
	setenv("FAKE_BEST", "h10g8", 1);
	ASSERT_OK(&f, start_fake_with_options(&f, "uci", XQI_PROTOCOL_UCI, NULL, 0, XQI_RANKS_1));
	assert_int_equal(xqi_engine_rank_base(f.e), 1);
	xqi_position_start(&b);
	ASSERT_OK(&f, xqi_engine_analyse(f.e, &a, &b, hist, 1, &lim, &f.d));
	assert_int_equal(a.best, mv("h9g7"));
	assert_true(log_has("moves h3e3"));
	done(&f);
	drop_log();
}

static void ucci_only_engine_is_found_after_uci_fails(void **state)
{
	struct fake f;
	struct xqi_analysis a;

	(void)state;
	use_log();
	setenv("FAKE_SCORE", "9997", 1);
	ASSERT_OK(&f, start_fake(&f, "ucci", XQI_PROTOCOL_AUTO, 3000));
	assert_int_equal(xqi_engine_protocol(f.e), XQI_PROTOCOL_UCCI);
	assert_int_equal(xqi_engine_start_count(f.e), 2);
	ASSERT_OK(&f, analyse_start(&f, &a));
	unsetenv("FAKE_SCORE");
	assert_int_equal(a.score.kind, XQ_EVAL_MATE);
	assert_int_equal(a.score.value, 2);
	/* UCCI syntax for options and for clearing the hash. */
	assert_true(log_has("setoption threads 1"));
	assert_true(log_has("setoption newgame"));
	/* A restart goes straight to ucci: one more start, not two. */
	assert_int_equal(xqi_engine_restart(f.e, &f.d), 0);
	assert_int_equal(xqi_engine_start_count(f.e), 3);
	done(&f);
	drop_log();
	assert_no_children();
}

static void forced_protocol_is_used_without_probing(void **state)
{
	struct fake f;

	(void)state;
	ASSERT_OK(&f, start_fake(&f, "ucci", XQI_PROTOCOL_UCCI, 3000));
	assert_int_equal(xqi_engine_start_count(f.e), 1);
	done(&f);
	assert_int_equal(start_fake(&f, "ucci", XQI_PROTOCOL_UCI, 3000), XQ_EENGINE);
	assert_int_equal(f.d.code, XQI_D_ENGINE);
	done(&f);
	assert_no_children();
}

static void engine_that_cannot_start_is_an_error(void **state)
{
	struct xqi_engine *e = NULL;
	struct xqi_engine_opts o;
	struct xq_diagnostic d;

	(void)state;
	xqi_engine_opts_init(&o);
	o.path = "tests/engines/no-such-engine";
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_engine_new(&e, &o, &d), XQ_EENGINE);
	assert_int_equal(d.code, XQI_D_ENGINE);
	assert_non_null(strstr(d.msg, "cannot be started"));
	assert_non_null(e);
	assert_int_equal(xqi_engine_pid(e), -1);
	xqi_engine_free(e);
	assert_no_children();
}

static void engine_that_exits_at_once_is_an_error_with_its_message(void **state)
{
	struct fake f;

	(void)state;
	assert_int_equal(start_fake(&f, "exit-at-once", XQI_PROTOCOL_UCI, 3000), XQ_EENGINE);
	assert_non_null(strstr(f.d.msg, "exited with status 3"));
	assert_non_null(strstr(f.d.msg, "cannot open my network file"));
	done(&f);
	assert_no_children();
}

static void silent_engine_times_out_in_the_handshake(void **state)
{
	struct fake f;
	double t0 = now_s();

	(void)state;
	prepare_fake(&f, "silent", XQI_PROTOCOL_AUTO);
	f.o.timeout_ms = 300;
	assert_int_equal(launch(&f), XQ_EENGINE);
	assert_non_null(strstr(f.d.msg, "neither"));
	/* Two handshakes of 300 ms, nowhere near a hang. */
	assert_true(now_s() - t0 < 3.0);
	done(&f);
	assert_no_children();
}

static void crash_during_search_is_reported_and_restart_works(void **state)
{
	struct fake f;
	struct xqi_analysis a;

	(void)state;
	ASSERT_OK(&f, start_fake(&f, "crash-on-go", XQI_PROTOCOL_UCI, 3000));
	assert_int_equal(analyse_start(&f, &a), XQ_EENGINE);
	assert_int_equal(f.d.code, XQI_D_ENGINE);
	assert_non_null(strstr(f.d.msg, "signal 11"));
	assert_non_null(strstr(f.d.msg, "during the search"));
	/* The caller's game and ply stay in the diagnostic. */
	assert_int_equal(f.d.game, 7);
	assert_int_equal(f.d.ply, 3);
	assert_int_equal(xqi_engine_pid(f.e), -1);
	assert_no_children(); /* reaped at once */
	assert_int_equal(analyse_start(&f, &a), XQ_EENGINE);
	assert_non_null(strstr(f.d.msg, "not running"));
	assert_int_equal(xqi_engine_restart(f.e, &f.d), 0);
	assert_true(xqi_engine_pid(f.e) > 0);
	done(&f);
	assert_no_children();
}

/* A program that ignores SIGCHLD has its children reaped by the kernel;
 * the client must notice the exit all the same, and signal nobody else. */
static void crash_is_reported_when_sigchld_is_ignored(void **state)
{
	struct fake f;
	struct xqi_analysis a;
	struct sigaction ign, old;
	double t0;

	(void)state;
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGCHLD, &ign, &old);
	ASSERT_OK(&f, start_fake(&f, "crash-on-go", XQI_PROTOCOL_UCI, 3000));
	t0 = now_s();
	assert_int_equal(analyse_start(&f, &a), XQ_EENGINE);
	assert_true(now_s() - t0 < 3.0);
	assert_int_equal(xqi_engine_pid(f.e), -1);
	ASSERT_OK(&f, xqi_engine_restart(f.e, &f.d));
	done(&f);
	sigaction(SIGCHLD, &old, NULL);
	assert_no_children();
}

static void hung_search_is_killed_after_the_timeout(void **state)
{
	struct fake f;
	struct xqi_analysis a;
	double t0;

	(void)state;
	ASSERT_OK(&f, start_fake(&f, "hang-on-go", XQI_PROTOCOL_UCI, 400));
	t0 = now_s();
	assert_int_equal(analyse_start(&f, &a), XQ_EENGINE);
	assert_true(now_s() - t0 < 3.0);
	assert_non_null(strstr(f.d.msg, "did not answer"));
	assert_int_equal(xqi_engine_pid(f.e), -1);
	assert_no_children();
	done(&f);
}

static void garbage_lines_are_counted_reported_and_ignored(void **state)
{
	struct fake f;
	struct xqi_analysis a;

	(void)state;
	ASSERT_OK(&f, start_fake(&f, "garbage", XQI_PROTOCOL_UCI, 3000));
	ASSERT_OK(&f, analyse_start(&f, &a));
	assert_int_equal(a.best, mv("h2e2"));
	assert_int_equal(a.depth, 3);
	assert_int_equal(xqi_engine_garbage_count(f.e), 3);
	assert_int_equal(f.w.count, 3);
	assert_int_equal(f.w.last.severity, XQ_SEVERITY_WARNING);
	assert_int_equal(f.w.last.game, 7);
	assert_int_equal(f.w.last.ply, 3);
	/* The message stays printable ASCII whatever the engine sent. */
	assert_int_equal(xq_utf8_check(f.w.last.msg, strlen(f.w.last.msg)), strlen(f.w.last.msg));
	done(&f);
	assert_no_children();
}

static void illegal_best_move_is_a_lie(void **state)
{
	struct fake f;
	struct xqi_analysis a;

	(void)state;
	ASSERT_OK(&f, start_fake(&f, "lie", XQI_PROTOCOL_UCI, 3000));
	assert_int_equal(analyse_start(&f, &a), XQ_EENGINE);
	assert_non_null(strstr(f.d.msg, "lied"));
	assert_non_null(strstr(f.d.msg, "a0a5"));
	assert_int_equal(a.best, 0);
	/* A liar is still running and in step: it can be asked again. */
	assert_true(xqi_engine_pid(f.e) > 0);
	assert_int_equal(analyse_start(&f, &a), XQ_EENGINE);
	done(&f);
	assert_no_children();
}

static void malformed_best_move_is_an_error(void **state)
{
	struct fake f;
	struct xqi_analysis a;

	(void)state;
	ASSERT_OK(&f, start_fake(&f, "malformed", XQI_PROTOCOL_UCI, 3000));
	assert_int_equal(analyse_start(&f, &a), XQ_EENGINE);
	assert_non_null(strstr(f.d.msg, "malformed best move"));
	done(&f);
}

static void best_move_without_score_is_an_error(void **state)
{
	struct fake f;
	struct xqi_analysis a;

	(void)state;
	ASSERT_OK(&f, start_fake(&f, "no-score", XQI_PROTOCOL_UCI, 3000));
	assert_int_equal(analyse_start(&f, &a), XQ_EENGINE);
	assert_non_null(strstr(f.d.msg, "no score"));
	done(&f);
}

static void engine_exiting_on_a_position_is_reported_as_rejection(void **state)
{
	struct fake f;
	struct xqi_analysis a;

	(void)state;
	ASSERT_OK(&f, start_fake(&f, "reject-fen", XQI_PROTOCOL_UCI, 3000));
	assert_int_equal(analyse_start(&f, &a), XQ_EENGINE);
	assert_non_null(strstr(f.d.msg, "exited with status 1"));
	assert_non_null(strstr(f.d.msg, "reject the position"));
	assert_non_null(strstr(f.d.msg, "CRITICAL ERROR"));
	assert_no_children();
	assert_int_equal(xqi_engine_restart(f.e, &f.d), 0);
	done(&f);
	assert_no_children();
}

static void position_is_validated_before_sending(void **state)
{
	struct fake f;
	struct xqi_analysis a;
	struct xqi_limit lim = {1, 0, 0};
	/* An elephant on a point it can never reach: fine for the built-in
	 * engine (lenient placement), but never sent to an external one. */
	struct xqi_position b = pos("4k4/9/9/9/9/9/9/9/4B4/4K4 w");

	(void)state;
	use_log();
	ASSERT_OK(&f, start_fake(&f, "uci", XQI_PROTOCOL_UCI, 3000));
	assert_int_equal(xqi_engine_analyse(f.e, &a, &b, NULL, 0, &lim, &f.d), XQ_EILLEGAL);
	assert_int_equal(f.d.code, XQI_D_BAD_FEN);
	assert_non_null(strstr(f.d.msg, "not sent"));
	assert_false(log_has("position"));
	done(&f);
	drop_log();
}

static void history_is_sent_from_the_last_capture(void **state)
{
	struct fake f;
	struct xqi_analysis a;
	struct xqi_position b;
	struct xqi_limit lim = {2, 0, 0};
	xqi_move hist[] = {mv("h2e2"), mv("h9g7"), mv("h0g2"), mv("i9h9"), mv("i0h0"), mv("b9c7")};
	char fen[XQ_FEN_SIZE], expect[XQ_FEN_SIZE + 64];

	(void)state;
	use_log();
	setenv("FAKE_BEST", "a0a1", 1); /* legal in both positions below */
	ASSERT_OK(&f, start_fake(&f, "uci", XQI_PROTOCOL_UCI, 3000));
	xqi_position_start(&b);
	ASSERT_OK(&f, xqi_engine_analyse(f.e, &a, &b, hist, 6, &lim, &f.d));
	/* No capture: everything from the start. */
	xqi_position_to_fen(&b, fen, sizeof(fen));
	snprintf(expect, sizeof(expect), "position fen %s moves h2e2 h9g7 h0g2 i9h9 i0h0 b9c7", fen);
	assert_true(log_has(expect));
	{
		/* With a capture (the cannon takes the pawn on e6): only the
		 * position after it and the moves since. */
		xqi_move h2[] = {mv("h2e2"), mv("h9g7"), mv("e2e6"), mv("b9c7")};
		struct xqi_position after = b;
		struct xqi_undo u;
		for (int i = 0; i < 3; i++)
			xqi_position_make(&after, h2[i], &u);
		ASSERT_OK(&f, xqi_engine_analyse(f.e, &a, &b, h2, 4, &lim, &f.d));
		xqi_position_to_fen(&after, fen, sizeof(fen));
		snprintf(expect, sizeof(expect), "position fen %s moves b9c7", fen);
		assert_true(log_has(expect));
	}
	unsetenv("FAKE_BEST");
	done(&f);
	drop_log();
}

static void terminal_position_is_answered_without_the_engine(void **state)
{
	struct fake f;
	struct xqi_analysis a;
	struct xqi_limit lim = {1, 0, 0};
	struct xqi_position b = pos("3aka3/4P4/9/3N5/4C4/9/9/9/9/3K5 b - - 0 1");

	(void)state;
	use_log();
	ASSERT_OK(&f, start_fake(&f, "uci", XQI_PROTOCOL_UCI, 3000));
	assert_int_equal(xqi_engine_analyse(f.e, &a, &b, NULL, 0, &lim, &f.d), 0);
	assert_true(a.flags & XQI_ANALYSIS_NO_MOVES);
	assert_int_equal(a.score.kind, XQ_EVAL_MATED);
	assert_int_equal(a.score.value, 0);
	assert_false(log_has("position"));
	done(&f);
	drop_log();
}

static void *raise_later(void *arg)
{
	struct timespec ts = {0, 300000000L};

	nanosleep(&ts, NULL);
	atomic_store((atomic_int *)arg, 1);
	return NULL;
}

/* Start the fake in `mode` with a stop flag, raised 0.3 s into the analysis. */
static int analyse_then_stop(struct fake *f, const char *mode, uint32_t timeout, struct xqi_analysis *a)
{
	static atomic_int stop;
	pthread_t t;
	int rc;

	atomic_init(&stop, 0);
	prepare_fake(f, mode, XQI_PROTOCOL_UCI);
	f->o.timeout_ms = timeout;
	f->o.stop = &stop;
	ASSERT_OK(f, launch(f));
	assert_int_equal(pthread_create(&t, NULL, raise_later, &stop), 0);
	rc = analyse_start(f, a);
	pthread_join(t, NULL);
	return rc;
}

/* What Ctrl-C does: the flag is raised during the search; the client sends
 * stop and returns the engine's answer, marked as stopped. */
static void stop_flag_ends_the_search_cleanly(void **state)
{
	struct fake f;
	struct xqi_analysis a;
	double t0 = now_s();

	(void)state;
	ASSERT_OK(&f, analyse_then_stop(&f, "stop-on-go", 3000, &a));
	assert_true(now_s() - t0 < 3.0);
	assert_true(a.flags & XQI_ANALYSIS_STOPPED);
	assert_int_equal(a.best, mv("h2e2"));
	assert_int_equal(a.depth, 2);
	done(&f);
	assert_no_children();
}

static void raised_stop_flag_cuts_a_slow_handshake_short(void **state)
{
	struct fake f;
	atomic_int stop;
	double t0;

	(void)state;
	atomic_init(&stop, 1);
	prepare_fake(&f, "silent", XQI_PROTOCOL_UCI);
	f.o.timeout_ms = 20000;
	f.o.stop = &stop;
	t0 = now_s();
	assert_int_equal(launch(&f), XQ_EENGINE);
	assert_true(now_s() - t0 < 2.0);
	assert_non_null(strstr(f.d.msg, "stop flag"));
	assert_no_children();
	done(&f);
}

static void engine_ignoring_stop_is_killed(void **state)
{
	struct fake f;
	struct xqi_analysis a;

	(void)state;
	assert_int_equal(analyse_then_stop(&f, "ignore-stop", 1500, &a), XQ_EENGINE);
	assert_non_null(strstr(f.d.msg, "'stop'"));
	assert_no_children();
	done(&f);
}

static void ucci_move_time_is_kept_with_stop(void **state)
{
	struct fake f;
	struct xqi_analysis a;
	struct xqi_position b;
	struct xqi_limit lim = {0, 0, 300};
	double t0, took;

	(void)state;
	use_log();
	ASSERT_OK(&f, start_fake(&f, "ucci", XQI_PROTOCOL_UCCI, 3000));
	done(&f);
	/* The ucci fake answers at once; the stop-on-go one waits for stop. */
	ASSERT_OK(&f, start_fake(&f, "stop-on-go", XQI_PROTOCOL_UCCI, 3000));
	xqi_position_start(&b);
	t0 = now_s();
	assert_int_equal(xqi_engine_analyse(f.e, &a, &b, NULL, 0, &lim, &f.d), 0);
	took = now_s() - t0;
	assert_true(took >= 0.25 && took < 2.0);
	assert_false(a.flags & XQI_ANALYSIS_STOPPED);
	assert_true(log_has("go infinite"));
	assert_true(log_has("stop"));
	done(&f);
	drop_log();
}

/* Is process `pid` gone or a zombie (dead, waiting for its parent)? */
static int dead(long pid)
{
	char path[64], buf[256];
	FILE *f;
	char *p;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 1;
	buf[0] = '\0';
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'Z';
}

static void child_holding_the_output_does_not_hide_an_exit(void **state)
{
	struct fake f;
	struct xqi_analysis a;
	char line[128];
	long child = 0;
	double t0;
	FILE *lf;

	(void)state;
	SKIP_WITHOUT_PROC();
	use_log();
	ASSERT_OK(&f, start_fake(&f, "grandchild", XQI_PROTOCOL_UCI, 5000));
	t0 = now_s();
	assert_int_equal(analyse_start(&f, &a), XQ_EENGINE);
	assert_true(now_s() - t0 < 3.0);
	assert_non_null(strstr(f.d.msg, "exited with status 0"));
	assert_no_children();
	/* The child it left holding the pipe was killed with its group. */
	lf = fopen(log_path, "r");
	assert_non_null(lf);
	while (fgets(line, sizeof(line), lf))
		if (!strncmp(line, "child ", 6))
			child = strtol(line + 6, NULL, 10);
	fclose(lf);
	assert_true(child > 0);
	for (int i = 0; i < 100 && !dead(child); i++) {
		struct timespec ts = {0, 10000000L};
		nanosleep(&ts, NULL);
	}
	assert_true(dead(child));
	done(&f);
	drop_log();
}

/* Does process `pid` hold any of the pipes process `other` has as its
 * standard input, output or error? */
static int holds_pipes_of(long pid, long other)
{
	char path[128], mine[128], theirs[3][128];

	for (int fd = 0; fd < 3; fd++) {
		ssize_t n;
		snprintf(path, sizeof(path), "/proc/%ld/fd/%d", other, fd);
		n = readlink(path, theirs[fd], sizeof(theirs[fd]) - 1);
		theirs[fd][n > 0 ? n : 0] = '\0';
		assert_true(!strncmp(theirs[fd], "pipe:", 5));
	}
	for (int fd = 0; fd < 1024; fd++) {
		ssize_t n;
		snprintf(path, sizeof(path), "/proc/%ld/fd/%d", pid, fd);
		n = readlink(path, mine, sizeof(mine) - 1);
		if (n <= 0)
			continue;
		mine[n] = '\0';
		for (int k = 0; k < 3; k++)
			if (!strcmp(mine, theirs[k]))
				return 1;
	}
	return 0;
}

/* With annotate -j, engines are started side by side: each must hold only
 * its own pipes, or one engine's exit would never reach the client as an
 * end of file while another engine kept its pipe open. */
static void engine_holds_only_its_own_pipes(void **state)
{
	struct fake f, g;

	(void)state;
	SKIP_WITHOUT_PROC();
	ASSERT_OK(&f, start_fake(&f, "uci", XQI_PROTOCOL_UCI, 3000));
	second_engine = f.e;
	ASSERT_OK(&g, start_fake(&g, "uci", XQI_PROTOCOL_UCI, 3000));
	assert_false(holds_pipes_of(xqi_engine_pid(g.e), xqi_engine_pid(second_engine)));
	assert_false(holds_pipes_of(xqi_engine_pid(second_engine), xqi_engine_pid(g.e)));
	done(&g);
	xqi_engine_free(second_engine);
	second_engine = NULL;
	assert_no_children();
}

static void writing_to_a_dead_engine_does_not_raise_sigpipe(void **state)
{
	struct fake f;
	struct xqi_analysis a;

	(void)state;
	/* The handshake works; the engine then dies on 'go' (crash-on-go);
	 * the next analysis writes to its closed pipe. */
	ASSERT_OK(&f, start_fake(&f, "reject-fen", XQI_PROTOCOL_UCI, 3000));
	{
		/* Kill it behind the client's back. */
		struct timespec ts = {0, 100000000L};
		kill((pid_t)xqi_engine_pid(f.e), SIGKILL);
		nanosleep(&ts, NULL);
	}
	assert_int_equal(analyse_start(&f, &a), XQ_EENGINE);
	/* Still alive, and no SIGPIPE left pending. */
	{
		sigset_t p;
		sigemptyset(&p);
		sigpending(&p);
		assert_false(sigismember(&p, SIGPIPE));
	}
	done(&f);
	assert_no_children();
}

static void ucciok_answer_to_uci_switches_to_ucci(void **state)
{
	struct fake f;

	(void)state;
	/* The fake answers "uci" with "ucciok" and then speaks ucci. */
	ASSERT_OK(&f, start_fake(&f, "ucciok-to-uci", XQI_PROTOCOL_AUTO, 3000));
	assert_int_equal(xqi_engine_protocol(f.e), XQI_PROTOCOL_UCCI);
	done(&f);
	assert_no_children();
}

static void free_of_null_and_stopped_engine_is_safe(void **state)
{
	struct fake f;

	(void)state;
	xqi_engine_free(NULL);
	ASSERT_OK(&f, start_fake(&f, "uci", XQI_PROTOCOL_UCI, 3000));
	xqi_engine_stop(f.e);
	xqi_engine_stop(f.e);
	assert_int_equal(xqi_engine_pid(f.e), -1);
	done(&f);
	assert_no_children();
}

/* ---- the real Fairy-Stockfish ------------------------------------------- */

#define fairy test_fairy

static int fairy_analyse(enum xqi_protocol proto, const struct xqi_position *b, const xqi_move *h,
			 size_t n, struct xqi_analysis *a, enum xqi_protocol *got)
{
	struct xqi_engine *e;
	struct xqi_engine_opts o;
	struct xq_diagnostic d;
	struct xqi_limit lim = {0, 20000, 0};
	int rc;

	xqi_engine_opts_init(&o);
	o.path = fairy();
	o.protocol = proto;
	xqi_diagnostic_init(&d);
	rc = xqi_engine_new(&e, &o, &d);
	second_engine = e; /* freed by the teardown if anything fails */
	if (rc)
		fail_msg("fairy-stockfish: %s", d.msg);
	if (got)
		*got = xqi_engine_protocol(e);
	rc = xqi_engine_analyse(e, a, b, h, n, &lim, &d);
	if (rc)
		fail_msg("fairy-stockfish: %s", d.msg);
	xqi_engine_free(e);
	second_engine = NULL;
	return rc;
}

/* A few opening moves, so the history needs translating both ways. */
static const char *const fairy_line[] = {"h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "h7i7"};

static void fairy_stockfish_uci_is_detected_and_deterministic(void **state)
{
	const char *p = fairy();
	struct xqi_position b;
	struct xqi_analysis a1, a2;
	xqi_move h[8];
	enum xqi_protocol got;

	(void)state;
	SKIP_WITHOUT_FAIRY(p);
	for (int i = 0; i < 8; i++)
		h[i] = mv(fairy_line[i]);
	xqi_position_start(&b);
	fairy_analyse(XQI_PROTOCOL_AUTO, &b, h, 8, &a1, &got);
	assert_int_equal(got, XQI_PROTOCOL_UCI);
	fairy_analyse(XQI_PROTOCOL_UCI, &b, h, 8, &a2, NULL);
	assert_int_equal(a1.best, a2.best);
	assert_int_equal(a1.score.kind, a2.score.kind);
	assert_int_equal(a1.score.value, a2.score.value);
	assert_int_equal(a1.depth, a2.depth);
	assert_int_equal(a1.pv_len, a2.pv_len);
	assert_memory_equal(a1.pv, a2.pv, a1.pv_len * sizeof(xqi_move));
	assert_true(a1.depth >= 5);
	assert_true(a1.pv_len >= 2);
	assert_int_equal(a1.side, XQI_RED);
}

static void fairy_stockfish_ucci_mode_analyses(void **state)
{
	const char *p = fairy();
	struct xqi_position b = pos(PKB_B1_FEN);
	struct xqi_analysis a1, a2;
	enum xqi_protocol got;

	(void)state;
	SKIP_WITHOUT_FAIRY(p);
	fairy_analyse(XQI_PROTOCOL_UCCI, &b, NULL, 0, &a1, &got);
	assert_int_equal(got, XQI_PROTOCOL_UCCI);
	fairy_analyse(XQI_PROTOCOL_UCCI, &b, NULL, 0, &a2, NULL);
	assert_int_equal(a1.best, a2.best);
	assert_int_equal(a1.score.value, a2.score.value);
	assert_int_equal(a1.side, XQI_BLACK);
	assert_true(a1.pv_len >= 2);
}

/*
 * One session, the same position twice with another in between: the hash
 * is cleared before each analysis (ucinewgame in UCI, the Clear_Hash
 * option in UCCI), so the answers are identical.
 */
static void same_answer_twice_in_one_session(enum xqi_protocol proto)
{
	struct xqi_engine *e;
	struct xqi_engine_opts o;
	struct xq_diagnostic d;
	struct xqi_limit lim = {0, 30000, 0};
	struct xqi_position b = pos(PKB_B1_FEN), start;
	struct xqi_analysis a1, a2, other;

	xqi_engine_opts_init(&o);
	o.path = fairy();
	o.protocol = proto;
	xqi_diagnostic_init(&d);
	if (xqi_engine_new(&e, &o, &d))
		fail_msg("fairy-stockfish: %s", d.msg);
	second_engine = e; /* freed by the teardown if an assertion fails */
	xqi_position_start(&start);
	if (xqi_engine_analyse(e, &a1, &b, NULL, 0, &lim, &d) ||
	    xqi_engine_analyse(e, &other, &start, NULL, 0, &lim, &d) ||
	    xqi_engine_analyse(e, &a2, &b, NULL, 0, &lim, &d))
		fail_msg("fairy-stockfish: %s", d.msg);
	assert_int_equal(a1.best, a2.best);
	assert_memory_equal(&a1.score, &a2.score, sizeof(a1.score));
	assert_int_equal(a1.depth, a2.depth);
	assert_int_equal(a1.nodes, a2.nodes);
	assert_int_equal(a1.pv_len, a2.pv_len);
	assert_memory_equal(a1.pv, a2.pv, a1.pv_len * sizeof(xqi_move));
	xqi_engine_free(e);
	second_engine = NULL;
}

static void fairy_stockfish_uci_repeats_itself_in_one_session(void **state)
{
	(void)state;
	SKIP_WITHOUT_FAIRY(fairy());
	same_answer_twice_in_one_session(XQI_PROTOCOL_UCI);
}

static void fairy_stockfish_ucci_repeats_itself_in_one_session(void **state)
{
	(void)state;
	SKIP_WITHOUT_FAIRY(fairy());
	same_answer_twice_in_one_session(XQI_PROTOCOL_UCCI);
}

static void fairy_stockfish_reports_a_mate_for_the_side_to_move(void **state)
{
	const char *p = fairy();
	/* Red mates at once: the suite's horse-and-cannon mate one move
	 * earlier (the horse comes from d5 to e7). */
	struct xqi_position b = pos("4k4/9/9/2p6/3N5/9/4C4/9/r8/3K5 w - - 0 1");
	struct xqi_analysis a;

	(void)state;
	SKIP_WITHOUT_FAIRY(p);
	fairy_analyse(XQI_PROTOCOL_UCI, &b, NULL, 0, &a, NULL);
	assert_int_equal(a.score.kind, XQ_EVAL_MATE);
	assert_int_equal(a.score.value, 1);
	fairy_analyse(XQI_PROTOCOL_UCCI, &b, NULL, 0, &a, NULL);
	assert_int_equal(a.score.kind, XQ_EVAL_MATE);
	assert_int_equal(a.score.value, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_reads_uci_info_with_score_bound_and_pv),
		cmocka_unit_test(parse_translates_fairy_stockfish_ranks_1_to_10),
		cmocka_unit_test(parse_converts_ucci_bare_scores),
		cmocka_unit_test(parse_marks_unknown_and_malformed_lines_as_garbage),
		cmocka_unit_test(parse_reads_bestmove_none_and_nobestmove),
		cmocka_unit_test(parse_reads_option_names_in_both_dialects),
		cmocka_unit_test(move_text_writes_ranks_from_0_or_1),
		cmocka_unit_test(option_parse_splits_at_the_first_equals_sign),
		cmocka_unit_test(go_text_gives_the_limits_each_dialect_takes),
		cmocka_unit_test(go_text_in_a_failed_buffer_is_refused_not_cut_short),
		cmocka_unit_test_teardown(uci_engine_is_detected_and_answers, teardown),
		cmocka_unit_test_teardown(variant_engine_gets_xiangqi_and_ranks_1_to_10_both_ways, teardown),
		cmocka_unit_test_teardown(user_options_are_sent_in_each_dialect, teardown),
		cmocka_unit_test_teardown(forced_rank_numbering_is_used, teardown),
		cmocka_unit_test_teardown(ucci_only_engine_is_found_after_uci_fails, teardown),
		cmocka_unit_test_teardown(forced_protocol_is_used_without_probing, teardown),
		cmocka_unit_test_teardown(engine_that_cannot_start_is_an_error, teardown),
		cmocka_unit_test_teardown(engine_that_exits_at_once_is_an_error_with_its_message, teardown),
		cmocka_unit_test_teardown(silent_engine_times_out_in_the_handshake, teardown),
		cmocka_unit_test_teardown(crash_during_search_is_reported_and_restart_works, teardown),
		cmocka_unit_test_teardown(crash_is_reported_when_sigchld_is_ignored, teardown),
		cmocka_unit_test_teardown(hung_search_is_killed_after_the_timeout, teardown),
		cmocka_unit_test_teardown(garbage_lines_are_counted_reported_and_ignored, teardown),
		cmocka_unit_test_teardown(illegal_best_move_is_a_lie, teardown),
		cmocka_unit_test_teardown(malformed_best_move_is_an_error, teardown),
		cmocka_unit_test_teardown(best_move_without_score_is_an_error, teardown),
		cmocka_unit_test_teardown(engine_exiting_on_a_position_is_reported_as_rejection, teardown),
		cmocka_unit_test_teardown(position_is_validated_before_sending, teardown),
		cmocka_unit_test_teardown(history_is_sent_from_the_last_capture, teardown),
		cmocka_unit_test_teardown(terminal_position_is_answered_without_the_engine, teardown),
		cmocka_unit_test_teardown(stop_flag_ends_the_search_cleanly, teardown),
		cmocka_unit_test_teardown(raised_stop_flag_cuts_a_slow_handshake_short, teardown),
		cmocka_unit_test_teardown(engine_ignoring_stop_is_killed, teardown),
		cmocka_unit_test_teardown(ucci_move_time_is_kept_with_stop, teardown),
		cmocka_unit_test_teardown(child_holding_the_output_does_not_hide_an_exit, teardown),
		cmocka_unit_test_teardown(engine_holds_only_its_own_pipes, teardown),
		cmocka_unit_test_teardown(writing_to_a_dead_engine_does_not_raise_sigpipe, teardown),
		cmocka_unit_test_teardown(ucciok_answer_to_uci_switches_to_ucci, teardown),
		cmocka_unit_test_teardown(free_of_null_and_stopped_engine_is_safe, teardown),
		cmocka_unit_test_teardown(fairy_stockfish_uci_is_detected_and_deterministic, teardown),
		cmocka_unit_test_teardown(fairy_stockfish_ucci_mode_analyses, teardown),
		cmocka_unit_test_teardown(fairy_stockfish_uci_repeats_itself_in_one_session, teardown),
		cmocka_unit_test_teardown(fairy_stockfish_ucci_repeats_itself_in_one_session, teardown),
		cmocka_unit_test_teardown(fairy_stockfish_reports_a_mate_for_the_side_to_move, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
