/* Growable byte buffer: the slow path (allocation) of buf.h. */
#include "buf.h"

#include <stdlib.h>

#include <ntidx/ntidx.h>

int ntidx_wbuf_grow(ntidx_wbuf *b, size_t n)
{
    if (b->err)
        return b->err;
    if (n > SIZE_MAX / 2 - b->len) {
        b->err = NTIDX_E_NOMEM;
        return b->err;
    }
    size_t need = b->len + n;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap *= 2;
    uint8_t *p = realloc(b->p, cap);
    if (!p) {
        b->err = NTIDX_E_NOMEM;
        return b->err;
    }
    b->p = p;
    b->cap = cap;
    return 0;
}

void ntidx_wbuf_free(ntidx_wbuf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
    b->err = 0;
}
