/*
 * registry.c: the list of formats, and lookup by name, content or extension.
 * Adding a format: declare its struct here and add it to xq_formats[].
 */
#include "format.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "budget.h"
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

uint64_t xq_format_record_memory(const struct xq_format *f, uint64_t content)
{
	unsigned k = f->mem_factor ? f->mem_factor : 1;

	if (content > (UINT64_MAX - XQ_RECORD_BASE) / k)
		return UINT64_MAX;
	return XQ_RECORD_BASE + content * k;
}

/* The budget a record is read within. */
static uint64_t budget_of(const struct xq_read_opts *opts)
{
	return opts && opts->max_memory ? opts->max_memory : XQ_MEMORY_DEFAULT;
}

/* The content the budget alone allows a record of `f`. */
static uint64_t budget_limit(const struct xq_format *f, const struct xq_read_opts *opts)
{
	uint64_t mem = budget_of(opts);
	unsigned k = f->mem_factor ? f->mem_factor : 1;

	return mem > XQ_RECORD_BASE ? (mem - XQ_RECORD_BASE) / k : 0;
}

uint64_t xq_format_record_limit(const struct xq_format *f, const struct xq_read_opts *opts)
{
	uint64_t own = f->max_record ? f->max_record : UINT64_MAX, by_budget = budget_limit(f, opts);

	return own < by_budget ? own : by_budget;
}

/* "8 MiB", "1.5 MiB", "640 KiB", "298.7 KiB", "100 bytes". */
static void size_text(char *buf, size_t cap, uint64_t n)
{
	if (n >= (uint64_t)1 << 20 && n % ((uint64_t)1 << 20) == 0)
		snprintf(buf, cap, "%" PRIu64 " MiB", n >> 20);
	else if (n >= (uint64_t)1 << 20)
		snprintf(buf, cap, "%.1f MiB", (double)n / (1 << 20));
	else if (n >= 1024 && n % 1024 == 0)
		snprintf(buf, cap, "%" PRIu64 " KiB", n >> 10);
	else if (n >= 1024)
		snprintf(buf, cap, "%.1f KiB", (double)n / 1024);
	else
		snprintf(buf, cap, "%" PRIu64 " bytes", n);
}

int xq_format_limit_diag(struct xq_diag *d, const struct xq_format *f,
			 const struct xq_read_opts *opts, const char *what)
{
	uint64_t limit = xq_format_record_limit(f, opts);
	char lim[32], mem[32];

	size_text(lim, sizeof(lim), limit);
	if (f->max_record && limit == f->max_record)
		return xq_diag_set(d, XQ_ERANGE, XQ_D_RESOURCE, XQ_SEV_ERROR,
				   "%s is larger than %s, the %s format's limit for one record; not read",
				   what, lim, f->name);
	size_text(mem, sizeof(mem), budget_of(opts));
	return xq_diag_set(d, XQ_ERANGE, XQ_D_RESOURCE, XQ_SEV_ERROR,
			   "%s is larger than %s, the most one %s record may hold within the memory "
			   "budget of %s (--max-memory); not read",
			   what, lim, f->name, mem);
}

uint64_t xq_format_input_memory(const struct xq_format *f, struct xq_input *in,
				const struct xq_read_opts *opts)
{
	uint64_t content = UINT64_MAX, limit = xq_format_record_limit(f, opts);
	int64_t size = xq_input_size(in);

	if (size >= 0) {
		content = (uint64_t)size;
		if (xq_input_is_gzip(in))
			content = content > UINT64_MAX / 1032 ? UINT64_MAX : content * 1032;
	}
	return xq_format_record_memory(f, content < limit ? content : limit);
}
