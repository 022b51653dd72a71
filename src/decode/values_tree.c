/*
 * The value tree (values_tree.h): the public handle ntidx_values, which the
 * payload decoder (values.c) fills as one of its two sinks, and the calls
 * that walk it. The values are a tree in pre-order: a container's children
 * follow it, and each value knows its next sibling.
 */
#include "values_tree.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "trace_internal.h"
#include "values.h"

#define NONE NTX_VALUE_NONE

int ntx_tree_grow(ntidx_values *t)
{
    size_t cap = t->cap ? t->cap * 2 : 32;
    ntidx_value *nv = cap < NONE ? realloc(t->v, cap * sizeof *nv) : NULL;
    if (!nv)
        return -1;
    t->v = nv;
    t->cap = cap;
    return 0;
}

/* The strings' storage moved (it grew from `old`): the STRING values made so far follow it. The value
   being made has no text yet (str NULL) and is left alone. */
static void strings_moved(ntidx_values *t, const char *old)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->v[i].kind == NTIDX_VALUE_STRING && t->v[i].str)
            t->v[i].str = t->strings.data + ((uintptr_t)t->v[i].str - (uintptr_t)old);
}

int ntx_tree_strings_grow(ntidx_values *t, size_t n)
{
    ntidx_buf *b = &t->strings;
    const char *old = b->data;
    if (ntx_buf_reserve(b, n) != 0)
        return -1;
    if (b->data != old)
        strings_moved(t, old);
    return 0;
}

int ntx_tree_put_utf8(ntidx_values *t, ntidx_value *v, const uint8_t *s, size_t n)
{
    ntidx_buf *b = &t->strings;
    size_t at = b->len;
    const char *old = b->data;
    if (ntx_buf_utf8(b, (const char *)s, n) != 0 || ntx_buf_u8(b, 0) != 0)
        return -1;
    if (b->data != old)
        strings_moved(t, old);
    v->str = b->data + at;
    v->len = b->len - at - 1;
    return 0;
}

NTIDX_API int ntidx_values_new(ntidx_values **out)
{
    if (!out)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_values_new: NULL argument");
    *out = calloc(1, sizeof **out);
    if (*out && !((*out)->plans = ntx_plans_new())) {
        free(*out);
        *out = NULL;
    }
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
    ntx_plans_free((*vp)->plans);
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

void ntx_values_interpret_only(ntidx_values *v, int on) { ntx_plans_interpret_only(v->plans, on); }

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
    /* the first byte compared inline first: the analyses look fields up by name in every event they read, and
       most names differ there (a strcmp() call per field was a tenth of the GC analysis's time) */
    for (uint32_t i = t && t->n && name ? 0 : NONE; i != NONE; i = t->v[i].next) {
        const char *n = t->v[i].name;
        if (n && n[0] == name[0] && !strcmp(n, name))
            return &t->v[i];
    }
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
