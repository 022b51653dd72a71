/*
 * Open pairs by key (pairs.h). Keys live in linear-probing hash tables whose
 * slots hold the key, a time, an order and a payload inline; deletion by
 * backward shift, so no tombstones accumulate over a long run of pairs.
 */
#include <stdlib.h>
#include <string.h>

#include "ntidx/ntidx.h"
#include "pairs.h"

/* ---- The key table ---- */

/* Slot layout: used flag (8 bytes, for alignment), key (16), ts (8), seq (8), payload. */
#define SLOT_HEAD 40u

static size_t round8(size_t n) { return (n + 7) & ~(size_t)7; }

static uint64_t mix(ntx_pair_key k)
{
    uint64_t h = k.a * 0x9E3779B97F4A7C15ull ^ (k.b + 0x632BE59BD9B4E019ull + (k.a << 6) + (k.a >> 2));
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    return h;
}

static uint8_t *slot(const ntx_ktab *t, size_t i) { return t->slots + i * t->slot_bytes; }
static uint64_t used(const uint8_t *s) { uint64_t u; memcpy(&u, s, 8); return u; }
static ntx_pair_key skey(const uint8_t *s) { ntx_pair_key k; memcpy(&k, s + 8, 16); return k; }
static uint64_t sts(const uint8_t *s) { uint64_t v; memcpy(&v, s + 24, 8); return v; }
static uint64_t sseq(const uint8_t *s) { uint64_t v; memcpy(&v, s + 32, 8); return v; }
static int same(ntx_pair_key x, ntx_pair_key y) { return x.a == y.a && x.b == y.b; }

static int kt_init(ntx_ktab *t, size_t payload)
{
    t->payload = payload;
    t->slot_bytes = SLOT_HEAD + round8(payload);
    t->cap = 16;
    t->n = 0;
    t->slots = calloc(t->cap, t->slot_bytes);
    return t->slots ? NTIDX_OK : NTIDX_E_NOMEM;
}

/* The slot of `k`, or the empty slot where it would go. */
static size_t kt_find(const ntx_ktab *t, ntx_pair_key k)
{
    size_t i = (size_t)mix(k) & (t->cap - 1);
    while (used(slot(t, i)) && !same(skey(slot(t, i)), k))
        i = (i + 1) & (t->cap - 1);
    return i;
}

static void kt_put(ntx_ktab *t, size_t i, ntx_pair_key k, uint64_t ts, uint64_t seq, const void *payload)
{
    uint8_t *s = slot(t, i);
    uint64_t one = 1;
    memcpy(s, &one, 8);
    memcpy(s + 8, &k, 16);
    memcpy(s + 24, &ts, 8);
    memcpy(s + 32, &seq, 8);
    if (t->payload && payload)
        memcpy(s + SLOT_HEAD, payload, t->payload);
}

/* Room for one more key (the table is kept at most three quarters full). */
static int kt_reserve(ntx_ktab *t)
{
    if ((t->n + 1) * 4 <= t->cap * 3)
        return NTIDX_OK;
    size_t old_cap = t->cap;
    uint8_t *old = t->slots;
    uint8_t *ns = calloc(old_cap * 2, t->slot_bytes);
    if (!ns)
        return NTIDX_E_NOMEM;
    t->slots = ns;
    t->cap = old_cap * 2;
    for (size_t i = 0; i < old_cap; i++) {
        const uint8_t *s = old + i * t->slot_bytes;
        if (used(s))
            memcpy(slot(t, kt_find(t, skey(s))), s, t->slot_bytes);
    }
    free(old);
    return NTIDX_OK;
}

/* Remove slot i, shifting back the slots of its cluster that probed past it. */
static void kt_remove(ntx_ktab *t, size_t i)
{
    size_t j = i;
    t->n--;
    for (;;) {
        memset(slot(t, i), 0, t->slot_bytes);
        for (;;) {
            j = (j + 1) & (t->cap - 1);
            if (!used(slot(t, j)))
                return;
            size_t home = (size_t)mix(skey(slot(t, j))) & (t->cap - 1);
            /* j's entry may move to i when its home does not lie cyclically in (i, j] */
            if ((i <= j) ? (home <= i || home > j) : (home <= i && home > j))
                break;
        }
        memcpy(slot(t, i), slot(t, j), t->slot_bytes);
        i = j;
    }
}

static void kt_clear(ntx_ktab *t)
{
    memset(t->slots, 0, t->cap * t->slot_bytes);
    t->n = 0;
}

typedef struct kref {
    uint64_t ts, seq;
    size_t slot;
} kref;

static int by_time(const void *a, const void *b)
{
    const kref *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The keys in (time, order) order (malloc'ed; *n of them); NULL with *n 0 when none; *nomem when out of
   memory. */
static kref *kt_sorted(const ntx_ktab *t, size_t *n, int *nomem)
{
    *n = 0;
    *nomem = 0;
    if (!t->n)
        return NULL;
    kref *refs = malloc(t->n * sizeof *refs);
    if (!refs) {
        *nomem = 1;
        return NULL;
    }
    for (size_t i = 0; i < t->cap; i++) {
        const uint8_t *s = slot(t, i);
        if (used(s))
            refs[(*n)++] = (kref){sts(s), sseq(s), i};
    }
    qsort(refs, *n, sizeof *refs, by_time);
    return refs;
}

/* ---- Pairs ---- */

int ntx_pairs_init(ntx_pairs *p, size_t open_size, size_t end_size)
{
    memset(p, 0, sizeof *p);
    p->open_size = open_size;
    p->end_size = end_size;
    p->end_bytes = 24 + round8(end_size);
    if (kt_init(&p->open, open_size) < 0 || kt_init(&p->started, 0) < 0) {
        ntx_pairs_free(p);
        return NTIDX_E_NOMEM;
    }
    return NTIDX_OK;
}

void ntx_pairs_free(ntx_pairs *p)
{
    free(p->open.slots);
    free(p->started.slots);
    free(p->ends);
    memset(p, 0, sizeof *p);
}

/* Open (or replace) the pair under k: 1 when one was replaced (copied out), else 0; NTIDX_E_NOMEM. */
static int open_pair(ntx_pairs *p, ntx_pair_key k, uint64_t ts, uint64_t seq, const void *payload, void *old,
                     uint64_t *old_ts)
{
    if (kt_reserve(&p->open) < 0)
        return NTIDX_E_NOMEM;
    size_t i = kt_find(&p->open, k);
    uint8_t *s = slot(&p->open, i);
    int replaced = used(s) != 0;
    if (replaced) {
        if (old && p->open_size)
            memcpy(old, s + SLOT_HEAD, p->open_size);
        if (old_ts)
            *old_ts = sts(s);
    } else {
        p->open.n++;
    }
    kt_put(&p->open, i, k, ts, seq, payload);
    return replaced;
}

int ntx_pairs_start(ntx_pairs *p, ntx_pair_key k, uint64_t ts, const void *payload, void *old, uint64_t *old_ts)
{
    uint64_t seq = p->seq++;
    if (kt_reserve(&p->started) < 0)
        return NTIDX_E_NOMEM;
    size_t i = kt_find(&p->started, k);
    if (!used(slot(&p->started, i))) {
        kt_put(&p->started, i, k, ts, seq, NULL);
        p->started.n++;
    }
    return open_pair(p, k, ts, seq, payload, old, old_ts);
}

int ntx_pairs_end(ntx_pairs *p, ntx_pair_key k, uint64_t ts, const void *end_payload, int keep, void *open,
                  uint64_t *open_ts)
{
    size_t i = kt_find(&p->open, k);
    uint8_t *s = slot(&p->open, i);
    if (used(s)) {
        if (open && p->open_size)
            memcpy(open, s + SLOT_HEAD, p->open_size);
        if (open_ts)
            *open_ts = sts(s);
        kt_remove(&p->open, i);
        return 1;
    }
    if (!keep)
        return 0;
    if (used(slot(&p->started, kt_find(&p->started, k)))) {
        p->unmatched++; /* whatever was open before this unit, a start here replaced it */
        return 0;
    }
    if (p->nends == p->ends_cap) {
        size_t nc = p->ends_cap ? p->ends_cap * 2 : 16;
        uint8_t *ne = realloc(p->ends, nc * p->end_bytes);
        if (!ne)
            return NTIDX_E_NOMEM;
        p->ends = ne;
        p->ends_cap = nc;
    }
    uint8_t *e = p->ends + p->nends++ * p->end_bytes;
    memcpy(e, &k, 16);
    memcpy(e + 16, &ts, 8);
    if (p->end_size)
        memcpy(e + 24, end_payload, p->end_size);
    return 0;
}

int ntx_pairs_each_open(const ntx_pairs *p, int (*fn)(void *ctx, ntx_pair_key k, const void *open, uint64_t ts),
                        void *ctx)
{
    size_t n;
    int nomem;
    kref *refs = kt_sorted(&p->open, &n, &nomem);
    if (nomem)
        return NTIDX_E_NOMEM;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const uint8_t *s = slot(&p->open, refs[i].slot);
        rc = fn(ctx, skey(s), s + SLOT_HEAD, sts(s));
    }
    free(refs);
    return rc;
}

int ntx_pairs_merge(ntx_pairs *into, ntx_pairs *u, ntx_pair_closed_fn closed, ntx_pair_replaced_fn replaced,
                    void *ctx, uint64_t *unmatched)
{
    int rc = 0, nomem = 0;
    uint8_t *open = malloc(into->open_size ? into->open_size : 1);
    if (!open)
        return NTIDX_E_NOMEM;
    /* 1. The unit's ends without a start close what the units before left open. */
    for (size_t i = 0; rc == 0 && i < u->nends; i++) {
        const uint8_t *e = u->ends + i * u->end_bytes;
        ntx_pair_key k;
        uint64_t ts, open_ts;
        memcpy(&k, e, 16);
        memcpy(&ts, e + 16, 8);
        if (ntx_pairs_end(into, k, ts, NULL, 0, open, &open_ts) == 1)
            rc = closed(ctx, k, open, open_ts, e + 24, ts);
        else
            ++*unmatched;
    }
    *unmatched += u->unmatched;
    /* 2. A carried pair under a key the unit started again was replaced by that start. */
    size_t n = 0;
    kref *refs = rc == 0 ? kt_sorted(&u->started, &n, &nomem) : NULL;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        ntx_pair_key k = skey(slot(&u->started, refs[i].slot));
        size_t j = kt_find(&into->open, k);
        const uint8_t *s = slot(&into->open, j);
        if (!used(s))
            continue;
        uint64_t old_ts = sts(s);
        if (into->open_size)
            memcpy(open, s + SLOT_HEAD, into->open_size);
        kt_remove(&into->open, j);
        if (replaced)
            rc = replaced(ctx, k, open, old_ts);
    }
    free(refs);
    /* 3. Its open pairs are carried on, in the order they started. */
    refs = rc == 0 && !nomem ? kt_sorted(&u->open, &n, &nomem) : NULL;
    if (nomem)
        rc = NTIDX_E_NOMEM;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const uint8_t *s = slot(&u->open, refs[i].slot);
        uint64_t old_ts;
        int r = open_pair(into, skey(s), sts(s), into->seq++, s + SLOT_HEAD, open, &old_ts);
        if (r < 0)
            rc = r;
        else if (r == 1 && replaced) /* cannot happen after step 2; kept for safety */
            rc = replaced(ctx, skey(s), open, old_ts);
    }
    free(refs);
    free(open);
    /* The unit is spent. */
    kt_clear(&u->open);
    kt_clear(&u->started);
    u->nends = 0;
    u->unmatched = 0;
    return rc;
}
