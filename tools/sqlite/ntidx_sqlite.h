/*
 * The ntidx SQLite virtual tables, as the loadable extension (extension.c)
 * and the `ntidx sql` command (tools/cmd_sql.c) both register them: one
 * code, compiled once against sqlite3ext.h, reached through the API
 * routines SQLite hands to an extension's entry point.
 *
 *   ntidx                       CREATE VIRTUAL TABLE ev USING ntidx('trace'[, 'trace'...][, index='path']
 *                               [, on_error='skip'])
 *   ntidx_events(path[, index]) the same as a table-valued function
 *   ntidx_types(path)           event types: provider, event_id, version, event_name, count, first_ts, fields
 *   ntidx_threads(path)         thread, events, dropped
 *   ntidx_regions(path)         the index's regions: time ranges, offsets, bytes, blocks, events
 *   ntidx_stacks(path)          one row per frame: stack_id, depth, ip, method, module
 *   ntidx_bytes_read()          bytes of trace the last events scan read
 *   ntidx_warning()             the last events scan's warning (a name filter naming nothing, damaged
 *                               regions left out), or NULL
 *   ntidx_damaged_regions()     the regions the last events scan left out (on_error = 'skip'), as JSON
 *   ntidx_ticks(path, time)     a time ("1.5s", ISO-8601 Z, ticks) as the trace's ticks
 *   ntidx_gc(path[, index...])  every table of every analysis of the library (gc, gc_summary, ...) as a
 *                               function; CREATE VIRTUAL TABLE gc USING ntidx_analysis(gc, 'trace'...)
 *   ntidx_analysis_stats()      what the last scan of an analysis table read and met (JSON)
 *
 * docs/sql.md is the manual and the cookbook.
 */
#ifndef NTIDX_TOOLS_SQLITE_H
#define NTIDX_TOOLS_SQLITE_H

#include <sqlite3.h>
#include <stdint.h>

#include <ntidx/index.h>

/* What a host (the command line) wants to hear while the tables work; all optional. */
typedef struct ntidx_sqlite_hooks {
    void *ctx;
    /* Index maintenance as it happens (an ntidx_index_options notice): `trace` is the trace's path. */
    void (*notice)(void *ctx, const char *trace, int action, const char *why);
    /* Progress of long work ("indexing", "scanning"): `done` of `total` bytes. Return nonzero to cancel. */
    int (*progress)(void *ctx, const char *what, uint64_t done, uint64_t total);
    /* The long work is over (clear a progress bar). */
    void (*progress_end)(void *ctx);
    /* A trace was opened with its index (the host may warn about an incomplete trace). */
    void (*opened)(void *ctx, const char *trace, const ntidx_trace *t, const ntidx_index *x);
    /* A statement failed because of a trace or an index (bad input), not because of the statement. */
    void (*input_error)(void *ctx, const char *message);
    /* A scan found nothing, and a provider, event name or event id its statement compares with names nothing
       the trace defines: `message` says so with the trace's closest names (ntidx_index_check_names()). Also
       logged with sqlite3_log(SQLITE_WARNING) and kept for ntidx_warning(). */
    void (*warning)(void *ctx, const char *trace, const char *message);
    int verify;       /* ntidx_index_verify for indexes loaded from disk */
    unsigned threads; /* workers of the statistics behind ntidx_types and ntidx_threads, and of the analyses
                         (0: every core) */
    /* A scan with on_error = 'skip' left damaged regions of `trace` out: `message` counts them and says each one
       (region, offset, bytes, why). Also logged with sqlite3_log(SQLITE_WARNING), kept for ntidx_warning() and
       listed by ntidx_damaged_regions(). NULL: said through `warning`. */
    void (*damaged)(void *ctx, const char *trace, const char *message);
} ntidx_sqlite_hooks;

/*
 * Register the modules and functions on `db`. `api` is what SQLite passed to
 * the entry point (sqlite3_auto_extension() hands it to a host's own entry
 * point too); `hooks` may be NULL. Returns an SQLite result code, with a
 * message in *err (sqlite3_malloc'ed) on failure.
 */
int ntidx_sqlite_register(sqlite3 *db, char **err, const sqlite3_api_routines *api, const ntidx_sqlite_hooks *hooks);

/*
 * The SQL name of an analysis's table (a table of ntidx_analysis_info): the library's own name, or the one
 * the SQL contract gives it ("alloc" is "allocations", "cpu" "cpu_methods"). Its function is ntidx_NAME.
 */
const char *ntidx_sqlite_table_name(const char *table);

/*
 * The statements that set up a connection (once ntidx_sqlite_register() ran on it) over `n` traces:
 * temp.events, the views types, threads, regions and stacks, and a table per table of every analysis;
 * with several traces each has a `trace` column first. `index` names one trace's index (or NULL). The
 * text is sqlite3_malloc'ed (sqlite3_free() it); NULL when out of memory. `ntidx sql` and Python's
 * Trace.sql() run it, so a statement sees the same tables in both.
 */
char *ntidx_sqlite_schema(char *const *traces, int n, const char *index);
/* The same, with `skip_damaged`: the events table made with on_error='skip' (`ntidx sql --skip-damaged`,
   Python's sql(..., on_error="skip")): its scans leave damaged regions out (docs/sql.md). */
char *ntidx_sqlite_schema_skipping(char *const *traces, int n, const char *index, int skip_damaged);

#endif
