/*
 * Whole-trace statistics by a full decode: counts per event type and per
 * thread, time span, dropped events. This is what `ntidx stats` does when
 * no index can answer, so it is on the hot path: per event, one lookup for
 * the type (cached across runs of the same metadata) and one for the thread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index_tables.h"
#include "reader_plan.h"
#include "stats_internal.h"

struct ntx_stats_impl {
    ntidx_stats pub;
    ntx_arena arena;
    ntidx_type_stat *types;
    ntidx_thread_stat *threads;
    ntidx_dropped *dropped;
    ntidx_bucket *histogram;
    char reason[600];
};
typedef struct ntx_stats_impl stats_impl;
typedef ntx_stats_accum collector;

static int same_type(const ntidx_type_stat *a, const char *provider, uint32_t event_id, const char *name,
                     uint32_t version)
{
    return a->event_id == event_id && a->version == version && !strcmp(a->provider, provider) &&
           !strcmp(a->event_name, name);
}

static uint64_t fnv1a(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return (h ^ 0xff) * 0x100000001b3ULL; /* terminator: ("ab","c") and ("a","bc") differ */
}

static uint64_t type_hash(const char *provider, uint32_t event_id, const char *name, uint32_t version)
{
    uint64_t h = fnv1a(0xcbf29ce484222325ULL, provider);
    h = fnv1a(h, name);
    return ntx_idmap_hash(h ^ ((uint64_t)event_id << 32 | version));
}

/*
 * Index of a type, added when new. A trace can define any number of types (a
 * hostile one, millions): find the type by a hash of its identity, with a
 * linear search only when two types share a hash.
 */
static long find_type(collector *c, const char *provider, uint32_t event_id, const char *name, uint32_t version)
{
    uint64_t h = type_hash(provider, event_id, name, version);
    size_t i = c->ntypes;
    void *v = ntx_idmap_get(&c->by_type, h);
    if (v && same_type(&c->types[(uintptr_t)v - 1], provider, event_id, name, version))
        return (long)((uintptr_t)v - 1);
    if (v)
        for (i = 0; i < c->ntypes; i++)
            if (same_type(&c->types[i], provider, event_id, name, version))
                return (long)i;
    if (c->ntypes == c->captypes) {
        size_t n = c->captypes ? c->captypes * 2 : 64;
        ntidx_type_stat *nt = realloc(c->types, n * sizeof *nt);
        if (!nt)
            return -1;
        c->types = nt;
        c->captypes = n;
    }
    i = c->ntypes++;
    ntidx_type_stat *s = &c->types[i];
    memset(s, 0, sizeof *s);
    s->provider = ntx_arena_strndup(&c->st->arena, provider, strlen(provider));
    s->event_name = ntx_arena_strndup(&c->st->arena, name, strlen(name));
    if (!s->provider || !s->event_name)
        return -1;
    s->event_id = event_id;
    s->version = version;
    s->first_ts = UINT64_MAX;
    if (!v && ntx_idmap_put(&c->by_type, h, (void *)(uintptr_t)(i + 1)) != 0)
        return -1;
    return (long)i;
}

/* Type index of a metadata definition; definitions of the same type share one. */
static long type_of(collector *c, const ntidx_metadata *m)
{
    void *v = ntx_idmap_get(&c->by_definition, ntx_metadata_key(m));
    if (v)
        return (long)((uintptr_t)v - 1);
    long i = find_type(c, m->provider, m->event_id, m->event_name ? m->event_name : "", m->version);
    if (i < 0 || ntx_idmap_put(&c->by_definition, ntx_metadata_key(m), (void *)(uintptr_t)(i + 1)) != 0)
        return -1;
    return i;
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

static stats_impl *stats_new(void);

/* The thread cache starts small (an accumulator per region is common) and grows to 4 slots per thread. */
enum { THREAD_CACHE_MIN_BITS = 6, THREAD_CACHE_MAX_BITS = 14 };

static void thread_cache_empty(struct ntx_thread_slot *c, unsigned bits)
{
    for (size_t i = 0; i < (size_t)1 << bits; i++)
        c[i].index = -1;
}

/* An empty thread cache of 1 << bits slots in place of the old one; -1 out of memory (the old one kept). */
static int thread_cache_resize(ntx_stats_accum *a, unsigned bits)
{
    struct ntx_thread_slot *c = malloc(((size_t)1 << bits) * sizeof *c);
    if (!c)
        return -1;
    thread_cache_empty(c, bits);
    free(a->thread_cache);
    a->thread_cache = c;
    a->thread_bits = bits;
    return 0;
}

/* Both caches emptied, the thread cache at its first size; -1: out of memory for a first thread cache. */
static int caches_reset(ntx_stats_accum *a)
{
    for (size_t i = 0; i < sizeof a->type_cache / sizeof a->type_cache[0]; i++)
        a->type_cache[i].def = UINT64_MAX; /* no definition lies at that offset */
    if (!a->thread_cache)
        return thread_cache_resize(a, THREAD_CACHE_MIN_BITS);
    if (a->thread_bits != THREAD_CACHE_MIN_BITS && thread_cache_resize(a, THREAD_CACHE_MIN_BITS) == 0)
        return 0; /* a grown cache given back */
    thread_cache_empty(a->thread_cache, a->thread_bits); /* already small (kept: no allocation per region), or no
                                                            memory for a small one */
    return 0;
}

int ntx_stats_accum_init(ntx_stats_accum *a)
{
    memset(a, 0, sizeof *a);
    a->st = stats_new();
    if (!a->st)
        return NTIDX_E_NOMEM;
    ntx_idmap_init(&a->by_definition);
    ntx_idmap_init(&a->by_thread);
    ntx_idmap_init(&a->by_type);
    a->lo = UINT64_MAX;
    if (caches_reset(a) < 0) {
        ntx_stats_accum_discard(a);
        return NTIDX_E_NOMEM;
    }
    return 0;
}

void ntx_stats_accum_reset(ntx_stats_accum *a)
{
    ntx_idmap_clear(&a->by_definition);
    ntx_idmap_clear(&a->by_thread);
    ntx_idmap_clear(&a->by_type);
    ntx_arena_free(&a->st->arena); /* the types' names */
    a->ntypes = a->nthreads = 0;
    a->lo = UINT64_MAX;
    a->hi = a->events = a->payload = 0;
    (void)caches_reset(a); /* an initialised accumulator has a thread cache: this empties or shrinks it */
}

/*
 * The cache slot of an event type's statistic (cached by metadata id, checked
 * by the definition's key: its offset, or for a row derived by V6 label
 * overrides, the offset with the overrides); NULL: no memory.
 */
static inline struct ntx_type_slot *type_slot(ntx_stats_accum *a, const ntidx_metadata *m)
{
    struct ntx_type_slot *tc = &a->type_cache[m->id & 255];
    uint64_t key = ntx_metadata_key(m);
    if (__builtin_expect(tc->def != key, 0)) {
        long ti = type_of(a, m);
        if (ti < 0)
            return NULL;
        tc->def = key;
        tc->type = ti;
        tc->key = 0;
        tc->block = UINT64_MAX;
    }
    return tc;
}

static inline struct ntx_thread_slot *thread_slot(ntx_stats_accum *a, uint64_t thread)
{
    return &a->thread_cache[(thread * 0x9E3779B97F4A7C15ULL) >> (64 - a->thread_bits)];
}

/* A thread the cache did not answer: looked up (or added), the cache grown when the threads outnumber it. */
static __attribute__((noinline)) long thread_miss(ntx_stats_accum *a, uint64_t thread)
{
    ntidx_thread_stat *th = thread_of(a, thread);
    if (!th)
        return -1;
    if (a->nthreads * 4 > ((size_t)1 << a->thread_bits) && a->thread_bits < THREAD_CACHE_MAX_BITS)
        (void)thread_cache_resize(a, a->thread_bits + 2); /* out of memory: the smaller cache still works */
    struct ntx_thread_slot *hc = thread_slot(a, thread);
    hc->thread = thread;
    hc->index = th - a->threads;
    hc->key = 0;
    hc->block = UINT64_MAX;
    return hc->index;
}

/* The index of a thread's statistic (cached); -1: no memory. */
static inline long thread_index(ntx_stats_accum *a, uint64_t thread)
{
    const struct ntx_thread_slot *hc = thread_slot(a, thread);
    if (__builtin_expect(hc->index >= 0 && hc->thread == thread, 1))
        return hc->index;
    return thread_miss(a, thread);
}

static inline void count_type(ntx_stats_accum *a, long ti, uint64_t ts, uint32_t payload)
{
    ntidx_type_stat *type = &a->types[ti];
    type->count++;
    type->payload_bytes += payload;
    if (ts < type->first_ts)
        type->first_ts = ts;
}

int ntx_stats_accum_add(ntx_stats_accum *a, const ntidx_event *e)
{
    const struct ntx_type_slot *tc = type_slot(a, e->metadata);
    long ti = tc ? tc->type : -1, hi = ti < 0 ? -1 : thread_index(a, e->thread_id);
    if (hi < 0)
        return NTIDX_E_NOMEM;
    count_type(a, ti, e->timestamp, e->payload_size);
    a->threads[hi].count++;
    a->events++;
    a->payload += e->payload_size;
    if (e->timestamp < a->lo)
        a->lo = e->timestamp;
    if (e->timestamp > a->hi)
        a->hi = e->timestamp;
    return 0;
}

/*
 * The loop of both ntx_stats_accum_add_rows() (keyed 0: the keys compiled away) and
 * the keyed variant. A type's filter key is added once per block, found
 * through the type cache slot the lookup has just read; a thread's, at each
 * change of thread, through its slot.
 */
static inline __attribute__((always_inline)) int add_rows(ntx_stats_accum *a, const ntx_row *rows, size_t n,
                                                          int keyed, uint8_t *filter, uint64_t block)
{
    /* The totals in registers for the batch; events come in runs per thread: the run's count too. */
    uint64_t payload = 0, lo = a->lo, hi = a->hi, run = 0, thread = 0, outside = 0;
    long run_index = -1;
    int rc = 0;
    size_t i = 0;
    for (; i < n; i++) {
        const ntx_row *r = &rows[i];
        if (keyed && __builtin_expect(r->timestamp == UINT64_MAX, 0)) {
            /* Keys only: a type or thread looked up here would be a statistic with no event. */
            ntx_bloom_add(filter, ntx_type_hash(r->metadata->provider, r->metadata->event_id));
            ntx_bloom_add(filter + 32, ntx_thread_hash(r->thread_id));
            outside++;
            continue;
        }
        struct ntx_type_slot *tc = type_slot(a, r->metadata);
        if (!tc) {
            rc = NTIDX_E_NOMEM;
            break;
        }
        if (keyed && tc->block != block) {
            if (!tc->key)
                tc->key = ntx_type_hash(r->metadata->provider, r->metadata->event_id);
            tc->block = block;
            ntx_bloom_add(filter, tc->key);
        }
        count_type(a, tc->type, r->timestamp, r->payload_size);
        if (__builtin_expect(run_index < 0 || r->thread_id != thread, 0)) {
            if (run_index >= 0)
                a->threads[run_index].count += run;
            if ((run_index = thread_index(a, r->thread_id)) < 0) {
                rc = NTIDX_E_NOMEM;
                break;
            }
            thread = r->thread_id;
            run = 0;
            if (keyed) {
                struct ntx_thread_slot *hc = thread_slot(a, thread); /* filled by thread_index */
                if (hc->block != block) {
                    if (!hc->key)
                        hc->key = ntx_thread_hash(thread);
                    hc->block = block;
                    ntx_bloom_add(filter + 32, hc->key);
                }
            }
        }
        run++;
        payload += r->payload_size;
        lo = r->timestamp < lo ? r->timestamp : lo;
        hi = r->timestamp > hi ? r->timestamp : hi;
    }
    if (run_index >= 0)
        a->threads[run_index].count += run;
    a->events += i - outside;
    a->payload += payload;
    a->lo = lo;
    a->hi = hi;
    return rc;
}

int ntx_stats_accum_add_rows(ntx_stats_accum *a, const ntx_row *rows, size_t n)
{
    return add_rows(a, rows, n, 0, NULL, 0);
}

int ntx_stats_accum_add_rows_keyed(ntx_stats_accum *a, const ntx_row *rows, size_t n, uint8_t *filter, uint64_t block)
{
    return add_rows(a, rows, n, 1, filter, block);
}

int ntx_stats_accum_merge(ntx_stats_accum *dst, const ntx_stats_accum *src)
{
    for (size_t i = 0; i < src->ntypes; i++) {
        const ntidx_type_stat *s = &src->types[i];
        long k = find_type(dst, s->provider, s->event_id, s->event_name, s->version);
        if (k < 0)
            return NTIDX_E_NOMEM;
        ntidx_type_stat *d = &dst->types[k];
        d->count += s->count;
        d->payload_bytes += s->payload_bytes;
        if (s->first_ts < d->first_ts)
            d->first_ts = s->first_ts;
    }
    for (size_t i = 0; i < src->nthreads; i++) {
        ntidx_thread_stat *d = thread_of(dst, src->threads[i].thread);
        if (!d)
            return NTIDX_E_NOMEM;
        d->count += src->threads[i].count;
    }
    dst->events += src->events;
    dst->payload += src->payload;
    if (src->lo < dst->lo)
        dst->lo = src->lo;
    if (src->hi > dst->hi)
        dst->hi = src->hi;
    return 0;
}

void ntx_stats_accum_discard(ntx_stats_accum *a)
{
    ntx_idmap_free(&a->by_definition);
    ntx_idmap_free(&a->by_thread);
    ntx_idmap_free(&a->by_type);
    free(a->types);
    free(a->threads);
    free(a->thread_cache);
    stats_impl *st = a->st;
    if (st) {
        ntx_arena_free(&st->arena);
        free(st->dropped);
        free(st->histogram);
        free(st);
    }
    memset(a, 0, sizeof *a);
}

/* Hand the accumulated counts to the public struct (sorted). */
int ntx_stats_accum_finish(ntx_stats_accum *a, ntidx_trace *t, int complete, const char *reason,
                           const ntidx_reader_stats *rs, const ntidx_dropped *dl, size_t dn, ntidx_stats **out)
{
    stats_impl *st = a->st;
    collector *c = a;
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
    free(c->thread_cache); /* the counts went to the public struct; the lookups' memory goes */
    c->thread_cache = NULL;
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

NTIDX_API int ntidx_stats_compute(ntidx_trace *t, ntidx_stats **out)
{
    return ntidx_stats_compute_progress(t, NULL, NULL, out);
}

NTIDX_API int ntidx_stats_compute_progress(ntidx_trace *t, ntidx_progress_fn progress, void *ctx, ntidx_stats **out)
{
    if (out)
        *out = NULL;
    if (!t || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET, "ntidx_stats_compute: NULL argument");
    ntx_stats_accum a;
    if (ntx_stats_accum_init(&a) < 0)
        return ntx_failf(NTIDX_E_NOMEM, ntidx_trace_name(t), NTIDX_NO_OFFSET, "out of memory");
    ntidx_reader *r = NULL;
    int rc = ntidx_reader_open(t, NULL, &r); /* the reader's calls say their own errors */
    int nomem = 0;
    /* Rows a block at a time: the reader's loop for compressed headers, counted here in a loop of our own. */
    ntx_row rows[512];
    uint64_t block;
    long n = 0;
    unsigned batches = 0;
    while (rc == 0 && (n = ntx_reader_rows(r, rows, sizeof rows / sizeof rows[0], &block)) > 0) {
        if ((rc = ntx_stats_accum_add_rows(&a, rows, (size_t)n)) < 0)
            nomem = 1;
        else if (progress && (++batches & 15) == 0 && progress(ctx, block, ntidx_trace_get_info(t)->file_size))
            rc = ntx_failf(NTIDX_E_CANCELLED, ntidx_trace_name(t), NTIDX_NO_OFFSET, "cancelled");
    }
    if (rc == 0 && n < 0)
        rc = ntx_fail((int)n, ntidx_trace_name(t), ntx_reader_error(r));
    const ntidx_dropped *dl = NULL;
    size_t dn = 0;
    if (rc == 0)
        rc = ntidx_reader_dropped(r, &dl, &dn);
    if (rc == 0 && (rc = ntx_stats_accum_finish(&a, t, ntidx_reader_complete(r), ntidx_reader_incomplete_reason(r),
                                                ntidx_reader_get_stats(r), dl, dn, out)) < 0)
        nomem = 1;
    if (rc < 0) {
        if (nomem)
            ntx_failf(rc, ntidx_trace_name(t), NTIDX_NO_OFFSET, "out of memory");
        ntx_stats_accum_discard(&a);
    }
    ntidx_reader_close(&r);
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
    free(st->histogram);
    free(st);
    *sp = NULL;
}

int ntx_stats_set_histogram(ntidx_stats *s, uint64_t start, uint64_t width, const uint64_t *counts, size_t n)
{
    stats_impl *st = (stats_impl *)s; /* pub is the first member */
    st->histogram = calloc(n ? n : 1, sizeof *st->histogram);
    if (!st->histogram)
        return NTIDX_E_NOMEM;
    for (size_t i = 0; i < n; i++) {
        /* a bucket that would end after the last tick ends there (a width near 2^64 must not wrap) */
        uint64_t end;
        if (__builtin_mul_overflow((uint64_t)(i + 1), width, &end) || __builtin_add_overflow(end, start, &end))
            end = UINT64_MAX;
        st->histogram[i] = (ntidx_bucket){start + i * width, end, counts[i]};
    }
    s->histogram = st->histogram;
    s->bucket_count = n;
    return 0;
}

void ntx_drop_map_init(ntx_drop_map *m)
{
    memset(m, 0, sizeof *m);
    ntx_idmap_init(&m->index);
}

int ntx_drop_map_add(ntx_drop_map *m, const ntidx_dropped *d)
{
    void *v = ntx_idmap_get(&m->index, d->capture_thread);
    if (v) {
        ntidx_dropped *e = &m->v[(uintptr_t)v - 1];
        e->dropped += d->dropped;
        /* Regions are merged in any order (as workers take them, stored region statistics after the
           decoded ones), so the OS thread id must not depend on it. A region that counted drops of a
           thread without seeing its events knows only its index (capture_thread_id == capture_thread):
           a known id wins over that; of two known ones (an index reused), the smaller. */
        uint64_t have = e->capture_thread_id, got = d->capture_thread_id, unknown = d->capture_thread;
        if (have == unknown || (got != unknown && got < have))
            e->capture_thread_id = got;
        return 0;
    }
    if (m->n == m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 16;
        ntidx_dropped *nv = realloc(m->v, nc * sizeof *nv);
        if (!nv)
            return NTIDX_E_NOMEM;
        m->v = nv;
        m->cap = nc;
    }
    m->v[m->n++] = *d;
    return ntx_idmap_put(&m->index, d->capture_thread, (void *)(uintptr_t)m->n) == 0 ? 0 : NTIDX_E_NOMEM;
}

static int cmp_drop(const void *a, const void *b)
{
    const ntidx_dropped *x = a, *y = b;
    return x->capture_thread < y->capture_thread ? -1 : x->capture_thread > y->capture_thread;
}

void ntx_drop_map_sort(ntx_drop_map *m)
{
    if (m->n)
        qsort(m->v, m->n, sizeof *m->v, cmp_drop);
}

void ntx_drop_map_free(ntx_drop_map *m)
{
    free(m->v);
    ntx_idmap_free(&m->index);
    memset(m, 0, sizeof *m);
}
