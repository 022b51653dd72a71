/*
 * Events of the pair analyses' tests, written over rt_trace.h: EventSource
 * Start/Stop events with activity ids (V5: in the event header; V6: in a
 * label list), the runtime's Contention/Start and Stop, ExceptionCatch/Start
 * and Stop, and ThreadPoolWorkerThread/Wait, each with the payload the
 * runtime or EventSource writes.
 */
#ifndef NTIDX_TESTS_ES_TRACE_H
#define NTIDX_TESTS_ES_TRACE_H

#include "rt_trace.h"

/* An EventSource activity path of process `pid`: the numbers (1 to 10 each), as EventSource's
   ActivityTracker makes them: one nibble per number from the first byte on, the process id in the last
   4 bytes (StartStopActivityComputer.IsActivityPath). */
static inline void es_path(uint32_t pid, const uint32_t *nums, size_t n, uint8_t id[16])
{
    memset(id, 0, 16);
    assert_true(n <= 24);
    for (size_t i = 0; i < n; i++) {
        assert_true(nums[i] >= 1 && nums[i] <= 10);
        id[i / 2] |= (uint8_t)(i % 2 ? nums[i] : nums[i] << 4);
    }
    uint32_t w[3];
    memcpy(w, id, 12);
    uint32_t last = (w[0] + w[1] + w[2] + 0x599D99ADu) ^ pid;
    memcpy(id + 12, &last, 4);
}

/* The metadata id of EventSource event `event_id` of `provider`, defined on first use: named `name`
   with opcode `opcode` (-1: none, as V4 traces write EventSource's; the name then implies it), one
   Int32 field "item". */
static inline uint32_t es_meta(rt_trace *rt, const char *provider, uint32_t event_id, const char *name, int opcode)
{
    static const ntidx_field item = {.name = "item", .type_code = NTIDX_TYPE_INT32};
    ntidx_metadata m = {.id = rt->next_meta, .provider = provider, .event_id = event_id, .event_name = name,
                        .opcode = opcode, .level = 4, .keywords = 0, .has_fields = 1, .field_count = 1,
                        .fields = &item};
    assert_int_equal(ntidx_writer_add_metadata(rt->w, &m), NTIDX_OK);
    return rt->next_meta++;
}

/* The metadata id of the runtime's event `id` version `ver` (as rt_event() defines it). */
static inline uint32_t es_rt_meta(rt_trace *rt, uint32_t id, uint32_t ver)
{
    assert_true(id < 256 && ver < 4);
    if (!rt->meta_ids[id][ver]) {
        ntidx_metadata m = {.id = rt->next_meta, .provider = RT_PROVIDER, .event_id = id, .version = ver,
                            .event_name = "", .opcode = -1, .level = 4, .keywords = 1, .has_fields = 1};
        assert_int_equal(ntidx_writer_add_metadata(rt->w, &m), NTIDX_OK);
        rt->meta_ids[id][ver] = rt->next_meta++;
    }
    return rt->meta_ids[id][ver];
}

/* An event of metadata `meta` on thread 1..7 at `ts` with activity ids (NULL: zero). */
static inline void es_event(rt_trace *rt, uint32_t meta, uint32_t thread, uint64_t ts, const uint8_t *id,
                            const uint8_t *related, const void *payload, uint32_t size)
{
    static uint32_t next_list = 1;
    assert_true(thread >= 1 && thread < RT_THREADS);
    ntidx_event ev = {.metadata_id = meta, .sequence_number = ++rt->seq[thread], .thread_index = thread,
                      .capture_thread_index = thread, .timestamp = ts, .is_sorted = 1, .payload = payload,
                      .payload_size = size};
    if (rt->v6) {
        ntidx_label labels[2];
        size_t n = 0;
        if (id) {
            labels[n] = (ntidx_label){.kind = NTIDX_LABEL_ACTIVITY_ID};
            memcpy(labels[n++].guid, id, 16);
        }
        if (related) {
            labels[n] = (ntidx_label){.kind = NTIDX_LABEL_RELATED_ACTIVITY_ID};
            memcpy(labels[n++].guid, related, 16);
        }
        if (n) {
            assert_int_equal(ntidx_writer_add_label_list(rt->w, next_list, labels, n), NTIDX_OK);
            ev.label_list_id = next_list++;
        }
    } else {
        ev.activity_id = id;
        ev.related_activity_id = related;
    }
    assert_int_equal(ntidx_writer_add_event(rt->w, &ev), NTIDX_OK);
    rt->last_ts = ts;
}

/* An EventSource event with its Int32 field. */
static inline void es_item(rt_trace *rt, uint32_t meta, uint32_t thread, uint64_t ts, const uint8_t *id,
                           const uint8_t *related, int32_t item)
{
    es_event(rt, meta, thread, ts, id, related, &item, 4);
}

/* Contention/Start (81): version 0 (no payload), 1 (ContentionFlags, ClrInstanceID) or 2 (and LockID,
   AssociatedObjectID, LockOwnerThreadID). */
static inline void rt_contention_start(rt_trace *rt, uint32_t thread, uint64_t ts, uint32_t ver, uint64_t lock,
                                       uint64_t owner)
{
    rt_buf p = {0};
    if (ver >= 1) {
        p.b[p.n++] = 0; /* Managed */
        rt_u16(&p, 9);
    }
    if (ver >= 2) {
        rt_u64(&p, lock);
        rt_u64(&p, 0x7000 + lock);
        rt_u64(&p, owner);
    }
    es_event(rt, es_rt_meta(rt, 81, ver), thread, ts, NULL, NULL, p.b, p.n);
}

/* Contention/Stop (91): version 0 (ContentionFlags, ClrInstanceID) or 1 (and DurationNs, a double). */
static inline void rt_contention_stop(rt_trace *rt, uint32_t thread, uint64_t ts, uint32_t ver, double duration_ns)
{
    rt_buf p = {0};
    p.b[p.n++] = 0;
    rt_u16(&p, 9);
    if (ver >= 1) {
        memcpy(p.b + p.n, &duration_ns, 8);
        p.n += 8;
    }
    es_event(rt, es_rt_meta(rt, 91, ver), thread, ts, NULL, NULL, p.b, p.n);
}

/* ExceptionCatch/Start (250): EntryEIP, MethodID, MethodName, ClrInstanceID; with activity ids. */
static inline void rt_catch_start(rt_trace *rt, uint32_t thread, uint64_t ts, const uint8_t *id, const uint8_t *related)
{
    rt_buf p = {0};
    rt_u64(&p, 0x401000);
    rt_u64(&p, 0x7f0000);
    for (const char *c = "void Program::Main()"; *c; c++)
        rt_u16(&p, (uint16_t)*c);
    rt_u16(&p, 0);
    rt_u16(&p, 9);
    es_event(rt, es_rt_meta(rt, 250, 0), thread, ts, id, related, p.b, p.n);
}

/* ExceptionCatch/Stop (251): no payload. */
static inline void rt_catch_stop(rt_trace *rt, uint32_t thread, uint64_t ts, const uint8_t *id)
{
    es_event(rt, es_rt_meta(rt, 251, 0), thread, ts, id, NULL, NULL, 0);
}

/* ThreadPoolWorkerThread/Wait (57): ActiveWorkerThreadCount, RetiredWorkerThreadCount, ClrInstanceID. */
static inline void rt_pool_wait(rt_trace *rt, uint32_t thread, uint64_t ts)
{
    rt_buf p = {0};
    rt_u32(&p, 2);
    rt_u32(&p, 0);
    rt_u16(&p, 9);
    es_event(rt, es_rt_meta(rt, 57, 0), thread, ts, NULL, NULL, p.b, p.n);
}

#endif
