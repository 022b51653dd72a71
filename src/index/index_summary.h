/*
 * The region statistics of --full indexes (REGION_STATS, TYPE_COUNTS,
 * THREAD_COUNTS, DROP_COUNTS, STRINGS: docs/index-format.md): read by
 * statistics over a window, which take the regions wholly inside it from the
 * index, and written by the --full builder (src/ops/index_full.c), which
 * computes them with queries. Layout and checks are the index layer's
 * (index_summary.c, index_check.c).
 */
#ifndef NTIDX_INDEX_SUMMARY_H
#define NTIDX_INDEX_SUMMARY_H

#include <stdint.h>

#include "ntidx/index.h"

/* The index holds region statistics. */
int ntx_index_has_summaries(const ntidx_index *x);

/* Region r's stored statistics (r < the regions; the index has summaries). */
typedef struct ntx_region_summary {
    uint32_t ntypes, nthreads, ndrops;
    uint32_t event_blocks; /* the event blocks a statistics query over the region reads */
    uint64_t events, lo, hi;
    uint64_t first_type, first_thread, first_drop; /* where its entries start in their sections */
} ntx_region_summary;
void ntx_index_region_summary(const ntidx_index *x, uint64_t r, ntx_region_summary *s);
/* Its entry i (< s->ntypes, nthreads, ndrops): names point into the index. */
void ntx_region_summary_type(const ntidx_index *x, const ntx_region_summary *s, uint32_t i, ntidx_type_stat *out);
void ntx_region_summary_thread(const ntidx_index *x, const ntx_region_summary *s, uint32_t i, ntidx_thread_stat *out);
void ntx_region_summary_drop(const ntidx_index *x, const ntx_region_summary *s, uint32_t i, ntidx_dropped *out);

/*
 * Writing them into a built index, region after region in region order: a
 * region (its counts and figures), then its types, threads and dropped
 * events, as many as it said. Provider and event names are stored once in
 * STRINGS (ntx_summary_string()), in the order they are first given.
 */
typedef struct ntx_summary_writer ntx_summary_writer;
/* 0, or NTIDX_E_NOMEM. */
int ntx_summary_begin(ntidx_index *x, ntx_summary_writer **w);
/* The offset of `s` in STRINGS (added when new). 0, or NTIDX_E_NOMEM. */
int ntx_summary_string(ntx_summary_writer *w, const char *s, uint64_t *off);
int ntx_summary_region(ntx_summary_writer *w, const ntx_region_summary *s);
int ntx_summary_type(ntx_summary_writer *w, uint64_t provider, uint64_t name, uint32_t event_id, uint32_t version,
                     uint64_t count, uint64_t first_ts, uint64_t payload_bytes);
int ntx_summary_thread(ntx_summary_writer *w, uint64_t thread, uint64_t count);
int ntx_summary_drop(ntx_summary_writer *w, const ntidx_dropped *d);
/* Done: the sections bound to the index (`commit`), or left out (an error). 0, or NTIDX_E_NOMEM. */
int ntx_summary_end(ntx_summary_writer **w, int commit);

#endif
