/*
 * What both payload decoders (values.c's tree, values_stream.c's sink) read
 * the same way from a field's bytes: a counted array's count, a FILETIME's and
 * a SYSTEMTIME's ticks, and whether a manifest string was left out. One copy, so that the
 * two decoders cannot drift apart in what they accept.
 */
#ifndef NTIDX_VALUES_LAYOUT_H
#define NTIDX_VALUES_LAYOUT_H

#include <stdint.h>

#include "calendar.h"
#include "cursor.h"
#include "manifest.h"
#include "values.h"

/* FILETIME (100 ns since 1601-01-01) -> DateTime.Ticks (100 ns since 0001-01-01): 504911232000000000 apart.
   DateTime.Ticks covers years 1-9999; a FILETIME past that stays a FILETIME's distance (saturated). */
static inline int64_t ntx_filetime_ticks(int64_t ft)
{
    const int64_t to_dotnet = 504911232000000000LL;
    return ft > INT64_MAX - to_dotnet ? INT64_MAX : ft + to_dotnet;
}

/* A SYSTEMTIME's fields -> DateTime.Ticks; 0 when they do not make a date. */
static inline int64_t ntx_systemtime_ticks(const uint8_t *p)
{
    int y = (int16_t)ntx_load16(p), mo = (int16_t)ntx_load16(p + 2), d = (int16_t)ntx_load16(p + 6);
    int h = (int16_t)ntx_load16(p + 8), mi = (int16_t)ntx_load16(p + 10), s = (int16_t)ntx_load16(p + 12);
    int ms = (int16_t)ntx_load16(p + 14);
    if (y < 1 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 ||
        s > 60 || ms < 0 || ms > 999)
        return 0;
    int64_t days = ntx_days_from_civil(y, (unsigned)mo, (unsigned)d) - ntx_days_from_civil(1, 1, 1);
    return ((((days * 24 + h) * 60 + mi) * 60 + s) * 1000 + ms) * 10000;
}

/* The value of an integer field already decoded at p (pointers `ptr_size` wide): a counted array's count; -1 not
   a count (not an integer type, or negative). */
static inline int ntx_count_value(const ntidx_field *f, uint32_t ptr_size, const uint8_t *p, uint64_t *v)
{
    int64_t s;
    switch (f->type_code) {
    case NTIDX_TYPE_BYTE: *v = *p; return 0;
    case NTIDX_TYPE_UINT16: *v = ntx_load16(p); return 0;
    case NTIDX_TYPE_UINT32: *v = ntx_load32(p); return 0;
    case NTIDX_TYPE_UINT64: *v = ntx_load64(p); return 0;
    case NTX_TYPE_POINTER: *v = ptr_size == 4 ? ntx_load32(p) : ntx_load64(p); return 0;
    case NTIDX_TYPE_INT16: s = (int16_t)ntx_load16(p); break;
    case NTIDX_TYPE_INT32: s = (int32_t)ntx_load32(p); break;
    case NTIDX_TYPE_INT64: s = (int64_t)ntx_load64(p); break;
    default: return -1;
    }
    if (s < 0)
        return -1;
    *v = (uint64_t)s;
    return 0;
}

/*
 * Runtimes before .NET 6 wrote nothing at all for a NULL string argument
 * over EventPipe (not even the terminator; ExceptionThrown's message is the
 * known case). A manifest string followed only by fixed-size fields is
 * therefore absent when exactly those fields' bytes are left: a present
 * string takes at least its 2-byte terminator.
 */
static inline int ntx_string_omitted(const ntidx_field *rest, uint32_t n, int v6, uint32_t ptr_size, uint64_t left)
{
    uint64_t sum = 0;
    for (uint32_t i = 0; i < n; i++) {
        long s = ntx_field_fixed_size(&rest[i], v6, ptr_size, 0);
        if (s < 0)
            return 0;
        sum += (uint64_t)s;
    }
    return sum == left;
}

#endif
