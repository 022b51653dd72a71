/*
 * xxh3-64 for checksums and identities. Debian's libxxhash is built for
 * baseline x86-64 (about 3 GB/s here), and index loads hash megabytes on
 * every query, so x86-64 builds also compile XXH3 from the same header for
 * AVX2 and pick it at run time. XXH3's value does not depend on the
 * vector unit: both give the same hash.
 */
#ifndef NTIDX_HASH_H
#define NTIDX_HASH_H

#include <stddef.h>
#include <stdint.h>

uint64_t ntx_xxh3(const void *p, size_t n);
uint64_t ntx_xxh3_seed(const void *p, size_t n, uint64_t seed);

#endif
