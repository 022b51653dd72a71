/*
 * Whole files in and out for the tests (cmocka must be included first):
 * each step is asserted, so a test that cannot write or read its own
 * scratch files fails there, not later on a wrong comparison.
 */
#ifndef NTIDX_TEST_FILES_H
#define NTIDX_TEST_FILES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static inline void write_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, n, f), n);
    fclose(f);
}

/* The whole file, malloc'ed (free it); *n its size. */
static inline uint8_t *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc(*n ? *n : 1);
    assert_non_null(p);
    assert_int_equal(fread(p, 1, *n, f), *n);
    fclose(f);
    return p;
}

#endif
