/*
 * The exceptions analysis (ntidx_exceptions_analyze) over traces written
 * with the runtime's Exception/Start events and stacks, and the method and
 * module events that name their frames (rt_trace.h), analysed under every
 * cut into units and thread count and over a --full index (an_check.h):
 * the thrower is the innermost frame in a known method past the runtime's
 * managed dispatch (System.Runtime.EH), named module!method; throws of one
 * type and message from different stacks of one thrower are one row.
 */
#include "an_check.h"

#include <ntidx/symbols.h>

#include "ops_internal.h" /* ntx_symbolizer_lookup_span(): linked statically for it */

#define MS RT_MS

enum {
    THROWER = 0x10000, MAIN = 0x20000, OTHER = 0x30000, DISPATCH = 0x40000, HELPER = 0x50000, NO_MODULE = 0x60000,
    NATIVE = 0xdead0
};

/* MethodFlags' Jitted bit: TraceEvent names an address by a jitted method's load (a precompiled one's names
   nothing until the rundown or an unload does), so the methods here are jitted. */
#define JITTED 0x8u

static void methods(rt_trace *rt)
{
    rt_module_load(rt, 1, MS / 10, 0x100, "/app/MyApp.dll");
    /* CoreLib in lower case (a case-insensitive file system's path): the dispatch is recognized all the same; module
       names come out in lower case anyway, as TraceEvent spells the modules whose load event it met first */
    rt_module_load(rt, 1, MS / 10, 0x200, "/usr/share/dotnet/shared/system.private.corelib.dll");
    rt_method_load_verbose(rt, 1, 1, MS / 5, 1, 0x100, THROWER, 0x100, JITTED, "MyApp.Program", "Thrower", "void  (int32)", 0);
    rt_method_load_verbose(rt, 1, 1, MS / 5, 2, 0x100, MAIN, 0x100, JITTED, "MyApp.Program", "Main", "void  ()", 0);
    rt_method_load_verbose(rt, 1, 1, MS / 5, 3, 0x200, DISPATCH, 0x100, JITTED, "System.Runtime.EH", "DispatchEx",
                           "void  (class X)", 0);
    rt_method_load_verbose(rt, 1, 1, MS / 5, 4, 0x200, HELPER, 0x100, JITTED, "System.ThrowHelper", "Throw", "void  ()", 0);
    rt_method_load_verbose(rt, 1, 1, MS / 5, 5, 0x999, NO_MODULE, 0x100, JITTED, "Lost.Type", "NoModule", "void  ()", 0);
}

/* Exceptions over three regions (stacks are defined again after each sequence point). */
static uint8_t *exc_trace(int version, size_t *size)
{
    rt_trace rt;
    rt_begin(&rt, version, 4242);
    methods(&rt);
    const uint64_t s1[] = {NATIVE, DISPATCH + 0x10, THROWER + 0x10, MAIN + 0x10};
    const uint64_t s2[] = {DISPATCH + 0x10, THROWER + 0x20, OTHER + 0x10};
    rt_stack(&rt, 1, s1, 4);
    rt_stack(&rt, 2, s2, 3);
    rt_exception(&rt, 1, 1 * MS, "System.InvalidOperationException", "boom", 1);
    rt_exception(&rt, 2, 2 * MS, "System.InvalidOperationException", "boom", 2);
    rt_seqpoint(&rt, 2 * MS + MS / 2);
    const uint64_t s3[] = {HELPER + 0x10, MAIN + 0x10};
    const uint64_t s4[] = {NATIVE, NATIVE + 0x100};
    rt_stack(&rt, 1, s3, 2);
    rt_stack(&rt, 2, s4, 2);
    rt_exception(&rt, 1, 3 * MS, "System.FormatException", "bad\nformat", 1);
    rt_exception(&rt, 3, 4 * MS, "System.Exception", "no stack", 0);
    rt_exception(&rt, 3, 5 * MS, "System.Exception", "native only", 2);
    rt_seqpoint(&rt, 5 * MS + MS / 2);
    const uint64_t s5[] = {NO_MODULE + 0x10, MAIN + 0x10};
    rt_stack(&rt, 1, s1, 4);
    rt_stack(&rt, 2, s5, 2);
    rt_exception(&rt, 1, 6 * MS, "System.InvalidOperationException", "boom", 1);
    rt_exception(&rt, 2, 7 * MS, "System.InvalidOperationException", "boom", 2);
    uint8_t three[3] = {'a', 0, 'b'};
    rt_event(&rt, 80, 1, 2, 7 * MS + MS / 2, three, 3); /* cut short: no string end */
    rt_event(&rt, 80, 0, 2, 8 * MS, NULL, 0);           /* version 0: no fields */
    /* a method named only after the exceptions (as the rundown at a trace's end names them) */
    rt_method_load_verbose(&rt, 1, 1, 9 * MS, 6, 0x100, OTHER, 0x100, JITTED, "MyApp.Program", "Other", "void  ()", 0);
    return rt_end(&rt, 1, size);
}

typedef struct want {
    const char *type, *message, *thrown_by;
    uint64_t count;
    double first_ms, last_ms;
} want;

static void check(const ntidx_analysis *a, const want *w, size_t n)
{
    if (ntidx_exceptions_count(a) != n)
        fail_msg("%zu rows, want %zu", ntidx_exceptions_count(a), n);
    for (size_t i = 0; i < n; i++) {
        const ntidx_exception_group *g = ntidx_exceptions_at(a, i);
        assert_string_equal(g->type, w[i].type);
        assert_string_equal(g->message, w[i].message);
        if (!w[i].thrown_by)
            assert_null(g->thrown_by);
        else if (!g->thrown_by || strcmp(g->thrown_by, w[i].thrown_by))
            fail_msg("row %zu thrown by %s, want %s", i, g->thrown_by ? g->thrown_by : "(null)", w[i].thrown_by);
        assert_int_equal(g->count, w[i].count);
        assert_ms(g->first_relative_ms, w[i].first_ms);
        assert_ms(g->last_relative_ms, w[i].last_ms);
        /* the generic table: thrown_by null where there is none */
        ntidx_table_cell by = an_cell(a, 0, i, "thrown_by");
        assert_int_equal(by.is_null, w[i].thrown_by == NULL);
        assert_string_equal(an_cell(a, 0, i, "type").s, w[i].type);
        assert_int_equal(an_cell(a, 0, i, "count").u, w[i].count);
        assert_ms(an_cell(a, 0, i, "first_relative_ms").f, w[i].first_ms);
        assert_ms(an_cell(a, 0, i, "last_relative_ms").f, w[i].last_ms);
        assert_int_equal(an_cell(a, 0, i, "first_ts").u, (uint64_t)(w[i].first_ms * MS + 0.5));
    }
}

static void test_whole(void **state)
{
    (void)state;
    for (int v = 5; v <= 6; v++) {
        size_t size;
        uint8_t *data = exc_trace(v, &size);
        analysed an;
        an_open(&an, data, size, "exceptions");
        assert_true(ntidx_index_region_count(an.x) >= 3);
        an_analyse_default(&an, ntidx_exceptions_analyze);
        assert_string_equal(ntidx_analysis_name(an.a), "exceptions");
        static const want rows[] = {
            /* two stacks, one thrower: one row */
            {"System.InvalidOperationException", "boom", "myapp!MyApp.Program.Thrower(int32)", 3, 1.0, 6.0},
            {"System.FormatException", "bad\nformat", "system.private.corelib!System.ThrowHelper.Throw()", 1, 3.0, 3.0},
            {"System.Exception", "no stack", NULL, 1, 4.0, 4.0},
            {"System.Exception", "native only", NULL, 1, 5.0, 5.0},
            /* a method whose module the trace does not name: "ManagedModule", as TraceEvent's stack source */
            {"System.InvalidOperationException", "boom", "ManagedModule!Lost.Type.NoModule()", 1, 7.0, 7.0},
            {"", "", NULL, 1, 8.0, 8.0},
        };
        check(an.a, rows, sizeof rows / sizeof rows[0]);
        const ntidx_analysis_stats *st = ntidx_analysis_get_stats(an.a);
        assert_int_equal(st->events, 9);
        assert_int_equal(st->field_errors, 1);
        assert_int_equal(st->unmatched, 0);
        assert_int_equal(st->incomplete, 0);
        an_close(&an);
    }
}

static void test_window_and_thread(void **state)
{
    (void)state;
    size_t size;
    uint8_t *data = exc_trace(6, &size);
    analysed an;
    an_open(&an, data, size, "exceptions-window");
    ntidx_analysis_options o;
    ntidx_analysis_options_defaults(&o);
    o.t0 = 2 * MS + MS / 2;
    o.t1 = 7 * MS + MS / 4;
    an_analyse(&an, ntidx_exceptions_analyze, &o);
    static const want window[] = {
        {"System.FormatException", "bad\nformat", "system.private.corelib!System.ThrowHelper.Throw()", 1, 3.0, 3.0},
        {"System.Exception", "no stack", NULL, 1, 4.0, 4.0},
        {"System.Exception", "native only", NULL, 1, 5.0, 5.0},
        {"System.InvalidOperationException", "boom", "myapp!MyApp.Program.Thrower(int32)", 1, 6.0, 6.0},
        {"System.InvalidOperationException", "boom", "ManagedModule!Lost.Type.NoModule()", 1, 7.0, 7.0},
    };
    check(an.a, window, sizeof window / sizeof window[0]);
    assert_int_equal(ntidx_analysis_get_stats(an.a)->field_errors, 0);
    ntidx_analysis_options_defaults(&o);
    o.has_thread = 1;
    o.thread = 1001;
    an_analyse(&an, ntidx_exceptions_analyze, &o);
    static const want t1[] = {
        {"System.InvalidOperationException", "boom", "myapp!MyApp.Program.Thrower(int32)", 2, 1.0, 6.0},
        {"System.FormatException", "bad\nformat", "system.private.corelib!System.ThrowHelper.Throw()", 1, 3.0, 3.0},
    };
    check(an.a, t1, sizeof t1 / sizeof t1[0]);
    /* no exception in the window: no rows */
    ntidx_analysis_options_defaults(&o);
    o.t0 = 8 * MS + 1;
    an_analyse(&an, ntidx_exceptions_analyze, &o);
    assert_int_equal(ntidx_exceptions_count(an.a), 0);
    assert_null(ntidx_exceptions_at(an.a, 0));
    assert_int_equal(ntidx_exceptions_count(NULL), 0);
    an_close(&an);
}

/* More distinct stacks than one chunk of the throwers' lookups (NAME_CHUNK in exceptions.c): named on every
   thread, each group's thrower its own, added up per thrower. */
static void test_many_stacks(void **state)
{
    (void)state;
    enum { N = 1301 };
    rt_trace rt;
    rt_begin(&rt, 5, 4242);
    methods(&rt);
    for (uint32_t i = 0; i < N; i++) {
        /* a native leaf of its own, then the thrower: Thrower for the even ones, Main for the odd */
        const uint64_t st[] = {NATIVE + 8 * (uint64_t)i, (i % 2 ? MAIN : THROWER) + 0x10};
        rt_stack(&rt, i + 1, st, 2);
        rt_exception(&rt, 1, MS + i * 10, "System.Exception", "many", i + 1);
    }
    size_t size;
    uint8_t *data = rt_end(&rt, 1, &size);
    analysed an;
    an_open(&an, data, size, "many.nettrace");
    an_analyse_default(&an, ntidx_exceptions_analyze);
    static const want w[] = {
        {"System.Exception", "many", "myapp!MyApp.Program.Thrower(int32)", N / 2 + 1, 1.0, 1.0 + (N - 1) * 10.0 / MS},
        {"System.Exception", "many", "myapp!MyApp.Program.Main()", N / 2, 1.001, 1.0 + (N - 2) * 10.0 / MS},
    };
    check(an.a, w, sizeof w / sizeof w[0]);
    an_close(&an);
}

/* Thousands of kinds, each thrown from two stacks of one thrower: the groups of the merge (type, message, stack)
   are added up per type, message and thrower in parts cut by their hash, on threads (exceptions.c's
   name_throwers()); each kind is one row all the same, with both throws, in the order of the first throws
   (then of the messages), sorted on threads in buckets of first throws. */
static void test_many_kinds(void **state)
{
    (void)state;
    enum { N = 10000 }; /* rows enough to be sorted in buckets on threads (exceptions.c's order_rows()) */
    rt_trace rt;
    rt_begin(&rt, 5, 4242);
    methods(&rt);
    char (*msgs)[16] = malloc(N * sizeof *msgs);
    want *w = malloc(N * sizeof *w);
    assert_non_null(msgs);
    assert_non_null(w);
    for (uint32_t i = 0; i < N; i++) {
        /* kinds thrown in the reverse order of their messages, two at a time: rows are ordered by time, then by
           message (kind i + 1's before kind i's) */
        snprintf(msgs[i], sizeof msgs[i], "m%05u", N - 1 - i);
        uint64_t ts = MS + (i / 2) * 20;
        const uint64_t a[] = {NATIVE + 8 * (uint64_t)i, THROWER + 0x10}, b[] = {NATIVE + 8 * (uint64_t)i + 4, THROWER + 0x20};
        rt_stack(&rt, 2 * i + 1, a, 2);
        rt_stack(&rt, 2 * i + 2, b, 2);
        rt_exception(&rt, 1, ts, "System.Exception", msgs[i], 2 * i + 1);
        rt_exception(&rt, 2, ts + 10, "System.Exception", msgs[i], 2 * i + 2);
        w[i ^ 1] = (want){"System.Exception", msgs[i], "myapp!MyApp.Program.Thrower(int32)", 2, 1.0 + (i / 2) * 20.0 / MS,
                          1.0 + ((i / 2) * 20.0 + 10) / MS};
    }
    size_t size;
    uint8_t *data = rt_end(&rt, 1, &size);
    analysed an;
    an_open(&an, data, size, "kinds.nettrace");
    an_analyse_default(&an, ntidx_exceptions_analyze);
    check(an.a, w, N);
    an_close(&an);
    free(w);
    free(msgs);
}

/* ---- The symbolizer read in parallel (the names of the throwers) ---- */

/* A method event of the runtime with Method/LoadVerbose's v1 layout: LoadVerbose (143) or UnloadVerbose (144). */
static void method_event(rt_trace *rt, uint32_t id, uint64_t ts, uint64_t method_id, uint64_t module_id, uint64_t start,
                         const char *ns, const char *name)
{
    rt_buf p = {0};
    rt_u64(&p, method_id);
    rt_u64(&p, module_id);
    rt_u64(&p, start);
    rt_u32(&p, 0x100);
    rt_u32(&p, 0x06000001);
    rt_u32(&p, JITTED);
    rt_str16(&p, ns);
    rt_str16(&p, name);
    rt_str16(&p, "void  (int32)");
    rt_u16(&p, 9);
    rt_event(rt, id, 1, 1 + (uint32_t)(ts / MS) % 3, ts, p.b, p.n);
}

/* Region r's exception k of spread_trace_throws(): its time and the address it is thrown from (a method of an
   earlier region before its own loads, the region's reused code after its unload, a shared method). */
static void spread_throw(uint64_t r, uint32_t k, uint64_t *ts, uint64_t *ip)
{
    static const uint64_t at[3] = {1 * MS, 6 * MS, 7 * MS};
    *ts = r * 10 * MS + at[k];
    *ip = k == 0 ? 0x10000 * (r + 1) + 0x10 : k == 1 ? 0x10000 * r + 0x10 : 0x1000000 + 0x1000 * r + 0x10;
}

/* Method and module events over eight regions: names used again in later regions, code reused after an unload,
   a module named in one region and used in others, one never named; with `throws`, three exceptions in each
   region (spread_throw()). */
static uint8_t *spread_trace_throws(int version, int throws, size_t *size)
{
    rt_trace rt;
    rt_begin(&rt, version, 4242);
    for (uint64_t r = 0; r < 8; r++) {
        uint64_t t0 = r * 10 * MS;
        if (r == 0)
            rt_module_load(&rt, 1, t0 + MS, 0x100, "/app/First.dll");
        if (r == 2)
            rt_module_load(&rt, 2, t0 + MS, 0x200, "/app/Second.DLL");
        /* every region: a method of its own, and one whose name every region repeats */
        method_event(&rt, 143, t0 + 2 * MS, 10 + r, r % 2 ? 0x200 : 0x100, 0x10000 * (r + 1), "App.Region", "Own");
        method_event(&rt, 143, t0 + 3 * MS, 100 + r, 0x100, 0x1000000 + 0x1000 * r, "App.Shared", "Same");
        if (r >= 1) /* the previous region's own method unloaded, its code reused by another */
            method_event(&rt, 144, t0 + 4 * MS, 10 + r - 1, (r - 1) % 2 ? 0x200 : 0x100, 0x10000 * r, "App.Region", "Own");
        if (r >= 1)
            method_event(&rt, 143, t0 + 5 * MS, 1000 + r, 0x999, 0x10000 * r, "App.Reused", "Again");
        for (uint32_t k = 0; throws && k < 3; k++) {
            uint64_t ts, ip;
            spread_throw(r, k, &ts, &ip);
            char msg[16];
            snprintf(msg, sizeof msg, "r%" PRIu64 "-%u", r, k);
            rt_stack(&rt, k + 1, &ip, 1);
            rt_exception(&rt, 1, ts, "System.Exception", msg, k + 1);
        }
        rt_seqpoint(&rt, t0 + 9 * MS);
    }
    return rt_end(&rt, 1, size);
}

static uint8_t *spread_trace(int version, size_t *size) { return spread_trace_throws(version, 0, size); }

static void assert_same_symbol(const ntidx_symbolizer *a, const ntidx_symbolizer *b, uint64_t ip, uint64_t ts)
{
    ntidx_symbol x, y;
    int fx = ntidx_symbolizer_lookup_at(a, ip, 0, ts, &x), fy = ntidx_symbolizer_lookup_at(b, ip, 0, ts, &y);
    if (fx != fy)
        fail_msg("ip 0x%" PRIx64 " at %" PRIu64 ": found %d and %d", ip, ts, fx, fy);
    if (!fx)
        return;
    assert_string_equal(x.method, y.method);
    assert_string_equal(x.module, y.module);
    assert_true((x.module_path == NULL) == (y.module_path == NULL));
    if (x.module_path)
        assert_string_equal(x.module_path, y.module_path);
    assert_int_equal(x.method_start, y.method_start);
    assert_int_equal(x.method_index, y.method_index);
    assert_int_equal(x.frame_id, y.frame_id);
}

/* A table of a hundred thousand method events and more is sorted on threads (symbolizer.c's sort_methods()): the
   symbolizer made on two threads names every address at every time as the one made on one thread does, and as
   the events say. Addresses in an order of their own, unloads among the loads, in eight regions. */
static void test_symbolizer_sorted_on_threads(void **state)
{
    (void)state;
    enum { N = 140000, R = 8 }; /* N and 7919 share no factor: slot() is a permutation */
    rt_trace rt;
    rt_begin(&rt, 5, 4242);
    rt_module_load(&rt, 1, MS / 10, 0x100, "/app/Big.dll");
    char name[32];
    for (uint32_t i = 0; i < N; i++) {
        uint64_t start = 0x1000000 + (uint64_t)(i * 7919u % N) * 0x200, ts = MS + (uint64_t)i * 100;
        snprintf(name, sizeof name, "M%u", i);
        method_event(&rt, i % 50 == 7 ? 144 : 143, ts, i, 0x100, start, "Big", name);
        if (i % (N / R) == N / R - 1)
            rt_seqpoint(&rt, ts + 50);
    }
    size_t size;
    uint8_t *data = rt_end(&rt, 1, &size);
    analysed an;
    an_open(&an, data, size, "big-table.nettrace");
    ntidx_symbolizer *one, *two;
    assert_int_equal(ntx_symbolizer_open_threads(an.t, an.x, 1, &one), NTIDX_OK);
    assert_int_equal(ntx_symbolizer_open_threads(an.t, an.x, 2, &two), NTIDX_OK);
    assert_int_equal(ntidx_symbolizer_method_count(one), ntidx_symbolizer_method_count(two));
    for (uint32_t i = 0; i < N; i += 97) {
        uint64_t start = 0x1000000 + (uint64_t)(i * 7919u % N) * 0x200, ts = MS + (uint64_t)i * 100;
        for (uint64_t at = 0; at < 3; at++)
            assert_same_symbol(one, two, start + 0x10, at == 0 ? 0 : at == 1 ? ts + 1 : MS + (uint64_t)N * 100);
        if (i % 50 == 7)
            continue;
        ntidx_symbol sy;
        snprintf(name, sizeof name, "Big.M%u(int32)", i);
        assert_int_equal(ntidx_symbolizer_lookup_at(two, start + 0x10, 0, ts + 1, &sy), 1);
        assert_string_equal(sy.method, name);
    }
    ntidx_symbolizer_close(&one);
    ntidx_symbolizer_close(&two);
    an_close(&an);
}

/* Read over an index (regions in units, on threads, joined in file order), the symbolizer names every address
   at every time as one pass of the reader over the whole trace does. */
static void test_symbolizer_units(void **state)
{
    (void)state;
    for (int version = 5; version <= 6; version++) {
        size_t size;
        uint8_t *data = spread_trace(version, &size);
        analysed an;
        an_open(&an, data, size, "spread.nettrace");
        assert_true(ntidx_index_get_info(an.x)->regions >= 8);
        ntidx_symbolizer *plain, *indexed, *full;
        assert_int_equal(ntidx_symbolizer_open(an.t, NULL, &plain), NTIDX_OK);
        assert_int_equal(ntidx_symbolizer_open(an.t, an.x, &indexed), NTIDX_OK);
        assert_int_equal(ntidx_symbolizer_open(an.t, an.full, &full), NTIDX_OK);
        assert_int_equal(ntidx_symbolizer_method_count(plain), ntidx_symbolizer_method_count(indexed));
        assert_int_equal(ntidx_symbolizer_method_count(plain), ntidx_symbolizer_method_count(full));
        for (uint64_t r = 0; r < 9; r++)
            for (uint64_t ms = 0; ms < 10; ms += 3) {
                uint64_t ts = r * 10 * MS + ms * MS;
                for (uint64_t k = 0; k < 10; k++) {
                    assert_same_symbol(plain, indexed, 0x10000 * k + 0x10, ts);
                    assert_same_symbol(plain, full, 0x10000 * k + 0x10, ts);
                    assert_same_symbol(plain, indexed, 0x1000000 + 0x1000 * k + 0x10, ts);
                }
            }
        /* what it names: region 3's own method, by its unload (region 4) */
        ntidx_symbol s;
        assert_int_equal(ntidx_symbolizer_lookup_at(indexed, 0x40010, 0, 35 * MS, &s), 1);
        assert_string_equal(s.method, "App.Region.Own(int32)");
        assert_string_equal(s.module, "Second"); /* made empty by region 1's method, named as the load spells it */
        /* after it: no resolving event is left, and the first jitted load of the range in load order names it */
        assert_int_equal(ntidx_symbolizer_lookup_at(indexed, 0x40010, 0, 45 * MS, &s), 1);
        assert_string_equal(s.method, "App.Region.Own(int32)");
        assert_int_equal(ntidx_symbolizer_lookup_at(indexed, 0x1005010, 0, 0, &s), 1);
        assert_string_equal(s.method, "App.Shared.Same(int32)");
        assert_string_equal(s.module, "first");
        ntidx_symbolizer_close(&plain);
        ntidx_symbolizer_close(&indexed);
        ntidx_symbolizer_close(&full);
        an_close(&an);
    }
}

/* The whole trace's exceptions read the method events along with them (one pass): each thrower is named as
   the symbolizer opened on its own names its address at the throw's time, and a window, which opens its own,
   names its throws the same. */
static void test_throwers_read_along(void **state)
{
    (void)state;
    for (int version = 5; version <= 6; version++) {
        size_t size;
        uint8_t *data = spread_trace_throws(version, 1, &size);
        analysed an;
        an_open(&an, data, size, "spread-throws.nettrace");
        an_analyse_default(&an, ntidx_exceptions_analyze); /* every cut, thread count and index agree */
        ntidx_symbolizer *sym;
        assert_int_equal(ntidx_symbolizer_open(an.t, NULL, &sym), NTIDX_OK);
        assert_int_equal(ntidx_exceptions_count(an.a), 8 * 3);
        int named = 0;
        for (uint64_t r = 0; r < 8; r++)
            for (uint32_t k = 0; k < 3; k++) {
                uint64_t ts, ip;
                spread_throw(r, k, &ts, &ip);
                char msg[16], want[128] = "";
                snprintf(msg, sizeof msg, "r%" PRIu64 "-%u", r, k);
                ntidx_symbol s;
                int found = ntidx_symbolizer_lookup_at(sym, ip, 0, ts, &s) == 1 && s.method;
                if (found)
                    assert_true(ntidx_symbol_frame_name(&s, want, sizeof want) > 0);
                named += found;
                const ntidx_exception_group *g = NULL;
                for (size_t i = 0; i < ntidx_exceptions_count(an.a) && !g; i++)
                    if (!strcmp(ntidx_exceptions_at(an.a, i)->message, msg))
                        g = ntidx_exceptions_at(an.a, i);
                assert_non_null(g);
                if (!found)
                    assert_null(g->thrown_by);
                else if (!g->thrown_by || strcmp(g->thrown_by, want))
                    fail_msg("%s thrown by %s, want %s", msg, g->thrown_by ? g->thrown_by : "(null)", want);
            }
        assert_int_equal(named, 8 * 3 - 1); /* all but region 0's throw from its reused code: none is there */
        /* a window: its throwers named by a symbolizer of its own, as the whole trace's are */
        ntidx_analysis_options o;
        ntidx_analysis_options_defaults(&o);
        o.t0 = 20 * MS;
        o.t1 = 50 * MS;
        ntidx_analysis *w = NULL;
        assert_int_equal(ntidx_exceptions_analyze(an.t, an.x, &o, &w), NTIDX_OK);
        assert_int_equal(ntidx_exceptions_count(w), 3 * 3);
        for (size_t i = 0; i < ntidx_exceptions_count(w); i++) {
            const ntidx_exception_group *x = ntidx_exceptions_at(w, i), *y = NULL;
            for (size_t j = 0; j < ntidx_exceptions_count(an.a) && !y; j++)
                if (!strcmp(ntidx_exceptions_at(an.a, j)->message, x->message))
                    y = ntidx_exceptions_at(an.a, j);
            assert_non_null(y);
            assert_true((x->thrown_by == NULL) == (y->thrown_by == NULL));
            if (x->thrown_by)
                assert_string_equal(x->thrown_by, y->thrown_by);
        }
        ntidx_analysis_free(&w);
        ntidx_symbolizer_close(&sym);
        an_close(&an);
    }
}

/* The span a lookup's answer holds for (the CPU analysis keeps answers per address within it): the address
   looked up at any time inside it gives the same answer, on a trace whose methods are unloaded and whose
   ranges are reused from region to region. */
static void test_symbol_spans(void **state)
{
    (void)state;
    size_t size;
    uint8_t *data = spread_trace(6, &size);
    analysed an;
    an_open(&an, data, size, "spread.nettrace");
    ntidx_symbolizer *sym;
    assert_int_equal(ntidx_symbolizer_open(an.t, an.x, &sym), NTIDX_OK);
    int bounded = 0;
    for (uint64_t k = 0; k < 10; k++)
        for (uint64_t ts = 0; ts < 100 * MS; ts += MS) {
            uint64_t ips[2] = {0x10000 * k + 0x10, 0x1000000 + 0x1000 * k + 0x10};
            for (int j = 0; j < 2; j++) {
                ntidx_symbol s, t;
                uint64_t from, to;
                int found = ntx_symbolizer_lookup_span(sym, ips[j], 0, ts, &s, &from, &to);
                assert_true(from <= ts && ts < to);
                bounded += to != UINT64_MAX;
                uint64_t probes[4] = {from, from + (ts - from) / 2, ts, to == UINT64_MAX ? ts + 50 * MS : to - 1};
                for (int p = 0; p < 4; p++) {
                    assert_int_equal(ntidx_symbolizer_lookup_at(sym, ips[j], 0, probes[p], &t), found);
                    assert_true(t.frame_id == s.frame_id && t.method == s.method && t.method_index == s.method_index);
                }
            }
        }
    assert_true(bounded > 0); /* the trace has answers that change with time: the spans are not all unbounded */
    ntidx_symbolizer_close(&sym);
    an_close(&an);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole),
        cmocka_unit_test(test_window_and_thread),
        cmocka_unit_test(test_symbolizer_units),
        cmocka_unit_test(test_symbolizer_sorted_on_threads),
        cmocka_unit_test(test_throwers_read_along),
        cmocka_unit_test(test_symbol_spans),
        cmocka_unit_test(test_many_stacks),
        cmocka_unit_test(test_many_kinds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
