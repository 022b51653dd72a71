/*
 * Tapes: arrays a worker appends to by the million (an analysis unit's
 * compact events, waits, samples) and frees once merged.
 *
 * From malloc, such an array is copied at every doubling, and a tape freed
 * and the next unit's one allocated fault every page in again, 4 KB at a
 * time: on the real 1 GB trace a third of `ntidx gc`'s time on one thread
 * was the kernel mapping tape pages. A tape is a mapping of its own: grown
 * by mremap (the pages move, nothing is copied) and advised into transparent
 * huge pages (a fault maps 2 MB where the kernel allows it: `madvise` mode,
 * Debian's default, or `always`).
 */
#ifndef NTX_BASE_TAPE_H
#define NTX_BASE_TAPE_H

#include <stddef.h>

/* *p, of *cap elements of elem bytes (NULL, 0 at first), grown to hold at least `need` elements: doubled, from
   64 KB. The elements kept keep their values; the new ones are zero. 0, or NTIDX_E_NOMEM (*p and *cap as
   they were). */
int ntx_tape_grow(void **p, size_t *cap, size_t need, size_t elem);

/* Release a tape of cap elements of elem bytes (NULL: nothing). Only for what ntx_tape_grow() gave. */
void ntx_tape_free(void *p, size_t cap, size_t elem);

#endif
