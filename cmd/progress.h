/*
 * progress.h: a one-line progress report on stderr.
 *
 * Shown only when stderr is a terminal (as git does), unless forced with
 * --progress; --quiet turns it off.  It is redrawn at most ten times a
 * second and erased before any other message is written to stderr, so
 * diagnostics never land in the middle of it.  One progress line exists
 * per process, and only the thread that writes output touches it.
 */
#ifndef CMD_PROGRESS_H
#define CMD_PROGRESS_H

#include <stdint.h>

/* 1: on when stderr is a terminal; 2: on (forced); 0: off. */
void progress_start(int mode, const char *what, int64_t total_bytes);
/* `games` done so far and `bytes` of input consumed. */
void progress_update(uint64_t games, uint64_t bytes);
/* Erase the line (before writing anything else to stderr). */
void progress_clear(void);
/* Erase it for good. */
void progress_stop(void);
/* Is the line enabled at all? */
int progress_enabled(void);

#endif
