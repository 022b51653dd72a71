/*
 * Encoding primitives of the writer: little-endian stores, varints, UTF-16
 * strings, and event-row headers (compressed and uncompressed, V5 and V6).
 *
 * The header encoders are pure functions of (previous header, current
 * header) so the unit tests can check them against byte vectors written by
 * hand from the specs.
 */
#ifndef NTIDX_WRITER_ENCODE_H
#define NTIDX_WRITER_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/* Little-endian stores come from base/le.h (ntx_store16/32/64, via buf.h). */

/* LEB128 (the format's "varuint"): at most 10 bytes for 64 bits. */
static inline uint8_t *ntidx_w_varuint(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

/* The format's "varint": zig-zag, so that small negative numbers stay short. */
static inline uint64_t ntidx_w_zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

size_t ntidx_w_varuint_len(uint64_t v);

/** Zero bytes that bring `offset` to a multiple of 4 (V5 file alignment). */
static inline uint32_t ntidx_w_pad4(uint64_t offset)
{
    return (uint32_t)((4 - (offset & 3)) & 3);
}

/* ---- strings ---- */

/**
 * Append `s` (UTF-8, NULL = "") as NUL-terminated UTF-16LE, the V5 metadata
 * string form. Invalid UTF-8 becomes U+FFFD; code points above U+FFFF become
 * surrogate pairs.
 */
void ntidx_w_put_utf16z(ntidx_buf *b, const char *s);

/** Bytes ntidx_w_put_utf16z() appends for `s`, terminator included. */
size_t ntidx_w_utf16z_size(const char *s);

/** Append a V6 string: varuint32 byte length + UTF-8 bytes (NULL = ""). */
void ntidx_w_put_str6(ntidx_buf *b, const char *s);

/* ---- event-row headers ---- */

/** Every field an event-row header can carry, in both generations. */
typedef struct ntidx_w_hdr {
    uint32_t metadata_id;
    uint32_t sequence_number;
    uint64_t thread;         /* V5 thread id / V6 thread index */
    uint64_t capture_thread; /* V5 capture thread id / V6 capture thread index */
    uint32_t processor_number;
    uint32_t stack_id;
    uint64_t timestamp;
    uint8_t activity_id[16];         /* V5 */
    uint8_t related_activity_id[16]; /* V5 */
    uint32_t label_list_id;          /* V6 */
    uint32_t payload_size;
} ntidx_w_hdr;

/* Compressed header flag bits (both generations; 16/32 differ). */
#define NTIDX_W_HF_METADATA_ID 0x01u
#define NTIDX_W_HF_CAPTURE_THREAD_AND_SEQ 0x02u
#define NTIDX_W_HF_THREAD 0x04u
#define NTIDX_W_HF_STACK_ID 0x08u
#define NTIDX_W_HF_ACTIVITY_ID 0x10u         /* V5 */
#define NTIDX_W_HF_RELATED_ACTIVITY_ID 0x20u /* V5 */
#define NTIDX_W_HF_LABEL_LIST 0x10u          /* V6 */
#define NTIDX_W_HF_SORTED 0x40u
#define NTIDX_W_HF_PAYLOAD_SIZE 0x80u

/** Largest compressed header either generation can produce. */
#define NTIDX_W_MAX_COMPRESSED_HDR 96
/*
 * Uncompressed rows keep a sortedness flag in the high bit of MetadataId.
 * The specs call that bit "IsSorted", but the runtime sets it for events
 * that are NOT sorted (ep-block.c: `metadata_id |= !is_sorted_event ? 1 << 31
 * : 0`), TraceEvent's own test writer does the same, and so does our
 * reader: the writer follows the implementations.
 */
#define NTIDX_W_NOT_SORTED_BIT 0x80000000u

/** V5 uncompressed header, the leading EventSize included. */
#define NTIDX_W_V5_UNCOMPRESSED_HDR 80
/** V6 uncompressed header, the leading EventSize included. */
#define NTIDX_W_V6_UNCOMPRESSED_HDR 52

/**
 * V4/V5 compressed header of `cur` after `prev` (all zero at the start of a
 * block); updates *prev. The reader's implicit sequence increment is +1
 * only when MetadataId != 0, so the CaptureThreadAndSequence group is
 * written when seq != prev.seq + (metadata_id != 0) or the capture thread
 * or processor changed; the stored delta is seq - prev.seq - 1 (mod 2^32),
 * exactly what the runtime writes. Returns the bytes written (<=
 * NTIDX_W_MAX_COMPRESSED_HDR).
 */
size_t ntidx_w_hdr_v5_compressed(uint8_t *out, ntidx_w_hdr *prev, const ntidx_w_hdr *cur,
                                 int is_sorted);

/** V6 compressed header: as V5 but the sequence always increments and LabelListId replaces the GUIDs. */
size_t ntidx_w_hdr_v6_compressed(uint8_t *out, ntidx_w_hdr *prev, const ntidx_w_hdr *cur,
                                 int is_sorted);

/**
 * V5 uncompressed header (80 bytes). EventSize counts everything after
 * itself including the `padding` zero bytes that follow the payload (as the
 * runtime computes it).
 */
size_t ntidx_w_hdr_v5_uncompressed(uint8_t *out, const ntidx_w_hdr *cur, int is_sorted,
                                   uint32_t padding);

/** V6 uncompressed header (52 bytes); no padding in V6. */
size_t ntidx_w_hdr_v6_uncompressed(uint8_t *out, const ntidx_w_hdr *cur, int is_sorted);

#endif /* NTIDX_WRITER_ENCODE_H */
