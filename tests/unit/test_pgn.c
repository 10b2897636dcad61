/*
 * test_pgn.c: the PGN reader and writer: encodings, line ends, both header
 * dialects, move numbers, comments, variations, NAGs, results, places in
 * diagnostics, recovery after errors, the writer's layout and round trips,
 * and the shared corpus.
 */
#include "testutil.h"

#include <unistd.h>
#include <zlib.h>

#include "position.h"
#include "buf.h"
#include "diagnostic.h"
#include "format.h"
#include "record.h"
#include "io.h"
#include "notation.h"
#include "pgn.h"
#include "text.h"


/* ---- helpers -------------------------------------------------------------- */

#define MAXD 512

struct reading {
	struct xqi_input *in;
	void *rd;
	struct xqi_sink sink;
	struct xq_diagnostic d[MAXD];
	int nd;
	struct xqi_record g;
	char *data; /* owned fixture bytes, or NULL */
};

static void collect(const struct xq_diagnostic *d, void *p)
{
	struct reading *r = p;

	if (r->nd < MAXD)
		r->d[r->nd++] = *d;
}

static void open_mem(struct reading *r, const char *name, const char *text, size_t len,
		     const struct xqi_read_opts *opts)
{
	char *copy = malloc(len + 1);

	assert_non_null(copy);
	memcpy(copy, text, len);
	memset(r, 0, sizeof(*r));
	r->data = copy;
	r->sink.report = collect;
	r->sink.payload = r;
	assert_int_equal(xqi_input_open_mem(&r->in, name, copy, len), 0);
	assert_int_equal(xqi_format_pgn.open_reader(&r->rd, r->in, opts, &r->sink), 0);
	assert_int_equal(xqi_record_init(&r->g), 0);
}

static void open_str(struct reading *r, const char *text)
{
	open_mem(r, "t.pgn", text, strlen(text), NULL);
}

static char *load(const char *name, size_t *len)
{
	char path[512];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "tests/data/pgn/%s", name);
	f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

static void open_fixture(struct reading *r, const char *name, const struct xqi_read_opts *opts)
{
	size_t len;
	char *buf = load(name, &len);

	open_mem(r, name, buf, len, opts);
	free(buf);
}

static int next_game(struct reading *r)
{
	return xqi_format_pgn.read(r->rd, &r->g);
}

static void close_reading(struct reading *r)
{
	xqi_format_pgn.close_reader(r->rd);
	xqi_input_close(r->in);
	xqi_record_release(&r->g);
	free(r->data);
}

static const struct xq_diagnostic *find_diag(const struct reading *r, enum xqi_diagnostic_code code)
{
	for (int i = 0; i < r->nd; i++)
		if (r->d[i].code == code)
			return &r->d[i];
	return NULL;
}

/* The first diagnostic of `code` with severity `sev`, or NULL. */
static const struct xq_diagnostic *find_diag_sev(const struct reading *r, enum xqi_diagnostic_code code,
					   enum xq_severity_level sev)
{
	for (int i = 0; i < r->nd; i++)
		if (r->d[i].code == code && r->d[i].severity == sev)
			return &r->d[i];
	return NULL;
}

static int count_sev(const struct reading *r, enum xq_severity_level sev)
{
	int n = 0;

	for (int i = 0; i < r->nd; i++)
		n += r->d[i].severity == sev;
	return n;
}

/* The main line as ICCS moves separated by spaces. */
static const char *mainline(const struct xqi_record *g)
{
	static char out[4096];
	size_t o = 0;

	out[0] = '\0';
	for (uint32_t n = g->nodes[XQI_ROOT].child; n != XQ_NO_NODE; n = g->nodes[n].child) {
		char name[5];
		xqi_move_name(g->nodes[n].move, name);
		o += (size_t)snprintf(out + o, sizeof(out) - o, "%s%s", o ? " " : "", name);
	}
	return out;
}

/* The n-th node of the main line (1-based). */
static const struct xqi_node *ply_node(const struct xqi_record *g, unsigned ply)
{
	uint32_t n = XQI_ROOT;

	while (ply-- > 0)
		n = g->nodes[n].child;
	assert_true(n != XQ_NO_NODE);
	return &g->nodes[n];
}

/* Write games with the PGN writer into `out`; returns the last write's code. */
struct writing {
	struct xq_file *o;
	void *wr;
	struct xqi_sink sink;
	struct reading diags; /* only d[] and nd are used */
};

static void open_writer(struct writing *w, struct xq_buf *out, int notation, enum xqi_encoding enc)
{
	struct xqi_write_opts opts = XQI_WRITE_OPTS_INIT;

	memset(w, 0, sizeof(*w));
	opts.notation = notation;
	opts.encoding = enc;
	w->sink.report = collect;
	w->sink.payload = &w->diags;
	assert_int_equal(xqi_file_open_mem(&w->o, out), 0);
	assert_int_equal(xqi_format_pgn.open_writer(&w->wr, w->o, &opts, &w->sink), 0);
}

static void close_writer(struct writing *w)
{
	assert_int_equal(xqi_format_pgn.close_writer(w->wr), 0);
	assert_int_equal(xqi_file_commit(w->o, NULL), 0);
}

/* Read every game of `text` and write it again: returns the output. */
static void rewrite(const char *text, size_t len, int notation, enum xqi_encoding enc,
		    enum xqi_encoding in_enc, struct xq_buf *out)
{
	struct reading r;
	struct writing w;
	struct xqi_read_opts ro = XQI_READ_OPTS_INIT;

	ro.encoding = in_enc;
	open_mem(&r, "in.pgn", text, len, &ro);
	open_writer(&w, out, notation, enc);
	while (next_game(&r) > 0) {
		assert_false(r.g.flags & XQI_RECORD_BROKEN);
		assert_int_equal(xqi_format_pgn.write(w.wr, &r.g), 0);
	}
	close_writer(&w);
	assert_int_equal(count_sev(&w.diags, XQ_SEVERITY_ERROR), 0);
	close_reading(&r);
}

/* ---- reading: games, streams, encodings ------------------------------------ */

static void reads_several_games_in_order_with_numbers_and_places(void **state)
{
	struct reading r;

	(void)state;
	open_str(&r, "[Event \"one\"]\n\n1. h2e2 h9g7 *\n\n[Event \"two\"]\n\n1. b2e2 1-0\n");
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(r.g.number, 1);
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "one");
	assert_string_equal(mainline(&r.g), "h2e2 h9g7");
	assert_string_equal(r.g.source, "t.pgn");
	assert_int_equal(r.g.place.line, 1);
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(r.g.number, 2);
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "two");
	assert_int_equal(r.g.result, XQI_RESULT_RED_WIN);
	assert_int_equal(r.g.place.line, 5);
	assert_int_equal(r.g.place.offset, 31);
	assert_int_equal(next_game(&r), 0);
	assert_int_equal(next_game(&r), 0);
	assert_int_equal(count_sev(&r, XQ_SEVERITY_WARNING) + count_sev(&r, XQ_SEVERITY_ERROR), 0);
	close_reading(&r);
}

static void every_move_keeps_its_text_and_place(void **state)
{
	struct reading r;
	const struct xqi_node *n;

	(void)state;
	open_str(&r, "[Event \"x\"]\n\n1. h2e2 h9g7\n2. H0-G2 *\n");
	assert_int_equal(next_game(&r), 1);
	n = ply_node(&r.g, 3);
	assert_string_equal(n->text, "H0-G2");
	assert_int_equal(n->place.line, 4);
	assert_int_equal(n->place.col, 4);
	assert_int_equal(n->place.offset, 29);
	n = ply_node(&r.g, 2);
	assert_int_equal(n->place.line, 3);
	assert_int_equal(n->place.col, 9);
	close_reading(&r);
}

static void move_numbers_glued_to_their_moves_read_as_numbers_then_moves(void **state)
{
	struct reading r;
	const struct xqi_node *n;

	(void)state;
	open_str(&r, "[Event \"x\"]\n\n1.h2e2 1...h9g7 2.H0-G2 i9h9 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(xqi_record_mainline_length(&r.g), 4);
	n = ply_node(&r.g, 1);
	assert_string_equal(n->text, "h2e2");
	assert_int_equal(n->place.col, 3);
	n = ply_node(&r.g, 2);
	assert_string_equal(n->text, "h9g7");
	assert_int_equal(n->place.col, 12);
	n = ply_node(&r.g, 3);
	assert_string_equal(n->text, "H0-G2");
	assert_int_equal(n->place.col, 19);
	n = ply_node(&r.g, 4);
	assert_int_equal(n->place.col, 25);
	assert_int_equal(n->place.offset, 13 + 24);
	assert_int_equal(count_sev(&r, XQ_SEVERITY_WARNING) + count_sev(&r, XQ_SEVERITY_ERROR), 0);
	close_reading(&r);
}

static void empty_input_has_no_games(void **state)
{
	struct reading r;

	(void)state;
	open_str(&r, "  \n\r\n");
	assert_int_equal(next_game(&r), 0);
	assert_int_equal(r.nd, 0);
	close_reading(&r);
}

static void gzip_input_is_found_by_content(void **state)
{
	const char text[] = "[Event \"gz\"]\n\n1. h2e2 h9g7 1/2-1/2\n";
	unsigned char packed[256];
	z_stream z;
	struct reading r;

	(void)state;
	memset(&z, 0, sizeof(z));
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)text;
	z.avail_in = sizeof(text) - 1;
	z.next_out = packed;
	z.avail_out = sizeof(packed);
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	deflateEnd(&z);
	/* The name says nothing: content decides. */
	open_mem(&r, "games.txt", (const char *)packed, sizeof(packed) - z.avail_out, NULL);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "gz");
	assert_int_equal(r.g.result, XQI_RESULT_DRAW);
	assert_true(xqi_input_is_gzip(r.in));
	close_reading(&r);
}

static void dash_reads_standard_input(void **state)
{
	char path[4096];
	int fd = test_tmpfile(path, sizeof(path), "pgn"), saved = dup(0);
	const char text[] = "[Event \"stdin\"]\n\n1. h2e2 *\n";
	struct xqi_input *in;
	void *rd;
	struct xqi_record g;
	struct xq_diagnostic d;

	(void)state;
	assert_true(fd >= 0 && saved >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)(sizeof(text) - 1));
	lseek(fd, 0, SEEK_SET);
	dup2(fd, 0);
	close(fd);
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_input_open(&in, "-", &d), 0);
	assert_int_equal(xqi_format_pgn.open_reader(&rd, in, NULL, NULL), 0);
	xqi_record_init(&g);
	assert_int_equal(xqi_format_pgn.read(rd, &g), 1);
	assert_string_equal(xqi_record_tag(&g, "Event"), "stdin");
	assert_string_equal(g.source, "<stdin>");
	xqi_format_pgn.close_reader(rd);
	xqi_input_close(in);
	xqi_record_release(&g);
	dup2(saved, 0);
	close(saved);
	unlink(path);
}

static void utf8_bom_is_skipped_and_columns_start_after_it(void **state)
{
	struct reading r;

	(void)state;
	open_fixture(&r, "utf8-bom-iccs.pgn", NULL);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(r.g.encoding, "utf-8");
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "中国象棋");
	assert_int_equal(r.g.place.col, 1);
	assert_int_equal(r.g.place.offset, 3);
	assert_string_equal(mainline(&r.g), "h2e2 h9g7 h0g2 b9c7");
	assert_int_equal(r.g.result, XQI_RESULT_UNKNOWN);
	close_reading(&r);
}

static void gbk_tags_and_comments_decode_and_offsets_count_source_bytes(void **state)
{
	struct reading r;
	const struct xqi_node *n;

	(void)state;
	open_fixture(&r, "gbk-bare-cr-variations.pgn", NULL);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(r.g.encoding, "gb18030");
	assert_string_equal(xqi_record_tag(&r.g, "Author"), "橘子黄了");
	assert_string_equal(xqi_record_tag(&r.g, "Result"), "未知");
	/* Offsets are in GBK bytes, columns in characters. */
	n = ply_node(&r.g, 4);
	assert_string_equal(n->comment, "红方屯边。\n\n黑方挺卒。"); /* CR, then CRLF */
	assert_string_equal(mainline(&r.g), "h2e2 b9c7 h0g2 h7f7 i0h0 h9g7");
	close_reading(&r);
}

static void offsets_in_converted_text_are_source_byte_offsets(void **state)
{
	struct reading r;
	/* GBK: two-byte characters before the move on the same line. */
	const char text[] = "[Red \"\xC5\xDA\"]\n{\xC5\xDA\xB6\xFE} 1. h2e2 *\n";
	const struct xqi_node *n;

	(void)state;
	open_mem(&r, "g.pgn", text, sizeof(text) - 1, NULL);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(r.g.encoding, "gb18030");
	n = ply_node(&r.g, 1);
	assert_int_equal(n->place.line, 2);
	assert_int_equal(n->place.col, 9);     /* {炮二} 1. h2e2: 8 characters before */
	assert_int_equal(n->place.offset, 21); /* 11 + 10 bytes */
	assert_string_equal(r.g.nodes[XQI_ROOT].comment, "炮二");
	close_reading(&r);
}

static void four_byte_gb18030_characters_keep_offsets_right(void **state)
{
	struct reading r;
	/* U+3401 is four bytes in GB18030, three in UTF-8; then 炮 in two. */
	const char text[] = "{\x81\x39\xEF\x30\xC5\xDA} 1. h2e2 *\n";

	(void)state;
	open_mem(&r, "g.pgn", text, sizeof(text) - 1, NULL);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(r.g.encoding, "gb18030");
	assert_string_equal(r.g.nodes[XQI_ROOT].comment, "\xE3\x90\x81炮");
	assert_int_equal(ply_node(&r.g, 1)->place.offset, 12);
	assert_int_equal(ply_node(&r.g, 1)->place.col, 9);
	close_reading(&r);
}

static void utf16_with_a_bom_reads_with_byte_offsets(void **state)
{
	const char *ascii = "[Event \"x\"]\n1. h2e2 h9g7 *\n";
	char text[128];
	size_t n = 0;
	struct reading r;

	(void)state;
	text[n++] = (char)0xFF;
	text[n++] = (char)0xFE;
	for (const char *p = ascii; *p; p++) {
		text[n++] = *p;
		text[n++] = '\0';
	}
	open_mem(&r, "w.pgn", text, n, NULL);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(r.g.encoding, "utf-16le");
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "x");
	assert_string_equal(mainline(&r.g), "h2e2 h9g7");
	/* "1. h9g7" after the BOM and 12 + 8 characters of two bytes */
	assert_int_equal(ply_node(&r.g, 2)->place.offset, 2 + 2 * 20);
	assert_int_equal(ply_node(&r.g, 2)->place.col, 9);
	close_reading(&r);
}

static void big5_is_told_from_gbk_by_content(void **state)
{
	struct reading r;
	/* 馬８進７ and 砲二平五 in a comment, Big5. */
	const char text[] = "[Event \"x\"]\n{\xB0\xA8\xA2\xB7\xB6\x69\xA2\xB6 \xAF\xA5\xA4\x47\xA5\xAD\xA4\xAD}\n1. h2e2 *\n";

	(void)state;
	open_mem(&r, "b.pgn", text, sizeof(text) - 1, NULL);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(r.g.encoding, "big5");
	assert_string_equal(r.g.nodes[XQI_ROOT].comment, "馬８進７ 砲二平五");
	close_reading(&r);
}

static void forced_encoding_overrides_detection(void **state)
{
	struct reading r;
	struct xqi_read_opts o = XQI_READ_OPTS_INIT;
	/* Valid GBK and valid Big5 at once: 0xB0A8 is 皑 in GBK and 馬 in Big5. */
	const char text[] = "{\xB0\xA8} 1. h2e2 *\n";

	(void)state;
	o.encoding = XQI_ENC_BIG5;
	open_mem(&r, "b.pgn", text, sizeof(text) - 1, &o);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(r.g.encoding, "big5");
	assert_string_equal(r.g.nodes[XQI_ROOT].comment, "馬");
	close_reading(&r);
	o.encoding = XQI_ENC_GB18030;
	open_mem(&r, "b.pgn", text, sizeof(text) - 1, &o);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(r.g.nodes[XQI_ROOT].comment, "皑");
	close_reading(&r);
}

static void undecodable_byte_in_a_comment_is_replaced_and_warned_about_at_its_offset(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;
	/* UTF-8 file (valid 中 first) with a stray 0xFF in the second game's comment. */
	const char text[] = "[Event \"中国象棋\"]\n\n1. h2e2 *\n\n[Event \"b\"]\n\n1. h2e2 {x\xFFy} h9g7 *\n\n"
			    "[Event \"c\"]\n\n1. b2e2 *\n";

	(void)state;
	open_mem(&r, "u.pgn", text, sizeof(text) - 1, NULL);
	assert_int_equal(next_game(&r), 1);
	assert_false(r.g.flags & XQI_RECORD_BROKEN);
	/* The comment keeps its place and its other characters; the game is whole. */
	assert_int_equal(next_game(&r), 1);
	assert_false(r.g.flags & XQI_RECORD_BROKEN);
	assert_string_equal(mainline(&r.g), "h2e2 h9g7");
	assert_string_equal(r.g.nodes[r.g.nodes[XQI_ROOT].child].comment, "x\xEF\xBF\xBDy");
	d = find_diag(&r, XQI_D_ENCODING);
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_WARNING);
	assert_string_equal(d->msg, "a comment is not valid utf-8: 1 byte replaced by U+FFFD (the "
				    "first, 0xFF, at offset 58)");
	assert_int_equal(d->place.offset, 58);
	assert_int_equal(d->place.line, 7);
	assert_int_equal(d->place.col, 11);
	assert_int_equal(d->game, 2);
	assert_non_null(strstr(d->msg, "0xFF"));
	/* The reader goes on with the next game. */
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "c");
	assert_false(r.g.flags & XQI_RECORD_BROKEN);
	close_reading(&r);
}

static void undecodable_gbk_byte_reports_its_source_offset(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;
	/* 炮二平五 in GBK, then 0xFF (neither GBK nor Big5), in a tag value. */
	const char text[] = "[Red \"\xC5\xDA\xB6\xFE\xC6\xBD\xCE\xE5\xFF\"]\n1. h2e2 *\n";

	(void)state;
	open_mem(&r, "g.pgn", text, sizeof(text) - 1, NULL);
	assert_int_equal(next_game(&r), 1);
	/* Only the tag holds it: its other characters are read, the game is whole. */
	assert_false(r.g.flags & XQI_RECORD_BROKEN);
	assert_string_equal(xqi_record_tag(&r.g, "Red"), "炮二平五\xEF\xBF\xBD");
	assert_string_equal(mainline(&r.g), "h2e2");
	d = find_diag(&r, XQI_D_ENCODING);
	assert_int_equal(d->severity, XQ_SEVERITY_WARNING);
	assert_non_null(d);
	assert_int_equal(d->place.offset, 14);
	assert_int_equal(d->place.col, 11);
	assert_non_null(strstr(d->msg, "0xFF"));
	assert_non_null(strstr(d->msg, "gb18030"));
	close_reading(&r);
}

static void nul_byte_in_a_comment_is_replaced_as_no_text(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;
	const char text[] = "[Event \"a\"]\n1. h2e2 {a\0b} *\n";

	(void)state;
	open_mem(&r, "n.pgn", text, sizeof(text) - 1, NULL);
	assert_int_equal(next_game(&r), 1);
	assert_false(r.g.flags & XQI_RECORD_BROKEN);
	assert_string_equal(r.g.nodes[r.g.nodes[XQI_ROOT].child].comment, "a\xEF\xBF\xBD" "b");
	d = find_diag(&r, XQI_D_ENCODING);
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_WARNING);
	assert_int_equal(d->place.offset, 22);
	assert_non_null(strstr(d->msg, "a NUL byte"));
	close_reading(&r);
}

static void undecodable_byte_in_a_move_breaks_the_game_after_the_moves_before_it(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;
	const char text[] = "[Event \"a\"]\n\n1. h2e2 h9g7 2. h0\xFFg2 1-0\n\n[Event \"b\"]\n\n1. h2e2 *\n";

	(void)state;
	open_mem(&r, "m.pgn", text, sizeof(text) - 1, NULL);
	assert_int_equal(next_game(&r), 1);
	assert_true(r.g.flags & XQI_RECORD_BROKEN);
	assert_string_equal(mainline(&r.g), "h2e2 h9g7");
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "a");
	d = find_diag(&r, XQI_D_ENCODING);
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_ERROR);
	assert_int_equal(d->place.offset, 31);
	assert_string_equal(d->msg, "byte 0xFF at offset 31 is not valid utf-8: the game holding it "
				    "is marked broken");
	/* The next game is its own. */
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "b");
	assert_false(r.g.flags & XQI_RECORD_BROKEN);
	assert_int_equal(next_game(&r), 0);
	close_reading(&r);
}

static void crlf_lf_and_bare_cr_all_end_lines(void **state)
{
	struct reading r;

	(void)state;
	open_str(&r, "[A \"1\"]\r\n[B \"2\"]\r[C \"3\"]\n\r\n1. h2e2\rh9g7\r\n2. h0g2 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(r.g.ntags, 3);
	assert_int_equal(ply_node(&r.g, 1)->place.line, 5);
	assert_int_equal(ply_node(&r.g, 2)->place.line, 6);
	assert_int_equal(ply_node(&r.g, 3)->place.line, 7);
	assert_int_equal(ply_node(&r.g, 3)->place.col, 4);
	close_reading(&r);
}

static void ideographic_space_separates_moves(void **state)
{
	struct reading r;

	(void)state;
	open_str(&r, "1.\xE3\x80\x80h2e2\xE3\x80\x80h9g7 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(mainline(&r.g), "h2e2 h9g7");
	close_reading(&r);
}

/* ---- tags and header dialects ---------------------------------------------- */

static void tags_keep_order_any_name_and_empty_values(void **state)
{
	struct reading r;

	(void)state;
	open_str(&r, "[Game \"Chinese Chess\"]\n[Round \"\"]\n[棋谱名称 \"测试\"]\n[PlayType \"全局\"]\n"
		     "[Event \"a \\\"quoted\\\" \\\\ word\"]\n\n1. h2e2 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(r.g.ntags, 5);
	assert_string_equal(r.g.tags[0].name, "Game");
	assert_string_equal(r.g.tags[1].value, "");
	assert_string_equal(r.g.tags[2].name, "棋谱名称");
	assert_string_equal(r.g.tags[2].value, "测试");
	assert_string_equal(r.g.tags[4].value, "a \"quoted\" \\ word");
	assert_int_equal(r.nd, 0);
	close_reading(&r);
}

static void several_tags_on_one_line(void **state)
{
	struct reading r;

	(void)state;
	open_str(&r, "[A \"1\"][B \"2\"] [C \"3\"]\n1. h2e2 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(r.g.ntags, 3);
	assert_string_equal(xqi_record_tag(&r.g, "C"), "3");
	close_reading(&r);
}

static void unescaped_quote_in_a_tag_value_is_kept_with_a_warning(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;

	(void)state;
	/* A tag line broken by a tool that pasted another tag into the value. */
	open_str(&r, "[Game \"Chinese Chess\"]\n[Event \"[Game \"Chinese Chess\"]\n[Event \"x\"]\n1. h2e2 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(r.g.ntags, 3);
	assert_string_equal(r.g.tags[1].value, "[Game \"Chinese Chess");
	assert_string_equal(r.g.tags[2].value, "x");
	d = find_diag(&r, XQI_D_BAD_TAG);
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_WARNING);
	assert_int_equal(d->place.line, 2);
	assert_false(r.g.flags & XQI_RECORD_BROKEN);
	close_reading(&r);
}

static void tag_value_over_a_line_end_is_read_whole(void **state)
{
	struct reading r;

	(void)state;
	open_str(&r, "[TitleA \"\r\n四两拨千斤\"]\r\n[Version \"10\"]\r\n1. h2e2 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(r.g.ntags, 2);
	assert_string_equal(r.g.tags[0].value, "\n四两拨千斤");
	assert_int_equal(find_diag(&r, XQI_D_BAD_TAG)->severity, XQ_SEVERITY_WARNING);
	assert_int_equal(ply_node(&r.g, 1)->place.line, 4);
	close_reading(&r);
}

static void unquoted_tag_value_is_read_with_a_warning(void **state)
{
	struct reading r;

	(void)state;
	open_str(&r, "[Round 3]\n1. h2e2 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "Round"), "3");
	assert_non_null(find_diag(&r, XQI_D_BAD_TAG));
	close_reading(&r);
}

static void tag_line_with_no_name_is_an_error(void **state)
{
	struct reading r;

	(void)state;
	/* The rest of the broken header and its moves go with the broken game. */
	open_str(&r, "[ \"x\"]\n[Site \"y\"]\n1. h2e2 *\n\n[Event \"next\"]\n1. h2e2 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_true(r.g.flags & XQI_RECORD_BROKEN);
	assert_int_equal(find_diag(&r, XQI_D_BAD_TAG)->severity, XQ_SEVERITY_ERROR);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "next");
	assert_int_equal(next_game(&r), 0);
	close_reading(&r);
}

static void xboard_header_with_white_and_variant(void **state)
{
	struct reading r;

	(void)state;
	open_str(&r, "[Event \"Computer Chess Game\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n"
		     "[Variant \"xiangqi\"]\n\n1. h2e2 {+0,10/7} h9g7 {+0,04/7 1,7}\n{Xboard adjudication} 1-0\n");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "White"), "A");
	assert_string_equal(xqi_record_tag(&r.g, "Variant"), "xiangqi");
	assert_string_equal(ply_node(&r.g, 1)->comment, "+0,10/7");
	assert_string_equal(ply_node(&r.g, 2)->comment, "+0,04/7 1,7 Xboard adjudication");
	assert_int_equal(r.g.result, XQI_RESULT_RED_WIN);
	assert_int_equal(r.nd, 0);
	close_reading(&r);
}

static void fen_tag_sets_the_start_and_stays_in_place(void **state)
{
	struct reading r;
	char fen[XQ_FEN_SIZE];

	(void)state;
	open_str(&r, "[Event \"e\"]\n[FEN \"3k5/9/9/9/9/9/9/9/9/4K4 w\"]\n[Site \"s\"]\n\n1. e0e1 *\n");
	assert_int_equal(next_game(&r), 1);
	xqi_position_to_fen(&r.g.start, fen, sizeof(fen));
	assert_string_equal(fen, "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
	assert_string_equal(r.g.tags[1].name, "FEN");
	assert_string_equal(r.g.tags[1].value, "3k5/9/9/9/9/9/9/9/9/4K4 w");
	assert_string_equal(mainline(&r.g), "e0e1");
	close_reading(&r);
}

/*
 * A FEN the reader rejects (here: no red king) leaves the game broken
 * with the FEN as the source wrote it; written again with --keep-broken,
 * PGN and NDJSON carry that text, with a warning, and never the standard
 * start position the source did not have.
 */
static void rejected_fen_is_written_back_as_the_source_gave_it(void **state)
{
	static const char bad[] = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1";
	static const char text[] = "[Event \"e\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/"
				   "P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1\"]\n\n1. h2e2 h9g7 *\n";
	const struct xqi_format *nd = xqi_format_find("ndjson");
	struct reading r;
	struct writing w;
	struct xq_buf out = XQ_BUF_INIT, json = XQ_BUF_INIT;
	struct xq_file *o;
	struct xqi_sink sink;
	void *wr;

	(void)state;
	open_str(&r, text);
	assert_int_equal(next_game(&r), 1);
	assert_true(r.g.flags & XQI_RECORD_BROKEN);
	assert_non_null(find_diag(&r, XQI_D_BAD_FEN));
	assert_non_null(r.g.start_text);
	assert_string_equal(r.g.start_text, bad);

	open_writer(&w, &out, XQ_DIALECT_ICCS, XQI_ENC_UTF8);
	assert_int_equal(xqi_format_pgn.write(w.wr, &r.g), 0);
	close_writer(&w);
	assert_int_equal(xq_buf_addc(&out, 0), 0);
	assert_non_null(strstr(out.ptr, "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1\"]"));
	assert_null(strstr(out.ptr, XQI_START_FEN));
	assert_int_equal(w.diags.nd, 1);
	assert_int_equal(w.diags.d[0].severity, XQ_SEVERITY_WARNING);
	assert_int_equal(w.diags.d[0].code, XQI_D_BAD_FEN);

	assert_non_null(nd);
	sink = w.sink;
	w.diags.nd = 0;
	assert_int_equal(xqi_file_open_mem(&o, &json), 0);
	assert_int_equal(nd->open_writer(&wr, o, NULL, &sink), 0);
	assert_int_equal(nd->write(wr, &r.g), 0);
	assert_int_equal(nd->close_writer(wr), 0);
	assert_int_equal(xqi_file_commit(o, NULL), 0);
	assert_int_equal(xq_buf_addc(&json, 0), 0);
	assert_non_null(strstr(json.ptr, "{\"name\":\"FEN\",\"value\":\"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1\"}"));
	assert_non_null(strstr(json.ptr, ",\"fen\":\"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1\","));
	assert_null(strstr(json.ptr, XQI_START_FEN));
	assert_int_equal(w.diags.nd, 1);
	assert_int_equal(w.diags.d[0].code, XQI_D_BAD_FEN);
	xq_buf_release(&out);
	xq_buf_release(&json);
	close_reading(&r);
}

/* Formats that cannot hold a FEN as text refuse such a game, with an error
 * that says why, and write nothing for it. */
static void writers_without_fen_text_refuse_a_start_that_could_not_be_read(void **state)
{
	static const char *const formats[] = {"xqf", "cbf", "dhtmlxq", "html"};
	struct reading r;

	(void)state;
	open_str(&r, "[FEN \"4k4/9/9/9/9/9/9/9/9/9 w - - 0 1\"]\n\n1. e0e1 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_non_null(r.g.start_text);
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		const struct xqi_format *f = xqi_format_find(formats[i]);
		struct reading diags;
		struct xqi_sink sink = {collect, &diags};
		struct xq_buf out = XQ_BUF_INIT;
		struct xq_file *o;
		void *wr;
		assert_non_null(f);
		diags.nd = 0;
		assert_int_equal(xqi_file_open_mem(&o, &out), 0);
		assert_int_equal(f->open_writer(&wr, o, NULL, &sink), 0);
		if (f->write(wr, &r.g) != XQ_EUNSUPPORTED)
			fail_msg("the %s writer did not refuse the game", formats[i]);
		assert_int_equal(diags.nd, 1);
		assert_int_equal(diags.d[0].severity, XQ_SEVERITY_ERROR);
		assert_int_equal(diags.d[0].code, XQI_D_BAD_FEN);
		f->close_writer(wr);
		xqi_file_abort(o);
		xq_buf_release(&out);
	}
	close_reading(&r);
}

/* Each tag keeps its line, column and byte offset, for diagnostics about
 * it (a bad Date is reported on its own line, not the game's first). */
static void each_tag_keeps_its_line_column_and_offset(void **state)
{
	struct reading r;
	struct xqi_place at;

	(void)state;
	open_str(&r, "[Event \"e\"]\n[Site \"s\"]  [Date \"2006.13.45\"]\n\n1. h2e2 *\n"
		     "\n[Date \"x\"]\n\n1. h2e2 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(xqi_record_tag_place(&r.g, "Event", &at), 1);
	assert_int_equal(at.line, 1);
	assert_int_equal(at.col, 1);
	assert_int_equal(at.offset, 0);
	assert_int_equal(xqi_record_tag_place(&r.g, "Date", &at), 1);
	assert_int_equal(at.line, 2);
	assert_int_equal(at.col, 13);
	assert_int_equal(at.offset, 24);
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(xqi_record_tag_place(&r.g, "Date", &at), 1);
	assert_int_equal(at.line, 6);
	assert_int_equal(at.offset, 56);
	close_reading(&r);
}

static void composed_position_is_accepted_with_a_note(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;

	(void)state;
	/* A red advisor on c2, where no advisor can go. */
	open_str(&r, "[FEN \"3k5/9/9/9/9/9/9/2A6/9/4K4 w - - 0 1\"]\n1. e0e1 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_false(r.g.flags & XQI_RECORD_BROKEN);
	d = find_diag(&r, XQI_D_BAD_FEN);
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_NOTE);
	close_reading(&r);
}

static void rejected_fen_is_an_error_with_its_column_in_the_tag(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;

	(void)state;
	open_str(&r, "[Event \"x\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1\"]\n"
		     "\n1. h2e2 *\n\n[Event \"next\"]\n1. h2e2 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_true(r.g.flags & XQI_RECORD_BROKEN);
	d = find_diag(&r, XQI_D_BAD_FEN);
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_ERROR);
	assert_int_equal(d->place.line, 2);
	assert_true(d->place.col >= 7 && d->place.col <= 7 + 71);
	assert_int_equal(d->place.offset, 12 + d->place.col - 1);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "next");
	close_reading(&r);
}

static void wrong_side_in_fen_is_read_the_other_way_with_a_warning(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;

	(void)state;
	/* The FEN says red, but the first move is black's king. */
	open_str(&r, "[FEN \"4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\"]\n1. e9f9 d0e0 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_false(r.g.flags & XQI_RECORD_BROKEN);
	assert_int_equal(r.g.start.side, XQI_BLACK);
	assert_string_equal(mainline(&r.g), "e9f9 d0e0");
	d = find_diag(&r, XQI_D_SIDE_TO_MOVE);
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_WARNING);
	close_reading(&r);
}

static void an_alternative_to_the_first_move_never_turns_the_start_around(void **state)
{
	struct reading r;

	(void)state;
	/* Black moves first, as the FEN says; a red move given as an
	 * alternative to that first move is refused, not taken as a reason
	 * to give red the move under a black move already read (found by
	 * fuzz_html: an illegal move in the tree). */
	open_str(&r, "[FEN \"3k5/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 1\"]\n1... d9d8 (1. e1f2) *\n");
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(r.g.start.side, XQI_BLACK);
	assert_string_equal(mainline(&r.g), "d9d8");
	assert_null(find_diag(&r, XQI_D_SIDE_TO_MOVE));
	close_reading(&r);
}

static void malformed_fen_fields_keep_the_board_and_the_first_move_decides(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;

	(void)state;
	/* hbsxcjp's converter writes "-b" as the side whoever moves first. */
	open_str(&r, "[FEN \"3k5/9/9/9/9/9/9/9/9/4K4 -b\"]\n1. e0e1 d9d8 *\n"
		     "[FEN \"3k5/9/9/9/9/9/9/9/9/4K4 -b\"]\n1. d9d8 e0e1 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_false(r.g.flags & XQI_RECORD_BROKEN);
	assert_int_equal(r.g.start.side, XQI_RED);
	assert_string_equal(mainline(&r.g), "e0e1 d9d8");
	d = find_diag(&r, XQI_D_BAD_FEN);
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_WARNING);
	assert_non_null(strstr(d->msg, "the first move decides"));
	assert_int_equal(next_game(&r), 1);
	assert_false(r.g.flags & XQI_RECORD_BROKEN);
	assert_int_equal(r.g.start.side, XQI_BLACK);
	assert_string_equal(mainline(&r.g), "d9d8 e0e1");
	close_reading(&r);
}

/* ---- move text ------------------------------------------------------------- */

static void move_numbers_with_and_without_ellipsis_and_space(void **state)
{
	struct reading r;

	(void)state;
	open_str(&r, "1. h2e2 1... h9g7 2.h0g2 2. ... b9c7 3.i0h0 3...i9h9 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(mainline(&r.g), "h2e2 h9g7 h0g2 b9c7 i0h0 i9h9");
	assert_int_equal(count_sev(&r, XQ_SEVERITY_ERROR), 0);
	close_reading(&r);
}

static void black_first_game_with_no_ellipsis(void **state)
{
	struct reading r;

	(void)state;
	open_str(&r, "[FEN \"4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1\"]\n\n1. e9f9\n2. d0e0 f9f8\n\n*\n");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(mainline(&r.g), "e9f9 d0e0 f9f8");
	assert_int_equal(r.nd, 0);
	close_reading(&r);
}

static void comments_in_braces_and_after_semicolons(void **state)
{
	struct reading r;

	(void)state;
	open_str(&r, "{game} 1. h2e2 {after\r\nred} h9g7 ; to the end of line\n2. h0g2 {x} {y} *\n");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(r.g.nodes[XQI_ROOT].comment, "game");
	assert_string_equal(ply_node(&r.g, 1)->comment, "after\nred");
	assert_string_equal(ply_node(&r.g, 2)->comment, "to the end of line");
	assert_string_equal(ply_node(&r.g, 3)->comment, "x y");
	close_reading(&r);
}

static void comments_after_one_move_take_memory_in_proportion_to_their_text(void **state)
{
	struct reading r;
	struct xq_buf text = XQ_BUF_INIT;
	const char *c;

	(void)state;
	/* Each comment was joined by copying all the ones before it: 20,000
	 * comments of one letter (60 KB) took 400 MB, 1 MB of them hundreds
	 * of GB. */
	assert_int_equal(xq_buf_add(&text, "1. h2e2 ", 8), 0);
	for (int i = 0; i < 20000; i++)
		assert_int_equal(xq_buf_add(&text, "{a}", 3), 0);
	assert_int_equal(xq_buf_add(&text, " h9g7 {b} {c} *\n", 16), 0);
	open_mem(&r, "t.pgn", text.ptr, text.len, NULL);
	assert_int_equal(next_game(&r), 1);
	c = ply_node(&r.g, 1)->comment;
	assert_non_null(c);
	assert_int_equal(strlen(c), 2 * 20000 - 1);
	assert_true(c[0] == 'a' && c[1] == ' ' && c[2 * 20000 - 2] == 'a');
	assert_string_equal(ply_node(&r.g, 2)->comment, "b c");
	assert_true(r.g.arena.total < ((size_t)1 << 20));
	close_reading(&r);
	xq_buf_release(&text);
}

static void blank_text_of_more_than_16_mib_ends_the_reading_with_its_place(void **state)
{
	struct reading r;
	size_t len = (size_t)(XQI_SKIP_MAX + (1 << 20));
	char *text = malloc(len);
	const struct xq_diagnostic *d;

	(void)state;
	assert_non_null(text);
	memset(text, '\n', len);
	memcpy(text + len - 8, "1. h2e2\n", 8);
	open_mem(&r, "t.pgn", text, len, NULL);
	free(text);
	/* It was skipped for ever on an input without end. */
	assert_int_equal(next_game(&r), XQ_ERANGE);
	d = find_diag(&r, XQI_D_RESOURCE);
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_ERROR);
	assert_int_equal(d->place.line, (uint32_t)(XQI_SKIP_MAX + 1 + 1));
	assert_int_equal(d->place.col, 1);
	assert_non_null(strstr(d->msg, "more than 16 MiB of blank text"));
	assert_int_equal(next_game(&r), XQ_ERANGE);
	close_reading(&r);
}

static void text_skipped_after_an_error_ends_the_reading_at_the_skip_limit(void **state)
{
	struct reading r;
	size_t len = (size_t)(XQI_SKIP_MAX + (2 << 20));
	char *text = malloc(len);
	const struct xq_diagnostic *d;

	(void)state;
	assert_non_null(text);
	/* A game broken at its first move, then words for ever: /dev/zero is
	 * such an input (a NUL breaks its first word). */
	memset(text, 'x', len);
	memcpy(text, "[Event \"e\"]\n\n1. zz9 ", 20);
	for (size_t i = 100; i < len; i += 100)
		text[i] = ' ';
	open_mem(&r, "t.pgn", text, len, NULL);
	free(text);
	assert_int_equal(next_game(&r), XQ_ERANGE);
	d = find_diag(&r, XQI_D_RESOURCE);
	assert_non_null(d);
	assert_int_equal(d->place.line, 3);
	/* What is skipped holds no game: 16 MiB of it end the reading (the
	 * game's own limit is the limit of what it keeps). */
	assert_non_null(strstr(d->msg, "more than 16 MiB skipped since line 3"));
	close_reading(&r);
}

static void comment_between_number_and_move_comes_before_the_move(void **state)
{
	struct reading r;

	(void)state;
	open_str(&r, "1. {before red} h2e2 h9g7 2... {nothing} *\n");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(ply_node(&r.g, 1)->pre_comment, "before red");
	assert_null(r.g.nodes[XQI_ROOT].comment);
	/* A comment that waits for a move that never comes follows the last one. */
	assert_string_equal(ply_node(&r.g, 2)->comment, "nothing");
	close_reading(&r);
}

static void nested_variations_replace_the_move_before_them(void **state)
{
	struct reading r;
	const struct xqi_record *g;
	const struct xqi_node *m1, *m2;
	struct xqi_record_counts c;

	(void)state;
	open_str(&r, "1. h2e2 h9g7 (1... b9c7 2. h0g2 (2. b0c2 {deep} h9g7) 2... h9g7) "
		     "(1... h7e7) 2. h0g2 *\n");
	assert_int_equal(next_game(&r), 1);
	g = &r.g;
	assert_string_equal(mainline(g), "h2e2 h9g7 h0g2");
	m1 = ply_node(g, 1);
	m2 = &g->nodes[m1->child];
	assert_true(m2->sibling != XQ_NO_NODE);
	{
		const struct xqi_node *v = &g->nodes[m2->sibling];
		const struct xqi_node *v2 = &g->nodes[v->child];
		char name[5];
		xqi_move_name(v->move, name);
		assert_string_equal(name, "b9c7");
		assert_true(v2->sibling != XQ_NO_NODE);
		xqi_move_name(g->nodes[v2->sibling].move, name);
		assert_string_equal(name, "b0c2");
		assert_null(g->nodes[g->nodes[v2->sibling].child].pre_comment);
		assert_string_equal(g->nodes[v2->sibling].comment, "deep");
		xqi_move_name(g->nodes[v->sibling].move, name);
		assert_string_equal(name, "h7e7");
	}
	xqi_record_count(g, &c);
	assert_int_equal(c.nodes, 9);
	assert_int_equal(c.variations, 3);
	close_reading(&r);
}

/* The game `text` (one) read and written again in ICCS: its move text. */
static void moves_as_read(const char *text, struct reading *r, struct xq_buf *out)
{
	struct writing w;
	const char *p;

	open_str(r, text);
	assert_int_equal(next_game(r), 1);
	open_writer(&w, out, XQ_DIALECT_ICCS, XQI_ENC_UTF8);
	assert_int_equal(xqi_format_pgn.write(w.wr, &r->g), 0);
	close_writer(&w);
	p = strstr(out->ptr, "\n\n");
	assert_non_null(p);
	memmove(out->ptr, p + 2, strlen(p + 2) + 1);
}

/* A move that cannot be played in a variation cuts that variation from it
 * to its ')' (the variations of the moves after it too): said once, where
 * the move is, with how many moves were cut; the game is kept whole
 * otherwise, not broken.  The alternatives to the bad move itself are
 * not part of what it cuts. */
static void illegal_move_in_a_variation_cuts_that_variation_only(void **state)
{
	struct reading r;
	struct xq_buf out = XQ_BUF_INIT;
	const struct xq_diagnostic *d;

	(void)state;
	moves_as_read("1. h2e2 h9g7 (1... b9c7 2. a0a5 (2. b0c2 a9a8 (2... i9i8) 3. i0i1) "
		      "(2. h0g2) 2... h7h3 (2... b7b3) 3. i0h0 (3. a0a1)) (1... h7e7) 2. h0g2 1-0\n",
		      &r, &out);
	assert_string_equal(out.ptr, "1. h2e2 h9g7 (1... b9c7 2. b0c2 (2. h0g2) 2... a9a8 (2... i9i8) 3. i0i1)\n"
				     "(1... h7e7) 2. h0g2 1-0\n");
	assert_int_equal(r.g.flags & (XQI_RECORD_BROKEN | XQI_RECORD_CUT), XQI_RECORD_CUT);
	assert_int_equal(r.nd, 1);
	d = find_diag(&r, XQI_D_ILLEGAL_MOVE);
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_ERROR);
	assert_int_equal(d->ply, 3);
	assert_string_equal(d->move, "a0a5");
	assert_int_equal(d->place.line, 1);
	assert_int_equal(d->place.col, 28);
	assert_non_null(strstr(d->msg, "the variation is cut here: 5 moves not kept (this one and the 4 after it)"));
	close_reading(&r);
	/* A word that is no move cuts the same way; the next game is read. */
	xq_buf_reset(&out);
	moves_as_read("1. h2e2 (1. b0c2 xyz h9g7) h9g7 *\n\n1. h2e2 *\n", &r, &out);
	assert_string_equal(out.ptr, "1. h2e2 (1. b0c2) 1... h9g7 *\n");
	assert_non_null(strstr(r.d[0].msg, "the variation is cut here: 2 moves not kept"));
	assert_int_equal(next_game(&r), 1);
	close_reading(&r);
	xq_buf_release(&out);
}

/* The main line is the game: a move that cannot be played there stops it,
 * broken, as before; a variation left open by the game's end is damage. */
static void illegal_move_on_the_main_line_still_breaks_the_game(void **state)
{
	struct reading r;

	(void)state;
	open_str(&r, "1. h2e2 a0a5 (1... b9c7) 2. h0g2 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_true(r.g.flags & XQI_RECORD_BROKEN);
	assert_false(r.g.flags & XQI_RECORD_CUT);
	close_reading(&r);
	open_str(&r, "1. h2e2 (1. b0c2 a0a5 h9g7 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_true(r.g.flags & XQI_RECORD_BROKEN);
	assert_non_null(strstr(r.d[0].msg, "that were read"));
	close_reading(&r);
}

static void variations_with_captures_step_back_to_the_position_before_them(void **state)
{
	/* Each move below is legal only if ')' put back exactly the position
	 * after the move the variation replaced, captured pieces included. */
	struct reading r;
	struct xqi_position end;
	char fen[XQ_FEN_SIZE];

	(void)state;
	open_str(&r, "1. h2h9 (1. b2b9 a9b9 (1... g6g5 2. h2h9) 2. h2e2) i9h9 2. b2e2 "
		     "(2. h0g2 (2. b2b9 a9b9) a9a8) c9e7 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(r.nd, 0);
	assert_string_equal(mainline(&r.g), "h2h9 i9h9 b2e2 c9e7");
	xqi_record_board_at(&r.g, xqi_record_mainline_end(&r.g), &end);
	xqi_position_to_fen(&end, fen, sizeof(fen));
	*strchr(fen, ' ') = '\0';
	assert_string_equal(fen, "rn1akabr1/9/1c2b2c1/p1p1p1p1p/9/9/P1P1P1P1P/4C4/9/RNBAKABNR");
	close_reading(&r);
}

static void comment_at_the_start_of_a_variation_comes_before_its_move(void **state)
{
	struct reading r;
	const struct xqi_node *m1;

	(void)state;
	open_str(&r, "1. h2e2 ({first} 1. b2e2) h9g7 *\n");
	assert_int_equal(next_game(&r), 1);
	m1 = ply_node(&r.g, 1);
	assert_string_equal(r.g.nodes[m1->sibling].pre_comment, "first");
	close_reading(&r);
}

static void deep_nesting_needs_no_recursion(void **state)
{
	struct xq_buf text = XQ_BUF_INIT;
	struct reading r;
	struct xqi_record_counts c;
	int depth = 5000;

	(void)state;
	/* h2e2 h9g7, then 5000 nested alternatives to black's reply. */
	xq_buf_adds(&text, "1. h2e2 h9g7 ");
	for (int i = 0; i < depth; i++)
		xq_buf_adds(&text, "(1... h9i7 ");
	for (int i = 0; i < depth; i++)
		xq_buf_adds(&text, ")");
	xq_buf_adds(&text, " *\n");
	open_mem(&r, "deep.pgn", text.ptr, text.len, NULL);
	assert_int_equal(next_game(&r), 1);
	assert_false(r.g.flags & XQI_RECORD_BROKEN);
	xqi_record_count(&r.g, &c);
	assert_int_equal(c.nodes, 2 + depth);
	close_reading(&r);
	xq_buf_release(&text);
}

static void nags_numeric_symbolic_and_glued(void **state)
{
	struct reading r;
	const struct xqi_node *n;

	(void)state;
	open_str(&r, "1. h2e2 $1 $14 h9g7?! 2. h0g2!! ?? *\n");
	assert_int_equal(next_game(&r), 1);
	n = ply_node(&r.g, 1);
	assert_int_equal(n->nnags, 2);
	assert_int_equal(n->nags[0], 1);
	assert_int_equal(n->nags[1], 14);
	n = ply_node(&r.g, 2);
	assert_int_equal(n->nnags, 1);
	assert_int_equal(n->nags[0], 6);
	assert_string_equal(n->text, "h9g7?!");
	n = ply_node(&r.g, 3);
	assert_int_equal(n->nnags, 2);
	assert_int_equal(n->nags[0], 3);
	assert_int_equal(n->nags[1], 4);
	close_reading(&r);
}

static void check_marks_are_not_part_of_the_move(void **state)
{
	struct reading r;

	(void)state;
	open_str(&r, "[FEN \"3k5/9/9/9/9/9/9/9/4A4/4K3R w - - 0 1\"]\n1. i0i9+ d9d8 2. i9i8# +\n1-0\n");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(mainline(&r.g), "i0i9 d9d8 i9i8");
	assert_int_equal(ply_node(&r.g, 1)->nnags, 0);
	assert_int_equal(count_sev(&r, XQ_SEVERITY_ERROR), 0);
	close_reading(&r);
}

/* ---- results and boundaries ------------------------------------------------ */

static void every_result_token(void **state)
{
	static const struct {
		const char *token;
		enum xqi_result r;
		const char *text;
	} cases[] = {
		{"1-0", XQI_RESULT_RED_WIN, NULL},   {"0-1", XQI_RESULT_BLACK_WIN, NULL},
		{"1/2-1/2", XQI_RESULT_DRAW, NULL},  {"*", XQI_RESULT_UNKNOWN, NULL},
		{"½-½", XQI_RESULT_DRAW, "½-½"},     {"未知", XQI_RESULT_UNKNOWN, "未知"},
		{"红胜", XQI_RESULT_RED_WIN, "红胜"}, {"和棋", XQI_RESULT_DRAW, "和棋"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct reading r;
		char text[64];
		snprintf(text, sizeof(text), "1. h2e2 %s\n", cases[i].token);
		open_str(&r, text);
		assert_int_equal(next_game(&r), 1);
		assert_int_equal(r.g.result, cases[i].r);
		if (cases[i].text) {
			/* A marker in words is read with a note saying as what. */
			assert_string_equal(r.g.result_text, cases[i].text);
			assert_int_equal(r.nd, 1);
			assert_int_equal(r.d[0].severity, XQ_SEVERITY_NOTE);
			assert_non_null(strstr(r.d[0].msg, "read as"));
		} else {
			assert_null(r.g.result_text);
			assert_int_equal(r.nd, 0);
		}
		close_reading(&r);
	}
}

/* 红胜 in the Result tag is 1-0, said in a note where the tag is; 先胜
 * names the side that moves first; a word that names no side is not a
 * result (validate says so) and the result is unknown. */
static void result_tag_in_words_is_read_as_the_result_it_says(void **state)
{
	static const struct {
		const char *text;
		enum xqi_result r;
	} cases[] = {
		{"[Result \"红胜\"]\n1. h2e2 h9g7\n", XQI_RESULT_RED_WIN},
		{"[Result \"紅負\"]\n1. h2e2 h9g7\n", XQI_RESULT_BLACK_WIN},
		{"[Result \"和局\"]\n1. h2e2 h9g7\n", XQI_RESULT_DRAW},
		{"[Result \"Black wins\"]\n1. h2e2 h9g7\n", XQI_RESULT_BLACK_WIN},
		{"[Result \"先胜\"]\n1. h2e2 h9g7\n", XQI_RESULT_RED_WIN},
		{"[FEN \"3k5/9/9/9/9/9/9/9/9/5K3 b - - 0 1\"]\n[Result \"先胜\"]\n1... d9d8\n",
		 XQI_RESULT_BLACK_WIN},
		{"[FEN \"3k5/9/9/9/9/9/9/9/9/5K3 b - - 0 1\"]\n[Result \"后负\"]\n1... d9d8\n",
		 XQI_RESULT_BLACK_WIN},
		{"[Result \"胜\"]\n1. h2e2 h9g7\n", XQI_RESULT_UNKNOWN},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct reading r;
		const struct xq_diagnostic *d;
		open_str(&r, cases[i].text);
		assert_int_equal(next_game(&r), 1);
		assert_int_equal(r.g.result, cases[i].r);
		assert_non_null(r.g.result_text); /* as the record wrote it */
		d = find_diag(&r, XQI_D_BAD_TAG);
		if (cases[i].r == XQI_RESULT_UNKNOWN) {
			assert_null(d);
		} else {
			assert_non_null(d);
			assert_int_equal(d->severity, XQ_SEVERITY_NOTE);
			assert_int_equal(d->place.line, cases[i].text[1] == 'F' ? 2 : 1);
			assert_non_null(strstr(d->msg, xqi_result_string(cases[i].r)));
		}
		close_reading(&r);
	}
}

static void missing_result_is_a_note_and_the_tag_is_used(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;

	(void)state;
	open_str(&r, "[Result \"0-1\"]\n1. h2e2 h9g7\n\n[Event \"2\"]\n1. h2e2\n");
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(r.g.result, XQI_RESULT_BLACK_WIN);
	d = find_diag(&r, XQI_D_NO_RESULT);
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_NOTE);
	/* At the end of the moves (the last one, h9g7), not at the next
	 * game's first tag. */
	assert_int_equal(d->place.line, 2);
	assert_int_equal(d->place.col, 9);
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(r.g.result, XQI_RESULT_NONE);
	assert_int_equal(next_game(&r), 0);
	close_reading(&r);
}

static void result_tag_that_disagrees_is_bad_result(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;

	(void)state;
	open_str(&r, "[Result \"1-0\"]\n1. h2e2 0-1\n");
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(r.g.result, XQI_RESULT_BLACK_WIN);
	d = find_diag(&r, XQI_D_BAD_RESULT);
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_WARNING);
	assert_int_equal(d->place.line, 1);
	close_reading(&r);
	/* 未知 and * both mean unknown: they agree (the word is noted). */
	open_str(&r, "[Result \"未知\"]\n1. h2e2 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_null(find_diag(&r, XQI_D_BAD_RESULT));
	assert_int_equal(r.nd, 1);
	assert_int_equal(r.d[0].severity, XQ_SEVERITY_NOTE);
	close_reading(&r);
	/* 红胜 and 0-1 do not. */
	open_str(&r, "[Result \"红胜\"]\n1. h2e2 0-1\n");
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(r.g.result, XQI_RESULT_BLACK_WIN);
	assert_non_null(find_diag(&r, XQI_D_BAD_RESULT));
	close_reading(&r);
}

static void junk_after_the_result_is_reported_and_skipped(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;

	(void)state;
	open_str(&r, "1. h2e2 1-0 {a comment}\n======\n欢迎访问《象棋百科全书》网站\nhttps://www.xqbase.com/\n"
		     "[Event \"next\"]\n1. h2e2 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(r.g.result, XQI_RESULT_RED_WIN);
	assert_string_equal(ply_node(&r.g, 1)->comment, "a comment");
	d = find_diag(&r, XQI_D_TRAILING);
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_WARNING);
	assert_int_equal(d->place.line, 2);
	/* The junk names no move: it is quoted in the message, not put in
	 * the move's slot (where a label would show it as the game's move). */
	assert_string_equal(d->move, "");
	assert_non_null(strstr(d->msg, "is skipped: '======'"));
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "next");
	assert_int_equal(r.nd, 1);
	close_reading(&r);
}

static void games_without_tags_are_split_at_results(void **state)
{
	struct reading r;

	(void)state;
	open_str(&r, "1. h2e2 h9g7 1-0\n1. b2e2 0-1\nh2e2 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(mainline(&r.g), "h2e2 h9g7");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(mainline(&r.g), "b2e2");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(mainline(&r.g), "h2e2");
	assert_int_equal(next_game(&r), 0);
	assert_int_equal(r.nd, 0);
	close_reading(&r);
}

static void a_tag_line_after_moves_starts_the_next_game(void **state)
{
	struct reading r;

	(void)state;
	open_str(&r, "[Event \"1\"]\n\n1. h2e2 h9g7 [Event \"2\"]\n1. b2e2\n");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(mainline(&r.g), "h2e2 h9g7");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "2");
	close_reading(&r);
}

static void a_game_tag_among_sorted_tags_does_not_split_the_game(void **state)
{
	struct reading r;

	(void)state;
	open_str(&r, "[Event \"e\"]\n[FEN \"3k5/9/9/9/9/9/9/9/9/4K4 w\"]\n[Game \"Chinese Chess\"]\n"
		     "[Site \"s\"]\n\n1. e0e1 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(r.g.ntags, 4);
	assert_string_equal(mainline(&r.g), "e0e1");
	assert_int_equal(next_game(&r), 0);
	close_reading(&r);
}

static void a_game_tag_after_tags_starts_the_next_game(void **state)
{
	struct reading r;

	(void)state;
	open_str(&r, "[Game \"Chinese Chess\"]\n[Event \"empty\"]\n\n[Game \"Chinese Chess\"]\n[Event \"2\"]\n1. h2e2 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "empty");
	assert_true(r.g.flags & XQI_RECORD_EMPTY);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "2");
	close_reading(&r);
}

static void empty_game_is_a_note(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;

	(void)state;
	open_str(&r, "[Event \"x\"]\n[Result \"*\"]\n\n*\n");
	assert_int_equal(next_game(&r), 1);
	assert_true(r.g.flags & XQI_RECORD_EMPTY);
	assert_false(r.g.flags & XQI_RECORD_BROKEN);
	d = find_diag(&r, XQI_D_EMPTY_GAME);
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_NOTE);
	assert_int_equal(r.g.result, XQI_RESULT_UNKNOWN);
	close_reading(&r);
}

static void fen_line_before_a_bare_move_list(void **state)
{
	struct reading r;

	(void)state;
	open_str(&r, "4k4/9/9/9/9/9/9/9/9/3K5 b\ne9f9\nd0e0\n");
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(r.g.start.side, XQI_BLACK);
	assert_string_equal(mainline(&r.g), "e9f9 d0e0");
	close_reading(&r);
}

/* ---- errors and recovery --------------------------------------------------- */

static void illegal_move_breaks_the_game_with_a_full_place(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;

	(void)state;
	open_str(&r, "[Event \"1\"]\n\n1. h2e2 h9g7\n2. h2h9 b9c7 *\n\n[Event \"2\"]\n1. h2e2 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_true(r.g.flags & XQI_RECORD_BROKEN);
	assert_string_equal(mainline(&r.g), "h2e2 h9g7");
	assert_int_equal(r.g.result, XQI_RESULT_UNKNOWN); /* its own marker, still read */
	d = find_diag(&r, XQI_D_ILLEGAL_MOVE);
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_ERROR);
	assert_string_equal(d->source, "t.pgn");
	assert_int_equal(d->place.line, 4);
	assert_int_equal(d->place.col, 4);
	assert_int_equal(d->place.offset, 29);
	assert_true(d->has_offset);
	assert_int_equal(d->game, 1);
	assert_int_equal(d->ply, 3);
	assert_string_equal(d->move, "h2h9");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "2");
	assert_false(r.g.flags & XQI_RECORD_BROKEN);
	close_reading(&r);
}

static void text_that_is_no_move_is_bad_move_text(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;

	(void)state;
	open_str(&r, "1. h2e2 hello *\n");
	assert_int_equal(next_game(&r), 1);
	assert_true(r.g.flags & XQI_RECORD_BROKEN);
	d = find_diag(&r, XQI_D_BAD_MOVE_TEXT);
	assert_non_null(d);
	assert_string_equal(d->move, "hello");
	assert_int_equal(d->ply, 2);
	close_reading(&r);
}

static void unclosed_comment_is_an_error_and_reading_goes_on(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;

	(void)state;
	open_str(&r, "[Event \"1\"]\n1. h2e2 {never closed\n\n[Event \"2\"]\n1. b2e2 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_true(r.g.flags & XQI_RECORD_BROKEN);
	d = find_diag(&r, XQI_D_SYNTAX);
	assert_non_null(d);
	assert_int_equal(d->place.line, 2);
	assert_int_equal(d->place.col, 9);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "2");
	assert_string_equal(mainline(&r.g), "b2e2");
	close_reading(&r);
}

static void unclosed_comment_counts_its_lines_once(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;

	(void)state;
	/* The '{' closes nothing: what follows it is read again, and the
	 * line ends it passed are counted once, as are the bytes' offsets
	 * (GBK: the offset of a character is not its place in the text). */
	open_str(&r, "[Event \"1\"]\n1. h2e2 {never \xC5\xDA closed\n\n[Event \"2\"]\n1. b2e2 zz *\n");
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(r.g.place.line, 4);
	assert_int_equal(r.g.place.col, 1);
	assert_int_equal(r.g.place.offset, 38);
	d = find_diag(&r, XQI_D_BAD_MOVE_TEXT);
	assert_non_null(d);
	assert_int_equal(d->place.line, 5);
	assert_int_equal(d->place.col, 9);
	assert_int_equal(d->place.offset, 58);
	close_reading(&r);
}

static void unbalanced_parentheses_are_errors(void **state)
{
	struct reading r;

	(void)state;
	open_str(&r, "1. h2e2 ) *\n");
	assert_int_equal(next_game(&r), 1);
	assert_true(r.g.flags & XQI_RECORD_BROKEN);
	assert_non_null(find_diag(&r, XQI_D_SYNTAX));
	close_reading(&r);
	open_str(&r, "1. h2e2 (1. b2e2 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_true(r.g.flags & XQI_RECORD_BROKEN);
	close_reading(&r);
	open_str(&r, "(1. h2e2) *\n");
	assert_int_equal(next_game(&r), 1);
	assert_true(r.g.flags & XQI_RECORD_BROKEN);
	close_reading(&r);
}

static void stray_brace_is_an_error(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;

	(void)state;
	open_str(&r, "1. h2e2 } *\n");
	assert_int_equal(next_game(&r), 1);
	assert_true(r.g.flags & XQI_RECORD_BROKEN);
	d = find_diag(&r, XQI_D_SYNTAX);
	assert_non_null(d);
	assert_int_equal(d->place.col, 9);
	close_reading(&r);
}

static void memory_is_reused_from_game_to_game(void **state)
{
	struct xq_buf text = XQ_BUF_INIT;
	struct reading r;
	size_t arena_after_first = 0, nodes_after_first = 0;
	int games = 0;

	(void)state;
	for (int i = 0; i < 2000; i++)
		xq_buf_addf(&text, "[Event \"%d\"]\n{a comment of some length}\n1. h2e2 h9g7 2. h0g2 b9c7 1-0\n\n", i);
	open_mem(&r, "many.pgn", text.ptr, text.len, NULL);
	while (next_game(&r) > 0) {
		if (++games == 1) {
			arena_after_first = r.g.arena.total;
			nodes_after_first = r.g.nodes_alloc;
		}
		/* Nothing grows with the number of games read. */
		assert_int_equal(r.g.arena.total, arena_after_first);
		assert_int_equal(r.g.nodes_alloc, nodes_after_first);
	}
	assert_int_equal(games, 2000);
	close_reading(&r);
	xq_buf_release(&text);
}

static void long_input_crosses_many_window_refills(void **state)
{
	struct xq_buf text = XQ_BUF_INIT;
	struct reading r;
	int games = 0;

	(void)state;
	/* Over 1 MB of GBK: characters and tokens cut at every chunk boundary. */
	while (text.len < (1u << 20) + 12345)
		xq_buf_adds(&text, "[Red \"\xC5\xDA\xB6\xFE\"]\r\n{\xC6\xBD\xCE\xE5 \xC2\xED}\r\n 1. h2e2  h9g7 \r\n 1-0\r\n\r\n");
	open_mem(&r, "big.pgn", text.ptr, text.len, NULL);
	while (next_game(&r) > 0) {
		games++;
		assert_string_equal(xqi_record_tag(&r.g, "Red"), "炮二");
		assert_string_equal(r.g.nodes[XQI_ROOT].comment, "平五 马");
		assert_string_equal(mainline(&r.g), "h2e2 h9g7");
		assert_int_equal(r.g.place.line, (unsigned)(games - 1) * 5 + 1);
		assert_int_equal(r.g.place.offset, (uint64_t)(games - 1) * 50);
	}
	assert_int_equal((size_t)games * 50, text.len);
	assert_int_equal(r.nd, 0);
	close_reading(&r);
	xq_buf_release(&text);
}

static void column_at_the_end_counts_each_trailing_space_once(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;

	(void)state;
	/* The game ends at the end of the input, after 15 characters, where
	 * its variation is found not closed. */
	open_str(&r, "1. h2e2 (h0g2 \t");
	next_game(&r);
	d = find_diag(&r, XQI_D_SYNTAX);
	assert_non_null(d);
	assert_int_equal(d->place.line, 1);
	assert_int_equal(d->place.col, 16);
	assert_int_equal(d->place.offset, 15);
	close_reading(&r);
}

static void column_stays_right_when_the_window_refills_inside_white_space(void **state)
{
	struct xq_buf text = XQ_BUF_INIT;
	struct reading r;
	const struct xq_diagnostic *d;
	size_t pad;

	(void)state;
	/* The first read takes 65536 bytes: let it end inside the spaces
	 * before the bad move, so that the window is refilled there. */
	xq_buf_adds(&text, "1. h2e2 h9g7 2.");
	pad = 65536 - text.len + 100;
	for (size_t i = 0; i < pad; i++)
		xq_buf_addc(&text, ' ');
	xq_buf_adds(&text, "zz *\n");
	open_mem(&r, "refill.pgn", text.ptr, text.len, NULL);
	assert_int_equal(next_game(&r), 1);
	d = find_diag(&r, XQI_D_BAD_MOVE_TEXT);
	assert_non_null(d);
	assert_int_equal(d->place.offset, 15 + pad);
	assert_int_equal(d->place.col, 15 + pad + 1);
	close_reading(&r);
	xq_buf_release(&text);
}

static void a_game_of_ascii_is_utf8_until_the_first_other_byte(void **state)
{
	struct reading r;

	(void)state;
	/* GBK further on: the games before it are ASCII, and say so however
	 * far the reader had read ahead (the same from any starting point). */
	open_str(&r, "[Game \"Chinese Chess\"]\n1. h2e2 *\n\n"
		     "[Game \"Chinese Chess\"]\n1. h2e2 *\n\n"
		     "[Game \"Chinese Chess\"]\n[Red \"\xC5\xDA\"]\n1. h2e2 *\n\n"
		     "[Game \"Chinese Chess\"]\n1. h2e2 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(r.g.encoding, "utf-8");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(r.g.encoding, "utf-8");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(r.g.encoding, "gb18030");
	assert_string_equal(xqi_record_tag(&r.g, "Red"), "炮");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(r.g.encoding, "gb18030");
	close_reading(&r);
}

/* ---- mixed encodings (lib/decode.h) ---------------------------------------- */

/* Three games: UTF-8, then `mid` (a game's text), then UTF-8. */
#define U1 "[Event \"Café open\"]\n[Red \"José\"]\n\n1. h2e2 h9g7 {très bien 象棋} 1-0\n\n"
#define U3 "[Event \"第二轮\"]\n\n1. h2e2 b9c7 {好棋} 1/2-1/2\n"
#define GBK_GAME "[Event \"\xC8\xAB\xB9\xFA\xCF\xF3\xC6\xE5\"]\n[Red \"\xBA\xFA\xC8\xD9\xBB\xAA\"]\n\n" \
		 "1. \xC5\xDA\xB6\xFE\xC6\xBD\xCE\xE5 *\n\n" /* 全国象棋, 胡荣华, 炮二平五 */

static void stray_byte_in_one_game_leaves_the_utf8_of_the_others_alone(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;
	const char text[] = U1 "[Event \"b\"]\n\n1. h2e2 {bad \xE9 byte} h9g7 *\n\n" U3;

	(void)state;
	/* Too few accents for the byte count: the whole file used to be
	 * read as GB18030, and é came out as 茅 with no word said. */
	open_mem(&r, "u.pgn", text, sizeof(text) - 1, NULL);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "Café open");
	assert_string_equal(r.g.encoding, "utf-8");
	assert_int_equal(next_game(&r), 1);
	assert_false(r.g.flags & XQI_RECORD_BROKEN);
	assert_string_equal(mainline(&r.g), "h2e2 h9g7");
	d = find_diag(&r, XQI_D_ENCODING);
	assert_non_null(d);
	assert_int_equal(d->place.line, 8);
	assert_int_equal(d->place.col, 14);
	assert_int_equal(d->place.offset, sizeof(U1) - 1 + 26);
	assert_string_equal(d->msg, "a comment is not valid utf-8: 1 byte replaced by U+FFFD (the "
				    "first, 0xE9, at offset 100)");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "第二轮");
	assert_int_equal(count_sev(&r, XQ_SEVERITY_WARNING), 1);
	close_reading(&r);
}

static void gbk_game_in_a_utf8_file_is_read_as_gbk_with_one_warning(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;
	const char text[] = U1 GBK_GAME U3;

	(void)state;
	open_mem(&r, "m.pgn", text, sizeof(text) - 1, NULL);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "Café open");
	assert_string_equal(r.g.encoding, "utf-8");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "全国象棋");
	assert_string_equal(xqi_record_tag(&r.g, "Red"), "胡荣华");
	assert_string_equal(mainline(&r.g), "h2e2");
	assert_string_equal(r.g.encoding, "gb18030");
	assert_false(r.g.flags & XQI_RECORD_BROKEN);
	/* One warning for the game, at its first byte that is not UTF-8. */
	d = find_diag(&r, XQI_D_ENCODING);
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_WARNING);
	assert_int_equal(d->game, 2);
	assert_int_equal(d->place.line, 6);
	assert_int_equal(d->place.col, 9);
	assert_int_equal(d->place.offset, sizeof(U1) - 1 + 8);
	assert_string_equal(d->msg, "this line is gb18030, not utf-8 like the input: read as gb18030, "
				    "as is every such line of this game");
	assert_int_equal(count_sev(&r, XQ_SEVERITY_WARNING), 1);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "第二轮");
	assert_string_equal(r.g.encoding, "utf-8");
	/* Places after the converted game are source offsets still. */
	assert_int_equal(r.g.place.offset, sizeof(U1) - 1 + sizeof(GBK_GAME) - 1);
	assert_int_equal(count_sev(&r, XQ_SEVERITY_ERROR), 0);
	close_reading(&r);
}

static void utf8_game_in_a_gbk_file_is_read_as_utf8_with_one_warning(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;
	const char text[] = GBK_GAME U1 GBK_GAME;

	(void)state;
	open_mem(&r, "g.pgn", text, sizeof(text) - 1, NULL);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(r.g.encoding, "gb18030");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "Café open");
	assert_string_equal(xqi_record_tag(&r.g, "Red"), "José");
	assert_string_equal(ply_node(&r.g, 2)->comment, "très bien 象棋");
	assert_string_equal(r.g.encoding, "utf-8");
	d = find_diag(&r, XQI_D_ENCODING);
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_WARNING);
	assert_int_equal(d->place.line, 6);
	assert_int_equal(d->place.col, 12);
	assert_int_equal(d->place.offset, sizeof(GBK_GAME) - 1 + 11);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "Red"), "胡荣华");
	assert_string_equal(r.g.encoding, "gb18030");
	assert_int_equal(count_sev(&r, XQ_SEVERITY_WARNING), 1);
	close_reading(&r);
}

static void big5_game_in_a_utf8_file_is_read_as_big5(void **state)
{
	struct reading r;
	/* 全國象棋, 呂欽, 炮二平五 in Big5. */
	const char text[] = U1 "[Event \"\xA5\xFE\xB0\xEA\xB6\x48\xB4\xD1\"]\n[Red \"\xA7\x66\xB4\xDC\"]\n\n"
			       "1. \xAC\xB6\xA4\x47\xA5\xAD\xA4\xAD *\n";

	(void)state;
	open_mem(&r, "b.pgn", text, sizeof(text) - 1, NULL);
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "全國象棋");
	assert_string_equal(xqi_record_tag(&r.g, "Red"), "呂欽");
	assert_string_equal(mainline(&r.g), "h2e2");
	assert_string_equal(r.g.encoding, "big5");
	close_reading(&r);
}

static void appended_utf8_file_after_gbk_is_read_as_utf8_and_its_bom_is_a_space(void **state)
{
	struct reading r;
	const char text[] = GBK_GAME "\xEF\xBB\xBF" U3;

	(void)state;
	open_mem(&r, "a.pgn", text, sizeof(text) - 1, NULL);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(r.g.encoding, "gb18030");
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "第二轮");
	assert_string_equal(r.g.encoding, "utf-8");
	assert_false(r.g.flags & XQI_RECORD_BROKEN);
	assert_int_equal(count_sev(&r, XQ_SEVERITY_ERROR), 0);
	close_reading(&r);
}

static void given_encoding_reads_every_line_in_it_and_reports_the_rest(void **state)
{
	struct reading r;
	struct xqi_read_opts o = XQI_READ_OPTS_INIT;
	const struct xq_diagnostic *d;
	const char text[] = U1 GBK_GAME;

	(void)state;
	o.encoding = XQI_ENC_UTF8;
	open_mem(&r, "f.pgn", text, sizeof(text) - 1, &o);
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(next_game(&r), 1);
	/* Its tags are kept (U+FFFD for what is not UTF-8); its moves are not text. */
	assert_true(r.g.flags & XQI_RECORD_BROKEN);
	assert_non_null(xqi_record_tag(&r.g, "Red"));
	d = find_diag_sev(&r, XQI_D_ENCODING, XQ_SEVERITY_WARNING);
	assert_non_null(d);
	assert_non_null(strstr(d->msg, "tag Event is not valid utf-8"));
	d = find_diag_sev(&r, XQI_D_ENCODING, XQ_SEVERITY_ERROR);
	assert_non_null(d);
	assert_non_null(strstr(d->msg, "is not valid utf-8"));
	/* Nothing more: the game's tags did not make a game of their own. */
	assert_int_equal(next_game(&r), 0);
	close_reading(&r);
}

/* ---- splitting --------------------------------------------------------------- */

/* Bytes for a splitter or a chunk reader, from an input. */
static long input_bytes(void *ctx, void *buf, size_t n, struct xq_diagnostic *d)
{
	return xqi_input_read(ctx, buf, n, d);
}

/* Every split point of `text`, up to `max`; returns how many. */
static int split_points(const char *text, struct xqi_split_point *pt, int max)
{
	const struct xqi_split_ops *ops = xqi_format_split(&xqi_format_pgn);
	struct xqi_input *in;
	struct xqi_bytes src = {input_bytes, NULL};
	void *sp;
	int n = 0, rc = 0;

	assert_non_null(ops);
	assert_int_equal(xqi_input_open_mem(&in, "split.pgn", text, strlen(text)), 0);
	src.ctx = in;
	assert_int_equal(ops->open(&sp, &src, NULL), 0);
	while (n < max && (rc = ops->next(sp, &pt[n])) == 1)
		n++;
	assert_true(n == max || rc == 0);
	ops->close(sp);
	xqi_input_close(in);
	return n;
}

static void splitter_proposes_tag_lines_and_move_numbers_in_column_1(void **state)
{
	static const char text[] = "[Game \"Chinese Chess\"]\n1. h2e2 {[x] no tag} *\n\n"
				   "[Game \"Chinese Chess\"]\r\n[Round \"2\"]\r\n1. c3c4 1-0\r\n"
				   "1. b2e2 0-1 [Game \"Chinese Chess\"] 1. h2e2 *\n";
	struct xqi_split_point pt[8];
	int n;

	(void)state;
	n = split_points(text, pt, 8);
	assert_int_equal(n, 3);
	assert_int_equal(pt[0].offset, 0);
	assert_int_equal(pt[0].records, 0);
	/* The second game: its first tag line, which a reader of the first
	 * game must see through to its line end. */
	assert_int_equal(pt[1].offset, 47);
	assert_int_equal(pt[1].line, 4);
	assert_int_equal(pt[1].records, 1);
	assert_int_equal(pt[1].seen, 47 + 23);
	/* A game without tags after a result, at its move number; the game
	 * that starts at the tag in the middle of the line is counted, but
	 * the input is not cut there. */
	assert_int_equal(pt[2].offset, 97);
	assert_int_equal(pt[2].line, 7);
	assert_int_equal(pt[2].records, 2);
	assert_int_equal(pt[0].encoding, XQI_ENC_UNKNOWN);
}

/* Every split point of `ops` over `len` bytes of `text`; *n gets how many
 * (the array is malloc'd), the return value is what next() ended with. */
static int points_by(const struct xqi_split_ops *ops, const char *text, size_t len,
		     struct xqi_split_point **pts, size_t *n)
{
	struct xqi_input *in;
	struct xqi_bytes src = {input_bytes, NULL};
	size_t cap = 0;
	void *sp;
	int rc;

	*pts = NULL;
	*n = 0;
	assert_int_equal(xqi_input_open_mem(&in, "split.pgn", text, len), 0);
	src.ctx = in;
	assert_int_equal(ops->open(&sp, &src, NULL), 0);
	for (;;) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			*pts = realloc(*pts, cap * sizeof(**pts));
			assert_non_null(*pts);
		}
		if ((rc = ops->next(sp, &(*pts)[*n])) != 1)
			break;
		(*n)++;
	}
	ops->close(sp);
	xqi_input_close(in);
	return rc;
}

/*
 * The splitter (its quick scan of bytes, handing over to the token scan
 * where the text leaves the usual shape) gives exactly the points of the
 * token scan alone: the same offsets, lines, game counts and bytes to
 * see, and the same encoding once both know it.  Returns the points.
 */
static size_t assert_same_points(const char *what, const char *text, size_t len)
{
	struct xqi_split_point *q, *t;
	size_t nq, nt;
	int rq = points_by(xqi_format_split(&xqi_format_pgn), text, len, &q, &nq);
	int rt = points_by(&xqi_pgn_split_tokens, text, len, &t, &nt);

	if (rq != rt || nq != nt)
		fail_msg("%s: the quick scan gave %zu points (then %d), the token scan %zu (then %d)", what,
			 nq, rq, nt, rt);
	for (size_t i = 0; i < nq; i++) {
		if (q[i].offset != t[i].offset || q[i].line != t[i].line || q[i].records != t[i].records ||
		    q[i].seen != t[i].seen)
			fail_msg("%s: point %zu: quick offset %llu line %llu games %llu seen %llu, token "
				 "offset %llu line %llu games %llu seen %llu",
				 what, i, (unsigned long long)q[i].offset, (unsigned long long)q[i].line,
				 (unsigned long long)q[i].records, (unsigned long long)q[i].seen,
				 (unsigned long long)t[i].offset, (unsigned long long)t[i].line,
				 (unsigned long long)t[i].records, (unsigned long long)t[i].seen);
		if (q[i].encoding != XQI_ENC_UNKNOWN && t[i].encoding != XQI_ENC_UNKNOWN &&
		    (q[i].encoding != t[i].encoding || q[i].first_high != t[i].first_high))
			fail_msg("%s: point %zu: quick encoding %d from %llu, token %d from %llu", what, i,
				 (int)q[i].encoding, (unsigned long long)q[i].first_high, (int)t[i].encoding,
				 (unsigned long long)t[i].first_high);
	}
	free(q);
	free(t);
	return nq;
}

static void quick_scan_gives_the_token_scans_points_where_the_text_leaves_the_usual_shape(void **state)
{
	/* Each piece is a few games; every piece and all of them together
	 * must give the same points. */
#define PIECE(s) {s, sizeof(s) - 1} /* its length: one piece holds a NUL */
	static const struct {
		const char *text;
		size_t len;
	} pieces[] = {
		PIECE("[Event \"plain\"]\n[Round \"1\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 1-0\n\n"),
		PIECE("[Event \"crlf\"]\r\n\r\n1. h2e2 h9g7 0-1\r\n\r\n"),
		PIECE("[Event \"bare cr\"]\r\r1. h2e2 h9g7 *\r\r"),
		PIECE("[Event \"comment\"]\n1. h2e2 {a comment\n\n[Event \"not a game\"]\nstill it} h9g7 *\n\n"),
		PIECE("[Event \"semicolon\"]\n1. h2e2 ; a line comment { with a brace\nh9g7 *\n\n"),
		PIECE("%an escape line\n[Event \"after escape\"]\n1. h2e2 *\n\n"),
		PIECE("[Event \"tagless after\"]\n1. h2e2 1-0\n1. c3c4 c6c5 0-1\n\n"),
		PIECE("[Event \"variation\"]\n1. h2e2 (1. c3c4 1-0) h9g7 (1... c6c5 (1... b9c7)) *\n\n"),
		PIECE("[Event \"blank between tags\"]\n\n[Site \"another game\"]\n1. h2e2 *\n\n"),
		PIECE("[Game \"Chinese Chess\"]\n[Event \"a\"]\n[Game \"Chinese Chess\"]\n1. h2e2 *\n\n"),
		PIECE("[Event \"two tags\"] [Site \"one line\"]\n1. h2e2 *\n\n"),
		PIECE("[Event \"unclosed\n1. h2e2 *\n\n"),
		PIECE("[Event \"stray\"]\n1. h2e2 } h9g7 ] *\n\n"),
		PIECE("[Event \"nags\"]\n1. h2e2 $1 h9g7 $14 2. h0g2! i9h9?! 1/2-1/2\n\n"),
		PIECE("[Event \"glued\"]\n1. h2e2 h9g7 {end}1-0{after}\n[Event \"next\"]\n1. h2e2 *\n\n"),
		PIECE("[Event \"escaped \\\"quote\\\" and [brackets]\"]\n1. h2e2 *\n\n"),
		PIECE("[Event \"trailing text\"]\n1. h2e2 1-0 some words\n[Event \"x\"]\n1. h2e2 *\n\n"),
		PIECE("{a comment before the tags}\n[Event \"commented\"]\n1. h2e2 *\n\n"),
		PIECE("[Event \"\xE7\x94\xB2\"]\n1. \xE7\x82\xAE\xE4\xBA\x8C\xE5\xB9\xB3\xE4\xBA\x94 \xE7\xBA\xA2\xE8\x83\x9C\n\n"),
		PIECE("[Event \"nul\"]\n1. h2e2 \0 h9g7 *\n\n"),
		PIECE("[Event \"unbalanced\"]\n1. h2e2 (1. c3c4 h9g7 *\n\n"),
		PIECE("[Event \"gbk \xbc\xd7\"]\n1. h2e2 {\xba\xec\x7b\xb7\xbd} h9g7 *\n\n"),
		/* Tag lines the sixteen-bytes-at-a-time path must leave to the
		 * byte loop, or take exactly as it would. */
		PIECE("[Ev ent \"a blank in the name\"]\n1. h2e2 *\n\n"),
		PIECE("[\tEvent\t\"tabs\"\t]\t\n[Site  \"two blanks\"  ]  \n1. h2e2 *\n\n"),
		PIECE("[Event \"two closing\"]]\n1. h2e2 *\n\n"),
		PIECE("[Event \"a \x01 control byte\"]\n1. h2e2 *\n\n"),
		PIECE("[Ev{ent \"a brace in the name\"]\n1. h2e2 *\n\n"),
		PIECE("[Event \"three\" \"quotes\"]\n1. h2e2 *\n\n"),
		PIECE("[Event \"a value longer than a block of sixty-four bytes, to the byte loop\"]\n1. h2e2 *\n\n"),
		PIECE("[Event \"{braces} and [brackets] in the value\"]\n1. h2e2 *\n\n"),
		PIECE("[Event\"glued\"]\n[Site \"x\"] text after\n1. h2e2 *\n\n"),
		PIECE("[Event \"last\"]\n1. h2e2 {never closed"),
	};
	struct xq_buf all = XQ_BUF_INIT;
	char what[64];
	size_t n;

	(void)state;
	for (size_t i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
		struct xq_buf one = XQ_BUF_INIT;
		snprintf(what, sizeof(what), "piece %zu", i);
		/* The piece after a usual game, then a usual game after it. */
		xq_buf_add(&one, pieces[0].text, pieces[0].len);
		xq_buf_add(&one, pieces[i].text, pieces[i].len);
		xq_buf_adds(&one, "\n");
		xq_buf_add(&one, pieces[0].text, pieces[0].len);
		assert_same_points(what, one.ptr, one.len);
		xq_buf_add(&all, pieces[i].text, pieces[i].len);
		if (i + 1 < sizeof(pieces) / sizeof(pieces[0]))
			xq_buf_adds(&all, "\n");
		xq_buf_release(&one);
	}
	n = assert_same_points("all pieces", all.ptr, all.len);
	assert_true(n >= 20);
	xq_buf_release(&all);
#undef PIECE
}

/* The fixtures, each alone and twice over (so that their encodings are
 * met at a split point past their start), in GBK, Big5 and UTF-8. */
static void quick_scan_gives_the_token_scans_points_on_the_fixtures(void **state)
{
	static const char *const names[] = {
		"big5-black-first.pgn", "first-game-without-result.pgn", "gb2312-crlf.pgn",
		"gbk-bare-cr-variations.pgn", "no-tags-gmchess.pgn", "utf8-bom-iccs.pgn",
		"wxf-fullwidth.pgn", "xboard-san.pgn",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t len;
		char *text = load(names[i], &len);
		struct xq_buf twice = XQ_BUF_INIT;
		assert_same_points(names[i], text, len);
		xq_buf_add(&twice, text, len);
		xq_buf_adds(&twice, "\n");
		xq_buf_add(&twice, text, len);
		assert_same_points(names[i], twice.ptr, twice.len);
		xq_buf_release(&twice);
		free(text);
	}
}

/* Every PGN file of the shared corpus (tests/data/pgn/corpus-pgn.txt). */
static void quick_scan_gives_the_token_scans_points_on_the_corpus(void **state)
{
	const char *dir = test_shared_dir();
	size_t listlen, pos = 0, files = 0, points = 0;
	char *list;

	(void)state;
	SKIP_WITHOUT_SHARED(dir);
	list = load("corpus-pgn.txt", &listlen);
	while (pos < listlen) {
		size_t end = pos;
		char path[8192];
		FILE *f;
		struct xq_buf text = XQ_BUF_INIT;
		char chunk[65536];
		size_t got;
		while (end < listlen && list[end] != '\n')
			end++;
		snprintf(path, sizeof(path), "%s/corpus/pgn/%.*s", dir, (int)(end - pos), list + pos);
		pos = end + 1;
		if (!(f = fopen(path, "rb")))
			continue;
		while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
			xq_buf_add(&text, chunk, got);
		fclose(f);
		points += assert_same_points(path, text.ptr ? text.ptr : "", text.len);
		files++;
		xq_buf_release(&text);
	}
	free(list);
	assert_true(files > 900);
	assert_true(points > files);
}

static void chunk_reader_starts_with_the_sequential_readers_places(void **state)
{
	static const char text[] = "[Game \"Chinese Chess\"]\n1. h2e2 h9g7 *\n\n"
				   "[Game \"Chinese Chess\"]\n[Red \"\xC5\xDA\"]\n1. a0a9 *\n";
	const struct xqi_split_ops *ops = xqi_format_split(&xqi_format_pgn);
	struct xqi_split_point pt[4];
	struct xqi_input *in;
	struct xqi_chunk c;
	struct reading r;
	struct xqi_place next;
	void *rd;
	const struct xq_diagnostic *d;

	(void)state;
	assert_int_equal(split_points(text, pt, 4), 2);
	/* The second game alone, as chunk readers get it. */
	memset(&r, 0, sizeof(r));
	r.sink.report = collect;
	r.sink.payload = &r;
	assert_int_equal(xqi_record_init(&r.g), 0);
	assert_int_equal(xqi_input_open_mem(&in, "chunk", text + pt[1].offset,
					   strlen(text) - pt[1].offset), 0);
	memset(&c, 0, sizeof(c));
	c.bytes.read = input_bytes;
	c.bytes.ctx = in;
	c.name = "chunk";
	c.offset = pt[1].offset;
	c.line = pt[1].line;
	c.records = pt[1].records;
	/* It runs to the input's end, where the reader finds the encoding
	 * (a chunk that ends before gets it from its last split point). */
	c.encoding = pt[1].encoding;
	c.first_high = pt[1].first_high;
	assert_int_equal(ops->open_chunk(&rd, &c, NULL, &r.sink), 0);
	assert_int_equal(xqi_format_pgn.read(rd, &r.g), 1);
	assert_int_equal(r.g.number, 2);
	assert_int_equal(r.g.place.line, 4);
	assert_int_equal(r.g.place.offset, pt[1].offset);
	assert_string_equal(r.g.encoding, "gb18030");
	assert_string_equal(xqi_record_tag(&r.g, "Red"), "炮");
	d = find_diag(&r, XQI_D_ILLEGAL_MOVE);
	assert_non_null(d);
	assert_int_equal(d->game, 2);
	assert_int_equal(d->place.line, 6);
	assert_int_equal(d->place.col, 4);
	/* The game ended at the end of the bytes: no place to check. */
	assert_int_equal(ops->chunk_next(rd, &next), 0);
	assert_int_equal(xqi_format_pgn.read(rd, &r.g), 0);
	xqi_format_pgn.close_reader(rd);
	xqi_input_close(in);
	xqi_record_release(&r.g);
}

/* A chunk that starts past line 2^32 (an input of more than four billion
 * lines, cut by the splitter): the games and diagnostics after it are
 * numbered on, never from 0 again. */
static void line_numbers_go_past_four_billion_without_wrapping(void **state)
{
	const char text[] = "[Event \"a\"]\n\n1. h2e2 h9g7 *\n\n[Event \"b\"]\n\n1. h2e2 a0a5 *\n";
	const uint64_t first = (uint64_t)UINT32_MAX - 1;
	struct xqi_input *in;
	struct xqi_chunk c;
	struct reading r;
	void *rd;
	const struct xq_diagnostic *d;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.sink.report = collect;
	r.sink.payload = &r;
	assert_int_equal(xqi_record_init(&r.g), 0);
	assert_int_equal(xqi_input_open_mem(&in, "chunk", text, sizeof(text) - 1), 0);
	memset(&c, 0, sizeof(c));
	c.bytes.read = input_bytes;
	c.bytes.ctx = in;
	c.name = "chunk";
	c.offset = (uint64_t)1 << 40;
	c.line = first;
	assert_int_equal(xqi_format_split(&xqi_format_pgn)->open_chunk(&rd, &c, NULL, &r.sink), 0);
	assert_int_equal(xqi_format_pgn.read(rd, &r.g), 1);
	assert_true(r.g.place.line == first);
	assert_int_equal(xqi_format_pgn.read(rd, &r.g), 1);
	assert_true(r.g.place.line == first + 4);
	assert_true(r.g.place.offset == ((uint64_t)1 << 40) + 29);
	d = find_diag(&r, XQI_D_ILLEGAL_MOVE);
	assert_non_null(d);
	assert_true(d->place.line == first + 6);
	assert_int_equal(d->place.col, 9);
	xqi_format_pgn.close_reader(rd);
	xqi_input_close(in);
	xqi_record_release(&r.g);
}

/* ---- writing ------------------------------------------------------------------ */

static void writer_puts_game_first_sets_format_and_regenerates_fen(void **state)
{
	const char in[] = "[Event \"e\"]\n[FEN \"3k5/9/9/9/9/9/9/9/9/4K4 w\"]\n[Game \"Chinese Chess\"]\n\n1. e0e1 *\n";
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	rewrite(in, sizeof(in) - 1, XQ_DIALECT_ICCS, XQI_ENC_UTF8, XQI_ENC_UNKNOWN, &out);
	assert_string_equal(out.ptr, "[Game \"Chinese Chess\"]\n"
				     "[Event \"e\"]\n"
				     "[FEN \"3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"]\n"
				     "[Result \"*\"]\n"
				     "[Format \"ICCS\"]\n"
				     "\n"
				     "1. e0e1 *\n");
	xq_buf_release(&out);
}

static void writer_adds_fen_when_the_start_is_not_standard(void **state)
{
	const char in[] = "4k4/9/9/9/9/9/9/9/9/3K5 b\ne9f9\n";
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	rewrite(in, sizeof(in) - 1, XQ_DIALECT_ICCS, XQI_ENC_UTF8, XQI_ENC_UNKNOWN, &out);
	/* No result: "*", the tag and the end of the moves. */
	assert_string_equal(out.ptr, "[Game \"Chinese Chess\"]\n"
				     "[Result \"*\"]\n"
				     "[FEN \"4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1\"]\n"
				     "[Format \"ICCS\"]\n"
				     "\n"
				     "1... e9f9 *\n");
	xq_buf_release(&out);
}

static void writer_numbers_variations_comments_and_nags(void **state)
{
	const char in[] = "{start} 1. h2e2 $1 {good} h9g7 (1... b9c7 {or} 2. h0g2 (2. {pre} b0c2) 2... h9g7) "
			  "(1... h7e7) 2. h0g2 1-0\n";
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	rewrite(in, sizeof(in) - 1, XQ_DIALECT_ICCS, XQI_ENC_UTF8, XQI_ENC_UNKNOWN, &out);
	assert_string_equal(out.ptr, "[Game \"Chinese Chess\"]\n"
				     "[Result \"1-0\"]\n"
				     "[Format \"ICCS\"]\n"
				     "\n"
				     "{start} 1. h2e2 $1 {good} 1... h9g7 (1... b9c7 {or} 2. h0g2 (2. {pre} b0c2)\n"
				     "2... h9g7) (1... h7e7) 2. h0g2 1-0\n");
	xq_buf_release(&out);
}

static void writer_wraps_lines_at_a_fixed_width(void **state)
{
	struct xq_buf in = XQ_BUF_INIT, out = XQ_BUF_INIT;
	const char *p;

	(void)state;
	xq_buf_adds(&in, "1. h2e2 b9c7 2. h0g2 h7f7 3. g3g4 h9g7 4. b2c2 i9h9 5. b0a2 a9b9 6. a0b0 b7b3 "
			 "7. c3c4 h9h5 8. i0h0 h5d5 9. c2c6 c9e7 10. e2f2 d5d6 (10... d5d4 11. c4c5) "
			 "11. c4c5 b3b2 {a comment long enough to need a line of its own} 12. h0h8 *\n");
	rewrite(in.ptr, in.len, XQ_DIALECT_ICCS, XQI_ENC_UTF8, XQI_ENC_UNKNOWN, &out);
	p = strstr(out.ptr, "\n\n") + 2;
	while (*p) {
		const char *nl = strchr(p, '\n');
		assert_non_null(nl);
		assert_true(nl - p <= XQI_PGN_WIDTH);
		/* A move number is never the last thing on a line. */
		assert_true(nl[-1] != '.');
		p = nl + 1;
	}
	xq_buf_release(&in);
	xq_buf_release(&out);
}

static void writer_gives_the_same_bytes_for_the_same_game(void **state)
{
	const char in[] = "[Event \"a\"]\n1. h2e2 {c} h9g7 (1... b9c7) 2. h0g2 *\n";
	struct xq_buf a = XQ_BUF_INIT, b = XQ_BUF_INIT;

	(void)state;
	rewrite(in, sizeof(in) - 1, XQ_DIALECT_ICCS, XQI_ENC_UTF8, XQI_ENC_UNKNOWN, &a);
	rewrite(a.ptr, a.len, XQ_DIALECT_ICCS, XQI_ENC_UTF8, XQI_ENC_UNKNOWN, &b);
	assert_string_equal(a.ptr, b.ptr);
	xq_buf_reset(&b);
	rewrite(in, sizeof(in) - 1, XQ_DIALECT_ICCS, XQI_ENC_UTF8, XQI_ENC_UNKNOWN, &b);
	assert_string_equal(a.ptr, b.ptr);
	xq_buf_release(&a);
	xq_buf_release(&b);
}

static void writer_separates_games_with_one_blank_line(void **state)
{
	const char in[] = "[Event \"1\"]\n1. h2e2 *\n[Event \"2\"]\n[Result \"*\"]\n\n[Event \"3\"]\n1. b2e2 1-0\n";
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	rewrite(in, sizeof(in) - 1, XQ_DIALECT_ICCS, XQI_ENC_UTF8, XQI_ENC_UNKNOWN, &out);
	assert_string_equal(out.ptr,
			    "[Game \"Chinese Chess\"]\n[Event \"1\"]\n[Result \"*\"]\n[Format \"ICCS\"]\n\n1. h2e2 *\n"
			    "\n"
			    "[Game \"Chinese Chess\"]\n[Event \"2\"]\n[Result \"*\"]\n[Format \"ICCS\"]\n\n*\n"
			    "\n"
			    "[Game \"Chinese Chess\"]\n[Event \"3\"]\n[Result \"1-0\"]\n[Format \"ICCS\"]\n\n1. b2e2 1-0\n");
	xq_buf_release(&out);
}

/* What PGN makes of a game's result, to compare a game with what its
 * PGN reads back as: a Result tag always there (added last when the game
 * had none) as the writer writes it, no result "*". */
static void as_pgn_writes_results(struct xqi_record *g)
{
	assert_int_equal(xqi_record_set_tag(g, "Result", xqi_pgn_result_tag(g)), 0);
	if (g->result == XQI_RESULT_NONE)
		g->result = XQI_RESULT_UNKNOWN;
}

static void round_trip_keeps_the_game_and_the_bytes(void **state)
{
	size_t len;
	char *text = load("gbk-bare-cr-variations.pgn", &len);
	struct xq_buf a = XQ_BUF_INIT, b = XQ_BUF_INIT;
	struct reading r1, r2;
	char why[256];

	(void)state;
	rewrite(text, len, XQ_DIALECT_ICCS, XQI_ENC_UTF8, XQI_ENC_UNKNOWN, &a);
	rewrite(a.ptr, a.len, XQ_DIALECT_ICCS, XQI_ENC_UTF8, XQI_ENC_UNKNOWN, &b);
	assert_string_equal(a.ptr, b.ptr);
	open_mem(&r1, "1", text, len, NULL);
	open_mem(&r2, "2", a.ptr, a.len, NULL);
	assert_int_equal(next_game(&r1), 1);
	assert_int_equal(next_game(&r2), 1);
	/* The writer adds [Game] and [Format], and writes the result as PGN
	 * does; everything else is the same. */
	xqi_record_remove_tag(&r2.g, "Game");
	xqi_record_remove_tag(&r2.g, "Format");
	as_pgn_writes_results(&r1.g);
	if (!xqi_record_equal(&r1.g, &r2.g, 0, why, sizeof(why)))
		fail_msg("%s", why);
	close_reading(&r1);
	close_reading(&r2);
	free(text);
	xq_buf_release(&a);
	xq_buf_release(&b);
}

static void writer_encodes_gbk_and_big5(void **state)
{
	const char in[] = "[Event \"馬\"]\n1. h2e2 {炮} *\n";
	struct xq_buf out = XQ_BUF_INIT, back = XQ_BUF_INIT;

	(void)state;
	rewrite(in, sizeof(in) - 1, XQ_DIALECT_ICCS, XQI_ENC_GBK, XQI_ENC_UNKNOWN, &out);
	assert_non_null(strstr(out.ptr, "[Event \"\xF1\x52\"]"));
	assert_int_equal(xqi_decode(XQI_ENC_GB18030, out.ptr, out.len, &back, NULL), 0);
	assert_non_null(strstr(back.ptr, "{炮}"));
	xq_buf_reset(&out);
	rewrite(in, sizeof(in) - 1, XQ_DIALECT_ICCS, XQI_ENC_BIG5, XQI_ENC_UNKNOWN, &out);
	assert_non_null(strstr(out.ptr, "[Event \"\xB0\xA8\"]"));
	xq_buf_release(&out);
	xq_buf_release(&back);
}

/* The one policy of every writer (format.h, "Encoding"): a character the
 * output encoding cannot hold is written as '?' and the loss reported,
 * with where the first one is. */
static void character_the_target_cannot_hold_is_written_as_a_question_mark_and_reported(
	void **state)
{
	struct reading r;
	struct writing w;
	struct xq_buf out = XQ_BUF_INIT;
	const struct xq_diagnostic *d;

	(void)state;
	/* 马 is simplified: Big5 has no such character. */
	open_str(&r, "[Event \"马 and 马\"]\n1. h2e2 *\n");
	assert_int_equal(next_game(&r), 1);
	open_writer(&w, &out, XQ_DIALECT_ICCS, XQI_ENC_BIG5);
	assert_int_equal(xqi_format_pgn.write(w.wr, &r.g), 0);
	d = find_diag(&w.diags, XQI_D_LOSS);
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_WARNING);
	assert_non_null(strstr(d->msg, "line 2, column 9"));
	assert_non_null(strstr(d->msg, "2 characters cannot be written in big5"));
	assert_non_null(strstr(d->msg, "U+9A6C"));
	close_writer(&w);
	assert_int_equal(xq_buf_addc(&out, 0), 0);
	assert_non_null(strstr(out.ptr, "[Event \"? and ?\"]"));
	close_reading(&r);
	xq_buf_release(&out);
}

static void brace_inside_a_comment_is_a_reported_loss(void **state)
{
	struct xqi_record g;
	struct writing w;
	struct xq_buf out = XQ_BUF_INIT;
	uint32_t n;

	(void)state;
	xqi_record_init(&g);
	xqi_record_add_move(&g, XQI_ROOT, XQI_MOVE(XQI_SQ(7, 2), XQI_SQ(4, 2)), &n);
	xqi_record_set_comment(&g, n, "a } b", 5);
	open_writer(&w, &out, XQ_DIALECT_ICCS, XQI_ENC_UTF8);
	assert_int_equal(xqi_format_pgn.write(w.wr, &g), 0);
	close_writer(&w);
	assert_non_null(strstr(out.ptr, "{a \xEF\xBD\x9D b}"));
	assert_non_null(find_diag(&w.diags, XQI_D_LOSS));
	xqi_record_release(&g);
	xq_buf_release(&out);
}

/* Write `g` alone with the PGN writer (ICCS, UTF-8) into `out`. */
static void write_alone(const struct xqi_record *g, struct xq_buf *out, struct writing *w)
{
	open_writer(w, out, XQ_DIALECT_ICCS, XQI_ENC_UTF8);
	assert_int_equal(xqi_format_pgn.write(w->wr, g), 0);
	close_writer(w);
}

/*
 * Write `g` into `a` (diagnostics in *w), read it back into *r (left open
 * for the caller to look at and close) and check that writing the game
 * read back gives the same bytes.
 */
static void write_read_write(const struct xqi_record *g, struct xq_buf *a, struct writing *w,
			     struct reading *r)
{
	struct writing w2;
	struct xq_buf b = XQ_BUF_INIT;

	write_alone(g, a, w);
	open_mem(r, "back.pgn", a->ptr, a->len, NULL);
	assert_int_equal(next_game(r), 1);
	write_alone(&r->g, &b, &w2);
	assert_string_equal(a->ptr, b.ptr);
	xq_buf_release(&b);
}

static void comment_with_white_space_at_its_ends_is_written_without_it_and_reported(void **state)
{
	struct xqi_record g;
	struct writing w;
	struct xq_buf out = XQ_BUF_INIT;
	struct reading r;
	uint32_t n;
	const struct xq_diagnostic *d;

	(void)state;
	xqi_record_init(&g);
	xqi_record_add_move(&g, XQI_ROOT, XQI_MOVE(XQI_SQ(7, 2), XQI_SQ(4, 2)), &n);
	/* As XQF comments come: indented, or after a line break. */
	xqi_record_set_comment(&g, n, "      （图）", strlen("      （图）"));
	xqi_record_set_comment(&g, XQI_ROOT, "\n邀兑活马  ", strlen("\n邀兑活马  "));
	write_read_write(&g, &out, &w, &r);
	assert_non_null(strstr(out.ptr, "{邀兑活马}"));
	assert_non_null(strstr(out.ptr, "h2e2 {（图）}"));
	d = find_diag(&w.diags, XQI_D_LOSS);
	assert_non_null(d);
	assert_non_null(strstr(d->msg, "white space"));
	/* What was written is what reads back. */
	assert_string_equal(r.g.nodes[XQI_ROOT].comment, "邀兑活马");
	assert_string_equal(ply_node(&r.g, 1)->comment, "（图）");
	close_reading(&r);
	xqi_record_release(&g);
	xq_buf_release(&out);
}

static void game_read_back_writes_the_same_bytes_again_when_comments_had_white_space(void **state)
{
	struct xqi_record g;
	struct writing w;
	struct xq_buf a = XQ_BUF_INIT;
	struct reading r;
	uint32_t n;

	(void)state;
	/* Game 3958 of the corpus run: a tag with line breaks (a reported
	 * loss, so --verify does not compare comments) and a game comment
	 * indented by spaces; the second writing differed at that comment. */
	xqi_record_init(&g);
	xqi_record_add_tag(&g, "LibraryRemark", 13, "a\r\nb", 4);
	xqi_record_set_comment(&g, XQI_ROOT, "      “龙化杯”", strlen("      “龙化杯”"));
	xqi_record_add_move(&g, XQI_ROOT, XQI_MOVE(XQI_SQ(7, 2), XQI_SQ(4, 2)), &n);
	xqi_record_set_comment(&g, n, "  x\n  y  ", 10);
	write_read_write(&g, &a, &w, &r);
	/* Inside a comment the white space is kept as it was. */
	assert_string_equal(ply_node(&r.g, 1)->comment, "x\n  y");
	close_reading(&r);
	xqi_record_release(&g);
	xq_buf_release(&a);
}

static void comment_of_only_white_space_is_left_out_with_its_move_number(void **state)
{
	struct xqi_record g;
	struct writing w;
	struct xq_buf a = XQ_BUF_INIT;
	struct reading r;
	uint32_t n1, n2;

	(void)state;
	xqi_record_init(&g);
	xqi_record_add_move(&g, XQI_ROOT, XQI_MOVE(XQI_SQ(7, 2), XQI_SQ(4, 2)), &n1);
	xqi_record_add_move(&g, n1, XQI_MOVE(XQI_SQ(7, 9), XQI_SQ(6, 7)), &n2);
	xqi_record_set_comment(&g, n1, " \n ", 3);
	xqi_record_set_pre_comment(&g, n2, "  ", 2);
	write_read_write(&g, &a, &w, &r);
	assert_non_null(strstr(a.ptr, "1. h2e2 h9g7 *\n"));
	assert_non_null(find_diag(&w.diags, XQI_D_LOSS));
	close_reading(&r);
	xqi_record_release(&g);
	xq_buf_release(&a);
}

static void carriage_return_in_a_comment_is_written_as_a_line_feed(void **state)
{
	struct xqi_record g;
	struct writing w;
	struct xq_buf a = XQ_BUF_INIT;
	struct reading r;
	uint32_t n;

	(void)state;
	xqi_record_init(&g);
	xqi_record_add_move(&g, XQI_ROOT, XQI_MOVE(XQI_SQ(7, 2), XQI_SQ(4, 2)), &n);
	xqi_record_set_comment(&g, n, "a\r\nb\rc", 6);
	write_read_write(&g, &a, &w, &r);
	assert_non_null(strstr(a.ptr, "{a\nb\nc}"));
	assert_non_null(find_diag(&w.diags, XQI_D_LOSS));
	assert_string_equal(ply_node(&r.g, 1)->comment, "a\nb\nc");
	close_reading(&r);
	xqi_record_release(&g);
	xq_buf_release(&a);
}

static void comment_before_the_game_joins_the_game_comment_with_a_loss(void **state)
{
	struct xqi_record g;
	struct writing w;
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	xqi_record_init(&g);
	xqi_record_set_pre_comment(&g, XQI_ROOT, "before", 6);
	xqi_record_set_comment(&g, XQI_ROOT, "game", 4);
	open_writer(&w, &out, XQ_DIALECT_ICCS, XQI_ENC_UTF8);
	assert_int_equal(xqi_format_pgn.write(w.wr, &g), 0);
	close_writer(&w);
	assert_non_null(strstr(out.ptr, "\n\n{before} {game} *\n"));
	assert_non_null(find_diag(&w.diags, XQI_D_LOSS));
	xqi_record_release(&g);
	xq_buf_release(&out);
}

static void writer_refuses_what_pgn_cannot_be_written_in(void **state)
{
	struct xq_file *o;
	struct xq_buf out = XQ_BUF_INIT;
	struct xqi_write_opts opts = XQI_WRITE_OPTS_INIT;
	void *wr;

	(void)state;
	assert_int_equal(xqi_file_open_mem(&o, &out), 0);
	opts.notation = XQ_DIALECT_SAN;
	assert_int_equal(xqi_format_pgn.open_writer(&wr, o, &opts, NULL), XQ_EUNSUPPORTED);
	opts.notation = XQ_DIALECT_ICCS;
	opts.encoding = XQI_ENC_UTF16LE;
	assert_int_equal(xqi_format_pgn.open_writer(&wr, o, &opts, NULL), XQ_EUNSUPPORTED);
	xqi_file_abort(o);
	xq_buf_release(&out);
}


/* ---- real-world files, one quirk each ------------------------------------- */

static void xqbase_gb2312_crlf_file_with_junk_after_the_result(void **state)
{
	struct reading r;
	const struct xq_diagnostic *d;

	(void)state;
	open_fixture(&r, "gb2312-crlf.pgn", NULL);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(r.g.encoding, "gb18030");
	assert_string_equal(r.g.tags[0].name, "Game");
	assert_string_equal(xqi_record_tag(&r.g, "Red"), "宝岛一号");
	assert_string_equal(mainline(&r.g), "b2e2 b9c7 b0c2 a9b9 a0b0 h9g7");
	assert_string_equal(ply_node(&r.g, 2)->text, "马２进３");
	assert_int_equal(r.g.result, XQI_RESULT_BLACK_WIN);
	d = find_diag(&r, XQI_D_TRAILING);
	assert_non_null(d);
	assert_int_equal(d->place.line, 15);
	assert_int_equal(count_sev(&r, XQ_SEVERITY_ERROR), 0);
	assert_int_equal(next_game(&r), 0);
	close_reading(&r);
}

static void big5_traditional_file_where_black_moves_first_after_1(void **state)
{
	struct reading r;

	(void)state;
	open_fixture(&r, "big5-black-first.pgn", NULL);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(r.g.encoding, "big5");
	assert_string_equal(xqi_record_tag(&r.g, "Event"), "實戰殺局88");
	assert_int_equal(r.g.start.side, XQI_BLACK);
	assert_int_equal(xqi_record_mainline_length(&r.g), 5);
	assert_string_equal(ply_node(&r.g, 1)->text, "車１平５");
	assert_string_equal(ply_node(&r.g, 2)->text, "仕六進五");
	assert_int_equal(r.g.result, XQI_RESULT_BLACK_WIN);
	assert_int_equal(r.nd, 0);
	close_reading(&r);
}

static void wxf_in_full_width_letters(void **state)
{
	struct reading r;

	(void)state;
	open_fixture(&r, "wxf-fullwidth.pgn", NULL);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(r.g.encoding, "utf-8");
	assert_string_equal(mainline(&r.g), "h2e2 h9g7 h0g2 b9c7 i0h0 i9h9");
	assert_string_equal(ply_node(&r.g, 1)->text, "Ｃ２＝５");
	assert_int_equal(count_sev(&r, XQ_SEVERITY_ERROR), 0);
	close_reading(&r);
}

static void xboard_san_with_engine_comments(void **state)
{
	struct reading r;

	(void)state;
	open_fixture(&r, "xboard-san.pgn", NULL);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(xqi_record_tag(&r.g, "Variant"), "xiangqi");
	assert_int_equal(xqi_record_mainline_length(&r.g), 8);
	assert_string_equal(mainline(&r.g), "h2e2 b7g7 e2e6 g7g3 b2e2 h7h3 e6e4 h3e3");
	assert_string_equal(ply_node(&r.g, 8)->comment, "-4,13/8 3 Xboard adjudication: resignation");
	assert_int_equal(r.g.result, XQI_RESULT_RED_WIN);
	assert_int_equal(r.nd, 0);
	close_reading(&r);
}

static void move_list_without_tags_and_with_ascii_black_files(void **state)
{
	struct reading r;

	(void)state;
	open_fixture(&r, "no-tags-gmchess.pgn", NULL);
	assert_int_equal(next_game(&r), 1);
	assert_int_equal(r.g.ntags, 0);
	assert_string_equal(mainline(&r.g), "h2g2 b9c7 g0e2 h9g7 h0i2 a9a8");
	assert_int_equal(r.g.result, XQI_RESULT_NONE);
	assert_non_null(find_diag(&r, XQI_D_NO_RESULT));
	assert_int_equal(count_sev(&r, XQ_SEVERITY_ERROR), 0);
	close_reading(&r);
}

static void notation_is_found_per_game(void **state)
{
	struct reading r;

	(void)state;
	open_str(&r, "[Event \"a\"]\n1. 炮二平五 马８进７ *\n\n[Event \"b\"]\n1. C2.5 H8+7 *\n\n"
		     "[Event \"c\"]\n1. h2e2 h9g7 *\n\n[Event \"d\"]\n[Format \"WXF\"]\n1. h2e2 *\n");
	for (int i = 0; i < 3; i++) {
		assert_int_equal(next_game(&r), 1);
		assert_string_equal(mainline(&r.g), "h2e2 h9g7");
	}
	assert_int_equal(next_game(&r), 1);
	/* The Format tag is only checked: a note says it is wrong. */
	assert_string_equal(mainline(&r.g), "h2e2");
	assert_int_equal(find_diag(&r, XQI_D_BAD_TAG)->severity, XQ_SEVERITY_NOTE);
	assert_int_equal(count_sev(&r, XQ_SEVERITY_ERROR), 0);
	close_reading(&r);
}

static void coordinates_count_ranks_as_the_options_say(void **state)
{
	struct reading r;
	struct xqi_read_opts o = XQI_READ_OPTS_INIT;
	const struct xq_diagnostic *d;
	const char text[] = "1. h3e3 h10g8 2. h1g3 *\n";

	(void)state;
	o.uci_ranks = 1;
	open_mem(&r, "u.pgn", text, sizeof(text) - 1, &o);
	assert_int_equal(next_game(&r), 1);
	assert_string_equal(mainline(&r.g), "h2e2 h9g7 h0g2");
	close_reading(&r);
	/* Read with ranks 0-9, a first move can be legal one rank off: rank 10
	 * then gives it away, and is an error that says how to read it. */
	open_str(&r, "[FEN \"4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1\"]\n1. a1a2 e10e9 *\n");
	assert_int_equal(next_game(&r), 1);
	assert_true(r.g.flags & XQI_RECORD_BROKEN);
	d = find_diag(&r, XQI_D_BAD_MOVE_TEXT);
	assert_non_null(d);
	assert_string_equal(d->move, "e10e9");
	assert_non_null(strstr(d->msg, "ranks 1-10"));
	close_reading(&r);
}

/* PGN needs a Result tag and a result at the end of the moves: a game
 * with none gets "*" for both, a result in words its standard one, and a
 * word that says no result PGN knows "*", reported. */
static void every_game_is_written_with_a_result_tag_and_a_result_at_its_end(void **state)
{
	const char in[] = "[Event \"none\"]\n\n1. h2e2 h9g7\n\n"
			  "[Event \"word\"]\n[Result \"红胜\"]\n\n1. h2e2 h9g7\n\n"
			  "[Event \"terminator word\"]\n\n1. h2e2 h9g7 和棋\n";
	struct xq_buf out = XQ_BUF_INIT;
	struct reading r;
	struct writing w;

	(void)state;
	rewrite(in, sizeof(in) - 1, XQ_DIALECT_ICCS, XQI_ENC_UTF8, XQI_ENC_UNKNOWN, &out);
	assert_string_equal(out.ptr,
			    "[Game \"Chinese Chess\"]\n[Event \"none\"]\n[Result \"*\"]\n[Format \"ICCS\"]\n\n"
			    "1. h2e2 h9g7 *\n\n"
			    "[Game \"Chinese Chess\"]\n[Event \"word\"]\n[Result \"1-0\"]\n[Format \"ICCS\"]\n\n"
			    "1. h2e2 h9g7 1-0\n\n"
			    "[Game \"Chinese Chess\"]\n[Event \"terminator word\"]\n[Result \"1/2-1/2\"]\n"
			    "[Format \"ICCS\"]\n\n1. h2e2 h9g7 1/2-1/2\n");
	xq_buf_reset(&out);
	open_str(&r, "[Result \"V\"]\n1. h2e2 *\n");
	assert_int_equal(next_game(&r), 1);
	open_writer(&w, &out, XQ_DIALECT_ICCS, XQI_ENC_UTF8);
	assert_int_equal(xqi_format_pgn.write(w.wr, &r.g), 0);
	close_writer(&w);
	assert_non_null(strstr(out.ptr, "[Result \"*\"]\n"));
	assert_non_null(find_diag(&w.diags, XQI_D_LOSS));
	close_reading(&r);
	xq_buf_release(&out);
}

/* Chinese move text goes out in the script its source wrote it in (車
 * 馬 進, 俥 傌 too), unless a notation is asked for. */
static void chinese_moves_keep_the_script_of_their_source(void **state)
{
	const char trad[] = "1. 炮二平五 馬８進７ 2. 傌二進三 車９平８ 3. 俥一平二 *\n";
	const char simp[] = "1. 炮二平五 马８进７ *\n";
	const char none[] = "1. 炮二平五 炮８平５ *\n";
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	rewrite(trad, sizeof(trad) - 1, XQ_DIALECT_AUTO, XQI_ENC_UTF8, XQI_ENC_UNKNOWN, &out);
	assert_non_null(strstr(out.ptr, "1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ 3. 車一平二 *\n"));
	xq_buf_reset(&out);
	rewrite(trad, sizeof(trad) - 1, XQ_DIALECT_CHINESE, XQI_ENC_UTF8, XQI_ENC_UNKNOWN, &out);
	assert_non_null(strstr(out.ptr, "1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 *\n"));
	xq_buf_reset(&out);
	rewrite(simp, sizeof(simp) - 1, XQ_DIALECT_AUTO, XQI_ENC_UTF8, XQI_ENC_UNKNOWN, &out);
	assert_non_null(strstr(out.ptr, "1. 炮二平五 马８进７ *\n"));
	xq_buf_reset(&out);
	/* Nothing tells the scripts apart: simplified. */
	rewrite(none, sizeof(none) - 1, XQ_DIALECT_AUTO, XQI_ENC_UTF8, XQI_ENC_UNKNOWN, &out);
	assert_non_null(strstr(out.ptr, "1. 炮二平五 炮８平５ *\n"));
	xq_buf_release(&out);
}

static void writer_writes_chinese_by_default_and_traditional_in_big5(void **state)
{
	const char in[] = "[Event \"e\"]\n1. h2e2 h9g7 2. h0g2 *\n";
	struct xq_buf out = XQ_BUF_INIT, back = XQ_BUF_INIT;

	(void)state;
	rewrite(in, sizeof(in) - 1, XQ_DIALECT_AUTO, XQI_ENC_UTF8, XQI_ENC_UNKNOWN, &out);
	assert_string_equal(out.ptr, "[Game \"Chinese Chess\"]\n[Event \"e\"]\n[Result \"*\"]\n\n"
				     "1. 炮二平五 马８进７ 2. 马二进三 *\n");
	xq_buf_reset(&out);
	rewrite(in, sizeof(in) - 1, XQ_DIALECT_WXF, XQI_ENC_UTF8, XQI_ENC_UNKNOWN, &out);
	assert_non_null(strstr(out.ptr, "[Format \"WXF\"]\n\n1. C2.5 H8+7 2. H2+3 *\n"));
	xq_buf_reset(&out);
	rewrite(in, sizeof(in) - 1, XQ_DIALECT_CHINESE, XQI_ENC_BIG5, XQI_ENC_UNKNOWN, &out);
	assert_int_equal(xqi_decode(XQI_ENC_BIG5, out.ptr, out.len, &back, NULL), 0);
	assert_non_null(strstr(back.ptr, "1. 炮二平五 馬８進７ 2. 馬二進三 *"));
	xq_buf_release(&out);
	xq_buf_release(&back);
}

static void round_trip_in_every_notation_and_encoding(void **state)
{
	static const char *const fixtures[] = {"gb2312-crlf.pgn", "big5-black-first.pgn",
					       "gbk-bare-cr-variations.pgn", "wxf-fullwidth.pgn",
					       "xboard-san.pgn", "no-tags-gmchess.pgn"};
	static const int notations[] = {XQ_DIALECT_CHINESE, XQ_DIALECT_ICCS, XQ_DIALECT_WXF};
	static const enum xqi_encoding encs[] = {XQI_ENC_UTF8, XQI_ENC_GBK, XQI_ENC_BIG5};

	(void)state;
	for (size_t f = 0; f < sizeof(fixtures) / sizeof(fixtures[0]); f++) {
		size_t len;
		char *text = load(fixtures[f], &len);
		for (size_t n = 0; n < 3; n++) {
			for (size_t e = 0; e < 3; e++) {
				struct xq_buf a = XQ_BUF_INIT, b = XQ_BUF_INIT;
				struct reading r1, r2;
				char why[256];
				/* Simplified text cannot go to Big5: only the Big5 file does. */
				if (encs[e] == XQI_ENC_BIG5 && f != 1)
					continue;
				rewrite(text, len, notations[n], encs[e], XQI_ENC_UNKNOWN, &a);
				rewrite(a.ptr, a.len, notations[n], encs[e], encs[e], &b);
				if (a.len != b.len || memcmp(a.ptr, b.ptr, a.len))
					fail_msg("%s in %s/%s: written twice, not the same bytes", fixtures[f],
						 xqi_notation_name(notations[n]), xqi_encoding_name(encs[e]));
				open_mem(&r1, "1", text, len, NULL);
				open_mem(&r2, "2", a.ptr, a.len, NULL);
				assert_int_equal(next_game(&r1), 1);
				assert_int_equal(next_game(&r2), 1);
				xqi_record_remove_tag(&r1.g, "Game");
				xqi_record_remove_tag(&r2.g, "Game");
				xqi_record_remove_tag(&r1.g, "Format");
				xqi_record_remove_tag(&r2.g, "Format");
				xqi_record_remove_tag(&r1.g, "FEN");
				xqi_record_remove_tag(&r2.g, "FEN");
				as_pgn_writes_results(&r1.g);
				if (!xqi_record_equal(&r1.g, &r2.g, 0, why, sizeof(why)))
					fail_msg("%s in %s/%s: %s", fixtures[f], xqi_notation_name(notations[n]),
						 xqi_encoding_name(encs[e]), why);
				close_reading(&r1);
				close_reading(&r2);
				xq_buf_release(&a);
				xq_buf_release(&b);
			}
		}
		free(text);
	}
}

/* ---- the shared corpus ------------------------------------------------------ */

#define MAXFILES 4096

struct corpus {
	char *paths[MAXFILES]; /* relative to corpus/pgn */
	int n;
};

static void corpus_free(struct corpus *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->paths[i]);
	c->n = 0;
}

static void read_lines(const char *path, struct corpus *out)
{
	FILE *f = fopen(path, "r");
	char line[2048];

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] && line[0] != '#' && out->n < MAXFILES)
			out->paths[out->n++] = strdup(line);
	}
	fclose(f);
}

static void corpus_files_taken_as_pgn_are_exactly_the_listed_ones_and_detected_so(void **state)
{
	const char *dir = test_shared_dir();
	char manifest[4600], line[4096];
	struct corpus listed = {{0}, 0}, found = {{0}, 0};
	FILE *f;

	(void)state;
	SKIP_WITHOUT_SHARED(dir);
	snprintf(manifest, sizeof(manifest), "%s/corpus/pgn/MANIFEST.tsv", dir);
	f = fopen(manifest, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f)); /* header */
	while (fgets(line, sizeof(line), f)) {
		/* repo, commit, path, ...: the file is <owner>__<name>/<path>. */
		char *repo = line, *commit = strchr(repo, '\t'), *path, *end, *slash, rel[2048],
		     full[8192];
		const char *guess, *want;
		struct xqi_input *in;
		struct xq_diagnostic d;
		const unsigned char *head;
		size_t hlen;
		assert_non_null(commit);
		path = strchr(commit + 1, '\t');
		assert_non_null(path);
		path++;
		end = strchr(path, '\t');
		assert_non_null(end);
		*end = '\0';
		/* (size, then the manifest's guess of the format) */
		guess = strchr(end + 1, '\t');
		guess = guess ? guess + 1 : "";
		slash = strchr(repo, '/');
		assert_true(slash && slash < commit);
		snprintf(rel, sizeof(rel), "%.*s__%.*s/%s", (int)(slash - repo), repo,
			 (int)(commit - slash - 1), slash + 1, path);
		snprintf(full, sizeof(full), "%s/corpus/pgn/%s", dir, rel);
		xqi_diagnostic_init(&d);
		assert_int_equal(xqi_input_open(&in, full, &d), 0);
		assert_int_equal(xqi_input_peek(in, &head, &hlen, &d), 0);
		if (xqi_format_pgn.probe(head, hlen) > 0 && found.n < MAXFILES) {
			found.paths[found.n++] = strdup(rel);
			/* No other format's probe claims it more strongly, but for
			 * the lists of positions the FEN list format reads
			 * (formats/fenlist.c), which PGN's probe takes too. */
			want = !strncmp(guess, "FEN list", 8) || !strncmp(guess, "XFEN list", 9) ? "fen"
												   : "pgn";
			if (!xqi_format_detect(head, hlen, full) ||
			    strcmp(xqi_format_detect(head, hlen, full)->name, want))
				fail_msg("%s: the registry picks %s, not %s", rel,
					 xqi_format_detect(head, hlen, full)
						 ? xqi_format_detect(head, hlen, full)->name
						 : "nothing",
					 want);
		}
		xqi_input_close(in);
	}
	fclose(f);
	read_lines("tests/data/pgn/corpus-pgn.txt", &listed);
	for (int i = 0; i < found.n || i < listed.n; i++) {
		if (i >= found.n || i >= listed.n || strcmp(found.paths[i], listed.paths[i]))
			fail_msg("corpus-pgn.txt line %d: the probe takes '%s', the list says '%s'", i + 1,
				 i < found.n ? found.paths[i] : "(nothing more)",
				 i < listed.n ? listed.paths[i] : "(nothing more)");
	}
	fprintf(stderr, "corpus: %d of the manifest's files are taken as PGN\n", found.n);
	corpus_free(&listed);
	corpus_free(&found);
}

struct file_result {
	unsigned long games, plies, notes, warnings, errors, losses;
	struct xq_diagnostic first_error;
};

static void tally(const struct xq_diagnostic *d, void *p)
{
	struct file_result *fr = p;

	if (d->severity == XQ_SEVERITY_ERROR) {
		if (fr->errors++ == 0)
			fr->first_error = *d;
	} else if (d->severity == XQ_SEVERITY_WARNING) {
		fr->warnings++;
	} else {
		fr->notes++;
	}
	if (d->code == XQI_D_LOSS)
		fr->losses++;
}

/* Read a whole file; with `notation` > 0 also round-trip each game. */
static void read_corpus_file(const char *path, struct file_result *fr, int notation,
			     enum xqi_encoding enc, unsigned long *round_trips)
{
	struct xqi_input *in;
	struct xq_diagnostic d;
	struct xqi_sink sink = {tally, fr};
	struct xqi_record g;
	void *rd;
	int rc;

	memset(fr, 0, sizeof(*fr));
	xqi_diagnostic_init(&d);
	assert_int_equal(xqi_input_open(&in, path, &d), 0);
	assert_int_equal(xqi_format_pgn.open_reader(&rd, in, NULL, &sink), 0);
	xqi_record_init(&g);
	while ((rc = xqi_format_pgn.read(rd, &g)) > 0) {
		fr->games++;
		fr->plies += g.nnodes - 1;
		if (notation && !(g.flags & XQI_RECORD_BROKEN)) {
			struct xq_buf a = XQ_BUF_INIT, b = XQ_BUF_INIT;
			struct reading r2;
			struct writing w;
			char why[256];
			int wrc;
			if (enc == XQI_ENC_BIG5 && strcmp(g.encoding, "big5"))
				continue;
			open_writer(&w, &a, notation, enc);
			wrc = xqi_format_pgn.write(w.wr, &g);
			close_writer(&w);
			if (wrc == XQ_EENCODING || find_diag(&w.diags, XQI_D_LOSS)) {
				/* Reported: a character the target cannot hold, or a loss. */
				xq_buf_release(&a);
				continue;
			}
			assert_int_equal(wrc, 0);
			{
				struct xqi_read_opts ro = XQI_READ_OPTS_INIT;
				ro.encoding = enc;
				open_mem(&r2, "again", a.ptr, a.len, &ro);
			}
			assert_int_equal(next_game(&r2), 1);
			if (r2.g.flags & XQI_RECORD_BROKEN)
				fail_msg("%s game %llu in %s: what the writer wrote does not read back: %s",
					 path, (unsigned long long)g.number, xqi_notation_name(notation),
					 r2.d[0].msg);
			open_writer(&w, &b, notation, enc);
			assert_int_equal(xqi_format_pgn.write(w.wr, &r2.g), 0);
			close_writer(&w);
			if (a.len != b.len || memcmp(a.ptr, b.ptr, a.len))
				fail_msg("%s game %llu in %s: written twice, not the same bytes", path,
					 (unsigned long long)g.number, xqi_notation_name(notation));
			xqi_record_remove_tag(&g, "Game");
			xqi_record_remove_tag(&r2.g, "Game");
			xqi_record_remove_tag(&g, "Format");
			xqi_record_remove_tag(&r2.g, "Format");
			xqi_record_remove_tag(&g, "FEN");
			xqi_record_remove_tag(&r2.g, "FEN");
			as_pgn_writes_results(&g);
			if (!xqi_record_equal(&g, &r2.g, 0, why, sizeof(why)))
				fail_msg("%s game %llu in %s: read back, not the same game: %s", path,
					 (unsigned long long)g.number, xqi_notation_name(notation), why);
			(*round_trips)++;
			close_reading(&r2);
			xq_buf_release(&a);
			xq_buf_release(&b);
		}
	}
	assert_int_equal(rc, 0);
	xqi_format_pgn.close_reader(rd);
	xqi_input_close(in);
	xqi_record_release(&g);
}

static void every_corpus_record_reads_and_only_the_listed_ones_fail(void **state)
{
	const char *dir = test_shared_dir();
	struct corpus files = {{0}, 0}, broken = {{0}, 0};
	int seen[MAXFILES] = {0};
	unsigned long games = 0, plies = 0, notes = 0, warnings = 0;

	(void)state;
	SKIP_WITHOUT_SHARED(dir);
	read_lines("tests/data/pgn/corpus-pgn.txt", &files);
	read_lines("tests/data/pgn-broken.tsv", &broken);
	for (int i = 0; i < files.n; i++) {
		char full[8192];
		struct file_result fr;
		int k = -1;
		snprintf(full, sizeof(full), "%s/corpus/pgn/%s", dir, files.paths[i]);
		read_corpus_file(full, &fr, 0, XQI_ENC_UNKNOWN, NULL);
		games += fr.games;
		plies += fr.plies;
		notes += fr.notes;
		warnings += fr.warnings;
		for (int b = 1; b < broken.n; b++) /* [0] is the header */
			if (!strncmp(broken.paths[b], files.paths[i], strlen(files.paths[i])) &&
			    broken.paths[b][strlen(files.paths[i])] == '\t')
				k = b;
		if (k < 0) {
			if (fr.errors)
				fail_msg("%s:%llu:%llu: %s: %s (not in pgn-broken.tsv)", files.paths[i],
					 (unsigned long long)fr.first_error.place.line,
					 (unsigned long long)fr.first_error.place.col,
					 xqi_diagnostic_code_name(fr.first_error.code), fr.first_error.msg);
			continue;
		}
		{
			char expect[256], got[256];
			const char *rest = broken.paths[k] + strlen(files.paths[i]) + 1;
			size_t n = strcspn(rest, "\t");
			/* game, line, column, code */
			for (int field = 1; field < 4; field++)
				n += 1 + strcspn(rest + n + 1, "\t");
			snprintf(expect, sizeof(expect), "%.*s", (int)n, rest);
			snprintf(got, sizeof(got), "%llu\t%llu\t%llu\t%s",
				 (unsigned long long)fr.first_error.game,
				 (unsigned long long)fr.first_error.place.line,
				 (unsigned long long)fr.first_error.place.col,
				 xqi_diagnostic_code_name(fr.first_error.code));
			if (!fr.errors)
				fail_msg("%s reads with no error, but pgn-broken.tsv lists it", files.paths[i]);
			if (strcmp(expect, got))
				fail_msg("%s: expected the first error at '%s', got '%s' (%s)", files.paths[i],
					 expect, got, fr.first_error.msg);
			seen[k] = 1;
		}
	}
	for (int b = 1; b < broken.n; b++)
		if (!seen[b])
			fail_msg("pgn-broken.tsv line for a file not in the corpus list: %s", broken.paths[b]);
	fprintf(stderr, "corpus: %d files, %lu games, %lu plies read; %d broken as listed; "
			"%lu warnings, %lu notes\n",
		files.n, games, plies, broken.n - 1, warnings, notes);
	corpus_free(&files);
	corpus_free(&broken);
}

static void corpus_games_round_trip_in_every_notation(void **state)
{
	static const int notations[] = {XQ_DIALECT_CHINESE, XQ_DIALECT_ICCS, XQ_DIALECT_WXF};
	static const enum xqi_encoding encs[] = {XQI_ENC_UTF8, XQI_ENC_GBK, XQI_ENC_BIG5};
	const char *dir = test_shared_dir();
	struct corpus files = {{0}, 0};
	unsigned long trips[3][3] = {{0}};

	(void)state;
	SKIP_WITHOUT_SHARED(dir);
	read_lines("tests/data/pgn/corpus-pgn.txt", &files);
	for (int i = 0; i < files.n; i++) {
		char full[8192];
		snprintf(full, sizeof(full), "%s/corpus/pgn/%s", dir, files.paths[i]);
		for (int n = 0; n < 3; n++)
			for (int e = 0; e < 3; e++) {
				struct file_result fr;
				/* Every notation in UTF-8; the legacy encodings in Chinese. */
				if (e > 0 && n > 0)
					continue;
				read_corpus_file(full, &fr, notations[n], encs[e], &trips[n][e]);
			}
	}
	fprintf(stderr, "corpus round trips: chinese %lu (gbk %lu, big5 %lu), iccs %lu, wxf %lu games\n",
		trips[0][0], trips[0][1], trips[0][2], trips[1][0], trips[2][0]);
	assert_true(trips[0][0] > 3000 && trips[1][0] == trips[0][0] && trips[2][0] == trips[0][0]);
	assert_true(trips[0][2] > 900);
	corpus_free(&files);
}

/* ---- probe ------------------------------------------------------------------ */

static int probe(const char *s)
{
	return xqi_format_pgn.probe((const unsigned char *)s, strlen(s));
}

static void probe_knows_pgn_by_content(void **state)
{
	(void)state;
	assert_int_equal(probe("[Game \"Chinese Chess\"]\n[Event \"x\"]\n"), 100);
	assert_int_equal(probe("[Event \"x\"]\n[Variant \"xiangqi\"]\n"), 95);
	assert_true(probe("\xEF\xBB\xBF[Event \"x\"]\n") > 0);
	assert_true(probe("  1. h2e2 h9g7\n") > 0);
	assert_true(probe("{comment} 1. h2e2\n") > 0);
	assert_true(probe("h2e2 h9g7 h0g2\n") > 0);
	assert_int_equal(probe("[DhtmlXQ]\n[DhtmlXQ_title]x[/DhtmlXQ_title]\n"), 0);
	assert_int_equal(probe("<?xml version=\"1.0\"?>\n"), 0);
	assert_int_equal(probe("标题：五七炮对屏风马\n"), 0);
	assert_int_equal(probe("XQ\x0a\x00\x00"), 0);
	assert_int_equal(probe(""), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_several_games_in_order_with_numbers_and_places),
		cmocka_unit_test(comments_after_one_move_take_memory_in_proportion_to_their_text),
		cmocka_unit_test(blank_text_of_more_than_16_mib_ends_the_reading_with_its_place),
		cmocka_unit_test(text_skipped_after_an_error_ends_the_reading_at_the_skip_limit),
		cmocka_unit_test(every_move_keeps_its_text_and_place),
		cmocka_unit_test(move_numbers_glued_to_their_moves_read_as_numbers_then_moves),
		cmocka_unit_test(empty_input_has_no_games),
		cmocka_unit_test(gzip_input_is_found_by_content),
		cmocka_unit_test(dash_reads_standard_input),
		cmocka_unit_test(utf8_bom_is_skipped_and_columns_start_after_it),
		cmocka_unit_test(gbk_tags_and_comments_decode_and_offsets_count_source_bytes),
		cmocka_unit_test(offsets_in_converted_text_are_source_byte_offsets),
		cmocka_unit_test(four_byte_gb18030_characters_keep_offsets_right),
		cmocka_unit_test(utf16_with_a_bom_reads_with_byte_offsets),
		cmocka_unit_test(big5_is_told_from_gbk_by_content),
		cmocka_unit_test(forced_encoding_overrides_detection),
		cmocka_unit_test(undecodable_byte_in_a_comment_is_replaced_and_warned_about_at_its_offset),
		cmocka_unit_test(undecodable_gbk_byte_reports_its_source_offset),
		cmocka_unit_test(nul_byte_in_a_comment_is_replaced_as_no_text),
		cmocka_unit_test(undecodable_byte_in_a_move_breaks_the_game_after_the_moves_before_it),
		cmocka_unit_test(stray_byte_in_one_game_leaves_the_utf8_of_the_others_alone),
		cmocka_unit_test(gbk_game_in_a_utf8_file_is_read_as_gbk_with_one_warning),
		cmocka_unit_test(utf8_game_in_a_gbk_file_is_read_as_utf8_with_one_warning),
		cmocka_unit_test(big5_game_in_a_utf8_file_is_read_as_big5),
		cmocka_unit_test(appended_utf8_file_after_gbk_is_read_as_utf8_and_its_bom_is_a_space),
		cmocka_unit_test(given_encoding_reads_every_line_in_it_and_reports_the_rest),
		cmocka_unit_test(crlf_lf_and_bare_cr_all_end_lines),
		cmocka_unit_test(ideographic_space_separates_moves),
		cmocka_unit_test(tags_keep_order_any_name_and_empty_values),
		cmocka_unit_test(several_tags_on_one_line),
		cmocka_unit_test(unescaped_quote_in_a_tag_value_is_kept_with_a_warning),
		cmocka_unit_test(tag_value_over_a_line_end_is_read_whole),
		cmocka_unit_test(unquoted_tag_value_is_read_with_a_warning),
		cmocka_unit_test(tag_line_with_no_name_is_an_error),
		cmocka_unit_test(xboard_header_with_white_and_variant),
		cmocka_unit_test(fen_tag_sets_the_start_and_stays_in_place),
		cmocka_unit_test(rejected_fen_is_written_back_as_the_source_gave_it),
		cmocka_unit_test(writers_without_fen_text_refuse_a_start_that_could_not_be_read),
		cmocka_unit_test(each_tag_keeps_its_line_column_and_offset),
		cmocka_unit_test(composed_position_is_accepted_with_a_note),
		cmocka_unit_test(rejected_fen_is_an_error_with_its_column_in_the_tag),
		cmocka_unit_test(wrong_side_in_fen_is_read_the_other_way_with_a_warning),
		cmocka_unit_test(an_alternative_to_the_first_move_never_turns_the_start_around),
		cmocka_unit_test(malformed_fen_fields_keep_the_board_and_the_first_move_decides),
		cmocka_unit_test(move_numbers_with_and_without_ellipsis_and_space),
		cmocka_unit_test(black_first_game_with_no_ellipsis),
		cmocka_unit_test(comments_in_braces_and_after_semicolons),
		cmocka_unit_test(comment_between_number_and_move_comes_before_the_move),
		cmocka_unit_test(nested_variations_replace_the_move_before_them),
		cmocka_unit_test(illegal_move_in_a_variation_cuts_that_variation_only),
		cmocka_unit_test(illegal_move_on_the_main_line_still_breaks_the_game),
		cmocka_unit_test(variations_with_captures_step_back_to_the_position_before_them),
		cmocka_unit_test(comment_at_the_start_of_a_variation_comes_before_its_move),
		cmocka_unit_test(deep_nesting_needs_no_recursion),
		cmocka_unit_test(nags_numeric_symbolic_and_glued),
		cmocka_unit_test(check_marks_are_not_part_of_the_move),
		cmocka_unit_test(every_result_token),
		cmocka_unit_test(result_tag_in_words_is_read_as_the_result_it_says),
		cmocka_unit_test(missing_result_is_a_note_and_the_tag_is_used),
		cmocka_unit_test(result_tag_that_disagrees_is_bad_result),
		cmocka_unit_test(junk_after_the_result_is_reported_and_skipped),
		cmocka_unit_test(games_without_tags_are_split_at_results),
		cmocka_unit_test(a_tag_line_after_moves_starts_the_next_game),
		cmocka_unit_test(a_game_tag_among_sorted_tags_does_not_split_the_game),
		cmocka_unit_test(a_game_tag_after_tags_starts_the_next_game),
		cmocka_unit_test(empty_game_is_a_note),
		cmocka_unit_test(fen_line_before_a_bare_move_list),
		cmocka_unit_test(illegal_move_breaks_the_game_with_a_full_place),
		cmocka_unit_test(text_that_is_no_move_is_bad_move_text),
		cmocka_unit_test(unclosed_comment_is_an_error_and_reading_goes_on),
		cmocka_unit_test(unclosed_comment_counts_its_lines_once),
		cmocka_unit_test(unbalanced_parentheses_are_errors),
		cmocka_unit_test(stray_brace_is_an_error),
		cmocka_unit_test(memory_is_reused_from_game_to_game),
		cmocka_unit_test(long_input_crosses_many_window_refills),
		cmocka_unit_test(column_at_the_end_counts_each_trailing_space_once),
		cmocka_unit_test(column_stays_right_when_the_window_refills_inside_white_space),
		cmocka_unit_test(a_game_of_ascii_is_utf8_until_the_first_other_byte),
		cmocka_unit_test(splitter_proposes_tag_lines_and_move_numbers_in_column_1),
		cmocka_unit_test(quick_scan_gives_the_token_scans_points_where_the_text_leaves_the_usual_shape),
		cmocka_unit_test(quick_scan_gives_the_token_scans_points_on_the_fixtures),
		cmocka_unit_test(quick_scan_gives_the_token_scans_points_on_the_corpus),
		cmocka_unit_test(chunk_reader_starts_with_the_sequential_readers_places),
		cmocka_unit_test(line_numbers_go_past_four_billion_without_wrapping),
		cmocka_unit_test(writer_puts_game_first_sets_format_and_regenerates_fen),
		cmocka_unit_test(writer_adds_fen_when_the_start_is_not_standard),
		cmocka_unit_test(writer_numbers_variations_comments_and_nags),
		cmocka_unit_test(writer_wraps_lines_at_a_fixed_width),
		cmocka_unit_test(writer_gives_the_same_bytes_for_the_same_game),
		cmocka_unit_test(writer_separates_games_with_one_blank_line),
		cmocka_unit_test(round_trip_keeps_the_game_and_the_bytes),
		cmocka_unit_test(writer_encodes_gbk_and_big5),
		cmocka_unit_test(character_the_target_cannot_hold_is_written_as_a_question_mark_and_reported),
		cmocka_unit_test(brace_inside_a_comment_is_a_reported_loss),
		cmocka_unit_test(comment_before_the_game_joins_the_game_comment_with_a_loss),
		cmocka_unit_test(comment_with_white_space_at_its_ends_is_written_without_it_and_reported),
		cmocka_unit_test(game_read_back_writes_the_same_bytes_again_when_comments_had_white_space),
		cmocka_unit_test(comment_of_only_white_space_is_left_out_with_its_move_number),
		cmocka_unit_test(carriage_return_in_a_comment_is_written_as_a_line_feed),
		cmocka_unit_test(writer_refuses_what_pgn_cannot_be_written_in),
		cmocka_unit_test(probe_knows_pgn_by_content),
		cmocka_unit_test(xqbase_gb2312_crlf_file_with_junk_after_the_result),
		cmocka_unit_test(big5_traditional_file_where_black_moves_first_after_1),
		cmocka_unit_test(wxf_in_full_width_letters),
		cmocka_unit_test(xboard_san_with_engine_comments),
		cmocka_unit_test(move_list_without_tags_and_with_ascii_black_files),
		cmocka_unit_test(notation_is_found_per_game),
		cmocka_unit_test(coordinates_count_ranks_as_the_options_say),
		cmocka_unit_test(writer_writes_chinese_by_default_and_traditional_in_big5),
		cmocka_unit_test(every_game_is_written_with_a_result_tag_and_a_result_at_its_end),
		cmocka_unit_test(chinese_moves_keep_the_script_of_their_source),
		cmocka_unit_test(round_trip_in_every_notation_and_encoding),
		cmocka_unit_test(corpus_files_taken_as_pgn_are_exactly_the_listed_ones_and_detected_so),
		cmocka_unit_test(every_corpus_record_reads_and_only_the_listed_ones_fail),
		cmocka_unit_test(corpus_games_round_trip_in_every_notation),
	};
	return cmocka_run_group_tests_name("pgn", tests, NULL, NULL);
}
