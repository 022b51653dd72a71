/*
 * fuzz_reader: any bytes as a trace of any version.
 *
 * ntidx_trace_open_memory(), the block walk with every event block's time
 * range, a full read in file order (every event's payload as JSON and text,
 * its label list, its name and times) and in time order, dropped events,
 * whole-trace statistics; then an index built over the bytes and queries,
 * seeks and window statistics through it. Never a crash, a read outside the
 * input, a loop without progress or an error without a message; and when
 * every event lies inside its block's time range (the index trusts block
 * headers) a full-window query through the index returns as many events as
 * the plain read did, in file order, and in time order too when no event
 * broke the writer's IsSorted promise; and so do whole-trace statistics
 * through the index (from the region statistics of a --full index).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ntidx/index.h>
#include <ntidx/ntidx.h>

#include "fuzz_util.h"

/* A seek: the first event at or after ts, a query with the seek option (recovery off: errors are the point). */
static int seek_at(ntidx_trace *t, const ntidx_index *x, uint64_t ts, ntidx_query **h, const ntidx_event **e)
{
    ntidx_query_options o;
    ntidx_query_options_seek(&o, ts);
    o.recover = 0;
    int rc = ntidx_query_open(t, x, &o, h);
    return rc < 0 ? rc : ntidx_query_next(*h, e);
}


static int inside(const void *p, uint64_t n, const uint8_t *d, size_t size)
{
    const uint8_t *b = p;
    return b >= d && b <= d + size && n <= (uint64_t)(d + size - b);
}

static void check_message(int rc, const char *msg, const char *what)
{
    FUZZ_CHECK(msg && msg[0], "%s: error %d (%s) without a message", what, rc, ntidx_strerror(rc));
}

static void deep_event(const ntidx_trace *t, const ntidx_event *e, const uint8_t *d, size_t n, ntidx_buf *out)
{
    FUZZ_CHECK(e->offset < n, "event offset %llu", (unsigned long long)e->offset);
    FUZZ_CHECK(inside(e->payload, e->payload_size, d, n), "payload outside the input");
    FUZZ_CHECK(!e->stack || inside(e->stack, e->stack_size, d, n), "stack outside the input");
    FUZZ_CHECK(!e->label_list || inside(e->label_list, e->label_list_size, d, n), "label list outside the input");
    FUZZ_CHECK(e->metadata && e->metadata->provider, "event without metadata");
    out->len = 0;
    int rc = ntidx_event_fields_json(t, e, out);
    FUZZ_CHECK(rc == NTIDX_OK || (rc == NTIDX_E_PAYLOAD && ntidx_last_error()[0]), "fields_json rc %d", rc);
    out->len = 0;
    rc = ntidx_event_fields_text(t, e, out);
    FUZZ_CHECK(rc == NTIDX_OK || (rc == NTIDX_E_PAYLOAD && ntidx_last_error()[0]), "fields_text rc %d", rc);
    char name[160];
    FUZZ_CHECK(ntidx_event_display_name(e->metadata, name, sizeof name) != NULL, "display name");
    (void)ntidx_metadata_matches_name(e->metadata, "EventID(1)");
    (void)ntidx_ticks_to_seconds(t, e->timestamp);
    int64_t ns;
    char iso[64];
    rc = ntidx_ticks_to_unix_ns(t, e->timestamp, &ns);
    FUZZ_CHECK(rc == NTIDX_OK || rc == NTIDX_E_CORRUPT, "ticks_to_unix_ns rc %d", rc);
    rc = ntidx_ticks_to_iso8601(t, e->timestamp, iso, sizeof iso);
    FUZZ_CHECK(rc == NTIDX_OK || rc == NTIDX_E_CORRUPT, "ticks_to_iso8601 rc %d", rc);
    if (e->label_list) {
        const uint8_t *p = e->label_list, *end = p + e->label_list_size;
        ntidx_label l;
        uint32_t k = 0;
        while ((rc = ntidx_label_next(&p, end, &l)) == 1)
            FUZZ_CHECK(++k <= e->label_list_size, "label list does not progress");
        FUZZ_CHECK(rc == 0 || rc == NTIDX_E_CORRUPT, "label_next rc %d", rc);
    }
}

/* Event blocks and their time ranges as the index sees them (header, or decoded when the header has none). */
typedef struct brange {
    uint64_t offset, end, lo, hi;
    int has;
} brange;

static brange *g_ranges;
static size_t g_nranges;

/* 1 when the event lies inside the range of the block holding it. */
static int in_block_range(const ntidx_event *e)
{
    size_t a = 0, b = g_nranges;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (g_ranges[m].end <= e->offset)
            a = m + 1;
        else
            b = m;
    }
    if (a == g_nranges || g_ranges[a].offset > e->offset)
        return 0;
    return g_ranges[a].has && e->timestamp >= g_ranges[a].lo && e->timestamp <= g_ranges[a].hi;
}

/* A full read; returns the reader's final code, the events and whether it was complete. */
static int read_all(ntidx_trace *t, ntidx_order order, const uint8_t *d, size_t n, uint64_t *events,
                    uint64_t *below_max, int *complete, int *trusted)
{
    ntidx_reader_options o;
    ntidx_reader_options_defaults(&o);
    o.order = order;
    ntidx_reader *r = NULL;
    FUZZ_CHECK(ntidx_reader_open(t, &o, &r) == NTIDX_OK, "reader_open");
    ntidx_buf out = {0};
    const ntidx_event *e;
    int rc;
    uint64_t count = 0, ok_ts = 0;
    while ((rc = ntidx_reader_next(r, &e)) == 1) {
        FUZZ_CHECK(++count <= n / 2 + 1, "more events than the input can hold");
        if (e->timestamp != UINT64_MAX)
            ok_ts++;
        if (order == NTIDX_ORDER_FILE) {
            deep_event(t, e, d, n, &out);
            if (!in_block_range(e))
                *trusted = 0;
        }
    }
    ntidx_buf_free(&out);
    if (rc < 0) {
        check_message(rc, ntidx_last_error(), "reader");
        FUZZ_CHECK(ntidx_reader_next(r, &e) == rc, "reader error is not sticky");
    }
    const ntidx_dropped *dl;
    size_t dn;
    FUZZ_CHECK(ntidx_reader_dropped(r, &dl, &dn) == NTIDX_OK, "dropped");
    const ntidx_reader_stats *st = ntidx_reader_get_stats(r);
    FUZZ_CHECK(st->events == count, "stats count %llu != %llu", (unsigned long long)st->events,
               (unsigned long long)count);
    FUZZ_CHECK(st->end_offset <= n, "end offset past the input");
    if (st->order_violations)
        *trusted = 0;
    *events = count;
    *below_max = ok_ts;
    *complete = ntidx_reader_complete(r);
    ntidx_reader_close(&r);
    return rc;
}

static void walk_blocks(ntidx_trace *t, size_t n)
{
    g_nranges = 0;
    uint64_t pos = ntidx_trace_get_info(t)->first_block_offset;
    ntidx_block b;
    int rc;
    uint64_t blocks = 0;
    while ((rc = ntidx_trace_next_block(t, &pos, &b)) == 1) {
        FUZZ_CHECK(++blocks <= n / 4 + 2, "more blocks than the input can hold");
        FUZZ_CHECK(b.offset + b.size <= n && b.payload_offset + b.payload_size <= n, "block outside the input");
        FUZZ_CHECK(pos == b.offset + b.size, "block walk position");
        if (b.kind == NTIDX_BLOCK_EVENT) {
            uint64_t lo, hi, cnt;
            int trc = ntidx_event_block_time_range(t, &b, &lo, &hi, &cnt);
            if (trc < 0)
                check_message(trc, ntidx_last_error(), "block time range");
            else if (trc == 1)
                FUZZ_CHECK(lo <= hi, "inverted block range");
            brange *nr = realloc(g_ranges, (g_nranges + 1) * sizeof *g_ranges);
            FUZZ_CHECK(nr != NULL, "realloc");
            g_ranges = nr;
            g_ranges[g_nranges++] = (brange){b.offset, b.offset + b.size, lo, hi, trc == 1};
        }
    }
    if (rc < 0)
        check_message(rc, ntidx_last_error(), "block walk");
}

/* Count the events of a query; returns its final code. */
static int run_query(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *o, uint64_t *events, size_t n)
{
    ntidx_query *q = NULL;
    int rc = ntidx_query_open(t, x, o, &q);
    if (rc < 0) {
        ntidx_query_close(&q);
        return rc;
    }
    const ntidx_event *e;
    uint64_t k = 0;
    while ((rc = ntidx_query_next(q, &e)) == 1) {
        FUZZ_CHECK(++k <= n / 2 + 1, "query returns more events than the input can hold");
        FUZZ_CHECK(e->timestamp >= o->t0 && e->timestamp < o->t1, "query event outside its window");
        FUZZ_CHECK(e->offset < n, "query event offset");
    }
    if (rc < 0)
        check_message(rc, ntidx_last_error(), "query");
    const ntidx_dropped *dl;
    size_t dn;
    int drc = ntidx_query_dropped(q, &dl, &dn);
    FUZZ_CHECK(drc == NTIDX_OK, "query dropped events: %d", drc);
    (void)ntidx_query_get_stats(q);
    ntidx_query_close(&q);
    *events = k;
    return rc;
}

static void through_index(ntidx_trace *t, int full, const uint8_t *d, size_t n, int read_rc, uint64_t below_max,
                          int ranges_ok, int sorted_ok)
{
    ntidx_index_options io;
    ntidx_index_options_defaults(&io);
    io.full = full;
    ntidx_index *x = NULL;
    int rc = ntidx_index_build(t, &io, &x);
    if (rc < 0) {
        FUZZ_CHECK(x == NULL, "failed build returned an index");
        check_message(rc, ntidx_last_error(), "index build");
        return;
    }
    const ntidx_index_info *info = ntidx_index_get_info(x);
    FUZZ_CHECK(info->indexed_end <= n, "indexed end past the input");
    {
        /* whole-trace statistics through the index (a --full one answers from its region statistics) */
        ntidx_stats_options so;
        ntidx_stats_options_defaults(&so);
        so.recover = 0; /* a corrupt index must be said, not rebuilt, here */
        so.threads = 1;
        ntidx_stats *s = NULL;
        int src = ntidx_stats_indexed(t, x, &so, &s);
        if (src < 0)
            FUZZ_CHECK(ntidx_last_error()[0], "indexed stats error %d without a message", src);
        else if (read_rc == 0 && ranges_ok && sorted_ok)
            FUZZ_CHECK(s->events == below_max, "whole-trace stats through the index (full %d) count %llu events, the read %llu",
                       full, (unsigned long long)s->events, (unsigned long long)below_max);
        ntidx_stats_free(&s);
    }
    for (int order = 0; order < 2; order++) {
        ntidx_query_options o;
        ntidx_query_options_defaults(&o);
        o.recover = 0; /* a corrupt index must be said, not rebuilt, here */
        o.order = order ? NTIDX_ORDER_TIME : NTIDX_ORDER_FILE;
        uint64_t got = 0;
        int qrc = run_query(t, x, &o, &got, n);
        /* Everything through the index is what the plain read returned (events stamped
           UINT64_MAX lie outside every half-open window). */
        if (qrc == 0 && read_rc == 0 && ranges_ok && (order == 0 || sorted_ok))
            FUZZ_CHECK(got == below_max, "full-window query (order %d, full %d) returned %llu events, the read %llu",
                       order, full, (unsigned long long)got, (unsigned long long)below_max);
    }
    if (info->first_ts <= info->last_ts) {
        uint64_t span = info->last_ts - info->first_ts, mid = info->first_ts + span / 2;
        ntidx_query_options o;
        ntidx_query_options_defaults(&o);
        o.recover = 0; /* a corrupt index must be said, not rebuilt, here */
        o.t0 = info->first_ts + span / 4;
        o.t1 = mid + span / 4 + 1;
        o.order = NTIDX_ORDER_TIME;
        o.has_thread = 1;
        o.thread = 1;
        uint64_t got;
        (void)run_query(t, x, &o, &got, n);
        o.has_thread = 0;
        o.provider = "Microsoft-Windows-DotNETRuntime";
        o.event_name = "GC/AllocationTick";
        o.order = NTIDX_ORDER_FILE;
        (void)run_query(t, x, &o, &got, n);
        ntidx_query *h = NULL;
        const ntidx_event *e;
        int src = seek_at(t, x, mid, &h, &e);
        if (src == 1)
            FUZZ_CHECK(e->timestamp >= mid && e->offset < n, "seek returned an event before its time");
        ntidx_query_close(&h);
        ntidx_stats *s = NULL;
        ntidx_stats_options wo;
        ntidx_stats_options_defaults(&wo);
        wo.recover = 0; /* a corrupt index must be said, not rebuilt, here */
        wo.t0 = o.t0;
        wo.t1 = o.t1;
        wo.threads = 1;
        wo.recover = 0;
        if (ntidx_stats_indexed(t, x, &wo, &s) < 0)
            FUZZ_CHECK(ntidx_last_error()[0], "window stats error without a message");
        ntidx_stats_free(&s);
        ntidx_stats_options so;
        ntidx_stats_options_defaults(&so);
        so.recover = 0; /* a corrupt index must be said, not rebuilt, here */
        so.threads = 1;
        so.buckets = 7;
        if (ntidx_stats_indexed(t, x, &so, &s) < 0)
            FUZZ_CHECK(ntidx_last_error()[0], "indexed stats error without a message");
        ntidx_stats_free(&s);
    }
    (void)d;
    ntidx_index_close(&x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ntidx_trace *t = NULL;
    int rc = ntidx_trace_open_memory(data, size, "fuzz", &t);
    if (rc != NTIDX_OK) {
        FUZZ_CHECK(t == NULL, "failed open returned a handle");
        check_message(rc, ntidx_last_error(), "open");
        return 0;
    }
    const ntidx_trace_info *info = ntidx_trace_get_info(t);
    FUZZ_CHECK(info->first_block_offset <= size, "first block past the input");
    walk_blocks(t, size);
    uint64_t ev_file, ev_time, below_file, below_time;
    int complete_file, complete_time, ranges_ok = 1, sorted_ok = 1;
    int rc_file = read_all(t, NTIDX_ORDER_FILE, data, size, &ev_file, &below_file, &complete_file, &ranges_ok);
    int rc_time = read_all(t, NTIDX_ORDER_TIME, data, size, &ev_time, &below_time, &complete_time, &sorted_ok);
    if (rc_file == 0 && rc_time == 0)
        FUZZ_CHECK(ev_file == ev_time && complete_file == complete_time,
                   "file order read %llu events, time order %llu", (unsigned long long)ev_file,
                   (unsigned long long)ev_time);
    ntidx_stats *s = NULL;
    rc = ntidx_stats_compute(t, &s);
    if (rc < 0)
        check_message(rc, ntidx_last_error(), "stats");
    else if (rc_file == 0)
        FUZZ_CHECK(s->events == ev_file, "stats counted %llu events, the read %llu", (unsigned long long)s->events,
                   (unsigned long long)ev_file);
    ntidx_stats_free(&s);
    through_index(t, 0, data, size, rc_file, below_file, ranges_ok, sorted_ok && rc_time == 0);
    through_index(t, 1, data, size, rc_file, below_file, ranges_ok, sorted_ok && rc_time == 0);
    ntidx_trace_close(&t);
    return 0;
}
