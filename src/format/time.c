/* Timestamps: raw ticks -> seconds since the sync time, Unix time, ISO-8601. */
#include <stdio.h>

#include "calendar.h"
#include "cursor.h"

#include "trace_internal.h"

NTIDX_API double ntidx_ticks_to_seconds(const ntidx_trace *t, uint64_t ticks)
{
    /* Subtract in integers first: doubles lose precision on large tick counts. */
    int64_t d = (int64_t)(ticks - (uint64_t)t->info.sync_ticks);
    return (double)d / (double)t->info.tick_frequency;
}

NTIDX_API int ntidx_ticks_to_unix_ns(const ntidx_trace *t, uint64_t ticks, int64_t *unix_ns)
{
    const ntidx_systime *s = &t->info.sync_time_utc;
    if (s->month < 1 || s->month > 12 || s->day < 1 || s->day > 31 || s->hour < 0 || s->hour > 23 || s->minute < 0 ||
        s->minute > 59 || s->second < 0 || s->second > 60 || s->millisecond < 0 || s->millisecond > 999 ||
        s->year < 1601)
        return NTIDX_E_CORRUPT;
    int64_t days = ntx_days_from_civil(s->year, (unsigned)s->month, (unsigned)s->day);
    int64_t base_ns = ((days * 24 + s->hour) * 60 + s->minute) * 60 + s->second;
    if (__builtin_mul_overflow(base_ns, 1000000000LL, &base_ns)) /* years 1601-32767 are not all representable */
        return NTIDX_E_CORRUPT;
    base_ns += (int64_t)s->millisecond * 1000000LL; /* cannot overflow: base_ns is a whole second */
    int64_t d = (int64_t)(ticks - (uint64_t)t->info.sync_ticks);
    int64_t f = t->info.tick_frequency;
    /* d * 1e9 / f without overflow for any realistic span: split whole seconds off. Timestamps
       are untrusted: a result outside the int64 nanosecond range (years ~1678-2262) is refused. */
    int64_t whole = d / f, rem = d % f, ns;
    if (__builtin_mul_overflow(whole, 1000000000LL, &ns) || __builtin_add_overflow(ns, base_ns, &ns) ||
        __builtin_add_overflow(ns, (int64_t)((__int128)rem * 1000000000LL / f), &ns))
        return NTIDX_E_CORRUPT;
    *unix_ns = ns;
    return NTIDX_OK;
}

NTIDX_API int ntidx_ticks_to_iso8601(const ntidx_trace *t, uint64_t ticks, char *buf, size_t buflen)
{
    int64_t ns;
    int rc = ntidx_ticks_to_unix_ns(t, ticks, &ns);
    if (rc < 0)
        return rc;
    int64_t secs = ns / 1000000000LL, frac = ns % 1000000000LL;
    if (frac < 0) {
        frac += 1000000000LL;
        secs--;
    }
    int64_t days = secs / 86400, sod = secs % 86400;
    if (sod < 0) {
        sod += 86400;
        days--;
    }
    int64_t y;
    unsigned m, d;
    ntx_civil_from_days(days, &y, &m, &d);
    snprintf(buf, buflen, "%04lld-%02u-%02uT%02d:%02d:%02d.%09lldZ", (long long)y, m, d, (int)(sod / 3600),
             (int)(sod / 60 % 60), (int)(sod % 60), (long long)frac);
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
        return NTIDX_E_INVALID_ARG;
    int n = sscanf(iso, "%d-%d-%dT%d:%d:%lf%c%c", &y, &mo, &d, &h, &mi, &sec, &tail, &extra);
    if (n != 7 || (tail != 'Z' && tail != 'z') || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 ||
        mi < 0 || mi > 59 || !(sec >= 0 && sec < 61))
        return NTIDX_E_INVALID_ARG;
    int64_t sync_ns;
    int rc = ntidx_ticks_to_unix_ns(t, (uint64_t)t->info.sync_ticks, &sync_ns);
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
