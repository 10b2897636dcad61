/*
 * limits.c: how big a record each format reads, under its own limit
 * (max_record) and the run's memory budget, and the one way a reader says
 * that a record is over it (man xqkit(1), LIMITS; format.h).  Apart from
 * the registry, which lists the formats: the readers call these, and the
 * registry calls the readers.
 */
#include "format.h"

#include <inttypes.h>
#include <stdio.h>

#include "budget.h"

uint64_t xqi_format_record_memory(const struct xqi_format *f, uint64_t content)
{
	unsigned k = f->mem_factor ? f->mem_factor : 1;

	if (content > (UINT64_MAX - XQI_RECORD_BASE) / k)
		return UINT64_MAX;
	return XQI_RECORD_BASE + content * k;
}

/* The budget a record is read within. */
static uint64_t budget_of(const struct xqi_read_opts *opts)
{
	return opts && opts->max_memory ? opts->max_memory : XQ_MEMORY_DEFAULT;
}

/* The content the budget alone allows a record of `f`. */
static uint64_t budget_limit(const struct xqi_format *f, const struct xqi_read_opts *opts)
{
	uint64_t mem = budget_of(opts);
	unsigned k = f->mem_factor ? f->mem_factor : 1;

	return mem > XQI_RECORD_BASE ? (mem - XQI_RECORD_BASE) / k : 0;
}

/* The limit of `f`'s records before the budget's: the caller's, else the format's own. */
static uint64_t own_limit(const struct xqi_format *f, const struct xqi_read_opts *opts)
{
	if (opts && opts->max_record)
		return opts->max_record;
	return f->max_record ? f->max_record : UINT64_MAX;
}

uint64_t xqi_format_record_limit(const struct xqi_format *f, const struct xqi_read_opts *opts)
{
	uint64_t own = own_limit(f, opts), by_budget = budget_limit(f, opts);

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

int xqi_format_limit_diag(struct xq_diagnostic *d, const struct xqi_format *f,
			 const struct xqi_read_opts *opts, const char *what)
{
	return xqi_format_limit_diag_then(d, f, opts, what, "not read");
}

int xqi_format_limit_diag_then(struct xq_diagnostic *d, const struct xqi_format *f,
			      const struct xqi_read_opts *opts, const char *what, const char *then)
{
	uint64_t limit = xqi_format_record_limit(f, opts);
	char lim[32], mem[32];

	size_text(lim, sizeof(lim), limit);
	if (opts && opts->max_record && limit == opts->max_record)
		return xqi_diagnostic_set(d, XQ_ERANGE, XQI_D_RESOURCE, XQ_SEVERITY_ERROR,
				   "%s is larger than %s, the limit for one record (--max-game-size); %s",
				   what, lim, then);
	if (f->max_record && limit == f->max_record)
		return xqi_diagnostic_set(d, XQ_ERANGE, XQI_D_RESOURCE, XQ_SEVERITY_ERROR,
				   "%s is larger than %s, the %s format's limit for one record; %s",
				   what, lim, f->name, then);
	size_text(mem, sizeof(mem), budget_of(opts));
	return xqi_diagnostic_set(d, XQ_ERANGE, XQI_D_RESOURCE, XQ_SEVERITY_ERROR,
			   "%s is larger than %s, the most one %s record may hold within the memory "
			   "budget of %s (--max-memory); %s",
			   what, lim, f->name, mem, then);
}

uint64_t xqi_format_input_memory(const struct xqi_format *f, struct xqi_input *in,
				const struct xqi_read_opts *opts)
{
	uint64_t content = UINT64_MAX, limit = xqi_format_record_limit(f, opts);
	int64_t size = xqi_input_size(in);

	if (size >= 0) {
		content = (uint64_t)size;
		if (xqi_input_is_gzip(in))
			content = content > UINT64_MAX / 1032 ? UINT64_MAX : content * 1032;
	}
	return xqi_format_record_memory(f, content < limit ? content : limit);
}

int xqi_format_read_whole(const struct xqi_format *f, struct xqi_input *in,
			 const struct xqi_read_opts *opts, const struct xqi_sink *sink,
			 struct xq_buf *out)
{
	struct xq_diagnostic d;
	int rc;

	xqi_diagnostic_init(&d);
	rc = xqi_input_read_all(in, out, (size_t)xqi_format_record_limit(f, opts), &d);
	if (rc) {
		if (rc == XQ_ERANGE)
			xqi_format_limit_diag(&d, f, opts, "the input");
		d.source = xqi_input_name(in);
		xqi_sink_report(sink, &d);
	}
	return rc;
}
