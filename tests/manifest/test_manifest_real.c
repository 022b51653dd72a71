/*
 * The runtime's events in the real traces, named and decoded from the
 * manifest, checked against facts that do not come from the decoder:
 *
 * - every event of the runtime providers has a name (no EventID(N) left in
 *   the events or in ntidx_stats) but those TraceEvent does not name either;
 * - every payload decodes, to exactly its size unless the trace's event
 *   version is newer than the manifest's template;
 * - values agree with what the runtime is known to do and with each other:
 *   GC counts go up by one per GC and GC/Stop repeats its GC/Start; the
 *   condemned generation of GC/GlobalHeapHistory is its GC's depth; one
 *   suspension for GC per GC; allocation ticks fire past 100 KB and repeat
 *   the amount in AllocationAmount64; ThreadCreated names its own thread;
 *   suspend, restart and contention start/stop pair up per thread; the
 *   trace of managed-only samples has only managed samples; method names
 *   look like method names; IL-to-native maps stay inside their method;
 *   every module's file is named after its assembly; methods name loaded
 *   modules; the execution checkpoints are at the times PerfView's own
 *   test expects.
 *
 * Field values are read by a small walker of the field layout written here
 * (not the library's formatter), so a layout that puts fields at the wrong
 * offsets fails these checks.
 *
 * usage: test_manifest_real TRACES_DIR
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "manifest.h"
#include "values.h"
#include "ntidx/ntidx.h"

static const char *traces_dir;

static const char *const RUNTIME_PROVIDERS[] = {
    "Microsoft-Windows-DotNETRuntime",
    "Microsoft-Windows-DotNETRuntimeRundown",
    "Microsoft-Windows-DotNETRuntimePrivate",
    "Microsoft-DotNETCore-SampleProfiler",
};

static int is_runtime(const char *provider)
{
    for (size_t i = 0; i < sizeof RUNTIME_PROVIDERS / sizeof RUNTIME_PROVIDERS[0]; i++)
        if (strcmp(provider, RUNTIME_PROVIDERS[i]) == 0)
            return 1;
    return 0;
}

static const char *const TRACES[] = {
    "eventpipe-dotnetcore2.1-linux-x64-objver3.netperf",
    "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace",
    "eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace",
    "eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace",
    "only_managed_samples.nettrace",
};
#define NTRACES (sizeof TRACES / sizeof TRACES[0])

static ntidx_trace *open_trace(const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", traces_dir, name);
    ntidx_trace *t;
    if (ntidx_trace_open(path, &t) != NTIDX_OK)
        fail_msg("%s: %s", path, ntidx_last_error());
    return t;
}

/* ------------------------------------------------------------------ */
/* An independent reader of top-level fields                           */
/* ------------------------------------------------------------------ */

typedef struct fv {
    const uint8_t *p;
    uint32_t size;
    const ntidx_field *f;
} fv;

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static long scalar_size(int type, unsigned ps)
{
    switch (type) {
    case NTIDX_TYPE_BYTE: case NTIDX_TYPE_SBYTE: return 1;
    case NTIDX_TYPE_UINT16: case NTIDX_TYPE_INT16: return 2;
    case NTIDX_TYPE_UINT32: case NTIDX_TYPE_INT32: case NTIDX_TYPE_BOOLEAN32: case NTIDX_TYPE_SINGLE: return 4;
    case NTIDX_TYPE_UINT64: case NTIDX_TYPE_INT64: case NTIDX_TYPE_DOUBLE: return 8;
    case NTIDX_TYPE_GUID: return 16;
    case NTX_TYPE_POINTER: return ps;
    default: return -1;
    }
}

static long element_size(const ntidx_field *el, unsigned ps)
{
    if (el->type_code != NTIDX_TYPE_OBJECT)
        return scalar_size(el->type_code, ps);
    long sum = 0;
    for (uint32_t i = 0; i < el->field_count; i++) {
        long s = scalar_size(el->fields[i].type_code, ps);
        if (s < 0)
            return -1;
        sum += s;
    }
    return sum;
}

/* Locate field `name` of the event's payload; fails the test when the layout does not fit. */
static fv field(const ntidx_trace *t, const ntidx_event *e, const char *name)
{
    const ntidx_metadata *m = e->metadata;
    unsigned ps = ntidx_trace_get_info(t)->pointer_size;
    const uint8_t *p = e->payload, *end = e->payload + e->payload_size;
    fv seen[64];
    for (uint32_t i = 0; i < m->field_count && i < 64; i++) {
        const ntidx_field *f = &m->fields[i];
        uint64_t size;
        if (f->type_code == NTIDX_TYPE_UTF16_STRING) {
            const uint8_t *q = p;
            while (q + 2 <= end && (q[0] | q[1]))
                q += 2;
            if (q + 2 > end)
                fail_msg("%s: string %s has no terminator", m->event_name, f->name);
            size = (uint64_t)(q + 2 - p);
        } else if (f->type_code == NTX_TYPE_COUNTED_ARRAY) {
            const fv *c = &seen[f->element_count];
            long es = element_size(f->element, ps);
            assert_true(es > 0);
            size = le(c->p, c->size) * (uint64_t)es;
        } else {
            long s = scalar_size(f->type_code, ps);
            if (s < 0)
                fail_msg("%s: field %s has a type this walker does not read", m->event_name, f->name);
            size = (uint64_t)s;
        }
        if (size > (uint64_t)(end - p))
            fail_msg("%s: field %s runs past the payload", m->event_name, f->name);
        seen[i] = (fv){p, (uint32_t)size, f};
        if (strcmp(f->name, name) == 0)
            return seen[i];
        p += size;
    }
    fail_msg("%s has no field %s", m->event_name, name);
    return (fv){0};
}

static uint64_t num(const ntidx_trace *t, const ntidx_event *e, const char *name)
{
    fv v = field(t, e, name);
    assert_true(v.size >= 1 && v.size <= 8);
    return le(v.p, v.size);
}

static double dbl(const ntidx_trace *t, const ntidx_event *e, const char *name)
{
    fv v = field(t, e, name);
    assert_int_equal(v.f->type_code, NTIDX_TYPE_DOUBLE);
    double d;
    memcpy(&d, v.p, 8);
    return d;
}

/* A UTF-16 string field as ASCII ('?' for anything else); buf holds 512 bytes. */
static const char *str(const ntidx_trace *t, const ntidx_event *e, const char *name, char *buf)
{
    fv v = field(t, e, name);
    assert_int_equal(v.f->type_code, NTIDX_TYPE_UTF16_STRING);
    size_t n = 0;
    for (uint32_t i = 0; i + 2 < v.size && n < 511; i += 2) {
        unsigned c = (unsigned)le(v.p + i, 2);
        buf[n++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    buf[n] = 0;
    return buf;
}

static int printable(const char *s)
{
    for (; *s; s++)
        if (*s == '?' || (unsigned char)*s < 0x20)
            return 0;
    return 1;
}

static int ends_with_ci(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    if (a < b)
        return 0;
    for (size_t i = 0; i < b; i++) {
        char x = s[a - b + i], y = suffix[i];
        if (x >= 'A' && x <= 'Z')
            x = (char)(x - 'A' + 'a');
        if (x != y)
            return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ */
/* Facts collected over a trace                                        */
/* ------------------------------------------------------------------ */

typedef struct kv {
    uint64_t k, v;
} kv;

typedef struct kvs {
    kv *a;
    size_t n, cap;
} kvs;

static void kv_add(kvs *s, uint64_t k, uint64_t v)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->a = realloc(s->a, s->cap * sizeof *s->a);
        assert_non_null(s->a);
    }
    s->a[s->n++] = (kv){k, v};
}

static int kv_cmp(const void *x, const void *y)
{
    const kv *a = x, *b = y;
    return a->k < b->k ? -1 : a->k > b->k ? 1 : a->v < b->v ? -1 : a->v > b->v;
}

static void kv_sort(kvs *s)
{
    if (s->n)
        qsort(s->a, s->n, sizeof *s->a, kv_cmp);
}

/* The largest value stored under k (sorted), or -1 when absent. */
static int64_t kv_max(const kvs *s, uint64_t k)
{
    int64_t best = -1;
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->a[mid].k < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < s->n && s->a[i].k == k; i++)
        best = (int64_t)s->a[i].v;
    return best;
}

typedef struct named {
    uint64_t id;
    char name[256];
} named;

typedef struct facts {
    /* decoding */
    uint64_t runtime_events, full, trailing, newer_version, manifest_layouts;
    /* GC */
    int have_gc;
    uint64_t gc_count, gc_depth, gc_starts, gc_stops, heap_stats, suspend_for_gc, alloc_ticks;
    /* samples */
    uint64_t samples, managed_samples;
    /* threads */
    uint64_t thread_created;
    kvs pairs; /* (thread, kind) -> 1 between a start and its stop */
    /* methods and modules */
    uint64_t methods, maps, modules, assemblies;
    kvs method_size;   /* MethodID -> MethodSize */
    kvs method_module; /* ModuleID -> 1 for each rundown method */
    kvs map_extent;    /* MethodID -> largest native offset */
    kvs module_asm;    /* ModuleID -> AssemblyID */
    named *module_file;/* ModuleID -> file base name */
    size_t nmod;
    named *asm_name;   /* AssemblyID -> simple name */
    size_t nasm;
    /* checkpoints */
    int checkpoints;
} facts;

static void facts_free(facts *f)
{
    free(f->pairs.a);
    free(f->method_size.a);
    free(f->method_module.a);
    free(f->map_extent.a);
    free(f->module_asm.a);
    free(f->module_file);
    free(f->asm_name);
}

/* Start/stop pairs that happen on one thread (several threads may be inside at once). */
enum { PAIR_SUSPEND, PAIR_RESTART, PAIR_CONTENTION };

static uint64_t *pair_slot(facts *f, int kind, uint64_t thread)
{
    uint64_t key = thread * 4 + (uint64_t)kind;
    for (size_t i = 0; i < f->pairs.n; i++)
        if (f->pairs.a[i].k == key)
            return &f->pairs.a[i].v;
    kv_add(&f->pairs, key, 0);
    return &f->pairs.a[f->pairs.n - 1].v;
}

static void begin(facts *f, int kind, uint64_t thread)
{
    uint64_t *in = pair_slot(f, kind, thread);
    assert_int_equal(*in, 0);
    *in = 1;
}

static void end(facts *f, int kind, uint64_t thread)
{
    uint64_t *in = pair_slot(f, kind, thread);
    assert_int_equal(*in, 1);
    *in = 0;
}

static void method_names(const ntidx_trace *t, const ntidx_event *e)
{
    char ns[512], name[512], sig[512];
    str(t, e, "MethodNamespace", ns);
    str(t, e, "MethodName", name);
    str(t, e, "MethodSignature", sig);
    if (!ns[0] || !printable(ns) || !name[0] || strchr(name, ' ') || !printable(name) || !strchr(sig, '(') ||
        sig[strlen(sig) - 1] != ')')
        fail_msg("%s: not a method: '%s' '%s' '%s'", e->metadata->event_name, ns, name, sig);
}

static const char *base_name(const char *path, char *out)
{
    const char *b = path;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\')
            b = p + 1;
    snprintf(out, 256, "%.255s", b);
    char *dot = strrchr(out, '.');
    if (dot)
        *dot = 0;
    return out;
}

static void check_event(const ntidx_trace *t, const ntidx_event *e, facts *f, int managed_only)
{
    const char *n = e->metadata->event_name;
    char s[512];
    if (strcmp(n, "GC/Start") == 0) {
        uint64_t count = num(t, e, "Count");
        if (f->have_gc)
            assert_int_equal(count, f->gc_count + 1);
        f->have_gc = 1;
        f->gc_count = count;
        f->gc_depth = num(t, e, "Depth");
        assert_true(f->gc_depth <= 2);
        f->gc_starts++;
    } else if (strcmp(n, "GC/Stop") == 0) {
        assert_true(f->have_gc);
        assert_int_equal(num(t, e, "Count"), f->gc_count);
        assert_int_equal(num(t, e, "Depth"), f->gc_depth);
        f->gc_stops++;
    } else if (strcmp(n, "GC/HeapStats") == 0) {
        f->heap_stats++;
        assert_true(num(t, e, "GCHandleCount") > 0);
    } else if (strcmp(n, "GC/GlobalHeapHistory") == 0) {
        assert_true(f->have_gc);
        assert_int_equal(num(t, e, "CondemnedGeneration"), f->gc_depth);
        int32_t heaps = (int32_t)num(t, e, "NumHeaps");
        assert_true(heaps >= 1 && (uint32_t)heaps <= ntidx_trace_get_info(t)->number_of_processors);
    } else if (strcmp(n, "GC/PerHeapHistory") == 0) {
        uint64_t gens = num(t, e, "Count"); /* one Values entry per generation: 0, 1, 2, LOH (, POH) */
        assert_true(gens == 4 || gens == 5);
        assert_true(num(t, e, "HeapIndex") < ntidx_trace_get_info(t)->number_of_processors);
    } else if (strcmp(n, "GC/SuspendEEStart") == 0) {
        if (num(t, e, "Reason") == 1) /* SuspendForGC */
            f->suspend_for_gc++;
        begin(f, PAIR_SUSPEND, e->thread_id);
    } else if (strcmp(n, "GC/SuspendEEStop") == 0) {
        end(f, PAIR_SUSPEND, e->thread_id);
    } else if (strcmp(n, "GC/RestartEEStart") == 0) {
        begin(f, PAIR_RESTART, e->thread_id);
    } else if (strcmp(n, "GC/RestartEEStop") == 0) {
        end(f, PAIR_RESTART, e->thread_id);
    } else if (strcmp(n, "GC/AllocationTick") == 0) {
        uint64_t amount = num(t, e, "AllocationAmount");
        assert_true(amount > 100 * 1024); /* the runtime fires past 100 KB */
        if (e->metadata->version >= 2) {
            assert_int_equal(num(t, e, "AllocationAmount64"), amount);
            assert_true(num(t, e, "TypeID") != 0);
            str(t, e, "TypeName", s);
            if (!s[0] || !printable(s) || strchr(s, ' '))
                fail_msg("AllocationTick TypeName '%s'", s);
            assert_true(num(t, e, "HeapIndex") < ntidx_trace_get_info(t)->number_of_processors);
        }
        assert_true(num(t, e, "AllocationKind") <= 1);
        f->alloc_ticks++;
    } else if (strcmp(n, "Thread/Sample") == 0) {
        uint64_t type = num(t, e, "Type"); /* 1 external code, 2 managed code */
        assert_true(type == 1 || type == 2);
        f->samples++;
        f->managed_samples += type == 2;
        if (managed_only)
            assert_int_equal(type, 2);
    } else if (strcmp(n, "AppDomainResourceManagement/ThreadCreated") == 0) {
        assert_int_equal(num(t, e, "OSThreadID"), e->thread_id); /* fired on the new thread */
        f->thread_created++;
    } else if (strcmp(n, "Contention/Start") == 0) {
        begin(f, PAIR_CONTENTION, e->thread_id);
    } else if (strcmp(n, "Contention/Stop") == 0) {
        end(f, PAIR_CONTENTION, e->thread_id);
        if (e->metadata->version >= 1)
            assert_true(dbl(t, e, "DurationNs") >= 0);
    } else if (strcmp(n, "Method/LoadVerbose") == 0 || strcmp(n, "Method/DCStopVerbose") == 0) {
        method_names(t, e);
        uint64_t size = num(t, e, "MethodSize");
        assert_true(size > 0);
        assert_true(num(t, e, "MethodStartAddress") != 0);
        kv_add(&f->method_size, num(t, e, "MethodID"), size);
        if (e->metadata->event_id == 144) /* rundown: its modules are in the same rundown */
            kv_add(&f->method_module, num(t, e, "ModuleID"), 1);
        f->methods++;
    } else if (strcmp(n, "Method/JittingStarted") == 0 || strcmp(n, "Method/R2RGetEntryPoint") == 0) {
        method_names(t, e);
    } else if (strcmp(n, "Method/ILToNativeMap") == 0 || strcmp(n, "Method/ILToNativeMapDCStop") == 0) {
        uint64_t count = num(t, e, "CountOfMapEntries");
        fv native = field(t, e, "NativeOffsets");
        assert_int_equal(native.size, count * 4);
        uint64_t top = 0;
        for (uint64_t i = 0; i < count; i++)
            if (le(native.p + 4 * i, 4) > top)
                top = le(native.p + 4 * i, 4);
        kv_add(&f->map_extent, num(t, e, "MethodID"), top);
        f->maps++;
    } else if (strcmp(n, "Loader/ModuleLoad") == 0 || strcmp(n, "Loader/ModuleDCStop") == 0) {
        str(t, e, "ModuleILPath", s);
        if (!(ends_with_ci(s, ".dll") || ends_with_ci(s, ".exe")) || !(strchr(s, '/') || strchr(s, '\\')))
            fail_msg("%s: ModuleILPath '%s'", n, s);
        uint64_t id = num(t, e, "ModuleID");
        kv_add(&f->module_asm, id, num(t, e, "AssemblyID"));
        f->module_file = realloc(f->module_file, (f->nmod + 1) * sizeof *f->module_file);
        assert_non_null(f->module_file);
        f->module_file[f->nmod].id = id;
        base_name(s, f->module_file[f->nmod++].name);
        f->modules++;
    } else if (strcmp(n, "Loader/AssemblyLoad") == 0 || strcmp(n, "Loader/AssemblyDCStop") == 0) {
        str(t, e, "FullyQualifiedAssemblyName", s);
        char *comma = strstr(s, ", Version=");
        if (!comma || comma == s)
            fail_msg("%s: FullyQualifiedAssemblyName '%s'", n, s);
        *comma = 0;
        f->asm_name = realloc(f->asm_name, (f->nasm + 1) * sizeof *f->asm_name);
        assert_non_null(f->asm_name);
        f->asm_name[f->nasm].id = num(t, e, "AssemblyID");
        snprintf(f->asm_name[f->nasm++].name, 256, "%.255s", s);
        f->assemblies++;
    } else if (strcmp(n, "Runtime/Start") == 0) {
        assert_int_equal(num(t, e, "Sku"), 2); /* RuntimeSkuMap: CoreClr */
        str(t, e, "RuntimeDllPath", s);
        for (char *p = s; *p; p++)
            if (*p >= 'A' && *p <= 'Z')
                *p = (char)(*p - 'A' + 'a');
        if (!strstr(s, "coreclr"))
            fail_msg("RuntimeDllPath '%s'", s);
    } else if (strcmp(n, "ExecutionCheckpointRundown/ExecutionCheckpointDCEnd") == 0) {
        /* PerfView's EventPipe tests expect these checkpoints of this trace
         * at these milliseconds from the session start (the sync time). */
        static const char *names[] = {"RuntimeInit", "RuntimeSuspend", "RuntimeResumed"};
        static const double ms[] = {-15.97, 11.91, 12.20};
        assert_true(f->checkpoints < 3);
        assert_string_equal(str(t, e, "CheckpointName", s), names[f->checkpoints]);
        const ntidx_trace_info *in = ntidx_trace_get_info(t);
        double at = (double)((int64_t)num(t, e, "CheckpointTimestamp") - in->sync_ticks) * 1000.0 /
                    (double)in->tick_frequency;
        if (fabs(round(at * 100) / 100 - ms[f->checkpoints]) > 1e-9)
            fail_msg("checkpoint %s at %.4f ms, want %.2f", s, at, ms[f->checkpoints]);
        f->checkpoints++;
    }
}

static void check_trace_end(const char *name, facts *f)
{
    assert_int_equal(f->gc_stops, f->gc_starts);
    assert_int_equal(f->heap_stats, f->gc_stops);
    assert_int_equal(f->suspend_for_gc, f->gc_starts);
    (void)f->pairs; /* a trace may end inside a pair */
    kv_sort(&f->method_size);
    kv_sort(&f->module_asm);
    /* IL-to-native maps describe methods of the same trace and stay inside their code. */
    for (size_t i = 0; i < f->map_extent.n; i++) {
        int64_t size = kv_max(&f->method_size, f->map_extent.a[i].k);
        if (size < 0)
            fail_msg("%s: a map for method %llx, which no method event names", name,
                     (unsigned long long)f->map_extent.a[i].k);
        assert_true(f->map_extent.a[i].v < (uint64_t)size);
    }
    /* Each module's file is named after its assembly. */
    for (size_t i = 0; i < f->nmod; i++) {
        uint64_t asm_id = (uint64_t)kv_max(&f->module_asm, f->module_file[i].id);
        const char *an = NULL;
        for (size_t k = 0; k < f->nasm; k++)
            if (f->asm_name[k].id == asm_id)
                an = f->asm_name[k].name;
        if (!an)
            fail_msg("%s: module %s has no assembly event", name, f->module_file[i].name);
        if (strcasecmp(an, f->module_file[i].name) != 0)
            fail_msg("%s: module file %s, assembly %s", name, f->module_file[i].name, an);
    }
    /* Rundown describes every module its methods live in. */
    for (size_t i = 0; i < f->method_module.n; i++)
        if (kv_max(&f->module_asm, f->method_module.a[i].k) < 0)
            fail_msg("%s: a method of module %llx, which no module event names", name,
                     (unsigned long long)f->method_module.a[i].k);
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */
/* ------------------------------------------------------------------ */

/* The events TraceEvent's parsers do not name: the tables leave them unnamed on purpose
 * (gen_manifest_tables.py UNNAMED), so ntidx shows EventID(N) as TraceEvent does. */
static int unnamed_by_traceevent(const ntidx_metadata *m)
{
    const ntx_manifest_event *lowest;
    const ntx_manifest_event *e = ntx_manifest_find(m->provider, m->event_id, m->version, &lowest);
    e = e ? e : lowest;
    return e && e->name[0] == 0;
}

static void test_every_runtime_event_named_and_decoded(void **state)
{
    (void)state;
    uint64_t total_runtime = 0;
    for (size_t i = 0; i < NTRACES; i++) {
        ntidx_trace *t = open_trace(TRACES[i]);
        ntidx_reader_options o;
        ntidx_reader_options_defaults(&o);
        o.order = NTIDX_ORDER_TIME;
        ntidx_reader *r;
        assert_int_equal(ntidx_reader_open(t, &o, &r), NTIDX_OK);
        facts f;
        memset(&f, 0, sizeof f);
        const ntidx_event *e;
        int rc;
        ntidx_buf b = {0};
        ntidx_values *vals = NULL;
        assert_int_equal(ntidx_values_new(&vals), NTIDX_OK);
        char dn[512];
        int managed_only = strcmp(TRACES[i], "only_managed_samples.nettrace") == 0;
        while ((rc = ntidx_reader_next(r, &e)) == 1) {
            const ntidx_metadata *m = e->metadata;
            if (!is_runtime(m->provider))
                continue;
            f.runtime_events++;
            ntidx_event_display_name(m, dn, sizeof dn);
            if ((!m->event_name[0] || strstr(dn, "EventID(")) && !unnamed_by_traceevent(m))
                fail_msg("%s: %s v%u has no name", TRACES[i], dn, m->version);
            if (m->event_name[0])
                assert_true(ntidx_metadata_matches_name(m, m->event_name));
            assert_true(ntidx_metadata_matches_name(m, dn)); /* the EventID(N) form when unnamed */
            b.len = 0;
            if (ntidx_event_fields_json(t, e, &b) != NTIDX_OK || ntidx_values_decode(vals, t, e) != NTIDX_OK)
                fail_msg("%s: %s at offset %llu: %s", TRACES[i], dn, (unsigned long long)e->offset, ntidx_last_error());
            uint32_t used = ntx_values_used(vals);
            if (!ntx_manifest_owns(m->fields)) {
                /* Thread/StackWalk is named only; nothing else lacks a layout here. */
                assert_int_equal(e->payload_size, 0);
                continue;
            }
            f.manifest_layouts++;
            const ntx_manifest_event *tpl = ntx_manifest_find(m->provider, m->event_id, m->version, NULL);
            assert_non_null(tpl);
            if (used == e->payload_size) {
                f.full++;
            } else {
                assert_true(used < e->payload_size);
                if (tpl->version >= m->version)
                    fail_msg("%s: %s v%u: %u trailing bytes after the v%u template", TRACES[i], dn, m->version,
                             e->payload_size - used, tpl->version);
                f.trailing++;
            }
            f.newer_version += tpl->version < m->version;
            check_event(t, e, &f, managed_only);
        }
        if (rc != 0)
            fail_msg("%s: %s", TRACES[i], ntidx_last_error());
        check_trace_end(TRACES[i], &f);
        print_message("%-62s runtime events %7llu, decoded to their size %7llu, with trailing bytes %llu "
                      "(newer than the manifest: %llu)\n",
                      TRACES[i], (unsigned long long)f.runtime_events, (unsigned long long)f.full,
                      (unsigned long long)f.trailing, (unsigned long long)f.newer_version);
        print_message("    GCs %llu, allocation ticks %llu, samples %llu (managed %llu), threads created %llu, "
                      "methods %llu, IL maps %llu, modules %llu, assemblies %llu, checkpoints %d\n",
                      (unsigned long long)f.gc_starts, (unsigned long long)f.alloc_ticks,
                      (unsigned long long)f.samples, (unsigned long long)f.managed_samples,
                      (unsigned long long)f.thread_created, (unsigned long long)f.methods,
                      (unsigned long long)f.maps, (unsigned long long)f.modules,
                      (unsigned long long)f.assemblies, f.checkpoints);
        assert_true(f.runtime_events > 0);
        assert_int_equal(f.full + f.trailing, f.manifest_layouts);
        total_runtime += f.runtime_events;
        /* What each trace is known to hold. */
        if (strstr(TRACES[i], "3.0")) {
            assert_true(f.gc_starts > 100);
            assert_true(f.alloc_ticks > 1000);
            assert_true(f.samples > 1000);
            assert_true(f.thread_created > 0);
        }
        if (strstr(TRACES[i], "executioncheckpoints"))
            assert_int_equal(f.checkpoints, 3);
        if (managed_only)
            assert_true(f.samples > 1000);
        if (strstr(TRACES[i], "2.1") || strstr(TRACES[i], "5.0") || managed_only) {
            assert_true(f.methods > 100);
            assert_true(f.maps > 10);
            assert_true(f.modules > 5);
        }
        facts_free(&f);
        ntidx_buf_free(&b);
        ntidx_values_free(&vals);
        ntidx_reader_close(&r);
        ntidx_trace_close(&t);
    }
    assert_true(total_runtime > 100000);
}

static void test_stats_name_every_runtime_type(void **state)
{
    (void)state;
    for (size_t i = 0; i < NTRACES; i++) {
        ntidx_trace *t = open_trace(TRACES[i]);
        ntidx_stats *s;
        assert_int_equal(ntidx_stats_compute(t, &s), NTIDX_OK);
        size_t runtime_types = 0;
        for (size_t k = 0; k < s->type_count; k++) {
            if (!is_runtime(s->types[k].provider))
                continue;
            runtime_types++;
            ntidx_metadata row = {.provider = s->types[k].provider, .event_id = s->types[k].event_id,
                                  .version = s->types[k].version};
            if (!s->types[k].event_name[0] && !unnamed_by_traceevent(&row))
                fail_msg("%s: %s/EventID(%u) unnamed in stats", TRACES[i], s->types[k].provider,
                         s->types[k].event_id);
        }
        assert_true(runtime_types > 0);
        ntidx_stats_free(&s);
        ntidx_trace_close(&t);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s TRACES_DIR\n", argv[0]);
        return 2;
    }
    traces_dir = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_runtime_event_named_and_decoded),
        cmocka_unit_test(test_stats_name_every_runtime_type),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
