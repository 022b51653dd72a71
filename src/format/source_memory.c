/* Bytes the caller holds, not copied (ntidx_trace_open_memory()'s source; source.h). */
#include "source.h"

#include <stdlib.h>
#include <string.h>

#include "ntidx/ntidx.h"

typedef struct {
    ntx_source s;
    const uint8_t *data;
} memory_source;

static int memory_read(ntx_source *s, uint64_t off, void *buf, size_t len, ntx_err *err)
{
    memcpy(buf, ((memory_source *)s)->data + off, len);
    return NTIDX_OK;
}

static const uint8_t *memory_map(ntx_source *s) { return ((memory_source *)s)->data; }

static void memory_close(ntx_source *s)
{
    ntx_source_fini(s);
    free(s);
}

static const struct ntx_source_ops memory_ops = {memory_read, memory_map, NULL, NULL, memory_close, NULL};

int ntx_source_open_memory(ntx_source **out, const void *data, size_t size, const char *name, ntx_err *err)
{
    *out = NULL;
    if (!data && size)
        return ntx_err_set(err, NTIDX_E_INVALID_ARG, "no bytes given");
    memory_source *m = calloc(1, sizeof *m);
    if (!m)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    int rc = ntx_source_init(&m->s, &memory_ops, name ? name : "<memory>", err);
    if (rc != NTIDX_OK) {
        free(m);
        return rc;
    }
    m->data = data;
    m->s.id.size = size;
    *out = &m->s;
    return NTIDX_OK;
}
