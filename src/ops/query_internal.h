/* What the other operations (parallel statistics, region summaries) use of the query engine. */
#ifndef NTX_OPS_QUERY_INTERNAL_H
#define NTX_OPS_QUERY_INTERNAL_H

#include "ntidx/index.h"

/*
 * One region as a unit of work: a query over region `region` only, primed on
 * its own from the index whatever was read before, and counting dropped
 * events from the sequence point that opens the region.
 */
int ntx_query_open_region(ntidx_query **out, ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *o,
                          uint64_t region);

/* ntidx_query_next() for such a query, which never recovers (its caller does): no argument checks, no
   recovery, so the per-event path of statistics workers is one call shorter. Errors are published as
   ntidx_query_next() publishes them. */
int ntx_query_next(ntidx_query *q, const ntidx_event **ev);

#endif
