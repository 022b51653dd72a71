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
    if (!r->failed)
        r->failed = code;
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
       sighting is its baseline, and so is it for a query, which enters the trace
       in the middle of each thread's numbering. */
    s->seen = r->t->gen == NTX_GEN_V6 && !r->plan_refill;
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
    if (!s->seen) {
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
    return 0;
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
    return d->row;
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

/* Stacks and label lists die at every sequence point; V6 flags also flush threads and metadata. */
static int apply_sequence_point(ntidx_reader *r, const ntidx_block *b)
{
    ntx_seqpoint sp;
    int rc = ntx_decode_sequence_point(r->t, b, &sp, seq_checkpoint, r, &r->err);
    if (rc < 0)
        return rc;
    r->stats.sequence_points++;
    ntx_idmap_clear(&r->stacks);
    ntx_arena_free(&r->stack_arena);
    ntx_idmap_clear(&r->labels);
    ntx_arena_free(&r->label_arena);
    if (r->t->gen == NTX_GEN_V6 && (sp.flags & 1u)) {
        ntx_idmap_clear(&r->threads);
        ntx_arena_free(&r->thread_arena);
        /* After the checks above, every thread index starts afresh. */
        ntx_idmap_each(&r->seqs, reset_seq, NULL);
    }
    if (r->t->gen == NTX_GEN_V6 && (sp.flags & 2u))
        forget_metadata(r);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Events                                                              */
/* ------------------------------------------------------------------ */

static int undefined(ntidx_reader *r, const ntx_hdr *h, const char *what, uint64_t id)
{
    return ntx_err_at(&r->err, NTIDX_E_UNDEFINED_REF, h->offset, "event references %s %llu, which is not defined here",
                      what, (unsigned long long)id);
}

static int make_event(ntidx_reader *r, const ntx_hdr *h, ntidx_event *e)
{
    const ntidx_metadata *m = ntx_idmap_get(&r->metadata, h->metadata_id);
    if (!m)
        return undefined(r, h, "metadata id", h->metadata_id);
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
    ntidx_trace *t = r->t;
    if (t->gen == NTX_GEN_V6) {
        const ntidx_thread *th = ntx_idmap_get(&r->threads, h->thread);
        if (!th)
            return undefined(r, h, "thread index", h->thread);
        const ntidx_thread *ct = h->capture == h->thread ? th : ntx_idmap_get(&r->threads, h->capture);
        if (!ct)
            return undefined(r, h, "capture thread index", h->capture);
        e->thread = th;
        if (th->has_os_thread_id)
            e->thread_id = th->os_thread_id;
        if (ct->has_os_thread_id)
            e->capture_thread_id = ct->os_thread_id;
        if (h->label_id) {
            const ntx_label_ref *l = ntx_idmap_get(&r->labels, h->label_id);
            if (!l)
                return undefined(r, h, "label list id", h->label_id);
            e->label_list = l->labels;
            e->label_list_size = l->size;
            if (l->overrides && !(e->metadata = derived_row(r, m, &l->o)))
                return ntx_err_set(&r->err, NTIDX_E_NOMEM, "out of memory deriving metadata for label overrides");
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
    return 0;
}

static void forget_seq(void *ctx, uint64_t key, void *val)
{
    (void)ctx;
    (void)key;
    ((ntx_seqstate *)val)->seen = 0;
}

/* Blocks were skipped: the next event of each thread is a new baseline, not a gap. */
static void forget_sequences(ntidx_reader *r) { ntx_idmap_each(&r->seqs, forget_seq, NULL); }

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
    forget_sequences(r);
}

void ntx_reader_set_plan(ntidx_reader *r, int (*refill)(void *, const ntx_plan_step **, size_t *, ntx_err *),
                         void *ctx)
{
    static const ntx_plan_step none[1];
    r->plan = none;
    r->plan_len = 0;
    r->plan_pos = 0;
    r->plan_refill = refill;
    r->plan_ctx = ctx;
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
            continue;
        }
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
    case NTIDX_BLOCK_STACK: return ntx_decode_stack_block(t, b, add_stack, r, &r->err);
    case NTIDX_BLOCK_THREAD: return ntx_decode_thread_block(t, b, &r->thread_arena, add_thread, r, &r->err);
    case NTIDX_BLOCK_REMOVE_THREAD: return ntx_decode_remove_thread_block(t, b, remove_thread, r, &r->err);
    case NTIDX_BLOCK_LABEL_LIST: return ntx_decode_label_list_block(t, b, add_label_list, r, &r->err);
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
int ntx_reader_file_next(ntidx_reader *r, ntidx_event *e, int defer_barriers)
{
    if (r->failed)
        return r->failed;
    ntidx_trace *t = r->t;
    for (;;) {
        if (r->in_block) {
            const ntx_hdr *hp;
            int rc = ntx_hdr_next_ref(&r->hb, &hp, &r->err);
            if (rc < 0)
                return fail(r, rc);
            if (rc == 0) {
                r->in_block = 0;
                continue;
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
        if (r->at_end)
            return 0;
        ntidx_block b;
        int rc;
        if (r->plan) {
            rc = plan_next_block(r, &b, defer_barriers);
            if (rc == 0) {
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
            if (rc == 3) { /* context only */
                if (b.kind == NTIDX_BLOCK_EVENT) {
                    if ((rc = begin_rows(r, &b, 0)) < 0)
                        return fail(r, rc);
                    r->block_metadata_only = 1;
                    continue;
                }
            }
            rc = apply_block(r, &b, defer_barriers);
            if (rc < 0)
                return fail(r, rc);
            if (rc == 2)
                return 2;
            continue;
        }
        if (r->pos >= r->end_pos) {
            r->at_end = 1;
            return 0;
        }
        ntx_err walk = {0};
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
        rc = apply_block(r, &b, defer_barriers);
        if (rc < 0)
            return fail(r, rc);
        if (rc == 2)
            return 2;
    }
}

/* ------------------------------------------------------------------ */
/* Public API                                                          */
/* ------------------------------------------------------------------ */

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
    r->t = t;
    r->opt = *o;
    r->pos = t->info.first_block_offset;
    r->end_pos = UINT64_MAX;
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
