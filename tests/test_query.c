/*
 * Queries through the side index equal a full scan filtered to the window,
 * event for event, in file and time order, with and without filters; seek
 * agrees with the scan. Traces: generated V5 and V6 (out-of-order threads,
 * drops, metadata and thread flushes, thread removal) and every real trace.
 * Also: an index written and loaded back answers the same, and a --full
 * index (Bloom filters) never loses an event.
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

#include <ntidx/index.h>
#include <ntidx/writer.h>

/* A seek: the first event at or after ts, a query with the seek option (recovery off: errors are the point). */
static int seek_at(ntidx_trace *t, const ntidx_index *x, uint64_t ts, ntidx_query **h, const ntidx_event **e)
{
    ntidx_query_options o;
    ntidx_query_options_seek(&o, ts);
    o.recover = 0;
    int rc = ntidx_query_open(t, x, &o, h);
    return rc < 0 ? rc : ntidx_query_next(*h, e);
}


static const char *traces_dir;

typedef struct ev {
    uint64_t ts, offset, thread;
    uint32_t event_id;
    const char *provider; /* interned: points into the names table */
    const char *name;
} ev;

typedef struct scan {
    ev *e;
    size_t n;
    char **names; /* provider and event names, owned */
    size_t nnames;
} scan;

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next_rand(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static const char *intern(scan *s, const char *str)
{
    for (size_t i = 0; i < s->nnames; i++)
        if (!strcmp(s->names[i], str))
            return s->names[i];
    s->names = realloc(s->names, (s->nnames + 1) * sizeof *s->names);
    s->names[s->nnames] = strdup(str);
    return s->names[s->nnames++];
}

static void full_scan(ntidx_trace *t, scan *s)
{
    memset(s, 0, sizeof *s);
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    size_t cap = 0;
    const ntidx_event *e;
    int rc;
    while ((rc = ntidx_reader_next(r, &e)) == 1) {
        if (s->n == cap) {
            cap = cap ? cap * 2 : 4096;
            s->e = realloc(s->e, cap * sizeof *s->e);
        }
        s->e[s->n++] = (ev){e->timestamp, e->offset, e->thread_id, e->metadata->event_id,
                            intern(s, e->metadata->provider), intern(s, e->metadata->event_name)};
    }
    assert_int_equal(rc, 0);
    ntidx_reader_close(&r);
}

static void free_scan(scan *s)
{
    for (size_t i = 0; i < s->nnames; i++)
        free(s->names[i]);
    free(s->names);
    free(s->e);
}

static int cmp_time(const void *a, const void *b)
{
    const ev *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int passes(const ev *e, const ntidx_query_options *o)
{
    return e->ts >= o->t0 && e->ts < o->t1 && (!o->provider || !strcmp(o->provider, e->provider)) &&
           (!o->has_event_id || o->event_id == e->event_id) && (!o->event_name || !strcmp(o->event_name, e->name)) &&
           (!o->has_thread || o->thread == e->thread);
}

/* One query against the scan; returns the number of events compared. */
static size_t check_query(ntidx_trace *t, const ntidx_index *x, const scan *s, const ev *by_time,
                          const ntidx_query_options *o)
{
    const ev *src = o->order == NTIDX_ORDER_TIME ? by_time : s->e;
    ntidx_query *q;
    assert_int_equal(ntidx_query_open(t, x, o, &q), NTIDX_OK);
    size_t k = 0, got = 0;
    const ntidx_event *e;
    int rc;
    while ((rc = ntidx_query_next(q, &e)) == 1) {
        while (k < s->n && !passes(&src[k], o))
            k++;
        if (k == s->n)
            fail_msg("%s: query returned an extra event at offset %llu (window [%llu,%llu))", ntidx_trace_name(t),
                     (unsigned long long)e->offset, (unsigned long long)o->t0, (unsigned long long)o->t1);
        if (src[k].offset != e->offset || src[k].ts != e->timestamp)
            fail_msg("%s: event %zu of window [%llu,%llu) order %d: expected offset %llu ts %llu, got %llu ts %llu",
                     ntidx_trace_name(t), got, (unsigned long long)o->t0, (unsigned long long)o->t1, o->order,
                     (unsigned long long)src[k].offset, (unsigned long long)src[k].ts, (unsigned long long)e->offset,
                     (unsigned long long)e->timestamp);
        k++;
        got++;
    }
    if (rc != 0)
        fail_msg("%s: %s", ntidx_trace_name(t), ntidx_last_error());
    if (!o->limit || got < o->limit) {
        while (k < s->n && !passes(&src[k], o))
            k++;
        if (k != s->n)
            fail_msg("%s: query missed the event at offset %llu (window [%llu,%llu), order %d)", ntidx_trace_name(t),
                     (unsigned long long)src[k].offset, (unsigned long long)o->t0, (unsigned long long)o->t1, o->order);
    }
    ntidx_query_close(&q);
    return got;
}

static uint64_t rand_ts(const scan *s, uint64_t lo, uint64_t hi)
{
    switch (next_rand() % 4) {
    case 0: return s->n ? s->e[next_rand() % s->n].ts : lo; /* exactly an event's time */
    case 1: return lo + (hi > lo ? next_rand() % (hi - lo + 1) : 0);
    case 2: return s->n ? s->e[next_rand() % s->n].ts + 1 : hi;
    default: return lo + (hi > lo ? next_rand() % (hi - lo + 1) : 0);
    }
}

static void check_stats_from_index(ntidx_trace *t, int windows);

static void check_trace(ntidx_trace *t, int windows)
{
    scan s;
    full_scan(t, &s);
    ev *by_time = malloc((s.n + 1) * sizeof *by_time);
    memcpy(by_time, s.e, s.n * sizeof *by_time);
    qsort(by_time, s.n, sizeof *by_time, cmp_time);
    /* Events at timestamp all ones (not a time) are outside every window: windows and seeks end below them. */
    size_t timed = s.n;
    while (timed > 0 && by_time[timed - 1].ts == UINT64_MAX)
        timed--;
    uint64_t lo = timed ? by_time[0].ts : 0, hi = timed ? by_time[timed - 1].ts : 0;
    for (int full = 0; full < 2; full++) {
        ntidx_index *x;
        ntidx_index_options io;
        ntidx_index_options_defaults(&io);
        io.full = full;
        assert_int_equal(ntidx_index_build(t, &io, &x), NTIDX_OK);
        if (full)
            assert_int_equal(ntidx_index_get_info(x)->events, s.n);
        /* The same index written and loaded back with its regions checked on first use (what large
           indexes get): each window goes to one of the two at random. */
        char ipath[] = "/tmp/ntidx-query-XXXXXX";
        int fd = mkstemp(ipath);
        assert_true(fd >= 0);
        close(fd);
        assert_int_equal(ntidx_index_write(x, ipath), NTIDX_OK);
        ntidx_index *loaded;
        ntidx_index_state st;
        assert_int_equal(ntidx_index_load(t, ipath, NTIDX_VERIFY_ON_USE, &loaded, &st), NTIDX_OK);
        unlink(ipath);
        size_t compared = 0;
        for (int w = 0; w < windows; w++) {
            ntidx_query_options o;
            ntidx_query_options_defaults(&o);
            uint64_t a = rand_ts(&s, lo, hi), b = rand_ts(&s, lo, hi);
            if (w == 0) {
                a = 0;
                b = UINT64_MAX; /* everything */
            }
            o.t0 = a < b ? a : b;
            o.t1 = a < b ? b : a;
            o.order = next_rand() % 2 ? NTIDX_ORDER_TIME : NTIDX_ORDER_FILE;
            if (s.n && next_rand() % 3 == 0) {
                const ev *pick = &s.e[next_rand() % s.n];
                switch (next_rand() % 4) {
                case 0: o.provider = pick->provider; break;
                case 1:
                    o.provider = pick->provider;
                    o.has_event_id = 1;
                    o.event_id = pick->event_id;
                    break;
                case 2:
                    o.has_thread = 1;
                    o.thread = pick->thread;
                    break;
                default:
                    if (pick->name[0])
                        o.event_name = pick->name;
                    break;
                }
            }
            if (next_rand() % 8 == 0)
                o.limit = 1 + next_rand() % 20;
            compared += check_query(t, next_rand() % 2 ? loaded : x, &s, by_time, &o);
        }
        assert_true(compared > 0 || s.n == 0);
        /* seek: the first event at or after T in time order */
        for (int k = 0; k < windows; k++) {
            uint64_t T = k == 0 ? 0 : k == 1 ? hi + 1 : rand_ts(&s, lo, hi);
            ntidx_query *h = NULL;
            const ntidx_event *e;
            int rc = seek_at(t, k % 2 ? loaded : x, T, &h, &e);
            size_t i = 0;
            while (i < timed && by_time[i].ts < T)
                i++;
            if (i == timed) {
                assert_int_equal(rc, 0);
            } else {
                assert_int_equal(rc, 1);
                assert_int_equal(e->offset, by_time[i].offset);
            }
            ntidx_query_close(&h);
        }
        ntidx_index_close(&loaded);
        ntidx_index_close(&x);
    }
    free(by_time);
    free_scan(&s);
    check_stats_from_index(t, windows / 4 + 2);
}

/* Two statistics results are the same, field for field (not regions_from_index). */
static void assert_same_stats(const ntidx_stats *a, const ntidx_stats *b)
{
    assert_int_equal(a->events, b->events);
    assert_int_equal(a->first_ts, b->first_ts);
    assert_int_equal(a->last_ts, b->last_ts);
    assert_int_equal(a->payload_bytes, b->payload_bytes);
    assert_int_equal(a->dropped_events, b->dropped_events);
    assert_int_equal(a->complete, b->complete);
    assert_int_equal(a->reader.blocks[NTIDX_BLOCK_EVENT], b->reader.blocks[NTIDX_BLOCK_EVENT]);
    assert_int_equal(a->type_count, b->type_count);
    for (size_t i = 0; i < a->type_count; i++) {
        const ntidx_type_stat *x = &a->types[i], *y = &b->types[i];
        assert_string_equal(x->provider, y->provider);
        assert_string_equal(x->event_name, y->event_name);
        assert_int_equal(x->event_id, y->event_id);
        assert_int_equal(x->version, y->version);
        assert_int_equal(x->count, y->count);
        assert_int_equal(x->first_ts, y->first_ts);
        assert_int_equal(x->payload_bytes, y->payload_bytes);
    }
    assert_int_equal(a->thread_count, b->thread_count);
    for (size_t i = 0; i < a->thread_count; i++) {
        assert_int_equal(a->threads[i].thread, b->threads[i].thread);
        assert_int_equal(a->threads[i].count, b->threads[i].count);
    }
    assert_int_equal(a->dropped_count, b->dropped_count);
    for (size_t i = 0; i < a->dropped_count; i++) {
        assert_int_equal(a->dropped[i].capture_thread, b->dropped[i].capture_thread);
        assert_int_equal(a->dropped[i].capture_thread_id, b->dropped[i].capture_thread_id);
        assert_int_equal(a->dropped[i].dropped, b->dropped[i].dropped);
    }
}

/*
 * A --full index answers the statistics of the regions wholly inside a window
 * from the counts it stores: the result equals decoding every region (plain
 * index), for random windows, built or loaded back, on one or two threads.
 */
static void check_stats_from_index(ntidx_trace *t, int windows)
{
    ntidx_index *plain, *full, *loaded;
    ntidx_index_options io;
    ntidx_index_options_defaults(&io);
    assert_int_equal(ntidx_index_build(t, &io, &plain), NTIDX_OK);
    io.full = 1;
    assert_int_equal(ntidx_index_build(t, &io, &full), NTIDX_OK);
    char ipath[] = "/tmp/ntidx-stats-XXXXXX";
    int fd = mkstemp(ipath);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(ntidx_index_write(full, ipath), NTIDX_OK);
    ntidx_index_state st;
    assert_int_equal(ntidx_index_load(t, ipath, NTIDX_VERIFY_ON_USE, &loaded, &st), NTIDX_OK);
    unlink(ipath);
    const ntidx_index_info *ii = ntidx_index_get_info(plain);
    uint64_t lo = ii->first_ts, hi = ii->last_ts, from_index = 0;
    for (int w = 0; w < windows; w++) {
        ntidx_stats_options o;
        ntidx_stats_options_defaults(&o);
        if (w > 0 && lo <= hi) {
            uint64_t a = lo + next_rand() % (hi - lo + 1), b = lo + next_rand() % (hi - lo + 1);
            o.t0 = a < b ? a : b;
            o.t1 = (a < b ? b : a) + 1;
        }
        ntidx_stats *ref, *got;
        o.threads = 1;
        assert_int_equal(ntidx_stats_indexed(t, plain, &o, &ref), NTIDX_OK);
        assert_int_equal(ref->regions_from_index, 0);
        o.threads = 1 + (unsigned)(w % 2);
        assert_int_equal(ntidx_stats_indexed(t, w % 3 ? loaded : full, &o, &got), NTIDX_OK);
        assert_same_stats(ref, got);
        if (w == 0 && ref->events)
            assert_true(got->regions_from_index > 0); /* the whole trace: every region with events */
        from_index += got->regions_from_index;
        ntidx_stats_free(&got);
        /* a histogram needs timestamps: nothing from the index */
        o.buckets = 7;
        assert_int_equal(ntidx_stats_indexed(t, full, &o, &got), NTIDX_OK);
        assert_int_equal(got->regions_from_index, 0);
        assert_int_equal(got->events, ref->events);
        ntidx_stats_free(&got);
        ntidx_stats_free(&ref);
    }
    assert_true(from_index > 0 || lo > hi);
    ntidx_index_close(&loaded);
    ntidx_index_close(&full);
    ntidx_index_close(&plain);
}

static void test_generated(void **state)
{
    (void)state;
    for (int v = 5; v <= 6; v++) {
        for (int variant = 0; variant < 3; variant++) {
            ntidx_gen_options g;
            ntidx_gen_options_defaults(&g);
            g.format_version = v;
            g.events = 60000;
            g.seed = 11 + (uint64_t)variant;
            g.threads = variant == 0 ? 1 : 8;
            g.target_bytes = 0;
            if (variant == 2) {
                g.drop_rate = 0.02;
                if (v == 6) {
                    g.metadata_flush_every = 2;
                    g.thread_flush_every = 3;
                    g.remove_threads = 1;
                }
            }
            if (variant == 1)
                g.compressed_headers = 0;
            uint8_t *data;
            size_t size;
            assert_int_equal(ntidx_generate_memory(&g, &data, &size), NTIDX_OK);
            ntidx_trace *t;
            char name[64];
            snprintf(name, sizeof name, "gen-v%d-variant%d", v, variant);
            assert_int_equal(ntidx_trace_open_memory(data, size, name, &t), NTIDX_OK);
            check_trace(t, 120);
            ntidx_trace_close(&t);
            free(data);
        }
    }
}

/*
 * Events at the very end of time (timestamp all ones: a V6 tracer that lost
 * its clock, or a hostile file) lie outside every window, statistics' too:
 * a --full index still counts them in their blocks (and adds their type and
 * thread to the blocks' filters) but its region statistics must leave them
 * out, as decoding the regions does, types and threads seen only there
 * included. Three regions: one ordinary, one whose block holds only such
 * events, one that mixes them.
 */
static void test_end_of_time(void **state)
{
    (void)state;
    ntidx_writer_options wo;
    ntidx_writer_options_defaults(&wo);
    ntidx_writer *w;
    assert_int_equal(ntidx_writer_open_memory(&wo, &w), NTIDX_OK);
    for (uint64_t i = 1; i <= 3; i++) {
        ntidx_thread th = {.index = i, .has_os_thread_id = 1, .os_thread_id = 100 * i};
        assert_int_equal(ntidx_writer_add_thread(w, &th), NTIDX_OK);
    }
    ntidx_field f = {.name = "Value", .type_code = NTIDX_TYPE_UINT32};
    static const char *names[] = {"Tick", "Tock", "Late"};
    for (uint32_t id = 1; id <= 3; id++) {
        ntidx_metadata m = {.id = id, .provider = "Contoso-EndOfTime", .event_id = id, .event_name = names[id - 1],
                            .opcode = -1, .has_fields = 1, .field_count = 1, .fields = &f};
        assert_int_equal(ntidx_writer_add_metadata(w, &m), NTIDX_OK);
    }
    uint32_t seq[4] = {0};
    uint64_t ts = 1000;
    for (int region = 0; region < 3; region++) {
        for (int i = 0; i < 40; i++) {
            /* thread 3 and type 3 ("Late") only ever at the end of time */
            int late = region == 1 || (region == 2 && i % 3 == 0);
            uint32_t thread = late && i % 2 ? 3 : 1 + (uint32_t)(i % 2);
            uint8_t payload[4] = {(uint8_t)i, 0, 0, 0};
            ntidx_event ev = {.metadata_id = late && i % 4 < 2 ? 3 : 1 + (uint32_t)(i % 2),
                              .sequence_number = ++seq[thread], .thread_index = thread,
                              .capture_thread_index = thread, .timestamp = late ? UINT64_MAX : ts,
                              .payload = payload, .payload_size = 4};
            assert_int_equal(ntidx_writer_add_event(w, &ev), NTIDX_OK);
            ts += 10;
        }
        ntidx_thread_seq ts3[3] = {{1, seq[1]}, {2, seq[2]}, {3, seq[3]}};
        if (region < 2)
            assert_int_equal(ntidx_writer_sequence_point(w, ts, 0, ts3, 3), NTIDX_OK);
    }
    assert_int_equal(ntidx_writer_finish(w), NTIDX_OK);
    size_t size;
    const uint8_t *bytes = ntidx_writer_memory(w, &size);
    uint8_t *data = malloc(size);
    assert_non_null(data);
    memcpy(data, bytes, size);
    assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
    ntidx_trace *t;
    assert_int_equal(ntidx_trace_open_memory(data, size, "end-of-time", &t), NTIDX_OK);
    check_trace(t, 60);
    /* The statistics (from the index or not) never name the thread or type seen only at the end of time. */
    ntidx_index *full;
    ntidx_index_options io;
    ntidx_index_options_defaults(&io);
    io.full = 1;
    assert_int_equal(ntidx_index_build(t, &io, &full), NTIDX_OK);
    assert_int_equal(ntidx_index_get_info(full)->events, 120);
    ntidx_stats_options so;
    ntidx_stats_options_defaults(&so);
    ntidx_stats *st;
    assert_int_equal(ntidx_stats_indexed(t, full, &so, &st), NTIDX_OK);
    assert_true(st->regions_from_index > 0);
    assert_true(st->events > 0 && st->events < 120);
    for (size_t i = 0; i < st->thread_count; i++)
        assert_true(st->threads[i].thread != 300);
    for (size_t i = 0; i < st->type_count; i++)
        assert_true(strcmp(st->types[i].event_name, "Late") != 0);
    ntidx_stats_free(&st);
    ntidx_index_close(&full);
    ntidx_trace_close(&t);
    free(data);
}

static void test_real_traces(void **state)
{
    (void)state;
    static const char *files[] = {
        "eventpipe-dotnetcore2.1-linux-x64-objver3.netperf", "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace",
        "eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace",
        "eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace", "only_managed_samples.nettrace"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", traces_dir, files[i]);
        ntidx_trace *t;
        if (ntidx_trace_open(path, &t) != NTIDX_OK)
            fail_msg("%s", ntidx_last_error());
        check_trace(t, 150);
        ntidx_trace_close(&t);
    }
}

/* Written, loaded back: the same answers; the identity checks see growth and rewrites. */
static void test_write_load_identity(void **state)
{
    (void)state;
    char dir[] = "/tmp/ntidx-test-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char tpath[256], ipath[256];
    snprintf(tpath, sizeof tpath, "%s/t.nettrace", dir);
    snprintf(ipath, sizeof ipath, "%s/t.nettrace.ntidx", dir);
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    g.events = 30000;
    g.seed = 99;
    g.finish = 0; /* a trace still being written */
    uint8_t *data;
    size_t size;
    assert_int_equal(ntidx_generate_memory(&g, &data, &size), NTIDX_OK);
    /* the first 60% of it, cut at an arbitrary byte: an incomplete trace */
    FILE *f = fopen(tpath, "wb");
    size_t cut = size * 6 / 10;
    fwrite(data, 1, cut, f);
    fclose(f);
    ntidx_trace *t;
    assert_int_equal(ntidx_trace_open(tpath, &t), NTIDX_OK);
    ntidx_index *x;
    assert_int_equal(ntidx_index_build(t, NULL, &x), NTIDX_OK);
    assert_false(ntidx_index_get_info(x)->complete);
    assert_int_equal(ntidx_index_write(x, ipath), NTIDX_OK);
    ntidx_index *y;
    ntidx_index_state st;
    assert_int_equal(ntidx_index_load(t, ipath, NTIDX_VERIFY_AUTO, &y, &st), NTIDX_OK);
    assert_int_equal(st, NTIDX_INDEX_CURRENT);
    assert_int_equal(ntidx_index_get_info(y)->blocks, ntidx_index_get_info(x)->blocks);
    check_trace(t, 40);
    ntidx_index_close(&y);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
    /* the writer goes on: the trace grows, the index extends to equal a fresh one */
    f = fopen(tpath, "ab");
    fwrite(data + cut, 1, size - cut, f);
    fclose(f);
    assert_int_equal(ntidx_trace_open(tpath, &t), NTIDX_OK);
    /* checked on first use: extending it checks it whole first */
    assert_int_equal(ntidx_index_load(t, ipath, NTIDX_VERIFY_ON_USE, &y, &st), NTIDX_OK);
    assert_int_equal(st, NTIDX_INDEX_GROWN);
    ntidx_index *z, *fresh;
    assert_int_equal(ntidx_index_extend(t, y, NULL, &z), NTIDX_OK);
    assert_int_equal(ntidx_index_build(t, NULL, &fresh), NTIDX_OK);
    char p1[300], p2[300];
    snprintf(p1, sizeof p1, "%s/ext.ntidx", dir);
    snprintf(p2, sizeof p2, "%s/fresh.ntidx", dir);
    assert_int_equal(ntidx_index_write(z, p1), NTIDX_OK);
    assert_int_equal(ntidx_index_write(fresh, p2), NTIDX_OK);
    /* byte for byte the same file */
    FILE *a = fopen(p1, "rb"), *b = fopen(p2, "rb");
    int ca, cb;
    size_t pos = 0;
    do {
        ca = fgetc(a);
        cb = fgetc(b);
        if (ca != cb)
            fail_msg("extended index differs from a fresh one at byte %zu", pos);
        pos++;
    } while (ca != EOF);
    fclose(a);
    fclose(b);
    ntidx_index_close(&z);
    ntidx_index_close(&fresh);
    ntidx_index_close(&y);
    ntidx_trace_close(&t);
    /* rewritten in place (same size, one byte changed in the first MiB): stale, never used */
    f = fopen(tpath, "r+b");
    fseek(f, 100, SEEK_SET);
    fputc(data[100] ^ 0x55, f);
    fclose(f);
    assert_int_equal(ntidx_trace_open(tpath, &t), NTIDX_OK);
    assert_int_equal(ntidx_index_load(t, ipath, NTIDX_VERIFY_AUTO, &y, &st), NTIDX_E_INDEX_STALE);
    assert_null(y);
    ntidx_trace_close(&t);
    free(data);
    unlink(p1);
    unlink(p2);
    unlink(ipath);
    unlink(tpath);
    rmdir(dir);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s TRACES_DIR\n", argv[0]);
        return 2;
    }
    traces_dir = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generated),
        cmocka_unit_test(test_end_of_time),
        cmocka_unit_test(test_real_traces),
        cmocka_unit_test(test_write_load_identity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
