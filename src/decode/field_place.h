/*
 * Where a top-level field of an event type lies in every payload of that
 * type, when every field before it has a fixed size or is a string: its
 * value is then read straight from the payload's bytes (past the strings'
 * terminators), without decoding the fields around it.
 *
 * Why. The analyses read two or three fields of millions of events (an
 * allocation tick's amount and kind; a suspension's reason); decoding the
 * whole payload into a value tree for them (a UTF-16 type name converted,
 * every field named and looked up by name) was most of their cost above the
 * floor of reading the events. TraceEvent reads its fields the same way: at
 * their offsets, each checked against the payload's size when it is read.
 *
 * A place is found once per event type (ntx_field_place_of()), then read per
 * event (ntx_field_place_int(), ntx_field_place_utf16()), each read checked
 * against the payload's size. A field whose place is not fixed (after an
 * array, an object, more than NTX_PLACE_SKIP strings or a string a runtime
 * may leave out; a boolean's width the decoder would have to guess; a type
 * the readers here do not take) gets NTX_PLACE_NONE: decode the payload
 * for it.
 */
#ifndef NTX_DECODE_FIELD_PLACE_H
#define NTX_DECODE_FIELD_PLACE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "le.h"
#include "ntidx/ntidx.h"

enum {
    NTX_PLACE_NONE = 0, /* not at a fixed place, or not a type read here: decode the payload */
    NTX_PLACE_UINT,     /* an unsigned integer (or a pointer) of `size` bytes */
    NTX_PLACE_INT,      /* a signed integer of `size` bytes */
    NTX_PLACE_UTF16Z,   /* a NUL-terminated UTF-16 string */
    NTX_PLACE_FLOAT     /* an IEEE 754 float of `size` bytes (4 or 8) */
};

#define NTX_PLACE_SKIP 4 /* strings a place may lie after */

typedef struct ntx_field_place {
    uint32_t off;      /* its first byte in the payload, or past the terminator of the last string before it */
    uint8_t kind;      /* NTX_PLACE_* */
    uint8_t size;      /* integers: 1, 2, 4 or 8; floats 4 or 8 */
    uint8_t omissible; /* UTF16Z: a manifest string a runtime before .NET 6 left out when it was NULL */
    uint8_t nskip;     /* strings before it (an exception's message lies after its type) */
    uint32_t rest;     /* omissible: the bytes of the fixed-size fields that follow it, all of them */
    uint32_t gap[NTX_PLACE_SKIP]; /* the fixed bytes before each of those strings */
} ntx_field_place;

/* The place of top-level field `name` in m's payloads, in trace t (its pointer size and version): the
   first field of that name, as ntidx_values_find() finds it. */
void ntx_field_place_of(const ntidx_trace *t, const ntidx_metadata *m, const char *name, ntx_field_place *out);

/* Where a place lies past the strings before it (ntx_field_place_start()): 1, or 0 when one does not end. */
int ntx_field_place_skip(const ntx_field_place *p, const ntidx_event *ev, uint64_t *at);

/* The offset of a place in ev's payload: 1, or 0 when a string before it does not end in the payload. */
static inline int ntx_field_place_start(const ntx_field_place *p, const ntidx_event *ev, uint64_t *at)
{
    if (!p->nskip) {
        *at = p->off;
        return 1;
    }
    return ntx_field_place_skip(p, ev, at);
}

/* An integer field at its place in ev's payload, as int64 (unsigned values above INT64_MAX wrap, as the
   analyses read decoded values): 1, or 0 when the payload is too short to hold it. The place must be an
   integer's. */
static inline int ntx_field_place_int(const ntx_field_place *p, const ntidx_event *ev, int64_t *out)
{
    uint64_t at;
    if (!ntx_field_place_start(p, ev, &at) || at + p->size > ev->payload_size)
        return 0;
    const uint8_t *b = ev->payload + at;
    int s = p->kind == NTX_PLACE_INT;
    switch (p->size) {
    case 1: *out = s ? (int64_t)(int8_t)*b : (int64_t)*b; break;
    case 2: *out = s ? (int64_t)(int16_t)ntx_load16(b) : (int64_t)ntx_load16(b); break;
    case 4: *out = s ? (int64_t)(int32_t)ntx_load32(b) : (int64_t)ntx_load32(b); break;
    default: *out = (int64_t)ntx_load64(b); break;
    }
    return 1;
}

/* A float field at its place in ev's payload, as a double (the decoder's value): 1, or 0 when the payload is
   too short to hold it. The place must be a float's. */
static inline int ntx_field_place_double(const ntx_field_place *p, const ntidx_event *ev, double *out)
{
    uint64_t at;
    if (!ntx_field_place_start(p, ev, &at) || at + p->size > ev->payload_size)
        return 0;
    const uint8_t *b = ev->payload + at;
    if (p->size == 4) {
        uint32_t u = ntx_load32(b);
        float f;
        memcpy(&f, &u, sizeof f);
        *out = f;
    } else {
        uint64_t u = ntx_load64(b);
        memcpy(out, &u, sizeof *out);
    }
    return 1;
}

/*
 * A UTF-16 string at its place in ev's payload: 1 with its code units at *s (*units of them, the
 * terminator not counted); *s NULL when the runtime left the string out (`omissible`, and exactly the
 * fixed-size fields after it are left: what the decoder gives as an empty string). 0 when the payload ends
 * before its terminator, or before the fields after it, as the decoder would refuse it.
 */
int ntx_field_place_utf16(const ntx_field_place *p, const ntidx_event *ev, const uint8_t **s, size_t *units);

/*
 * Whether a payload fits its type's layout, without decoding it: for layouts
 * of fixed-size fields, UTF-16 strings and objects of them (the runtime's
 * events, most EventSource and TraceLogging ones), the checks the decoder
 * makes, in a few steps (each string's terminator found; the bytes the
 * fixed fields need there). Other layouts are not shaped (`shaped` 0): decode to check them.
 * A payload fits exactly when ntidx_values_decode() takes it (a test holds
 * the two equal on random payloads).
 */
#define NTX_SHAPE_STRINGS 8
typedef struct ntx_layout_shape {
    uint8_t shaped;       /* 1: ntx_layout_fits() decides; 0: only a decode does */
    uint8_t nstr;         /* its strings */
    uint8_t last_omissible; /* the last string may be left out (a manifest string, fixed fields after it) */
    uint32_t fixed[NTX_SHAPE_STRINGS + 1]; /* bytes of fixed fields before string i; fixed[nstr]: after the last */
} ntx_layout_shape;

/* m's shape in trace t. */
void ntx_layout_shape_of(const ntidx_trace *t, const ntidx_metadata *m, ntx_layout_shape *out);

/* 1 when ev's payload fits a shaped layout, 0 when the decoder would refuse it. */
int ntx_layout_fits(const ntx_layout_shape *s, const ntidx_event *ev);

#endif
