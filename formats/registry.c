/*
 * registry.c: the list of formats, and lookup by name, content or extension.
 * Adding a format: declare its struct here and add it to xq_formats[].
 */
#include "format.h"

#include <string.h>

#include "utf8.h"

extern const struct xq_format xq_format_ndjson;
extern const struct xq_format xq_format_xqf;
extern const struct xq_format xq_format_dhtmlxq;
extern const struct xq_format xq_format_cbf;
extern const struct xq_format xq_format_cbr;
extern const struct xq_format xq_format_cbl;
extern const struct xq_format xq_format_pgn;
extern const struct xq_format xq_format_html;

const struct xq_format *const xq_formats[] = {
	&xq_format_ndjson,
	&xq_format_xqf,
	&xq_format_dhtmlxq,
	&xq_format_cbf,
	&xq_format_cbr,
	&xq_format_cbl,
	&xq_format_pgn,
	&xq_format_html,
	NULL,
};

const struct xq_format *xq_format_find(const char *name)
{
	for (size_t i = 0; xq_formats[i]; i++)
		if (xq_ascii_ieq(xq_formats[i]->name, name))
			return xq_formats[i];
	return NULL;
}

/* Does `filename` end with one of the space-separated `exts`? */
static int has_extension(const char *exts, const char *filename)
{
	const char *dot = filename ? strrchr(filename, '.') : NULL;
	size_t dlen;

	if (!dot || !exts)
		return 0;
	dlen = strlen(dot);
	while (*exts) {
		const char *end = strchr(exts, ' ');
		size_t len = end ? (size_t)(end - exts) : strlen(exts);
		if (len == dlen) {
			size_t i = 0;
			while (i < len && xq_to_lower((unsigned char)exts[i]) ==
						  xq_to_lower((unsigned char)dot[i]))
				i++;
			if (i == len)
				return 1;
		}
		if (!end)
			break;
		exts = end + 1;
	}
	return 0;
}

const struct xq_format *xq_format_detect(const unsigned char *head, size_t len,
					 const char *filename)
{
	const struct xq_format *best = NULL;
	int best_score = 0;

	for (size_t i = 0; xq_formats[i]; i++) {
		const struct xq_format *f = xq_formats[i];
		int score;
		if (!(f->caps & XQ_CAP_READ) || !f->probe)
			continue;
		score = f->probe(head, len) * 2 + (has_extension(f->extensions, filename) ? 1 : 0);
		if (score > best_score) {
			best = f;
			best_score = score;
		}
	}
	return best;
}

const struct xq_format *xq_format_for_extension(const char *filename)
{
	for (size_t i = 0; xq_formats[i]; i++)
		if ((xq_formats[i]->caps & XQ_CAP_WRITE) &&
		    has_extension(xq_formats[i]->extensions, filename))
			return xq_formats[i];
	return NULL;
}
