/*
 * ecco_tags.c: the ECCO tags of a game against its classification (see
 * ecco_tags.h), through the public API only.
 */
#include <string.h>

#include "diagplace.h"
#include "ecco_tags.h"
#include <xq/ecco.h>

int ecco_tags_classify(const xq_batch_job *j, struct ecco_opening *out)
{
	/* XQ_ENOTFOUND: a broken game that cannot be classified; any other
	 * failure cannot happen (the tree holds legal moves only). */
	return xq_record_ecco(j->record, &out->code, &out->opening, &out->variation) == 0;
}

/* Set the first tag `name` to `value` where it stands and drop any later
 * one; an empty value removes them all.  (In one pass: removing them one
 * by one moved the later tags each time, quadratic.) */
static int set_one(xq_record *r, const char *name, const char *value)
{
	xq_record_remove_tags(r, name, *value ? 1 : 0);
	/* The first one, where it is, or a new one at the end. */
	return *value && xq_record_set_tag(r, name, value) ? XQ_ENOMEM : 0;
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

int ecco_tags_set(xq_batch_job *j)
{
	xq_record *r = j->record;
	struct ecco_opening e;
	const char *old;

	if (!ecco_tags_classify(j, &e))
		return 0;
	old = xq_record_tag(r, "ECCO");
	if (old && *old && !same_code(old, e.code))
		diag_job_tag(j, "ECCO", XQ_SEVERITY_NOTE, "bad-tag",
			     "the ECCO tag '%.40s' is now %s (%s)", old, e.code, e.opening);
	if (set_one(r, "ECCO", e.code) || set_one(r, "Opening", e.opening) ||
	    set_one(r, "Variation", e.variation))
		return XQ_ENOMEM;
	return 0;
}

void ecco_tags_check(xq_batch_job *j, int note_missing)
{
	const char *tag = xq_record_tag(j->record, "ECCO");
	struct ecco_opening e;

	if ((!tag || !*tag) && !note_missing)
		return; /* no tag to check, and none asked for */
	if (!ecco_tags_classify(j, &e))
		return;
	if (!tag || !*tag)
		diag_job_tag(j, NULL, XQ_SEVERITY_NOTE, "missing-tag", "no ECCO tag (the opening is %s, %s)",
			     e.code, e.opening);
	else if (!same_code(tag, e.code))
		diag_job_tag(j, "ECCO", XQ_SEVERITY_WARNING, "bad-tag",
			     "the ECCO tag says '%.40s' but the opening is %s (%s)", tag, e.code,
			     e.opening);
}
