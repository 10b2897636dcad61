/*
 * notation_write.c: how fast moves are written in each dialect, for
 * converting millions of moves.  Reads the games of an ICCS PGN file,
 * then REPS times replays every game on one board, writing each move in
 * MODE before making it, as a converter does.  Two reference modes run
 * the same replay without writing: `none` (making the moves alone) and
 * `legal` (generating every legal move of each position instead, the cost
 * a reader pays anyway to check a game).  Time whole runs of two modes
 * against each other; the difference over REPS x moves is the cost of one
 * write.
 *
 * Usage: notation_write MODE FILE REPS
 *   MODE: none legal iccs uci1 wxf chinese chinese-trad-dpxq
 *         iccs-trusted wxf-trusted chinese-trusted (XQI_DIALECT_KNOWN_LEGAL)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "position.h"
#include "movegen.h"
#include "notation.h"

static int is_coord(const char *t, size_t n)
{
	return n == 4 && t[0] >= 'a' && t[0] <= 'i' && t[1] >= '0' && t[1] <= '9' && t[2] >= 'a' &&
	       t[2] <= 'i' && t[3] >= '0' && t[3] <= '9';
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		enum xq_dialect dialect;
		unsigned flags;
	} modes[] = {
		{"none", XQ_DIALECT_AUTO, 0},
		{"legal", XQ_DIALECT_AUTO, 0},
		{"iccs", XQ_DIALECT_ICCS, 0},
		{"uci1", XQ_DIALECT_UCI1, 0},
		{"wxf", XQ_DIALECT_WXF, 0},
		{"chinese", XQ_DIALECT_CHINESE, 0},
		{"chinese-trad-dpxq", XQ_DIALECT_CHINESE,
		 XQ_DIALECT_TRADITIONAL | XQ_DIALECT_DPXQ_PAWNS},
		/* The caller vouches for the moves, as a converter that just read them can. */
		{"iccs-trusted", XQ_DIALECT_ICCS, XQI_DIALECT_KNOWN_LEGAL},
		{"wxf-trusted", XQ_DIALECT_WXF, XQI_DIALECT_KNOWN_LEGAL},
		{"chinese-trusted", XQ_DIALECT_CHINESE, XQI_DIALECT_KNOWN_LEGAL},
	};
	xqi_move *moves = NULL; /* every game's moves, each game ended by a 0 */
	size_t n = 0, cap = 0, mode = 0, total = 0;
	unsigned long checksum = 0;
	struct xqi_position b;
	char word[64];
	FILE *f;
	long reps;

	if (argc != 4) {
		fprintf(stderr, "usage: %s MODE FILE REPS\n", argv[0]);
		return 2;
	}
	while (mode < sizeof(modes) / sizeof(modes[0]) && strcmp(modes[mode].name, argv[1]))
		mode++;
	reps = strtol(argv[3], NULL, 10);
	if (mode == sizeof(modes) / sizeof(modes[0]) || reps <= 0) {
		fprintf(stderr, "%s: unknown mode or bad count\n", argv[0]);
		return 2;
	}
	f = fopen(argv[2], "r");
	if (!f) {
		perror(argv[2]);
		return 3;
	}
	xqi_position_start(&b);
	while (fscanf(f, "%63s", word) == 1) {
		struct xqi_undo u;
		xqi_move m;
		int game = !strncmp(word, "[Event", 6);
		if (!game && (!is_coord(word, strlen(word)) ||
			      xqi_notation_read(&m, &b, word, 4, XQ_DIALECT_ICCS, NULL) != 0))
			continue;
		if (n + 2 > cap) {
			cap = cap ? 2 * cap : 4096;
			moves = realloc(moves, cap * sizeof(*moves));
			if (!moves)
				return 3;
		}
		if (game) {
			if (n && moves[n - 1])
				moves[n++] = 0;
			xqi_position_start(&b);
			continue;
		}
		moves[n++] = m;
		xqi_position_make(&b, m, &u);
	}
	fclose(f);
	if (n && moves[n - 1])
		moves[n++] = 0;
	for (long r = 0; r < reps; r++) {
		xqi_position_start(&b);
		for (size_t i = 0; i < n; i++) {
			char out[XQ_MOVE_TEXT_SIZE];
			xqi_move list[XQ_MOVES_MAX];
			struct xqi_undo u;
			if (!moves[i]) {
				xqi_position_start(&b);
				continue;
			}
			if (mode == 1)
				checksum += (unsigned long)xqi_gen_legal(&b, list);
			else if (mode > 1)
				checksum += xqi_notation_write(out, sizeof(out), &b, moves[i],
							      modes[mode].dialect, modes[mode].flags);
			xqi_position_make(&b, moves[i], &u);
			total++;
		}
	}
	printf("%s: %zu moves written, checksum %lu\n", modes[mode].name, total, checksum);
	free(moves);
	return 0;
}
