/*
 * The shortest of "%.15g", "%.16g", "%.17g" that reads back as the double
 * (double_text.h), without printf for the values the outputs hold (times
 * in ms, sizes, percentages: 1e-5 <= |v| < 2^53).
 *
 * The digits are exact, as printf's: v is m * 2^e exactly (m < 2^53), so
 * floor(|v| * 10^t) for the t that gives P digits and one more is the
 * 128-bit product m * 10^t shifted right by -e (for e <= 0 and t <= 22),
 * with a sticky bit for what the shift drops; rounding half to even on that
 * is printf's rounding of the exact value. Whether P digits read back is
 * Clinger's fast path: for D <= 2^53 and |E| <= 22, D * 10^E (or D / 10^-E)
 * is one correctly rounded operation on exact operands, which is what
 * strtod() gives (past it, strtod() of the digits). Everything else (zero,
 * NaN, the infinities, the tiny and the huge) takes the way it always took:
 * snprintf() and strtod() per precision.
 */
#include "double_text.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The way the outputs always wrote a double, and the way back for what the fast one does not cover. */
static size_t by_printf(char *buf, double v)
{
    int len = 0;
    for (int prec = 15; prec <= 17; prec++) {
        len = snprintf(buf, DOUBLE_TEXT_MAX, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return (size_t)len;
}

static const uint64_t pow10_u64[20] = {1ull,
                                       10ull,
                                       100ull,
                                       1000ull,
                                       10000ull,
                                       100000ull,
                                       1000000ull,
                                       10000000ull,
                                       100000000ull,
                                       1000000000ull,
                                       10000000000ull,
                                       100000000000ull,
                                       1000000000000ull,
                                       10000000000000ull,
                                       100000000000000ull,
                                       1000000000000000ull,
                                       10000000000000000ull,
                                       100000000000000000ull,
                                       1000000000000000000ull,
                                       10000000000000000000ull};

static const double pow10_f64[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                     1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* floor(m * 2^e * 10^t) and whether anything was dropped, for -128 < e <= 0 and 0 <= t <= 22. 0: outside
   those bounds or past 64 bits. */
static int scaled(uint64_t m, int e, int t, uint64_t *q, int *sticky)
{
    if (e > 0 || e <= -128 || t < 0 || t > 22)
        return 0;
    unsigned __int128 p10 = t <= 19 ? pow10_u64[t] : (unsigned __int128)pow10_u64[19] * pow10_u64[t - 19];
    unsigned __int128 p = (unsigned __int128)m * p10; /* < 2^53 * 10^22 < 2^127 */
    unsigned shift = (unsigned)-e;
    unsigned __int128 whole = shift ? p >> shift : p;
    if (whole >> 64)
        return 0;
    *q = (uint64_t)whole;
    *sticky = shift && (p & (((unsigned __int128)1 << shift) - 1)) != 0;
    return 1;
}

/* |v| = m * 2^e rounded to p significant digits, half to even on the exact value: *d (p digits) and the
   decimal exponent of its first, *k. 0: not by the fast way. */
static int digits(uint64_t m, int e, int p, uint64_t *d, int *k)
{
    int l2 = e + 63 - __builtin_clzll(m); /* floor(log2 |v|) */
    int guess = l2 >= 0 ? l2 * 1233 >> 12 : -((-l2 * 1233 + 4095) >> 12); /* floor(log10 |v|), or one below */
    uint64_t q;
    int sticky;
    for (int tries = 0;; tries++) {
        if (tries > 3 || !scaled(m, e, p - guess, &q, &sticky))
            return 0;
        if (q >= pow10_u64[p + 1]) /* p <= 17 */
            guess++;
        else if (q < pow10_u64[p])
            guess--;
        else
            break;
    }
    uint64_t r = q % 10;
    q /= 10;
    if (r > 5 || (r == 5 && (sticky || (q & 1))))
        q++;
    if (q == pow10_u64[p]) { /* 99...9 rounded up to 10...0 */
        q = pow10_u64[p - 1];
        guess++;
    }
    *d = q;
    *k = guess;
    return 1;
}

/* The p digits d of a number whose first digit is at 10^k, as "%.{p}g" writes them. */
static size_t put_g(char *buf, int negative, uint64_t d, int p, int k)
{
    char ds[20];
    for (int i = p - 1; i >= 0; i--, d /= 10)
        ds[i] = (char)('0' + d % 10);
    int nd = p; /* %g drops the fraction's trailing zeros */
    while (nd > 1 && ds[nd - 1] == '0')
        nd--;
    char *o = buf;
    if (negative)
        *o++ = '-';
    if (k < -4 || k >= p) {
        *o++ = ds[0];
        if (nd > 1) {
            *o++ = '.';
            memcpy(o, ds + 1, (size_t)nd - 1);
            o += nd - 1;
        }
        *o++ = 'e';
        *o++ = k < 0 ? '-' : '+';
        int ax = k < 0 ? -k : k;
        if (ax >= 100)
            *o++ = (char)('0' + ax / 100);
        *o++ = (char)('0' + ax / 10 % 10);
        *o++ = (char)('0' + ax % 10);
    } else if (k >= 0) {
        memcpy(o, ds, (size_t)k + 1); /* k < p: every digit of the integer part is among the p */
        o += k + 1;
        if (nd > k + 1) {
            *o++ = '.';
            memcpy(o, ds + k + 1, (size_t)(nd - k - 1));
            o += nd - k - 1;
        }
    } else {
        *o++ = '0';
        *o++ = '.';
        for (int i = 0; i < -k - 1; i++)
            *o++ = '0';
        memcpy(o, ds, (size_t)nd);
        o += nd;
    }
    *o = '\0';
    return (size_t)(o - buf);
}

size_t double_text(char *buf, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    unsigned be = (unsigned)(bits >> 52) & 0x7ff;
    if (be == 0 || be == 0x7ff) /* zero, subnormals, NaN, the infinities */
        return by_printf(buf, v);
    uint64_t m = (bits & ((1ull << 52) - 1)) | 1ull << 52;
    int e = (int)be - 1075;
    double a = fabs(v);
    for (int p = 15; p <= 17; p++) {
        uint64_t d;
        int k;
        if (!digits(m, e, p, &d, &k))
            return by_printf(buf, v);
        if (p == 17) /* 17 digits always read back */
            return put_g(buf, v < 0, d, p, k);
        int ex = k - (p - 1); /* the value is d * 10^ex */
        double back;
        if (d <= (1ull << 53) && ex >= -22 && ex <= 22) {
            back = ex >= 0 ? (double)d * pow10_f64[ex] : (double)d / pow10_f64[-ex];
        } else { /* past the fast path: read the text back */
            char t[DOUBLE_TEXT_MAX];
            put_g(t, 0, d, p, k);
            back = strtod(t, NULL);
        }
        if (back == a)
            return put_g(buf, v < 0, d, p, k);
    }
    return by_printf(buf, v); /* never: p == 17 returns */
}

int fixed_text(char *buf, size_t n, double v, int decimals)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    unsigned be = (unsigned)(bits >> 52) & 0x7ff;
    uint64_t q;
    int sticky;
    if (be == 0 || be == 0x7ff || decimals < 0 || decimals > 9 || n < DOUBLE_TEXT_MAX ||
        !scaled((bits & ((1ull << 52) - 1)) | 1ull << 52, (int)be - 1075, decimals + 1, &q, &sticky))
        return snprintf(buf, n, "%.*f", decimals, v);
    /* |v| * 10^decimals rounded half to even on the exact value, as printf rounds */
    uint64_t r = q % 10, d = q / 10;
    if (r > 5 || (r == 5 && (sticky || (d & 1))))
        d++;
    uint64_t unit = pow10_u64[decimals], whole = d / unit, frac = d % unit;
    char digits[24];
    int k = 24;
    for (int i = 0; i < decimals; i++, frac /= 10)
        digits[--k] = (char)('0' + frac % 10);
    if (decimals)
        digits[--k] = '.';
    do
        digits[--k] = (char)('0' + whole % 10);
    while ((whole /= 10) != 0);
    if (bits >> 63) /* printf writes the sign of a negative value that rounds to zero too: -0.000 */
        digits[--k] = '-';
    size_t len = (size_t)(24 - k); /* d < 2^64 / 10: at most a sign, 19 digits and the point */
    memcpy(buf, digits + k, len);
    buf[len] = '\0';
    return (int)len;
}
