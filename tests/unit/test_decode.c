/*
 * test_decode.c: the streaming text decoder of the text formats: lines in
 * another encoding, bytes that are not text, places.
 */
#include "testutil.h"

#include "buf.h"
#include "decode.h"
#include "diagnostic.h"
#include "text.h"

#define GBK_QUANGUO_XIANGQI "\xC8\xAB\xB9\xFA\xCF\xF3\xC6\xE5" /* 全国象棋 */
#define GBK_PAO_ER_PING_WU "\xC5\xDA\xB6\xFE\xC6\xBD\xCE\xE5"  /* 炮二平五 */
#define GBK_WEIZHI "\xCE\xB4\xD6\xAA"                          /* 未知, valid UTF-8 too */
#define BIG5_CHE_MA_PAO "\xA8\xAE\xB0\xA8\xAC\xB6"             /* 車馬炮 */
#define BIG5_PAO_ER_PING_WU "\xAC\xB6\xA4\x47\xA5\xAD\xA4\xAD" /* 炮二平五 */

/* Decode all of `in` (whole input) in `enc` with `flags` into `out`,
 * switching from in place to copying as a reader does. */
static void decode_all(struct xqi_textdec *d, enum xqi_encoding enc, unsigned flags, const char *in,
		       size_t len, struct xq_buf *out)
{
	size_t done = 0;

	assert_int_equal(xqi_textdec_init(d, enc, flags, 0, 0), 0);
	while (done < len) {
		long n;
		int was_copy = d->copy;
		n = xqi_textdec_feed(d, in + done, len - done, 1, d->copy ? out : NULL);
		assert_true(n >= 0);
		if (!was_copy)
			assert_int_equal(xq_buf_add(out, in + done, (size_t)n), 0);
		done += (size_t)n;
		if (was_copy || !d->copy)
			assert_int_equal(done, len);
	}
}

/* decode_all() and the text it makes, which must be `want`. */
static void expect_text(struct xqi_textdec *d, enum xqi_encoding enc, unsigned flags, const char *in,
			size_t len, const char *want)
{
	struct xq_buf out = XQ_BUF_INIT;

	decode_all(d, enc, flags, in, len, &out);
	assert_string_equal(out.ptr, want);
	xq_buf_release(&out);
}

static const struct xqi_textdec_event *next_event(struct xqi_textdec *d)
{
	if (d->ev_first == d->nevents)
		return NULL;
	return &d->events[d->ev_first++];
}

static void legacy_line_cut_at_a_chunk_end_waits_for_its_line_end(void **state)
{
	struct xqi_textdec d;
	struct xq_buf out = XQ_BUF_INIT;
	const char in[] = "1. " GBK_PAO_ER_PING_WU "\n2. ";

	(void)state;
	assert_int_equal(xqi_textdec_init(&d, XQI_ENC_GB18030, XQI_TEXTDEC_MIXED, 0, 0), 0);
	/* Cut inside 二: nothing is whole yet. */
	assert_int_equal(xqi_textdec_feed(&d, in, 6, 0, &out), 0);
	assert_int_equal(out.len, 0);
	/* The line and its end: consumed; "2. " waits for more. */
	assert_int_equal(xqi_textdec_feed(&d, in, sizeof(in) - 1, 0, &out), 12);
	assert_string_equal(out.ptr, "1. 炮二平五\n");
	assert_int_equal(xqi_textdec_feed(&d, in + 12, 3, 1, &out), 3);
	assert_string_equal(out.ptr, "1. 炮二平五\n2. ");
	assert_null(next_event(&d));
	xqi_textdec_release(&d);
	xq_buf_release(&out);
}

static void byte_that_is_not_text_becomes_one_mark_and_an_event(void **state)
{
	struct xqi_textdec d;
	struct xq_buf out = XQ_BUF_INIT;
	const struct xqi_textdec_event *e;

	(void)state;
	/* 0xFF is not Big5; 0xA1 at the very end is a cut character. */
	assert_int_equal(xqi_textdec_init(&d, XQI_ENC_BIG5, XQI_TEXTDEC_BAD_EVENTS, 0, 100), 0);
	assert_int_equal(xqi_textdec_feed(&d, "a\xFF" "b\xA1", 4, 1, &out), 4);
	assert_int_equal(out.len, 4);
	assert_memory_equal(out.ptr, "a\xFF" "b\xFF", 4);
	e = next_event(&d);
	assert_non_null(e);
	assert_int_equal(e->kind, XQI_TEXTDEC_BAD);
	assert_int_equal(e->byte, 0xFF);
	assert_int_equal(e->raw, 101);
	assert_int_equal(e->dpos, 1);
	e = next_event(&d);
	assert_non_null(e);
	assert_int_equal(e->byte, 0xA1);
	assert_int_equal(e->raw, 103);
	assert_null(next_event(&d));
	xqi_textdec_release(&d);
	xq_buf_release(&out);
}

static void nul_byte_is_an_event_in_every_encoding(void **state)
{
	struct xqi_textdec d;
	struct xq_buf out = XQ_BUF_INIT;
	const struct xqi_textdec_event *e;
	const char gbk[] = GBK_PAO_ER_PING_WU "\0x";

	(void)state;
	decode_all(&d, XQI_ENC_GB18030, XQI_TEXTDEC_BAD_EVENTS, gbk, sizeof(gbk) - 1, &out);
	e = next_event(&d);
	assert_non_null(e);
	assert_int_equal(e->byte, 0);
	assert_int_equal(e->raw, 8);
	assert_int_equal(e->dpos, 12); /* after four characters of three UTF-8 bytes */
	assert_int_equal(out.ptr[12], '\0');
	xqi_textdec_release(&d);
	xq_buf_reset(&out);

	decode_all(&d, XQI_ENC_UTF8, XQI_TEXTDEC_BAD_EVENTS, "ab\0c\xE9", 5, &out);
	e = next_event(&d);
	assert_non_null(e);
	assert_int_equal(e->byte, 0);
	assert_int_equal(e->raw, 2);
	e = next_event(&d);
	assert_non_null(e);
	assert_int_equal(e->byte, 0xE9);
	assert_int_equal(e->enc, XQI_ENC_UTF8);
	assert_int_equal(e->raw, 4);
	xqi_textdec_release(&d);
	xq_buf_release(&out);
}

static void events_come_in_the_order_of_their_places(void **state)
{
	struct xqi_textdec d;
	struct xq_buf out = XQ_BUF_INIT;
	const struct xqi_textdec_event *e;
	/* A NUL before the GBK characters of the same line: the line's event
	 * is found first, but comes after the NUL. */
	const char in[] = "{x}\n\0[Event \"" GBK_QUANGUO_XIANGQI "\"]\n";

	(void)state;
	decode_all(&d, XQI_ENC_UTF8, XQI_TEXTDEC_MIXED | XQI_TEXTDEC_BAD_EVENTS, in, sizeof(in) - 1,
		   &out);
	e = next_event(&d);
	assert_non_null(e);
	assert_int_equal(e->kind, XQI_TEXTDEC_BAD);
	assert_int_equal(e->raw, 4);
	e = next_event(&d);
	assert_non_null(e);
	assert_int_equal(e->kind, XQI_TEXTDEC_FOREIGN);
	assert_int_equal(e->raw, 13);
	assert_null(next_event(&d));
	xqi_textdec_release(&d);
	xq_buf_release(&out);
}

static void utf8_is_read_in_place_and_a_stray_byte_stays_where_it_was(void **state)
{
	struct xqi_textdec d;
	const char in[] = "{Café}\n{bad \xE9 byte}\n";

	(void)state;
	assert_int_equal(xqi_textdec_init(&d, XQI_ENC_UTF8, XQI_TEXTDEC_MIXED, 0, 0), 0);
	assert_int_equal(xqi_textdec_feed(&d, in, sizeof(in) - 1, 1, NULL), sizeof(in) - 1);
	assert_int_equal(d.copy, 0);
	assert_null(next_event(&d));
	xqi_textdec_release(&d);
}

static void gbk_line_in_utf8_input_is_converted_and_is_an_event(void **state)
{
	struct xqi_textdec d;
	struct xq_buf out = XQ_BUF_INIT;
	const struct xqi_textdec_event *e;
	const char in[] = "[Event \"Café\"]\n[Event \"" GBK_QUANGUO_XIANGQI "\"]\n{象棋}\n";
	const size_t line2 = sizeof("[Event \"Café\"]\n") - 1;

	(void)state;
	assert_int_equal(xqi_textdec_init(&d, XQI_ENC_UTF8, XQI_TEXTDEC_MIXED, 0, 0), 0);
	/* In place up to the line that needs converting. */
	assert_int_equal(xqi_textdec_feed(&d, in, sizeof(in) - 1, 1, NULL), line2);
	assert_int_equal(d.copy, 1);
	assert_int_equal(xq_buf_add(&out, in, line2), 0);
	assert_int_equal(xqi_textdec_feed(&d, in + line2, sizeof(in) - 1 - line2, 1, &out),
			 sizeof(in) - 1 - line2);
	assert_string_equal(out.ptr, "[Event \"Café\"]\n[Event \"全国象棋\"]\n{象棋}\n");
	e = next_event(&d);
	assert_non_null(e);
	assert_int_equal(e->kind, XQI_TEXTDEC_FOREIGN);
	assert_int_equal(e->enc, XQI_ENC_GB18030);
	assert_int_equal(e->raw, line2 + 8); /* the first byte that is not ASCII */
	assert_int_equal(e->dpos, line2 + 8);
	assert_null(next_event(&d));
	/* The UTF-8 line after it is UTF-8 again. */
	assert_int_equal(xqi_textdec_enc_at(&d, line2 + 8), XQI_ENC_GB18030);
	assert_int_equal(xqi_textdec_enc_at(&d, out.len - 3), XQI_ENC_UTF8);
	xqi_textdec_release(&d);
	xq_buf_release(&out);
}

static void big5_line_in_utf8_input_is_read_as_big5(void **state)
{
	struct xqi_textdec d;
	const struct xqi_textdec_event *e;
	const char in[] = "{象棋}\n1. " BIG5_PAO_ER_PING_WU " " BIG5_CHE_MA_PAO "\n";

	(void)state;
	expect_text(&d, XQI_ENC_UTF8, XQI_TEXTDEC_MIXED, in, sizeof(in) - 1,
		    "{象棋}\n1. 炮二平五 車馬炮\n");
	e = next_event(&d);
	assert_non_null(e);
	assert_int_equal(e->enc, XQI_ENC_BIG5);
	xqi_textdec_release(&d);
}

static void latin1_letters_inside_words_are_read_as_windows_1252_not_gbk(void **state)
{
	struct xqi_textdec d;
	struct xq_buf out = XQ_BUF_INIT;
	const struct xqi_textdec_event *e;
	/* è before 's' and é before 'f' are valid GBK pairs, but no pair
	 * is two bytes that are both not ASCII: Latin letters in words. */
	const char in[] = "{tr\xE8s D\xE9" "fense}\n";

	(void)state;
	assert_int_equal(xqi_textdec_init(&d, XQI_ENC_UTF8, XQI_TEXTDEC_MIXED | XQI_TEXTDEC_COPY, 0, 0),
			 0);
	assert_int_equal(xqi_textdec_line_encoding(&d, in, sizeof(in) - 1), XQI_ENC_CP1252);
	assert_int_equal(xqi_textdec_feed(&d, in, sizeof(in) - 1, 1, &out), sizeof(in) - 1);
	assert_string_equal(out.ptr, "{très Défense}\n");
	e = next_event(&d);
	assert_non_null(e);
	assert_int_equal(e->kind, XQI_TEXTDEC_FOREIGN);
	assert_int_equal(e->enc, XQI_ENC_CP1252);
	assert_int_equal(e->raw, 3);
	/* Places after it walk one source byte for each of its characters. */
	assert_int_equal(xqi_textdec_enc_at(&d, 5), XQI_ENC_CP1252);
	{
		uint64_t dp = 0, rp = 0;
		xqi_textdec_walk(&d, out.ptr, 0, in, 0, sizeof(in) - 1, &dp, &rp, out.len);
		assert_int_equal(rp, sizeof(in) - 1);
	}
	xqi_textdec_release(&d);
	xq_buf_release(&out);
}

static void a_lone_accent_or_a_byte_that_is_no_letter_is_no_western_text(void **state)
{
	struct xqi_textdec d;
	static const char *const lines[] = {
		"{bad \xE9 byte}\n",  /* an accent alone is no evidence */
		"{x\xFFy}\n",         /* 0xFF, the stray byte of every test */
		"{a\x81" "b}\n",       /* a byte Windows-1252 leaves undefined */
		"{Caf\xE9\xE9\xE9}\n", /* three in a row */
		"{\xC9\xC9\xC9" "a}\n",
	};

	(void)state;
	assert_int_equal(xqi_textdec_init(&d, XQI_ENC_UTF8, XQI_TEXTDEC_MIXED, 0, 0), 0);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (xqi_textdec_line_encoding(&d, lines[i], strlen(lines[i])) == XQI_ENC_CP1252)
			fail_msg("line %zu was read as windows-1252", i);
	xqi_textdec_release(&d);
}

static void gbk_that_reads_as_chinese_is_not_taken_for_western(void **state)
{
	struct xqi_textdec d;
	/* 和 in GBK (BA CD) reads as the sign º and the letter Í alone. */
	const char in[] = "[Result \"\xBA\xCD\"]\n";

	(void)state;
	assert_int_equal(xqi_textdec_init(&d, XQI_ENC_UTF8, XQI_TEXTDEC_MIXED, 0, 0), 0);
	assert_int_equal(xqi_textdec_line_encoding(&d, in, sizeof(in) - 1), XQI_ENC_GB18030);
	xqi_textdec_release(&d);
}

static void a_western_input_is_windows_1252_and_its_chinese_lines_are_read_so(void **state)
{
	struct xqi_textdec d;
	struct xq_buf out = XQ_BUF_INIT;
	const char west[] = "[Event \"Caf\xE9 Open \x96 2001\"]\n[Black \"M\xFCller\"]\n\n1. h2e2 *\n";
	const char mixed[] = "[Red \"Andr\xE9\"]\n[Black \"" GBK_PAO_ER_PING_WU "\"]\n";
	const char gbk[] = "[Event \"" GBK_PAO_ER_PING_WU "\"]\n[Red \"Andr\xE9\"]\n[Black \"" GBK_PAO_ER_PING_WU "\"]\n";
	const char utf8[] = "[Event \"第二轮\"]\n[Red \"胡荣华\"]\n[Black \"L\xE9on\"]\n";

	(void)state;
	assert_int_equal(xqi_textdec_detect(west, sizeof(west) - 1), XQI_ENC_CP1252);
	assert_int_equal(xqi_textdec_detect(gbk, sizeof(gbk) - 1), XQI_ENC_GB18030);
	assert_int_equal(xqi_textdec_detect(utf8, sizeof(utf8) - 1), XQI_ENC_UTF8);
	/* A GBK line in a Windows-1252 input is read in GB18030. */
	assert_int_equal(xqi_textdec_init(&d, XQI_ENC_CP1252, XQI_TEXTDEC_MIXED, 0, 0), 0);
	assert_int_equal(xqi_textdec_feed(&d, mixed, sizeof(mixed) - 1, 1, &out), sizeof(mixed) - 1);
	assert_string_equal(out.ptr, "[Red \"André\"]\n[Black \"炮二平五\"]\n");
	assert_int_equal(next_event(&d)->enc, XQI_ENC_GB18030);
	assert_null(next_event(&d));
	xqi_textdec_release(&d);
	xq_buf_release(&out);
}

static void an_encoding_iconv_knows_is_read_and_walked_by_its_lead_bytes(void **state)
{
	struct xqi_textdec d;
	struct xq_buf out = XQ_BUF_INIT;
	enum xqi_encoding e;
	/* 중국 in EUC-KR (two bytes each), then ASCII. */
	const char in[] = "{\xC1\xDF\xB1\xB9 x}\n";
	uint64_t dp = 0, rp = 0;

	(void)state;
	assert_int_equal(xqi_encoding_parse("EUC-KR", &e), 0);
	assert_int_equal(xqi_textdec_init(&d, e, 0, 0, 0), 0);
	assert_int_equal(xqi_textdec_feed(&d, in, sizeof(in) - 1, 1, &out), sizeof(in) - 1);
	assert_string_equal(out.ptr, "{중국 x}\n");
	/* The 'x' is at source offset 6. */
	xqi_textdec_walk(&d, out.ptr, 0, in, 0, sizeof(in) - 1, &dp, &rp, 8);
	assert_int_equal(rp, 6);
	xqi_textdec_release(&d);
	xq_buf_release(&out);
}

static void utf8_with_more_good_characters_than_bad_bytes_stays_utf8(void **state)
{
	struct xqi_textdec d;
	/* 象棋 in UTF-8 is also valid GB18030; one stray byte does not make
	 * the line GB18030. */
	const char in[] = "{象棋\xB0\xA1}\n";

	(void)state;
	assert_int_equal(xqi_textdec_init(&d, XQI_ENC_UTF8, XQI_TEXTDEC_MIXED, 0, 0), 0);
	assert_int_equal(xqi_textdec_line_encoding(&d, in, sizeof(in) - 1), XQI_ENC_UTF8);
	xqi_textdec_release(&d);
}

static void utf8_chinese_line_in_gbk_input_is_read_as_utf8(void **state)
{
	struct xqi_textdec d;
	const struct xqi_textdec_event *e;
	const char in[] = "[Event \"" GBK_QUANGUO_XIANGQI "\"]\r\n[Site \"象棋\"]\r\n1. " GBK_PAO_ER_PING_WU
			  "\r\n";

	(void)state;
	expect_text(&d, XQI_ENC_GB18030, XQI_TEXTDEC_MIXED, in, sizeof(in) - 1,
		    "[Event \"全国象棋\"]\r\n[Site \"象棋\"]\r\n1. 炮二平五\r\n");
	e = next_event(&d);
	assert_non_null(e);
	assert_int_equal(e->enc, XQI_ENC_UTF8);
	assert_int_equal(e->raw, 20 + 7);
	assert_null(next_event(&d));
	xqi_textdec_release(&d);
}

static void accented_utf8_word_in_gbk_input_is_read_as_utf8(void **state)
{
	struct xqi_textdec d;
	const char in[] = "[Event \"" GBK_QUANGUO_XIANGQI "\"]\n[Site \"Café de Paris\"]\n";

	(void)state;
	expect_text(&d, XQI_ENC_GB18030, XQI_TEXTDEC_MIXED, in, sizeof(in) - 1,
		    "[Event \"全国象棋\"]\n[Site \"Café de Paris\"]\n");
	assert_non_null(next_event(&d));
	xqi_textdec_release(&d);
}

static void gbk_that_happens_to_be_valid_utf8_stays_gbk(void **state)
{
	struct xqi_textdec d;
	/* 未知 in GBK is the valid UTF-8 "δ֪": Greek and Hebrew, not words. */
	const char in[] = "[Result \"" GBK_WEIZHI "\"]\n";

	(void)state;
	expect_text(&d, XQI_ENC_GB18030, XQI_TEXTDEC_MIXED, in, sizeof(in) - 1,
		    "[Result \"未知\"]\n");
	assert_null(next_event(&d));
	xqi_textdec_release(&d);
}

static void gbk_that_happens_to_be_valid_utf8_in_utf8_input_stays_utf8_and_is_an_event(void **state)
{
	struct xqi_textdec d;
	const struct xqi_textdec_event *e;
	/* "δ֪" (a Greek letter and a Hebrew mark) is no text: 未知 is.  A
	 * UTF-8 text always reads as itself, so it stays, with a warning. */
	const char in[] = "[Event \"象棋\"]\n[Result \"" GBK_WEIZHI "\"]\n{é}\n";

	(void)state;
	assert_int_equal(xqi_textdec_init(&d, XQI_ENC_UTF8, XQI_TEXTDEC_MIXED, 0, 0), 0);
	assert_int_equal(xqi_textdec_feed(&d, in, sizeof(in) - 1, 1, NULL), sizeof(in) - 1);
	assert_int_equal(d.copy, 0);
	e = next_event(&d);
	assert_non_null(e);
	assert_int_equal(e->kind, XQI_TEXTDEC_AMBIGUOUS);
	assert_int_equal(e->enc, XQI_ENC_GB18030);
	assert_int_equal(e->raw, 26);
	/* A lone accent (茅 in GBK) is too little to say anything. */
	assert_null(next_event(&d));
	xqi_textdec_release(&d);
}

static void utf8_words_and_signs_of_two_bytes_stay_utf8(void **state)
{
	struct xqi_textdec d;
	const char *lines[] = {"{½ pawn, 25°, «José»}\n", "[Black \"Иванов\"]\n", "{Ωmega 5Ω}\n",
			       "[Site \"Café\"]\n"};

	(void)state;
	assert_int_equal(xqi_textdec_init(&d, XQI_ENC_UTF8, XQI_TEXTDEC_MIXED, 0, 0), 0);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		assert_int_equal(xqi_textdec_line_encoding(&d, lines[i], strlen(lines[i])), XQI_ENC_UTF8);
		assert_int_equal(xqi_textdec_feed(&d, lines[i], strlen(lines[i]), 1, NULL),
				 (long)strlen(lines[i]));
		assert_int_equal(d.copy, 0);
	}
	assert_null(next_event(&d));
	xqi_textdec_release(&d);
}

static void bom_of_an_appended_utf8_file_starts_a_utf8_line_in_gbk_input(void **state)
{
	struct xqi_textdec d;
	const struct xqi_textdec_event *e;
	const char in[] = "1. " GBK_PAO_ER_PING_WU "\n\xEF\xBB\xBF[Event \"x\"]\n";

	(void)state;
	expect_text(&d, XQI_ENC_GB18030, XQI_TEXTDEC_MIXED, in, sizeof(in) - 1,
		    "1. 炮二平五\n\xEF\xBB\xBF[Event \"x\"]\n");
	e = next_event(&d);
	assert_non_null(e);
	assert_int_equal(e->enc, XQI_ENC_UTF8);
	assert_int_equal(e->raw, 12);
	xqi_textdec_release(&d);
}

static void given_encoding_reads_every_line_in_it(void **state)
{
	struct xqi_textdec d;
	const char in[] = "[Event \"" GBK_QUANGUO_XIANGQI "\"]\n";

	(void)state;
	/* No XQI_TEXTDEC_MIXED: the user said UTF-8, the GBK bytes are bad. */
	assert_int_equal(xqi_textdec_init(&d, XQI_ENC_UTF8, XQI_TEXTDEC_BAD_EVENTS, 0, 0), 0);
	assert_int_equal(xqi_textdec_feed(&d, in, sizeof(in) - 1, 1, NULL), sizeof(in) - 1);
	assert_int_equal(d.copy, 0);
	assert_int_equal(next_event(&d)->kind, XQI_TEXTDEC_BAD);
	xqi_textdec_release(&d);
}

static void walk_turns_decoded_places_into_source_offsets_across_encodings(void **state)
{
	struct xqi_textdec d;
	struct xq_buf out = XQ_BUF_INIT;
	const char in[] = "{象棋}\n{" GBK_PAO_ER_PING_WU "}\n{\xE9}x\n";
	uint64_t dp = 0, rp = 0;
	const char *x;

	(void)state;
	decode_all(&d, XQI_ENC_UTF8, XQI_TEXTDEC_MIXED, in, sizeof(in) - 1, &out);
	/* The 'x' of the last line: after 3 UTF-8 lines' worth of shifts. */
	x = strchr(out.ptr, 'x');
	assert_non_null(x);
	xqi_textdec_walk(&d, out.ptr, 0, in, 0, sizeof(in) - 1, &dp, &rp, (uint64_t)(x - out.ptr));
	assert_int_equal(rp, (uint64_t)(strchr(in, 'x') - in));
	/* 五 in the GBK line: source offset 10 + 6. */
	dp = rp = 0;
	x = strstr(out.ptr, "五");
	xqi_textdec_walk(&d, out.ptr, 0, in, 0, sizeof(in) - 1, &dp, &rp, (uint64_t)(x - out.ptr));
	assert_int_equal(rp, 10 + 6);
	xqi_textdec_release(&d);
	xq_buf_release(&out);
}

static void long_line_is_decided_in_pieces_cut_after_a_low_byte(void **state)
{
	struct xqi_textdec d;
	struct xq_buf out = XQ_BUF_INIT;
	size_t n = XQI_TEXTDEC_LINE_MAX + 1000;
	char *in = malloc(n);
	long got;

	(void)state;
	assert_non_null(in);
	for (size_t i = 0; i < n; i += 8)
		memcpy(in + i, "\xC5\xDA\xB6\xFE\xC6\xBD  ", 8 < n - i ? 8 : n - i);
	assert_int_equal(xqi_textdec_init(&d, XQI_ENC_GB18030, XQI_TEXTDEC_MIXED, 0, 0), 0);
	got = xqi_textdec_feed(&d, in, n, 0, &out);
	/* No line end: the first piece ends after the last space within it. */
	assert_true(got > 0 && (size_t)got <= XQI_TEXTDEC_LINE_MAX);
	assert_int_equal(in[got - 1], ' ');
	assert_null(memchr(out.ptr, XQI_DECODE_BAD, out.len));
	xqi_textdec_release(&d);
	xq_buf_release(&out);
	free(in);
}

static void utf16_holds_back_a_cut_character(void **state)
{
	struct xqi_textdec d;
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	assert_int_equal(xqi_textdec_init(&d, XQI_ENC_UTF16LE, XQI_TEXTDEC_MIXED, 0, 2), 0);
	assert_int_equal(xqi_textdec_feed(&d, "a\0b", 3, 0, &out), 2);
	assert_string_equal(out.ptr, "a");
	assert_int_equal(xqi_textdec_feed(&d, "b\0", 2, 1, &out), 2);
	assert_string_equal(out.ptr, "ab");
	xqi_textdec_release(&d);
	xq_buf_release(&out);
}

static void utf8_input_with_one_stray_byte_is_detected_as_utf8(void **state)
{
	/* The accents alone are too few for the byte count, but no line is
	 * GB18030: the input is UTF-8 and the stray byte is reported. */
	const char in[] = "[Event \"Café open\"]\n{très bien}\n{bad \xE9 byte}\n";

	(void)state;
	assert_int_equal(xqi_textdec_detect(in, sizeof(in) - 1), XQI_ENC_UTF8);
}

static void gbk_input_with_one_utf8_game_is_detected_as_gbk(void **state)
{
	const char in[] = "[Event \"象棋\"]\n[Event \"" GBK_QUANGUO_XIANGQI "\"]\n1. " GBK_PAO_ER_PING_WU
			  "\n[Result \"" GBK_WEIZHI "\"]\n";

	(void)state;
	assert_int_equal(xqi_textdec_detect(in, sizeof(in) - 1), XQI_ENC_GB18030);
}

static void bad_byte_message_says_what_was_done(void **state)
{
	char buf[160];

	(void)state;
	assert_string_equal(xqi_textdec_bad_message(buf, sizeof(buf), 0xE9, XQI_ENC_UTF8, 114),
			    "byte 0xE9 at offset 114 is not valid utf-8: the game holding it is "
			    "marked broken");
	assert_string_equal(xqi_textdec_bad_message(buf, sizeof(buf), 0, XQI_ENC_GB18030, 7),
			    "a NUL byte at offset 7 is not text: the game holding it is marked "
			    "broken");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(legacy_line_cut_at_a_chunk_end_waits_for_its_line_end),
		cmocka_unit_test(byte_that_is_not_text_becomes_one_mark_and_an_event),
		cmocka_unit_test(nul_byte_is_an_event_in_every_encoding),
		cmocka_unit_test(events_come_in_the_order_of_their_places),
		cmocka_unit_test(utf8_is_read_in_place_and_a_stray_byte_stays_where_it_was),
		cmocka_unit_test(gbk_line_in_utf8_input_is_converted_and_is_an_event),
		cmocka_unit_test(big5_line_in_utf8_input_is_read_as_big5),
		cmocka_unit_test(latin1_letters_inside_words_are_read_as_windows_1252_not_gbk),
		cmocka_unit_test(a_lone_accent_or_a_byte_that_is_no_letter_is_no_western_text),
		cmocka_unit_test(gbk_that_reads_as_chinese_is_not_taken_for_western),
		cmocka_unit_test(a_western_input_is_windows_1252_and_its_chinese_lines_are_read_so),
		cmocka_unit_test(an_encoding_iconv_knows_is_read_and_walked_by_its_lead_bytes),
		cmocka_unit_test(utf8_with_more_good_characters_than_bad_bytes_stays_utf8),
		cmocka_unit_test(utf8_chinese_line_in_gbk_input_is_read_as_utf8),
		cmocka_unit_test(accented_utf8_word_in_gbk_input_is_read_as_utf8),
		cmocka_unit_test(gbk_that_happens_to_be_valid_utf8_stays_gbk),
		cmocka_unit_test(gbk_that_happens_to_be_valid_utf8_in_utf8_input_stays_utf8_and_is_an_event),
		cmocka_unit_test(utf8_words_and_signs_of_two_bytes_stay_utf8),
		cmocka_unit_test(bom_of_an_appended_utf8_file_starts_a_utf8_line_in_gbk_input),
		cmocka_unit_test(given_encoding_reads_every_line_in_it),
		cmocka_unit_test(walk_turns_decoded_places_into_source_offsets_across_encodings),
		cmocka_unit_test(long_line_is_decided_in_pieces_cut_after_a_low_byte),
		cmocka_unit_test(utf16_holds_back_a_cut_character),
		cmocka_unit_test(utf8_input_with_one_stray_byte_is_detected_as_utf8),
		cmocka_unit_test(gbk_input_with_one_utf8_game_is_detected_as_gbk),
		cmocka_unit_test(bad_byte_message_says_what_was_done),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
