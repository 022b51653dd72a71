/*
 * Traces of the .NET runtime's events (GC, JIT, allocation ticks,
 * exceptions, module loads), written with the writer API for the analysis
 * tests: each event with the payload the runtime writes (the
 * manifest's layout for its version, docs/runtime-events.md), its metadata
 * without a field list, as the runtime's own metadata comes (the reader
 * fills the layout from the manifest). Sequence points where a test puts
 * them make the region boundaries the merge has to bridge.
 */
#ifndef NTIDX_TESTS_RT_TRACE_H
#define NTIDX_TESTS_RT_TRACE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <ntidx/writer.h>

#define RT_PROVIDER "Microsoft-Windows-DotNETRuntime"
#define RT_THREADS 8 /* threads 1..7 (thread ids 1001..1007) */

typedef struct rt_trace {
    ntidx_writer *w;
    int v6;
    uint32_t seq[RT_THREADS];
    uint32_t meta_ids[256][4]; /* metadata id by (event id, version), 0 until defined */
    uint32_t next_meta;
    uint64_t last_ts;
} rt_trace;

/* The writer's defaults: 10 MHz ticks from 0, so 1 ms is 10,000 ticks. */
#define RT_MS 10000ull

static inline void rt_begin(rt_trace *rt, int format_version, uint32_t pid)
{
    memset(rt, 0, sizeof *rt);
    ntidx_writer_options wo;
    ntidx_writer_options_defaults(&wo);
    wo.format_version = format_version;
    wo.process_id = pid;
    rt->v6 = format_version == 6;
    rt->next_meta = 1;
    assert_int_equal(ntidx_writer_open_memory(&wo, &rt->w), NTIDX_OK);
    if (rt->v6)
        for (uint64_t i = 1; i < RT_THREADS; i++) {
            ntidx_thread th = {.index = i, .has_os_thread_id = 1, .os_thread_id = 1000 + i,
                               .has_os_process_id = 1, .os_process_id = pid};
            assert_int_equal(ntidx_writer_add_thread(rt->w, &th), NTIDX_OK);
        }
}

/* The OS thread id of test thread i (what analyses report). */
static inline uint64_t rt_tid(rt_trace *rt, uint32_t i) { return rt->v6 ? 1000 + i : i; }

/* Event `id` version `ver` on thread 1..7 at `ts`, with stack `stack_id` (0: none; rt_stack()). */
static inline void rt_event_stack(rt_trace *rt, uint32_t id, uint32_t ver, uint32_t thread, uint64_t ts,
                                  const void *payload, uint32_t size, uint32_t stack_id)
{
    assert_true(id < 256 && ver < 4 && thread >= 1 && thread < RT_THREADS);
    if (!rt->meta_ids[id][ver]) {
        ntidx_metadata m = {.id = rt->next_meta, .provider = RT_PROVIDER, .event_id = id, .version = ver,
                            .event_name = "", .opcode = -1, .level = 4, .keywords = 1, .has_fields = 1};
        assert_int_equal(ntidx_writer_add_metadata(rt->w, &m), NTIDX_OK);
        rt->meta_ids[id][ver] = rt->next_meta++;
    }
    ntidx_event ev = {.metadata_id = rt->meta_ids[id][ver], .sequence_number = ++rt->seq[thread],
                      .thread_index = thread, .capture_thread_index = thread, .timestamp = ts, .is_sorted = 1,
                      .payload = payload, .payload_size = size, .stack_id = stack_id};
    assert_int_equal(ntidx_writer_add_event(rt->w, &ev), NTIDX_OK);
    rt->last_ts = ts;
}

/* Event `id` version `ver` on thread 1..7 at `ts`. */
static inline void rt_event(rt_trace *rt, uint32_t id, uint32_t ver, uint32_t thread, uint64_t ts, const void *payload,
                            uint32_t size)
{
    rt_event_stack(rt, id, ver, thread, ts, payload, size, 0);
}

/* Stack `id` (1 and up; dead after the next sequence point): `n` instruction pointers, the leaf first. */
static inline void rt_stack(rt_trace *rt, uint32_t id, const uint64_t *ips, uint32_t n)
{
    uint8_t b[64 * 8];
    assert_true(n <= 64);
    memcpy(b, ips, n * 8u); /* 8-byte pointers, little-endian hosts (as the tests run) */
    assert_int_equal(ntidx_writer_add_stack(rt->w, id, b, n * 8u), NTIDX_OK);
}

/* A sequence point: the region before it ends here. */
static inline void rt_seqpoint(rt_trace *rt, uint64_t ts)
{
    ntidx_thread_seq th[RT_THREADS - 1];
    for (uint32_t i = 1; i < RT_THREADS; i++)
        th[i - 1] = (ntidx_thread_seq){i, rt->seq[i]};
    assert_int_equal(ntidx_writer_sequence_point(rt->w, ts, 0, th, RT_THREADS - 1), NTIDX_OK);
}

/* The trace's bytes (malloc'ed): with its end-of-stream marker when `finish`, else as a writer that died. */
static inline uint8_t *rt_end(rt_trace *rt, int finish, size_t *size)
{
    if (finish)
        assert_int_equal(ntidx_writer_finish(rt->w), NTIDX_OK);
    else
        assert_int_equal(ntidx_writer_flush(rt->w), NTIDX_OK);
    const uint8_t *bytes = ntidx_writer_memory(rt->w, size);
    uint8_t *data = malloc(*size ? *size : 1);
    assert_non_null(data);
    memcpy(data, bytes, *size);
    assert_int_equal(ntidx_writer_close(&rt->w), NTIDX_OK);
    return data;
}

/* Little-endian payload building. */
typedef struct rt_buf {
    uint8_t b[1024];
    uint32_t n;
} rt_buf;

static inline void rt_u16(rt_buf *p, uint16_t v)
{
    memcpy(p->b + p->n, &v, 2);
    p->n += 2;
}
static inline void rt_u32(rt_buf *p, uint32_t v)
{
    memcpy(p->b + p->n, &v, 4);
    p->n += 4;
}
static inline void rt_u64(rt_buf *p, uint64_t v)
{
    memcpy(p->b + p->n, &v, 8);
    p->n += 8;
}
/* A NUL-terminated UTF-16 string from ASCII. */
static inline void rt_str16(rt_buf *p, const char *s)
{
    for (; *s; s++)
        rt_u16(p, (uint16_t)(unsigned char)*s);
    rt_u16(p, 0);
}

/* GC/SuspendEEStart v1 (9): Reason (1 SuspendForGC, 6 SuspendForGCPrep, 0 other), Count, ClrInstanceID. */
static inline void rt_suspend_start(rt_trace *rt, uint32_t thread, uint64_t ts, uint32_t reason)
{
    rt_buf p = {0};
    rt_u32(&p, reason);
    rt_u32(&p, 0);
    rt_u16(&p, 9);
    rt_event(rt, 9, 1, thread, ts, p.b, p.n);
}

/* GC/SuspendEEStop v1 (8) and GC/RestartEEStop v1 (3): ClrInstanceID only. */
static inline void rt_suspend_stop(rt_trace *rt, uint32_t thread, uint64_t ts)
{
    uint8_t p[2] = {9, 0};
    rt_event(rt, 8, 1, thread, ts, p, 2);
}
static inline void rt_restart_stop(rt_trace *rt, uint32_t thread, uint64_t ts)
{
    uint8_t p[2] = {9, 0};
    rt_event(rt, 3, 1, thread, ts, p, 2);
}

/* GC/Start v2 (1): Count, Depth, Reason, Type, ClrInstanceID, ClientSequenceNumber. */
static inline void rt_gc_start(rt_trace *rt, uint32_t thread, uint64_t ts, uint32_t count, uint32_t depth,
                               uint32_t reason, uint32_t type)
{
    rt_buf p = {0};
    rt_u32(&p, count);
    rt_u32(&p, depth);
    rt_u32(&p, reason);
    rt_u32(&p, type);
    rt_u16(&p, 9);
    rt_u64(&p, 0);
    rt_event(rt, 1, 2, thread, ts, p.b, p.n);
}

/* GC/Stop v1 (2): Count, Depth, ClrInstanceID. */
static inline void rt_gc_end(rt_trace *rt, uint32_t thread, uint64_t ts, uint32_t count, uint32_t depth)
{
    rt_buf p = {0};
    rt_u32(&p, count);
    rt_u32(&p, depth);
    rt_u16(&p, 9);
    rt_event(rt, 2, 1, thread, ts, p.b, p.n);
}

/* GC/HeapStats v2 (4): generation sizes and promoted bytes of gen0, 1, 2, LOH, POH. */
static inline void rt_heap_stats(rt_trace *rt, uint32_t thread, uint64_t ts, const uint64_t size[5],
                                 const uint64_t promoted[5])
{
    rt_buf p = {0};
    for (int g = 0; g < 4; g++) {
        rt_u64(&p, size[g]);
        rt_u64(&p, promoted[g]);
    }
    rt_u64(&p, 0);  /* FinalizationPromotedSize */
    rt_u64(&p, 0);  /* FinalizationPromotedCount */
    rt_u32(&p, 0);  /* PinnedObjectCount */
    rt_u32(&p, 0);  /* SinkBlockCount */
    rt_u32(&p, 0);  /* GCHandleCount */
    rt_u16(&p, 9);
    rt_u64(&p, size[4]);
    rt_u64(&p, promoted[4]);
    rt_event(rt, 4, 2, thread, ts, p.b, p.n);
}

/* GC/AllocationTick v2 (10): 100 KB-ish of `kind` (0 small, 1 large, 2 pinned). */
static inline void rt_alloc_tick(rt_trace *rt, uint32_t thread, uint64_t ts, uint32_t amount, uint32_t kind)
{
    rt_buf p = {0};
    rt_u32(&p, amount);
    rt_u32(&p, kind);
    rt_u16(&p, 9);
    rt_u64(&p, amount);
    rt_u64(&p, 0x1234); /* TypeID */
    const char *name = "System.Byte[]";
    for (const char *c = name; *c; c++)
        rt_u16(&p, (uint16_t)*c);
    rt_u16(&p, 0);
    rt_u32(&p, 0); /* HeapIndex */
    rt_event(rt, 10, 2, thread, ts, p.b, p.n);
}

/* GC/AllocationTick v2 (10) of type `name`, or v1 (no amount64, no type name) when `ver` is 1. */
static inline void rt_alloc_tick_named(rt_trace *rt, uint32_t ver, uint32_t thread, uint64_t ts, uint32_t amount,
                                       uint32_t kind, const char *name)
{
    rt_buf p = {0};
    rt_u32(&p, amount);
    rt_u32(&p, kind);
    rt_u16(&p, 9);
    if (ver >= 2) {
        rt_u64(&p, amount);
        rt_u64(&p, 0x1234); /* TypeID */
        rt_str16(&p, name);
        rt_u32(&p, 0);      /* HeapIndex */
    }
    rt_event(rt, 10, ver, thread, ts, p.b, p.n);
}

/* Method/JittingStarted v1 (145): MethodID, ModuleID, MethodToken, MethodILSize, MethodNamespace, MethodName,
   MethodSignature, ClrInstanceID. */
static inline void rt_jit_start(rt_trace *rt, uint32_t thread, uint64_t ts, uint64_t method_id, uint32_t il_size,
                                const char *ns, const char *name, const char *sig)
{
    rt_buf p = {0};
    rt_u64(&p, method_id);
    rt_u64(&p, 0x100);
    rt_u32(&p, 0x06000001);
    rt_u32(&p, il_size);
    rt_str16(&p, ns);
    rt_str16(&p, name);
    rt_str16(&p, sig);
    rt_u16(&p, 9);
    rt_event(rt, 145, 1, thread, ts, p.b, p.n);
}

/* MethodFlags of jitted code at optimization tier `tier` (bits 7-9; 3 QuickJitted, 4 OptimizedTier1). */
#define RT_JITTED(tier) (0x8u | ((uint32_t)(tier) << 7))

/* Method/LoadVerbose (143), version 1, or 2 with ReJITID `rejit`: MethodID, ModuleID, MethodStartAddress,
   MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID[, ReJITID]. */
static inline void rt_method_load_verbose(rt_trace *rt, uint32_t ver, uint32_t thread, uint64_t ts, uint64_t method_id,
                                          uint64_t module_id, uint64_t start, uint32_t size, uint32_t flags,
                                          const char *ns, const char *name, const char *sig, uint64_t rejit)
{
    rt_buf p = {0};
    rt_u64(&p, method_id);
    rt_u64(&p, module_id);
    rt_u64(&p, start);
    rt_u32(&p, size);
    rt_u32(&p, 0x06000001);
    rt_u32(&p, flags);
    rt_str16(&p, ns);
    rt_str16(&p, name);
    rt_str16(&p, sig);
    rt_u16(&p, 9);
    if (ver >= 2)
        rt_u64(&p, rejit);
    rt_event(rt, 143, ver, thread, ts, p.b, p.n);
}

/* Method/Load v1 (141): MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags,
   ClrInstanceID (no name). */
static inline void rt_method_load(rt_trace *rt, uint32_t thread, uint64_t ts, uint64_t method_id, uint32_t size,
                                  uint32_t flags)
{
    rt_buf p = {0};
    rt_u64(&p, method_id);
    rt_u64(&p, 0x100);
    rt_u64(&p, 0x7000 + method_id);
    rt_u32(&p, size);
    rt_u32(&p, 0x06000001);
    rt_u32(&p, flags);
    rt_u16(&p, 9);
    rt_event(rt, 141, 1, thread, ts, p.b, p.n);
}

/* Loader/ModuleLoad v1 (152): ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath,
   ClrInstanceID. */
static inline void rt_module_load(rt_trace *rt, uint32_t thread, uint64_t ts, uint64_t module_id, const char *il_path)
{
    rt_buf p = {0};
    rt_u64(&p, module_id);
    rt_u64(&p, 0x200);
    rt_u32(&p, 0);
    rt_u32(&p, 0);
    rt_str16(&p, il_path);
    rt_str16(&p, "");
    rt_u16(&p, 9);
    rt_event(rt, 152, 1, thread, ts, p.b, p.n);
}

/* Exception/Start v1 (80): ExceptionType, ExceptionMessage, ExceptionEIP, ExceptionHRESULT, ExceptionFlags,
   ClrInstanceID; with stack `stack_id` (0: none). */
static inline void rt_exception(rt_trace *rt, uint32_t thread, uint64_t ts, const char *type, const char *message,
                                uint32_t stack_id)
{
    rt_buf p = {0};
    rt_str16(&p, type);
    rt_str16(&p, message);
    rt_u64(&p, 0x1010);     /* ExceptionEIP */
    rt_u32(&p, 0x80131509); /* ExceptionHRESULT */
    rt_u16(&p, 16);         /* ExceptionFlags */
    rt_u16(&p, 9);
    rt_event_stack(rt, 80, 1, thread, ts, p.b, p.n, stack_id);
}

/* GC/PerHeapHistory v3 (204) of one heap: `ngens` generations of {SizeBefore, FreeListBefore, FreeObjBefore,
   SizeAfter, FreeListAfter, FreeObjAfter, In, PinnedSurv, NonePinnedSurv, NewAllocation}. */
static inline void rt_per_heap(rt_trace *rt, uint32_t thread, uint64_t ts, uint32_t heap, uint32_t ngens,
                               const uint64_t gens[][10])
{
    rt_buf p = {0};
    rt_u16(&p, 9);
    for (int i = 0; i < 6; i++)
        rt_u64(&p, 0); /* FreeListAllocated .. PinnedAllocatedAdvance */
    for (int i = 0; i < 5; i++)
        rt_u32(&p, 0); /* RunningFreeListEfficiency .. ExpandMechanisms */
    rt_u32(&p, heap);
    rt_u64(&p, 0); /* ExtraGen0Commit */
    rt_u32(&p, ngens);
    for (uint32_t g = 0; g < ngens; g++)
        for (int k = 0; k < 10; k++)
            rt_u64(&p, gens[g][k]);
    rt_event(rt, 204, 3, thread, ts, p.b, p.n);
}

#endif
