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

    /*
     * The type filter (ntx_reader_set_type_filter): on the per-event fast path, an event of a type `keep`
     * refuses is read as any other (its sequence number, its IsSorted mark, the counts) but not handed out,
     * so that a query of a few types does not copy, sort and test every other event. The verdicts are
     * cached per dense metadata id as ((row offset + 1) << 1 | keep): an id defined again at another
     * offset is asked again. Events off the fast path are handed out whatever their type: the filter is a
     * saving, the caller still tests what it gets.
     */
    int (*type_keep)(void *ctx, const ntidx_metadata *m);
    void *type_keep_ctx;
    uint64_t *type_verdicts; /* NTX_IDMAP_DENSE of them; NULL: no filter */

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

/* ---- what the reader's files share (each says what it does) ---- */

/* reader.c: fail with `code`, sticky (a file that shrank under the read is said as the reason). */
int ntx_reader_fail(ntidx_reader *r, int code);
/* reader.c: an event's reference to something not defined here (NTIDX_E_UNDEFINED_REF at its offset). */
int ntx_reader_undefined(ntidx_reader *r, const ntx_hdr *h, const char *what, uint64_t id);
/* reader.c: the next row of the block being decoded (1 an event, 0 the block is over, <0 an error), and the
   next block applied (1, 0 at the end, 2 a sequence point waits: only with defer_barriers, <0 an error). */
int ntx_reader_next_row(ntidx_reader *r, ntidx_event *e);
int ntx_reader_next_block(ntidx_reader *r, int defer_barriers);
/* Bytes ahead of the row being decoded that the rows' loops ask the cache for. Far ahead: a row's place depends
   on the row before it, the trace is in the page cache (memory, not cache) and the hardware's prefetcher stops at
   each 4 KiB page, so a distance of a few lines left every page's first rows waiting for memory. With 16 KiB the
   loop decoding every header of the real 1 GB trace (a tight loop, one thread) took 0.082-0.086 s instead of
   0.160 s at 256 bytes (1 KiB 0.115-0.121, 4 KiB 0.095-0.097, 8 KiB 0.085-0.092); a prefetch past the block or
   the mapping is harmless (it never faults). */
#ifndef PREFETCH_AHEAD
#define PREFETCH_AHEAD 16384
#endif

/* reader_defs.c: the caches. A metadata row defined (once per id until a flush); a definition block applied
   (V6 metadata, stacks, threads, remove-thread, label lists); a sequence point applied (stacks and label
   lists die, V6 flags flush threads and metadata); every cache dropped (a plan's jump); the row a V6 label
   list's overrides derive from `base` (made once; NULL: out of memory). */
int ntx_reader_put_metadata(ntidx_reader *r, ntidx_metadata *m);
int ntx_reader_apply_definitions(ntidx_reader *r, const ntidx_block *b);
int ntx_reader_apply_sequence_point(ntidx_reader *r, const ntidx_block *b);
void ntx_reader_reset_caches(ntidx_reader *r);
const ntidx_metadata *ntx_reader_derived_row(ntidx_reader *r, const ntidx_metadata *base,
                                             const ntx_label_overrides *o);

/* reader_seq.c: sequence numbers. A capture thread's state (NULL: out of memory); a sequence point's or
   remove-thread entry (the thread had tried to log `seq` events); a sequence point as a starting line (a
   plan's BASELINE); blocks were skipped (the next event of each thread is a baseline); every thread counts
   from 0 (a thread flush a plan read as its baseline); a thread flush (every index starts afresh). */
ntx_seqstate *ntx_reader_seqstate(ntidx_reader *r, uint64_t capture);
int ntx_reader_seq_checkpoint(void *ctx, uint64_t thread, uint32_t seq);
int ntx_reader_seq_baseline(void *ctx, uint64_t thread, uint32_t seq);
void ntx_reader_forget_sequences(ntidx_reader *r);
void ntx_reader_seq_all_from_zero(ntidx_reader *r);
void ntx_reader_seq_threads_flushed(ntidx_reader *r);

/* reader_plan.c: the plan's next block (1 an event block or a definition, 3 a CONTEXT step's, 2 a reset
   deferred, 0 the plan's end, <0 an error), its bytes asked for ahead of the reader. */
int ntx_reader_plan_next_block(ntidx_reader *r, ntidx_block *b, int defer_barriers);

/* reader_release.c: block [off, off + size) is about to be read; give back what was read (every
   RELEASE_BYTES of blocks, and at close). */
void ntx_reader_note_read(ntidx_reader *r, uint64_t off, uint64_t size);
void ntx_reader_release(ntidx_reader *r);

/* Inline: once per event. */

/* Sequence numbers per capture thread go up by one; a gap is dropped events. */
static inline void ntx_seq_event(ntidx_reader *r, ntx_seqstate *s, uint32_t seq)
{
    if (!s->seen) {
        s->seen = 1;
        s->last = seq;
        return;
    }
    uint32_t gap = seq - s->last - 1;
    /* A reset to 1 is a new thread reusing the id; a backward step is not a drop. */
    if (gap != 0 && seq != 1 && gap < 0x80000000u) {
        s->dropped += gap;
        r->stats.dropped_events += gap;
    }
    s->last = seq;
}

/*
 * The row of an event of `m` whose V6 label list is `l`: m itself, or the row
 * the list's overrides (opcode, version, level, keywords) derive from it.
 * NULL: out of memory (said in r->err).
 */
static inline const ntidx_metadata *ntx_label_row(ntidx_reader *r, const ntidx_metadata *m, const ntx_label_ref *l)
{
    if (!l->overrides)
        return m;
    const ntidx_metadata *d = ntx_reader_derived_row(r, m, &l->o);
    if (!d)
        ntx_err_set(&r->err, NTIDX_E_NOMEM, "out of memory deriving metadata for label overrides");
    return d;
}

#endif
