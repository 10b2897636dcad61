/*
 * text.c: encoding detection and strict conversion through iconv.
 */
#include "text.h"

#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>

#include "diagnostic.h"
#include "utf8.h"

/* An encoding of xqi_iconv_names: its index, or -1. */
static long iconv_index(enum xqi_encoding e)
{
	size_t k = (size_t)e - XQI_ENC_ICONV;

	return e >= XQI_ENC_ICONV && k < xqi_iconv_nnames ? (long)k : -1;
}

static const char *iconv_name(enum xqi_encoding e)
{
	switch (e) {
	case XQI_ENC_UTF8: return "UTF-8";
	case XQI_ENC_GB18030: return "GB18030";
	case XQI_ENC_BIG5: return "CP950";
	case XQI_ENC_UTF16LE: return "UTF-16LE";
	case XQI_ENC_UTF16BE: return "UTF-16BE";
	case XQI_ENC_GBK: return "GBK";
	case XQI_ENC_CP1252: return "CP1252";
	case XQI_ENC_LATIN1: return "ISO-8859-1";
	case XQI_ENC_UNKNOWN:
	case XQI_ENC_ICONV: break;
	}
	return iconv_index(e) >= 0 ? xqi_iconv_names[iconv_index(e)] : NULL;
}

const char *xqi_encoding_name(enum xqi_encoding e)
{
	switch (e) {
	case XQI_ENC_UTF8: return "utf-8";
	case XQI_ENC_GB18030: return "gb18030";
	case XQI_ENC_BIG5: return "big5";
	case XQI_ENC_UTF16LE: return "utf-16le";
	case XQI_ENC_UTF16BE: return "utf-16be";
	case XQI_ENC_GBK: return "gbk";
	case XQI_ENC_CP1252: return "windows-1252";
	case XQI_ENC_LATIN1: return "iso-8859-1";
	case XQI_ENC_UNKNOWN:
	case XQI_ENC_ICONV: break;
	}
	return iconv_index(e) >= 0 ? xqi_iconv_names[iconv_index(e)] : "unknown";
}

/*
 * Does iconv convert `name` both ways, keeping ASCII as it is, with no
 * shift state: every ASCII character is its own byte, and a character
 * that is not ASCII starts with a byte over 0x7F (not an escape, a shift
 * or a '~' or '+' as HZ and UTF-7 write)?  What a reader needs to find
 * lines and tokens by their ASCII bytes, and a writer to write them so.
 */
static int ascii_keeping(const char *name)
{
	static const char *const probes[] = {"\xC3\xA9", "\xE4\xB8\xAD", "\xD0\x96", "\xCE\xB1",
					     "\xE0\xB8\x81", "\xD7\x90", "\xE3\x81\x82"};
	char ascii[128], out[256];
	iconv_t to = iconv_open(name, "UTF-8"), from = iconv_open("UTF-8", name);
	int ok = to != (iconv_t)-1 && from != (iconv_t)-1;

	for (int i = 0; i < 128; i++)
		ascii[i] = (char)i;
	for (int way = 0; ok && way < 2; way++) {
		char *ip = ascii, *op = out;
		size_t il = sizeof(ascii), ol = sizeof(out);
		iconv_t cd = way ? from : to;
		iconv(cd, NULL, NULL, NULL, NULL);
		/* (flushed: a decoder may hold a character back for a combining
		 * mark, as Windows-1258's does) */
		ok = iconv(cd, &ip, &il, &op, &ol) != (size_t)-1 && il == 0 &&
		     iconv(cd, NULL, NULL, &op, &ol) != (size_t)-1 &&
		     (size_t)(op - out) == sizeof(ascii) && !memcmp(out, ascii, sizeof(ascii));
	}
	for (size_t k = 0; ok && k < sizeof(probes) / sizeof(probes[0]); k++) {
		char *ip = (char *)probes[k], *op = out;
		size_t il = strlen(probes[k]), ol = sizeof(out);
		iconv(to, NULL, NULL, NULL, NULL);
		if (iconv(to, &ip, &il, &op, &ol) == (size_t)-1)
			continue; /* not a character of the encoding */
		ok = op > out && (unsigned char)out[0] >= 0x80 && !memchr(out, 0x1B, (size_t)(op - out)) &&
		     !memchr(out, 0x0E, (size_t)(op - out));
	}
	if (to != (iconv_t)-1)
		iconv_close(to);
	if (from != (iconv_t)-1)
		iconv_close(from);
	return ok;
}

static int by_name(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

int xqi_encoding_parse(const char *name, enum xqi_encoding *out)
{
	static const struct {
		const char *name;
		enum xqi_encoding e;
	} names[] = {
		{"utf-8", XQI_ENC_UTF8},       {"utf8", XQI_ENC_UTF8},
		{"gb18030", XQI_ENC_GB18030},  {"gb2312", XQI_ENC_GB18030},
		{"gbk", XQI_ENC_GBK},          {"cp936", XQI_ENC_GBK},
		{"big5", XQI_ENC_BIG5},        {"cp950", XQI_ENC_BIG5},
		{"utf-16le", XQI_ENC_UTF16LE}, {"utf16le", XQI_ENC_UTF16LE},
		{"utf-16be", XQI_ENC_UTF16BE}, {"utf16be", XQI_ENC_UTF16BE},
		{"cp1252", XQI_ENC_CP1252},    {"windows-1252", XQI_ENC_CP1252},
		{"win-1252", XQI_ENC_CP1252},  {"ms-ansi", XQI_ENC_CP1252},
		{"latin1", XQI_ENC_LATIN1},    {"latin-1", XQI_ENC_LATIN1},
		{"iso-8859-1", XQI_ENC_LATIN1}, {"iso8859-1", XQI_ENC_LATIN1},
		{"iso_8859-1", XQI_ENC_LATIN1}, {"l1", XQI_ENC_LATIN1},
	};
	char low[40];
	size_t n = strlen(name);
	const char *const *found;

	if (n >= sizeof(low))
		return -1;
	for (size_t i = 0; i <= n; i++)
		low[i] = (char)xq_to_lower((unsigned char)name[i]);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(low, names[i].name)) {
			*out = names[i].e;
			return 0;
		}
	}
	found = bsearch(low, xqi_iconv_names, xqi_iconv_nnames, sizeof(xqi_iconv_names[0]), by_name);
	if (!found || !ascii_keeping(*found))
		return -1;
	*out = (enum xqi_encoding)(XQI_ENC_ICONV + (found - xqi_iconv_names));
	return 0;
}

/* Does `cd` convert the `n` bytes at `s` (from its initial state) whole? */
static int converts(iconv_t cd, const unsigned char *s, size_t n)
{
	char in[4], out[32], *ip = in, *op = out;
	size_t il = n, ol = sizeof(out);

	memcpy(in, s, n);
	iconv(cd, NULL, NULL, NULL, NULL);
	return iconv(cd, &ip, &il, &op, &ol) != (size_t)-1 && il == 0;
}

int xqi_encoding_lead_lengths(enum xqi_encoding e, unsigned char lead[128])
{
	/* Second (third, fourth) bytes of the multi-byte encodings iconv knows. */
	static const unsigned char trails[] = {0xA1, 0x40, 0x80, 0x81, 0xB0, 0xE0, 0x30, 0x61};
	const char *name = iconv_name(e);
	iconv_t cd = name ? iconv_open("UTF-8", name) : (iconv_t)-1;

	if (cd == (iconv_t)-1)
		return XQ_EUNSUPPORTED;
	for (int i = 0; i < 128; i++) {
		unsigned char s[4] = {(unsigned char)(0x80 + i), 0, 0, 0};
		lead[i] = 1;
		if (converts(cd, s, 1))
			continue;
		for (unsigned n = 2; n <= 4 && lead[i] == 1; n++)
			for (size_t t = 0; t < sizeof(trails) && lead[i] == 1; t++) {
				memset(s + 1, trails[t], n - 1);
				if (converts(cd, s, n))
					lead[i] = (unsigned char)n;
			}
	}
	iconv_close(cd);
	return 0;
}

/*
 * Run iconv on *ip (*ileft bytes) into `out`, growing it as needed, until
 * the input is used up (returns 0) or iconv stops at a sequence it cannot
 * convert (returns EILSEQ or EINVAL, with *ip at that sequence), or
 * XQ_ENOMEM.
 */
static int run_iconv(iconv_t cd, char **ip, size_t *ileft, struct xq_buf *out)
{
	while (*ileft > 0) {
		char *op;
		size_t oleft, r;
		/* Two output bytes per input byte hold every conversion used here. */
		if (xq_buf_grow(out, *ileft * 2 + 16))
			return XQ_ENOMEM;
		op = out->ptr + out->len;
		oleft = out->alloc - out->len - 1;
		r = iconv(cd, ip, ileft, &op, &oleft);
		out->len = (size_t)(op - out->ptr);
		out->ptr[out->len] = '\0';
		if (r != (size_t)-1)
			return 0;
		if (errno != E2BIG)
			return errno;
	}
	return 0;
}

/*
 * Convert with the open descriptor `cd`; on an invalid sequence either
 * stop (strict) or skip one byte and count it.  `*bad` gets the first bad
 * offset; a trailing incomplete sequence counts as bad only when `final`.
 * The descriptor is left in its initial state for the next call.
 */
static int convert_cd(iconv_t cd, const char *in, size_t len, struct xq_buf *out, size_t *bad,
		      int strict, int final, size_t *errors)
{
	char *ip = (char *)in;
	size_t ileft = len;
	int rc = 0;

	if (errors)
		*errors = 0;
	while (ileft > 0) {
		int e = run_iconv(cd, &ip, &ileft, out);
		if (e == 0)
			break;
		if (e == XQ_ENOMEM) {
			rc = XQ_ENOMEM;
			break;
		}
		if (e == EINVAL && !final)
			break; /* incomplete sequence at the end of a partial buffer */
		/* EILSEQ, or EINVAL at the end of the whole input. */
		if (bad && (!errors || *errors == 0))
			*bad = (size_t)(ip - in);
		if (errors)
			(*errors)++;
		rc = XQ_EENCODING;
		if (strict)
			break;
		iconv(cd, NULL, NULL, NULL, NULL);
		ip++;
		ileft--;
	}
	if (rc == 0 || !strict) {
		/* Flush any shift state (none for these encodings, but be correct). */
		char *op;
		size_t oleft;
		if (!xq_buf_grow(out, 16)) {
			op = out->ptr + out->len;
			oleft = out->alloc - out->len - 1;
			iconv(cd, NULL, NULL, &op, &oleft);
			out->len = (size_t)(op - out->ptr);
			out->ptr[out->len] = '\0';
		}
	}
	/* Back to the initial state whatever happened, for the next call. */
	iconv(cd, NULL, NULL, NULL, NULL);
	return rc;
}

/* convert_cd() with a descriptor of its own (for one-off conversions). */
static int convert(const char *from, const char *to, const char *in, size_t len,
		   struct xq_buf *out, size_t *bad, int strict, int final, size_t *errors)
{
	iconv_t cd = iconv_open(to, from);
	int rc;

	if (errors)
		*errors = 0;
	if (cd == (iconv_t)-1)
		return XQ_EUNSUPPORTED;
	rc = convert_cd(cd, in, len, out, bad, strict, final, errors);
	iconv_close(cd);
	return rc;
}

static int is_utf8(enum xqi_encoding e)
{
	return e == XQI_ENC_UTF8 || e == XQI_ENC_UNKNOWN;
}

void xqi_transcoder_init(struct xqi_transcoder *t, enum xqi_encoding from, enum xqi_encoding to)
{
	t->from = from == XQI_ENC_UNKNOWN ? XQI_ENC_UTF8 : from;
	t->to = to == XQI_ENC_UNKNOWN ? XQI_ENC_UTF8 : to;
	t->cd = NULL;
}

/* The conversion of `in`, which is valid UTF-8 when t->from is UTF-8. */
static int transcode(struct xqi_transcoder *t, const char *in, size_t len, struct xq_buf *out,
		     size_t *bad)
{
	if (len == 0)
		return 0;
	if (is_utf8(t->from) && is_utf8(t->to))
		return xq_buf_add(out, in, len) ? XQ_ENOMEM : 0;
	if (is_utf8(t->to) && t->from != XQI_ENC_UTF16LE && t->from != XQI_ENC_UTF16BE) {
		/* Pure ASCII is the same in every encoding read here but UTF-16. */
		size_t i = 0;
		while (i < len && (unsigned char)in[i] < 0x80)
			i++;
		if (i == len)
			return xq_buf_add(out, in, len) ? XQ_ENOMEM : 0;
	}
	if (!t->cd) {
		iconv_t cd = iconv_open(iconv_name(t->to), iconv_name(t->from));
		if (cd == (iconv_t)-1)
			return XQ_EUNSUPPORTED;
		t->cd = (void *)cd;
	}
	return convert_cd((iconv_t)t->cd, in, len, out, bad, 1, 1, NULL);
}

int xqi_transcoder_convert(struct xqi_transcoder *t, const char *in, size_t len, struct xq_buf *out,
			  size_t *bad)
{
	size_t ok;
	int rc;

	if (!is_utf8(t->from))
		return transcode(t, in, len, out, bad);
	/* Invalid UTF-8 never reaches iconv: the valid part before it is
	 * converted, and its offset is what the caller reports. */
	ok = xq_utf8_check(in, len);
	rc = transcode(t, in, ok, out, bad);
	if (rc == 0 && ok < len) {
		if (bad)
			*bad = ok;
		rc = XQ_EENCODING;
	}
	return rc;
}

int xqi_transcoder_convert_lossy(struct xqi_transcoder *t, const char *in, size_t len,
				struct xq_buf *out, size_t *lost, size_t *first_lost)
{
	size_t i = 0;

	*lost = 0;
	while (i < len) {
		size_t bad = 0, n;
		int rc = xqi_transcoder_convert(t, in + i, len - i, out, &bad);
		if (rc != XQ_EENCODING)
			return rc;
		if (!*lost)
			*first_lost = i + bad;
		(*lost)++;
		if (xq_buf_addc(out, '?'))
			return XQ_ENOMEM;
		n = xq_utf8_valid_prefix(in + i + bad, len - i - bad);
		i += bad + (n ? n : 1);
	}
	return 0;
}

void xqi_transcoder_release(struct xqi_transcoder *t)
{
	if (t->cd)
		iconv_close((iconv_t)t->cd);
	t->cd = NULL;
}

int xqi_decode(enum xqi_encoding enc, const char *in, size_t len, struct xq_buf *out, size_t *bad)
{
	struct xqi_transcoder t;
	int rc;

	xqi_transcoder_init(&t, enc, XQI_ENC_UTF8);
	rc = xqi_transcoder_convert(&t, in, len, out, bad);
	xqi_transcoder_release(&t);
	return rc;
}

int xqi_encode(enum xqi_encoding enc, const char *in, size_t len, struct xq_buf *out, size_t *bad)
{
	struct xqi_transcoder t;
	int rc;

	xqi_transcoder_init(&t, XQI_ENC_UTF8, enc);
	rc = xqi_transcoder_convert(&t, in, len, out, bad);
	xqi_transcoder_release(&t);
	return rc;
}

/* Common characters of xiangqi records, simplified and traditional (车马炮兵卒
 * 帅将仕士相象进退平前后, 車馬砲帥將進後, 红紅黑胜勝和负負, 一 to 九, 局赛賽对對),
 * as code points in ascending order. */
static const uint32_t common_chars[] = {
	0x4E00, 0x4E03, 0x4E09, 0x4E5D, 0x4E8C, 0x4E94, 0x4ED5, 0x516B, 0x516D,
	0x5175, 0x524D, 0x52DD, 0x5352, 0x540E, 0x548C, 0x56DB, 0x58EB, 0x5BF9,
	0x5C06, 0x5C07, 0x5C0D, 0x5C40, 0x5E05, 0x5E25, 0x5E73, 0x5F8C, 0x70AE,
	0x76F8, 0x7832, 0x7D05, 0x7EA2, 0x80DC, 0x8C61, 0x8CA0, 0x8CFD, 0x8D1F,
	0x8D5B, 0x8ECA, 0x8F66, 0x8FDB, 0x9000, 0x9032, 0x99AC, 0x9A6C, 0x9ED1,
};

long xqi_encoding_score(const char *s, size_t len)
{
	long hits = 0;

	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t n = xq_utf8_decode(s + i, len - i, &cp);
		if (!n) {
			i++;
			continue;
		}
		if (n == 3) {
			size_t lo = 0, hi = sizeof(common_chars) / sizeof(common_chars[0]);
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;
				if (common_chars[mid] < cp)
					lo = mid + 1;
				else
					hi = mid;
			}
			hits += lo < sizeof(common_chars) / sizeof(common_chars[0]) &&
				common_chars[lo] == cp;
		}
		i += n;
	}
	return hits;
}

enum xqi_encoding xqi_encoding_detect(const char *buf, size_t len, size_t *bom)
{
	const unsigned char *u = (const unsigned char *)buf;

	if (bom)
		*bom = 0;
	if (len >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF) {
		if (bom)
			*bom = 3;
		return XQI_ENC_UTF8;
	}
	if (len >= 2 && u[0] == 0xFF && u[1] == 0xFE) {
		if (bom)
			*bom = 2;
		return XQI_ENC_UTF16LE;
	}
	if (len >= 2 && u[0] == 0xFE && u[1] == 0xFF) {
		if (bom)
			*bom = 2;
		return XQI_ENC_UTF16BE;
	}
	return xqi_encoding_detect_text(buf, len);
}

enum xqi_encoding xqi_encoding_detect_text(const char *buf, size_t len)
{
	const unsigned char *u = (const unsigned char *)buf;
	size_t ok;
	long best_score = 0;
	enum xqi_encoding best = XQI_ENC_GB18030;
	static const enum xqi_encoding candidates[] = {XQI_ENC_GB18030, XQI_ENC_BIG5};

	ok = xq_utf8_check(buf, len);
	/* Valid UTF-8, allowing a character cut at the end of the sample. */
	if (ok == len || (len - ok < 4 && (u[ok] & 0xC0) == 0xC0))
		return XQI_ENC_UTF8;
	/* UTF-8 with a few bad bytes (which the reader will report) rather
	 * than GBK or Big5: their byte pairs seldom form UTF-8 sequences. */
	{
		struct xqi_utf8_tally t;
		/* A cut character at the end is not bad. */
		xqi_utf8_tally(buf, len, len >= 3 ? len - 3 : 0, &t);
		if (t.multi >= 4 && t.multi >= 2 * t.bad)
			return XQI_ENC_UTF8;
	}
	for (size_t c = 0; c < sizeof(candidates) / sizeof(candidates[0]); c++) {
		struct xq_buf out = XQ_BUF_INIT;
		size_t errors = 0, bad = 0;
		long score;
		convert(iconv_name(candidates[c]), "UTF-8", buf, len, &out, &bad, 0, 0, &errors);
		score = xqi_encoding_score(out.ptr, out.len) - 20 * (long)errors;
		xq_buf_release(&out);
		if (c == 0 || score > best_score) {
			best_score = score;
			best = candidates[c];
		}
	}
	return best;
}

size_t xqi_encoding_char_len(enum xqi_encoding enc, const unsigned char *s, size_t avail)
{
	size_t n = 1;

	if (avail == 0)
		return 1;
	switch (enc) {
	case XQI_ENC_GB18030:
	case XQI_ENC_GBK:
		if (s[0] >= 0x81 && s[0] <= 0xFE)
			n = avail >= 2 && s[1] >= 0x30 && s[1] <= 0x39 ? 4 : 2;
		break;
	case XQI_ENC_BIG5:
		if (s[0] >= 0x81 && s[0] <= 0xFE)
			n = 2;
		break;
	case XQI_ENC_UTF16LE:
	case XQI_ENC_UTF16BE: {
		unsigned hi = avail >= 2 ? (enc == XQI_ENC_UTF16LE ? s[1] : s[0]) : 0;
		n = hi >= 0xD8 && hi <= 0xDB ? 4 : 2;
		break;
	}
	case XQI_ENC_UTF8:
	case XQI_ENC_UNKNOWN:
		n = xq_utf8_valid_prefix((const char *)s, avail);
		if (n == 0)
			n = 1;
		break;
	case XQI_ENC_CP1252:
	case XQI_ENC_LATIN1:
	case XQI_ENC_ICONV:
		break; /* (one byte; other iconv encodings: xqi_encoding_lead_lengths()) */
	}
	return n < avail ? n : avail;
}
