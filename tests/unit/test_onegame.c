/*
 * test_onegame.c: the readers of the one-game records of Chinese servers
 * and programs (formats/onegame.h): MXQ, CCM, CHN/XQI, CHE and XGF,
 * each from records built byte by byte (tags, start positions, the main
 * line, every diagnostic with its byte offset) and from the samples in
 * tests/data/bin/, whose main lines are written out here in full.
 */
#include "testutil.h"

#include "ccb_testutil.h"
#include "onegame.h"

/* The main line of `g` in ICCS, space-separated, into out. */
static const char *line_of(const struct xqi_record *g, char *out, size_t cap)
{
	size_t len = 0;

	out[0] = '\0';
	for (uint32_t n = xqi_record_next(g, XQI_ROOT); n != XQ_NO_NODE; n = xqi_record_next(g, n)) {
		char name[5];
		xqi_move_name(g->nodes[n].move, name);
		len += (size_t)snprintf(out + len, cap - len, "%s%s", len ? " " : "", name);
		assert_true(len < cap);
	}
	return out;
}

/* Read `data` as `fmt`: its one game into *g, the diagnostics into *c. */
static void read_one(const char *fmt, const void *data, size_t len, struct xqi_record *g,
		     struct collected *c)
{
	struct xqi_record games[2];
	int rc;

	memset(c, 0, sizeof(*c));
	assert_int_equal(read_games(fmt, data, len, games, 2, c, &rc), 1);
	assert_int_equal(rc, 0);
	*g = games[0];
}

static const char *tag(const struct xqi_record *g, const char *name)
{
	const char *v = xqi_record_tag(g, name);
	return v ? v : "(none)";
}

/* --- MXQ --- */

/* An MXQ record: the fields, then the moves, "Ends", "CommentsEnd". */
static size_t mxq_build(unsigned char *b, const char *const fields[11], const char *moves)
{
	size_t n = 0;

	for (int i = 0; i < 12; i++) {
		const char *f = i < 11 ? fields[i] : "Moves";
		b[n++] = (unsigned char)strlen(f);
		memcpy(b + n, f, strlen(f));
		n += strlen(f);
	}
	for (const char *m = moves; *m; m += m[5] ? 6 : 5) {
		b[n++] = 5;
		memcpy(b + n, m, 5);
		n += 5;
	}
	memcpy(b + n, "\x04" "Ends\x0b" "CommentsEnd", 17);
	return n + 17;
}

/* GBK bytes of 聚义堂, 2016年12月27日, 胜, 红方认输 (the fields are GBK). */
#define GBK_SITE "\xbe\xdb\xd2\xe5\xcc\xc3"
#define GBK_DATE "2016\xc4\xea" "12\xd4\xc2" "27\xc8\xd5 21\xb5\xe3" "14\xb7\xd6"
#define GBK_WON "-\xca\xa4-"
#define GBK_RESIGNS "\xba\xec\xb7\xbd\xc8\xcf\xca\xe4"

static void mxq_fields_give_tags_players_result_and_closing_comment(void **state)
{
	static const char *const fields[11] = {GBK_SITE, GBK_DATE, "alice(5r)" GBK_WON "bob",
					       "1500", "1348", "25", "3", "60", "1", "2",
					       GBK_RESIGNS};
	unsigned char b[512];
	struct collected c;
	struct xqi_record g;
	char line[256];
	size_t n = mxq_build(b, fields, "7C-4C 7J-6H");

	(void)state;
	read_one("mxq", b, n, &g, &c);
	assert_int_equal(count_diags(&c, XQ_SEVERITY_WARNING), 0);
	assert_string_equal(tag(&g, "Site"), "聚义堂");
	assert_string_equal(tag(&g, "Date"), "2016.12.27");
	assert_string_equal(tag(&g, "Red"), "alice(5r)");
	assert_string_equal(tag(&g, "Black"), "bob");
	assert_string_equal(tag(&g, "Result"), "1-0");
	assert_int_equal(g.result, XQI_RESULT_RED_WIN);
	assert_string_equal(tag(&g, "RedRating"), "1500");
	assert_string_equal(tag(&g, "BlackRating"), "1348");
	assert_string_equal(line_of(&g, line, sizeof(line)), "h2e2 h9g7");
	assert_string_equal(g.nodes[xqi_record_mainline_end(&g)].comment, "红方认输");
	xqi_record_release(&g);
}

static void mxq_move_that_names_no_square_stops_the_game_at_its_offset(void **state)
{
	static const char *const fields[11] = {"s", "d", "e", "", "", "", "", "", "", "", ""};
	unsigned char b[512];
	struct collected c;
	struct xqi_record g;
	char line[256];
	size_t n = mxq_build(b, fields, "7C-4C 9K-6H 1A-1B");
	const struct xq_diagnostic *d;

	(void)state;
	read_one("mxq", b, n, &g, &c);
	assert_true(g.flags & XQI_RECORD_BROKEN);
	assert_string_equal(line_of(&g, line, sizeof(line)), "h2e2");
	d = find_diag(&c, XQI_D_CORRUPT, "9K-6H names no square");
	assert_non_null(d);
	assert_int_equal(d->place.offset, n - 17 - 12); /* the length byte of the second move */
	assert_int_equal(d->ply, 2);
	assert_non_null(find_diag(&c, XQI_D_ILLEGAL_MOVE, "1 move after the bad move was not read"));
	xqi_record_release(&g);
}

static void mxq_field_running_past_the_end_is_truncated_not_read_over(void **state)
{
	static const char *const fields[11] = {"s", "d", "e", "", "", "", "", "", "", "", ""};
	unsigned char b[512];
	struct collected c;
	struct xqi_record g;
	size_t n = mxq_build(b, fields, "7C-4C");

	(void)state;
	/* Cut inside the first move: its length byte says 5, 2 bytes follow. */
	read_one("mxq", b, n - 17 - 3, &g, &c);
	assert_true(g.flags & XQI_RECORD_BROKEN);
	assert_non_null(find_diag(&c, XQI_D_TRUNCATED, "ends inside its moves"));
	xqi_record_release(&g);
	/* Cut inside the header. */
	read_one("mxq", b, 10, &g, &c);
	assert_true(g.flags & XQI_RECORD_BROKEN);
	assert_non_null(find_diag(&c, XQI_D_TRUNCATED, "ends inside its header"));
	xqi_record_release(&g);
}

/* --- CCM --- */

static size_t ccm_build(unsigned char *b, const unsigned char (*moves)[9], uint32_t count,
			size_t nmoves)
{
	memset(b, 0, 12);
	b[0] = 1;
	b[2] = 18;
	for (int i = 0; i < 4; i++)
		b[8 + i] = (unsigned char)(count >> (8 * i));
	memcpy(b + 12, moves, 9 * nmoves);
	return 12 + 9 * nmoves;
}

static void ccm_moves_count_columns_from_red_left_and_rows_from_the_top(void **state)
{
	/* 炮二平六 (h2d2) then 炮2平5 (b7e7). */
	static const unsigned char moves[2][9] = {{15, 1, 6, 7, 7, 3, 7, 0, 0},
						  {14, 2, 6, 1, 2, 4, 2, 0, 0}};
	unsigned char b[64];
	struct collected c;
	struct xqi_record g;
	char line[64];
	size_t n = ccm_build(b, moves, 2, 2);

	(void)state;
	read_one("ccm", b, n, &g, &c);
	assert_int_equal(count_diags(&c, XQ_SEVERITY_WARNING), 0);
	assert_string_equal(line_of(&g, line, sizeof(line)), "h2d2 b7e7");
	assert_int_equal(g.ntags, 0);
	xqi_record_release(&g);
}

static void ccm_count_past_the_end_is_truncated_and_bytes_after_are_trailing(void **state)
{
	static const unsigned char moves[2][9] = {{15, 1, 6, 7, 7, 3, 7, 0, 0},
						  {14, 2, 6, 1, 2, 4, 2, 0, 0}};
	unsigned char b[64];
	struct collected c;
	struct xqi_record g;
	size_t n = ccm_build(b, moves, 4000000000u, 2);
	const struct xq_diagnostic *d;

	(void)state;
	read_one("ccm", b, n, &g, &c);
	d = find_diag(&c, XQI_D_TRUNCATED, "announces 4000000000 moves");
	assert_non_null(d);
	assert_int_equal(d->place.offset, 30);
	assert_true(g.flags & XQI_RECORD_BROKEN);
	xqi_record_release(&g);
	n = ccm_build(b, moves, 1, 2);
	read_one("ccm", b, n, &g, &c);
	d = find_diag(&c, XQI_D_TRAILING, "9 bytes after the 1 moves the record announces");
	assert_non_null(d);
	assert_int_equal(d->place.offset, 21);
	assert_false(g.flags & XQI_RECORD_BROKEN);
	xqi_record_release(&g);
}

static void ccm_type_byte_that_disagrees_with_the_board_is_warned_once(void **state)
{
	/* Both records call a cannon a horse (type 4). */
	static const unsigned char moves[2][9] = {{15, 1, 4, 7, 7, 3, 7, 0, 0},
						  {14, 2, 4, 1, 2, 4, 2, 0, 0}};
	unsigned char b[64];
	struct collected c;
	struct xqi_record g;
	size_t n = ccm_build(b, moves, 2, 2);
	const struct xq_diagnostic *d;

	(void)state;
	read_one("ccm", b, n, &g, &c);
	d = find_diag(&c, XQI_D_CORRUPT, "piece of type 4");
	assert_non_null(d);
	assert_int_equal(d->place.offset, 14);
	assert_int_equal(count_diags(&c, XQ_SEVERITY_WARNING), 1);
	assert_int_equal(xqi_record_mainline_length(&g), 2);
	xqi_record_release(&g);
}

/* --- CHN / XQI --- */

/* A 联众 record with `nmoves` moves (from, to, piece) on the board `board`. */
static size_t chn_build(unsigned char *b, const unsigned char board[90],
			const unsigned char (*moves)[3], size_t nmoves)
{
	size_t n = 0x1D8 + 36 * (nmoves + 1);

	memset(b, 0, n);
	memcpy(b, "GL\xd0\x07\xd4\x07\x01\x00" "Tue Dec  7 20:57:56 2016\n", 33);
	memcpy(b + 0x24, "title", 5);
	memcpy(b + 0x78, "red", 3);
	memcpy(b + 0xA0, "black", 5);
	memcpy(b + 0xB4, board, 90);
	memcpy(b + 0x10E, board, 90);
	b[0x1D8 + 14] = b[0x1D8 + 15] = 0xFF;
	for (size_t i = 0; i < nmoves; i++)
		memcpy(b + 0x1D8 + 36 * (i + 1) + 14, moves[i], 3);
	return n;
}

/* The standard position in the 联众 layout (column by column, rows from the top). */
static void chn_standard(unsigned char board[90])
{
	static const unsigned char back[9] = {1, 2, 6, 5, 4, 5, 6, 2, 1};

	memset(board, 0, 90);
	for (int col = 0; col < 9; col++) {
		board[col * 10 + 0] = (unsigned char)(0x18 | back[col]);
		board[col * 10 + 9] = (unsigned char)(0x10 | back[col]);
		if (col % 2 == 0) {
			board[col * 10 + 3] = 0x1F;
			board[col * 10 + 6] = 0x17;
		}
	}
	board[1 * 10 + 2] = board[7 * 10 + 2] = 0x1B;
	board[1 * 10 + 7] = board[7 * 10 + 7] = 0x13;
}

static void chn_header_gives_title_names_date_and_time(void **state)
{
	static const unsigned char moves[2][3] = {{0x77, 0x74, 0x23}, {0x01, 0x22, 0x1A}};
	unsigned char board[90], b[1024];
	struct collected c;
	struct xqi_record g;
	char line[64];
	size_t n;

	(void)state;
	chn_standard(board);
	n = chn_build(b, board, moves, 2);
	read_one("chn", b, n, &g, &c);
	assert_int_equal(count_diags(&c, XQ_SEVERITY_WARNING), 1); /* the final board is the start */
	assert_non_null(find_diag(&c, XQI_D_CORRUPT, "final position"));
	assert_string_equal(tag(&g, "Title"), "title");
	assert_string_equal(tag(&g, "Red"), "red");
	assert_string_equal(tag(&g, "Black"), "black");
	assert_string_equal(tag(&g, "Date"), "2016.12.07");
	assert_string_equal(tag(&g, "Time"), "20:57:56");
	assert_string_equal(line_of(&g, line, sizeof(line)), "h2e2 b9c7");
	xqi_record_release(&g);
}

static void chn_start_position_and_first_side_come_from_the_record(void **state)
{
	/* Red king e0, black king d9, a black rook a9 that moves first. */
	static const unsigned char moves[1][3] = {{0x00, 0x10, 0x19}};
	unsigned char board[90], b[1024];
	struct collected c;
	struct xqi_record g;
	char fen[128];
	size_t n;

	(void)state;
	memset(board, 0, sizeof(board));
	board[4 * 10 + 9] = 0x14;
	board[3 * 10 + 0] = 0x1C;
	board[0 * 10 + 0] = 0x19;
	n = chn_build(b, board, moves, 1);
	b[0x10E] = 0;
	b[0x10E + 1] = 0x19; /* the final position: the rook on a8 */
	read_one("chn", b, n, &g, &c);
	assert_int_equal(count_diags(&c, XQ_SEVERITY_WARNING), 0);
	xqi_position_to_fen(&g.start, fen, sizeof(fen));
	assert_string_equal(fen, "r2k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1");
	assert_int_equal(xqi_record_mainline_length(&g), 1);
	xqi_record_release(&g);
}

static void chn_record_cut_inside_a_move_is_truncated(void **state)
{
	static const unsigned char moves[2][3] = {{0x77, 0x74, 0x23}, {0x01, 0x22, 0x1A}};
	unsigned char board[90], b[1024];
	struct collected c;
	struct xqi_record g;
	size_t n;
	const struct xq_diagnostic *d;

	(void)state;
	chn_standard(board);
	n = chn_build(b, board, moves, 2);
	read_one("chn", b, n - 20, &g, &c);
	d = find_diag(&c, XQI_D_TRUNCATED, "inside a move record (16 of its 36 bytes)");
	assert_non_null(d);
	assert_int_equal(d->place.offset, 0x1D8 + 72);
	assert_int_equal(xqi_record_mainline_length(&g), 1);
	xqi_record_release(&g);
	read_one("chn", b, 0x100, &g, &c);
	assert_non_null(find_diag(&c, XQI_D_TRUNCATED, "before its first move record"));
	xqi_record_release(&g);
}

/* --- CHE --- */

static void che_columns_count_from_red_right_and_rows_from_red_back_rank(void **state)
{
	/* h0g2 (马二进三) then b7e7 (炮2平5), as the sample begins. */
	static const char text[] = "1 2 21 32 1 0 1 2 2 0 1 0 10 32 0 7 7 7 4 0 2 0\n";
	struct collected c;
	struct xqi_record g;
	char line[64];

	(void)state;
	read_one("che", text, strlen(text), &g, &c);
	assert_int_equal(c.n, 0);
	assert_string_equal(line_of(&g, line, sizeof(line)), "h0g2 b7e7");
	xqi_record_release(&g);
}

static void che_byte_that_is_not_a_number_is_a_syntax_error_at_its_offset(void **state)
{
	static const char text[] = "1 2 21 32 1 0 1 2 2 0 1 0 10 32 x 7 7 7 4 0 2 0";
	struct collected c;
	struct xqi_record g;
	const struct xq_diagnostic *d;

	(void)state;
	read_one("che", text, strlen(text), &g, &c);
	d = find_diag(&c, XQI_D_SYNTAX, "byte 0x78");
	assert_non_null(d);
	assert_int_equal(d->place.offset, 32);
	assert_true(g.flags & XQI_RECORD_BROKEN);
	xqi_record_release(&g);
}

static void che_huge_count_and_numbers_are_refused_not_trusted(void **state)
{
	static const char count[] = "1 99999 21 32 1 0 1 2 2 0 1 0";
	static const char huge[] = "1 123456789012345678901234567890 21";
	struct collected c;
	struct xqi_record g;

	(void)state;
	read_one("che", count, strlen(count), &g, &c);
	assert_non_null(find_diag(&c, XQI_D_TRUNCATED, "announces 99999 moves and ends after 1"));
	assert_int_equal(xqi_record_mainline_length(&g), 1);
	xqi_record_release(&g);
	read_one("che", huge, strlen(huge), &g, &c);
	assert_non_null(find_diag(&c, XQI_D_SYNTAX, "a number above 100000"));
	xqi_record_release(&g);
}

/* --- XGF --- */

/* An XGF record: fields 1-9, the 9 unknown bytes, the piece list, the moves. */
static size_t xgf_build(unsigned char *b, const uint32_t pieces[32],
			const unsigned char (*moves)[2], uint32_t count, size_t nmoves)
{
	static const char *const fields[9] = {"event", "site", "2005-01-18", "27", "red",
					      "1500", "black", "1500", ""};
	size_t n = 2, base;

	memset(b, 0, 4096);
	b[0] = 0x06;
	b[1] = 0x0b;
	for (int i = 0; i < 9; i++) {
		b[n++] = (unsigned char)(i + 1);
		b[n++] = (unsigned char)strlen(fields[i]);
		memcpy(b + n, fields[i], strlen(fields[i]));
		n += strlen(fields[i]);
	}
	base = n + 9;
	for (int k = 0; k < 32; k++)
		for (int i = 0; i < 4; i++)
			b[base + 212 + 4 * (size_t)k + (size_t)i] = (unsigned char)(pieces[k] >> (8 * i));
	for (int i = 0; i < 4; i++)
		b[base + 344 + (size_t)i] = b[base + 348 + (size_t)i] = (unsigned char)(count >> (8 * i));
	for (size_t m = 0; m < nmoves; m++) {
		b[base + 352 + 20 * m] = moves[m][0];
		b[base + 352 + 20 * m + 2] = moves[m][1];
		memset(b + base + 352 + 20 * m + 17, 0xFF, 3);
	}
	return base + 352 + 20 * nmoves;
}

/* The sample's piece list: the standard position. */
static const uint32_t xgf_standard[32] = {
	0x6b, 0x7b, 0x5b, 0x8b, 0x4b, 0x9b, 0x3b, 0xab, 0x2b, 0x99, 0x39, 0x28, 0x48, 0x68, 0x88, 0xa8,
	0x62, 0x72, 0x52, 0x82, 0x42, 0x92, 0x32, 0xa2, 0x22, 0x94, 0x34, 0x25, 0x45, 0x65, 0x85, 0xa5};

static void xgf_fields_piece_list_and_moves_are_read(void **state)
{
	static const unsigned char moves[2][2] = {{0x39, 0x69}, {0x32, 0x44}};
	unsigned char b[4096];
	struct collected c;
	struct xqi_record g;
	char line[64];
	size_t n = xgf_build(b, xgf_standard, moves, 2, 2);

	(void)state;
	read_one("xgf", b, n, &g, &c);
	assert_int_equal(c.n, 0);
	assert_string_equal(tag(&g, "Event"), "event");
	assert_string_equal(tag(&g, "Date"), "2005.01.18");
	assert_string_equal(tag(&g, "Round"), "27");
	assert_string_equal(tag(&g, "Red"), "red");
	assert_string_equal(tag(&g, "BlackRating"), "1500");
	assert_string_equal(line_of(&g, line, sizeof(line)), "h2e2 h9g7");
	xqi_record_release(&g);
}

static void xgf_piece_list_gives_the_start_position(void **state)
{
	static const unsigned char moves[1][2] = {{0x2b, 0x2a}};
	uint32_t pieces[32] = {0};
	unsigned char b[4096];
	struct collected c;
	struct xqi_record g;
	char fen[128];
	size_t n;

	(void)state;
	pieces[0] = 0x6b;  /* red king e0: column 4 from red's right, row 9 from the top */
	pieces[16] = 0x72; /* black king d9 */
	pieces[24] = 0x22; /* black rook i9 */
	n = xgf_build(b, pieces, moves, 0, 0);
	read_one("xgf", b, n, &g, &c);
	assert_int_equal(count_diags(&c, XQ_SEVERITY_WARNING), 0);
	xqi_position_to_fen(&g.start, fen, sizeof(fen));
	assert_string_equal(fen, "3k4r/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
	assert_true(g.flags & XQI_RECORD_EMPTY);
	xqi_record_release(&g);
}

static void xgf_fields_out_of_order_and_short_records_are_reported(void **state)
{
	static const unsigned char moves[2][2] = {{0x39, 0x69}, {0x32, 0x44}};
	unsigned char b[4096];
	struct collected c;
	struct xqi_record g;
	size_t n = xgf_build(b, xgf_standard, moves, 2, 2);

	(void)state;
	b[2 + 7] = 1; /* field 2 says it is field 1 again */
	read_one("xgf", b, n, &g, &c);
	assert_non_null(find_diag(&c, XQI_D_CORRUPT, "end at field 1, not 9"));
	assert_true(g.flags & XQI_RECORD_BROKEN);
	xqi_record_release(&g);
	b[2 + 7] = 2;
	read_one("xgf", b, n - 10, &g, &c);
	assert_non_null(find_diag(&c, XQI_D_TRUNCATED, "announces 2 moves and ends after 1"));
	xqi_record_release(&g);
	read_one("xgf", b, 200, &g, &c);
	assert_non_null(find_diag(&c, XQI_D_TRUNCATED, "ends inside its board"));
	xqi_record_release(&g);
}

/* --- all of them --- */

static void the_samples_read_whole_with_their_main_lines(void **state)
{
	static const struct {
		const char *file, *fmt;
		uint32_t plies;
		const char *first, *tag, *value;
		int errors;
	} cases[] = {
		{"movesky.mxq", "mxq", 68, "h2e2 h9g7 h0g2 g6g5", "Result", "0-1", 0},
		{"17pk.ccm", "ccm", 100, "h2d2 b7e7 h0g2 b9c7", NULL, NULL, 0},
		{"ourgame.chn", "chn", 45, "h2e2 b9c7 h0g2 h7e7", "Red", "木易四郎", 0},
		{"ourgame.xqi", "chn", 44, "h2e2 b9c7 h0g2 h7e7", "Title", "红方[689] - 黑方[811]", 0},
		{"qqchess.che", "che", 60, "h0g2 b7e7 b2d2 b9c7", NULL, NULL, 1},
		{"xiexie.xgf", "xgf", 53, "h2e2 h9g7 h0g2 i9h9", "Black", "火车头 于幼华", 0},
	};
	char path[512], line[2048];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct collected c;
		struct xqi_record g;
		size_t len;
		char *data;
		snprintf(path, sizeof(path), "tests/data/bin/%s", cases[i].file);
		data = slurp(path, &len);
		assert_non_null(data);
		assert_ptr_equal(xqi_format_detect((const unsigned char *)data,
						  len < XQI_PEEK_SIZE ? len : XQI_PEEK_SIZE, NULL),
				 xqi_format_find(cases[i].fmt));
		read_one(cases[i].fmt, data, len, &g, &c);
		if (count_diags(&c, XQ_SEVERITY_ERROR) != cases[i].errors)
			print_diags(&c);
		assert_int_equal(count_diags(&c, XQ_SEVERITY_ERROR), cases[i].errors);
		assert_int_equal(xqi_record_mainline_length(&g), cases[i].plies);
		assert_true(strncmp(line_of(&g, line, sizeof(line)), cases[i].first,
				    strlen(cases[i].first)) == 0);
		if (cases[i].tag)
			assert_string_equal(tag(&g, cases[i].tag), cases[i].value);
		xqi_record_release(&g);
		free(data);
	}
}

static void an_empty_input_holds_no_game_in_any_of_them(void **state)
{
	static const char *const fmts[] = {"mxq", "ccm", "chn", "che", "xgf"};

	(void)state;
	for (size_t i = 0; i < 5; i++) {
		struct collected c = {0};
		struct xqi_record g[2];
		int rc;
		assert_int_equal(read_games(fmts[i], "", 0, g, 2, &c, &rc), 0);
		assert_int_equal(rc, 0);
		assert_int_equal(c.n, 0);
	}
}

static void a_record_over_the_memory_budget_is_refused_unread(void **state)
{
	struct xqi_read_opts opts = XQI_READ_OPTS_INIT;
	struct collected c = {0};
	struct xqi_record g[2];
	char *data = calloc(1, 300000);
	int rc;

	(void)state;
	assert_non_null(data);
	memcpy(data, "1 2 ", 4);
	memset(data + 4, ' ', 300000 - 4);
	opts.max_memory = ((uint64_t)2 << 20) + 48 * 100000; /* 100,000 bytes a record */
	assert_int_equal(read_games_opts("che", data, 300000, g, 2, &c, &rc, &opts), 0);
	assert_int_equal(rc, XQ_ERANGE);
	assert_non_null(find_diag(&c, XQI_D_RESOURCE, "--max-memory"));
	free(data);
}

static void dates_as_records_write_them_become_pgn_dates(void **state)
{
	char out[16];

	(void)state;
	assert_int_equal(xqi_onegame_date("2016年12月27日 21点14分", strlen("2016年12月27日 21点14分"),
					 out),
			 1);
	assert_string_equal(out, "2016.12.27");
	assert_int_equal(xqi_onegame_date("2005-1-8", 8, out), 1);
	assert_string_equal(out, "2005.01.08");
	assert_int_equal(xqi_onegame_date("2016年13月27日", strlen("2016年13月27日"), out), 0);
	assert_int_equal(xqi_onegame_date("27/12/2016", 10, out), 0);
	assert_int_equal(xqi_onegame_date("2016年", strlen("2016年"), out), 0);
}

static void each_probe_claims_its_own_sample_only(void **state)
{
	static const char *const files[] = {"movesky.mxq", "17pk.ccm", "ourgame.chn", "qqchess.che",
					    "xiexie.xgf"};
	static const char *const fmts[] = {"mxq", "ccm", "chn", "che", "xgf"};
	char path[512];

	(void)state;
	for (size_t i = 0; i < 5; i++) {
		size_t len;
		char *data;
		snprintf(path, sizeof(path), "tests/data/bin/%s", files[i]);
		data = slurp(path, &len);
		assert_non_null(data);
		for (size_t j = 0; j < 5; j++) {
			const struct xqi_format *f = xqi_format_find(fmts[j]);
			int score = f->probe((const unsigned char *)data, len);
			if (i == j)
				assert_true(score >= 80);
			else
				assert_int_equal(score, 0);
		}
		free(data);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mxq_fields_give_tags_players_result_and_closing_comment),
		cmocka_unit_test(mxq_move_that_names_no_square_stops_the_game_at_its_offset),
		cmocka_unit_test(mxq_field_running_past_the_end_is_truncated_not_read_over),
		cmocka_unit_test(ccm_moves_count_columns_from_red_left_and_rows_from_the_top),
		cmocka_unit_test(ccm_count_past_the_end_is_truncated_and_bytes_after_are_trailing),
		cmocka_unit_test(ccm_type_byte_that_disagrees_with_the_board_is_warned_once),
		cmocka_unit_test(chn_header_gives_title_names_date_and_time),
		cmocka_unit_test(chn_start_position_and_first_side_come_from_the_record),
		cmocka_unit_test(chn_record_cut_inside_a_move_is_truncated),
		cmocka_unit_test(che_columns_count_from_red_right_and_rows_from_red_back_rank),
		cmocka_unit_test(che_byte_that_is_not_a_number_is_a_syntax_error_at_its_offset),
		cmocka_unit_test(che_huge_count_and_numbers_are_refused_not_trusted),
		cmocka_unit_test(xgf_fields_piece_list_and_moves_are_read),
		cmocka_unit_test(xgf_piece_list_gives_the_start_position),
		cmocka_unit_test(xgf_fields_out_of_order_and_short_records_are_reported),
		cmocka_unit_test(the_samples_read_whole_with_their_main_lines),
		cmocka_unit_test(an_empty_input_holds_no_game_in_any_of_them),
		cmocka_unit_test(a_record_over_the_memory_budget_is_refused_unread),
		cmocka_unit_test(dates_as_records_write_them_become_pgn_dates),
		cmocka_unit_test(each_probe_claims_its_own_sample_only),
	};
	return cmocka_run_group_tests_name("onegame", tests, NULL, NULL);
}
