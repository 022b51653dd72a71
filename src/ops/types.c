/*
 * The event types of a trace, from its definition blocks alone.
 *
 * The index lists every block that defines metadata (metadata blocks; before
 * V4, event blocks holding metadata rows) with its metadata epoch. A reader
 * walks exactly those blocks as context (no event is decoded), reset at each
 * new epoch since a V6 metadata flush lets ids be defined again, and tells
 * us of every row it defines. Rows are copied out of the reader (its cache
 * dies at the next reset) and listed once per distinct type and layout.
 * V6 label lists may override an event's opcode or version, which makes a
 * type of its own that only events show (list_derived_types()).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "hash.h"
#include "idmap.h"
#include "index_tables.h"
#include "metadata.h"
#include "ops_internal.h"
#include "query_internal.h"
#include "reader_plan.h"
#include "threads.h"
#include "ntidx/batch.h"

struct ntidx_type_list {
    ntidx_metadata *v;
    char **sig;          /* each type's identity (provider, ids, names, layout), for duplicates */
    size_t n, cap;
    ntx_idmap by_hash;   /* xxh3 of the identity -> position + 1 (collisions: the next key) */
    ntx_arena arena;
    ntidx_buf scratch;
};

/* The layout as bytes (names, type codes, counts, nested), for the identity. */
static void put_layout(ntidx_buf *b, const ntidx_field *f, uint32_t n)
{
    for (uint32_t i = 0; f && i < n; i++) {
        ntx_buf_puts(b, f[i].name ? f[i].name : "");
        ntx_buf_u8(b, 0);
        ntx_buf_u8(b, f[i].type_code);
        ntx_buf_u16(b, f[i].element_count);
        ntx_buf_u32(b, f[i].field_count);
        ntx_buf_u8(b, f[i].element ? '[' : '-');
        if (f[i].element)
            put_layout(b, f[i].element, 1);
        ntx_buf_u8(b, f[i].field_count ? '{' : '-');
        put_layout(b, f[i].fields, f[i].field_count);
        ntx_buf_u8(b, ';');
    }
}

static int add_type(void *ctx, const ntidx_metadata *m)
{
    ntidx_type_list *l = ctx;
    ntidx_buf *b = &l->scratch;
    ntx_buf_reset(b);
    ntx_buf_puts(b, m->provider ? m->provider : "");
    ntx_buf_u8(b, 0);
    ntx_buf_puts(b, m->event_name ? m->event_name : "");
    ntx_buf_u8(b, 0);
    ntx_buf_u32(b, m->event_id);
    ntx_buf_u32(b, m->version);
    ntx_buf_u8(b, (uint8_t)m->has_fields);
    put_layout(b, m->fields, m->field_count);
    if (b->err)
        return b->err;
    uint64_t key = ntx_xxh3(b->data, b->len);
    for (;;) {
        void *v = ntx_idmap_get(&l->by_hash, key);
        if (!v)
            break;
        const char *s = l->sig[(uintptr_t)v - 1];
        size_t slen;
        memcpy(&slen, s, sizeof slen);
        if (slen == b->len && !memcmp(s + sizeof slen, b->data, slen))
            return 0; /* listed already */
        key = ntx_idmap_hash(key + 1);
    }
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        ntidx_metadata *nv = realloc(l->v, cap * sizeof *nv);
        if (!nv)
            return NTIDX_E_NOMEM;
        l->v = nv;
        char **ns = realloc(l->sig, cap * sizeof *ns);
        if (!ns)
            return NTIDX_E_NOMEM;
        l->sig = ns;
        l->cap = cap;
    }
    char *sig = ntx_arena_alloc(&l->arena, sizeof(size_t) + b->len);
    if (!sig)
        return NTIDX_E_NOMEM;
    memcpy(sig, &b->len, sizeof b->len);
    memcpy(sig + sizeof b->len, b->data, b->len);
    int rc = ntx_metadata_copy_into(&l->arena, m, &l->v[l->n]);
    if (rc < 0)
        return rc;
    l->sig[l->n++] = sig;
    return ntx_idmap_put(&l->by_hash, key, (void *)(uintptr_t)l->n) == 0 ? 0 : NTIDX_E_NOMEM;
}

typedef struct type_plan {
    ntx_plan_step *steps;
    size_t n;
    int given;
} type_plan;

/* The whole plan at once: the reader asks once, then hears that it is over. */
static int refill(void *ctx, const ntx_plan_step **plan, size_t *len, ntx_err *err)
{
    (void)err;
    type_plan *p = ctx;
    if (p->given)
        return 0;
    p->given = 1;
    *plan = p->steps;
    *len = p->n;
    return p->n ? 1 : 0;
}

/*
 * Read the blocks of plan `p` as context (no event is decoded), telling `l`
 * of every row defined. *saw (when given): a label list read overrides
 * something. 0 or an error.
 */
static int walk_plan(ntidx_trace *t, type_plan *p, ntidx_type_list *l, int *saw, ntx_err *err)
{
    ntidx_reader_options ro;
    ntidx_reader_options_defaults(&ro);
    ntidx_reader *r = NULL;
    int rc = ntidx_reader_open(t, &ro, &r);
    if (rc < 0)
        return ntx_err_from_last(err, rc);
    ntx_reader_set_plan(r, refill, p);
    ntx_reader_on_metadata(r, add_type, l);
    const ntidx_event *e;
    while ((rc = ntidx_reader_next(r, &e)) == 1)
        ; /* context only: no event comes out */
    if (rc < 0)
        ntx_err_from_last(err, rc);
    if (saw)
        *saw = ntx_reader_saw_label_overrides(r);
    ntidx_reader_close(&r);
    return rc < 0 ? rc : 0;
}

/* The derived types' walk over every event, on threads: units of consecutive regions, each read by one query
   that lists what its reader derives; the lists are merged in the units' order. */
typedef struct derive_unit {
    uint64_t r0, r1;   /* regions [r0, r1) */
    ntidx_type_list *l; /* the types its reader defined or derived, in the order first met */
    ntx_err err;
    int rc;
} derive_unit;

typedef struct derive_work {
    ntidx_trace *t;
    const ntidx_index *x;
    derive_unit *units;
    size_t n;
    atomic_size_t next;
} derive_work;

static ntidx_type_list *list_new(void)
{
    ntidx_type_list *l = calloc(1, sizeof *l);
    if (l) {
        ntx_idmap_init(&l->by_hash);
        ntx_arena_init(&l->arena);
    }
    return l;
}

static void free_list(ntidx_type_list *l);

static int derive_unit_run(const derive_work *w, derive_unit *u)
{
    uint64_t n = u->r1 - u->r0, *regions = malloc((size_t)n * sizeof *regions);
    if (!regions || !(u->l = list_new())) {
        free(regions);
        return ntx_err_set(&u->err, NTIDX_E_NOMEM, "out of memory");
    }
    for (uint64_t r = u->r0; r < u->r1; r++)
        regions[r - u->r0] = r;
    ntidx_query_options qo;
    ntidx_query_options_defaults(&qo);
    qo.order = NTIDX_ORDER_FILE;
    qo.regions = regions;
    qo.region_count = (size_t)n;
    ntidx_query *q = NULL;
    int rc = ntx_query_open_run(&q, w->t, w->x, &qo, 1);
    free(regions);
    if (rc < 0)
        return ntx_err_from_last(&u->err, rc);
    ntx_query_on_metadata(q, add_type, u->l);
    ntx_row rows[256];
    uint64_t block, region, primed;
    for (;;) {
        long k;
        while ((k = ntx_query_rows(q, rows, sizeof rows / sizeof rows[0], &block, 1)) > 0)
            ; /* the rows are not wanted: the reader tells add_type() of every row it derives */
        if (k < 0) {
            rc = ntx_err_from_last(&u->err, (int)k);
            break;
        }
        if (!ntx_query_region_end(q, &region, &primed))
            break;
        ntx_query_next_region(q);
    }
    ntidx_query_close(&q);
    return rc;
}

static void *derive_work_run(void *arg)
{
    derive_work *w = arg;
    for (size_t k; (k = atomic_fetch_add(&w->next, 1)) < w->n;)
        w->units[k].rc = derive_unit_run(w, &w->units[k]);
    return NULL;
}

/* Every event header of the indexed trace read (on one thread per core), and the rows its readers derive
   listed in `l` after its own, as one reader from the start would list them; the error of the first unit
   that failed. */
static int walk_events(ntidx_trace *t, const ntidx_index *x, unsigned threads, ntidx_type_list *l, ntx_err *err)
{
    uint64_t nr = ntx_index_region_total(x), total = 0;
    for (uint64_t r = 0; r < nr; r++)
        total += ntx_rg_bytes(x, r);
    unsigned nthreads = ntx_thread_count(threads);
    uint64_t target = total / ((uint64_t)nthreads * 4) + 1, acc = 0;
    derive_work w = {.t = t, .x = x, .units = calloc((size_t)(nr ? nr : 1), sizeof *w.units)};
    if (!w.units)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    atomic_init(&w.next, 0);
    for (uint64_t r = 0; r < nr; r++) {
        if (!w.n || acc >= target) {
            w.units[w.n++] = (derive_unit){.r0 = r, .r1 = r};
            acc = 0;
        }
        w.units[w.n - 1].r1 = r + 1;
        acc += ntx_rg_bytes(x, r);
    }
    if (nthreads > w.n)
        nthreads = w.n ? (unsigned)w.n : 1;
    ntx_run_threads(nthreads, derive_work_run, &w); /* what more threads divide, timed for the benchmarks */
    int rc = 0;
    for (size_t k = 0; k < w.n; k++) {
        derive_unit *u = &w.units[k];
        if (rc == 0 && u->rc < 0) {
            rc = u->rc;
            *err = u->err;
        }
        for (size_t i = 0; rc == 0 && u->l && i < u->l->n; i++)
            if ((rc = add_type(l, &u->l->v[i])) < 0)
                ntx_err_set(err, rc, "out of memory");
        free_list(u->l);
    }
    free(w.units);
    return rc;
}

/*
 * V6 events whose label list overrides their opcode or version are of a type
 * no definition block names (TraceEvent names them by the overriding opcode,
 * and lays them out by the overriding version): such types exist only where
 * events carry those label lists. The label list blocks are read first
 * (small); only when one of them overrides something is every event header
 * of the indexed trace read (walk_events(): by region, on every core), and
 * the rows the readers derive are listed (docs: include/ntidx/batch.h,
 * ntidx_index_types).
 */
static int list_derived_types(ntidx_trace *t, const ntidx_index *x, unsigned threads, ntidx_type_list *l,
                              ntx_err *err)
{
    type_plan p = {0};
    size_t cap = 0;
    for (uint64_t b = 0; b < ntx_index_block_count(x); b++) {
        if (ntx_blk_kind(x, b) != NTIDX_BLOCK_LABEL_LIST)
            continue;
        int rc = ntx_index_need_block(x, b, err);
        if (rc < 0) {
            free(p.steps);
            return rc;
        }
        if (p.n == cap) {
            cap = cap ? 2 * cap : 64;
            ntx_plan_step *ns = realloc(p.steps, cap * sizeof *ns);
            if (!ns) {
                free(p.steps);
                return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
            }
            p.steps = ns;
        }
        p.steps[p.n++] = (ntx_plan_step){.offset = ntx_blk_offset(x, b), .size = ntx_blk_size(x, b),
                                          .op = NTX_OP_CONTEXT, .forget_seq = 0};
    }
    int saw = 0, rc = p.n ? walk_plan(t, &p, l, &saw, err) : 0;
    free(p.steps);
    if (rc < 0 || !saw)
        return rc;
    return walk_events(t, x, threads, l, err);
}

static int list_types(ntidx_trace *t, const ntidx_index *x, int derived, unsigned threads, ntidx_type_list *l,
                      ntx_err *err)
{
    type_plan p = {0};
    p.steps = malloc((size_t)(2 * ntx_index_def_count(x) + 1) * sizeof *p.steps);
    if (!p.steps)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    int64_t epoch = -1;
    for (uint64_t d = 0; d < ntx_index_def_count(x); d++) {
        uint8_t k = ntx_def_kind(x, d);
        if (k != NTIDX_BLOCK_METADATA && k != NTIDX_BLOCK_EVENT)
            continue;
        int rc = ntx_index_need_block(x, ntx_def_block(x, d), err);
        if (rc < 0) {
            free(p.steps);
            return rc;
        }
        if ((int64_t)ntx_def_meta_epoch(x, d) != epoch) { /* ids may be defined again after a flush */
            epoch = ntx_def_meta_epoch(x, d);
            p.steps[p.n++] = (ntx_plan_step){.offset = 0, .size = 0, .op = NTX_OP_RESET, .forget_seq = 1};
        }
        p.steps[p.n++] = (ntx_plan_step){.offset = ntx_blk_offset(x, ntx_def_block(x, d)),
                                          .size = ntx_blk_size(x, ntx_def_block(x, d)),
                                          .op = NTX_OP_CONTEXT,
                                          .forget_seq = 0};
    }
    int rc = walk_plan(t, &p, l, NULL, err);
    free(p.steps);
    if (rc < 0 || ntidx_trace_get_info(t)->format_version != 6 || !derived)
        return rc;
    return list_derived_types(t, x, threads, l, err);
}

static void free_list(ntidx_type_list *l)
{
    if (!l)
        return;
    free(l->v);
    free(l->sig);
    ntx_idmap_free(&l->by_hash);
    ntx_arena_free(&l->arena);
    ntidx_buf_free(&l->scratch);
    free(l);
}

NTIDX_API int ntidx_index_types(ntidx_trace *t, const ntidx_index *x, ntidx_type_list **out)
{
    if (out)
        *out = NULL;
    if (!t || !x || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET, "ntidx_index_types: NULL argument");
    return ntx_index_types(t, x, 1, 0, out);
}

int ntx_index_types(ntidx_trace *t, const ntidx_index *x, int derived, unsigned threads, ntidx_type_list **out)
{
    *out = NULL;
    ntidx_type_list *l = list_new();
    if (!l)
        return ntx_failf(NTIDX_E_NOMEM, ntidx_trace_name(t), NTIDX_NO_OFFSET, "out of memory");
    ntx_err err = {0};
    int rc = list_types(t, x, derived, threads, l, &err);
    if (rc < 0) {
        free_list(l);
        return ntx_fail(rc, rc == NTIDX_E_INDEX_CORRUPT ? ntx_index_name(x) : ntidx_trace_name(t), &err);
    }
    ntidx_buf_free(&l->scratch);
    *out = l;
    return NTIDX_OK;
}

NTIDX_API size_t ntidx_type_list_count(const ntidx_type_list *l) { return l ? l->n : 0; }

NTIDX_API const ntidx_metadata *ntidx_type_list_at(const ntidx_type_list *l, size_t i)
{
    return l && i < l->n ? &l->v[i] : NULL;
}

NTIDX_API void ntidx_type_list_free(ntidx_type_list **l)
{
    if (!l || !*l)
        return;
    free_list(*l);
    *l = NULL;
}
