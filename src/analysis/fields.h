/*
 * Reading a payload's top-level fields, for the analyses: integers whatever
 * their width and sign, strings with their length. A field the event's
 * version does not have, or of another kind, is reported missing.
 *
 * Two ways. From a decoded payload (ntx_an_int(), ntx_an_str()). Or, for an
 * analysis with lazy_payload, where the field lies (ntx_an_field_int(),
 * ntx_an_field_str()): its place found once per event type
 * (ntx_an_places_of(): decode/field_place.h), its bytes read straight from
 * the payload; a field with no fixed place is read from the payload decoded
 * then (ntx_an_values()), once per event however many fields ask.
 */
#ifndef NTX_ANALYSIS_FIELDS_H
#define NTX_ANALYSIS_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis_internal.h"
#include "error.h"
#include "field_place.h"
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

/* e's payload decoded: the driver's (e->values), or for a lazy_payload analysis decoded now, once per event.
   0 with *v; 1 when the payload does not fit its layout (a field error); < 0 with err set (fields.c). */
int ntx_an_values(const ntx_an_event *e, const ntidx_values **v, ntx_err *err);

/* The places of a few fields of one event type (an analysis keeps one per type it reads this way). */
#define NTX_AN_PLACES_MAX 8
typedef struct ntx_an_places {
    uint64_t key; /* the type they are of: its ntidx_metadata_key() + 1 (0: none yet) */
    ntx_field_place at[NTX_AN_PLACES_MAX];
} ntx_an_places;

/* The places of names[0..n) (n at most NTX_AN_PLACES_MAX) in the layout of m, the type of an event of trace
   t: found when m is not of the type they were found for (known by its key, as every cache of facts per event
   type knows it: a row's address is not enough, as a freed row's memory may hold another), else as they
   were. */
static inline const ntx_field_place *ntx_an_places_of(ntx_an_places *c, const ntidx_trace *t,
                                                      const ntidx_metadata *m, const char *const *names, size_t n)
{
    uint64_t key = ntidx_metadata_key(m) + 1;
    if (c->key != key) {
        for (size_t i = 0; i < n && i < NTX_AN_PLACES_MAX; i++)
            ntx_field_place_of(t, m, names[i], &c->at[i]);
        c->key = key;
    }
    return c->at;
}

/* The integer field `name` of e at place p (from ntx_an_places_of()), or from its payload decoded when the
   field has no fixed place: 1 read, 0 missing (or cut short, or a payload that does not fit its layout: a
   field error either way), < 0 with err set. */
static inline int ntx_an_field_int(const ntx_an_event *e, const ntx_field_place *p, const char *name, int64_t *out,
                                   ntx_err *err)
{
    if (p->kind == NTX_PLACE_UINT || p->kind == NTX_PLACE_INT)
        return ntx_field_place_int(p, e->ev, out);
    const ntidx_values *v;
    int rc = ntx_an_values(e, &v, err);
    if (rc != 0)
        return rc < 0 ? rc : 0;
    return ntx_an_int(v, name, out);
}

/* A buffer an analysis converts strings into (ntx_an_field_str()), grown as needed; freed with free(data). */
typedef struct ntx_an_text {
    char *data;
    size_t cap;
} ntx_an_text;

/* The string field `name` of e at place p, or from its payload decoded when it has no fixed place, as UTF-8
   (the decoder's conversion): 1 with *s (NUL-terminated, in buf or in the decoded values, until the next
   event) and *len; 0 missing (as ntx_an_field_int()); < 0 with err set. */
int ntx_an_field_str(const ntx_an_event *e, const ntx_field_place *p, const char *name, ntx_an_text *buf,
                     const char **s, size_t *len, ntx_err *err);

#endif
