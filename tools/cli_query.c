#include "cli_query.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"

int cli_query_open(cli_query *cq, ntidx_trace *t, const char *trace_path, const char *index_path, ntidx_index **xp,
                   const ntidx_query_options *o)
{
    memset(cq, 0, sizeof *cq);
    cq->t = t;
    cq->trace_path = trace_path;
    cq->index_path = index_path;
    cq->xp = xp;
    cq->o = *o;
    int rc = ntidx_query_open(&cq->q, t, *xp, o);
    if (rc < 0)
        cli_error("%s: %s", trace_path, ntidx_strerror(rc));
    return rc;
}

int cli_query_next(cli_query *cq, const ntidx_event **e)
{
    for (;;) {
        int rc = ntidx_query_next(cq->q, e);
        if (rc == 1)
            cq->returned++;
        if (rc != NTIDX_E_INDEX_CORRUPT || cq->recovered)
            return rc;
        /* Rebuild once, reopen, and pass over what was already returned. */
        char why[700];
        snprintf(why, sizeof why, "%s: %s", cq->trace_path, ntidx_query_error(cq->q));
        ntidx_query_close(&cq->q);
        cq->recovered = 1;
        if ((rc = cli_index_recover(cq->t, cq->trace_path, cq->index_path, cq->xp, why)) < 0)
            return rc;
        if ((rc = ntidx_query_open(&cq->q, cq->t, *cq->xp, &cq->o)) < 0)
            return rc;
        for (uint64_t i = 0; i < cq->returned; i++)
            if ((rc = ntidx_query_next(cq->q, e)) != 1)
                return rc < 0 ? rc : NTIDX_E_CORRUPT; /* the rebuilt index cannot return fewer */
    }
}

const char *cli_query_error(const cli_query *cq) { return cq->q ? ntidx_query_error(cq->q) : ""; }
const ntidx_query_stats *cli_query_stats(const cli_query *cq) { return cq->q ? ntidx_query_get_stats(cq->q) : NULL; }
void cli_query_close(cli_query *cq) { ntidx_query_close(&cq->q); }
