/*
 * diag.c: diagnostic values and the stable names of their codes.
 */
#include "diag.h"

#include <stdio.h>
#include <string.h>

static const char *const code_names[XQ_D_CODE_COUNT] = {
	[XQ_D_NONE] = "none",
	[XQ_D_SYNTAX] = "syntax",
	[XQ_D_ENCODING] = "encoding",
	[XQ_D_BAD_FEN] = "bad-fen",
	[XQ_D_BAD_MOVE_TEXT] = "bad-move-text",
	[XQ_D_ILLEGAL_MOVE] = "illegal-move",
	[XQ_D_AMBIGUOUS_MOVE] = "ambiguous-move",
	[XQ_D_BAD_MAGIC] = "bad-magic",
	[XQ_D_UNSUPPORTED] = "unsupported",
	[XQ_D_TRUNCATED] = "truncated",
	[XQ_D_TRAILING] = "trailing-data",
	[XQ_D_CORRUPT] = "corrupt",
	[XQ_D_CHECKSUM] = "checksum",
	[XQ_D_BAD_TAG] = "bad-tag",
	[XQ_D_BAD_DATE] = "bad-date",
	[XQ_D_MISSING_TAG] = "missing-tag",
	[XQ_D_BAD_RESULT] = "bad-result",
	[XQ_D_NO_RESULT] = "no-result",
	[XQ_D_RESIGNATION] = "resignation",
	[XQ_D_SIDE_TO_MOVE] = "side-to-move",
	[XQ_D_EMPTY_GAME] = "empty-game",
	[XQ_D_NO_GAME] = "no-game",
	[XQ_D_LOSS] = "loss",
	[XQ_D_REPETITION] = "repetition",
	[XQ_D_PERPETUAL_CHECK] = "perpetual-check",
	[XQ_D_PERPETUAL_CHASE] = "perpetual-chase",
	[XQ_D_MOVE_LIMIT] = "move-limit",
	[XQ_D_IO] = "io",
	[XQ_D_ENGINE] = "engine",
	[XQ_D_XML] = "xml",
	[XQ_D_INTERNAL] = "internal",
	[XQ_D_RESOURCE] = "resource",
};

void xq_diag_init(struct xq_diag *d)
{
	memset(d, 0, sizeof(*d));
}

int xq_diag_vset(struct xq_diag *d, int rc, enum xq_diag_code code, enum xq_severity sev,
		 const char *fmt, va_list ap)
{
	if (!d)
		return rc;
	d->code = code;
	d->severity = sev;
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	return rc;
}

int xq_diag_set(struct xq_diag *d, int rc, enum xq_diag_code code, enum xq_severity sev,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rc = xq_diag_vset(d, rc, code, sev, fmt, ap);
	va_end(ap);
	return rc;
}

void xq_diag_set_move(struct xq_diag *d, const char *text, size_t len)
{
	if (!d)
		return;
	if (len >= sizeof(d->move)) {
		len = sizeof(d->move) - 1;
		/* Do not cut a UTF-8 sequence in half. */
		while (len > 0 && ((unsigned char)text[len] & 0xC0) == 0x80)
			len--;
	}
	memcpy(d->move, text, len);
	d->move[len] = '\0';
}

const char *xq_diag_code_name(enum xq_diag_code code)
{
	if ((unsigned)code >= XQ_D_CODE_COUNT || !code_names[code])
		return "unknown";
	return code_names[code];
}

int xq_diag_code_from_name(const char *name)
{
	for (int i = 0; i < XQ_D_CODE_COUNT; i++)
		if (code_names[i] && !strcmp(code_names[i], name))
			return i;
	return -1;
}

const char *xq_severity_name(enum xq_severity sev)
{
	switch (sev) {
	case XQ_SEV_NOTE:
		return "note";
	case XQ_SEV_WARNING:
		return "warning";
	case XQ_SEV_ERROR:
		return "error";
	}
	return "error";
}

const char *xq_strerror(int rc)
{
	switch (rc) {
	case XQ_OK:
		return "success";
	case XQ_EPARSE:
		return "parse error";
	case XQ_EILLEGAL:
		return "illegal";
	case XQ_EAMBIGUOUS:
		return "ambiguous";
	case XQ_ENOTFOUND:
		return "not found";
	case XQ_EUNSUPPORTED:
		return "unsupported";
	case XQ_ETRUNCATED:
		return "truncated";
	case XQ_ERANGE:
		return "does not fit";
	case XQ_EENCODING:
		return "encoding error";
	case XQ_EIO:
		return "I/O error";
	case XQ_ENOMEM:
		return "out of memory";
	case XQ_EENGINE:
		return "engine error";
	case XQ_EINTERNAL:
		return "internal error";
	case XQ_ECANCELED:
		return "interrupted";
	}
	return "unknown error";
}
