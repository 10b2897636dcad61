/*
 * ccbridge.c: the pieces the CCBridge formats share (see ccbridge.h): the
 * header vocabulary, the result codes, the builder for the flat
 * branch/end move list, and a one-call diagnostic report.
 */
#include "ccbridge.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "movegen.h"

const struct xq_ccb_field xq_ccb_fields[] = {
	{"Name", "Title"},
	{"URL", "URL"},
	{"From", "From"},
	{"ContestType", "ContestType"},
	{"Contest", "Event"},
	{"Round", "Round"},
	{"Group", "Group"},
	{"Table", "Table"},
	{"Date", "Date"},
	{"Site", "Site"},
	{"TimeRule", "TimeControl"},
	{"Red", "Red"},
	{"RedTeam", "RedTeam"},
	{"RedTime", "RedTime"},
	{"RedRating", "RedRating"},
	{"Black", "Black"},
	{"BlackTeam", "BlackTeam"},
	{"BlackTime", "BlackTime"},
	{"BlackRating", "BlackRating"},
	{"Referee", "Referee"},
	{"Recorder", "Recorder"},
	{"Commentator", "Annotator"},
	{"CommentatorURL", "CommentatorURL"},
	{"Creator", "Author"},
	{"CreatorURL", "CreatorURL"},
	{"DateCreated", "DateCreated"},
	{"DateModified", "DateModified"},
	{"ECCO", "ECCO"},
	{"RecordType", "RecordType"},
	{"RecordKind", "RecordKind"},
	{"RecordResult", "Result"},
	{"ResultType", "ResultType"},
	{"FEN", "FEN"},
	{NULL, NULL},
};

const struct xq_ccb_field *xq_ccb_field_by_element(const char *name, size_t len)
{
	for (const struct xq_ccb_field *f = xq_ccb_fields; f->element; f++)
		if (strlen(f->element) == len && !memcmp(f->element, name, len))
			return f;
	return NULL;
}

const struct xq_ccb_field *xq_ccb_field_by_tag(const char *name)
{
	for (const struct xq_ccb_field *f = xq_ccb_fields; f->element; f++)
		if (!strcmp(f->tag, name))
			return f;
	return NULL;
}

int xq_ccb_result_from_code(unsigned code, enum xq_result *out)
{
	static const enum xq_result results[] = {XQ_RESULT_UNKNOWN, XQ_RESULT_RED_WIN,
						 XQ_RESULT_BLACK_WIN, XQ_RESULT_DRAW};

	if (code >= sizeof(results) / sizeof(results[0]))
		return -1;
	*out = results[code];
	return 0;
}

unsigned xq_ccb_result_code(enum xq_result r)
{
	switch (r) {
	case XQ_RESULT_RED_WIN:
		return 1;
	case XQ_RESULT_BLACK_WIN:
		return 2;
	case XQ_RESULT_DRAW:
		return 3;
	case XQ_RESULT_NONE:
	case XQ_RESULT_UNKNOWN:
		break;
	}
	return 0;
}


