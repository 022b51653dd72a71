/*
 * The region statistics of --full indexes (index_summary.h): each region's
 * entry in REGION_STATS points at its runs of TYPE_COUNTS, THREAD_COUNTS and
 * DROP_COUNTS entries; provider and event names are in STRINGS, each once.
 * Read here for statistics, written here for the --full builder, in the
 * layout docs/index-format.md gives; checked at load by index_check.c.
 */
#include <stdlib.h>
#include <string.h>

#include "index_internal.h"
#include "index_summary.h"
#include "strpool.h"

int ntx_index_has_summaries(const ntidx_index *x) { return x->rstats != NULL; }

const char *ntx_index_strings(const ntidx_index *x, uint64_t *len)
{
    *len = x->strings ? x->strings_len : 0;
    return x->strings ? (const char *)x->strings : NULL;
}

/* ------------------------------------------------------------------ */
/* Reading                                                             */
/* ------------------------------------------------------------------ */

void ntx_index_region_summary(const ntidx_index *x, uint64_t r, ntx_region_summary *s)
{
    const uint8_t *e = x->rstats + r * x->srst;
    s->first_type = ntx_load64(e);
    s->ntypes = ntx_load32(e + 8);
    s->nthreads = ntx_load32(e + 12);
    s->first_thread = ntx_load64(e + 16);
    s->first_drop = ntx_load64(e + 24);
    s->ndrops = ntx_load32(e + 32);
    s->event_blocks = ntx_load32(e + 36);
    s->events = ntx_load64(e + 40);
    s->lo = ntx_load64(e + 48);
    s->hi = ntx_load64(e + 56);
}

void ntx_region_summary_type(const ntidx_index *x, const ntx_region_summary *s, uint32_t i, ntidx_type_stat *out)
{
    const uint8_t *p = x->tcounts + (s->first_type + i) * x->stc;
    memset(out, 0, sizeof *out);
    out->provider = (const char *)x->strings + ntx_load64(p);
    out->event_name = (const char *)x->strings + ntx_load64(p + 8);
    out->event_id = ntx_load32(p + 16);
    out->version = ntx_load32(p + 20);
    out->count = ntx_load64(p + 24);
    out->first_ts = ntx_load64(p + 32);
    out->payload_bytes = ntx_load64(p + 40);
}

void ntx_region_summary_thread(const ntidx_index *x, const ntx_region_summary *s, uint32_t i, ntidx_thread_stat *out)
{
    const uint8_t *p = x->thcounts + (s->first_thread + i) * x->sthc;
    memset(out, 0, sizeof *out);
    out->thread = ntx_load64(p);
    out->count = ntx_load64(p + 8);
}

void ntx_region_summary_drop(const ntidx_index *x, const ntx_region_summary *s, uint32_t i, ntidx_dropped *out)
{
    const uint8_t *p = x->dcounts + (s->first_drop + i) * x->sdc;
    *out = (ntidx_dropped){ntx_load64(p), ntx_load64(p + 8), ntx_load64(p + 16)};
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */
/* ------------------------------------------------------------------ */

struct ntx_summary_writer {
    ntidx_index *x;
    ntx_strpool strings; /* over own[NTX_OWN_STRINGS] */
    int err;             /* sticky: out of memory */
};

/* Bind the region statistics sections to the owned buffers they were written into. */
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

int ntx_summary_begin(ntidx_index *x, ntx_summary_writer **out)
{
    ntx_summary_writer *w = calloc(1, sizeof *w);
    *out = w;
    if (!w)
        return NTIDX_E_NOMEM;
    w->x = x;
    ntx_strpool_init(&w->strings, &x->own[NTX_OWN_STRINGS]);
    /* A pool that is never empty (the empty string first): its last byte is always a NUL. */
    uint64_t empty;
    return w->err = ntx_strpool_add(&w->strings, "", &empty);
}

int ntx_summary_string(ntx_summary_writer *w, const char *s, uint64_t *off)
{
    if (!w->err)
        w->err = ntx_strpool_add(&w->strings, s, off);
    return w->err;
}

/* Room for one more entry of `size` bytes in owned section `sec`; NULL when out of memory (sticky). */
static uint8_t *entry(ntx_summary_writer *w, int sec, size_t size)
{
    uint8_t *p = w->err ? NULL : ntx_buf_append(&w->x->own[sec], size);
    if (!p)
        w->err = NTIDX_E_NOMEM;
    return p;
}

int ntx_summary_region(ntx_summary_writer *w, const ntx_region_summary *s)
{
    const ntidx_buf *own = w->x->own;
    uint8_t *e = entry(w, NTX_OWN_RSTATS, NTX_RSTAT_ENTRY);
    if (!e)
        return w->err;
    /* its runs start where the sections end now */
    ntx_store64(e, own[NTX_OWN_TCOUNTS].len / NTX_TCOUNT_ENTRY);
    ntx_store32(e + 8, s->ntypes);
    ntx_store32(e + 12, s->nthreads);
    ntx_store64(e + 16, own[NTX_OWN_THCOUNTS].len / NTX_THCOUNT_ENTRY);
    ntx_store64(e + 24, own[NTX_OWN_DCOUNTS].len / NTX_DCOUNT_ENTRY);
    ntx_store32(e + 32, s->ndrops);
    ntx_store32(e + 36, s->event_blocks);
    ntx_store64(e + 40, s->events);
    ntx_store64(e + 48, s->lo);
    ntx_store64(e + 56, s->hi);
    return 0;
}

int ntx_summary_type(ntx_summary_writer *w, uint64_t provider, uint64_t name, uint32_t event_id, uint32_t version,
                     uint64_t count, uint64_t first_ts, uint64_t payload_bytes)
{
    uint8_t *p = entry(w, NTX_OWN_TCOUNTS, NTX_TCOUNT_ENTRY);
    if (!p)
        return w->err;
    ntx_store64(p, provider);
    ntx_store64(p + 8, name);
    ntx_store32(p + 16, event_id);
    ntx_store32(p + 20, version);
    ntx_store64(p + 24, count);
    ntx_store64(p + 32, first_ts);
    ntx_store64(p + 40, payload_bytes);
    return 0;
}

int ntx_summary_thread(ntx_summary_writer *w, uint64_t thread, uint64_t count)
{
    uint8_t *p = entry(w, NTX_OWN_THCOUNTS, NTX_THCOUNT_ENTRY);
    if (!p)
        return w->err;
    ntx_store64(p, thread);
    ntx_store64(p + 8, count);
    return 0;
}

int ntx_summary_drop(ntx_summary_writer *w, const ntidx_dropped *d)
{
    uint8_t *p = entry(w, NTX_OWN_DCOUNTS, NTX_DCOUNT_ENTRY);
    if (!p)
        return w->err;
    ntx_store64(p, d->capture_thread);
    ntx_store64(p + 8, d->capture_thread_id);
    ntx_store64(p + 16, d->dropped);
    return 0;
}

int ntx_summary_end(ntx_summary_writer **wp, int commit)
{
    ntx_summary_writer *w = *wp;
    if (!w)
        return NTIDX_E_NOMEM;
    ntidx_buf *strings = &w->x->own[NTX_OWN_STRINGS];
    /* NULs up to a multiple of 8: no padding after the section that no checksum would cover. */
    while (commit && !w->err && strings->len % 8)
        if (!ntx_buf_append(strings, 1))
            w->err = NTIDX_E_NOMEM;
    int rc = w->err;
    if (commit && !rc)
        bind(w->x);
    ntx_strpool_free(&w->strings);
    free(w);
    *wp = NULL;
    return rc;
}
