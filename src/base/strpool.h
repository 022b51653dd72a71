/*
 * Strings stored once in a byte buffer, each NUL-terminated, known by their
 * offset: the STRINGS section of a --full index (index_summary.c) and the
 * name pools its builder keeps per unit of work (src/ops/index_full.c). A
 * string is looked up by its xxh3; another string with the same hash is
 * appended again rather than chained (the pool stays correct, only larger).
 */
#ifndef NTIDX_STRPOOL_H
#define NTIDX_STRPOOL_H

#include <stdint.h>

#include "buf.h"
#include "idmap.h"

typedef struct ntx_strpool {
    ntidx_buf *bytes; /* the caller's buffer: the pool appends to it */
    ntx_idmap at;     /* xxh3 of a string -> its offset + 1 */
} ntx_strpool;

void ntx_strpool_init(ntx_strpool *p, ntidx_buf *bytes);
/* Free the lookup (the bytes stay the caller's). */
void ntx_strpool_free(ntx_strpool *p);
/* The offset of `s` in the pool (*off), appended when new. 0, or NTIDX_E_NOMEM. */
int ntx_strpool_add(ntx_strpool *p, const char *s, uint64_t *off);

#endif
