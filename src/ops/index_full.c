/*
 * --full indexes: what a plain index (src/index/index_scan.c) does not hold.
 *
 * Per block: the number of events and Bloom filters of their types and
 * threads, counted by one pass of the reader (FILTERS and the BLOCKS events
 * field), so queries filtered by type or thread skip blocks.
 *
 * Per region: its statistics.
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
#include "reader_internal.h"
#include "stats_internal.h"

#define RELEASE_EVERY (64ull << 20)
#define PROGRESS_EVERY (16ull << 20)


/* Strings stored once: offset of `s` in STRINGS, added when new. */
typedef struct interner {
    ntidx_buf *pool;
    ntx_idmap at; /* xxh3 of the string -> offset + 1 (a collision falls back to appending) */
} interner;

static int intern(interner *in, const char *s, uint64_t *off)
{
    size_t n = strlen(s);
    uint64_t h = ntx_xxh3(s, n);
    void *v = ntx_idmap_get(&in->at, h);
    if (v) {
        uint64_t o = (uintptr_t)v - 1;
        if (o + n < in->pool->len && !memcmp(in->pool->bytes + o, s, n + 1)) {
            *off = o;
            return 0;
        }
    }
    uint8_t *p = ntx_buf_append(in->pool, n + 1);
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
    ntidx_buf *o = x->own;
    x->rstats = o[NTX_OWN_RSTATS].bytes;
    x->srst = NTX_RSTAT_ENTRY;
    x->tcounts = o[NTX_OWN_TCOUNTS].bytes;
    x->ntcounts = o[NTX_OWN_TCOUNTS].len / NTX_TCOUNT_ENTRY;
    x->stc = NTX_TCOUNT_ENTRY;
    x->thcounts = o[NTX_OWN_THCOUNTS].bytes;
    x->nthcounts = o[NTX_OWN_THCOUNTS].len / NTX_THCOUNT_ENTRY;
    x->sthc = NTX_THCOUNT_ENTRY;
    x->dcounts = o[NTX_OWN_DCOUNTS].bytes;
    x->ndcounts = o[NTX_OWN_DCOUNTS].len / NTX_DCOUNT_ENTRY;
    x->sdc = NTX_DCOUNT_ENTRY;
    x->strings = o[NTX_OWN_STRINGS].bytes;
    x->strings_len = o[NTX_OWN_STRINGS].len;
}

static int summarize(ntidx_trace *t, ntidx_index *x, const ntidx_index_options *o, ntx_err *err)
{
    ntidx_buf *own = x->own;
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
        ntx_err why = {0};
        if ((rc = ntx_stats_accum_init(&a)) < 0) {
            rc = ntx_err_set(err, rc, "out of memory");
            break;
        }
        ntx_drop_map_init(&d);
        rc = ntx_region_stats(t, x, r, 0, UINT64_MAX, &a, &d, NULL, &rs, &why);
        if (rc < 0)
            rc = ntx_err_wrap(err, rc, &why, "statistics of region %llu: ", (unsigned long long)r);
        uint8_t *e = rc ? NULL : ntx_buf_append(&own[NTX_OWN_RSTATS], NTX_RSTAT_ENTRY);
        if (!rc && !e)
            rc = ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
        if (!rc) {
            ntx_store64(e, own[NTX_OWN_TCOUNTS].len / NTX_TCOUNT_ENTRY);
            ntx_store32(e + 8, (uint32_t)a.ntypes);
            ntx_store32(e + 12, (uint32_t)a.nthreads);
            ntx_store64(e + 16, own[NTX_OWN_THCOUNTS].len / NTX_THCOUNT_ENTRY);
            ntx_store64(e + 24, own[NTX_OWN_DCOUNTS].len / NTX_DCOUNT_ENTRY);
            ntx_store32(e + 32, (uint32_t)d.n);
            ntx_store32(e + 36, (uint32_t)rs.blocks[NTIDX_BLOCK_EVENT]);
            ntx_store64(e + 40, a.events);
            ntx_store64(e + 48, a.lo);
            ntx_store64(e + 56, a.hi);
        }
        for (size_t i = 0; rc == 0 && i < a.ntypes; i++) {
            const ntidx_type_stat *ts = &a.types[i];
            uint64_t po, no;
            uint8_t *p = ntx_buf_append(&own[NTX_OWN_TCOUNTS], NTX_TCOUNT_ENTRY);
            if (!p || intern(&in, ts->provider, &po) < 0 || intern(&in, ts->event_name, &no) < 0) {
                rc = ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
                break;
            }
            ntx_store64(p, po);
            ntx_store64(p + 8, no);
            ntx_store32(p + 16, ts->event_id);
            ntx_store32(p + 20, ts->version);
            ntx_store64(p + 24, ts->count);
            ntx_store64(p + 32, ts->first_ts);
            ntx_store64(p + 40, ts->payload_bytes);
        }
        for (size_t i = 0; rc == 0 && i < a.nthreads; i++) {
            uint8_t *p = ntx_buf_append(&own[NTX_OWN_THCOUNTS], NTX_THCOUNT_ENTRY);
            if (!p) {
                rc = ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
                break;
            }
            ntx_store64(p, a.threads[i].thread);
            ntx_store64(p + 8, a.threads[i].count);
        }
        for (size_t i = 0; rc == 0 && i < d.n; i++) {
            uint8_t *p = ntx_buf_append(&own[NTX_OWN_DCOUNTS], NTX_DCOUNT_ENTRY);
            if (!p) {
                rc = ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
                break;
            }
            ntx_store64(p, d.v[i].capture_thread);
            ntx_store64(p + 8, d.v[i].capture_thread_id);
            ntx_store64(p + 16, d.v[i].dropped);
        }
        ntx_stats_accum_discard(&a);
        ntx_drop_map_free(&d);
        if (rc == 0 && o && o->progress && r + 1 < x->nregions &&
            o->progress(o->progress_ctx, ntx_blk_offset(x, ntx_rg_end(x, r) - 1), t->size))
            rc = ntx_err_set(err, NTIDX_E_CANCELLED, "cancelled");
    }
    ntx_idmap_free(&in.at);
    /* NULs up to a multiple of 8: no padding after the section that no checksum would cover. */
    while (rc == 0 && own[NTX_OWN_STRINGS].len % 8)
        if (!ntx_buf_append(&own[NTX_OWN_STRINGS], 1))
            rc = ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    if (rc < 0)
        return rc;
    bind(x);
    return 0;
}

/* Per-block counts and filters, with the reader: one file-order pass over the blocks the scan indexed. */
static int count_blocks(ntidx_trace *t, ntidx_index *x, const ntidx_index_options *o, ntx_err *err)
{
    uint64_t nblocks = x->own[NTX_OWN_BLOCKS].len / NTX_BLOCK_ENTRY;
    if (!ntx_buf_append(&x->own[NTX_OWN_FILTERS], nblocks * NTX_FILTER_ENTRY))
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory building the index");
    ntidx_reader *r;
    int rc = ntidx_reader_open(t, NULL, &r);
    if (rc < 0)
        return ntx_err_set(err, rc, "out of memory building the index");
    uint8_t *blocks = x->own[NTX_OWN_BLOCKS].bytes;
    for (uint64_t i = 0; i < nblocks; i++)
        ntx_store32(blocks + i * NTX_BLOCK_ENTRY + 20, 0);
    uint64_t bi = 0, events = 0, next_progress = 0, released = 0;
    const ntidx_event *e;
    /* Runs of events share a type and a thread: hash each once per run. */
    uint64_t last_def = UINT64_MAX, type_h = 0, last_tid = 0, thread_h = ntx_thread_hash(0);
    while ((rc = ntidx_reader_next(r, &e)) == 1) {
        while (bi + 1 < nblocks && ntx_load64(blocks + (bi + 1) * NTX_BLOCK_ENTRY) <= e->offset)
            bi++;
        if (e->offset >= x->indexed_end)
            break; /* the trace grew while we read: stay consistent with the scan */
        uint8_t *be = blocks + bi * NTX_BLOCK_ENTRY;
        ntx_store32(be + 20, ntx_load32(be + 20) + 1);
        if (e->metadata->offset != last_def) {
            last_def = e->metadata->offset;
            type_h = ntx_type_hash(e->metadata->provider, e->metadata->event_id);
        }
        if (e->thread_id != last_tid) {
            last_tid = e->thread_id;
            thread_h = ntx_thread_hash(last_tid);
        }
        uint8_t *f = x->own[NTX_OWN_FILTERS].bytes + bi * NTX_FILTER_ENTRY;
        ntx_bloom_add(f, type_h);
        ntx_bloom_add(f + 32, thread_h);
        events++;
        if (o->progress && e->offset >= next_progress) {
            if (o->progress(o->progress_ctx, e->offset, t->size)) {
                ntidx_reader_close(&r);
                return ntx_err_set(err, NTIDX_E_CANCELLED, "cancelled");
            }
            next_progress = e->offset + PROGRESS_EVERY;
        }
        /* Memory stays flat whatever the trace size: give back the mapped ranges already passed. */
        if (e->offset - released >= RELEASE_EVERY) {
            ntx_trace_release(t, released, e->offset - released);
            released = e->offset;
        }
    }
    if (rc < 0) {
        ntx_err_from_last(err, rc);
        ntidx_reader_close(&r);
        return rc;
    }
    ntidx_reader_close(&r);
    if (t->map)
        ntx_trace_release(t, released, t->size - released);
    x->events = events;
    x->flags |= NTX_IF_FULL;
    ntx_index_finish(x); /* binds FILTERS */
    return 0;
}

int ntx_index_build_full(ntidx_trace *t, const ntidx_index *from, const ntidx_index_options *o, ntidx_index **out,
                         ntx_err *err)
{
    ntidx_index_options def;
    if (!o) {
        ntidx_index_options_defaults(&def);
        o = &def;
    }
    int rc = ntx_index_scan(t, from, o, out, err);
    if (rc < 0 || !o->full)
        return rc;
    /* --full: counts per block, then each region's statistics read through the index just built. */
    if ((rc = count_blocks(t, *out, o, err)) < 0 || (rc = summarize(t, *out, o, err)) < 0)
        ntidx_index_close(out);
    return rc;
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
