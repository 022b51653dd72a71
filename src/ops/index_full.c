/*
 * --full indexes: what a plain index (src/index/index_scan.c) does not hold.
 *
 * Per block: the number of events and Bloom filters of their types and
 * threads, counted by one pass of the reader (FILTERS and the BLOCKS events
 * field), so queries filtered by type or thread skip blocks.
 *
 * Per region: its statistics.
 * A statistics worker reads one sequence-point region at a time and adds
 * its events to counts per type and per thread, a time span, dropped events
 * per capture thread and the event blocks it read (stats_parallel.c). A
 * --full index stores exactly that, per region, computed when the index is
 * built by a query that reads a run of regions region by region and gives
 * each region's figures as a one-region query over it would
 * (ntx_query_open_run). Statistics over a window then take the
 * regions that lie wholly inside it from the index and decode only the ones
 * at its edges: the result is the same byte for byte, and a whole-trace
 * `ntidx stats` or `ntidx top` reads no event block at all.
 *
 * Layout (index_format.h, docs/index-format.md): REGION_STATS, one entry
 * per region pointing at its runs of TYPE_COUNTS, THREAD_COUNTS and
 * DROP_COUNTS entries; provider and event names in STRINGS, each stored
 * once.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hash.h"
#include "index_internal.h"
#include "query_internal.h"
#include "reader_internal.h"
#include "stats_internal.h"

#define MAX_THREADS 64


/* Strings stored once: offset of `s` (h: ntx_xxh3 of its bytes) in STRINGS, added when new. */
typedef struct interner {
    ntidx_buf *pool;
    ntx_idmap at; /* xxh3 of the string -> offset + 1 (a collision falls back to appending) */
} interner;

static int intern(interner *in, const char *s, uint64_t h, uint64_t *off)
{
    size_t n = strlen(s);
    void *v = ntx_idmap_get(&in->at, h);
    if (v) {
        uint64_t o = (uintptr_t)v - 1;
        if (o + n < in->pool->len && !memcmp(in->pool->bytes + o, s, n + 1)) {
            *off = o;
            return 0;
        }
    }
    uint8_t *p = ntx_buf_append(in->pool, n + 1);
    if (!p)
        return NTIDX_E_NOMEM;
    memcpy(p, s, n + 1);
    *off = in->pool->len - n - 1;
    if (!v && ntx_idmap_put(&in->at, h, (void *)(uintptr_t)(*off + 1)) != 0)
        return NTIDX_E_NOMEM;
    return 0;
}

static void bind(ntidx_index *x)
{
    ntidx_buf *o = x->own;
    x->rstats = o[NTX_OWN_RSTATS].bytes;
    x->srst = NTX_RSTAT_ENTRY;
    x->tcounts = o[NTX_OWN_TCOUNTS].bytes;
    x->ntcounts = o[NTX_OWN_TCOUNTS].len / NTX_TCOUNT_ENTRY;
    x->stc = NTX_TCOUNT_ENTRY;
    x->thcounts = o[NTX_OWN_THCOUNTS].bytes;
    x->nthcounts = o[NTX_OWN_THCOUNTS].len / NTX_THCOUNT_ENTRY;
    x->sthc = NTX_THCOUNT_ENTRY;
    x->dcounts = o[NTX_OWN_DCOUNTS].bytes;
    x->ndcounts = o[NTX_OWN_DCOUNTS].len / NTX_DCOUNT_ENTRY;
    x->sdc = NTX_DCOUNT_ENTRY;
    x->strings = o[NTX_OWN_STRINGS].bytes;
    x->strings_len = o[NTX_OWN_STRINGS].len;
}

/* ------------------------------------------------------------------ */
/* One pass over the regions, in parallel                              */
/* ------------------------------------------------------------------ */

/*
 * What a worker found in one region: its statistics (as a statistics worker
 * computes them, in the order they were first met) until they are written, in
 * region order, by the calling thread. Provider and event names are copied
 * into `strings` (NUL-separated): the region's reader and its arenas are gone
 * by then.
 */
typedef struct region_type {
    size_t provider, name; /* offsets into the region's strings */
    uint64_t provider_h, name_h; /* their hashes, for STRINGS (computed by the workers, not the writer) */
    uint32_t event_id, version;
    uint64_t count, first_ts, payload;
} region_type;

typedef struct region_result {
    region_type *types;
    ntidx_thread_stat *threads;
    ntidx_dropped *drops;
    char *strings;
    uint32_t ntypes, nthreads, ndrops, event_blocks;
    uint64_t events, lo, hi;
    /* An event block of the region whose events are all outside it, or none at all: a statistics query
       over a --full index skips such blocks (their count is 0), which moves sequence baselines. The
       region is computed again that way once the counts are known (rare: hostile or odd traces). */
    int again;
    int done;
} region_result;

typedef struct full_shared {
    ntidx_trace *t;
    ntidx_index *x;
    const ntidx_index_options *o;
    region_result *res;
    uint64_t *unit_first;             /* work unit u: regions [unit_first[u], unit_first[u + 1]) */
    uint64_t nunits;
    atomic_uint_fast64_t next;        /* the next work unit to take */
    atomic_uint_fast64_t first_failed;/* the lowest region that failed (nregions: none) */
    atomic_uint_fast64_t done_bytes;  /* trace bytes of the regions done (progress) */
    ntx_err *errs;                    /* per region: why it failed */
    atomic_int cancelled;             /* the progress callback (on the calling thread) cancelled */
} full_shared;

static void result_free(region_result *r)
{
    free(r->types);
    free(r->threads);
    free(r->drops);
    free(r->strings);
    memset(r, 0, sizeof *r);
}

/* Keep a region's statistics (the accumulator, its drops) in `res`. 0, or NTIDX_E_NOMEM. */
static int keep_result(region_result *res, const ntx_stats_accum *a, const ntx_drop_map *d, uint32_t event_blocks)
{
    size_t len = 0;
    for (size_t i = 0; i < a->ntypes; i++)
        len += strlen(a->types[i].provider) + strlen(a->types[i].event_name) + 2;
    res->types = malloc((a->ntypes ? a->ntypes : 1) * sizeof *res->types);
    res->threads = malloc((a->nthreads ? a->nthreads : 1) * sizeof *res->threads);
    res->drops = malloc((d->n ? d->n : 1) * sizeof *res->drops);
    res->strings = malloc(len ? len : 1);
    if (!res->types || !res->threads || !res->drops || !res->strings)
        return NTIDX_E_NOMEM;
    size_t at = 0;
    for (size_t i = 0; i < a->ntypes; i++) {
        const ntidx_type_stat *ts = &a->types[i];
        region_type *rt = &res->types[i];
        size_t pl = strlen(ts->provider) + 1, nl = strlen(ts->event_name) + 1;
        memcpy(res->strings + at, ts->provider, pl);
        rt->provider = at;
        rt->provider_h = ntx_xxh3(ts->provider, pl - 1);
        at += pl;
        memcpy(res->strings + at, ts->event_name, nl);
        rt->name = at;
        rt->name_h = ntx_xxh3(ts->event_name, nl - 1);
        at += nl;
        rt->event_id = ts->event_id;
        rt->version = ts->version;
        rt->count = ts->count;
        rt->first_ts = ts->first_ts;
        rt->payload = ts->payload_bytes;
    }
    if (a->nthreads)
        memcpy(res->threads, a->threads, a->nthreads * sizeof *res->threads);
    if (d->n)
        memcpy(res->drops, d->v, d->n * sizeof *res->drops);
    res->ntypes = (uint32_t)a->ntypes;
    res->nthreads = (uint32_t)a->nthreads;
    res->ndrops = (uint32_t)d->n;
    res->event_blocks = event_blocks;
    res->events = a->events;
    res->lo = a->lo;
    res->hi = a->hi;
    res->done = 1;
    return 0;
}

/*
 * Region r's statistics, as a statistics worker computes them (events in
 * [0, UINT64_MAX)): those in `a`, the dropped events the query counted since
 * the region began, and the event blocks it read, kept in sh->res[r].
 * `q` is NULL for a region with nothing to read (no drops).
 */
static int finish_region(full_shared *sh, uint64_t r, ntidx_query *q, const ntx_stats_accum *a,
                         uint32_t event_blocks, ntx_err *err)
{
    ntidx_index *x = sh->x;
    const uint8_t *blocks = x->own[NTX_OWN_BLOCKS].bytes;
    ntx_drop_map d;
    ntx_drop_map_init(&d);
    int rc = 0;
    if (q) {
        const ntidx_dropped *dl;
        size_t dn;
        if ((rc = ntidx_query_dropped(q, &dl, &dn)) < 0)
            ntx_err_from_last(err, rc);
        for (size_t k = 0; rc == 0 && k < dn; k++)
            if ((rc = ntx_drop_map_add(&d, &dl[k])) < 0)
                ntx_err_set(err, rc, "out of memory");
    }
    region_result *res = &sh->res[r];
    if (rc == 0 && (rc = keep_result(res, a, &d, event_blocks)) < 0)
        ntx_err_set(err, rc, "out of memory");
    if (rc == 0) {
        /* This pass read every event block; a statistics query over the finished index skips those that
           hold no event, or none of [0, UINT64_MAX) (block_wanted() in query.c), which moves sequence
           baselines: such a region's statistics are computed again that way. */
        for (uint64_t b = ntx_rg_first(x, r); b < ntx_rg_end(x, r); b++) {
            const uint8_t *be = blocks + b * NTX_BLOCK_ENTRY;
            uint8_t flags = be[13];
            if (be[12] == NTIDX_BLOCK_EVENT && !(flags & NTX_BF_NO_EVENTS) &&
                (ntx_load32(be + 20) == 0 ||
                 ((flags & NTX_BF_RANGE) && !ntx_ranges_overlap(ntx_load64(be + 24), ntx_load64(be + 32), 0, UINT64_MAX))))
                res->again = 1;
        }
    }
    ntx_drop_map_free(&d);
    return rc;
}

/* Region r is done: progress from the calling thread only (the callback need not be thread-safe). */
static void region_done(full_shared *sh, uint64_t r, int is_caller)
{
    const ntidx_index_options *o = sh->o;
    uint64_t bytes = ntx_rg_bytes(sh->x, r);
    uint64_t done = atomic_fetch_add(&sh->done_bytes, bytes) + bytes;
    if (is_caller && o->progress && o->progress(o->progress_ctx, sh->x->first_block + done, sh->t->size))
        atomic_store(&sh->cancelled, 1);
}

/* Regions after one that failed are not needed (its error is the build's), nor any after a cancel. */
static int stop(full_shared *sh, uint64_t r)
{
    return r > atomic_load(&sh->first_failed) || atomic_load(&sh->cancelled);
}

static void failed_at(full_shared *sh, uint64_t r)
{
    uint64_t cur = atomic_load(&sh->first_failed);
    while (r < cur && !atomic_compare_exchange_weak(&sh->first_failed, &cur, r))
        ;
}

/*
 * Regions [r0, r1) in one read, with one query read region by region
 * (ntx_query_open_run: primed once, not once per region): every event of
 * their blocks counted into their blocks' entries (events, and the type and
 * thread Bloom filters), and each region's statistics as a one-region
 * statistics worker computes them. The regions' blocks belong to this worker
 * alone: it writes their entries without a lock. A failure is recorded
 * against the first region not yet done (sh->errs), which no region of an
 * earlier run can come after.
 */
static void run_pass(full_shared *sh, uint64_t r0, uint64_t r1, int is_caller)
{
    ntidx_index *x = sh->x;
    uint8_t *blocks = x->own[NTX_OWN_BLOCKS].bytes, *filters = x->own[NTX_OWN_FILTERS].bytes;
    uint64_t end = ntx_rg_end(x, r1 - 1), bi = ntx_rg_first(x, r0);
    uint64_t next = r0; /* regions before it are done */
    ntx_err why = {0}, *err = &why;
    uint64_t *list = malloc((size_t)(r1 - r0) * sizeof *list);
    ntidx_query *q = NULL;
    ntx_stats_accum a;
    int rc = ntx_stats_accum_init(&a);
    if (rc < 0 || !list) {
        if (rc == 0)
            ntx_stats_accum_discard(&a);
        free(list);
        ntx_err_set(&sh->errs[r0], NTIDX_E_NOMEM, "out of memory");
        failed_at(sh, r0);
        return;
    }
    for (uint64_t r = r0; r < r1; r++)
        list[r - r0] = r;
    ntidx_query_options qo;
    ntidx_query_options_defaults(&qo);
    qo.order = NTIDX_ORDER_FILE;
    qo.regions = list;
    qo.region_count = (size_t)(r1 - r0);
    if ((rc = ntx_query_open_run(&q, sh->t, x, &qo, 1)) < 0)
        ntx_err_from_last(err, rc);
    ntx_row rows[512];
    uint64_t block, blocks_at_end = 0;
    long n = 0;
    /* Filter keys: a type's, hashed once per definition (a direct-mapped cache by metadata id, checked by
       the definition's offset: events alternate between a few types) and added once per block; a
       thread's, once per run of its events. */
    struct { uint64_t def, h, block; } type_keys[256];
    for (size_t i = 0; i < 256; i++)
        type_keys[i].def = UINT64_MAX;
    /* A thread's key likewise, by a direct-mapped cache of thread ids (Fibonacci-hashed: ids are often
       multiples of a stride): a sampling trace changes thread at nearly every event, and hashing the id
       each time cost more than the rest of the loop. */
    struct { uint64_t tid, h, block; } thread_keys[256];
    for (size_t i = 0; i < 256; i++) {
        thread_keys[i].tid = 0;
        thread_keys[i].h = ntx_thread_hash(0);
        thread_keys[i].block = UINT64_MAX;
    }
    uint64_t last_tid = 0;
    while (rc == 0) {
        while (rc == 0 && (n = ntx_query_rows(q, rows, sizeof rows / sizeof rows[0], &block, 1)) > 0) {
            while (bi + 1 < end && ntx_load64(blocks + (bi + 1) * NTX_BLOCK_ENTRY) <= block)
                bi++;
            uint8_t *be = blocks + bi * NTX_BLOCK_ENTRY, *f = filters + bi * NTX_FILTER_ENTRY;
            ntx_store32(be + 20, ntx_load32(be + 20) + (uint32_t)n);
            size_t k = 0;
            /* The rows are of one block: a run of one definition's events needs nothing more after its
               first, and a key already in this block's filter is not added again (adding sets the same
               bits; not storing keeps the loop free of a dependency through the filter's memory). */
            const ntidx_metadata *last_def = NULL;
            int have_tid = 0; /* a thread's key added to this block yet */
            for (long i = 0; i < n; i++) {
                const ntx_row *e = &rows[i];
                if (e->metadata != last_def) {
                    last_def = e->metadata;
                    __typeof__(type_keys[0]) *tk = &type_keys[last_def->id & 255];
                    if (tk->def != last_def->offset) {
                        tk->def = last_def->offset;
                        tk->h = ntx_type_hash(last_def->provider, last_def->event_id);
                        tk->block = UINT64_MAX;
                    }
                    if (tk->block != bi) {
                        tk->block = bi;
                        ntx_bloom_add(f, tk->h);
                    }
                }
                if (!have_tid || e->thread_id != last_tid) {
                    have_tid = 1;
                    last_tid = e->thread_id;
                    __typeof__(thread_keys[0]) *hk = &thread_keys[(last_tid * 0x9E3779B97F4A7C15ULL) >> 56];
                    if (hk->tid != last_tid) {
                        hk->tid = last_tid;
                        hk->h = ntx_thread_hash(last_tid);
                        hk->block = UINT64_MAX;
                    }
                    if (hk->block != bi) {
                        hk->block = bi;
                        ntx_bloom_add(f + 32, hk->h);
                    }
                }
                if (e->timestamp != UINT64_MAX) { /* the statistics' window is [0, UINT64_MAX) */
                    if (k != (size_t)i) /* moved only behind a row left out */
                        rows[k] = *e;
                    k++;
                }
            }
            if ((rc = ntx_stats_accum_add_rows(&a, rows, k)) < 0)
                ntx_err_set(err, rc, "out of memory");
        }
        if (rc == 0 && n < 0)
            ntx_err_from_last(err, rc = (int)n);
        uint64_t r, primed;
        int more = rc == 0 ? ntx_query_region_end(q, &r, &primed) : 0;
        if (!more)
            r = r1; /* the run is over: the regions left had nothing to read */
        /* Regions passed over (nothing to read), then the one that ended. */
        for (; rc == 0 && next < r; next++) {
            ntx_stats_accum empty;
            if ((rc = ntx_stats_accum_init(&empty)) < 0) {
                ntx_err_set(err, rc, "out of memory");
                break;
            }
            rc = finish_region(sh, next, NULL, &empty, 0, err);
            ntx_stats_accum_discard(&empty);
            if (rc == 0)
                region_done(sh, next, is_caller);
        }
        if (rc < 0 || !more)
            break;
        uint64_t read = ntidx_query_get_stats(q)->event_blocks_read;
        rc = finish_region(sh, r, q, &a, (uint32_t)(read - blocks_at_end + primed), err);
        blocks_at_end = read;
        ntx_stats_accum_reset(&a);
        if (rc < 0)
            break;
        region_done(sh, r, is_caller);
        next = r + 1;
        if (next >= r1 || stop(sh, next))
            break;
        ntx_query_next_region(q);
    }
    if (rc < 0) {
        uint64_t at = next < r1 ? next : r1 - 1;
        sh->errs[at] = why;
        failed_at(sh, at);
    }
    ntidx_query_close(&q);
    ntx_stats_accum_discard(&a);
    free(list);
}

static void *full_work(void *arg)
{
    full_shared *sh = ((void **)arg)[0];
    int is_caller = ((void **)arg)[1] != NULL;
    for (;;) {
        uint64_t u = atomic_fetch_add(&sh->next, 1);
        if (u >= sh->nunits || stop(sh, sh->unit_first[u]))
            break;
        run_pass(sh, sh->unit_first[u], sh->unit_first[u + 1], is_caller);
    }
    return NULL;
}

/* Write the regions' statistics, in region order (REGION_STATS and the sections it points into). */
static int write_summaries(full_shared *sh, ntx_err *err)
{
    ntidx_index *x = sh->x;
    ntidx_buf *own = x->own;
    interner in = {&own[NTX_OWN_STRINGS], {0}};
    ntx_idmap_init(&in.at);
    uint64_t empty_off;
    /* A pool that is never empty (the empty string first): its last byte is always a NUL. */
    int rc = intern(&in, "", ntx_xxh3("", 0), &empty_off) < 0 ? ntx_err_set(err, NTIDX_E_NOMEM, "out of memory") : 0;
    for (uint64_t r = 0; rc == 0 && r < x->nregions; r++) {
        const region_result *res = &sh->res[r];
        uint8_t *e = ntx_buf_append(&own[NTX_OWN_RSTATS], NTX_RSTAT_ENTRY);
        if (!e) {
            rc = ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
            break;
        }
        ntx_store64(e, own[NTX_OWN_TCOUNTS].len / NTX_TCOUNT_ENTRY);
        ntx_store32(e + 8, res->ntypes);
        ntx_store32(e + 12, res->nthreads);
        ntx_store64(e + 16, own[NTX_OWN_THCOUNTS].len / NTX_THCOUNT_ENTRY);
        ntx_store64(e + 24, own[NTX_OWN_DCOUNTS].len / NTX_DCOUNT_ENTRY);
        ntx_store32(e + 32, res->ndrops);
        ntx_store32(e + 36, res->event_blocks);
        ntx_store64(e + 40, res->events);
        ntx_store64(e + 48, res->lo);
        ntx_store64(e + 56, res->hi);
        for (uint32_t i = 0; rc == 0 && i < res->ntypes; i++) {
            const region_type *ts = &res->types[i];
            uint64_t po, no;
            uint8_t *p = ntx_buf_append(&own[NTX_OWN_TCOUNTS], NTX_TCOUNT_ENTRY);
            if (!p || intern(&in, res->strings + ts->provider, ts->provider_h, &po) < 0 ||
                intern(&in, res->strings + ts->name, ts->name_h, &no) < 0) {
                rc = ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
                break;
            }
            ntx_store64(p, po);
            ntx_store64(p + 8, no);
            ntx_store32(p + 16, ts->event_id);
            ntx_store32(p + 20, ts->version);
            ntx_store64(p + 24, ts->count);
            ntx_store64(p + 32, ts->first_ts);
            ntx_store64(p + 40, ts->payload);
        }
        for (uint32_t i = 0; rc == 0 && i < res->nthreads; i++) {
            uint8_t *p = ntx_buf_append(&own[NTX_OWN_THCOUNTS], NTX_THCOUNT_ENTRY);
            if (!p) {
                rc = ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
                break;
            }
            ntx_store64(p, res->threads[i].thread);
            ntx_store64(p + 8, res->threads[i].count);
        }
        for (uint32_t i = 0; rc == 0 && i < res->ndrops; i++) {
            uint8_t *p = ntx_buf_append(&own[NTX_OWN_DCOUNTS], NTX_DCOUNT_ENTRY);
            if (!p) {
                rc = ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
                break;
            }
            ntx_store64(p, res->drops[i].capture_thread);
            ntx_store64(p + 8, res->drops[i].capture_thread_id);
            ntx_store64(p + 16, res->drops[i].dropped);
        }
    }
    ntx_idmap_free(&in.at);
    /* NULs up to a multiple of 8: no padding after the section that no checksum would cover. */
    while (rc == 0 && own[NTX_OWN_STRINGS].len % 8)
        if (!ntx_buf_append(&own[NTX_OWN_STRINGS], 1))
            rc = ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    if (rc == 0)
        bind(x);
    return rc;
}

/*
 * The --full part of an index just scanned, in one pass over its regions on
 * every core: each worker takes runs of regions from a shared counter and
 * reads each run once (run_pass) for its blocks' counts and filters and each
 * region's statistics;
 * the calling thread then writes the statistics in region order. The result is
 * the same, byte for byte, as counting every block in one file-order pass and
 * then computing each region's statistics over the finished index (what
 * earlier versions did, one thread, reading the trace twice): the same events
 * reach the same counts, and regions whose statistics a query over the
 * finished index would read differently (region_result.again) are computed
 * again that way. A failure is the lowest failing region's, as a file-order
 * pass would meet first.
 */
static int build_full(ntidx_trace *t, ntidx_index *x, const ntidx_index_options *o, ntx_err *err)
{
    uint64_t nblocks = x->own[NTX_OWN_BLOCKS].len / NTX_BLOCK_ENTRY;
    if (!ntx_buf_append(&x->own[NTX_OWN_FILTERS], nblocks * NTX_FILTER_ENTRY))
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory building the index");
    memset(x->own[NTX_OWN_FILTERS].bytes, 0, (size_t)(nblocks * NTX_FILTER_ENTRY));
    uint8_t *blocks = x->own[NTX_OWN_BLOCKS].bytes;
    for (uint64_t i = 0; i < nblocks; i++)
        ntx_store32(blocks + i * NTX_BLOCK_ENTRY + 20, 0);
    full_shared sh = {.t = t, .x = x, .o = o};
    uint64_t nr = x->nregions;
    sh.res = calloc(nr ? nr : 1, sizeof *sh.res);
    sh.errs = calloc(nr ? nr : 1, sizeof *sh.errs);
    if (!sh.res || !sh.errs) {
        free(sh.res);
        free(sh.errs);
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory building the index");
    }
    atomic_init(&sh.next, 0);
    atomic_init(&sh.first_failed, nr);
    atomic_init(&sh.done_bytes, 0);
    atomic_init(&sh.cancelled, 0);
    unsigned nthreads = o->threads;
    if (!nthreads) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        nthreads = c > 0 ? (unsigned)c : 1;
    }
    if (nthreads > MAX_THREADS)
        nthreads = MAX_THREADS;
    if (nthreads > nr)
        nthreads = nr ? (unsigned)nr : 1;
    /* Work units: runs of consecutive regions (one query each, primed once), about a quarter of a thread's
       share of the bytes, so that threads still finish together (as statistics workers take them). */
    sh.unit_first = malloc((size_t)(nr + 1) * sizeof *sh.unit_first);
    if (!sh.unit_first) {
        free(sh.res);
        free(sh.errs);
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory building the index");
    }
    uint64_t total = 0, unit = 0;
    for (uint64_t r = 0; r < nr; r++)
        total += ntx_rg_bytes(x, r);
    uint64_t target = total / ((uint64_t)nthreads * 4) + 1;
    for (uint64_t r = 0; r < nr; r++) {
        if (r == 0 || unit >= target) {
            sh.unit_first[sh.nunits++] = r;
            unit = 0;
        }
        unit += ntx_rg_bytes(x, r);
    }
    sh.unit_first[sh.nunits] = nr;
    if (nthreads > sh.nunits)
        nthreads = sh.nunits ? (unsigned)sh.nunits : 1;
    pthread_t tids[MAX_THREADS];
    void *args[MAX_THREADS][2];
    unsigned started = 0;
    for (unsigned i = 1; i < nthreads; i++) {
        args[i][0] = &sh;
        args[i][1] = NULL;
        if (pthread_create(&tids[i], NULL, full_work, args[i]) != 0)
            break;
        started = i;
    }
    args[0][0] = &sh;
    args[0][1] = &sh; /* the calling thread: it reports progress */
    full_work(args[0]);
    for (unsigned i = 1; i <= started; i++)
        pthread_join(tids[i], NULL);
    int rc = 0;
    uint64_t failed = atomic_load(&sh.first_failed);
    if (atomic_load(&sh.cancelled)) {
        rc = ntx_err_set(err, NTIDX_E_CANCELLED, "cancelled");
    } else if (failed < nr) {
        *err = sh.errs[failed];
        rc = err->code ? err->code : NTIDX_E_CORRUPT;
    }
    if (rc == 0) {
        uint64_t events = 0;
        for (uint64_t i = 0; i < nblocks; i++)
            events += ntx_load32(blocks + i * NTX_BLOCK_ENTRY + 20);
        x->events = events;
        x->flags |= NTX_IF_FULL;
        ntx_index_finish(x); /* binds FILTERS: queries over x now use the counts */
        for (uint64_t r = 0; rc == 0 && r < nr; r++) {
            if (!sh.res[r].again)
                continue;
            ntx_stats_accum a;
            ntx_drop_map d;
            ntidx_reader_stats rs;
            memset(&rs, 0, sizeof rs);
            ntx_err why = {0};
            if ((rc = ntx_stats_accum_init(&a)) < 0) {
                ntx_err_set(err, rc, "out of memory");
                break;
            }
            ntx_drop_map_init(&d);
            rc = ntx_region_stats(t, x, r, 0, UINT64_MAX, &a, &d, NULL, &rs, &why);
            if (rc < 0)
                rc = ntx_err_wrap(err, rc, &why, "statistics of region %llu: ", (unsigned long long)r);
            result_free(&sh.res[r]);
            if (rc == 0 && (rc = keep_result(&sh.res[r], &a, &d, (uint32_t)rs.blocks[NTIDX_BLOCK_EVENT])) < 0)
                ntx_err_set(err, rc, "out of memory");
            ntx_stats_accum_discard(&a);
            ntx_drop_map_free(&d);
        }
    }
    if (rc == 0)
        rc = write_summaries(&sh, err);
    for (uint64_t r = 0; r < nr; r++)
        result_free(&sh.res[r]);
    free(sh.res);
    free(sh.errs);
    free(sh.unit_first);
    return rc;
}

int ntx_index_build_full(ntidx_trace *t, const ntidx_index *from, const ntidx_index_options *o, ntidx_index **out,
                         ntx_err *err)
{
    ntidx_index_options def;
    if (!o) {
        ntidx_index_options_defaults(&def);
        o = &def;
    }
    int rc = ntx_index_scan(t, from, o, out, err);
    if (rc < 0 || !o->full)
        return rc;
    if ((rc = build_full(t, *out, o, err)) < 0)
        ntidx_index_close(out);
    return rc;
}

int ntx_index_summary_merge(const ntidx_index *x, uint64_t r, ntx_stats_accum *a, ntx_drop_map *drops,
                            ntidx_reader_stats *rs)
{
    /* A view of the stored region as an accumulator, merged like a worker's. */
    const uint8_t *e = x->rstats + r * x->srst;
    uint64_t t0 = ntx_load64(e), th0 = ntx_load64(e + 16), d0 = ntx_load64(e + 24);
    uint32_t nt = ntx_load32(e + 8), nth = ntx_load32(e + 12), nd = ntx_load32(e + 32);
    ntx_stats_accum v;
    memset(&v, 0, sizeof v);
    v.types = malloc((nt ? nt : 1) * sizeof *v.types);
    v.threads = malloc((nth ? nth : 1) * sizeof *v.threads);
    int rc = v.types && v.threads ? 0 : NTIDX_E_NOMEM;
    for (uint32_t i = 0; rc == 0 && i < nt; i++) {
        const uint8_t *p = x->tcounts + (t0 + i) * x->stc;
        ntidx_type_stat *ts = &v.types[i];
        ts->provider = (const char *)x->strings + ntx_load64(p);
        ts->event_name = (const char *)x->strings + ntx_load64(p + 8);
        ts->event_id = ntx_load32(p + 16);
        ts->version = ntx_load32(p + 20);
        ts->count = ntx_load64(p + 24);
        ts->first_ts = ntx_load64(p + 32);
        ts->payload_bytes = ntx_load64(p + 40);
        v.payload += ts->payload_bytes;
    }
    for (uint32_t i = 0; rc == 0 && i < nth; i++) {
        const uint8_t *p = x->thcounts + (th0 + i) * x->sthc;
        v.threads[i].thread = ntx_load64(p);
        v.threads[i].count = ntx_load64(p + 8);
    }
    v.ntypes = nt;
    v.nthreads = nth;
    v.events = ntx_load64(e + 40);
    v.lo = ntx_load64(e + 48);
    v.hi = ntx_load64(e + 56);
    if (rc == 0)
        rc = ntx_stats_accum_merge(a, &v);
    for (uint32_t i = 0; rc == 0 && i < nd; i++) {
        const uint8_t *p = x->dcounts + (d0 + i) * x->sdc;
        ntidx_dropped dl = {ntx_load64(p), ntx_load64(p + 8), ntx_load64(p + 16)};
        rc = ntx_drop_map_add(drops, &dl);
    }
    if (rc == 0)
        rs->blocks[NTIDX_BLOCK_EVENT] += ntx_load32(e + 36);
    free(v.types);
    free(v.threads);
    return rc;
}
