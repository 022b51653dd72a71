/*
 * Grouped scans of the events table. GROUP BY over columns of few values
 * (provider, event_id, event_name, version, thread, capture_thread, trace),
 * when the statement reads no other column of the table: the table counts
 * the rows of each distinct value tuple as it scans and hands SQLite each
 * tuple as many times as it occurs, groups together (sqlite3_vtab_distinct()
 * said 1), so SQLite aggregates without sorting millions of rows.
 *
 * Counts by type alone over whole traces (no thread split, no thread filter,
 * no window) come from the library's statistics, a block of event headers at
 * a time; the rest is counted event by event through the query.
 */
#include "sql_events.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * The interned event types live as long as the cursor, not one scan: the
 * rows hand their names to SQLite as SQLITE_STATIC (no copy per row), and
 * SQLite may still hold the last group's name in a register when it runs
 * the scan again (a join's inner loop).
 */
static int64_t intern_names(ev_cursor *c, const char *provider, const char *event_name, uint32_t event_id,
                            uint32_t version)
{
    size_t i = 0;
    for (; i < c->ntypes; i++) {
        const ev_type *t = &c->types[i];
        if (t->event_id == event_id && t->version == version && !strcmp(t->provider, provider) &&
            !strcmp(t->event_name, event_name))
            return (int64_t)i;
    }
    if (c->ntypes == c->cap_types) {
        size_t n = c->cap_types ? c->cap_types * 2 : 64;
        ev_type *v = sqlite3_realloc64(c->types, n * sizeof *v);
        if (!v)
            return -1;
        c->types = v;
        c->cap_types = n;
    }
    ev_type *t = &c->types[c->ntypes];
    t->provider = sqlite3_mprintf("%s", provider);
    t->event_name = sqlite3_mprintf("%s", event_name);
    t->event_id = event_id;
    t->version = version;
    c->ntypes++; /* freed by nsql_group_free() even when a copy failed */
    if (!t->provider || !t->event_name)
        return -1;
    t->provider_len = (int)strlen(t->provider);
    t->event_name_len = (int)strlen(t->event_name);
    return (int64_t)i;
}

/* The interned type of an event's metadata (a small cache by metadata id, then a search by value). */
static int64_t intern_type(ev_cursor *c, const ntidx_metadata *m)
{
    size_t slot = m->id & (TYPE_CACHE - 1);
    if (c->type_cache[slot].m == m && c->type_cache[slot].offset == ntidx_metadata_key(m))
        return c->type_cache[slot].type;
    int64_t i = intern_names(c, m->provider, m->event_name, m->event_id, m->version);
    if (i < 0)
        return -1;
    c->type_cache[slot].m = m;
    c->type_cache[slot].offset = ntidx_metadata_key(m); /* derived rows share the offset */
    c->type_cache[slot].type = (uint32_t)i;
    return i;
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

/* Count `n` more rows of `key`'s group. */
static int group_add(ev_cursor *c, const ev_group *key, uint64_t n)
{
    /* events come in runs of one thread and type: the previous event's slot first */
    if (c->last_slot && same_group(&c->groups[c->last_slot - 1], key)) {
        c->groups[c->last_slot - 1].count += n;
        return SQLITE_OK;
    }
    if ((c->ngroups + 1) * 2 > c->cap_groups) {
        size_t cap = c->cap_groups ? c->cap_groups * 2 : 1024;
        ev_group *v = sqlite3_malloc64(cap * sizeof *v);
        if (!v)
            return SQLITE_NOMEM;
        memset(v, 0, cap * sizeof *v);
        for (size_t i = 0; i < c->cap_groups; i++) {
            if (!c->groups[i].count)
                continue;
            size_t k = group_hash(&c->groups[i]) & (cap - 1);
            while (v[k].count)
                k = (k + 1) & (cap - 1);
            v[k] = c->groups[i];
        }
        sqlite3_free(c->groups);
        c->groups = v;
        c->cap_groups = cap;
    }
    size_t k = group_hash(key) & (c->cap_groups - 1);
    while (c->groups[k].count && !same_group(&c->groups[k], key))
        k = (k + 1) & (c->cap_groups - 1);
    if (!c->groups[k].count) {
        c->groups[k] = *key;
        c->ngroups++;
    }
    c->groups[k].count += n;
    c->last_slot = k + 1;
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
        case C_PROVIDER: /* equal as the column compares (NOCASE) is adjacent; exact spellings apart within */
            r = sqlite3_stricmp(tx->provider, ty->provider);
            if (!r)
                r = strcmp(tx->provider, ty->provider);
            break;
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

/* Count event by event, through the query: what any plan can do (a window, thread filters, thread splits). */
static int count_events(ev_cursor *c)
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
        if ((rc = group_add(c, &key, 1)) != SQLITE_OK)
            return rc;
    }
    return rc;
}

/*
 * Regions per call of the statistics: enough bytes that a call's start costs
 * nothing beside them, few enough that the progress bar moves and a cancel
 * is heard within a fraction of a second.
 */
#define STATS_CHUNK_BYTES (64ull << 20)

static int library_error(ev_cursor *c)
{
    c->eof = 1;
    return nsql_library_fail(&c->vt->base, c->conn);
}

/* The statistics of some regions of source `src` (NULL: all of them) added to the groups. */
static int count_regions(ev_cursor *c, int src, const uint64_t *regions, size_t n, uint64_t region_bytes,
                         uint64_t *done)
{
    nsql_source *s = c->src[src];
    ntidx_stats_options o;
    ntidx_stats_options_defaults(&o);
    o.threads = 1; /* the statement's own thread: an extension does not take its host's cores unasked */
    o.regions = regions;
    o.region_count = n;
    ntidx_stats *st = NULL;
    const ntidx_index *used = s->index;
    int lrc = ntidx_stats_indexed(s->trace, used, &o, &st);
    if (nsql_source_recover(s, used, lrc)) /* the same trace: the rebuilt index has the same regions */
        lrc = ntidx_stats_indexed(s->trace, s->index, &o, &st);
    if (lrc < 0)
        return library_error(c);
    int rc = SQLITE_OK;
    for (size_t i = 0; i < st->type_count && rc == SQLITE_OK; i++) {
        const ntidx_type_stat *t = &st->types[i];
        if (!t->count || (c->nsets && !nsql_type_passes(c, t->provider, t->event_name, t->event_id)))
            continue;
        int64_t type = intern_names(c, t->provider, t->event_name, t->event_id, t->version);
        ev_group key = {(uint32_t)src, (uint32_t)type, 0, 0, 0};
        rc = type < 0 ? SQLITE_NOMEM : group_add(c, &key, t->count);
    }
    c->bytes += st->reader.bytes_read;
    if (c->conn->last_scan == c)
        c->conn->last_bytes = c->bytes;
    ntidx_stats_free(&st);
    *done += region_bytes;
    if (rc == SQLITE_OK && c->total_bytes && c->conn->hooks.progress &&
        c->conn->hooks.progress(c->conn->hooks.ctx, "ntidx: scanning", *done, c->total_bytes)) {
        c->eof = 1;
        return nsql_vtab_error(&c->vt->base, sqlite3_mprintf("ntidx: cancelled"));
    }
    return rc;
}

/*
 * Count by type over whole traces: the library's statistics, which count
 * each type from the event headers of a block at a time (or from a --full
 * index), without an event handed out one by one. Exactly what `ntidx stats`
 * counts, which is what the per-event scan counts too (tests/sql).
 */
static int count_types(ev_cursor *c)
{
    uint64_t done = 0;
    for (int src = 0; src < c->nsrc; src++) {
        nsql_source *s = c->src[src];
        uint64_t nreg = ntidx_index_region_count(s->index);
        uint64_t *list = nreg ? sqlite3_malloc64(nreg * sizeof *list) : NULL, *bytes = NULL;
        if (nreg && (!list || !(bytes = sqlite3_malloc64(nreg * sizeof *bytes)))) {
            sqlite3_free(list);
            return SQLITE_NOMEM;
        }
        int whole = nreg == 0;
        for (uint64_t r = 0; r < nreg; r++) {
            ntidx_region rg;
            if (ntidx_index_region(s->index, r, &rg) < 0) {
                whole = 1; /* a region fails its check: one call over all of them, which rebuilds the index */
                break;
            }
            list[r] = r;
            bytes[r] = rg.bytes;
        }
        int rc = SQLITE_OK;
        if (whole) {
            rc = count_regions(c, src, NULL, 0, 0, &done);
        } else {
            for (uint64_t r = 0; r < nreg && rc == SQLITE_OK;) {
                uint64_t first = r, b = 0;
                while (r < nreg && (r == first || b + bytes[r] <= STATS_CHUNK_BYTES))
                    b += bytes[r++];
                rc = count_regions(c, src, list + first, (size_t)(r - first), b, &done);
            }
        }
        sqlite3_free(list);
        sqlite3_free(bytes);
        if (rc != SQLITE_OK)
            return rc;
    }
    nsql_progress_end(c);
    return SQLITE_OK;
}

/* Scan the whole window, count each distinct tuple, then hand them out group by group. */
int nsql_group_scan(ev_cursor *c)
{
    int whole_traces = c->t0 == 0 && c->t1 == UINT64_MAX && c->s_lo == -INFINITY && c->s_hi == INFINITY;
    int rc = whole_traces && !c->g_thread && !c->g_capture && !nsql_thread_filtered(c) ? count_types(c)
                                                                                        : count_events(c);
    if (rc != SQLITE_OK)
        return rc;
    /* the table compacted, then sorted by the GROUP BY columns */
    size_t n = 0;
    for (size_t i = 0; i < c->cap_groups; i++)
        if (c->groups[i].count)
            c->groups[n++] = c->groups[i];
    c->ngroups = n;
    c->last_slot = 0; /* no longer a hash table */
    if (n) /* no group: no table at all (NULL), which qsort_r() must not be given */
        qsort_r(c->groups, n, sizeof *c->groups, cmp_group, c);
    c->gi = 0;
    c->g_rowid = 1;
    c->eof = n == 0;
    if (!n)
        nsql_nothing_found(c);
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

void nsql_group_reset(ev_cursor *c)
{
    sqlite3_free(c->groups);
    c->groups = NULL;
    c->ngroups = c->cap_groups = c->gi = c->last_slot = 0;
    c->g_left = 0;
    c->grouped = c->g_thread = c->g_capture = 0;
    memset(c->type_cache, 0, sizeof c->type_cache);
}

void nsql_group_free(ev_cursor *c)
{
    nsql_group_reset(c);
    for (size_t i = 0; i < c->ntypes; i++) {
        sqlite3_free(c->types[i].provider);
        sqlite3_free(c->types[i].event_name);
    }
    sqlite3_free(c->types);
    c->types = NULL;
    c->ntypes = c->cap_types = 0;
}

/* A column of a grouped scan's row: the values of its group. */
int nsql_group_column(ev_cursor *c, sqlite3_context *ctx, int col)
{
    const ev_group *g = &c->groups[c->gi];
    const ev_type *t = &c->types[g->type];
    switch (col) {
    case C_PROVIDER: sqlite3_result_text(ctx, t->provider, t->provider_len, SQLITE_STATIC); break;
    case C_EVENT_ID: sqlite3_result_int64(ctx, t->event_id); break;
    case C_EVENT_NAME: sqlite3_result_text(ctx, t->event_name, t->event_name_len, SQLITE_STATIC); break;
    case C_VERSION: sqlite3_result_int64(ctx, t->version); break;
    case C_THREAD: sqlite3_result_int64(ctx, (sqlite3_int64)g->thread); break;
    case C_CAPTURE_THREAD: sqlite3_result_int64(ctx, (sqlite3_int64)g->capture); break;
    case C_TRACE:
    case C_PATH: sqlite3_result_text(ctx, c->src[g->src]->path, -1, SQLITE_TRANSIENT); break;
    case C_INDEX: nsql_result_text(ctx, c->src[g->src]->index_path); break;
    default: /* not read by a grouped plan (xBestIndex checked colUsed) */
        sqlite3_result_error(ctx, "ntidx: internal error: a grouped scan was asked for another column", -1);
        break;
    }
    return SQLITE_OK;
}

