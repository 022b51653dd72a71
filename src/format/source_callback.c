/* An embedder's byte source: the callbacks of <ntidx/source.h> (source.h). */
#include "source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ntidx/source.h"

typedef struct {
    ntx_source s;
    ntidx_source_callbacks cb;
} callback_source;

static int callback_read(ntx_source *s, uint64_t off, void *buf, size_t len, ntx_err *err)
{
    callback_source *c = (callback_source *)s;
    if (c->cb.read(c->cb.ctx, off, buf, len) != 0)
        return ntx_err_at(err, NTIDX_E_IO, off, "the source could not read %zu bytes (bytes %llu-%llu)", len,
                          (unsigned long long)off, (unsigned long long)(off + len - 1));
    return NTIDX_OK;
}

static void callback_prefetch(ntx_source *s, uint64_t off, uint64_t len)
{
    callback_source *c = (callback_source *)s;
    if (c->cb.prefetch)
        c->cb.prefetch(c->cb.ctx, off, len);
}

static void callback_close(ntx_source *s)
{
    callback_source *c = (callback_source *)s;
    if (c->cb.close)
        c->cb.close(c->cb.ctx);
    ntx_source_fini(s);
    free(c);
}

static const struct ntx_source_ops callback_ops = {callback_read, NULL, callback_prefetch, NULL, callback_close, NULL};

int ntx_source_open_callback(ntx_source **out, const ntidx_source_callbacks *cb, const char *name, ntx_err *err)
{
    *out = NULL;
    if (!cb || !cb->read) {
        if (cb && cb->close)
            cb->close(cb->ctx);
        return ntx_err_set(err, NTIDX_E_INVALID_ARG, "a source needs a read callback");
    }
    for (size_t i = 0; i < sizeof cb->reserved / sizeof cb->reserved[0]; i++)
        if (cb->reserved[i]) {
            if (cb->close)
                cb->close(cb->ctx);
            return ntx_err_set(err, NTIDX_E_INVALID_ARG, "the source's reserved fields are not zero");
        }
    callback_source *c = calloc(1, sizeof *c);
    if (!c || ntx_source_init(&c->s, &callback_ops, name ? name : "<source>", err) != NTIDX_OK) {
        free(c);
        if (cb->close)
            cb->close(cb->ctx);
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    }
    c->cb = *cb;
    c->s.remote = 1; /* each read may be a request: callers hint and coalesce */
    c->s.id.size = cb->size;
    if (cb->identity)
        snprintf(c->s.id.etag, sizeof c->s.id.etag, "%s", cb->identity);
    c->cb.identity = NULL; /* copied: the caller's string need not outlive the open */
    *out = &c->s;
    return NTIDX_OK;
}
