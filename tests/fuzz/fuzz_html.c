/*
 * fuzz_html.c: nothing a record holds gets out of the HTML page's text.
 *
 * Input: byte 0 picks the part.  Even: the rest is text for
 * xqi_html_escape(), whose output must be valid UTF-8 holding no < > " '
 * and no & but the five references it writes, no control character but
 * tab and line feed, and no bidirectional control.  Odd: the rest is read
 * as PGN (the reader that takes the most free text: tags and comments),
 * and the games it gives are written as one HTML page, which must hold
 * exactly the page's own <script>, <style>, head and end, one section per
 * game, and no "<noscript" or "</noscript" but each section's own.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fuzz_formats.h"
#include "html.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_escaped(const struct xq_buf *b)
{
	if (xq_utf8_check(b->ptr, b->len) != b->len)
		abort();
	for (size_t i = 0; i < b->len;) {
		unsigned char c = (unsigned char)b->ptr[i];
		uint32_t cp;
		size_t n;
		if (c == '<' || c == '>' || c == '"' || c == '\'')
			abort();
		if (c == '&') {
			static const char *const refs[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};
			size_t k = 0;
			while (k < 5 && strncmp(b->ptr + i, refs[k], strlen(refs[k])))
				k++;
			if (k == 5)
				abort();
		}
		n = xq_utf8_decode(b->ptr + i, b->len - i, &cp);
		if ((cp < 0x20 && cp != '\t' && cp != '\n') || (cp >= 0x7F && cp <= 0x9F) ||
		    (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
		    cp == 0x200E || cp == 0x200F || cp == 0x061C)
			abort();
		i += n;
	}
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xqi_record games[FUZZ_MAX_GAMES];
	struct fuzz_diags c = {0, 0}, wc = {0, 0};
	struct xq_buf out = XQ_BUF_INIT;
	int n, wrote, unreadable_starts = 0;

	if (size == 0 || size > FUZZ_MAX_INPUT)
		return 0;
	if (!(data[0] & 1)) {
		if (xqi_html_escape(&out, (const char *)data + 1, size - 1))
			abort();
		check_escaped(&out);
		xq_buf_release(&out);
		return 0;
	}
	n = fuzz_read("pgn", data + 1, size - 1, NULL, games, &c);
	wrote = fuzz_write(xqi_format_find("html"), games, n, &out, &wc);
	/* The one game a page refuses (an error each) is one whose start
	 * could not be read: HTML has no place for a FEN kept as text. */
	for (int i = 0; i < n; i++)
		unreadable_starts += games[i].start_text != NULL;
	if ((int)wc.errors > unreadable_starts || strlen(out.ptr) != out.len ||
	    !strstr(out.ptr, "<script"))
		abort();
	if (count(out.ptr, "<script") != 1 || count(out.ptr, "</script") != 1 ||
	    count(out.ptr, "<style") != 1 || count(out.ptr, "</style") != 1 ||
	    count(out.ptr, "<!DOCTYPE") != 1 || count(out.ptr, "</html>") != 1)
		abort();
	/* The markup before the script (whose own text may name elements). */
	*strstr(out.ptr, "<script") = '\0';
	if (count(out.ptr, "<section") != (size_t)wrote ||
	    count(out.ptr, "<noscript") != (size_t)wrote ||
	    count(out.ptr, "</noscript") != (size_t)wrote || count(out.ptr, "<!--") != 0)
		abort();
	for (int i = 0; i < n; i++)
		xqi_record_release(&games[i]);
	xq_buf_release(&out);
	return 0;
}
