/*
 * Unit tests of the writer's encoders against byte vectors written by hand
 * from the specs (and, for the first compressed header, copied from a trace
 * the .NET 5 runtime wrote).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "buf.h"
#include "encode.h"

#define BYTES(...) ((const uint8_t[]){__VA_ARGS__})
#define NBYTES(...) sizeof((const uint8_t[]){__VA_ARGS__})
#define EXPECT(buf, len, ...)                                                                      \
    do {                                                                                           \
        assert_int_equal((len), NBYTES(__VA_ARGS__));                                              \
        assert_memory_equal((buf), BYTES(__VA_ARGS__), NBYTES(__VA_ARGS__));                       \
    } while (0)

static size_t varuint(uint8_t *out, uint64_t v)
{
    return (size_t)(ntidx_w_varuint(out, v) - out);
}

static void test_varuint(void **state)
{
    (void)state;
    uint8_t b[16];
    size_t n;
    n = varuint(b, 0);
    EXPECT(b, n, 0x00);
    n = varuint(b, 127);
    EXPECT(b, n, 0x7F);
    n = varuint(b, 128);
    EXPECT(b, n, 0x80, 0x01);
    n = varuint(b, 300);
    EXPECT(b, n, 0xAC, 0x02);
    n = varuint(b, 16384);
    EXPECT(b, n, 0x80, 0x80, 0x01);
    n = varuint(b, UINT32_MAX);
    EXPECT(b, n, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F);
    n = varuint(b, UINT64_MAX);
    EXPECT(b, n, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01);
    assert_int_equal(ntidx_w_varuint_len(0), 1);
    assert_int_equal(ntidx_w_varuint_len(128), 2);
    assert_int_equal(ntidx_w_varuint_len(UINT64_MAX), 10);

    /* The buffer form writes the same bytes. */
    ntidx_buf wb = {0};
    ntx_buf_varuint(&wb, 300);
    ntx_buf_varuint(&wb, UINT32_MAX);
    assert_int_equal(wb.err, 0);
    EXPECT(wb.bytes, wb.len, 0xAC, 0x02, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F);
    ntidx_buf_free(&wb);
}

static void test_zigzag(void **state)
{
    (void)state;
    /* varint = varuint of (v << 1) ^ (v >> 63); decodes as (x >> 1) ^ -(x & 1). */
    assert_true(ntidx_w_zigzag(0) == 0);
    assert_true(ntidx_w_zigzag(-1) == 1);
    assert_true(ntidx_w_zigzag(1) == 2);
    assert_true(ntidx_w_zigzag(-2) == 3);
    assert_true(ntidx_w_zigzag(INT64_MAX) == UINT64_MAX - 1);
    assert_true(ntidx_w_zigzag(INT64_MIN) == UINT64_MAX);
    uint8_t b[16];
    size_t n = varuint(b, ntidx_w_zigzag(-65));
    EXPECT(b, n, 0x81, 0x01);
}

static void test_le_and_pad(void **state)
{
    (void)state;
    uint8_t b[16];
    uint8_t *p = ntx_store16(b, 0x1234);
    p = ntx_store32(p, 0xA1B2C3D4u);
    p = ntx_store64(p, 0x0102030405060708ull);
    EXPECT(b, (size_t)(p - b), 0x34, 0x12, 0xD4, 0xC3, 0xB2, 0xA1, 0x08, 0x07, 0x06, 0x05, 0x04,
           0x03, 0x02, 0x01);
    /* V5 padding is relative to the absolute file offset, past 4 GiB too. */
    assert_int_equal(ntidx_w_pad4(0), 0);
    assert_int_equal(ntidx_w_pad4(1), 3);
    assert_int_equal(ntidx_w_pad4(2), 2);
    assert_int_equal(ntidx_w_pad4(3), 1);
    assert_int_equal(ntidx_w_pad4(4), 0);
    assert_int_equal(ntidx_w_pad4((1ull << 32) + 2), 2);
    assert_int_equal(ntidx_w_pad4(0x86), 2); /* the runtime's first MetadataBlock */
}

static void test_strings(void **state)
{
    (void)state;
    ntidx_buf b = {0};
    ntidx_w_put_utf16z(&b, "Ab");
    EXPECT(b.bytes, b.len, 'A', 0, 'b', 0, 0, 0);
    b.len = 0;
    ntidx_w_put_utf16z(&b, NULL);
    EXPECT(b.bytes, b.len, 0, 0);
    b.len = 0;
    ntidx_w_put_utf16z(&b, "\xC3\xA9\xE4\xB8\xAD"); /* é 中 */
    EXPECT(b.bytes, b.len, 0xE9, 0x00, 0x2D, 0x4E, 0, 0);
    b.len = 0;
    ntidx_w_put_utf16z(&b, "\xF0\x9F\x9A\x80"); /* U+1F680: surrogate pair D83D DE80 */
    EXPECT(b.bytes, b.len, 0x3D, 0xD8, 0x80, 0xDE, 0, 0);
    assert_int_equal(ntidx_w_utf16z_size("\xF0\x9F\x9A\x80"), 6);
    b.len = 0;
    /* Invalid UTF-8 (a stray continuation, a truncated lead) becomes U+FFFD. */
    ntidx_w_put_utf16z(&b, "\x80x\xE4\xB8");
    EXPECT(b.bytes, b.len, 0xFD, 0xFF, 'x', 0, 0xFD, 0xFF, 0xFD, 0xFF, 0, 0);
    assert_int_equal(ntidx_w_utf16z_size("\x80x\xE4\xB8"), 10);
    b.len = 0;
    ntidx_w_put_str6(&b, "abc");
    ntidx_w_put_str6(&b, NULL);
    EXPECT(b.bytes, b.len, 3, 'a', 'b', 'c', 0);
    ntidx_buf_free(&b);
}

static void test_wbuf_patch_and_growth(void **state)
{
    (void)state;
    ntidx_buf b = {0};
    ntx_buf_u16(&b, 0);
    ntx_buf_u32(&b, 0);
    ntx_buf_patch_u16(&b, 0, 0xBEEF);
    ntx_buf_patch_u32(&b, 2, 0x01020304);
    EXPECT(b.bytes, b.len, 0xEF, 0xBE, 0x04, 0x03, 0x02, 0x01);
    for (int i = 0; i < 100000; i++)
        ntx_buf_u8(&b, (uint8_t)i);
    assert_int_equal(b.err, 0);
    assert_int_equal(b.len, 100006);
    assert_int_equal(b.bytes[100005], (uint8_t)99999);
    ntidx_buf_free(&b);
}

/* The first event of an EventBlock written by the .NET 5 runtime
 * (eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace, offset 0x934):
 * metadata 5, sequence 5, capture thread 0x5C08 on processor 0xFFFFFFFF,
 * thread 0x5C08, stack 4, timestamp 0x4A4D659F647, 143 payload bytes,
 * IsSorted; the previous header is all zero at the start of a block. */
static void test_v5_compressed_matches_runtime(void **state)
{
    (void)state;
    ntidx_w_hdr prev, cur;
    memset(&prev, 0, sizeof(prev));
    memset(&cur, 0, sizeof(cur));
    cur.metadata_id = 5;
    cur.sequence_number = 5;
    cur.thread = 0x5C08;
    cur.capture_thread = 0x5C08;
    cur.processor_number = 0xFFFFFFFFu;
    cur.stack_id = 4;
    cur.timestamp = 0x4A4D659F647ull;
    cur.payload_size = 143;
    uint8_t b[NTIDX_W_MAX_COMPRESSED_HDR];
    size_t n = ntidx_w_hdr_v5_compressed(b, &prev, &cur, 1);
    EXPECT(b, n, 0xCF, 0x05, 0x04, 0x88, 0xB8, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x88, 0xB8,
           0x01, 0x04, 0xC7, 0xEC, 0xE7, 0xB2, 0xCD, 0x94, 0x01, 0x8F, 0x01);
    assert_memory_equal(&prev, &cur, sizeof(cur)); /* prev now tracks cur */

    /* Next event: same thread, sequence + 1, 100 ticks later, same size: flags 0. */
    ntidx_w_hdr next = cur;
    next.sequence_number = 6;
    next.timestamp += 100;
    n = ntidx_w_hdr_v5_compressed(b, &prev, &next, 0);
    EXPECT(b, n, 0x00, 0x64);

    /* A gap of 3 in the sequence (2 dropped): group 2 with delta seq - prev - 1 = 2. */
    ntidx_w_hdr gap = next;
    gap.sequence_number = 9;
    n = ntidx_w_hdr_v5_compressed(b, &prev, &gap, 0);
    EXPECT(b, n, 0x02, 0x02, 0x88, 0xB8, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x00);

    /* Another capture thread, earlier timestamp: the delta wraps modulo 2^64. */
    ntidx_w_hdr other = gap;
    other.sequence_number = 1;
    other.capture_thread = 7;
    other.thread = 7;
    other.processor_number = 2;
    other.timestamp = gap.timestamp - 10;
    other.stack_id = 0;
    other.payload_size = 0;
    n = ntidx_w_hdr_v5_compressed(b, &prev, &other, 0);
    /* flags 2|4|8|128; seq delta (1 - 9 - 1) mod 2^32 = 0xFFFFFFF7 */
    EXPECT(b, n, 0x8E, 0xF7, 0xFF, 0xFF, 0xFF, 0x0F, 0x07, 0x02, 0x07, 0x00, 0xF6, 0xFF, 0xFF,
           0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x00);
}

static void test_v5_compressed_activity_ids(void **state)
{
    (void)state;
    ntidx_w_hdr prev, cur;
    memset(&prev, 0, sizeof(prev));
    memset(&cur, 0, sizeof(cur));
    cur.metadata_id = 1;
    cur.sequence_number = 1; /* prev 0 + implicit 1: no group 2 */
    cur.timestamp = 3;
    for (int i = 0; i < 16; i++) {
        cur.activity_id[i] = (uint8_t)(0xA0 + i);
        cur.related_activity_id[i] = (uint8_t)(0xB0 + i);
    }
    uint8_t b[NTIDX_W_MAX_COMPRESSED_HDR];
    size_t n = ntidx_w_hdr_v5_compressed(b, &prev, &cur, 0);
    EXPECT(b, n, 0x31, 0x01, 0x03, 0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xA9,
           0xAA, 0xAB, 0xAC, 0xAD, 0xAE, 0xAF, 0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8,
           0xB9, 0xBA, 0xBB, 0xBC, 0xBD, 0xBE, 0xBF);
    /* Same ids again: not repeated. Related id back to zero: flag 32 + 16 zero bytes. */
    ntidx_w_hdr nx = cur;
    nx.sequence_number = 2;
    memset(nx.related_activity_id, 0, 16);
    n = ntidx_w_hdr_v5_compressed(b, &prev, &nx, 0);
    EXPECT(b, n, 0x20, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}

/* V4/V5: the implicit increment applies only when MetadataId != 0, so rows
 * of a metadata block (MetadataId 0, sequence 0) need no group 2. */
static void test_v5_metadata_rows_keep_sequence(void **state)
{
    (void)state;
    ntidx_w_hdr prev, row;
    memset(&prev, 0, sizeof(prev));
    memset(&row, 0, sizeof(row));
    row.timestamp = 1000;
    row.payload_size = 40;
    uint8_t b[NTIDX_W_MAX_COMPRESSED_HDR];
    size_t n = ntidx_w_hdr_v5_compressed(b, &prev, &row, 0);
    EXPECT(b, n, 0x80, 0xE8, 0x07, 0x28);
    n = ntidx_w_hdr_v5_compressed(b, &prev, &row, 0);
    EXPECT(b, n, 0x00, 0x00);
    /* In V6 the same headers need group 2 (the sequence always increments). */
    memset(&prev, 0, sizeof(prev));
    n = ntidx_w_hdr_v6_compressed(b, &prev, &row, 0);
    EXPECT(b, n, 0x82, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x00, 0x00, 0xE8, 0x07, 0x28);
}

static void test_v6_compressed(void **state)
{
    (void)state;
    ntidx_w_hdr prev, cur;
    memset(&prev, 0, sizeof(prev));
    memset(&cur, 0, sizeof(cur));
    cur.metadata_id = 300;
    cur.sequence_number = 1;
    cur.thread = 2;
    cur.capture_thread = 2;
    cur.processor_number = 0;
    cur.stack_id = 0;
    cur.timestamp = 200;
    cur.label_list_id = 3;
    cur.payload_size = 9;
    uint8_t b[NTIDX_W_MAX_COMPRESSED_HDR];
    size_t n = ntidx_w_hdr_v6_compressed(b, &prev, &cur, 1);
    /* flags 1|2|4|16|64|128: id 300, seq delta 0, capture 2, proc 0, thread 2,
     * ts 200, label list 3, size 9 */
    EXPECT(b, n, 0xD7, 0xAC, 0x02, 0x00, 0x02, 0x00, 0x02, 0xC8, 0x01, 0x03, 0x09);
    /* Thread B records an event about thread A, label list back to 0. */
    ntidx_w_hdr nx = cur;
    nx.sequence_number = 2;
    nx.thread = 5;
    nx.label_list_id = 0;
    nx.timestamp = 201;
    n = ntidx_w_hdr_v6_compressed(b, &prev, &nx, 0);
    EXPECT(b, n, 0x14, 0x05, 0x01, 0x00);
}

static void test_uncompressed(void **state)
{
    (void)state;
    ntidx_w_hdr h;
    memset(&h, 0, sizeof(h));
    h.metadata_id = 0x11;
    h.sequence_number = 0x22;
    h.thread = 0x33;
    h.capture_thread = 0x44;
    h.processor_number = 0x55;
    h.stack_id = 0x66;
    h.timestamp = 0x77;
    memset(h.activity_id, 0xAA, 16);
    memset(h.related_activity_id, 0xBB, 16);
    h.label_list_id = 0x88;
    h.payload_size = 5;
    uint8_t b[128];
    /* V5: EventSize counts the 76 header bytes after it, the payload and 3 pad bytes. */
    size_t n = ntidx_w_hdr_v5_uncompressed(b, &h, 0, 3);
    assert_int_equal(n, NTIDX_W_V5_UNCOMPRESSED_HDR);
    EXPECT(b, n, 84, 0, 0, 0, 0x11, 0, 0, 0x80, /* not sorted: high bit set */
           0x22, 0, 0, 0, 0x33, 0, 0, 0, 0, 0, 0, 0, 0x44, 0, 0, 0, 0, 0, 0, 0, 0x55, 0, 0, 0,
           0x66, 0, 0, 0, 0x77, 0, 0, 0, 0, 0, 0, 0, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA,
           0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xBB, 0xBB, 0xBB, 0xBB, 0xBB,
           0xBB, 0xBB, 0xBB, 0xBB, 0xBB, 0xBB, 0xBB, 0xBB, 0xBB, 0xBB, 0xBB, 5, 0, 0, 0);
    n = ntidx_w_hdr_v5_uncompressed(b, &h, 1, 3);
    assert_int_equal(b[7], 0x00); /* sorted: high bit clear */
    /* V6: 48 header bytes after EventSize, LabelListId instead of the GUIDs, no padding. */
    n = ntidx_w_hdr_v6_uncompressed(b, &h, 1);
    assert_int_equal(n, NTIDX_W_V6_UNCOMPRESSED_HDR);
    EXPECT(b, n, 53, 0, 0, 0, 0x11, 0, 0, 0, 0x22, 0, 0, 0, 0x33, 0, 0, 0, 0, 0, 0, 0, 0x44, 0,
           0, 0, 0, 0, 0, 0, 0x55, 0, 0, 0, 0x66, 0, 0, 0, 0x77, 0, 0, 0, 0, 0, 0, 0, 0x88, 0, 0,
           0, 5, 0, 0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_varuint),
        cmocka_unit_test(test_zigzag),
        cmocka_unit_test(test_le_and_pad),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_wbuf_patch_and_growth),
        cmocka_unit_test(test_v5_compressed_matches_runtime),
        cmocka_unit_test(test_v5_compressed_activity_ids),
        cmocka_unit_test(test_v5_metadata_rows_keep_sequence),
        cmocka_unit_test(test_v6_compressed),
        cmocka_unit_test(test_uncompressed),
    };
    return cmocka_run_group_tests_name("writer_encode", tests, NULL, NULL);
}
