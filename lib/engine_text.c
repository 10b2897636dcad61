/*
 * engine_text.c: the UCI and UCCI protocols' text: names, options,
 * move text, parsing what an engine says, `go` commands; pure, no process (see engine.c
 * for the whole, engine_int.h for what the parts share).
 */
#include "engine_int.h"

/* ---- protocol names and options ------------------------------------------ */

const char *xqi_protocol_name(enum xqi_protocol p)
{
	switch (p) {
	case XQI_PROTOCOL_UCI:
		return "uci";
	case XQI_PROTOCOL_UCCI:
		return "ucci";
	default:
		return "auto";
	}
}

int xqi_protocol_from_name(const char *name)
{
	if (!strcmp(name, "auto"))
		return XQI_PROTOCOL_AUTO;
	if (!strcmp(name, "uci"))
		return XQI_PROTOCOL_UCI;
	if (!strcmp(name, "ucci"))
		return XQI_PROTOCOL_UCCI;
	return -1;
}

int xqi_eng_has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

int xqi_engine_option_parse(struct xqi_engine_option *out, char *buf, size_t cap, const char *text,
			   struct xq_diagnostic *d)
{
	const char *eq = strchr(text, '=');
	size_t len = strlen(text);

	if (!eq || eq == text)
		return xqi_diagnostic_set(d, XQ_EPARSE, XQI_D_SYNTAX, XQ_SEVERITY_ERROR,
				   "engine option '%s' is not NAME=VALUE", text);
	if (xqi_eng_has_control(text))
		return xqi_diagnostic_set(d, XQ_EPARSE, XQI_D_SYNTAX, XQ_SEVERITY_ERROR,
				   "engine option has a control character");
	if (len + 1 > cap)
		return xqi_diagnostic_set(d, XQ_EPARSE, XQI_D_SYNTAX, XQ_SEVERITY_ERROR,
				   "engine option is too long");
	memcpy(buf, text, len + 1);
	buf[eq - text] = '\0';
	out->name = buf;
	out->value = buf + (eq - text) + 1;
	return 0;
}

void xqi_engine_opts_init(struct xqi_engine_opts *o)
{
	memset(o, 0, sizeof(*o));
}

/* ---- move text ------------------------------------------------------------ */

size_t xqi_engine_move_text(xqi_move m, int rank_base, char out[7])
{
	size_t n = 0;
	xqi_sq sq[2] = {XQI_MOVE_FROM(m), XQI_MOVE_TO(m)};

	for (int i = 0; i < 2; i++) {
		int rank = XQI_SQ_RANK(sq[i]) + (rank_base ? 1 : 0);
		out[n++] = (char)('a' + XQI_SQ_FILE(sq[i]));
		if (rank >= 10) {
			out[n++] = '1';
			out[n++] = '0';
		} else {
			out[n++] = (char)('0' + rank);
		}
	}
	out[n] = '\0';
	return n;
}

/* One square: file a-i, then a rank 0-9 (base 0) or 1-10 (base 1). */
static int parse_square(const char **p, const char *end, int rank_base, xqi_sq *out)
{
	const char *s = *p;
	int file, rank;

	if (end - s < 2 || *s < 'a' || *s > 'i')
		return -1;
	file = *s++ - 'a';
	if (!xq_is_digit(*s))
		return -1;
	rank = *s++ - '0';
	if (rank_base) {
		if (rank == 1 && s < end && *s == '0') {
			rank = 10;
			s++;
		}
		if (rank == 0)
			return -1;
		rank--;
	}
	*out = XQI_SQ(file, rank);
	*p = s;
	return 0;
}

static int parse_move(const char *s, size_t len, int rank_base, xqi_move *out)
{
	const char *p = s, *end = s + len;
	xqi_sq from, to;

	if (parse_square(&p, end, rank_base, &from) || parse_square(&p, end, rank_base, &to) ||
	    p != end || from == to)
		return -1;
	*out = XQI_MOVE(from, to);
	return 0;
}

/* ---- parsing engine output ------------------------------------------------ */

struct tok {
	const char *p;
	size_t n;
};

static int next_tok(const char **s, const char *end, struct tok *t)
{
	const char *p = *s;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end)
		return 0;
	t->p = p;
	while (p < end && *p != ' ' && *p != '\t')
		p++;
	t->n = (size_t)(p - t->p);
	*s = p;
	return 1;
}

static int tok_is(const struct tok *t, const char *w)
{
	size_t n = strlen(w);
	return t->n == n && !memcmp(t->p, w, n);
}

static int tok_int(const struct tok *t, int64_t *v)
{
	size_t i = 0;
	int neg = 0;
	int64_t x = 0;

	if (t->n && (t->p[0] == '-' || t->p[0] == '+')) {
		neg = t->p[0] == '-';
		i = 1;
	}
	if (i == t->n || t->n - i > 18)
		return -1;
	for (; i < t->n; i++) {
		if (!xq_is_digit((unsigned char)t->p[i]))
			return -1;
		x = x * 10 + (t->p[i] - '0');
	}
	*v = neg ? -x : x;
	return 0;
}

/* A UCCI bare score: ElephantEye's mate (10000) and ban (9900) scales. */
static struct xqi_score ucci_score(int64_t v)
{
	struct xqi_score s;
	int64_t a = v < 0 ? -v : v;

	if (a > 9800) {
		int64_t plies = a >= 9900 ? 10000 - a : 9900 - a;
		if (plies < 0)
			plies = 0;
		s.kind = v > 0 ? XQ_EVAL_MATE : XQ_EVAL_MATED;
		s.value = (int32_t)(v > 0 ? (plies + 1) / 2 : plies / 2);
		if (v > 0 && s.value == 0)
			s.value = 1;
	} else {
		s.kind = XQ_EVAL_CP;
		s.value = (int32_t)v;
	}
	return s;
}

/* The number after `info`'s keyword `k` (depth, nodes, time, ...), at *p:
 * kept where the line has a place for it.  0, or -1 when it is no number. */
static int info_number(struct xqi_engine_line *out, const struct tok *k, const char **p, const char *end)
{
	struct tok t;
	int64_t v;

	if (!next_tok(p, end, &t) || tok_int(&t, &v) || v < 0)
		return -1;
	if (tok_is(k, "depth"))
		out->depth = v > 1000 ? 1000 : (int)v;
	else if (tok_is(k, "seldepth"))
		out->seldepth = v > 1000 ? 1000 : (int)v;
	else if (tok_is(k, "multipv"))
		out->multipv = v > 1000 ? 1000 : (int)v;
	else if (tok_is(k, "nodes"))
		out->nodes = (uint64_t)v;
	else if (tok_is(k, "time"))
		out->time_ms = v;
	return 0;
}

/* The score after `info ... score` at *p (UCI's `cp N` or `mate N`, UCCI's
 * bare number), and a bound right after it.  0, or -1 when it is none. */
static int info_score(struct xqi_engine_line *out, const char **p, const char *end)
{
	struct tok t;
	int64_t v;
	const char *save;

	if (!next_tok(p, end, &t))
		return -1;
	if (tok_is(&t, "cp") || tok_is(&t, "mate")) {
		int mate = tok_is(&t, "mate");
		if (!next_tok(p, end, &t) || tok_int(&t, &v) || v > 100000000 || v < -100000000)
			return -1;
		if (!mate) {
			out->score.kind = XQ_EVAL_CP;
			out->score.value = (int32_t)v;
		} else if (v > 0) {
			out->score.kind = XQ_EVAL_MATE;
			out->score.value = (int32_t)v;
		} else {
			out->score.kind = XQ_EVAL_MATED;
			out->score.value = (int32_t)-v;
		}
	} else if (!tok_int(&t, &v) && v <= 100000000 && v >= -100000000) {
		out->score = ucci_score(v);
	} else {
		return -1;
	}
	out->has_score = 1;
	/* Optional bound right after the score. */
	save = *p;
	if (next_tok(p, end, &t)) {
		if (tok_is(&t, "lowerbound"))
			out->bound = 1;
		else if (tok_is(&t, "upperbound"))
			out->bound = -1;
		else
			*p = save;
	}
	return 0;
}

/* The moves after `pv`, `refutation` or `currline` at *p, up to the first
 * word that is no move; those of a `pv` (`is_pv`) kept. */
static void info_moves(struct xqi_engine_line *out, int is_pv, const char **p, const char *end,
		       int rank_base)
{
	struct tok t;

	for (;;) {
		const char *save = *p;
		xqi_move m;
		if (!next_tok(p, end, &t))
			break;
		if (parse_move(t.p, t.n, rank_base, &m)) {
			*p = save;
			break;
		}
		if (is_pv && out->pv_len < XQI_PV_MAX)
			out->pv[out->pv_len++] = m;
	}
}

static void parse_info(struct xqi_engine_line *out, const char *p, const char *end, int rank_base)
{
	struct tok t;
	int64_t v;

	while (next_tok(&p, end, &t)) {
		if (tok_is(&t, "string")) {
			out->is_string = 1;
			while (p < end && *p == ' ')
				p++;
			out->text = p;
			out->text_len = (size_t)(end - p);
			return;
		}
		if (tok_is(&t, "depth") || tok_is(&t, "seldepth") || tok_is(&t, "multipv") ||
		    tok_is(&t, "nodes") || tok_is(&t, "time") || tok_is(&t, "nps") ||
		    tok_is(&t, "hashfull") || tok_is(&t, "tbhits") || tok_is(&t, "currmovenumber") ||
		    tok_is(&t, "cpuload") || tok_is(&t, "sbhits")) {
			if (info_number(out, &t, &p, end))
				goto garbage;
			continue;
		}
		if (tok_is(&t, "score")) {
			if (info_score(out, &p, end))
				goto garbage;
			continue;
		}
		if (tok_is(&t, "wdl")) {
			for (int i = 0; i < 3; i++)
				if (!next_tok(&p, end, &t) || tok_int(&t, &v))
					goto garbage;
			continue;
		}
		if (tok_is(&t, "currmove")) {
			xqi_move m;
			if (!next_tok(&p, end, &t) || parse_move(t.p, t.n, rank_base, &m))
				goto garbage;
			continue;
		}
		if (tok_is(&t, "pv") || tok_is(&t, "refutation") || tok_is(&t, "currline")) {
			info_moves(out, tok_is(&t, "pv"), &p, end, rank_base);
			continue;
		}
		/* Unknown keywords are skipped: engines add their own. */
	}
	return;
garbage:
	out->kind = XQI_LINE_GARBAGE;
}

/* An `option` line after its keyword (p..end): its name, and whether a
 * variant it offers is xiangqi. */
static void parse_option(struct xqi_engine_line *out, const char *p, const char *end,
			 enum xqi_protocol proto)
{
	const char *name_start, *name_end;
	struct tok n, t;

	if (!next_tok(&p, end, &n)) {
		out->kind = XQI_LINE_GARBAGE;
		return;
	}
	if (proto != XQI_PROTOCOL_UCCI && tok_is(&n, "name")) {
		/* UCI: the name runs up to the word "type". */
		const char *q = p;
		if (!next_tok(&q, end, &t) || tok_is(&t, "type")) {
			out->kind = XQI_LINE_GARBAGE;
			return;
		}
		name_start = t.p;
		name_end = t.p + t.n;
		p = q;
		while (next_tok(&q, end, &t) && !tok_is(&t, "type")) {
			name_end = t.p + t.n;
			p = q;
		}
	} else {
		name_start = n.p;
		name_end = n.p + n.n;
	}
	out->kind = XQI_LINE_OPTION;
	out->text = name_start;
	out->text_len = (size_t)(name_end - name_start);
	while (next_tok(&p, end, &t))
		if (tok_is(&t, "var")) {
			struct tok v;
			if (next_tok(&p, end, &v) && tok_is(&v, "xiangqi"))
				out->has_xiangqi = 1;
		}
}

void xqi_engine_parse_line(struct xqi_engine_line *out, const char *line, size_t len,
			  enum xqi_protocol proto, int rank_base)
{
	const char *p = line, *end = line + len;
	struct tok t;

	memset(out, 0, sizeof(*out));
	out->depth = out->seldepth = out->multipv = -1;
	out->time_ms = -1;
	out->score.kind = XQ_EVAL_CP;
	while (end > p && (end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (xq_utf8_check(p, (size_t)(end - p)) != (size_t)(end - p)) {
		out->kind = XQI_LINE_GARBAGE;
		return;
	}
	for (const char *q = p; q < end; q++)
		if (((unsigned char)*q < 0x20 && *q != '\t') || *q == 0x7f) {
			out->kind = XQI_LINE_GARBAGE;
			return;
		}
	if (!next_tok(&p, end, &t)) {
		out->kind = XQI_LINE_EMPTY;
		return;
	}
	if (tok_is(&t, "info")) {
		out->kind = XQI_LINE_INFO;
		parse_info(out, p, end, rank_base);
		return;
	}
	if (tok_is(&t, "bestmove")) {
		out->kind = XQI_LINE_BESTMOVE;
		if (!next_tok(&p, end, &t)) {
			out->bad_move = 1;
			return;
		}
		if (tok_is(&t, "(none)") || tok_is(&t, "none") || tok_is(&t, "0000"))
			return;
		if (parse_move(t.p, t.n, rank_base, &out->move))
			out->bad_move = 1;
		return;
	}
	if (tok_is(&t, "nobestmove")) {
		out->kind = XQI_LINE_BESTMOVE;
		return;
	}
	if (tok_is(&t, "readyok") || tok_is(&t, "uciok") || tok_is(&t, "ucciok") ||
	    tok_is(&t, "bye")) {
		out->kind = tok_is(&t, "readyok") ? XQI_LINE_READYOK
			    : tok_is(&t, "uciok") ? XQI_LINE_UCIOK
			    : tok_is(&t, "ucciok") ? XQI_LINE_UCCIOK
						  : XQI_LINE_BYE;
		if (next_tok(&p, end, &t))
			out->kind = XQI_LINE_GARBAGE;
		return;
	}
	if (tok_is(&t, "id")) {
		out->kind = XQI_LINE_ID_OTHER;
		if (next_tok(&p, end, &t) && tok_is(&t, "name")) {
			while (p < end && (*p == ' ' || *p == '\t'))
				p++;
			out->kind = XQI_LINE_ID_NAME;
			out->text = p;
			out->text_len = (size_t)(end - p);
		}
		return;
	}
	if (tok_is(&t, "copyprotection") || tok_is(&t, "registration")) {
		out->kind = XQI_LINE_ID_OTHER;
		return;
	}
	if (tok_is(&t, "option")) {
		parse_option(out, p, end, proto);
		return;
	}
	out->kind = XQI_LINE_GARBAGE;
}


/* Append " m1 m2 ..." in the engine's notation. */
int xqi_eng_add_moves(struct xq_buf *b, const xqi_move *moves, size_t n, int rank_base)
{
	for (size_t i = 0; i < n; i++) {
		char t[7];
		xqi_engine_move_text(moves[i], rank_base, t);
		if (xq_buf_addc(b, ' ') || xq_buf_adds(b, t))
			return XQ_ENOMEM;
	}
	return 0;
}

int xqi_engine_go_text(struct xq_buf *b, enum xqi_protocol proto, const struct xqi_limit *lim,
		      int *emulate_movetime)
{
	/* Appends go on after a failure (adding nothing): the sticky error
	 * is checked once, at the end. */
	*emulate_movetime = 0;
	xq_buf_adds(b, "go");
	if (proto == XQI_PROTOCOL_UCCI) {
		/* UCCI takes one mode; its `time` is a clock (in seconds for
		 * ElephantEye), so a move time is kept by us with `stop`. */
		if (lim->depth > 0)
			xq_buf_addf(b, " depth %d", lim->depth);
		else if (lim->nodes)
			xq_buf_addf(b, " nodes %llu", (unsigned long long)lim->nodes);
		else
			xq_buf_adds(b, " infinite");
		*emulate_movetime = lim->movetime_ms > 0;
	} else {
		if (lim->depth > 0)
			xq_buf_addf(b, " depth %d", lim->depth);
		if (lim->nodes)
			xq_buf_addf(b, " nodes %llu", (unsigned long long)lim->nodes);
		if (lim->movetime_ms)
			xq_buf_addf(b, " movetime %u", (unsigned)lim->movetime_ms);
	}
	return xq_buf_error(b);
}

/* Copy engine text into `out` for a message: printable ASCII only, cut. */
void xqi_eng_printable(char *out, size_t cap, const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len && n + 4 < cap; i++) {
		unsigned char c = (unsigned char)s[i];
		out[n++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	if (n + 4 >= cap && len > n) {
		memcpy(out + n, "...", 3);
		n += 3;
	}
	out[n] = '\0';
}
