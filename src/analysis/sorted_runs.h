/*
 * Runs of records, each already sorted, merged into one sorted array on
 * threads: how an analysis whose units each sort their own records (on the
 * workers, in parallel) puts them in one order without a sort of them all on
 * one thread (contention's waits: a million on the real 1 GB trace, whose
 * sort was most of the analysis's serial part).
 *
 * A sample of the runs' keys cuts the key range into buckets; each run is cut
 * at the bounds by binary search (it is sorted); each bucket is a k-way merge
 * of its slices, written at its place in the output, one bucket per task.
 */
#ifndef NTX_ANALYSIS_SORTED_RUNS_H
#define NTX_ANALYSIS_SORTED_RUNS_H
#include <stddef.h>
#include <stdint.h>

typedef struct ntx_sorted_run {
    const void *v; /* n records of the merge's size, sorted by its cmp */
    size_t n;
} ntx_sorted_run;

/*
 * runs[0..nruns) merged into `out` (room for all their records, `size` bytes
 * each, not overlapping them) in cmp() order, on up to `threads` threads (0:
 * one per core). key() orders records as cmp() does, coarser: cmp(a, b) < 0
 * implies key(a) <= key(b) (a record's time, when cmp orders by time first).
 * Records cmp() finds equal keep the order of their runs. 0 or NTIDX_E_NOMEM
 * (out then undefined).
 */
int ntx_merge_runs(const ntx_sorted_run *runs, size_t nruns, size_t size, int (*cmp)(const void *, const void *),
                   uint64_t (*key)(const void *), void *out, unsigned threads);

#endif
