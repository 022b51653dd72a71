/*
 * The reader: file-order decoding with the format's caches, plus time order
 * on top (reader_sort.c). See reader_internal.h.
 */
#include <stdlib.h>
#include <string.h>

#include "definitions.h"
#include "manifest.h"
#include "metadata.h"
#include "reader_internal.h"
#include "reader_sort.h"

NTIDX_API void ntidx_reader_options_defaults(ntidx_reader_options *o)
{
    memset(o, 0, sizeof *o);
    o->order = NTIDX_ORDER_FILE;
}

static int fail(ntidx_reader *r, int code)
{
    if (!r->failed) {
        /* Whatever went wrong, a file that shrank under the read is why: its lost bytes read as zeros, which
           decode to anything (the error, or none, that stopped the read included). */
        ntx_err shrunk = {0};
        if (ntx_trace_check_end(r->t, &shrunk) < 0) {
            r->err = shrunk;
            code = shrunk.code;
        }
        r->failed = code;
    }
    r->at_end = 1;
    r->in_block = 0;
    return r->failed;
}

/* ------------------------------------------------------------------ */
/* Sequence numbers and dropped events                                 */
/* ------------------------------------------------------------------ */

static ntx_seqstate *seqstate(ntidx_reader *r, uint64_t capture)
{
    /* Events come in runs per capture thread; states live until close, so the cache never dangles. */
    if (r->last_seq && r->last_seq->capture == capture)
        return r->last_seq;
    ntx_seqstate *s = ntx_idmap_get(&r->seqs, capture);
    if (s)
        return r->last_seq = s;
    s = ntx_arena_alloc(&r->seq_arena, sizeof *s);
    if (!s || ntx_idmap_put(&r->seqs, capture, s) != 0)
        return NULL;
    s->capture = s->os_tid = capture;
    /* V6 threads start counting at 0 when defined (TraceEvent does the same): a
       first event numbered N means N-1 were dropped. Before V6 a thread's first
       sighting is its baseline, and so is it for a query that enters the trace
       in the middle of each thread's numbering (seq_from_zero). */
    s->seen = r->t->gen == NTX_GEN_V6 && r->seq_from_zero;
    return r->last_seq = s;
}

/* Sequence numbers per capture thread go up by one; a gap is dropped events. */
static void seq_event(ntidx_reader *r, ntx_seqstate *s, uint32_t seq)
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

/* A sequence point or remove-thread entry: the thread had tried to log at least `seq` events. */
static int seq_checkpoint(void *ctx, uint64_t thread, uint32_t seq)
{
    ntidx_reader *r = ctx;
    ntx_seqstate *s = seqstate(r, thread);
    if (!s)
        return ntx_err_set(&r->err, NTIDX_E_NOMEM, "out of memory tracking sequence numbers");
    if (!s->seen || r->reading_context) { /* a plan's context counts nothing: its region is not being read */
        s->seen = 1;
        s->last = seq;
        return 0;
    }
    uint32_t gap = seq - s->last;
    if (gap != 0 && gap < 0x80000000u) {
        s->dropped += gap;
        r->stats.dropped_events += gap;
        s->last = seq;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Definitions                                                         */
/* ------------------------------------------------------------------ */

static int put_metadata(ntidx_reader *r, ntidx_metadata *m)
{
    ntx_manifest_fill(m); /* the runtime's events: name and layout from its manifest where the trace has none */
    /* An id is defined once until a flush (V6) forgets it: a second definition makes every later event
       ambiguous, and TraceEvent refuses the trace there too ("Metadata ID already in use"). */
    const ntidx_metadata *old = ntx_idmap_get(&r->metadata, m->id);
    if (old)
        return ntx_err_at(&r->err, NTIDX_E_CORRUPT, m->offset,
                          "metadata id %u is defined again (first at offset %llu, for %s/%s, and not flushed since)",
                          m->id, (unsigned long long)old->offset, old->provider, old->event_name);
    if (ntx_idmap_put(&r->metadata, m->id, m) != 0)
        return ntx_err_set(&r->err, NTIDX_E_NOMEM, "out of memory caching metadata");
    r->stats.metadata_rows++;
    if (r->on_metadata && r->on_metadata(r->on_metadata_ctx, m) != 0)
        return ntx_err_set(&r->err, NTIDX_E_NOMEM, "out of memory listing metadata");
    return 0;
}

void ntx_reader_on_metadata(ntidx_reader *r, int (*fn)(void *ctx, const ntidx_metadata *m), void *ctx)
{
    r->on_metadata = fn;
    r->on_metadata_ctx = ctx;
}

static int add_stack(void *ctx, uint32_t id, const uint8_t *ips, uint32_t size)
{
    ntidx_reader *r = ctx;
    ntx_stack_ref *s = ntx_arena_alloc(&r->stack_arena, sizeof *s);
    if (!s || ntx_idmap_put(&r->stacks, id, s) != 0)
        return ntx_err_set(&r->err, NTIDX_E_NOMEM, "out of memory caching stacks");
    s->ips = ips;
    s->size = size;
    r->stats.stacks++;
    return 0;
}

static int add_thread(void *ctx, const ntidx_thread *th)
{
    ntidx_reader *r = ctx;
    /* A thread index is defined once until a thread flush or its RemoveThread (TraceEvent refuses a
       duplicate too: "Duplicate thread index"). */
    if (ntx_idmap_get(&r->threads, th->index))
        return ntx_err_at(&r->err, NTIDX_E_CORRUPT, r->block_offset,
                          "thread index %llu is defined again in this thread block without a thread flush or a "
                          "RemoveThread since its definition",
                          (unsigned long long)th->index);
    ntidx_thread *c = ntx_arena_alloc(&r->thread_arena, sizeof *c);
    if (!c)
        return ntx_err_set(&r->err, NTIDX_E_NOMEM, "out of memory caching threads");
    *c = *th;
    if (ntx_idmap_put(&r->threads, c->index, c) != 0)
        return ntx_err_set(&r->err, NTIDX_E_NOMEM, "out of memory caching threads");
    if (!r->reading_context) {
        /* A thread defined here starts its numbering here (a definition comes first, after a thread flush
           or its index's RemoveThread, all of which a full read counts from 0): so does a plan that did not
           know it. A thread a plan knows (a sequence point listed it) keeps what it knows. */
        ntx_seqstate *s = seqstate(r, c->index);
        if (!s)
            return ntx_err_set(&r->err, NTIDX_E_NOMEM, "out of memory tracking sequence numbers");
        if (!s->seen) {
            s->seen = 1;
            s->last = 0;
        }
    }
    return 0;
}

static int remove_thread(void *ctx, uint64_t index, uint32_t seq)
{
    ntidx_reader *r = ctx;
    int rc = seq_checkpoint(r, index, seq);
    if (rc < 0)
        return rc;
    if (!ntx_idmap_remove(&r->threads, index))
        return ntx_err_at(&r->err, NTIDX_E_UNDEFINED_REF, r->pos, "remove-thread names thread index %llu, which is not defined",
                          (unsigned long long)index);
    /* The thread's rows stay in the arena: buffered events may still point at them. */
    ntx_seqstate *s = ntx_idmap_get(&r->seqs, index);
    if (s)
        s->last = 0; /* a later thread with this index starts afresh */
    return 0;
}

static int add_label_list(void *ctx, uint32_t id, const uint8_t *p, uint32_t size)
{
    ntidx_reader *r = ctx;
    ntx_label_ref *l = ntx_arena_alloc(&r->label_arena, sizeof *l);
    if (!l || ntx_idmap_put(&r->labels, id, l) != 0)
        return ntx_err_set(&r->err, NTIDX_E_NOMEM, "out of memory caching label lists");
    l->labels = p;
    l->size = size;
    l->overrides = ntx_label_list_overrides(p, size, &l->o);
    r->saw_label_overrides |= l->overrides;
    return 0;
}

/* Metadata rows die at a metadata flush or a cache reset: so do the rows derived from them. */
static void forget_metadata(ntidx_reader *r)
{
    ntx_idmap_clear(&r->metadata);
    ntx_idmap_clear(&r->derived);
    ntx_arena_free(&r->metadata_arena);
}

static uint64_t derived_hash(const ntidx_metadata *base, const ntx_label_overrides *o)
{
    uint64_t h = (uint64_t)(uintptr_t)base * 0x9E3779B97F4A7C15ULL;
    h ^= ((uint64_t)(uint32_t)o->opcode << 40) ^ ((uint64_t)(uint32_t)o->version << 20) ^ (uint32_t)o->level;
    h ^= o->has_keywords ? o->keywords * 0xC2B2AE3D27D4EB4FULL + 1 : 0;
    return h;
}

/* The row of an event of `base` whose label list overrides it (ntx_metadata_derive), made once. */
static const ntidx_metadata *derived_row(ntidx_reader *r, const ntidx_metadata *base, const ntx_label_overrides *o)
{
    uint64_t h = derived_hash(base, o);
    ntx_derived *first = ntx_idmap_get(&r->derived, h);
    for (ntx_derived *d = first; d; d = d->next)
        if (d->base == base && d->o.opcode == o->opcode && d->o.version == o->version && d->o.level == o->level &&
            d->o.has_keywords == o->has_keywords && d->o.keywords == o->keywords)
            return d->row;
    ntx_derived *d = ntx_arena_alloc(&r->metadata_arena, sizeof *d);
    if (!d || ntx_metadata_derive(&r->metadata_arena, base, o, &d->row) < 0)
        return NULL;
    d->base = base;
    d->o = *o;
    d->next = first;
    if (ntx_idmap_put(&r->derived, h, d) != 0)
        return NULL;
    /* a type of its own: listeners of definitions hear of it as of a row defined (the type listing) */
    if (r->on_metadata && r->on_metadata(r->on_metadata_ctx, d->row) != 0)
        return NULL;
    return d->row;
}

/*
 * The row of an event of `m` whose V6 label list is `l`: m itself, or the row
 * the list's overrides (opcode, version, level, keywords) derive from it.
 * NULL: out of memory (said in r->err).
 */
static inline const ntidx_metadata *label_row(ntidx_reader *r, const ntidx_metadata *m, const ntx_label_ref *l)
{
    if (!l->overrides)
        return m;
    const ntidx_metadata *d = derived_row(r, m, &l->o);
    if (!d)
        ntx_err_set(&r->err, NTIDX_E_NOMEM, "out of memory deriving metadata for label overrides");
    return d;
}

static int read_v6_metadata_block(ntidx_reader *r, const ntidx_block *b)
{
    ntx_cur c;
    ntx_cur_init(&c, r->t->data, b->payload_offset, b->payload_size);
    uint16_t hsize = ntx_cur_u16(&c); /* does not count itself */
    ntx_cur_skip(&c, hsize);
    if (c.err)
        return ntx_err_at(&r->err, NTIDX_E_CORRUPT, b->payload_offset, "metadata block header size %u runs past the block",
                          hsize);
    while (ntx_cur_left(&c) > 0) {
        ntidx_metadata *m;
        int rc = ntx_metadata_parse_v6_row(&r->metadata_arena, &c, &m, &r->err);
        if (rc < 0)
            return rc;
        if ((rc = put_metadata(r, m)) < 0)
            return rc;
    }
    return 0;
}

static void reset_seq(void *ctx, uint64_t key, void *val)
{
    (void)ctx;
    (void)key;
    ((ntx_seqstate *)val)->last = 0;
}

/* What a sequence point flushes (definitions.h: ntx_sp_flushes()) forgotten. */
static int apply_sequence_point(ntidx_reader *r, const ntidx_block *b)
{
    ntx_seqpoint sp;
    int rc = ntx_decode_sequence_point(r->t, b, &sp, seq_checkpoint, r, &r->err);
    if (rc < 0)
        return rc;
    r->stats.sequence_points++;
    if (sp.flushes & NTX_FLUSH_STACKS) {
        ntx_idmap_clear(&r->stacks);
        ntx_arena_free(&r->stack_arena);
    }
    if (sp.flushes & NTX_FLUSH_LABEL_LISTS) {
        ntx_idmap_clear(&r->labels);
        ntx_arena_free(&r->label_arena);
    }
    r->live_lo = UINT64_MAX;
    if (sp.flushes & NTX_FLUSH_THREADS) {
        ntx_idmap_clear(&r->threads);
        ntx_arena_free(&r->thread_arena);
        /* After the checks above, every thread index starts afresh. */
        ntx_idmap_each(&r->seqs, reset_seq, NULL);
    }
    if (sp.flushes & NTX_FLUSH_METADATA)
        forget_metadata(r);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Memory: mapped bytes given back behind the reader                   */
/* ------------------------------------------------------------------ */

/* A reader gives back what it has read every this many bytes of blocks. */
#define RELEASE_BYTES (32ull << 20)

/*
 * Give back the span of the blocks read since the last release, up to the page
 * boundary before its end (the page that holds the next block's start stays),
 * not past the first stack or label list block still cached (events point
 * into them), and in time order not past the first event still waiting to
 * be sorted (its payload, and those after it, are still to be handed out).
 * What is kept stays in the span for the next release.
 */
static void release_read(ntidx_reader *r)
{
    uint64_t end = r->rel_hi < r->live_lo ? r->rel_hi : r->live_lo;
    for (uint32_t i = 0; i < r->heap_len; i++)
        if (r->heap[i].off < end)
            end = r->heap[i].off;
    end &= ~(uint64_t)4095;
    if (end > r->rel_lo) {
        ntx_trace_release(r->t, r->rel_lo, end - r->rel_lo);
        r->rel_lo = end;
    }
    if (r->rel_lo >= r->rel_hi)
        r->rel_lo = r->rel_hi = 0;
    r->rel_bytes = 0;
}

/*
 * Block [off, off + size) is about to be read. Once the blocks read since the
 * last release add up to RELEASE_BYTES, their span is released first. A
 * plan's jumps back to definitions (before the span) widen it: a definition
 * block released and read again costs a page fault.
 */
static void note_read(ntidx_reader *r, uint64_t off, uint64_t size)
{
    if (!r->t->map)
        return;
    if (r->rel_bytes >= RELEASE_BYTES)
        release_read(r);
    if (r->rel_hi == r->rel_lo) {
        r->rel_lo = off;
        r->rel_hi = off + size;
    } else {
        if (off < r->rel_lo)
            r->rel_lo = off;
        if (off + size > r->rel_hi)
            r->rel_hi = off + size;
    }
    r->rel_bytes += size;
}

/* ------------------------------------------------------------------ */
/* Events                                                              */
/* ------------------------------------------------------------------ */

static int undefined_at(ntidx_reader *r, uint64_t offset, const char *what, uint64_t id)
{
    return ntx_err_at(&r->err, NTIDX_E_UNDEFINED_REF, offset, "event references %s %llu, which is not defined here",
                      what, (unsigned long long)id);
}

static int undefined(ntidx_reader *r, const ntx_hdr *h, const char *what, uint64_t id)
{
    return undefined_at(r, h->offset, what, id);
}

/* The fields every event takes from its header as it stands, with its metadata row m; no thread, stack or
   label list yet (make_event() and the compressed rows' loop set those). */
static inline __attribute__((always_inline)) void fill_event(const ntidx_reader *r, const ntx_hdr *h,
                                                            const ntidx_metadata *m, ntidx_event *e)
{
    e->offset = h->offset;
    e->timestamp = h->timestamp;
    e->thread_index = e->thread_id = h->thread;
    e->capture_thread_index = e->capture_thread_id = h->capture;
    e->metadata_id = h->metadata_id;
    e->sequence_number = h->seq;
    e->processor_number = h->proc;
    e->stack_id = h->stack_id;
    e->label_list_id = h->label_id;
    e->payload_size = h->payload_size;
    e->is_sorted = h->is_sorted;
    e->payload = r->t->data + h->payload_off;
    e->activity_id = h->activity;
    e->related_activity_id = h->related;
    e->metadata = m;
    e->thread = NULL;
    e->stack = NULL;
    e->stack_size = 0;
    e->label_list = NULL;
    e->label_list_size = 0;
}

/* A V6 event's thread and capture thread: the thread record, and their OS ids where the trace gives them. */
static inline __attribute__((always_inline)) void set_v6_threads(ntidx_event *e, const ntidx_thread *th,
                                                                 const ntidx_thread *ct)
{
    e->thread = th;
    if (th->has_os_thread_id)
        e->thread_id = th->os_thread_id;
    if (ct->has_os_thread_id)
        e->capture_thread_id = ct->os_thread_id;
}

static int make_event(ntidx_reader *r, const ntx_hdr *h, ntidx_event *e)
{
    const ntidx_metadata *m = ntx_idmap_get(&r->metadata, h->metadata_id);
    if (!m)
        return undefined(r, h, "metadata id", h->metadata_id);
    fill_event(r, h, m, e);
    ntidx_trace *t = r->t;
    if (t->gen == NTX_GEN_V6) {
        const ntidx_thread *th = ntx_idmap_get(&r->threads, h->thread);
        if (!th)
            return undefined(r, h, "thread index", h->thread);
        const ntidx_thread *ct = h->capture == h->thread ? th : ntx_idmap_get(&r->threads, h->capture);
        if (!ct)
            return undefined(r, h, "capture thread index", h->capture);
        set_v6_threads(e, th, ct);
        if (h->label_id) {
            const ntx_label_ref *l = ntx_idmap_get(&r->labels, h->label_id);
            if (!l)
                return undefined(r, h, "label list id", h->label_id);
            e->label_list = l->labels;
            e->label_list_size = l->size;
            if (!(e->metadata = label_row(r, m, l)))
                return NTIDX_E_NOMEM;
        }
    }
    if (t->gen == NTX_GEN_NETPERF) {
        e->stack = h->stack;
        e->stack_size = h->stack_size;
    } else if (h->stack_id) {
        const ntx_stack_ref *s = ntx_idmap_get(&r->stacks, h->stack_id);
        if (!s)
            return undefined(r, h, "stack id", h->stack_id);
        e->stack = s->ips;
        e->stack_size = s->size;
    }
    if (t->gen != NTX_GEN_NETPERF) {
        ntx_seqstate *s = seqstate(r, h->capture);
        if (!s)
            return ntx_err_set(&r->err, NTIDX_E_NOMEM, "out of memory tracking sequence numbers");
        s->os_tid = e->capture_thread_id;
        seq_event(r, s, h->seq);
    }
    r->stats.events++;
    return 0;
}

/* Start decoding the rows of an event block or a V4/V5 metadata block. */
static int begin_rows(ntidx_reader *r, const ntidx_block *b, int is_metadata)
{
    int rc = ntx_hdr_block_init(&r->hb, r->t, b, &r->err);
    if (rc < 0)
        return rc;
    r->in_block = 1;
    r->block_is_metadata = is_metadata;
    r->block_metadata_only = 0;
    memset(&r->rc, 0, sizeof r->rc);
    return 0;
}

static void forget_seq(void *ctx, uint64_t key, void *val)
{
    (void)ctx;
    (void)key;
    ((ntx_seqstate *)val)->seen = 0;
}

/* Blocks were skipped: the next event of each thread is a new baseline, not a gap. */
static void forget_sequences(ntidx_reader *r)
{
    ntx_idmap_each(&r->seqs, forget_seq, NULL);
    r->seq_from_zero = 0;
}

static void seq_from_zero(void *ctx, uint64_t key, void *val)
{
    (void)ctx;
    (void)key;
    ntx_seqstate *s = val;
    s->seen = 1;
    s->last = 0;
}

static void restart_seq(void *ctx, uint64_t key, void *val)
{
    (void)ctx;
    (void)key;
    ntx_seqstate *s = val;
    s->os_tid = s->capture;
    s->dropped = 0;
    s->last = 0;
    s->seen = 0;
}

void ntx_reader_resume(ntidx_reader *r)
{
    /* Every state as seqstate() makes a new one for a plan (never seen): what a new reader would have. */
    ntx_idmap_each(&r->seqs, restart_seq, NULL);
    r->seq_from_zero = 0;
    r->at_end = 0;
}

/* A sequence point as a starting line: each listed thread had tried to log `seq` events so far. */
static int seq_baseline(void *ctx, uint64_t thread, uint32_t seq)
{
    ntidx_reader *r = ctx;
    ntx_seqstate *s = seqstate(r, thread);
    if (!s)
        return ntx_err_set(&r->err, NTIDX_E_NOMEM, "out of memory tracking sequence numbers");
    s->seen = 1;
    s->last = seq;
    return 0;
}

/* Drop every cache: the next blocks come from a region that does not follow the last one. */
static void reset_caches(ntidx_reader *r)
{
    forget_metadata(r);
    ntx_idmap_clear(&r->threads);
    ntx_arena_free(&r->thread_arena);
    ntx_idmap_clear(&r->stacks);
    ntx_arena_free(&r->stack_arena);
    ntx_idmap_clear(&r->labels);
    ntx_arena_free(&r->label_arena);
    r->live_lo = UINT64_MAX;
    forget_sequences(r);
}

void ntx_reader_set_plan(ntidx_reader *r, int (*refill)(void *, const ntx_plan_step **, size_t *, ntx_err *),
                         void *ctx)
{
    static const ntx_plan_step none[1];
    r->plan = none;
    r->plan_len = 0;
    r->plan_pos = 0;
    r->plan_ahead = 0;
    r->plan_asked = 0;
    r->plan_refill = refill;
    r->plan_ctx = ctx;
}

/*
 * A plan reads ahead of itself: the blocks it is about to read are asked of
 * the kernel exactly (adjacent ones in one range), so a trace that is not in
 * the page cache is read with a few reads of what the plan needs, never with
 * page faults that pull in read-ahead around them (the mapping is advised
 * random access). Not the whole plan at once: a seek or a query with a limit
 * may stop after its first blocks. The first read-ahead of a reader is
 * PLAN_AHEAD_FIRST bytes of blocks (a 10 ms window's or a seek's blocks of a
 * runtime's trace), each next one twice the last, up to PLAN_AHEAD_MAX; each
 * is mapped when the reader reaches it.
 *
 * A reader that goes on past its first read-aheads is a pass: from then on
 * the kernel is also asked for the next read-ahead's blocks while the reader
 * decodes this one's (and, by ntx_reader_ask_ahead(), for the next region's
 * while it reads the last of this one), so a cold pass reads the disk while
 * it decodes instead of in turns with it.
 */
#define PLAN_AHEAD_FIRST (256u << 10)
#define PLAN_AHEAD_MAX (4u << 20)
#define PLAN_PASS (1u << 20) /* read-aheads this large are a pass's */

/* Steps from `*from` holding up to `bytes` bytes of blocks: each run of adjacent blocks handed to `use`. */
static size_t plan_ranges(ntidx_reader *r, size_t from, uint64_t bytes,
                          void (*use)(const ntidx_trace *, uint64_t, uint64_t))
{
    uint64_t ahead = 0, lo = 0, hi = 0;
    while (from < r->plan_len && ahead < bytes) {
        const ntx_plan_step *st = &r->plan[from++];
        if (!st->size)
            continue;
        if (hi > lo && st->offset != hi) {
            use(r->t, lo, hi - lo);
            lo = hi = 0;
        }
        if (hi == lo)
            lo = st->offset;
        hi = st->offset + st->size;
        ahead += st->size;
    }
    if (hi > lo)
        use(r->t, lo, hi - lo);
    return from;
}

static void plan_read_ahead(ntidx_reader *r)
{
    if (!r->t->map)
        return;
    if (r->plan_ahead < r->plan_pos)
        r->plan_ahead = r->plan_pos;
    r->plan_ahead_bytes = !r->plan_ahead_bytes ? PLAN_AHEAD_FIRST
                          : r->plan_ahead_bytes < PLAN_AHEAD_MAX ? 2 * r->plan_ahead_bytes
                                                                 : PLAN_AHEAD_MAX;
    r->plan_ahead = plan_ranges(r, r->plan_ahead, r->plan_ahead_bytes, ntx_trace_map_ahead);
    if (r->plan_ahead_bytes >= PLAN_PASS && r->plan_asked < r->plan_ahead + r->plan_ahead_bytes / 4096)
        r->plan_asked = plan_ranges(r, r->plan_ahead > r->plan_asked ? r->plan_ahead : r->plan_asked,
                                    r->plan_ahead_bytes, ntx_trace_prefetch);
}

void ntx_reader_ask_ahead(ntidx_reader *r, uint64_t off, uint64_t len)
{
    if (r->plan_ahead_bytes >= PLAN_PASS)
        ntx_trace_prefetch(r->t, off, len);
}

/* Next block of the plan; 0 at its end. */
static int plan_next_block(ntidx_reader *r, ntidx_block *b, int defer_barriers)
{
    for (;;) {
        if (r->plan_pos >= r->plan_len) {
            int rc = r->plan_refill ? r->plan_refill(r->plan_ctx, &r->plan, &r->plan_len, &r->err) : 0;
            if (rc <= 0)
                return rc < 0 ? ntx_err_set(&r->err, rc, "cannot plan the query") : 0;
            r->plan_pos = 0;
            r->plan_ahead = 0;
            r->plan_asked = 0;
            continue;
        }
        if (r->plan_ahead <= r->plan_pos)
            plan_read_ahead(r);
        const ntx_plan_step *st = &r->plan[r->plan_pos++];
        if (st->forget_seq)
            forget_sequences(r);
        if (st->op == NTX_OP_RESET) {
            if (defer_barriers) {
                r->pending_reset = 1;
                return 2;
            }
            reset_caches(r);
            continue;
        }
        if (st->op == NTX_OP_ORIGIN) {
            r->seq_from_zero = 1;
            continue;
        }
        uint64_t pos = st->offset;
        ntx_err walk = {0};
        int rc = ntx_next_block(r->t, &pos, b, &walk);
        if (rc != 1) {
            /* The index was validated against this trace: a miss means the file changed under us. */
            return ntx_err_at(&r->err, NTIDX_E_CORRUPT, st->offset,
                              "the index points at a block here but the trace has none (%s)",
                              walk.msg[0] ? walk.msg : "end of stream");
        }
        if (st->op == NTX_OP_BASELINE) {
            ntx_seqpoint sp;
            if ((rc = ntx_decode_sequence_point(r->t, b, &sp, seq_baseline, r, &r->err)) < 0)
                return rc;
            if (sp.flushes & NTX_FLUSH_THREADS) {
                /* it flushed the threads: as after a full read's checks, every thread counts from 0 */
                ntx_idmap_each(&r->seqs, seq_from_zero, NULL);
                r->seq_from_zero = 1;
            }
            continue;
        }
        return st->op == NTX_OP_CONTEXT ? 3 : 1;
    }
}

/* Blocks other than events: returns 0, or 2 when a sequence point is deferred. */
static int apply_block(ntidx_reader *r, const ntidx_block *b, int defer_barriers)
{
    ntidx_trace *t = r->t;
    r->block_offset = b->offset;
    switch (b->kind) {
    case NTIDX_BLOCK_EVENT: return begin_rows(r, b, 0);
    case NTIDX_BLOCK_METADATA:
        return t->gen == NTX_GEN_V6 ? read_v6_metadata_block(r, b) : begin_rows(r, b, 1);
    case NTIDX_BLOCK_SEQUENCE_POINT:
        if (defer_barriers) {
            r->pending_barrier = *b;
            r->has_pending_barrier = 1;
            return 2;
        }
        return apply_sequence_point(r, b);
    case NTIDX_BLOCK_STACK:
        if (b->offset < r->live_lo)
            r->live_lo = b->offset;
        return ntx_decode_stack_block(t, b, add_stack, r, &r->err);
    case NTIDX_BLOCK_THREAD: return ntx_decode_thread_block(t, b, &r->thread_arena, add_thread, r, &r->err);
    case NTIDX_BLOCK_REMOVE_THREAD: return ntx_decode_remove_thread_block(t, b, remove_thread, r, &r->err);
    case NTIDX_BLOCK_LABEL_LIST:
        if (b->offset < r->live_lo)
            r->live_lo = b->offset;
        return ntx_decode_label_list_block(t, b, add_label_list, r, &r->err);
    case NTIDX_BLOCK_TRACE: return 0; /* read at open */
    default: r->stats.unknown_blocks++; return 0;
    }
}

int ntx_reader_apply_barrier(ntidx_reader *r)
{
    if (r->pending_reset) {
        r->pending_reset = 0;
        reset_caches(r);
        return 0;
    }
    r->has_pending_barrier = 0;
    int rc = apply_sequence_point(r, &r->pending_barrier);
    return rc < 0 ? fail(r, rc) : 0;
}

/*
 * Advance in file order to the next event, applying every other block on
 * the way. Returns 1 (event in *e), 2 (a sequence point is waiting: only
 * with defer_barriers), 0 (end), <0 (error, sticky).
 */
/*
 * The next row of the block being decoded: 1 an event in *e, 0 the block is
 * over (in_block cleared), <0 an error (sticky). Metadata rows (V4/V5
 * metadata blocks, V3 rows with metadata id 0) are applied on the way.
 */
static int next_row(ntidx_reader *r, ntidx_event *e)
{
    ntidx_trace *t = r->t;
    for (;;) {
        const ntx_hdr *hp;
        int rc = ntx_hdr_next_ref(&r->hb, &hp, &r->err);
        if (rc < 0)
            return fail(r, rc);
        if (rc == 0) {
            r->in_block = 0;
            return 0;
        }
        if (r->block_metadata_only && hp->metadata_id != 0)
            continue; /* a V3 block visited for its definitions: its events are outside the query */
        if (r->block_is_metadata || (t->gen == NTX_GEN_NETPERF && hp->metadata_id == 0)) {
            ntidx_metadata *m;
            int v5 = 0;
            rc = ntx_metadata_parse_blob(&r->metadata_arena, t->data, hp->payload_off, hp->payload_size, &m, &v5,
                                         &r->err);
            if (rc == 0)
                rc = put_metadata(r, m);
            if (rc < 0)
                return fail(r, rc);
            continue;
        }
        rc = make_event(r, hp, e);
        if (rc < 0)
            return fail(r, rc);
        return 1;
    }
}

/* Bytes ahead of the row being decoded that the rows' loops ask the cache for. */
#ifndef PREFETCH_AHEAD
#define PREFETCH_AHEAD 256
#endif

/*
 * next_row() for a block of event rows with compressed headers (what every
 * runtime writes), once per event of a full pass: the header decoder inlined,
 * and before V6 the references looked up in the maps' dense arrays and the
 * capture thread's state taken from the last event's when it is the same
 * thread. Anything else (V6 threads and label lists, ids past the dense
 * arrays, an undefined reference) goes through make_event(), which makes
 * the same event or says what is wrong, so the events and errors are
 * next_row()'s.
 */
static inline __attribute__((always_inline)) int next_compressed_row(ntidx_reader *r, ntidx_event *e, const int v6)
{
    ntx_hdr_block *hb = &r->hb;
    const uint8_t *at = hb->p, *p = at;
    if (p >= hb->end) {
        r->in_block = 0;
        return 0;
    }
    ntx_hdr *h = &hb->prev;
    const char *what;
    /* the rows' loop's prefetch: each row's place depends on the one before it */
    __builtin_prefetch(p + PREFETCH_AHEAD);
    __builtin_prefetch(p + PREFETCH_AHEAD + 64);
    if (__builtin_expect(!ntx_hdr_decode_compressed(h, &p, hb->end, v6, &what), 0))
        return fail(r, ntx_hdr_row_error(hb, at, &r->err, what));
    h->offset = (uint64_t)(at - hb->base);
    h->payload_off = (uint64_t)(p - hb->base);
    hb->p = p + h->payload_size;
    const uint32_t mid = h->metadata_id, sid = h->stack_id;
    const ntidx_metadata *m;
    const ntx_stack_ref *st = NULL;
    const ntidx_thread *th = NULL, *ct = NULL;
    const ntx_label_ref *lr = NULL;
    ntx_seqstate *ss = r->last_seq;
    /* The common case inline: ids in the dense arrays, defined, and the capture thread the last one's. V6 also
       needs its thread indexes and label list id there, and a list that overrides nothing (a one-collect trace:
       a sampled thread at nearly every event, one capture thread, a label list on each). Anything else,
       undefined ids included, goes through make_event(). */
    if (__builtin_expect((mid | sid) >= NTX_IDMAP_DENSE, 0) || !(m = ntx_idmap_dense(&r->metadata)[mid]) ||
        (sid && !(st = ntx_idmap_dense(&r->stacks)[sid])) || !ss || ss->capture != h->capture ||
        (v6 && ((h->thread | h->capture | h->label_id) >= NTX_IDMAP_DENSE ||
                !(th = ntx_idmap_dense(&r->threads)[h->thread]) ||
                !(ct = ntx_idmap_dense(&r->threads)[h->capture]) ||
                (h->label_id && (!(lr = ntx_idmap_dense(&r->labels)[h->label_id]) || lr->overrides))))) {
        int rc = make_event(r, h, e);
        return rc < 0 ? fail(r, rc) : 1;
    }
    fill_event(r, h, m, e);
    if (v6) { /* as make_event() */
        set_v6_threads(e, th, ct);
        if (lr) {
            e->label_list = lr->labels;
            e->label_list_size = lr->size;
        }
    }
    if (st) {
        e->stack = st->ips;
        e->stack_size = st->size;
    }
    ss->os_tid = e->capture_thread_id;
    seq_event(r, ss, h->seq);
    r->stats.events++;
    return 1;
}

/*
 * The next block, applied (an event block is then being decoded: in_block):
 * 1, 0 at the end, 2 a sequence point is waiting (only with defer_barriers),
 * <0 an error (sticky).
 */
static int next_block(ntidx_reader *r, int defer_barriers)
{
    ntidx_trace *t = r->t;
    ntidx_block b;
    int rc;
    if (r->plan) {
        rc = plan_next_block(r, &b, defer_barriers);
        if (rc == 0) {
            if (ntx_trace_check_end(t, &r->err) < 0)
                return fail(r, r->err.code);
            r->at_end = 1;
            return 0;
        }
        if (rc == 2)
            return 2;
        if (rc < 0)
            return fail(r, rc);
        if (b.kind < NTIDX_BLOCK_KIND_COUNT)
            r->stats.blocks[b.kind]++;
        r->stats.bytes_read += b.size;
        note_read(r, b.offset, b.size);
        if (rc == 3 && b.kind == NTIDX_BLOCK_EVENT) { /* context only: the block's metadata rows */
            if ((rc = begin_rows(r, &b, 0)) < 0)
                return fail(r, rc);
            r->block_metadata_only = 1;
            return 1;
        }
        r->reading_context = rc == 3;
        rc = apply_block(r, &b, defer_barriers);
        r->reading_context = 0;
        if (rc < 0)
            return fail(r, rc);
        return rc == 2 ? 2 : 1;
    }
    if (r->pos >= r->end_pos) {
        r->at_end = 1;
        return 0;
    }
    ntx_err walk = {0};
    ntx_trace_walk_ahead(t, r->pos, &r->ahead);
    rc = ntx_next_block(t, &r->pos, &b, &walk);
    if (rc == 0) {
        r->complete = 1;
        r->at_end = 1;
        r->stats.end_offset = r->pos;
        return 0;
    }
    if (rc == NTIDX_E_TRUNCATED) {
        /* A writer that stopped early: everything before here was read. */
        r->err = walk;
        r->err.code = 0;
        r->at_end = 1;
        r->stats.end_offset = r->pos;
        return 0;
    }
    if (rc < 0) {
        r->err = walk;
        return fail(r, rc);
    }
    r->stats.end_offset = r->pos;
    r->stats.bytes_read += b.size;
    if (b.kind < NTIDX_BLOCK_KIND_COUNT)
        r->stats.blocks[b.kind]++;
    note_read(r, b.offset, b.size);
    rc = apply_block(r, &b, defer_barriers);
    if (rc < 0)
        return fail(r, rc);
    return rc == 2 ? 2 : 1;
}

/*
 * Advance in file order to the next event, applying every other block on
 * the way. Returns 1 (event in *e), 2 (a sequence point is waiting: only
 * with defer_barriers), 0 (end), <0 (error, sticky).
 */
int ntx_reader_file_next(ntidx_reader *r, ntidx_event *e, int defer_barriers)
{
    if (r->failed)
        return r->failed;
    for (;;) {
        if (r->in_block) {
            int rc;
            if (r->hb.compressed && !r->block_is_metadata && !r->block_metadata_only)
                rc = r->t->gen == NTX_GEN_V6 ? next_compressed_row(r, e, 1) : next_compressed_row(r, e, 0);
            else
                rc = next_row(r, e);
            if (rc != 0)
                return rc;
            continue;
        }
        if (r->at_end)
            return 0;
        int rc = next_block(r, defer_barriers);
        if (rc != 1)
            return rc;
    }
}

/* ------------------------------------------------------------------ */
/* Rows: the statistics' loop                                          */
/* ------------------------------------------------------------------ */

/*
 * Up to `cap` rows of a block of compressed event headers (the headers every
 * runtime writes): the decoder inlined, and the references resolved through
 * the block's lookups cache (rc_*): nothing the block refers to can change
 * inside it (definitions live in blocks of their own), so a reference is
 * looked up, and checked, once per block and value. The checks, their order
 * and their messages are make_event()'s. Returns the rows decoded (0: the
 * block is over, in_block cleared), <0 an error (sticky).
 */
/*
 * An event's references checked in make_event()'s order (metadata; V6: thread,
 * capture thread, label list; stack): 0, or the error of the first undefined
 * one. The rows' loop checks them together without a branch per reference
 * and comes here for the message.
 */
static int check_refs(ntidx_reader *r, const ntx_hdr *h, const ntidx_metadata **m)
{
    if (!(*m = ntx_idmap_get(&r->metadata, h->metadata_id)))
        return undefined(r, h, "metadata id", h->metadata_id);
    if (r->t->gen == NTX_GEN_V6) {
        if (!ntx_idmap_get(&r->threads, h->thread))
            return undefined(r, h, "thread index", h->thread);
        if (!ntx_idmap_get(&r->threads, h->capture))
            return undefined(r, h, "capture thread index", h->capture);
        if (h->label_id && !ntx_idmap_get(&r->labels, h->label_id))
            return undefined(r, h, "label list id", h->label_id);
    }
    if (r->t->gen != NTX_GEN_NETPERF && h->stack_id && !ntx_idmap_get(&r->stacks, h->stack_id))
        return undefined(r, h, "stack id", h->stack_id);
    return 0;
}

/*
 * Up to `cap` rows of a block of compressed event headers (the headers every
 * runtime writes): the branch-free decoder (ntx_hdr_decode_compressed_fast)
 * while the block has room for the longest header, and the references checked
 * by unchecked loads from the maps' dense arrays, all at once. Threads come
 * in runs: a thread's OS id and its sequence-number state are looked up once
 * per run (nothing an event block refers to can change inside it: definitions
 * live in blocks of their own). The checks, their order and their messages
 * are make_event()'s (check_refs()). Returns the rows decoded (0: the block is
 * over, in_block cleared), <0 an error (sticky).
 */

static inline __attribute__((always_inline)) long rows_compressed_as(ntidx_reader *r, ntx_row *rows, size_t cap,
                                                                       const int v6)
{
    ntx_hdr_block *hb = &r->hb;
    ntx_hdr h = hb->prev; /* the delta state, in registers while the loop runs */
    const uint8_t *p = hb->p, *const end = hb->end, *const base = hb->base;
    void *const *mdense = ntx_idmap_dense(&r->metadata), *const *sdense = ntx_idmap_dense(&r->stacks);
    void *const *ldense = ntx_idmap_dense(&r->labels), *const *tdense = ntx_idmap_dense(&r->threads);
    ntx_row_cache *c = &r->rc;
    size_t n = 0;
    long rc = 0;
    while (n < cap) {
        if (p >= end) {
            r->in_block = 0;
            break;
        }
        const uint8_t *at = p;
        const char *what;
        /* Each row's place depends on the previous row's payload size: the next rows' bytes are asked for
           ahead, or every row waits for its cache line (a prefetch past the block's end is harmless). */
        __builtin_prefetch(p + PREFETCH_AHEAD);
        __builtin_prefetch(p + PREFETCH_AHEAD + 64);
        if (__builtin_expect(!ntx_hdr_decode_compressed(&h, &p, end, v6, &what), 0)) {
            hb->p = p;
            rc = ntx_hdr_row_error(hb, at, &r->err, what);
            break;
        }
        p += h.payload_size;
        const ntidx_metadata *m;
        const ntx_label_ref *l; /* V6: the event's label list (read with the checks) */
        const uint32_t mid = h.metadata_id, sid = h.stack_id, lid = v6 ? h.label_id : 0;
        if (__builtin_expect((mid | sid | lid) < NTX_IDMAP_DENSE, 1)) {
            m = mdense[mid];
            l = v6 ? ldense[lid] : NULL;
            if (__builtin_expect((m == NULL) | ((sid != 0) & (sdense[sid] == NULL)) | ((lid != 0) & (l == NULL)), 0)) {
                h.offset = (uint64_t)(at - base);
                rc = check_refs(r, &h, &m);
                if (rc == 0) /* the thread checks, which come before the label's and the stack's, failed it */
                    rc = ntx_err_set(&r->err, NTIDX_E_CORRUPT, "internal: references checked twice differently");
                break;
            }
        } else {
            h.offset = (uint64_t)(at - base);
            if ((rc = check_refs(r, &h, &m)) < 0)
                break;
            l = v6 ? ntx_idmap_get(&r->labels, lid) : NULL;
        }
        if (v6) {
            /* Events with and without a label list interleave at random: the list (or an empty one) is
               chosen without a branch, and only a list that overrides something costs one. */
            static const ntx_label_ref no_labels;
            const uintptr_t has = (uintptr_t)0 - (lid != 0); /* a mask, not a branch (compilers keep masks) */
            l = (const ntx_label_ref *)(((uintptr_t)l & has) | ((uintptr_t)&no_labels & ~has));
            if (__builtin_expect(l->overrides, 0) && !(m = label_row(r, m, l))) {
                rc = NTIDX_E_NOMEM; /* make_event()'s row: said by label_row() */
                break;
            }
        }
        uint64_t tid = h.thread, cid = h.capture;
        if (v6) {
            if (__builtin_expect(!c->have_thread || h.thread != c->thread, 0)) {
                /* A sampling trace changes thread at nearly every event: the dense array read inline */
                const ntidx_thread *th = h.thread < NTX_IDMAP_DENSE ? tdense[h.thread]
                                                                     : ntx_idmap_get(&r->threads, h.thread);
                if (!th) {
                    h.offset = (uint64_t)(at - base);
                    rc = check_refs(r, &h, &m);
                    break;
                }
                c->thread = h.thread;
                c->thread_id = th->has_os_thread_id ? th->os_thread_id : h.thread;
                c->have_thread = 1;
            }
            tid = c->thread_id;
            if (__builtin_expect(!c->seq || h.capture != c->capture, 0)) {
                const ntidx_thread *ct = ntx_idmap_get(&r->threads, h.capture);
                if (!ct) {
                    h.offset = (uint64_t)(at - base);
                    rc = check_refs(r, &h, &m);
                    break;
                }
                c->capture_id = ct->has_os_thread_id ? ct->os_thread_id : h.capture;
            }
            cid = c->capture_id;
        }
        if (__builtin_expect(!c->seq || h.capture != c->capture, 0)) {
            c->seq = seqstate(r, h.capture);
            if (!c->seq) {
                rc = ntx_err_set(&r->err, NTIDX_E_NOMEM, "out of memory tracking sequence numbers");
                break;
            }
            c->capture = h.capture;
            c->seq->os_tid = cid; /* as make_event() sets it per event: the same for the whole run */
        }
        seq_event(r, c->seq, h.seq);
        rows[n++] = (ntx_row){m, tid, h.timestamp, h.payload_size};
    }
    r->stats.events += n;
    /* The state as ntx_hdr_next_compressed() leaves it: the last row decoded, the block's position. */
    h.offset = 0;
    hb->prev = h;
    if (rc < 0) {
        hb->p = hb->end; /* the block stops at an error */
        return fail(r, (int)rc);
    }
    hb->p = p;
    return (long)n;
}

/* The loop compiled twice, V6 and V4/V5, so that neither tests the version per field of every row. */
static long rows_compressed(ntidx_reader *r, ntx_row *rows, size_t cap)
{
    return r->t->gen == NTX_GEN_V6 ? rows_compressed_as(r, rows, cap, 1) : rows_compressed_as(r, rows, cap, 0);
}

long ntx_reader_rows(ntidx_reader *r, ntx_row *rows, size_t cap, uint64_t *block_offset)
{
    if (r->failed)
        return r->failed;
    for (;;) {
        if (r->in_block) {
            *block_offset = r->block_offset;
            long n = 0;
            if (r->hb.compressed && !r->block_is_metadata && !r->block_metadata_only) {
                n = rows_compressed(r, rows, cap);
            } else {
                ntidx_event e;
                int rc = 1;
                while ((size_t)n < cap && (rc = next_row(r, &e)) == 1)
                    rows[n++] = (ntx_row){e.metadata, e.thread_id, e.timestamp, e.payload_size};
                if (rc < 0)
                    return rc;
            }
            if (n != 0) /* the statistics' checkpoint: a block's rows read from zeros are not counted */
                return __builtin_expect(ntx_trace_faulted(r->t), 0) ? fail(r, NTIDX_E_SHRUNK) : n;
            continue;
        }
        if (r->at_end)
            return 0;
        int rc = next_block(r, 0);
        if (rc != 1)
            return rc;
    }
}

/* ------------------------------------------------------------------ */
/* Public API                                                          */
/* ------------------------------------------------------------------ */

int ntx_reader_fault(ntidx_reader *r) { return fail(r, NTIDX_E_SHRUNK); }

NTIDX_API int ntidx_reader_open(ntidx_trace *t, const ntidx_reader_options *o, ntidx_reader **out)
{
    if (out)
        *out = NULL;
    if (!out || !t)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? t->name : NULL, NTIDX_NO_OFFSET, "ntidx_reader_open: NULL argument");
    ntidx_reader_options def;
    if (!o) {
        ntidx_reader_options_defaults(&def);
        o = &def;
    }
    if (o->order != NTIDX_ORDER_FILE && o->order != NTIDX_ORDER_TIME)
        return ntx_failf(NTIDX_E_INVALID_ARG, t->name, NTIDX_NO_OFFSET, "reader order %d is neither file nor time",
                         (int)o->order);
    if (!ntx_reserved_zero(o->reserved, sizeof o->reserved))
        return ntx_failf(NTIDX_E_INVALID_ARG, t->name, NTIDX_NO_OFFSET,
                         "reader options: reserved fields are not zero (fill them with ntidx_reader_options_defaults())");
    ntidx_reader *r = calloc(1, sizeof *r);
    if (!r)
        return ntx_failf(NTIDX_E_NOMEM, t->name, NTIDX_NO_OFFSET, "out of memory");
    r->seq_from_zero = 1; /* a read from the trace's start (a plan's first step forgets it) */
    r->t = t;
    r->opt = *o;
    r->pos = t->info.first_block_offset;
    r->end_pos = UINT64_MAX;
    r->live_lo = UINT64_MAX;
    ntx_idmap_init(&r->metadata);
    ntx_idmap_init(&r->derived);
    ntx_idmap_init(&r->threads);
    ntx_idmap_init(&r->stacks);
    ntx_idmap_init(&r->labels);
    ntx_idmap_init(&r->seqs);
    ntx_arena_init(&r->metadata_arena);
    ntx_arena_init(&r->thread_arena);
    ntx_arena_init(&r->stack_arena);
    ntx_arena_init(&r->label_arena);
    ntx_arena_init(&r->seq_arena);
    *out = r;
    return NTIDX_OK;
}

NTIDX_API int ntidx_reader_next(ntidx_reader *r, const ntidx_event **ev)
{
    if (!r || !ev)
        return ntx_failf(NTIDX_E_INVALID_ARG, r ? r->t->name : NULL, NTIDX_NO_OFFSET, "ntidx_reader_next: NULL argument");
    int rc = ntx_reader_next(r, ev);
    return rc < 0 ? ntx_fail(rc, r->t->name, &r->err) : rc;
}

NTIDX_API void ntidx_reader_close(ntidx_reader **rp)
{
    if (!rp || !*rp)
        return;
    ntidx_reader *r = *rp;
    r->heap_len = 0; /* nothing waits any more: everything read is given back */
    r->over_ceiling_waiting = 0;
    r->live_lo = UINT64_MAX;
    release_read(r);
    ntx_idmap_free(&r->metadata);
    ntx_idmap_free(&r->derived);
    ntx_idmap_free(&r->threads);
    ntx_idmap_free(&r->stacks);
    ntx_idmap_free(&r->labels);
    ntx_idmap_free(&r->seqs);
    ntx_arena_free(&r->metadata_arena);
    ntx_arena_free(&r->thread_arena);
    ntx_arena_free(&r->stack_arena);
    ntx_arena_free(&r->label_arena);
    ntx_arena_free(&r->seq_arena);
    ntx_sort_free(r);
    free(r->dropped);
    free(r);
    *rp = NULL;
}

NTIDX_API const char *ntidx_reader_incomplete_reason(const ntidx_reader *r)
{
    /* A truncated trace leaves its note in r->err with code 0 (it is not an error). */
    return r && r->at_end && !r->complete && !r->failed ? r->err.msg : "";
}
NTIDX_API int ntidx_reader_complete(const ntidx_reader *r) { return r ? r->complete : 0; }
NTIDX_API const ntidx_reader_stats *ntidx_reader_get_stats(const ntidx_reader *r) { return r ? &r->stats : NULL; }

static int cmp_dropped(const void *a, const void *b)
{
    const ntidx_dropped *x = a, *y = b;
    return x->capture_thread < y->capture_thread ? -1 : x->capture_thread > y->capture_thread;
}

static void count_dropped(void *ctx, uint64_t key, void *val)
{
    (void)key;
    *(size_t *)ctx += ((const ntx_seqstate *)val)->dropped != 0;
}

struct dropped_fill {
    ntidx_dropped *d;
    size_t k;
};

static void fill_dropped(void *ctx, uint64_t key, void *val)
{
    (void)key;
    struct dropped_fill *f = ctx;
    const ntx_seqstate *s = val;
    if (s->dropped)
        f->d[f->k++] = (ntidx_dropped){s->capture, s->os_tid, s->dropped};
}

NTIDX_API int ntidx_reader_dropped(ntidx_reader *r, const ntidx_dropped **list, size_t *count)
{
    if (!r || !list || !count)
        return ntx_failf(NTIDX_E_INVALID_ARG, r ? r->t->name : NULL, NTIDX_NO_OFFSET, "ntidx_reader_dropped: NULL argument");
    size_t n = 0;
    ntx_idmap_each(&r->seqs, count_dropped, &n);
    ntidx_dropped *d = n ? calloc(n, sizeof *d) : NULL;
    if (n && !d)
        return ntx_failf(NTIDX_E_NOMEM, r->t->name, NTIDX_NO_OFFSET, "out of memory");
    struct dropped_fill f = {d, 0};
    ntx_idmap_each(&r->seqs, fill_dropped, &f);
    if (n)
        qsort(d, n, sizeof *d, cmp_dropped);
    free(r->dropped);
    r->dropped = d;
    r->dropped_len = n;
    *list = d;
    *count = n;
    return NTIDX_OK;
}
