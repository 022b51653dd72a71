/*
 * The plans of event types (values.c: a layout's top level compiled once
 * and checked against the live layout on every use) stand in for the
 * interpreter on every event of every real trace. They must give exactly
 * what the interpreter gives: the same values, field by field, the same
 * strings, the same bytes accounted for, and for payloads cut short (the
 * event's payload size lowered: the plan's own checks fail, or the
 * interpreter's do) the same error message. A layout changed in place under
 * the same row (a row's memory reused) is decoded by the new layout. The
 * formatter's plans (ntidx_event_fields_json/text()) are held the same way
 * against the formatter's interpreter: the same bytes, or the same error.
 *
 * usage: test_values_plans DIR... (every *.nettrace / *.netperf in them)
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "values.h"

static char **dirs;
static int ndirs;

static void same_value(const ntidx_values *a, const ntidx_value *x, const ntidx_values *b, const ntidx_value *y)
{
    assert_true((x->name == NULL) == (y->name == NULL));
    if (x->name)
        assert_string_equal(x->name, y->name);
    assert_ptr_equal(x->field, y->field);
    assert_int_equal(x->kind, y->kind);
    assert_int_equal(x->type_code, y->type_code);
    assert_int_equal(x->count, y->count);
    assert_int_equal(x->i, y->i);
    assert_int_equal(x->u, y->u);
    assert_memory_equal(&x->f, &y->f, sizeof x->f);
    assert_int_equal(x->len, y->len);
    assert_true((x->str == NULL) == (y->str == NULL));
    if (x->str) {
        assert_memory_equal(x->str, y->str, x->len);
        assert_int_equal(x->str[x->len], 0);
        assert_int_equal(y->str[y->len], 0);
    }
    assert_ptr_equal(x->bytes, y->bytes);
    assert_int_equal(x->payload_offset, y->payload_offset);
    const ntidx_value *cx = ntidx_values_child(a, x), *cy = ntidx_values_child(b, y);
    for (; cx && cy; cx = ntidx_values_next(a, cx), cy = ntidx_values_next(b, cy))
        same_value(a, cx, b, cy);
    assert_null(cx);
    assert_null(cy);
}

/* Format `e` as JSON or text by the formatter's plans and by its interpreter: the same bytes or the same error. */
static void same_format(const ntidx_trace *t, const ntidx_event *e, int json)
{
    ntidx_buf a = {0}, b = {0};
    int (*format)(const ntidx_trace *, const ntidx_event *, ntidx_buf *) =
        json ? ntidx_event_fields_json : ntidx_event_fields_text;
    int ra = format(t, e, &a);
    char ea[1024];
    snprintf(ea, sizeof ea, "%s", ra ? ntidx_last_error() : "");
    ntx_values_format_interpret_only(1);
    int rb = format(t, e, &b);
    ntx_values_format_interpret_only(0);
    assert_int_equal(ra, rb);
    if (ra) {
        assert_string_equal(ea, ntidx_last_error());
        assert_int_equal(a.len, 0);
    } else {
        assert_int_equal(a.len, b.len);
        assert_memory_equal(a.data ? a.data : "", b.data ? b.data : "", a.len);
    }
    ntidx_buf_free(&a);
    ntidx_buf_free(&b);
}

/* Decode `e` both ways: the same outcome, the same values or the same error. Returns the outcome. */
static int same_decode(ntidx_values *planned, ntidx_values *interp, const ntidx_trace *t, const ntidx_event *e)
{
    same_format(t, e, 1);
    same_format(t, e, 0);
    int ra = ntidx_values_decode(planned, t, e);
    char ea[1024];
    snprintf(ea, sizeof ea, "%s", ra ? ntidx_last_error() : "");
    int rb = ntidx_values_decode(interp, t, e);
    assert_int_equal(ra, rb);
    if (ra) {
        assert_string_equal(ea, ntidx_last_error());
        assert_int_equal(ntidx_values_count(planned), 0);
        return ra;
    }
    assert_int_equal(ntidx_values_count(planned), ntidx_values_count(interp));
    assert_int_equal(ntx_values_used(planned), ntx_values_used(interp));
    const ntidx_value *x = ntidx_values_at(planned, 0), *y = ntidx_values_at(interp, 0);
    for (; x && y; x = ntidx_values_next(planned, x), y = ntidx_values_next(interp, y))
        same_value(planned, x, interp, y);
    assert_null(x);
    assert_null(y);
    return 0;
}

static int is_trace(const char *n)
{
    size_t l = strlen(n);
    return (l > 9 && !strcmp(n + l - 9, ".nettrace")) || (l > 8 && !strcmp(n + l - 8, ".netperf"));
}

static void test_every_event_of_the_real_traces(void **state)
{
    (void)state;
    ntidx_values *planned, *interp;
    assert_int_equal(ntidx_values_new(&planned), NTIDX_OK);
    assert_int_equal(ntidx_values_new(&interp), NTIDX_OK);
    ntx_values_interpret_only(interp, 1);
    uint64_t traces = 0, events = 0, values = 0, cut_errors = 0;
    for (int d = 0; d < ndirs; d++) {
        DIR *dir = opendir(dirs[d]);
        assert_non_null(dir);
        for (struct dirent *de; (de = readdir(dir));) {
            if (!is_trace(de->d_name))
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dirs[d], de->d_name);
            ntidx_trace *t;
            ntidx_reader *r;
            assert_int_equal(ntidx_trace_open(path, &t), NTIDX_OK);
            assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
            traces++;
            const ntidx_event *e;
            while (ntidx_reader_next(r, &e) == 1) {
                events++;
                if (same_decode(planned, interp, t, e) == 0)
                    values += ntidx_values_count(planned);
                /* cut short: the last byte gone, then half of it */
                ntidx_event cut = *e;
                for (int k = 0; k < 2 && cut.payload_size; k++) {
                    cut.payload_size = k == 0 ? e->payload_size - 1 : e->payload_size / 2;
                    cut_errors += same_decode(planned, interp, t, &cut) != 0;
                }
            }
            ntidx_reader_close(&r);
            ntidx_trace_close(&t);
        }
        closedir(dir);
    }
    printf("# %llu traces, %llu events, %llu top-level values, %llu cut payloads refused\n",
           (unsigned long long)traces, (unsigned long long)events, (unsigned long long)values,
           (unsigned long long)cut_errors);
    assert_true(traces >= 5);
    assert_true(values > events); /* payloads were decoded, not just refused */
    assert_true(cut_errors > 1000); /* and cut ones refused, the same way */
    ntidx_values_free(&planned);
    ntidx_values_free(&interp);
}

/* A row whose layout changes in place (same row, same field array): the next event is decoded by the new one. */
/* A small real trace, open: the events made up below take their payloads from it or hold their own. */
static ntidx_trace *open_runtime_trace(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dirs[ndirs - 1], "runtime-file.nettrace");
    ntidx_trace *t;
    assert_int_equal(ntidx_trace_open(path, &t), NTIDX_OK);
    return t;
}

static void test_layout_changed_under_the_same_row(void **state)
{
    (void)state;
    ntidx_trace *t = open_runtime_trace();
    uint64_t size;
    const uint8_t *data = ntidx_trace_data(t, &size);
    assert_true(size > 64);
    static ntidx_field fields[2] = {{.name = "A", .type_code = NTIDX_TYPE_INT32},
                                    {.name = "B", .type_code = NTIDX_TYPE_INT32}};
    static ntidx_metadata m = {.provider = "P", .event_name = "E", .has_fields = 1, .field_count = 2,
                               .fields = fields};
    ntidx_event e = {.metadata = &m, .payload = data + 16, .payload_size = 8};
    ntidx_values *v;
    assert_int_equal(ntidx_values_new(&v), NTIDX_OK);
    assert_int_equal(ntidx_values_decode(v, t, &e), NTIDX_OK);
    assert_int_equal(ntidx_values_count(v), 2);
    assert_int_equal(ntidx_values_at(v, 1)->kind, NTIDX_VALUE_INT);
    assert_int_equal(ntidx_values_at(v, 1)->payload_offset, 4);
    fields[0].type_code = NTIDX_TYPE_INT64; /* 8 bytes now: B no longer fits */
    assert_int_equal(ntidx_values_decode(v, t, &e), NTIDX_E_PAYLOAD);
    assert_non_null(strstr(ntidx_last_error(), "field 'B'"));
    fields[0].type_code = NTIDX_TYPE_UINT16;
    fields[1].type_code = NTIDX_TYPE_GUID; /* 2 + 16 bytes */
    e.payload_size = 18;
    assert_int_equal(ntidx_values_decode(v, t, &e), NTIDX_OK);
    assert_int_equal(ntidx_values_at(v, 0)->kind, NTIDX_VALUE_UINT);
    assert_int_equal(ntidx_values_at(v, 1)->kind, NTIDX_VALUE_GUID);
    assert_ptr_equal(ntidx_values_at(v, 1)->bytes, data + 18);
    ntidx_values_free(&v);
    ntidx_trace_close(&t);
}

/* The same for the fields of an object and the element of an array, which plans also take. */
static void test_nested_layout_changed_under_the_same_row(void **state)
{
    (void)state;
    ntidx_trace *t = open_runtime_trace();
    static ntidx_field inner[2] = {{.name = "X", .type_code = NTIDX_TYPE_INT32},
                                   {.name = "Y", .type_code = NTIDX_TYPE_INT32}};
    static ntidx_field element = {.type_code = NTIDX_TYPE_UINT16};
    static ntidx_field fields[2] = {{.name = "O", .type_code = NTIDX_TYPE_OBJECT, .fields = inner, .field_count = 2},
                                    {.name = "A", .type_code = NTIDX_TYPE_ARRAY, .element = &element}};
    static ntidx_metadata m = {.provider = "P", .event_name = "E", .has_fields = 1, .field_count = 2,
                               .fields = fields};
    uint8_t payload[24] = {1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 7, 0, 9, 0};
    ntidx_event e = {.metadata = &m, .payload = payload, .payload_size = 14};
    ntidx_values *v, *w; /* w: the interpreter's, which every outcome is held against */
    assert_int_equal(ntidx_values_new(&v), NTIDX_OK);
    assert_int_equal(ntidx_values_new(&w), NTIDX_OK);
    ntx_values_interpret_only(w, 1);
    assert_int_equal(same_decode(v, w, t, &e), NTIDX_OK);
    const ntidx_value *a = ntidx_values_at(v, 1);
    assert_int_equal(a->count, 2);
    assert_int_equal(ntidx_values_next(v, ntidx_values_child(v, a))->u, 9);
    assert_int_equal(ntidx_values_get(v, ntidx_values_at(v, 0), "Y")->i, 2);
    inner[1].type_code = NTIDX_TYPE_INT64; /* O is 12 bytes now: A's count is cut */
    assert_int_equal(same_decode(v, w, t, &e), NTIDX_E_PAYLOAD);
    inner[1].type_code = NTIDX_TYPE_UINT16; /* O is 6 bytes: A's count is 0 */
    assert_int_equal(same_decode(v, w, t, &e), NTIDX_OK);
    assert_int_equal(ntidx_values_get(v, ntidx_values_at(v, 0), "Y")->kind, NTIDX_VALUE_UINT);
    assert_int_equal(ntidx_values_at(v, 1)->count, 0);
    fields[0].field_count = 1; /* O is 4 bytes: A counts 2 elements of... */
    element.type_code = NTIDX_TYPE_INT32; /* ...4 bytes: 8 of the 8 left */
    e.payload_size = 14;
    assert_int_equal(same_decode(v, w, t, &e), NTIDX_OK);
    assert_null(ntidx_values_next(v, ntidx_values_child(v, ntidx_values_at(v, 0))));
    a = ntidx_values_at(v, 1);
    assert_int_equal(a->count, 2);
    assert_int_equal(ntidx_values_child(v, a)->kind, NTIDX_VALUE_INT);
    assert_int_equal(ntidx_values_child(v, a)->i, 0x00020000); /* bytes 6-9: 0 0 2 0 */
    ntidx_values_free(&v);
    ntidx_values_free(&w);
    ntidx_trace_close(&t);
}

/* The text of e's fields in trace t, as ntidx_event_fields_text() or _json() gives it, in out. */
static const char *fields_of(const ntidx_trace *t, const ntidx_event *e, int json, ntidx_buf *out)
{
    out->len = 0;
    assert_int_equal((json ? ntidx_event_fields_json : ntidx_event_fields_text)(t, e, out), NTIDX_OK);
    return out->data;
}

/*
 * The formatter's plans keep each field's key (name and separator) made once: they are made again for a row of
 * another definition (another offset) or another trace under the same layout, and never kept for a row that
 * names no definition (a client's own, offset 0), whose names are read at every call.
 */
static void test_format_keys_follow_the_names(void **state)
{
    (void)state;
    ntidx_trace *t = open_runtime_trace(), *t2 = open_runtime_trace();
    static ntidx_field fields[3] = {{.name = "A", .type_code = NTIDX_TYPE_INT32},
                                    {.name = "B", .type_code = NTIDX_TYPE_UTF16_STRING},
                                    {.name = "C", .type_code = NTIDX_TYPE_INT32}};
    static ntidx_metadata m = {.provider = "P", .event_name = "E", .has_fields = 1, .field_count = 3,
                               .fields = fields, .offset = 100, .name_in_trace = "E"};
    uint8_t payload[12] = {1, 0, 0, 0, 'x', 0, 0, 0, 2, 0, 0, 0};
    ntidx_event e = {.metadata = &m, .payload = payload, .payload_size = sizeof payload};
    ntidx_buf b = {0};
    assert_string_equal(fields_of(t, &e, 0, &b), "A=1 B=\"x\" C=2");
    assert_string_equal(fields_of(t, &e, 1, &b), "{\"A\":1,\"B\":\"x\",\"C\":2}");
    fields[2].name = "Sea \"q\""; /* another definition laid where the first was */
    m.offset = 200;
    assert_string_equal(fields_of(t, &e, 0, &b), "A=1 B=\"x\" Sea \"q\"=2");
    assert_string_equal(fields_of(t, &e, 1, &b), "{\"A\":1,\"B\":\"x\",\"Sea \\\"q\\\"\":2}");
    fields[0].name = "Q"; /* the same layout and offset in another trace */
    assert_string_equal(fields_of(t2, &e, 0, &b), "Q=1 B=\"x\" Sea \"q\"=2");
    m.offset = 0; /* a client's row: its names as they are at each call */
    fields[0].name = "Zed";
    assert_string_equal(fields_of(t2, &e, 0, &b), "Zed=1 B=\"x\" Sea \"q\"=2");
    fields[0].name = "Z";
    assert_string_equal(fields_of(t2, &e, 1, &b), "{\"Z\":1,\"B\":\"x\",\"Sea \\\"q\\\"\":2}");
    ntidx_buf_free(&b);
    ntidx_trace_close(&t2);
    ntidx_trace_close(&t);
}

/* The same for the fields of an object, whose keys the plans keep too, beside an array of numbers. */
static void test_format_object_keys_follow_the_names(void **state)
{
    (void)state;
    ntidx_trace *t = open_runtime_trace();
    static ntidx_field inner[2] = {{.name = "X", .type_code = NTIDX_TYPE_INT32},
                                   {.name = "Y", .type_code = NTIDX_TYPE_UTF16_STRING}};
    static ntidx_field element = {.type_code = NTIDX_TYPE_INT16};
    static ntidx_field fields[2] = {{.name = "O", .type_code = NTIDX_TYPE_OBJECT, .fields = inner, .field_count = 2},
                                    {.name = "A", .type_code = NTIDX_TYPE_ARRAY, .element = &element}};
    static ntidx_metadata m = {.provider = "P", .event_name = "E", .has_fields = 1, .field_count = 2,
                               .fields = fields, .offset = 100, .name_in_trace = "E"};
    uint8_t payload[] = {7, 0, 0, 0, 'y', 0, 0, 0, 2, 0, 0xff, 0xff, 3, 0};
    ntidx_event e = {.metadata = &m, .payload = payload, .payload_size = sizeof payload};
    ntidx_buf b = {0};
    assert_string_equal(fields_of(t, &e, 0, &b), "O={\"X\":7,\"Y\":\"y\"} A=[-1,3]");
    assert_string_equal(fields_of(t, &e, 1, &b), "{\"O\":{\"X\":7,\"Y\":\"y\"},\"A\":[-1,3]}");
    inner[1].name = "Why"; /* another definition laid where the first was */
    m.offset = 200;
    assert_string_equal(fields_of(t, &e, 0, &b), "O={\"X\":7,\"Why\":\"y\"} A=[-1,3]");
    e.payload_size = 12; /* the array's second element cut off: the interpreter's error, nothing written */
    b.len = 0;
    assert_int_equal(ntidx_event_fields_text(t, &e, &b), NTIDX_E_PAYLOAD);
    assert_int_equal(b.len, 0);
    ntidx_buf_free(&b);
    ntidx_trace_close(&t);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_values_plans DIR...\n");
        return 2;
    }
    dirs = argv + 1;
    ndirs = argc - 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_event_of_the_real_traces),
        cmocka_unit_test(test_layout_changed_under_the_same_row),
        cmocka_unit_test(test_nested_layout_changed_under_the_same_row),
        cmocka_unit_test(test_format_keys_follow_the_names),
        cmocka_unit_test(test_format_object_keys_follow_the_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
