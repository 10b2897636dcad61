/*
 * file.c: files written whole or not at all, of the public API
 * (<xq/file.h>): formats/io.h's output, whose object xq_file is.
 */
#include "internal.h"

#include "io.h"

_Static_assert(API_SAME(XQ_WRITE_FORCE, XQ_OUTPUT_FORCE) && API_SAME(XQ_WRITE_GZIP, XQ_OUTPUT_GZIP) &&
		       API_SAME(XQ_WRITE_SYNC_REPLACED, XQ_OUTPUT_SYNC_REPLACED) &&
		       API_SAME(XQ_WRITE_NO_SYNC, XQ_OUTPUT_NO_SYNC) &&
		       API_SAME(XQ_WRITE_NAMED_TEMP, XQ_OUTPUT_NAMED_TEMP),
	       "file flags");
_Static_assert(API_SAME(XQ_FILE_NEW, XQ_OUTPUT_NEW) && API_SAME(XQ_FILE_REPLACE, XQ_OUTPUT_REPLACE) &&
		       API_SAME(XQ_FILE_DIRECT, XQ_OUTPUT_DIRECT),
	       "file kinds");

/* The flags a caller may give (formats/io.h has no others). */
#define FILE_FLAGS \
	(XQ_WRITE_FORCE | XQ_WRITE_GZIP | XQ_WRITE_SYNC_REPLACED | XQ_WRITE_NO_SYNC | XQ_WRITE_NAMED_TEMP)

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

int xq_file_open_buf(xq_file **out, xq_buf *target)
{
	int rc = xq_output_open_mem(out, target);

	if (rc)
		*out = NULL;
	return rc;
}

const char *xq_file_name(const xq_file *f)
{
	return xq_output_name(f);
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
		/* (A memory file's XQ_ENOMEM comes with no diagnostic.) */
		return d.msg[0] ? tell(&d, rc, fn, user) : rc;
	return 0;
}

void xq_file_abort(xq_file *f)
{
	xq_output_abort(f);
}

int xq_file_sync_dir(const char *dir, xq_diagnostic_fn fn, void *user)
{
	struct xq_diag d;
	int rc;

	xq_diag_init(&d);
	if ((rc = xq_output_sync(dir, &d)) != 0)
		return tell(&d, rc, fn, user);
	return 0;
}
