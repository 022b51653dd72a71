/*
 * Arrays grown by doubling: the realloc()ed array and its capacity that
 * every layer keeps somewhere (a unit's stacks, the symbolizer's tables, a
 * batch's names, the JIT's method names, the GC's per-heap pool), grown by
 * one helper rather than a copy of it in each file. Arrays appended to by
 * the million and freed once merged are tapes instead (tape.h): they grow
 * without copying.
 */
#ifndef NTX_BASE_GROW_H
#define NTX_BASE_GROW_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ntidx/ntidx.h"

/* *p, an array of *cap elements of elem bytes (NULL and 0 at first), made to hold at least `need` elements:
   its capacity doubled, from `first` when it has none, until it does; never more than `max` elements (0: as
   many as size_t can count in bytes). 0, or NTIDX_E_NOMEM with *p and *cap as they were. The elements kept
   keep their values; the new ones are not set. */
static inline int ntx_grow(void **p, size_t *cap, size_t need, size_t elem, size_t first, size_t max)
{
    if (need <= *cap)
        return 0;
    size_t limit = SIZE_MAX / (elem ? elem : 1);
    if (max && max < limit)
        limit = max;
    if (need > limit)
        return NTIDX_E_NOMEM;
    size_t c = *cap ? *cap : first ? first : 1;
    while (c < need)
        c = c > limit / 2 ? limit : c * 2;
    if (c > limit)
        c = limit;
    void *np = realloc(*p, c * elem);
    if (!np)
        return NTIDX_E_NOMEM;
    *p = np;
    *cap = c;
    return 0;
}

#endif
