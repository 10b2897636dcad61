/*
 * registry.c: the list of formats, and lookup by name, content or extension.
 * Adding a format: declare its struct here and add it to xqi_formats[].
 */
#include "format.h"

#include <string.h>

#include "utf8.h"

extern const struct xqi_format xqi_format_ndjson;
extern const struct xqi_format xqi_format_xqf;
extern const struct xqi_format xqi_format_dhtmlxq;
extern const struct xqi_format xqi_format_cbf;
extern const struct xqi_format xqi_format_cbr;
extern const struct xqi_format xqi_format_cbl;
extern const struct xqi_format xqi_format_pfc;
extern const struct xqi_format xqi_format_fenlist;
extern const struct xqi_format xqi_format_text;
extern const struct xqi_format xqi_format_pgn;
extern const struct xqi_format xqi_format_html;
/* The one-game records of Chinese servers and programs (formats/onegame.h). */
extern const struct xqi_format xqi_format_mxq;
extern const struct xqi_format xqi_format_ccm;
extern const struct xqi_format xqi_format_chn;
extern const struct xqi_format xqi_format_che;
extern const struct xqi_format xqi_format_xgf;

const struct xqi_format *const xqi_formats[] = {
	&xqi_format_ndjson,
	&xqi_format_xqf,
	&xqi_format_dhtmlxq,
	&xqi_format_cbf,
	&xqi_format_cbr,
	&xqi_format_cbl,
	&xqi_format_pfc,
	&xqi_format_pgn,
	&xqi_format_fenlist,
	&xqi_format_text,
	&xqi_format_html,
	&xqi_format_mxq,
	&xqi_format_ccm,
	&xqi_format_chn,
	&xqi_format_che,
	&xqi_format_xgf,
	NULL,
};

/* Are the `n` bytes at `a` and `b` the same, regardless of ASCII case? */
static int same_ci(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (xq_to_lower((unsigned char)a[i]) != xq_to_lower((unsigned char)b[i]))
			return 0;
	return 1;
}

/* Is `word` (len bytes) one of the space-separated `words`, regardless of case? */
static int in_list(const char *words, const char *word, size_t len)
{
	while (words && *words) {
		size_t n = strcspn(words, " ");
		if (n == len && same_ci(words, word, len))
			return 1;
		words += n;
		while (*words == ' ')
			words++;
	}
	return 0;
}

const struct xqi_format *xqi_format_find(const char *name)
{
	for (size_t i = 0; xqi_formats[i]; i++)
		if (xq_ascii_ieq(xqi_formats[i]->name, name) ||
		    in_list(xqi_formats[i]->aliases, name, strlen(name)))
			return xqi_formats[i];
	return NULL;
}

/*
 * The extension of `filename` (from its last dot; before a last ".gz",
 * since every reader reads gzip) in *ext, *len; 0 if it has none.
 */
static int extension_of(const char *filename, const char **ext, size_t *len)
{
	const char *base, *dot, *end;

	if (!filename)
		return 0;
	base = strrchr(filename, '/');
	base = base ? base + 1 : filename;
	end = base + strlen(base);
	dot = strrchr(base, '.');
	if (dot && dot > base && in_list(".gz", dot, (size_t)(end - dot))) {
		end = dot;
		dot = NULL;
		for (const char *p = base + 1; p < end; p++)
			if (*p == '.')
				dot = p;
	}
	if (!dot || dot == base)
		return 0;
	*ext = dot;
	*len = (size_t)(end - dot);
	return 1;
}

/* Is the extension of `filename` one of `exts` (`first`: the first one)? */
static int has_extension(const char *exts, const char *filename, int first)
{
	const char *ext;
	size_t len, n;

	if (!exts || !extension_of(filename, &ext, &len))
		return 0;
	if (!first)
		return in_list(exts, ext, len);
	n = strcspn(exts, " ");
	return n == len && same_ci(exts, ext, len);
}

const struct xqi_format *xqi_format_detect(const unsigned char *head, size_t len,
					 const char *filename)
{
	const struct xqi_format *best = NULL;
	int best_score = 0;

	for (size_t i = 0; xqi_formats[i]; i++) {
		const struct xqi_format *f = xqi_formats[i];
		int score;
		if (!(f->caps & XQ_FORMAT_READS) || !f->probe)
			continue;
		score = f->probe(head, len) * 2;
		if ((score > 0 || !(f->caps & XQI_FORMAT_BY_CONTENT)) &&
		    has_extension(f->extensions, filename, 0))
			score++;
		if (score > best_score) {
			best = f;
			best_score = score;
		}
	}
	return best;
}

const struct xqi_format *xqi_format_for_extension(const char *filename)
{
	for (int first = 1; first >= 0; first--)
		for (size_t i = 0; xqi_formats[i]; i++)
			if ((xqi_formats[i]->caps & XQ_FORMAT_WRITES) &&
			    has_extension(xqi_formats[i]->extensions, filename, first))
				return xqi_formats[i];
	return NULL;
}
