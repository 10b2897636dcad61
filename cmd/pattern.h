/*
 * pattern.h: the regular expressions of `find --tag 'Name~REGEX'`,
 * matched in time linear in the text, in memory fixed when the pattern is
 * compiled, and stopped by a signal.
 *
 * glibc's regexec() cannot be trusted with a tag that may hold a
 * mebibyte: back-references make it exponential, and even `x.*y` is
 * quadratic in the text (40 KB of 'x' take 2 s, a mebibyte would take
 * half an hour), with no way to stop it from another thread.  This is a
 * small matcher of POSIX extended expressions without back-references:
 * the pattern is compiled into at most PATTERN_MAX_STEPS steps, and the
 * text is read once, every step that could still match followed at once
 * (a Thompson simulation), so a text of n characters costs at most n
 * times the steps, whatever both hold.
 *
 * The syntax (man xqkit-find(1)):
 *   c          a character (any UTF-8 character; ASCII letters in any case)
 *   .          any one character
 *   [...]      one of: characters, ranges a-z (by code point), classes
 *              [:alpha:] [:digit:] [:alnum:] [:upper:] [:lower:] [:space:]
 *              [:blank:] [:punct:] [:print:] [:graph:] [:cntrl:]
 *              [:xdigit:] (ASCII); [^...] none of them; ']' first and
 *              '-' first or last are themselves; '\' is itself
 *   \c         the character c, for any ASCII punctuation c
 *   \w \W \s \S  a word character [[:alnum:]_] or not, a space or not
 *   ^  $       the start and the end of the value
 *   (e)        a group;  e|f  either
 *   e*  e+  e?  e{m}  e{m,}  e{m,n}  e{,n}
 *              repetitions, counts at most PATTERN_MAX_COUNT
 * Refused, at their place: back-references (\1 ... \9), other escapes
 * (\d: write [0-9]), [=e=] and [.c.], a repetition of nothing, groups
 * nested deeper than PATTERN_MAX_DEPTH, and a pattern of more than
 * PATTERN_MAX_STEPS steps once its repetitions are written out.
 */
#ifndef CMD_PATTERN_H
#define CMD_PATTERN_H

#include <stddef.h>

#define PATTERN_MAX_STEPS 1000
#define PATTERN_MAX_COUNT 255
#define PATTERN_MAX_DEPTH 32

struct pattern;

/*
 * Compile the NUL-terminated `text`.  0 with *out set; -1 when the
 * pattern is refused, with the byte offset of the place in *at and the
 * reason in `why`; XQ_ENOMEM (<xq/error.h>) when memory ran out (`why`
 * says so).
 */
int pattern_compile(struct pattern **out, const char *text, size_t *at, char *why,
		    size_t why_size);

/*
 * Does `p` match somewhere in the `len` bytes of `s` (UTF-8; a byte that
 * is not is a character only '.' and negated brackets match)?  1 or 0;
 * -1 when `stop` (may be NULL) said to stop (it is asked every few
 * thousand characters, with `arg`); XQ_ENOMEM when memory ran out.  Any
 * thread; `p` is only read.
 */
int pattern_match(const struct pattern *p, const char *s, size_t len, int (*stop)(void *arg),
		  void *arg);

void pattern_free(struct pattern *p);

#endif
