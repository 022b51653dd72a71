/*
 * ntidx_slice(): a window of a trace written as a new trace (see
 * include/ntidx/slice.h for what the output holds).
 *
 * How
 * ---
 * The events come from a file-order query over the window and filters, so
 * the selection is the query's by construction. The query yields events,
 * not the blocks around them, so the slice keeps its own view of the input
 * beside it, driven by the index:
 *
 *  - events are grouped by the input block that holds them (the index's
 *    BLOCKS, binary-searched by offset). When a block is done, every
 *    definition its events reference is written (if the output does not
 *    already hold that very definition), then the events: the block copied
 *    byte for byte when all of its rows were selected, else re-encoded;
 *  - before the events of block j, a walker applies, in file order, the
 *    sequence points (SEQPOINTS) and the V6 thread and remove-thread blocks
 *    (DEFS) that lie before j: it keeps the input's V6 thread rows, and once
 *    the output has events it writes each sequence point it passes (with
 *    the output's caches flushed as the input's are) and the removal of
 *    threads the output defines. It starts, like a query's priming, at the
 *    first thread definition of the first event's thread epoch;
 *  - metadata is found from the event's metadata (ntidx_metadata.offset is
 *    where its definition lies): a V6 row is copied whole; a V3-V5 payload
 *    needs its size, read from the row headers of the block holding it.
 *
 * Identity of definitions: a metadata row or V6 thread row is known by the
 * file offset of its definition, a stack or label list by the address of
 * its bytes in the mapping, so a redefinition under the same id is noticed
 * and written again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena.h"
#include "definitions.h"
#include "error.h"
#include "event_header.h"
#include "hash.h"
#include "idmap.h"
#include "index_internal.h"
#include "search.h"
#include "metadata.h"
#include "ntidx/output.h"
#include "ntidx/slice.h"
#include "ntidx/writer.h"
#include "ops_internal.h"
#include "trace_internal.h"

NTIDX_API void ntidx_slice_options_defaults(ntidx_slice_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->copy_blocks = 1;
    o->compressed_headers = -1;
    o->recover = 1;
}

/* An idmap with its entries in an arena, cleared together. */
typedef struct sl_map {
    ntx_idmap m;
    ntx_arena a;
} sl_map;

static void map_init(sl_map *m)
{
    ntx_idmap_init(&m->m);
    ntx_arena_init(&m->a);
}

static void map_free(sl_map *m)
{
    ntx_idmap_free(&m->m);
    ntx_arena_free(&m->a);
}

static void map_clear(sl_map *m)
{
    ntx_idmap_clear(&m->m);
    ntx_arena_free(&m->a);
}

/* The entry of `key`, created zeroed when absent (*fresh = 1); NULL when out of memory. */
static void *map_slot(sl_map *m, uint64_t key, size_t size, int *fresh)
{
    void *v = ntx_idmap_get(&m->m, key);
    *fresh = v == NULL;
    if (v)
        return v;
    v = ntx_arena_alloc(&m->a, size);
    if (!v || ntx_idmap_put(&m->m, key, v) != 0)
        return NULL;
    return v;
}

typedef struct sl_def {
    uint64_t off;  /* file offset of the definition (metadata, V6 thread row) */
    uint32_t size; /* bytes of it (V6 thread rows; V3-V5 metadata payload sizes) */
} sl_def;

typedef struct sl_ref {
    const uint8_t *p; /* stack or label list bytes in the mapping */
    uint32_t size;
} sl_ref;

typedef struct sl_v3stack {
    const uint8_t *p;
    uint32_t size, id;
    struct sl_v3stack *next;
} sl_v3stack;

/* An event waiting for the end of its block; pointers into the mapping stay valid. */
typedef struct sl_event {
    ntidx_event e; /* metadata and thread cleared: the reader's caches move on */
    uint64_t meta_def;
} sl_event;

typedef struct slicer {
    ntidx_trace *t;
    const ntidx_index *x;
    ntidx_query_options qo;
    ntidx_slice_options so;
    ntidx_writer *w;
    const char *out_path; /* NULL in memory */
    ntidx_query *q;
    int v6, v3;
    ntx_err err;
    int err_is_output;    /* the error is about the output, not the trace */
    ntidx_slice_stats st;
    uint64_t own_bytes; /* blocks the slicer decoded itself */
    int started;        /* an event was taken: sequence points are written from now on */

    /* the input block being gathered */
    int have_block;
    uint64_t block;
    /* The capture thread of the last event in the writer's pending event block (UINT64_MAX: none). */
    uint64_t pending_capture;
    sl_event *evs;
    size_t nev, evcap;

    /* the walker: next SEQPOINTS and DEFS entries */
    uint64_t sp_next, def_next;

    /* output state */
    sl_map meta_out;   /* metadata id -> sl_def (off) defined in the output */
    sl_map stack_out;  /* stack id -> sl_ref, this output region */
    sl_map label_out;  /* label list id -> sl_ref, this output region */
    sl_map thread_out; /* V6 thread index -> sl_def (row offset) */
    sl_map seen;       /* V4/V5: capture thread ids with written events */
    /* input state */
    sl_map thread_in;  /* V6 thread index -> sl_def (row offset, size) */
    sl_map msize;      /* V3-V5 metadata payload offset -> sl_def (size) */
    sl_map v3stacks;   /* V3: xxh3 of stack bytes -> sl_v3stack chain */
    uint32_t v3_next_stack;

    ntidx_thread_seq *list;
    size_t list_len, list_cap;
    struct sl_need *need; /* stacks or label lists a block needs */
    size_t needcap;
} slicer;

/* Record an error (the first one wins) and return its code. */
#define FAIL(s, code, ...) ntx_err_set(&(s)->err, (code), __VA_ARGS__)

static int nomem(slicer *s) { return FAIL(s, NTIDX_E_NOMEM, "out of memory"); }

/* A writer call failed: keep its code; the error is about the output. */
static int wfail(slicer *s, int rc, const char *what)
{
    if (!s->err.code) {
        s->err_is_output = 1;
        if (rc == NTIDX_E_WRITE || rc == NTIDX_E_IO)
            ntx_err_set(&s->err, rc, "cannot write the slice (%s): %s", what, strerror(errno));
        else
            ntx_err_set(&s->err, rc, "cannot write the slice (%s): %s", what, ntidx_strerror(rc));
    }
    return s->err.code;
}

/* ------------------------------------------------------------------ */
/* Input blocks                                                        */
/* ------------------------------------------------------------------ */

struct at_key {
    const ntidx_index *x;
    uint64_t v;
};

static int block_starts_at_or_before(const void *ctx, uint64_t i)
{
    const struct at_key *k = ctx;
    return ntx_blk_offset(k->x, i) <= k->v;
}

static int sp_before_block(const void *ctx, uint64_t i)
{
    const struct at_key *k = ctx;
    return ntx_sp_block(k->x, i) < k->v;
}

static int def_before_thread_epoch(const void *ctx, uint64_t i)
{
    const struct at_key *k = ctx;
    return ntx_def_thread_epoch(k->x, i) < k->v;
}

/* Index of the block holding file offset `off` (the last block starting at or before it). */
static uint64_t block_at(const ntidx_index *x, uint64_t off)
{
    struct at_key k = {x, off};
    uint64_t after = ntx_lower_bound(x->nblocks, block_starts_at_or_before, &k);
    return after ? after - 1 : 0;
}

/* Read block i; `count`: add it to the bytes the slicer read besides the query. */
static int read_block_counted(slicer *s, uint64_t i, ntidx_block *b, int count)
{
    uint64_t pos = ntx_blk_offset(s->x, i);
    ntx_err walk = {0};
    int rc = ntx_next_block(s->t, &pos, b, &walk);
    if (rc != 1) {
        if (!s->err.code)
            ntx_err_at(&s->err, NTIDX_E_CORRUPT, ntx_blk_offset(s->x, i),
                       "the index points at a block here but the trace has none (%s)",
                       walk.msg[0] ? walk.msg : "end of stream");
        return s->err.code;
    }
    if (count)
        s->own_bytes += b->size;
    return 0;
}

static int read_block(slicer *s, uint64_t i, ntidx_block *b) { return read_block_counted(s, i, b, 1); }

/* Rows of an event block, or -1 when it cannot be decoded (then it is not copied). */
static int64_t count_rows(slicer *s, const ntidx_block *b)
{
    ntx_hdr_block hb;
    ntx_err e = {0};
    if (ntx_hdr_block_init(&hb, s->t, b, &e) < 0)
        return -1;
    int64_t n = 0;
    const ntx_hdr *h;
    int rc;
    while ((rc = ntx_hdr_next_ref(&hb, &h, &e)) == 1)
        n++;
    return rc < 0 ? -1 : n;
}

/* ------------------------------------------------------------------ */
/* The walker: sequence points and V6 thread definitions               */
/* ------------------------------------------------------------------ */

static int list_push(slicer *s, uint64_t thread, uint32_t seq)
{
    if (s->list_len == s->list_cap) {
        size_t n = s->list_cap ? s->list_cap * 2 : 64;
        ntidx_thread_seq *p = realloc(s->list, n * sizeof *p);
        if (!p)
            return nomem(s);
        s->list = p;
        s->list_cap = n;
    }
    s->list[s->list_len++] = (ntidx_thread_seq){thread, seq};
    return 0;
}

/* A sequence point's (thread, seq) pair: kept for the threads the output knows. */
static int sp_entry(void *ctx, uint64_t thread, uint32_t seq)
{
    slicer *s = ctx;
    const sl_map *known = s->v6 ? &s->thread_out : &s->seen;
    if (!ntx_idmap_get(&known->m, thread))
        return 0;
    return list_push(s, thread, seq);
}

static int walk_sequence_point(slicer *s, uint64_t i)
{
    ntidx_block b;
    int rc = read_block(s, ntx_sp_block(s->x, i), &b);
    if (rc < 0)
        return rc;
    ntx_seqpoint sp;
    s->list_len = 0;
    rc = ntx_decode_sequence_point(s->t, &b, &sp, sp_entry, s, &s->err);
    if (rc < 0)
        return rc;
    if (s->started) {
        rc = ntidx_writer_sequence_point(s->w, sp.timestamp, s->v6 ? sp.flags : 0, s->list, s->list_len);
        if (rc < 0)
            return wfail(s, rc, "sequence point");
        s->st.sequence_points++;
    }
    /* what the input's readers forget, the output's do too: defined again when next used */
    if (sp.flushes & NTX_FLUSH_STACKS)
        map_clear(&s->stack_out);
    if (sp.flushes & NTX_FLUSH_LABEL_LISTS)
        map_clear(&s->label_out);
    if (sp.flushes & NTX_FLUSH_THREADS) {
        map_clear(&s->thread_out);
        map_clear(&s->thread_in);
    }
    if (sp.flushes & NTX_FLUSH_METADATA)
        map_clear(&s->meta_out);
    return 0;
}

static int walk_thread_block(slicer *s, const ntidx_block *b)
{
    ntx_cur c;
    ntx_cur_init(&c, s->t->data, b->payload_offset, b->payload_size);
    while (ntx_cur_left(&c) > 0) {
        uint64_t at = ntx_cur_off(&c);
        uint16_t size = ntx_cur_u16(&c);
        if (c.err || size > ntx_cur_left(&c) || size == 0)
            return ntx_err_at(&s->err, NTIDX_E_CORRUPT, at, "thread row size %u runs past the block", size);
        ntx_cur r;
        ntx_cur_init(&r, s->t->data, ntx_cur_off(&c), size);
        ntx_cur_skip(&c, size);
        uint64_t index = ntx_cur_varu64(&r);
        if (r.err)
            return ntx_err_at(&s->err, NTIDX_E_CORRUPT, at, "thread row too short for its index");
        int fresh;
        sl_def *d = map_slot(&s->thread_in, index, sizeof *d, &fresh);
        if (!d)
            return nomem(s);
        d->off = at;
        d->size = 2u + size;
    }
    return 0;
}

static int remove_entry(void *ctx, uint64_t index, uint32_t seq)
{
    slicer *s = ctx;
    ntx_idmap_remove(&s->thread_in.m, index);
    if (!ntx_idmap_remove(&s->thread_out.m, index))
        return 0;
    return list_push(s, index, seq);
}

static int walk_def(slicer *s, uint64_t d)
{
    ntidx_block b;
    int rc = read_block(s, ntx_def_block(s->x, d), &b);
    if (rc < 0)
        return rc;
    if (b.kind == NTIDX_BLOCK_THREAD)
        return walk_thread_block(s, &b);
    s->list_len = 0;
    rc = ntx_decode_remove_thread_block(s->t, &b, remove_entry, s, &s->err);
    if (rc < 0)
        return rc;
    if (s->list_len) {
        rc = ntidx_writer_remove_threads(s->w, s->list, s->list_len);
        if (rc < 0)
            return wfail(s, rc, "remove-thread");
        s->st.thread_removals += s->list_len;
    }
    return 0;
}

static int is_thread_def(const ntidx_index *x, uint64_t d)
{
    uint8_t k = ntx_def_kind(x, d);
    return k == NTIDX_BLOCK_THREAD || k == NTIDX_BLOCK_REMOVE_THREAD;
}

/* Position the walker for a first event in block j. */
static void walk_start(slicer *s, uint64_t j)
{
    const ntidx_index *x = s->x;
    struct at_key k = {x, j};
    s->sp_next = ntx_lower_bound(x->nsps, sp_before_block, &k);
    s->def_next = x->ndefs;
    if (!s->v6)
        return;
    /* Threads live from their thread epoch's start: begin at its first definition. */
    k.v = ntx_rg_thread_epoch(x, ntx_blk_region(x, j));
    s->def_next = ntx_lower_bound(x->ndefs, def_before_thread_epoch, &k);
}

/* Apply every sequence point and V6 thread definition before block j. */
static int walk_to(slicer *s, uint64_t j)
{
    const ntidx_index *x = s->x;
    for (;;) {
        uint64_t sb = s->sp_next < x->nsps ? ntx_sp_block(x, s->sp_next) : UINT64_MAX;
        uint64_t db = UINT64_MAX;
        if (s->v6) {
            while (s->def_next < x->ndefs && !is_thread_def(x, s->def_next))
                s->def_next++;
            if (s->def_next < x->ndefs)
                db = ntx_def_block(x, s->def_next);
        }
        if (sb >= j && db >= j)
            return 0;
        int rc = sb < db ? walk_sequence_point(s, s->sp_next++) : walk_def(s, s->def_next++);
        if (rc < 0)
            return rc;
    }
}

/* ------------------------------------------------------------------ */
/* Definitions                                                         */
/* ------------------------------------------------------------------ */

/* Record the sizes of the V3-V5 metadata payloads of the block holding `off`. */
static int learn_metadata_sizes(slicer *s, uint64_t off)
{
    ntidx_block b;
    int rc = read_block(s, block_at(s->x, off), &b);
    if (rc < 0)
        return rc;
    ntx_hdr_block hb;
    if ((rc = ntx_hdr_block_init(&hb, s->t, &b, &s->err)) < 0)
        return rc;
    const ntx_hdr *h;
    while ((rc = ntx_hdr_next_ref(&hb, &h, &s->err)) == 1) {
        if (b.kind != NTIDX_BLOCK_METADATA && h->metadata_id != 0)
            continue; /* V3: events among the metadata rows */
        int fresh;
        sl_def *d = map_slot(&s->msize, h->payload_off, sizeof *d, &fresh);
        if (!d)
            return nomem(s);
        d->off = h->payload_off;
        d->size = h->payload_size;
    }
    return rc;
}

static int write_metadata(slicer *s, uint32_t id, uint64_t def)
{
    const uint8_t *data = s->t->data;
    uint64_t size;
    if (s->v6) {
        if (def + 2 > s->t->size)
            return ntx_err_at(&s->err, NTIDX_E_CORRUPT, def, "metadata row outside the trace");
        size = 2u + ntx_load16(data + def);
    } else {
        sl_def *d = ntx_idmap_get(&s->msize.m, def);
        if (!d) {
            int rc = learn_metadata_sizes(s, def);
            if (rc < 0)
                return rc;
            d = ntx_idmap_get(&s->msize.m, def);
        }
        if (!d)
            return ntx_err_at(&s->err, NTIDX_E_CORRUPT, def, "no metadata row starts here (metadata id %u)", id);
        size = d->size;
    }
    if (size > s->t->size - def)
        return ntx_err_at(&s->err, NTIDX_E_CORRUPT, def, "metadata row runs past the trace");
    int rc = ntidx_writer_add_metadata_raw(s->w, data + def, (size_t)size);
    if (rc < 0)
        return wfail(s, rc, "metadata");
    int fresh;
    sl_def *o = map_slot(&s->meta_out, id, sizeof *o, &fresh);
    if (!o)
        return nomem(s);
    o->off = def;
    s->st.metadata++;
    return 0;
}

static int need_thread(slicer *s, uint64_t index, uint64_t at)
{
    const sl_def *in = ntx_idmap_get(&s->thread_in.m, index);
    if (!in)
        return ntx_err_at(&s->err, NTIDX_E_UNDEFINED_REF, at,
                          "event references thread index %llu, whose definition the slice did not find",
                          (unsigned long long)index);
    int fresh;
    sl_def *o = map_slot(&s->thread_out, index, sizeof *o, &fresh);
    if (!o)
        return nomem(s);
    if (!fresh && o->off == in->off)
        return 0;
    int rc = ntidx_writer_add_thread_raw(s->w, s->t->data + in->off, in->size);
    if (rc < 0)
        return wfail(s, rc, "thread");
    o->off = in->off;
    s->st.threads++;
    return 0;
}

/* V3 inline stacks become stack blocks: one id per distinct stack, from 1. */
static int v3_stack_id(slicer *s, ntidx_event *e)
{
    if (!e->stack_size) {
        e->stack_id = 0;
        return 0;
    }
    uint64_t h = ntx_xxh3(e->stack, e->stack_size);
    sl_v3stack *head = ntx_idmap_get(&s->v3stacks.m, h);
    for (sl_v3stack *p = head; p; p = p->next)
        if (p->size == e->stack_size && !memcmp(p->p, e->stack, e->stack_size)) {
            e->stack_id = p->id;
            return 0;
        }
    sl_v3stack *n = ntx_arena_alloc(&s->v3stacks.a, sizeof *n);
    if (!n)
        return nomem(s);
    *n = (sl_v3stack){e->stack, e->stack_size, ++s->v3_next_stack, head};
    if (ntx_idmap_put(&s->v3stacks.m, h, n) != 0)
        return nomem(s);
    int rc = ntidx_writer_add_stack(s->w, n->id, e->stack, e->stack_size);
    if (rc < 0)
        return wfail(s, rc, "stack");
    s->st.stacks++;
    e->stack_id = n->id;
    return 0;
}

static int need_ref(slicer *s, sl_map *m, uint32_t id, const uint8_t *p, uint32_t size, int label)
{
    int fresh;
    sl_ref *r = map_slot(m, id, sizeof *r, &fresh);
    if (!r)
        return nomem(s);
    if (!fresh && r->p == p && r->size == size)
        return 0;
    int rc = label ? ntidx_writer_add_label_list_raw(s->w, id, p, size) : ntidx_writer_add_stack(s->w, id, p, size);
    if (rc < 0)
        return wfail(s, rc, label ? "label list" : "stack");
    r->p = p;
    r->size = size;
    if (label)
        s->st.label_lists++;
    else
        s->st.stacks++;
    return 0;
}

/* Metadata and V6 threads of event `ev`, written unless the output holds them already. */
static int define_for(slicer *s, sl_event *ev)
{
    ntidx_event *e = &ev->e;
    const sl_def *m = ntx_idmap_get(&s->meta_out.m, e->metadata_id);
    int rc;
    if ((!m || m->off != ev->meta_def) && (rc = write_metadata(s, e->metadata_id, ev->meta_def)) < 0)
        return rc;
    if (s->v6) {
        if ((rc = need_thread(s, e->thread_index, e->offset)) < 0)
            return rc;
        if (e->capture_thread_index != e->thread_index &&
            (rc = need_thread(s, e->capture_thread_index, e->offset)) < 0)
            return rc;
    }
    return s->v3 ? v3_stack_id(s, e) : 0;
}

typedef struct sl_need {
    uint32_t id, size;
    const uint8_t *p;
} sl_need;

static int cmp_need(const void *a, const void *b)
{
    const sl_need *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * The stacks (label lists) the gathered events reference, in id order: a
 * stack block holds consecutive ids, so defining them sorted lets runs of
 * ids share a block instead of one block per stack.
 */
static int define_refs(slicer *s, int label)
{
    sl_map *m = label ? &s->label_out : &s->stack_out;
    size_t n = 0;
    for (size_t i = 0; i < s->nev; i++) {
        const ntidx_event *e = &s->evs[i].e;
        uint32_t id = label ? e->label_list_id : e->stack_id;
        if (!id)
            continue;
        const uint8_t *p = label ? e->label_list : e->stack;
        uint32_t size = label ? e->label_list_size : e->stack_size;
        const sl_ref *r = ntx_idmap_get(&m->m, id);
        if (r && r->p == p && r->size == size)
            continue;
        if (n == s->needcap) {
            size_t cap = s->needcap ? s->needcap * 2 : 256;
            sl_need *np = realloc(s->need, cap * sizeof *np);
            if (!np)
                return nomem(s);
            s->need = np;
            s->needcap = cap;
        }
        s->need[n++] = (sl_need){id, size, p};
    }
    if (n > 1)
        qsort(s->need, n, sizeof *s->need, cmp_need);
    for (size_t i = 0; i < n; i++) {
        int rc = need_ref(s, m, s->need[i].id, s->need[i].p, s->need[i].size, label);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Events, block by block                                              */
/* ------------------------------------------------------------------ */

static int no_filters(const slicer *s)
{
    const ntidx_query_options *o = &s->qo;
    return !o->provider && !o->has_event_id && !o->event_name && !o->has_thread && !o->limit;
}

/* Could every row of block i be selected? Only then are its rows counted. */
static int may_copy(const slicer *s, uint64_t i)
{
    if (!s->so.copy_blocks || s->v3)
        return 0;
    const ntidx_index *x = s->x;
    if ((x->flags & NTX_IF_FULL) && ntx_blk_events(x, i) == s->nev)
        return 1;
    uint8_t f = ntx_blk_flags(x, i);
    return no_filters(s) && (f & NTX_BF_RANGE) && ntx_blk_ts_min(x, i) >= s->qo.t0 &&
           ntx_blk_ts_max(x, i) < s->qo.t1;
}

/* Write the gathered events of the current block. */
static int flush_block(slicer *s)
{
    if (!s->have_block || !s->nev)
        return 0;
    int rc;
    for (size_t i = 0; i < s->nev; i++)
        if ((rc = define_for(s, &s->evs[i])) < 0)
            return rc;
    if (!s->v3 && (rc = define_refs(s, 0)) < 0)
        return rc;
    if (s->v6 && (rc = define_refs(s, 1)) < 0)
        return rc;
    ntidx_block b;
    int copied = 0;
    if (may_copy(s, s->block)) {
        /* the query read this block already: its events came from it */
        if ((rc = read_block_counted(s, s->block, &b, 0)) < 0)
            return rc;
        if (b.kind == NTIDX_BLOCK_EVENT && count_rows(s, &b) == (int64_t)s->nev) {
            rc = ntidx_writer_add_raw_block(s->w, NTIDX_BLOCK_EVENT, s->t->data + b.payload_offset,
                                            (size_t)b.payload_size);
            if (rc < 0)
                return wfail(s, rc, "event block");
            copied = 1;
            s->pending_capture = UINT64_MAX; /* the copied block ended the pending one */
            s->st.blocks_copied++;
            s->st.events_copied += s->nev;
        }
    }
    for (size_t i = 0; i < s->nev; i++) {
        const ntidx_event *e = &s->evs[i].e;
        if (!copied) {
            /* A reader may take the capture thread to change only at an IsSorted event or at the start
               of a block (TraceEvent files the rest under the last one's thread), as the runtime writes
               them. A run the window or a filter cut has lost its marked first event: it starts a
               block instead (marking it would claim an order that may not hold). */
            if (s->pending_capture != UINT64_MAX && e->capture_thread_index != s->pending_capture &&
                !e->is_sorted && (rc = ntidx_writer_flush(s->w)) < 0)
                return wfail(s, rc, "event block");
            if ((rc = ntidx_writer_add_event(s->w, e)) < 0)
                return wfail(s, rc, "event");
            s->pending_capture = e->capture_thread_index;
        }
        if (!s->v6) {
            static char mark;
            if (!ntx_idmap_get(&s->seen.m, e->capture_thread_index) &&
                ntx_idmap_put(&s->seen.m, e->capture_thread_index, &mark) != 0)
                return nomem(s);
        }
    }
    s->st.events += s->nev;
    s->nev = 0;
    return 0;
}

static int take_event(slicer *s, const ntidx_event *e)
{
    const ntidx_index *x = s->x;
    int rc;
    if (!s->have_block || e->offset < ntx_blk_offset(x, s->block) ||
        e->offset >= ntx_blk_offset(x, s->block) + ntx_blk_size(x, s->block)) {
        if ((rc = flush_block(s)) < 0)
            return rc;
        uint64_t j = block_at(x, e->offset);
        if (!s->started)
            walk_start(s, j);
        if ((rc = walk_to(s, j)) < 0)
            return rc;
        s->have_block = 1;
        s->block = j;
        s->started = 1;
    }
    if (s->nev == s->evcap) {
        size_t n = s->evcap ? s->evcap * 2 : 1024;
        sl_event *p = realloc(s->evs, n * sizeof *p);
        if (!p)
            return nomem(s);
        s->evs = p;
        s->evcap = n;
    }
    sl_event *ev = &s->evs[s->nev++];
    ev->e = *e;
    ev->meta_def = e->metadata->offset;
    ev->e.metadata = NULL;
    ev->e.thread = NULL;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Set-up                                                              */
/* ------------------------------------------------------------------ */

/*
 * V4 and V5 share a header: readers call a trace V5 when its first metadata
 * blocks carry V5 tags. For a V5 input, the first tagged row is defined
 * first. Returns 0 also when there is none.
 */
static int define_v5_marker(slicer *s)
{
    ntidx_trace *t = s->t;
    uint64_t pos = t->info.first_block_offset;
    int seen = 0;
    ntx_err e = {0};
    for (int i = 0; i < 64 && seen < 4; i++) {
        ntidx_block b;
        if (ntx_next_block(t, &pos, &b, &e) != 1)
            return 0;
        if (b.kind != NTIDX_BLOCK_METADATA)
            continue;
        seen++;
        s->own_bytes += b.size;
        ntx_hdr_block hb;
        if (ntx_hdr_block_init(&hb, t, &b, &e) < 0)
            continue;
        ntx_hdr h;
        while (ntx_hdr_next(&hb, &h, &e) == 1) {
            ntx_arena a;
            ntx_arena_init(&a);
            ntidx_metadata *m;
            int v5 = 0;
            int rc = ntx_metadata_parse_blob(&a, t->data, h.payload_off, h.payload_size, &m, &v5, &e);
            uint32_t id = rc == 0 ? m->id : 0;
            ntx_arena_free(&a);
            if (rc < 0)
                break;
            if (!v5)
                continue;
            int fresh;
            sl_def *d = map_slot(&s->msize, h.payload_off, sizeof *d, &fresh);
            if (!d)
                return nomem(s);
            d->off = h.payload_off;
            d->size = h.payload_size;
            return write_metadata(s, id, h.payload_off);
        }
    }
    return 0;
}

/* The input's compression of event headers: its first event block's flag. */
static int input_compressed(slicer *s)
{
    const ntidx_index *x = s->x;
    if (s->v3)
        return 1;
    for (uint64_t i = 0; i < x->nblocks; i++) {
        if (ntx_blk_kind(x, i) != NTIDX_BLOCK_EVENT)
            continue;
        uint64_t pos = ntx_blk_offset(x, i);
        ntidx_block b;
        ntx_err e = {0};
        ntx_hdr_block hb;
        if (ntx_next_block(s->t, &pos, &b, &e) != 1 || ntx_hdr_block_init(&hb, s->t, &b, &e) < 0)
            return 1;
        return hb.compressed;
    }
    return 1;
}

static void writer_options(slicer *s, ntidx_writer_options *wo)
{
    const ntidx_trace_info *in = &s->t->info;
    ntidx_writer_options_defaults(wo);
    wo->format_version = s->v6 ? 6 : 5;
    wo->pointer_size = in->pointer_size;
    wo->sync_time_utc = in->sync_time_utc;
    wo->sync_ticks = in->sync_ticks;
    wo->tick_frequency = in->tick_frequency;
    if (s->v6) {
        /* V6 keeps these as trace-block pairs: the input's pairs carry them already. */
        wo->keyvalues = in->keyvalues;
        wo->keyvalue_count = in->keyvalue_count;
    } else {
        wo->process_id = in->process_id;
        wo->number_of_processors = in->number_of_processors;
        wo->expected_cpu_sampling_rate = in->expected_cpu_sampling_rate;
    }
    wo->compressed_headers = s->so.compressed_headers >= 0 ? s->so.compressed_headers != 0 : input_compressed(s);
    if (s->so.max_event_block_bytes)
        wo->max_event_block_bytes = s->so.max_event_block_bytes;
}

static void slicer_free(slicer *s)
{
    ntidx_query_close(&s->q);
    ntidx_writer_close(&s->w);
    sl_map *maps[] = {&s->meta_out, &s->stack_out, &s->label_out, &s->thread_out, &s->seen,
                      &s->thread_in, &s->msize, &s->v3stacks};
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
        map_free(maps[i]);
    free(s->evs);
    free(s->list);
    free(s->need);
}

/* Run the slice into s->w (opened by the caller). */
static int run_slice(slicer *s)
{
    int rc;
    if (!s->v6 && !s->v3 && s->t->info.format_version == 5 && (rc = define_v5_marker(s)) < 0)
        return rc;
    ntidx_query_options qo = s->qo;
    qo.order = NTIDX_ORDER_FILE;
    if ((rc = ntidx_query_open(s->t, s->x, &qo, &s->q)) < 0)
        return ntx_err_from_last(&s->err, rc);
    /* progress: the bytes the query has read of those it will read, known from the index */
    ntidx_query_cost cost = {0};
    if (s->so.progress && ntidx_query_estimate(s->t, s->x, &qo, &cost) < 0)
        cost.bytes = 0;
    const ntidx_event *e;
    uint64_t n = 0;
    while ((rc = ntidx_query_next(s->q, &e)) == 1) {
        if ((rc = take_event(s, e)) < 0)
            return rc;
        if (cost.bytes && (++n & 4095) == 0 &&
            s->so.progress(s->so.progress_ctx, ntidx_query_get_stats(s->q)->bytes_read, cost.bytes))
            return FAIL(s, NTIDX_E_CANCELLED, "cancelled");
    }
    if (rc < 0)
        return ntx_err_from_last(&s->err, rc); /* the query said why */
    if ((rc = flush_block(s)) < 0)
        return rc;
    s->st.query_bytes_read = ntidx_query_get_stats(s->q)->bytes_read;
    if ((rc = ntidx_writer_finish(s->w)) < 0)
        return wfail(s, rc, "end of stream");
    s->st.bytes_written = ntidx_writer_bytes(s->w);
    return 0;
}

/*
 * Blocks, stacks and definitions are copied from the mapping: nothing of a file that shrank meanwhile is a
 * slice, and whatever stopped the slice then (a large block written straight from the mapping fails with
 * EFAULT, not a fault: the kernel reads it) is the shrink's doing.
 */
static int run(slicer *s)
{
    int rc = run_slice(s);
    ntx_err shrunk = {0};
    int c = ntx_trace_check_end(s->t, &shrunk);
    if (c < 0) {
        s->err = shrunk;
        s->err_is_output = 0;
        rc = c;
    }
    return rc;
}

static int slicer_init(slicer *s, ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *q,
                       const ntidx_slice_options *o)
{
    memset(s, 0, sizeof *s);
    s->pending_capture = UINT64_MAX;
    s->t = t;
    s->x = x;
    if (q)
        s->qo = *q;
    else
        ntidx_query_options_defaults(&s->qo);
    if (o)
        s->so = *o;
    else
        ntidx_slice_options_defaults(&s->so);
    s->v6 = t->gen == NTX_GEN_V6;
    s->v3 = t->gen == NTX_GEN_NETPERF;
    s->st.format_version = s->v6 ? 6 : 5;
    sl_map *maps[] = {&s->meta_out, &s->stack_out, &s->label_out, &s->thread_out, &s->seen,
                      &s->thread_in, &s->msize, &s->v3stacks};
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
        map_init(maps[i]);
    if (t->info.pointer_size != 4 && t->info.pointer_size != 8)
        return FAIL(s, NTIDX_E_UNSUPPORTED, "pointer size %u is not 4 or 8: the writer cannot keep it",
                    t->info.pointer_size);
    if (t->info.tick_frequency <= 0)
        return FAIL(s, NTIDX_E_UNSUPPORTED, "the tick frequency is not positive");
    return 0;
}

/* The stats, and the error (if any) published: about the output or the trace. */
static int finish_report(slicer *s, int rc, ntidx_slice_stats *stats)
{
    s->st.bytes_read = s->st.query_bytes_read + s->own_bytes;
    if (stats)
        *stats = s->st;
    if (rc >= 0)
        return NTIDX_OK;
    return ntx_fail(rc, s->err_is_output ? s->out_path : ntidx_trace_name(s->t), &s->err);
}

/* A slice looks blocks up by offset across the whole table: a lazily checked index is checked whole first,
   before anything is written, and rebuilt when it fails (`recover`). *x: the index to slice with. */
static int index_ready(ntidx_trace *t, const ntidx_index **x, const ntidx_slice_options *o)
{
    *x = ntx_index_current(*x);
    ntx_err ce = {0};
    int rc = ntx_index_need_all(*x, &ce);
    if (rc == NTIDX_E_INDEX_CORRUPT && (!o || o->recover)) {
        ntx_err re = {0};
        if ((rc = ntx_index_recover(t, *x, &ce, x, &re)) < 0)
            return ntx_fail(rc, ntidx_trace_name(t), &re);
        ntx_err_clear(&ce);
        rc = ntx_index_need_all(*x, &ce); /* built: nothing left to check */
    }
    return rc < 0 ? ntx_fail(rc, (*x)->name, &ce) : NTIDX_OK;
}

NTIDX_API int ntidx_slice_fd(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *q,
                             const ntidx_slice_options *o, int fd, const char *name, ntidx_slice_stats *stats)
{
    if (!t || !x || fd < 0)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET,
                         "ntidx_slice_fd: NULL argument or no descriptor");
    if (o && !ntx_reserved_zero(o->reserved, sizeof o->reserved))
        return ntx_failf(NTIDX_E_INVALID_ARG, ntidx_trace_name(t), NTIDX_NO_OFFSET,
                         "slice options: reserved fields are not zero (fill them with ntidx_slice_options_defaults())");
    int rc = index_ready(t, &x, o);
    if (rc < 0)
        return rc;
    slicer s;
    rc = slicer_init(&s, t, x, q, o);
    s.out_path = name ? name : "(output)";
    /* Writing into the input would pull the pages out from under its mapping. */
    struct stat a, b;
    if (!rc && t->fd >= 0 && fstat(fd, &b) == 0 && fstat(t->fd, &a) == 0 && a.st_dev == b.st_dev &&
        a.st_ino == b.st_ino)
        rc = FAIL(&s, NTIDX_E_INVALID_ARG, "the output %s is the input trace", s.out_path);
    if (!rc) {
        ntidx_writer_options wo;
        writer_options(&s, &wo);
        rc = ntidx_writer_open_fd(fd, s.out_path, &wo, &s.w);
        if (rc < 0) {
            s.err_is_output = 1;
            ntx_err_from_last(&s.err, rc); /* the writer said why */
        }
    }
    if (!rc)
        rc = run(&s);
    if (s.w) {
        int crc = ntidx_writer_close(&s.w);
        if (!rc && crc < 0)
            rc = wfail(&s, crc, "closing");
    }
    rc = finish_report(&s, rc, stats);
    slicer_free(&s);
    return rc;
}

NTIDX_API int ntidx_slice(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *q,
                          const ntidx_slice_options *o, const char *out_path, ntidx_slice_stats *stats)
{
    if (!t || !x || !out_path)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET,
                         "ntidx_slice: NULL argument");
    /* Before the temporary is made: replacing the input would be a surprise, whatever its mapping does. */
    struct stat a, b;
    if (t->fd >= 0 && stat(out_path, &b) == 0 && fstat(t->fd, &a) == 0 && a.st_dev == b.st_dev &&
        a.st_ino == b.st_ino)
        return ntx_failf(NTIDX_E_INVALID_ARG, ntidx_trace_name(t), NTIDX_NO_OFFSET,
                         "the output %s is the input trace", out_path);
    /* A temporary beside out_path, renamed over it when complete: a failed slice leaves out_path as it was
       (and a device or a FIFO is written in place, never removed). */
    ntidx_output *out;
    int rc = ntidx_output_open(out_path, &out);
    if (rc < 0)
        return rc;
    rc = ntidx_slice_fd(t, x, q, o, ntidx_output_fd(out), out_path, stats);
    if (rc < 0) {
        ntidx_output_discard(&out);
        return rc;
    }
    return ntidx_output_commit(&out);
}

NTIDX_API int ntidx_slice_memory(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *q,
                                 const ntidx_slice_options *o, uint8_t **data, size_t *size, ntidx_slice_stats *stats)
{
    if (!t || !x || !data || !size)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET,
                         "ntidx_slice_memory: NULL argument");
    *data = NULL;
    *size = 0;
    if (o && !ntx_reserved_zero(o->reserved, sizeof o->reserved))
        return ntx_failf(NTIDX_E_INVALID_ARG, ntidx_trace_name(t), NTIDX_NO_OFFSET,
                         "slice options: reserved fields are not zero (fill them with ntidx_slice_options_defaults())");
    int rc = index_ready(t, &x, o);
    if (rc < 0)
        return rc;
    slicer s;
    rc = slicer_init(&s, t, x, q, o);
    if (!rc) {
        ntidx_writer_options wo;
        writer_options(&s, &wo);
        if ((rc = ntidx_writer_open_memory(&wo, &s.w)) < 0)
            ntx_err_from_last(&s.err, rc);
    }
    if (!rc)
        rc = run(&s);
    if (!rc) {
        size_t n;
        const uint8_t *p = ntidx_writer_memory(s.w, &n);
        uint8_t *copy = malloc(n ? n : 1);
        if (!copy) {
            rc = nomem(&s);
        } else {
            memcpy(copy, p, n);
            *data = copy;
            *size = n;
        }
    }
    rc = finish_report(&s, rc, stats);
    slicer_free(&s);
    return rc;
}
