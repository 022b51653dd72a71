/*
 * Statistics through the index, in parallel over sequence-point regions.
 *
 * A region plus the context the index says it needs is an independent unit
 * of work (docs/architecture.md). Workers take regions from a shared
 * counter, read each through a one-region query and add its events to
 * their own totals; the totals are then merged. Every quantity is a sum or
 * a minimum, so the result does not depend on which worker read what: it is
 * the same, byte for byte, for any number of threads.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "index_summary.h"
#include "index_tables.h"
#include "query_internal.h"
#include "stats_internal.h"
#include "threads.h"

NTIDX_API void ntidx_stats_options_defaults(ntidx_stats_options *o)
{
    memset(o, 0, sizeof *o);
    o->t1 = UINT64_MAX;
    o->recover = 1;
}

#define MAX_BUCKETS (1u << 22)

typedef struct shared {
    ntidx_trace *t;
    const ntidx_index *x;
    const ntidx_stats_options *o;
    uint64_t *regions;      /* the regions that overlap the window */
    size_t nregions;
    size_t *unit_first;     /* work unit u: regions[unit_first[u] .. unit_first[u + 1]) */
    size_t nunits;
    atomic_size_t next;
    uint64_t hist_start, hist_width;
    size_t nbuckets;
    atomic_int failed;
    /* progress (o->progress): the bytes of each unit's regions and of all of them; under `lock`, the bytes of
       the units done and the workers still running, `done` signalled when either changes */
    uint64_t *unit_bytes;
    uint64_t total_bytes, done_bytes;
    unsigned running;
    pthread_mutex_t lock;
    pthread_cond_t done;
    atomic_int cancelled;    /* the progress callback asked to stop */
} shared;

typedef struct worker {
    shared *sh;
    struct worker *first; /* worker 0, which runs on the calling thread */
    ntx_stats_accum a;
    uint64_t *hist;
    ntx_drop_map drops;
    ntidx_reader_stats rs;
    int rc;
    ntx_err err;
    pthread_t tid;
} worker;

/*
 * One region as a unit of work: its events in [t0, t1) added to `a` (and to
 * `hist` when given), its dropped events to `drops`, the event blocks and
 * bytes it read to `rs`. What a worker does per region, and what --full
 * indexes store per region (index_summary.c) so that later statistics can
 * skip the region's blocks.
 */
static int run_stats(ntidx_trace *t, const ntidx_index *x, const uint64_t *regions, size_t count, uint64_t t0,
                     uint64_t t1, ntx_stats_accum *a, ntx_drop_map *drops, const ntx_hist *h, ntidx_reader_stats *rs,
                     ntx_err *err);

int ntx_region_stats(ntidx_trace *t, const ntidx_index *x, uint64_t region, uint64_t t0, uint64_t t1,
                     ntx_stats_accum *a, ntx_drop_map *drops, const ntx_hist *h, ntidx_reader_stats *rs, ntx_err *err)
{
    return run_stats(t, x, &region, 1, t0, t1, a, drops, h, rs, err);
}

/*
 * A run of regions as one unit of work: one query over them, which primes
 * its first region from the index and reads on into the next ones as a reader
 * from the start would (a region that follows the last needs no priming), so
 * a trace of many small regions (a real runtime's: a sequence point every
 * ~1.5 MB) does not re-read its definitions per region. The numbers are the
 * sum of the regions' own (ntx_region_stats of each): an event belongs to
 * exactly one region, and dropped events count from the sequence point that
 * opens the run, as the first region's would.
 */
static int run_stats(ntidx_trace *t, const ntidx_index *x, const uint64_t *regions, size_t count, uint64_t t0,
                     uint64_t t1, ntx_stats_accum *a, ntx_drop_map *drops, const ntx_hist *h, ntidx_reader_stats *rs,
                     ntx_err *err)
{
    ntidx_query_options qo;
    ntidx_query_options_defaults(&qo);
    qo.t0 = t0;
    qo.t1 = t1;
    qo.order = NTIDX_ORDER_FILE; /* counting needs no sorting */
    ntidx_query *q = NULL;
    int rc;
    if (count == 1) {
        rc = ntx_query_open_region(&q, t, x, &qo, regions[0], 0);
    } else {
        qo.regions = regions;
        qo.region_count = count;
        rc = ntidx_query_open(t, x, &qo, &q);
    }
    /* Rows a block at a time: the reader's loop for compressed headers, counted here in a loop of our own. */
    ntx_row rows[512];
    uint64_t block;
    long n = 0;
    while (rc == 0 && (n = ntx_query_rows(q, rows, sizeof rows / sizeof rows[0], &block, 0)) > 0) {
        rc = ntx_stats_accum_add_rows(a, rows, (size_t)n);
        for (long i = 0; rc == 0 && h && h->counts && i < n; i++) {
            uint64_t b = (rows[i].timestamp - h->start) / h->width;
            h->counts[b < h->n ? b : h->n - 1]++;
        }
        if (rc < 0)
            ntx_failf(rc, ntidx_trace_name(t), NTIDX_NO_OFFSET, "out of memory");
    }
    if (rc == 0 && n < 0)
        rc = (int)n;
    if (rc == 0) {
        const ntidx_dropped *dl;
        size_t dn;
        rc = ntidx_query_dropped(q, &dl, &dn);
        for (size_t k = 0; rc == 0 && k < dn; k++)
            rc = ntx_drop_map_add(drops, &dl[k]);
        const ntidx_query_stats *qs = ntidx_query_get_stats(q);
        rs->bytes_read += qs->bytes_read;
        rs->blocks[NTIDX_BLOCK_EVENT] += qs->event_blocks_read;
        rs->dropped_events += qs->dropped_events;
    }
    if (rc < 0) /* the query said why on this thread: keep it for the caller, maybe on another thread */
        ntx_err_from_last(err, rc);
    ntidx_query_close(&q);
    return rc < 0 ? rc : 0;
}

/* The progress callback, on the calling thread only (worker 0's): a nonzero answer stops every worker. */
static void report(shared *sh, uint64_t done)
{
    if (sh->o->progress(sh->o->progress_ctx, done, sh->total_bytes)) {
        atomic_store(&sh->cancelled, 1);
        atomic_store(&sh->failed, 1);
    }
}

/* A unit done (progress only): counted, and reported when this is the calling thread. */
static void unit_done(worker *w, size_t u)
{
    shared *sh = w->sh;
    pthread_mutex_lock(&sh->lock);
    uint64_t done = sh->done_bytes += sh->unit_bytes[u];
    pthread_cond_signal(&sh->done);
    pthread_mutex_unlock(&sh->lock);
    if (w == w->first)
        report(sh, done);
}

/* A worker stops (progress only). The calling thread, once its own units are done, reports the others' until
   they stop too, so the line keeps moving to the end. */
static void worker_done(worker *w)
{
    shared *sh = w->sh;
    pthread_mutex_lock(&sh->lock);
    sh->running--;
    pthread_cond_signal(&sh->done);
    uint64_t reported = sh->done_bytes;
    while (w == w->first && sh->running > 0) {
        pthread_cond_wait(&sh->done, &sh->lock);
        if (sh->done_bytes != reported && !atomic_load(&sh->cancelled)) {
            reported = sh->done_bytes;
            pthread_mutex_unlock(&sh->lock);
            report(sh, reported);
            pthread_mutex_lock(&sh->lock);
        }
    }
    pthread_mutex_unlock(&sh->lock);
}

static void *work(void *arg)
{
    worker *w = arg;
    shared *sh = w->sh;
    ntx_hist h = {w->hist, sh->hist_start, sh->hist_width, sh->nbuckets};
    for (;;) {
        if (atomic_load(&sh->failed))
            break;
        size_t u = atomic_fetch_add(&sh->next, 1);
        if (u >= sh->nunits)
            break;
        size_t first = sh->unit_first[u], count = sh->unit_first[u + 1] - first;
        int rc = run_stats(sh->t, sh->x, &sh->regions[first], count, sh->o->t0, sh->o->t1, &w->a, &w->drops, &h,
                           &w->rs, &w->err);
        if (rc < 0) {
            w->rc = rc;
            atomic_store(&sh->failed, 1);
        }
        if (sh->unit_bytes)
            unit_done(w, u);
    }
    if (sh->unit_bytes)
        worker_done(w);
    return NULL;
}

/* Regions a worker computes are those the options select (all, or o->regions) that overlap the window. */
static int selected(const ntidx_stats_options *o, const uint8_t *chosen, uint64_t r)
{
    return !o->regions || chosen[r];
}

/* What a run reads besides the workers' regions (sh.regions): the regions chosen, and those the index answers. */
typedef struct run_plan {
    uint64_t nr;      /* the index's regions */
    uint8_t *chosen;  /* o->regions as one byte per region (NULL: every region) */
    uint64_t *inside; /* regions wholly inside the window whose statistics the index holds */
    size_t ninside;
} run_plan;

/*
 * The regions of the run: those the options select that overlap the window,
 * decoded by the workers (sh->regions), or taken from a --full index's
 * statistics when wholly inside it (p->inside; unless a histogram wants
 * every timestamp). Either way the numbers are the ones a worker computes
 * for the region, so the result is the same byte for byte.
 */
static int plan_regions(const ntidx_index *x, const ntidx_stats_options *o, shared *sh, run_plan *p, ntx_err *err)
{
    uint64_t nr = p->nr = ntx_index_region_total(x);
    if (o->regions) {
        if (!(p->chosen = calloc((size_t)(nr ? nr : 1), 1)))
            return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
        for (size_t i = 0; i < o->region_count; i++) {
            if (o->regions[i] >= nr)
                return ntx_err_set(err, NTIDX_E_INVALID_ARG, "no region %llu (the index has %llu)",
                                   (unsigned long long)o->regions[i], (unsigned long long)nr);
            p->chosen[o->regions[i]] = 1;
        }
    }
    if (!(sh->regions = malloc((size_t)(nr ? nr : 1) * sizeof *sh->regions)))
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    int use_summaries = ntx_index_has_summaries(x) && !o->buckets && !o->bucket_ticks;
    if (use_summaries && !(p->inside = malloc((size_t)(nr ? nr : 1) * sizeof *p->inside)))
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    for (uint64_t r = 0; r < nr; r++) {
        if (!selected(o, p->chosen, r) || !ntx_index_region_overlaps(x, r, o->t0, o->t1))
            continue;
        if (use_summaries && ntx_index_region_inside(x, r, o->t0, o->t1))
            p->inside[p->ninside++] = r;
        else
            sh->regions[sh->nregions++] = r;
    }
    /* A lazily checked index: the entries of the regions this run checks, asked for at once rather than
       region by region (each section in one request). */
    if (sh->nregions > 1)
        ntx_index_prefetch_regions(x, sh->regions[0], sh->regions[sh->nregions - 1] + 1);
    if (p->ninside > 1)
        ntx_index_prefetch_regions(x, p->inside[0], p->inside[p->ninside - 1] + 1);
    return 0;
}

/* The histogram's span: the window, clipped to the trace's events, in buckets of the width asked for. */
static int plan_histogram(const ntidx_index_info *ii, const ntidx_stats_options *o, shared *sh, ntx_err *err)
{
    if (!o->buckets && !o->bucket_ticks)
        return 0;
    uint64_t lo = o->t0 > ii->first_ts ? o->t0 : ii->first_ts;
    uint64_t hi = o->t1 != UINT64_MAX ? o->t1 : (ii->last_ts == UINT64_MAX ? ii->last_ts : ii->last_ts + 1);
    if (ii->first_ts > ii->last_ts || hi <= lo)
        hi = lo + 1;
    uint64_t span = hi - lo;
    sh->hist_start = lo;
    sh->hist_width = o->bucket_ticks ? o->bucket_ticks : span / o->buckets + (span % o->buckets != 0);
    if (!sh->hist_width)
        sh->hist_width = 1;
    uint64_t nb = span / sh->hist_width + (span % sh->hist_width != 0); /* a width near 2^64 cannot wrap */
    if (nb > MAX_BUCKETS)
        return ntx_err_set(err, NTIDX_E_INVALID_ARG, "%llu histogram buckets is too many (at most %u)",
                           (unsigned long long)nb, MAX_BUCKETS);
    sh->nbuckets = (size_t)(nb ? nb : 1);
    return 0;
}

/*
 * Work units: runs of consecutive regions (one query each, primed once),
 * about a quarter of a thread's share of the bytes, so that threads still
 * finish together; with progress, each unit's bytes. 0, or out of memory.
 */
static int plan_units(const ntidx_index *x, const ntidx_stats_options *o, shared *sh, unsigned nthreads, ntx_err *err)
{
    sh->unit_first = malloc((sh->nregions + 1) * sizeof *sh->unit_first);
    if (!sh->unit_first)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    if (o->progress)
        sh->unit_bytes = malloc((sh->nregions + 1) * sizeof *sh->unit_bytes); /* none: no progress, same numbers */
    uint64_t total = 0, unit = 0;
    for (size_t i = 0; i < sh->nregions; i++)
        total += ntx_rg_bytes(x, sh->regions[i]);
    uint64_t target = total / ((uint64_t)nthreads * 4) + 1;
    for (size_t i = 0; i < sh->nregions; i++) {
        if (i == 0 || sh->regions[i] != sh->regions[i - 1] + 1 || unit >= target) {
            sh->unit_first[sh->nunits++] = i;
            unit = 0;
        }
        unit += ntx_rg_bytes(x, sh->regions[i]);
        if (sh->unit_bytes)
            sh->unit_bytes[sh->nunits - 1] = unit;
    }
    sh->unit_first[sh->nunits] = sh->nregions;
    sh->total_bytes = total;
    return 0;
}

/* The workers' state, made ready (ws: nthreads of them, zeroed). */
static int init_workers(shared *sh, worker *ws, unsigned nthreads, ntx_err *err)
{
    for (unsigned i = 0; i < nthreads; i++) {
        ws[i].sh = sh;
        ws[i].first = &ws[0];
        int rc = ntx_stats_accum_init(&ws[i].a);
        if (rc < 0)
            return ntx_err_set(err, rc, "out of memory");
        ntx_drop_map_init(&ws[i].drops);
        if (sh->nbuckets && !(ws[i].hist = calloc(sh->nbuckets, sizeof *ws[i].hist)))
            return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    }
    return 0;
}

/* The workers run, worker 0 on this thread (one thread means no thread at all); the first error is theirs. */
static int run_workers(shared *sh, worker *ws, unsigned nthreads, ntx_err *err)
{
    unsigned started = 0;
    sh->running = nthreads;
    for (unsigned i = 1; i < nthreads; i++, started++)
        if (pthread_create(&ws[i].tid, NULL, work, &ws[i]) != 0)
            break;
    pthread_mutex_lock(&sh->lock);
    sh->running -= nthreads - 1 - started; /* the workers that could not start */
    pthread_mutex_unlock(&sh->lock);
    work(&ws[0]);
    for (unsigned i = 1; i <= started; i++)
        pthread_join(ws[i].tid, NULL);
    if (atomic_load(&sh->cancelled))
        return ntx_err_set(err, NTIDX_E_CANCELLED, "cancelled");
    for (unsigned i = 0; i < nthreads; i++)
        if (ws[i].rc < 0) {
            *err = ws[i].err;
            return ws[i].rc;
        }
    return 0;
}

/* Into worker 0: the regions the index answers for, then the other workers, in worker order (sums). */
static int merge_workers(const ntidx_index *x, const shared *sh, const run_plan *p, worker *ws, unsigned nthreads,
                         ntx_err *err)
{
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < p->ninside; i++) {
        /* a lazily checked index: the region's entries are checked like a query's would be */
        if ((rc = ntx_index_need_region(x, p->inside[i], err)) < 0)
            return rc;
        if ((rc = ntx_index_summary_merge(x, p->inside[i], &ws[0].a, &ws[0].drops, &ws[0].rs)) < 0)
            return ntx_err_set(err, rc, "out of memory");
    }
    for (unsigned i = 1; rc == 0 && i < nthreads; i++) {
        rc = ntx_stats_accum_merge(&ws[0].a, &ws[i].a);
        for (size_t k = 0; rc == 0 && k < ws[i].drops.n; k++)
            rc = ntx_drop_map_add(&ws[0].drops, &ws[i].drops.v[k]);
        for (size_t b = 0; b < sh->nbuckets; b++)
            ws[0].hist[b] += ws[i].hist[b];
        ws[0].rs.bytes_read += ws[i].rs.bytes_read;
        ws[0].rs.blocks[NTIDX_BLOCK_EVENT] += ws[i].rs.blocks[NTIDX_BLOCK_EVENT];
    }
    return rc;
}

/* The statistics from worker 0's merged totals. */
static int finish_stats(ntidx_trace *t, const ntidx_index *x, const ntidx_stats_options *o, const shared *sh,
                        const run_plan *p, worker *w, ntidx_stats **out, ntx_err *err)
{
    const ntidx_index_info *ii = ntidx_index_get_info(x);
    ntx_drop_map_sort(&w->drops);
    uint64_t dropped = 0;
    for (size_t k = 0; k < w->drops.n; k++)
        dropped += w->drops.v[k].dropped;
    w->rs.dropped_events = dropped;
    w->rs.events = w->a.events;
    /* Blocks per kind: those of the regions the statistics cover, and the trace block, from the index
       (the same numbers a read of the whole trace counts, whether or not a region was decoded). Without
       a window that is every selected region, also those without events (blocks after the last
       sequence point), which a window cannot overlap. */
    memset(w->rs.blocks, 0, sizeof w->rs.blocks);
    w->rs.unknown_blocks = 0;
    w->rs.blocks[NTIDX_BLOCK_TRACE] = 1;
    int whole = o->t0 == 0 && o->t1 == UINT64_MAX;
    for (uint64_t r = 0; r < p->nr; r++) {
        if (!selected(o, p->chosen, r) || !(whole || ntx_index_region_overlaps(x, r, o->t0, o->t1)))
            continue;
        for (uint64_t b = ntx_rg_first(x, r); b < ntx_rg_end(x, r); b++) {
            if (ntx_blk_kind(x, b) < NTIDX_BLOCK_KIND_COUNT)
                w->rs.blocks[ntx_blk_kind(x, b)]++;
            else
                w->rs.unknown_blocks++; /* kinds of later versions, which readers skip */
        }
    }
    int complete = ii->complete || (ii->last_ts >= o->t1 && ii->first_ts <= ii->last_ts);
    char reason[200];
    snprintf(reason, sizeof reason,
             "offset %llu (0x%llx): the trace's complete blocks end here, without an end-of-stream marker",
             (unsigned long long)ii->indexed_end, (unsigned long long)ii->indexed_end);
    int rc = ntx_stats_accum_finish(&w->a, t, complete, reason, &w->rs, w->drops.v, w->drops.n, out);
    if (rc == 0 && sh->nbuckets)
        rc = ntx_stats_set_histogram(*out, sh->hist_start, sh->hist_width, w->hist, sh->nbuckets);
    if (rc < 0) {
        if (*out)
            ntidx_stats_free(out);
        return ntx_err_set(err, rc, "out of memory");
    }
    (*out)->regions_from_index = p->ninside;
    return 0;
}

static int stats_run(ntidx_trace *t, const ntidx_index *x, const ntidx_stats_options *o, ntidx_stats **out,
                     ntx_err *err)
{
    shared sh = {.t = t, .x = x, .o = o, .lock = PTHREAD_MUTEX_INITIALIZER, .done = PTHREAD_COND_INITIALIZER};
    run_plan p = {0};
    worker *ws = NULL;
    unsigned nthreads = 0;
    int rc = plan_regions(x, o, &sh, &p, err);
    if (rc == 0)
        rc = plan_histogram(ntidx_index_get_info(x), o, &sh, err);
    if (rc == 0) {
        nthreads = ntx_thread_count(o->threads);
        if (nthreads > sh.nregions)
            nthreads = sh.nregions ? (unsigned)sh.nregions : 1;
        rc = plan_units(x, o, &sh, nthreads, err);
    }
    if (rc == 0 && sh.unit_bytes && o->progress(o->progress_ctx, 0, sh.total_bytes))
        atomic_store(&sh.cancelled, 1); /* before any work */
    if (rc == 0 && !(ws = calloc(nthreads, sizeof *ws)))
        rc = ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    if (rc == 0 && atomic_load(&sh.cancelled))
        rc = ntx_err_set(err, NTIDX_E_CANCELLED, "cancelled");
    if (rc == 0)
        rc = init_workers(&sh, ws, nthreads, err);
    if (rc == 0)
        rc = run_workers(&sh, ws, nthreads, err);
    if (rc == 0)
        rc = merge_workers(x, &sh, &p, ws, nthreads, err);
    if (rc == 0)
        rc = finish_stats(t, x, o, &sh, &p, &ws[0], out, err);
    for (unsigned i = 0; ws && i < nthreads; i++) {
        if (rc < 0 || i > 0)
            ntx_stats_accum_discard(&ws[i].a);
        free(ws[i].hist);
        ntx_drop_map_free(&ws[i].drops);
    }
    free(ws);
    free(sh.unit_first);
    free(sh.unit_bytes);
    free(sh.regions);
    free(p.inside);
    free(p.chosen);
    if (rc < 0 && !err->code)
        ntx_err_set(err, rc, "%s", ntidx_strerror(rc));
    return rc;
}

NTIDX_API int ntidx_stats_indexed(ntidx_trace *t, const ntidx_index *x, const ntidx_stats_options *o,
                                  ntidx_stats **out)
{
    if (out)
        *out = NULL;
    if (!t || !x || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET, "ntidx_stats_indexed: NULL argument");
    ntidx_stats_options def;
    if (!o) {
        ntidx_stats_options_defaults(&def);
        o = &def;
    }
    if (!ntx_reserved_zero(o->reserved, sizeof o->reserved))
        return ntx_failf(NTIDX_E_INVALID_ARG, ntidx_trace_name(t), NTIDX_NO_OFFSET,
                         "statistics options: reserved fields are not zero (fill them with ntidx_stats_options_defaults())");
    if (o->region_count && !o->regions)
        return ntx_failf(NTIDX_E_INVALID_ARG, ntidx_trace_name(t), NTIDX_NO_OFFSET, "statistics options: region_count without regions");
    ntx_err err = {0};
    int rc = stats_run(t, x, o, out, &err);
    if (rc < 0)
        return ntx_fail(rc, rc == NTIDX_E_INDEX_CORRUPT ? ntx_index_name(x) : ntidx_trace_name(t), &err);
    return NTIDX_OK;
}
