/*
 * alloc.h: growing arrays, one way everywhere: XQ_ALLOC_GROW and
 * xq_alloc_grow(), public in <xq/memory.h> (where the contract is), so
 * that lib/, formats/, cmd/ and the library's users grow arrays alike.
 */
#ifndef XQI_LIB_ALLOC_H
#define XQI_LIB_ALLOC_H

#include <xq/memory.h>

#include <stddef.h>

/*
 * realloc(p, n) for a block whose first `used` bytes matter, `old` bytes
 * long: a small block (under 64 KiB) moves to a new one instead of
 * growing in place.  glibc's realloc() keeps a block in the arena it came
 * from, so a thread that once got another thread's block (freed by it,
 * then reused from its own cache) went on growing its buffers in that
 * thread's arena, both threads taking its lock: convert -t ndjson -j 2 of
 * 55 MB of PGN took 1.3 s in some runs and 1.0 s in others, with 10,000
 * to 22,000 context switches against 800.  malloc() takes the caller's
 * own arena.  A big block still goes to realloc(), which can move its
 * pages without copying.  NULL (p untouched) when memory is short.
 */
void *xqi_alloc_move(void *p, size_t old, size_t used, size_t n);

#endif
