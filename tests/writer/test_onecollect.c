/*
 * ntidx gen's one-collect shape (NTIDX_GEN_SHAPE_ONE_COLLECT): the block
 * structure one-collect writes, read back as TraceEvent reads it (its
 * Universal.System strings with a 16-bit length), and indexed with true time
 * ranges: a last block whose maximum is all ones (the end of capture not
 * known) shows in no last_ts, region or seek.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <ntidx/index.h>
#include <ntidx/ntidx.h>
#include <ntidx/writer.h>

static uint8_t *gen(uint64_t events, uint64_t target, int unknown_end, int finish, size_t *size)
{
    ntidx_gen_options o;
    ntidx_gen_options_defaults(&o);
    o.shape = NTIDX_GEN_SHAPE_ONE_COLLECT;
    o.events = events;
    o.target_bytes = target;
    o.seed = 5;
    o.unknown_end = unknown_end;
    o.finish = finish;
    uint8_t *d;
    if (ntidx_generate_memory(&o, &d, size) != NTIDX_OK)
        fail_msg("generate: %s", ntidx_last_error());
    return d;
}

static uint64_t ld64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The blocks as one-collect orders them, and the events as it encodes them. */
static void check_shape(ntidx_trace *t, int unknown_end, int finish, uint64_t *last_event_ts)
{
    uint64_t pos = ntidx_trace_get_info(t)->first_block_offset;
    ntidx_block b;
    int rc, meta = 0, events = 0;
    ntidx_block_kind prev = NTIDX_BLOCK_TRACE;
    uint64_t prev_max = ntidx_trace_get_info(t)->sync_ticks, last_min = 0, last_max = 0;
    while ((rc = ntidx_trace_next_block(t, &pos, &b)) == 1) {
        const uint8_t *p = ntidx_trace_data(t, NULL) + b.payload_offset;
        switch (b.kind) {
        case NTIDX_BLOCK_METADATA: meta++; break;
        case NTIDX_BLOCK_SEQUENCE_POINT:
            /* its time: the previous block's last event (the sync time at first); flush threads */
            if (!(finish && pos + 4 >= ntidx_trace_get_info(t)->file_size))
                assert_true(ld64(p) == prev_max);
            assert_int_equal(p[8], 1);
            break;
        case NTIDX_BLOCK_STACK: assert_int_equal(prev, NTIDX_BLOCK_SEQUENCE_POINT); assert_int_equal(p[0], 1); break;
        case NTIDX_BLOCK_THREAD: assert_int_equal(prev, NTIDX_BLOCK_STACK); break;
        case NTIDX_BLOCK_LABEL_LIST: assert_int_equal(prev, NTIDX_BLOCK_THREAD); assert_int_equal(p[0], 1); break;
        case NTIDX_BLOCK_EVENT:
            assert_int_equal(prev, NTIDX_BLOCK_LABEL_LIST);
            assert_true(b.payload_size <= (1u << 20) + 4096); /* ~1 MiB */
            assert_int_equal(p[2], 1);                        /* compressed */
            assert_true(ld64(p + 4) == prev_max);             /* minimum: the previous block's last */
            last_min = ld64(p + 4);
            last_max = prev_max = ld64(p + 12);
            events++;
            break;
        default: break;
        }
        prev = b.kind;
    }
    if (!(rc == 0 || (!finish && rc == NTIDX_E_TRUNCATED))) /* no end-of-stream: the walk runs out */
        fail_msg("block walk: %d %s", rc, ntidx_last_error());
    assert_int_equal(meta, 1);
    assert_true(events > 0);
    (void)last_min;
    if (finish && unknown_end)
        assert_true(last_max == UINT64_MAX);
    else
        assert_true(last_max != UINT64_MAX);

    /* events: one capture thread, every one IsSorted, in time order, sequence numbers per block */
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    const ntidx_event *e;
    uint64_t n = 0, ts = 0, strings = 0;
    ntidx_buf json = {0};
    while ((rc = ntidx_reader_next(r, &e)) == 1) {
        assert_int_equal(e->capture_thread_index, 0);
        assert_int_equal(e->is_sorted, 1);
        assert_true(e->timestamp >= ts);
        ts = e->timestamp;
        json.len = 0;
        if (ntidx_event_fields_json(t, e, &json) != NTIDX_OK)
            fail_msg("event %llu: %s", (unsigned long long)n, ntidx_last_error());
        if (!strcmp(e->metadata->provider, "Universal.System") && strstr(json.data, "\"Name\":\"proc-"))
            strings++; /* a 16-bit length and UTF-8, as TraceEvent reads it */
        n++;
    }
    assert_int_equal(rc, 0);
    assert_true(strings > 0);
    assert_int_equal(ntidx_reader_get_stats(r)->dropped_events, 0);
    assert_int_equal(ntidx_reader_complete(r), finish);
    ntidx_reader_close(&r);
    ntidx_buf_free(&json);
    *last_event_ts = ts;
}

/* No time range the blocks, the index or the statistics show is all ones: the last block's range ends at
   its last event, or at the end of capture one-collect states (a bound, within a millisecond of it). */
static void check_index(ntidx_trace *t, uint64_t last_ts)
{
    /* the blocks' time ranges (what ntidx info reads): the all-ones maximum is decoded, not taken */
    uint64_t pos = ntidx_trace_get_info(t)->first_block_offset, hi_all = 0;
    ntidx_block b;
    int brc;
    while ((brc = ntidx_trace_next_block(t, &pos, &b)) == 1) {
        uint64_t lo, hi;
        if (b.kind == NTIDX_BLOCK_EVENT && ntidx_event_block_time_range(t, &b, &lo, &hi, NULL) == 1 && hi > hi_all)
            hi_all = hi;
    }
    /* one-collect's last maximum is the end of capture when known: a bound, not an event's time */
    assert_true(hi_all != UINT64_MAX && hi_all >= last_ts && hi_all - last_ts <= 1000000);
    ntidx_index *x;
    assert_int_equal(ntidx_index_build(t, NULL, &x), NTIDX_OK);
    uint64_t nr = ntidx_index_region_count(x), max = 0;
    assert_true(nr > 1);
    for (uint64_t i = 0; i < nr; i++) {
        ntidx_region g;
        assert_int_equal(ntidx_index_region(x, i, &g), NTIDX_OK);
        if (g.first_ts <= g.last_ts) {
            assert_true(g.last_ts != UINT64_MAX);
            if (g.last_ts > max)
                max = g.last_ts;
        }
    }
    assert_true(max == hi_all); /* the regions' span is the blocks' */
    /* a seek past the end finds nothing; one at the last event finds it; the last 10 ms read back */
    ntidx_query_options o;
    ntidx_query_options_defaults(&o);
    ntidx_query_options_seek(&o, last_ts + 1);
    ntidx_query *q;
    const ntidx_event *e;
    assert_int_equal(ntidx_query_open(t, x, &o, &q), NTIDX_OK);
    assert_int_equal(ntidx_query_next(q, &e), 0);
    ntidx_query_close(&q);
    ntidx_query_options_seek(&o, last_ts);
    assert_int_equal(ntidx_query_open(t, x, &o, &q), NTIDX_OK);
    assert_int_equal(ntidx_query_next(q, &e), 1);
    assert_true(e->timestamp == last_ts);
    ntidx_query_close(&q);
    ntidx_query_options_defaults(&o);
    o.t0 = last_ts - 10000000;
    assert_int_equal(ntidx_query_open(t, x, &o, &q), NTIDX_OK);
    uint64_t n = 0;
    int rc;
    while ((rc = ntidx_query_next(q, &e)) == 1) {
        assert_true(e->timestamp >= o.t0);
        n++;
    }
    assert_int_equal(rc, 0);
    assert_true(n > 0);
    ntidx_query_close(&q);
    /* statistics through the index agree */
    ntidx_stats *st;
    assert_int_equal(ntidx_stats_indexed(t, x, NULL, &st), NTIDX_OK);
    assert_true(st->last_ts == last_ts);
    ntidx_stats_free(&st);
    ntidx_index_close(&x);
}

static void run(uint64_t events, uint64_t target, int unknown_end, int finish)
{
    size_t size;
    uint8_t *d = gen(events, target, unknown_end, finish, &size);
    ntidx_trace *t;
    assert_int_equal(ntidx_trace_open_memory(d, size, "one-collect", &t), NTIDX_OK);
    assert_int_equal(ntidx_trace_get_info(t)->format_version, 6);
    uint64_t last;
    check_shape(t, unknown_end, finish, &last);
    check_index(t, last);
    ntidx_trace_close(&t);
    free(d);
}

static void test_end_known(void **state)
{
    (void)state;
    run(0, 5u << 20, 0, 1);
}

static void test_end_unknown(void **state)
{
    (void)state;
    run(0, 5u << 20, 1, 1);
}

static void test_unfinished(void **state)
{
    (void)state;
    run(200000, 0, 1, 0);
}

static void test_options(void **state)
{
    (void)state;
    ntidx_gen_options o;
    ntidx_gen_options_defaults(&o);
    o.shape = NTIDX_GEN_SHAPE_ONE_COLLECT;
    o.format_version = 5;
    uint8_t *d;
    size_t size;
    assert_int_equal(ntidx_generate_memory(&o, &d, &size), NTIDX_E_INVALID_ARG);
    ntidx_gen_options_defaults(&o);
    o.unknown_end = 1; /* a one-collect option */
    assert_int_equal(ntidx_generate_memory(&o, &d, &size), NTIDX_E_INVALID_ARG);
    /* same options and seed, same bytes */
    uint8_t *a = gen(30000, 0, 0, 1, &size);
    size_t size2;
    uint8_t *b = gen(30000, 0, 0, 1, &size2);
    assert_int_equal(size, size2);
    assert_memory_equal(a, b, size);
    free(a);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_end_known),
        cmocka_unit_test(test_end_unknown),
        cmocka_unit_test(test_unfinished),
        cmocka_unit_test(test_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
