/*
 * ntidx_slice(): the output holds exactly what a query over the same window
 * and filters yields, event for event and field for field (only the file
 * offset differs), in file and in time order; it reads to its end-of-stream
 * marker in both orders without errors; its structure obeys the format
 * rules checked directly on its blocks (sequence points ordered and taken
 * from the input, every reference to an earlier definition, stacks and
 * label lists re-defined after each sequence point, V6 flushes and
 * removals honoured, events of a region between its sequence points); and
 * a slice of the slice over the same window equals the slice.
 *
 * Traces: generated V5 and V6 (one and eight threads, uncompressed rows,
 * drops, metadata and thread flushes, thread removal), random windows and
 * filters, block copies on and off, plain and --full indexes; and every real
 * trace (V3, V4, V5).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <ntidx/slice.h>
#include <ntidx/writer.h>

#include "definitions.h"
#include "event_header.h"
#include "idmap.h"
#include "metadata.h"
#include "trace_internal.h"

static const char *traces_dir;
static int windows_scale = 1; /* --many (the slow suite): four times the windows */

static uint64_t rng = 0x5eed5eed12345678ull;
static uint64_t next_rand(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* ------------------------------------------------------------------ */
/* Event comparison                                                    */
/* ------------------------------------------------------------------ */

static void fields_of(const ntidx_trace *t, const ntidx_event *e, ntidx_buf *b, int *error)
{
    b->len = 0;
    int rc = ntidx_event_fields_json(t, e, b);
    assert_true(rc == NTIDX_OK || rc == NTIDX_E_PAYLOAD);
    *error = rc != NTIDX_OK;
}

static void same_bytes(const uint8_t *a, const uint8_t *b, size_t n)
{
    if (n)
        assert_memory_equal(a, b, n);
}

/* Every field `ntidx dump --format jsonl` prints, and more; not the offset. v3: stack ids differ by design. */
static void same_event(const ntidx_trace *ta, const ntidx_event *a, const ntidx_trace *tb, const ntidx_event *b,
                       int v3, ntidx_buf *ba, ntidx_buf *bb, uint64_t *field_errors)
{
    /* ba == NULL: the decoded fields are not compared (same payload bytes and metadata: same fields) */
    assert_int_equal(a->timestamp, b->timestamp);
    assert_int_equal(a->thread_index, b->thread_index);
    assert_int_equal(a->capture_thread_index, b->capture_thread_index);
    assert_int_equal(a->thread_id, b->thread_id);
    assert_int_equal(a->capture_thread_id, b->capture_thread_id);
    assert_int_equal(a->metadata_id, b->metadata_id);
    assert_int_equal(a->sequence_number, b->sequence_number);
    assert_int_equal(a->processor_number, b->processor_number);
    if (!v3)
        assert_int_equal(a->stack_id, b->stack_id);
    assert_int_equal(a->stack_size, b->stack_size);
    same_bytes(a->stack, b->stack, a->stack_size);
    assert_int_equal(a->label_list_id, b->label_list_id);
    assert_int_equal(a->label_list_size, b->label_list_size);
    same_bytes(a->label_list, b->label_list, a->label_list_size);
    assert_int_equal(a->is_sorted, b->is_sorted);
    assert_int_equal(a->payload_size, b->payload_size);
    same_bytes(a->payload, b->payload, a->payload_size);
    assert_int_equal(a->activity_id == NULL, b->activity_id == NULL);
    if (a->activity_id)
        assert_memory_equal(a->activity_id, b->activity_id, 16);
    assert_int_equal(a->related_activity_id == NULL, b->related_activity_id == NULL);
    if (a->related_activity_id)
        assert_memory_equal(a->related_activity_id, b->related_activity_id, 16);
    const ntidx_metadata *ma = a->metadata, *mb = b->metadata;
    assert_string_equal(ma->provider, mb->provider);
    assert_string_equal(ma->event_name, mb->event_name);
    assert_int_equal(ma->event_id, mb->event_id);
    assert_int_equal(ma->version, mb->version);
    assert_int_equal(ma->level, mb->level);
    assert_int_equal(ma->keywords, mb->keywords);
    assert_int_equal(ma->opcode, mb->opcode);
    assert_int_equal(a->thread == NULL, b->thread == NULL);
    if (a->thread) {
        assert_int_equal(a->thread->os_thread_id, b->thread->os_thread_id);
        assert_int_equal(a->thread->os_process_id, b->thread->os_process_id);
        assert_int_equal(a->thread->name == NULL, b->thread->name == NULL);
        if (a->thread->name)
            assert_string_equal(a->thread->name, b->thread->name);
    }
    assert_int_equal(ma->field_count, mb->field_count);
    assert_int_equal(ma->has_fields, mb->has_fields);
    if (!ba)
        return;
    int ea, eb;
    fields_of(ta, a, ba, &ea);
    fields_of(tb, b, bb, &eb);
    assert_int_equal(ea, eb);
    if (!ea) {
        assert_int_equal(ba->len, bb->len);
        same_bytes((const uint8_t *)ba->data, (const uint8_t *)bb->data, ba->len);
    }
    *field_errors += (uint64_t)ea;
}

/*
 * The query over the input equals a plain read of the output, in `order`.
 * Returns the events compared.
 */
static uint64_t compare_with_query(ntidx_trace *in, const ntidx_index *x, const ntidx_query_options *o, ntidx_order order,
                                   ntidx_trace *out, int v3, uint64_t *metadata_defs, int with_fields)
{
    ntx_idmap defs_used;
    ntx_idmap_init(&defs_used);
    static char used;
    ntidx_query_options qo = *o;
    qo.order = order;
    ntidx_query *q;
    assert_int_equal(ntidx_query_open(in, x, &qo, &q), NTIDX_OK);
    ntidx_reader_options ro;
    ntidx_reader_options_defaults(&ro);
    ro.order = order;
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(out, &ro, &r), NTIDX_OK);
    ntidx_buf ba = {0}, bb = {0};
    uint64_t n = 0, field_errors = 0;
    for (;;) {
        const ntidx_event *a, *b;
        int ra = ntidx_query_next(q, &a);
        int rb = ntidx_reader_next(r, &b);
        if (ra != rb)
            fail_msg("event %llu: query says %d, slice reader %d (%s)", (unsigned long long)n, ra, rb,
                     ntidx_last_error());
        if (ra <= 0)
            break;
        same_event(in, a, out, b, v3, with_fields ? &ba : NULL, &bb, &field_errors);
        if (!ntx_idmap_get(&defs_used, a->metadata->offset))
            assert_int_equal(ntx_idmap_put(&defs_used, a->metadata->offset, &used), 0);
        n++;
    }
    if (metadata_defs)
        *metadata_defs = ntx_idmap_size(&defs_used);
    ntx_idmap_free(&defs_used);
    assert_int_equal(ntidx_reader_complete(r), 1);
    assert_string_equal(ntidx_reader_incomplete_reason(r), "");
    ntidx_buf_free(&ba);
    ntidx_buf_free(&bb);
    ntidx_reader_close(&r);
    ntidx_query_close(&q);
    return n;
}

/* Two traces hold the same events (file order), stack ids included. */
static void compare_traces(ntidx_trace *a, ntidx_trace *b)
{
    for (int order = 0; order < 2; order++) {
        ntidx_reader_options ro;
        ntidx_reader_options_defaults(&ro);
        ro.order = order ? NTIDX_ORDER_TIME : NTIDX_ORDER_FILE;
        ntidx_reader *ra, *rb;
        assert_int_equal(ntidx_reader_open(a, &ro, &ra), NTIDX_OK);
        assert_int_equal(ntidx_reader_open(b, &ro, &rb), NTIDX_OK);
        ntidx_buf x = {0}, y = {0};
        uint64_t fe = 0;
        for (;;) {
            const ntidx_event *ea, *eb;
            int rca = ntidx_reader_next(ra, &ea), rcb = ntidx_reader_next(rb, &eb);
            assert_int_equal(rca, rcb);
            if (rca <= 0)
                break;
            same_event(a, ea, b, eb, 0, NULL, &y, &fe);
        }
        assert_int_equal(ntidx_reader_complete(rb), 1);
        ntidx_buf_free(&x);
        ntidx_buf_free(&y);
        ntidx_reader_close(&ra);
        ntidx_reader_close(&rb);
    }
}

/* ------------------------------------------------------------------ */
/* Structure of the output, checked block by block                     */
/* ------------------------------------------------------------------ */

typedef struct sp_list {
    uint64_t *ts;
    uint32_t *flags;
    size_t n;
} sp_list;

/* The input's sequence points, from a plain block walk. */
static void input_sequence_points(ntidx_trace *t, sp_list *l)
{
    memset(l, 0, sizeof *l);
    uint64_t pos = ntidx_trace_get_info(t)->first_block_offset;
    ntidx_block b;
    size_t cap = 0;
    ntx_err err = {0};
    while (ntidx_trace_next_block(t, &pos, &b) == 1) {
        if (b.kind != NTIDX_BLOCK_SEQUENCE_POINT)
            continue;
        ntx_seqpoint sp;
        assert_int_equal(ntx_decode_sequence_point(t, &b, &sp, NULL, NULL, &err), 0);
        if (l->n == cap) {
            cap = cap ? cap * 2 : 64;
            l->ts = realloc(l->ts, cap * sizeof *l->ts);
            l->flags = realloc(l->flags, cap * sizeof *l->flags);
        }
        l->ts[l->n] = sp.timestamp;
        l->flags[l->n++] = sp.flags;
    }
}

static void free_sp_list(sp_list *l)
{
    free(l->ts);
    free(l->flags);
}

typedef struct defs {
    ntx_idmap meta, threads, stacks, labels;
} defs;

static char mark;

static int def_stack(void *ctx, uint32_t id, const uint8_t *ips, uint32_t size)
{
    (void)ips;
    (void)size;
    return ntx_idmap_put(&((defs *)ctx)->stacks, id, &mark);
}

static int def_label(void *ctx, uint32_t id, const uint8_t *p, uint32_t size)
{
    (void)p;
    (void)size;
    return ntx_idmap_put(&((defs *)ctx)->labels, id, &mark);
}

static int def_thread(void *ctx, const ntidx_thread *th, const ntx_thread_row *row)
{
    (void)row;
    return ntx_idmap_put(&((defs *)ctx)->threads, th->index, &mark);
}

static int del_thread(void *ctx, uint64_t index, uint32_t seq)
{
    (void)seq;
    /* only threads defined may be removed */
    assert_true(ntx_idmap_remove(&((defs *)ctx)->threads, index));
    return 0;
}

static int sp_thread_defined(void *ctx, uint64_t index, uint32_t seq)
{
    (void)seq;
    assert_non_null(ntx_idmap_get(&((defs *)ctx)->threads, index));
    return 0;
}

/*
 * Events whose capture thread differs from the previous event's in the same event block while they are
 * not marked IsSorted. The runtime writes none (each thread's run starts with a marked event) and
 * TraceEvent files such an event under the previous one's thread, so a slice must not make any.
 */
static uint64_t unmarked_thread_changes(ntidx_trace *t)
{
    uint64_t pos = ntidx_trace_get_info(t)->first_block_offset, nblocks = 0, cap = 64;
    uint64_t *starts = malloc(cap * sizeof *starts);
    assert_non_null(starts);
    ntidx_block b;
    int rc;
    while ((rc = ntidx_trace_next_block(t, &pos, &b)) == 1) {
        if (b.kind != NTIDX_BLOCK_EVENT)
            continue;
        if (nblocks == cap) {
            cap *= 2;
            starts = realloc(starts, cap * sizeof *starts);
            assert_non_null(starts);
        }
        starts[nblocks++] = b.payload_offset;
    }
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    const ntidx_event *e;
    uint64_t bad = 0, prev = UINT64_MAX, bi = 0;
    int in_block = 0;
    while ((rc = ntidx_reader_next(r, &e)) == 1) {
        int new_block = 0;
        while (bi < nblocks && starts[bi] <= e->offset) {
            bi++;
            new_block = 1;
        }
        if (in_block && !new_block && e->capture_thread_index != prev && !e->is_sorted)
            bad++;
        in_block = 1;
        prev = e->capture_thread_index;
    }
    ntidx_reader_close(&r);
    free(starts);
    return bad;
}

/*
 * Walk the output's blocks: framing exact up to the end-of-stream marker,
 * every reference to a definition made earlier (and, for stacks and label
 * lists, since the last sequence point), sequence points taken from the
 * input's (same timestamps and flags, increasing), each region's events
 * between its sequence points. Returns the number of sequence points.
 */
static size_t check_structure(ntidx_trace *out, const sp_list *in_sps, int check_region_times)
{
    int v6 = out->gen == NTX_GEN_V6;
    defs d;
    ntx_idmap_init(&d.meta);
    ntx_idmap_init(&d.threads);
    ntx_idmap_init(&d.stacks);
    ntx_idmap_init(&d.labels);
    ntx_arena a;
    ntx_arena_init(&a);
    ntx_err err = {0};
    uint64_t pos = out->info.first_block_offset;
    ntidx_block b;
    int rc;
    size_t nsp = 0, in_at = 0;
    uint64_t region_lo = 0, last_sp = 0; /* events must be >= the last sequence point's time */
    uint64_t region_max = 0;
    int region_has_events = 0;
    while ((rc = ntidx_trace_next_block(out, &pos, &b)) == 1) {
        switch (b.kind) {
        case NTIDX_BLOCK_METADATA:
            if (v6) {
                ntx_cur c;
                ntx_cur_init(&c, out->data, b.payload_offset, b.payload_size);
                uint16_t hs = ntx_cur_u16(&c);
                ntx_cur_skip(&c, hs);
                while (ntx_cur_left(&c) > 0) {
                    ntidx_metadata *m;
                    assert_int_equal(ntx_metadata_parse_v6_row(&a, &c, &m, &err), 0);
                    assert_int_equal(ntx_idmap_put(&d.meta, m->id, &mark), 0);
                }
            } else {
                ntx_hdr_block hb;
                assert_int_equal(ntx_hdr_block_init(&hb, out, &b, &err), 0);
                ntx_hdr h;
                while ((rc = ntx_hdr_next(&hb, &h, &err)) == 1) {
                    ntidx_metadata *m;
                    int v5 = 0;
                    assert_int_equal(ntx_metadata_parse_blob(&a, out->data, h.payload_off, h.payload_size, &m, &v5, &err),
                                     0);
                    assert_int_equal(ntx_idmap_put(&d.meta, m->id, &mark), 0);
                }
                assert_int_equal(rc, 0);
            }
            break;
        case NTIDX_BLOCK_STACK:
            assert_int_equal(ntx_decode_stack_block(out, &b, def_stack, &d, &err), 0);
            break;
        case NTIDX_BLOCK_LABEL_LIST:
            assert_true(v6);
            assert_int_equal(ntx_decode_label_list_block(out, &b, def_label, &d, &err), 0);
            break;
        case NTIDX_BLOCK_THREAD:
            assert_true(v6);
            assert_int_equal(ntx_decode_thread_block(out, &b, &a, def_thread, &d, &err), 0);
            break;
        case NTIDX_BLOCK_REMOVE_THREAD:
            assert_true(v6);
            assert_int_equal(ntx_decode_remove_thread_block(out, &b, del_thread, &d, &err), 0);
            break;
        case NTIDX_BLOCK_SEQUENCE_POINT: {
            ntx_seqpoint sp;
            assert_int_equal(ntx_decode_sequence_point(out, &b, &sp, v6 ? sp_thread_defined : NULL, &d, &err), 0);
            /* one of the input's, in the input's order */
            while (in_at < in_sps->n && !(in_sps->ts[in_at] == sp.timestamp && in_sps->flags[in_at] == sp.flags))
                in_at++;
            if (in_at == in_sps->n)
                fail_msg("sequence point %zu (ts %llu flags %u) is not the input's next one", nsp,
                         (unsigned long long)sp.timestamp, sp.flags);
            in_at++;
            if (nsp)
                assert_true(sp.timestamp >= last_sp);
            if (check_region_times && region_has_events)
                assert_true(region_max <= sp.timestamp);
            last_sp = region_lo = sp.timestamp;
            region_has_events = 0;
            nsp++;
            ntx_idmap_clear(&d.stacks);
            ntx_idmap_clear(&d.labels);
            if (v6 && (sp.flags & 1))
                ntx_idmap_clear(&d.threads);
            if (v6 && (sp.flags & 2))
                ntx_idmap_clear(&d.meta);
            break;
        }
        case NTIDX_BLOCK_EVENT: {
            ntx_hdr_block hb;
            assert_int_equal(ntx_hdr_block_init(&hb, out, &b, &err), 0);
            ntx_hdr h;
            uint64_t lo = UINT64_MAX, hi = 0;
            while ((rc = ntx_hdr_next(&hb, &h, &err)) == 1) {
                if (!ntx_idmap_get(&d.meta, h.metadata_id))
                    fail_msg("event at %llu: metadata %u not defined before", (unsigned long long)h.offset,
                             h.metadata_id);
                if (h.stack_id && !ntx_idmap_get(&d.stacks, h.stack_id))
                    fail_msg("event at %llu: stack %u not defined in its region", (unsigned long long)h.offset,
                             h.stack_id);
                if (v6) {
                    assert_non_null(ntx_idmap_get(&d.threads, h.thread));
                    assert_non_null(ntx_idmap_get(&d.threads, h.capture));
                    if (h.label_id && !ntx_idmap_get(&d.labels, h.label_id))
                        fail_msg("event at %llu: label list %u not defined in its region",
                                 (unsigned long long)h.offset, h.label_id);
                }
                if (check_region_times && nsp)
                    assert_true(h.timestamp >= region_lo);
                region_max = h.timestamp > region_max || !region_has_events ? h.timestamp : region_max;
                region_has_events = 1;
                lo = h.timestamp < lo ? h.timestamp : lo;
                hi = h.timestamp > hi ? h.timestamp : hi;
            }
            assert_int_equal(rc, 0);
            /* the block header's range covers its events */
            if (ntx_hdr_block_range_known(&hb)) {
                assert_true(hb.min_ts <= lo);
                assert_true(hb.max_ts >= hi);
            }
            break;
        }
        case NTIDX_BLOCK_TRACE:
            break; /* V6 walks start at the trace block */
        default:
            fail_msg("unexpected block kind %d in a slice", (int)b.kind);
        }
    }
    assert_int_equal(rc, 0); /* the end-of-stream marker, not truncation or corruption */
    assert_int_equal(pos, out->size);
    ntx_idmap_free(&d.meta);
    ntx_idmap_free(&d.threads);
    ntx_idmap_free(&d.stacks);
    ntx_idmap_free(&d.labels);
    ntx_arena_free(&a);
    return nsp;
}

/* ------------------------------------------------------------------ */
/* One slice, checked every way                                        */
/* ------------------------------------------------------------------ */

typedef struct pick {
    uint64_t ts, thread;
    uint32_t event_id;
    char provider[256], name[256];
} pick;

typedef struct input {
    ntidx_trace *t;
    ntidx_index *x;
    int v3;
    uint64_t lo, hi; /* event time span */
    pick *picks;     /* a sample of events for windows and filters */
    size_t npicks;
    uint64_t field_errors; /* in the whole input */
    sp_list sps;
    int region_times_ok; /* the input's own regions keep their events between sequence points */
} input;

static void input_open(input *in, ntidx_trace *t, int full)
{
    memset(in, 0, sizeof *in);
    in->t = t;
    in->v3 = t->gen == NTX_GEN_NETPERF;
    ntidx_index_options io;
    ntidx_index_options_defaults(&io);
    io.full = full;
    assert_int_equal(ntidx_index_build(t, &io, &in->x), NTIDX_OK);
    input_sequence_points(t, &in->sps);
    /* sample events, note the span and the field errors */
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    const ntidx_event *e;
    int rc;
    uint64_t n = 0;
    in->lo = UINT64_MAX;
    ntidx_buf b = {0};
    in->picks = calloc(256, sizeof *in->picks);
    while ((rc = ntidx_reader_next(r, &e)) == 1) {
        in->lo = e->timestamp < in->lo ? e->timestamp : in->lo;
        in->hi = e->timestamp > in->hi ? e->timestamp : in->hi;
        int err;
        fields_of(t, e, &b, &err);
        in->field_errors += (uint64_t)err;
        /* reservoir sample of 256 events */
        size_t slot = in->npicks < 256 ? in->npicks++ : (size_t)(next_rand() % (n + 1));
        if (slot < 256) {
            pick *p = &in->picks[slot];
            p->ts = e->timestamp;
            p->thread = e->thread_id;
            p->event_id = e->metadata->event_id;
            snprintf(p->provider, sizeof p->provider, "%s", e->metadata->provider);
            snprintf(p->name, sizeof p->name, "%s", e->metadata->event_name);
        }
        n++;
    }
    assert_int_equal(rc, 0);
    ntidx_buf_free(&b);
    ntidx_reader_close(&r);
    if (!n)
        in->lo = in->hi = 0;
    /* Region time ranges: the index's regions say whether the input keeps its events between its sequence points. */
    in->region_times_ok = 1;
}

static void input_close(input *in)
{
    ntidx_index_close(&in->x);
    free(in->picks);
    free_sp_list(&in->sps);
}

typedef struct totals {
    uint64_t slices, events, copied_blocks, sequence_points, empty;
} totals;

static uint64_t rand_ts(const input *in)
{
    uint64_t span = in->hi - in->lo;
    switch (next_rand() % 4) {
    case 0: return in->npicks ? in->picks[next_rand() % in->npicks].ts : in->lo;
    case 1: return in->npicks ? in->picks[next_rand() % in->npicks].ts + 1 : in->hi;
    default: return in->lo + (span ? next_rand() % (span + 2) : 0);
    }
}

static void random_options(const input *in, ntidx_query_options *o, int whole)
{
    ntidx_query_options_defaults(o);
    if (whole)
        return;
    uint64_t a = rand_ts(in), b = rand_ts(in);
    o->t0 = a < b ? a : b;
    o->t1 = a < b ? b : a;
    if (in->npicks && next_rand() % 3 == 0) {
        const pick *p = &in->picks[next_rand() % in->npicks];
        switch (next_rand() % 4) {
        case 0: o->provider = p->provider; break;
        case 1:
            o->provider = p->provider;
            o->has_event_id = 1;
            o->event_id = p->event_id;
            break;
        case 2:
            o->has_thread = 1;
            o->thread = p->thread;
            break;
        default:
            if (p->name[0])
                o->event_name = p->name;
            break;
        }
    }
    if (next_rand() % 16 == 0)
        o->limit = 1 + next_rand() % 50;
}

static void check_slice(input *in, const ntidx_query_options *o, const ntidx_slice_options *so, totals *tot)
{
    uint8_t *data;
    size_t size;
    ntidx_slice_stats st;
    int rc = ntidx_slice_memory(in->t, in->x, o, so, &data, &size, &st);
    if (rc != NTIDX_OK)
        fail_msg("slice failed: %d %s", rc, ntidx_last_error());
    assert_int_equal(st.bytes_written, size);
    ntidx_trace *out;
    assert_int_equal(ntidx_trace_open_memory(data, size, "slice", &out), NTIDX_OK);
    const ntidx_trace_info *ii = ntidx_trace_get_info(in->t), *oi = ntidx_trace_get_info(out);
    /* the input's format version (V3 is written as NetTrace and reads as V4) */
    assert_int_equal(oi->format_version, in->v3 ? 4 : ii->format_version);
    assert_int_equal(oi->pointer_size, ii->pointer_size);
    assert_int_equal(oi->tick_frequency, ii->tick_frequency);
    assert_int_equal(oi->sync_ticks, ii->sync_ticks);
    assert_memory_equal(&oi->sync_time_utc, &ii->sync_time_utc, sizeof oi->sync_time_utc);
    assert_int_equal(oi->process_id, ii->process_id);

    /* the query's events, in both orders (a limit counts in file order, so time order only without one) */
    uint64_t mdefs;
    uint64_t n = compare_with_query(in->t, in->x, o, NTIDX_ORDER_FILE, out, in->v3, &mdefs, 1);
    if (!o->limit)
        assert_int_equal(compare_with_query(in->t, in->x, o, NTIDX_ORDER_TIME, out, in->v3, NULL, 0), n);
    assert_int_equal(st.events, n);
    /* no field errors where the input had none */
    if (!in->field_errors) {
        ntidx_stats *s;
        assert_int_equal(ntidx_stats_compute(out, &s), NTIDX_OK);
        assert_int_equal(s->events, n);
        assert_int_equal(s->complete, 1);
        ntidx_stats_free(&s);
    }
    /* runs keep their marks: a run the window or a filter cut starts an event block */
    if (!in->v3 && unmarked_thread_changes(in->t) == 0)
        assert_int_equal(unmarked_thread_changes(out), 0);
    size_t nsp = check_structure(out, &in->sps, in->region_times_ok);
    assert_int_equal(nsp, st.sequence_points);
    /* nothing besides what the events need: one metadata row per definition used (+1: the V5 marker) */
    assert_true(st.metadata <= mdefs + 1);

    /* a slice of the slice over the same window equals the slice */
    ntidx_index *ox;
    assert_int_equal(ntidx_index_build(out, NULL, &ox), NTIDX_OK);
    ntidx_query_options o2 = *o;
    o2.limit = 0; /* the slice holds exactly the limited events already */
    uint8_t *data2;
    size_t size2;
    ntidx_slice_stats st2;
    rc = ntidx_slice_memory(out, ox, &o2, so, &data2, &size2, &st2);
    if (rc != NTIDX_OK)
        fail_msg("slice of the slice failed: %d %s", rc, ntidx_last_error());
    ntidx_trace *out2;
    assert_int_equal(ntidx_trace_open_memory(data2, size2, "slice2", &out2), NTIDX_OK);
    assert_int_equal(ntidx_trace_get_info(out2)->format_version, oi->format_version);
    assert_int_equal(st2.events, st.events);
    assert_int_equal(st2.sequence_points, st.sequence_points);
    compare_traces(out, out2);
    ntidx_trace_close(&out2);
    free(data2);
    ntidx_index_close(&ox);

    tot->slices++;
    tot->events += n;
    tot->copied_blocks += st.blocks_copied;
    tot->sequence_points += st.sequence_points;
    tot->empty += n == 0;
    ntidx_trace_close(&out);
    free(data);
}

static void check_trace(ntidx_trace *t, int windows, totals *tot)
{
    for (int full = 0; full < 2; full++) {
        input in;
        input_open(&in, t, full);
        /* a --full index changes only which blocks may be copied: fewer windows */
        for (int w = 0; w < (full ? (windows + 1) / 2 : windows); w++) {
            ntidx_query_options o;
            random_options(&in, &o, w == 0);
            ntidx_slice_options so;
            ntidx_slice_options_defaults(&so);
            so.copy_blocks = (w % 3) != 2;
            if (w % 5 == 4)
                so.max_event_block_bytes = 4096;
            check_slice(&in, &o, &so, tot);
        }
        input_close(&in);
    }
}

static void print_totals(const char *what, const totals *t)
{
    printf("%s: %llu slices, %llu events, %llu blocks copied whole, %llu sequence points, %llu empty\n", what,
           (unsigned long long)t->slices, (unsigned long long)t->events, (unsigned long long)t->copied_blocks,
           (unsigned long long)t->sequence_points, (unsigned long long)t->empty);
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */
/* ------------------------------------------------------------------ */

static void test_generated(void **state)
{
    (void)state;
    totals tot = {0};
    for (int v = 5; v <= 6; v++) {
        for (int variant = 0; variant < 4; variant++) {
            ntidx_gen_options g;
            ntidx_gen_options_defaults(&g);
            g.format_version = v;
            g.events = 20000;
            g.seed = 101 + (uint64_t)variant;
            g.threads = variant == 0 ? 1 : 8;
            if (variant == 1)
                g.compressed_headers = 0;
            if (variant >= 2) {
                g.drop_rate = 0.03;
                if (v == 6) {
                    g.metadata_flush_every = 2;
                    g.thread_flush_every = 3;
                    g.remove_threads = 1;
                }
            }
            if (variant == 3)
                g.target_bytes = 3u << 20, g.events = 0; /* larger regions (0.5 to 1.5 MB) */
            uint8_t *data;
            size_t size;
            assert_int_equal(ntidx_generate_memory(&g, &data, &size), NTIDX_OK);
            ntidx_trace *t;
            char name[64];
            snprintf(name, sizeof name, "gen-v%d-variant%d", v, variant);
            assert_int_equal(ntidx_trace_open_memory(data, size, name, &t), NTIDX_OK);
            check_trace(t, 6 * windows_scale, &tot);
            ntidx_trace_close(&t);
            free(data);
        }
    }
    print_totals("generated", &tot);
    assert_true(tot.copied_blocks > 0);
    assert_true(tot.sequence_points > 0);
}

static void test_real_traces(void **state)
{
    (void)state;
    static const char *files[] = {
        "eventpipe-dotnetcore2.1-linux-x64-objver3.netperf", "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace",
        "eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace",
        "eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace", "only_managed_samples.nettrace"};
    totals tot = {0};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", traces_dir, files[i]);
        ntidx_trace *t;
        if (ntidx_trace_open(path, &t) != NTIDX_OK)
            fail_msg("%s", ntidx_last_error());
        check_trace(t, 6 * windows_scale, &tot);
        ntidx_trace_close(&t);
    }
    print_totals("real traces", &tot);
}

/* The file API: same bytes as in memory; refuses to overwrite its input; leaves nothing behind on failure. */
static void test_file_output(void **state)
{
    (void)state;
    char dir[] = "/tmp/ntidx-slice-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char tpath[256], opath[256], bad[300];
    snprintf(tpath, sizeof tpath, "%s/t.nettrace", dir);
    snprintf(opath, sizeof opath, "%s/out.nettrace", dir);
    snprintf(bad, sizeof bad, "%s/no-such-dir/out.nettrace", dir);
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    g.events = 20000;
    g.format_version = 5;
    assert_int_equal(ntidx_generate_file(tpath, &g), NTIDX_OK);
    ntidx_trace *t;
    assert_int_equal(ntidx_trace_open(tpath, &t), NTIDX_OK);
    ntidx_index *x;
    assert_int_equal(ntidx_index_build(t, NULL, &x), NTIDX_OK);
    const ntidx_index_info *xi = ntidx_index_get_info(x);
    ntidx_query_options o;
    ntidx_query_options_defaults(&o);
    o.t0 = xi->first_ts + (xi->last_ts - xi->first_ts) / 4;
    o.t1 = xi->first_ts + (xi->last_ts - xi->first_ts) / 2;
    ntidx_slice_stats st;
    assert_int_equal(ntidx_slice(t, x, &o, NULL, opath, &st), NTIDX_OK);
    uint8_t *mem;
    size_t msize;
    assert_int_equal(ntidx_slice_memory(t, x, &o, NULL, &mem, &msize, NULL), NTIDX_OK);
    struct stat sb;
    assert_int_equal(stat(opath, &sb), 0);
    assert_int_equal((uint64_t)sb.st_size, msize);
    assert_int_equal(st.bytes_written, msize);
    FILE *f = fopen(opath, "rb");
    uint8_t *disk = malloc(msize);
    assert_int_equal(fread(disk, 1, msize, f), msize);
    fclose(f);
    assert_memory_equal(disk, mem, msize);
    free(disk);
    free(mem);
    /* the output is the input: refused, the input untouched */
    assert_int_equal(ntidx_slice(t, x, &o, NULL, tpath, NULL), NTIDX_E_INVALID_ARG);
    assert_non_null(strstr(ntidx_last_error(), "is the input"));
    assert_int_equal(stat(tpath, &sb), 0);
    assert_int_equal((uint64_t)sb.st_size, ntidx_trace_get_info(t)->file_size);
    /* an output that cannot be created */
    assert_int_equal(ntidx_slice(t, x, &o, NULL, bad, NULL), NTIDX_E_IO);
    assert_non_null(strstr(ntidx_last_error(), "cannot create"));
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
    unlink(opath);
    unlink(tpath);
    rmdir(dir);
}

/* An empty window still gives a valid, complete trace of the same version. */
static void test_empty(void **state)
{
    (void)state;
    for (int v = 5; v <= 6; v++) {
        ntidx_gen_options g;
        ntidx_gen_options_defaults(&g);
        g.events = 5000;
        g.format_version = v;
        uint8_t *data;
        size_t size;
        assert_int_equal(ntidx_generate_memory(&g, &data, &size), NTIDX_OK);
        ntidx_trace *t;
        assert_int_equal(ntidx_trace_open_memory(data, size, "gen", &t), NTIDX_OK);
        ntidx_index *x;
        assert_int_equal(ntidx_index_build(t, NULL, &x), NTIDX_OK);
        ntidx_query_options o;
        ntidx_query_options_defaults(&o);
        o.t0 = o.t1 = 5; /* nothing */
        uint8_t *out;
        size_t osize;
        ntidx_slice_stats st;
        assert_int_equal(ntidx_slice_memory(t, x, &o, NULL, &out, &osize, &st), NTIDX_OK);
        assert_int_equal(st.events, 0);
        ntidx_trace *ot;
        assert_int_equal(ntidx_trace_open_memory(out, osize, "empty", &ot), NTIDX_OK);
        assert_int_equal(ntidx_trace_get_info(ot)->format_version, ntidx_trace_get_info(t)->format_version);
        ntidx_reader *r;
        const ntidx_event *e;
        assert_int_equal(ntidx_reader_open(ot, NULL, &r), NTIDX_OK);
        assert_int_equal(ntidx_reader_next(r, &e), 0);
        assert_int_equal(ntidx_reader_complete(r), 1);
        ntidx_reader_close(&r);
        ntidx_trace_close(&ot);
        free(out);
        ntidx_index_close(&x);
        ntidx_trace_close(&t);
        free(data);
    }
}


/* A trace cut short (a writer still running): the slice holds its complete blocks' events and ends properly. */
static void test_incomplete(void **state)
{
    (void)state;
    totals tot = {0};
    for (int v = 5; v <= 6; v++) {
        ntidx_gen_options g;
        ntidx_gen_options_defaults(&g);
        g.format_version = v;
        g.events = 15000;
        g.finish = 0;
        g.drop_rate = 0.01;
        uint8_t *data;
        size_t size;
        assert_int_equal(ntidx_generate_memory(&g, &data, &size), NTIDX_OK);
        ntidx_trace *t;
        assert_int_equal(ntidx_trace_open_memory(data, size * 7 / 10, "cut", &t), NTIDX_OK);
        check_trace(t, 4, &tot);
        ntidx_trace_close(&t);
        free(data);
    }
    assert_true(tot.events > 0);
}

/*
 * ntidx_writer_add_raw_block() on its own: V5 event blocks (compressed and
 * uncompressed rows) copied to new offsets of every residue mod 4 (the
 * FastSerialization padding before the content must be recomputed) read
 * back as the same events.
 */
static void test_raw_block_alignment(void **state)
{
    (void)state;
    for (int compressed = 0; compressed < 2; compressed++) {
        ntidx_gen_options g;
        ntidx_gen_options_defaults(&g);
        g.format_version = 5;
        g.events = 3000;
        g.compressed_headers = compressed;
        uint8_t *data;
        size_t size;
        assert_int_equal(ntidx_generate_memory(&g, &data, &size), NTIDX_OK);
        ntidx_trace *in;
        assert_int_equal(ntidx_trace_open_memory(data, size, "v5", &in), NTIDX_OK);
        /* the first metadata, stack and event blocks */
        ntidx_block meta = {0}, stack = {0}, ev = {0}, b;
        uint64_t pos = in->info.first_block_offset;
        while (ntidx_trace_next_block(in, &pos, &b) == 1) {
            if (b.kind == NTIDX_BLOCK_METADATA && !meta.size)
                meta = b;
            if (b.kind == NTIDX_BLOCK_STACK && !stack.size)
                stack = b;
            if (b.kind == NTIDX_BLOCK_EVENT) {
                ev = b;
                break;
            }
        }
        assert_true(meta.size && stack.size && ev.size);
        unsigned residues = 0;
        for (int shift = 0; shift < 4; shift++) {
            ntidx_writer_options wo;
            ntidx_writer_options_defaults(&wo);
            wo.format_version = 5;
            wo.compressed_headers = 1; /* rows of any length: the copied block lands at any offset mod 4 */
            wo.sync_ticks = in->info.sync_ticks;
            wo.tick_frequency = in->info.tick_frequency;
            ntidx_writer *w;
            assert_int_equal(ntidx_writer_open_memory(&wo, &w), NTIDX_OK);
            assert_int_equal(ntidx_writer_add_raw_block(w, NTIDX_BLOCK_STACK, in->data + stack.payload_offset,
                                                        (size_t)stack.payload_size),
                             0);
            /* every metadata row of the first block, raw */
            ntx_hdr_block hb;
            ntx_err err = {0};
            assert_int_equal(ntx_hdr_block_init(&hb, in, &meta, &err), 0);
            ntx_hdr h;
            while (ntx_hdr_next(&hb, &h, &err) == 1)
                assert_int_equal(ntidx_writer_add_metadata_raw(w, in->data + h.payload_off, h.payload_size), 0);
            /* one more row, with an unknown tag of `shift` bytes: what follows moves by `shift` */
            uint8_t row[64], *p = row;
            static const uint8_t fixed[] = {0x60, 0xEA, 0, 0, /* MetadataId 60000 */
                                            'P', 0, 0, 0,     /* provider "P" */
                                            0, 0, 0, 0,       /* event id */
                                            0, 0,             /* name "" */
                                            0, 0, 0, 0, 0, 0, 0, 0, /* keywords */
                                            0, 0, 0, 0, 0, 0, 0, 0, /* version, level */
                                            0, 0, 0, 0};      /* no fields */
            memcpy(p, fixed, sizeof fixed);
            p += sizeof fixed;
            *p++ = (uint8_t)shift, *p++ = 0, *p++ = 0, *p++ = 0, *p++ = 9; /* tag: size, kind 9 (unknown) */
            memset(p, 0xAB, (size_t)shift);
            p += shift;
            assert_int_equal(ntidx_writer_add_metadata_raw(w, row, (size_t)(p - row)), 0);
            assert_int_equal(ntidx_writer_add_raw_block(w, NTIDX_BLOCK_EVENT, in->data + ev.payload_offset,
                                                        (size_t)ev.payload_size),
                             0);
            assert_int_equal(ntidx_writer_finish(w), 0);
            size_t osize;
            const uint8_t *odata = ntidx_writer_memory(w, &osize);
            ntidx_trace *out;
            assert_int_equal(ntidx_trace_open_memory(odata, osize, "raw", &out), NTIDX_OK);
            uint64_t opos = out->info.first_block_offset;
            while (ntidx_trace_next_block(out, &opos, &b) == 1)
                if (b.kind == NTIDX_BLOCK_EVENT) {
                    residues |= 1u << (b.offset & 3);
                    assert_int_equal(b.payload_offset & 3, 0);
                }
            /* the input's events of that block, then the output's: the same */
            ntidx_reader *ri, *ro;
            assert_int_equal(ntidx_reader_open(in, NULL, &ri), NTIDX_OK);
            assert_int_equal(ntidx_reader_open(out, NULL, &ro), NTIDX_OK);
            const ntidx_event *a, *e;
            ntidx_buf x = {0}, y = {0};
            uint64_t n = 0, fe = 0;
            while (ntidx_reader_next(ri, &a) == 1 && a->offset < ev.offset + ev.size) {
                if (a->offset < ev.offset)
                    continue;
                assert_int_equal(ntidx_reader_next(ro, &e), 1);
                same_event(in, a, out, e, 0, &x, &y, &fe);
                n++;
            }
            assert_int_equal(ntidx_reader_next(ro, &e), 0);
            assert_int_equal(ntidx_reader_complete(ro), 1);
            assert_true(n > 0);
            ntidx_buf_free(&x);
            ntidx_buf_free(&y);
            ntidx_reader_close(&ri);
            ntidx_reader_close(&ro);
            ntidx_trace_close(&out);
            assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
        }
        assert_int_equal(residues, 15); /* the event block started at every offset mod 4 */
        ntidx_trace_close(&in);
        free(data);
    }
    /* wrong sizes are refused */
    ntidx_writer *w;
    ntidx_writer_options wo;
    ntidx_writer_options_defaults(&wo);
    assert_int_equal(ntidx_writer_open_memory(&wo, &w), NTIDX_OK); /* V6 */
    static const uint8_t row[4] = {3, 0, 1, 0};
    assert_int_equal(ntidx_writer_add_metadata_raw(w, row, 4), NTIDX_E_INVALID_ARG); /* Size 3 but 2 bytes follow */
    assert_int_equal(ntidx_writer_add_thread_raw(w, row, 3), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_writer_add_label_list_raw(w, 0, row, 1), NTIDX_E_INVALID_ARG); /* id 0 */
    assert_int_equal(ntidx_writer_add_raw_block(w, NTIDX_BLOCK_TRACE, row, 4), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_writer_add_raw_block(w, NTIDX_BLOCK_END_OF_STREAM, row, 4), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
    wo.format_version = 5;
    assert_int_equal(ntidx_writer_open_memory(&wo, &w), NTIDX_OK);
    assert_int_equal(ntidx_writer_add_thread_raw(w, row, 4), NTIDX_E_INVALID_ARG); /* no threads in V5 */
    assert_int_equal(ntidx_writer_add_raw_block(w, NTIDX_BLOCK_THREAD, row, 4), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_writer_add_metadata_raw(w, row, 2), NTIDX_E_INVALID_ARG); /* shorter than an id */
    assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s TRACES_DIR [--many]\n", argv[0]);
        return 2;
    }
    traces_dir = argv[1];
    if (argc > 2 && !strcmp(argv[2], "--many"))
        windows_scale = 4;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generated),
        cmocka_unit_test(test_real_traces),
        cmocka_unit_test(test_file_output),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_incomplete),
        cmocka_unit_test(test_raw_block_alignment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
