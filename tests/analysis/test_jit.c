/*
 * The JIT analysis (ntidx_jit_analyze) over traces written with the
 * runtime's JIT events (rt_trace.h), every figure known in advance, analysed
 * under every cut into units and thread count and over a --full index
 * (an_check.h): starts and loads in different regions, nested
 * compilations on one thread, a compilation that never ends and the load of
 * another method that TraceEvent then gives it, loads without a start,
 * windows and their lookahead. Thousands of compilations of two processes
 * over dozens of units: rows grouped by process in the order they began,
 * names stored once per unit, ntidx_jit_at()'s rows made on first call from
 * four threads at once. And the real .NET Core 3.0 trace against
 * TraceEvent's algorithm written out plainly (one pass, a list searched
 * backwards).
 */
#include <pthread.h>

#include "an_check.h"

#define MS RT_MS
#define US (RT_MS / 1000)

enum { QUICK = 3, OPTIMIZED = 2, TIER1 = 4, MINOPT = 1 };

/* The trace of the whole test (times in ms; threads 1..5; sequence points between many starts and loads):
     t1: 1.0 start Foo, 2.0 load it; 3.0 start Bar, 3.2 start Nested (inside Bar's compilation), 4.0 load Nested,
         5.0 load Bar
     t2: 2.5 start Dead (never loaded); 6.0 start Live, 7.0 load Live; 8.0 load Orphan (version 1, tier 1) without a
         start: TraceEvent gives it to Dead, the thread's latest record still open
     t3: 9.0 load NoStart without a start (a record of its own); 9.5 a load of precompiled code (ignored);
         10.0 a Method/Load without a start (a record without a name)
     t4: 11.0 start Lone (never loaded); 11.5 a start cut short (a field error)
     t5: 12.0 start ViaLoad, 13.0 its Method/Load (no name: the start's is kept) */
static uint8_t *jit_trace(int version, size_t *size)
{
    rt_trace rt;
    rt_begin(&rt, version, 4242);
    rt_jit_start(&rt, 1, 1 * MS, 1, 10, "N.A", "Foo", "void  (int32)");
    rt_seqpoint(&rt, 1 * MS + 500 * US);
    rt_method_load_verbose(&rt, 1, 1, 2 * MS, 1, 0x100, 0x1000, 100, RT_JITTED(QUICK), "N.A", "Foo", "void  (int32)", 0);
    rt_jit_start(&rt, 2, 2 * MS + 500 * US, 4, 7, "N.C", "Dead", "void  ()");
    rt_jit_start(&rt, 1, 3 * MS, 2, 20, "N.A", "Bar", "int32  ()");
    rt_jit_start(&rt, 1, 3 * MS + 200 * US, 3, 5, "N.B", "Nested", "void  ()");
    rt_seqpoint(&rt, 3 * MS + 500 * US);
    rt_method_load_verbose(&rt, 1, 1, 4 * MS, 3, 0x100, 0x2000, 50, RT_JITTED(QUICK), "N.B", "Nested", "void  ()", 0);
    rt_seqpoint(&rt, 4 * MS + 500 * US);
    rt_method_load_verbose(&rt, 1, 1, 5 * MS, 2, 0x100, 0x3000, 70, RT_JITTED(OPTIMIZED), "N.A", "Bar", "int32  ()", 0);
    rt_jit_start(&rt, 2, 6 * MS, 5, 8, "N.C", "Live", "void  ()");
    rt_seqpoint(&rt, 6 * MS + 500 * US);
    rt_method_load_verbose(&rt, 1, 2, 7 * MS, 5, 0x100, 0x4000, 30, RT_JITTED(QUICK), "N.C", "Live", "void  ()", 0);
    rt_method_load_verbose(&rt, 2, 2, 8 * MS, 6, 0x100, 0x5000, 40, RT_JITTED(TIER1), "N.C", "Orphan", "void  ()", 1);
    rt_seqpoint(&rt, 8 * MS + 500 * US);
    rt_method_load_verbose(&rt, 1, 3, 9 * MS, 7, 0x100, 0x6000, 60, RT_JITTED(QUICK), "N.D", "NoStart",
                           "void  (class X)", 0);
    rt_method_load_verbose(&rt, 1, 3, 9 * MS + 500 * US, 9, 0x100, 0x6800, 60, 0x2, "N.D", "Precompiled", "void  ()", 0);
    rt_method_load(&rt, 3, 10 * MS, 8, 12, RT_JITTED(MINOPT));
    rt_jit_start(&rt, 4, 11 * MS, 9, 3, "N.E", "Lone", "void  ()");
    uint8_t three[3] = {1, 2, 3};
    rt_event(&rt, 145, 1, 4, 11 * MS + 500 * US, three, 3);
    rt_jit_start(&rt, 5, 12 * MS, 10, 9, "N.F", "ViaLoad", "void  ()");
    rt_seqpoint(&rt, 12 * MS + 500 * US);
    rt_method_load(&rt, 5, 13 * MS, 10, 33, RT_JITTED(QUICK));
    return rt_end(&rt, 1, size);
}

typedef struct want {
    const char *name;
    int64_t il, native;
    double jit_ms;
    const char *tier;
    double start_ms;
    uint32_t thread;
    int complete;
} want;

/* Thread i's id as the analyses report it: V6 gives OS thread ids (1000 + i), V5 the events' own (i). */
static uint64_t thread_base = 1000;

static void check(const ntidx_analysis *a, const want *w, size_t n)
{
    if (ntidx_jit_count(a) != n)
        fail_msg("%zu methods, want %zu", ntidx_jit_count(a), n);
    for (size_t i = 0; i < n; i++) {
        const ntidx_jit_method *m = ntidx_jit_at(a, i);
        if (strcmp(m->method_name, w[i].name))
            fail_msg("method %zu is %s, want %s", i, m->method_name, w[i].name);
        assert_int_equal(m->il_size, w[i].il);
        assert_int_equal(m->native_size, w[i].native);
        assert_ms(m->jit_time_ms, w[i].jit_ms);
        assert_string_equal(ntidx_jit_tier_name(m->optimization_tier, NULL, 0), w[i].tier);
        assert_ms(m->start_relative_ms, w[i].start_ms);
        assert_int_equal(m->thread, thread_base + w[i].thread);
        assert_int_equal(m->is_complete, w[i].complete);
        assert_int_equal(m->pid, 4242);
        /* the generic table says the same */
        assert_string_equal(an_cell(a, 0, i, "method_name").s, w[i].name);
        assert_string_equal(an_cell(a, 0, i, "optimization_tier").s, w[i].tier);
        assert_int_equal(an_cell(a, 0, i, "il_size").i, w[i].il);
        assert_int_equal(an_cell(a, 0, i, "native_size").i, w[i].native);
        assert_ms(an_cell(a, 0, i, "jit_time_ms").f, w[i].jit_ms);
        assert_ms(an_cell(a, 0, i, "start_relative_ms").f, w[i].start_ms);
        assert_int_equal(an_cell(a, 0, i, "is_complete").u, (uint64_t)w[i].complete);
    }
}

static const want whole[] = {
    {"N.A.Foo(int32)", 10, 100, 1.0, "QuickJitted", 1.0, 1, 1},
    {"N.C.Dead()", 7, 40, 5.5, "OptimizedTier1", 2.5, 2, 1}, /* completed by Orphan's load, as TraceEvent does */
    {"N.A.Bar()", 20, 70, 2.0, "Optimized", 3.0, 1, 1},
    {"N.B.Nested()", 5, 50, 0.8, "QuickJitted", 3.2, 1, 1},
    {"N.C.Live()", 8, 30, 1.0, "QuickJitted", 6.0, 2, 1},
    {"N.D.NoStart(class X)", 0, 60, 0.0, "QuickJitted", 9.0, 3, 1},
    {"", 0, 12, 0.0, "MinOptJitted", 10.0, 3, 1},
    {"N.E.Lone()", 3, 0, 0.0, "Unknown", 11.0, 4, 0},
    {"N.F.ViaLoad()", 9, 33, 1.0, "QuickJitted", 12.0, 5, 1},
};

static void test_whole(void **state)
{
    (void)state;
    for (int v = 5; v <= 6; v++) {
        size_t size;
        uint8_t *data = jit_trace(v, &size);
        analysed an;
        an_open(&an, data, size, "jit");
        assert_true(ntidx_index_region_count(an.x) >= 6);
        an_analyse_default(&an, ntidx_jit_analyze);
        thread_base = v == 6 ? 1000 : 0;
        assert_string_equal(ntidx_analysis_name(an.a), "jit");
        check(an.a, whole, sizeof whole / sizeof whole[0]);
        const ntidx_jit_method *dead = ntidx_jit_at(an.a, 1);
        assert_int_equal(dead->version_id, 1);
        assert_string_equal(an_cell(an.a, 0, 1, "compilation_thread_kind").s, "TieredCompilationBackground");
        assert_string_equal(an_cell(an.a, 0, 0, "compilation_thread_kind").s, "Foreground");
        assert_int_equal(ntidx_jit_at(an.a, 0)->method_id, 1);
        assert_int_equal(ntidx_jit_at(an.a, 0)->module_id, 0x100);
        assert_int_equal(ntidx_jit_at(an.a, 0)->ts, 1 * MS);
        const ntidx_analysis_stats *st = ntidx_analysis_get_stats(an.a);
        assert_int_equal(st->events, 8 + 9);
        assert_int_equal(st->field_errors, 1);
        assert_int_equal(st->unmatched, 2); /* the loads of NoStart and of the nameless method */
        assert_int_equal(st->incomplete, 1); /* Lone */
        /* the totals per tier (Unknown, MinOptJitted, Optimized, QuickJitted, OptimizedTier1), then all */
        ntidx_table tb;
        assert_int_equal(ntidx_analysis_table(an.a, 1, &tb), NTIDX_OK);
        assert_string_equal(tb.name, "jit_summary");
        static const struct {
            const char *tier;
            uint64_t count, incomplete, foreground;
            double ms;
            int64_t il, native;
        } sums[] = {{"Unknown", 0, 1, 0, 0, 0, 0},         {"MinOptJitted", 1, 0, 1, 0, 0, 12},
                    {"Optimized", 1, 0, 1, 2.0, 20, 70},    {"QuickJitted", 5, 0, 5, 3.8, 32, 273},
                    {"OptimizedTier1", 1, 0, 0, 5.5, 7, 40}, {"all", 8, 1, 7, 11.3, 59, 395}};
        assert_int_equal(tb.rows, 6);
        for (size_t r = 0; r < 6; r++) {
            assert_string_equal(an_cell(an.a, 1, r, "optimization_tier").s, sums[r].tier);
            assert_int_equal(an_cell(an.a, 1, r, "count").u, sums[r].count);
            assert_int_equal(an_cell(an.a, 1, r, "incomplete").u, sums[r].incomplete);
            assert_int_equal(an_cell(an.a, 1, r, "count_foreground").u, sums[r].foreground);
            assert_int_equal(an_cell(an.a, 1, r, "count_background_tiered_compilation").u,
                             sums[r].count - sums[r].foreground);
            assert_ms(an_cell(an.a, 1, r, "total_jit_time_ms").f, sums[r].ms);
            assert_int_equal(an_cell(an.a, 1, r, "total_il_size").i, sums[r].il);
            assert_int_equal(an_cell(an.a, 1, r, "total_native_size").i, sums[r].native);
            assert_int_equal(an_cell(an.a, 1, r, "pid").u, 4242);
        }
        an_close(&an);
    }
}

static void test_windows(void **state)
{
    (void)state;
    size_t size;
    uint8_t *data = jit_trace(6, &size);
    analysed an;
    an_open(&an, data, size, "jit-windows");
    thread_base = 1000;
    ntidx_analysis_options o;
    ntidx_analysis_options_defaults(&o);
    /* the records begun before 3.1 ms, their ends found past the window: Bar's load comes after the start and
       load of Nested on its thread, Dead's after Live's; the lookahead pairs those with each other */
    o.t1 = 3 * MS + 100 * US;
    an_analyse(&an, ntidx_jit_analyze, &o);
    check(an.a, whole, 3);
    const ntidx_analysis_stats *st = ntidx_analysis_get_stats(an.a);
    assert_int_equal(st->incomplete, 0);
    assert_int_equal(st->unmatched, 0);
    assert_int_equal(st->lookahead_events, 6); /* 3.2 to 8.0 ms: then nothing is open */
    /* without a lookahead, Dead and Bar stay open */
    o.lookahead_seconds = 0;
    an_analyse(&an, ntidx_jit_analyze, &o);
    static const want open[] = {
        {"N.A.Foo(int32)", 10, 100, 1.0, "QuickJitted", 1.0, 1, 1},
        {"N.C.Dead()", 7, 0, 0.0, "Unknown", 2.5, 2, 0},
        {"N.A.Bar()", 20, 0, 0.0, "Unknown", 3.0, 1, 0},
    };
    check(an.a, open, 3);
    assert_int_equal(ntidx_analysis_get_stats(an.a)->incomplete, 2);
    /* a window that begins inside Bar's and Dead's compilations: their loads make records of their own, as
       TraceEvent's over the window's events alone, and are counted unmatched */
    ntidx_analysis_options_defaults(&o);
    o.t0 = 3 * MS + 100 * US;
    o.t1 = 12 * MS + 500 * US;
    an_analyse(&an, ntidx_jit_analyze, &o);
    static const want mid[] = {
        {"N.B.Nested()", 5, 50, 0.8, "QuickJitted", 3.2, 1, 1},
        {"N.A.Bar()", 0, 70, 0.0, "Optimized", 5.0, 1, 1},
        {"N.C.Live()", 8, 30, 1.0, "QuickJitted", 6.0, 2, 1},
        {"N.C.Orphan()", 0, 40, 0.0, "OptimizedTier1", 8.0, 2, 1},
        {"N.D.NoStart(class X)", 0, 60, 0.0, "QuickJitted", 9.0, 3, 1},
        {"", 0, 12, 0.0, "MinOptJitted", 10.0, 3, 1},
        {"N.E.Lone()", 3, 0, 0.0, "Unknown", 11.0, 4, 0},
        {"N.F.ViaLoad()", 9, 33, 1.0, "QuickJitted", 12.0, 5, 1}, /* its load past the window */
    };
    check(an.a, mid, sizeof mid / sizeof mid[0]);
    st = ntidx_analysis_get_stats(an.a);
    assert_int_equal(st->unmatched, 4);
    assert_int_equal(st->incomplete, 1);
    assert_int_equal(st->field_errors, 1);
    /* one thread's records */
    ntidx_analysis_options_defaults(&o);
    o.has_thread = 1;
    o.thread = 1001;
    an_analyse(&an, ntidx_jit_analyze, &o);
    static const want t1[] = {
        {"N.A.Foo(int32)", 10, 100, 1.0, "QuickJitted", 1.0, 1, 1},
        {"N.A.Bar()", 20, 70, 2.0, "Optimized", 3.0, 1, 1},
        {"N.B.Nested()", 5, 50, 0.8, "QuickJitted", 3.2, 1, 1},
    };
    check(an.a, t1, 3);
    /* an empty window: no records, the process's empty "all" row */
    ntidx_analysis_options_defaults(&o);
    o.t0 = o.t1 = 5 * MS;
    an_analyse(&an, ntidx_jit_analyze, &o);
    assert_int_equal(ntidx_jit_count(an.a), 0);
    ntidx_table tb;
    assert_int_equal(ntidx_analysis_table(an.a, 1, &tb), NTIDX_OK);
    assert_int_equal(tb.rows, 1);
    assert_string_equal(an_cell(an.a, 1, 0, "optimization_tier").s, "all");
    assert_int_equal(an_cell(an.a, 1, 0, "pid").u, 4242);
    char buf[8];
    assert_string_equal(ntidx_jit_tier_name(5, buf, sizeof buf), "OptimizedTier1OSR");
    assert_string_equal(ntidx_jit_tier_name(9, buf, sizeof buf), "9");
    an_close(&an);
}

/* ---- TraceEvent's algorithm, plainly: one pass in time order over a list searched backwards ---- */

/* ---- Many compilations of two processes ---- */

enum { MANY_STEPS = 2000, MANY_EVERY = 40, MANY_NAMES = 10, MANY_ORPHAN_EVERY = 97, PID_A = 4242, PID_B = 77 };

/* Thread t's process: with two, threads 1..3 are PID_A's and 4..7 PID_B's; else each its own, the later the
   smaller. */
static uint32_t many_pid(int processes, uint32_t t) { return processes == 2 ? (t < 4 ? PID_A : PID_B) : 900 - 10 * t; }

/* rt_begin() for V6 with the threads of `processes` processes (many_pid()). */
static void rt_begin_processes(rt_trace *rt, int processes)
{
    memset(rt, 0, sizeof *rt);
    ntidx_writer_options wo;
    ntidx_writer_options_defaults(&wo);
    wo.format_version = 6;
    wo.process_id = PID_A;
    rt->v6 = 1;
    rt->next_meta = 1;
    assert_int_equal(ntidx_writer_open_memory(&wo, &rt->w), NTIDX_OK);
    for (uint64_t i = 1; i < RT_THREADS; i++) {
        ntidx_thread th = {.index = i, .has_os_thread_id = 1, .os_thread_id = 1000 + i, .has_os_process_id = 1,
                           .os_process_id = many_pid(processes, (uint32_t)i)};
        assert_int_equal(ntidx_writer_add_thread(rt->w, &th), NTIDX_OK);
    }
}

/* What a row of the many-compilations trace must be. */
typedef struct many_rec {
    uint64_t ts, thread, method_id;
    uint32_t pid;
    char name[32];
    int64_t il, native;
    double jit_ms;
    int complete, tier;
} many_rec;

static many_rec many_want[MANY_STEPS + MANY_STEPS / MANY_ORPHAN_EVERY + 1];
static size_t many_n;

static int by_pid_then_ts(const void *a, const void *b)
{
    const many_rec *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return (x->ts > y->ts) - (x->ts < y->ts);
}

/* Step i (ts i * 100 ticks): compilation i starts on thread 1 + i % 7 (one of MANY_NAMES names), and the one
   begun three steps before is loaded on its thread (so a thread has at most one open at a time, and the loads
   of the three before a sequence point come after it: ends without a start for a unit of one region). Every
   MANY_ORPHAN_EVERY steps a load without a start on a thread with nothing open (a record of its own,
   unmatched). The last three are never loaded. The rows it must give in many_want, in their order. */
static uint8_t *many_trace(int processes, size_t *size)
{
    rt_trace rt;
    rt_begin_processes(&rt, processes);
    many_n = 0;
    for (uint32_t i = 0; i < MANY_STEPS; i++) {
        uint64_t ts = (uint64_t)i * 100 + 1000;
        uint32_t t = 1 + i % 7;
        if (i % MANY_EVERY == 0 && i)
            rt_seqpoint(&rt, ts - 50);
        char name[16];
        snprintf(name, sizeof name, "M%u", i % MANY_NAMES);
        rt_jit_start(&rt, t, ts, i + 1, 10 + i, "N.S", name, "void  (int32)");
        many_rec *w = &many_want[many_n++];
        *w = (many_rec){.ts = ts, .thread = 1000 + t, .method_id = i + 1, .pid = many_pid(processes, t), .il = 10 + i};
        snprintf(w->name, sizeof w->name, "N.S.%s(int32)", name);
        if (i >= 3) {
            uint32_t j = i - 3, tj = 1 + j % 7;
            rt_method_load_verbose(&rt, 1, tj, ts + 10, j + 1, 0x100, 0x1000, 100 + j, RT_JITTED(QUICK), "N.S", "X",
                                   "void  ()", 0);
            many_rec *o = NULL;
            for (size_t k = many_n; k-- > 0 && !o;)
                if (many_want[k].method_id == j + 1)
                    o = &many_want[k];
            assert_non_null(o);
            o->native = 100 + j;
            o->jit_ms = (double)(ts + 10 - o->ts) / RT_MS;
            o->complete = 1;
            o->tier = QUICK;
        }
        if (i % MANY_ORPHAN_EVERY == 0 && i >= 7) {
            uint32_t to = 1 + (i - 4) % 7; /* its compilation was loaded at step i - 1: nothing open */
            rt_method_load_verbose(&rt, 1, to, ts + 20, 100000 + i, 0x100, 0x9000, 7, RT_JITTED(TIER1), "N.U",
                                   i % 2 ? "Odd" : "Even", "void  ()", 0);
            many_rec *w2 = &many_want[many_n++];
            *w2 = (many_rec){.ts = ts + 20, .thread = 1000 + to, .method_id = 100000 + i,
                             .pid = many_pid(processes, to), .native = 7, .complete = 1, .tier = TIER1};
            snprintf(w2->name, sizeof w2->name, "N.U.%s()", i % 2 ? "Odd" : "Even");
        }
    }
    qsort(many_want, many_n, sizeof many_want[0], by_pid_then_ts);
    return rt_end(&rt, 1, size);
}

/* Threads that ask ntidx_jit_at() for every row at once, from different rows first, on an analysis whose rows
   were never asked for: whichever thread makes them first, all must get the same. */
typedef struct at_reader {
    const ntidx_analysis *a;
    size_t rows, start;
    const ntidx_jit_method **got; /* per row */
} at_reader;

static void *read_rows(void *arg)
{
    at_reader *r = arg;
    for (size_t n = 0; n < r->rows; n++) {
        size_t i = (r->start + n) % r->rows;
        if (!(r->got[i] = ntidx_jit_at(r->a, i)))
            return NULL;
    }
    return r;
}

/* Many compilations of `processes` processes: two (their totals added up as the rows are ordered), or seven
   (more than the analysis adds up that way: a pass of their own). */
static void check_many(int processes)
{
    size_t size;
    uint8_t *data = many_trace(processes, &size);
    analysed an;
    an_open(&an, data, size, "jit-many");
    size_t regions = ntidx_index_region_count(an.x);
    assert_true(regions >= MANY_STEPS / MANY_EVERY);
    an_analyse_default(&an, ntidx_jit_analyze); /* its first: units of one region each */
    const ntidx_analysis *a = an.a;
    assert_int_equal(ntidx_jit_count(a), many_n);
    const ntidx_analysis_stats *st = ntidx_analysis_get_stats(a);
    assert_int_equal(st->unmatched, MANY_STEPS / MANY_ORPHAN_EVERY);
    assert_int_equal(st->incomplete, 3);
    /* the table, before any ntidx_jit_at(): the processes by pid, each one's rows in the order they began */
    for (size_t i = 0; i < many_n; i++) {
        const many_rec *w = &many_want[i];
        if (an_cell(a, 0, i, "ts").u != w->ts)
            fail_msg("row %zu begins at %" PRIu64 ", want %" PRIu64, i, an_cell(a, 0, i, "ts").u, w->ts);
        assert_int_equal(an_cell(a, 0, i, "pid").u, w->pid);
        assert_int_equal(an_cell(a, 0, i, "thread").u, w->thread);
        assert_int_equal(an_cell(a, 0, i, "method_id").u, w->method_id);
        assert_string_equal(an_cell(a, 0, i, "method_name").s, w->name);
        assert_int_equal(an_cell(a, 0, i, "il_size").i, w->il);
        assert_int_equal(an_cell(a, 0, i, "native_size").i, w->native);
        assert_ms(an_cell(a, 0, i, "jit_time_ms").f, w->jit_ms);
        assert_ms(an_cell(a, 0, i, "start_relative_ms").f, (double)w->ts / RT_MS);
        assert_int_equal(an_cell(a, 0, i, "is_complete").u, (uint64_t)w->complete);
        assert_string_equal(an_cell(a, 0, i, "optimization_tier").s, ntidx_jit_tier_name(w->tier, NULL, 0));
    }
    /* the totals: per process, smaller pid first, a row per tier present and one for all */
    ntidx_table tb;
    assert_int_equal(ntidx_analysis_table(a, 1, &tb), NTIDX_OK);
    uint64_t row = 0;
    int seen = 0;
    for (size_t i = 0; i < many_n; seen++) {
        uint32_t pid = many_want[i].pid;
        int present[8] = {0};
        uint64_t complete = 0, incomplete = 0, native = 0;
        for (; i < many_n && many_want[i].pid == pid; i++) {
            present[many_want[i].tier] = 1;
            if (many_want[i].complete) {
                complete++;
                native += (uint64_t)many_want[i].native;
            } else {
                incomplete++;
            }
        }
        for (int t = 0; t < 8; t++)
            if (present[t]) {
                assert_int_equal(an_cell(a, 1, row, "pid").u, pid);
                assert_string_equal(an_cell(a, 1, row++, "optimization_tier").s, ntidx_jit_tier_name(t, NULL, 0));
            }
        assert_int_equal(an_cell(a, 1, row, "pid").u, pid);
        assert_string_equal(an_cell(a, 1, row, "optimization_tier").s, "all");
        assert_int_equal(an_cell(a, 1, row, "count").u, complete);
        assert_int_equal(an_cell(a, 1, row, "incomplete").u, incomplete);
        assert_int_equal(an_cell(a, 1, row++, "total_native_size").i, (int64_t)native);
    }
    assert_int_equal(tb.rows, row);
    assert_int_equal(seen, processes);
    /* ntidx_jit_at() from four threads at once: the same rows, saying what the cells say */
    enum { THREADS = 4 };
    at_reader r[THREADS];
    pthread_t tid[THREADS];
    for (int t = 0; t < THREADS; t++) {
        r[t] = (at_reader){a, many_n, many_n * (size_t)t / THREADS, calloc(many_n, sizeof(void *))};
        assert_non_null(r[t].got);
    }
    for (int t = 0; t < THREADS; t++)
        assert_int_equal(pthread_create(&tid[t], NULL, read_rows, &r[t]), 0);
    for (int t = 0; t < THREADS; t++) {
        void *ok;
        assert_int_equal(pthread_join(tid[t], &ok), 0);
        assert_non_null(ok);
    }
    const char *names[MANY_STEPS + MANY_STEPS / MANY_ORPHAN_EVERY + 1];
    size_t nnames = 0;
    for (size_t i = 0; i < many_n; i++) {
        for (int t = 1; t < THREADS; t++)
            assert_ptr_equal(r[t].got[i], r[0].got[i]);
        const ntidx_jit_method *m = r[0].got[i];
        assert_ptr_equal(m, ntidx_jit_at(a, i));
        assert_string_equal(m->method_name, many_want[i].name);
        assert_int_equal(m->ts, many_want[i].ts);
        assert_int_equal(m->pid, many_want[i].pid);
        assert_int_equal(m->thread, many_want[i].thread);
        assert_int_equal(m->method_id, many_want[i].method_id);
        assert_int_equal(m->native_size, many_want[i].native);
        assert_int_equal(m->is_complete, many_want[i].complete);
        assert_true(m->jit_time_ms == an_cell(a, 0, i, "jit_time_ms").f);
        assert_true(m->start_relative_ms == an_cell(a, 0, i, "start_relative_ms").f);
        assert_ptr_equal(m->method_name, an_cell(a, 0, i, "method_name").s);
        size_t k = 0;
        while (k < nnames && names[k] != m->method_name)
            k++;
        if (k == nnames)
            names[nnames++] = m->method_name;
    }
    /* each name stored once per unit (of one region here), not once per compilation */
    if (nnames > regions * (MANY_NAMES + 2))
        fail_msg("%zu copies of %d names over %zu units", nnames, MANY_NAMES + 2, regions);
    for (int t = 0; t < THREADS; t++)
        free(r[t].got);
    assert_null(ntidx_jit_at(a, many_n));
    an_close(&an);
}

static void test_many(void **state)
{
    (void)state;
    check_many(2);
    check_many(7);
}

typedef struct ref_rec {
    char name[512];
    int64_t il, native;
    double start_ms, jit_ms;
    uint64_t thread;
    int tier;
} ref_rec;

static double ms_of(const ntidx_trace *t, uint64_t ts)
{
    const ntidx_trace_info *ti = ntidx_trace_get_info(t);
    return (double)(int64_t)(ts - (uint64_t)ti->sync_ticks) * 1000.0 / (double)ti->tick_frequency;
}

static const char *str(const ntidx_values *v, const char *name)
{
    const ntidx_value *x = ntidx_values_find(v, name);
    return x && x->kind == NTIDX_VALUE_STRING ? x->str : "";
}

static int64_t num(const ntidx_values *v, const char *name)
{
    const ntidx_value *x = ntidx_values_find(v, name);
    return !x ? 0 : x->kind == NTIDX_VALUE_INT ? x->i : (int64_t)x->u;
}

static void ref_name(const ntidx_values *v, char *out, size_t n)
{
    const char *sig = str(v, "MethodSignature"), *paren = strchr(sig, '(');
    snprintf(out, n, "%s.%s%s", str(v, "MethodNamespace"), str(v, "MethodName"), paren ? paren : "");
}

static size_t reference(ntidx_trace *t, const ntidx_index *x, ref_rec *recs, size_t cap)
{
    ntidx_query_options qo;
    ntidx_query_options_defaults(&qo);
    qo.provider = RT_PROVIDER;
    qo.order = NTIDX_ORDER_TIME;
    ntidx_query *q;
    ntidx_values *v;
    assert_int_equal(ntidx_query_open(t, x, &qo, &q), NTIDX_OK);
    assert_int_equal(ntidx_values_new(&v), NTIDX_OK);
    const ntidx_event *ev;
    size_t n = 0;
    while (ntidx_query_next(q, &ev) == 1) {
        uint32_t id = ev->metadata->event_id;
        if (id != 141 && id != 143 && id != 145)
            continue;
        assert_int_equal(ntidx_values_decode(v, t, ev), NTIDX_OK);
        double ms = ms_of(t, ev->timestamp);
        if (id == 145) {
            assert_true(n < cap);
            recs[n] = (ref_rec){.il = num(v, "MethodILSize"), .start_ms = ms, .thread = ev->thread_id};
            ref_name(v, recs[n].name, sizeof recs[n].name);
            n++;
            continue;
        }
        uint32_t flags = (uint32_t)num(v, "MethodFlags");
        if (!(flags & 8))
            continue;
        ref_rec *r = NULL;
        for (size_t i = n; i-- > 0;)
            if (recs[i].thread == ev->thread_id) {
                if (recs[i].native > 0 || recs[i].jit_ms > 0)
                    continue;
                r = &recs[i];
                break;
            }
        if (!r) {
            assert_true(n < cap);
            r = &recs[n++];
            *r = (ref_rec){.start_ms = ms, .thread = ev->thread_id};
            if (id == 143)
                ref_name(v, r->name, sizeof r->name);
        }
        r->native = (int32_t)num(v, "MethodSize");
        r->jit_ms = ms - r->start_ms;
        if ((flags >> 7) & 7)
            r->tier = (flags >> 7) & 7;
    }
    ntidx_values_free(&v);
    ntidx_query_close(&q);
    return n;
}

/* The .NET Core 3.0 trace: 54 compilations, one never loaded. */
static void test_real(void **state)
{
    const char *dir = *state;
    char path[1024];
    snprintf(path, sizeof path, "%s/eventpipe-dotnetcore3.0-win-x64-objver4.nettrace", dir);
    analysed an;
    memset(&an, 0, sizeof an);
    assert_int_equal(ntidx_trace_open(path, &an.t), NTIDX_OK);
    assert_int_equal(ntidx_index_build(an.t, NULL, &an.x), NTIDX_OK);
    ntidx_index_options fo;
    ntidx_index_options_defaults(&fo);
    fo.full = 1;
    assert_int_equal(ntidx_index_build(an.t, &fo, &an.full), NTIDX_OK);
    an_analyse_default(&an, ntidx_jit_analyze);
    static ref_rec ref[256];
    size_t n = reference(an.t, an.x, ref, 256);
    assert_int_equal(n, 54);
    assert_int_equal(ntidx_jit_count(an.a), n);
    for (size_t i = 0; i < n; i++) {
        const ntidx_jit_method *m = ntidx_jit_at(an.a, i);
        assert_string_equal(m->method_name, ref[i].name);
        assert_int_equal(m->il_size, ref[i].il);
        assert_int_equal(m->native_size, ref[i].native);
        assert_int_equal(m->optimization_tier, ref[i].tier);
        assert_ms(m->start_relative_ms, ref[i].start_ms);
        assert_ms(m->jit_time_ms, ref[i].jit_ms);
    }
    const ntidx_analysis_stats *st = ntidx_analysis_get_stats(an.a);
    assert_int_equal(st->events, 54 + 53);
    assert_int_equal(st->incomplete, 1);
    assert_int_equal(st->field_errors, 0);
    ntidx_analysis_options o;
    ntidx_analysis_options_defaults(&o);
    ntidx_analysis *plain, *full;
    assert_int_equal(ntidx_jit_analyze(an.t, an.x, &o, &plain), NTIDX_OK);
    assert_int_equal(ntidx_jit_analyze(an.t, an.full, &o, &full), NTIDX_OK);
    assert_true(ntidx_analysis_get_stats(full)->bytes_read < ntidx_analysis_get_stats(plain)->bytes_read);
    ntidx_analysis_free(&plain);
    ntidx_analysis_free(&full);
    ntidx_analysis_free(&an.a);
    ntidx_index_close(&an.full);
    ntidx_index_close(&an.x);
    ntidx_trace_close(&an.t);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "../shared/traces";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole),
        cmocka_unit_test(test_windows),
        cmocka_unit_test(test_many),
        cmocka_unit_test_prestate(test_real, (void *)dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
