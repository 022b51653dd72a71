/* Records put in time order through small keys (time_sort.h). */
#include "time_sort.h"

#include <string.h>

/* Inputs of at most this many runs in order are merged; more, merged or radix sorted by the passes each takes. */
#define MERGE_MAX_RUNS 16
#define RADIX_BITS 11
#define RADIX (1u << RADIX_BITS)

/* The natural merge sort: runs found and merged pairwise until one is left. */
static ntx_time_key *merge_sort(ntx_time_key *keys, ntx_time_key *tmp, size_t n)
{
    for (;;) {
        size_t out = 0, runs = 0;
        for (size_t a = 0; a < n;) {
            size_t m = a + 1;
            while (m < n && keys[m].ts >= keys[m - 1].ts)
                m++;
            size_t b = m;
            if (m < n) {
                b = m + 1;
                while (b < n && keys[b].ts >= keys[b - 1].ts)
                    b++;
            }
            /* [a, m) and [m, b) merged into tmp[out..], ties from the left (stable). Which side a key comes
               from is data, not a branch: the runs interleave at random, and a mispredicted branch a key was
               most of the merge's time. */
            size_t i = a, j = m;
            while (i < m && j < b) {
                const size_t right = keys[j].ts < keys[i].ts;
                tmp[out++] = keys[right ? j : i];
                j += right;
                i += right ^ 1;
            }
            while (i < m)
                tmp[out++] = keys[i++];
            while (j < b)
                tmp[out++] = keys[j++];
            runs++;
            a = b;
        }
        ntx_time_key *swap = keys;
        keys = tmp;
        tmp = swap;
        if (runs <= 1)
            return keys;
    }
}

/* The LSD radix sort of the times less `least`, whose span fits in `bits` bits. */
static ntx_time_key *radix_sort(ntx_time_key *keys, ntx_time_key *tmp, size_t n, uint64_t least, unsigned bits)
{
    size_t count[RADIX];
    for (unsigned shift = 0; shift < bits; shift += RADIX_BITS) {
        memset(count, 0, sizeof count);
        for (size_t k = 0; k < n; k++)
            count[((keys[k].ts - least) >> shift) & (RADIX - 1)]++;
        size_t at = 0;
        for (size_t d = 0; d < RADIX; d++) {
            size_t c = count[d];
            count[d] = at;
            at += c;
        }
        for (size_t k = 0; k < n; k++)
            tmp[count[((keys[k].ts - least) >> shift) & (RADIX - 1)]++] = keys[k];
        ntx_time_key *swap = keys;
        keys = tmp;
        tmp = swap;
    }
    return keys;
}

ntx_time_key *ntx_time_sort(ntx_time_key *keys, ntx_time_key *tmp, size_t n)
{
    if (n < 2)
        return keys;
    size_t runs = 1;
    uint64_t least = keys[0].ts, most = keys[0].ts;
    for (size_t k = 1; k < n; k++) {
        runs += keys[k].ts < keys[k - 1].ts;
        least = keys[k].ts < least ? keys[k].ts : least;
        most = keys[k].ts > most ? keys[k].ts : most;
    }
    if (runs == 1)
        return keys;
    unsigned bits = 0;
    for (uint64_t span = most - least; span; span >>= 1)
        bits++;
    /* a merge pass per halving of the runs (a read and a write of each key) against a radix pass per RADIX_BITS
       of the span (two reads and a write, and the counts) */
    unsigned merge_passes = 0;
    for (size_t r = runs - 1; r; r >>= 1)
        merge_passes++;
    const uint64_t radix_passes = (bits + RADIX_BITS - 1) / RADIX_BITS;
    if (runs <= MERGE_MAX_RUNS || 2 * merge_passes * (uint64_t)n <= radix_passes * (3 * (uint64_t)n + RADIX))
        return merge_sort(keys, tmp, n);
    return radix_sort(keys, tmp, n, least, bits);
}

void ntx_time_permute(void *v, size_t size, ntx_time_key *sorted, size_t n)
{
    unsigned char *r = v, hold[256];
    for (size_t p = 0; p < n; p++) {
        if (sorted[p].i == SIZE_MAX || sorted[p].i == p) {
            sorted[p].i = SIZE_MAX;
            continue;
        }
        /* the cycle through p: each place takes the record its key names, the last one the record held out */
        for (size_t done = 0; done < size; done += sizeof hold) {
            size_t part = size - done < sizeof hold ? size - done : sizeof hold;
            memcpy(hold, r + p * size + done, part);
            size_t q = p;
            for (;;) {
                size_t from = sorted[q].i;
                if (from == p) {
                    memcpy(r + q * size + done, hold, part);
                    break;
                }
                memcpy(r + q * size + done, r + from * size + done, part);
                q = from;
            }
        }
        for (size_t q = p; sorted[q].i != SIZE_MAX;) { /* marked moved: the cycle is done */
            size_t from = sorted[q].i;
            sorted[q].i = SIZE_MAX;
            q = from;
        }
    }
}
