/*
 * Grouped scans of the events table. GROUP BY over columns of few values
 * (provider, event_id, event_name, version, thread, capture_thread, trace),
 * when the statement reads no other column of the table: the table counts
 * the rows of each distinct value tuple as it scans and hands SQLite each
 * tuple as many times as it occurs, groups together (sqlite3_vtab_distinct()
 * said 1), so SQLite aggregates without sorting millions of rows.
 */
#include "sql_events.h"

#include <stdlib.h>
#include <string.h>

/* The interned type of an event's metadata (a small cache by metadata id, then a search by value). */
static int64_t intern_type(ev_cursor *c, const ntidx_metadata *m)
{
    size_t slot = m->id & (TYPE_CACHE - 1);
    if (c->type_cache[slot].m == m && c->type_cache[slot].offset == ntidx_metadata_key(m))
        return c->type_cache[slot].type;
    size_t i = 0;
    for (; i < c->ntypes; i++) {
        const ev_type *t = &c->types[i];
        if (t->event_id == m->event_id && t->version == m->version && !strcmp(t->provider, m->provider) &&
            !strcmp(t->event_name, m->event_name))
            break;
    }
    if (i == c->ntypes) {
        if (c->ntypes == c->cap_types) {
            size_t n = c->cap_types ? c->cap_types * 2 : 64;
            ev_type *v = sqlite3_realloc64(c->types, n * sizeof *v);
            if (!v)
                return -1;
            c->types = v;
            c->cap_types = n;
        }
        ev_type *t = &c->types[c->ntypes];
        t->provider = sqlite3_mprintf("%s", m->provider);
        t->event_name = sqlite3_mprintf("%s", m->event_name);
        t->event_id = m->event_id;
        t->version = m->version;
        c->ntypes++; /* freed by reset() even when a copy failed */
        if (!t->provider || !t->event_name)
            return -1;
    }
    c->type_cache[slot].m = m;
    c->type_cache[slot].offset = ntidx_metadata_key(m); /* derived rows share the offset */
    c->type_cache[slot].type = (uint32_t)i;
    return (int64_t)i;
}

static uint64_t group_hash(const ev_group *g)
{
    uint64_t h = ((uint64_t)g->src << 32 | g->type) * 0x9E3779B97F4A7C15ull;
    h ^= g->thread * 0xC2B2AE3D27D4EB4Full;
    h ^= (g->capture + 0x165667B19E3779F9ull) * 0x27D4EB2F165667C5ull;
    return h ^ (h >> 29);
}

static int same_group(const ev_group *a, const ev_group *b)
{
    return a->src == b->src && a->type == b->type && a->thread == b->thread && a->capture == b->capture;
}

static int group_add(ev_cursor *c, const ev_group *key)
{
    if ((c->ngroups + 1) * 2 > c->cap_groups) {
        size_t n = c->cap_groups ? c->cap_groups * 2 : 1024;
        ev_group *v = sqlite3_malloc64(n * sizeof *v);
        if (!v)
            return SQLITE_NOMEM;
        memset(v, 0, n * sizeof *v);
        for (size_t i = 0; i < c->cap_groups; i++) {
            if (!c->groups[i].count)
                continue;
            size_t k = group_hash(&c->groups[i]) & (n - 1);
            while (v[k].count)
                k = (k + 1) & (n - 1);
            v[k] = c->groups[i];
        }
        sqlite3_free(c->groups);
        c->groups = v;
        c->cap_groups = n;
    }
    size_t k = group_hash(key) & (c->cap_groups - 1);
    while (c->groups[k].count && !same_group(&c->groups[k], key))
        k = (k + 1) & (c->cap_groups - 1);
    if (!c->groups[k].count) {
        c->groups[k] = *key;
        c->ngroups++;
    }
    c->groups[k].count++;
    return SQLITE_OK;
}

/* Groups in the order of the GROUP BY columns, so that equal ones are adjacent. */
static int cmp_group(const void *a, const void *b, void *ctx)
{
    const ev_cursor *c = ctx;
    const ev_group *x = a, *y = b;
    const ev_type *tx = &c->types[x->type], *ty = &c->types[y->type];
    for (const char *g = c->gcols; *g; g++) {
        int r = 0;
        switch (*g - 'a') {
        case C_PROVIDER: r = strcmp(tx->provider, ty->provider); break;
        case C_EVENT_NAME: r = strcmp(tx->event_name, ty->event_name); break;
        case C_EVENT_ID: r = tx->event_id < ty->event_id ? -1 : tx->event_id > ty->event_id; break;
        case C_VERSION: r = tx->version < ty->version ? -1 : tx->version > ty->version; break;
        case C_THREAD: r = x->thread < y->thread ? -1 : x->thread > y->thread; break;
        case C_CAPTURE_THREAD: r = x->capture < y->capture ? -1 : x->capture > y->capture; break;
        case C_TRACE: r = strcmp(c->src[x->src]->path, c->src[y->src]->path); break;
        default: break;
        }
        if (r)
            return r;
    }
    return 0;
}

/* Scan the whole window, count each distinct tuple, then hand them out group by group. */
int nsql_group_scan(ev_cursor *c)
{
    int rc;
    size_t cur_src = (size_t)-1;
    while ((rc = nsql_events_advance(c)) == SQLITE_OK && !c->eof) {
        if ((size_t)c->at != cur_src) { /* metadata of another trace: the cache holds pointers of this one */
            memset(c->type_cache, 0, sizeof c->type_cache);
            cur_src = (size_t)c->at;
        }
        const ntidx_event *e = c->e;
        int64_t type = intern_type(c, e->metadata);
        if (type < 0)
            return SQLITE_NOMEM;
        ev_group key = {(uint32_t)c->at, (uint32_t)type, c->g_thread ? e->thread_id : 0,
                        c->g_capture ? e->capture_thread_id : 0, 0};
        if ((rc = group_add(c, &key)) != SQLITE_OK)
            return rc;
    }
    if (rc != SQLITE_OK)
        return rc;
    /* the table compacted, then sorted by the GROUP BY columns */
    size_t n = 0;
    for (size_t i = 0; i < c->cap_groups; i++)
        if (c->groups[i].count)
            c->groups[n++] = c->groups[i];
    c->ngroups = n;
    qsort_r(c->groups, n, sizeof *c->groups, cmp_group, c);
    c->gi = 0;
    c->g_rowid = 1;
    c->eof = n == 0;
    c->g_left = n ? c->groups[0].count : 0;
    return SQLITE_OK;
}

/* The next row: the same group again, or the next group. */
int nsql_group_next(ev_cursor *c)
{
    c->g_rowid++;
    if (c->g_left > 1) {
        c->g_left--;
        return SQLITE_OK;
    }
    if (++c->gi < c->ngroups)
        c->g_left = c->groups[c->gi].count;
    else
        c->eof = 1;
    return SQLITE_OK;
}

void nsql_group_free(ev_cursor *c)
{
    for (size_t i = 0; i < c->ntypes; i++) {
        sqlite3_free(c->types[i].provider);
        sqlite3_free(c->types[i].event_name);
    }
    sqlite3_free(c->types);
    c->types = NULL;
    c->ntypes = c->cap_types = 0;
    sqlite3_free(c->groups);
    c->groups = NULL;
    c->ngroups = c->cap_groups = c->gi = 0;
    c->g_left = 0;
    c->grouped = c->g_thread = c->g_capture = 0;
}

/* A column of a grouped scan's row: the values of its group. */
int nsql_group_column(ev_cursor *c, sqlite3_context *ctx, int col)
{
    const ev_group *g = &c->groups[c->gi];
    const ev_type *t = &c->types[g->type];
    nsql_source *s = c->src[g->src];
    switch (col) {
    case C_PROVIDER: sqlite3_result_text(ctx, t->provider, -1, SQLITE_TRANSIENT); break;
    case C_EVENT_ID: sqlite3_result_int64(ctx, t->event_id); break;
    case C_EVENT_NAME: sqlite3_result_text(ctx, t->event_name, -1, SQLITE_TRANSIENT); break;
    case C_VERSION: sqlite3_result_int64(ctx, t->version); break;
    case C_THREAD: sqlite3_result_int64(ctx, (sqlite3_int64)g->thread); break;
    case C_CAPTURE_THREAD: sqlite3_result_int64(ctx, (sqlite3_int64)g->capture); break;
    case C_TRACE:
    case C_PATH: sqlite3_result_text(ctx, s->path, -1, SQLITE_TRANSIENT); break;
    case C_INDEX: nsql_result_text(ctx, s->index_path); break;
    default: /* not read by a grouped plan (xBestIndex checked colUsed) */
        sqlite3_result_error(ctx, "ntidx: internal error: a grouped scan was asked for another column", -1);
        break;
    }
    return SQLITE_OK;
}

