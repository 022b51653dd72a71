/*
 * uint64 key -> pointer map (open addressing, linear probing, backward-shift
 * deletion). Resolves metadata ids, thread indexes, stack ids and label list
 * ids: the ids come from the trace, so they can be sparse or huge and a
 * plain array indexed by id would let a hostile file pick our allocation.
 */
#ifndef NTIDX_IDMAP_H
#define NTIDX_IDMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct ntx_idmap_slot {
    uint64_t key;
    void *val; /* NULL marks an empty slot: values are never NULL */
} ntx_idmap_slot;

/*
 * Keys below NTX_IDMAP_DENSE live in a plain array: metadata ids, stack ids,
 * label list ids and V6 thread indexes are small and dense in practice, and
 * an array read is several times cheaper than a probe. Larger keys (hostile
 * or sparse ids, OS thread ids) go to the hash table, so a file still cannot
 * choose how much we allocate.
 */
#define NTX_IDMAP_DENSE 4096

typedef struct ntx_idmap {
    ntx_idmap_slot *slots;
    size_t cap;   /* power of two, or 0 */
    size_t count; /* entries in the hash table */
    void **dense; /* NTX_IDMAP_DENSE entries, allocated on first use */
    size_t dense_count;
    uint64_t dense_hi; /* keys in the dense array are all < dense_hi (limits clearing) */
} ntx_idmap;

/* NTX_IDMAP_DENSE NULLs: the dense array of a map that has none yet, for loops that index it unchecked. */
extern void *const ntx_idmap_no_dense[NTX_IDMAP_DENSE];
static inline void *const *ntx_idmap_dense(const ntx_idmap *m) { return m->dense ? m->dense : ntx_idmap_no_dense; }

void ntx_idmap_init(ntx_idmap *m);
void ntx_idmap_free(ntx_idmap *m);
/* Forget every entry, keep the table. */
void ntx_idmap_clear(ntx_idmap *m);
/* Insert or replace. val must not be NULL. Returns 0, or -1 out of memory. */
int ntx_idmap_put(ntx_idmap *m, uint64_t key, void *val);
/* Returns 1 if the key was present. */
int ntx_idmap_remove(ntx_idmap *m, uint64_t key);
/* Number of entries. */
size_t ntx_idmap_size(const ntx_idmap *m);
/* Visit every entry (dense keys first, in key order). */
void ntx_idmap_each(const ntx_idmap *m, void (*fn)(void *ctx, uint64_t key, void *val), void *ctx);

static inline uint64_t ntx_idmap_hash(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return k;
}

static inline void *ntx_idmap_get(const ntx_idmap *m, uint64_t key)
{
    if (key < NTX_IDMAP_DENSE)
        return m->dense ? m->dense[key] : NULL;
    if (!m->count)
        return NULL;
    size_t mask = m->cap - 1;
    size_t i = (size_t)ntx_idmap_hash(key) & mask;
    for (;;) {
        const ntx_idmap_slot *s = &m->slots[i];
        if (!s->val)
            return NULL;
        if (s->key == key)
            return s->val;
        i = (i + 1) & mask;
    }
}

#endif
