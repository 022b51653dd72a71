/*
 * Index lifecycle: build, extend, load-or-build (what every command that
 * needs an index calls), close.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "index_internal.h"

NTIDX_API void ntidx_index_options_defaults(ntidx_index_options *o) { memset(o, 0, sizeof *o); }

/* The serialized size, as ntidx_index_write() lays it out. */
static uint64_t serialized_size(const ntidx_index *x)
{
    uint64_t n = (x->rstats ? NTX_IDX_HEADER_SIZE + 8 : NTX_IDX_HEADER_SIZE) + 8; /* 12 sections: 520 bytes */
    uint64_t s[12] = {x->nblocks * x->sb,
                      x->nsps * x->ss,
                      x->nregions * x->sr,
                      x->ndefs * x->sd,
                      x->filters ? x->nblocks * x->sf : 0,
                      NTX_TRACE_STAT_ENTRY,
                      x->nregions * NTX_REGION_SUM_ENTRY,
                      x->rstats ? x->nregions * x->srst : 0,
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
    i->full = (x->flags & NTX_IF_FULL) != 0;
    i->complete = (x->flags & NTX_IF_COMPLETE) != 0;
    i->trace_size = x->trace_size;
    i->indexed_end = x->indexed_end;
    i->blocks = x->nblocks;
    i->sequence_points = x->nsps;
    i->regions = x->nregions;
    i->definitions = x->ndefs;
    i->first_ts = x->first_ts;
    i->last_ts = x->last_ts;
    i->events = x->events;
    if (!i->bytes)
        i->bytes = serialized_size(x);
}

NTIDX_API const ntidx_index_info *ntidx_index_get_info(const ntidx_index *x) { return x ? &x->info : NULL; }

NTIDX_API int ntidx_index_build(ntidx_trace *t, const ntidx_index_options *o, ntidx_index **out)
{
    if (!t || !out)
        return NTIDX_E_INVALID_ARG;
    *out = NULL;
    ntx_err_clear(&t->err);
    int rc = ntx_index_build(t, NULL, o, out, &t->err);
    if (rc == 0)
        ntx_index_fill_info(*out);
    return rc;
}

NTIDX_API int ntidx_index_extend(ntidx_trace *t, const ntidx_index *old, const ntidx_index_options *o,
                                 ntidx_index **out)
{
    if (!t || !old || !out)
        return NTIDX_E_INVALID_ARG;
    *out = NULL;
    ntx_err_clear(&t->err);
    /* A --full index needs its counts for every block: extending it rescans for them. */
    int rc = ntx_index_build(t, old, o, out, &t->err);
    if (rc == 0)
        ntx_index_fill_info(*out);
    return rc;
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

NTIDX_API int ntidx_index_open(ntidx_trace *t, const char *path, const ntidx_index_options *o, ntidx_index **out,
                               ntidx_index_action *action, char *why, size_t whylen, char *save_err,
                               size_t save_errlen)
{
    if (!t || !out)
        return NTIDX_E_INVALID_ARG;
    *out = NULL;
    if (why && whylen)
        why[0] = 0;
    if (save_err && save_errlen)
        save_err[0] = 0;
    char *own = NULL;
    if (!path) {
        own = ntidx_index_default_path(t->name);
        if (!own)
            return NTIDX_E_NOMEM;
        path = own;
    }
    ntidx_index_action act;
    ntidx_index_state state;
    ntidx_index *x = NULL;
    char lerr[512] = "";
    ntidx_index_verify vm = o && o->verify >= 0 && o->verify <= NTIDX_VERIFY_ON_USE ? (ntidx_index_verify)o->verify : NTIDX_VERIFY_AUTO;
    int rc = ntidx_index_load_ex(t, path, vm, &x, &state, lerr,
                                 sizeof lerr);
    int want_full = o && o->full;
    if (rc == NTIDX_OK && want_full && !(x->flags & NTX_IF_FULL)) {
        /* a plain index where a full one is asked for: rebuild with counts */
        ntidx_index_close(&x);
        rc = NTIDX_E_INDEX_STALE;
        snprintf(lerr, sizeof lerr, "%s has no per-block counts (built without --full)", path);
    }
    if (rc == NTIDX_OK && state == NTIDX_INDEX_CURRENT) {
        act = NTIDX_INDEX_LOADED;
    } else if (rc == NTIDX_OK && state == NTIDX_INDEX_GROWN) {
        ntidx_index *nx = NULL;
        ntidx_index_options eo;
        if (o)
            eo = *o;
        else
            ntidx_index_options_defaults(&eo);
        eo.full = (x->flags & NTX_IF_FULL) != 0;
        if (eo.notice)
            eo.notice(eo.notice_ctx, NTIDX_INDEX_EXTENDED, "the trace grew since it was indexed");
        rc = ntidx_index_extend(t, x, &eo, &nx);
        ntidx_index_close(&x);
        if (rc < 0)
            goto done;
        x = nx;
        act = NTIDX_INDEX_EXTENDED;
    } else {
        if (rc == NTIDX_E_IO && why && whylen)
            snprintf(why, whylen, "no index yet");
        else if (why && whylen)
            snprintf(why, whylen, "%s", lerr);
        act = rc == NTIDX_E_IO ? NTIDX_INDEX_BUILT : NTIDX_INDEX_REBUILT;
        if (o && o->notice)
            o->notice(o->notice_ctx, act, rc == NTIDX_E_IO ? "no index yet" : lerr);
        if ((rc = ntidx_index_build(t, o, &x)) < 0)
            goto done;
    }
    if (act != NTIDX_INDEX_LOADED) {
        int wrc = ntidx_index_write(x, path, save_err, save_errlen);
        (void)wrc; /* an index that cannot be saved still answers this query */
    }
    *out = x;
    if (action)
        *action = act;
    rc = NTIDX_OK;
done:
    free(own);
    return rc;
}

NTIDX_API void ntidx_index_close(ntidx_index **xp)
{
    if (!xp || !*xp)
        return;
    ntidx_index *x = *xp;
    for (size_t i = 0; i < sizeof x->own / sizeof x->own[0]; i++)
        ntx_bytes_free(&x->own[i]);
    free(x->region_ok);
    free(x->strings_copy);
    free(x->name);
    if (x->map)
        munmap(x->map, (size_t)x->map_len);
    free(x);
    *xp = NULL;
}
