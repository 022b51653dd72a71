/*
 * Progress callbacks of the long operations (ntidx_progress_fn): statistics
 * through the index and by one pass, --full index builds, slices and the generator report done
 * of total, never more than the total, growing, on the calling thread; a
 * callback that returns nonzero cancels with NTIDX_E_CANCELLED; and the
 * results with a callback are the same as without.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <ntidx/index.h>
#include <ntidx/report.h>
#include <ntidx/slice.h>
#include <ntidx/writer.h>

typedef struct seen {
    pthread_t thread;  /* the thread that started the operation */
    uint64_t calls, last_done, total;
    int cancel_after;  /* return nonzero from this call on (0: never) */
    int sleep_ms;      /* a slow callback: other threads go on meanwhile */
    int wrong_thread, went_back, past_total;
} seen;

static int on_progress(void *ctx, uint64_t done, uint64_t total)
{
    seen *s = ctx;
    s->calls++;
    s->wrong_thread |= !pthread_equal(pthread_self(), s->thread);
    s->went_back |= s->calls > 1 && (done < s->last_done || total != s->total);
    s->past_total |= done > total;
    s->last_done = done;
    s->total = total;
    if (s->sleep_ms)
        usleep((useconds_t)s->sleep_ms * 1000);
    return s->cancel_after && s->calls >= (uint64_t)s->cancel_after;
}

static seen watch(int cancel_after)
{
    seen s;
    memset(&s, 0, sizeof s);
    s.thread = pthread_self();
    s.cancel_after = cancel_after;
    return s;
}

static void assert_reported(const seen *s)
{
    assert_true(s->calls >= 2);
    assert_false(s->wrong_thread);
    assert_false(s->went_back);
    assert_false(s->past_total);
    assert_true(s->total > 0);
}

static uint8_t *trace_bytes;
static size_t trace_size;
static ntidx_trace *trace;
static ntidx_index *index_;

static int setup(void **state)
{
    (void)state;
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    g.events = 60000;
    if (ntidx_generate_memory(&g, &trace_bytes, &trace_size) != NTIDX_OK)
        return -1;
    if (ntidx_trace_open_memory(trace_bytes, trace_size, "progress.nettrace", &trace) != NTIDX_OK)
        return -1;
    return ntidx_index_build(trace, NULL, &index_) == NTIDX_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    ntidx_index_close(&index_);
    ntidx_trace_close(&trace);
    free(trace_bytes);
    return 0;
}

static void test_stats_indexed(void **state)
{
    (void)state;
    ntidx_stats_options o;
    ntidx_stats_options_defaults(&o);
    o.threads = 4;
    ntidx_stats *plain, *with;
    assert_int_equal(ntidx_stats_indexed(trace, index_, &o, &plain), NTIDX_OK);
    seen s = watch(0);
    o.progress = on_progress;
    o.progress_ctx = &s;
    assert_int_equal(ntidx_stats_indexed(trace, index_, &o, &with), NTIDX_OK);
    assert_reported(&s);
    assert_int_equal(with->events, plain->events);
    ntidx_stats_free(&with);
    ntidx_stats_free(&plain);
    s = watch(1);
    assert_int_equal(ntidx_stats_indexed(trace, index_, &o, &with), NTIDX_E_CANCELLED);
    assert_null(with);
}

static void test_stats_compute(void **state)
{
    (void)state;
    ntidx_stats *plain, *with;
    assert_int_equal(ntidx_stats_compute(trace, &plain), NTIDX_OK);
    seen s = watch(0);
    assert_int_equal(ntidx_stats_compute_progress(trace, on_progress, &s, &with), NTIDX_OK);
    assert_reported(&s);
    assert_int_equal(with->events, plain->events);
    ntidx_stats_free(&with);
    ntidx_stats_free(&plain);
    s = watch(2);
    assert_int_equal(ntidx_stats_compute_progress(trace, on_progress, &s, &with), NTIDX_E_CANCELLED);
    assert_null(with);
}

static void test_slice(void **state)
{
    (void)state;
    ntidx_slice_options o;
    ntidx_slice_options_defaults(&o);
    uint8_t *plain, *with;
    size_t np, nw;
    assert_int_equal(ntidx_slice_memory(trace, index_, NULL, &o, &plain, &np, NULL), NTIDX_OK);
    seen s = watch(0);
    o.progress = on_progress;
    o.progress_ctx = &s;
    assert_int_equal(ntidx_slice_memory(trace, index_, NULL, &o, &with, &nw, NULL), NTIDX_OK);
    assert_reported(&s);
    assert_int_equal(nw, np);
    assert_memory_equal(with, plain, np);
    free(with);
    free(plain);
    s = watch(1);
    assert_int_equal(ntidx_slice_memory(trace, index_, NULL, &o, &with, &nw, NULL), NTIDX_E_CANCELLED);
}

/* A --full build on threads: only the calling thread reports, and the other threads may run every unit while
   it scans or waits in a slow callback; the pass's end is still reported (the truncate test shrinks the file
   from it). */
static void test_index_full(void **state)
{
    (void)state;
    for (int round = 0; round < 4; round++) {
        ntidx_index_options o;
        ntidx_index_options_defaults(&o);
        o.full = 1;
        o.threads = 4;
        seen s = watch(0);
        s.sleep_ms = round * 10;
        o.progress = on_progress;
        o.progress_ctx = &s;
        ntidx_index *x = NULL;
        assert_int_equal(ntidx_index_build(trace, &o, &x), NTIDX_OK);
        assert_reported(&s);
        assert_true(s.last_done > trace_size - trace_size / 16);
        ntidx_index_close(&x);
    }
}

static void test_generator(void **state)
{
    (void)state;
    for (int shape = 0; shape < 2; shape++) {
        for (int by_size = 0; by_size < 2; by_size++) {
            ntidx_gen_options o;
            ntidx_gen_options_defaults(&o);
            o.shape = shape ? NTIDX_GEN_SHAPE_ONE_COLLECT : NTIDX_GEN_SHAPE_NTIDX;
            if (by_size)
                o.target_bytes = 4 << 20;
            else
                o.events = 30000;
            uint8_t *plain, *with;
            size_t np, nw;
            assert_int_equal(ntidx_generate_memory(&o, &plain, &np), NTIDX_OK);
            seen s = watch(0);
            o.progress = on_progress;
            o.progress_ctx = &s;
            assert_int_equal(ntidx_generate_memory(&o, &with, &nw), NTIDX_OK);
            assert_reported(&s);
            assert_int_equal(s.total, by_size ? o.target_bytes : o.events);
            assert_int_equal(nw, np); /* same options and seed, same bytes */
            assert_memory_equal(with, plain, np);
            free(with);
            free(plain);
            s = watch(1);
            assert_int_equal(ntidx_generate_memory(&o, &with, &nw), NTIDX_E_CANCELLED);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stats_indexed),
        cmocka_unit_test(test_stats_compute),
        cmocka_unit_test(test_slice),
        cmocka_unit_test(test_index_full),
        cmocka_unit_test(test_generator),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
