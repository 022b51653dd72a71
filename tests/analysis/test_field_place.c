/*
 * Field places and layout shapes (src/decode/field_place.h), which the
 * analyses with lazy_payload read instead of decoding payloads: held equal
 * to the decoder on random payloads. For every layout (the runtime's, from
 * its manifest, and layouts the trace gives, objects in objects among them)
 * and random payloads of every
 * length, with zero units sprinkled so that strings end anywhere:
 *   - a shaped layout fits a payload exactly when ntidx_values_decode()
 *     takes it;
 *   - each field with a place reads, in a payload that fits, the value the
 *     decoder gives it (integers; strings as UTF-8);
 *   - the analyses' accessors (fields.h) read the same through a place as
 *     through a decode.
 * Both pointer sizes, V5 and V6.
 */
#include <inttypes.h>
#include <stdio.h>

#include "rt_trace.h"

#include "analysis_internal.h"
#include "field_place.h"
#include "fields.h"
#include "utf.h"

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

/* The runtime's event types tried: (id, version), a few with strings, several strings, omissible ones. */
static const uint32_t rt_types[][2] = {
    {10, 2}, {10, 3}, {10, 4}, /* AllocationTick: ints, a type name between ints */
    {80, 1},                   /* Exception/Start: two strings, the message omissible */
    {9, 1},  {1, 2},  {4, 2},  /* SuspendEEStart, GC/Start, GC/HeapStats */
    {81, 2}, {91, 1},          /* Contention/Start, Stop (a double) */
    {143, 1}, {143, 2},        /* MethodLoadVerbose: three strings in the middle */
    {73, 0},                   /* TypeLoad/Start */
};

/* Layouts a trace gives (EventSource's): fixed fields, strings, a Boolean (then not shaped), an array. */
static const ntidx_field f_i32 = {.name = "a", .type_code = NTIDX_TYPE_INT32};
static const ntidx_field f_u64 = {.name = "b", .type_code = NTIDX_TYPE_UINT64};
static const ntidx_field f_s1 = {.name = "s1", .type_code = NTIDX_TYPE_UTF16_STRING};
static const ntidx_field f_s2 = {.name = "s2", .type_code = NTIDX_TYPE_UTF16_STRING};
static const ntidx_field f_guid = {.name = "g", .type_code = NTIDX_TYPE_GUID};
static const ntidx_field f_i16 = {.name = "c", .type_code = NTIDX_TYPE_INT16};
static const ntidx_field f_sb = {.name = "d", .type_code = NTIDX_TYPE_SBYTE};
static const ntidx_field f_dbl = {.name = "e", .type_code = NTIDX_TYPE_DOUBLE};
static const ntidx_field f_bool = {.name = "f", .type_code = NTIDX_TYPE_BOOLEAN32};
static const ntidx_field f_byte = {.name = "el", .type_code = NTIDX_TYPE_BYTE};
static const ntidx_field f_arr = {.name = "arr", .type_code = NTIDX_TYPE_ARRAY, .element = &f_byte};

static const ntidx_field obj1_fields[] = {{.name = "in", .type_code = NTIDX_TYPE_INT32},
                                          {.name = "name", .type_code = NTIDX_TYPE_UTF16_STRING}};
static const ntidx_field f_obj1 = {.name = "", .type_code = NTIDX_TYPE_OBJECT, .fields = obj1_fields, .field_count = 2};
static const ntidx_field obj2_fields[] = {{.name = "t", .type_code = NTIDX_TYPE_UTF16_STRING}, f_obj1,
                                          {.name = "n", .type_code = NTIDX_TYPE_INT16}};
static const ntidx_field f_obj2 = {.name = "o", .type_code = NTIDX_TYPE_OBJECT, .fields = obj2_fields, .field_count = 3};

#define NLAYOUTS 9
static const ntidx_field lay0[] = {f_i32, f_s1, f_u64};
static const ntidx_field lay1[] = {f_s1, f_s2, f_i16, f_sb};
static const ntidx_field lay2[] = {f_guid, f_i32, f_u64, f_dbl};
static const ntidx_field lay3[] = {f_i32, f_bool, f_u64};
static const ntidx_field lay4[] = {f_i32, f_arr, f_u64};
static const ntidx_field lay5[] = {f_s1};
static const ntidx_field lay6[] = {f_sb, f_i16, f_s1, f_s2, f_i32};
static const ntidx_field lay7[] = {f_obj1};                /* TraceLogging's: one object of the fields */
static const ntidx_field lay8[] = {f_i32, f_obj2, f_s1, f_u64}; /* objects in objects, strings around */
static const ntidx_field *const layouts[NLAYOUTS] = {lay0, lay1, lay2, lay3, lay4, lay5, lay6, lay7, lay8};
static const uint32_t layout_n[NLAYOUTS] = {3, 4, 4, 3, 3, 1, 5, 1, 4};

/* An event of metadata `meta` on thread 1..7. */
static void es_event_plain(rt_trace *rt, uint32_t meta, uint32_t thread, uint64_t ts, const uint8_t *payload,
                           uint32_t size)
{
    ntidx_event ev = {.metadata_id = meta, .sequence_number = ++rt->seq[thread], .thread_index = thread,
                      .capture_thread_index = thread, .timestamp = ts, .is_sorted = 1, .payload = payload,
                      .payload_size = size};
    assert_int_equal(ntidx_writer_add_event(rt->w, &ev), NTIDX_OK);
}

/* A random payload: mostly non-zero bytes, zero pairs here and there (string ends), any length. */
static uint32_t random_payload(uint8_t *b)
{
    uint32_t n = rnd(8) == 0 ? rnd(4) : rnd(90);
    for (uint32_t i = 0; i < n; i++)
        b[i] = rnd(6) == 0 ? 0 : (uint8_t)(1 + rnd(255));
    if (n >= 2 && rnd(3) == 0) { /* an aligned terminator somewhere */
        uint32_t at = rnd(n - 1) & ~1u;
        b[at] = b[at + 1] = 0;
    }
    return n;
}

typedef struct counts {
    unsigned shaped, unshaped, fit, refused, ints, strings, floats;
} counts;

/* Every event of the trace: the shape's answer against the decoder's, each place's value against the
   decoded one. */
static void check_trace(const uint8_t *data, size_t size, counts *c)
{
    ntidx_trace *t;
    assert_int_equal(ntidx_trace_open_memory(data, size, "places", &t), NTIDX_OK);
    ntidx_reader_options o;
    ntidx_reader_options_defaults(&o);
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, &o, &r), NTIDX_OK);
    ntidx_values *v;
    assert_int_equal(ntidx_values_new(&v), NTIDX_OK);
    const ntidx_event *ev;
    int rc;
    while ((rc = ntidx_reader_next(r, &ev)) == 1) {
        const ntidx_metadata *m = ev->metadata;
        ntx_layout_shape sh;
        ntx_layout_shape_of(t, m, &sh);
        int decoded = ntidx_values_decode(v, t, ev) == NTIDX_OK;
        if (sh.shaped) {
            c->shaped++;
            if (ntx_layout_fits(&sh, ev) != decoded)
                fail_msg("%s/%u v%u, %u bytes: the shape says %s, the decoder %s", m->provider, m->event_id,
                         m->version, ev->payload_size, decoded ? "no" : "yes", decoded ? "yes" : "no");
        } else {
            c->unshaped++;
        }
        if (!decoded) {
            c->refused++;
            continue;
        }
        c->fit++;
        for (uint32_t i = 0; m->fields && i < m->field_count; i++) {
            const char *name = m->fields[i].name;
            ntx_field_place p;
            ntx_field_place_of(t, m, name, &p);
            const ntidx_value *x = ntidx_values_find(v, name);
            assert_non_null(x);
            if (p.kind == NTX_PLACE_INT || p.kind == NTX_PLACE_UINT) {
                int64_t got, want = 0;
                assert_int_equal(ntx_field_place_int(&p, ev, &got), 1);
                assert_true(ntx_an_int(v, name, &want));
                if (got != want)
                    fail_msg("%s/%u field %s: %" PRId64 " in place, %" PRId64 " decoded", m->provider, m->event_id,
                             name, got, want);
                c->ints++;
            } else if (p.kind == NTX_PLACE_UTF16Z) {
                const uint8_t *s;
                size_t units;
                assert_int_equal(ntx_field_place_utf16(&p, ev, &s, &units), 1);
                char buf[512];
                size_t len = s ? ntx_utf16_to_utf8(s, units, buf) : 0;
                assert_int_equal(x->kind, NTIDX_VALUE_STRING);
                assert_int_equal(len, x->len);
                assert_memory_equal(buf, x->len ? x->str : "", len);
                c->strings++;
            } else if (p.kind == NTX_PLACE_FLOAT) {
                double got;
                assert_int_equal(ntx_field_place_double(&p, ev, &got), 1);
                assert_int_equal(x->kind, NTIDX_VALUE_FLOAT);
                /* bit for bit: NaNs too */
                if (memcmp(&got, &x->f, sizeof got))
                    fail_msg("%s/%u field %s: %.17g in place, %.17g decoded", m->provider, m->event_id, name, got,
                             x->f);
                c->floats++;
            }
        }
    }
    assert_int_equal(rc, 0);
    ntidx_values_free(&v);
    ntidx_reader_close(&r);
    ntidx_trace_close(&t);
}

static void run(int version, uint32_t ptr, counts *c)
{
    rt_trace rt;
    memset(&rt, 0, sizeof rt);
    ntidx_writer_options wo;
    ntidx_writer_options_defaults(&wo);
    wo.format_version = version;
    wo.pointer_size = ptr;
    rt.v6 = version == 6;
    rt.next_meta = 1;
    assert_int_equal(ntidx_writer_open_memory(&wo, &rt.w), NTIDX_OK);
    if (rt.v6)
        for (uint64_t i = 1; i < RT_THREADS; i++) {
            ntidx_thread th = {.index = i, .has_os_thread_id = 1, .os_thread_id = 1000 + i};
            assert_int_equal(ntidx_writer_add_thread(rt.w, &th), NTIDX_OK);
        }
    uint32_t es[NLAYOUTS];
    for (uint32_t k = 0; k < NLAYOUTS; k++) {
        ntidx_metadata m = {.id = rt.next_meta, .provider = "My-Source", .event_id = 100 + k, .event_name = "E",
                            .opcode = -1, .level = 4, .has_fields = 1, .field_count = layout_n[k],
                            .fields = layouts[k]};
        assert_int_equal(ntidx_writer_add_metadata(rt.w, &m), NTIDX_OK);
        es[k] = rt.next_meta++;
    }
    /* the runtime's types: metadata without a field list, as the runtime writes it (the reader fills the layout
       from the manifest) */
    uint32_t rtm[sizeof rt_types / sizeof rt_types[0]];
    for (size_t k = 0; k < sizeof rt_types / sizeof rt_types[0]; k++) {
        ntidx_metadata m = {.id = rt.next_meta, .provider = RT_PROVIDER, .event_id = rt_types[k][0],
                            .version = rt_types[k][1], .event_name = "", .opcode = -1, .level = 4, .keywords = 1,
                            .has_fields = 1};
        assert_int_equal(ntidx_writer_add_metadata(rt.w, &m), NTIDX_OK);
        rtm[k] = rt.next_meta++;
    }
    uint8_t b[128];
    uint64_t ts = 1;
    for (int i = 0; i < 6000; i++) {
        uint32_t n = random_payload(b);
        uint32_t pick = rnd(sizeof rt_types / sizeof rt_types[0] + NLAYOUTS);
        if (pick < sizeof rt_types / sizeof rt_types[0])
            es_event_plain(&rt, rtm[pick], 1 + rnd(6), ts++, b, n);
        else
            es_event_plain(&rt, es[pick - sizeof rt_types / sizeof rt_types[0]], 1 + rnd(6), ts++, b, n);
    }
    size_t size;
    uint8_t *data = rt_end(&rt, 1, &size);
    check_trace(data, size, c);
    free(data);
}

static void test_places_equal_the_decoder(void **state)
{
    (void)state;
    counts c = {0};
    run(5, 8, &c);
    run(5, 4, &c);
    run(6, 8, &c);
    print_message("shaped %u, not shaped %u; fit %u, refused %u; %u integers, %u strings and %u floats read in "
                  "place\n",
                  c.shaped, c.unshaped, c.fit, c.refused, c.ints, c.strings, c.floats);
    /* the test means something: each side was met often */
    assert_true(c.shaped > 10000 && c.unshaped > 1000 && c.fit > 2000 && c.refused > 2000);
    assert_true(c.ints > 2000 && c.strings > 500 && c.floats > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_places_equal_the_decoder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
