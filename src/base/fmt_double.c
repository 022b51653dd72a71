/*
 * A double as printf's "%.17g" prints it, without printf: the payload
 * formatter's float values (JSON and text dumps). glibc's conversion is
 * exact (multi-precision arithmetic, rounding half to even on the exact
 * binary value) and cost ~3,600 instructions a number, more than decoding
 * the event it came from. This one computes the same exact digits: the
 * double is m * 2^e exactly, so floor(|x| * 10^(17-k)) (17 digits and one
 * more to round with) is an integer product and shift, or quotient, plus
 * a sticky bit for what was dropped (an integer below 10^17 is simply its
 * decimal digits). Most values fit in 128 bits; the rest
 * (|x| < 1e-5 or >= 2^53 with big exponents) go through a small big number
 * of 32-bit limbs. tests/base/test_fmt_numbers.c holds every branch to
 * snprintf's bytes.
 */
#include "buf.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Big enough for 2^53 * 10^341 (a denormal's digits) and for 2^53 * 2^971 (DBL_MAX). */
#define LIMBS 40

typedef struct big {
    uint32_t w[LIMBS]; /* little-endian limbs */
    int n;             /* limbs in use */
} big;

static void big_mul(big *a, uint32_t f)
{
    uint64_t carry = 0;
    for (int i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->w[i] * f + carry;
        a->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry)
        a->w[a->n++] = (uint32_t)carry;
}

static void big_shl(big *a, unsigned s)
{
    int limbs = (int)(s / 32);
    unsigned bits = s % 32;
    for (int i = a->n - 1; i >= 0; i--)
        a->w[i + limbs] = a->w[i];
    memset(a->w, 0, sizeof a->w[0] * (size_t)limbs);
    a->n += limbs;
    if (bits) {
        uint32_t carry = 0;
        for (int i = limbs; i < a->n; i++) {
            uint32_t w = a->w[i];
            a->w[i] = (w << bits) | carry;
            carry = w >> (32 - bits);
        }
        if (carry)
            a->w[a->n++] = carry;
    }
}

static void big_trim(big *a)
{
    while (a->n > 0 && a->w[a->n - 1] == 0)
        a->n--;
}

/* a >>= s; whether a bit shifted out was set. */
static int big_shr(big *a, unsigned s)
{
    int limbs = (int)(s / 32);
    unsigned bits = s % 32;
    int sticky = 0;
    if (limbs >= a->n) {
        for (int i = 0; i < a->n; i++)
            sticky |= a->w[i] != 0;
        a->n = 0;
        return sticky;
    }
    for (int i = 0; i < limbs; i++)
        sticky |= a->w[i] != 0;
    if (bits)
        sticky |= (a->w[limbs] & ((1u << bits) - 1)) != 0;
    int n = a->n - limbs;
    for (int i = 0; i < n; i++) {
        uint32_t lo = a->w[i + limbs], hi = i + limbs + 1 < a->n ? a->w[i + limbs + 1] : 0;
        a->w[i] = bits ? (lo >> bits) | (hi << (32 - bits)) : lo;
    }
    a->n = n;
    big_trim(a);
    return sticky;
}

/* a /= d; the remainder. */
static uint32_t big_div(big *a, uint32_t d)
{
    uint64_t r = 0;
    for (int i = a->n - 1; i >= 0; i--) {
        uint64_t t = (r << 32) | a->w[i];
        a->w[i] = (uint32_t)(t / d);
        r = t % d;
    }
    big_trim(a);
    return (uint32_t)r;
}

/*
 * floor(m * 2^e * 10^t) with the sticky bit, by big numbers; UINT64_MAX when it does not fit 64 bits.
 * 10^t = 2^t * 5^t: the power of two is a shift, so only 5^|t| multiplies or divides (13 powers of 5 fit a
 * limb against 9 powers of 10, on a number smaller by |t| bits). floor(floor(a / b) / c) = floor(a / (b c)),
 * so the shift then the divisions give the quotient, and any remainder on the way sets the sticky bit.
 */
static uint64_t scaled_big(uint64_t m, int e, int t, int *sticky)
{
    static const uint32_t p5[14] = {1u, 5u, 25u, 125u, 625u, 3125u, 15625u, 78125u, 390625u, 1953125u, 9765625u,
                                    48828125u, 244140625u, 1220703125u};
    big a = {{(uint32_t)m, (uint32_t)(m >> 32)}, 2};
    big_trim(&a);
    int shift = e + t; /* the power of two left */
    for (int f = t; f > 0; f -= 13)
        big_mul(&a, p5[f < 13 ? f : 13]);
    if (shift > 0)
        big_shl(&a, (unsigned)shift);
    *sticky = 0;
    if (shift < 0)
        *sticky |= big_shr(&a, (unsigned)-shift);
    for (int f = -t; f > 0; f -= 13)
        *sticky |= big_div(&a, p5[f < 13 ? f : 13]) != 0;
    if (a.n > 2)
        return UINT64_MAX;
    return a.n == 0 ? 0 : a.n == 1 ? a.w[0] : ((uint64_t)a.w[1] << 32) | a.w[0];
}

/* floor(m * 2^e * 10^t) with the sticky bit (m < 2^53). */
static uint64_t scaled(uint64_t m, int e, int t, int *sticky)
{
    if (e < 0 && e > -128 && t >= 0 && t <= 22) {
        /* m * 10^t < 2^53 * 2^73.1: fits 128 bits */
        static const uint64_t p10[20] = {1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
                                         100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
                                         1000000000000ull, 10000000000000ull, 100000000000000ull,
                                         1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
                                         1000000000000000000ull, 10000000000000000000ull};
        unsigned __int128 p = t <= 19 ? (unsigned __int128)p10[t] : (unsigned __int128)p10[19] * p10[t - 19];
        unsigned __int128 n = p * m;
        unsigned s = (unsigned)-e;
        unsigned __int128 q = n >> s;
        *sticky = (q << s) != n;
        return q >> 64 ? UINT64_MAX : (uint64_t)q;
    }
    return scaled_big(m, e, t, sticky);
}

/* d as exactly n decimal digits. */
static char *put_digits(char *o, uint64_t d, int n)
{
    for (int i = n - 1; i >= 0; i--, d /= 10)
        o[i] = (char)('0' + d % 10);
    return o + n;
}

/* d < 10^17 as exactly 17 decimal digits: one, then two groups of 8 (buf.h's pairs). */
static void put_17_digits(char *o, uint64_t d)
{
    o[0] = (char)('0' + d / 10000000000000000ull);
    d %= 10000000000000000ull;
    ntx_put_dec8(o + 1, (uint32_t)(d / 100000000));
    ntx_put_dec8(o + 9, (uint32_t)(d % 100000000));
}

/* The digits of |x| (bits without the sign) by the exact arithmetic; returns the end. */
static char *put_g17_exact(char *o, double x, uint64_t bits);

/*
 * The digits of the values that need the big numbers (tiny, huge: ~8,000 instructions each for DBL_MAX),
 * kept per thread by their bits: a payload's extreme values are mostly a few constants (float.MinValue,
 * double.Epsilon, double.MaxValue...) written again and again. Direct-mapped; an entry is its bits (the
 * sign cleared, so 0 marks an empty one: zero never comes here) and the bytes.
 */
#define BIG_CACHE 64
typedef struct big_cached {
    uint64_t bits;
    uint8_t len;
    char text[NTX_G17_MAX - 1];
} big_cached;
static _Thread_local big_cached big_cache[BIG_CACHE];

char *ntx_put_g17(char *o, double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    if (bits >> 63)
        *o++ = '-';
    return put_g17_exact(o, x, bits & ~(1ull << 63));
}

static char *put_g17_exact(char *o, double x, uint64_t bits)
{
    unsigned be = (unsigned)(bits >> 52) & 0x7ff;
    uint64_t m = bits & ((1ull << 52) - 1);
    if (be == 0x7ff) { /* callers print NaN and infinities themselves; printf's bytes anyway */
        memcpy(o, m ? "nan" : "inf", 3);
        return o + 3;
    }
    if (be == 0 && m == 0) {
        *o++ = '0';
        return o;
    }
    int e;
    if (be == 0) {
        e = -1074;
    } else {
        m |= 1ull << 52;
        e = (int)be - 1075;
    }
    /* An integer below 10^17 (counters, sizes, ids stored as floats): its 17 significant digits are all of
       it, which %.17g prints as an integer. */
    if (e <= 0 && e > -53 && !(m & ((1ull << -e) - 1)))
        return ntx_put_dec_u64(o, m >> -e);
    if (e > 0 && e <= 11 && (m << e) < 100000000000000000ull)
        return ntx_put_dec_u64(o, m << e);
    /* k = floor(log10 |x|), first a guess from the binary exponent (floor(log2 |x|) * log10(2), within
       one), then fixed by the size of the digits. */
    int l2 = e + 63 - __builtin_clzll(m);
    int k = l2 >= 0 ? l2 * 1233 >> 12 : -((-l2 * 1233 + 4095) >> 12);
    /* scaled() takes the 128-bit way for -128 < e < 0 and 0 <= 17 - k <= 22, k within two of the guess */
    big_cached *c = NULL;
    if (!(e < 0 && e > -128 && k >= -3 && k <= 15)) {
        c = &big_cache[(bits ^ bits >> 29 ^ bits >> 52) % BIG_CACHE];
        if (c->bits == bits) {
            memcpy(o, c->text, c->len);
            return o + c->len;
        }
    }
    char *start = o;
    uint64_t q;
    int sticky;
    for (int tries = 0;; tries++) {
        q = scaled(m, e, 17 - k, &sticky);
        if (q >= 1000000000000000000ull)
            k++;
        else if (q < 100000000000000000ull)
            k--;
        else
            break;
        if (tries > 4) /* never: the guess is off by one or two at most */
            return o + snprintf(o, NTX_G17_MAX, "%.17g", fabs(x));
    }
    /* 17 digits, rounded half to even on the exact value. */
    uint64_t d = q / 10;
    unsigned r = (unsigned)(q % 10);
    if (r > 5 || (r == 5 && (sticky || (d & 1))))
        d++;
    if (d == 100000000000000000ull) {
        d = 10000000000000000ull;
        k++;
    }
    char ds[17];
    put_17_digits(ds, d);
    int nd = 17; /* %g drops trailing zeros of the fraction */
    while (nd > 1 && ds[nd - 1] == '0')
        nd--;
    if (k < -4 || k >= 17) {
        *o++ = ds[0];
        if (nd > 1) {
            *o++ = '.';
            memcpy(o, ds + 1, (size_t)nd - 1);
            o += nd - 1;
        }
        *o++ = 'e';
        *o++ = k < 0 ? '-' : '+';
        unsigned ax = (unsigned)(k < 0 ? -k : k);
        o = put_digits(o, ax, ax >= 100 ? 3 : 2);
    } else if (k >= 0) {
        memcpy(o, ds, (size_t)k + 1);
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
    if (c) {
        c->bits = bits;
        c->len = (uint8_t)(o - start);
        memcpy(c->text, start, c->len);
    }
    return o;
}

int ntx_buf_g17(ntidx_buf *b, double x)
{
    if (ntx_buf_reserve(b, NTX_G17_MAX) != 0)
        return b->err;
    char *e = ntx_put_g17(b->data + b->len, x);
    b->len = (size_t)(e - b->data);
    *e = 0;
    return 0;
}
