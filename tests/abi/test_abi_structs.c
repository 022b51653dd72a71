/*
 * The public structs' ABI (docs/abi.md):
 *  - every struct a caller allocates that may grow ends with its reserved tail (checked at compile time:
 *    the tail is the last member, so a later version can give it meaning without moving anything);
 *  - the sizes docs/abi.md states (the program prints them; abi_sizes.py compares them with the table);
 *  - the library zeroes the tails of what it fills in the caller's memory (ntidx_block, ntidx_label,
 *    ntidx_slice_stats) and of the events it hands out;
 *  - the writer refuses a metadata row, thread, label or event whose tail is not zero.
 *
 * test_abi_structs --sizes   prints "name size" lines for abi_sizes.py
 * test_abi_structs           runs the checks
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <ntidx/analysis.h>
#include <ntidx/batch.h>
#include <ntidx/index.h>
#include <ntidx/ntidx.h>
#include <ntidx/output.h>
#include <ntidx/report.h>
#include <ntidx/slice.h>
#include <ntidx/stats.h>
#include <ntidx/symbols.h>
#include <ntidx/writer.h>

/* The reserved tail is the last member: nothing follows it but the struct's end. */
#define TAIL_LAST(T) _Static_assert(offsetof(T, reserved) + sizeof(((T *)0)->reserved) == sizeof(T), \
                                    #T ": reserved is not its last member")
/* Caller-allocated and growable: options, results filled in the caller's memory, rows given to the writer. */
TAIL_LAST(ntidx_block);
TAIL_LAST(ntidx_metadata);
TAIL_LAST(ntidx_thread);
TAIL_LAST(ntidx_label);
TAIL_LAST(ntidx_event);
TAIL_LAST(ntidx_reader_options);
TAIL_LAST(ntidx_reader_stats);
TAIL_LAST(ntidx_slice_options);
TAIL_LAST(ntidx_slice_stats);
TAIL_LAST(ntidx_index_options);
TAIL_LAST(ntidx_query_options);
TAIL_LAST(ntidx_query_cost);
TAIL_LAST(ntidx_stats_options);
TAIL_LAST(ntidx_region);
TAIL_LAST(ntidx_columns);
TAIL_LAST(ntidx_batch_type);
TAIL_LAST(ntidx_batch_options);
TAIL_LAST(ntidx_writer_options);
TAIL_LAST(ntidx_gen_options);
TAIL_LAST(ntidx_trace_summary);
TAIL_LAST(ntidx_symbol);
TAIL_LAST(ntidx_analysis_options);
TAIL_LAST(ntidx_analysis_stats);
TAIL_LAST(ntidx_analysis_info);
TAIL_LAST(ntidx_cpu_options);
TAIL_LAST(ntidx_table_cell);

#define SIZE(T) printf("%s %zu\n", #T, sizeof(T))

static void print_sizes(void)
{
    /* ntidx.h */
    SIZE(ntidx_error_info);
    SIZE(ntidx_systime);
    SIZE(ntidx_keyvalue);
    SIZE(ntidx_trace_info);
    SIZE(ntidx_block);
    SIZE(ntidx_field);
    SIZE(ntidx_metadata);
    SIZE(ntidx_thread);
    SIZE(ntidx_label);
    SIZE(ntidx_event);
    SIZE(ntidx_reader_options);
    SIZE(ntidx_reader_stats);
    SIZE(ntidx_dropped);
    SIZE(ntidx_buf);
    SIZE(ntidx_value);
    /* stats.h */
    SIZE(ntidx_type_stat);
    SIZE(ntidx_thread_stat);
    SIZE(ntidx_stats);
    SIZE(ntidx_bucket);
    SIZE(ntidx_stats_options);
    /* index.h */
    SIZE(ntidx_index_options);
    SIZE(ntidx_index_info);
    SIZE(ntidx_query_options);
    SIZE(ntidx_query_stats);
    SIZE(ntidx_query_cost);
    SIZE(ntidx_region);
    /* batch.h */
    SIZE(ntidx_cell);
    SIZE(ntidx_field_column);
    SIZE(ntidx_columns);
    SIZE(ntidx_batch_type);
    SIZE(ntidx_batch_options);
    /* slice.h, writer.h, report.h, symbols.h */
    SIZE(ntidx_slice_options);
    SIZE(ntidx_slice_stats);
    SIZE(ntidx_writer_options);
    SIZE(ntidx_thread_seq);
    SIZE(ntidx_gen_options);
    SIZE(ntidx_trace_summary);
    SIZE(ntidx_symbol);
    /* analysis.h */
    SIZE(ntidx_analysis_options);
    SIZE(ntidx_analysis_stats);
    SIZE(ntidx_column);
    SIZE(ntidx_table_cell);
    SIZE(ntidx_table);
    SIZE(ntidx_analysis_info);
    SIZE(ntidx_gc);
    SIZE(ntidx_gc_stats);
    SIZE(ntidx_jit_method);
    SIZE(ntidx_alloc_type);
    SIZE(ntidx_exception_group);
    SIZE(ntidx_contention);
    SIZE(ntidx_activity);
    SIZE(ntidx_cpu_options);
    SIZE(ntidx_cpu_method);
}

static int all_zero(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i])
            return 0;
    return 1;
}

static const ntidx_field tick_fields[] = {{.name = "Value", .type_code = NTIDX_TYPE_UINT32}};

/* A V6 trace in memory: one type, one thread, one label list, two events that use it. */
static uint8_t *small_trace(size_t *size)
{
    ntidx_writer_options wo;
    ntidx_writer_options_defaults(&wo);
    ntidx_writer *w;
    assert_int_equal(ntidx_writer_open_memory(&wo, &w), NTIDX_OK);
    ntidx_metadata m = {0};
    m.id = 1;
    m.provider = "Abi";
    m.event_name = "Tick";
    m.opcode = -1;
    m.has_fields = 1;
    m.field_count = 1;
    m.fields = tick_fields;
    assert_int_equal(ntidx_writer_add_metadata(w, &m), NTIDX_OK);
    ntidx_thread th = {0};
    th.index = 1;
    th.has_os_thread_id = 1;
    th.os_thread_id = 77;
    assert_int_equal(ntidx_writer_add_thread(w, &th), NTIDX_OK);
    ntidx_label l = {0};
    l.kind = NTIDX_LABEL_KEY_INT;
    l.key = "k";
    l.key_len = 1;
    l.i = 5;
    assert_int_equal(ntidx_writer_add_label_list(w, 1, &l, 1), NTIDX_OK);
    static const uint8_t payload[4] = {1, 0, 0, 0};
    for (uint32_t i = 1; i <= 2; i++) {
        ntidx_event e = {0};
        e.metadata_id = 1;
        e.sequence_number = i;
        e.thread_index = e.capture_thread_index = 1;
        e.timestamp = 100 * i;
        e.label_list_id = 1;
        e.payload = payload;
        e.payload_size = sizeof payload;
        e.is_sorted = 1;
        assert_int_equal(ntidx_writer_add_event(w, &e), NTIDX_OK);
    }
    assert_int_equal(ntidx_writer_finish(w), NTIDX_OK);
    const uint8_t *mem = ntidx_writer_memory(w, size);
    uint8_t *copy = malloc(*size);
    assert_non_null(copy);
    memcpy(copy, mem, *size);
    assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
    return copy;
}

/* What the library fills in the caller's memory has its tail zeroed, whatever was there. */
static void test_library_zeroes_tails(void **state)
{
    (void)state;
    size_t size;
    uint8_t *data = small_trace(&size);
    ntidx_trace *t;
    assert_int_equal(ntidx_trace_open_memory(data, size, "abi.nettrace", &t), NTIDX_OK);

    uint64_t pos = ntidx_trace_get_info(t)->first_block_offset;
    ntidx_block b;
    int rc, blocks = 0;
    for (;;) {
        memset(&b, 0xA5, sizeof b);
        if ((rc = ntidx_trace_next_block(t, &pos, &b)) != 1)
            break;
        assert_true(all_zero(b.reserved, sizeof b.reserved));
        blocks++;
    }
    assert_int_equal(rc, 0);
    assert_true(blocks >= 4);

    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    const ntidx_event *e;
    int events = 0;
    while ((rc = ntidx_reader_next(r, &e)) == 1) {
        events++;
        assert_true(all_zero(e->reserved, sizeof e->reserved));
        assert_true(all_zero(e->metadata->reserved, sizeof e->metadata->reserved));
        assert_non_null(e->thread);
        assert_true(all_zero(e->thread->reserved, sizeof e->thread->reserved));
        const uint8_t *p = e->label_list, *end = p + e->label_list_size;
        ntidx_label l;
        memset(&l, 0xA5, sizeof l);
        assert_int_equal(ntidx_label_next(&p, end, &l), 1);
        assert_int_equal(l.kind, NTIDX_LABEL_KEY_INT);
        assert_true(all_zero(l.reserved, sizeof l.reserved));
    }
    assert_int_equal(rc, 0);
    assert_int_equal(events, 2);
    assert_true(all_zero(ntidx_reader_get_stats(r)->reserved, sizeof ntidx_reader_get_stats(r)->reserved));
    ntidx_reader_close(&r);

    ntidx_index *x;
    assert_int_equal(ntidx_index_build(t, NULL, &x), NTIDX_OK);
    ntidx_slice_stats st;
    memset(&st, 0xA5, sizeof st);
    uint8_t *out;
    size_t out_size;
    assert_int_equal(ntidx_slice_memory(t, x, NULL, NULL, &out, &out_size, &st), NTIDX_OK);
    assert_int_equal(st.events, 2);
    assert_true(all_zero(st.reserved, sizeof st.reserved));
    free(out);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
    free(data);
}

/* A row whose reserved fields are set asks for something this version cannot do: the writer refuses it. */
static void test_writer_refuses_reserved(void **state)
{
    (void)state;
    ntidx_writer *w;
    assert_int_equal(ntidx_writer_open_memory(NULL, &w), NTIDX_OK);
    ntidx_metadata m = {0};
    m.id = 1;
    m.provider = "Abi";
    m.event_name = "Tick";
    m.opcode = -1;
    m.reserved[3] = 1;
    assert_int_equal(ntidx_writer_add_metadata(w, &m), NTIDX_E_INVALID_ARG);
    assert_non_null(strstr(ntidx_last_error(), "ntidx_writer_add_metadata: the metadata row's reserved fields are not zero"));
    m.reserved[3] = 0;
    assert_int_equal(ntidx_writer_add_metadata(w, &m), NTIDX_OK);

    ntidx_thread th = {0};
    th.index = 1;
    th.reserved[0] = 1;
    assert_int_equal(ntidx_writer_add_thread(w, &th), NTIDX_E_INVALID_ARG);
    assert_non_null(strstr(ntidx_last_error(), "thread's reserved fields are not zero"));
    th.reserved[0] = 0;
    assert_int_equal(ntidx_writer_add_thread(w, &th), NTIDX_OK);

    ntidx_label l[2] = {{0}, {0}};
    l[0].kind = l[1].kind = NTIDX_LABEL_LEVEL;
    l[1].reserved[2] = 1; /* the second of two */
    assert_int_equal(ntidx_writer_add_label_list(w, 1, l, 2), NTIDX_E_INVALID_ARG);
    assert_non_null(strstr(ntidx_last_error(), "label's reserved fields are not zero"));
    l[1].reserved[2] = 0;
    assert_int_equal(ntidx_writer_add_label_list(w, 1, l, 2), NTIDX_OK);

    ntidx_event e = {0};
    e.metadata_id = 1;
    e.thread_index = e.capture_thread_index = 1;
    e.reserved[1] = 1;
    assert_int_equal(ntidx_writer_add_event(w, &e), NTIDX_E_INVALID_ARG);
    assert_non_null(strstr(ntidx_last_error(), "event's reserved fields are not zero"));
    e.reserved[1] = 0;
    assert_int_equal(ntidx_writer_add_event(w, &e), NTIDX_OK);
    assert_int_equal(ntidx_writer_finish(w), NTIDX_OK);
    assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--sizes") == 0) {
        print_sizes();
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_library_zeroes_tails),
        cmocka_unit_test(test_writer_refuses_reserved),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
