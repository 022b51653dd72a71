/*
 * Payload fields decoded from metadata, for every type code, written as
 * JSON or as "name=value" text. A payload that does not fit its metadata
 * produces NTIDX_E_PAYLOAD with the reason and nothing appended, so callers
 * can still list the event with the error in place of its fields.
 */
#include <math.h>
#include <stdio.h>
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
    int v6;
    uint32_t ptr_size; /* NTX_TYPE_POINTER width: the trace's pointer size */
    int manifest;      /* the layout comes from the runtime's manifest */
    ntidx_buf *out;
    int json;
    char *err;
    size_t errlen;
    int nomem;
    uint64_t empty_elements; /* zero-size array elements decoded so far in this payload */
    uint64_t loc_bytes;      /* bytes referenced by RelLoc/DataLoc fields so far in this payload */
} pctx;

#define PUT(x)                                                                                         \
    do {                                                                                               \
        if ((x) != 0) {                                                                                \
            c->nomem = 1;                                                                              \
            return -1;                                                                                 \
        }                                                                                              \
    } while (0)

static int perr(pctx *c, const ntidx_field *f, const uint8_t *at, const char *fmt, unsigned long long a,
                unsigned long long b)
{
    if (c->err && c->errlen) {
        char what[160];
        snprintf(what, sizeof what, fmt, a, b);
        snprintf(c->err, c->errlen, "field '%s' (type %u) at payload offset %llu: %s", f->name ? f->name : "",
                 f->type_code, (unsigned long long)(at - c->payload), what);
    }
    return -1;
}

/* Sizes past this cannot occur in a payload (32-bit sizes); nested counts saturate here. */
#define FIXED_SIZE_CAP (1L << 40)

/* Fixed encoded size of a type (at most FIXED_SIZE_CAP), or -1 when variable. */
static long fixed_size(const ntidx_field *f, int v6, uint32_t ptr, int depth)
{
    if (depth > NTX_MAX_FIELD_DEPTH)
        return -1;
    switch (f->type_code) {
    case NTIDX_TYPE_EMPTY: return 0;
    case NTIDX_TYPE_SBYTE: case NTIDX_TYPE_BYTE: case NTIDX_TYPE_UTF8_CODE_UNIT: case NTIDX_TYPE_BOOLEAN8: return 1;
    case NTIDX_TYPE_INT16: case NTIDX_TYPE_UINT16: case NTIDX_TYPE_UTF16_CODE_UNIT: return 2;
    case NTIDX_TYPE_BOOLEAN32: case NTIDX_TYPE_INT32: case NTIDX_TYPE_UINT32: case NTIDX_TYPE_SINGLE:
    case NTIDX_TYPE_RELLOC: case NTIDX_TYPE_DATALOC: return 4;
    case NTIDX_TYPE_INT64: case NTIDX_TYPE_UINT64: case NTIDX_TYPE_DOUBLE: return 8;
    case NTIDX_TYPE_DATETIME: return v6 ? 16 : 8; /* V6: SYSTEMTIME; before: FILETIME */
    case NTIDX_TYPE_DECIMAL: case NTIDX_TYPE_GUID: return 16;
    case NTX_TYPE_POINTER: return ptr;
    case NTIDX_TYPE_FIXED_ARRAY: {
        long e = f->element ? fixed_size(f->element, v6, ptr, depth + 1) : -1;
        if (e < 0)
            return -1;
        /* counts multiply with nesting (65535^5 overflows a long): saturate */
        return f->element_count && e > FIXED_SIZE_CAP / f->element_count ? FIXED_SIZE_CAP : e * (long)f->element_count;
    }
    case NTIDX_TYPE_OBJECT: {
        long sum = 0;
        for (uint32_t i = 0; i < f->field_count; i++) {
            long s = fixed_size(&f->fields[i], v6, ptr, depth + 1);
            if (s < 0)
                return -1;
            sum = s > FIXED_SIZE_CAP - sum ? FIXED_SIZE_CAP : sum + s;
        }
        return sum;
    }
    default: return -1;
    }
}

static int put_guid(pctx *c, const uint8_t *g)
{
    char s[64];
    snprintf(s, sizeof s, "\"%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x\"", ntx_load32(g), ntx_load16(g + 4),
             ntx_load16(g + 6), g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15]);
    PUT(ntx_buf_puts(c->out, s));
    return 0;
}

static int put_double(pctx *c, double d)
{
    if (isnan(d))
        PUT(ntx_buf_puts(c->out, "\"NaN\""));
    else if (isinf(d))
        PUT(ntx_buf_puts(c->out, d > 0 ? "\"Infinity\"" : "\"-Infinity\""));
    else
        PUT(ntx_buf_printf(c->out, "%.17g", d));
    return 0;
}

/* A FILETIME (100 ns units since 1601-01-01) as ISO-8601 UTC. */
static int put_filetime(pctx *c, int64_t ft)
{
    /* 100 ns units since 1601; 11644473600 s between 1601 and 1970. */
    int64_t secs = ft / 10000000 - 11644473600LL;
    int64_t frac = ft % 10000000;
    if (frac < 0) {
        frac += 10000000;
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
    PUT(ntx_buf_printf(c->out, "\"%04lld-%02u-%02uT%02d:%02d:%02d.%07lldZ\"", (long long)y, m, d, (int)(sod / 3600),
                       (int)(sod / 60 % 60), (int)(sod % 60), (long long)frac));
    return 0;
}

static int decode_value(pctx *c, const ntidx_field *f, const uint8_t **pp, const uint8_t *end, int depth);

static int put_key(pctx *c, const char *name, int first, int top)
{
    if (!first)
        PUT(ntx_buf_puts(c->out, c->json || !top ? "," : " "));
    const char *n = name ? name : "";
    if (c->json || !top) {
        PUT(ntx_buf_json_str(c->out, n, strlen(n)));
        PUT(ntx_buf_puts(c->out, ":"));
    } else {
        PUT(ntx_buf_puts(c->out, n));
        PUT(ntx_buf_puts(c->out, "="));
    }
    return 0;
}

static int decode_elements(pctx *c, const ntidx_field *f, const ntidx_field *el, uint64_t count, const uint8_t **pp,
                           const uint8_t *end, int depth);

/* The value of an integer field already decoded at p: a counted array's count. */
static int count_value(const pctx *c, const ntidx_field *f, const uint8_t *p, uint64_t *v)
{
    int64_t s;
    switch (f->type_code) {
    case NTIDX_TYPE_BYTE: *v = *p; return 0;
    case NTIDX_TYPE_UINT16: *v = ntx_load16(p); return 0;
    case NTIDX_TYPE_UINT32: *v = ntx_load32(p); return 0;
    case NTIDX_TYPE_UINT64: *v = ntx_load64(p); return 0;
    case NTX_TYPE_POINTER: *v = c->ptr_size == 4 ? ntx_load32(p) : ntx_load64(p); return 0;
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
static int string_omitted(const pctx *c, const ntidx_field *rest, uint32_t n, uint64_t left)
{
    uint64_t sum = 0;
    for (uint32_t i = 0; i < n; i++) {
        long s = fixed_size(&rest[i], c->v6, c->ptr_size, 0);
        if (s < 0)
            return 0;
        sum += (uint64_t)s;
    }
    return sum == left;
}

static int decode_fields(pctx *c, const ntidx_field *fields, uint32_t n, const uint8_t **pp, const uint8_t *end,
                         int depth, int top)
{
    const uint8_t *starts[NTX_MAX_COUNT_REF]; /* where each field began: counted arrays read their count there */
    if (!top || c->json)
        PUT(ntx_buf_puts(c->out, "{"));
    for (uint32_t i = 0; i < n; i++) {
        const ntidx_field *f = &fields[i];
        if (put_key(c, f->name, i == 0, top) < 0)
            return -1;
        if (i < NTX_MAX_COUNT_REF)
            starts[i] = *pp;
        if (f->type_code == NTX_TYPE_COUNTED_ARRAY) {
            uint32_t k = f->element_count;
            uint64_t count;
            if (k >= i || k >= NTX_MAX_COUNT_REF || count_value(c, &fields[k], starts[k], &count) < 0)
                return perr(c, f, *pp, "its count (field %llu) is not an earlier non-negative integer field", k, 0);
            if (decode_elements(c, f, f->element, count, pp, end, depth + 1) < 0)
                return -1;
            continue;
        }
        if (top && c->manifest && f->type_code == NTIDX_TYPE_UTF16_STRING &&
            string_omitted(c, fields + i + 1, n - i - 1, (uint64_t)(end - *pp))) {
            PUT(ntx_buf_json_str(c->out, "", 0));
            continue;
        }
        if (decode_value(c, f, pp, end, depth + 1) < 0)
            return -1;
    }
    if (!top || c->json)
        PUT(ntx_buf_puts(c->out, "}"));
    return 0;
}

/* `count` elements of `el` starting at *pp; character elements become one string. */
static int decode_elements(pctx *c, const ntidx_field *f, const ntidx_field *el, uint64_t count, const uint8_t **pp,
                           const uint8_t *end, int depth)
{
    if (!el)
        return perr(c, f, *pp, "array without an element type", 0, 0);
    if (el->type_code == NTIDX_TYPE_UTF16_CODE_UNIT || el->type_code == NTIDX_TYPE_UTF8_CODE_UNIT) {
        uint64_t unit = el->type_code == NTIDX_TYPE_UTF16_CODE_UNIT ? 2 : 1;
        if (count > (uint64_t)(end - *pp) / unit)
            return perr(c, f, *pp, "%llu characters do not fit in the %llu bytes left", count,
                        (unsigned long long)(end - *pp));
        if (unit == 2) {
            char tmp[512];
            char *d = count * 3 + 1 <= sizeof tmp ? tmp : NULL;
            ntidx_buf big = {0};
            if (!d) {
                if (ntx_buf_reserve(&big, (size_t)count * 3 + 1) != 0) {
                    c->nomem = 1;
                    return -1;
                }
                d = big.data;
            }
            size_t n = ntx_utf16_to_utf8(*pp, (size_t)count, d);
            int rc = ntx_buf_json_str(c->out, d, n);
            ntidx_buf_free(&big);
            PUT(rc);
        } else {
            PUT(ntx_buf_json_str(c->out, (const char *)*pp, (size_t)count));
        }
        *pp += count * unit;
        return 0;
    }
    /* Every element takes at least one byte (or none for EMPTY): bound the loop by the bytes left. */
    long es = fixed_size(el, c->v6, c->ptr_size, depth);
    if (es != 0 && count > (uint64_t)(end - *pp))
        return perr(c, f, *pp, "%llu elements cannot fit in the %llu bytes left", count, (unsigned long long)(end - *pp));
    if (es == 0) {
        /* Zero-size elements consume no input, so nothing else bounds them: count them per
           payload, nesting included (fixed arrays of fixed arrays of empties multiply). */
        c->empty_elements += count;
        if (c->empty_elements > 65536)
            return perr(c, f, *pp, "%llu empty elements", c->empty_elements, 0);
    }
    PUT(ntx_buf_puts(c->out, "["));
    for (uint64_t i = 0; i < count; i++) {
        if (i)
            PUT(ntx_buf_puts(c->out, ","));
        if (decode_value(c, el, pp, end, depth + 1) < 0)
            return -1;
    }
    PUT(ntx_buf_puts(c->out, "]"));
    return 0;
}

#define NEED(n)                                                                                        \
    do {                                                                                               \
        if ((uint64_t)(end - p) < (uint64_t)(n))                                                       \
            return perr(c, f, p, "needs %llu bytes but only %llu remain", (unsigned long long)(n),     \
                        (unsigned long long)(end - p));                                                \
    } while (0)

static int decode_value(pctx *c, const ntidx_field *f, const uint8_t **pp, const uint8_t *end, int depth)
{
    const uint8_t *p = *pp;
    if (depth > 2 * NTX_MAX_FIELD_DEPTH + 2)
        return perr(c, f, p, "nested too deeply", 0, 0);
    long fs;
    switch (f->type_code) {
    case NTIDX_TYPE_EMPTY: PUT(ntx_buf_puts(c->out, "null")); return 0;
    case NTIDX_TYPE_BOOLEAN32: NEED(4); PUT(ntx_buf_puts(c->out, ntx_load32(p) ? "true" : "false")); p += 4; break;
    case NTIDX_TYPE_BOOLEAN8: NEED(1); PUT(ntx_buf_puts(c->out, *p ? "true" : "false")); p += 1; break;
    case NTIDX_TYPE_SBYTE: NEED(1); PUT(ntx_buf_printf(c->out, "%d", (int8_t)*p)); p += 1; break;
    case NTIDX_TYPE_BYTE: NEED(1); PUT(ntx_buf_printf(c->out, "%u", *p)); p += 1; break;
    case NTIDX_TYPE_UTF8_CODE_UNIT: NEED(1); PUT(ntx_buf_json_str(c->out, (const char *)p, 1)); p += 1; break;
    case NTIDX_TYPE_INT16: NEED(2); PUT(ntx_buf_printf(c->out, "%d", (int16_t)ntx_load16(p))); p += 2; break;
    case NTIDX_TYPE_UINT16: NEED(2); PUT(ntx_buf_printf(c->out, "%u", ntx_load16(p))); p += 2; break;
    case NTIDX_TYPE_UTF16_CODE_UNIT: {
        NEED(2);
        char tmp[8];
        size_t n = ntx_utf16_to_utf8(p, 1, tmp);
        PUT(ntx_buf_json_str(c->out, tmp, n));
        p += 2;
        break;
    }
    case NTIDX_TYPE_INT32: NEED(4); PUT(ntx_buf_printf(c->out, "%d", (int32_t)ntx_load32(p))); p += 4; break;
    case NTIDX_TYPE_UINT32: NEED(4); PUT(ntx_buf_printf(c->out, "%u", ntx_load32(p))); p += 4; break;
    case NTIDX_TYPE_INT64: NEED(8); PUT(ntx_buf_printf(c->out, "%lld", (long long)ntx_load64(p))); p += 8; break;
    case NTIDX_TYPE_UINT64: NEED(8); PUT(ntx_buf_printf(c->out, "%llu", (unsigned long long)ntx_load64(p))); p += 8; break;
    case NTIDX_TYPE_SINGLE: {
        NEED(4);
        float v;
        memcpy(&v, p, 4);
        if (put_double(c, v) < 0)
            return -1;
        p += 4;
        break;
    }
    case NTIDX_TYPE_DOUBLE: {
        NEED(8);
        double v;
        memcpy(&v, p, 8);
        if (put_double(c, v) < 0)
            return -1;
        p += 8;
        break;
    }
    case NTIDX_TYPE_DECIMAL: {
        NEED(16);
        PUT(ntx_buf_puts(c->out, "\""));
        for (int i = 0; i < 16; i++)
            PUT(ntx_buf_printf(c->out, "%02x", p[i]));
        PUT(ntx_buf_puts(c->out, "\""));
        p += 16;
        break;
    }
    case NTIDX_TYPE_DATETIME:
        if (c->v6) {
            NEED(16);
            PUT(ntx_buf_printf(c->out, "\"%04d-%02d-%02dT%02d:%02d:%02d.%03dZ\"", (int16_t)ntx_load16(p),
                               (int16_t)ntx_load16(p + 2), (int16_t)ntx_load16(p + 6), (int16_t)ntx_load16(p + 8),
                               (int16_t)ntx_load16(p + 10), (int16_t)ntx_load16(p + 12), (int16_t)ntx_load16(p + 14)));
            p += 16;
        } else {
            NEED(8);
            if (put_filetime(c, (int64_t)ntx_load64(p)) < 0)
                return -1;
            p += 8;
        }
        break;
    case NTIDX_TYPE_GUID: NEED(16); if (put_guid(c, p) < 0) return -1; p += 16; break;
    case NTX_TYPE_POINTER:
        NEED(c->ptr_size);
        PUT(ntx_buf_printf(c->out, "%llu", (unsigned long long)(c->ptr_size == 4 ? ntx_load32(p) : ntx_load64(p))));
        p += c->ptr_size;
        break;
    case NTX_TYPE_ANSI_STRING: {
        const uint8_t *z = memchr(p, 0, (size_t)(end - p));
        if (!z)
            return perr(c, f, p, "string has no terminator within the %llu bytes left", (unsigned long long)(end - p), 0);
        PUT(ntx_buf_json_str(c->out, (const char *)p, (size_t)(z - p)));
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
        if (decode_elements(c, f, &tmp, units, &q, end, depth) < 0)
            return -1;
        break;
    }
    case NTIDX_TYPE_VARINT:
    case NTIDX_TYPE_VARUINT: {
        uint64_t v;
        if (!ntx_varu64_fast(&p, end, &v))
            return perr(c, f, p, "variable-length integer is truncated or too long", 0, 0);
        if (f->type_code == NTIDX_TYPE_VARINT)
            PUT(ntx_buf_printf(c->out, "%lld", (long long)((int64_t)(v >> 1) ^ -(int64_t)(v & 1))));
        else
            PUT(ntx_buf_printf(c->out, "%llu", (unsigned long long)v));
        break;
    }
    case NTIDX_TYPE_OBJECT:
        if (decode_fields(c, f->fields, f->field_count, &p, end, depth, 0) < 0)
            return -1;
        break;
    case NTIDX_TYPE_ARRAY: {
        NEED(2);
        uint16_t n = ntx_load16(p);
        p += 2;
        if (decode_elements(c, f, f->element, n, &p, end, depth) < 0)
            return -1;
        break;
    }
    case NTIDX_TYPE_FIXED_ARRAY:
        if (decode_elements(c, f, f->element, f->element_count, &p, end, depth) < 0)
            return -1;
        break;
    case NTIDX_TYPE_RELLOC:
    case NTIDX_TYPE_DATALOC: {
        NEED(4);
        uint32_t loc = ntx_load32(p);
        p += 4;
        uint32_t size = loc >> 16, pos = loc & 0xffff;
        /* RelLoc counts from just after the field, DataLoc from the payload start. */
        uint64_t start = f->type_code == NTIDX_TYPE_RELLOC ? (uint64_t)(p - c->payload) + pos : pos;
        if (start > c->payload_size || size > c->payload_size - start)
            return perr(c, f, p - 4, "location range [%llu, +%llu) lies outside the payload", start, size);
        /* Locations may overlap, so one region could be rendered once per location (an array of
           them makes the output quadratic in the payload): bound the bytes they reference in all. */
        c->loc_bytes += size;
        if (c->loc_bytes > 4 * (uint64_t)c->payload_size)
            return perr(c, f, p - 4, "locations reference %llu bytes, more than 4 times the %llu-byte payload",
                        c->loc_bytes, c->payload_size);
        fs = f->element ? fixed_size(f->element, c->v6, c->ptr_size, depth) : -1;
        if (fs <= 0)
            return perr(c, f, p - 4, "location element type is not fixed-size", 0, 0);
        if (size % (uint64_t)fs)
            return perr(c, f, p - 4, "location size %llu is not a multiple of the element size %llu", size,
                        (unsigned long long)fs);
        const uint8_t *q = c->payload + start;
        if (decode_elements(c, f, f->element, size / (uint64_t)fs, &q, c->payload + start + size, depth) < 0)
            return -1;
        break;
    }
    default: return perr(c, f, p, "unknown type code", 0, 0);
    }
    *pp = p;
    return 0;
}

static int format_fields(const ntidx_trace *t, const ntidx_event *ev, ntidx_buf *out, char *err, size_t errlen,
                         int json, uint32_t *used)
{
    if (used)
        *used = 0;
    if (!t || !ev || !out)
        return NTIDX_E_INVALID_ARG;
    if (err && errlen)
        err[0] = 0;
    size_t mark = out->len;
    const ntidx_metadata *m = ev->metadata;
    pctx c = {ev->payload, ev->payload_size, t->gen == NTX_GEN_V6, t->info.pointer_size == 4 ? 4 : 8,
              m && ntx_manifest_owns(m->fields), out, json, err, errlen, 0, 0, 0};
    const uint8_t *p = ev->payload, *end = ev->payload + ev->payload_size;
    int rc = 0;
    if (!m || !m->has_fields || m->field_count == 0)
        rc = json ? ntx_buf_puts(out, "{}") : ntx_buf_puts(out, "");
    else
        rc = decode_fields(&c, m->fields, m->field_count, &p, end, 0, 1);
    if (rc != 0) {
        out->len = mark;
        if (out->data)
            out->data[mark] = 0;
        if (c.nomem) {
            if (err && errlen)
                snprintf(err, errlen, "out of memory");
            return NTIDX_E_NOMEM;
        }
        return NTIDX_E_PAYLOAD;
    }
    if (used && m && m->has_fields && m->field_count)
        *used = (uint32_t)(p - ev->payload);
    return NTIDX_OK;
}

int ntx_event_fields_decode(const ntidx_trace *t, const ntidx_event *ev, ntidx_buf *out, int json, uint32_t *used,
                            char *err, size_t errlen)
{
    return format_fields(t, ev, out, err, errlen, json, used);
}

NTIDX_API int ntidx_event_fields_json(const ntidx_trace *t, const ntidx_event *ev, ntidx_buf *out, char *err,
                                      size_t errlen)
{
    return format_fields(t, ev, out, err, errlen, 1, NULL);
}

NTIDX_API int ntidx_event_fields_text(const ntidx_trace *t, const ntidx_event *ev, ntidx_buf *out, char *err,
                                      size_t errlen)
{
    return format_fields(t, ev, out, err, errlen, 0, NULL);
}

NTIDX_API const char *ntidx_event_display_name(const ntidx_metadata *m, char *buf, size_t buflen)
{
    if (!buf || !buflen)
        return "";
    if (!m)
        snprintf(buf, buflen, "?");
    else if (m->event_name && m->event_name[0])
        snprintf(buf, buflen, "%s/%s", m->provider, m->event_name);
    else
        snprintf(buf, buflen, "%s/EventID(%u)", m->provider, m->event_id);
    return buf;
}
