/*
 * file.c: files written whole or not at all, of the public API
 * (<xq/file.h>): formats/io.h's output, whose object xq_file is.
 */
#include "internal.h"

#include "io.h"

/* The flags a caller may give (formats/io.h has no others). */
#define FILE_FLAGS \
	(XQ_WRITE_FORCE | XQ_WRITE_GZIP | XQ_WRITE_SYNC_REPLACED | XQ_WRITE_NO_SYNC | \
	 XQ_WRITE_NAMED_TEMP | XQ_WRITE_NO_LINKS)

/* Send `d`, filled by a failed call, to `fn`; return `rc`. */
static int tell(const struct xq_diagnostic *d, int rc, xq_diagnostic_fn fn, void *user)
{
	if (fn)
		fn(d, user);
	return rc;
}

int xq_file_check(const char *path, unsigned flags, xq_diagnostic_fn fn, void *user)
{
	struct xqi_file_plan plan;
	struct xq_diagnostic d;
	int rc;

	if (!path)
		return XQ_EINVAL;
	xqi_diagnostic_init(&d);
	if ((rc = xqi_file_plan(&plan, path, flags & FILE_FLAGS, &d)) != 0)
		return tell(&d, rc, fn, user);
	return (int)plan.kind;
}

int xq_file_open(xq_file **out, const char *path, unsigned flags, xq_diagnostic_fn fn, void *user)
{
	struct xq_diagnostic d;
	int rc;

	if (!out || !path)
		return XQ_EINVAL;
	*out = NULL;
	xqi_diagnostic_init(&d);
	if ((rc = xqi_file_open(out, path, flags & FILE_FLAGS, &d)) != 0) {
		*out = NULL;
		return tell(&d, rc, fn, user);
	}
	return 0;
}

int xq_file_open_buf(xq_file **out, xq_buf *target)
{
	int rc;

	if (!out || !target)
		return XQ_EINVAL;
	rc = xqi_file_open_mem(out, target);
	if (rc)
		*out = NULL;
	return rc;
}

int xq_file_pass_to(xq_file *f, xq_file *to)
{
	if (!f || !to)
		return XQ_EINVAL;
	return xqi_file_pass_to(f, to);
}

const char *xq_file_name(const xq_file *f)
{
	return f ? xqi_file_name(f) : NULL;
}

int xq_file_write(xq_file *f, const void *data, size_t len)
{
	if (!f || (!data && len))
		return XQ_EINVAL;
	return xqi_file_write(f, data, len);
}

int xq_file_commit(xq_file *f, xq_diagnostic_fn fn, void *user)
{
	struct xq_diagnostic d;
	int rc;

	if (!f)
		return XQ_EINVAL;
	xqi_diagnostic_init(&d);
	if ((rc = xqi_file_commit(f, &d)) != 0)
		/* (A memory file's XQ_ENOMEM comes with no diagnostic.) */
		return d.msg[0] ? tell(&d, rc, fn, user) : rc;
	return 0;
}

void xq_file_abort(xq_file *f)
{
	xqi_file_abort(f);
}

int xq_file_sync_dir(const char *dir, xq_diagnostic_fn fn, void *user)
{
	struct xq_diagnostic d;
	int rc;

	if (!dir)
		return XQ_EINVAL;
	xqi_diagnostic_init(&d);
	if ((rc = xqi_file_sync(dir, &d)) != 0)
		return tell(&d, rc, fn, user);
	return 0;
}
