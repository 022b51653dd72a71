#include "buf.h"

#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The pairs 00..99: two digits a step. */
static const char dec_pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                   "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                   "8081828384858687888990919293949596979899";

/* v < 10^8 as exactly 8 digits, in 32-bit arithmetic. */
static inline void dec_8(char *p, uint32_t v)
{
    uint32_t hi = v / 10000, lo = v % 10000;
    memcpy(p, dec_pairs + hi / 100 * 2, 2);
    memcpy(p + 2, dec_pairs + hi % 100 * 2, 2);
    memcpy(p + 4, dec_pairs + lo / 100 * 2, 2);
    memcpy(p + 6, dec_pairs + lo % 100 * 2, 2);
}

/* v < 10^8 in its own number of digits; returns the end. */
static inline char *dec_small(char *p, uint32_t v)
{
    int n = v < 100 ? (v < 10 ? 1 : 2) : v < 10000 ? (v < 1000 ? 3 : 4) : v < 1000000 ? (v < 100000 ? 5 : 6)
                                                                                      : (v < 10000000 ? 7 : 8);
    char *e = p + n, *q = e;
    while (v >= 100) {
        q -= 2;
        memcpy(q, dec_pairs + v % 100 * 2, 2);
        v /= 100;
    }
    if (v >= 10)
        memcpy(q - 2, dec_pairs + v * 2, 2);
    else
        q[-1] = (char)('0' + v);
    return e;
}

int ntx_buf_dec_u64(ntidx_buf *b, uint64_t v)
{
    /* Written in place: 8 digits at a time in 32-bit arithmetic (at most two 64-bit divisions). */
    if (ntx_buf_reserve(b, 20) != 0)
        return b->err;
    char *p = b->data + b->len, *e;
    if (v < 100000000) {
        e = dec_small(p, (uint32_t)v);
    } else if (v < 10000000000000000ull) {
        e = dec_small(p, (uint32_t)(v / 100000000));
        dec_8(e, (uint32_t)(v % 100000000));
        e += 8;
    } else {
        uint64_t hi = v / 10000000000000000ull, mid = v % 10000000000000000ull;
        e = dec_small(p, (uint32_t)hi);
        dec_8(e, (uint32_t)(mid / 100000000));
        dec_8(e + 8, (uint32_t)(mid % 100000000));
        e += 16;
    }
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
        if (c == '"' || c == '\\') {
            *o++ = '\\';
            *o++ = (char)c;
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            static const char named[14] = {[8] = 'b', [9] = 't', [10] = 'n', [12] = 'f', [13] = 'r'};
            *o++ = '\\';
            if (c < 14 && named[c]) {
                *o++ = named[c];
            } else { /* "\\u%04x" */
                static const char hex[] = "0123456789abcdef";
                memcpy(o, "u00", 3);
                o[3] = hex[c >> 4];
                o[4] = hex[c & 15];
                o += 5;
            }
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
