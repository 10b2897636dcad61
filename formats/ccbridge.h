/*
 * ccbridge.h: what the CCBridge (象棋桥) formats share, for formats/cbf.c,
 * cbr.c, cbl.c, cbl_zlib.c and the dhtmlxq_*.c files: the header
 * vocabulary and its mapping onto game tags, the numeric result codes, and
 * the helper that sends a located diagnostic to a sink.  (Their flat
 * depth-first move lists become trees through lib/flattree.h.)
 *
 * Internal to formats/: not part of the library's interface.
 */
#ifndef XQI_FORMATS_CCBRIDGE_H
#define XQI_FORMATS_CCBRIDGE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "position.h"
#include "diagnostic.h"
#include "record.h"

/*
 * The CBF <Head> elements, in the order CCBridge writes them, with the
 * game tag each one maps to.  Canonical tags where the meaning is the
 * same (Name is the title, Contest the event, TimeRule the time control,
 * Commentator the annotator, Creator the author); the element's own name
 * otherwise.  Two entries are not plain tags: RecordResult is the result
 * code (tag "Result", see xqi_ccb_result_from_code) and FEN is the start
 * position (game.start; no tag).  The CBR fields carry the same names.
 */
struct xqi_ccb_field {
	const char *element; /* CBF element name */
	const char *tag;     /* game tag */
};
extern const struct xqi_ccb_field xqi_ccb_fields[]; /* ends with {NULL, NULL} */

/* The field whose element (or, for _by_tag, tag) is `name`, or NULL. */
const struct xqi_ccb_field *xqi_ccb_field_by_element(const char *name, size_t len);
const struct xqi_ccb_field *xqi_ccb_field_by_tag(const char *name);

/*
 * Result codes of CBF RecordResult and the CBR result field: 0 unknown,
 * 1 red wins, 2 black wins, 3 draw.  Returns 0 and sets *out, or -1 for a
 * code whose meaning is not established (CBR writes 4, "several").
 */
int xqi_ccb_result_from_code(unsigned code, enum xqi_result *out);
/* The code for a result (NONE and UNKNOWN are 0). */
unsigned xqi_ccb_result_code(enum xqi_result r);

/*
 * The binary layouts the CBR and CBL readers and writers share: a
 * fixed-size UTF-16LE text field, NUL-terminated inside its `size` bytes,
 * at byte `off` of a record (version 2 offsets) or of a library header.
 * xqi_cbr_fields names each by its CBF element (so its tag is the one
 * xqi_ccb_fields maps it to); xqi_cbl_fields by its game tag (Library,
 * LibrarySource, ...: every game of a library carries them).  Both end
 * with a NULL name.  The layouts are described in cbr.c and cbl.c.
 */
struct xqi_ccb_slot {
	const char *name;
	uint32_t off, size;
};
extern const struct xqi_ccb_slot xqi_cbr_fields[];
extern const struct xqi_ccb_slot xqi_cbl_fields[];

#endif
