/*
 * validate.c: `xqkit validate`, check every game of every input and say
 * exactly what is wrong where.
 *
 * The readers already check each move against the position as they read
 * (a game in memory holds only legal moves, and a bad one comes back
 * flagged broken with its diagnostics).  On top of that this command
 * checks what only a whole game shows: the start position, the FEN tag,
 * the result against the final position (a mate or stalemate must be won
 * by the side that delivered it; a decisive result with no mate is noted
 * as a resignation or a loss on time), the Result tag against the result,
 * the Date tag and the tags the user requires.  It never changes a byte.
 *
 * Exit status: 0 when no error or warning was found (notes do not count
 * unless --strict turns them into errors; --fail-on moves the line), 1
 * when some were, 2 on a usage
 * error, 3 when an input could not be read.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board.h"
#include "cmd.h"
#include "diag.h"
#include "diagplace.h"
#include "ecco_tags.h"
#include "game.h"
#include "inputs.h"
#include "movegen.h"
#include "opt.h"
#include "pool.h"
#include "progress.h"
#include "report.h"
#include "rules.h"
#include "validate.h"
#include <xq/buf.h>
#include <xq/utf8.h>

#define CHECK_SCHEMA "xqkit.check/1"

static const char usage[] =
	"xqkit validate [-r] [--from FORMAT] [--strict] [--require TAGS] [--ecco] [--rules SET]\n"
	"                      [--format text|ndjson] [-j THREADS] [-q] [INPUT...]";
static const char summary[] =
	"Check every move of every game (variations included) from its start position,\n"
	"the result against the final position and the repetition rules, the FEN, Date\n"
	"and required tags, and\n"
	"report each problem with its file, line and column (byte offset in binary\n"
	"files), game number, ply and move.  INPUT is a file, a directory (with -r) or\n"
	"'-' for standard input (the default); gzip is read transparently and the\n"
	"format is found from the content.  Exit status 1 when an error or a warning\n"
	"was found.";

enum { O_STRICT = 's', O_REQUIRE = 'R', O_FAIL_ON = 0x101, O_ECCO };

static const struct opt_spec options[] = {
	OPT_FLAG(O_STRICT, 0, "strict", "notes (resignation, no result, ...) count as errors"),
	OPT_VALUE(O_FAIL_ON, 0, "fail-on", "LEVEL", "exit 1 from this severity up: error, warning (default) or note"),
	OPT_VALUE(O_REQUIRE, 0, "require", "TAGS", "comma-separated tags every game must have"),
	OPT_FLAG(O_ECCO, 0, "ecco", "also note a game with no ECCO tag (a tag that disagrees with the moves is always a warning)"),
	OPT_INCLUDE(rules_options),
	OPT_INCLUDE(input_options),
	OPT_INCLUDE(input_encoding_alias),
	OPT_END,
};

#define MAX_REQUIRED 32

struct vctx {
	struct input_opts in;
	enum xq_severity fail_on;
	const char *required[MAX_REQUIRED];
	int nrequired;
	int ecco;               /* --ecco: also note a missing ECCO tag (ecco_tags.h) */
	/* totals, on the output thread */
	struct reporter rep;
	uint64_t plies, broken;
};

/* Add a game-level diagnostic at the game's place (or ply's move). */
static void game_diag(struct pool_job *j, enum xq_severity sev, enum xq_diag_code code,
		      uint32_t ply, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;
static void game_diag(struct pool_job *j, enum xq_severity sev, enum xq_diag_code code,
		      uint32_t ply, const char *fmt, ...)
{
	struct xq_diag d;
	va_list ap;

	xq_diag_init(&d);
	diag_place_ply(&d, j->game, j->file->name, ply);
	va_start(ap, fmt);
	xq_diag_vset(&d, 0, code, sev, fmt, ap);
	va_end(ap);
	diag_list_add(&j->diags, &d);
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
	return side == XQ_RED ? "red" : "black";
}

static void check_start(struct pool_job *j)
{
	struct xq_game *g = j->game;
	const char *fen = xq_game_tag(g, "FEN");
	struct xq_diag d;

	xq_diag_init(&d);
	if (xq_board_validate(&g->start, 0, &d)) {
		struct xq_diag lenient;
		xq_diag_init(&lenient);
		if (xq_board_validate(&g->start, XQ_FEN_LENIENT_PLACEMENT, &lenient) == 0)
			game_diag(j, XQ_SEV_WARNING, XQ_D_BAD_FEN, 0,
				  "the start position has pieces where they can never stand (a composed position?): %s",
				  d.msg);
		else
			game_diag(j, XQ_SEV_ERROR, XQ_D_BAD_FEN, 0,
				  "the start position cannot occur: %s", d.msg);
	}
	if (fen) {
		struct xq_board b;
		xq_diag_init(&d);
		if (xq_board_from_fen(&b, fen, strlen(fen), XQ_FEN_LENIENT_PLACEMENT, &d)) {
			game_diag(j, XQ_SEV_ERROR, XQ_D_BAD_FEN, 0, "FEN tag, column %llu: %s",
				  (unsigned long long)d.place.col, d.msg);
		} else if (memcmp(b.sq, g->start.sq, sizeof(b.sq)) || b.side != g->start.side) {
			char want[XQ_FEN_MAX];
			xq_board_to_fen(&g->start, want, sizeof(want));
			game_diag(j, XQ_SEV_ERROR, XQ_D_BAD_FEN, 0,
				  "the FEN tag and the start position differ (the moves start from %s)",
				  want);
		}
	}
}

/*
 * What the repetition and move-limit rules say about the end of the main
 * line and its result (lib/rules.h): confirmed (a note), doubtful (a
 * warning: the rules give a draw, the record a decision), contradicted or
 * not shown (errors), under `ro`, when `could` (what
 * xq_rules_could_apply() said of the main line).  Returns 1 when the
 * rules had something to say.
 */
static int check_rules(const struct input_opts *in, const struct xq_rules_options *ro,
		       struct pool_job *j, int could, enum xq_rules_support *out)
{
	struct xq_game *g = j->game;
	enum xq_rules_support support = XQ_SUPPORT_SILENT;
	struct xq_diag d;
	char move[XQ_DIAG_MOVE_MAX];

	if (!in->rules_on || (g->flags & XQ_GAME_BROKEN) || g->nodes[XQ_ROOT].child == XQ_NODE_NONE ||
	    !could)
		return 0;
	xq_diag_init(&d);
	diag_place_ply(&d, j->game, j->file->name, 0);
	if (xq_rules_check_game(&support, g, XQ_CLAIM_UNSPECIFIED, ro, &d, NULL) != 0)
		return 0; /* the tree holds only legal moves; memory ran out */
	*out = support;
	if (d.code == XQ_D_NONE)
		return support != XQ_SUPPORT_SILENT;
	/* The rules name the ply; the game knows where that move was written. */
	snprintf(move, sizeof(move), "%s", d.move);
	{
		uint32_t ply = d.ply;
		diag_place_ply(&d, j->game, j->file->name, ply);
		if (!d.move[0])
			snprintf(d.move, sizeof(d.move), "%s", move);
	}
	diag_list_add(&j->diags, &d);
	return 1;
}

/* `final`: the position at the end of the main line. */
static void check_result(struct pool_job *j, const struct xq_board *final, int rules_spoke)
{
	struct xq_game *g = j->game;
	int reader_said = 0; /* the reader reported a missing result already */
	struct xq_diag *tag_said = NULL; /* the reader's Result tag mismatch */

	for (size_t i = 0; i < j->diags.n; i++) {
		if (j->diags.v[i].code == XQ_D_NO_RESULT)
			reader_said = 1;
		if (j->diags.v[i].code == XQ_D_BAD_RESULT)
			tag_said = &j->diags.v[i];
	}
	/* An empty game is said to be empty, once: no result is no news. */
	if (g->flags & XQ_GAME_EMPTY)
		reader_said = 1;
	uint32_t plies = xq_game_mainline_length(g);
	const char *tag = xq_game_tag(g, "Result");
	struct xq_board b;
	enum xq_status st;

	if (tag && *tag) {
		enum xq_result r;
		if (xq_result_parse(tag, strlen(tag), &r))
			game_diag(j, XQ_SEV_WARNING, XQ_D_BAD_TAG, 0,
				  "the Result tag '%.40s' is not 1-0, 0-1, 1/2-1/2 or *", tag);
		else if (tag_said)
			/* Said once, where the reader found it, as an error. */
			tag_said->severity = XQ_SEV_ERROR;
		else if (g->result != XQ_RESULT_NONE && r != g->result &&
			 !(r == XQ_RESULT_UNKNOWN && g->result == XQ_RESULT_UNKNOWN))
			game_diag(j, XQ_SEV_ERROR, XQ_D_BAD_RESULT, 0,
				  "the Result tag says %s but the record ends with %s",
				  xq_result_string(r), g->result_text ? g->result_text : xq_result_string(g->result));
	}
	if (g->flags & XQ_GAME_BROKEN)
		return; /* the moves stop at an error: the final position is not the game's */
	b = *final;
	st = xq_board_status(&b);
	if (st != XQ_PLAYING) {
		int winner = !b.side;
		enum xq_result want = winner == XQ_RED ? XQ_RESULT_RED_WIN : XQ_RESULT_BLACK_WIN;
		const char *how = st == XQ_CHECKMATE ? "checkmate" : "stalemate";
		if (g->result == want)
			return;
		if (g->result == XQ_RESULT_NONE || g->result == XQ_RESULT_UNKNOWN)
			game_diag(j, XQ_SEV_NOTE, XQ_D_NO_RESULT, plies,
				  "the game ends in %s (%s wins) but has no result; it should be %s", how,
				  side_name(winner), xq_result_string(want));
		else
			game_diag(j, XQ_SEV_ERROR, XQ_D_BAD_RESULT, plies,
				  "the game ends in %s (%s wins) but the result is %s", how,
				  side_name(winner), xq_result_string(g->result));
		return;
	}
	switch (g->result) {
	case XQ_RESULT_RED_WIN:
	case XQ_RESULT_BLACK_WIN: {
		int winner = g->result == XQ_RESULT_RED_WIN ? XQ_RED : XQ_BLACK;
		if (rules_spoke)
			break; /* a perpetual or a limit decided it, as reported */
		game_diag(j, XQ_SEV_NOTE, XQ_D_RESIGNATION, 0,
			  "%s wins with no mate on the board (%s resigned or lost on time)",
			  side_name(winner), side_name(!winner));
		break;
	}
	case XQ_RESULT_UNKNOWN:
		if (reader_said)
			break;
		if (g->result_text)
			game_diag(j, XQ_SEV_NOTE, XQ_D_NO_RESULT, 0, "the result '%.40s' is not a result",
				  g->result_text);
		else
			game_diag(j, XQ_SEV_NOTE, XQ_D_NO_RESULT, 0, "the result is unknown ('*')");
		break;
	case XQ_RESULT_NONE:
		if (!reader_said)
			game_diag(j, XQ_SEV_NOTE, XQ_D_NO_RESULT, 0, "the record gives no result");
		break;
	case XQ_RESULT_DRAW:
		break;
	}
}

static void check_tags(struct pool_job *j, const char *const *required, int nrequired)
{
	struct xq_game *g = j->game;
	const char *date = xq_game_tag(g, "Date");

	if (date && *date && !date_ok(date))
		diag_job_tag(j, "Date", XQ_SEV_WARNING, XQ_D_BAD_DATE,
			  "the Date tag '%.40s' is not a date like 2006.08.19 (?? for unknown parts)",
			  date);
	for (int i = 0; i < nrequired; i++) {
		const char *v = xq_game_tag(g, required[i]);
		if (!v || !*v)
			game_diag(j, XQ_SEV_WARNING, XQ_D_MISSING_TAG, 0, "no %s tag", required[i]);
	}
}

/* validate's rulings (validate.h) as the library's checks answer them. */
static const enum xq_rules_support support_of[] = {
	[VALIDATE_RULING_SILENT] = XQ_SUPPORT_SILENT,
	[VALIDATE_RULING_CONFIRMED] = XQ_SUPPORT_CONFIRMED,
	[VALIDATE_RULING_CONTRADICTED] = XQ_SUPPORT_CONTRADICTED,
	[VALIDATE_RULING_DOUBTFUL] = XQ_SUPPORT_DOUBTFUL,
	[VALIDATE_RULING_NOT_SHOWN] = XQ_SUPPORT_NOT_SHOWN,
};

const char *validate_ruling_name(enum validate_ruling r)
{
	return xq_rules_support_name((unsigned)r < sizeof(support_of) / sizeof(support_of[0])
					     ? support_of[r]
					     : XQ_SUPPORT_SILENT);
}

static enum validate_ruling ruling_of(enum xq_rules_support s)
{
	switch (s) {
	case XQ_SUPPORT_CONFIRMED: return VALIDATE_RULING_CONFIRMED;
	case XQ_SUPPORT_CONTRADICTED: return VALIDATE_RULING_CONTRADICTED;
	case XQ_SUPPORT_DOUBTFUL: return VALIDATE_RULING_DOUBTFUL;
	case XQ_SUPPORT_NOT_SHOWN: return VALIDATE_RULING_NOT_SHOWN;
	default: return VALIDATE_RULING_SILENT;
	}
}

enum validate_ruling validate_checks(struct pool_job *j, const struct input_opts *in,
				     const char *const *required, int nrequired)
{
	enum xq_rules_support support = XQ_SUPPORT_SILENT;
	int fen_reported = 0, empty_reported = 0, could = 0;
	struct xq_board final;
	struct xq_rules_options ro = XQ_RULES_OPTIONS_INIT;

	ro.rules = (enum xq_rules_set)in->ruleset; /* --rules: the same values */

	/* What a reader said already (a start position it rejected, a game
	 * with no moves) is not said again. */
	for (size_t i = 0; i < j->diags.n; i++) {
		if (j->diags.v[i].code == XQ_D_BAD_FEN)
			fen_reported = 1;
		if (j->diags.v[i].code == XQ_D_EMPTY_GAME)
			empty_reported = 1;
	}
	if (!fen_reported)
		check_start(j);
	if (!(j->game->flags & XQ_GAME_BROKEN))
		could = xq_rules_could_apply(j->game, &ro, &final);
	else
		final = j->game->start; /* not read: a broken game has no final position */
	check_result(j, &final, check_rules(in, &ro, j, could, &support));
	check_tags(j, required, nrequired);
	if ((j->game->flags & XQ_GAME_EMPTY) && !empty_reported)
		game_diag(j, XQ_SEV_NOTE, XQ_D_EMPTY_GAME, 0, "the record has no moves");
	return ruling_of(support);
}

/* Worker thread: the checks on one game. */
static void validate_process(void *ctx, void *worker, struct pool_job *j)
{
	struct vctx *c = ctx;
	struct xq_game_counts counts;

	(void)worker;
	validate_checks(j, &c->in, c->required, c->nrequired);
	ecco_tags_check(j, c->ecco);
	xq_game_count(j->game, &counts);
	j->counts[0] = counts.nodes;
	j->counts[1] = counts.variations;
}

static void add_tag_json(struct xq_buf *b, const struct xq_game *g, const char *key,
			 const char *tag)
{
	const char *v = xq_game_tag(g, tag);

	if (!v)
		return;
	xq_buf_addf(b, ",\"%s\":", key);
	report_add_json_safe(b, v);
}

static void game_json(struct vctx *c, const struct pool_job *j, const uint64_t sev[3])
{
	const struct xq_game *g = j->game;
	struct xq_buf *b = &c->rep.out;

	xq_buf_adds(b, "{\"schema\":\"" CHECK_SCHEMA "\",\"file\":");
	report_add_json_safe(b, j->file->name);
	xq_buf_addf(b, ",\"game\":%llu", (unsigned long long)g->number);
	if (g->place.line && !j->file->binary)
		xq_buf_addf(b, ",\"line\":%llu", (unsigned long long)g->place.line);
	else
		xq_buf_addf(b, ",\"offset\":%llu", (unsigned long long)g->place.offset);
	xq_buf_addf(b, ",\"format\":\"%s\"", format_name(j->file->fmt));
	if (g->encoding)
		xq_buf_addf(b, ",\"encoding\":\"%s\"", g->encoding);
	add_tag_json(b, g, "event", "Event");
	add_tag_json(b, g, "date", "Date");
	add_tag_json(b, g, "red", "Red");
	add_tag_json(b, g, "black", "Black");
	xq_buf_addf(b, ",\"result\":\"%s\",\"plies\":%u,\"nodes\":%llu,\"variations\":%llu",
		    xq_result_string(g->result), xq_game_mainline_length(g),
		    (unsigned long long)j->counts[0], (unsigned long long)j->counts[1]);
	xq_buf_addf(b, ",\"errors\":%llu,\"warnings\":%llu,\"notes\":%llu,\"broken\":%s,\"ok\":%s}\n",
		    (unsigned long long)sev[XQ_SEV_ERROR], (unsigned long long)sev[XQ_SEV_WARNING],
		    (unsigned long long)sev[XQ_SEV_NOTE],
		    (g->flags & XQ_GAME_BROKEN) ? "true" : "false",
		    sev[XQ_SEV_ERROR] + sev[XQ_SEV_WARNING] ? "false" : "true");
}

/* Output thread: print in input order and count. */
static int validate_emit(void *ctx, struct pool_job *j)
{
	struct vctx *c = ctx;
	uint64_t sev[3] = {0, 0, 0};

	reporter_job(&c->rep, j, sev);
	if (j->kind == POOL_GAME) {
		c->plies += j->counts[0];
		if (j->game->flags & XQ_GAME_BROKEN)
			c->broken++;
		if (c->rep.fmt == REPORT_NDJSON)
			game_json(c, j, sev);
	}
	reporter_flush(&c->rep);
	return cmd_signal ? 1 : 0;
}

/* `stopped`: the run ended before every input was checked. */
static void print_summary(struct vctx *c, double secs, int stopped)
{
	struct reporter *r = &c->rep;
	struct xq_buf *b;

	if (r->fmt == REPORT_NDJSON) {
		b = reporter_summary_open(r);
		reporter_summary_inputs(r, b, r->games);
		xq_buf_addf(b, ",\"broken_games\":%llu,\"plies\":%llu",
			    (unsigned long long)c->broken, (unsigned long long)c->plies);
		reporter_summary_close(r, secs);
		return;
	}
	if (!(b = reporter_summary_text(r)))
		return;
	report_plural(b, r->files, "file", "files");
	xq_buf_adds(b, ", ");
	report_plural(b, r->games, "game", "games");
	xq_buf_adds(b, ", ");
	report_plural(b, c->plies, "ply", "plies");
	xq_buf_addf(b, " checked in %.2f s", secs);
	if (r->skipped_files) {
		xq_buf_adds(b, "; ");
		report_plural(b, r->skipped_files, "file", "files");
		xq_buf_adds(b, " skipped (not game records)");
	}
	if (r->failed_files) {
		xq_buf_adds(b, "; ");
		report_plural(b, r->failed_files, "input", "inputs");
		xq_buf_adds(b, " not read");
	}
	xq_buf_addc(b, '\n');
	reporter_counts_text(r, b);
	if (stopped)
		xq_buf_adds(b, "stopped early: not every game was checked\n");
	else if (!r->counts.by_sev[XQ_SEV_ERROR] && !r->counts.by_sev[XQ_SEV_WARNING])
		xq_buf_adds(b, "no problems found\n");
	reporter_flush(r);
}

static int parse_required(struct vctx *c, char *list, struct opt_parser *p)
{
	char *s = list;

	while (*s) {
		char *comma = strchr(s, ',');
		if (comma)
			*comma = '\0';
		if (*s) {
			if (c->nrequired == MAX_REQUIRED) {
				snprintf(p->err, sizeof(p->err), "--require takes at most %d tags",
					 MAX_REQUIRED);
				return -1;
			}
			c->required[c->nrequired++] = s;
		}
		if (!comma)
			break;
		s = comma + 1;
	}
	return 0;
}

static int parse_fail_on(struct vctx *c, struct opt_parser *p, const char *value)
{
	static const char *const names[] = {"error", "warning", "note", NULL};
	static const enum xq_severity sev[] = {XQ_SEV_ERROR, XQ_SEV_WARNING, XQ_SEV_NOTE};
	int i = opt_choice(p, "--fail-on", value, names);

	if (i < 0)
		return -1;
	c->fail_on = sev[i];
	return 0;
}

/* One option of validate's own: 0, or -1 with the message in p->err. */
static int take_option(void *ctx, struct opt_parser *p, int id, const char *value)
{
	struct vctx *c = ctx;

	switch (id) {
	case O_STRICT: c->rep.strict = 1; break;
	case O_ECCO: c->ecco = 1; break;
	case O_FAIL_ON: return parse_fail_on(c, p, value);
	case O_REQUIRE: return parse_required(c, (char *)value, p);
	}
	return 0;
}

/* The options: 0 to run, 1 when --help was shown, -1 on a usage error
 * (p->err says what). */
static int parse_args(struct vctx *c, struct opt_parser *p)
{
	int rc = input_opts_parse(&c->in, p, options, usage, summary, take_option, c);

	return rc ? rc : input_opts_check(&c->in, p);
}

/* The exit status of a run that was not stopped. */
static int verdict(const struct vctx *c)
{
	if (c->rep.io_error)
		return XQ_EXIT_IO;
	for (int sev = XQ_SEV_ERROR; sev >= (int)c->fail_on; sev--)
		if (c->rep.counts.by_sev[sev])
			return XQ_EXIT_INVALID;
	return XQ_EXIT_OK;
}

int cmd_validate(int argc, char **argv)
{
	struct opt_parser p;
	struct vctx c;
	struct inputs inputs;
	/* Numbers and lines reach the output only through the games and
	 * their diagnostics, which the pool puts right (pool.h). */
	struct pool_config cfg = {.process = validate_process, .emit = validate_emit, .ctx = &c,
				  .late_numbers = 1};
	int rc, strict;
	double t0;

	memset(&c, 0, sizeof(c));
	input_opts_init(&c.in);
	c.fail_on = XQ_SEV_WARNING;
	if (opt_init(&p, argc, argv, "validate")) {
		/* Nothing was checked: never a word that could read as a verdict. */
		cmd_error("out of memory: stopped early, before any game was checked");
		return XQ_EXIT_IO;
	}
	if ((rc = parse_args(&c, &p)) != 0) {
		rc = rc > 0 ? XQ_EXIT_OK : cmd_usage_error("validate", "%s", p.err);
		opt_release(&p);
		return rc;
	}
	strict = c.rep.strict; /* parsed before the reporter starts */
	reporter_init(&c.rep, "validate", &c.in);
	c.rep.strict = strict;
	t0 = cmd_now();
	cmd_catch_signals();
	if ((rc = input_opts_start(&c.in, &inputs, &p, "validate")) == 0) {
		rc = input_opts_run(&c.in, &inputs, &cfg);
		inputs_release(&inputs);
		if (rc == XQ_ENOMEM)
			c.rep.io_error = 1;
		if (cmd_signal)
			cmd_error("interrupted: the summary counts what was checked before the signal");
		print_summary(&c, cmd_now() - t0, rc != 0 || cmd_signal);
		rc = cmd_signal ? cmd_signal_status() : verdict(&c);
	}
	reporter_release(&c.rep);
	opt_release(&p);
	return rc;
}
