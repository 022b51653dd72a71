/*
 * Two-word keys to one-word values: the lookups of the analyses' state
 * machines (an activity by its id and process, a thread's state by its
 * process and thread id). Keys come from the trace, so the table is hashed
 * (a file cannot choose how much is allocated) and grows as needed; linear
 * probing with backward-shift deletion, so no tombstones accumulate over a
 * long run of inserts and removes.
 */
#ifndef NTX_ANALYSIS_KEYMAP_H
#define NTX_ANALYSIS_KEYMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct ntx_kmap_slot {
    uint64_t a, b, val;
    uint64_t used;
} ntx_kmap_slot;

typedef struct ntx_kmap {
    ntx_kmap_slot *slots;
    size_t cap, n; /* cap: 0 or a power of two */
} ntx_kmap;

static inline void ntx_kmap_init(ntx_kmap *m)
{
    m->slots = NULL;
    m->cap = m->n = 0;
}
void ntx_kmap_free(ntx_kmap *m);
/* The value under (a, b) in *val: 1, or 0 when there is none. */
int ntx_kmap_get(const ntx_kmap *m, uint64_t a, uint64_t b, uint64_t *val);
/* Insert or replace: 0, or NTIDX_E_NOMEM. */
int ntx_kmap_put(ntx_kmap *m, uint64_t a, uint64_t b, uint64_t val);
/* The value under (a, b), where it is stored: NULL when there is none. Valid until the next put, ref or remove. */
uint64_t *ntx_kmap_find(const ntx_kmap *m, uint64_t a, uint64_t b);
/* The value under (a, b), where it is stored, made 0 when there was none (one probe for a read, a change and a
   write): NULL out of memory. Valid until the next put, ref or remove. */
uint64_t *ntx_kmap_ref(ntx_kmap *m, uint64_t a, uint64_t b);
/* 1 when (a, b) was there (and is removed), else 0. */
int ntx_kmap_remove(ntx_kmap *m, uint64_t a, uint64_t b);
static inline size_t ntx_kmap_count(const ntx_kmap *m) { return m->n; }

#endif
