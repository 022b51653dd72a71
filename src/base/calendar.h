/* The proleptic Gregorian calendar: days since 1970-01-01 <-> year, month, day (Howard Hinnant's algorithms). */
#ifndef NTX_BASE_CALENDAR_H
#define NTX_BASE_CALENDAR_H

#include <stddef.h>
#include <stdint.h>

int64_t ntx_days_from_civil(int64_t y, unsigned m, unsigned d);
void ntx_civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d);

/* An instant split into its UTC calendar fields (ntx_utc_split()). */
typedef struct ntx_utc {
    int64_t year;
    unsigned month, day;
    unsigned hour, minute, second;
    int64_t frac; /* the fraction of the second, in units of 10^-digits s */
} ntx_utc;

/*
 * `units` fractions of a second (10^digits per second) since an epoch
 * `epoch_s` seconds from 1970-01-01, as its UTC calendar fields: what
 * ntx_format_iso8601() prints, for writers that format them themselves.
 */
void ntx_utc_split(int64_t units, int digits, int64_t epoch_s, ntx_utc *out);

/*
 * An instant as ISO-8601 UTC, "2021-03-04T05:06:07.123Z": `units` fractions of
 * a second (10^digits per second: 9 for nanoseconds, 7 for FILETIME's 100 ns)
 * since an epoch `epoch_s` seconds from 1970-01-01 (0 for Unix time,
 * -11644473600 for FILETIME's 1601), the fraction written with `digits`
 * digits. Into buf (48 bytes always suffice); returns what snprintf() returns.
 */
int ntx_format_iso8601(char *buf, size_t n, int64_t units, int digits, int64_t epoch_s);

#endif
