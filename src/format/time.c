/* Timestamps: raw ticks -> seconds since the sync time, Unix time, ISO-8601. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>

#include "calendar.h"
#include "cursor.h"

#include "trace_internal.h"

NTIDX_API double ntidx_ticks_to_seconds(const ntidx_trace *t, uint64_t ticks)
{
    /* Subtract in integers first: doubles lose precision on large tick counts. In 128 bits: a tick more than
       2^63 after the sync time (a histogram bucket that ends at the last tick) is not before it. */
    __int128 d = (__int128)ticks - t->info.sync_ticks;
    /* The same integer converted from 64 bits when it fits (nearly always): the same double, rounded once,
       without the 128-bit conversion's library call (a dump converts every event's time). */
    if (d >= INT64_MIN && d <= INT64_MAX)
        return (double)(int64_t)d / (double)t->info.tick_frequency;
    return (double)d / (double)t->info.tick_frequency;
}

/* ntidx_ticks_to_unix_ns() without publishing an error (the conversions below call it). */
static int to_unix_ns(const ntidx_trace *t, uint64_t ticks, int64_t *unix_ns)
{
    const ntidx_systime *s = &t->info.sync_time_utc;
    if (s->month < 1 || s->month > 12 || s->day < 1 || s->day > 31 || s->hour < 0 || s->hour > 23 || s->minute < 0 ||
        s->minute > 59 || s->second < 0 || s->second > 60 || s->millisecond < 0 || s->millisecond > 999 ||
        s->year < 1601)
        return ntx_failf(NTIDX_E_CORRUPT, t->name, NTIDX_NO_OFFSET,
                         "the trace's sync time %04d-%02d-%02dT%02d:%02d:%02d.%03dZ is not a valid date", s->year,
                         s->month, s->day, s->hour, s->minute, s->second, s->millisecond);
    int64_t days = ntx_days_from_civil(s->year, (unsigned)s->month, (unsigned)s->day);
    int64_t base_ns = ((days * 24 + s->hour) * 60 + s->minute) * 60 + s->second;
    if (__builtin_mul_overflow(base_ns, 1000000000LL, &base_ns)) /* years 1601-32767 are not all representable */
        return ntx_failf(NTIDX_E_CORRUPT, t->name, NTIDX_NO_OFFSET,
                         "the trace's sync time (year %d) is outside the years Unix nanoseconds can hold", s->year);
    base_ns += (int64_t)s->millisecond * 1000000LL; /* cannot overflow: base_ns is a whole second */
    int64_t d = (int64_t)(ticks - (uint64_t)t->info.sync_ticks);
    int64_t f = t->info.tick_frequency;
    /* d * 1e9 / f without overflow for any realistic span: split whole seconds off. Timestamps
       are untrusted: a result outside the int64 nanosecond range (years ~1678-2262) is refused. */
    int64_t whole = d / f, rem = d % f, ns;
    if (__builtin_mul_overflow(whole, 1000000000LL, &ns) || __builtin_add_overflow(ns, base_ns, &ns) ||
        __builtin_add_overflow(ns, (int64_t)((__int128)rem * 1000000000LL / f), &ns))
        return ntx_failf(NTIDX_E_CORRUPT, t->name, NTIDX_NO_OFFSET,
                         "timestamp %llu is outside the years Unix nanoseconds can hold (1678-2262)",
                         (unsigned long long)ticks);
    *unix_ns = ns;
    return NTIDX_OK;
}

NTIDX_API int ntidx_ticks_to_unix_ns(const ntidx_trace *t, uint64_t ticks, int64_t *unix_ns)
{
    if (!t || !unix_ns)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_ticks_to_unix_ns: NULL argument");
    return to_unix_ns(t, ticks, unix_ns);
}

NTIDX_API int ntidx_ticks_to_iso8601(const ntidx_trace *t, uint64_t ticks, char *buf, size_t buflen)
{
    if (!t || !buf)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_ticks_to_iso8601: NULL argument");
    int64_t ns = 0; /* set by to_unix_ns() when it succeeds (an LTO build cannot see it) */
    int rc = to_unix_ns(t, ticks, &ns);
    if (rc < 0)
        return rc;
    ntx_format_iso8601(buf, buflen, ns, 9, 0);
    return NTIDX_OK;
}

void ntx_read_sync_head(ntx_cur *c, ntidx_trace_info *in)
{
    ntidx_systime *s = &in->sync_time_utc;
    s->year = (int16_t)ntx_cur_u16(c);
    s->month = (int16_t)ntx_cur_u16(c);
    s->day_of_week = (int16_t)ntx_cur_u16(c);
    s->day = (int16_t)ntx_cur_u16(c);
    s->hour = (int16_t)ntx_cur_u16(c);
    s->minute = (int16_t)ntx_cur_u16(c);
    s->second = (int16_t)ntx_cur_u16(c);
    s->millisecond = (int16_t)ntx_cur_u16(c);
    in->sync_ticks = (int64_t)ntx_cur_u64(c);
    in->tick_frequency = (int64_t)ntx_cur_u64(c);
    in->pointer_size = ntx_cur_u32(c);
}

/* ---- Times as people write them ------------------------------------------------------------------------- */

/* The first tick and the last as seconds since the sync time: what a message says the range is. */
static void tick_range_s(const ntidx_trace *t, double *lo, double *hi)
{
    *lo = ntidx_ticks_to_seconds(t, 0);
    *hi = ntidx_ticks_to_seconds(t, UINT64_MAX);
}

static int sync_ns(const ntidx_trace *t, __int128 *ns);

/* A tick as ISO-8601 UTC to the microsecond, whatever its year ("" when the sync time is no date). */
static void tick_iso(const ntidx_trace *t, uint64_t tick, char *buf, size_t n)
{
    __int128 s;
    buf[0] = 0;
    if (sync_ns(t, &s) < 0)
        return;
    __int128 ns = s + ((__int128)tick - t->info.sync_ticks) * 1000000000 / t->info.tick_frequency;
    __int128 us = ns / 1000 - (ns % 1000 < 0);
    if (us >= INT64_MIN && us <= INT64_MAX)
        ntx_format_iso8601(buf, n, (int64_t)us, 6, 0);
}

static int out_of_range(const ntidx_trace *t, const char *s, const char *what)
{
    double lo, hi;
    tick_range_s(t, &lo, &hi);
    char a[64], b[64];
    tick_iso(t, 0, a, sizeof a);
    tick_iso(t, UINT64_MAX, b, sizeof b);
    return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET,
                     "%s '%s' is out of range: this trace's ticks (0 to 18446744073709551615) name the times from "
                     "%.9g s to %.9g s since its sync time%s%s%s%s%s",
                     what, s, lo, hi, a[0] && b[0] ? " (" : "", a[0] && b[0] ? a : "", a[0] && b[0] ? " to " : "",
                     a[0] && b[0] ? b : "", a[0] && b[0] ? ")" : "");
}

/* 1 when s[0..n) are n decimal digits. */
static int digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

static unsigned num(const char *s, size_t n)
{
    unsigned v = 0;
    for (size_t i = 0; i < n; i++)
        v = v * 10 + (unsigned)(s[i] - '0');
    return v;
}

static int leap(unsigned y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

/* a / b rounded to the nearest integer, halves up, for b > 0 (floor division: a may be negative). */
static __int128 div_round(__int128 a, __int128 b)
{
    __int128 n = 2 * a + b, d = 2 * b, q = n / d;
    return (n % d != 0 && n < 0) ? q - 1 : q;
}

/* The trace's sync time in nanoseconds since 1970 (any year the header can hold), or an error. */
static int sync_ns(const ntidx_trace *t, __int128 *ns)
{
    const ntidx_systime *s = &t->info.sync_time_utc;
    if (s->month < 1 || s->month > 12 || s->day < 1 || s->day > 31 || s->hour < 0 || s->hour > 23 || s->minute < 0 ||
        s->minute > 59 || s->second < 0 || s->second > 60 || s->millisecond < 0 || s->millisecond > 999 ||
        s->year < 1601)
        return ntx_failf(NTIDX_E_CORRUPT, t->name, NTIDX_NO_OFFSET,
                         "the trace's sync time %04d-%02d-%02dT%02d:%02d:%02d.%03dZ is not a valid date", s->year,
                         s->month, s->day, s->hour, s->minute, s->second, s->millisecond);
    int64_t days = ntx_days_from_civil(s->year, (unsigned)s->month, (unsigned)s->day);
    *ns = ((((__int128)days * 24 + s->hour) * 60 + s->minute) * 60 + s->second) * 1000000000 +
          (__int128)s->millisecond * 1000000;
    return NTIDX_OK;
}

/*
 * "YYYY-MM-DDTHH:MM:SS[.fraction]Z" exactly (four-digit years, two-digit fields, a real date), as
 * nanoseconds since 1970. 1, or 0 when `iso` is not such a time.
 */
static int parse_iso(const char *iso, __int128 *ns)
{
    size_t n = strlen(iso);
    if (n < 20 || !digits(iso, 4) || iso[4] != '-' || !digits(iso + 5, 2) || iso[7] != '-' || !digits(iso + 8, 2) ||
        (iso[10] != 'T' && iso[10] != 't') || !digits(iso + 11, 2) || iso[13] != ':' || !digits(iso + 14, 2) ||
        iso[16] != ':' || !digits(iso + 17, 2) || (iso[n - 1] != 'Z' && iso[n - 1] != 'z'))
        return 0;
    unsigned y = num(iso, 4), mo = num(iso + 5, 2), d = num(iso + 8, 2), h = num(iso + 11, 2), mi = num(iso + 14, 2),
             sec = num(iso + 17, 2);
    static const unsigned char mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] + (unsigned)(mo == 2 && leap(y)) || h > 23 || mi > 59 || sec > 60)
        return 0; /* 60: a leap second, taken as the next minute's first */
    /* the fraction: nanoseconds from its first nine digits, rounded by the tenth */
    const char *f = iso + 19, *end = iso + n - 1;
    int64_t frac = 0;
    if (f < end) {
        if (*f != '.' || f + 1 == end || !digits(f + 1, (size_t)(end - f - 1)))
            return 0;
        int k = 0;
        for (f++; f < end && k < 9; f++, k++)
            frac = frac * 10 + (*f - '0');
        for (; k < 9; k++)
            frac *= 10;
        if (f < end && *f >= '5')
            frac++;
    } else if (f != end) {
        return 0;
    }
    int64_t days = ntx_days_from_civil(y, mo, d);
    *ns = ((((__int128)days * 24 + h) * 60 + mi) * 60 + sec) * 1000000000 + frac;
    return 1;
}

NTIDX_API int ntidx_iso8601_to_ticks(const ntidx_trace *t, const char *iso, uint64_t *ticks)
{
    if (!t || !iso || !ticks)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_iso8601_to_ticks: NULL argument");
    __int128 ns, sync = 0;
    if (!parse_iso(iso, &ns))
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET,
                         "bad ISO-8601 time '%s' (expected e.g. 2026-01-01T00:00:01.5Z)", iso);
    int rc = sync_ns(t, &sync);
    if (rc < 0)
        return rc;
    /* ticks = sync_ticks + (ns - sync) * frequency / 1e9, exactly, rounded; outside 0..2^64-1 it names no tick.
       |ns - sync| < 2^69 (years 0-9999 against 1601-32767) and the frequency < 2^63: the product may
       exceed 128 bits only for a time no tick names. */
    __int128 num_ticks;
    if (__builtin_mul_overflow(ns - sync, (__int128)t->info.tick_frequency, &num_ticks))
        return out_of_range(t, iso, "time");
    __int128 v = (__int128)t->info.sync_ticks + div_round(num_ticks, 1000000000);
    if (v < 0 || v > (__int128)UINT64_MAX)
        return out_of_range(t, iso, "time");
    *ticks = (uint64_t)v;
    return NTIDX_OK;
}

static int all_digits(const char *s) { return *s && digits(s, strlen(s)); }

/* The length of the decimal number s starts with ([+-]digits[.digits][e[+-]digits], or [+-].digits), 0: none.
   No hexadecimal, infinity or NaN, which strtold() would also take. */
static size_t decimal_len(const char *s)
{
    size_t i = (*s == '+' || *s == '-'), int_digits = 0, frac_digits = 0;
    for (; s[i] >= '0' && s[i] <= '9'; i++)
        int_digits++;
    if (s[i] == '.')
        for (i++; s[i] >= '0' && s[i] <= '9'; i++)
            frac_digits++;
    if (!int_digits && !frac_digits)
        return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        size_t j = i + 1 + (s[i + 1] == '+' || s[i + 1] == '-');
        if (s[j] >= '0' && s[j] <= '9') {
            for (; s[j] >= '0' && s[j] <= '9'; j++)
                ;
            i = j;
        }
    }
    return i;
}

/* A number with a unit ("1.5s", "250ms", "40us", "100ns") as ticks (v * frequency / per second); 1 when `s` is
   one, with *ticks_ld the (unrounded, possibly huge or negative) tick count. */
static int number_with_unit(const ntidx_trace *t, const char *s, long double *ticks_ld)
{
    static const struct {
        const char *unit;
        long double per_s;
    } units[] = {{"s", 1}, {"ms", 1e3L}, {"us", 1e6L}, {"ns", 1e9L}};
    size_t n = decimal_len(s);
    if (!n)
        return 0;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(s + n, units[i].unit))
            continue;
        char *end;
        long double v = strtold(s, &end); /* an overflow gives infinity: out of range below */
        if (end != s + n)
            return 0;
        *ticks_ld = v * (long double)t->info.tick_frequency / units[i].per_s;
        return 1;
    }
    return 0;
}

/* Ticks as a long double rounded to the nearest tick; 0 when it names none (not finite, < 0 or >= 2^64). */
static int round_ticks(long double v, uint64_t *ticks)
{
    if (!(v > -0.5L && v + 0.5L < 18446744073709551616.0L)) /* also NaN and the infinities */
        return 0;
    *ticks = v < 0 ? 0 : (uint64_t)(v + 0.5L);
    return 1;
}

static const char TIME_FORMS[] = "use ticks (an integer), a time since the trace's sync time with a unit (1.5s, "
                                 "250ms, 40us, 100ns) or an ISO-8601 UTC time ending in Z "
                                 "(2026-01-01T00:00:01.5Z)";

NTIDX_API int ntidx_parse_time(const ntidx_trace *t, const char *s, uint64_t *ticks)
{
    if (!t || !s || !ticks)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_parse_time: NULL argument");
    if (all_digits(s)) {
        errno = 0;
        char *end;
        unsigned long long v = strtoull(s, &end, 10);
        if (*end || errno == ERANGE)
            return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET,
                             "time '%s' is out of range: ticks run from 0 to 18446744073709551615", s);
        *ticks = v;
        return NTIDX_OK;
    }
    size_t n = strlen(s);
    if (n > 1 && (s[n - 1] == 'Z' || s[n - 1] == 'z') && (strchr(s, 'T') || strchr(s, 't')))
        return ntidx_iso8601_to_ticks(t, s, ticks);
    long double v;
    if (number_with_unit(t, s, &v)) {
        if (!round_ticks((long double)t->info.sync_ticks + v, ticks))
            return out_of_range(t, s, "time");
        return NTIDX_OK;
    }
    return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "bad time '%s': %s", s, TIME_FORMS);
}

NTIDX_API int ntidx_parse_duration(const ntidx_trace *t, const char *s, uint64_t *ticks)
{
    if (!t || !s || !ticks)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_parse_duration: NULL argument");
    if (all_digits(s)) {
        errno = 0;
        char *end;
        unsigned long long v = strtoull(s, &end, 10);
        if (*end || errno == ERANGE)
            return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET,
                             "duration '%s' is out of range: ticks run from 0 to 18446744073709551615", s);
        *ticks = v;
        return NTIDX_OK;
    }
    long double v;
    if (!number_with_unit(t, s, &v))
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET,
                         "bad duration '%s': use ticks (an integer) or a number with a unit (1.5s, 250ms, 40us, "
                         "100ns)",
                         s);
    if (v < 0)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "duration '%s' is negative", s);
    if (!round_ticks(v, ticks))
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET,
                         "duration '%s' is out of range: at most 18446744073709551615 ticks (%.9g s in this trace)",
                         s, (double)(18446744073709551615.0L / (long double)t->info.tick_frequency));
    return NTIDX_OK;
}
