/*
 * diag.h: error codes and diagnostics, the way lib/ and formats/ report
 * problems.
 *
 * Functions that can fail return an int: 0 on success, a negative XQ_E*
 * code otherwise, and fill a caller-provided `struct xq_diag` (which may be
 * NULL when the caller does not want the message).  Nothing under lib/ or
 * formats/ prints, exits or aborts because of its input; only cmd/ turns a
 * diagnostic into text and an exit status.
 *
 * A diagnostic says what went wrong and exactly where: the source name,
 * line and column (text formats) or byte offset (binary formats), the game
 * number, the ply and the move text.  Its code has a stable name (see
 * xq_diag_code_name) that appears in NDJSON output and never changes once
 * released.
 */
#ifndef XQ_LIB_DIAG_H
#define XQ_LIB_DIAG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* The return codes (XQ_OK, XQ_EPARSE, ... XQ_ECANCELED) are the public
 * API's, spelt once in <xq/error.h>. */
#include "../include/xq/error.h"

/* Severity, in increasing order. */
enum xq_severity { XQ_SEV_NOTE, XQ_SEV_WARNING, XQ_SEV_ERROR };

/*
 * Diagnostic codes.  Append new codes at the end of a group; the names in
 * diag.c are the stable, documented identifiers.
 */
enum xq_diag_code {
	XQ_D_NONE = 0,
	/* text and syntax */
	XQ_D_SYNTAX,       /* "syntax": malformed record text */
	XQ_D_ENCODING,     /* "encoding": bytes not valid in the encoding */
	XQ_D_BAD_FEN,      /* "bad-fen": FEN text or position rejected */
	XQ_D_BAD_MOVE_TEXT,/* "bad-move-text": text that is not a move in any notation */
	/* moves */
	XQ_D_ILLEGAL_MOVE, /* "illegal-move" */
	XQ_D_AMBIGUOUS_MOVE, /* "ambiguous-move" */
	/* binary formats */
	XQ_D_BAD_MAGIC,    /* "bad-magic": not a file of this format */
	XQ_D_UNSUPPORTED,  /* "unsupported": a version or part we do not handle */
	XQ_D_TRUNCATED,    /* "truncated": data ends before the record does */
	XQ_D_TRAILING,     /* "trailing-data": bytes after the record */
	XQ_D_CORRUPT,      /* "corrupt": a field that cannot be right */
	XQ_D_CHECKSUM,     /* "checksum" */
	/* tags and results */
	XQ_D_BAD_TAG,      /* "bad-tag": malformed tag or value */
	XQ_D_BAD_DATE,     /* "bad-date" */
	XQ_D_MISSING_TAG,  /* "missing-tag" */
	XQ_D_BAD_RESULT,   /* "bad-result": result contradicts the position or rules */
	XQ_D_NO_RESULT,    /* "no-result": result missing or unknown */
	XQ_D_RESIGNATION,  /* "resignation": decisive result without mate */
	XQ_D_SIDE_TO_MOVE, /* "side-to-move": stored side contradicts the moves */
	XQ_D_EMPTY_GAME,   /* "empty-game" */
	XQ_D_NO_GAME,      /* "no-game": an input that holds no game at all */
	/* conversion */
	XQ_D_LOSS,         /* "loss": the target format cannot hold something */
	/* rules */
	XQ_D_REPETITION,   /* "repetition" */
	XQ_D_PERPETUAL_CHECK, /* "perpetual-check" */
	XQ_D_PERPETUAL_CHASE, /* "perpetual-chase" */
	XQ_D_MOVE_LIMIT,   /* "move-limit" */
	/* environment */
	XQ_D_IO,           /* "io" */
	XQ_D_ENGINE,       /* "engine" */
	XQ_D_XML,          /* "xml": malformed XML */
	XQ_D_INTERNAL,     /* "internal" */
	XQ_D_RESOURCE,     /* "resource": a limit reached (depth, size) */
	XQ_D_CODE_COUNT
};

/* Where something is in its source; 0 means unknown for line and column. */
struct xq_place {
	uint64_t offset; /* byte offset from the start of the source */
	uint64_t line;   /* 1-based (64 bits: an endless input has more than 2^32 lines) */
	uint64_t col;    /* 1-based, in characters of the decoded text */
};

#define XQ_DIAG_MSG_MAX 256
#define XQ_DIAG_MOVE_MAX 48

/*
 * A change `convert --fix` made to a game (or, dry run, would make): the
 * field (a tag name) with its old value (NULL: the tag was added) and its
 * new one.  Borrowed strings (the game's or static), valid while the game
 * is; `field` NULL: the diagnostic is not a fix.
 */
struct xq_diag_fix {
	const char *field;
	const char *old_value;
	const char *new_value;
};

struct xq_diag {
	enum xq_diag_code code;
	enum xq_severity severity;
	const char *source;      /* file name, borrowed; NULL when unknown */
	struct xq_place place;   /* line/col for text, offset always when known */
	int has_offset;          /* place.offset is meaningful */
	uint64_t game;           /* 1-based game number, 0 = not in a game */
	uint32_t ply;            /* 1-based ply of the move, 0 = none */
	char move[XQ_DIAG_MOVE_MAX]; /* move text as written, "" if none */
	char msg[XQ_DIAG_MSG_MAX];   /* lower case, no final period */
	struct xq_diag_fix fix;      /* what --fix changed, if this says so */
};

/* The same diagnostic as the public API sees it (<xq/error.h>): a
 * public xq_diagnostic is the library's own. */
static inline const xq_diagnostic *xq_diag_public(const struct xq_diag *d)
{
	return (const xq_diagnostic *)(const void *)d;
}

/*
 * The public list of diagnostics (<xq/error.h>, api/error.c), here where
 * the library's code that fills one in place sees it too (the pool puts
 * right the numbers of games read late): copies of the diagnostics, their
 * strings in `strings`.
 */
struct xq_diag_strings;
struct xq_diagnostics {
	struct xq_diag *v;
	size_t n, alloc;
	struct xq_diag_strings *strings; /* the copies' sources and fix values:
					    blocks, newest first (a few hundred
					    bytes for most lists, which hold a
					    few diagnostics of one source) */
	size_t strings_size;      /* bytes the blocks hold */
	const char *last_copy;    /* the last source copied */
	uint64_t lost;            /* what xq_diagnostics_collect() could not keep */
};

/* Reset to "no diagnostic". */
void xq_diag_init(struct xq_diag *d);

/*
 * Set code, severity and message (printf format); keeps the place, game
 * and ply already in `d`.  A NULL `d` is allowed and does nothing.
 * Returns `rc` so that `return xq_diag_set(d, XQ_EPARSE, ...)` reads well.
 */
int xq_diag_set(struct xq_diag *d, int rc, enum xq_diag_code code, enum xq_severity sev,
		const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;
int xq_diag_vset(struct xq_diag *d, int rc, enum xq_diag_code code, enum xq_severity sev,
		 const char *fmt, va_list ap);

/* Copy the move text (truncated to fit, on a UTF-8 character boundary). */
void xq_diag_set_move(struct xq_diag *d, const char *text, size_t len);

/* Stable name of a code ("illegal-move"), and the reverse; -1 if unknown. */
const char *xq_diag_code_name(enum xq_diag_code code);
int xq_diag_code_from_name(const char *name);
const char *xq_severity_name(enum xq_severity sev); /* "note", "warning", "error" */

/* Short text for a return code ("parse error"). */
const char *xq_strerror(int rc);

/*
 * A place to send many diagnostics: readers and writers call report() for
 * every problem and carry on.  `payload` is passed back unchanged.
 */
struct xq_sink {
	void (*report)(const struct xq_diag *d, void *payload);
	void *payload;
};

/* Send `d` to the sink if there is one. */
static inline void xq_sink_report(const struct xq_sink *s, const struct xq_diag *d)
{
	if (s && s->report)
		s->report(d, s->payload);
}

#endif
