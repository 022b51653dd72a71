/* Timestamps: raw ticks -> seconds since the sync time, Unix time, ISO-8601. */
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>

#include "calendar.h"
#include "cursor.h"

#include "trace_internal.h"

NTIDX_API double ntidx_ticks_to_seconds(const ntidx_trace *t, uint64_t ticks)
{
    /* Subtract in integers first: doubles lose precision on large tick counts. */
    int64_t d = (int64_t)(ticks - (uint64_t)t->info.sync_ticks);
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
    int64_t ns;
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

NTIDX_API int ntidx_iso8601_to_ticks(const ntidx_trace *t, const char *iso, uint64_t *ticks)
{
    int y, mo, d, h, mi;
    double sec;
    char tail, extra;
    if (!t || !iso || !ticks)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_iso8601_to_ticks: NULL argument");
    int n = sscanf(iso, "%d-%d-%dT%d:%d:%lf%c%c", &y, &mo, &d, &h, &mi, &sec, &tail, &extra);
    if (n != 7 || (tail != 'Z' && tail != 'z') || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 ||
        mi < 0 || mi > 59 || !(sec >= 0 && sec < 61))
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET,
                         "bad ISO-8601 time '%s' (expected e.g. 2026-01-01T00:00:01.5Z)", iso);
    int64_t sync_ns;
    int rc = to_unix_ns(t, (uint64_t)t->info.sync_ticks, &sync_ns);
    if (rc < 0)
        return rc;
    int64_t whole = (int64_t)sec;
    long double frac = (long double)sec - (long double)whole;
    int64_t ns = (((ntx_days_from_civil(y, (unsigned)mo, (unsigned)d) * 24 + h) * 60 + mi) * 60 + whole) * 1000000000LL +
                 (int64_t)(frac * 1e9L + 0.5L);
    long double v = (long double)t->info.sync_ticks +
                    (long double)(ns - sync_ns) * (long double)t->info.tick_frequency / 1e9L;
    *ticks = v <= 0 ? 0 : v >= 18446744073709551615.0L ? UINT64_MAX : (uint64_t)(v + 0.5L);
    return NTIDX_OK;
}

static int all_digits(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

NTIDX_API int ntidx_parse_time(const ntidx_trace *t, const char *s, uint64_t *ticks)
{
    if (!t || !s || !ticks)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_parse_time: NULL argument");
    if (all_digits(s)) {
        char *end;
        unsigned long long v = strtoull(s, &end, 10);
        if (*end || (v == ULLONG_MAX && strcmp(s, "18446744073709551615")))
            return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "time '%s' is too large for ticks", s);
        *ticks = v;
        return NTIDX_OK;
    }
    size_t n = strlen(s);
    if (n > 1 && (s[n - 1] == 'Z' || s[n - 1] == 'z') && strchr(s, 'T'))
        return ntidx_iso8601_to_ticks(t, s, ticks);
    char *end;
    long double v = strtold(s, &end);
    static const struct {
        const char *unit;
        long double per_s;
    } units[] = {{"s", 1}, {"ms", 1e3L}, {"us", 1e6L}, {"ns", 1e9L}};
    for (size_t i = 0; end != s && v == v && i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(end, units[i].unit))
            continue;
        long double tk = (long double)t->info.sync_ticks + v * (long double)t->info.tick_frequency / units[i].per_s;
        *ticks = !(tk > 0) ? 0 : tk >= 18446744073709551615.0L ? UINT64_MAX : (uint64_t)(tk + 0.5L);
        return NTIDX_OK;
    }
    return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET,
                     "bad time '%s': use ticks (an integer), a time since the trace's sync time with a unit "
                     "(1.5s, 250ms, 40us, 100ns) or an ISO-8601 UTC time ending in Z",
                     s);
}
