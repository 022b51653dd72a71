/*
 * Event rows: the header of each event in an event block (and of each
 * metadata row in a V4/V5 metadata block, which uses the same encoding).
 *
 * One decoder serves every generation; the per-version differences are
 * parameters of the block:
 *  - V3: no block header; 56-byte header with a 32-bit thread id and the
 *    stack inline after the payload; EventSize includes padding.
 *  - V4/V5: block header {HeaderSize, Flags, MinTs, MaxTs}; uncompressed
 *    80-byte headers padded to 4-byte file offsets, or compressed headers
 *    with activity ids; a missing sequence number increments only when
 *    MetadataId != 0.
 *  - V6: same block header; 52-byte uncompressed headers (no padding) or
 *    compressed headers with a label list id; the sequence number always
 *    increments.
 * Uncompressed MetadataId bit 31 set means the event is NOT sorted (what
 * the runtime writes and TraceEvent reads).
 */
#ifndef NTIDX_EVENT_HEADER_H
#define NTIDX_EVENT_HEADER_H

#include <stdint.h>

#include "error.h"
#include "ntidx/ntidx.h"

struct ntidx_trace;

typedef struct ntx_hdr {
    uint64_t offset;       /* file offset of the row */
    uint64_t thread;       /* thread id (V3-V5) or index (V6) */
    uint64_t capture;
    uint64_t timestamp;
    uint64_t payload_off;
    const uint8_t *activity;  /* V3-V5: 16 bytes in the map (or zeros) */
    const uint8_t *related;
    const uint8_t *stack;     /* V3 inline stack, else NULL */
    uint32_t stack_size;
    uint32_t metadata_id;
    uint32_t seq;
    uint32_t proc;
    uint32_t stack_id;
    uint32_t label_id;
    uint32_t payload_size;
    uint8_t is_sorted;
} ntx_hdr;

typedef struct ntx_hdr_block {
    const uint8_t *base;    /* file start: offsets are relative to it */
    const uint8_t *p, *end; /* rows still to decode */
    uint64_t block_offset;
    int version;            /* 3, 4 (V4 and V5), 6 */
    int compressed;
    uint16_t header_size, flags;
    uint64_t min_ts, max_ts; /* as stored; see ntx_hdr_block_range_known */
    ntx_hdr prev;           /* delta state for compressed headers (also the decoded row) */
    ntx_hdr cur;            /* the decoded row of uncompressed and V3 blocks */
} ntx_hdr_block;

/* Parse an event block's (or V4/V5 metadata block's) header. */
int ntx_hdr_block_init(ntx_hdr_block *hb, const struct ntidx_trace *t, const ntidx_block *b, ntx_err *err);

/*
 * Block min/max timestamps are only trusted when not 0/0, min <= max, and the maximum is not all ones:
 * one-collect (dotnet-trace collect-linux, the one V6 writer) may close its last block with a maximum of
 * 0xFFFFFFFFFFFFFFFF, which is "not known", not a timestamp.
 */
static inline int ntx_block_range_known(uint64_t min_ts, uint64_t max_ts)
{
    return !(min_ts == 0 && max_ts == 0) && min_ts <= max_ts && max_ts != UINT64_MAX;
}

static inline int ntx_hdr_block_range_known(const ntx_hdr_block *hb)
{
    return ntx_block_range_known(hb->min_ts, hb->max_ts);
}

/* Decode the next row: 1 a row, 0 end of block, <0 error (recorded in err). */
int ntx_hdr_next(ntx_hdr_block *hb, ntx_hdr *h, ntx_err *err);

/* Same without a copy: *h points into hb, valid until the next call (the reader's hot path). */
int ntx_hdr_next_ref(ntx_hdr_block *hb, const ntx_hdr **h, ntx_err *err);

#endif
