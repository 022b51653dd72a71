/*
 * TraceEvent's own V5 scenarios (its tests' EventPipeParsing.cs, written by
 * the V5 writer of those tests), rebuilt byte for byte from a reading of what
 * that writer puts in the file, and read as TraceEvent reads them:
 *
 * - uncompressed event and metadata rows with no alignment padding: EventSize
 *   is the header after itself plus the payload, and the next row starts right
 *   after the payload, at any file offset;
 * - the stream ends with the NullReference tag written as a 4-byte int (1, 0,
 *   0, 0): three zero bytes after the end-of-stream tag;
 * - block objects of type version 2, the Trace object of version 4, a 1 kHz
 *   clock.
 *
 * The scenarios: extra bytes in the metadata and event block headers
 * (SkipExtraBlockHeaderSpaceV5), extra bytes in metadata tags and an unknown
 * tag (SkipExtraMetadataTagSpaceV5), extra bytes after V2Params field types
 * (SkipExtraMetadataParameterSpaceV5), Start/Stop opcodes in V5 metadata
 * (V5StartStopOpcodeRemovedFromEventNames). ntidx refused the first, second
 * and fourth ("event row: event size disagrees with its payload size or the
 * block": it rounded each row's end up to a 4-byte offset).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ntidx/index.h"
#include "ntidx/ntidx.h"
#include "tbuild.h"

/* ---- the writer's shapes ---- */

/* "Nettrace", the FastSerialization header, the Trace object (type version 4, minimum reader 4). */
static void te_headers(tb *f)
{
    fs_nettrace_header(f);
    tb_u8(f, 5);
    tb_u8(f, 5);
    tb_u8(f, 1);
    tb_u32(f, 4);
    tb_u32(f, 4);
    tb_u32(f, 5);
    tb_bytes(f, "Trace", 5);
    tb_u8(f, 6);
    static const uint16_t when[8] = {2025, 2, 1, 3, 4, 5, 6, 7};
    for (int i = 0; i < 8; i++)
        tb_u16(f, when[i]);
    tb_u64(f, 1000000); /* sync time QPC */
    tb_u64(f, 1000);    /* QPC frequency */
    tb_u32(f, 8);       /* pointer size */
    tb_u32(f, 1);       /* process id */
    tb_u32(f, 4);       /* processors */
    tb_u32(f, 1000);    /* sampling rate */
    tb_u8(f, 6);
}

/* A block object (type version 2, minimum reader 0) holding `content`: BlockSize, padding to a 4-byte FILE
   offset, the content, the end tag. */
static void te_block(tb *f, const char *name, const tb *content)
{
    tb_u8(f, 5);
    tb_u8(f, 5);
    tb_u8(f, 1);
    tb_u32(f, 2);
    tb_u32(f, 0);
    tb_u32(f, (uint32_t)strlen(name));
    tb_bytes(f, name, strlen(name));
    tb_u8(f, 6);
    tb_u32(f, (uint32_t)content->len);
    tb_pad4(f);
    tb_tb(f, content);
    tb_u8(f, 6);
}

/* The end: the NullReference tag written as an int. */
static void te_end(tb *f) { tb_u32(f, 1); }

/* A block header: HeaderSize (20 + `extra` int 99s), flags 0, timestamps 0. */
static void te_block_header(tb *b, unsigned extra)
{
    tb_u16(b, (uint16_t)(20 + 4 * extra));
    tb_u16(b, 0);
    tb_u64(b, 0);
    tb_u64(b, 0);
    for (unsigned i = 0; i < extra; i++)
        tb_u32(b, 99);
}

/* An uncompressed row, unpadded: EventSize = 76 + payload; thread and capture thread `thread`, timestamp 0,
   not sorted (the writer sets bit 31 unless told otherwise). */
static void te_row(tb *b, uint32_t metadata_id, uint64_t thread, uint32_t seq, const tb *payload)
{
    tb_u32(b, 76 + (uint32_t)payload->len);
    tb_u32(b, metadata_id | 0x80000000u);
    tb_u32(b, seq);
    tb_u64(b, thread);
    tb_u64(b, thread);
    tb_u32(b, 0); /* processor */
    tb_u32(b, 0); /* stack id */
    tb_u64(b, 0); /* timestamp */
    tb_zeros(b, 32);
    tb_u32(b, (uint32_t)payload->len);
    tb_tb(b, payload);
}

/* The start of a metadata payload: id, provider, event id, name, keywords 0, version 1, level 5, then the V1
   field count 0. */
static void te_metadata_start(tb *p, uint32_t id, const char *provider, const char *name, uint32_t event_id)
{
    v5_metadata_header(p, id, provider, event_id, name, 0, 1, 5);
    tb_u32(p, 0);
}

/* A V5 metadata tag: int size of its payload, byte kind, the payload. */
static void te_tag(tb *p, uint8_t kind, const tb *payload)
{
    tb_u32(p, (uint32_t)payload->len);
    tb_u8(p, kind);
    tb_tb(p, payload);
}

/* ---- reading ---- */

typedef struct seen {
    char names[8][96];
    uint32_t event_ids[8];
    int opcodes[8];
    int n;
} seen;

static void read_all(const tb *f, int version, seen *s, const char *want_fields)
{
    ntidx_trace *t = NULL;
    if (ntidx_trace_open_memory(f->d, f->len, "te", &t) != NTIDX_OK)
        fail_msg("open: %s", ntidx_last_error());
    assert_int_equal(ntidx_trace_get_info(t)->format_version, version); /* 5: its metadata has V5 tags */
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    const ntidx_event *e;
    int rc;
    memset(s, 0, sizeof *s);
    ntidx_buf json = {0};
    while ((rc = ntidx_reader_next(r, &e)) == 1) {
        assert_true(s->n < 8);
        ntidx_event_display_name(e->metadata, s->names[s->n], sizeof s->names[0]);
        s->event_ids[s->n] = e->metadata->event_id;
        s->opcodes[s->n] = e->metadata->opcode;
        assert_int_equal(e->thread_id, 999);
        if (want_fields) {
            json.len = 0;
            assert_int_equal(ntidx_event_fields_json(t, e, &json), NTIDX_OK);
            assert_string_equal(json.data, want_fields);
        }
        s->n++;
    }
    if (rc != 0)
        fail_msg("read: %s", ntidx_last_error());
    assert_int_equal(ntidx_reader_complete(r), 1);
    ntidx_buf_free(&json);
    ntidx_reader_close(&r);
    /* the index scan frames the same blocks and finds the end */
    ntidx_index *x = NULL;
    if (ntidx_index_build(t, NULL, &x) != NTIDX_OK)
        fail_msg("index: %s", ntidx_last_error());
    assert_int_equal(ntidx_index_get_info(x)->complete, 1);
    assert_true(ntidx_index_get_info(x)->indexed_end == f->len);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
}

static void test_extra_block_header_space(void **state)
{
    (void)state;
    tb f, b, p;
    tb_init(&f);
    tb_init(&b);
    tb_init(&p);
    te_headers(&f);
    te_block_header(&b, 2);
    te_metadata_start(&p, 1, "TestProvider", "TestEvent", 15);
    te_row(&b, 0, 0, 0, &p);
    tb_reset(&p);
    te_metadata_start(&p, 2, "TestProvider", "TestEvent2", 16);
    te_row(&b, 0, 0, 0, &p);
    te_block(&f, "MetadataBlock", &b);
    tb_reset(&b);
    tb_reset(&p);
    te_block_header(&b, 2);
    te_row(&b, 2, 999, 1, &p);
    te_block(&f, "EventBlock", &b);
    te_end(&f);
    seen s;
    read_all(&f, 4, &s, "{}");
    assert_int_equal(s.n, 1);
    assert_string_equal(s.names[0], "TestProvider/TestEvent2");
    assert_int_equal(s.event_ids[0], 16);
    tb_free(&f);
    tb_free(&b);
    tb_free(&p);
}

static void test_extra_metadata_tag_space(void **state)
{
    (void)state;
    tb f, b, p, tag, inner;
    tb_init(&f);
    tb_init(&b);
    tb_init(&p);
    tb_init(&tag);
    tb_init(&inner);
    te_headers(&f);
    te_block_header(&b, 0);
    /* 1: an opcode tag with 7 bytes more than its opcode (the opcode: 0) */
    te_metadata_start(&p, 1, "TestProvider", "TestEvent1", 15);
    tb_u32(&tag, 0);
    tb_u32(&tag, 99);
    te_tag(&p, 1, &tag);
    te_row(&b, 0, 0, 0, &p);
    /* 2: a V2Params tag with 4 bytes after its (empty) field list, then an unknown tag */
    tb_reset(&p);
    tb_reset(&tag);
    te_metadata_start(&p, 2, "TestProvider", "TestEvent2", 16);
    tb_u32(&tag, 0);
    tb_u32(&tag, 99);
    te_tag(&p, 2, &tag);
    tb_reset(&tag);
    tb_u32(&tag, 99);
    tb_u32(&tag, 99);
    te_tag(&p, 3, &tag);
    te_row(&b, 0, 0, 0, &p);
    /* 3: no tags */
    tb_reset(&p);
    te_metadata_start(&p, 3, "TestProvider", "TestEvent3", 17);
    te_row(&b, 0, 0, 0, &p);
    te_block(&f, "MetadataBlock", &b);
    tb_reset(&b);
    tb_reset(&p);
    te_block_header(&b, 0);
    for (uint32_t i = 1; i <= 3; i++)
        te_row(&b, i, 999, i, &p);
    te_block(&f, "EventBlock", &b);
    te_end(&f);
    seen s;
    read_all(&f, 5, &s, "{}");
    assert_int_equal(s.n, 3);
    assert_string_equal(s.names[0], "TestProvider/TestEvent1");
    assert_string_equal(s.names[1], "TestProvider/TestEvent2");
    assert_string_equal(s.names[2], "TestProvider/TestEvent3");
    assert_int_equal(s.opcodes[0], 0);
    tb_free(&f);
    tb_free(&b);
    tb_free(&p);
    tb_free(&tag);
    tb_free(&inner);
}

/* A V2Params field: int size (itself included), UTF-16 name, int type code, `extra` bytes of 199. */
static void te_v2_field(tb *p, const char *name, uint32_t type, size_t extra)
{
    tb fld;
    tb_init(&fld);
    tb_utf16z(&fld, name);
    tb_u32(&fld, type);
    for (size_t i = 0; i < extra; i++)
        tb_u8(&fld, i == 0 ? 199 : 0);
    tb_u32(p, (uint32_t)fld.len + 4);
    tb_tb(p, &fld);
    tb_free(&fld);
}

static void test_extra_metadata_parameter_space(void **state)
{
    (void)state;
    tb f, b, p, tag;
    tb_init(&f);
    tb_init(&b);
    tb_init(&p);
    tb_init(&tag);
    te_headers(&f);
    te_block_header(&b, 0);
    te_metadata_start(&p, 1, "TestProvider", "TestEvent1", 15);
    tb_u32(&tag, 2);
    te_v2_field(&tag, "Param1", 9, 8); /* Int32, then a long of 199 */
    te_v2_field(&tag, "Param2", 7, 1); /* Int16, then a byte of 199 */
    te_tag(&p, 2, &tag);
    te_row(&b, 0, 0, 0, &p);
    te_block(&f, "MetadataBlock", &b);
    tb_reset(&b);
    tb_reset(&p);
    te_block_header(&b, 0);
    tb_bytes(&p, "\x0c\x00\x00\x00\x11\x00", 6);
    te_row(&b, 1, 999, 1, &p);
    te_block(&f, "EventBlock", &b);
    te_end(&f);
    seen s;
    read_all(&f, 5, &s, "{\"Param1\":12,\"Param2\":17}");
    assert_int_equal(s.n, 1);
    assert_string_equal(s.names[0], "TestProvider/TestEvent1");
    tb_free(&f);
    tb_free(&b);
    tb_free(&p);
    tb_free(&tag);
}

static void test_start_stop_opcodes(void **state)
{
    (void)state;
    tb f, b, p, tag;
    tb_init(&f);
    tb_init(&b);
    tb_init(&p);
    tb_init(&tag);
    te_headers(&f);
    te_block_header(&b, 0);
    static const struct { const char *provider, *name; uint32_t event_id; int opcode; } types[] = {
        {"TestProvider", "ActivityStart", 15, 1},  {"TestProvider", "ActivityStop", 16, 2},
        {"TestProvider2", "ActivityStart", 15, 0}, {"TestProvider2", "ActivityStop", 16, 0}};
    for (uint32_t i = 0; i < 4; i++) {
        tb_reset(&p);
        te_metadata_start(&p, i + 1, types[i].provider, types[i].name, types[i].event_id);
        if (types[i].opcode) { /* an opcode tag of one byte */
            tb_reset(&tag);
            tb_u8(&tag, (uint8_t)types[i].opcode);
            te_tag(&p, 1, &tag);
        }
        te_row(&b, 0, 0, 0, &p);
    }
    te_block(&f, "MetadataBlock", &b);
    tb_reset(&b);
    tb_reset(&p);
    te_block_header(&b, 0);
    for (uint32_t i = 1; i <= 4; i++)
        te_row(&b, i, 999, i, &p);
    te_block(&f, "EventBlock", &b);
    te_end(&f);
    seen s;
    read_all(&f, 5, &s, "{}");
    assert_int_equal(s.n, 4);
    /* TraceEvent: "Activity/Start", "Activity/Stop" for both providers (the opcode given or implied) */
    assert_string_equal(s.names[0], "TestProvider/Activity/Start");
    assert_string_equal(s.names[1], "TestProvider/Activity/Stop");
    assert_string_equal(s.names[2], "TestProvider2/Activity/Start");
    assert_string_equal(s.names[3], "TestProvider2/Activity/Stop");
    assert_int_equal(s.opcodes[0], 1);
    assert_int_equal(s.opcodes[1], 2);
    tb_free(&f);
    tb_free(&b);
    tb_free(&p);
    tb_free(&tag);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_extra_block_header_space),
        cmocka_unit_test(test_extra_metadata_tag_space),
        cmocka_unit_test(test_extra_metadata_parameter_space),
        cmocka_unit_test(test_start_stop_opcodes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
