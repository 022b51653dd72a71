/*
 * The library's one growable byte buffer (ntidx_buf, public so that the
 * formatters can append to a caller's buffer): text for the formatters,
 * pending blocks for the writer, index sections for the index builder.
 *
 * Errors are sticky (dav1d's getbits idea applied to output): an append that
 * cannot grow the buffer sets `err` and every later append is a no-op, so an
 * encoder can write a whole row with unchecked appends and test `err` once.
 * The functions that return an int return that error (0 or NTIDX_E_NOMEM),
 * for callers that check at once. The bytes are always followed by a NUL
 * (not counted in `len`), so text is ready for printf.
 */
#ifndef NTX_BASE_BUF_H
#define NTX_BASE_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "le.h"
#include "ntidx/ntidx.h"

/* Slow path of ntx_buf_reserve(): grow so that n more bytes (and the NUL) fit. */
int ntx_buf_grow(ntidx_buf *b, size_t n);

/* Room for n more bytes. 0 or NTIDX_E_NOMEM (also kept in b->err). */
static inline int ntx_buf_reserve(ntidx_buf *b, size_t n)
{
    if (b->err)
        return b->err;
    if (b->cap > b->len && n < b->cap - b->len)
        return 0;
    return ntx_buf_grow(b, n);
}

/* n bytes appended and zeroed: where to write them, or NULL when out of memory. */
static inline uint8_t *ntx_buf_append(ntidx_buf *b, size_t n)
{
    if (ntx_buf_reserve(b, n))
        return NULL;
    uint8_t *p = b->bytes + b->len;
    memset(p, 0, n + 1);
    b->len += n;
    return p;
}

static inline int ntx_buf_put(ntidx_buf *b, const void *d, size_t n)
{
    if (ntx_buf_reserve(b, n))
        return b->err;
    if (n)
        memcpy(b->bytes + b->len, d, n);
    b->len += n;
    b->bytes[b->len] = 0;
    return 0;
}

static inline int ntx_buf_puts(ntidx_buf *b, const char *s) { return ntx_buf_put(b, s, strlen(s)); }
static inline int ntx_buf_zero(ntidx_buf *b, size_t n) { return ntx_buf_append(b, n) ? 0 : b->err; }
static inline int ntx_buf_u8(ntidx_buf *b, uint8_t v) { return ntx_buf_put(b, &v, 1); }

static inline int ntx_buf_u16(ntidx_buf *b, uint16_t v)
{
    uint8_t t[2];
    ntx_store16(t, v);
    return ntx_buf_put(b, t, 2);
}

static inline int ntx_buf_u32(ntidx_buf *b, uint32_t v)
{
    uint8_t t[4];
    ntx_store32(t, v);
    return ntx_buf_put(b, t, 4);
}

static inline int ntx_buf_u64(ntidx_buf *b, uint64_t v)
{
    uint8_t t[8];
    ntx_store64(t, v);
    return ntx_buf_put(b, t, 8);
}

/* LEB128: 7 bits per byte, high bit set on every byte but the last. */
static inline int ntx_buf_varuint(ntidx_buf *b, uint64_t v)
{
    uint8_t t[10];
    size_t n = 0;
    while (v >= 0x80) {
        t[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    t[n++] = (uint8_t)v;
    return ntx_buf_put(b, t, n);
}

/* Overwrite bytes already written (size fields known only after their content). */
static inline void ntx_buf_patch_u16(ntidx_buf *b, size_t at, uint16_t v)
{
    if (!b->err)
        ntx_store16(b->bytes + at, v);
}

static inline void ntx_buf_patch_u32(ntidx_buf *b, size_t at, uint32_t v)
{
    if (!b->err)
        ntx_store32(b->bytes + at, v);
}

/* Forget the contents, keep the storage (and a sticky error). */
static inline void ntx_buf_reset(ntidx_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = 0;
}

int ntx_buf_printf(ntidx_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * v in decimal, the bytes "%llu" / "%lld" print, without printf: most values
 * a dump prints are integers, and vsnprintf's format parsing cost more than
 * the decode of the event they came from.
 */
int ntx_buf_dec_u64(ntidx_buf *b, uint64_t v);
int ntx_buf_dec_i64(ntidx_buf *b, int64_t v);

/* The pairs 00..99: two digits a step. */
extern const char ntx_dec_pairs[201];

/* v < 10^8 as exactly 8 digits at p, in 32-bit arithmetic. */
static inline void ntx_put_dec8(char *p, uint32_t v)
{
    uint32_t hi = v / 10000, lo = v % 10000;
    memcpy(p, ntx_dec_pairs + hi / 100 * 2, 2);
    memcpy(p + 2, ntx_dec_pairs + hi % 100 * 2, 2);
    memcpy(p + 4, ntx_dec_pairs + lo / 100 * 2, 2);
    memcpy(p + 6, ntx_dec_pairs + lo % 100 * 2, 2);
}

/* v < 10^8 in its own number of digits at p; returns the end. */
static inline char *ntx_put_dec_small(char *p, uint32_t v)
{
    int n = v < 100 ? (v < 10 ? 1 : 2) : v < 10000 ? (v < 1000 ? 3 : 4) : v < 1000000 ? (v < 100000 ? 5 : 6)
                                                                                      : (v < 10000000 ? 7 : 8);
    char *e = p + n, *q = e;
    while (v >= 100) {
        q -= 2;
        memcpy(q, ntx_dec_pairs + v % 100 * 2, 2);
        v /= 100;
    }
    if (v >= 10)
        memcpy(q - 2, ntx_dec_pairs + v * 2, 2);
    else
        q[-1] = (char)('0' + v);
    return e;
}

/* ntx_buf_dec_u64()'s bytes (at most 20) written at p, for a caller that made room; returns the end. */
static inline char *ntx_put_dec_u64(char *p, uint64_t v)
{
    /* 8 digits at a time in 32-bit arithmetic (at most two 64-bit divisions) */
    if (v < 100000000)
        return ntx_put_dec_small(p, (uint32_t)v);
    if (v < 10000000000000000ull) {
        char *e = ntx_put_dec_small(p, (uint32_t)(v / 100000000));
        ntx_put_dec8(e, (uint32_t)(v % 100000000));
        return e + 8;
    }
    uint64_t hi = v / 10000000000000000ull, mid = v % 10000000000000000ull;
    char *e = ntx_put_dec_small(p, (uint32_t)hi);
    ntx_put_dec8(e, (uint32_t)(mid / 100000000));
    ntx_put_dec8(e + 8, (uint32_t)(mid % 100000000));
    return e + 16;
}

/* ntx_buf_dec_i64()'s bytes (at most 20) written at p; returns the end. */
static inline char *ntx_put_dec_i64(char *p, int64_t v)
{
    if (v >= 0)
        return ntx_put_dec_u64(p, (uint64_t)v);
    *p++ = '-';
    return ntx_put_dec_u64(p, (uint64_t)0 - (uint64_t)v); /* INT64_MIN too, without overflow */
}

/*
 * d as printf's "%.17g" prints it (fmt_double.c: the exact digits, rounded
 * half to even, without printf's cost). NaN and infinities as printf's
 * "nan", "-inf"..., though the formatters print those as JSON strings.
 */
int ntx_buf_g17(ntidx_buf *b, double d);

/* ntx_buf_g17()'s bytes written at p (at most NTX_G17_MAX); returns the end. */
#define NTX_G17_MAX 32
char *ntx_put_g17(char *p, double d);

/*
 * A JSON string literal with its quotes: the one JSON escaper of the library
 * and its tools. Policy for bytes that are not valid UTF-8 (the shortest
 * form, no surrogates, at most U+10FFFF): each such byte becomes U+FFFD, so
 * the output is always valid JSON and valid UTF-8. '"' and '\\' are escaped,
 * control characters as \b \t \n \f \r or \u00XX, DEL as \u007f.
 */
int ntx_buf_json_str(ntidx_buf *b, const char *s, size_t n);

/* Whether a byte goes into a JSON string as it is: printable ASCII but '"' and '\\'. */
static inline int ntx_json_plain(unsigned char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; }

/* Whether 8 bytes (in any order) all go as they are: the SWAR tests "a byte < 0x20", "a byte > 0x7e",
   "a byte == '"'", "a byte == '\\'", each exact for whether any byte matches. */
static inline int ntx_json_plain8(uint64_t x)
{
    const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
    uint64_t q = x ^ (ones * '"'), bs = x ^ (ones * '\\');
    uint64_t bad = ((x - ones * 0x20) & ~x) | ((x + ones * (127 - 0x7e)) | x) | ((q - ones) & ~q) | ((bs - ones) & ~bs);
    return (bad & high) == 0;
}

/* How many of the n bytes at s, from the first, go into a JSON string as they are (8 a step). */
static inline size_t ntx_json_plain_run(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (n - i >= 8 && ntx_json_plain8(ntx_load64(s + i)))
        i += 8;
    while (i < n && ntx_json_plain(s[i]))
        i++;
    return i;
}

/* Whether all n bytes at s go into a JSON string as they are: 8 bytes a step, and the bytes short of a step by
   loads that overlap within the n (never past them), where ntx_json_plain_run() took them one at a time (the
   field names of a payload are mostly shorter than 8 bytes, or not a multiple of them). */
static inline int ntx_json_plain_all(const unsigned char *s, size_t n)
{
    if (n >= 8) {
        for (size_t i = 0; n - i > 8; i += 8)
            if (!ntx_json_plain8(ntx_load64(s + i)))
                return 0;
        return ntx_json_plain8(ntx_load64(s + n - 8));
    }
    if (n >= 4)
        return ntx_json_plain8((uint64_t)ntx_load32(s) | (uint64_t)ntx_load32(s + n - 4) << 32);
    if (n == 0)
        return 1;
    /* s[0], s[n / 2] and s[n - 1] are all of 1 to 3 bytes; the other five are 'a', which goes as it is */
    return ntx_json_plain8(0x6161616161000000ull | s[0] | (uint64_t)s[n / 2] << 8 | (uint64_t)s[n - 1] << 16);
}

/*
 * UTF-16 code units written as the inside of a JSON string literal (no quotes): the bytes
 * ntx_buf_json_str() writes for their UTF-8 (ntx_utf16_to_utf8(): lone surrogates become U+FFFD), in one
 * pass, 8 units a step while they are printable ASCII. ntx_json_utf16() writes the `units` at s (a zero
 * unit is a control character); ntx_json_utf16z() those from p up to the first zero unit before end, and
 * returns that unit's place (*o_end past the text), or NULL when there is none. `o` has room for
 * NTX_JSON_UTF16_ROOM(units) bytes (units: (end - p) / 2 for the second).
 */
#define NTX_JSON_UTF16_ROOM(units) ((units) * 6 + 8)
char *ntx_json_utf16(char *o, const uint8_t *s, size_t units);
const uint8_t *ntx_json_utf16z(const uint8_t *p, const uint8_t *end, char *o, char **o_end);

/* n bytes of UTF-8 appended by the same policy: each byte that is not part of valid UTF-8 becomes U+FFFD. */
int ntx_buf_utf8(ntidx_buf *b, const char *s, size_t n);

/* Length of the valid UTF-8 sequence at s (n bytes available), or 0 when it is not one. */
size_t ntx_utf8_seq_len(const unsigned char *s, size_t n);

#endif
