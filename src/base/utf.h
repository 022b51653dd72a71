/* UTF-16LE -> UTF-8 conversion for pre-V6 strings (lone surrogates become U+FFFD). */
#ifndef NTIDX_UTF_H
#define NTIDX_UTF_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"

/* Bytes of UTF-8 needed for `units` UTF-16 code units (upper bound). */
static inline size_t ntx_utf8_bound(size_t units) { return units * 3 + 1; }

/* Convert `units` code units at `src` into dst (ntx_utf8_bound bytes); returns length without NUL. */
size_t ntx_utf16_to_utf8(const uint8_t *src, size_t units, char *dst);

/* The first UTF-16 NUL code unit in [p, end) (scanning whole units from p), or NULL when there is none. */
const uint8_t *ntx_utf16_find_nul(const uint8_t *p, const uint8_t *end);

/*
 * ntx_utf16_find_nul() and ntx_utf16_to_utf8() in one pass: the code units from p up to the first zero
 * unit before end, converted into dst (room for ntx_utf8_bound((end - p) / 2) + 8 bytes: eight bytes are
 * stored at a time) and NUL-terminated, *len their UTF-8 bytes. Returns the zero unit's position, or NULL
 * when there is none (dst then holds nothing useful). The same bytes as the two calls give.
 */
const uint8_t *ntx_utf16z_to_utf8(const uint8_t *p, const uint8_t *end, char *dst, size_t *len);

/* Convert into a new NUL-terminated arena string; NULL if out of memory. */
char *ntx_utf16_dup(ntx_arena *a, const uint8_t *src, size_t units);

#endif
