/*
 * Records put in time order through small keys: a key per record (its time
 * and its index), the keys sorted, then the records moved once.
 * Sorting 64-byte records with qsort() moved each of them log n times and
 * called a comparison through a pointer each step (contention's million
 * waits: a tenth of the analysis); the keys are 16 bytes, compared inline.
 *
 * The sort is stable (keys of one time keep their order: what analyses
 * gather is in file order, which orders events of one time), and takes one
 * of two ways after a first pass counts the runs already in order. Events
 * gathered in file order are a few such runs (a writer's per-thread
 * buffers, one after another): a natural merge sort, n log(runs). Records
 * made in another order than the one sorted by (waits finish in the order of
 * their ends and are sorted by their starts) are thousands of short runs
 * (contention's on the real 1 GB trace: 16k runs of 17 a unit): a radix sort
 * of the times (less the least), 11 bits a pass, 3 passes for a span of 2^33
 * ticks. The way is chosen by the passes each would take.
 */
#ifndef NTX_BASE_TIME_SORT_H
#define NTX_BASE_TIME_SORT_H
#include <stddef.h>
#include <stdint.h>

typedef struct ntx_time_key {
    uint64_t ts; /* the record's time */
    size_t i;    /* the record's index */
} ntx_time_key;

/* keys[0..n) sorted by time, stable; tmp has room for n keys. Returns the sorted keys: keys or tmp. */
ntx_time_key *ntx_time_sort(ntx_time_key *keys, ntx_time_key *tmp, size_t n);

/*
 * The n records of `size` bytes at v moved in place into the order of
 * sorted[0..n) (the record at position p becomes the one that was at
 * sorted[p].i), each moved once, following the permutation's cycles. The
 * keys' i fields are overwritten (marks of what was moved).
 */
void ntx_time_permute(void *v, size_t size, ntx_time_key *sorted, size_t n);

#endif
