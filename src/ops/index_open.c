/*
 * The index lifecycle: build (plain or --full), extend a grown trace's
 * index, load-or-build (what every command that needs an index calls), and
 * recovery (ntidx_index_recover(): a new index for one that a call found
 * corrupt; no call rebuilds an index by itself). It sits above the queries because a
 * --full index stores statistics the query engine computes (index_full.c);
 * loading, writing and checking an index file are the index core's
 * (src/index/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "index_build.h"
#include "index_tables.h"
#include "ops_internal.h"
#include "stats_internal.h"

static int check_options(const ntidx_index_options *o, const char *name)
{
    if (o && !ntx_reserved_zero(o->reserved, sizeof o->reserved))
        return ntx_failf(NTIDX_E_INVALID_ARG, name, NTIDX_NO_OFFSET,
                         "index options: reserved fields are not zero (fill them with ntidx_index_options_defaults())");
    if (o && (o->verify < NTIDX_VERIFY_AUTO || o->verify > NTIDX_VERIFY_ON_USE))
        return ntx_failf(NTIDX_E_INVALID_ARG, name, NTIDX_NO_OFFSET, "index options: unknown verify mode %d", o->verify);
    return NTIDX_OK;
}

NTIDX_API int ntidx_index_build(ntidx_trace *t, const ntidx_index_options *o, ntidx_index **out)
{
    if (out)
        *out = NULL;
    if (!t || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET, "ntidx_index_build: NULL argument");
    int rc = check_options(o, ntidx_trace_name(t));
    if (rc < 0)
        return rc;
    ntx_err err = {0};
    rc = ntx_index_build_full(t, NULL, o, out, &err);
    if (rc < 0)
        return ntx_fail(rc, ntidx_trace_name(t), &err);
    ntx_index_fill_info(*out);
    return NTIDX_OK;
}

NTIDX_API int ntidx_index_extend(ntidx_trace *t, const ntidx_index *old, const ntidx_index_options *o,
                                 ntidx_index **out)
{
    if (out)
        *out = NULL;
    if (!t || !old || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET, "ntidx_index_extend: NULL argument");
    int rc = check_options(o, ntidx_trace_name(t));
    if (rc < 0)
        return rc;
    ntx_err err = {0};
    /* A --full index needs its counts for every block: extending it rescans for them. */
    rc = ntx_index_build_full(t, old, o, out, &err);
    if (rc < 0)
        return ntx_fail(rc, rc == NTIDX_E_INDEX_CORRUPT ? ntx_index_name(old) : ntidx_trace_name(t), &err);
    ntx_index_fill_info(*out);
    return NTIDX_OK;
}

static void notice(const ntidx_index_options *o, int action, const char *why)
{
    if (o && o->notice)
        o->notice(o->notice_ctx, action, why);
}

/* Save a built index where it belongs; one that cannot be saved still answers (the notice says so).
   `in_dir`: the path is in the index directory, made when missing (`private_dir`: the user's cache). */
static void save(ntidx_index *x, const char *path, const ntidx_index_options *o, int in_dir, int private_dir)
{
    ntx_err err = {0};
    if (in_dir && ntx_make_dirs(path, private_dir, &err) < 0) {
        char why[NTIDX_ERROR_MAX];
        snprintf(why, sizeof why, "%s", err.msg);
        notice(o, NTIDX_INDEX_NOT_SAVED, why);
        return;
    }
    if (ntidx_index_write(x, path) < 0)
        notice(o, NTIDX_INDEX_NOT_SAVED, ntidx_last_error());
}

/* An index beside the trace that matches it exactly, used as it is (read only) when new indexes go to the
   index directory: say, one built where the traces are, before the folder was made read-only. */
static ntidx_index *beside_if_current(ntidx_trace *t, const ntidx_index_options *o)
{
    char *beside = ntidx_index_default_path(ntidx_trace_name(t));
    ntidx_index *x = NULL;
    ntidx_index_state state;
    if (beside && access(beside, R_OK) == 0 &&
        ntidx_index_load(t, beside, o ? (ntidx_index_verify)o->verify : NTIDX_VERIFY_AUTO, &x, &state) == NTIDX_OK &&
        (state != NTIDX_INDEX_CURRENT || (o && o->full && !ntx_index_is_full(x)) || ntx_index_adopt(x, beside, 1, o) < 0))
        ntidx_index_close(&x);
    free(beside);
    return x;
}

NTIDX_API int ntidx_index_open(ntidx_trace *t, const char *path, const ntidx_index_options *o, ntidx_index **out,
                               ntidx_index_action *action)
{
    if (out)
        *out = NULL;
    if (!t || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET, "ntidx_index_open: NULL argument");
    int rc = check_options(o, ntidx_trace_name(t));
    if (rc < 0)
        return rc;
    char *own = NULL;
    int in_dir = 0, private_dir = 0;
    if (!path) {
        if (ntx_index_locate(ntidx_trace_name(t), &own, &in_dir, &private_dir) < 0)
            return ntx_failf(NTIDX_E_NOMEM, ntidx_trace_name(t), NTIDX_NO_OFFSET, "out of memory");
        path = own;
        ntidx_index *bx = in_dir ? beside_if_current(t, o) : NULL;
        if (bx) {
            free(own);
            *out = bx;
            if (action)
                *action = NTIDX_INDEX_LOADED;
            return NTIDX_OK;
        }
    }
    ntidx_index_action act;
    ntidx_index_state state;
    ntidx_index *x = NULL;
    char why[NTIDX_ERROR_MAX] = "";
    rc = ntidx_index_load(t, path, o ? (ntidx_index_verify)o->verify : NTIDX_VERIFY_AUTO, &x, &state);
    if (rc < 0)
        snprintf(why, sizeof why, "%s", ntidx_last_error());
    if (rc == NTIDX_OK && o && o->full && !ntx_index_is_full(x)) {
        /* a plain index where a full one is asked for: rebuild with counts */
        ntidx_index_close(&x);
        rc = NTIDX_E_INDEX_STALE;
        snprintf(why, sizeof why, "%s has no per-block counts (built without --full)", path);
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
        eo.full = ntx_index_is_full(x);
        notice(&eo, NTIDX_INDEX_EXTENDED, "the trace grew since it was indexed");
        rc = ntidx_index_extend(t, x, &eo, &nx);
        ntidx_index_close(&x);
        if (rc < 0)
            goto done;
        x = nx;
        act = NTIDX_INDEX_EXTENDED;
    } else {
        act = rc == NTIDX_E_IO ? NTIDX_INDEX_BUILT : NTIDX_INDEX_REBUILT;
        notice(o, act, rc == NTIDX_E_IO ? "no index yet" : why);
        ntidx_index_options bo;
        if (o)
            bo = *o;
        else
            ntidx_index_options_defaults(&bo);
        bo.full |= bo.full_when_built;
        if ((rc = ntidx_index_build(t, &bo, &x)) < 0)
            goto done;
    }
    if (act != NTIDX_INDEX_LOADED)
        save(x, path, o, in_dir, private_dir);
    if (ntx_index_adopt(x, path, 1, o) < 0) {
        ntidx_index_close(&x);
        rc = ntx_failf(NTIDX_E_NOMEM, ntidx_trace_name(t), NTIDX_NO_OFFSET, "out of memory");
        goto done;
    }
    *out = x;
    if (action)
        *action = act;
    rc = NTIDX_OK;
done:
    free(own);
    return rc;
}

NTIDX_API int ntidx_index_recover(ntidx_trace *t, const ntidx_index *x, const ntidx_index_options *o,
                                  ntidx_index **out)
{
    if (out)
        *out = NULL;
    if (!t || !x || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET,
                         "ntidx_index_recover: NULL argument");
    int rc = check_options(o, ntidx_trace_name(t));
    if (rc < 0)
        return rc;
    ntidx_index_options bo;
    if (o)
        bo = *o;
    else if (!ntx_index_opened_with(x, &bo))
        ntidx_index_options_defaults(&bo);
    bo.full = ntx_index_is_full(x); /* a --full index comes back --full */
    /* Why: the damage a check of every region finds (x's own record of its lazy checks, nothing else of x
       is touched); an index that checks out whole is rebuilt all the same, as asked. */
    ntx_err why = {0};
    char msg[NTIDX_ERROR_MAX];
    const char *name = ntx_index_name(x), *file = ntidx_index_file(x);
    snprintf(msg, sizeof msg, "%s%s%s", name ? name : "", name ? ": " : "",
             ntx_index_need_all(x, &why) < 0 ? why.msg : "rebuilt on request");
    notice(&bo, NTIDX_INDEX_REBUILT, msg);
    ntidx_index *nx = NULL;
    ntx_err err = {0};
    if ((rc = ntx_index_build_full(t, NULL, &bo, &nx, &err)) < 0)
        return ntx_fail(rc, ntidx_trace_name(t), &err);
    ntx_index_fill_info(nx);
    if (file)
        save(nx, file, &bo, 0, 0);
    if (ntx_index_adopt(nx, name, file != NULL, &bo) < 0) {
        ntidx_index_close(&nx);
        return ntx_failf(NTIDX_E_NOMEM, ntidx_trace_name(t), NTIDX_NO_OFFSET, "out of memory");
    }
    *out = nx;
    return NTIDX_OK;
}
