/*
 * ecco_tags.h: the ECCO, Opening and Variation tags of a game against its
 * classification (<xq/ecco.h>), the one way `convert --ecco` sets them and
 * `validate` checks them.
 */
#ifndef CMD_ECCO_TAGS_H
#define CMD_ECCO_TAGS_H

#include <xq/batch.h>

/* A game's opening: static strings (xq_record_ecco()). */
struct ecco_opening {
	const char *code;      /* "C45" */
	const char *opening;   /* the opening's name */
	const char *variation; /* the variation's, "" when the code has none */
};

/*
 * The classification of the game of `j` into *out: 1, or 0 when the game
 * cannot be classified: a broken game whose start could not be read, or
 * whose main line stops at its error before the plies that decide its
 * opening are read.
 */
int ecco_tags_classify(const xq_batch_job *j, struct ecco_opening *out);

/*
 * convert --ecco: set the ECCO, Opening and Variation tags of the game of
 * `j` to its classification (the first tag of each name keeps its place;
 * later ones of the same name are removed; Variation is removed when the
 * code has none).  A code that changes is a note at the old tag's place
 * naming the old and the new code.  A game that cannot be classified is
 * left as it is.  Returns 0 or XQ_ENOMEM.
 */
int ecco_tags_set(xq_batch_job *j);

/*
 * validate: an ECCO tag that is not the code the game classifies as is a
 * warning at the tag, always (a wrong code is wrong data, as a wrong
 * Result is); with `note_missing` (--ecco) a game without one also gets a
 * note naming the code it would have.  Codes written by other programs
 * disagree with the published classification on some games (16 of the
 * 1,017 coded games of the shared corpus): `convert --ecco` rewrites
 * them, and `--fail-on error` keeps such warnings from failing a run.
 */
void ecco_tags_check(xq_batch_job *j, int note_missing);

#endif
