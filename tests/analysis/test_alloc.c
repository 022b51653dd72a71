/*
 * The allocation analysis (ntidx_alloc_analyze) over traces written with the
 * runtime's GC/AllocationTick events (rt_trace.h), every sum known in
 * advance, analysed under every cut into units and thread count and over a
 * --full index (an_check.h); and over the real .NET Core 3.0 trace.
 */
#include "an_check.h"

#define MS RT_MS

/* Ticks over three regions; a version-1 tick (no type name, no 64-bit amount), a tick of a kind TraceEvent
   does not name, and one whose payload is cut short. */
static uint8_t *alloc_trace(int version, size_t *size)
{
    rt_trace rt;
    rt_begin(&rt, version, 4242);
    rt_alloc_tick_named(&rt, 2, 1, 1 * MS, 100000, 0, "System.Byte[]");
    rt_alloc_tick_named(&rt, 2, 2, 2 * MS, 120000, 0, "System.String");
    rt_alloc_tick_named(&rt, 2, 1, 3 * MS, 90000, 1, "System.Byte[]");
    rt_seqpoint(&rt, 5 * MS);
    rt_alloc_tick_named(&rt, 2, 1, 6 * MS, 110000, 0, "System.Byte[]");
    rt_alloc_tick_named(&rt, 2, 3, 7 * MS, 100000, 2, "System.Byte[]");
    rt_alloc_tick_named(&rt, 2, 2, 8 * MS, 1000, 7, "Odd");
    rt_seqpoint(&rt, 10 * MS);
    rt_alloc_tick_named(&rt, 1, 1, 12 * MS, 105000, 0, NULL);
    uint8_t three[3] = {1, 2, 3};
    rt_event(&rt, 10, 2, 1, 13 * MS, three, 3);
    rt_alloc_tick_named(&rt, 2, 2, 14 * MS, 100, 0, "System.String");
    return rt_end(&rt, 1, size);
}

static void check_row(const ntidx_analysis *a, size_t i, const char *type, const char *kind, uint64_t count,
                      uint64_t bytes)
{
    const ntidx_alloc_type *t = ntidx_alloc_at(a, i);
    assert_non_null(t);
    char buf[16];
    if (strcmp(t->type_name, type) || strcmp(ntidx_alloc_kind_name(t->kind, buf, sizeof buf), kind) ||
        t->count != count || t->bytes != bytes)
        fail_msg("row %zu: %s %s %" PRIu64 " %" PRIu64 ", want %s %s %" PRIu64 " %" PRIu64, i, t->type_name,
                 ntidx_alloc_kind_name(t->kind, buf, sizeof buf), t->count, t->bytes, type, kind, count, bytes);
    /* the generic table says the same */
    assert_string_equal(an_cell(a, 0, i, "type_name").s, type);
    assert_string_equal(an_cell(a, 0, i, "kind").s, kind);
    assert_int_equal(an_cell(a, 0, i, "count").u, count);
    assert_int_equal(an_cell(a, 0, i, "bytes").u, bytes);
}

static void test_whole(void **state)
{
    (void)state;
    for (int v = 5; v <= 6; v++) {
        size_t size;
        uint8_t *data = alloc_trace(v, &size);
        analysed an;
        an_open(&an, data, size, "alloc");
        assert_true(ntidx_index_region_count(an.x) >= 3);
        an_analyse_default(&an, ntidx_alloc_analyze);
        assert_string_equal(ntidx_analysis_name(an.a), "alloc");
        assert_int_equal(ntidx_alloc_count(an.a), 6);
        /* the largest first */
        check_row(an.a, 0, "System.Byte[]", "Small", 2, 210000);
        check_row(an.a, 1, "System.String", "Small", 2, 120100);
        check_row(an.a, 2, "", "Small", 1, 105000); /* version 1: no type name, AllocationAmount */
        check_row(an.a, 3, "System.Byte[]", "Pinned", 1, 100000);
        check_row(an.a, 4, "System.Byte[]", "Large", 1, 90000);
        check_row(an.a, 5, "Odd", "7", 1, 1000);
        const ntidx_alloc_type *t = ntidx_alloc_at(an.a, 0);
        assert_int_equal(t->first_ts, 1 * MS);
        assert_int_equal(t->last_ts, 6 * MS);
        assert_ms(an_cell(an.a, 0, 0, "first_relative_ms").f, 1.0);
        assert_ms(an_cell(an.a, 0, 0, "last_relative_ms").f, 6.0);
        /* the summary per kind, then all */
        ntidx_table tb;
        assert_int_equal(ntidx_analysis_table(an.a, 1, &tb), NTIDX_OK);
        assert_string_equal(tb.name, "alloc_summary");
        assert_int_equal(tb.rows, 5);
        static const struct {
            const char *kind;
            uint64_t count, bytes, types;
        } sums[] = {{"Small", 5, 435100, 3}, {"Large", 1, 90000, 1}, {"Pinned", 1, 100000, 1}, {"7", 1, 1000, 1},
                    {"all", 8, 626100, 4}};
        for (size_t r = 0; r < 5; r++) {
            assert_string_equal(an_cell(an.a, 1, r, "kind").s, sums[r].kind);
            assert_int_equal(an_cell(an.a, 1, r, "count").u, sums[r].count);
            assert_int_equal(an_cell(an.a, 1, r, "bytes").u, sums[r].bytes);
            assert_int_equal(an_cell(an.a, 1, r, "type_count").u, sums[r].types);
        }
        const ntidx_analysis_stats *st = ntidx_analysis_get_stats(an.a);
        assert_int_equal(st->events, 9);
        assert_int_equal(st->field_errors, 1); /* the tick cut short */
        assert_int_equal(st->unmatched, 0);
        assert_int_equal(st->incomplete, 0);
        an_close(&an);
    }
}

static void test_window_and_thread(void **state)
{
    (void)state;
    size_t size;
    uint8_t *data = alloc_trace(6, &size);
    analysed an;
    an_open(&an, data, size, "alloc-window");
    ntidx_analysis_options o;
    ntidx_analysis_options_defaults(&o);
    o.t0 = 5 * MS;
    o.t1 = 10 * MS;
    an_analyse(&an, ntidx_alloc_analyze, &o);
    assert_int_equal(ntidx_alloc_count(an.a), 3);
    check_row(an.a, 0, "System.Byte[]", "Small", 1, 110000);
    check_row(an.a, 1, "System.Byte[]", "Pinned", 1, 100000);
    check_row(an.a, 2, "Odd", "7", 1, 1000);
    assert_int_equal(ntidx_analysis_get_stats(an.a)->events, 3);
    /* thread 2's ticks only */
    ntidx_analysis_options_defaults(&o);
    o.has_thread = 1;
    o.thread = 1002;
    an_analyse(&an, ntidx_alloc_analyze, &o);
    assert_int_equal(ntidx_alloc_count(an.a), 2);
    check_row(an.a, 0, "System.String", "Small", 2, 120100);
    check_row(an.a, 1, "Odd", "7", 1, 1000);
    /* an empty window: no rows, the summary's "all" row zero */
    ntidx_analysis_options_defaults(&o);
    o.t0 = o.t1 = 5 * MS;
    an_analyse(&an, ntidx_alloc_analyze, &o);
    assert_int_equal(ntidx_alloc_count(an.a), 0);
    ntidx_table tb;
    assert_int_equal(ntidx_analysis_table(an.a, 1, &tb), NTIDX_OK);
    assert_int_equal(tb.rows, 1);
    assert_string_equal(an_cell(an.a, 1, 0, "kind").s, "all");
    assert_int_equal(an_cell(an.a, 1, 0, "count").u, 0);
    /* the typed accessors of another analysis */
    assert_null(ntidx_alloc_at(an.a, 0));
    assert_int_equal(ntidx_gc_count(an.a), 0);
    assert_null(ntidx_gc_at(an.a, 0));
    assert_int_equal(ntidx_alloc_count(NULL), 0);
    char buf[8];
    assert_string_equal(ntidx_alloc_kind_name(1, buf, sizeof buf), "Large");
    assert_string_equal(ntidx_alloc_kind_name(-3, buf, sizeof buf), "-3");
    an_close(&an);
}

/* The .NET Core 3.0 trace: 35458 allocation ticks; the sums against the events themselves. */
static void test_real(void **state)
{
    const char *dir = *state;
    char path[1024];
    snprintf(path, sizeof path, "%s/eventpipe-dotnetcore3.0-win-x64-objver4.nettrace", dir);
    analysed an;
    memset(&an, 0, sizeof an);
    assert_int_equal(ntidx_trace_open(path, &an.t), NTIDX_OK);
    assert_int_equal(ntidx_index_build(an.t, NULL, &an.x), NTIDX_OK);
    ntidx_index_options fo;
    ntidx_index_options_defaults(&fo);
    fo.full = 1;
    assert_int_equal(ntidx_index_build(an.t, &fo, &an.full), NTIDX_OK);
    an_analyse_default(&an, ntidx_alloc_analyze);
    const ntidx_analysis_stats *st = ntidx_analysis_get_stats(an.a);
    assert_int_equal(st->events, 35458);
    assert_int_equal(st->field_errors, 0);
    /* every tick in the rows once; the bytes those of the events, read with a query */
    uint64_t ticks = 0, bytes = 0;
    for (size_t i = 0; i < ntidx_alloc_count(an.a); i++) {
        ticks += ntidx_alloc_at(an.a, i)->count;
        bytes += ntidx_alloc_at(an.a, i)->bytes;
        if (i)
            assert_true(ntidx_alloc_at(an.a, i - 1)->bytes >= ntidx_alloc_at(an.a, i)->bytes);
    }
    assert_int_equal(ticks, 35458);
    ntidx_query_options qo;
    ntidx_query_options_defaults(&qo);
    qo.provider = RT_PROVIDER;
    qo.has_event_id = 1;
    qo.event_id = 10;
    ntidx_query *q;
    ntidx_values *v;
    assert_int_equal(ntidx_query_open(an.t, an.x, &qo, &q), NTIDX_OK);
    assert_int_equal(ntidx_values_new(&v), NTIDX_OK);
    const ntidx_event *ev;
    uint64_t want = 0, n = 0;
    while (ntidx_query_next(q, &ev) == 1) {
        assert_int_equal(ntidx_values_decode(v, an.t, ev), NTIDX_OK);
        want += ntidx_values_find(v, "AllocationAmount64")->u;
        n++;
    }
    assert_int_equal(n, 35458);
    assert_int_equal(bytes, want);
    ntidx_values_free(&v);
    ntidx_query_close(&q);
    /* a --full index reads fewer bytes for the same answer */
    ntidx_analysis_options o;
    ntidx_analysis_options_defaults(&o);
    ntidx_analysis *plain, *full;
    assert_int_equal(ntidx_alloc_analyze(an.t, an.x, &o, &plain), NTIDX_OK);
    assert_int_equal(ntidx_alloc_analyze(an.t, an.full, &o, &full), NTIDX_OK);
    assert_true(ntidx_analysis_get_stats(full)->bytes_read <= ntidx_analysis_get_stats(plain)->bytes_read);
    ntidx_analysis_free(&plain);
    ntidx_analysis_free(&full);
    ntidx_analysis_free(&an.a);
    ntidx_index_close(&an.full);
    ntidx_index_close(&an.x);
    ntidx_trace_close(&an.t);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "../shared/traces";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole),
        cmocka_unit_test(test_window_and_thread),
        cmocka_unit_test_prestate(test_real, (void *)dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
