/*
 * test_cbr.c: the CBR (CCBridge binary record) and CBL (library) readers:
 * records built byte by byte in both layouts, every diagnostic, the
 * library index checks, the compressed "CCBridge" + 21 container (built
 * byte by byte, the fixture, damaged and cut copies), the
 * corpus files, and the CBR and CBF copies of one game agreeing.
 */
#include "testutil.h"

#include <zlib.h>

#include "ccb_testutil.h"
#include "movegen.h"

/* A record under construction. */
struct rec {
	unsigned char b[1 << 16];
	size_t len;
	int version;
};

static size_t off(const struct rec *r, size_t v2)
{
	if (r->version == 2)
		return v2;
	return v2 < 1524 ? v2 - 128 : v2 - 256;
}

static void put_u32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* ASCII (or \uXXXX-free BMP text given as code units) as UTF-16LE. */
static void put_units(unsigned char *p, const uint16_t *units, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		p[2 * i] = (unsigned char)(units[i] & 0xFF);
		p[2 * i + 1] = (unsigned char)(units[i] >> 8);
	}
}

static void put_ascii16(unsigned char *p, const char *s)
{
	for (size_t i = 0; s[i]; i++) {
		p[2 * i] = (unsigned char)s[i];
		p[2 * i + 1] = 0;
	}
}

/* Header and start position; `rows` is the board from the top, FEN-like. */
static void rec_start(struct rec *r, int version, const char *const rows[10], int side)
{
	static const char letters[] = "RNBAKCP";

	memset(r, 0, sizeof(*r));
	r->version = version;
	memcpy(r->b, "CCBridge Record", 16);
	r->b[19] = (unsigned char)version;
	put_ascii16(r->b + off(r, 180), "Title");
	put_ascii16(r->b + off(r, 1076), "Red player");
	memcpy(r->b + off(r, 1076) + 40, "\xAB\xCD", 2); /* leftovers after the NUL are not read */
	memcpy(r->b + off(r, 2036), "C66", 3);
	put_u32(r->b + off(r, 2040), 2);
	put_u32(r->b + off(r, 2076), 1);
	put_u32(r->b + off(r, 2112), (uint32_t)side);
	r->b[off(r, 2116)] = 1;
	for (int row = 0; row < 10; row++) {
		int col = 0;
		for (const char *c = rows[row]; *c; c++) {
			if (*c >= '1' && *c <= '9') {
				col += *c - '0';
				continue;
			}
			for (int t = 0; t < 7; t++) {
				if (letters[t] == *c)
					r->b[off(r, 2120) + (size_t)(row * 9 + col)] = (unsigned char)(0x11 + t);
				if (letters[t] == *c - 'a' + 'A')
					r->b[off(r, 2120) + (size_t)(row * 9 + col)] = (unsigned char)(0x21 + t);
			}
			col++;
		}
	}
	put_u32(r->b + off(r, 2210), 0xFFFFFFFFu);
	r->len = off(r, 2214);
}

static const char *const start_rows[10] = {"rnbakabnr", "9", "1c5c1", "p1p1p1p1p", "9",
					   "9",         "P1P1P1P1P", "1C5C1", "9", "RNBAKABNR"};

/* A node: flags (1 end, 2 branch, 4 added when there is a comment), ICCS move or NULL for the root. */
static void rec_node(struct rec *r, unsigned flags, const char *iccs, const uint16_t *comment,
		     size_t units)
{
	unsigned char *p = r->b + r->len;
	unsigned from = 0, to = 0;

	if (iccs) {
		int fc = iccs[0] - 'a', fr = 9 - (iccs[1] - '0');
		int tc = iccs[2] - 'a', tr = 9 - (iccs[3] - '0');
		if (r->version == 2) {
			from = (unsigned)(fr * 9 + fc);
			to = (unsigned)(tr * 9 + tc);
		} else {
			from = (unsigned)(fc << 4 | fr);
			to = (unsigned)(tc << 4 | tr);
		}
	}
	p[0] = (unsigned char)(flags | (units ? 4 : 0));
	p[2] = (unsigned char)from;
	p[3] = (unsigned char)to;
	r->len += 4;
	if (units) {
		put_u32(r->b + r->len, (uint32_t)(units * 2));
		put_units(r->b + r->len + 4, comment, units);
		r->len += 4 + units * 2;
	}
}

/* root "game" + h2e2 (branch) h9g7 end, then the alternative b0c2 end. */
static void rec_small_tree(struct rec *r)
{
	static const uint16_t game[] = {'g', 'a', 'm', 'e'};
	static const uint16_t note[] = {0x70AE, '\r', '\n', 'x'}; /* 炮 CRLF x */

	rec_node(r, 0, NULL, game, 4);
	rec_node(r, 2, "h2e2", NULL, 0);
	rec_node(r, 1, "h9g7", note, 4);
	rec_node(r, 1, "b0c2", NULL, 0);
}

static int read_rec(const char *fmt, const void *data, size_t len, struct xqi_record *g,
		    struct collected *c, int *rc)
{
	memset(c, 0, sizeof(*c));
	return read_games(fmt, data, len, g, MAX_GAMES, c, rc);
}

static void version_2_record_reads_fields_board_and_tree(void **state)
{
	static struct rec r;
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	char tree[128];
	int n, rc;

	(void)state;
	rec_start(&r, 2, start_rows, 1);
	rec_small_tree(&r);
	n = read_rec("cbr", r.b, r.len, g, &c, &rc);
	assert_int_equal(n, 1);
	assert_int_equal(rc, 0);
	if (c.n)
		print_diags(&c);
	assert_int_equal(c.n, 0);
	assert_string_equal(xqi_record_tag(&g[0], "Title"), "Title");
	assert_string_equal(xqi_record_tag(&g[0], "Red"), "Red player");
	assert_string_equal(xqi_record_tag(&g[0], "ECCO"), "C66");
	assert_string_equal(xqi_record_tag(&g[0], "RecordType"), "2");
	assert_string_equal(xqi_record_tag(&g[0], "Result"), "1-0");
	assert_int_equal(g[0].result, XQI_RESULT_RED_WIN);
	tree_string(&g[0], tree, sizeof(tree));
	assert_string_equal(tree, "1h2e2 2h9g7 1b0c2*");
	assert_string_equal(g[0].nodes[XQI_ROOT].comment, "game");
	assert_string_equal(g[0].nodes[2].comment, "炮\nx");
	assert_int_equal(g[0].nodes[1].place.offset, 2230);
	assert_string_equal(g[0].encoding, "utf-16le");
	release_games(g, n);
}

static void version_1_record_has_its_own_offsets_and_squares(void **state)
{
	static struct rec r;
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	char tree[128];
	int n;

	(void)state;
	rec_start(&r, 1, start_rows, 1);
	rec_small_tree(&r);
	n = read_rec("cbr", r.b, r.len, g, &c, NULL);
	assert_int_equal(n, 1);
	assert_int_equal(c.n, 0);
	assert_string_equal(xqi_record_tag(&g[0], "Title"), "Title");
	assert_string_equal(xqi_record_tag(&g[0], "Red"), "Red player");
	assert_string_equal(xqi_record_tag(&g[0], "ECCO"), "C66");
	tree_string(&g[0], tree, sizeof(tree));
	assert_string_equal(tree, "1h2e2 2h9g7 1b0c2*");
	release_games(g, n);
}

static void side_to_move_and_first_move_number_are_read(void **state)
{
	static const char *const rows[10] = {"4k4", "9", "9", "9", "9", "9", "9", "9", "9", "R2K5"};
	static struct rec r;
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	char fen[XQ_FEN_SIZE];
	int n;

	(void)state;
	rec_start(&r, 2, rows, 2);
	r.b[2116] = 7;
	rec_node(&r, 0, NULL, NULL, 0);
	rec_node(&r, 1, "e9e8", NULL, 0);
	n = read_rec("cbr", r.b, r.len, g, &c, NULL);
	assert_int_equal(n, 1);
	xqi_position_to_fen(&g[0].start, fen, sizeof(fen));
	assert_string_equal(fen, "4k4/9/9/9/9/9/9/9/9/R2K5 b - - 0 7");
	assert_int_equal(g[0].nnodes, 2);
	release_games(g, n);
}

static void illegal_move_is_reported_at_its_byte_offset(void **state)
{
	static struct rec r;
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	const struct xq_diagnostic *d;
	int n;

	(void)state;
	rec_start(&r, 2, start_rows, 1);
	rec_node(&r, 0, NULL, NULL, 0);
	rec_node(&r, 0, "h2e2", NULL, 0);
	rec_node(&r, 0, "h2e2", NULL, 0); /* the cannon is gone from h2 */
	rec_node(&r, 1, "b0c2", NULL, 0);
	n = read_rec("cbr", r.b, r.len, g, &c, NULL);
	assert_int_equal(n, 1);
	d = find_diag(&c, XQI_D_ILLEGAL_MOVE, "illegal move h2e2");
	assert_non_null(d);
	assert_int_equal(d->place.offset, 2222);
	assert_int_equal(d->has_offset, 1);
	assert_int_equal(d->ply, 2);
	assert_string_equal(d->move, "h2e2");
	/* On the main line: the game stops there. */
	assert_non_null(find_diag(&c, XQI_D_ILLEGAL_MOVE, "the main line stops here: 2 moves not kept"));
	assert_true(g[0].flags & XQI_RECORD_BROKEN);
	assert_int_equal(g[0].nnodes, 2);
	release_games(g, n);
}

/* In a variation, an illegal move cuts that variation alone: the record is
 * whole otherwise (not broken), as sample_23 of CCBridge needs. */
static void illegal_move_in_a_variation_cuts_that_variation_only(void **state)
{
	static struct rec r;
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	const struct xq_diagnostic *d;
	int n;

	(void)state;
	rec_start(&r, 2, start_rows, 1);
	rec_node(&r, 0, NULL, NULL, 0);
	rec_node(&r, 0, "h2e2", NULL, 0);
	rec_node(&r, 2, "h9g7", NULL, 0);     /* an alternative follows its subtree */
	rec_node(&r, 1, "h0g2", NULL, 0);     /* main line ends */
	rec_node(&r, 2, "h7h0", NULL, 0);     /* alternative to h9g7: no screen to capture over */
	rec_node(&r, 0, "h0g2", NULL, 0);
	rec_node(&r, 1, "b9c7", NULL, 0);     /* cut with it: 3 moves */
	rec_node(&r, 1, "b9c7", NULL, 0);     /* the next alternative, kept */
	n = read_rec("cbr", r.b, r.len, g, &c, NULL);
	assert_int_equal(n, 1);
	assert_false(g[0].flags & XQI_RECORD_BROKEN);
	assert_true(g[0].flags & XQI_RECORD_CUT);
	assert_int_equal(g[0].nnodes, 5);
	d = find_diag(&c, XQI_D_ILLEGAL_MOVE, "illegal move h7h0");
	assert_non_null(d);
	assert_int_equal(d->ply, 2);
	assert_non_null(strstr(d->msg, "the variation is cut here: 3 moves not kept"));
	release_games(g, n);
}

static void damaged_records_are_reported(void **state)
{
	static struct rec r;
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n, rc;

	(void)state;
	/* Cut inside the tree. */
	rec_start(&r, 2, start_rows, 1);
	rec_small_tree(&r);
	n = read_rec("cbr", r.b, r.len - 6, g, &c, &rc);
	assert_int_equal(n, 1);
	assert_non_null(find_diag(&c, XQI_D_TRUNCATED, "comment of 8 bytes runs past"));
	assert_true(g[0].flags & XQI_RECORD_BROKEN);
	release_games(g, n);
	/* Cut inside the header. */
	n = read_rec("cbr", r.b, 1000, g, &c, &rc);
	assert_int_equal(n, 1);
	assert_non_null(find_diag(&c, XQI_D_TRUNCATED, "inside its 2214-byte header"));
	release_games(g, n);
	/* Bytes after the tree. */
	n = read_rec("cbr", r.b, r.len + 10, g, &c, &rc);
	assert_int_equal(n, 1);
	assert_non_null(find_diag(&c, XQI_D_TRAILING, "10 bytes after the end of the move tree"));
	release_games(g, n);
	/* A piece code that does not exist. */
	r.b[2120] = 0x19;
	n = read_rec("cbr", r.b, r.len, g, &c, &rc);
	assert_int_equal(n, 1);
	assert_non_null(find_diag(&c, XQI_D_CORRUPT, "board byte 0x19 at row 0, column 0"));
	assert_true(g[0].flags & XQI_RECORD_BROKEN);
	release_games(g, n);
	/* A square byte past the board. */
	rec_start(&r, 2, start_rows, 1);
	rec_node(&r, 0, NULL, NULL, 0);
	rec_node(&r, 1, "h2e2", NULL, 0);
	r.b[r.len - 1] = 200;
	n = read_rec("cbr", r.b, r.len, g, &c, &rc);
	assert_non_null(find_diag(&c, XQI_D_CORRUPT, "move bytes 46 c8 name no square"));
	release_games(g, n);
	/* Not a record. */
	n = read_rec("cbr", "CCBridge Recorx\0xxxxxxxx", 24, g, &c, &rc);
	assert_int_equal(n, 0);
	assert_int_equal(rc, XQ_EPARSE);
	assert_non_null(find_diag(&c, XQI_D_BAD_MAGIC, NULL));
}

static void unknown_versions_and_bits_are_said_not_guessed(void **state)
{
	static struct rec r;
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	rec_start(&r, 2, start_rows, 1);
	rec_small_tree(&r);
	r.b[19] = 3;
	n = read_rec("cbr", r.b, r.len, g, &c, NULL);
	assert_int_equal(n, 1);
	assert_non_null(find_diag(&c, XQI_D_UNSUPPORTED, "CBR version 3 is not supported"));
	assert_true(g[0].flags & XQI_RECORD_BROKEN);
	release_games(g, n);
	/* A node byte whose meaning is not known, an odd sentinel, result 4. */
	r.b[19] = 2;
	r.b[2214 + 8 + 8 + 1] = 1;
	put_u32(r.b + 2210, 0);
	put_u32(r.b + 2076, 4);
	n = read_rec("cbr", r.b, r.len, g, &c, NULL);
	assert_int_equal(n, 1);
	assert_non_null(find_diag(&c, XQI_D_UNSUPPORTED, "flags 0x0201 have bits"));
	assert_non_null(find_diag(&c, XQI_D_UNSUPPORTED, "00000000 where records mostly have ffffffff"));
	assert_non_null(find_diag(&c, XQI_D_NO_RESULT, "result code 4"));
	assert_string_equal(g[0].result_text, "4");
	assert_int_equal(g[0].nnodes, 4); /* still read */
	release_games(g, n);
}

static void empty_board_record_is_a_heading(void **state)
{
	static const char *const empty[10] = {"9", "9", "9", "9", "9", "9", "9", "9", "9", "9"};
	static const uint16_t words[] = {'h', 'i'};
	static struct rec r;
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	rec_start(&r, 2, empty, 1);
	rec_node(&r, 1, NULL, words, 2);
	n = read_rec("cbr", r.b, r.len, g, &c, NULL);
	assert_int_equal(n, 1);
	assert_non_null(find_diag(&c, XQI_D_EMPTY_GAME, "empty board and no moves (a heading with a comment)"));
	assert_string_equal(g[0].nodes[XQI_ROOT].comment, "hi");
	assert_int_equal(g[0].flags, XQI_RECORD_EMPTY);
	release_games(g, n);
	/* With moves it is an error: they cannot be placed. */
	rec_start(&r, 2, empty, 1);
	rec_node(&r, 0, NULL, NULL, 0);
	rec_node(&r, 1, "h2e2", NULL, 0);
	n = read_rec("cbr", r.b, r.len, g, &c, NULL);
	assert_non_null(find_diag(&c, XQI_D_BAD_FEN, "the board is empty, yet the record has 1 moves"));
	assert_true(g[0].flags & XQI_RECORD_BROKEN);
	release_games(g, n);
}

static void bytes_after_a_record_are_read_no_further_than_16_mib(void **state)
{
	static struct rec r;
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	size_t len = (size_t)(XQI_SKIP_MAX + (1 << 20));
	unsigned char *b = calloc(1, len);
	const struct xq_diagnostic *d;
	int n, rc;

	(void)state;
	assert_non_null(b);
	rec_start(&r, 2, start_rows, 1);
	rec_small_tree(&r);
	memcpy(b, r.b, r.len);
	/* They were read to the end, which a pipe may never reach. */
	n = read_rec("cbr", b, len, g, &c, &rc);
	assert_int_equal(n, 1);
	assert_int_equal(rc, 0);
	assert_false(g[0].flags & XQI_RECORD_BROKEN);
	d = find_diag(&c, XQI_D_RESOURCE,
		      "more than 16 MiB after the end of the move tree are not read; reading "
		      "stopped there");
	assert_non_null(d);
	assert_int_equal(d->place.offset, r.len);
	assert_null(find_diag(&c, XQI_D_TRAILING, NULL));
	release_games(g, n);
	free(b);
}

static void library_holding_no_record_for_16_mib_is_read_no_further(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	size_t len = (size_t)(66624 + XQI_SKIP_MAX + (1 << 20));
	unsigned char *b = calloc(1, len);
	const struct xq_diagnostic *d;
	int n, rc;

	(void)state;
	assert_non_null(b);
	memcpy(b, "CCBridgeLibrary", 16);
	put_u32(b + 16, 3);
	/* A record after the limit is not reached. */
	memcpy(b + len - 4096, "CCBridge Record", 16);
	n = read_rec("cbl", b, len, g, &c, &rc);
	assert_int_equal(n, 0);
	assert_int_equal(rc, XQ_ERANGE);
	d = find_diag(&c, XQI_D_RESOURCE, "more than 16 MiB from here hold no record");
	assert_non_null(d);
	assert_int_equal(d->place.offset, 66624);
	free(b);
}

/*
 * A library with `count` copies of a small record and `slots` index slots;
 * bad_index 1 gives a slot count that does not lead to the records, 2
 * index slots that disagree with the records.
 */
static unsigned char *build_library(size_t *len, int count, uint32_t slots, int bad_index)
{
	static struct rec r;
	size_t records = 66624 + (size_t)slots * 276, total = records + (size_t)count * 4096;
	unsigned char *b = calloc(1, total);

	assert_non_null(b);
	memcpy(b, "CCBridgeLibrary", 16);
	put_u32(b + 16, 3);
	put_u32(b + 60, bad_index == 1 ? slots + 5 : slots);
	put_ascii16(b + 64, "Lib");
	put_ascii16(b + 832, "Maker");
	put_ascii16(b + 1088, "Remark");
	rec_start(&r, 2, start_rows, 1);
	rec_small_tree(&r);
	for (int i = 0; i < count; i++) {
		unsigned char *s = b + 66624 + (size_t)i * 276;
		put_u32(s, i == 1 && bad_index == 2 ? 5 : 7);
		put_u32(s + 4, (uint32_t)i);
		put_u32(s + 8, 1);
		put_u32(s + 12, (uint32_t)r.len + (i == 0 && bad_index == 2 ? 2 : 0));
		put_ascii16(s + 20, "{GUID}");
		put_ascii16(s + 100, i == 0 && bad_index == 2 ? "Other" : "Title");
		memcpy(b + records + (size_t)i * 4096, r.b, r.len);
	}
	*len = total;
	return b;
}

static void library_records_are_read_with_the_library_fields(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	size_t len;
	unsigned char *lib = build_library(&len, 3, 128, 0);
	int n, rc;

	(void)state;
	n = read_rec("cbl", lib, len, g, &c, &rc);
	assert_int_equal(n, 3);
	assert_int_equal(rc, 0);
	if (c.n)
		print_diags(&c);
	assert_int_equal(c.n, 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(g[i].number, (uint64_t)i + 1);
		assert_string_equal(xqi_record_tag(&g[i], "Library"), "Lib");
		assert_string_equal(xqi_record_tag(&g[i], "LibraryCreator"), "Maker");
		assert_int_equal(g[i].place.offset, 66624 + 128 * 276 + 4096 * (uint64_t)i);
		assert_int_equal(g[i].nnodes, 4);
	}
	/* The remark, which can be long, only once. */
	assert_string_equal(xqi_record_tag(&g[0], "LibraryRemark"), "Remark");
	assert_null(xqi_record_tag(&g[1], "LibraryRemark"));
	release_games(g, n);
	free(lib);
}

static void library_index_disagreements_are_noted_not_acted_on(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	size_t len;
	unsigned char *lib = build_library(&len, 2, 16, 2);
	int n;

	(void)state;
	n = read_rec("cbl", lib, len, g, &c, NULL);
	assert_int_equal(n, 2);
	assert_non_null(find_diag(&c, XQI_D_CORRUPT, "gives record 1 2256 bytes; its move tree ends after 2254"));
	assert_non_null(find_diag(&c, XQI_D_CORRUPT, "titles record 1 'Other', the record says 'Title'"));
	assert_non_null(find_diag(&c, XQI_D_UNSUPPORTED, "record 2 has flags 5"));
	assert_int_equal(g[0].nnodes, 4);
	assert_int_equal(g[1].nnodes, 4);
	release_games(g, n);
	free(lib);
	/* An index that does not lead to the records: found by their magic. */
	lib = build_library(&len, 2, 16, 1);
	n = read_rec("cbl", lib, len, g, &c, NULL);
	assert_int_equal(n, 2);
	assert_non_null(find_diag(&c, XQI_D_UNSUPPORTED, "found by their magic instead"));
	release_games(g, n);
	free(lib);
}

/* The "CCBridge" + 21 container: its data part under construction. */
struct zb {
	unsigned char b[1 << 14];
	size_t len;
};

static void zb_bytes(struct zb *z, const void *p, size_t n)
{
	assert_true(z->len + n <= sizeof(z->b));
	memcpy(z->b + z->len, p, n);
	z->len += n;
}

static void zb_u32(struct zb *z, uint32_t v)
{
	unsigned char p[4];

	put_u32(p, v);
	zb_bytes(z, p, 4);
}

static void zb_str(struct zb *z, const char *s)
{
	zb_u32(z, (uint32_t)strlen(s));
	zb_bytes(z, s, strlen(s));
}

/* The library header: name "Lib", creator "Maker", `count` records, remark "Remark||two". */
static void zb_library(struct zb *z, uint32_t count)
{
	zb_str(z, "Lib");
	zb_str(z, "");
	zb_str(z, "");
	zb_str(z, "Maker");
	zb_str(z, "");
	zb_bytes(z, "2001-2-18 12:30:22 2006-11-25 22:02:58", 38);
	zb_u32(z, count);
	zb_str(z, "Remark||two");
}

/* A move entry: index, ICCS squares, the two text bytes, its comment. */
struct zmove {
	unsigned idx;
	const char *iccs;
	unsigned char lo, hi;
	const char *comment;
};

static unsigned char zb_square(const char *sq)
{
	return (unsigned char)((sq[0] - 'a') << 4 | (9 - (sq[1] - '0')));
}

static const unsigned char zb_start[32] = {
	0x1a, 0x2a, 0x3a, 0x4a, 0x5a, 0x6a, 0x7a, 0x8a, 0x9a, 0x28, 0x88,
	0x17, 0x37, 0x57, 0x77, 0x97, 0x11, 0x21, 0x31, 0x41, 0x51, 0x61,
	0x71, 0x81, 0x91, 0x23, 0x83, 0x14, 0x34, 0x54, 0x74, 0x94};

/* A record from the standard position, red to move; returns the offset of its first move entry. */
static size_t zb_record(struct zb *z, const char *title, uint32_t result, const struct zmove *m,
			size_t n)
{
	size_t start = z->len, moves;

	zb_u32(z, 0);
	zb_bytes(z, zb_start, 32);
	zb_u32(z, 2);
	zb_str(z, "Event");
	zb_u32(z, 1);
	zb_str(z, title);
	zb_str(z, "");
	zb_str(z, "");
	zb_str(z, "Site");
	zb_str(z, "2001");
	zb_str(z, "\xba\xec"); /* 红 */
	zb_str(z, "Black");
	zb_u32(z, result);
	zb_str(z, "Commentator");
	zb_str(z, "");
	zb_str(z, "Creator");
	zb_str(z, "");
	zb_str(z, "Game||comment");
	zb_bytes(z, "\1", 1);
	zb_bytes(z, "2001-2-18 12:30:22 2001-2-18 12:30:23 ", 38);
	zb_u32(z, (uint32_t)n);
	moves = z->len;
	for (size_t i = 0; i < n; i++) {
		unsigned char e[6] = {(unsigned char)(m[i].idx & 0xFF), (unsigned char)(m[i].idx >> 8),
				      zb_square(m[i].iccs), zb_square(m[i].iccs + 2), m[i].lo,
				      m[i].hi};
		zb_bytes(z, e, 6);
	}
	for (size_t i = 0; i < n; i++) {
		zb_bytes(z, m[i].comment, strlen(m[i].comment));
		zb_bytes(z, "\r\n", 2);
	}
	put_u32(z->b + start, (uint32_t)(z->len - start));
	return moves;
}

/* The file: header and the data part, deflated (method 1-3) or stored (0); malloc'd. */
static unsigned char *zb_file(const struct zb *z, uint32_t method, size_t *len)
{
	uLongf zlen = compressBound(z->len);
	unsigned char *out = malloc(20 + zlen);

	assert_non_null(out);
	memcpy(out, "CCBridge", 8);
	put_u32(out + 8, 21);
	put_u32(out + 12, method);
	put_u32(out + 16, (uint32_t)z->len);
	if (method) {
		assert_int_equal(compress2(out + 20, &zlen, z->b, z->len, (int)method * 3), Z_OK);
	} else {
		memcpy(out + 20, z->b, z->len);
		zlen = z->len;
	}
	*len = 20 + zlen;
	return out;
}

/* Read the library `z` (stored or deflated as `method` says) into g[]; returns the count. */
static int read_zb(const struct zb *z, uint32_t method, struct xqi_record *g, struct collected *c)
{
	size_t len;
	unsigned char *file = zb_file(z, method, &len);
	int got = read_rec("cbl", file, len, g, c, NULL);

	free(file);
	return got;
}

/* h2e2 {center||cannon} h9g7 h0g2, h9g7's alternative b9c7 {alt}, h2e2's alternative b0c2. */
static const struct zmove small_tree[] = {
	{1, "h2e2", 0x51, 0x24, "center||cannon"}, {2, "h9g7", 0x17, 0x06, ""},
	{3, "h0g2", 0x11, 0x02, ""},               {2, "b9c7", 0x11, 0x02, "alt"},
	{1, "b0c2", 0x17, 0x06, ""},
};

static int count_comments(const struct xqi_record *g)
{
	int n = 0;

	for (size_t i = 0; i < g->nnodes; i++)
		n += g->nodes[i].comment != NULL;
	return n;
}

static void compressed_library_reads_tags_moves_comments_and_variations(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	static struct zb z;
	char tree[256];
	unsigned char *file;
	size_t len;
	int n, rc;

	(void)state;
	z.len = 0;
	zb_library(&z, 2);
	zb_record(&z, "One", 1, small_tree, 5);
	zb_record(&z, "Two", 4, small_tree, 1);
	for (uint32_t method = 0; method <= 3; method++) {
		file = zb_file(&z, method, &len);
		n = read_rec("cbl", file, len, g, &c, &rc);
		if (c.n)
			print_diags(&c);
		assert_int_equal(c.n, 0);
		assert_int_equal(rc, 0);
		assert_int_equal(n, 2);
		tree_string(&g[0], tree, sizeof(tree));
		assert_string_equal(tree, "1h2e2 2h9g7 3h0g2 2b9c7* 1b0c2*");
		assert_string_equal(g[0].nodes[g[0].nodes[XQI_ROOT].child].comment, "center\ncannon");
		assert_int_equal(count_comments(&g[0]), 3); /* the game's, h2e2's, b9c7's */
		tree_string(&g[1], tree, sizeof(tree));
		assert_string_equal(tree, "1h2e2");
		assert_string_equal(xqi_record_tag(&g[0], "Title"), "One");
		assert_string_equal(xqi_record_tag(&g[0], "Event"), "Event");
		assert_string_equal(xqi_record_tag(&g[0], "Site"), "Site");
		assert_string_equal(xqi_record_tag(&g[0], "Date"), "2001");
		assert_string_equal(xqi_record_tag(&g[0], "Red"), "红");
		assert_string_equal(xqi_record_tag(&g[0], "Black"), "Black");
		assert_string_equal(xqi_record_tag(&g[0], "Annotator"), "Commentator");
		assert_string_equal(xqi_record_tag(&g[0], "Author"), "Creator");
		assert_string_equal(xqi_record_tag(&g[0], "RecordType"), "2");
		assert_string_equal(xqi_record_tag(&g[0], "DateCreated"), "2001-2-18 12:30:22");
		assert_string_equal(xqi_record_tag(&g[0], "DateModified"), "2001-2-18 12:30:23");
		assert_string_equal(g[0].nodes[XQI_ROOT].comment, "Game\ncomment");
		assert_int_equal(g[0].result, XQI_RESULT_RED_WIN);
		assert_int_equal(g[1].result, XQI_RESULT_UNKNOWN);
		assert_string_equal(xqi_record_tag(&g[1], "Library"), "Lib");
		assert_string_equal(xqi_record_tag(&g[1], "LibraryCreator"), "Maker");
		assert_string_equal(xqi_record_tag(&g[1], "LibraryModified"), "2006-11-25 22:02:58");
		assert_string_equal(xqi_record_tag(&g[0], "LibraryRemark"), "Remark\ntwo");
		assert_null(xqi_record_tag(&g[1], "LibraryRemark"));
		assert_null(xqi_record_tag(&g[0], "From"));
		assert_string_equal(g[0].encoding, "gb18030");
		release_games(g, n);
		free(file);
	}
}

/*
 * Read a library of one record with the moves `m` (stored or deflated as
 * `method` says) into g[0]; *moves gets the data offset of its first move
 * entry.  Returns the number of games read.
 */
static int read_one_record(const struct zmove *m, size_t n, uint32_t method, struct xqi_record *g,
			   struct collected *c, size_t *moves)
{
	static struct zb z;
	size_t at;

	z.len = 0;
	zb_library(&z, 1);
	at = zb_record(&z, "T", 1, m, n);
	if (moves)
		*moves = at;
	return read_zb(&z, method, g, c);
}

static void variation_index_hangs_off_the_line_just_read(void **state)
{
	/* h2e2 h9g7 h0g2 b9c7; at ply 3 b0c2 i9h9; then index 4 again: the
	 * alternative to i9h9 (the line just read), not to b9c7. */
	static const struct zmove m[] = {
		{1, "h2e2", 0x51, 0x24, ""}, {2, "h9g7", 0x17, 0x06, ""},
		{3, "h0g2", 0x11, 0x02, ""}, {4, "b9c7", 0x11, 0x02, ""},
		{3, "b0c2", 0x17, 0x06, ""}, {4, "i9h9", 0x08, 0x27, ""},
		{4, "c6c5", 0x62, 0x00, ""},
	};
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	char tree[256];
	int n;

	(void)state;
	n = read_one_record(m, 7, 2, g, &c, NULL);
	assert_int_equal(n, 1);
	assert_int_equal(c.n, 0);
	tree_string(&g[0], tree, sizeof(tree));
	assert_string_equal(tree, "1h2e2 2h9g7 3h0g2 4b9c7 3b0c2* 4i9h9 4c6c5*");
	release_games(g, n);
}

static void illegal_move_offset_is_a_file_offset_when_stored_and_inflated_otherwise(void **state)
{
	static const struct zmove m[] = {
		{1, "h2e2", 0x51, 0x24, ""}, {2, "h9h2", 0x17, 0x06, "lost"},
		{3, "h0g2", 0x11, 0x02, ""}, {2, "h9g7", 0x17, 0x06, "kept"},
	};
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	const struct xq_diagnostic *d;
	char tree[256];
	size_t at;
	int n;

	(void)state;
	n = read_one_record(m, 4, 0, g, &c, &at);
	at += 6; /* the second entry */
	assert_int_equal(n, 1);
	d = find_diag(&c, XQI_D_ILLEGAL_MOVE, "illegal move h9h2");
	assert_non_null(d);
	assert_true(d->has_offset);
	assert_int_equal(d->place.offset, 20 + at);
	assert_int_equal(d->ply, 2);
	assert_non_null(find_diag(&c, XQI_D_ILLEGAL_MOVE, "1 moves after a bad move"));
	/* The line resumes at the next alternative; the bad move's comment goes with it. */
	tree_string(&g[0], tree, sizeof(tree));
	assert_string_equal(tree, "1h2e2 2h9g7");
	assert_string_equal(g[0].nodes[g[0].nodes[g[0].nodes[XQI_ROOT].child].child].comment, "kept");
	assert_true(g[0].flags & XQI_RECORD_BROKEN);
	release_games(g, n);
	n = read_one_record(m, 4, 3, g, &c, NULL);
	d = find_diag(&c, XQI_D_ILLEGAL_MOVE, "illegal move h9h2");
	assert_non_null(d);
	assert_false(d->has_offset);
	{
		char want[64];
		snprintf(want, sizeof(want), "offset %zu of the inflated data: ", at);
		assert_non_null(strstr(d->msg, want));
	}
	release_games(g, n);
}

static void move_text_that_does_not_name_the_move_is_noted(void **state)
{
	static const struct zmove m[] = {
		{1, "h2e2", 0x52, 0x24, ""}, /* 炮三平五: no cannon on file 3 */
		{2, "h9g7", 0x17, 0x06, ""},
		{3, "h0g2", 0xF1, 0x02, ""}, /* not a text */
	};
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	n = read_one_record(m, 3, 1, g, &c, NULL);
	assert_int_equal(n, 1);
	assert_int_equal(g[0].nnodes, 4); /* the squares are what is read */
	assert_non_null(find_diag(&c, XQI_D_CORRUPT, "text bytes 52 24 (炮三平五) do not name h2e2"));
	assert_non_null(find_diag(&c, XQI_D_CORRUPT, "2 moves in all have text bytes"));
	assert_int_equal(count_diags(&c, XQ_SEVERITY_WARNING), 0);
	release_games(g, n);
}

static void damaged_or_cut_streams_are_reported_with_offsets(void **state)
{
	static struct collected c;
	static struct xqi_record g[MAX_GAMES];
	const struct xq_diagnostic *d;
	size_t len;
	char *data = slurp("tests/data/cbr/compressed.cbl", &len);
	unsigned char *copy;
	int n, rc;

	(void)state;
	assert_non_null(data);
	copy = malloc(len);
	assert_non_null(copy);
	/* Cut in the middle: the games before the cut are read, the cut one is broken. */
	memcpy(copy, data, len);
	n = read_rec("cbl", copy, len / 2, g, &c, &rc);
	assert_int_equal(rc, 0);
	d = find_diag(&c, XQI_D_TRUNCATED, "the zlib stream is cut short after");
	assert_non_null(d);
	assert_true(d->has_offset);
	assert_int_equal(d->place.offset, len / 2);
	assert_true(n > 5 && n < 47);
	assert_true(g[n - 1].flags & XQI_RECORD_BROKEN);
	assert_false(g[0].flags & XQI_RECORD_BROKEN);
	assert_non_null(find_diag(&c, XQI_D_TRUNCATED, "record 18 of 47 gives its size as 553 bytes"));
	assert_int_equal(count_diags(&c, XQ_SEVERITY_WARNING), 3);
	release_games(g, n);
	/* A damaged stream: zlib's error, at the byte where inflate stopped. */
	memcpy(copy, data, len);
	copy[22] = 0xFF; /* the first block's type: 3, which is no type */
	n = read_rec("cbl", copy, len, g, &c, &rc);
	d = find_diag(&c, XQI_D_CORRUPT, "the zlib stream is damaged here (invalid block type)");
	assert_non_null(d);
	assert_true(d->has_offset);
	assert_int_equal(d->place.offset, 23);
	assert_int_equal(n, 0);
	/* Damage that inflate cannot see: the records before it are read whole. */
	memcpy(copy, data, len);
	memset(copy + 3000, 0xFF, 64);
	n = read_rec("cbl", copy, len, g, &c, &rc);
	assert_true(count_diags(&c, XQ_SEVERITY_ERROR) > 0);
	assert_true(n > 15);
	for (int i = 0; i < 15; i++)
		assert_false(g[i].flags & XQI_RECORD_BROKEN);
	release_games(g, n);
	/* A header that gives another size. */
	memcpy(copy, data, len);
	put_u32(copy + 16, 25562);
	n = read_rec("cbl", copy, len, g, &c, &rc);
	assert_non_null(find_diag(&c, XQI_D_CORRUPT,
				  "the data part inflates to 25561 bytes where the header gives 25562"));
	assert_int_equal(n, 47);
	release_games(g, n);
	put_u32(copy + 16, 25560);
	n = read_rec("cbl", copy, len, g, &c, &rc);
	assert_non_null(find_diag(&c, XQI_D_CORRUPT,
				  "inflates to more than the 25560 bytes the header gives"));
	assert_true(g[n - 1].flags & XQI_RECORD_BROKEN);
	release_games(g, n);
	/* Absurd sizes and unknown methods are refused before anything is read. */
	put_u32(copy + 16, 0x7FFFFFFFu);
	n = read_rec("cbl", copy, len, g, &c, &rc);
	assert_int_equal(n, 0);
	assert_int_equal(rc, XQ_ERANGE);
	assert_non_null(find_diag(&c, XQI_D_RESOURCE, "is larger than 4 MiB, the cbl format's limit for one record"));
	memcpy(copy, data, len);
	put_u32(copy + 12, 7);
	n = read_rec("cbl", copy, len, g, &c, &rc);
	assert_int_equal(n, 0);
	assert_int_equal(rc, XQ_EUNSUPPORTED);
	assert_non_null(find_diag(&c, XQI_D_UNSUPPORTED, "compression method 7"));
	/* Bytes after the end of the stream. */
	{
		char *longer = malloc(len + 5);
		assert_non_null(longer);
		memcpy(longer, data, len);
		memcpy(longer + len, "extra", 5);
		n = read_rec("cbl", longer, len + 5, g, &c, &rc);
		assert_int_equal(n, 47);
		d = find_diag(&c, XQI_D_TRAILING, "5 bytes after the end of the zlib stream");
		assert_non_null(d);
		assert_int_equal(d->place.offset, len);
		release_games(g, n);
		free(longer);
	}
	/* Every length of a cut file: never a crash, never an illegal move. */
	for (size_t cut = 0; cut < len; cut += 97) {
		n = read_rec("cbl", copy, cut, g, &c, &rc);
		release_games(g, n);
	}
	free(copy);
	free(data);
}

static void record_over_its_limit_is_refused_without_reading_on(void **state)
{
	static struct rec r;
	static struct collected c;
	struct xqi_read_opts opts = XQI_READ_OPTS_INIT;
	struct xqi_record g[MAX_GAMES];
	const struct xq_diagnostic *d;
	size_t comment = 200000, len;
	unsigned char *big;
	int n, rc;

	(void)state;
	/* The budget of 8 MiB holds a CBR record of 128 KiB; this one's game
	 * comment alone is 200,000 bytes. */
	opts.max_memory = (uint64_t)8 << 20;
	rec_start(&r, 2, start_rows, 1);
	len = r.len + 8 + comment + 4;
	big = calloc(1, len);
	assert_non_null(big);
	memcpy(big, r.b, r.len);
	big[r.len] = 4 | 1; /* the root, with a comment, ending the tree */
	put_u32(big + r.len + 4, (uint32_t)comment);
	for (size_t i = 0; i < comment; i += 2)
		big[r.len + 8 + i] = 'x';
	memset(&c, 0, sizeof(c));
	n = read_games_opts("cbr", big, len, g, MAX_GAMES, &c, &rc, &opts);
	assert_int_equal(n, 0);
	assert_int_equal(rc, XQ_ERANGE);
	d = find_diag(&c, XQI_D_RESOURCE, "record 1 is larger than 128 KiB, the most one cbr record");
	assert_non_null(d);
	assert_int_equal(d->place.offset, 0);
	/* With the default budget it is read. */
	memset(&c, 0, sizeof(c));
	n = read_games("cbr", big, len, g, MAX_GAMES, &c, &rc);
	assert_int_equal(n, 1);
	assert_int_equal(strlen(g[0].nodes[XQI_ROOT].comment), comment / 2);
	release_games(g, n);
	free(big);
}

static void records_that_do_not_fit_are_reported(void **state)
{
	static struct collected c;
	static struct zb z;
	struct xqi_record g[MAX_GAMES];
	size_t moves, second;
	int n;

	(void)state;
	/* The header announces 3 records; there are 2. */
	z.len = 0;
	zb_library(&z, 3);
	moves = zb_record(&z, "A", 1, small_tree, 5);
	second = z.len;
	zb_record(&z, "B", 1, small_tree, 5);
	n = read_zb(&z, 0, g, &c);
	assert_int_equal(n, 2);
	assert_non_null(find_diag(&c, XQI_D_TRUNCATED, "announces 3 records; the data ends after 2"));
	release_games(g, n);
	/* A record whose move count runs past its end, and one whose size runs past the data. */
	put_u32(z.b + moves - 4, 50);
	put_u32(z.b + second, 1 << 20);
	n = read_zb(&z, 0, g, &c);
	assert_int_equal(n, 2);
	assert_non_null(find_diag(&c, XQI_D_TRUNCATED, "gives its size as 1048576 bytes"));
	assert_non_null(find_diag(&c, XQI_D_TRUNCATED, "announces 50 moves; it ends after"));
	assert_true(g[0].flags & XQI_RECORD_BROKEN);
	assert_true(g[1].flags & XQI_RECORD_BROKEN);
	release_games(g, n);
	/* Bytes after the last record. */
	z.len = 0;
	zb_library(&z, 1);
	zb_record(&z, "A", 1, small_tree, 5);
	zb_bytes(&z, "xyz", 3);
	n = read_zb(&z, 1, g, &c);
	assert_int_equal(n, 1);
	assert_non_null(find_diag(&c, XQI_D_TRAILING, "3 bytes after the last of the 1 records"));
	release_games(g, n);
}

/* Every move of every line of `g` is legal where it is played. */
static void assert_replays_legally(const struct xqi_record *g)
{
	for (size_t i = 1; i < g->nnodes; i++) {
		struct xqi_position b;
		xqi_record_board_at(g, g->nodes[i].parent, &b);
		if (!xqi_move_is_legal(&b, g->nodes[i].move))
			fail_msg("game %llu: node %zu is not legal", (unsigned long long)g->number, i);
	}
}

static void compressed_fixture_reads_whole(void **state)
{
	static struct collected c;
	static struct xqi_record g[MAX_GAMES];
	static const char *const first[] = {"h2e2", "h9g7", "h0g2", "b9c7", "i0h0", "i9h9"};
	size_t len;
	char *data = slurp("tests/data/cbr/compressed.cbl", &len);
	uint32_t n_node;
	int n, rc, plies = 0;

	(void)state;
	assert_non_null(data);
	n = read_rec("cbl", data, len, g, &c, &rc);
	if (c.n)
		print_diags(&c);
	assert_int_equal(c.n, 0);
	assert_int_equal(rc, 0);
	assert_int_equal(n, 47); /* as the library header says */
	assert_string_equal(xqi_record_tag(&g[0], "Title"), "让先屏风马破当头直车局  局一");
	assert_string_equal(xqi_record_tag(&g[0], "Red"), "让先屏风马");
	assert_string_equal(xqi_record_tag(&g[0], "Black"), "当头直车");
	assert_string_equal(xqi_record_tag(&g[0], "Author"), "盛昱");
	assert_string_equal(xqi_record_tag(&g[0], "Result"), "0-1");
	assert_string_equal(xqi_record_tag(&g[0], "Library"), "梅花谱");
	assert_string_equal(xqi_record_tag(&g[0], "LibraryCreator"), "桔中秘");
	assert_string_equal(xqi_record_tag(&g[0], "LibraryModified"), "2006-11-25 22:02:58");
	assert_non_null(strstr(xqi_record_tag(&g[0], "LibraryRemark"), "清王再越著"));
	assert_string_equal(xqi_record_tag(&g[46], "Title"), "让先屏风马破士角马局  局五  (变 7)");
	n_node = XQI_ROOT;
	for (size_t i = 0; i < sizeof(first) / sizeof(first[0]); i++) {
		char name[5];
		n_node = g[0].nodes[n_node].child;
		assert_int_not_equal(n_node, XQ_NO_NODE);
		xqi_move_name(g[0].nodes[n_node].move, name);
		assert_string_equal(name, first[i]);
	}
	for (int i = 0; i < n; i++) {
		assert_replays_legally(&g[i]);
		assert_int_equal(g[i].start.side, XQI_RED);
		plies += (int)g[i].nnodes - 1;
	}
	assert_int_equal(xqi_record_mainline_length(&g[0]), 52);
	assert_int_equal(plies, 1970);
	release_games(g, n);
	free(data);
}

static void corpus_compressed_libraries_read_whole(void **state)
{
	static const struct {
		const char *file;
		uint64_t games, plies, variations, comments, black_first;
	} libs[] = {
		/* Counted independently from the inflated bytes: the entries whose index
		 * is not one more than the one before start variations. */
		{"zfdang__chinese-chess-fish-android/棋谱/sample_21_MeiHuaPu.cbl", 47, 1970, 0, 0, 0},
		{"zfdang__chinese-chess-fish-android/app/src/main/assets/XQF/"
		 "象棋残局基础-刘殿中/象棋残局基础.CBL",
		 256, 9415, 447, 1267, 26},
	};

	(void)state;
	SKIP_WITHOUT_SHARED(test_shared_dir());
	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
		static struct collected c;
		static struct xqi_record g;
		const struct xqi_format *f = xqi_format_find("cbl");
		struct xqi_read_opts opts = XQI_READ_OPTS_INIT;
		struct xqi_sink sink = {collect, &c};
		struct xqi_input *in;
		uint64_t games = 0, plies = 0, variations = 0, comments = 0, black_first = 0;
		size_t len;
		char *data = corpus_file(libs[i].file, &len);
		void *r;
		int rc;

		assert_non_null(data);
		memset(&c, 0, sizeof(c));
		assert_int_equal(xqi_input_open_mem(&in, "test", data, len), 0);
		assert_int_equal(f->open_reader(&r, in, &opts, &sink), 0);
		assert_int_equal(xqi_record_init(&g), 0);
		while ((rc = f->read(r, &g)) > 0) {
			struct xqi_record_counts k;
			games++;
			assert_false(g.flags & XQI_RECORD_BROKEN);
			assert_replays_legally(&g);
			xqi_record_count(&g, &k);
			plies += g.nnodes - 1;
			variations += k.variations;
			comments += k.comments;
			black_first += g.start.side == XQI_BLACK;
		}
		assert_int_equal(rc, 0);
		xqi_record_release(&g);
		f->close_reader(r);
		xqi_input_close(in);
		if (c.n)
			print_diags(&c);
		assert_int_equal(c.n, 0);
		assert_int_equal(games, libs[i].games);
		assert_int_equal(plies, libs[i].plies);
		assert_int_equal(variations, libs[i].variations);
		assert_int_equal(comments, libs[i].comments);
		assert_int_equal(black_first, libs[i].black_first);
		fprintf(stderr, "%s: %llu games, %llu plies, %llu variations, %llu comments, %llu "
				"black to move first\n",
			libs[i].file, (unsigned long long)games, (unsigned long long)plies,
			(unsigned long long)variations, (unsigned long long)comments,
			(unsigned long long)black_first);
		free(data);
	}
}

static void fixtures_read(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	struct xqi_record_counts k;
	size_t len;
	char *data;
	int n, rc;

	(void)state;
	data = slurp("tests/data/cbr/test.cbr", &len);
	assert_non_null(data);
	n = read_rec("cbr", data, len, g, &c, &rc);
	assert_int_equal(n, 1);
	xqi_record_count(&g[0], &k);
	assert_int_equal(k.nodes, 102);
	assert_int_equal(k.variations, 11);
	assert_int_equal(k.comments, 13);
	assert_string_equal(xqi_record_tag(&g[0], "Title"), "黄丹青讲座004-破解新式弃马局的攻防要领");
	assert_string_equal(xqi_record_tag(&g[0], "DateCreated"), "2024-08-22 6:45:25");
	assert_string_equal(xqi_record_tag(&g[0], "ECCO"), "C32");
	/* Its one unknown: a second node byte of 1 on a few moves. */
	assert_int_equal(c.n, 1);
	assert_non_null(find_diag(&c, XQI_D_UNSUPPORTED, "flags 0x0401"));
	release_games(g, n);
	free(data);
	data = slurp("tests/data/cbr/test2.cbr", &len);
	assert_non_null(data);
	n = read_rec("cbr", data, len, g, &c, &rc);
	assert_int_equal(n, 1);
	assert_int_equal(c.n, 0);
	assert_string_equal(xqi_record_tag(&g[0], "Title"), "Test");
	release_games(g, n);
	free(data);
}

static void corpus_libraries_read_whole(void **state)
{
	static const struct {
		const char *file;
		int games, notes;
	} libs[] = {
		{"walker8088__cchess/tests/data/1956年全国象棋锦标赛93局.CBL", 93, 0},
		/* Two headings (one with an odd sentinel) and a slot with flags 5. */
		{"walker8088__cchess/tests/data/1989年龙化杯象棋名师邀请赛35局.CBL", 38, 4},
	};

	(void)state;
	SKIP_WITHOUT_SHARED(test_shared_dir());
	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
		static struct collected c;
		static struct xqi_record g[MAX_GAMES];
		size_t len;
		char *data = corpus_file(libs[i].file, &len);
		int n, rc;
		assert_non_null(data);
		n = read_rec("cbl", data, len, g, &c, &rc);
		assert_int_equal(rc, 0);
		assert_int_equal(n, libs[i].games);
		if (c.n != libs[i].notes)
			print_diags(&c);
		assert_int_equal(c.n, libs[i].notes);
		assert_int_equal(count_diags(&c, XQ_SEVERITY_WARNING), 0);
		for (int k = 0; k < n; k++)
			assert_false(g[k].flags & XQI_RECORD_BROKEN);
		assert_string_equal(xqi_record_tag(&g[1], "Library"), i ? "1989年龙化杯象棋名师邀请赛35局"
								      : "1956年全国象棋锦标赛93局");
		release_games(g, n);
		free(data);
	}
}

static void corpus_records_read(void **state)
{
	static const char *const files[] = {
		"walker8088__cchess/tests/data/test.cbr",
		"walker8088__cchess/tests/data/test2.cbr",
		"zfdang__chinese-chess-fish-android/棋谱/sample_23_ccbridge.cbr",
	};

	(void)state;
	SKIP_WITHOUT_SHARED(test_shared_dir());
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		static struct collected c;
		struct xqi_record g[MAX_GAMES];
		size_t len;
		char *data = corpus_file(files[i], &len);
		int n, rc;
		assert_non_null(data);
		n = read_rec("cbr", data, len, g, &c, &rc);
		assert_int_equal(n, 1);
		assert_int_equal(rc, 0);
		for (int k = 0; k < c.n; k++)
			if (c.d[k].severity == XQ_SEVERITY_ERROR && c.d[k].code != XQI_D_ILLEGAL_MOVE)
				fail_msg("%s: %s", files[i], c.d[k].msg);
		release_games(g, n);
		free(data);
	}
}

static void cbr_and_cbf_copies_of_one_game_agree(void **state)
{
	static struct collected c;
	static struct xqi_record a[MAX_GAMES], b[MAX_GAMES];
	struct xqi_record_counts k;
	size_t la, lb;
	char *cbr, *cbf;

	(void)state;
	SKIP_WITHOUT_SHARED(test_shared_dir());
	cbr = corpus_file("zfdang__chinese-chess-fish-android/棋谱/sample_23_ccbridge.cbr", &la);
	cbf = corpus_file("zfdang__chinese-chess-fish-android/棋谱/sample_22_ccbridge.cbf", &lb);
	assert_non_null(cbr);
	assert_non_null(cbf);
	assert_int_equal(read_rec("cbr", cbr, la, a, &c, NULL), 1);
	assert_int_equal(read_rec("cbf", cbf, lb, b, &c, NULL), 1);
	/* A version 1 record: 15,242 moves, the same tree as the CBF export; CCBridge
	 * wrote the comments' line ends as two spaces there, so those differ. */
	xqi_record_count(&a[0], &k);
	assert_int_equal(k.nodes, 15242);
	assert_int_equal(k.variations, 281);
	ASSERT_GAMES_EQUAL(&a[0], &b[0], XQ_EQUAL_IGNORE_COMMENTS | XQ_EQUAL_IGNORE_TAGS);
	assert_string_equal(xqi_record_tag(&a[0], "ECCO"), xqi_record_tag(&b[0], "ECCO"));
	assert_string_equal(xqi_record_tag(&a[0], "Title"), xqi_record_tag(&b[0], "Title"));
	release_games(a, 1);
	release_games(b, 1);
	free(cbr);
	free(cbf);
}

static void probes_recognise_the_magics(void **state)
{
	const struct xqi_format *cbr = xqi_format_find("cbr"), *cbl = xqi_format_find("cbl");
	static const unsigned char rec[] = "CCBridge Record\0\0\0\0\2";
	static const unsigned char lib[] = "CCBridgeLibrary\0";
	static const unsigned char zc[] = "CCBridge\x15\0\0\0\1\0\0\0";

	(void)state;
	assert_int_equal(cbr->probe(rec, 20), 100);
	assert_int_equal(cbl->probe(lib, 16), 100);
	assert_int_equal(cbl->probe(zc, 12), 100);
	assert_int_equal(cbr->probe(lib, 16), 0);
	assert_ptr_equal(xqi_format_detect(rec, 20, "x.dat"), cbr);
	assert_ptr_equal(xqi_format_detect(lib, 16, NULL), cbl);
	/* Both are written too (test_cbr_write.c), each to its own extension. */
	assert_ptr_equal(xqi_format_for_extension("x.cbr"), cbr);
	assert_ptr_equal(xqi_format_for_extension("x.CBL"), cbl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(version_2_record_reads_fields_board_and_tree),
		cmocka_unit_test(bytes_after_a_record_are_read_no_further_than_16_mib),
		cmocka_unit_test(library_holding_no_record_for_16_mib_is_read_no_further),
		cmocka_unit_test(version_1_record_has_its_own_offsets_and_squares),
		cmocka_unit_test(side_to_move_and_first_move_number_are_read),
		cmocka_unit_test(illegal_move_is_reported_at_its_byte_offset),
		cmocka_unit_test(illegal_move_in_a_variation_cuts_that_variation_only),
		cmocka_unit_test(damaged_records_are_reported),
		cmocka_unit_test(unknown_versions_and_bits_are_said_not_guessed),
		cmocka_unit_test(empty_board_record_is_a_heading),
		cmocka_unit_test(library_records_are_read_with_the_library_fields),
		cmocka_unit_test(library_index_disagreements_are_noted_not_acted_on),
		cmocka_unit_test(compressed_library_reads_tags_moves_comments_and_variations),
		cmocka_unit_test(variation_index_hangs_off_the_line_just_read),
		cmocka_unit_test(illegal_move_offset_is_a_file_offset_when_stored_and_inflated_otherwise),
		cmocka_unit_test(move_text_that_does_not_name_the_move_is_noted),
		cmocka_unit_test(damaged_or_cut_streams_are_reported_with_offsets),
		cmocka_unit_test(records_that_do_not_fit_are_reported),
		cmocka_unit_test(record_over_its_limit_is_refused_without_reading_on),
		cmocka_unit_test(compressed_fixture_reads_whole),
		cmocka_unit_test(fixtures_read),
		cmocka_unit_test(corpus_libraries_read_whole),
		cmocka_unit_test(corpus_records_read),
		cmocka_unit_test(corpus_compressed_libraries_read_whole),
		cmocka_unit_test(cbr_and_cbf_copies_of_one_game_agree),
		cmocka_unit_test(probes_recognise_the_magics),
	};
	return cmocka_run_group_tests_name("cbr", tests, NULL, NULL);
}
