/*
 * record_check.c: what only a whole game shows (see record_check.h).
 */
#include "record_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "position.h"
#include "movegen.h"
#include "utf8.h"

/* A diagnostic at the game's place (or at ply `ply`'s move; at tag `tag`
 * when it is given and its place known), to the sink. */
static void say(const struct xqi_sink *sink, const struct xqi_record *g, const char *tag, uint32_t ply,
		enum xq_severity_level sev, enum xqi_diagnostic_code code, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 7, 8)))
#endif
	;
static void say(const struct xqi_sink *sink, const struct xqi_record *g, const char *tag, uint32_t ply,
		enum xq_severity_level sev, enum xqi_diagnostic_code code, const char *fmt, ...)
{
	struct xq_diagnostic d;
	va_list ap;

	xqi_diagnostic_init(&d);
	xqi_record_place_diag_ply(&d, g, g->source, ply);
	if (tag && xqi_record_tag_place(g, tag, &d.place))
		d.has_offset = 1;
	va_start(ap, fmt);
	xqi_diagnostic_vset(&d, 0, code, sev, fmt, ap);
	va_end(ap);
	xqi_sink_report(sink, &d);
}

static int all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!xq_is_digit((unsigned char)s[i]))
			return 0;
	return n > 0;
}

static int all_unknown(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != '?')
			return 0;
	return n > 0;
}

static int num(const char *s, size_t n)
{
	int v = 0;
	for (size_t i = 0; i < n; i++)
		v = v * 10 + (s[i] - '0');
	return v;
}

/*
 * Is `s` a date: YYYY, YYYY.MM or YYYY.MM.DD with '.', '-' or '/' (one of
 * them throughout), months and days of one or two digits, '?' for unknown
 * parts, or 1993年4月27日?  Months and
 * days are checked against the calendar (29 February always passes).
 */
static int date_ok(const char *s)
{
	static const int mdays[13] = {0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	const char *part[3] = {NULL, NULL, NULL};
	size_t plen[3] = {0, 0, 0};
	int n = 0, month = 0;
	const char *p = s;

	if (strstr(s, "\xE5\xB9\xB4")) { /* 年 */
		static const char *const marks[3] = {"\xE5\xB9\xB4", "\xE6\x9C\x88", "\xE6\x97\xA5"};
		for (n = 0; n < 3 && *p; n++) {
			const char *m = strstr(p, marks[n]);
			if (!m)
				return 0;
			part[n] = p;
			plen[n] = (size_t)(m - p);
			p = m + 3;
		}
		if (*p)
			return 0;
		if (plen[0] != 4 || !all_digits(part[0], 4))
			return 0;
		for (int i = 1; i < n; i++)
			if (plen[i] < 1 || plen[i] > 2 || !all_digits(part[i], plen[i]))
				return 0;
	} else {
		char sep = 0;
		for (n = 0; n < 3; n++) {
			const char *q = p;
			while (*q && *q != '.' && *q != '-' && *q != '/')
				q++;
			part[n] = p;
			plen[n] = (size_t)(q - p);
			if (!*q) {
				n++;
				break;
			}
			if (sep && *q != sep)
				return 0;
			sep = *q;
			p = q + 1;
			if (n == 2)
				return 0; /* a fourth part */
		}
		if (plen[0] != 4 || !(all_digits(part[0], 4) || all_unknown(part[0], 4)))
			return 0;
		/* Months and days of one digit (1993.4.27) are common and clear. */
		for (int i = 1; i < n; i++)
			if (plen[i] < 1 || plen[i] > 2 ||
			    !(all_digits(part[i], plen[i]) || all_unknown(part[i], plen[i])))
				return 0;
		if (n > 1 && all_unknown(part[1], plen[1]))
			return n < 3 || all_unknown(part[2], plen[2]) || all_digits(part[2], plen[2]);
	}
	if (n > 1) {
		month = num(part[1], plen[1]);
		if (month < 1 || month > 12)
			return 0;
	}
	if (n > 2 && all_digits(part[2], plen[2])) {
		int day = num(part[2], plen[2]);
		if (day < 1 || day > mdays[month])
			return 0;
	}
	return 1;
}

static const char *side_name(int side)
{
	return side == XQI_RED ? "red" : "black";
}

static void check_start(const struct xqi_record *g, const struct xqi_sink *sink)
{
	const char *fen = xqi_record_tag(g, "FEN");
	struct xq_diagnostic d;

	xqi_diagnostic_init(&d);
	if (xqi_position_validate(&g->start, 0, &d)) {
		struct xq_diagnostic lenient;
		xqi_diagnostic_init(&lenient);
		if (xqi_position_validate(&g->start, XQI_FEN_LENIENT_PLACEMENT, &lenient) == 0)
			say(sink, g, NULL, 0, XQ_SEVERITY_WARNING, XQI_D_BAD_FEN,
			    "the start position has pieces where they can never stand (a composed position?): %s",
			    d.msg);
		else
			say(sink, g, NULL, 0, XQ_SEVERITY_ERROR, XQI_D_BAD_FEN,
			    "the start position cannot occur: %s", d.msg);
	}
	if (fen) {
		struct xqi_position b;
		xqi_diagnostic_init(&d);
		if (xqi_position_from_fen(&b, fen, strlen(fen), XQI_FEN_LENIENT_PLACEMENT, &d)) {
			say(sink, g, NULL, 0, XQ_SEVERITY_ERROR, XQI_D_BAD_FEN, "FEN tag, column %llu: %s",
			    (unsigned long long)d.place.col, d.msg);
		} else if (memcmp(b.sq, g->start.sq, sizeof(b.sq)) || b.side != g->start.side) {
			char want[XQ_FEN_SIZE];
			xqi_position_to_fen(&g->start, want, sizeof(want));
			say(sink, g, NULL, 0, XQ_SEVERITY_ERROR, XQI_D_BAD_FEN,
			    "the FEN tag and the start position differ (the moves start from %s)",
			    want);
		}
	}
}

/*
 * What the repetition and move-limit rules say about the end of the main
 * line and its result (lib/rules.h): confirmed (a note), doubtful (a
 * warning: the rules give a draw, the record a decision), contradicted or
 * not shown (errors), under `ro` (NULL: the rules are not checked), when
 * `could` (what xqi_rules_could_apply() said of the main line).  Returns 1
 * when the rules had something to say; *rc is set to XQ_ENOMEM when their
 * analysis could not be made.
 */
static int check_rules(const struct xqi_record *g, const struct xqi_rules_options *ro, int could,
		       const struct xqi_sink *sink, enum xqi_rules_support *out, int *rc)
{
	enum xqi_rules_support support = XQI_SUPPORT_SILENT;
	struct xq_diagnostic d;
	char move[XQI_DIAG_MOVE_MAX];

	if (!ro || (g->flags & XQI_RECORD_BROKEN) || g->nodes[XQI_ROOT].child == XQ_NO_NODE ||
	    !could)
		return 0;
	xqi_diagnostic_init(&d);
	xqi_record_place_diag_ply(&d, g, g->source, 0);
	if (xqi_rules_check_game(&support, g, XQI_CLAIM_UNSPECIFIED, ro, &d, NULL) != 0) {
		*rc = XQ_ENOMEM; /* the tree holds only legal moves */
		return 0;
	}
	*out = support;
	if (d.code == XQI_D_NONE)
		return support != XQI_SUPPORT_SILENT;
	/* The rules name the ply; the game knows where that move was written. */
	snprintf(move, sizeof(move), "%s", d.move);
	{
		uint32_t ply = d.ply;
		xqi_record_place_diag_ply(&d, g, g->source, ply);
		if (!d.move[0])
			snprintf(d.move, sizeof(d.move), "%s", move);
	}
	xqi_sink_report(sink, &d);
	return 1;
}

/* `final`: the position at the end of the main line. */
static void check_result(const struct xqi_record *g, const struct xqi_position *final, int rules_spoke,
			 unsigned *said, const struct xqi_sink *sink)
{
	/* the reader reported a missing result already */
	int reader_said = (*said & XQI_SAID_NO_RESULT) != 0;
	int tag_said = (*said & XQI_SAID_BAD_RESULT) != 0; /* the reader's Result tag mismatch */

	/* An empty game is said to be empty, once: no result is no news. */
	if (g->flags & XQI_RECORD_EMPTY)
		reader_said = 1;
	uint32_t plies = xqi_record_mainline_length(g);
	const char *tag = xqi_record_tag(g, "Result");
	struct xqi_position b;
	enum xq_state st;

	if (tag && *tag) {
		enum xqi_result r;
		/* A result in words (红胜) is read as what it says: its reader
		 * said so, and it is checked as that result. */
		if (xqi_result_word(tag, strlen(tag), g->start.side, &r) < 0)
			say(sink, g, NULL, 0, XQ_SEVERITY_WARNING, XQI_D_BAD_TAG,
			    "the Result tag '%.40s' is not 1-0, 0-1, 1/2-1/2, * or a result in words",
			    tag);
		else if (tag_said)
			/* Said once, where the reader found it, as an error. */
			*said |= XQI_SAID_BAD_RESULT_STANDS;
		else if (g->result != XQI_RESULT_NONE && r != g->result &&
			 !(r == XQI_RESULT_UNKNOWN && g->result == XQI_RESULT_UNKNOWN))
			say(sink, g, NULL, 0, XQ_SEVERITY_ERROR, XQI_D_BAD_RESULT,
			    "the Result tag says %s but the record ends with %s",
			    xqi_result_string(r), g->result_text ? g->result_text : xqi_result_string(g->result));
	}
	if (g->flags & XQI_RECORD_BROKEN)
		return; /* the moves stop at an error: the final position is not the game's */
	b = *final;
	st = xqi_position_status(&b);
	if (st != XQ_STATE_PLAYING) {
		int winner = !b.side;
		enum xqi_result want = winner == XQI_RED ? XQI_RESULT_RED_WIN : XQI_RESULT_BLACK_WIN;
		const char *how = st == XQ_STATE_CHECKMATE ? "checkmate" : "stalemate";
		if (g->result == want)
			return;
		if (g->result == XQI_RESULT_NONE || g->result == XQI_RESULT_UNKNOWN)
			say(sink, g, NULL, plies, XQ_SEVERITY_NOTE, XQI_D_NO_RESULT,
			    "the game ends in %s (%s wins) but has no result; it should be %s", how,
			    side_name(winner), xqi_result_string(want));
		else
			say(sink, g, NULL, plies, XQ_SEVERITY_ERROR, XQI_D_BAD_RESULT,
			    "the game ends in %s (%s wins) but the result is %s", how,
			    side_name(winner), xqi_result_string(g->result));
		return;
	}
	switch (g->result) {
	case XQI_RESULT_RED_WIN:
	case XQI_RESULT_BLACK_WIN: {
		int winner = g->result == XQI_RESULT_RED_WIN ? XQI_RED : XQI_BLACK;
		if (rules_spoke)
			break; /* a perpetual or a limit decided it, as reported */
		say(sink, g, NULL, 0, XQ_SEVERITY_NOTE, XQI_D_RESIGNATION,
		    "%s wins with no mate on the board (%s resigned or lost on time)",
		    side_name(winner), side_name(!winner));
		break;
	}
	case XQI_RESULT_UNKNOWN:
		if (reader_said)
			break;
		if (g->result_text && xqi_result_word(g->result_text, strlen(g->result_text),
						     g->start.side, &(enum xqi_result){0}) < 0)
			say(sink, g, NULL, 0, XQ_SEVERITY_NOTE, XQI_D_NO_RESULT, "the result '%.40s' is not a result",
			    g->result_text);
		else if (g->result_text)
			say(sink, g, NULL, 0, XQ_SEVERITY_NOTE, XQI_D_NO_RESULT, "the result is unknown ('%.40s')",
			    g->result_text);
		else
			say(sink, g, NULL, 0, XQ_SEVERITY_NOTE, XQI_D_NO_RESULT, "the result is unknown ('*')");
		break;
	case XQI_RESULT_NONE:
		if (!reader_said)
			say(sink, g, NULL, 0, XQ_SEVERITY_NOTE, XQI_D_NO_RESULT, "the record gives no result");
		break;
	case XQI_RESULT_DRAW:
		break;
	}
}

static void check_tags(const struct xqi_record *g, const char *const *required, size_t nrequired,
		       const struct xqi_sink *sink)
{
	const char *date = xqi_record_tag(g, "Date");

	if (date && *date && !date_ok(date))
		say(sink, g, "Date", 0, XQ_SEVERITY_WARNING, XQI_D_BAD_DATE,
		    "the Date tag '%.40s' is not a date like 2006.08.19 (?? for unknown parts)",
		    date);
	for (size_t i = 0; i < nrequired; i++) {
		const char *v = xqi_record_tag(g, required[i]);
		if (!v || !*v)
			say(sink, g, NULL, 0, XQ_SEVERITY_WARNING, XQI_D_MISSING_TAG, "no %s tag", required[i]);
	}
}

int xqi_record_check(const struct xqi_record *g, const struct xqi_check_opts *o, unsigned *said,
		  const struct xqi_sink *sink, enum xqi_rules_support *support)
{
	static const struct xqi_rules_options defaults = XQI_RULES_OPTIONS_INIT;
	struct xqi_position final;
	int could = 0, rc = 0;

	*support = XQI_SUPPORT_SILENT;
	if (!(*said & XQI_SAID_BAD_FEN))
		check_start(g, sink);
	if (!(g->flags & XQI_RECORD_BROKEN))
		/* The final position, whatever the rules (and whether they are
		 * checked at all). */
		could = xqi_rules_could_apply(g, o->rules ? o->rules : &defaults, &final);
	else
		final = g->start; /* not read: a broken game has no final position */
	check_result(g, &final, check_rules(g, o->rules, could, sink, support, &rc), said, sink);
	check_tags(g, o->required, o->nrequired, sink);
	if ((g->flags & XQI_RECORD_EMPTY) && !(*said & XQI_SAID_EMPTY_GAME))
		say(sink, g, NULL, 0, XQ_SEVERITY_NOTE, XQI_D_EMPTY_GAME, "the record has no moves");
	return rc;
}
