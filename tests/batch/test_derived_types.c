/*
 * The types only V6 label lists make (an event whose label list overrides
 * its opcode or version): ntidx_index_types() finds them by reading every
 * event header, region by region on threads (src/ops/types.c), and merges
 * what each unit of regions found. The list must not depend on how the
 * regions were cut into units: one thread (units of about a quarter of the
 * trace) and eight threads (a region each) list the same types in the same order, the order in which
 * one reader from the start meets them; and every type an event of the trace
 * has is listed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <ntidx/batch.h>
#include <ntidx/index.h>
#include <ntidx/writer.h>

#include "ops_internal.h"

static int same_type(const ntidx_metadata *a, const ntidx_metadata *b)
{
    if (strcmp(a->provider, b->provider) || strcmp(a->event_name, b->event_name) || a->event_id != b->event_id ||
        a->version != b->version || a->field_count != b->field_count || a->opcode != b->opcode)
        return 0;
    for (uint32_t f = 0; f < a->field_count; f++)
        if (strcmp(a->fields[f].name, b->fields[f].name) || a->fields[f].type_code != b->fields[f].type_code)
            return 0;
    return 1;
}

static long find(const ntidx_type_list *l, const ntidx_metadata *m)
{
    for (size_t k = 0; k < ntidx_type_list_count(l); k++)
        if (same_type(ntidx_type_list_at(l, k), m))
            return (long)k;
    return -1;
}

static void test_units_do_not_matter(void **state)
{
    (void)state;
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    g.format_version = 6;
    g.events = 200000;
    g.seed = 7;
    uint8_t *data;
    size_t size;
    assert_int_equal(ntidx_generate_memory(&g, &data, &size), NTIDX_OK);
    ntidx_trace *t;
    assert_int_equal(ntidx_trace_open_memory(data, size, "derived.nettrace", &t), NTIDX_OK);
    ntidx_index *x;
    assert_int_equal(ntidx_index_build(t, NULL, &x), NTIDX_OK);
    /* 7 regions: one thread cuts them into units of two, eight threads into units of one */
    assert_true(ntidx_index_region_count(x) >= 6);

    ntidx_type_list *defined, *one, *many;
    assert_int_equal(ntx_index_types(t, x, 0, 0, &defined), NTIDX_OK);
    assert_int_equal(ntx_index_types(t, x, 1, 1, &one), NTIDX_OK);
    assert_int_equal(ntx_index_types(t, x, 1, 8, &many), NTIDX_OK);
    /* the generator's label lists override opcodes: there are types no definition block names */
    assert_true(ntidx_type_list_count(one) > ntidx_type_list_count(defined));
    assert_int_equal(ntidx_type_list_count(many), ntidx_type_list_count(one));
    for (size_t k = 0; k < ntidx_type_list_count(one); k++)
        assert_true(same_type(ntidx_type_list_at(one, k), ntidx_type_list_at(many, k)));

    /* Every event's type is listed; the derived ones in the order one reader meets them. */
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    const ntidx_event *e;
    int rc;
    long next_derived = (long)ntidx_type_list_count(defined);
    while ((rc = ntidx_reader_next(r, &e)) == 1) {
        long k = find(one, e->metadata);
        assert_true(k >= 0);
        if (k >= next_derived) {
            assert_int_equal(k, next_derived); /* a derived type first met: the next one listed */
            next_derived++;
        }
    }
    assert_int_equal(rc, 0);
    assert_int_equal(next_derived, (long)ntidx_type_list_count(one));
    ntidx_reader_close(&r);
    ntidx_type_list_free(&defined);
    ntidx_type_list_free(&one);
    ntidx_type_list_free(&many);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_units_do_not_matter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
