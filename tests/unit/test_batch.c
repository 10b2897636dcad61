/*
 * test_batch.c: the batch reader of the library (batch/, whose face is
 * api/batch.c: <xq/batch.h>), the worker pool every collection command
 * reads through,
 * above all that reading one input in chunks on several threads gives
 * exactly what reading it sequentially gives: the same games in the same
 * order, with the same numbers, places and encodings, and the same
 * diagnostics (the reader's, and those `process` adds on the workers).
 *
 * Each run serializes everything `emit` sees; a run with one thread is the
 * reference, and runs with 2 and 4 threads cut the inputs into chunks of
 * one game or a few (so that every boundary is a cut).  The batch's
 * private header is included, to see its units; cmd/'s inputs walk the
 * directories (unit tests link only libxq).
 */
/* inputs.c asks for realpath() (XSI) before any header. */
#define _XOPEN_SOURCE 700
#include "testutil.h"

#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "common.c"
#include "inputs.c"
#include "../../batch/batch_int.h"
#include "report.c"

/* report.c draws the progress line; no test shows one. */
void progress_update(uint64_t games, uint64_t bytes)
{
	(void)games;
	(void)bytes;
}

void progress_clear(void)
{
}

extern const struct xqi_format xqi_format_ndjson;

/* The inputs cmd/inputs.c walks, for xq_batch_run(). */
static int next_in(void *it, char **path, int *in_dir, xq_diagnostic_fn fn, void *user)
{
	return inputs_next(it, path, in_dir, fn, user);
}

/* ---- a run, serialized ---------------------------------------------------- */

struct run {
	struct xq_buf out;
	struct xq_file *o;
	void *writer;
	struct xq_buf game; /* the NDJSON writer's output for one game */
};

static void put_diags(struct xq_buf *b, const struct xq_diagnostics *l)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct xq_diagnostic *d = &l->v[i];
		xq_buf_addf(b, "  %s:%llu:%llu:%llu:%d game %llu ply %u sev %d %s [%s] %s\n",
			    d->source ? d->source : "-", (unsigned long long)d->place.line,
			    (unsigned long long)d->place.col,
			    (unsigned long long)d->place.offset, d->has_offset,
			    (unsigned long long)d->game, d->ply, (int)d->severity,
			    xqi_diagnostic_code_name(d->code), d->move, d->msg);
	}
}

/* share_process for the runs, and how long `process` takes (microseconds):
 * as long as an engine's analysis, next to which reading is free. */
static int run_share;
static unsigned run_process_us;
/* Runs that number games late (xq_batch_config.late_numbers): `process` may
 * not put the game's number into a message's text then. */
static int run_late;

/* On a worker: what a command's checks would add, with the game's number. */
static void process(void *ctx, void *worker, xq_batch_job *j)
{
	struct xqi_record_counts c;
	struct xq_diagnostic d;

	(void)ctx;
	(void)worker;
	if (run_process_us) {
		struct timespec ts = {0, (long)run_process_us * 1000};
		nanosleep(&ts, NULL);
	}
	xqi_record_count(&j->record->g, &c);
	j->counts[0] = c.nodes;
	xqi_diagnostic_init(&d);
	d.source = j->file->name;
	d.game = j->record->g.number;
	if (run_late)
		xqi_diagnostic_set(&d, 0, XQI_D_NONE, XQ_SEVERITY_NOTE, "processed a game of %llu nodes",
			    (unsigned long long)c.nodes);
	else
		xqi_diagnostic_set(&d, 0, XQI_D_NONE, XQ_SEVERITY_NOTE, "processed game %llu, %llu nodes",
			    (unsigned long long)j->record->g.number, (unsigned long long)c.nodes);
	xq_diagnostics_add(j->diags, &d);
}

static int emit(void *ctx, xq_batch_job *j)
{
	struct run *r = ctx;
	struct xq_buf *b = &r->out;

	if (j->kind == XQ_BATCH_GAME) {
		const struct xqi_record *g = &j->record->g;
		xq_buf_addf(b, "game %s #%llu at %llu:%llu:%llu enc %s flags %u nodes %llu\n", g->source,
			    (unsigned long long)g->number, (unsigned long long)g->place.line,
			    (unsigned long long)g->place.col,
			    (unsigned long long)g->place.offset, g->encoding ? g->encoding : "-",
			    g->flags, (unsigned long long)j->counts[0]);
		xq_buf_reset(&r->game);
		assert_int_equal(xqi_format_ndjson.write(r->writer, g), 0);
		xq_buf_add(b, "  ", 2);
		xq_buf_add(b, r->game.ptr, r->game.len);
	} else {
		xq_buf_addf(b, "end %s status %d format %s games %llu\n", j->file->name,
			    (int)j->file->status, *j->file->format ? j->file->format : "-",
			    (unsigned long long)j->file->games);
	}
	put_diags(b, j->diags);
	return 0;
}

/*
 * Read `paths` with `threads` threads; with more than one, split every
 * input into chunks of `games` games (or `bytes` bytes).  The serialized
 * run goes to `out` (initialised by the caller).
 */
/* The memory budget of the runs (0: the default). */
static uint64_t run_budget;

static void run(struct xq_buf *out, const char *const *paths, int n, int threads,
		uint64_t games, uint64_t bytes, xq_batch_stats *st, int recursive)
{
	struct run r;
	struct inputs in;
	xq_batch_config cfg;
	struct xqi_write_opts wo = XQI_WRITE_OPTS_INIT;

	memset(&r, 0, sizeof(r));
	xq_buf_init(&r.game);
	assert_int_equal(xqi_file_open_mem(&r.o, &r.game), 0);
	assert_int_equal(xqi_format_ndjson.open_writer(&r.writer, r.o, &wo, NULL), 0);
	r.out = *out;
	memset(&cfg, 0, sizeof(cfg));
	inputs_init(&in, (char **)paths, n, recursive);
	cfg.threads = threads;
	cfg.size = sizeof(cfg);
	cfg.next_input = next_in;
	cfg.inputs = &in;
	cfg.read_options = (xq_read_options)XQ_READ_OPTIONS_INIT;
	cfg.read_options.max_memory = run_budget;
	cfg.process = process;
	cfg.emit = emit;
	cfg.ctx = &r;
	cfg.split_min = 1;
	cfg.chunk_games = games;
	cfg.chunk_bytes = bytes;
	cfg.stats = st;
	cfg.share_process = run_share;
	cfg.late_numbers = run_late;
	assert_int_equal(xq_batch_run(&cfg), 0);
	inputs_release(&in);
	xqi_format_ndjson.close_writer(r.writer);
	xqi_file_commit(r.o, NULL);
	xq_buf_release(&r.game);
	*out = r.out;
}

/* Report the first line where two runs differ. */
static void assert_same_run(const struct xq_buf *a, const struct xq_buf *b, const char *what)
{
	size_t i = 0, line = 1, start = 0;

	if (a->len == b->len && !memcmp(a->ptr, b->ptr, a->len))
		return;
	while (i < a->len && i < b->len && a->ptr[i] == b->ptr[i]) {
		if (a->ptr[i] == '\n') {
			line++;
			start = i + 1;
		}
		i++;
	}
	fail_msg("%s: the runs differ at line %zu:\n  sequential: %.200s\n  split:      %.200s", what,
		 line, a->ptr + start, b->ptr + start);
}

/* The stats of the last late run on 2 threads (check_split_same). */
static xq_batch_stats late_stats;

/*
 * Read `paths` sequentially, then split with 2 threads in chunks of one
 * game and with 4 in chunks of three (or of the bytes of about one game),
 * or `late`, cut late (xq_batch_config.late_numbers: at the format's
 * boundaries, every game and line numbered as it is emitted) after one
 * byte and after 2,000: the three runs must be the same.  *st (may be
 * NULL) gets the 2-thread run's stats.
 */
static void check_runs_same(const char *const *paths, int n, const char *what,
			    xq_batch_stats *st, int late)
{
	struct xq_buf seq = XQ_BUF_INIT, two = XQ_BUF_INIT, four = XQ_BUF_INIT;
	char label[256];

	snprintf(label, sizeof(label), "%s%s", what, late ? " (numbered late)" : "");
	run_late = late;
	run(&seq, paths, n, 1, 0, 0, NULL, 0);
	run(&two, paths, n, 2, late ? 0 : 1, 1, st, 0);
	run(&four, paths, n, 4, late ? 0 : 3, 2000, NULL, 0);
	run_late = 0;
	assert_true(seq.len > 0);
	assert_same_run(&seq, &two, label);
	assert_same_run(&seq, &four, label);
	xq_buf_release(&seq);
	xq_buf_release(&two);
	xq_buf_release(&four);
}

/* Both ways: counted by the splitter (*st), and numbered late (late_stats). */
static void check_split_same(const char *const *paths, int n, const char *what,
			     xq_batch_stats *st)
{
	check_runs_same(paths, n, what, st, 0);
	check_runs_same(paths, n, what, &late_stats, 1);
}

/* ---- fixtures ------------------------------------------------------------------ */

static char tmpdir[4096];

static int setup(void **state)
{
	(void)state;
	return test_tmpdir(tmpdir, sizeof(tmpdir), "batch");
}

static int teardown(void **state)
{
	(void)state;
	return test_rmtree(tmpdir);
}

static void load(struct xq_buf *b, const char *path)
{
	FILE *f = fopen(path, "rb");
	char chunk[65536];
	size_t n;

	assert_non_null(f);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		xq_buf_add(b, chunk, n);
	fclose(f);
}

/* Write `len` bytes to a new file `name` in the test's directory; returns its path. */
static const char *put_file(const char *name, const void *data, size_t len)
{
	static char paths[16][4400];
	static int next;
	char *p = paths[next++ % 16];
	FILE *f;

	snprintf(p, 4400, "%s/%s", tmpdir, name);
	f = fopen(p, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
	return p;
}


/* check_split_same() on `text` written to file `name`; the 2-thread run must
 * have cut at least `min_chunks` chunks, and none must have fallen back. */
static void check_text_split(const char *name, const struct xq_buf *text, uint64_t min_chunks)
{
	const char *p = put_file(name, text->ptr, text->len);
	xq_batch_stats st;

	check_split_same(&p, 1, name, &st);
	assert_true(st.chunks >= min_chunks);
	assert_int_equal(st.fallbacks, 0);
}

/* check_split_same() on `len` bytes of `text`, which must make a chunk fall back. */
static void check_falls_back(const char *name, const char *text, size_t len)
{
	const char *p = put_file(name, text, len);
	xq_batch_stats st;

	check_split_same(&p, 1, name, &st);
	assert_true(st.fallbacks > 0);
}

/* ---- tests --------------------------------------------------------------------- */

static void every_fixture_reads_the_same_split_into_chunks(void **state)
{
	static const char *const fixtures[] = {
		"tests/data/pgn/big5-black-first.pgn",    "tests/data/pgn/gb2312-crlf.pgn",
		"tests/data/pgn/gbk-bare-cr-variations.pgn", "tests/data/pgn/no-tags-gmchess.pgn",
		"tests/data/pgn/utf8-bom-iccs.pgn",       "tests/data/pgn/wxf-fullwidth.pgn",
		"tests/data/pgn/xboard-san.pgn",          "tests/data/ndjson/good.ndjson",
		"tests/data/ndjson/problems.ndjson",      "tests/data/ndjson/dates.ndjson",
		"tests/data/ndjson/repetition.ndjson",    "tests/data/ndjson/control-chars.ndjson",
		"tests/data/ndjson/tree/c.ndjson.gz",
	};
	xq_batch_stats st;

	(void)state;
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++)
		check_split_same(&fixtures[i], 1, fixtures[i], &st);
	/* And all of them in one run: files and chunks keep their order. */
	check_split_same(fixtures, (int)(sizeof(fixtures) / sizeof(fixtures[0])), "all fixtures", &st);
	assert_true(st.chunks > 10);
}

/* Many copies of fixtures in one file, in their encoding. */
static const char *repeat_fixtures(const char *name, const char *const *files, int nfiles, int times)
{
	struct xq_buf b = XQ_BUF_INIT;
	const char *p;

	for (int t = 0; t < times; t++)
		for (int i = 0; i < nfiles; i++) {
			size_t before = b.len;
			load(&b, files[i]);
			/* Files that end without a line end run into the next one,
			 * as in a careless concatenation. */
			if (t % 2 && b.len > before && b.ptr[b.len - 1] != '\n')
				xq_buf_addc(&b, '\n');
		}
	p = put_file(name, b.ptr, b.len);
	xq_buf_release(&b);
	return p;
}

static void gbk_big5_and_utf8_collections_read_the_same_split(void **state)
{
	static const char *const gbk[] = {"tests/data/pgn/gb2312-crlf.pgn",
					  "tests/data/pgn/gbk-bare-cr-variations.pgn"};
	static const char *const big5[] = {"tests/data/pgn/big5-black-first.pgn"};
	static const char *const utf8[] = {"tests/data/pgn/wxf-fullwidth.pgn",
					   "tests/data/pgn/xboard-san.pgn",
					   "tests/data/pgn/no-tags-gmchess.pgn"};
	const char *p;
	xq_batch_stats st;

	(void)state;
	p = repeat_fixtures("gbk.pgn", gbk, 2, 40);
	check_split_same(&p, 1, "gbk", &st);
	assert_true(st.chunks >= 40);
	assert_int_equal(st.fallbacks, 0);
	p = repeat_fixtures("big5.pgn", big5, 1, 60);
	check_split_same(&p, 1, "big5", &st);
	assert_true(st.chunks >= 40);
	p = repeat_fixtures("utf8.pgn", utf8, 3, 30);
	check_split_same(&p, 1, "utf-8", &st);
	assert_true(st.chunks >= 40);
}

static void games_before_the_first_chinese_character_read_the_same_split(void **state)
{
	struct xq_buf b = XQ_BUF_INIT;

	(void)state;
	/* ASCII games first: a chunk of them only must still say what the
	 * sequential reader says of them, and the GBK game later decodes. */
	for (int i = 0; i < 30; i++)
		xq_buf_addf(&b, "[Game \"Chinese Chess\"]\n[Round \"%d\"]\n\n1. h2e2 h9g7 2. h0g2 *\n\n", i);
	xq_buf_adds(&b, "[Game \"Chinese Chess\"]\n[Event \"\xC5\xDA\"]\n\n1. \xC5\xDA\xB6\xFE\xC6\xBD\xCE\xE5 *\n");
	check_text_split("late-gbk.pgn", &b, 30);
	xq_buf_release(&b);
}

/* UTF-8 games, each after a blank line (the common shape of big
 * collections): every game start is a split point, and the chunks hold. */
static void utf8_games_after_blank_lines_are_split_at_their_tag_lines(void **state)
{
	struct xq_buf b = XQ_BUF_INIT;

	(void)state;
	for (int i = 0; i < 40; i++)
		xq_buf_addf(&b, "[Game \"Chinese Chess\"]\n[Event \"\xE7\x94\xB2\xE7\xBA\xA7 %d\"]\n\n"
				"1. h2e2 {\xE4\xB8\xAD\xE7\x82\xAE} h9g7 2. h0g2 *\n\n", i);
	check_text_split("utf8-blank-lines.pgn", &b, 30);
	xq_buf_release(&b);
}

/* A comment holding a blank line, then a line that looks like a tag: a
 * splitter that looked at line starts only would take it for a game
 * start; reading split must still give the games, numbers and
 * diagnostics of one thread. */
/*
 * Numbered late: chunks cut at every tag line after a blank line or move
 * text, with no count of the games before (a boundary inside a comment: see
 * a_comment_holding_a_blank_line_then_a_tag_reads_the_same); a legacy
 * encoding met after many ASCII chunks is decided by the cutter as the
 * reader decides it; CRLF line ends.
 */
/* `text` as file `name`, numbered late: the same as read in order, in
 * `min_chunks` chunks or more, none fallen back or left to one reader. */
static void check_late_cut(const char *name, const struct xq_buf *text, uint64_t min_chunks)
{
	const char *p = put_file(name, text->ptr, text->len);

	check_runs_same(&p, 1, name, &late_stats, 1);
	assert_true(late_stats.chunks >= min_chunks);
	assert_int_equal(late_stats.fallbacks, 0);
	assert_int_equal(late_stats.gave_up, 0);
}

static void chunks_numbered_late_read_the_same_as_in_order(void **state)
{
	struct xq_buf b = XQ_BUF_INIT;

	(void)state;
	for (int i = 0; i < 30; i++)
		xq_buf_addf(&b, "[Game \"Chinese Chess\"]\r\n[Round \"%d\"]\r\n\r\n1. h2e2 h9g7 *\r\n\r\n", i);
	xq_buf_adds(&b, "[Game \"Chinese Chess\"]\r\n[Event \"\xC5\xDA\"]\r\n\r\n1. \xC5\xDA\xB6\xFE\xC6\xBD\xCE\xE5 *\r\n\r\n");
	for (int i = 0; i < 10; i++)
		xq_buf_addf(&b, "[Game \"Chinese Chess\"]\r\n[Event \"\xBC\xD7 %d\"]\r\n\r\n1. h2e2 zz9 *\r\n\r\n", i);
	check_late_cut("late-gbk-crlf.pgn", &b, 30);

	/* The first character over 0x7F early, and more than the reader's
	 * sample (64 KiB) after it: the cutter reads on to decide, then goes
	 * on cutting rather than giving the rest to one reader. */
	xq_buf_reset(&b);
	for (int i = 0; i < 1500; i++)
		xq_buf_addf(&b, "[Game \"Chinese Chess\"]\n[Event \"%s %d\"]\n\n1. h2e2 h9g7 *\n\n",
			    i == 3 ? "\xE7\x94\xB2" : "a", i);
	assert_true(b.len > 70000);
	check_late_cut("late-utf8-early.pgn", &b, 1400);

	/* No blank line between games (a tag line right after move text), a
	 * comment line before some games' tags: cut as well, no fall back. */
	xq_buf_reset(&b);
	for (int i = 0; i < 60; i++)
		xq_buf_addf(&b, "%s[Game \"Chinese Chess\"]\n[Round \"%d\"]\n1. h2e2 h9g7\n2. h0g2 *\n",
			    i % 7 == 3 ? "{a comment before the tags}\n" : "", i);
	check_late_cut("late-no-blank-lines.pgn", &b, 50);
	xq_buf_release(&b);
}

static void a_comment_holding_a_blank_line_then_a_tag_reads_the_same(void **state)
{
	struct xq_buf b = XQ_BUF_INIT;
	xq_batch_stats st;
	const char *p;

	(void)state;
	for (int i = 0; i < 40; i++) {
		xq_buf_addf(&b, "[Game \"Chinese Chess\"]\n[Event \"\xE7\x94\xB2 %d\"]\n\n1. h2e2 ", i);
		if (i == 20)
			xq_buf_adds(&b, "{a comment\n\n[Event \"not a game\"]\nstill the comment} ");
		xq_buf_adds(&b, "h9g7 2. h0g2 zz9 *\n\n");
	}
	p = put_file("comment-blank-tag.pgn", b.ptr, b.len);
	check_split_same(&p, 1, "comment-blank-tag.pgn", &st);
	assert_true(st.chunks >= 30);
	/* Numbered late, the boundary inside the comment is taken: its chunk
	 * reads on in order, numbered from the games emitted before it. */
	assert_true(late_stats.chunks >= 20);
	assert_true(late_stats.fallbacks >= 1);
	xq_buf_release(&b);
}

/*
 * Usual games, then games the splitter's quick scan hands over to its
 * token scan (a ';' comment, a game without tags after a result, a '%'
 * escape line), then usual games again: every game start is still a cut,
 * before, among and after the odd ones, and nothing falls back.
 */
static void games_that_leave_the_usual_shape_are_split_as_well_as_those_around_them(void **state)
{
	struct xq_buf b = XQ_BUF_INIT;

	(void)state;
	for (int i = 0; i < 90; i++) {
		xq_buf_addf(&b, "[Event \"game %d\"]\n[Round \"%d\"]\n\n1. h2e2 h9g7 2. h0g2 ", i, i);
		if (i >= 30 && i < 60 && i % 3 == 0)
			xq_buf_adds(&b, "; a line comment { with a brace\ni9h9 1-0\n1. c3c4 c6c5 0-1\n\n");
		else if (i >= 30 && i < 60 && i % 3 == 1)
			xq_buf_adds(&b, "i9h9 *\n%an escape line\n\n");
		else
			xq_buf_adds(&b, "{a comment} i9h9 (2... b9c7 3. b0c2) *\n\n");
	}
	check_text_split("usual-odd-usual.pgn", &b, 60);
	xq_buf_release(&b);
}

static void games_without_tags_are_split_at_their_results(void **state)
{
	struct xq_buf b = XQ_BUF_INIT;

	(void)state;
	for (int i = 0; i < 20; i++)
		xq_buf_adds(&b, "1. h2e2 h9g7 2. h0g2 i9h9 1-0\n1. c3c4 {a comment} c6c5 0-1\n");
	check_text_split("no-tags.pgn", &b, 20);
	xq_buf_release(&b);
}

static void a_chunk_that_ends_elsewhere_makes_the_rest_sequential(void **state)
{
	static const char more[] = "[Game \"Chinese Chess\"]\n1. h2e2 h9g7 2. a0a5 ) ( 1-0\n1. h2e2 *\n"
				   "[Game \"Chinese Chess\"]\n1. h2e2 h9g7 *\n"
				   "[Game \"Chinese Chess\"]\n1. c3c4 *\n"
				   "[Game \"Chinese Chess\"]\n1. b2e2 *\n";
	static const char longer[] =
		"[Game \"Chinese Chess\"]\n[FEN \"rnbakabnr/9/9 w\"] {a comment}\n[Event \"same game\"]\n"
		"1. h2e2 *\n"
		"[Game \"Chinese Chess\"]\n1. h2e2 h9g7 *\n"
		"[Game \"Chinese Chess\"]\n1. c3c4 *\n";
	struct xq_buf b = XQ_BUF_INIT;

	(void)state;
	/* The illegal a0a5 breaks the first game where the splitter cannot
	 * see it; from there the reader counts the parentheses otherwise and
	 * takes "1-0" as the result, so a game without tags follows that the
	 * splitter does not count: the chunk holds one game more than said. */
	check_falls_back("more-games.pgn", more, sizeof(more) - 1);
	/* The same after chunks that end right (and are handed over before
	 * the reading falls back), twice. */
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < 12; i++)
			xq_buf_addf(&b, "[Game \"Chinese Chess\"]\n[Round \"%d\"]\n1. h2e2 h9g7 *\n\n",
				    round * 100 + i);
		xq_buf_add(&b, more, 62);
	}
	for (int i = 0; i < 12; i++)
		xq_buf_adds(&b, "[Game \"Chinese Chess\"]\n1. c3c4 *\n");
	check_falls_back("later.pgn", b.ptr, b.len);
	/* A rejected FEN breaks the header; the reader's recovery does not
	 * take the comment as move text, so the next tag line (which the
	 * splitter takes for the next game) is the same game's. */
	check_falls_back("longer-game.pgn", longer, sizeof(longer) - 1);
	xq_buf_release(&b);
}

static void an_input_error_is_met_at_the_same_byte(void **state)
{
	struct xq_buf b = XQ_BUF_INIT, z = XQ_BUF_INIT;
	const char *p;
	xq_batch_stats st;
	z_stream zs;

	(void)state;
	for (int i = 0; i < 400; i++)
		xq_buf_addf(&b, "[Game \"Chinese Chess\"]\n[Round \"%d\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n\n", i);
	memset(&zs, 0, sizeof(zs));
	assert_int_equal(deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	xq_buf_grow(&z, b.len + 1024);
	zs.next_in = (Bytef *)b.ptr;
	zs.avail_in = (uInt)b.len;
	zs.next_out = (Bytef *)z.ptr;
	zs.avail_out = (uInt)(z.alloc - 1);
	assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
	z.len = zs.total_out;
	deflateEnd(&zs);
	/* Cut the gzip stream short: reading stops with an error part way. */
	p = put_file("cut.pgn.gz", z.ptr, z.len * 2 / 3);
	check_split_same(&p, 1, "cut gzip", &st);
	assert_true(st.chunks > 1);
	assert_true(st.gave_up > 0);
	xq_buf_release(&b);
	xq_buf_release(&z);
}

static void utf16_input_is_read_whole(void **state)
{
	static const char utf16[] = "\xFF\xFE[\0G\0a\0m\0e\0 \0\"\0x\0\"\0]\0\n\0001\0.\0 \0h\0002\0e\0002\0 \0*\0\n\0";
	const char *p;
	xq_batch_stats st;

	(void)state;
	p = put_file("utf16.pgn", utf16, sizeof(utf16) - 1);
	check_split_same(&p, 1, "utf-16", &st);
	assert_int_equal(st.gave_up, 1);
}

static void ndjson_lines_blank_lines_and_a_last_line_without_end(void **state)
{
	struct xq_buf b = XQ_BUF_INIT;

	(void)state;
	xq_buf_adds(&b, "\xEF\xBB\xBF");
	for (int i = 0; i < 30; i++) {
		load(&b, "tests/data/ndjson/good.ndjson");
		xq_buf_adds(&b, i % 3 ? "\n  \n" : "{\"schema\":\"xqkit.game/1\",\"moves\":[{\"iccs\":\"a0a5\"}]}\n");
	}
	xq_buf_adds(&b, "{\"schema\":\"xqkit.game/1\",\"moves\":[]}");
	check_text_split("lines.ndjson", &b, 30);
	xq_buf_release(&b);
}

static void inputs_of_many_kinds_keep_their_order(void **state)
{
	static const char *const dir[] = {"tests/data"};
	struct xq_buf seq = XQ_BUF_INIT, split = XQ_BUF_INIT;

	(void)state;
	/* Every fixture of every format, recursively: splitting the ones that
	 * can be split leaves the others and the order alone. */
	run(&seq, dir, 1, 1, 0, 0, NULL, 1);
	run(&split, dir, 1, 3, 1, 0, NULL, 1);
	assert_same_run(&seq, &split, "tests/data");
	xq_buf_release(&seq);
	xq_buf_release(&split);
}

static void a_small_budget_is_never_passed_and_changes_nothing_but_the_pace(void **state)
{
	static const char *const dir[] = {"tests/data"};
	struct xq_buf seq = XQ_BUF_INIT, split = XQ_BUF_INIT;
	xq_batch_stats st;

	(void)state;
	/* 8 MiB: every fixture's reading reserves a good part of it, so the
	 * workers wait for each other's memory; the output is the same. */
	run_budget = (uint64_t)8 << 20;
	run(&seq, dir, 1, 1, 0, 0, NULL, 1);
	memset(&st, 0, sizeof(st));
	run(&split, dir, 1, 4, 1, 0, &st, 1);
	run_budget = 0;
	assert_same_run(&seq, &split, "tests/data within 8 MiB");
	assert_true(st.peak_reserved > 0);
	assert_true(st.peak_reserved <= (uint64_t)8 << 20);
	xq_buf_release(&seq);
	xq_buf_release(&split);
}

static void shared_corpus_collections_read_the_same_split(void **state)
{
	const char *shared = test_shared_dir();
	struct xq_buf list = XQ_BUF_INIT, by_enc[3] = {XQ_BUF_INIT, XQ_BUF_INIT, XQ_BUF_INIT};
	static const char *const names[3] = {"corpus-utf8.pgn", "corpus-gbk.pgn", "corpus-big5.pgn"};
	char path[8192];
	size_t pos = 0;

	(void)state;
	SKIP_WITHOUT_SHARED(shared);
	/* Every PGN file of the corpus, concatenated by encoding. */
	load(&list, "tests/data/pgn/corpus-pgn.txt");
	while (pos < list.len) {
		size_t end = pos;
		struct xq_buf f = XQ_BUF_INIT;
		enum xqi_encoding e;
		while (end < list.len && list.ptr[end] != '\n')
			end++;
		snprintf(path, sizeof(path), "%s/corpus/pgn/%.*s", shared, (int)(end - pos),
			 list.ptr + pos);
		pos = end + 1;
		if (access(path, R_OK) != 0)
			continue;
		load(&f, path);
		e = xqi_encoding_detect(f.ptr, f.len, NULL);
		if (e == XQI_ENC_UTF8 || e == XQI_ENC_GB18030 || e == XQI_ENC_BIG5) {
			struct xq_buf *b = &by_enc[e == XQI_ENC_UTF8 ? 0 : e == XQI_ENC_GB18030 ? 1 : 2];
			xq_buf_add(b, f.ptr, f.len);
			xq_buf_addc(b, '\n');
		}
		xq_buf_release(&f);
	}
	for (int i = 0; i < 3; i++) {
		const char *p = put_file(names[i], by_enc[i].ptr, by_enc[i].len);
		xq_batch_stats st;
		if (by_enc[i].len == 0)
			continue;
		check_split_same(&p, 1, names[i], &st);
		assert_true(st.chunks > 1);
		xq_buf_release(&by_enc[i]);
	}
	xq_buf_release(&list);
}

/* ---- the workers' own state ------------------------------------------------------ */

struct mine {
	int id;
	pthread_t thread;  /* the one that processed its first game */
	int processed;
	int finished;
};

struct owners {
	struct mine w[4];
	int fail_at;       /* worker_init fails for this id (-1: never) */
	int inits, emitted, games;
};

static int mine_init(void *ctx, int id, void **worker)
{
	struct owners *o = ctx;

	o->inits++;
	if (id == o->fail_at)
		return 42;
	o->w[id].id = id;
	*worker = &o->w[id];
	return 0;
}

static void mine_fini(void *ctx, void *worker)
{
	struct mine *m = worker;

	(void)ctx;
	m->finished++;
}

static void mine_process(void *ctx, void *worker, xq_batch_job *j)
{
	struct mine *m = worker;

	(void)ctx;
	if (m->processed++ == 0)
		m->thread = pthread_self();
	/* A worker's state is only ever used on its own thread. */
	if (!pthread_equal(m->thread, pthread_self()))
		m->processed = -1000000;
	j->counts[0] = (uint64_t)m->id;
}

static int mine_emit(void *ctx, xq_batch_job *j)
{
	struct owners *o = ctx;

	o->emitted++;
	if (j->kind == XQ_BATCH_GAME)
		o->games++;
	return 0;
}

static int run_owned(struct owners *o, int threads)
{
	static const char *const dir[] = {"tests/data/pgn"};
	struct inputs in;
	xq_batch_config cfg;
	int rc;

	memset(&cfg, 0, sizeof(cfg));
	inputs_init(&in, (char **)dir, 1, 1);
	cfg.threads = threads;
	cfg.size = sizeof(cfg);
	cfg.next_input = next_in;
	cfg.inputs = &in;
	cfg.read_options = (xq_read_options)XQ_READ_OPTIONS_INIT;
	cfg.worker_init = mine_init;
	cfg.worker_fini = mine_fini;
	cfg.process = mine_process;
	cfg.emit = mine_emit;
	cfg.ctx = o;
	cfg.split_min = 1;
	cfg.chunk_games = 1;
	cfg.chunk_bytes = 1;
	rc = xq_batch_run(&cfg);
	inputs_release(&in);
	return rc;
}

static void each_worker_owns_its_state_from_init_to_fini(void **state)
{
	struct owners o;
	int processed = 0;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.fail_at = -1;
	assert_int_equal(run_owned(&o, 4), 0);
	assert_int_equal(o.inits, 4);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(o.w[i].finished, 1);
		assert_true(o.w[i].processed >= 0);
		processed += o.w[i].processed;
	}
	assert_true(o.games > 4);
	assert_int_equal(processed, o.games);
}

static void a_worker_that_cannot_start_stops_the_run_before_any_read(void **state)
{
	struct owners o;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.fail_at = 2;
	assert_int_equal(run_owned(&o, 4), 42);
	assert_int_equal(o.inits, 3);
	assert_int_equal(o.w[0].finished, 1);
	assert_int_equal(o.w[1].finished, 1);
	assert_int_equal(o.w[2].finished, 0);
	assert_int_equal(o.w[3].finished, 0);
	assert_int_equal(o.emitted, 0);
	/* With one thread too. */
	memset(&o, 0, sizeof(o));
	o.fail_at = 0;
	assert_int_equal(run_owned(&o, 1), 42);
	assert_int_equal(o.w[0].finished, 0);
	assert_int_equal(o.emitted, 0);
}

/* ---- processing shared ------------------------------------------------------------- */

/* One input that cannot be split (a CBL library of 47 games) read by one
 * worker: with share_process the other workers, having nothing to read,
 * process its games too, and the output is that of one thread. */
static void the_games_of_an_input_that_cannot_be_split_are_processed_by_every_worker(void **state)
{
	static const char *const lib[] = {"tests/data/cbr/compressed.cbl"};
	struct xq_buf one = XQ_BUF_INIT, two = XQ_BUF_INIT, four = XQ_BUF_INIT;
	xq_batch_stats st2, st4;

	(void)state;
	run_share = 1;
	run_process_us = 2000;
	memset(&st2, 0, sizeof(st2));
	memset(&st4, 0, sizeof(st4));
	run(&one, lib, 1, 1, 0, 0, NULL, 0);
	run(&two, lib, 1, 2, 0, 0, &st2, 0);
	run(&four, lib, 1, 4, 0, 0, &st4, 0);
	run_share = 0;
	run_process_us = 0;
	assert_same_run(&one, &two, "2 threads sharing");
	assert_same_run(&one, &four, "4 threads sharing");
	assert_true(st2.split_files == 0);
	/* Games processed by a worker other than the reader: some, not all
	 * (the reader processes one whenever every helper has one). */
	assert_true(st2.shared > 0 && st2.shared < 47);
	assert_true(st4.shared > 0 && st4.shared < 47);
	xq_buf_release(&one);
	xq_buf_release(&two);
	xq_buf_release(&four);
}

/* ---- the units in flight ------------------------------------------------------------ */

/* Units numbered while others are passed, so that the ring wraps before
 * it grows: each is found under its own number, in order, to the end. */
static void the_units_in_flight_keep_their_order_as_their_ring_grows(void **state)
{
	struct pool p;
	struct worker w;
	xq_batch_file *f;
	uint64_t made = 0;

	(void)state;
	memset(&p, 0, sizeof(p));
	memset(&w, 0, sizeof(w));
	p.nw = 1;
	assert_int_equal(xqi_budget_init(&p.budget, (uint64_t)8 << 20), 0);
	f = xqi_batch_new_file(0, strdup("units"), 0);
	assert_non_null(f);
	for (int round = 0; round < 40; round++) {
		for (int i = 0; i < 7; i++) {
			struct unit *u = calloc(1, sizeof(*u));
			assert_non_null(u);
			u->file = f;
			assert_int_equal(xqi_batch_number_unit(&p, u, &w), 0);
			assert_int_equal(u->seq, made++);
		}
		for (int i = 0; i < 5; i++) {
			struct unit *u = unit_at(&p, p.out_seq);
			assert_int_equal(u->seq, p.out_seq);
			xqi_batch_unit_passed(&p, u);
		}
		for (uint64_t seq = p.out_seq; seq < p.next_seq; seq++)
			assert_int_equal(unit_at(&p, seq)->seq, seq);
	}
	assert_true(p.units_cap >= 80); /* it grew, with units wrapped round */
	rec_of(f)->closed = 1;
	while (p.out_seq < p.next_seq)
		xqi_batch_unit_passed(&p, unit_at(&p, p.out_seq)); /* the last frees the file */
	free(p.units);
	xqi_budget_release(&p.budget);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_fixture_reads_the_same_split_into_chunks),
		cmocka_unit_test(gbk_big5_and_utf8_collections_read_the_same_split),
		cmocka_unit_test(games_before_the_first_chinese_character_read_the_same_split),
		cmocka_unit_test(games_without_tags_are_split_at_their_results),
		cmocka_unit_test(a_chunk_that_ends_elsewhere_makes_the_rest_sequential),
		cmocka_unit_test(an_input_error_is_met_at_the_same_byte),
		cmocka_unit_test(utf16_input_is_read_whole),
		cmocka_unit_test(ndjson_lines_blank_lines_and_a_last_line_without_end),
		cmocka_unit_test(inputs_of_many_kinds_keep_their_order),
		cmocka_unit_test(a_small_budget_is_never_passed_and_changes_nothing_but_the_pace),
		cmocka_unit_test(shared_corpus_collections_read_the_same_split),
		cmocka_unit_test(each_worker_owns_its_state_from_init_to_fini),
		cmocka_unit_test(a_worker_that_cannot_start_stops_the_run_before_any_read),
		cmocka_unit_test(the_units_in_flight_keep_their_order_as_their_ring_grows),
		cmocka_unit_test(the_games_of_an_input_that_cannot_be_split_are_processed_by_every_worker),
		cmocka_unit_test(utf8_games_after_blank_lines_are_split_at_their_tag_lines),
		cmocka_unit_test(a_comment_holding_a_blank_line_then_a_tag_reads_the_same),
		cmocka_unit_test(chunks_numbered_late_read_the_same_as_in_order),
		cmocka_unit_test(games_that_leave_the_usual_shape_are_split_as_well_as_those_around_them),
	};
	return cmocka_run_group_tests_name("batch", tests, setup, teardown);
}
