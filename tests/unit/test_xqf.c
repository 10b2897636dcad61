/*
 * test_xqf.c: the XQF reader and writer: key derivation, every version,
 * the start position and side to move, the tree with variations and
 * comments, damage of every kind, the writer's losses, and the whole
 * shared corpus (../shared/corpus/xqf) against the independent decoder's
 * DETAILS.tsv, the ICCS twins of PAIRS.tsv and a round trip through both
 * written versions.
 */
#include "testutil.h"

#include "position.h"
#include "buf.h"
#include "diagnostic.h"
#include "format.h"
#include "record.h"
#include "io.h"
#include "movegen.h"
#include "text.h"
#include "utf8.h"
#include "xqf.h"

/* ---- helpers ---------------------------------------------------------- */

#define MAX_DIAGS 64

struct diags {
	struct xq_diagnostic d[MAX_DIAGS];
	int n;     /* kept in d[] */
	int total; /* all reported */
};

static void collect(const struct xq_diagnostic *d, void *payload)
{
	struct diags *ds = payload;

	if (ds->n < MAX_DIAGS)
		ds->d[ds->n++] = *d;
	ds->total++;
}

/* The first diagnostic with `code`, or NULL. */
static const struct xq_diagnostic *find_diag(const struct diags *ds, enum xqi_diagnostic_code code)
{
	for (int i = 0; i < ds->n; i++)
		if (ds->d[i].code == code)
			return &ds->d[i];
	return NULL;
}

/* The first diagnostic with `code`, which must exist and have severity `sev`. */
static const struct xq_diagnostic *expect_diag(const struct diags *ds, enum xqi_diagnostic_code code,
					 enum xq_severity_level sev)
{
	const struct xq_diagnostic *d = find_diag(ds, code);

	if (!d)
		fail_msg("no %s diagnostic", xqi_diagnostic_code_name(code));
	assert_int_equal(d->severity, sev);
	return d;
}

/* Does diagnostic `d` exist and say `needle`? */
static int has(const struct xq_diagnostic *d, const char *needle)
{
	return d && strstr(d->msg, needle) != NULL;
}

static int count_diags(const struct diags *ds, enum xqi_diagnostic_code code)
{
	int k = 0;

	for (int i = 0; i < ds->n; i++)
		k += ds->d[i].code == code;
	return k;
}

static int worst_severity(const struct diags *ds)
{
	int w = -1;

	for (int i = 0; i < ds->n; i++)
		if ((int)ds->d[i].severity > w)
			w = (int)ds->d[i].severity;
	return w;
}

static xqi_move mv(const char *iccs)
{
	return XQI_MOVE(XQI_SQ(iccs[0] - 'a', iccs[1] - '0'), XQI_SQ(iccs[2] - 'a', iccs[3] - '0'));
}

static int load_file(const char *path, struct xq_buf *out)
{
	FILE *f = fopen(path, "rb");
	char chunk[65536];
	size_t n;

	if (!f)
		return -1;
	xq_buf_reset(out);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		xq_buf_add(out, chunk, n);
	fclose(f);
	return 0;
}

/* Read `len` bytes of XQF into `g` (initialised here), diagnostics to `ds`. */
static int read_xqf(struct xqi_record *g, const void *data, size_t len, struct diags *ds,
		    struct xqi_xqf_stats *st)
{
	struct xqi_sink sink = {collect, ds};

	memset(ds, 0, sizeof(*ds));
	assert_int_equal(xqi_record_init(g), 0);
	return xqi_xqf_read_mem(g, data, len, NULL, &sink, "test.xqf", st);
}

static int read_fixture(struct xqi_record *g, const char *name, struct diags *ds,
			struct xqi_xqf_stats *st)
{
	struct xq_buf b = XQ_BUF_INIT;
	char path[256];
	int rc;

	snprintf(path, sizeof(path), "tests/data/xqf/%s", name);
	assert_int_equal(load_file(path, &b), 0);
	rc = read_xqf(g, b.ptr, b.len, ds, st);
	xq_buf_release(&b);
	return rc;
}

/* Write `g` as XQF `version` (0 = default) into `out`; diagnostics to `ds`. */
static int write_xqf(const struct xqi_record *g, int version, enum xqi_encoding enc,
		     struct xq_buf *out, struct diags *ds)
{
	struct xq_file *o;
	struct xqi_write_opts wo = XQI_WRITE_OPTS_INIT;
	struct xqi_sink sink = {collect, ds};
	void *w;
	int rc;

	memset(ds, 0, sizeof(*ds));
	xq_buf_reset(out);
	assert_int_equal(xqi_file_open_mem(&o, out), 0);
	wo.version = version;
	wo.encoding = enc;
	rc = xqi_format_xqf.open_writer(&w, o, &wo, &sink);
	if (rc) {
		xqi_file_abort(o);
		return rc;
	}
	rc = xqi_format_xqf.write(w, g);
	assert_int_equal(xqi_format_xqf.close_writer(w), 0);
	assert_int_equal(xqi_file_commit(o, NULL), 0);
	return rc;
}

static void start_placement(const struct xqi_record *g, char *out, size_t cap)
{
	char fen[XQ_FEN_SIZE];

	xqi_position_to_fen(&g->start, fen, sizeof(fen));
	*strchr(fen, ' ') = '\0';
	snprintf(out, cap, "%s", fen);
}

static void mainline(const struct xqi_record *g, char *out, size_t cap)
{
	size_t len = 0;

	out[0] = '\0';
	for (uint32_t n = g->nodes[XQI_ROOT].child; n != XQ_NO_NODE; n = g->nodes[n].child) {
		char name[5];
		xqi_move_name(g->nodes[n].move, name);
		len += (size_t)snprintf(out + len, len < cap ? cap - len : 0, "%s%s", len ? " " : "",
					name);
	}
}

/*
 * A hand-built XQF file: version 0x0A (plain) or 0x12 with all key bytes
 * zero (piece array rotated by one, comment lengths plus 767, 4-byte
 * records with flags 0x80/0x40/0x20).
 */
struct builder {
	unsigned char d[1 << 16];
	size_t len;
	int version;
};

/* Piece squares as x*10+y per slot, 0xFF = absent (XQF 1.0 start order). */
static const uint8_t standard_slots[32] = {
	80, 70, 60, 50, 40, 30, 20, 10, 0,  72, 12, 83, 63, 43, 23, 3,
	9,  19, 29, 39, 49, 59, 69, 79, 89, 17, 77, 6,  26, 46, 66, 86,
};

/* Slots with the two kings only (squares as x*10+y); callers add pieces. */
static void kings_only(uint8_t slots[32], int red_king, int black_king)
{
	memset(slots, 0xFF, 32);
	slots[4] = (uint8_t)red_king;
	slots[20] = (uint8_t)black_king;
}

static void b_init(struct builder *b, int version, const uint8_t slots[32], int who)
{
	memset(b, 0, sizeof(*b));
	b->version = version;
	b->d[0] = 'X';
	b->d[1] = 'Q';
	b->d[2] = (unsigned char)version;
	for (int i = 0; i < 32; i++)
		b->d[0x10 + i] = version >= 0x0C ? slots[(i + 1) % 32] : slots[i];
	b->d[0x32] = (unsigned char)who;
	b->len = 1024;
}

static void b_u32(struct builder *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b->d[b->len++] = (unsigned char)(v >> (8 * i));
}

/* A record: "root" or an ICCS move; raw square bytes when `from`/`to` >= 0. */
static void b_rec_raw(struct builder *b, int from, int to, int cont, int sib, const char *comment,
		      unsigned junk)
{
	size_t clen = comment ? strlen(comment) : 0;

	b->d[b->len++] = (unsigned char)(from + 0x18);
	b->d[b->len++] = (unsigned char)(to + 0x20);
	if (b->version <= 0x0A) {
		b->d[b->len++] = (unsigned char)((cont ? 0xF0 : 0) | (sib ? 0x0F : 0));
		b->d[b->len++] = 0;
		b_u32(b, (uint32_t)clen);
	} else {
		b->d[b->len++] = (unsigned char)((cont ? 0x80 : 0) | (sib ? 0x40 : 0) |
						 (clen ? 0x20 : 0) | (junk & 0x1F));
		b->d[b->len++] = 0;
		if (clen)
			b_u32(b, (uint32_t)(clen + 767));
	}
	memcpy(b->d + b->len, comment ? comment : "", clen);
	b->len += clen;
}

static int sqbyte(const char *s)
{
	return (s[0] - 'a') * 10 + (s[1] - '0');
}

static void b_move(struct builder *b, const char *iccs, int cont, int sib, const char *comment)
{
	b_rec_raw(b, sqbyte(iccs), sqbyte(iccs + 2), cont, sib, comment, 0);
}

static void b_root(struct builder *b, int cont, const char *comment)
{
	b_rec_raw(b, 0, 0, cont, 0, comment, 0);
}

/* ---- keys and versions ----------------------------------------------- */

static void key_derivation_matches_the_sample_test_vector(void **state)
{
	static const uint8_t h[16] = {0x58, 0x51, 0x12, 0xbe, 0x00, 0x00, 0x00, 0x00,
				      0xe8, 0xd8, 0xbc, 0x84, 0xa5, 0x9c, 0xe7, 0xd8};
	static const uint8_t f32[32] = {0x48, 0x08, 0x02, 0x08, 0x20, 0x40, 0x2e, 0x10,
					0x68, 0x50, 0x28, 0x04, 0x68, 0x54, 0x20, 0x0c,
					0x60, 0x0c, 0x20, 0x04, 0x6c, 0x4c, 0x26, 0x00,
					0x40, 0x48, 0x28, 0x14, 0x64, 0x48, 0x2e, 0x1c};
	struct xqi_xqf_keys k;

	(void)state;
	xqi_xqf_keys_derive(&k, h);
	assert_int_equal(k.xy, 44);
	assert_int_equal(k.xyf, 196);
	assert_int_equal(k.xyt, 52);
	assert_int_equal(k.rmk_size, 11163);
	assert_memory_equal(k.f32, f32, 32);
}

static void plain_versions_have_no_keys_whatever_the_key_bytes(void **state)
{
	static const uint8_t h[16] = {0x58, 0x51, 0x0A, 0xbe, 0, 0, 0, 0,
				      0xe8, 0xd8, 0xbc, 0x84, 0xa5, 0x9c, 0xe7, 0xd8};
	struct xqi_xqf_keys k, zero;

	(void)state;
	memset(&zero, 0, sizeof(zero));
	xqi_xqf_keys_derive(&k, h);
	assert_memory_equal(&k, &zero, sizeof(k));
}

static void sample_decrypts_to_its_handicap_position_tags_and_main_line(void **state)
{
	struct xqi_record g;
	struct diags ds;
	struct xqi_xqf_stats st;
	char fen[XQ_FEN_SIZE], line[2048];

	(void)state;
	assert_int_equal(read_fixture(&g, "sample-v12.xqf", &ds, &st), 0);
	assert_int_equal(ds.n, 0);
	assert_int_equal(st.version, 0x12);
	start_placement(&g, fen, sizeof(fen));
	assert_string_equal(fen, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR");
	assert_int_equal(g.start.side, XQI_RED);
	mainline(&g, line, sizeof(line));
	assert_true(!strncmp(line, "b2e2 h7e7 e2e7 g9e7 h2e2 h9g7 h0g2 i9h9 b0c2 b9a7 a0d0 a9b9",
			     strlen("b2e2 h7e7 e2e7 g9e7 h2e2 h9g7 h0g2 i9h9 b0c2 b9a7 a0d0 a9b9")));
	assert_string_equal(xqi_record_tag(&g, "Event"), "许银川让九子对聂棋圣");
	assert_string_equal(xqi_record_tag(&g, "Red"), "许银川");
	assert_string_equal(xqi_record_tag(&g, "Black"), "聂卫平");
	assert_string_equal(xqi_record_tag(&g, "Date"), "1999.12.09");
	assert_string_equal(xqi_record_tag(&g, "Site"), "广州");
	assert_string_equal(xqi_record_tag(&g, "Result"), "1-0");
	assert_string_equal(xqi_record_tag(&g, "GameType"), "中局");
	assert_int_equal(g.result, XQI_RESULT_RED_WIN);
	/* The root record's comment is the game comment, one CRLF stripped, CRLF as LF. */
	assert_non_null(g.nodes[XQI_ROOT].comment);
	assert_true(!strncmp(g.nodes[XQI_ROOT].comment, "　　象棋让九子", strlen("　　象棋让九子")));
	assert_null(strstr(g.nodes[XQI_ROOT].comment, "\r"));
	assert_non_null(strstr(g.nodes[XQI_ROOT].comment, "\n　　许银川让去５只兵"));
	assert_int_equal(st.records, 75);
	xqi_record_release(&g);
}

static void version_0x0b_is_not_rotated_and_0x0c_is(void **state)
{
	struct xqi_record g;
	struct diags ds;
	struct xqi_xqf_stats st;
	char fen[XQ_FEN_SIZE];

	(void)state;
	assert_int_equal(read_fixture(&g, "unrotated-v0b.xqf", &ds, &st), 0);
	assert_int_equal(st.version, 0x0B);
	assert_int_equal(ds.n, 0);
	start_placement(&g, fen, sizeof(fen));
	assert_string_equal(fen, "3k5/4CP3/9/9/5R3/4r4/9/9/6pp1/5K3");
	assert_int_equal(st.records, 21);
	assert_false(g.flags & XQI_RECORD_BROKEN);
	xqi_record_release(&g);

	assert_int_equal(read_fixture(&g, "rotated-v0c.xqf", &ds, &st), 0);
	assert_int_equal(st.version, 0x0C);
	assert_int_equal(ds.n, 0);
	start_placement(&g, fen, sizeof(fen));
	assert_string_equal(fen, "9/5k3/3a5/9/9/9/9/4R3C/4K4/5r3");
	assert_false(g.flags & XQI_RECORD_BROKEN);
	xqi_record_release(&g);
}

static void version_above_0x12_is_refused_unless_asked(void **state)
{
	struct builder b;
	struct xqi_record g;
	struct diags ds;
	struct xqi_sink sink = {collect, &ds};
	struct xqi_read_opts opts = XQI_READ_OPTS_INIT;
	const struct xq_diagnostic *d;

	(void)state;
	b_init(&b, 0x12, standard_slots, 0);
	b.d[2] = 0x13;
	b_root(&b, 1, NULL);
	b_move(&b, "h2e2", 0, 0, NULL);
	assert_int_equal(read_xqf(&g, b.d, b.len, &ds, NULL), XQ_EUNSUPPORTED);
	d = expect_diag(&ds, XQI_D_UNSUPPORTED, XQ_SEVERITY_ERROR);
	assert_true(has(d, "0x13"));
	assert_int_equal(d->place.offset, 2);

	memset(&ds, 0, sizeof(ds));
	opts.flags = XQI_XQF_TRY_NEWER;
	assert_int_equal(xqi_xqf_read_mem(&g, b.d, b.len, &opts, &sink, "t", NULL), 0);
	expect_diag(&ds, XQI_D_UNSUPPORTED, XQ_SEVERITY_WARNING);
	assert_int_equal(g.nnodes, 2);
	xqi_record_release(&g);
}

/* ---- start position and side to move --------------------------------- */

/* Read a fixture in which black moves first though the header says red. */
static void read_black_to_move(struct xqi_record *g, const char *name, struct diags *ds)
{
	const struct xq_diagnostic *d;

	assert_int_equal(read_fixture(g, name, ds, NULL), 0);
	assert_int_equal(g->start.side, XQI_BLACK);
	d = expect_diag(ds, XQI_D_SIDE_TO_MOVE, XQ_SEVERITY_NOTE);
	assert_int_equal(d->place.offset, 0x32);
}

static void first_move_decides_the_side_to_move_with_a_note(void **state)
{
	struct xqi_record g;
	struct diags ds;

	(void)state;
	read_black_to_move(&g, "black-moves-first-v0a.xqf", &ds);
	assert_int_equal(worst_severity(&ds), XQ_SEVERITY_NOTE);
	assert_false(g.flags & XQI_RECORD_BROKEN);
	xqi_record_release(&g);
}

static void game_type_byte_does_not_hide_the_piece_array(void **state)
{
	uint8_t slots[32];
	struct builder b;
	struct xqi_record g;
	struct diags ds;
	char fen[XQ_FEN_SIZE];

	(void)state;
	memcpy(slots, standard_slots, sizeof(slots));
	slots[0] = slots[8] = 0xFF; /* red rooks given as a handicap, type still 0 (full game) */
	b_init(&b, 0x0A, slots, 0);
	b_root(&b, 0, NULL);
	assert_int_equal(read_xqf(&g, b.d, b.len, &ds, NULL), 0);
	start_placement(&g, fen, sizeof(fen));
	assert_string_equal(fen, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABN1");
	assert_string_equal(xqi_record_tag(&g, "GameType"), "全局");
	assert_true(g.flags & XQI_RECORD_EMPTY);
	xqi_record_release(&g);
}

static void composed_position_with_an_advisor_off_its_points_loads_with_a_note(void **state)
{
	uint8_t slots[32];
	struct builder b;
	struct xqi_record g;
	struct diags ds;
	const struct xq_diagnostic *d;

	(void)state;
	kings_only(slots, 40, 39); /* red king e0, black king d9 */
	slots[3] = 22;  /* red advisor on c2: no advisor ever stands there */
	slots[0] = 87;  /* red rook i7 */
	b_init(&b, 0x0A, slots, 0);
	b_root(&b, 1, NULL);
	b_move(&b, "i7i9", 0, 0, NULL);
	assert_int_equal(read_xqf(&g, b.d, b.len, &ds, NULL), 0);
	d = expect_diag(&ds, XQI_D_BAD_FEN, XQ_SEVERITY_NOTE);
	assert_true(has(d, "advisor on c2"));
	assert_int_equal(g.nnodes, 2);
	xqi_record_release(&g);
}

static void kings_facing_each_other_keep_the_header_and_lose_the_tree(void **state)
{
	uint8_t slots[32];
	struct builder b;
	struct xqi_record g;
	struct diags ds;
	struct xqi_xqf_stats st;
	const struct xq_diagnostic *d;

	(void)state;
	kings_only(slots, 40, 49); /* red king e0, black king e9: an open file */
	slots[0] = 87; /* red rook i7 */
	b_init(&b, 0x0A, slots, 0);
	memcpy(b.d + 0x131, "Event", 5);
	b.d[0x130] = 5;
	b_root(&b, 1, "the game comment");
	b_move(&b, "i7i9", 0, 0, NULL);
	assert_int_equal(read_xqf(&g, b.d, b.len, &ds, &st), 0);
	d = expect_diag(&ds, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR);
	assert_true(has(d, "face each other"));
	assert_true(has(d, "1 move record not kept"));
	assert_true(g.flags & XQI_RECORD_BROKEN);
	assert_int_equal(g.nnodes, 1);
	assert_int_equal(st.records, 1);
	assert_string_equal(g.nodes[XQI_ROOT].comment, "the game comment");
	assert_string_equal(xqi_record_tag(&g, "Red"), "Event");
	xqi_record_release(&g);
}

static void position_possible_only_for_the_other_side_gets_it_and_refuses_the_move(void **state)
{
	uint8_t slots[32];
	struct builder b;
	struct xqi_record g;
	struct diags ds;
	const struct xq_diagnostic *d;

	(void)state;
	kings_only(slots, 40, 39); /* red king e0, black king d9 */
	slots[0] = 35;  /* red rook d5, checking */
	b_init(&b, 0x0A, slots, 0);
	b_root(&b, 1, NULL);
	b_move(&b, "d5d6", 0, 0, NULL); /* red's move, but black must move */
	assert_int_equal(read_xqf(&g, b.d, b.len, &ds, NULL), 0);
	assert_int_equal(g.start.side, XQI_BLACK);
	assert_true(has(expect_diag(&ds, XQI_D_SIDE_TO_MOVE, XQ_SEVERITY_NOTE), "so black moves"));
	d = expect_diag(&ds, XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_ERROR);
	assert_true(has(d, "is red's, but black is to move"));
	assert_true(g.flags & XQI_RECORD_BROKEN);
	assert_int_equal(g.nnodes, 1);
	xqi_record_release(&g);
}

static void mate_diagram_takes_the_mated_side_to_move(void **state)
{
	struct xqi_record g;
	struct diags ds;

	(void)state;
	read_black_to_move(&g, "mate-diagram-v12.xqf", &ds);
	assert_true(g.flags & XQI_RECORD_EMPTY);
	assert_int_equal(xqi_position_status(&g.start), XQ_STATE_CHECKMATE);
	xqi_record_release(&g);
}

static void diagram_with_both_kings_in_check_is_kept_but_broken(void **state)
{
	struct xqi_record g;
	struct diags ds;
	const struct xq_diagnostic *d;
	char fen[XQ_FEN_SIZE];

	(void)state;
	assert_int_equal(read_fixture(&g, "both-in-check-diagram-v12.xqf", &ds, NULL), 0);
	d = expect_diag(&ds, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR);
	assert_true(has(d, "cannot occur"));
	assert_true(g.flags & XQI_RECORD_BROKEN);
	start_placement(&g, fen, sizeof(fen));
	assert_string_equal(fen, "5ab2/4a4/1R1kb4/2N6/9/6B2/6n2/5K2B/4Ar3/3A5");
	xqi_record_release(&g);
}

/* ---- the tree ------------------------------------------------------- */

static void three_alternatives_to_the_first_move_are_variations(void **state)
{
	struct builder b;
	struct xqi_record g;
	struct diags ds;
	struct xqi_record_counts c;
	uint32_t first, second, third;

	(void)state;
	b_init(&b, 0x12, standard_slots, 0);
	b_root(&b, 1, "game comment\r\n");
	b_move(&b, "h2e2", 1, 1, NULL);
	b_move(&b, "h9g7", 0, 0, "main\r\n");
	b_move(&b, "c3c4", 1, 1, NULL);
	b_move(&b, "c6c5", 0, 0, NULL);
	b_move(&b, "b0c2", 0, 0, "third\r\n");
	assert_int_equal(read_xqf(&g, b.d, b.len, &ds, NULL), 0);
	assert_int_equal(ds.n, 0);
	xqi_record_count(&g, &c);
	assert_int_equal(c.nodes, 5);
	assert_int_equal(c.variations, 2);
	first = g.nodes[XQI_ROOT].child;
	second = g.nodes[first].sibling;
	third = g.nodes[second].sibling;
	assert_int_equal(g.nodes[first].move, mv("h2e2"));
	assert_int_equal(g.nodes[second].move, mv("c3c4"));
	assert_int_equal(g.nodes[third].move, mv("b0c2"));
	assert_int_equal(g.nodes[g.nodes[second].child].move, mv("c6c5"));
	assert_string_equal(g.nodes[third].comment, "third");
	assert_string_equal(g.nodes[g.nodes[first].child].comment, "main");
	assert_string_equal(g.nodes[XQI_ROOT].comment, "game comment");
	xqi_record_release(&g);
}

static void first_move_variations_of_a_real_file_are_kept(void **state)
{
	struct xqi_record g;
	struct diags ds;
	struct xqi_xqf_stats st;
	struct xqi_record_counts c;

	(void)state;
	assert_int_equal(read_fixture(&g, "first-move-variations-v12.xqf", &ds, &st), 0);
	assert_int_equal(ds.n, 0);
	xqi_record_count(&g, &c);
	assert_int_equal(c.nodes, 24);
	assert_int_equal(c.variations, 4);
	assert_int_equal(st.records, 24);
	xqi_record_release(&g);
}

static void low_flag_bits_of_encrypted_records_are_junk(void **state)
{
	struct builder b;
	struct xqi_record g;
	struct diags ds;

	(void)state;
	b_init(&b, 0x12, standard_slots, 0);
	b_rec_raw(&b, 0, 0, 1, 0, NULL, 0x1F);
	b_rec_raw(&b, sqbyte("h2"), sqbyte("e2"), 1, 0, NULL, 0x15);
	b_rec_raw(&b, sqbyte("h9"), sqbyte("g7"), 0, 0, "x", 0x0A);
	assert_int_equal(read_xqf(&g, b.d, b.len, &ds, NULL), 0);
	assert_int_equal(ds.n, 0);
	assert_int_equal(g.nnodes, 3);
	assert_string_equal(g.nodes[2].comment, "x");
	xqi_record_release(&g);
}

static void comments_lose_one_trailing_crlf_and_crlf_becomes_lf(void **state)
{
	struct builder b;
	struct xqi_record g;
	struct diags ds;

	(void)state;
	b_init(&b, 0x0A, standard_slots, 0);
	b_root(&b, 1, "\r\n");
	b_move(&b, "h2e2", 1, 0, "line one\r\nline two\r\n\r\n");
	b_move(&b, "h9g7", 0, 0, "no crlf\rat all");
	assert_int_equal(read_xqf(&g, b.d, b.len, &ds, NULL), 0);
	assert_null(g.nodes[XQI_ROOT].comment); /* a bare CRLF is no comment */
	assert_string_equal(g.nodes[1].comment, "line one\nline two\n");
	assert_string_equal(g.nodes[2].comment, "no crlf\rat all");
	xqi_record_release(&g);
}

static void deep_line_of_200000_plies_reads_and_writes_without_recursion(void **state)
{
	static const char *const cycle[4] = {"h0g2", "h9g7", "g2h0", "g7h9"};
	struct xqi_record g, back;
	struct diags ds;
	struct xq_buf out = XQ_BUF_INIT;
	uint32_t n = XQI_ROOT;
	struct xqi_record_counts c;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	for (int i = 0; i < 200000; i++)
		assert_int_equal(xqi_record_add_move(&g, n, mv(cycle[i % 4]), &n), 0);
	assert_int_equal(write_xqf(&g, 0, XQI_ENC_UNKNOWN, &out, &ds), 0);
	assert_int_equal(out.len, 1024 + 8 * 200001);
	assert_int_equal(read_xqf(&back, out.ptr, out.len, &ds, NULL), 0);
	assert_int_equal(ds.n, 0);
	xqi_record_count(&back, &c);
	assert_int_equal(c.nodes, 200000);
	assert_int_equal(c.max_depth, 200000);
	assert_true(xqi_record_equal(&g, &back, XQ_EQUAL_IGNORE_TAGS | XQ_EQUAL_IGNORE_RESULT, NULL, 0));
	xqi_record_release(&g);
	xqi_record_release(&back);
	xq_buf_release(&out);
}

/* ---- damage ------------------------------------------------------------ */

static void bad_magic_is_refused(void **state)
{
	static const char text[] = "[Event \"not xqf\"]\n";
	struct xqi_record g;
	struct diags ds;

	(void)state;
	assert_int_equal(read_xqf(&g, text, sizeof(text) - 1, &ds, NULL), XQ_EPARSE);
	assert_int_equal(ds.n, 1);
	assert_int_equal(ds.d[0].code, XQI_D_BAD_MAGIC);
	assert_true(ds.d[0].has_offset);
	assert_int_equal(ds.d[0].place.offset, 0);
	xqi_record_release(&g);
}

static void cut_header_is_refused_with_its_length(void **state)
{
	struct builder b;
	struct xqi_record g;
	struct diags ds;

	(void)state;
	b_init(&b, 0x0A, standard_slots, 0);
	assert_int_equal(read_xqf(&g, b.d, 700, &ds, NULL), XQ_ETRUNCATED);
	assert_int_equal(ds.d[0].code, XQI_D_TRUNCATED);
	assert_int_equal(ds.d[0].place.offset, 700);
	assert_true(has(&ds.d[0], "700 of its 1024 bytes"));
	xqi_record_release(&g);
}

static void header_without_a_root_record_is_an_empty_broken_game(void **state)
{
	struct builder b;
	struct xqi_record g;
	struct diags ds;

	(void)state;
	b_init(&b, 0x0A, standard_slots, 0);
	memcpy(b.d + 0x131, "Red", 3);
	b.d[0x130] = 3;
	assert_int_equal(read_xqf(&g, b.d, b.len, &ds, NULL), 0);
	assert_true(g.flags & XQI_RECORD_BROKEN);
	assert_true(g.flags & XQI_RECORD_EMPTY);
	assert_string_equal(xqi_record_tag(&g, "Red"), "Red");
	assert_int_equal(ds.d[0].code, XQI_D_TRUNCATED);
	assert_int_equal(ds.d[0].place.offset, 1024);
	xqi_record_release(&g);
}

static void cut_record_keeps_the_moves_before_it(void **state)
{
	struct builder b;
	struct xqi_record g;
	struct diags ds;
	const struct xq_diagnostic *d;
	size_t third;

	(void)state;
	b_init(&b, 0x0A, standard_slots, 0);
	b_root(&b, 1, NULL);
	b_move(&b, "h2e2", 1, 0, NULL);
	b_move(&b, "h9g7", 1, 0, NULL);
	third = b.len;
	b_move(&b, "h0g2", 0, 0, NULL);
	assert_int_equal(read_xqf(&g, b.d, third + 5, &ds, NULL), 0);
	assert_true(g.flags & XQI_RECORD_BROKEN);
	assert_int_equal(g.nnodes, 3);
	d = expect_diag(&ds, XQI_D_TRUNCATED, XQ_SEVERITY_ERROR);
	assert_int_equal(d->place.offset, third);
	assert_int_equal(d->ply, 3);
	xqi_record_release(&g);
}

static void comment_length_past_the_end_keeps_the_move_and_stops(void **state)
{
	struct builder b;
	struct xqi_record g;
	struct diags ds;
	const struct xq_diagnostic *d;
	size_t second;

	(void)state;
	b_init(&b, 0x0A, standard_slots, 0);
	b_root(&b, 1, NULL);
	b_move(&b, "h2e2", 1, 0, NULL);
	second = b.len;
	b_move(&b, "h9g7", 1, 0, "a comment");
	b_move(&b, "h0g2", 0, 0, NULL);
	b.d[second + 4] = 0xF0; /* length 240: past the end */
	assert_int_equal(read_xqf(&g, b.d, b.len, &ds, NULL), 0);
	assert_true(g.flags & XQI_RECORD_BROKEN);
	assert_int_equal(g.nnodes, 3);
	assert_null(g.nodes[2].comment);
	d = expect_diag(&ds, XQI_D_TRUNCATED, XQ_SEVERITY_ERROR);
	assert_int_equal(d->place.offset, second + 4);
	assert_int_equal(d->ply, 2);
	assert_true(has(d, "past the end"));
	xqi_record_release(&g);
}

static void negative_comment_length_in_an_encrypted_file_is_corrupt(void **state)
{
	struct builder b;
	struct xqi_record g;
	struct diags ds;
	const struct xq_diagnostic *d;

	(void)state;
	b_init(&b, 0x12, standard_slots, 0);
	b_root(&b, 1, NULL);
	b_rec_raw(&b, sqbyte("h2"), sqbyte("e2"), 1, 0, "abc", 0);
	b.d[1024 + 4 + 4] = 5; /* stored 5 + ... = below KeyRMKSize (767) */
	b.d[1024 + 4 + 5] = 0;
	assert_int_equal(read_xqf(&g, b.d, b.len, &ds, NULL), 0);
	d = expect_diag(&ds, XQI_D_CORRUPT, XQ_SEVERITY_ERROR);
	assert_int_equal(d->place.offset, 1024 + 8);
	assert_true(has(d, "negative"));
	assert_true(g.flags & XQI_RECORD_BROKEN);
	assert_int_equal(g.nnodes, 2);
	xqi_record_release(&g);
}

static void square_off_the_board_skips_its_subtree(void **state)
{
	struct builder b;
	struct xqi_record g;
	struct diags ds;
	struct xqi_xqf_stats st;
	const struct xq_diagnostic *d;
	size_t bad;

	(void)state;
	b_init(&b, 0x0A, standard_slots, 0);
	b_root(&b, 1, NULL);
	bad = b.len;
	b_rec_raw(&b, 95, 42, 1, 1, NULL, 0); /* square byte 95 is not x*10+y */
	b_move(&b, "h9g7", 0, 0, NULL);
	b_move(&b, "h2e2", 0, 0, NULL);
	assert_int_equal(read_xqf(&g, b.d, b.len, &ds, &st), 0);
	assert_true(g.flags & XQI_RECORD_BROKEN);
	d = expect_diag(&ds, XQI_D_CORRUPT, XQ_SEVERITY_ERROR);
	assert_int_equal(d->place.offset, bad);
	assert_int_equal(d->ply, 1);
	assert_true(has(d, "from byte 95"));
	/* On the main line: the game stops there. */
	assert_true(has(d, "the main line stops here: 2 moves not kept"));
	assert_int_equal(g.nnodes, 2); /* the sibling h2e2 is kept */
	assert_int_equal(g.nodes[1].move, mv("h2e2"));
	assert_int_equal(st.lost, 2);
	xqi_record_release(&g);
}

static void move_with_no_piece_on_its_square_skips_its_subtree_and_keeps_siblings(void **state)
{
	struct builder b;
	struct xqi_record g;
	struct diags ds;
	struct xqi_xqf_stats st;
	const struct xq_diagnostic *d;
	size_t bad;
	char line[256];

	(void)state;
	b_init(&b, 0x12, standard_slots, 0);
	b_root(&b, 1, NULL);
	b_move(&b, "h2e2", 1, 0, NULL);
	b_move(&b, "h9g7", 1, 0, NULL);
	b_move(&b, "h0g2", 1, 1, NULL); /* main line */
	b_move(&b, "i9h9", 0, 0, NULL);
	bad = b.len;
	b_move(&b, "e4e5", 1, 1, "lost"); /* no piece on e4: alternative to h0g2 */
	b_move(&b, "i9h9", 1, 0, NULL);
	b_move(&b, "i0h0", 0, 0, NULL);
	b_move(&b, "b0c2", 0, 0, "kept"); /* next alternative, read on */
	assert_int_equal(read_xqf(&g, b.d, b.len, &ds, &st), 0);
	/* In a variation: that variation is cut, the game is whole. */
	assert_false(g.flags & XQI_RECORD_BROKEN);
	assert_true(g.flags & XQI_RECORD_CUT);
	assert_int_equal(count_diags(&ds, XQI_D_ILLEGAL_MOVE), 1);
	d = expect_diag(&ds, XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_ERROR);
	assert_int_equal(d->place.offset, bad);
	assert_int_equal(d->ply, 3);
	assert_string_equal(d->move, "e4e5");
	assert_int_equal(d->game, 1);
	assert_true(has(d, "after h2e2 h9g7"));
	assert_true(has(d, "there is no piece on e4"));
	assert_true(has(d, "the variation is cut here: 3 moves not kept (this one and the 2 after it)"));
	assert_int_equal(st.records, 8);
	assert_int_equal(st.lost, 3);
	mainline(&g, line, sizeof(line));
	assert_string_equal(line, "h2e2 h9g7 h0g2 i9h9");
	assert_int_equal(g.nnodes, 6);
	assert_string_equal(g.nodes[5].comment, "kept");
	assert_int_equal(g.nodes[5].move, mv("b0c2"));
	xqi_record_release(&g);
}

static void illegal_move_in_a_branch_reports_the_rule_and_the_path(void **state)
{
	struct builder b;
	struct xqi_record g;
	struct diags ds;
	const struct xq_diagnostic *d;

	(void)state;
	b_init(&b, 0x0A, standard_slots, 0);
	b_root(&b, 1, NULL);
	b_move(&b, "h2e2", 1, 0, NULL);
	b_move(&b, "h9g7", 1, 1, NULL);
	b_move(&b, "e2e6", 0, 0, NULL);
	b_move(&b, "b9c7", 1, 0, NULL); /* second alternative at ply 2 */
	b_move(&b, "b0a3", 0, 0, NULL); /* a horse cannot go there */
	assert_int_equal(read_xqf(&g, b.d, b.len, &ds, NULL), 0);
	d = expect_diag(&ds, XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_ERROR);
	assert_int_equal(d->ply, 3);
	assert_true(has(d, "after h2e2 b9c7[2]"));
	assert_true(has(d, "the variation is cut here: this move is not kept"));
	assert_int_equal(g.nnodes, 5);
	assert_int_equal(g.flags & (XQI_RECORD_BROKEN | XQI_RECORD_CUT), XQI_RECORD_CUT);
	xqi_record_release(&g);
}

static void trailing_bytes_are_a_warning(void **state)
{
	struct builder b;
	struct xqi_record g;
	struct diags ds;
	struct xqi_xqf_stats st;
	size_t end;

	(void)state;
	b_init(&b, 0x0A, standard_slots, 0);
	b_root(&b, 1, NULL);
	b_move(&b, "h2e2", 0, 0, NULL);
	end = b.len;
	memcpy(b.d + b.len, "junk", 4);
	b.len += 4;
	assert_int_equal(read_xqf(&g, b.d, b.len, &ds, &st), 0);
	assert_int_equal(ds.n, 1);
	assert_int_equal(ds.d[0].code, XQI_D_TRAILING);
	assert_int_equal(ds.d[0].severity, XQ_SEVERITY_WARNING);
	assert_int_equal(ds.d[0].place.offset, end);
	assert_int_equal(st.trailing, 4);
	assert_false(g.flags & XQI_RECORD_BROKEN);
	assert_int_equal(g.nnodes, 2);
	xqi_record_release(&g);
}

static void failed_key_checksum_is_a_warning(void **state)
{
	struct builder b;
	struct xqi_record g;
	struct diags ds;

	(void)state;
	b_init(&b, 0x0C, standard_slots, 0);
	b.d[0x0C] = 1; /* KeysSum no longer balances the (zero) seeds */
	b_root(&b, 0, NULL);
	assert_int_equal(read_xqf(&g, b.d, b.len, &ds, NULL), 0);
	expect_diag(&ds, XQI_D_CHECKSUM, XQ_SEVERITY_WARNING);
	xqi_record_release(&g);
}

static void bad_gbk_byte_in_a_comment_is_replaced_and_reported(void **state)
{
	struct xqi_record g;
	struct diags ds;
	const struct xq_diagnostic *d;

	(void)state;
	assert_int_equal(read_fixture(&g, "bad-gbk-comment-v12.xqf", &ds, NULL), 0);
	d = expect_diag(&ds, XQI_D_ENCODING, XQ_SEVERITY_WARNING);
	assert_int_equal(d->place.offset, 2068);
	assert_non_null(strstr(g.nodes[XQI_ROOT].comment, "\xEF\xBF\xBD"));
	xqi_record_release(&g);
}

/* ---- writing ----------------------------------------------------------- */

static void fixtures_round_trip_through_both_versions(void **state)
{
	static const char *const names[] = {
		"sample-v12.xqf",        "variations-v0a.xqf",        "unrotated-v0b.xqf",
		"rotated-v0c.xqf",       "no-piece-on-origin-v12.xqf", "black-moves-first-v0a.xqf",
		"mate-diagram-v12.xqf",  "bad-gbk-comment-v12.xqf",   "first-move-variations-v12.xqf",
		"empty-v12.xqf",
		/* found by the fuzzer: the tree is announced but cut, and red to
		 * move is impossible; the side must not depend on the lost tree */
		"cut-tree-impossible-side-v12.xqf",
	};
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct xqi_record g, back;
		struct diags ds;
		char why[512];
		assert_int_equal(read_fixture(&g, names[i], &ds, NULL), 0);
		for (int v = 0; v < 2; v++) {
			int version = v ? XQI_XQF_VERSION_ENCRYPTED : XQI_XQF_VERSION_PLAIN;
			assert_int_equal(write_xqf(&g, version, XQI_ENC_UNKNOWN, &out, &ds), 0);
			assert_int_equal(count_diags(&ds, XQI_D_LOSS), 0);
			assert_int_equal((unsigned char)out.ptr[2], version);
			assert_int_equal(read_xqf(&back, out.ptr, out.len, &ds, NULL), 0);
			if (!xqi_record_equal(&g, &back, 0, why, sizeof(why)))
				fail_msg("%s v0x%02X: %s", names[i], version, why);
			xqi_record_release(&back);
		}
		xqi_record_release(&g);
	}
	xq_buf_release(&out);
}

static void plain_is_the_default_and_encrypted_output_is_reproducible(void **state)
{
	struct xqi_record g;
	struct diags ds;
	struct xq_buf a = XQ_BUF_INIT, b = XQ_BUF_INIT;
	static const unsigned char zero[13];

	(void)state;
	assert_int_equal(read_fixture(&g, "sample-v12.xqf", &ds, NULL), 0);
	assert_int_equal(write_xqf(&g, 0, XQI_ENC_UNKNOWN, &a, &ds), 0);
	assert_int_equal((unsigned char)a.ptr[2], 0x0A);
	assert_int_equal(write_xqf(&g, XQI_XQF_VERSION_ENCRYPTED, XQI_ENC_UNKNOWN, &a, &ds), 0);
	assert_int_equal(write_xqf(&g, XQI_XQF_VERSION_ENCRYPTED, XQI_ENC_UNKNOWN, &b, &ds), 0);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.ptr, b.ptr, a.len);
	assert_int_equal((unsigned char)a.ptr[2], 0x12);
	assert_memory_equal(a.ptr + 3, zero, 13); /* every key byte zero */
	xqi_record_release(&g);
	xq_buf_release(&a);
	xq_buf_release(&b);
}

static void writer_refuses_versions_other_than_0x0a_and_0x12(void **state)
{
	struct xqi_record g;
	struct diags ds;
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(write_xqf(&g, 0x10, XQI_ENC_UNKNOWN, &out, &ds), XQ_EUNSUPPORTED);
	assert_int_equal(ds.d[0].code, XQI_D_UNSUPPORTED);
	assert_true(has(&ds.d[0], "0x10"));
	xqi_record_release(&g);
	xq_buf_release(&out);
}

static void writer_refuses_a_second_game(void **state)
{
	struct xqi_record g;
	struct diags ds;
	struct xq_buf out = XQ_BUF_INIT;
	struct xq_file *o;
	struct xqi_write_opts wo = XQI_WRITE_OPTS_INIT;
	struct xqi_sink sink = {collect, &ds};
	void *w;

	(void)state;
	memset(&ds, 0, sizeof(ds));
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(xqi_file_open_mem(&o, &out), 0);
	assert_int_equal(xqi_format_xqf.open_writer(&w, o, &wo, &sink), 0);
	assert_int_equal(xqi_format_xqf.write(w, &g), 0);
	assert_int_equal(xqi_format_xqf.write(w, &g), XQ_EUNSUPPORTED);
	assert_int_equal(xqi_format_xqf.close_writer(w), 0);
	assert_int_equal(xqi_file_commit(o, NULL), 0);
	assert_int_equal(ds.n, 1);
	assert_int_equal(ds.d[0].severity, XQ_SEVERITY_ERROR);
	assert_int_equal(ds.d[0].game, 2);
	assert_true(has(&ds.d[0], "one game per file"));
	assert_int_equal(out.len, 1024 + 8); /* only the first game */
	xqi_record_release(&g);
	xq_buf_release(&out);
}

static void writer_reports_a_tag_too_long_for_its_field(void **state)
{
	struct xqi_record g, back;
	struct diags ds;
	struct xq_buf out = XQ_BUF_INIT;
	const struct xq_diagnostic *d;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	/* 10 characters, 20 bytes in GBK: the Red field holds 15 */
	assert_int_equal(xqi_record_set_tag(&g, "Red", "黑龙江省象棋队赵国荣"), 0);
	assert_int_equal(write_xqf(&g, 0, XQI_ENC_UNKNOWN, &out, &ds), 0);
	d = expect_diag(&ds, XQI_D_LOSS, XQ_SEVERITY_WARNING);
	assert_true(has(d, "tag Red"));
	assert_true(has(d, "kept '黑龙江省象棋队'"));
	assert_true(has(d, "lost '赵国荣'"));
	assert_non_null(d->source);
	assert_int_equal(read_xqf(&back, out.ptr, out.len, &ds, NULL), 0);
	assert_string_equal(xqi_record_tag(&back, "Red"), "黑龙江省象棋队");
	xqi_record_release(&g);
	xqi_record_release(&back);
	xq_buf_release(&out);
}

static void writer_reports_characters_the_encoding_cannot_hold(void **state)
{
	struct xqi_record g, back;
	struct diags ds;
	struct xq_buf out = XQ_BUF_INIT;
	const struct xq_diagnostic *d;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(xqi_record_set_tag(&g, "Site", "東京 😀"), 0);
	assert_int_equal(xqi_record_set_comment(&g, XQI_ROOT, "emoji 😀 here", strlen("emoji 😀 here")), 0);
	assert_int_equal(write_xqf(&g, 0, XQI_ENC_GBK, &out, &ds), 0);
	assert_int_equal(count_diags(&ds, XQI_D_LOSS), 2);
	d = expect_diag(&ds, XQI_D_LOSS, XQ_SEVERITY_WARNING);
	assert_true(has(d, "tag Site"));
	assert_true(has(d, "gbk"));
	assert_int_equal(read_xqf(&back, out.ptr, out.len, &ds, NULL), 0);
	assert_string_equal(xqi_record_tag(&back, "Site"), "東京 ?");
	assert_string_equal(back.nodes[XQI_ROOT].comment, "emoji ? here");
	xqi_record_release(&back);
	/* GB18030, the default, holds every character. */
	assert_int_equal(write_xqf(&g, 0, XQI_ENC_UNKNOWN, &out, &ds), 0);
	assert_int_equal(count_diags(&ds, XQI_D_LOSS), 0);
	assert_int_equal(read_xqf(&back, out.ptr, out.len, &ds, NULL), 0);
	assert_string_equal(xqi_record_tag(&back, "Site"), "東京 😀");
	xqi_record_release(&g);
	xqi_record_release(&back);
	xq_buf_release(&out);
}

static void writer_reports_tags_nags_and_pre_comments_it_has_no_place_for(void **state)
{
	struct xqi_record g, back;
	struct diags ds;
	struct xq_buf out = XQ_BUF_INIT;
	uint32_t a, b;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	xqi_record_add_tag(&g, "Game", 4, "Chinese Chess", 13); /* implied: not a loss */
	xqi_record_add_tag(&g, "Round", 5, "3", 1);
	xqi_record_add_tag(&g, "Event", 5, "a", 1);
	xqi_record_add_tag(&g, "Event", 5, "b", 1);
	assert_int_equal(xqi_record_add_move(&g, XQI_ROOT, mv("h2e2"), &a), 0);
	assert_int_equal(xqi_record_add_move(&g, a, mv("h9g7"), &b), 0);
	assert_int_equal(xqi_record_add_nag(&g, a, 1), 0);
	assert_int_equal(xqi_record_set_comment(&g, a, "after", 5), 0);
	assert_int_equal(xqi_record_set_pre_comment(&g, b, "before", 6), 0);
	assert_int_equal(write_xqf(&g, XQI_XQF_VERSION_ENCRYPTED, XQI_ENC_UNKNOWN, &out, &ds), 0);
	assert_int_equal(count_diags(&ds, XQI_D_LOSS), 4);
	assert_true(has(&ds.d[0], "tag Round"));
	assert_true(has(&ds.d[1], "tag Event appears again"));
	assert_true(has(&ds.d[2], "comment before h9g7"));
	assert_int_equal(ds.d[2].ply, 2);
	assert_true(has(&ds.d[3], "1 NAGs (the first at ply 1) not written: XQF has no place"));
	assert_int_equal(ds.d[3].ply, 1);
	assert_int_equal(read_xqf(&back, out.ptr, out.len, &ds, NULL), 0);
	assert_string_equal(back.nodes[1].comment, "after\nbefore");
	assert_string_equal(xqi_record_tag(&back, "Event"), "a");
	xqi_record_release(&g);
	xqi_record_release(&back);
	xq_buf_release(&out);
}

static void game_type_and_result_are_written_back(void **state)
{
	struct xqi_record g, back;
	struct diags ds;
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	assert_int_equal(xqi_record_init(&g), 0);
	g.result = XQI_RESULT_DRAW;
	xqi_record_set_tag(&g, "GameType", "endgame");
	assert_int_equal(write_xqf(&g, 0, XQI_ENC_UNKNOWN, &out, &ds), 0);
	assert_int_equal(ds.n, 0);
	assert_int_equal((unsigned char)out.ptr[0x33], 3);
	assert_int_equal((unsigned char)out.ptr[0x40], 3);
	assert_int_equal(read_xqf(&back, out.ptr, out.len, &ds, NULL), 0);
	assert_string_equal(xqi_record_tag(&back, "GameType"), "残局");
	assert_string_equal(xqi_record_tag(&back, "Result"), "1/2-1/2");
	xqi_record_release(&back);
	xqi_record_set_tag(&g, "GameType", "blitz");
	assert_int_equal(write_xqf(&g, 0, XQI_ENC_UNKNOWN, &out, &ds), 0);
	assert_true(has(expect_diag(&ds, XQI_D_LOSS, XQ_SEVERITY_WARNING), "GameType 'blitz'"));
	xqi_record_release(&g);
	xq_buf_release(&out);
}

static void format_is_found_by_name_content_and_extension(void **state)
{
	static const unsigned char head[] = {'X', 'Q', 0x12, 0};

	(void)state;
	assert_ptr_equal(xqi_format_find("XQF"), &xqi_format_xqf);
	assert_ptr_equal(xqi_format_detect(head, sizeof(head), "game.bin"), &xqi_format_xqf);
	assert_ptr_equal(xqi_format_for_extension("out.XQF"), &xqi_format_xqf);
	assert_int_equal(xqi_format_xqf.probe((const unsigned char *)"[Event", 6), 0);
}

static void format_reader_gives_one_game_then_the_end(void **state)
{
	struct xq_buf data = XQ_BUF_INIT;
	struct xqi_input *in;
	struct xqi_record g;
	struct diags ds;
	struct xqi_sink sink = {collect, &ds};
	void *r;

	(void)state;
	memset(&ds, 0, sizeof(ds));
	assert_int_equal(load_file("tests/data/xqf/sample-v12.xqf", &data), 0);
	assert_int_equal(xqi_input_open_mem(&in, "sample.xqf", data.ptr, data.len), 0);
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(xqi_format_xqf.open_reader(&r, in, NULL, &sink), 0);
	assert_int_equal(xqi_format_xqf.read(r, &g), 1);
	assert_int_equal(g.number, 1);
	assert_string_equal(g.source, "sample.xqf");
	assert_string_equal(g.encoding, "gb18030");
	assert_int_equal(xqi_record_mainline_length(&g), 75);
	assert_int_equal(xqi_format_xqf.read(r, &g), 0);
	assert_int_equal(ds.total, 0);
	xqi_format_xqf.close_reader(r);
	xqi_input_close(in);
	xqi_record_release(&g);
	xq_buf_release(&data);
}

static void encoding_option_reads_other_code_pages(void **state)
{
	struct builder b;
	struct xqi_record g;
	struct diags ds;
	struct xqi_sink sink = {collect, &ds};
	struct xqi_read_opts opts = XQI_READ_OPTS_INIT;

	(void)state;
	b_init(&b, 0x0A, standard_slots, 0);
	memcpy(b.d + 0x121, "\xAA\x46\xA8\xCA", 4); /* 東京 in Big5 */
	b.d[0x120] = 4;
	b_root(&b, 0, NULL);
	memset(&ds, 0, sizeof(ds));
	opts.encoding = XQI_ENC_BIG5;
	assert_int_equal(xqi_record_init(&g), 0);
	assert_int_equal(xqi_xqf_read_mem(&g, b.d, b.len, &opts, &sink, "big5.xqf", NULL), 0);
	assert_string_equal(xqi_record_tag(&g, "Site"), "東京");
	assert_string_equal(g.encoding, "big5");
	assert_int_equal(ds.total, 0);
	xqi_record_release(&g);
}

/* ---- the shared corpus ------------------------------------------------ */

/* Split a TSV line in place into at most `max` fields; returns how many. */
static int split_tsv(char *line, char **f, int max)
{
	int n = 0;

	line[strcspn(line, "\r\n")] = '\0';
	while (n < max) {
		char *tab = strchr(line, '\t');
		f[n++] = line;
		if (!tab)
			break;
		*tab = '\0';
		line = tab + 1;
	}
	return n;
}

static void corpus_path(char *out, size_t cap, const char *shared, const char *repo,
			const char *path)
{
	char owner[128];
	const char *slash = strchr(repo, '/');

	snprintf(owner, sizeof(owner), "%.*s__%s", (int)(slash - repo), repo, slash + 1);
	snprintf(out, cap, "%s/corpus/xqf/%s/%s", shared, owner, path);
}

/* The files that are broken on purpose, and how many moves we refuse in each. */
static const struct {
	const char *path;
	int bad_moves;
} broken_files[] = {
	{"tests/data/BadMoveTest3.xqf", 1},
	{"tests/data/WildHouse.xqf", 1},
	{"cchess_manuals/bad_manuals/bad_035正马三兵对肋车边马 红进七兵(一).XQF", 1},
	{"cchess_manuals/bad_manuals/bad_五七炮对屏风马进7卒.XQF", 3},
	{"end_game/残局攻杀谱/045车马对车兵.XQF", 1},
};

/* Diagrams whose position cannot occur in play (both kings in check). */
static const char *const impossible_files[] = {
	"end_game/残局攻杀谱/A-侧面虎杀法示意图.XQF",
	"end_game/残局攻杀谱/A-重炮杀法示意图.XQF",
	"end_game/残局攻杀谱/A-马后炮杀法示意图.XQF",
};

static int is_impossible(const char *path)
{
	for (size_t i = 0; i < sizeof(impossible_files) / sizeof(impossible_files[0]); i++)
		if (!strcmp(impossible_files[i], path))
			return 1;
	return 0;
}

static int expected_bad_moves(const char *path)
{
	for (size_t i = 0; i < sizeof(broken_files) / sizeof(broken_files[0]); i++)
		if (!strcmp(broken_files[i].path, path))
			return broken_files[i].bad_moves;
	return 0;
}

static void every_corpus_file_matches_the_independent_decoder(void **state)
{
	const char *shared = test_shared_dir();
	char path[4352], line[4096];
	FILE *f;
	int files = 0, broken = 0, impossible = 0;
	struct xq_buf data = XQ_BUF_INIT;

	(void)state;
	SKIP_WITHOUT_SHARED(shared);
	snprintf(path, sizeof(path), "%s/corpus/xqf/DETAILS.tsv", shared);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f)); /* header */
	while (fgets(line, sizeof(line), f)) {
		char *fl[16], fen[XQ_FEN_SIZE], *end;
		struct xqi_record g;
		struct diags ds;
		struct xqi_xqf_stats st;
		struct xqi_record_counts c;
		int bad;
		assert_true(split_tsv(line, fl, 16) >= 13);
		corpus_path(path, sizeof(path), shared, fl[0], fl[1]);
		assert_int_equal(load_file(path, &data), 0);
		if (read_xqf(&g, data.ptr, data.len, &ds, &st) != 0)
			fail_msg("%s: not read: %s", path, ds.n ? ds.d[0].msg : "");
		files++;
		assert_int_equal(st.version, strtoul(fl[2], &end, 16));
		start_placement(&g, fen, sizeof(fen));
		if (strcmp(fen, fl[6]))
			fail_msg("%s: start %s, expected %s", path, fen, fl[6]);
		/* Every record is read, kept or not. */
		if (st.records != strtoul(fl[7], &end, 10) ||
		    st.siblings != strtoul(fl[8], &end, 10) ||
		    st.commented != strtoul(fl[9], &end, 10))
			fail_msg("%s: records %u/%u/%u, expected %s/%s/%s", path, st.records,
				 st.siblings, st.commented, fl[7], fl[8], fl[9]);
		assert_int_equal(st.trailing, strtoul(fl[10], &end, 10));
		bad = expected_bad_moves(fl[1]);
		assert_int_equal(count_diags(&ds, XQI_D_ILLEGAL_MOVE), bad);
		assert_int_equal(st.bad_moves, bad);
		xqi_record_count(&g, &c);
		if (bad) {
			broken++;
			/* Broken when the move is on the main line, else cut there. */
			assert_true(g.flags & (XQI_RECORD_BROKEN | XQI_RECORD_CUT));
			assert_int_equal(c.nodes + st.lost, st.records);
			for (int i = 0; i < ds.n; i++) {
				if (ds.d[i].code != XQI_D_ILLEGAL_MOVE)
					continue;
				assert_true(ds.d[i].has_offset && ds.d[i].place.offset >= 1024);
				assert_true(ds.d[i].ply > 0);
				assert_int_equal(strlen(ds.d[i].move), 4);
				assert_true(has(&ds.d[i], "not kept"));
			}
		} else if (is_impossible(fl[1])) {
			impossible++;
			assert_true(g.flags & XQI_RECORD_BROKEN);
			assert_true(has(expect_diag(&ds, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR), "in check"));
			assert_int_equal(st.records, 0);
		} else {
			assert_false(g.flags & XQI_RECORD_BROKEN);
			assert_int_equal(c.nodes, st.records);
			assert_int_equal(c.variations, st.siblings);
			/* A comment that is only a CRLF is no comment once read. */
			assert_true(c.comments <= st.commented && c.comments + 1 >= st.commented);
			assert_true(worst_severity(&ds) <= XQ_SEVERITY_WARNING);
		}
		xqi_record_release(&g);
	}
	fclose(f);
	xq_buf_release(&data);
	assert_int_equal(files, 137);
	assert_int_equal(broken, 5);
	assert_int_equal(impossible, 3);
}

/* The moves of an ICCS text twin: main line (outside parentheses) and all. */
static void iccs_twin_moves(const char *text, size_t len, char *main, size_t cap, int *total)
{
	int depth = 0;
	size_t mlen = 0;

	main[0] = '\0';
	*total = 0;
	for (size_t i = 0; i < len; i++) {
		char c = text[i];
		if (c == '{') {
			const char *end = memchr(text + i, '}', len - i);
			i = end ? (size_t)(end - text) : len;
			continue;
		}
		if (c == '[' && depth == 0) { /* a tag: to its closing quote and bracket */
			const char *q = memchr(text + i, '"', len - i);
			q = q ? memchr(q + 1, '"', len - (size_t)(q + 1 - text)) : NULL;
			i = q ? (size_t)(q - text) : len;
			continue;
		}
		if (c == '(') {
			depth++;
			continue;
		}
		if (c == ')') {
			depth--;
			continue;
		}
		if (i + 4 <= len && c >= 'a' && c <= 'i' && text[i + 1] >= '0' && text[i + 1] <= '9' &&
		    text[i + 2] >= 'a' && text[i + 2] <= 'i' && text[i + 3] >= '0' &&
		    text[i + 3] <= '9' && (i == 0 || !xq_is_alpha((unsigned char)text[i - 1]))) {
			(*total)++;
			if (depth == 0)
				mlen += (size_t)snprintf(main + mlen, mlen < cap ? cap - mlen : 0, "%s%.4s",
							 mlen ? " " : "", text + i);
			i += 3;
		}
	}
}

static void corpus_main_lines_equal_their_iccs_twins(void **state)
{
	const char *shared = test_shared_dir();
	char path[4352], line[4096];
	FILE *f;
	int pairs = 0;
	struct xq_buf data = XQ_BUF_INIT, utf8 = XQ_BUF_INIT;
	static char want[65536], got[65536];

	(void)state;
	SKIP_WITHOUT_SHARED(shared);
	snprintf(path, sizeof(path), "%s/corpus/xqf/PAIRS.tsv", shared);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	while (fgets(line, sizeof(line), f)) {
		char *fl[4];
		struct xqi_record g;
		struct diags ds;
		struct xqi_record_counts c;
		size_t bad;
		int total;
		assert_true(split_tsv(line, fl, 4) >= 3);
		if (strlen(fl[2]) < 9 || strcmp(fl[2] + strlen(fl[2]) - 9, ".pgn_iccs"))
			continue;
		corpus_path(path, sizeof(path), shared, fl[0], fl[2]);
		assert_int_equal(load_file(path, &data), 0);
		xq_buf_reset(&utf8);
		/* One twin has a stray byte in a comment: skip such bytes. */
		for (size_t i = 0; i < data.len; i += bad + 1) {
			bad = 0;
			if (xqi_decode(XQI_ENC_GB18030, data.ptr + i, data.len - i, &utf8, &bad) == 0)
				break;
		}
		iccs_twin_moves(utf8.ptr, utf8.len, want, sizeof(want), &total);
		corpus_path(path, sizeof(path), shared, fl[0], fl[1]);
		if (load_file(path, &data)) {
			/* Byte-identical copies were left out of the corpus: one
			 * XQF in a subfolder is the same as the one a level up. */
			char *base = strrchr(path, '/'), *dir;
			*base = '\0';
			dir = strrchr(path, '/');
			memmove(dir + 1, base + 1, strlen(base + 1) + 1);
			if (load_file(path, &data))
				fail_msg("cannot read %s", path);
		}
		assert_int_equal(read_xqf(&g, data.ptr, data.len, &ds, NULL), 0);
		mainline(&g, got, sizeof(got));
		if (strcmp(want, got))
			fail_msg("%s: main line\n  %s\nbut the twin has\n  %s", path, got, want);
		xqi_record_count(&g, &c);
		if ((int)c.nodes != total)
			fail_msg("%s: %u moves, the twin has %d", path, c.nodes, total);
		pairs++;
		xqi_record_release(&g);
	}
	fclose(f);
	xq_buf_release(&data);
	xq_buf_release(&utf8);
	assert_int_equal(pairs, 34);
}

/*
 * The Chinese-notation twins: hbsxcjp's `.pgn_zh` conversions (with their
 * variations) and XQF2PGN's SAMPLE.PGN (main line only), read with the PGN
 * reader, give the same move tree as the XQF file.
 */
static void corpus_trees_equal_their_chinese_twins(void **state)
{
	const char *shared = test_shared_dir();
	const struct xqi_format *pgn = xqi_format_find("pgn");
	char path[4352], line[4096];
	FILE *f;
	int pairs = 0, defective = 0;
	struct xq_buf data = XQ_BUF_INIT, text = XQ_BUF_INIT;

	(void)state;
	SKIP_WITHOUT_SHARED(shared);
	assert_non_null(pgn);
	snprintf(path, sizeof(path), "%s/corpus/xqf/PAIRS.tsv", shared);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	while (fgets(line, sizeof(line), f)) {
		char *fl[4], why[512];
		size_t n;
		int sample;
		struct xqi_record g, twin;
		struct diags ds;
		struct xqi_input *in;
		struct xqi_read_opts ro = XQI_READ_OPTS_INIT;
		void *reader;
		assert_true(split_tsv(line, fl, 4) >= 3);
		n = strlen(fl[2]);
		sample = n >= 4 && !strcmp(fl[2] + n - 4, ".PGN");
		if (!sample && (n < 7 || strcmp(fl[2] + n - 7, ".pgn_zh")))
			continue;
		corpus_path(path, sizeof(path), shared, fl[0], fl[2]);
		assert_int_equal(load_file(path, &text), 0);
		corpus_path(path, sizeof(path), shared, fl[0], fl[1]);
		if (load_file(path, &data)) {
			/* As above: the XQF may be the identical copy a level up. */
			char *base = strrchr(path, '/'), *dir;
			*base = '\0';
			dir = strrchr(path, '/');
			memmove(dir + 1, base + 1, strlen(base + 1) + 1);
			if (load_file(path, &data))
				fail_msg("cannot read %s", path);
		}
		assert_int_equal(read_xqf(&g, data.ptr, data.len, &ds, NULL), 0);
		assert_int_equal(xqi_record_init(&twin), 0);
		assert_int_equal(xqi_input_open_mem(&in, fl[2], text.ptr, text.len), 0);
		assert_int_equal(pgn->open_reader(&reader, in, &ro, NULL), 0);
		if (pgn->read(reader, &twin) != 1)
			fail_msg("%s: the PGN reader found no game", fl[2]);
		if (twin.flags & XQI_RECORD_BROKEN) {
			/* hbsxcjp's twin of 神骑突围 writes 前兵平四 for the rear
			 * pawn at ply 9 (see known_defects in test_notation.c),
			 * so read as written it goes astray and stops at ply 10. */
			if (!strstr(fl[2], "神骑突围"))
				fail_msg("%s: the PGN twin does not read cleanly", fl[2]);
			defective++;
			goto next;
		}
		if (!xqi_record_equal(&g, &twin,
				   XQ_EQUAL_IGNORE_TAGS | XQ_EQUAL_IGNORE_COMMENTS | XQ_EQUAL_IGNORE_NAGS |
					   XQ_EQUAL_IGNORE_RESULT | (sample ? XQ_EQUAL_MAINLINE_ONLY : 0),
				   why, sizeof(why)))
			fail_msg("%s and its twin %s: %s", path, fl[2], why);
		pairs++;
	next:
		pgn->close_reader(reader);
		xqi_input_close(in);
		xqi_record_release(&twin);
		xqi_record_release(&g);
	}
	fclose(f);
	xq_buf_release(&data);
	xq_buf_release(&text);
	assert_int_equal(pairs, 34);
	assert_int_equal(defective, 1);
}

static void every_corpus_file_round_trips_through_both_versions(void **state)
{
	const char *shared = test_shared_dir();
	char path[4352], line[4096];
	FILE *f;
	int files = 0;
	struct xq_buf data = XQ_BUF_INIT, out = XQ_BUF_INIT;

	(void)state;
	SKIP_WITHOUT_SHARED(shared);
	snprintf(path, sizeof(path), "%s/corpus/xqf/DETAILS.tsv", shared);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	while (fgets(line, sizeof(line), f)) {
		char *fl[16], why[512];
		struct xqi_record g, back;
		struct diags ds;
		split_tsv(line, fl, 16);
		corpus_path(path, sizeof(path), shared, fl[0], fl[1]);
		assert_int_equal(load_file(path, &data), 0);
		assert_int_equal(read_xqf(&g, data.ptr, data.len, &ds, NULL), 0);
		for (int v = 0; v < 2; v++) {
			int version = v ? XQI_XQF_VERSION_ENCRYPTED : XQI_XQF_VERSION_PLAIN;
			assert_int_equal(write_xqf(&g, version, XQI_ENC_UNKNOWN, &out, &ds), 0);
			if (count_diags(&ds, XQI_D_LOSS))
				fail_msg("%s: loss writing 0x%02X: %s", path, version,
					 find_diag(&ds, XQI_D_LOSS)->msg);
			assert_int_equal(read_xqf(&back, out.ptr, out.len, &ds, NULL), 0);
			if (!xqi_record_equal(&g, &back, 0, why, sizeof(why)))
				fail_msg("%s v0x%02X: %s", path, version, why);
			xqi_record_release(&back);
		}
		files++;
		xqi_record_release(&g);
	}
	fclose(f);
	xq_buf_release(&data);
	xq_buf_release(&out);
	assert_int_equal(files, 137);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(key_derivation_matches_the_sample_test_vector),
		cmocka_unit_test(plain_versions_have_no_keys_whatever_the_key_bytes),
		cmocka_unit_test(sample_decrypts_to_its_handicap_position_tags_and_main_line),
		cmocka_unit_test(version_0x0b_is_not_rotated_and_0x0c_is),
		cmocka_unit_test(version_above_0x12_is_refused_unless_asked),
		cmocka_unit_test(first_move_decides_the_side_to_move_with_a_note),
		cmocka_unit_test(game_type_byte_does_not_hide_the_piece_array),
		cmocka_unit_test(composed_position_with_an_advisor_off_its_points_loads_with_a_note),
		cmocka_unit_test(kings_facing_each_other_keep_the_header_and_lose_the_tree),
		cmocka_unit_test(position_possible_only_for_the_other_side_gets_it_and_refuses_the_move),
		cmocka_unit_test(mate_diagram_takes_the_mated_side_to_move),
		cmocka_unit_test(diagram_with_both_kings_in_check_is_kept_but_broken),
		cmocka_unit_test(three_alternatives_to_the_first_move_are_variations),
		cmocka_unit_test(first_move_variations_of_a_real_file_are_kept),
		cmocka_unit_test(low_flag_bits_of_encrypted_records_are_junk),
		cmocka_unit_test(comments_lose_one_trailing_crlf_and_crlf_becomes_lf),
		cmocka_unit_test(deep_line_of_200000_plies_reads_and_writes_without_recursion),
		cmocka_unit_test(bad_magic_is_refused),
		cmocka_unit_test(cut_header_is_refused_with_its_length),
		cmocka_unit_test(header_without_a_root_record_is_an_empty_broken_game),
		cmocka_unit_test(cut_record_keeps_the_moves_before_it),
		cmocka_unit_test(comment_length_past_the_end_keeps_the_move_and_stops),
		cmocka_unit_test(negative_comment_length_in_an_encrypted_file_is_corrupt),
		cmocka_unit_test(square_off_the_board_skips_its_subtree),
		cmocka_unit_test(move_with_no_piece_on_its_square_skips_its_subtree_and_keeps_siblings),
		cmocka_unit_test(illegal_move_in_a_branch_reports_the_rule_and_the_path),
		cmocka_unit_test(trailing_bytes_are_a_warning),
		cmocka_unit_test(failed_key_checksum_is_a_warning),
		cmocka_unit_test(bad_gbk_byte_in_a_comment_is_replaced_and_reported),
		cmocka_unit_test(fixtures_round_trip_through_both_versions),
		cmocka_unit_test(plain_is_the_default_and_encrypted_output_is_reproducible),
		cmocka_unit_test(writer_refuses_versions_other_than_0x0a_and_0x12),
		cmocka_unit_test(writer_refuses_a_second_game),
		cmocka_unit_test(writer_reports_a_tag_too_long_for_its_field),
		cmocka_unit_test(writer_reports_characters_the_encoding_cannot_hold),
		cmocka_unit_test(writer_reports_tags_nags_and_pre_comments_it_has_no_place_for),
		cmocka_unit_test(game_type_and_result_are_written_back),
		cmocka_unit_test(format_is_found_by_name_content_and_extension),
		cmocka_unit_test(format_reader_gives_one_game_then_the_end),
		cmocka_unit_test(encoding_option_reads_other_code_pages),
		cmocka_unit_test(every_corpus_file_matches_the_independent_decoder),
		cmocka_unit_test(corpus_main_lines_equal_their_iccs_twins),
		cmocka_unit_test(corpus_trees_equal_their_chinese_twins),
		cmocka_unit_test(every_corpus_file_round_trips_through_both_versions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
