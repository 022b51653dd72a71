/*
 * What the layers above read of an index besides its public API
 * (include/ntidx/index.h): its tables (blocks, sequence points, regions,
 * definitions, the --full filters) through the accessors below, the checks
 * a lazily checked index makes region by region on first use, and the keys
 * of its Bloom filters. The index itself (struct ntidx_index: its header
 * facts, storage, summaries, where it lives) is index_internal.h's, which
 * no other layer includes (src/check_layers.py).
 *
 * The accessors are inline (query planning and slices call them per block
 * and per event), over the tables as the index holds them in their on-disk
 * layout (index_format.h): a built and a loaded index alike. Callers use
 * the accessors, never the fields of ntx_index_tables.
 */
#ifndef NTIDX_INDEX_TABLES_H
#define NTIDX_INDEX_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "index_format.h"
#include "le.h"
#include "ntidx/index.h"

/* The tables: sections in their on-disk layout; strides are the recorded entry sizes (>= ours). */
typedef struct ntx_index_tables {
    const uint8_t *blocks, *sps, *regions, *defs, *filters;
    uint64_t nblocks, nsps, nregions, ndefs;
    uint32_t sb, ss, sr, sd, sf; /* strides of blocks, sps, regions, defs, filters */
    uint32_t flags;              /* NTX_IF_* */
    /*
     * Lazy checking (a loaded 1.2 index whose BLOCKS are large): the entries of
     * BLOCKS and FILTERS are checked region by region, against REGION_SUMS and
     * for structure, the first time something needs the region
     * (ntx_index_need_region). region_ok is NULL when everything was checked
     * (built indexes, small or older indexes); else one byte per region, 0
     * unchecked, 3 unchecked with its pages asked for (ntx_index_prefetch_region),
     * 1 good, 2 bad, read and written atomically (parallel statistics check
     * regions from several threads; a check is pure, so two threads doing the
     * same one is harmless). The only part of an index that changes once it is
     * built or loaded.
     */
    uint8_t *region_ok;
} ntx_index_tables;

/* An index's tables: the first member of struct ntidx_index (index_internal.h). */
static inline const ntx_index_tables *ntx_tables(const ntidx_index *x) { return (const ntx_index_tables *)(const void *)x; }

/* Counts and flags. */
static inline uint64_t ntx_index_block_count(const ntidx_index *x) { return ntx_tables(x)->nblocks; }
static inline uint64_t ntx_index_sp_count(const ntidx_index *x) { return ntx_tables(x)->nsps; }
static inline uint64_t ntx_index_region_total(const ntidx_index *x) { return ntx_tables(x)->nregions; }
static inline uint64_t ntx_index_def_count(const ntidx_index *x) { return ntx_tables(x)->ndefs; }
static inline uint32_t ntx_index_flags(const ntidx_index *x) { return ntx_tables(x)->flags; }
static inline int ntx_index_regions_sorted(const ntidx_index *x) { return (ntx_tables(x)->flags & NTX_IF_REGIONS_SORTED) != 0; }
static inline int ntx_index_is_full(const ntidx_index *x) { return (ntx_tables(x)->flags & NTX_IF_FULL) != 0; }
/* --full indexes: per-block counts and filters (FILTERS) are present. */
static inline int ntx_index_has_filters(const ntidx_index *x) { return ntx_tables(x)->filters != NULL; }

/* Accessors: i must be < the section's count (callers check). */
#define NTX_TB(x) const ntx_index_tables *t_ = ntx_tables(x)
static inline uint64_t ntx_blk_offset(const ntidx_index *x, uint64_t i) { NTX_TB(x); return ntx_load64(t_->blocks + i * t_->sb); }
static inline uint32_t ntx_blk_size(const ntidx_index *x, uint64_t i) { NTX_TB(x); return ntx_load32(t_->blocks + i * t_->sb + 8); }
static inline uint8_t ntx_blk_kind(const ntidx_index *x, uint64_t i) { NTX_TB(x); return t_->blocks[i * t_->sb + 12]; }
static inline uint8_t ntx_blk_flags(const ntidx_index *x, uint64_t i) { NTX_TB(x); return t_->blocks[i * t_->sb + 13]; }
static inline uint32_t ntx_blk_region(const ntidx_index *x, uint64_t i) { NTX_TB(x); return ntx_load32(t_->blocks + i * t_->sb + 16); }
static inline uint32_t ntx_blk_events(const ntidx_index *x, uint64_t i) { NTX_TB(x); return ntx_load32(t_->blocks + i * t_->sb + 20); }
static inline uint64_t ntx_blk_ts_min(const ntidx_index *x, uint64_t i) { NTX_TB(x); return ntx_load64(t_->blocks + i * t_->sb + 24); }
static inline uint64_t ntx_blk_ts_max(const ntidx_index *x, uint64_t i) { NTX_TB(x); return ntx_load64(t_->blocks + i * t_->sb + 32); }
/* Block i's FILTERS entry (types at +0, threads at +32), or NULL without filters. */
static inline const uint8_t *ntx_blk_filter(const ntidx_index *x, uint64_t i)
{
    NTX_TB(x);
    return t_->filters ? t_->filters + i * t_->sf : NULL;
}

static inline uint64_t ntx_sp_offset(const ntidx_index *x, uint64_t i) { NTX_TB(x); return ntx_load64(t_->sps + i * t_->ss); }
static inline uint64_t ntx_sp_ts(const ntidx_index *x, uint64_t i) { NTX_TB(x); return ntx_load64(t_->sps + i * t_->ss + 8); }
static inline uint32_t ntx_sp_flags(const ntidx_index *x, uint64_t i) { NTX_TB(x); return ntx_load32(t_->sps + i * t_->ss + 16); }
static inline uint32_t ntx_sp_block(const ntidx_index *x, uint64_t i) { NTX_TB(x); return ntx_load32(t_->sps + i * t_->ss + 20); }

static inline uint32_t ntx_rg_first(const ntidx_index *x, uint64_t i) { NTX_TB(x); return ntx_load32(t_->regions + i * t_->sr); }
static inline uint32_t ntx_rg_end(const ntidx_index *x, uint64_t i) { NTX_TB(x); return ntx_load32(t_->regions + i * t_->sr + 4); }
static inline uint64_t ntx_rg_ts_min(const ntidx_index *x, uint64_t i) { NTX_TB(x); return ntx_load64(t_->regions + i * t_->sr + 8); }
static inline uint64_t ntx_rg_ts_max(const ntidx_index *x, uint64_t i) { NTX_TB(x); return ntx_load64(t_->regions + i * t_->sr + 16); }
static inline uint64_t ntx_rg_start_ts(const ntidx_index *x, uint64_t i) { NTX_TB(x); return ntx_load64(t_->regions + i * t_->sr + 24); }
static inline uint32_t ntx_rg_meta_epoch(const ntidx_index *x, uint64_t i) { NTX_TB(x); return ntx_load32(t_->regions + i * t_->sr + 32); }
static inline uint32_t ntx_rg_thread_epoch(const ntidx_index *x, uint64_t i) { NTX_TB(x); return ntx_load32(t_->regions + i * t_->sr + 36); }
static inline uint32_t ntx_rg_flags(const ntidx_index *x, uint64_t i) { NTX_TB(x); return ntx_load32(t_->regions + i * t_->sr + 40); }

static inline uint32_t ntx_def_block(const ntidx_index *x, uint64_t i) { NTX_TB(x); return ntx_load32(t_->defs + i * t_->sd); }
static inline uint8_t ntx_def_kind(const ntidx_index *x, uint64_t i) { NTX_TB(x); return t_->defs[i * t_->sd + 4]; }
static inline uint32_t ntx_def_meta_epoch(const ntidx_index *x, uint64_t i) { NTX_TB(x); return ntx_load32(t_->defs + i * t_->sd + 8); }
static inline uint32_t ntx_def_thread_epoch(const ntidx_index *x, uint64_t i) { NTX_TB(x); return ntx_load32(t_->defs + i * t_->sd + 12); }
#undef NTX_TB

/* The bytes of the trace that region i's blocks span (0: no block). The regions table is checked at load,
   so its blocks lie inside BLOCKS even before the region's own entries are checked; the bound is kept. */
static inline uint64_t ntx_rg_bytes(const ntidx_index *x, uint64_t i)
{
    uint64_t f = ntx_rg_first(x, i), e = ntx_rg_end(x, i);
    if (e <= f || e > ntx_tables(x)->nblocks)
        return 0;
    return ntx_blk_offset(x, e - 1) + ntx_blk_size(x, e - 1) - ntx_blk_offset(x, f);
}

/*
 * Make sure the BLOCKS (and FILTERS) entries of region r, and the last entry
 * of region r - 1, have been checked before they are used. 0, or
 * NTIDX_E_INDEX_CORRUPT with a message in `err` naming the index and region.
 */
int ntx_index_check_region(const ntidx_index *x, uint64_t r, ntx_err *err);
static inline int ntx_index_need_region(const ntidx_index *x, uint64_t r, ntx_err *err)
{
    const uint8_t *ok = ntx_tables(x)->region_ok;
    if (!ok || __atomic_load_n(&ok[r], __ATOMIC_ACQUIRE) == 1)
        return 0;
    return ntx_index_check_region(x, r, err);
}
/* The region that holds block b (b < nblocks; regions are checked at load to cover every block). */
uint64_t ntx_index_region_of(const ntidx_index *x, uint64_t b);
static inline int ntx_index_need_block(const ntidx_index *x, uint64_t b, ntx_err *err)
{
    return ntx_tables(x)->region_ok ? ntx_index_need_region(x, ntx_index_region_of(x, b), err) : 0;
}
/* Every region (slices, extending an index, writing it). */
int ntx_index_need_all(const ntidx_index *x, ntx_err *err);
/* Some regions are left to be checked on first use, and the index is a file whose pages can be asked for. */
int ntx_index_checks_lazily(const ntidx_index *x);
/*
 * Ask the kernel for the pages that checking region r will read (its BLOCKS
 * and FILTERS entries, the previous region's last ones, their REGION_SUMS
 * entries), in one go instead of page fault after page fault. Nothing to do
 * for an index in memory or a region already checked.
 */
void ntx_index_prefetch_region(const ntidx_index *x, uint64_t r);
/* The same for regions [r0, r1) at once (a caller about to check them all): each section in one request. */
void ntx_index_prefetch_regions(const ntidx_index *x, uint64_t r0, uint64_t r1);

/* The name of the index in messages: its file, or the name it was loaded from memory under (NULL: none). */
const char *ntx_index_name(const ntidx_index *x);
/* 64 bits that change whenever what the index says of its trace does: the trace facts its identity check
   compares (size, times, hashes of the first MiB and the last block) and how far it was indexed. Files
   derived from the whole trace through the index (the symbolizer's cache) are keyed by it, so that they are
   exactly as current as the index they were made through. */
uint64_t ntx_index_identity_key(const ntidx_index *x);
/* The provider and event names the --full region statistics hold (STRINGS: NUL-terminated, one after the
   other; *len 0 and NULL without them, or before format 1.5). */
const char *ntx_index_strings(const ntidx_index *x, uint64_t *len);

/* Bloom filter keys of --full indexes. */
uint64_t ntx_type_hash(const char *provider, uint32_t event_id);
uint64_t ntx_thread_hash(uint64_t thread);
/* 256 bits: the top bits of the hash pick the 64-bit word, two bits set in it. */
static inline int ntx_bloom_may_contain(const uint8_t *filter, uint64_t h)
{
    uint64_t w = ntx_load64(filter + 8 * ((h >> 60) & 3));
    uint64_t bits = (1ull << (h & 63)) | (1ull << ((h >> 6) & 63));
    return (w & bits) == bits;
}
static inline void ntx_bloom_add(uint8_t *filter, uint64_t h)
{
    uint8_t *w = filter + 8 * ((h >> 60) & 3);
    ntx_store64(w, ntx_load64(w) | (1ull << (h & 63)) | (1ull << ((h >> 6) & 63)));
}

/* Regions and windows. */
static inline int ntx_ranges_overlap(uint64_t lo, uint64_t hi, uint64_t t0, uint64_t t1)
{
    return lo <= hi && lo < t1 && hi >= t0;
}
/* Whether region r can hold events of [t0, t1). */
static inline int ntx_index_region_overlaps(const ntidx_index *x, uint64_t r, uint64_t t0, uint64_t t1)
{
    return ntx_ranges_overlap(ntx_rg_ts_min(x, r), ntx_rg_ts_max(x, r), t0, t1);
}
/* Whether every event of region r lies in [t0, t1) (a region without events: no). */
static inline int ntx_index_region_inside(const ntidx_index *x, uint64_t r, uint64_t t0, uint64_t t1)
{
    uint64_t lo = ntx_rg_ts_min(x, r), hi = ntx_rg_ts_max(x, r);
    return lo <= hi && lo >= t0 && hi < t1;
}

#endif
