/*
 * Byte-vector builders for the reader tests. Every trace in these tests is
 * written by hand from the format specs through these helpers, so a test
 * reads like the spec's field list:
 *
 *   tb f; tb_init(&f);
 *   v6_stream_header(&f, 6, 0);
 *   v6_trace_block(&f, 8, 10000000, NULL, 0);
 *   ...
 *
 * Helpers abort() on out of memory; tests free with tb_free().
 */
#ifndef NTIDX_TESTS_READER_TBUILD_H
#define NTIDX_TESTS_READER_TBUILD_H

#include <stddef.h>
#include <stdint.h>

typedef struct tb {
    uint8_t *d;
    size_t len, cap;
} tb;

void tb_init(tb *b);
void tb_free(tb *b);
void tb_reset(tb *b);
void tb_bytes(tb *b, const void *p, size_t n);
void tb_zeros(tb *b, size_t n);
void tb_u8(tb *b, uint8_t v);
void tb_u16(tb *b, uint16_t v);
void tb_u32(tb *b, uint32_t v);
void tb_u64(tb *b, uint64_t v);
void tb_varu(tb *b, uint64_t v);             /* LEB128 varuint */
void tb_vari(tb *b, int64_t v);              /* zigzag varint */
void tb_str8(tb *b, const char *s);          /* varuint32 length + UTF-8 bytes (V6 string) */
void tb_utf16z(tb *b, const char *utf8);     /* UTF-16LE + NUL unit (V3-V5 string), from UTF-8 */
void tb_tb(tb *b, const tb *src);            /* append another buffer */
void tb_put16(tb *b, size_t at, uint16_t v); /* patch */
void tb_put32(tb *b, size_t at, uint32_t v);
void tb_pad4(tb *b);                         /* zero bytes up to a multiple of 4 of b->len */

/* A fixed guid whose bytes are seed, seed+1, ..., seed+15. */
void guid_fill(uint8_t g[16], uint8_t seed);

/* ---------------- V6 ---------------- */

/* "Nettrace", Reserved 0, Major, Minor. */
void v6_stream_header(tb *f, uint32_t major, uint32_t minor);
/* BlockHeader (24-bit size, 8-bit kind) + payload. */
void v6_block(tb *f, uint8_t kind, const void *payload, size_t size);
/* Trace block: SyncTimeUTC 2024-01-02 03:04:05.006 (Tuesday), SyncTimeTicks 1000, TickFrequency, PointerSize, KVs. */
void v6_trace_block(tb *f, uint32_t pointer_size, uint64_t freq, const char *const *kv, uint32_t kv_pairs);
void v6_end(tb *f);
/* The usual start: header 6.0 + trace block (pointer size 8, 10 MHz, no KVs). */
void v6_begin(tb *f);

/* Event block header: HeaderSize (>= 20; extra bytes filled with 0xEE), Flags, Min, Max. */
void eb_header(tb *p, uint16_t header_size, uint16_t flags, uint64_t min_ts, uint64_t max_ts);

typedef struct ev6 {
    uint32_t metadata_id;
    int not_sorted;          /* sets MetadataId bit 31 */
    uint32_t seq;
    uint64_t thread, capture;
    uint32_t proc, stack_id;
    uint64_t ts;
    uint32_t label_id;
    const void *payload;
    uint32_t payload_size;
} ev6;

/* One uncompressed V6 event row (52-byte header + payload). */
void v6_event_row(tb *p, const ev6 *e);

/* One V6 metadata row (uint16 Size + content). `fields` is a complete FieldDescriptions
   (uint16 Count + fields), NULL for Count 0; `optional` the optional elements (without
   their uint16 Size), NULL for none; `trailing` reserved bytes appended to the row. */
void v6_metadata_row(tb *p, uint32_t id, const char *provider, uint32_t event_id, const char *name,
                     const tb *fields, const tb *optional, size_t trailing);
/* One field description (uint16 FieldSize + name + type bytes + trailing reserved bytes). */
void v6_field(tb *fields, const char *name, const void *type, size_t type_len, size_t trailing);
/* A metadata block holding the rows in `rows`, with HeaderSize 0. */
void v6_metadata_block(tb *f, const tb *rows);
/* A simple event type: one row in its own metadata block, no fields. */
void v6_simple_metadata(tb *f, uint32_t id, const char *provider, const char *name);
/* Thread row: index, optional name (NULL: none), pid and tid (UINT64_MAX: none). */
void v6_thread_row(tb *p, uint64_t index, const char *name, uint64_t pid, uint64_t tid);
/* Sequence point: timestamp, flags, (thread index, seq) pairs. */
void v6_sequence_point(tb *f, uint64_t ts, uint32_t flags, const uint64_t *threads, const uint32_t *seqs,
                       uint32_t n);

/* ---------------- V4/V5 and V3 (FastSerialization) ---------------- */

/* "Nettrace" + 20 + "!FastSerialization.1" (32 bytes). */
void fs_nettrace_header(tb *f);
/* "!FastSerialization.1" with its length (24 bytes, V3). */
void fs_netperf_header(tb *f);
/* Trace object: tag (5 for V4/V5, 4 for V3), type "Trace" with version, the 48 fixed bytes, EndObject. */
void fs_trace_object(tb *f, uint8_t begin_tag, uint32_t version, uint32_t pointer_size, uint64_t freq);
/*
 * Start a block object: begin tag, type header (name, version), int BlockSize
 * (patched by fs_end_block), zero padding to a 4-byte FILE offset. Returns the
 * offset of the BlockSize field; write the content to f directly, then call
 * fs_end_block with that offset.
 */
size_t fs_begin_block(tb *f, uint8_t begin_tag, const char *name, uint32_t version);
/* Offset of the content of a block whose BlockSize field is at size_off. */
static inline size_t fs_content_start(size_t size_off) { return (size_off + 4 + 3) & ~(size_t)3; }
void fs_end_block(tb *f, size_t size_off);
/* Whole block with the given content. */
void fs_block(tb *f, uint8_t begin_tag, const char *name, uint32_t version, const void *content, size_t size);
/* NullReference tag: the end of the stream. */
void fs_end(tb *f);
/* Header + trace object (version 4, pointer size 8, 10 MHz). */
void v5_begin(tb *f);

typedef struct ev5 {
    uint32_t metadata_id;
    int not_sorted;
    uint32_t seq;
    uint64_t thread, capture;
    uint32_t proc, stack_id;
    uint64_t ts;
    const uint8_t *activity, *related; /* NULL: zeros */
    const void *payload;
    uint32_t payload_size;
    int size_counts_padding;           /* EventSize includes the alignment padding */
} ev5;

/* One uncompressed V4/V5 row written at the end of f (file offsets matter for the padding). */
void v5_event_row(tb *f, const ev5 *e);

/* V3-V5 metadata payload header: id, provider, event id, name, keywords, version, level. */
void v5_metadata_header(tb *p, uint32_t id, const char *provider, uint32_t event_id, const char *name,
                        uint64_t keywords, uint32_t version, uint32_t level);
/* A metadata block with one uncompressed row whose payload is `blob`. */
void v5_metadata_block(tb *f, const tb *blob);
/* A simple event type with an empty V1 field list. */
void v5_simple_metadata(tb *f, uint32_t id, const char *provider, const char *name);
/* Stack block: FirstId, Count, stacks of `sizes[i]` bytes filled with (id * 16 + byte index). */
void stack_block_payload(tb *p, uint32_t first, uint32_t count, const uint32_t *sizes);
/* V4/V5 sequence point block (SPBlock): ts, (thread id, seq) pairs. */
void v5_sequence_point(tb *f, uint64_t ts, const uint64_t *threads, const uint32_t *seqs, uint32_t n);

typedef struct ev3 {
    uint32_t metadata_id;
    uint32_t thread;
    uint64_t ts;
    const uint8_t *activity, *related;
    const void *payload;
    uint32_t payload_size;
    const void *stack;
    uint32_t stack_size;
    uint32_t extra; /* padding bytes counted by EventSize */
} ev3;

/* One V3 event: EventSize, MetadataId, ThreadId, ts, guids, PayloadSize, payload, stack size, stack, extra. */
void v3_event(tb *p, const ev3 *e);

/* ---------------- samples ---------------- */

/* A small but complete V6 trace using every block kind (threads, metadata, stacks,
   label lists, compressed and uncompressed event blocks, sequence points, remove-thread).
   Returns the number of events it holds. */
unsigned sample_v6(tb *f);
/* Same for V5 (metadata with V2Params and opcode tags, stacks, compressed and uncompressed events). */
unsigned sample_v5(tb *f);
/* Same for V3 (inline metadata, inline stacks). */
unsigned sample_v3(tb *f);

/* Deterministic xorshift64* generator. */
uint64_t rng_next(uint64_t *s);

#endif
