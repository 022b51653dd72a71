/*
 * The GC analysis (ntidx_gc_analyze) over traces written with the runtime's
 * GC events (rt_trace.h), whose every figure is known in advance (times in
 * ms are exact: 10,000 ticks a ms), and over the real traces.
 *
 * Every synthetic trace is analysed with every region a unit of its own, on
 * one and on two threads, and with the automatic cut: the GCs and the
 * summaries must be equal, field by field, whatever the cut (the merge
 * replays a unit's events from the state the units before it left).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "rt_trace.h"

#include <ntidx/analysis.h>

#define MS RT_MS
#define PID 4242

static const uint64_t sizes[5] = {1000000, 2000000, 3000000, 4000000, 0};
static const uint64_t promoted[5] = {100000, 200000, 300000, 0, 0};

/* A blocking GC: suspension at `t` ms, GC/Start at t + 0.2, GC/Stop at t + 2.2, restart at t + 2.5. With a
   sequence point after GC/Start when `cut`, and the heap's GC/PerHeapHistory of `ngens` generations at t + 1
   (ngens 0: none). */
static void blocking_gc_heap(rt_trace *rt, uint32_t thread, uint64_t t, uint32_t number, uint32_t gen,
                             uint32_t reason, uint32_t type, int cut, uint32_t ngens, const uint64_t gens[][10])
{
    rt_suspend_start(rt, thread, t * MS, 1);
    rt_suspend_stop(rt, thread, t * MS + MS / 10);
    rt_gc_start(rt, thread, t * MS + 2 * MS / 10, number, gen, reason, type);
    if (cut)
        rt_seqpoint(rt, t * MS + 2 * MS / 10);
    if (ngens)
        rt_per_heap(rt, thread, t * MS + MS, 0, ngens, gens);
    rt_gc_end(rt, thread, t * MS + 22 * MS / 10, number, gen);
    rt_heap_stats(rt, thread, t * MS + 23 * MS / 10, sizes, promoted);
    rt_restart_stop(rt, thread, t * MS + 25 * MS / 10);
}

/* The same without PerHeapHistory. */
static void blocking_gc(rt_trace *rt, uint32_t thread, uint64_t t, uint32_t number, uint32_t gen, uint32_t reason,
                        uint32_t type, int cut)
{
    blocking_gc_heap(rt, thread, t, number, gen, reason, type, cut, 0, NULL);
}

typedef struct analysed {
    ntidx_analysis *a;
    ntidx_trace *t;
    ntidx_index *x, *full;
    uint8_t *data;
} analysed;

static void open_trace(analysed *an, uint8_t *data, size_t size, const char *name)
{
    memset(an, 0, sizeof *an);
    an->data = data;
    assert_int_equal(ntidx_trace_open_memory(data, size, name, &an->t), NTIDX_OK);
    assert_int_equal(ntidx_index_build(an->t, NULL, &an->x), NTIDX_OK);
    ntidx_index_options fo;
    ntidx_index_options_defaults(&fo);
    fo.full = 1;
    assert_int_equal(ntidx_index_build(an->t, &fo, &an->full), NTIDX_OK);
}

/* The trace a test wrote with the runtime's events (rt_end(), `finish` as there), opened as open_trace(). */
static void open_written(analysed *an, rt_trace *rt, int finish, const char *name)
{
    size_t size;
    uint8_t *data = rt_end(rt, finish, &size);
    open_trace(an, data, size, name);
}

static void close_trace(analysed *an)
{
    ntidx_analysis_free(&an->a);
    ntidx_index_close(&an->full);
    ntidx_index_close(&an->x);
    ntidx_trace_close(&an->t);
    free(an->data);
}

/* Every cell of every table of two results equal (NaN equal to NaN), and the counters. */
static void assert_same(const ntidx_analysis *a, const ntidx_analysis *b, const char *what)
{
    assert_int_equal(ntidx_analysis_table_count(a), ntidx_analysis_table_count(b));
    for (size_t k = 0; k < ntidx_analysis_table_count(a); k++) {
        ntidx_table ta, tb;
        assert_int_equal(ntidx_analysis_table(a, k, &ta), NTIDX_OK);
        assert_int_equal(ntidx_analysis_table(b, k, &tb), NTIDX_OK);
        if (ta.rows != tb.rows)
            fail_msg("%s: table %s has %" PRIu64 " rows, and %" PRIu64, what, ta.name, ta.rows, tb.rows);
        for (uint64_t r = 0; r < ta.rows; r++)
            for (size_t c = 0; c < ta.column_count; c++) {
                ntidx_table_cell x, y;
                assert_int_equal(ntidx_analysis_cell(a, k, r, c, &x), NTIDX_OK);
                assert_int_equal(ntidx_analysis_cell(b, k, r, c, &y), NTIDX_OK);
                int same = x.is_null == y.is_null && x.i == y.i && x.u == y.u &&
                           (x.f == y.f || (isnan(x.f) && isnan(y.f))) &&
                           (x.s == y.s || (x.s && y.s && !strcmp(x.s, y.s)));
                if (!same)
                    fail_msg("%s: table %s row %" PRIu64 " column %s differs (%g and %g)", what, ta.name, r,
                             ta.columns[c].name, x.f, y.f);
            }
    }
    const ntidx_analysis_stats *sa = ntidx_analysis_get_stats(a), *sb = ntidx_analysis_get_stats(b);
    assert_int_equal(sa->events, sb->events);
    assert_int_equal(sa->field_errors, sb->field_errors);
    assert_int_equal(sa->unmatched, sb->unmatched);
    assert_int_equal(sa->incomplete, sb->incomplete);
}

/*
 * Analyse with `o` under every cut and thread count, check they agree, and
 * keep the one-region-per-unit, two-thread result in an->a. Over the --full
 * index too.
 */
static void analyse(analysed *an, const ntidx_analysis_options *base)
{
    ntidx_analysis_free(&an->a);
    static const struct {
        unsigned threads;
        uint64_t unit_regions;
    } cfg[] = {{2, 1}, {1, 1}, {1, 0}, {2, 0}, {1, 1000}, {2, 2}};
    for (size_t i = 0; i < sizeof cfg / sizeof cfg[0]; i++)
        for (int full = 0; full < 2; full++) {
            ntidx_analysis_options o = *base;
            o.threads = cfg[i].threads;
            o.unit_regions = cfg[i].unit_regions;
            ntidx_analysis *a = NULL;
            assert_int_equal(ntidx_gc_analyze(an->t, full ? an->full : an->x, &o, &a), NTIDX_OK);
            if (!an->a) {
                an->a = a;
                continue;
            }
            char what[96];
            snprintf(what, sizeof what, "%u threads, units of %" PRIu64 " regions%s", cfg[i].threads,
                     cfg[i].unit_regions, full ? ", --full index" : "");
            assert_same(an->a, a, what);
            ntidx_analysis_free(&a);
        }
}

static void analyse_default(analysed *an)
{
    ntidx_analysis_options o;
    ntidx_analysis_options_defaults(&o);
    analyse(an, &o);
}

#define assert_ms(x, want)                                                                                         \
    do {                                                                                                           \
        double x_ = (x), w_ = (want);                                                                              \
        if (fabs(x_ - w_) > 1e-9)                                                                                   \
            fail_msg("%s is %.12g, want %.12g", #x, x_, w_);                                                       \
    } while (0)

/* A blocking GC whose GC/Stop lies in the region after its GC/Start's. */
static void test_blocking(void **state)
{
    (void)state;
    for (int v = 5; v <= 6; v++) {
        rt_trace rt;
        rt_begin(&rt, v, PID);
        rt_alloc_tick(&rt, 2, 5 * MS, 100000, 0);
        rt_alloc_tick(&rt, 2, 6 * MS, 150000, 1);
        blocking_gc(&rt, 1, 10, 1, 0, 0, 0, 1);
        rt_seqpoint(&rt, 20 * MS);
        blocking_gc(&rt, 3, 30, 2, 1, 1, 0, 0); /* induced, gen1, on another thread */
        analysed an;
        open_written(&an, &rt, 1, "blocking");
        analyse_default(&an);
        assert_int_equal(ntidx_gc_count(an.a), 2);
        const ntidx_gc *g = ntidx_gc_at(an.a, 0);
        assert_int_equal(g->number, 1);
        assert_int_equal(g->generation, 0);
        assert_int_equal(g->type, NTIDX_GC_NON_CONCURRENT);
        assert_int_equal(g->reason, 0);
        assert_int_equal(g->is_complete, 1);
        assert_int_equal(g->pid, PID);
        assert_int_equal(g->thread, rt_tid(&rt, 1));
        assert_int_equal(g->ts, 10 * MS + 2 * MS / 10);
        assert_ms(g->start_relative_ms, 10.2);
        assert_ms(g->duration_ms, 2.0);
        assert_ms(g->pause_start_relative_ms, 10.0);
        assert_ms(g->pause_duration_ms, 2.5); /* RestartEE/Stop - SuspendEE/Start: the suspension included */
        assert_ms(g->suspend_duration_ms, 0.1);
        assert_ms(g->heap_size_after_mb, 10.0);
        assert_ms(g->promoted_mb, 0.6);
        assert_ms(g->gen_size_after_mb[3], 4.0);
        /* the first GC: allocated from the allocation ticks (small, and large counted for LOH and POH as
           TraceEvent's GetUserAllocated does); no heap size before without per-heap histories */
        assert_ms(g->alloced_since_last_gc_mb, 0.1 + 0.15 + 0.15);
        assert_ms(g->heap_size_before_mb, 0.1);
        assert_ms(g->pause_time_percentage_since_last_gc, 2.5 * 100 / (2.5 + 10.0));
        g = ntidx_gc_at(an.a, 1);
        assert_int_equal(g->number, 2);
        assert_int_equal(g->generation, 1);
        assert_int_equal(g->thread, rt_tid(&rt, 3));
        char buf[16];
        assert_string_equal(ntidx_gc_reason_name(g->reason, buf, sizeof buf), "Induced");
        assert_ms(g->pause_duration_ms, 2.5);
        /* heap size before, estimated from the GC/HeapStats of the GC before; TraceEvent never looks at the
           first GC's, so the second GC's estimate is 0 */
        assert_ms(g->heap_size_before_mb, 0.0);
        const ntidx_gc_stats *s = ntidx_gc_summary(an.a, -1);
        assert_int_equal(s->count, 2);
        assert_int_equal(s->num_induced, 1);
        assert_ms(s->total_pause_time_ms, 5.0);
        assert_ms(s->mean_pause_duration_ms, 2.5);
        assert_ms(s->max_pause_duration_ms, 2.5);
        assert_ms(s->process_duration_ms, 32.3 - 10.0); /* first pause to the last GC/HeapStats */
        assert_ms(s->gc_pause_time_percentage, 5.0 * 100 / 22.3);
        assert_int_equal(ntidx_gc_summary(an.a, 1)->count, 1);
        assert_int_equal(ntidx_gc_summary(an.a, 2)->count, 0);
        assert_true(isnan(ntidx_gc_summary(an.a, 2)->mean_pause_duration_ms));
        assert_null(ntidx_gc_summary(an.a, 3));
        const ntidx_analysis_stats *st = ntidx_analysis_get_stats(an.a);
        assert_int_equal(st->events, 2 + 12);
        assert_int_equal(st->field_errors, 0);
        assert_int_equal(st->unmatched, 0);
        assert_int_equal(st->incomplete, 0);
        assert_true(st->bytes_read > 0);
        close_trace(&an);
    }
}

/*
 * Allocation ticks over regions without a GC, then a GC; ticks, a GC again.
 * A unit that begins between GCs has summed no tick of the regions before
 * it: the merge takes its run with the sums it lacks added to the GC its
 * first GC/HeapStats closes (or, with none, to its end state). Every cut
 * into units (analyse()) gives the same figures, these.
 */
static void test_alloc_ticks_between_gcs(void **state)
{
    (void)state;
    for (int v = 5; v <= 6; v++) {
        rt_trace rt;
        rt_begin(&rt, v, PID);
        rt_alloc_tick(&rt, 2, 1 * MS, 100000, 0);
        rt_seqpoint(&rt, 2 * MS);
        rt_alloc_tick(&rt, 2, 3 * MS, 200000, 1);
        rt_gc_end(&rt, 2, 3 * MS + MS / 2, 9, 0); /* pairs with nothing: a step of the merge's replay */
        rt_seqpoint(&rt, 4 * MS);
        rt_alloc_tick(&rt, 2, 5 * MS, 50000, 0);
        blocking_gc(&rt, 1, 10, 1, 0, 0, 0, 0);
        rt_seqpoint(&rt, 20 * MS);
        rt_alloc_tick(&rt, 3, 21 * MS, 30000, 0);
        rt_seqpoint(&rt, 22 * MS);
        rt_alloc_tick(&rt, 3, 23 * MS, 40000, 0);
        rt_seqpoint(&rt, 24 * MS);
        blocking_gc(&rt, 1, 30, 2, 0, 0, 0, 0);
        rt_seqpoint(&rt, 40 * MS);
        rt_alloc_tick(&rt, 3, 41 * MS, 70000, 0); /* after the last GC: no GC takes it */
        analysed an;
        open_written(&an, &rt, 1, "ticks between GCs");
        analyse_default(&an);
        assert_int_equal(ntidx_gc_count(an.a), 2);
        /* small 0.1 + 0.05, large 0.2 (counted for LOH and POH, as in test_blocking) */
        assert_ms(ntidx_gc_at(an.a, 0)->alloced_since_last_gc_mb, 0.15 + 0.2 + 0.2);
        assert_ms(ntidx_gc_at(an.a, 1)->alloced_since_last_gc_mb, 0.03 + 0.04);
        const ntidx_analysis_stats *st = ntidx_analysis_get_stats(an.a);
        assert_int_equal(st->unmatched, 1);
        close_trace(&an);
    }
}

/*
 * A background GC with the ephemeral GC it starts with and a foreground GC
 * inside it, over four regions; then the same with each of its events in a
 * region of its own.
 */
static void bgc_trace(rt_trace *rt, int cut_everywhere)
{
#define CUT(at)                                                                                                    \
    do {                                                                                                           \
        if (cut_everywhere)                                                                                        \
            rt_seqpoint(rt, (at));                                                                                 \
    } while (0)
    /* the background GC begins: suspension, its GC/Start, the ephemeral gen1 GC at its start, restart */
    rt_suspend_start(rt, 1, 10 * MS, 1);
    CUT(10 * MS);
    rt_suspend_stop(rt, 1, 10 * MS + 2 * MS / 10);
    rt_gc_start(rt, 1, 10 * MS + 3 * MS / 10, 5, 2, 0, NTIDX_GC_BACKGROUND);
    CUT(10 * MS + 3 * MS / 10);
    rt_gc_start(rt, 1, 10 * MS + 4 * MS / 10, 6, 1, 0, NTIDX_GC_NON_CONCURRENT);
    rt_gc_end(rt, 1, 11 * MS, 6, 1);
    CUT(11 * MS);
    rt_heap_stats(rt, 1, 11 * MS + MS / 10, sizes, promoted);
    rt_restart_stop(rt, 1, 11 * MS + 5 * MS / 10);
    rt_seqpoint(rt, 12 * MS);
    /* the background thread works; a foreground gen0 GC on another thread */
    rt_alloc_tick(rt, 2, 15 * MS, 100000, 0);
    blocking_gc(rt, 2, 20, 7, 0, 0, NTIDX_GC_FOREGROUND, cut_everywhere);
    rt_seqpoint(rt, 25 * MS);
    rt_alloc_tick(rt, 2, 26 * MS, 200000, 0);
    /* the final pause of the background GC (SuspendForGCPrep), then its end */
    rt_suspend_start(rt, 4, 30 * MS, 6);
    rt_suspend_stop(rt, 4, 30 * MS + MS / 10);
    CUT(30 * MS + MS / 10);
    rt_restart_stop(rt, 4, 30 * MS + 6 * MS / 10);
    rt_seqpoint(rt, 35 * MS);
    rt_gc_end(rt, 4, 40 * MS, 5, 2);
    CUT(40 * MS);
    rt_heap_stats(rt, 4, 40 * MS + MS / 10, sizes, promoted);
#undef CUT
}

static void check_bgc(const ntidx_analysis *a)
{
    assert_int_equal(ntidx_gc_count(a), 3);
    const ntidx_gc *b = ntidx_gc_at(a, 0), *e = ntidx_gc_at(a, 1), *f = ntidx_gc_at(a, 2);
    assert_int_equal(b->number, 5);
    assert_int_equal(b->type, NTIDX_GC_BACKGROUND);
    assert_int_equal(b->generation, 2);
    assert_int_equal(b->is_complete, 1);
    assert_ms(b->start_relative_ms, 10.3);
    assert_ms(b->duration_ms, 40 - 10.3);
    assert_ms(b->pause_start_relative_ms, 10.0);
    /* its initial suspension (0.2: the ephemeral GC took the restart) plus the final pause (30 to 30.6) */
    assert_ms(b->pause_duration_ms, 0.2 + 0.6);
    /* the suspension before it, and the SuspendForGCPrep one added (TraceEvent's GCSuspendEEStop) */
    assert_ms(b->suspend_duration_ms, 0.2 + 0.1);
    /* a background GC's gen0 allocations are its allocation ticks' */
    assert_ms(b->alloced_since_last_gc_mb, 0.2 + 0 + 0);
    assert_int_equal(e->number, 6);
    assert_int_equal(e->type, NTIDX_GC_NON_CONCURRENT);
    assert_ms(e->pause_start_relative_ms, 10.4); /* the ephemeral GC at a background GC's start: its GC/Start */
    assert_ms(e->pause_duration_ms, 11.5 - 10.4);
    assert_ms(e->suspend_duration_ms, 0);
    assert_int_equal(e->is_complete, 1);
    assert_int_equal(f->number, 7);
    assert_int_equal(f->type, NTIDX_GC_FOREGROUND);
    assert_ms(f->pause_start_relative_ms, 20.0);
    assert_ms(f->pause_duration_ms, 2.5);
    assert_int_equal(f->is_complete, 1);
    const ntidx_gc_stats *s2 = ntidx_gc_summary(a, 2);
    assert_int_equal(s2->count, 1);
    assert_ms(s2->total_pause_time_ms, 0.8);
    assert_int_equal(ntidx_gc_summary(a, -1)->count, 3);
    const ntidx_analysis_stats *st = ntidx_analysis_get_stats(a);
    assert_int_equal(st->unmatched, 0);
    assert_int_equal(st->incomplete, 0);
}

static void test_background(void **state)
{
    (void)state;
    for (int cut = 0; cut < 2; cut++) {
        rt_trace rt;
        rt_begin(&rt, 6, PID);
        bgc_trace(&rt, cut);
        analysed an;
        open_written(&an, &rt, 1, "background");
        assert_true(ntidx_index_region_count(an.x) >= (cut ? 10u : 4u));
        analyse_default(&an);
        check_bgc(an.a);
        close_trace(&an);
    }
}

/* A trace whose writer died inside a GC: the GC is kept, incomplete. */
static void test_cut_off(void **state)
{
    (void)state;
    rt_trace rt;
    rt_begin(&rt, 6, PID);
    blocking_gc(&rt, 1, 10, 1, 0, 0, 0, 0);
    rt_seqpoint(&rt, 15 * MS);
    rt_suspend_start(&rt, 1, 20 * MS, 1);
    rt_suspend_stop(&rt, 1, 20 * MS + MS / 10);
    rt_gc_start(&rt, 1, 20 * MS + 2 * MS / 10, 2, 0, 0, 0);
    analysed an;
    open_written(&an, &rt, 0, "cut-off"); /* no end-of-stream: the writer died */
    assert_false(ntidx_index_get_info(an.x)->complete);
    analyse_default(&an);
    assert_int_equal(ntidx_gc_count(an.a), 2);
    const ntidx_gc *g = ntidx_gc_at(an.a, 1);
    assert_int_equal(g->number, 2);
    assert_int_equal(g->is_complete, 0);
    assert_ms(g->duration_ms, 0);
    assert_ms(g->heap_size_after_mb, -1);
    assert_ms(g->promoted_mb, -1);
    assert_true(isnan(g->gen_size_after_mb[0]));
    assert_ms(g->pause_start_relative_ms, 20.0);
    assert_int_equal(ntidx_analysis_get_stats(an.a)->incomplete, 1);
    /* the summary counts complete GCs only */
    assert_int_equal(ntidx_gc_summary(an.a, -1)->count, 1);
    /* its table: is_complete false, sizes by generation null */
    ntidx_table tb;
    assert_int_equal(ntidx_analysis_table(an.a, 0, &tb), NTIDX_OK);
    assert_string_equal(tb.name, "gc");
    for (size_t c = 0; c < tb.column_count; c++) {
        ntidx_table_cell v;
        assert_int_equal(ntidx_analysis_cell(an.a, 0, 1, c, &v), NTIDX_OK);
        if (!strcmp(tb.columns[c].name, "is_complete"))
            assert_int_equal(v.u, 0);
        if (!strcmp(tb.columns[c].name, "gen0_size_after_mb"))
            assert_true(v.is_null);
        if (!strcmp(tb.columns[c].name, "type"))
            assert_string_equal(v.s, "NonConcurrentGC");
    }
    close_trace(&an);
}

/* Ends without a GC are counted; a payload that does not fit its layout is skipped and counted. */
static void test_unmatched_and_bad_payload(void **state)
{
    (void)state;
    rt_trace rt;
    rt_begin(&rt, 5, PID);
    rt_gc_end(&rt, 1, 1 * MS, 9, 0);          /* a GC/Stop with no GC */
    rt_heap_stats(&rt, 1, 2 * MS, sizes, promoted); /* GC/HeapStats with no GC */
    rt_suspend_start(&rt, 2, 3 * MS, 0);      /* a suspension for something else, and its end */
    rt_restart_stop(&rt, 2, 3 * MS + 2);
    rt_gc_start(&rt, 2, 3 * MS + 5, 1, 0, 0, 0); /* a GC/Start without a suspension: TraceEvent ignores it */
    rt_seqpoint(&rt, 4 * MS);
    uint8_t three[3] = {1, 2, 3};
    rt_event(&rt, 1, 2, 1, 5 * MS, three, 3); /* a GC/Start of 3 bytes: not its layout */
    rt_event(&rt, 4, 2, 1, 6 * MS, three, 3); /* nor a GC/HeapStats */
    blocking_gc(&rt, 1, 10, 2, 0, 0, 0, 0);
    analysed an;
    open_written(&an, &rt, 1, "unmatched");
    analyse_default(&an);
    assert_int_equal(ntidx_gc_count(an.a), 1);
    assert_int_equal(ntidx_gc_at(an.a, 0)->number, 2);
    assert_int_equal(ntidx_gc_at(an.a, 0)->is_complete, 1);
    const ntidx_analysis_stats *st = ntidx_analysis_get_stats(an.a);
    assert_int_equal(st->field_errors, 2);
    assert_int_equal(st->unmatched, 3);
    assert_int_equal(st->events, 5 + 2 + 6);
    close_trace(&an);
}

/* A generated trace's runtime events carry random payloads: AllocationTick amounts anywhere in 64 bits, whose
   sums wrap as TraceEvent's unchecked C# longs do (an int64_t overflow was undefined: UBSan stopped on it). The
   result agrees with itself under every cut. */
static void test_random_payloads(void **state)
{
    (void)state;
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    g.events = 40000;
    uint8_t *data;
    size_t size;
    assert_int_equal(ntidx_generate_memory(&g, &data, &size), NTIDX_OK);
    analysed an;
    open_trace(&an, data, size, "generated");
    analyse_default(&an);
    close_trace(&an);
}

/* Allocation amounts are the trace's: any 64-bit value, whose sums may pass the integers' range (a generated or
   damaged trace). They wrap rather than overflow (undefined behaviour, which the sanitizer build stops at), and
   the result does not depend on the cut into units. */
/* GC/AllocationTick v2 (10) with any AllocationAmount64 (rt_alloc_tick() writes the 32-bit amount twice). */
static void alloc_tick64(rt_trace *rt, uint32_t thread, uint64_t ts, uint64_t amount64, uint32_t kind)
{
    rt_buf p = {0};
    rt_u32(&p, 1);
    rt_u32(&p, kind);
    rt_u16(&p, 9);
    rt_u64(&p, amount64);
    rt_u64(&p, 0x1234); /* TypeID */
    rt_u16(&p, 'X');
    rt_u16(&p, 0);
    rt_u32(&p, 0); /* HeapIndex */
    rt_event(rt, 10, 2, thread, ts, p.b, p.n);
}

/*
 * A bad allocation tick (a negative amount: TraceEvent clamps every amount from it on) in a region before
 * ticks that clamping changes and the GCs that take them. A unit after the bad tick's runs without having
 * seen it: the merge gives its GCs the clamped sums its run kept beside its own.
 */
static void test_clamped_ticks_across_units(void **state)
{
    (void)state;
    rt_trace rt;
    rt_begin(&rt, 5, PID);
    alloc_tick64(&rt, 2, 1 * MS, 0xfffffffffffff000ull, 0); /* -4096: clamped to 90 KB, and every one after */
    rt_seqpoint(&rt, 2 * MS);
    rt_alloc_tick(&rt, 2, 3 * MS, 50000, 0); /* clamped up to 90 KB */
    rt_seqpoint(&rt, 4 * MS);
    blocking_gc(&rt, 1, 10, 1, 0, 0, 0, 0);
    rt_alloc_tick(&rt, 3, 14 * MS, 60000, 0); /* clamped up: a second GC of the same region takes it */
    blocking_gc(&rt, 1, 16, 2, 0, 0, 0, 0);
    rt_seqpoint(&rt, 20 * MS);
    rt_alloc_tick(&rt, 3, 21 * MS, 500000, 0); /* clamped down to 110 KB (small objects) */
    rt_seqpoint(&rt, 22 * MS);
    blocking_gc(&rt, 1, 30, 3, 0, 0, 0, 0);
    analysed an;
    open_written(&an, &rt, 1, "clamped ticks");
    analyse_default(&an);
    assert_int_equal(ntidx_gc_count(an.a), 3);
    assert_ms(ntidx_gc_at(an.a, 0)->alloced_since_last_gc_mb, 2 * 92160 / 1e6);
    assert_ms(ntidx_gc_at(an.a, 1)->alloced_since_last_gc_mb, 92160 / 1e6);
    assert_ms(ntidx_gc_at(an.a, 2)->alloced_since_last_gc_mb, 112640 / 1e6);
    close_trace(&an);
}

static void test_huge_allocation_amounts(void **state)
{
    (void)state;
    rt_trace rt;
    rt_begin(&rt, 6, PID);
    for (uint32_t i = 0; i < 6; i++) {
        alloc_tick64(&rt, 1, (1 + i) * MS, 0x7ffffffffffff000ull, 0);
        alloc_tick64(&rt, 2, (1 + i) * MS + 1, 0xfffffffffffff000ull, 1); /* negative as an int64 */
        if (i % 2)
            rt_seqpoint(&rt, (1 + i) * MS + 2);
    }
    blocking_gc(&rt, 1, 10, 1, 0, 0, 0, 0);
    analysed an;
    open_written(&an, &rt, 1, "huge-amounts");
    analyse_default(&an); /* every cut and thread count: the same answer */
    assert_int_equal(ntidx_gc_count(an.a), 1);
    assert_true(isfinite(ntidx_gc_at(an.a, 0)->alloced_since_last_gc_mb));
    close_trace(&an);
}

/* Windows: a GC belongs to the window its pause starts in; what is open at its end is looked for past it. */
static void test_windows(void **state)
{
    (void)state;
    rt_trace rt;
    rt_begin(&rt, 6, PID);
    for (uint32_t i = 0; i < 10; i++) {
        blocking_gc(&rt, 1 + i % 3, 10 + 10 * i, 1 + i, i % 3, 0, 0, i % 2);
        rt_seqpoint(&rt, (15 + 10 * i) * MS);
    }
    analysed an;
    open_written(&an, &rt, 1, "windows");
    ntidx_analysis_options o;
    ntidx_analysis_options_defaults(&o);
    /* GCs 3 to 5 (pauses at 30, 40, 50 ms) */
    o.t0 = 30 * MS;
    o.t1 = 55 * MS;
    analyse(&an, &o);
    assert_int_equal(ntidx_gc_count(an.a), 3);
    assert_int_equal(ntidx_gc_at(an.a, 0)->number, 3);
    assert_int_equal(ntidx_gc_at(an.a, 2)->number, 5);
    assert_int_equal(ntidx_analysis_get_stats(an.a)->lookahead_events, 0);
    /* a window that ends inside GC 5 (pause at 50, GC/Stop at 52.2): found past the window */
    o.t1 = 51 * MS;
    analyse(&an, &o);
    assert_int_equal(ntidx_gc_count(an.a), 3);
    const ntidx_gc *g = ntidx_gc_at(an.a, 2);
    assert_int_equal(g->number, 5);
    assert_int_equal(g->is_complete, 1);
    assert_ms(g->duration_ms, 2.0);
    assert_ms(g->pause_duration_ms, 2.5);
    const ntidx_analysis_stats *st = ntidx_analysis_get_stats(an.a);
    assert_int_equal(st->incomplete, 0);
    assert_int_equal(st->lookahead_events, 3); /* GC/Stop, GC/HeapStats, RestartEE/Stop: then nothing is open */
    assert_true(st->lookahead_bytes > 0);
    /* without a lookahead it stays incomplete */
    o.lookahead_seconds = 0;
    analyse(&an, &o);
    assert_int_equal(ntidx_gc_count(an.a), 3);
    assert_int_equal(ntidx_gc_at(an.a, 2)->is_complete, 0);
    assert_int_equal(ntidx_analysis_get_stats(an.a)->incomplete, 1);
    /* a lookahead too short for it (1 ms: its GC/Stop is 1.2 ms past the window) */
    o.lookahead_seconds = 0.001;
    analyse(&an, &o);
    assert_int_equal(ntidx_gc_at(an.a, 2)->is_complete, 0);
    /* a window that starts inside GC 3: GC 3 is not its, and its ends pair with nothing */
    ntidx_analysis_options_defaults(&o);
    o.t0 = 31 * MS;
    o.t1 = 45 * MS;
    analyse(&an, &o);
    assert_int_equal(ntidx_gc_count(an.a), 1);
    assert_int_equal(ntidx_gc_at(an.a, 0)->number, 4);
    assert_int_equal(ntidx_analysis_get_stats(an.a)->unmatched, 2); /* GC 3's GC/Stop and GC/HeapStats */
    /* one thread's GCs (GCs 1, 4, 7, 10 ran on thread 1) */
    ntidx_analysis_options_defaults(&o);
    o.has_thread = 1;
    o.thread = rt_tid(&rt, 1);
    analyse(&an, &o);
    assert_int_equal(ntidx_gc_count(an.a), 4);
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(ntidx_gc_at(an.a, i)->number, 1 + 3 * i);
    assert_int_equal(ntidx_gc_summary(an.a, -1)->count, 4);
    /* an empty window */
    ntidx_analysis_options_defaults(&o);
    o.t0 = o.t1 = 40 * MS;
    analyse(&an, &o);
    assert_int_equal(ntidx_gc_count(an.a), 0);
    assert_int_equal(ntidx_gc_summary(an.a, -1)->count, 0);
    close_trace(&an);
}

/* The generic tables: names, types and values of the contract's keys. */
static void test_tables(void **state)
{
    (void)state;
    rt_trace rt;
    rt_begin(&rt, 6, PID);
    bgc_trace(&rt, 0);
    analysed an;
    open_written(&an, &rt, 1, "tables");
    analyse_default(&an);
    assert_string_equal(ntidx_analysis_name(an.a), "gc");
    assert_int_equal(ntidx_analysis_table_count(an.a), 2);
    static const char *const keys[] = {"number", "generation", "type", "reason", "start_relative_ms", "duration_ms",
                                       "pause_start_relative_ms", "pause_duration_ms", "suspend_duration_ms",
                                       "heap_size_before_mb", "heap_size_after_mb", "promoted_mb", "is_complete",
                                       "pid"};
    ntidx_table tb;
    assert_int_equal(ntidx_analysis_table(an.a, 0, &tb), NTIDX_OK);
    assert_int_equal(tb.rows, 3);
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        size_t c = 0;
        while (c < tb.column_count && strcmp(tb.columns[c].name, keys[k]))
            c++;
        if (c == tb.column_count)
            fail_msg("no column %s", keys[k]);
    }
    ntidx_table_cell v;
    assert_int_equal(ntidx_analysis_cell(an.a, 0, 0, 2, &v), NTIDX_OK);
    assert_int_equal(v.type, NTIDX_COLUMN_STRING);
    assert_string_equal(v.s, "BackgroundGC");
    assert_int_equal(ntidx_analysis_cell(an.a, 0, 0, 3, &v), NTIDX_OK);
    assert_string_equal(v.s, "AllocSmall");
    assert_int_equal(ntidx_analysis_cell(an.a, 0, 0, 7, &v), NTIDX_OK);
    assert_int_equal(v.type, NTIDX_COLUMN_DOUBLE);
    assert_ms(v.f, 0.8);
    assert_int_equal(ntidx_analysis_cell(an.a, 0, 3, 0, &v), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_analysis_cell(an.a, 0, 0, tb.column_count, &v), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_analysis_table(an.a, 2, &tb), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_analysis_table(an.a, 1, &tb), NTIDX_OK);
    assert_string_equal(tb.name, "gc_summary");
    assert_int_equal(tb.rows, 4); /* generations 0, 1, 2 and all */
    assert_int_equal(ntidx_analysis_cell(an.a, 1, 3, 1, &v), NTIDX_OK);
    assert_int_equal(v.type, NTIDX_COLUMN_INT); /* as `generation` of table gc */
    assert_int_equal(v.i, -1);                  /* all GCs */
    assert_int_equal(ntidx_analysis_cell(an.a, 1, 2, 1, &v), NTIDX_OK);
    assert_int_equal(v.i, 2);
    assert_int_equal(ntidx_analysis_cell(an.a, 1, 3, 2, &v), NTIDX_OK);
    assert_int_equal(v.u, 3);
    /* bad options */
    ntidx_analysis_options o;
    ntidx_analysis_options_defaults(&o);
    o.reserved[0] = 1;
    ntidx_analysis *a = (ntidx_analysis *)&o;
    assert_int_equal(ntidx_gc_analyze(an.t, an.x, &o, &a), NTIDX_E_INVALID_ARG);
    assert_null(a);
    ntidx_analysis_options_defaults(&o);
    o.lookahead_seconds = -1;
    assert_int_equal(ntidx_gc_analyze(an.t, an.x, &o, &a), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_gc_analyze(NULL, an.x, NULL, &a), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_gc_count(NULL), 0);
    assert_null(ntidx_gc_at(an.a, 3));
    close_trace(&an);
}

/*
 * GC/PerHeapHistory's generation entries (gc.c's per_heap()): the heap size
 * before a GC is their SizeBefore added up, on V5 and V6, the event in the
 * region after its GC/Start's or not.
 */
static void test_per_heap(void **state)
{
    (void)state;
    uint64_t gens[5][10]; /* SizeBefore, FreeListBefore, FreeObjBefore, SizeAfter, ... NewAllocation */
    for (int g = 0; g < 5; g++)
        for (int k = 0; k < 10; k++)
            gens[g][k] = k == 0 ? (uint64_t)(g + 1) * 1000000 : (uint64_t)k * 1000;
    for (int v = 5; v <= 6; v++)
        for (int cut = 0; cut < 2; cut++) {
            rt_trace rt;
            rt_begin(&rt, v, PID);
            blocking_gc_heap(&rt, 1, 10, 1, 1, 0, 0, cut, 5, gens);
            analysed an;
            open_written(&an, &rt, 1, "per-heap");
            analyse_default(&an);
            assert_int_equal(ntidx_gc_count(an.a), 1);
            const ntidx_gc *g = ntidx_gc_at(an.a, 0);
            assert_ms(g->heap_size_before_mb, 1.0 + 2.0 + 3.0 + 4.0 + 5.0); /* and none of the other fields */
            assert_ms(g->heap_size_after_mb, 10.0);                         /* GC/HeapStats */
            assert_int_equal(ntidx_analysis_get_stats(an.a)->field_errors, 0);
            close_trace(&an);
        }
}

/* The real traces: the .NET Core 3.0 one has 478 GCs; the others none. */
static void test_real(void **state)
{
    const char *dir = *state;
    static const struct {
        const char *name;
        size_t gcs;
    } traces[] = {
        {"eventpipe-dotnetcore3.0-win-x64-objver4.nettrace", 478},
        {"eventpipe-dotnetcore2.1-linux-x64-objver3.netperf", 0},
        {"eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace", 0},
        {"eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace", 0},
        {"only_managed_samples.nettrace", 0},
    };
    for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, traces[i].name);
        analysed an;
        memset(&an, 0, sizeof an);
        assert_int_equal(ntidx_trace_open(path, &an.t), NTIDX_OK);
        assert_int_equal(ntidx_index_build(an.t, NULL, &an.x), NTIDX_OK);
        ntidx_index_options fo;
        ntidx_index_options_defaults(&fo);
        fo.full = 1;
        assert_int_equal(ntidx_index_build(an.t, &fo, &an.full), NTIDX_OK);
        analyse_default(&an);
        size_t n = ntidx_gc_count(an.a);
        assert_int_equal(n, traces[i].gcs);
        const ntidx_analysis_stats *st = ntidx_analysis_get_stats(an.a);
        assert_int_equal(st->field_errors, 0);
        assert_int_equal(st->incomplete, 0);
        double pauses = 0;
        for (size_t k = 0; k < n; k++) {
            const ntidx_gc *g = ntidx_gc_at(an.a, k);
            assert_int_equal(g->number, k + 1); /* every GC, in order */
            assert_true(g->generation >= 0 && g->generation <= 2);
            assert_int_equal(g->is_complete, 1);
            /* the pause holds the GC: it starts before GC/Start and ends after GC/Stop */
            assert_true(g->pause_start_relative_ms <= g->start_relative_ms);
            assert_true(g->pause_start_relative_ms + g->pause_duration_ms >= g->start_relative_ms + g->duration_ms);
            assert_true(g->duration_ms > 0 && g->duration_ms < 1000);
            assert_true(g->suspend_duration_ms >= 0 && g->suspend_duration_ms < g->pause_duration_ms);
            assert_true(g->heap_size_after_mb > 0 && g->heap_size_after_mb < 1000);
            assert_true(g->heap_size_before_mb > 0 && g->promoted_mb >= 0);
            assert_int_equal(g->pid, ntidx_trace_get_info(an.t)->process_id);
            if (k)
                assert_true(g->start_relative_ms > ntidx_gc_at(an.a, k - 1)->start_relative_ms);
            pauses += g->pause_duration_ms;
        }
        const ntidx_gc_stats *s = ntidx_gc_summary(an.a, -1);
        if (n) {
            assert_int_equal(s->count, n);
            assert_ms(s->total_pause_time_ms, pauses);
            assert_int_equal(s->count, ntidx_gc_summary(an.a, 0)->count + ntidx_gc_summary(an.a, 1)->count +
                                           ntidx_gc_summary(an.a, 2)->count);
            assert_true(s->gc_pause_time_percentage > 0 && s->gc_pause_time_percentage < 100);
            /* The first GC as its events say (ntidx dump of the trace): pause from SuspendEE/Start at
               100952294902 to RestartEE/Stop at 100952360087, 3124099 ticks a second. */
            const ntidx_gc *g = ntidx_gc_at(an.a, 0);
            assert_ms(g->pause_duration_ms, (100952360087.0 - 100952294902.0) * 1000.0 / 3124099.0);
            assert_ms(g->heap_size_after_mb, (24 + 209352 + 24 + 36016) / 1e6);
            assert_ms(g->heap_size_before_mb, (3154608 + 24 + 24 + 36016) / 1e6); /* GC/PerHeapHistory */
            /* a --full index reads fewer bytes for the same answer (checked equal by analyse()) */
            ntidx_analysis_options o;
            ntidx_analysis_options_defaults(&o);
            ntidx_analysis *plain, *full;
            assert_int_equal(ntidx_gc_analyze(an.t, an.x, &o, &plain), NTIDX_OK);
            assert_int_equal(ntidx_gc_analyze(an.t, an.full, &o, &full), NTIDX_OK);
            assert_true(ntidx_analysis_get_stats(full)->bytes_read <= ntidx_analysis_get_stats(plain)->bytes_read);
            ntidx_analysis_free(&plain);
            ntidx_analysis_free(&full);
        } else {
            assert_int_equal(s->count, 0);
        }
        ntidx_analysis_free(&an.a);
        ntidx_index_close(&an.full);
        ntidx_index_close(&an.x);
        ntidx_trace_close(&an.t);
    }
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "../shared/traces";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocking),
        cmocka_unit_test(test_alloc_ticks_between_gcs),
        cmocka_unit_test(test_background),
        cmocka_unit_test(test_cut_off),
        cmocka_unit_test(test_unmatched_and_bad_payload),
        cmocka_unit_test(test_random_payloads),
        cmocka_unit_test(test_huge_allocation_amounts),
        cmocka_unit_test(test_clamped_ticks_across_units),
        cmocka_unit_test(test_windows),
        cmocka_unit_test(test_tables),
        cmocka_unit_test(test_per_heap),
        cmocka_unit_test_prestate(test_real, (void *)dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
