/*
 * Names that name nothing: a provider or event filter no type of the trace
 * answers to gives an empty answer whatever the window, which is most often
 * a misspelt name. The command line, the Python module and the SQL tables
 * say so in the same words, with the trace's closest names
 * (include/ntidx/batch.h: ntidx_type_list_closest(), ntidx_index_check_names()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "error.h"
#include "ntidx/batch.h"
#include "ops_internal.h"
#include "text.h"

/* The name a type answers to as an event: its name, or EventID(N) for one without. */
static const char *event_label(const ntidx_metadata *m, char *tmp, size_t n)
{
    if (m->event_name && m->event_name[0])
        return m->event_name;
    snprintf(tmp, n, "EventID(%u)", m->event_id);
    return tmp;
}

/* A candidate: its text in the pool, how near it is (class, then key), its place in the list. */
typedef struct cand {
    size_t off;
    int cls; /* 0 equal but for case, 1 one holds the other, 2 a few edits away */
    size_t key;
    size_t order;
} cand;

static int cmp_cand(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->cls != y->cls)
        return x->cls < y->cls ? -1 : 1;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* How near `c` is to `name`: 1 with *cls and *key set, 0 when too far to be offered. */
static int nearness(const char *c, const char *name, int *cls, size_t *key)
{
    size_t lc = strlen(c), ln = strlen(name);
    if (!lc || !ln)
        return 0;
    if (ntx_ascii_ieq(c, name)) {
        *cls = 0, *key = 0;
        return 1;
    }
    if (ntx_ascii_istr(c, name) || ntx_ascii_istr(name, c)) {
        *cls = 1, *key = lc > ln ? lc - ln : ln - lc;
        return 1;
    }
    size_t longer = lc > ln ? lc : ln, cap = longer / 3 > 2 ? longer / 3 : 2;
    size_t d = ntx_edit_distance(c, name, cap);
    if (d > cap)
        return 0;
    *cls = 2, *key = d;
    return 1;
}

typedef struct cands {
    ntidx_buf pool; /* the candidates' texts, NUL-terminated */
    cand *v;
    size_t n, cap;
} cands;

static void cands_free(cands *c)
{
    ntidx_buf_free(&c->pool);
    free(c->v);
}

/* Offer `text`, as near as `near` is to `name` (once: a text offered before is passed over); NTIDX_E_NOMEM or 0. */
static int offer(cands *c, const char *text, const char *near, const char *name)
{
    int cls;
    size_t key;
    if (!nearness(near, name, &cls, &key))
        return 0;
    for (size_t i = 0; i < c->n; i++)
        if (!strcmp(c->pool.data + c->v[i].off, text))
            return 0;
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 16;
        cand *nv = realloc(c->v, cap * sizeof *nv);
        if (!nv)
            return NTIDX_E_NOMEM;
        c->v = nv;
        c->cap = cap;
    }
    size_t off = c->pool.len;
    if (ntx_buf_puts(&c->pool, text) < 0 || ntx_buf_u8(&c->pool, 0) < 0)
        return NTIDX_E_NOMEM;
    c->v[c->n] = (cand){off, cls, key, c->n};
    c->n++;
    return 0;
}

/* The provider of the list that `name` starts with, followed by a slash ("Provider/Name"), or NULL. */
static const char *provider_prefix(const ntidx_type_list *l, const char *name)
{
    size_t n = ntidx_type_list_count(l), ln = strlen(name);
    const char *best = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *p = ntidx_type_list_at(l, i)->provider;
        size_t lp = p ? strlen(p) : 0;
        if (!lp || lp >= ln || name[lp] != '/' || (best && strlen(best) >= lp))
            continue;
        size_t k = 0;
        while (k < lp && ntx_ascii_lower((unsigned char)p[k]) == ntx_ascii_lower((unsigned char)name[k]))
            k++;
        if (k == lp)
            best = p; /* the longest: providers may hold slashes too */
    }
    return best;
}

NTIDX_API int ntidx_type_list_closest(const ntidx_type_list *l, ntidx_name_kind kind, const char *name,
                                      const char *provider, size_t max, ntidx_buf *out)
{
    if (!l || !name || !out || (kind != NTIDX_NAME_PROVIDER && kind != NTIDX_NAME_EVENT))
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_type_list_closest: bad argument");
    cands c = {0};
    int rc = 0;
    size_t n = ntidx_type_list_count(l);
    const char *full = kind == NTIDX_NAME_EVENT && !provider ? provider_prefix(l, name) : NULL;
    ntidx_buf text = {0};
    for (size_t i = 0; i < n && rc == 0; i++) {
        const ntidx_metadata *m = ntidx_type_list_at(l, i);
        const char *prov = m->provider ? m->provider : "";
        if (kind == NTIDX_NAME_PROVIDER) {
            rc = offer(&c, prov, prov, name);
            continue;
        }
        if ((provider && !ntx_ascii_ieq(provider, prov)) || (full && !ntx_ascii_ieq(full, prov)))
            continue;
        char tmp[32];
        const char *label = event_label(m, tmp, sizeof tmp);
        if (full) { /* as the name was written, Provider/Name; as near as the names after the provider are */
            ntx_buf_reset(&text);
            ntx_buf_puts(&text, prov);
            ntx_buf_u8(&text, '/');
            ntx_buf_puts(&text, label);
            if (text.err) {
                rc = NTIDX_E_NOMEM;
                break;
            }
            rc = offer(&c, text.data, label, name + strlen(full) + 1);
        } else {
            rc = offer(&c, label, label, name);
        }
    }
    ntidx_buf_free(&text);
    if (rc == 0 && c.n) /* no candidate: no array, which qsort() must not be given */
        qsort(c.v, c.n, sizeof *c.v, cmp_cand);
    /* a name that holds it (or that it holds) is what was meant more often than one a few edits away */
    if (c.n && c.v[0].cls < 2)
        while (c.n && c.v[c.n - 1].cls == 2)
            c.n--;
    size_t given = 0;
    for (size_t i = 0; rc == 0 && i < c.n && given < max; i++, given++)
        if (ntx_buf_puts(out, c.pool.data + c.v[i].off) < 0 || ntx_buf_u8(out, 0) < 0)
            rc = NTIDX_E_NOMEM;
    cands_free(&c);
    if (rc < 0)
        return ntx_failf(NTIDX_E_NOMEM, NULL, NTIDX_NO_OFFSET, "out of memory");
    return (int)given;
}

/* ------------------------------------------------------------------ */
/* A query's filters                                                   */
/* ------------------------------------------------------------------ */

static int answers(const ntidx_metadata *m, const ntidx_query_options *o, int provider, int name, int id)
{
    return (!provider || !o->provider || ntx_ascii_ieq(o->provider, m->provider ? m->provider : "")) &&
           (!name || !o->event_name || ntidx_metadata_matches_name(m, o->event_name)) &&
           (!id || !o->has_event_id || m->event_id == o->event_id);
}

/* Some type of the list answers to the filters chosen (provider, name, id: 1 to look at it). */
static int any_answers(const ntidx_type_list *l, const ntidx_query_options *o, int provider, int name, int id)
{
    size_t n = ntidx_type_list_count(l);
    for (size_t i = 0; i < n; i++)
        if (answers(ntidx_type_list_at(l, i), o, provider, name, id))
            return 1;
    return 0;
}

#define CLOSEST 3      /* names offered */
#define PROVIDERS 6    /* providers (or a provider's events) listed when none is close */

/* Whether the NUL-separated list `names` holds `s`. */
static int listed(const ntidx_buf *names, const char *s)
{
    for (size_t at = 0; at < names->len; at += strlen(names->data + at) + 1)
        if (!strcmp(names->data + at, s))
            return 1;
    return 0;
}

/* " (closest: A, B)" after a name that names nothing; for providers, the trace's providers when none is close. */
static int suggest(const ntidx_type_list *l, ntidx_name_kind kind, const char *name, const char *provider,
                   ntidx_buf *msg)
{
    ntidx_buf names = {0};
    int k = ntidx_type_list_closest(l, kind, name, provider, CLOSEST, &names);
    const char *label = " (closest: ";
    if (k == 0 && (kind == NTIDX_NAME_PROVIDER || provider)) {
        /* nothing near: what there is (a trace has few providers, a provider few events) */
        size_t n = ntidx_type_list_count(l);
        for (size_t i = 0; i < n && !names.err; i++) {
            const ntidx_metadata *m = ntidx_type_list_at(l, i);
            char tmp[32];
            const char *p = m->provider;
            if (kind == NTIDX_NAME_EVENT)
                p = p && ntx_ascii_ieq(p, provider) ? event_label(m, tmp, sizeof tmp) : NULL;
            if (!p || !*p || listed(&names, p))
                continue;
            if (k == PROVIDERS) {
                ntx_buf_puts(&names, "...");
                ntx_buf_u8(&names, 0);
                k++;
                break;
            }
            ntx_buf_puts(&names, p);
            ntx_buf_u8(&names, 0);
            k++;
        }
        label = kind == NTIDX_NAME_PROVIDER ? " (its providers: " : " (the provider's events: ";
        if (names.err)
            k = NTIDX_E_NOMEM;
        else if (!k && kind == NTIDX_NAME_PROVIDER)
            ntx_buf_puts(msg, " (it has no events)");
    }
    if (k < 0) {
        ntidx_buf_free(&names);
        return k;
    }
    if (k > 0) {
        ntx_buf_puts(msg, label);
        for (size_t at = 0; at < names.len; at += strlen(names.data + at) + 1) {
            ntx_buf_puts(msg, at ? ", " : "");
            ntx_buf_puts(msg, names.data + at);
        }
        ntx_buf_puts(msg, ")");
    }
    ntidx_buf_free(&names);
    return 0;
}

/* The message for filters no type answers to (each part a filter that names nothing, or their combination). */
static int describe(const ntidx_type_list *l, const ntidx_query_options *o, ntidx_buf *msg)
{
    int prov_ok = any_answers(l, o, 1, 0, 0), name_ok = any_answers(l, o, 0, 1, 0), id_ok = any_answers(l, o, 0, 0, 1);
    int parts = 0, rc = 0;
    if (!prov_ok) {
        ntx_buf_printf(msg, "no provider '%s' in the trace", o->provider);
        rc = suggest(l, NTIDX_NAME_PROVIDER, o->provider, NULL, msg);
        parts++;
    }
    if (rc == 0 && !name_ok) {
        ntx_buf_printf(msg, "%sno event '%s' in the trace", parts ? "; " : "", o->event_name);
        rc = suggest(l, NTIDX_NAME_EVENT, o->event_name, NULL, msg);
        parts++;
    }
    if (rc == 0 && !id_ok) {
        ntx_buf_printf(msg, "%sno event with id %u in the trace", parts ? "; " : "", o->event_id);
        parts++;
    }
    if (rc == 0 && !parts) {
        /* each filter names something, not together */
        if (o->provider && o->event_name) {
            ntx_buf_printf(msg, "no event '%s' of provider '%s' in the trace", o->event_name, o->provider);
            rc = suggest(l, NTIDX_NAME_EVENT, o->event_name, o->provider, msg);
        } else if (o->provider) {
            ntx_buf_printf(msg, "no event with id %u of provider '%s' in the trace", o->event_id, o->provider);
        } else {
            ntx_buf_printf(msg, "no event '%s' with id %u in the trace", o->event_name, o->event_id);
        }
    }
    return rc < 0 ? rc : msg->err ? NTIDX_E_NOMEM : 0;
}

NTIDX_API int ntidx_index_check_names(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *o,
                                      ntidx_buf *msg)
{
    if (!t || !x || !o || !msg)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET,
                         "ntidx_index_check_names: NULL argument");
    if (!o->provider && !o->event_name && !o->has_event_id)
        return 0;
    /* the definitions first; the types only V6 label lists make when they do not answer */
    ntidx_type_list *l = NULL;
    int rc = ntx_index_types(t, x, 0, 0, &l);
    if (rc == 0 && !any_answers(l, o, 1, 1, 1) && ntidx_trace_get_info(t)->format_version == 6) {
        ntidx_type_list_free(&l);
        rc = ntx_index_types(t, x, 1, 0, &l);
    }
    if (rc < 0)
        return rc; /* published */
    if (any_answers(l, o, 1, 1, 1)) {
        ntidx_type_list_free(&l);
        return 0;
    }
    rc = describe(l, o, msg);
    ntidx_type_list_free(&l);
    if (rc < 0)
        return ntx_failf(rc, ntidx_trace_name(t), NTIDX_NO_OFFSET, "out of memory");
    return 1;
}
