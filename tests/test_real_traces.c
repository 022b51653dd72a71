/*
 * Every sample trace (the folder given: tests/data/traces, decompressed by
 * the build) reads without error; file order and time order hold the same
 * events; time order never goes backwards; statistics agree with a plain
 * count; every payload with a field layout decodes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <ntidx/ntidx.h>

static const char *traces_dir;

static const struct {
    const char *file;
    int version;
} traces[] = {
    {"eventpipe-dotnetcore2.1-linux-x64-objver3.netperf", 3},
    {"eventpipe-dotnetcore3.0-win-x64-objver4.nettrace", 4},
    {"eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace", 5},
    {"eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace", 4},
    {"only_managed_samples.nettrace", 4},
};
#define NTRACES (sizeof traces / sizeof traces[0])

static ntidx_trace *open_trace(size_t i)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", traces_dir, traces[i].file);
    ntidx_trace *t = NULL;
    int rc = ntidx_trace_open(path, &t);
    if (rc != NTIDX_OK)
        fail_msg("%s: %s", path, ntidx_last_error());
    return t;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Offsets of all events in the given order, plus checks along the way. */
static uint64_t *read_all(ntidx_trace *t, ntidx_order order, size_t *n, uint64_t *field_errors)
{
    ntidx_reader_options o;
    ntidx_reader_options_defaults(&o);
    o.order = order;
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, &o, &r), NTIDX_OK);
    size_t cap = 1024, len = 0;
    uint64_t *offs = malloc(cap * sizeof *offs);
    assert_non_null(offs);
    const ntidx_event *e;
    int rc;
    uint64_t last_ts = 0;
    ntidx_buf b = {0};
    *field_errors = 0;
    while ((rc = ntidx_reader_next(r, &e)) == 1) {
        if (len == cap) {
            cap *= 2;
            offs = realloc(offs, cap * sizeof *offs);
            assert_non_null(offs);
        }
        offs[len++] = e->offset;
        assert_non_null(e->metadata);
        assert_non_null(e->metadata->provider);
        assert_true(e->payload_size == 0 || e->payload != NULL);
        if (order == NTIDX_ORDER_TIME) {
            assert_true(e->timestamp >= last_ts);
            last_ts = e->timestamp;
        }
        b.len = 0;
        if (ntidx_event_fields_json(t, e, &b) != NTIDX_OK)
            (*field_errors)++;
    }
    if (rc != 0)
        fail_msg("%s: %s", ntidx_trace_name(t), ntidx_last_error());
    assert_true(ntidx_reader_complete(r));
    assert_int_equal(ntidx_reader_get_stats(r)->order_violations, 0);
    ntidx_buf_free(&b);
    ntidx_reader_close(&r);
    *n = len;
    return offs;
}

static void test_reads_without_error_both_orders(void **state)
{
    (void)state;
    for (size_t i = 0; i < NTRACES; i++) {
        ntidx_trace *t = open_trace(i);
        assert_int_equal(ntidx_trace_get_info(t)->format_version, traces[i].version);
        size_t nf, nt;
        uint64_t fe_file, fe_time;
        uint64_t *f = read_all(t, NTIDX_ORDER_FILE, &nf, &fe_file);
        uint64_t *tm = read_all(t, NTIDX_ORDER_TIME, &nt, &fe_time);
        assert_true(nf > 0);
        assert_int_equal(nf, nt);
        /* file order is increasing by offset */
        for (size_t k = 1; k < nf; k++)
            assert_true(f[k] > f[k - 1]);
        qsort(tm, nt, sizeof *tm, cmp_u64);
        assert_memory_equal(f, tm, nf * sizeof *f);
        assert_int_equal(fe_file, 0);
        assert_int_equal(fe_time, 0);
        free(f);
        free(tm);
        ntidx_trace_close(&t);
    }
}

static void test_stats_agree_with_counts(void **state)
{
    (void)state;
    for (size_t i = 0; i < NTRACES; i++) {
        ntidx_trace *t = open_trace(i);
        size_t n;
        uint64_t fe;
        uint64_t *f = read_all(t, NTIDX_ORDER_FILE, &n, &fe);
        free(f);
        ntidx_stats *s;
        assert_int_equal(ntidx_stats_compute(t, &s), NTIDX_OK);
        assert_int_equal(s->events, n);
        assert_true(s->complete);
        uint64_t sum = 0;
        for (size_t k = 0; k < s->type_count; k++) {
            sum += s->types[k].count;
            assert_true(s->types[k].first_ts >= s->first_ts && s->types[k].first_ts <= s->last_ts);
            if (k)
                assert_true(strcmp(s->types[k - 1].provider, s->types[k].provider) <= 0);
        }
        assert_int_equal(sum, n);
        sum = 0;
        for (size_t k = 0; k < s->thread_count; k++)
            sum += s->threads[k].count;
        assert_int_equal(sum, n);
        assert_true(s->first_ts <= s->last_ts);
        assert_int_equal(s->format_version, traces[i].version);
        ntidx_stats_free(&s);
        assert_null(s);
        ntidx_trace_close(&t);
    }
}

/* Block walk: event blocks' time ranges cover every event; the walk ends at the end marker. */
static void test_block_ranges_cover_events(void **state)
{
    (void)state;
    for (size_t i = 0; i < NTRACES; i++) {
        ntidx_trace *t = open_trace(i);
        uint64_t pos = ntidx_trace_get_info(t)->first_block_offset, lo = UINT64_MAX, hi = 0, size;
        ntidx_block b;
        int rc;
        while ((rc = ntidx_trace_next_block(t, &pos, &b)) == 1) {
            uint64_t a, z;
            if (b.kind == NTIDX_BLOCK_EVENT && ntidx_event_block_time_range(t, &b, &a, &z, NULL) == 1) {
                assert_true(a <= z);
                lo = a < lo ? a : lo;
                hi = z > hi ? z : hi;
            }
        }
        assert_int_equal(rc, 0);
        ntidx_trace_data(t, &size);
        assert_int_equal(pos, size); /* every byte of these traces belongs to a block */
        ntidx_stats *s;
        assert_int_equal(ntidx_stats_compute(t, &s), NTIDX_OK);
        assert_true(lo <= s->first_ts);
        assert_true(hi >= s->last_ts);
        ntidx_stats_free(&s);
        ntidx_trace_close(&t);
    }
}

/* Facts visible in the raw bytes with xxd, checked independently of the reader. */
static void test_header_facts(void **state)
{
    (void)state;
    ntidx_trace *t = open_trace(0);
    const ntidx_trace_info *in = ntidx_trace_get_info(t);
    assert_int_equal(in->process_id, 0x13b6d); /* 6d3b0100 at offset 0x51 */
    assert_int_equal(in->tick_frequency, 1000000000);
    assert_int_equal(in->sync_time_utc.year, 2018);
    assert_int_equal(in->pointer_size, 8);
    char iso[64];
    assert_int_equal(ntidx_ticks_to_iso8601(t, (uint64_t)in->sync_ticks, iso, sizeof iso), NTIDX_OK);
    assert_string_equal(iso, "2018-02-09T23:53:00.806000000Z");
    assert_true(ntidx_ticks_to_seconds(t, (uint64_t)in->sync_ticks + 1500000000ull) == 1.5);
    ntidx_trace_close(&t);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s TRACES_DIR\n", argv[0]);
        return 2;
    }
    traces_dir = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads_without_error_both_orders),
        cmocka_unit_test(test_stats_agree_with_counts),
        cmocka_unit_test(test_block_ranges_cover_events),
        cmocka_unit_test(test_header_facts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
