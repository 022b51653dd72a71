/* Read-only file mapping with the kernel's access-pattern advice. */
#ifndef NTIDX_MAP_H
#define NTIDX_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "map_guard.h"

typedef struct ntx_map {
    void *base;      /* NULL for an empty file */
    uint64_t size;
    int64_t mtime_ns;
    int64_t ctime_ns; /* status change time: moves on every write, cannot be set back */
    struct ntx_guard_slot *guard; /* its entry in the SIGBUS guard (map_guard.h); NULL: unguarded */
} ntx_map;

/*
 * Map `path` read-only. With `fault`, the mapping is guarded (map_guard.h): a
 * read of a page the file no longer has (it was truncated while mapped) reads
 * zeros and records its offset in *fault, instead of killing the process.
 * With `fd`, the descriptor the file was mapped from is handed over (the
 * caller closes it), else it is closed: the same file as the mapping, where
 * opening the path again might find another one.
 */
int ntx_map_open(ntx_map *m, const char *path, ntx_fault_word *fault, int *fd, ntx_err *err);
void ntx_map_close(ntx_map *m);

/* NTX_ADVISE_POPULATE: map the range's pages now, in one call (MADV_POPULATE_READ, Linux 5.14; a no-op
   before), instead of a page fault per page of a mapping advised random access. */
enum ntx_advice { NTX_ADVISE_SEQUENTIAL, NTX_ADVISE_RANDOM, NTX_ADVISE_DONTNEED, NTX_ADVISE_WILLNEED, NTX_ADVISE_POPULATE,
                  NTX_ADVISE_HUGEPAGE };
/* Advise the kernel about [off, off+len); rounding to pages is done here. Best effort. */
void ntx_map_advise(const ntx_map *m, uint64_t off, uint64_t len, enum ntx_advice a);

#endif
