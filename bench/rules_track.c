/*
 * rules_track.c: what the rules cost a search, and what the analysis of a
 * game costs.
 *
 *   rules_track plain DEPTH [FEN]     walk the legal move tree DEPTH plies
 *                                     deep with make/unmake only
 *   rules_track track DEPTH [FEN]     the same walk with xqi_rules_track_push,
 *                                     _probe and _pop at every node
 *   rules_track analyze FILE FENCOL MOVESCOL TIMES
 *                                     xqi_rules_analyze every line of a TSV
 *                                     file (columns 1-based, '#' comments)
 *                                     TIMES times under both rule sets
 *
 * Both walks visit exactly the same nodes (a decided repetition is counted
 * but not cut), so the whole-process time of `track` over `plain`, divided
 * by the node count printed, is the cost per node of the track.  Built by
 * `make bench-tools` into build/bench/.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "position.h"
#include "diagnostic.h"
#include "movegen.h"
#include "rules.h"

struct walk {
	struct xqi_position b;
	struct xqi_rules_track t;
	int use_track;
	unsigned long long nodes, hits, limits;
};

static void visit(struct walk *w, int depth)
{
	xqi_move moves[XQ_MOVES_MAX];
	int n;

	if (depth == 0)
		return;
	n = xqi_gen_legal(&w->b, moves);
	for (int i = 0; i < n; i++) {
		struct xqi_undo u;
		xqi_position_make(&w->b, moves[i], &u);
		w->nodes++;
		if (w->use_track) {
			struct xqi_rules_probe p;
			if (xqi_rules_track_push(&w->t, &w->b, moves[i], &u)) {
				fprintf(stderr, "track full\n");
				exit(1);
			}
			if (xqi_rules_track_probe(&w->t, &w->b, &p) == 1) {
				w->hits++;
				w->limits += p.limit;
			}
		}
		visit(w, depth - 1);
		if (w->use_track)
			xqi_rules_track_pop(&w->t);
		xqi_position_unmake(&w->b, moves[i], &u);
	}
}

static int walk_main(int use_track, int depth, const char *fen)
{
	struct walk w;
	struct xq_diagnostic d;

	memset(&w, 0, sizeof(w));
	xqi_diagnostic_init(&d);
	if (xqi_position_from_fen(&w.b, fen, strlen(fen), 0, &d)) {
		fprintf(stderr, "bad FEN: %s\n", d.msg);
		return 2;
	}
	w.use_track = use_track;
	if (use_track && xqi_rules_track_init(&w.t, &w.b, (size_t)depth + 1, NULL)) {
		fprintf(stderr, "out of memory\n");
		return 3;
	}
	visit(&w, depth);
	printf("nodes %llu", w.nodes);
	if (use_track)
		printf(" decided %llu (limit %llu)", w.hits, w.limits);
	printf("\n");
	if (use_track)
		xqi_rules_track_release(&w.t);
	return 0;
}

/* Field `col` (1-based) of a tab-separated line, NUL-terminated in place. */
static char *field(char *line, int col)
{
	for (int c = 1; c < col && line; c++) {
		line = strchr(line, '\t');
		if (line)
			line++;
	}
	if (line) {
		char *end = strpbrk(line, "\t\n");
		if (end)
			*end = '\0';
	}
	return line;
}

static int analyze_main(const char *path, int fencol, int movescol, int times)
{
	static char buf[1 << 16];
	FILE *f = fopen(path, "r");
	size_t games = 0, plies = 0, cycles = 0;

	if (!f) {
		perror(path);
		return 3;
	}
	while (fgets(buf, sizeof(buf), f)) {
		char copy[sizeof(buf)], *fen, *mv;
		struct xqi_position b;
		static xqi_move moves[4096];
		size_t n = 0;

		if (buf[0] == '#' || buf[0] == '\n')
			continue;
		memcpy(copy, buf, sizeof(buf));
		fen = field(buf, fencol);
		mv = field(copy, movescol);
		if (!fen || !mv || xqi_position_from_fen(&b, fen, strlen(fen), XQI_FEN_LENIENT_PLACEMENT,
						     NULL))
			continue;
		for (char *p = mv; p[0] && p[1] && p[2] && p[3] && n < 4096; p += 4) {
			while (*p == ' ')
				p++;
			if (!p[0])
				break;
			moves[n++] = XQI_MOVE(XQI_SQ(p[0] - 'a', p[1] - '0'),
					     XQI_SQ(p[2] - 'a', p[3] - '0'));
		}
		for (int k = 0; k < times; k++)
			for (int rs = XQ_RULESET_ASIAN; rs <= XQ_RULESET_CHINESE; rs++) {
				struct xqi_rules_options o = XQI_RULES_OPTIONS_INIT;
				struct xqi_rules_report r;
				o.rules = (enum xq_ruleset)rs;
				xqi_rules_report_init(&r);
				xqi_rules_analyze(&r, &b, moves, n, &o, NULL);
				cycles += r.ncycles;
				plies += r.nplies;
				xqi_rules_report_release(&r);
			}
		games++;
	}
	fclose(f);
	printf("games %zu analyses %zu plies %zu cycles %zu\n", games, games * 2 * (size_t)times,
	       plies, cycles);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && (!strcmp(argv[1], "plain") || !strcmp(argv[1], "track")))
		return walk_main(!strcmp(argv[1], "track"), (int)strtol(argv[2], NULL, 10),
				 argc > 3 ? argv[3] : XQI_START_FEN);
	if (argc == 6 && !strcmp(argv[1], "analyze"))
		return analyze_main(argv[2], (int)strtol(argv[3], NULL, 10),
				    (int)strtol(argv[4], NULL, 10), (int)strtol(argv[5], NULL, 10));
	fprintf(stderr, "usage: rules_track plain|track DEPTH [FEN]\n"
			"       rules_track analyze FILE FENCOL MOVESCOL TIMES\n");
	return 2;
}
