/*
 * internal.h: what the public API's implementation shares.  The return
 * codes are spelt once, in <xq/error.h>, which lib/diagnostic.h includes: the
 * library's headers and the public ones go together in any order.
 */
#ifndef XQI_API_INTERNAL_H
#define XQI_API_INTERNAL_H

#include <stdatomic.h>

#include "position.h"
#include "diagnostic.h"
#include "format.h"
#include "record.h"
#include "movegen.h"
#include "notation.h"

#include <xq/xq.h>

struct xq_position {
	struct xqi_position b;
	struct xq_diagnostic err; /* the last failure, when has_err */
	int has_err;
};

/* struct xq_record: lib/record.h, where the command's pool sees it too. */

/* The cancel flag (<xq/io.h>): readers and analysers poll `flag`. */
struct xq_cancel {
	atomic_int flag;
};

#if ATOMIC_INT_LOCK_FREE != 2
#error "xq_cancel_set() is safe in a signal handler only with a lock-free atomic_int"
#endif

/* The canonical FEN of `b` into `buf` (`cap` bytes): its length, or 0 and
 * "" when it does not fit. */
size_t xqi_api_fen(const struct xqi_position *b, char *buf, size_t cap);

/* The library's default rules options, judged under `ruleset` (a public
 * XQ_RULESET_*; any other value: asian), in `o` (api/rules.c). */
struct xqi_rules_options;
void xqi_api_rules_options(struct xqi_rules_options *o, int ruleset);

/* Keep in r's error that it has no node `n`; returns XQ_ENOTFOUND. */
int xqi_api_no_node(xq_record *r, uint32_t n);

/* The node of the main line's ply `ply` (the root for 0; the last node
 * when the line is shorter). */
uint32_t xqi_api_mainline_node(const struct xqi_record *g, uint32_t ply);

/* Squares and moves of the public API (0..89) and of the board (mailbox). */
xqi_sq xqi_api_square_in(int square);
int xqi_api_square_out(xqi_sq sq);
xqi_move xqi_api_move_in(xq_move_code m);
xq_move_code xqi_api_move_out(xqi_move m);

#endif
