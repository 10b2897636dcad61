/*
 * <xq/error.h>: return codes and diagnostics.
 *
 * Every function that can fail returns an int: 0 (XQ_OK) on success, a
 * negative XQ_E* code otherwise.  Nothing in the library prints, exits or
 * aborts because of its input.  What went wrong, and where, is a
 * diagnostic: readers and writers hand each one to the caller's
 * xq_diagnostic_fn as it is found; objects (positions, records) keep the
 * last one of a failed call, which xq_position_error() and
 * xq_record_error() return.
 *
 * A diagnostic is opaque: read it with the accessors below, during the
 * callback (or until the next call on the object that kept it); copy what
 * must outlive that.
 *
 * Thread safety: no function of the library uses global mutable state.
 * An object (reader, writer, record, position) may be used by one thread
 * at a time; different objects may be used on different threads at once.
 *
 * NULL arguments: no function crashes on a NULL pointer.  Where a NULL is
 * not allowed (an object, a string it reads, an out-pointer it fills),
 * each function's comment says what it does instead ("NULL `r`: ..."): a
 * function that returns a code returns XQ_EINVAL and does nothing else;
 * one that returns something else returns NULL, 0, -1, XQ_NO_NODE or ""
 * as its comment says (a question, is/has/same, is answered 0), and one
 * that returns nothing does nothing.  The free functions take NULL.
 */
#ifndef XQ_PUBLIC_ERROR_H
#define XQ_PUBLIC_ERROR_H

#include <stddef.h>
#include <stdint.h>

#include "version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes (the library's own sources use these too). */
enum {
	XQ_OK = 0,
	XQ_EPARSE = -1,       /* malformed text or data */
	XQ_EILLEGAL = -2,     /* well formed but against the rules */
	XQ_EAMBIGUOUS = -3,   /* names more than one thing */
	XQ_ENOTFOUND = -4,    /* names nothing */
	XQ_EUNSUPPORTED = -5, /* a version, feature or format not handled */
	XQ_ETRUNCATED = -6,   /* data ends too early */
	XQ_ERANGE = -7,       /* a value or a record over a limit */
	XQ_EENCODING = -8,    /* bytes that are not text in the encoding */
	XQ_EIO = -9,          /* read or write failed */
	XQ_ENOMEM = -10,      /* out of memory */
	XQ_EENGINE = -11,     /* an external engine misbehaved */
	XQ_EINTERNAL = -12,   /* a bug in the library: please report it */
	XQ_ECANCELED = -13,   /* stopped on request */
	XQ_EINVAL = -14       /* an argument the function does not take: NULL
			       * where it needs an object or a string */
};

/* A short text for a return code ("parse error").  Static; thread-safe. */
XQ_API const char *xq_error_string(int rc);

/* Severities, in increasing order. */
enum xq_severity_level { XQ_SEVERITY_NOTE = 0, XQ_SEVERITY_WARNING = 1, XQ_SEVERITY_ERROR = 2 };

typedef struct xq_diagnostic xq_diagnostic;

/*
 * The callback readers and writers report diagnostics to, each as it is
 * found; `user` is what the caller gave with it.  The diagnostic is valid
 * during the call only.  It is called on the thread that called the
 * reader or writer.
 */
typedef void (*xq_diagnostic_fn)(const xq_diagnostic *d, void *user);

/* XQ_SEVERITY_NOTE, _WARNING or _ERROR.  NULL `d`: XQ_EINVAL. */
XQ_API int xq_diagnostic_severity(const xq_diagnostic *d);
/* "note", "warning" or "error".  NULL `d`: NULL. */
XQ_API const char *xq_diagnostic_severity_name(const xq_diagnostic *d);
/* The code's stable name ("illegal-move", "encoding", "loss"), as in the
 * xqkit.diag/1 NDJSON schema (doc/ndjson.md); never changes once
 * released.  NULL `d`: NULL. */
XQ_API const char *xq_diagnostic_code(const xq_diagnostic *d);
/* Every code's stable name, by index from 0 in the library's order (the
 * order xqkit writes a summary's "codes" in); NULL past the last, so a
 * loop from 0 to the first NULL lists them all.  A later version may add
 * codes at the end.  Static; thread-safe. */
XQ_API const char *xq_diagnostic_code_name(int index);
/* The index of the diagnostic's code in that list (>= 0), so that
 * xq_diagnostic_code_name(xq_diagnostic_code_index(d)) is
 * xq_diagnostic_code(d): to count diagnostics by code in an array, sized
 * by the list's length found at run time (a later version may add codes).
 * NULL `d`: XQ_EINVAL. */
XQ_API int xq_diagnostic_code_index(const xq_diagnostic *d);
/* Bytes that always hold a diagnostic's message. */
#define XQ_MESSAGE_SIZE 256
/* The message: lower case, no final period, UTF-8.  NULL `d`: NULL. */
XQ_API const char *xq_diagnostic_message(const xq_diagnostic *d);
/* The input's name, or NULL when unknown.  NULL `d`: NULL. */
XQ_API const char *xq_diagnostic_source(const xq_diagnostic *d);
/* The place: line and column (1-based, in characters) in text inputs, 0
 * when unknown; the byte offset, -1 when unknown (binary inputs have an
 * offset and no line).
 * xq_diagnostic_line(), xq_diagnostic_column(): NULL `d`: 0;
 * xq_diagnostic_offset(): NULL `d`: -1. */
XQ_API uint64_t xq_diagnostic_line(const xq_diagnostic *d);
XQ_API uint64_t xq_diagnostic_column(const xq_diagnostic *d);
XQ_API int64_t xq_diagnostic_offset(const xq_diagnostic *d);
/* The 1-based game number in its input, 0 when not about one game; the
 * 1-based ply, 0 when not about a move; the move text as written ("" if
 * none).
 * xq_diagnostic_game(), xq_diagnostic_ply(): NULL `d`: 0;
 * xq_diagnostic_move(): NULL `d`: NULL. */
XQ_API uint64_t xq_diagnostic_game(const xq_diagnostic *d);
XQ_API uint32_t xq_diagnostic_ply(const xq_diagnostic *d);
XQ_API const char *xq_diagnostic_move(const xq_diagnostic *d);

/*
 * The diagnostic as one line, as the xqkit command prints it:
 * "file:line:col: error: game 3, ply 12 (炮二平五): message [code]",
 * into `buf` (`cap` bytes, NUL-terminated, cut on a character boundary
 * when too small).  Returns the length of the whole line, as snprintf.
 * NULL `d` or `buf`: 0.
 */
XQ_API size_t xq_diagnostic_format(const xq_diagnostic *d, char *buf, size_t cap);

/*
 * What a diagnostic says `xqkit convert --fix` changed: 1 with the tag
 * (`*field`), its old value (NULL: the tag was added) and its new one;
 * 0 when it changed nothing (all three NULL).  Any may be NULL.  NULL `d`: 0.
 */
XQ_API int xq_diagnostic_fix(const xq_diagnostic *d, const char **field, const char **old_value,
			     const char **new_value);

/*
 * A list of diagnostics, to keep what a callback was given beyond the
 * call (one game's, say): each added diagnostic is copied whole, its
 * strings too, so it stays valid until the list changes (a diagnostic
 * from xq_diagnostics_at() until the next add, truncate, keep or free).
 * Owned by the caller; one thread at a time.
 *
 * xq_diagnostics_new(): an empty list, or NULL when out of memory.
 * xq_diagnostics_add(): a copy of `d` at the end; 0 or XQ_ENOMEM.
 * xq_diagnostics_collect(): the same as an xq_diagnostic_fn, `user` the
 *   list (a copy that fails is counted: xq_diagnostics_lost()).
 * xq_diagnostics_count(), xq_diagnostics_at(): the list, in order
 *   (NULL past its end).
 * xq_diagnostics_truncate(): keep the first `n`.
 * xq_diagnostics_keep(): keep those of `severity` or above, in order.
 * xq_diagnostics_set_severity(): change the severity of the i-th (a
 *   warning that turns out to be an error).
 * xq_diagnostics_move(): move the i-th to index `to`, the others keeping
 *   their order.
 * xq_diagnostics_lost(): how many xq_diagnostics_collect() could not keep.
 * xq_diagnostics_free(): free it all; NULL is allowed.
 */
typedef struct xq_diagnostics xq_diagnostics;
XQ_API xq_diagnostics *xq_diagnostics_new(void);
XQ_API int xq_diagnostics_add(xq_diagnostics *l, const xq_diagnostic *d);
XQ_API void xq_diagnostics_collect(const xq_diagnostic *d, void *user);
XQ_API size_t xq_diagnostics_count(const xq_diagnostics *l);
XQ_API const xq_diagnostic *xq_diagnostics_at(const xq_diagnostics *l, size_t i);
XQ_API void xq_diagnostics_truncate(xq_diagnostics *l, size_t n);
XQ_API void xq_diagnostics_keep(xq_diagnostics *l, int severity);
XQ_API void xq_diagnostics_set_severity(xq_diagnostics *l, size_t i, int severity);
XQ_API void xq_diagnostics_move(xq_diagnostics *l, size_t i, size_t to);
XQ_API uint64_t xq_diagnostics_lost(const xq_diagnostics *l);
XQ_API void xq_diagnostics_free(xq_diagnostics *l);

/* Free memory the library gave the caller (xq_writer_close_memory(),
 * xq_record_mainline_text(), xq_position_diagram()).  NULL is allowed. */
XQ_API void xq_free(void *p);

#ifdef __cplusplus
}
#endif

#endif
