#include "utf.h"

#include "le.h"

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

size_t ntx_utf16_to_utf8(const uint8_t *src, size_t units, char *dst)
{
    size_t o = 0;
    for (size_t i = 0; i < units; i++) {
        uint32_t u = ntx_load16(src + 2 * i);
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

char *ntx_utf16_dup(ntx_arena *a, const uint8_t *src, size_t units)
{
    char *d = ntx_arena_alloc(a, ntx_utf8_bound(units));
    if (!d)
        return NULL;
    ntx_utf16_to_utf8(src, units, d);
    return d;
}
