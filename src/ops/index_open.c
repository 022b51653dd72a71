/*
 * The index lifecycle: build (plain or --full), extend a grown trace's
 * index, and load-or-build (what every command that needs an index calls).
 * It sits above the queries because a --full index stores statistics the
 * query engine computes (index_full.c); loading, writing and checking an
 * index file are the index core's (src/index/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index_internal.h"
#include "stats_internal.h"

NTIDX_API int ntidx_index_build(ntidx_trace *t, const ntidx_index_options *o, ntidx_index **out)
{
    if (!t || !out)
        return NTIDX_E_INVALID_ARG;
    *out = NULL;
    ntx_err_clear(&t->err);
    int rc = ntx_index_build_full(t, NULL, o, out, &t->err);
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
    int rc = ntx_index_build_full(t, old, o, out, &t->err);
    if (rc == 0)
        ntx_index_fill_info(*out);
    return rc;
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

