/*
 * json.h: the one JSON reader of the tree (<xq/json.h> is its public
 * face, which cmd/ uses).  The library's own readers (formats/ndjson*.c)
 * embed a struct xq_json and read its tokens directly: the NDJSON reader
 * goes through every token of every record, so it pays for no call per
 * token.
 */
#ifndef XQI_LIB_JSON_H
#define XQI_LIB_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "../include/xq/json.h"
#include "buf.h"

/* A token (<xq/json.h> says what the array holds). */
struct xqi_json_tok {
	uint8_t type;   /* enum xq_json_type */
	uint32_t start; /* byte offset in the text of the token's first byte */
	uint32_t len;   /* bytes of a scalar, quotes included for strings */
	uint32_t next;  /* index of the token after this value and everything inside it */
	uint32_t col;   /* 1-based column (characters) of `start` */
};

struct xq_json {
	const char *text;
	size_t len;
	struct xqi_json_tok *toks;
	size_t ntoks, toks_alloc;
	uint32_t *stack; /* the open containers while parsing */
	size_t stack_alloc;
	/* The last parse's failure: its code (0 when it did not fail), where
	 * and why. */
	int err;
	size_t err_at;
	char err_msg[128];
};

/* An xq_json in a struct of the caller's (no allocation yet), and its
 * memory freed. */
void xqi_json_init(struct xq_json *j);
void xqi_json_release(struct xq_json *j);
/* xq_json_parse() of text whose UTF-8 the caller has checked (the NDJSON
 * reader's decoder has): the same tokens and errors, without the check. */
int xqi_json_parse_utf8(struct xq_json *j, const char *text, size_t len);
/* xq_json_string() into `out`, which is emptied first and holds the text
 * NUL-terminated: for the library's readers, which decode every string
 * token.  0 or XQ_ENOMEM; `t` must be a string token. */
int xqi_json_decode(const struct xq_json *j, uint32_t t, struct xq_buf *out);

#endif
