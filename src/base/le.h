/*
 * Little-endian loads and stores: the one set used by every layer (trace
 * bytes, index files, the writer). Loads go through memcpy, never a cast of
 * mapped bytes to a wider type: trace and index bytes need not be aligned.
 * Stores return the byte after the value, so encoders can chain them.
 */
#ifndef NTX_BASE_LE_H
#define NTX_BASE_LE_H

#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "ntidx assumes a little-endian host; add byte swaps to ntx_load* and ntx_store*"
#endif

static inline uint16_t ntx_load16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static inline uint32_t ntx_load32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t ntx_load64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

static inline uint8_t *ntx_store16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); return p + 2; }
static inline uint8_t *ntx_store32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); return p + 4; }
static inline uint8_t *ntx_store64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); return p + 8; }

#endif
