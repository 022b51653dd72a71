/*
 * The allocation analysis: the runtime's GC/AllocationTick events of a
 * window counted per type name and allocation kind (include/ntidx/analysis.h),
 * as the reference dumper adds up the ticks TraceEvent parses
 * (docs/conformance.md, "TraceEvent's definitions": `count`, and `bytes` the
 * sum of AllocationAmount64).
 *
 * Nothing pairs: each unit counts its ticks in a group table (groups.h) and
 * the merge adds the tables up, so the result is the same for any cut into
 * units and any number of threads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"
#include "fields.h"
#include "groups.h"

#define EV_ALLOC_TICK 10

static const ntx_event_type alloc_types[] = {{"Microsoft-Windows-DotNETRuntime", EV_ALLOC_TICK}};

typedef struct alloc_state {
    const ntx_an_ctx *ctx;
    ntx_groups g; /* key: TypeName; number: AllocationKind; sum: bytes */
    ntx_an_places places; /* the tick's fields, read in place */
    ntx_an_text name;     /* the type name of the tick at hand, as UTF-8 */
} alloc_state;

static int state_new(const ntx_an_ctx *ctx, void **out)
{
    alloc_state *s = calloc(1, sizeof *s);
    if (!s)
        return NTIDX_E_NOMEM;
    s->ctx = ctx;
    ntx_groups_init(&s->g);
    *out = s;
    return 0;
}

static void state_free(void *p)
{
    alloc_state *s = p;
    ntx_groups_free(&s->g);
    free(s->name.data);
    free(s);
}

/* One tick: 0; 1 when it lacks AllocationAmount or AllocationKind (every version has them) or its type name
   is cut short; < 0 with err set. Its fields are read where they lie (a million ticks a GB). */
static int unit_event(void *unit, const ntx_an_event *e, ntx_err *err)
{
    alloc_state *s = unit;
    const ntidx_analysis_options *o = s->ctx->o;
    static const char *const names[] = {"AllocationAmount", "AllocationKind", "AllocationAmount64", "TypeName"};
    const ntidx_metadata *m = e->ev->metadata;
    const ntx_field_place *at = ntx_an_places_of(&s->places, s->ctx->t, m, names, 4);
    int64_t amount32, kind, amount64 = 0;
    int rc;
    if ((rc = ntx_an_field_int(e, &at[0], names[0], &amount32, err)) != 1 ||
        (rc = ntx_an_field_int(e, &at[1], names[1], &kind, err)) != 1)
        return rc < 0 ? rc : 1;
    if (o->has_thread && e->thread != o->thread)
        return 0;
    /* TraceEvent's AllocationAmount64 from version 2; before it, the only amount there is (UInt32) */
    uint64_t bytes = (uint32_t)amount32;
    if (m->version >= 2) {
        if ((rc = ntx_an_field_int(e, &at[2], names[2], &amount64, err)) < 0)
            return rc;
        if (rc == 1)
            bytes = (uint64_t)amount64;
    }
    const char *name = NULL;
    size_t len = 0;
    if (m->version >= 2 && (rc = ntx_an_field_str(e, &at[3], names[3], &s->name, &name, &len, err)) != 1) {
        if (rc < 0)
            return rc;
        if (at[3].kind == NTX_PLACE_UTF16Z)
            return 1; /* there, but cut short */
        name = NULL;  /* a layout without it */
    }
    ntx_blob key[NTX_GROUP_PARTS] = {{name ? name : "", name ? len : 0}, {NULL, 0}, {NULL, 0}};
    rc = ntx_groups_add(&s->g, key, (uint32_t)kind, 1, bytes, e->ts, e->ts);
    return rc < 0 ? ntx_err_set(err, rc, "out of memory") : 0;
}

static int merge_unit(void *merged, void *unit, ntx_err *err)
{
    int rc = ntx_groups_merge(&((alloc_state *)merged)->g, &((alloc_state *)unit)->g);
    return rc < 0 ? ntx_err_set(err, rc, "out of memory") : 0;
}

/* ---- The result ---- */

typedef struct kind_sum {
    char kind[16]; /* "Small", ..., "all" */
    uint64_t count, bytes, types;
} kind_sum;

typedef struct alloc_result {
    ntx_groups g;          /* owns the type names */
    ntidx_alloc_type *rows;
    char (*kinds)[16];     /* each row's kind name */
    size_t n;
    kind_sum *sums;
    size_t nsums;
    int64_t sync_ticks, tick_frequency; /* the trace's clock, for the times in ms */
} alloc_result;

static void free_result(void *p)
{
    alloc_result *r = p;
    if (!r)
        return;
    ntx_groups_free(&r->g);
    free(r->rows);
    free(r->kinds);
    free(r->sums);
    free(r);
}

static const char *const kind_names[] = {"Small", "Large", "Pinned"};

NTIDX_API const char *ntidx_alloc_kind_name(int kind, char *buf, size_t buflen)
{
    if (kind >= 0 && kind < (int)(sizeof kind_names / sizeof kind_names[0]))
        return kind_names[kind];
    if (buf && buflen)
        snprintf(buf, buflen, "%d", kind);
    return buf ? buf : "";
}

/* The largest first (bytes, then ticks); then by name and kind, so that the order is one. */
static int by_bytes(const void *a, const void *b)
{
    const ntidx_alloc_type *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes > y->bytes ? -1 : 1;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    int c = strcmp(x->type_name, y->type_name);
    if (c)
        return c;
    return (x->kind > y->kind) - (x->kind < y->kind);
}

enum { C_TYPE_NAME, C_KIND, C_COUNT, C_BYTES, C_FIRST_TS, C_LAST_TS, C_FIRST_MS, C_LAST_MS, C_COLUMNS };

static const ntidx_column alloc_columns[C_COLUMNS] = {
    {"type_name", NTIDX_COLUMN_STRING, "the allocated type (GC/AllocationTick's TypeName)"},
    {"kind", NTIDX_COLUMN_STRING, "Small, Large or Pinned: the heap it was allocated on"},
    {"count", NTIDX_COLUMN_UINT, "allocation ticks (about one per 100 KB allocated)"},
    {"bytes", NTIDX_COLUMN_UINT, "the ticks' sampled bytes (AllocationAmount64) added up"},
    {"first_ts", NTIDX_COLUMN_UINT, "the first tick's timestamp, raw ticks"},
    {"last_ts", NTIDX_COLUMN_UINT, "the last tick's timestamp, raw ticks"},
    {"first_relative_ms", NTIDX_COLUMN_DOUBLE, "the first tick, ms since the trace's sync time"},
    {"last_relative_ms", NTIDX_COLUMN_DOUBLE, "the last tick, ms since the trace's sync time"},
};

static int alloc_cell(const void *data, uint64_t row, size_t col, ntidx_table_cell *out)
{
    const alloc_result *r = data;
    const ntidx_alloc_type *t = &r->rows[row];
    switch (col) {
    case C_TYPE_NAME: out->s = t->type_name; break;
    case C_KIND: out->s = r->kinds[row]; break;
    case C_COUNT: out->u = t->count; break;
    case C_BYTES: out->u = t->bytes; break;
    case C_FIRST_TS: out->u = t->first_ts; break;
    case C_LAST_TS: out->u = t->last_ts; break;
    default: {
        uint64_t ts = col == C_FIRST_MS ? t->first_ts : t->last_ts;
        out->f = (double)(int64_t)(ts - (uint64_t)r->sync_ticks) * 1000.0 / (double)r->tick_frequency;
        break;
    }
    }
    return NTIDX_OK;
}

enum { S_KIND, S_COUNT, S_BYTES, S_TYPES, S_COLUMNS };

static const ntidx_column sum_columns[S_COLUMNS] = {
    {"kind", NTIDX_COLUMN_STRING, "Small, Large, Pinned, or all"},
    {"count", NTIDX_COLUMN_UINT, "allocation ticks"},
    {"bytes", NTIDX_COLUMN_UINT, "their sampled bytes added up"},
    {"type_count", NTIDX_COLUMN_UINT, "distinct type names"},
};

static int sum_cell(const void *data, uint64_t row, size_t col, ntidx_table_cell *out)
{
    const kind_sum *s = &((const alloc_result *)data)->sums[row];
    switch (col) {
    case S_KIND: out->s = s->kind; break;
    case S_COUNT: out->u = s->count; break;
    case S_BYTES: out->u = s->bytes; break;
    default: out->u = s->types; break;
    }
    return NTIDX_OK;
}


static int finish(void *merged, ntidx_analysis **out, ntx_an_counts *counts, ntx_err *err)
{
    (void)counts; /* nothing pairs */
    alloc_state *m = merged;
    alloc_result *r = calloc(1, sizeof *r);
    if (!r)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    r->sync_ticks = m->ctx->sync_ticks;
    r->tick_frequency = m->ctx->tick_frequency;
    /* the merged groups move into the result: the rows' names point into them */
    r->g = m->g;
    ntx_groups_init(&m->g);
    size_t n = r->g.n;
    r->rows = malloc((n ? n : 1) * sizeof *r->rows);
    r->kinds = malloc((n ? n : 1) * sizeof *r->kinds);
    r->sums = malloc((n + 1) * sizeof *r->sums);
    if (!r->rows || !r->kinds || !r->sums) {
        free_result(r);
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        const ntx_group *g = &r->g.v[i];
        r->rows[i] = (ntidx_alloc_type){.type_name = g->key[0].p, .kind = (int)(int32_t)(uint32_t)g->num,
                                        .count = g->count, .bytes = g->sum, .first_ts = g->first_ts,
                                        .last_ts = g->last_ts};
    }
    if (n > 1)
        qsort(r->rows, n, sizeof *r->rows, by_bytes);
    r->n = n;
    /* per kind, in the order of the kinds' numbers, then all */
    kind_sum all = {.kind = "all"};
    for (size_t i = 0; i < n; i++) {
        const ntidx_alloc_type *t = &r->rows[i];
        char num[16];
        snprintf(r->kinds[i], sizeof r->kinds[i], "%s", ntidx_alloc_kind_name(t->kind, num, sizeof num));
        size_t k = 0;
        while (k < r->nsums && strcmp(r->sums[k].kind, r->kinds[i]))
            k++;
        if (k == r->nsums) {
            r->sums[r->nsums++] = (kind_sum){0};
            snprintf(r->sums[k].kind, sizeof r->sums[k].kind, "%s", r->kinds[i]);
        }
        r->sums[k].count += t->count;
        r->sums[k].bytes += t->bytes;
        r->sums[k].types++;
        all.count += t->count;
        all.bytes += t->bytes;
    }
    /* kinds by number: Small, Large, Pinned, then any other */
    for (size_t i = 1; i < r->nsums; i++)
        for (size_t j = i; j > 0; j--) {
            kind_sum *a = &r->sums[j - 1], *b = &r->sums[j];
            int ka = 99, kb = 99;
            for (int k = 0; k < 3; k++) {
                if (!strcmp(a->kind, kind_names[k]))
                    ka = k;
                if (!strcmp(b->kind, kind_names[k]))
                    kb = k;
            }
            if (ka < kb || (ka == kb && strcmp(a->kind, b->kind) <= 0))
                break;
            kind_sum t = *a;
            *a = *b;
            *b = t;
        }
    /* distinct type names over every kind */
    ntx_groups names;
    ntx_groups_init(&names);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        ntx_blob key[NTX_GROUP_PARTS] = {{r->rows[i].type_name, strlen(r->rows[i].type_name)}, {NULL, 0}, {NULL, 0}};
        rc = ntx_groups_add(&names, key, 0, 1, 0, 0, 0);
    }
    all.types = names.n;
    ntx_groups_free(&names);
    if (rc < 0) {
        free_result(r);
        return ntx_err_set(err, rc, "out of memory");
    }
    r->sums[r->nsums++] = all;
    rc = ntx_analysis_new("alloc", NTX_ANALYSIS_ALLOC, r, free_result, out);
    if (rc < 0) {
        free_result(r);
        return ntx_err_set(err, rc, "out of memory");
    }
    if (ntx_analysis_add_table(*out, "alloc", alloc_columns, C_COLUMNS, r->n, alloc_cell, r) < 0 ||
        ntx_analysis_add_table(*out, "alloc_summary", sum_columns, S_COLUMNS, r->nsums, sum_cell, r) < 0) {
        ntidx_analysis_free(out);
        return ntx_err_set(err, NTIDX_E_INVALID_ARG, "too many tables");
    }
    return 0;
}

static const ntx_analysis_def alloc_def = {
    .name = "alloc",
    .types = alloc_types,
    .ntypes = sizeof alloc_types / sizeof alloc_types[0],
    .lazy_payload = 1,
    .order_free = 1, /* counts, sums, first and last ticks per group */
    .unit_new = state_new,
    .unit_event = unit_event,
    .unit_free = state_free,
    .merge_new = state_new,
    .merge_unit = merge_unit,
    .finish = finish,
    .merge_free = state_free,
};

NTIDX_API int ntidx_alloc_analyze(ntidx_trace *t, const ntidx_index *x, const ntidx_analysis_options *o,
                                  ntidx_analysis **out)
{
    return ntx_analysis_run(&alloc_def, t, x, o, out);
}

static const ntidx_table alloc_tables[] = {{"alloc", C_COLUMNS, alloc_columns, 0},
                                           {"alloc_summary", S_COLUMNS, sum_columns, 0}};

const ntidx_analysis_info ntx_alloc_info = {
    .name = "alloc",
    .summary = "what a window allocated, per type and heap (GC/AllocationTick)",
    .analyze = ntidx_alloc_analyze,
    .table_count = sizeof alloc_tables / sizeof alloc_tables[0],
    .tables = alloc_tables,
};

NTIDX_API size_t ntidx_alloc_count(const ntidx_analysis *a)
{
    const alloc_result *r = ntx_analysis_data(a, NTX_ANALYSIS_ALLOC);
    return r ? r->n : 0;
}

NTIDX_API const ntidx_alloc_type *ntidx_alloc_at(const ntidx_analysis *a, size_t i)
{
    const alloc_result *r = ntx_analysis_data(a, NTX_ANALYSIS_ALLOC);
    return r && i < r->n ? &r->rows[i] : NULL;
}
