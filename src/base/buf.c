#include "buf.h"

#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

NTIDX_API void ntidx_buf_free(ntidx_buf *b)
{
    if (!b)
        return;
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->err = 0;
}

int ntx_buf_grow(ntidx_buf *b, size_t n)
{
    if (b->err)
        return b->err;
    if (n > SIZE_MAX / 2 - b->len - 1) {
        b->err = NTIDX_E_NOMEM;
        return b->err;
    }
    size_t need = b->len + n + 1; /* and the NUL */
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        b->err = NTIDX_E_NOMEM;
        return b->err;
    }
    b->data = p;
    b->cap = cap;
    return 0;
}

int ntx_buf_printf(ntidx_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char tmp[256];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return b->err ? b->err : (b->err = NTIDX_E_NOMEM);
    if ((size_t)n < sizeof tmp)
        return ntx_buf_put(b, tmp, (size_t)n);
    if (ntx_buf_reserve(b, (size_t)n + 1) != 0)
        return b->err;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return 0;
}

const char ntx_dec_pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                "8081828384858687888990919293949596979899";

int ntx_buf_dec_u64(ntidx_buf *b, uint64_t v)
{
    if (ntx_buf_reserve(b, 20) != 0)
        return b->err;
    char *e = ntx_put_dec_u64(b->data + b->len, v);
    b->len = (size_t)(e - b->data);
    *e = 0;
    return 0;
}

int ntx_buf_dec_i64(ntidx_buf *b, int64_t v)
{
    if (v >= 0)
        return ntx_buf_dec_u64(b, (uint64_t)v);
    if (ntx_buf_put(b, "-", 1))
        return b->err;
    return ntx_buf_dec_u64(b, (uint64_t)0 - (uint64_t)v); /* INT64_MIN too, without overflow */
}

NTIDX_API int ntidx_buf_append_dec(ntidx_buf *b, uint64_t v)
{
    if (!b)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_buf_append_dec: NULL argument");
    return ntx_buf_dec_u64(b, v) ? ntx_failf(NTIDX_E_NOMEM, NULL, NTIDX_NO_OFFSET, "out of memory") : NTIDX_OK;
}

size_t ntx_utf8_seq_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len;
    uint32_t cp;
    if (c < 0x80)
        return 1;
    if ((c & 0xe0) == 0xc0) {
        len = 2;
        cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
        len = 3;
        cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
        len = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min[len] || cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000))
        return 0;
    return len;
}

int ntx_buf_utf8(ntidx_buf *b, const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    if (ntx_buf_reserve(b, n) != 0)
        return b->err;
    size_t i = 0;
    while (i < n) {
        size_t len = ntx_utf8_seq_len(s + i, n - i);
        int rc = len ? ntx_buf_put(b, s + i, len) : ntx_buf_puts(b, "\xef\xbf\xbd");
        if (rc != 0)
            return rc;
        i += len ? len : 1;
    }
    return b->err;
}

/* An ASCII byte that does not go into a JSON string as it is ('"', '\\', a control character, DEL), escaped. */
static inline char *json_escape_ascii(char *o, unsigned c)
{
    static const char named[14] = {[8] = 'b', [9] = 't', [10] = 'n', [12] = 'f', [13] = 'r'};
    static const char hex[] = "0123456789abcdef";
    *o++ = '\\';
    if (c == '"' || c == '\\') {
        *o++ = (char)c;
    } else if (c < 14 && named[c]) {
        *o++ = named[c];
    } else { /* "\\u%04x" */
        memcpy(o, "u00", 3);
        o[3] = hex[c >> 4];
        o[4] = hex[c & 15];
        o += 5;
    }
    return o;
}

int ntx_buf_json_str(ntidx_buf *b, const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    /* Room for the worst case at once (every byte a \u00XX), then written without checks. */
    if (n > (SIZE_MAX / 2 - 8) / 6) {
        b->err = NTIDX_E_NOMEM;
        return b->err;
    }
    if (ntx_buf_reserve(b, n * 6 + 2) != 0)
        return b->err;
    char *o = b->data + b->len;
    *o++ = '"';
    size_t i = 0;
    while (i < n) {
        /* Most text is printable ASCII: a run of it goes out in one copy. */
        size_t run = i + ntx_json_plain_run(s + i, n - i);
        memcpy(o, s + i, run - i);
        o += run - i;
        i = run;
        if (i == n)
            break;
        unsigned char c = s[i];
        if (c < 0x80) { /* '"', '\\', a control character or DEL */
            o = json_escape_ascii(o, c);
            i++;
        } else {
            size_t len = ntx_utf8_seq_len(s + i, n - i);
            if (len == 0) {
                memcpy(o, "\xef\xbf\xbd", 3);
                o += 3;
                i++;
            } else {
                memcpy(o, s + i, len);
                o += len;
                i += len;
            }
        }
    }
    *o++ = '"';
    *o = 0;
    b->len = (size_t)(o - b->data);
    return 0;
}

/* A UTF-8 sequence of the code point (0x80 or more, no surrogate) at o; returns the end. */
static inline char *put_cp(char *o, uint32_t cp)
{
    if (cp < 0x800) {
        o[0] = (char)(0xc0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3f));
        return o + 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        return o + 3;
    }
    o[0] = (char)(0xf0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    return o + 4;
}

/*
 * The units in [p, end) as JSON string text; with `z`, up to the first zero unit, whose place it returns
 * (NULL: none). Printable ASCII goes 8 units a step (SSE2, which every x86-64 has); each other unit is
 * escaped as ntx_buf_json_str() escapes its byte, or written as the UTF-8 ntx_utf16_to_utf8() makes of it
 * (a surrogate pair as one code point, a lone surrogate as U+FFFD), which the escaper copies as it is.
 */
static inline __attribute__((always_inline)) const uint8_t *json_utf16(const uint8_t *p, const uint8_t *end,
                                                                       char *o, char **o_end, const int z)
{
    for (;;) {
#if defined(__SSE2__)
        const __m128i high = _mm_set1_epi16((short)0xff80), zero = _mm_setzero_si128();
        const __m128i space = _mm_set1_epi16(0x20), quote = _mm_set1_epi16('"'), bs = _mm_set1_epi16('\\');
        const __m128i del = _mm_set1_epi16(0x7f);
        while (end - p >= 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)p);
            /* units that are not printable ASCII or are '"', '\\': 0 (a zero unit is a control character) */
            __m128i ascii = _mm_cmpeq_epi16(_mm_and_si128(x, high), zero);
            __m128i special = _mm_or_si128(_mm_or_si128(_mm_cmplt_epi16(x, space), _mm_cmpeq_epi16(x, quote)),
                                           _mm_or_si128(_mm_cmpeq_epi16(x, bs), _mm_cmpeq_epi16(x, del)));
            unsigned m = (unsigned)_mm_movemask_epi8(_mm_andnot_si128(special, ascii)) ^ 0xffffu;
            _mm_storel_epi64((__m128i *)o, _mm_packus_epi16(x, x));
            if (!m) {
                p += 16;
                o += 8;
                continue;
            }
            unsigned k = (unsigned)__builtin_ctz(m); /* the first such unit's low byte: even */
            p += k;
            o += k / 2;
            break;
        }
#endif
        if (end - p < 2)
            break;
        uint32_t u = ntx_load16(p);
        p += 2;
        if (u < 0x80) {
            if (u == 0 && z) {
                *o_end = o;
                return p - 2;
            }
            if (ntx_json_plain((unsigned char)u))
                *o++ = (char)u;
            else
                o = json_escape_ascii(o, u);
            continue;
        }
        if (u >= 0xd800 && u < 0xdc00 && end - p >= 2) {
            uint32_t lo = ntx_load16(p);
            if (lo >= 0xdc00 && lo < 0xe000) { /* a zero unit is no low surrogate: pairs end before it */
                o = put_cp(o, 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00));
                p += 2;
                continue;
            }
        }
        o = put_cp(o, u >= 0xd800 && u < 0xe000 ? 0xfffd : u);
    }
    *o_end = o;
    return z ? NULL : p;
}

char *ntx_json_utf16(char *o, const uint8_t *s, size_t units)
{
    char *e;
    json_utf16(s, s + 2 * units, o, &e, 0);
    return e;
}

const uint8_t *ntx_json_utf16z(const uint8_t *p, const uint8_t *end, char *o, char **o_end)
{
    return json_utf16(p, end, o, o_end, 1);
}

/* The public face of the buffer: appends that publish their failure (base/error.h). */
NTIDX_API int ntidx_buf_append(ntidx_buf *b, const void *data, size_t n)
{
    if (!b || (!data && n))
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_buf_append: NULL argument");
    return ntx_buf_put(b, data, n) ? ntx_failf(NTIDX_E_NOMEM, NULL, NTIDX_NO_OFFSET, "out of memory") : NTIDX_OK;
}

NTIDX_API int ntidx_buf_append_json_string(ntidx_buf *b, const char *s, size_t n)
{
    if (!b || (!s && n))
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_buf_append_json_string: NULL argument");
    int rc = ntx_buf_json_str(b, s ? s : "", n);
    return rc ? ntx_failf(rc, NULL, NTIDX_NO_OFFSET, "out of memory") : NTIDX_OK;
}

NTIDX_API int ntidx_buf_append_utf8(ntidx_buf *b, const char *s, size_t n)
{
    if (!b || (!s && n))
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_buf_append_utf8: NULL argument");
    int rc = ntx_buf_utf8(b, s ? s : "", n);
    return rc ? ntx_failf(rc, NULL, NTIDX_NO_OFFSET, "out of memory") : NTIDX_OK;
}
