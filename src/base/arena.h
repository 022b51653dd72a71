/*
 * A bump allocator for definitions (metadata rows, field trees, strings,
 * thread rows). Definitions die together (at a cache flush or when the
 * reader closes), so they are freed together: no per-row free, no leaks on
 * error paths.
 */
#ifndef NTIDX_ARENA_H
#define NTIDX_ARENA_H

#include <stddef.h>

typedef struct ntx_arena_chunk ntx_arena_chunk;

typedef struct ntx_arena {
    ntx_arena_chunk *head;
    size_t used_bytes; /* total handed out, for limits and tests */
} ntx_arena;

void ntx_arena_init(ntx_arena *a);
/* 8-byte aligned, zeroed memory; NULL when out of memory. */
void *ntx_arena_alloc(ntx_arena *a, size_t n);
/* Copy n bytes and add a NUL. */
char *ntx_arena_strndup(ntx_arena *a, const char *s, size_t n);
void ntx_arena_free(ntx_arena *a);
/* Every chunk of `from` moved into `into` (which frees them with its own), `from` left empty: what was
   handed out of `from` stays where it is and now lives as long as `into`. Nothing is copied. */
void ntx_arena_adopt(ntx_arena *into, ntx_arena *from);

#endif
