/*
 * xq-search.c: driver for the search benchmarks and the engine match
 * (bench/search.sh, bench/match.sh), and for building the mate fixtures
 * of tests/data/engine/.
 *
 *   xq-search go [--depth D] [--nodes N] [--movetime MS] FEN [ICCS...]
 *       analyse one position with the built-in engine; one line out:
 *       depth score best nodes ms pv
 *   xq-search bench --depth D FILE
 *       FILE has lines "id<TAB>fen"; search each to depth D and print its
 *       time and nodes, then the positions per second over all of them
 *   xq-search uci
 *       the built-in engine as a UCI engine (for matches between builds)
 *   xq-search fen ICCS...
 *       the FEN after these moves from the start position
 *   xq-search match ...
 *       the built-in engine against an external one (see cmd_match)
 *   xq-search mates-games FILE... | mates-retro ... | classify | verify ...
 *       building tests/data/engine/mates.tsv (see make-mates.sh)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "position.h"
#include "diagnostic.h"
#include "engine.h"
#include "movegen.h"
#include "rules.h"
#include "search.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int parse_iccs(const char *t, xqi_move *m)
{
	if (strlen(t) != 4 || t[0] < 'a' || t[0] > 'i' || t[2] < 'a' || t[2] > 'i' || t[1] < '0' ||
	    t[1] > '9' || t[3] < '0' || t[3] > '9')
		return -1;
	*m = XQI_MOVE(XQI_SQ(t[0] - 'a', t[1] - '0'), XQI_SQ(t[2] - 'a', t[3] - '0'));
	return 0;
}

static void print_analysis(const struct xqi_analysis *a)
{
	char sc[XQI_SCORE_TEXT_MAX], mv[5];

	xqi_score_format(a->score, sc, sizeof(sc));
	printf("depth %d score %s nodes %llu ms %u best %s pv", a->depth, sc,
	       (unsigned long long)a->nodes, a->time_ms, a->best ? (xqi_move_name(a->best, mv), mv) : "none");
	for (size_t i = 0; i < a->pv_len; i++) {
		xqi_move_name(a->pv[i], mv);
		printf(" %s", mv);
	}
	printf("\n");
}

/* Options shared by the subcommands; returns the index of the first operand. */
struct common {
	struct xqi_limit lim;
	const char *engine;
	enum xqi_protocol proto;
};

static int parse_common(int argc, char **argv, struct common *c)
{
	int i = 1;

	memset(c, 0, sizeof(*c));
	for (; i + 1 < argc && argv[i][0] == '-' && argv[i][1] == '-'; i += 2) {
		if (!strcmp(argv[i], "--depth"))
			c->lim.depth = (int)strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--nodes"))
			c->lim.nodes = strtoull(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--movetime"))
			c->lim.movetime_ms = (uint32_t)strtoul(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--engine"))
			c->engine = argv[i + 1];
		else if (!strcmp(argv[i], "--protocol"))
			c->proto = (enum xqi_protocol)xqi_protocol_from_name(argv[i + 1]);
		else
			return fprintf(stderr, "unknown option %s\n", argv[i]), -1;
	}
	return i;
}

/* An analyser: the built-in engine, or --engine PATH. */
struct analyser {
	struct xqi_analyser a;
	struct xqi_search *s;
	struct xqi_engine *e;
};

static int open_analyser(struct analyser *an, const struct common *c)
{
	struct xq_diagnostic d;

	memset(an, 0, sizeof(*an));
	xqi_diagnostic_init(&d);
	if (c->engine) {
		struct xqi_engine_opts o;
		xqi_engine_opts_init(&o);
		o.path = c->engine;
		o.protocol = c->proto;
		if (xqi_engine_new(&an->e, &o, &d)) {
			fprintf(stderr, "%s\n", d.msg);
			xqi_engine_free(an->e);
			return -1;
		}
		xqi_engine_analyser(&an->a, an->e);
	} else {
		if (xqi_search_new(&an->s, NULL, &d))
			return fprintf(stderr, "%s\n", d.msg), -1;
		xqi_search_analyser(&an->a, an->s);
	}
	return 0;
}

static void close_analyser(struct analyser *an)
{
	xqi_engine_free(an->e);
	xqi_search_free(an->s);
}

static int cmd_go(int argc, char **argv)
{
	struct common c;
	struct analyser an;
	struct xqi_position b;
	struct xq_diagnostic d;
	struct xqi_analysis a;
	xqi_move moves[1024];
	size_t n = 0;
	int i = parse_common(argc, argv, &c), rc = 0;

	if (i < 0 || i >= argc)
		return fprintf(stderr, "usage: xq-search go [--engine PATH] [--depth D] FEN [moves]\n"), 2;
	xqi_diagnostic_init(&d);
	if (xqi_position_from_fen(&b, argv[i], strlen(argv[i]), XQI_FEN_LENIENT_PLACEMENT, &d))
		return fprintf(stderr, "bad FEN: %s\n", d.msg), 1;
	for (i++; i < argc && n < 1024; i++)
		if (parse_iccs(argv[i], &moves[n++]))
			return fprintf(stderr, "bad move %s\n", argv[i]), 1;
	if (open_analyser(&an, &c))
		return 3;
	if (xqi_analyse(&an.a, &a, &b, moves, n, &c.lim, &d)) {
		fprintf(stderr, "%s\n", d.msg);
		rc = 1;
	} else {
		print_analysis(&a);
	}
	close_analyser(&an);
	return rc;
}

static int cmd_bench(int argc, char **argv)
{
	struct xqi_limit lim = {8, 0, 0};
	struct xqi_search *s;
	struct xq_diagnostic d;
	char line[4096];
	FILE *f;
	int count = 0;
	uint64_t nodes = 0;
	double total = 0;

	if (argc != 4 || strcmp(argv[1], "--depth"))
		return fprintf(stderr, "usage: xq-search bench --depth D FILE\n"), 2;
	lim.depth = (int)strtol(argv[2], NULL, 10);
	f = fopen(argv[3], "r");
	if (!f)
		return perror(argv[3]), 3;
	xqi_diagnostic_init(&d);
	if (xqi_search_new(&s, NULL, &d))
		return fprintf(stderr, "%s\n", d.msg), 3;
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t'), *fen, *end;
		struct xqi_position b;
		struct xqi_analysis a;
		double t0, t1;
		if (line[0] == '#' || !tab)
			continue;
		*tab = '\0';
		fen = tab + 1;
		end = strpbrk(fen, "\t\r\n");
		if (end)
			*end = '\0';
		if (xqi_position_from_fen(&b, fen, strlen(fen), XQI_FEN_LENIENT_PLACEMENT, &d)) {
			fprintf(stderr, "%s: bad FEN: %s\n", line, d.msg);
			continue;
		}
		t0 = now_s();
		if (xqi_search_run(s, &a, &b, NULL, 0, &lim, &d)) {
			fprintf(stderr, "%s: %s\n", line, d.msg);
			continue;
		}
		t1 = now_s();
		printf("%-12s %7.3f s  ", line, t1 - t0);
		print_analysis(&a);
		total += t1 - t0;
		nodes += a.nodes;
		count++;
	}
	fclose(f);
	xqi_search_free(s);
	printf("total: %d positions to depth %d in %.3f s: %.2f positions/s, %.0f nodes/s\n", count,
	       lim.depth, total, total > 0 ? count / total : 0.0, total > 0 ? (double)nodes / total : 0.0);
	return 0;
}

/* ---- mate fixtures -------------------------------------------------------- */

/* Print a candidate: id, FEN, mate distance claimed (moves), source. */
static void print_candidate(const char *id, const struct xqi_position *b, int moves, const char *src)
{
	char fen[XQ_FEN_SIZE];

	xqi_position_to_fen(b, fen, sizeof(fen));
	printf("%s\t%s\t%d\t%s\n", id, fen, moves, src);
}

/*
 * A tiny ICCS game reader for the test material only: [FEN "..."] tags
 * (the side field of some converters is wrong, so the side comes from the
 * piece that makes the first move), then the main line: every 4-character
 * token [a-i][0-9][a-i][0-9] outside {comments} and (variations).  A new
 * game starts at a '[' line after moves.  For each game that ends in
 * checkmate or stalemate, prints the positions 1, 3 and 5 plies before the
 * end as candidates for mate in 1, 2 and 3.
 */
static void scan_game(const char *src, int game, const char *fen, const xqi_move *mv, size_t n)
{
	struct xqi_position b, hist[1024];
	struct xq_diagnostic d;
	char board[128], id[64];
	size_t len = 0;
	enum xq_state st;

	if (!n)
		return;
	xqi_diagnostic_init(&d);
	if (fen) {
		/* The side is whichever makes the first move legal. */
		int ok = 0;
		while (fen[len] && fen[len] != ' ' && len < sizeof(board) - 3)
			len++;
		memcpy(board, fen, len);
		for (int side = 0; side < 2 && !ok; side++) {
			memcpy(board + len, side ? " b" : " w", 3);
			ok = !xqi_position_from_fen(&b, board, strlen(board), 0, &d) &&
			     !xqi_move_check(&b, mv[0], &d);
		}
		if (!ok)
			return;
	} else {
		xqi_position_start(&b);
	}
	for (size_t i = 0; i < n; i++) {
		struct xqi_undo u;
		hist[i] = b;
		if (i >= 1023 || xqi_move_check(&b, mv[i], &d))
			return;
		xqi_position_make(&b, mv[i], &u);
	}
	st = xqi_position_status(&b);
	if (st == XQ_STATE_PLAYING)
		return;
	for (int k = 1; k <= 3; k++) {
		size_t back = (size_t)(2 * k - 1);
		if (back > n)
			break;
		snprintf(id, sizeof(id), "g%d_m%d", game, k);
		print_candidate(id, &hist[n - back], k, src);
	}
}

static int cmd_mates_games(int argc, char **argv)
{
	int game = 0;

	for (int f = 1; f < argc; f++) {
		FILE *in = fopen(argv[f], "rb");
		char line[65536], fen[256];
		xqi_move mv[1024];
		size_t n = 0;
		int depth = 0, in_comment = 0, have_fen = 0;

		if (!in) {
			perror(argv[f]);
			continue;
		}
		while (fgets(line, sizeof(line), in)) {
			if (!in_comment && depth == 0 && line[0] == '[') {
				if (n) {
					scan_game(argv[f], ++game, have_fen ? fen : NULL, mv, n);
					n = 0;
					have_fen = 0;
				}
				if (!strncmp(line, "[FEN \"", 6)) {
					char *q = strchr(line + 6, '"');
					size_t l = q ? (size_t)(q - line - 6) : 0;
					if (l < sizeof(fen)) {
						memcpy(fen, line + 6, l);
						fen[l] = '\0';
						have_fen = 1;
					}
				}
				continue;
			}
			for (char *p = line; *p; p++) {
				if (in_comment) {
					if (*p == '}')
						in_comment = 0;
					continue;
				}
				if (*p == '{') {
					in_comment = 1;
					continue;
				}
				if (*p == '(') {
					depth++;
					continue;
				}
				if (*p == ')') {
					if (depth)
						depth--;
					continue;
				}
				if (depth || *p < 'a' || *p > 'i' || (p > line && p[-1] != ' ' && p[-1] != '.'))
					continue;
				if (p[1] >= '0' && p[1] <= '9' && p[2] >= 'a' && p[2] <= 'i' && p[3] >= '0' &&
				    p[3] <= '9' && (p[4] == ' ' || p[4] == '\r' || p[4] == '\n' || !p[4]) &&
				    n < 1024) {
					mv[n++] = XQI_MOVE(XQI_SQ(p[0] - 'a', p[1] - '0'), XQI_SQ(p[2] - 'a', p[3] - '0'));
					p += 3;
				}
			}
		}
		if (n)
			scan_game(argv[f], ++game, have_fen ? fen : NULL, mv, n);
		fclose(in);
	}
	return 0;
}

/*
 * Positions one move before `b`: the side that did not move in `b` takes
 * back a move of one of its pieces (optionally uncapturing a piece of the
 * other side's `uncapture` type, -1 for none).  Each predecessor is checked
 * strictly (validate) and the move must be legal in it.  Calls `fn` for each.
 */
static int retro(const struct xqi_position *b, int uncapture,
		 void (*fn)(const struct xqi_position *pred, xqi_move m, void *arg), void *arg)
{
	int mover = b->side ^ 1, count = 0;

	for (int id = XQI_SIDE_TAG(mover); id < XQI_SIDE_TAG(mover) + 16; id++) {
		xqi_sq to = b->pc[id];
		int type = XQI_KIND_TYPE(xqi_kind_of_id[id]);
		if (!to)
			continue;
		for (int f = 0; f < 9; f++)
			for (int r = 0; r < 10; r++) {
				xqi_sq from = XQI_SQ(f, r);
				struct xqi_position p;
				struct xq_diagnostic d;
				char fen[XQ_FEN_SIZE];
				if (b->sq[from])
					continue;
				/* Build the predecessor with the board API: clear and put. */
				xqi_position_clear(&p);
				for (int k = 16; k < 48; k++) {
					uint8_t kind = xqi_kind_of_id[k];
					xqi_sq s = k == id ? from : b->pc[k];
					if (b->pc[k] &&
					    xqi_position_put(&p, XQI_KIND_SIDE(kind), XQI_KIND_TYPE(kind), s, NULL))
						goto next;
				}
				if (uncapture >= 0 &&
				    xqi_position_put(&p, b->side, uncapture, to, NULL))
					goto next;
				p.side = (uint8_t)mover;
				p.key = xqi_position_compute_key(&p);
				xqi_diagnostic_init(&d);
				xqi_position_to_fen(&p, fen, sizeof(fen));
				if (xqi_position_from_fen(&p, fen, strlen(fen), 0, &d))
					goto next;
				if (xqi_move_check(&p, XQI_MOVE(from, to), &d))
					goto next;
				(void)type;
				fn(&p, XQI_MOVE(from, to), arg);
				count++;
			next:;
			}
	}
	return count;
}

struct retro_out {
	const char *id;
	int depth_left; /* further retro steps (pairs) to take */
	int moves;      /* mate distance of the positions printed at this level */
	int serial;
	int sample;     /* keep every sample-th candidate */
	const char *src;
};

static void retro_print(const struct xqi_position *pred, xqi_move m, void *arg);

/* The defender's move back, then the attacker's. */
static void retro_defender(const struct xqi_position *q, xqi_move m, void *arg)
{
	(void)m;
	retro(q, -1, retro_print, arg);
}

static void retro_print(const struct xqi_position *pred, xqi_move m, void *arg)
{
	struct retro_out *o = arg;
	char id[96];

	(void)m;
	o->serial++;
	if (o->sample > 1 && o->serial % o->sample)
		return;
	snprintf(id, sizeof(id), "%s_r%d_%d", o->id, o->moves, o->serial);
	print_candidate(id, pred, o->moves, o->src);
}

static int cmd_mates_retro(int argc, char **argv)
{
	struct xqi_position b;
	struct xq_diagnostic d;
	struct retro_out o;

	/* xq-search mates-retro ID FEN MOVES SAMPLE */
	if (argc != 5)
		return fprintf(stderr, "usage: xq-search mates-retro ID FEN MOVES SAMPLE\n"), 2;
	xqi_diagnostic_init(&d);
	if (xqi_position_from_fen(&b, argv[2], strlen(argv[2]), 0, &d))
		return fprintf(stderr, "bad FEN: %s\n", d.msg), 1;
	memset(&o, 0, sizeof(o));
	o.id = argv[1];
	o.moves = (int)strtol(argv[3], NULL, 10);
	o.sample = (int)strtol(argv[4], NULL, 10);
	o.src = "retro";
	if (xqi_position_status(&b) != XQ_STATE_PLAYING) {
		/* A terminal position: the mating move back (mate in 1). */
		if (o.moves != 1)
			return fprintf(stderr, "a mated position gives mate-in-1 predecessors\n"), 2;
		retro(&b, -1, retro_print, &o);
		for (int t = XQI_ADVISOR; t <= XQI_PAWN; t++)
			retro(&b, t, retro_print, &o);
	} else {
		/* A mate-in-(n-1) position, attacker to move: two plies back. */
		retro(&b, -1, retro_defender, &o);
	}
	return 0;
}

/* Read "id fen n src" lines and print each with the engine's verdict. */
static int cmd_verify(int argc, char **argv)
{
	struct common c;
	struct analyser an;
	char line[4096];
	int i = parse_common(argc, argv, &c);

	if (i < 0 || !c.engine)
		return fprintf(stderr, "usage: xq-search verify --engine PATH --depth D < candidates\n"), 2;
	if (open_analyser(&an, &c))
		return 3;
	while (fgets(line, sizeof(line), stdin)) {
		char *f[4] = {line, NULL, NULL, NULL}, *nl;
		struct xqi_position b;
		struct xq_diagnostic d;
		struct xqi_analysis a;
		char sc[XQI_SCORE_TEXT_MAX], mv[5];
		int k = 1;
		if ((nl = strchr(line, '\n')))
			*nl = '\0';
		for (char *p = line; *p && k < 4; p++)
			if (*p == '\t') {
				*p = '\0';
				f[k++] = p + 1;
			}
		if (k < 3)
			continue;
		xqi_diagnostic_init(&d);
		if (xqi_position_from_fen(&b, f[1], strlen(f[1]), 0, &d))
			continue;
		if (xqi_analyse(&an.a, &a, &b, NULL, 0, &c.lim, &d)) {
			fprintf(stderr, "%s: %s\n", f[0], d.msg);
			xqi_analyser_start_over(&an.a, &d);
			continue;
		}
		xqi_score_format(a.score, sc, sizeof(sc));
		printf("%s\t%s\t%s\t%s\t%s\t%s\n", f[0], f[1], f[2], f[3] ? f[3] : "", sc,
		       a.best ? (xqi_move_name(a.best, mv), mv) : "none");
		fflush(stdout);
	}
	close_analyser(&an);
	return 0;
}

/*
 * Can the side to move force, within `plies` plies (odd), a position where
 * the other side has no legal move?  Plain minimax over legal moves, with
 * no pruning and no repetition rule: a "board" mate.
 */
static int board_mate(struct xqi_position *b, int plies)
{
	xqi_move mine[XQ_MOVES_MAX];
	int n = xqi_gen_legal(b, mine);

	for (int i = 0; i < n; i++) {
		xqi_move theirs[XQ_MOVES_MAX];
		struct xqi_undo u;
		int k, all = 1;
		xqi_position_make(b, mine[i], &u);
		k = xqi_gen_legal(b, theirs);
		if (k == 0) {
			xqi_position_unmake(b, mine[i], &u);
			return 1;
		}
		if (plies >= 3)
			for (int j = 0; j < k && all; j++) {
				struct xqi_undo v;
				xqi_position_make(b, theirs[j], &v);
				all = board_mate(b, plies - 2);
				xqi_position_unmake(b, theirs[j], &v);
			}
		else
			all = 0;
		xqi_position_unmake(b, mine[i], &u);
		if (all)
			return 1;
	}
	return 0;
}

/* Read "id fen n source" lines; print "id fen n kind source" where kind is
 * "board" when the mate exists on the board within n moves, else "rule"
 * (it needs the repetition rules, for instance a perpetual check that
 * loses). */
static int cmd_classify(void)
{
	char line[4096];

	while (fgets(line, sizeof(line), stdin)) {
		char *f[4] = {line, NULL, NULL, NULL}, *nl;
		struct xqi_position b;
		struct xq_diagnostic d;
		int k = 1, n;
		if ((nl = strchr(line, '\n')))
			*nl = '\0';
		if (line[0] == '#') {
			printf("%s\n", line);
			continue;
		}
		for (char *p = line; *p && k < 4; p++)
			if (*p == '\t') {
				*p = '\0';
				f[k++] = p + 1;
			}
		if (k < 4)
			continue;
		xqi_diagnostic_init(&d);
		if (xqi_position_from_fen(&b, f[1], strlen(f[1]), 0, &d))
			continue;
		n = (int)strtol(f[2], NULL, 10);
		printf("%s\t%s\t%s\t%s\t%s\n", f[0], f[1], f[2], board_mate(&b, 2 * n - 1) ? "board" : "rule",
		       f[3]);
	}
	return 0;
}

/* ---- engine match ---------------------------------------------------------- */

/*
 * xq-search match --engine PATH --nodes N [--xq-depth D | --xq-nodes N]
 *                 --games G --openings FILE [--max-plies P]
 *
 * The built-in engine plays G games against the engine (one thread, a
 * fixed node count per move, hash cleared every move), colours alternating
 * and openings taken in turn from FILE (lines of ICCS moves).  Adjudicated
 * by the rules core: no legal move loses (checkmate or stalemate); at the
 * third occurrence of a position the repetition is judged by lib/rules.c
 * (Asian rules: perpetual check or chase loses, otherwise a draw); 120
 * plies without a capture, or P plies in all, is a draw.  One line per
 * game, then the score.
 */
struct opening {
	xqi_move moves[32];
	size_t n;
};

static int read_openings(const char *path, struct opening **out)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int n = 0, cap = 0;

	*out = NULL;
	if (!f)
		return perror(path), -1;
	while (fgets(line, sizeof(line), f)) {
		struct opening o;
		struct xqi_position b;
		char *tok = line;
		o.n = 0;
		if (line[0] == '#')
			continue;
		xqi_position_start(&b);
		for (;;) {
			char t[8];
			int len = 0;
			struct xqi_undo u;
			while (*tok == ' ' || *tok == '\t')
				tok++;
			while (tok[len] && tok[len] != ' ' && tok[len] != '\t' && tok[len] != '\n' && len < 7)
				len++;
			if (!len)
				break;
			memcpy(t, tok, (size_t)len);
			t[len] = '\0';
			tok += len;
			if (o.n >= 32 || parse_iccs(t, &o.moves[o.n]) || !xqi_move_is_legal(&b, o.moves[o.n])) {
				fprintf(stderr, "%s: bad opening move '%s'\n", path, t);
				fclose(f);
				return -1;
			}
			xqi_position_make(&b, o.moves[o.n++], &u);
		}
		if (!o.n)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			*out = realloc(*out, (size_t)cap * sizeof(**out));
			if (!*out)
				return fclose(f), -1;
		}
		(*out)[n++] = o;
	}
	fclose(f);
	return n;
}

enum outcome { WIN_RED, WIN_BLACK, DRAW, ABORTED };

static const char *const conduct_names[] = {
	"", "perpetual check", "perpetual chase", "perpetual mate threat", "forbidden mix of attacks",
};

static enum outcome play(struct xqi_analyser *red, const struct xqi_limit *rlim, struct xqi_analyser *black,
			 const struct xqi_limit *blim, const struct opening *op, int max_plies, char *why,
			 size_t whycap, xqi_move *moves, size_t *nmoves)
{
	struct xqi_position start, b;
	struct xqi_rules_track t;
	enum outcome r = DRAW;
	size_t n = 0;

	xqi_position_start(&start);
	b = start;
	if (xqi_rules_track_init(&t, &start, 2048, NULL)) {
		snprintf(why, whycap, "out of memory");
		return ABORTED;
	}
	for (;;) {
		struct xqi_analysis a;
		struct xq_diagnostic d;
		struct xqi_undo u;
		struct xqi_rules_probe p;
		xqi_move legal[XQ_MOVES_MAX], m;
		*nmoves = n;
		if (xqi_gen_legal(&b, legal) == 0) {
			snprintf(why, whycap, "%s", xqi_position_in_check(&b) ? "checkmate" : "stalemate");
			r = b.side == XQI_RED ? WIN_BLACK : WIN_RED;
			break;
		}
		/* With the root at the current position, a repetition decides at
		 * its third occurrence (rules.h, search_repeats). */
		xqi_rules_track_set_root(&t);
		if (n && xqi_rules_track_probe(&t, &b, &p) == 1) {
			if (p.limit) {
				snprintf(why, whycap, "120 plies without a capture");
				r = DRAW;
			} else if (p.verdict == XQ_RULING_DRAW) {
				snprintf(why, whycap, "repetition, draw");
				r = DRAW;
			} else {
				int loser = p.verdict == XQ_RULING_RED_LOSES ? XQI_RED : XQI_BLACK;
				snprintf(why, whycap, "%s by %s", conduct_names[p.conduct[loser] < 5 ? p.conduct[loser] : 0],
					 loser == XQI_RED ? "red" : "black");
				r = loser == XQI_RED ? WIN_BLACK : WIN_RED;
			}
			break;
		}
		if ((int)n >= max_plies || n >= 2000) {
			snprintf(why, whycap, "%d plies", (int)n);
			r = DRAW;
			break;
		}
		if (n < op->n) {
			m = op->moves[n];
		} else {
			xqi_diagnostic_init(&d);
			if (xqi_analyse(b.side == XQI_RED ? red : black, &a, &start, moves, n,
				       b.side == XQI_RED ? rlim : blim, &d)) {
				snprintf(why, whycap, "%s", d.msg);
				r = ABORTED;
				break;
			}
			m = a.best;
		}
		moves[n++] = m;
		xqi_position_make(&b, m, &u);
		xqi_rules_track_push(&t, &b, m, &u);
	}
	xqi_rules_track_release(&t);
	return r;
}

static int cmd_match(int argc, char **argv)
{
	struct common c;
	struct analyser xq, other;
	struct common xc;
	struct opening *ops = NULL;
	struct xqi_limit xlim = {0, 0, 0};
	const char *openings = NULL;
	int games = 24, max_plies = 300, nops, i = 1;
	int w = 0, dr = 0, l = 0, ab = 0;
	static xqi_move moves[2048];

	/* Our own options first, then the common ones. */
	memset(&c, 0, sizeof(c));
	for (; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--xq-depth"))
			xlim.depth = (int)strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--xq-nodes"))
			xlim.nodes = strtoull(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--games"))
			games = (int)strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--openings"))
			openings = argv[i + 1];
		else if (!strcmp(argv[i], "--max-plies"))
			max_plies = (int)strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--engine"))
			c.engine = argv[i + 1];
		else if (!strcmp(argv[i], "--nodes"))
			c.lim.nodes = strtoull(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--depth"))
			c.lim.depth = (int)strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--protocol"))
			c.proto = (enum xqi_protocol)xqi_protocol_from_name(argv[i + 1]);
		else
			return fprintf(stderr, "unknown option %s\n", argv[i]), 2;
	}
	if (!c.engine || !openings || (!c.lim.nodes && !c.lim.depth) || (!xlim.depth && !xlim.nodes))
		return fprintf(stderr, "usage: xq-search match --engine PATH --nodes N (--xq-depth D | "
				       "--xq-nodes N) --openings FILE [--games G] [--max-plies P]\n"),
		       2;
	nops = read_openings(openings, &ops);
	if (nops <= 0)
		return fprintf(stderr, "%s: no openings\n", openings), 2;
	memset(&xc, 0, sizeof(xc));
	if (open_analyser(&xq, &xc) || open_analyser(&other, &c))
		return 3;
	for (int g = 0; g < games; g++) {
		const struct opening *op = &ops[(g / 2) % nops];
		int xqi_red = g % 2 == 0;
		char why[XQ_MESSAGE_SIZE + 32], text[5];
		size_t n = 0;
		enum outcome r = play(xqi_red ? &xq.a : &other.a, xqi_red ? &xlim : &c.lim,
				      xqi_red ? &other.a : &xq.a, xqi_red ? &c.lim : &xlim, op, max_plies, why,
				      sizeof(why), moves, &n);
		const char *res = r == WIN_RED ? "1-0" : r == WIN_BLACK ? "0-1" : r == DRAW ? "1/2-1/2" : "*";
		if (r == ABORTED) {
			ab++;
			xqi_analyser_start_over(&other.a, NULL);
		} else if (r == DRAW) {
			dr++;
		} else if ((r == WIN_RED) == xqi_red) {
			w++;
		} else {
			l++;
		}
		printf("game %2d  built-in plays %-5s  %-7s  %3zu plies  %-28s ", g + 1, xqi_red ? "red" : "black", res,
		       n, why);
		for (size_t k = 0; k < n; k++) {
			xqi_move_name(moves[k], text);
			printf("%s%s", k ? " " : "", text);
		}
		printf("\n");
		fflush(stdout);
	}
	printf("built-in vs %s: +%d =%d -%d (%d aborted): %.1f / %d = %.1f%%\n", xqi_analyser_name(&other.a), w,
	       dr, l, ab, w + dr * 0.5, w + dr + l, w + dr + l ? 100.0 * (w + dr * 0.5) / (w + dr + l) : 0.0);
	close_analyser(&xq);
	close_analyser(&other);
	free(ops);
	return 0;
}

/*
 * xq-search uci: the built-in engine behind a minimal UCI loop (ranks 0-9,
 * as Pikafish), so that bench/match.sh can set one build of it against
 * another through the engine client.  Understands uci, isready,
 * ucinewgame, position fen F [moves ...] / startpos, go depth|nodes|movetime,
 * quit.
 */
static int cmd_uci(void)
{
	struct xqi_search *s;
	struct xq_diagnostic d;
	struct xqi_position start;
	static xqi_move moves[1024];
	size_t n = 0;
	char line[65536];

	xqi_diagnostic_init(&d);
	if (xqi_search_new(&s, NULL, &d))
		return fprintf(stderr, "%s\n", d.msg), 3;
	xqi_position_start(&start);
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (fgets(line, sizeof(line), stdin)) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (!strcmp(line, "uci")) {
			printf("id name xqkit built-in\nuciok\n");
		} else if (!strcmp(line, "isready")) {
			printf("readyok\n");
		} else if (!strncmp(line, "position ", 9)) {
			char *p = line + 9, *mv = strstr(line, " moves ");
			n = 0;
			if (mv)
				*mv = '\0';
			if (!strncmp(p, "fen ", 4)) {
				if (xqi_position_from_fen(&start, p + 4, strlen(p + 4), XQI_FEN_LENIENT_PLACEMENT, &d))
					return fprintf(stderr, "bad FEN: %s\n", d.msg), 1;
			} else {
				xqi_position_start(&start);
			}
			for (char *t = mv ? strtok_r(mv + 7, " ", &p) : NULL; t && n < 1024; t = strtok_r(NULL, " ", &p))
				if (parse_iccs(t, &moves[n++]))
					return fprintf(stderr, "bad move %s\n", t), 1;
		} else if (!strncmp(line, "go", 2)) {
			struct xqi_limit lim = {0, 0, 0};
			struct xqi_analysis a;
			char *v;
			char mvt[5];
			if ((v = strstr(line, "depth ")))
				lim.depth = (int)strtol(v + 6, NULL, 10);
			if ((v = strstr(line, "nodes ")))
				lim.nodes = strtoull(v + 6, NULL, 10);
			if ((v = strstr(line, "movetime ")))
				lim.movetime_ms = (uint32_t)strtoul(v + 9, NULL, 10);
			if (xqi_search_run(s, &a, &start, moves, n, &lim, &d))
				return fprintf(stderr, "%s\n", d.msg), 1;
			if (a.score.kind == XQ_EVAL_CP)
				printf("info depth %d nodes %llu time %u score cp %d pv", a.depth,
				       (unsigned long long)a.nodes, a.time_ms, (int)a.score.value);
			else
				printf("info depth %d nodes %llu time %u score mate %d pv", a.depth,
				       (unsigned long long)a.nodes, a.time_ms,
				       a.score.kind == XQ_EVAL_MATE ? (int)a.score.value : -(int)a.score.value);
			for (size_t k = 0; k < a.pv_len; k++) {
				xqi_move_name(a.pv[k], mvt);
				printf(" %s", mvt);
			}
			if (a.best)
				xqi_move_name(a.best, mvt);
			printf("\nbestmove %s\n", a.best ? mvt : "(none)");
		} else if (!strcmp(line, "quit")) {
			break;
		}
	}
	xqi_search_free(s);
	return 0;
}

/* xq-search fen ICCS...: the FEN after these moves from the start. */
static int cmd_fen(int argc, char **argv)
{
	struct xqi_position b;
	struct xq_diagnostic d;
	char fen[XQ_FEN_SIZE];

	xqi_position_start(&b);
	for (int i = 1; i < argc; i++) {
		xqi_move m;
		struct xqi_undo u;
		xqi_diagnostic_init(&d);
		if (parse_iccs(argv[i], &m) || xqi_move_check(&b, m, &d))
			return fprintf(stderr, "move %d (%s): %s\n", i, argv[i], d.msg), 1;
		xqi_position_make(&b, m, &u);
	}
	xqi_position_to_fen(&b, fen, sizeof(fen));
	printf("%s\n", fen);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "uci"))
		return cmd_uci();
	if (argc >= 2 && !strcmp(argv[1], "fen"))
		return cmd_fen(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "match"))
		return cmd_match(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "classify"))
		return cmd_classify();
	if (argc >= 2 && !strcmp(argv[1], "mates-games"))
		return cmd_mates_games(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "mates-retro"))
		return cmd_mates_retro(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "verify"))
		return cmd_verify(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "go"))
		return cmd_go(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "bench"))
		return cmd_bench(argc - 1, argv + 1);
	fprintf(stderr, "usage: xq-search go|bench ...\n");
	return 2;
}
