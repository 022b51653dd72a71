/* What the other operations (parallel statistics, region summaries) use of the query engine. */
#ifndef NTX_OPS_QUERY_INTERNAL_H
#define NTX_OPS_QUERY_INTERNAL_H

#include "ntidx/index.h"
#include "reader_plan.h"

/*
 * One region as a unit of work: a query over region `region` only, primed on
 * its own from the index whatever was read before, and counting dropped
 * events from the sequence point that opens the region. `every_block`: its
 * plan reads every event block that may hold events (not only those whose
 * time ranges and counts say they may hold some of the window's): what a
 * --full build counts.
 */
int ntx_query_open_region(ntidx_query **out, ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *o,
                          uint64_t region, int every_block);

/*
 * A run of regions (o->regions, consecutive ones) read region by region with
 * one reader: ntx_query_rows() returns 0 at the end of each region that holds
 * events the plan reads; ntx_query_region_end() then says which region ended
 * (1) or that the run is over (0), and ntx_query_next_region() goes on. Each
 * region's figures (rows, ntidx_query_dropped(), and the event blocks read
 * since the last region's end plus *primed_event_blocks) are those of a
 * one-region query over it (ntx_query_open_region), without priming every
 * region again from the index; regions with nothing to read are passed over.
 */
int ntx_query_open_run(ntidx_query **out, ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *o,
                       int every_block);
int ntx_query_region_end(const ntidx_query *q, uint64_t *region, uint64_t *primed_event_blocks);
void ntx_query_next_region(ntidx_query *q);

/* Tell fn of every metadata row the query's readers define or derive (ntx_reader_on_metadata()), the rows
   read as context included; set before the first event. */
void ntx_query_on_metadata(ntidx_query *q, int (*fn)(void *ctx, const ntidx_metadata *m), void *ctx);

/*
 * A query in file order without a limit, a block at a time: up to `cap` of
 * its events (window and filters applied; `unfiltered`: every event of the
 * blocks its plan reads) from one event block (its offset in *block_offset)
 * as rows (ntx_reader_rows()). Returns the rows (> 0), 0 at the end, < 0 an
 * error (said as ntidx_query_next() says it). Its figures
 * (ntidx_query_get_stats(), ntidx_query_dropped()) are kept as that one's.
 */
long ntx_query_rows(ntidx_query *q, ntx_row *rows, size_t cap, uint64_t *block_offset, int unfiltered);

/* ntidx_query_next() without its argument checks, so the per-event path of the library's own loops is one call
   shorter. Errors are published as ntidx_query_next() publishes them. */
int ntx_query_next(ntidx_query *q, const ntidx_event **ev);

/* The events the query has returned so far. */
uint64_t ntx_query_returned(const ntidx_query *q);
/* ntidx_query_resume() passing over `skip` events instead of those returned (a batch that holds one back). */
int ntx_query_resume_after(ntidx_query *q, const ntidx_index *x, uint64_t skip);

/*
 * One type of event by what names it in every trace: its provider and event
 * id (any version). What an analysis reads (src/analysis/).
 */
typedef struct ntx_event_type {
    const char *provider;
    uint32_t event_id;
} ntx_event_type;

/*
 * Restrict an open query, before its first event, to events of these types
 * (copied; the provider strings must outlive the query). Over a --full index
 * the plan then skips the event blocks whose type filters hold none of them,
 * as a query with a provider and an event id skips those that cannot hold
 * that one. The other filters of the options still apply. 0 or
 * NTIDX_E_NOMEM (said as the query's errors are).
 */
int ntx_query_restrict_types(ntidx_query *q, const ntx_event_type *types, size_t n);

#endif
