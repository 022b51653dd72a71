/*
 * The CPU analysis (ntidx_cpu_analyze) and the frame names it rests on
 * (the symbolizer's TraceEvent rules), over a trace written with the
 * runtime's method and module events and the sample profiler's samples,
 * whose every count and name is known in advance, and over the real traces.
 *
 * Every analysis runs with every region a unit of its own, on one and two
 * threads, with the automatic cut, and over a --full index: all equal.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "rt_trace.h"

#include <ntidx/analysis.h>

#define MS RT_MS
#define PID 4242
#define RUNDOWN "Microsoft-Windows-DotNETRuntimeRundown"
#define SAMPLER "Microsoft-DotNETCore-SampleProfiler"

/* ---- Writing: events of any provider, with stacks ---- */

typedef struct ct {
    rt_trace rt;
    struct {
        const char *provider;
        uint32_t id, ver, meta;
    } metas[32];
    size_t nmetas;
    uint32_t next_stack;
} ct;

static void ct_event(ct *c, const char *provider, uint32_t id, uint32_t ver, uint32_t thread, uint64_t ts,
                     const void *payload, uint32_t size, uint32_t stack_id)
{
    rt_trace *rt = &c->rt;
    uint32_t meta = 0;
    for (size_t i = 0; i < c->nmetas && !meta; i++)
        if (c->metas[i].id == id && c->metas[i].ver == ver && !strcmp(c->metas[i].provider, provider))
            meta = c->metas[i].meta;
    if (!meta) {
        assert_true(c->nmetas < 32);
        ntidx_metadata m = {.id = rt->next_meta, .provider = provider, .event_id = id, .version = ver,
                            .event_name = "", .opcode = -1, .level = 4, .keywords = 1, .has_fields = 1};
        assert_int_equal(ntidx_writer_add_metadata(rt->w, &m), NTIDX_OK);
        meta = rt->next_meta++;
        c->metas[c->nmetas].provider = provider;
        c->metas[c->nmetas].id = id;
        c->metas[c->nmetas].ver = ver;
        c->metas[c->nmetas++].meta = meta;
    }
    ntidx_event ev = {.metadata_id = meta, .sequence_number = ++rt->seq[thread], .thread_index = thread,
                      .capture_thread_index = thread, .timestamp = ts, .is_sorted = 1, .payload = payload,
                      .payload_size = size, .stack_id = stack_id};
    assert_int_equal(ntidx_writer_add_event(rt->w, &ev), NTIDX_OK);
}

static void put_str(rt_buf *p, const char *s)
{
    for (; *s; s++)
        rt_u16(p, (uint16_t)*s);
    rt_u16(p, 0);
}

enum { LOAD = 143, UNLOAD = 144 };
#define JITTED 0x8u

/* Method/LoadVerbose or UnloadVerbose v1 (143, 144) of the runtime, or the rundown's DCStartVerbose or
   DCStopVerbose (the same ids and layout). */
static void ct_method(ct *c, int rundown, uint32_t id, uint64_t ts, uint64_t module, uint64_t start, uint32_t size,
                      uint32_t flags, const char *ns, const char *name, const char *sig)
{
    rt_buf p = {0};
    rt_u64(&p, start ^ 0x5a5a); /* MethodID */
    rt_u64(&p, module);
    rt_u64(&p, start);
    rt_u32(&p, size);
    rt_u32(&p, 0x06000001); /* MethodToken */
    rt_u32(&p, flags);
    put_str(&p, ns);
    put_str(&p, name);
    put_str(&p, sig);
    rt_u16(&p, 9);
    ct_event(c, rundown ? RUNDOWN : RT_PROVIDER, id, 1, 1, ts, p.b, p.n, 0);
}

/* Loader/ModuleLoad (152) or ModuleUnload (153) v1 of the runtime, or the rundown's ModuleDCStop (154). */
static void ct_module(ct *c, int rundown, uint32_t id, uint64_t ts, uint64_t module, const char *il, const char *native)
{
    rt_buf p = {0};
    rt_u64(&p, module);
    rt_u64(&p, 0x777); /* AssemblyID */
    rt_u32(&p, 0);     /* ModuleFlags */
    rt_u32(&p, 0);     /* Reserved1 */
    put_str(&p, il);
    put_str(&p, native);
    rt_u16(&p, 9);
    ct_event(c, rundown ? RUNDOWN : RT_PROVIDER, id, 1, 1, ts, p.b, p.n, 0);
}

/* A Thread/Sample on `thread` with the stack `ips` (leaf first; none when n is 0). */
static void ct_sample(ct *c, uint32_t thread, uint64_t ts, const uint64_t *ips, size_t n)
{
    uint32_t stack = 0;
    if (n) {
        stack = ++c->next_stack;
        assert_int_equal(ntidx_writer_add_stack(c->rt.w, stack, (const uint8_t *)ips, (uint32_t)(n * 8)), NTIDX_OK);
    }
    uint32_t type = 1; /* managed */
    ct_event(c, SAMPLER, 0, 0, thread, ts, &type, 4, stack);
}

/* ---- The trace every count below is known for ----
 *
 * Its names and counts are TraceEvent's too: `dumper cpu` (tests/dotnet/dumper) of this trace, V5 and
 * V6, printed exactly the rows test_counts expects. */

enum {
    M_ONE = 0x1000,   /* loaded in the trace: "lib.one" (TraceEvent lower-cases the path; .DLL dropped) */
    M_NEVER = 0x2000, /* never named: "ManagedModule" */
    M_THREE = 0x3000, /* loaded, unloaded, then named by the rundown as spelled: "Three" */
    M_SO = 0x4000,    /* "/lib/native.so": only .dll and .exe are extensions */
    M_NGEN = 0x5000   /* IL path = native path "/x/Five.ni.dll": ".ni" dropped, "five" */
};
enum { A = 0x10000, B = 0x20000, C = 0x30000, D = 0x40000, F = 0x50000, G = 0x60000, H = 0x70000 };

#define N_ALPHA "lib.one!NsA.Alpha(int32)"
#define N_BETA "ManagedModule!.Beta()"
#define N_GAMMA "Three!NsC.Gamma()"
#define N_FIRST "lib.one!NsD.First()"
#define N_SECOND "lib.one!NsD.Second()"
#define N_NATIVE "native.so!NsG.Native()"
#define N_NGEN "five!NsH.Ngen()"

static uint8_t *write_trace(int version, size_t *size)
{
    ct c;
    memset(&c, 0, sizeof c);
    rt_begin(&c.rt, version, PID);
    ct_module(&c, 0, 152, 1 * MS, M_ONE, "C:\\App\\Lib.One.DLL", "");
    ct_module(&c, 0, 152, 1 * MS, M_THREE, "/app/Three.dll", "");
    ct_module(&c, 0, 152, 1 * MS, M_SO, "/lib/native.so", "");
    ct_module(&c, 0, 152, 1 * MS, M_NGEN, "/x/Five.ni.dll", "/x/Five.ni.dll");
    ct_method(&c, 0, LOAD, 2 * MS, M_ONE, A, 0x100, JITTED, "NsA", "Alpha", "void  (int32)");
    ct_method(&c, 0, LOAD, 2 * MS, M_NEVER, B, 0x100, JITTED, "", "Beta", "instance void  ()");
    ct_method(&c, 0, LOAD, 3 * MS, M_THREE, C, 0x100, JITTED, "NsC", "Gamma", "void  ()");
    ct_method(&c, 0, LOAD, 4 * MS, M_ONE, D, 0x100, JITTED, "NsD", "First", "void  ()");
    ct_method(&c, 0, LOAD, 5 * MS, M_ONE, F, 0x100, 0, "NsF", "Precompiled", "void  ()"); /* not jitted */
    ct_method(&c, 0, LOAD, 5 * MS, M_SO, G, 0x100, JITTED, "NsG", "Native", "void  ()");
    ct_method(&c, 0, LOAD, 5 * MS, M_NGEN, H, 0x100, JITTED, "NsH", "Ngen", "void  ()");
    const uint64_t s1[] = {A + 0x10, C + 0x20, B + 0x5}, s2[] = {A + 0x11, A + 0x50, B + 0x6}, s3[] = {0x99999, B + 7};
    ct_sample(&c, 1, 10 * MS, s1, 3);
    ct_sample(&c, 1, 11 * MS, s2, 3);
    ct_sample(&c, 2, 12 * MS, s3, 2);
    rt_seqpoint(&c.rt, 15 * MS);
    const uint64_t s4[] = {D + 0x10, B + 8}, s6[] = {F + 0x10, G + 0x10, H + 0x10};
    ct_sample(&c, 2, 20 * MS, s4, 2);
    ct_sample(&c, 2, 30 * MS, s6, 3);
    ct_sample(&c, 1, 31 * MS, NULL, 0);
    rt_seqpoint(&c.rt, 40 * MS);
    ct_method(&c, 0, UNLOAD, 50 * MS, M_ONE, D, 0x100, JITTED, "NsD", "First", "void  ()");
    ct_method(&c, 0, LOAD, 55 * MS, M_ONE, D, 0x100, JITTED, "NsD", "Second", "void  ()"); /* the code reused */
    const uint64_t s5[] = {D + 0x10, B + 9};
    ct_sample(&c, 1, 60 * MS, s5, 2);
    ct_module(&c, 0, 153, 90 * MS, M_THREE, "/app/Three.dll", "");
    ct_method(&c, 1, UNLOAD, 95 * MS, M_THREE, C, 0x100, JITTED, "NsC", "Gamma", "void  ()"); /* DCStopVerbose */
    ct_method(&c, 1, UNLOAD, 96 * MS, M_ONE, D, 0x100, JITTED, "NsD", "Second", "void  ()");
    ct_module(&c, 1, 154, 99 * MS, M_THREE, "/app/Three.dll", ""); /* ModuleDCStop */
    const uint64_t s8[] = {D + 0x10, C + 1}; /* after every method event */
    ct_sample(&c, 1, 100 * MS, s8, 2);
    return rt_end(&c.rt, 1, size);
}

/* ---- Analysing ---- */

typedef struct analysed {
    ntidx_analysis *a;
    ntidx_trace *t;
    ntidx_index *x, *full;
    uint8_t *data;
} analysed;

static void open_trace(analysed *an, uint8_t *data, size_t size, const char *name)
{
    memset(an, 0, sizeof *an);
    an->data = data;
    assert_int_equal(ntidx_trace_open_memory(data, size, name, &an->t), NTIDX_OK);
    assert_int_equal(ntidx_index_build(an->t, NULL, &an->x), NTIDX_OK);
    ntidx_index_options fo;
    ntidx_index_options_defaults(&fo);
    fo.full = 1;
    assert_int_equal(ntidx_index_build(an->t, &fo, &an->full), NTIDX_OK);
}

static void close_trace(analysed *an)
{
    ntidx_analysis_free(&an->a);
    ntidx_index_close(&an->full);
    ntidx_index_close(&an->x);
    ntidx_trace_close(&an->t);
    free(an->data);
}

static void assert_same(const ntidx_analysis *a, const ntidx_analysis *b, const char *what)
{
    assert_int_equal(ntidx_analysis_table_count(a), ntidx_analysis_table_count(b));
    for (size_t k = 0; k < ntidx_analysis_table_count(a); k++) {
        ntidx_table ta, tb;
        assert_int_equal(ntidx_analysis_table(a, k, &ta), NTIDX_OK);
        assert_int_equal(ntidx_analysis_table(b, k, &tb), NTIDX_OK);
        if (ta.rows != tb.rows)
            fail_msg("%s: table %s has %" PRIu64 " rows, and %" PRIu64, what, ta.name, ta.rows, tb.rows);
        for (uint64_t r = 0; r < ta.rows; r++)
            for (size_t c = 0; c < ta.column_count; c++) {
                ntidx_table_cell x, y;
                assert_int_equal(ntidx_analysis_cell(a, k, r, c, &x), NTIDX_OK);
                assert_int_equal(ntidx_analysis_cell(b, k, r, c, &y), NTIDX_OK);
                int same = x.is_null == y.is_null && x.i == y.i && x.u == y.u &&
                           (x.f == y.f || (isnan(x.f) && isnan(y.f))) &&
                           (x.s == y.s || (x.s && y.s && !strcmp(x.s, y.s)));
                if (!same)
                    fail_msg("%s: table %s row %" PRIu64 " column %s differs", what, ta.name, r, ta.columns[c].name);
            }
    }
    assert_int_equal(ntidx_analysis_get_stats(a)->events, ntidx_analysis_get_stats(b)->events);
}

/* Analyse under every cut and thread count, over both indexes, with and without a symbolizer of the caller's;
   all must agree; the first is kept in an->a. */
static void analyse(analysed *an, const ntidx_analysis_options *base, const ntidx_cpu_options *co)
{
    ntidx_analysis_free(&an->a);
    static const struct {
        unsigned threads;
        uint64_t unit_regions;
    } cfg[] = {{2, 1}, {1, 1}, {1, 0}, {2, 0}, {1, 1000}};
    ntidx_symbolizer *sym;
    assert_int_equal(ntidx_symbolizer_open(an->t, an->x, &sym), NTIDX_OK);
    for (size_t i = 0; i < sizeof cfg / sizeof cfg[0]; i++)
        for (int full = 0; full < 2; full++) {
            ntidx_analysis_options o = *base;
            o.threads = cfg[i].threads;
            o.unit_regions = cfg[i].unit_regions;
            ntidx_cpu_options c = *co;
            if (i % 2)
                c.symbols = sym;
            ntidx_analysis *a = NULL;
            assert_int_equal(ntidx_cpu_analyze(an->t, full ? an->full : an->x, &o, &c, &a), NTIDX_OK);
            if (!an->a) {
                an->a = a;
                continue;
            }
            char what[96];
            snprintf(what, sizeof what, "%u threads, units of %" PRIu64 " regions%s", cfg[i].threads,
                     cfg[i].unit_regions, full ? ", --full index" : "");
            assert_same(an->a, a, what);
            ntidx_analysis_free(&a);
        }
    ntidx_symbolizer_close(&sym);
}

/* The row of table `table` for method `name` (and focus, thread when given): inclusive and exclusive. */
static int row_of(const ntidx_analysis *a, const char *table, const char *focus, const char *name, int64_t thread,
                  uint64_t *inc, uint64_t *exc)
{
    for (size_t k = 0; k < ntidx_analysis_table_count(a); k++) {
        ntidx_table tb;
        assert_int_equal(ntidx_analysis_table(a, k, &tb), NTIDX_OK);
        if (strcmp(tb.name, table))
            continue;
        for (uint64_t r = 0; r < tb.rows; r++) {
            int match = 1;
            uint64_t i = 0, e = 0;
            for (size_t col = 0; col < tb.column_count; col++) {
                ntidx_table_cell v;
                assert_int_equal(ntidx_analysis_cell(a, k, r, col, &v), NTIDX_OK);
                const char *cn = tb.columns[col].name;
                if (!strcmp(cn, "method"))
                    match &= !strcmp(v.s, name);
                else if (!strcmp(cn, "focus"))
                    match &= focus && !strcmp(v.s, focus);
                else if (!strcmp(cn, "thread"))
                    match &= thread >= 0 && v.u == (uint64_t)thread;
                else if (!strcmp(cn, "inclusive"))
                    i = v.u;
                else if (!strcmp(cn, "exclusive"))
                    e = v.u;
            }
            if (match) {
                *inc = i;
                *exc = e;
                return 1;
            }
        }
    }
    return 0;
}

#define assert_row(a, table, focus, name, thread, want_inc, want_exc)                                             \
    do {                                                                                                           \
        uint64_t i_, e_;                                                                                           \
        if (!row_of(a, table, focus, name, thread, &i_, &e_))                                                      \
            fail_msg("no row %s in %s", name, table);                                                              \
        if (i_ != (want_inc) || e_ != (want_exc))                                                                  \
            fail_msg("%s in %s: inclusive %" PRIu64 " exclusive %" PRIu64 ", want %d and %d", name, table, i_, e_, \
                     (int)(want_inc), (int)(want_exc));                                                            \
    } while (0)

static uint64_t rows(const ntidx_analysis *a, const char *table)
{
    for (size_t k = 0; k < ntidx_analysis_table_count(a); k++) {
        ntidx_table tb;
        assert_int_equal(ntidx_analysis_table(a, k, &tb), NTIDX_OK);
        if (!strcmp(tb.name, table))
            return tb.rows;
    }
    fail_msg("no table %s", table);
    return 0;
}

static uint64_t summary(const ntidx_analysis *a, const char *key)
{
    for (size_t k = 0; k < ntidx_analysis_table_count(a); k++) {
        ntidx_table tb;
        assert_int_equal(ntidx_analysis_table(a, k, &tb), NTIDX_OK);
        if (strcmp(tb.name, "cpu_summary"))
            continue;
        for (size_t c = 0; c < tb.column_count; c++)
            if (!strcmp(tb.columns[c].name, key)) {
                ntidx_table_cell v;
                assert_int_equal(ntidx_analysis_cell(a, k, 0, c, &v), NTIDX_OK);
                return v.u;
            }
    }
    fail_msg("no summary key %s", key);
    return 0;
}

/* One node of table cpu_tree as the tests write it. */
typedef struct tree_node {
    int64_t parent;
    uint64_t depth;
    const char *method;
    uint64_t inc, exc;
} tree_node;

/* Table cpu_tree's row `r`. */
static tree_node tree_at(const ntidx_analysis *a, uint64_t r, uint64_t *thread)
{
    int k = -1;
    ntidx_table tb;
    for (size_t i = 0; i < ntidx_analysis_table_count(a) && k < 0; i++) {
        assert_int_equal(ntidx_analysis_table(a, i, &tb), NTIDX_OK);
        if (!strcmp(tb.name, "cpu_tree"))
            k = (int)i;
    }
    assert_true(k >= 0 && r < tb.rows);
    tree_node n = {0};
    for (size_t c = 0; c < tb.column_count; c++) {
        ntidx_table_cell v;
        assert_int_equal(ntidx_analysis_cell(a, (size_t)k, r, c, &v), NTIDX_OK);
        const char *cn = tb.columns[c].name;
        if (!strcmp(cn, "node"))
            assert_int_equal(v.u, r);
        else if (!strcmp(cn, "parent"))
            n.parent = v.i;
        else if (!strcmp(cn, "depth"))
            n.depth = v.u;
        else if (!strcmp(cn, "method"))
            n.method = v.s;
        else if (!strcmp(cn, "inclusive"))
            n.inc = v.u;
        else if (!strcmp(cn, "exclusive"))
            n.exc = v.u;
        else if (!strcmp(cn, "inclusive_ms"))
            assert_true(v.f == (double)n.inc);
        else if (!strcmp(cn, "exclusive_ms"))
            assert_true(v.f == (double)n.exc);
        else if (!strcmp(cn, "thread") && thread)
            *thread = v.u;
    }
    return n;
}

/* What any call tree must be: a parent before its children, one deeper; a node's inclusive its exclusive plus its
   children's; the most inclusive first; the outermost frames (of each thread) adding up to the samples with a
   stack; each method's exclusive samples those of table cpu. */
static void assert_tree(const ntidx_analysis *a, int by_thread)
{
    uint64_t n = rows(a, "cpu_tree"), roots = 0;
    uint64_t *children = calloc(n ? n : 1, sizeof *children);
    assert_non_null(children);
    tree_node prev = {0};
    for (uint64_t r = 0; r < n; r++) {
        uint64_t thread = 0, pthread = 0;
        tree_node t = tree_at(a, r, &thread);
        assert_true(t.parent >= -1 && t.parent < (int64_t)r);
        if (t.parent < 0) {
            assert_int_equal(t.depth, 0);
            roots += t.inc;
        } else {
            tree_node p = tree_at(a, (uint64_t)t.parent, &pthread);
            assert_int_equal(t.depth, p.depth + 1);
            assert_true(!by_thread || thread == pthread);
            children[t.parent] += t.inc;
        }
        assert_true(r == 0 || prev.inc >= t.inc);
        prev = t;
    }
    for (uint64_t r = 0; r < n; r++) {
        tree_node t = tree_at(a, r, NULL);
        assert_int_equal(t.inc, t.exc + children[r]);
    }
    free(children);
    assert_int_equal(roots, summary(a, "samples") - summary(a, "samples_without_stack"));
    for (size_t m = 0; m < ntidx_cpu_count(a); m++) {
        const ntidx_cpu_method *cm = ntidx_cpu_at(a, m);
        uint64_t exc = 0;
        for (uint64_t r = 0; r < n; r++) {
            uint64_t thread = 0;
            tree_node t = tree_at(a, r, &thread);
            if (!strcmp(t.method, cm->method) && (!by_thread || thread == cm->thread))
                exc += t.exc;
        }
        assert_int_equal(exc, cm->exclusive);
    }
}

/* ---- The tests ---- */

/* The symbolizer names each address as TraceEvent's TraceLog would, at the sample's time. */
static void test_frame_names(void **state)
{
    (void)state;
    for (int version = 5; version <= 6; version++) {
        size_t size;
        analysed an;
        uint8_t *data = write_trace(version, &size);
        open_trace(&an, data, size, "cpu.nettrace");
        ntidx_symbolizer *s;
        assert_int_equal(ntidx_symbolizer_open(an.t, an.full, &s), NTIDX_OK);
        static const struct {
            uint64_t ip, ms;
            const char *name;
        } want[] = {
            {A + 0x10, 10, N_ALPHA},   {B, 10, N_BETA},         {C + 0xff, 10, N_GAMMA}, {C + 0x100, 10, "?!?"},
            {D + 0x10, 20, N_FIRST},   /* the unload at 50 ms names what was seen before it */
            {D + 0x10, 60, N_SECOND},  /* the rundown at 96 ms names what was seen after the unload */
            {D + 0x10, 97, N_FIRST},   /* after every event: the first jitted load that covers it */
            {C + 1, 97, N_GAMMA},      /* ... its module the latest of its id: the one the rundown made */
            {F + 0x10, 10, "?!?"},     /* a load of precompiled code names nothing */
            {G + 1, 10, N_NATIVE},     {H + 1, 10, N_NGEN},     {0x99999, 10, "?!?"},
        };
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
            ntidx_symbol sym;
            int found = ntidx_symbolizer_lookup_at(s, want[i].ip, 0, want[i].ms * MS, &sym);
            char name[128];
            int len = ntidx_symbol_frame_name(found ? &sym : NULL, name, sizeof name);
            assert_int_equal(len, (int)strlen(name));
            if (strcmp(name, want[i].name))
                fail_msg("%#" PRIx64 " at %" PRIu64 " ms: %s, want %s", want[i].ip, want[i].ms, name, want[i].name);
            assert_int_equal(found, strcmp(want[i].name, "?!?") != 0);
            if (!found)
                assert_true(sym.frame_id == UINT64_MAX);
        }
        /* equal names, equal frame ids; different names, different ids */
        ntidx_symbol x, y, z;
        assert_int_equal(ntidx_symbolizer_lookup_at(s, D + 1, 0, 20 * MS, &x), 1);
        assert_int_equal(ntidx_symbolizer_lookup_at(s, D + 2, 0, 97 * MS, &y), 1);
        assert_int_equal(ntidx_symbolizer_lookup_at(s, D + 2, 0, 60 * MS, &z), 1);
        assert_true(x.frame_id == y.frame_id);
        assert_true(x.frame_id != z.frame_id);
        assert_string_equal(x.module_path, "c:\\app\\lib.one.dll"); /* the path lower-cased */
        assert_int_equal(ntidx_symbolizer_lookup_at(s, B, 0, 10 * MS, &x), 1);
        assert_null(x.module_path);
        assert_string_equal(x.module, "ManagedModule");
        /* a return address: one byte before it */
        assert_int_equal(ntidx_symbolizer_lookup_at(s, C + 0x100, 1, 10 * MS, &x), 1);
        assert_string_equal(x.method, "NsC.Gamma()");
        ntidx_symbolizer_close(&s);
        close_trace(&an);
    }
}

static void test_counts(void **state)
{
    (void)state;
    for (int version = 5; version <= 6; version++) {
        size_t size;
        analysed an;
        uint8_t *data = write_trace(version, &size);
        open_trace(&an, data, size, "cpu.nettrace");
        ntidx_analysis_options o;
        ntidx_analysis_options_defaults(&o);
        ntidx_cpu_options co;
        ntidx_cpu_options_defaults(&co);
        co.callers = "NsA.Alpha";       /* the name without its arguments */
        co.callees = ".Beta()";         /* the part after the '!' */
        co.tree = 1;
        analyse(&an, &o, &co);
        const ntidx_analysis *a = an.a;
        /* The call tree, the most inclusive first; equal counts: the shallower, then by name, then by the
           parent's place (s1 Beta>Gamma>Alpha, s2 Beta>Alpha>Alpha, s3 Beta>?!?, s4 Beta>First, s6 Ngen>Native>?!?,
           s5 Beta>Second, s8 Gamma>First) */
        static const tree_node want_tree[] = {
            {-1, 0, N_BETA, 5, 0},   {-1, 0, N_GAMMA, 1, 0}, {-1, 0, N_NGEN, 1, 0},  {0, 1, "?!?", 1, 1},
            {0, 1, N_GAMMA, 1, 0},   {0, 1, N_ALPHA, 1, 0},  {0, 1, N_FIRST, 1, 1},  {1, 1, N_FIRST, 1, 1},
            {0, 1, N_SECOND, 1, 1},  {2, 1, N_NATIVE, 1, 0}, {9, 2, "?!?", 1, 1},    {4, 2, N_ALPHA, 1, 1},
            {5, 2, N_ALPHA, 1, 1},
        };
        assert_int_equal(rows(a, "cpu_tree"), sizeof want_tree / sizeof want_tree[0]);
        for (uint64_t r = 0; r < sizeof want_tree / sizeof want_tree[0]; r++) {
            tree_node t = tree_at(a, r, NULL), w = want_tree[r];
            if (t.parent != w.parent || t.depth != w.depth || strcmp(t.method, w.method) || t.inc != w.inc ||
                t.exc != w.exc)
                fail_msg("cpu_tree row %" PRIu64 ": parent %" PRId64 " depth %" PRIu64 " %s %" PRIu64 "/%" PRIu64
                         ", want parent %" PRId64 " depth %" PRIu64 " %s %" PRIu64 "/%" PRIu64,
                         r, t.parent, t.depth, t.method, t.inc, t.exc, w.parent, w.depth, w.method, w.inc, w.exc);
        }
        assert_tree(a, 0);
        co.tree = 0;
        assert_string_equal(ntidx_analysis_name(a), "cpu");
        assert_int_equal(summary(a, "samples"), 8);
        assert_int_equal(summary(a, "samples_without_stack"), 1);
        assert_int_equal(summary(a, "threads"), 2);
        assert_int_equal(rows(a, "cpu"), 8);
        assert_row(a, "cpu", NULL, N_ALPHA, -1, 2, 2); /* recursion counted once */
        assert_row(a, "cpu", NULL, N_BETA, -1, 5, 0);
        assert_row(a, "cpu", NULL, N_GAMMA, -1, 2, 0);
        assert_row(a, "cpu", NULL, "?!?", -1, 2, 2);
        assert_row(a, "cpu", NULL, N_FIRST, -1, 2, 2); /* the last sample's: the first jitted load */
        assert_row(a, "cpu", NULL, N_SECOND, -1, 1, 1);
        assert_row(a, "cpu", NULL, N_NATIVE, -1, 1, 0);
        assert_row(a, "cpu", NULL, N_NGEN, -1, 1, 0);
        assert_int_equal(ntidx_analysis_get_stats(a)->events, 8);
        assert_int_equal(ntidx_analysis_get_stats(a)->field_errors, 0);
        /* typed rows: most exclusive first, ms and percentages */
        assert_int_equal(ntidx_cpu_count(a), 8);
        const ntidx_cpu_method *m0 = ntidx_cpu_at(a, 0), *m1 = ntidx_cpu_at(a, 1);
        assert_string_equal(m0->method, "?!?"); /* 2 exclusive, 2 inclusive; then Alpha, First 2, 2: by name */
        assert_string_equal(m1->method, N_ALPHA);
        assert_true(m1->inclusive_ms == 2.0 && m1->exclusive_ms == 2.0);
        assert_true(fabs(m1->inclusive_percent - 200.0 / 8) < 1e-9);
        assert_int_equal(m1->has_thread, 0);
        assert_null(m1->focus);
        assert_null(ntidx_cpu_at(a, 8));
        for (size_t i = 1; i < ntidx_cpu_count(a); i++)
            assert_true(ntidx_cpu_at(a, i - 1)->exclusive >= ntidx_cpu_at(a, i)->exclusive);
        /* callers of Alpha: Gamma (s1, Alpha the leaf), Alpha itself (s2's recursion, the leaf), Beta (s2) */
        assert_int_equal(rows(a, "cpu_callers"), 3);
        assert_row(a, "cpu_callers", N_ALPHA, N_GAMMA, -1, 1, 1);
        assert_row(a, "cpu_callers", N_ALPHA, N_ALPHA, -1, 1, 1);
        assert_row(a, "cpu_callers", N_ALPHA, N_BETA, -1, 1, 0);
        /* callees of Beta: what it called directly; exclusive when that was the leaf */
        assert_int_equal(rows(a, "cpu_callees"), 5);
        assert_row(a, "cpu_callees", N_BETA, N_GAMMA, -1, 1, 0);
        assert_row(a, "cpu_callees", N_BETA, N_ALPHA, -1, 1, 0);
        assert_row(a, "cpu_callees", N_BETA, "?!?", -1, 1, 1);
        assert_row(a, "cpu_callees", N_BETA, N_FIRST, -1, 1, 1);
        assert_row(a, "cpu_callees", N_BETA, N_SECOND, -1, 1, 1);

        /* by thread */
        co.by_thread = 1;
        co.callers = co.callees = NULL;
        co.tree = 1;
        analyse(&an, &o, &co);
        a = an.a;
        assert_int_equal(ntidx_analysis_table_count(a), 3);
        assert_tree(a, 1);
        assert_int_equal(rows(a, "cpu_tree"), 14); /* Beta's own node on each thread */
        co.tree = 0;
        analyse(&an, &o, &co);
        a = an.a;
        uint64_t t1 = version == 6 ? 1001 : 1, t2 = version == 6 ? 1002 : 2; /* rt_tid() */
        assert_int_equal(rows(a, "cpu"), 10);
        assert_int_equal(ntidx_analysis_table_count(a), 2);
        assert_row(a, "cpu", NULL, N_ALPHA, (int64_t)t1, 2, 2);
        assert_row(a, "cpu", NULL, N_GAMMA, (int64_t)t1, 2, 0);
        assert_row(a, "cpu", NULL, N_FIRST, (int64_t)t1, 1, 1);
        assert_row(a, "cpu", NULL, N_BETA, (int64_t)t1, 3, 0);
        assert_row(a, "cpu", NULL, N_SECOND, (int64_t)t1, 1, 1);
        assert_row(a, "cpu", NULL, "?!?", (int64_t)t2, 2, 2);
        assert_row(a, "cpu", NULL, N_BETA, (int64_t)t2, 2, 0);
        assert_row(a, "cpu", NULL, N_FIRST, (int64_t)t2, 1, 1);
        assert_row(a, "cpu", NULL, N_NATIVE, (int64_t)t2, 1, 0);
        assert_row(a, "cpu", NULL, N_NGEN, (int64_t)t2, 1, 0);
        assert_true(ntidx_cpu_at(a, 0)->has_thread && ntidx_cpu_at(a, 0)->thread == t1); /* threads in order */

        /* one thread; a window (its samples still named by the events after it) */
        co.by_thread = 0;
        o.has_thread = 1;
        o.thread = t2;
        analyse(&an, &o, &co);
        assert_int_equal(summary(an.a, "samples"), 3);
        assert_row(an.a, "cpu", NULL, N_BETA, -1, 2, 0);
        assert_int_equal(ntidx_analysis_get_stats(an.a)->events, 8); /* every sample read */
        o.has_thread = 0;
        o.t0 = 15 * MS;
        o.t1 = 40 * MS;
        analyse(&an, &o, &co);
        assert_int_equal(summary(an.a, "samples"), 3);
        assert_int_equal(summary(an.a, "samples_without_stack"), 1);
        assert_int_equal(rows(an.a, "cpu"), 5);
        assert_row(an.a, "cpu", NULL, N_FIRST, -1, 1, 1);
        assert_row(an.a, "cpu", NULL, "?!?", -1, 1, 1);
        /* a focus no frame has: empty tables */
        ntidx_analysis_options_defaults(&o);
        co.callers = "Nowhere.Made()";
        analyse(&an, &o, &co);
        assert_int_equal(rows(an.a, "cpu_callers"), 0);
        close_trace(&an);
    }
}

/*
 * A stack sampled again and again is counted from what its first sample
 * found (cpu.c's stack memo): only while every frame's name holds, only in
 * its own thread's table, and a recursive frame still once per sample. The
 * same bytes (First's code, then Second's at the same address) on two threads
 * and on either side of an unload.
 */
static uint8_t *write_repeats(int version, size_t *size)
{
    ct c;
    memset(&c, 0, sizeof c);
    rt_begin(&c.rt, version, PID);
    ct_module(&c, 0, 152, 1 * MS, M_ONE, "C:\\App\\Lib.One.DLL", "");
    ct_method(&c, 0, LOAD, 2 * MS, M_ONE, A, 0x100, JITTED, "NsA", "Alpha", "void  (int32)");
    ct_method(&c, 0, LOAD, 2 * MS, M_ONE, D, 0x100, JITTED, "NsD", "First", "void  ()");
    const uint64_t s[] = {D + 0x10, A + 0x10}, rec[] = {A + 0x11, A + 0x50, D + 0x20};
    for (int i = 0; i < 3; i++)
        ct_sample(&c, 1, (uint64_t)(10 + i) * MS, s, 2);
    ct_sample(&c, 2, 13 * MS, s, 2);
    ct_sample(&c, 1, 14 * MS, rec, 3);
    ct_sample(&c, 1, 15 * MS, rec, 3);
    ct_method(&c, 0, UNLOAD, 50 * MS, M_ONE, D, 0x100, JITTED, "NsD", "First", "void  ()");
    ct_method(&c, 0, LOAD, 55 * MS, M_ONE, D, 0x100, JITTED, "NsD", "Second", "void  ()");
    ct_sample(&c, 1, 60 * MS, s, 2);
    ct_sample(&c, 1, 61 * MS, s, 2);
    ct_method(&c, 1, UNLOAD, 96 * MS, M_ONE, D, 0x100, JITTED, "NsD", "Second", "void  ()");
    return rt_end(&c.rt, 1, size);
}

static void test_repeated_stacks(void **state)
{
    (void)state;
    for (int version = 5; version <= 6; version++) {
        size_t size;
        analysed an;
        uint8_t *data = write_repeats(version, &size);
        open_trace(&an, data, size, "repeats.nettrace");
        ntidx_analysis_options o;
        ntidx_analysis_options_defaults(&o);
        ntidx_cpu_options co;
        ntidx_cpu_options_defaults(&co);
        analyse(&an, &o, &co);
        assert_int_equal(summary(an.a, "samples"), 8);
        assert_int_equal(rows(an.a, "cpu"), 3);
        assert_row(an.a, "cpu", NULL, N_FIRST, -1, 6, 4);
        assert_row(an.a, "cpu", NULL, N_SECOND, -1, 2, 2); /* the same bytes after the unload */
        assert_row(an.a, "cpu", NULL, N_ALPHA, -1, 8, 2);  /* recursion counted once, sample after sample */
        co.by_thread = 1;
        analyse(&an, &o, &co);
        uint64_t t1 = version == 6 ? 1001 : 1, t2 = version == 6 ? 1002 : 2;
        assert_int_equal(rows(an.a, "cpu"), 5);
        assert_row(an.a, "cpu", NULL, N_FIRST, (int64_t)t1, 5, 3);
        assert_row(an.a, "cpu", NULL, N_ALPHA, (int64_t)t1, 7, 2);
        assert_row(an.a, "cpu", NULL, N_SECOND, (int64_t)t1, 2, 2);
        assert_row(an.a, "cpu", NULL, N_FIRST, (int64_t)t2, 1, 1); /* its own thread's entries */
        assert_row(an.a, "cpu", NULL, N_ALPHA, (int64_t)t2, 1, 0);
        co.by_thread = 0;
        co.tree = 1;
        analyse(&an, &o, &co);
        assert_tree(an.a, 0);
        close_trace(&an);
    }
}

/* Samples count whatever their payload (TraceEvent's by-name view does); reserved fields refused. */
static void test_bad_input(void **state)
{
    (void)state;
    ct c;
    memset(&c, 0, sizeof c);
    rt_begin(&c.rt, 5, PID);
    const uint64_t ip = 0x1234;
    assert_int_equal(ntidx_writer_add_stack(c.rt.w, 1, (const uint8_t *)&ip, 8), NTIDX_OK);
    ct_event(&c, SAMPLER, 0, 0, 1, 1 * MS, NULL, 0, 1);  /* no payload */
    uint8_t junk[3] = {1, 2, 3};
    ct_event(&c, SAMPLER, 0, 0, 1, 2 * MS, junk, 3, 1);  /* a payload of no layout */
    size_t size;
    analysed an;
    uint8_t *data = rt_end(&c.rt, 1, &size);
    open_trace(&an, data, size, "bad.nettrace");
    ntidx_analysis_options o;
    ntidx_analysis_options_defaults(&o);
    ntidx_cpu_options co;
    ntidx_cpu_options_defaults(&co);
    analyse(&an, &o, &co);
    assert_int_equal(summary(an.a, "samples"), 2);
    assert_row(an.a, "cpu", NULL, "?!?", -1, 2, 2);
    assert_int_equal(ntidx_analysis_get_stats(an.a)->field_errors, 0);
    co.reserved[0] = 1;
    ntidx_analysis *a = NULL;
    assert_int_equal(ntidx_cpu_analyze(an.t, an.x, &o, &co, &a), NTIDX_E_INVALID_ARG);
    assert_null(a);
    assert_int_equal(ntidx_cpu_analyze(an.t, NULL, &o, NULL, &a), NTIDX_E_INVALID_ARG);
    close_trace(&an);
}

/* A hostile trace loads one module id 300,000 times before the trace's start (ModuleLoad's load time is the
   sync time: no search finds them, each one is a new module): the replay stays linear (before, each search
   walked all the modules of the id and each new one was put first: minutes, past the test's timeout). */
static void test_many_modules(void **state)
{
    (void)state;
    ct c;
    memset(&c, 0, sizeof c);
    ntidx_writer_options wo;
    ntidx_writer_options_defaults(&wo);
    wo.format_version = 5;
    wo.sync_ticks = 1000000000000ll;
    c.rt.next_meta = 1;
    assert_int_equal(ntidx_writer_open_memory(&wo, &c.rt.w), NTIDX_OK);
    for (uint64_t i = 0; i < 300000; i++)
        ct_module(&c, 0, 152, 1 + i, M_ONE, "/a/One.dll", "");
    ct_method(&c, 0, LOAD, 400000, M_ONE, A, 0x100, JITTED, "NsA", "Alpha", "void  (int32)");
    const uint64_t ip = A + 1;
    ct_sample(&c, 1, 400001, &ip, 1);
    size_t size;
    uint8_t *data = rt_end(&c.rt, 1, &size);
    analysed an;
    open_trace(&an, data, size, "modules.nettrace");
    ntidx_symbolizer *s;
    assert_int_equal(ntidx_symbolizer_open(an.t, an.x, &s), NTIDX_OK);
    ntidx_symbol sym;
    assert_int_equal(ntidx_symbolizer_lookup_at(s, ip, 0, 400001, &sym), 1);
    assert_string_equal(sym.module, "ManagedModule"); /* as TraceEvent: no module of the id loaded at its time */
    ntidx_symbolizer_close(&s);
    close_trace(&an);
}

/* The real traces: every cut agrees; the counts add up; split by thread adds up to all threads. */
static void test_real(void **state)
{
    const char *dir = *state;
    static const char *const traces[] = {"eventpipe-dotnetcore3.0-win-x64-objver4.nettrace",
                                         "only_managed_samples.nettrace"};
    for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, traces[i]);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        fseek(f, 0, SEEK_END);
        size_t size = (size_t)ftell(f);
        fseek(f, 0, SEEK_SET);
        uint8_t *data = malloc(size);
        assert_non_null(data);
        assert_int_equal(fread(data, 1, size, f), size);
        fclose(f);
        analysed an;
        open_trace(&an, data, size, traces[i]);
        ntidx_analysis_options o;
        ntidx_analysis_options_defaults(&o);
        ntidx_cpu_options co;
        ntidx_cpu_options_defaults(&co);
        co.tree = 1; /* the call tree beside the methods: one analysis of the trace checks both */
        analyse(&an, &o, &co);
        ntidx_analysis *all = an.a;
        an.a = NULL;
        assert_tree(all, 0);
        uint64_t samples = summary(all, "samples"), exc = 0;
        assert_true(samples > 1000);
        for (size_t r = 0; r < ntidx_cpu_count(all); r++) {
            const ntidx_cpu_method *m = ntidx_cpu_at(all, r);
            exc += m->exclusive;
            assert_true(m->inclusive >= m->exclusive && m->inclusive <= samples);
        }
        assert_int_equal(exc, samples - summary(all, "samples_without_stack"));
        co.by_thread = 1;
        analyse(&an, &o, &co);
        assert_tree(an.a, 1);
        for (size_t r = 0; r < ntidx_cpu_count(all); r++) {
            const ntidx_cpu_method *m = ntidx_cpu_at(all, r);
            uint64_t inc = 0, ex = 0;
            for (size_t q = 0; q < ntidx_cpu_count(an.a); q++)
                if (!strcmp(ntidx_cpu_at(an.a, q)->method, m->method)) {
                    inc += ntidx_cpu_at(an.a, q)->inclusive;
                    ex += ntidx_cpu_at(an.a, q)->exclusive;
                }
            assert_int_equal(inc, m->inclusive);
            assert_int_equal(ex, m->exclusive);
        }
        print_message("%s: %" PRIu64 " samples, %zu methods, %" PRIu64 " threads\n", traces[i], samples,
                      ntidx_cpu_count(all), summary(all, "threads"));
        ntidx_analysis_free(&all);
        close_trace(&an);
    }
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "../shared/traces";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frame_names),
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_repeated_stacks),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_many_modules),
        cmocka_unit_test_prestate(test_real, (void *)dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
