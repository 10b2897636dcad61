/*
 * alloc.h: growing arrays, one way everywhere: XQ_ALLOC_GROW and
 * xq_alloc_grow(), public in <xq/memory.h> (where the contract is), so
 * that lib/, formats/, cmd/ and the library's users grow arrays alike.
 */
#ifndef XQ_LIB_ALLOC_H
#define XQ_LIB_ALLOC_H

#include "../include/xq/memory.h"

#endif
