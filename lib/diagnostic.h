/*
 * diagnostic.h: error codes and diagnostics, the way lib/ and formats/ report
 * problems.
 *
 * Functions that can fail return an int: 0 on success, a negative XQ_E*
 * code otherwise, and fill a caller-provided `struct xq_diagnostic` (which may be
 * NULL when the caller does not want the message).  Nothing under lib/ or
 * formats/ prints, exits or aborts because of its input; only cmd/ turns a
 * diagnostic into text and an exit status.
 *
 * A diagnostic says what went wrong and exactly where: the source name,
 * line and column (text formats) or byte offset (binary formats), the game
 * number, the ply and the move text.  Its code has a stable name (see
 * xqi_diagnostic_code_name) that appears in NDJSON output and never changes once
 * released.
 */
#ifndef XQI_LIB_DIAG_H
#define XQI_LIB_DIAG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* The return codes (XQ_OK, XQ_EPARSE, ... XQ_ECANCELED) are the public
 * API's, spelt once in <xq/error.h>. */
#include <xq/error.h>

/* Severities (XQ_SEVERITY_NOTE, _WARNING, _ERROR) are the public API's too. */

/*
 * Diagnostic codes.  Append new codes at the end of a group; the names in
 * diagnostic.c are the stable, documented identifiers.
 */
enum xqi_diagnostic_code {
	XQI_D_NONE = 0,
	/* text and syntax */
	XQI_D_SYNTAX,       /* "syntax": malformed record text */
	XQI_D_ENCODING,     /* "encoding": bytes not valid in the encoding */
	XQI_D_BAD_FEN,      /* "bad-fen": FEN text or position rejected */
	XQI_D_BAD_MOVE_TEXT,/* "bad-move-text": text that is not a move in any notation */
	/* moves */
	XQI_D_ILLEGAL_MOVE, /* "illegal-move" */
	XQI_D_AMBIGUOUS_MOVE, /* "ambiguous-move" */
	/* binary formats */
	XQI_D_BAD_MAGIC,    /* "bad-magic": not a file of this format */
	XQI_D_UNSUPPORTED,  /* "unsupported": a version or part we do not handle */
	XQI_D_TRUNCATED,    /* "truncated": data ends before the record does */
	XQI_D_TRAILING,     /* "trailing-data": bytes after the record */
	XQI_D_CORRUPT,      /* "corrupt": a field that cannot be right */
	XQI_D_CHECKSUM,     /* "checksum" */
	/* tags and results */
	XQI_D_BAD_TAG,      /* "bad-tag": malformed tag or value */
	XQI_D_BAD_DATE,     /* "bad-date" */
	XQI_D_MISSING_TAG,  /* "missing-tag" */
	XQI_D_BAD_RESULT,   /* "bad-result": result contradicts the position or rules */
	XQI_D_NO_RESULT,    /* "no-result": result missing or unknown */
	XQI_D_RESIGNATION,  /* "resignation": decisive result without mate */
	XQI_D_SIDE_TO_MOVE, /* "side-to-move": stored side contradicts the moves */
	XQI_D_EMPTY_GAME,   /* "empty-game" */
	XQI_D_NO_GAME,      /* "no-game": an input that holds no game at all */
	/* conversion */
	XQI_D_LOSS,         /* "loss": the target format cannot hold something */
	/* rules */
	XQI_D_REPETITION,   /* "repetition" */
	XQI_D_PERPETUAL_CHECK, /* "perpetual-check" */
	XQI_D_PERPETUAL_CHASE, /* "perpetual-chase" */
	XQI_D_MOVE_LIMIT,   /* "move-limit" */
	/* environment */
	XQI_D_IO,           /* "io" */
	XQI_D_ENGINE,       /* "engine" */
	XQI_D_XML,          /* "xml": malformed XML */
	XQI_D_INTERNAL,     /* "internal" */
	XQI_D_RESOURCE,     /* "resource": a limit reached (depth, size) */
	XQI_D_CODE_COUNT
};

/* Where something is in its source; 0 means unknown for line and column. */
struct xqi_place {
	uint64_t offset; /* byte offset from the start of the source */
	uint64_t line;   /* 1-based (64 bits: an endless input has more than 2^32 lines) */
	uint64_t col;    /* 1-based, in characters of the decoded text */
};

#define XQI_DIAG_MOVE_MAX 48

/*
 * A change `convert --fix` made to a game (or, dry run, would make): the
 * field (a tag name) with its old value (NULL: the tag was added) and its
 * new one.  Borrowed strings (the game's or static), valid while the game
 * is; `field` NULL: the diagnostic is not a fix.
 */
struct xqi_diagnostic_fix {
	const char *field;
	const char *old_value;
	const char *new_value;
};

struct xq_diagnostic {
	enum xqi_diagnostic_code code;
	enum xq_severity_level severity;
	const char *source;      /* file name, borrowed; NULL when unknown */
	struct xqi_place place;   /* line/col for text, offset always when known */
	int has_offset;          /* place.offset is meaningful */
	uint64_t game;           /* 1-based game number, 0 = not in a game */
	uint32_t ply;            /* 1-based ply of the move, 0 = none */
	char move[XQI_DIAG_MOVE_MAX]; /* move text as written, "" if none */
	char msg[XQ_MESSAGE_SIZE];   /* lower case, no final period */
	struct xqi_diagnostic_fix fix;      /* what --fix changed, if this says so */
};

/*
 * The public list of diagnostics (<xq/error.h>, api/error.c), here where
 * the library's code that fills one in place sees it too (the batch puts
 * right the numbers of games read late): copies of the diagnostics, their
 * strings in `strings`.
 */
struct xqi_diagnostic_strings;
struct xq_diagnostics {
	struct xq_diagnostic *v;
	size_t n, alloc;
	struct xqi_diagnostic_strings *strings; /* the copies' sources and fix values:
					    blocks, newest first (a few hundred
					    bytes for most lists, which hold a
					    few diagnostics of one source) */
	size_t strings_size;      /* bytes the blocks hold */
	const char *last_copy;    /* the last source copied */
	uint64_t lost;            /* what xq_diagnostics_collect() could not keep */
};

/* Reset to "no diagnostic". */
void xqi_diagnostic_init(struct xq_diagnostic *d);

/*
 * Set code, severity and message (printf format); keeps the place, game
 * and ply already in `d`.  A NULL `d` is allowed and does nothing.
 * Returns `rc` so that `return xqi_diagnostic_set(d, XQ_EPARSE, ...)` reads well.
 */
int xqi_diagnostic_set(struct xq_diagnostic *d, int rc, enum xqi_diagnostic_code code, enum xq_severity_level sev,
		const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;
int xqi_diagnostic_vset(struct xq_diagnostic *d, int rc, enum xqi_diagnostic_code code, enum xq_severity_level sev,
		 const char *fmt, va_list ap);

/* Copy the move text (truncated to fit, on a UTF-8 character boundary). */
void xqi_diagnostic_set_move(struct xq_diagnostic *d, const char *text, size_t len);

/* Stable name of a code ("illegal-move"), and the reverse; -1 if unknown. */
const char *xqi_diagnostic_code_name(enum xqi_diagnostic_code code);
int xqi_diagnostic_code_from_name(const char *name);
const char *xqi_severity_name(enum xq_severity_level sev); /* "note", "warning", "error" */

/* Short text for a return code ("parse error"). */
const char *xqi_strerror(int rc);

/*
 * A place to send many diagnostics: readers and writers call report() for
 * every problem and carry on.  `payload` is passed back unchanged.
 */
struct xqi_sink {
	void (*report)(const struct xq_diagnostic *d, void *payload);
	void *payload;
};

/* Send `d` to the sink if there is one. */
static inline void xqi_sink_report(const struct xqi_sink *s, const struct xq_diagnostic *d)
{
	if (s && s->report)
		s->report(d, s->payload);
}

#endif
