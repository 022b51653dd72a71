/*
 * The runtime-manifest tables and their use, without a trace: the table
 * invariants the generator promises, template choice by version, which
 * gaps of a metadata row are filled, name matching, and the payload
 * shapes only manifest layouts have (pointer-size fields, arrays counted by
 * an earlier field, Binary length=, ANSI strings, a string the runtime
 * omitted), with 4- and 8-byte pointers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "manifest.h"
#include "ntidx/ntidx.h"
#include "trace_internal.h"
#include "values.h"

#define RT "Microsoft-Windows-DotNETRuntime"
#define RUNDOWN "Microsoft-Windows-DotNETRuntimeRundown"

/* ------------------------------------------------------------------ */
/* Payload building                                                    */
/* ------------------------------------------------------------------ */

typedef struct pb {
    uint8_t d[4096];
    size_t len;
} pb;

static void put(pb *b, const void *p, size_t n)
{
    assert_true(b->len + n <= sizeof b->d);
    memcpy(b->d + b->len, p, n);
    b->len += n;
}
static void u8(pb *b, uint8_t v) { put(b, &v, 1); }
static void u16(pb *b, uint16_t v) { uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)}; put(b, x, 2); }
static void u32(pb *b, uint32_t v) { u16(b, (uint16_t)v); u16(b, (uint16_t)(v >> 16)); }
static void u64(pb *b, uint64_t v) { u32(b, (uint32_t)v); u32(b, (uint32_t)(v >> 32)); }
static void ptr(pb *b, unsigned size, uint64_t v) { size == 4 ? u32(b, (uint32_t)v) : u64(b, v); }
/* ASCII as UTF-16 with its terminator. */
static void wstr(pb *b, const char *s)
{
    for (; *s; s++)
        u16(b, (uint8_t)*s);
    u16(b, 0);
}
static void astr(pb *b, const char *s) { put(b, s, strlen(s) + 1); }

/* A metadata row as V4/V5 runtimes write it: no name, an empty field list. */
static ntidx_metadata runtime_row(const char *provider, uint32_t id, uint32_t version)
{
    ntidx_metadata m = {0};
    m.provider = provider;
    m.event_id = id;
    m.version = version;
    m.opcode = -1;
    m.event_name = "";
    m.has_fields = 1;
    return m;
}

typedef struct decoded {
    int rc;
    uint32_t used;
    char json[2048];
    char err[256];
} decoded;

/* Decode `b` as the payload of `m` in a trace with the given pointer size. */
static decoded decode(const ntidx_metadata *m, const pb *b, unsigned pointer_size)
{
    struct ntidx_trace t;
    memset(&t, 0, sizeof t);
    t.gen = NTX_GEN_FASTSER;
    t.info.pointer_size = pointer_size;
    ntidx_event ev = {0};
    ev.metadata = m;
    ev.payload = b->d;
    ev.payload_size = (uint32_t)b->len;
    t.data = b->d; /* error offsets count from the "file" start: here the payload */
    decoded d = {0};
    ntidx_buf out = {0};
    d.rc = ntidx_event_fields_json(&t, &ev, &out);
    if (d.rc != NTIDX_OK)
        snprintf(d.err, sizeof d.err, "%s", ntidx_last_error_info()->what);
    else if (out.data)
        snprintf(d.json, sizeof d.json, "%s", out.data);
    ntidx_buf_free(&out);
    /* The typed values decode the same payload the same way, and say how much of it they used. */
    ntidx_values *v = NULL;
    assert_int_equal(ntidx_values_new(&v), NTIDX_OK);
    int rc2 = ntidx_values_decode(v, &t, &ev);
    assert_int_equal(rc2, d.rc);
    if (rc2 == NTIDX_OK)
        d.used = ntx_values_used(v);
    else
        assert_string_equal(ntidx_last_error_info()->what, d.err);
    ntidx_values_free(&v);
    return d;
}

/* ------------------------------------------------------------------ */
/* Tables                                                              */
/* ------------------------------------------------------------------ */

static int is_integral(int type)
{
    switch (type) {
    case NTIDX_TYPE_BYTE: case NTIDX_TYPE_UINT16: case NTIDX_TYPE_UINT32: case NTIDX_TYPE_UINT64:
    case NTIDX_TYPE_INT16: case NTIDX_TYPE_INT32: case NTIDX_TYPE_INT64: case NTX_TYPE_POINTER: return 1;
    default: return 0;
    }
}

static void check_list(const ntidx_field *f, uint32_t n, int depth)
{
    assert_true(depth < 8);
    for (uint32_t i = 0; i < n; i++) {
        assert_non_null(f[i].name);
        assert_true(f[i].name[0] != 0);
        assert_true(ntx_manifest_owns(&f[i]));
        if (f[i].type_code == NTX_TYPE_COUNTED_ARRAY) {
            uint32_t k = f[i].element_count;
            assert_true(k < i);
            assert_true(k < NTX_MAX_COUNT_REF);
            assert_true(is_integral(f[k].type_code));
            assert_non_null(f[i].element);
        }
        if (f[i].element)
            check_list(f[i].element, 1, depth + 1);
        if (f[i].type_code == NTIDX_TYPE_OBJECT) {
            assert_non_null(f[i].fields);
            check_list(f[i].fields, f[i].field_count, depth + 1);
        }
    }
}

static void test_table_invariants(void **state)
{
    (void)state;
    assert_true(ntx_manifest_event_count > 400);
    size_t unnamed = 0;
    for (size_t i = 0; i < ntx_manifest_event_count; i++) {
        const ntx_manifest_event *e = &ntx_manifest_events[i];
        assert_true(e->provider < ntx_manifest_provider_count);
        assert_non_null(e->name);
        /* unnamed: the events TraceEvent does not name (gen_manifest_tables.py UNNAMED, NAMED_ONLY) */
        unnamed += e->name[0] == 0;
        assert_null(strchr(e->name, ' '));
        assert_null(strstr(e->name, "EventID"));
        assert_int_equal(e->fields == NULL, e->field_count == 0);
        check_list(e->fields, e->field_count, 0);
        if (i) {
            const ntx_manifest_event *p = &ntx_manifest_events[i - 1];
            int order = p->provider != e->provider ? p->provider < e->provider
                        : p->event_id != e->event_id ? p->event_id < e->event_id
                                                     : p->version < e->version;
            assert_true(order); /* sorted and unique */
        }
    }
    /* a few dozen, not the manifest: most events keep their name */
    assert_true(unnamed > 10 && unnamed < 120);
    const ntx_manifest_event *e = ntx_manifest_find(RT, 200, 0, NULL); /* GC/IncreaseMemoryPressure */
    assert_non_null(e);
    assert_string_equal(e->name, "");
    assert_true(e->field_count > 0); /* still decoded */
    e = ntx_manifest_find(RT, 39, 0, NULL);
    assert_string_equal(e->name, "GC/DynamicEvent");
    e = ntx_manifest_find(RT, 90, 0, NULL);
    assert_string_equal(e->name, "Contention/LockCreated");
}

static void test_names_match_traceevent(void **state)
{
    (void)state;
    static const struct {
        const char *provider;
        uint32_t id, version;
        const char *name;
    } want[] = {
        {RT, 1, 2, "GC/Start"},
        {RT, 2, 1, "GC/Stop"},
        {RT, 3, 1, "GC/RestartEEStop"},
        {RT, 9, 1, "GC/SuspendEEStart"},
        {RT, 10, 3, "GC/AllocationTick"},
        {RT, 15, 0, "Type/BulkType"},
        {RT, 18, 0, "GC/BulkNode"},           /* the GC prefix of the opcode dropped */
        {RT, 35, 0, "GC/Triggered"},
        {RT, 80, 1, "Exception/Start"},       /* win:Start */
        {RT, 81, 1, "Contention/Start"},
        {RT, 91, 1, "Contention/Stop"},       /* win:Stop */
        {RT, 54, 0, "ThreadPoolWorkerThreadAdjustment/Sample"},
        {RT, 143, 2, "Method/LoadVerbose"},
        {RT, 145, 1, "Method/JittingStarted"},
        {RT, 152, 2, "Loader/ModuleLoad"},
        {RT, 159, 0, "Method/R2RGetEntryPoint"}, /* a TraceEvent rename */
        {RT, 187, 0, "Runtime/Start"},
        {RT, 190, 0, "Method/ILToNativeMap"},
        {RT, 202, 0, "GC/MarkWithType"},
        {RT, 58, 0, "YieldProcessorMeasurement"}, /* win:Info: the task alone */
        {RUNDOWN, 144, 1, "Method/DCStopVerbose"},
        {RUNDOWN, 150, 0, "Method/ILToNativeMapDCStop"},
        {RUNDOWN, 154, 2, "Loader/ModuleDCStop"},
        {RUNDOWN, 300, 0, "ExecutionCheckpointRundown/ExecutionCheckpointDCEnd"},
        {"Microsoft-Windows-DotNETRuntimePrivate", 199, 0, "GC/PinPlugAtGCTime"},
        {"Microsoft-DotNETCore-SampleProfiler", 0, 0, "Thread/Sample"},
        {"Microsoft-DotNETCore-SampleProfiler", 1, 0, "Thread/StackWalk"},
        /* newer than this copy of the manifest (gen_manifest_tables.py SUPPLEMENT) */
        {RT, 90, 0, "Contention/LockCreated"},
        {RT, 209, 0, "GC/FitBucketInfo"},
        {RUNDOWN, 10, 0, "GC/SettingsRundown"},
        /* TraceEvent's names where its parsers depart from the manifest */
        {"Microsoft-Windows-DotNETRuntimePrivate", 195, 0, "GC/DestroyGCHandle"},
        {"Microsoft-Windows-DotNETRuntimeStress", 1, 0, "ClrStack/Walk"},
        /* no TraceEvent template: unnamed, shown EventID(N) */
        {RT, 200, 0, ""},
        {RT, 42, 0, ""},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        ntidx_metadata m = runtime_row(want[i].provider, want[i].id, want[i].version);
        ntx_manifest_fill(&m);
        if (strcmp(m.event_name, want[i].name) != 0)
            fail_msg("%s %u: '%s', want '%s'", want[i].provider, want[i].id, m.event_name, want[i].name);
    }
}

static void test_find_by_version(void **state)
{
    (void)state;
    const ntx_manifest_event *lowest;
    const ntx_manifest_event *e = ntx_manifest_find(RT, 10, 2, &lowest);
    assert_non_null(e);
    assert_int_equal(e->version, 2);
    assert_int_equal(e->field_count, 7);
    assert_null(lowest);
    /* Newer than any known: the highest known version (v4: the supplement). */
    e = ntx_manifest_find(RT, 10, 9, NULL);
    assert_non_null(e);
    assert_int_equal(e->version, 4);
    /* Exception/Start knows v0 and v1 only. */
    e = ntx_manifest_find(RT, 80, 4, NULL);
    assert_int_equal(e->version, 1);
    /* Unknown id, unknown provider. */
    assert_null(ntx_manifest_find(RT, 65000, 0, &lowest));
    assert_null(lowest);
    assert_null(ntx_manifest_find("MyEventSource", 10, 0, &lowest));
    assert_null(lowest);
    assert_null(ntx_manifest_find(NULL, 10, 0, NULL));
}

static void test_fill_only_gaps(void **state)
{
    (void)state;
    /* No name, no fields: both filled. */
    ntidx_metadata m = runtime_row(RT, 10, 3);
    ntx_manifest_fill(&m);
    assert_string_equal(m.event_name, "GC/AllocationTick");
    assert_int_equal(m.field_count, 8);
    assert_true(m.has_fields);
    assert_string_equal(m.fields[5].name, "TypeName");

    /* No field list at all (has_fields 0). */
    m = runtime_row(RT, 1, 2);
    m.has_fields = 0;
    ntx_manifest_fill(&m);
    assert_true(m.has_fields);
    assert_int_equal(m.field_count, 6);

    /* TraceEvent's name and layout win where it has a template: its parsers name and decode the
       runtime's events whatever the trace says. */
    static const ntidx_field mine[] = {{.name = "Mine", .type_code = NTIDX_TYPE_UINT32}};
    m = runtime_row(RT, 10, 3);
    m.event_name = "MyName";
    m.field_count = 1;
    m.fields = mine;
    ntx_manifest_fill(&m);
    assert_string_equal(m.event_name, "GC/AllocationTick");
    assert_int_equal(m.field_count, 8);
    assert_true(ntx_manifest_owns(m.fields));

    /* Where TraceEvent has no template (GC/IncreaseMemoryPressure), the trace's fields stand. */
    m = runtime_row(RT, 200, 0);
    m.field_count = 1;
    m.fields = mine;
    ntx_manifest_fill(&m);
    assert_ptr_equal(m.fields, mine);

    /* A name but no fields (V6 rows may say only the name). */
    m = runtime_row(RT, 10, 3);
    m.event_name = "MyName";
    ntx_manifest_fill(&m);
    assert_string_equal(m.event_name, "GC/AllocationTick");
    assert_int_equal(m.field_count, 8);

    /* An event TraceEvent does not name keeps the trace's name, as in TraceEvent. */
    m = runtime_row(RT, 200, 0);
    m.event_name = "MyName";
    ntx_manifest_fill(&m);
    assert_string_equal(m.event_name, "MyName");

    /* Fields but no name. */
    m = runtime_row(RT, 10, 3);
    m.field_count = 1;
    m.fields = mine;
    ntx_manifest_fill(&m);
    assert_string_equal(m.event_name, "GC/AllocationTick");
    assert_int_equal(m.field_count, 8);

    /* Older than anything the manifest knows (GC/Join is v2 only): the name applies, no layout. */
    m = runtime_row(RT, 203, 1);
    ntx_manifest_fill(&m);
    assert_string_equal(m.event_name, "GC/Join");
    assert_int_equal(m.field_count, 0);
    const ntx_manifest_event *lowest;
    assert_null(ntx_manifest_find(RT, 203, 1, &lowest));
    assert_non_null(lowest);
    assert_int_equal(lowest->version, 2);
    ntx_manifest_fill(NULL);

    /* Not a runtime provider, or an unknown id: untouched. */
    m = runtime_row("MyEventSource", 10, 3);
    ntx_manifest_fill(&m);
    assert_string_equal(m.event_name, "");
    assert_int_equal(m.field_count, 0);
    m = runtime_row(RT, 65000, 0);
    ntx_manifest_fill(&m);
    assert_string_equal(m.event_name, "");

    /* Named only: the stack walk's instruction pointers have no layout. */
    m = runtime_row("Microsoft-DotNETCore-SampleProfiler", 1, 0);
    ntx_manifest_fill(&m);
    assert_string_equal(m.event_name, "Thread/StackWalk");
    assert_int_equal(m.field_count, 0);
}

static void test_matches_name(void **state)
{
    (void)state;
    ntidx_metadata m = runtime_row(RT, 10, 3);
    ntx_manifest_fill(&m);
    assert_true(ntidx_metadata_matches_name(&m, "GC/AllocationTick"));
    assert_true(ntidx_metadata_matches_name(&m, "gc/allocationtick"));
    assert_true(ntidx_metadata_matches_name(&m, RT "/GC/AllocationTick"));
    assert_true(ntidx_metadata_matches_name(&m, "microsoft-windows-dotnetruntime/gc/AllocationTick"));
    assert_true(ntidx_metadata_matches_name(&m, "EventID(10)"));
    assert_true(ntidx_metadata_matches_name(&m, RT "/EventID(10)"));
    assert_false(ntidx_metadata_matches_name(&m, "EventID(010)"));
    assert_false(ntidx_metadata_matches_name(&m, "EventID(1)"));
    assert_false(ntidx_metadata_matches_name(&m, "EventID()"));
    assert_false(ntidx_metadata_matches_name(&m, "EventID(10"));
    assert_false(ntidx_metadata_matches_name(&m, "EventID(99999999999)"));
    assert_false(ntidx_metadata_matches_name(&m, "GC/Allocation"));
    assert_false(ntidx_metadata_matches_name(&m, "AllocationTick"));
    assert_false(ntidx_metadata_matches_name(&m, "GC"));
    assert_false(ntidx_metadata_matches_name(&m, RT));
    assert_false(ntidx_metadata_matches_name(&m, RT "/"));
    assert_false(ntidx_metadata_matches_name(&m, RT "Rundown/GC/AllocationTick"));
    assert_false(ntidx_metadata_matches_name(&m, "Microsoft-Windows-DotNETRuntimeX/GC/AllocationTick"));
    assert_false(ntidx_metadata_matches_name(&m, ""));
    assert_false(ntidx_metadata_matches_name(&m, NULL));
    assert_false(ntidx_metadata_matches_name(NULL, "GC/AllocationTick"));

    /* An event the manifest does not name keeps its EventID(N) name. */
    ntidx_metadata u = runtime_row(RT, 65000, 0);
    ntx_manifest_fill(&u);
    char buf[128];
    assert_string_equal(ntidx_event_display_name(&u, buf, sizeof buf), RT "/EventID(65000)");
    assert_true(ntidx_metadata_matches_name(&u, buf));
    assert_true(ntidx_metadata_matches_name(&u, "EventID(65000)"));
    assert_false(ntidx_metadata_matches_name(&u, ""));

    /* EventSource events named in the trace match the same way. */
    ntidx_metadata es = {.provider = "TestEventSource0", .event_id = 5, .event_name = "TestEvent1"};
    assert_true(ntidx_metadata_matches_name(&es, "TestEvent1"));
    assert_true(ntidx_metadata_matches_name(&es, "TestEventSource0/TestEvent1"));
    assert_false(ntidx_metadata_matches_name(&es, "TestEventSource0/TestEvent"));
}

/* ------------------------------------------------------------------ */
/* Payloads                                                            */
/* ------------------------------------------------------------------ */

static void allocation_tick(pb *b, unsigned ps)
{
    u32(b, 104096);
    u32(b, 1);
    u16(b, 3);
    u64(b, 104096);
    ptr(b, ps, 0x7ffe12345678ULL & (ps == 4 ? 0xffffffffULL : ~0ULL));
    wstr(b, "System.Object[]");
    u32(b, 0);
    ptr(b, ps, 0x1000);
}

static void test_pointer_size(void **state)
{
    (void)state;
    ntidx_metadata m = runtime_row(RT, 10, 3);
    ntx_manifest_fill(&m);
    pb b = {0};
    allocation_tick(&b, 8);
    decoded d = decode(&m, &b, 8);
    assert_int_equal(d.rc, NTIDX_OK);
    assert_int_equal(d.used, b.len);
    assert_string_equal(d.json, "{\"AllocationAmount\":104096,\"AllocationKind\":1,\"ClrInstanceID\":3,"
                                "\"AllocationAmount64\":104096,\"TypeID\":140729203840632,"
                                "\"TypeName\":\"System.Object[]\",\"HeapIndex\":0,\"Address\":4096}");
    pb b4 = {0};
    allocation_tick(&b4, 4);
    assert_int_equal(b4.len, b.len - 8);
    d = decode(&m, &b4, 4);
    assert_int_equal(d.rc, NTIDX_OK);
    assert_int_equal(d.used, b4.len);
    assert_string_equal(d.json, "{\"AllocationAmount\":104096,\"AllocationKind\":1,\"ClrInstanceID\":3,"
                                "\"AllocationAmount64\":104096,\"TypeID\":305419896,"
                                "\"TypeName\":\"System.Object[]\",\"HeapIndex\":0,\"Address\":4096}");
    /* 4-byte pointers read as 8 run out of bytes: an error, not a misread. */
    d = decode(&m, &b4, 8);
    assert_int_equal(d.rc, NTIDX_E_PAYLOAD);
    assert_string_equal(d.json, "");
}

static void test_newer_version_leaves_trailing_bytes(void **state)
{
    (void)state;
    ntidx_metadata m = runtime_row(RT, 10, 5); /* the tables know up to v4 */
    ntx_manifest_fill(&m);
    assert_string_equal(m.event_name, "GC/AllocationTick");
    pb b = {0};
    allocation_tick(&b, 8);
    u64(&b, 24); /* v4's ObjectSize */
    size_t known = b.len;
    u64(&b, 0xdeadbeef); /* a field of v5 */
    wstr(&b, "new");
    decoded d = decode(&m, &b, 8);
    assert_int_equal(d.rc, NTIDX_OK);
    assert_int_equal(d.used, known);
    assert_non_null(strstr(d.json, "\"Address\":4096,\"ObjectSize\":24}"));
}

static void test_counted_arrays(void **state)
{
    (void)state;
    ntidx_metadata m = runtime_row(RT, 190, 0); /* Method/ILToNativeMap */
    ntx_manifest_fill(&m);
    pb b = {0};
    u64(&b, 0x1111);
    u64(&b, 0);
    u8(&b, 0);
    u16(&b, 3);
    u32(&b, 0xfffffffe);
    u32(&b, 0);
    u32(&b, 7);
    u32(&b, 0);
    u32(&b, 4);
    u32(&b, 20);
    u16(&b, 3);
    decoded d = decode(&m, &b, 8);
    assert_int_equal(d.rc, NTIDX_OK);
    assert_int_equal(d.used, b.len);
    assert_string_equal(d.json, "{\"MethodID\":4369,\"ReJITID\":0,\"MethodExtent\":0,\"CountOfMapEntries\":3,"
                                "\"ILOffsets\":[4294967294,0,7],\"NativeOffsets\":[0,4,20],\"ClrInstanceID\":3}");
    /* A count larger than the bytes left is an error. */
    b.d[17] = 0xff;
    b.d[18] = 0x7f;
    d = decode(&m, &b, 8);
    assert_int_equal(d.rc, NTIDX_E_PAYLOAD);
    assert_non_null(strstr(d.err, "ILOffsets"));

    /* Structs counted by an earlier field, with pointer-size members. */
    ntidx_metadata r = runtime_row(RT, 22, 0); /* GC/BulkMovedObjectRanges */
    ntx_manifest_fill(&r);
    for (unsigned ps = 4; ps <= 8; ps += 4) {
        pb c = {0};
        u32(&c, 0);
        u32(&c, 2);
        u16(&c, 3);
        for (int i = 0; i < 2; i++) {
            ptr(&c, ps, 0x100 + (uint64_t)i);
            ptr(&c, ps, 0x200 + (uint64_t)i);
            u64(&c, 24);
        }
        d = decode(&r, &c, ps);
        assert_int_equal(d.rc, NTIDX_OK);
        assert_int_equal(d.used, c.len);
        assert_string_equal(d.json, "{\"Index\":0,\"Count\":2,\"ClrInstanceID\":3,\"Values\":["
                                    "{\"OldRangeBase\":256,\"NewRangeBase\":512,\"RangeLength\":24},"
                                    "{\"OldRangeBase\":257,\"NewRangeBase\":513,\"RangeLength\":24}]}");
    }

    /* win:Binary length="DataSize". */
    ntidx_metadata g = runtime_row(RT, 39, 0); /* GC/DynamicEvent */
    ntx_manifest_fill(&g);
    pb e = {0};
    wstr(&e, "Tick");
    u32(&e, 3);
    u8(&e, 1);
    u8(&e, 2);
    u8(&e, 255);
    u16(&e, 3);
    d = decode(&g, &e, 8);
    assert_int_equal(d.rc, NTIDX_OK);
    assert_int_equal(d.used, e.len);
    assert_string_equal(d.json, "{\"Name\":\"Tick\",\"DataSize\":3,\"Data\":[1,2,255],\"ClrInstanceID\":3}");
}

static void test_ansi_string(void **state)
{
    (void)state;
    ntidx_metadata m = runtime_row(RT, 186, 0); /* Method/InliningFailedAnsi */
    ntx_manifest_fill(&m);
    pb b = {0};
    for (int i = 0; i < 9; i++)
        wstr(&b, i % 3 == 1 ? "M" : "");
    u32(&b, 1);
    astr(&b, "too \"big\"");
    u16(&b, 3);
    decoded d = decode(&m, &b, 8);
    assert_int_equal(d.rc, NTIDX_OK);
    assert_int_equal(d.used, b.len);
    assert_non_null(strstr(d.json, "\"FailAlways\":true,\"FailReason\":\"too \\\"big\\\"\",\"ClrInstanceID\":3}"));
    /* Without its terminator the ANSI string is an error. */
    pb c = b;
    c.len -= 3; /* drop ClrInstanceID and the NUL */
    d = decode(&m, &c, 8);
    assert_int_equal(d.rc, NTIDX_E_PAYLOAD);
    assert_non_null(strstr(d.err, "FailReason"));
}

static void exception_thrown(pb *b, int message)
{
    wstr(b, "System.InvalidOperationException");
    if (message == 1)
        wstr(b, "boom");
    else if (message == 0)
        wstr(b, "");
    /* message == -1: omitted entirely, as .NET Core 3/5 wrote a NULL string */
    u64(b, 0x7ffe00001234ULL);
    u32(b, 0x80131509);
    u16(b, 16);
    u16(b, 3);
}

static void test_omitted_string(void **state)
{
    (void)state;
    ntidx_metadata m = runtime_row(RT, 80, 1); /* Exception/Start */
    ntx_manifest_fill(&m);
    static const char *want_empty = "{\"ExceptionType\":\"System.InvalidOperationException\",\"ExceptionMessage\":\"\","
                                    "\"ExceptionEIP\":140728898425396,\"ExceptionHRESULT\":2148734217,"
                                    "\"ExceptionFlags\":16,\"ClrInstanceID\":3}";
    /* Twice: the first decode of a layout makes its plan on the way; the second round goes through the plan
       (for the formatter, with its keys). */
    for (int k = 0; k < 6; k++) {
        const int variant = k % 3 - 1;
        pb b = {0};
        exception_thrown(&b, variant);
        decoded d = decode(&m, &b, 8);
        assert_int_equal(d.rc, NTIDX_OK);
        assert_int_equal(d.used, b.len);
        if (variant == 1)
            assert_non_null(strstr(d.json, "\"ExceptionMessage\":\"boom\",\"ExceptionEIP\":140728898425396,"));
        else
            assert_string_equal(d.json, want_empty);
    }
    /* The rule is for manifest layouts only: a trace's own layout reads the bytes as they are. */
    static const ntidx_field own[] = {
        {.name = "A", .type_code = NTIDX_TYPE_UTF16_STRING},
        {.name = "B", .type_code = NTIDX_TYPE_UINT16},
    };
    ntidx_metadata t = {.provider = "MyEventSource", .event_name = "E", .has_fields = 1, .field_count = 2, .fields = own};
    pb b = {0};
    u16(&b, 5);
    decoded d = decode(&t, &b, 8);
    assert_int_equal(d.rc, NTIDX_E_PAYLOAD);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_invariants),
        cmocka_unit_test(test_names_match_traceevent),
        cmocka_unit_test(test_find_by_version),
        cmocka_unit_test(test_fill_only_gaps),
        cmocka_unit_test(test_matches_name),
        cmocka_unit_test(test_pointer_size),
        cmocka_unit_test(test_newer_version_leaves_trailing_bytes),
        cmocka_unit_test(test_counted_arrays),
        cmocka_unit_test(test_ansi_string),
        cmocka_unit_test(test_omitted_string),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
