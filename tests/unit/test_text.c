/*
 * test_text.c: growable buffers, UTF-8, JSON strings, encodings.
 */
#include "testutil.h"

#include "buf.h"
#include "diagnostic.h"
#include "text.h"
#include "utf8.h"

static void buf_grows_and_stays_nul_terminated(void **state)
{
	struct xq_buf b = XQ_BUF_INIT;

	(void)state;
	assert_string_equal(b.ptr, "");
	for (int i = 0; i < 1000; i++)
		assert_int_equal(xq_buf_addf(&b, "%d,", i), 0);
	assert_int_equal(b.ptr[b.len], '\0');
	assert_memory_equal(b.ptr, "0,1,2,", 6);
	xq_buf_truncate(&b, 2);
	assert_string_equal(b.ptr, "0,");
	xq_buf_release(&b);
	assert_string_equal(b.ptr, "");
}

static void json_strings_escape_controls_and_keep_utf8(void **state)
{
	struct xq_buf b = XQ_BUF_INIT;
	const char in[] = "炮二平五 \"q\"\\\n\t\x01";

	(void)state;
	xq_buf_add_json_string(&b, in, sizeof(in) - 1);
	assert_string_equal(b.ptr, "\"炮二平五 \\\"q\\\"\\\\\\n\\t\\u0001\"");
	xq_buf_reset(&b);
	xq_buf_add_json_string(&b, "a\xff" "b", 3);
	assert_string_equal(b.ptr, "\"a\xEF\xBF\xBD" "b\"");
	xq_buf_release(&b);
}

/* The one XML escaper: markup escaped, quotes only in attributes, a
 * carriage return kept as a reference, what XML cannot hold left out and
 * counted; the sticky error is its result. */
static void xml_text_escapes_markup_and_counts_what_xml_cannot_hold(void **state)
{
	struct xq_buf b = XQ_BUF_INIT;
	const char in[] = "a<b>&\"c\" 炮\r\n\t\x01\x1F.";
	size_t dropped = 0;

	(void)state;
	assert_int_equal(xqi_buf_add_xml(&b, in, sizeof(in) - 1, 0, &dropped), 0);
	assert_string_equal(b.ptr, "a&lt;b&gt;&amp;\"c\" 炮&#13;\n\t.");
	assert_int_equal(dropped, 2);
	xq_buf_reset(&b);
	assert_int_equal(xqi_buf_add_xml(&b, "\"x\"", 3, XQI_XML_ATTR, NULL), 0);
	assert_string_equal(b.ptr, "&quot;x&quot;");
	b.err = XQ_ENOMEM;
	assert_int_equal(xqi_buf_add_xml(&b, "y", 1, 0, NULL), XQ_ENOMEM);
	xq_buf_release(&b);
}

static void utf8_decoder_rejects_overlong_and_surrogates(void **state)
{
	uint32_t cp;

	(void)state;
	assert_int_equal(xq_utf8_decode("\xC0\xAF", 2, &cp), 0);     /* overlong '/' */
	assert_int_equal(xq_utf8_decode("\xED\xA0\x80", 3, &cp), 0); /* surrogate */
	assert_int_equal(xq_utf8_decode("\xE7\x82\xAE", 3, &cp), 3); /* 炮 */
	assert_int_equal(cp, 0x70AE);
	assert_int_equal(xq_utf8_decode("\xE7\x82", 2, &cp), 0);     /* cut short */
	assert_int_equal(xq_utf8_check("ab\xE7\x82\xAE\xFF", 6), 5);
	assert_int_equal(xqi_fold_fullwidth(0xFF23), 'C');
	assert_int_equal(xqi_fold_fullwidth(0xFF12), '2');
}

/* xq_utf8_check() as a character-by-character reading gives it. */
static size_t check_by_characters(const char *s, size_t len, int stop_at_two)
{
	size_t i = 0;

	while (i < len) {
		size_t n = (unsigned char)s[i] < 0x80 ? 1 : xq_utf8_valid_prefix(s + i, len - i);
		if (!n || (n == 2 && stop_at_two))
			return i;
		i += n;
	}
	return len;
}

static void utf8_check_agrees_with_a_reading_by_characters_on_random_text(void **state)
{
	/* Pieces that make the text the checks take sixteen bytes at a
	 * time, and what breaks it anywhere in a block: a two- or four-byte
	 * character, E0 and ED leads, a lone or missing continuation byte. */
	static const char *const pieces[] = {
		"a", " ", "1. ", "\xE7\x82\xAE", "\xE4\xBA\x8C", "\xEF\xBC\x98", "\xE3\x80\x80",
		"\xEF\xBB\xBF", "\xC3\xA9", "\xF0\x9F\x98\x80", "\xE0\xA4\x95", "\xED\x9F\xBF",
		"\xED\xA0\x80", "\xE0\x80\xAF", "\x80", "\xE7\x82", "\xFF", "\xC0\xAF",
	};
	unsigned seed = 12345;
	char text[200];

	(void)state;
	for (int round = 0; round < 20000; round++) {
		size_t len = 0, n;
		while (len < 150) {
			const char *p;
			seed = seed * 1103515245u + 12345u;
			/* mostly good text, now and then a piece that is not */
			p = pieces[(seed >> 16) % (round % 3 ? 6 : sizeof(pieces) / sizeof(pieces[0]))];
			n = strlen(p);
			memcpy(text + len, p, n);
			len += n;
		}
		for (size_t cut = len - 20; cut <= len; cut++) {
			if (xq_utf8_check(text, cut) != check_by_characters(text, cut, 0))
				fail_msg("round %d: xq_utf8_check differs at length %zu", round, cut);
			if (xqi_utf8_check_long(text, cut) != check_by_characters(text, cut, 1))
				fail_msg("round %d: xqi_utf8_check_long differs at length %zu", round, cut);
		}
	}
}

static void gb18030_and_big5_decode_to_utf8(void **state)
{
	struct xq_buf out = XQ_BUF_INIT;
	size_t bad = 0;

	(void)state;
	/* 炮二平五 in GBK, 馬８進７ in Big5. */
	assert_int_equal(xqi_decode(XQI_ENC_GB18030, "\xC5\xDA\xB6\xFE\xC6\xBD\xCE\xE5", 8, &out, &bad), 0);
	assert_string_equal(out.ptr, "炮二平五");
	xq_buf_reset(&out);
	assert_int_equal(xqi_decode(XQI_ENC_BIG5, "\xB0\xA8\xA2\xB7\xB6\x69\xA2\xB6", 8, &out, &bad), 0);
	assert_string_equal(out.ptr, "馬８進７");
	xq_buf_release(&out);
}

static void undecodable_byte_is_reported_with_its_offset(void **state)
{
	struct xq_buf out = XQ_BUF_INIT;
	size_t bad = 0;

	(void)state;
	assert_int_equal(xqi_decode(XQI_ENC_UTF8, "ok\xFFno", 5, &out, &bad), XQ_EENCODING);
	assert_int_equal(bad, 2);
	assert_string_equal(out.ptr, "ok");
	xq_buf_reset(&out);
	assert_int_equal(xqi_decode(XQI_ENC_GB18030, "ab\xC5", 3, &out, &bad), XQ_EENCODING);
	assert_int_equal(bad, 2);
	xq_buf_release(&out);
}

static void character_outside_target_encoding_is_an_error(void **state)
{
	struct xq_buf out = XQ_BUF_INIT;
	size_t bad = 0;

	(void)state;
	assert_int_equal(xqi_encode(XQI_ENC_GBK, "炮二平五", strlen("炮二平五"), &out, &bad), 0);
	assert_int_equal(out.len, 8);
	xq_buf_reset(&out);
	/* U+1F600 has no GBK form. */
	assert_int_equal(xqi_encode(XQI_ENC_GBK, "ab\xF0\x9F\x98\x80", 6, &out, &bad), XQ_EENCODING);
	assert_int_equal(bad, 2);
	xq_buf_release(&out);
}

static void detection_tells_utf8_gbk_and_big5_apart(void **state)
{
	size_t bom = 0;
	const char gbk[] = "\xC5\xDA\xB6\xFE\xC6\xBD\xCE\xE5 \xC2\xED\xA3\xB8\xBD\xF8\xA3\xB7"; /* 炮二平五 马８进７ */
	const char big5[] = "\xAF\xA5\xA4\x47\xA5\xAD\xA4\xAD \xB0\xA8\xA2\xB7\xB6\x69\xA2\xB6"; /* 砲二平五 馬８進７ */

	(void)state;
	assert_int_equal(xqi_encoding_detect("\xEF\xBB\xBF[Game", 8, &bom), XQI_ENC_UTF8);
	assert_int_equal(bom, 3);
	assert_int_equal(xqi_encoding_detect("炮二平五", strlen("炮二平五"), &bom), XQI_ENC_UTF8);
	assert_int_equal(bom, 0);
	assert_int_equal(xqi_encoding_detect(gbk, sizeof(gbk) - 1, &bom), XQI_ENC_GB18030);
	assert_int_equal(xqi_encoding_detect(big5, sizeof(big5) - 1, &bom), XQI_ENC_BIG5);
}

static void utf8_with_a_stray_bad_byte_is_still_utf8(void **state)
{
	const char text[] = "[Event \"中国象棋\"]\n{注释\xFF} 1. 炮二平五 马８进７ *\n";

	(void)state;
	assert_int_equal(xqi_encoding_detect(text, sizeof(text) - 1, NULL), XQI_ENC_UTF8);
}

static void encoding_names_parse(void **state)
{
	enum xqi_encoding e;

	(void)state;
	assert_int_equal(xqi_encoding_parse("GBK", &e), 0);
	assert_int_equal(e, XQI_ENC_GBK);
	assert_int_equal(xqi_encoding_parse("cp950", &e), 0);
	assert_int_equal(e, XQI_ENC_BIG5);
	assert_int_equal(xqi_encoding_parse("klingon", &e), -1);
}

static void western_names_and_every_ascii_keeping_iconv_name_parse(void **state)
{
	static const char *const cp1252[] = {"cp1252", "Windows-1252", "WIN-1252", "ms-ansi"};
	static const char *const latin1[] = {"latin1", "ISO-8859-1", "iso8859-1", "L1", "latin-1"};
	/* Not ASCII as it is: two or four bytes a character, shifts, EBCDIC, a yen for '\\'. */
	static const char *const refused[] = {"utf-32", "UCS-2", "utf-7", "iso-2022-jp", "cp037",
					      "shift_jis", "hz-gb-2312"};
	enum xqi_encoding e;

	(void)state;
	for (size_t i = 0; i < sizeof(cp1252) / sizeof(cp1252[0]); i++) {
		assert_int_equal(xqi_encoding_parse(cp1252[i], &e), 0);
		assert_int_equal(e, XQI_ENC_CP1252);
	}
	assert_string_equal(xqi_encoding_name(XQI_ENC_CP1252), "windows-1252");
	for (size_t i = 0; i < sizeof(latin1) / sizeof(latin1[0]); i++) {
		assert_int_equal(xqi_encoding_parse(latin1[i], &e), 0);
		assert_int_equal(e, XQI_ENC_LATIN1);
	}
	assert_string_equal(xqi_encoding_name(XQI_ENC_LATIN1), "iso-8859-1");
	assert_int_equal(xqi_encoding_parse("KOI8-R", &e), 0);
	assert_true(e >= XQI_ENC_ICONV);
	assert_string_equal(xqi_encoding_name(e), "koi8-r");
	assert_int_equal(xqi_encoding_parse("latin9", &e), 0);
	assert_string_equal(xqi_encoding_name(e), "latin9");
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (xqi_encoding_parse(refused[i], &e) == 0)
			fail_msg("%s was taken", refused[i]);
}

static void lead_lengths_say_how_long_each_character_is(void **state)
{
	enum xqi_encoding e;
	unsigned char lead[128];

	(void)state;
	assert_int_equal(xqi_encoding_parse("cp932", &e), 0);
	assert_int_equal(xqi_encoding_lead_lengths(e, lead), 0);
	assert_int_equal(lead[0x81 - 0x80], 2); /* a kanji's first byte */
	assert_int_equal(lead[0xB1 - 0x80], 1); /* a half-width katakana */
	assert_int_equal(xqi_encoding_parse("euc-jp", &e), 0);
	assert_int_equal(xqi_encoding_lead_lengths(e, lead), 0);
	assert_int_equal(lead[0x8F - 0x80], 3);
	assert_int_equal(lead[0xB0 - 0x80], 2);
	assert_int_equal(xqi_encoding_parse("koi8-r", &e), 0);
	assert_int_equal(xqi_encoding_lead_lengths(e, lead), 0);
	for (int i = 0; i < 128; i++)
		assert_int_equal(lead[i], 1);
}

static void char_len_follows_each_encoding(void **state)
{
	(void)state;
	assert_int_equal(xqi_encoding_char_len(XQI_ENC_GB18030, (const unsigned char *)"a", 1), 1);
	assert_int_equal(xqi_encoding_char_len(XQI_ENC_GB18030, (const unsigned char *)"\xC5\xDA", 2), 2);
	assert_int_equal(xqi_encoding_char_len(XQI_ENC_GB18030, (const unsigned char *)"\x81\x30\x81\x30", 4), 4);
	assert_int_equal(xqi_encoding_char_len(XQI_ENC_BIG5, (const unsigned char *)"\xB0\xA8", 2), 2);
	assert_int_equal(xqi_encoding_char_len(XQI_ENC_BIG5, (const unsigned char *)"\x80", 1), 1);
	assert_int_equal(xqi_encoding_char_len(XQI_ENC_UTF16LE, (const unsigned char *)"a\0", 2), 2);
	assert_int_equal(xqi_encoding_char_len(XQI_ENC_UTF16LE, (const unsigned char *)"\x3D\xD8\x00\xDE", 4), 4);
	assert_int_equal(xqi_encoding_char_len(XQI_ENC_UTF8, (const unsigned char *)"\xE7\x82\xAE", 3), 3);
	assert_int_equal(xqi_encoding_char_len(XQI_ENC_UTF8, (const unsigned char *)"\xFF", 1), 1);
}

static void transcoder_converts_many_strings_with_one_descriptor(void **state)
{
	struct xqi_transcoder dec, enc;
	struct xq_buf out = XQ_BUF_INIT;
	size_t bad = 0;

	(void)state;
	xqi_transcoder_init(&dec, XQI_ENC_GB18030, XQI_ENC_UTF8);
	xqi_transcoder_init(&enc, XQI_ENC_UTF8, XQI_ENC_BIG5);
	/* ASCII needs no descriptor; the first Chinese string opens one. */
	assert_int_equal(xqi_transcoder_convert(&dec, "abc", 3, &out, &bad), 0);
	assert_null(dec.cd);
	for (int i = 0; i < 3; i++) {
		void *cd;
		xq_buf_reset(&out);
		assert_int_equal(xqi_transcoder_convert(&dec, "\xC5\xDA\xB6\xFE\xC6\xBD\xCE\xE5", 8, &out,
							&bad), 0);
		assert_string_equal(out.ptr, "炮二平五");
		cd = dec.cd;
		assert_non_null(cd);
		xq_buf_reset(&out);
		assert_int_equal(xqi_transcoder_convert(&enc, "馬８進７", strlen("馬８進７"), &out, &bad), 0);
		assert_memory_equal(out.ptr, "\xB0\xA8\xA2\xB7\xB6\x69\xA2\xB6", 8);
		assert_ptr_equal(dec.cd, cd); /* kept, not reopened */
	}
	xqi_transcoder_release(&dec);
	xqi_transcoder_release(&enc);
	assert_null(dec.cd);
	xq_buf_release(&out);
}

static void transcoder_reports_a_bad_byte_and_goes_on_with_the_next_string(void **state)
{
	struct xqi_transcoder t;
	struct xq_buf out = XQ_BUF_INIT;
	size_t bad = 0;

	(void)state;
	xqi_transcoder_init(&t, XQI_ENC_GB18030, XQI_ENC_UTF8);
	/* 炮 then a lead byte cut by the end of the string. */
	assert_int_equal(xqi_transcoder_convert(&t, "\xC5\xDA\xB6", 3, &out, &bad), XQ_EENCODING);
	assert_int_equal(bad, 2);
	assert_string_equal(out.ptr, "炮");
	xq_buf_reset(&out);
	assert_int_equal(xqi_transcoder_convert(&t, "\xC5\xDA", 2, &out, &bad), 0);
	assert_string_equal(out.ptr, "炮");
	xqi_transcoder_release(&t);
	/* Writing: a character the target cannot hold, and invalid UTF-8. */
	xqi_transcoder_init(&t, XQI_ENC_UTF8, XQI_ENC_GBK);
	xq_buf_reset(&out);
	assert_int_equal(xqi_transcoder_convert(&t, "ab\xF0\x9F\x98\x80", 6, &out, &bad), XQ_EENCODING);
	assert_int_equal(bad, 2);
	assert_string_equal(out.ptr, "ab"); /* what came before it is converted */
	xq_buf_reset(&out);
	assert_int_equal(xqi_transcoder_convert(&t, "\xE7\x82\xAE\xFF", 4, &out, &bad), XQ_EENCODING);
	assert_int_equal(bad, 3);
	assert_memory_equal(out.ptr, "\xC5\xDA", 2);
	xq_buf_reset(&out);
	assert_int_equal(xqi_transcoder_convert(&t, "炮", 3, &out, &bad), 0);
	assert_memory_equal(out.ptr, "\xC5\xDA", 2);
	xqi_transcoder_release(&t);
	/* UTF-8 to UTF-8 is a check. */
	xqi_transcoder_init(&t, XQI_ENC_UNKNOWN, XQI_ENC_UTF8);
	xq_buf_reset(&out);
	assert_int_equal(xqi_transcoder_convert(&t, "ok\xFFno", 5, &out, &bad), XQ_EENCODING);
	assert_int_equal(bad, 2);
	assert_null(t.cd);
	xqi_transcoder_release(&t);
	xq_buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buf_grows_and_stays_nul_terminated),
		cmocka_unit_test(json_strings_escape_controls_and_keep_utf8),
		cmocka_unit_test(xml_text_escapes_markup_and_counts_what_xml_cannot_hold),
		cmocka_unit_test(utf8_decoder_rejects_overlong_and_surrogates),
		cmocka_unit_test(utf8_check_agrees_with_a_reading_by_characters_on_random_text),
		cmocka_unit_test(gb18030_and_big5_decode_to_utf8),
		cmocka_unit_test(undecodable_byte_is_reported_with_its_offset),
		cmocka_unit_test(character_outside_target_encoding_is_an_error),
		cmocka_unit_test(detection_tells_utf8_gbk_and_big5_apart),
		cmocka_unit_test(utf8_with_a_stray_bad_byte_is_still_utf8),
		cmocka_unit_test(encoding_names_parse),
		cmocka_unit_test(western_names_and_every_ascii_keeping_iconv_name_parse),
		cmocka_unit_test(lead_lengths_say_how_long_each_character_is),
		cmocka_unit_test(char_len_follows_each_encoding),
		cmocka_unit_test(transcoder_converts_many_strings_with_one_descriptor),
		cmocka_unit_test(transcoder_reports_a_bad_byte_and_goes_on_with_the_next_string),
	};
	return cmocka_run_group_tests_name("text", tests, NULL, NULL);
}
