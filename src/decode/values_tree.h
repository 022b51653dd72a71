/*
 * The value tree: the payload decoder's sink for the public API's
 * ntidx_values (values_tree.c: the handle and its accessors). The values
 * of a payload are a tree in pre-order in one array the handle keeps from
 * event to event; a value is one store of the struct; strings are
 * converted straight into the handle's string storage, where they stay
 * valid UTF-8; nothing is allocated once the handle has grown to the
 * largest event seen. The per-value operations are here, inline, because
 * the decoder's loops call them for every value.
 */
#ifndef NTX_DECODE_VALUES_TREE_H
#define NTX_DECODE_VALUES_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "buf.h"
#include "le.h"
#include "ntidx/ntidx.h"
#include "utf.h"
#include "values_layout.h"
#include "values_sink.h"

/* No value: the last sibling's next, and a depth with no value yet. */
#define NTX_VALUE_NONE UINT32_MAX

/* Containers open at once, at most: the decoder nests 2 * NTX_MAX_FIELD_DEPTH + 2 deep at most. */
#define NTX_TREE_MAX_DEPTH 48

struct ntx_plans;

struct ntidx_values {
    ntidx_value *v;
    size_t n, cap;
    ntidx_buf strings; /* the values' strings, NUL-terminated; STRING values follow it when it grows */
    uint32_t top;      /* top-level values */
    uint32_t used;     /* payload bytes the last decode accounted for */
    uint32_t depth;    /* containers open while a payload is decoded */
    uint32_t last[NTX_TREE_MAX_DEPTH]; /* the last value made at each open depth: the next one is its sibling */
    struct ntx_plans *plans;           /* the plans of event types this handle has decoded (values.c) */
};

/* Room for one more value (values_tree.c); 0, or -1 out of memory. */
int ntx_tree_grow(ntidx_values *t);

/* Room for n more bytes of text; STRING values made so far follow the storage when it moves. 0, or -1. */
int ntx_tree_strings_grow(ntidx_values *t, size_t n);
static inline int ntx_tree_strings_reserve(ntidx_values *t, size_t n)
{
    ntidx_buf *b = &t->strings;
    if (__builtin_expect(!b->err && b->cap > b->len && n < b->cap - b->len, 1))
        return 0;
    return ntx_tree_strings_grow(t, n);
}

/* A payload's decode starts (again): no values, no text. */
static inline void ntx_tree_begin(ntidx_values *t)
{
    t->n = 0;
    t->top = 0;
    t->strings.len = 0;
    t->depth = 0;
    t->last[0] = NTX_VALUE_NONE;
}

/* A new value of field f at payload offset `off`, its kind set, the rest zero, appended (pre-order: after its
   parent and its earlier siblings' subtrees) and linked after its previous sibling; NULL out of memory. */
static inline __attribute__((always_inline)) ntidx_value *ntx_tree_add(ntidx_values *t, const ntidx_field *f,
                                                                      const char *name, uint32_t off, uint8_t kind)
{
    if (t->n == t->cap && ntx_tree_grow(t) < 0)
        return NULL;
    const uint32_t i = (uint32_t)t->n++;
    uint32_t *last = &t->last[t->depth];
    if (*last != NTX_VALUE_NONE)
        t->v[*last].next = i;
    *last = i;
    ntidx_value *v = &t->v[i];
    *v = (ntidx_value){.name = name,
                       .field = f,
                       .kind = kind,
                       .type_code = f->type_code,
                       .payload_offset = off,
                       .next = NTX_VALUE_NONE};
    return v;
}

/* A container's value (added as any value), whose children follow at the next depth. */
static inline int ntx_tree_open(ntidx_values *t, const ntidx_field *f, const char *name, uint32_t off, uint8_t kind,
                                uint32_t count)
{
    ntidx_value *v = ntx_tree_add(t, f, name, off, kind);
    if (!v)
        return -1;
    v->count = count;
    t->last[++t->depth] = NTX_VALUE_NONE; /* the decoder's depth limit keeps this inside last[] */
    return 0;
}

static inline void ntx_tree_close(ntidx_values *t) { t->depth--; }

/* A fixed-size scalar's value by its op at v (its kind, type and size checked by the caller), next as given. */
static inline __attribute__((always_inline)) void ntx_tree_scalar(ntidx_value *v, const char *name,
                                                                  const ntidx_field *f, const ntx_op *op,
                                                                  const uint8_t *p, const uint8_t *payload,
                                                                  uint32_t next)
{
    *v = (ntidx_value){.name = name, .field = f, .payload_offset = (uint32_t)(p - payload), .next = next};
    memcpy(&v->kind, &op->kind, 2); /* and type_code */
    switch (op->op) {
    case NTX_OP_U8: v->u = *p; break;
    case NTX_OP_S8: v->i = (int8_t)*p; break;
    case NTX_OP_B8: v->u = *p != 0; break;
    case NTX_OP_U16: v->u = ntx_load16(p); break;
    case NTX_OP_S16: v->i = (int16_t)ntx_load16(p); break;
    case NTX_OP_U32: v->u = ntx_load32(p); break;
    case NTX_OP_S32: v->i = (int32_t)ntx_load32(p); break;
    case NTX_OP_B32: v->u = ntx_load32(p) != 0; break;
    case NTX_OP_U64: v->u = ntx_load64(p); break;
    case NTX_OP_S64: v->i = (int64_t)ntx_load64(p); break;
    case NTX_OP_F32: {
        float x;
        memcpy(&x, p, 4);
        v->f = x;
        break;
    }
    case NTX_OP_F64: memcpy(&v->f, p, 8); break;
    case NTX_OP_FILETIME:
        v->bytes = p;
        v->len = 8;
        v->i = ntx_filetime_ticks((int64_t)ntx_load64(p));
        break;
    case NTX_OP_SYSTEMTIME:
        v->bytes = p;
        v->len = 16;
        v->i = ntx_systemtime_ticks(p);
        break;
    case NTX_OP_BYTES16:
        v->bytes = p;
        v->len = 16;
        break;
    default: __builtin_unreachable(); /* the decoder gives a scalar's op only to a scalar */
    }
}

/* v's text: `units` UTF-16 code units at s (converted: always valid UTF-8); -1 out of memory. */
static inline int ntx_tree_put_utf16(ntidx_values *t, ntidx_value *v, const uint8_t *s, size_t units)
{
    if (ntx_tree_strings_reserve(t, ntx_utf8_bound(units)) != 0)
        return -1;
    ntidx_buf *b = &t->strings;
    size_t at = b->len, n = ntx_utf16_to_utf8(s, units, b->data + at); /* writes the NUL */
    b->len += n + 1;
    v->str = b->data + at;
    v->len = n;
    return 0;
}

/* v's text: `n` bytes of 8-bit text at s, kept as valid UTF-8 (what JSON would show: a byte that starts no
   valid sequence becomes U+FFFD); -1 out of memory (values_tree.c). */
int ntx_tree_put_utf8(ntidx_values *t, ntidx_value *v, const uint8_t *s, size_t n);

#endif
