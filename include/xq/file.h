/*
 * <xq/file.h>: writing a file whole or not at all, as the record writers
 * of <xq/io.h> do, for the other bytes a program writes: a diagram
 * (xq_position_diagram()), a report, a list.
 *
 * xq_file_open() writes into a temporary file beside the name, which only
 * xq_file_commit() puts in place, so that a failed or interrupted run
 * never leaves half a file under the name, and xq_file_abort() leaves
 * nothing.  The bytes reach the disk before the file takes its name.  An
 * existing file is refused unless XQ_WRITE_FORCE; a file replaced keeps
 * its mode, owner and group where the system allows, and a symbolic link
 * to a file is kept with the file it names replaced.  "-" is standard
 * output; a character device, FIFO or socket (/dev/null, a pipe) is
 * written directly and never removed; a directory is refused.  A name
 * ending in ".gz", or XQ_WRITE_GZIP, is gzip-compressed.
 *
 * A file is owned by the caller; one thread at a time.
 */
#ifndef XQ_PUBLIC_FILE_H
#define XQ_PUBLIC_FILE_H

#include <stddef.h>

#include "error.h"
#include "io.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct xq_file xq_file;

/* What xq_file_open() would do with a name (xq_file_check()). */
enum xq_file_kind {
	XQ_FILE_NEW = 0,     /* create a file: the name is free */
	XQ_FILE_REPLACE = 1, /* replace an existing file (XQ_WRITE_FORCE) */
	XQ_FILE_DIRECT = 2   /* write to standard output, a device, a FIFO or a socket */
};

/*
 * What xq_file_open() would do with `path` and `flags` (XQ_WRITE_FORCE,
 * XQ_WRITE_GZIP, XQ_WRITE_NO_LINKS), without creating or changing anything: XQ_FILE_NEW,
 * XQ_FILE_REPLACE or XQ_FILE_DIRECT (>= 0); or XQ_EIO when it would
 * refuse (an existing file without XQ_WRITE_FORCE, a directory, a name
 * that cannot be looked at), with the reason sent to `fn` (may be NULL).
 * For a program that checks its output names before it starts its work
 * (a missing folder is found only by xq_file_open()).  NULL `path`: XQ_EINVAL.
 */
XQ_API int xq_file_check(const char *path, unsigned flags, xq_diagnostic_fn fn, void *user);
/*
 * Open `path` ("-": standard output) for writing with `flags`
 * (XQ_WRITE_FORCE, XQ_WRITE_GZIP, XQ_WRITE_SYNC_REPLACED,
 * XQ_WRITE_NO_SYNC, XQ_WRITE_NAMED_TEMP, XQ_WRITE_NO_LINKS of <xq/io.h>;
 * other bits are ignored).  Returns 0 with *out set; or XQ_EIO (refused as
 * xq_file_check() says, or the temporary file cannot be made; code
 * "resource" for a full disk) or XQ_ENOMEM, with *out NULL and the
 * reason sent to `fn` (may be NULL).  NULL `out` or `path`: XQ_EINVAL.
 */
XQ_API int xq_file_open(xq_file **out, const char *path, unsigned flags, xq_diagnostic_fn fn,
			void *user);
/*
 * A file whose bytes are appended to `target`, a buffer that stays the
 * caller's (it must outlive the file), for bytes to look at before they
 * go anywhere: a record writer onto it (xq_writer_open_file()) leaves
 * each record's bytes in `target` as soon as xq_writer_write() returns,
 * for the caller to take (and empty the buffer with xq_buf_reset()) game
 * by game.  xq_file_commit() and xq_file_abort() free the file and leave
 * `target` as it is; commit returns XQ_ENOMEM when an append failed (the
 * buffer's error; nothing is sent to its callback).  0, or XQ_ENOMEM with *out NULL.  Its name is
 * "<memory>".  NULL `out` or `target`: XQ_EINVAL.
 */
XQ_API int xq_file_open_buf(xq_file **out, xq_buf *target);
/*
 * Let the memory file `f` (xq_file_open_buf()) pass its bytes on to the
 * file `to`: what its buffer holds now at once, and from then on what is
 * written to it whenever the buffer holds 64 KiB, the rest when `f` is
 * committed.  For the end of a document, which a writer writes when it
 * closes and which can be large (an HTML page's index of millions of
 * games): it then reaches `to` without being held whole in memory.  `to`
 * stays the caller's, to commit or abort after `f`, and must outlive it.
 * 0; XQ_EUNSUPPORTED when `f` is not a memory file (nothing done); or
 * the failure of a write to `to` (XQ_EIO, XQ_ENOMEM), which `to` keeps,
 * so that its commit fails, and `f` keeps, so that its commit fails.
 * NULL `f` or `to`: XQ_EINVAL.
 */
XQ_API int xq_file_pass_to(xq_file *f, xq_file *to);
/* The name `f` was opened with, as the diagnostics about it say it
 * ("<stdout>" for "-", "<memory>" for xq_file_open_buf()).  Valid until
 * `f` is freed.  NULL `f`: NULL. */
XQ_API const char *xq_file_name(const xq_file *f);
/* Write `len` bytes.  0, or XQ_EIO / XQ_ENOMEM: the failure is kept, and
 * xq_file_commit() then fails and leaves nothing under the name.
 * NULL `f`, or NULL `data` with len > 0: XQ_EINVAL.
 * NULL `f` or `data`: XQ_EINVAL. */
XQ_API int xq_file_write(xq_file *f, const void *data, size_t len);
/*
 * Finish the file and put it in place (without XQ_WRITE_FORCE, only if
 * the name is still free); frees `f` in every case.  0, or XQ_EIO with
 * the reason sent to `fn` (may be NULL: code "resource" for a full disk,
 * "io" otherwise) and nothing left under the name.  NULL `f`: XQ_EINVAL.
 */
XQ_API int xq_file_commit(xq_file *f, xq_diagnostic_fn fn, void *user);
/* Give up: the temporary file is removed, never anything else.  Frees
 * `f`; NULL is allowed. */
XQ_API void xq_file_abort(xq_file *f);
/*
 * Make what was written to the file system that holds the directory
 * `dir` reach the disk, the names in `dir` too: for a program that wrote
 * many files there with XQ_WRITE_SYNC_REPLACED (one sync at the end
 * rather than one per file).  0, or XQ_EIO with the reason sent to `fn`
 * (may be NULL; code "resource" for a full disk, "io" otherwise).
 * NULL `dir`: XQ_EINVAL.
 */
XQ_API int xq_file_sync_dir(const char *dir, xq_diagnostic_fn fn, void *user);

/*
 * A record writer (<xq/io.h>) onto the open file `f`, which stays the
 * caller's: bytes the caller writes with xq_file_write() between records
 * land between them, xq_writer_close() writes the format's end and frees
 * the writer without committing `f`, and xq_writer_abort() frees it and
 * leaves `f` as it is, to commit or abort.  The options as for
 * xq_writer_open() (a format must be named; XQ_WRITE_FORCE and
 * XQ_WRITE_GZIP are the file's, not the writer's).  0 with *out set;
 * XQ_EUNSUPPORTED, XQ_EENCODING or XQ_ENOMEM, the reason in `fn`.  The
 * writer's later diagnostics (what a format cannot hold) go to `fn` too.
 * NULL `out` or `f`: XQ_EINVAL.
 */
XQ_API int xq_writer_open_file(xq_writer **out, xq_file *f, const xq_write_options *opts,
			       xq_diagnostic_fn fn, void *user);

#ifdef __cplusplus
}
#endif

#endif
