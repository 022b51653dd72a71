/*
 * ntidx side index and time-window queries.
 *
 * An index lists every block of a trace with its kind, offset, size and
 * (event blocks) time range, every sequence point, the sequence-point
 * regions and where the definitions each region needs live. With it a
 * query seeks straight to the regions and blocks that overlap its window
 * and rebuilds only the context it needs (metadata, threads, stacks, label
 * lists), so a window near the end of a 10 GB trace costs milliseconds.
 *
 * The on-disk format is documented byte by byte in docs/index-format.md. It
 * is written atomically (temporary file, fsync, rename), carries xxh3
 * checksums of its header and sections and the identity of its trace (size,
 * mtime, change time, xxh3 of the first MiB and of the last indexed block),
 * and is validated when loaded.
 */
#ifndef NTIDX_INDEX_H
#define NTIDX_INDEX_H

#include "ntidx.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Index errors (continuing ntidx_error; stable values). */
enum {
    NTIDX_E_INDEX_CORRUPT = -12, /**< bad magic, checksum, or structure: the file is not a usable index */
    NTIDX_E_INDEX_STALE = -13,   /**< the trace changed in place since it was indexed */
    NTIDX_E_INDEX_VERSION = -14  /**< written by a newer ntidx (major version) */
};

typedef struct ntidx_index ntidx_index;

/** Progress of a long operation: `done` of `total` bytes of trace. Return nonzero to cancel. */
typedef int (*ntidx_progress_fn)(void *ctx, uint64_t done, uint64_t total);

/** How much of an index ntidx_index_load_ex() checks before it returns. */
typedef enum ntidx_index_verify {
    /** Everything when the block table is small (up to 256 KiB); otherwise the header, the small tables and
        the last region at load, and the block (and filter) entries of every other region, against their
        per-region checksums, the first time a query, a seek, statistics or a slice needs that region. A
        region that fails makes that call return NTIDX_E_INDEX_CORRUPT. Loading a 10 GB trace's index then
        costs microseconds, not a millisecond. Indexes older than format 1.2 are always checked whole. */
    NTIDX_VERIFY_AUTO = 0,
    NTIDX_VERIFY_ALL = 1,    /**< everything at load, whatever the size */
    NTIDX_VERIFY_ON_USE = 2  /**< region by region on first use, whatever the size (1.2 indexes) */
} ntidx_index_verify;

typedef struct ntidx_index_options {
    int full;                   /**< also count events and record types/threads per block */
    ntidx_progress_fn progress; /**< optional */
    void *progress_ctx;
    /** Optional: ntidx_index_open() calls it before it builds, rebuilds or extends
        (`action`: an ntidx_index_action; `why`: the reason, e.g. what was stale). */
    void (*notice)(void *ctx, int action, const char *why);
    void *notice_ctx;
    /** ntidx_index_open(): how much of a loaded index is checked at load, an ntidx_index_verify
        (default NTIDX_VERIFY_AUTO: a large index region by region when a query first needs the region, see
        ntidx_index_load_ex(); `ntidx index` asks for NTIDX_VERIFY_ALL). */
    int verify;
} ntidx_index_options;

NTIDX_API void ntidx_index_options_defaults(ntidx_index_options *o);

/** What an index covers. */
typedef struct ntidx_index_info {
    int full;
    int complete;              /**< the trace's end-of-stream marker was indexed */
    uint64_t trace_size;       /**< the trace's size when indexed */
    uint64_t indexed_end;      /**< end of the last indexed (complete) block */
    uint64_t blocks, sequence_points, regions, definitions;
    uint64_t first_ts, last_ts;/**< event time span (first_ts > last_ts: no events) */
    uint64_t events;           /**< UINT64_MAX unless full */
    uint64_t bytes;            /**< size of the serialized index */
} ntidx_index_info;

NTIDX_API const ntidx_index_info *ntidx_index_get_info(const ntidx_index *x);

/**
 * Build an index in memory by scanning the trace once. Event blocks are
 * decoded only where their header time range is missing or untrustworthy
 * (always for V3, which has none); with o->full every event block is.
 * @return NTIDX_OK; NTIDX_E_CORRUPT etc. as the reader (message in
 *         ntidx_trace_error()); NTIDX_E_NOMEM; NTIDX_E_INVALID_ARG when
 *         cancelled by the progress callback.
 */
NTIDX_API int ntidx_index_build(ntidx_trace *t, const ntidx_index_options *o, ntidx_index **out);

/**
 * Write atomically to `path`: a temporary file beside it (`path`.tmp.XXXXXX,
 * flock()ed until renamed), fsync, rename, fsync of the directory. An
 * interrupted write leaves the old index or none, never a broken one; a
 * killed writer leaves its temporary file, which the next successful write
 * of `path` removes (with any other that no live writer holds locked).
 * @return NTIDX_OK, NTIDX_E_IO (errno in the message from ntidx_trace_error() is not used:
 *         see `err`), NTIDX_E_NOMEM.
 */
NTIDX_API int ntidx_index_write(const ntidx_index *x, const char *path, char *err, size_t errlen);

/** Load outcomes besides errors. */
typedef enum ntidx_index_state {
    NTIDX_INDEX_CURRENT = 0, /**< matches the trace exactly */
    NTIDX_INDEX_GROWN = 1    /**< the trace grew since indexing and its indexed prefix is unchanged */
} ntidx_index_state;

/**
 * Load and validate `path` against trace `t`: magic, version, header and
 * section checksums, structure (offsets increasing and inside the trace,
 * ranges ordered, counts consistent), and the trace's identity. A large
 * index's block entries are checked per region on first use
 * (NTIDX_VERIFY_AUTO, see ntidx_index_load_ex()): queries, seeks, statistics
 * and slices over it can then return NTIDX_E_INDEX_CORRUPT.
 * @param state  receives CURRENT or GROWN (a grown trace can be extended
 *               with ntidx_index_extend()).
 * @return NTIDX_OK; NTIDX_E_IO (cannot read); NTIDX_E_INDEX_CORRUPT;
 *         NTIDX_E_INDEX_VERSION; NTIDX_E_INDEX_STALE (the trace changed
 *         in place: rebuild). The reason is written to `err`.
 */
NTIDX_API int ntidx_index_load(ntidx_trace *t, const char *path, ntidx_index **out, ntidx_index_state *state,
                               char *err, size_t errlen);

/**
 * ntidx_index_load() with a choice of how much is checked at load.
 * ntidx_index_load() is this with NTIDX_VERIFY_AUTO.
 */
NTIDX_API int ntidx_index_load_ex(ntidx_trace *t, const char *path, ntidx_index_verify verify, ntidx_index **out,
                                  ntidx_index_state *state, char *err, size_t errlen);

/**
 * Check every entry of `x` that a lazily checked load left for later.
 * @return NTIDX_OK (also for built indexes and indexes checked whole at load), or
 *         NTIDX_E_INDEX_CORRUPT with the index, the region and the problem in `err`.
 */
NTIDX_API int ntidx_index_verify_all(const ntidx_index *x, char *err, size_t errlen);

/**
 * Same as ntidx_index_load() over the `size` bytes of an index file held in
 * memory (tests, fuzzing, an index kept elsewhere than in a file). Every
 * check is the same; `name` is used in messages only (NULL: "(memory)").
 * @note The bytes are not copied: they must outlive the returned index.
 */
NTIDX_API int ntidx_index_load_memory(ntidx_trace *t, const void *data, size_t size, const char *name,
                                      ntidx_index **out, ntidx_index_state *state, char *err, size_t errlen);

/**
 * Index the blocks a grown trace added after `old` (a loaded GROWN index)
 * and return the combined index. Only the new bytes are scanned.
 */
NTIDX_API int ntidx_index_extend(ntidx_trace *t, const ntidx_index *old, const ntidx_index_options *o,
                                 ntidx_index **out);

/** What ntidx_index_open() did. */
typedef enum ntidx_index_action {
    NTIDX_INDEX_LOADED = 0,   /**< a valid index was used as is */
    NTIDX_INDEX_BUILT = 1,    /**< there was none: built and saved */
    NTIDX_INDEX_REBUILT = 2,  /**< it was stale or corrupt: rebuilt and saved */
    NTIDX_INDEX_EXTENDED = 3  /**< the trace grew: new blocks indexed and saved */
} ntidx_index_action;

/**
 * Use the index at `path` (NULL: TRACE.ntidx), building, rebuilding or
 * extending it as needed, and saving the result. When the index cannot be
 * saved (read-only directory) the built index is still returned and
 * `save_err` says why. `why` receives the reason a rebuild was needed.
 */
NTIDX_API int ntidx_index_open(ntidx_trace *t, const char *path, const ntidx_index_options *o, ntidx_index **out,
                               ntidx_index_action *action, char *why, size_t whylen, char *save_err,
                               size_t save_errlen);

/** The default index path for a trace: TRACE + ".ntidx" (malloc'ed). */
NTIDX_API char *ntidx_index_default_path(const char *trace_path);

/** Free. Accepts NULL and *x == NULL; sets *x to NULL. */
NTIDX_API void ntidx_index_close(ntidx_index **x);

/* ------------------------------------------------------------------ */
/* Queries                                                             */
/* ------------------------------------------------------------------ */

typedef struct ntidx_query ntidx_query;

typedef struct ntidx_query_options {
    uint64_t t0, t1;          /**< window [t0, t1) in raw ticks (default: everything) */
    ntidx_order order;        /**< default NTIDX_ORDER_TIME */
    const char *provider;     /**< NULL: any; else exact provider name */
    int has_event_id;
    uint32_t event_id;        /**< when has_event_id */
    const char *event_name;   /**< NULL: any; else the event name (or Provider/Name) */
    int has_thread;
    uint64_t thread;          /**< OS thread id where the trace gives one, else the thread index */
    uint64_t limit;           /**< stop after this many events (0: no limit) */
} ntidx_query_options;

NTIDX_API void ntidx_query_options_defaults(ntidx_query_options *o);

/**
 * Open a query over the window. Binary-searches the regions, visits only
 * the regions and blocks whose time range overlaps the window, and primes
 * its reader with the definitions each region needs, read from the
 * offsets in the index.
 * @note trace and index must outlive the query; events are valid until the
 *       next call, as with ntidx_reader_next().
 */
NTIDX_API int ntidx_query_open(ntidx_query **out, ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *o);

/** @return 1 an event, 0 the end, <0 error (message from ntidx_query_error()). */
NTIDX_API int ntidx_query_next(ntidx_query *q, const ntidx_event **ev);

NTIDX_API const char *ntidx_query_error(const ntidx_query *q);

/** Counters: blocks and bytes of the trace the query decoded. */
typedef struct ntidx_query_stats {
    uint64_t regions_visited;
    uint64_t blocks_read;        /**< every block processed (context included) */
    uint64_t event_blocks_read;
    uint64_t bytes_read;
    uint64_t dropped_events;     /**< sequence gaps seen inside the visited blocks */
} ntidx_query_stats;

NTIDX_API const ntidx_query_stats *ntidx_query_get_stats(const ntidx_query *q);

/** Dropped events per capture thread seen by the query (as ntidx_reader_dropped()). */
NTIDX_API int ntidx_query_dropped(ntidx_query *q, const ntidx_dropped **list, size_t *count);

NTIDX_API void ntidx_query_close(ntidx_query **q);

/**
 * The first event at or after `ts` (time order), copied to *out with the
 * same pointer lifetimes as the trace mapping (metadata/thread pointers
 * stay valid until the query handle `*holder` is closed).
 * @return 1 found, 0 no event at or after ts, <0 error.
 */
NTIDX_API int ntidx_seek(ntidx_trace *t, const ntidx_index *x, uint64_t ts, ntidx_query **holder,
                         const ntidx_event **out);

typedef struct ntidx_stats_options {
    uint64_t t0, t1;        /**< window [t0, t1) (default: everything) */
    unsigned threads;       /**< workers (0: one per online core) */
    uint64_t buckets;       /**< event-rate histogram over the window with this many buckets (0: none) */
    uint64_t bucket_ticks;  /**< or buckets of this width in ticks (takes precedence) */
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
 * @return NTIDX_OK; NTIDX_E_NOMEM; a reader error (message in `err`).
 */
NTIDX_API int ntidx_stats_indexed(ntidx_trace *t, const ntidx_index *x, const ntidx_stats_options *o,
                                  ntidx_stats **out, char *err, size_t errlen);

/**
 * Statistics of a window (same shape as ntidx_stats_compute(); dropped
 * events are those visible inside the visited blocks).
 */
NTIDX_API int ntidx_stats_window(ntidx_trace *t, const ntidx_index *x, uint64_t t0, uint64_t t1, ntidx_stats **out,
                                 char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* NTIDX_INDEX_H */
