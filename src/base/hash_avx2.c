/* XXH3 compiled for AVX2 (this file only is built with -mavx2; used after a CPU check). */
#include <stddef.h>
#include <stdint.h>

#define XXH_INLINE_ALL
#define XXH_VECTOR XXH_AVX2
#include <xxhash.h>

uint64_t ntx_xxh3_avx2(const void *p, size_t n);
uint64_t ntx_xxh3_seed_avx2(const void *p, size_t n, uint64_t seed);

uint64_t ntx_xxh3_avx2(const void *p, size_t n) { return XXH3_64bits(p, n); }
uint64_t ntx_xxh3_seed_avx2(const void *p, size_t n, uint64_t seed) { return XXH3_64bits_withSeed(p, n, seed); }
