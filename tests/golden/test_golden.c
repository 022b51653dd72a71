/*
 * Golden index files (tests/golden/README.md): indexes written by ntidx
 * builds of each index format minor version (1.0 to 1.6), plain and --full,
 * of two small committed traces (V5; V6 with metadata and thread flushes and
 * thread removal).
 *
 *  - Today's reader loads every one of them, checked whole, and answers
 *    queries and statistics over it exactly as over an index it builds now.
 *  - Today's writer reproduces the current version's files byte for byte.
 *  - The reserved fields (docs/index-format.md): set in a file of this minor
 *    version, each is refused; in a file of a later minor version, ignored.
 *
 * usage: test_golden GOLDEN_DIR           run the checks
 *        test_golden GOLDEN_DIR --write   (re)write the current version's files
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
#include <xxhash.h>

#include <ntidx/index.h>

#define CURRENT "1.6"

static const char *golden;
static const char *const TRACES[] = {"v5", "v6"};
static const char *const VERSIONS[] = {"1.0", "1.1", "1.2", "1.3", "1.4", "1.5", CURRENT};
#define NVERSIONS (sizeof VERSIONS / sizeof VERSIONS[0])

static uint8_t *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc(*n ? *n : 1);
    assert_int_equal(fread(p, 1, *n, f), *n);
    fclose(f);
    return p;
}

/* The trace opened from memory: its identity is its bytes (sizes and hashes), not file times. */
typedef struct golden_trace {
    uint8_t *bytes;
    size_t n;
    ntidx_trace *t;
} golden_trace;

static golden_trace open_trace(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.nettrace", golden, name);
    golden_trace g;
    g.bytes = read_all(path, &g.n);
    if (ntidx_trace_open_memory(g.bytes, g.n, path, &g.t) < 0)
        fail_msg("%s", ntidx_last_error());
    return g;
}

static void close_trace(golden_trace *g)
{
    ntidx_trace_close(&g->t);
    free(g->bytes);
}

static ntidx_index *build(ntidx_trace *t, int full)
{
    ntidx_index_options o;
    ntidx_index_options_defaults(&o);
    o.full = full;
    ntidx_index *x;
    assert_int_equal(ntidx_index_build(t, &o, &x), NTIDX_OK);
    return x;
}

/* A digest of a query's answer: its events' offsets and timestamps, hashed in order. */
static uint64_t answer(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *o, uint64_t *count)
{
    ntidx_query *q;
    assert_int_equal(ntidx_query_open(t, x, o, &q), NTIDX_OK);
    const ntidx_event *e;
    uint64_t h = 0;
    *count = 0;
    int rc;
    while ((rc = ntidx_query_next(q, &e)) == 1) {
        uint64_t pair[2] = {e->offset, e->timestamp};
        h = XXH3_64bits_withSeed(pair, sizeof pair, h);
        (*count)++;
    }
    assert_int_equal(rc, 0);
    ntidx_query_close(&q);
    return h;
}

static void same_answers(ntidx_trace *t, const ntidx_index *a, const ntidx_index *b, const char *what)
{
    const ntidx_index_info *ia = ntidx_index_get_info(a), *ib = ntidx_index_get_info(b);
    assert_int_equal(ia->blocks, ib->blocks);
    assert_int_equal(ia->regions, ib->regions);
    assert_int_equal(ia->sequence_points, ib->sequence_points);
    assert_int_equal(ia->definitions, ib->definitions);
    assert_int_equal(ia->first_ts, ib->first_ts);
    assert_int_equal(ia->last_ts, ib->last_ts);
    assert_int_equal(ia->events, ib->events);
    assert_int_equal(ia->complete, ib->complete);
    uint64_t span = ia->last_ts - ia->first_ts;
    for (int k = 0; k < 12; k++) {
        ntidx_query_options o;
        ntidx_query_options_defaults(&o);
        o.recover = 0;
        if (k) {
            o.t0 = ia->first_ts + span * (uint64_t)(k - 1) / 12;
            o.t1 = o.t0 + span / 5;
        }
        o.order = k % 2 ? NTIDX_ORDER_FILE : NTIDX_ORDER_TIME;
        if (k % 3 == 2) {
            o.has_event_id = 1;
            o.event_id = 2;
        }
        uint64_t na, nb;
        uint64_t ha = answer(t, a, &o, &na), hb = answer(t, b, &o, &nb);
        if (na != nb || ha != hb)
            fail_msg("%s: query %d: %" PRIu64 " events over the golden index, %" PRIu64 " over a fresh one", what, k,
                     na, nb);
        if (!k)
            assert_true(na > 1000);
    }
    ntidx_stats_options so;
    ntidx_stats_options_defaults(&so);
    so.recover = 0;
    ntidx_stats *sa, *sb;
    assert_int_equal(ntidx_stats_indexed(t, a, &so, &sa), NTIDX_OK);
    assert_int_equal(ntidx_stats_indexed(t, b, &so, &sb), NTIDX_OK);
    assert_int_equal(sa->events, sb->events);
    assert_int_equal(sa->type_count, sb->type_count);
    assert_int_equal(sa->thread_count, sb->thread_count);
    assert_int_equal(sa->dropped_events, sb->dropped_events);
    ntidx_stats_free(&sa);
    ntidx_stats_free(&sb);
}

static void test_old_versions_load(void **state)
{
    (void)state;
    for (size_t i = 0; i < 2; i++) {
        golden_trace g = open_trace(TRACES[i]);
        for (int full = 0; full < 2; full++) {
            ntidx_index *fresh = build(g.t, full);
            for (size_t v = 0; v < NVERSIONS; v++) {
                char path[512], what[64];
                snprintf(path, sizeof path, "%s/%s-%s%s.ntidx", golden, TRACES[i], VERSIONS[v], full ? "-full" : "");
                snprintf(what, sizeof what, "%s-%s%s", TRACES[i], VERSIONS[v], full ? "-full" : "");
                size_t n;
                uint8_t *bytes = read_all(path, &n);
                uint16_t minor;
                memcpy(&minor, bytes + 10, 2);
                assert_int_equal(minor, (uint16_t)(VERSIONS[v][2] - '0')); /* the file is what its name says */
                ntidx_index *x;
                ntidx_index_state st;
                if (ntidx_index_load_memory(g.t, bytes, n, path, NTIDX_VERIFY_ALL, &x, &st) != NTIDX_OK)
                    fail_msg("%s does not load: %s", what, ntidx_last_error());
                assert_int_equal(st, NTIDX_INDEX_CURRENT);
                assert_int_equal(ntidx_index_get_info(x)->full, full);
                same_answers(g.t, x, fresh, what);
                ntidx_index_close(&x);
                free(bytes);
            }
            ntidx_index_close(&fresh);
        }
        close_trace(&g);
    }
}

static void test_current_version_reproduced(void **state)
{
    (void)state;
    char tmp[] = "/tmp/ntidx-golden-XXXXXX";
    int fd = mkstemp(tmp);
    assert_true(fd >= 0);
    close(fd);
    for (size_t i = 0; i < 2; i++) {
        golden_trace g = open_trace(TRACES[i]);
        for (int full = 0; full < 2; full++) {
            char path[512];
            snprintf(path, sizeof path, "%s/%s-%s%s.ntidx", golden, TRACES[i], CURRENT, full ? "-full" : "");
            ntidx_index *x = build(g.t, full);
            assert_int_equal(ntidx_index_write(x, tmp), NTIDX_OK);
            ntidx_index_close(&x);
            size_t a, b;
            uint8_t *want = read_all(path, &a), *got = read_all(tmp, &b);
            if (a != b || memcmp(want, got, a)) {
                size_t k = 0;
                while (k < a && k < b && want[k] == got[k])
                    k++;
                fail_msg("%s: a fresh index differs from the golden file (%zu and %zu bytes, first difference at byte "
                         "%zu): the format changed without a new minor version, or the writer is not deterministic",
                         path, b, a, k);
            }
            free(want);
            free(got);
        }
        close_trace(&g);
    }
    unlink(tmp);
}

/* ------------------------------------------------------------------ */
/* Reserved fields                                                     */
/* ------------------------------------------------------------------ */

static uint32_t ld32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t ld64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static void st64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* Directory entry of section `id`, or NULL. */
static uint8_t *dirent_of(uint8_t *m, uint32_t id)
{
    uint32_t nsec = ld32(m + 20);
    for (uint32_t i = 0; i < nsec; i++)
        if (ld32(m + 128 + 32 * i) == id)
            return m + 128 + 32 * i;
    return NULL;
}

/* After an edit: every section checksum, the per-region checksums and the header checksum made right again. */
static void reseal(uint8_t *m)
{
    uint32_t nsec = ld32(m + 20), hsize = ld32(m + 12);
    uint8_t *blocks = dirent_of(m, 1), *regions = dirent_of(m, 3), *sums = dirent_of(m, 7), *filters = dirent_of(m, 5);
    if (sums) {
        for (uint64_t r = 0; r < ld64(regions + 16); r++) {
            const uint8_t *re = m + ld64(regions + 8) + r * ld32(regions + 4);
            uint32_t f = ld32(re), e = ld32(re + 4), sb = ld32(blocks + 4);
            uint8_t *se = m + ld64(sums + 8) + r * ld32(sums + 4);
            st64(se, XXH3_64bits(m + ld64(blocks + 8) + (uint64_t)f * sb, (size_t)(e - f) * sb));
            if (filters) {
                uint32_t sf = ld32(filters + 4);
                st64(se + 8, XXH3_64bits(m + ld64(filters + 8) + (uint64_t)f * sf, (size_t)(e - f) * sf));
            }
        }
    }
    for (uint32_t i = 0; i < nsec; i++) {
        uint8_t *d = m + 128 + 32 * i;
        st64(d + 24, XXH3_64bits(m + ld64(d + 8), (size_t)(ld64(d + 16) * ld32(d + 4))));
    }
    st64(m + hsize - 8, XXH3_64bits(m, hsize - 8));
}

typedef struct edit {
    const char *what;
    void (*apply)(uint8_t *m, size_t n);
    int needs_header_room;
} edit;

static void set_flag_bit(uint8_t *m, size_t n) { (void)n; m[16 + 3] |= 0x80; }
/* The header's free bytes (none in the 520-byte header of a --full index with 12 sections). */
static int header_has_room(const uint8_t *m) { return 128 + 32 * ld32(m + 20) < ld32(m + 12) - 8; }
static void set_header_byte(uint8_t *m, size_t n) { (void)n; m[ld32(m + 12) - 9] = 1; }
static void set_unused_dirent(uint8_t *m, size_t n)
{
    (void)n;
    m[128 + 32 * ld32(m + 20) + 5] = 1;
}
static void set_block_reserved(uint8_t *m, size_t n)
{
    (void)n;
    uint8_t *d = dirent_of(m, 1);
    m[ld64(d + 8) + ld32(d + 4) * 2 + 14] = 1;
}
static void set_region_flags(uint8_t *m, size_t n)
{
    (void)n;
    uint8_t *d = dirent_of(m, 3);
    m[ld64(d + 8) + 40 + 1] = 1;
}
static void set_region_reserved(uint8_t *m, size_t n)
{
    (void)n;
    uint8_t *d = dirent_of(m, 3);
    m[ld64(d + 8) + ld32(d + 4) + 44] = 1;
}
static void set_def_reserved(uint8_t *m, size_t n)
{
    (void)n;
    uint8_t *d = dirent_of(m, 4);
    m[ld64(d + 8) + 6] = 1;
}
static void test_reserved_fields(void **state)
{
    (void)state;
    static const edit edits[] = {
        {"a reserved header flag", set_flag_bit, 0},   {"a reserved header byte", set_header_byte, 1},
        {"an unused directory entry", set_unused_dirent, 1}, {"a block's reserved field", set_block_reserved, 0},
        {"a reserved region flag", set_region_flags, 0}, {"a region's reserved field", set_region_reserved, 0},
        {"a definition's reserved bytes", set_def_reserved, 0},
    };
    enum { NEDITS = sizeof edits / sizeof edits[0] };
    int applied[NEDITS] = {0};
    golden_trace g = open_trace("v6");
    for (int full = 0; full < 2; full++) {
        char path[512];
        snprintf(path, sizeof path, "%s/v6-%s%s.ntidx", golden, CURRENT, full ? "-full" : "");
        size_t n;
        uint8_t *good = read_all(path, &n), *m = malloc(n);
        for (size_t i = 0; i < NEDITS; i++) {
            if (edits[i].needs_header_room && !header_has_room(good))
                continue;
            applied[i]++;
            for (int later_minor = 0; later_minor < 2; later_minor++) {
                memcpy(m, good, n);
                edits[i].apply(m, n);
                if (later_minor)
                    m[10] = (uint8_t)(CURRENT[2] - '0' + 1); /* written by a later minor version, which may use it */
                reseal(m);
                ntidx_index *x = NULL;
                ntidx_index_state st;
                int rc = ntidx_index_load_memory(g.t, m, n, "edited", NTIDX_VERIFY_ALL, &x, &st);
                if (later_minor) {
                    if (rc != NTIDX_OK)
                        fail_msg("%s in a later minor version's index: refused (%s), but that version may use it", edits[i].what,
                                 ntidx_last_error());
                    ntidx_index_close(&x);
                } else {
                    if (rc != NTIDX_E_INDEX_CORRUPT)
                        fail_msg("%s in a %s index: not refused (rc %d)", edits[i].what, CURRENT, rc);
                    assert_non_null(strstr(ntidx_last_error(), "reserved"));
                }
            }
        }
        /* resealing alone changes nothing */
        memcpy(m, good, n);
        reseal(m);
        assert_memory_equal(m, good, n);
        free(m);
        free(good);
    }
    for (size_t i = 0; i < NEDITS; i++)
        assert_true(applied[i] > 0);
    close_trace(&g);
}

/*
 * Padding is reserved too. This version's sections all have sizes that are multiples of 8, so a section
 * a later minor version might add (id 13, one 12-byte entry, 4 bytes of padding) is appended by hand:
 * zero padding loads (the unknown section is checksummed and skipped), a non-zero byte there is refused.
 */
static void test_reserved_padding(void **state)
{
    (void)state;
    golden_trace g = open_trace("v5");
    char path[512];
    snprintf(path, sizeof path, "%s/v5-%s.ntidx", golden, CURRENT);
    size_t n;
    uint8_t *good = read_all(path, &n);
    size_t n2 = n + 16;
    uint8_t *m = calloc(1, n2);
    for (int poison = 0; poison < 2; poison++) {
        memset(m, 0, n2);
        memcpy(m, good, n - 8);
        memcpy(m + n2 - 8, "NTIDXEND", 8);
        memcpy(m + n - 8, "later!entry", 12); /* the new section's one entry */
        if (poison)
            m[n - 8 + 13] = 0x5a;        /* inside the 4 bytes of padding after it */
        uint32_t nsec = ld32(m + 20);
        assert_true(128 + 32 * (nsec + 1) <= ld32(m + 12) - 8);
        uint8_t *d = m + 128 + 32 * nsec;
        uint32_t id = 13, entry = 12;
        memcpy(d, &id, 4);
        memcpy(d + 4, &entry, 4);
        st64(d + 8, n - 8);
        st64(d + 16, 1);
        nsec++;
        memcpy(m + 20, &nsec, 4);
        reseal(m);
        ntidx_index *x = NULL;
        ntidx_index_state st;
        int rc = ntidx_index_load_memory(g.t, m, n2, "with-a-later-section", NTIDX_VERIFY_ALL, &x, &st);
        if (poison) {
            assert_int_equal(rc, NTIDX_E_INDEX_CORRUPT);
            assert_non_null(strstr(ntidx_last_error(), "padding"));
        } else {
            if (rc != NTIDX_OK)
                fail_msg("an unknown section with zero padding is refused: %s", ntidx_last_error());
            ntidx_index_close(&x);
        }
    }
    free(m);
    free(good);
    close_trace(&g);
}

/*
 * Before 1.3 an index took a block's all-ones maximum (one-collect's "not known") for a timestamp: such
 * an index (a region ending at 0xFFFFFFFFFFFFFFFF) is STALE for a 1.3 reader, and rebuilt by the commands.
 */
static void test_pre_1_3_all_ones_is_stale(void **state)
{
    (void)state;
    golden_trace g = open_trace("v6");
    char path[512];
    snprintf(path, sizeof path, "%s/v6-1.2.ntidx", golden);
    size_t n;
    uint8_t *m = read_all(path, &n);
    uint8_t *d = dirent_of(m, 3);
    uint64_t nr = ld64(d + 16);
    st64(m + ld64(d + 8) + (nr - 1) * ld32(d + 4) + 16, UINT64_MAX); /* the last region's ts_max */
    reseal(m);
    ntidx_index *x = NULL;
    ntidx_index_state st;
    assert_int_equal(ntidx_index_load_memory(g.t, m, n, "all-ones", NTIDX_VERIFY_ALL, &x, &st), NTIDX_E_INDEX_STALE);
    assert_non_null(strstr(ntidx_last_error(), "0xFFFFFFFFFFFFFFFF"));
    free(m);
    close_trace(&g);
}

static int write_current(void)
{
    for (size_t i = 0; i < 2; i++) {
        golden_trace g = open_trace(TRACES[i]);
        for (int full = 0; full < 2; full++) {
            char path[512];
            snprintf(path, sizeof path, "%s/%s-%s%s.ntidx", golden, TRACES[i], CURRENT, full ? "-full" : "");
            ntidx_index *x = build(g.t, full);
            if (ntidx_index_write(x, path) < 0) {
                fprintf(stderr, "%s\n", ntidx_last_error());
                return 1;
            }
            ntidx_index_close(&x);
            printf("wrote %s\n", path);
        }
        close_trace(&g);
    }
    return 0;
}

int main(int argc, char **argv)
{
    golden = argc > 1 ? argv[1] : "tests/golden";
    if (argc > 2 && !strcmp(argv[2], "--write"))
        return write_current();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_old_versions_load),
        cmocka_unit_test(test_current_version_reproduced),
        cmocka_unit_test(test_reserved_fields),
        cmocka_unit_test(test_reserved_padding),
        cmocka_unit_test(test_pre_1_3_all_ones_is_stale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
