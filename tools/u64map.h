/*
 * The tools' one hash map: u64 keys to u32 values, open addressing with linear
 * probing and a power-of-two capacity (the speedscope export's frames, stacks
 * and profiles; the Chrome export's named threads). The library keeps its own
 * (src/base/idmap.c), which the tools do not see.
 */
#ifndef NTIDX_TOOLS_U64MAP_H
#define NTIDX_TOOLS_U64MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct u64map {
    uint64_t *keys;
    uint32_t *vals; /* UINT32_MAX: empty */
    size_t cap, count;
} u64map;

/*
 * The slot of `key`: *found says whether it holds the key; else it is where the
 * key goes (the caller stores a value other than UINT32_MAX and increments
 * count, or leaves UINT32_MAX to keep it empty). NULL when out of memory.
 */
uint32_t *u64map_slot(u64map *m, uint64_t key, int *found);
void u64map_free(u64map *m);

#endif
