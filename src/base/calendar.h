/* The proleptic Gregorian calendar: days since 1970-01-01 <-> year, month, day (Howard Hinnant's algorithms). */
#ifndef NTX_BASE_CALENDAR_H
#define NTX_BASE_CALENDAR_H

#include <stdint.h>

int64_t ntx_days_from_civil(int64_t y, unsigned m, unsigned d);
void ntx_civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d);

#endif
