/*
 * The buffer's formatters (base/buf.c, base/fmt_double.c) print the bytes
 * printf prints: ntx_buf_g17 those of "%.17g" (random bit patterns of
 * doubles and floats, every exponent, ties to even, denormals, limits),
 * ntx_buf_dec_u64/i64 those of "%llu"/"%lld" (every digit count, limits).
 * The JSON escaper (8 bytes a step) is held to a byte-at-a-time statement
 * of its policy on random strings of the bytes that matter. The UTF-16
 * writer (8 units a step) writes what the UTF-16 to UTF-8 conversion and
 * then the escaper write, on random strings of the units that matter.
 */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "buf.h"
#include "utf.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void)
{
    /* splitmix64: deterministic, so a failure reproduces */
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static unsigned long checked;

static void check_g17(double d)
{
    if (isnan(d) || isinf(d))
        return;
    char want[64];
    snprintf(want, sizeof want, "%.17g", d);
    ntidx_buf b = {0};
    ntx_buf_g17(&b, d);
    assert_int_equal(b.err, 0);
    if (strcmp(b.data, want) != 0) {
        uint64_t bits;
        memcpy(&bits, &d, 8);
        fail_msg("0x%016llx: printf %s, ntx_buf_g17 %s", (unsigned long long)bits, want, b.data);
    }
    ntidx_buf_free(&b);
    checked++;
}

static double from_bits(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

static void g17_edges(void **state)
{
    (void)state;
    static const double v[] = {0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 2.0 / 3, 1e-5, 1e-4, 9.9999999999999991e-5, 1e16,
                               1e17, 99999999999999999.0, 1e22, 1e23, 5e-324, -5e-324, DBL_MIN, DBL_MAX, -DBL_MAX,
                               FLT_MIN, FLT_MAX, 1.4012984643248171e-45, 126662, 295544.65625, -295544.66666666669,
                               9007199254740992.0, 9007199254740993.0, 1234567890123456.25, 1234567890123456.75,
                               0.30000000000000004, 123456.5, 1e-300, 1e300};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        check_g17(v[i]);
        check_g17(nextafter(v[i], INFINITY));
        check_g17(nextafter(v[i], -INFINITY));
    }
    /* powers of ten and two and their neighbours: where the digit count and the exponent change */
    for (int p = -324; p <= 308; p++) {
        char s[16];
        snprintf(s, sizeof s, "1e%d", p);
        double d = strtod(s, NULL);
        check_g17(d);
        check_g17(nextafter(d, 0));
        check_g17(nextafter(d, INFINITY));
    }
    for (int p = -1074; p <= 1023; p++) {
        double d = ldexp(1.0, p);
        check_g17(d);
        check_g17(nextafter(d, 0));
        check_g17(nextafter(d, INFINITY));
    }
    /* integers and small denormals */
    for (uint64_t i = 0; i < 20000; i++) {
        check_g17((double)i);
        check_g17(from_bits(i));
    }
    /* integers of every size (the integer path: up to 10^17, as integers, then by digits) and their halves */
    for (int i = 0; i < 200000; i++) {
        double d = (double)(int64_t)(next() >> (next() % 64));
        check_g17(d);
        check_g17(d / 2);
        check_g17(nextafter(d, 0));
    }
    for (double d = 1e16; d < 1.2e17; d += 1e15 / 3) {
        check_g17(floor(d));
        check_g17(-floor(d));
    }
}

static void g17_ties(void **state)
{
    (void)state;
    /* m / 2^j with m of 53 bits: exact expansions of 17, 18 and more digits, many ending in 5 (ties) */
    for (int i = 0; i < 200000; i++) {
        uint64_t m = (next() >> 11) | (1ull << 52);
        int j = (int)(next() % 80);
        check_g17(ldexp((double)m, -j));
        check_g17(ldexp((double)(m >> (next() % 40)), -j));
    }
}

static void g17_random(void **state)
{
    (void)state;
    for (int i = 0; i < 300000; i++) {
        check_g17(from_bits(next()));
        uint32_t f = (uint32_t)next();
        float x;
        memcpy(&x, &f, 4);
        check_g17((double)x); /* the payload's SINGLE values are printed as doubles */
        /* values of every magnitude with few significant bits, as counters and ratios are */
        check_g17((double)(int64_t)(next() >> (next() % 64)) / (double)(1u + (uint32_t)(next() % 1000)));
    }
}

/* The values that need the big numbers are kept once formatted (fmt_double.c's cache): the same value again,
   its negative, and other values on the same slots print their own bytes. */
static void g17_repeated(void **state)
{
    (void)state;
    const double v[] = {DBL_MAX, FLT_MAX, 5e-324, FLT_MIN, DBL_MIN, 1.4012984643248171e-45, 1e300, 1e-300};
    for (int round = 0; round < 3; round++)
        for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
            check_g17(v[i]);
            check_g17(-v[i]);
        }
    uint64_t seen[512];
    for (int i = 0; i < 512; i++) { /* huge and tiny values, far more than the cache holds, each twice */
        uint64_t b = next();
        b = (b & ~(0x7ffull << 52)) | ((uint64_t)(next() % 2 ? 1500 + next() % 540 : 1 + next() % 400) << 52);
        seen[i] = b;
        check_g17(from_bits(b));
        check_g17(from_bits(seen[next() % (uint64_t)(i + 1)]));
    }
}

static void check_dec(uint64_t u)
{
    char want[32];
    ntidx_buf b = {0};
    snprintf(want, sizeof want, "%llu", (unsigned long long)u);
    ntx_buf_dec_u64(&b, u);
    assert_string_equal(b.data, want);
    ntx_buf_reset(&b);
    snprintf(want, sizeof want, "%lld", (long long)u);
    ntx_buf_dec_i64(&b, (int64_t)u);
    assert_string_equal(b.data, want);
    ntidx_buf_free(&b);
}

static void dec_all_lengths(void **state)
{
    (void)state;
    uint64_t p = 1;
    for (int i = 0; i < 20; i++, p *= 10) {
        check_dec(p);
        check_dec(p - 1);
        check_dec(p + 1);
        check_dec(p * 5);
        check_dec((uint64_t)0 - p);
    }
    check_dec(UINT64_MAX);
    check_dec((uint64_t)INT64_MIN);
    check_dec((uint64_t)INT64_MAX);
    for (int i = 0; i < 200000; i++)
        check_dec(next() >> (next() % 64));
}

/* The escaping policy of buf.h, one byte at a time. */
static void json_ref(ntidx_buf *b, const unsigned char *s, size_t n)
{
    ntx_buf_put(b, "\"", 1);
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        size_t len = ntx_utf8_seq_len(s + i, n - i);
        char tmp[8];
        if (c == '"' || c == '\\') {
            snprintf(tmp, sizeof tmp, "\\%c", c);
            ntx_buf_puts(b, tmp);
        } else if (c == 8 || c == 9 || c == 10 || c == 12 || c == 13) {
            snprintf(tmp, sizeof tmp, "\\%c", "btn?fr"[c - 8]);
            ntx_buf_puts(b, tmp);
        } else if (c < 0x20 || c == 0x7f) {
            snprintf(tmp, sizeof tmp, "\\u%04x", c);
            ntx_buf_puts(b, tmp);
        } else if (len == 0) {
            ntx_buf_puts(b, "\xef\xbf\xbd");
        } else {
            ntx_buf_put(b, s + i, len);
            i += len;
            continue;
        }
        i++;
    }
    ntx_buf_put(b, "\"", 1);
}

static void json_strings(void **state)
{
    (void)state;
    /* plain ASCII mostly, and each kind of byte the escaper treats apart, at every alignment */
    static const char *pieces[] = {"a", "Z", " ", "~", "\"", "\\", "\n", "\t", "\x01", "\x1f", "\x7f", "/",
                                   "\xc3\xa9", "\xe4\xb8\xad", "\xf0\x9f\x98\x80", "\xff", "\xc3", "\xed\xa0\x80",
                                   "\xc0\xaf", "\x80", "abcdefgh", "0123456789abcdef"};
    const size_t np = sizeof pieces / sizeof pieces[0];
    for (int i = 0; i < 100000; i++) {
        char s[512]; /* 23 pieces of at most 16 bytes, and a NUL */
        size_t n = 0;
        int k = (int)(next() % 24);
        for (int j = 0; j < k; j++) {
            /* plain pieces far more often, so that the 8-byte runs meet a special byte anywhere */
            const char *pc = pieces[next() % 3 ? next() % 4 : next() % np];
            size_t l = strlen(pc);
            memcpy(s + n, pc, l);
            n += l;
        }
        if (next() % 8 == 0)
            s[n++] = 0; /* a NUL inside */
        ntidx_buf got = {0}, want = {0};
        ntx_buf_json_str(&got, s, n);
        json_ref(&want, (const unsigned char *)s, n);
        assert_int_equal(got.len, want.len);
        assert_memory_equal(got.data, want.data, want.len);
        ntidx_buf_free(&got);
        ntidx_buf_free(&want);
    }
}

/* ntx_json_plain_all() (field names: overlapping loads for the bytes short of 8) against ntx_json_plain(), byte
   by byte, on every length up to 40 with one byte of each kind the escaper treats apart at each place; the
   bytes are copied to the end of a heap block, so a load past them is seen by the address sanitizer. */
static void json_plain_all(void **state)
{
    (void)state;
    static const unsigned char odd[] = {'"', '\\', 0, 0x1f, 0x7f, 0x80, 0xff, 0x20, 0x7e};
    for (size_t n = 0; n <= 40; n++) {
        for (size_t at = 0; at <= n; at++) {
            for (size_t k = 0; k < sizeof odd; k++) {
                unsigned char *s = malloc(n ? n : 1);
                assert_non_null(s);
                for (size_t i = 0; i < n; i++)
                    s[i] = (unsigned char)('a' + (next() % 26));
                if (at < n)
                    s[at] = odd[k];
                int want = 1;
                for (size_t i = 0; i < n; i++)
                    want &= ntx_json_plain(s[i]);
                assert_int_equal(ntx_json_plain_all(s, n), want);
                free(s);
            }
        }
    }
}

/* ntx_json_utf16() and ntx_json_utf16z() against ntx_utf16_to_utf8() then ntx_buf_json_str(). */
static void json_utf16_strings(void **state)
{
    (void)state;
    /* printable ASCII mostly; each unit the writer treats apart: escaped ASCII, a zero unit, 2- and 3-byte
       code points, surrogate pairs, lone and reversed surrogates, U+FFFF */
    static const uint16_t units[] = {'a', 'Z', ' ', '~', '"', '\\', '\n', '\t', 1, 0x1f, 0x7f, '/', 0x80, 0xe9,
                                     0x7ff, 0x800, 0x4e2d, 0xffff, 0xd83d, 0xde00, 0xdbff, 0xdfff, 0xdc00, 0};
    const size_t nu = sizeof units / sizeof units[0];
    for (int i = 0; i < 100000; i++) {
        uint8_t s[2 * 80 + 1];
        size_t n = next() % 80;
        for (size_t j = 0; j < n; j++) {
            uint16_t u = next() % 4 ? (uint16_t)(0x20 + next() % 0x5f) : units[next() % nu];
            s[2 * j] = (uint8_t)u;
            s[2 * j + 1] = (uint8_t)(u >> 8);
        }
        /* the reference: the conversion, then the escaper */
        char utf8[3 * 80 + 1];
        size_t len = ntx_utf16_to_utf8(s, n, utf8);
        ntidx_buf want = {0};
        ntx_buf_json_str(&want, utf8, len);
        char got[NTX_JSON_UTF16_ROOM(80)];
        char *e = ntx_json_utf16(got, s, n);
        assert_int_equal((size_t)(e - got), want.len - 2);
        assert_memory_equal(got, want.data + 1, want.len - 2);
        /* up to the first zero unit: the same text as the units before it, and the zero unit's place */
        size_t z = 0;
        while (z < n && (s[2 * z] | s[2 * z + 1]))
            z++;
        size_t bytes = 2 * n + (next() % 2); /* an odd byte at the end is no unit */
        s[2 * n] = 0x41;
        const uint8_t *at = ntx_json_utf16z(s, s + bytes, got, &e);
        if (z == n) {
            assert_null(at);
        } else {
            assert_ptr_equal(at, s + 2 * z);
            ntidx_buf w = {0};
            ntx_buf_json_str(&w, utf8, ntx_utf16_to_utf8(s, z, utf8));
            assert_int_equal((size_t)(e - got), w.len - 2);
            assert_memory_equal(got, w.data + 1, w.len - 2);
            ntidx_buf_free(&w);
        }
        ntidx_buf_free(&want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(g17_edges),
        cmocka_unit_test(g17_ties),
        cmocka_unit_test(g17_random),
        cmocka_unit_test(g17_repeated),
        cmocka_unit_test(dec_all_lengths),
        cmocka_unit_test(json_strings),
        cmocka_unit_test(json_plain_all),
        cmocka_unit_test(json_utf16_strings),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    printf("%lu doubles compared with printf's %%.17g\n", checked);
    return rc;
}
