/*
 * Region statistics in --full indexes.
 *
 * A statistics worker reads one sequence-point region at a time and adds
 * its events to counts per type and per thread, a time span, dropped events
 * per capture thread and the event blocks it read (stats_parallel.c). A
 * --full index stores exactly that, per region, computed by the same
 * function when the index is built. Statistics over a window then take the
 * regions that lie wholly inside it from the index and decode only the ones
 * at its edges: the result is the same byte for byte, and a whole-trace
 * `ntidx stats` or `ntidx top` reads no event block at all.
 *
 * Layout (index_format.h, docs/index-format.md): REGION_STATS, one entry
 * per region pointing at its runs of TYPE_COUNTS, THREAD_COUNTS and
 * DROP_COUNTS entries; provider and event names in STRINGS, each stored
 * once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "index_internal.h"
#include "stats_internal.h"

static void st32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void st64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

int ntx_index_has_summaries(const ntidx_index *x) { return x->rstats != NULL; }

/* Strings stored once: offset of `s` in STRINGS, added when new. */
typedef struct interner {
    ntx_bytes *pool;
    ntx_idmap at; /* xxh3 of the string -> offset + 1 (a collision falls back to appending) */
} interner;

static int intern(interner *in, const char *s, uint64_t *off)
{
    size_t n = strlen(s);
    uint64_t h = ntx_xxh3(s, n);
    void *v = ntx_idmap_get(&in->at, h);
    if (v) {
        uint64_t o = (uintptr_t)v - 1;
        if (o + n < in->pool->len && !memcmp(in->pool->data + o, s, n + 1)) {
            *off = o;
            return 0;
        }
    }
    uint8_t *p = ntx_bytes_append(in->pool, n + 1);
    if (!p)
        return NTIDX_E_NOMEM;
    memcpy(p, s, n + 1);
    *off = in->pool->len - n - 1;
    if (!v && ntx_idmap_put(&in->at, h, (void *)(uintptr_t)(*off + 1)) != 0)
        return NTIDX_E_NOMEM;
    return 0;
}

static void bind(ntidx_index *x)
{
    ntx_bytes *o = x->own;
    x->rstats = o[NTX_OWN_RSTATS].data;
    x->srst = NTX_RSTAT_ENTRY;
    x->tcounts = o[NTX_OWN_TCOUNTS].data;
    x->ntcounts = o[NTX_OWN_TCOUNTS].len / NTX_TCOUNT_ENTRY;
    x->stc = NTX_TCOUNT_ENTRY;
    x->thcounts = o[NTX_OWN_THCOUNTS].data;
    x->nthcounts = o[NTX_OWN_THCOUNTS].len / NTX_THCOUNT_ENTRY;
    x->sthc = NTX_THCOUNT_ENTRY;
    x->dcounts = o[NTX_OWN_DCOUNTS].data;
    x->ndcounts = o[NTX_OWN_DCOUNTS].len / NTX_DCOUNT_ENTRY;
    x->sdc = NTX_DCOUNT_ENTRY;
    x->strings = o[NTX_OWN_STRINGS].data;
    x->strings_len = o[NTX_OWN_STRINGS].len;
}

int ntx_index_summarize(ntidx_trace *t, ntidx_index *x, const ntidx_index_options *o, ntx_err *err)
{
    ntx_bytes *own = x->own;
    interner in = {&own[NTX_OWN_STRINGS], {0}};
    ntx_idmap_init(&in.at);
    int rc = 0;
    uint64_t empty_off;
    /* A pool that is never empty (the empty string first): its last byte is always a NUL. */
    if (intern(&in, "", &empty_off) < 0)
        rc = ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    for (uint64_t r = 0; rc == 0 && r < x->nregions; r++) {
        ntx_stats_accum a;
        ntx_drop_map d;
        ntidx_reader_stats rs;
        memset(&rs, 0, sizeof rs);
        char why[NTX_ERRMSG_MAX] = "";
        if ((rc = ntx_stats_accum_init(&a)) < 0) {
            rc = ntx_err_set(err, rc, "out of memory");
            break;
        }
        ntx_drop_map_init(&d);
        rc = ntx_region_stats(t, x, r, 0, UINT64_MAX, &a, &d, NULL, &rs, why, sizeof why);
        if (rc < 0)
            rc = ntx_err_set(err, rc, "statistics of region %llu: %s", (unsigned long long)r, why);
        uint8_t *e = rc ? NULL : ntx_bytes_append(&own[NTX_OWN_RSTATS], NTX_RSTAT_ENTRY);
        if (!rc && !e)
            rc = ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
        if (!rc) {
            st64(e, own[NTX_OWN_TCOUNTS].len / NTX_TCOUNT_ENTRY);
            st32(e + 8, (uint32_t)a.ntypes);
            st32(e + 12, (uint32_t)a.nthreads);
            st64(e + 16, own[NTX_OWN_THCOUNTS].len / NTX_THCOUNT_ENTRY);
            st64(e + 24, own[NTX_OWN_DCOUNTS].len / NTX_DCOUNT_ENTRY);
            st32(e + 32, (uint32_t)d.n);
            st32(e + 36, (uint32_t)rs.blocks[NTIDX_BLOCK_EVENT]);
            st64(e + 40, a.events);
            st64(e + 48, a.lo);
            st64(e + 56, a.hi);
        }
        for (size_t i = 0; rc == 0 && i < a.ntypes; i++) {
            const ntidx_type_stat *ts = &a.types[i];
            uint64_t po, no;
            uint8_t *p = ntx_bytes_append(&own[NTX_OWN_TCOUNTS], NTX_TCOUNT_ENTRY);
            if (!p || intern(&in, ts->provider, &po) < 0 || intern(&in, ts->event_name, &no) < 0) {
                rc = ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
                break;
            }
            st64(p, po);
            st64(p + 8, no);
            st32(p + 16, ts->event_id);
            st32(p + 20, ts->version);
            st64(p + 24, ts->count);
            st64(p + 32, ts->first_ts);
            st64(p + 40, ts->payload_bytes);
        }
        for (size_t i = 0; rc == 0 && i < a.nthreads; i++) {
            uint8_t *p = ntx_bytes_append(&own[NTX_OWN_THCOUNTS], NTX_THCOUNT_ENTRY);
            if (!p) {
                rc = ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
                break;
            }
            st64(p, a.threads[i].thread);
            st64(p + 8, a.threads[i].count);
        }
        for (size_t i = 0; rc == 0 && i < d.n; i++) {
            uint8_t *p = ntx_bytes_append(&own[NTX_OWN_DCOUNTS], NTX_DCOUNT_ENTRY);
            if (!p) {
                rc = ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
                break;
            }
            st64(p, d.v[i].capture_thread);
            st64(p + 8, d.v[i].capture_thread_id);
            st64(p + 16, d.v[i].dropped);
        }
        ntx_stats_accum_discard(&a);
        ntx_drop_map_free(&d);
        if (rc == 0 && o && o->progress && r + 1 < x->nregions &&
            o->progress(o->progress_ctx, ntx_blk_offset(x, ntx_rg_end(x, r) - 1), t->size))
            rc = ntx_err_set(err, NTIDX_E_INVALID_ARG, "cancelled");
    }
    ntx_idmap_free(&in.at);
    /* NULs up to a multiple of 8: no padding after the section that no checksum would cover. */
    while (rc == 0 && own[NTX_OWN_STRINGS].len % 8)
        if (!ntx_bytes_append(&own[NTX_OWN_STRINGS], 1))
            rc = ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    if (rc < 0)
        return rc;
    bind(x);
    return 0;
}

int ntx_index_summary_merge(const ntidx_index *x, uint64_t r, ntx_stats_accum *a, ntx_drop_map *drops,
                            ntidx_reader_stats *rs)
{
    /* A view of the stored region as an accumulator, merged like a worker's. */
    const uint8_t *e = x->rstats + r * x->srst;
    uint64_t t0 = ntx_load64(e), th0 = ntx_load64(e + 16), d0 = ntx_load64(e + 24);
    uint32_t nt = ntx_load32(e + 8), nth = ntx_load32(e + 12), nd = ntx_load32(e + 32);
    ntx_stats_accum v;
    memset(&v, 0, sizeof v);
    v.types = malloc((nt ? nt : 1) * sizeof *v.types);
    v.threads = malloc((nth ? nth : 1) * sizeof *v.threads);
    int rc = v.types && v.threads ? 0 : NTIDX_E_NOMEM;
    for (uint32_t i = 0; rc == 0 && i < nt; i++) {
        const uint8_t *p = x->tcounts + (t0 + i) * x->stc;
        ntidx_type_stat *ts = &v.types[i];
        ts->provider = (const char *)x->strings + ntx_load64(p);
        ts->event_name = (const char *)x->strings + ntx_load64(p + 8);
        ts->event_id = ntx_load32(p + 16);
        ts->version = ntx_load32(p + 20);
        ts->count = ntx_load64(p + 24);
        ts->first_ts = ntx_load64(p + 32);
        ts->payload_bytes = ntx_load64(p + 40);
        v.payload += ts->payload_bytes;
    }
    for (uint32_t i = 0; rc == 0 && i < nth; i++) {
        const uint8_t *p = x->thcounts + (th0 + i) * x->sthc;
        v.threads[i].thread = ntx_load64(p);
        v.threads[i].count = ntx_load64(p + 8);
    }
    v.ntypes = nt;
    v.nthreads = nth;
    v.events = ntx_load64(e + 40);
    v.lo = ntx_load64(e + 48);
    v.hi = ntx_load64(e + 56);
    if (rc == 0)
        rc = ntx_stats_accum_merge(a, &v);
    for (uint32_t i = 0; rc == 0 && i < nd; i++) {
        const uint8_t *p = x->dcounts + (d0 + i) * x->sdc;
        ntidx_dropped dl = {ntx_load64(p), ntx_load64(p + 8), ntx_load64(p + 16)};
        rc = ntx_drop_map_add(drops, &dl);
    }
    if (rc == 0)
        rs->blocks[NTIDX_BLOCK_EVENT] += ntx_load32(e + 36);
    free(v.types);
    free(v.threads);
    return rc;
}

#define BAD(...)                                                                                        \
    do {                                                                                                \
        snprintf(why, n, __VA_ARGS__);                                                                  \
        return NTIDX_E_INDEX_CORRUPT;                                                                   \
    } while (0)

int ntx_index_check_summaries(const ntidx_index *x, char *why, size_t n)
{
    if (!x->rstats)
        return NTIDX_OK;
    if (!x->strings_len || x->strings[x->strings_len - 1] != 0)
        BAD("the string section does not end with a NUL");
    uint64_t nt = 0, nth = 0, nd = 0;
    for (uint64_t r = 0; r < x->nregions; r++) {
        const uint8_t *e = x->rstats + r * x->srst;
        if (ntx_load64(e) != nt || ntx_load64(e + 16) != nth || ntx_load64(e + 24) != nd)
            BAD("region %llu statistics do not follow the previous region's", (unsigned long long)r);
        nt += ntx_load32(e + 8);
        nth += ntx_load32(e + 12);
        nd += ntx_load32(e + 32);
    }
    if (nt != x->ntcounts || nth != x->nthcounts || nd != x->ndcounts)
        BAD("region statistics list %llu/%llu/%llu entries, the sections hold %llu/%llu/%llu",
            (unsigned long long)nt, (unsigned long long)nth, (unsigned long long)nd,
            (unsigned long long)x->ntcounts, (unsigned long long)x->nthcounts, (unsigned long long)x->ndcounts);
    for (uint64_t i = 0; i < x->ntcounts; i++) {
        const uint8_t *p = x->tcounts + i * x->stc;
        if (ntx_load64(p) >= x->strings_len || ntx_load64(p + 8) >= x->strings_len)
            BAD("type count %llu names a string past the string section", (unsigned long long)i);
    }
    return NTIDX_OK;
}
