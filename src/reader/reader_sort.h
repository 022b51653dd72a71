/* Time order over the file-order reader (reader_sort.c): what reader.c and reader_sort.c share. */
#ifndef NTIDX_READER_SORT_H
#define NTIDX_READER_SORT_H

#include "reader_internal.h"

int ntx_reader_file_next(ntidx_reader *r, ntidx_event *e, int defer_barriers);
int ntx_reader_apply_barrier(ntidx_reader *r);
int ntx_reader_time_next(ntidx_reader *r, const ntidx_event **ev);
void ntx_sort_free(ntidx_reader *r);
/* An event marked IsSorted at (ts, off) was read: nothing later is earlier than it, so every waiting event up to
   its key may leave. Also for an event the type filter does not hand out: its mark holds all the same. */
static inline void ntx_sort_mark(ntidx_reader *r, uint64_t ts, uint64_t off)
{
    if (ts > r->wm_ts || (ts == r->wm_ts && off > r->wm_off)) {
        r->wm_ts = ts;
        r->wm_off = off;
    }
}

/* The trace's file shrank under the read (trace_internal.h): fail with its error (sticky). */
int ntx_reader_fault(ntidx_reader *r);

#endif
