/*
 * Tapes (base/tape.c): what is written stays written however the tape
 * grows (mremap may move it), what is new reads zero, the capacity covers
 * what was asked, and sizes that cannot be mapped are refused, the tape left
 * as it was.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ntidx/ntidx.h"
#include "tape.h"

typedef struct rec {
    uint64_t a, b, c; /* 24 bytes: a capacity that is not a power of two in elements */
} rec;

static void grows_keeping_what_it_holds(void **state)
{
    (void)state;
    rec *v = NULL;
    size_t cap = 0, n = 0;
    /* past 2 MB (advised into huge pages) and through several moves */
    for (uint64_t i = 0; i < 600000; i++) {
        if (n == cap) {
            size_t was = cap;
            assert_int_equal(ntx_tape_grow((void **)&v, &cap, n + 1, sizeof *v), 0);
            assert_true(cap > was);
            assert_true((cap + 1) * sizeof *v > (64u << 10)); /* the first mapping is 64 KB */
            for (size_t k = n; k < cap; k++) /* the new part reads zero */
                assert_true(v[k].a == 0 && v[k].b == 0 && v[k].c == 0);
            for (size_t k = 0; k < n; k += 997) /* the old part is kept */
                assert_true(v[k].a == k && v[k].b == ~(uint64_t)k && v[k].c == k * 3);
        }
        v[n++] = (rec){i, ~i, i * 3};
    }
    for (size_t k = 0; k < n; k++)
        assert_true(v[k].a == k && v[k].b == ~(uint64_t)k && v[k].c == k * 3);
    /* asking for what it holds already changes nothing */
    rec *same = v;
    size_t same_cap = cap;
    assert_int_equal(ntx_tape_grow((void **)&v, &cap, cap, sizeof *v), 0);
    assert_ptr_equal(v, same);
    assert_int_equal(cap, same_cap);
    ntx_tape_free(v, cap, sizeof *v);
    ntx_tape_free(NULL, 0, sizeof *v);
}

static void sizes_beyond_memory_are_refused(void **state)
{
    (void)state;
    rec *v = NULL;
    size_t cap = 0;
    assert_int_equal(ntx_tape_grow((void **)&v, &cap, 10, sizeof *v), 0);
    v[9].a = 42;
    rec *was = v;
    size_t was_cap = cap;
    assert_int_equal(ntx_tape_grow((void **)&v, &cap, SIZE_MAX / 8, sizeof *v), NTIDX_E_NOMEM);
    assert_int_equal(ntx_tape_grow((void **)&v, &cap, (size_t)1 << 50, sizeof *v), NTIDX_E_NOMEM); /* 24 PB */
    assert_ptr_equal(v, was);
    assert_int_equal(cap, was_cap);
    assert_true(v[9].a == 42);
    assert_int_equal(ntx_tape_grow((void **)&v, &cap, 1, 0), 0); /* held already, whatever the size */
    ntx_tape_free(v, cap, sizeof *v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grows_keeping_what_it_holds),
        cmocka_unit_test(sizes_beyond_memory_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
