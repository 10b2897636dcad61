/*
 * ccb_testutil.h: helpers for the tests of the DhtmlXQ, CBF, CBR and CBL
 * formats: read every game of a buffer through the format interface,
 * write games back, collect the diagnostics, and print a tree in a form
 * that assertions can compare.  Include after testutil.h.
 */
#ifndef XQI_TESTS_CCB_TESTUTIL_H
#define XQI_TESTS_CCB_TESTUTIL_H

#include "format.h"
#include "record.h"

#define MAX_DIAGS 512
#define MAX_GAMES 128

struct collected {
	struct xq_diagnostic d[MAX_DIAGS];
	int n;
	int dropped;
};

static inline void collect(const struct xq_diagnostic *d, void *payload)
{
	struct collected *c = payload;

	if (c->n < MAX_DIAGS)
		c->d[c->n++] = *d;
	else
		c->dropped++;
}

/* The first diagnostic with `code` whose message contains `part` (NULL: any). */
static inline const struct xq_diagnostic *find_diag(const struct collected *c, enum xqi_diagnostic_code code,
					      const char *part)
{
	for (int i = 0; i < c->n; i++)
		if (c->d[i].code == code && (!part || strstr(c->d[i].msg, part)))
			return &c->d[i];
	return NULL;
}

static inline int count_diags(const struct collected *c, enum xq_severity_level at_least)
{
	int n = 0;

	for (int i = 0; i < c->n; i++)
		n += c->d[i].severity >= at_least;
	return n;
}

/* Leave out the notes of results read from words (DhtmlXQ writes 和棋,
 * which its reader reads back saying so): what is left is what is wrong. */
static inline void drop_result_notes(struct collected *c)
{
	int k = 0;

	for (int i = 0; i < c->n; i++)
		if (!(c->d[i].severity == XQ_SEVERITY_NOTE && c->d[i].code == XQI_D_BAD_TAG &&
		      strstr(c->d[i].msg, " is read as ")))
			c->d[k++] = c->d[i];
	c->n = k;
}

static inline void print_diags(const struct collected *c)
{
	for (int i = 0; i < c->n; i++)
		fprintf(stderr, "  diag %s %s: %s (line %llu col %llu off %llu game %llu ply %u '%s')\n",
			xqi_severity_name(c->d[i].severity), xqi_diagnostic_code_name(c->d[i].code),
			c->d[i].msg, (unsigned long long)c->d[i].place.line,
			(unsigned long long)c->d[i].place.col,
			(unsigned long long)c->d[i].place.offset, (unsigned long long)c->d[i].game,
			c->d[i].ply, c->d[i].move);
}

/*
 * Read every game of `data` with format `fmt` into games[0..max) (each
 * initialised here; release them with release_games).  Returns the number
 * read; *rc gets the reader's last return (0 at the end, or an error).
 */
static inline int read_games_opts(const char *fmt, const void *data, size_t len,
				  struct xqi_record *games, int max, struct collected *c, int *rc,
				  const struct xqi_read_opts *opts)
{
	const struct xqi_format *f = xqi_format_find(fmt);
	struct xqi_read_opts def = XQI_READ_OPTS_INIT;
	struct xqi_sink sink = {collect, c};
	struct xqi_input *in;
	void *r;
	int n = 0, got;

	assert_non_null(f);
	assert_int_equal(xqi_input_open_mem(&in, "test", data, len), 0);
	assert_int_equal(f->open_reader(&r, in, opts ? opts : &def, &sink), 0);
	for (;;) {
		if (n == max)
			fail_msg("more than %d games", max);
		assert_int_equal(xqi_record_init(&games[n]), 0);
		got = f->read(r, &games[n]);
		if (got <= 0) {
			xqi_record_release(&games[n]);
			break;
		}
		n++;
	}
	if (rc)
		*rc = got;
	f->close_reader(r);
	xqi_input_close(in);
	return n;
}

static inline int read_games(const char *fmt, const void *data, size_t len, struct xqi_record *games,
			     int max, struct collected *c, int *rc)
{
	return read_games_opts(fmt, data, len, games, max, c, rc, NULL);
}

static inline void release_games(struct xqi_record *games, int n)
{
	for (int i = 0; i < n; i++)
		xqi_record_release(&games[i]);
}

/* Write games[0..n) with format `fmt` into `out` (appended); returns the last write's code. */
static inline int write_games_opts(const char *fmt, const struct xqi_record *games, int n,
				   struct xq_buf *out, struct collected *c,
				   const struct xqi_write_opts *opts)
{
	const struct xqi_format *f = xqi_format_find(fmt);
	struct xqi_write_opts def = XQI_WRITE_OPTS_INIT;
	struct xqi_sink sink = {collect, c};
	struct xq_file *o;
	struct xq_diagnostic d;
	void *w;
	int rc = 0;

	assert_non_null(f);
	assert_int_equal(xqi_file_open_mem(&o, out), 0);
	assert_int_equal(f->open_writer(&w, o, opts ? opts : &def, &sink), 0);
	for (int i = 0; i < n && rc == 0; i++)
		rc = f->write(w, &games[i]);
	assert_int_equal(f->close_writer(w), 0);
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_file_commit(o, &d), 0);
	return rc;
}

static inline int write_games(const char *fmt, const struct xqi_record *games, int n,
			      struct xq_buf *out, struct collected *c)
{
	return write_games_opts(fmt, games, n, out, c, NULL);
}

/* A file's bytes (malloc'd), or NULL when it cannot be read. */
static inline char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		size_t got;
		if (n == cap) {
			char *p = realloc(buf, cap ? cap * 2 : 65536);
			if (!p)
				break;
			buf = p;
			cap = cap ? cap * 2 : 65536;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	*len = n;
	return buf;
}

/* A fixture under tests/data/<dir>/ (malloc'd); fails the test when absent. */
static inline char *fixture_in(const char *dir, const char *name, size_t *len)
{
	char path[512];
	char *data;

	snprintf(path, sizeof(path), "tests/data/%s/%s", dir, name);
	data = slurp(path, len);
	if (!data)
		fail_msg("cannot read %s", path);
	return data;
}

/* A file of the shared corpus, by its path under corpus/pgn/ (malloc'd), or NULL. */
static inline char *corpus_file(const char *rel, size_t *len)
{
	char path[4200];

	snprintf(path, sizeof(path), "%.3000s/corpus/pgn/%s", test_shared_dir(), rel);
	return slurp(path, len);
}

static inline xqi_move mv(const char *iccs)
{
	return XQI_MOVE(XQI_SQ(iccs[0] - 'a', iccs[1] - '0'), XQI_SQ(iccs[2] - 'a', iccs[3] - '0'));
}

/*
 * The tree in pre-order, one token per move: its ply, the move in ICCS,
 * and '*' when it is an alternative (not the first child): "1h2e2 2h9g7
 * 2b9c7* 3h0g2".  That string fixes the tree's shape exactly.
 */
static inline void tree_string(const struct xqi_record *g, char *out, size_t cap)
{
	size_t len = 0;

	out[0] = '\0';
	for (uint32_t n = g->nodes[XQI_ROOT].child; n != XQ_NO_NODE; n = xqi_record_next(g, n)) {
		char name[5];
		int k;
		xqi_move_name(g->nodes[n].move, name);
		k = snprintf(out + len, cap - len, "%s%u%s%s", len ? " " : "",
			     (unsigned)xqi_record_ply(g, n), name,
			     g->nodes[g->nodes[n].parent].child != n ? "*" : "");
		if (k < 0 || (size_t)k >= cap - len)
			break;
		len += (size_t)k;
	}
}

/* Assert that two games are equal (xqi_record_equal with `ignore`), saying why not. */
#define ASSERT_GAMES_EQUAL(a, b, ignore)                                          \
	do {                                                                      \
		char why_[512];                                                   \
		if (!xqi_record_equal((a), (b), (ignore), why_, sizeof(why_)))       \
			fail_msg("games differ: %s", why_);                       \
	} while (0)

#endif
