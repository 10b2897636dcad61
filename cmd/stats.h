/*
 * stats.h: what the parts of `xqkit stats` share (stats.c says what the
 * command does).  One job a file, each calling only those listed below it:
 *   stats.c        the command: its options, the run, what a game adds
 *                  (on the worker that read it) and where it is counted
 *                  (on the output thread), the summary;
 *   stats_by.c     --by KEY: a game's keys, the rows they count in, the
 *                  table written as text, TSV or NDJSON;
 *   stats_tree.c   --tree: the moves a game played from the position, the
 *                  edges they count in, the tree walked and written;
 *   stats_book.c   --book: the opening book file;
 *   stats_index.c  the one hash index, of rows and of edges;
 *   stats_text.c   what the writers share: dates, cells, a score.
 */
#ifndef CMD_STATS_H
#define CMD_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "inputs.h"
#include "report.h"
#include <xq/batch.h>
#include <xq/buf.h>
#include <xq/ecco.h>
#include <xq/position.h>

#define TREE_MAX_DEPTH 40
#define ECCO_PLIES XQ_ECCO_PLIES /* the plies that decide an opening */

enum by_key { BY_ECCO, BY_OPENING, BY_PLAYER, BY_EVENT, BY_YEAR, BY_TAG };
enum out_fmt { OUT_TEXT, OUT_TSV, OUT_NDJSON };

/* A game's result, as a job carries it. */
enum { RES_NONE = 0, RES_RED_WINS = 1, RES_BLACK_WINS = 2, RES_DRAW = 3 };

/* What a job carries from the worker to the output thread (xq_batch_job.flags). */
enum {
	J_RESULT = 7,      /* RES_* */
	J_BROKEN = 1 << 3,
	J_FOUND = 1 << 4,  /* --tree: the game reached the position */
	J_OUT = 1 << 5     /* --ecco: not one of the openings asked for */
};

/* One row of a table. */
struct row {
	char *key;          /* the value, NUL-terminated; BY_ECCO: "C45\x1fname" */
	size_t len;
	uint64_t hash;
	uint64_t games, broken, win, draw, loss, no_result; /* win/loss: Red's (a player's) */
	uint64_t plies, plied; /* plies of the games that are not broken, and how many */
	uint32_t first, last;  /* dates (stats_date_value), 0: none */
};

/* One move played from one position (--tree). */
struct edge {
	uint64_t pos;          /* Zobrist key of the position */
	uint32_t games, red, draw, black, dated;
	double date_sum;       /* in years */
	xq_move_code move;
	int16_t ecco;          /* --fen: code index of the first game's line, -1: none */
	uint8_t side;          /* to move at pos: 0 red, 1 black */
	uint8_t shown;         /* lowest depth it was expanded at (0: never) */
};

struct tree_job {
	uint32_t n;
	uint32_t start_ply;    /* where the game reached the position */
	struct {
		uint64_t pos;
		xq_move_code move;
	} e[TREE_MAX_DEPTH];
};

struct sctx {
	struct input_opts in;
	struct reporter rep;
	enum by_key by;
	const char *tag;       /* BY_TAG */
	const char *by_text;
	enum out_fmt out;
	long top;              /* 0: all */
	int tree;
	int ecco;              /* --ecco given */
	xq_ecco_codes *codes;
	const char *fen, *moves;
	int depth;
	const char *book;
	int force;
	xq_position *root;     /* --tree */
	int root_pieces;       /* pieces on the root's board */
	xq_move_code root_line[ECCO_PLIES]; /* the first --moves (for ECCO) */
	size_t root_plies;
	char root_fen[XQ_FEN_SIZE];
	xq_position *scratch;  /* the output thread's (edge_ecco, line_ecco) */
	/* the table */
	struct row *rows;
	size_t nrows, rows_alloc;
	uint32_t *slots;       /* open addressing: row or edge index + 1, 0 empty */
	size_t nslots;
	/* the tree */
	struct edge *edges;
	size_t nedges, edges_alloc;
	uint64_t root_games, root_red, root_draw, root_black;
	/* totals */
	uint64_t games, broken, no_result, left_out;
	int nomem;
	size_t shown; /* the rows of the table written (--top may show fewer) */
	int stopped;  /* a signal or no memory: not every game was counted */
};

/* ---- the writers' helpers (stats_text.c) ------------------------------------------- */

/*
 * A Date tag as YYYYMMDD with 0 for the parts not known (2006.08.??:
 * 20060800), or 0 when even the year is not: YYYY, YYYY.MM, YYYY.MM.DD
 * with '.', '-' or '/', or 2006年8月19日.
 */
uint32_t stats_date_value(const char *s);
/* A date value as YYYY.MM.DD, as far as it is known ("-" for none). */
void stats_add_date(struct xq_buf *b, uint32_t v);
/* A date as a year with its fraction (the middle of what is not known). */
double stats_date_years(uint32_t v);
/* Columns on a terminal: East Asian wide characters take two. */
size_t stats_text_width(const char *s, size_t len);
/* `n` spaces. */
void stats_pad(struct xq_buf *b, size_t n);
/* A cell of text, left-aligned in `width` columns (control characters and
 * bytes that are not UTF-8 written as \xNN). */
void stats_cell(struct xq_buf *b, const char *s, size_t len, size_t width);
/* The score of wins, draws and losses, in percent. */
double stats_score(uint64_t win, uint64_t draw, uint64_t loss);

/* ---- the index (stats_index.c) ------------------------------------------------------ */

/* The row of `key`, made when new; NULL when memory ran out. */
struct row *stats_row_of(struct sctx *c, const char *key, size_t len);
/* The edge of `move` from `pos`, made when new (*made set); NULL when
 * memory ran out. */
struct edge *stats_edge_of(struct sctx *c, uint64_t pos, xq_move_code move, int *made);

/* ---- the book (stats_book.c) -------------------------------------------------------- */

/* The book file, before anything is read: never an input, never an
 * existing file without --force.  0, or an exit status. */
int stats_plan_book(struct sctx *c, struct inputs *inputs);
/* The book's line of edge `e`, whose position is `fen` (cut after the
 * side to move) and move `iccs`. */
void stats_book_line(struct xq_buf *book, const struct edge *e, char *fen, const char *iccs);
/* The book file: its head, then the lines of `book`.  0 or an exit status. */
int stats_write_book(struct sctx *c, const struct xq_buf *book);

/* ---- --tree (stats_tree.c) ---------------------------------------------------------- */

int stats_count_pieces(const xq_position *b);
/* On the worker: the moves the game's main line played from the first
 * time it reached the position, as deep as --depth, each (position,
 * move) once, into the job's tree_job.  `b` is the worker's own position. */
void stats_tree_process(struct sctx *c, xq_batch_job *j, xq_position *b);
/* On the output thread: the job's moves counted in their edges. */
void stats_tree_emit(struct sctx *c, const xq_batch_job *j);
/* The tree, from the root to --depth.  0 or an exit status. */
int stats_write_tree(struct sctx *c);

/* ---- --by (stats_by.c) -------------------------------------------------------------- */

/* On the worker: the job's keys, each NUL-terminated, in j->text. */
void stats_table_process(struct sctx *c, xq_batch_job *j);
/* On the output thread: the job counted in the rows of its keys. */
void stats_table_emit(struct sctx *c, const xq_batch_job *j);
/* The table, sorted by count; returns the rows shown. */
size_t stats_write_table(struct sctx *c);

#endif
