/*
 * replay.c: `xqkit replay`, play a game's main line ply by ply.
 *
 * Each ply is one line: the ply number, the move number, the move in the
 * chosen notation, its ICCS coordinates and the FEN after it; comments
 * and NAGs follow the move.  A board is drawn after the last ply shown (or
 * after each with --each-ply): Unicode with Chinese glyphs and colours
 * when standard output is a terminal, ASCII or nothing otherwise.  --svg
 * writes a diagram of the position at the chosen ply.  --output-format
 * ndjson gives one "xqkit.ply/1" object per ply instead, for scripts.
 *
 * The inputs are read as every collection command reads them (the batch of <xq/batch.h>:
 * many inputs, -r, -j, in input order); replay trusts the tree (readers
 * only keep legal moves) and reports the reader's diagnostics, so a
 * broken game is replayed up to its error and the command exits 1.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "diagplace.h"
#include "inputs.h"
#include "movetext.h"
#include "opt.h"
#include <xq/batch.h>
#include "progress.h"
#include "report.h"
#include <xq/buf.h>
#include <xq/diagram.h>
#include <xq/file.h>
#include <xq/record.h>
#include <xq/rules.h>
#include <xq/utf8.h>

#define PLY_SCHEMA "xqkit.ply/1"

static const char usage[] =
	"xqkit replay [--ply N] [--game N] [--notation NAME] [--board ascii|unicode|none]\n"
	"                    [--svg FILE] [--rules SET] [--output-format text|ndjson] [-r] [INPUT...]";
static const char summary[] =
	"Play the main line of each game of the inputs (files, directories with -r, '-'\n"
	"for standard input, the default) and print every ply: its number, the move in\n"
	"the chosen notation, its ICCS coordinates and the FEN after it, then a board.\n"
	"With --svg, write an SVG diagram of the position at --ply N (default: the end)\n"
	"of the first game of one input (or of --game N).";

enum { O_PLY = 'p', O_GAME = 'g', O_NOTATION = 'n', O_BOARD = 'b', O_EACH = 'e', O_SVG = 'S',
       O_FLIP = 'F', O_OUTPUT_FORMAT = 'O', O_FORCE = 'o', O_LABELS = 'L' };

static const struct opt_spec options[] = {
	OPT_VALUE(O_PLY, 0, "ply", "N", "stop after ply N (0 is the start position)"),
	OPT_VALUE(O_GAME, 0, "game", "N", "replay only the Nth game of each input"),
	OPT_VALUE(O_NOTATION, 0, "notation", "NAME", "notation of the moves (" MOVETEXT_NAMES ")"),
	OPT_VALUE(O_OUTPUT_FORMAT, 0, "output-format", "FMT", "the plies as text or ndjson (default: as --format)"),
	OPT_VALUE(O_BOARD, 0, "board", "STYLE", "ascii, unicode or none (default: unicode on a terminal, else none)"),
	OPT_FLAG(O_EACH, 0, "each-ply", "draw the board after every ply, not only the last"),
	OPT_FLAG(O_FLIP, 0, "flip", "draw boards with black at the bottom"),
	OPT_VALUE(O_SVG, 0, "svg", "FILE", "write an SVG diagram of the last ply shown ('-': stdout; DIR/: one per ply)"),
	OPT_VALUE(O_LABELS, 0, "labels", "STYLE", "labels around an SVG board: iccs (default), chinese or none"),
	OPT_FLAG(O_FORCE, 0, "force", "let --svg replace an existing file"),
	OPT_INCLUDE(rules_options),
	OPT_INCLUDE(input_options),
	OPT_INCLUDE(input_encoding_alias),
	OPT_END,
};

enum board_style { BOARD_NONE, BOARD_ASCII, BOARD_UNICODE };

struct rctx {
	long ply;              /* -1: to the end */
	long game;             /* 0: every game */
	struct movetext notation;
	enum board_style board;
	int board_set;
	int each, flip, color;
	const char *svg;
	int svg_dir;           /* --svg DIR/: a diagram of every ply in DIR */
	int refused;           /* a diagram's name under DIR/ was taken: exit status 2 */
	unsigned long svg_written; /* files written in DIR */
	int labels;            /* XQ_DIAGRAM_LABELS_* */
	int force;
	enum report_format fmt; /* of the plies */
	int fmt_set;
	struct input_opts in;
	struct reporter rep;
	const char *name;      /* the input's name, for the header */
	int problems;          /* a problem reported outside the diagnostics */
	struct xq_buf out;
	xq_position *pos;      /* the position being replayed */
};

/* Columns a string takes on a terminal: East Asian wide characters take two. */
static size_t display_width(const char *s)
{
	size_t w = 0, len = strlen(s);

	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t n = xq_utf8_decode(s + i, len - i, &cp);
		if (!n)
			n = 1;
		i += n;
		w += (cp >= 0x1100 && (cp <= 0x115F || (cp >= 0x2E80 && cp <= 0xA4CF) ||
				       (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
				       (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
				       (cp >= 0xFFE0 && cp <= 0xFFE6)))
			     ? 2
			     : 1;
	}
	return w;
}

static void pad(struct xq_buf *b, const char *s, size_t width)
{
	size_t w = display_width(s);

	xq_buf_adds(b, s);
	while (w++ < width)
		xq_buf_addc(b, ' ');
}

/* Text on one line, safe for a terminal (report_add_safe). */
static void add_line(struct xq_buf *b, const char *s)
{
	report_add_safe(b, s, strlen(s));
}

/* A comment: its lines indented under the move, otherwise as add_line. */
static void add_comment(struct xq_buf *b, const char *s)
{
	for (;;) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		if (len && s[len - 1] == '\r')
			len--;
		report_add_safe(b, s, len);
		if (!nl)
			break;
		xq_buf_adds(b, "\n      ");
		s = nl + 1;
	}
}

static const char *nag_glyph(uint8_t nag)
{
	static const char *const g[] = {"", "!", "?", "!!", "??", "!?", "?!"};
	return nag < 7 ? g[nag] : NULL;
}

static void draw(struct rctx *c, const xq_position *p, xq_move_code last)
{
	xq_diagram_options o = XQ_DIAGRAM_OPTIONS_INIT;
	char *text;
	size_t len;

	if (c->board == BOARD_NONE)
		return;
	o.style = c->board == BOARD_ASCII ? XQ_DIAGRAM_STYLE_ASCII : XQ_DIAGRAM_STYLE_UNICODE;
	o.flags = (c->flip ? XQ_DIAGRAM_FLIP : 0) | (c->color ? XQ_DIAGRAM_COLOR : 0);
	o.last = last;
	if (xq_position_diagram(p, &o, &text, &len) == 0) {
		xq_buf_add(&c->out, text, len);
		xq_free(text);
	}
	xq_buf_addc(&c->out, '\n');
}

static void header(struct rctx *c, const xq_record *r)
{
	static const char *const tags[] = {"Event", "Date", "Site", NULL};
	const char *red = xq_record_tag(r, "Red"), *black = xq_record_tag(r, "Black");
	const char *comment = xq_record_node_comment(r, XQ_ROOT_NODE);
	const char *result = xq_record_result_text(r);
	struct xq_buf *b = &c->out;
	char fen[XQ_FEN_SIZE];

	xq_buf_addf(b, "game %llu of ", (unsigned long long)xq_record_number(r));
	report_add_safe(b, c->name, strlen(c->name));
	if (red || black) {
		xq_buf_adds(b, ": ");
		add_line(b, red && *red ? red : "?");
		xq_buf_adds(b, " vs ");
		add_line(b, black && *black ? black : "?");
	}
	for (int i = 0; tags[i]; i++) {
		const char *v = xq_record_tag(r, tags[i]);
		if (v && *v) {
			xq_buf_adds(b, ", ");
			add_line(b, v);
		}
	}
	xq_buf_addf(b, " (%s)\n", result ? result : xq_record_result(r));
	if (comment) {
		xq_buf_adds(b, "     {");
		add_comment(b, comment);
		xq_buf_adds(b, "}\n");
	}
	xq_record_start_fen(r, fen, sizeof(fen));
	xq_buf_addf(b, "  0  start                      %s\n", fen);
}

static void ply_text(struct rctx *c, const xq_record *r, uint32_t n, uint32_t ply, int side,
		     unsigned fullmove, const char *move, const char *iccs, const char *fen,
		     const char *mark)
{
	struct xq_buf *b = &c->out;
	const char *pre = xq_record_node_pre_comment(r, n), *comment = xq_record_node_comment(r, n);
	char num[32], mv[64];

	snprintf(num, sizeof(num), side == 0 ? "%u." : "%u...", fullmove);
	snprintf(mv, sizeof(mv), "%s", move);
	for (int k = 0; k < xq_record_node_nag_count(r, n); k++) {
		int nag = xq_record_node_nag(r, n, k);
		const char *gl = nag_glyph((uint8_t)nag);
		size_t l = strlen(mv);
		if (gl)
			snprintf(mv + l, sizeof(mv) - l, "%s", gl);
		else
			snprintf(mv + l, sizeof(mv) - l, " $%u", (unsigned)nag);
	}
	xq_buf_addf(b, "%3u  ", ply);
	pad(b, num, 7);
	if (c->notation.notation == XQ_DIALECT_ICCS) {
		/* The move is its coordinates: one column is enough. */
		pad(b, mv, 20);
		xq_buf_addf(b, "%s%s\n", fen, mark);
	} else {
		pad(b, mv, 12);
		xq_buf_addf(b, "  %s  %s%s\n", iccs, fen, mark);
	}
	if (pre || comment) {
		xq_buf_adds(b, "     {");
		if (pre)
			add_comment(b, pre);
		if (pre && comment)
			xq_buf_adds(b, " ");
		if (comment)
			add_comment(b, comment);
		xq_buf_adds(b, "}\n");
	}
}

/* A ply of `r` as an xqkit.ply/1 record; node `n` 0 (the root) for the
 * start position. */
static void ply_json(struct rctx *c, const xq_record *r, uint32_t n, uint32_t ply, int side,
		     unsigned fullmove, const char *move, const char *iccs, const char *fen,
		     const char *extra)
{
	struct xq_buf *b = &c->out;

	xq_buf_adds(b, "{\"schema\":\"" PLY_SCHEMA "\",\"file\":");
	report_add_json_safe(b, c->name);
	xq_buf_addf(b, ",\"game\":%llu,\"ply\":%u", (unsigned long long)xq_record_number(r), ply);
	if (n != XQ_ROOT_NODE) {
		const char *text = xq_record_node_source_text(r, n);
		const char *pre = xq_record_node_pre_comment(r, n), *comment = xq_record_node_comment(r, n);
		int nags = xq_record_node_nag_count(r, n);
		xq_buf_addf(b, ",\"move_number\":%u,\"side\":\"%s\",\"iccs\":\"%s\",\"move\":", fullmove,
			    side == 0 ? "red" : "black", iccs);
		xq_buf_add_json_string(b, move, strlen(move));
		if (text) {
			xq_buf_adds(b, ",\"text\":");
			xq_buf_add_json_string(b, text, strlen(text));
		}
		if (nags) {
			xq_buf_adds(b, ",\"nags\":[");
			for (int k = 0; k < nags; k++)
				xq_buf_addf(b, "%s%u", k ? "," : "", (unsigned)xq_record_node_nag(r, n, k));
			xq_buf_addc(b, ']');
		}
		if (pre) {
			xq_buf_adds(b, ",\"pre_comment\":");
			xq_buf_add_json_string(b, pre, strlen(pre));
		}
		if (comment) {
			xq_buf_adds(b, ",\"comment\":");
			xq_buf_add_json_string(b, comment, strlen(comment));
		}
	}
	xq_buf_adds(b, ",\"fen\":\"");
	xq_buf_adds(b, fen);
	xq_buf_addc(b, '"');
	xq_buf_adds(b, extra);
	xq_buf_adds(b, "}\n");
}

/* Text from lib/rules (lines), indented under the ply it belongs to. */
static void add_indented(struct xq_buf *b, const char *text)
{
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		if (len) {
			xq_buf_adds(b, "     | ");
			xq_buf_add(b, text, len);
			xq_buf_addc(b, '\n');
		}
		if (!nl)
			break;
		text = nl + 1;
	}
}

/*
 * What the rules say at `ply` of the line `l`: a mark for the ply's line
 * (text) or JSON members (ndjson) in `mark`, and the description of a
 * cycle or limit that ends there in `after` (text only).
 */
static void rules_at(struct rctx *c, const xq_rules_line *l, uint32_t ply, struct xq_buf *mark,
		     struct xq_buf *after)
{
	const char *kind, *verdict;
	int cyc = xq_rules_line_cycle(l, ply, &kind, &verdict);
	char *text;

	xq_buf_reset(mark);
	xq_buf_reset(after);
	if (cyc > 0) {
		if (c->fmt == REPORT_NDJSON) {
			xq_buf_addf(mark, ",\"repetition\":{\"cycle\":%d,\"kind\":\"%s\"", cyc, kind);
			if (verdict)
				xq_buf_addf(mark, ",\"verdict\":\"%s\"", verdict);
			xq_buf_addc(mark, '}');
		} else {
			xq_buf_addf(mark, "  [repetition %d: %s]", cyc, kind);
			if (verdict && xq_rules_line_describe_cycle(l, cyc, &text) > 0) {
				xq_buf_adds(after, text);
				xq_free(text);
			}
		}
	}
	for (size_t i = 0; xq_rules_line_limit(l, ply, i, &text) > 0; i++) {
		if (c->fmt == REPORT_NDJSON) {
			size_t len = strlen(text);
			while (len && text[len - 1] == '\n')
				len--;
			xq_buf_adds(mark, ",\"limit\":");
			xq_buf_add_json_string(mark, text, len);
		} else {
			xq_buf_adds(mark, "  [move limit]");
			xq_buf_adds(after, text);
			xq_buf_addc(after, '\n');
		}
		xq_free(text);
	}
}

/* The diagram of `p` (after ply `ply`, `move`) in --svg's file, or in
 * DIR/NNN.svg (NNN: the ply, three digits at least) with --svg DIR/. */
static int write_svg(struct rctx *c, const xq_record *r, const xq_position *p, xq_move_code last,
		     uint32_t ply, const char *move)
{
	char path[4096];
	xq_diagram_options o = XQ_DIAGRAM_OPTIONS_INIT;
	struct xq_buf title = XQ_BUF_INIT;
	char *svg = NULL;
	size_t len = 0;
	xq_file *out = NULL;
	unsigned flags;
	struct report_message m = {""};
	const char *red = xq_record_tag(r, "Red"), *black = xq_record_tag(r, "Black");
	int rc, taken = 0;

	if (red || black)
		xq_buf_addf(&title, "%s vs %s, ", red && *red ? red : "?", black && *black ? black : "?");
	if (ply)
		xq_buf_addf(&title, "ply %u: %s", ply, move);
	else
		xq_buf_adds(&title, "start position");
	o.style = XQ_DIAGRAM_STYLE_SVG;
	o.title = title.ptr;
	o.flags = c->flip ? XQ_DIAGRAM_FLIP : 0;
	o.labels = c->labels;
	o.last = last;
	rc = xq_buf_error(&title) ? XQ_ENOMEM : xq_position_diagram(p, &o, &svg, &len);
	xq_buf_release(&title);
	if (rc) {
		cmd_error("out of memory drawing ply %u", ply);
		c->rep.io_error = 1;
		return XQ_ENOMEM;
	}
	if (c->svg_dir)
		snprintf(path, sizeof(path), "%s%03u.svg", c->svg, ply);
	else
		snprintf(path, sizeof(path), "%s", c->svg);
	/* Under DIR/ the names are known in advance: never a planted link or
	 * special file (xqkit(1), OUTPUT FILES).  A name taken is the user's
	 * to settle (exit status 2), as a file that exists is for --svg FILE. */
	flags = (c->force ? XQ_WRITE_FORCE : 0) | (c->svg_dir ? XQ_WRITE_NO_LINKS : 0);
	if ((rc = xq_file_check(path, flags, report_keep_message, &m)) < 0)
		taken = 1;
	else if ((rc = xq_file_open(&out, path, flags, report_keep_message, &m)) == 0 &&
		 xq_file_write(out, svg, len)) {
		xq_file_abort(out);
		snprintf(m.msg, sizeof(m.msg), "cannot write '%.200s'", path);
		rc = XQ_EIO;
	} else if (!rc) {
		rc = xq_file_commit(out, report_keep_message, &m);
		taken = rc == XQ_EIO && strstr(m.msg, "already exists");
	}
	xq_free(svg);
	if (rc) {
		cmd_error("%s", m.msg);
		if (taken)
			c->refused = 1;
		else
			c->rep.io_error = 1;
	} else {
		c->svg_written++;
	}
	return rc;
}

/* The move number of a FEN (its last field). */
static unsigned fen_fullmove(const char *fen)
{
	const char *sp = strrchr(fen, ' ');

	return sp ? (unsigned)strtoul(sp + 1, NULL, 10) : 1;
}

/* Replay one game's main line. */
static void replay_game(struct rctx *c, xq_record *r)
{
	xq_position *p = c->pos;
	uint32_t n = xq_record_node_child(r, XQ_ROOT_NODE), ply = 0;
	xq_move_code last = 0;
	char move[XQ_MOVE_TEXT_SIZE] = "", fen[XQ_FEN_SIZE];
	int to_stdout = !c->svg || strcmp(c->svg, "-");
	xq_rules_line *rules = NULL;
	struct xq_buf mark = XQ_BUF_INIT, after = XQ_BUF_INIT;
	const char *result;

	if (c->in.rules_on && n != XQ_NO_NODE && xq_record_rules_line(r, c->in.ruleset, &rules) != 0)
		rules = NULL;
	xq_record_node_position(r, XQ_ROOT_NODE, p);
	xq_position_fen(p, fen, sizeof(fen));
	if (to_stdout && c->fmt == REPORT_TEXT)
		header(c, r);
	else if (to_stdout)
		ply_json(c, r, XQ_ROOT_NODE, 0, 0, 0, "", "", fen, "");
	if (to_stdout && c->each && c->fmt == REPORT_TEXT && c->ply != 0)
		draw(c, p, 0);
	if (c->svg_dir && write_svg(c, r, p, 0, 0, ""))
		c->svg = NULL; /* stop at the first file that cannot be written */
	while (n != XQ_NO_NODE && (c->ply < 0 || ply < (uint32_t)c->ply) && !cmd_signal) {
		xq_move_code m = xq_record_node_move(r, n);
		unsigned fullmove = fen_fullmove(fen);
		int side = xq_position_side(p);
		uint32_t next = xq_record_node_child(r, n);
		char iccs[XQ_MOVE_TEXT_SIZE];
		xq_position_move_text(p, m, XQ_DIALECT_ICCS, 0, iccs, sizeof(iccs));
		if (!xq_position_move_text(p, m, c->notation.notation, c->notation.flags, move, sizeof(move))) {
			const char *text = xq_record_node_source_text(r, n);
			snprintf(move, sizeof(move), "%s", text ? text : iccs);
		}
		/* The record's moves are legal: the position after node `n`
		 * is the one before it with the move made (the record keeps
		 * it, so walking a line costs one move a ply). */
		xq_record_node_position(r, n, p);
		xq_position_fen(p, fen, sizeof(fen));
		ply++;
		last = m;
		if (rules)
			rules_at(c, rules, ply, &mark, &after);
		if (to_stdout && c->fmt == REPORT_TEXT) {
			ply_text(c, r, n, ply, side, fullmove, move, iccs, fen, mark.ptr);
			add_indented(&c->out, after.ptr);
			if (c->each && (next != XQ_NO_NODE && (c->ply < 0 || ply < (uint32_t)c->ply)))
				draw(c, p, last);
		} else if (to_stdout) {
			ply_json(c, r, n, ply, side, fullmove, move, iccs, fen, mark.ptr);
		}
		n = next;
		report_flush_out(&c->out);
		if (c->svg_dir && c->svg && write_svg(c, r, p, last, ply, move))
			c->svg = NULL;
	}
	if (c->ply > 0 && ply < (uint32_t)c->ply)
		diag_report_record_error(&c->rep, c->name, r,
					 "its main line has %u pl%s; --ply %ld is past its end", ply,
					 ply == 1 ? "y" : "ies", c->ply);
	if (to_stdout && c->fmt == REPORT_TEXT) {
		draw(c, p, last);
		result = xq_record_result_text(r);
		if (n == XQ_NO_NODE)
			xq_buf_addf(&c->out, "result: %s%s\n\n", result ? result : xq_record_result(r),
				    xq_record_is_broken(r) ? " (the record breaks off at an error)" : "");
		else
			xq_buf_addc(&c->out, '\n');
	}
	report_flush_out(&c->out);
	xq_rules_line_free(rules);
	xq_buf_release(&mark);
	xq_buf_release(&after);
	if (c->svg && !c->svg_dir && !cmd_signal)
		write_svg(c, r, p, last, ply, move);
}

static int parse_board(const char *v, enum board_style *out)
{
	if (!strcmp(v, "ascii"))
		*out = BOARD_ASCII;
	else if (!strcmp(v, "unicode"))
		*out = BOARD_UNICODE;
	else if (!strcmp(v, "none"))
		*out = BOARD_NONE;
	else
		return -1;
	return 0;
}

/* Output thread: each game in input order, replayed. */
static int replay_emit(void *ctx, xq_batch_job *j)
{
	struct rctx *c = ctx;

	c->name = j->file->name;
	if (j->kind == XQ_BATCH_GAME && c->game && xq_record_number(j->record) != (uint64_t)c->game) {
		xq_diagnostics_truncate(j->diags, 0); /* a game not asked for */
		return cmd_signal ? 1 : 0;
	}
	reporter_job(&c->rep, j, NULL);
	reporter_flush(&c->rep);
	if (j->kind == XQ_BATCH_GAME) {
		replay_game(c, j->record);
	} else if (c->game && !j->file->foreign && j->file->status == XQ_BATCH_FILE_OK && j->file->games &&
		   j->file->games < (uint64_t)c->game) {
		cmd_error("'%s' has %llu game%s; there is no game %ld", j->file->name,
			  (unsigned long long)j->file->games, j->file->games == 1 ? "" : "s", c->game);
		c->problems = 1;
	}
	reporter_flush(&c->rep);
	return cmd_signal ? 1 : 0;
}

/* One option of replay's own: 0, or -1 with the message in p->err. */
static int take_option(void *ctx, struct opt_parser *p, int id, const char *value)
{
	struct rctx *c = ctx;

	switch (id) {
	case O_PLY: return (c->ply = opt_int(p, "--ply", value, 0, 100000)) < 0 ? -1 : 0;
	case O_GAME: return (c->game = opt_int(p, "--game", value, 1, 1000000000)) < 0 ? -1 : 0;
	case O_NOTATION:
		if (!movetext_parse(value, &c->notation))
			return 0;
		return opt_error(p, "--notation must be one of " MOVETEXT_NAMES ", not '%s'",
				 value);
	case O_BOARD:
		c->board_set = 1;
		if (!parse_board(value, &c->board))
			return 0;
		return opt_error(p, "--board must be ascii, unicode or none, not '%s'", value);
	case O_OUTPUT_FORMAT:
		c->fmt_set = 1;
		if (!report_format_parse(value, &c->fmt, p->err, sizeof(p->err)))
			return 0;
		return opt_error(p, "--output-format must be text or ndjson, not '%s'", value);
	case O_EACH: c->each = 1; break;
	case O_FLIP: c->flip = 1; break;
	case O_SVG: c->svg = value; break;
	case O_LABELS: {
		static const char *const names[] = {"iccs", "chinese", "none", NULL};
		int i = opt_choice(p, "--labels", value, names);
		if (i < 0)
			return -1;
		c->labels = i == 0 ? XQ_DIAGRAM_LABELS_ICCS : i == 1 ? XQ_DIAGRAM_LABELS_CHINESE
								     : XQ_DIAGRAM_LABELS_NONE;
		break;
	}
	case O_FORCE: c->force = 1; break;
	}
	return 0;
}

/* What the options say together: 0, or -1 with the message in p->err. */
static int check_args(void *ctx, struct opt_parser *p)
{
	struct rctx *c = ctx;

	if (input_opts_check(&c->in, p))
		return -1;
	if (!c->fmt_set)
		c->fmt = c->in.fmt; /* --format ndjson alone: everything as NDJSON */
	if (c->fmt == REPORT_TEXT && c->in.fmt == REPORT_NDJSON)
		return opt_error(p, "--format ndjson writes diagnostics to standard output: the plies must be ndjson too");
	if (c->svg && !strcmp(c->svg, "-") && c->fmt == REPORT_NDJSON)
		return opt_error(p, "--svg - and --output-format ndjson both want standard output");
	if (c->svg && (p->noperands > 1 || c->in.recursive || c->in.files0))
		return opt_error(p, "--svg draws one game: give one INPUT");
	if (!c->board_set)
		c->board = isatty(1) && c->fmt == REPORT_TEXT ? BOARD_UNICODE : BOARD_NONE;
	c->color = report_use_color(&c->in, 1);
	if (c->svg && !c->game)
		c->game = 1; /* a diagram is of one game */
	c->svg_dir = c->svg && *c->svg && c->svg[strlen(c->svg) - 1] == '/';
	return 0;
}

static const struct input_command command = {"replay", options, usage, summary, take_option,
					     check_args};

/* The SVG file is never an input, and is refused as every output is:
 * 0, or -1 with the message in p->err. */
static int check_svg(struct rctx *c, struct inputs *inputs, struct opt_parser *p)
{
	struct report_message m = {""};

	if (!c->svg || !strcmp(c->svg, "-"))
		return 0;
	if (c->svg_dir) {
		/* The folder is made if it is missing; each file in it is
		 * refused as any output is (xq_file_open, without --force). */
		char dir[4096];
		snprintf(dir, sizeof(dir), "%s", c->svg);
		dir[strlen(dir) - 1] = '\0';
		if (*dir && mkdir(dir, 0777) != 0 && errno != EEXIST) {
			opt_error(p, "cannot make the folder '%.160s': %s", dir,
				  strerror(errno));
			p->status = CMD_EXIT_IO;
			return -1;
		}
		return 0;
	}
	if (inputs_guard(inputs, c->svg, report_keep_message, &m) ||
	    xq_file_check(c->svg, c->force ? XQ_WRITE_FORCE : 0, report_keep_message, &m) < 0)
		return opt_error(p, "%s", m.msg);
	return 0;
}

static int verdict(const struct rctx *c)
{
	if (cmd_signal) {
		if (c->svg_dir)
			cmd_error("interrupted: %lu SVG file%s kept in '%s'", c->svg_written,
				  c->svg_written == 1 ? "" : "s", c->svg);
		else
			cmd_error("interrupted%s",
				  c->svg && strcmp(c->svg, "-") ? ": no SVG file was written" : "");
		return cmd_signal_status();
	}
	if (c->rep.io_error)
		return CMD_EXIT_IO;
	if (c->refused)
		return CMD_EXIT_USAGE;
	/* A warning makes replay fail as an error does. */
	return reporter_status(&c->rep, c->problems + c->rep.counts.by_sev[XQ_SEVERITY_WARNING]);
}

int cmd_replay(int argc, char **argv)
{
	struct opt_parser p;
	struct rctx c;
	struct inputs inputs;
	xq_batch_config cfg = {.emit = replay_emit, .ctx = &c};
	int rc;

	memset(&c, 0, sizeof(c));
	c.ply = -1;
	c.labels = XQ_DIAGRAM_LABELS_ICCS;
	c.notation = movetext_default();
	input_opts_init(&c.in);
	c.in.rules_on = 0; /* replay marks repetitions only when asked */
	xq_buf_init(&c.out);
	if (!(c.pos = xq_position_new())) {
		cmd_error("out of memory reading the options");
		return CMD_EXIT_IO;
	}
	if ((rc = input_opts_command(&c.in, &p, argc, argv, &command, &c)) != OPT_RUN)
		goto out;
	if ((rc = input_opts_begin(&c.in, &c.rep, &inputs, &p)) != 0)
		goto out;
	if (check_svg(&c, &inputs, &p)) {
		progress_stop();
		rc = opt_fail(&p);
	} else {
		if (input_opts_run(&c.in, &inputs, &cfg) == XQ_ENOMEM)
			c.rep.io_error = 1;
		rc = verdict(&c);
	}
	inputs_release(&inputs);
out:
	reporter_release(&c.rep);
	xq_buf_release(&c.out);
	xq_position_free(c.pos);
	opt_release(&p);
	return rc;
}
