/*
 * Start/end pairs across work units: the bookkeeping every pair analysis
 * (EventSource activities keyed by activity id, contention keyed by thread
 * and lock, JIT keyed by method id) shares.
 *
 * In a unit, a start opens a pair under its key and an end closes the pair
 * open under its key. An end that finds none is kept as an end without a
 * start when the unit has seen no start under its key yet: the pair may have
 * started in an earlier unit; after a start under its key, it pairs with
 * nothing (unmatched, counted). The unit also remembers which keys it saw a
 * start under. At the unit's end, the pairs still open, the ends kept and
 * the keys started are what the unit hands the merge, beside its finished
 * records.
 *
 * The merge carries one ntx_pairs over the units in time order
 * (ntx_pairs_merge): a unit's ends without a start, in their order, close
 * the pairs carried from the units before (an end that finds none pairs with
 * nothing: unmatched); then a carried pair under a key the unit started
 * again was replaced by that start (one pass over the events would have
 * replaced it there); then the unit's open pairs join the carried ones. The
 * result is what one pass over all the events in time order gives, for any
 * cut into units.
 *
 * Payloads are the analysis's own fixed-size structs (what a start or an end
 * carries), copied in and out.
 */
#ifndef NTX_ANALYSIS_PAIRS_H
#define NTX_ANALYSIS_PAIRS_H

#include <stddef.h>
#include <stdint.h>

/* A pair's key: two words (a GUID; a process and a thread; a lock and a thread). */
typedef struct ntx_pair_key {
    uint64_t a, b;
} ntx_pair_key;

/* A hash table of keys with a time, an order and a payload (pairs.c). */
typedef struct ntx_ktab {
    uint8_t *slots;
    size_t slot_bytes, payload, cap, n;
} ntx_ktab;

typedef struct ntx_pairs {
    size_t open_size, end_size; /* payload bytes of a start and of an end */
    ntx_ktab open;              /* open pairs: {key, start ts, start order, payload} */
    ntx_ktab started;           /* keys a start was seen under: {key, first start's ts and order} */
    uint64_t seq;               /* starts counted: ties in time keep their order */
    uint64_t unmatched;         /* ends after a start under their key, with nothing open */
    /* ends without a start, in order: {key, ts, payload} */
    uint8_t *ends;
    size_t end_bytes, nends, ends_cap;
} ntx_pairs;

/* 0 or NTIDX_E_NOMEM. */
int ntx_pairs_init(ntx_pairs *p, size_t open_size, size_t end_size);
void ntx_pairs_free(ntx_pairs *p);

/*
 * A start at `ts`. When a pair is already open under `k`, it is replaced,
 * and the old one copied to `old` / `old_ts` (when not NULL): return 1 (the
 * analysis decides what a start without an end is: incomplete, unmatched);
 * else 0. NTIDX_E_NOMEM.
 */
int ntx_pairs_start(ntx_pairs *p, ntx_pair_key k, uint64_t ts, const void *payload, void *old, uint64_t *old_ts);

/*
 * An end at `ts`: 1 when it closed the pair open under `k` (copied to
 * `open` / `open_ts` when not NULL, and removed); 0 when none was open, and
 * then, with `keep` (a unit's ends), the end is kept as an end without a
 * start, or counted in p->unmatched when a start was seen under `k`; the
 * merge and the lookahead do not keep them. NTIDX_E_NOMEM.
 */
int ntx_pairs_end(ntx_pairs *p, ntx_pair_key k, uint64_t ts, const void *end_payload, int keep, void *open,
                  uint64_t *open_ts);

/* Pairs open. */
static inline size_t ntx_pairs_open_count(const ntx_pairs *p) { return p->open.n; }

/* What the merge does with a pair it closes, and with a carried pair a later start replaces. Return 0 or
   a negative ntidx_error (stops the merge). */
typedef int (*ntx_pair_closed_fn)(void *ctx, ntx_pair_key k, const void *open, uint64_t open_ts, const void *end,
                                  uint64_t end_ts);
typedef int (*ntx_pair_replaced_fn)(void *ctx, ntx_pair_key k, const void *open, uint64_t open_ts);

/*
 * The next unit `u` (its ends without a start, the keys it started, its open
 * pairs) into the pairs carried in `into`: closed() per end that finds its
 * pair, replaced() (may be NULL) per carried pair one of u's starts
 * replaced; *unmatched gets the ends that find none and u's own. `u` is left
 * empty. 0 or a negative ntidx_error.
 */
int ntx_pairs_merge(ntx_pairs *into, ntx_pairs *u, ntx_pair_closed_fn closed, ntx_pair_replaced_fn replaced,
                    void *ctx, uint64_t *unmatched);

/* Every open pair, in the order they started (time, then start order): fn(ctx, key, payload, ts). */
int ntx_pairs_each_open(const ntx_pairs *p, int (*fn)(void *ctx, ntx_pair_key k, const void *open, uint64_t ts),
                        void *ctx);

#endif
