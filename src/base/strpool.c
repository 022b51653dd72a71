/* Strings stored once (strpool.h). */
#include <string.h>

#include "error.h"
#include "hash.h"
#include "strpool.h"

void ntx_strpool_init(ntx_strpool *p, ntidx_buf *bytes)
{
    p->bytes = bytes;
    ntx_idmap_init(&p->at);
}

void ntx_strpool_free(ntx_strpool *p) { ntx_idmap_free(&p->at); }

int ntx_strpool_add(ntx_strpool *p, const char *s, uint64_t *off)
{
    size_t n = strlen(s);
    uint64_t h = ntx_xxh3(s, n);
    void *v = ntx_idmap_get(&p->at, h);
    if (v) {
        uint64_t o = (uintptr_t)v - 1;
        if (o + n < p->bytes->len && !memcmp(p->bytes->bytes + o, s, n + 1)) {
            *off = o;
            return 0;
        }
    }
    uint8_t *d = ntx_buf_append(p->bytes, n + 1);
    if (!d)
        return NTIDX_E_NOMEM;
    memcpy(d, s, n + 1);
    *off = p->bytes->len - n - 1;
    if (!v && ntx_idmap_put(&p->at, h, (void *)(uintptr_t)(*off + 1)) != 0)
        return NTIDX_E_NOMEM;
    return 0;
}
