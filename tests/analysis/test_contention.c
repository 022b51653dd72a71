/*
 * The contention analysis (ntidx_contention_analyze) over traces written
 * with the runtime's Contention/Start and Stop (es_trace.h), every figure
 * known in advance (10,000 ticks a ms), analysed under every cut into
 * units, on one and two threads, over a --full index (an_check.h); a random
 * run of waits held against a single pass over its events, over several
 * windows and lookaheads; and the real .NET Core 3.0 trace.
 */
#include "an_check.h"
#include "es_trace.h"

#define MS RT_MS
#define PID 4242

/* The handmade run: waits of every version, crossing region boundaries, a stop without a start, a start
   twice, a wait that never ends. */
static uint8_t *make_waits(int version, size_t *size)
{
    rt_trace rt;
    rt_begin(&rt, version, PID);
    rt_alloc_tick(&rt, 5, MS / 2, 100000, 0); /* not the analysis's: never read */
    rt_contention_start(&rt, 1, 1 * MS, 2, 0x100, 1002);
    rt_seqpoint(&rt, 2 * MS);
    rt_contention_start(&rt, 2, 25 * MS / 10, 2, 0x100, 1001);
    rt_contention_stop(&rt, 1, 3 * MS, 1, 1.5e6); /* 1.5 ms: DurationNs, not the 2 ms between the events */
    rt_seqpoint(&rt, 32 * MS / 10);
    rt_contention_stop(&rt, 2, 5 * MS, 1, 2.25e6);
    rt_contention_start(&rt, 1, 6 * MS, 2, 0x200, 1003);
    rt_contention_stop(&rt, 1, 65 * MS / 10, 0, 0); /* version 0: Stop - Start, 0.5 ms */
    rt_contention_start(&rt, 3, 7 * MS, 1, 0, 0);    /* version 1: no lock id */
    rt_seqpoint(&rt, 75 * MS / 10);
    rt_contention_stop(&rt, 3, 9 * MS, 0, 0); /* 2 ms */
    rt_contention_start(&rt, 1, 10 * MS, 2, 0x100, 1002);
    rt_contention_stop(&rt, 1, 105 * MS / 10, 1, 0.25e6);
    rt_contention_stop(&rt, 4, 11 * MS, 1, 1e6); /* no start: unmatched */
    rt_seqpoint(&rt, 115 * MS / 10);
    rt_contention_start(&rt, 2, 12 * MS, 2, 0x200, 1001);
    rt_contention_start(&rt, 2, 13 * MS, 2, 0x300, 1001); /* the stop of the one before was lost */
    rt_seqpoint(&rt, 135 * MS / 10);
    rt_contention_stop(&rt, 2, 14 * MS, 1, 1e6);
    rt_contention_start(&rt, 3, 15 * MS, 2, 0x100, 1001); /* never ends */
    rt_alloc_tick(&rt, 5, 16 * MS, 100000, 0);
    return rt_end(&rt, 1, size);
}

typedef struct want_row {
    uint64_t lock;
    uint32_t thread;
    uint64_t count, incomplete;
    double total, max;
} want_row;

static void check_rows(const ntidx_analysis *a, rt_trace *rt, const want_row *w, size_t n)
{
    assert_int_equal(ntidx_contention_count(a), n);
    for (size_t i = 0; i < n; i++) {
        const ntidx_contention *c = ntidx_contention_at(a, i);
        if (c->lock_id != w[i].lock || c->thread != rt_tid(rt, w[i].thread) || c->count != w[i].count ||
            c->incomplete != w[i].incomplete)
            fail_msg("row %zu: lock %" PRIx64 " thread %" PRIu64 " count %" PRIu64 " incomplete %" PRIu64
                     "; want lock %" PRIx64 " thread %u count %" PRIu64 " incomplete %" PRIu64,
                     i, c->lock_id, c->thread, c->count, c->incomplete, w[i].lock, w[i].thread, w[i].count,
                     w[i].incomplete);
        assert_ms(c->total_wait_ms, w[i].total);
        if (w[i].count)
            assert_ms(c->max_wait_ms, w[i].max);
        else
            assert_true(isnan(c->max_wait_ms));
        assert_int_equal(c->pid, PID);
        /* the table says the same */
        assert_int_equal(an_cell(a, 0, i, "lock_id").u, c->lock_id);
        assert_int_equal(an_cell(a, 0, i, "count").u, c->count);
        assert_int_equal(an_cell(a, 0, i, "max_wait_ms").is_null, w[i].count == 0);
    }
}

static void waits_of_version(int version)
{
    size_t size;
    uint8_t *data = make_waits(version, &size);
    analysed an;
    an_open(&an, data, size, "contention");
    ntidx_analysis_options o;
    ntidx_analysis_options_defaults(&o);
    an_analyse(&an, ntidx_contention_analyze, &o);
    rt_trace rt = {.v6 = version == 6};
    const want_row rows[] = {
        {0, 3, 1, 0, 2.0, 2.0},
        {0x100, 1, 2, 0, 1.75, 1.5},
        {0x100, 2, 1, 0, 2.25, 2.25},
        {0x100, 3, 0, 1, 0, 0},
        {0x200, 1, 1, 0, 0.5, 0.5},
        {0x200, 2, 0, 1, 0, 0},
        {0x300, 2, 1, 0, 1.0, 1.0},
    };
    check_rows(an.a, &rt, rows, sizeof rows / sizeof rows[0]);
    const ntidx_analysis_stats *st = ntidx_analysis_get_stats(an.a);
    assert_int_equal(st->events, 15);
    assert_int_equal(st->unmatched, 1);
    assert_int_equal(st->incomplete, 2);
    assert_int_equal(st->field_errors, 0);
    /* per lock */
    ntidx_table tb;
    assert_int_equal(ntidx_analysis_table(an.a, 1, &tb), NTIDX_OK);
    assert_string_equal(tb.name, "contention_locks");
    assert_int_equal(tb.rows, 4);
    assert_int_equal(an_cell(an.a, 1, 1, "lock_id").u, 0x100);
    assert_int_equal(an_cell(an.a, 1, 1, "thread_count").u, 3);
    assert_int_equal(an_cell(an.a, 1, 1, "count").u, 3);
    assert_int_equal(an_cell(an.a, 1, 1, "incomplete").u, 1);
    assert_ms(an_cell(an.a, 1, 1, "total_wait_ms").f, 4.0);
    assert_ms(an_cell(an.a, 1, 1, "max_wait_ms").f, 2.25);
    assert_ms(an_cell(an.a, 1, 1, "mean_wait_ms").f, 4.0 / 3);
    /* per wait, in the order of their starts */
    assert_int_equal(ntidx_analysis_table(an.a, 2, &tb), NTIDX_OK);
    assert_string_equal(tb.name, "contention_waits");
    assert_int_equal(tb.rows, 8);
    static const double starts[8] = {1, 2.5, 6, 7, 10, 12, 13, 15}, durations[8] = {1.5, 2.25, 0.5, 2, 0.25, NAN, 1, NAN};
    for (uint64_t r = 0; r < 8; r++) {
        assert_ms(an_cell(an.a, 2, r, "start_relative_ms").f, starts[r]);
        assert_int_equal(an_cell(an.a, 2, r, "ts").u, (uint64_t)(starts[r] * MS));
        ntidx_table_cell d = an_cell(an.a, 2, r, "duration_ms");
        if (isnan(durations[r])) {
            assert_true(d.is_null);
            assert_false(an_cell(an.a, 2, r, "is_complete").u);
        } else {
            assert_ms(d.f, durations[r]);
            assert_true(an_cell(an.a, 2, r, "is_complete").u);
        }
    }
    assert_int_equal(an_cell(an.a, 2, 0, "lock_owner_thread").u, 1002);
    assert_true(an_cell(an.a, 2, 3, "lock_owner_thread").is_null); /* version 1 */
    assert_string_equal(an_cell(an.a, 2, 0, "kind").s, "Managed");

    /* one thread's waits */
    o.has_thread = 1;
    o.thread = rt_tid(&rt, 2);
    an_analyse(&an, ntidx_contention_analyze, &o);
    const want_row two[] = {{0x100, 2, 1, 0, 2.25, 2.25}, {0x200, 2, 0, 1, 0, 0}, {0x300, 2, 1, 0, 1.0, 1.0}};
    check_rows(an.a, &rt, two, 3);

    /* a window: [4.5, 12.5) ms. The stop at 5 ms of the wait begun at 2.5 is unmatched here; the wait begun
       at 12 ms ends past the window with a start on its thread: left without a stop. */
    ntidx_analysis_options_defaults(&o);
    o.t0 = 45 * MS / 10;
    o.t1 = 125 * MS / 10;
    an_analyse(&an, ntidx_contention_analyze, &o);
    const want_row win[] = {{0, 3, 1, 0, 2.0, 2.0}, {0x100, 1, 1, 0, 0.25, 0.25}, {0x200, 1, 1, 0, 0.5, 0.5},
                            {0x200, 2, 0, 1, 0, 0}};
    check_rows(an.a, &rt, win, 4);
    assert_int_equal(ntidx_analysis_get_stats(an.a)->unmatched, 2);
    assert_int_equal(ntidx_analysis_get_stats(an.a)->incomplete, 1);

    /* [1, 2.9) ms: both waits end past the window. 1 ms of lookahead finds the stop at 3 ms, not the one
       at 5; none finds neither; the default finds both. */
    o.t0 = 1 * MS;
    o.t1 = 29 * MS / 10;
    o.lookahead_seconds = 0.001;
    an_analyse(&an, ntidx_contention_analyze, &o);
    const want_row near[] = {{0x100, 1, 1, 0, 1.5, 1.5}, {0x100, 2, 0, 1, 0, 0}};
    check_rows(an.a, &rt, near, 2);
    assert_true(ntidx_analysis_get_stats(an.a)->lookahead_events > 0);
    o.lookahead_seconds = 0;
    an_analyse(&an, ntidx_contention_analyze, &o);
    const want_row none[] = {{0x100, 1, 0, 1, 0, 0}, {0x100, 2, 0, 1, 0, 0}};
    check_rows(an.a, &rt, none, 2);
    assert_int_equal(ntidx_analysis_get_stats(an.a)->lookahead_events, 0);
    o.lookahead_seconds = 10;
    an_analyse(&an, ntidx_contention_analyze, &o);
    const want_row both[] = {{0x100, 1, 1, 0, 1.5, 1.5}, {0x100, 2, 1, 0, 2.25, 2.25}};
    check_rows(an.a, &rt, both, 2);
    an_close(&an);
}

static void test_waits_v5(void **state)
{
    (void)state;
    waits_of_version(5);
}

static void test_waits_v6(void **state)
{
    (void)state;
    waits_of_version(6);
}

/* A payload that does not fit its layout is skipped and counted; its stop then pairs with nothing. A trace
   cut off while a thread waits keeps the wait, incomplete. */
static void test_bad_payload_and_cut_off(void **state)
{
    (void)state;
    rt_trace rt;
    rt_begin(&rt, 5, PID);
    uint8_t short_payload[3] = {0, 9, 0};
    es_event(&rt, es_rt_meta(&rt, 81, 2), 1, 1 * MS, NULL, NULL, short_payload, 3);
    rt_contention_stop(&rt, 1, 2 * MS, 1, 1e6);
    rt_contention_start(&rt, 2, 3 * MS, 2, 0x10, 0);
    rt_seqpoint(&rt, 4 * MS);
    rt_contention_start(&rt, 3, 5 * MS, 2, 0x10, 1002);
    size_t size;
    uint8_t *data = rt_end(&rt, 0, &size); /* no end-of-stream: a writer that died */
    analysed an;
    an_open(&an, data, size, "cut");
    ntidx_analysis_options o;
    ntidx_analysis_options_defaults(&o);
    an_analyse(&an, ntidx_contention_analyze, &o);
    const ntidx_analysis_stats *st = ntidx_analysis_get_stats(an.a);
    assert_int_equal(st->field_errors, 1);
    assert_int_equal(st->unmatched, 1);
    assert_int_equal(st->incomplete, 2);
    const want_row rows[] = {{0x10, 2, 0, 1, 0, 0}, {0x10, 3, 0, 1, 0, 0}};
    check_rows(an.a, &rt, rows, 2);
    an_close(&an);
}

/* ---- A random run against one pass over its events ---- */

typedef struct rev {
    uint64_t ts;
    uint32_t thread;
    int start;
    uint64_t lock;
    double dur_ns;
} rev;

typedef struct rwait {
    uint64_t ts, lock;
    uint32_t thread;
    int complete;
    double ms;
} rwait;

#define NRANDOM 20000 /* over 8192 waits: the merge of the units' runs cut into buckets (sorted_runs.c) */

static uint8_t *make_random(rev *evs, size_t *size)
{
    rt_trace rt;
    rt_begin(&rt, 5, PID);
    uint64_t seed = 99, ts = 1000;
    int open[RT_THREADS] = {0};
    size_t next_sp = 25;
    for (size_t n = 0; n < NRANDOM; n++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t r = (uint32_t)(seed >> 33);
        uint32_t th = 1 + r % 5;
        ts += 1 + (r >> 8) % 300;
        int start = (r >> 20) % 12 == 0 ? open[th] : !open[th]; /* now and then a start twice, a stop twice */
        if (start) {
            uint64_t lock = 0x100 * (1 + (r >> 4) % 3);
            rt_contention_start(&rt, th, ts, 2, lock, 0);
            evs[n] = (rev){ts, th, 1, lock, 0};
        } else {
            double dur = (double)((r >> 3) % 100000);
            rt_contention_stop(&rt, th, ts, 1, dur);
            evs[n] = (rev){ts, th, 0, 0, dur};
        }
        open[th] = start;
        if (n == next_sp) {
            rt_seqpoint(&rt, ts);
            next_sp += 10 + (r >> 12) % 30;
        }
    }
    return rt_end(&rt, 1, size);
}

/* The waits of [t0, t1) and the stops up to t1 + ahead, in one pass; *unmatched the window's lone stops. */
static size_t reference(const rev *evs, uint64_t t0, uint64_t t1, uint64_t ahead, rwait *out, uint64_t *unmatched)
{
    int open[RT_THREADS] = {0};
    rwait cur[RT_THREADS];
    size_t n = 0;
    *unmatched = 0;
    for (size_t i = 0; i < NRANDOM; i++) {
        const rev *e = &evs[i];
        int inside = e->ts >= t0 && e->ts < t1, past = e->ts >= t1 && (t1 == UINT64_MAX || e->ts - t1 < ahead);
        if (!inside && !past)
            continue;
        if (e->start) {
            if (open[e->thread]) /* left without a stop */
                out[n++] = cur[e->thread];
            open[e->thread] = inside;
            cur[e->thread] = (rwait){e->ts, e->lock, e->thread, 0, NAN};
        } else if (open[e->thread]) {
            cur[e->thread].complete = 1;
            cur[e->thread].ms = e->dur_ns / 1e6;
            out[n++] = cur[e->thread];
            open[e->thread] = 0;
        } else if (inside) {
            ++*unmatched;
        }
    }
    for (uint32_t th = 0; th < RT_THREADS; th++)
        if (open[th])
            out[n++] = cur[th];
    /* in the order of their starts (one thread's waits never start at the same tick) */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && (out[j].ts < out[j - 1].ts || (out[j].ts == out[j - 1].ts && out[j].thread < out[j - 1].thread)); j--) {
            rwait t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

static void test_random(void **state)
{
    (void)state;
    static rev evs[NRANDOM];
    static rwait want[NRANDOM];
    size_t size;
    uint8_t *data = make_random(evs, &size);
    analysed an;
    an_open(&an, data, size, "random");
    assert_true(ntidx_index_region_count(an.x) > 20);
    uint64_t first = evs[0].ts, span = evs[NRANDOM - 1].ts - first;
    struct {
        uint64_t t0, t1, ahead;
    } windows[] = {
        {0, UINT64_MAX, 0},
        {first + span / 3, first + 2 * span / 3, 0},
        {first + span / 3, first + 2 * span / 3, 500},
        {first + span / 4, first + span / 2, UINT64_MAX / 4},
        {evs[200].ts, evs[200].ts + 1, 2000},
    };
    for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
        ntidx_analysis_options o;
        ntidx_analysis_options_defaults(&o);
        o.t0 = windows[w].t0;
        o.t1 = windows[w].t1;
        o.lookahead_seconds = (double)windows[w].ahead / 1e7;
        an_analyse(&an, ntidx_contention_analyze, &o);
        uint64_t unmatched;
        size_t n = reference(evs, windows[w].t0, windows[w].t1, windows[w].ahead, want, &unmatched);
        ntidx_table tb;
        assert_int_equal(ntidx_analysis_table(an.a, 2, &tb), NTIDX_OK);
        if (tb.rows != n || ntidx_analysis_get_stats(an.a)->unmatched != unmatched)
            fail_msg("window %zu: %" PRIu64 " waits (want %zu), %" PRIu64 " unmatched (want %" PRIu64 ")", w, tb.rows,
                     n, ntidx_analysis_get_stats(an.a)->unmatched, unmatched);
        double total = 0;
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(an_cell(an.a, 2, i, "ts").u, want[i].ts);
            assert_int_equal(an_cell(an.a, 2, i, "thread").u, want[i].thread);
            assert_int_equal(an_cell(an.a, 2, i, "lock_id").u, want[i].lock);
            assert_int_equal(an_cell(an.a, 2, i, "is_complete").u, (uint64_t)want[i].complete);
            if (want[i].complete) {
                assert_ms(an_cell(an.a, 2, i, "duration_ms").f, want[i].ms);
                total += want[i].ms;
            }
        }
        /* the rows per lock and thread add up to the waits */
        double rows_total = 0;
        for (size_t i = 0; i < ntidx_contention_count(an.a); i++)
            rows_total += ntidx_contention_at(an.a, i)->total_wait_ms;
        assert_true(fabs(rows_total - total) < 1e-6);
        /* each row's total added up in the order of its waits' starts, as one pass adds them: exactly */
        for (size_t i = 0; i < ntidx_contention_count(an.a); i++) {
            const ntidx_contention *c = ntidx_contention_at(an.a, i);
            double sum = 0;
            uint64_t count = 0;
            for (size_t k = 0; k < n; k++)
                if (want[k].complete && want[k].lock == c->lock_id && want[k].thread == c->thread) {
                    sum += want[k].ms;
                    count++;
                }
            assert_int_equal(c->count, count);
            if (sum != c->total_wait_ms)
                fail_msg("window %zu, lock %" PRIx64 " thread %" PRIu64 ": %.17g, want %.17g", w, c->lock_id,
                         c->thread, c->total_wait_ms, sum);
        }
        /* and each lock's, its waits of every thread in the order of their starts */
        ntidx_table lt;
        assert_int_equal(ntidx_analysis_table(an.a, 1, &lt), NTIDX_OK);
        for (uint64_t i = 0; i < lt.rows; i++) {
            uint64_t lock = an_cell(an.a, 1, i, "lock_id").u;
            double sum = 0;
            for (size_t k = 0; k < n; k++)
                if (want[k].complete && want[k].lock == lock)
                    sum += want[k].ms;
            double got = an_cell(an.a, 1, i, "total_wait_ms").f;
            if (sum != got)
                fail_msg("window %zu, lock %" PRIx64 ": %.17g, want %.17g", w, lock, got, sum);
        }
    }
    an_close(&an);
}

/* The .NET Core 3.0 trace: eight waits (Contention v1: no lock ids), their lengths the stops' DurationNs. */
static void test_real(void **state)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", (const char *)*state, "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace");
    analysed an;
    memset(&an, 0, sizeof an);
    assert_int_equal(ntidx_trace_open(path, &an.t), NTIDX_OK);
    assert_int_equal(ntidx_index_build(an.t, NULL, &an.x), NTIDX_OK);
    ntidx_index_options fo;
    ntidx_index_options_defaults(&fo);
    fo.full = 1;
    assert_int_equal(ntidx_index_build(an.t, &fo, &an.full), NTIDX_OK);
    ntidx_analysis_options o;
    ntidx_analysis_options_defaults(&o);
    an_analyse(&an, ntidx_contention_analyze, &o);
    assert_int_equal(ntidx_contention_count(an.a), 6);
    const ntidx_contention *c = ntidx_contention_at(an.a, 4); /* thread 12248: two waits */
    assert_int_equal(c->lock_id, 0);
    assert_int_equal(c->thread, 12248);
    assert_int_equal(c->count, 2);
    assert_ms(c->total_wait_ms, 137516448.74250144 / 1e6 + 5921387.2543731807 / 1e6);
    assert_ms(c->max_wait_ms, 137516448.74250144 / 1e6);
    const ntidx_analysis_stats *st = ntidx_analysis_get_stats(an.a);
    assert_int_equal(st->events, 16);
    assert_int_equal(st->unmatched + st->incomplete + st->field_errors, 0);
    /* a --full index reads only the blocks that can hold contention events */
    ntidx_analysis *plain, *full;
    assert_int_equal(ntidx_contention_analyze(an.t, an.x, &o, &plain), NTIDX_OK);
    assert_int_equal(ntidx_contention_analyze(an.t, an.full, &o, &full), NTIDX_OK);
    assert_true(ntidx_analysis_get_stats(full)->bytes_read < ntidx_analysis_get_stats(plain)->bytes_read / 2);
    ntidx_analysis_free(&plain);
    ntidx_analysis_free(&full);
    /* typed accessors refuse another analysis */
    ntidx_analysis *gc;
    assert_int_equal(ntidx_gc_analyze(an.t, an.x, &o, &gc), NTIDX_OK);
    assert_int_equal(ntidx_contention_count(gc), 0);
    assert_null(ntidx_contention_at(gc, 0));
    assert_null(ntidx_contention_at(an.a, 6));
    ntidx_analysis_free(&gc);
    ntidx_analysis_free(&an.a);
    ntidx_index_close(&an.full);
    ntidx_index_close(&an.x);
    ntidx_trace_close(&an.t);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "../shared/traces";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_waits_v5),
        cmocka_unit_test(test_waits_v6),
        cmocka_unit_test(test_bad_payload_and_cut_off),
        cmocka_unit_test(test_random),
        cmocka_unit_test_prestate(test_real, (void *)dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
