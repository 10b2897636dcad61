/*
 * xqf_int.h: what the parts of the XQF format share (formats/xqf*.c):
 * xqf_layout.c holds the tables both directions use and the key
 * derivation; xqf_read.c reads, xqf_write.c writes; xqf.c holds the
 * registry entry, which names them and which none of them names back (the
 * reader is given the entry when it is opened).  The format and the
 * mapping of header fields to tags are described in xqf.c.
 */
#ifndef XQI_FORMATS_XQF_INT_H
#define XQI_FORMATS_XQF_INT_H

#include <stdint.h>

#include "xqf.h"

/* Header offsets (§1). */
enum {
	H_VERSION = 0x02,
	H_KEYMASK = 0x03,
	H_KEYOR = 0x08, /* four bytes, A to D */
	H_KEYSSUM = 0x0C,
	H_KEYXY = 0x0D,
	H_KEYXYF = 0x0E,
	H_KEYXYT = 0x0F,
	H_PIECES = 0x10,
	H_WHOPLAY = 0x32,
	H_RESULT = 0x33,
	H_TYPE = 0x40,
	H_TITLE = 0x50,
	H_TITLEB = 0x90
};

/* The header's Pascal strings and the tags they become. */
struct xqf_field {
	const char *tag;
	unsigned offset; /* of the length byte */
	unsigned cap;    /* bytes of text the field holds */
};
#define NFIELDS 12
extern const struct xqf_field xqi_xqf_fields[NFIELDS];

/* GameType (CodeA, §1): the names of codes 0 to 3. */
#define XQF_GAME_TYPES 4
extern const char *const xqi_xqf_game_types[XQF_GAME_TYPES];

/* Piece kind of each of the 16 slots of a side (§3.3). */
extern const uint8_t xqi_xqf_slot_type[16];

/* Flags of a record in version 0x0B and later (the low 5 bits are junk, §5.1). */
#define F_CONT 0x80
#define F_SIB 0x40
#define F_LEN 0x20

/* What an XQF record holds (xqi_format_xqf.caps, which the writer says
 * its losses by). */
#define XQI_XQF_CAPS \
	(XQ_FORMAT_READS | XQ_FORMAT_WRITES | XQ_FORMAT_VARIATIONS | XQ_FORMAT_COMMENTS | XQ_FORMAT_BINARY)

/* The registry entry's parts (xqf_read.c, xqf_write.c).  The reader is
 * opened with `fmt`, the entry (xqi_format_xqf), whose limit it reads within. */
int xqi_xqf_open_reader(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
		       const struct xqi_sink *sink, const struct xqi_format *fmt);
int xqi_xqf_read(void *reader, struct xqi_record *g);
void xqi_xqf_close_reader(void *reader);
int xqi_xqf_probe(const unsigned char *head, size_t len);
int xqi_xqf_open_writer(void **out, struct xq_file *o, const struct xqi_write_opts *opts,
		       const struct xqi_sink *sink);
int xqi_xqf_write(void *writer, const struct xqi_record *g);
int xqi_xqf_close_writer(void *writer);

#endif
