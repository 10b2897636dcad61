/*
 * name_template.h: the names of the files `convert -o DIR/` writes, one
 * per game, from a template of tags (--name, man xqkit-convert(1)).
 *
 *   {Tag}     the value of the tag Tag; its exact name first, else the
 *             first tag whose name differs only in ASCII case ({red} finds
 *             Red); nothing when the game has no such tag
 *   {n}       the game's number in the run (1, 2, ...)
 *   {game}    the game's number in its input
 *   {file}    the input's base name without directories, ".gz" and its
 *             extension
 *   {KEY:W}   any of these padded with zeros to W digits (numbers; W at
 *             most 20)
 *
 * Anything else is copied.  Every part, the template's own text too, is
 * made safe for a file name: '/', '\', ':', '*', '?', '"', '<', '>', '|',
 * spaces, control characters, bytes that are not UTF-8 and characters
 * that are not seen where they stand (bidi overrides, zero-width spaces,
 * ...) become '_'.  The name is then tidied: no runs of '-' or '_', none
 * at its ends, no leading dot, at most NAME_TEMPLATE_MAX bytes (cut on a
 * character boundary), and the run number when nothing is left.  The
 * expansion stops once the name is that long: a template that repeats a
 * long tag costs no more than the name it makes.
 */
#ifndef CMD_NAME_TEMPLATE_H
#define CMD_NAME_TEMPLATE_H

#include <stddef.h>
#include <stdint.h>

#include <xq/buf.h>
#include <xq/record.h>

#define NAME_TEMPLATE_DEFAULT "{n:4}-{Red}-{Black}"
#define NAME_TEMPLATE_MAX 200

/* The name of game `r` (the `seq`th of the run) read from `path`, as the
 * template says, tidied, in `b` (replacing what it held).  0, or
 * XQ_ENOMEM with `b` empty. */
int name_template_expand(struct xq_buf *b, const char *tmpl, const xq_record *r,
			 const char *path, uint64_t seq);

/* Append the first of a format's `extensions` (space-separated with their
 * dots, as xq_format_names() of <xq/io.h> gives them: ".pgn .pgn_zh") in
 * lower case (".pgn"); nothing when `extensions` is NULL or names none. */
int name_template_add_extension(struct xq_buf *b, const char *extensions);

/* The names written in one run, kept as 64-bit hashes in an open
 * addressing table: a run writing a million files stays fast and small. */
struct name_set {
	uint64_t *v;
	size_t n, alloc;
};
/* 1 when `name` was added before, 0 when not. */
int name_set_has(const struct name_set *s, const char *name);
/* Add `name`: 0, or XQ_ENOMEM. */
int name_set_add(struct name_set *s, const char *name);
void name_set_release(struct name_set *s);

#endif
