/*
 * The index handle: its public facts, the default path, the filters' hash
 * keys, close. Building it with --full, extending it and the load-or-build
 * lifecycle live above the queries (src/ops/index_open.c), since --full
 * indexes store statistics computed by them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "hash.h"
#include "index_internal.h"

NTIDX_API void ntidx_index_options_defaults(ntidx_index_options *o)
{
    if (o)
        memset(o, 0, sizeof *o);
}

/* The serialized size, as ntidx_index_write() lays it out. */
static uint64_t serialized_size(const ntidx_index *x)
{
    uint64_t n = (x->rstats ? NTX_IDX_HEADER_SIZE + 8 : NTX_IDX_HEADER_SIZE) + 8; /* 12 sections: 520 bytes */
    uint64_t s[12] = {x->tb.nblocks * x->tb.sb,
                      x->tb.nsps * x->tb.ss,
                      x->tb.nregions * x->tb.sr,
                      x->tb.ndefs * x->tb.sd,
                      x->tb.filters ? x->tb.nblocks * x->tb.sf : 0,
                      NTX_TRACE_STAT_ENTRY,
                      x->tb.nregions * NTX_REGION_SUM_ENTRY,
                      x->rstats ? x->tb.nregions * x->srst : 0,
                      x->ntcounts * x->stc,
                      x->nthcounts * x->sthc,
                      x->ndcounts * x->sdc,
                      x->strings_len};
    for (int i = 0; i < 12; i++)
        n += (s[i] + 7) & ~(uint64_t)7;
    return n;
}

void ntx_index_fill_info(ntidx_index *x)
{
    ntidx_index_info *i = &x->info;
    i->full = (x->tb.flags & NTX_IF_FULL) != 0;
    i->complete = (x->tb.flags & NTX_IF_COMPLETE) != 0;
    i->trace_size = x->trace_size;
    i->indexed_end = x->indexed_end;
    i->blocks = x->tb.nblocks;
    i->sequence_points = x->tb.nsps;
    i->regions = x->tb.nregions;
    i->definitions = x->tb.ndefs;
    i->first_ts = x->first_ts;
    i->last_ts = x->last_ts;
    i->events = x->events;
    if (!i->bytes)
        i->bytes = serialized_size(x);
}

NTIDX_API const ntidx_index_info *ntidx_index_get_info(const ntidx_index *x)
{
    return x ? &x->info : NULL;
}

NTIDX_API int ntidx_index_block_counts(const ntidx_index *x, uint64_t counts[NTIDX_BLOCK_KIND_COUNT],
                                       uint64_t *unknown)
{
    if (!x || !counts || !unknown)
        return ntx_failf(NTIDX_E_INVALID_ARG, x ? x->name : NULL, NTIDX_NO_OFFSET,
                         "ntidx_index_block_counts: NULL argument");
    ntx_err err = {0};
    if (ntx_index_need_all(x, &err) < 0)
        return ntx_fail(err.code, x->name, &err);
    memset(counts, 0, NTIDX_BLOCK_KIND_COUNT * sizeof *counts);
    *unknown = 0;
    for (uint64_t b = 0; b < x->tb.nblocks; b++) {
        uint8_t k = ntx_blk_kind(x, b);
        if (k < NTIDX_BLOCK_KIND_COUNT)
            counts[k]++;
        else
            (*unknown)++;
    }
    return NTIDX_OK;
}

NTIDX_API char *ntidx_index_default_path(const char *trace_path)
{
    if (!trace_path)
        return NULL;
    size_t n = strlen(trace_path);
    char *p = malloc(n + 7);
    if (p)
        snprintf(p, n + 7, "%s.ntidx", trace_path);
    return p;
}

NTIDX_API const char *ntidx_index_file(const ntidx_index *x)
{
    return x && x->from_file ? x->name : NULL;
}

const char *ntx_index_name(const ntidx_index *x) { return x->name; }

uint64_t ntx_index_identity_key(const ntidx_index *x)
{
    /* every field a fixed width, written one after the other: no padding bytes are hashed */
    uint64_t f[] = {x->trace_size,
                    (uint64_t)x->trace_mtime_ns,
                    (uint64_t)x->trace_ctime_ns,
                    (uint64_t)x->has_trace_stat,
                    x->head_hash,
                    x->indexed_end,
                    x->last_block_off,
                    x->last_block_hash,
                    x->format_version,
                    x->pointer_size,
                    (uint64_t)x->sync_ticks,
                    (uint64_t)x->tick_frequency,
                    x->first_block,
                    x->tb.nblocks};
    return ntx_xxh3(f, sizeof f);
}

int ntx_index_checks_lazily(const ntidx_index *x) { return x->tb.region_ok && x->map; }

int ntx_index_adopt(ntidx_index *x, const char *path, int from_file, const ntidx_index_options *o)
{
    if (path && (!x->name || strcmp(x->name, path))) {
        char *n = strdup(path);
        if (!n)
            return NTIDX_E_NOMEM;
        free(x->name);
        x->name = n;
    }
    x->from_file = path && from_file;
    if (o) {
        x->open_options = *o;
        x->has_open_options = 1;
    }
    return NTIDX_OK;
}

int ntx_index_opened_with(const ntidx_index *x, ntidx_index_options *o)
{
    if (x->has_open_options)
        *o = x->open_options;
    return x->has_open_options;
}

NTIDX_API void ntidx_index_close(ntidx_index **xp)
{
    if (!xp || !*xp)
        return;
    ntidx_index *x = *xp;
    for (size_t i = 0; i < sizeof x->own / sizeof x->own[0]; i++)
        ntidx_buf_free(&x->own[i]);
    ntx_index_free_retired(x);
    free(x->tb.region_ok);
    free(x->strings_copy);
    free(x->name);
    if (x->map)
        munmap(x->map, (size_t)x->map_len);
    free(x);
    *xp = NULL;
}

void ntx_index_free_retired(ntidx_index *x)
{
    for (size_t i = 0; i < x->nretired; i++)
        free(x->retired[i]);
    free(x->retired);
    x->retired = NULL;
    x->nretired = 0;
}

/* Bloom filter keys of --full indexes: an event type (provider + event id), a thread. */
uint64_t ntx_type_hash(const char *provider, uint32_t event_id)
{
    return ntx_xxh3_seed(provider, strlen(provider), event_id);
}

uint64_t ntx_thread_hash(uint64_t thread) { return ntx_xxh3(&thread, sizeof thread); }

NTIDX_API uint64_t ntidx_index_region_count(const ntidx_index *x)
{
    return x ? x->tb.nregions : 0;
}

NTIDX_API int ntidx_index_region(const ntidx_index *x, uint64_t number, ntidx_region *out)
{
    if (!x || !out || number >= x->tb.nregions)
        return ntx_failf(NTIDX_E_INVALID_ARG, x ? x->name : NULL, NTIDX_NO_OFFSET, "no region %llu (of %llu)",
                         (unsigned long long)number, (unsigned long long)(x ? x->tb.nregions : 0));
    ntx_err err = {0};
    int rc = ntx_index_need_region(x, number, &err);
    if (rc < 0)
        return ntx_fail(rc, x->name, &err);
    memset(out, 0, sizeof *out);
    uint64_t f = ntx_rg_first(x, number), e = ntx_rg_end(x, number);
    out->number = number;
    out->first_ts = ntx_rg_ts_min(x, number);
    out->last_ts = ntx_rg_ts_max(x, number);
    out->blocks = e - f;
    out->events = x->tb.filters ? 0 : UINT64_MAX;
    if (e > f)
        out->offset = ntx_blk_offset(x, f);
    out->bytes = ntx_rg_bytes(x, number);
    for (uint64_t b = f; b < e; b++) {
        if (ntx_blk_kind(x, b) != NTIDX_BLOCK_EVENT || (ntx_blk_flags(x, b) & NTX_BF_NO_EVENTS))
            continue;
        out->event_blocks++;
        if (x->tb.filters)
            out->events += ntx_blk_events(x, b);
    }
    return NTIDX_OK;
}
