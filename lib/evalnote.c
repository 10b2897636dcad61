/*
 * evalnote.c: scores in comments, written and read (see evalnote.h).
 */
#include "evalnote.h"

#include <stdio.h>
#include <string.h>

#include "position.h"
#include "utf8.h"

size_t xqi_evalnote_format(char *buf, size_t cap, struct xqi_score red, int depth)
{
	size_t n;

	if (!cap)
		return 0;
	n = xqi_score_format(red, buf, cap);
	if (n >= cap)
		return cap - 1;
	if (red.kind == XQ_EVAL_CP) {
		int k = snprintf(buf + n, cap - n, "/%d", depth);
		n = k < 0 ? n : n + (size_t)k < cap ? n + (size_t)k : cap - 1;
	}
	return n;
}

size_t xqi_evalnote_format_command(char *buf, size_t cap, struct xqi_score red, int depth)
{
	int k;

	if (!cap)
		return 0;
	if (red.kind == XQ_EVAL_CP) {
		long v = (long)red.value, a = v < 0 ? -v : v;
		k = snprintf(buf, cap, "[%%eval %s%ld.%02ld,%d]", v < 0 ? "-" : "", a / 100, a % 100,
			     depth);
	} else {
		k = snprintf(buf, cap, "[%%eval #%s%ld]", red.kind == XQ_EVAL_MATE ? "" : "-",
			     (long)red.value);
	}
	return k < 0 ? 0 : (size_t)k < cap ? (size_t)k : cap - 1;
}

/* Digits at s[*i] (at most `max` of them, at least one): their value, *i moved past. */
static int digits(const char *s, size_t len, size_t *i, int max, int32_t *out)
{
	int32_t v = 0;
	int n = 0;

	while (*i < len && xq_is_digit((unsigned char)s[*i])) {
		if (++n > max)
			return 0;
		v = v * 10 + (s[*i] - '0');
		(*i)++;
	}
	*out = v;
	return n > 0;
}

/* "#3", "#-3" (also "#+3") from s[*i]: a mate from red's point of view. */
static int mate(const char *s, size_t len, size_t *i, struct xqi_score *out)
{
	int neg = 0;
	int32_t n;

	if (*i >= len || s[*i] != '#')
		return 0;
	(*i)++;
	if (*i < len && (s[*i] == '-' || s[*i] == '+'))
		neg = s[(*i)++] == '-';
	if (!digits(s, len, i, 4, &n))
		return 0;
	out->kind = neg ? XQ_EVAL_MATED : XQ_EVAL_MATE;
	out->value = n;
	return 1;
}

/* annotate's word, exactly `len` bytes: "+0.35/12", "0.00/4", "#-3". */
static int annotate_word(const char *s, size_t len, struct xqi_evalnote *out)
{
	size_t i = 0;
	int32_t pawns, frac, depth;
	int sign = 0;

	if (len && s[0] == '#') {
		if (!mate(s, len, &i, &out->score) || i != len)
			return 0;
		out->depth = 0;
		return 1;
	}
	if (len && (s[0] == '+' || s[0] == '-'))
		sign = s[i++] == '-' ? -1 : 1;
	if (!digits(s, len, &i, 6, &pawns) || i >= len || s[i++] != '.')
		return 0;
	{
		size_t f = i;
		if (!digits(s, len, &i, 2, &frac) || i - f != 2)
			return 0;
	}
	if (i >= len || s[i++] != '/' || !digits(s, len, &i, 4, &depth) || i != len)
		return 0;
	if (!sign && (pawns || frac))
		return 0; /* annotate signs every score but zero */
	out->score.kind = XQ_EVAL_CP;
	out->score.value = (sign < 0 ? -1 : 1) * (pawns * 100 + frac);
	out->depth = (int)depth;
	return 1;
}

/* The "[%eval ...]" command starting at s[at]; its end in *end. */
static int eval_command(const char *s, size_t len, size_t at, struct xqi_evalnote *out,
			size_t *end)
{
	static const char head[] = "[%eval";
	size_t i = at + sizeof(head) - 1, sp;
	int32_t depth = 0;

	if (len - at < sizeof(head) - 1 || memcmp(s + at, head, sizeof(head) - 1))
		return 0;
	sp = i;
	while (i < len && xq_is_space((unsigned char)s[i]))
		i++;
	if (i == sp)
		return 0;
	if (i < len && s[i] == '#') {
		if (!mate(s, len, &i, &out->score))
			return 0;
	} else {
		int neg = 0;
		int32_t pawns, cp = 0;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			neg = s[i++] == '-';
		if (!digits(s, len, &i, 6, &pawns))
			return 0;
		if (i < len && s[i] == '.') {
			int k = 0, round = 0;
			i++;
			if (i >= len || !xq_is_digit((unsigned char)s[i]))
				return 0;
			/* Centipawns: two decimals, rounded on the third. */
			for (; i < len && xq_is_digit((unsigned char)s[i]); i++, k++) {
				if (k < 2)
					cp = cp * 10 + (s[i] - '0');
				else if (k == 2)
					round = s[i] >= '5';
			}
			if (k == 1)
				cp *= 10;
			cp += round;
		}
		out->score.kind = XQ_EVAL_CP;
		out->score.value = (neg ? -1 : 1) * (pawns * 100 + cp);
	}
	if (i < len && s[i] == ',') {
		i++;
		if (!digits(s, len, &i, 4, &depth))
			return 0;
	}
	while (i < len && xq_is_space((unsigned char)s[i]))
		i++;
	if (i >= len || s[i] != ']')
		return 0;
	out->depth = (int)depth;
	*end = i + 1;
	return 1;
}

int xqi_evalnote_find(struct xqi_evalnote *out, const char *comment, size_t len)
{
	struct xqi_evalnote n;
	size_t e = len, w;

	if (!comment)
		return 0;
	while (e > 0 && xq_is_space((unsigned char)comment[e - 1]))
		e--;
	w = e;
	while (w > 0 && !xq_is_space((unsigned char)comment[w - 1]))
		w--;
	if (w < e && annotate_word(comment + w, e - w, &n)) {
		n.start = w;
		n.end = e;
		*out = n;
		return 1;
	}
	for (size_t i = 0; i < len; i++) {
		size_t end;
		if (comment[i] == '[' && eval_command(comment, len, i, &n, &end)) {
			n.start = i;
			n.end = end;
			*out = n;
			return 1;
		}
	}
	return 0;
}

int32_t xqi_evalnote_value(struct xqi_score s)
{
	int32_t n = s.value < 0 ? 0 : s.value > 100 ? 100 : s.value;

	switch (s.kind) {
	case XQ_EVAL_MATE:
		return XQI_EVALNOTE_MATE - n;
	case XQ_EVAL_MATED:
		return -(XQI_EVALNOTE_MATE - n);
	default:
		return s.value > XQI_EVALNOTE_CP_CAP	   ? XQI_EVALNOTE_CP_CAP
		       : s.value < -XQI_EVALNOTE_CP_CAP ? -XQI_EVALNOTE_CP_CAP
						       : s.value;
	}
}

int32_t xqi_evalnote_loss(struct xqi_score red_before, struct xqi_score red_after, int mover)
{
	int32_t l = xqi_evalnote_value(red_before) - xqi_evalnote_value(red_after);

	if (mover == XQI_BLACK)
		l = -l;
	return l > 0 ? l : 0;
}

/* e^x with the basic operations only: a short series of x / 1024, squared
 * ten times (relative error about 1e-13 for |x| up to 30), so that the
 * result does not depend on the machine's libm. */
static double exp_exact(double x)
{
	double r = x / 1024.0, term = 1.0, sum = 1.0;

	for (int k = 1; k <= 12; k++) {
		term = term * r / k;
		sum += term;
	}
	for (int i = 0; i < 10; i++)
		sum *= sum;
	return sum;
}

int32_t xqi_evalnote_expected(struct xqi_score s, int32_t scale)
{
	double x;

	if (s.kind == XQ_EVAL_MATE)
		return XQI_EVALNOTE_CHANCE_MAX;
	if (s.kind == XQ_EVAL_MATED)
		return 0;
	if (scale <= 0)
		scale = 1;
	x = (double)xqi_evalnote_value(s) / scale;
	if (x > 30)
		x = 30;
	else if (x < -30)
		x = -30;
	return (int32_t)(XQI_EVALNOTE_CHANCE_MAX / (1.0 + exp_exact(-x)) + 0.5);
}

int32_t xqi_evalnote_drop(struct xqi_score red_before, struct xqi_score red_after, int mover,
			  int32_t scale)
{
	int32_t d = xqi_evalnote_expected(red_before, scale) - xqi_evalnote_expected(red_after, scale);

	if (mover == XQI_BLACK)
		d = -d;
	return d > 0 ? d : 0;
}
