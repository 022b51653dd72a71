/*
 * Events: tiny complete traces built by hand (V3, V4/V5, V6; compressed and
 * uncompressed headers) read back through ntidx_reader. Every decoded header
 * field, the delta rules of compressed headers, IsSorted, reserved block
 * header bytes, activity ids and label lists, stacks/labels/threads/metadata
 * and their lifetimes (sequence points, flushes, remove-thread), dropped
 * event counts, and time order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "event_header.h"
#include "ntidx/ntidx.h"
#include "tbuild.h"
#include "trace_internal.h"

#define assert_contains(hay, needle)                                                                   \
    do {                                                                                               \
        const char *h_ = (hay);                                                                        \
        if (!h_ || !strstr(h_, (needle)))                                                              \
            fail_msg("'%s' does not contain '%s'", h_ ? h_ : "(null)", (needle));                      \
    } while (0)

static const uint8_t ZERO16[16];

static ntidx_trace *open_ok(const tb *f)
{
    ntidx_trace *t = NULL;
    int rc = ntidx_trace_open_memory(f->d, f->len, "mem", &t);
    if (rc != NTIDX_OK)
        fail_msg("open failed: %s (%s)", ntidx_strerror(rc), ntidx_last_error());
    return t;
}

static ntidx_reader *reader(ntidx_trace *t, int time_order)
{
    ntidx_reader_options o;
    ntidx_reader_options_defaults(&o);
    o.order = time_order ? NTIDX_ORDER_TIME : NTIDX_ORDER_FILE;
    ntidx_reader *r = NULL;
    assert_int_equal(ntidx_reader_open(t, &o, &r), NTIDX_OK);
    return r;
}

/* A copy of what an event says, so events can be compared after the reader moved on. */
typedef struct rec {
    uint64_t off, ts, thread_index, capture_index, thread_id, capture_id;
    uint32_t mid, seq, proc, stack_id, label_id, psize, stack_size, label_size;
    int sorted;
    uint8_t stack0;
    char provider[32], name[32], tname[32];
} rec;

static void to_rec(const ntidx_event *e, rec *r)
{
    memset(r, 0, sizeof *r);
    r->off = e->offset;
    r->ts = e->timestamp;
    r->thread_index = e->thread_index;
    r->capture_index = e->capture_thread_index;
    r->thread_id = e->thread_id;
    r->capture_id = e->capture_thread_id;
    r->mid = e->metadata_id;
    r->seq = e->sequence_number;
    r->proc = e->processor_number;
    r->stack_id = e->stack_id;
    r->label_id = e->label_list_id;
    r->psize = e->payload_size;
    r->stack_size = e->stack_size;
    r->label_size = e->label_list_size;
    r->sorted = e->is_sorted;
    r->stack0 = e->stack ? e->stack[0] : 0;
    assert_non_null(e->metadata);
    assert_true(e->metadata->id == e->metadata_id);
    snprintf(r->provider, sizeof r->provider, "%s", e->metadata->provider);
    snprintf(r->name, sizeof r->name, "%s", e->metadata->event_name);
    if (e->thread && e->thread->name)
        snprintf(r->tname, sizeof r->tname, "%s", e->thread->name);
}

/* Read everything; returns the final rc, the events in out[0..*n). */
static int collect(ntidx_trace *t, int time_order, rec *out, int max, int *n)
{
    ntidx_reader *r = reader(t, time_order);
    const ntidx_event *e;
    int rc;
    *n = 0;
    while ((rc = ntidx_reader_next(r, &e)) == 1) {
        assert_true(*n < max);
        to_rec(e, &out[(*n)++]);
    }
    /* the end (or the error) is sticky */
    assert_int_equal(ntidx_reader_next(r, &e), rc);
    if (rc < 0)
        assert_true(ntidx_last_error()[0] != 0);
    ntidx_reader_close(&r);
    return rc;
}

/* Thread block defining indexes first..first+n-1 with OS thread ids 1000 + index. */
static void v6_threads(tb *f, uint64_t first, int n)
{
    tb p;
    tb_init(&p);
    for (int i = 0; i < n; i++)
        v6_thread_row(&p, first + (uint64_t)i, NULL, 7, 1000 + first + (uint64_t)i);
    v6_block(f, 6, p.d, p.len);
    tb_free(&p);
}

/* One uncompressed V6 event block holding rows[0..n). */
static size_t v6_events(tb *f, const ev6 *rows, int n)
{
    tb p;
    tb_init(&p);
    eb_header(&p, 20, 0, 0, 0);
    for (int i = 0; i < n; i++)
        v6_event_row(&p, &rows[i]);
    size_t first_row = f->len + 4 + 20;
    v6_block(f, 2, p.d, p.len);
    tb_free(&p);
    return first_row;
}

static void v5_events(tb *f, const ev5 *rows, int n)
{
    size_t at = fs_begin_block(f, 5, "EventBlock", 2);
    eb_header(f, 20, 0, 0, 0);
    for (int i = 0; i < n; i++)
        v5_event_row(f, &rows[i]);
    fs_end_block(f, at);
}

/* ------------------------------------------------------------------ */
/* V6 headers                                                          */
/* ------------------------------------------------------------------ */

static void test_v6_uncompressed_header_fields(void **state)
{
    (void)state;
    tb f, p;
    tb_init(&f);
    tb_init(&p);
    v6_begin(&f);
    v6_thread_row(&p, 1, "main", 100, 1001);
    v6_thread_row(&p, 2, NULL, UINT64_MAX, 2002);
    v6_thread_row(&p, 5, NULL, UINT64_MAX, UINT64_MAX);
    v6_block(&f, 6, p.d, p.len);
    v6_simple_metadata(&f, 7, "Prov", "Ev");
    tb_reset(&p);
    stack_block_payload(&p, 3, 1, (const uint32_t[]){16});
    v6_block(&f, 5, p.d, p.len);
    tb_reset(&p);
    tb_u32(&p, 4);
    tb_u32(&p, 1);
    tb_u8(&p, 0x87);
    tb_u8(&p, 9);
    v6_block(&f, 8, p.d, p.len);
    ev6 rows[2] = {
        {.metadata_id = 7, .seq = 1, .thread = 1, .capture = 2, .proc = 3, .stack_id = 3, .ts = 1000, .label_id = 4,
         .payload = "abc", .payload_size = 3},
        {.metadata_id = 7, .not_sorted = 1, .seq = 1, .thread = 5, .capture = 1, .proc = 0xffffffffu, .ts = 0xfffffffffffULL},
    };
    size_t row0 = v6_events(&f, rows, 2);
    v6_end(&f);

    ntidx_trace *t = open_ok(&f);
    ntidx_reader *r = reader(t, 0);
    const ntidx_event *e;
    assert_int_equal(ntidx_reader_next(r, &e), 1);
    assert_int_equal(e->offset, row0);
    assert_int_equal(e->timestamp, 1000);
    assert_int_equal(e->thread_index, 1);
    assert_int_equal(e->capture_thread_index, 2);
    assert_int_equal(e->thread_id, 1001);
    assert_int_equal(e->capture_thread_id, 2002);
    assert_int_equal(e->metadata_id, 7);
    assert_int_equal(e->sequence_number, 1);
    assert_int_equal(e->processor_number, 3);
    assert_int_equal(e->stack_id, 3);
    assert_int_equal(e->stack_size, 16);
    for (int i = 0; i < 16; i++)
        assert_int_equal(e->stack[i], (uint8_t)(3 * 16 + i));
    assert_int_equal(e->label_list_id, 4);
    assert_int_equal(e->label_list_size, 2);
    assert_int_equal(e->label_list[0], 0x87);
    assert_int_equal(e->payload_size, 3);
    assert_ptr_equal(e->payload, f.d + row0 + 52);
    assert_memory_equal(e->payload, "abc", 3);
    assert_int_equal(e->is_sorted, 1);
    assert_null(e->activity_id);
    assert_null(e->related_activity_id);
    assert_string_equal(e->metadata->provider, "Prov");
    /* its label list (0x87: opcode 9) renames it as TraceEvent does */
    assert_string_equal(e->metadata->event_name, "Ev/Send");
    assert_string_equal(e->metadata->name_in_trace, "Ev");
    assert_int_equal(e->metadata->event_id, 70);
    assert_non_null(e->thread);
    assert_int_equal(e->thread->index, 1);
    assert_string_equal(e->thread->name, "main");
    assert_int_equal(e->thread->has_os_process_id, 1);
    assert_int_equal(e->thread->os_process_id, 100);
    assert_int_equal(e->thread->has_os_thread_id, 1);
    assert_int_equal(e->thread->os_thread_id, 1001);

    assert_int_equal(ntidx_reader_next(r, &e), 1);
    assert_int_equal(e->offset, row0 + 52 + 3);
    assert_int_equal(e->metadata_id, 7); /* bit 31 is the not-sorted flag, not part of the id */
    assert_int_equal(e->is_sorted, 0);
    assert_int_equal(e->thread_index, 5);
    assert_int_equal(e->thread_id, 5); /* no OS thread id: the index */
    assert_int_equal(e->capture_thread_index, 1);
    assert_int_equal(e->capture_thread_id, 1001);
    assert_null(e->thread->name);
    assert_int_equal(e->thread->has_os_thread_id, 0);
    assert_int_equal(e->thread->has_os_process_id, 0);
    assert_int_equal(e->processor_number, 0xffffffffu);
    assert_true(e->timestamp == 0xfffffffffffULL);
    assert_int_equal(e->stack_id, 0);
    assert_null(e->stack);
    assert_int_equal(e->stack_size, 0);
    assert_int_equal(e->label_list_id, 0);
    assert_null(e->label_list);
    assert_int_equal(e->label_list_size, 0);
    assert_int_equal(e->payload_size, 0);
    assert_int_equal(ntidx_reader_next(r, &e), 0);
    assert_int_equal(ntidx_reader_complete(r), 1);
    assert_string_equal(ntidx_reader_incomplete_reason(r), "");
    ntidx_reader_close(&r);
    assert_null(r);
    ntidx_trace_close(&t);
    tb_free(&f);
    tb_free(&p);
}

typedef struct want6 {
    uint32_t mid, seq;
    uint64_t capture;
    uint32_t proc;
    uint64_t thread;
    uint32_t stack, label;
    uint64_t ts;
    uint32_t psize;
    int sorted;
} want6;

static void test_v6_compressed_header_deltas(void **state)
{
    (void)state;
    tb f, p;
    tb_init(&f);
    tb_init(&p);
    v6_begin(&f);
    v6_threads(&f, 0, 4);
    v6_simple_metadata(&f, 1, "P", "A");
    v6_simple_metadata(&f, 2, "P", "B");
    tb_reset(&p);
    stack_block_payload(&p, 1, 2, (const uint32_t[]){8, 16});
    v6_block(&f, 5, p.d, p.len);
    tb_reset(&p);
    tb_u32(&p, 1);
    tb_u32(&p, 2);
    tb_u8(&p, 0x89);
    tb_u8(&p, 1);
    tb_u8(&p, 0x8a);
    tb_u8(&p, 2);
    v6_block(&f, 8, p.d, p.len);

    /* Block 1: each row changes one group of fields. */
    tb_reset(&p);
    eb_header(&p, 20, 1, 0, 0);
    tb_u8(&p, 0xdf);           /* all groups except 32 (unused in V6) */
    tb_varu(&p, 1);            /* metadata id */
    tb_varu(&p, 4);            /* seq = 0 + 4 + 1 */
    tb_varu(&p, 2);            /* capture */
    tb_varu(&p, 7);            /* proc */
    tb_varu(&p, 3);            /* thread */
    tb_varu(&p, 1);            /* stack */
    tb_varu(&p, 100);          /* ts = 0 + 100 */
    tb_varu(&p, 1);            /* label list */
    tb_varu(&p, 2);            /* payload size */
    tb_bytes(&p, "hi", 2);
    tb_u8(&p, 0x00);           /* nothing: seq still increments in V6 */
    tb_varu(&p, 0);
    tb_bytes(&p, "hi", 2);
    tb_u8(&p, 0x02);           /* capture group */
    tb_varu(&p, 0);
    tb_varu(&p, 1);
    tb_varu(&p, 0);
    tb_varu(&p, 5);
    tb_bytes(&p, "hi", 2);
    tb_u8(&p, 0x01);           /* metadata */
    tb_varu(&p, 2);
    tb_varu(&p, 1);
    tb_bytes(&p, "hi", 2);
    tb_u8(&p, 0x04 | 0x08 | 0x10 | 0x80);
    tb_varu(&p, 1);            /* thread */
    tb_varu(&p, 2);            /* stack */
    tb_varu(&p, 1ULL << 40);   /* ts */
    tb_varu(&p, 2);            /* label */
    tb_varu(&p, 0);            /* payload size */
    tb_u8(&p, 0x02);           /* seq delta that wraps */
    tb_varu(&p, 0xfffffff0u);
    tb_varu(&p, 1);
    tb_varu(&p, 0xffffffffu);  /* largest processor number */
    tb_varu(&p, 0);
    tb_u8(&p, 0x40);
    tb_varu(&p, 1);
    v6_block(&f, 2, p.d, p.len);
    /* Block 2: the delta state starts from zero again. Flag 32 (RelatedActivityId before V6)
       has no field in V6: nothing is read for it. */
    tb_reset(&p);
    eb_header(&p, 20, 1, 0, 0);
    tb_u8(&p, 0x01);
    tb_varu(&p, 1);
    tb_varu(&p, 500);
    tb_u8(&p, 0x20);
    tb_varu(&p, 1);
    v6_block(&f, 2, p.d, p.len);
    v6_end(&f);

    static const want6 want[] = {
        {1, 5, 2, 7, 3, 1, 1, 100, 2, 1},
        {1, 6, 2, 7, 3, 1, 1, 100, 2, 0},
        {1, 7, 1, 0, 3, 1, 1, 105, 2, 0},
        {2, 8, 1, 0, 3, 1, 1, 106, 2, 0},
        {2, 9, 1, 0, 1, 2, 2, 106 + (1ULL << 40), 0, 0},
        {2, 9 + 0xfffffff0u + 1, 1, 0xffffffffu, 1, 2, 2, 106 + (1ULL << 40), 0, 0},
        {2, 9 + 0xfffffff0u + 2, 1, 0xffffffffu, 1, 2, 2, 107 + (1ULL << 40), 0, 1},
        {1, 1, 0, 0, 0, 0, 0, 500, 0, 0},
        {1, 2, 0, 0, 0, 0, 0, 501, 0, 0},
    };
    const int nwant = (int)(sizeof want / sizeof want[0]);
    ntidx_trace *t = open_ok(&f);
    rec got[16];
    int n;
    assert_int_equal(collect(t, 0, got, 16, &n), 0);
    assert_int_equal(n, nwant);
    for (int i = 0; i < nwant; i++) {
        const want6 *w = &want[i];
        const rec *g = &got[i];
        if (g->mid != w->mid || g->seq != w->seq || g->capture_index != w->capture || g->proc != w->proc ||
            g->thread_index != w->thread || g->stack_id != w->stack || g->label_id != w->label || g->ts != w->ts ||
            g->psize != w->psize || g->sorted != w->sorted)
            fail_msg("row %d: mid %u seq %u capture %llu proc %u thread %llu stack %u label %u ts %llu psize %u "
                     "sorted %d",
                     i, g->mid, g->seq, (unsigned long long)g->capture_index, g->proc,
                     (unsigned long long)g->thread_index, g->stack_id, g->label_id, (unsigned long long)g->ts,
                     g->psize, g->sorted);
        /* OS ids resolved through the thread rows */
        assert_true(g->thread_id == 1000 + w->thread);
        assert_true(g->capture_id == 1000 + w->capture);
        assert_int_equal(g->stack_size, w->stack == 1 ? 8 : w->stack == 2 ? 16 : 0);
        assert_int_equal(g->label_size, w->label ? 2 : 0);
    }
    ntidx_trace_close(&t);
    tb_free(&f);
    tb_free(&p);
}

/* ------------------------------------------------------------------ */
/* V4/V5 headers                                                       */
/* ------------------------------------------------------------------ */

static void test_v5_uncompressed_header_and_padding(void **state)
{
    (void)state;
    tb f;
    tb_init(&f);
    v5_begin(&f);
    v5_simple_metadata(&f, 3, "Prov", "Ev");
    size_t sat = fs_begin_block(&f, 5, "StackBlock", 2);
    stack_block_payload(&f, 1, 1, (const uint32_t[]){24});
    fs_end_block(&f, sat);
    uint8_t act[16], rel[16];
    guid_fill(act, 0x11);
    guid_fill(rel, 0x51);
    static const uint8_t pl[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    size_t at = fs_begin_block(&f, 5, "EventBlock", 2);
    eb_header(&f, 20, 0, 0, 0);
    /* payload sizes 0..7 give every padding length; some rows count the padding in EventSize */
    size_t offs[8];
    for (uint32_t i = 0; i < 8; i++) {
        offs[i] = f.len;
        ev5 e = {.metadata_id = 3, .not_sorted = (int)(i & 1), .seq = 10 + i, .thread = 0x123456789ULL + i,
                 .capture = 0xfedcba987654ULL, .proc = i, .stack_id = i == 2 ? 1 : 0, .ts = 5000 + i,
                 .activity = i == 3 ? act : NULL, .related = i == 3 ? rel : NULL, .payload = pl, .payload_size = i,
                 .size_counts_padding = i >= 4};
        v5_event_row(&f, &e);
        assert_int_equal(f.len % 4, 0);
    }
    fs_end_block(&f, at);
    fs_end(&f);

    ntidx_trace *t = open_ok(&f);
    ntidx_reader *r = reader(t, 0);
    const ntidx_event *e;
    for (uint32_t i = 0; i < 8; i++) {
        assert_int_equal(ntidx_reader_next(r, &e), 1);
        assert_int_equal(e->offset, offs[i]);
        assert_int_equal(e->metadata_id, 3);
        assert_int_equal(e->is_sorted, !(i & 1));
        assert_int_equal(e->sequence_number, 10 + i);
        assert_true(e->thread_index == 0x123456789ULL + i);
        assert_true(e->thread_id == 0x123456789ULL + i);
        assert_true(e->capture_thread_index == 0xfedcba987654ULL);
        assert_true(e->capture_thread_id == 0xfedcba987654ULL);
        assert_int_equal(e->processor_number, i);
        assert_int_equal(e->timestamp, 5000 + i);
        assert_int_equal(e->payload_size, i);
        assert_ptr_equal(e->payload, f.d + offs[i] + 80);
        if (i)
            assert_memory_equal(e->payload, pl, i);
        assert_non_null(e->activity_id);
        assert_non_null(e->related_activity_id);
        assert_ptr_equal(e->activity_id, f.d + offs[i] + 44);
        assert_ptr_equal(e->related_activity_id, f.d + offs[i] + 60);
        assert_memory_equal(e->activity_id, i == 3 ? act : ZERO16, 16);
        assert_memory_equal(e->related_activity_id, i == 3 ? rel : ZERO16, 16);
        assert_null(e->thread);
        assert_null(e->label_list);
        assert_int_equal(e->label_list_id, 0);
        if (i == 2) {
            assert_int_equal(e->stack_id, 1);
            assert_int_equal(e->stack_size, 24);
            assert_int_equal(e->stack[0], 16);
        } else {
            assert_null(e->stack);
        }
    }
    assert_int_equal(ntidx_reader_next(r, &e), 0);
    assert_int_equal(ntidx_reader_complete(r), 1);
    ntidx_reader_close(&r);
    ntidx_trace_close(&t);
    tb_free(&f);
}

static void test_v5_compressed_header_deltas(void **state)
{
    (void)state;
    tb f;
    tb_init(&f);
    v5_begin(&f);
    v5_simple_metadata(&f, 1, "P", "A");
    v5_simple_metadata(&f, 2, "P", "B");
    size_t sat = fs_begin_block(&f, 5, "StackBlock", 2);
    stack_block_payload(&f, 1, 1, (const uint32_t[]){8});
    fs_end_block(&f, sat);
    uint8_t A[16], B[16], C[16], D[16];
    guid_fill(A, 0xa0);
    guid_fill(B, 0xb0);
    guid_fill(C, 0xc0);
    guid_fill(D, 0xd0);
    size_t at = fs_begin_block(&f, 5, "EventBlock", 2);
    eb_header(&f, 20, 1, 0, 0);
    tb_u8(&f, 0xff);
    tb_varu(&f, 1);      /* metadata */
    tb_varu(&f, 0);      /* seq 0 + 0 + 1 */
    tb_varu(&f, 10);     /* capture */
    tb_varu(&f, 2);      /* proc */
    tb_varu(&f, 11);     /* thread */
    tb_varu(&f, 1);      /* stack */
    tb_varu(&f, 50);     /* ts */
    tb_bytes(&f, A, 16); /* activity */
    tb_bytes(&f, B, 16); /* related */
    tb_varu(&f, 1);      /* payload size */
    tb_u8(&f, 0x77);
    tb_u8(&f, 0x00);     /* MetadataId != 0: seq + 1 */
    tb_varu(&f, 1);
    tb_u8(&f, 0x77);
    tb_u8(&f, 0x10);     /* new activity, related kept */
    tb_varu(&f, 1);
    tb_bytes(&f, C, 16);
    tb_u8(&f, 0x77);
    tb_u8(&f, 0x20 | 0x02 | 0x01); /* related, capture group with a seq gap, metadata */
    tb_varu(&f, 2);
    tb_varu(&f, 3);      /* seq 3 + 3 + 1 = 7 */
    tb_varu(&f, 12);
    tb_varu(&f, 0);
    tb_varu(&f, 1);
    tb_bytes(&f, D, 16);
    tb_u8(&f, 0x77);
    fs_end_block(&f, at);
    at = fs_begin_block(&f, 5, "EventBlock", 2);
    eb_header(&f, 20, 1, 0, 0);
    tb_u8(&f, 0x01 | 0x40);
    tb_varu(&f, 1);
    tb_varu(&f, 900);
    fs_end_block(&f, at);
    fs_end(&f);

    static const struct {
        uint32_t mid, seq;
        uint64_t capture, thread, ts;
        uint32_t proc, stack, psize;
        const uint8_t *act, *rel;
        int sorted;
    } want[] = {
        {1, 1, 10, 11, 50, 2, 1, 1, NULL, NULL, 1},
        {1, 2, 10, 11, 51, 2, 1, 1, NULL, NULL, 0},
        {1, 3, 10, 11, 52, 2, 1, 1, NULL, NULL, 0},
        {2, 7, 12, 11, 53, 0, 1, 1, NULL, NULL, 0},
        {1, 1, 0, 0, 900, 0, 0, 0, NULL, NULL, 1},
    };
    const uint8_t *acts[] = {A, A, C, C, ZERO16};
    const uint8_t *rels[] = {B, B, B, D, ZERO16};
    ntidx_trace *t = open_ok(&f);
    ntidx_reader *r = reader(t, 0);
    const ntidx_event *e;
    for (int i = 0; i < 5; i++) {
        assert_int_equal(ntidx_reader_next(r, &e), 1);
        assert_int_equal(e->metadata_id, want[i].mid);
        assert_int_equal(e->sequence_number, want[i].seq);
        assert_int_equal(e->capture_thread_index, want[i].capture);
        assert_int_equal(e->thread_index, want[i].thread);
        assert_int_equal(e->timestamp, want[i].ts);
        assert_int_equal(e->processor_number, want[i].proc);
        assert_int_equal(e->stack_id, want[i].stack);
        assert_int_equal(e->payload_size, want[i].psize);
        assert_int_equal(e->is_sorted, want[i].sorted);
        assert_memory_equal(e->activity_id, acts[i], 16);
        assert_memory_equal(e->related_activity_id, rels[i], 16);
        if (want[i].psize)
            assert_int_equal(e->payload[0], 0x77);
    }
    assert_int_equal(ntidx_reader_next(r, &e), 0);
    ntidx_reader_close(&r);
    ntidx_trace_close(&t);
    tb_free(&f);
}

/* The sequence rule at the decoder level: V4/V5 increments only when MetadataId != 0, V6 always. */
static void test_sequence_increment_rules(void **state)
{
    (void)state;
    for (int v6 = 0; v6 < 2; v6++) {
        tb f, p;
        tb_init(&f);
        tb_init(&p);
        eb_header(&p, 20, 1, 0, 0);
        tb_u8(&p, 0x01); /* metadata 0 */
        tb_varu(&p, 0);
        tb_varu(&p, 1);
        tb_u8(&p, 0x00); /* again */
        tb_varu(&p, 1);
        tb_u8(&p, 0x02); /* capture group with metadata 0: prev + delta + 1 */
        tb_varu(&p, 4);
        tb_varu(&p, 9);
        tb_varu(&p, 0);
        tb_varu(&p, 1);
        tb_u8(&p, 0x01); /* metadata 5 */
        tb_varu(&p, 5);
        tb_varu(&p, 1);
        tb_u8(&p, 0x00);
        tb_varu(&p, 1);
        if (v6) {
            v6_begin(&f);
            v6_block(&f, 2, p.d, p.len);
            v6_end(&f);
        } else {
            v5_begin(&f);
            fs_block(&f, 5, "EventBlock", 2, p.d, p.len);
            fs_end(&f);
        }
        ntidx_trace *t = open_ok(&f);
        uint64_t pos = ntidx_trace_get_info(t)->first_block_offset;
        ntidx_block b;
        assert_int_equal(ntidx_trace_next_block(t, &pos, &b), 1); /* trace */
        assert_int_equal(ntidx_trace_next_block(t, &pos, &b), 1);
        assert_int_equal(b.kind, NTIDX_BLOCK_EVENT);
        ntx_hdr_block hb;
        ntx_err err = {0};
        assert_int_equal(ntx_hdr_block_init(&hb, t, &b, &err), 0);
        assert_int_equal(hb.compressed, 1);
        static const uint32_t want_v5[] = {0, 0, 5, 6, 7};
        static const uint32_t want_v6[] = {1, 2, 7, 8, 9};
        static const uint32_t want_mid[] = {0, 0, 0, 5, 5};
        ntx_hdr h;
        for (int i = 0; i < 5; i++) {
            assert_int_equal(ntx_hdr_next(&hb, &h, &err), 1);
            assert_int_equal(h.metadata_id, want_mid[i]);
            if (h.seq != (v6 ? want_v6 : want_v5)[i])
                fail_msg("%s row %d: seq %u", v6 ? "V6" : "V5", i, h.seq);
            assert_int_equal(h.timestamp, (uint64_t)(i + 1));
        }
        assert_int_equal(ntx_hdr_next(&hb, &h, &err), 0);
        assert_int_equal(err.code, 0);
        ntidx_trace_close(&t);
        tb_free(&f);
        tb_free(&p);
    }
}

/* Metadata rows in a compressed V5 metadata block (MetadataId 0, sequence numbers unused). */
static void test_v5_compressed_metadata_block(void **state)
{
    (void)state;
    tb f, blob;
    tb_init(&f);
    tb_init(&blob);
    v5_begin(&f);
    size_t at = fs_begin_block(&f, 5, "MetadataBlock", 2);
    eb_header(&f, 20, 1, 0, 0);
    for (uint32_t id = 1; id <= 2; id++) {
        tb_reset(&blob);
        v5_metadata_header(&blob, id, "Prov", id, id == 1 ? "One" : "Two", 0, 0, 4);
        tb_u32(&blob, 0);
        tb_u8(&f, id == 1 ? 0x80 | 0x01 | 0x04 : 0x80);
        if (id == 1) {
            tb_varu(&f, 0);
            tb_varu(&f, 99);
        }
        tb_varu(&f, 0);
        tb_varu(&f, blob.len);
        tb_tb(&f, &blob);
    }
    fs_end_block(&f, at);
    ev5 rows[2] = {{.metadata_id = 2, .seq = 1, .thread = 1, .capture = 1, .ts = 1},
                   {.metadata_id = 1, .seq = 2, .thread = 1, .capture = 1, .ts = 2}};
    v5_events(&f, rows, 2);
    fs_end(&f);
    ntidx_trace *t = open_ok(&f);
    rec got[4];
    int n;
    assert_int_equal(collect(t, 0, got, 4, &n), 0);
    assert_int_equal(n, 2);
    assert_string_equal(got[0].name, "Two");
    assert_string_equal(got[1].name, "One");
    ntidx_trace_close(&t);
    tb_free(&f);
    tb_free(&blob);
}

/* HeaderSize > 20: the reserved bytes are skipped (V5 and V6, both encodings); < 20 is corrupt. */
static void test_block_header_extra_bytes(void **state)
{
    (void)state;
    static const uint16_t sizes[] = {20, 21, 23, 28, 64, 1000};
    for (int v6 = 0; v6 < 2; v6++) {
        for (int comp = 0; comp < 2; comp++) {
            for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
                tb f, p;
                tb_init(&f);
                tb_init(&p);
                if (v6) {
                    v6_begin(&f);
                    v6_threads(&f, 1, 1);
                    v6_simple_metadata(&f, 1, "P", "E");
                } else {
                    v5_begin(&f);
                    v5_simple_metadata(&f, 1, "P", "E");
                }
                size_t at = 0;
                tb *out = &p;
                if (!v6) {
                    at = fs_begin_block(&f, 5, "EventBlock", 2);
                    out = &f;
                }
                eb_header(out, sizes[si], (uint16_t)comp, 10, 11);
                for (int i = 0; i < 2; i++) {
                    if (comp) {
                        tb_u8(out, i == 0 ? 0x01 | 0x02 | 0x04 | 0x80 : 0x40);
                        if (i == 0) {
                            tb_varu(out, 1);
                            tb_varu(out, 0);
                            tb_varu(out, 1);
                            tb_varu(out, 0);
                            tb_varu(out, 1);
                        }
                        tb_varu(out, i == 0 ? 10 : 1);
                        if (i == 0)
                            tb_varu(out, 3);
                        tb_bytes(out, "xyz", 3);
                    } else if (v6) {
                        ev6 e = {.metadata_id = 1, .seq = (uint32_t)i + 1, .thread = 1, .capture = 1,
                                 .ts = 10 + (uint64_t)i, .payload = "xyz", .payload_size = 3};
                        v6_event_row(out, &e);
                    } else {
                        ev5 e = {.metadata_id = 1, .seq = (uint32_t)i + 1, .thread = 1, .capture = 1,
                                 .ts = 10 + (uint64_t)i, .payload = "xyz", .payload_size = 3};
                        v5_event_row(out, &e);
                    }
                }
                if (v6) {
                    v6_block(&f, 2, p.d, p.len);
                    v6_end(&f);
                } else {
                    fs_end_block(&f, at);
                    fs_end(&f);
                }
                ntidx_trace *t = open_ok(&f);
                rec got[4];
                int n;
                int rc = collect(t, 0, got, 4, &n);
                if (rc != 0 || n != 2)
                    fail_msg("v6 %d comp %d header %u: rc %d n %d", v6, comp, sizes[si], rc, n);
                assert_int_equal(got[0].ts, 10);
                assert_int_equal(got[1].ts, 11);
                assert_int_equal(got[0].seq, 1);
                assert_int_equal(got[1].seq, 2);
                assert_int_equal(got[1].psize, 3);
                ntidx_trace_close(&t);
                tb_free(&f);
                tb_free(&p);
            }
        }
    }
    /* HeaderSize below 20, or larger than the block */
    static const uint16_t bad[] = {0, 4, 19, 200};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tb f, p;
        tb_init(&f);
        tb_init(&p);
        v6_begin(&f);
        eb_header(&p, 20, 0, 0, 0);
        tb_put16(&p, 0, bad[i]);
        v6_block(&f, 2, p.d, p.len);
        v6_end(&f);
        ntidx_trace *t = open_ok(&f);
        rec got[1];
        int n;
        assert_int_equal(collect(t, 0, got, 1, &n), NTIDX_E_CORRUPT);
        assert_int_equal(n, 0);
        ntidx_trace_close(&t);
        tb_free(&f);
        tb_free(&p);
    }
}

/* Rows that do not fit their block. */
static void test_bad_event_rows(void **state)
{
    (void)state;
    for (int variant = 0; variant < 5; variant++) {
        tb f, p;
        tb_init(&f);
        tb_init(&p);
        v6_begin(&f);
        v6_threads(&f, 1, 1);
        v6_simple_metadata(&f, 1, "P", "E");
        eb_header(&p, 20, variant >= 3, 0, 0);
        ev6 e = {.metadata_id = 1, .seq = 1, .thread = 1, .capture = 1, .ts = 1, .payload = "abcd", .payload_size = 4};
        v6_event_row(&p, &e); /* a good row first */
        if (variant >= 3) {
            tb_reset(&p);
            eb_header(&p, 20, 1, 0, 0);
            tb_u8(&p, 0x01 | 0x02 | 0x04 | 0x80);
            tb_varu(&p, 1);
            tb_varu(&p, 0);
            tb_varu(&p, 1);
            tb_varu(&p, 0);
            tb_varu(&p, 1);
            tb_varu(&p, 1);
            tb_varu(&p, 1);
            tb_u8(&p, 0);
        }
        size_t bad = p.len;
        switch (variant) {
        case 0: /* EventSize smaller than header + payload */
            v6_event_row(&p, &e);
            tb_put32(&p, bad, 40);
            break;
        case 1: /* EventSize past the block */
            v6_event_row(&p, &e);
            tb_put32(&p, bad, 1000);
            break;
        case 2: /* fewer bytes than a header */
            tb_zeros(&p, 30);
            break;
        case 3: /* compressed payload past the block */
            tb_u8(&p, 0x80);
            tb_varu(&p, 1);
            tb_varu(&p, 50);
            tb_bytes(&p, "ab", 2);
            break;
        case 4: /* a varuint cut by the block end */
            tb_u8(&p, 0x00);
            tb_u8(&p, 0x80);
            break;
        }
        v6_block(&f, 2, p.d, p.len);
        v6_end(&f);
        ntidx_trace *t = open_ok(&f);
        for (int order = 0; order < 2; order++) {
            ntidx_reader *r = reader(t, order);
            const ntidx_event *ev;
            assert_int_equal(ntidx_reader_next(r, &ev), 1);
            assert_int_equal(ntidx_reader_next(r, &ev), NTIDX_E_CORRUPT);
            assert_int_equal(ntidx_reader_next(r, &ev), NTIDX_E_CORRUPT);
            char want[64];
            /* the message names the offset of the bad row (block payload starts after the 4-byte header) */
            size_t block_payload = f.len - 4 - p.len;
            snprintf(want, sizeof want, "offset %zu ", block_payload + bad);
            assert_contains(ntidx_last_error(), want);
            ntidx_reader_close(&r);
        }
        ntidx_trace_close(&t);
        tb_free(&f);
        tb_free(&p);
    }
}

/* ------------------------------------------------------------------ */
/* Label lists                                                         */
/* ------------------------------------------------------------------ */

static void test_v6_label_lists(void **state)
{
    (void)state;
    tb f, p;
    tb_init(&f);
    tb_init(&p);
    v6_begin(&f);
    v6_threads(&f, 1, 1);
    v6_simple_metadata(&f, 1, "P", "E");
    uint8_t g1[16], g2[16], g3[16];
    guid_fill(g1, 1);
    guid_fill(g2, 0x21);
    guid_fill(g3, 0x41);
    tb_u32(&p, 10);
    tb_u32(&p, 3);
    /* list 10: every kind */
    tb_u8(&p, 1);
    tb_bytes(&p, g1, 16);
    tb_u8(&p, 2);
    tb_bytes(&p, g2, 16);
    tb_u8(&p, 3);
    tb_bytes(&p, g3, 16);
    tb_u8(&p, 4);
    tb_u64(&p, 0x0102030405060708ULL);
    tb_u8(&p, 5);
    tb_str8(&p, "user");
    tb_str8(&p, "alice");
    tb_u8(&p, 6);
    tb_str8(&p, "n");
    tb_vari(&p, -42);
    tb_u8(&p, 7);
    tb_u8(&p, 3);
    tb_u8(&p, 8);
    tb_u64(&p, 0x8000000000000001ULL);
    tb_u8(&p, 9);
    tb_u8(&p, 5);
    tb_u8(&p, 0x80 | 10);
    tb_u8(&p, 2);
    /* list 11: one empty key/value */
    tb_u8(&p, 0x85);
    tb_str8(&p, "");
    tb_str8(&p, "");
    /* list 12: extreme integer */
    tb_u8(&p, 0x86);
    tb_str8(&p, "big");
    tb_vari(&p, INT64_MIN);
    v6_block(&f, 8, p.d, p.len);
    ev6 rows[4] = {
        {.metadata_id = 1, .seq = 1, .thread = 1, .capture = 1, .ts = 1, .label_id = 10},
        {.metadata_id = 1, .seq = 2, .thread = 1, .capture = 1, .ts = 2, .label_id = 11},
        {.metadata_id = 1, .seq = 3, .thread = 1, .capture = 1, .ts = 3, .label_id = 12},
        {.metadata_id = 1, .seq = 4, .thread = 1, .capture = 1, .ts = 4, .label_id = 0},
    };
    v6_events(&f, rows, 4);
    v6_end(&f);

    ntidx_trace *t = open_ok(&f);
    ntidx_reader *r = reader(t, 0);
    const ntidx_event *e;
    ntidx_label l;
    assert_int_equal(ntidx_reader_next(r, &e), 1);
    assert_int_equal(e->label_list_id, 10);
    const uint8_t *lp = e->label_list, *end = e->label_list + e->label_list_size;
    assert_int_equal(ntidx_label_next(&lp, end, &l), 1);
    assert_int_equal(l.kind, NTIDX_LABEL_ACTIVITY_ID);
    assert_memory_equal(l.guid, g1, 16);
    assert_int_equal(ntidx_label_next(&lp, end, &l), 1);
    assert_int_equal(l.kind, NTIDX_LABEL_RELATED_ACTIVITY_ID);
    assert_memory_equal(l.guid, g2, 16);
    assert_int_equal(ntidx_label_next(&lp, end, &l), 1);
    assert_int_equal(l.kind, NTIDX_LABEL_TRACE_ID);
    assert_memory_equal(l.guid, g3, 16);
    assert_int_equal(ntidx_label_next(&lp, end, &l), 1);
    assert_int_equal(l.kind, NTIDX_LABEL_SPAN_ID);
    assert_true(l.u == 0x0102030405060708ULL);
    assert_int_equal(ntidx_label_next(&lp, end, &l), 1);
    assert_int_equal(l.kind, NTIDX_LABEL_KEY_STRING);
    assert_int_equal(l.key_len, 4);
    assert_memory_equal(l.key, "user", 4);
    assert_int_equal(l.str_len, 5);
    assert_memory_equal(l.str, "alice", 5);
    assert_int_equal(ntidx_label_next(&lp, end, &l), 1);
    assert_int_equal(l.kind, NTIDX_LABEL_KEY_INT);
    assert_int_equal(l.key_len, 1);
    assert_memory_equal(l.key, "n", 1);
    assert_true(l.i == -42);
    assert_int_equal(ntidx_label_next(&lp, end, &l), 1);
    assert_int_equal(l.kind, NTIDX_LABEL_OPCODE);
    assert_int_equal(l.u, 3);
    assert_int_equal(ntidx_label_next(&lp, end, &l), 1);
    assert_int_equal(l.kind, NTIDX_LABEL_KEYWORDS);
    assert_true(l.u == 0x8000000000000001ULL);
    assert_int_equal(ntidx_label_next(&lp, end, &l), 1);
    assert_int_equal(l.kind, NTIDX_LABEL_LEVEL);
    assert_int_equal(l.u, 5);
    assert_int_equal(ntidx_label_next(&lp, end, &l), 1);
    assert_int_equal(l.kind, NTIDX_LABEL_VERSION); /* the high "last" bit is not part of the kind */
    assert_int_equal(l.u, 2);
    assert_int_equal(ntidx_label_next(&lp, end, &l), 0);
    assert_ptr_equal(lp, end);

    assert_int_equal(ntidx_reader_next(r, &e), 1);
    lp = e->label_list;
    end = lp + e->label_list_size;
    assert_int_equal(e->label_list_size, 3);
    assert_int_equal(ntidx_label_next(&lp, end, &l), 1);
    assert_int_equal(l.kind, NTIDX_LABEL_KEY_STRING);
    assert_int_equal(l.key_len, 0);
    assert_int_equal(l.str_len, 0);
    assert_int_equal(ntidx_label_next(&lp, end, &l), 0);

    assert_int_equal(ntidx_reader_next(r, &e), 1);
    lp = e->label_list;
    end = lp + e->label_list_size;
    assert_int_equal(ntidx_label_next(&lp, end, &l), 1);
    assert_int_equal(l.kind, NTIDX_LABEL_KEY_INT);
    assert_true(l.i == INT64_MIN);
    assert_int_equal(ntidx_label_next(&lp, end, &l), 0);

    assert_int_equal(ntidx_reader_next(r, &e), 1);
    assert_null(e->label_list); /* id 0: the empty list */
    lp = e->label_list;
    assert_int_equal(ntidx_label_next(&lp, NULL, &l), 0);
    assert_int_equal(ntidx_reader_next(r, &e), 0);
    ntidx_reader_close(&r);
    ntidx_trace_close(&t);

    /* ntidx_label_next on malformed lists */
    static const struct { uint8_t bytes[8]; size_t n; } bad[] = {
        {{11, 0}, 2},             /* unknown kind */
        {{0x7f, 0}, 2},           /* unknown kind */
        {{1, 1, 2, 3}, 4},        /* guid cut short */
        {{4, 1, 2, 3, 4}, 5},     /* span id cut short */
        {{5, 3, 'a'}, 3},         /* key cut short */
        {{5, 1, 'a', 5, 'b'}, 5}, /* value cut short */
        {{6, 1, 'a', 0x80}, 4},   /* varint cut short */
        {{7}, 1},                 /* opcode missing */
        {{0}, 1},                 /* kind 0 is not defined */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const uint8_t *q = bad[i].bytes;
        assert_int_equal(ntidx_label_next(&q, bad[i].bytes + bad[i].n, &l), NTIDX_E_CORRUPT);
        assert_ptr_equal(q, bad[i].bytes); /* not advanced */
    }
    tb_free(&f);
    tb_free(&p);
}

static void test_v6_bad_label_list_blocks(void **state)
{
    (void)state;
    for (int variant = 0; variant < 4; variant++) {
        tb f, p;
        tb_init(&f);
        tb_init(&p);
        v6_begin(&f);
        v6_threads(&f, 1, 1);
        v6_simple_metadata(&f, 1, "P", "E");
        int want = NTIDX_E_CORRUPT;
        switch (variant) {
        case 0: /* first index 0 */
            tb_u32(&p, 0);
            tb_u32(&p, 1);
            tb_u8(&p, 0x87);
            tb_u8(&p, 1);
            break;
        case 1: /* the last list has no last-label bit */
            tb_u32(&p, 1);
            tb_u32(&p, 1);
            tb_u8(&p, 7);
            tb_u8(&p, 1);
            break;
        case 2: /* unknown kind */
            tb_u32(&p, 1);
            tb_u32(&p, 1);
            tb_u8(&p, 0x8c);
            tb_u8(&p, 1);
            break;
        case 3: /* fine, but the event names list 2 */
            tb_u32(&p, 1);
            tb_u32(&p, 1);
            tb_u8(&p, 0x87);
            tb_u8(&p, 1);
            want = NTIDX_E_UNDEFINED_REF;
            break;
        }
        v6_block(&f, 8, p.d, p.len);
        ev6 e = {.metadata_id = 1, .seq = 1, .thread = 1, .capture = 1, .ts = 1, .label_id = 2};
        v6_events(&f, &e, 1);
        v6_end(&f);
        ntidx_trace *t = open_ok(&f);
        rec got[2];
        int n;
        assert_int_equal(collect(t, 0, got, 2, &n), want);
        assert_int_equal(n, 0);
        ntidx_trace_close(&t);
        tb_free(&f);
        tb_free(&p);
    }
}

/* ------------------------------------------------------------------ */
/* Definitions and their lifetimes                                     */
/* ------------------------------------------------------------------ */

/* Stacks (and V6 label lists) die at every sequence point. */
static void test_stacks_die_at_sequence_points(void **state)
{
    (void)state;
    for (int v6 = 0; v6 < 2; v6++) {
        for (int labels = 0; labels <= v6; labels++) {
            for (int order = 0; order < 2; order++) {
                tb f, p;
                tb_init(&f);
                tb_init(&p);
                size_t late_row;
                if (v6) {
                    v6_begin(&f);
                    v6_threads(&f, 1, 1);
                    v6_simple_metadata(&f, 1, "P", "E");
                    stack_block_payload(&p, 1, 2, (const uint32_t[]){16, 0});
                    v6_block(&f, 5, p.d, p.len);
                    tb_reset(&p);
                    tb_u32(&p, 1);
                    tb_u32(&p, 1);
                    tb_u8(&p, 0x87);
                    tb_u8(&p, 1);
                    v6_block(&f, 8, p.d, p.len);
                    ev6 rows[2] = {{.metadata_id = 1, .seq = 1, .thread = 1, .capture = 1, .stack_id = 1, .ts = 1,
                                    .label_id = 1},
                                   {.metadata_id = 1, .seq = 2, .thread = 1, .capture = 1, .stack_id = 2, .ts = 2}};
                    v6_events(&f, rows, 2);
                    v6_sequence_point(&f, 5, 0, NULL, NULL, 0);
                    ev6 late = {.metadata_id = 1, .seq = 3, .thread = 1, .capture = 1, .ts = 6};
                    if (labels)
                        late.label_id = 1;
                    else
                        late.stack_id = 1;
                    late_row = v6_events(&f, &late, 1);
                    v6_end(&f);
                } else {
                    v5_begin(&f);
                    v5_simple_metadata(&f, 1, "P", "E");
                    size_t at = fs_begin_block(&f, 5, "StackBlock", 2);
                    stack_block_payload(&f, 1, 2, (const uint32_t[]){16, 0});
                    fs_end_block(&f, at);
                    ev5 rows[2] = {{.metadata_id = 1, .seq = 1, .thread = 1, .capture = 1, .stack_id = 1, .ts = 1},
                                   {.metadata_id = 1, .seq = 2, .thread = 1, .capture = 1, .stack_id = 2, .ts = 2}};
                    v5_events(&f, rows, 2);
                    v5_sequence_point(&f, 5, NULL, NULL, 0);
                    at = fs_begin_block(&f, 5, "EventBlock", 2);
                    eb_header(&f, 20, 0, 0, 0);
                    late_row = f.len;
                    ev5 late = {.metadata_id = 1, .seq = 3, .thread = 1, .capture = 1, .stack_id = 1, .ts = 6};
                    v5_event_row(&f, &late);
                    fs_end_block(&f, at);
                    fs_end(&f);
                }
                ntidx_trace *t = open_ok(&f);
                ntidx_reader *r = reader(t, order);
                const ntidx_event *e;
                assert_int_equal(ntidx_reader_next(r, &e), 1);
                assert_int_equal(e->stack_id, 1);
                assert_int_equal(e->stack_size, 16);
                assert_int_equal(e->stack[15], 16 + 15);
                assert_int_equal(ntidx_reader_next(r, &e), 1);
                assert_int_equal(e->stack_id, 2);
                assert_null(e->stack); /* an empty stack */
                assert_int_equal(e->stack_size, 0);
                assert_int_equal(ntidx_reader_next(r, &e), NTIDX_E_UNDEFINED_REF);
                assert_int_equal(ntidx_reader_next(r, &e), NTIDX_E_UNDEFINED_REF); /* sticky */
                char want[64];
                snprintf(want, sizeof want, "offset %zu ", late_row);
                assert_contains(ntidx_last_error(), want);
                assert_contains(ntidx_last_error(), labels ? "label list id 1" : "stack id 1");
                assert_int_equal(ntidx_reader_complete(r), 0);
                assert_int_equal(ntidx_reader_get_stats(r)->sequence_points, 1);
                ntidx_reader_close(&r);
                ntidx_trace_close(&t);
                tb_free(&f);
                tb_free(&p);
            }
        }
    }
}

static void test_bad_stack_blocks(void **state)
{
    (void)state;
    for (int variant = 0; variant < 4; variant++) {
        tb f, p;
        tb_init(&f);
        tb_init(&p);
        v6_begin(&f);
        switch (variant) {
        case 0: stack_block_payload(&p, 1, 1, (const uint32_t[]){12}); break; /* not a multiple of 8 */
        case 1: tb_u32(&p, 1); break;                                         /* header cut */
        case 2: stack_block_payload(&p, 1, 2, (const uint32_t[]){8, 8}); p.len -= 3; break;
        case 3: tb_u32(&p, 1); tb_u32(&p, 3); tb_u32(&p, 0); tb_u32(&p, 0); break; /* count > stacks */
        }
        v6_block(&f, 5, p.d, p.len);
        v6_end(&f);
        ntidx_trace *t = open_ok(&f);
        rec got[1];
        int n;
        assert_int_equal(collect(t, 0, got, 1, &n), NTIDX_E_CORRUPT);
        ntidx_trace_close(&t);
        tb_free(&f);
        tb_free(&p);
    }
}

static void test_v6_thread_rows(void **state)
{
    (void)state;
    tb f, p, c;
    tb_init(&f);
    tb_init(&p);
    tb_init(&c);
    v6_begin(&f);
    /* row with every optional kind, a key/value, and later kinds overriding */
    tb_varu(&c, 300);
    tb_u8(&c, 4);
    tb_str8(&c, "role");
    tb_str8(&c, "io");
    tb_u8(&c, 1);
    tb_str8(&c, "n\xc3\xa4me");
    tb_u8(&c, 2);
    tb_varu(&c, 0xffffffffffULL);
    tb_u8(&c, 3);
    tb_varu(&c, UINT64_MAX);
    tb_u16(&p, (uint16_t)c.len);
    tb_tb(&p, &c);
    /* row with an unknown kind: parsing of the row stops there, the row is kept */
    tb_reset(&c);
    tb_varu(&c, 301);
    tb_u8(&c, 3);
    tb_varu(&c, 77);
    tb_u8(&c, 0x42);
    tb_bytes(&c, "\x01\x05zzzzz\xff\xff", 9);
    tb_u16(&p, (uint16_t)c.len);
    tb_tb(&p, &c);
    /* row with only an index */
    v6_thread_row(&p, 0, NULL, UINT64_MAX, UINT64_MAX);
    v6_block(&f, 6, p.d, p.len);
    v6_simple_metadata(&f, 1, "P", "E");
    ev6 rows[3] = {{.metadata_id = 1, .seq = 1, .thread = 300, .capture = 301, .ts = 1},
                   {.metadata_id = 1, .seq = 1, .thread = 301, .capture = 0, .ts = 2},
                   {.metadata_id = 1, .seq = 1, .thread = 0, .capture = 300, .ts = 3}};
    v6_events(&f, rows, 3);
    v6_end(&f);
    ntidx_trace *t = open_ok(&f);
    ntidx_reader *r = reader(t, 0);
    const ntidx_event *e;
    assert_int_equal(ntidx_reader_next(r, &e), 1);
    assert_int_equal(e->thread->index, 300);
    assert_string_equal(e->thread->name, "n\xc3\xa4me");
    assert_int_equal(e->thread->has_os_process_id, 1);
    assert_true(e->thread->os_process_id == 0xffffffffffULL);
    assert_true(e->thread->os_thread_id == UINT64_MAX);
    assert_true(e->thread_id == UINT64_MAX);
    assert_int_equal(e->capture_thread_id, 77);
    assert_int_equal(ntidx_reader_next(r, &e), 1);
    assert_int_equal(e->thread->index, 301);
    assert_null(e->thread->name);
    assert_int_equal(e->thread->has_os_thread_id, 1);
    assert_int_equal(e->thread_id, 77);
    assert_int_equal(e->capture_thread_id, 0); /* index 0, no OS id */
    assert_int_equal(ntidx_reader_next(r, &e), 1);
    assert_int_equal(e->thread->index, 0);
    assert_int_equal(e->thread_id, 0);
    assert_true(e->capture_thread_id == UINT64_MAX);
    assert_int_equal(ntidx_reader_next(r, &e), 0);
    ntidx_reader_close(&r);
    ntidx_trace_close(&t);

    /* malformed thread blocks */
    for (int variant = 0; variant < 4; variant++) {
        tb_reset(&f);
        tb_reset(&p);
        v6_begin(&f);
        switch (variant) {
        case 0: tb_u16(&p, 10); tb_u8(&p, 1); break;                    /* row size past the block */
        case 1: tb_u16(&p, 0); break;                                   /* no index */
        case 2: tb_u16(&p, 3); tb_u8(&p, 1); tb_u8(&p, 1); tb_u8(&p, 5); break; /* name past the row */
        case 3: tb_u8(&p, 1); break;                                    /* half a row size */
        }
        v6_block(&f, 6, p.d, p.len);
        v6_end(&f);
        t = open_ok(&f);
        rec got[1];
        int n;
        assert_int_equal(collect(t, 0, got, 1, &n), NTIDX_E_CORRUPT);
        ntidx_trace_close(&t);
    }
    tb_free(&f);
    tb_free(&p);
    tb_free(&c);
}

/* Remove-thread, thread flush (SP flag 1) and metadata flush (SP flag 2). */
static void test_v6_thread_and_metadata_lifetimes(void **state)
{
    (void)state;
    enum { REMOVE, REMOVE_CAPTURE, REMOVE_UNKNOWN, FLUSH_THREADS, FLUSH_THREADS_REDEFINED, KEEP_THREADS,
           FLUSH_METADATA, FLUSH_METADATA_REDEFINED, KEEP_METADATA, NCASES };
    for (int c = 0; c < NCASES; c++) {
        for (int order = 0; order < 2; order++) {
            tb f, p;
            tb_init(&f);
            tb_init(&p);
            v6_begin(&f);
            v6_threads(&f, 1, 2);
            v6_simple_metadata(&f, 1, "P", "Old");
            ev6 first = {.metadata_id = 1, .seq = 1, .thread = 2, .capture = 1, .ts = 1};
            v6_events(&f, &first, 1);
            uint32_t flags = 0;
            switch (c) {
            case REMOVE:
            case REMOVE_CAPTURE:
                tb_varu(&p, 2);
                tb_varu(&p, 0);
                v6_block(&f, 7, p.d, p.len);
                break;
            case REMOVE_UNKNOWN:
                tb_varu(&p, 9);
                tb_varu(&p, 0);
                v6_block(&f, 7, p.d, p.len);
                break;
            case FLUSH_THREADS:
            case FLUSH_THREADS_REDEFINED: flags = 1; break;
            case FLUSH_METADATA:
            case FLUSH_METADATA_REDEFINED: flags = 2; break;
            default: break;
            }
            if (c >= FLUSH_THREADS)
                v6_sequence_point(&f, 5, flags, NULL, NULL, 0);
            if (c == FLUSH_THREADS_REDEFINED) {
                tb_reset(&p);
                v6_thread_row(&p, 1, "again", UINT64_MAX, 5001);
                v6_thread_row(&p, 2, "again2", UINT64_MAX, 5002);
                v6_block(&f, 6, p.d, p.len);
            }
            if (c == FLUSH_METADATA_REDEFINED)
                v6_simple_metadata(&f, 1, "Q", "New");
            ev6 late = {.metadata_id = 1, .seq = 2, .thread = 2, .capture = 1, .ts = 10};
            if (c == REMOVE_CAPTURE) {
                late.thread = 1;
                late.capture = 2;
            }
            size_t late_row = v6_events(&f, &late, 1);
            v6_end(&f);
            ntidx_trace *t = open_ok(&f);
            ntidx_reader *r = reader(t, order);
            const ntidx_event *e;
            assert_int_equal(ntidx_reader_next(r, &e), 1);
            assert_string_equal(e->metadata->event_name, "Old");
            assert_int_equal(e->thread_id, 1002);
            int rc = ntidx_reader_next(r, &e);
            switch (c) {
            case REMOVE:
            case REMOVE_CAPTURE:
            case FLUSH_THREADS:
            case FLUSH_METADATA: {
                assert_int_equal(rc, NTIDX_E_UNDEFINED_REF);
                char want[64];
                snprintf(want, sizeof want, "offset %zu ", late_row);
                assert_contains(ntidx_last_error(), want);
                assert_contains(ntidx_last_error(), c == FLUSH_METADATA ? "metadata id 1"
                                                       : c == REMOVE_CAPTURE ? "capture thread index 2"
                                                                            : "thread index 2");
                break;
            }
            case REMOVE_UNKNOWN:
                assert_int_equal(rc, NTIDX_E_UNDEFINED_REF);
                assert_contains(ntidx_last_error(), "thread index 9");
                break;
            case FLUSH_THREADS_REDEFINED:
                assert_int_equal(rc, 1);
                assert_string_equal(e->thread->name, "again2");
                assert_int_equal(e->thread_id, 5002);
                assert_int_equal(e->capture_thread_id, 5001);
                break;
            case FLUSH_METADATA_REDEFINED:
                assert_int_equal(rc, 1);
                assert_string_equal(e->metadata->provider, "Q");
                assert_string_equal(e->metadata->event_name, "New");
                break;
            case KEEP_THREADS:
            case KEEP_METADATA:
                assert_int_equal(rc, 1);
                assert_string_equal(e->metadata->event_name, "Old");
                assert_int_equal(e->thread_id, 1002);
                break;
            }
            if (rc == 1)
                assert_int_equal(ntidx_reader_next(r, &e), 0);
            ntidx_reader_close(&r);
            ntidx_trace_close(&t);
            tb_free(&f);
            tb_free(&p);
        }
    }
}

/* V4/V5 sequence points carry no flags: metadata survives them. */
static void test_v5_metadata_survives_sequence_points(void **state)
{
    (void)state;
    tb f;
    tb_init(&f);
    v5_begin(&f);
    v5_simple_metadata(&f, 1, "P", "E");
    ev5 a = {.metadata_id = 1, .seq = 1, .thread = 1, .capture = 1, .ts = 1};
    v5_events(&f, &a, 1);
    v5_sequence_point(&f, 5, (const uint64_t[]){1}, (const uint32_t[]){1}, 1);
    a.seq = 2;
    a.ts = 6;
    v5_events(&f, &a, 1);
    fs_end(&f);
    ntidx_trace *t = open_ok(&f);
    rec got[4];
    int n;
    assert_int_equal(collect(t, 0, got, 4, &n), 0);
    assert_int_equal(n, 2);
    assert_string_equal(got[1].name, "E");
    ntidx_trace_close(&t);
    tb_free(&f);
}

static void test_undefined_metadata(void **state)
{
    (void)state;
    tb f;
    tb_init(&f);
    v5_begin(&f);
    v5_simple_metadata(&f, 1, "P", "E");
    ev5 rows[2] = {{.metadata_id = 1, .seq = 1, .thread = 1, .capture = 1, .ts = 1},
                   {.metadata_id = 0x7fffffff, .seq = 2, .thread = 1, .capture = 1, .ts = 2}};
    v5_events(&f, rows, 2);
    fs_end(&f);
    ntidx_trace *t = open_ok(&f);
    rec got[4];
    int n;
    assert_int_equal(collect(t, 0, got, 4, &n), NTIDX_E_UNDEFINED_REF);
    assert_int_equal(n, 1);
    ntidx_trace_close(&t);
    tb_free(&f);
}

/* ------------------------------------------------------------------ */
/* Dropped events                                                      */
/* ------------------------------------------------------------------ */

static void check_dropped(ntidx_reader *r, const ntidx_dropped *want, size_t nwant, uint64_t total)
{
    const ntidx_dropped *list = NULL;
    size_t count = 99;
    assert_int_equal(ntidx_reader_dropped(r, &list, &count), NTIDX_OK);
    if (count != nwant)
        fail_msg("%zu threads with drops, want %zu", count, nwant);
    for (size_t i = 0; i < nwant; i++) {
        if (list[i].capture_thread != want[i].capture_thread || list[i].capture_thread_id != want[i].capture_thread_id ||
            list[i].dropped != want[i].dropped)
            fail_msg("entry %zu: thread %llu (os %llu) dropped %llu", i, (unsigned long long)list[i].capture_thread,
                     (unsigned long long)list[i].capture_thread_id, (unsigned long long)list[i].dropped);
    }
    assert_true(ntidx_reader_get_stats(r)->dropped_events == total);
    assert_int_equal(ntidx_reader_dropped(NULL, &list, &count), NTIDX_E_INVALID_ARG);
}

static void test_dropped_events_v5(void **state)
{
    (void)state;
    tb f;
    tb_init(&f);
    v5_begin(&f);
    v5_simple_metadata(&f, 1, "P", "E");
    ev5 rows[] = {
        {.metadata_id = 1, .seq = 1, .thread = 10, .capture = 10, .ts = 1},
        {.metadata_id = 1, .seq = 7, .thread = 11, .capture = 11, .ts = 2}, /* first sighting: baseline */
        {.metadata_id = 1, .seq = 2, .thread = 10, .capture = 10, .ts = 3},
        {.metadata_id = 1, .seq = 5, .thread = 10, .capture = 10, .ts = 4}, /* 3 and 4 dropped */
        {.metadata_id = 1, .seq = 8, .thread = 11, .capture = 11, .ts = 5},
        {.metadata_id = 1, .seq = 6, .thread = 10, .capture = 10, .ts = 6},
        {.metadata_id = 1, .seq = 1, .thread = 12, .capture = 12, .ts = 7},
        {.metadata_id = 1, .seq = 2, .thread = 12, .capture = 12, .ts = 8},
        {.metadata_id = 1, .seq = 1, .thread = 12, .capture = 12, .ts = 9}, /* a new thread reusing the id */
        {.metadata_id = 1, .seq = 2, .thread = 12, .capture = 12, .ts = 10},
    };
    v5_events(&f, rows, (int)(sizeof rows / sizeof rows[0]));
    /* lower bounds: thread 11 tried 12 (last seen 8: 4 dropped), 10 equal, 13 never seen */
    v5_sequence_point(&f, 20, (const uint64_t[]){11, 10, 13}, (const uint32_t[]){12, 6, 100}, 3);
    ev5 after[] = {{.metadata_id = 1, .seq = 13, .thread = 11, .capture = 11, .ts = 21},
                   {.metadata_id = 1, .seq = 101, .thread = 13, .capture = 13, .ts = 22}};
    v5_events(&f, after, 2);
    fs_end(&f);
    ntidx_trace *t = open_ok(&f);
    for (int order = 0; order < 2; order++) {
        ntidx_reader *r = reader(t, order);
        const ntidx_event *e;
        int n = 0, rc;
        while ((rc = ntidx_reader_next(r, &e)) == 1)
            n++;
        assert_int_equal(rc, 0);
        assert_int_equal(n, 12);
        static const ntidx_dropped want[] = {{10, 10, 2}, {11, 11, 4}};
        check_dropped(r, want, 2, 6);
        ntidx_reader_close(&r);
    }
    ntidx_trace_close(&t);
    tb_free(&f);
}

static void test_dropped_events_v6(void **state)
{
    (void)state;
    tb f, p;
    tb_init(&f);
    tb_init(&p);
    v6_begin(&f);
    v6_thread_row(&p, 1, NULL, UINT64_MAX, 1001);
    v6_thread_row(&p, 2, NULL, UINT64_MAX, 1002);
    v6_thread_row(&p, 3, NULL, UINT64_MAX, UINT64_MAX);
    v6_block(&f, 6, p.d, p.len);
    v6_simple_metadata(&f, 1, "P", "E");
    ev6 rows[] = {
        {.metadata_id = 1, .seq = 3, .thread = 1, .capture = 1, .ts = 1}, /* V6 counts from 0: 2 dropped */
        {.metadata_id = 1, .seq = 1, .thread = 2, .capture = 2, .ts = 2},
        {.metadata_id = 1, .seq = 2, .thread = 2, .capture = 2, .ts = 3},
        {.metadata_id = 1, .seq = 4, .thread = 1, .capture = 1, .ts = 4},
    };
    v6_events(&f, rows, 4);
    /* thread 2's final sequence number is 5: 3 more were dropped */
    tb_reset(&p);
    tb_varu(&p, 2);
    tb_varu(&p, 5);
    v6_block(&f, 7, p.d, p.len);
    /* thread 3 never logged but tried 4; thread 1 equal */
    v6_sequence_point(&f, 10, 0, (const uint64_t[]){3, 1}, (const uint32_t[]){4, 4}, 2);
    ev6 after = {.metadata_id = 1, .seq = 5, .thread = 1, .capture = 1, .ts = 11};
    v6_events(&f, &after, 1);
    v6_end(&f);
    ntidx_trace *t = open_ok(&f);
    for (int order = 0; order < 2; order++) {
        ntidx_reader *r = reader(t, order);
        const ntidx_event *e;
        int n = 0, rc;
        while ((rc = ntidx_reader_next(r, &e)) == 1)
            n++;
        assert_int_equal(rc, 0);
        assert_int_equal(n, 5);
        static const ntidx_dropped want[] = {{1, 1001, 2}, {2, 1002, 3}, {3, 3, 4}};
        check_dropped(r, want, 3, 9);
        ntidx_reader_close(&r);
    }
    ntidx_trace_close(&t);
    tb_free(&f);
    tb_free(&p);
}

/* ------------------------------------------------------------------ */
/* Time order                                                          */
/* ------------------------------------------------------------------ */

static void test_time_order_interleaved_threads(void **state)
{
    (void)state;
    tb f, p;
    tb_init(&f);
    tb_init(&p);
    v6_begin(&f);
    v6_threads(&f, 1, 2);
    v6_simple_metadata(&f, 1, "P", "Region1");
    stack_block_payload(&p, 1, 1, (const uint32_t[]){8});
    v6_block(&f, 5, p.d, p.len);
    /* region 1: thread A's run, then thread B's earlier run; B's 15 ties A's 15 */
    ev6 r1[] = {
        {.metadata_id = 1, .not_sorted = 1, .seq = 1, .thread = 1, .capture = 1, .ts = 10, .stack_id = 1},
        {.metadata_id = 1, .not_sorted = 1, .seq = 2, .thread = 1, .capture = 1, .ts = 15, .stack_id = 1},
        {.metadata_id = 1, .not_sorted = 1, .seq = 3, .thread = 1, .capture = 1, .ts = 20, .stack_id = 1},
        {.metadata_id = 1, .not_sorted = 1, .seq = 1, .thread = 2, .capture = 2, .ts = 12, .stack_id = 1},
        {.metadata_id = 1, .not_sorted = 1, .seq = 2, .thread = 2, .capture = 2, .ts = 13, .stack_id = 1},
        {.metadata_id = 1, .not_sorted = 1, .seq = 3, .thread = 2, .capture = 2, .ts = 14, .stack_id = 1},
        {.metadata_id = 1, .not_sorted = 1, .seq = 4, .thread = 2, .capture = 2, .ts = 15, .stack_id = 1},
    };
    size_t r1_first = v6_events(&f, r1, 4);
    size_t r1_second = v6_events(&f, r1 + 4, 3);
    /* the sequence point flushes metadata: region 1's events must keep theirs */
    v6_sequence_point(&f, 30, 2, NULL, NULL, 0);
    v6_simple_metadata(&f, 1, "P", "Region2");
    /* region 2 with IsSorted marks: B35 promises nothing later is earlier than 35 */
    ev6 r2[] = {
        {.metadata_id = 1, .not_sorted = 1, .seq = 4, .thread = 1, .capture = 1, .ts = 40},
        {.metadata_id = 1, .not_sorted = 0, .seq = 5, .thread = 2, .capture = 2, .ts = 35},
        {.metadata_id = 1, .not_sorted = 1, .seq = 5, .thread = 1, .capture = 1, .ts = 45},
        {.metadata_id = 1, .not_sorted = 0, .seq = 6, .thread = 2, .capture = 2, .ts = 50},
        {.metadata_id = 1, .not_sorted = 1, .seq = 6, .thread = 1, .capture = 1, .ts = 50},
    };
    v6_events(&f, r2, 5);
    v6_end(&f);

    ntidx_trace *t = open_ok(&f);
    rec fo[16], to[16];
    int nf, nt;
    assert_int_equal(collect(t, 0, fo, 16, &nf), 0);
    assert_int_equal(nf, 12);
    /* file order is the order written */
    static const uint64_t file_ts[] = {10, 15, 20, 12, 13, 14, 15, 40, 35, 45, 50, 50};
    for (int i = 0; i < nf; i++)
        assert_int_equal(fo[i].ts, file_ts[i]);
    assert_int_equal(fo[0].off, r1_first);
    assert_int_equal(fo[4].off, r1_second);

    assert_int_equal(collect(t, 1, to, 16, &nt), 0);
    assert_int_equal(nt, 12);
    static const uint64_t time_ts[] = {10, 12, 13, 14, 15, 15, 20, 35, 40, 45, 50, 50};
    for (int i = 0; i < nt; i++) {
        if (to[i].ts != time_ts[i])
            fail_msg("time order position %d: ts %llu, want %llu", i, (unsigned long long)to[i].ts,
                     (unsigned long long)time_ts[i]);
        if (i > 0 && to[i].ts == to[i - 1].ts)
            assert_true(to[i].off > to[i - 1].off); /* ties keep file order */
        /* region 1 events resolved before the flush */
        assert_string_equal(to[i].name, i < 7 ? "Region1" : "Region2");
        if (i < 7) {
            assert_int_equal(to[i].stack_id, 1);
            assert_int_equal(to[i].stack_size, 8);
        }
    }
    /* the tie at 15: A's event (earlier in the file) first */
    assert_int_equal(to[4].capture_index, 1);
    assert_int_equal(to[5].capture_index, 2);
    assert_int_equal(to[10].capture_index, 2);
    assert_int_equal(to[11].capture_index, 1);
    /* time order is the file order sorted by (timestamp, offset) */
    rec sorted[16];
    memcpy(sorted, fo, sizeof(rec) * (size_t)nf);
    for (int i = 1; i < nf; i++)
        for (int j = i; j > 0 && (sorted[j].ts < sorted[j - 1].ts ||
                                  (sorted[j].ts == sorted[j - 1].ts && sorted[j].off < sorted[j - 1].off));
             j--) {
            rec x = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = x;
        }
    for (int i = 0; i < nf; i++)
        assert_true(sorted[i].off == to[i].off);

    ntidx_reader *r = reader(t, 1);
    const ntidx_event *e;
    while (ntidx_reader_next(r, &e) == 1) {
    }
    assert_int_equal(ntidx_reader_get_stats(r)->order_violations, 0);
    assert_int_equal(ntidx_reader_get_stats(r)->sequence_points, 1);
    assert_int_equal(ntidx_reader_get_stats(r)->events, 12);
    assert_int_equal(ntidx_reader_complete(r), 1);
    ntidx_reader_close(&r);
    ntidx_trace_close(&t);
    tb_free(&f);
    tb_free(&p);
}

/* Many regions and threads, pseudo-random timestamps within each region's bounds. */
static void test_time_order_random_regions(void **state)
{
    (void)state;
    tb f;
    tb_init(&f);
    v6_begin(&f);
    v6_threads(&f, 1, 8);
    v6_simple_metadata(&f, 1, "P", "E");
    uint64_t s = 99;
    uint32_t seq[9] = {0};
    int total = 0;
    for (int region = 0; region < 20; region++) {
        uint64_t lo = (uint64_t)region * 1000 + 1;
        /* each capture thread writes a sorted run; runs interleave arbitrarily */
        ev6 rows[64];
        int n = 0;
        for (uint64_t th = 1; th <= 8; th++) {
            int k = (int)(rng_next(&s) % 8);
            uint64_t ts = lo + rng_next(&s) % 100;
            for (int i = 0; i < k; i++) {
                ts += rng_next(&s) % 50;
                rows[n++] = (ev6){.metadata_id = 1, .not_sorted = 1, .seq = ++seq[th], .thread = th, .capture = th,
                                  .ts = ts};
            }
        }
        v6_events(&f, rows, n);
        total += n;
        v6_sequence_point(&f, lo + 999, 0, NULL, NULL, 0);
    }
    v6_end(&f);
    ntidx_trace *t = open_ok(&f);
    rec *to = calloc((size_t)total + 1, sizeof *to);
    assert_non_null(to);
    int nt;
    assert_int_equal(collect(t, 1, to, total + 1, &nt), 0);
    assert_int_equal(nt, total);
    for (int i = 1; i < nt; i++)
        assert_true(to[i].ts > to[i - 1].ts || (to[i].ts == to[i - 1].ts && to[i].off > to[i - 1].off));
    free(to);
    ntidx_trace_close(&t);
    tb_free(&f);
}

/* A writer that breaks its IsSorted promise: the events still come out, the violation is counted. */
static void test_time_order_violation_counted(void **state)
{
    (void)state;
    tb f;
    tb_init(&f);
    v6_begin(&f);
    v6_threads(&f, 1, 2);
    v6_simple_metadata(&f, 1, "P", "E");
    ev6 rows[] = {{.metadata_id = 1, .seq = 1, .thread = 1, .capture = 1, .ts = 100},
                  {.metadata_id = 1, .not_sorted = 1, .seq = 1, .thread = 2, .capture = 2, .ts = 50}};
    v6_events(&f, rows, 2);
    v6_end(&f);
    ntidx_trace *t = open_ok(&f);
    ntidx_reader *r = reader(t, 1);
    const ntidx_event *e;
    int n = 0;
    while (ntidx_reader_next(r, &e) == 1)
        n++;
    assert_int_equal(n, 2);
    assert_int_equal(ntidx_reader_get_stats(r)->order_violations, 1);
    ntidx_reader_close(&r);
    ntidx_trace_close(&t);
    tb_free(&f);
}

/* ------------------------------------------------------------------ */
/* V3                                                                  */
/* ------------------------------------------------------------------ */

static void test_v3_events(void **state)
{
    (void)state;
    tb f, blob;
    tb_init(&f);
    tb_init(&blob);
    fs_netperf_header(&f);
    fs_trace_object(&f, 4, 3, 8, 1000000000);
    size_t at = fs_begin_block(&f, 4, "EventBlock", 1);
    v5_metadata_header(&blob, 1, "Prov", 10, "EvA", 0, 2, 4);
    tb_u32(&blob, 0);
    ev3 m = {.metadata_id = 0, .thread = 1, .ts = 1, .payload = blob.d, .payload_size = (uint32_t)blob.len};
    v3_event(&f, &m);
    uint8_t act[16], rel[16];
    guid_fill(act, 0x30);
    guid_fill(rel, 0x60);
    uint8_t stack[24];
    for (int i = 0; i < 24; i++)
        stack[i] = (uint8_t)(0xc0 + i);
    size_t offs[3];
    offs[0] = f.len;
    ev3 e = {.metadata_id = 1, .thread = 0xfffffffeu, .ts = 0x123456789abcULL, .activity = act, .related = rel,
             .payload = "pay", .payload_size = 3, .stack = stack, .stack_size = 24, .extra = 1};
    v3_event(&f, &e);
    offs[1] = f.len;
    ev3 e2 = {.metadata_id = 1, .thread = 5, .ts = 0x123456789abdULL, .payload = "", .payload_size = 0, .extra = 7};
    v3_event(&f, &e2);
    offs[2] = f.len;
    ev3 e3 = {.metadata_id = 1, .thread = 5, .ts = 0x123456789abeULL, .payload = "z", .payload_size = 1,
              .stack = stack, .stack_size = 8};
    v3_event(&f, &e3);
    fs_end_block(&f, at);
    fs_end(&f);

    ntidx_trace *t = open_ok(&f);
    ntidx_reader *r = reader(t, 0);
    const ntidx_event *ev;
    assert_int_equal(ntidx_reader_next(r, &ev), 1);
    assert_int_equal(ev->offset, offs[0]);
    assert_int_equal(ev->metadata_id, 1);
    assert_string_equal(ev->metadata->provider, "Prov");
    assert_string_equal(ev->metadata->event_name, "EvA");
    assert_int_equal(ev->metadata->version, 2);
    assert_int_equal(ev->thread_index, 0xfffffffeu);
    assert_int_equal(ev->thread_id, 0xfffffffeu);
    assert_int_equal(ev->capture_thread_id, 0xfffffffeu);
    assert_true(ev->timestamp == 0x123456789abcULL);
    assert_int_equal(ev->sequence_number, 0);
    assert_int_equal(ev->is_sorted, 1);
    assert_memory_equal(ev->activity_id, act, 16);
    assert_memory_equal(ev->related_activity_id, rel, 16);
    assert_int_equal(ev->payload_size, 3);
    assert_ptr_equal(ev->payload, f.d + offs[0] + 56);
    assert_memory_equal(ev->payload, "pay", 3);
    assert_int_equal(ev->stack_size, 24);
    assert_ptr_equal(ev->stack, f.d + offs[0] + 56 + 3 + 4);
    assert_memory_equal(ev->stack, stack, 24);
    assert_int_equal(ev->stack_id, 0);
    assert_null(ev->thread);
    assert_int_equal(ntidx_reader_next(r, &ev), 1);
    assert_int_equal(ev->offset, offs[1]); /* start + 4 + EventSize, padding included */
    assert_int_equal(ev->payload_size, 0);
    assert_null(ev->stack);
    assert_int_equal(ev->stack_size, 0);
    assert_memory_equal(ev->activity_id, ZERO16, 16);
    assert_int_equal(ntidx_reader_next(r, &ev), 1);
    assert_int_equal(ev->offset, offs[2]);
    assert_int_equal(ev->stack_size, 8);
    assert_int_equal(ntidx_reader_next(r, &ev), 0);
    assert_int_equal(ntidx_reader_complete(r), 1);
    assert_int_equal(ntidx_reader_get_stats(r)->metadata_rows, 1);
    assert_int_equal(ntidx_reader_get_stats(r)->events, 3);
    ntidx_reader_close(&r);

    /* block time range: V3 blocks are always decoded; metadata rows are not events */
    uint64_t pos = 24;
    ntidx_block b;
    assert_int_equal(ntidx_trace_next_block(t, &pos, &b), 1);
    assert_int_equal(ntidx_trace_next_block(t, &pos, &b), 1);
    uint64_t lo, hi, n;
    assert_int_equal(ntidx_event_block_time_range(t, &b, &lo, &hi, &n), 1);
    assert_true(lo == 0x123456789abcULL);
    assert_true(hi == 0x123456789abeULL);
    assert_int_equal(n, 3);
    ntidx_trace_close(&t);

    /* EventSize that cannot hold the header + payload + stack size, or a stack past the event */
    for (int variant = 0; variant < 3; variant++) {
        tb_reset(&f);
        fs_netperf_header(&f);
        fs_trace_object(&f, 4, 3, 8, 1000);
        at = fs_begin_block(&f, 4, "EventBlock", 1);
        v3_event(&f, &m);
        size_t row = f.len;
        v3_event(&f, &e);
        if (variant == 0)
            tb_put32(&f, row, 52 + 3); /* no room for the stack size */
        else if (variant == 1)
            tb_put32(&f, row + 56 + 3, 1000); /* stack size past the event */
        else
            tb_put32(&f, row, 0x7fffffff); /* past the block */
        fs_end_block(&f, at);
        fs_end(&f);
        t = open_ok(&f);
        rec got[2];
        int cnt;
        assert_int_equal(collect(t, 0, got, 2, &cnt), NTIDX_E_CORRUPT);
        assert_int_equal(cnt, 0);
        ntidx_trace_close(&t);
    }
    tb_free(&f);
    tb_free(&blob);
}

/* ------------------------------------------------------------------ */
/* Samples: stats and block ranges                                     */
/* ------------------------------------------------------------------ */

static void test_sample_stats(void **state)
{
    (void)state;
    tb f;
    tb_init(&f);
    unsigned nev = sample_v6(&f);
    ntidx_trace *t = open_ok(&f);
    ntidx_reader *r = reader(t, 0);
    const ntidx_event *e;
    unsigned n = 0;
    while (ntidx_reader_next(r, &e) == 1)
        n++;
    assert_int_equal(n, nev);
    const ntidx_reader_stats *st = ntidx_reader_get_stats(r);
    assert_int_equal(st->events, nev);
    assert_int_equal(st->blocks[NTIDX_BLOCK_TRACE], 1);
    assert_int_equal(st->blocks[NTIDX_BLOCK_EVENT], 4);
    assert_int_equal(st->blocks[NTIDX_BLOCK_METADATA], 2);
    assert_int_equal(st->blocks[NTIDX_BLOCK_SEQUENCE_POINT], 2);
    assert_int_equal(st->blocks[NTIDX_BLOCK_STACK], 2);
    assert_int_equal(st->blocks[NTIDX_BLOCK_THREAD], 2);
    assert_int_equal(st->blocks[NTIDX_BLOCK_REMOVE_THREAD], 1);
    assert_int_equal(st->blocks[NTIDX_BLOCK_LABEL_LIST], 1);
    assert_int_equal(st->blocks[NTIDX_BLOCK_END_OF_STREAM], 0);
    assert_int_equal(st->unknown_blocks, 0);
    assert_int_equal(st->metadata_rows, 3);
    assert_int_equal(st->stacks, 3);
    assert_int_equal(st->sequence_points, 2);
    assert_int_equal(st->dropped_events, 0);
    assert_int_equal(st->order_violations, 0);
    assert_true(st->end_offset == f.len);
    ntidx_reader_close(&r);

    ntidx_stats *s = NULL;
    assert_int_equal(ntidx_stats_compute(t, &s), NTIDX_OK);
    assert_int_equal(s->format_version, 6);
    assert_int_equal(s->complete, 1);
    assert_int_equal(s->events, nev);
    assert_int_equal(s->first_ts, 100);
    assert_int_equal(s->last_ts, 300);
    assert_int_equal(s->dropped_events, 0);
    assert_string_equal(s->incomplete_reason, "");
    assert_int_equal(s->type_count, 3);
    assert_string_equal(s->types[0].provider, "ProvA");
    assert_string_equal(s->types[0].event_name, "EvA");
    assert_int_equal(s->types[0].count, 4);
    assert_string_equal(s->types[1].event_name, "EvB");
    assert_int_equal(s->types[1].count, 3);
    assert_string_equal(s->types[2].provider, "ProvB");
    assert_int_equal(s->types[2].count, 1);
    assert_int_equal(s->thread_count, 3);
    assert_int_equal(s->threads[0].thread, 1001);
    assert_int_equal(s->threads[0].count, 4);
    assert_int_equal(s->threads[1].thread, 1002);
    assert_int_equal(s->threads[1].count, 3);
    assert_int_equal(s->threads[2].thread, 1003);
    ntidx_stats_free(&s);
    assert_null(s);

    /* block time ranges come from the headers when they can be trusted */
    uint64_t pos = 20;
    ntidx_block b;
    int blocks = 0;
    while (ntidx_trace_next_block(t, &pos, &b) == 1) {
        uint64_t lo, hi, cnt;
        int rc = ntidx_event_block_time_range(t, &b, &lo, &hi, &cnt);
        if (b.kind != NTIDX_BLOCK_EVENT) {
            assert_int_equal(rc, NTIDX_E_INVALID_ARG);
            continue;
        }
        assert_int_equal(rc, 1);
        assert_true(cnt == UINT64_MAX);
        assert_true(lo <= hi);
        blocks++;
    }
    assert_int_equal(blocks, 4);
    ntidx_trace_close(&t);
    tb_free(&f);
}

/* A block header range of 0/0 or min > max is not trusted: the events are decoded instead. */
static void test_block_time_range_decoded(void **state)
{
    (void)state;
    static const uint64_t hdr[][2] = {{0, 0}, {50, 10}};
    for (int i = 0; i < 2; i++) {
        tb f, p;
        tb_init(&f);
        tb_init(&p);
        v6_begin(&f);
        eb_header(&p, 20, 0, hdr[i][0], hdr[i][1]);
        ev6 rows[3] = {{.metadata_id = 1, .ts = 30}, {.metadata_id = 1, .ts = 7}, {.metadata_id = 1, .ts = 31}};
        for (int k = 0; k < 3; k++)
            v6_event_row(&p, &rows[k]);
        v6_block(&f, 2, p.d, p.len);
        v6_end(&f);
        ntidx_trace *t = open_ok(&f);
        uint64_t pos = 20;
        ntidx_block b;
        assert_int_equal(ntidx_trace_next_block(t, &pos, &b), 1);
        assert_int_equal(ntidx_trace_next_block(t, &pos, &b), 1);
        uint64_t lo, hi, n;
        assert_int_equal(ntidx_event_block_time_range(t, &b, &lo, &hi, &n), 1);
        assert_int_equal(lo, 7);
        assert_int_equal(hi, 31);
        assert_int_equal(n, 3);
        ntidx_trace_close(&t);
        tb_free(&f);
        tb_free(&p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v6_uncompressed_header_fields),
        cmocka_unit_test(test_v6_compressed_header_deltas),
        cmocka_unit_test(test_v5_uncompressed_header_and_padding),
        cmocka_unit_test(test_v5_compressed_header_deltas),
        cmocka_unit_test(test_sequence_increment_rules),
        cmocka_unit_test(test_v5_compressed_metadata_block),
        cmocka_unit_test(test_block_header_extra_bytes),
        cmocka_unit_test(test_bad_event_rows),
        cmocka_unit_test(test_v6_label_lists),
        cmocka_unit_test(test_v6_bad_label_list_blocks),
        cmocka_unit_test(test_stacks_die_at_sequence_points),
        cmocka_unit_test(test_bad_stack_blocks),
        cmocka_unit_test(test_v6_thread_rows),
        cmocka_unit_test(test_v6_thread_and_metadata_lifetimes),
        cmocka_unit_test(test_v5_metadata_survives_sequence_points),
        cmocka_unit_test(test_undefined_metadata),
        cmocka_unit_test(test_dropped_events_v5),
        cmocka_unit_test(test_dropped_events_v6),
        cmocka_unit_test(test_time_order_interleaved_threads),
        cmocka_unit_test(test_time_order_random_regions),
        cmocka_unit_test(test_time_order_violation_counted),
        cmocka_unit_test(test_v3_events),
        cmocka_unit_test(test_sample_stats),
        cmocka_unit_test(test_block_time_range_decoded),
    };
    return cmocka_run_group_tests_name("reader-events", tests, NULL, NULL);
}
