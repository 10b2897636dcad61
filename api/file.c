/*
 * file.c: files written whole or not at all, of the public API
 * (<xq/file.h>): formats/io.h's output, whose object xq_file is.
 */
#include "internal.h"

#include "io.h"

_Static_assert(API_SAME(XQ_WRITE_FORCE, XQ_OUTPUT_FORCE) && API_SAME(XQ_WRITE_GZIP, XQ_OUTPUT_GZIP),
	       "file flags");
_Static_assert(API_SAME(XQ_FILE_NEW, XQ_OUTPUT_NEW) && API_SAME(XQ_FILE_REPLACE, XQ_OUTPUT_REPLACE) &&
		       API_SAME(XQ_FILE_DIRECT, XQ_OUTPUT_DIRECT),
	       "file kinds");

/* The flags a caller may give: the others of io.h stay the command's. */
#define FILE_FLAGS (XQ_WRITE_FORCE | XQ_WRITE_GZIP)

/* Send `d`, filled by a failed call, to `fn`; return `rc`. */
static int tell(const struct xq_diag *d, int rc, xq_diagnostic_fn fn, void *user)
{
	if (fn)
		fn(api_diag(d), user);
	return rc;
}

int xq_file_check(const char *path, unsigned flags, xq_diagnostic_fn fn, void *user)
{
	struct xq_output_plan plan;
	struct xq_diag d;
	int rc;

	xq_diag_init(&d);
	if ((rc = xq_output_plan(&plan, path, flags & FILE_FLAGS, &d)) != 0)
		return tell(&d, rc, fn, user);
	return (int)plan.kind;
}

int xq_file_open(xq_file **out, const char *path, unsigned flags, xq_diagnostic_fn fn, void *user)
{
	struct xq_diag d;
	int rc;

	*out = NULL;
	xq_diag_init(&d);
	if ((rc = xq_output_open(out, path, flags & FILE_FLAGS, &d)) != 0) {
		*out = NULL;
		return tell(&d, rc, fn, user);
	}
	return 0;
}

int xq_file_write(xq_file *f, const void *data, size_t len)
{
	return xq_output_write(f, data, len);
}

int xq_file_commit(xq_file *f, xq_diagnostic_fn fn, void *user)
{
	struct xq_diag d;
	int rc;

	xq_diag_init(&d);
	if ((rc = xq_output_commit(f, &d)) != 0)
		return tell(&d, rc, fn, user);
	return 0;
}

void xq_file_abort(xq_file *f)
{
	xq_output_abort(f);
}
