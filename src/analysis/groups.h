/*
 * Events counted by a key: what the counting analyses (allocations per type
 * and kind, exceptions per type, message and stack) keep in a unit and add
 * up in the merge.
 *
 * A key is up to NTX_GROUP_PARTS byte strings (each may be absent: a null,
 * distinct from an empty string) and a number. A group holds how many events
 * fell under its key, the sum of a quantity they carry, and the timestamps
 * of the first and the last. Adding groups is commutative and associative,
 * so the merge of units in any order and any cut gives one result; the
 * analysis orders the rows itself when it finishes.
 */
#ifndef NTX_ANALYSIS_GROUPS_H
#define NTX_ANALYSIS_GROUPS_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"

#define NTX_GROUP_PARTS 3

/* Bytes of a key part; p NULL: no value. */
typedef struct ntx_blob {
    const void *p;
    size_t n;
} ntx_blob;

typedef struct ntx_group {
    ntx_blob key[NTX_GROUP_PARTS]; /* copies owned by the table, each followed by a NUL */
    uint64_t num;                  /* the key's number */
    uint64_t hash;
    uint64_t count, sum;
    uint64_t first_ts, last_ts;
} ntx_group;

typedef struct ntx_groups {
    ntx_group *v;      /* in the order first added */
    size_t n, cap;
    uint64_t *slots;   /* hash table: the hash's low 32 bits << 32 | index into v + 1; 0 empty */
    size_t nslots;     /* power of two */
    ntx_arena arena;   /* the keys' bytes */
} ntx_groups;

void ntx_groups_init(ntx_groups *g);
void ntx_groups_free(ntx_groups *g);

/* `count` events under the key, carrying `sum` in all, the first at first_ts and the last at last_ts. 0, or
   NTIDX_E_NOMEM (and NTIDX_E_INVALID_ARG past 4 billion groups). */
int ntx_groups_add(ntx_groups *g, const ntx_blob key[NTX_GROUP_PARTS], uint64_t num, uint64_t count, uint64_t sum,
                   uint64_t first_ts, uint64_t last_ts);

/* The hash of a key (what ntx_groups_add() computes), for ntx_groups_add_owned(): a caller can compute it
   on other threads. */
uint64_t ntx_groups_hash(const ntx_blob key[NTX_GROUP_PARTS], uint64_t num);

/* ntx_groups_add() with the key's hash given (ntx_groups_hash()) and the parts in `owned` (bit k: key[k])
   already in memory `g` owns (its arena, or one it adopted: ntx_groups_adopt()), kept as they are instead of
   copied. */
int ntx_groups_add_owned(ntx_groups *g, const ntx_blob key[NTX_GROUP_PARTS], unsigned owned, uint64_t num,
                         uint64_t hash, uint64_t count, uint64_t sum, uint64_t first_ts, uint64_t last_ts);

/* The key bytes of `from` made `into`'s (they live as long as `into`; `from`'s groups may still be read, until it
   is freed, and may be added to `into` with ntx_groups_add_owned()); nothing is copied. */
void ntx_groups_adopt(ntx_groups *into, ntx_groups *from);

/* The table's slot for a key of hash h asked of the memory ahead of its add (a batch of adds whose hashes are
   known: the slot is a cache miss each in a table of hundreds of thousands of keys). Only a hint: a table that
   grows in between is read where it is then. */
#define NTX_GROUPS_AHEAD 8
static inline void ntx_groups_prefetch(const ntx_groups *g, uint64_t h)
{
    if (g->nslots)
        __builtin_prefetch(&g->slots[(size_t)h & (g->nslots - 1)]);
}

/* Every group of `from` added to `into`, its keys not copied but adopted with `from`'s bytes
   (ntx_groups_adopt()): `from` is to be freed after, its groups not read again. 0 or NTIDX_E_NOMEM. */
int ntx_groups_merge(ntx_groups *into, ntx_groups *from);

/* Key parts compared: absent before present, then bytes, then length (a total order for sorting rows). */
int ntx_blob_cmp(const ntx_blob *a, const ntx_blob *b);

#endif
