#include "arena.h"

#include <stdlib.h>
#include <string.h>

struct ntx_arena_chunk {
    ntx_arena_chunk *next;
    size_t size, used;
    _Alignas(8) unsigned char data[];
};

#define NTX_ARENA_CHUNK 65536

void ntx_arena_init(ntx_arena *a)
{
    a->head = NULL;
    a->used_bytes = 0;
}

void *ntx_arena_alloc(ntx_arena *a, size_t n)
{
    n = (n + 7) & ~(size_t)7;
    if (n == 0)
        n = 8;
    ntx_arena_chunk *c = a->head;
    if (!c || c->size - c->used < n) {
        size_t sz = n > NTX_ARENA_CHUNK ? n : NTX_ARENA_CHUNK;
        c = malloc(sizeof *c + sz);
        if (!c)
            return NULL;
        c->size = sz;
        c->used = 0;
        c->next = a->head;
        a->head = c;
    }
    void *p = c->data + c->used;
    c->used += n;
    a->used_bytes += n;
    memset(p, 0, n);
    return p;
}

char *ntx_arena_strndup(ntx_arena *a, const char *s, size_t n)
{
    char *d = ntx_arena_alloc(a, n + 1);
    if (!d)
        return NULL;
    if (n)
        memcpy(d, s, n);
    d[n] = 0;
    return d;
}

void ntx_arena_free(ntx_arena *a)
{
    ntx_arena_chunk *c = a->head;
    while (c) {
        ntx_arena_chunk *n = c->next;
        free(c);
        c = n;
    }
    a->head = NULL;
    a->used_bytes = 0;
}

void ntx_arena_adopt(ntx_arena *into, ntx_arena *from)
{
    ntx_arena_chunk *first = from->head;
    if (!first)
        return;
    ntx_arena_chunk *last = first;
    while (last->next)
        last = last->next;
    /* behind into's head: its head stays the chunk it bumps in */
    if (into->head) {
        last->next = into->head->next;
        into->head->next = first;
    } else {
        into->head = first;
    }
    into->used_bytes += from->used_bytes;
    from->head = NULL;
    from->used_bytes = 0;
}
