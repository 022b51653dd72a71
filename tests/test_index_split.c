/*
 * The header scan on several threads (src/index/scan_split.c) builds the
 * index one thread builds, byte for byte, and fails with the same message
 * where one thread fails: on the shared traces, on generated ones, on
 * hundreds of damaged copies of them, and on a trace whose event payloads
 * are full of byte runs that frame like event blocks, where the helpers'
 * guesses go wrong and must be given up. The same for --full builds of a
 * cached trace, whose scan is split too, its regions handed to the workers
 * as the helpers' records close them.
 *
 * Usage: test_index_split TRACES_DIR
 */
#include <dirent.h>
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
#include <ntidx/writer.h>

#include "index_internal.h"
#include "scan_split.h"
#include "test_files.h"

static const char *traces_dir;
static char dir[64];
static int full_builds; /* build() makes --full indexes */

/* What building the index of `t` with `threads` threads gave: the code, the message, the written bytes. */
typedef struct outcome {
    int rc;
    char msg[1024];
    uint8_t *bytes;
    size_t n;
} outcome;

static void build(ntidx_trace *t, unsigned threads, outcome *out)
{
    ntidx_index_options o;
    ntidx_index_options_defaults(&o);
    o.threads = threads;
    o.full = full_builds;
    ntidx_index *x = NULL;
    memset(out, 0, sizeof *out);
    out->rc = ntidx_index_build(t, &o, &x);
    if (out->rc < 0) {
        snprintf(out->msg, sizeof out->msg, "%s", ntidx_last_error());
        return;
    }
    char path[128];
    snprintf(path, sizeof path, "%s/built.ntidx", dir);
    assert_int_equal(ntidx_index_write(x, path), NTIDX_OK);
    ntidx_index_close(&x);
    out->bytes = read_file(path, &out->n);
    unlink(path);
}

/*
 * Every thread count gives what one thread gives, which is left in *one
 * (free its bytes). 1: the file is not a trace any more (opening does not
 * depend on threads).
 */
static int same_with_threads(const char *trace_path, outcome *one)
{
    ntidx_trace *t;
    memset(one, 0, sizeof *one);
    if (ntidx_trace_open(trace_path, &t) < 0)
        return 1;
    outcome many;
    build(t, 1, one);
    static const unsigned counts[] = {2, 3, 5, 8};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        build(t, counts[i], &many);
        if (one->rc != many.rc || strcmp(one->msg, many.msg) != 0 || one->n != many.n ||
            (one->n && memcmp(one->bytes, many.bytes, one->n) != 0))
            fail_msg("%s, %u threads: %d \"%s\" (%zu bytes) against one thread's %d \"%s\" (%zu bytes)", trace_path,
                     counts[i], many.rc, many.msg, many.n, one->rc, one->msg, one->n);
        free(many.bytes);
    }
    ntidx_trace_close(&t);
    return 0;
}

/* The same, for a trace whose index must build. */
static void same_and_built(const char *trace_path)
{
    outcome one;
    assert_int_equal(same_with_threads(trace_path, &one), 0);
    if (one.rc < 0)
        fail_msg("%s: %s", trace_path, one.msg);
    free(one.bytes);
}

static void test_shared_traces(void **state)
{
    (void)state;
    DIR *d = opendir(traces_dir);
    assert_non_null(d);
    struct dirent *de;
    int seen = 0;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (de->d_name[0] == '.' || (len > 6 && !strcmp(de->d_name + len - 6, ".ntidx")))
            continue; /* indexes beside the traces (the commands write them there when they can) */
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", traces_dir, de->d_name);
        same_and_built(path);
        seen++;
    }
    closedir(d);
    assert_true(seen >= 4);
}

/* A generated trace of about `bytes` in dir, named after `name`. */
static void generate(const char *path, int version, uint64_t bytes, int finish, int flushes, int compressed)
{
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    g.format_version = version;
    g.target_bytes = bytes;
    g.seed = 11;
    g.finish = finish;
    g.compressed_headers = compressed;
    if (version == 6 && flushes) {
        g.metadata_flush_every = 3;
        g.thread_flush_every = 2;
        g.remove_threads = 1;
        g.drop_rate = 0.01;
    }
    assert_int_equal(ntidx_generate_file(path, &g), NTIDX_OK);
}

static void test_generated(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/gen.nettrace", dir);
    for (int version = 5; version <= 6; version++)
        for (int variant = 0; variant < 3; variant++) {
            generate(path, version, 3u << 20, variant != 1, variant == 2, variant != 2);
            same_and_built(path);
        }
}

/* --full builds of the generated traces, just written and so in the page cache: split scans. */
static void test_generated_full(void **state)
{
    full_builds = 1;
    test_generated(state);
    full_builds = 0;
}

/* An index of a trace cut short, extended once the trace has grown, with threads: what one thread gives. */
static void test_extend(void **state)
{
    (void)state;
    char path[128], ipath[128];
    snprintf(path, sizeof path, "%s/grow.nettrace", dir);
    snprintf(ipath, sizeof ipath, "%s/grow.ntidx", dir);
    for (int version = 5; version <= 6; version++) {
        generate(path, version, 3u << 20, 1, version == 6, 1);
        size_t n;
        uint8_t *whole = read_file(path, &n);
        for (int cut = 1; cut <= 3; cut++) {
            write_file(path, whole, n / 4 * (size_t)cut);
            ntidx_trace *t;
            ntidx_index *x;
            assert_int_equal(ntidx_trace_open(path, &t), NTIDX_OK);
            assert_int_equal(ntidx_index_build(t, NULL, &x), NTIDX_OK);
            assert_int_equal(ntidx_index_write(x, ipath), NTIDX_OK);
            ntidx_index_close(&x);
            ntidx_trace_close(&t);
            write_file(path, whole, n);
            assert_int_equal(ntidx_trace_open(path, &t), NTIDX_OK);
            ntidx_index *old;
            ntidx_index_state st;
            assert_int_equal(ntidx_index_load(t, ipath, NTIDX_VERIFY_ALL, &old, &st), NTIDX_OK);
            assert_int_equal(st, NTIDX_INDEX_GROWN);
            uint8_t *one = NULL;
            size_t one_n = 0;
            static const unsigned counts[] = {1, 2, 4, 7};
            for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
                ntidx_index_options o;
                ntidx_index_options_defaults(&o);
                o.threads = counts[i];
                assert_int_equal(ntidx_index_extend(t, old, &o, &x), NTIDX_OK);
                char out[160];
                snprintf(out, sizeof out, "%s/ext.ntidx", dir);
                assert_int_equal(ntidx_index_write(x, out), NTIDX_OK);
                ntidx_index_close(&x);
                size_t m;
                uint8_t *bytes = read_file(out, &m);
                unlink(out);
                if (!one) {
                    one = bytes;
                    one_n = m;
                    continue;
                }
                if (m != one_n || memcmp(bytes, one, m) != 0)
                    fail_msg("V%d cut at %d/4, extended with %u threads: not the index one thread extends", version,
                             cut, counts[i]);
                free(bytes);
            }
            free(one);
            ntidx_index_close(&old);
            ntidx_trace_close(&t);
        }
        free(whole);
    }
    unlink(ipath);
    unlink(path);
}

/* Cancelling from the progress callback, at the first call or while helpers' records are being entered. */
static int calls_left;
static int cancel_when_due(void *ctx, uint64_t done, uint64_t total)
{
    (void)ctx;
    (void)done;
    (void)total;
    return --calls_left <= 0;
}

static void test_cancel(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/cancel.nettrace", dir);
    generate(path, 6, 40u << 20, 1, 0, 1);
    ntidx_trace *t;
    assert_int_equal(ntidx_trace_open(path, &t), NTIDX_OK);
    for (int at = 1; at <= 3; at++) { /* progress is told every 16 MiB: at 0, 16 and 32 MiB */
        ntidx_index_options o;
        ntidx_index_options_defaults(&o);
        o.threads = 4;
        o.progress = cancel_when_due;
        calls_left = at;
        ntidx_index *x = NULL;
        assert_int_equal(ntidx_index_build(t, &o, &x), NTIDX_E_CANCELLED);
        assert_null(x);
        assert_int_equal(calls_left, 0);
    }
    ntidx_trace_close(&t);
    unlink(path);
}

static uint64_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 17;
}

/*
 * Damaged copies: bytes changed anywhere, at block starts (the framing the
 * helpers guess from), zeroed runs, files cut short. Whatever the damage,
 * threads change nothing: not the index, not the error.
 */
static void damage_sweep(int version, int rounds)
{
    char clean[128], bad[128];
    snprintf(clean, sizeof clean, "%s/clean%d.nettrace", dir, version);
    snprintf(bad, sizeof bad, "%s/bad%d.nettrace", dir, version);
    generate(clean, version, 1u << 20, 1, version == 6, 1);
    size_t n;
    uint8_t *orig = read_file(clean, &n);
    ntidx_trace *t;
    ntidx_index *x;
    assert_int_equal(ntidx_trace_open(clean, &t), NTIDX_OK);
    assert_int_equal(ntidx_index_build(t, NULL, &x), NTIDX_OK);
    uint64_t nblocks = ntx_index_block_count(x);
    uint64_t *starts = malloc(nblocks * sizeof *starts);
    assert_non_null(starts);
    for (uint64_t i = 0; i < nblocks; i++)
        starts[i] = ntx_blk_offset(x, i);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
    uint8_t *copy = malloc(n);
    assert_non_null(copy);
    uint64_t seed = 99 + (uint64_t)version;
    outcome clean_one;
    assert_int_equal(same_with_threads(clean, &clean_one), 0);
    assert_int_equal(clean_one.rc, NTIDX_OK);
    int failures = 0, changed = 0;
    for (int r = 0; r < rounds; r++) {
        memcpy(copy, orig, n);
        size_t len = n;
        switch (r % 4) {
        case 0: /* a few bytes anywhere after the trace block */
            for (int k = 0; k < 1 + (int)(rnd(&seed) % 4); k++)
                copy[starts[0] + rnd(&seed) % (n - starts[0])] ^= (uint8_t)(1 + rnd(&seed) % 255);
            break;
        case 1: { /* the first bytes of a block */
            uint64_t at = starts[rnd(&seed) % nblocks] + rnd(&seed) % 8;
            if (at < n)
                copy[at] ^= (uint8_t)(1 + rnd(&seed) % 255);
            break;
        }
        case 2: { /* a zeroed run */
            uint64_t at = starts[0] + rnd(&seed) % (n - starts[0]), k = 1 + rnd(&seed) % 200;
            memset(copy + at, 0, at + k <= n ? k : n - at);
            break;
        }
        default: /* cut short */
            len = (size_t)(starts[0] + rnd(&seed) % (n - starts[0]));
        }
        write_file(bad, copy, len);
        outcome one;
        if (same_with_threads(bad, &one) == 0) {
            failures += one.rc < 0;
            changed += one.rc < 0 || one.n != clean_one.n || memcmp(one.bytes, clean_one.bytes, one.n) != 0;
        }
        free(one.bytes);
    }
    /* The byte before each block (a V4/V5 block's end tag: the helpers check the one before their first
       block, the scan the one after their last): wrong at each in turn. */
    for (uint64_t b = 1; b < nblocks; b++) {
        memcpy(copy, orig, n);
        copy[starts[b] - 1] ^= 0x40;
        write_file(bad, copy, n);
        outcome one;
        if (same_with_threads(bad, &one) == 0)
            failures += version == 5 && one.rc < 0;
        free(one.bytes);
    }
    if (version == 5)
        assert_true(failures > (int)nblocks / 2);
    /* the sweep met errors and damage the index shows, not only damage it never reads */
    assert_true(failures > 0);
    assert_true(changed > rounds / 4);
    free(clean_one.bytes);
    free(copy);
    free(orig);
    free(starts);
    unlink(bad);
    unlink(clean);
}

static void test_damaged_v5(void **state)
{
    (void)state;
    damage_sweep(5, 240);
}

static void test_damaged_v6(void **state)
{
    (void)state;
    damage_sweep(6, 240);
}

/*
 * A V6 trace whose every event carries ten fake event blocks in a row
 * (plausible headers, each framing the next: more than a helper checks
 * before it reads from a guess), then bytes that frame as a block far longer
 * than the file. Every guess a helper makes inside such a
 * block is wrong; it must give them up, find the true block boundary and
 * hand the scan records equal to the blocks the scan itself finds.
 */
#define FAKE_SIZE 40
static size_t fake_payload(uint8_t *p)
{
    size_t at = 0;
    for (int k = 0; k < 10; k++) {
        uint32_t head = FAKE_SIZE | (uint32_t)NTIDX_BLOCK_EVENT << 24;
        memcpy(p + at, &head, 4);
        memset(p + at + 4, 0, FAKE_SIZE);
        p[at + 4] = 20; /* header size */
        p[at + 8] = 5;  /* minimum timestamp */
        p[at + 16] = 6; /* maximum */
        at += 4 + FAKE_SIZE;
    }
    memset(p + at, 0xff, 4);
    return at + 4;
}

static void test_fake_blocks(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/fakes.nettrace", dir);
    ntidx_writer_options wo;
    ntidx_writer_options_defaults(&wo);
    ntidx_writer *w;
    assert_int_equal(ntidx_writer_open_file(path, &wo, &w), NTIDX_OK);
    ntidx_thread th = {.index = 1, .has_os_thread_id = 1, .os_thread_id = 7};
    assert_int_equal(ntidx_writer_add_thread(w, &th), NTIDX_OK);
    ntidx_metadata m = {.id = 1, .provider = "Contoso-Fakes", .event_id = 1, .event_name = "Fake", .opcode = -1};
    assert_int_equal(ntidx_writer_add_metadata(w, &m), NTIDX_OK);
    uint8_t payload[512];
    size_t psize = fake_payload(payload);
    uint32_t seq = 0;
    for (int i = 0; i < 20000; i++) {
        ntidx_event ev = {.metadata_id = 1, .sequence_number = ++seq, .thread_index = 1, .capture_thread_index = 1,
                          .timestamp = 1000 + 10 * (uint64_t)i, .payload = payload, .payload_size = (uint32_t)psize};
        assert_int_equal(ntidx_writer_add_event(w, &ev), NTIDX_OK);
        if (i % 2000 == 1999) {
            ntidx_thread_seq ts = {1, seq};
            assert_int_equal(ntidx_writer_sequence_point(w, ev.timestamp + 1, 0, &ts, 1), NTIDX_OK);
        }
    }
    assert_int_equal(ntidx_writer_finish(w), NTIDX_OK);
    assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);

    same_and_built(path);

    /* The helper's records, taken where the scan meets them, are the scan's own blocks. */
    ntidx_trace *t;
    ntidx_index *x;
    assert_int_equal(ntidx_trace_open(path, &t), NTIDX_OK);
    ntidx_index_options o;
    ntidx_index_options_defaults(&o);
    o.threads = 1;
    assert_int_equal(ntidx_index_build(t, &o, &x), NTIDX_OK);
    ntx_scan_split s;
    assert_int_equal(ntx_scan_split_start(&s, t, x->first_block, 6, 64 << 10), 5);
    uint64_t i = 0, end_pos, end_tag;
    const ntx_err *end_err;
    int taken = 0;
    while (i < ntx_index_block_count(x)) {
        size_t n;
        const ntx_scan_rec *recs = ntx_scan_split_take(&s, ntx_blk_offset(x, i), &n, &end_err, &end_pos, &end_tag);
        if (!recs) {
            i++; /* the scan reads this block itself */
            continue;
        }
        taken++;
        for (size_t k = 0; k < n; k++, i++) {
            if (recs[k].rc != 1) { /* only the last: the end-of-stream marker, where the scan finds it */
                assert_int_equal(k, n - 1);
                assert_int_equal(recs[k].rc, 0);
                assert_int_equal(i, ntx_index_block_count(x));
                assert_int_equal(recs[k].next, x->indexed_end);
                break;
            }
            assert_true(i < ntx_index_block_count(x));
            assert_int_equal(recs[k].blk.offset, ntx_blk_offset(x, i));
            assert_int_equal(recs[k].blk.size, ntx_blk_size(x, i));
            assert_int_equal(recs[k].blk.kind, ntx_blk_kind(x, i));
        }
        if (recs[n - 1].rc == 1) /* the scan goes on after them */
            assert_int_equal(end_pos, i < ntx_index_block_count(x) ? ntx_blk_offset(x, i) : x->indexed_end);
    }
    assert_true(taken >= 1);
    assert_true(ntx_scan_split_wrong_guesses(&s) > 0);
    ntx_scan_split_end(&s);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
    if (!getenv("KEEP")) unlink(path);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s TRACES_DIR\n", argv[0]);
        return 2;
    }
    traces_dir = argv[1];
    snprintf(dir, sizeof dir, "/tmp/ntidx_split_XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_traces), cmocka_unit_test(test_generated), cmocka_unit_test(test_generated_full),
        cmocka_unit_test(test_extend),
        cmocka_unit_test(test_cancel),
        cmocka_unit_test(test_damaged_v5),
        cmocka_unit_test(test_damaged_v6),    cmocka_unit_test(test_fake_blocks),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(dir);
    return rc;
}
