/*
 * fuzz_formats.h: what the format fuzz targets share: read every game of
 * an input through a format, check each tree replays legally and that the
 * reader ends (no more calls to read() than the input has bytes, and never
 * a game without moving on: xqi_read_guard's internal error), and for
 * formats that write, check that a game comes back equal from the writer
 * unless the writer reported a loss.  A broken invariant aborts (the
 * fuzzer's crash).
 *
 * Inputs above FUZZ_MAX_INPUT bytes are not run: larger ones find nothing
 * the small ones do not, and each run must stay fast (run the fuzzers with
 * -max_len, see README.md).
 */
#ifndef XQI_TESTS_FUZZ_FORMATS_H
#define XQI_TESTS_FUZZ_FORMATS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "movegen.h"

/* Say which invariant broke, then crash for the fuzzer. */
static inline void fuzz_fail(const char *what, const char *why)
{
	fprintf(stderr, "fuzz invariant broken: %s%s%s\n", what, why ? ": " : "", why ? why : "");
	abort();
}

#define FUZZ_MAX_GAMES 16
#define FUZZ_MAX_INPUT 65536

struct fuzz_diags {
	int losses, errors;
};

static inline void fuzz_count(const struct xq_diagnostic *d, void *payload)
{
	struct fuzz_diags *c = payload;

	c->losses += d->code == XQI_D_LOSS;
	c->errors += d->severity == XQ_SEVERITY_ERROR;
	if (d->msg[sizeof(d->msg) - 1] != '\0')
		abort(); /* messages are always terminated */
	if (d->code == XQI_D_INTERNAL)
		fuzz_fail("a reader did not move on between two games", d->msg);
}

/*
 * Count a call to read() on an input of `size` bytes: a game takes one
 * byte at least, so more than size + 1 calls (the games and the end) is a
 * reader that does not advance.
 */
static inline void fuzz_count_call(uint64_t *calls, size_t size)
{
	if (++*calls > (uint64_t)size + 1)
		fuzz_fail("a reader does not advance", "more calls to read() than bytes");
}

/* Every move of the tree is legal where it stands. */
static inline void fuzz_check_tree(const struct xqi_record *g)
{
	struct xqi_walk w;

	xqi_walk_init(&w, g);
	while (xqi_walk_next(&w) == 1) {
		struct xqi_position b = w.before;
		if (!xqi_move_is_legal(&b, g->nodes[w.node].move))
			fuzz_fail("illegal move in a tree", NULL);
	}
	xqi_walk_release(&w);
}

/*
 * Read every game (to the end of the input) and keep the first
 * FUZZ_MAX_GAMES in games[]; returns how many were kept.
 */
static inline int fuzz_read(const char *fmt, const void *data, size_t size,
			    const struct xqi_read_opts *opts, struct xqi_record *games,
			    struct fuzz_diags *c)
{
	const struct xqi_format *f = xqi_format_find(fmt);
	struct xqi_read_opts def = XQI_READ_OPTS_INIT;
	struct xqi_sink sink = {fuzz_count, c};
	struct xqi_input *in;
	struct xqi_record more;
	uint64_t calls = 0;
	void *r;
	int n = 0;

	if (!f || xqi_input_open_mem(&in, "fuzz", data, size) || xqi_record_init(&more))
		abort();
	if (f->open_reader(&r, in, opts ? opts : &def, &sink)) {
		xqi_input_close(in);
		xqi_record_release(&more);
		return 0;
	}
	for (;;) {
		struct xqi_record *g = n < FUZZ_MAX_GAMES ? &games[n] : &more;
		if (g != &more && xqi_record_init(g))
			abort();
		fuzz_count_call(&calls, size);
		if (f->read(r, g) <= 0) {
			if (g != &more)
				xqi_record_release(g);
			break;
		}
		fuzz_check_tree(g);
		/* The games outlive the input, as the public reader's do
		 * (api/io.c): their source name too. */
		if (g->source && !(g->source = xqi_record_strdup(g, g->source, strlen(g->source))))
			abort();
		if (g != &more)
			n++;
	}
	f->close_reader(r);
	xqi_input_close(in);
	xqi_record_release(&more);
	return n;
}

static inline void fuzz_read_only(const char *fmt, const void *data, size_t size)
{
	struct xqi_record games[FUZZ_MAX_GAMES];
	struct fuzz_diags c = {0, 0};
	int n = fuzz_read(fmt, data, size, NULL, games, &c);

	for (int i = 0; i < n; i++)
		xqi_record_release(&games[i]);
}

/*
 * Read every game of a text format with the encoding the first byte
 * picks (found from the content, or UTF-8, GB18030 or Big5 given), so
 * that both ways through the decoder are taken; `check` (may be NULL)
 * looks at each game kept.
 */
static inline void fuzz_read_encodings(const char *fmt, const uint8_t *data, size_t size,
				       void (*check)(const struct xqi_record *g))
{
	static const enum xqi_encoding encs[4] = {XQI_ENC_UNKNOWN, XQI_ENC_UTF8, XQI_ENC_GB18030,
						 XQI_ENC_BIG5};
	struct xqi_read_opts opts = XQI_READ_OPTS_INIT;
	struct xqi_record games[FUZZ_MAX_GAMES];
	struct fuzz_diags c = {0, 0};
	int n;

	if (size == 0 || size > FUZZ_MAX_INPUT)
		return;
	opts.encoding = encs[data[0] % 4];
	n = fuzz_read(fmt, data + 1, size - 1, &opts, games, &c);
	for (int i = 0; i < n; i++) {
		if (check)
			check(&games[i]);
		xqi_record_release(&games[i]);
	}
}

/* Write games[0..n) with format `f` and options `wo` (NULL: the default)
 * into `out`; returns how many were written. */
static inline int fuzz_write_opts(const struct xqi_format *f, const struct xqi_record *games, int n,
				  struct xq_buf *out, struct fuzz_diags *wc,
				  const struct xqi_write_opts *wo)
{
	struct xqi_sink sink = {fuzz_count, wc};
	struct xqi_write_opts wopts = XQI_WRITE_OPTS_INIT;
	struct xq_file *o;
	struct xq_diagnostic d;
	void *w;
	int wrote = 0;

	if (wo)
		wopts = *wo;
	if (xqi_file_open_mem(&o, out) || f->open_writer(&w, o, &wopts, &sink))
		abort();
	/* A format with one game a file gets one.  A writer refuses only a
	 * game whose start could not be read (kept as text: start_text) and
	 * that it has no place for. */
	for (int i = 0; i < n && (i == 0 || (f->caps & XQ_FORMAT_MULTI)); i++) {
		if (f->write(w, &games[i]) == 0)
			wrote++;
		else if (!games[i].start_text)
			abort();
	}
	f->close_writer(w);
	xqi_diagnostic_init(&d);
	if (xqi_file_commit(o, &d))
		abort();
	return wrote;
}

/* Write games[0..n) with format `f` into `out`; returns how many were written. */
static inline int fuzz_write(const struct xqi_format *f, const struct xqi_record *games, int n,
			     struct xq_buf *out, struct fuzz_diags *wc)
{
	return fuzz_write_opts(f, games, n, out, wc, NULL);
}

/* The games read and read back, and the bytes written, of a round trip. */
static inline void fuzz_trip_release(struct xqi_record *games, int n, struct xqi_record *back, int m,
				     struct xq_buf *out, struct xq_buf *again)
{
	for (int i = 0; i < n; i++)
		xqi_record_release(&games[i]);
	for (int i = 0; i < m; i++)
		xqi_record_release(&back[i]);
	xq_buf_release(out);
	xq_buf_release(again);
}

/*
 * Every tag of `a` comes back in `b` with its value, as convert --verify
 * checks them: the first of a name, not empty, and not one a writer
 * rewrites (FEN, Result, Format).  A format may add tags that describe
 * the record (CBR's RecordType 0): a target that allows it passes
 * XQ_EQUAL_IGNORE_TAGS to fuzz_round_trip, which then checks this instead.
 */
static inline void fuzz_tags_kept(const struct xqi_record *a, const struct xqi_record *b)
{
	for (size_t i = 0; i < a->ntags; i++) {
		const char *name = a->tags[i].name, *v = a->tags[i].value, *w;
		if (!*v || !strcmp(name, "FEN") || !strcmp(name, "Result") ||
		    !strcmp(name, "Format") || xqi_record_tag(a, name) != v)
			continue;
		if (!(w = xqi_record_tag(b, name)) || strcmp(v, w))
			fuzz_fail("a tag changed through the writer", name);
	}
}

/*
 * Read, write back, read again: equal games unless something was reported
 * lost; and the games read back write the very same bytes (what xqkit
 * convert --verify checks).
 */
static inline void fuzz_round_trip(const char *fmt, const void *data, size_t size,
				   const struct xqi_read_opts *opts, unsigned ignore)
{
	const struct xqi_format *f = xqi_format_find(fmt);
	struct xqi_record games[FUZZ_MAX_GAMES], back[FUZZ_MAX_GAMES];
	struct fuzz_diags c = {0, 0}, wc = {0, 0}, rc = {0, 0}, wc2 = {0, 0};
	struct xq_buf out = XQ_BUF_INIT, again = XQ_BUF_INIT;
	int n = fuzz_read(fmt, data, size, opts, games, &c), m = 0, wrote;

	if (n == 0)
		return;
	wrote = fuzz_write(f, games, n, &out, &wc);
	/* A refused game (above) leaves the others without their partners. */
	if (wc.losses == 0 && wrote == ((f->caps & XQ_FORMAT_MULTI) ? n : 1)) {
		m = fuzz_read(fmt, out.ptr, out.len, NULL, back, &rc);
		if (m != wrote || rc.errors)
			fuzz_fail("written games do not read back cleanly", out.ptr);
		for (int i = 0; i < m; i++) {
			unsigned ig = ignore;
			/* CBF always states a result: none comes back as unknown ("*"). */
			if (games[i].result == XQI_RESULT_NONE) {
				ig |= XQ_EQUAL_IGNORE_RESULT;
				if (!xqi_record_tag(&games[i], "Result"))
					xqi_record_remove_tag(&back[i], "Result");
			}
			char why[512];
			if (!xqi_record_equal(&games[i], &back[i], ig, why, sizeof(why)))
				fuzz_fail("a game changed through the writer", why);
			if (ig & XQ_EQUAL_IGNORE_TAGS)
				fuzz_tags_kept(&games[i], &back[i]);
		}
		fuzz_write(f, back, m, &again, &wc2);
		if (again.len != out.len || memcmp(again.ptr, out.ptr, out.len))
			fuzz_fail("games read back do not write the same bytes", again.ptr);
	}
	fuzz_trip_release(games, n, back, m, &out, &again);
}

/*
 * The tags a writer makes itself from the game (Game and Format, the FEN
 * from the start position) or from its result (Result), or that the
 * format always holds (XQF's GameType), are compared through what they
 * stand for: taken out before two games are compared.
 */
static inline void fuzz_drop_framing(struct xqi_record *g, const char *fmt)
{
	static const char *const made[] = {"Game", "Format", "FEN", "Result"};

	for (size_t i = 0; i < sizeof(made) / sizeof(made[0]); i++)
		xqi_record_remove_tag(g, made[i]);
	/* XQF's header always has a game type (full game, ending, ...): it
	 * comes back as a tag whether the game had one or not. */
	if (!strcmp(fmt, "xqf"))
		xqi_record_remove_tag(g, "GameType");
	/* No result and an unknown one are both "*" in most formats. */
	if (g->result == XQI_RESULT_NONE)
		g->result = XQI_RESULT_UNKNOWN;
}

/*
 * A writer's round trip from another format's games: read `data` as
 * `from`, write the games as `to` with `wo`, read them back as `to`.
 * Unless the writer reported a loss, they come back equal (less what
 * `ignore` says, and the tags fuzz_drop_framing() leaves out), read
 * cleanly, and written again give the very same bytes (what xqkit
 * convert --verify checks).  A game the writer refuses (an unreadable
 * start it has no place for) leaves the rest unchecked; broken games
 * are only written.
 */
static inline void fuzz_writer_trip(const char *from, const char *to, const void *data,
				    size_t size, const struct xqi_read_opts *ropts,
				    const struct xqi_write_opts *wo, unsigned ignore)
{
	const struct xqi_format *f = xqi_format_find(to);
	struct xqi_record games[FUZZ_MAX_GAMES], back[FUZZ_MAX_GAMES];
	struct fuzz_diags c = {0, 0}, wc = {0, 0}, rc = {0, 0}, wc2 = {0, 0};
	struct xq_buf out = XQ_BUF_INIT, again = XQ_BUF_INIT;
	int n = fuzz_read(from, data, size, ropts, games, &c), m = 0, wrote;

	if (!f)
		abort();
	/* Broken games are written (a writer must not crash on them), but
	 * what they come back as is their reader's error again: the round
	 * trip is the whole games'. */
	for (int i = 0; i < n; i++)
		if (games[i].flags & XQI_RECORD_BROKEN) {
			fuzz_write_opts(f, &games[i], 1, &again, &wc2, wo);
			xq_buf_reset(&again);
			xqi_record_release(&games[i]);
			games[i--] = games[--n];
		}
	wc2.losses = wc2.errors = 0;
	/* A format of one game a file gets the first. */
	while (!(f->caps & XQ_FORMAT_MULTI) && n > 1)
		xqi_record_release(&games[--n]);
	if (n == 0) {
		xq_buf_release(&again);
		return;
	}
	wrote = fuzz_write_opts(f, games, n, &out, &wc, wo);
	if (wc.losses == 0 && wrote == n) {
		/* Read back in the encoding written, as convert --verify does:
		 * XQF, say, does not say its own. */
		struct xqi_read_opts again_opts = XQI_READ_OPTS_INIT;
		if (wo)
			again_opts.encoding = wo->encoding;
		m = fuzz_read(to, out.ptr, out.len, &again_opts, back, &rc);
		if (m != wrote || rc.errors)
			fuzz_fail("written games do not read back cleanly", out.ptr);
		fuzz_write_opts(f, back, m, &again, &wc2, wo);
		if (again.len != out.len || memcmp(again.ptr, out.ptr, out.len))
			fuzz_fail("games read back do not write the same bytes", again.ptr);
		for (int i = 0; i < m; i++) {
			char why[512];
			fuzz_drop_framing(&games[i], to);
			fuzz_drop_framing(&back[i], to);
			if (!xqi_record_equal(&games[i], &back[i], ignore, why, sizeof(why)))
				fuzz_fail("a game changed through the writer", why);
		}
	}
	fuzz_trip_release(games, n, back, m, &out, &again);
}

#endif
