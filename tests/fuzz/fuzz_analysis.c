/*
 * fuzz_analysis: any bytes as a trace, analysed (include/ntidx/analysis.h).
 *
 * The trace opened from memory and indexed, then the GC, JIT, allocation,
 * exceptions, contention and activities analyses and the CPU analysis with
 * its call tree (by thread) of the whole trace, twice: one unit on one
 * thread, and every region a unit of its own on two threads; and once over
 * the first half of the trace with its lookahead. Never a crash, a read
 * outside the input or an error without a message; every cell of every
 * table readable (strings present unless null); and the two whole-trace
 * results equal cell by cell (the merge's promise: the same answer for any
 * cut into units and any number of threads).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ntidx/analysis.h>
#include <ntidx/index.h>
#include <ntidx/ntidx.h>

#include "fuzz_util.h"

typedef int (*analyze_fn)(ntidx_trace *t, const ntidx_index *x, const ntidx_analysis_options *o, ntidx_analysis **out);

/* The CPU analysis with its call tree, per thread: the tree's rows must not depend on the cut into units. */
static int cpu_tree_analyze(ntidx_trace *t, const ntidx_index *x, const ntidx_analysis_options *o, ntidx_analysis **out)
{
    ntidx_cpu_options co;
    ntidx_cpu_options_defaults(&co);
    co.tree = 1;
    co.by_thread = 1;
    return ntidx_cpu_analyze(t, x, o, &co, out);
}

static const struct {
    const char *name;
    analyze_fn fn;
} analyses[] = {
    {"gc", ntidx_gc_analyze},
    {"jit", ntidx_jit_analyze},
    {"alloc", ntidx_alloc_analyze},
    {"exceptions", ntidx_exceptions_analyze},
    {"contention", ntidx_contention_analyze},
    {"activities", ntidx_activities_analyze},
    {"cpu-tree", cpu_tree_analyze},
};

/* Run one analysis: NULL on an error (which must have a message), else the result with every cell read. */
static ntidx_analysis *run(ntidx_trace *t, const ntidx_index *x, analyze_fn fn, const ntidx_analysis_options *o,
                           const char *what)
{
    ntidx_analysis *a = NULL;
    int rc = fn(t, x, o, &a);
    if (rc < 0) {
        FUZZ_CHECK(a == NULL, "%s: error %d with a result", what, rc);
        FUZZ_CHECK(ntidx_last_error()[0], "%s: error %d (%s) without a message", what, rc, ntidx_strerror(rc));
        return NULL;
    }
    FUZZ_CHECK(a != NULL, "%s: no result", what);
    size_t nt = ntidx_analysis_table_count(a);
    FUZZ_CHECK(nt >= 1, "%s: no table", what);
    for (size_t k = 0; k < nt; k++) {
        ntidx_table tb;
        FUZZ_CHECK(ntidx_analysis_table(a, k, &tb) == NTIDX_OK, "%s: table %zu", what, k);
        for (uint64_t r = 0; r < tb.rows; r++)
            for (size_t c = 0; c < tb.column_count; c++) {
                ntidx_table_cell v;
                FUZZ_CHECK(ntidx_analysis_cell(a, k, r, c, &v) == NTIDX_OK, "%s: cell", what);
                FUZZ_CHECK(v.type == tb.columns[c].type, "%s: cell type", what);
                if (v.type == NTIDX_COLUMN_STRING && !v.is_null)
                    FUZZ_CHECK(v.s != NULL && strlen(v.s) < (1u << 24), "%s: string cell", what);
            }
    }
    return a;
}

static int same_cell(const ntidx_table_cell *x, const ntidx_table_cell *y)
{
    if (x->is_null != y->is_null || x->i != y->i || x->u != y->u)
        return 0;
    if (!(x->f == y->f || (isnan(x->f) && isnan(y->f))))
        return 0;
    return x->s == y->s || (x->s && y->s && !strcmp(x->s, y->s));
}

static void check_same(const ntidx_analysis *a, const ntidx_analysis *b, const char *name)
{
    FUZZ_CHECK(ntidx_analysis_table_count(a) == ntidx_analysis_table_count(b), "%s: tables", name);
    for (size_t k = 0; k < ntidx_analysis_table_count(a); k++) {
        ntidx_table ta, tb;
        FUZZ_CHECK(ntidx_analysis_table(a, k, &ta) == NTIDX_OK && ntidx_analysis_table(b, k, &tb) == NTIDX_OK,
                   "%s: table", name);
        FUZZ_CHECK(ta.rows == tb.rows, "%s: table %s has %llu rows in one unit, %llu in units of a region", name,
                   ta.name, (unsigned long long)ta.rows, (unsigned long long)tb.rows);
        for (uint64_t r = 0; r < ta.rows; r++)
            for (size_t c = 0; c < ta.column_count; c++) {
                ntidx_table_cell x, y;
                FUZZ_CHECK(ntidx_analysis_cell(a, k, r, c, &x) == NTIDX_OK &&
                               ntidx_analysis_cell(b, k, r, c, &y) == NTIDX_OK,
                           "%s: cell", name);
                FUZZ_CHECK(same_cell(&x, &y), "%s: table %s row %llu column %s differs between cuts", name,
                           ta.name, (unsigned long long)r, ta.columns[c].name);
            }
    }
    const ntidx_analysis_stats *sa = ntidx_analysis_get_stats(a), *sb = ntidx_analysis_get_stats(b);
    FUZZ_CHECK(sa->events == sb->events && sa->field_errors == sb->field_errors && sa->unmatched == sb->unmatched &&
                   sa->incomplete == sb->incomplete,
               "%s: counters differ between cuts", name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ntidx_trace *t = NULL;
    if (ntidx_trace_open_memory(data, size, "fuzz.nettrace", &t) < 0)
        return 0;
    ntidx_index *x = NULL;
    if (ntidx_index_build(t, NULL, &x) < 0) {
        ntidx_trace_close(&t);
        return 0;
    }
    const ntidx_index_info *xi = ntidx_index_get_info(x);
    for (size_t i = 0; i < sizeof analyses / sizeof analyses[0]; i++) {
        ntidx_analysis_options one, each, half;
        ntidx_analysis_options_defaults(&one);
        one.threads = 1;
        one.unit_regions = UINT64_MAX;
        ntidx_analysis_options_defaults(&each);
        each.threads = 2;
        each.unit_regions = 1;
        ntidx_analysis *a = run(t, x, analyses[i].fn, &one, analyses[i].name);
        ntidx_analysis *b = run(t, x, analyses[i].fn, &each, analyses[i].name);
        if (a && b)
            check_same(a, b, analyses[i].name);
        ntidx_analysis_free(&a);
        ntidx_analysis_free(&b);
        if (xi->first_ts < xi->last_ts) {
            ntidx_analysis_options_defaults(&half);
            half.t0 = xi->first_ts;
            half.t1 = xi->first_ts + (xi->last_ts - xi->first_ts) / 2;
            half.lookahead_seconds = 1e9; /* to the trace's end */
            a = run(t, x, analyses[i].fn, &half, analyses[i].name);
            ntidx_analysis_free(&a);
        }
    }
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
    return 0;
}
