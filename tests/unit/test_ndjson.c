/*
 * test_ndjson.c: NDJSON game records (formats/ndjson.c) read and written
 * exactly, errors placed exactly, and every NDJSON line the commands print
 * (validate, convert, replay) checked as JSON by a checker written here,
 * independently of the reader under test.
 */
#include "testutil.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "diagnostic.h"
#include "format.h"
#include "record.h"
#include "io.h"
#include "notation.h"
#include "utf8.h"

/* ---- an independent JSON checker (RFC 8259, iterative) -------------------- */

static size_t ws(const char *s, size_t i, size_t n)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	return i;
}

/* Returns the index after a string starting at s[i] == '"', or 0. */
static size_t jstring(const char *s, size_t i, size_t n)
{
	for (i++; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"')
			return i + 1;
		if (c < 0x20)
			return 0;
		if (c == '\\') {
			i++;
			if (i >= n)
				return 0;
			if (s[i] == 'u') {
				for (int k = 1; k <= 4; k++)
					if (i + (size_t)k >= n || !strchr("0123456789abcdefABCDEF", s[i + k]) || !s[i + k])
						return 0;
				i += 4;
			} else if (!strchr("\"\\/bfnrt", s[i]) || !s[i]) {
				return 0;
			}
		}
	}
	return 0;
}

static size_t jnumber(const char *s, size_t i, size_t n)
{
	size_t start;
	if (i < n && s[i] == '-')
		i++;
	start = i;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i == start || (s[start] == '0' && i - start > 1))
		return 0;
	if (i < n && s[i] == '.') {
		size_t d = ++i;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i == d)
			return 0;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		size_t d;
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		d = i;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i == d)
			return 0;
	}
	return i;
}

/* Is s[0..n) exactly one JSON value (valid UTF-8, optional whitespace)? */
static int json_valid(const char *s, size_t n)
{
	char stack[100000];
	int depth = 0;
	size_t i = 0;
	enum { VALUE, AFTER } want = VALUE;

	if (xq_utf8_check(s, n) != n)
		return 0;
	for (;;) {
		i = ws(s, i, n);
		if (want == VALUE) {
			if (i >= n)
				return 0;
			if (s[i] == '{' || s[i] == '[') {
				if (depth == (int)sizeof(stack))
					return 0;
				stack[depth++] = s[i++];
				i = ws(s, i, n);
				if (i < n && (s[i] == '}' || s[i] == ']')) {
					if ((s[i] == '}') != (stack[depth - 1] == '{'))
						return 0;
					depth--;
					i++;
					want = AFTER;
					continue;
				}
				if (stack[depth - 1] == '{') {
					if (i >= n || s[i] != '"' || !(i = jstring(s, i, n)))
						return 0;
					i = ws(s, i, n);
					if (i >= n || s[i++] != ':')
						return 0;
				}
				continue;
			}
			if (s[i] == '"')
				i = jstring(s, i, n);
			else if (s[i] == '-' || (s[i] >= '0' && s[i] <= '9'))
				i = jnumber(s, i, n);
			else if (n - i >= 4 && !memcmp(s + i, "true", 4))
				i += 4;
			else if (n - i >= 5 && !memcmp(s + i, "false", 5))
				i += 5;
			else if (n - i >= 4 && !memcmp(s + i, "null", 4))
				i += 4;
			else
				return 0;
			if (!i)
				return 0;
			want = AFTER;
			continue;
		}
		if (depth == 0)
			return i == n;
		if (i >= n)
			return 0;
		if (s[i] == ',') {
			i = ws(s, i + 1, n);
			if (stack[depth - 1] == '{') {
				if (i >= n || s[i] != '"' || !(i = jstring(s, i, n)))
					return 0;
				i = ws(s, i, n);
				if (i >= n || s[i++] != ':')
					return 0;
			}
			want = VALUE;
			continue;
		}
		if ((s[i] == '}' && stack[depth - 1] == '{') || (s[i] == ']' && stack[depth - 1] == '[')) {
			depth--;
			i++;
			continue;
		}
		return 0;
	}
}

/* ---- helpers ------------------------------------------------------------------ */

static const struct xqi_format *ndjson(void)
{
	const struct xqi_format *f = xqi_format_find("ndjson");
	assert_non_null(f);
	return f;
}

static void collect(const struct xq_diagnostic *d, void *payload)
{
	struct xq_diagnostic *all = payload;
	for (int i = 0; i < 16; i++) {
		if (all[i].code == XQI_D_NONE && !all[i].msg[0]) {
			all[i] = *d;
			return;
		}
	}
}

/* Read every record of `text`; games[] gets up to `max`, diagnostics go to diags[16]. */
static int read_all(const char *text, struct xqi_record *games, int max, struct xq_diagnostic *diags)
{
	const struct xqi_format *f = ndjson();
	struct xqi_sink sink = {collect, diags};
	struct xqi_input *in;
	void *r;
	int n = 0, rc;

	memset(diags, 0, 16 * sizeof(*diags));
	assert_int_equal(xqi_input_open_mem(&in, "t.ndjson", text, strlen(text)), 0);
	assert_int_equal(f->open_reader(&r, in, NULL, &sink), 0);
	while (n < max) {
		rc = f->read(r, &games[n]);
		assert_true(rc >= 0);
		if (rc == 0)
			break;
		n++;
	}
	f->close_reader(r);
	/* The games borrow the input's name, which closing it frees: they
	 * get the same name, static, so that a test may write them after. */
	for (int i = 0; i < n; i++)
		games[i].source = "t.ndjson";
	xqi_input_close(in);
	return n;
}

/* Like read_all(), but the input stays open (games borrow its name) until
 * close_all(). */
struct open_read {
	struct xqi_input *in;
	void *r;
	struct xqi_sink sink;
};

static int read_open(struct open_read *o, const char *name, const char *text,
		     struct xqi_record *games, int max, struct xq_diagnostic *diags)
{
	const struct xqi_format *f = ndjson();
	int n = 0, rc;

	memset(diags, 0, 16 * sizeof(*diags));
	o->sink.report = collect;
	o->sink.payload = diags;
	assert_int_equal(xqi_input_open_mem(&o->in, name, text, strlen(text)), 0);
	assert_int_equal(f->open_reader(&o->r, o->in, NULL, &o->sink), 0);
	while (n < max && (rc = f->read(o->r, &games[n])) != 0) {
		assert_true(rc > 0);
		n++;
	}
	return n;
}

static void close_all(struct open_read *o)
{
	ndjson()->close_reader(o->r);
	xqi_input_close(o->in);
}

static void write_one(const struct xqi_record *g, struct xq_buf *out)
{
	const struct xqi_format *f = ndjson();
	struct xq_file *o;
	void *w;

	assert_int_equal(xqi_file_open_mem(&o, out), 0);
	assert_int_equal(f->open_writer(&w, o, NULL, NULL), 0);
	assert_int_equal(f->write(w, g), 0);
	assert_int_equal(f->close_writer(w), 0);
	assert_int_equal(xqi_file_commit(o, NULL), 0);
}

static const char full_record[] =
	"{\"schema\":\"xqkit.game/1\","
	"\"source\":{\"file\":\"games.pgn\",\"game\":7,\"line\":120,\"offset\":4294971392},"
	"\"tags\":[{\"name\":\"Event\",\"value\":\"\xE6\xB5\x8B\xE8\xAF\x95\"},"
	"{\"name\":\"Red\",\"value\":\"A \\\"quoted\\\" name\"},{\"name\":\"Red\",\"value\":\"twice\"}],"
	"\"fen\":\"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\","
	"\"result\":\"1/2-1/2\",\"comment\":\"before the first move\\nsecond line\","
	"\"moves\":[{\"iccs\":\"h2e2\",\"text\":\"\xE7\x82\xAE\xE4\xBA\x8C\xE5\xB9\xB3\xE4\xBA\x94\","
	"\"pre_comment\":\"pre\",\"comment\":\"after\",\"nags\":[1,146],"
	"\"variations\":[[{\"iccs\":\"b2e2\"},{\"iccs\":\"h9g7\",\"variations\":[[{\"iccs\":\"b9c7\"}]]}],"
	"[{\"iccs\":\"c3c4\"}]]},{\"iccs\":\"h9g7\"},{\"iccs\":\"h0g2\"}]}\n";

/* ---- tests ---------------------------------------------------------------------- */

/* Bytes for a splitter or a chunk reader, from an input. */
static long input_bytes(void *ctx, void *buf, size_t n, struct xq_diagnostic *d)
{
	return xqi_input_read(ctx, buf, n, d);
}

static void splitter_proposes_the_line_after_each_record(void **state)
{
	/* A byte order mark, blank lines (one of spaces), a last record with
	 * no line end. */
	static const char text[] = "\xEF\xBB\xBF{\"schema\":\"xqkit.game/1\",\"moves\":[]}\n\n  \r\n"
				   "{\"schema\":\"xqkit.game/1\",\"moves\":[]}\r\n"
				   "{\"schema\":\"xqkit.game/1\",\"moves\":[]}";
	const struct xqi_split_ops *ops = xqi_format_split(ndjson());
	struct xqi_input *in;
	struct xqi_bytes src = {input_bytes, NULL};
	struct xqi_split_point pt[4];
	void *sp;
	int n = 0;

	(void)state;
	assert_non_null(ops);
	assert_int_equal(xqi_input_open_mem(&in, "split.ndjson", text, sizeof(text) - 1), 0);
	src.ctx = in;
	assert_int_equal(ops->open(&sp, &src, NULL), 0);
	while (n < 4 && ops->next(sp, &pt[n]) == 1)
		n++;
	ops->close(sp);
	xqi_input_close(in);
	assert_int_equal(n, 2);
	assert_int_equal(pt[0].offset, 40);
	assert_int_equal(pt[0].line, 2);
	assert_int_equal(pt[0].records, 1);
	assert_int_equal(pt[0].seen, pt[0].offset);
	assert_int_equal(pt[1].offset, 40 + 1 + 4 + 38);
	assert_int_equal(pt[1].line, 5);
	assert_int_equal(pt[1].records, 2);
}

static void blank_lines_of_more_than_16_mib_end_the_reading_and_the_splitting(void **state)
{
	static const char rec[] = "{\"schema\":\"xqkit.game/1\",\"moves\":[]}\n";
	size_t len = (size_t)(XQI_SKIP_MAX + (1 << 20)), head = sizeof(rec) - 1;
	char *text = malloc(len);
	const struct xqi_split_ops *ops = xqi_format_split(ndjson());
	struct xq_diagnostic diags[16];
	struct xqi_sink sink = {collect, diags};
	struct xqi_bytes src = {input_bytes, NULL};
	struct xqi_split_point pt;
	struct xqi_input *in;
	struct xqi_record g;
	void *r;

	(void)state;
	assert_non_null(text);
	/* A record, blank lines for ever (so far as a pipe goes), a record. */
	memset(text, '\n', len);
	memcpy(text, rec, head);
	memcpy(text + len - head, rec, head);
	memset(diags, 0, sizeof(diags));
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(xqi_input_open_mem(&in, "t.ndjson", text, len), 0);
	assert_int_equal(ndjson()->open_reader(&r, in, NULL, &sink), 0);
	assert_int_equal(ndjson()->read(r, &g), 1);
	assert_int_equal(ndjson()->read(r, &g), XQ_ERANGE);
	assert_int_equal(diags[0].code, XQI_D_RESOURCE);
	assert_non_null(strstr(diags[0].msg, "more than 16 MiB of blank lines since line 2"));
	ndjson()->close_reader(r);
	xqi_input_close(in);
	/* The splitter leaves them to the reader. */
	assert_int_equal(xqi_input_open_mem(&in, "t.ndjson", text, len), 0);
	src.ctx = in;
	assert_int_equal(ops->open(&r, &src, NULL), 0);
	assert_int_equal(ops->next(r, &pt), 1);
	assert_int_equal(ops->next(r, &pt), XQ_ERANGE);
	ops->close(r);
	xqi_input_close(in);
	xqi_record_release(&g);
	free(text);
}

static void reports_on_one_line_give_columns_in_characters(void **state)
{
	struct xqi_record g[2];
	struct xq_diagnostic d[16];
	int n;

	(void)state;
	assert_int_equal(xqi_record_init(&g[0]), 0);
	assert_int_equal(xqi_record_init(&g[1]), 0);
	/* Each report counted the characters from the line's start: 40,000
	 * on one line took 19 s.  They now count on from the last one. */
	n = read_all("{\"schema\":\"xqkit.game/1\",\"tags\":[{\"name\":\"Event\",\"value\":"
		     "\"\xE7\x82\xAE\xE7\x82\xAE\"}],\"zz\":1,\"moves\":[{\"iccs\":\"h2e2\",\"yy\":2},"
		     "{\"iccs\":\"h9g7\",\"xx\":3}]}\n"
		     "{\"schema\":\"xqkit.game/1\",\"ww\":1,\"moves\":[]}\n",
		     g, 2, d);
	assert_int_equal(n, 2);
	assert_non_null(strstr(d[0].msg, "\"zz\""));
	assert_int_equal(d[0].place.col, 65);
	assert_non_null(strstr(d[1].msg, "\"yy\""));
	assert_int_equal(d[1].place.col, 96);
	assert_non_null(strstr(d[2].msg, "\"xx\""));
	assert_int_equal(d[2].place.col, 119);
	/* The next line counts from its own start. */
	assert_non_null(strstr(d[3].msg, "\"ww\""));
	assert_int_equal(d[3].place.line, 2);
	assert_int_equal(d[3].place.col, 26);
	xqi_record_release(&g[0]);
	xqi_record_release(&g[1]);
}

static void chunk_reader_counts_lines_offsets_and_records_from_its_start(void **state)
{
	static const char text[] = "{\"schema\":\"xqkit.game/1\",\"moves\":[]}\n"
				   "\n{\"schema\":\"xqkit.game/1\",\"moves\":[{\"iccs\":\"a0a9\"}]}\n";
	const struct xqi_split_ops *ops = xqi_format_split(ndjson());
	struct xq_diagnostic diags[16];
	struct xqi_sink sink = {collect, diags};
	struct xqi_input *in;
	struct xqi_chunk c;
	struct xqi_record g;
	struct xqi_place next;
	void *rd;

	(void)state;
	memset(diags, 0, sizeof(diags));
	assert_int_equal(xqi_input_open_mem(&in, "chunk", text + 37, sizeof(text) - 1 - 37), 0);
	memset(&c, 0, sizeof(c));
	c.bytes.read = input_bytes;
	c.bytes.ctx = in;
	c.name = "chunk";
	c.offset = 37;
	c.line = 2;
	c.records = 1;
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(ops->open_chunk(&rd, &c, NULL, &sink), 0);
	assert_int_equal(ndjson()->read(rd, &g), 1);
	assert_int_equal(g.number, 2);
	assert_int_equal(g.place.line, 3);
	assert_int_equal(g.place.offset, 38);
	assert_true(g.flags & XQI_RECORD_BROKEN);
	assert_int_equal(diags[0].code, XQI_D_ILLEGAL_MOVE);
	assert_int_equal(diags[0].game, 2);
	assert_int_equal(diags[0].place.line, 3);
	assert_int_equal(ops->chunk_next(rd, &next), 1);
	assert_int_equal(next.offset, sizeof(text) - 1);
	assert_int_equal(next.line, 4);
	assert_int_equal(next.col, 1);
	assert_int_equal(ndjson()->read(rd, &g), 0);
	ndjson()->close_reader(rd);
	xqi_input_close(in);
	xqi_record_release(&g);
}


static void json_checker_rejects_malformed_text(void **state)
{
	static const char *const bad[] = {"", "{", "{\"a\":}", "[1,]", "{\"a\" 1}", "01", "\"\x01\"",
					  "[1] x", "{\"a\":1,}", "\"\\x\"", "tru", "\"\xC3\""};
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(json_valid(bad[i], strlen(bad[i])));
	{
		static const char good[] = "{\"a\":[1,-2.5e3,true,false,null,{}],\"b\":\"\\u00e9\"}";
		assert_true(json_valid(good, strlen(good)));
	}
}

static void record_round_trips_exactly(void **state)
{
	struct xqi_record g[2], back[1];
	struct xq_diagnostic diags[16];
	struct xq_buf out = XQ_BUF_INIT;
	char why[256];

	(void)state;
	assert_int_equal(xqi_record_init(&g[0]), 0);
	assert_int_equal(xqi_record_init(&back[0]), 0);
	assert_int_equal(read_all(full_record, g, 1, diags), 1);
	assert_int_equal(diags[0].code, XQI_D_NONE);
	assert_int_equal(g[0].ntags, 3);
	assert_string_equal(g[0].tags[1].value, "A \"quoted\" name");
	assert_int_equal(g[0].result, XQI_RESULT_DRAW);
	assert_string_equal(g[0].nodes[XQI_ROOT].comment, "before the first move\nsecond line");
	write_one(&g[0], &out);
	/* The writer's bytes are the record's bytes (members in the schema's order). */
	assert_string_equal(out.ptr, full_record);
	assert_true(json_valid(out.ptr, out.len - 1));
	assert_int_equal(read_all(out.ptr, back, 1, diags), 1);
	assert_true(xqi_record_equal(&g[0], &back[0], 0, why, sizeof(why)));
	xq_buf_release(&out);
	xqi_record_release(&g[0]);
	xqi_record_release(&back[0]);
}

static void records_say_where_their_game_was_first_read(void **state)
{
	static const char bare[] = "{\"schema\":\"xqkit.game/1\",\"moves\":[]}\n"
				   "{\"schema\":\"xqkit.game/1\",\"moves\":[{\"iccs\":\"h2e2\"}]}\n";
	struct xqi_record g[2], back[1];
	struct xq_diagnostic diags[16];
	struct xq_buf out = XQ_BUF_INIT;
	struct xqi_origin o;
	struct open_read first, second;

	(void)state;
	assert_int_equal(xqi_record_init(&g[0]), 0);
	assert_int_equal(xqi_record_init(&g[1]), 0);
	assert_int_equal(xqi_record_init(&back[0]), 0);
	assert_int_equal(read_open(&first, "t.ndjson", bare, g, 2, diags), 2);
	/* A record that carries no origin: this input is where it was read. */
	xqi_record_origin(&g[1], &o);
	assert_string_equal(o.file, "t.ndjson");
	assert_int_equal(o.game, 2);
	assert_int_equal(o.line, 2);
	assert_int_equal(o.offset, 37);
	assert_true(o.has_offset);
	write_one(&g[1], &out);
	close_all(&first);
	assert_non_null(strstr(out.ptr, ",\"source\":{\"file\":\"t.ndjson\",\"game\":2,\"line\":2,"
					"\"offset\":37},\"tags\":"));
	/* Read again from another input (as after a conversion): the origin
	 * it carries stays; it is not replaced by the new input's place. */
	assert_int_equal(read_open(&second, "u.ndjson", out.ptr, back, 1, diags), 1);
	assert_int_equal(diags[0].code, XQI_D_NONE);
	assert_int_equal(back[0].number, 1);
	xq_buf_reset(&out);
	close_all(&second);
	xqi_record_origin(&back[0], &o);
	assert_string_equal(o.file, "t.ndjson"); /* the game owns it: the input is closed */
	assert_int_equal(o.game, 2);
	assert_int_equal(o.line, 2);
	assert_int_equal(o.offset, 37);
	write_one(&back[0], &out);
	assert_non_null(strstr(out.ptr, "\"source\":{\"file\":\"t.ndjson\",\"game\":2,\"line\":2,"));
	xq_buf_release(&out);
	xqi_record_release(&g[0]);
	xqi_record_release(&g[1]);
	xqi_record_release(&back[0]);
}

/* What the game is written as with number `number` and line `line`. */
static void write_numbered(struct xqi_record *g, uint64_t number, uint64_t line, struct xq_buf *out)
{
	g->number = number;
	g->place.line = line;
	xq_buf_reset(out);
	write_one(g, out);
}

static void renumbering_gives_the_bytes_written_with_the_new_numbers(void **state)
{
	static const char bare[] = "{\"schema\":\"xqkit.game/1\",\"moves\":[{\"iccs\":\"h2e2\"}]}\n";
	/* Shorter and longer numbers; a file name whose JSON string holds
	 * escapes, a quote and what looks like the members that follow it;
	 * no file at all. */
	static const char *const names[] = {"t.ndjson", "a\"b\\\",\"game\":1,\"line\":1}.pgn", NULL};
	static const uint64_t from[][2] = {{1, 1}, {7, 15}, {123456, 7000000}, {9, 3}};
	static const uint64_t to[][2] = {{70001, 1234567}, {7, 16}, {3, 5}, {9, 3}};
	struct xqi_record g[1];
	struct xq_diagnostic diags[16];
	struct xq_buf text = XQ_BUF_INIT, want = XQ_BUF_INIT;
	const struct xqi_format *f = ndjson();

	(void)state;
	assert_non_null(f->renumber);
	assert_int_equal(xqi_record_init(&g[0]), 0);
	assert_int_equal(read_all(bare, g, 1, diags), 1);
	for (size_t n = 0; n < sizeof(names) / sizeof(*names); n++) {
		g[0].source = names[n];
		for (size_t i = 0; i < sizeof(from) / sizeof(*from); i++) {
			write_numbered(&g[0], to[i][0], to[i][1], &want);
			write_numbered(&g[0], from[i][0], from[i][1], &text);
			g[0].number = to[i][0];
			g[0].place.line = to[i][1];
			assert_int_equal(f->renumber(&text, &g[0], from[i][0], from[i][1]), 0);
			assert_int_equal(text.len, want.len);
			assert_memory_equal(text.ptr, want.ptr, want.len);
			assert_int_equal(text.ptr[text.len], '\0');
		}
	}
	/* Bytes it did not write (another number than said) stay as they were. */
	g[0].source = "t.ndjson";
	write_numbered(&g[0], 5, 9, &text);
	xq_buf_reset(&want);
	xq_buf_add(&want, text.ptr, text.len);
	g[0].number = 6;
	assert_int_equal(f->renumber(&text, &g[0], 4, 9), XQ_EINTERNAL);
	assert_int_equal(text.len, want.len);
	assert_memory_equal(text.ptr, want.ptr, want.len);
	/* A record that came with its origin keeps it. */
	assert_int_equal(read_all(want.ptr, g, 1, diags), 1);
	write_numbered(&g[0], 1, 1, &text);
	xq_buf_reset(&want);
	xq_buf_add(&want, text.ptr, text.len);
	g[0].number = 40;
	assert_int_equal(f->renumber(&text, &g[0], 1, 1), 0);
	assert_memory_equal(text.ptr, want.ptr, want.len);
	xq_buf_release(&text);
	xq_buf_release(&want);
	xqi_record_release(&g[0]);
}

static void a_bad_source_is_a_warning_and_the_game_is_kept(void **state)
{
	static const char rec[] = "{\"schema\":\"xqkit.game/1\",\"source\":{\"file\":\"a.pgn\",\"game\":-3},"
				  "\"moves\":[{\"iccs\":\"h2e2\"}]}\n";
	struct xqi_record g[1];
	struct xq_diagnostic diags[16];
	struct xqi_origin o;
	struct open_read rd;

	(void)state;
	assert_int_equal(xqi_record_init(&g[0]), 0);
	assert_int_equal(read_open(&rd, "t.ndjson", rec, g, 1, diags), 1);
	assert_int_equal(diags[0].severity, XQ_SEVERITY_WARNING);
	assert_int_equal(diags[0].place.col, 58); /* the -3 */
	assert_non_null(strstr(diags[0].msg, "\"game\" as a non-negative integer"));
	assert_int_equal(diags[1].code, XQI_D_NONE);
	assert_false(g[0].flags & XQI_RECORD_BROKEN);
	assert_int_equal(g[0].nnodes, 2);
	xqi_record_origin(&g[0], &o);
	assert_string_equal(o.file, "t.ndjson");
	close_all(&rd);
	xqi_record_release(&g[0]);
}

static void tree_is_built_with_variations_in_order(void **state)
{
	struct xqi_record g;
	struct xq_diagnostic diags[16];
	struct xqi_record_counts c;
	uint32_t first, alt1, alt2;
	char name[5];

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(read_all(full_record, &g, 1, diags), 1);
	xqi_record_count(&g, &c);
	assert_int_equal(c.nodes, 7);
	assert_int_equal(c.variations, 3);
	assert_int_equal(xqi_record_mainline_length(&g), 3);
	first = g.nodes[XQI_ROOT].child;
	alt1 = g.nodes[first].sibling;
	alt2 = g.nodes[alt1].sibling;
	xqi_move_name(g.nodes[alt1].move, name);
	assert_string_equal(name, "b2e2");
	xqi_move_name(g.nodes[alt2].move, name);
	assert_string_equal(name, "c3c4");
	assert_int_equal(g.nodes[first].nnags, 2);
	assert_int_equal(g.nodes[first].nags[1], 146);
	assert_string_equal(g.nodes[first].pre_comment, "pre");
	/* Places point at the move objects. */
	assert_int_equal(g.nodes[first].place.line, 1);
	assert_true(g.nodes[first].place.col > 1);
	xqi_record_release(&g);
}

static void illegal_move_is_reported_where_it_is_and_stops_its_line(void **state)
{
	static const char text[] =
		"{\"schema\":\"xqkit.game/1\",\"moves\":[{\"iccs\":\"h2e2\"},{\"iccs\":\"h2e2\"},{\"iccs\":\"h9g7\"}]}\n";
	struct xqi_record g;
	struct xq_diagnostic diags[16];

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(read_all(text, &g, 1, diags), 1);
	assert_true(g.flags & XQI_RECORD_BROKEN);
	assert_int_equal(xqi_record_mainline_length(&g), 1);
	assert_int_equal(diags[0].code, XQI_D_ILLEGAL_MOVE);
	assert_int_equal(diags[0].severity, XQ_SEVERITY_ERROR);
	assert_int_equal(diags[0].place.line, 1);
	assert_int_equal(diags[0].place.col, 59); /* the "iccs" value of the second move */
	assert_int_equal(diags[0].place.offset, 58);
	assert_int_equal(diags[0].game, 1);
	assert_int_equal(diags[0].ply, 2);
	assert_string_equal(diags[0].move, "h2e2");
	assert_non_null(strstr(diags[0].msg, "no piece on h2"));
	xqi_record_release(&g);
}

/* In a variation, a move that cannot be played cuts that variation, from
 * it to its end (the variations of the moves after it too), said with
 * what was cut; the alternatives to the bad move itself are read, and the
 * game is whole otherwise, not broken. */
static void illegal_move_in_a_variation_cuts_that_variation_only(void **state)
{
	static const char text[] =
		"{\"schema\":\"xqkit.game/1\",\"moves\":[{\"iccs\":\"h2e2\"},{\"iccs\":\"h9g7\",\"variations\":"
		"[[{\"iccs\":\"b9c7\"},{\"iccs\":\"h0h5\",\"variations\":[[{\"iccs\":\"b0c2\"}]]},"
		"{\"iccs\":\"h7h3\",\"variations\":[[{\"iccs\":\"b7b3\"}]]},{\"iccs\":\"i0i1\"}]]},"
		"{\"iccs\":\"h0g2\"}]}\n";
	struct xqi_record g;
	struct xq_diagnostic diags[16];
	struct xqi_record_counts c;
	uint32_t alt;
	char name[5];

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(read_all(text, &g, 1, diags), 1);
	assert_int_equal(g.flags & (XQI_RECORD_BROKEN | XQI_RECORD_CUT), XQI_RECORD_CUT);
	assert_int_equal(xqi_record_mainline_length(&g), 3);
	xqi_record_count(&g, &c);
	assert_int_equal(c.nodes, 5); /* h2e2 h9g7 h0g2, b9c7 and b0c2 */
	alt = g.nodes[g.nodes[g.nodes[XQI_ROOT].child].child].sibling;
	xqi_move_name(g.nodes[g.nodes[alt].child].move, name);
	assert_string_equal(name, "b0c2");
	assert_int_equal(diags[0].code, XQI_D_ILLEGAL_MOVE);
	assert_int_equal(diags[0].severity, XQ_SEVERITY_ERROR);
	assert_int_equal(diags[0].ply, 3);
	assert_string_equal(diags[0].move, "h0h5");
	assert_non_null(strstr(diags[0].msg, "the variation is cut here: 4 moves not kept"));
	xqi_record_release(&g);
}

static void bad_line_does_not_hide_the_next_record(void **state)
{
	static const char text[] = "{\"schema\":\"xqkit.game/1\",\"moves\":[]}\n"
				   "\n"
				   "{\"schema\":\"xqkit.game/1\",\"moves\":[{\"iccs\":\"h2e2\"},\n"
				   "{\"schema\":\"xqkit.game/1\",\"moves\":[{\"iccs\":\"h2e2\"}]}\n";
	struct xqi_record g[3];
	struct xq_diagnostic diags[16];

	(void)state;
	for (int i = 0; i < 3; i++)
		assert_int_equal(xqi_record_init(&g[i]), 0);
	assert_int_equal(read_all(text, g, 3, diags), 3);
	assert_true(g[0].flags & XQI_RECORD_EMPTY);
	assert_true(g[1].flags & XQI_RECORD_BROKEN);
	assert_int_equal(g[1].number, 2);
	assert_int_equal(g[1].place.line, 3); /* the blank line is no record */
	assert_int_equal(diags[0].code, XQI_D_SYNTAX);
	assert_int_equal(diags[0].place.line, 3);
	assert_false(g[2].flags & XQI_RECORD_BROKEN);
	assert_int_equal(xqi_record_mainline_length(&g[2]), 1);
	assert_int_equal(diags[1].code, XQI_D_NONE);
	for (int i = 0; i < 3; i++)
		xqi_record_release(&g[i]);
}

static void bytes_that_are_not_utf8_in_a_string_are_replaced_and_warned_about(void **state)
{
	static const char text[] = "{\"schema\":\"xqkit.game/1\",\"comment\":\"caf\xE9\"}\n";
	struct xqi_record g;
	struct xq_diagnostic diags[16];

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(read_all(text, &g, 1, diags), 1);
	assert_false(g.flags & XQI_RECORD_BROKEN);
	assert_string_equal(g.nodes[XQI_ROOT].comment, "caf\xEF\xBF\xBD");
	assert_int_equal(diags[0].code, XQI_D_ENCODING);
	assert_int_equal(diags[0].severity, XQ_SEVERITY_WARNING);
	assert_int_equal(diags[0].place.offset, 39);
	assert_true(diags[0].has_offset);
	assert_string_equal(diags[0].msg, "the game's comment is not valid utf-8: 1 byte replaced by "
					  "U+FFFD (the first, 0xE9, at offset 39)");
	xqi_record_release(&g);
}

static void bytes_that_are_not_utf8_outside_strings_or_in_a_move_break_the_record(void **state)
{
	static const char text[] = "{\"schema\":\"xqkit.game/1\",\"moves\":[{\"iccs\":\"h2\xE9"
				   "e2\"}]}\n{\"schema\":\"xqkit.game/1\",\xE9\"moves\":[]}\n";
	struct xqi_record g[2];
	struct xq_diagnostic diags[16];

	(void)state;
	assert_int_equal(xqi_record_init(&g[0]), 0);
	assert_int_equal(xqi_record_init(&g[1]), 0);
	assert_int_equal(read_all(text, g, 2, diags), 2);
	/* In a move's coordinates: the move cannot be read. */
	assert_true(g[0].flags & XQI_RECORD_BROKEN);
	assert_int_equal(diags[0].code, XQI_D_ENCODING);
	assert_int_equal(diags[0].severity, XQ_SEVERITY_ERROR);
	assert_int_equal(diags[0].place.offset, 45);
	/* Between members: the record cannot be read. */
	assert_true(g[1].flags & XQI_RECORD_BROKEN);
	assert_int_equal(diags[1].code, XQI_D_ENCODING);
	assert_int_equal(diags[1].severity, XQ_SEVERITY_ERROR);
	assert_int_equal(diags[1].place.offset, 78);
	xqi_record_release(&g[0]);
	xqi_record_release(&g[1]);
}

static void escapes_and_surrogate_pairs_decode_and_lone_ones_fail(void **state)
{
	static const char good[] =
		"{\"schema\":\"xqkit.game/1\",\"comment\":\"\\ud83d\\ude00 \\u4e2d\\t\\/\"}\n";
	static const char lone[] = "{\"schema\":\"xqkit.game/1\",\"comment\":\"\\ude00\"}\n";
	static const char nul[] = "{\"schema\":\"xqkit.game/1\",\"comment\":\"a\\u0000b\"}\n";
	struct xqi_record g;
	struct xq_diagnostic diags[16];

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(read_all(good, &g, 1, diags), 1);
	assert_string_equal(g.nodes[XQI_ROOT].comment, "\xF0\x9F\x98\x80 \xE4\xB8\xAD\t/");
	assert_int_equal(read_all(lone, &g, 1, diags), 1);
	assert_int_equal(diags[0].code, XQI_D_ENCODING);
	assert_true(g.flags & XQI_RECORD_BROKEN);
	assert_int_equal(read_all(nul, &g, 1, diags), 1);
	assert_int_equal(diags[0].code, XQI_D_SYNTAX);
	assert_non_null(strstr(diags[0].msg, "NUL"));
	xqi_record_release(&g);
}

static void other_schemas_and_unknown_members_are_reported(void **state)
{
	static const char diag[] = "{\"schema\":\"xqkit.diag/1\",\"code\":\"syntax\"}\n";
	static const char newer[] = "{\"schema\":\"xqkit.game/2\"}\n";
	static const char extra[] = "{\"schema\":\"xqkit.game/1\",\"colour\":\"red\"}\n";
	struct xqi_record g;
	struct xq_diagnostic diags[16];

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	read_all(diag, &g, 1, diags);
	assert_int_equal(diags[0].code, XQI_D_SYNTAX);
	assert_true(g.flags & XQI_RECORD_BROKEN);
	read_all(newer, &g, 1, diags);
	assert_int_equal(diags[0].code, XQI_D_UNSUPPORTED);
	read_all(extra, &g, 1, diags);
	assert_int_equal(diags[0].severity, XQ_SEVERITY_WARNING);
	assert_non_null(strstr(diags[0].msg, "colour"));
	assert_false(g.flags & XQI_RECORD_BROKEN);
	xqi_record_release(&g);
}

static void bad_fen_is_an_error_in_the_fen_member(void **state)
{
	static const char text[] = "{\"schema\":\"xqkit.game/1\",\"fen\":\"rnbakabnr/9/9 w\"}\n";
	struct xqi_record g;
	struct xq_diagnostic diags[16];

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	read_all(text, &g, 1, diags);
	assert_int_equal(diags[0].code, XQI_D_BAD_FEN);
	assert_true(g.flags & XQI_RECORD_BROKEN);
	xqi_record_release(&g);
}

/* Each tag keeps where its object starts in the line (column in
 * characters), for diagnostics about it. */
static void each_tag_keeps_its_place_in_the_line(void **state)
{
	static const char text[] =
		"\n{\"schema\":\"xqkit.game/1\",\"tags\":[{\"name\":\"Event\",\"value\":\"\xE6\xB5\x8B\"}, "
		"{\"name\":\"Date\",\"value\":\"2006.13.45\"}]}\n";
	struct xqi_record g;
	struct xq_diagnostic diags[16];
	struct xqi_place at;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(read_all(text, &g, 1, diags), 1);
	assert_int_equal(xqi_record_tag_place(&g, "Event", &at), 1);
	assert_int_equal(at.line, 2);
	assert_int_equal(at.col, 34);
	assert_int_equal(at.offset, 34);
	assert_int_equal(xqi_record_tag_place(&g, "Date", &at), 1);
	assert_int_equal(at.line, 2);
	assert_int_equal(at.col, 64); /* the three bytes of 测 are one character */
	assert_int_equal(at.offset, 66);
	xqi_record_release(&g);
}

/* A rejected "fen" is kept as written (never replaced by the standard
 * start), the rest of the record is read but no move, and the record
 * written again says what the source said. */
static void rejected_fen_is_kept_as_written_and_written_back(void **state)
{
	static const char text[] =
		"{\"schema\":\"xqkit.game/1\",\"tags\":[{\"name\":\"Event\",\"value\":\"e\"}],"
		"\"fen\":\"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\",\"result\":\"1-0\","
		"\"moves\":[{\"iccs\":\"e0e1\"}]}\n";
	struct xqi_record g;
	struct xq_diagnostic diags[16];
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(read_all(text, &g, 1, diags), 1);
	assert_int_equal(diags[0].code, XQI_D_BAD_FEN);
	assert_true(g.flags & XQI_RECORD_BROKEN);
	assert_non_null(g.start_text);
	assert_string_equal(g.start_text, "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
	assert_int_equal(g.ntags, 1);
	assert_int_equal(g.result, XQI_RESULT_RED_WIN);
	assert_int_equal(g.nnodes, 1);
	write_one(&g, &out);
	assert_non_null(strstr(out.ptr, "\"fen\":\"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\""));
	assert_null(strstr(out.ptr, "rnbakabnr"));
	xq_buf_release(&out);
	xqi_record_release(&g);
}

/* Variations nested 5,000 deep: each line's second move has an alternative
 * that starts the next line.  Reading and writing must not recurse. */
static void deep_variation_nesting_round_trips_without_recursion(void **state)
{
	struct xqi_record g, back;
	struct xq_diagnostic diags[16];
	struct xq_buf out = XQ_BUF_INIT;
	/* Horses out and back, a cycle of legal moves for both sides. */
	static const char *const cycle[4] = {"h0g2", "h9g7", "g2h0", "g7h9"};
	static const char *const alt[2] = {"b0c2", "b9c7"};
	uint32_t parent = XQI_ROOT, node;
	char why[256];

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(xqi_record_init(&back), 0);
	for (int k = 0; k < 5000; k++) {
		const char *m = cycle[k % 4], *a = alt[k % 2];
		xqi_move mv = XQI_MOVE(XQI_SQ(m[0] - 'a', m[1] - '0'), XQI_SQ(m[2] - 'a', m[3] - '0'));
		xqi_move av = XQI_MOVE(XQI_SQ(a[0] - 'a', a[1] - '0'), XQI_SQ(a[2] - 'a', a[3] - '0'));
		uint32_t ends;
		/* The first child ends its line at once; the variation goes on. */
		assert_int_equal(xqi_record_add_move(&g, parent, av, &ends), 0);
		assert_int_equal(xqi_record_add_move(&g, parent, mv, &node), 0);
		parent = node;
	}
	write_one(&g, &out);
	assert_true(json_valid(out.ptr, out.len - 1));
	assert_int_equal(read_all(out.ptr, &back, 1, diags), 1);
	assert_int_equal(diags[0].code, XQI_D_NONE);
	assert_true(xqi_record_equal(&g, &back, 0, why, sizeof(why)));
	xq_buf_release(&out);
	xqi_record_release(&g);
	xqi_record_release(&back);
}

static void probe_claims_its_own_records_only(void **state)
{
	const struct xqi_format *f = ndjson();
	static const char ours[] = "{\"schema\":\"xqkit.game/1\",\"tags\":[]}";
	static const char json[] = "{\"a\":1}";
	static const char pgn[] = "[Event \"x\"]\n1. h2e2 *";

	(void)state;
	assert_int_equal(f->probe((const unsigned char *)ours, strlen(ours)), 100);
	assert_true(f->probe((const unsigned char *)json, strlen(json)) < 50);
	assert_int_equal(f->probe((const unsigned char *)pgn, strlen(pgn)), 0);
	assert_ptr_equal(xqi_format_detect((const unsigned char *)ours, strlen(ours), "x.txt"), f);
}

/* A '{' followed by what no JSON object holds (a member name that is no
 * string; control characters, raw, on the first line) is no record:
 * random bytes that happened to start with '{' (one input in 256) were
 * taken for NDJSON and read as endless broken records.  A damaged first
 * line of a file named .ndjson is still read as NDJSON, and damage on a
 * later line does not matter. */
static void probe_leaves_binary_bytes_after_a_brace_alone(void **state)
{
	static const unsigned char junk[] = {'{', 0xE4, 0x1A, 0x16, 0x8A, 0xB3, 0x00, '*', 'T', 0xFD, '\n'};
	static const unsigned char text[] = {'{', 'c', 0x90, 'c', 0xCD, 0xA4, 0xE1, '9', '\n', 0x0D};
	static const char later[] = "{\"a\":1}\n{\x01\x02}\n";
	static const char tab[] = "{\t\"a\"\r:\t1}\r\n";
	const struct xqi_format *f = ndjson();

	(void)state;
	assert_int_equal(f->probe(junk, sizeof(junk)), 0);
	assert_null(xqi_format_detect(junk, sizeof(junk), NULL));
	assert_ptr_equal(xqi_format_detect(junk, sizeof(junk), "damaged.ndjson"), f);
	assert_int_equal(f->probe(text, sizeof(text)), 0);
	assert_int_equal(f->probe((const unsigned char *)"{}", 2), 10);
	assert_int_equal(f->probe((const unsigned char *)"{", 1), 10);
	assert_int_equal(f->probe((const unsigned char *)later, strlen(later)), 10);
	assert_int_equal(f->probe((const unsigned char *)tab, strlen(tab)), 10);
}

/* Any JSON spelling of the schema member is ours: spaces around ':' and
 * ',' (Python's json.dumps), tabs, escapes in the name or the value, the
 * schema after other members (braces and quotes inside their strings). */
static void probe_finds_the_schema_whatever_the_json_spelling(void **state)
{
	static const struct {
		const char *text;
		int score;
	} cases[] = {
		{"{\"schema\": \"xqkit.game/1\", \"tags\": []}", 100},
		{"{ \"schema\" : \"xqkit.game/1\" }", 100},
		{"\r\n\t{\t\"schema\":\t\"xqkit.game/1\"}", 100},
		{"{\"\\u0073chema\":\"xqkit.game/1\"}", 100},
		{"{\"schema\":\"xqkit\\u002egame\\/1\"}", 100},
		{"{\"tags\": [{\"name\": \"a,}\\\"]\", \"value\": \"{[\"}], \"n\": -1.5e3, \"b\": true, "
		 "\"schema\": \"xqkit.game/1\"}", 80},
		{"{\"schema\": \"xqkit.check/1\"}", 10},
		{"{\"schema\": 1}", 10},
		{"{\"schemas\": \"xqkit.game/1\"}", 10},
	};
	const struct xqi_format *f = ndjson();
	static const char spaced[] = "{\"schema\": \"xqkit.game/1\", \"moves\": [{\"iccs\": \"h2e2\"}]}\n";

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int got = f->probe((const unsigned char *)cases[i].text, strlen(cases[i].text));
		if (got != cases[i].score)
			fail_msg("probe(%s) = %d, not %d", cases[i].text, got, cases[i].score);
	}
	/* Whatever the file's name: a PGN reader must not take it. */
	assert_ptr_equal(xqi_format_detect((const unsigned char *)spaced, strlen(spaced), "g.txt"), f);
	assert_ptr_equal(xqi_format_detect((const unsigned char *)spaced, strlen(spaced), "g.pgn"), f);
}

/* With a notation asked for, every move (variations too) also carries its
 * text in it, computed from its own position; the reader ignores it. */
static void moves_carry_their_text_in_the_notation_asked_for(void **state)
{
	const struct xqi_format *f = ndjson();
	struct xqi_write_opts o = XQI_WRITE_OPTS_INIT;
	struct xqi_record g, back;
	struct xq_diagnostic diags[16];
	struct xq_buf out = XQ_BUF_INIT;
	struct xq_file *mem;
	void *w;
	char why[256];

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(xqi_record_init(&back), 0);
	assert_int_equal(read_all(full_record, &g, 1, diags), 1);
	o.notation = XQ_DIALECT_WXF;
	assert_int_equal(xqi_file_open_mem(&mem, &out), 0);
	assert_int_equal(f->open_writer(&w, mem, &o, NULL), 0);
	assert_int_equal(f->write(w, &g), 0);
	f->close_writer(w);
	xqi_file_commit(mem, NULL);
	assert_true(json_valid(out.ptr, out.len - 1));
	/* Main line, a variation, and a black move (files from black's right). */
	assert_non_null(strstr(out.ptr, "{\"iccs\":\"h2e2\",\"text\":\"\xE7\x82\xAE\xE4\xBA\x8C\xE5\xB9\xB3\xE4\xBA\x94\",\"wxf\":\"C2.5\""));
	assert_non_null(strstr(out.ptr, "{\"iccs\":\"b2e2\",\"wxf\":\"C8.5\"}"));
	assert_non_null(strstr(out.ptr, "{\"iccs\":\"h9g7\",\"wxf\":\"H8+7\"}"));
	assert_non_null(strstr(out.ptr, "{\"iccs\":\"b9c7\",\"wxf\":\"H2+3\"}"));
	assert_int_equal(read_all(out.ptr, &back, 1, diags), 1);
	assert_int_equal(diags[0].code, XQI_D_NONE); /* "wxf" is known, not warned about */
	assert_true(xqi_record_equal(&g, &back, 0, why, sizeof(why)));
	xq_buf_release(&out);
	xqi_record_release(&g);
	xqi_record_release(&back);
}

static void writer_refuses_encodings_other_than_utf8(void **state)
{
	const struct xqi_format *f = ndjson();
	struct xqi_write_opts o = XQI_WRITE_OPTS_INIT;
	struct xq_buf mem = XQ_BUF_INIT;
	struct xq_file *out;
	void *w;

	(void)state;
	o.encoding = XQI_ENC_GBK;
	assert_int_equal(xqi_file_open_mem(&out, &mem), 0);
	assert_int_equal(f->open_writer(&w, out, &o, NULL), XQ_EUNSUPPORTED);
	xqi_file_abort(out);
	xq_buf_release(&mem);
}

/* ---- the commands' NDJSON output ------------------------------------------------- */

static char tmpdir[4096];

static int setup(void **state)
{
	(void)state;
	return test_tmpdir(tmpdir, sizeof(tmpdir), "ndjson");
}

static int teardown(void **state)
{
	(void)state;
	return test_rmtree(tmpdir);
}

/* Run `xqkit ARGS` (shell words) and check every stdout line is a JSON
 * object with a "schema"; returns the number of lines. */
static int json_lines_of(const char *args, int *status)
{
	const char *xqkit = getenv("XQKIT");
	char cmd[1024], *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int lines = 0;
	FILE *p;

	if (!xqkit)
		TEST_SKIP("XQKIT is not set (make check sets it)");
	snprintf(cmd, sizeof(cmd), "'%s' %s 2>/dev/null", xqkit, args);
	p = popen(cmd, "r");
	assert_non_null(p);
	while ((n = getline(&line, &cap, p)) > 0) {
		assert_int_equal(line[n - 1], '\n');
		if (!json_valid(line, (size_t)n - 1)) {
			fprintf(stderr, "not JSON: %s", line);
			fail();
		}
		assert_memory_equal(line, "{\"schema\":\"xqkit.", 17);
		lines++;
	}
	free(line);
	*status = WEXITSTATUS(pclose(p));
	return lines;
}

static void write_file(const char *name, const char *text, char *path, size_t cap)
{
	FILE *f;
	snprintf(path, cap, "%s/%s", tmpdir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void validate_convert_and_replay_print_json_lines(void **state)
{
	char in[4400], args[9000], out[4400];
	int status;

	(void)state;
	write_file("in.ndjson",
		   "{\"schema\":\"xqkit.game/1\",\"tags\":[{\"name\":\"Date\",\"value\":\"2006.13.45\"},{\"name\":\"Red\",\"value\":\"\xE7\x94\xB2\"}],\"result\":\"1-0\",\"moves\":[{\"iccs\":\"h2e2\",\"comment\":\"a \\\"quote\\\"\"},{\"iccs\":\"h9g7\"}]}\n"
		   "{\"schema\":\"xqkit.game/1\",\"moves\":[{\"iccs\":\"a0a5\"}]}\n"
		   "not json at all\n",
		   in, sizeof(in));
	snprintf(args, sizeof(args), "validate --format ndjson '%s'", in);
	/* 3 games (each a check object), their diagnostics, one summary. */
	assert_true(json_lines_of(args, &status) >= 7);
	assert_int_equal(status, 1);
	snprintf(out, sizeof(out), "%s/out.ndjson", tmpdir);
	snprintf(args, sizeof(args), "convert -t ndjson --format ndjson -o '%s' '%s'", out, in);
	assert_true(json_lines_of(args, &status) >= 3);
	assert_int_equal(status, 1);
	snprintf(args, sizeof(args), "replay --format ndjson '%s'", out);
	assert_int_equal(json_lines_of(args, &status), 3); /* start and two plies */
	assert_int_equal(status, 0);
	/* The converted records are JSON too. */
	snprintf(args, sizeof(args), "convert -t ndjson '%s'", out);
	assert_int_equal(json_lines_of(args, &status), 1);
	assert_int_equal(status, 0);
}

/* Run a shell command and capture its standard output. */
static void capture(const char *cmd, struct xq_buf *out, int *status)
{
	char buf[4096];
	size_t n;
	FILE *p = popen(cmd, "r");

	assert_non_null(p);
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		xq_buf_add(out, buf, n);
	*status = WEXITSTATUS(pclose(p));
}

static void file_names_that_are_not_utf8_come_out_as_valid_utf8(void **state)
{
	const char *xqkit = getenv("XQKIT");
	char path[4400], cmd[9000];
	struct xq_buf text = XQ_BUF_INIT, json = XQ_BUF_INIT;
	FILE *f;
	int status;

	(void)state;
	if (!xqkit)
		TEST_SKIP("XQKIT is not set (make check sets it)");
	/* A GBK file name, as old Windows archives unpack: not UTF-8. */
	snprintf(path, sizeof(path), "%s/\xC6\xE5\xC6\xD7.ndjson", tmpdir);
	f = fopen(path, "wb");
	assert_non_null(f);
	fputs("{\"schema\":\"xqkit.game/1\",\"moves\":[{\"iccs\":\"h2h2\"}]}\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "'%s' validate -q '%s' 2>&1", xqkit, path);
	capture(cmd, &text, &status);
	assert_int_equal(status, 1);
	assert_int_equal(xq_utf8_check(text.ptr, text.len), text.len);
	assert_non_null(strstr(text.ptr, "\\xC6\\xE5\\xC6\\xD7.ndjson:1:"));
	snprintf(cmd, sizeof(cmd), "'%s' validate --format ndjson '%s'", xqkit, path);
	capture(cmd, &json, &status);
	assert_int_equal(status, 1);
	for (char *line = json.ptr, *nl; (nl = strchr(line, '\n')); line = nl + 1)
		assert_true(json_valid(line, (size_t)(nl - line)));
	xq_buf_release(&text);
	xq_buf_release(&json);
}

/* Many small files read on 1 and on 4 threads give the same report, in
 * the same order. */
static void jobs_give_the_same_report_in_the_same_order(void **state)
{
	const char *xqkit = getenv("XQKIT");
	char dir[4400], path[4500], cmd[9000];
	struct xq_buf one = XQ_BUF_INIT, four = XQ_BUF_INIT;
	int status;

	(void)state;
	if (!xqkit)
		TEST_SKIP("XQKIT is not set (make check sets it)");
	snprintf(dir, sizeof(dir), "%s/many", tmpdir);
	assert_int_equal(mkdir(dir, 0777), 0);
	for (int i = 0; i < 120; i++) {
		FILE *f;
		snprintf(path, sizeof(path), "%s/g%03d.ndjson", dir, i);
		f = fopen(path, "wb");
		assert_non_null(f);
		for (int k = 0; k <= i % 7; k++)
			fprintf(f, "{\"schema\":\"xqkit.game/1\",\"result\":\"1-0\",\"moves\":[{\"iccs\":\"%s\"}]}\n",
				(i + k) % 5 ? "h2e2" : "h2h9");
		fclose(f);
	}
	snprintf(cmd, sizeof(cmd), "'%s' validate -r -j 1 --format ndjson '%s' | grep -v summary", xqkit, dir);
	capture(cmd, &one, &status);
	snprintf(cmd, sizeof(cmd), "'%s' validate -r -j 4 --format ndjson '%s' | grep -v summary", xqkit, dir);
	capture(cmd, &four, &status);
	assert_true(one.len > 10000);
	assert_int_equal(one.len, four.len);
	assert_memory_equal(one.ptr, four.ptr, one.len);
	xq_buf_release(&one);
	xq_buf_release(&four);
}

/*
 * Records edited with Python's json module (json.dumps with its default
 * separators ", " and ": ", and \u escapes for everything not ASCII,
 * surrogate pairs included), one per line, are found to be NDJSON by
 * content and read back as the same games.
 */
static void records_rewritten_by_python_json_read_back_the_same(void **state)
{
	static const char other[] =
		"{\"schema\":\"xqkit.game/1\",\"tags\":[{\"name\":\"Red\",\"value\":\"\xE7\x94\xB2 \xF0\xA0\xAE\xB7\"}],"
		"\"result\":\"0-1\",\"moves\":[{\"iccs\":\"h2e2\",\"comment\":\"tab\\there \xF0\x9F\x98\x80\"},"
		"{\"iccs\":\"h9g7\",\"variations\":[[{\"iccs\":\"b9c7\"}]]}]}\n";
	const char *python = test_on_path("python3");
	const struct xqi_format *f = ndjson();
	struct xqi_record g[2], back;
	struct xq_diagnostic diags[16], d;
	struct xqi_sink sink = {collect, diags};
	struct xq_buf lines = XQ_BUF_INIT, edited = XQ_BUF_INIT;
	struct xqi_input *in;
	const unsigned char *head;
	size_t headlen;
	char src[4400], dst[4400], cmd[13000], why[256];
	void *r;
	FILE *fp;
	int status;

	(void)state;
	if (!python)
		TEST_SKIP("python3 not found on PATH");
	assert_int_equal(xqi_record_init(&g[0]), 0);
	assert_int_equal(xqi_record_init(&g[1]), 0);
	assert_int_equal(xqi_record_init(&back), 0);
	assert_int_equal(read_all(full_record, &g[0], 1, diags), 1);
	assert_int_equal(read_all(other, &g[1], 1, diags), 1);
	write_one(&g[0], &lines);
	write_one(&g[1], &lines);
	write_file("ours.ndjson", lines.ptr, src, sizeof(src));
	snprintf(dst, sizeof(dst), "%s/edited.txt", tmpdir);
	snprintf(cmd, sizeof(cmd),
		 "'%s' -c 'import json, sys\n"
		 "for line in sys.stdin:\n"
		 "    print(json.dumps(json.loads(line)))' < '%s' > '%s'",
		 python, src, dst);
	status = system(cmd);
	assert_int_equal(WEXITSTATUS(status), 0);
	fp = fopen(dst, "rb");
	assert_non_null(fp);
	for (int c; (c = fgetc(fp)) != EOF;)
		assert_int_equal(xq_buf_addc(&edited, (char)c), 0);
	fclose(fp);
	assert_int_equal(xq_buf_addc(&edited, 0), 0);
	/* Python's spelling, not ours. */
	assert_non_null(strstr(edited.ptr, "{\"schema\": \"xqkit.game/1\", \"source\": {\"file\": "));
	assert_non_null(strstr(edited.ptr, "\\ud842\\udfb7"));
	assert_null(strstr(edited.ptr, "\xE7\x94\xB2"));

	assert_int_equal(xqi_input_open(&in, dst, &d), 0);
	assert_int_equal(xqi_input_peek(in, &head, &headlen, &d), 0);
	assert_ptr_equal(xqi_format_detect(head, headlen, dst), f);
	memset(diags, 0, sizeof(diags));
	assert_int_equal(f->open_reader(&r, in, NULL, &sink), 0);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(f->read(r, &back), 1);
		if (!xqi_record_equal(&g[i], &back, 0, why, sizeof(why)))
			fail_msg("game %d differs after Python's rewrite: %s", i + 1, why);
	}
	assert_int_equal(f->read(r, &back), 0);
	assert_int_equal(diags[0].code, XQI_D_NONE);
	f->close_reader(r);
	xqi_input_close(in);
	xq_buf_release(&lines);
	xq_buf_release(&edited);
	xqi_record_release(&g[0]);
	xqi_record_release(&g[1]);
	xqi_record_release(&back);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(json_checker_rejects_malformed_text),
		cmocka_unit_test(record_round_trips_exactly),
		cmocka_unit_test(records_say_where_their_game_was_first_read),
		cmocka_unit_test(renumbering_gives_the_bytes_written_with_the_new_numbers),
		cmocka_unit_test(a_bad_source_is_a_warning_and_the_game_is_kept),
		cmocka_unit_test(tree_is_built_with_variations_in_order),
		cmocka_unit_test(illegal_move_is_reported_where_it_is_and_stops_its_line),
		cmocka_unit_test(illegal_move_in_a_variation_cuts_that_variation_only),
		cmocka_unit_test(bad_line_does_not_hide_the_next_record),
		cmocka_unit_test(bytes_that_are_not_utf8_in_a_string_are_replaced_and_warned_about),
		cmocka_unit_test(bytes_that_are_not_utf8_outside_strings_or_in_a_move_break_the_record),
		cmocka_unit_test(escapes_and_surrogate_pairs_decode_and_lone_ones_fail),
		cmocka_unit_test(other_schemas_and_unknown_members_are_reported),
		cmocka_unit_test(bad_fen_is_an_error_in_the_fen_member),
		cmocka_unit_test(rejected_fen_is_kept_as_written_and_written_back),
		cmocka_unit_test(each_tag_keeps_its_place_in_the_line),
		cmocka_unit_test(deep_variation_nesting_round_trips_without_recursion),
		cmocka_unit_test(probe_claims_its_own_records_only),
		cmocka_unit_test(probe_leaves_binary_bytes_after_a_brace_alone),
		cmocka_unit_test(probe_finds_the_schema_whatever_the_json_spelling),
		cmocka_unit_test(records_rewritten_by_python_json_read_back_the_same),
		cmocka_unit_test(moves_carry_their_text_in_the_notation_asked_for),
		cmocka_unit_test(writer_refuses_encodings_other_than_utf8),
		cmocka_unit_test(validate_convert_and_replay_print_json_lines),
		cmocka_unit_test(file_names_that_are_not_utf8_come_out_as_valid_utf8),
		cmocka_unit_test(jobs_give_the_same_report_in_the_same_order),
		cmocka_unit_test(splitter_proposes_the_line_after_each_record),
		cmocka_unit_test(reports_on_one_line_give_columns_in_characters),
		cmocka_unit_test(blank_lines_of_more_than_16_mib_end_the_reading_and_the_splitting),
		cmocka_unit_test(chunk_reader_counts_lines_offsets_and_records_from_its_start),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
