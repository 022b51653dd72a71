/*
 * The streaming reader: walks blocks in file order, keeps the caches the
 * format defines (metadata, threads, stacks, label lists), applies
 * sequence-point flushes and thread removal, counts dropped events, and
 * hands out events in file or time order.
 */
#ifndef NTIDX_READER_INTERNAL_H
#define NTIDX_READER_INTERNAL_H

#include "arena.h"
#include "definitions.h"
#include "error.h"
#include "event_header.h"
#include "idmap.h"
#include "ntidx/ntidx.h"
#include "trace_internal.h"

/* Per capture thread sequence-number state. */
typedef struct ntx_seqstate {
    uint64_t capture;
    uint64_t os_tid;
    uint64_t dropped;
    uint32_t last;
    uint8_t seen;
} ntx_seqstate;

typedef struct ntx_stack_ref {
    const uint8_t *ips;
    uint32_t size;
} ntx_stack_ref;

/* A V6 label list: its labels, and what they override in the metadata of its events. */
typedef struct ntx_label_ref {
    const uint8_t *labels;
    uint32_t size;
    int overrides; /* 1 when `o` overrides something */
    ntx_label_overrides o;
} ntx_label_ref;

/* A metadata row derived for events whose label list overrides it (chained per hash). */
typedef struct ntx_derived {
    ntidx_metadata *row;
    const ntidx_metadata *base;
    ntx_label_overrides o;
    struct ntx_derived *next;
} ntx_derived;

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
} ntx_plan_step;

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
 * The threads of the event block being decoded into rows, looked up once per
 * run of events of one thread (events come in runs per thread; metadata,
 * stack and label list ids change from event to event and are looked up).
 */
typedef struct ntx_row_cache {
    int have_thread;
    uint64_t thread, thread_id;
    struct ntx_seqstate *seq; /* NULL: no capture thread yet */
    uint64_t capture, capture_id;
} ntx_row_cache;

/* Time ordering: events wait in a heap keyed by (timestamp, file offset). */
typedef struct ntx_heap_item {
    uint64_t ts, off;
    uint32_t slot;
} ntx_heap_item;

struct ntidx_reader {
    ntidx_trace *t;
    ntidx_reader_options opt;
    ntx_err err;
    int failed;      /* sticky error code */
    int at_end;      /* no more blocks */
    int complete;    /* end-of-stream marker read */
    uint64_t pos;    /* next block */
    uint64_t block_offset; /* the block being applied (messages) */
    uint64_t end_pos;/* stop at this offset (exclusive; UINT64_MAX = the whole file) */
    uint64_t ahead;  /* a walk has asked for the trace's bytes up to here (ntx_trace_walk_ahead) */

    int in_block;    /* decoding rows of `hb` */
    int block_is_metadata;
    int block_metadata_only; /* a V3 event block visited for its metadata rows only */

    const ntx_plan_step *plan; /* NULL: walk the whole file */
    size_t plan_len, plan_pos;
    size_t plan_ahead;         /* steps before this one have been read ahead (ntx_trace_prefetch) */
    size_t plan_asked;         /* and steps before this one asked of the kernel (a pass asks one read-ahead further) */
    uint32_t plan_ahead_bytes; /* the last read-ahead's size (0: none yet) */
    /* Called when the plan runs out: appends the next region's steps (returns 1) or ends it (0, <0 error). */
    int (*plan_refill)(void *ctx, const ntx_plan_step **plan, size_t *len, ntx_err *err); /* sets err when < 0 */
    void *plan_ctx;
    int pending_reset;
    int reading_context;  /* the block being applied is a plan's CONTEXT step: it defines, it counts no drops */
    int seq_from_zero;    /* V6: a capture thread seen first now counts its sequence numbers from 0 (it is
                             known to start here: a full read, the trace's start, a thread flush); else its
                             first sighting is its baseline (a plan that entered the trace in the middle) */
    ntx_hdr_block hb;
    ntx_row_cache rc;

    /* caches */
    ntx_idmap metadata;
    ntx_arena metadata_arena;
    ntx_idmap derived; /* hash of (base row, overrides) -> ntx_derived chain, in metadata_arena */
    ntx_idmap threads;
    ntx_arena thread_arena;
    ntx_idmap stacks;
    ntx_arena stack_arena;
    ntx_idmap labels;
    ntx_arena label_arena;
    ntx_idmap seqs;
    ntx_arena seq_arena;
    ntx_seqstate *last_seq; /* the last capture thread's state (runs of events share one) */

    ntidx_event ev;  /* file order: the event handed out */
    ntidx_reader_stats stats;

    /* time order */
    ntidx_event *pool;
    uint32_t pool_cap, pool_free_head;
    uint32_t *pool_next_free;
    ntx_heap_item *heap;
    uint32_t heap_len, heap_cap;
    uint64_t wm_ts, wm_off;  /* events with key <= watermark may leave */
    int wm_all;              /* region over: everything may leave */
    ntidx_block pending_barrier;
    int has_pending_barrier;
    uint64_t last_ts_out, last_off_out;
    uint64_t time_floor;     /* events earlier than this are not sorted (ntx_reader_set_time_floor) */
    uint64_t time_ceiling;   /* 0, or: of the events at or after it, one waits at a time (set_time_ceiling) */
    int over_ceiling_waiting; /* that one is in the heap */

    ntidx_dropped *dropped;
    size_t dropped_len;

    int saw_label_overrides; /* a V6 label list read overrides an opcode, version, level or keywords */
    /* Told of every metadata row defined, and of every row derived by label overrides
       (ntx_reader_on_metadata); non-zero: out of memory. */
    int (*on_metadata)(void *ctx, const ntidx_metadata *m);
    void *on_metadata_ctx;
    /*
     * Mapped trace bytes read since they were last given back to the kernel:
     * the span [rel_lo, rel_hi) of the blocks read, and their total size.
     * Every RELEASE_BYTES of blocks (and at close) the span is released
     * (MADV_DONTNEED), so a reader's resident memory stays flat whatever the
     * trace's size; pointers into it stay valid (the pages are read again
     * from the page cache if touched).
     */
    uint64_t rel_lo, rel_hi, rel_bytes;
    uint64_t live_lo; /* the first stack or label list block cached (UINT64_MAX: none): not released */
};

/*
 * The statistics' loop: in file order, up to `cap` events of one event block
 * at a time (its offset in *block_offset) as rows, with every check and count
 * ntidx_reader_next() makes (undefined references, dropped events, reader
 * statistics). Returns the rows (> 0), 0 at the end, < 0 an error (sticky,
 * message in r->err). Not for readers in time order.
 */
long ntx_reader_rows(ntidx_reader *r, ntx_row *rows, size_t cap, uint64_t *block_offset);

/*
 * A plan whose refill ended it (returned 0) goes on: the next ntx_reader_rows()
 * asks the refill again. Sequence numbers and dropped events are counted
 * afresh from here, as by a new reader (its other caches stay): what a
 * caller that reads several regions with one reader but wants each region's
 * figures as a one-region query computes them needs (ntx_query_open_run()).
 */
void ntx_reader_resume(ntidx_reader *r);

#endif
