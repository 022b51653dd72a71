/*
 * The payload decoder: an event's fields read by its metadata's layout, for
 * every type code, handed value by value to a sink (values_sink.h): the
 * value tree of the public API (values_tree.h) or the JSON/text formatter
 * (fields_format.h). One walk of the grammar, one set of checks and of
 * messages: a payload that does not fit its metadata gives NTIDX_E_PAYLOAD
 * with the field, its offset and the reason whichever sink it was going to,
 * and the caller drops what the sink got (so clients can still list the
 * event with the error in place of its fields).
 *
 * Why it is fast (it runs once per event of a full pass): a layout's top
 * level is compiled once per event type (a plan), so that an event of a
 * known type costs, per field, one check of its type code and its bytes
 * left and one call of the sink, inlined: the plan's loop is compiled once
 * per sink. The interpreter takes what plans do not (containers but the
 * simplest, counted arrays, the rarer types), calling the sink through a
 * switch on its kind.
 */
#include "values.h"
#include "values_layout.h"

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cursor.h"
#include "fields_format.h"
#include "manifest.h"
#include "metadata.h"
#include "trace_internal.h"
#include "utf.h"
#include "values_sink.h"
#include "values_tree.h"

#define NONE NTX_VALUE_NONE

/*
 * A plan holds only what the field types' codes decide (sizes, value
 * kinds; for the runtime's manifest layouts, which are static, when a
 * string may be omitted), and every use checks each field's type code
 * against the live layout: a plan can never decode by a layout it was not
 * made from, even when a freed row's memory is reused for another (names
 * are always read from the live layout). Containers and the rarer types go
 * to the interpreter (decode_compound()) with the live layout; a layout with
 * a counted array, or one that does not fit, is decoded by the interpreter
 * alone; a payload the plan cannot take (too short, bad string...) is
 * decoded again by the interpreter, which says what is wrong.
 */
#define PLAN_SLOT_BITS 10
#define PLAN_SLOTS (1 << PLAN_SLOT_BITS) /* layouts remembered (direct-mapped by address) */
#define PLAN_MAX_FIELDS 256

/* Fields an object may have for a plan to take it (more go to the interpreter). */
#define PLAN_MAX_OBJECT_FIELDS 64

_Static_assert(offsetof(ntidx_value, type_code) == offsetof(ntidx_value, kind) + 1, "kind, type_code adjacent");
_Static_assert(offsetof(ntx_op, type) == offsetof(ntx_op, kind) + 1, "kind, type adjacent");

typedef struct plan {
    const ntidx_field *fields; /* the layout it was made for, */
    uint32_t n;                /* its field count, */
    uint8_t v6, ptr_size;      /* and the trace's encoding it assumed */
    uint8_t interpret;         /* 1: the interpreter decodes this layout */
    uint8_t bool8;             /* ntx_layout_bool8_candidate(): a payload the plan leaves bytes of is decoded again */
    uint8_t manifest;          /* the layout is the runtime manifest's: its names never change */
    ntx_op *ops;
    uint32_t cap;
    /* The formatter's keys (plan_keys_make()): each top-level field's separator and key as the text form
       (key_at[i]) and the JSON form (key_at[n + i]) write them, and those of the fields of the objects the
       plan reads (op j's at key_at[n + j], JSON), offset << 8 | length in `keys`, which has KEY_SLACK readable
       bytes past its end. Made for the names of the definition at keys_offset in the
       trace keys_trace (a serial, ntidx_trace.serial): the same definition has the same names. */
    uint64_t keys_trace, keys_offset;
    char *keys;
    uint32_t *key_at;
    uint32_t keys_len[2]; /* the keys' bytes in each form */
    uint32_t key_at_cap;
    uint32_t nops; /* ops in use: the top level's n, then the objects' fields and the arrays' elements */
} plan;

#define KEY_SLACK 32

/* The plans of a tree handle, or of a thread's formatting (format_plans()). */
struct ntx_plans {
    int interpret_only; /* ntx_values_interpret_only(): no plans (tests hold the plans against the interpreter) */
    plan slot[PLAN_SLOTS];
};

typedef struct pctx {
    int sink;         /* NTX_SINK_TREE (t) or NTX_SINK_FORMAT (fmt) */
    ntidx_values *t;
    ntx_fmt *fmt;
    const uint8_t *payload; /* start of the payload: DataLoc positions count from here */
    uint32_t payload_size;
    uint64_t payload_file_offset; /* where the payload lies in the trace (error offsets) */
    int v6;
    uint32_t ptr_size; /* NTX_TYPE_POINTER width: the trace's pointer size */
    int manifest;      /* the layout comes from the runtime's manifest (set for the interpreter only) */
    int bool8;         /* Boolean32 fields read as one byte (ntx_layout_bool8_candidate(); interpreter only) */
    int quiet;         /* a reading that may be tried again otherwise: perr() fails without saying why */
    ntx_err *err;
    int nomem;               /* the sink failed (out of memory): said once, by the caller */
    uint64_t empty_elements; /* zero-size array elements decoded so far in this payload */
    uint64_t loc_bytes;      /* bytes referenced by RelLoc/DataLoc fields so far in this payload */
    int ready;               /* 0: only sink, t or fmt, payload, nomem, tr, ev and err are set yet (pctx_fill(),
                                before the interpreter runs; the plans' own paths need no more) */
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
    c->quiet = 0;
    c->empty_elements = 0;
    c->loc_bytes = 0;
    c->ready = 1;
}

static int perr(pctx *c, const ntidx_field *f, const uint8_t *at, const char *fmt, unsigned long long a,
                unsigned long long b)
{
    if (c->quiet) /* the reading is tried again, and its error said then if it is still wrong */
        return -1;
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

int ntx_fields_fixed_size(const ntidx_field *f, uint32_t n, int v6, uint32_t ptr, uint64_t *sum)
{
    *sum = 0;
    for (uint32_t i = 0; i < n; i++) {
        long s = ntx_field_fixed_size(&f[i], v6, ptr, 0);
        if (s < 0) {
            *sum = 0;
            return 0;
        }
        *sum += (uint64_t)s;
    }
    return 1;
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

/* ------------------------------------------------------------------ */
/* The sinks, called per value                                         */
/* ------------------------------------------------------------------ */

/* The sink failed: out of memory, said once by the caller. */
#define SINK_FAILED(c) ((c)->nomem = 1, -1)

/* The same, where a field's end is returned. */
static inline const uint8_t *sink_failed(pctx *c)
{
    c->nomem = 1;
    return NULL;
}

static inline uint32_t offset_in(const pctx *c, const uint8_t *p) { return (uint32_t)(p - c->payload); }

/* A fixed-size scalar read at p by its op. */
static inline __attribute__((always_inline)) int emit_scalar(pctx *c, const ntidx_field *f, const char *name,
                                                             const ntx_op *op, const uint8_t *p)
{
    if (c->sink == NTX_SINK_TREE) {
        ntidx_value *v = ntx_tree_add(c->t, f, name, 0, 0);
        if (!v)
            return SINK_FAILED(c);
        ntx_tree_scalar(v, name, f, op, p, c->payload, NONE);
        return 0;
    }
    return ntx_fmt_scalar(c->fmt, name, op, p) ? SINK_FAILED(c) : 0;
}

/* An integer given by its value (a varint's), starting at p. */
static int emit_number(pctx *c, const ntidx_field *f, const char *name, const uint8_t *p, int is_signed,
                       uint64_t bits)
{
    if (c->sink == NTX_SINK_TREE) {
        ntidx_value *v = ntx_tree_add(c->t, f, name, offset_in(c, p), is_signed ? NTIDX_VALUE_INT : NTIDX_VALUE_UINT);
        if (!v)
            return SINK_FAILED(c);
        if (is_signed)
            v->i = (int64_t)bits;
        else
            v->u = bits;
        return 0;
    }
    return ntx_fmt_number(c->fmt, name, is_signed, bits) ? SINK_FAILED(c) : 0;
}

/* A string of `units` UTF-16 code units at s, the value starting at p. */
static int emit_utf16(pctx *c, const ntidx_field *f, const char *name, const uint8_t *p, const uint8_t *s,
                      size_t units)
{
    if (c->sink == NTX_SINK_TREE) {
        ntidx_value *v = ntx_tree_add(c->t, f, name, offset_in(c, p), NTIDX_VALUE_STRING);
        return v && ntx_tree_put_utf16(c->t, v, s, units) == 0 ? 0 : SINK_FAILED(c);
    }
    return ntx_fmt_utf16(c->fmt, name, s, units) ? SINK_FAILED(c) : 0;
}

/* A string of `n` bytes of 8-bit text at s (UTF-8 or ANSI), the value starting at p. */
static int emit_utf8(pctx *c, const ntidx_field *f, const char *name, const uint8_t *p, const uint8_t *s, size_t n)
{
    if (c->sink == NTX_SINK_TREE) {
        ntidx_value *v = ntx_tree_add(c->t, f, name, offset_in(c, p), NTIDX_VALUE_STRING);
        return v && ntx_tree_put_utf8(c->t, v, s, n) == 0 ? 0 : SINK_FAILED(c);
    }
    return ntx_fmt_utf8(c->fmt, name, s, n) ? SINK_FAILED(c) : 0;
}

/* A byte array (elements of el, BYTE or SBYTE): one value over its `n` bytes at p. */
static int emit_bytes(pctx *c, const ntidx_field *f, const char *name, const uint8_t *p, size_t n,
                      const ntidx_field *el)
{
    if (c->sink == NTX_SINK_TREE) {
        ntidx_value *v = ntx_tree_add(c->t, f, name, offset_in(c, p), NTIDX_VALUE_ARRAY);
        if (!v)
            return SINK_FAILED(c);
        v->count = (uint32_t)n; /* n <= bytes left: fits */
        v->bytes = p;
        v->len = n;
        return 0;
    }
    return ntx_fmt_bytes(c->fmt, name, p, n, el->type_code == NTIDX_TYPE_SBYTE) ? SINK_FAILED(c) : 0;
}

/* An EMPTY field's value. */
static int emit_null(pctx *c, const ntidx_field *f, const char *name, const uint8_t *p)
{
    if (c->sink == NTX_SINK_TREE)
        return ntx_tree_add(c->t, f, name, offset_in(c, p), NTIDX_VALUE_NULL) ? 0 : SINK_FAILED(c);
    return ntx_fmt_null(c->fmt, name) ? SINK_FAILED(c) : 0;
}

/* An object or array (kind) of `count` values, starting at p, whose values follow until emit_close(). */
static int emit_open(pctx *c, const ntidx_field *f, const char *name, const uint8_t *p, uint8_t kind, uint32_t count)
{
    if (c->sink == NTX_SINK_TREE)
        return ntx_tree_open(c->t, f, name, offset_in(c, p), kind, count) ? SINK_FAILED(c) : 0;
    return ntx_fmt_open(c->fmt, name, kind == NTIDX_VALUE_OBJECT) ? SINK_FAILED(c) : 0;
}

static int emit_close(pctx *c, uint8_t kind)
{
    if (c->sink == NTX_SINK_TREE) {
        ntx_tree_close(c->t);
        return 0;
    }
    return ntx_fmt_close(c->fmt, kind == NTIDX_VALUE_OBJECT) ? SINK_FAILED(c) : 0;
}

/* ------------------------------------------------------------------ */
/* The interpreter                                                     */
/* ------------------------------------------------------------------ */

/* A field's op by its type code (what a plan, and the interpreter for a scalar, reads it by): a fixed-size
   scalar's load, value kind and bytes, or NTX_OP_STRING, or NTX_OP_OTHER; no string omission, no nested ops
   (set by plan_compile()). */
static inline void op_of_type(ntx_op *op, uint8_t type, int v6, uint32_t ptr)
{
    static const struct { uint8_t op, kind, size; } shapes[256] = {
        [NTIDX_TYPE_BOOLEAN32] = {NTX_OP_B32, NTIDX_VALUE_BOOL, 4},
        [NTIDX_TYPE_BOOLEAN8] = {NTX_OP_B8, NTIDX_VALUE_BOOL, 1},
        [NTIDX_TYPE_SBYTE] = {NTX_OP_S8, NTIDX_VALUE_INT, 1},
        [NTIDX_TYPE_BYTE] = {NTX_OP_U8, NTIDX_VALUE_UINT, 1},
        [NTIDX_TYPE_INT16] = {NTX_OP_S16, NTIDX_VALUE_INT, 2},
        [NTIDX_TYPE_UINT16] = {NTX_OP_U16, NTIDX_VALUE_UINT, 2},
        [NTIDX_TYPE_INT32] = {NTX_OP_S32, NTIDX_VALUE_INT, 4},
        [NTIDX_TYPE_UINT32] = {NTX_OP_U32, NTIDX_VALUE_UINT, 4},
        [NTIDX_TYPE_INT64] = {NTX_OP_S64, NTIDX_VALUE_INT, 8},
        [NTIDX_TYPE_UINT64] = {NTX_OP_U64, NTIDX_VALUE_UINT, 8},
        [NTIDX_TYPE_SINGLE] = {NTX_OP_F32, NTIDX_VALUE_FLOAT, 4},
        [NTIDX_TYPE_DOUBLE] = {NTX_OP_F64, NTIDX_VALUE_FLOAT, 8},
        [NTIDX_TYPE_DECIMAL] = {NTX_OP_BYTES16, NTIDX_VALUE_DECIMAL, 16},
        [NTIDX_TYPE_GUID] = {NTX_OP_BYTES16, NTIDX_VALUE_GUID, 16},
        [NTIDX_TYPE_UTF16_STRING] = {NTX_OP_STRING, NTIDX_VALUE_STRING, 0},
    };
    op->type = type;
    op->op = NTX_OP_OTHER;
    op->kind = 0;
    op->size = 0;
    op->omit = 0;
    op->count = 0;
    op->rest = 0;
    if (type == NTIDX_TYPE_DATETIME) {
        op->op = v6 ? NTX_OP_SYSTEMTIME : NTX_OP_FILETIME;
        op->kind = NTIDX_VALUE_TIME;
        op->size = v6 ? 16 : 8;
    } else if (type == NTX_TYPE_POINTER) {
        op->op = ptr == 4 ? NTX_OP_U32 : NTX_OP_U64;
        op->kind = NTIDX_VALUE_UINT;
        op->size = (uint8_t)ptr;
    } else if (shapes[type].kind) {
        op->op = shapes[type].op;
        op->kind = shapes[type].kind;
        op->size = shapes[type].size;
    }
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

/*
 * A value of a scalar type (numbers, booleans, characters, GUIDs, times,
 * pointers, UTF-16 strings: nearly every field of a real trace) at *pp:
 * handed to the sink, *pp moved past it; 0, or -1 with the error. Inlined
 * into the loops over fields and elements. 1: f is of another type
 * (decode_compound()), nothing done.
 */
static inline __attribute__((always_inline)) int decode_scalar(pctx *c, const ntidx_field *f, const char *name,
                                                               const uint8_t **pp, const uint8_t *end)
{
    const uint8_t *p = *pp;
    switch (f->type_code) {
    case NTIDX_TYPE_UTF16_STRING: {
        const uint8_t *z = ntx_utf16_find_nul(p, end);
        if (!z)
            return perr(c, f, p, "string has no terminator within the %llu bytes left", (unsigned long long)(end - p), 0);
        if (emit_utf16(c, f, name, p, p, (size_t)(z - p) / 2) < 0)
            return -1;
        *pp = z + 2;
        return 0;
    }
    case NTIDX_TYPE_UTF16_CODE_UNIT:
        NEED(2);
        if (emit_utf16(c, f, name, p, p, 1) < 0)
            return -1;
        *pp = p + 2;
        return 0;
    case NTIDX_TYPE_UTF8_CODE_UNIT:
        NEED(1);
        if (emit_utf8(c, f, name, p, p, 1) < 0)
            return -1;
        *pp = p + 1;
        return 0;
    default: break;
    }
    ntx_op op;
    op_of_type(&op, f->type_code, c->v6, c->ptr_size);
    if (op.op >= NTX_OP_STRING)
        return 1;
    if (op.op == NTX_OP_B32 && __builtin_expect(c->bool8, 0)) { /* as EventSource writes it: one byte */
        op.op = NTX_OP_B8;
        op.size = 1;
    }
    NEED(op.size);
    if (emit_scalar(c, f, name, &op, p) < 0)
        return -1;
    *pp = p + op.size;
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

/* An object's fields (or the payload's top level, which has no object value around it). */
static int decode_fields(pctx *c, const ntidx_field *obj, const char *name, const ntidx_field *fields, uint32_t n,
                         const uint8_t **pp, const uint8_t *end, int depth, int top)
{
    const uint8_t *starts[NTX_MAX_COUNT_REF]; /* where each field began: counted arrays read their count there */
    if (!top && emit_open(c, obj, name, *pp, NTIDX_VALUE_OBJECT, n) < 0)
        return -1;
    /* The cursor stays in a local that no call sees (the usual field is a scalar, decoded inline): the
       compiler keeps it in a register although the values' stores may alias anything. */
    const uint8_t *p = *pp, *q;
    const int omissible = top && c->manifest, deep = depth + 1 > 2 * NTX_MAX_FIELD_DEPTH + 2;
    for (uint32_t i = 0; i < n; i++) {
        const ntidx_field *f = &fields[i];
        const char *fname = f->name ? f->name : "";
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
            rc = emit_utf8(c, f, fname, p, p, 0);
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
    if (!top && emit_close(c, NTIDX_VALUE_OBJECT) < 0)
        return -1;
    *pp = p;
    if (top && c->sink == NTX_SINK_TREE)
        c->t->top = n;
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
        if ((unit == 2 ? emit_utf16(c, f, name, *pp, *pp, (size_t)count) : emit_utf8(c, f, name, *pp, *pp, (size_t)count)) < 0)
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
    if (el->type_code == NTIDX_TYPE_BYTE || el->type_code == NTIDX_TYPE_SBYTE) {
        /* byte[]: one value over the bytes, not one per byte */
        if (emit_bytes(c, f, name, *pp, (size_t)count, el) < 0)
            return -1;
        *pp += count;
        return 0;
    }
    /* count <= bytes left (or <= 65536 empties): fits */
    if (emit_open(c, f, name, *pp, NTIDX_VALUE_ARRAY, (uint32_t)count) < 0)
        return -1;
    for (uint64_t i = 0; i < count; i++)
        if (decode_value(c, el, NULL, pp, end, depth + 1) < 0)
            return -1;
    return emit_close(c, NTIDX_VALUE_ARRAY);
}

/* A value of any other type (containers, varints, 8-bit strings, locations, EMPTY, unknown codes) at *pp. */
static int decode_compound(pctx *c, const ntidx_field *f, const char *name, const uint8_t **pp, const uint8_t *end,
                           int depth)
{
    const uint8_t *p = *pp;
    switch (f->type_code) {
    case NTIDX_TYPE_EMPTY: return emit_null(c, f, name, p);
    case NTX_TYPE_ANSI_STRING: {
        const uint8_t *z = memchr(p, 0, (size_t)(end - p));
        if (!z)
            return perr(c, f, p, "string has no terminator within the %llu bytes left", (unsigned long long)(end - p), 0);
        if (emit_utf8(c, f, name, p, p, (size_t)(z - p)) < 0)
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
        int is_signed = f->type_code == NTIDX_TYPE_VARINT;
        if (emit_number(c, f, name, s, is_signed, is_signed ? (uint64_t)((int64_t)(x >> 1) ^ -(int64_t)(x & 1)) : x) < 0)
            return -1;
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

/* ------------------------------------------------------------------ */
/* Plans: a layout's top level compiled once per event type            */
/* ------------------------------------------------------------------ */

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
    pl->manifest = (uint8_t)manifest;
    pl->keys_trace = 0; /* the keys are made again, for this layout */
    pl->nops = m->field_count;
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
        ntx_op *ops = realloc(pl->ops, total * sizeof *ops);
        if (!ops)
            return;
        pl->ops = ops;
        pl->cap = total;
    }
    uint32_t more = n;
    for (uint32_t i = 0; i < n; i++) {
        const ntidx_field *f = &m->fields[i];
        ntx_op *op = &pl->ops[i];
        if (f->type_code == NTX_TYPE_COUNTED_ARRAY)
            return; /* its count is an earlier field's value: decode_fields() keeps them */
        op_of_type(op, f->type_code, c->v6, c->ptr_size);
        if (manifest && f->type_code == NTIDX_TYPE_UTF16_STRING) {
            /* ntx_string_omitted()'s sum, once: the manifest's layouts never change */
            uint64_t sum;
            int fixed = ntx_fields_fixed_size(&m->fields[i + 1], m->field_count - i - 1, c->v6, c->ptr_size, &sum);
            op->omit = fixed && sum <= UINT32_MAX;
            op->rest = (uint32_t)sum;
        } else if (f->type_code == NTIDX_TYPE_OBJECT && f->fields && f->field_count <= PLAN_MAX_OBJECT_FIELDS) {
            /* an object of scalars and strings (TraceLogging's nested objects): its fields' ops follow */
            int plain = 1;
            for (uint32_t k = 0; k < f->field_count; k++) {
                ntx_op *sub = &pl->ops[more + k];
                op_of_type(sub, f->fields[k].type_code, c->v6, c->ptr_size);
                plain &= sub->op <= NTX_OP_STRING;
            }
            if (plain) {
                op->op = NTX_OP_OBJECT;
                op->count = (uint16_t)f->field_count;
                op->rest = more;
                more += f->field_count;
            }
        } else if (f->type_code == NTIDX_TYPE_ARRAY && f->element) {
            /* an array of numbers (not bytes: one value for them all; not characters: a string) */
            ntx_op *el = &pl->ops[more];
            op_of_type(el, f->element->type_code, c->v6, c->ptr_size);
            if (el->op < NTX_OP_STRING && el->type != NTIDX_TYPE_BYTE && el->type != NTIDX_TYPE_SBYTE) {
                op->op = NTX_OP_ARRAY;
                op->rest = more++;
            }
        }
    }
    pl->nops = more;
    pl->interpret = 0;
}

/* The plan remembered in m's layout's slot (it may be another layout's). The layout's address picks the slot
   (a plan is valid for a layout, whichever row holds it): its bits mixed by a multiply, as rows and layouts lie
   at regular strides in their arenas and the manifest. */
static inline plan *plan_slot(ntx_plans *ps, const ntidx_metadata *m)
{
    uint64_t h = (uint64_t)(uintptr_t)m->fields * 0x9E3779B97F4A7C15ULL;
    return &ps->slot[h >> (64 - PLAN_SLOT_BITS)];
}

static inline int plan_is_for(const plan *pl, const ntidx_metadata *m, int v6, uint32_t ptr_size)
{
    return pl->fields == m->fields && pl->n == m->field_count && pl->v6 == v6 && pl->ptr_size == ptr_size;
}

/* The plan for m's layout in this trace, made now when the one remembered is for another (out of memory, a
   plan that says: interpret). */
static plan *plan_for(pctx *c, ntx_plans *ps, const ntidx_metadata *m)
{
    plan *pl = plan_slot(ps, m);
    if (plan_is_for(pl, m, c->v6, c->ptr_size))
        return pl;
    plan_compile(pl, c, m);
    return pl;
}

/* The tree: a UTF-16 string's value (omitted: an empty one, no bytes read) at t->n (room reserved), found and
   converted in one pass into room for the rest of the payload as text; where it ends, or NULL (c->nomem, or no
   end). */
static const uint8_t *plan_string(pctx *c, const ntidx_field *f, const char *name, const ntx_op *op,
                                  const uint8_t *p, const uint8_t *end, int omitted)
{
    ntidx_values *t = c->t;
    ntidx_buf *b = &t->strings;
    if (ntx_tree_strings_reserve(t, omitted ? 1 : ntx_utf8_bound((size_t)(end - p) / 2) + 8) != 0) {
        c->nomem = 1;
        return NULL;
    }
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
                       .payload_offset = (uint32_t)(p - c->payload),
                       .next = NONE};
    b->len += len + 1;
    return z ? z + 2 : p;
}

/* The tree: room for `more` values after t->n's; 0, or -1 out of memory. */
static int plan_room(pctx *c, uint64_t more)
{
    ntidx_values *t = c->t;
    while (t->cap - t->n < more)
        if (ntx_tree_grow(t) < 0)
            return SINK_FAILED(c);
    return 0;
}

/*
 * A field plan_run() does not read inline, at p: a UTF-16 string; an object of scalars and strings, or an
 * array of numbers, as the interpreter (decode_fields(), decode_elements()) gives them, each field checked
 * against the live layout; else what the interpreter decodes. The tree's values go after t->n's (room for
 * one is there), then room is made for `left` more. Returns where the field ends, or NULL: out of memory
 * (c->nomem) or a payload (or a layout) the plan does not take, which the interpreter then decodes.
 * Compiled once per sink (`sink` a constant: plan_field_tree(), plan_field_format()).
 */
static inline __attribute__((always_inline)) const uint8_t *plan_field_to(pctx *c, const ntidx_field *f,
                                                                          const char *name, const ntx_op *ops,
                                                                          const ntx_op *op, const uint8_t *p,
                                                                          const uint8_t *end, uint32_t left,
                                                                          const int sink)
{
    ntidx_values *t = c->t;
    const int tree = sink == NTX_SINK_TREE;
    switch (op->op) {
    case NTX_OP_STRING: {
        const int omitted = op->omit && (uint64_t)(end - p) == op->rest;
        if (tree)
            return plan_string(c, f, name, op, p, end, omitted);
        if (omitted)
            return ntx_fmt_utf8(c->fmt, name, p, 0) ? sink_failed(c) : p;
        const uint8_t *z = ntx_fmt_utf16z(c->fmt, name, p, end);
        if (!z)
            c->nomem = c->fmt->out->err != 0;
        return z ? z + 2 : NULL;
    }
    case NTX_OP_OBJECT: {
        const ntx_op *sub = ops + op->rest;
        const uint32_t n = op->count;
        if (f->field_count != n)
            return NULL;
        if (tree) {
            if (plan_room(c, (uint64_t)n + 1 + left) < 0)
                return NULL;
            ntx_tree_add(t, f, name, (uint32_t)(p - c->payload), NTIDX_VALUE_OBJECT)->count = n; /* room made */
        } else if (ntx_fmt_open(c->fmt, name, 1) < 0) {
            return sink_failed(c);
        }
        for (uint32_t i = 0; i < n; i++) {
            const ntidx_field *cf = &f->fields[i];
            if (cf->type_code != sub[i].type)
                return NULL;
            const char *cname = cf->name ? cf->name : "";
            if (sub[i].op == NTX_OP_STRING) {
                if (tree) {
                    const uint32_t at = (uint32_t)t->n;
                    if (!(p = plan_string(c, cf, cname, &sub[i], p, end, 0)))
                        return NULL;
                    t->v[at].next = i + 1 < n ? at + 1 : NONE;
                } else {
                    const uint8_t *z = ntx_fmt_utf16z(c->fmt, cname, p, end);
                    if (!z) {
                        c->nomem = c->fmt->out->err != 0;
                        return NULL;
                    }
                    p = z + 2;
                }
                continue;
            }
            if ((uint64_t)(end - p) < sub[i].size)
                return NULL;
            if (tree) {
                const uint32_t at = (uint32_t)t->n++;
                ntx_tree_scalar(&t->v[at], cname, cf, &sub[i], p, c->payload, i + 1 < n ? at + 1 : NONE);
            } else if (ntx_fmt_scalar(c->fmt, cname, &sub[i], p) < 0) {
                return sink_failed(c);
            }
            p += sub[i].size;
        }
        if (tree)
            return p;
        return ntx_fmt_close(c->fmt, 1) < 0 ? sink_failed(c) : p;
    }
    case NTX_OP_ARRAY: {
        const ntx_op *el = ops + op->rest;
        const ntidx_field *ef = f->element;
        if (!ef || ef->type_code != el->type || (uint64_t)(end - p) < 2)
            return NULL;
        const uint32_t n = ntx_load16(p);
        p += 2;
        if ((uint64_t)n * el->size > (uint64_t)(end - p))
            return NULL;
        if (tree) {
            if (plan_room(c, (uint64_t)n + 1 + left) < 0)
                return NULL;
            ntx_tree_add(t, f, name, (uint32_t)(p - c->payload), NTIDX_VALUE_ARRAY)->count = n; /* room made */
            ntidx_value *v = t->v + t->n;
            const uint32_t first = (uint32_t)t->n;
            for (uint32_t i = 0; i < n; i++, p += el->size)
                ntx_tree_scalar(&v[i], NULL, ef, el, p, c->payload, i + 1 < n ? first + i + 1 : NONE);
            t->n += n;
            return p;
        }
        if (ntx_fmt_open(c->fmt, name, 0) < 0)
            return sink_failed(c);
        for (uint32_t i = 0; i < n; i++, p += el->size)
            if (ntx_fmt_scalar(c->fmt, NULL, el, p) < 0)
                return sink_failed(c);
        return ntx_fmt_close(c->fmt, 0) < 0 ? sink_failed(c) : p;
    }
    default:
        if (!c->ready)
            pctx_fill(c);
        if (decode_value(c, f, name, &p, end, 1) < 0)
            return NULL;
        return tree && plan_room(c, left) < 0 ? NULL : p;
    }
}

static __attribute__((noinline)) const uint8_t *plan_field_tree(pctx *c, const ntidx_field *f, const char *name,
                                                                const ntx_op *ops, const ntx_op *op,
                                                                const uint8_t *p, const uint8_t *end, uint32_t left)
{
    return plan_field_to(c, f, name, ops, op, p, end, left, NTX_SINK_TREE);
}

static __attribute__((noinline)) const uint8_t *plan_field_format(pctx *c, const ntidx_field *f, const char *name,
                                                                  const ntx_op *ops, const ntx_op *op,
                                                                  const uint8_t *p, const uint8_t *end)
{
    return plan_field_to(c, f, name, ops, op, p, end, 0, NTX_SINK_FORMAT);
}

/*
 * The top-level fields of m by its plan, from p, to the sink `sink` (a constant: one copy of the loop per
 * sink). 0 with *pp past them; 1 when the payload does not take the plan (the interpreter then decodes it
 * and says why); 2 when a field's type code is not the plan's (the plan is made again); -1 out of memory or
 * an error the interpreter also finds.
 *
 * Inlined into its callers (the fast path's call and return cost as much as a field). The tree's scalars are
 * written inline, with the values' array and count in locals (a value's stores could alias t->n): they go
 * back to t before anything else runs (plan_field_tree()). A top-level value links to the one after it
 * (.next = its index + 1; a container's, past its subtree); the last is fixed at the end.
 */
static inline __attribute__((always_inline)) int plan_run(pctx *c, const plan *pl, const ntidx_field *fields,
                                                          const uint8_t **pp, const uint8_t *end, const int sink)
{
    const uint8_t *p = *pp;
    const ntx_op *op = pl->ops, *const op_end = op + pl->n;
    if (sink == NTX_SINK_FORMAT) {
        ntx_fmt *fm = c->fmt;
        for (const ntidx_field *f = fields; op < op_end; f++, op++) {
            if (f->type_code != op->type)
                return 2;
            const char *name = f->name ? f->name : "";
            if (__builtin_expect(op->op >= NTX_OP_STRING, 0)) {
                if (!(p = plan_field_format(c, f, name, pl->ops, op, p, end)))
                    return c->nomem ? -1 : 1;
                continue;
            }
            if ((uint64_t)(end - p) < op->size)
                return 1;
            if (ntx_fmt_scalar(fm, name, op, p) < 0)
                return SINK_FAILED(c);
            p += op->size;
        }
        *pp = p;
        return 0;
    }
    ntidx_values *t = c->t;
    const uint32_t n = pl->n;
    while (t->cap - t->n < n) /* room for the top level at once: scalars need no check of their own */
        if (ntx_tree_grow(t) < 0)
            return SINK_FAILED(c);
    uint32_t k = (uint32_t)t->n;
    ntidx_value *v = t->v + k, *lastv = v;
    const uint8_t *const payload = c->payload;
    for (const ntidx_field *f = fields; op < op_end; f++, op++) {
        if (f->type_code != op->type)
            return 2;
        const char *name = f->name ? f->name : "";
        lastv = v;
        if (__builtin_expect(op->op >= NTX_OP_STRING, 0)) {
            t->n = k;
            t->last[0] = NONE; /* links at the top level are made here */
            if (!(p = plan_field_tree(c, f, name, pl->ops, op, p, end, (uint32_t)(op_end - op))))
                return c->nomem ? -1 : 1;
            lastv = t->v + k;
            lastv->next = k = (uint32_t)t->n;
            v = t->v + k;
            continue;
        }
        if ((uint64_t)(end - p) < op->size)
            return 1;
        ntx_tree_scalar(v, name, f, op, p, payload, ++k);
        p += op->size;
        v++;
    }
    lastv->next = NONE;
    t->n = k;
    t->top = n;
    *pp = p;
    return 0;
}

/* ------------------------------------------------------------------ */
/* The formatter's keys                                                */
/* ------------------------------------------------------------------ */

/* Whether pl's keys are those of m's names in trace tr: a manifest's layout has the same names wherever it is
   used; a trace's layout those of its definition (rows derived from one, and copies, share its offset). A
   trace of serial 0 (one a test lays out itself, not opened) has keys made at every payload: 0 is also
   keys_trace's "none". */
static inline int plan_keys_valid(const plan *pl, const ntidx_trace *tr, const ntidx_metadata *m)
{
    return pl->keys_trace == tr->serial && tr->serial && (pl->manifest || pl->keys_offset == m->offset);
}

/* One key made in b through f (ntx_fmt_key(): the bytes the formatter writes for `name`) and its place stored
   in *slot (offset << 8 | length); 0, or -1 (out of memory, or a key or a buffer past what a slot holds). */
static int key_make(ntx_fmt *f, ntidx_buf *b, const char *name, uint32_t *slot)
{
    const size_t at = b->len;
    char *o = ntx_fmt_key(f, name ? name : "", 0);
    if (!o)
        return -1;
    b->len = (size_t)(o - b->data);
    if (b->len - at > 255 || at >= (1u << 24))
        return -1;
    *slot = (uint32_t)(at << 8 | (b->len - at));
    return 0;
}

/* Make pl's keys from m's names (pl is m's layout's plan), through ntx_fmt_key(), the bytes the formatter
   writes; 0, or -1 (out of memory, a key too long, or a row that names no definition of the trace: a client's
   own, whose names no offset vouches for): the plan then formats without keys. */
static int plan_keys_make(plan *pl, const ntidx_trace *tr, const ntidx_metadata *m)
{
    pl->keys_trace = 0;
    if (!pl->manifest && (!m->offset || !m->name_in_trace))
        return -1;
    const uint32_t n = pl->n, slots = n + pl->nops;
    if (pl->key_at_cap < slots) {
        uint32_t *a = realloc(pl->key_at, (size_t)slots * sizeof *a);
        if (!a)
            return -1;
        pl->key_at = a;
        pl->key_at_cap = slots;
    }
    ntidx_buf b = {0};
    for (int json = 0; json < 2; json++) {
        ntx_fmt f;
        f.out = &b;
        f.json = json;
        f.depth = 0;
        f.count[0] = 0;
        f.mark = b.len;
        const size_t first = b.len;
        for (uint32_t i = 0; i < n; i++)
            if (key_make(&f, &b, m->fields[i].name, &pl->key_at[(uint32_t)json * n + i]) < 0)
                goto fail;
        pl->keys_len[json] = (uint32_t)(b.len - first);
    }
    /* the objects' fields, inside braces: JSON */
    const size_t first = b.len;
    for (uint32_t i = 0; i < n; i++) {
        const ntx_op *op = &pl->ops[i];
        const ntidx_field *of = &m->fields[i];
        if (op->op != NTX_OP_OBJECT)
            continue;
        if (!of->fields || of->field_count != op->count)
            goto fail;
        ntx_fmt f;
        f.out = &b;
        f.json = 1;
        f.depth = 1;
        f.count[1] = 0;
        f.mark = b.len;
        for (uint32_t k = 0; k < op->count; k++)
            if (key_make(&f, &b, of->fields[k].name, &pl->key_at[n + op->rest + k]) < 0)
                goto fail;
    }
    pl->keys_len[0] += (uint32_t)(b.len - first); /* room counts them in either form */
    pl->keys_len[1] += (uint32_t)(b.len - first);
    if (ntx_buf_reserve(&b, KEY_SLACK) != 0)
        goto fail;
    memset(b.data + b.len, 0, KEY_SLACK);
    free(pl->keys);
    pl->keys = b.data;
    pl->keys_trace = tr->serial;
    pl->keys_offset = m->offset;
    return 0;
fail:
    free(b.data);
    return -1;
}

/* A key (key_at's entry `at`) at o, in 16-byte copies (the keys have KEY_SLACK bytes past their end, o room for
   KEY_SLACK more than the key); returns its end. */
static inline __attribute__((always_inline)) char *put_key(char *o, const char *keys, uint32_t at)
{
    const char *k = keys + (at >> 8);
    const uint32_t n = at & 255;
    memcpy(o, k, 16);
    if (__builtin_expect(n > 16, 0)) {
        memcpy(o + 16, k + 16, 16);
        if (n > 32)
            memcpy(o + 32, k + 32, n - 32);
    }
    return o + n;
}

/* Room for a payload's text from p on, `fields` fields at most: each field's key and a scalar's text, or a
   string's (at most 6 bytes a code unit, 8 more and its quotes: NTX_JSON_UTF16_ROOM()). */
#define KEYED_FIELD_ROOM (NTX_FMT_SCALAR_ROOM + KEY_SLACK + 10)
static inline size_t keyed_room(const plan *pl, int json, uint32_t fields, const uint8_t *p, const uint8_t *end)
{
    return pl->keys_len[json] + (size_t)fields * KEYED_FIELD_ROOM + 3 * (size_t)(end - p);
}

/* A string from p up to its zero unit before end, quoted, at o (room made); its end, and *pz past the zero
   unit, or NULL when there is none. */
static inline __attribute__((always_inline)) char *keyed_string(char *o, const uint8_t **pz, const uint8_t *end)
{
    *o++ = '"';
    const uint8_t *z = ntx_json_utf16z(*pz, end, o, &o);
    if (!z)
        return NULL;
    *o++ = '"';
    *pz = z + 2;
    return o;
}

/*
 * The formatter's plan with its keys: room made once for the payload's text, then each field's key copied and
 * its value written through a pointer kept in a register (ntx_fmt_key() measured each name, checked the room
 * and counted the value, and the stores of the buffer's length and count made a chain from field to field:
 * most of a field's cost). Strings are written inline; what else the plan does not read inline goes through
 * plan_field_format(). Returns as plan_run().
 */
static int plan_run_keyed(pctx *c, const plan *pl, const ntidx_field *fields, const uint8_t **pp, const uint8_t *end)
{
    ntx_fmt *fm = c->fmt;
    ntidx_buf *b = fm->out;
    const int json = fm->json != 0;
    const uint32_t n = pl->n;
    const uint32_t *at = pl->key_at + (json ? n : 0);
    const char *keys = pl->keys;
    const uint8_t *p = *pp;
    if (ntx_buf_reserve(b, keyed_room(pl, json, pl->nops, p, end)) != 0)
        return SINK_FAILED(c);
    char *o = b->data + b->len;
    const ntx_op *op = pl->ops;
    const uint32_t *sub_at = pl->key_at + n; /* an object field's key: sub_at[its op's index] */
    for (uint32_t i = 0; i < n; i++, op++) {
        const ntidx_field *f = &fields[i];
        if (f->type_code != op->type) {
            ntx_fmt_end(fm, o);
            return 2;
        }
        if (__builtin_expect(op->op >= NTX_OP_STRING, 0)) {
            if (op->op == NTX_OP_STRING) {
                char *s = put_key(o, keys, at[i]);
                if (op->omit && (uint64_t)(end - p) == op->rest) { /* a manifest's string left out: empty */
                    memcpy(s, "\"\"", 2);
                    o = s + 2;
                    continue;
                }
                s = keyed_string(s, &p, end);
                if (!s) {
                    ntx_fmt_end(fm, o);
                    return 1;
                }
                o = s;
                continue;
            }
            if (op->op == NTX_OP_OBJECT && f->field_count == op->count) {
                /* its fields' keys and values in braces, each checked as plan_field_to() checks them */
                const ntx_op *sub = pl->ops + op->rest;
                char *s = put_key(o, keys, at[i]);
                *s++ = '{';
                uint32_t k = 0;
                for (; k < op->count; k++) {
                    if (f->fields[k].type_code != sub[k].type)
                        break;
                    s = put_key(s, keys, sub_at[op->rest + k]);
                    if (sub[k].op == NTX_OP_STRING) {
                        if (!(s = keyed_string(s, &p, end)))
                            break;
                        continue;
                    }
                    if ((uint64_t)(end - p) < sub[k].size)
                        break;
                    s = ntx_fmt_put_scalar(s, &sub[k], p);
                    p += sub[k].size;
                }
                if (k < op->count) { /* the interpreter says what is wrong, or takes the new layout */
                    ntx_fmt_end(fm, o);
                    return 1;
                }
                *s++ = '}';
                o = s;
                continue;
            }
            if (op->op == NTX_OP_ARRAY && f->element && f->element->type_code == pl->ops[op->rest].type &&
                end - p >= 2) {
                /* a counted array of numbers: room made for its elements, then written */
                const ntx_op *el = pl->ops + op->rest;
                const uint32_t count = ntx_load16(p);
                if ((uint64_t)count * el->size > (uint64_t)(end - p - 2)) {
                    ntx_fmt_end(fm, o);
                    return 1;
                }
                ntx_fmt_end(fm, o);
                if (ntx_buf_reserve(b, keyed_room(pl, json, pl->nops, p, end) +
                                           (size_t)count * (NTX_FMT_SCALAR_ROOM + 1)) != 0)
                    return SINK_FAILED(c);
                o = put_key(b->data + b->len, keys, at[i]);
                *o++ = '[';
                p += 2;
                for (uint32_t k = 0; k < count; k++, p += el->size) {
                    if (k)
                        *o++ = ',';
                    o = ntx_fmt_put_scalar(o, el, p);
                }
                *o++ = ']';
                continue;
            }
            ntx_fmt_end(fm, o);
            fm->count[0] = i;
            if (!(p = plan_field_format(c, f, f->name ? f->name : "", pl->ops, op, p, end)))
                return c->nomem ? -1 : 1;
            if (ntx_buf_reserve(b, keyed_room(pl, json, pl->nops, p, end)) != 0)
                return SINK_FAILED(c);
            o = b->data + b->len;
            continue;
        }
        if ((uint64_t)(end - p) < op->size) {
            ntx_fmt_end(fm, o);
            return 1;
        }
        o = ntx_fmt_put_scalar(put_key(o, keys, at[i]), op, p);
        p += op->size;
    }
    fm->count[0] = n;
    ntx_fmt_end(fm, o);
    *pp = p;
    return 0;
}

/* ------------------------------------------------------------------ */
/* A payload's decode                                                  */
/* ------------------------------------------------------------------ */

/* Back to the payload's start with nothing in the sink, no error and nothing counted. */
static void restart(pctx *c, const uint8_t **p)
{
    if (c->sink == NTX_SINK_TREE)
        ntx_tree_begin(c->t);
    else
        ntx_fmt_begin(c->fmt);
    c->err->code = 0;
    c->nomem = 0;
    c->empty_elements = 0;
    c->loc_bytes = 0;
    *p = c->payload;
}

/*
 * The decode when the fast path did not take the payload: the plan made (or made again), then the
 * interpreter from the start when the plan does not take the payload, then one-byte booleans when they
 * account for it. *used: the payload bytes the layout accounted for.
 */
static __attribute__((noinline)) int decode_slow(pctx *c, ntx_plans *ps, const ntidx_metadata *m, uint32_t *used)
{
    pctx_fill(c);
    const uint8_t *p, *end = c->payload + c->payload_size;
    restart(c, &p);
    plan *pl = !ps || ps->interpret_only ? NULL : plan_for(c, ps, m);
    const int tree = c->sink == NTX_SINK_TREE;
    int rc = !pl || pl->interpret ? 1
             : tree                ? plan_run(c, pl, m->fields, &p, end, NTX_SINK_TREE)
                                   : plan_run(c, pl, m->fields, &p, end, NTX_SINK_FORMAT);
    if (rc == 2) { /* a field's type is not the plan's (a row whose memory was reused): made again */
        restart(c, &p);
        plan_compile(pl, c, m);
        rc = pl->interpret ? 1
             : tree        ? plan_run(c, pl, m->fields, &p, end, NTX_SINK_TREE)
                           : plan_run(c, pl, m->fields, &p, end, NTX_SINK_FORMAT);
    }
    const int bool8 = ntx_layout_bool8_candidate(m);
    if (rc > 0) { /* the interpreter, from the start: it also says what is wrong with the payload */
        restart(c, &p);
        c->manifest = ntx_manifest_owns(m->fields);
        /* A layout that may hold one-byte booleans is read again below if this fails, and its error said
           then: formatting it here cost an EventSource event with booleans more than its decode. */
        c->quiet = bool8;
        rc = decode_fields(c, NULL, NULL, m->fields, m->field_count, &p, end, 0, 1);
        c->quiet = 0;
    }
    if ((rc != 0 || p != end) && !c->nomem && bool8) {
        /* Booleans of one byte, as EventSource writes them, when the payload is laid out that way: taken when
           they account for it exactly; else the four-byte reading again, with its values or its error. */
        restart(c, &p);
        c->manifest = 0;
        c->bool8 = 1;
        rc = decode_fields(c, NULL, NULL, m->fields, m->field_count, &p, end, 0, 1);
        if (rc != 0 || p != end) {
            restart(c, &p);
            c->bool8 = 0;
            rc = decode_fields(c, NULL, NULL, m->fields, m->field_count, &p, end, 0, 1);
        }
    }
    if (rc != 0)
        return c->nomem ? ntx_err_set(c->err, NTIDX_E_NOMEM, "out of memory decoding a payload") : NTIDX_E_PAYLOAD;
    *used = (uint32_t)(p - c->payload);
    return NTIDX_OK;
}

/*
 * The tree's decode. The fast path: an event whose layout has a plan made for it, decoded by the plan with
 * the least set up (the context is filled only when a field needs the interpreter). Anything else, and a
 * payload the plan does not take, goes to decode_slow(), which starts again and says what is wrong.
 */
int ntx_values_walk(const ntidx_trace *tr, const ntidx_event *ev, ntidx_values *t, ntx_err *err)
{
    ntx_tree_begin(t);
    t->used = 0;
    t->strings.err = 0; /* forgets a sticky out-of-memory */
    const ntidx_metadata *m = ev->metadata;
    if (!m || !m->has_fields || m->field_count == 0)
        return NTIDX_OK;
    ntx_plans *ps = t->plans;
    const plan *pl = plan_slot(ps, m);
    if (!ps->interpret_only && plan_is_for(pl, m, tr->gen == NTX_GEN_V6, tr->info.pointer_size == 4 ? 4 : 8) &&
        !pl->interpret) {
        struct {
            pctx c;
            ntx_err scratch; /* the fast path's errors are found again, and said, by decode_slow() */
        } f;
        f.c.sink = NTX_SINK_TREE;
        f.c.t = t;
        f.c.payload = ev->payload;
        f.c.tr = tr;
        f.c.ev = ev;
        f.c.err = &f.scratch;
        f.c.nomem = 0;
        f.c.ready = 0;
        const uint8_t *p = ev->payload;
        if (plan_run(&f.c, pl, m->fields, &p, ev->payload + ev->payload_size, NTX_SINK_TREE) == 0 &&
            (!pl->bool8 || p == ev->payload + ev->payload_size)) {
            t->used = (uint32_t)(p - ev->payload);
            return NTIDX_OK;
        }
    }
    pctx c = {.sink = NTX_SINK_TREE, .t = t, .payload = ev->payload, .err = err, .tr = tr, .ev = ev};
    int rc = decode_slow(&c, ps, m, &t->used);
    if (rc != NTIDX_OK) {
        t->n = 0;
        t->top = 0;
    }
    return rc;
}

/*
 * The formatter's plans: one set per thread (the public calls that format have no handle to keep them in),
 * made at the thread's first payload and freed when it ends.
 */
static pthread_once_t format_plans_once = PTHREAD_ONCE_INIT;
static pthread_key_t format_plans_key;
static int format_plans_keyed; /* 0: no key (pthread_key_create failed): no plans, the interpreter only */
static _Thread_local ntx_plans *format_plans_mine;
static _Thread_local int format_interpret_only;

static void format_plans_end(void *ps) { ntx_plans_free(ps); }

static void format_plans_make_key(void)
{
    format_plans_keyed = pthread_key_create(&format_plans_key, format_plans_end) == 0;
}

static ntx_plans *format_plans(void)
{
    ntx_plans *ps = format_plans_mine;
    if (__builtin_expect(ps != NULL, 1))
        return ps;
    pthread_once(&format_plans_once, format_plans_make_key);
    if (!format_plans_keyed || !(ps = ntx_plans_new()))
        return NULL;
    if (pthread_setspecific(format_plans_key, ps) != 0) {
        ntx_plans_free(ps);
        return NULL;
    }
    return format_plans_mine = ps;
}

void ntx_values_format_interpret_only(int on) { format_interpret_only = on; }

/* The formatter's decode: the same fast path and slow path as the tree's. */
int ntx_values_format(const ntidx_trace *tr, const ntidx_event *ev, ntx_fmt *fm, ntx_err *err)
{
    ntx_fmt_begin(fm);
    const ntidx_metadata *m = ev->metadata;
    if (!m || !m->has_fields || m->field_count == 0)
        return NTIDX_OK;
    ntx_plans *ps = format_interpret_only ? NULL : format_plans();
    if (ps) {
        plan *pl = plan_slot(ps, m);
        if (plan_is_for(pl, m, tr->gen == NTX_GEN_V6, tr->info.pointer_size == 4 ? 4 : 8) && !pl->interpret) {
            struct {
                pctx c;
                ntx_err scratch; /* the fast path's errors are found again, and said, by decode_slow() */
            } f;
            f.c.sink = NTX_SINK_FORMAT;
            f.c.fmt = fm;
            f.c.payload = ev->payload;
            f.c.tr = tr;
            f.c.ev = ev;
            f.c.err = &f.scratch;
            f.c.nomem = 0;
            f.c.ready = 0;
            const uint8_t *p = ev->payload;
            const uint8_t *end = ev->payload + ev->payload_size;
            int rc = plan_keys_valid(pl, tr, m) || plan_keys_make(pl, tr, m) == 0
                         ? plan_run_keyed(&f.c, pl, m->fields, &p, end)
                         : plan_run(&f.c, pl, m->fields, &p, end, NTX_SINK_FORMAT);
            if (rc == 0 && (!pl->bool8 || p == ev->payload + ev->payload_size))
                return NTIDX_OK;
            if (rc < 0 && f.c.nomem)
                return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory decoding a payload");
        }
    }
    pctx c = {.sink = NTX_SINK_FORMAT, .fmt = fm, .payload = ev->payload, .err = err, .tr = tr, .ev = ev};
    uint32_t used;
    return decode_slow(&c, ps, m, &used);
}

/* ------------------------------------------------------------------ */
/* Plans' lifetime                                                     */
/* ------------------------------------------------------------------ */

ntx_plans *ntx_plans_new(void) { return calloc(1, sizeof(ntx_plans)); }

void ntx_plans_free(ntx_plans *ps)
{
    if (!ps)
        return;
    for (int i = 0; i < PLAN_SLOTS; i++) {
        free(ps->slot[i].ops);
        free(ps->slot[i].keys);
        free(ps->slot[i].key_at);
    }
    free(ps);
}

void ntx_plans_interpret_only(ntx_plans *ps, int on) { ps->interpret_only = on; }
