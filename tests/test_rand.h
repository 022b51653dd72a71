/*
 * The tests' pseudo-random numbers: xorshift64 (Marsaglia, 2003). Each test
 * keeps its own state, seeded with a constant, so a failure repeats.
 */
#ifndef NTIDX_TEST_RAND_H
#define NTIDX_TEST_RAND_H
#include <stdint.h>

static inline uint64_t test_rand_next(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

#endif
