/*
 * What every analysis test checks the same way: a trace in memory with a
 * plain and a --full index; an analysis run under every cut into units
 * (every region a unit, a few regions a unit, the automatic cut, all in
 * one), on one and two threads, over both indexes, and every table cell and
 * counter equal across them (NaN equal to NaN).
 */
#ifndef NTIDX_TESTS_AN_CHECK_H
#define NTIDX_TESTS_AN_CHECK_H

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
                char text[NTIDX_CELL_BUF_SIZE]; /* b's strings made into a buffer: the same values */
                assert_int_equal(ntidx_analysis_cell(a, k, r, c, &x), NTIDX_OK);
                assert_int_equal(ntidx_analysis_cell_buf(b, k, r, c, &y, text, sizeof text), NTIDX_OK);
                int same = x.is_null == y.is_null && x.i == y.i && x.u == y.u &&
                           (x.f == y.f || (isnan(x.f) && isnan(y.f))) &&
                           (x.s == y.s || (x.s && y.s && !strcmp(x.s, y.s)));
                if (!same)
                    fail_msg("%s: table %s row %" PRIu64 " column %s differs (%g %" PRIu64 " %s and %g %" PRIu64
                             " %s)", what, ta.name, r, ta.columns[c].name, x.f, x.u, x.s ? x.s : "-", y.f, y.u,
                             y.s ? y.s : "-");
            }
    }
    const ntidx_analysis_stats *sa = ntidx_analysis_get_stats(a), *sb = ntidx_analysis_get_stats(b);
    if (sa->events != sb->events || sa->field_errors != sb->field_errors || sa->unmatched != sb->unmatched ||
        sa->incomplete != sb->incomplete)
        fail_msg("%s: counts differ: events %" PRIu64 "/%" PRIu64 ", field errors %" PRIu64 "/%" PRIu64
                 ", unmatched %" PRIu64 "/%" PRIu64 ", incomplete %" PRIu64 "/%" PRIu64,
                 what, sa->events, sb->events, sa->field_errors, sb->field_errors, sa->unmatched, sb->unmatched,
                 sa->incomplete, sb->incomplete);
}

/*
 * Run `fn` with `base` under every cut and thread count and over both
 * indexes; all must agree. Keeps the first (every region a unit, two
 * threads) in an->a.
 */
static inline void an_analyse(analysed *an, an_fn fn, const ntidx_analysis_options *base)
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

/* an_analyse() with the default options: the whole trace. */
static inline void an_analyse_default(analysed *an, an_fn fn)
{
    ntidx_analysis_options o;
    ntidx_analysis_options_defaults(&o);
    an_analyse(an, fn, &o);
}

/* The column named `name` of table k (fails when there is none). */
static inline size_t an_col(const ntidx_analysis *a, size_t k, const char *name)
{
    ntidx_table tb;
    assert_int_equal(ntidx_analysis_table(a, k, &tb), NTIDX_OK);
    for (size_t c = 0; c < tb.column_count; c++)
        if (!strcmp(tb.columns[c].name, name))
            return c;
    fail_msg("table %s has no column %s", tb.name, name);
    return 0;
}

/* Cells by column name. */
static inline ntidx_table_cell an_cell(const ntidx_analysis *a, size_t k, uint64_t row, const char *name)
{
    ntidx_table_cell v;
    assert_int_equal(ntidx_analysis_cell(a, k, row, an_col(a, k, name), &v), NTIDX_OK);
    return v;
}

#define assert_ms(x, want)                                                                                         \
    do {                                                                                                           \
        double x_ = (x), w_ = (want);                                                                              \
        if (fabs(x_ - w_) > 1e-9)                                                                                   \
            fail_msg("%s is %.12g, want %.12g", #x, x_, w_);                                                       \
    } while (0)

#endif
