/*
 * The writer's state, shared by writer.c (API, block grouping) and the
 * per-generation encoders writer_v5.c and writer_v6.c.
 *
 * Pending blocks: definitions (metadata, threads, stacks, label lists) and
 * events are encoded into their own buffers as they are added, and written
 * out as blocks later. Whenever the event block is written, every pending
 * definition block is written just before it; definitions may precede the
 * events that use them by any distance, never follow them, so this keeps
 * the header's promise ("a definition added before an event that
 * references it is written before that event's block").
 */
#ifndef NTIDX_WRITER_INTERNAL_H
#define NTIDX_WRITER_INTERNAL_H

#include <ntidx/writer.h>

#include "buf.h"
#include "encode.h"
#include "sink.h"

/* A pending definition block is written once it would grow past this. */
#define NTIDX_W_DEF_BLOCK_LIMIT (1u << 20)
/* V6 blocks carry a 24-bit size. */
#define NTIDX_W_V6_MAX_BLOCK 0xFFFFFFu
/* Event (and V5 metadata) block header: HeaderSize, Flags, Min/Max timestamp. */
#define NTIDX_W_EVENT_BLOCK_HEADER 20u

struct ntidx_writer {
    ntidx_writer_options o;
    char *path;   /* the output file (NULL in memory): for messages */
    int v6;       /* format_version == 6 */
    int err;      /* first error, sticky: every later call returns it */
    int finished; /* end-of-stream written */
    ntidx_w_sink sink;

    /* Pending event block. */
    ntidx_buf ev;
    size_t ev_count;
    ntidx_w_hdr ev_prev; /* previous header for compression, zeroed per block */
    uint64_t ev_min_ts, ev_max_ts;

    /* Pending metadata block (V5: event-blob rows with their own header state). */
    ntidx_buf meta;
    size_t meta_count;
    ntidx_w_hdr meta_prev;
    uint64_t meta_min_ts, meta_max_ts;

    /* Pending stack block: consecutive ids from stack_first. */
    ntidx_buf stacks;
    uint32_t stack_first, stack_count;

    /* Pending V6 thread block and label-list block. */
    ntidx_buf threads;
    size_t thread_count;
    ntidx_buf labels;
    uint32_t label_first, label_count;

    ntidx_buf scratch; /* V5 metadata payloads, SP and remove-thread bodies */
    uint64_t last_ts;   /* latest event timestamp: V5 metadata rows are stamped with it */
};

/* Record the first error and return it. */
static inline int ntidx_w_fail(ntidx_writer *w, int code)
{
    if (!w->err)
        w->err = code;
    return w->err;
}

/* ---- writer_v5.c ---- */
int ntidx_w_v5_begin(ntidx_writer *w);
/** Write one V5 object: "name" type, int BlockSize, padding, header+body, EndObject. */
int ntidx_w_v5_block(ntidx_writer *w, ntidx_block_kind kind, const uint8_t *head, size_t hlen,
                     const uint8_t *body, size_t blen);
/** Encode the V5 metadata payload of `m` into `b` (the part after the row header). */
int ntidx_w_v5_metadata_payload(ntidx_buf *b, const ntidx_metadata *m);
int ntidx_w_v5_sequence_point(ntidx_writer *w, uint64_t ts, const ntidx_thread_seq *t, size_t n);
int ntidx_w_v5_end(ntidx_writer *w);

/* ---- writer_v6.c ---- */
int ntidx_w_v6_begin(ntidx_writer *w);
int ntidx_w_v6_block(ntidx_writer *w, ntidx_block_kind kind, const uint8_t *head, size_t hlen,
                     const uint8_t *body, size_t blen);
/** Append one V6 metadata row (Size-prefixed) to `b`. */
int ntidx_w_v6_metadata_row(ntidx_buf *b, const ntidx_metadata *m);
/** Append one V6 thread row (RowSize-prefixed) to `b`. */
int ntidx_w_v6_thread_row(ntidx_buf *b, const ntidx_thread *th);
/** Append one V6 label list (the last label's kind has its high bit set) to `b`. */
int ntidx_w_v6_label_list(ntidx_buf *b, const ntidx_label *l, size_t n);
int ntidx_w_v6_sequence_point(ntidx_writer *w, uint64_t ts, uint32_t flags,
                              const ntidx_thread_seq *t, size_t n);
int ntidx_w_v6_remove_threads(ntidx_writer *w, const ntidx_thread_seq *t, size_t n);
int ntidx_w_v6_end(ntidx_writer *w);

/* ---- writer.c, for the generator ---- */
/** Detach the memory buffer of a memory writer (caller frees it). */
uint8_t *ntidx_w_take_memory(ntidx_writer *w, size_t *size);

#endif /* NTIDX_WRITER_INTERNAL_H */
