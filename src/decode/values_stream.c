/*
 * Payload fields decoded from metadata and handed one at a time to a sink
 * (values.h: ntx_values_stream), without keeping them: what the JSON and
 * text formatter (fields_format.c) writes straight into its buffer, so that
 * formatting a payload takes memory bounded by its output, not a value
 * struct per element (an array of 65535 empty objects in 4 bytes). The
 * checks and the error messages are those of the tree decoder (values.c),
 * which the tests hold to the same output (golden dumps; test_values_plans
 * for the tree's two routes).
 */
#include "values.h"
#include "values_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "calendar.h"
#include "cursor.h"
#include "manifest.h"
#include "metadata.h"
#include "trace_internal.h"
#include "utf.h"

typedef struct pctx {
    const uint8_t *payload; /* start of the payload: DataLoc positions count from here */
    uint32_t payload_size;
    uint64_t payload_file_offset; /* where the payload lies in the trace (error offsets) */
    int v6;
    uint32_t ptr_size; /* NTX_TYPE_POINTER width: the trace's pointer size */
    int manifest;      /* the layout comes from the runtime's manifest */
    int bool8;         /* Boolean32 fields read as one byte (values.h: ntx_layout_bool8_candidate()) */
    ntx_value_sink *sink;
    ntx_err *err;
    int nomem;
    uint64_t empty_elements; /* zero-size array elements decoded so far in this payload */
    uint64_t loc_bytes;      /* bytes referenced by RelLoc/DataLoc fields so far in this payload */
    ntidx_buf scratch;       /* UTF-16 strings converted to UTF-8 for the sink */
} pctx;

/* Hand a value to the sink; stop on its error. */
#define EMIT(fn, v)                                                                                    \
    do {                                                                                               \
        if (c->sink->fn(c->sink, (v)) != 0) {                                                          \
            c->nomem = 1;                                                                              \
            return -1;                                                                                 \
        }                                                                                              \
    } while (0)

static int perr(pctx *c, const ntidx_field *f, const uint8_t *at, const char *fmt, unsigned long long a,
                unsigned long long b)
{
    char what[160];
    snprintf(what, sizeof what, fmt, a, b);
    uint64_t rel = (uint64_t)(at - c->payload);
    ntx_err_at(c->err, NTIDX_E_PAYLOAD, c->payload_file_offset + rel,
               "field '%s' (type %u) at payload offset %llu: %s", f->name ? f->name : "", f->type_code,
               (unsigned long long)rel, what);
    return -1;
}

/* A value of field f starting at p, its kind and position set; the rest zero. */
static ntidx_value leaf(const pctx *c, const ntidx_field *f, const char *name, const uint8_t *p, uint8_t kind)
{
    ntidx_value v;
    memset(&v, 0, sizeof v);
    v.name = name;
    v.field = f;
    v.kind = kind;
    v.type_code = f->type_code;
    v.payload_offset = (uint32_t)(p - c->payload);
    return v;
}

static int decode_value(pctx *c, const ntidx_field *f, const char *name, const uint8_t **pp, const uint8_t *end,
                        int depth);

static int decode_elements(pctx *c, const ntidx_field *f, const char *name, const ntidx_field *el, uint64_t count,
                           const uint8_t **pp, const uint8_t *end, int depth);

/* An object's fields (or the payload's top level, which has no object value around it). */
static int decode_fields(pctx *c, const ntidx_field *obj, const char *name, const ntidx_field *fields, uint32_t n,
                         const uint8_t **pp, const uint8_t *end, int depth, int top)
{
    const uint8_t *starts[NTX_MAX_COUNT_REF]; /* where each field began: counted arrays read their count there */
    ntidx_value ov;
    if (!top) {
        ov = leaf(c, obj, name, *pp, NTIDX_VALUE_OBJECT);
        ov.count = n;
        EMIT(open, &ov);
    }
    for (uint32_t i = 0; i < n; i++) {
        const ntidx_field *f = &fields[i];
        const char *fname = f->name ? f->name : "";
        if (i < NTX_MAX_COUNT_REF)
            starts[i] = *pp;
        if (f->type_code == NTX_TYPE_COUNTED_ARRAY) {
            uint32_t k = f->element_count;
            uint64_t count;
            if (k >= i || k >= NTX_MAX_COUNT_REF || ntx_count_value(&fields[k], c->ptr_size, starts[k], &count) < 0)
                return perr(c, f, *pp, "its count (field %llu) is not an earlier non-negative integer field", k, 0);
            if (decode_elements(c, f, fname, f->element, count, pp, end, depth + 1) < 0)
                return -1;
            continue;
        }
        if (top && c->manifest && f->type_code == NTIDX_TYPE_UTF16_STRING &&
            ntx_string_omitted(fields + i + 1, n - i - 1, c->v6, c->ptr_size, (uint64_t)(end - *pp))) {
            ntidx_value v = leaf(c, f, fname, *pp, NTIDX_VALUE_STRING);
            v.str = "";
            EMIT(value, &v);
            continue;
        }
        if (decode_value(c, f, fname, pp, end, depth + 1) < 0)
            return -1;
    }
    if (!top)
        EMIT(close, &ov);
    return 0;
}

/* `count` elements of `el` starting at *pp; character elements become one string, bytes one byte array. */
static int decode_elements(pctx *c, const ntidx_field *f, const char *name, const ntidx_field *el, uint64_t count,
                           const uint8_t **pp, const uint8_t *end, int depth)
{
    if (!el)
        return perr(c, f, *pp, "array without an element type", 0, 0);
    if (el->type_code == NTIDX_TYPE_UTF16_CODE_UNIT || el->type_code == NTIDX_TYPE_UTF8_CODE_UNIT) {
        uint64_t unit = el->type_code == NTIDX_TYPE_UTF16_CODE_UNIT ? 2 : 1;
        if (count > (uint64_t)(end - *pp) / unit)
            return perr(c, f, *pp, "%llu characters do not fit in the %llu bytes left", count,
                        (unsigned long long)(end - *pp));
        ntidx_value v = leaf(c, f, name, *pp, NTIDX_VALUE_STRING);
        if (unit == 2) {
            ntx_buf_reset(&c->scratch);
            if (ntx_buf_reserve(&c->scratch, (size_t)count * 3 + 1) != 0) {
                c->nomem = 1;
                return -1;
            }
            v.len = ntx_utf16_to_utf8(*pp, (size_t)count, c->scratch.data);
            c->scratch.data[v.len] = 0;
            v.str = c->scratch.data;
        } else {
            v.str = (const char *)*pp;
            v.len = (size_t)count;
        }
        EMIT(value, &v);
        *pp += count * unit;
        return 0;
    }
    /* Every element takes at least one byte (or none for EMPTY): bound the loop by the bytes left. */
    long es = ntx_field_fixed_size(el, c->v6, c->ptr_size, depth);
    if (es != 0 && count > (uint64_t)(end - *pp))
        return perr(c, f, *pp, "%llu elements cannot fit in the %llu bytes left", count, (unsigned long long)(end - *pp));
    if (es == 0) {
        /* Zero-size elements consume no input, so nothing else bounds them: count them per
           payload, nesting included (fixed arrays of fixed arrays of empties multiply). */
        c->empty_elements += count;
        if (c->empty_elements > 65536)
            return perr(c, f, *pp, "%llu empty elements", c->empty_elements, 0);
    }
    ntidx_value av = leaf(c, f, name, *pp, NTIDX_VALUE_ARRAY);
    av.count = (uint32_t)count; /* count <= bytes left (or <= 65536 empties): fits */
    if (el->type_code == NTIDX_TYPE_BYTE || el->type_code == NTIDX_TYPE_SBYTE) {
        /* byte[]: one value over the bytes, not one per byte */
        av.bytes = *pp;
        av.len = (size_t)count;
        EMIT(value, &av);
        *pp += count;
        return 0;
    }
    EMIT(open, &av);
    for (uint64_t i = 0; i < count; i++)
        if (decode_value(c, el, NULL, pp, end, depth + 1) < 0)
            return -1;
    EMIT(close, &av);
    return 0;
}

#define NEED(n)                                                                                        \
    do {                                                                                               \
        if ((uint64_t)(end - p) < (uint64_t)(n))                                                       \
            return perr(c, f, p, "needs %llu bytes but only %llu remain", (unsigned long long)(n),     \
                        (unsigned long long)(end - p));                                                \
    } while (0)

static int decode_value(pctx *c, const ntidx_field *f, const char *name, const uint8_t **pp, const uint8_t *end,
                        int depth)
{
    const uint8_t *p = *pp;
    if (depth > 2 * NTX_MAX_FIELD_DEPTH + 2)
        return perr(c, f, p, "nested too deeply", 0, 0);
    ntidx_value v = leaf(c, f, name, p, NTIDX_VALUE_NULL);
    switch (f->type_code) {
    case NTIDX_TYPE_EMPTY: EMIT(value, &v); return 0;
    case NTIDX_TYPE_BOOLEAN32:
        if (c->bool8) {
            NEED(1);
            v.kind = NTIDX_VALUE_BOOL;
            v.u = *p != 0;
            p += 1;
            break;
        }
        NEED(4);
        v.kind = NTIDX_VALUE_BOOL;
        v.u = ntx_load32(p) != 0;
        p += 4;
        break;
    case NTIDX_TYPE_BOOLEAN8: NEED(1); v.kind = NTIDX_VALUE_BOOL; v.u = *p != 0; p += 1; break;
    case NTIDX_TYPE_SBYTE: NEED(1); v.kind = NTIDX_VALUE_INT; v.i = (int8_t)*p; p += 1; break;
    case NTIDX_TYPE_BYTE: NEED(1); v.kind = NTIDX_VALUE_UINT; v.u = *p; p += 1; break;
    case NTIDX_TYPE_UTF8_CODE_UNIT:
        NEED(1);
        v.kind = NTIDX_VALUE_STRING;
        v.str = (const char *)p;
        v.len = 1;
        p += 1;
        break;
    case NTIDX_TYPE_INT16: NEED(2); v.kind = NTIDX_VALUE_INT; v.i = (int16_t)ntx_load16(p); p += 2; break;
    case NTIDX_TYPE_UINT16: NEED(2); v.kind = NTIDX_VALUE_UINT; v.u = ntx_load16(p); p += 2; break;
    case NTIDX_TYPE_UTF16_CODE_UNIT: {
        NEED(2);
        char tmp[8];
        v.kind = NTIDX_VALUE_STRING;
        v.len = ntx_utf16_to_utf8(p, 1, tmp);
        tmp[v.len] = 0;
        v.str = tmp;
        p += 2;
        EMIT(value, &v);
        *pp = p;
        return 0;
    }
    case NTIDX_TYPE_INT32: NEED(4); v.kind = NTIDX_VALUE_INT; v.i = (int32_t)ntx_load32(p); p += 4; break;
    case NTIDX_TYPE_UINT32: NEED(4); v.kind = NTIDX_VALUE_UINT; v.u = ntx_load32(p); p += 4; break;
    case NTIDX_TYPE_INT64: NEED(8); v.kind = NTIDX_VALUE_INT; v.i = (int64_t)ntx_load64(p); p += 8; break;
    case NTIDX_TYPE_UINT64: NEED(8); v.kind = NTIDX_VALUE_UINT; v.u = ntx_load64(p); p += 8; break;
    case NTIDX_TYPE_SINGLE: {
        NEED(4);
        float x;
        memcpy(&x, p, 4);
        v.kind = NTIDX_VALUE_FLOAT;
        v.f = x;
        p += 4;
        break;
    }
    case NTIDX_TYPE_DOUBLE: {
        NEED(8);
        double x;
        memcpy(&x, p, 8);
        v.kind = NTIDX_VALUE_FLOAT;
        v.f = x;
        p += 8;
        break;
    }
    case NTIDX_TYPE_DECIMAL:
        NEED(16);
        v.kind = NTIDX_VALUE_DECIMAL;
        v.bytes = p;
        v.len = 16;
        p += 16;
        break;
    case NTIDX_TYPE_DATETIME:
        v.kind = NTIDX_VALUE_TIME;
        v.bytes = p;
        if (c->v6) {
            NEED(16);
            v.len = 16;
            v.i = ntx_systemtime_ticks(p);
            p += 16;
        } else {
            NEED(8);
            v.len = 8;
            v.i = ntx_filetime_ticks((int64_t)ntx_load64(p));
            p += 8;
        }
        break;
    case NTIDX_TYPE_GUID:
        NEED(16);
        v.kind = NTIDX_VALUE_GUID;
        v.bytes = p;
        v.len = 16;
        p += 16;
        break;
    case NTX_TYPE_POINTER:
        NEED(c->ptr_size);
        v.kind = NTIDX_VALUE_UINT;
        v.u = c->ptr_size == 4 ? ntx_load32(p) : ntx_load64(p);
        p += c->ptr_size;
        break;
    case NTX_TYPE_ANSI_STRING: {
        const uint8_t *z = memchr(p, 0, (size_t)(end - p));
        if (!z)
            return perr(c, f, p, "string has no terminator within the %llu bytes left", (unsigned long long)(end - p), 0);
        v.kind = NTIDX_VALUE_STRING;
        v.str = (const char *)p;
        v.len = (size_t)(z - p);
        p = z + 1;
        break;
    }
    case NTX_TYPE_COUNTED_ARRAY: return perr(c, f, p, "counted array outside a field list", 0, 0);
    case NTIDX_TYPE_UTF16_STRING: {
        const uint8_t *s = p;
        uint64_t units = 0;
        for (;;) {
            if ((uint64_t)(end - p) < 2)
                return perr(c, f, s, "string has no terminator within the %llu bytes left",
                            (unsigned long long)(end - s), 0);
            if (!ntx_load16(p))
                break;
            p += 2;
            units++;
        }
        p += 2;
        ntidx_field tmp = {.name = f->name, .type_code = NTIDX_TYPE_UTF16_CODE_UNIT};
        const uint8_t *q = s;
        if (decode_elements(c, f, name, &tmp, units, &q, end, depth) < 0)
            return -1;
        *pp = p;
        return 0;
    }
    case NTIDX_TYPE_VARINT:
    case NTIDX_TYPE_VARUINT: {
        uint64_t x;
        if (!ntx_varu64_fast(&p, end, &x))
            return perr(c, f, p, "variable-length integer is truncated or too long", 0, 0);
        if (f->type_code == NTIDX_TYPE_VARINT) {
            v.kind = NTIDX_VALUE_INT;
            v.i = (int64_t)(x >> 1) ^ -(int64_t)(x & 1);
        } else {
            v.kind = NTIDX_VALUE_UINT;
            v.u = x;
        }
        break;
    }
    case NTIDX_TYPE_OBJECT:
        if (decode_fields(c, f, name, f->fields, f->field_count, &p, end, depth, 0) < 0)
            return -1;
        *pp = p;
        return 0;
    case NTIDX_TYPE_ARRAY: {
        NEED(2);
        uint16_t n = ntx_load16(p);
        p += 2;
        if (decode_elements(c, f, name, f->element, n, &p, end, depth) < 0)
            return -1;
        *pp = p;
        return 0;
    }
    case NTIDX_TYPE_FIXED_ARRAY:
        if (decode_elements(c, f, name, f->element, f->element_count, &p, end, depth) < 0)
            return -1;
        *pp = p;
        return 0;
    case NTIDX_TYPE_RELLOC:
    case NTIDX_TYPE_DATALOC: {
        NEED(4);
        const uint8_t *q, *q_end;
        uint64_t count;
        ntx_loc_error why;
        if (ntx_loc_elements(f, p, c->payload, c->payload_size, c->v6, c->ptr_size, depth, &c->loc_bytes, &q, &q_end,
                             &count, &why) < 0)
            return perr(c, f, p, why.fmt, why.a, why.b);
        p += 4;
        if (decode_elements(c, f, name, f->element, count, &q, q_end, depth) < 0)
            return -1;
        *pp = p;
        return 0;
    }
    default: return perr(c, f, p, "unknown type code", 0, 0);
    }
    EMIT(value, &v);
    *pp = p;
    return 0;
}

/* A sink that keeps nothing: the passes that only find out how a payload is laid out. */
static int sink_none(ntx_value_sink *s, const ntidx_value *v)
{
    (void)s;
    (void)v;
    return 0;
}

/* One decode of the payload into `sink`, booleans of one byte or four; *p where it ended. */
static int stream_once(pctx *c, const ntidx_metadata *m, ntx_value_sink *sink, int bool8, const uint8_t **p)
{
    c->sink = sink;
    c->bool8 = bool8;
    c->nomem = 0;
    c->empty_elements = 0;
    c->loc_bytes = 0;
    *p = c->payload;
    return decode_fields(c, NULL, NULL, m->fields, m->field_count, p, c->payload + c->payload_size, 0, 1);
}

int ntx_values_stream(const ntidx_trace *t, const ntidx_event *ev, ntx_value_sink *sink, uint32_t *used, ntx_err *err)
{
    if (used)
        *used = 0;
    const ntidx_metadata *m = ev->metadata;
    if (!m || !m->has_fields || m->field_count == 0)
        return NTIDX_OK;
    pctx c = {.payload = ev->payload,
              .payload_size = ev->payload_size,
              .payload_file_offset = (uint64_t)(ev->payload - t->data),
              .v6 = t->gen == NTX_GEN_V6,
              .ptr_size = t->info.pointer_size == 4 ? 4 : 8,
              .manifest = ntx_manifest_owns(m->fields),
              .err = err};
    const uint8_t *p, *end = ev->payload + ev->payload_size;
    int bool8 = 0;
    if (ntx_layout_bool8_candidate(m)) {
        /* How the tree decoder (values.c) chooses: four-byte booleans, unless that reading fails or leaves
           bytes over and the one-byte reading accounts for the payload exactly. Found out first, by passes
           that hand nothing out, since what the sink got cannot be taken back. */
        static ntx_value_sink none = {sink_none, sink_none, sink_none};
        int rc4 = stream_once(&c, m, &none, 0, &p);
        if ((rc4 != 0 || p != end) && !c.nomem)
            bool8 = stream_once(&c, m, &none, 1, &p) == 0 && p == end;
        err->code = 0;
    }
    int rc = stream_once(&c, m, sink, bool8, &p);
    ntidx_buf_free(&c.scratch);
    if (rc != 0)
        return c.nomem ? ntx_err_set(err, NTIDX_E_NOMEM, "out of memory decoding a payload") : NTIDX_E_PAYLOAD;
    if (used)
        *used = (uint32_t)(p - ev->payload);
    return NTIDX_OK;
}
