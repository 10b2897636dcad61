/*
 * engine.h: the client for external xiangqi engines speaking UCI or UCCI.
 *
 * An engine is a separate program (Fairy-Stockfish, Pikafish,
 * ElephantEye, ...) run as a child process with its standard input and
 * output connected to pipes.  This module starts it without a shell,
 * recognises its dialect, sends positions with their history and reads
 * its analysis, and treats every way an engine can misbehave as an
 * ordinary error: it fails to start, it crashes or exits (Pikafish exits on
 * a FEN it rejects), it hangs past a timeout, it prints lines that mean
 * nothing (ignored, counted and reported as warnings), or it "lies" (a best
 * move that is not legal in the position).  Each of those returns
 * XQ_EENGINE with an XQI_D_ENGINE diagnostic naming the engine and what
 * happened; the engine is then stopped (except after a lie or a malformed
 * answer, where it is still running and in step), and the caller decides
 * whether to call xqi_engine_restart() and go on.
 *
 * Dialects (see engines.md):
 *   - UCI: `uci` ... `uciok`, `setoption name N value V`.  An engine that
 *     lists the UCI_Variant option (Fairy-Stockfish) is switched to
 *     `xiangqi` and writes ranks 1-10 (h3e3); otherwise (Pikafish) ranks
 *     are 0-9 like ICCS (h2e2).  Moves are translated both ways.
 *   - UCCI: `ucci` ... `ucciok`, `setoption N V`, ranks 0-9, bare integer
 *     scores (a mate is close to +-10000, see xqi_engine_parse_line()).
 *   With XQI_PROTOCOL_AUTO the client sends `uci` first and, when the
 *   engine exits, stays silent past the timeout or answers `ucciok`,
 *   starts it again with `ucci` (ElephantEye exits when its first command
 *   is not `ucci`).
 *
 * Limits: `go depth N`, `go nodes N`, `go movetime MS` (UCI, all that are
 * set).  UCCI takes one mode and its `go time` is a clock (in seconds for
 * ElephantEye), so for a move time the client sends `go infinite` (which
 * ElephantEye reads as its deepest search) and `stop` when the time is up.
 *
 * Positions are sent as `position fen F moves m1 m2 ...` where F is the
 * position after the last capture of the history (or the start), so that
 * the engine sees every position that can still repeat.  F is validated
 * with the rules core first: a position the engine would choke on is never
 * sent.  Before each analysis the engine's hash table is cleared (UCI
 * `ucinewgame`; UCCI: the engine's newgame or Clear Hash option when it
 * lists one) so that, with Threads 1 and a depth or node limit, results do
 * not depend on what was analysed before.  Options the client sets by
 * itself when the engine lists them and the caller has not: UCI_Variant
 * xiangqi, Threads 1, Contempt 0 (Fairy-Stockfish's default of 24 makes
 * scores depend on which side is to move).
 *
 * Processes.  The engine runs in its own process group, so a Ctrl-C typed
 * at the terminal reaches xqkit and not the engine directly: the command
 * sets the stop flag, the client sends `stop` and collects the answer, and
 * xqi_engine_free() ends the engine.  Every child is reaped with waitpid()
 * on its own pid (never waitpid(-1): callers must not reap children they
 * did not start either); an engine that does not quit when asked is killed
 * with SIGKILL, with its whole process group.  No zombie is left behind.
 *
 * SIGPIPE.  Writing to an engine that has died raises SIGPIPE, whose
 * default action would kill xqkit.  This module installs no signal handler
 * and changes no process-wide setting: around each write it blocks SIGPIPE
 * in the calling thread only, and if the write failed with EPIPE it
 * consumes the pending signal (sigtimedwait with a zero timeout) before
 * restoring the thread's mask.  The child gets default signal dispositions
 * and an empty signal mask whatever the parent uses.
 *
 * Threads: one struct xqi_engine must be used by one thread at a time;
 * different engines may be used from different threads (`annotate -j`).
 */
#ifndef XQI_LIB_ENGINE_H
#define XQI_LIB_ENGINE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "position.h"
#include "search.h"

struct xq_diagnostic;
struct xqi_sink;

enum xqi_protocol {
	XQI_PROTOCOL_AUTO = 0, /* try `uci`, fall back to `ucci` */
	XQI_PROTOCOL_UCI,
	XQI_PROTOCOL_UCCI
};

/* "auto", "uci", "ucci"; and the reverse (-1 for an unknown name). */
const char *xqi_protocol_name(enum xqi_protocol p);
int xqi_protocol_from_name(const char *name);

/* How an engine numbers ranks in move text. */
enum xqi_rank_base {
	XQI_RANKS_AUTO = 0, /* 1-10 when the engine lists UCI_Variant, else 0-9 */
	XQI_RANKS_0,        /* 0-9, as ICCS: h2e2 (Pikafish, UCCI) */
	XQI_RANKS_1         /* 1-10: h3e3, b10c8 (Fairy-Stockfish in UCI mode) */
};

/* An engine option as the user gives it (NAME=VALUE); value may be "". */
struct xqi_engine_option {
	const char *name;
	const char *value;
};

/*
 * Split "NAME=VALUE" (as given to --engine-option) at the first '='.
 * Returns 0 and points `name`/`value` into copies made in `buf` (cap
 * bytes), or XQ_EPARSE when there is no '=', the name is empty, or a
 * character is a control character (a newline would inject a command).
 */
int xqi_engine_option_parse(struct xqi_engine_option *out, char *buf, size_t cap, const char *text,
			   struct xq_diagnostic *d);

struct xqi_engine_opts {
	/* The program: a path, or a name looked up in PATH when it has no '/'. */
	const char *path;
	/* Extra arguments (argv[1..]), NULL-terminated; NULL for none. */
	char *const *args;
	enum xqi_protocol protocol;
	/* Options sent after the handshake, in order; copied. */
	const struct xqi_engine_option *options;
	size_t noptions;
	/* Rank numbering of moves in UCI mode (UCCI is always 0-9). */
	enum xqi_rank_base rank_base;
	/* Longest wait for the handshake, `readyok`, and the answer to `stop`
	 * (0: 10000 ms). */
	uint32_t timeout_ms;
	/* Longest a depth- or node-limited search may take before the engine is
	 * deemed hung (0: 300000 ms).  A movetime search may take its
	 * movetime plus timeout_ms. */
	uint32_t search_timeout_ms;
	/* Flags for validating positions before sending them (position.h);
	 * default 0: strict, as Pikafish requires. */
	unsigned fen_flags;
	/* Keep the engine's hash between analyses (default 0: clear it). */
	int keep_hash;
	/* Polled while waiting (see struct xqi_search_opts); borrowed; may be NULL. */
	const atomic_int *stop;
	/* Where warnings go (garbage lines, options the engine does not list);
	 * each carries the game and ply of the current analysis.  Borrowed;
	 * may be NULL (they are still counted). */
	const struct xqi_sink *warnings;
};

/* Defaults: everything zero (protocol and ranks auto, default timeouts,
 * strict validation, hash cleared, no stop flag, no sink). */
void xqi_engine_opts_init(struct xqi_engine_opts *o);

struct xqi_engine; /* opaque */

/*
 * Create an engine client and start the engine (spawn and handshake).
 * Returns 0; XQ_ERANGE for unusable options (no path, a control character
 * in an option), XQ_ENOMEM; or XQ_EENGINE when the engine cannot be started
 * or does not complete the handshake.  Whenever *out is not NULL on return
 * (always, except for XQ_ERANGE and an allocation failure) the caller owns
 * it and frees it with xqi_engine_free(); after XQ_EENGINE it is not
 * running, so the caller can report the problem and try
 * xqi_engine_restart() later.
 */
int xqi_engine_new(struct xqi_engine **out, const struct xqi_engine_opts *o, struct xq_diagnostic *d);

/* Stop the engine if it runs (quit, then kill), reap it, free everything.
 * NULL is allowed. */
void xqi_engine_free(struct xqi_engine *e);

/* Stop the engine if it runs, then start it again with the same options
 * and the dialect found the first time.  0 or XQ_EENGINE. */
int xqi_engine_restart(struct xqi_engine *e, struct xq_diagnostic *d);

/* Stop the engine: `quit`, wait up to the timeout, kill; reap.  It can be
 * started again with xqi_engine_restart(). */
void xqi_engine_stop(struct xqi_engine *e);

/*
 * Analyse the position after `moves` from `start` (see xqi_analyse() for
 * the checks on the input and on `d`).  When the side to move has no legal
 * move the answer is given without asking the engine.  Errors:
 * XQ_EILLEGAL (the input), XQ_EENGINE (the engine: not running, crashed,
 * hung, rejected the position, lied, answered without a score), XQ_ENOMEM
 * (a command could not be built: nothing is sent).
 */
int xqi_engine_analyse(struct xqi_engine *e, struct xqi_analysis *out, const struct xqi_position *start,
		      const xqi_move *moves, size_t nmoves, const struct xqi_limit *limit,
		      struct xq_diagnostic *d);

/* An analyser backed by `e` (borrowed). */
void xqi_engine_analyser(struct xqi_analyser *a, struct xqi_engine *e);

/* The engine's name (its `id name`, else the program path). */
const char *xqi_engine_name(const struct xqi_engine *e);
/* The dialect in use (UCI or UCCI once started; AUTO before). */
enum xqi_protocol xqi_engine_protocol(const struct xqi_engine *e);
/* Rank numbering in use for moves: 0 or 1. */
int xqi_engine_rank_base(const struct xqi_engine *e);
/* Process id of the running engine, or -1. */
long xqi_engine_pid(const struct xqi_engine *e);
/* Lines ignored as garbage since the engine object was created. */
unsigned long xqi_engine_garbage_count(const struct xqi_engine *e);
/* Times the engine process was started. */
unsigned long xqi_engine_start_count(const struct xqi_engine *e);

/* ---- reading engine output (exposed for tests and fuzzing) --------------- */

enum xqi_engine_line_kind {
	XQI_LINE_EMPTY,
	XQI_LINE_ID_NAME,    /* id name <text> */
	XQI_LINE_ID_OTHER,   /* id author ... and the like */
	XQI_LINE_OPTION,     /* option [name] <name> type ... */
	XQI_LINE_UCIOK,
	XQI_LINE_UCCIOK,
	XQI_LINE_READYOK,
	XQI_LINE_INFO,
	XQI_LINE_BESTMOVE,   /* bestmove <move> | bestmove (none) | nobestmove */
	XQI_LINE_BYE,        /* UCCI answer to quit */
	XQI_LINE_GARBAGE     /* anything else, or a known line that is malformed */
};

struct xqi_engine_line {
	enum xqi_engine_line_kind kind;
	/* id name / option: the text, pointing into the parsed line. */
	const char *text;
	size_t text_len;
	/* option: the line lists `var xiangqi` (for UCI_Variant). */
	int has_xiangqi;
	/* info */
	int depth, seldepth, multipv; /* -1 when absent */
	int has_score;
	struct xqi_score score; /* from the side to move's view */
	int bound;             /* 0 exact, 1 lowerbound, -1 upperbound */
	uint64_t nodes;
	int64_t time_ms;       /* -1 when absent */
	int is_string;         /* info string ... */
	size_t pv_len;
	xqi_move pv[XQI_PV_MAX]; /* moves as squares; legality is not checked here */
	/* bestmove: the move, 0 for (none)/nobestmove; bad_move when the text
	 * after bestmove is not a move at all. */
	xqi_move move;
	int bad_move;
};

/*
 * Parse one line of engine output (`len` bytes, without the newline) in
 * the dialect `proto` with ranks numbered from `rank_base` (0 or 1).
 * Never fails: an unknown or malformed line is XQI_LINE_GARBAGE, and so is
 * a line with a byte that is not printable ASCII or UTF-8 (engines print
 * ASCII).  Pointers in `out` point into `line`.
 *
 * Scores: `score cp N` is N centipawns; `score mate N` is XQ_EVAL_MATE N
 * for N > 0 and XQ_EVAL_MATED -N for N <= 0; a bare UCCI `score N` is N
 * centipawns unless |N| > 9800, ElephantEye's threshold for a decided game:
 * then it is a mate in (P + 1) / 2 moves where P = 10000 - |N| plies (or
 * 9900 - |N| below 9900, a win by the repetition rules).
 */
void xqi_engine_parse_line(struct xqi_engine_line *out, const char *line, size_t len,
			  enum xqi_protocol proto, int rank_base);

/*
 * Write `m` as the engine expects it: ICCS squares in lower case with
 * ranks from `rank_base` ("h2e2", or "h3e3" and "b10c8" with base 1).
 * `out` needs 7 bytes; returns the length.
 */
size_t xqi_engine_move_text(xqi_move m, int rank_base, char out[7]);

/*
 * Append to `b` the command that starts a search within `lim` in dialect
 * `proto` (UCI: "go depth 8 movetime 500"; UCCI takes one mode: depth,
 * else nodes, else "go infinite", and *emulate_movetime is set when the
 * client keeps the move time itself with `stop`).  Returns 0, or
 * XQ_ENOMEM when `b` is in error (an append failed, now or before: its
 * sticky error): the text is then not whole and is never sent, since a
 * bare "go" would search without end.
 */
struct xq_buf;
int xqi_engine_go_text(struct xq_buf *b, enum xqi_protocol proto, const struct xqi_limit *lim,
		      int *emulate_movetime);

#endif
