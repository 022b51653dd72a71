/*
 * Times as people write them (ntidx_parse_time(), ntidx_iso8601_to_ticks(),
 * ntidx_parse_duration()): a time no tick names is an error that names the
 * value, never clamped to the first or last tick nor wrapped; and what is
 * computed from times near the ends of the tick range (histogram buckets,
 * seconds since the sync time) does not wrap either.
 *
 * The traces are made in memory: one with nanosecond ticks as .NET on Linux
 * writes them (where 99999999999 s is past the last tick), one with the
 * 100 ns ticks of Windows (where it is not).
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <ntidx/index.h>
#include <ntidx/writer.h>

/* An empty trace (header, trace block, end) with these ticks; freed by ntidx_trace_close(). */
static ntidx_trace *empty_trace(int64_t frequency, int64_t sync_ticks, ntidx_systime sync_utc, uint8_t **bytes)
{
    ntidx_writer_options o;
    ntidx_writer_options_defaults(&o);
    o.tick_frequency = frequency;
    o.sync_ticks = sync_ticks;
    o.sync_time_utc = sync_utc;
    ntidx_writer *w = NULL;
    assert_int_equal(ntidx_writer_open_memory(&o, &w), NTIDX_OK);
    assert_int_equal(ntidx_writer_finish(w), NTIDX_OK);
    size_t n;
    const uint8_t *p = ntidx_writer_memory(w, &n);
    *bytes = malloc(n);
    assert_non_null(*bytes);
    memcpy(*bytes, p, n);
    assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
    ntidx_trace *t = NULL;
    assert_int_equal(ntidx_trace_open_memory(*bytes, n, "times.nettrace", &t), NTIDX_OK);
    return t;
}

/* The sync time of the shared trace only_managed_samples.nettrace: nanosecond ticks, 2020-11-25. */
static const ntidx_systime LINUX_SYNC = {2020, 11, 3, 25, 0, 16, 23, 949};
static const int64_t LINUX_SYNC_TICKS = 263861290467008;

/* Out of range: NTIDX_E_INVALID_ARG, and the message names the value. */
static void refused(const ntidx_trace *t, const char *s)
{
    uint64_t ticks = 12345;
    int rc = ntidx_parse_time(t, s, &ticks);
    if (rc != NTIDX_E_INVALID_ARG)
        fail_msg("'%s': %d (ticks %" PRIu64 "), expected NTIDX_E_INVALID_ARG", s, rc, ticks);
    if (!strstr(ntidx_last_error(), s))
        fail_msg("'%s': the message does not name it: %s", s, ntidx_last_error());
    assert_int_equal(ticks, 12345); /* nothing written on failure */
}

static uint64_t parsed(const ntidx_trace *t, const char *s)
{
    uint64_t ticks;
    if (ntidx_parse_time(t, s, &ticks) != NTIDX_OK)
        fail_msg("'%s': %s", s, ntidx_last_error());
    return ticks;
}

static void test_out_of_range_times(void **state)
{
    (void)state;
    uint8_t *bytes;
    ntidx_trace *t = empty_trace(1000000000, LINUX_SYNC_TICKS, LINUX_SYNC, &bytes);
    /* what issue 25 saw become the last tick (an empty answer) or wrap (every event) */
    refused(t, "1e400s");
    refused(t, "infs");
    refused(t, "nans");
    refused(t, "99999999999s");
    refused(t, "184467440737s");
    refused(t, "9999-12-31T23:59:59Z");
    refused(t, "99999-01-01T00:00:00Z"); /* five-digit years are no ISO-8601 of ours */
    refused(t, "18446744073709551616");  /* 2^64 ticks */
    refused(t, "1e5000s");               /* beyond long double: infinity */
    refused(t, "0x10s");
    /* before tick 0: the sync time is 263861.29 s after it */
    refused(t, "-263862s");
    refused(t, "1601-01-01T00:00:00Z");
    /* the message says the range, in seconds and as dates (tick 0 is three days before the sync time) */
    assert_non_null(strstr(ntidx_last_error(), "-263861.29 s"));
    assert_non_null(strstr(ntidx_last_error(), "(2020-11-21T22:58:42.658532Z to 2605-06-12T22:33:16.368084Z)"));
    /* the ends themselves are times */
    assert_true(parsed(t, "18446744073709551615") == UINT64_MAX);
    assert_true(parsed(t, "0") == 0);
    assert_true(parsed(t, "-263861.290467008s") == 0);
    assert_true(parsed(t, "-263861290467008ns") == 0);
    refused(t, "-263861290467009ns");
    /* 2600 fits nanosecond ticks from 2020 (they last until 2604): a time after the trace, not all of it */
    uint64_t y2600 = parsed(t, "2600-01-01T00:00:00Z");
    assert_true(y2600 > (uint64_t)LINUX_SYNC_TICKS + 500ull * 365 * 86400 * 1000000000ull);
    /* exact, with the sync time's milliseconds: 2020-11-25T00:16:23.949Z is the sync tick */
    assert_true(parsed(t, "2020-11-25T00:16:23.949Z") == (uint64_t)LINUX_SYNC_TICKS);
    assert_true(parsed(t, "2020-11-25T00:16:23.9490000015Z") == (uint64_t)LINUX_SYNC_TICKS + 2); /* rounded */
    assert_true(parsed(t, "2020-11-25T00:16:25Z") == (uint64_t)LINUX_SYNC_TICKS + 1051000000ull);
    assert_true(parsed(t, "1.5s") == (uint64_t)LINUX_SYNC_TICKS + 1500000000ull);
    assert_true(parsed(t, "-1.5s") == (uint64_t)LINUX_SYNC_TICKS - 1500000000ull);
    /* not dates */
    static const char *const bad[] = {"2021-02-29T00:00:00Z", "2021-13-01T00:00:00Z", "2021-1-01T00:00:00Z",
                                      "2021-01-01T24:00:00Z", "2021-01-01T00:00:00.Z", "2021-01-01T00:00:00",
                                      "+2021-01-01T00:00:00Z", "2021-01-01 00:00:00Z", "1.5", "s", "1.5 s",
                                      " 1.5s", "1e", "--1s", "."};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t ticks;
        if (ntidx_parse_time(t, bad[i], &ticks) != NTIDX_E_INVALID_ARG)
            fail_msg("'%s' taken as a time", bad[i]);
    }
    assert_true(parsed(t, "2024-02-29T00:00:00Z") > (uint64_t)LINUX_SYNC_TICKS); /* a leap day */
    ntidx_trace_close(&t);
    free(bytes);

    /* 100 ns ticks from 2026: 99999999999 s and the year 9999 are ticks, far after the trace */
    ntidx_systime sync2026 = {2026, 1, 4, 1, 0, 0, 0, 0};
    t = empty_trace(10000000, 864000000000, sync2026, &bytes);
    assert_true(parsed(t, "99999999999s") == 864000000000ull + 999999999990000000ull);
    uint64_t y9999 = parsed(t, "9999-12-31T23:59:59Z");
    assert_true(y9999 > 864000000000ull + 7900ull * 365 * 86400 * 10000000ull);
    refused(t, "99999999999999s");
    ntidx_trace_close(&t);
    free(bytes);
}

static void test_durations(void **state)
{
    (void)state;
    uint8_t *bytes;
    ntidx_trace *t = empty_trace(1000000000, LINUX_SYNC_TICKS, LINUX_SYNC, &bytes);
    uint64_t d = 7;
    assert_int_equal(ntidx_parse_duration(t, "10ms", &d), NTIDX_OK);
    assert_true(d == 10000000);
    assert_int_equal(ntidx_parse_duration(t, "1234", &d), NTIDX_OK); /* ticks, not from the sync time */
    assert_true(d == 1234);
    assert_int_equal(ntidx_parse_duration(t, "0s", &d), NTIDX_OK);
    assert_true(d == 0);
    static const char *const bad[] = {"99999999999999999999s", "99999999999999999999", "1e400s", "infs",
                                      "-1s", "-1", "2026-01-01T00:00:00Z", "1.5", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        d = 7;
        if (ntidx_parse_duration(t, bad[i], &d) != NTIDX_E_INVALID_ARG)
            fail_msg("'%s' taken as a duration (%" PRIu64 ")", bad[i], d);
        assert_int_equal(d, 7);
        if (bad[i][0] && !strstr(ntidx_last_error(), bad[i]))
            fail_msg("'%s': the message does not name it: %s", bad[i], ntidx_last_error());
    }
    ntidx_trace_close(&t);
    free(bytes);
}

/* Seconds since the sync time of ticks far after it are not negative (a 64-bit difference would wrap). */
static void test_seconds_far_away(void **state)
{
    (void)state;
    uint8_t *bytes;
    ntidx_systime sync2026 = {2026, 1, 4, 1, 0, 0, 0, 0};
    ntidx_trace *t = empty_trace(10000000, 864000000000, sync2026, &bytes);
    double s = ntidx_ticks_to_seconds(t, UINT64_MAX);
    assert_true(s > 1.8e12 && s < 1.9e12);
    assert_true(ntidx_ticks_to_seconds(t, 0) == -86400.0);
    assert_true(ntidx_ticks_to_seconds(t, 864000000000ull + 15000000) == 1.5);
    ntidx_trace_close(&t);
    free(bytes);
}

/* A histogram bucket as wide as the tick range ends at the last tick, after it starts. */
static void test_histogram_wide_bucket(void **state)
{
    (void)state;
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    g.events = 2000;
    uint8_t *data;
    size_t size;
    assert_int_equal(ntidx_generate_memory(&g, &data, &size), NTIDX_OK);
    ntidx_trace *t = NULL;
    assert_int_equal(ntidx_trace_open_memory(data, size, "wide.nettrace", &t), NTIDX_OK);
    ntidx_index *x = NULL;
    assert_int_equal(ntidx_index_build(t, NULL, &x), NTIDX_OK);
    static const uint64_t widths[] = {UINT64_MAX, UINT64_MAX - 1000, 1ull << 63};
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        ntidx_stats_options o;
        ntidx_stats_options_defaults(&o);
        o.bucket_ticks = widths[i];
        ntidx_stats *s = NULL;
        assert_int_equal(ntidx_stats_indexed(t, x, &o, &s), NTIDX_OK);
        assert_int_equal(s->bucket_count, 1);
        assert_true(s->histogram[0].events == 2000);
        assert_true(s->histogram[0].start_ts == s->first_ts);
        assert_true(s->histogram[0].end_ts > s->histogram[0].start_ts);
        assert_true(ntidx_ticks_to_seconds(t, s->histogram[0].end_ts) > 0);
        ntidx_stats_free(&s);
    }
    /* as many buckets as the window has ticks, over a window that reaches the last tick */
    ntidx_stats_options o;
    ntidx_stats_options_defaults(&o);
    o.t0 = UINT64_MAX - 10;
    o.t1 = UINT64_MAX;
    o.buckets = 3;
    ntidx_stats *s = NULL;
    assert_int_equal(ntidx_stats_indexed(t, x, &o, &s), NTIDX_OK);
    assert_true(s->events == 0);
    for (size_t i = 0; i < s->bucket_count; i++)
        assert_true(s->histogram[i].end_ts > s->histogram[i].start_ts);
    ntidx_stats_free(&s);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_out_of_range_times),
        cmocka_unit_test(test_durations),
        cmocka_unit_test(test_seconds_far_away),
        cmocka_unit_test(test_histogram_wide_bucket),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
