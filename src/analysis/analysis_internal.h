/*
 * The analysis layer (above ops): what one analysis supplies, and what the
 * driver (analysis_run.c) does with it. docs/architecture.md, "Analyses",
 * tells the whole story; in short:
 *
 *   plan     the regions of the window, cut into work units (runs of
 *            consecutive regions), in time order;
 *   units    in parallel, each unit reads its events of the analysis's
 *            types (ntx_query_restrict_types(): a --full index skips the
 *            blocks that cannot hold them), in time order, decodes each
 *            payload (a payload that does not fit its layout is skipped and
 *            counted) and hands the event to the analysis's unit_event();
 *            a unit ends with what the analysis keeps of it: its finished
 *            records, the pairs it opened and did not close, the ends it saw
 *            without a start;
 *   merge    on the calling thread, unit by unit in time order
 *            (merge_unit()): the open pairs carried so far meet the next
 *            unit's ends;
 *   lookahead what is still open after the last unit (open_count()) is
 *            looked for past the window, through the index, in the same
 *            event types, for at most lookahead_seconds of trace, stopping
 *            as soon as nothing is open (lookahead_event());
 *   finish   the analysis turns what it merged into the result's tables.
 *
 * Pair analyses (Start/Stop activities, contention, JIT) keep their open
 * pairs in an ntx_pairs (pairs.h), which does the unit's bookkeeping and the
 * merge for them. The GC analysis (gc.c) carries a per-process state machine
 * instead and merges by replay; the activities analysis (activities.c)
 * replays the units' compact events through TraceEvent's computer.
 */
#ifndef NTX_ANALYSIS_INTERNAL_H
#define NTX_ANALYSIS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "ntidx/analysis.h"
#include "ntidx/symbols.h"
#include "query_internal.h"

/* What the driver knows of the run, handed to every callback that starts something. */
typedef struct ntx_an_ctx {
    ntidx_trace *t;
    const ntidx_index *x;
    const ntidx_analysis_options *o;
    uint32_t pid;          /* the trace's process (events carry none before V6) */
    int64_t sync_ticks;    /* ms since sync: (ts - sync_ticks) * 1000 / tick_frequency */
    int64_t tick_frequency;
    const void *arg;       /* what the analysis's entry point handed ntx_analysis_run_arg() (its own options) */
    /* def->needs_symbols: the symbolizer the driver opened before the units, or NULL when the units read its
       events along with their own (take_symbols() then gets it after the last merge) */
    const ntidx_symbolizer *sym;
} ntx_an_ctx;

/* The payload of an event of an analysis with lazy_payload: decoded when the analysis first asks
   (ntx_an_values(), fields.h), at most once. */
typedef struct ntx_an_payload {
    const ntidx_trace *t;
    ntidx_values *v; /* the driver's values, reused event after event */
    int state;       /* 0: not decoded yet; 1: decoded into v; 2: the payload does not fit its layout */
} ntx_an_payload;

/* One event as an analysis sees it: of one of its types, decoded (or ready to be: lazy_payload). */
typedef struct ntx_an_event {
    const ntidx_event *ev;
    const ntidx_values *values; /* its payload, decoded (NULL for an analysis with no_payload or lazy_payload) */
    uint64_t ts;
    uint64_t thread;            /* ev->thread_id */
    uint32_t pid;               /* V6: the thread's process where the trace gives it, else ctx->pid */
    ntx_an_payload *payload;    /* lazy_payload: what ntx_an_values() decodes; NULL otherwise */
} ntx_an_event;

/* Counters of a unit or of the merge, added up by the driver. */
typedef struct ntx_an_counts {
    uint64_t events, field_errors, unmatched;
} ntx_an_counts;

/*
 * One analysis. The callbacks return 0 or a negative ntidx_error with `err`
 * set; `unit` and `merged` are the analysis's own state.
 */
typedef struct ntx_analysis_def {
    const char *name;                 /* "gc" */
    const ntx_event_type *types;      /* the event types it reads */
    size_t ntypes;
    /* or, when not NULL, the types it reads in this trace, chosen at run time from the trace's definitions
       (EventSource events are known by their opcodes, not by fixed ids): one malloc'ed block the driver
       frees, the provider strings inside it. 0 or a negative ntidx_error with `err` set. */
    int (*plan_types)(const ntx_an_ctx *ctx, ntx_event_type **types, size_t *ntypes, ntx_err *err);
    /* 1: the payloads are not decoded (an event counts whatever its payload: a CPU sample), values NULL */
    int no_payload;
    /* 1: the driver does not decode the payloads; the analysis reads the fields it needs where they lie
       (ntx_an_places_of(), fields.h) and decodes a payload only for the others (ntx_an_values()). The driver
       still checks each payload against its layout (by the layout's shape, field_place.h; by a decode where
       the layout has none), so the same payloads are field errors as with a decode. */
    int lazy_payload;
    /* 1: what the analysis computes of a unit does not depend on the order of its events (counts, sums,
       first and last times as minima and maxima; rows sorted by a total order at the end): the unit's events
       are fed in file order as they are read, not kept and sorted into time order (a V6 unit's not merged
       from its threads' streams) */
    int order_free;
    /* a work unit: created on the worker that reads it, fed its events in time order (order_free: in file
       order) */
    int (*unit_new)(const ntx_an_ctx *ctx, void **unit);
    /* 0; 1: the event lacks a field the analysis needs (counted as a field error, and skipped); < 0: fatal */
    int (*unit_event)(void *unit, const ntx_an_event *e, ntx_err *err);
    /* the unit was read to its end (its last region): close its books (NULL: nothing to close) */
    int (*unit_end)(void *unit, ntx_err *err);
    void (*unit_free)(void *unit);
    /* the merge, on the calling thread */
    int (*merge_new)(const ntx_an_ctx *ctx, void **merged);
    /* the next unit, in time order; it may take what it wants out of `unit` (freed after) */
    int (*merge_unit)(void *merged, void *unit, ntx_err *err);
    /* pairs still open after the last unit: the lookahead runs while this is not 0 (NULL, with
       lookahead_event NULL: nothing pairs, there is no lookahead) */
    uint64_t (*open_count)(const void *merged);
    /* an event past the window's end, in time order (returns as unit_event): it may close a record of the
       window; records it starts are not the window's */
    int (*lookahead_event)(void *merged, const ntx_an_event *e, ntx_err *err);
    /* the result (ntx_analysis_new() and the table calls below): the records of the window, those still
       open marked incomplete and counted in ntx_analysis_stats(*out)->incomplete; `counts->unmatched` gets
       the events that paired with nothing; the records of other threads dropped when o->has_thread */
    int (*finish)(void *merged, ntidx_analysis **out, ntx_an_counts *counts, ntx_err *err);
    void (*merge_free)(void *merged);
    /* When not NULL, the analysis names frames with the trace's symbolizer: a run over the whole trace (every
       region, no event outside the window) of a trace read in file order reads the symbolizer's events along
       with its own (ntx_symbolizer_part_note(): one pass instead of two) and hands the symbolizer here after
       the last merge_unit(), before finish(); the analysis owns it. Any other run does not call it: the
       analysis opens one itself when it needs one, or the driver does (needs_symbols). Its types must not be
       the symbolizer's. 0 or < 0 as above. */
    int (*take_symbols)(void *merged, ntidx_symbolizer *sym, ntx_err *err);
    /* 1 (with take_symbols): the units name frames as they read, so a run that does not read the symbolizer's
       events along has the driver open the symbolizer first (the table saved beside the index when there is
       one) and hand it to the units in ctx->sym; a run that reads them along leaves ctx->sym NULL, and the
       units keep what they cannot name yet for take_symbols(). */
    int needs_symbols;
} ntx_analysis_def;

/* Run analysis `def` over the window of `o` (defaults when NULL) and return its result. Public-call
   conventions: the error is published, the file named. */
int ntx_analysis_run(const ntx_analysis_def *def, ntidx_trace *t, const ntidx_index *x,
                     const ntidx_analysis_options *o, ntidx_analysis **out);
/* The same, with `arg` in the context every callback gets (ctx->arg). */
int ntx_analysis_run_arg(const ntx_analysis_def *def, const void *arg, ntidx_trace *t, const ntidx_index *x,
                         const ntidx_analysis_options *o, ntidx_analysis **out);

/* ms since the trace's sync time, as PerfView's TimeStampRelativeMSec. */
static inline double ntx_an_ms(const ntx_an_ctx *c, uint64_t ts)
{
    return (double)(int64_t)(ts - (uint64_t)c->sync_ticks) * 1000.0 / (double)c->tick_frequency;
}

/* ---- The result (analysis_result.c) ---- */

/*
 * A table of a result: its rows come from the analysis's data through
 * `cell`, which fills out->type's field (the driver sets type and clears the
 * rest first).
 */
typedef int (*ntx_cell_fn)(const void *data, uint64_t row, size_t column, ntidx_table_cell *out);

/* A result named `name`, of `kind` (the typed accessors check it), owning `data` (freed by `free_data`). */
int ntx_analysis_new(const char *name, int kind, void *data, void (*free_data)(void *), ntidx_analysis **out);
/* Add a table whose columns are static. */
int ntx_analysis_add_table(ntidx_analysis *a, const char *name, const ntidx_column *columns, size_t ncolumns,
                           uint64_t rows, ntx_cell_fn cell, const void *data);
/* The result's data when it is of `kind`, else NULL. */
void *ntx_analysis_data(const ntidx_analysis *a, int kind);
/* Its statistics, filled by the driver. */
ntidx_analysis_stats *ntx_analysis_stats(ntidx_analysis *a);

/* The kinds of results, for the typed accessors. */
enum { NTX_ANALYSIS_GC = 1, NTX_ANALYSIS_CONTENTION = 2, NTX_ANALYSIS_ACTIVITIES = 3, NTX_ANALYSIS_CPU = 4 };
/* The counting and JIT analyses (alloc.c, exceptions.c, jit.c). */
enum { NTX_ANALYSIS_JIT = 20, NTX_ANALYSIS_ALLOC = 21, NTX_ANALYSIS_EXCEPTIONS = 22 };
/* The CPU samples one by one (cpu_samples.c). */
enum { NTX_ANALYSIS_CPU_SAMPLES = 30 };

/* ---- The analyses by name (analysis_registry.c) ---- */

/* Each analysis's entry in the registry, defined beside its ntx_analysis_def: its name, one line of summary,
   its public entry point and its tables' static columns (those its finish() adds, in that order). */
extern const ntidx_analysis_info ntx_gc_info;
extern const ntidx_analysis_info ntx_contention_info;
extern const ntidx_analysis_info ntx_activities_info;
extern const ntidx_analysis_info ntx_cpu_info;
extern const ntidx_analysis_info ntx_cpu_samples_info;
extern const ntidx_analysis_info ntx_jit_info;
extern const ntidx_analysis_info ntx_alloc_info;
extern const ntidx_analysis_info ntx_exceptions_info;

#endif
