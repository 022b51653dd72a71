/*
 * The lowest layer: the bounds-checked cursor (fixed-width loads, sticky
 * error, capped varuints, zigzag), the id map (put/get/remove with
 * backward-shift deletion, against a reference model) and UTF-16 -> UTF-8.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arena.h"
#include "cursor.h"
#include "idmap.h"
#include "tbuild.h"
#include "utf.h"

/* ------------------------------------------------------------------ */
/* Fixed-width loads and the sticky error                              */
/* ------------------------------------------------------------------ */

static void test_cursor_loads_little_endian(void **state)
{
    (void)state;
    static const uint8_t d[] = {0x00, 0xff, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a,
                                0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10};
    ntx_cur c;
    ntx_cur_init(&c, d, 1, sizeof d - 1);
    assert_int_equal(ntx_cur_off(&c), 1);
    assert_int_equal(ntx_cur_left(&c), sizeof d - 1);
    assert_int_equal(ntx_cur_u8(&c), 0xff);
    assert_int_equal(ntx_cur_u16(&c), 0x0201);
    assert_int_equal(ntx_cur_u32(&c), 0x06050403u);
    assert_true(ntx_cur_u64(&c) == 0x0e0d0c0b0a090807ULL);
    assert_int_equal(ntx_cur_off(&c), 16);
    assert_int_equal(ntx_cur_left(&c), 2);
    const uint8_t *p = ntx_cur_bytes(&c, 2);
    assert_ptr_equal(p, d + 16);
    assert_int_equal(ntx_cur_left(&c), 0);
    assert_int_equal(c.err, 0);
}

/* Each read of width w from a cursor holding w-1 bytes fails, returns 0, parks at the end. */
static void test_cursor_short_reads_fail(void **state)
{
    (void)state;
    static const uint8_t d[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    for (int w = 1; w <= 8; w *= 2) {
        ntx_cur c;
        ntx_cur_init(&c, d, 0, (uint64_t)w - 1);
        uint64_t v = 1;
        switch (w) {
        case 1: v = ntx_cur_u8(&c); break;
        case 2: v = ntx_cur_u16(&c); break;
        case 4: v = ntx_cur_u32(&c); break;
        case 8: v = ntx_cur_u64(&c); break;
        }
        assert_true(v == 0);
        assert_int_equal(c.err, 1);
        assert_int_equal(ntx_cur_left(&c), 0);
        assert_ptr_equal(c.p, c.end);
    }
}

static void test_cursor_sticky_error(void **state)
{
    (void)state;
    static const uint8_t d[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    ntx_cur c;
    ntx_cur_init(&c, d, 0, 6);
    assert_int_equal(ntx_cur_u32(&c), 0x04030201u);
    assert_int_equal(ntx_cur_u32(&c), 0); /* only 2 left */
    assert_int_equal(c.err, 1);
    /* once failed, even reads that would fit the original bytes fail */
    assert_int_equal(ntx_cur_u8(&c), 0);
    assert_int_equal(ntx_cur_u16(&c), 0);
    assert_int_equal(ntx_cur_varu32(&c), 0);
    assert_int_equal(c.err, 1);
    assert_int_equal(ntx_cur_left(&c), 0);
    /* the offset of a failed cursor is its end: messages name where the data ran out */
    assert_int_equal(ntx_cur_off(&c), 6);
}

static void test_cursor_huge_lengths_do_not_wrap(void **state)
{
    (void)state;
    static const uint8_t d[4] = {0};
    static const uint64_t sizes[] = {5, 0x7fffffffu, 0xffffffffu, UINT64_MAX / 2, UINT64_MAX - 1, UINT64_MAX};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        ntx_cur c;
        ntx_cur_init(&c, d, 1, 3);
        assert_null(ntx_cur_bytes(&c, sizes[i]));
        assert_int_equal(c.err, 1);
        ntx_cur_init(&c, d, 1, 3);
        ntx_cur_skip(&c, sizes[i]);
        assert_int_equal(c.err, 1);
        assert_int_equal(ntx_cur_left(&c), 0);
    }
}

/* ------------------------------------------------------------------ */
/* varuint / varint                                                    */
/* ------------------------------------------------------------------ */

typedef struct var_case {
    const char *what;
    uint8_t bytes[12];
    unsigned len;
    unsigned bits;   /* 32 or 64 */
    int ok;
    uint64_t value;
} var_case;

static const var_case VAR_CASES[] = {
    {"zero", {0x00}, 1, 32, 1, 0},
    {"one byte max", {0x7f}, 1, 32, 1, 127},
    {"two bytes 128", {0x80, 0x01}, 2, 32, 1, 128},
    {"300", {0xac, 0x02}, 2, 64, 1, 300},
    {"uint32 max in 5 bytes", {0xff, 0xff, 0xff, 0xff, 0x0f}, 5, 32, 1, 0xffffffffu},
    {"non-minimal zero within 5 bytes", {0x80, 0x80, 0x80, 0x80, 0x00}, 5, 32, 1, 0},
    {"2^32 is too wide for 32 bits", {0x80, 0x80, 0x80, 0x80, 0x10}, 5, 32, 0, 0},
    {"35 bits is too wide for 32 bits", {0xff, 0xff, 0xff, 0xff, 0x7f}, 5, 32, 0, 0},
    {"6 bytes is over-long for 32 bits", {0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, 6, 32, 0, 0},
    {"5th byte continues (32 bits)", {0xff, 0xff, 0xff, 0xff, 0x8f, 0x00}, 6, 32, 0, 0},
    {"2^32 fits 64 bits", {0x80, 0x80, 0x80, 0x80, 0x10}, 5, 64, 1, 0x100000000ULL},
    {"uint64 max in 10 bytes", {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 10, 64, 1, UINT64_MAX},
    {"2^63", {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, 10, 64, 1, 0x8000000000000000ULL},
    {"non-minimal zero within 10 bytes", {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, 10, 64, 1, 0},
    {"65 bits is too wide", {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}, 10, 64, 0, 0},
    {"10th byte 0x7f is too wide", {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f}, 10, 64, 0, 0},
    {"11 bytes is over-long", {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, 11, 64, 0, 0},
    {"10th byte continues", {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x81, 0x00}, 11, 64, 0, 0},
    {"empty", {0}, 0, 32, 0, 0},
    {"empty 64", {0}, 0, 64, 0, 0},
    {"truncated after continuation", {0x80}, 1, 32, 0, 0},
    {"truncated after 4 continuations", {0xff, 0xff, 0xff, 0xff}, 4, 64, 0, 0},
};

static void test_varuint_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof VAR_CASES / sizeof VAR_CASES[0]; i++) {
        const var_case *vc = &VAR_CASES[i];
        /* Put the encoding at the end of a buffer followed by a sentinel the decoder must not consume. */
        uint8_t buf[16];
        memcpy(buf, vc->bytes, vc->len);
        buf[vc->len] = 0x55;
        ntx_cur c;
        ntx_cur_init(&c, buf, 0, vc->len);
        uint64_t v = vc->bits == 32 ? ntx_cur_varu32(&c) : ntx_cur_varu64(&c);
        if (vc->ok) {
            if (c.err || v != vc->value)
                fail_msg("case '%s': err %d value %llu", vc->what, c.err, (unsigned long long)v);
            /* consumed exactly the encoding */
            assert_int_equal(ntx_cur_left(&c), 0);
        } else {
            if (!c.err)
                fail_msg("case '%s' was accepted (value %llu)", vc->what, (unsigned long long)v);
            assert_true(v == 0);
            assert_int_equal(ntx_cur_left(&c), 0); /* sticky: parked at the end */
        }
        /* with extra bytes after it, a valid encoding still stops at its last byte */
        if (vc->ok) {
            ntx_cur_init(&c, buf, 0, (uint64_t)vc->len + 1);
            (void)(vc->bits == 32 ? ntx_cur_varu32(&c) : ntx_cur_varu64(&c));
            assert_int_equal(c.err, 0);
            assert_int_equal(ntx_cur_left(&c), 1);
        }
        /* the fast path agrees with the 64-bit cursor decoder (it has no 32-bit mode) */
        {
            const uint8_t *p = buf;
            uint64_t fv = 12345;
            int fok = ntx_varu64_fast(&p, buf + vc->len, &fv);
            ntx_cur c64;
            ntx_cur_init(&c64, buf, 0, vc->len);
            uint64_t v64 = ntx_cur_varu64(&c64);
            if (fok != !c64.err)
                fail_msg("case '%s': fast path ok=%d, cursor err=%d", vc->what, fok, c64.err);
            if (fok) {
                assert_true(fv == v64);
                assert_ptr_equal(p, buf + (vc->len - ntx_cur_left(&c64)));
            } else {
                assert_ptr_equal(p, buf); /* unchanged on failure */
            }
        }
    }
}

/* The fast path and the cursor decoder agree on arbitrary bytes, valid or not. */
static void test_varuint_fast_matches_cursor_random(void **state)
{
    (void)state;
    uint64_t s = 0x1234567u;
    uint8_t buf[16];
    for (int iter = 0; iter < 200000; iter++) {
        uint64_t r = rng_next(&s);
        unsigned len = (unsigned)(r % 13);
        /* bias toward continuation bytes so long encodings are common */
        for (unsigned i = 0; i < len; i++) {
            uint64_t x = rng_next(&s);
            buf[i] = (uint8_t)((x & 3) ? (x >> 8) | 0x80 : (x >> 8));
        }
        const uint8_t *p = buf;
        uint64_t fv = 0;
        int fok = ntx_varu64_fast(&p, buf + len, &fv);
        ntx_cur c;
        ntx_cur_init(&c, buf, 0, len);
        uint64_t cv = ntx_cur_varu64(&c);
        assert_int_equal(fok, !c.err);
        if (fok) {
            assert_true(fv == cv);
            assert_int_equal((size_t)(p - buf), len - ntx_cur_left(&c));
            assert_true(p - buf <= 10);
        }
        /* the 32-bit decoder accepts exactly the 64-bit results that fit in 5 bytes and 32 bits */
        ntx_cur c32;
        ntx_cur_init(&c32, buf, 0, len);
        uint64_t v32 = ntx_cur_varu32(&c32);
        int ok32 = fok && fv <= 0xffffffffu && (p - buf) <= 5;
        assert_int_equal(!c32.err, ok32);
        if (ok32)
            assert_true(v32 == fv);
    }
}

/* Round trip through the spec's encoder for boundary values. */
static void test_varuint_round_trip(void **state)
{
    (void)state;
    static const uint64_t vals[] = {0, 1, 127, 128, 16383, 16384, 0x1fffff, 0x200000, 0xfffffff, 0x10000000,
                                    0x7fffffff, 0x80000000u, 0xffffffffu, 0x100000000ULL, 0x7fffffffffffffffULL,
                                    0x8000000000000000ULL, UINT64_MAX};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        tb b;
        tb_init(&b);
        tb_varu(&b, vals[i]);
        ntx_cur c;
        ntx_cur_init(&c, b.d, 0, b.len);
        assert_true(ntx_cur_varu64(&c) == vals[i]);
        assert_int_equal(c.err, 0);
        assert_int_equal(ntx_cur_left(&c), 0);
        ntx_cur_init(&c, b.d, 0, b.len);
        uint32_t v32 = ntx_cur_varu32(&c);
        assert_int_equal(c.err, vals[i] > 0xffffffffu);
        if (vals[i] <= 0xffffffffu)
            assert_int_equal(v32, (uint32_t)vals[i]);
        tb_free(&b);
    }
}

static void test_zigzag_varint(void **state)
{
    (void)state;
    static const struct { uint64_t raw; int64_t v; } cases[] = {
        {0, 0},
        {1, -1},
        {2, 1},
        {3, -2},
        {4, 2},
        {4294967294u, 2147483647},
        {4294967295u, -2147483648LL},
        {UINT64_MAX - 1, INT64_MAX},
        {UINT64_MAX, INT64_MIN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tb b;
        tb_init(&b);
        tb_varu(&b, cases[i].raw);
        ntx_cur c;
        ntx_cur_init(&c, b.d, 0, b.len);
        int64_t v = ntx_cur_vari64(&c);
        assert_int_equal(c.err, 0);
        assert_true(v == cases[i].v);
        /* and the test encoder agrees */
        tb_reset(&b);
        tb_vari(&b, cases[i].v);
        ntx_cur_init(&c, b.d, 0, b.len);
        assert_true(ntx_cur_varu64(&c) == cases[i].raw);
        tb_free(&b);
    }
    /* an invalid encoding gives 0 with the error set */
    static const uint8_t bad[] = {0x80};
    ntx_cur c;
    ntx_cur_init(&c, bad, 0, 1);
    assert_true(ntx_cur_vari64(&c) == 0);
    assert_int_equal(c.err, 1);
}

/* ------------------------------------------------------------------ */
/* idmap                                                               */
/* ------------------------------------------------------------------ */

static void *V(uint64_t k) { return (void *)(uintptr_t)(k * 2 + 1); }

/* Every entry is reachable from its home slot without crossing an empty slot, and count matches. */
static void check_idmap_invariants(const ntx_idmap *m)
{
    size_t n = 0;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slots[i].val)
            continue;
        n++;
        size_t mask = m->cap - 1;
        size_t j = (size_t)ntx_idmap_hash(m->slots[i].key) & mask;
        while (j != i) {
            if (!m->slots[j].val)
                fail_msg("key %llu at slot %zu is cut off from its home by an empty slot %zu",
                         (unsigned long long)m->slots[i].key, i, j);
            j = (j + 1) & mask;
        }
    }
    assert_int_equal(n, m->count);
    if (m->cap)
        assert_true(m->count * 4 <= m->cap * 3);
}

static void test_idmap_basic(void **state)
{
    (void)state;
    ntx_idmap m;
    ntx_idmap_init(&m);
    assert_null(ntx_idmap_get(&m, 0));
    assert_int_equal(ntx_idmap_remove(&m, 5), 0);
    assert_int_equal(ntx_idmap_put(&m, 0, V(0)), 0);
    assert_int_equal(ntx_idmap_put(&m, UINT64_MAX, V(7)), 0);
    assert_int_equal(ntx_idmap_put(&m, 0x80000000u, V(9)), 0);
    assert_int_equal(ntx_idmap_size(&m), 3);
    assert_ptr_equal(ntx_idmap_get(&m, 0), V(0));
    assert_ptr_equal(ntx_idmap_get(&m, UINT64_MAX), V(7));
    assert_ptr_equal(ntx_idmap_get(&m, 0x80000000u), V(9));
    assert_null(ntx_idmap_get(&m, 1));
    /* replace keeps the count */
    assert_int_equal(ntx_idmap_put(&m, 0, V(100)), 0);
    assert_int_equal(ntx_idmap_size(&m), 3);
    assert_ptr_equal(ntx_idmap_get(&m, 0), V(100));
    assert_int_equal(ntx_idmap_remove(&m, 0), 1);
    assert_int_equal(ntx_idmap_remove(&m, 0), 0);
    assert_null(ntx_idmap_get(&m, 0));
    assert_int_equal(ntx_idmap_size(&m), 2);
    ntx_idmap_clear(&m);
    assert_int_equal(ntx_idmap_size(&m), 0);
    assert_null(ntx_idmap_get(&m, UINT64_MAX));
    assert_int_equal(ntx_idmap_put(&m, 3, V(3)), 0);
    assert_ptr_equal(ntx_idmap_get(&m, 3), V(3));
    check_idmap_invariants(&m);
    ntx_idmap_free(&m);
    assert_null(m.slots);
    assert_int_equal(m.cap, 0);
    /* growth keeps everything */
    for (uint64_t k = 0; k < 10000; k++)
        assert_int_equal(ntx_idmap_put(&m, k * 0x9e3779b97f4a7c15ULL, V(k)), 0);
    check_idmap_invariants(&m);
    for (uint64_t k = 0; k < 10000; k++)
        assert_ptr_equal(ntx_idmap_get(&m, k * 0x9e3779b97f4a7c15ULL), V(k));
    ntx_idmap_free(&m);
}

/* Keys whose home slot (in a 64-slot table) is `home`. Large keys, so they live in the
   hash table even where small ids take a faster path. */
static size_t keys_with_home(size_t home, uint64_t *out, size_t n)
{
    size_t k = 0;
    for (uint64_t key = 1ULL << 40; k < n; key++)
        if ((ntx_idmap_hash(key) & 63) == home)
            out[k++] = key;
    return k;
}

/*
 * A cluster that wraps around the end of the table: homes 62, 62, 62, 63, 0, 0
 * occupy slots 62, 63, 0, 1, 2, 3. Removing from the middle must shift the
 * later entries back only when their home allows it.
 */
static void test_idmap_backward_shift_wraparound(void **state)
{
    (void)state;
    uint64_t h62[4], h63[2], h0[3], h1[2];
    keys_with_home(62, h62, 4);
    keys_with_home(63, h63, 2);
    keys_with_home(0, h0, 3);
    keys_with_home(1, h1, 2);
    const uint64_t order[] = {h62[0], h62[1], h62[2], h63[0], h0[0], h0[1], h1[0], h62[3], h0[2], h63[1], h1[1]};
    const size_t n = sizeof order / sizeof order[0];
    /* every removal order of a prefix: remove each key in turn from a fresh table */
    for (size_t victim = 0; victim < n; victim++) {
        for (size_t second = 0; second < n; second++) {
            ntx_idmap m;
            ntx_idmap_init(&m);
            for (size_t i = 0; i < n; i++)
                assert_int_equal(ntx_idmap_put(&m, order[i], V(order[i])), 0);
            assert_int_equal(m.cap, 64); /* the test relies on the 64-slot table */
            check_idmap_invariants(&m);
            assert_int_equal(ntx_idmap_remove(&m, order[victim]), 1);
            check_idmap_invariants(&m);
            int second_present = second != victim;
            assert_int_equal(ntx_idmap_remove(&m, order[second]), second_present);
            check_idmap_invariants(&m);
            for (size_t i = 0; i < n; i++) {
                void *want = (i == victim || i == second) ? NULL : V(order[i]);
                assert_ptr_equal(ntx_idmap_get(&m, order[i]), want);
            }
            /* re-inserting the removed keys works */
            assert_int_equal(ntx_idmap_put(&m, order[victim], V(order[victim])), 0);
            assert_ptr_equal(ntx_idmap_get(&m, order[victim]), V(order[victim]));
            check_idmap_invariants(&m);
            ntx_idmap_free(&m);
        }
    }
}

/* Random operations against a direct-indexed reference, with a small key space so chains collide. */
static void test_idmap_random_against_reference(void **state)
{
    (void)state;
    enum { UNIVERSE = 700 };
    for (uint64_t seed = 1; seed <= 6; seed++) {
        uint64_t s = seed * 0x9e3779b97f4a7c15ULL;
        ntx_idmap m;
        ntx_idmap_init(&m);
        void *ref[UNIVERSE] = {0};
        size_t ref_count = 0;
        /* Keys: a small range, or a range sharing low hash bits via large multiples. */
        uint64_t scale = seed % 2 ? 1 : 0x100000000ULL;
        const uint64_t base = seed == 6 ? UINT64_MAX - UNIVERSE : seed % 3 ? 1ULL << 40 : 0;
        for (int op = 0; op < 60000; op++) {
            uint64_t r = rng_next(&s);
            uint64_t ki = (r >> 8) % (seed <= 3 ? 96 : UNIVERSE); /* small universes keep the table dense */
            uint64_t key = ki * scale + base;
            switch (r % 5) {
            case 0:
            case 1: {
                void *v = (void *)(uintptr_t)((r >> 16) | 1);
                assert_int_equal(ntx_idmap_put(&m, key, v), 0);
                if (!ref[ki])
                    ref_count++;
                ref[ki] = v;
                break;
            }
            case 2:
            case 3: {
                int had = ref[ki] != NULL;
                assert_int_equal(ntx_idmap_remove(&m, key), had);
                if (had)
                    ref_count--;
                ref[ki] = NULL;
                break;
            }
            default: assert_ptr_equal(ntx_idmap_get(&m, key), ref[ki]); break;
            }
            assert_int_equal(ntx_idmap_size(&m), ref_count);
            if (op % 997 == 0) {
                check_idmap_invariants(&m);
                for (uint64_t k = 0; k < UNIVERSE; k++)
                    assert_ptr_equal(ntx_idmap_get(&m, k * scale + base), ref[k]);
            }
            if (op == 30000 && seed == 2) {
                ntx_idmap_clear(&m);
                memset(ref, 0, sizeof ref);
                ref_count = 0;
            }
        }
        check_idmap_invariants(&m);
        ntx_idmap_free(&m);
    }
}

/* ------------------------------------------------------------------ */
/* UTF-16 -> UTF-8                                                     */
/* ------------------------------------------------------------------ */

typedef struct utf_case {
    const char *what;
    uint16_t units[8];
    size_t n;
    const char *utf8;
    size_t utf8_len; /* 0: strlen(utf8) */
} utf_case;

static const utf_case UTF_CASES[] = {
    {"empty", {0}, 0, "", 0},
    {"ascii", {'A', 'b', '~'}, 3, "Ab~", 0},
    {"two-byte", {0x00e9, 0x07ff}, 2, "\xc3\xa9\xdf\xbf", 0},
    {"three-byte", {0x0800, 0x20ac, 0xfffd, 0xffff}, 4, "\xe0\xa0\x80\xe2\x82\xac\xef\xbf\xbd\xef\xbf\xbf", 0},
    {"surrogate pair U+1F600", {0xd83d, 0xde00}, 2, "\xf0\x9f\x98\x80", 0},
    {"surrogate pair U+10000", {0xd800, 0xdc00}, 2, "\xf0\x90\x80\x80", 0},
    {"surrogate pair U+10FFFF", {0xdbff, 0xdfff}, 2, "\xf4\x8f\xbf\xbf", 0},
    {"lone high then ascii", {0xd800, 'A'}, 2, "\xef\xbf\xbd" "A", 0},
    {"lone high at the end", {'A', 0xdbff}, 2, "A\xef\xbf\xbd", 0},
    {"lone low", {0xdc00, 'B'}, 2, "\xef\xbf\xbd" "B", 0},
    {"low then high (reversed pair)", {0xde00, 0xd83d}, 2, "\xef\xbf\xbd\xef\xbf\xbd", 0},
    {"high high low", {0xd800, 0xd83d, 0xde00}, 3, "\xef\xbf\xbd\xf0\x9f\x98\x80", 0},
    {"embedded NUL unit", {'a', 0, 'b'}, 3, "a\0b", 3},
};

static void test_utf16_to_utf8_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof UTF_CASES / sizeof UTF_CASES[0]; i++) {
        const utf_case *uc = &UTF_CASES[i];
        uint8_t src[16];
        for (size_t k = 0; k < uc->n; k++) {
            src[2 * k] = (uint8_t)uc->units[k];
            src[2 * k + 1] = (uint8_t)(uc->units[k] >> 8);
        }
        size_t want_len = uc->utf8_len ? uc->utf8_len : strlen(uc->utf8);
        /* exactly ntx_utf8_bound bytes, on the heap so a sanitizer sees any overflow */
        size_t bound = ntx_utf8_bound(uc->n);
        char *dst = malloc(bound);
        assert_non_null(dst);
        size_t got = ntx_utf16_to_utf8(src, uc->n, dst);
        if (got != want_len || memcmp(dst, uc->utf8, want_len) != 0)
            fail_msg("case '%s': got %zu bytes", uc->what, got);
        assert_int_equal(dst[got], 0);
        assert_true(got + 1 <= bound);
        free(dst);

        ntx_arena a;
        ntx_arena_init(&a);
        char *s = ntx_utf16_dup(&a, src, uc->n);
        assert_non_null(s);
        assert_memory_equal(s, uc->utf8, want_len);
        assert_int_equal(s[want_len], 0);
        ntx_arena_free(&a);
    }
}

/* The bound holds for the worst inputs: all three-byte units, and pairs mixed with lone surrogates. */
static void test_utf16_bound_worst_case(void **state)
{
    (void)state;
    uint64_t s = 77;
    for (int iter = 0; iter < 2000; iter++) {
        size_t n = (size_t)(rng_next(&s) % 64);
        uint8_t src[128];
        for (size_t k = 0; k < n; k++) {
            uint64_t r = rng_next(&s);
            static const uint16_t pick[] = {0xd800, 0xdbff, 0xdc00, 0xdfff, 0xffff, 0x0800, 0x41, 0x7ff};
            uint16_t u = pick[r % 8];
            src[2 * k] = (uint8_t)u;
            src[2 * k + 1] = (uint8_t)(u >> 8);
        }
        size_t bound = ntx_utf8_bound(n);
        char *dst = malloc(bound);
        assert_non_null(dst);
        size_t got = ntx_utf16_to_utf8(src, n, dst);
        assert_true(got < bound);
        assert_int_equal(dst[got], 0);
        free(dst);
    }
}

/*
 * The one-pass converter (ntx_utf16z_to_utf8) gives what ntx_utf16_find_nul() then ntx_utf16_to_utf8() give,
 * on strings with the terminator and the non-ASCII units at every position of the eight-unit steps, lone and
 * split surrogates, no terminator, and an odd byte at the end; its output stays within the bound it states.
 */
static void test_utf16z_matches_find_then_convert(void **state)
{
    (void)state;
    uint64_t s = 1234;
    for (int iter = 0; iter < 20000; iter++) {
        size_t bytes = (size_t)(rng_next(&s) % 80);
        uint8_t *src = malloc(bytes ? bytes : 1); /* exactly `bytes`: a sanitizer sees a read past them */
        assert_non_null(src);
        for (size_t k = 0; k + 1 < bytes; k += 2) {
            uint64_t r = rng_next(&s);
            static const uint16_t pick[] = {0, 0x41, 0x7e, 0x7f, 0x80, 0xe9, 0xd83d, 0xde00, 0xdbff, 0x20ac};
            /* mostly ASCII, as payload strings are */
            uint16_t u = r % 4 ? (uint16_t)(0x20 + (r >> 8) % 0x5f) : pick[(r >> 8) % 10];
            src[k] = (uint8_t)u;
            src[k + 1] = (uint8_t)(u >> 8);
        }
        if (bytes & 1)
            src[bytes - 1] = (uint8_t)rng_next(&s);
        const uint8_t *end = src + bytes;
        const uint8_t *want_z = ntx_utf16_find_nul(src, end);
        size_t room = ntx_utf8_bound(bytes / 2) + 8, len = 0;
        char *dst = malloc(room);
        assert_non_null(dst);
        const uint8_t *z = ntx_utf16z_to_utf8(src, end, dst, &len);
        assert_ptr_equal(z, want_z);
        if (want_z) {
            size_t units = (size_t)(want_z - src) / 2;
            char *want = malloc(ntx_utf8_bound(units));
            assert_non_null(want);
            size_t want_len = ntx_utf16_to_utf8(src, units, want);
            if (len != want_len || memcmp(dst, want, want_len + 1) != 0)
                fail_msg("iteration %d: %zu bytes, want %zu", iter, len, want_len);
            free(want);
        }
        free(dst);
        free(src);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cursor_loads_little_endian),
        cmocka_unit_test(test_cursor_short_reads_fail),
        cmocka_unit_test(test_cursor_sticky_error),
        cmocka_unit_test(test_cursor_huge_lengths_do_not_wrap),
        cmocka_unit_test(test_varuint_table),
        cmocka_unit_test(test_varuint_fast_matches_cursor_random),
        cmocka_unit_test(test_varuint_round_trip),
        cmocka_unit_test(test_zigzag_varint),
        cmocka_unit_test(test_idmap_basic),
        cmocka_unit_test(test_idmap_backward_shift_wraparound),
        cmocka_unit_test(test_idmap_random_against_reference),
        cmocka_unit_test(test_utf16_to_utf8_table),
        cmocka_unit_test(test_utf16_bound_worst_case),
        cmocka_unit_test(test_utf16z_matches_find_then_convert),
    };
    return cmocka_run_group_tests_name("reader-cursor", tests, NULL, NULL);
}
