/*
 * What the layers above use to build an index (src/ops: the index
 * lifecycle and the --full builder, which computes its counts with queries):
 * the plain scan of block headers, its stream of closed regions, the
 * --full per-block counts and filters, and where an index lives and how it
 * was asked for. The index's struct stays index_internal.h's.
 */
#ifndef NTIDX_INDEX_BUILD_H
#define NTIDX_INDEX_BUILD_H

#include <stdint.h>

#include "error.h"
#include "ntidx/index.h"

/*
 * The plain index: scan t from its first block, or extend `from` (a valid
 * prefix) with the blocks after it. o->full only changes the kernel advice
 * (a --full build reads every block afterwards); the --full sections are
 * added above (src/ops/index_full.c).
 */
int ntx_index_scan(ntidx_trace *t, const ntidx_index *from, const ntidx_index_options *o, ntidx_index **out,
                   ntx_err *err);

/*
 * Regions as the scan closes them (a --full build starts decoding them while
 * the scan goes on, src/ops/index_full.c). After each sequence point closes
 * a region, `region_closed` is called on the scanning thread with the index
 * so far: its tables (index_tables.h: blocks, regions, definitions, sequence
 * points) hold the entries written so far, which are final. A snapshot of it
 * taken then (ntx_index_snapshot()) stays valid for reading those entries
 * until ntx_index_free_retired(x) or ntidx_index_close(): the scan never frees
 * or moves a buffer it outgrows while it has a sink. Nothing of x may be
 * written by the sink.
 */
typedef struct ntx_scan_sink {
    void (*region_closed)(void *ctx, const ntidx_index *x);
    void *ctx;
} ntx_scan_sink;
int ntx_index_scan_stream(ntidx_trace *t, const ntidx_index *from, const ntidx_index_options *o,
                          const ntx_scan_sink *sink, ntidx_index **out, ntx_err *err);
/* Free the buffers a scan with a sink outgrew (no snapshot taken during the scan is used any more). */
void ntx_index_free_retired(ntidx_index *x);
/*
 * A copy of the index a scan is building, as it is now (`region_closed`): its
 * tables, read by a worker while the scan goes on, with the regions said to
 * be sorted by time or not (`regions_sorted`: as far as the scan has seen).
 * NULL when out of memory. Freed with ntx_index_snapshot_free(), before the
 * index it copies.
 */
ntidx_index *ntx_index_snapshot(const ntidx_index *x, int regions_sorted);
void ntx_index_snapshot_free(ntidx_index *snap);

/*
 * The --full per-block counts and filters of a built index: FILTERS made for
 * every block, zeroed, and every block's event count set to 0. Returns the
 * filters (block b's entry at b * NTX_FILTER_ENTRY, types then threads at
 * +32) to fill, or NULL when out of memory (said in `err`).
 */
uint8_t *ntx_index_begin_counts(ntidx_index *x, ntx_err *err);
/* FILTERS alone made (zeroed) ahead of ntx_index_begin_counts(), which then keeps it: the --full build has
   its workers put their entries there while others still read the index (nothing reads FILTERS before
   ntx_index_end_counts() binds it). Returns it, or NULL when out of memory (said in `err`). */
uint8_t *ntx_index_make_filters(ntidx_index *x, ntx_err *err);
/* Block b's events. */
void ntx_index_set_block_events(ntidx_index *x, uint64_t b, uint32_t events);
/* The counts are in: the index is --full with `events` events; queries over it use the counts from now on. */
void ntx_index_end_counts(ntidx_index *x, uint64_t events);

/* Fill the public info (ntidx_index_get_info()) from the header facts: after a build. */
void ntx_index_fill_info(ntidx_index *x);

/*
 * Remember where an index lives (`from_file`: `path` is its file, where
 * ntidx_index_recover() saves a rebuilt one; else only its name in messages)
 * and, when `o` is given, the options it was opened with (kept for
 * ntidx_index_recover()). Before the index is handed out. 0 or NTIDX_E_NOMEM.
 */
int ntx_index_adopt(ntidx_index *x, const char *path, int from_file, const ntidx_index_options *o);
/* 1 and *o: the options ntx_index_adopt() kept; 0: none. */
int ntx_index_opened_with(const ntidx_index *x, ntidx_index_options *o);

/*
 * Where ntidx_index_open() keeps a trace's index when given no path
 * (index_path.c): *path (malloc'ed) beside the trace, or in the index
 * directory (*in_dir; *private_dir: the user's cache, created 0700).
 * 0 or NTIDX_E_NOMEM.
 */
int ntx_index_locate(const char *trace_path, char **path, int *in_dir, int *private_dir);
/* The same for an open trace: a remote one's is in the index directory, keyed by its URL, ETag and size. */
int ntx_index_locate_trace(const ntidx_trace *t, char **path, int *in_dir, int *private_dir);
/* 1 when `path` is where a remote trace's index is keyed by the object's identity (so that its name proves
   the object unchanged), else 0. */
int ntx_index_keyed(const ntidx_trace *t, const char *path);
/*
 * A remote trace's index put beside it (URL.ntidx, ntidx index --upload) copied to `path` (its place in the
 * index directory; `private_dir` as ntx_make_dirs()): 1 when copied, 0 when there is none to be had.
 */
int ntx_index_fetch_beside(const ntidx_trace *t, const char *path, int private_dir);
/* Create the missing folders above file_path. 0, or NTIDX_E_IO with `err` naming the folder. */
int ntx_make_dirs(const char *file_path, int private_dir, ntx_err *err);

#endif
