/*
 * The format's caches (reader_internal.h): metadata (with the rows V6 label
 * lists derive from it), threads, stacks and label lists, as definition
 * blocks add them, and as sequence points and cache resets drop them.
 */
#include "definitions.h"
#include "manifest.h"
#include "metadata.h"
#include "reader_internal.h"

int ntx_reader_put_metadata(ntidx_reader *r, ntidx_metadata *m)
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

static int add_thread(void *ctx, const ntidx_thread *th, const ntx_thread_row *row)
{
    (void)row;
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
        ntx_seqstate *s = ntx_reader_seqstate(r, c->index);
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
    int rc = ntx_reader_seq_checkpoint(r, index, seq);
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
const ntidx_metadata *ntx_reader_derived_row(ntidx_reader *r, const ntidx_metadata *base, const ntx_label_overrides *o)
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
        if ((rc = ntx_reader_put_metadata(r, m)) < 0)
            return rc;
    }
    return 0;
}

int ntx_reader_apply_definitions(ntidx_reader *r, const ntidx_block *b)
{
    ntidx_trace *t = r->t;
    switch (b->kind) {
    case NTIDX_BLOCK_METADATA: return read_v6_metadata_block(r, b);
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
    default: return 0;
    }
}

/* What a sequence point flushes (sp_flush.h: ntx_sp_flushes()) forgotten. */
int ntx_reader_apply_sequence_point(ntidx_reader *r, const ntidx_block *b)
{
    ntx_seqpoint sp;
    int rc = ntx_decode_sequence_point(r->t, b, &sp, ntx_reader_seq_checkpoint, r, &r->err);
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
        ntx_reader_seq_threads_flushed(r);
    }
    if (sp.flushes & NTX_FLUSH_METADATA)
        forget_metadata(r);
    return 0;
}

/* Drop every cache: the next blocks come from a region that does not follow the last one. */
void ntx_reader_reset_caches(ntidx_reader *r)
{
    forget_metadata(r);
    ntx_idmap_clear(&r->threads);
    ntx_arena_free(&r->thread_arena);
    ntx_idmap_clear(&r->stacks);
    ntx_arena_free(&r->stack_arena);
    ntx_idmap_clear(&r->labels);
    ntx_arena_free(&r->label_arena);
    r->live_lo = UINT64_MAX;
    ntx_reader_forget_sequences(r);
}
