/*
 * stats_book.c: `xqkit stats --tree --book OUT` (stats.h): where the book
 * may be written (checked before anything is read), a line of it for each
 * move of the tree, and the file, written whole or not at all.  Calls no
 * other part of stats.
 */
#include <string.h>

#include "cmd.h"
#include "inputs.h"
#include "report.h"
#include "stats.h"
#include <xq/file.h>

#define BOOK_MAGIC "# xqkit-book/1"

/* The book file, before anything is read: never an input, never an
 * existing file without --force.  0, or an exit status. */
int stats_plan_book(struct sctx *c, struct inputs *inputs)
{
	struct report_message m = {""};

	if (c->book && (inputs_guard(inputs, c->book, report_keep_message, &m) ||
			xq_file_check(c->book, c->force ? XQ_WRITE_FORCE : 0, report_keep_message,
				      &m) < 0))
		return cmd_usage_error("stats", "%s", m.msg);
	return 0;
}

/* The book's line of edge `e`: the position as `fen` gives it (the board
 * and the side: the position, not how it was reached; `fen` is cut
 * there), the move, its weight and its counts for the side to move. */
void stats_book_line(struct xq_buf *book, const struct edge *e, char *fen, const char *iccs)
{
	char *sp = strchr(fen, ' ');
	uint32_t win = e->side == 0 ? e->red : e->black;
	uint32_t loss = e->side == 0 ? e->black : e->red;

	if (sp && (sp = strchr(sp + 1, ' ')))
		*sp = '\0';
	xq_buf_addf(book, "%s\t%s\t%llu\t%u\t%u\t%u\t%u\n", fen, iccs,
		    2ull * win + e->draw, e->games, win, e->draw, loss);
}

int stats_write_book(struct sctx *c, const struct xq_buf *book)
{
	xq_file *o;
	struct report_message m = {""};
	struct xq_buf head = XQ_BUF_INIT;

	if (xq_file_open(&o, c->book, c->force ? XQ_WRITE_FORCE : 0, report_keep_message, &m)) {
		cmd_error("%s", m.msg);
		return CMD_EXIT_IO;
	}
	xq_buf_addf(&head, BOOK_MAGIC "\n# from %s, %d plies deep: %llu games\n"
			   "# position\tmove\tweight\tgames\twins\tdraws\tlosses\n",
		    c->root_fen, c->depth, (unsigned long long)c->root_games);
	if (xq_buf_error(&head) || xq_buf_error(book) ||
	    xq_file_write(o, head.ptr, head.len) || xq_file_write(o, book->ptr, book->len)) {
		xq_file_abort(o);
		xq_buf_release(&head);
		cmd_error("cannot write '%s'", c->book);
		return CMD_EXIT_IO;
	}
	xq_buf_release(&head);
	if (xq_file_commit(o, report_keep_message, &m)) {
		cmd_error("%s", m.msg);
		return CMD_EXIT_IO;
	}
	return 0;
}
