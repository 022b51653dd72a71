/*
 * ntidx reports: the JSON documents `ntidx info --json` and `ntidx stats
 * --json` print, made by the library so that every client that promises
 * "the same keys and values as the command" (the Python module's
 * Trace.info() and Trace.stats(), Dask jobs) gives them from one producer
 * instead of deriving the numbers again. The keys are a contract (README).
 *
 * @code
 *   ntidx_buf b = {0};
 *   if (ntidx_info_json(t, path, &b) < 0) report(ntidx_last_error());
 *   puts(b.data);           // the document, even when the walk stopped at an error
 *   ntidx_buf_free(&b);
 * @endcode
 */
#ifndef NTIDX_REPORT_H
#define NTIDX_REPORT_H

#include "ntidx.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a walk over a trace's block headers finds (what `ntidx info` shows). */
typedef struct ntidx_trace_summary {
    int complete;                               /**< the end-of-stream marker was read */
    uint64_t end;                               /**< end of the last complete block ("indexed_end") */
    uint64_t blocks[NTIDX_BLOCK_KIND_COUNT];    /**< blocks per kind (the trace block included) */
    uint64_t unknown_blocks;                    /**< blocks of kinds this library does not know */
    uint64_t block_total;                       /**< every block */
    uint64_t first_ts, last_ts;                 /**< event time span from event-block ranges; UINT64_MAX and 0
                                                     when no block holds events */
    char incomplete_reason[NTIDX_ERROR_MAX];    /**< a trace cut short, or damaged (the walk stopped at an error:
                                                     an end-of-stream marker with bytes after it, a block that
                                                     cannot be read): "offset N (0xN): why"; else "" */
    uint64_t reserved[4];
} ntidx_trace_summary;

/**
 * Walk the block headers of `t` (event blocks are decoded only where their
 * header time range is missing or untrustworthy), or, when the trace's index
 * (where ntidx_index_path() says) is there, current, and indexed a complete
 * trace, read the same facts from the index (a few pages instead of every
 * block header). No index is built or written.
 * @return NTIDX_OK (complete, or cut short: see incomplete_reason);
 *         NTIDX_E_CORRUPT and the like when a block cannot be read (an
 *         end-of-stream marker that does not end the file is such a block):
 *         `out` then holds what was found before it (complete is 0) and
 *         incomplete_reason the error's offset and text.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_trace_summarize(ntidx_trace *t, ntidx_trace_summary *out);

/**
 * Append the document `ntidx info --json` prints (one line, without its
 * newline): file, format_version, minor_version, trace_object_version, size,
 * complete, indexed_end, pointer_size, tick_frequency, sync_ticks,
 * sync_time_utc, process_id, number_of_processors, blocks (per kind, the
 * trace block and "unknown" included), block_total, first_ts, last_ts,
 * duration_s, keyvalues, and incomplete_reason for a trace cut short.
 * "blocks" has the same keys in `ntidx stats --json` and `ntidx index
 * --json`: one key, one meaning in every document.
 * @param file  the value of "file" (NULL: the name the trace was opened with)
 * @return NTIDX_OK; NTIDX_E_NOMEM; ntidx_trace_summarize()'s errors (the
 *         document of what was found is still appended).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_info_json(ntidx_trace *t, const char *file, ntidx_buf *out);

/**
 * Append the document `ntidx stats --json` prints for `s` (one line, without
 * its newline): file, format_version, complete, events, first_ts, last_ts,
 * sync_ticks, tick_frequency, duration_s, payload_bytes, providers, types,
 * threads, dropped_events, dropped_by_thread, histogram, blocks (per kind,
 * "unknown" included, as ntidx_info_json() gives them), regions_from_index,
 * and incomplete_reason when not complete.
 * @return NTIDX_OK; NTIDX_E_NOMEM; NTIDX_E_INVALID_ARG.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_stats_json(const ntidx_stats *s, const char *file, ntidx_buf *out);

#ifdef __cplusplus
}
#endif

#endif /* NTIDX_REPORT_H */
