/*
 * Payload fields decoded from metadata, for every type code: the one
 * decoder (ntx_values_walk), which writes the typed values of the public
 * API (ntidx_values: a tree in pre-order) straight into their handle, with
 * no call per value and no copy of a value; the JSON and text formatting
 * (fields_format.c) writes that tree out. A payload that does not fit its
 * metadata gives NTIDX_E_PAYLOAD with the field, its offset and the reason,
 * and no values, so callers can still list the event with the error in place
 * of its fields.
 *
 * Why it is fast (it runs once per event of a full pass): a value is one
 * store of the struct into an array the handle keeps from event to event;
 * UTF-16 strings are found and converted in runs of 8 code units
 * (base/utf.c) straight into the handle's string storage, where they stay
 * valid UTF-8 without a second pass; nothing is allocated once the handle
 * has grown to the largest event seen.
 */
#include "values.h"
#include "values_layout.h"

#include <stddef.h>
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

#define NONE UINT32_MAX

/*
 * A layout's top level compiled once per event type (a plan), so that an
 * event of a known type costs, per field, one check of its type code and its
 * bytes left and one store of its value. A plan holds only what the field
 * types' codes decide (sizes, value kinds; for the runtime's manifest
 * layouts, which are static, when a string may be omitted), and every use
 * checks each field's type code against the live layout: a plan can never
 * decode by a layout it was not made from, even when a freed row's memory
 * is reused for another. Containers and the rarer types go to the
 * interpreter (decode_compound()) with the live layout; a layout with a
 * counted array, or one that does not fit, is decoded by the interpreter
 * alone; a payload the plan cannot take (too short, bad string...) is
 * decoded again by the interpreter, which says what is wrong.
 */
#define PLAN_SLOT_BITS 10
#define PLAN_SLOTS (1 << PLAN_SLOT_BITS) /* layouts remembered (direct-mapped by address) */
#define PLAN_MAX_FIELDS 256

_Static_assert(offsetof(ntidx_value, type_code) == offsetof(ntidx_value, kind) + 1, "kind, type_code adjacent");

/* How a plan reads a field: a fixed-size scalar by its kind of load, a UTF-16 string, or the interpreter. */
enum {
    OP_U8, OP_S8, OP_B8, OP_U16, OP_S16, OP_U32, OP_S32, OP_B32, OP_U64, OP_S64, OP_F32, OP_F64,
    OP_BYTES16,    /* GUID, DECIMAL: the bytes */
    OP_FILETIME,   /* DATETIME before V6 */
    OP_SYSTEMTIME, /* DATETIME in V6 */
    OP_STRING,     /* UTF-16, NUL-terminated */
    OP_OBJECT,     /* an object of `count` scalars or strings: their ops from ops[rest] */
    OP_ARRAY,      /* a uint16-counted array of a fixed-size scalar other than bytes: its op at ops[rest] */
    OP_OTHER       /* decode_compound() */
};

typedef struct plan_op {
    uint8_t kind; /* NTIDX_VALUE_* of a scalar or a string, */
    uint8_t type; /* the field's type code: in ntidx_value's order, stored as one */
    uint8_t op;   /* OP_* */
    uint8_t size; /* bytes of a fixed-size scalar */
    uint8_t omit; /* a manifest string, absent when exactly `rest` bytes are left (ntx_string_omitted()) */
    uint16_t count; /* OP_OBJECT: its fields */
    uint32_t rest;  /* OP_STRING: see omit; OP_OBJECT, OP_ARRAY: where their fields' or element's ops are */
} plan_op;

/* Fields an object may have for a plan to take it (more go to the interpreter). */
#define PLAN_MAX_OBJECT_FIELDS 64

typedef struct plan {
    const ntidx_field *fields; /* the layout it was made for, */
    uint32_t n;                /* its field count, */
    uint8_t v6, ptr_size;      /* and the trace's encoding it assumed */
    uint8_t interpret;         /* 1: the interpreter decodes this layout */
    uint8_t bool8;             /* ntx_layout_bool8_candidate(): a payload the plan leaves bytes of is decoded again */
    plan_op *ops;
    uint32_t cap;
} plan;

struct ntidx_values {
    ntidx_value *v;
    size_t n, cap;
    ntidx_buf strings; /* the values' strings, NUL-terminated; STRING values follow it when it grows */
    uint32_t top;      /* top-level values */
    uint32_t used;
    int interpret_only; /* ntx_values_interpret_only(): no plans (tests hold the plans against the interpreter) */
    plan plans[PLAN_SLOTS];
};

typedef struct pctx {
    ntidx_values *t;
    const uint8_t *payload; /* start of the payload: DataLoc positions count from here */
    uint32_t payload_size;
    uint64_t payload_file_offset; /* where the payload lies in the trace (error offsets) */
    int v6;
    uint32_t ptr_size; /* NTX_TYPE_POINTER width: the trace's pointer size */
    int manifest;      /* the layout comes from the runtime's manifest (set for the interpreter only) */
    int bool8;         /* Boolean32 fields read as one byte (ntx_layout_bool8_candidate(); interpreter only) */
    ntx_err *err;
    int nomem;
    uint64_t empty_elements; /* zero-size array elements decoded so far in this payload */
    uint64_t loc_bytes;      /* bytes referenced by RelLoc/DataLoc fields so far in this payload */
    int ready;               /* 0: only t, payload, nomem, tr, ev and err are set yet (pctx_fill(), before the
                                interpreter runs; the plans' own paths need no more) */
    const ntidx_trace *tr;
    const ntidx_event *ev;
} pctx;

/* The rest of a context the plans' fast path set only in part (most events need no more). */
static void pctx_fill(pctx *c)
{
    c->payload_size = c->ev->payload_size;
    c->payload_file_offset = (uint64_t)(c->ev->payload - c->tr->data);
    c->v6 = c->tr->gen == NTX_GEN_V6;
    c->ptr_size = c->tr->info.pointer_size == 4 ? 4 : 8;
    c->manifest = 0;
    c->bool8 = 0;
    c->empty_elements = 0;
    c->loc_bytes = 0;
    c->ready = 1;
}
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

/* Sizes past this cannot occur in a payload (32-bit sizes); nested counts saturate here. */
#define FIXED_SIZE_CAP (1L << 40)

long ntx_field_fixed_size(const ntidx_field *f, int v6, uint32_t ptr, int depth)
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
        long e = f->element ? ntx_field_fixed_size(f->element, v6, ptr, depth + 1) : -1;
        if (e < 0)
            return -1;
        /* counts multiply with nesting (65535^5 overflows a long): saturate */
        return f->element_count && e > FIXED_SIZE_CAP / f->element_count ? FIXED_SIZE_CAP : e * (long)f->element_count;
    }
    case NTIDX_TYPE_OBJECT: {
        long sum = 0;
        for (uint32_t i = 0; i < f->field_count; i++) {
            long s = ntx_field_fixed_size(&f->fields[i], v6, ptr, depth + 1);
            if (s < 0)
                return -1;
            sum = s > FIXED_SIZE_CAP - sum ? FIXED_SIZE_CAP : sum + s;
        }
        return sum;
    }
    default: return -1;
    }
}

static int has_bool32(const ntidx_field *f, uint32_t n, int depth)
{
    if (depth > NTX_MAX_FIELD_DEPTH)
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        const ntidx_field *x = &f[i];
        if (x->type_code == NTIDX_TYPE_BOOLEAN32 || (x->element && has_bool32(x->element, 1, depth + 1)) ||
            (x->fields && has_bool32(x->fields, x->field_count, depth + 1)))
            return 1;
    }
    return 0;
}

int ntx_layout_bool8_candidate(const ntidx_metadata *m)
{
    return m && m->fields && !ntx_manifest_owns(m->fields) && has_bool32(m->fields, m->field_count, 0);
}

/* Room for one more value; 0, or -1 out of memory. */
static int grow(pctx *c)
{
    ntidx_values *t = c->t;
    size_t cap = t->cap ? t->cap * 2 : 32;
    ntidx_value *nv = cap < NONE ? realloc(t->v, cap * sizeof *nv) : NULL;
    if (!nv) {
        c->nomem = 1;
        return -1;
    }
    t->v = nv;
    t->cap = cap;
    return 0;
}

/* A new value of field f starting at p, its kind and position set, the rest zero, appended to the tree
   (pre-order: after its parent and its earlier siblings' subtrees); NULL when out of memory. */
static inline __attribute__((always_inline)) ntidx_value *add(pctx *c, const ntidx_field *f, const char *name, const uint8_t *p, uint8_t kind)
{
    ntidx_values *t = c->t;
    if (t->n == t->cap && grow(c) < 0)
        return NULL;
    ntidx_value *v = &t->v[t->n++];
    *v = (ntidx_value){.name = name,
                       .field = f,
                       .kind = kind,
                       .type_code = f->type_code,
                       .payload_offset = (uint32_t)(p - c->payload),
                       .next = NONE};
    return v;
}

/* The strings' storage moved (it grew from `old`): the STRING values made so far follow it. The value
   being made has no text yet (str NULL) and is left alone. */
static void strings_moved(ntidx_values *t, const char *old)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->v[i].kind == NTIDX_VALUE_STRING && t->v[i].str)
            t->v[i].str = t->strings.data + ((uintptr_t)t->v[i].str - (uintptr_t)old);
}

/* Room for n more bytes of text (t->n counts every value made so far); 0, or -1 out of memory. */
static int strings_reserve(pctx *c, size_t n)
{
    ntidx_buf *b = &c->t->strings;
    const char *old = b->data;
    if (ntx_buf_reserve(b, n) != 0) {
        c->nomem = 1;
        return -1;
    }
    if (__builtin_expect(b->data != old, 0))
        strings_moved(c->t, old);
    return 0;
}

/* A STRING value of `units` UTF-16 code units at s (converted: always valid UTF-8); -1 out of memory. */
static int put_utf16(pctx *c, ntidx_value *v, const uint8_t *s, size_t units)
{
    ntidx_buf *b = &c->t->strings;
    if (strings_reserve(c, ntx_utf8_bound(units)) != 0)
        return -1;
    size_t at = b->len, n = ntx_utf16_to_utf8(s, units, b->data + at); /* writes the NUL */
    b->len += n + 1;
    v->str = b->data + at;
    v->len = n;
    return 0;
}

/* A STRING value of `n` bytes of 8-bit text at s, kept as valid UTF-8 (what JSON would show: a byte
   that starts no valid sequence becomes U+FFFD); -1 out of memory. */
static int put_utf8(pctx *c, ntidx_value *v, const uint8_t *s, size_t n)
{
    ntidx_buf *b = &c->t->strings;
    size_t at = b->len;
    const char *old = b->data;
    if (ntx_buf_utf8(b, (const char *)s, n) != 0 || ntx_buf_u8(b, 0) != 0) {
        c->nomem = 1;
        return -1;
    }
    if (b->data != old)
        strings_moved(c->t, old);
    v->str = b->data + at;
    v->len = b->len - at - 1;
    return 0;
}

static int decode_compound(pctx *c, const ntidx_field *f, const char *name, const uint8_t **pp, const uint8_t *end,
                           int depth);
static int decode_elements(pctx *c, const ntidx_field *f, const char *name, const ntidx_field *el, uint64_t count,
                           const uint8_t **pp, const uint8_t *end, int depth);

#define NEED(n)                                                                                        \
    do {                                                                                               \
        if ((uint64_t)(end - p) < (uint64_t)(n))                                                       \
            return perr(c, f, p, "needs %llu bytes but only %llu remain", (unsigned long long)(n),     \
                        (unsigned long long)(end - p));                                                \
    } while (0)

/* A fixed-size leaf of `size` bytes at p: checked, then its value added (NULL: out of memory). */
#define LEAF(size, k)                                                                                  \
    do {                                                                                               \
        NEED(size);                                                                                    \
        if (!(v = add(c, f, name, p, (k))))                                                            \
            return -1;                                                                                 \
    } while (0)

/*
 * A value of a scalar type (numbers, booleans, characters, GUIDs, times,
 * pointers, UTF-16 strings: nearly every field of a real trace) at *pp:
 * added, *pp moved past it; 0, or -1 with the error. Inlined into the loops
 * over fields and elements, so such a value costs no call. 1: f is of
 * another type (decode_compound()), nothing done.
 */
static inline __attribute__((always_inline)) int decode_scalar(pctx *c, const ntidx_field *f, const char *name,
                                                               const uint8_t **pp, const uint8_t *end)
{
    const uint8_t *p = *pp;
    ntidx_value *v;
    switch (f->type_code) {
    case NTIDX_TYPE_BOOLEAN32:
        if (__builtin_expect(c->bool8, 0)) { /* as EventSource writes it: one byte */
            LEAF(1, NTIDX_VALUE_BOOL);
            v->u = *p != 0;
            p += 1;
            break;
        }
        LEAF(4, NTIDX_VALUE_BOOL);
        v->u = ntx_load32(p) != 0;
        p += 4;
        break;
    case NTIDX_TYPE_BOOLEAN8: LEAF(1, NTIDX_VALUE_BOOL); v->u = *p != 0; p += 1; break;
    case NTIDX_TYPE_SBYTE: LEAF(1, NTIDX_VALUE_INT); v->i = (int8_t)*p; p += 1; break;
    case NTIDX_TYPE_BYTE: LEAF(1, NTIDX_VALUE_UINT); v->u = *p; p += 1; break;
    case NTIDX_TYPE_UTF8_CODE_UNIT:
        LEAF(1, NTIDX_VALUE_STRING);
        if (put_utf8(c, v, p, 1) < 0)
            return -1;
        p += 1;
        break;
    case NTIDX_TYPE_INT16: LEAF(2, NTIDX_VALUE_INT); v->i = (int16_t)ntx_load16(p); p += 2; break;
    case NTIDX_TYPE_UINT16: LEAF(2, NTIDX_VALUE_UINT); v->u = ntx_load16(p); p += 2; break;
    case NTIDX_TYPE_UTF16_CODE_UNIT:
        LEAF(2, NTIDX_VALUE_STRING);
        if (put_utf16(c, v, p, 1) < 0)
            return -1;
        p += 2;
        break;
    case NTIDX_TYPE_INT32: LEAF(4, NTIDX_VALUE_INT); v->i = (int32_t)ntx_load32(p); p += 4; break;
    case NTIDX_TYPE_UINT32: LEAF(4, NTIDX_VALUE_UINT); v->u = ntx_load32(p); p += 4; break;
    case NTIDX_TYPE_INT64: LEAF(8, NTIDX_VALUE_INT); v->i = (int64_t)ntx_load64(p); p += 8; break;
    case NTIDX_TYPE_UINT64: LEAF(8, NTIDX_VALUE_UINT); v->u = ntx_load64(p); p += 8; break;
    case NTIDX_TYPE_SINGLE: {
        LEAF(4, NTIDX_VALUE_FLOAT);
        float x;
        memcpy(&x, p, 4);
        v->f = x;
        p += 4;
        break;
    }
    case NTIDX_TYPE_DOUBLE: {
        LEAF(8, NTIDX_VALUE_FLOAT);
        double x;
        memcpy(&x, p, 8);
        v->f = x;
        p += 8;
        break;
    }
    case NTIDX_TYPE_DECIMAL:
        LEAF(16, NTIDX_VALUE_DECIMAL);
        v->bytes = p;
        v->len = 16;
        p += 16;
        break;
    case NTIDX_TYPE_DATETIME:
        if (c->v6) {
            LEAF(16, NTIDX_VALUE_TIME);
            v->bytes = p;
            v->len = 16;
            v->i = ntx_systemtime_ticks(p);
            p += 16;
        } else {
            LEAF(8, NTIDX_VALUE_TIME);
            v->bytes = p;
            v->len = 8;
            v->i = ntx_filetime_ticks((int64_t)ntx_load64(p));
            p += 8;
        }
        break;
    case NTIDX_TYPE_GUID:
        LEAF(16, NTIDX_VALUE_GUID);
        v->bytes = p;
        v->len = 16;
        p += 16;
        break;
    case NTX_TYPE_POINTER:
        LEAF(c->ptr_size, NTIDX_VALUE_UINT);
        v->u = c->ptr_size == 4 ? ntx_load32(p) : ntx_load64(p);
        p += c->ptr_size;
        break;
    case NTIDX_TYPE_UTF16_STRING: {
        const uint8_t *z = ntx_utf16_find_nul(p, end);
        if (!z)
            return perr(c, f, p, "string has no terminator within the %llu bytes left", (unsigned long long)(end - p), 0);
        if (!(v = add(c, f, name, p, NTIDX_VALUE_STRING)) || put_utf16(c, v, p, (size_t)(z - p) / 2) < 0)
            return -1;
        p = z + 2;
        break;
    }
    default: return 1;
    }
    *pp = p;
    return 0;
}

/* A value of any type at *pp, at nesting depth `depth`. */
static inline __attribute__((always_inline)) int decode_value(pctx *c, const ntidx_field *f, const char *name,
                                                              const uint8_t **pp, const uint8_t *end, int depth)
{
    if (depth > 2 * NTX_MAX_FIELD_DEPTH + 2)
        return perr(c, f, *pp, "nested too deeply", 0, 0);
    int rc = decode_scalar(c, f, name, pp, end);
    return rc <= 0 ? rc : decode_compound(c, f, name, pp, end, depth);
}

/* Link the value at index `i` after its previous sibling `*prev` (NONE: it is the first). */
static inline void link_sibling(ntidx_values *t, uint32_t *prev, uint32_t i)
{
    if (*prev != NONE)
        t->v[*prev].next = i;
    *prev = i;
}

/* An object's fields (or the payload's top level, which has no object value around it). */
static int decode_fields(pctx *c, const ntidx_field *obj, const char *name, const ntidx_field *fields, uint32_t n,
                         const uint8_t **pp, const uint8_t *end, int depth, int top)
{
    const uint8_t *starts[NTX_MAX_COUNT_REF]; /* where each field began: counted arrays read their count there */
    ntidx_values *t = c->t;
    if (!top) {
        ntidx_value *ov = add(c, obj, name, *pp, NTIDX_VALUE_OBJECT);
        if (!ov)
            return -1;
        ov->count = n;
    }
    /* The cursor stays in a local that no call sees (the usual field is a scalar, decoded inline): the
       compiler keeps it in a register although the values' stores may alias anything. */
    const uint8_t *p = *pp, *q;
    const int omissible = top && c->manifest, deep = depth + 1 > 2 * NTX_MAX_FIELD_DEPTH + 2;
    uint32_t prev = NONE;
    for (uint32_t i = 0; i < n; i++) {
        const ntidx_field *f = &fields[i];
        const char *fname = f->name ? f->name : "";
        link_sibling(t, &prev, (uint32_t)t->n); /* the field's value comes next */
        if (i < NTX_MAX_COUNT_REF)
            starts[i] = p;
        int rc = 1;
        if (f->type_code == NTX_TYPE_COUNTED_ARRAY) {
            uint32_t k = f->element_count;
            uint64_t count;
            if (k >= i || k >= NTX_MAX_COUNT_REF || ntx_count_value(&fields[k], c->ptr_size, starts[k], &count) < 0)
                return perr(c, f, p, "its count (field %llu) is not an earlier non-negative integer field", k, 0);
            q = p;
            rc = decode_elements(c, f, fname, f->element, count, &q, end, depth + 1);
            p = q;
        } else if (omissible && f->type_code == NTIDX_TYPE_UTF16_STRING &&
                   ntx_string_omitted(fields + i + 1, n - i - 1, c->v6, c->ptr_size, (uint64_t)(end - p))) {
            ntidx_value *v = add(c, f, fname, p, NTIDX_VALUE_STRING);
            rc = v ? put_utf8(c, v, p, 0) : -1;
        } else if (!deep) {
            rc = decode_scalar(c, f, fname, &p, end);
        }
        if (rc > 0) { /* a container or a rarer type, or too deep (decode_value() says so) */
            q = p;
            rc = deep ? decode_value(c, f, fname, &q, end, depth + 1) : decode_compound(c, f, fname, &q, end, depth + 1);
            p = q;
        }
        if (rc < 0)
            return -1;
    }
    *pp = p;
    if (top)
        t->top = n;
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
        ntidx_value *v = add(c, f, name, *pp, NTIDX_VALUE_STRING);
        if (!v || (unit == 2 ? put_utf16(c, v, *pp, (size_t)count) : put_utf8(c, v, *pp, (size_t)count)) < 0)
            return -1;
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
    ntidx_value *av = add(c, f, name, *pp, NTIDX_VALUE_ARRAY);
    if (!av)
        return -1;
    av->count = (uint32_t)count; /* count <= bytes left (or <= 65536 empties): fits */
    if (el->type_code == NTIDX_TYPE_BYTE || el->type_code == NTIDX_TYPE_SBYTE) {
        /* byte[]: one value over the bytes, not one per byte */
        av->bytes = *pp;
        av->len = (size_t)count;
        *pp += count;
        return 0;
    }
    ntidx_values *t = c->t;
    uint32_t prev = NONE;
    for (uint64_t i = 0; i < count; i++) {
        link_sibling(t, &prev, (uint32_t)t->n);
        if (decode_value(c, el, NULL, pp, end, depth + 1) < 0)
            return -1;
    }
    return 0;
}

/* A value of any other type (containers, varints, 8-bit strings, locations, EMPTY, unknown codes) at *pp. */
static int decode_compound(pctx *c, const ntidx_field *f, const char *name, const uint8_t **pp, const uint8_t *end,
                           int depth)
{
    const uint8_t *p = *pp;
    ntidx_value *v;
    switch (f->type_code) {
    case NTIDX_TYPE_EMPTY: return add(c, f, name, p, NTIDX_VALUE_NULL) ? 0 : -1;
    case NTX_TYPE_ANSI_STRING: {
        const uint8_t *z = memchr(p, 0, (size_t)(end - p));
        if (!z)
            return perr(c, f, p, "string has no terminator within the %llu bytes left", (unsigned long long)(end - p), 0);
        if (!(v = add(c, f, name, p, NTIDX_VALUE_STRING)) || put_utf8(c, v, p, (size_t)(z - p)) < 0)
            return -1;
        p = z + 1;
        break;
    }
    case NTX_TYPE_COUNTED_ARRAY: return perr(c, f, p, "counted array outside a field list", 0, 0);
    case NTIDX_TYPE_VARINT:
    case NTIDX_TYPE_VARUINT: {
        uint64_t x;
        const uint8_t *s = p;
        if (!ntx_varu64_fast(&p, end, &x))
            return perr(c, f, p, "variable-length integer is truncated or too long", 0, 0);
        if (!(v = add(c, f, name, s, NTIDX_VALUE_UINT)))
            return -1;
        if (f->type_code == NTIDX_TYPE_VARINT) {
            v->kind = NTIDX_VALUE_INT;
            v->i = (int64_t)(x >> 1) ^ -(int64_t)(x & 1);
        } else {
            v->u = x;
        }
        break;
    }
    case NTIDX_TYPE_OBJECT:
        if (decode_fields(c, f, name, f->fields, f->field_count, &p, end, depth, 0) < 0)
            return -1;
        break;
    case NTIDX_TYPE_ARRAY: {
        NEED(2);
        uint16_t n = ntx_load16(p);
        p += 2;
        if (decode_elements(c, f, name, f->element, n, &p, end, depth) < 0)
            return -1;
        break;
    }
    case NTIDX_TYPE_FIXED_ARRAY:
        if (decode_elements(c, f, name, f->element, f->element_count, &p, end, depth) < 0)
            return -1;
        break;
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
        break;
    }
    default: return perr(c, f, p, "unknown type code", 0, 0);
    }
    *pp = p;
    return 0;
}

/* A plan's op for a field of type `type`: how it reads it (OP_*), its value's kind and the bytes of a fixed-size
   scalar (sizes as decode_scalar() reads them); no string omission, no nested ops (set by plan_compile()). */
static void plan_shape(plan_op *op, uint8_t type, int v6, uint32_t ptr)
{
    static const struct { uint8_t op, kind, size; } shapes[256] = {
        [NTIDX_TYPE_BOOLEAN32] = {OP_B32, NTIDX_VALUE_BOOL, 4},
        [NTIDX_TYPE_BOOLEAN8] = {OP_B8, NTIDX_VALUE_BOOL, 1},
        [NTIDX_TYPE_SBYTE] = {OP_S8, NTIDX_VALUE_INT, 1},
        [NTIDX_TYPE_BYTE] = {OP_U8, NTIDX_VALUE_UINT, 1},
        [NTIDX_TYPE_INT16] = {OP_S16, NTIDX_VALUE_INT, 2},
        [NTIDX_TYPE_UINT16] = {OP_U16, NTIDX_VALUE_UINT, 2},
        [NTIDX_TYPE_INT32] = {OP_S32, NTIDX_VALUE_INT, 4},
        [NTIDX_TYPE_UINT32] = {OP_U32, NTIDX_VALUE_UINT, 4},
        [NTIDX_TYPE_INT64] = {OP_S64, NTIDX_VALUE_INT, 8},
        [NTIDX_TYPE_UINT64] = {OP_U64, NTIDX_VALUE_UINT, 8},
        [NTIDX_TYPE_SINGLE] = {OP_F32, NTIDX_VALUE_FLOAT, 4},
        [NTIDX_TYPE_DOUBLE] = {OP_F64, NTIDX_VALUE_FLOAT, 8},
        [NTIDX_TYPE_DECIMAL] = {OP_BYTES16, NTIDX_VALUE_DECIMAL, 16},
        [NTIDX_TYPE_GUID] = {OP_BYTES16, NTIDX_VALUE_GUID, 16},
        [NTIDX_TYPE_UTF16_STRING] = {OP_STRING, NTIDX_VALUE_STRING, 0},
    };
    op->type = type;
    op->op = OP_OTHER;
    op->kind = 0;
    op->size = 0;
    op->omit = 0;
    op->count = 0;
    op->rest = 0;
    if (type == NTIDX_TYPE_DATETIME) {
        op->op = v6 ? OP_SYSTEMTIME : OP_FILETIME;
        op->kind = NTIDX_VALUE_TIME;
        op->size = v6 ? 16 : 8;
    } else if (type == NTX_TYPE_POINTER) {
        op->op = ptr == 4 ? OP_U32 : OP_U64;
        op->kind = NTIDX_VALUE_UINT;
        op->size = (uint8_t)ptr;
    } else if (shapes[type].kind) {
        op->op = shapes[type].op;
        op->kind = shapes[type].kind;
        op->size = shapes[type].size;
    }
}

/* Make `pl` the plan of m's layout (out of memory, or for a layout plans do not take: one that says interpret). */
static void plan_compile(plan *pl, const pctx *c, const ntidx_metadata *m)
{
    pl->fields = m->fields;
    pl->n = m->field_count;
    pl->v6 = (uint8_t)c->v6;
    pl->ptr_size = (uint8_t)c->ptr_size;
    pl->interpret = 1;
    pl->bool8 = (uint8_t)ntx_layout_bool8_candidate(m);
    const int manifest = ntx_manifest_owns(m->fields);
    const uint32_t n = m->field_count;
    if (n > PLAN_MAX_FIELDS)
        return;
    /* the ops: one per field, then those of the objects' fields and the arrays' elements */
    uint32_t total = n;
    for (uint32_t i = 0; i < n; i++)
        total += m->fields[i].type_code == NTIDX_TYPE_OBJECT ? m->fields[i].field_count
                 : m->fields[i].type_code == NTIDX_TYPE_ARRAY ? 1
                                                              : 0;
    if (total > PLAN_MAX_FIELDS * (PLAN_MAX_OBJECT_FIELDS + 1))
        return;
    if (pl->cap < total) {
        plan_op *ops = realloc(pl->ops, total * sizeof *ops);
        if (!ops)
            return;
        pl->ops = ops;
        pl->cap = total;
    }
    uint32_t more = n;
    for (uint32_t i = 0; i < n; i++) {
        const ntidx_field *f = &m->fields[i];
        plan_op *op = &pl->ops[i];
        if (f->type_code == NTX_TYPE_COUNTED_ARRAY)
            return; /* its count is an earlier field's value: decode_fields() keeps them */
        plan_shape(op, f->type_code, c->v6, c->ptr_size);
        if (manifest && f->type_code == NTIDX_TYPE_UTF16_STRING) {
            /* ntx_string_omitted()'s sum, once: the manifest's layouts never change */
            uint64_t sum = 0;
            int fixed = 1;
            for (uint32_t k = i + 1; k < m->field_count && fixed; k++) {
                long sz = ntx_field_fixed_size(&m->fields[k], c->v6, c->ptr_size, 0);
                fixed = sz >= 0;
                sum += fixed ? (uint64_t)sz : 0;
            }
            op->omit = fixed && sum <= UINT32_MAX;
            op->rest = (uint32_t)sum;
        } else if (f->type_code == NTIDX_TYPE_OBJECT && f->fields && f->field_count <= PLAN_MAX_OBJECT_FIELDS) {
            /* an object of scalars and strings (TraceLogging's nested objects): its fields' ops follow */
            int plain = 1;
            for (uint32_t k = 0; k < f->field_count; k++) {
                plan_op *sub = &pl->ops[more + k];
                plan_shape(sub, f->fields[k].type_code, c->v6, c->ptr_size);
                plain &= sub->op <= OP_STRING;
            }
            if (plain) {
                op->op = OP_OBJECT;
                op->count = (uint16_t)f->field_count;
                op->rest = more;
                more += f->field_count;
            }
        } else if (f->type_code == NTIDX_TYPE_ARRAY && f->element) {
            /* an array of numbers (not bytes: one value for them all; not characters: a string) */
            plan_op *el = &pl->ops[more];
            plan_shape(el, f->element->type_code, c->v6, c->ptr_size);
            if (el->op < OP_STRING && el->type != NTIDX_TYPE_BYTE && el->type != NTIDX_TYPE_SBYTE) {
                op->op = OP_ARRAY;
                op->rest = more++;
            }
        }
    }
    pl->interpret = 0;
}

/* The plan remembered in m's layout's slot (it may be another layout's). The layout's address picks the slot
   (a plan is valid for a layout, whichever row holds it): its bits mixed by a multiply, as rows and layouts lie
   at regular strides in their arenas and the manifest. */
static inline plan *plan_slot(ntidx_values *t, const ntidx_metadata *m)
{
    uint64_t h = (uint64_t)(uintptr_t)m->fields * 0x9E3779B97F4A7C15ULL;
    return &t->plans[h >> (64 - PLAN_SLOT_BITS)];
}

static inline int plan_is_for(const plan *pl, const ntidx_metadata *m, int v6, uint32_t ptr_size)
{
    return pl->fields == m->fields && pl->n == m->field_count && pl->v6 == v6 && pl->ptr_size == ptr_size;
}

/* The plan for m's layout in this trace, made now when the one remembered is for another (out of memory, a
   plan that says: interpret). */
static plan *plan_for(pctx *c, const ntidx_metadata *m)
{
    plan *pl = plan_slot(c->t, m);
    if (plan_is_for(pl, m, c->v6, c->ptr_size))
        return pl;
    plan_compile(pl, c, m);
    return pl;
}

/* A fixed-size scalar's value by its op at v (its kind, type and size checked by the caller), next as given. */
static inline __attribute__((always_inline)) void plan_scalar(ntidx_value *v, const char *name, const ntidx_field *f,
                                                              const plan_op *op, const uint8_t *p,
                                                              const uint8_t *payload, uint32_t next)
{
    *v = (ntidx_value){.name = name, .field = f, .payload_offset = (uint32_t)(p - payload), .next = next};
    memcpy(&v->kind, &op->kind, 2); /* and type_code */
    switch (op->op) {
    case OP_U8: v->u = *p; break;
    case OP_S8: v->i = (int8_t)*p; break;
    case OP_B8: v->u = *p != 0; break;
    case OP_U16: v->u = ntx_load16(p); break;
    case OP_S16: v->i = (int16_t)ntx_load16(p); break;
    case OP_U32: v->u = ntx_load32(p); break;
    case OP_S32: v->i = (int32_t)ntx_load32(p); break;
    case OP_B32: v->u = ntx_load32(p) != 0; break;
    case OP_U64: v->u = ntx_load64(p); break;
    case OP_S64: v->i = (int64_t)ntx_load64(p); break;
    case OP_F32: {
        float x;
        memcpy(&x, p, 4);
        v->f = x;
        break;
    }
    case OP_F64: memcpy(&v->f, p, 8); break;
    case OP_FILETIME:
        v->bytes = p;
        v->len = 8;
        v->i = ntx_filetime_ticks((int64_t)ntx_load64(p));
        break;
    case OP_SYSTEMTIME:
        v->bytes = p;
        v->len = 16;
        v->i = ntx_systemtime_ticks(p);
        break;
    case OP_BYTES16:
        v->bytes = p;
        v->len = 16;
        break;
    default: __builtin_unreachable(); /* plan_compile() gives a scalar's op only to a scalar */
    }
}

/* A UTF-16 string's value (omitted: an empty one, no bytes read) at t->n (room reserved), found and converted
   in one pass into room for the rest of the payload as text; where it ends, or NULL (c->nomem, or no end). */
static const uint8_t *plan_string(pctx *c, const ntidx_field *f, const char *name, const plan_op *op,
                                  const uint8_t *p, const uint8_t *end, int omitted)
{
    ntidx_values *t = c->t;
    ntidx_buf *b = &t->strings;
    if (strings_reserve(c, omitted ? 1 : ntx_utf8_bound((size_t)(end - p) / 2) + 8) != 0)
        return NULL;
    size_t len = 0;
    const uint8_t *z = NULL;
    if (omitted)
        b->data[b->len] = 0;
    else if (!(z = ntx_utf16z_to_utf8(p, end, b->data + b->len, &len)))
        return NULL;
    ntidx_value *v = &t->v[t->n++];
    *v = (ntidx_value){.name = name,
                       .field = f,
                       .kind = NTIDX_VALUE_STRING,
                       .type_code = op->type,
                       .str = b->data + b->len,
                       .len = len,
                       .payload_offset = (uint32_t)(p - c->payload)};
    b->len += len + 1;
    return z ? z + 2 : p;
}

/* Room for `more` values after t->n's; 0, or -1 out of memory. */
static int plan_room(pctx *c, uint64_t more)
{
    ntidx_values *t = c->t;
    while (t->cap - t->n < more)
        if (grow(c) < 0)
            return -1;
    return 0;
}

/*
 * A field plan_run() does not read inline, at p, its value(s) after t->n's (room for one is there): a UTF-16
 * string; an object of scalars and strings, or an array of numbers, as the interpreter (decode_fields(),
 * decode_elements()) gives them, each field checked against the live layout; else what the interpreter
 * decodes. Then room for `left` more values. Returns where the field ends, or NULL: out of memory
 * (c->nomem) or a payload (or a layout) the plan does not take, which the interpreter then decodes.
 */
static __attribute__((noinline)) const uint8_t *plan_field(pctx *c, const ntidx_field *f, const char *name,
                                                           const plan_op *ops, const plan_op *op, const uint8_t *p,
                                                           const uint8_t *end, uint32_t left)
{
    ntidx_values *t = c->t;
    switch (op->op) {
    case OP_STRING: return plan_string(c, f, name, op, p, end, op->omit && (uint64_t)(end - p) == op->rest);
    case OP_OBJECT: {
        const plan_op *sub = ops + op->rest;
        const uint32_t n = op->count;
        if (f->field_count != n || plan_room(c, (uint64_t)n + 1 + left) < 0)
            return NULL;
        add(c, f, name, p, NTIDX_VALUE_OBJECT)->count = n; /* room made: never NULL */
        for (uint32_t i = 0; i < n; i++) {
            const ntidx_field *cf = &f->fields[i];
            if (cf->type_code != sub[i].type)
                return NULL;
            const char *cname = cf->name ? cf->name : "";
            const uint32_t at = (uint32_t)t->n;
            if (sub[i].op == OP_STRING) {
                if (!(p = plan_string(c, cf, cname, &sub[i], p, end, 0)))
                    return NULL;
                t->v[at].next = i + 1 < n ? at + 1 : NONE;
                continue;
            }
            if ((uint64_t)(end - p) < sub[i].size)
                return NULL;
            plan_scalar(&t->v[t->n++], cname, cf, &sub[i], p, c->payload, i + 1 < n ? at + 1 : NONE);
            p += sub[i].size;
        }
        return p;
    }
    case OP_ARRAY: {
        const plan_op *el = ops + op->rest;
        const ntidx_field *ef = f->element;
        if (!ef || ef->type_code != el->type || (uint64_t)(end - p) < 2)
            return NULL;
        const uint32_t n = ntx_load16(p);
        p += 2;
        if ((uint64_t)n * el->size > (uint64_t)(end - p) || plan_room(c, (uint64_t)n + 1 + left) < 0)
            return NULL;
        add(c, f, name, p, NTIDX_VALUE_ARRAY)->count = n; /* room made: never NULL */
        ntidx_value *v = t->v + t->n;
        const uint32_t first = (uint32_t)t->n;
        for (uint32_t i = 0; i < n; i++, p += el->size)
            plan_scalar(&v[i], NULL, ef, el, p, c->payload, i + 1 < n ? first + i + 1 : NONE);
        t->n += n;
        return p;
    }
    default:
        if (!c->ready)
            pctx_fill(c);
        if (decode_value(c, f, name, &p, end, 1) < 0)
            return NULL;
        return plan_room(c, left) < 0 ? NULL : p;
    }
}

/*
 * The top-level fields of m by its plan, from p. 0 with *pp past them; 1 when the payload does not take
 * the plan (the interpreter then decodes it and says why); 2 when a field's type code is not the plan's
 * (the plan is made again); -1 out of memory or an error the interpreter also finds.
 *
 * Inlined into its callers (the fast path's call and return cost as much as a field). A scalar is read
 * inline, with the values' array and count in locals (a value's stores could alias t->n): they go back to t
 * before anything else runs (plan_field()). A top-level value links to the one after it
 * (.next = its index + 1; a container's, past its subtree); the last is fixed at the end.
 */
static inline __attribute__((always_inline)) int plan_run(pctx *c, const plan *pl, const ntidx_field *fields,
                                                          const uint8_t **pp, const uint8_t *end)
{
    ntidx_values *t = c->t;
    const uint32_t n = pl->n;
    while (t->cap - t->n < n) /* room for the top level at once: scalars need no check of their own */
        if (grow(c) < 0)
            return -1;
    uint32_t k = (uint32_t)t->n;
    ntidx_value *v = t->v + k, *lastv = v;
    const uint8_t *p = *pp, *const payload = c->payload;
    const plan_op *op = pl->ops, *const op_end = op + n;
    for (const ntidx_field *f = fields; op < op_end; f++, op++) {
        if (f->type_code != op->type)
            return 2;
        const char *name = f->name ? f->name : "";
        lastv = v;
        if (__builtin_expect(op->op >= OP_STRING, 0)) {
            t->n = k;
            if (!(p = plan_field(c, f, name, pl->ops, op, p, end, (uint32_t)(op_end - op))))
                return c->nomem ? -1 : 1;
            lastv = t->v + k;
            lastv->next = k = (uint32_t)t->n;
            v = t->v + k;
            continue;
        }
        if ((uint64_t)(end - p) < op->size)
            return 1;
        plan_scalar(v, name, f, op, p, payload, ++k);
        p += op->size;
        v++;
    }
    lastv->next = NONE;
    t->n = k;
    t->top = n;
    *pp = p;
    return 0;
}

/* Back to the payload's start with no values, no error and nothing counted. */
static void restart(pctx *c, const uint8_t **p)
{
    c->t->n = 0;
    c->t->top = 0;
    c->t->strings.len = 0;
    c->err->code = 0;
    c->nomem = 0;
    c->empty_elements = 0;
    c->loc_bytes = 0;
    *p = c->payload;
}

/* ntx_values_walk() when the fast path did not decode the payload: plans made, the interpreter. */
static __attribute__((noinline)) int walk_slow(const ntidx_trace *tr, const ntidx_event *ev, ntidx_values *t,
                                                ntx_err *err, const ntidx_metadata *m)
{
    pctx c = {.t = t, .payload = ev->payload, .err = err, .tr = tr, .ev = ev};
    pctx_fill(&c);
    const uint8_t *p = ev->payload, *end = ev->payload + ev->payload_size;
    plan *pl = t->interpret_only ? NULL : plan_for(&c, m);
    int rc = !pl || pl->interpret ? 1 : plan_run(&c, pl, m->fields, &p, end);
    if (rc == 2) { /* a field's type is not the plan's (a row whose memory was reused): made again */
        restart(&c, &p);
        plan_compile(pl, &c, m);
        rc = pl->interpret ? 1 : plan_run(&c, pl, m->fields, &p, end);
    }
    if (rc > 0) { /* the interpreter, from the start: it also says what is wrong with the payload */
        restart(&c, &p);
        c.manifest = ntx_manifest_owns(m->fields);
        rc = decode_fields(&c, NULL, NULL, m->fields, m->field_count, &p, end, 0, 1);
    }
    if ((rc != 0 || p != end) && !c.nomem && ntx_layout_bool8_candidate(m)) {
        /* Booleans of one byte, as EventSource writes them, when the payload is laid out that way: taken when
           they account for it exactly; else the four-byte reading again, with its values or its error. */
        restart(&c, &p);
        c.manifest = 0;
        c.bool8 = 1;
        rc = decode_fields(&c, NULL, NULL, m->fields, m->field_count, &p, end, 0, 1);
        if (rc != 0 || p != end) {
            restart(&c, &p);
            c.bool8 = 0;
            rc = decode_fields(&c, NULL, NULL, m->fields, m->field_count, &p, end, 0, 1);
        }
    }
    if (rc != 0) {
        t->n = 0;
        t->top = 0;
        return c.nomem ? ntx_err_set(err, NTIDX_E_NOMEM, "out of memory decoding a payload") : NTIDX_E_PAYLOAD;
    }
    t->used = (uint32_t)(p - ev->payload);
    return NTIDX_OK;
}

/*
 * The fast path: an event whose layout has a plan made for it, decoded by the plan with the least set up (the
 * context is filled only when a field needs the interpreter). Anything else, and a payload the plan does not
 * take, goes to walk_slow(), which starts again and says what is wrong.
 */
int ntx_values_walk(const ntidx_trace *tr, const ntidx_event *ev, ntidx_values *t, ntx_err *err)
{
    t->n = 0;
    t->top = 0;
    t->used = 0;
    t->strings.len = 0; /* its storage stays for the next event */
    t->strings.err = 0; /* forgets a sticky out-of-memory */
    const ntidx_metadata *m = ev->metadata;
    if (!m || !m->has_fields || m->field_count == 0)
        return NTIDX_OK;
    const plan *pl = plan_slot(t, m);
    if (!t->interpret_only && plan_is_for(pl, m, tr->gen == NTX_GEN_V6, tr->info.pointer_size == 4 ? 4 : 8) &&
        !pl->interpret) {
        struct {
            pctx c;
            ntx_err scratch; /* the fast path's errors are found again, and said, by walk_slow() */
        } f;
        f.c.t = t;
        f.c.payload = ev->payload;
        f.c.tr = tr;
        f.c.ev = ev;
        f.c.err = &f.scratch;
        f.c.nomem = 0;
        f.c.ready = 0;
        const uint8_t *p = ev->payload;
        if (plan_run(&f.c, pl, m->fields, &p, ev->payload + ev->payload_size) == 0 &&
            (!pl->bool8 || p == ev->payload + ev->payload_size)) {
            t->used = (uint32_t)(p - ev->payload);
            return NTIDX_OK;
        }
    }
    return walk_slow(tr, ev, t, err, m);
}

/* ------------------------------------------------------------------ */
/* The typed values: a tree in pre-order                               */
/* ------------------------------------------------------------------ */

NTIDX_API int ntidx_values_new(ntidx_values **out)
{
    if (!out)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_values_new: NULL argument");
    *out = calloc(1, sizeof **out);
    if (!*out)
        return ntx_failf(NTIDX_E_NOMEM, NULL, NTIDX_NO_OFFSET, "out of memory");
    return NTIDX_OK;
}

NTIDX_API void ntidx_values_free(ntidx_values **vp)
{
    if (!vp || !*vp)
        return;
    free((*vp)->v);
    ntidx_buf_free(&(*vp)->strings);
    for (int i = 0; i < PLAN_SLOTS; i++)
        free((*vp)->plans[i].ops);
    free(*vp);
    *vp = NULL;
}

NTIDX_API int ntidx_values_decode(ntidx_values *t, const ntidx_trace *tr, const ntidx_event *ev)
{
    if (!t || !tr || !ev)
        return ntx_failf(NTIDX_E_INVALID_ARG, tr ? tr->name : NULL, NTIDX_NO_OFFSET,
                         "ntidx_values_decode: NULL argument");
    ntx_err err;
    err.code = 0; /* the rest is written with the code */
    int rc = ntx_values_walk(tr, ev, t, &err);
    /* The payload is read from the mapping: from zeros, if the file shrank under it (trace_internal.h). */
    if (__builtin_expect(ntx_trace_faulted(tr), 0)) {
        rc = ntx_trace_check(tr, &err);
        t->n = t->top = 0; /* no values of zeros */
    }
    return rc == NTIDX_OK ? NTIDX_OK : ntx_fail(rc, tr->name, &err);
}

uint32_t ntx_values_used(const ntidx_values *v) { return v->used; }

void ntx_values_interpret_only(ntidx_values *v, int on) { v->interpret_only = on; }

int ntx_values_owns(const ntidx_values *t, const ntidx_value *v) { return t && v && v >= t->v && v < t->v + t->n; }

NTIDX_API size_t ntidx_values_count(const ntidx_values *t) { return t ? t->top : 0; }

NTIDX_API const ntidx_value *ntidx_values_at(const ntidx_values *t, size_t idx)
{
    for (uint32_t i = t && t->n ? 0 : NONE; i != NONE; i = t->v[i].next)
        if (idx-- == 0)
            return &t->v[i];
    return NULL;
}

NTIDX_API const ntidx_value *ntidx_values_find(const ntidx_values *t, const char *name)
{
    for (uint32_t i = t && t->n && name ? 0 : NONE; i != NONE; i = t->v[i].next)
        if (t->v[i].name && !strcmp(t->v[i].name, name))
            return &t->v[i];
    return NULL;
}

NTIDX_API const ntidx_value *ntidx_values_child(const ntidx_values *t, const ntidx_value *parent)
{
    if (!t || !parent || parent < t->v || parent >= t->v + t->n || !parent->count || parent->bytes ||
        (parent->kind != NTIDX_VALUE_ARRAY && parent->kind != NTIDX_VALUE_OBJECT))
        return NULL;
    return parent + 1; /* pre-order: the first child follows its parent */
}

NTIDX_API const ntidx_value *ntidx_values_next(const ntidx_values *t, const ntidx_value *val)
{
    if (!t || !val || val < t->v || val >= t->v + t->n || val->next == NONE)
        return NULL;
    return &t->v[val->next];
}

NTIDX_API const ntidx_value *ntidx_values_get(const ntidx_values *t, const ntidx_value *object, const char *name)
{
    if (!name || !object || object->kind != NTIDX_VALUE_OBJECT)
        return NULL;
    for (const ntidx_value *c = ntidx_values_child(t, object); c; c = ntidx_values_next(t, c))
        if (c->name && !strcmp(c->name, name))
            return c;
    return NULL;
}

NTIDX_API void ntidx_guid_format(const uint8_t g[16], char out[37])
{
    ntx_guid_chars(g, out);
    out[36] = 0;
}

/* ------------------------------------------------------------------ */
/* Stacks                                                              */
/* ------------------------------------------------------------------ */

NTIDX_API size_t ntidx_event_stack_depth(const ntidx_trace *t, const ntidx_event *ev)
{
    if (!t || !ev || !ev->stack)
        return 0;
    return ev->stack_size / (t->info.pointer_size == 4 ? 4 : 8);
}

NTIDX_API uint64_t ntidx_event_stack_ip(const ntidx_trace *t, const ntidx_event *ev, size_t i)
{
    if (i >= ntidx_event_stack_depth(t, ev))
        return 0;
    return t->info.pointer_size == 4 ? ntx_load32(ev->stack + 4 * i) : ntx_load64(ev->stack + 8 * i);
}
