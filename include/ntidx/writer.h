/*
 * ntidx writer and synthetic trace generator.
 *
 * The writer emits valid V5 (NetTrace, FastSerialization objects with their
 * 4-byte alignment) and V6 traces. It is a streaming, block-oriented API:
 * definitions (metadata, threads, stacks, label lists) and events are
 * added in the order a reader must see them, and the writer groups them
 * into blocks:
 *
 *  - a definition added before an event that references it is always
 *    written to the file before that event's block;
 *  - events accumulate in one event block until it reaches
 *    max_event_block_bytes, a sequence point, a remove-thread, a flush or
 *    the end;
 *  - ntidx_writer_sequence_point() writes pending events first, then the
 *    sequence point: stacks and label lists added before it are dead after
 *    it (the caller re-adds what it still needs, as the format requires).
 *
 * The writer does not validate references: tests use it to write traces
 * that are wrong on purpose. ntidx_generate() builds valid traces on top
 * of it. It does refuse (NTIDX_E_INVALID_ARG) a metadata row, thread,
 * label or event whose reserved fields are not zero (see Conventions in
 * ntidx.h): rows the reader gives, and rows started from `= {0}`, have
 * them zero.
 *
 * Uncompressed event rows mark unsorted events with MetadataId bit 31 SET,
 * as the runtime writes and TraceEvent reads (the spec text says the bit
 * means IsSorted; readers written from it alone would disagree).
 */
#ifndef NTIDX_WRITER_H
#define NTIDX_WRITER_H

#include "ntidx.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ntidx_writer ntidx_writer;

typedef struct ntidx_writer_options {
    int format_version;               /**< 5 or 6 (default 6) */
    uint32_t pointer_size;            /**< 4 or 8 (default 8) */
    ntidx_systime sync_time_utc;      /**< default 2026-01-01T00:00:00Z */
    int64_t sync_ticks;               /**< default 0 */
    int64_t tick_frequency;           /**< default 10,000,000 */
    uint32_t process_id;              /**< V5 field; V6 "ProcessId" key when nonzero */
    uint32_t number_of_processors;    /**< V5 field; V6 "HardwareThreadCount" when nonzero */
    uint32_t expected_cpu_sampling_rate;
    const ntidx_keyvalue *keyvalues;  /**< extra V6 trace-block pairs */
    size_t keyvalue_count;
    int compressed_headers;           /**< 1 (default): header compression; 0: uncompressed rows */
    uint32_t max_event_block_bytes;   /**< default 100,000 (what the runtime writes) */
    uint64_t reserved[8];             /**< zero (see Conventions in ntidx.h) */
} ntidx_writer_options;

NTIDX_API void ntidx_writer_options_defaults(ntidx_writer_options *o);

/**
 * Start a trace written to `path` (created or truncated), in place as it
 * goes: a reader may follow the file while it grows. For a file that
 * appears under its name only once complete, write through an
 * ntidx_output (output.h) with ntidx_writer_open_fd().
 * @return NTIDX_OK, NTIDX_E_IO, NTIDX_E_NOMEM, NTIDX_E_INVALID_ARG.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_writer_open_file(const char *path, const ntidx_writer_options *o,
                                                     ntidx_writer **out);

/**
 * Start a trace written to the caller's descriptor `fd` from where it is (a
 * temporary of ntidx_output_open(), a pipe, standard output); ntidx_writer_close()
 * leaves it open. `name` is used in messages only (NULL: none).
 * @return NTIDX_OK, NTIDX_E_NOMEM, NTIDX_E_INVALID_ARG.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_writer_open_fd(int fd, const char *name, const ntidx_writer_options *o,
                                                   ntidx_writer **out);

/**
 * Start a trace written to a growing memory buffer, fetched with
 * ntidx_writer_memory() after ntidx_writer_finish().
 */
NTIDX_NODISCARD NTIDX_API int ntidx_writer_open_memory(const ntidx_writer_options *o, ntidx_writer **out);

/** The bytes written so far (memory writers), valid until close. */
NTIDX_API const uint8_t *ntidx_writer_memory(const ntidx_writer *w, size_t *size);

/** Bytes written or buffered so far (file or memory). */
NTIDX_API uint64_t ntidx_writer_bytes(const ntidx_writer *w);

/**
 * Define a metadata row. Uses id, provider, event_id, event_name, keywords,
 * version, level, opcode (-1: none), fields/field_count (when has_fields),
 * and in V6 message_template and description. In V5, fields needing V5
 * encodings (arrays) are written as a V2Params tag.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_writer_add_metadata(ntidx_writer *w, const ntidx_metadata *m);

/** Define a thread (V6 only; NTIDX_E_INVALID_ARG in V5). */
NTIDX_NODISCARD NTIDX_API int ntidx_writer_add_thread(ntidx_writer *w, const ntidx_thread *th);

/** A (thread, sequence number) pair of a sequence point or remove-thread block. */
typedef struct ntidx_thread_seq {
    uint64_t thread;           /**< V6 thread index; V5 thread id */
    uint32_t sequence_number;
} ntidx_thread_seq;

/** Remove threads (V6 only): writes pending events, then a RemoveThread block. */
NTIDX_NODISCARD NTIDX_API int ntidx_writer_remove_threads(ntidx_writer *w, const ntidx_thread_seq *t, size_t n);

/** Define stack `id` as `size` bytes of instruction pointers (pointer_size each). */
NTIDX_NODISCARD NTIDX_API int ntidx_writer_add_stack(ntidx_writer *w, uint32_t id, const uint8_t *ips, uint32_t size);

/** Define V6 label list `id` (>= 1) with n labels (n >= 1). */
NTIDX_NODISCARD NTIDX_API int ntidx_writer_add_label_list(ntidx_writer *w, uint32_t id, const ntidx_label *labels, size_t n);

/* ---- Definitions and blocks copied from another trace (ntidx_slice) ---- */

/**
 * Define a metadata row from its encoded bytes, copied unchanged (no
 * re-encoding: tags, field layouts and ids stay exactly as the source wrote
 * them).
 *  - V5 writer: `data` is a V3-V5 metadata payload (the event-blob form:
 *    int MetadataId, UTF-16 provider, event id, name, keywords, version,
 *    level, field list, V5 tags); the writer wraps it in a metadata row as
 *    ntidx_writer_add_metadata() does.
 *  - V6 writer: `data` is a whole V6 metadata row, its uint16 Size
 *    included (size == 2 + Size).
 * @return NTIDX_OK, NTIDX_E_INVALID_ARG (sizes do not match), NTIDX_E_NOMEM.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_writer_add_metadata_raw(ntidx_writer *w, const uint8_t *data, size_t size);

/** Define a V6 thread from a whole encoded thread row, its uint16 RowSize included (size == 2 + RowSize). */
NTIDX_NODISCARD NTIDX_API int ntidx_writer_add_thread_raw(ntidx_writer *w, const uint8_t *row, size_t size);

/**
 * Define V6 label list `id` (>= 1) from its encoded labels, as a label-list
 * block stores them and ntidx_event.label_list points at them (the last
 * label's kind has its high bit set).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_writer_add_label_list_raw(ntidx_writer *w, uint32_t id, const uint8_t *labels,
                                                              size_t size);

/**
 * Write every pending block, then one block of `kind` whose content (what
 * ntidx_block.payload_offset/payload_size delimit in the source trace) is
 * `payload`, copied byte for byte. The writer supplies the framing of its
 * own version: V6 the size/kind header; V5 the FastSerialization object
 * with its BlockSize and the zero padding to a 4-byte FILE offset
 * recomputed for the block's new position, then EndObject. The source
 * block must be of the writer's generation (V4/V5 content for a V5 writer,
 * V6 for V6); V5 accepts event, metadata, stack and sequence-point blocks.
 * The caller defines, before it, everything the block references.
 * @return NTIDX_OK, NTIDX_E_INVALID_ARG, or a write error.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_writer_add_raw_block(ntidx_writer *w, ntidx_block_kind kind, const uint8_t *payload,
                                                         size_t size);

/**
 * Append an event. Uses metadata_id, sequence_number, thread_index,
 * capture_thread_index, processor_number, stack_id, timestamp, is_sorted,
 * payload/payload_size, and activity_id/related_activity_id (V5; NULL means
 * zero) or label_list_id (V6).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_writer_add_event(ntidx_writer *w, const ntidx_event *ev);

/** Sequence point flags (V6). */
#define NTIDX_SP_FLUSH_THREADS 1u
#define NTIDX_SP_FLUSH_METADATA 2u

/** Write pending events, then a sequence point (flags ignored in V5). */
NTIDX_NODISCARD NTIDX_API int ntidx_writer_sequence_point(ntidx_writer *w, uint64_t timestamp, uint32_t flags,
                                                          const ntidx_thread_seq *threads, size_t n);

/** Write every pending block (the trace stays open). */
NTIDX_NODISCARD NTIDX_API int ntidx_writer_flush(ntidx_writer *w);

/** Write pending blocks and the end-of-stream marker. */
NTIDX_NODISCARD NTIDX_API int ntidx_writer_finish(ntidx_writer *w);

/**
 * Close. A file writer that was not finished still writes every pending
 * complete block, but no end-of-stream marker (what a crashed writer
 * leaves). Returns the first write error, if any.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_writer_close(ntidx_writer **w);

/* ------------------------------------------------------------------ */
/* Synthetic traces                                                    */
/* ------------------------------------------------------------------ */

typedef struct ntidx_gen_options {
    int format_version;        /**< 5 or 6 (default 6) */
    uint64_t target_bytes;     /**< stop once the trace reaches this size (0: use events) */
    uint64_t events;           /**< stop after this many events (default 100,000 when target_bytes is 0) */
    uint64_t seed;             /**< same options + seed => same bytes */
    uint32_t threads;          /**< capture threads (default 8) */
    double drop_rate;          /**< fraction of events dropped (sequence gaps), default 0 */
    uint32_t metadata_flush_every; /**< V6: every Nth sequence point flushes metadata (0: never) */
    uint32_t thread_flush_every;   /**< V6: every Nth sequence point flushes threads (0: never); threads
                                        come back under new indexes with sequence numbers from 1 */
    int remove_threads;        /**< V6: retire and replace threads with RemoveThread blocks */
    int compressed_headers;    /**< default 1 */
    int finish;                /**< default 1: write end-of-stream */
    int shape;                 /**< NTIDX_GEN_SHAPE_NTIDX (default) or NTIDX_GEN_SHAPE_ONE_COLLECT */
    int unknown_end;           /**< one-collect shape: the end of capture not known, so the last event
                                    block's maximum timestamp is 0xFFFFFFFFFFFFFFFF (as one-collect
                                    writes it then) instead of the end of capture */
    /** Optional: bytes written of target_bytes, or events written of `events`; nonzero cancels with
        NTIDX_E_CANCELLED. */
    ntidx_progress_fn progress;
    void *progress_ctx;
    uint64_t reserved[5];      /**< zero (see Conventions in ntidx.h) */
} ntidx_gen_options;

/**
 * Generator shapes. NTIDX_GEN_SHAPE_NTIDX is ntidx's own: several capture threads whose runs
 * interleave, the runtime's providers and every field type, V5 or V6. NTIDX_GEN_SHAPE_ONE_COLLECT is
 * V6 as microsoft/one-collect (behind `dotnet-trace collect-linux`) writes it: one capture thread
 * with IsSorted on every event and every header field present, event blocks of about 1 MiB each
 * preceded by a sequence point that flushes threads (its time the previous block's last event) and
 * by fresh stack, thread and label-list blocks whose ids restart, one metadata block never
 * flushed, block minimum the previous block's last timestamp, Universal.Events samples (a varuint
 * value, a stack, labels) and Universal.System process, mapping and symbol events (UTF-8 strings
 * with a 16-bit length). It needs format version 6; threads, drop_rate, flushes, thread removal and
 * uncompressed headers do not apply.
 */
#define NTIDX_GEN_SHAPE_NTIDX 0
#define NTIDX_GEN_SHAPE_ONE_COLLECT 1

NTIDX_API void ntidx_gen_options_defaults(ntidx_gen_options *o);

/**
 * Generate a synthetic trace into `path`, written as ntidx_output_open()
 * writes (output.h): a regular file through a temporary beside it, renamed
 * over it when complete, so that a failure leaves `path` as it was; a
 * device or a FIFO in place.
 * @return NTIDX_OK; NTIDX_E_IO, NTIDX_E_WRITE (the message names `path`);
 *         NTIDX_E_INVALID_ARG (options); NTIDX_E_NOMEM.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_generate_file(const char *path, const ntidx_gen_options *o);

/** The same into the caller's descriptor `fd`, from where it is, left open; `name` for messages only. */
NTIDX_NODISCARD NTIDX_API int ntidx_generate_fd(int fd, const char *name, const ntidx_gen_options *o);

/** Generate a synthetic trace in memory; *data is malloc'ed, free() it. */
NTIDX_NODISCARD NTIDX_API int ntidx_generate_memory(const ntidx_gen_options *o, uint8_t **data, size_t *size);

#ifdef __cplusplus
}
#endif

#endif /* NTIDX_WRITER_H */
