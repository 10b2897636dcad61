/*
 * fuzz_decode.c: the streaming text decoder (lib/decode.h) must never
 * crash or read out of bounds, whatever the bytes, and what it makes of
 * them must not depend on how they arrive: fed whole or in chunks of any
 * size (switching from in place to copying as a reader does), the text
 * and the events are the same, and every event's decoded place walks
 * back to its source offset.
 *
 * The first byte picks the encoding and the flags (bits 0-1 UTF-8,
 * GB18030, Big5, UTF-16LE; bits 2-4 the flags; bit 5 instead Windows-1252
 * or, with bit 0, KOI8-R through iconv), the second the chunk size; the
 * rest is the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "decode.h"
#include "diagnostic.h"
#include "text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct run {
	struct xqi_textdec d;
	struct xq_buf out;
};

/* Decode in[0, n) arriving `chunk` bytes at a time (all at once if 0). */
static int decode(struct run *r, enum xqi_encoding enc, unsigned flags, const char *in, size_t n,
		  size_t chunk)
{
	size_t avail = 0, done = 0;

	xq_buf_init(&r->out);
	if (xqi_textdec_init(&r->d, enc, flags, 0, 0))
		return -1;
	while (done < n) {
		int final;
		long got;
		avail = chunk && n - avail > chunk ? avail + chunk : n;
		final = avail == n;
		for (;;) {
			int was_copy = r->d.copy;
			got = xqi_textdec_feed(&r->d, in + done, avail - done, final,
					      was_copy ? &r->out : NULL);
			if (got < 0)
				abort();
			if (!was_copy && xq_buf_add(&r->out, in + done, (size_t)got))
				abort();
			done += (size_t)got;
			if (was_copy || !r->d.copy)
				break;
		}
		if (final && done != n)
			abort(); /* the end of the input takes everything */
	}
	return 0;
}

static void release(struct run *r)
{
	xqi_textdec_release(&r->d);
	xq_buf_release(&r->out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum xqi_encoding encs[] = {XQI_ENC_UTF8, XQI_ENC_GB18030, XQI_ENC_BIG5,
						XQI_ENC_UTF16LE};
	struct run whole, parts;
	enum xqi_encoding enc;
	unsigned flags;
	size_t chunk;
	const char *in = (const char *)data + 2;
	size_t n;

	if (size < 2 || size > 65536)
		return 0;
	enc = encs[data[0] & 3];
	if (data[0] & 0x20) {
		if (!(data[0] & 1))
			enc = XQI_ENC_CP1252;
		else if (xqi_encoding_parse("koi8-r", &enc))
			return 0; /* this system's iconv has no KOI8-R */
	}
	flags = (data[0] >> 2) & (XQI_TEXTDEC_MIXED | XQI_TEXTDEC_COPY | XQI_TEXTDEC_BAD_EVENTS);
	chunk = 1 + data[1] * 7u;
	n = size - 2;
	if (decode(&whole, enc, flags, in, n, 0))
		return 0;
	if (decode(&parts, enc, flags, in, n, chunk))
		abort();
	if (whole.out.len != parts.out.len || memcmp(whole.out.ptr, parts.out.ptr, whole.out.len))
		abort();
	if (whole.d.nevents != parts.d.nevents)
		abort();
	for (size_t i = 0; i < whole.d.nevents; i++) {
		const struct xqi_textdec_event *a = &whole.d.events[i], *b = &parts.d.events[i];
		if (a->dpos != b->dpos || a->raw != b->raw || a->enc != b->enc || a->kind != b->kind ||
		    a->byte != b->byte)
			abort();
	}
	for (size_t i = 0; i < whole.d.nevents; i++) {
		const struct xqi_textdec_event *e = &whole.d.events[i];
		uint64_t dp = 0, rp = 0;
		xqi_textdec_walk(&whole.d, whole.out.ptr, 0, in, 0, n, &dp, &rp, e->dpos);
		if (dp != e->dpos || rp != e->raw)
			abort();
	}
	release(&whole);
	release(&parts);
	return 0;
}
