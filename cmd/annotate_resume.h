/*
 * annotate_resume.h: `annotate --resume`, reading the output of an
 * earlier run game by game, in step with the inputs.
 *
 * An annotated game carries a marker (the ANNOTATE_MARKER_TAG tag in PGN,
 * the "marker" member of the xqkit.annotated/1 record in NDJSON) made of
 * the settings it was annotated with and a fingerprint of the input game
 * (annotate_game.h).  The earlier output holds games in input order, so
 * its k-th game is compared with the k-th game to be written now:
 *   - same marker, and the game whole there: the game is copied from the
 *     earlier output.  Whole: in PGN its main line as long as the input
 *     game's and its move text ended by its result; in NDJSON its
 *     xqkit.annotated/1 line there, ended by its newline.  An output cut
 *     short (killed, power lost) ends inside its last game, which is so
 *     analysed again, never copied as finished;
 *   - same input game (fingerprint), other settings or an incomplete
 *     annotation: the game is analysed again;
 *   - anything else (another game, the end of the earlier output): the
 *     inputs are not what the earlier run read, so every game from there
 *     on is analysed.
 * Memory stays flat: one game (PGN) or its lines (NDJSON) at a time.
 */
#ifndef CMD_ANNOTATE_RESUME_H
#define CMD_ANNOTATE_RESUME_H

#include <stdint.h>

#include "inputs.h"
#include "report.h"
#include <xq/buf.h>
#include <xq/io.h>
#include <xq/record.h>

enum {
	RESUME_NONE, /* not in step (or the earlier output is at its end): analyse */
	RESUME_REDO, /* in step, but annotated otherwise or incompletely: analyse; the
			earlier version is in r->game or r->lines */
	RESUME_COPY  /* annotated the same way: the game to write is r->game or r->lines */
};

struct resume {
	int active;            /* still in step with the earlier output */
	int ndjson;
	int opened;
	/* PGN */
	xq_reader *rd;         /* the earlier output, read as PGN */
	xq_record *game;       /* its current game (NULL before the first, and at its end) */
	int peeked;            /* game holds the first game, not yet handed out */
	/* NDJSON */
	xq_stream *src;        /* the earlier output, read line by line */
	struct xq_buf buf;     /* bytes read and not yet taken */
	size_t used;
	int eof;
	struct xq_buf lines;   /* the current game's lines */
	/* what happened */
	uint64_t seen;         /* games of the earlier output looked at */
	char why[300];         /* why it stopped being in step ("" while in step or at its end) */
	struct diag_list diags; /* what reading it reported (not shown) */
};

/*
 * Open the earlier output `path` (NDJSON lines with `ndjson`, else PGN).
 * Returns 0, or a negative XQ_E* code with the reason in `why` (`cap` bytes): among them
 * XQ_EUNSUPPORTED for a file that does not start with a game annotate
 * wrote in that format (so that --resume never replaces a collection it
 * did not make).
 */
int resume_open(struct resume *r, const char *path, int ndjson, char *why, size_t cap);

/*
 * Look at the earlier output's next game for the input game numbered
 * `game` in `file`, whose complete marker would be `marker`, whose
 * fingerprint is `fingerprint` and whose main line is `plies` long.  See
 * the RESUME_* values; r->game or r->lines hold the earlier version until
 * the next call.
 */
int resume_next(struct resume *r, const char *marker, uint64_t fingerprint, const char *file,
		uint64_t game, uint32_t plies);

void resume_close(struct resume *r);

/*
 * The games an earlier output holds, as keys, for the workers: a game
 * whose key is not there is never copied, so it is analysed at once; one
 * whose key is there is most likely copied, so it is left for the output
 * side, where resume_next() decides in input order.  A key is a 64-bit
 * hash of the complete marker (PGN) or of the xqkit.annotated/1 record's
 * file, game and marker (NDJSON): eight bytes per game of the earlier
 * output.
 */
struct resume_index {
	uint64_t *keys;   /* sorted */
	size_t n, alloc;
};

/* Read the whole earlier output `path` for its keys.  0, or XQ_ENOMEM
 * (the index then holds what was read); a file that cannot be read gives
 * no key. */
int resume_index_build(struct resume_index *ix, const char *path, int ndjson);
int resume_index_has(const struct resume_index *ix, uint64_t key);
void resume_index_release(struct resume_index *ix);

/* The key of game `game` of `file` whose complete marker is `marker`. */
uint64_t resume_key(int ndjson, const char *marker, const char *file, uint64_t game);

#endif
