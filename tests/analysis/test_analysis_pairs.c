/*
 * The analysis framework (src/analysis/): the driver's units, merge and
 * lookahead, and the pairs every pair analysis keeps (pairs.h), shown with a
 * small pair analysis of the test's own: the runtime's suspensions,
 * GC/SuspendEEStart to GC/RestartEEStop on the same thread.
 *
 * A random trace of such pairs (some never closed, some ends without a
 * start), cut into many regions, is analysed with every region a unit of its
 * own, with units of three regions, with the automatic cut, on one and on
 * two threads, over several windows; every answer must be the one a single
 * pass over the events in time order gives (computed here, without the
 * library's code), and the same whatever the cut and the threads.
 */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>

#include "rt_trace.h"

#include "analysis_internal.h"
#include "pairs.h"

/* ---- The toy analysis: suspensions ---- */

typedef struct susp {
    uint64_t thread, start, end;
    int complete;
} susp;

typedef struct recs {
    susp *v;
    size_t n, cap;
} recs;

static int recs_add(recs *r, susp s)
{
    if (r->n == r->cap) {
        size_t nc = r->cap ? r->cap * 2 : 16;
        susp *nv = realloc(r->v, nc * sizeof *nv);
        if (!nv)
            return NTIDX_E_NOMEM;
        r->v = nv;
        r->cap = nc;
    }
    r->v[r->n++] = s;
    return 0;
}

typedef struct toy {
    ntx_pairs pairs;
    recs done;
    uint64_t unmatched; /* merged only */
    const ntx_an_ctx *ctx;
} toy;

static const ntx_event_type toy_types[] = {{RT_PROVIDER, 9}, {RT_PROVIDER, 3}};

static int toy_new(const ntx_an_ctx *ctx, void **out)
{
    toy *t = calloc(1, sizeof *t);
    if (!t || ntx_pairs_init(&t->pairs, 0, 0) < 0) {
        free(t);
        return NTIDX_E_NOMEM;
    }
    t->ctx = ctx;
    *out = t;
    return 0;
}

static void toy_free(void *p)
{
    toy *t = p;
    ntx_pairs_free(&t->pairs);
    free(t->done.v);
    free(t);
}

static ntx_pair_key key_of(const ntx_an_event *e) { return (ntx_pair_key){e->pid, e->thread}; }

/* A start replaced by another start under its key: a suspension that never ended. */
static int toy_replaced(void *ctx, ntx_pair_key k, const void *open, uint64_t open_ts)
{
    (void)open;
    return recs_add(&((toy *)ctx)->done, (susp){k.b, open_ts, 0, 0});
}

static int toy_closed(void *ctx, ntx_pair_key k, const void *open, uint64_t open_ts, const void *end, uint64_t end_ts)
{
    (void)open;
    (void)end;
    return recs_add(&((toy *)ctx)->done, (susp){k.b, open_ts, end_ts, 1});
}

static int toy_event(void *p, const ntx_an_event *e, ntx_err *err)
{
    toy *t = p;
    uint64_t old_ts;
    int rc;
    (void)err;
    if (e->ev->metadata->event_id == 9) {
        if ((rc = ntx_pairs_start(&t->pairs, key_of(e), e->ts, NULL, NULL, &old_ts)) == 1)
            rc = toy_replaced(t, key_of(e), NULL, old_ts);
        return rc < 0 ? rc : 0;
    }
    if ((rc = ntx_pairs_end(&t->pairs, key_of(e), e->ts, NULL, 1, NULL, &old_ts)) == 1)
        rc = recs_add(&t->done, (susp){e->thread, old_ts, e->ts, 1});
    return rc < 0 ? rc : 0;
}

static int toy_unit_end(void *p, ntx_err *err)
{
    (void)p;
    (void)err;
    return 0;
}

static int toy_merge(void *m, void *u, ntx_err *err)
{
    toy *into = m, *unit = u;
    (void)err;
    int rc = ntx_pairs_merge(&into->pairs, &unit->pairs, toy_closed, toy_replaced, into, &into->unmatched);
    for (size_t i = 0; rc == 0 && i < unit->done.n; i++)
        rc = recs_add(&into->done, unit->done.v[i]);
    return rc;
}

static uint64_t toy_open(const void *m) { return ntx_pairs_open_count(&((const toy *)m)->pairs); }

static int toy_ahead(void *m, const ntx_an_event *e, ntx_err *err)
{
    toy *t = m;
    uint64_t open_ts;
    (void)err;
    if (e->ev->metadata->event_id != 3)
        return 0; /* past the window nothing starts */
    int rc = ntx_pairs_end(&t->pairs, key_of(e), e->ts, NULL, 0, NULL, &open_ts);
    if (rc == 1)
        rc = recs_add(&t->done, (susp){e->thread, open_ts, e->ts, 1});
    return rc < 0 ? rc : 0;
}

static int add_open(void *ctx, ntx_pair_key k, const void *open, uint64_t ts)
{
    (void)open;
    return recs_add(&((toy *)ctx)->done, (susp){k.b, ts, 0, 0});
}

static int by_start(const void *a, const void *b)
{
    const susp *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->thread < y->thread ? -1 : x->thread > y->thread;
}

static const ntidx_column toy_columns[] = {
    {"thread", NTIDX_COLUMN_UINT, "the suspending thread"},
    {"start", NTIDX_COLUMN_UINT, "SuspendEE/Start"},
    {"end", NTIDX_COLUMN_UINT, "RestartEE/Stop"},
    {"is_complete", NTIDX_COLUMN_BOOL, "its end was seen"},
};

static int toy_cell(const void *data, uint64_t row, size_t col, ntidx_table_cell *out)
{
    const susp *s = &((const recs *)data)->v[row];
    out->u = col == 0 ? s->thread : col == 1 ? s->start : col == 2 ? s->end : (uint64_t)s->complete;
    return 0;
}

static void free_recs(void *p)
{
    recs *r = p;
    free(r->v);
    free(r);
}

static int toy_finish(void *m, ntidx_analysis **out, ntx_an_counts *counts, ntx_err *err)
{
    toy *t = m;
    (void)err;
    int rc = ntx_pairs_each_open(&t->pairs, add_open, t);
    if (rc < 0)
        return rc;
    uint64_t incomplete = 0;
    for (size_t i = 0; i < t->done.n; i++)
        incomplete += !t->done.v[i].complete;
    if (t->done.n)
        qsort(t->done.v, t->done.n, sizeof *t->done.v, by_start);
    recs *r = malloc(sizeof *r);
    if (!r)
        return NTIDX_E_NOMEM;
    *r = t->done;
    t->done = (recs){0};
    if ((rc = ntx_analysis_new("suspensions", 99, r, free_recs, out)) < 0) {
        free_recs(r);
        return rc;
    }
    counts->unmatched = t->unmatched;
    ntx_analysis_stats(*out)->incomplete = incomplete;
    return ntx_analysis_add_table(*out, "suspensions", toy_columns, 4, r->n, toy_cell, r);
}

/* Unit states alive at once, and the most there were: the driver merges a unit as soon as those before it
   are merged, and frees it then (so on one thread, one at a time). */
static atomic_int live_units, peak_units;

static int toy_unit_new(const ntx_an_ctx *ctx, void **out)
{
    int rc = toy_new(ctx, out);
    int live = rc < 0 ? 0 : atomic_fetch_add(&live_units, 1) + 1;
    for (int peak = atomic_load(&peak_units); live > peak && !atomic_compare_exchange_weak(&peak_units, &peak, live);)
        ;
    return rc;
}

static void toy_unit_free(void *p)
{
    atomic_fetch_sub(&live_units, 1);
    toy_free(p);
}

static const ntx_analysis_def toy_def = {
    .name = "suspensions", .types = toy_types, .ntypes = 2,
    .unit_new = toy_unit_new, .unit_event = toy_event, .unit_end = toy_unit_end, .unit_free = toy_unit_free,
    .merge_new = toy_new, .merge_unit = toy_merge, .open_count = toy_open, .lookahead_event = toy_ahead,
    .finish = toy_finish, .merge_free = toy_free,
};

/* ---- The trace and the reference ---- */

typedef struct ev {
    uint64_t ts;
    uint32_t thread;
    int start;
} ev;

#define NEVENTS 600

/* A random run of suspensions on 4 threads; a sequence point every 20 to 40 events. */
static uint8_t *make_trace(int version, ev *evs, size_t *nevs, size_t *size)
{
    rt_trace rt;
    rt_begin(&rt, version, 4242);
    uint64_t seed = 12345, ts = 1000;
    int open[RT_THREADS] = {0};
    size_t n = 0, next_sp = 30;
    rt_alloc_tick(&rt, 1, ts, 100000, 0); /* an event of another type, which the toy never sees */
    while (n < NEVENTS) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t r = (uint32_t)(seed >> 33);
        uint32_t th = 1 + r % 4;
        ts += 1 + (r >> 8) % 50;
        /* mostly alternate; now and then a start twice (never closed) or an end twice (unmatched) */
        int start = (r >> 20) % 16 == 0 ? !open[th] ^ 1 : !open[th];
        if (start)
            rt_suspend_start(&rt, th, ts, 1);
        else
            rt_restart_stop(&rt, th, ts);
        open[th] = start;
        evs[n++] = (ev){ts, th, start};
        if (n == next_sp) {
            rt_seqpoint(&rt, ts);
            next_sp += 20 + (r >> 12) % 20;
        }
        if (n % 100 == 0) { /* a region of other events only, whose block a --full index lets the toy skip */
            rt_seqpoint(&rt, ts);
            for (int k = 0; k < 50; k++)
                rt_alloc_tick(&rt, 1 + (uint32_t)k % 4, ++ts, 100000, 0);
            rt_seqpoint(&rt, ts);
        }
    }
    *nevs = n;
    return rt_end(&rt, 1, size);
}

/* One pass in time order over [t0, t1), then the ends up to t1 + ahead: what the analysis must give. */
static recs reference(const ev *evs, size_t n, uint64_t t0, uint64_t t1, uint64_t ahead, uint64_t *unmatched,
                      uint64_t (*tid)(uint32_t))
{
    recs out = {0};
    uint64_t open_at[RT_THREADS];
    int open[RT_THREADS] = {0};
    *unmatched = 0;
    for (size_t i = 0; i < n; i++) {
        const ev *e = &evs[i];
        int inside = e->ts >= t0 && e->ts < t1;
        int past = e->ts >= t1 && (t1 == UINT64_MAX || e->ts - t1 < ahead);
        if (!inside && !past)
            continue;
        if (e->start) {
            if (past)
                continue;
            if (open[e->thread])
                assert_int_equal(recs_add(&out, (susp){tid(e->thread), open_at[e->thread], 0, 0}), 0);
            open[e->thread] = 1;
            open_at[e->thread] = e->ts;
        } else if (open[e->thread]) {
            assert_int_equal(recs_add(&out, (susp){tid(e->thread), open_at[e->thread], e->ts, 1}), 0);
            open[e->thread] = 0;
        } else if (inside) {
            ++*unmatched;
        }
    }
    for (uint32_t th = 0; th < RT_THREADS; th++)
        if (open[th])
            assert_int_equal(recs_add(&out, (susp){tid(th), open_at[th], 0, 0}), 0);
    if (out.n)
        qsort(out.v, out.n, sizeof *out.v, by_start);
    return out;
}

static uint64_t tid_v5(uint32_t i) { return i; }
static uint64_t tid_v6(uint32_t i) { return 1000 + i; }

/* Checks one configuration; returns the event blocks it read. */
static uint64_t check_config(ntidx_trace *t, const ntidx_index *x, const ev *evs, size_t n, uint64_t t0, uint64_t t1,
                             uint64_t ahead_ticks, unsigned threads, uint64_t unit_regions, int v6)
{
    ntidx_analysis_options o;
    ntidx_analysis_options_defaults(&o);
    o.t0 = t0;
    o.t1 = t1;
    o.threads = threads;
    o.unit_regions = unit_regions;
    o.lookahead_seconds = (double)ahead_ticks / 1e7;
    ntidx_analysis *a = NULL;
    atomic_store(&peak_units, 0);
    assert_int_equal(ntx_analysis_run(&toy_def, t, x, &o, &a), NTIDX_OK);
    assert_int_equal(atomic_load(&live_units), 0);
    if (threads == 1 && atomic_load(&peak_units) > 1) /* merged while reading: one unit alive at a time */
        fail_msg("window [%" PRIu64 ", %" PRIu64 ") units of %" PRIu64 ": %d unit states alive at once on one thread",
                 t0, t1, unit_regions, atomic_load(&peak_units));
    uint64_t unmatched;
    recs want = reference(evs, n, t0, t1, ahead_ticks, &unmatched, v6 ? tid_v6 : tid_v5);
    ntidx_table tb;
    assert_int_equal(ntidx_analysis_table(a, 0, &tb), NTIDX_OK);
    const ntidx_analysis_stats *st = ntidx_analysis_get_stats(a);
    if (tb.rows != want.n || st->unmatched != unmatched)
        fail_msg("window [%" PRIu64 ", %" PRIu64 ") threads %u units of %" PRIu64 ": %" PRIu64
                 " records (want %zu), %" PRIu64 " unmatched (want %" PRIu64 ")",
                 t0, t1, threads, unit_regions, tb.rows, want.n, st->unmatched, unmatched);
    uint64_t incomplete = 0;
    for (uint64_t r = 0; r < tb.rows; r++) {
        ntidx_table_cell c[4];
        for (size_t k = 0; k < 4; k++)
            assert_int_equal(ntidx_analysis_cell(a, 0, r, k, &c[k]), NTIDX_OK);
        const susp *w = &want.v[r];
        if (c[0].u != w->thread || c[1].u != w->start || c[2].u != w->end || c[3].u != (uint64_t)w->complete)
            fail_msg("window [%" PRIu64 ", %" PRIu64 ") threads %u units of %" PRIu64 ": record %" PRIu64
                     " is {%" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "}, want {%" PRIu64 " %" PRIu64
                     " %" PRIu64 " %d}", t0, t1, threads, unit_regions, r, c[0].u, c[1].u, c[2].u, c[3].u,
                     w->thread, w->start, w->end, w->complete);
        incomplete += !w->complete;
    }
    assert_int_equal(st->incomplete, incomplete);
    /* the toy's 600 events, plus the lookahead's; never the allocation tick */
    assert_true(st->events <= n);
    if (unit_regions == 1 && t0 == 0 && t1 == UINT64_MAX)
        assert_true(st->units > 10);
    uint64_t blocks = st->event_blocks_read;
    free(want.v);
    ntidx_analysis_free(&a);
    assert_null(a);
    return blocks;
}

static void run_all(int version)
{
    ev evs[NEVENTS];
    size_t n, size;
    uint8_t *data = make_trace(version, evs, &n, &size);
    ntidx_trace *t;
    assert_int_equal(ntidx_trace_open_memory(data, size, "pairs", &t), NTIDX_OK);
    ntidx_index *x, *full;
    assert_int_equal(ntidx_index_build(t, NULL, &x), NTIDX_OK);
    assert_true(ntidx_index_region_count(x) > 10);
    ntidx_index_options fo;
    ntidx_index_options_defaults(&fo);
    fo.full = 1;
    assert_int_equal(ntidx_index_build(t, &fo, &full), NTIDX_OK);
    uint64_t first = evs[0].ts, last = evs[n - 1].ts, span = last - first;
    struct {
        uint64_t t0, t1, ahead;
    } windows[] = {
        {0, UINT64_MAX, 0},
        {first + span / 3, first + 2 * span / 3, 0},          /* cut on both sides, nothing looked for */
        {first + span / 3, first + 2 * span / 3, 200},        /* a little lookahead: some found, some not */
        {first + span / 3, first + 2 * span / 3, UINT64_MAX / 4}, /* to the end of the trace */
        {evs[100].ts, evs[100].ts + 1, 1000},                  /* one event wide */
        {last + 1, UINT64_MAX, 10},                            /* past every event */
    };
    for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
        uint64_t ahead = windows[w].ahead;
        check_config(t, x, evs, n, windows[w].t0, windows[w].t1, ahead, 1, 1, version == 6);
        check_config(t, x, evs, n, windows[w].t0, windows[w].t1, ahead, 2, 1, version == 6);
        check_config(t, x, evs, n, windows[w].t0, windows[w].t1, ahead, 2, 3, version == 6);
        check_config(t, x, evs, n, windows[w].t0, windows[w].t1, ahead, 1, 0, version == 6);
        check_config(t, x, evs, n, windows[w].t0, windows[w].t1, ahead, 2, 0, version == 6);
        /* a --full index: the same answers, without reading the blocks of allocation ticks */
        uint64_t plain = check_config(t, x, evs, n, windows[w].t0, windows[w].t1, ahead, 2, 1, version == 6);
        uint64_t pruned = check_config(t, full, evs, n, windows[w].t0, windows[w].t1, ahead, 2, 1, version == 6);
        if (w == 0)
            assert_int_equal(plain - pruned, 6); /* the six regions of ticks */
        assert_true(pruned <= plain);
    }
    ntidx_index_close(&full);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
    free(data);
}

static void test_v5(void **state)
{
    (void)state;
    run_all(5);
}

static void test_v6(void **state)
{
    (void)state;
    run_all(6);
}

/* The pairs alone: an end before its start in the same unit is kept, a start twice replaces. */
static void test_pairs_unit(void **state)
{
    (void)state;
    ntx_pairs p, carried;
    assert_int_equal(ntx_pairs_init(&p, sizeof(uint32_t), sizeof(uint32_t)), 0);
    assert_int_equal(ntx_pairs_init(&carried, sizeof(uint32_t), sizeof(uint32_t)), 0);
    uint32_t v = 7, out = 0;
    uint64_t ts;
    /* many keys, to make the table grow and delete with shifts */
    for (uint64_t k = 0; k < 1000; k++) {
        v = (uint32_t)k;
        assert_int_equal(ntx_pairs_start(&carried, (ntx_pair_key){k % 7, k}, 10 + k, &v, NULL, NULL), 0);
    }
    for (uint64_t k = 0; k < 1000; k += 2) {
        assert_int_equal(ntx_pairs_end(&carried, (ntx_pair_key){k % 7, k}, 5000, &v, 0, &out, &ts), 1);
        assert_int_equal(out, (uint32_t)k);
        assert_int_equal(ts, 10 + k);
    }
    assert_int_equal(ntx_pairs_open_count(&carried), 500);
    /* the unit: an end of key 1 (carried: closes it in the merge), an end of key 0 (carried pair closed
       above: unmatched), a start twice on key 3 */
    v = 100;
    assert_int_equal(ntx_pairs_end(&p, (ntx_pair_key){1, 1}, 6000, &v, 1, NULL, NULL), 0);
    assert_int_equal(ntx_pairs_end(&p, (ntx_pair_key){0, 0}, 6001, &v, 1, NULL, NULL), 0);
    assert_int_equal(ntx_pairs_start(&p, (ntx_pair_key){3, 3}, 6002, &v, NULL, NULL), 0);
    v = 101;
    assert_int_equal(ntx_pairs_start(&p, (ntx_pair_key){3, 3}, 6003, &v, &out, &ts), 1);
    assert_int_equal(out, 100);
    assert_int_equal(ts, 6002);
    uint64_t unmatched = 0;
    toy sink = {0};
    assert_int_equal(ntx_pairs_merge(&carried, &p, toy_closed, toy_replaced, &sink, &unmatched), 0);
    assert_int_equal(unmatched, 1);
    /* key 1 closed (6000), key 3's carried pair replaced by the unit's start at 6003 */
    assert_int_equal(sink.done.n, 2);
    assert_int_equal(sink.done.v[0].start, 11);
    assert_int_equal(sink.done.v[0].end, 6000);
    assert_int_equal(sink.done.v[1].start, 13);
    assert_int_equal(sink.done.v[1].complete, 0);
    assert_int_equal(ntx_pairs_open_count(&carried), 499);
    assert_int_equal(ntx_pairs_end(&carried, (ntx_pair_key){3, 3}, 7000, &v, 0, &out, &ts), 1);
    assert_int_equal(out, 101);
    assert_int_equal(ts, 6003);
    free(sink.done.v);
    ntx_pairs_free(&p);
    ntx_pairs_free(&carried);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairs_unit),
        cmocka_unit_test(test_v5),
        cmocka_unit_test(test_v6),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
