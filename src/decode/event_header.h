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

#include "cursor.h"
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

/* A malformed row: the block stops here; the error names the row's offset. Returns NTIDX_E_CORRUPT. */
int ntx_hdr_row_error(ntx_hdr_block *hb, const uint8_t *at, ntx_err *err, const char *what);

enum { NTX_CF_METADATA = 1, NTX_CF_CAPTURE_SEQ_PROC = 2, NTX_CF_THREAD = 4, NTX_CF_STACK = 8,
       NTX_CF_ACTIVITY_OR_LABEL = 16, NTX_CF_RELATED = 32, NTX_CF_SORTED = 64, NTX_CF_PAYLOAD_SIZE = 128 };

/*
 * A compressed header is at most 93 bytes (flags; metadata id, sequence
 * delta, processor: 5 each; capture thread, thread, timestamp delta: 10 each;
 * stack id, label id, payload size: 5 each; or two 16-byte activity ids
 * before V6). With this many bytes left in the block its fields are read
 * without a bounds check each (ntx_hdr_decode_compressed).
 */
#define NTX_HDR_COMPRESSED_MAX 96

/*
 * A varuint of a compressed header, out of line: the encodings of three bytes
 * and more, every encoding near the block's end, and the checks of truncated,
 * over-long and over-wide (bits 32 or 64) encodings. Returns the position
 * after it and its value (p NULL on failure): both in registers, so the
 * caller's position never has to live in memory.
 */
typedef struct ntx_varu_read {
    const uint8_t *p;
    uint64_t v;
} ntx_varu_read;
ntx_varu_read ntx_hdr_varu_slow(const uint8_t *p, const uint8_t *end, unsigned bits);

/*
 * Decode one compressed header at *pp into *pv, the delta state (the
 * previous row, which this row's fields update), and leave *pp at its
 * payload. `v6`: V6 rules (label list ids; the sequence number always
 * increments), else V4/V5 (activity ids). 1, or 0 with *what saying what is
 * wrong (the caller stops the block). Inline over a local copy of the state,
 * the compiler keeps it in registers: the reader's loops are built on it.
 * With room for the longest header left in the block, fields of up to three
 * bytes (flags, ids, sizes, timestamp deltas) are read without a bounds check
 * or a call.
 */
static inline __attribute__((always_inline)) int
ntx_hdr_decode_compressed(ntx_hdr *pv, const uint8_t **pp, const uint8_t *end, int v6, const char **what)
{
    const uint8_t *p = *pp;
    const int room = end - p >= NTX_HDR_COMPRESSED_MAX;
#define NTX_HDR_VAR(dst, bits)                                                                                     \
    do {                                                                                                           \
        if (__builtin_expect(room && p[0] < 0x80, 1)) {                                                            \
            dst = p[0];                                                                                            \
            p += 1;                                                                                                \
        } else if (room && p[1] < 0x80) {                                                                          \
            dst = (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;                                                   \
            p += 2;                                                                                                \
        } else if (room && p[2] < 0x80) {                                                                          \
            dst = (uint64_t)(p[0] & 0x7f) | (uint64_t)(p[1] & 0x7f) << 7 | (uint64_t)p[2] << 14;                   \
            p += 3;                                                                                                \
        } else {                                                                                                   \
            ntx_varu_read r_ = ntx_hdr_varu_slow(p, end, bits);                                                    \
            if (__builtin_expect(!r_.p, 0)) {                                                                      \
                *what = "compressed header field is truncated or too wide";                                       \
                return 0;                                                                                          \
            }                                                                                                      \
            p = r_.p;                                                                                              \
            dst = r_.v;                                                                                            \
        }                                                                                                          \
    } while (0)
    uint8_t f = *p++;
    if (f & NTX_CF_METADATA)
        NTX_HDR_VAR(pv->metadata_id, 32);
    if (f & NTX_CF_CAPTURE_SEQ_PROC) {
        uint32_t delta;
        NTX_HDR_VAR(delta, 32);
        pv->seq += delta + 1;
        NTX_HDR_VAR(pv->capture, 64);
        NTX_HDR_VAR(pv->proc, 32);
    } else if (v6 || pv->metadata_id != 0) {
        pv->seq++;
    }
    if (f & NTX_CF_THREAD)
        NTX_HDR_VAR(pv->thread, 64);
    if (f & NTX_CF_STACK)
        NTX_HDR_VAR(pv->stack_id, 32);
    uint64_t dt;
    NTX_HDR_VAR(dt, 64);
    pv->timestamp += dt;
    if (v6) {
        if (f & NTX_CF_ACTIVITY_OR_LABEL)
            NTX_HDR_VAR(pv->label_id, 32);
    } else {
        if (f & NTX_CF_ACTIVITY_OR_LABEL) {
            if ((uint64_t)(end - p) < 16) {
                *what = "activity id is truncated";
                return 0;
            }
            pv->activity = p;
            p += 16;
        }
        if (f & NTX_CF_RELATED) {
            if ((uint64_t)(end - p) < 16) {
                *what = "related activity id is truncated";
                return 0;
            }
            pv->related = p;
            p += 16;
        }
    }
    if (f & NTX_CF_PAYLOAD_SIZE)
        NTX_HDR_VAR(pv->payload_size, 32);
#undef NTX_HDR_VAR
    if (__builtin_expect(pv->payload_size > (uint64_t)(end - p), 0)) {
        *what = "payload runs past the end of the block";
        return 0;
    }
    pv->is_sorted = (f & NTX_CF_SORTED) != 0;
    *pp = p;
    return 1;
}

/*
 * The next row of a block of compressed headers (hb->compressed, hb->p <
 * hb->end), decoded in place into hb->prev, the delta state, which is then the
 * row (no copy). 1, or NTIDX_E_CORRUPT with the block stopped.
 */
static inline int ntx_hdr_next_compressed(ntx_hdr_block *hb, ntx_err *err)
{
    const uint8_t *at = hb->p, *p = hb->p;
    const char *what;
    ntx_hdr *pv = &hb->prev;
    if (__builtin_expect(!ntx_hdr_decode_compressed(pv, &p, hb->end, hb->version == 6, &what), 0))
        return ntx_hdr_row_error(hb, at, err, what);
    pv->offset = (uint64_t)(at - hb->base);
    pv->payload_off = (uint64_t)(p - hb->base);
    hb->p = p + pv->payload_size;
    return 1;
}

/* Decode the next row: 1 a row, 0 end of block, <0 error (recorded in err). */
int ntx_hdr_next(ntx_hdr_block *hb, ntx_hdr *h, ntx_err *err);

/* Same without a copy: *h points into hb, valid until the next call (the reader's hot path). */
int ntx_hdr_next_ref(ntx_hdr_block *hb, const ntx_hdr **h, ntx_err *err);

#endif
