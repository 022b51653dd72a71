/* The definitions a slice's output needs (metadata, V6 threads, stacks, label lists, V3 stacks), written once. */
#include "slice_internal.h"

/* Record the sizes of the V3-V5 metadata payloads of the block holding `off`. */
static int learn_metadata_sizes(slicer *s, uint64_t off)
{
    ntidx_block b;
    int rc = sl_read_block(s, sl_block_at(s->x, off), &b);
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

int sl_write_metadata(slicer *s, uint32_t id, uint64_t def)
{
    const uint8_t *data = s->data;
    uint64_t size;
    if (s->v6) {
        if (def + 2 > s->size)
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
    if (size > s->size - def)
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
    int rc = ntidx_writer_add_thread_raw(s->w, s->data + in->off, in->size);
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
int sl_define_for(slicer *s, sl_event *ev)
{
    ntidx_event *e = &ev->e;
    const sl_def *m = ntx_idmap_get(&s->meta_out.m, e->metadata_id);
    int rc;
    if ((!m || m->off != ev->meta_def) && (rc = sl_write_metadata(s, e->metadata_id, ev->meta_def)) < 0)
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
int sl_define_refs(slicer *s, int label)
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
