/*
 * ecco_tags.c: the ECCO tags of a game against its classification (see
 * ecco_tags.h).
 */
#include <string.h>

#include "diagplace.h"
#include "ecco_tags.h"
#include "game.h"

const struct xq_ecco *ecco_tags_classify(const struct pool_job *j)
{
	const struct xq_game *g = j->game;
	const struct xq_ecco *e = NULL;

	if ((g->flags & XQ_GAME_BROKEN) &&
	    (g->start_text || xq_game_mainline_length(g) < XQ_ECCO_PLIES))
		return NULL;
	if (xq_ecco_classify_game(&e, g, NULL))
		return NULL; /* the tree holds legal moves only: cannot happen */
	return e;
}

/* Set the first tag `name` to `value` where it stands and drop any later
 * one; an empty value removes them all. */
static int set_one(struct xq_game *g, const char *name, const char *value)
{
	const char *v = NULL;
	size_t k = 0;

	if (!*value) {
		xq_game_remove_tag(g, name);
		return 0;
	}
	for (size_t i = 0; i < g->ntags; i++) {
		if (!strcmp(g->tags[i].name, name)) {
			if (v)
				continue; /* a repeated tag: the first one counts */
			if (!(v = xq_game_strdup(g, value, strlen(value))))
				return XQ_ENOMEM;
			g->tags[i].value = v;
		}
		g->tags[k++] = g->tags[i];
	}
	g->ntags = k;
	return v ? 0 : xq_game_add_tag(g, name, strlen(name), value, strlen(value));
}

/* Is the tag's value the code `code` (spaces around it allowed)? */
static int same_code(const char *tag, const char *code)
{
	while (*tag == ' ')
		tag++;
	if (strncmp(tag, code, 3))
		return 0;
	for (tag += 3; *tag == ' '; tag++)
		;
	return *tag == '\0';
}

int ecco_tags_set(struct pool_job *j)
{
	struct xq_game *g = j->game;
	const struct xq_ecco *e = ecco_tags_classify(j);
	const char *old;

	if (!e)
		return 0;
	old = xq_game_tag(g, "ECCO");
	if (old && *old && !same_code(old, e->code))
		diag_job_tag(j, "ECCO", XQ_SEV_NOTE, XQ_D_BAD_TAG,
			 "the ECCO tag '%.40s' is now %s (%s)", old, e->code, e->opening);
	if (set_one(g, "ECCO", e->code) || set_one(g, "Opening", e->opening) ||
	    set_one(g, "Variation", e->variation))
		return XQ_ENOMEM;
	return 0;
}

void ecco_tags_check(struct pool_job *j, int note_missing)
{
	const char *tag = xq_game_tag(j->game, "ECCO");
	const struct xq_ecco *e;

	if ((!tag || !*tag) && !note_missing)
		return; /* no tag to check, and none asked for */
	if (!(e = ecco_tags_classify(j)))
		return;
	if (!tag || !*tag)
		diag_job_tag(j, NULL, XQ_SEV_NOTE, XQ_D_MISSING_TAG, "no ECCO tag (the opening is %s, %s)",
			 e->code, e->opening);
	else if (!same_code(tag, e->code))
		diag_job_tag(j, "ECCO", XQ_SEV_WARNING, XQ_D_BAD_TAG,
			 "the ECCO tag says '%.40s' but the opening is %s (%s)", tag, e->code,
			 e->opening);
}
