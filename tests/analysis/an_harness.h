/*
 * What the analysis tests share: a trace in memory with a plain and a
 * --full index, and an analysis run under every cut into units and thread
 * count, over both indexes, whose results must be equal cell by cell (the
 * merge makes the answer independent of how the window was read).
 */
#ifndef NTIDX_TESTS_AN_HARNESS_H
#define NTIDX_TESTS_AN_HARNESS_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "rt_trace.h"

#include <ntidx/analysis.h>

typedef int (*an_fn)(ntidx_trace *t, const ntidx_index *x, const ntidx_analysis_options *o, ntidx_analysis **out);

typedef struct analysed {
    ntidx_analysis *a;
    ntidx_trace *t;
    ntidx_index *x, *full;
    uint8_t *data;
} analysed;

static inline void an_open(analysed *an, uint8_t *data, size_t size, const char *name)
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

static inline void an_close(analysed *an)
{
    ntidx_analysis_free(&an->a);
    ntidx_index_close(&an->full);
    ntidx_index_close(&an->x);
    ntidx_trace_close(&an->t);
    free(an->data);
}

/* Every cell of every table of two results equal (NaN equal to NaN), and the counters. */
static inline void an_assert_same(const ntidx_analysis *a, const ntidx_analysis *b, const char *what)
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
                    fail_msg("%s: table %s row %" PRIu64 " column %s differs (%g and %g; %s and %s)", what, ta.name,
                             r, ta.columns[c].name, x.f, y.f, x.s ? x.s : "(null)", y.s ? y.s : "(null)");
            }
    }
    const ntidx_analysis_stats *sa = ntidx_analysis_get_stats(a), *sb = ntidx_analysis_get_stats(b);
    assert_int_equal(sa->events, sb->events);
    assert_int_equal(sa->field_errors, sb->field_errors);
    assert_int_equal(sa->unmatched, sb->unmatched);
    assert_int_equal(sa->incomplete, sb->incomplete);
}

/*
 * Analyse with `fn` and `base` under every cut and thread count, over both
 * indexes; all must agree. an->a keeps the one-region-per-unit, two-thread
 * result over the plain index.
 */
static inline void an_run(analysed *an, an_fn fn, const ntidx_analysis_options *base)
{
    ntidx_analysis_free(&an->a);
    static const struct {
        unsigned threads;
        uint64_t unit_regions;
    } cfg[] = {{2, 1}, {1, 1}, {1, 0}, {2, 0}, {1, 1000}, {2, 2}, {2, 3}};
    for (size_t i = 0; i < sizeof cfg / sizeof cfg[0]; i++)
        for (int full = 0; full < 2; full++) {
            ntidx_analysis_options o = *base;
            o.threads = cfg[i].threads;
            o.unit_regions = cfg[i].unit_regions;
            ntidx_analysis *a = NULL;
            assert_int_equal(fn(an->t, full ? an->full : an->x, &o, &a), NTIDX_OK);
            if (!an->a) {
                an->a = a;
                continue;
            }
            char what[96];
            snprintf(what, sizeof what, "%u threads, units of %" PRIu64 " regions%s", cfg[i].threads,
                     cfg[i].unit_regions, full ? ", --full index" : "");
            an_assert_same(an->a, a, what);
            ntidx_analysis_free(&a);
        }
}

static inline void an_run_default(analysed *an, an_fn fn)
{
    ntidx_analysis_options o;
    ntidx_analysis_options_defaults(&o);
    an_run(an, fn, &o);
}

/* The column named `key` of table k (fails when there is none). */
static inline size_t an_column(const ntidx_analysis *a, size_t k, const char *key)
{
    ntidx_table tb;
    assert_int_equal(ntidx_analysis_table(a, k, &tb), NTIDX_OK);
    for (size_t c = 0; c < tb.column_count; c++)
        if (!strcmp(tb.columns[c].name, key))
            return c;
    fail_msg("table %s has no column %s", tb.name, key);
    return 0;
}

/* The cell of row r, column `key` of table k. */
static inline ntidx_table_cell an_cell(const ntidx_analysis *a, size_t k, uint64_t r, const char *key)
{
    ntidx_table_cell v;
    assert_int_equal(ntidx_analysis_cell(a, k, r, an_column(a, k, key), &v), NTIDX_OK);
    return v;
}

#define assert_ms(x, want)                                                                                         \
    do {                                                                                                           \
        double x_ = (x), w_ = (want);                                                                              \
        if (fabs(x_ - w_) > 1e-9)                                                                                   \
            fail_msg("%s is %.12g, want %.12g", #x, x_, w_);                                                       \
    } while (0)

#endif
