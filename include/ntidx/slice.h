/*
 * ntidx slice: cut a time window (and optionally a filtered subset) out of
 * a trace into a new, self-contained trace.
 *
 * What the output holds
 * ---------------------
 * Exactly the events ntidx_query_open() yields for the same window and
 * filters, in the input's file order, with their headers unchanged
 * (timestamps, thread ids or V6 thread indexes, capture threads, sequence
 * numbers, processor numbers, IsSorted marks, activity ids or label list
 * ids, stack ids, payload bytes), and every definition they reference and
 * nothing else that is large:
 *
 *  - metadata rows are copied byte for byte under their own ids (V4/V5
 *    tags and V6 optional fields included), each once, and again only when
 *    the input redefines the id or flushes metadata (V6);
 *  - V6 thread rows are copied byte for byte under their own indexes, for
 *    the threads and capture threads of the written events;
 *  - stacks and V6 label lists keep their ids; they are defined in each
 *    output region that uses them, since both die at a sequence point;
 *  - a sequence point is written at every input region boundary between
 *    the first and the last written event, with the input's timestamp and
 *    V6 flags (so metadata and thread flushes happen where they did), and
 *    the input's (thread, sequence number) pairs for the threads the output
 *    has seen (V4/V5) or defines (V6). V6 remove-thread entries are kept
 *    for the threads the output defines.
 *
 * Event blocks the selection takes whole (no filter dropped any of their
 * events) are copied byte for byte, framing excepted (V4/V5 alignment
 * padding is recomputed for the new offset); the other events are
 * re-encoded by the writer (include/ntidx/writer.h).
 *
 * Format version: the output keeps the input's: V6 stays V6; V4 and V5 are
 * written with the V5 writer (Trace object version 4, like the runtime), so
 * a V4 input, whose metadata has no V5 tags, reads as V4 again; for a V5
 * input the first metadata row carrying V5 tags is defined first (even when
 * no written event uses it: one small row) so that readers detect V5 again
 * (a trace that is V5 only by its Trace object version, without any tagged
 * row among its first metadata blocks, comes out as V4).
 * V3 (NetPerf) input is written as NetTrace with V4 metadata (it then reads
 * as V4); its inline stacks go to stack blocks under ids 1, 2, ... given in
 * order of first use (identical stacks share an id), so `stack_id` differs
 * from the V3 input's 0 while the stack bytes are the same.
 *
 * The output always ends with an end-of-stream marker, even when the input
 * is incomplete. Its last region is left open (no closing sequence point).
 */
#ifndef NTIDX_SLICE_H
#define NTIDX_SLICE_H

#include "index.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ntidx_slice_options {
    int copy_blocks;                /**< 1 (default): copy wholly selected event blocks byte for byte; 0: re-encode every event */
    int compressed_headers;         /**< -1 (default): as the input's first event block; 0 or 1: force */
    uint32_t max_event_block_bytes; /**< re-encoded event blocks; 0 (default): the writer's default */
    /** Deprecated and ignored, as ntidx_query_options.recover: a lazily checked index is checked whole
        before anything is written, and a corrupt one is NTIDX_E_INDEX_CORRUPT (ntidx_index_recover(),
        then slice again over the new index). */
    int recover;
    /** Optional: bytes of the trace the slice's query has read of those it will read
        (ntidx_query_estimate()); nonzero cancels with NTIDX_E_CANCELLED (nothing is put in place). */
    ntidx_progress_fn progress;
    void *progress_ctx;
    uint64_t reserved[5];           /**< zero (see Conventions in ntidx.h) */
} ntidx_slice_options;

NTIDX_API void ntidx_slice_options_defaults(ntidx_slice_options *o);

/** What a slice wrote and read. */
typedef struct ntidx_slice_stats {
    int format_version;        /**< the output's framing: 5 (V3, V4 and V5 inputs) or 6 */
    uint64_t events;           /**< events written */
    uint64_t events_copied;    /**< of which inside blocks copied byte for byte */
    uint64_t blocks_copied;    /**< event blocks copied byte for byte */
    uint64_t sequence_points;  /**< sequence points written */
    uint64_t metadata, threads, stacks, label_lists, thread_removals; /**< definitions written */
    uint64_t query_bytes_read; /**< bytes of trace blocks the query decoded (ntidx_query_stats.bytes_read) */
    uint64_t bytes_read;       /**< query_bytes_read plus the blocks the slice itself decoded to find
                                    definitions and sequence points (some of which the query may have
                                    read too: an upper bound of the trace bytes touched) */
    uint64_t bytes_written;    /**< size of the output */
    uint64_t reserved[4];      /**< zero: the library fills it (see Conventions in ntidx.h) */
} ntidx_slice_stats;

/**
 * Write the slice of `t` (indexed by `x`) selected by `q` to `out_path`,
 * as ntidx_output_open() writes (output.h): a regular file through a
 * temporary beside it, renamed over it when complete, so that a failed
 * slice leaves `out_path` as it was; a device or a FIFO in place, never
 * removed.
 *
 * @param q  window and filters as for ntidx_query_open() (NULL: the whole
 *           trace). `order` is ignored: the output keeps the input's file
 *           order (a reader's time order of the output equals the query's
 *           time order). `limit` counts events in file order.
 * @param o  NULL: defaults.
 * @param stats  optional.
 * @return NTIDX_OK; NTIDX_E_INVALID_ARG (bad arguments, or `out_path` is
 *         the input trace itself); NTIDX_E_IO / NTIDX_E_WRITE (output);
 *         NTIDX_E_CORRUPT, NTIDX_E_UNDEFINED_REF, NTIDX_E_NOMEM as the
 *         query and reader return them; NTIDX_E_INDEX_CORRUPT (a lazily
 *         checked index fails its check: nothing was written).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_slice(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *q,
                                          const ntidx_slice_options *o, const char *out_path,
                                          ntidx_slice_stats *stats);

/**
 * Same as ntidx_slice() into the caller's descriptor `fd`, from where it is
 * (a temporary of ntidx_output_open(), a pipe, standard output), left open;
 * `name` names the output in messages (NULL: "(output)"). Nothing is removed
 * on failure: the caller decides (ntidx_output_discard()).
 * @return as ntidx_slice(); NTIDX_E_INVALID_ARG also when `fd` is the input trace.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_slice_fd(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *q,
                                             const ntidx_slice_options *o, int fd, const char *name,
                                             ntidx_slice_stats *stats);

/** Same as ntidx_slice() into memory: *data is malloc'ed (free() it), *size its bytes. */
NTIDX_NODISCARD NTIDX_API int ntidx_slice_memory(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *q,
                                                 const ntidx_slice_options *o, uint8_t **data, size_t *size,
                                                 ntidx_slice_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* NTIDX_SLICE_H */
