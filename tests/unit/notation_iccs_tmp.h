/*
 * notation_iccs_tmp.h: a stand-in for lib/notation.c, ICCS only, so the
 * PGN tests and fuzz target link while the real notation module is being
 * written on its own branch.  Included by exactly one translation unit of
 * each test program.  Removed when notation lands on main.
 */
#ifndef XQ_TESTS_NOTATION_ICCS_TMP_H
#define XQ_TESTS_NOTATION_ICCS_TMP_H

#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "movegen.h"
#include "notation.h"

static int tmp_iccs_sq(const char *s, xq_sq *out)
{
	int f = s[0] >= 'a' && s[0] <= 'i' ? s[0] - 'a' : s[0] >= 'A' && s[0] <= 'I' ? s[0] - 'A' : -1;
	int k = s[1] >= '0' && s[1] <= '9' ? s[1] - '0' : -1;

	if (f < 0 || k < 0)
		return -1;
	*out = XQ_SQ(f, k);
	return 0;
}

int xq_notation_parse(struct xq_move_request *out, const char *text, size_t len,
		      enum xq_notation dialect, struct xq_diag *d)
{
	char s[4];
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	if (dialect != XQ_NOTATION_AUTO && dialect != XQ_NOTATION_ICCS && dialect != XQ_NOTATION_UCI)
		return xq_diag_set(d, XQ_EPARSE, XQ_D_BAD_MOVE_TEXT, XQ_SEV_ERROR, "not iccs");
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '-' && n == 2)
			continue;
		if (n == 4)
			return xq_diag_set(d, XQ_EPARSE, XQ_D_BAD_MOVE_TEXT, XQ_SEV_ERROR,
					   "'%.*s' is not an ICCS move", (int)len, text);
		s[n++] = text[i];
	}
	if (n != 4 || tmp_iccs_sq(s, &out->from) || tmp_iccs_sq(s + 2, &out->to))
		return xq_diag_set(d, XQ_EPARSE, XQ_D_BAD_MOVE_TEXT, XQ_SEV_ERROR,
				   "'%.*s' is not an ICCS move", (int)len, text);
	out->dialect = XQ_NOTATION_ICCS;
	out->piece = -1;
	return 0;
}

int xq_notation_resolve(xq_move *out, struct xq_board *b, const struct xq_move_request *req,
			struct xq_diag *d)
{
	xq_move m = XQ_MOVE(req->from, req->to);
	int rc = xq_move_check(b, m, d);

	if (rc) {
		if (d)
			d->code = XQ_D_ILLEGAL_MOVE;
		return rc;
	}
	*out = m;
	return 0;
}

int xq_notation_read(xq_move *out, struct xq_board *b, const char *text, size_t len,
		     enum xq_notation dialect, struct xq_diag *d)
{
	struct xq_move_request req;
	int rc = xq_notation_parse(&req, text, len, dialect, d);

	return rc ? rc : xq_notation_resolve(out, b, &req, d);
}

size_t xq_notation_write(char *out, size_t cap, struct xq_board *b, xq_move m,
			 enum xq_notation dialect, unsigned flags)
{
	char name[5];

	if ((dialect != XQ_NOTATION_ICCS && dialect != XQ_NOTATION_UCI) || !xq_move_is_legal(b, m) ||
	    cap < 6)
		return 0;
	xq_move_name(m, name);
	if (flags & XQ_NOTATION_UPPER) {
		name[0] = (char)(name[0] - 'a' + 'A');
		name[2] = (char)(name[2] - 'a' + 'A');
	}
	if (flags & XQ_NOTATION_DASH)
		return (size_t)snprintf(out, cap, "%.2s-%.2s", name, name + 2);
	return (size_t)snprintf(out, cap, "%s", name);
}

enum xq_notation xq_notation_detect(const char *text, size_t len)
{
	struct xq_move_request req;

	return xq_notation_parse(&req, text, len, XQ_NOTATION_ICCS, NULL) ? XQ_NOTATION_AUTO
									   : XQ_NOTATION_ICCS;
}

const char *xq_notation_name(enum xq_notation n)
{
	static const char *const names[] = {"auto", "iccs", "uci", "uci1", "wxf", "chinese", "san"};

	return (unsigned)n < 7 ? names[n] : "auto";
}

int xq_notation_from_name(const char *name, enum xq_notation *out)
{
	for (int i = 0; i < 7; i++)
		if (!strcmp(name, xq_notation_name((enum xq_notation)i))) {
			*out = (enum xq_notation)i;
			return 0;
		}
	return -1;
}

#endif
