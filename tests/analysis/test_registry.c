/*
 * The analyses by name (ntidx_analysis_count(), ntidx_analysis_info_at(),
 * ntidx_analysis_find(), ntidx_analyze()): the list every generic door
 * (Python, Dask, SQL) builds its methods and tables from.
 *
 * For every analysis the library lists, on every real trace: the tables its
 * results hold are the ones its entry declares, names, columns and types in
 * order (the SQL tables declare their columns from the entry before any
 * run, and a DataFrame of no rows takes its types from it), and
 * ntidx_analyze() gives what its own entry point gives.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <ntidx/analysis.h>

static const char *const real_traces[] = {
    "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace", "eventpipe-dotnetcore2.1-linux-x64-objver3.netperf",
    "eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace",
    "eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace", "only_managed_samples.nettrace"};

static void test_list(void **state)
{
    (void)state;
    size_t n = ntidx_analysis_count();
    assert_true(n >= 1);
    for (size_t k = 0; k < n; k++) {
        const ntidx_analysis_info *info = ntidx_analysis_info_at(k);
        assert_non_null(info);
        assert_non_null(info->name);
        assert_non_null(info->summary);
        assert_non_null(info->analyze);
        assert_true(info->table_count >= 1);
        assert_ptr_equal(ntidx_analysis_find(info->name), info); /* names are unique */
        for (size_t i = 0; i < info->table_count; i++) {
            const ntidx_table *tb = &info->tables[i];
            assert_non_null(tb->name);
            assert_true(tb->column_count >= 1);
            assert_int_equal(tb->rows, 0);
            for (size_t c = 0; c < tb->column_count; c++) {
                assert_non_null(tb->columns[c].name);
                assert_true(tb->columns[c].type >= NTIDX_COLUMN_INT && tb->columns[c].type <= NTIDX_COLUMN_STRING);
                for (size_t d = 0; d < c; d++) /* a column name once per table: the SQL tables need it */
                    assert_string_not_equal(tb->columns[c].name, tb->columns[d].name);
            }
            /* table names are unique across analyses: each is an SQL table of its own */
            for (size_t j = 0; j < n; j++)
                for (size_t m = 0; m < ntidx_analysis_info_at(j)->table_count; m++)
                    if (j != k || m != i)
                        assert_string_not_equal(tb->name, ntidx_analysis_info_at(j)->tables[m].name);
        }
    }
    assert_null(ntidx_analysis_info_at(n));
    const ntidx_analysis_info *gc = ntidx_analysis_find("gc");
    assert_non_null(gc);
    assert_ptr_equal(gc->analyze, ntidx_gc_analyze);
    assert_string_equal(gc->tables[0].name, "gc");
    assert_string_equal(gc->tables[1].name, "gc_summary");
    assert_null(ntidx_analysis_find("GC")); /* exactly */
    assert_null(ntidx_analysis_find("nothing"));
    assert_null(ntidx_analysis_find(NULL));
}

static void test_unknown_name(void **state)
{
    const char *dir = *state;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, real_traces[0]);
    ntidx_trace *t;
    ntidx_index *x;
    assert_int_equal(ntidx_trace_open(path, &t), NTIDX_OK);
    assert_int_equal(ntidx_index_build(t, NULL, &x), NTIDX_OK);
    ntidx_analysis *a = (ntidx_analysis *)&a; /* set to NULL on failure */
    assert_int_equal(ntidx_analyze("gcc", t, x, NULL, &a), NTIDX_E_INVALID_ARG);
    assert_null(a);
    const char *msg = ntidx_last_error();
    assert_non_null(strstr(msg, "no analysis named 'gcc'"));
    assert_non_null(strstr(msg, "gc")); /* the names it has */
    assert_int_equal(ntidx_analyze(NULL, t, x, NULL, &a), NTIDX_E_INVALID_ARG);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
}

/* The result's tables are the entry's, and the same cells through ntidx_analyze() as through the entry point. */
static void check_one(const ntidx_analysis_info *info, ntidx_trace *t, ntidx_index *x, const ntidx_analysis_options *o)
{
    ntidx_analysis *a, *b;
    assert_int_equal(ntidx_analyze(info->name, t, x, o, &a), NTIDX_OK);
    assert_int_equal(info->analyze(t, x, o, &b), NTIDX_OK);
    assert_string_equal(ntidx_analysis_name(a), info->name);
    assert_int_equal(ntidx_analysis_table_count(a), info->table_count);
    for (size_t k = 0; k < info->table_count; k++) {
        ntidx_table tb, tb2;
        assert_int_equal(ntidx_analysis_table(a, k, &tb), NTIDX_OK);
        assert_int_equal(ntidx_analysis_table(b, k, &tb2), NTIDX_OK);
        assert_string_equal(tb.name, info->tables[k].name);
        assert_int_equal(tb.column_count, info->tables[k].column_count);
        for (size_t c = 0; c < tb.column_count; c++) {
            assert_string_equal(tb.columns[c].name, info->tables[k].columns[c].name);
            assert_int_equal(tb.columns[c].type, info->tables[k].columns[c].type);
        }
        assert_int_equal(tb.rows, tb2.rows);
        for (uint64_t r = 0; r < tb.rows; r++)
            for (size_t c = 0; c < tb.column_count; c++) {
                ntidx_table_cell u, v;
                assert_int_equal(ntidx_analysis_cell(a, k, r, c, &u), NTIDX_OK);
                assert_int_equal(ntidx_analysis_cell(b, k, r, c, &v), NTIDX_OK);
                assert_int_equal(u.type, tb.columns[c].type);
                assert_int_equal(u.is_null, v.is_null);
                if (u.is_null)
                    continue;
                if (u.type == NTIDX_COLUMN_STRING)
                    assert_string_equal(u.s, v.s);
                else if (u.type == NTIDX_COLUMN_DOUBLE)
                    assert_true(u.f == v.f);
                else
                    assert_true(u.i == v.i && u.u == v.u);
            }
    }
    ntidx_analysis_free(&a);
    ntidx_analysis_free(&b);
}

static void test_every_analysis_on_real_traces(void **state)
{
    const char *dir = *state;
    for (size_t i = 0; i < sizeof real_traces / sizeof real_traces[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, real_traces[i]);
        ntidx_trace *t;
        ntidx_index *x;
        assert_int_equal(ntidx_trace_open(path, &t), NTIDX_OK);
        assert_int_equal(ntidx_index_build(t, NULL, &x), NTIDX_OK); /* in memory: nothing beside the trace */
        ntidx_analysis_options o, empty;
        ntidx_analysis_options_defaults(&o);
        ntidx_analysis_options_defaults(&empty);
        empty.t0 = empty.t1 = ntidx_trace_get_info(t)->sync_ticks; /* no rows: the tables are still there */
        for (size_t k = 0; k < ntidx_analysis_count(); k++) {
            check_one(ntidx_analysis_info_at(k), t, x, &o);
            check_one(ntidx_analysis_info_at(k), t, x, &empty);
        }
        ntidx_index_close(&x);
        ntidx_trace_close(&t);
    }
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "../shared/traces";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list),
        cmocka_unit_test_prestate(test_unknown_name, (void *)dir),
        cmocka_unit_test_prestate(test_every_analysis_on_real_traces, (void *)dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
