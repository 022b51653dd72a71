/*
 * Framing: stream headers and the block walk of every generation, from
 * hand-built byte vectors (V6 size+kind blocks, V4/V5 FastSerialization
 * objects with file-relative alignment, V3 NetPerf), and inputs that are not
 * traces at all.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "definitions.h"
#include "ntidx/ntidx.h"
#include "tbuild.h"

#define assert_contains(hay, needle)                                                                   \
    do {                                                                                               \
        const char *h_ = (hay);                                                                        \
        if (!h_ || !strstr(h_, (needle)))                                                              \
            fail_msg("'%s' does not contain '%s'", h_ ? h_ : "(null)", (needle));                      \
    } while (0)

static ntidx_trace *open_ok(const tb *f)
{
    ntidx_trace *t = (ntidx_trace *)1;
    int rc = ntidx_trace_open_memory(f->d, f->len, "mem", &t);
    if (rc != NTIDX_OK)
        fail_msg("open failed: %s (%s)", ntidx_strerror(rc), ntidx_last_error());
    assert_non_null(t);
    return t;
}

static int open_fail(const tb *f, const char *name)
{
    ntidx_trace *t = (ntidx_trace *)1;
    int rc = ntidx_trace_open_memory(f->d, f->len, name, &t);
    assert_true(rc < 0);
    assert_null(t);
    assert_contains(ntidx_last_error(), name);
    assert_contains(ntidx_last_error(), "offset ");
    return rc;
}

typedef struct walked {
    ntidx_block b[32];
    int n;
    int rc;
    uint64_t pos;
} walked;

static void walk(ntidx_trace *t, walked *w)
{
    w->n = 0;
    w->pos = ntidx_trace_get_info(t)->first_block_offset;
    while ((w->rc = ntidx_trace_next_block(t, &w->pos, &w->b[w->n])) == 1) {
        assert_true(w->n < 31);
        const ntidx_block *b = &w->b[w->n];
        /* blocks tile the file: each starts where the previous ended */
        if (w->n > 0)
            assert_true(b->offset == w->b[w->n - 1].offset + w->b[w->n - 1].size);
        assert_true(b->payload_offset >= b->offset);
        assert_true(b->payload_offset + b->payload_size <= b->offset + b->size);
        assert_true(w->pos == b->offset + b->size);
        w->n++;
    }
}

/* ------------------------------------------------------------------ */
/* V6                                                                  */
/* ------------------------------------------------------------------ */

static void test_v6_header_and_trace_block(void **state)
{
    (void)state;
    static const char *const kv[] = {"ProcessId", "4321", "HardwareThreadCount", "16",
                                     "ExpectedCPUSamplingRate", "1000", "MachineName", "h\xc3\xa9"};
    tb f;
    tb_init(&f);
    v6_stream_header(&f, 6, 0);
    v6_trace_block(&f, 4, 1000000000, kv, 4);
    v6_end(&f);
    ntidx_trace *t = open_ok(&f);
    const ntidx_trace_info *in = ntidx_trace_get_info(t);
    assert_int_equal(in->format_version, 6);
    assert_int_equal(in->minor_version, 0);
    assert_int_equal(in->trace_object_version, 0);
    assert_int_equal(in->first_block_offset, 20);
    assert_int_equal(in->file_size, f.len);
    assert_int_equal(in->sync_time_utc.year, 2024);
    assert_int_equal(in->sync_time_utc.month, 1);
    assert_int_equal(in->sync_time_utc.day_of_week, 2);
    assert_int_equal(in->sync_time_utc.day, 2);
    assert_int_equal(in->sync_time_utc.hour, 3);
    assert_int_equal(in->sync_time_utc.minute, 4);
    assert_int_equal(in->sync_time_utc.second, 5);
    assert_int_equal(in->sync_time_utc.millisecond, 6);
    assert_int_equal(in->sync_ticks, 1000);
    assert_int_equal(in->tick_frequency, 1000000000);
    assert_int_equal(in->pointer_size, 4);
    assert_int_equal(in->process_id, 4321);
    assert_int_equal(in->number_of_processors, 16);
    assert_int_equal(in->expected_cpu_sampling_rate, 1000);
    assert_int_equal(in->keyvalue_count, 4);
    for (int i = 0; i < 4; i++) {
        assert_string_equal(in->keyvalues[i].key, kv[2 * i]);
        assert_string_equal(in->keyvalues[i].value, kv[2 * i + 1]);
    }
    assert_string_equal(ntidx_trace_name(t), "mem");
    uint64_t size = 0;
    assert_ptr_equal(ntidx_trace_data(t, &size), f.d);
    assert_int_equal(size, f.len);
    ntidx_trace_close(&t);
    assert_null(t);
    ntidx_trace_close(&t); /* NULL is fine */
    ntidx_trace_close(NULL);
    tb_free(&f);
}

static void test_v6_walk_skips_unknown_blocks(void **state)
{
    (void)state;
    tb f;
    tb_init(&f);
    v6_begin(&f);
    size_t trace_end = f.len;
    v6_block(&f, 0x7f, "abcde", 5);          /* unknown kind: skipped by size */
    v6_block(&f, 9, "", 0);                  /* the next kind a minor version may add */
    v6_simple_metadata(&f, 1, "P", "E");
    v6_block(&f, 0xff, "\x01\x02\x03", 3);
    v6_end(&f);
    ntidx_trace *t = open_ok(&f);
    walked w;
    walk(t, &w);
    assert_int_equal(w.rc, 0);
    assert_int_equal(w.n, 5);
    assert_int_equal(w.b[0].kind, NTIDX_BLOCK_TRACE);
    assert_int_equal(w.b[0].offset, 20);
    assert_int_equal(w.b[0].payload_offset, 24);
    assert_int_equal(w.b[0].size, trace_end - 20);
    assert_int_equal(w.b[1].kind, NTIDX_BLOCK_UNKNOWN);
    assert_int_equal(w.b[1].raw_kind, 0x7f);
    assert_int_equal(w.b[1].size, 9);
    assert_int_equal(w.b[1].payload_size, 5);
    assert_memory_equal(f.d + w.b[1].payload_offset, "abcde", 5);
    assert_int_equal(w.b[2].kind, NTIDX_BLOCK_UNKNOWN);
    assert_int_equal(w.b[2].raw_kind, 9);
    assert_int_equal(w.b[2].size, 4);
    assert_int_equal(w.b[3].kind, NTIDX_BLOCK_METADATA);
    assert_int_equal(w.b[4].kind, NTIDX_BLOCK_UNKNOWN);
    assert_int_equal(w.b[4].raw_kind, 0xff);
    assert_true(w.pos == f.len); /* after the end-of-stream block */
    assert_string_equal(ntidx_block_kind_name(NTIDX_BLOCK_SEQUENCE_POINT), "sequence_point");
    assert_string_equal(ntidx_block_kind_name(NTIDX_BLOCK_UNKNOWN), "unknown");

    /* the walk is stateless: restarting at a returned block offset gives the same blocks */
    uint64_t pos = w.b[3].offset;
    ntidx_block b;
    assert_int_equal(ntidx_trace_next_block(t, &pos, &b), 1);
    assert_int_equal(b.kind, NTIDX_BLOCK_METADATA);
    assert_true(b.offset == w.b[3].offset);

    /* the reader skips them too and counts them */
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    const ntidx_event *ev;
    assert_int_equal(ntidx_reader_next(r, &ev), 0);
    assert_int_equal(ntidx_reader_complete(r), 1);
    const ntidx_reader_stats *st = ntidx_reader_get_stats(r);
    assert_int_equal(st->unknown_blocks, 3);
    assert_int_equal(st->blocks[NTIDX_BLOCK_METADATA], 1);
    assert_int_equal(st->metadata_rows, 1);
    assert_true(st->end_offset == f.len);
    ntidx_reader_close(&r);
    ntidx_trace_close(&t);
    tb_free(&f);
}

/*
 * End-of-stream may carry data in a later minor version, but it ends the file:
 * bytes after it are a damaged trace, said with the block's offset, never read
 * as the end (a zero word is an end-of-stream block: zeros written over the
 * middle of a trace would otherwise end it there, silently).
 */
/* What each sequence point flushes (definitions.h, ntx_sp_flushes()): stacks and label lists always; a V6
   one's flags add threads (1) and metadata (2), other bits nothing; a V5 one has no flags. */
static void test_sequence_point_flushes(void **state)
{
    (void)state;
    const uint32_t always = NTX_FLUSH_STACKS | NTX_FLUSH_LABEL_LISTS;
    static const uint32_t flags[] = {0, NTIDX_SP_FLUSH_THREADS, NTIDX_SP_FLUSH_METADATA,
                                     NTIDX_SP_FLUSH_THREADS | NTIDX_SP_FLUSH_METADATA, 4, 0xffffffffu};
    const uint32_t want[] = {always, always | NTX_FLUSH_THREADS, always | NTX_FLUSH_METADATA,
                             always | NTX_FLUSH_THREADS | NTX_FLUSH_METADATA, always,
                             always | NTX_FLUSH_THREADS | NTX_FLUSH_METADATA};
    tb f;
    tb_init(&f);
    v6_begin(&f);
    for (int i = 0; i < 6; i++)
        v6_sequence_point(&f, 100 + (uint64_t)i, flags[i], NULL, NULL, 0);
    v6_end(&f);
    ntidx_trace *t = open_ok(&f);
    walked w;
    walk(t, &w);
    int seen = 0;
    for (int i = 0; i < w.n; i++) {
        if (w.b[i].kind != NTIDX_BLOCK_SEQUENCE_POINT)
            continue;
        ntx_seqpoint sp;
        ntx_err err = {0};
        assert_int_equal(ntx_decode_sequence_point(t, &w.b[i], &sp, NULL, NULL, &err), NTIDX_OK);
        assert_int_equal(sp.flags, flags[seen]);
        assert_int_equal(sp.flushes, want[seen]);
        seen++;
    }
    assert_int_equal(seen, 6);
    ntidx_trace_close(&t);
    tb_free(&f);

    /* V5: no flags in the block; bits in their place would not be read */
    tb_init(&f);
    v5_begin(&f);
    v5_sequence_point(&f, 10, NULL, NULL, 0);
    fs_end(&f);
    t = open_ok(&f);
    walk(t, &w);
    seen = 0;
    for (int i = 0; i < w.n; i++) {
        if (w.b[i].kind != NTIDX_BLOCK_SEQUENCE_POINT)
            continue;
        ntx_seqpoint sp;
        ntx_err err = {0};
        assert_int_equal(ntx_decode_sequence_point(t, &w.b[i], &sp, NULL, NULL, &err), NTIDX_OK);
        assert_int_equal(sp.flags, 0);
        assert_int_equal(sp.flushes, always);
        seen++;
    }
    assert_int_equal(seen, 1);
    assert_int_equal(ntx_sp_flushes(3, 0), always);
    ntidx_trace_close(&t);
    tb_free(&f);
}

static void test_v6_end_of_stream_with_payload(void **state)
{
    (void)state;
    tb f;
    tb_init(&f);
    v6_begin(&f);
    v6_block(&f, 0, "xyz", 3);
    size_t eos_end = f.len;
    ntidx_trace *t = open_ok(&f);
    walked w;
    walk(t, &w);
    assert_int_equal(w.rc, 0);
    assert_int_equal(w.n, 1);
    assert_true(w.pos == eos_end);
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    const ntidx_event *ev;
    assert_int_equal(ntidx_reader_next(r, &ev), 0);
    assert_int_equal(ntidx_reader_complete(r), 1);
    ntidx_reader_close(&r);
    ntidx_trace_close(&t);

    for (int zeros = 0; zeros < 2; zeros++) {
        tb_reset(&f);
        v6_begin(&f);
        size_t eos = f.len;
        if (zeros) { /* zeros over a metadata block: the first zero word is an end-of-stream block */
            tb_zeros(&f, 64);
            v6_simple_metadata(&f, 1, "P", "E");
            v6_end(&f);
        } else {
            v6_block(&f, 0, "xyz", 3);
            tb_bytes(&f, "\xff\xff\xff\xff garbage", 12);
        }
        t = open_ok(&f);
        walk(t, &w);
        assert_int_equal(w.rc, NTIDX_E_CORRUPT);
        assert_int_equal(w.n, 1);
        assert_true(w.pos == eos);
        char want[96];
        snprintf(want, sizeof want, "offset %zu (0x%zx): end-of-stream block, but %zu bytes", eos, eos,
                 f.len - eos - (zeros ? 4 : 7));
        assert_contains(ntidx_last_error(), want);
        assert_contains(ntidx_last_error(), zeros ? "damaged here (zeros" : "damaged here");
        /* a reader stops there with the error, not at a complete end */
        assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
        assert_int_equal(ntidx_reader_next(r, &ev), NTIDX_E_CORRUPT);
        assert_contains(ntidx_last_error(), want);
        assert_int_equal(ntidx_reader_complete(r), 0);
        ntidx_reader_close(&r);
        ntidx_trace_close(&t);
    }

    /* an end-of-stream block whose declared data runs past the file is a truncation */
    tb_reset(&f);
    v6_begin(&f);
    tb_u32(&f, 10);
    tb_u8(&f, 1);
    t = open_ok(&f);
    walk(t, &w);
    assert_int_equal(w.rc, NTIDX_E_TRUNCATED);
    assert_contains(ntidx_last_error(), "offset ");
    ntidx_trace_close(&t);
    tb_free(&f);
}

/* A file that stops without EndOfStream: every complete block, then TRUNCATED at the end. */
static void test_v6_missing_end_of_stream(void **state)
{
    (void)state;
    tb f, p;
    tb_init(&f);
    tb_init(&p);
    v6_begin(&f);
    v6_simple_metadata(&f, 1, "P", "E");
    tb_u16(&p, 1); /* thread block: index 1 */
    tb_u8(&p, 1);
    v6_block(&f, 6, p.d, p.len);
    tb_reset(&p);
    eb_header(&p, 20, 0, 5, 5);
    ev6 e = {.metadata_id = 1, .seq = 1, .thread = 1, .capture = 1, .ts = 5};
    v6_event_row(&p, &e);
    v6_block(&f, 2, p.d, p.len);
    ntidx_trace *t = open_ok(&f);
    walked w;
    walk(t, &w);
    assert_int_equal(w.rc, NTIDX_E_TRUNCATED);
    assert_int_equal(w.n, 4);
    assert_int_equal(w.b[3].kind, NTIDX_BLOCK_EVENT);
    assert_true(w.pos == f.len);
    char want[64];
    snprintf(want, sizeof want, "offset %zu ", f.len);
    assert_contains(ntidx_last_error(), want);

    for (int order = 0; order < 2; order++) {
        ntidx_reader_options o;
        ntidx_reader_options_defaults(&o);
        o.order = order ? NTIDX_ORDER_TIME : NTIDX_ORDER_FILE;
        ntidx_reader *r;
        assert_int_equal(ntidx_reader_open(t, &o, &r), NTIDX_OK);
        const ntidx_event *ev;
        assert_int_equal(ntidx_reader_next(r, &ev), 1);
        assert_int_equal(ev->timestamp, 5);
        assert_int_equal(ntidx_reader_next(r, &ev), 0);
        assert_int_equal(ntidx_reader_next(r, &ev), 0);
        assert_int_equal(ntidx_reader_complete(r), 0);
        assert_contains(ntidx_reader_incomplete_reason(r), want);
        assert_true(ntidx_reader_get_stats(r)->end_offset == f.len);
        ntidx_reader_close(&r);
    }
    ntidx_trace_close(&t);
    tb_free(&f);
    tb_free(&p);
}

/* A block whose size runs past the end (or a partial block header): TRUNCATED at that block. */
static void test_v6_block_past_end(void **state)
{
    (void)state;
    for (int variant = 0; variant < 5; variant++) {
        tb f;
        tb_init(&f);
        v6_begin(&f);
        v6_simple_metadata(&f, 1, "P", "E");
        size_t bad = f.len;
        switch (variant) {
        case 0: tb_u32(&f, 100 | (2u << 24)); tb_zeros(&f, 99); break; /* one byte short */
        case 1: tb_u32(&f, 0xffffff | (3u << 24)); break;              /* maximum size, no content */
        case 2: tb_u8(&f, 4); break;                                    /* 1 of 4 header bytes */
        case 3: tb_u16(&f, 4); break;
        case 4: tb_u16(&f, 4); tb_u8(&f, 0); break;
        }
        ntidx_trace *t = open_ok(&f);
        walked w;
        walk(t, &w);
        assert_int_equal(w.rc, NTIDX_E_TRUNCATED);
        assert_int_equal(w.n, 2);
        assert_true(w.pos == bad); /* everything before pos is complete */
        char want[64];
        snprintf(want, sizeof want, "offset %zu ", bad);
        assert_contains(ntidx_last_error(), want);
        ntidx_trace_close(&t);
        tb_free(&f);
    }
}

static void test_v6_versions(void **state)
{
    (void)state;
    static const struct { uint32_t major, minor; int rc; } cases[] = {
        {6, 0, NTIDX_OK},          {6, 1, NTIDX_OK},          {6, 0xffffffffu, NTIDX_OK},
        {7, 0, NTIDX_E_VERSION},   {100, 0, NTIDX_E_VERSION}, {0xffffffffu, 0, NTIDX_E_VERSION},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tb f;
        tb_init(&f);
        v6_stream_header(&f, cases[i].major, cases[i].minor);
        v6_trace_block(&f, 8, 1000, NULL, 0);
        v6_end(&f);
        if (cases[i].rc == NTIDX_OK) {
            ntidx_trace *t = open_ok(&f);
            assert_int_equal(ntidx_trace_get_info(t)->minor_version, cases[i].minor);
            assert_int_equal(ntidx_trace_get_info(t)->format_version, 6);
            ntidx_trace_close(&t);
        } else {
            assert_int_equal(open_fail(&f, "newer"), cases[i].rc);
            assert_contains(ntidx_last_error(), "offset 12 ");
        }
        tb_free(&f);
    }
    /* majors below 6 in a V6-style header are no known layout: refused, with a message */
    for (uint32_t major = 0; major < 6; major++) {
        tb f;
        tb_init(&f);
        v6_stream_header(&f, major, 0);
        v6_trace_block(&f, 8, 1000, NULL, 0);
        v6_end(&f);
        int rc = open_fail(&f, "older");
        assert_true(rc == NTIDX_E_VERSION || rc == NTIDX_E_NOT_A_TRACE);
        tb_free(&f);
    }
    /* Reserved != 0 and no FastSerialization header: not a trace */
    tb f;
    tb_init(&f);
    tb_bytes(&f, "Nettrace", 8);
    tb_u32(&f, 1);
    tb_u32(&f, 6);
    tb_u32(&f, 0);
    v6_trace_block(&f, 8, 1000, NULL, 0);
    assert_int_equal(open_fail(&f, "reserved"), NTIDX_E_NOT_A_TRACE);
    tb_free(&f);
}

static void test_v6_bad_trace_block(void **state)
{
    (void)state;
    for (int variant = 0; variant < 8; variant++) {
        tb f, p;
        tb_init(&f);
        tb_init(&p);
        v6_stream_header(&f, 6, 0);
        int want = NTIDX_E_CORRUPT;
        switch (variant) {
        case 0: v6_simple_metadata(&f, 1, "P", "E"); break;      /* first block not the trace block */
        case 1: v6_block(&f, 1, "\x01\x02\x03", 3); break;         /* too short for its fields */
        case 2: v6_trace_block(&f, 8, 0, NULL, 0); break;          /* tick frequency 0 */
        case 3: v6_trace_block(&f, 8, (uint64_t)-5, NULL, 0); break; /* negative frequency */
        case 4: v6_trace_block(&f, 2, 1000, NULL, 0); break;       /* pointer size 2 */
        case 5: v6_end(&f); break;                                 /* stream ends before the trace block */
        case 6: want = NTIDX_E_TRUNCATED; break;                   /* header only */
        case 7: /* a key/value pair running past the block */
            for (int i = 0; i < 8; i++)
                tb_u16(&p, 0);
            tb_u64(&p, 0);
            tb_u64(&p, 1000);
            tb_u32(&p, 8);
            tb_u32(&p, 1);
            tb_u8(&p, 5);
            tb_bytes(&p, "ab", 2);
            v6_block(&f, 1, p.d, p.len);
            break;
        }
        if (variant != 5 && variant != 6)
            v6_end(&f);
        assert_int_equal(open_fail(&f, "badtrace"), want);
        tb_free(&f);
        tb_free(&p);
    }
    /* a V6 header cut short: the file is a truncated trace */
    for (size_t n = 8; n < 20; n++) {
        tb f;
        tb_init(&f);
        v6_stream_header(&f, 6, 0);
        f.len = n;
        int rc = open_fail(&f, "shortheader");
        assert_true(rc == NTIDX_E_TRUNCATED || rc == NTIDX_E_NOT_A_TRACE);
        tb_free(&f);
    }
}

/* ------------------------------------------------------------------ */
/* V4/V5 FastSerialization                                             */
/* ------------------------------------------------------------------ */

static void test_fastser_walk(void **state)
{
    (void)state;
    tb f;
    tb_init(&f);
    v5_begin(&f);
    assert_int_equal(f.len, 102); /* header 32 + trace object 70, as the runtime writes it */
    v5_simple_metadata(&f, 1, "P", "E");
    size_t at = fs_begin_block(&f, 5, "StackBlock", 2);
    stack_block_payload(&f, 1, 1, (const uint32_t[]){8});
    fs_end_block(&f, at);
    size_t stack_content = fs_content_start(at);
    at = fs_begin_block(&f, 5, "EventBlock", 2);
    eb_header(&f, 20, 0, 0, 0);
    fs_end_block(&f, at);
    v5_sequence_point(&f, 10, NULL, NULL, 0);
    fs_block(&f, 5, "SomeFutureBlock", 7, "12345", 5);
    size_t null_at = f.len;
    fs_end(&f);

    ntidx_trace *t = open_ok(&f);
    const ntidx_trace_info *in = ntidx_trace_get_info(t);
    assert_int_equal(in->format_version, 4); /* no V5 metadata tags */
    assert_int_equal(in->trace_object_version, 4);
    assert_int_equal(in->first_block_offset, 32);
    assert_int_equal(in->pointer_size, 8);
    assert_int_equal(in->process_id, 4242);
    assert_int_equal(in->number_of_processors, 8);
    assert_int_equal(in->expected_cpu_sampling_rate, 1000);
    assert_int_equal(in->tick_frequency, 10000000);
    assert_int_equal(in->sync_ticks, 1000);
    assert_int_equal(in->sync_time_utc.year, 2024);
    assert_int_equal(in->minor_version, 0);
    assert_int_equal(in->keyvalue_count, 0);

    walked w;
    walk(t, &w);
    assert_int_equal(w.rc, 0);
    assert_int_equal(w.n, 6);
    static const ntidx_block_kind kinds[] = {NTIDX_BLOCK_TRACE, NTIDX_BLOCK_METADATA, NTIDX_BLOCK_STACK,
                                             NTIDX_BLOCK_EVENT, NTIDX_BLOCK_SEQUENCE_POINT, NTIDX_BLOCK_UNKNOWN};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(w.b[i].kind, kinds[i]);
        if (i > 0)
            assert_int_equal(w.b[i].payload_offset % 4, 0);
    }
    assert_int_equal(w.b[0].offset, 32);
    assert_int_equal(w.b[0].payload_size, 48);
    assert_int_equal(w.b[0].raw_kind, 4);
    assert_int_equal(w.b[2].raw_kind, 2);
    assert_int_equal(w.b[2].payload_offset, stack_content);
    assert_int_equal(w.b[2].payload_size, 8 + 4 + 8);
    assert_int_equal(w.b[3].payload_size, 20);
    assert_int_equal(w.b[5].raw_kind, 7);
    assert_int_equal(w.b[5].payload_size, 5);
    assert_memory_equal(f.d + w.b[5].payload_offset, "12345", 5);
    assert_true(w.b[5].offset + w.b[5].size == null_at);
    assert_true(w.pos == null_at + 1); /* just past the NullReference tag */
    ntidx_trace_close(&t);
    tb_free(&f);
}

/*
 * The NullReference tag ends the file too: bytes after it are a damaged trace,
 * said with its offset; only three zero bytes may follow it (TraceEvent's test
 * writer writes the tag as a 4-byte int).
 */
static void test_fastser_end_tag_not_at_end(void **state)
{
    (void)state;
    static const struct { const char *tail; size_t len; int ok; } tails[] = {
        {"\0\0\0", 3, 1}, {"\0", 1, 1}, {"\0\0\0\0", 4, 0}, {"\x06", 1, 0}, {"\0\0\x01", 3, 0}};
    for (int netperf = 0; netperf < 2; netperf++) {
        for (size_t k = 0; k < sizeof tails / sizeof tails[0]; k++) {
            tb f;
            tb_init(&f);
            if (netperf) {
                fs_netperf_header(&f);
                fs_trace_object(&f, 4, 3, 8, 10000000);
            } else {
                v5_begin(&f);
                v5_simple_metadata(&f, 1, "P", "E");
            }
            size_t null_at = f.len;
            fs_end(&f);
            tb_bytes(&f, tails[k].tail, tails[k].len);
            ntidx_trace *t = open_ok(&f);
            walked w;
            walk(t, &w);
            if (tails[k].ok) {
                assert_int_equal(w.rc, 0);
                assert_true(w.pos == f.len);
            } else {
                assert_int_equal(w.rc, NTIDX_E_CORRUPT);
                assert_true(w.pos == null_at);
                char want[96];
                snprintf(want, sizeof want, "offset %zu (0x%zx): end-of-stream tag, but %zu bytes", null_at, null_at,
                         tails[k].len);
                assert_contains(ntidx_last_error(), want);
            }
            ntidx_trace_close(&t);
            tb_free(&f);
        }
    }
}

/*
 * Padding after BlockSize aligns the content to a 4-byte FILE offset, not an
 * offset relative to the object: put the same block at each of the four
 * alignments by preceding it with an unknown object of 0..3 content bytes.
 */
static void test_fastser_alignment_is_file_relative(void **state)
{
    (void)state;
    int pads_seen[4] = {0};
    for (int shift = 0; shift < 8; shift++) {
        tb f;
        tb_init(&f);
        v5_begin(&f);
        /* vary both the preceding content size and the type name length */
        const char *name = shift < 4 ? "X" : "XYZW";
        fs_block(&f, 5, name, 1, "\xaa\xbb\xcc", (size_t)(shift % 4));
        size_t block_at = f.len;
        size_t size_at = fs_begin_block(&f, 5, "StackBlock", 2);
        stack_block_payload(&f, 7, 2, (const uint32_t[]){8, 16});
        fs_end_block(&f, size_at);
        size_t content = fs_content_start(size_at);
        pads_seen[content - (size_at + 4)]++;
        fs_end(&f);

        ntidx_trace *t = open_ok(&f);
        walked w;
        walk(t, &w);
        assert_int_equal(w.rc, 0);
        assert_int_equal(w.n, 3);
        assert_true(w.b[2].offset == block_at);
        assert_true(w.b[2].payload_offset == content);
        assert_int_equal(w.b[2].payload_offset % 4, 0);
        assert_int_equal(w.b[2].payload_size, 8 + 12 + 20);
        /* the reader sees the stacks at the aligned offset */
        ntidx_reader *r;
        assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
        const ntidx_event *ev;
        assert_int_equal(ntidx_reader_next(r, &ev), 0);
        assert_int_equal(ntidx_reader_complete(r), 1);
        assert_int_equal(ntidx_reader_get_stats(r)->stacks, 2);
        ntidx_reader_close(&r);
        ntidx_trace_close(&t);
        tb_free(&f);
    }
    for (int i = 0; i < 4; i++)
        assert_true(pads_seen[i] > 0); /* every padding length 0..3 was exercised */
}

static void test_fastser_bad_objects(void **state)
{
    (void)state;
    enum { BAD_END_TAG, BAD_BEGIN_TAG, TYPE_NOT_NULLREF, TYPE_END_TAG, NAME_TOO_LONG, NEGATIVE_SIZE, NVARIANTS };
    for (int variant = 0; variant < NVARIANTS; variant++) {
        tb f;
        tb_init(&f);
        v5_begin(&f);
        v5_simple_metadata(&f, 1, "P", "E");
        size_t at = f.len;
        size_t bad_at = at;
        size_t size_at = fs_begin_block(&f, 5, "StackBlock", 2);
        stack_block_payload(&f, 1, 1, (const uint32_t[]){8});
        fs_end_block(&f, size_at);
        fs_end(&f);
        switch (variant) {
        case BAD_END_TAG: bad_at = f.len - 2; f.d[bad_at] = 7; break;
        case BAD_BEGIN_TAG: f.d[at] = 2; break;
        case TYPE_NOT_NULLREF: f.d[at + 2] = 0; break;
        case TYPE_END_TAG: f.d[at + 3 + 12 + strlen("StackBlock")] = 5; break;
        case NAME_TOO_LONG: tb_put32(&f, at + 11, 100000); break;
        case NEGATIVE_SIZE: tb_put32(&f, size_at, 0xfffffff0u); break;
        }
        ntidx_trace *t = open_ok(&f);
        walked w;
        walk(t, &w);
        if (w.rc != NTIDX_E_CORRUPT)
            fail_msg("variant %d: rc %d (%s)", variant, w.rc, ntidx_last_error());
        assert_int_equal(w.n, 2);
        assert_true(w.pos == at);
        assert_contains(ntidx_last_error(), "offset ");
        if (variant == BAD_END_TAG) {
            char want[64];
            snprintf(want, sizeof want, "offset %zu ", bad_at);
            assert_contains(ntidx_last_error(), want);
        }
        /* the reader reports the error (sticky) */
        ntidx_reader *r;
        assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
        const ntidx_event *ev;
        assert_int_equal(ntidx_reader_next(r, &ev), NTIDX_E_CORRUPT);
        assert_int_equal(ntidx_reader_next(r, &ev), NTIDX_E_CORRUPT);
        assert_contains(ntidx_last_error(), "offset ");
        assert_int_equal(ntidx_reader_complete(r), 0);
        ntidx_reader_close(&r);
        ntidx_trace_close(&t);
        tb_free(&f);
    }
}

static void test_fastser_truncations(void **state)
{
    (void)state;
    /* No NullReference at the end, a block size past the end, a missing end tag: all TRUNCATED. */
    for (int variant = 0; variant < 4; variant++) {
        tb f;
        tb_init(&f);
        v5_begin(&f);
        v5_simple_metadata(&f, 1, "P", "E");
        size_t at = f.len;
        size_t size_at = fs_begin_block(&f, 5, "StackBlock", 2);
        stack_block_payload(&f, 1, 1, (const uint32_t[]){8});
        fs_end_block(&f, size_at);
        size_t end = f.len;
        switch (variant) {
        case 0: at = end; break;                                   /* no NullReference */
        case 1: tb_put32(&f, size_at, 1000); break;                /* size past the end */
        case 2: f.len = end - 1; break;                            /* no end tag */
        case 3: f.len = size_at + 2; break;                        /* inside BlockSize */
        }
        ntidx_trace *t = open_ok(&f);
        walked w;
        walk(t, &w);
        if (w.rc != NTIDX_E_TRUNCATED)
            fail_msg("variant %d: rc %d (%s)", variant, w.rc, ntidx_last_error());
        assert_int_equal(w.n, variant == 0 ? 3 : 2);
        assert_true(w.pos == at);
        assert_contains(ntidx_last_error(), "offset ");
        ntidx_trace_close(&t);
        tb_free(&f);
    }
}

static void test_fastser_trace_object_versions(void **state)
{
    (void)state;
    static const struct { uint32_t version; int rc; int format; } cases[] = {
        {4, NTIDX_OK, 4}, {5, NTIDX_OK, 5}, {3, NTIDX_E_VERSION, 0}, {6, NTIDX_E_VERSION, 0}, {0, NTIDX_E_VERSION, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tb f;
        tb_init(&f);
        fs_nettrace_header(&f);
        fs_trace_object(&f, 5, cases[i].version, 8, 1000);
        fs_end(&f);
        if (cases[i].rc == NTIDX_OK) {
            ntidx_trace *t = open_ok(&f);
            assert_int_equal(ntidx_trace_get_info(t)->format_version, cases[i].format);
            assert_int_equal(ntidx_trace_get_info(t)->trace_object_version, cases[i].version);
            ntidx_trace_close(&t);
        } else {
            assert_int_equal(open_fail(&f, "objver"), cases[i].rc);
        }
        tb_free(&f);
    }
    /* Trace object version 4 with V5 metadata tags is V5 */
    tb f, blob;
    tb_init(&f);
    tb_init(&blob);
    v5_begin(&f);
    v5_metadata_header(&blob, 1, "P", 1, "E", 0, 0, 4);
    tb_u32(&blob, 0);
    tb_u32(&blob, 1);
    tb_u8(&blob, 1);
    tb_u8(&blob, 12);
    v5_metadata_block(&f, &blob);
    fs_end(&f);
    ntidx_trace *t = open_ok(&f);
    assert_int_equal(ntidx_trace_get_info(t)->format_version, 5);
    assert_int_equal(ntidx_trace_get_info(t)->trace_object_version, 4);
    ntidx_trace_close(&t);
    /* the first object must be the Trace object */
    tb_reset(&f);
    fs_nettrace_header(&f);
    v5_metadata_block(&f, &blob);
    fs_end(&f);
    assert_int_equal(open_fail(&f, "notrace"), NTIDX_E_CORRUPT);
    /* a trace object cut short */
    tb_reset(&f);
    v5_begin(&f);
    f.len -= 10;
    assert_int_equal(open_fail(&f, "shorttrace"), NTIDX_E_TRUNCATED);
    tb_free(&f);
    tb_free(&blob);
}

/* ------------------------------------------------------------------ */
/* V3 NetPerf                                                          */
/* ------------------------------------------------------------------ */

static void test_netperf_detection(void **state)
{
    (void)state;
    tb f;
    tb_init(&f);
    unsigned n = sample_v3(&f);
    (void)n;
    ntidx_trace *t = open_ok(&f);
    const ntidx_trace_info *in = ntidx_trace_get_info(t);
    assert_int_equal(in->format_version, 3);
    assert_int_equal(in->trace_object_version, 3);
    assert_int_equal(in->first_block_offset, 24);
    assert_int_equal(in->tick_frequency, 1000000000);
    walked w;
    walk(t, &w);
    assert_int_equal(w.rc, 0);
    assert_int_equal(w.n, 3);
    assert_int_equal(w.b[0].kind, NTIDX_BLOCK_TRACE);
    assert_int_equal(w.b[0].offset, 24);
    assert_int_equal(w.b[1].kind, NTIDX_BLOCK_EVENT);
    assert_int_equal(w.b[1].raw_kind, 1);
    assert_int_equal(w.b[1].payload_offset % 4, 0);
    assert_int_equal(w.b[2].kind, NTIDX_BLOCK_EVENT);
    assert_true(w.pos == f.len);
    ntidx_trace_close(&t);

    /* NetPerf trace objects other than version 3 are refused */
    for (uint32_t v = 1; v <= 5; v++) {
        if (v == 3)
            continue;
        tb_reset(&f);
        fs_netperf_header(&f);
        fs_trace_object(&f, 4, v, 8, 1000);
        fs_end(&f);
        assert_int_equal(open_fail(&f, "netperf"), NTIDX_E_VERSION);
    }
    tb_free(&f);
}

/* ------------------------------------------------------------------ */
/* Not traces                                                          */
/* ------------------------------------------------------------------ */

static void expect_not_a_trace(const void *d, size_t n, const char *name)
{
    ntidx_trace *t = (ntidx_trace *)1;
    int rc = ntidx_trace_open_memory(d, n, name, &t);
    if (rc != NTIDX_E_NOT_A_TRACE)
        fail_msg("%s (%zu bytes): rc %d (%s)", name, n, rc, ntidx_last_error());
    assert_null(t);
    assert_contains(ntidx_last_error(), name);
    assert_contains(ntidx_last_error(), "offset 0 ");
}

static void test_not_a_trace(void **state)
{
    (void)state;
    static const uint8_t one[1] = {0};
    expect_not_a_trace(NULL, 0, "empty-null");
    expect_not_a_trace(one, 0, "empty");
    /* every prefix shorter than the magic */
    for (size_t n = 1; n < 8; n++)
        expect_not_a_trace("Nettrace", n, "short-magic");
    for (size_t n = 1; n < 24; n++)
        expect_not_a_trace("\x14\0\0\0!FastSerialization.1", n, "short-netperf");
    expect_not_a_trace("\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0", 16, "elf");
    expect_not_a_trace("\x14\0\0\0!FastSerialization.2 and more bytes", 40, "fastser2");
    expect_not_a_trace("nettrace lowercase magic.....", 28, "lowercase");
    /* random bytes */
    for (uint64_t seed = 1; seed <= 8; seed++) {
        uint64_t s = seed;
        uint8_t *d = malloc(1024);
        assert_non_null(d);
        for (int i = 0; i < 1024; i++)
            d[i] = (uint8_t)rng_next(&s);
        expect_not_a_trace(d, 1024, "random");
        free(d);
    }
    /* a successful open clears the message */
    tb f;
    tb_init(&f);
    v6_begin(&f);
    v6_end(&f);
    ntidx_trace *t = open_ok(&f);
    ntidx_trace_close(&t);
    tb_free(&f);
}

static void test_open_files(void **state)
{
    (void)state;
    ntidx_trace *t = (ntidx_trace *)1;
    assert_int_equal(ntidx_trace_open("/nonexistent/dir/x.nettrace", &t), NTIDX_E_IO);
    assert_null(t);
    assert_contains(ntidx_last_error(), "/nonexistent/dir/x.nettrace");

    char path[] = "/tmp/ntidx-framing-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    /* an empty file */
    assert_int_equal(ntidx_trace_open(path, &t), NTIDX_E_NOT_A_TRACE);
    assert_contains(ntidx_last_error(), path);
    /* a real file holding a sample trace, through the mapping */
    tb f;
    tb_init(&f);
    unsigned n = sample_v6(&f);
    assert_int_equal(write(fd, f.d, f.len), (ssize_t)f.len);
    close(fd);
    assert_int_equal(ntidx_trace_open(path, &t), NTIDX_OK);
    assert_string_equal(ntidx_trace_name(t), path);
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    const ntidx_event *ev;
    unsigned count = 0;
    int rc;
    while ((rc = ntidx_reader_next(r, &ev)) == 1)
        count++;
    assert_int_equal(rc, 0);
    assert_int_equal(count, n);
    assert_int_equal(ntidx_reader_complete(r), 1);
    ntidx_reader_close(&r);
    ntidx_trace_close(&t);
    unlink(path);
    tb_free(&f);
}

/* Timestamps from the trace block's sync time: 2024-01-02T03:04:05.006Z at 1000 ticks. */
static void test_time_conversions(void **state)
{
    (void)state;
    tb f;
    tb_init(&f);
    v6_begin(&f); /* 10 MHz */
    v6_end(&f);
    ntidx_trace *t = open_ok(&f);
    static const struct { uint64_t ticks; double secs; int64_t ns; const char *iso; } cases[] = {
        {1000, 0.0, 1704164645006000000LL, "2024-01-02T03:04:05.006000000Z"},
        {1015, 1.5e-6, 1704164645006001500LL, "2024-01-02T03:04:05.006001500Z"},
        {500, -5e-5, 1704164645005950000LL, "2024-01-02T03:04:05.005950000Z"},
        {1000 + 10000000ULL * 86400 * 366, 86400.0 * 366, 1704164645006000000LL + 86400LL * 366 * 1000000000LL,
         "2025-01-02T03:04:05.006000000Z"},
        {0, -1e-4, 1704164645005900000LL, "2024-01-02T03:04:05.005900000Z"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double s = ntidx_ticks_to_seconds(t, cases[i].ticks);
        double tol = 1e-9 + (cases[i].secs < 0 ? -cases[i].secs : cases[i].secs) * 1e-12;
        assert_true(s > cases[i].secs - tol && s < cases[i].secs + tol);
        int64_t ns = 0;
        assert_int_equal(ntidx_ticks_to_unix_ns(t, cases[i].ticks, &ns), NTIDX_OK);
        assert_true(ns == cases[i].ns);
        char iso[64];
        assert_int_equal(ntidx_ticks_to_iso8601(t, cases[i].ticks, iso, sizeof iso), NTIDX_OK);
        assert_string_equal(iso, cases[i].iso);
    }
    ntidx_trace_close(&t);

    /* A hostile tick frequency of 1 with timestamps far from the sync time: the result does not fit
       in 64-bit nanoseconds and must be refused, not overflow. */
    tb_reset(&f);
    v6_stream_header(&f, 6, 0);
    v6_trace_block(&f, 8, 1, NULL, 0);
    v6_end(&f);
    t = open_ok(&f);
    static const uint64_t far[] = {1ULL << 62, (1ULL << 63) + 1000, UINT64_MAX / 3};
    for (size_t i = 0; i < sizeof far / sizeof far[0]; i++) {
        int64_t ns = 0;
        char iso[64];
        assert_int_equal(ntidx_ticks_to_unix_ns(t, far[i], &ns), NTIDX_E_CORRUPT);
        assert_int_equal(ntidx_ticks_to_iso8601(t, far[i], iso, sizeof iso), NTIDX_E_CORRUPT);
    }
    ntidx_trace_close(&t);

    /* sync dates that are valid SYSTEMTIMEs but outside the int64 nanosecond range */
    static const int16_t years[] = {1601, 1677, 2263, 9999, 32767};
    for (size_t i = 0; i < sizeof years / sizeof years[0]; i++) {
        tb_reset(&f);
        v6_stream_header(&f, 6, 0);
        v6_trace_block(&f, 8, 1000, NULL, 0);
        v6_end(&f);
        tb_put16(&f, 24, (uint16_t)years[i]);
        t = open_ok(&f);
        int64_t ns;
        char iso[64];
        assert_int_equal(ntidx_ticks_to_unix_ns(t, 1000, &ns), NTIDX_E_CORRUPT);
        assert_int_equal(ntidx_ticks_to_iso8601(t, 1000, iso, sizeof iso), NTIDX_E_CORRUPT);
        ntidx_trace_close(&t);
    }
    /* a sync time that is not a date */
    tb_reset(&f);
    v6_stream_header(&f, 6, 0);
    v6_trace_block(&f, 8, 1000, NULL, 0);
    v6_end(&f);
    tb_put16(&f, 24 + 2, 13); /* month 13 */
    t = open_ok(&f);
    int64_t ns;
    assert_int_equal(ntidx_ticks_to_unix_ns(t, 0, &ns), NTIDX_E_CORRUPT);
    ntidx_trace_close(&t);
    tb_free(&f);
}

static void test_invalid_arguments(void **state)
{
    (void)state;
    ntidx_trace *t;
    assert_int_equal(ntidx_trace_open_memory("x", 1, "n", NULL), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_trace_open_memory(NULL, 10, "n", &t), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_trace_open("x", NULL), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_trace_open(NULL, &t), NTIDX_E_INVALID_ARG);
    tb f;
    tb_init(&f);
    v6_begin(&f);
    v6_end(&f);
    t = open_ok(&f);
    uint64_t pos = 20;
    ntidx_block b;
    assert_int_equal(ntidx_trace_next_block(NULL, &pos, &b), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_trace_next_block(t, NULL, &b), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_trace_next_block(t, &pos, NULL), NTIDX_E_INVALID_ARG);
    /* a position past the end of the file is not a block */
    pos = f.len + 1;
    assert_int_equal(ntidx_trace_next_block(t, &pos, &b), NTIDX_E_CORRUPT);
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, NULL, NULL), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_reader_open(NULL, NULL, &r), NTIDX_E_INVALID_ARG);
    ntidx_reader_options o;
    ntidx_reader_options_defaults(&o);
    assert_int_equal(o.order, NTIDX_ORDER_FILE);
    o.order = (ntidx_order)7;
    assert_int_equal(ntidx_reader_open(t, &o, &r), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_reader_next(NULL, NULL), NTIDX_E_INVALID_ARG);
    ntidx_reader_close(NULL);
    ntidx_trace_close(&t);
    tb_free(&f);
    assert_string_equal(ntidx_strerror(NTIDX_E_TRUNCATED), "trace is truncated");
    assert_string_equal(ntidx_strerror(12345), "unknown error");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v6_header_and_trace_block),
        cmocka_unit_test(test_v6_walk_skips_unknown_blocks),
        cmocka_unit_test(test_sequence_point_flushes),
        cmocka_unit_test(test_v6_end_of_stream_with_payload),
        cmocka_unit_test(test_v6_missing_end_of_stream),
        cmocka_unit_test(test_v6_block_past_end),
        cmocka_unit_test(test_v6_versions),
        cmocka_unit_test(test_v6_bad_trace_block),
        cmocka_unit_test(test_fastser_walk),
        cmocka_unit_test(test_fastser_end_tag_not_at_end),
        cmocka_unit_test(test_fastser_alignment_is_file_relative),
        cmocka_unit_test(test_fastser_bad_objects),
        cmocka_unit_test(test_fastser_truncations),
        cmocka_unit_test(test_fastser_trace_object_versions),
        cmocka_unit_test(test_netperf_detection),
        cmocka_unit_test(test_not_a_trace),
        cmocka_unit_test(test_open_files),
        cmocka_unit_test(test_time_conversions),
        cmocka_unit_test(test_invalid_arguments),
    };
    return cmocka_run_group_tests_name("reader-framing", tests, NULL, NULL);
}
