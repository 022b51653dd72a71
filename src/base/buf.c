#include "buf.h"

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
}

int ntx_buf_reserve(ntidx_buf *b, size_t extra)
{
    if (b->cap - b->len > extra)
        return 0;
    size_t ncap = b->cap ? b->cap : 256;
    while (ncap - b->len <= extra) {
        if (ncap > SIZE_MAX / 2)
            return -1;
        ncap *= 2;
    }
    char *nd = realloc(b->data, ncap);
    if (!nd)
        return -1;
    b->data = nd;
    b->cap = ncap;
    return 0;
}

int ntx_buf_put(ntidx_buf *b, const void *p, size_t n)
{
    if (ntx_buf_reserve(b, n) != 0)
        return -1;
    memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = 0;
    return 0;
}

int ntx_buf_puts(ntidx_buf *b, const char *s) { return ntx_buf_put(b, s, strlen(s)); }

int ntx_buf_printf(ntidx_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char tmp[256];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return -1;
    if ((size_t)n < sizeof tmp)
        return ntx_buf_put(b, tmp, (size_t)n);
    if (ntx_buf_reserve(b, (size_t)n + 1) != 0)
        return -1;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return 0;
}

/* Length of a valid UTF-8 sequence at s (n bytes available), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t n)
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

int ntx_buf_json_str(ntidx_buf *b, const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    if (ntx_buf_reserve(b, n + 2) != 0)
        return -1;
    b->data[b->len++] = '"';
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        int rc = 0;
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            rc = ntx_buf_put(b, e, 2);
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            static const char *named[] = {[8] = "\\b", [9] = "\\t", [10] = "\\n", [12] = "\\f", [13] = "\\r"};
            rc = c < 14 && named[c] ? ntx_buf_puts(b, named[c]) : ntx_buf_printf(b, "\\u%04x", c);
            i++;
        } else {
            size_t len = utf8_seq(s + i, n - i);
            if (len == 0) {
                rc = ntx_buf_puts(b, "\xef\xbf\xbd");
                i++;
            } else {
                rc = ntx_buf_put(b, s + i, len);
                i += len;
            }
        }
        if (rc != 0)
            return -1;
    }
    return ntx_buf_put(b, "\"", 1);
}
