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
       NTX_OP_BASELINE = 3 /* a sequence point read only as each thread's starting sequence number */ };

typedef struct ntx_plan_step {
    uint64_t offset;
    uint8_t op;
    uint8_t forget_seq; /* event blocks were skipped before this step: sequence gaps are not drops */
} ntx_plan_step;

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

    int in_block;    /* decoding rows of `hb` */
    int block_is_metadata;
    int block_metadata_only; /* a V3 event block visited for its metadata rows only */

    const ntx_plan_step *plan; /* NULL: walk the whole file */
    size_t plan_len, plan_pos;
    /* Called when the plan runs out: appends the next region's steps (returns 1) or ends it (0, <0 error). */
    int (*plan_refill)(void *ctx, const ntx_plan_step **plan, size_t *len, ntx_err *err); /* sets err when < 0 */
    void *plan_ctx;
    int pending_reset;
    ntx_hdr_block hb;

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

    ntidx_dropped *dropped;
    size_t dropped_len;
};

#endif
