/*
 * The JSON and text formatter: the payload decoder's sink for
 * ntidx_event_fields_json/text() ({"name":value,...} or name=value
 * name=value, values inside containers JSON either way), and for
 * ntidx_value_json() of a value tree (fields_format.c). It writes straight
 * into the caller's buffer, one value at a time, and keeps nothing but the
 * containers open: memory bounded by its output. The per-value operations
 * are here, inline, because the decoder's loops call them for every value:
 * a value is room made once for its key and text, then both written in
 * place (numbers without printf, strings escaped in one pass from UTF-16).
 */
#ifndef NTX_DECODE_FIELDS_FORMAT_H
#define NTX_DECODE_FIELDS_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "buf.h"
#include "le.h"
#include "ntidx/ntidx.h"
#include "values_sink.h"

/* Containers open at once, at most (the decoder nests 2 * NTX_MAX_FIELD_DEPTH + 2 deep at most). */
#define NTX_FMT_MAX_DEPTH 48

/* Room for any scalar's text (the longest: a SYSTEMTIME of out-of-range fields, 53 bytes). */
#define NTX_FMT_SCALAR_ROOM 64

typedef struct ntx_fmt {
    ntidx_buf *out;
    int json;       /* 0: the top level is "name=value name=value" (values inside stay JSON) */
    uint32_t depth; /* open containers */
    uint32_t count[NTX_FMT_MAX_DEPTH]; /* values written so far at each depth (0: the top level) */
    size_t mark;    /* where the payload's values start: a decode that starts again goes back there */
} ntx_fmt;

/* A payload's values start (again) at the mark. */
static inline void ntx_fmt_begin(ntx_fmt *f)
{
    ntidx_buf *b = f->out;
    if (!b->err) {
        b->len = f->mark;
        if (b->data)
            b->data[b->len] = 0;
    }
    f->depth = 0;
    f->count[0] = 0;
}

/* The key of a name that JSON must escape (fields_format.c). */
char *ntx_fmt_key_escaped(ntx_fmt *f, char *o, const char *name, size_t n, size_t room);

/*
 * The separator and key before a value at the current depth, with room for `room` bytes of its text after
 * them: where to write the text, or NULL out of memory (out->err). NULL names no key (an array element).
 */
static inline __attribute__((always_inline)) char *ntx_fmt_key(ntx_fmt *f, const char *name, size_t room)
{
    ntidx_buf *b = f->out;
    const size_t n = name ? strlen(name) : 0;
    if (ntx_buf_reserve(b, n + 4 + room) != 0) /* separator, quotes, name, colon */
        return NULL;
    char *o = b->data + b->len;
    const int json = f->json || f->depth != 0;
    if (f->count[f->depth]++)
        *o++ = json ? ',' : ' ';
    if (name) {
        if (!json) {
            memcpy(o, name, n);
            o += n;
            *o++ = '=';
        } else if (__builtin_expect(ntx_json_plain_all((const unsigned char *)name, n), 1)) {
            *o++ = '"';
            memcpy(o, name, n);
            o += n;
            *o++ = '"';
            *o++ = ':';
        } else {
            o = ntx_fmt_key_escaped(f, o, name, n, room);
        }
    }
    return o;
}

/* The text written up to o (NUL-terminated, as every ntidx_buf). */
static inline void ntx_fmt_end(ntx_fmt *f, char *o)
{
    f->out->len = (size_t)(o - f->out->data);
    *o = 0;
}

/* A float, a GUID, a DECIMAL, a time: the text by its op at o, room made (fields_format.c); returns the end. */
char *ntx_fmt_scalar_rare(char *o, const ntx_op *op, const uint8_t *p);

/* A fixed-size scalar read at p by its op (ntx_tree_scalar()'s value, as text) at o, with room for
   NTX_FMT_SCALAR_ROOM bytes; returns the end. */
static inline __attribute__((always_inline)) char *ntx_fmt_put_scalar(char *o, const ntx_op *op, const uint8_t *p)
{
    switch (op->op) {
    case NTX_OP_U8: return ntx_put_dec_small(o, *p);
    case NTX_OP_S8: return ntx_put_dec_i64(o, (int8_t)*p);
    case NTX_OP_U16: return ntx_put_dec_small(o, ntx_load16(p));
    case NTX_OP_S16: return ntx_put_dec_i64(o, (int16_t)ntx_load16(p));
    case NTX_OP_U32: return ntx_put_dec_u64(o, ntx_load32(p));
    case NTX_OP_S32: return ntx_put_dec_i64(o, (int32_t)ntx_load32(p));
    case NTX_OP_U64: return ntx_put_dec_u64(o, ntx_load64(p));
    case NTX_OP_S64: return ntx_put_dec_i64(o, (int64_t)ntx_load64(p));
    case NTX_OP_B8:
    case NTX_OP_B32:
        if (op->op == NTX_OP_B8 ? *p != 0 : ntx_load32(p) != 0) {
            memcpy(o, "true", 4);
            return o + 4;
        }
        memcpy(o, "false", 5);
        return o + 5;
    default: return ntx_fmt_scalar_rare(o, op, p);
    }
}

/* A fixed-size scalar read at p by its op, with its key; 0, or -1 out of memory. */
static inline __attribute__((always_inline)) int ntx_fmt_scalar(ntx_fmt *f, const char *name, const ntx_op *op,
                                                                const uint8_t *p)
{
    char *o = ntx_fmt_key(f, name, NTX_FMT_SCALAR_ROOM);
    if (!o)
        return -1;
    ntx_fmt_end(f, ntx_fmt_put_scalar(o, op, p));
    return 0;
}

/* An integer given by its value (a varint): signed or not. 0, or -1 out of memory. */
static inline int ntx_fmt_number(ntx_fmt *f, const char *name, int is_signed, uint64_t bits)
{
    char *o = ntx_fmt_key(f, name, 24);
    if (!o)
        return -1;
    ntx_fmt_end(f, is_signed ? ntx_put_dec_i64(o, (int64_t)bits) : ntx_put_dec_u64(o, bits));
    return 0;
}

/*
 * A UTF-16 string from p up to its zero unit before end, quoted: the zero unit's place, or NULL (there is
 * none, or out of memory: out->err), when the key and some of the text may have been written.
 */
static inline const uint8_t *ntx_fmt_utf16z(ntx_fmt *f, const char *name, const uint8_t *p, const uint8_t *end)
{
    char *o = ntx_fmt_key(f, name, NTX_JSON_UTF16_ROOM((size_t)(end - p) / 2) + 2);
    if (!o)
        return NULL;
    *o++ = '"';
    const uint8_t *z = ntx_json_utf16z(p, end, o, &o);
    if (!z)
        return NULL;
    *o++ = '"';
    ntx_fmt_end(f, o);
    return z;
}

/* `units` UTF-16 code units at s, quoted. 0, or -1 out of memory. */
int ntx_fmt_utf16(ntx_fmt *f, const char *name, const uint8_t *s, size_t units);
/* `n` bytes of 8-bit text at s, quoted (bytes that are not UTF-8 become U+FFFD). 0, or -1. */
int ntx_fmt_utf8(ntx_fmt *f, const char *name, const uint8_t *s, size_t n);
/* A byte array's `n` bytes at p, as numbers (signed: SByte elements). 0, or -1. */
int ntx_fmt_bytes(ntx_fmt *f, const char *name, const uint8_t *p, size_t n, int is_signed);
/* An EMPTY field's null. 0, or -1. */
int ntx_fmt_null(ntx_fmt *f, const char *name);
/* An object ({) or array ([) whose values follow, until ntx_fmt_close(). 0, or -1. */
int ntx_fmt_open(ntx_fmt *f, const char *name, int object);
int ntx_fmt_close(ntx_fmt *f, int object);

#endif
