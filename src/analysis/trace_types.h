/*
 * The event types of a trace that an analysis reads, when they cannot be
 * listed in advance: EventSource Starts and Stops are known by their
 * opcodes, and each trace defines its own providers and ids. They are
 * chosen from the trace's definitions (ntidx_index_types(): its metadata
 * blocks, no event decoded), so that the units' queries still read only
 * them (and over a --full index only the blocks that can hold them).
 */
#ifndef NTX_ANALYSIS_TRACE_TYPES_H
#define NTX_ANALYSIS_TRACE_TYPES_H

#include <stddef.h>

#include "error.h"
#include "query_internal.h"

/*
 * The (provider, event id) of every type the trace defines that
 * wanted(ctx, m) takes, each once (versions and layouts share it): one
 * malloc'ed block in *out, the provider strings inside it. A V6 trace whose
 * label lists override opcodes has every event header read for them, on
 * `threads` threads (0: one per core). 0, or a negative ntidx_error with
 * `err` set.
 */
int ntx_trace_types(ntidx_trace *t, const ntidx_index *x, unsigned threads,
                    int (*wanted)(void *ctx, const ntidx_metadata *m), void *ctx, ntx_event_type **out, size_t *n,
                    ntx_err *err);

#endif
