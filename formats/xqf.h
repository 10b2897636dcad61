/*
 * xqf.h: XQF, the binary game record of XQStudio (象棋演播室).
 *
 * One game per file: a 1024-byte header (title, players, result, the 32
 * piece squares) and a pre-order move tree from offset 0x400.  Versions
 * 0x0A and older are plain; 0x0B to 0x12 are scrambled with keys derived
 * from header bytes 0x0C..0x0F (0x0C and later also rotate the piece
 * array).  The reader handles every version up to 0x12; the writer writes
 * 0x0A (plain, the default) or 0x12 (all key bytes zero, so the output is
 * reproducible).  ../shared/docs/xqf-format.md is the specification these
 * files follow; formats/xqf.c says how the header fields map to tags
 * (the table is in xqf_layout.c).
 *
 * Most callers use the format through the registry (xqi_format_find("xqf"));
 * the declarations below are for tests, the fuzz target and benchmarks.
 */
#ifndef XQI_FORMATS_XQF_H
#define XQI_FORMATS_XQF_H

#include <stddef.h>
#include <stdint.h>

#include "format.h"

extern const struct xqi_format xqi_format_xqf;

/* The newest version the reader accepts, and the two the writer writes. */
#define XQI_XQF_VERSION_MAX 0x12
#define XQI_XQF_VERSION_PLAIN 0x0A
#define XQI_XQF_VERSION_ENCRYPTED 0x12

/* Size of the header; the move tree starts right after it. */
#define XQI_XQF_HEADER_SIZE 1024

/* xqi_read_opts.flags for XQF. */
enum {
	/* Read a version above 0x12 as if it were 0x12 (with a warning)
	 * instead of refusing it. */
	XQI_XQF_TRY_NEWER = 1 << 0
};

/* The keys of an encrypted file (all zero for version 0x0A and older). */
struct xqi_xqf_keys {
	uint8_t xy;        /* subtracted from the piece squares (KeyXY) */
	uint8_t xyf;       /* subtracted from a move's origin (KeyXYf) */
	uint8_t xyt;       /* subtracted from a move's destination (KeyXYt) */
	uint16_t rmk_size; /* added to every comment length (KeyRMKSize) */
	uint8_t f32[32];   /* keystream subtracted from byte p >= 0x400 at p mod 32 */
};

/*
 * Derive the keys from the first 16 header bytes (`h`, version at h[2]),
 * as XQStudio does.  For version 0x0A and older every key is zero.
 */
void xqi_xqf_keys_derive(struct xqi_xqf_keys *out, const uint8_t h[16]);

/* What the reader met, beyond the game itself (for tests and tools). */
struct xqi_xqf_stats {
	unsigned version;        /* the version byte */
	uint32_t records;        /* move records read, kept or not (the root not counted) */
	uint32_t siblings;       /* move records that are an alternative (a later sibling) */
	uint32_t commented;      /* records with a non-empty comment, the root included */
	uint32_t lost;           /* move records read but not kept (an illegal move's subtree) */
	uint32_t bad_moves;      /* moves refused (each costs its subtree) */
	uint64_t trailing;       /* bytes after the tree */
	uint64_t end;            /* offset where the tree ended (or reading stopped) */
};

/*
 * Read the XQF record in `data` (`len` bytes) into `g` (which the caller
 * has initialised; it is cleared first).  Every problem goes to `sink`
 * with the byte offset, the ply and, for moves, the ICCS move; `source`
 * names the file in those diagnostics.  `stats` may be NULL.
 *
 * Returns 0 when a game was read, possibly with XQI_RECORD_BROKEN set and the
 * tree up to the damage; or a negative code when nothing usable could be
 * read: XQ_EPARSE (bad magic), XQ_ETRUNCATED (the header is cut),
 * XQ_EUNSUPPORTED (a version above 0x12), XQ_EILLEGAL (two pieces on
 * one point), XQ_ENOMEM.  A start position that cannot occur in play is
 * still returned (header, position and game comment, no moves) with
 * XQI_RECORD_BROKEN and an error-level diagnostic.
 */
int xqi_xqf_read_mem(struct xqi_record *g, const unsigned char *data, size_t len,
		    const struct xqi_read_opts *opts, const struct xqi_sink *sink, const char *source,
		    struct xqi_xqf_stats *stats);

#endif
