/*
 * The synthetic-trace generator: deterministic output, and traces that keep
 * every promise of the format (read back with the reader): per-thread time
 * order with interleaving across threads, sequence-point time bounds,
 * IsSorted marks, drops seen exactly as generated, flushes, thread removal,
 * every field type present, payloads that decode.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <ntidx/writer.h>

#include "generator_internal.h"

static uint64_t ld64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint8_t *gen(const ntidx_gen_options *o, size_t *size, ntidx_w_gen_stats *st)
{
    uint8_t *d = NULL;
    int rc = ntidx_w_generate(-1, NULL, o, &d, size, st);
    assert_int_equal(rc, NTIDX_OK);
    assert_non_null(d);
    return d;
}

static void test_deterministic(void **state)
{
    (void)state;
    for (int v = 5; v <= 6; v++) {
        ntidx_gen_options o;
        ntidx_gen_options_defaults(&o);
        o.format_version = v;
        o.events = 20000;
        o.seed = 7;
        o.drop_rate = 0.01;
        size_t n1, n2, n3;
        uint8_t *a = NULL, *b = NULL, *c = NULL;
        assert_int_equal(ntidx_generate_memory(&o, &a, &n1), NTIDX_OK);
        assert_int_equal(ntidx_generate_memory(&o, &b, &n2), NTIDX_OK);
        assert_int_equal(n1, n2);
        assert_memory_equal(a, b, n1);
        /* A file gets the same bytes. */
        char path[] = "/tmp/ntidx-gen-XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        close(fd);
        assert_int_equal(ntidx_generate_file(path, &o), NTIDX_OK);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        uint8_t *file = malloc(n1 + 1);
        assert_non_null(file);
        assert_int_equal(fread(file, 1, n1 + 1, f), n1);
        fclose(f);
        unlink(path);
        assert_memory_equal(file, a, n1);
        free(file);
        /* Another seed, other bytes. */
        o.seed = 8;
        assert_int_equal(ntidx_generate_memory(&o, &c, &n3), NTIDX_OK);
        assert_true(n3 != n1 || memcmp(a, c, n1) != 0);
        free(a);
        free(b);
        free(c);
    }
}

static void collect_codes(const ntidx_field *f, uint32_t n, uint32_t *mask, int depth)
{
    for (uint32_t i = 0; i < n && depth < 8; i++) {
        if (f[i].type_code < 32) /* the manifest's internal codes (0x80...) are not the trace's */
            *mask |= 1u << f[i].type_code;
        if (f[i].element)
            collect_codes(f[i].element, 1, mask, depth + 1);
        if (f[i].fields)
            collect_codes(f[i].fields, f[i].field_count, mask, depth + 1);
    }
}

#define MAX_THREAD_KEYS 4096

/* Read a generated trace and check the format's promises. */
static void check_generated(const ntidx_gen_options *o)
{
    size_t size;
    ntidx_w_gen_stats st;
    uint8_t *d = gen(o, &size, &st);
    int v6 = o->format_version == 6;

    ntidx_trace *t = NULL;
    if (ntidx_trace_open_memory(d, size, "gen", &t) != NTIDX_OK)
        fail_msg("open: %s", ntidx_last_error());
    assert_int_equal(ntidx_trace_get_info(t)->format_version, o->format_version);

    /* Blocks: sequence-point offsets and times, sizes, counts. */
    size_t cap = 4096, nsp = 0;
    uint64_t *sp_off = calloc(cap, 8), *sp_ts = calloc(cap, 8);
    assert_non_null(sp_off);
    assert_non_null(sp_ts);
    uint64_t pos = ntidx_trace_get_info(t)->first_block_offset, kinds[NTIDX_BLOCK_KIND_COUNT] = {0};
    ntidx_block b;
    int rc;
    while ((rc = ntidx_trace_next_block(t, &pos, &b)) == 1) {
        kinds[b.kind]++;
        if (b.kind == NTIDX_BLOCK_EVENT)
            assert_true(b.payload_size <= 100000);
        if (b.kind == NTIDX_BLOCK_SEQUENCE_POINT) {
            assert_true(nsp < cap);
            sp_off[nsp] = b.offset;
            sp_ts[nsp] = ld64(d + b.payload_offset);
            if (nsp)
                assert_true(sp_ts[nsp] > sp_ts[nsp - 1]);
            nsp++;
        }
    }
    assert_int_equal(rc, o->finish ? 0 : NTIDX_E_TRUNCATED);
    assert_int_equal(nsp, st.sequence_points);
    assert_true(nsp >= 3);
    assert_int_equal(kinds[NTIDX_BLOCK_STACK], nsp); /* one per region */
    assert_int_equal(kinds[NTIDX_BLOCK_LABEL_LIST], v6 ? nsp : 0);
    assert_int_equal(kinds[NTIDX_BLOCK_REMOVE_THREAD], st.threads_removed);
    if (o->remove_threads)
        assert_true(st.threads_removed > 0);
    if (o->metadata_flush_every)
        assert_true(st.metadata_flushes > 0 && kinds[NTIDX_BLOCK_METADATA] > 1);
    if (o->thread_flush_every)
        assert_true(st.thread_flushes > 0);

    ntidx_reader *r = NULL;
    ntidx_reader_options ro;
    ntidx_reader_options_defaults(&ro);
    assert_int_equal(ntidx_reader_open(t, &ro, &r), NTIDX_OK);
    uint64_t *ts = malloc(st.events * 8);
    uint8_t *sorted = malloc(st.events);
    uint64_t *last = calloc(MAX_THREAD_KEYS, 8);
    assert_non_null(ts);
    assert_non_null(sorted);
    assert_non_null(last);
    const ntidx_event *e;
    ntidx_buf json = {0};
    size_t n = 0, sp = 0, backwards = 0;
    uint32_t codes = 0;
    uint64_t prev_capture = UINT64_MAX;
    while ((rc = ntidx_reader_next(r, &e)) == 1) {
        assert_true(n < st.events);
        /* The capture thread changes only at an IsSorted event, as the runtime writes runs (TraceEvent
           attributes an unmarked event to the thread of the last marked one). */
        if (e->capture_thread_index != prev_capture && !e->is_sorted)
            fail_msg("event %zu: capture thread %llu follows %llu without IsSorted", n,
                     (unsigned long long)e->capture_thread_index, (unsigned long long)prev_capture);
        prev_capture = e->capture_thread_index;
        /* Each capture thread's events are in time order. */
        assert_true(e->capture_thread_index < MAX_THREAD_KEYS || !v6);
        uint64_t key = e->capture_thread_index % MAX_THREAD_KEYS;
        assert_true(e->timestamp >= last[key]);
        last[key] = e->timestamp;
        if (n && e->timestamp < ts[n - 1])
            backwards++;
        /* Between two sequence points in the file, between their times. */
        while (sp < nsp && sp_off[sp] < e->offset)
            sp++;
        if (sp > 0)
            assert_true(e->timestamp >= sp_ts[sp - 1]);
        if (sp < nsp)
            assert_true(e->timestamp <= sp_ts[sp]);
        json.len = 0;
        if (ntidx_event_fields_json(t, e, &json) != NTIDX_OK)
            fail_msg("event %zu (%s): %s", n, e->metadata->event_name, ntidx_last_error());
        collect_codes(e->metadata->fields, e->metadata->field_count, &codes, 0);
        if (v6) {
            /* the runtime's events keep their version: readers decode them by it */
            if (!strcmp(e->metadata->provider, "Microsoft-Windows-DotNETRuntime"))
                assert_int_equal(e->metadata->label_overrides >> 17 & 1, 0);
            assert_non_null(e->thread);
            assert_true(e->thread->has_os_thread_id && e->thread->has_os_process_id);
            assert_non_null(e->thread->name);
        }
        ts[n] = e->timestamp;
        sorted[n] = (uint8_t)e->is_sorted;
        n++;
    }
    if (rc < 0)
        fail_msg("reader: %s", ntidx_last_error());
    assert_int_equal(n, st.events);
    assert_int_equal(ntidx_reader_complete(r), o->finish ? 1 : 0);
    if (!o->target_bytes)
        assert_int_equal(n, o->events);
    if (o->threads > 1)
        assert_true(backwards > 0); /* threads interleave out of order */

    /* IsSorted: every later event in file order is at least as late. */
    uint64_t min_after = UINT64_MAX, marks = 0;
    for (size_t i = n; i-- > 0;) {
        if (sorted[i]) {
            marks++;
            assert_true(ts[i] <= min_after);
        }
        if (ts[i] < min_after)
            min_after = ts[i];
    }
    assert_int_equal(marks, st.sorted_marks);
    assert_true(marks > 0);

    /* Every type code of the version appears in some metadata (but DateTime in V6, which the spec and
       TraceEvent read differently: the generator leaves it out). */
    uint32_t want = 1u << NTIDX_TYPE_OBJECT;
    for (int c = NTIDX_TYPE_BOOLEAN32; c <= (v6 ? NTIDX_TYPE_BOOLEAN8 : NTIDX_TYPE_ARRAY); c++)
        want |= 1u << c;
    if (v6)
        want &= ~(1u << NTIDX_TYPE_DATETIME);
    assert_int_equal(codes, want);

    /* The reader sees exactly the events the generator dropped. */
    assert_true(ntidx_reader_get_stats(r)->dropped_events == st.dropped);
    if (o->drop_rate > 0)
        assert_true(st.dropped > 0);
    else
        assert_true(st.dropped == 0);

    ntidx_buf_free(&json);
    free(ts);
    free(sorted);
    free(last);
    free(sp_off);
    free(sp_ts);
    ntidx_reader_close(&r);
    ntidx_trace_close(&t);
    free(d);
}

static ntidx_gen_options base(int v, uint64_t events)
{
    ntidx_gen_options o;
    ntidx_gen_options_defaults(&o);
    o.format_version = v;
    o.events = events;
    o.seed = 42;
    return o;
}

static void test_v6_default(void **state)
{
    (void)state;
    ntidx_gen_options o = base(6, 30000);
    check_generated(&o);
}

static void test_v5_default(void **state)
{
    (void)state;
    ntidx_gen_options o = base(5, 30000);
    check_generated(&o);
}

static void test_v5_drops_uncompressed(void **state)
{
    (void)state;
    ntidx_gen_options o = base(5, 20000);
    o.drop_rate = 0.05;
    o.compressed_headers = 0;
    o.threads = 3;
    check_generated(&o);
}

static void test_v6_everything(void **state)
{
    (void)state;
    ntidx_gen_options o = base(6, 40000);
    o.drop_rate = 0.02;
    o.metadata_flush_every = 2;
    o.thread_flush_every = 3;
    o.remove_threads = 1;
    o.threads = 16;
    check_generated(&o);
    o.compressed_headers = 0;
    o.finish = 0;
    o.threads = 1;
    check_generated(&o);
}

/* --size: the trace stops as soon as it reaches the target. */
static void test_target_size(void **state)
{
    (void)state;
    for (int v = 5; v <= 6; v++) {
        ntidx_gen_options o = base(v, 0);
        o.target_bytes = 3u << 20;
        o.drop_rate = 0.001;
        size_t size;
        ntidx_w_gen_stats st;
        uint8_t *d = gen(&o, &size, &st);
        assert_true(size >= o.target_bytes);
        assert_true(size < o.target_bytes + 4096);
        free(d);
        check_generated(&o);
    }
}

static void test_bad_options(void **state)
{
    (void)state;
    uint8_t *d = NULL;
    size_t n = 0;
    ntidx_gen_options o = base(5, 100);
    o.remove_threads = 1; /* V6 only */
    assert_int_equal(ntidx_generate_memory(&o, &d, &n), NTIDX_E_INVALID_ARG);
    assert_null(d);
    o = base(6, 100);
    o.threads = 0;
    assert_int_equal(ntidx_generate_memory(&o, &d, &n), NTIDX_E_INVALID_ARG);
    o = base(6, 100);
    o.drop_rate = 1.0;
    assert_int_equal(ntidx_generate_memory(&o, &d, &n), NTIDX_E_INVALID_ARG);
    o = base(4, 100);
    assert_int_equal(ntidx_generate_memory(&o, &d, &n), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_generate_memory(NULL, NULL, &n), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_generate_file("/nonexistent-dir/x.nettrace", NULL), NTIDX_E_IO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_v6_default),
        cmocka_unit_test(test_v5_default),
        cmocka_unit_test(test_v5_drops_uncompressed),
        cmocka_unit_test(test_v6_everything),
        cmocka_unit_test(test_target_size),
        cmocka_unit_test(test_bad_options),
    };
    return cmocka_run_group_tests_name("writer_generator", tests, NULL, NULL);
}
