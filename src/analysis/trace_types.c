/* The event types of a trace an analysis reads (trace_types.h). */
#include <stdlib.h>
#include <string.h>

#include "ntidx/batch.h"
#include "ops_internal.h"
#include "trace_types.h"

int ntx_trace_types(ntidx_trace *t, const ntidx_index *x, unsigned threads,
                    int (*wanted)(void *ctx, const ntidx_metadata *m), void *ctx, ntx_event_type **out, size_t *nout,
                    ntx_err *err)
{
    ntidx_type_list *l = NULL;
    int rc = ntx_index_types(t, x, 1, threads, &l);
    if (rc < 0)
        return ntx_err_from_last(err, rc);
    size_t n = ntidx_type_list_count(l), bytes = 0, k = 0;
    for (size_t i = 0; i < n; i++) {
        const ntidx_metadata *m = ntidx_type_list_at(l, i);
        if (wanted(ctx, m))
            bytes += strlen(m->provider ? m->provider : "") + 1;
    }
    /* one block: the types, then their provider strings */
    ntx_event_type *types = malloc(n * sizeof *types + bytes + 1);
    if (!types) {
        ntidx_type_list_free(&l);
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    }
    char *strings = (char *)(types + n);
    for (size_t i = 0; i < n; i++) {
        const ntidx_metadata *m = ntidx_type_list_at(l, i);
        if (!wanted(ctx, m))
            continue;
        const char *p = m->provider ? m->provider : "";
        size_t j = 0;
        while (j < k && !(types[j].event_id == m->event_id && !strcmp(types[j].provider, p)))
            j++;
        if (j < k)
            continue;
        size_t len = strlen(p) + 1;
        memcpy(strings, p, len);
        types[k++] = (ntx_event_type){strings, m->event_id};
        strings += len;
    }
    ntidx_type_list_free(&l);
    *out = types;
    *nout = k;
    return 0;
}
