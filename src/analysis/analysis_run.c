/*
 * The driver of every analysis (analysis_internal.h): plan the window's
 * regions into work units, read the units in parallel, merge them in time
 * order, look past the window for what is still open, finish.
 *
 * Units are read by workers that take them from a shared counter, as the
 * parallel statistics do (src/ops/stats_parallel.c); the calling thread is
 * worker 0. The merge takes the units in time order, and units finish in any
 * order: a worker that finishes one merges it, and every finished unit after
 * it, as soon as those before it are merged (one worker at a time, under a
 * lock it only tries: nobody waits for it), and frees their states. So the
 * merge, serial by nature, runs while the other workers read, and a unit's
 * state (an analysis's tape of compact events can be hundreds of MB over a
 * whole trace) lives from its read to its turn, not to the end of the run.
 * What is left when the workers are joined is merged then.
 */
#include <math.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"
#include "field_place.h"
#include "index_tables.h"
#include "ops_internal.h"
#include "phases.h"
#include "threads.h"
#include "time_sort.h"

NTIDX_API void ntidx_analysis_options_defaults(ntidx_analysis_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->t1 = UINT64_MAX;
    o->lookahead_seconds = 10.0;
    o->recover = 1;
}

typedef struct unit {
    size_t first, count;   /* regions[first .. first + count) */
    void *state;           /* the analysis's, NULL until read; NULL again once merged */
    atomic_int read;       /* 1 once read to its end without an error: ready to merge */
    ntx_an_counts counts;
    ntidx_query_stats qs;  /* what its query read */
    ntidx_symbolizer *sym; /* with_symbols: the symbolizer's events of its regions (a part) */
} unit;

typedef struct shared {
    const ntx_analysis_def *def;
    const ntx_an_ctx *ctx;
    const ntx_event_type *types; /* what the units read: def->types, or def->plan_types()'s */
    size_t ntypes;
    int with_symbols;            /* the units read the symbolizer's events too (def->take_symbols) */
    uint64_t *regions;
    unit *units;
    size_t nunits;
    atomic_size_t next;
    atomic_int failed;
    /* The merge while the workers read (merge_ready()): the merge's state, the next unit to merge (written
       under merge_lock, read outside it only to decide whether to try the lock), its error, and the seconds
       spent merging (serial work, taken out of the parallel section's time for the benchmarks). */
    pthread_mutex_t merge_lock;
    void *merged;
    atomic_size_t merged_upto;
    int merge_rc;
    ntx_err merge_err;
    double merge_secs;
} shared;

/* The shapes of the event types a worker met (ntx_layout_shape_of()), for the analyses with lazy_payload:
   direct-mapped by the type's key (ntidx_metadata_key() + 1; 0: an empty slot), as fields.h's places. */
#define SHAPE_BITS 6
#define SHAPE_SLOTS (1u << SHAPE_BITS)
typedef struct shape_slot {
    uint64_t key;
    ntx_layout_shape shape;
} shape_slot;

/* What a worker decodes payloads with: its values, reused event after event, and the shapes it met. */
typedef struct decoder {
    ntidx_values *values;
    shape_slot shapes[SHAPE_SLOTS];
} decoder;

static const ntx_layout_shape *shape_of(decoder *d, const ntidx_trace *t, const ntidx_metadata *m)
{
    uint64_t key = ntidx_metadata_key(m) + 1;
    shape_slot *sl = &d->shapes[(key * 0x9E3779B97F4A7C15ull) >> (64 - SHAPE_BITS)];
    if (sl->key != key) {
        ntx_layout_shape_of(t, m, &sl->shape);
        sl->key = key;
    }
    return &sl->shape;
}

/* Each on cache lines of its own (allocated aligned): no worker writes a line another one does. */
typedef struct worker {
    alignas(64) shared *sh;
    decoder dec;
    int rc;
    ntx_err err;
} worker;

/* The process of an event: its V6 thread's, where the trace gives one, else the trace's. */
static uint32_t event_pid(const ntx_an_ctx *c, const ntidx_event *ev)
{
    if (ev->thread && ev->thread->has_os_process_id)
        return (uint32_t)ev->thread->os_process_id;
    return c->pid;
}

/* The most trace bytes a work unit reads (but for a single region larger than that). */
#define UNIT_BYTES (256ull << 20)

/* How the driver hands an analysis its payloads (decode_of()). */
enum { DECODE_NONE, DECODE_FULL, DECODE_LAZY };

static int decode_of(const ntx_analysis_def *def)
{
    return def->no_payload ? DECODE_NONE : def->lazy_payload ? DECODE_LAZY : DECODE_FULL;
}

/*
 * One event decoded (DECODE_FULL; DECODE_LAZY: checked against its layout's
 * shape, decoded when the analysis asks) and handed to `feed` (the unit's or
 * the lookahead's callback). Events whose payload does not fit their layout,
 * or that the analysis finds lacking a field it needs, are counted as field
 * errors and skipped: the same events whichever way the payload is read.
 */
static int feed_event(const ntx_an_ctx *ctx, int decode, const ntidx_event *ev, decoder *d,
                      int (*feed)(void *st, const ntx_an_event *e, ntx_err *err), void *st, ntx_an_counts *counts,
                      ntx_err *err)
{
    counts->events++;
    ntx_an_payload lazy = {.t = ctx->t, .v = d->values};
    int drc = 0;
    if (decode == DECODE_LAZY) {
        const ntx_layout_shape *sh = shape_of(d, ctx->t, ev->metadata);
        if (sh->shaped)
            drc = ntx_layout_fits(sh, ev) ? 0 : NTIDX_E_PAYLOAD;
        else if ((drc = ntidx_values_decode(d->values, ctx->t, ev)) == 0)
            lazy.state = 1; /* decoded to be checked: the analysis's asks take it as it is */
    } else if (decode == DECODE_FULL) {
        drc = ntidx_values_decode(d->values, ctx->t, ev);
    }
    if (drc == NTIDX_E_PAYLOAD) {
        counts->field_errors++;
        return 0;
    }
    if (drc < 0)
        return ntx_err_from_last(err, drc);
    ntx_an_event e = {.ev = ev, .values = decode == DECODE_FULL ? d->values : NULL, .ts = ev->timestamp,
                      .thread = ev->thread_id, .pid = event_pid(ctx, ev),
                      .payload = decode == DECODE_LAZY ? &lazy : NULL};
    int frc = feed(st, &e, err);
    if (frc < 0)
        return frc;
    if (frc > 0)
        counts->field_errors++;
    return 0;
}

/* The events of query `q` (restricted to the analysis's types) fed one by one (feed_event()); after each,
   `enough` (may be NULL) says whether to stop. With `sym`, the symbolizer's events go to it instead (the query
   is in file order, as the symbolizer's own read). */
static int read_events(const ntx_an_ctx *ctx, int decode, ntidx_query *q, decoder *d,
                       int (*feed)(void *st, const ntx_an_event *e, ntx_err *err), void *st,
                       uint64_t (*enough)(const void *st), ntidx_symbolizer *sym, ntx_an_counts *counts, ntx_err *err)
{
    const ntidx_event *ev;
    int rc;
    while ((rc = ntx_query_next(q, &ev)) == 1) {
        if (sym) {
            int took = ntx_symbolizer_part_note(sym, ctx->t, ev);
            if (took < 0)
                return ntx_err_set(err, took, "out of memory reading methods and modules");
            if (took)
                continue;
        }
        int frc = feed_event(ctx, decode, ev, d, feed, st, counts, err);
        if (frc < 0)
            return frc;
        if (enough && enough(st) == 0)
            return 0;
    }
    if (rc < 0)
        return ntx_err_from_last(err, rc);
    return 0;
}

static void add_query_stats(ntidx_query_stats *to, const ntidx_query_stats *s)
{
    to->regions_visited += s->regions_visited;
    to->blocks_read += s->blocks_read;
    to->event_blocks_read += s->event_blocks_read;
    to->bytes_read += s->bytes_read;
}

/* The kept events of one region, sorted into time order, decoded and fed to the unit; the buffer emptied. */
static int feed_region(const ntx_an_ctx *ctx, const ntx_analysis_def *def, ntidx_event *evs, ntx_time_key *keys,
                       size_t n, decoder *d, void *state, ntx_an_counts *counts, ntx_err *err)
{
    /* reader_sort.c's order: timestamp, then file offset (the order they were read in: the sort is stable) */
    for (size_t i = 0; i < n; i++)
        keys[i] = (ntx_time_key){.ts = evs[i].timestamp, .i = i};
    const ntx_time_key *sorted = ntx_time_sort(keys, keys + n, n);
    for (size_t i = 0; i < n; i++) {
        int rc = feed_event(ctx, decode_of(def), &evs[sorted[i].i], d, def->unit_event, state, counts, err);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/*
 * The events of a run of regions (ntx_query_open_run(), file order), a
 * region at a time: the region's events of the analysis's types kept as
 * read, then sorted into time order (which is by region first, as
 * reader_sort.c gives it) and decoded and fed to the unit at the region's
 * end. The run pauses there, before its reader moves on, so what the kept
 * events point at is still there: payloads and stacks in the mapping, and
 * metadata rows in the reader's cache, which every reader empties when its
 * plan jumps to a region that does not follow (a --full index's plans). A
 * V6 trace is read otherwise (read_unit()). Only the kept events are
 * sorted, not every event of the region as a time-order reader would.
 */
static int read_sorted(const ntx_an_ctx *ctx, const ntx_analysis_def *def, ntidx_query *q, decoder *d,
                       void *state, ntidx_symbolizer *sym, ntx_an_counts *counts, ntx_err *err)
{
    ntidx_event *evs = NULL;
    ntx_time_key *keys = NULL;
    size_t n = 0, cap = 0;
    const ntidx_event *ev;
    int rc, frc = 0; /* frc: a failure with its error in *err already */
    for (;;) {
        while (frc == 0 && (rc = ntx_query_next(q, &ev)) == 1) {
            if (sym) { /* the symbolizer's events go to its part, in file order, as its own read gives them */
                int took = ntx_symbolizer_part_note(sym, ctx->t, ev);
                if (took < 0)
                    frc = ntx_err_set(err, took, "out of memory reading methods and modules");
                if (took)
                    continue;
            }
            if (n == cap) {
                size_t c = cap ? cap * 2 : 256;
                ntidx_event *ne = realloc(evs, c * sizeof *ne);
                if (ne)
                    evs = ne;
                ntx_time_key *nk = ne ? realloc(keys, 2 * c * sizeof *nk) : NULL;
                if (nk)
                    keys = nk;
                if (!nk) {
                    frc = ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
                    break;
                }
                cap = c;
            }
            evs[n++] = *ev;
        }
        if (frc == 0 && rc < 0)
            frc = ntx_err_from_last(err, rc);
        if (frc == 0 && n)
            frc = feed_region(ctx, def, evs, keys, n, d, state, counts, err);
        n = 0;
        uint64_t region, primed;
        if (frc != 0 || !ntx_query_region_end(q, &region, &primed))
            break;
        ntx_query_next_region(q);
    }
    free(evs);
    free(keys);
    return frc < 0 ? frc : 0;
}

/*
 * One unit: its regions read one by one in file order and sorted
 * (read_sorted()), the analysis's types only. Not for V6: its sequence
 * points may flush the metadata rows, and the flush is applied before the
 * region's end pauses the run, so its kept events would point at rows gone.
 * A V6 unit is read in time order: the reader's type filter keeps its heap to
 * the analysis's events. An order_free analysis's unit, of any version, is
 * read in file order and each event fed as it is read: nothing kept, sorted
 * or merged from the threads' streams.
 */
static int read_unit(shared *sh, unit *u, decoder *d, ntx_err *err)
{
    const ntx_an_ctx *ctx = sh->ctx;
    const ntx_analysis_def *def = sh->def;
    int sorted = ntidx_trace_get_info(ctx->t)->format_version < 6 && !def->order_free;
    ntidx_query_options qo;
    ntidx_query_options_defaults(&qo);
    qo.t0 = ctx->o->t0;
    qo.t1 = ctx->o->t1;
    qo.order = sorted || def->order_free ? NTIDX_ORDER_FILE : NTIDX_ORDER_TIME;
    qo.regions = &sh->regions[u->first];
    qo.region_count = u->count;
    ntidx_query *q = NULL;
    int rc = def->unit_new(ctx, &u->state);
    if (rc < 0)
        return ntx_err_set(err, rc, "out of memory");
    if (sh->with_symbols && !(u->sym = ntx_symbolizer_part_new(ctx->t)))
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    rc = sorted ? ntx_query_open_run(&q, ctx->t, ctx->x, &qo, 0) : ntidx_query_open(ctx->t, ctx->x, &qo, &q);
    if (rc < 0)
        return ntx_err_from_last(err, rc);
    if ((rc = ntx_query_restrict_types(q, sh->types, sh->ntypes)) < 0)
        ntx_err_from_last(err, rc);
    /* Counted on this thread's stack, stored once: the units lie side by side, and a count per event in
       the unit's own slot would share a cache line with the next unit's, which another worker counts in. */
    ntx_an_counts counts = {0};
    if (rc == 0 && sorted)
        rc = read_sorted(ctx, def, q, d, u->state, u->sym, &counts, err);
    else if (rc == 0)
        rc = read_events(ctx, decode_of(def), q, d, def->unit_event, u->state, NULL, u->sym, &counts, err);
    u->counts = counts;
    if (rc == 0 && def->unit_end)
        rc = def->unit_end(u->state, err);
    add_query_stats(&u->qs, ntidx_query_get_stats(q));
    ntidx_query_close(&q);
    return rc;
}

/* Unit k is read and may be merged (no unit failed). */
static int ready(shared *sh, size_t k)
{
    return k < sh->nunits && atomic_load(&sh->units[k].read) && !atomic_load(&sh->failed);
}

/* One unit merged, its state freed whatever the merge returns. */
static int merge_one(const ntx_analysis_def *def, void *merged, unit *u, ntx_err *err)
{
    int rc = def->merge_unit(merged, u->state, err);
    def->unit_free(u->state);
    u->state = NULL;
    return rc;
}

/*
 * Merge the units that are read, in order, from the first not merged yet; each unit's state freed when
 * merged. A worker that finds the lock taken goes back to reading: the holder, once it lets the lock go,
 * looks again for a unit that became ready meanwhile (the flag is set before the lock is tried), and
 * whatever is left at the join is merged by the caller.
 */
static void merge_ready(shared *sh)
{
    const ntx_analysis_def *def = sh->def;
    while (ready(sh, atomic_load(&sh->merged_upto)) && pthread_mutex_trylock(&sh->merge_lock) == 0) {
        double t0 = ntx_phase_begin();
        size_t k = atomic_load(&sh->merged_upto);
        for (; ready(sh, k); k++) {
            int rc = merge_one(def, sh->merged, &sh->units[k], &sh->merge_err);
            if (rc < 0) {
                sh->merge_rc = rc;
                atomic_store(&sh->failed, 1);
                k++;
                break;
            }
        }
        atomic_store(&sh->merged_upto, k);
        sh->merge_secs += ntx_phase_since(t0);
        pthread_mutex_unlock(&sh->merge_lock);
    }
}

static void *work(void *arg)
{
    worker *w = arg;
    shared *sh = w->sh;
    for (;;) {
        if (atomic_load(&sh->failed))
            break;
        size_t k = atomic_fetch_add(&sh->next, 1);
        if (k >= sh->nunits)
            break;
        int rc = read_unit(sh, &sh->units[k], &w->dec, &w->err);
        if (rc < 0) {
            w->rc = rc;
            atomic_store(&sh->failed, 1);
            break;
        }
        atomic_store(&sh->units[k].read, 1);
        merge_ready(sh);
    }
    return NULL;
}

/*
 * Past the window: the events of the analysis's types in [t1, t1 + the
 * lookahead), in time order, until nothing is open. A query over the whole
 * index finds the regions past t1 by itself.
 */
static int look_ahead(const shared *sh, void *merged, decoder *d, ntidx_analysis_stats *st,
                      ntx_an_counts *counts, ntx_err *err)
{
    const ntx_analysis_def *def = sh->def;
    const ntx_an_ctx *ctx = sh->ctx;
    const ntidx_analysis_options *o = ctx->o;
    if (o->t1 == UINT64_MAX || !(o->lookahead_seconds > 0) || !def->open_count ||
        def->open_count(merged) == 0)
        return 0;
    double span = o->lookahead_seconds * (double)ctx->tick_frequency;
    /* to the nearest tick: the bound is in seconds, the window in ticks */
    uint64_t end = span + 0.5 >= (double)(UINT64_MAX - o->t1) ? UINT64_MAX : o->t1 + (uint64_t)(span + 0.5);
    ntidx_query_options qo;
    ntidx_query_options_defaults(&qo);
    qo.t0 = o->t1;
    qo.t1 = end;
    qo.order = NTIDX_ORDER_TIME;
    ntidx_query *q = NULL;
    int rc = ntidx_query_open(ctx->t, ctx->x, &qo, &q);
    if (rc < 0)
        return ntx_err_from_last(err, rc);
    if ((rc = ntx_query_restrict_types(q, sh->types, sh->ntypes)) < 0)
        ntx_err_from_last(err, rc);
    ntx_an_counts ahead = {0};
    if (rc == 0)
        rc = read_events(ctx, decode_of(def), q, d, def->lookahead_event, merged, def->open_count, NULL, &ahead, err);
    const ntidx_query_stats *qs = ntidx_query_get_stats(q);
    st->lookahead_events += ahead.events;
    st->lookahead_bytes += qs->bytes_read;
    st->bytes_read += qs->bytes_read;
    st->blocks_read += qs->blocks_read;
    st->event_blocks_read += qs->event_blocks_read;
    /* Field errors past the window are the window's too: an open record needed that event. */
    counts->field_errors += ahead.field_errors;
    ntidx_query_close(&q);
    return rc;
}

/*
 * Whether the units read the symbolizer's events along with the analysis's
 * (def->take_symbols): only when they read what the symbolizer's own open
 * reads, every region of the index in file order (before V6, or an
 * order_free analysis: read_unit()) with no event left out by
 * the window's times, and when no type is both the analysis's and the
 * symbolizer's (an event goes to one or the other), and when the table is
 * not saved beside the index already (ntx_symbol_cache_usable()). Then *types is the
 * analysis's types and the symbolizer's, malloc'ed (NULL, 0 otherwise). 0 or
 * NTIDX_E_NOMEM.
 */
static int plan_symbols(const shared *sh, size_t nregions, ntx_event_type **types, size_t *ntypes)
{
    *types = NULL;
    *ntypes = 0;
    const ntx_an_ctx *ctx = sh->ctx;
    const ntidx_analysis_options *o = ctx->o;
    const ntidx_index_info *ii = ntidx_index_get_info(ctx->x);
    if (!sh->def->take_symbols || (ntidx_trace_get_info(ctx->t)->format_version >= 6 && !sh->def->order_free) ||
        nregions != ntx_index_region_total(ctx->x) || nregions == 0 ||
        (ii->first_ts <= ii->last_ts && (o->t0 > ii->first_ts || o->t1 <= ii->last_ts)) ||
        ntx_symbol_cache_usable(ctx->t, ctx->x)) /* the table saved beside the index costs less than its events */
        return 0;
    size_t nsym = ntx_symbolizer_types(NULL, 0);
    ntx_event_type *all = malloc((sh->ntypes + nsym) * sizeof *all);
    if (!all)
        return NTIDX_E_NOMEM;
    memcpy(all, sh->types, sh->ntypes * sizeof *all);
    ntx_symbolizer_types(all + sh->ntypes, nsym);
    for (size_t i = 0; i < sh->ntypes; i++)
        for (size_t j = sh->ntypes; j < sh->ntypes + nsym; j++)
            if (all[i].event_id == all[j].event_id && !strcmp(all[i].provider, all[j].provider)) {
                free(all);
                return 0;
            }
    *types = all;
    *ntypes = sh->ntypes + nsym;
    return 0;
}

/* Regions of the window (all when it is the whole trace) cut into units; the units' states read. */
static int run_once(const ntx_analysis_def *def, ntx_an_ctx *ctx, ntidx_analysis **out, ntx_err *err)
{
    const ntidx_index *x = ctx->x;
    const ntidx_analysis_options *o = ctx->o;
    shared sh = {.def = def, .ctx = ctx, .types = def->types, .ntypes = def->ntypes};
    ntx_event_type *planned = NULL;
    if (def->plan_types) {
        int prc = def->plan_types(ctx, &planned, &sh.ntypes, err);
        if (prc < 0)
            return prc;
        sh.types = planned;
    }
    uint64_t nr = ntx_index_region_total(x);
    sh.regions = malloc((size_t)(nr ? nr : 1) * sizeof *sh.regions);
    sh.units = malloc((size_t)(nr ? nr : 1) * sizeof *sh.units);
    if (!sh.regions || !sh.units) {
        free(sh.regions);
        free(sh.units);
        free(planned);
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    }
    size_t nregions = 0;
    uint64_t total = 0;
    /* an analysis that reads nothing in this trace (no type of it defined) reads no region */
    int nothing = def->plan_types && sh.ntypes == 0;
    for (uint64_t r = 0; r < nr && o->t0 < o->t1 && !nothing; r++)
        if (ntx_index_region_overlaps(x, r, o->t0, o->t1)) {
            sh.regions[nregions++] = r;
            total += ntx_rg_bytes(x, r);
        }
    ntx_event_type *fused = NULL;
    size_t nfused = 0;
    if (plan_symbols(&sh, nregions, &fused, &nfused) < 0) {
        free(sh.regions);
        free(sh.units);
        free(planned);
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    }
    if (fused) {
        sh.types = fused;
        sh.ntypes = nfused;
        sh.with_symbols = 1;
    }
    ntidx_symbolizer *opened = NULL; /* def->needs_symbols, not read along: opened before the units read */
    if (def->needs_symbols && !sh.with_symbols && nregions) {
        int src = ntx_symbolizer_open_threads(ctx->t, ctx->x, o->threads, &opened);
        if (src < 0) {
            free(sh.regions);
            free(sh.units);
            free(planned);
            return ntx_err_from_last(err, src);
        }
        ctx->sym = opened;
    }
    if (nregions > 1)
        ntx_index_prefetch_regions(x, sh.regions[0], sh.regions[nregions - 1] + 1);
    unsigned nthreads = ntx_thread_count(o->threads);
    /* Units: runs of consecutive regions, `unit_regions` each or about a quarter of a thread's share of the
       bytes, and at most UNIT_BYTES: what a unit keeps until the merge takes it (a GC tape, open pairs, the
       records it finished) grows with its bytes, and the units read but not merged yet wait in memory, so
       the size of a unit, not of the trace, bounds the memory (a quarter of a 10 GB trace's share was
       1.3 GB a unit: a GC tape of 220 MB). Regions out of time order (an index without
       NTX_IF_REGIONS_SORTED) make one unit: the merge needs the units in time order. */
    int sorted = ntx_index_regions_sorted(x);
    uint64_t target = total / ((uint64_t)nthreads * 4) + 1, acc = 0;
    if (target > UNIT_BYTES)
        target = UNIT_BYTES;
    for (size_t i = 0; i < nregions; i++) {
        int cut = i == 0 || sh.regions[i] != sh.regions[i - 1] + 1;
        if (!cut && sorted && (o->unit_regions ? sh.units[sh.nunits - 1].count >= o->unit_regions : acc >= target))
            cut = 1;
        if (cut) {
            sh.units[sh.nunits++] = (unit){.first = i};
            acc = 0;
        }
        sh.units[sh.nunits - 1].count++;
        acc += ntx_rg_bytes(x, sh.regions[i]);
    }
    if (nthreads > sh.nunits)
        nthreads = sh.nunits ? (unsigned)sh.nunits : 1;
    worker *ws = aligned_alloc(alignof(worker), nthreads * sizeof *ws);
    if (ws)
        memset(ws, 0, nthreads * sizeof *ws);
    int rc = ws ? 0 : ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    for (unsigned i = 0; rc == 0 && i < nthreads; i++) {
        ws[i].sh = &sh;
        if (ntidx_values_new(&ws[i].dec.values) < 0)
            rc = ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    }
    /* The merge's state first: workers merge as they go (merge_ready()). */
    void *merged = NULL;
    if (rc == 0 && (rc = def->merge_new(ctx, &merged)) < 0)
        ntx_err_set(err, rc, "out of memory");
    sh.merged = merged;
    pthread_mutex_init(&sh.merge_lock, NULL);
    if (rc == 0) /* the workers' part, timed for the benchmarks */
        ntx_run_threads_each(nthreads, work, ws, sizeof *ws);
    ntx_phase_serial(sh.merge_secs); /* merging is serial work, whichever thread did it */
    pthread_mutex_destroy(&sh.merge_lock);
    for (unsigned i = 0; rc == 0 && i < nthreads; i++)
        if (ws[i].rc < 0) {
            rc = ws[i].rc;
            *err = ws[i].err;
        }
    if (rc == 0 && sh.merge_rc < 0) {
        rc = sh.merge_rc;
        *err = sh.merge_err;
    }

    /* The rest of the merge, in time order: the units the workers left. */
    ntx_an_counts counts = {0};
    ntidx_analysis_stats st = {0};
    for (size_t k = atomic_load(&sh.merged_upto); rc == 0 && k < sh.nunits; k++)
        rc = merge_one(def, merged, &sh.units[k], err);
    for (size_t k = 0; k < sh.nunits; k++) {
        unit *u = &sh.units[k];
        counts.events += u->counts.events;
        counts.field_errors += u->counts.field_errors;
        st.bytes_read += u->qs.bytes_read;
        st.blocks_read += u->qs.blocks_read;
        st.event_blocks_read += u->qs.event_blocks_read;
    }
    for (size_t k = 0; k < sh.nunits; k++)
        if (sh.units[k].state)
            def->unit_free(sh.units[k].state);
    if (sh.with_symbols && rc == 0) { /* the units' parts in file order (each unit's regions follow the one before's) */
        ntidx_symbolizer **parts = malloc((sh.nunits ? sh.nunits : 1) * sizeof *parts);
        ntidx_symbolizer *sym = NULL;
        for (size_t k = 0; parts && k < sh.nunits; k++) {
            parts[k] = sh.units[k].sym;
            sh.units[k].sym = NULL;
        }
        int jrc = !parts ? NTIDX_E_NOMEM
                  : ntx_symbolizer_join(parts, sh.nunits, (uint64_t)ctx->sync_ticks, o->threads, &sym);
        free(parts);
        if (jrc < 0) {
            rc = ntx_err_set(err, jrc, "out of memory reading methods and modules");
        } else {
            ntx_symbol_cache_save(sym, ctx->t, ctx->x); /* the next window's symbolizer maps it back */
            rc = def->take_symbols(merged, sym, err); /* it owns sym, whatever it returns */
        }
    }
    for (size_t k = 0; k < sh.nunits; k++)
        ntidx_symbolizer_close(&sh.units[k].sym);
    if (rc == 0)
        rc = look_ahead(&sh, merged, &ws[0].dec, &st, &counts, err);
    ntidx_analysis *a = NULL;
    if (rc == 0 && (rc = def->finish(merged, &a, &counts, err)) == 0) {
        ntidx_analysis_stats *s = ntx_analysis_stats(a);
        uint64_t incomplete = s->incomplete; /* finish() counted the records left open */
        *s = st;
        s->incomplete = incomplete;
        s->t0 = o->t0;
        s->t1 = o->t1;
        s->events = counts.events;
        s->field_errors = counts.field_errors;
        s->unmatched = counts.unmatched;
        s->regions = nregions;
        s->units = sh.nunits;
        s->threads = nthreads;
        *out = a;
    }
    if (merged)
        def->merge_free(merged);
    for (unsigned i = 0; ws && i < nthreads; i++)
        ntidx_values_free(&ws[i].dec.values);
    free(ws);
    free(sh.units);
    free(sh.regions);
    free(planned);
    free(fused);
    ctx->sym = NULL;
    ntidx_symbolizer_close(&opened);
    return rc;
}

static int check_options(const ntidx_trace *t, const ntidx_analysis_options *o)
{
    const char *name = ntidx_trace_name(t);
    if (!ntx_reserved_zero(o->reserved, sizeof o->reserved))
        return ntx_failf(NTIDX_E_INVALID_ARG, name, NTIDX_NO_OFFSET,
                         "analysis options: reserved fields are not zero (fill them with ntidx_analysis_options_defaults())");
    if (!(o->lookahead_seconds >= 0) || isnan(o->lookahead_seconds))
        return ntx_failf(NTIDX_E_INVALID_ARG, name, NTIDX_NO_OFFSET,
                         "analysis options: lookahead_seconds must be 0 or more");
    return NTIDX_OK;
}

int ntx_analysis_run(const ntx_analysis_def *def, ntidx_trace *t, const ntidx_index *x,
                     const ntidx_analysis_options *o, ntidx_analysis **out)
{
    return ntx_analysis_run_arg(def, NULL, t, x, o, out);
}

int ntx_analysis_run_arg(const ntx_analysis_def *def, const void *arg, ntidx_trace *t, const ntidx_index *x,
                         const ntidx_analysis_options *o, ntidx_analysis **out)
{
    if (out)
        *out = NULL;
    if (!t || !x || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET,
                         "ntidx_%s_analyze: NULL argument", def->name);
    ntidx_analysis_options def_o;
    if (!o) {
        ntidx_analysis_options_defaults(&def_o);
        o = &def_o;
    }
    int rc = check_options(t, o);
    if (rc < 0)
        return rc;
    const ntidx_trace_info *ti = ntidx_trace_get_info(t);
    ntx_an_ctx ctx = {.t = t, .x = x, .o = o, .pid = ti->process_id,
                      .sync_ticks = ti->sync_ticks, .tick_frequency = ti->tick_frequency, .arg = arg};
    ntx_err err = {0};
    rc = run_once(def, &ctx, out, &err);
    if (rc < 0)
        return ntx_fail(rc, rc == NTIDX_E_INDEX_CORRUPT ? ntx_index_name(ctx.x) : ntidx_trace_name(t), &err);
    return NTIDX_OK;
}
