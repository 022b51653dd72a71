/*
 * Synthetic-trace generator internals: the PRNG (xoshiro256**, seeded with
 * splitmix64, so output depends on nothing but the options) and the event
 * schema (providers, event types, payload pools) of generator_schema.c.
 */
#ifndef NTIDX_WRITER_GENERATOR_INTERNAL_H
#define NTIDX_WRITER_GENERATOR_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <ntidx/writer.h>

#include "buf.h"

typedef struct ntidx_w_rng {
    uint64_t s[4];
} ntidx_w_rng;

static inline uint64_t ntidx_w_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline void ntidx_w_rng_seed(ntidx_w_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = ntidx_w_splitmix64(&seed);
}

static inline uint64_t ntidx_w_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t ntidx_w_rng_next(ntidx_w_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = ntidx_w_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = ntidx_w_rotl(s[3], 45);
    return result;
}

/* Uniform-enough integer in [0, n) (multiply-shift; bias < 2^-32 for our n). */
static inline uint32_t ntidx_w_rng_below(ntidx_w_rng *r, uint32_t n)
{
    return (uint32_t)(((ntidx_w_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* ---- schema ---- */

/* One event type: its metadata template and a pool of matching payloads. */
typedef struct ntidx_w_gen_type {
    ntidx_metadata meta; /* id is set by the generator (it changes after a metadata flush) */
    uint32_t weight;     /* relative frequency */
} ntidx_w_gen_type;

/* Event types are drawn from a table of this many weighted slots. */
#define NTIDX_W_GEN_PICKS 64

/* Payload variants kept per event type: events pick one at random. */
#define NTIDX_W_GEN_PAYLOAD_VARIANTS 64

typedef struct ntidx_w_gen_schema {
    const ntidx_w_gen_type *types;
    ntidx_w_gen_type *owned; /* V6: the types with V6's field lists (types points here), else NULL */
    uint32_t count;
    ntidx_buf pool;        /* payload bytes of every variant */
    size_t *variant_offset; /* count * VARIANTS + 1 offsets into pool */
    double mean_payload;    /* weighted mean payload size, for planning */
    uint8_t pick[NTIDX_W_GEN_PICKS]; /* type index per slot, by weight */
} ntidx_w_gen_schema;

/**
 * Pick the event types of `format_version` and build their payload pools
 * (payloads that match each type's fields exactly, for that version's
 * encodings). @return NTIDX_OK or NTIDX_E_NOMEM.
 */
int ntidx_w_gen_schema_init(ntidx_w_gen_schema *s, int format_version, ntidx_w_rng *rng);
void ntidx_w_gen_schema_free(ntidx_w_gen_schema *s);

/** What a generator run produced, for tests (the public API returns bytes only). */
typedef struct ntidx_w_gen_stats {
    uint64_t events;          /* events written */
    uint64_t dropped;         /* sequence numbers skipped (dropped events) */
    uint64_t sequence_points;
    uint64_t sorted_marks;    /* events marked IsSorted */
    uint64_t threads_removed; /* V6 RemoveThread entries */
    uint64_t metadata_flushes, thread_flushes;
} ntidx_w_gen_stats;

/**
 * Write a trace of the one-collect shape (generator_onecollect.c, NTIDX_GEN_SHAPE_ONE_COLLECT) to a V6
 * writer opened with its trace block (sync ticks NTIDX_W_OC_SYNC, 1 GHz), end-of-stream included when
 * o->finish. @return NTIDX_OK or a negative ntidx_error.
 */
#define NTIDX_W_OC_SYNC 1000000000000ll
int ntidx_w_generate_one_collect(ntidx_writer *w, const ntidx_gen_options *o, ntidx_w_gen_stats *st);

/**
 * ntidx_generate_fd() (fd >= 0, `name` for messages) or ntidx_generate_memory()
 * (data and size != NULL) with statistics; `stats` may be NULL.
 */
int ntidx_w_generate(int fd, const char *name, const ntidx_gen_options *o, uint8_t **data, size_t *size,
                     ntidx_w_gen_stats *stats);

/**
 * The progress callback of `o` (if any), once per 4096 events: bytes written of o->target_bytes, or events of
 * the event target. `mark` is the caller's (zeroed at the start). @return 0, or NTIDX_E_CANCELLED when the
 * callback asked to stop.
 */
int ntidx_w_gen_progress(const ntidx_gen_options *o, const ntidx_writer *w, uint64_t events, uint64_t *mark);

/** Encode one random payload for `fields` (exposed for tests through the generator only). */
int ntidx_w_gen_payload(ntidx_buf *b, const ntidx_field *fields, uint32_t n, int v6,
                        ntidx_w_rng *rng);

#endif /* NTIDX_WRITER_GENERATOR_INTERNAL_H */
