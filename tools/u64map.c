/* The tools' one hash map: u64 -> u32, open addressing (u64map.h). */
#include "u64map.h"

#include <stdlib.h>
#include <string.h>

#include <ntidx/ntidx.h>

static size_t hash64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return (size_t)(x ^ (x >> 33));
}

static int grow(u64map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 256;
    uint64_t *k = malloc(cap * sizeof *k);
    uint32_t *v = malloc(cap * sizeof *v);
    if (!k || !v) {
        free(k);
        free(v);
        return NTIDX_E_NOMEM;
    }
    for (size_t i = 0; i < cap; i++)
        v[i] = UINT32_MAX;
    for (size_t i = 0; i < m->cap; i++) {
        if (m->vals[i] == UINT32_MAX)
            continue;
        size_t j = hash64(m->keys[i]) & (cap - 1);
        while (v[j] != UINT32_MAX)
            j = (j + 1) & (cap - 1);
        k[j] = m->keys[i];
        v[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = k;
    m->vals = v;
    m->cap = cap;
    return 0;
}

/* The slot of `key`: *found says whether it holds the key; else it is where the key goes. */
uint32_t *u64map_slot(u64map *m, uint64_t key, int *found)
{
    if ((m->count + 1) * 2 > m->cap && grow(m) < 0)
        return NULL;
    size_t j = hash64(key) & (m->cap - 1);
    while (m->vals[j] != UINT32_MAX) {
        if (m->keys[j] == key) {
            *found = 1;
            return &m->vals[j];
        }
        j = (j + 1) & (m->cap - 1);
    }
    *found = 0;
    m->keys[j] = key;
    return &m->vals[j];
}

void u64map_free(u64map *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}
