/*
 * The definitions a reader from the trace's start has applied before a
 * block, walked through the index instead of reading every block before it:
 * the sequence points (SEQPOINTS) and, in V6 traces, the thread and
 * remove-thread blocks (DEFS) that lie before it, in file order, each
 * decoded by the decoders the reader uses (decode/definitions.h) and handed
 * to a visitor. What a slice needs to keep the threads and sequence points
 * of its output as the input's (src/ops/slice.c) while it reads only the
 * blocks its query needs.
 */
#ifndef NTIDX_INDEX_WALK_H
#define NTIDX_INDEX_WALK_H

#include <stdint.h>

#include "arena.h"
#include "error.h"
#include "ntidx/index.h"

/* What the walk tells; each returns 0, or an error code (with the caller's error set) that stops the walk. */
typedef struct ntx_defs_visitor {
    /* A sequence point: each (thread, sequence number) it lists, then the point itself (flags: V6 only, as
       stored, for a copy to write; flushes: what it flushes, NTX_FLUSH_* of decode/sp_flush.h). */
    int (*sp_thread)(void *ctx, uint64_t thread, uint32_t seq);
    int (*sequence_point)(void *ctx, uint64_t timestamp, uint32_t flags, uint32_t flushes);
    /* A V6 thread row: its thread (without its name) and its bytes in the trace (the leading size included). */
    int (*thread_row)(void *ctx, uint64_t thread, uint64_t row_offset, uint32_t row_size);
    /* A V6 remove-thread block: each thread it removes, then the block's end. */
    int (*removed_thread)(void *ctx, uint64_t thread, uint32_t seq);
    int (*removals_done)(void *ctx);
    void *ctx;
} ntx_defs_visitor;

typedef struct ntx_defs_walk {
    ntidx_trace *t;
    const ntidx_index *x;
    ntx_defs_visitor v;
    int v6;
    uint64_t sp_next, def_next; /* the next SEQPOINTS and DEFS entries */
    uint64_t bytes;             /* of the blocks read */
} ntx_defs_walk;

/*
 * Start a walk for a first block of interest j: from the sequence point
 * that opens j's region on, and in V6 traces from the first thread
 * definition of the thread epoch of j's region (threads live from there).
 */
void ntx_defs_walk_start(ntx_defs_walk *w, ntidx_trace *t, const ntidx_index *x, const ntx_defs_visitor *v, uint64_t j);
/*
 * Visit every sequence point and V6 thread definition before block j not
 * visited yet (j never goes back). 0, or an error: the visitor's code, the
 * decoders' (NTIDX_E_CORRUPT at the offset), or NTIDX_E_CORRUPT when the
 * index points at a block the trace does not have; `err` says why.
 */
int ntx_defs_walk_to(ntx_defs_walk *w, uint64_t j, ntx_err *err);


/*
 * Every V6 thread row the trace defines, in file order, with its name (kept in
 * `a`): each thread block the index lists among the definitions, decoded
 * where it lies by the reader's decoder. What ntidx_index_threads() lists.
 * 0, the callback's code, NTIDX_E_INDEX_CORRUPT (a region of a lazily checked
 * index failed its check) or NTIDX_E_CORRUPT at the offset; `err` says why.
 */
int ntx_index_each_thread(ntidx_trace *t, const ntidx_index *x, ntx_arena *a,
                          int (*cb)(void *ctx, const ntidx_thread *th), void *ctx, ntx_err *err);
#endif
