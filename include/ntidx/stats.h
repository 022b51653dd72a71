/*
 * ntidx statistics: what a trace holds, counted.
 *
 *  - ntidx_stats_compute(): the whole trace by a full decode (no index);
 *  - ntidx_stats_indexed(): a window, or chosen regions, through the side
 *    index (index.h), in parallel;
 *  - ntidx_index_types(): every event type the trace defines, from the
 *    definition blocks the index lists.
 *
 * ntidx.h, index.h and batch.h include this header (these declarations
 * were theirs before it existed), so a program that includes any of them
 * sees them as before. The index is named here by its struct tag
 * (`const struct ntidx_index *`, the type index.h calls ntidx_index), so
 * this header needs only ntidx.h.
 */
#ifndef NTIDX_STATS_H
#define NTIDX_STATS_H

#include "ntidx.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ntidx_index;

/* ------------------------------------------------------------------ */
/* Statistics                                                          */
/* ------------------------------------------------------------------ */

/** Events of one type: (provider, event id, event name, version). */
typedef struct ntidx_type_stat {
    const char *provider;
    const char *event_name;     /**< as ntidx_metadata.event_name: "EventID(N)" when nothing names the event */
    uint32_t event_id;
    uint32_t version;
    uint64_t count;
    uint64_t first_ts;          /**< earliest timestamp of this type */
    uint64_t payload_bytes;
} ntidx_type_stat;

/** Events of one thread (OS thread id where known, else the thread index). */
typedef struct ntidx_thread_stat {
    uint64_t thread;
    uint64_t count;
} ntidx_thread_stat;

typedef struct ntidx_stats {
    int format_version;
    int complete;               /**< the end-of-stream marker was reached */
    uint64_t events;
    uint64_t first_ts, last_ts; /**< min and max timestamp; 0 when no events */
    int64_t sync_ticks;
    int64_t tick_frequency;
    uint64_t dropped_events;
    uint64_t payload_bytes;
    size_t type_count;
    const ntidx_type_stat *types;     /**< sorted by provider, event id, version, name */
    size_t thread_count;
    const ntidx_thread_stat *threads; /**< sorted by thread */
    size_t dropped_count;
    const ntidx_dropped *dropped;     /**< per capture thread, sorted */
    ntidx_reader_stats reader;        /**< block counts and the like */
    const char *incomplete_reason;    /**< why the read stopped early, "" if complete */
    /* event-rate histogram (ntidx_stats_indexed() with buckets): */
    size_t bucket_count;
    const struct ntidx_bucket *histogram;
    /** ntidx_stats_indexed() over a --full index: regions wholly inside the window whose counts came from
        the index, their event blocks not read (0 otherwise; never with a histogram, which needs timestamps). */
    uint64_t regions_from_index;
} ntidx_stats;

/** One histogram bucket: events with start_ts <= ts < end_ts. */
typedef struct ntidx_bucket {
    uint64_t start_ts, end_ts, events;
} ntidx_bucket;

/**
 * Statistics of the whole trace by a full decode (every event header, its
 * metadata and thread resolved; payloads not decoded).
 * @return NTIDX_OK; the reader's error codes.
 * @note Free with ntidx_stats_free(). A truncated trace is not an error:
 *       complete is 0 and incomplete_reason says where it stops.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_stats_compute(ntidx_trace *t, ntidx_stats **out);

/** The same, reporting how far into the trace the decode is (`progress` may be NULL; nonzero cancels with
    NTIDX_E_CANCELLED). */
NTIDX_NODISCARD NTIDX_API int ntidx_stats_compute_progress(ntidx_trace *t, ntidx_progress_fn progress, void *ctx,
                                                           ntidx_stats **out);

/** Free. Accepts NULL and *s == NULL; sets *s to NULL. */
NTIDX_API void ntidx_stats_free(ntidx_stats **s);

/* ------------------------------------------------------------------ */
/* Statistics through the index                                        */
/* ------------------------------------------------------------------ */

typedef struct ntidx_stats_options {
    uint64_t t0, t1;        /**< window [t0, t1) (default: everything) */
    unsigned threads;       /**< workers (0: one per online core) */
    uint64_t buckets;       /**< event-rate histogram over the window with this many buckets (0: none) */
    uint64_t bucket_ticks;  /**< or buckets of this width in ticks (takes precedence) */
    /** Deprecated and ignored, as ntidx_query_options.recover: a corrupt region is NTIDX_E_INDEX_CORRUPT;
        ntidx_index_recover(), then compute again over the new index. */
    int recover;
    /** Only these regions (numbers of ntidx_index_region()), clipped to the window; NULL: every region. */
    const uint64_t *regions;
    size_t region_count;
    /** Optional: bytes of the regions decoded so far of those to decode (a --full index's summaries are not
        counted); nonzero cancels with NTIDX_E_CANCELLED. Called on the calling thread between its units of
        work. */
    ntidx_progress_fn progress;
    void *progress_ctx;
    uint64_t reserved[3];   /**< zero (see Conventions in ntidx.h) */
} ntidx_stats_options;

NTIDX_API void ntidx_stats_options_defaults(ntidx_stats_options *o);

/**
 * Statistics of a window (or the whole trace) through the index, decoding
 * independent sequence-point regions in parallel: each worker primes the
 * regions it takes from the index, so the result does not depend on how
 * regions were shared out, and is the same for any number of threads.
 * Dropped events are counted per region from the sequence point that opens
 * it (which lists every thread that may log), as a reader from the start
 * of the trace would count them.
 * @return NTIDX_OK; NTIDX_E_NOMEM; NTIDX_E_INVALID_ARG; a reader error;
 *         NTIDX_E_INDEX_CORRUPT (see ntidx_index_recover()).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_stats_indexed(ntidx_trace *t, const struct ntidx_index *x, const ntidx_stats_options *o,
                                                  ntidx_stats **out);

/* ------------------------------------------------------------------ */
/* The event types of a trace                                          */
/* ------------------------------------------------------------------ */

typedef struct ntidx_type_list ntidx_type_list;

/**
 * Every event type the trace defines, with its field layout, read from the
 * definition blocks the index lists (no event is decoded: metadata blocks,
 * and before V4 the metadata rows of event blocks). A type defined twice
 * with the same provider, id, version, name and layout is listed once; the
 * runtime's events carry the layouts of its manifest. In a V6 trace whose
 * label lists override events' opcodes or versions (types no definition
 * names: TraceEvent names them by the opcode), those types are listed too:
 * when a label list block overrides something, every event header of the
 * indexed trace is read to find them (a full decode, as `ntidx stats`
 * without an index; traces without such label lists cost only their label
 * list blocks). What a client needs to
 * know the columns of a batch before it runs (data frame schemas).
 * @return NTIDX_OK; NTIDX_E_NOMEM; the reader's errors; NTIDX_E_INDEX_CORRUPT
 *         (a region of a lazily checked index failed its check:
 *         ntidx_index_recover(), then list again over the new index).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_index_types(ntidx_trace *t, const struct ntidx_index *x, ntidx_type_list **out);

/** Types listed, in the order the trace defines them. */
NTIDX_API size_t ntidx_type_list_count(const ntidx_type_list *l);
/** Type `i` (NULL past the end): provider, ids, names and `fields`; `offset` is its first definition. */
NTIDX_API const ntidx_metadata *ntidx_type_list_at(const ntidx_type_list *l, size_t i);
NTIDX_API void ntidx_type_list_free(ntidx_type_list **l);

#ifdef __cplusplus
}
#endif

#endif /* NTIDX_STATS_H */
