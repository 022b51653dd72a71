/*
 * Time-order keys (base/time_sort.c): the sort agrees with a reference
 * (qsort on the same order, made stable by the index) on inputs that are
 * sorted, reversed, runs of a writer's buffers (merged), random with many
 * ties, random over a wide span and nearly sorted (radix sorted), and tiny; the permutation moves each record to its key's place, for records
 * smaller and larger than the permutation's buffer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "time_sort.h"
#include "../test_rand.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void) { return test_rand_next(&rng); }

static int by_key_then_index(const void *a, const void *b)
{
    const ntx_time_key *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* kind 0 sorted, 1 reversed, 2 runs (a writer's buffers), 3 random times with many ties (radix sorted), 4 random
   times over 2^40 (radix, four passes), 5 nearly sorted (each key a little late: runs of two or three) */
static void fill(ntx_time_key *k, size_t n, int kind)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t ts;
        switch (kind) {
        case 0: ts = i * 3; break;
        case 1: ts = (n - i) * 5; break;
        case 2: ts = (i % 37) * 1000 + i / 37; break;
        case 3: ts = next_rand() % 50; break;
        case 4: ts = (1ull << 50) + next_rand() % (1ull << 40); break;
        default: ts = i * 10 + next_rand() % 25; break;
        }
        k[i] = (ntx_time_key){.ts = ts, .i = i};
    }
}

static void sorts_as_the_reference(void **state)
{
    (void)state;
    static const size_t sizes[] = {0, 1, 2, 3, 17, 1000, 100003};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (int kind = 0; kind < 6; kind++) {
            size_t n = sizes[s];
            ntx_time_key *k = malloc((2 * n + 1) * sizeof *k), *want = malloc((n + 1) * sizeof *want);
            assert_non_null(k);
            assert_non_null(want);
            fill(k, n, kind);
            memcpy(want, k, n * sizeof *k);
            qsort(want, n, sizeof *want, by_key_then_index); /* stable by the index */
            const ntx_time_key *got = ntx_time_sort(k, k + n, n);
            assert_true(got == k || got == k + n);
            for (size_t i = 0; i < n; i++) {
                assert_int_equal(got[i].ts, want[i].ts);
                assert_int_equal(got[i].i, want[i].i);
            }
            free(k);
            free(want);
        }
}

static void permute_moves_each_record_to_its_place(void **state)
{
    (void)state;
    static const size_t sizes[] = {8, 64, 300}; /* the last larger than the permutation's buffer */
    const size_t n = 5000;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        size_t size = sizes[s];
        unsigned char *v = malloc(n * size);
        ntx_time_key *k = malloc(2 * n * sizeof *k);
        assert_non_null(v);
        assert_non_null(k);
        for (size_t i = 0; i < n; i++) {
            k[i] = (ntx_time_key){.ts = next_rand() % 1000, .i = i};
            for (size_t b = 0; b < size; b++) /* every byte says which record it belongs to */
                v[i * size + b] = (unsigned char)(i * 7 + b * 13 + (i >> 8));
        }
        ntx_time_key *sorted = ntx_time_sort(k, k + n, n);
        size_t *from = malloc(n * sizeof *from);
        assert_non_null(from);
        for (size_t i = 0; i < n; i++)
            from[i] = sorted[i].i;
        ntx_time_permute(v, size, sorted, n);
        for (size_t i = 0; i < n; i++) /* place i holds the record that was at from[i] */
            for (size_t b = 0; b < size; b++)
                assert_int_equal(v[i * size + b], (unsigned char)(from[i] * 7 + b * 13 + (from[i] >> 8)));
        free(from);
        free(v);
        free(k);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sorts_as_the_reference),
        cmocka_unit_test(permute_moves_each_record_to_its_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
