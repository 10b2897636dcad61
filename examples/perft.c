/*
 * perft: count the leaves of the legal move tree of a position (the
 * start, or a FEN) to a depth, with the count under each first move
 * written in Chinese notation.
 *
 *   ./perft 3
 *   ./perft 2 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w'
 */
#include <stdio.h>
#include <stdlib.h>

#include <xq/xq.h>

int main(int argc, char **argv)
{
	xq_position *p = xq_position_new();
	xq_move_code moves[XQ_MOVES_MAX];
	int depth = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 3, n;
	unsigned long long total = 0;

	if (!p || depth < 1)
		return 2;
	if (argc > 2 && xq_position_set_fen(p, argv[2]) != 0) {
		fprintf(stderr, "perft: %s\n", xq_diagnostic_message(xq_position_error(p)));
		xq_position_free(p);
		return 1;
	}
	n = xq_position_legal_moves(p, moves);
	for (int i = 0; i < n; i++) {
		char text[XQ_MOVE_TEXT_SIZE];
		xq_position *next = xq_position_dup(p);
		unsigned long long count;
		xq_position_move_text(p, moves[i], XQ_DIALECT_CHINESE, 0, text, sizeof(text));
		xq_position_play(next, moves[i]);
		count = (unsigned long long)xq_position_perft(next, depth - 1);
		printf("%s %llu\n", text, count);
		total += count;
		xq_position_free(next);
	}
	printf("total %llu (perft %llu)\n", total, (unsigned long long)xq_position_perft(p, depth));
	xq_position_free(p);
	return 0;
}
