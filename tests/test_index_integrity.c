/*
 * The index on disk protects itself: every single-bit flip anywhere in a
 * (small) index file is refused on load, with a message; a file cut short
 * at any length is refused; an index never loads against another trace.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <xxhash.h>

#include <ntidx/index.h>
#include <ntidx/writer.h>

#include "test_files.h"

static char dir[64];

static ntidx_trace *make_trace(const char *path, int version, int full_index, const char *ipath)
{
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    g.format_version = version;
    g.events = 3000;
    g.seed = 7;
    uint8_t *data;
    size_t size;
    assert_int_equal(ntidx_generate_memory(&g, &data, &size), NTIDX_OK);
    write_file(path, data, size);
    free(data);
    ntidx_trace *t;
    assert_int_equal(ntidx_trace_open(path, &t), NTIDX_OK);
    ntidx_index_options o;
    ntidx_index_options_defaults(&o);
    o.full = full_index;
    ntidx_index *x;
    assert_int_equal(ntidx_index_build(t, &o, &x), NTIDX_OK);
    assert_int_equal(ntidx_index_write(x, ipath), NTIDX_OK);
    ntidx_index_close(&x);
    return t;
}

static void sweep(int version, int full)
{
    char tpath[128], ipath[128], bad[128];
    snprintf(tpath, sizeof tpath, "%s/t%d%d.nettrace", dir, version, full);
    snprintf(ipath, sizeof ipath, "%s/t%d%d.ntidx", dir, version, full);
    snprintf(bad, sizeof bad, "%s/bad.ntidx", dir);
    ntidx_trace *t = make_trace(tpath, version, full, ipath);
    size_t n;
    uint8_t *good = read_file(ipath, &n);
    assert_true(n < (1u << 16)); /* small enough to sweep every bit */
    ntidx_index *x;
    ntidx_index_state st;
    assert_int_equal(ntidx_index_load(t, ipath, NTIDX_VERIFY_AUTO, &x, &st), NTIDX_OK);
    ntidx_index_close(&x);
    uint8_t *buf = malloc(n);
    size_t refused = 0;
    for (size_t byte = 0; byte < n; byte++) {
        for (int bit = 0; bit < 8; bit++) {
            memcpy(buf, good, n);
            buf[byte] ^= (uint8_t)(1u << bit);
            write_file(bad, buf, n);
            int rc = ntidx_index_load(t, bad, NTIDX_VERIFY_AUTO, &x, &st);
            if (rc == NTIDX_OK)
                fail_msg("V%d%s index: flipping bit %d of byte %zu was not detected", version, full ? " full" : "", bit,
                         byte);
            assert_null(x);
            assert_true(rc == NTIDX_E_INDEX_CORRUPT || rc == NTIDX_E_INDEX_VERSION);
            assert_true(strlen(ntidx_last_error()) > 0);
            refused++;
        }
    }
    assert_int_equal(refused, n * 8);
    /* cut short at every length */
    for (size_t len = 0; len < n; len++) {
        write_file(bad, good, len);
        assert_true(ntidx_index_load(t, bad, NTIDX_VERIFY_AUTO, &x, &st) < 0);
        assert_null(x);
    }
    free(buf);
    free(good);
    ntidx_trace_close(&t);
    unlink(bad);
    unlink(ipath);
    unlink(tpath);
}

/* Offsets of every event a whole-trace file-order query returns (-1 on any error, with its code in *rc). */
static size_t query_all(ntidx_trace *t, const ntidx_index *x, uint64_t *out, size_t cap, int *rc)
{
    ntidx_query_options o;
    ntidx_query_options_defaults(&o);
    o.recover = 0; /* a corrupt index must be said, not rebuilt, here */
    o.order = NTIDX_ORDER_FILE;
    ntidx_query *q;
    *rc = ntidx_query_open(t, x, &o, &q);
    if (*rc < 0)
        return 0;
    const ntidx_event *e;
    size_t n = 0;
    while ((*rc = ntidx_query_next(q, &e)) == 1)
        if (n < cap)
            out[n++] = e->offset;
    if (*rc < 0)
        assert_true(strlen(ntidx_last_error()) > 0);
    ntidx_query_close(&q);
    return n;
}

/*
 * The same sweep with checks deferred to first use (what large indexes get):
 * every flip is caught, either at load or by ntidx_index_verify_all(); and a
 * query over an index whose flip was left for later either fails with
 * NTIDX_E_INDEX_CORRUPT or, when the flip lies in regions it never needed,
 * returns exactly the events of the intact index.
 */
static void sweep_lazy(int version, int full)
{
    char tpath[128], ipath[128], bad[128];
    snprintf(tpath, sizeof tpath, "%s/l%d%d.nettrace", dir, version, full);
    snprintf(ipath, sizeof ipath, "%s/l%d%d.ntidx", dir, version, full);
    snprintf(bad, sizeof bad, "%s/lbad.ntidx", dir);
    ntidx_trace *t = make_trace(tpath, version, full, ipath);
    size_t n;
    uint8_t *good = read_file(ipath, &n);
    ntidx_index *x;
    ntidx_index_state st;
    assert_int_equal(ntidx_index_load(t, ipath, NTIDX_VERIFY_ON_USE, &x, &st), NTIDX_OK);
    assert_true(ntidx_index_get_info(x)->regions > 1);
    enum { CAP = 1 << 16 };
    uint64_t *ref = malloc(CAP * sizeof *ref), *got = malloc(CAP * sizeof *got);
    int rc;
    size_t nref = query_all(t, x, ref, CAP, &rc);
    assert_int_equal(rc, 0);
    assert_true(nref > 0 && nref < CAP);
    assert_int_equal(ntidx_index_verify_all(x), NTIDX_OK);
    ntidx_index_close(&x);
    uint8_t *buf = malloc(n);
    size_t at_load = 0, deferred = 0, queries_failed = 0, queries_equal = 0;
    for (size_t byte = 0; byte < n; byte++) {
        for (int bit = 0; bit < 8; bit++) {
            memcpy(buf, good, n);
            buf[byte] ^= (uint8_t)(1u << bit);
            write_file(bad, buf, n);
            rc = ntidx_index_load(t, bad, NTIDX_VERIFY_ON_USE, &x, &st);
            if (rc < 0) {
                assert_null(x);
                assert_true(rc == NTIDX_E_INDEX_CORRUPT || rc == NTIDX_E_INDEX_VERSION);
                at_load++;
                continue;
            }
            deferred++;
            if (deferred % 7 == 0) { /* a sample: each query reads the whole trace */
                size_t ngot = query_all(t, x, got, CAP, &rc);
                if (rc < 0) {
                    assert_int_equal(rc, NTIDX_E_INDEX_CORRUPT);
                    queries_failed++;
                } else {
                    assert_int_equal(ngot, nref);
                    assert_memory_equal(got, ref, nref * sizeof *ref);
                    queries_equal++;
                }
            }
            if (ntidx_index_verify_all(x) == NTIDX_OK)
                fail_msg("V%d%s index checked on use: flipping bit %d of byte %zu was not detected", version,
                         full ? " full" : "", bit, byte);
            assert_true(strstr(ntidx_last_error(), "region") != NULL);
            ntidx_index_close(&x);
        }
    }
    print_message("V%d%s: %zu flips caught at load, %zu on use; sampled queries: %zu refused, %zu unaffected\n",
                  version, full ? " full" : "", at_load, deferred, queries_failed, queries_equal);
    /* Flips in the block (and filter) tables are left for later, and sampled queries catch them. */
    assert_true(at_load > 0 && deferred > 0 && queries_failed > 0);
    free(buf);
    free(good);
    free(ref);
    free(got);
    ntidx_trace_close(&t);
    unlink(bad);
    unlink(ipath);
    unlink(tpath);
}

static void test_every_bit_flip_checked_on_use(void **state)
{
    (void)state;
    sweep_lazy(6, 0);
    sweep_lazy(5, 1);
}

static void test_every_bit_flip_v6(void **state)
{
    (void)state;
    sweep(6, 0);
}

static void test_every_bit_flip_v5_full(void **state)
{
    (void)state;
    sweep(5, 1);
}

/* An index of one trace never answers for another, even one of the same size. */
static void test_other_trace_refused(void **state)
{
    (void)state;
    char a[128], b[128], ia[128];
    snprintf(a, sizeof a, "%s/a.nettrace", dir);
    snprintf(b, sizeof b, "%s/b.nettrace", dir);
    snprintf(ia, sizeof ia, "%s/a.ntidx", dir);
    ntidx_trace *ta = make_trace(a, 6, 0, ia);
    ntidx_trace_close(&ta);
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    g.events = 3000;
    g.seed = 8; /* same shape, other bytes */
    uint8_t *data;
    size_t size;
    assert_int_equal(ntidx_generate_memory(&g, &data, &size), NTIDX_OK);
    write_file(b, data, size);
    free(data);
    ntidx_trace *tb;
    assert_int_equal(ntidx_trace_open(b, &tb), NTIDX_OK);
    ntidx_index *x;
    ntidx_index_state st;
    int rc = ntidx_index_load(tb, ia, NTIDX_VERIFY_AUTO, &x, &st);
    assert_true(rc == NTIDX_E_INDEX_STALE || rc == NTIDX_E_INDEX_CORRUPT);
    assert_null(x);
    ntidx_trace_close(&tb);
    unlink(a);
    unlink(b);
    unlink(ia);
}

/*
 * A write that appends to a trace moves its times before its size: a load
 * that falls in between must not take the append for a rewrite in place.
 * The times are moved here by hand and the trace opened (its size the old
 * one, its times new), then the append lands before the load looks at the
 * file again: GROWN. Without the append: STALE. (The append used to come
 * from another process a moment later, within the load's few milliseconds
 * of waiting for growth; on a loaded machine it sometimes came after them.)
 */
static void test_append_in_flight_is_growth(void **state)
{
    (void)state;
    char tpath[128], ipath[128];
    snprintf(tpath, sizeof tpath, "%s/grow.nettrace", dir);
    snprintf(ipath, sizeof ipath, "%s/grow.ntidx", dir);
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    g.events = 3000;
    g.seed = 9;
    g.finish = 0; /* no end-of-stream marker: a writer may go on */
    uint8_t *data;
    size_t size;
    assert_int_equal(ntidx_generate_memory(&g, &data, &size), NTIDX_OK);
    size_t cut = size * 2 / 3;
    for (int append = 1; append >= 0; append--) {
        write_file(tpath, data, cut);
        ntidx_trace *t;
        assert_int_equal(ntidx_trace_open(tpath, &t), NTIDX_OK);
        ntidx_index *x;
        assert_int_equal(ntidx_index_build(t, NULL, &x), NTIDX_OK);
        assert_int_equal(ntidx_index_write(x, ipath), NTIDX_OK);
        ntidx_index_close(&x);
        ntidx_trace_close(&t);
        struct timespec later[2] = {{0, UTIME_NOW}, {0, UTIME_NOW}};
        usleep(2000);
        assert_int_equal(utimensat(AT_FDCWD, tpath, later, 0), 0); /* the times move, the size not yet */
        assert_int_equal(ntidx_trace_open(tpath, &t), NTIDX_OK);
        if (append) {
            FILE *f = fopen(tpath, "ab");
            assert_non_null(f);
            assert_int_equal(fwrite(data + cut, 1, size - cut, f), size - cut);
            assert_int_equal(fclose(f), 0);
        }
        ntidx_index_state st;
        int rc = ntidx_index_load(t, ipath, NTIDX_VERIFY_AUTO, &x, &st);
        if (append) {
            assert_int_equal(rc, NTIDX_OK);
            assert_int_equal(st, NTIDX_INDEX_GROWN);
            ntidx_index_close(&x);
        } else {
            assert_int_equal(rc, NTIDX_E_INDEX_STALE);
        }
        ntidx_trace_close(&t);
    }
    free(data);
    unlink(tpath);
    unlink(ipath);
}

/*
 * An index an older ntidx built of a damaged trace: zeros written over the trace read as an end-of-stream
 * block, and the index said the trace complete at that block with the whole file's size. Today's framing
 * refuses such a trace; its old index must not answer for it either (it said "up to date" and queries
 * past the zeros found nothing): refused on load, and the command's rebuild fails with the damage.
 */
static void test_index_of_damaged_trace_refused(void **state)
{
    (void)state;
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    g.format_version = 6;
    g.target_bytes = 3u << 20;
    g.seed = 10;
    uint8_t *data;
    size_t size;
    assert_int_equal(ntidx_generate_memory(&g, &data, &size), NTIDX_OK);
    /* the first block past 1.5 MiB (the index's head hash covers the first MiB, the same in both) */
    ntidx_trace *t;
    assert_int_equal(ntidx_trace_open_memory(data, size, "whole", &t), NTIDX_OK);
    uint64_t pos = ntidx_trace_get_info(t)->first_block_offset, at = 0;
    ntidx_block b;
    while (ntidx_trace_next_block(t, &pos, &b) == 1 && !at)
        if (b.offset >= (3u << 19))
            at = b.offset;
    ntidx_trace_close(&t);
    assert_true(at > 0 && at + 4096 < size);
    memset(data + at, 0, 4096);
    /* the old index: that of the trace up to the zero word, with the damaged trace's size */
    char ipath[128];
    snprintf(ipath, sizeof ipath, "%s/damaged.ntidx", dir);
    assert_int_equal(ntidx_trace_open_memory(data, at + 4, "damaged", &t), NTIDX_OK);
    ntidx_index *x;
    assert_int_equal(ntidx_index_build(t, NULL, &x), NTIDX_OK);
    assert_int_equal(ntidx_index_get_info(x)->complete, 1);
    assert_int_equal(ntidx_index_write(x, ipath), NTIDX_OK);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
    size_t n;
    uint8_t *m = read_file(ipath, &n);
    uint32_t hsize;
    memcpy(&hsize, m + 12, 4);
    uint64_t v = size;
    memcpy(m + 24, &v, 8); /* the trace size */
    v = XXH3_64bits(m, hsize - 8);
    memcpy(m + hsize - 8, &v, 8);
    write_file(ipath, m, n);
    free(m);
    assert_int_equal(ntidx_trace_open_memory(data, size, "damaged", &t), NTIDX_OK);
    ntidx_index_state st;
    int rc = ntidx_index_load(t, ipath, NTIDX_VERIFY_AUTO, &x, &st);
    if (rc != NTIDX_E_INDEX_CORRUPT)
        fail_msg("the old index of a damaged trace loaded: rc %d state %d", rc, (int)st);
    assert_non_null(strstr(ntidx_last_error(), "end-of-stream marker ends at"));
    ntidx_index_options o;
    ntidx_index_options_defaults(&o);
    assert_int_equal(ntidx_index_open(t, ipath, &o, &x, NULL), NTIDX_E_CORRUPT);
    char want[96];
    snprintf(want, sizeof want, "offset %llu (0x%llx): end-of-stream block, but", (unsigned long long)at,
             (unsigned long long)at);
    assert_non_null(strstr(ntidx_last_error(), want));
    ntidx_trace_close(&t);
    unlink(ipath);
    free(data);
}

int main(void)
{
    /* Tens of thousands of small files are written: keep them in memory when the system allows. */
    snprintf(dir, sizeof dir, "/dev/shm/ntidx-integrity-XXXXXX");
    if (!mkdtemp(dir)) {
        snprintf(dir, sizeof dir, "/tmp/ntidx-integrity-XXXXXX");
        if (!mkdtemp(dir))
            return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_bit_flip_v6),
        cmocka_unit_test(test_every_bit_flip_v5_full),
        cmocka_unit_test(test_every_bit_flip_checked_on_use),
        cmocka_unit_test(test_other_trace_refused),
        cmocka_unit_test(test_append_in_flight_is_growth),
        cmocka_unit_test(test_index_of_damaged_trace_refused),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(dir);
    return rc;
}
