/*
 * The one binary search over sorted tables (index sections, method tables):
 * the first position in [0, n) whose element is not "before" the target, n
 * when every element is. `before(ctx, i)` must be monotonic: true for a
 * prefix of the positions, false after it. Inline, so that the predicate,
 * known at each call, is inlined too. And the one qsort() order of the
 * tables of uint64_t keys such searches run over.
 */
#ifndef NTX_BASE_SEARCH_H
#define NTX_BASE_SEARCH_H

#include <stdint.h>

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

#endif
