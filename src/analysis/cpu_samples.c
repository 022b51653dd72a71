/*
 * The CPU samples of a window one by one (issue 30's SQL table `cpu_samples`:
 * ts, thread, stack key, leaf method): every Microsoft-DotNETCore-SampleProfiler
 * Thread/Sample event, its stack's place in the file (the key of the `stacks`
 * table and of the events table's hidden `stack_key`) and its innermost frame
 * named as the CPU analysis names it (cpu.c: module!method, ?!? for an address
 * no method covers).
 *
 * Why an analysis of its own and not a table of `cpu`: `cpu` keeps counts per
 * frame, whose size is the number of methods; this keeps one row per sample,
 * whose size is the window's. A query that wants per-method numbers should not
 * pay for the rows, and one that wants the rows (samples per second of a
 * thread, a join with the events around a sample) should not need the counts.
 *
 * Samples pair with nothing: a unit keeps its samples in time order, the merge
 * appends the units (which come in time order), and no lookahead runs. The
 * leaf's name is interned per frame_id into the result (the symbolizer, and
 * its strings, are closed when the run returns).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"
#include "ops_internal.h"
#include "idmap.h"

#define SAMPLER "Microsoft-DotNETCore-SampleProfiler"
#define NO_STACK UINT64_MAX

static const ntx_event_type sample_types[] = {{SAMPLER, 0}};

typedef struct sample {
    uint64_t ts, thread;
    uint64_t stack_key;         /* the stack bytes' offset in the file; NO_STACK: none */
    uint64_t frame;             /* the leaf's frame_id (UINT64_MAX: ?!?, or no stack) */
    const char *method, *module; /* the symbolizer's strings, valid during the run (NULL: ?!?) */
    uint32_t pid, depth;
} sample;

typedef struct samples {
    const ntx_an_ctx *ctx;
    const ntidx_symbolizer *sym;
    const uint8_t *base; /* the trace's first byte: stack keys are offsets from it */
    uint32_t ptr_size;
    sample *v;
    size_t n, cap;
} samples;

static int samples_new(const ntx_an_ctx *ctx, void **out)
{
    samples *s = calloc(1, sizeof *s);
    if (!s)
        return NTIDX_E_NOMEM;
    s->ctx = ctx;
    s->sym = ctx->arg;
    s->base = ntidx_trace_data(ctx->t, NULL);
    s->ptr_size = ntidx_trace_get_info(ctx->t)->pointer_size;
    *out = s;
    return 0;
}

static void samples_free(void *p)
{
    samples *s = p;
    if (!s)
        return;
    free(s->v);
    free(s);
}

static int push(samples *s, const sample *x)
{
    if (s->n == s->cap) {
        size_t c = s->cap ? s->cap * 2 : 1024;
        sample *nv = realloc(s->v, c * sizeof *nv);
        if (!nv)
            return NTIDX_E_NOMEM;
        s->v = nv;
        s->cap = c;
    }
    s->v[s->n++] = *x;
    return 0;
}

static int unit_event(void *unit, const ntx_an_event *e, ntx_err *err)
{
    samples *s = unit;
    const ntidx_analysis_options *o = s->ctx->o;
    if (o->has_thread && e->thread != o->thread)
        return 0;
    const ntidx_event *ev = e->ev;
    sample x = {.ts = e->ts, .thread = e->thread, .pid = e->pid, .stack_key = NO_STACK, .frame = UINT64_MAX};
    size_t depth = ev->stack && s->ptr_size ? ev->stack_size / s->ptr_size : 0;
    if (depth) {
        uint64_t ip = 0; /* the innermost frame comes first */
        for (uint32_t b = 0; b < s->ptr_size; b++)
            ip |= (uint64_t)ev->stack[b] << (8 * b);
        ntidx_symbol sym;
        ntidx_symbolizer_lookup_at(s->sym, ip, 0, e->ts, &sym);
        x.frame = sym.frame_id;
        x.method = sym.method;
        x.module = sym.module;
        x.stack_key = (uint64_t)(ev->stack - s->base);
        x.depth = (uint32_t)(depth > UINT32_MAX ? UINT32_MAX : depth);
    }
    if (push(s, &x) < 0)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    return 0;
}

static int merge_unit(void *merged, void *unit, ntx_err *err)
{
    samples *m = merged, *u = unit;
    if (!m->v) { /* the first unit's array is taken as it is */
        m->v = u->v, m->n = u->n, m->cap = u->cap;
        u->v = NULL, u->n = u->cap = 0;
        return 0;
    }
    if (m->n + u->n > m->cap) {
        size_t c = m->cap;
        while (c < m->n + u->n)
            c *= 2;
        sample *nv = realloc(m->v, c * sizeof *nv);
        if (!nv)
            return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
        m->v = nv;
        m->cap = c;
    }
    if (u->n)
        memcpy(m->v + m->n, u->v, u->n * sizeof *u->v);
    m->n += u->n;
    return 0;
}

/* ---- The result ---- */

typedef struct sample_row {
    uint64_t ts, thread, stack_key;
    size_t leaf; /* in the pool; SIZE_MAX: no stack */
    uint32_t pid, depth;
} sample_row;

typedef struct samples_result {
    sample_row *rows;
    size_t n;
    char *pool;
    size_t pool_len, pool_cap;
    int64_t sync_ticks;
    int64_t tick_frequency;
} samples_result;

static void free_result(void *p)
{
    samples_result *r = p;
    if (!r)
        return;
    free(r->rows);
    free(r->pool);
    free(r);
}

/* "module!method" or "?!?" into the pool; SIZE_MAX when out of memory. */
static size_t pool_name(samples_result *r, const char *method, const char *module)
{
    size_t ml = method && module ? strlen(module) : 0, n = method ? ml + 1 + strlen(method) : 3;
    if (r->pool_len + n + 1 > r->pool_cap) {
        size_t c = r->pool_cap ? r->pool_cap : 4096;
        while (c < r->pool_len + n + 1)
            c *= 2;
        char *np = realloc(r->pool, c);
        if (!np)
            return SIZE_MAX;
        r->pool = np;
        r->pool_cap = c;
    }
    size_t at = r->pool_len;
    if (method) {
        memcpy(r->pool + at, module ? module : "", ml);
        r->pool[at + ml] = '!';
        memcpy(r->pool + at + ml + 1, method, strlen(method) + 1);
    } else {
        memcpy(r->pool + at, "?!?", 4);
    }
    r->pool_len += n + 1;
    return at;
}

enum { C_TS, C_THREAD, C_STACK_KEY, C_LEAF, C_RELATIVE_MS, C_DEPTH, C_PID, C_COLUMNS };

static const ntidx_column sample_columns[C_COLUMNS] = {
    {"ts", NTIDX_COLUMN_UINT, "the sample's timestamp, raw ticks"},
    {"thread", NTIDX_COLUMN_UINT, "the sampled thread"},
    {"stack_key", NTIDX_COLUMN_UINT, "where its stack is in the file: the key of the stacks table (null: no stack)"},
    {"leaf_method", NTIDX_COLUMN_STRING, "its innermost frame as ntidx cpu names it: module!method, ?!? (null: no stack)"},
    {"time_relative_ms", NTIDX_COLUMN_DOUBLE, "ms since the trace's sync time"},
    {"depth", NTIDX_COLUMN_UINT, "frames in its stack (0: none)"},
    {"pid", NTIDX_COLUMN_UINT, "the process"},
};

static int sample_cell(const void *data, uint64_t row, size_t col, ntidx_table_cell *out)
{
    const samples_result *r = data;
    const sample_row *s = &r->rows[row];
    switch (col) {
    case C_TS: out->u = s->ts; break;
    case C_THREAD: out->u = s->thread; break;
    case C_STACK_KEY:
        out->u = s->stack_key;
        out->is_null = s->stack_key == NO_STACK;
        break;
    case C_LEAF:
        out->s = s->leaf == SIZE_MAX ? NULL : r->pool + s->leaf;
        out->is_null = s->leaf == SIZE_MAX;
        break;
    case C_RELATIVE_MS:
        out->f = (double)(int64_t)(s->ts - (uint64_t)r->sync_ticks) * 1000.0 / (double)r->tick_frequency;
        break;
    case C_DEPTH: out->u = s->depth; break;
    default: out->u = s->pid; break;
    }
    return NTIDX_OK;
}

static int finish(void *merged, ntidx_analysis **out, ntx_an_counts *counts, ntx_err *err)
{
    (void)counts; /* nothing pairs */
    samples *m = merged;
    samples_result *r = calloc(1, sizeof *r);
    ntx_idmap names; /* frame_id + 1 -> pool offset + 1 (the ?!? frame is UINT64_MAX) */
    ntx_idmap_init(&names);
    int rc = r ? 0 : NTIDX_E_NOMEM;
    if (rc == 0) {
        r->sync_ticks = m->ctx->sync_ticks;
        r->tick_frequency = m->ctx->tick_frequency ? m->ctx->tick_frequency : 1;
        r->rows = malloc((m->n ? m->n : 1) * sizeof *r->rows);
        rc = r->rows ? 0 : NTIDX_E_NOMEM;
    }
    for (size_t i = 0; rc == 0 && i < m->n; i++) {
        const sample *s = &m->v[i];
        sample_row *x = &r->rows[r->n++];
        *x = (sample_row){.ts = s->ts, .thread = s->thread, .stack_key = s->stack_key, .leaf = SIZE_MAX,
                          .pid = s->pid, .depth = s->depth};
        if (s->stack_key == NO_STACK)
            continue;
        uint64_t key = s->frame + 1; /* ?!? (UINT64_MAX) is key 0 */
        void *at = ntx_idmap_get(&names, key);
        if (at) {
            x->leaf = (size_t)(uintptr_t)at - 1;
            continue;
        }
        size_t off = pool_name(r, s->method, s->module);
        if (off == SIZE_MAX || ntx_idmap_put(&names, key, (void *)(uintptr_t)(off + 1)) != 0)
            rc = NTIDX_E_NOMEM;
        x->leaf = off;
    }
    ntx_idmap_free(&names);
    if (rc == 0)
        rc = ntx_analysis_new("cpu_samples", NTX_ANALYSIS_CPU_SAMPLES, r, free_result, out);
    if (rc < 0) {
        free_result(r);
        return ntx_err_set(err, rc, "out of memory");
    }
    if (ntx_analysis_add_table(*out, "cpu_samples", sample_columns, C_COLUMNS, r->n, sample_cell, r) < 0) {
        ntidx_analysis_free(out);
        return ntx_err_set(err, NTIDX_E_INVALID_ARG, "too many tables");
    }
    return 0;
}

static const ntx_analysis_def samples_def = {
    .name = "cpu_samples",
    .types = sample_types,
    .ntypes = sizeof sample_types / sizeof sample_types[0],
    .no_payload = 1,
    .unit_new = samples_new,
    .unit_event = unit_event,
    .unit_free = samples_free,
    .merge_new = samples_new,
    .merge_unit = merge_unit,
    .finish = finish,
    .merge_free = samples_free,
};

/* The registry's entry point: the samples of the window, named by a symbolizer opened for the run. */
static int cpu_samples_analyze(ntidx_trace *t, const ntidx_index *x, const ntidx_analysis_options *o,
                               ntidx_analysis **out)
{
    if (out)
        *out = NULL;
    if (!t || !x || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET,
                         "cpu_samples: NULL argument");
    ntidx_symbolizer *sym = NULL;
    int rc = ntx_symbolizer_open_threads(t, x, o ? o->threads : 0, &sym); /* as the analysis: --threads */
    if (rc < 0)
        return rc;
    rc = ntx_analysis_run_arg(&samples_def, sym, t, x, o, out);
    ntidx_symbolizer_close(&sym);
    return rc;
}

static const ntidx_table samples_tables[] = {{"cpu_samples", C_COLUMNS, sample_columns, 0}};

const ntidx_analysis_info ntx_cpu_samples_info = {
    .name = "cpu_samples",
    .summary = "the sample profiler's samples one by one: time, thread, stack and innermost method",
    .analyze = cpu_samples_analyze,
    .table_count = sizeof samples_tables / sizeof samples_tables[0],
    .tables = samples_tables,
};
