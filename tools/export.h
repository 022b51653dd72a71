/*
 * ntidx export: the writers of the formats other tools read (Chrome Trace
 * Event JSON, speedscope), and the small helpers they share. Thin over the
 * public API: events come from an ntidx_query, names and fields from the
 * reader.
 */
#ifndef NTIDX_TOOLS_EXPORT_H
#define NTIDX_TOOLS_EXPORT_H

#include <stdint.h>
#include <stdio.h>

#include <ntidx/index.h>
#include <ntidx/ntidx.h>

/* What the command asked for: the trace, its index, the query and where to write. */
typedef struct export_job {
    const char *trace_path;
    ntidx_trace *trace;
    const ntidx_index *index;
    ntidx_query_options query;   /* window and filters, as the user gave them */
    int has_filter;              /* --provider or --event was given */
    FILE *out;
    uint64_t progress_total;     /* export_progress_begin(): the bytes the writer's query reads */
} export_job;

/*
 * Chrome Trace Event JSON (Object Format): one instant event per event of the
 * query, "M" metadata events naming the process and the V6 threads that have
 * names. `ts` is in microseconds since the trace's sync time.
 * Returns 0, or -1 with a message printed (ntidx: ...).
 */
int export_chrome(export_job *job, uint64_t *events_written);

/*
 * speedscope JSON: one profile per thread of the stacks of the sample
 * profiler's Thread/Sample events in the window ("evented": each sample at its
 * time), or of the events the --provider/--event filter selects ("sampled":
 * counts), frames named from the method-load and rundown events of the whole
 * trace. Returns 0, or -1 with a message printed (also when the window holds
 * no sample: nothing is written).
 */
int export_speedscope(export_job *job, uint64_t *events_written);

/* ------------------------------------------------------------------ */
/* Helpers (export_util.c)                                             */
/* ------------------------------------------------------------------ */

/* The progress line of a writer's query (cli_progress()): the bytes it will read, known from the index, then
   every 4096 events what it has read. */
void export_progress_begin(export_job *job, const ntidx_query_options *o);
void export_progress(const export_job *job, const ntidx_query *q, uint64_t events);

/* Ticks to microseconds since the trace's sync time (negative before it), exact to the tick in long double. */
long double export_ticks_to_us(const ntidx_trace_info *in, uint64_t ticks);

/* The event's name without its provider: the metadata's name, else "EventID(N)". */
const char *export_event_name(const ntidx_metadata *m, char *buf, size_t buflen);

/*
 * The process name the trace gives: a V6 "ProcessName" key, else the first
 * word of the command line of the EventPipe's ProcessInfo event when `cmdline`
 * (from the events the caller saw) is not NULL. Written to `buf`; "" when none.
 */
void export_process_name(const ntidx_trace_info *in, const char *cmdline, char *buf, size_t buflen);

#endif
