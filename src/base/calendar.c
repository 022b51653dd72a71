#include "calendar.h"

#include <stdio.h>

int64_t ntx_days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = (unsigned)(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

void ntx_civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
    z += 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const unsigned doe = (unsigned)(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (int64_t)yoe + era * 400 + (*m <= 2);
}

void ntx_utc_split(int64_t units, int digits, int64_t epoch_s, ntx_utc *out)
{
    int64_t per_s = 1;
    for (int i = 0; i < digits; i++)
        per_s *= 10;
    int64_t secs = units / per_s, frac = units % per_s;
    if (frac < 0) {
        frac += per_s;
        secs--;
    }
    secs += epoch_s; /* |units / per_s| < 2^63 / 10^7: no overflow for any epoch used here */
    int64_t days = secs / 86400, sod = secs % 86400;
    if (sod < 0) {
        sod += 86400;
        days--;
    }
    ntx_civil_from_days(days, &out->year, &out->month, &out->day);
    out->hour = (unsigned)(sod / 3600);
    out->minute = (unsigned)(sod / 60 % 60);
    out->second = (unsigned)(sod % 60);
    out->frac = frac;
}

int ntx_format_iso8601(char *buf, size_t n, int64_t units, int digits, int64_t epoch_s)
{
    ntx_utc u;
    ntx_utc_split(units, digits, epoch_s, &u);
    return snprintf(buf, n, "%04lld-%02u-%02uT%02u:%02u:%02u.%0*lldZ", (long long)u.year, u.month, u.day, u.hour,
                    u.minute, u.second, digits, (long long)u.frac);
}
