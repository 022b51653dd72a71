/*
 * What the layers above use of the reader besides its public API
 * (include/ntidx/ntidx.h): plans that visit only chosen blocks (set a plan,
 * prime it with definitions, refill it region by region), rows (a block of
 * events at a time for statistics), the reader's error and figures. The
 * reader's state (struct ntidx_reader, its caches, its sequence numbers) is
 * reader_internal.h's, which no other layer includes (src/check_layers.py).
 */
#ifndef NTIDX_READER_PLAN_H
#define NTIDX_READER_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "ntidx/ntidx.h"

/*
 * A plan: the blocks a query visits, in file order, instead of walking the
 * whole file. CONTEXT steps apply definitions only (for a V3 event block:
 * its metadata rows only); RESET drops every cache before a jump to a
 * region that does not follow the previous one.
 */
enum { NTX_OP_BLOCK = 0, NTX_OP_CONTEXT = 1, NTX_OP_RESET = 2,
       NTX_OP_BASELINE = 3, /* a sequence point read only as each thread's starting sequence number */
       NTX_OP_ORIGIN = 4    /* the plan reads from the trace's start: V6 threads count from 0, as a full read's */ };

typedef struct ntx_plan_step {
    uint64_t offset;
    uint32_t size;      /* the block's size (its bytes are read ahead of the reader); 0 for RESET */
    uint8_t op;
    uint8_t forget_seq; /* event blocks were skipped before this step: sequence gaps are not drops */
    uint8_t keep;       /* read again by another region's priming (definitions, the sequence point it counts
                           from): kept from releases (ntx_trace_keep()), outside the span the reader gives back */
} ntx_plan_step;

/*
 * Called when the plan runs out: points *plan at the next steps (*len of them) and returns 1, or ends the
 * plan (0), or fails (< 0, with `err` set).
 */
typedef int (*ntx_plan_refill_fn)(void *ctx, const ntx_plan_step **plan, size_t *len, ntx_err *err);

/* Read `r` by plan from now on (its first step comes from the refill). */
void ntx_reader_set_plan(ntidx_reader *r, ntx_plan_refill_fn refill, void *ctx);
/* A plan about to be refilled with [off, off+len): asked of the kernel now when the reader is a pass (it
   has read ahead in large steps), so the next region's blocks are read while this one's are decoded. */
void ntx_reader_ask_ahead(ntidx_reader *r, uint64_t off, uint64_t len);
/*
 * A plan whose refill ended it (returned 0) goes on: the next ntx_reader_rows()
 * asks the refill again. Sequence numbers and dropped events are counted
 * afresh from here, as by a new reader (its other caches stay): what a
 * caller that reads several regions with one reader but wants each region's
 * figures as a one-region query computes them needs (ntx_query_open_run()).
 */
void ntx_reader_resume(ntidx_reader *r);
/* A reader without a plan stops at this offset (what an index covers: a trace cut short ends there, without
   an error). */
void ntx_reader_set_end(ntidx_reader *r, uint64_t end);

/*
 * One event as statistics see it (ntx_reader_rows()): what ntidx_event says
 * of its type, thread, time and size.
 */
typedef struct ntx_row {
    const ntidx_metadata *metadata;
    uint64_t thread_id; /* as ntidx_event.thread_id: the OS thread id where the trace gives one */
    uint64_t timestamp;
    uint32_t payload_size;
} ntx_row;

/*
 * The statistics' loop: in file order, up to `cap` events of one event block
 * at a time (its offset in *block_offset) as rows, with every check and count
 * ntidx_reader_next() makes (undefined references, dropped events, reader
 * statistics). Returns the rows (> 0), 0 at the end, < 0 an error (sticky,
 * message in ntx_reader_error()). Not for readers in time order.
 */
long ntx_reader_rows(ntidx_reader *r, ntx_row *rows, size_t cap, uint64_t *block_offset);

/* The next event in the reader's order: ntidx_reader_next() without its argument checks and without
   publishing an error (ntx_reader_error() holds it), for the layers above that call it once per event. */
int ntx_reader_next(ntidx_reader *r, const ntidx_event **ev);
/* Why the reader stopped (its sticky error; code 0 when none). */
const ntx_err *ntx_reader_error(const ntidx_reader *r);

/*
 * In time order, events earlier than `ts` are read (their sequence numbers, stacks and IsSorted marks
 * count as before) but never enter the sorting heap: a window query drops them anyway, and on traces
 * whose blocks overlap in time (per-thread buffers) most of what a window's blocks hold lies before it.
 * 0 (the default): every event is sorted.
 */
void ntx_reader_set_time_floor(ntidx_reader *r, uint64_t ts);
/*
 * The same above a window: of the events at or after `ts`, only one waits in the heap at a time (read as
 * before otherwise). A window query needs none of them but the one that tells it the window is over: on
 * a runtime's trace (no IsSorted marks, nothing leaves the heap before the region's end) the rest of the
 * region past the window would otherwise be copied into the heap and sorted for nothing. 0: no ceiling.
 */
void ntx_reader_set_time_ceiling(ntidx_reader *r, uint64_t ts);

/*
 * Hand out only events whose type `keep` accepts (1) where deciding costs nothing: the common rows of a
 * compressed event block. Others are still read (sequence numbers, IsSorted marks, statistics), but not
 * copied, sorted or returned; `keep` is asked once per definition. Events the fast path does not decide
 * are returned whatever their type, so the caller keeps its own test. NULL: every event. Out of memory
 * leaves the reader without a filter (it is an optimisation).
 */
void ntx_reader_set_type_filter(ntidx_reader *r, int (*keep)(void *ctx, const ntidx_metadata *m), void *ctx);

/* Call fn with every metadata row as it is defined, and with every row derived from one by V6 label
   overrides as it is first needed (the row lives until the reader's next reset); non-zero: out of memory. */
void ntx_reader_on_metadata(ntidx_reader *r, int (*fn)(void *ctx, const ntidx_metadata *m), void *ctx);
/* A V6 label list read so far overrides an opcode, version, level or keywords. */
int ntx_reader_saw_label_overrides(const ntidx_reader *r);

#endif
