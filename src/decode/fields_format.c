/*
 * An event's payload as JSON ({"name":value,...}) or text (name=value
 * name=value): the formatting sink of the payload decoder (values.h). It
 * writes straight into the caller's buffer, one value at a time, with the
 * library's one JSON escaper (base/buf.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "calendar.h"
#include "cursor.h"
#include "trace_internal.h"
#include "values.h"

#define MAX_DEPTH 48 /* the decoder stops nesting long before (2 * NTX_MAX_FIELD_DEPTH + 2) */

typedef struct fmt_sink {
    ntx_value_sink sink;
    ntidx_buf *out;
    int json;            /* 0: the top level is "name=value name=value" (values inside stay JSON) */
    int depth;           /* open containers */
    int count[MAX_DEPTH];/* values written so far at each depth (0: the top level) */
} fmt_sink;

static int put_double(ntidx_buf *b, double d)
{
    if (isnan(d))
        return ntx_buf_puts(b, "\"NaN\"");
    if (isinf(d))
        return ntx_buf_puts(b, d > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    return ntx_buf_g17(b, d); /* "%.17g" */
}

/* n decimal digits of v (v < 10^n), zero-padded. */
static char *put_fixed_digits(char *o, uint64_t v, int n)
{
    for (int i = n - 1; i >= 0; i--, v /= 10)
        o[i] = (char)('0' + v % 10);
    return o + n;
}

/*
 * A FILETIME (100 ns units since 1601-01-01) as ISO-8601 UTC with 7 decimals, quoted: the bytes of
 * ntx_format_iso8601(), written here without snprintf for the years 0..9999 (the formatter prints
 * one per DateTime value; snprintf cost 8,000 instructions each), by it for the others.
 */
static int put_filetime(ntidx_buf *b, int64_t ft)
{
    ntx_utc u;
    ntx_utc_split(ft, 7, -11644473600LL, &u); /* 11644473600 s from 1601 to 1970 */
    char s[64], *o = s;
    if (u.year < 0 || u.year > 9999) {
        ntx_format_iso8601(s + 1, sizeof s - 2, ft, 7, -11644473600LL);
        s[0] = '"';
        o = s + 1 + strlen(s + 1);
    } else {
        *o++ = '"';
        o = put_fixed_digits(o, (uint64_t)u.year, 4);
        *o++ = '-';
        o = put_fixed_digits(o, u.month, 2);
        *o++ = '-';
        o = put_fixed_digits(o, u.day, 2);
        *o++ = 'T';
        o = put_fixed_digits(o, u.hour, 2);
        *o++ = ':';
        o = put_fixed_digits(o, u.minute, 2);
        *o++ = ':';
        o = put_fixed_digits(o, u.second, 2);
        *o++ = '.';
        o = put_fixed_digits(o, (uint64_t)u.frac, 7);
        *o++ = 'Z';
    }
    *o++ = '"';
    return ntx_buf_put(b, s, (size_t)(o - s));
}

static const char hex_digits[] = "0123456789abcdef";

/* n bytes as lowercase hex pairs, "%02x" each. */
static char *put_hex_bytes(char *o, const uint8_t *p, int n)
{
    for (int i = 0; i < n; i++) {
        *o++ = hex_digits[p[i] >> 4];
        *o++ = hex_digits[p[i] & 15];
    }
    return o;
}

/* v as exactly n lowercase hex digits ("%0Nx" of a value that fits). */
static char *put_hex(char *o, uint32_t v, int n)
{
    for (int i = n - 1; i >= 0; i--, v >>= 4)
        o[i] = hex_digits[v & 15];
    return o + n;
}

void ntx_guid_chars(const uint8_t p[16], char out[36])
{
    char *o = put_hex(out, ntx_load32(p), 8);
    *o++ = '-';
    o = put_hex(o, ntx_load16(p + 4), 4);
    *o++ = '-';
    o = put_hex(o, ntx_load16(p + 6), 4);
    *o++ = '-';
    o = put_hex_bytes(o, p + 8, 2);
    *o++ = '-';
    put_hex_bytes(o, p + 10, 6);
}

/* A GUID quoted. */
static int put_guid(ntidx_buf *b, const uint8_t *p)
{
    char s[38];
    s[0] = s[37] = '"';
    ntx_guid_chars(p, s + 1);
    return ntx_buf_put(b, s, sizeof s);
}

/* The separator and key before a value at the current depth: written in place when the key needs no
   escaping (the common case; through the escaper otherwise). */
static int put_key(fmt_sink *f, const ntidx_value *v)
{
    ntidx_buf *b = f->out;
    int json = f->json || f->depth != 0;
    size_t n = v->name ? strlen(v->name) : 0;
    if (ntx_buf_reserve(b, n + 4) != 0) /* separator, quotes, name, colon */
        return b->err;
    char *o = b->data + b->len;
    if (f->count[f->depth]++)
        *o++ = json ? ',' : ' ';
    if (v->name) {
        if (!json) {
            memcpy(o, v->name, n);
            o += n;
            *o++ = '=';
        } else if (ntx_json_plain_run((const unsigned char *)v->name, n) == n) {
            *o++ = '"';
            memcpy(o, v->name, n);
            o += n;
            *o++ = '"';
            *o++ = ':';
        } else {
            b->len = (size_t)(o - b->data);
            ntx_buf_json_str(b, v->name, n);
            return ntx_buf_put(b, ":", 1);
        }
    }
    b->len = (size_t)(o - b->data);
    *o = 0;
    return 0;
}

static int fmt_value(ntx_value_sink *s, const ntidx_value *v)
{
    fmt_sink *f = (fmt_sink *)s;
    ntidx_buf *b = f->out;
    if (put_key(f, v))
        return b->err;
    const uint8_t *p = v->bytes;
    switch (v->kind) {
    case NTIDX_VALUE_NULL: ntx_buf_puts(b, "null"); break;
    case NTIDX_VALUE_BOOL: ntx_buf_puts(b, v->u ? "true" : "false"); break;
    case NTIDX_VALUE_INT: ntx_buf_dec_i64(b, v->i); break;
    case NTIDX_VALUE_UINT: ntx_buf_dec_u64(b, v->u); break;
    case NTIDX_VALUE_FLOAT: put_double(b, v->f); break;
    case NTIDX_VALUE_STRING: ntx_buf_json_str(b, v->str, v->len); break;
    case NTIDX_VALUE_GUID: put_guid(b, p); break;
    case NTIDX_VALUE_DECIMAL: { /* the 16 bytes in hex, quoted */
        char h[34];
        h[0] = h[33] = '"';
        put_hex_bytes(h + 1, p, 16);
        ntx_buf_put(b, h, sizeof h);
        break;
    }
    case NTIDX_VALUE_TIME:
        if (v->len == 16) /* V6: the SYSTEMTIME's fields as stored, valid or not */
            ntx_buf_printf(b, "\"%04d-%02d-%02dT%02d:%02d:%02d.%03dZ\"", (int16_t)ntx_load16(p),
                           (int16_t)ntx_load16(p + 2), (int16_t)ntx_load16(p + 6), (int16_t)ntx_load16(p + 8),
                           (int16_t)ntx_load16(p + 10), (int16_t)ntx_load16(p + 12), (int16_t)ntx_load16(p + 14));
        else
            put_filetime(b, (int64_t)ntx_load64(p));
        break;
    case NTIDX_VALUE_ARRAY: { /* a byte array: numbers */
        int sign = v->field->element && v->field->element->type_code == NTIDX_TYPE_SBYTE;
        ntx_buf_puts(b, "[");
        for (size_t i = 0; i < v->len; i++) {
            if (i)
                ntx_buf_puts(b, ",");
            if (sign)
                ntx_buf_dec_i64(b, (int8_t)p[i]);
            else
                ntx_buf_dec_u64(b, p[i]);
        }
        ntx_buf_puts(b, "]");
        break;
    }
    default: break;
    }
    return b->err;
}

static int fmt_open(ntx_value_sink *s, const ntidx_value *v)
{
    fmt_sink *f = (fmt_sink *)s;
    if (put_key(f, v))
        return f->out->err;
    if (f->depth + 1 >= MAX_DEPTH)
        return NTIDX_E_NOMEM;
    f->count[++f->depth] = 0;
    return ntx_buf_puts(f->out, v->kind == NTIDX_VALUE_OBJECT ? "{" : "[");
}

static int fmt_close(ntx_value_sink *s, const ntidx_value *v)
{
    fmt_sink *f = (fmt_sink *)s;
    f->depth--;
    return ntx_buf_puts(f->out, v->kind == NTIDX_VALUE_OBJECT ? "}" : "]");
}

static int format_fields(const ntidx_trace *t, const ntidx_event *ev, ntidx_buf *out, int json)
{
    if (!t || !ev || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? t->name : NULL, NTIDX_NO_OFFSET,
                         "ntidx_event_fields_json/text: NULL argument");
    size_t mark = out->len;
    fmt_sink f = {{fmt_value, fmt_open, fmt_close}, out, json, 0, {0}};
    ntx_err err; /* no error yet: its message is read only once its code is set (zeroing it all cost 70
                    instructions an event) */
    err.code = 0;
    err.offset = 0;
    err.has_offset = 0;
    err.what_at = 0;
    err.msg[0] = 0;
    if (json)
        ntx_buf_puts(out, "{");
    int rc = out->err ? out->err : ntx_values_stream(t, ev, &f.sink, NULL, &err);
    if (rc == NTIDX_OK && json)
        ntx_buf_puts(out, "}");
    if (rc == NTIDX_OK && out->err)
        rc = ntx_err_set(&err, NTIDX_E_NOMEM, "out of memory formatting a payload");
    if (__builtin_expect(ntx_trace_faulted(t), 0)) /* the payload was read from zeros (trace_internal.h) */
        rc = ntx_trace_check(t, &err);
    if (rc != NTIDX_OK) {
        if (!out->err) { /* nothing appended */
            out->len = mark;
            if (out->data)
                out->data[mark] = 0;
        }
        return ntx_fail(rc, t->name, &err);
    }
    return NTIDX_OK;
}

/* A value of the tree and its children, as the decoder's walk would have handed them to the sink;
   `nokey`: without its name (the value asked for alone). */
static int tree_json(fmt_sink *f, const ntidx_values *vs, const ntidx_value *v, int nokey)
{
    ntidx_value shown = *v;
    if (nokey)
        shown.name = NULL;
    int container = v->kind == NTIDX_VALUE_OBJECT || (v->kind == NTIDX_VALUE_ARRAY && !v->bytes && v->count);
    if (!container)
        return fmt_value(&f->sink, &shown);
    int rc = fmt_open(&f->sink, &shown);
    for (const ntidx_value *c = ntidx_values_child(vs, v); rc == 0 && c; c = ntidx_values_next(vs, c))
        rc = tree_json(f, vs, c, 0);
    return rc ? rc : fmt_close(&f->sink, &shown);
}

NTIDX_API int ntidx_value_json(const ntidx_values *vs, const ntidx_value *val, ntidx_buf *out)
{
    if (!vs || !val || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_value_json: NULL argument");
    if (!ntx_values_owns(vs, val))
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_value_json: not a value of these values");
    size_t mark = out->len;
    fmt_sink f = {{fmt_value, fmt_open, fmt_close}, out, 1, 0, {0}};
    int rc = out->err ? out->err : tree_json(&f, vs, val, 1);
    if (rc == NTIDX_OK && out->err)
        rc = out->err;
    if (rc != NTIDX_OK) {
        if (!out->err) {
            out->len = mark;
            if (out->data)
                out->data[mark] = 0;
        }
        return ntx_failf(NTIDX_E_NOMEM, NULL, NTIDX_NO_OFFSET, "out of memory formatting a value");
    }
    return NTIDX_OK;
}

NTIDX_API int ntidx_event_fields_json(const ntidx_trace *t, const ntidx_event *ev, ntidx_buf *out)
{
    return format_fields(t, ev, out, 1);
}

NTIDX_API int ntidx_event_fields_text(const ntidx_trace *t, const ntidx_event *ev, ntidx_buf *out)
{
    return format_fields(t, ev, out, 0);
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
