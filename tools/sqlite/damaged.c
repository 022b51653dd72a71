/* Damaged regions of a query (damaged.h). */
#include "damaged.h"

#include <stdlib.h>
#include <string.h>

int damaged_code(int code)
{
    return code == NTIDX_E_CORRUPT || code == NTIDX_E_TRUNCATED || code == NTIDX_E_UNDEFINED_REF;
}

void damaged_scan_free(damaged_scan *s)
{
    for (size_t i = 0; i < s->nbad; i++)
        free(s->bad[i].message);
    free(s->bad);
    free(s->good);
    memset(s, 0, sizeof *s);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Read region g alone as `o` would: 0 read whole, 1 damaged inside it (recorded in *bad), or the error. */
static int probe(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *o, const ntidx_region *g,
                 damaged_region *bad, uint64_t *events)
{
    ntidx_query_options p = *o;
    p.regions = &g->number;
    p.region_count = 1;
    p.limit = 0;
    p.seek = 0;
    ntidx_query *q;
    int rc = ntidx_query_open(t, x, &p, &q);
    if (rc >= 0) {
        const ntidx_event *e;
        while ((rc = ntidx_query_next(q, &e)) == 1)
            ++*events;
        ntidx_query_close(&q);
    }
    if (rc >= 0)
        return 0;
    const ntidx_error_info *ei = ntidx_last_error_info();
    if (!damaged_code(rc) || ei->code != rc || ei->offset == NTIDX_NO_OFFSET || ei->offset < g->offset ||
        ei->offset - g->offset >= g->bytes)
        return rc; /* not damage of this region's own bytes: the caller's error (ntidx_last_error() says it) */
    char *msg = strdup(ei->message);
    if (!msg)
        return NTIDX_E_NOMEM;
    *bad = (damaged_region){g->number, g->offset, g->bytes, ei->offset, rc, msg};
    return 1;
}

int damaged_scan_run(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *o, damaged_scan *out)
{
    memset(out, 0, sizeof *out);
    uint64_t nr = ntidx_index_region_count(x);
    size_t n = o->regions ? o->region_count : (size_t)nr;
    out->good = malloc((n ? n : 1) * sizeof *out->good);
    out->bad = malloc((n ? n : 1) * sizeof *out->bad);
    if (!out->good || !out->bad) {
        damaged_scan_free(out);
        return NTIDX_E_NOMEM;
    }
    /* the regions asked for, in file order without repeats (those past the index's end are the query's to refuse) */
    for (size_t i = 0; i < n; i++)
        out->good[i] = o->regions ? o->regions[i] : i;
    qsort(out->good, n, sizeof *out->good, cmp_u64);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!k || out->good[k - 1] != out->good[i])
            out->good[k++] = out->good[i];
    n = k;
    k = 0;
    /* With a limit, the regions after those whose events reach it are not read by the query (it reads region
       after region, in their order, in either order of events): they are neither checked nor kept. */
    uint64_t events = 0;
    for (size_t i = 0; i < n && !(o->limit && !o->seek && events >= o->limit); i++) {
        ntidx_region g;
        int rc = out->good[i] < nr ? ntidx_index_region(x, out->good[i], &g) : NTIDX_OK;
        /* a region the window does not meet is not entered: kept, unread (as the query treats it) */
        int enter = out->good[i] < nr && rc == NTIDX_OK && g.first_ts <= g.last_ts && g.last_ts >= o->t0 &&
                    g.first_ts < o->t1;
        if (rc < 0) {
            damaged_scan_free(out);
            return rc;
        }
        uint64_t got = 0;
        if (enter && (rc = probe(t, x, o, &g, &out->bad[out->nbad], &got)) < 0) {
            damaged_scan_free(out);
            return rc;
        }
        if (enter && rc == 1) {
            out->nbad++;
        } else {
            out->good[k++] = out->good[i];
            events += got;
        }
    }
    out->ngood = k;
    return 0;
}
