/*
 * What the payload decoder (values.c) and its tree sink (values_tree.h) read
 * from a field's bytes: a counted array's count, a FILETIME's and a
 * SYSTEMTIME's ticks, whether a manifest string was left out, and the
 * elements a RelLoc/DataLoc location refers to (with its bounds).
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
    uint64_t sum;
    return ntx_fields_fixed_size(rest, n, v6, ptr_size, &sum) && sum == left;
}

/* Why a RelLoc/DataLoc location was refused: a message format with two numbers, for the decoder's perr(). */
typedef struct ntx_loc_error {
    const char *fmt;
    unsigned long long a, b;
} ntx_loc_error;

/*
 * The elements a RelLoc/DataLoc field refers to, from its 4-byte location at
 * `at`: 0 with their bytes [*first, *end) in the payload and their count, or -1
 * with *why. RelLoc counts from just after the field, DataLoc from the
 * payload start. Locations may overlap, so one region could be rendered once
 * per location (an array of them makes the output quadratic in the payload):
 * *loc_bytes adds up the bytes every location of the payload refers to, and
 * more than 4 times the payload is refused.
 */
static inline int ntx_loc_elements(const ntidx_field *f, const uint8_t *at, const uint8_t *payload, uint32_t payload_size,
                                   int v6, uint32_t ptr_size, int depth, uint64_t *loc_bytes, const uint8_t **first,
                                   const uint8_t **end, uint64_t *count, ntx_loc_error *why)
{
    uint32_t loc = ntx_load32(at);
    uint32_t size = loc >> 16, pos = loc & 0xffff;
    uint64_t start = f->type_code == NTIDX_TYPE_RELLOC ? (uint64_t)(at + 4 - payload) + pos : pos;
    if (start > payload_size || size > payload_size - start) {
        *why = (ntx_loc_error){"location range [%llu, +%llu) lies outside the payload", start, size};
        return -1;
    }
    *loc_bytes += size;
    if (*loc_bytes > 4 * (uint64_t)payload_size) {
        *why = (ntx_loc_error){"locations reference %llu bytes, more than 4 times the %llu-byte payload", *loc_bytes,
                               payload_size};
        return -1;
    }
    long fs = f->element ? ntx_field_fixed_size(f->element, v6, ptr_size, depth) : -1;
    if (fs <= 0) {
        *why = (ntx_loc_error){"location element type is not fixed-size", 0, 0};
        return -1;
    }
    if (size % (uint64_t)fs) {
        *why = (ntx_loc_error){"location size %llu is not a multiple of the element size %llu", size,
                               (unsigned long long)fs};
        return -1;
    }
    *first = payload + start;
    *end = payload + start + size;
    *count = size / (uint64_t)fs;
    return 0;
}

#endif
