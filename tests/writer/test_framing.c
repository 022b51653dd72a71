/*
 * Block framing of the writer's output, byte for byte: traces written with
 * the public writer API are compared with byte vectors written by hand from
 * nettrace-format-v6.md and nettrace-format-v5.md (the V5 ones also follow
 * what the .NET 5 runtime writes).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <ntidx/writer.h>

#define BYTES(...) ((const uint8_t[]){__VA_ARGS__})
#define NBYTES(...) sizeof((const uint8_t[]){__VA_ARGS__})
/* Compare `n` bytes at data+at with the vector, then advance `at`. */
#define EXPECT_AT(data, size, at, ...)                                                             \
    do {                                                                                           \
        assert_true((at) + NBYTES(__VA_ARGS__) <= (size));                                         \
        assert_memory_equal((data) + (at), BYTES(__VA_ARGS__), NBYTES(__VA_ARGS__));               \
        (at) += NBYTES(__VA_ARGS__);                                                               \
    } while (0)

static uint32_t ld32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t ld64(const uint8_t *p)
{
    return (uint64_t)ld32(p) | (uint64_t)ld32(p + 4) << 32;
}

static ntidx_writer *open_mem(int version, int compressed)
{
    ntidx_writer_options o;
    ntidx_writer_options_defaults(&o);
    o.format_version = version;
    o.compressed_headers = compressed;
    ntidx_writer *w = NULL;
    assert_int_equal(ntidx_writer_open_memory(&o, &w), NTIDX_OK);
    return w;
}

/* Stream header and the trace block of default options: 2026-01-01 (a
 * Thursday), ticks 0, 10 MHz, 8-byte pointers, no key/value pairs. */
#define V6_HEAD                                                                                    \
    'N', 'e', 't', 't', 'r', 'a', 'c', 'e', 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0, /* header */       \
        40, 0, 0, 1,                                       /* trace block: 40 bytes, kind 1 */     \
        0xEA, 0x07, 1, 0, 4, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* SYSTEMTIME */                     \
        0, 0, 0, 0, 0, 0, 0, 0,                            /* SyncTimeTicks */                     \
        0x80, 0x96, 0x98, 0, 0, 0, 0, 0,                   /* TickFrequency */                     \
        8, 0, 0, 0,                                        /* PointerSize */                       \
        0, 0, 0, 0                                         /* KeyValueCount */

static void test_v6_empty_trace(void **state)
{
    (void)state;
    ntidx_writer *w = open_mem(6, 1);
    assert_int_equal(ntidx_writer_finish(w), NTIDX_OK);
    size_t n;
    const uint8_t *d = ntidx_writer_memory(w, &n);
    size_t at = 0;
    EXPECT_AT(d, n, at, V6_HEAD, 0, 0, 0, 0 /* EndOfStream */);
    assert_int_equal(at, n);
    assert_int_equal(ntidx_writer_bytes(w), n);
    /* Finished: no more blocks. */
    ntidx_event ev;
    memset(&ev, 0, sizeof(ev));
    assert_int_equal(ntidx_writer_add_event(w, &ev), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
    assert_null(w);
}

static void test_v6_trace_block_keyvalues(void **state)
{
    (void)state;
    ntidx_writer_options o;
    ntidx_writer_options_defaults(&o);
    o.process_id = 42;
    o.number_of_processors = 8;
    const ntidx_keyvalue kv[] = {{"k", "v"}};
    o.keyvalues = kv;
    o.keyvalue_count = 1;
    ntidx_writer *w = NULL;
    assert_int_equal(ntidx_writer_open_memory(&o, &w), NTIDX_OK);
    size_t n;
    const uint8_t *d = ntidx_writer_memory(w, &n);
    size_t at = 20;
    /* 40 fixed bytes + "HardwareThreadCount"="8" (1+19+1+1) + "ProcessId"="42" (1+9+1+2)
     * + "k"="v" (4) = 79 */
    EXPECT_AT(d, n, at, 79, 0, 0, 1);
    at += 36;
    EXPECT_AT(d, n, at, 3, 0, 0, 0, 19, 'H', 'a', 'r', 'd', 'w', 'a', 'r', 'e', 'T', 'h', 'r', 'e',
              'a', 'd', 'C', 'o', 'u', 'n', 't', 1, '8', 9, 'P', 'r', 'o', 'c', 'e', 's', 's', 'I',
              'd', 2, '4', '2', 1, 'k', 1, 'v');
    assert_int_equal(at, n);
    assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
}

/* Every V6 block kind in one trace, compared byte for byte. */
static void test_v6_all_blocks(void **state)
{
    (void)state;
    ntidx_writer *w = open_mem(6, 1);
    const ntidx_field fields[] = {{"x", NTIDX_TYPE_INT32, 0, NULL, NULL, 0}};
    ntidx_metadata m;
    memset(&m, 0, sizeof(m));
    m.id = 1;
    m.provider = "P";
    m.event_id = 2;
    m.event_name = "E";
    m.opcode = 5;
    m.level = 4;
    m.version = 1;
    m.message_template = "m";
    m.has_fields = 1;
    m.field_count = 1;
    m.fields = fields;
    assert_int_equal(ntidx_writer_add_metadata(w, &m), NTIDX_OK);
    ntidx_thread th = {3, 1, 1, 300, 7, "w", {0}};
    assert_int_equal(ntidx_writer_add_thread(w, &th), NTIDX_OK);
    const uint8_t ips[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    assert_int_equal(ntidx_writer_add_stack(w, 1, ips, 8), NTIDX_OK);
    assert_int_equal(ntidx_writer_add_stack(w, 2, NULL, 0), NTIDX_OK);
    ntidx_label l1[2];
    memset(l1, 0, sizeof(l1));
    l1[0].kind = NTIDX_LABEL_ACTIVITY_ID;
    memset(l1[0].guid, 0x11, 16);
    l1[1].kind = NTIDX_LABEL_KEY_INT;
    l1[1].key = "k";
    l1[1].key_len = 1;
    l1[1].i = -2;
    ntidx_label l2;
    memset(&l2, 0, sizeof(l2));
    l2.kind = NTIDX_LABEL_LEVEL;
    l2.u = 4;
    assert_int_equal(ntidx_writer_add_label_list(w, 1, l1, 2), NTIDX_OK);
    assert_int_equal(ntidx_writer_add_label_list(w, 2, &l2, 1), NTIDX_OK);
    const uint8_t payload[4] = {1, 2, 3, 4};
    ntidx_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.metadata_id = 1;
    ev.sequence_number = 1;
    ev.thread_index = 3;
    ev.capture_thread_index = 3;
    ev.stack_id = 2;
    ev.timestamp = 100;
    ev.label_list_id = 1;
    ev.is_sorted = 1;
    ev.payload = payload;
    ev.payload_size = 4;
    assert_int_equal(ntidx_writer_add_event(w, &ev), NTIDX_OK);
    const ntidx_thread_seq sp[2] = {{3, 10}, {130, 1}};
    assert_int_equal(ntidx_writer_sequence_point(w, 0x1234, NTIDX_SP_FLUSH_THREADS |
                                                                NTIDX_SP_FLUSH_METADATA,
                                                 sp, 2),
                     NTIDX_OK);
    const ntidx_thread_seq rm = {3, 11};
    assert_int_equal(ntidx_writer_remove_threads(w, &rm, 1), NTIDX_OK);
    assert_int_equal(ntidx_writer_finish(w), NTIDX_OK);

    size_t n;
    const uint8_t *d = ntidx_writer_memory(w, &n);
    size_t at = 0;
    EXPECT_AT(d, n, at, V6_HEAD);
    /* Definitions precede the event block that uses them: metadata, threads, stacks, labels. */
    EXPECT_AT(d, n, at, 28, 0, 0, 3, /* metadata block */
              0, 0,                  /* HeaderSize 0 */
              24, 0,                 /* row Size */
              1, 1, 'P', 2, 1, 'E',  /* id, provider, event id, name */
              1, 0, 3, 0, 1, 'x', 9, /* 1 field: FieldSize 3, "x", Int32 */
              9, 0, 1, 5, 4, 1, 'm', 8, 4, 9, 1); /* opcode 5, template "m", level 4, version 1 */
    EXPECT_AT(d, n, at, 11, 0, 0, 6, /* thread block */
              9, 0, 3, 1, 1, 'w', 2, 7, 3, 0xAC, 0x02);
    EXPECT_AT(d, n, at, 24, 0, 0, 5, /* stack block: first 1, count 2 */
              1, 0, 0, 0, 2, 0, 0, 0, 8, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0);
    EXPECT_AT(d, n, at, 31, 0, 0, 8, /* label-list block: first 1, count 2 */
              1, 0, 0, 0, 2, 0, 0, 0, 1, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
              0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x86, 1, 'k', 3, 0x89, 4);
    EXPECT_AT(d, n, at, 34, 0, 0, 2,                    /* event block */
              20, 0, 1, 0,                              /* HeaderSize 20, compressed */
              100, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0, /* min, max */
              0xDF, 1, 0, 3, 0, 3, 2, 100, 1, 4, 1, 2, 3, 4);
    EXPECT_AT(d, n, at, 21, 0, 0, 4, /* sequence point */
              0x34, 0x12, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 3, 10, 0x82, 1, 1);
    EXPECT_AT(d, n, at, 2, 0, 0, 7, 3, 11); /* remove-thread */
    EXPECT_AT(d, n, at, 0, 0, 0, 0);        /* end of stream */
    assert_int_equal(at, n);
    assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
}

/* "Nettrace", "!FastSerialization.1", the Trace object (version 4). */
#define V5_HEAD                                                                                    \
    'N', 'e', 't', 't', 'r', 'a', 'c', 'e', 20, 0, 0, 0, '!', 'F', 'a', 's', 't', 'S', 'e', 'r',   \
        'i', 'a', 'l', 'i', 'z', 'a', 't', 'i', 'o', 'n', '.', '1', 5, 5, 1, 4, 0, 0, 0, 4, 0, 0,  \
        0, 5, 0, 0, 0, 'T', 'r', 'a', 'c', 'e', 6, 0xEA, 0x07, 1, 0, 4, 0, 1, 0, 0, 0, 0, 0, 0, 0, \
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x96, 0x98, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0,  \
        0, 0, 0, 0, 0, 0, 0, 6

static void test_v5_header_and_sequence_point(void **state)
{
    (void)state;
    ntidx_writer *w = open_mem(5, 1);
    const ntidx_thread_seq sp = {0x5C08, 0x7B1};
    assert_int_equal(ntidx_writer_sequence_point(w, 0x4A4D65CF22Bull, 0, &sp, 1), NTIDX_OK);
    assert_int_equal(ntidx_writer_finish(w), NTIDX_OK);
    size_t n;
    const uint8_t *d = ntidx_writer_memory(w, &n);
    size_t at = 0;
    EXPECT_AT(d, n, at, V5_HEAD);
    assert_int_equal(at, 102);
    /* SPBlock object: its content must start at a 4-byte file offset; the
     * BlockSize ends at 129, so 3 zero bytes follow it. */
    EXPECT_AT(d, n, at, 5, 5, 1, 2, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 'S', 'P', 'B', 'l', 'o', 'c',
              'k', 6, 24, 0, 0, 0, 0, 0, 0);
    assert_int_equal(at % 4, 0);
    EXPECT_AT(d, n, at, 0x2B, 0xF2, 0x5C, 0xD6, 0xA4, 0x04, 0, 0, 1, 0, 0, 0, 0x08, 0x5C, 0, 0, 0,
              0, 0, 0, 0xB1, 0x07, 0, 0, 6 /* EndObject */, 1 /* NullReference: end */);
    assert_int_equal(at, n);
    assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
}

/* The V5 metadata payload of an array field goes in a V2Params tag, laid
 * out as the runtime writes it (int Size including itself, UTF-16 name,
 * int TypeCode 19, int element TypeCode); the V1 field list is empty. */
static void test_v5_metadata_v2params(void **state)
{
    (void)state;
    ntidx_writer *w = open_mem(5, 1);
    const ntidx_field u32 = {"", NTIDX_TYPE_UINT32, 0, NULL, NULL, 0};
    const ntidx_field fields[] = {{"arg0", NTIDX_TYPE_ARRAY, 0, &u32, NULL, 0}};
    ntidx_metadata m;
    memset(&m, 0, sizeof(m));
    m.id = 1;
    m.provider = "P";
    m.event_id = 5;
    m.event_name = "E";
    m.keywords = 0xF00000000000ull;
    m.level = 2;
    m.opcode = 0x18;
    m.has_fields = 1;
    m.field_count = 1;
    m.fields = fields;
    assert_int_equal(ntidx_writer_add_metadata(w, &m), NTIDX_OK);
    assert_int_equal(ntidx_writer_finish(w), NTIDX_OK);
    size_t n;
    const uint8_t *d = ntidx_writer_memory(w, &n);
    size_t at = 102;
    EXPECT_AT(d, n, at, 5, 5, 1, 2, 0, 0, 0, 2, 0, 0, 0, 13, 0, 0, 0, 'M', 'e', 't', 'a', 'd', 'a',
              't', 'a', 'B', 'l', 'o', 'c', 'k', 6);
    uint32_t block_size = ld32(d + at);
    at += 4;
    EXPECT_AT(d, n, at, 0); /* BlockSize ends at 135: one pad byte */
    assert_int_equal(at % 4, 0);
    size_t content = at;
    EXPECT_AT(d, n, at, 20, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    /* Row header: payload size only (MetadataId 0, sequence 0, time 0). */
    EXPECT_AT(d, n, at, 0x80, 0x00, 73);
    EXPECT_AT(d, n, at, 1, 0, 0, 0, 'P', 0, 0, 0, 5, 0, 0, 0, 'E', 0, 0, 0, /* id, names */
              0, 0, 0, 0, 0, 0xF0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0,          /* kw, ver, lvl */
              0, 0, 0, 0,                                                 /* V1 FieldCount */
              1, 0, 0, 0, 1, 0x18,                                        /* OpCode tag */
              26, 0, 0, 0, 2, 1, 0, 0, 0,                                 /* V2Params, 1 field */
              22, 0, 0, 0, 'a', 0, 'r', 0, 'g', 0, '0', 0, 0, 0, 19, 0, 0, 0, 10, 0, 0, 0);
    assert_int_equal(at - content, block_size);
    EXPECT_AT(d, n, at, 6, 1);
    assert_int_equal(at, n);
    assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
}

/* Walk V5 objects and return the content offset/size of each EventBlock. */
static size_t v5_event_blocks(const uint8_t *d, size_t n, size_t *off, size_t *size, size_t max)
{
    size_t at = 102, k = 0;
    while (at < n && d[at] == 5) {
        uint32_t nlen = ld32(d + at + 11);
        int is_event = nlen == 10 && memcmp(d + at + 15, "EventBlock", 10) == 0;
        at += 15 + nlen + 1;
        uint32_t bs = ld32(d + at);
        at += 4;
        at += (4 - at % 4) % 4;
        if (is_event && k < max) {
            off[k] = at;
            size[k] = bs;
            k++;
        }
        at += bs;
        assert_int_equal(d[at], 6);
        at++;
    }
    assert_int_equal(d[at], 1);
    return k;
}

/* Uncompressed V5 rows are padded after the payload to a 4-byte file
 * offset, EventSize counts the padding, and the block header has the right
 * min/max even when timestamps go backwards. */
static void test_v5_uncompressed_alignment(void **state)
{
    (void)state;
    ntidx_writer *w = open_mem(5, 0);
    uint8_t payload[7] = {1, 2, 3, 4, 5, 6, 7};
    const uint64_t ts[5] = {500, 300, 900, 400, 800};
    for (uint32_t i = 0; i < 5; i++) {
        ntidx_event ev;
        memset(&ev, 0, sizeof(ev));
        ev.metadata_id = 1;
        ev.sequence_number = i + 1;
        ev.thread_index = ev.capture_thread_index = 10 + i % 2;
        ev.timestamp = ts[i];
        ev.payload = payload;
        ev.payload_size = i + 1; /* 1..5 bytes: every padding length */
        ev.is_sorted = i == 1;
        assert_int_equal(ntidx_writer_add_event(w, &ev), NTIDX_OK);
    }
    assert_int_equal(ntidx_writer_finish(w), NTIDX_OK);
    size_t n, off[4], size[4];
    const uint8_t *d = ntidx_writer_memory(w, &n);
    assert_int_equal(v5_event_blocks(d, n, off, size, 4), 1);
    const uint8_t *b = d + off[0];
    assert_int_equal(b[0], 20);
    assert_int_equal(b[2], 0); /* flags: not compressed */
    assert_int_equal(ld64(b + 4), 300);
    assert_int_equal(ld64(b + 12), 900);
    size_t at = off[0] + 20;
    for (uint32_t i = 0; i < 5; i++) {
        assert_int_equal(at % 4, 0); /* each row starts at a 4-byte file offset */
        uint32_t event_size = ld32(d + at);
        uint32_t psize = ld32(d + at + 76);
        assert_int_equal(psize, i + 1);
        assert_int_equal(event_size, 76 + ((psize + 3) & ~3u));
        assert_int_equal(ld32(d + at + 4), 1u | (i == 1 ? 0 : 0x80000000u));
        assert_int_equal(ld64(d + at + 36), ts[i]);
        for (uint32_t k = psize; k < ((psize + 3) & ~3u); k++)
            assert_int_equal(d[at + 80 + k], 0);
        at += 4 + event_size;
    }
    assert_int_equal(at, off[0] + size[0]);
    assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
}

/* Events go into blocks of at most max_event_block_bytes; header
 * compression restarts from zero in each block. */
static void test_event_block_splitting(void **state)
{
    (void)state;
    ntidx_writer_options o;
    ntidx_writer_options_defaults(&o);
    o.max_event_block_bytes = 200;
    ntidx_writer *w = NULL;
    assert_int_equal(ntidx_writer_open_memory(&o, &w), NTIDX_OK);
    uint8_t payload[30];
    memset(payload, 0xAB, sizeof(payload));
    for (uint32_t i = 0; i < 40; i++) {
        ntidx_event ev;
        memset(&ev, 0, sizeof(ev));
        ev.metadata_id = 7;
        ev.sequence_number = i + 1;
        ev.thread_index = ev.capture_thread_index = 1;
        ev.timestamp = 1000 + i;
        ev.payload = payload;
        ev.payload_size = sizeof(payload);
        assert_int_equal(ntidx_writer_add_event(w, &ev), NTIDX_OK);
    }
    /* A payload larger than the limit still gets a block of its own. */
    uint8_t big[500];
    memset(big, 1, sizeof(big));
    ntidx_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.metadata_id = 7;
    ev.sequence_number = 41;
    ev.thread_index = ev.capture_thread_index = 1;
    ev.timestamp = 2000;
    ev.payload = big;
    ev.payload_size = sizeof(big);
    assert_int_equal(ntidx_writer_add_event(w, &ev), NTIDX_OK);
    assert_int_equal(ntidx_writer_finish(w), NTIDX_OK);
    size_t n;
    const uint8_t *d = ntidx_writer_memory(w, &n);
    size_t at = 20 + 4 + 40, blocks = 0, events = 0;
    while (at + 4 <= n) {
        uint32_t h = ld32(d + at);
        uint32_t size = h & 0xFFFFFF, kind = h >> 24;
        at += 4;
        if (kind == 0)
            break;
        assert_int_equal(kind, 2);
        blocks++;
        const uint8_t *b = d + at;
        /* The first row of every block carries every field (previous header zero). */
        assert_int_equal(b[20], 0x1 | 0x2 | 0x4 | 0x80);
        if (size > 200) {
            assert_int_equal(ld32(d + at + 12) - ld32(d + at + 4), 0); /* the single big event */
        } else {
            /* First row 39 bytes (9 of header), then 32 (flags 0, 1-byte time delta). */
            assert_int_equal((size - 20 - 39) % 32, 0);
            events += 1 + (size - 20 - 39) / 32;
        }
        at += size;
    }
    assert_int_equal(at, n);
    assert_true(blocks >= 8);
    assert_int_equal(events, 40);
    assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
}

/* Stacks with ids that do not follow on start a new stack block. */
static void test_stack_block_ids(void **state)
{
    (void)state;
    ntidx_writer *w = open_mem(6, 1);
    const uint8_t ip[8] = {0};
    assert_int_equal(ntidx_writer_add_stack(w, 5, ip, 8), NTIDX_OK);
    assert_int_equal(ntidx_writer_add_stack(w, 6, ip, 8), NTIDX_OK);
    assert_int_equal(ntidx_writer_add_stack(w, 9, ip, 8), NTIDX_OK);
    assert_int_equal(ntidx_writer_flush(w), NTIDX_OK);
    size_t n;
    const uint8_t *d = ntidx_writer_memory(w, &n);
    size_t at = 64;
    EXPECT_AT(d, n, at, 32, 0, 0, 5, 5, 0, 0, 0, 2, 0, 0, 0);
    at += 24;
    EXPECT_AT(d, n, at, 20, 0, 0, 5, 9, 0, 0, 0, 1, 0, 0, 0);
    at += 12;
    assert_int_equal(at, n);
    assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
}

static void test_misuse(void **state)
{
    (void)state;
    ntidx_writer_options o;
    ntidx_writer_options_defaults(&o);
    ntidx_writer *w = NULL;
    o.format_version = 4;
    assert_int_equal(ntidx_writer_open_memory(&o, &w), NTIDX_E_INVALID_ARG);
    assert_null(w);
    o.format_version = 6;
    o.pointer_size = 2;
    assert_int_equal(ntidx_writer_open_memory(&o, &w), NTIDX_E_INVALID_ARG);
    o.pointer_size = 8;
    o.max_event_block_bytes = 1u << 24;
    assert_int_equal(ntidx_writer_open_memory(&o, &w), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_writer_open_file("/nonexistent-dir/x.nettrace", NULL, &w), NTIDX_E_IO);
    assert_int_equal(ntidx_writer_close(NULL), NTIDX_OK);

    /* V6-only calls on a V5 writer; invalid label lists. */
    w = open_mem(5, 1);
    ntidx_thread th = {1, 0, 0, 0, 0, NULL, {0}};
    assert_int_equal(ntidx_writer_add_thread(w, &th), NTIDX_E_INVALID_ARG);
    ntidx_thread_seq ts = {1, 1};
    assert_int_equal(ntidx_writer_remove_threads(w, &ts, 1), NTIDX_E_INVALID_ARG);
    ntidx_label l;
    memset(&l, 0, sizeof(l));
    l.kind = NTIDX_LABEL_LEVEL;
    assert_int_equal(ntidx_writer_add_label_list(w, 1, &l, 1), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
    w = open_mem(6, 1);
    assert_int_equal(ntidx_writer_add_label_list(w, 0, &l, 1), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_writer_add_label_list(w, 1, &l, 0), NTIDX_E_INVALID_ARG);
    l.kind = 11;
    assert_int_equal(ntidx_writer_add_label_list(w, 1, &l, 1), NTIDX_E_INVALID_ARG);
    /* A rejected call does not poison the writer. */
    l.kind = NTIDX_LABEL_LEVEL;
    assert_int_equal(ntidx_writer_add_label_list(w, 1, &l, 1), NTIDX_OK);
    ntidx_metadata m;
    memset(&m, 0, sizeof(m));
    m.level = 300; /* one byte in V6 */
    assert_int_equal(ntidx_writer_add_metadata(w, &m), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_writer_finish(w), NTIDX_OK);
    assert_int_equal(ntidx_writer_finish(w), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v6_empty_trace),
        cmocka_unit_test(test_v6_trace_block_keyvalues),
        cmocka_unit_test(test_v6_all_blocks),
        cmocka_unit_test(test_v5_header_and_sequence_point),
        cmocka_unit_test(test_v5_metadata_v2params),
        cmocka_unit_test(test_v5_uncompressed_alignment),
        cmocka_unit_test(test_event_block_splitting),
        cmocka_unit_test(test_stack_block_ids),
        cmocka_unit_test(test_misuse),
    };
    return cmocka_run_group_tests_name("writer_framing", tests, NULL, NULL);
}
