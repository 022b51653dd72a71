/*
 * The JSON and text formatter (fields_format.h): the payload decoder's
 * sink that writes text, and the public calls that use it:
 * ntidx_event_fields_json/text() (the decoder's values as they come) and
 * ntidx_value_json() (a value of a tree the decoder made, written as the
 * decoder would have handed it over). Here are the parts of the sink that
 * run for the rarer values (floats, GUIDs, times, byte arrays, containers);
 * the hot ones are inline in the header.
 */
#include "fields_format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "calendar.h"
#include "cursor.h"
#include "trace_internal.h"
#include "values.h"

char *ntx_fmt_key_escaped(ntx_fmt *f, char *o, const char *name, size_t n, size_t room)
{
    ntidx_buf *b = f->out;
    b->len = (size_t)(o - b->data);
    if (ntx_buf_json_str(b, name, n) != 0 || ntx_buf_reserve(b, 1 + room) != 0)
        return NULL;
    o = b->data + b->len;
    *o++ = ':';
    return o;
}

/* A double: %.17g, NaN and the infinities as JSON strings. */
static char *put_double(char *o, double d)
{
    if (isnan(d))
        return (char *)memcpy(o, "\"NaN\"", 5) + 5;
    if (isinf(d))
        return d > 0 ? (char *)memcpy(o, "\"Infinity\"", 10) + 10 : (char *)memcpy(o, "\"-Infinity\"", 11) + 11;
    return ntx_put_g17(o, d);
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
static char *put_filetime(char *o, int64_t ft)
{
    ntx_utc u;
    ntx_utc_split(ft, 7, -11644473600LL, &u); /* 11644473600 s from 1601 to 1970 */
    *o++ = '"';
    if (u.year < 0 || u.year > 9999) {
        char s[NTX_FMT_SCALAR_ROOM - 2];
        ntx_format_iso8601(s, sizeof s, ft, 7, -11644473600LL);
        size_t n = strlen(s);
        memcpy(o, s, n);
        o += n;
    } else {
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
    return o;
}

/* A V6 SYSTEMTIME's fields as stored, valid or not, quoted (at most 53 bytes: seven int16 of 6 characters). */
static char *put_systemtime(char *o, const uint8_t *p)
{
    return o + snprintf(o, NTX_FMT_SCALAR_ROOM, "\"%04d-%02d-%02dT%02d:%02d:%02d.%03dZ\"", (int16_t)ntx_load16(p),
                        (int16_t)ntx_load16(p + 2), (int16_t)ntx_load16(p + 6), (int16_t)ntx_load16(p + 8),
                        (int16_t)ntx_load16(p + 10), (int16_t)ntx_load16(p + 12), (int16_t)ntx_load16(p + 14));
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

/* A GUID quoted (38 bytes). */
static char *put_guid(char *o, const uint8_t *p)
{
    o[0] = o[37] = '"';
    ntx_guid_chars(p, o + 1);
    return o + 38;
}

/* A DECIMAL: its 16 bytes in hex, quoted (34 bytes). */
static char *put_decimal(char *o, const uint8_t *p)
{
    o[0] = o[33] = '"';
    put_hex_bytes(o + 1, p, 16);
    return o + 34;
}

char *ntx_fmt_scalar_rare(char *o, const ntx_op *op, const uint8_t *p)
{
    switch (op->op) {
    case NTX_OP_F32: {
        float x;
        memcpy(&x, p, 4);
        return put_double(o, x);
    }
    case NTX_OP_F64: {
        double x;
        memcpy(&x, p, 8);
        return put_double(o, x);
    }
    case NTX_OP_BYTES16: return op->kind == NTIDX_VALUE_GUID ? put_guid(o, p) : put_decimal(o, p);
    case NTX_OP_FILETIME: return put_filetime(o, (int64_t)ntx_load64(p));
    case NTX_OP_SYSTEMTIME: return put_systemtime(o, p);
    default: return o; /* the decoder gives a scalar's op only to a scalar */
    }
}

int ntx_fmt_utf16(ntx_fmt *f, const char *name, const uint8_t *s, size_t units)
{
    if (units > (SIZE_MAX / 2 - 64) / 6)
        return f->out->err = NTIDX_E_NOMEM, -1;
    char *o = ntx_fmt_key(f, name, NTX_JSON_UTF16_ROOM(units) + 2);
    if (!o)
        return -1;
    *o++ = '"';
    o = ntx_json_utf16(o, s, units);
    *o++ = '"';
    ntx_fmt_end(f, o);
    return 0;
}

int ntx_fmt_utf8(ntx_fmt *f, const char *name, const uint8_t *s, size_t n)
{
    char *o = ntx_fmt_key(f, name, 0);
    if (!o)
        return -1;
    ntx_fmt_end(f, o);
    return ntx_buf_json_str(f->out, (const char *)s, n) ? -1 : 0;
}

int ntx_fmt_bytes(ntx_fmt *f, const char *name, const uint8_t *p, size_t n, int is_signed)
{
    if (n > (SIZE_MAX / 2 - 64) / 5)
        return f->out->err = NTIDX_E_NOMEM, -1;
    char *o = ntx_fmt_key(f, name, n * 5 + 2); /* "-128," */
    if (!o)
        return -1;
    *o++ = '[';
    for (size_t i = 0; i < n; i++) {
        if (i)
            *o++ = ',';
        o = is_signed ? ntx_put_dec_i64(o, (int8_t)p[i]) : ntx_put_dec_small(o, p[i]);
    }
    *o++ = ']';
    ntx_fmt_end(f, o);
    return 0;
}

int ntx_fmt_null(ntx_fmt *f, const char *name)
{
    char *o = ntx_fmt_key(f, name, 4);
    if (!o)
        return -1;
    memcpy(o, "null", 4);
    ntx_fmt_end(f, o + 4);
    return 0;
}

int ntx_fmt_open(ntx_fmt *f, const char *name, int object)
{
    if (f->depth + 1 >= NTX_FMT_MAX_DEPTH)
        return f->out->err = NTIDX_E_NOMEM, -1; /* never: the decoder stops nesting long before */
    char *o = ntx_fmt_key(f, name, 1);
    if (!o)
        return -1;
    *o++ = object ? '{' : '[';
    ntx_fmt_end(f, o);
    f->count[++f->depth] = 0;
    return 0;
}

int ntx_fmt_close(ntx_fmt *f, int object)
{
    f->depth--;
    return ntx_buf_put(f->out, object ? "}" : "]", 1) ? -1 : 0;
}

/* A value of a tree that has no children to walk, as the decoder would have handed it to the sink. */
static int fmt_leaf(ntx_fmt *f, const char *name, const ntidx_value *v)
{
    const uint8_t *p = v->bytes;
    ntx_op op = {.kind = v->kind};
    char *o;
    switch (v->kind) {
    case NTIDX_VALUE_NULL: return ntx_fmt_null(f, name);
    case NTIDX_VALUE_BOOL:
        op.op = NTX_OP_B8;
        return ntx_fmt_scalar(f, name, &op, (const uint8_t *)(v->u ? "\1" : "\0"));
    case NTIDX_VALUE_INT: return ntx_fmt_number(f, name, 1, (uint64_t)v->i);
    case NTIDX_VALUE_UINT: return ntx_fmt_number(f, name, 0, v->u);
    case NTIDX_VALUE_STRING: return ntx_fmt_utf8(f, name, (const uint8_t *)v->str, v->len);
    case NTIDX_VALUE_ARRAY: /* a byte array (or an empty array) */
        return ntx_fmt_bytes(f, name, p, v->len,
                             v->field->element && v->field->element->type_code == NTIDX_TYPE_SBYTE);
    case NTIDX_VALUE_FLOAT:
        if (!(o = ntx_fmt_key(f, name, NTX_FMT_SCALAR_ROOM)))
            return -1;
        ntx_fmt_end(f, put_double(o, v->f));
        return 0;
    case NTIDX_VALUE_GUID:
    case NTIDX_VALUE_DECIMAL:
        op.op = NTX_OP_BYTES16;
        return ntx_fmt_scalar(f, name, &op, p);
    case NTIDX_VALUE_TIME:
        op.op = v->len == 16 ? NTX_OP_SYSTEMTIME : NTX_OP_FILETIME;
        return ntx_fmt_scalar(f, name, &op, p);
    default: return 0;
    }
}

/* A value of the tree and its children; `nokey`: without its name (the value asked for alone). */
static int tree_json(ntx_fmt *f, const ntidx_values *vs, const ntidx_value *v, int nokey)
{
    const char *name = nokey ? NULL : v->name;
    int object = v->kind == NTIDX_VALUE_OBJECT;
    if (!object && !(v->kind == NTIDX_VALUE_ARRAY && !v->bytes && v->count))
        return fmt_leaf(f, name, v);
    int rc = ntx_fmt_open(f, name, object);
    for (const ntidx_value *c = ntidx_values_child(vs, v); rc == 0 && c; c = ntidx_values_next(vs, c))
        rc = tree_json(f, vs, c, 0);
    return rc ? rc : ntx_fmt_close(f, object);
}

NTIDX_API int ntidx_value_json(const ntidx_values *vs, const ntidx_value *val, ntidx_buf *out)
{
    if (!vs || !val || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_value_json: NULL argument");
    if (!ntx_values_owns(vs, val))
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_value_json: not a value of these values");
    ntx_fmt f = {.out = out, .json = 1, .mark = out->len};
    int rc = out->err ? out->err : tree_json(&f, vs, val, 1);
    if (rc == NTIDX_OK && out->err)
        rc = out->err;
    if (rc != NTIDX_OK) {
        ntx_fmt_begin(&f); /* nothing appended, unless the buffer failed */
        return ntx_failf(NTIDX_E_NOMEM, NULL, NTIDX_NO_OFFSET, "out of memory formatting a value");
    }
    return NTIDX_OK;
}

static int format_fields(const ntidx_trace *t, const ntidx_event *ev, ntidx_buf *out, int json)
{
    if (!t || !ev || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? t->name : NULL, NTIDX_NO_OFFSET,
                         "ntidx_event_fields_json/text: NULL argument");
    size_t mark = out->len;
    ntx_err err; /* no error yet: its message is read only once its code is set (zeroing it all cost 70
                    instructions an event) */
    err.code = 0;
    err.offset = 0;
    err.has_offset = 0;
    err.what_at = 0;
    err.msg[0] = 0;
    if (json)
        ntx_buf_put(out, "{", 1);
    ntx_fmt f;
    f.out = out;
    f.json = json;
    f.mark = out->len;
    int rc = out->err ? out->err : ntx_values_format(t, ev, &f, &err);
    if (rc == NTIDX_OK && json)
        ntx_buf_put(out, "}", 1);
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
