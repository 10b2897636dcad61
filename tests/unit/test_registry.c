/*
 * test_registry.c: the registry of formats (formats/registry.c): names
 * and aliases, and file names: every format lists the extensions of the
 * files it reads (checked on every file of the shared corpus), and the
 * format that writes a name is the one whose first extension it is; a
 * format that says its games are written apart (`separator`) writes them
 * so.
 */
#include "testutil.h"

#include <strings.h>

#include "format.h"
#include "record.h"
#include "io.h"
#include "notation.h"

static void ubb_is_another_name_for_dhtmlxq(void **state)
{
	const struct xqi_format *dh = xqi_format_find("dhtmlxq");

	(void)state;
	assert_non_null(dh);
	assert_ptr_equal(xqi_format_find("ubb"), dh);
	assert_ptr_equal(xqi_format_find("UBB"), dh);
	assert_ptr_equal(xqi_format_find("DhtmlXQ"), dh);
	assert_null(xqi_format_find("ub"));
	assert_null(xqi_format_find(""));
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
		{"out.cbr", "cbr"},       {"out.CBL", "cbl"},      {"out.pfc", "pfc"},
		{"out.txt", NULL},        {"out.gz", NULL},        {"dir.pgn/out", NULL},
		{".pgn", NULL},           {"out", NULL},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct xqi_format *f = xqi_format_for_extension(cases[i].name);
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
	assert_ptr_equal(xqi_format_detect((const unsigned char *)text, 1, "x.pgn.gz"),
			 xqi_format_find("pgn"));
	assert_ptr_equal(xqi_format_detect((const unsigned char *)text, 1, "x.ubb.gz"),
			 xqi_format_find("dhtmlxq"));
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
		struct xqi_input *in;
		struct xq_diagnostic diag;
		const unsigned char *head;
		size_t len;
		const struct xqi_format *f;
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
		if (!S_ISREG(st.st_mode) || xqi_input_open(&in, path, &diag))
			continue;
		if (xqi_input_peek(in, &head, &len, &diag) == 0 &&
		    (f = xqi_format_detect(head, len, NULL)) && (dot = strrchr(e->d_name, '.')) &&
		    !any_format(dot)) {
			files++;
			if (!lists(f->extensions, dot)) {
				fprintf(stderr, "%s: read as %s, but %s does not list '%s' (%s)\n", path,
					f->name, f->name, dot, f->extensions);
				mismatches++;
			}
		}
		xqi_input_close(in);
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


/* ---- games written apart (format.h, `separator`) ---------------------------- */

#define APART_MAX 64

/* What a writer said about its games, one line per diagnostic (the game
 * number left out: the caller of a writer of its own renumbers). */
static void said(const struct xq_diagnostic *d, void *payload)
{
	xq_buf_addf(payload, "%d %d %u %s\n", (int)d->code, (int)d->severity, (unsigned)d->ply,
		    d->msg);
}

/* Every game of `path` into games[*n...]. */
static void read_games(const char *path, struct xqi_record *games, size_t *n)
{
	struct xqi_input *in;
	struct xq_diagnostic d;
	const unsigned char *head;
	size_t len;
	const struct xqi_format *f;
	struct xqi_read_opts ro = XQI_READ_OPTS_INIT;
	void *r;

	assert_int_equal(xqi_input_open(&in, path, &d), 0);
	assert_int_equal(xqi_input_peek(in, &head, &len, &d), 0);
	assert_non_null(f = xqi_format_detect(head, len, path));
	assert_int_equal(f->open_reader(&r, in, &ro, NULL), 0);
	while (*n < APART_MAX) {
		assert_int_equal(xqi_record_init(&games[*n]), 0);
		if (f->read(r, &games[*n]) != 1) {
			xqi_record_release(&games[*n]);
			break;
		}
		games[(*n)++].source = path; /* the reader's is the input's, closed below */
	}
	f->close_reader(r);
	xqi_input_close(in);
}

/* The games of `n` written by one writer, and each by a writer of its own
 * joined with the separator where a write before it returned 0: the same
 * bytes, the same return values, the same diagnostics.  Returns how many
 * games the writer refused, or -1 when it refuses `opts`. */
static int written_apart(const struct xqi_format *f, const struct xqi_write_opts *opts,
			 const struct xqi_record *games, size_t n)
{
	struct xq_buf one = XQ_BUF_INIT, apart = XQ_BUF_INIT, alone = XQ_BUF_INIT;
	struct xq_buf said_one = XQ_BUF_INIT, said_apart = XQ_BUF_INIT;
	struct xqi_sink sink_one = {said, &said_one}, sink_apart = {said, &said_apart};
	struct xq_file *o;
	void *w;
	int rc, any = 0, refused = 0;

	assert_int_equal(xqi_file_open_mem(&o, &one), 0);
	if (f->open_writer(&w, o, opts, &sink_one)) {
		xqi_file_abort(o);
		xq_buf_release(&said_one);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		void *wa;
		struct xq_file *oa;
		int rc_alone;
		xq_buf_addf(&said_one, "game %zu\n", i);
		xq_buf_addf(&said_apart, "game %zu\n", i);
		rc = f->write(w, &games[i]);
		xq_buf_reset(&alone);
		assert_int_equal(xqi_file_open_mem(&oa, &alone), 0);
		assert_int_equal(f->open_writer(&wa, oa, opts, &sink_apart), 0);
		assert_int_equal(alone.len, 0); /* open_writer writes nothing */
		rc_alone = f->write(wa, &games[i]);
		assert_int_equal(f->close_writer(wa), 0);
		assert_int_equal(xqi_file_commit(oa, NULL), 0);
		if (rc != rc_alone)
			fail_msg("%s: game %zu: %d written with the others, %d alone", f->name, i, rc,
				 rc_alone);
		refused += rc != 0;
		if (rc)
			continue;
		if (any++)
			xq_buf_adds(&apart, f->separator);
		xq_buf_add(&apart, alone.ptr, alone.len);
	}
	assert_int_equal(f->close_writer(w), 0);
	assert_int_equal(xqi_file_commit(o, NULL), 0);
	assert_int_equal(xq_buf_error(&one) | xq_buf_error(&apart) | xq_buf_error(&said_one), 0);
	assert_true(any > 1);
	if (one.len != apart.len || memcmp(one.ptr, apart.ptr, one.len)) {
		size_t k = 0;
		while (k < one.len && k < apart.len && one.ptr[k] == apart.ptr[k])
			k++;
		fail_msg("%s: written apart, the games differ from byte %zu on", f->name, k);
	}
	assert_string_equal(said_one.ptr, said_apart.ptr);
	xq_buf_release(&one);
	xq_buf_release(&apart);
	xq_buf_release(&alone);
	xq_buf_release(&said_one);
	xq_buf_release(&said_apart);
	return refused;
}

/* The games: variations, comments, NAGs, Chinese texts, a game broken
 * half way, and one whose start position could not be read (which the
 * writers that cannot hold it as text refuse, so the separator must
 * follow only the games written). */
static void writers_with_a_separator_write_each_game_as_a_writer_of_its_own(void **state)
{
	static const char *const inputs[] = {
		"tests/data/html/three-games.pgn", "tests/data/html/annotated.pgn",
		"tests/data/html/variations.pgn", "tests/data/pgn/gbk-bare-cr-variations.pgn",
		"tests/data/dhtmlxq/game.ubb", "tests/data/mixed/stray-byte.pgn",
	};
	static const char bad_fen[] = "not a position";
	struct xqi_record games[APART_MAX];
	struct xqi_write_opts opts[3] = {XQI_WRITE_OPTS_INIT, XQI_WRITE_OPTS_INIT, XQI_WRITE_OPTS_INIT};
	size_t n = 0, mid;
	int formats = 0, refused = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++)
		read_games(inputs[i], games, &n);
	assert_true(n > 4 && n < APART_MAX);
	/* The start position that could not be read, first and in the middle. */
	mid = n / 2;
	for (size_t i = n; i > 0; i--) {
		if (i - 1 < mid)
			break;
		games[i] = games[i - 1];
	}
	n++;
	assert_int_equal(xqi_record_init(&games[mid]), 0);
	assert_int_equal(xqi_record_set_start_text(&games[mid], bad_fen, sizeof(bad_fen) - 1), 0);
	opts[1].encoding = XQI_ENC_GBK;
	opts[2].notation = XQ_DIALECT_WXF;
	for (size_t k = 0; xqi_formats[k]; k++) {
		const struct xqi_format *f = xqi_formats[k];
		if (!f->separator)
			continue;
		assert_true(f->caps & XQ_FORMAT_MULTI);
		formats++;
		for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
			refused += written_apart(f, &opts[i], games, n) > 0;
		/* The game that may be refused first of all. */
		refused += written_apart(f, opts, games + mid, n - mid) > 0;
	}
	assert_true(formats >= 3); /* PGN, NDJSON, DhtmlXQ */
	assert_true(refused > 0);  /* DhtmlXQ cannot hold the start as text */
	for (size_t i = 0; i < n; i++)
		xqi_record_release(&games[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ubb_is_another_name_for_dhtmlxq),
		cmocka_unit_test(a_name_is_written_by_the_format_whose_first_extension_it_is),
		cmocka_unit_test(extension_under_gz_breaks_a_tie),
		cmocka_unit_test(every_shared_record_is_read_by_a_format_that_lists_its_extension),
		cmocka_unit_test(writers_with_a_separator_write_each_game_as_a_writer_of_its_own),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
