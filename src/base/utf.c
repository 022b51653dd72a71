#include "utf.h"

#include "le.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static size_t put_cp(char *d, uint32_t cp)
{
    if (cp < 0x80) {
        d[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        d[0] = (char)(0xc0 | (cp >> 6));
        d[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        d[0] = (char)(0xe0 | (cp >> 12));
        d[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        d[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    d[0] = (char)(0xf0 | (cp >> 18));
    d[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    d[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    d[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/*
 * Payload strings are nearly all ASCII and a full pass converts every one of
 * them: eight code units at a time are checked for ASCII and narrowed in one
 * step (SSE2, which every x86-64 has); the rest goes unit by unit.
 */
size_t ntx_utf16_to_utf8(const uint8_t *src, size_t units, char *dst)
{
    size_t o = 0, i = 0;
#if defined(__SSE2__)
    const __m128i high = _mm_set1_epi16((short)0xff80);
    while (i + 8 <= units) {
        __m128i x = _mm_loadu_si128((const __m128i *)(src + 2 * i));
        if (_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(x, high), _mm_setzero_si128())) != 0xffff)
            break; /* a unit of 0x80 or more in these eight: go on one at a time */
        _mm_storel_epi64((__m128i *)(dst + o), _mm_packus_epi16(x, x));
        i += 8;
        o += 8;
    }
#endif
    for (; i < units; i++) {
        uint32_t u = ntx_load16(src + 2 * i);
        if (u < 0x80) {
            dst[o++] = (char)u;
            continue;
        }
        if (u >= 0xd800 && u < 0xdc00 && i + 1 < units) {
            uint32_t lo = ntx_load16(src + 2 * (i + 1));
            if (lo >= 0xdc00 && lo < 0xe000) {
                /* a surrogate pair is 4 UTF-8 bytes, within the 3-per-unit bound */
                o += put_cp(dst + o, 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00));
                i++;
                continue;
            }
        }
        if (u >= 0xd800 && u < 0xe000)
            u = 0xfffd;
        o += put_cp(dst + o, u);
    }
    dst[o] = 0;
    return o;
}

const uint8_t *ntx_utf16_find_nul(const uint8_t *p, const uint8_t *end)
{
#if defined(__SSE2__)
    while (end - p >= 16) {
        int m = _mm_movemask_epi8(_mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)p), _mm_setzero_si128()));
        if (m)
            return p + __builtin_ctz((unsigned)m); /* the low byte of the first zero unit: even */
        p += 16;
    }
#endif
    for (; end - p >= 2; p += 2)
        if (!ntx_load16(p))
            return p;
    return NULL;
}

const uint8_t *ntx_utf16z_to_utf8(const uint8_t *p, const uint8_t *end, char *dst, size_t *len)
{
    size_t o = 0;
#if defined(__SSE2__)
    const __m128i high = _mm_set1_epi16((short)0xff80), zero = _mm_setzero_si128();
    while (end - p >= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)p);
        /* bytes of zero units, and of units of 0x80 or more (two bits per unit) */
        unsigned z = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi16(x, zero));
        unsigned h = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(x, high), zero)) ^ 0xffffu;
        if (!(z | h)) {
            _mm_storel_epi64((__m128i *)(dst + o), _mm_packus_epi16(x, x));
            p += 16;
            o += 8;
            continue;
        }
        if (z) {
            unsigned zb = (unsigned)__builtin_ctz(z); /* the low byte of the first zero unit: even */
            if (!(h & ((1u << zb) - 1))) {            /* ASCII up to it: the string ends in these eight */
                _mm_storel_epi64((__m128i *)(dst + o), _mm_packus_epi16(x, x));
                o += zb / 2;
                dst[o] = 0;
                *len = o;
                return p + zb;
            }
        }
        break; /* a unit of 0x80 or more before the end: go on one at a time */
    }
#endif
    for (; end - p >= 2; p += 2) {
        uint32_t u = ntx_load16(p);
        if (u == 0) {
            dst[o] = 0;
            *len = o;
            return p;
        }
        if (u < 0x80) {
            dst[o++] = (char)u;
            continue;
        }
        if (u >= 0xd800 && u < 0xdc00 && end - p >= 4) {
            uint32_t lo = ntx_load16(p + 2);
            if (lo >= 0xdc00 && lo < 0xe000) { /* a zero unit is no low surrogate: pairs end before it */
                o += put_cp(dst + o, 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00));
                p += 2;
                continue;
            }
        }
        if (u >= 0xd800 && u < 0xe000)
            u = 0xfffd;
        o += put_cp(dst + o, u);
    }
    return NULL;
}

char *ntx_utf16_dup(ntx_arena *a, const uint8_t *src, size_t units)
{
    char *d = ntx_arena_alloc(a, ntx_utf8_bound(units));
    if (!d)
        return NULL;
    ntx_utf16_to_utf8(src, units, d);
    return d;
}
