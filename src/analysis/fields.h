/*
 * Reading a decoded payload's top-level fields, for the analyses: integers
 * whatever their width and sign, strings with their length. A field the
 * event's version does not have, or of another kind, is reported missing.
 */
#ifndef NTX_ANALYSIS_FIELDS_H
#define NTX_ANALYSIS_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "ntidx/ntidx.h"

/* An integer field as int64 (UINT fields above INT64_MAX wrap, as C# reads them with signed getters). 1 found,
   0 missing. */
static inline int ntx_an_int(const ntidx_values *v, const char *name, int64_t *out)
{
    const ntidx_value *x = ntidx_values_find(v, name);
    if (!x)
        return 0;
    if (x->kind == NTIDX_VALUE_INT)
        *out = x->i;
    else if (x->kind == NTIDX_VALUE_UINT || x->kind == NTIDX_VALUE_BOOL)
        *out = (int64_t)x->u;
    else
        return 0;
    return 1;
}

/* A string field (UTF-8, *len bytes); NULL when missing. */
static inline const char *ntx_an_str(const ntidx_values *v, const char *name, size_t *len)
{
    const ntidx_value *x = ntidx_values_find(v, name);
    if (!x || x->kind != NTIDX_VALUE_STRING || !x->str)
        return NULL;
    *len = x->len;
    return x->str;
}

#endif
