/*
 * The one bounds-checked little-endian reader over trace and index bytes.
 *
 * Every read of untrusted bytes in the library goes through a cursor.
 * Reads past the end set a sticky error flag and return zeros, so a decoder
 * can read a whole structure and check the flag once (dav1d's getbits
 * model). Lengths are compared as `n > left`, never as `p + n > end`, so
 * huge declared sizes cannot wrap a pointer.
 */
#ifndef NTIDX_CURSOR_H
#define NTIDX_CURSOR_H

#include <stdint.h>
#include <string.h>

#include "le.h"

typedef struct ntx_cur {
    const uint8_t *p;    /* next byte */
    const uint8_t *end;  /* one past the last readable byte */
    const uint8_t *base; /* start of the file: offsets in messages are p - base */
    int err;             /* sticky: 1 once any read ran past end or was malformed */
} ntx_cur;

static inline void ntx_cur_init(ntx_cur *c, const uint8_t *base, uint64_t off, uint64_t len)
{
    c->base = base;
    c->p = base + off;
    c->end = c->p + len;
    c->err = 0;
}

static inline uint64_t ntx_cur_left(const ntx_cur *c) { return (uint64_t)(c->end - c->p); }
static inline uint64_t ntx_cur_off(const ntx_cur *c) { return (uint64_t)(c->p - c->base); }

/* Mark the cursor failed and park it at the end so later reads fail too. */
static inline void ntx_cur_fail(ntx_cur *c)
{
    c->err = 1;
    c->p = c->end;
}

static inline const uint8_t *ntx_cur_bytes(ntx_cur *c, uint64_t n)
{
    if (n > ntx_cur_left(c)) {
        ntx_cur_fail(c);
        return NULL;
    }
    const uint8_t *r = c->p;
    c->p += n;
    return r;
}

static inline void ntx_cur_skip(ntx_cur *c, uint64_t n) { (void)ntx_cur_bytes(c, n); }

static inline uint8_t ntx_cur_u8(ntx_cur *c)
{
    if (c->p >= c->end) {
        ntx_cur_fail(c);
        return 0;
    }
    return *c->p++;
}

static inline uint16_t ntx_cur_u16(ntx_cur *c)
{
    const uint8_t *p = ntx_cur_bytes(c, 2);
    return p ? ntx_load16(p) : 0;
}

static inline uint32_t ntx_cur_u32(ntx_cur *c)
{
    const uint8_t *p = ntx_cur_bytes(c, 4);
    return p ? ntx_load32(p) : 0;
}

static inline uint64_t ntx_cur_u64(ntx_cur *c)
{
    const uint8_t *p = ntx_cur_bytes(c, 8);
    return p ? ntx_load64(p) : 0;
}

/*
 * LEB128-style varuint, capped: at most 10 bytes, and the value must fit in
 * `bits` bits (32 or 64). Over-long or over-wide encodings fail the cursor,
 * as the spec requires (varuint32 "must fit in a uint").
 */
static inline uint64_t ntx_cur_varu(ntx_cur *c, unsigned bits)
{
    uint64_t v = 0;
    unsigned shift = 0;
    const unsigned maxbytes = bits == 32 ? 5 : 10;
    for (unsigned i = 0; i < maxbytes; i++) {
        if (c->p >= c->end) {
            ntx_cur_fail(c);
            return 0;
        }
        uint8_t b = *c->p++;
        uint64_t chunk = (uint64_t)(b & 0x7f);
        if (shift == 63 && chunk > 1) {
            ntx_cur_fail(c);
            return 0;
        }
        v |= chunk << shift;
        if (!(b & 0x80)) {
            if (bits == 32 && v > 0xffffffffu) {
                ntx_cur_fail(c);
                return 0;
            }
            return v;
        }
        shift += 7;
    }
    ntx_cur_fail(c);
    return 0;
}

static inline uint32_t ntx_cur_varu32(ntx_cur *c) { return (uint32_t)ntx_cur_varu(c, 32); }
static inline uint64_t ntx_cur_varu64(ntx_cur *c) { return ntx_cur_varu(c, 64); }

/* Zigzag varint64. */
static inline int64_t ntx_cur_vari64(ntx_cur *c)
{
    uint64_t v = ntx_cur_varu(c, 64);
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/*
 * Fast path for the event-header hot loop: decodes a varuint from [*pp, end)
 * without touching a cursor struct. Returns 0 and leaves *pp unchanged on
 * failure (truncated or over-long).
 */
static inline int ntx_varu64_fast(const uint8_t **pp, const uint8_t *end, uint64_t *out)
{
    const uint8_t *p = *pp;
    if (p < end && !(*p & 0x80)) { /* one byte: the common case */
        *out = *p;
        *pp = p + 1;
        return 1;
    }
    uint64_t v = 0;
    unsigned shift = 0;
    for (unsigned i = 0; i < 10; i++) {
        if (p >= end)
            return 0;
        uint8_t b = *p++;
        uint64_t chunk = (uint64_t)(b & 0x7f);
        if (shift == 63 && chunk > 1)
            return 0;
        v |= chunk << shift;
        if (!(b & 0x80)) {
            *out = v;
            *pp = p;
            return 1;
        }
        shift += 7;
    }
    return 0;
}

#endif
