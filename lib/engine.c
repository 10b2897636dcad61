/*
 * engine.c: running an external UCI or UCCI engine as a child process.
 *
 * Three layers, bottom up:
 *
 *  - the process: posix_spawn (fork and exec without a shell) with three
 *    pipes created close-on-exec, so an engine started by one thread never
 *    inherits the pipes of another engine (that would keep their EOF from
 *    ever arriving); its own process group; default signal dispositions.
 *    Ending it: `quit`, close its input, wait a moment, then SIGKILL to the
 *    whole group; the exit is first observed with waitid(WNOWAIT) so the
 *    group is killed while the leader's pid cannot have been reused, then
 *    the leader is reaped with waitpid on its own pid.
 *  - the conversation: lines written with poll() and a deadline (a pipe
 *    the engine does not read would otherwise block us forever), SIGPIPE
 *    blocked in this thread around the write; lines read with poll() in
 *    slices of at most 50 ms, between which the stop flag is checked and
 *    the child is checked for an exit (an engine whose stdout is still held
 *    open by a grandchild never gives EOF); the engine's stderr is drained
 *    alongside and its last line kept for messages.
 *  - the protocol: handshake (with the uci-then-ucci fallback), options,
 *    `position`, `isready`, `go`, reading `info` lines and `bestmove`, and
 *    checking the answer against the rules core.
 *
 * The protocols' text is in engine_text.c (pure, no process, so
 * xqi_engine_parse_line() can be fuzzed), the process and the conversation
 * in engine_proc.c (with the clock and the words for what an engine did
 * wrong), the object, handshake and analysis here; each file calls only
 * those below it.
 */
#include "engine_int.h"

/* ---- the engine object --------------------------------------------------- */


void xqi_eng_clear_listed(struct xqi_engine *e)
{
	for (size_t i = 0; i < e->nlisted; i++)
		free(e->listed[i]);
	e->nlisted = 0;
}

int xqi_eng_add_listed(struct xqi_engine *e, const char *s, size_t n)
{
	char *c;

	if (XQ_ALLOC_GROW(e->listed, e->nlisted + 1, e->listed_alloc))
		return XQ_ENOMEM;
	c = malloc(n + 1);
	if (!c)
		return XQ_ENOMEM;
	memcpy(c, s, n);
	c[n] = '\0';
	e->listed[e->nlisted++] = c;
	return 0;
}

/* The option name as the engine lists it (case-insensitive match), or NULL. */
const char *xqi_eng_listed_option(const struct xqi_engine *e, const char *name)
{
	for (size_t i = 0; i < e->nlisted; i++)
		if (xq_ascii_ieq(e->listed[i], name))
			return e->listed[i];
	return NULL;
}

int xqi_eng_user_sets(const struct xqi_engine *e, const char *name)
{
	for (size_t i = 0; i < e->noptions; i++)
		if (xq_ascii_ieq(e->options[i].name, name))
			return 1;
	return 0;
}

/* ---- handshake ------------------------------------------------------------ */

enum { HS_OK, HS_FAILED, HS_OTHER_PROTOCOL };

/*
 * Start the process and shake hands in `proto`.  HS_OK; HS_FAILED with `d`
 * filled (and the process reaped); HS_OTHER_PROTOCOL when a UCI handshake
 * was answered with `ucciok`.
 */
static int handshake(struct xqi_engine *e, enum xqi_protocol proto, struct xq_diagnostic *d, int *spawn_failed)
{
	int64_t deadline;
	const char *hello = proto == XQI_PROTOCOL_UCCI ? "ucci" : "uci";

	*spawn_failed = 0;
	xqi_eng_clear_listed(e);
	e->has_variant = e->variant_has_xiangqi = 0;
	e->proto = proto;
	if (xqi_eng_spawn(e, d)) {
		*spawn_failed = 1;
		return HS_FAILED;
	}
	if (xqi_eng_send_line(e, d, "%s", hello))
		return HS_FAILED;
	deadline = xqi_eng_now_ms() + e->timeout_ms;
	for (;;) {
		const char *line;
		size_t len;
		struct xqi_engine_line l;

		if (xqi_eng_next_line(e, d, deadline, hello, NULL, &l, &line, &len))
			return HS_FAILED;
		switch (l.kind) {
		case XQI_LINE_ID_NAME:
			if (l.text_len) {
				size_t n = l.text_len < sizeof(e->name) - 1 ? l.text_len : sizeof(e->name) - 1;
				memcpy(e->name, l.text, n);
				e->name[n] = '\0';
			}
			break;
		case XQI_LINE_OPTION:
			if (xqi_eng_add_listed(e, l.text, l.text_len))
				return xqi_diagnostic_set(d, XQ_ENOMEM, XQI_D_RESOURCE, XQ_SEVERITY_ERROR,
						   "out of memory"), HS_FAILED;
			if (l.text_len == 11 && !memcmp(l.text, "UCI_Variant", 11)) {
				e->has_variant = 1;
				e->variant_has_xiangqi = l.has_xiangqi;
			}
			break;
		case XQI_LINE_UCIOK:
			if (proto == XQI_PROTOCOL_UCI)
				return HS_OK;
			break;
		case XQI_LINE_UCCIOK:
			if (proto == XQI_PROTOCOL_UCCI)
				return HS_OK;
			return HS_OTHER_PROTOCOL;
		default:
			break; /* banners and the like before the handshake ends */
		}
	}
}

int xqi_eng_wait_ready(struct xqi_engine *e, struct xq_diagnostic *d, const char *after)
{
	int64_t deadline;

	/* The engine may already have died of the last command (Pikafish exits on
	 * a FEN it rejects): then the write fails, and the message must still
	 * say after what. */
	if (xqi_eng_send_line_when(e, d, after, "isready"))
		return XQ_EENGINE;
	deadline = xqi_eng_now_ms() + e->timeout_ms;
	for (;;) {
		const char *line;
		size_t len;
		struct xqi_engine_line l;

		if (xqi_eng_next_line(e, d, deadline, "isready", after, &l, &line, &len))
			return XQ_EENGINE;
		if (l.kind == XQI_LINE_READYOK)
			return 0;
		if (l.kind == XQI_LINE_GARBAGE)
			xqi_eng_count_garbage(e, line, len);
	}
}

static int set_option(struct xqi_engine *e, struct xq_diagnostic *d, const char *name, const char *value)
{
	if (e->proto == XQI_PROTOCOL_UCCI)
		return value && *value ? xqi_eng_send_line(e, d, "setoption %s %s", name, value)
				       : xqi_eng_send_line(e, d, "setoption %s", name);
	return value && *value ? xqi_eng_send_line(e, d, "setoption name %s value %s", name, value)
			       : xqi_eng_send_line(e, d, "setoption name %s", name);
}

/* After the handshake: variant, options, how to clear the hash, isready. */
static int configure(struct xqi_engine *e, struct xq_diagnostic *d)
{
	const char *n;

	if (e->proto == XQI_PROTOCOL_UCI && e->has_variant) {
		if (!e->variant_has_xiangqi) {
			xqi_eng_reap(e);
			return xqi_eng_error(e, d, "does not list xiangqi among its variants");
		}
		if (set_option(e, d, "UCI_Variant", "xiangqi"))
			return XQ_EENGINE;
	}
	if (e->proto == XQI_PROTOCOL_UCCI)
		e->rank_base = 0;
	else if (e->want_ranks == XQI_RANKS_AUTO)
		e->rank_base = e->has_variant ? 1 : 0;
	else
		e->rank_base = e->want_ranks == XQI_RANKS_1;
	/* Deterministic analysis: one thread, no contempt. */
	if (!xqi_eng_user_sets(e, "Threads") && (n = xqi_eng_listed_option(e, "Threads")) && set_option(e, d, n, "1"))
		return XQ_EENGINE;
	if (!xqi_eng_user_sets(e, "Contempt") && (n = xqi_eng_listed_option(e, "Contempt")) &&
	    set_option(e, d, n, "0"))
		return XQ_EENGINE;
	for (size_t i = 0; i < e->noptions; i++) {
		if (!xqi_eng_listed_option(e, e->options[i].name))
			xqi_eng_warn(e, "does not list the option '%s'; sent anyway", e->options[i].name);
		if (set_option(e, d, e->options[i].name, e->options[i].value))
			return XQ_EENGINE;
	}
	e->newgame_cmd[0] = '\0';
	if (e->proto == XQI_PROTOCOL_UCI)
		snprintf(e->newgame_cmd, sizeof(e->newgame_cmd), "ucinewgame");
	else if ((n = xqi_eng_listed_option(e, "newgame")) || (n = xqi_eng_listed_option(e, "Clear_Hash")) ||
		 (n = xqi_eng_listed_option(e, "Clear Hash")) || (n = xqi_eng_listed_option(e, "clearhash")))
		snprintf(e->newgame_cmd, sizeof(e->newgame_cmd), "setoption %s", n);
	return xqi_eng_wait_ready(e, d, "after the options were set");
}

static int start(struct xqi_engine *e, struct xq_diagnostic *d)
{
	struct xq_diagnostic first;
	int r, spawn_failed;
	enum xqi_protocol p = e->proto != XQI_PROTOCOL_AUTO ? e->proto : e->want_proto;

	e->stop_sent = 0;
	if (p != XQI_PROTOCOL_AUTO) {
		r = handshake(e, p, d, &spawn_failed);
		if (r == HS_OTHER_PROTOCOL) {
			xqi_eng_reap(e);
			return xqi_eng_error(e, d, "answered 'uci' with 'ucciok'; use the ucci protocol");
		}
		if (r != HS_OK)
			return XQ_EENGINE;
		return configure(e, d);
	}
	xqi_diagnostic_init(&first);
	r = handshake(e, XQI_PROTOCOL_UCI, &first, &spawn_failed);
	if (r == HS_OK)
		return configure(e, d);
	if (spawn_failed) {
		if (d)
			*d = first;
		return XQ_EENGINE;
	}
	/* Not UCI (it exited, said nothing, or said ucciok): start it again with ucci. */
	xqi_eng_reap(e);
	if (handshake(e, XQI_PROTOCOL_UCCI, d, &spawn_failed) != HS_OK) {
		if (d) {
			char second[XQ_MESSAGE_SIZE];
			snprintf(second, sizeof(second), "%s", d->msg);
			xqi_eng_error(e, d, "answered neither 'uci' nor 'ucci' (uci: %.100s; ucci: %.100s)",
				     first.msg, second);
		}
		e->proto = XQI_PROTOCOL_AUTO;
		return XQ_EENGINE;
	}
	return configure(e, d);
}

void xqi_engine_stop(struct xqi_engine *e)
{
	if (!e || e->pid < 0)
		return;
	if (e->to_fd >= 0) {
		struct xq_diagnostic ignore;
		xqi_diagnostic_init(&ignore);
		xqi_eng_send_line(e, &ignore, "quit");
	}
	xqi_eng_close_fd(&e->to_fd);
	if (e->pid >= 0) {
		uint32_t grace = e->timeout_ms < QUIT_GRACE_MS ? e->timeout_ms : QUIT_GRACE_MS;
		if (e->stop && atomic_load_explicit(e->stop, memory_order_relaxed) && grace > STOP_GRACE_MS)
			grace = STOP_GRACE_MS;
		xqi_eng_finish(e, grace);
	}
}

int xqi_engine_restart(struct xqi_engine *e, struct xq_diagnostic *d)
{
	xqi_engine_stop(e);
	return start(e, d);
}

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *c = malloc(n);
	if (c)
		memcpy(c, s, n);
	return c;
}

void xqi_engine_free(struct xqi_engine *e)
{
	if (!e)
		return;
	xqi_engine_stop(e);
	xqi_eng_reap(e);
	xqi_eng_clear_listed(e);
	free(e->listed);
	for (size_t i = 0; i < e->noptions; i++) {
		free((char *)e->options[i].name);
		free((char *)e->options[i].value);
	}
	free(e->options);
	if (e->argv)
		for (size_t i = 0; e->argv[i]; i++)
			free(e->argv[i]);
	free(e->argv);
	free(e->path);
	xq_buf_release(&e->in);
	free(e);
}

int xqi_engine_new(struct xqi_engine **out, const struct xqi_engine_opts *o, struct xq_diagnostic *d)
{
	struct xqi_engine *e;
	size_t nargs = 0;
	const char *base;

	*out = NULL;
	if (!o || !o->path || !*o->path)
		return xqi_diagnostic_set(d, XQ_ERANGE, XQI_D_ENGINE, XQ_SEVERITY_ERROR, "no engine program given");
	for (size_t i = 0; i < o->noptions; i++)
		if (!o->options[i].name || !*o->options[i].name || xqi_eng_has_control(o->options[i].name) ||
		    (o->options[i].value && xqi_eng_has_control(o->options[i].value)))
			return xqi_diagnostic_set(d, XQ_ERANGE, XQI_D_ENGINE, XQ_SEVERITY_ERROR,
					   "engine option %zu has an empty name or a control character",
					   i + 1);
	e = calloc(1, sizeof(*e));
	if (!e)
		return xqi_diagnostic_set(d, XQ_ENOMEM, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "out of memory");
	e->pid = -1;
	e->to_fd = e->from_fd = e->err_fd = -1;
	xq_buf_init(&e->in);
	e->want_proto = o->protocol;
	e->want_ranks = o->rank_base;
	e->timeout_ms = o->timeout_ms ? o->timeout_ms : DEFAULT_TIMEOUT_MS;
	e->search_timeout_ms = o->search_timeout_ms ? o->search_timeout_ms : DEFAULT_SEARCH_TIMEOUT_MS;
	e->fen_flags = o->fen_flags;
	e->keep_hash = o->keep_hash;
	e->stop = o->stop;
	e->warnings = o->warnings;
	e->path = dup_str(o->path);
	while (o->args && o->args[nargs])
		nargs++;
	e->argv = calloc(nargs + 2, sizeof(*e->argv));
	e->options = calloc(o->noptions + 1, sizeof(*e->options));
	if (!e->path || !e->argv || !e->options)
		goto nomem;
	e->argv[0] = dup_str(o->path);
	if (!e->argv[0])
		goto nomem;
	for (size_t i = 0; i < nargs; i++)
		if (!(e->argv[i + 1] = dup_str(o->args[i])))
			goto nomem;
	for (size_t i = 0; i < o->noptions; i++) {
		e->options[i].name = dup_str(o->options[i].name);
		e->options[i].value = dup_str(o->options[i].value ? o->options[i].value : "");
		e->noptions = i + 1;
		if (!e->options[i].name || !e->options[i].value)
			goto nomem;
	}
	base = strrchr(o->path, '/');
	snprintf(e->name, sizeof(e->name), "%s", base ? base + 1 : o->path);
	*out = e;
	return start(e, d);
nomem:
	xqi_engine_free(e);
	return xqi_diagnostic_set(d, XQ_ENOMEM, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "out of memory");
}

/* ---- analysis ------------------------------------------------------------- */

static int go_command(struct xqi_engine *e, struct xq_diagnostic *d, const struct xqi_limit *lim,
		      int *emulate_movetime)
{
	struct xq_buf b = XQ_BUF_INIT;
	int rc = xqi_engine_go_text(&b, e->proto, lim, emulate_movetime);

	if (rc)
		rc = xqi_diagnostic_set(d, rc, XQI_D_RESOURCE, XQ_SEVERITY_ERROR,
				 "out of memory: the search command was not sent");
	else
		rc = xqi_eng_send_line(e, d, "%s", b.ptr);
	xq_buf_release(&b);
	return rc;
}

/* Keep only the part of the engine's PV that is legal from `now`. */
static void check_pv(struct xqi_engine *e, struct xqi_analysis *out, const struct xqi_position *now,
		     const xqi_move *pv, size_t n)
{
	struct xqi_position b = *now;

	out->pv_len = 0;
	for (size_t i = 0; i < n && i < XQI_PV_MAX; i++) {
		struct xqi_undo u;
		if (!xqi_move_is_legal(&b, pv[i])) {
			char t[7];
			xqi_engine_move_text(pv[i], e->rank_base, t);
			xqi_eng_warn(e, "gave a principal variation with an illegal move '%s' at ply %zu; cut there",
			     t, i + 1);
			break;
		}
		out->pv[out->pv_len++] = pv[i];
		xqi_position_make(&b, pv[i], &u);
	}
}

/*
 * Send the position of `start` after `moves`: the one after the last
 * capture as a FEN, and the moves since (so an engine's repetition rules
 * see them), then wait until the engine is ready.  0, or an error said in
 * `d`.
 */
static int send_position(struct xqi_engine *e, const struct xqi_position *start,
			 const xqi_move *moves, size_t nmoves, struct xq_diagnostic *d)
{
	struct xqi_position base = *start, b = *start;
	struct xq_buf cmd = XQ_BUF_INIT;
	char fen[XQ_FEN_SIZE];
	size_t first = 0;
	int rc;

	for (size_t i = 0; i < nmoves; i++) {
		struct xqi_undo u;
		int capture = b.sq[XQI_MOVE_TO(moves[i])] != 0;
		xqi_position_make(&b, moves[i], &u);
		if (capture) {
			first = i + 1;
			base = b;
		}
	}
	rc = xqi_position_validate(&base, e->fen_flags, d);
	if (rc) {
		if (d) {
			char msg[XQ_MESSAGE_SIZE];
			snprintf(msg, sizeof(msg), "%s", d->msg);
			xqi_diagnostic_set(d, rc, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
				    "position not sent to engine '%s': %s", e->name, msg);
		}
		return rc;
	}
	if (base.halfmove > 100)
		base.halfmove = 100; /* Pikafish exits on a clock above 119 */
	xqi_position_to_fen(&base, fen, sizeof(fen));

	xqi_eng_drain_pending(e);
	if (e->pid < 0)
		return xqi_eng_died(e, d, "while idle");
	if (!e->keep_hash && e->newgame_cmd[0] && xqi_eng_send_line(e, d, "%s", e->newgame_cmd))
		return XQ_EENGINE;
	if (xq_buf_addf(&cmd, "position fen %s", fen) ||
	    (nmoves > first && (xq_buf_adds(&cmd, " moves") ||
				xqi_eng_add_moves(&cmd, moves + first, nmoves - first, e->rank_base)))) {
		xq_buf_release(&cmd);
		return xqi_diagnostic_set(d, XQ_ENOMEM, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "out of memory");
	}
	rc = xqi_eng_send_line(e, d, "%s", cmd.ptr);
	xq_buf_release(&cmd);
	if (rc)
		return rc;
	return xqi_eng_wait_ready(e, d, "after the position was sent (did it reject the position?)");
}

/* What one search is hearing: the latest main-line score and its line. */
struct heard {
	xqi_move pv[XQI_PV_MAX];
	size_t pv_len;
	int have_score;
};

/* An `info` line of the main line (not multipv > 1, not a string). */
static void take_info(struct xqi_analysis *out, struct heard *h, const struct xqi_engine_line *l)
{
	if (l->has_score) {
		out->score = l->score;
		h->have_score = 1;
		if (l->bound)
			out->flags |= XQI_ANALYSIS_BOUND;
		else
			out->flags &= ~(unsigned)XQI_ANALYSIS_BOUND;
		if (l->depth >= 0)
			out->depth = l->depth;
		if (l->pv_len) {
			memcpy(h->pv, l->pv, l->pv_len * sizeof(h->pv[0]));
			h->pv_len = l->pv_len;
		}
	}
	if (l->seldepth >= 0)
		out->seldepth = l->seldepth;
	if (l->nodes)
		out->nodes = l->nodes;
	if (l->time_ms >= 0)
		out->time_ms = (uint32_t)(l->time_ms > UINT32_MAX ? UINT32_MAX : l->time_ms);
}

/*
 * The `bestmove` line `l` (text `line`, `len` bytes) that ends a search of
 * `now` (`nlegal` legal moves) started at `t0`: checked and taken into
 * `out`.  0, or the engine's error said in `d`.
 */
static int take_bestmove(struct xqi_engine *e, struct xqi_analysis *out, const struct xqi_position *now,
			 int nlegal, const struct heard *h, const struct xqi_engine_line *l,
			 const char *line, size_t len, int64_t t0, struct xq_diagnostic *d)
{
	struct xqi_position tmp = *now;
	char fen[XQ_FEN_SIZE];

	if (!out->time_ms) {
		int64_t took = xqi_eng_now_ms() - t0;
		out->time_ms = (uint32_t)(took < 0 ? 0 : took);
	}
	if (l->bad_move) {
		char text[100];
		xqi_eng_printable(text, sizeof(text), line, len);
		return xqi_eng_error(e, d, "sent a malformed best move: '%s'", text);
	}
	/* A lie is told about the position searched, not the one sent
	 * (the last capture, before the moves since). */
	if (!l->move) {
		xqi_position_to_fen(now, fen, sizeof(fen));
		return xqi_eng_error(e, d, "lied: it said there is no move, but %d legal moves exist in %s",
				    nlegal, fen);
	}
	if (!xqi_move_is_legal(&tmp, l->move)) {
		char t[7], iccs[5];
		xqi_position_to_fen(now, fen, sizeof(fen));
		xqi_engine_move_text(l->move, e->rank_base, t);
		xqi_move_name(l->move, iccs);
		return xqi_eng_error(e, d, "lied: its best move '%s' (%s) is not legal in %s", t, iccs,
				    fen);
	}
	if (!h->have_score)
		return xqi_eng_error(e, d, "gave a best move but no score");
	out->best = l->move;
	if (h->pv_len && h->pv[0] == l->move)
		check_pv(e, out, now, h->pv, h->pv_len);
	else
		check_pv(e, out, now, &l->move, 1);
	return 0;
}

static int engine_analyse(void *impl, struct xqi_analysis *out, const struct xqi_position *start,
			  const xqi_move *moves, size_t nmoves, const struct xqi_position *now,
			  const struct xqi_limit *limit, struct xq_diagnostic *d)
{
	struct xqi_engine *e = impl;
	struct xqi_position tmp = *now;
	xqi_move legal[XQ_MOVES_MAX];
	struct heard h;
	int rc, emulate, stopped = 0, nlegal;
	int64_t t0, deadline, movetime_end = 0;
	uint32_t budget;

	h.pv_len = 0;
	h.have_score = 0;
	e->cur_game = d ? d->game : 0;
	e->cur_ply = d ? d->ply : 0;
	out->side = now->side;
	nlegal = xqi_gen_legal(&tmp, legal);
	if (nlegal == 0) {
		out->score.kind = XQ_EVAL_MATED;
		out->score.value = 0;
		out->flags |= XQI_ANALYSIS_NO_MOVES;
		return 0;
	}
	if (e->pid < 0)
		return xqi_eng_error(e, d, "is not running (%s); restart it",
				    e->status[0] ? e->status : "not started");
	if ((rc = send_position(e, start, moves, nmoves, d)))
		return rc;

	e->stop_sent = 0;
	if ((rc = go_command(e, d, limit, &emulate)))
		return rc == XQ_ENOMEM ? rc : XQ_EENGINE;
	t0 = xqi_eng_now_ms();
	budget = limit->movetime_ms ? limit->movetime_ms + e->timeout_ms : e->search_timeout_ms;
	deadline = t0 + budget;
	if (emulate)
		movetime_end = t0 + limit->movetime_ms;

	for (;;) {
		const char *line;
		size_t len;
		struct xqi_engine_line l;
		int64_t wait_until = movetime_end && !e->stop_sent && movetime_end < deadline
					     ? movetime_end
					     : deadline;
		int r = xqi_eng_read_line(e, wait_until, 1, &line, &len);

		if (r == LINE_STOP || (r == LINE_TIMEOUT && wait_until == movetime_end && !e->stop_sent &&
				       movetime_end)) {
			if (r == LINE_STOP)
				stopped = 1;
			if (xqi_eng_send_line(e, d, "stop"))
				return XQ_EENGINE;
			e->stop_sent = 1;
			if (stopped && deadline > xqi_eng_now_ms() + STOP_GRACE_MS)
				deadline = xqi_eng_now_ms() + STOP_GRACE_MS;
			continue;
		}
		if (r == LINE_TIMEOUT)
			return xqi_eng_hung(e, d, stopped ? "'stop'" : "'go' (the search)",
				    stopped ? STOP_GRACE_MS : budget);
		if (r != LINE_OK)
			return xqi_eng_died(e, d, "during the search");
		xqi_engine_parse_line(&l, line, len, e->proto, e->rank_base);
		if (l.kind == XQI_LINE_GARBAGE) {
			xqi_eng_count_garbage(e, line, len);
			continue;
		}
		if (l.kind == XQI_LINE_INFO && !l.is_string && l.multipv <= 1) {
			take_info(out, &h, &l);
			continue;
		}
		if (l.kind != XQI_LINE_BESTMOVE)
			continue;
		/* The answer. */
		if ((rc = take_bestmove(e, out, now, nlegal, &h, &l, line, len, t0, d)))
			return rc;
		if (stopped)
			out->flags |= XQI_ANALYSIS_STOPPED;
		return 0;
	}
}

int xqi_engine_analyse(struct xqi_engine *e, struct xqi_analysis *out, const struct xqi_position *start,
		      const xqi_move *moves, size_t nmoves, const struct xqi_limit *limit,
		      struct xq_diagnostic *d)
{
	struct xqi_analyser a;

	xqi_engine_analyser(&a, e);
	return xqi_analyse(&a, out, start, moves, nmoves, limit, d);
}

static int engine_restart(void *impl, struct xq_diagnostic *d)
{
	return xqi_engine_restart(impl, d);
}

static const char *engine_name(const void *impl)
{
	return xqi_engine_name(impl);
}

static const struct xqi_analyser_ops engine_ops = {
	engine_analyse,
	engine_restart,
	engine_name,
};

void xqi_engine_analyser(struct xqi_analyser *a, struct xqi_engine *e)
{
	a->ops = &engine_ops;
	a->impl = e;
}

const char *xqi_engine_name(const struct xqi_engine *e)
{
	return e->name;
}

enum xqi_protocol xqi_engine_protocol(const struct xqi_engine *e)
{
	return e->proto;
}

int xqi_engine_rank_base(const struct xqi_engine *e)
{
	return e->rank_base;
}

long xqi_engine_pid(const struct xqi_engine *e)
{
	return e->pid < 0 ? -1 : (long)e->pid;
}

unsigned long xqi_engine_garbage_count(const struct xqi_engine *e)
{
	return e->garbage;
}

unsigned long xqi_engine_start_count(const struct xqi_engine *e)
{
	return e->starts;
}
