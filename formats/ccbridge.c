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

const struct xqi_ccb_field xqi_ccb_fields[] = {
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
/* The CBF writer keeps the fields it has met as bits of a uint64_t. */
_Static_assert(sizeof(xqi_ccb_fields) / sizeof(xqi_ccb_fields[0]) <= 65, "at most 64 fields");

const struct xqi_ccb_field *xqi_ccb_field_by_element(const char *name, size_t len)
{
	for (const struct xqi_ccb_field *f = xqi_ccb_fields; f->element; f++)
		if (strlen(f->element) == len && !memcmp(f->element, name, len))
			return f;
	return NULL;
}

const struct xqi_ccb_field *xqi_ccb_field_by_tag(const char *name)
{
	for (const struct xqi_ccb_field *f = xqi_ccb_fields; f->element; f++)
		if (!strcmp(f->tag, name))
			return f;
	return NULL;
}

int xqi_ccb_result_from_code(unsigned code, enum xqi_result *out)
{
	static const enum xqi_result results[] = {XQI_RESULT_UNKNOWN, XQI_RESULT_RED_WIN,
						 XQI_RESULT_BLACK_WIN, XQI_RESULT_DRAW};

	if (code >= sizeof(results) / sizeof(results[0]))
		return -1;
	*out = results[code];
	return 0;
}

unsigned xqi_ccb_result_code(enum xqi_result r)
{
	switch (r) {
	case XQI_RESULT_RED_WIN:
		return 1;
	case XQI_RESULT_BLACK_WIN:
		return 2;
	case XQI_RESULT_DRAW:
		return 3;
	case XQI_RESULT_NONE:
	case XQI_RESULT_UNKNOWN:
		break;
	}
	return 0;
}

/* The CBR record fields, version 2 offsets, in CBF order (cbr.c). */
const struct xqi_ccb_slot xqi_cbr_fields[] = {
	{"Name", 180, 128},          {"ScriptFile", 52, 128},     {"Category", 308, 256},
	{"From", 564, 64},           {"ContestType", 628, 64},    {"Contest", 692, 64},
	{"Round", 756, 64},          {"Group", 820, 32},          {"Table", 852, 32},
	{"Date", 884, 64},           {"Site", 948, 64},           {"TimeRule", 1012, 64},
	{"Red", 1076, 64},           {"RedTeam", 1140, 64},       {"RedTime", 1204, 64},
	{"RedRating", 1268, 32},     {"Black", 1300, 64},         {"BlackTeam", 1364, 64},
	{"BlackTime", 1428, 64},     {"BlackRating", 1492, 32},   {"Referee", 1524, 64},
	{"Recorder", 1588, 64},      {"Commentator", 1652, 64},   {"CommentatorURL", 1716, 64},
	{"Creator", 1780, 64},       {"CreatorURL", 1844, 64},    {"DateCreated", 1908, 64},
	{"DateModified", 1972, 64},  {NULL, 0, 0},
};

/* The CBL library fields (cbl.c); the last, the long remark, only the
 * first game of a library carries. */
const struct xqi_ccb_slot xqi_cbl_fields[] = {
	{"Library", 64, 512},          {"LibrarySource", 576, 256},
	{"LibraryCreator", 832, 64},   {"LibraryCreatorURL", 896, 64},
	{"LibraryCreated", 960, 64},   {"LibraryModified", 1024, 64},
	{"LibraryRemark", 1088, 65536}, {NULL, 0, 0},
};
