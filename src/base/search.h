/*
 * The one binary search over sorted tables (index sections, method tables):
 * the first position in [0, n) whose element is not "before" the target, n
 * when every element is. `before(ctx, i)` must be monotonic: true for a
 * prefix of the positions, false after it. Inline, so that the predicate,
 * known at each call, is inlined too. And the one qsort() order of the
 * tables of uint64_t keys such searches run over, and the one way the
 * parallel sorts find their buckets' bounds.
 */
#ifndef NTX_BASE_SEARCH_H
#define NTX_BASE_SEARCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static inline uint64_t ntx_lower_bound(uint64_t n, int (*before)(const void *ctx, uint64_t i), const void *ctx)
{
    uint64_t lo = 0, hi = n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (before(ctx, mid))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* qsort()'s order of uint64_t keys, ascending: the one comparator of the tables above that are made of them. */
static inline int ntx_u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The bounds of up to nbuckets buckets of keys, from a sample of k of them (sorted here): its quantiles
   1/nbuckets .. (nbuckets - 1)/nbuckets, each value once, into bounds (room for nbuckets - 1). Returns how many:
   bucket b holds the keys below bounds[b] (and not below bounds[b - 1]), the last one the rest, so there are
   that many plus one buckets. The parallel sorts and merges of the analyses cut their work this way. */
static inline size_t ntx_sample_bounds(uint64_t *sample, size_t k, size_t nbuckets, uint64_t *bounds)
{
    size_t nbounds = 0;
    if (!k)
        return 0;
    qsort(sample, k, sizeof *sample, ntx_u64_cmp);
    for (size_t b = 1; b < nbuckets; b++) {
        uint64_t v = sample[b * k / nbuckets];
        if (!nbounds || v > bounds[nbounds - 1])
            bounds[nbounds++] = v;
    }
    return nbounds;
}

#endif
