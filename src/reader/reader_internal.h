/*
 * The streaming reader: walks blocks in file order, keeps the caches the
 * format defines (metadata, threads, stacks, label lists), applies
 * sequence-point flushes and thread removal, counts dropped events, and
 * hands out events in file or time order. The reader layer's own: the
 * layers above use reader_plan.h and the public API.
 */
#ifndef NTIDX_READER_INTERNAL_H
#define NTIDX_READER_INTERNAL_H

#include "arena.h"
#include "definitions.h"
#include "error.h"
#include "event_header.h"
#include "idmap.h"
#include "ntidx/ntidx.h"
#include "reader_plan.h"
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
    ntx_plan_refill_fn plan_refill; /* sets err when < 0 */
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

#endif
