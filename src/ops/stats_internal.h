/*
 * Accumulating statistics event by event, shared by the whole-trace scan,
 * window queries and the parallel region workers (which merge their
 * accumulators at the end).
 */
#ifndef NTIDX_STATS_INTERNAL_H
#define NTIDX_STATS_INTERNAL_H

#include "arena.h"
#include "error.h"
#include "idmap.h"
#include "metadata.h"
#include "ntidx/index.h"
#include "ntidx/ntidx.h"

typedef struct ntx_stats_impl ntx_stats_impl;

typedef struct ntx_stats_accum {
    ntx_stats_impl *st;
    ntx_idmap by_definition; /* metadata definition offset -> type index + 1 */
    ntx_idmap by_thread;     /* thread -> thread index + 1 */
    ntx_idmap by_type;       /* hash of (provider, event id, version, name) -> type index + 1 */
    ntidx_type_stat *types;
    size_t ntypes, captypes;
    ntidx_thread_stat *threads;
    size_t nthreads, capthreads;
    uint64_t lo, hi, events, payload;
    /* Lookups in front of by_definition and by_thread: events alternate between a few definitions and
       threads, so a direct-mapped cache (by metadata id, checked by definition offset; by thread) answers
       nearly every event without a hash probe. Entries are indexes into types and threads. The thread
       cache is Fibonacci-hashed (consecutive thread ids land in different slots) and grows with the
       threads seen: a sampling trace's events change thread at nearly every event, among thousands. */
    /* `key` and `block` serve a --full index build (ntx_stats_accum_add_rows_keyed): the entry's Bloom filter
       key (0: not computed yet) and the last block it was added to, so that the build's filters cost one
       compare per event beside the lookups the statistics make anyway. */
    struct ntx_type_slot { uint64_t def; long type; uint64_t key, block; } type_cache[256];
    struct ntx_thread_slot { uint64_t thread; long index; uint64_t key, block; } *thread_cache;
    unsigned thread_bits; /* thread_cache has 1 << thread_bits slots */
} ntx_stats_accum;

int ntx_stats_accum_init(ntx_stats_accum *a);
/* Empty again, as ntx_stats_accum_init() leaves it, keeping its storage (an accumulator per region of a run). */
void ntx_stats_accum_reset(ntx_stats_accum *a);
int ntx_stats_accum_add(ntx_stats_accum *a, const ntidx_event *e);
struct ntx_row;
/* The same for rows (ntx_reader_rows()): 0, or NTIDX_E_NOMEM. */
int ntx_stats_accum_add_rows(ntx_stats_accum *a, const struct ntx_row *rows, size_t n);
/*
 * The same for the rows of one event block, as a --full index build counts
 * them (index_full.c): each row's type and thread key is also added to the
 * block's filter (`filter`: a FILTERS entry, types then threads at +32;
 * `block`: the block's number). Rows at UINT64_MAX are outside the
 * statistics' window [0, UINT64_MAX): their keys are added, nothing is
 * counted. 0, or NTIDX_E_NOMEM.
 */
int ntx_stats_accum_add_rows_keyed(ntx_stats_accum *a, const struct ntx_row *rows, size_t n, uint8_t *filter,
                                   uint64_t block);
/* dst += src (src is left as it was: discard it afterwards). */
int ntx_stats_accum_merge(ntx_stats_accum *dst, const ntx_stats_accum *src);
/* Hand over to a public ntidx_stats (the accumulator must not be discarded after success). */
int ntx_stats_accum_finish(ntx_stats_accum *a, ntidx_trace *t, int complete, const char *reason,
                           const ntidx_reader_stats *rs, const ntidx_dropped *dl, size_t dn, ntidx_stats **out);
void ntx_stats_accum_discard(ntx_stats_accum *a);
int ntx_stats_set_histogram(ntidx_stats *s, uint64_t start, uint64_t width, const uint64_t *counts, size_t n);

/* Dropped events per capture thread, summed over work units. */
typedef struct ntx_drop_map {
    ntidx_dropped *v;
    size_t n, cap;
    ntx_idmap index; /* capture thread -> position + 1 */
} ntx_drop_map;

void ntx_drop_map_init(ntx_drop_map *m);
int ntx_drop_map_add(ntx_drop_map *m, const ntidx_dropped *d);
void ntx_drop_map_sort(ntx_drop_map *m);
void ntx_drop_map_free(ntx_drop_map *m);

/* An event-rate histogram being filled: counts[n] buckets of `width` ticks from `start`. */
typedef struct ntx_hist {
    uint64_t *counts;
    uint64_t start, width;
    size_t n;
} ntx_hist;

/* One sequence-point region's statistics over [t0, t1) (stats_parallel.c): what a worker adds per region. */
int ntx_region_stats(ntidx_trace *t, const ntidx_index *x, uint64_t region, uint64_t t0, uint64_t t1,
                     ntx_stats_accum *a, ntx_drop_map *drops, const ntx_hist *h, ntidx_reader_stats *rs, ntx_err *err);

/* --full indexes: region r's stored statistics added to `a`, `drops` and `rs` (index_summary.c). */
int ntx_index_summary_merge(const ntidx_index *x, uint64_t r, ntx_stats_accum *a, ntx_drop_map *drops,
                            ntidx_reader_stats *rs);
/*
 * Build an index (or extend `from`, a valid prefix) as ntidx_index_build() does: the plain scan of the
 * index core and, with o->full, per-block counts and filters and each region's statistics (index_full.c).
 */
int ntx_index_build_full(ntidx_trace *t, const ntidx_index *from, const ntidx_index_options *o, ntidx_index **out,
                         ntx_err *err);

#endif
