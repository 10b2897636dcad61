/*
 * fix.c: what a record can be proven to mean (fix.h): dates in the forms
 * records write them, and the result a main line proves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "position.h"
#include "fix.h"
#include "movegen.h"
#include "utf8.h"

/* ---- dates --------------------------------------------------------------- */

#define U_NIAN "\xE5\xB9\xB4" /* 年 */
#define U_YUE "\xE6\x9C\x88"  /* 月 */
#define U_RI "\xE6\x97\xA5"   /* 日 */

/* Bytes of the space character at p (ASCII blank or U+3000), or 0. */
static size_t space_at(const char *p, const char *e)
{
	if (p < e && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		return 1;
	if (e - p >= 3 && !memcmp(p, "\xE3\x80\x80", 3))
		return 3;
	return 0;
}

static const char *skip_spaces(const char *p, const char *e)
{
	size_t n;

	while ((n = space_at(p, e)))
		p += n;
	return p;
}

static int has_prefix(const char *p, const char *e, const char *lit)
{
	size_t n = strlen(lit);
	return (size_t)(e - p) >= n && !memcmp(p, lit, n);
}

/* A run of ASCII digits at *p (at most 9): its length, with the value in *v. */
static size_t digits(const char **p, const char *e, int *v)
{
	size_t n = 0;

	*v = 0;
	while (*p < e && n < 9 && xq_is_digit((unsigned char)**p)) {
		*v = *v * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	return n;
}

static int leap(int y)
{
	return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
}

/* `v` as `n` decimal digits at `p` (0 < v < 10^n). */
static void put_digits(char *p, int v, int n)
{
	while (n-- > 0) {
		p[n] = (char)('0' + v % 10);
		v /= 10;
	}
}

/*
 * y (< 0: unknown), m and d (0: unknown) as YYYY.MM.DD, checked against
 * the calendar: XQ_DATE_FIXED, or XQ_DATE_UNKNOWN with the reason.
 */
static enum xq_date_kind put_date(struct xq_date *out, int y, int m, int d)
{
	static const int mdays[13] = {0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	if (y == 0) {
		snprintf(out->why, sizeof(out->why), "there is no year 0");
		return XQ_DATE_UNKNOWN;
	}
	if (m > 12) {
		snprintf(out->why, sizeof(out->why), "there is no month %d", m);
		return XQ_DATE_UNKNOWN;
	}
	if (d && !m) {
		snprintf(out->why, sizeof(out->why), "a day with no month");
		return XQ_DATE_UNKNOWN;
	}
	if (d && d > mdays[m] + (m == 2 && (y < 0 || leap(y)))) {
		snprintf(out->why, sizeof(out->why), "month %d has no day %d", m, d);
		return XQ_DATE_UNKNOWN;
	}
	memcpy(out->date, "????.??.??", XQ_DATE_MAX);
	if (y >= 0)
		put_digits(out->date, y, 4);
	if (m)
		put_digits(out->date + 5, m, 2);
	if (d)
		put_digits(out->date + 8, d, 2);
	return XQ_DATE_FIXED;
}

static enum xq_date_kind not_read(struct xq_date *out)
{
	snprintf(out->why, sizeof(out->why), "not a form of date xqkit reads with certainty");
	return XQ_DATE_UNKNOWN;
}

/*
 * One part of a Chinese date at *pp: `min` to `max` digits (none: unknown,
 * left 0 in *v), spaces, then `mark` (which may be missing when
 * `optional`), then spaces.  0 with *pp moved on, or -1.
 */
static int cjk_part(const char **pp, const char *e, size_t min, size_t max, const char *mark,
		    int optional, int *v)
{
	const char *p = *pp;
	size_t nd = digits(&p, e, v);

	if (nd < min || nd > max || (nd && !*v))
		return -1;
	p = skip_spaces(p, e);
	if (has_prefix(p, e, mark))
		p += strlen(mark);
	else if (!optional)
		return -1;
	*pp = skip_spaces(p, e);
	return 0;
}

/* 1999年3月5日, 1999年3月, 1999年, 1986年4月 日 (a blank part is unknown). */
static enum xq_date_kind cjk_date(struct xq_date *out, const char *p, const char *e)
{
	int y, m = 0, d = 0;

	if (cjk_part(&p, e, 4, 4, U_NIAN, 0, &y))
		return not_read(out);
	if (p == e)
		return put_date(out, y, 0, 0);
	if (cjk_part(&p, e, 0, 2, U_YUE, 0, &m))
		return not_read(out);
	if (p == e)
		return put_date(out, y, m, 0);
	if (cjk_part(&p, e, 0, 2, U_RI, 1, &d) || p != e)
		return not_read(out);
	return put_date(out, y, m, d);
}

/* 19991114, 20091114-09:00, 20091114-09：00 (full-width colon). */
static enum xq_date_kind compact_date(struct xq_date *out, const char *p, const char *e)
{
	int v, y, m, d, hh, mm;
	const char *q;
	enum xq_date_kind k;

	if (digits(&p, e, &v) != 8 || (p < e && xq_is_digit((unsigned char)*p)))
		return not_read(out);
	y = v / 10000, m = v / 100 % 100, d = v % 100;
	if (!m || !d)
		return not_read(out);
	if (p == e)
		return put_date(out, y, m, d);
	if (*p != '-' && *p != ' ')
		return not_read(out);
	q = skip_spaces(p + 1, e);
	if (digits(&q, e, &hh) != 2)
		return not_read(out);
	if (has_prefix(q, e, ":"))
		q += 1;
	else if (has_prefix(q, e, "\xEF\xBC\x9A")) /* ： */
		q += 3;
	else
		return not_read(out);
	if (digits(&q, e, &mm) != 2 || q != e || hh > 23 || mm > 59)
		return not_read(out);
	k = put_date(out, y, m, d);
	if (k == XQ_DATE_FIXED) {
		memcpy(out->time, "00:00:00", XQ_TIME_MAX);
		put_digits(out->time, hh, 2);
		put_digits(out->time + 3, mm, 2);
	}
	return k;
}

/* The separators of numeric dates; one of them throughout a date. */
static size_t separator_at(const char *p, const char *e)
{
	static const char *const seps[] = {".", "-", "/", ":", "\xE3\x80\x81" /* 、 */,
					   "\xE3\x80\x82" /* 。 */, "\xEF\xBC\x8E" /* ． */};

	for (size_t i = 0; i < sizeof(seps) / sizeof(seps[0]); i++)
		if (has_prefix(p, e, seps[i]))
			return strlen(seps[i]);
	return 0;
}

struct part {
	size_t n;    /* characters */
	int unknown; /* all '?' */
	int v;
};

/* YYYY.M.D and its kin (fix.h). */
static enum xq_date_kind numeric_date(struct xq_date *out, const char *p, const char *e)
{
	struct part part[3];
	const char *sep = NULL;
	size_t seplen = 0, n = 0;

	for (;;) {
		struct part *t = &part[n++];
		memset(t, 0, sizeof(*t));
		if (p < e && *p == '?') {
			while (p < e && *p == '?')
				p++, t->n++;
			t->unknown = 1;
		} else {
			t->n = digits(&p, e, &t->v);
		}
		if (!t->n || t->n > 4)
			return not_read(out);
		if (p == e)
			break;
		size_t sl = separator_at(p, e);
		if (!sl || n == 3 || (sep && (sl != seplen || memcmp(p, sep, sl))))
			return not_read(out);
		sep = p, seplen = sl;
		p += sl;
	}
	if (part[0].n == 4) { /* year first */
		int y = part[0].unknown ? -1 : part[0].v, m = 0, d = 0;
		/* 0 for an unknown part (2004-04-00, 0000-00-00), but only
		 * at the end: 1999-00-05 says nothing certain. */
		size_t zeros = n;
		while (zeros > 0 && !part[zeros - 1].unknown && part[zeros - 1].v == 0)
			zeros--;
		if (y == 0 && zeros)
			return not_read(out); /* no year 0 */
		if (y == 0)
			y = -1;
		for (size_t i = 1; i < n; i++)
			if (part[i].n > 2 || (i < zeros && !part[i].unknown && part[i].v == 0))
				return not_read(out);
		if (n > 1 && !part[1].unknown)
			m = part[1].v;
		if (n > 2 && !part[2].unknown)
			d = part[2].v;
		return put_date(out, y, m, d);
	}
	if (n != 3 || part[0].unknown || part[1].unknown || part[2].unknown || part[0].n > 2 ||
	    part[1].n > 2 || !part[0].v || !part[1].v)
		return not_read(out);
	if (part[2].n == 4) { /* A/B/YYYY: which of A and B is the month? */
		int a = part[0].v, b = part[1].v;
		if (a > 12 && b <= 12)
			return put_date(out, part[2].v, b, a);
		if (b > 12 && a <= 12)
			return put_date(out, part[2].v, a, b);
		if (a == b)
			return put_date(out, part[2].v, a, a);
		if (a > 12)
			return not_read(out);
		snprintf(out->why, sizeof(out->why),
			 "%d/%d can be month/day or day/month", a, b);
		return XQ_DATE_AMBIGUOUS;
	}
	if (part[2].n > 2 || !part[2].v)
		return not_read(out);
	if (part[0].v >= 32) /* it cannot be a day: a year of the 1900s first */
		return put_date(out, 1900 + part[0].v, part[1].v, part[2].v);
	snprintf(out->why, sizeof(out->why),
		 "a two-digit year: which part is the year, and of which century, is not certain");
	return XQ_DATE_AMBIGUOUS;
}

/* YYYY.MM.DD with digits or ?? in each part, and a day that exists. */
static int canonical(const char *s, size_t len)
{
	static const unsigned char shape[10] = "yyyy.mm.dd";
	struct xq_date tmp;
	int q[3] = {0, 0, 0}, dg[3] = {0, 0, 0};

	if (len != 10)
		return 0;
	for (size_t i = 0; i < 10; i++) {
		int part = i < 4 ? 0 : i < 7 ? 1 : 2;
		if (shape[i] == '.') {
			if (s[i] != '.')
				return 0;
		} else if (s[i] == '?') {
			q[part]++;
		} else if (xq_is_digit((unsigned char)s[i])) {
			dg[part]++;
		} else {
			return 0;
		}
	}
	for (int i = 0; i < 3; i++)
		if (q[i] && dg[i])
			return 0; /* 19?? is not how PGN says a part is unknown */
	if (q[0]) /* ????.MM.DD: nothing to check but the parts */
		return 1;
	return numeric_date(&tmp, s, s + len) == XQ_DATE_FIXED && !memcmp(tmp.date, s, 10);
}

int xq_date_normalize(struct xq_date *out, const char *s, size_t len)
{
	const char *b, *e;
	const char *p;

	if (!out || (!s && len))
		return XQ_EINVAL;
	if (!s)
		s = "";
	b = s;
	e = s + len;
	memset(out, 0, sizeof(*out));
	b = skip_spaces(b, e);
	for (;;) {
		if (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
			e--;
		else if (e - b >= 3 && !memcmp(e - 3, "\xE3\x80\x80", 3))
			e -= 3;
		else
			break;
	}
	if (b == e) {
		snprintf(out->why, sizeof(out->why), "no date");
		return XQ_DATE_UNKNOWN;
	}
	if (canonical(b, (size_t)(e - b))) {
		if (b == s && e == s + len)
			return XQ_DATE_CANONICAL;
		memcpy(out->date, b, 10);
		return XQ_DATE_FIXED;
	}
	for (p = b; p < e && !has_prefix(p, e, U_NIAN); p++)
		;
	if (p < e)
		return cjk_date(out, b, e);
	p = b;
	{
		int v;
		if (digits(&p, e, &v) == 8)
			return compact_date(out, b, e);
	}
	return numeric_date(out, b, e);
}

/* ---- results -------------------------------------------------------------- */

/* Did the final position (the last key) occur before since the last capture? */
static int final_repeats(const uint64_t *keys, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++)
		if (keys[i] == keys[n - 1])
			return 1;
	return 0;
}

int xqi_result_prove(struct xqi_result_proof *p, const struct xqi_record *g,
		    const struct xqi_rules_options *o, struct xq_diagnostic *d)
{
	struct xqi_position b = g->start;
	uint64_t *keys = NULL;
	size_t nkeys = 0, kalloc = 0;
	uint32_t n = 0;
	enum xq_state st;
	int rc = 0;

	memset(p, 0, sizeof(*p));
	p->result = XQI_RESULT_NONE;
	if (g->flags & XQI_RECORD_BROKEN)
		return 0;
	if (o && XQ_ALLOC_GROW(keys, 1, kalloc))
		return XQ_ENOMEM;
	if (o)
		keys[nkeys++] = b.key;
	for (uint32_t k = g->nodes[XQI_ROOT].child; k != XQ_NO_NODE; k = g->nodes[k].child) {
		struct xqi_undo u;
		xqi_position_make(&b, g->nodes[k].move, &u);
		n++;
		if (!o)
			continue;
		if (u.captured)
			nkeys = 0; /* no position before a capture comes back */
		if (XQ_ALLOC_GROW(keys, nkeys + 1, kalloc)) {
			free(keys);
			return XQ_ENOMEM;
		}
		keys[nkeys++] = b.key;
	}
	p->ply = n;
	st = xqi_position_status(&b);
	if (st != XQ_STATE_PLAYING) {
		/* The side to move cannot move: it has lost, mated or stalemated. */
		p->why = st == XQ_STATE_CHECKMATE ? XQ_PROOF_CHECKMATE : XQ_PROOF_STALEMATE;
		p->result = b.side == XQI_RED ? XQI_RESULT_BLACK_WIN : XQI_RESULT_RED_WIN;
	} else if (o && final_repeats(keys, nkeys)) {
		struct xqi_rules_report r;
		xqi_rules_report_init(&r);
		rc = xqi_rules_analyze_game(&r, g, xqi_record_mainline_end(g), o, d);
		if (!rc && r.ncycles) {
			const struct xqi_rules_cycle *c = &r.cycles[r.ncycles - 1];
			unsigned min = o->min_repeats ? o->min_repeats : 2;
			if (c->last == n && c->repeats >= min &&
			    (c->verdict == XQ_RULING_RED_LOSES || c->verdict == XQ_RULING_BLACK_LOSES)) {
				int offender = c->verdict == XQ_RULING_RED_LOSES ? XQI_RED : XQI_BLACK;
				p->why = XQ_PROOF_PERPETUAL;
				p->result = offender == XQI_RED ? XQI_RESULT_BLACK_WIN : XQI_RESULT_RED_WIN;
				p->first = c->first;
				p->conduct = (enum xqi_rules_conduct)c->side[offender].conduct;
				p->rules = r.rules;
			}
		}
		xqi_rules_report_release(&r);
	}
	free(keys);
	return rc;
}
