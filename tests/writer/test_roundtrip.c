/*
 * Writer -> reader round trips, V5 and V6, compressed and uncompressed
 * headers: a trace using every block kind and every payload field type is
 * written with the writer API, read back with the reader API, and every
 * event field, metadata field, thread, stack, label, sequence-point effect
 * and dropped count is compared with what was written.
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

#include <ntidx/writer.h>

/* ---- a tiny payload builder ---- */

typedef struct pbuf {
    uint8_t b[512];
    uint32_t n;
} pbuf;

static void put(pbuf *p, const void *d, size_t n)
{
    assert_true(p->n + n <= sizeof(p->b));
    memcpy(p->b + p->n, d, n);
    p->n += (uint32_t)n;
}
static void p8(pbuf *p, uint8_t v) { put(p, &v, 1); }
static void p16(pbuf *p, uint16_t v) { uint8_t t[2] = {(uint8_t)v, (uint8_t)(v >> 8)}; put(p, t, 2); }
static void p32(pbuf *p, uint32_t v) { p16(p, (uint16_t)v); p16(p, (uint16_t)(v >> 16)); }
static void p64(pbuf *p, uint64_t v) { p32(p, (uint32_t)v); p32(p, (uint32_t)(v >> 32)); }
static void pvar(pbuf *p, uint64_t v)
{
    while (v >= 0x80) {
        p8(p, (uint8_t)(v | 0x80));
        v >>= 7;
    }
    p8(p, (uint8_t)v);
}
/* ASCII, plus \x01 standing for U+1F680 (a surrogate pair) and \x02 for U+00E9. */
static void putf16(pbuf *p, const char *s)
{
    for (; *s; s++) {
        if (*s == 1) {
            p16(p, 0xD83D);
            p16(p, 0xDE80);
        } else if (*s == 2) {
            p16(p, 0xE9);
        } else {
            p16(p, (uint16_t)*s);
        }
    }
    p16(p, 0);
}

/* ---- schema: every field type of each version ---- */

#define F(n, t) {n, t, 0, NULL, NULL, 0}
#define NF(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

static const ntidx_field e_i32 = F("", NTIDX_TYPE_INT32);
static const ntidx_field e_str = F("", NTIDX_TYPE_UTF16_STRING);
static const ntidx_field e_byte = F("", NTIDX_TYPE_BYTE);
static const ntidx_field e_i16 = F("", NTIDX_TYPE_INT16);
static const ntidx_field e_u16 = F("", NTIDX_TYPE_UINT16);
static const ntidx_field e_c8 = F("", NTIDX_TYPE_UTF8_CODE_UNIT);

static const ntidx_field prim[] = {
    F("b", NTIDX_TYPE_BOOLEAN32), F("c", NTIDX_TYPE_UTF16_CODE_UNIT), F("sb", NTIDX_TYPE_SBYTE),
    F("by", NTIDX_TYPE_BYTE),     F("i16", NTIDX_TYPE_INT16),         F("u16", NTIDX_TYPE_UINT16),
    F("i32", NTIDX_TYPE_INT32),   F("u32", NTIDX_TYPE_UINT32),        F("i64", NTIDX_TYPE_INT64),
    F("u64", NTIDX_TYPE_UINT64),  F("f", NTIDX_TYPE_SINGLE),          F("d", NTIDX_TYPE_DOUBLE),
    F("dec", NTIDX_TYPE_DECIMAL), F("dt", NTIDX_TYPE_DATETIME),       F("g", NTIDX_TYPE_GUID),
    F("s", NTIDX_TYPE_UTF16_STRING),
};
static const ntidx_field obj_fields[] = {F("x", NTIDX_TYPE_INT16), {"bytes", NTIDX_TYPE_ARRAY, 0, &e_byte, NULL, 0}};
static const ntidx_field kv_fields[] = {F("k", NTIDX_TYPE_BYTE), F("v", NTIDX_TYPE_UTF16_STRING)};
static const ntidx_field e_kv = {"", NTIDX_TYPE_OBJECT, 0, NULL, kv_fields, 2};
static const ntidx_field arrays[] = {
    {"ai", NTIDX_TYPE_ARRAY, 0, &e_i32, NULL, 0},
    {"as", NTIDX_TYPE_ARRAY, 0, &e_str, NULL, 0},
    {"o", NTIDX_TYPE_OBJECT, 0, NULL, obj_fields, 2},
    {"kv", NTIDX_TYPE_ARRAY, 0, &e_kv, NULL, 0},
};
static const ntidx_field flag_fields[] = {F("ok", NTIDX_TYPE_BOOLEAN8), F("n", NTIDX_TYPE_BYTE)};
static const ntidx_field e_flag = {"", NTIDX_TYPE_OBJECT, 0, NULL, flag_fields, 2};
static const ntidx_field v6types[] = {
    F("vi", NTIDX_TYPE_VARINT),
    F("vu", NTIDX_TYPE_VARUINT),
    {"fa", NTIDX_TYPE_FIXED_ARRAY, 3, &e_i16, NULL, 0},
    F("c8", NTIDX_TYPE_UTF8_CODE_UNIT),
    F("b8", NTIDX_TYPE_BOOLEAN8),
    {"rl", NTIDX_TYPE_RELLOC, 0, &e_u16, NULL, 0},
    {"dl", NTIDX_TYPE_DATALOC, 0, &e_byte, NULL, 0},
    {"fo", NTIDX_TYPE_FIXED_ARRAY, 2, &e_flag, NULL, 0},
    {"s8", NTIDX_TYPE_ARRAY, 0, &e_c8, NULL, 0},
};
static const ntidx_field attr_fields[] = {F("x", NTIDX_TYPE_INT32)};

enum { M_PRIM, M_ARR, M_V6, M_EMPTY, M_ATTR, M_COUNT };

static ntidx_metadata schema(int k, int v6, uint32_t id_base)
{
    ntidx_metadata m;
    memset(&m, 0, sizeof(m));
    m.id = id_base + (uint32_t)k + 1;
    m.opcode = -1;
    m.has_fields = 1;
    m.provider = "Contoso-Test";
    m.event_id = (uint32_t)k + 1;
    switch (k) {
    case M_PRIM:
        m.event_name = "Primitives";
        m.fields = prim;
        m.field_count = NF(prim);
        m.level = 4;
        break;
    case M_ARR:
        m.event_name = "Arrays";
        m.fields = arrays;
        m.field_count = NF(arrays);
        m.version = 1;
        break;
    case M_V6:
        m.event_name = "V6Types";
        m.fields = v6types;
        m.field_count = NF(v6types);
        break;
    case M_EMPTY:
        m.event_name = "";
        m.provider = "Runtime\xC3\xA9"; /* UTF-8 survives the UTF-16 round trip of V5 */
        m.has_fields = 0;
        m.event_id = 300;
        break;
    default:
        m.provider = "Attr";
        m.event_name = "WithAttributes";
        m.event_id = 77;
        m.version = 3;
        m.level = 5;
        m.keywords = 0x8000000000000001ull;
        m.opcode = 10;
        m.fields = attr_fields;
        m.field_count = 1;
        if (v6) {
            m.message_template = "x is {x}";
            m.description = "an event with every attribute";
        }
        break;
    }
    return m;
}

/* The payload of each type (the same for every event of the type). */
static void payload(int k, int v6, pbuf *p)
{
    p->n = 0;
    switch (k) {
    case M_PRIM:
        p32(p, 1);
        p16(p, 'Z');
        p8(p, (uint8_t)-5);
        p8(p, 250);
        p16(p, (uint16_t)-300);
        p16(p, 65000);
        p32(p, (uint32_t)-70000);
        p32(p, 4000000000u);
        p64(p, (uint64_t)-5000000000ll);
        p64(p, 18000000000000000000ull);
        p32(p, 0x3FC00000u);             /* 1.5f */
        p64(p, 0xC002000000000000ull);   /* -2.25 */
        for (int i = 1; i <= 16; i++)    /* decimal */
            p8(p, (uint8_t)i);
        if (v6) { /* SYSTEMTIME 2026-01-02 (Friday) 03:04:05.006 */
            const uint16_t st[8] = {2026, 1, 5, 2, 3, 4, 5, 6};
            for (int i = 0; i < 8; i++)
                p16(p, st[i]);
        } else { /* FILETIME of 2026-01-01T00:00:00Z */
            p64(p, 134116992000000000ull);
        }
        for (int i = 0; i < 16; i++)
            p8(p, (uint8_t)(0x11 * i));
        putf16(p, "h\x02llo \x01");
        break;
    case M_ARR:
        p16(p, 3); p32(p, 1); p32(p, (uint32_t)-2); p32(p, 3);
        p16(p, 2); putf16(p, "a"); putf16(p, "");
        p16(p, 7); p16(p, 2); p8(p, 9); p8(p, 8);
        p16(p, 1); p8(p, 42); putf16(p, "v");
        break;
    case M_V6:
        pvar(p, 13);          /* vi = -7 (zig-zag) */
        pvar(p, 300);         /* vu */
        p16(p, 1); p16(p, (uint16_t)-1); p16(p, 3);
        p8(p, 'q');
        p8(p, 1);
        p32(p, (4u << 16) | 12); /* rl at 11: 4 bytes, 12 after the field (payload 27) */
        p32(p, (3u << 16) | 31); /* dl at 15: 3 bytes at payload offset 31 */
        p8(p, 1); p8(p, 2); p8(p, 0); p8(p, 3);
        p16(p, 2); p8(p, 'h'); p8(p, 'i');
        p16(p, 500); p16(p, 600); /* rl data, payload offset 27 */
        p8(p, 7); p8(p, 8); p8(p, 9); /* dl data, payload offset 31 */
        assert_int_equal(p->n, 34);
        break;
    case M_EMPTY:
        break;
    default:
        p32(p, 12345);
        break;
    }
}

/* What the reader's JSON must say for each payload. */
static const char *expected_json(int k, int v6)
{
    switch (k) {
    case M_PRIM:
#define PRIM_JSON(dt)                                                                              \
    "{\"b\":true,\"c\":\"Z\",\"sb\":-5,\"by\":250,\"i16\":-300,\"u16\":65000,\"i32\":-70000,"             \
    "\"u32\":4000000000,\"i64\":-5000000000,\"u64\":18000000000000000000,\"f\":1.5,\"d\":-2.25,"      \
    "\"dec\":\"0102030405060708090a0b0c0d0e0f10\",\"dt\":\"" dt "\","                               \
    "\"g\":\"33221100-5544-7766-8899-aabbccddeeff\",\"s\":\"h\xC3\xA9llo \xF0\x9F\x9A\x80\"}"
        /* DateTime: V6 SYSTEMTIME, V5 FILETIME (what the runtime writes). */
        return v6 ? PRIM_JSON("2026-01-02T03:04:05.006Z") : PRIM_JSON("2026-01-01T00:00:00.0000000Z");
    case M_ARR:
        return "{\"ai\":[1,-2,3],\"as\":[\"a\",\"\"],\"o\":{\"x\":7,\"bytes\":[9,8]},"
               "\"kv\":[{\"k\":42,\"v\":\"v\"}]}";
    case M_V6:
        return "{\"vi\":-7,\"vu\":300,\"fa\":[1,-1,3],\"c8\":\"q\",\"b8\":true,\"rl\":[500,600],"
               "\"dl\":[7,8,9],\"fo\":[{\"ok\":true,\"n\":2},{\"ok\":false,\"n\":3}],\"s8\":\"hi\"}";
    case M_EMPTY:
        return "{}";
    default:
        return "{\"x\":12345}";
    }
}

/* ---- the scenario ---- */

#define MAX_EVENTS 64
#define NTHREADS 3

typedef struct expected {
    ntidx_event ev[MAX_EVENTS];
    int kind[MAX_EVENTS];      /* metadata kind of each event */
    uint32_t id_base[MAX_EVENTS];
    const uint8_t *stack[MAX_EVENTS];
    uint32_t stack_size[MAX_EVENTS];
    const ntidx_label *labels[MAX_EVENTS];
    size_t nlabels[MAX_EVENTS];
    size_t n;
    uint64_t dropped[NTHREADS];
    int blocks[32];
    size_t nblocks;
    uint32_t sequence_points;
} expected;

static pbuf payloads[M_COUNT];
static uint8_t act_a[16], act_b[16], act_r[16];
static uint8_t stacks1[3][40], stacks2[2][24];
static const uint32_t stack1_ips[3] = {2, 0, 5}, stack2_ips[2] = {1, 3};
static ntidx_label labels1[2][6], labels2[1][1];
static const size_t labels1_n[2] = {6, 4}, labels2_n[1] = {1};

static uint64_t thread_key(int v6, int t)
{
    return v6 ? (uint64_t)t + 1 : 0x1001 + (uint64_t)t;
}

static void init_data(void)
{
    for (int i = 0; i < 16; i++) {
        act_a[i] = (uint8_t)(0xA0 + i);
        act_b[i] = (uint8_t)(0xB0 + i);
        act_r[i] = (uint8_t)(0xC0 + i);
    }
    for (int s = 0; s < 3; s++)
        for (int i = 0; i < 40; i++)
            stacks1[s][i] = (uint8_t)(s * 50 + i);
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < 24; i++)
            stacks2[s][i] = (uint8_t)(200 + s + i);
    memset(labels1, 0, sizeof(labels1));
    ntidx_label *l = labels1[0];
    l[0].kind = NTIDX_LABEL_ACTIVITY_ID;
    memcpy(l[0].guid, act_a, 16);
    l[1].kind = NTIDX_LABEL_RELATED_ACTIVITY_ID;
    memcpy(l[1].guid, act_b, 16);
    l[2].kind = NTIDX_LABEL_TRACE_ID;
    memcpy(l[2].guid, act_r, 16);
    l[3].kind = NTIDX_LABEL_SPAN_ID;
    l[3].u = 0x1122334455667788ull;
    l[4].kind = NTIDX_LABEL_KEY_STRING;
    l[4].key = "k1";
    l[4].key_len = 2;
    l[4].str = "v\xC3\xA9";
    l[4].str_len = 3;
    l[5].kind = NTIDX_LABEL_KEY_INT;
    l[5].key = "k2";
    l[5].key_len = 2;
    l[5].i = -7;
    l = labels1[1];
    l[0].kind = NTIDX_LABEL_OPCODE;
    l[0].u = 9;
    l[1].kind = NTIDX_LABEL_KEYWORDS;
    l[1].u = 0xF0F0000000000001ull;
    l[2].kind = NTIDX_LABEL_LEVEL;
    l[2].u = 3;
    l[3].kind = NTIDX_LABEL_VERSION;
    l[3].u = 2;
    memset(labels2, 0, sizeof(labels2));
    labels2[0][0].kind = NTIDX_LABEL_KEY_STRING;
    labels2[0][0].key = "phase";
    labels2[0][0].key_len = 5;
    labels2[0][0].str = "2";
    labels2[0][0].str_len = 1;
}

typedef struct writer_state {
    ntidx_writer *w;
    int v6;
    uint32_t pointer_size;
    uint32_t seq[NTHREADS];
    uint32_t id_base;
    int phase;
    expected *x;
} writer_state;

static void add_event(writer_state *s, int i, int kind, int t, uint64_t ts)
{
    expected *x = s->x;
    assert_true(x->n < MAX_EVENTS);
    ntidx_event *ev = &x->ev[x->n];
    memset(ev, 0, sizeof(*ev));
    ev->metadata_id = s->id_base + (uint32_t)kind + 1;
    ev->sequence_number = ++s->seq[t];
    ev->capture_thread_index = thread_key(s->v6, t);
    ev->thread_index = (i % 7 == 3) ? thread_key(s->v6, (t + 1) % NTHREADS) : ev->capture_thread_index;
    ev->processor_number = (uint32_t)(i % 2 ? 0xFFFFFFFFu : (uint32_t)i);
    uint32_t nstacks = s->phase == 1 ? 3 : 2;
    ev->stack_id = (uint32_t)(i % (int)(nstacks + 1));
    ev->timestamp = ts;
    ev->is_sorted = i % 5 == 0;
    ev->payload = payloads[kind].b;
    ev->payload_size = payloads[kind].n;
    if (s->v6) {
        uint32_t nl = s->phase == 1 ? 2 : 1;
        ev->label_list_id = (uint32_t)(i % (int)(nl + 1));
    } else {
        ev->activity_id = i % 3 == 0 ? act_a : i % 3 == 1 ? NULL : act_b;
        ev->related_activity_id = i == 5 ? act_r : NULL;
    }
    assert_int_equal(ntidx_writer_add_event(s->w, ev), NTIDX_OK);
    x->kind[x->n] = kind;
    x->id_base[x->n] = s->id_base;
    if (ev->stack_id) {
        x->stack[x->n] = s->phase == 1 ? stacks1[ev->stack_id - 1] : stacks2[ev->stack_id - 1];
        x->stack_size[x->n] = (s->phase == 1 ? stack1_ips[ev->stack_id - 1]
                                             : stack2_ips[ev->stack_id - 1]) * s->pointer_size;
    }
    if (ev->label_list_id) {
        x->labels[x->n] = s->phase == 1 ? labels1[ev->label_list_id - 1] : labels2[0];
        x->nlabels[x->n] = s->phase == 1 ? labels1_n[ev->label_list_id - 1] : labels2_n[0];
    }
    x->n++;
}

static void define(writer_state *s)
{
    ntidx_writer *w = s->w;
    for (int k = 0; k < M_COUNT; k++) {
        if (k == M_V6 && !s->v6)
            continue;
        ntidx_metadata m = schema(k, s->v6, s->id_base);
        if (s->phase == 1 || s->v6) /* V6 flushes metadata at the sequence point */
            assert_int_equal(ntidx_writer_add_metadata(w, &m), NTIDX_OK);
    }
    if (s->phase == 1) {
        for (uint32_t i = 0; i < 3; i++)
            assert_int_equal(ntidx_writer_add_stack(w, i + 1, stacks1[i], stack1_ips[i] * s->pointer_size),
                             NTIDX_OK);
        if (s->v6)
            for (uint32_t i = 0; i < 2; i++)
                assert_int_equal(ntidx_writer_add_label_list(w, i + 1, labels1[i], labels1_n[i]), NTIDX_OK);
    } else {
        for (uint32_t i = 0; i < 2; i++)
            assert_int_equal(ntidx_writer_add_stack(w, i + 1, stacks2[i], stack2_ips[i] * s->pointer_size),
                             NTIDX_OK);
        if (s->v6)
            assert_int_equal(ntidx_writer_add_label_list(w, 1, labels2[0], labels2_n[0]), NTIDX_OK);
    }
}

static const ntidx_thread v6_threads[NTHREADS] = {
    {1, 1, 1, 0x1001, 42, "main", {0}},
    {2, 1, 0, 0x1002, 0, "w\xC3\xB6rker", {0}},
    {3, 1, 1, 0x1003, 43, NULL, {0}},
};

static const ntidx_keyvalue extra_kv[] = {{"MachineName", "box"}, {"empty", ""}};

static ntidx_writer_options scenario_options(int v6, int compressed)
{
    ntidx_writer_options o;
    ntidx_writer_options_defaults(&o);
    o.format_version = v6 ? 6 : 5;
    o.compressed_headers = compressed;
    o.pointer_size = v6 ? 8 : 4;
    o.sync_time_utc = (ntidx_systime){2024, 2, 4, 29, 23, 59, 58, 999};
    o.sync_ticks = 123456789;
    o.tick_frequency = 1000000000;
    o.process_id = 4242;
    o.number_of_processors = 16;
    o.expected_cpu_sampling_rate = 1000;
    o.keyvalues = extra_kv;
    o.keyvalue_count = 2;
    return o;
}

/* Write the scenario; `finish` 0 leaves the end-of-stream marker out. */
static ntidx_writer *write_scenario(int v6, int compressed, const char *path, int finish, expected *x)
{
    init_data();
    for (int k = 0; k < M_COUNT; k++)
        payload(k, v6, &payloads[k]);
    memset(x, 0, sizeof(*x));
    ntidx_writer_options o = scenario_options(v6, compressed);
    writer_state s;
    memset(&s, 0, sizeof(s));
    s.v6 = v6;
    s.pointer_size = o.pointer_size;
    s.x = x;
    s.phase = 1;
    int rc = path ? ntidx_writer_open_file(path, &o, &s.w) : ntidx_writer_open_memory(&o, &s.w);
    assert_int_equal(rc, NTIDX_OK);
    if (v6)
        for (int t = 0; t < NTHREADS; t++)
            assert_int_equal(ntidx_writer_add_thread(s.w, &v6_threads[t]), NTIDX_OK);
    define(&s);
    int kinds = v6 ? M_COUNT : M_COUNT - 1;
    /* Phase 1: runs of 4 events per capture thread; runs overlap in time,
     * so the file is out of order across threads, in order per thread. */
    for (int i = 0; i < 24; i++) {
        int t = (i / 4) % NTHREADS;
        int k = i % kinds;
        if (!v6 && k >= M_V6)
            k++;
        if (i == 10) /* thread 1 drops two events */
            s.seq[1] += 2;
        add_event(&s, i, k, t, 1000 + 10 * (uint64_t)(i % 4) + 3 * (uint64_t)t + 40 * (uint64_t)(i / 12));
    }
    x->dropped[1] = 2;
    /* A sequence point that says thread 1 tried to log 3 more events. */
    ntidx_thread_seq sp[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        sp[t].thread = thread_key(v6, t);
        sp[t].sequence_number = s.seq[t] + (t == 1 ? 3 : 0);
    }
    s.seq[1] += 3;
    x->dropped[1] += 3;
    assert_int_equal(ntidx_writer_sequence_point(s.w, 2000, NTIDX_SP_FLUSH_METADATA, sp, NTHREADS), NTIDX_OK);
    /* Phase 2: stacks and label lists re-defined (they died); V6 metadata
     * re-defined under new ids (flushed). */
    s.phase = 2;
    if (v6)
        s.id_base = 100;
    define(&s);
    for (int i = 24; i < 30; i++)
        add_event(&s, i, (i % 2) ? M_ATTR : M_ARR, i % NTHREADS, 2100 + (uint64_t)i);
    /* Thread 2 goes away having tried one more event than it wrote. */
    if (v6) {
        ntidx_thread_seq rm = {thread_key(v6, 2), s.seq[2] + 1};
        assert_int_equal(ntidx_writer_remove_threads(s.w, &rm, 1), NTIDX_OK);
    } else {
        for (int t = 0; t < NTHREADS; t++) {
            sp[t].thread = thread_key(v6, t);
            sp[t].sequence_number = s.seq[t] + (t == 2 ? 1 : 0);
        }
        assert_int_equal(ntidx_writer_sequence_point(s.w, 3000, 0, sp, NTHREADS), NTIDX_OK);
        /* The stacks died again. */
        for (uint32_t k = 0; k < 2; k++)
            assert_int_equal(ntidx_writer_add_stack(s.w, k + 1, stacks2[k], stack2_ips[k] * s.pointer_size),
                             NTIDX_OK);
    }
    s.seq[2]++;
    x->dropped[2] = 1;
    for (int i = 30; i < 32; i++)
        add_event(&s, i, M_PRIM, 0, 3100 + (uint64_t)i);
    if (finish)
        assert_int_equal(ntidx_writer_finish(s.w), NTIDX_OK);

    static const int v6_blocks[] = {
        NTIDX_BLOCK_METADATA, NTIDX_BLOCK_THREAD,     NTIDX_BLOCK_STACK,         NTIDX_BLOCK_LABEL_LIST,
        NTIDX_BLOCK_EVENT,    NTIDX_BLOCK_SEQUENCE_POINT, NTIDX_BLOCK_METADATA, NTIDX_BLOCK_STACK,
        NTIDX_BLOCK_LABEL_LIST, NTIDX_BLOCK_EVENT,    NTIDX_BLOCK_REMOVE_THREAD, NTIDX_BLOCK_EVENT};
    static const int v5_blocks[] = {
        NTIDX_BLOCK_METADATA,       NTIDX_BLOCK_STACK, NTIDX_BLOCK_EVENT, NTIDX_BLOCK_SEQUENCE_POINT,
        NTIDX_BLOCK_STACK,          NTIDX_BLOCK_EVENT, NTIDX_BLOCK_SEQUENCE_POINT, NTIDX_BLOCK_STACK,
        NTIDX_BLOCK_EVENT};
    const int *bl = v6 ? v6_blocks : v5_blocks;
    x->nblocks = v6 ? sizeof(v6_blocks) / sizeof(int) : sizeof(v5_blocks) / sizeof(int);
    memcpy(x->blocks, bl, x->nblocks * sizeof(int));
    x->sequence_points = v6 ? 1 : 2;
    return s.w;
}

/* ---- comparisons ---- */

static void same_str(const char *got, const char *want)
{
    if (!want)
        assert_null(got);
    else
        assert_string_equal(got ? got : "(null)", want);
}

static void same_fields(const ntidx_field *got, const ntidx_field *want, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        assert_string_equal(got[i].name, want[i].name);
        assert_int_equal(got[i].type_code, want[i].type_code);
        if (want[i].type_code == NTIDX_TYPE_FIXED_ARRAY)
            assert_int_equal(got[i].element_count, want[i].element_count);
        if (want[i].element) {
            assert_non_null(got[i].element);
            assert_int_equal(got[i].element->type_code, want[i].element->type_code);
            if (want[i].element->type_code == NTIDX_TYPE_OBJECT) {
                assert_int_equal(got[i].element->field_count, want[i].element->field_count);
                same_fields(got[i].element->fields, want[i].element->fields, want[i].element->field_count);
            }
        }
        if (want[i].type_code == NTIDX_TYPE_OBJECT) {
            assert_int_equal(got[i].field_count, want[i].field_count);
            same_fields(got[i].fields, want[i].fields, want[i].field_count);
        }
    }
}

/*
 * What a V6 event's label list makes of its metadata (the spec's overrides, as TraceEvent applies them):
 * version, level, keywords and opcode; an opcode other than the metadata's renames a named event
 * "Name/Opcode" with TraceEvent's opcode names for a rename (none of these names ends in Start/Stop).
 * The expected name goes to want_name (same_metadata() checks and clears it).
 */
static char want_renamed[256];
static const char *want_name;

static void apply_label_overrides(ntidx_metadata *m, const ntidx_label *l, size_t n)
{
    static const char *const ops[] = {"Info",      "Start", "Stop",   "DCStart", "DCStop",
                                      "Extension", "Reply", "Resume", "Suspend", "Send"};
    want_name = NULL;
    for (size_t k = 0; k < n; k++) {
        switch (l[k].kind) {
        case NTIDX_LABEL_VERSION: m->version = (uint32_t)l[k].u; break;
        case NTIDX_LABEL_LEVEL: m->level = (uint32_t)l[k].u; break;
        case NTIDX_LABEL_KEYWORDS: m->keywords = l[k].u; break;
        case NTIDX_LABEL_OPCODE: {
            int op = (int)l[k].u, template_op = m->opcode >= 0 ? m->opcode : 0;
            if (m->event_name && m->event_name[0] && op != template_op) {
                if (op == 0)
                    snprintf(want_renamed, sizeof want_renamed, "%s", m->event_name);
                else if (op < 10)
                    snprintf(want_renamed, sizeof want_renamed, "%s/%s", m->event_name, ops[op]);
                else
                    snprintf(want_renamed, sizeof want_renamed, "%s/Opcode(%d)", m->event_name, op);
                want_name = want_renamed;
            }
            m->opcode = op;
            break;
        }
        default: break;
        }
    }
}

static void same_metadata(const ntidx_metadata *got, const ntidx_metadata *want, int v6)
{
    assert_non_null(got);
    assert_int_equal(got->id, want->id);
    assert_int_equal(got->event_id, want->event_id);
    assert_int_equal(got->version, want->version);
    assert_int_equal(got->level, want->level);
    assert_true(got->keywords == want->keywords);
    assert_int_equal(got->opcode, want->opcode);
    same_str(got->provider, want->provider);
    /* stored as written; shown as TraceEvent shows it: with the opcode's name (or number) unless Info */
    same_str(got->name_in_trace, want->event_name);
    if (want_name) {
        same_str(got->event_name, want_name);
        want_name = NULL;
    } else if (want->opcode > 0 && want->event_name && want->event_name[0]) {
        static const char *const ops[] = {"", "Start", "Stop", "DataCollectionStart", "DataCollectionStop",
                                          "Extension", "Reply", "Resume", "Suspend", "Transfer"};
        char name[256];
        if (want->opcode < 10)
            snprintf(name, sizeof name, "%s/%s", want->event_name, ops[want->opcode]);
        else
            snprintf(name, sizeof name, "%s/%d", want->event_name, want->opcode);
        same_str(got->event_name, name);
    } else if (want->event_name && !want->event_name[0]) { /* no name: TraceEvent's EventID(N) */
        char name[32];
        snprintf(name, sizeof name, "EventID(%u)", want->event_id);
        same_str(got->event_name, name);
    } else {
        same_str(got->event_name, want->event_name);
    }
    same_str(got->message_template, v6 ? want->message_template : NULL);
    same_str(got->description, v6 ? want->description : NULL);
    /* No layout and an empty layout are written the same way (FieldCount 0). */
    assert_int_equal(got->field_count, want->has_fields ? want->field_count : 0);
    if (want->has_fields)
        assert_true(got->has_fields);
    same_fields(got->fields, want->fields, want->field_count);
}

static void same_labels(const ntidx_event *e, const ntidx_label *want, size_t n)
{
    if (!n) {
        assert_int_equal(e->label_list_size, 0);
        return;
    }
    assert_non_null(e->label_list);
    const uint8_t *p = e->label_list, *end = p + e->label_list_size;
    ntidx_label l;
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(ntidx_label_next(&p, end, &l), 1);
        assert_int_equal(l.kind, want[i].kind);
        switch (l.kind) {
        case NTIDX_LABEL_ACTIVITY_ID:
        case NTIDX_LABEL_RELATED_ACTIVITY_ID:
        case NTIDX_LABEL_TRACE_ID:
            assert_memory_equal(l.guid, want[i].guid, 16);
            break;
        case NTIDX_LABEL_KEY_STRING:
            assert_int_equal(l.str_len, want[i].str_len);
            assert_memory_equal(l.str, want[i].str, l.str_len);
            /* fall through: the key */
        case NTIDX_LABEL_KEY_INT:
            assert_int_equal(l.key_len, want[i].key_len);
            assert_memory_equal(l.key, want[i].key, l.key_len);
            if (l.kind == NTIDX_LABEL_KEY_INT)
                assert_true(l.i == want[i].i);
            break;
        default:
            assert_true(l.u == want[i].u);
            break;
        }
    }
    assert_int_equal(ntidx_label_next(&p, end, &l), 0);
}

static const uint8_t zero16[16];

static void check_trace(const uint8_t *data, size_t size, int v6, int complete, const expected *x)
{
    ntidx_trace *t = NULL;
    int rc = ntidx_trace_open_memory(data, size, "roundtrip", &t);
    if (rc)
        fail_msg("open: %s", ntidx_last_error());
    const ntidx_trace_info *info = ntidx_trace_get_info(t);
    ntidx_writer_options o = scenario_options(v6, 1);
    assert_int_equal(info->format_version, v6 ? 6 : 5);
    assert_int_equal(info->trace_object_version, v6 ? 0 : 4);
    assert_int_equal(info->pointer_size, o.pointer_size);
    assert_true(info->sync_ticks == o.sync_ticks);
    assert_true(info->tick_frequency == o.tick_frequency);
    assert_memory_equal(&info->sync_time_utc, &o.sync_time_utc, sizeof(ntidx_systime));
    assert_int_equal(info->process_id, 4242);
    assert_int_equal(info->number_of_processors, 16);
    assert_int_equal(info->expected_cpu_sampling_rate, 1000);
    if (v6) {
        /* The three reserved keys, then the caller's pairs. */
        assert_int_equal(info->keyvalue_count, 5);
        assert_string_equal(info->keyvalues[0].key, "HardwareThreadCount");
        assert_string_equal(info->keyvalues[0].value, "16");
        assert_string_equal(info->keyvalues[1].key, "ProcessId");
        assert_string_equal(info->keyvalues[1].value, "4242");
        assert_string_equal(info->keyvalues[2].key, "ExpectedCPUSamplingRate");
        assert_string_equal(info->keyvalues[2].value, "1000");
        assert_string_equal(info->keyvalues[3].key, "MachineName");
        assert_string_equal(info->keyvalues[3].value, "box");
        assert_string_equal(info->keyvalues[4].key, "empty");
        assert_string_equal(info->keyvalues[4].value, "");
    }

    /* Blocks, in the order the writer promises. */
    uint64_t pos = info->first_block_offset;
    ntidx_block b;
    size_t nb = 0;
    assert_int_equal(ntidx_trace_next_block(t, &pos, &b), 1);
    assert_int_equal(b.kind, NTIDX_BLOCK_TRACE);
    while ((rc = ntidx_trace_next_block(t, &pos, &b)) == 1) {
        assert_true(nb < x->nblocks);
        assert_int_equal(b.kind, x->blocks[nb]);
        nb++;
    }
    assert_int_equal(rc, complete ? 0 : NTIDX_E_TRUNCATED);
    assert_int_equal(nb, x->nblocks);

    ntidx_reader *r = NULL;
    ntidx_reader_options ro;
    ntidx_reader_options_defaults(&ro);
    assert_int_equal(ntidx_reader_open(t, &ro, &r), NTIDX_OK);
    const ntidx_event *e;
    ntidx_buf json = {0};
    size_t i = 0;
    while ((rc = ntidx_reader_next(r, &e)) == 1) {
        assert_true(i < x->n);
        const ntidx_event *w = &x->ev[i];
        assert_true(e->timestamp == w->timestamp);
        assert_true(e->thread_index == w->thread_index);
        assert_true(e->capture_thread_index == w->capture_thread_index);
        /* V6: OS thread ids from the thread rows; before: the ids themselves. */
        uint64_t tid = v6 ? v6_threads[w->thread_index - 1].os_thread_id : w->thread_index;
        uint64_t ctid = v6 ? v6_threads[w->capture_thread_index - 1].os_thread_id : w->capture_thread_index;
        assert_true(e->thread_id == tid);
        assert_true(e->capture_thread_id == ctid);
        assert_int_equal(e->metadata_id, w->metadata_id);
        assert_int_equal(e->sequence_number, w->sequence_number);
        assert_int_equal(e->processor_number, w->processor_number);
        assert_int_equal(e->stack_id, w->stack_id);
        assert_int_equal(e->is_sorted, w->is_sorted);
        assert_int_equal(e->payload_size, w->payload_size);
        assert_memory_equal(e->payload, w->payload, w->payload_size);
        assert_int_equal(e->stack_size, x->stack_size[i]);
        if (x->stack_size[i])
            assert_memory_equal(e->stack, x->stack[i], x->stack_size[i]);
        if (v6) {
            assert_int_equal(e->label_list_id, w->label_list_id);
            same_labels(e, x->labels[i], x->nlabels[i]);
            assert_null(e->activity_id);
            const ntidx_thread *th = e->thread;
            const ntidx_thread *want = &v6_threads[w->thread_index - 1];
            assert_non_null(th);
            assert_true(th->index == want->index);
            assert_int_equal(th->has_os_thread_id, want->has_os_thread_id);
            assert_int_equal(th->has_os_process_id, want->has_os_process_id);
            assert_true(th->os_thread_id == want->os_thread_id);
            if (want->has_os_process_id)
                assert_true(th->os_process_id == want->os_process_id);
            same_str(th->name, want->name);
        } else {
            assert_non_null(e->activity_id);
            assert_memory_equal(e->activity_id, w->activity_id ? w->activity_id : zero16, 16);
            assert_non_null(e->related_activity_id);
            assert_memory_equal(e->related_activity_id,
                                w->related_activity_id ? w->related_activity_id : zero16, 16);
            assert_null(e->thread);
        }
        ntidx_metadata m = schema(x->kind[i], v6, x->id_base[i]);
        if (v6)
            apply_label_overrides(&m, x->labels[i], x->nlabels[i]);
        same_metadata(e->metadata, &m, v6);
        json.len = 0;
        rc = ntidx_event_fields_json(t, e, &json);
        if (rc)
            fail_msg("event %zu: %s", i, ntidx_last_error());
        assert_string_equal(json.data, expected_json(x->kind[i], v6));
        i++;
    }
    if (rc < 0)
        fail_msg("reader: %s", ntidx_last_error());
    assert_int_equal(i, x->n);
    assert_int_equal(ntidx_reader_complete(r), complete);

    const ntidx_reader_stats *st = ntidx_reader_get_stats(r);
    assert_int_equal(st->events, x->n);
    assert_int_equal(st->sequence_points, x->sequence_points);
    assert_int_equal(st->dropped_events, 2 + 3 + 1);
    const ntidx_dropped *dl;
    size_t nd;
    assert_int_equal(ntidx_reader_dropped(r, &dl, &nd), NTIDX_OK);
    assert_int_equal(nd, 2);
    assert_true(dl[0].capture_thread == thread_key(v6, 1));
    assert_true(dl[0].dropped == x->dropped[1]);
    assert_true(dl[1].capture_thread == thread_key(v6, 2));
    assert_true(dl[1].dropped == x->dropped[2]);
    if (v6)
        assert_true(dl[0].capture_thread_id == 0x1002);
    ntidx_buf_free(&json);
    ntidx_reader_close(&r);
    ntidx_trace_close(&t);
}

static void roundtrip(int v6, int compressed)
{
    expected *x = calloc(1, sizeof(*x));
    assert_non_null(x);
    ntidx_writer *w = write_scenario(v6, compressed, NULL, 1, x);
    size_t size;
    const uint8_t *data = ntidx_writer_memory(w, &size);
    assert_true(ntidx_writer_bytes(w) == size);
    check_trace(data, size, v6, 1, x);
    assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
    free(x);
}

static void test_v6_compressed(void **state) { (void)state; roundtrip(1, 1); }
static void test_v6_uncompressed(void **state) { (void)state; roundtrip(1, 0); }
static void test_v5_compressed(void **state) { (void)state; roundtrip(0, 1); }
static void test_v5_uncompressed(void **state) { (void)state; roundtrip(0, 0); }

/* A file writer produces the bytes of a memory writer; an unfinished trace
 * keeps every block but the end marker and reads as incomplete. */
static void test_file_and_unfinished(void **state)
{
    (void)state;
    for (int v6 = 0; v6 <= 1; v6++) {
        expected *x = calloc(1, sizeof(*x));
        assert_non_null(x);
        char path[] = "/tmp/ntidx-roundtrip-XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        close(fd);
        ntidx_writer *w = write_scenario(v6, 1, path, 1, x);
        assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
        w = write_scenario(v6, 1, NULL, 1, x);
        size_t size;
        const uint8_t *mem = ntidx_writer_memory(w, &size);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        uint8_t *file = malloc(size + 1);
        assert_non_null(file);
        assert_int_equal(fread(file, 1, size + 1, f), size);
        fclose(f);
        assert_memory_equal(file, mem, size);
        ntidx_trace *t = NULL;
        assert_int_equal(ntidx_trace_open(path, &t), NTIDX_OK);
        ntidx_trace_close(&t);
        assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
        free(file);

        /* Unfinished: close without finish. */
        w = write_scenario(v6, 1, path, 0, x);
        assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
        f = fopen(path, "rb");
        assert_non_null(f);
        uint8_t *part = malloc(size);
        assert_non_null(part);
        size_t got = fread(part, 1, size, f);
        fclose(f);
        assert_int_equal(got, size - (v6 ? 4 : 1)); /* all but the end-of-stream marker */
        check_trace(part, got, v6, 0, x);
        free(part);
        unlink(path);
        free(x);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v6_compressed),
        cmocka_unit_test(test_v6_uncompressed),
        cmocka_unit_test(test_v5_compressed),
        cmocka_unit_test(test_v5_uncompressed),
        cmocka_unit_test(test_file_and_unfinished),
    };
    return cmocka_run_group_tests_name("writer_roundtrip", tests, NULL, NULL);
}
