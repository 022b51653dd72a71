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

#include "index_build.h"
#include "index_summary.h"
#include "index_tables.h"
#include "phases.h"
#include "query_internal.h"
#include "stats_internal.h"
#include "strpool.h"
#include "threads.h"
#include "trace_blocks.h"


/* ------------------------------------------------------------------ */
/* One pass over the regions, in parallel                              */
/* ------------------------------------------------------------------ */

/*
 * What a worker found in one region: its statistics (as a statistics worker
 * computes them, in the order they were first met) until they are written, in
 * region order, by the calling thread. Provider and event names are interned
 * in the unit's pool (the region's reader and its arenas are gone by then):
 * its regions share most of their names, so the writer, which runs alone at
 * the end, looks each name of a unit up in STRINGS once, not once per region.
 */
typedef struct region_type {
    uint64_t provider, name; /* offsets into the unit's name pool (full_unit.names) */
    uint32_t event_id, version;
    uint64_t count, first_ts, payload;
} region_type;

typedef struct region_result {
    region_type *types;
    ntidx_thread_stat *threads;
    ntidx_dropped *drops;
    uint32_t ntypes, nthreads, ndrops, event_blocks;
    uint64_t events, lo, hi;
    /* An event block of the region whose events are all outside it, or none at all: a statistics query
       over a --full index skips such blocks (their count is 0), which moves sequence baselines. The
       region is computed again that way once the counts are known (rare: hostile or odd traces). */
    int again;
    int done;
} region_result;

/*
 * A work unit: a run of consecutive regions, read by one query (primed once).
 * Units are made while the scan goes on (unit_from_scan): a worker starts on
 * one as soon as the scan has closed its last region, with a copy of the index
 * as it was then (the entries of the unit's blocks and of every definition
 * before them are final by then). What a worker counts per block goes to the
 * unit's own arrays, copied into BLOCKS and FILTERS once every unit is done
 * (the scan may still be appending to the index's buffers while workers run).
 */
typedef struct full_unit {
    uint64_t r0, r1;            /* regions [r0, r1) */
    uint64_t b0, b1;            /* their blocks [b0, b1) */
    ntidx_index *snap;          /* the index when the scan published the unit (NULL: the finished index) */
    region_result *res;         /* region r: res[r - r0] */
    ntx_err *errs;              /* region r: why it failed, errs[r - r0] */
    uint32_t *counts;           /* block b: its events, counts[b - b0] */
    uint8_t *filters;           /* block b: its FILTERS entry at (b - b0) * NTX_FILTER_ENTRY */
    ntidx_buf name_pool;        /* the names its regions' types use, each once (NUL-terminated) */
    ntx_strpool names;          /* over name_pool */
    atomic_int counted;         /* counts and filters are complete */
    atomic_int placed;          /* its filters are in the index's FILTERS (whoever swaps it to 1 copies them) */
} full_unit;

typedef struct full_shared {
    ntidx_trace *t;
    ntidx_index *x;                   /* the finished index (set once the scan is over) */
    const ntidx_index_options *o;
    pthread_mutex_t lock;             /* guards units, nunits, taken, scan_over */
    pthread_cond_t more;              /* a unit was published, or the scan is over */
    full_unit **units;
    size_t nunits, capunits, taken;
    int scan_over;
    /* the scanning thread's: regions [pending, pending_end) are not in a unit yet, pending_bytes of them */
    uint64_t pending, pending_end, pending_bytes;
    uint64_t left, min_unit, nthreads; /* trace bytes not yet in a unit (estimated: the scan has not ended) */
    uint64_t prev_max;                /* regions so far never go back in time: `sorted` */
    int sorted, defer;                /* defer: units only once the scan is over (a region at the end of time) */
    atomic_uint_fast64_t first_failed;/* the lowest region that failed (UINT64_MAX: none) */
    atomic_uint_fast64_t done_bytes;  /* trace bytes of the regions done (progress) */
    atomic_int cancelled;             /* the progress callback (on the calling thread) cancelled, or the scan failed */
    uint64_t reported;                /* the calling thread's: the most done it has reported (report()) */
    /* The index's FILTERS, made by the calling thread once the scan is over, while the workers count; a unit
       counted after that puts its own entries there, on its worker, and the calling thread those of the units
       counted before (place_filters()): no serial copy of them all at the end. */
    _Atomic(uint8_t *) filters;
    uint64_t nblocks;                 /* the finished index's blocks (set before `filters`) */
} full_shared;

/*
 * Progress to the caller's callback, from the calling thread only. The scan
 * reports how far it has read and the regions done how far the counting has
 * come, which lags behind: only a value past what was reported goes out (the
 * pass's end always), so that the caller sees done grow. Nonzero: cancel.
 */
static int report(full_shared *sh, uint64_t done, uint64_t total, int last)
{
    if (!sh->o->progress || (done <= sh->reported && !last))
        return 0;
    if (done > sh->reported)
        sh->reported = done;
    return sh->o->progress(sh->o->progress_ctx, sh->reported, total);
}

static int scan_progress(void *ctx, uint64_t done, uint64_t total) { return report(ctx, done, total, 0); }

static void result_free(region_result *r)
{
    free(r->types);
    free(r->threads);
    free(r->drops);
    memset(r, 0, sizeof *r);
}

/* Keep a region's statistics (the accumulator, its drops) in `res`, its names in `names`. 0, or NTIDX_E_NOMEM. */
static int keep_result(region_result *res, ntx_strpool *names, const ntx_stats_accum *a, const ntx_drop_map *d,
                       uint32_t event_blocks)
{
    res->types = malloc((a->ntypes ? a->ntypes : 1) * sizeof *res->types);
    res->threads = malloc((a->nthreads ? a->nthreads : 1) * sizeof *res->threads);
    res->drops = malloc((d->n ? d->n : 1) * sizeof *res->drops);
    if (!res->types || !res->threads || !res->drops)
        return NTIDX_E_NOMEM;
    for (size_t i = 0; i < a->ntypes; i++) {
        const ntidx_type_stat *ts = &a->types[i];
        region_type *rt = &res->types[i];
        if (ntx_strpool_add(names, ts->provider, &rt->provider) < 0 ||
            ntx_strpool_add(names, ts->event_name, &rt->name) < 0)
            return NTIDX_E_NOMEM;
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
static int finish_region(full_unit *u, const ntidx_index *x, uint64_t r, ntidx_query *q, const ntx_stats_accum *a,
                         uint32_t event_blocks, ntx_err *err)
{
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
    region_result *res = &u->res[r - u->r0];
    if (rc == 0 && (rc = keep_result(res, &u->names, a, &d, event_blocks)) < 0)
        ntx_err_set(err, rc, "out of memory");
    if (rc == 0) {
        /* This pass read every event block; a statistics query over the finished index skips those that
           hold no event, or none of [0, UINT64_MAX) (block_wanted() in query.c), which moves sequence
           baselines: such a region's statistics are computed again that way. */
        for (uint64_t b = ntx_rg_first(x, r); b < ntx_rg_end(x, r); b++) {
            uint8_t flags = ntx_blk_flags(x, b);
            if (ntx_blk_kind(x, b) == NTIDX_BLOCK_EVENT && !(flags & NTX_BF_NO_EVENTS) &&
                (u->counts[b - u->b0] == 0 ||
                 ((flags & NTX_BF_RANGE) && !ntx_ranges_overlap(ntx_blk_ts_min(x, b), ntx_blk_ts_max(x, b), 0, UINT64_MAX))))
                res->again = 1;
        }
    }
    ntx_drop_map_free(&d);
    return rc;
}

/* Region r is done: progress from the calling thread only (the callback need not be thread-safe). */
static void region_done(full_shared *sh, const ntidx_index *x, uint64_t r, int is_caller)
{
    uint64_t bytes = ntx_rg_bytes(x, r);
    uint64_t done = atomic_fetch_add(&sh->done_bytes, bytes) + bytes;
    if (is_caller && report(sh, ntidx_trace_get_info(sh->t)->first_block_offset + done,
                            ntidx_trace_get_info(sh->t)->file_size, 0))
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
static void run_pass(full_shared *sh, full_unit *u, int is_caller)
{
    const ntidx_index *x = u->snap ? u->snap : sh->x;
    uint64_t r0 = u->r0, r1 = u->r1;
    uint64_t end = u->b1, bi = u->b0;
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
        ntx_err_set(&u->errs[0], NTIDX_E_NOMEM, "out of memory");
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
    while (rc == 0) {
        while (rc == 0 && (n = ntx_query_rows(q, rows, sizeof rows / sizeof rows[0], &block, 1)) > 0) {
            while (bi + 1 < end && ntx_blk_offset(x, bi + 1) <= block)
                bi++;
            uint8_t *f = u->filters + (bi - u->b0) * NTX_FILTER_ENTRY;
            u->counts[bi - u->b0] += (uint32_t)n;
            /* The block's type and thread keys are added by the statistics' own lookups: one compare per
               event beside them. */
            if ((rc = ntx_stats_accum_add_rows_keyed(&a, rows, (size_t)n, f, bi)) < 0)
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
            rc = finish_region(u, x, next, NULL, &empty, 0, err);
            ntx_stats_accum_discard(&empty);
            if (rc == 0)
                region_done(sh, x, next, is_caller);
        }
        if (rc < 0 || !more)
            break;
        uint64_t read = ntidx_query_get_stats(q)->event_blocks_read;
        rc = finish_region(u, x, r, q, &a, (uint32_t)(read - blocks_at_end + primed), err);
        blocks_at_end = read;
        ntx_stats_accum_reset(&a);
        if (rc < 0)
            break;
        region_done(sh, x, r, is_caller);
        next = r + 1;
        if (next >= r1 || stop(sh, next))
            break;
        ntx_query_next_region(q);
    }
    if (rc < 0) {
        uint64_t at = next < r1 ? next : r1 - 1;
        u->errs[at - r0] = why;
        failed_at(sh, at);
    }
    ntidx_query_close(&q);
    ntx_stats_accum_discard(&a);
    free(list);
}

/* u's filters into the index's FILTERS, if they are made and nobody has put them there yet. Called by u's
   worker once u is counted, and by the calling thread for each unit once FILTERS is made: each side stores its
   flag before it looks at the other's (sequentially consistent), so at least one of them copies, and the
   exchange on `placed` makes it one. */
static void place_filters(full_shared *sh, full_unit *u)
{
    uint8_t *f = atomic_load(&sh->filters);
    if (!f || !atomic_load(&u->counted) || u->b1 <= u->b0 || u->b1 > sh->nblocks || atomic_exchange(&u->placed, 1))
        return;
    memcpy(f + u->b0 * NTX_FILTER_ENTRY, u->filters, (size_t)((u->b1 - u->b0) * NTX_FILTER_ENTRY));
}

static void *full_work(void *arg)
{
    full_shared *sh = ((void **)arg)[0];
    int is_caller = ((void **)arg)[1] != NULL;
    pthread_mutex_lock(&sh->lock);
    for (;;) {
        if (sh->taken < sh->nunits) {
            full_unit *u = sh->units[sh->taken++];
            if (stop(sh, u->r0))
                break;
            pthread_mutex_unlock(&sh->lock);
            run_pass(sh, u, is_caller);
            atomic_store(&u->counted, 1);
            place_filters(sh, u);
            pthread_mutex_lock(&sh->lock);
        } else if (sh->scan_over || atomic_load(&sh->cancelled)) {
            break;
        } else {
            pthread_cond_wait(&sh->more, &sh->lock);
        }
    }
    pthread_mutex_unlock(&sh->lock);
    return NULL;
}

/* The name at `local` in u's pool, in STRINGS (stored there the first time the unit uses it). */
static int global_name(ntx_summary_writer *w, const full_unit *u, uint64_t *global, uint64_t local)
{
    if (global[local])
        return 0;
    uint64_t off;
    if (ntx_summary_string(w, (const char *)u->name_pool.bytes + local, &off) < 0)
        return NTIDX_E_NOMEM;
    global[local] = off + 1;
    return 0;
}

/* One region's statistics into the index (its entry, then its types, threads and dropped events). */
static int write_region(ntx_summary_writer *w, const full_unit *u, const region_result *res, uint64_t *global)
{
    ntx_region_summary rs = {.ntypes = res->ntypes, .nthreads = res->nthreads, .ndrops = res->ndrops,
                             .event_blocks = res->event_blocks, .events = res->events, .lo = res->lo, .hi = res->hi};
    int rc = ntx_summary_region(w, &rs);
    for (uint32_t i = 0; rc == 0 && i < res->ntypes; i++) {
        const region_type *ts = &res->types[i];
        /* In region and type order, as before the unit pools: STRINGS holds the names in the order they are
           first met, the same bytes. */
        if (global_name(w, u, global, ts->provider) < 0 || global_name(w, u, global, ts->name) < 0)
            return NTIDX_E_NOMEM;
        rc = ntx_summary_type(w, global[ts->provider] - 1, global[ts->name] - 1, ts->event_id, ts->version, ts->count,
                              ts->first_ts, ts->payload);
    }
    for (uint32_t i = 0; rc == 0 && i < res->nthreads; i++)
        rc = ntx_summary_thread(w, res->threads[i].thread, res->threads[i].count);
    for (uint32_t i = 0; rc == 0 && i < res->ndrops; i++)
        rc = ntx_summary_drop(w, &res->drops[i]);
    return rc;
}

/* Write the regions' statistics, in region order (REGION_STATS and the sections it points into). */
static int write_summaries(full_shared *sh, ntx_err *err)
{
    ntidx_index *x = sh->x;
    ntx_summary_writer *w;
    int rc = ntx_summary_begin(x, &w);
    size_t ui = 0;
    full_unit *u = NULL;
    uint64_t *global = NULL; /* u's name pool offset -> its STRINGS offset + 1 (0: not looked up yet) */
    for (uint64_t r = 0; rc == 0 && r < ntx_index_region_total(x); r++) {
        while (r >= sh->units[ui]->r1) /* the units cover the regions, in order */
            ui++;
        if (u != sh->units[ui]) {
            u = sh->units[ui];
            free(global);
            if (!(global = calloc(u->name_pool.len + 1, sizeof *global))) {
                rc = NTIDX_E_NOMEM;
                break;
            }
        }
        rc = write_region(w, u, &u->res[r - u->r0], global);
    }
    free(global);
    int erc = ntx_summary_end(&w, rc == 0);
    if (rc == 0)
        rc = erc;
    return rc < 0 ? ntx_err_set(err, rc, "out of memory") : 0;
}

/* A unit and everything it holds (published or not: its arrays may be missing). */
static void unit_free(full_unit *u)
{
    for (uint64_t r = u->r0; u->res && r < u->r1; r++)
        result_free(&u->res[r - u->r0]);
    free(u->res);
    free(u->errs);
    free(u->counts);
    free(u->filters);
    ntx_index_snapshot_free(u->snap);
    ntidx_buf_free(&u->name_pool);
    ntx_strpool_free(&u->names);
    free(u);
}

/* A unit of regions [r0, r1) of x (snap: a copy of x to keep, or NULL for the finished index), published
   to the workers. 0, or NTIDX_E_NOMEM (nothing published). */
static int publish(full_shared *sh, const ntidx_index *x, ntidx_index *snap, uint64_t r0, uint64_t r1)
{
    full_unit *u = calloc(1, sizeof *u);
    if (u) {
        atomic_init(&u->counted, 0);
        atomic_init(&u->placed, 0);
    }
    uint64_t b0 = ntx_rg_first(x, r0), b1 = ntx_rg_end(x, r1 - 1);
    if (b1 < b0) /* regions are checked to be in order when loaded; built ones are */
        b1 = b0;
    if (u) {
        u->r0 = r0;
        u->r1 = r1;
        u->b0 = b0;
        u->b1 = b1;
        u->snap = snap;
        u->res = calloc((size_t)(r1 - r0), sizeof *u->res);
        u->errs = calloc((size_t)(r1 - r0), sizeof *u->errs);
        u->counts = calloc((size_t)(b1 - b0 + 1), sizeof *u->counts);
        u->filters = calloc((size_t)(b1 - b0 + 1), NTX_FILTER_ENTRY);
        ntx_strpool_init(&u->names, &u->name_pool);
    }
    pthread_mutex_lock(&sh->lock);
    int ok = u && u->res && u->errs && u->counts && u->filters;
    if (ok && sh->nunits == sh->capunits) {
        size_t cap = sh->capunits ? sh->capunits * 2 : 64;
        full_unit **nu = realloc(sh->units, cap * sizeof *nu);
        if (nu) {
            sh->units = nu;
            sh->capunits = cap;
        } else {
            ok = 0;
        }
    }
    if (ok) {
        sh->units[sh->nunits++] = u;
        pthread_cond_signal(&sh->more);
    }
    pthread_mutex_unlock(&sh->lock);
    if (!ok && u) {
        u->snap = NULL; /* the caller's */
        unit_free(u);
    }
    return ok ? 0 : NTIDX_E_NOMEM;
}

/*
 * How many bytes of regions the next unit takes: a quarter of a thread's share
 * of what is left, so that units shrink towards the end of the trace and
 * threads finish together (the last unit taken is small), and not less than
 * a 128th of a thread's share of the trace: every unit is primed once (a few
 * hundred microseconds), and the last unit one thread takes is the time the
 * other may wait at the end (a 32nd left 0-11 ms of 350 idle on 1 GB).
 */
static uint64_t unit_target(const full_shared *sh)
{
    uint64_t target = sh->left / (sh->nthreads * 4) + 1;
    return target > sh->min_unit ? target : sh->min_unit;
}

/* The pending regions [pending, r1) became a unit. */
static void unit_taken(full_shared *sh, uint64_t r1)
{
    sh->left = sh->left > sh->pending_bytes ? sh->left - sh->pending_bytes : 0;
    sh->pending = r1;
    sh->pending_bytes = 0;
}

/*
 * The regions x has closed so far put into units of unit_target() bytes,
 * those complete published with a copy of x. Called by the scan on the
 * calling thread.
 */
static void unit_from_scan(void *ctx, const ntidx_index *x)
{
    full_shared *sh = ctx;
    uint64_t start = sh->pending;
    for (uint64_t r = sh->pending_end; r < ntx_index_region_total(x) && !sh->defer; r++) {
        uint64_t lo = ntx_rg_ts_min(x, r), hi = ntx_rg_ts_max(x, r);
        if (lo <= hi) {
            /* A region whose events are all at the end of time: a query over an unsorted index reads on
               past it, over a sorted one it stops; sortedness is known only at the end of the scan. */
            if (lo == UINT64_MAX) {
                sh->defer = 1;
                break;
            }
            if (lo < sh->prev_max)
                sh->sorted = 0;
            sh->prev_max = hi;
        }
        sh->pending_end = r + 1;
        sh->pending_bytes += ntx_rg_bytes(x, r);
        if (sh->pending_bytes >= unit_target(sh)) {
            ntidx_index *snap = ntx_index_snapshot(x, sh->sorted);
            if (!snap)
                return; /* these regions wait for the end of the scan */
            if (publish(sh, x, snap, start, r + 1) < 0) {
                ntx_index_snapshot_free(snap);
                return;
            }
            unit_taken(sh, r + 1);
            start = r + 1;
        }
    }
}

/*
 * The --full part of an index, in one pass over its regions on every core,
 * while the scan (on the calling thread) is still finding them: the scan
 * publishes runs of regions as it closes them (unit_from_scan) and the
 * worker threads read each run once (run_pass) for its blocks' counts and
 * filters and each region's statistics; the calling thread joins them when
 * its scan is over, then writes the statistics in region order. The result
 * is the same, byte for byte, as counting every block in one file-order pass
 * and then computing each region's statistics over the finished index (what
 * earlier versions did, one thread, reading the trace twice): the same
 * events reach the same counts, and regions whose statistics a query over
 * the finished index would read differently (region_result.again) are
 * computed again that way. A failure is the scan's, else the lowest failing
 * region's, as a file-order pass would meet first.
 */
static int build_full(ntidx_trace *t, const ntidx_index *from, const ntidx_index_options *o, ntidx_index **out,
                      ntx_err *err)
{
    full_shared sh = {.t = t, .o = o, .sorted = 1};
    pthread_mutex_init(&sh.lock, NULL);
    pthread_cond_init(&sh.more, NULL);
    atomic_init(&sh.first_failed, UINT64_MAX);
    atomic_init(&sh.done_bytes, 0);
    atomic_init(&sh.cancelled, 0);
    atomic_init(&sh.filters, NULL);
    unsigned nthreads = ntx_thread_count(o->threads);
    /* Work units: runs of consecutive regions (one query each, primed once), unit_target() bytes each. The
       regions' bytes are not known before the scan: the trace's size stands for them. */
    sh.nthreads = nthreads;
    uint64_t size = ntidx_trace_get_info(t)->file_size;
    sh.left = size;
    sh.min_unit = size / ((uint64_t)nthreads * 128) + 1;
    pthread_t tids[NTX_MAX_THREADS];
    void *args[NTX_MAX_THREADS][2];
    unsigned started = 0;
    for (unsigned i = 1; i < nthreads; i++) {
        args[i][0] = &sh;
        args[i][1] = NULL;
        if (pthread_create(&tids[i], NULL, full_work, args[i]) != 0)
            break;
        started = i;
    }
    /* With no other thread, nobody would take a unit before the scan is over: no sink. */
    ntx_scan_sink sink = {unit_from_scan, &sh};
    *out = NULL;
    /* With a sink, a failed scan still hands over its index: the workers may be reading it. */
    ntidx_index_options so = *o; /* the scan's progress through report(), as the regions' */
    if (o->progress) {
        so.progress = scan_progress;
        so.progress_ctx = &sh;
    }
    int rc = ntx_index_scan_stream(t, from, &so, started ? &sink : NULL, out, err);
    ntidx_index *x = *out;
    sh.x = rc == 0 ? x : NULL;
    /* The regions left, in units by the same rule, on the finished index. */
    uint64_t nr = rc == 0 ? ntx_index_region_total(x) : 0;
    for (uint64_t r = sh.pending_end; rc == 0 && r < nr; r++) {
        sh.pending_bytes += ntx_rg_bytes(x, r);
        if (sh.pending_bytes < unit_target(&sh) && r + 1 < nr)
            continue;
        if (publish(&sh, x, NULL, sh.pending, r + 1) < 0)
            rc = ntx_err_set(err, NTIDX_E_NOMEM, "out of memory building the index");
        else
            unit_taken(&sh, r + 1);
    }
    if (rc == 0 && sh.pending < nr && publish(&sh, x, NULL, sh.pending, nr) < 0)
        rc = ntx_err_set(err, NTIDX_E_NOMEM, "out of memory building the index");
    if (rc < 0)
        atomic_store(&sh.cancelled, 1);
    pthread_mutex_lock(&sh.lock);
    sh.scan_over = 1;
    pthread_cond_broadcast(&sh.more);
    pthread_mutex_unlock(&sh.lock);
    args[0][0] = &sh;
    args[0][1] = &sh; /* the calling thread: it reports progress */
    double ph = ntx_phase_begin(); /* the workers' part after the scan, timed for the benchmarks */
    if (rc == 0) {
        /* FILTERS made while the workers count (7 MB on a 10 GB trace, fresh pages: on one thread after them
           it was most of the build's serial part), and the entries of the units already counted put in */
        sh.nblocks = ntx_index_block_count(x);
        uint8_t *f = ntx_index_make_filters(x, err);
        if (!f) {
            rc = err->code;
            atomic_store(&sh.cancelled, 1);
        } else {
            atomic_store(&sh.filters, f);
            for (size_t i = 0; i < sh.nunits; i++) /* (the scan is over: no unit is added) */
                place_filters(&sh, sh.units[i]);
        }
    }
    if (rc == 0)
        full_work(args[0]);
    for (unsigned i = 1; i <= started; i++)
        pthread_join(tids[i], NULL);
    ntx_phase_end(ph);
    /* Only the calling thread reports, and the other threads may have run every unit while it scanned: the
       caller hears once more that the pass is over, so that a progress bar ends and a callback that cancels
       (or acts) after a point is called past it. */
    if (rc == 0 && !atomic_load(&sh.cancelled) && atomic_load(&sh.first_failed) == UINT64_MAX &&
        report(&sh, ntidx_trace_get_info(t)->first_block_offset + atomic_load(&sh.done_bytes),
               ntidx_trace_get_info(t)->file_size, 1))
        atomic_store(&sh.cancelled, 1);
    uint64_t failed = atomic_load(&sh.first_failed);
    if (rc < 0) {
        /* the scan's error */
    } else if (atomic_load(&sh.cancelled)) {
        rc = ntx_err_set(err, NTIDX_E_CANCELLED, "cancelled");
    } else if (failed != UINT64_MAX) {
        for (size_t i = 0; i < sh.nunits; i++)
            if (failed >= sh.units[i]->r0 && failed < sh.units[i]->r1) {
                *err = sh.units[i]->errs[failed - sh.units[i]->r0];
                break;
            }
        rc = err->code ? err->code : NTIDX_E_CORRUPT;
    }
    uint64_t nblocks = rc == 0 ? ntx_index_block_count(x) : 0;
    uint8_t *filters = rc == 0 ? ntx_index_begin_counts(x, err) : NULL;
    if (rc == 0 && !filters)
        rc = err->code;
    if (rc == 0) {
        /* The units' counts and filters into BLOCKS and FILTERS (blocks of no region: none, 0). */
        uint64_t events = 0;
        for (size_t i = 0; i < sh.nunits; i++) {
            const full_unit *u = sh.units[i];
            for (uint64_t b = u->b0; b < u->b1 && b < nblocks; b++) {
                ntx_index_set_block_events(x, b, u->counts[b - u->b0]);
                events += u->counts[b - u->b0];
            }
            if (u->b1 > u->b0 && u->b1 <= nblocks && !atomic_load(&u->placed)) /* (every one, unless cancelled) */
                memcpy(filters + u->b0 * NTX_FILTER_ENTRY, u->filters, (size_t)((u->b1 - u->b0) * NTX_FILTER_ENTRY));
        }
        ntx_index_end_counts(x, events); /* queries over x now use the counts */
        for (size_t i = 0; rc == 0 && i < sh.nunits; i++) {
            full_unit *u = sh.units[i];
            for (uint64_t r = u->r0; rc == 0 && r < u->r1; r++) {
                if (!u->res[r - u->r0].again)
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
                result_free(&u->res[r - u->r0]);
                if (rc == 0 && (rc = keep_result(&u->res[r - u->r0], &u->names, &a, &d,
                                                 (uint32_t)rs.blocks[NTIDX_BLOCK_EVENT])) < 0)
                    ntx_err_set(err, rc, "out of memory");
                ntx_stats_accum_discard(&a);
                ntx_drop_map_free(&d);
            }
        }
    }
    if (rc == 0)
        rc = write_summaries(&sh, err);
    for (size_t i = 0; i < sh.nunits; i++)
        unit_free(sh.units[i]);
    free(sh.units);
    if (x)
        ntx_index_free_retired(x);
    pthread_mutex_destroy(&sh.lock);
    pthread_cond_destroy(&sh.more);
    if (rc < 0 && x)
        ntidx_index_close(out);
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
    int rc = !o->full ? ntx_index_scan(t, from, o, out, err) : build_full(t, from, o, out, err);
    /* Never an index of a file that shrank while it was read (whatever part of it came from zeros): every
       read checked as it went, and the end once more, for what the checks of a read that ended early
       cannot see. */
    if (rc == NTIDX_OK && (rc = ntx_trace_check_end(t, err)) < 0)
        ntidx_index_close(out);
    return rc;
}

int ntx_index_summary_merge(const ntidx_index *x, uint64_t r, ntx_stats_accum *a, ntx_drop_map *drops,
                            ntidx_reader_stats *rs)
{
    /* A view of the stored region as an accumulator, merged like a worker's. */
    ntx_region_summary sum;
    ntx_index_region_summary(x, r, &sum);
    ntx_stats_accum v;
    memset(&v, 0, sizeof v);
    v.types = malloc((sum.ntypes ? sum.ntypes : 1) * sizeof *v.types);
    v.threads = malloc((sum.nthreads ? sum.nthreads : 1) * sizeof *v.threads);
    int rc = v.types && v.threads ? 0 : NTIDX_E_NOMEM;
    for (uint32_t i = 0; rc == 0 && i < sum.ntypes; i++) {
        ntx_region_summary_type(x, &sum, i, &v.types[i]);
        v.payload += v.types[i].payload_bytes;
    }
    for (uint32_t i = 0; rc == 0 && i < sum.nthreads; i++)
        ntx_region_summary_thread(x, &sum, i, &v.threads[i]);
    v.ntypes = sum.ntypes;
    v.nthreads = sum.nthreads;
    v.events = sum.events;
    v.lo = sum.lo;
    v.hi = sum.hi;
    if (rc == 0)
        rc = ntx_stats_accum_merge(a, &v);
    for (uint32_t i = 0; rc == 0 && i < sum.ndrops; i++) {
        ntidx_dropped dl;
        ntx_region_summary_drop(x, &sum, i, &dl);
        rc = ntx_drop_map_add(drops, &dl);
    }
    if (rc == 0)
        rs->blocks[NTIDX_BLOCK_EVENT] += sum.event_blocks;
    free(v.types);
    free(v.threads);
    return rc;
}
