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

typedef struct ntidx_index ntidx_index;

/** How much of an index ntidx_index_load() checks before it returns. */
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
    int full;                   /**< also count events and record types/threads per block, and each region's statistics */
    ntidx_progress_fn progress; /**< optional; returning nonzero cancels with NTIDX_E_CANCELLED */
    void *progress_ctx;
    /** Optional: what the index maintenance decided and why, as it happens: ntidx_index_open() before it
        builds, rebuilds or extends (`why`: e.g. what was stale) and when it could not save the result
        (NTIDX_INDEX_NOT_SAVED, `why`: the reason); ntidx_index_recover() when it rebuilds a corrupt index
        (NTIDX_INDEX_REBUILT). `action` is an ntidx_index_action. The index keeps these options for
        ntidx_index_recover(). */
    void (*notice)(void *ctx, int action, const char *why);
    void *notice_ctx;
    /** How much of a loaded index is checked at load, an ntidx_index_verify (default NTIDX_VERIFY_AUTO: a
        large index region by region when a query first needs the region; `ntidx index` asks for
        NTIDX_VERIFY_ALL). */
    int verify;
    /** Threads that build the index (0, the default: one per online core; at most 64). A --full index is
        built by workers a region at a time. A plain index of a trace read from a file is built by one
        scan of the block headers, which helper threads read ahead of in later parts of the trace (by
        default only parts of at least 64 MiB; when a number is given, parts of at least 64 KiB). The
        index, and the error when the trace is damaged, are the same, byte for byte, for any number. */
    unsigned threads;
    /** 1: the caller goes on to read every block of the trace (statistics of the whole trace, an export):
        an index that has to be built is built reading the trace in large sequential steps, so that a trace
        not in the page cache is read from the disk once, at its speed, and the pass after finds it cached
        (else the scan reads only the block headers, one small read each: far less for an index alone, but
        a pass after it would then read the trace a second time). A --full build always reads so. */
    int read_all;
    /** 1: when an index has to be built or rebuilt, build it --full (`full`); one that is current is used
        as it is, plain or not. For a caller that reads every event anyway: a --full build decodes the
        regions while the scan reads on, and its region statistics then answer without a second pass. */
    int full_when_built;
    uint64_t reserved[7];       /**< zero (see Conventions in ntidx.h) */
} ntidx_index_options;

NTIDX_API void ntidx_index_options_defaults(ntidx_index_options *o);

/** What an index covers. */
typedef struct ntidx_index_info {
    int full;
    int complete;              /**< the trace's end-of-stream marker was indexed */
    uint64_t trace_size;       /**< the trace's size when indexed */
    uint64_t indexed_end;      /**< end of the last indexed (complete) block */
    /** blocks: those the index lists, every block before indexed_end but the trace block (read at open;
        `ntidx index` and `ntidx info` count it too: blocks + 1); sequence points; regions (runs of blocks
        each closed by a sequence point, the last one maybe open); definition blocks (metadata, thread
        and remove-thread blocks, event blocks holding metadata rows) */
    uint64_t blocks, sequence_points, regions, definitions;
    uint64_t first_ts, last_ts;/**< event time span (first_ts > last_ts: no events) */
    uint64_t events;           /**< UINT64_MAX unless full */
    uint64_t bytes;            /**< size of the serialized index */
} ntidx_index_info;

NTIDX_API const ntidx_index_info *ntidx_index_get_info(const ntidx_index *x);

/**
 * The blocks the index lists, per kind, as a walk over the trace's blocks
 * with ntidx_trace_next_block() counts them, up to info->indexed_end (the
 * trace block, which the index does not list, not counted): what `ntidx info`
 * prints when an index of the trace is current.
 * @param counts NTIDX_BLOCK_KIND_COUNT entries: counts[kind] for the kinds
 *               this library knows (counts[NTIDX_BLOCK_TRACE] is 0)
 * @param unknown blocks of kinds it does not know (NTIDX_BLOCK_UNKNOWN)
 * @return NTIDX_OK; NTIDX_E_INVALID_ARG; NTIDX_E_INDEX_CORRUPT (a lazily
 *         checked index is checked whole first, and failed).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_index_block_counts(const ntidx_index *x, uint64_t counts[NTIDX_BLOCK_KIND_COUNT],
                                                       uint64_t *unknown);

/**
 * Build an index in memory by scanning the trace once. Event blocks are
 * decoded only where their header time range is missing or untrustworthy
 * (always for V3, which has none); with o->full every event block is.
 * @return NTIDX_OK; NTIDX_E_CORRUPT etc. as the reader; NTIDX_E_NOMEM;
 *         NTIDX_E_CANCELLED by the progress callback.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_index_build(ntidx_trace *t, const ntidx_index_options *o, ntidx_index **out);

/**
 * Write atomically to `path`: a temporary file beside it (`path`.tmp.XXXXXX,
 * flock()ed until renamed), fsync, rename, fsync of the directory. An
 * interrupted write leaves the old index or none, never a broken one; a
 * killed writer leaves its temporary file, which the next successful write
 * of `path` removes (with any other that no live writer holds locked).
 * A `path` that is not a regular file (a device, a FIFO) is written in
 * place: a rename over it would replace it with a file.
 * @return NTIDX_OK, NTIDX_E_IO (the message names the file and errno's text),
 *         NTIDX_E_NOMEM, NTIDX_E_INDEX_CORRUPT (a lazily checked index whose
 *         unchecked regions fail their check: it is not written).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_index_write(const ntidx_index *x, const char *path);

/**
 * The index's bytes written to the caller's descriptor `fd` from where it is
 * (standard output, a pipe, a temporary of ntidx_output_open()), left open;
 * `name` names it in messages. No temporary, no rename, no fsync: the
 * caller's descriptor, the caller's choice.
 * @return NTIDX_OK, NTIDX_E_IO (a write failed: the message names `name`
 *         and errno's text), NTIDX_E_NOMEM, NTIDX_E_INDEX_CORRUPT (as
 *         ntidx_index_write()).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_index_write_fd(const ntidx_index *x, int fd, const char *name);

/** Load outcomes besides errors. */
typedef enum ntidx_index_state {
    NTIDX_INDEX_CURRENT = 0, /**< matches the trace exactly */
    NTIDX_INDEX_GROWN = 1    /**< the trace grew since indexing and its indexed prefix is unchanged */
} ntidx_index_state;

/**
 * Load and validate `path` against trace `t`: magic, version, header and
 * section checksums, reserved fields, structure (offsets increasing and
 * inside the trace, ranges ordered, counts consistent), and the trace's
 * identity. How much of a large index is checked at load is `verify`
 * (NTIDX_VERIFY_AUTO: its block entries per region on first use; queries,
 * seeks, statistics and slices over it can then return
 * NTIDX_E_INDEX_CORRUPT: ntidx_index_recover() rebuilds it).
 * @param state  receives CURRENT or GROWN (a grown trace can be extended
 *               with ntidx_index_extend()).
 * @return NTIDX_OK; NTIDX_E_IO (cannot read); NTIDX_E_INDEX_CORRUPT;
 *         NTIDX_E_INDEX_VERSION; NTIDX_E_INDEX_STALE (the trace changed
 *         in place: rebuild).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_index_load(ntidx_trace *t, const char *path, ntidx_index_verify verify,
                                               ntidx_index **out, ntidx_index_state *state);

/**
 * A hint, for a caller about to open a trace and load its index from a page
 * cache that may not hold them: ask the kernel to start reading what
 * ntidx_index_load() reads first (the index's header page and its last
 * pages; a small index whole), so that those reads go on while the trace is
 * opened instead of after it. Nothing is read into the process, nothing is
 * checked, nothing is returned: a missing or unreadable file is ignored.
 * Costs an open(), an fstat() and two posix_fadvise() calls (and the
 * realpath() of ntidx_index_path() when there is no TRACE.ntidx).
 * @param trace_path  the trace (used when `index_path` is NULL)
 * @param index_path  the index file, or NULL for where ntidx_index_open()
 *                    looks for it given no path: TRACE.ntidx beside the
 *                    trace when there is one, else ntidx_index_path()
 * @note Thread-safe. Example, as `ntidx query` does:
 * @code
 *   ntidx_trace *t = NULL;
 *   ntidx_index *x = NULL;
 *   ntidx_index_prefetch(path, NULL);
 *   if (ntidx_trace_open(path, &t) < 0 || ntidx_index_open(t, NULL, NULL, &x, NULL) < 0)
 *       report(ntidx_last_error());
 *   else
 *       printf("%llu regions\n", (unsigned long long)ntidx_index_region_count(x));
 *   ntidx_index_close(&x);
 *   ntidx_trace_close(&t);
 * @endcode
 */
NTIDX_API void ntidx_index_prefetch(const char *trace_path, const char *index_path);

/**
 * Check every entry of `x` that a lazily checked load left for later.
 * @return NTIDX_OK (also for built indexes and indexes checked whole at load), or
 *         NTIDX_E_INDEX_CORRUPT naming the index, the region and the problem.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_index_verify_all(const ntidx_index *x);

/**
 * Same as ntidx_index_load() over the `size` bytes of an index file held in
 * memory (tests, fuzzing, an index kept elsewhere than in a file). Every
 * check is the same; `name` is used in messages only (NULL: "(memory)").
 * @note The bytes are not copied: they must outlive the returned index.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_index_load_memory(ntidx_trace *t, const void *data, size_t size,
                                                      const char *name, ntidx_index_verify verify,
                                                      ntidx_index **out, ntidx_index_state *state);

/**
 * Index the blocks a grown trace added after `old` (a loaded GROWN index)
 * and return the combined index. Only the new bytes are scanned.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_index_extend(ntidx_trace *t, const ntidx_index *old,
                                                 const ntidx_index_options *o, ntidx_index **out);

/** What ntidx_index_open() did. */
typedef enum ntidx_index_action {
    NTIDX_INDEX_LOADED = 0,   /**< a valid index was used as is */
    NTIDX_INDEX_BUILT = 1,    /**< there was none: built and saved */
    NTIDX_INDEX_REBUILT = 2,  /**< it was stale or corrupt: rebuilt and saved */
    NTIDX_INDEX_EXTENDED = 3, /**< the trace grew: new blocks indexed and saved */
    NTIDX_INDEX_NOT_SAVED = 4 /**< (notices only) what was built could not be saved: it is used as is */
} ntidx_index_action;

/**
 * Use the index at `path` (NULL: where ntidx_index_path() says), building,
 * rebuilding or extending it as needed, and saving the result; the notice
 * callback of `o` hears what was done and why. When the index cannot be
 * saved (read-only directory) the built index is still returned, after a
 * NTIDX_INDEX_NOT_SAVED notice. The index remembers `path` and `o` for
 * ntidx_index_recover().
 * With `path` NULL and the index in the index directory, an index beside
 * the trace (TRACE.ntidx) that matches the trace is used as it is first.
 * @param action  optional: what was done (LOADED, BUILT, REBUILT, EXTENDED)
 * @return NTIDX_OK; the errors of ntidx_index_build().
 */
NTIDX_NODISCARD NTIDX_API int ntidx_index_open(ntidx_trace *t, const char *path, const ntidx_index_options *o,
                                               ntidx_index **out, ntidx_index_action *action);

/**
 * A new index for one that a call found corrupt. No call changes an index it
 * is given: a query, seek, batch, statistics, slice, type listing or analysis
 * that meets a region of a lazily checked index failing its check returns
 * NTIDX_E_INDEX_CORRUPT, and the index stays as it was, for every thread that
 * uses it. This call is the recovery, made when the caller chooses: it builds
 * a new index of `t` (--full when `x` is), tells the notice callback
 * (NTIDX_INDEX_REBUILT, `why`: the damage found), saves it where `x` was
 * loaded from as ntidx_index_open() would (a failed save is a
 * NTIDX_INDEX_NOT_SAVED notice, not an error) and returns it in *out.
 * `x` is not changed: what was opened over it keeps failing where it
 * failed; close it once nothing opened over it is in use. Go on with
 * ntidx_query_resume() or ntidx_batch_resume() (streams: no event repeated
 * or lost), or make the failed call again over *out (statistics, slices,
 * analyses, type lists).
 * @param o  the options of the build, its notices and progress (`full` is
 *           ignored: as `x`); NULL: those `x` was opened with
 *           (ntidx_index_open()), else the defaults
 * @return NTIDX_OK; NTIDX_E_INVALID_ARG; the errors of ntidx_index_build().
 * @note Thread-safe: `x` is only read; threads that recover the same index
 *       at once each get an index of their own (the saves replace one
 *       another atomically).
 * @code
 *   ntidx_query_options o; ntidx_query_options_defaults(&o);
 *   o.t0 = from; o.t1 = to;
 *   ntidx_query *q; const ntidx_event *e; ntidx_index *nx = NULL; int rc;
 *   if (ntidx_query_open(t, x, &o, &q) < 0) { report(ntidx_last_error()); return 1; }
 *   while ((rc = ntidx_query_next(q, &e)) == 1) use(e);
 *   if (rc == NTIDX_E_INDEX_CORRUPT && ntidx_index_recover(t, x, NULL, &nx) == NTIDX_OK &&
 *       ntidx_query_resume(q, nx) == NTIDX_OK)
 *       while ((rc = ntidx_query_next(q, &e)) == 1) use(e);  // the rest, from where it stopped
 *   if (rc < 0) report(ntidx_last_error());
 *   ntidx_query_close(&q);
 *   ntidx_index_close(&nx);  // after the query that uses it
 * @endcode
 */
NTIDX_NODISCARD NTIDX_API int ntidx_index_recover(ntidx_trace *t, const ntidx_index *x,
                                                  const ntidx_index_options *o, ntidx_index **out);

/** The index path beside a trace: TRACE + ".ntidx" (malloc'ed). */
NTIDX_NODISCARD NTIDX_API char *ntidx_index_default_path(const char *trace_path);

/**
 * Where ntidx_index_open() keeps the index of `trace_path` when it is given
 * no path (malloc'ed; NULL when out of memory), what every client (the
 * command, the Python module, the SQLite table) therefore shares:
 *  - $NTIDX_INDEX_DIR/NAME when the variable is set and not empty;
 *  - else TRACE.ntidx beside the trace when the trace's folder is writable;
 *  - else $XDG_CACHE_HOME/ntidx/NAME ($HOME/.cache/ntidx/NAME when
 *    XDG_CACHE_HOME is not set to an absolute path), so that traces on
 *    read-only storage are indexed once, not by every command.
 * NAME is the trace's file name, a dot, 16 hex digits of xxh3-64 over its
 * canonical absolute path, a NUL and its inode number, and ".ntidx"
 * ("app.nettrace.5f0c9a3e21b7d46c.ntidx"): one file always gets the same
 * name, whatever path or link it is opened by, and two files never share
 * one. The folders are created when the index is first saved (the cache
 * with mode 0700). An index in the directory is written, loaded and checked
 * exactly as one beside its trace (atomic write, checksums, identity). A
 * trace that is not a file (opened from memory) keeps TRACE.ntidx.
 */
NTIDX_NODISCARD NTIDX_API char *ntidx_index_path(const char *trace_path);

/** The file ntidx_index_open() or ntidx_index_load() used for the index (where it was loaded from, or where
    it was saved or meant to be saved); NULL for an index built or loaded in memory only. Valid as long as
    the index. */
NTIDX_API const char *ntidx_index_file(const ntidx_index *x);

/** Free. Accepts NULL and *x == NULL; sets *x to NULL. */
NTIDX_API void ntidx_index_close(ntidx_index **x);

/* ------------------------------------------------------------------ */
/* Queries                                                             */
/* ------------------------------------------------------------------ */

typedef struct ntidx_query ntidx_query;

typedef struct ntidx_query_options {
    /** window [t0, t1) in raw ticks (default: everything, but for events at timestamp UINT64_MAX: all ones is
        no time, a V6 writer's "unknown", and lies outside every window and seek) */
    uint64_t t0, t1;
    ntidx_order order;        /**< default NTIDX_ORDER_TIME */
    const char *provider;     /**< NULL: any; else the provider's name, compared without regard to ASCII
                                   case (as EventPipe and dotnet-trace compare them) */
    int has_event_id;
    uint32_t event_id;        /**< when has_event_id */
    const char *event_name;   /**< NULL: any; else the event name (or Provider/Name) */
    int has_thread;
    uint64_t thread;          /**< OS thread id where the trace gives one, else the thread index */
    uint64_t limit;           /**< stop after this many events (0: no limit) */
    /** 1: a seek: only the first event at or after t0 that the filters pass, whatever `order` and
        `limit` say (what `ntidx seek` prints). */
    int seek;
    /** Deprecated and ignored (kept in its place for the ABI; the defaults still set it to 1). Earlier
        versions rebuilt a corrupt index inside the query when it was 1; no call changes an index it is
        given now: a region that fails its check is NTIDX_E_INDEX_CORRUPT, and the caller recovers with
        ntidx_index_recover() and ntidx_query_resume() (what `ntidx query` and the bindings do). */
    int recover;
    /** Only the events of these regions (numbers of ntidx_index_region(), any order, repeats ignored),
        clipped to the window; NULL: every region. An event belongs to exactly one region (the one whose
        blocks hold it), so the queries over the parts of a partition of the regions return, together,
        exactly the events of the whole, also where regions meet at equal timestamps. What a scheduler
        hands a worker (ntidx_index_region()). */
    const uint64_t *regions;
    size_t region_count;
    uint64_t reserved[4];     /**< zero (see Conventions in ntidx.h) */
} ntidx_query_options;

NTIDX_API void ntidx_query_options_defaults(ntidx_query_options *o);

/**
 * Open a query over the window. Binary-searches the regions, visits only
 * the regions and blocks whose time range overlaps the window, and primes
 * its reader with the definitions each region needs, read from the
 * offsets in the index.
 * @note trace and index must outlive the query; events are valid until the
 *       next call, as with ntidx_reader_next(). The options are copied, their
 *       strings and region list included: they may go away after the call.
 * @code
 *   ntidx_query_options o; ntidx_query_options_defaults(&o);
 *   o.t0 = from; o.t1 = to; o.provider = "Microsoft-Windows-DotNETRuntime";
 *   ntidx_query *q; const ntidx_event *e; int rc;
 *   if (ntidx_query_open(t, x, &o, &q) < 0) { report(ntidx_last_error()); return 1; }
 *   while ((rc = ntidx_query_next(q, &e)) == 1) use(e);
 *   if (rc < 0) report(ntidx_last_error());
 *   ntidx_query_close(&q);
 * @endcode
 */
NTIDX_NODISCARD NTIDX_API int ntidx_query_open(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *o,
                                               ntidx_query **out);

/** @return 1 an event, 0 the end, <0 error (ntidx_last_error()); NTIDX_E_INDEX_CORRUPT (a region of a
    lazily checked index failed its check: ntidx_index_recover(), then ntidx_query_resume()). */
NTIDX_NODISCARD NTIDX_API int ntidx_query_next(ntidx_query *q, const ntidx_event **ev);

/**
 * Go on with `q` over `x`, another index of q's trace: the one
 * ntidx_index_recover() built after q failed with NTIDX_E_INDEX_CORRUPT.
 * The query starts again over `x` and passes over the events it had
 * returned (the trace and the options fix a query's events and their order,
 * whatever index plans them), so its next event is the one after the last it
 * returned: none is repeated or lost. From then on q uses `x`, which must
 * outlive it (the index it used before may be closed).
 * @return NTIDX_OK; NTIDX_E_INVALID_ARG; an error met while passing over
 *         the events returned (NTIDX_E_INDEX_CORRUPT when `x` fails too).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_query_resume(ntidx_query *q, const ntidx_index *x);

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
NTIDX_NODISCARD NTIDX_API int ntidx_query_dropped(ntidx_query *q, const ntidx_dropped **list, size_t *count);

/** What a query will read, known from the index before it runs. */
typedef struct ntidx_query_cost {
    uint64_t regions;      /**< regions it enters */
    uint64_t blocks;       /**< blocks it reads, context (definitions, stacks, sequence points) included */
    uint64_t event_blocks; /**< of which event blocks */
    uint64_t bytes;        /**< bytes of the trace those blocks hold */
    uint64_t events;       /**< events in those event blocks (a --full index counts them), else UINT64_MAX */
    uint64_t reserved[3];
} ntidx_query_cost;

/**
 * The cost of a query before it runs, from the index alone (no trace byte is
 * read): exactly what ntidx_query_get_stats() reports after a query with the
 * same options has run to its end; a query that stops early (`limit`, a
 * seek, time order past the window) reads at most this.
 * @return NTIDX_OK; NTIDX_E_INVALID_ARG; NTIDX_E_INDEX_CORRUPT (a region of
 *         a lazily checked index fails its check; no recovery here).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_query_estimate(ntidx_trace *t, const ntidx_index *x,
                                                   const ntidx_query_options *o, ntidx_query_cost *out);

NTIDX_API void ntidx_query_close(ntidx_query **q);

/**
 * Seeks are queries: `o.seek = 1` with `o.t0` the time (filters apply).
 * This fills `o` for the plain seek `ntidx seek --at` does.
 */
NTIDX_API void ntidx_query_options_seek(ntidx_query_options *o, uint64_t ts);

/* Statistics through the index (ntidx_stats_options, ntidx_stats_indexed()) are declared in stats.h, included
   below. */

/* ------------------------------------------------------------------ */
/* Work units                                                          */
/* ------------------------------------------------------------------ */

/**
 * A sequence-point region: the index's independent unit of work. Regions
 * are numbered from 0 in file order; a scheduler hands region numbers (with
 * the trace's path) to workers, which open the trace and its index and
 * compute statistics (ntidx_stats_options.regions) or read events
 * (ntidx_query_options.regions, or the batches of batch.h) of their
 * regions. Select regions by number, not by their time ranges: neighbouring
 * regions can share a timestamp (the last event of one and the first of the
 * next), so windows made of region ranges would count such events twice.
 */
typedef struct ntidx_region {
    uint64_t number;
    uint64_t first_ts, last_ts; /**< its events' span (first_ts > last_ts: no events) */
    uint64_t offset;            /**< its first block */
    uint64_t bytes;             /**< its blocks' bytes */
    uint64_t blocks, event_blocks;
    uint64_t events;            /**< UINT64_MAX unless the index is --full */
    uint64_t reserved[2];
} ntidx_region;

/** Regions in the index. */
NTIDX_API uint64_t ntidx_index_region_count(const ntidx_index *x);

/**
 * Region `number` (< ntidx_index_region_count()).
 * @return NTIDX_OK; NTIDX_E_INVALID_ARG; NTIDX_E_INDEX_CORRUPT (a lazily
 *         checked region that fails its check).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_index_region(const ntidx_index *x, uint64_t number, ntidx_region *out);

#ifdef __cplusplus
}
#endif

#include "stats.h"

#endif /* NTIDX_INDEX_H */
