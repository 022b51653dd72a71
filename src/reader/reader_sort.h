#ifndef NTIDX_READER_SORT_H
#define NTIDX_READER_SORT_H

#include "reader_internal.h"

int ntx_reader_file_next(ntidx_reader *r, ntidx_event *e, int defer_barriers);
int ntx_reader_apply_barrier(ntidx_reader *r);
int ntx_reader_time_next(ntidx_reader *r, const ntidx_event **ev);
void ntx_sort_free(ntidx_reader *r);

/* The trace's file shrank under the read (trace_internal.h): fail with its error (sticky). */
int ntx_reader_fault(ntidx_reader *r);

/* The next event in the reader's order: ntidx_reader_next() without its argument checks and without
   publishing an error (r->err holds it), for the layers above that call it once per event. */
static inline int ntx_reader_next(ntidx_reader *r, const ntidx_event **ev)
{
    int rc;
    if (r->opt.order == NTIDX_ORDER_TIME) {
        rc = ntx_reader_time_next(r, ev);
    } else {
        rc = ntx_reader_file_next(r, &r->ev, 0);
        if (rc == 1)
            *ev = &r->ev;
    }
    /* The events' checkpoint: none read from the zeros of a file that shrank is handed out. */
    if (rc == 1 && __builtin_expect(ntx_trace_faulted(r->t), 0))
        return ntx_reader_fault(r);
    return rc;
}
/*
 * In time order, events earlier than `ts` are read (their sequence numbers, stacks and IsSorted marks
 * count as before) but never enter the sorting heap: a window query drops them anyway, and on traces
 * whose blocks overlap in time (per-thread buffers) most of what a window's blocks hold lies before it.
 * 0 (the default): every event is sorted.
 */
static inline void ntx_reader_set_time_floor(ntidx_reader *r, uint64_t ts) { r->time_floor = ts; }
/*
 * The same above a window: of the events at or after `ts`, only one waits in the heap at a time (read as
 * before otherwise). A window query needs none of them but the one that tells it the window is over: on
 * a runtime's trace (no IsSorted marks, nothing leaves the heap before the region's end) the rest of the
 * region past the window would otherwise be copied into the heap and sorted for nothing. 0: no ceiling.
 */
static inline void ntx_reader_set_time_ceiling(ntidx_reader *r, uint64_t ts) { r->time_ceiling = ts; }

void ntx_reader_set_plan(ntidx_reader *r, int (*refill)(void *, const ntx_plan_step **, size_t *, ntx_err *),
                         void *ctx);
/* A plan about to be refilled with [off, off+len): asked of the kernel now when the reader is a pass (it
   has read ahead in large steps), so the next region's blocks are read while this one's are decoded. */
void ntx_reader_ask_ahead(ntidx_reader *r, uint64_t off, uint64_t len);
/* Call fn with every metadata row as it is defined, and with every row derived from one by V6 label
   overrides as it is first needed (the row lives until the reader's next reset). */
void ntx_reader_on_metadata(ntidx_reader *r, int (*fn)(void *ctx, const ntidx_metadata *m), void *ctx);

#endif
