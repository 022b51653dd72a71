/*
 * Whole-trace statistics by a full decode: counts per event type and per
 * thread, time span, dropped events. This is what `ntidx stats` does when
 * no index can answer, so it is on the hot path: per event, one lookup for
 * the type (cached across runs of the same metadata) and one for the thread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "idmap.h"
#include "ntidx/ntidx.h"

typedef struct stats_impl {
    ntidx_stats pub;
    ntx_arena arena;
    ntidx_type_stat *types;
    ntidx_thread_stat *threads;
    ntidx_dropped *dropped;
    char reason[600];
} stats_impl;

typedef struct collector {
    stats_impl *st;
    ntx_idmap by_definition; /* metadata definition offset -> type index + 1 */
    ntx_idmap by_thread;     /* thread -> thread index + 1 */
    ntidx_type_stat *types;
    size_t ntypes, captypes;
    ntidx_thread_stat *threads;
    size_t nthreads, capthreads;
} collector;

static int same_type(const ntidx_type_stat *a, const ntidx_metadata *m)
{
    return a->event_id == m->event_id && a->version == m->version && !strcmp(a->provider, m->provider) &&
           !strcmp(a->event_name, m->event_name ? m->event_name : "");
}

/* Type index of a metadata definition; definitions of the same type share one. */
static long type_of(collector *c, const ntidx_metadata *m)
{
    void *v = ntx_idmap_get(&c->by_definition, m->offset);
    if (v)
        return (long)((uintptr_t)v - 1);
    size_t i;
    for (i = 0; i < c->ntypes; i++) /* new definitions are rare: a linear search is fine */
        if (same_type(&c->types[i], m))
            break;
    if (i == c->ntypes) {
        if (c->ntypes == c->captypes) {
            size_t n = c->captypes ? c->captypes * 2 : 64;
            ntidx_type_stat *nt = realloc(c->types, n * sizeof *nt);
            if (!nt)
                return -1;
            c->types = nt;
            c->captypes = n;
        }
        ntidx_type_stat *s = &c->types[c->ntypes++];
        memset(s, 0, sizeof *s);
        s->provider = ntx_arena_strndup(&c->st->arena, m->provider, strlen(m->provider));
        const char *name = m->event_name ? m->event_name : "";
        s->event_name = ntx_arena_strndup(&c->st->arena, name, strlen(name));
        if (!s->provider || !s->event_name)
            return -1;
        s->event_id = m->event_id;
        s->version = m->version;
        s->first_ts = UINT64_MAX;
    }
    if (ntx_idmap_put(&c->by_definition, m->offset, (void *)(uintptr_t)(i + 1)) != 0)
        return -1;
    return (long)i;
}

static ntidx_thread_stat *thread_of(collector *c, uint64_t thread)
{
    void *v = ntx_idmap_get(&c->by_thread, thread);
    if (v)
        return &c->threads[(uintptr_t)v - 1];
    if (c->nthreads == c->capthreads) {
        size_t n = c->capthreads ? c->capthreads * 2 : 64;
        ntidx_thread_stat *nt = realloc(c->threads, n * sizeof *nt);
        if (!nt)
            return NULL;
        c->threads = nt;
        c->capthreads = n;
    }
    ntidx_thread_stat *s = &c->threads[c->nthreads++];
    s->thread = thread;
    s->count = 0;
    if (ntx_idmap_put(&c->by_thread, thread, (void *)(uintptr_t)c->nthreads) != 0)
        return NULL;
    return s;
}

static int cmp_type(const void *a, const void *b)
{
    const ntidx_type_stat *x = a, *y = b;
    int r = strcmp(x->provider, y->provider);
    if (r)
        return r;
    if (x->event_id != y->event_id)
        return x->event_id < y->event_id ? -1 : 1;
    if (x->version != y->version)
        return x->version < y->version ? -1 : 1;
    return strcmp(x->event_name, y->event_name);
}

static int cmp_thread(const void *a, const void *b)
{
    const ntidx_thread_stat *x = a, *y = b;
    return x->thread < y->thread ? -1 : x->thread > y->thread;
}

NTIDX_API int ntidx_stats_compute(ntidx_trace *t, ntidx_stats **out, char *err, size_t errlen)
{
    if (!t || !out)
        return NTIDX_E_INVALID_ARG;
    *out = NULL;
    if (err && errlen)
        err[0] = 0;
    stats_impl *st = calloc(1, sizeof *st);
    if (!st)
        return NTIDX_E_NOMEM;
    ntx_arena_init(&st->arena);
    collector c = {.st = st};
    ntx_idmap_init(&c.by_definition);
    ntx_idmap_init(&c.by_thread);
    ntidx_reader *r = NULL;
    int rc = ntidx_reader_open(&r, t, NULL);
    const ntidx_event *e;
    uint64_t lo = UINT64_MAX, hi = 0, events = 0, payload = 0;
    /* Runs of events share a definition and a thread: cache both. Definitions are
       keyed by file offset, unique per definition, never by pointer (a flush frees
       metadata and a new row may reuse the address). */
    uint64_t last_def = UINT64_MAX, last_tid = 0;
    long last_type = -1, last_thread = -1;
    while (rc == 0 && (rc = ntidx_reader_next(r, &e)) == 1) {
        rc = 0;
        long ti = last_type;
        if (e->metadata->offset != last_def) {
            ti = type_of(&c, e->metadata);
            if (ti < 0) {
                rc = NTIDX_E_NOMEM;
                break;
            }
            last_def = e->metadata->offset;
            last_type = ti;
        }
        ntidx_type_stat *ts = &c.types[ti];
        ts->count++;
        ts->payload_bytes += e->payload_size;
        if (e->timestamp < ts->first_ts)
            ts->first_ts = e->timestamp;
        if (last_thread < 0 || e->thread_id != last_tid) {
            ntidx_thread_stat *th = thread_of(&c, e->thread_id);
            if (!th) {
                rc = NTIDX_E_NOMEM;
                break;
            }
            last_thread = th - c.threads;
            last_tid = e->thread_id;
        }
        c.threads[last_thread].count++;
        events++;
        payload += e->payload_size;
        if (e->timestamp < lo)
            lo = e->timestamp;
        if (e->timestamp > hi)
            hi = e->timestamp;
    }
    if (rc < 0) {
        if (err && errlen && r)
            snprintf(err, errlen, "%s", ntidx_reader_error(r));
        goto fail;
    }
    ntidx_stats *p = &st->pub;
    const ntidx_trace_info *in = ntidx_trace_get_info(t);
    p->format_version = in->format_version;
    p->complete = ntidx_reader_complete(r);
    snprintf(st->reason, sizeof st->reason, "%s", p->complete ? "" : ntidx_reader_error(r));
    p->incomplete_reason = st->reason;
    p->events = events;
    p->first_ts = events ? lo : 0;
    p->last_ts = events ? hi : 0;
    p->sync_ticks = in->sync_ticks;
    p->tick_frequency = in->tick_frequency;
    p->payload_bytes = payload;
    p->reader = *ntidx_reader_get_stats(r);
    p->dropped_events = p->reader.dropped_events;
    const ntidx_dropped *dl;
    size_t dn;
    if ((rc = ntidx_reader_dropped(r, &dl, &dn)) < 0)
        goto fail;
    if (dn) {
        st->dropped = malloc(dn * sizeof *dl);
        if (!st->dropped) {
            rc = NTIDX_E_NOMEM;
            goto fail;
        }
        memcpy(st->dropped, dl, dn * sizeof *dl);
    }
    p->dropped = st->dropped;
    p->dropped_count = dn;
    if (c.ntypes)
        qsort(c.types, c.ntypes, sizeof *c.types, cmp_type);
    if (c.nthreads)
        qsort(c.threads, c.nthreads, sizeof *c.threads, cmp_thread);
    st->types = c.types;
    st->threads = c.threads;
    p->types = c.types;
    p->type_count = c.ntypes;
    p->threads = c.threads;
    p->thread_count = c.nthreads;
    ntx_idmap_free(&c.by_definition);
    ntx_idmap_free(&c.by_thread);
    ntidx_reader_close(&r);
    *out = p;
    return NTIDX_OK;
fail:
    ntx_idmap_free(&c.by_definition);
    ntx_idmap_free(&c.by_thread);
    free(c.types);
    free(c.threads);
    ntidx_reader_close(&r);
    ntx_arena_free(&st->arena);
    free(st->dropped);
    free(st);
    return rc;
}

NTIDX_API void ntidx_stats_free(ntidx_stats **sp)
{
    if (!sp || !*sp)
        return;
    stats_impl *st = (stats_impl *)*sp; /* pub is the first member */
    ntx_arena_free(&st->arena);
    free(st->types);
    free(st->threads);
    free(st->dropped);
    free(st);
    *sp = NULL;
}
