/*
 * The activities analysis (ntidx_activities_analyze) over traces of
 * EventSource Start/Stop events with activity ids and the runtime's
 * exception catches and thread pool waits (es_trace.h), every record known
 * in advance as TraceEvent's StartStopActivityComputer makes it (10,000
 * ticks a ms); analysed under every cut into units, on one and two
 * threads, over a --full index (an_check.h); a random run, the same under
 * every cut over several windows; the special providers TraceEvent knows.
 */
#include <pthread.h>

#include "an_check.h"
#include "es_trace.h"

#define MS RT_MS
#define PID 4242
#define APP "My-App"

typedef struct ids {
    uint8_t a[16], b[16], d[16], e[16], f[16], g[16], h[16], i[16], j[16], lone[16], odd[16], zero[16];
} ids;

static void make_ids(ids *x)
{
    memset(x, 0, sizeof *x);
    es_path(PID, (const uint32_t[]){1}, 1, x->a);
    es_path(PID, (const uint32_t[]){1, 1}, 2, x->b);
    es_path(PID, (const uint32_t[]){1, 1, 1}, 3, x->d);
    es_path(PID, (const uint32_t[]){2}, 1, x->e);
    es_path(PID, (const uint32_t[]){3}, 1, x->f);
    es_path(PID, (const uint32_t[]){4}, 1, x->g);
    es_path(PID, (const uint32_t[]){5}, 1, x->h);
    es_path(PID, (const uint32_t[]){6}, 1, x->i);
    es_path(PID, (const uint32_t[]){7}, 1, x->j);
    es_path(PID, (const uint32_t[]){9}, 1, x->lone);
    for (int k = 0; k < 16; k++) /* not an activity path */
        x->odd[k] = (uint8_t)(0x31 * k + 7);
}

/* A DiagnosticSource Activity1Start/Stop's payload: SourceName, EventName (UTF-16). */
static uint32_t ds_payload(uint8_t *p, const char *source, const char *event)
{
    uint32_t n = 0;
    for (const char *s = source;; s++) {
        p[n++] = (uint8_t)*s;
        p[n++] = 0;
        if (!*s)
            break;
    }
    for (const char *s = event;; s++) {
        p[n++] = (uint8_t)*s;
        p[n++] = 0;
        if (!*s)
            break;
    }
    return n;
}

static uint32_t ds_meta(rt_trace *rt, uint32_t event_id, const char *name)
{
    static const ntidx_field f[2] = {{.name = "SourceName", .type_code = NTIDX_TYPE_UTF16_STRING},
                                     {.name = "EventName", .type_code = NTIDX_TYPE_UTF16_STRING}};
    ntidx_metadata m = {.id = rt->next_meta, .provider = "Microsoft-Diagnostics-DiagnosticSource",
                        .event_id = event_id, .event_name = name, .opcode = -1, .level = 4, .has_fields = 1,
                        .field_count = 2, .fields = f};
    assert_int_equal(ntidx_writer_add_metadata(rt->w, &m), NTIDX_OK);
    return rt->next_meta++;
}

/* The handmade run (see want[] below for what it must give). */
static uint8_t *make_run(int version, const ids *x, size_t *size)
{
    rt_trace rt;
    rt_begin(&rt, version, PID);
    uint32_t work_start = es_meta(&rt, APP, 1, "WorkStart", -1); /* V4's EventSource metadata: the name says */
    uint32_t work_stop = es_meta(&rt, APP, 2, "WorkStop", -1);
    uint32_t req_start = es_meta(&rt, APP, 3, "Request", 1);     /* the opcode given */
    uint32_t req_stop = es_meta(&rt, APP, 4, "Request", 2);
    uint32_t tick = es_meta(&rt, APP, 5, "Tick", 0);
    uint32_t tpl = es_meta(&rt, "System.Threading.Tasks.TplEventSource", 10, "TaskWaitBegin", 1);
    uint32_t ds_start = ds_meta(&rt, 3, "Activity1Start"), ds_stop = ds_meta(&rt, 4, "Activity1Stop");
    uint8_t p[256];
    es_item(&rt, work_start, 1, 1 * MS, x->a, NULL, 1);
    es_item(&rt, req_start, 1, 2 * MS, x->b, x->a, 2);
    rt_seqpoint(&rt, 25 * MS / 10);
    es_item(&rt, req_start, 2, 3 * MS, x->d, x->b, 3); /* another thread, under B by its related id */
    es_item(&rt, tick, 1, 4 * MS, x->b, NULL, 0);
    rt_seqpoint(&rt, 45 * MS / 10);
    es_item(&rt, req_stop, 2, 5 * MS, x->d, NULL, 3);
    es_item(&rt, req_stop, 1, 6 * MS, x->b, NULL, 2);
    es_item(&rt, work_start, 1, 7 * MS, x->e, NULL, 4); /* no related id: thread 1's current, A */
    rt_seqpoint(&rt, 75 * MS / 10);
    es_item(&rt, work_stop, 1, 8 * MS, x->e, NULL, 4);
    es_item(&rt, work_stop, 1, 9 * MS, x->a, NULL, 1);
    rt_catch_start(&rt, 3, 10 * MS, x->zero, NULL);
    rt_catch_stop(&rt, 3, 105 * MS / 10, x->zero);
    rt_catch_start(&rt, 3, 11 * MS, x->zero, NULL); /* never stopped: a rethrow */
    rt_seqpoint(&rt, 115 * MS / 10);
    rt_catch_start(&rt, 3, 12 * MS, x->zero, NULL); /* under the one before, which shares its id */
    rt_catch_stop(&rt, 3, 125 * MS / 10, x->zero);  /* the latest: the id goes back to its creator */
    es_item(&rt, work_start, 3, 13 * MS, x->f, NULL, 5); /* under the open catch */
    es_item(&rt, work_stop, 3, 14 * MS, x->f, NULL, 5);
    es_item(&rt, work_start, 4, 15 * MS, x->g, NULL, 6); /* never stopped */
    rt_pool_wait(&rt, 4, 155 * MS / 10);                  /* thread 4 goes back to the pool: G is not current */
    es_item(&rt, req_start, 4, 16 * MS, x->h, NULL, 7);
    rt_seqpoint(&rt, 165 * MS / 10);
    es_item(&rt, req_stop, 4, 17 * MS, x->h, NULL, 7);
    es_item(&rt, work_stop, 2, 175 * MS / 10, x->lone, NULL, 8); /* no start: unmatched */
    es_event(&rt, ds_start, 4, 18 * MS, x->i, NULL, p, ds_payload(p, "Microsoft.AspNetCore", "Microsoft.AspNetCore.Hosting.BeginRequest"));
    es_event(&rt, ds_stop, 4, 19 * MS, x->i, NULL, p, ds_payload(p, "Microsoft.AspNetCore", "Microsoft.AspNetCore.Hosting.EndRequest"));
    rt_catch_start(&rt, 1, 195 * MS / 10, x->zero, NULL); /* a catch inside a catch, both ended */
    rt_catch_start(&rt, 1, 196 * MS / 10, x->zero, NULL);
    rt_catch_stop(&rt, 1, 197 * MS / 10, x->zero);
    rt_catch_stop(&rt, 1, 198 * MS / 10, x->zero); /* the outer one's: its id came back to it */
    es_item(&rt, work_start, 1, 20 * MS, x->odd, NULL, 9); /* not an activity path: passed by */
    es_item(&rt, tpl, 1, 21 * MS, x->j, NULL, 0);         /* the TPL's: not an EventSource's Start */
    rt_buf tl = {0};
    rt_u32(&tl, 1);
    rt_u16(&tl, 9);
    es_event(&rt, es_rt_meta(&rt, 73, 0), 1, 21 * MS + 1, x->j, NULL, tl.b, tl.n); /* TypeLoad/Start: the runtime's */
    es_item(&rt, work_start, 2, 22 * MS, x->j, NULL, 10); /* never stopped */
    return rt_end(&rt, 1, size);
}

typedef struct want {
    const char *provider, *name;
    const uint8_t *id, *parent; /* parent NULL: none */
    uint32_t thread;
    double start, duration;     /* duration < 0: incomplete */
    uint32_t depth;
} want;

static void check(const ntidx_analysis *a, rt_trace *rt, const want *w, size_t n)
{
    if (ntidx_activity_count(a) != n) {
        for (size_t i = 0; i < ntidx_activity_count(a); i++) {
            const ntidx_activity *x = ntidx_activity_at(a, i);
            print_message("  %s/%s %.3f thread %" PRIu64 "\n", x->provider, x->name, x->start_relative_ms, x->thread);
        }
        fail_msg("%zu activities, want %zu", ntidx_activity_count(a), n);
    }
    for (size_t i = 0; i < n; i++) {
        const ntidx_activity *x = ntidx_activity_at(a, i);
        if (strcmp(x->provider, w[i].provider) || strcmp(x->name, w[i].name) || memcmp(x->activity_id, w[i].id, 16) ||
            x->thread != rt_tid(rt, w[i].thread) || x->has_parent != (w[i].parent != NULL) ||
            (w[i].parent && memcmp(x->parent_activity_id, w[i].parent, 16)) || x->depth != w[i].depth ||
            x->is_complete != (w[i].duration >= 0))
            fail_msg("activity %zu: %s/%s at %.3f on thread %" PRIu64 ", parent %d, depth %u, complete %d; want %s/%s "
                     "at %.3f on thread %u, parent %d, depth %u, complete %d",
                     i, x->provider, x->name, x->start_relative_ms, x->thread, x->has_parent, x->depth, x->is_complete,
                     w[i].provider, w[i].name, w[i].start, w[i].thread, w[i].parent != NULL, w[i].depth,
                     w[i].duration >= 0);
        assert_ms(x->start_relative_ms, w[i].start);
        assert_ms(x->duration_ms, w[i].duration >= 0 ? w[i].duration : 0);
        assert_int_equal(x->pid, PID);
        assert_int_equal(x->ts, (uint64_t)(w[i].start * MS));
        /* the table says the same */
        char guid[37];
        ntidx_guid_format(w[i].id, guid);
        assert_string_equal(an_cell(a, 0, i, "activity_id").s, guid);
        ntidx_table_cell parent = an_cell(a, 0, i, "parent_activity_id");
        assert_int_equal(parent.is_null, w[i].parent == NULL);
        if (w[i].parent) {
            ntidx_guid_format(w[i].parent, guid);
            assert_string_equal(parent.s, guid);
        }
        assert_int_equal(an_cell(a, 0, i, "is_complete").u, (uint64_t)(w[i].duration >= 0));
    }
}

#define RT "Microsoft-Windows-DotNETRuntime"
#define DS "Microsoft-Diagnostics-DiagnosticSource"

static void run_of_version(int version)
{
    ids x;
    make_ids(&x);
    size_t size;
    uint8_t *data = make_run(version, &x, &size);
    analysed an;
    an_open(&an, data, size, "activities");
    ntidx_analysis_options o;
    ntidx_analysis_options_defaults(&o);
    an_analyse(&an, ntidx_activities_analyze, &o);
    rt_trace rt = {.v6 = version == 6};
    const want all[] = {
        {APP, "Work", x.a, NULL, 1, 1, 8, 0},
        {APP, "Request", x.b, x.a, 1, 2, 4, 1},
        {APP, "Request", x.d, x.b, 2, 3, 2, 2},
        {APP, "Work", x.e, x.a, 1, 7, 1, 1},
        {RT, "ExceptionHandling", x.zero, NULL, 3, 10, 0.5, 0},
        {RT, "ExceptionHandling", x.zero, NULL, 3, 11, -1, 0},
        {RT, "ExceptionHandling", x.zero, x.zero, 3, 12, 0.5, 1},
        {APP, "Work", x.f, x.zero, 3, 13, 1, 1},
        {APP, "Work", x.g, NULL, 4, 15, -1, 0},
        {APP, "Request", x.h, NULL, 4, 16, 1, 0},
        {DS, "Microsoft.AspNetCore.Hosting.BeginRequest", x.i, NULL, 4, 18, 1, 0},
        {RT, "ExceptionHandling", x.zero, NULL, 1, 19.5, 0.3, 0},
        {RT, "ExceptionHandling", x.zero, x.zero, 1, 19.6, 0.1, 1},
        {APP, "Work", x.j, NULL, 2, 22, -1, 0},
    };
    check(an.a, &rt, all, sizeof all / sizeof all[0]);
    const ntidx_analysis_stats *st = ntidx_analysis_get_stats(an.a);
    assert_int_equal(st->events, 28);
    assert_int_equal(st->unmatched, 1);
    assert_int_equal(st->incomplete, 3);
    assert_int_equal(st->field_errors, 0);
    assert_string_equal(an_cell(an.a, 0, 0, "activity_path").s, "/#4242/1/");
    assert_string_equal(an_cell(an.a, 0, 2, "activity_path").s, "/#4242/1/1/1/");
    assert_string_equal(an_cell(an.a, 0, 4, "activity_path").s, "00000000-0000-0000-0000-000000000000");
    assert_int_equal(ntidx_activity_at(an.a, 2)->parent, 1);
    assert_int_equal(ntidx_activity_at(an.a, 0)->parent, -1);
    /* the summary, per provider and name in the order of their first activity */
    ntidx_table tb;
    assert_int_equal(ntidx_analysis_table(an.a, 1, &tb), NTIDX_OK);
    assert_string_equal(tb.name, "activities_summary");
    assert_int_equal(tb.rows, 4);
    assert_string_equal(an_cell(an.a, 1, 0, "name").s, "Work");
    assert_int_equal(an_cell(an.a, 1, 0, "count").u, 5);
    assert_int_equal(an_cell(an.a, 1, 0, "incomplete").u, 2);
    assert_ms(an_cell(an.a, 1, 0, "total_duration_ms").f, 10);
    assert_ms(an_cell(an.a, 1, 0, "max_duration_ms").f, 8);
    assert_ms(an_cell(an.a, 1, 0, "mean_duration_ms").f, 10.0 / 3);
    assert_string_equal(an_cell(an.a, 1, 2, "name").s, "ExceptionHandling");
    assert_int_equal(an_cell(an.a, 1, 2, "count").u, 5);

    /* one thread's */
    o.has_thread = 1;
    o.thread = rt_tid(&rt, 3);
    an_analyse(&an, ntidx_activities_analyze, &o);
    check(an.a, &rt, all + 4, 4);
    assert_int_equal(ntidx_activity_at(an.a, 2)->parent, 1); /* the index among these records */

    /* a window, [5.5, 16.5) ms, as TraceEvent would compute its events alone: E's creator started before
       it, so E has none; the stops of B and A pair with nothing; H's stop is found past the window */
    ntidx_analysis_options_defaults(&o);
    o.t0 = 55 * MS / 10;
    o.t1 = 165 * MS / 10;
    an_analyse(&an, ntidx_activities_analyze, &o);
    const want win[] = {
        {APP, "Work", x.e, NULL, 1, 7, 1, 0},
        {RT, "ExceptionHandling", x.zero, NULL, 3, 10, 0.5, 0},
        {RT, "ExceptionHandling", x.zero, NULL, 3, 11, -1, 0},
        {RT, "ExceptionHandling", x.zero, x.zero, 3, 12, 0.5, 1},
        {APP, "Work", x.f, x.zero, 3, 13, 1, 1},
        {APP, "Work", x.g, NULL, 4, 15, -1, 0},
        {APP, "Request", x.h, NULL, 4, 16, 1, 0},
    };
    check(an.a, &rt, win, sizeof win / sizeof win[0]);
    assert_int_equal(ntidx_analysis_get_stats(an.a)->unmatched, 2);
    assert_int_equal(ntidx_analysis_get_stats(an.a)->incomplete, 2);
    assert_true(ntidx_analysis_get_stats(an.a)->lookahead_events > 0);
    /* without the lookahead, H is incomplete */
    o.lookahead_seconds = 0;
    an_analyse(&an, ntidx_activities_analyze, &o);
    assert_int_equal(ntidx_activity_count(an.a), 7);
    assert_false(ntidx_activity_at(an.a, 6)->is_complete);
    assert_int_equal(ntidx_analysis_get_stats(an.a)->incomplete, 3);
    an_close(&an);
}

static void test_run_v5(void **state)
{
    (void)state;
    run_of_version(5);
}

static void test_run_v6(void **state)
{
    (void)state;
    run_of_version(6);
}

/* The providers TraceEvent treats apart: ActivityTracking (any id), ApplicationInsights (Request only, not
   under a related activity), SqlClient's commands (Info events, ids of their own, under the thread's
   current activity), OpenTelemetry (Info events). A payload that does not fit its layout is skipped. */
static void test_special_providers(void **state)
{
    (void)state;
    uint8_t odd[16], odd2[16], m[16], zero[16] = {0}, related[16];
    for (int k = 0; k < 16; k++) {
        odd[k] = (uint8_t)(0x31 * k + 7);
        odd2[k] = (uint8_t)(0x17 * k + 3);
        related[k] = (uint8_t)(k + 1);
    }
    es_path(PID, (const uint32_t[]){8}, 1, m);
    rt_trace rt;
    rt_begin(&rt, 5, PID);
    uint32_t at_start = es_meta(&rt, "Microsoft-Diagnostics-ActivityTracking", 1, "ActivityStart", -1);
    uint32_t at_stop = es_meta(&rt, "Microsoft-Diagnostics-ActivityTracking", 2, "ActivityStop", -1);
    uint32_t ai_start = es_meta(&rt, "Microsoft-ApplicationInsights-Data", 1, "Request", 1);
    uint32_t ai_stop = es_meta(&rt, "Microsoft-ApplicationInsights-Data", 2, "Request", 2);
    uint32_t ai_op = es_meta(&rt, "Microsoft-ApplicationInsights-Data", 3, "Operation", 1);
    uint32_t app_start = es_meta(&rt, APP, 1, "Work", 1);
    uint32_t app_stop = es_meta(&rt, APP, 2, "Work", 2);
    static const ntidx_field obj = {.name = "objectId", .type_code = NTIDX_TYPE_INT32};
    ntidx_metadata begin = {.id = rt.next_meta++, .provider = "Microsoft-AdoNet-SystemData", .event_id = 1,
                            .event_name = "BeginExecute", .opcode = -1, .level = 4, .has_fields = 1,
                            .field_count = 1, .fields = &obj};
    ntidx_metadata end = begin;
    end.id = rt.next_meta++;
    end.event_id = 2;
    end.event_name = "EndExecute";
    assert_int_equal(ntidx_writer_add_metadata(rt.w, &begin), NTIDX_OK);
    assert_int_equal(ntidx_writer_add_metadata(rt.w, &end), NTIDX_OK);
    uint32_t otel_start = es_meta(&rt, "OpenTelemetry-Sdk", 24, "ActivityStarted", 0);
    uint32_t otel_stop = es_meta(&rt, "OpenTelemetry-Sdk", 25, "ActivityStopped", 0);
    es_item(&rt, at_start, 1, 1 * MS, odd, NULL, 0);
    es_item(&rt, at_stop, 1, 2 * MS, odd, NULL, 0);
    es_item(&rt, ai_start, 1, 3 * MS, odd2, related, 0); /* under another activity: not taken */
    es_item(&rt, ai_start, 1, 4 * MS, odd2, NULL, 0);
    rt_seqpoint(&rt, 45 * MS / 10);
    es_item(&rt, ai_stop, 1, 5 * MS, odd2, NULL, 0);
    es_item(&rt, ai_op, 1, 6 * MS, m, NULL, 0); /* not taken */
    es_item(&rt, app_start, 2, 7 * MS, m, NULL, 0);
    int32_t seven = 7;
    es_event(&rt, begin.id, 2, 8 * MS, zero, NULL, &seven, 4);
    rt_seqpoint(&rt, 85 * MS / 10);
    es_event(&rt, end.id, 2, 9 * MS, zero, NULL, &seven, 4);
    es_item(&rt, app_stop, 2, 10 * MS, m, NULL, 0);
    es_item(&rt, otel_start, 3, 11 * MS, odd, NULL, 0);
    es_item(&rt, otel_stop, 3, 12 * MS, odd, NULL, 0);
    uint8_t two[2] = {1, 2};
    es_event(&rt, app_start, 3, 13 * MS, m, NULL, two, 2); /* the payload does not fit: skipped */
    size_t size;
    uint8_t *data = rt_end(&rt, 1, &size);
    analysed an;
    an_open(&an, data, size, "special");
    ntidx_analysis_options o;
    ntidx_analysis_options_defaults(&o);
    an_analyse(&an, ntidx_activities_analyze, &o);
    static const uint8_t sql[16] = {7, 0, 0, 0, 0xD2, 0x04, 0x05, 0x00, 7, 7, 8, 9, 10, 11, 12, 13};
    const want w[] = {
        {"Microsoft-Diagnostics-ActivityTracking", "Activity", odd, NULL, 1, 1, 1, 0},
        {"Microsoft-ApplicationInsights-Data", "Request", odd2, NULL, 1, 4, 1, 0},
        {APP, "Work", m, NULL, 2, 7, 3, 0},
        {"Microsoft-AdoNet-SystemData", "SQLCommand", sql, m, 2, 8, 1, 1},
        {"OpenTelemetry-Sdk", "ActivityStarted", odd, NULL, 3, 11, 1, 0},
    };
    check(an.a, &rt, w, sizeof w / sizeof w[0]);
    assert_string_equal(an_cell(an.a, 0, 3, "activity_id").s, "00000007-04d2-0005-0707-08090a0b0c0d");
    assert_int_equal(ntidx_analysis_get_stats(an.a)->field_errors, 1);
    an_close(&an);
}

/* Threads that ask ntidx_analysis_cell() for every activity_id and activity_path at once, from different rows
   first: the blocks of kept strings are made by whichever thread comes first and the others must see the same. */
typedef struct cell_reader {
    const ntidx_analysis *a;
    size_t rows, start, id_col, path_col;
    const char **ids, **paths; /* what this thread got, per row */
} cell_reader;

static void *read_cells(void *arg)
{
    cell_reader *c = arg;
    for (size_t n = 0; n < c->rows; n++) {
        size_t i = (c->start + n) % c->rows;
        ntidx_table_cell v;
        if (ntidx_analysis_cell(c->a, 0, i, c->id_col, &v) != NTIDX_OK)
            return NULL;
        c->ids[i] = v.s;
        if (ntidx_analysis_cell(c->a, 0, i, c->path_col, &v) != NTIDX_OK)
            return NULL;
        c->paths[i] = v.s;
    }
    return c;
}

static void check_cells_on_threads(const ntidx_analysis *a, size_t rows)
{
    enum { THREADS = 4 };
    cell_reader r[THREADS];
    pthread_t tid[THREADS];
    for (int t = 0; t < THREADS; t++) {
        r[t] = (cell_reader){a, rows, rows * (size_t)t / THREADS, an_col(a, 0, "activity_id"),
                             an_col(a, 0, "activity_path"), calloc(rows, sizeof(char *)), calloc(rows, sizeof(char *))};
        assert_non_null(r[t].ids);
        assert_non_null(r[t].paths);
    }
    for (int t = 0; t < THREADS; t++)
        assert_int_equal(pthread_create(&tid[t], NULL, read_cells, &r[t]), 0);
    for (int t = 0; t < THREADS; t++) {
        void *ok;
        assert_int_equal(pthread_join(tid[t], &ok), 0);
        assert_non_null(ok);
    }
    for (size_t i = 0; i < rows; i++) {
        char id[37];
        ntidx_guid_format(ntidx_activity_at(a, i)->activity_id, id);
        for (int t = 0; t < THREADS; t++) { /* one kept copy, whichever thread made it */
            assert_ptr_equal(r[t].ids[i], r[0].ids[i]);
            assert_ptr_equal(r[t].paths[i], r[0].paths[i]);
        }
        assert_string_equal(r[0].ids[i], id);
    }
    for (int t = 0; t < THREADS; t++) {
        free(r[t].ids);
        free(r[t].paths);
    }
}

/* Many activities, their ids' text made per cell (cell_text.h): every row's id, parent and path are its own,
   through ntidx_analysis_cell() (kept in the analysis, a block of rows at a time, for as long as it) and
   ntidx_analysis_cell_buf() (into the caller's buffer). */
static void test_many_rows(void **state)
{
    (void)state;
    enum { N = 9000 };
    rt_trace rt;
    rt_begin(&rt, 5, PID);
    uint32_t start = es_meta(&rt, APP, 10, "Work", 1), stop = es_meta(&rt, APP, 11, "Work", 2);
    for (uint32_t n = 0; n < N; n++) {
        uint8_t id[16];
        uint32_t nums[4] = {1 + n % 10, 1 + n / 10 % 10, 1 + n / 100 % 10, 1 + n / 1000}; /* each 1..10 */
        es_path(PID, nums, 4, id);
        es_item(&rt, start, 1 + n % 4, 1000 + 10 * (uint64_t)n, id, NULL, (int)n);
        es_item(&rt, stop, 1 + n % 4, 1005 + 10 * (uint64_t)n, id, NULL, (int)n);
        if (n % 1000 == 999)
            rt_seqpoint(&rt, 1009 + 10 * (uint64_t)n);
    }
    size_t size;
    uint8_t *data = rt_end(&rt, 1, &size);
    analysed an;
    an_open(&an, data, size, "many");
    an_analyse_default(&an, ntidx_activities_analyze);
    assert_int_equal(ntidx_activity_count(an.a), N);
    check_cells_on_threads(an.a, N);
    ntidx_analysis *fresh = NULL; /* and once more where no cell was asked before */
    ntidx_analysis_options o;
    ntidx_analysis_options_defaults(&o);
    assert_int_equal(ntidx_activities_analyze(an.t, an.x, &o, &fresh), NTIDX_OK);
    check_cells_on_threads(fresh, N);
    ntidx_analysis_free(&fresh);
    static const char *kept_ids[N], *kept_paths[N];
    size_t id_col = an_col(an.a, 0, "activity_id"), path_col = an_col(an.a, 0, "activity_path");
    for (size_t i = 0; i < N; i++) {
        const ntidx_activity *x = ntidx_activity_at(an.a, i);
        char id[37], path[32];
        ntidx_guid_format(x->activity_id, id);
        snprintf(path, sizeof path, "/#%d/%zu/%zu/%zu/%zu/", PID, 1 + i % 10, 1 + i / 10 % 10, 1 + i / 100 % 10,
                 1 + i / 1000);
        kept_ids[i] = an_cell(an.a, 0, i, "activity_id").s;
        kept_paths[i] = an_cell(an.a, 0, i, "activity_path").s;
        assert_string_equal(kept_ids[i], id);
        assert_string_equal(kept_paths[i], path);
        assert_true(an_cell(an.a, 0, i, "parent_activity_id").is_null);
        assert_string_equal(an_cell(an.a, 0, i, "parent_activity_id").s, "00000000-0000-0000-0000-000000000000");
        /* the same text into a buffer, which the cell points at */
        char buf[NTIDX_CELL_BUF_SIZE];
        ntidx_table_cell v;
        assert_int_equal(ntidx_analysis_cell_buf(an.a, 0, i, id_col, &v, buf, sizeof buf), NTIDX_OK);
        assert_ptr_equal(v.s, buf);
        assert_string_equal(buf, id);
        assert_int_equal(ntidx_analysis_cell_buf(an.a, 0, i, path_col, &v, buf, sizeof buf), NTIDX_OK);
        assert_string_equal(v.s, path);
    }
    /* what ntidx_analysis_cell() gave stays: the same pointers, the same text, after every other cell */
    for (size_t i = 0; i < N; i++) {
        assert_ptr_equal(an_cell(an.a, 0, i, "activity_id").s, kept_ids[i]);
        assert_ptr_equal(an_cell(an.a, 0, i, "activity_path").s, kept_paths[i]);
        char id[37];
        ntidx_guid_format(ntidx_activity_at(an.a, i)->activity_id, id);
        assert_string_equal(kept_ids[i], id);
    }
    /* a buffer below NTIDX_CELL_BUF_SIZE is refused, whatever the cell */
    char buf[NTIDX_CELL_BUF_SIZE];
    ntidx_table_cell v;
    assert_int_equal(ntidx_analysis_cell_buf(an.a, 0, 0, id_col, &v, buf, sizeof buf - 1), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_analysis_cell_buf(an.a, 0, N, id_col, &v, buf, sizeof buf), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_analysis_cell_buf(an.a, 0, 0, id_col, &v, NULL, sizeof buf), NTIDX_E_INVALID_ARG);
    an_close(&an);
}

/* ---- A random run: the same answer under every cut, over several windows ---- */

static uint8_t *make_random(uint64_t *first, uint64_t *last, size_t *size)
{
    rt_trace rt;
    rt_begin(&rt, 5, PID);
    uint32_t starts[3], stops[3];
    static const char *const names[3] = {"Work", "Request", "Step"};
    for (int k = 0; k < 3; k++) {
        starts[k] = es_meta(&rt, k == 1 ? "Other-Source" : APP, 10 + 2 * (uint32_t)k, names[k], 1);
        stops[k] = es_meta(&rt, k == 1 ? "Other-Source" : APP, 11 + 2 * (uint32_t)k, names[k], 2);
    }
    uint8_t open_ids[64][16];
    size_t nopen = 0;
    uint64_t seed = 4242, ts = 1000;
    uint32_t next = 1;
    *first = ts + 1;
    for (int n = 0; n < 1200; n++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t r = (uint32_t)(seed >> 33), th = 1 + r % 4, k = (r >> 4) % 3;
        ts += 1 + (r >> 8) % 200;
        uint32_t what = (r >> 16) % 16;
        if (what < 7 && nopen < 64) { /* a start, under an open one now and then, its id sometimes reused */
            uint8_t id[16];
            uint32_t nums[2] = {1 + next % 10, 1 + (next / 10) % 10};
            next = (r >> 20) % 5 == 0 ? next : next + 1;
            es_path(PID, nums, 2, id);
            const uint8_t *rel = nopen && (r >> 24) % 2 ? open_ids[(r >> 25) % nopen] : NULL;
            es_item(&rt, starts[k], th, ts, id, rel, n);
            memcpy(open_ids[nopen++], id, 16);
        } else if (what < 13 && nopen) { /* a stop of an open id (any thread, any name) */
            size_t i = (r >> 20) % nopen;
            es_item(&rt, stops[k], th, ts, open_ids[i], NULL, n);
            memcpy(open_ids[i], open_ids[--nopen], 16);
        } else if (what < 14) {
            rt_catch_start(&rt, th, ts, NULL, NULL);
        } else if (what < 15) {
            rt_catch_stop(&rt, th, ts, NULL);
        } else {
            rt_pool_wait(&rt, th, ts);
        }
        if ((r >> 12) % 9 == 0)
            rt_seqpoint(&rt, ts);
    }
    *last = ts;
    return rt_end(&rt, 1, size);
}

static void test_random(void **state)
{
    (void)state;
    uint64_t first, last;
    size_t size;
    uint8_t *data = make_random(&first, &last, &size);
    analysed an;
    an_open(&an, data, size, "random");
    assert_true(ntidx_index_region_count(an.x) > 50);
    uint64_t span = last - first;
    struct {
        uint64_t t0, t1;
        double ahead;
    } windows[] = {
        {0, UINT64_MAX, 10},
        {first + span / 3, first + 2 * span / 3, 0},
        {first + span / 3, first + 2 * span / 3, 0.0005},
        {first + span / 4, first + span / 2, 10},
    };
    uint64_t complete = 0, parents = 0;
    for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
        ntidx_analysis_options o;
        ntidx_analysis_options_defaults(&o);
        o.t0 = windows[w].t0;
        o.t1 = windows[w].t1;
        o.lookahead_seconds = windows[w].ahead;
        an_analyse(&an, ntidx_activities_analyze, &o);
        size_t n = ntidx_activity_count(an.a);
        assert_true(n > 20);
        for (size_t i = 0; i < n; i++) {
            const ntidx_activity *x = ntidx_activity_at(an.a, i);
            assert_true(x->ts >= o.t0 && x->ts < o.t1);
            if (i)
                assert_true(x->ts >= ntidx_activity_at(an.a, i - 1)->ts);
            complete += (uint64_t)x->is_complete;
            parents += (uint64_t)x->has_parent;
            if (x->parent >= 0) /* a creator starts before, and is its parent's depth + 1 */
                assert_int_equal(x->depth, ntidx_activity_at(an.a, (size_t)x->parent)->depth + 1);
        }
    }
    assert_true(complete > 50);
    assert_true(parents > 20);
    an_close(&an);
}

/* Traces without an activity: nothing, and nothing read (the .NET Core 3.0 trace's thread pool waits alone
   make no activity). */
static void test_real(void **state)
{
    const char *names[] = {"eventpipe-dotnetcore3.0-win-x64-objver4.nettrace", "only_managed_samples.nettrace"};
    for (size_t i = 0; i < 2; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", (const char *)*state, names[i]);
        analysed an;
        memset(&an, 0, sizeof an);
        assert_int_equal(ntidx_trace_open(path, &an.t), NTIDX_OK);
        assert_int_equal(ntidx_index_build(an.t, NULL, &an.x), NTIDX_OK);
        ntidx_index_options fo;
        ntidx_index_options_defaults(&fo);
        fo.full = 1;
        assert_int_equal(ntidx_index_build(an.t, &fo, &an.full), NTIDX_OK);
        ntidx_analysis_options o;
        ntidx_analysis_options_defaults(&o);
        an_analyse(&an, ntidx_activities_analyze, &o);
        assert_int_equal(ntidx_activity_count(an.a), 0);
        assert_int_equal(ntidx_analysis_get_stats(an.a)->event_blocks_read, 0);
        assert_int_equal(ntidx_analysis_get_stats(an.a)->regions, 0);
        ntidx_analysis *full;
        assert_int_equal(ntidx_activities_analyze(an.t, an.full, &o, &full), NTIDX_OK);
        assert_int_equal(ntidx_analysis_get_stats(full)->event_blocks_read, 0);
        assert_int_equal(ntidx_analysis_get_stats(full)->events, 0);
        ntidx_analysis_free(&full);
        ntidx_analysis_free(&an.a);
        ntidx_index_close(&an.full);
        ntidx_index_close(&an.x);
        ntidx_trace_close(&an.t);
    }
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "../shared/traces";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_v5),
        cmocka_unit_test(test_run_v6),
        cmocka_unit_test(test_special_providers),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_many_rows),
        cmocka_unit_test_prestate(test_real, (void *)dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
