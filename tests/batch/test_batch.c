/*
 * Columnar batches, queries over sets of regions, and the type list
 * (include/ntidx/batch.h, ntidx_query_options.regions):
 *
 *  - region sets: the queries over the parts of random partitions of the
 *    regions return, together, exactly the events of the whole (same file
 *    offsets, each once), on generated and real traces and on a trace whose
 *    regions meet at equal timestamps, where time ranges would count the
 *    border events twice; statistics over the same parts add up too;
 *  - batches: every column of ntidx_batch_fill() (the caller's arrays, small
 *    capacities so that calls stop anywhere) and of ntidx_batch_next() equals
 *    the query's events; the type table names each row's type; every field
 *    cell equals the value ntidx_values_decode() gives, and its text equals
 *    what ntidx_value_json() writes; field_error is set exactly where
 *    ntidx_event_fields_json() fails; all_fields columns appear as met;
 *  - the type list holds every type the statistics count, with its layout;
 *  - the thread list holds every thread an event names (ids, process id and
 *    name as the reader gives them), and nothing for traces before V6.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <ntidx/batch.h>
#include <ntidx/index.h>
#include <ntidx/writer.h>
#include "../test_rand.h"

static const char *traces_dir;
static char dir[64];

static const char *const REAL[] = {
    "eventpipe-dotnetcore2.1-linux-x64-objver3.netperf", "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace",
    "eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace", "eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace",
    "only_managed_samples.nettrace"};
#define NREAL (sizeof REAL / sizeof REAL[0])

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void) { return test_rand_next(&rng); }

static ntidx_trace *open_path(const char *path)
{
    ntidx_trace *t = NULL;
    if (ntidx_trace_open(path, &t) != NTIDX_OK)
        fail_msg("%s", ntidx_last_error());
    return t;
}

static ntidx_trace *open_real(size_t i)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", traces_dir, REAL[i]);
    return open_path(path);
}

static ntidx_trace *generated(int version, uint64_t events, uint64_t seed, int flushes)
{
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    g.format_version = version;
    g.events = events;
    g.seed = seed;
    if (flushes && version == 6) {
        g.metadata_flush_every = 3;
        g.thread_flush_every = 4;
        g.remove_threads = 1;
        g.drop_rate = 0.01;
    }
    char path[128];
    snprintf(path, sizeof path, "%s/g%d-%" PRIu64 "-%d.nettrace", dir, version, seed, flushes);
    assert_int_equal(ntidx_generate_file(path, &g), NTIDX_OK);
    return open_path(path);
}

/*
 * A V6 trace whose regions meet at equal timestamps: three regions, the last
 * event of each at the time of the first event of the next (and of the
 * sequence point between them).
 */
static ntidx_trace *equal_borders(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s/borders.nettrace", dir);
    ntidx_writer_options wo;
    ntidx_writer_options_defaults(&wo);
    ntidx_writer *w;
    assert_int_equal(ntidx_writer_open_file(path, &wo, &w), NTIDX_OK);
    ntidx_thread th = {.index = 1, .has_os_thread_id = 1, .os_thread_id = 4242};
    assert_int_equal(ntidx_writer_add_thread(w, &th), NTIDX_OK);
    ntidx_field f = {.name = "Value", .type_code = NTIDX_TYPE_UINT32};
    ntidx_metadata m = {.id = 1, .provider = "Contoso-Borders", .event_id = 7, .event_name = "Tick", .opcode = -1,
                        .has_fields = 1, .field_count = 1, .fields = &f};
    assert_int_equal(ntidx_writer_add_metadata(w, &m), NTIDX_OK);
    uint32_t seq = 0;
    uint64_t ts = 1000;
    for (int region = 0; region < 3; region++) {
        for (int i = 0; i < 5; i++) {
            uint8_t payload[4] = {(uint8_t)(region * 10 + i), 0, 0, 0};
            ntidx_event ev = {.metadata_id = 1, .sequence_number = ++seq, .thread_index = 1,
                              .capture_thread_index = 1, .timestamp = ts, .is_sorted = 1, .payload = payload,
                              .payload_size = 4};
            assert_int_equal(ntidx_writer_add_event(w, &ev), NTIDX_OK);
            if (i < 4)
                ts += 10;
        }
        ntidx_thread_seq ts1 = {1, seq};
        if (region < 2)
            assert_int_equal(ntidx_writer_sequence_point(w, ts, 0, &ts1, 1), NTIDX_OK);
    }
    assert_int_equal(ntidx_writer_finish(w), NTIDX_OK);
    assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
    return open_path(path);
}

/* ------------------------------------------------------------------ */
/* Region sets                                                         */
/* ------------------------------------------------------------------ */

typedef struct offsets {
    uint64_t *v;
    size_t n, cap;
} offsets;

static void offsets_add(offsets *o, uint64_t x)
{
    if (o->n == o->cap) {
        o->cap = o->cap ? o->cap * 2 : 1024;
        o->v = realloc(o->v, o->cap * sizeof *o->v);
        assert_non_null(o->v);
    }
    o->v[o->n++] = x;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The offsets of a query's events (appended), checking time order within it. */
static void collect(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *o, offsets *out)
{
    ntidx_query *q;
    assert_int_equal(ntidx_query_open(t, x, o, &q), NTIDX_OK);
    const ntidx_event *e;
    int rc;
    uint64_t last = 0;
    while ((rc = ntidx_query_next(q, &e)) == 1) {
        if (o->order == NTIDX_ORDER_TIME)
            assert_true(e->timestamp >= last);
        last = e->timestamp;
        assert_true(e->timestamp >= o->t0 && e->timestamp < o->t1);
        offsets_add(out, e->offset);
    }
    if (rc < 0)
        fail_msg("%s", ntidx_last_error());
    ntidx_query_close(&q);
}

static uint64_t stats_events(ntidx_trace *t, const ntidx_index *x, uint64_t t0, uint64_t t1, const uint64_t *regions,
                             size_t n, int use_regions)
{
    ntidx_stats_options so;
    ntidx_stats_options_defaults(&so);
    so.t0 = t0;
    so.t1 = t1;
    so.threads = 2;
    if (use_regions) {
        so.regions = regions;
        so.region_count = n;
    }
    ntidx_stats *s;
    assert_int_equal(ntidx_stats_indexed(t, x, &so, &s), NTIDX_OK);
    uint64_t k = s->events;
    ntidx_stats_free(&s);
    return k;
}

/* Random partitions of the regions (and windows): the parts' events are the whole's, each once. */
static void check_partitions(ntidx_trace *t, const ntidx_index *x, const char *name, int rounds)
{
    uint64_t nr = ntidx_index_region_count(x);
    const ntidx_index_info *ii = ntidx_index_get_info(x);
    uint64_t *all = malloc((nr ? nr : 1) * sizeof *all), *part = malloc((nr + 1) * sizeof *part);
    assert_non_null(all);
    assert_non_null(part);
    for (int round = 0; round < rounds; round++) {
        ntidx_query_options o;
        ntidx_query_options_defaults(&o);
        o.order = round % 2 ? NTIDX_ORDER_FILE : NTIDX_ORDER_TIME;
        if (round >= 2 && ii->first_ts <= ii->last_ts) { /* a random window */
            uint64_t span = ii->last_ts - ii->first_ts + 1;
            uint64_t a = ii->first_ts + next_rand() % span, b = ii->first_ts + next_rand() % span;
            o.t0 = a < b ? a : b;
            o.t1 = (a < b ? b : a) + 1;
        }
        offsets whole = {0}, parts = {0};
        collect(t, x, &o, &whole);
        uint64_t groups = 1 + next_rand() % (nr < 5 ? nr + 1 : 5);
        uint64_t stat_sum = 0;
        for (uint64_t r = 0; r < nr; r++)
            all[r] = next_rand() % groups; /* each region's part */
        for (uint64_t g = 0; g < groups; g++) {
            size_t m = 0;
            for (uint64_t r = 0; r < nr; r++)
                if (all[r] == g)
                    part[m++] = r;
            /* shuffled and repeated: order and repeats do not matter */
            for (size_t i = 0; m > 1 && i < m; i++) {
                size_t j = next_rand() % m;
                uint64_t tmp = part[i];
                part[i] = part[j];
                part[j] = tmp;
            }
            if (m)
                part[m++] = part[0];
            ntidx_query_options po = o;
            po.regions = part;
            po.region_count = m;
            collect(t, x, &po, &parts);
            stat_sum += stats_events(t, x, o.t0, o.t1, part, m, 1);
        }
        if (whole.n) /* qsort(NULL, 0) is undefined */
            qsort(whole.v, whole.n, sizeof *whole.v, cmp_u64);
        if (parts.n)
            qsort(parts.v, parts.n, sizeof *parts.v, cmp_u64);
        if (whole.n != parts.n)
            fail_msg("%s round %d: the whole has %zu events, its %" PRIu64 " parts %zu", name, round, whole.n, groups,
                     parts.n);
        for (size_t i = 0; i < whole.n; i++)
            assert_int_equal(whole.v[i], parts.v[i]);
        assert_int_equal(stat_sum, whole.n);
        assert_int_equal(stats_events(t, x, o.t0, o.t1, NULL, 0, 0), whole.n);
        free(whole.v);
        free(parts.v);
    }
    /* an empty set selects nothing; a region past the end is refused */
    ntidx_query_options o;
    ntidx_query_options_defaults(&o);
    o.regions = all;
    o.region_count = 0;
    offsets none = {0};
    collect(t, x, &o, &none);
    assert_int_equal(none.n, 0);
    free(none.v);
    all[0] = nr;
    o.region_count = 1;
    ntidx_query *q = NULL;
    assert_int_equal(ntidx_query_open(t, x, &o, &q), NTIDX_E_INVALID_ARG);
    assert_non_null(strstr(ntidx_last_error(), "no region"));
    o.regions = NULL;
    assert_int_equal(ntidx_query_open(t, x, &o, &q), NTIDX_E_INVALID_ARG);
    free(all);
    free(part);
}

static void test_region_sets(void **state)
{
    (void)state;
    /* equal timestamps at the borders: a window made of region 0's time range takes region 1's first event */
    ntidx_trace *t = equal_borders();
    ntidx_index *x;
    assert_int_equal(ntidx_index_build(t, NULL, &x), NTIDX_OK);
    assert_int_equal(ntidx_index_region_count(x), 3);
    ntidx_region r0, r1;
    assert_int_equal(ntidx_index_region(x, 0, &r0), NTIDX_OK);
    assert_int_equal(ntidx_index_region(x, 1, &r1), NTIDX_OK);
    assert_int_equal(r0.last_ts, r1.first_ts);
    uint64_t one = 0;
    ntidx_query_options o;
    ntidx_query_options_defaults(&o);
    o.regions = &one;
    o.region_count = 1;
    offsets got = {0}, by_time = {0};
    collect(t, x, &o, &got);
    assert_int_equal(got.n, 5);
    ntidx_query_options_defaults(&o);
    o.t0 = r0.first_ts;
    o.t1 = r0.last_ts + 1;
    collect(t, x, &o, &by_time);
    assert_int_equal(by_time.n, 6); /* what a scheduler splitting on time ranges would count */
    free(got.v);
    free(by_time.v);
    check_partitions(t, x, "borders", 6);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);

    for (int k = 0; k < 4; k++) {
        t = generated(k < 2 ? 5 : 6, 20000, 3 + (uint64_t)k, k == 3);
        ntidx_index_options io;
        ntidx_index_options_defaults(&io);
        io.full = k % 2;
        assert_int_equal(ntidx_index_build(t, &io, &x), NTIDX_OK);
        assert_true(ntidx_index_region_count(x) > 4);
        check_partitions(t, x, "generated", 6);
        ntidx_index_close(&x);
        ntidx_trace_close(&t);
    }
    for (size_t i = 0; i < NREAL; i++) {
        t = open_real(i);
        assert_int_equal(ntidx_index_build(t, NULL, &x), NTIDX_OK);
        check_partitions(t, x, REAL[i], 4);
        ntidx_index_close(&x);
        ntidx_trace_close(&t);
    }
}

/* ------------------------------------------------------------------ */
/* Batches                                                             */
/* ------------------------------------------------------------------ */

#define MAXF 256

/* The batch's cell for value v, as the batch documents it. */
static void check_cell(const ntidx_batch *b, const ntidx_values *vals, const ntidx_value *v, uint8_t kind,
                       ntidx_cell cell, ntidx_buf *scratch)
{
    if (kind != v->kind)
        fail_msg("field %s: kind %d in the batch, %d in the values", v->name, kind, v->kind);
    size_t len;
    const char *s;
    switch (v->kind) {
    case NTIDX_VALUE_NULL: break;
    case NTIDX_VALUE_BOOL: case NTIDX_VALUE_UINT: assert_true(cell.u == v->u); break;
    case NTIDX_VALUE_INT: assert_true(cell.i == v->i); break;
    case NTIDX_VALUE_FLOAT: assert_memory_equal(&cell.f, &v->f, sizeof v->f); break;
    case NTIDX_VALUE_STRING:
        s = ntidx_batch_string(b, cell.str, &len);
        assert_non_null(s);
        scratch->len = 0;
        assert_int_equal(ntidx_buf_append_utf8(scratch, v->str, v->len), NTIDX_OK);
        assert_int_equal(len, scratch->len);
        assert_memory_equal(s, scratch->data, len);
        break;
    default:
        s = ntidx_batch_string(b, cell.str, &len);
        assert_non_null(s);
        scratch->len = 0;
        assert_int_equal(ntidx_value_json(vals, v, scratch), NTIDX_OK);
        if (v->kind == NTIDX_VALUE_ARRAY || v->kind == NTIDX_VALUE_OBJECT) {
            assert_int_equal(len, scratch->len);
            assert_memory_equal(s, scratch->data, len);
        } else {
            assert_int_equal(len + 2, scratch->len);
            assert_memory_equal(s, scratch->data + 1, len);
        }
        break;
    }
}

typedef struct cols {
    uint64_t ts[64], thread[64], capture[64], offset[64], ferr[64];
    uint32_t type[64], seq[64], stack[64], proc[64], psize[64];
    uint8_t kind[MAXF][64];
    ntidx_cell cell[MAXF][64];
    ntidx_field_column f[MAXF];
} cols;

/*
 * One batch read with the caller's arrays (capacities 1..64 at random, room
 * for field columns grown as asked) against a query with the same options,
 * event by event; `names`: the field columns asked for (all_fields: none).
 */
static void check_batch(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *qo, const char *const *names,
                        size_t nnames, int all_fields, const char *label)
{
    ntidx_batch_options bo;
    ntidx_batch_options_defaults(&bo);
    bo.fields = names;
    bo.field_count = nnames;
    bo.all_fields = all_fields;
    ntidx_batch *b;
    assert_int_equal(ntidx_batch_open(t, x, qo, &bo, &b), NTIDX_OK);
    ntidx_query *q;
    assert_int_equal(ntidx_query_open(t, x, qo, &q), NTIDX_OK);
    ntidx_values *vals;
    assert_int_equal(ntidx_values_new(&vals), NTIDX_OK);
    ntidx_buf json = {0}, scratch = {0};
    static cols c;
    size_t room = all_fields ? 0 : nnames, rows = 0, total = 0, stops = 0;
    for (size_t j = 0; j < MAXF; j++)
        c.f[j] = (ntidx_field_column){c.kind[j], c.cell[j]};
    uint64_t field_errors = 0, cells = 0;
    for (;;) {
        ntidx_columns cc = {.capacity = 1 + next_rand() % 64, .timestamp = c.ts, .type = c.type, .thread = c.thread,
                            .capture_thread = c.capture, .sequence = c.seq, .stack_id = c.stack, .offset = c.offset,
                            .processor = c.proc, .payload_size = c.psize, .field_error = c.ferr, .fields = c.f,
                            .field_capacity = room};
        int rc = ntidx_batch_fill(b, &cc, &rows);
        if (rc < 0)
            fail_msg("%s: %s", label, ntidx_last_error());
        assert_true(rows <= cc.capacity);
        if (rc == 0) {
            assert_int_equal(rows, 0);
            break;
        }
        /* the columns these rows were written with (those the batch had, that we had room for) */
        size_t nf = ntidx_batch_field_count(b) < room ? ntidx_batch_field_count(b) : room;
        if (rows < cc.capacity && ntidx_batch_field_count(b) > room) { /* stopped for new columns */
            assert_true(all_fields);
            stops++;
            room = ntidx_batch_field_count(b);
            assert_true(room <= MAXF);
        }
        for (size_t i = 0; i < rows; i++) {
            const ntidx_event *e;
            assert_int_equal(ntidx_query_next(q, &e), 1);
            total++;
            assert_true(c.ts[i] == e->timestamp);
            assert_true(c.offset[i] == e->offset);
            assert_true(c.thread[i] == e->thread_id);
            assert_true(c.capture[i] == e->capture_thread_id);
            assert_int_equal(c.seq[i], e->sequence_number);
            assert_int_equal(c.stack[i], e->stack_id);
            assert_int_equal(c.proc[i], e->processor_number);
            assert_int_equal(c.psize[i], e->payload_size);
            const ntidx_batch_type *ty = ntidx_batch_type_at(b, c.type[i]);
            assert_non_null(ty);
            const ntidx_metadata *m = e->metadata;
            assert_string_equal(ty->provider, m->provider);
            assert_string_equal(ty->event_name, m->event_name ? m->event_name : "");
            assert_int_equal(ty->event_id, m->event_id);
            assert_int_equal(ty->version, m->version);
            json.len = 0;
            int jrc = ntidx_event_fields_json(t, e, &json);
            int drc = ntidx_values_decode(vals, t, e);
            assert_int_equal(jrc == NTIDX_OK, drc == NTIDX_OK);
            int wanted = 0;
            for (size_t j = 0; j < nf; j++) {
                const ntidx_value *v = drc == NTIDX_OK ? ntidx_values_find(vals, ntidx_batch_field_name(b, j)) : NULL;
                if (!v) {
                    if (c.kind[j][i] != NTIDX_BATCH_MISSING)
                        fail_msg("%s: %s/%s: field %s: kind %d where the values have none (%s)", label, m->provider,
                                 m->event_name, ntidx_batch_field_name(b, j), c.kind[j][i], json.data);
                    continue;
                }
                wanted = 1;
                cells++;
                check_cell(b, vals, v, c.kind[j][i], c.cell[j][i], &scratch);
            }
            if (drc != NTIDX_OK && m->fields) {
                for (uint32_t k = 0; k < m->field_count; k++)
                    for (size_t j = 0; j < nf; j++)
                        wanted |= m->fields[k].name && !strcmp(m->fields[k].name, ntidx_batch_field_name(b, j));
            }
            if (drc != NTIDX_OK && wanted) {
                field_errors++;
                const char *s = ntidx_batch_string(b, c.ferr[i], NULL);
                assert_non_null(s);
            } else if (drc == NTIDX_OK) {
                assert_int_equal(c.ferr[i], 0);
            }
        }
    }
    const ntidx_event *e;
    assert_int_equal(ntidx_query_next(q, &e), 0);
    if (all_fields && total)
        assert_true(stops > 0 || ntidx_batch_field_count(b) == 0);
    if (nnames && total)
        assert_true(cells > 0);
    (void)field_errors;

    /* the batch's own arrays give the same rows */
    ntidx_batch *b2;
    bo.rows = 1000;
    assert_int_equal(ntidx_batch_open(t, x, qo, &bo, &b2), NTIDX_OK);
    ntidx_query_close(&q);
    assert_int_equal(ntidx_query_open(t, x, qo, &q), NTIDX_OK);
    const ntidx_columns *oc;
    int rc;
    size_t total2 = 0;
    while ((rc = ntidx_batch_next(b2, &oc, &rows)) == 1) {
        assert_true(rows <= 1000 && rows > 0);
        for (size_t i = 0; i < rows; i++) {
            assert_int_equal(ntidx_query_next(q, &e), 1);
            assert_true(oc->timestamp[i] == e->timestamp && oc->offset[i] == e->offset);
            int drc = ntidx_values_decode(vals, t, e);
            for (size_t j = 0; j < ntidx_batch_field_count(b2); j++) {
                const ntidx_value *v = drc == NTIDX_OK ? ntidx_values_find(vals, ntidx_batch_field_name(b2, j)) : NULL;
                if (!v)
                    assert_int_equal(oc->fields[j].kind[i], NTIDX_BATCH_MISSING);
                else
                    check_cell(b2, vals, v, oc->fields[j].kind[i], oc->fields[j].cell[i], &scratch);
            }
        }
        total2 += rows;
    }
    if (rc < 0)
        fail_msg("%s: %s", label, ntidx_last_error());
    assert_int_equal(total2, total);
    assert_int_equal(ntidx_batch_field_count(b2), ntidx_batch_field_count(b));
    ntidx_batch_close(&b2);
    ntidx_batch_close(&b);
    ntidx_query_close(&q);
    ntidx_values_free(&vals);
    ntidx_buf_free(&json);
    ntidx_buf_free(&scratch);
}

static void batches_of(ntidx_trace *t, const char *label)
{
    ntidx_index *x;
    assert_int_equal(ntidx_index_build(t, NULL, &x), NTIDX_OK);
    ntidx_query_options qo;
    ntidx_query_options_defaults(&qo);
    static const char *const names[] = {"TypeName", "AllocationAmount64", "ClrInstanceID", "Count", "Name",
                                        "Id", "Payload", "Nope"};
    check_batch(t, x, &qo, NULL, 0, 0, label);
    check_batch(t, x, &qo, names, sizeof names / sizeof names[0], 0, label);
    check_batch(t, x, &qo, NULL, 0, 1, label);
    qo.order = NTIDX_ORDER_FILE;
    qo.provider = "Microsoft-Windows-DotNETRuntime";
    check_batch(t, x, &qo, names, 3, 1, label);
    ntidx_index_close(&x);
}

static void test_batches(void **state)
{
    (void)state;
    for (size_t i = 0; i < NREAL; i++) {
        ntidx_trace *t = open_real(i);
        batches_of(t, REAL[i]);
        ntidx_trace_close(&t);
    }
    for (int k = 0; k < 3; k++) {
        ntidx_trace *t = generated(k == 0 ? 5 : 6, 6000, 21 + (uint64_t)k, k == 2);
        batches_of(t, "generated");
        ntidx_trace_close(&t);
    }
    /* misuse */
    ntidx_trace *t = generated(6, 500, 5, 0);
    ntidx_index *x;
    assert_int_equal(ntidx_index_build(t, NULL, &x), NTIDX_OK);
    ntidx_batch_options bo;
    ntidx_batch_options_defaults(&bo);
    bo.reserved[2] = 1;
    ntidx_batch *b = NULL;
    assert_int_equal(ntidx_batch_open(t, x, NULL, &bo, &b), NTIDX_E_INVALID_ARG);
    assert_null(b);
    ntidx_batch_options_defaults(&bo);
    bo.field_count = 2;
    assert_int_equal(ntidx_batch_open(t, x, NULL, &bo, &b), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_batch_open(t, x, NULL, NULL, &b), NTIDX_OK);
    uint64_t ts[4];
    ntidx_columns c = {.capacity = 0, .timestamp = ts};
    size_t rows;
    assert_int_equal(ntidx_batch_fill(b, &c, &rows), NTIDX_E_INVALID_ARG);
    assert_null(ntidx_batch_string(b, 0, NULL));
    assert_null(ntidx_batch_type_at(b, 1u << 30));
    ntidx_batch_close(&b);
    ntidx_batch_close(&b);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
}

/* ------------------------------------------------------------------ */
/* Type lists                                                          */
/* ------------------------------------------------------------------ */

static void check_types(ntidx_trace *t, const char *label)
{
    ntidx_index *x;
    assert_int_equal(ntidx_index_build(t, NULL, &x), NTIDX_OK);
    ntidx_type_list *l;
    if (ntidx_index_types(t, x, &l) != NTIDX_OK)
        fail_msg("%s: %s", label, ntidx_last_error());
    ntidx_stats *s;
    assert_int_equal(ntidx_stats_indexed(t, x, NULL, &s), NTIDX_OK);
    for (size_t i = 0; i < s->type_count; i++) {
        const ntidx_type_stat *ts = &s->types[i];
        int found = 0;
        for (size_t k = 0; k < ntidx_type_list_count(l) && !found; k++) {
            const ntidx_metadata *m = ntidx_type_list_at(l, k);
            found = !strcmp(m->provider, ts->provider) && !strcmp(m->event_name, ts->event_name) &&
                    m->event_id == ts->event_id && m->version == ts->version;
        }
        if (!found)
            fail_msg("%s: type %s/%s (%u v%u) is not listed", label, ts->provider, ts->event_name, ts->event_id,
                     ts->version);
    }
    /* every listed type with a layout has the layout its events decode with */
    ntidx_query *q;
    assert_int_equal(ntidx_query_open(t, x, NULL, &q), NTIDX_OK);
    const ntidx_event *e;
    int rc;
    while ((rc = ntidx_query_next(q, &e)) == 1) {
        const ntidx_metadata *m = e->metadata;
        int found = 0;
        for (size_t k = 0; k < ntidx_type_list_count(l) && !found; k++) {
            const ntidx_metadata *lm = ntidx_type_list_at(l, k);
            if (strcmp(lm->provider, m->provider) || strcmp(lm->event_name, m->event_name) ||
                lm->event_id != m->event_id || lm->version != m->version || lm->field_count != m->field_count)
                continue;
            found = 1;
            for (uint32_t f = 0; f < m->field_count; f++)
                if (strcmp(lm->fields[f].name, m->fields[f].name) || lm->fields[f].type_code != m->fields[f].type_code)
                    found = 0;
        }
        if (!found)
            fail_msg("%s: the layout of %s/%s is not listed", label, m->provider, m->event_name);
    }
    assert_int_equal(rc, 0);
    assert_null(ntidx_type_list_at(l, ntidx_type_list_count(l)));
    ntidx_query_close(&q);
    ntidx_stats_free(&s);
    ntidx_type_list_free(&l);
    ntidx_type_list_free(&l);
    ntidx_index_close(&x);
}

static void test_types(void **state)
{
    (void)state;
    for (size_t i = 0; i < NREAL; i++) {
        ntidx_trace *t = open_real(i);
        check_types(t, REAL[i]);
        ntidx_trace_close(&t);
    }
    for (int k = 0; k < 3; k++) {
        ntidx_trace *t = generated(k == 0 ? 5 : 6, 8000, 40 + (uint64_t)k, k == 2);
        check_types(t, "generated");
        ntidx_trace_close(&t);
    }
}

/* ------------------------------------------------------------------ */
/* The thread list                                                     */
/* ------------------------------------------------------------------ */

static int same_name(const char *a, const char *b) { return (!a && !b) || (a && b && !strcmp(a, b)); }

static void check_threads(ntidx_trace *t, const char *label)
{
    ntidx_index *x = NULL;
    assert_int_equal(ntidx_index_build(t, NULL, &x), NTIDX_OK);
    ntidx_thread_list *l = NULL;
    assert_int_equal(ntidx_index_threads(t, x, &l), NTIDX_OK);
    ntidx_query *q = NULL;
    assert_int_equal(ntidx_query_open(t, x, NULL, &q), NTIDX_OK);
    const ntidx_event *e;
    int rc;
    uint64_t named = 0;
    while ((rc = ntidx_query_next(q, &e)) == 1) {
        if (!e->thread) {
            assert_int_equal(ntidx_thread_list_count(l), 0); /* before V6: no thread blocks, no list */
            continue;
        }
        const ntidx_thread *th = e->thread;
        int found = 0;
        for (size_t k = 0; k < ntidx_thread_list_count(l) && !found; k++) {
            const ntidx_thread *o = ntidx_thread_list_at(l, k);
            found = o->index == th->index && o->has_os_thread_id == th->has_os_thread_id &&
                    o->os_thread_id == th->os_thread_id && o->has_os_process_id == th->has_os_process_id &&
                    o->os_process_id == th->os_process_id && same_name(o->name, th->name);
        }
        if (!found)
            fail_msg("%s: thread %" PRIu64 " (%s) of the event at %" PRIu64 " is not listed", label, th->index,
                     th->name ? th->name : "no name", e->offset);
        named += th->name != NULL;
    }
    assert_int_equal(rc, 0);
    if (ntidx_trace_get_info(t)->format_version >= 6)
        assert_true(named > 0); /* the generator names its threads: the check above saw names */
    assert_null(ntidx_thread_list_at(l, ntidx_thread_list_count(l)));
    ntidx_thread_list_free(&l);
    ntidx_thread_list_free(&l); /* twice: the first set it to NULL */
    assert_null(l);
    ntidx_thread_list *none = (ntidx_thread_list *)&none; /* not NULL: the call must clear it */
    assert_int_equal(ntidx_index_threads(NULL, x, &none), NTIDX_E_INVALID_ARG);
    assert_null(none);
    ntidx_query_close(&q);
    ntidx_index_close(&x);
}

static void test_thread_list(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        ntidx_trace *t = generated(k == 0 ? 5 : 6, 8000, 50 + (uint64_t)k, k == 2);
        check_threads(t, k == 0 ? "generated V5" : k == 1 ? "generated V6" : "generated V6 with flushes");
        ntidx_trace_close(&t);
    }
    ntidx_trace *t = open_real(1);
    check_threads(t, REAL[1]);
    ntidx_trace_close(&t);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s TRACES_DIR\n", argv[0]);
        return 2;
    }
    traces_dir = argv[1];
    snprintf(dir, sizeof dir, "/tmp/ntidx-batch-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_region_sets),
        cmocka_unit_test(test_batches),
        cmocka_unit_test(test_types),
        cmocka_unit_test(test_thread_list),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        rc = 1;
    return rc;
}
