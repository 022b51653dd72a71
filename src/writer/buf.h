/*
 * Growable byte buffer used by the writer for pending blocks and scratch
 * encodings.
 *
 * Errors are sticky (the dav1d getbits idea, applied to output): a put that
 * cannot grow the buffer sets `err` and every later put is a no-op, so an
 * encoder can write a whole row with unchecked puts and test `err` once.
 * Buffers are reused across blocks (len reset to 0), so steady-state writing
 * allocates nothing.
 */
#ifndef NTIDX_WRITER_BUF_H
#define NTIDX_WRITER_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct ntidx_wbuf {
    uint8_t *p;
    size_t len, cap;
    int err; /* 0 or NTIDX_E_NOMEM, sticky until ntidx_wbuf_free() */
} ntidx_wbuf;

/** Slow path of ntidx_wbuf_reserve(): grow so that n more bytes fit. */
int ntidx_wbuf_grow(ntidx_wbuf *b, size_t n);

void ntidx_wbuf_free(ntidx_wbuf *b);

/** Make room for n more bytes. @return 0 or NTIDX_E_NOMEM (also kept in b->err). */
static inline int ntidx_wbuf_reserve(ntidx_wbuf *b, size_t n)
{
    if (b->err)
        return b->err;
    if (n <= b->cap - b->len)
        return 0;
    return ntidx_wbuf_grow(b, n);
}

static inline void ntidx_wbuf_put(ntidx_wbuf *b, const void *d, size_t n)
{
    if (n == 0 || ntidx_wbuf_reserve(b, n))
        return;
    memcpy(b->p + b->len, d, n);
    b->len += n;
}

static inline void ntidx_wbuf_zero(ntidx_wbuf *b, size_t n)
{
    if (n == 0 || ntidx_wbuf_reserve(b, n))
        return;
    memset(b->p + b->len, 0, n);
    b->len += n;
}

static inline void ntidx_wbuf_u8(ntidx_wbuf *b, uint8_t v)
{
    ntidx_wbuf_put(b, &v, 1);
}

static inline void ntidx_wbuf_u16(ntidx_wbuf *b, uint16_t v)
{
    uint8_t t[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    ntidx_wbuf_put(b, t, 2);
}

static inline void ntidx_wbuf_u32(ntidx_wbuf *b, uint32_t v)
{
    uint8_t t[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    ntidx_wbuf_put(b, t, 4);
}

static inline void ntidx_wbuf_u64(ntidx_wbuf *b, uint64_t v)
{
    uint8_t t[8];
    for (int i = 0; i < 8; i++)
        t[i] = (uint8_t)(v >> (8 * i));
    ntidx_wbuf_put(b, t, 8);
}

/* LEB128: 7 bits per byte, high bit set on every byte but the last. */
static inline void ntidx_wbuf_varuint(ntidx_wbuf *b, uint64_t v)
{
    uint8_t t[10];
    size_t n = 0;
    while (v >= 0x80) {
        t[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    t[n++] = (uint8_t)v;
    ntidx_wbuf_put(b, t, n);
}

/* Overwrite bytes already written (size fields known only after their content). */
static inline void ntidx_wbuf_patch_u16(ntidx_wbuf *b, size_t at, uint16_t v)
{
    if (b->err)
        return;
    b->p[at] = (uint8_t)v;
    b->p[at + 1] = (uint8_t)(v >> 8);
}

static inline void ntidx_wbuf_patch_u32(ntidx_wbuf *b, size_t at, uint32_t v)
{
    if (b->err)
        return;
    for (int i = 0; i < 4; i++)
        b->p[at + i] = (uint8_t)(v >> (8 * i));
}

#endif /* NTIDX_WRITER_BUF_H */
