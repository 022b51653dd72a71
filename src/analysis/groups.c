/*
 * Events counted by a key (groups.h): a vector of groups in the order first
 * added, found through an open-addressing table of indexes (linear probing;
 * groups are never removed). A slot keeps its group's index beside 32 bits
 * of its hash: a probe past another key, and the search for a key not there
 * yet (most of them, where keys carry messages), reads the table alone and
 * not the group, a cache miss each in a vector of hundreds of thousands.
 */
#include <stdlib.h>
#include <string.h>

#include "groups.h"
#include "hash.h"
#include "ntidx/ntidx.h"

void ntx_groups_init(ntx_groups *g)
{
    memset(g, 0, sizeof *g);
    ntx_arena_init(&g->arena);
}

void ntx_groups_free(ntx_groups *g)
{
    free(g->v);
    free(g->slots);
    ntx_arena_free(&g->arena);
    memset(g, 0, sizeof *g);
}

uint64_t ntx_groups_hash(const ntx_blob key[NTX_GROUP_PARTS], uint64_t num)
{
    uint64_t h = num * 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < NTX_GROUP_PARTS; i++)
        h = key[i].p ? ntx_xxh3_seed(key[i].p, key[i].n, h + (uint64_t)i) : h * 31 + 0xA5A5A5A5A5A5ull + (uint64_t)i;
    return h;
}

static int same_blob(const ntx_blob *a, const ntx_blob *b)
{
    if (!a->p || !b->p)
        return !a->p && !b->p;
    return a->n == b->n && (a->n == 0 || memcmp(a->p, b->p, a->n) == 0);
}

int ntx_blob_cmp(const ntx_blob *a, const ntx_blob *b)
{
    if (!a->p || !b->p)
        return (a->p != NULL) - (b->p != NULL);
    size_t n = a->n < b->n ? a->n : b->n;
    int c = n ? memcmp(a->p, b->p, n) : 0;
    if (c)
        return c < 0 ? -1 : 1;
    return (a->n > b->n) - (a->n < b->n);
}

/* A slot's value: group i and its hash's low 32 bits (0 is an empty slot: indexes are kept plus one). */
static inline uint64_t slot_of(uint64_t h, size_t i) { return (uint64_t)(uint32_t)h << 32 | (uint64_t)(i + 1); }

/* The slot of the key, or the empty slot where it would go. */
static size_t find(const ntx_groups *g, const ntx_blob key[NTX_GROUP_PARTS], uint64_t num, uint64_t h)
{
    size_t mask = g->nslots - 1, i = (size_t)h & mask;
    for (;; i = (i + 1) & mask) {
        uint64_t s = g->slots[i];
        if (!s)
            return i;
        if ((uint32_t)(s >> 32) != (uint32_t)h)
            continue;
        const ntx_group *x = &g->v[(uint32_t)s - 1];
        if (x->hash != h || x->num != num)
            continue;
        int eq = 1;
        for (int k = 0; eq && k < NTX_GROUP_PARTS; k++)
            eq = same_blob(&x->key[k], &key[k]);
        if (eq)
            return i;
    }
}

/* Room for one more group: the table at most half full. */
static int reserve(ntx_groups *g)
{
    if (g->n >= UINT32_MAX - 1)
        return NTIDX_E_INVALID_ARG;
    if (g->n == g->cap) {
        size_t nc = g->cap ? g->cap * 2 : 16;
        ntx_group *nv = realloc(g->v, nc * sizeof *nv);
        if (!nv)
            return NTIDX_E_NOMEM;
        g->v = nv;
        g->cap = nc;
    }
    if ((g->n + 1) * 2 <= g->nslots)
        return 0;
    size_t ns = g->nslots ? g->nslots * 2 : 32;
    uint64_t *slots = calloc(ns, sizeof *slots);
    if (!slots)
        return NTIDX_E_NOMEM;
    free(g->slots);
    g->slots = slots;
    g->nslots = ns;
    for (size_t i = 0; i < g->n; i++) {
        size_t j = (size_t)g->v[i].hash & (ns - 1);
        while (slots[j])
            j = (j + 1) & (ns - 1);
        slots[j] = slot_of(g->v[i].hash, i);
    }
    return 0;
}

/* The key, of hash h, counted in. Parts in `owned` (bit k: part k) are in memory the table owns already (its
   arena, or one it adopted) and are kept as they are; the others are copied. */
static int add(ntx_groups *g, const ntx_blob key[NTX_GROUP_PARTS], unsigned owned, uint64_t num, uint64_t h,
               uint64_t count, uint64_t sum, uint64_t first_ts, uint64_t last_ts)
{
    int rc = reserve(g);
    if (rc < 0)
        return rc;
    size_t i = find(g, key, num, h);
    if (g->slots[i]) {
        ntx_group *x = &g->v[(uint32_t)g->slots[i] - 1];
        x->count += count;
        x->sum += sum;
        if (first_ts < x->first_ts)
            x->first_ts = first_ts;
        if (last_ts > x->last_ts)
            x->last_ts = last_ts;
        return 0;
    }
    ntx_group x = {.num = num, .hash = h, .count = count, .sum = sum, .first_ts = first_ts, .last_ts = last_ts};
    for (int k = 0; k < NTX_GROUP_PARTS; k++) {
        if (!key[k].p)
            continue;
        if (owned & (1u << k)) {
            x.key[k] = key[k];
            continue;
        }
        char *copy = ntx_arena_strndup(&g->arena, key[k].p, key[k].n);
        if (!copy)
            return NTIDX_E_NOMEM;
        x.key[k] = (ntx_blob){copy, key[k].n};
    }
    g->v[g->n] = x;
    g->slots[i] = slot_of(h, g->n++);
    return 0;
}

int ntx_groups_add(ntx_groups *g, const ntx_blob key[NTX_GROUP_PARTS], uint64_t num, uint64_t count, uint64_t sum,
                   uint64_t first_ts, uint64_t last_ts)
{
    return add(g, key, 0, num, ntx_groups_hash(key, num), count, sum, first_ts, last_ts);
}

int ntx_groups_add_owned(ntx_groups *g, const ntx_blob key[NTX_GROUP_PARTS], unsigned owned, uint64_t num,
                         uint64_t hash, uint64_t count, uint64_t sum, uint64_t first_ts, uint64_t last_ts)
{
    return add(g, key, owned, num, hash, count, sum, first_ts, last_ts);
}

void ntx_groups_adopt(ntx_groups *into, ntx_groups *from) { ntx_arena_adopt(&into->arena, &from->arena); }

int ntx_groups_merge(ntx_groups *into, ntx_groups *from)
{
    /* from's keys stay where they are (its arena moves into `into` below), and their hashes are kept */
    const unsigned all = (1u << NTX_GROUP_PARTS) - 1;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < from->n; i++) {
        if (i + NTX_GROUPS_AHEAD < from->n)
            ntx_groups_prefetch(into, from->v[i + NTX_GROUPS_AHEAD].hash);
        const ntx_group *x = &from->v[i];
        rc = add(into, x->key, all, x->num, x->hash, x->count, x->sum, x->first_ts, x->last_ts);
    }
    /* adopted even after a failure: groups added before it point into it */
    ntx_groups_adopt(into, from);
    return rc;
}
