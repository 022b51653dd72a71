/*
 * ntidx analyses: the answers people open a .NET trace for (how long the GCs
 * paused the process and why they ran; what was JIT-compiled; ...), computed
 * from a window's events as TraceEvent's computers compute them
 * (src/TraceEvent/Computers/TraceManagedProcess.cs in microsoft/perfview),
 * so that the numbers are the ones PerfView shows.
 *
 * How an analysis runs
 * --------------------
 * Through the side index, over the sequence-point regions of the window, in
 * parallel: the regions are cut into work units (runs of consecutive
 * regions), and workers read each unit's events of the types the analysis
 * needs, and only those (over a --full index, the event blocks whose type
 * filters cannot hold one of them are not read at all). A unit returns the
 * records it finished, the pairs it opened and did not close (a GC begun,
 * keyed by its process; an activity's start, keyed by its activity id), and
 * the ends it saw without a start. The merge walks the units in time order
 * and closes the open pairs of one with the ends of the next, so a GC that
 * starts in one region and ends in the next is one record; the result is the
 * same for any number of threads and any cut into units.
 *
 * A window takes a record whose start lies inside it. What is still open at
 * the window's end is looked for past it, through the index, for at most
 * `lookahead_seconds` of trace (10 s by default) and only in the event
 * blocks the analysis needs; a record whose end is not found there (or that
 * the trace's end cuts off) is kept and marked incomplete.
 *
 * Results are tables
 * ------------------
 * Every analysis returns an ntidx_analysis: an opaque handle holding tables
 * of rows (the GC analysis: "gc", one row per GC, and "gc_summary", one row
 * per generation and one for all). Their columns are a contract: named as
 * TraceEvent names the fields, in snake_case, times in milliseconds since the
 * trace's sync time (PerfView's MSec) beside raw `ts` ticks where an event
 * has one, sizes in MB of 10^6 bytes as TraceEvent's *MB properties are;
 * columns are added, never renamed. The generic accessors
 * (ntidx_analysis_table(), ntidx_analysis_cell()) let one client print,
 * export or load any analysis (the command's table, jsonl, csv and json
 * outputs; the Python DataFrames; the SQL tables); typed accessors
 * (ntidx_gc_at()) serve C programs.
 *
 * Bad input is counted, never fatal: events whose payload does not match
 * their layout are skipped (ntidx_analysis_stats.field_errors), events that
 * pair with nothing are counted (unmatched), records cut off are kept
 * (incomplete).
 */
#ifndef NTIDX_ANALYSIS_H
#define NTIDX_ANALYSIS_H

#include "index.h"
#include "symbols.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The result of an analysis: tables of rows, and what was read to compute them. */
typedef struct ntidx_analysis ntidx_analysis;

typedef struct ntidx_analysis_options {
    /** window [t0, t1) in raw ticks (default: the whole trace); a record belongs to the window whose
        start (for a GC: its GC/Start event) lies inside it */
    uint64_t t0, t1;
    /** 1: only the records of thread `thread` (OS thread id where the trace gives one, else the thread
        index), as each analysis defines a record's thread (a GC: the thread of its GC/Start event, the one
        that triggered it). Every event is still read: the thread filters what is reported. */
    int has_thread;
    uint64_t thread;
    /** workers (0, the default: one per online core; at most 64) */
    unsigned threads;
    /** How far past the window's end (t1) the records still open are looked for, in seconds of trace
        (default 10; 0: not at all, they are reported incomplete). The lookahead reads only the event
        blocks the analysis needs and stops as soon as nothing is open. */
    double lookahead_seconds;
    /** Regions per work unit (0, the default: about a quarter of a thread's share of the window's bytes,
        as the parallel statistics cut them, at most 256 MiB of trace a unit, which bounds the memory a
        unit holds until it is merged). The result does not depend on it; tests make every region a
        unit of its own (1) to put a merge at every region boundary. */
    uint64_t unit_regions;
    /** Deprecated and ignored, as ntidx_query_options.recover: a region of a lazily checked index that
        fails its check is NTIDX_E_INDEX_CORRUPT (ntidx_index_recover(), then analyze again). */
    int recover;
    uint64_t reserved[8]; /**< zero (see Conventions in ntidx.h) */
} ntidx_analysis_options;

/** Fill `o` with the defaults: the whole trace, every thread, one worker per core, 10 s of lookahead. */
NTIDX_API void ntidx_analysis_options_defaults(ntidx_analysis_options *o);

/** What an analysis read and what it met. */
typedef struct ntidx_analysis_stats {
    uint64_t t0, t1;            /**< the window (as given; t1 UINT64_MAX: to the end) */
    uint64_t events;            /**< events of the analysis's types read in the window */
    uint64_t field_errors;      /**< of which skipped: their payload does not match their layout */
    uint64_t unmatched;         /**< events that pair with nothing (an end without a start: also the ends
                                     of what started before the window) */
    uint64_t incomplete;        /**< records whose end was not found (the window's lookahead, the trace's
                                     end) */
    uint64_t regions;           /**< regions of the window read */
    uint64_t units;             /**< work units they were cut into */
    unsigned threads;           /**< workers that ran */
    uint64_t bytes_read;        /**< bytes of trace read (units and lookahead, definitions included) */
    uint64_t blocks_read;       /**< blocks read (units and lookahead) */
    uint64_t event_blocks_read; /**< of which event blocks */
    uint64_t lookahead_events;  /**< events read past the window's end */
    uint64_t lookahead_bytes;   /**< bytes read past the window's end (in bytes_read too) */
    uint64_t reserved[8];
} ntidx_analysis_stats;

/** Value types of table columns. */
typedef enum ntidx_column_type {
    NTIDX_COLUMN_INT = 1,    /**< int64_t in ntidx_table_cell.i */
    NTIDX_COLUMN_UINT = 2,   /**< uint64_t in ntidx_table_cell.u */
    NTIDX_COLUMN_DOUBLE = 3, /**< double in ntidx_table_cell.f */
    NTIDX_COLUMN_BOOL = 4,   /**< 0 or 1 in ntidx_table_cell.u */
    NTIDX_COLUMN_STRING = 5  /**< UTF-8 in ntidx_table_cell.s (NUL-terminated) */
} ntidx_column_type;

/** One column of a table. */
typedef struct ntidx_column {
    const char *name;        /**< the contract's key ("pause_duration_ms") */
    int type;                /**< ntidx_column_type */
    const char *description; /**< one line, for help texts and man pages */
} ntidx_column;

/** One value. */
typedef struct ntidx_table_cell {
    int type;      /**< ntidx_column_type, the column's */
    int is_null;   /**< 1: no value (a GC without GC/HeapStats has no size by generation) */
    int64_t i;
    uint64_t u;
    double f;
    const char *s; /**< valid as long as the analysis */
    uint64_t reserved[2]; /**< zero: the library fills it (see Conventions in ntidx.h) */
} ntidx_table_cell;

/** One table of an analysis. */
typedef struct ntidx_table {
    const char *name;             /**< "gc", "gc_summary" */
    size_t column_count;
    const ntidx_column *columns;  /**< valid as long as the library (static) */
    uint64_t rows;
} ntidx_table;

/** The analysis's name ("gc"), the command that prints it. */
NTIDX_API const char *ntidx_analysis_name(const ntidx_analysis *a);

/** What was read and met. Valid as long as `a`. */
NTIDX_API const ntidx_analysis_stats *ntidx_analysis_get_stats(const ntidx_analysis *a);

/** Tables of the analysis (at least one: the first holds its records). */
NTIDX_API size_t ntidx_analysis_table_count(const ntidx_analysis *a);

/**
 * Table `k` (< ntidx_analysis_table_count()).
 * @return NTIDX_OK; NTIDX_E_INVALID_ARG (NULL, or no table k).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_analysis_table(const ntidx_analysis *a, size_t k, ntidx_table *out);

/**
 * The value in row `row`, column `column` of table `k`.
 * @return NTIDX_OK; NTIDX_E_INVALID_ARG (NULL, or out of range); NTIDX_E_NOMEM
 *         (a string made for the cell could not be kept).
 * @note Strings point into the analysis: valid until ntidx_analysis_free().
 *       A client that reads whole tables should call ntidx_analysis_cell_buf().
 * @code
 *   ntidx_analysis *a;
 *   if (ntidx_analyze("gc", t, x, NULL, &a) != NTIDX_OK) { fprintf(stderr, "%s\n", ntidx_last_error()); return 1; }
 *   ntidx_table tb;
 *   if (ntidx_analysis_table(a, 0, &tb) == NTIDX_OK)
 *       for (uint64_t row = 0; row < tb.rows; row++)
 *           for (size_t c = 0; c < tb.column_count; c++) {
 *               ntidx_table_cell v;
 *               if (ntidx_analysis_cell(a, 0, row, c, &v) == NTIDX_OK && !v.is_null &&
 *                   tb.columns[c].type == NTIDX_COLUMN_STRING)
 *                   printf("%s=%s\n", tb.columns[c].name, v.s);
 *           }
 *   ntidx_analysis_free(&a);
 * @endcode
 */
NTIDX_NODISCARD NTIDX_API int ntidx_analysis_cell(const ntidx_analysis *a, size_t k, uint64_t row, size_t column,
                                                  ntidx_table_cell *out);

/** The size of the buffer ntidx_analysis_cell_buf() writes a string into: the longest it makes, NUL included. */
#define NTIDX_CELL_BUF_SIZE 128

/**
 * The value in row `row`, column `column` of table `k`, as
 * ntidx_analysis_cell(), for a client that reads a table cell by cell and is
 * done with each string before the next call (a printer, an exporter): a
 * string the analysis keeps only as its bytes and makes when a cell is asked
 * (an activity's `activity_id`, `parent_activity_id` and `activity_path`:
 * 16 bytes each, not text, so that a window of millions of activities fits
 * in memory) is written into `buf` and out->s points there, valid until
 * `buf` is written again. Other strings point into the analysis as with
 * ntidx_analysis_cell(). ntidx_analysis_cell() gives the same values but keeps
 * each string it makes in the analysis until ntidx_analysis_free() (a block
 * of rows at a time): reading a whole table that way costs that memory.
 * Safe to call from several threads at once on one analysis (each with its
 * own buf).
 * @param buf at least NTIDX_CELL_BUF_SIZE bytes
 * @return NTIDX_OK; NTIDX_E_INVALID_ARG (NULL, out of range, buflen below
 *         NTIDX_CELL_BUF_SIZE).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_analysis_cell_buf(const ntidx_analysis *a, size_t k, uint64_t row, size_t column,
                                                      ntidx_table_cell *out, char *buf, size_t buflen);

/** Free. Accepts NULL and *a == NULL; sets *a to NULL. */
NTIDX_API void ntidx_analysis_free(ntidx_analysis **a);

/* ------------------------------------------------------------------ */
/* The analyses by name                                                */
/* ------------------------------------------------------------------ */

/*
 * Clients that serve every analysis the same way (the Python module's
 * Trace.gc(), Trace.jit(), ...; ntidx.dask; the SQL tables) find them here
 * rather than naming each entry point: an analysis added to the library
 * appears in every such door without a change to it. The tables' names and
 * columns are known before any run (the SQL tables declare them; an empty
 * DataFrame has them), and they are those of the analysis's results.
 */

/** One analysis of the library. */
typedef struct ntidx_analysis_info {
    const char *name;    /**< "gc": the command that prints it, and ntidx_analysis_name() of its results */
    const char *summary; /**< one line for people ("the GCs of a window, their pauses and why they ran") */
    /** its entry point (ntidx_gc_analyze()), as ntidx_analyze() calls it */
    int (*analyze)(ntidx_trace *t, const ntidx_index *x, const ntidx_analysis_options *o, ntidx_analysis **out);
    size_t table_count;          /**< the tables of its results, in their order */
    const ntidx_table *tables;   /**< names and columns (rows 0); static */
    uint64_t reserved[4];
} ntidx_analysis_info;

/** How many analyses the library has. */
NTIDX_API size_t ntidx_analysis_count(void);

/** Analysis `k` (< ntidx_analysis_count()), in the order the documentation lists them; NULL past the end. */
NTIDX_API const ntidx_analysis_info *ntidx_analysis_info_at(size_t k);

/** The analysis named `name` ("gc"; exactly), or NULL. */
NTIDX_API const ntidx_analysis_info *ntidx_analysis_find(const char *name);

/**
 * Run the analysis named `name` (ntidx_analysis_find()): the same as its own
 * entry point (ntidx_gc_analyze() for "gc").
 * @return as the analysis's entry point; NTIDX_E_INVALID_ARG also for a name
 *         the library has no analysis of (ntidx_last_error() lists those it has).
 * @code
 *   for (size_t k = 0; k < ntidx_analysis_count(); k++) {
 *       const ntidx_analysis_info *info = ntidx_analysis_info_at(k);
 *       ntidx_analysis *a = NULL;
 *       if (ntidx_analyze(info->name, t, x, NULL, &a) == NTIDX_OK)
 *           printf("%s: %zu tables\n", info->name, ntidx_analysis_table_count(a));
 *       ntidx_analysis_free(&a);
 *   }
 * @endcode
 */
NTIDX_NODISCARD NTIDX_API int ntidx_analyze(const char *name, ntidx_trace *t, const ntidx_index *x,
                                            const ntidx_analysis_options *o, ntidx_analysis **out);

/* ------------------------------------------------------------------ */
/* GC: TraceEvent's TraceGC and GCStats                                */
/* ------------------------------------------------------------------ */

/** TraceEvent's GCType. */
typedef enum ntidx_gc_type {
    NTIDX_GC_NON_CONCURRENT = 0, /**< "NonConcurrentGC": a blocking GC */
    NTIDX_GC_BACKGROUND = 1,     /**< "BackgroundGC": a gen2 GC while the program runs */
    NTIDX_GC_FOREGROUND = 2      /**< "ForegroundGC": a blocking gen0/gen1 GC during a background GC */
} ntidx_gc_type;

/** TraceEvent's name of a GC type ("BackgroundGC"); the number as text for values it does not name. */
NTIDX_API const char *ntidx_gc_type_name(int type, char *buf, size_t buflen);

/** TraceEvent's name of a GC reason (GCReason: "AllocSmall", "Induced", "LowMemory", "Empty", "AllocLarge",
    "OutOfSpaceSOH", "OutOfSpaceLOH", "InducedNotForced", "Internal", "InducedLowMemory",
    "InducedCompacting", "LowMemoryHost", "PMFullGC", "LowMemoryHostBlocking"); the number as text for
    others. */
NTIDX_API const char *ntidx_gc_reason_name(int reason, char *buf, size_t buflen);

/**
 * One GC, as TraceEvent's TraceGC computes it (table "gc"; the keys are its
 * column names). Times are in ms since the trace's sync time; durations in
 * ms; sizes in MB of 10^6 bytes.
 */
typedef struct ntidx_gc {
    uint64_t number;               /**< `number`: GC/Start's Count (1 for the process's first GC) */
    int generation;                /**< `generation`: 0, 1 or 2 (GC/Start's Depth) */
    int type;                      /**< `type`: an ntidx_gc_type */
    int reason;                    /**< `reason`: TraceEvent's GCReason (ntidx_gc_reason_name()) */
    int is_complete;               /**< `is_complete`: its end was seen (a blocking GC: the RestartEE/Stop
                                        after its GC/HeapStats; a background GC: its GC/HeapStats) */
    uint32_t pid;                  /**< `pid`: the process */
    uint64_t thread;               /**< `thread`: the thread of its GC/Start */
    uint64_t ts;                   /**< `ts`: GC/Start's timestamp, raw ticks */
    double start_relative_ms;      /**< `start_relative_ms`: GC/Start (the suspension before it excluded) */
    double duration_ms;            /**< `duration_ms`: GC/Stop - GC/Start (0 without GC/Stop) */
    double pause_start_relative_ms;/**< `pause_start_relative_ms`: the SuspendEE/Start before it (GC/Start for
                                        the ephemeral GC a background GC starts with) */
    double pause_duration_ms;      /**< `pause_duration_ms`: the time the runtime was suspended: a blocking
                                        GC RestartEE/Stop - SuspendEE/Start; a background GC its initial
                                        suspension plus every later one it made (TraceEvent's
                                        AddConcurrentPauseTime) */
    double suspend_duration_ms;    /**< `suspend_duration_ms`: SuspendEE/Stop - SuspendEE/Start */
    double heap_size_before_mb;    /**< `heap_size_before_mb`: from GC/PerHeapHistory, else estimated from
                                        the previous GC's GC/HeapStats (0 for an incomplete GC) */
    double heap_size_after_mb;     /**< `heap_size_after_mb`: GC/HeapStats' generation sizes (-1 without) */
    double promoted_mb;            /**< `promoted_mb`: GC/HeapStats' promoted sizes (-1 without) */
    /** `gen0_size_after_mb` ... `poh_size_after_mb`: GC/HeapStats' GenerationSize0-4 (gen0, gen1, gen2,
        large object heap, pinned object heap); NaN (null in the tables) without GC/HeapStats */
    double gen_size_after_mb[5];
    double alloced_since_last_gc_mb; /**< `alloced_since_last_gc_mb`: TraceEvent's AllocedSinceLastGCMB */
    double pause_time_percentage_since_last_gc; /**< `pause_time_percentage_since_last_gc` */
    uint64_t reserved[4];
} ntidx_gc;

/** GCStats of one generation or of all GCs (table "gc_summary"), over the complete GCs of the window. */
typedef struct ntidx_gc_stats {
    uint64_t count;                  /**< `count` */
    uint64_t num_induced;            /**< `num_induced`: reason Induced or InducedNotForced */
    double total_pause_time_ms;      /**< `total_pause_time_ms` */
    double mean_pause_duration_ms;   /**< `mean_pause_duration_ms` (NaN, null in the table, when count is 0) */
    double max_pause_duration_ms;    /**< `max_pause_duration_ms` */
    double max_suspend_duration_ms;  /**< `max_suspend_duration_ms` */
    double total_allocated_mb;       /**< `total_allocated_mb`: the sum of alloced_since_last_gc_mb */
    double total_promoted_mb;        /**< `total_promoted_mb` */
    double total_size_after_mb;      /**< `total_size_after_mb` */
    double mean_size_after_mb;       /**< `mean_size_after_mb` (NaN when count is 0) */
    /** `gc_pause_time_percentage`: total_pause_time_ms * 100 / process_duration_ms (0 when that is 0);
        per generation over the same process_duration_ms, as PerfView's GCStats report shows it */
    double gc_pause_time_percentage;
    /** `process_duration_ms`: from the first complete GC's pause start to the last GC/HeapStats (TraceEvent's
        ProcessDuration) */
    double process_duration_ms;
    uint64_t reserved[4];
} ntidx_gc_stats;

/**
 * The GCs of a window, as TraceEvent's TraceLoadedDotNetRuntime computes
 * them (TraceGC records, GCStats summaries), in parallel over the window's
 * regions (see the top of this header).
 *
 * Read: the runtime's GC/Start, GC/Stop, GC/HeapStats, GC/SuspendEEStart,
 * GC/SuspendEEStop, GC/RestartEEStop, GC/AllocationTick and
 * GC/PerHeapHistory events (provider Microsoft-Windows-DotNETRuntime), their
 * payloads decoded by the runtime's manifest (docs/runtime-events.md). Rows
 * are in the order of their GC/Start events, grouped by process.
 *
 * A GC belongs to the window its pause starts in (its SuspendEE/Start; for
 * the ephemeral GC a background GC starts with, its GC/Start). What differs
 * from TraceEvent on purpose, and what TraceEvent reads that ntidx does not,
 * is in docs/architecture.md ("Analyses", "The GC analysis").
 *
 * @param x an index of `t` (ntidx_index_open()); a --full index lets the
 *          analysis skip the event blocks that hold no GC event
 * @return NTIDX_OK; NTIDX_E_INVALID_ARG (NULL, bad options, non-zero
 *         reserved fields); NTIDX_E_NOMEM; NTIDX_E_INDEX_CORRUPT (see
 *         ntidx_index_recover()); a reader error that stops the read (NTIDX_E_CORRUPT,
 *         NTIDX_E_UNDEFINED_REF: ntidx_last_error() names the offset). Bad
 *         payloads are not errors: they are counted.
 * @note Free with ntidx_analysis_free(). The result does not point into the
 *       trace or the index: both may be closed before it.
 * @code
 *   ntidx_analysis_options o; ntidx_analysis_options_defaults(&o);
 *   ntidx_analysis *a;
 *   if (ntidx_gc_analyze(t, x, &o, &a) < 0) { fprintf(stderr, "%s\n", ntidx_last_error()); return 1; }
 *   for (size_t i = 0; i < ntidx_gc_count(a); i++) {
 *       const ntidx_gc *g = ntidx_gc_at(a, i);
 *       if (g->generation == 2 && g->pause_duration_ms > 100) printf("GC %llu\n", (unsigned long long)g->number);
 *   }
 *   printf("paused %.1f%%\n", ntidx_gc_summary(a, -1)->gc_pause_time_percentage);
 *   ntidx_analysis_free(&a);
 * @endcode
 */
NTIDX_NODISCARD NTIDX_API int ntidx_gc_analyze(ntidx_trace *t, const ntidx_index *x, const ntidx_analysis_options *o,
                                               ntidx_analysis **out);

/** GCs of a GC analysis (0 for another analysis). */
NTIDX_API size_t ntidx_gc_count(const ntidx_analysis *a);

/** GC `i` (< ntidx_gc_count()); NULL past the end or for another analysis. Valid as long as `a`. */
NTIDX_API const ntidx_gc *ntidx_gc_at(const ntidx_analysis *a, size_t i);

/** The summary of generation 0, 1 or 2, or of all GCs (-1), of the trace's first process (by process id;
    table "gc_summary" has every process's); NULL for other values or another analysis. */
NTIDX_API const ntidx_gc_stats *ntidx_gc_summary(const ntidx_analysis *a, int generation);

/* ------------------------------------------------------------------ */
/* JIT: TraceEvent's TraceJittedMethod and JITStats                    */
/* ------------------------------------------------------------------ */

/** TraceEvent's OptimizationTier names: "Unknown" (0), "MinOptJitted", "Optimized", "QuickJitted",
    "OptimizedTier1", "OptimizedTier1OSR", "QuickJittedInstrumented", "OptimizedTier1Instrumented" (7); the
    number as text for others. */
NTIDX_API const char *ntidx_jit_tier_name(int tier, char *buf, size_t buflen);

/**
 * One JIT compilation of a method, as TraceEvent's TraceJittedMethod (table
 * "jit"; the keys are its column names). Each tier a method is compiled at
 * is a record of its own (tier 0, instrumented, tier 1, OSR).
 */
typedef struct ntidx_jit_method {
    const char *method_name;   /**< `method_name`: MethodNamespace + "." + MethodName + MethodSignature from its first
                                    "(" ("" for a record made from a Method/Load, which has no name) */
    int64_t il_size;           /**< `il_size`: Method/JittingStarted's MethodILSize (0 without one) */
    int64_t native_size;       /**< `native_size`: Method/LoadVerbose's MethodSize (0 until it comes) */
    double jit_time_ms;        /**< `jit_time_ms`: Method/LoadVerbose - Method/JittingStarted (0 until it comes) */
    int optimization_tier;     /**< `optimization_tier`: MethodFlags bits 7-9 (ntidx_jit_tier_name()) */
    int is_complete;           /**< `is_complete`: its Method/LoadVerbose (or Method/Load) was seen */
    uint32_t pid;              /**< `pid`: the process */
    uint64_t thread;           /**< `thread`: the thread that compiled it */
    uint64_t ts;               /**< `ts`: Method/JittingStarted's timestamp (the Load's for a record made from it) */
    double start_relative_ms;  /**< `start_relative_ms`: the same in ms since the trace's sync time */
    uint64_t method_id;        /**< `method_id`: MethodID */
    uint64_t module_id;        /**< `module_id`: ModuleID */
    int64_t version_id;        /**< `version_id`: the load's ReJITID (the code version; 0 the default one) */
    int compilation_thread_kind; /**< `compilation_thread_kind`: 0 "Foreground", 2 "TieredCompilationBackground"
                                      (a version other than the default, not OSR), as TraceEvent decides it */
    uint64_t reserved[4];
} ntidx_jit_method;

/**
 * The methods JIT-compiled in a window, as TraceEvent's
 * TraceLoadedDotNetRuntime computes them (TraceJittedMethod records, table
 * "jit"; JITStats totals per optimization tier and for all, table
 * "jit_summary"), in parallel over the window's regions.
 *
 * Read: the runtime's Method/JittingStarted, Method/LoadVerbose and
 * Method/Load events (provider Microsoft-Windows-DotNETRuntime; the JIT
 * keyword 0x10 at level Verbose). A JittingStarted begins a record; a load
 * of jitted code (MethodFlags bit 3) completes the latest record of its
 * thread not yet completed, or, when there is none, makes a record of its
 * own (IL size 0, JIT time 0) and is counted as unmatched. A record belongs
 * to the window its JittingStarted lies in; its load is looked for past the
 * window's end (lookahead_seconds). Rows are in the order the records began,
 * grouped by process.
 *
 * @return as ntidx_gc_analyze()
 */
NTIDX_NODISCARD NTIDX_API int ntidx_jit_analyze(ntidx_trace *t, const ntidx_index *x, const ntidx_analysis_options *o,
                                                ntidx_analysis **out);

/** Methods of a JIT analysis (0 for another analysis). */
NTIDX_API size_t ntidx_jit_count(const ntidx_analysis *a);

/** Method `i` (< ntidx_jit_count()); NULL past the end, for another analysis, or out of memory: the rows
    are made on the first call, by whichever thread calls first (the tables do without them). Valid as long
    as `a`. */
NTIDX_API const ntidx_jit_method *ntidx_jit_at(const ntidx_analysis *a, size_t i);

/* ------------------------------------------------------------------ */
/* Allocations: GC/AllocationTick per type                             */
/* ------------------------------------------------------------------ */

/** TraceEvent's GCAllocationKind names: "Small" (0), "Large" (1), "Pinned" (2); the number as text for others. */
NTIDX_API const char *ntidx_alloc_kind_name(int kind, char *buf, size_t buflen);

/** The allocation ticks of one type and kind (table "alloc"). */
typedef struct ntidx_alloc_type {
    const char *type_name; /**< `type_name`: GC/AllocationTick's TypeName ("" before version 2, which has none) */
    int kind;              /**< `kind`: AllocationKind: 0 small object heap, 1 large, 2 pinned (ntidx_alloc_kind_name()) */
    uint64_t count;        /**< `count`: allocation ticks */
    uint64_t bytes;        /**< `bytes`: their AllocationAmount64 added up: the sampled bytes, about 100 KB a tick
                                (AllocationAmount before version 2) */
    uint64_t first_ts;     /**< `first_ts`: the first tick's timestamp, raw ticks */
    uint64_t last_ts;      /**< `last_ts`: the last tick's */
    uint64_t reserved[4];
} ntidx_alloc_type;

/**
 * The runtime's allocation ticks (GC/AllocationTick: one event about every
 * 100 KB allocated, naming the type of the object that crossed the mark)
 * of a window per type name and allocation kind (table "alloc", the largest
 * first), and per kind (table "alloc_summary": "Small", "Large", "Pinned",
 * "all"). A tick belongs to the window its timestamp lies in; with
 * has_thread, the ticks of that thread only. The trace needs the runtime's
 * GC keyword (0x1) at level Verbose.
 *
 * @return as ntidx_gc_analyze()
 */
NTIDX_NODISCARD NTIDX_API int ntidx_alloc_analyze(ntidx_trace *t, const ntidx_index *x, const ntidx_analysis_options *o,
                                                  ntidx_analysis **out);

/** Rows of an allocation analysis (0 for another analysis). */
NTIDX_API size_t ntidx_alloc_count(const ntidx_analysis *a);

/** Row `i` (< ntidx_alloc_count()); NULL past the end or for another analysis. Valid as long as `a`. */
NTIDX_API const ntidx_alloc_type *ntidx_alloc_at(const ntidx_analysis *a, size_t i);

/* ------------------------------------------------------------------ */
/* Exceptions: Exception/Start per type, message and thrower           */
/* ------------------------------------------------------------------ */

/** The exceptions of one type and message thrown by one method (table "exceptions"). */
typedef struct ntidx_exception_group {
    const char *type;             /**< `type`: Exception/Start's ExceptionType */
    const char *message;          /**< `message`: its ExceptionMessage */
    const char *thrown_by;        /**< `thrown_by`: the innermost frame of its stack in a known method, past the
                                       runtime's managed dispatch (System.Runtime.EH), named "module!method" as
                                       TraceEvent's stack source names frames at the time of the throw
                                       ("ManagedModule!method" when the trace never names the module);
                                       NULL when no frame is in a known method (or the event has no stack) */
    uint64_t count;               /**< `count` */
    uint64_t first_ts, last_ts;   /**< `first_ts`, `last_ts`: the first and last one's timestamps */
    double first_relative_ms;     /**< `first_relative_ms`: the first in ms since the trace's sync time */
    double last_relative_ms;      /**< `last_relative_ms` */
    uint64_t reserved[4];
} ntidx_exception_group;

/**
 * The exceptions thrown in a window (the runtime's Exception/Start, one per
 * throw and rethrow), per type, message and the method that threw them
 * (table "exceptions", in the order of their first throw). The thrower is
 * the top managed frame of the event's stack, named from the trace's method
 * and module events (include/ntidx/symbols.h: read once over the whole
 * trace, only when the window has exceptions; with a --full index only the
 * blocks that can hold them). With has_thread, the exceptions of that
 * thread only. The trace needs the runtime's Exception keyword (0x8000) and
 * stacks; for names, the JIT and Loader keywords or the rundown.
 *
 * @return as ntidx_gc_analyze()
 */
NTIDX_NODISCARD NTIDX_API int ntidx_exceptions_analyze(ntidx_trace *t, const ntidx_index *x,
                                                       const ntidx_analysis_options *o, ntidx_analysis **out);

/** Rows of an exceptions analysis (0 for another analysis). */
NTIDX_API size_t ntidx_exceptions_count(const ntidx_analysis *a);

/** Row `i` (< ntidx_exceptions_count()); NULL past the end or for another analysis. Valid as long as `a`. */
NTIDX_API const ntidx_exception_group *ntidx_exceptions_at(const ntidx_analysis *a, size_t i);
/* Contention: the runtime's Contention/Start-Stop waits               */
/* ------------------------------------------------------------------ */

/**
 * The waits of one thread for one lock (table "contention"; the keys are its
 * column names). A wait is a thread's Contention/Start and its next
 * Contention/Stop; its length is the stop's DurationNs where the runtime
 * writes one (Contention/Stop version 1 and later), else the stop's time
 * minus the start's.
 */
typedef struct ntidx_contention {
    uint64_t lock_id;      /**< `lock_id`: Contention/Start's LockID (version 2: .NET 8 and later; 0 before) */
    uint64_t thread;       /**< `thread`: the waiting thread */
    uint32_t pid;          /**< `pid`: the process */
    uint64_t count;        /**< `count`: waits that ended (their Contention/Stop found) */
    uint64_t incomplete;   /**< `incomplete`: waits whose Contention/Stop was not found */
    double total_wait_ms;  /**< `total_wait_ms`: the lengths of the waits that ended, added up */
    double max_wait_ms;    /**< `max_wait_ms`: the longest (NaN, null in the table, when count is 0) */
    uint64_t reserved[4];
} ntidx_contention;

/**
 * The lock contention of a window: the runtime's Contention/Start and
 * Contention/Stop events (provider Microsoft-Windows-DotNETRuntime, the
 * Contention keyword 0x4000) paired per thread, in parallel over the
 * window's regions (see the top of this header).
 *
 * Tables: "contention", one row per lock and thread (ordered by lock,
 * process, thread: ntidx_contention); "contention_locks", one row per lock;
 * "contention_waits", one row per wait in the order of their starts (`ts`,
 * `start_relative_ms`, `duration_ms`, `thread`, `lock_id`,
 * `lock_owner_thread`, `kind`, `is_complete`, `pid`).
 *
 * A wait belongs to the window its Contention/Start lies in; its stop is
 * looked for past the window's end (lookahead_seconds). A wait whose stop is
 * not found (the window's lookahead, the trace's end; or a second start on
 * its thread before any stop: the stop was lost) is kept and counted in
 * `incomplete`, outside `count` and the times. A stop without a start is
 * counted in ntidx_analysis_stats.unmatched. With has_thread, only that
 * thread's waits.
 *
 * @return as ntidx_gc_analyze().
 */
NTIDX_NODISCARD NTIDX_API int ntidx_contention_analyze(ntidx_trace *t, const ntidx_index *x,
                                                       const ntidx_analysis_options *o, ntidx_analysis **out);

/** Rows (lock and thread) of a contention analysis (0 for another analysis). */
NTIDX_API size_t ntidx_contention_count(const ntidx_analysis *a);

/** Row `i` (< ntidx_contention_count()); NULL past the end or for another analysis. Valid as long as `a`. */
NTIDX_API const ntidx_contention *ntidx_contention_at(const ntidx_analysis *a, size_t i);

/* ------------------------------------------------------------------ */
/* Activities: EventSource Start/Stop pairs (StartStopActivityComputer) */
/* ------------------------------------------------------------------ */

/**
 * One activity, as TraceEvent's StartStopActivityComputer computes it
 * (table "activities"; the keys are its column names).
 */
typedef struct ntidx_activity {
    const char *provider;          /**< `provider`: the Start event's provider */
    const char *name;              /**< `name`: TraceEvent's TaskName ("Request" of Request/Start;
                                        "ExceptionHandling" for the runtime's ExceptionCatch pairs) */
    uint8_t activity_id[16];       /**< `activity_id`: the id that pairs its Start and Stop (GUID bytes) */
    int has_parent;                /**< 1: it has a creator (`parent_activity_id` is not null) */
    uint8_t parent_activity_id[16];/**< `parent_activity_id`: its creator's activity id */
    int64_t parent;                /**< its creator's index among these records (-1: none, or not listed) */
    uint32_t depth;                /**< `depth`: creators above it (0: none) */
    uint64_t thread;               /**< `thread`: the Start event's thread */
    uint32_t pid;                  /**< `pid`: the process */
    uint64_t ts;                   /**< `ts`: the Start event's timestamp, raw ticks */
    double start_relative_ms;      /**< `start_relative_ms`: the Start, ms since the trace's sync time */
    double duration_ms;            /**< `duration_ms`: Stop - Start (0 while incomplete, as TraceEvent) */
    int is_complete;               /**< `is_complete`: its Stop was seen */
    uint64_t reserved[4];
} ntidx_activity;

/**
 * The activities of a window: EventSource Start/Stop pairs matched by
 * activity id, nested by their creators, as TraceEvent's
 * StartStopActivityComputer computes them (PerfView's Events and
 * "Activities" views), in parallel over the window's regions.
 *
 * Read: the Start and Stop opcodes of every EventSource provider the trace
 * defines (the event types are taken from the trace's definitions; over a
 * --full index only the blocks that can hold them are read), the runtime's
 * ExceptionCatch/Start and /Stop (activities named "ExceptionHandling") and
 * ThreadPoolWorkerThread/Wait (a thread pool thread going back to wait: what
 * it did before is no longer the creator of its next activity). A Start
 * opens an activity under its activity id; its creator is the open activity
 * whose id is the Start's related activity id, else the activity current on
 * its thread; a Stop ends the open activity of its id. docs/conformance.md
 * ("TraceEvent's definitions") and docs/architecture.md ("The activities
 * analysis") say exactly which events count and where ntidx departs from
 * TraceEvent.
 *
 * Tables: "activities", one row per activity in the order of their starts
 * (ntidx_activity, and `activity_path`: the id as TraceEvent writes an
 * EventSource activity path, "/#PID/1/2/"); "activities_summary", one row per
 * provider and name (`count`, `incomplete`, `total_duration_ms`,
 * `mean_duration_ms`, `max_duration_ms` of the complete ones).
 *
 * An activity belongs to the window its Start lies in; the window is
 * computed as TraceEvent would compute its events alone (a creator that
 * started before the window is not known). Its Stop is looked for past the
 * window's end (lookahead_seconds); an activity whose Stop is not found is
 * kept with is_complete 0. A Stop that finds no activity is counted in
 * ntidx_analysis_stats.unmatched. With has_thread, only the activities that
 * thread started.
 *
 * @return as ntidx_gc_analyze().
 */
NTIDX_NODISCARD NTIDX_API int ntidx_activities_analyze(ntidx_trace *t, const ntidx_index *x,
                                                       const ntidx_analysis_options *o, ntidx_analysis **out);

/** Activities of an activities analysis (0 for another analysis). */
NTIDX_API size_t ntidx_activity_count(const ntidx_analysis *a);

/** Activity `i` (< ntidx_activity_count()); NULL past the end, for another analysis, or out of memory: the
    records are made on the first call (the tables do without them). Valid as long as `a`. */
NTIDX_API const ntidx_activity *ntidx_activity_at(const ntidx_analysis *a, size_t i);

/* ------------------------------------------------------------------ */
/* CPU: the sample profiler's samples by method (PerfView's By Name)   */
/* ------------------------------------------------------------------ */

/** What the CPU analysis splits and adds. */
typedef struct ntidx_cpu_options {
    /** 1: one row per method and thread (the sample's thread: its OS thread id where the trace gives one) */
    int by_thread;
    /** a method (see below): add table "cpu_callers", the frames that called it directly; NULL: not */
    const char *callers;
    /** a method: add table "cpu_callees", the frames it called directly; NULL: not */
    const char *callees;
    /** the trace's symbolizer, when the caller keeps one (ntidx_symbolizer_open() of the same trace); NULL:
        the analysis makes one for the call from the table saved beside the index when there is one, else from
        the method and module events of the whole trace: read along with the samples when the window is the
        whole trace (one pass), else first (with a --full index only their blocks, else every block once) */
    const ntidx_symbolizer *symbols;
    /** 1: add table "cpu_tree", the call tree of the samples (what a flame graph draws); 0 (default): not.
        It took the place of a reserved word: the struct keeps its size and its other fields their offsets. */
    int tree;
    uint64_t reserved[7]; /**< zero */
} ntidx_cpu_options;

/** Fill `o` with the defaults: all threads together, no callers or callees table, no call tree, a symbolizer per
    call. */
NTIDX_API void ntidx_cpu_options_defaults(ntidx_cpu_options *o);

/** One method (table "cpu"), or one caller or callee of the focus method (tables "cpu_callers",
    "cpu_callees": there `inclusive` counts the samples in which this frame called the focus method, or the
    focus method called it, directly; `exclusive` those of them in which the callee was the innermost frame). */
typedef struct ntidx_cpu_method {
    const char *method;        /**< `method`: the frame's name as TraceEvent's stack source gives it,
                                    "module!Namespace.Name(args)" ("?!?": an address no method covers) */
    const char *focus;         /**< `focus` (callers and callees tables): the focus method's frame name */
    int has_thread;            /**< by_thread: `thread` is set */
    uint64_t thread;           /**< `thread` (by_thread): the samples' thread */
    uint64_t inclusive;        /**< `inclusive`: samples whose stack holds the frame (once per sample) */
    uint64_t exclusive;        /**< `exclusive`: samples whose innermost frame it is */
    double inclusive_ms;       /**< `inclusive_ms`: inclusive x the sampling interval (TraceEvent's 1 ms) */
    double exclusive_ms;       /**< `exclusive_ms` */
    double inclusive_percent;  /**< `inclusive_percent`: of all the window's samples (of `--thread`'s) */
    double exclusive_percent;  /**< `exclusive_percent` */
    uint64_t reserved[4];
} ntidx_cpu_method;

/**
 * The sample profiler's samples of a window by method, inclusive and
 * exclusive, as PerfView's CPU Stacks view "By Name" shows them and
 * TraceEvent's stack source computes them.
 *
 * A sample is a Microsoft-DotNETCore-SampleProfiler Thread/Sample event
 * (id 0) inside the window (of thread o->thread with has_thread), whatever
 * its payload; its stack (ntidx_event.stack) is named frame by frame by the
 * symbolizer at the sample's time (ntidx_symbolizer_lookup_at(), addresses as
 * they are). A frame's `inclusive` counts the samples whose stack holds it,
 * once per sample however deep the recursion; `exclusive` those whose
 * innermost frame it is; milliseconds are samples x TraceEvent's sampling
 * interval for EventPipe traces (TraceLog.SampleProfileInterval: 1 ms,
 * whatever the session asked for). A sample without a stack counts in the
 * total only.
 *
 * Tables: "cpu" (the methods; by thread, then most exclusive samples first;
 * keys method, inclusive, exclusive, inclusive_ms, exclusive_ms,
 * inclusive_percent, exclusive_percent, and thread when by_thread),
 * "cpu_summary" (one row: samples, samples_without_stack, threads,
 * interval_ms, total_ms, methods); with co->tree "cpu_tree", the call tree
 * as PerfView's CallTree view shows it (frames merged by name from the
 * outermost frame in; by_thread: a tree per thread): one row per node, the
 * most inclusive samples first and a node always after its parent, so that
 * the first N rows are the N heaviest nodes and a tree themselves (keys
 * node: its row, parent: its parent's row or -1 for an outermost frame,
 * depth, method, inclusive, exclusive, inclusive_ms, exclusive_ms, thread
 * when by_thread); and with co->callers / co->callees
 * "cpu_callers" / "cpu_callees" (focus, method, inclusive, exclusive, their
 * ms and percentages, thread when by_thread). A method given for callers or
 * callees is the focus where a frame's name equals it: the whole name
 * ("module!Namespace.Name(args)"), the part after the '!', or that part
 * without its argument list ("Namespace.Name"); overloads are each a focus.
 * A sample counts once per (focus, caller) and (focus, callee) pair.
 *
 * Samples are independent: units count theirs and the merge adds the counts,
 * so the result is the same for any number of threads and any cut into units
 * (lookahead does not apply). With a --full index only the blocks that can
 * hold samples are read.
 *
 * @param co NULL: the defaults
 * @return as ntidx_gc_analyze(); NTIDX_E_INVALID_ARG also for non-zero
 *         reserved fields of `co`
 * @note Free with ntidx_analysis_free(). The result does not point into the
 *       trace, the index or the symbolizer.
 * @code
 *   ntidx_analysis *a;
 *   if (ntidx_cpu_analyze(t, x, NULL, NULL, &a) < 0) { fprintf(stderr, "%s\n", ntidx_last_error()); return 1; }
 *   for (size_t i = 0; i < ntidx_cpu_count(a) && i < 10; i++) {
 *       const ntidx_cpu_method *m = ntidx_cpu_at(a, i);
 *       printf("%8.1f ms %s\n", m->exclusive_ms, m->method);
 *   }
 *   ntidx_analysis_free(&a);
 * @endcode
 */
NTIDX_NODISCARD NTIDX_API int ntidx_cpu_analyze(ntidx_trace *t, const ntidx_index *x, const ntidx_analysis_options *o,
                                                const ntidx_cpu_options *co, ntidx_analysis **out);

/** Rows of table "cpu" of a CPU analysis (0 for another analysis). */
NTIDX_API size_t ntidx_cpu_count(const ntidx_analysis *a);

/** Row `i` (< ntidx_cpu_count()) of table "cpu"; NULL past the end or for another analysis. */
NTIDX_API const ntidx_cpu_method *ntidx_cpu_at(const ntidx_analysis *a, size_t i);

#ifdef __cplusplus
}
#endif

#endif /* NTIDX_ANALYSIS_H */
