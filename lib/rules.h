/*
 * rules.h: results decided by rule rather than by mate.
 *
 * A xiangqi game can end because a position repeats: the side that checks
 * on every move of the cycle loses, the side that chases on every move
 * loses under most rule sets, and a repetition without either is a draw.
 * A long run without captures is a draw too.  This module finds those
 * cycles in a line of moves, classifies every move in them (check, mate
 * threat, chase, idle) with the piece that attacks, the piece attacked and
 * why the attack counts or not, rules on each cycle under a named rule
 * set, reports where move limits are reached, and says whether a recorded
 * result agrees.  It also has an incremental form for a search.
 *
 * Rule sets (XQ_RULESET_ASIAN, XQ_RULESET_CHINESE) and what decides a cycle.
 * Sources: the Asian Xiangqi Federation rules (English draft by Eric Wu
 * for the Hong Kong Chinese Chess Association, as published by wxf.org and
 * clubxiangqi.com; "AXF n" below is its rule number) and the Chinese
 * Xiangqi Association's 1999 competition rules (棋例, articles 25 to 29,
 * "CXA n" below; "CXA detail n" is one of its 13 detailed rulings).
 *
 *   check   the move attacks the other king (both).
 *   kill    (杀) not a check, but the mover could checkmate in one if it
 *           moved again, and could not before this move; an evasion is
 *           never a kill.  Only mates in one are seen; CXA 28.2 also
 *           counts mates by a series of checks.
 *   chase   (捉) the move makes a capture threat that did not exist
 *           before it (CXA 29.2; "from chase to chase" is idle, CXA
 *           detail 6).  When the mover was in check, the threats "before"
 *           are its pseudo-legal captures: an evasion does not create the
 *           threats the check merely suspended.  A threat is a legal
 *           capture of a piece other than the king that counts:
 *             - an unprotected piece: the other side has no legal
 *               recapture (a pinned or otherwise false root does not
 *               protect);
 *             - a rook attacked by a horse or a cannon, protected or not
 *               (AXF 15, CXA 29.1 "gains material");
 *             - Chinese only: a horse, rook or cannon attacked by an
 *               advisor or elephant, protected or not (material gain,
 *               CXA 25.3 and 29.1).
 *           It does not count when the attacker is a king or a pawn (both
 *           may chase for ever: AXF 28, CXA 27.1, 27.2), when the target
 *           is a pawn that has not crossed the river (no value, CXA 25.3),
 *           or when the target is of the attacker's own type and can take
 *           it back (an exchange offer, not a chase: AXF 40, CXA 28.5).
 *   idle    anything else (exchange, offer, block, follow, plain moves).
 *   A move is called by its heaviest effect: check, kill, chase, idle
 *   (CXA 27.4); its chase targets are kept even when it is a check or kill.
 *
 * A side's conduct over one cycle (its moves between the two occurrences):
 *   perpetual check   every one of its moves is a check (AXF 6, CXA 26.1).
 *   Asian: perpetual chase  not all its moves check, and one and the
 *           same piece is newly chased by every one of its moves, checking
 *           moves included (AXF 32: chasing two pieces in turn is allowed;
 *           AXF 12: one check and one chase is allowed, that is when the
 *           check does not also chase the piece; AXF 36: a chasing move
 *           that also offers an exchange still chases).
 *   Chinese: forbidden  every move is a check, kill or chase, not all
 *           checks: perpetual kill (长杀), perpetual chase of one or several
 *           pieces (长捉), or a mix such as one check one chase (一将一捉)
 *           (CXA 25.2, 28.12).
 *   allowed  anything else.
 * Verdict: a side that perpetually checks while the other does not loses,
 * whatever the other does (AXF 6 and 8, CXA 26.1); both perpetually
 * checking is a draw (AXF 7); otherwise a side with forbidden conduct
 * loses when the other side's conduct is allowed (CXA 26.4), and the cycle
 * is a draw when both or neither are forbidden (AXF 5, CXA 26.2, 26.3).
 * Not modelled: protection that is too thin against two attackers (少根),
 * a capture that would be answered by mate (CXA 29.4), pawns counting as
 * chasers in mutual attacks (CXA 27.2), a rook held in place by a horse
 * that may not be chased and does not chase (AXF 19), and the arbiter's
 * judgement of "defending a drawing fortress" (CXA 27.3).
 *
 * Repetitions.  Positions are compared by Zobrist key (pieces and side to
 * move), only since the last capture.  A cycle is reported as a run: the
 * plies over which every position equals the one `period` plies earlier,
 * from the first occurrence to the last repetition.  A cycle needs at
 * least 4 plies (each side must move a piece away and back), so periods
 * are 4, 6, 8, ...
 *
 * Move limits.  The natural limit draws after 120 plies (60 moves a side)
 * without a capture (CXA 4.2.4); under AXF a side's checks beyond its 10th
 * in that window, and the replies to them, do not count (as Pikafish and
 * Fairy-Stockfish implement the AXF text "no more than 10 checks").
 * clubxiangqi.com's automatic draws (its "MEP" rules) are available too,
 * each counted in plies: 240 effective plies (plies that are neither a
 * check or chase nor the reply to one), 60 plies without progress (a
 * capture or a forward step of a pawn already across the river), and 600
 * plies in all.  Counts start at the start of the line (the natural
 * limit at the FEN's halfmove clock, the total at its move number).
 *
 * Nothing here prints.  Results go into caller-owned structures
 * (struct xqi_rules_report, struct xqi_rules_probe) or a struct xq_buf of
 * text; problems are reported through struct xq_diagnostic.
 */
#ifndef XQI_LIB_RULES_H
#define XQI_LIB_RULES_H

#include <stddef.h>
#include <stdint.h>

#include <xq/rules.h>

#include "position.h"
#include "buf.h"
#include "diagnostic.h"
#include "record.h"
#include "movegen.h"

/* ---- rule sets and options ---------------------------------------------- */

/* Rule sets: the public enum xq_ruleset (<xq/rules.h>). */

/* "asian" or "chinese". */
const char *xqi_rules_set_name(enum xq_ruleset s);
/*
 * Parse a rule set name: "asian" (also "axf", "wxf") or "chinese" (also
 * "cxa"), ASCII case-insensitive.  Returns 0 or XQ_ENOTFOUND.
 */
int xqi_rules_set_from_name(const char *name, enum xq_ruleset *out);

enum {
	/* Classify every ply of the line, not only those inside cycles
	 * (for annotations; costs a chase analysis per ply). */
	XQI_RULES_CLASSIFY_ALL = 1u << 0
};

/*
 * Options.  Start from XQI_RULES_OPTIONS_INIT and change fields; every
 * field is plain data.
 */
struct xqi_rules_options {
	enum xq_ruleset rules; /* how cycles are judged (asian) */
	uint16_t natural_limit;  /* plies without capture that draw (120); 0 = no limit */
	/* A side's checks beyond this many in the no-capture window, and the
	 * replies to them, do not advance the natural limit (AXF: 10);
	 * 0 = every ply counts. */
	uint8_t counted_checks;
	uint8_t cxq;             /* also apply clubxiangqi's automatic draws (0) */
	uint16_t cxq_effective;  /* effective plies that draw (240) */
	uint16_t cxq_progress;   /* plies without progress that draw (60) */
	uint16_t cxq_total;      /* plies in all that draw (600) */
	/* xqi_rules_check_result(): times the final position must have
	 * occurred for the line to "end in a repetition" (2). */
	uint8_t min_repeats;
	/* struct xqi_rules_track: times a position must have occurred when its
	 * earlier occurrence is at or before the search root (3); one
	 * repetition strictly after the root is always enough. */
	uint8_t search_repeats;
	unsigned flags;          /* XQI_RULES_CLASSIFY_ALL */
};

#define XQI_RULES_OPTIONS_INIT                                                              \
	{                                                                                  \
		.rules = XQ_RULESET_ASIAN, .natural_limit = 120, .counted_checks = 0, .cxq = 0, \
		.cxq_effective = 240, .cxq_progress = 60, .cxq_total = 600, .min_repeats = 2, \
		.search_repeats = 3, .flags = 0                                            \
	}

/* ---- one move, classified ------------------------------------------------ */

/* What a move is called, lightest first (a move is called by its heaviest). */
enum xqi_rules_kind {
	XQI_RULES_UNCLASSIFIED = 0, /* not analysed (outside every cycle) */
	XQI_RULES_IDLE,
	XQI_RULES_CHASE,
	XQI_RULES_KILL,
	XQI_RULES_CHECK
};

/* Flags of a classified move (a move can be several things at once). */
enum {
	XQI_RULES_F_CHECK = 1u << 0,
	XQI_RULES_F_KILL = 1u << 1,
	XQI_RULES_F_CHASE = 1u << 2,
	XQI_RULES_F_CAPTURE = 1u << 3
};

/* Why an attack after the move counts as a chase, or why not. */
enum xqi_rules_why {
	XQI_WHY_NONE = 0,
	/* counts */
	XQI_WHY_UNPROTECTED,    /* the other side has no legal recapture */
	XQI_WHY_ROOK_BY_MINOR,  /* a horse or cannon attacks a rook, protected or not */
	XQI_WHY_GAINS_MATERIAL, /* Chinese: an advisor or elephant attacks a horse, rook or cannon */
	/* does not count */
	XQI_WHY_PROTECTED,      /* a legal recapture exists */
	XQI_WHY_EXCHANGE,       /* same type and it can take back: an exchange offer */
	XQI_WHY_UNCROSSED_PAWN, /* a pawn that has not crossed the river */
	XQI_WHY_BY_KING,        /* the attacker is the king */
	XQI_WHY_BY_PAWN,        /* the attacker is a pawn */
	XQI_WHY_ALREADY,        /* the piece was already chased before the move */
	/* a check, not a chase */
	XQI_WHY_CHECK
};
#define XQI_RULES_WHY_COUNTS(w) ((w) >= XQI_WHY_UNPROTECTED && (w) <= XQI_WHY_GAINS_MATERIAL)

/* One attack made or kept by a move, seen in the position after it. */
struct xqi_rules_threat {
	xqi_sq attacker;         /* square of the attacking piece */
	xqi_sq target;           /* square of the piece attacked */
	uint8_t attacker_kind;  /* XQI_KIND() of the attacker */
	uint8_t target_kind;    /* XQI_KIND() of the target */
	uint8_t target_id;      /* piece identity (position.h) of the target */
	uint8_t why;            /* enum xqi_rules_why */
};

#define XQI_RULES_MAX_THREATS 6

/*
 * One ply of the line.  `move`, `side`, `count` and the capture flag are
 * always filled; the classification (kind, flags, threats, mate) only for
 * plies inside a cycle, or for all with XQI_RULES_CLASSIFY_ALL.
 */
struct xqi_rules_ply {
	xqi_move move;
	uint8_t side;     /* who moved: XQI_RED or XQI_BLACK */
	uint8_t kind;     /* enum xqi_rules_kind */
	uint8_t flags;    /* XQI_RULES_F_* */
	uint8_t nthreats; /* entries used in threats[] */
	uint8_t more;     /* further threats that did not fit */
	uint16_t count;   /* natural-limit count after this ply (plies without capture, AXF-adjusted) */
	uint32_t chased;  /* bit (id - 16) for every piece newly chased by this move */
	xqi_move mate;     /* for a kill: the mate in one it threatens; 0 otherwise */
	/* Checks first (the checking pieces, target = the king), then new
	 * chases, then attacks that do not count, each with its reason. */
	struct xqi_rules_threat threats[XQI_RULES_MAX_THREATS];
	/* 1 + the index of the first cycle whose moves contain this ply, 0 if
	 * none: what xqi_rules_cycle_at() answers, found once for all plies. */
	uint32_t cycle;
};

/* ---- cycles ---------------------------------------------------------------- */

/* Rulings: the public enum xq_ruling (XQ_RULING_*, <xq/rules.h>). */

/* One side's conduct over a cycle. */
enum xqi_rules_conduct {
	XQI_CONDUCT_ALLOWED = 0,   /* idle moves, or attacks that are not perpetual */
	XQI_CONDUCT_PERPETUAL_CHECK,
	XQI_CONDUCT_PERPETUAL_CHASE, /* Asian: the same piece, every move; Chinese: every move a chase */
	XQI_CONDUCT_PERPETUAL_KILL,  /* Chinese: every move a mate threat */
	XQI_CONDUCT_FORBIDDEN_MIX    /* Chinese: every move an attack, mixed (一将一捉 ...) */
};
#define XQI_CONDUCT_FORBIDDEN(c) ((c) != XQI_CONDUCT_ALLOWED)

struct xqi_rules_side {
	uint8_t conduct;     /* enum xqi_rules_conduct */
	uint8_t target_id;   /* Asian perpetual chase: the piece chased every move; 0 if none */
	uint8_t target_kind; /* its XQI_KIND() */
	xqi_sq target_sq;     /* where it stood when the side last chased it */
	uint8_t target_why;  /* why that chase counted (enum xqi_rules_why) */
	uint16_t moves, checks, kills, chases, idles; /* counts over the side's moves in the cycle */
};

struct xqi_rules_cycle {
	uint32_t first;   /* ply count of the first occurrence (0 = the start position) */
	uint32_t last;    /* ply count where the run of repetitions ends; moves first+1..last */
	uint32_t period;  /* plies between two occurrences of a position (4, 6, ...) */
	uint32_t repeats; /* the most times a position of the run occurred (2 = seen twice) */
	uint8_t verdict;  /* enum xq_ruling */
	struct xqi_rules_side side[2]; /* [XQI_RED], [XQI_BLACK] */
};

/* ---- move limits --------------------------------------------------------- */

enum xqi_rules_limit {
	XQI_LIMIT_NATURAL,      /* plies without capture */
	XQI_LIMIT_CXQ_EFFECTIVE,
	XQI_LIMIT_CXQ_PROGRESS,
	XQI_LIMIT_CXQ_TOTAL
};

struct xqi_rules_limit_event {
	uint8_t kind;   /* enum xqi_rules_limit */
	uint8_t mate;   /* the position at `ply` is checkmate or stalemate (that decides instead) */
	uint32_t ply;   /* ply count at which the limit is reached */
	uint32_t since; /* ply count where the count started (capture, progress, start) */
	uint32_t limit; /* the limit, in plies */
};

/* ---- analysing a line ---------------------------------------------------- */

/* Everything found in one line.  Owned by the caller; arrays by the report. */
struct xqi_rules_report {
	enum xq_ruleset rules;     /* the rule set used */
	size_t nplies;               /* moves in the line */
	struct xqi_rules_ply *plies;  /* plies[k] is ply k + 1 */
	struct xqi_rules_cycle *cycles; /* in the order they end (by `last`) */
	size_t ncycles;
	struct xqi_rules_limit_event *limits; /* in order of ply */
	size_t nlimits;
	enum xq_state end;          /* the final position: playing, checkmate or stalemate */
	size_t plies_alloc, cycles_alloc, limits_alloc;
};

void xqi_rules_report_init(struct xqi_rules_report *r);
/* Free the arrays; the report is empty and reusable. */
void xqi_rules_report_release(struct xqi_rules_report *r);

/*
 * Analyse the line of `n` moves from `start`: repetition cycles with the
 * classification of their moves and their verdicts, move-limit events,
 * and the state of the final position.  `o` may be NULL for the defaults.
 * Moves are checked: returns 0, XQ_EILLEGAL with `d` saying which ply and
 * why (d->ply 1-based, d->move its ICCS text), or XQ_ENOMEM.  The report
 * is reset first and holds what was found before an error.
 *
 * Cost: one make and legality check per ply, then a chase analysis (a few
 * microseconds) for each ply inside a cycle, and two mate-in-one searches
 * for each of those that is not a check.  Linear in plies however many
 * repetitions and cycles the line holds: each ply finds its earlier
 * occurrences through a hash of the positions since the last capture,
 * and every cycle is judged in one pass over the line.
 */
int xqi_rules_analyze(struct xqi_rules_report *r, const struct xqi_position *start,
		     const xqi_move *moves, size_t n, const struct xqi_rules_options *o,
		     struct xq_diagnostic *d);

/* The same for the line of a game from the root to `node`. */
int xqi_rules_analyze_game(struct xqi_rules_report *r, const struct xqi_record *g, uint32_t node,
			  const struct xqi_rules_options *o, struct xq_diagnostic *d);

/* The index of the cycle whose moves contain ply `ply` (1-based), or -1. */
long xqi_rules_cycle_at(const struct xqi_rules_report *r, uint32_t ply);

/* The result a verdict gives (XQI_RESULT_NONE for XQ_RULING_NONE). */
enum xqi_result xqi_rules_verdict_result(enum xq_ruling v);

/* "draw", "red loses", "black loses", "none". */
const char *xqi_rules_verdict_name(enum xq_ruling v);
/* "perpetual check", "perpetual chase", ... ("allowed"). */
const char *xqi_rules_conduct_name(enum xqi_rules_conduct c);
/* "check", "kill", "chase", "idle", "unclassified". */
const char *xqi_rules_kind_name(enum xqi_rules_kind k);
/* A short English phrase: "it is unprotected", "it is protected", ... */
const char *xqi_rules_why_text(enum xqi_rules_why w);

/*
 * Text, appended to `out` (UTF-8, English).  A ply (1-based), one line
 * without a newline: "44. red h2e2: check: the red cannon on e2 checks the
 * black king on e9", then each attack with its reason.  A cycle, lines
 * ending in newlines: its ply range, period and repeats, the moves of one
 * period, each side's conduct, and the verdict with the rule that decides
 * it.  A limit event, one line.  The whole report: every cycle, then every
 * limit event.  Return 0, XQ_ENOMEM, or XQ_ERANGE for an index out of
 * range.
 */
int xqi_rules_describe_ply(struct xq_buf *out, const struct xqi_rules_report *r, size_t ply);
int xqi_rules_describe_cycle(struct xq_buf *out, const struct xqi_rules_report *r, size_t i);
int xqi_rules_describe_limit(struct xq_buf *out, const struct xqi_rules_report *r, size_t i);
int xqi_rules_describe(struct xq_buf *out, const struct xqi_rules_report *r);

/* ---- checking a recorded result ---------------------------------------- */

/* How the record says the game ended, when it says so (tags, comments). */
enum xqi_rules_claim {
	XQI_CLAIM_UNSPECIFIED = 0, /* only the result is known */
	XQI_CLAIM_REPETITION,      /* decided by repetition (draw or perpetual) */
	XQI_CLAIM_MOVE_LIMIT       /* drawn by a move limit */
};

enum xqi_rules_support {
	XQI_SUPPORT_SILENT = 0,   /* no rule ending at the end of the line: the result rests on
				    mate, agreement, resignation or time, which are not checked here */
	XQI_SUPPORT_CONFIRMED,    /* the rules give exactly the recorded result */
	XQI_SUPPORT_CONTRADICTED, /* the rules give a different result (a forbidden perpetual
				    whose offender does not lose) */
	XQI_SUPPORT_NOT_SHOWN,    /* the record claims a rule ending the line does not show */
	XQI_SUPPORT_DOUBTFUL      /* the rules give a draw, the record a decision; possible
				    (resignation, time) but worth a warning */
};

/*
 * Do the rules support the recorded `result` of the line that ends after
 * `n` moves?  Looks at the end of the line only: a repetition run that
 * ends at the final position (which occurred at least o->min_repeats
 * times) is ruled on, then a move limit reached on the way.  A forbidden
 * perpetual must carry the loss for the offender (else CONTRADICTED); a
 * claimed draw by repetition must show the repetition and one by move
 * limit the limit (else NOT_SHOWN).  A final checkmate or stalemate is
 * not a rule ending (SILENT).
 *
 * When the record has no result (XQI_RESULT_NONE or UNKNOWN) the status is
 * SILENT, with a note saying what the rules give.
 *
 * Writes the status to *out and, unless it is SILENT with nothing to say,
 * a diagnostic to `d` (may be NULL): code repetition, perpetual-check,
 * perpetual-chase or move-limit; severity note (confirmed), warning
 * (doubtful) or error (contradicted, not shown); d->ply and d->move the
 * last move of the cycle (or the ply where the limit is reached); and a
 * message naming the ply range, each side's conduct with the piece chased
 * and the verdict under the rule set.  When `explain` is not NULL the full
 * description of the deciding cycle is appended to it.  `d`'s place and
 * game number are kept.  Returns 0, XQ_EILLEGAL (an illegal move, in `d`)
 * or XQ_ENOMEM.
 */
int xqi_rules_check_result(enum xqi_rules_support *out, const struct xqi_position *start,
			  const xqi_move *moves, size_t n, enum xqi_result result,
			  enum xqi_rules_claim claim, const struct xqi_rules_options *o,
			  struct xq_diagnostic *d, struct xq_buf *explain);

/* The same for a game's main line and its recorded result. */
int xqi_rules_check_game(enum xqi_rules_support *out, const struct xqi_record *g,
			enum xqi_rules_claim claim, const struct xqi_rules_options *o,
			struct xq_diagnostic *d, struct xq_buf *explain);

/*
 * Can xqi_rules_check_game() have anything to say of the main line of
 * `g`?  It rules only on a repetition that ends at the final position and
 * on a move limit reached on the way, so a line whose final position never
 * occurred before since the last capture, and that never goes
 * o->natural_limit plies without a capture, needs no analysis (clubxiangqi's
 * limits count other things: always 1 with o->cxq).  Returns 0 when it
 * cannot, 1 when it may.  The walk also leaves the position at the end of
 * the main line in `final` (what xqi_record_board_at() gives for the line's
 * last node).  The main line's moves must be legal (as a reader leaves
 * them): the walk moves pieces without checking anything, which makes it
 * a fraction of the analysis or of a replay with xqi_position_make().
 */
int xqi_rules_could_apply(const struct xqi_record *g, const struct xqi_rules_options *o,
			 struct xqi_position *final);

/* "silent", "confirmed", "contradicted", "not-shown", "doubtful". */
const char *xqi_rules_support_name(enum xqi_rules_support s);

/* ---- incremental form, for a search -------------------------------------- */

/*
 * A stack of the positions of the current line (game history, then the
 * search path), with what the rules need about each.  Typical use:
 *
 *   xqi_rules_track_init(&t, &root_board, 1024, &opts);
 *   for each history move: xqi_position_make(&b, m, &u); xqi_rules_track_push(&t, &b, m, &u);
 *   xqi_rules_track_set_root(&t);
 *   in the search, after xqi_position_make(&b, m, &u):
 *       xqi_rules_track_push(&t, &b, m, &u);
 *       if (xqi_rules_track_probe(&t, &b, &p)) score from p.verdict (after testing mate);
 *       ... search ...;
 *       xqi_rules_track_pop(&t); xqi_position_unmake(&b, m, &u);
 *
 * Cost: push is one test of the king of the side to move (none with
 * xqi_rules_track_push_check) plus a few stores; pop is a few stores; probe
 * is one table lookup when no earlier position since the last capture
 * shares the low bits of the key (the usual case), else a walk back over
 * those that do (about one in XQI_RULES_FILTER_SIZE of the positions
 * between the repetition and its earlier occurrence, never a scan of the
 * window), and only for a real repetition in which neither side checked
 * throughout a chase analysis of the cycle's moves (a few microseconds;
 * rare).  `build/bench/rules_track track` and
 * `plain` walk the same move tree with and without push, probe and pop at
 * every node: the walk with the track takes two to two and a half times
 * as long as the bare make/generate/unmake walk (whose node is all a
 * perft does; a search node does far more, so the share is smaller).
 * No allocation after init.  A track is not shared between threads.
 */
struct xqi_rules_entry {
	uint64_t key;        /* the position after the move */
	struct xqi_undo undo; /* to step back over the move */
	xqi_move move;        /* 0 for the start position */
	uint8_t check;       /* the move gave check */
	uint8_t uncounted;   /* the move did not advance the natural limit (AXF) */
	uint8_t checks[2];   /* checks of each side in the no-capture window */
	uint16_t count;      /* natural-limit count after the move */
	uint16_t window;     /* plies since the last capture (or the start of the track) */
	/* Track only: the entry before this one whose key has the same low
	 * bits (UINT32_MAX if none). */
	uint32_t prev_in_bucket;
};

#define XQI_RULES_FILTER_SIZE 1024

struct xqi_rules_track {
	struct xqi_rules_options opt;
	struct xqi_rules_entry *e; /* e[0] is the start position */
	size_t n;                 /* entries in use (plies + 1) */
	size_t cap;
	size_t root;              /* index of the search root position */
	/* The latest entry whose key has these low bits (UINT32_MAX if none):
	 * with prev_in_bucket, a chain per bucket that a probe walks back
	 * instead of scanning every key of the window. */
	uint32_t last_in_bucket[XQI_RULES_FILTER_SIZE];
};

/*
 * Start a track at `start` for up to `capacity` plies.  `o` may be NULL.
 * Returns 0 or XQ_ENOMEM.  The root is the start until set.
 */
int xqi_rules_track_init(struct xqi_rules_track *t, const struct xqi_position *start, size_t capacity,
			const struct xqi_rules_options *o);
void xqi_rules_track_release(struct xqi_rules_track *t);
/* Forget every move and start again at `start` (keeps the memory). */
void xqi_rules_track_reset(struct xqi_rules_track *t, const struct xqi_position *start);

/*
 * Record move `m`, just made on `after` with undo `u` (from xqi_position_make).
 * Returns 0, or XQ_ERANGE when the capacity is full (nothing recorded).
 */
int xqi_rules_track_push(struct xqi_rules_track *t, const struct xqi_position *after, xqi_move m,
			const struct xqi_undo *u);
/*
 * The same when the caller already knows whether the side to move in
 * `after` is in check (`check` 1 or 0): it saves push's one king-attack
 * test, most of its cost.  A wrong flag gives wrong verdicts.
 */
int xqi_rules_track_push_check(struct xqi_rules_track *t, const struct xqi_position *after, xqi_move m,
			      const struct xqi_undo *u, int check);
/* Forget the last move pushed (no-op at the start). */
void xqi_rules_track_pop(struct xqi_rules_track *t);
/* The current position is the search root. */
void xqi_rules_track_set_root(struct xqi_rules_track *t);

/* What a probe found. */
struct xqi_rules_probe {
	uint8_t verdict;     /* enum xq_ruling */
	uint8_t limit;       /* 1 when the verdict comes from the natural limit */
	/* Each side's conduct when the verdict comes from a cycle.  When a side
	 * checks throughout, the other side's moves are not analysed (the
	 * verdict does not depend on them) and it shows as allowed. */
	uint8_t conduct[2];
	uint32_t first;      /* the cycle: ply counts from the track start */
	uint32_t last;
};

/*
 * Is the current position (`b`, the board after the last pushed move) a
 * repetition the rules decide, or at the natural limit?  Returns 1 and
 * fills `out` if so, 0 if the game goes on, XQ_EINTERNAL if `b` is not the
 * track's current position.  The limit gives a draw: test checkmate first,
 * it takes precedence.  Repetitions: the latest earlier occurrence since
 * the last capture decides if it is strictly after the root; otherwise the
 * position must have occurred o.search_repeats times.  The verdict is the
 * same as xqi_rules_analyze() would give for that cycle.
 */
int xqi_rules_track_probe(const struct xqi_rules_track *t, const struct xqi_position *b,
			 struct xqi_rules_probe *out);

#endif
