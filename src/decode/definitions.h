/*
 * Decoders for the definition and control blocks: stacks, V6 threads and
 * remove-thread entries, V6 label lists, sequence points. Each walks its
 * block through a cursor and hands rows to a callback, so the reader (and
 * later the index builder) decide what to keep.
 */
#ifndef NTIDX_DEFINITIONS_H
#define NTIDX_DEFINITIONS_H

#include "arena.h"
#include "error.h"
#include "ntidx/ntidx.h"
#include "sp_flush.h" /* what a sequence point flushes: NTX_FLUSH_*, ntx_sp_flushes() */

struct ntidx_trace;

/* Stack blocks: FirstId, Count, then Count x {size, bytes}. */
typedef int (*ntx_stack_cb)(void *ctx, uint32_t id, const uint8_t *ips, uint32_t size);
int ntx_decode_stack_block(const struct ntidx_trace *t, const ntidx_block *b, ntx_stack_cb cb, void *ctx,
                           ntx_err *err);

/*
 * V6 thread rows: each row's thread, and where the row lies in the trace
 * (its bytes, the leading u16 size included: what a slice copies). Strings
 * land in the arena; with no arena (NULL) names are not kept (th->name NULL).
 */
typedef struct ntx_thread_row {
    uint64_t offset;
    uint32_t size;
} ntx_thread_row;
typedef int (*ntx_thread_cb)(void *ctx, const ntidx_thread *th, const ntx_thread_row *row);
int ntx_decode_thread_block(const struct ntidx_trace *t, const ntidx_block *b, ntx_arena *a, ntx_thread_cb cb,
                            void *ctx, ntx_err *err);

/* (thread, sequence) pairs of sequence points and V6 remove-thread blocks. */
typedef int (*ntx_thread_seq_cb)(void *ctx, uint64_t thread, uint32_t seq);
int ntx_decode_remove_thread_block(const struct ntidx_trace *t, const ntidx_block *b, ntx_thread_seq_cb cb,
                                   void *ctx, ntx_err *err);

typedef struct ntx_seqpoint {
    uint64_t timestamp;
    uint32_t flags;        /* V6 only: the block's flags as stored (what a copy of the block writes) */
    uint32_t flushes;      /* what it flushes: ntx_sp_flushes() */
    uint32_t thread_count;
} ntx_seqpoint;
int ntx_decode_sequence_point(const struct ntidx_trace *t, const ntidx_block *b, ntx_seqpoint *sp,
                              ntx_thread_seq_cb cb, void *ctx, ntx_err *err);
/* The same from a copy of the block's payload (its b->payload_size bytes at `payload`), e.g. read with
   pread(); `v6`: the trace is V6. Messages give offsets in the file. */
int ntx_decode_sequence_point_bytes(const uint8_t *payload, const ntidx_block *b, int v6, ntx_seqpoint *sp,
                                    ntx_thread_seq_cb cb, void *ctx, ntx_err *err);

/* V6 label lists: each list's id and its encoded labels (validated). */
typedef int (*ntx_label_list_cb)(void *ctx, uint32_t id, const uint8_t *p, uint32_t size);
int ntx_decode_label_list_block(const struct ntidx_trace *t, const ntidx_block *b, ntx_label_list_cb cb, void *ctx,
                                ntx_err *err);

/*
 * What a V6 label list overrides in the metadata of the events that use it (the spec: its OpCode,
 * Keywords, Level and Version labels override the metadata's; TraceEvent applies them per event).
 * -1: not given. The last label of a kind wins.
 */
typedef struct ntx_label_overrides {
    int opcode, version, level;
    int has_keywords;
    uint64_t keywords;
} ntx_label_overrides;

/* The overrides of an encoded (validated) label list; 1 when it has any, else 0. */
int ntx_label_list_overrides(const uint8_t *p, uint32_t size, ntx_label_overrides *o);

#endif
