/*
 * stats_text.c: what the writers of `xqkit stats` share (stats.h): dates
 * read from a Date tag and written back, cells padded to the columns they
 * take on a terminal, and a score.  Calls no other part of stats.
 */
#include <string.h>

#include "report.h"
#include "stats.h"
#include <xq/utf8.h>

/* Up to `max` digits at *p: the number, or -1 when there is none. */
static int digits(const char **p, int max)
{
	int v = 0, n = 0;

	while (n < max && xq_is_digit((unsigned char)**p)) {
		v = v * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	return n ? v : -1;
}

/*
 * A Date tag as YYYYMMDD with 0 for the parts not known (2006.08.??:
 * 20060800), or 0 when even the year is not: YYYY, YYYY.MM, YYYY.MM.DD
 * with '.', '-' or '/', or 2006年8月19日.
 */
uint32_t stats_date_value(const char *s)
{
	const char *p = s;
	int y, m = 0, d = 0;

	if (!s)
		return 0;
	y = digits(&p, 4);
	if (y < 1000 || p - s != 4)
		return 0;
	if (*p == '.' || *p == '-' || *p == '/' || !strncmp(p, "\xE5\xB9\xB4", 3)) {
		p += *p == '\xE5' ? 3 : 1;
		if ((m = digits(&p, 2)) < 1 || m > 12)
			m = 0;
		else if (*p == '.' || *p == '-' || *p == '/' || !strncmp(p, "\xE6\x9C\x88", 3)) {
			p += *p == '\xE6' ? 3 : 1;
			if ((d = digits(&p, 2)) < 1 || d > 31)
				d = 0;
		}
	}
	return (uint32_t)(y * 10000 + m * 100 + d);
}

void stats_add_date(struct xq_buf *b, uint32_t v)
{
	if (!v) {
		xq_buf_addc(b, '-');
		return;
	}
	xq_buf_addf(b, "%04u", v / 10000);
	if (v / 100 % 100)
		xq_buf_addf(b, ".%02u", v / 100 % 100);
	if (v / 100 % 100 && v % 100)
		xq_buf_addf(b, ".%02u", v % 100);
}

/* A date as a year with its fraction (the middle of what is not known). */
double stats_date_years(uint32_t v)
{
	unsigned m = v / 100 % 100, d = v % 100;

	if (!m)
		return v / 10000 + 0.5;
	return v / 10000 + (m - 1) / 12.0 + (d ? (d - 0.5) / 372.0 : 1 / 24.0);
}

/* Columns on a terminal: East Asian wide characters take two. */
size_t stats_text_width(const char *s, size_t len)
{
	size_t w = 0, i = 0;

	while (i < len) {
		uint32_t cp;
		size_t n = xq_utf8_decode(s + i, len - i, &cp);
		if (!n) {
			w += 4; /* written as \xNN */
			i++;
			continue;
		}
		i += n;
		w += (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
		     (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
		     (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
		     (cp >= 0xFFE0 && cp <= 0xFFE6) || cp >= 0x20000 ? 2 : 1;
	}
	return w;
}

void stats_pad(struct xq_buf *b, size_t n)
{
	while (n-- > 0)
		xq_buf_addc(b, ' ');
}

/* A cell of text, left-aligned in `width` columns (control characters and
 * bytes that are not UTF-8 written as \xNN). */
void stats_cell(struct xq_buf *b, const char *s, size_t len, size_t width)
{
	size_t before = b->len;

	report_add_safe(b, s, len);
	stats_pad(b, width > stats_text_width(b->ptr + before, b->len - before) ?
		       width - stats_text_width(b->ptr + before, b->len - before) : 0);
}

double stats_score(uint64_t win, uint64_t draw, uint64_t loss)
{
	return 100.0 * ((double)win + draw / 2.0) / (double)(win + draw + loss);
}
