/*
 * double_text() (tools/double_text.c) against the way the analyses' outputs
 * wrote a double before it, snprintf("%.*g") for 15, 16 and 17 digits until
 * strtod() reads it back: the same bytes for values of every kind, those
 * of its fast way (ms since the sync time, durations, sizes) and those it
 * hands back to snprintf (zero, subnormals, the huge, NaN, the infinities),
 * and for random bit patterns and ms-like values; fixed_text() against
 * snprintf("%.*f") the same way.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "double_text.h"

static void reference(char *buf, double v)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, DOUBLE_TEXT_MAX, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
}

static void check(double v)
{
    char want[DOUBLE_TEXT_MAX], got[DOUBLE_TEXT_MAX];
    reference(want, v);
    size_t len = double_text(got, v);
    if (strcmp(want, got) || len != strlen(want)) {
        uint64_t bits;
        memcpy(&bits, &v, sizeof bits);
        fail_msg("0x%016llx: \"%s\" (%zu), want \"%s\"", (unsigned long long)bits, got, len, want);
    }
}

static void test_values(void **state)
{
    (void)state;
    static const double v[] = {
        0.0, -0.0, 1.0, -1.0, 5.0, 10.0, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 20.036, 263.801, 91.406, 0.045,
        28744.243, 86810.457, 1e15, 1e16, 1e17, 123456789012345678.0, 9007199254740992.0, 9007199254740993.0,
        4503599627370496.5, 1e-4, 1e-5, 1.5e-5, 9.999999999999999e-5, 1e-7, 1e-22, 1e-300, 1e300, 5e-324,
        2.2250738585072014e-308, 1.7976931348623157e308, 0.30000000000000004, 99999999999999.99,
        999999999999999.9, 9999999999999998.0, 0.000123456789012345678, 1234567.0000000001, 1e21, 1e22, 1e23,
        NAN, -NAN, INFINITY, -INFINITY,
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        check(v[i]);
        check(-v[i]);
    }
    /* 15, 16 and 17 digits around the rounding of each, the powers of ten and of two */
    for (int k = -30; k <= 30; k++) {
        double p = pow(10, k);
        check(p);
        check(nextafter(p, 0));
        check(nextafter(p, INFINITY));
        check(ldexp(1, k * 3));
        check(ldexp(1, k * 3) * 0.999999999999999);
    }
}

static uint64_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t x = *s;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ull;
    return x ^ x >> 32;
}

static void test_random_bits(void **state)
{
    (void)state;
    uint64_t s = 42;
    for (int i = 0; i < 100000; i++) {
        uint64_t bits = next(&s);
        double v;
        memcpy(&v, &bits, sizeof v);
        check(v);
    }
}

/* What the analyses write: ticks to ms (10^7 ticks a second, a sync time), their differences, sizes in MB. */
static void test_ms_like(void **state)
{
    (void)state;
    uint64_t s = 7;
    for (int i = 0; i < 100000; i++) {
        uint64_t ticks = next(&s) % 40000000000ull, other = ticks + next(&s) % 100000000ull;
        double freq = i % 3 == 0 ? 10000000.0 : i % 3 == 1 ? 1000000000.0 : 2441406.0;
        double a = (double)(int64_t)ticks * 1000.0 / freq, b = (double)(int64_t)other * 1000.0 / freq;
        check(a);
        check(b - a);
        check((double)(next(&s) % 100000000000ull) / 1e6);
        check((double)(next(&s) % 1000000) / 1000.0);
    }
}

/* fixed_text() against snprintf("%.*f") for every count of decimals the text tables use and more. */
static void check_fixed(double v, int decimals)
{
    char want[512], got[512];
    int wn = snprintf(want, sizeof want, "%.*f", decimals, v);
    int gn = fixed_text(got, sizeof got, v, decimals);
    if (strcmp(want, got) || wn != gn) {
        uint64_t bits;
        memcpy(&bits, &v, sizeof bits);
        fail_msg("0x%016llx %%.%df: \"%s\" (%d), want \"%s\" (%d)", (unsigned long long)bits, decimals, got, gn,
                 want, wn);
    }
}

static void test_fixed(void **state)
{
    (void)state;
    static const double v[] = {0.0, -0.0, 0.25, 0.125, 0.0625, 2.5, 0.5, 1.5, 0.0005, 0.00049999999999999999,
                               -0.0001, 1e-9, 123.4565, 91.4065, 1e15, 1.8e15, 1e18, 1e19, 1e300, 5e-324, NAN,
                               INFINITY, -INFINITY, 263.801, 86810.457, 0.045};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        for (int d = 0; d <= 10; d++) {
            check_fixed(v[i], d);
            check_fixed(-v[i], d);
        }
    uint64_t s = 99;
    for (int i = 0; i < 60000; i++) {
        uint64_t bits = next(&s);
        double x;
        memcpy(&x, &bits, sizeof x);
        check_fixed(x, i % 7);
        /* ms-like values, and exact ties (k / 2^j) that printf rounds to even */
        check_fixed((double)(int64_t)(next(&s) % 40000000000ull) * 1000.0 / 10000000.0, 3);
        check_fixed((double)(next(&s) % 1000000) / 1024.0, 1 + i % 4);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_random_bits),
        cmocka_unit_test(test_ms_like),
        cmocka_unit_test(test_fixed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
