/*
 * Whole-trace statistics by a full decode: counts per event type and per
 * thread, time span, dropped events. This is what `ntidx stats` does when
 * no index can answer, so it is on the hot path: per event, one lookup for
 * the type (cached across runs of the same metadata) and one for the thread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "idmap.h"
#include "ntidx/index.h"
#include "ntidx/ntidx.h"

typedef struct stats_impl {
    ntidx_stats pub;
    ntx_arena arena;
    ntidx_type_stat *types;
    ntidx_thread_stat *threads;
    ntidx_dropped *dropped;
    char reason[600];
} stats_impl;

typedef struct collector {
    stats_impl *st;
    ntx_idmap by_definition; /* metadata definition offset -> type index + 1 */
    ntx_idmap by_thread;     /* thread -> thread index + 1 */
    ntx_idmap by_type;       /* hash of (provider, event id, version, name) -> type index + 1 */
    ntidx_type_stat *types;
    size_t ntypes, captypes;
    ntidx_thread_stat *threads;
    size_t nthreads, capthreads;
} collector;

static int same_type(const ntidx_type_stat *a, const ntidx_metadata *m)
{
    return a->event_id == m->event_id && a->version == m->version && !strcmp(a->provider, m->provider) &&
           !strcmp(a->event_name, m->event_name ? m->event_name : "");
}

static uint64_t fnv1a(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return (h ^ 0xff) * 0x100000001b3ULL; /* terminator: ("ab","c") and ("a","bc") differ */
}

static uint64_t type_hash(const ntidx_metadata *m)
{
    uint64_t h = fnv1a(0xcbf29ce484222325ULL, m->provider);
    h = fnv1a(h, m->event_name ? m->event_name : "");
    return ntx_idmap_hash(h ^ ((uint64_t)m->event_id << 32 | m->version));
}

/* Type index of a metadata definition; definitions of the same type share one. */
static long type_of(collector *c, const ntidx_metadata *m)
{
    void *v = ntx_idmap_get(&c->by_definition, m->offset);
    if (v)
        return (long)((uintptr_t)v - 1);
    /* A trace can define any number of types (a hostile one, millions): find the type by a hash
       of its identity, with a linear search only when two types share a hash. */
    uint64_t h = type_hash(m);
    size_t i = c->ntypes;
    v = ntx_idmap_get(&c->by_type, h);
    if (v && same_type(&c->types[(uintptr_t)v - 1], m))
        i = (uintptr_t)v - 1;
    else if (v)
        for (i = 0; i < c->ntypes; i++)
            if (same_type(&c->types[i], m))
                break;
    if (i == c->ntypes) {
        if (c->ntypes == c->captypes) {
            size_t n = c->captypes ? c->captypes * 2 : 64;
            ntidx_type_stat *nt = realloc(c->types, n * sizeof *nt);
            if (!nt)
                return -1;
            c->types = nt;
            c->captypes = n;
        }
        ntidx_type_stat *s = &c->types[c->ntypes++];
        memset(s, 0, sizeof *s);
        s->provider = ntx_arena_strndup(&c->st->arena, m->provider, strlen(m->provider));
        const char *name = m->event_name ? m->event_name : "";
        s->event_name = ntx_arena_strndup(&c->st->arena, name, strlen(name));
        if (!s->provider || !s->event_name)
            return -1;
        s->event_id = m->event_id;
        s->version = m->version;
        s->first_ts = UINT64_MAX;
        if (!v && ntx_idmap_put(&c->by_type, h, (void *)(uintptr_t)(i + 1)) != 0)
            return -1;
    }
    if (ntx_idmap_put(&c->by_definition, m->offset, (void *)(uintptr_t)(i + 1)) != 0)
        return -1;
    return (long)i;
}

static ntidx_thread_stat *thread_of(collector *c, uint64_t thread)
{
    void *v = ntx_idmap_get(&c->by_thread, thread);
    if (v)
        return &c->threads[(uintptr_t)v - 1];
    if (c->nthreads == c->capthreads) {
        size_t n = c->capthreads ? c->capthreads * 2 : 64;
        ntidx_thread_stat *nt = realloc(c->threads, n * sizeof *nt);
        if (!nt)
            return NULL;
        c->threads = nt;
        c->capthreads = n;
    }
    ntidx_thread_stat *s = &c->threads[c->nthreads++];
    s->thread = thread;
    s->count = 0;
    if (ntx_idmap_put(&c->by_thread, thread, (void *)(uintptr_t)c->nthreads) != 0)
        return NULL;
    return s;
}

static int cmp_type(const void *a, const void *b)
{
    const ntidx_type_stat *x = a, *y = b;
    int r = strcmp(x->provider, y->provider);
    if (r)
        return r;
    if (x->event_id != y->event_id)
        return x->event_id < y->event_id ? -1 : 1;
    if (x->version != y->version)
        return x->version < y->version ? -1 : 1;
    return strcmp(x->event_name, y->event_name);
}

static int cmp_thread(const void *a, const void *b)
{
    const ntidx_thread_stat *x = a, *y = b;
    return x->thread < y->thread ? -1 : x->thread > y->thread;
}

/* Per-event accumulation, shared by the whole-trace scan and window queries. */
typedef struct accum {
    collector c;
    uint64_t lo, hi, events, payload;
    /* Runs of events share a definition and a thread: cache both. Definitions are
       keyed by file offset, unique per definition, never by pointer (a flush frees
       metadata and a new row may reuse the address). */
    uint64_t last_def, last_tid;
    long last_type, last_thread;
} accum;

static void accum_init(accum *a, stats_impl *st)
{
    memset(a, 0, sizeof *a);
    a->c.st = st;
    ntx_idmap_init(&a->c.by_definition);
    ntx_idmap_init(&a->c.by_thread);
    ntx_idmap_init(&a->c.by_type);
    a->lo = UINT64_MAX;
    a->last_def = UINT64_MAX;
    a->last_type = a->last_thread = -1;
}

static int accum_add(accum *a, const ntidx_event *e)
{
    collector *c = &a->c;
    long ti = a->last_type;
    if (e->metadata->offset != a->last_def) {
        ti = type_of(c, e->metadata);
        if (ti < 0)
            return NTIDX_E_NOMEM;
        a->last_def = e->metadata->offset;
        a->last_type = ti;
    }
    ntidx_type_stat *ts = &c->types[ti];
    ts->count++;
    ts->payload_bytes += e->payload_size;
    if (e->timestamp < ts->first_ts)
        ts->first_ts = e->timestamp;
    if (a->last_thread < 0 || e->thread_id != a->last_tid) {
        ntidx_thread_stat *th = thread_of(c, e->thread_id);
        if (!th)
            return NTIDX_E_NOMEM;
        a->last_thread = th - c->threads;
        a->last_tid = e->thread_id;
    }
    c->threads[a->last_thread].count++;
    a->events++;
    a->payload += e->payload_size;
    if (e->timestamp < a->lo)
        a->lo = e->timestamp;
    if (e->timestamp > a->hi)
        a->hi = e->timestamp;
    return 0;
}

static void accum_discard(accum *a)
{
    ntx_idmap_free(&a->c.by_definition);
    ntx_idmap_free(&a->c.by_thread);
    ntx_idmap_free(&a->c.by_type);
    free(a->c.types);
    free(a->c.threads);
    stats_impl *st = a->c.st;
    ntx_arena_free(&st->arena);
    free(st->dropped);
    free(st);
}

/* Hand the accumulated counts to the public struct (sorted). */
static int accum_finish(accum *a, ntidx_trace *t, int complete, const char *reason, const ntidx_reader_stats *rs,
                        const ntidx_dropped *dl, size_t dn, ntidx_stats **out)
{
    stats_impl *st = a->c.st;
    collector *c = &a->c;
    ntidx_stats *p = &st->pub;
    const ntidx_trace_info *in = ntidx_trace_get_info(t);
    p->format_version = in->format_version;
    p->complete = complete;
    snprintf(st->reason, sizeof st->reason, "%s", complete ? "" : reason);
    p->incomplete_reason = st->reason;
    p->events = a->events;
    p->first_ts = a->events ? a->lo : 0;
    p->last_ts = a->events ? a->hi : 0;
    p->sync_ticks = in->sync_ticks;
    p->tick_frequency = in->tick_frequency;
    p->payload_bytes = a->payload;
    p->reader = *rs;
    p->dropped_events = rs->dropped_events;
    if (dn) {
        st->dropped = malloc(dn * sizeof *dl);
        if (!st->dropped)
            return NTIDX_E_NOMEM;
        memcpy(st->dropped, dl, dn * sizeof *dl);
    }
    p->dropped = st->dropped;
    p->dropped_count = dn;
    if (c->ntypes)
        qsort(c->types, c->ntypes, sizeof *c->types, cmp_type);
    if (c->nthreads)
        qsort(c->threads, c->nthreads, sizeof *c->threads, cmp_thread);
    st->types = c->types;
    st->threads = c->threads;
    p->types = c->types;
    p->type_count = c->ntypes;
    p->threads = c->threads;
    p->thread_count = c->nthreads;
    ntx_idmap_free(&c->by_definition);
    ntx_idmap_free(&c->by_thread);
    ntx_idmap_free(&c->by_type);
    *out = p;
    return NTIDX_OK;
}

static stats_impl *stats_new(void)
{
    stats_impl *st = calloc(1, sizeof *st);
    if (st)
        ntx_arena_init(&st->arena);
    return st;
}

NTIDX_API int ntidx_stats_compute(ntidx_trace *t, ntidx_stats **out, char *err, size_t errlen)
{
    if (!t || !out)
        return NTIDX_E_INVALID_ARG;
    *out = NULL;
    if (err && errlen)
        err[0] = 0;
    stats_impl *st = stats_new();
    if (!st)
        return NTIDX_E_NOMEM;
    accum a;
    accum_init(&a, st);
    ntidx_reader *r = NULL;
    int rc = ntidx_reader_open(&r, t, NULL);
    const ntidx_event *e;
    while (rc == 0 && (rc = ntidx_reader_next(r, &e)) == 1)
        rc = accum_add(&a, e);
    const ntidx_dropped *dl = NULL;
    size_t dn = 0;
    if (rc == 0)
        rc = ntidx_reader_dropped(r, &dl, &dn);
    if (rc == 0)
        rc = accum_finish(&a, t, ntidx_reader_complete(r), ntidx_reader_error(r), ntidx_reader_get_stats(r), dl, dn, out);
    if (rc < 0) {
        if (err && errlen && r)
            snprintf(err, errlen, "%s", rc == NTIDX_E_NOMEM ? "out of memory" : ntidx_reader_error(r));
        accum_discard(&a);
    }
    ntidx_reader_close(&r);
    return rc;
}

NTIDX_API int ntidx_stats_window(ntidx_trace *t, const ntidx_index *x, uint64_t t0, uint64_t t1, ntidx_stats **out,
                                 char *err, size_t errlen)
{
    if (!t || !x || !out)
        return NTIDX_E_INVALID_ARG;
    *out = NULL;
    if (err && errlen)
        err[0] = 0;
    stats_impl *st = stats_new();
    if (!st)
        return NTIDX_E_NOMEM;
    accum a;
    accum_init(&a, st);
    ntidx_query_options o;
    ntidx_query_options_defaults(&o);
    o.t0 = t0;
    o.t1 = t1;
    o.order = NTIDX_ORDER_FILE; /* counting needs no sorting */
    ntidx_query *q = NULL;
    int rc = ntidx_query_open(&q, t, x, &o);
    const ntidx_event *e;
    while (rc == 0 && (rc = ntidx_query_next(q, &e)) == 1)
        rc = accum_add(&a, e);
    const ntidx_dropped *dl = NULL;
    size_t dn = 0;
    if (rc == 0)
        rc = ntidx_query_dropped(q, &dl, &dn);
    if (rc == 0) {
        ntidx_reader_stats rs = {0};
        const ntidx_query_stats *qs = ntidx_query_get_stats(q);
        rs.events = a.events;
        rs.dropped_events = qs->dropped_events;
        rs.bytes_read = qs->bytes_read;
        rs.blocks[NTIDX_BLOCK_EVENT] = qs->event_blocks_read;
        /* the window is complete when the index saw the trace's end or the window ends before the indexed part */
        const ntidx_index_info *ii = ntidx_index_get_info(x);
        int complete = ii->complete || (ii->last_ts >= t1 && ii->first_ts <= ii->last_ts);
        rc = accum_finish(&a, t, complete, "the window reaches past the indexed part of an incomplete trace", &rs, dl,
                          dn, out);
    }
    if (rc < 0) {
        if (err && errlen && q)
            snprintf(err, errlen, "%s", rc == NTIDX_E_NOMEM ? "out of memory" : ntidx_query_error(q));
        accum_discard(&a);
    }
    ntidx_query_close(&q);
    return rc;
}

NTIDX_API void ntidx_stats_free(ntidx_stats **sp)
{
    if (!sp || !*sp)
        return;
    stats_impl *st = (stats_impl *)*sp; /* pub is the first member */
    ntx_arena_free(&st->arena);
    free(st->types);
    free(st->threads);
    free(st->dropped);
    free(st);
    *sp = NULL;
}
