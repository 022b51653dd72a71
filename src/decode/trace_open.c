/*
 * Opening a trace, for clients: the format layer maps it and reads its
 * header and trace block (src/format/trace.c); V4 and V5 share that header,
 * so this layer, which has the metadata decoder, tells them apart.
 */
#include <stdio.h>
#include <stdlib.h>

#include "event_header.h"
#include "metadata.h"
#include "ntidx/source.h"
#include "source.h"
#include "trace_internal.h"

/*
 * The runtime writes Trace object version 4 in both: only V5's metadata tags
 * tell them apart. Look at the metadata rows of the first few metadata
 * blocks; any error just means "no evidence of V5".
 */
static int has_v5_tags(ntidx_trace *t, uint64_t pos)
{
    ntx_err err = {0};
    ntidx_block b;
    int seen = 0;
    /* The walk reads blocks in order: over a source each first touch of 64 KiB would be a request of its own,
       so announce the range in one (a local file's pages are read as touched, as before) */
    if (ntx_trace_source(t)) { /* a burst of its own, said over: asked for at once, not after the wait for more */
        ntx_trace_prefetch_batch(t, 1);
        ntx_trace_prefetch(t, pos, NTX_SOURCE_V5_PROBE); /* source.h */
        ntx_trace_prefetch_batch(t, 0);
    }
    for (int i = 0; i < 64 && seen < 4; i++) {
        if (ntx_next_block(t, &pos, &b, &err) != 1)
            return 0;
        if (b.kind != NTIDX_BLOCK_METADATA)
            continue;
        seen++;
        ntx_arena a;
        ntx_arena_init(&a);
        ntx_hdr_block hb;
        int v5 = 0;
        if (ntx_hdr_block_init(&hb, t, &b, &err) == 0) {
            ntx_hdr h;
            while (!v5 && ntx_hdr_next(&hb, &h, &err) == 1) {
                ntidx_metadata *m;
                if (ntx_metadata_parse_blob(&a, t->data, h.payload_off, h.payload_size, &m, &v5, &err) < 0)
                    break;
            }
        }
        ntx_arena_free(&a);
        if (v5)
            return 1;
    }
    return 0;
}

static int opened(int rc, ntidx_trace *t, const char *name, const ntx_err *err, ntidx_trace **out)
{
    if (rc < 0)
        return ntx_fail(rc, name, err);
    ntidx_trace_info *in = &t->info;
    if (t->gen == NTX_GEN_FASTSER && in->format_version == 4 && has_v5_tags(t, t->after_trace_block))
        in->format_version = 5;
    *out = t;
    return NTIDX_OK;
}

NTIDX_API int ntidx_trace_open(const char *path, ntidx_trace **out)
{
    if (!out || !path) {
        if (out)
            *out = NULL;
        return ntx_failf(NTIDX_E_INVALID_ARG, path, NTIDX_NO_OFFSET, "ntidx_trace_open: NULL argument");
    }
    *out = NULL;
    ntx_err err = {0};
    ntidx_trace *t;
    int rc = ntx_trace_open_file(&t, path, &err);
    if (rc < 0 && ntx_source_is_url(path)) { /* named without its query string: a SAS token is a secret */
        char *shown = ntx_url_redact(path);
        rc = opened(rc, t, shown ? shown : "URL", &err, out);
        free(shown);
        return rc;
    }
    return opened(rc, t, path, &err, out);
}

NTIDX_API int ntidx_trace_open_source(const ntidx_source_callbacks *cb, const char *name, ntidx_trace **out)
{
    if (!out || !cb) {
        if (out)
            *out = NULL;
        if (cb && cb->close)
            cb->close(cb->ctx);
        return ntx_failf(NTIDX_E_INVALID_ARG, name, NTIDX_NO_OFFSET, "ntidx_trace_open_source: NULL argument");
    }
    *out = NULL;
    ntx_err err = {0};
    ntx_source *src;
    ntidx_trace *t = NULL;
    int rc = ntx_source_open_callback(&src, cb, name, &err);
    if (rc == NTIDX_OK)
        rc = ntx_trace_open_source(&t, src, &err);
    return opened(rc, t, name ? name : "<source>", &err, out);
}

NTIDX_API int ntidx_trace_open_memory(const void *data, size_t size, const char *name, ntidx_trace **out)
{
    if (!out || (!data && size)) {
        if (out)
            *out = NULL;
        return ntx_failf(NTIDX_E_INVALID_ARG, name, NTIDX_NO_OFFSET, "ntidx_trace_open_memory: NULL argument");
    }
    *out = NULL;
    ntx_err err = {0};
    ntidx_trace *t;
    int rc = ntx_trace_open_bytes(&t, data, size, name, &err);
    return opened(rc, t, name ? name : "<memory>", &err, out);
}
