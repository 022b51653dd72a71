#include "hash.h"

#include <xxhash.h>

#if defined(__x86_64__) && defined(__GNUC__)
uint64_t ntx_xxh3_avx2(const void *p, size_t n);
uint64_t ntx_xxh3_seed_avx2(const void *p, size_t n, uint64_t seed);

static int have_avx2(void)
{
    static int cached = -1;
    if (cached < 0) {
        __builtin_cpu_init();
        cached = __builtin_cpu_supports("avx2") != 0;
    }
    return cached;
}
#endif

uint64_t ntx_xxh3(const void *p, size_t n)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (have_avx2())
        return ntx_xxh3_avx2(p, n);
#endif
    return XXH3_64bits(p, n);
}

uint64_t ntx_xxh3_seed(const void *p, size_t n, uint64_t seed)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (have_avx2())
        return ntx_xxh3_seed_avx2(p, n, seed);
#endif
    return XXH3_64bits_withSeed(p, n, seed);
}
