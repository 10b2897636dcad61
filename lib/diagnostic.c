/*
 * diagnostic.c: diagnostic values and the stable names of their codes.
 */
#include "diagnostic.h"

#include <stdio.h>
#include <string.h>

static const char *const code_names[XQI_D_CODE_COUNT] = {
	[XQI_D_NONE] = "none",
	[XQI_D_SYNTAX] = "syntax",
	[XQI_D_ENCODING] = "encoding",
	[XQI_D_BAD_FEN] = "bad-fen",
	[XQI_D_BAD_MOVE_TEXT] = "bad-move-text",
	[XQI_D_ILLEGAL_MOVE] = "illegal-move",
	[XQI_D_AMBIGUOUS_MOVE] = "ambiguous-move",
	[XQI_D_BAD_MAGIC] = "bad-magic",
	[XQI_D_UNSUPPORTED] = "unsupported",
	[XQI_D_TRUNCATED] = "truncated",
	[XQI_D_TRAILING] = "trailing-data",
	[XQI_D_CORRUPT] = "corrupt",
	[XQI_D_CHECKSUM] = "checksum",
	[XQI_D_BAD_TAG] = "bad-tag",
	[XQI_D_BAD_DATE] = "bad-date",
	[XQI_D_MISSING_TAG] = "missing-tag",
	[XQI_D_BAD_RESULT] = "bad-result",
	[XQI_D_NO_RESULT] = "no-result",
	[XQI_D_RESIGNATION] = "resignation",
	[XQI_D_SIDE_TO_MOVE] = "side-to-move",
	[XQI_D_EMPTY_GAME] = "empty-game",
	[XQI_D_NO_GAME] = "no-game",
	[XQI_D_LOSS] = "loss",
	[XQI_D_REPETITION] = "repetition",
	[XQI_D_PERPETUAL_CHECK] = "perpetual-check",
	[XQI_D_PERPETUAL_CHASE] = "perpetual-chase",
	[XQI_D_MOVE_LIMIT] = "move-limit",
	[XQI_D_IO] = "io",
	[XQI_D_ENGINE] = "engine",
	[XQI_D_XML] = "xml",
	[XQI_D_INTERNAL] = "internal",
	[XQI_D_RESOURCE] = "resource",
};

void xqi_diagnostic_init(struct xq_diagnostic *d)
{
	memset(d, 0, sizeof(*d));
}

int xqi_diagnostic_vset(struct xq_diagnostic *d, int rc, enum xqi_diagnostic_code code, enum xq_severity_level sev,
		 const char *fmt, va_list ap)
{
	if (!d)
		return rc;
	d->code = code;
	d->severity = sev;
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	return rc;
}

int xqi_diagnostic_set(struct xq_diagnostic *d, int rc, enum xqi_diagnostic_code code, enum xq_severity_level sev,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rc = xqi_diagnostic_vset(d, rc, code, sev, fmt, ap);
	va_end(ap);
	return rc;
}

void xqi_diagnostic_set_move(struct xq_diagnostic *d, const char *text, size_t len)
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

const char *xqi_diagnostic_code_name(enum xqi_diagnostic_code code)
{
	if ((unsigned)code >= XQI_D_CODE_COUNT || !code_names[code])
		return "unknown";
	return code_names[code];
}

int xqi_diagnostic_code_from_name(const char *name)
{
	for (int i = 0; i < XQI_D_CODE_COUNT; i++)
		if (code_names[i] && !strcmp(code_names[i], name))
			return i;
	return -1;
}

const char *xqi_severity_name(enum xq_severity_level sev)
{
	switch (sev) {
	case XQ_SEVERITY_NOTE:
		return "note";
	case XQ_SEVERITY_WARNING:
		return "warning";
	case XQ_SEVERITY_ERROR:
		return "error";
	}
	return "error";
}

const char *xqi_strerror(int rc)
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
	case XQ_EINVAL:
		return "invalid argument";
	}
	return "unknown error";
}
