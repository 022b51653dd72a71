#include "idmap.h"

#include <stdlib.h>
#include <string.h>

void *const ntx_idmap_no_dense[NTX_IDMAP_DENSE];

void ntx_idmap_init(ntx_idmap *m) { memset(m, 0, sizeof *m); }

void ntx_idmap_free(ntx_idmap *m)
{
    free(m->slots);
    free(m->dense);
    ntx_idmap_init(m);
}

void ntx_idmap_clear(ntx_idmap *m)
{
    if (m->slots && m->count)
        memset(m->slots, 0, m->cap * sizeof *m->slots);
    m->count = 0;
    if (m->dense && m->dense_count)
        memset(m->dense, 0, (size_t)m->dense_hi * sizeof *m->dense);
    m->dense_count = 0;
    m->dense_hi = 0;
}

size_t ntx_idmap_size(const ntx_idmap *m) { return m->count + m->dense_count; }

/* Visit every entry (dense keys first, in key order). */
void ntx_idmap_each(const ntx_idmap *m, void (*fn)(void *ctx, uint64_t key, void *val), void *ctx)
{
    for (uint64_t k = 0; m->dense && k < m->dense_hi; k++)
        if (m->dense[k])
            fn(ctx, k, m->dense[k]);
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].val)
            fn(ctx, m->slots[i].key, m->slots[i].val);
}

static int grow(ntx_idmap *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 64;
    ntx_idmap_slot *ns = calloc(ncap, sizeof *ns);
    if (!ns)
        return -1;
    for (size_t i = 0; i < m->cap; i++) {
        ntx_idmap_slot *s = &m->slots[i];
        if (!s->val)
            continue;
        size_t j = (size_t)ntx_idmap_hash(s->key) & (ncap - 1);
        while (ns[j].val)
            j = (j + 1) & (ncap - 1);
        ns[j] = *s;
    }
    free(m->slots);
    m->slots = ns;
    m->cap = ncap;
    return 0;
}

int ntx_idmap_put(ntx_idmap *m, uint64_t key, void *val)
{
    if (key < NTX_IDMAP_DENSE) {
        if (!m->dense && !(m->dense = calloc(NTX_IDMAP_DENSE, sizeof *m->dense)))
            return -1;
        if (!m->dense[key])
            m->dense_count++;
        m->dense[key] = val;
        if (key >= m->dense_hi)
            m->dense_hi = key + 1;
        return 0;
    }
    if ((m->count + 1) * 4 > m->cap * 3 && grow(m) != 0) /* load <= 3/4 */
        return -1;
    size_t mask = m->cap - 1;
    size_t i = (size_t)ntx_idmap_hash(key) & mask;
    while (m->slots[i].val) {
        if (m->slots[i].key == key) {
            m->slots[i].val = val;
            return 0;
        }
        i = (i + 1) & mask;
    }
    m->slots[i].key = key;
    m->slots[i].val = val;
    m->count++;
    return 0;
}

int ntx_idmap_remove(ntx_idmap *m, uint64_t key)
{
    if (key < NTX_IDMAP_DENSE) {
        if (!m->dense || !m->dense[key])
            return 0;
        m->dense[key] = NULL;
        m->dense_count--;
        return 1;
    }
    if (!m->count)
        return 0;
    size_t mask = m->cap - 1;
    size_t i = (size_t)ntx_idmap_hash(key) & mask;
    while (m->slots[i].val) {
        if (m->slots[i].key == key)
            break;
        i = (i + 1) & mask;
    }
    if (!m->slots[i].val)
        return 0;
    /* Backward-shift deletion keeps probe chains intact without tombstones. */
    size_t j = i;
    for (;;) {
        m->slots[i].val = NULL;
        for (;;) {
            j = (j + 1) & mask;
            if (!m->slots[j].val) {
                m->count--;
                return 1;
            }
            size_t home = (size_t)ntx_idmap_hash(m->slots[j].key) & mask;
            /* Move j back to i unless its home lies cyclically in (i, j]. */
            if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
                continue;
            break;
        }
        m->slots[i] = m->slots[j];
        i = j;
    }
}
