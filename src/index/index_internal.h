/*
 * The side index in memory. Sections are kept in their on-disk byte layout
 * (index_format.h) whether the index was just built (owned buffers) or
 * loaded (pointers into the mapped file), so one set of accessors serves
 * both and loading needs no conversion pass.
 */
#ifndef NTIDX_INDEX_INTERNAL_H
#define NTIDX_INDEX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "cursor.h"
#include "error.h"
#include "index_format.h"
#include "ntidx/index.h"
#include "trace_internal.h"

struct ntidx_index {
    /* header facts */
    uint16_t minor;    /* the file's minor version (built: this library's) */
    uint32_t flags;
    uint64_t trace_size;
    int64_t trace_mtime_ns;
    int64_t trace_ctime_ns; /* TRACE_STAT section (1.1); has_trace_stat is 0 for a loaded 1.0 index */
    int has_trace_stat;
    int64_t index_written_ns; /* the index file's modification time when loaded from a file (0: from memory) */
    uint64_t head_hash;
    uint64_t indexed_end;
    uint64_t last_block_off;
    uint64_t last_block_hash;
    uint32_t format_version, pointer_size;
    int64_t sync_ticks, tick_frequency;
    uint64_t first_ts, last_ts, events;
    uint64_t first_block;

    /* sections (on-disk layout); strides are the recorded entry sizes (>= ours) */
    const uint8_t *blocks, *sps, *regions, *defs, *filters;
    uint64_t nblocks, nsps, nregions, ndefs;
    uint32_t sb, ss, sr, sd, sf; /* strides of blocks, sps, regions, defs, filters */

    /*
     * Lazy checking (a loaded 1.2 index whose BLOCKS are large): the entries of
     * BLOCKS and FILTERS are checked region by region, against REGION_SUMS and
     * for structure, the first time something needs the region
     * (ntx_index_need_region). region_ok is NULL when everything was checked
     * (built indexes, small or older indexes); else one byte per region, 0
     * unchecked, 3 unchecked with its pages asked for (ntx_index_prefetch_region),
     * 1 good, 2 bad, read and written atomically (parallel
     * statistics check regions from several threads; a check is pure, so two
     * threads doing the same one is harmless).
     */
    const uint8_t *region_sums;
    uint32_t srs; /* stride of region_sums */
    uint64_t region_sums_hash; /* the directory's checksum of REGION_SUMS, checked by ntx_index_need_all() */
    /* Lazily checked loads leave SEQPOINTS' checksum to ntx_index_need_all() too, and the check that
       sequence point i closes region i to region i's check: no query reads SEQPOINTS. */
    int sps_hash_later;
    uint64_t sps_hash;
    uint8_t *region_ok;
    char *name; /* the index's path (loaded, written or opened), or the name it was loaded from memory under */
    int from_file; /* name is a file the index lives in: ntidx_index_recover() saves the rebuilt index there */

    /* The options ntidx_index_open() was given, kept for ntidx_index_recover() (set once, before the index is
       handed out: never changed afterwards). */
    ntidx_index_options open_options;
    int has_open_options;

    /* --full region statistics (index_summary.c); rstats is NULL without them */
    const uint8_t *rstats, *tcounts, *thcounts, *dcounts, *strings;
    uint64_t ntcounts, nthcounts, ndcounts, strings_len;
    uint32_t srst, stc, sthc, sdc; /* strides */
    uint8_t *strings_copy;         /* STRINGS compacted when its entries are longer than a byte */

    /* storage: owned section buffers (built) or the mapping (loaded) */
    ntidx_buf own[10];
    /* A scan with a sink (ntx_index_scan_stream) never frees a section buffer it outgrows while the
       sink's readers may hold it: the old ones are kept here until ntx_index_free_retired() or close. */
    void **retired;
    size_t nretired;
    void *map;
    uint64_t map_len;
    ntidx_index_info info;
};

/*
 * Reserved fields and bits (docs/index-format.md, "Reserved fields"): written as zero; a file of this
 * library's minor version or older must have them zero, one of a later minor version may use them.
 */
static inline int ntx_index_strict(const ntidx_index *x) { return x->minor <= NTX_IDX_MINOR; }

/* Accessors: i must be < the section's count (callers check). */
static inline uint64_t ntx_blk_offset(const ntidx_index *x, uint64_t i) { return ntx_load64(x->blocks + i * x->sb); }
static inline uint32_t ntx_blk_size(const ntidx_index *x, uint64_t i) { return ntx_load32(x->blocks + i * x->sb + 8); }
static inline uint8_t ntx_blk_kind(const ntidx_index *x, uint64_t i) { return x->blocks[i * x->sb + 12]; }
static inline uint8_t ntx_blk_flags(const ntidx_index *x, uint64_t i) { return x->blocks[i * x->sb + 13]; }
static inline uint32_t ntx_blk_region(const ntidx_index *x, uint64_t i) { return ntx_load32(x->blocks + i * x->sb + 16); }
static inline uint32_t ntx_blk_events(const ntidx_index *x, uint64_t i) { return ntx_load32(x->blocks + i * x->sb + 20); }
static inline uint64_t ntx_blk_ts_min(const ntidx_index *x, uint64_t i) { return ntx_load64(x->blocks + i * x->sb + 24); }
static inline uint64_t ntx_blk_ts_max(const ntidx_index *x, uint64_t i) { return ntx_load64(x->blocks + i * x->sb + 32); }

static inline uint64_t ntx_sp_offset(const ntidx_index *x, uint64_t i) { return ntx_load64(x->sps + i * x->ss); }
static inline uint64_t ntx_sp_ts(const ntidx_index *x, uint64_t i) { return ntx_load64(x->sps + i * x->ss + 8); }
static inline uint32_t ntx_sp_flags(const ntidx_index *x, uint64_t i) { return ntx_load32(x->sps + i * x->ss + 16); }
static inline uint32_t ntx_sp_block(const ntidx_index *x, uint64_t i) { return ntx_load32(x->sps + i * x->ss + 20); }

static inline uint32_t ntx_rg_first(const ntidx_index *x, uint64_t i) { return ntx_load32(x->regions + i * x->sr); }
static inline uint32_t ntx_rg_end(const ntidx_index *x, uint64_t i) { return ntx_load32(x->regions + i * x->sr + 4); }
static inline uint64_t ntx_rg_ts_min(const ntidx_index *x, uint64_t i) { return ntx_load64(x->regions + i * x->sr + 8); }
static inline uint64_t ntx_rg_ts_max(const ntidx_index *x, uint64_t i) { return ntx_load64(x->regions + i * x->sr + 16); }
static inline uint64_t ntx_rg_start_ts(const ntidx_index *x, uint64_t i) { return ntx_load64(x->regions + i * x->sr + 24); }
static inline uint32_t ntx_rg_meta_epoch(const ntidx_index *x, uint64_t i) { return ntx_load32(x->regions + i * x->sr + 32); }
static inline uint32_t ntx_rg_thread_epoch(const ntidx_index *x, uint64_t i) { return ntx_load32(x->regions + i * x->sr + 36); }
static inline uint32_t ntx_rg_flags(const ntidx_index *x, uint64_t i) { return ntx_load32(x->regions + i * x->sr + 40); }

/* The bytes of the trace that region i's blocks span (0: no block). The regions table is checked at load,
   so its blocks lie inside BLOCKS even before the region's own entries are checked; the bound is kept. */
static inline uint64_t ntx_rg_bytes(const ntidx_index *x, uint64_t i)
{
    uint64_t f = ntx_rg_first(x, i), e = ntx_rg_end(x, i);
    if (e <= f || e > x->nblocks)
        return 0;
    return ntx_blk_offset(x, e - 1) + ntx_blk_size(x, e - 1) - ntx_blk_offset(x, f);
}

static inline uint32_t ntx_def_block(const ntidx_index *x, uint64_t i) { return ntx_load32(x->defs + i * x->sd); }
static inline uint8_t ntx_def_kind(const ntidx_index *x, uint64_t i) { return x->defs[i * x->sd + 4]; }
static inline uint32_t ntx_def_meta_epoch(const ntidx_index *x, uint64_t i) { return ntx_load32(x->defs + i * x->sd + 8); }
static inline uint32_t ntx_def_thread_epoch(const ntidx_index *x, uint64_t i) { return ntx_load32(x->defs + i * x->sd + 12); }

/*
 * Make sure the BLOCKS (and FILTERS) entries of region r, and the last entry
 * of region r - 1, have been checked before they are used. 0, or
 * NTIDX_E_INDEX_CORRUPT with a message in `err` naming the index and region.
 */
int ntx_index_check_region(const ntidx_index *x, uint64_t r, ntx_err *err);
/* The checks themselves (index_check.c): the small tables at load, and one region's blocks. */
int ntx_index_check_tables(const ntidx_index *x, uint64_t trace_first_block, char *why, size_t n);
int ntx_index_check_region_now(const ntidx_index *x, uint64_t r, char *why, size_t n);
static inline int ntx_index_need_region(const ntidx_index *x, uint64_t r, ntx_err *err)
{
    if (!x->region_ok || __atomic_load_n(&x->region_ok[r], __ATOMIC_ACQUIRE) == 1)
        return 0;
    return ntx_index_check_region(x, r, err);
}
/* The region that holds block b (b < nblocks; regions are checked at load to cover every block). */
uint64_t ntx_index_region_of(const ntidx_index *x, uint64_t b);
static inline int ntx_index_need_block(const ntidx_index *x, uint64_t b, ntx_err *err)
{
    return x->region_ok ? ntx_index_need_region(x, ntx_index_region_of(x, b), err) : 0;
}
/*
 * Ask the kernel for the pages that checking region r will read (its BLOCKS
 * and FILTERS entries, the previous region's last ones, their REGION_SUMS
 * entries), in one go instead of page fault after page fault. Nothing to do
 * for an index in memory or a region already checked.
 */
void ntx_index_prefetch_region(const ntidx_index *x, uint64_t r);
/* The same for regions [r0, r1) at once (a caller about to check them all): each section in one request. */
void ntx_index_prefetch_regions(const ntidx_index *x, uint64_t r0, uint64_t r1);
/* Every region (slices, extending an index, writing it). */
int ntx_index_need_all(const ntidx_index *x, ntx_err *err);

/*
 * The plain index: scan t from its first block, or extend `from` (a valid
 * prefix) with the blocks after it. o->full only changes the kernel advice
 * (a --full build reads every block afterwards); the --full sections are
 * added above (src/ops/index_full.c).
 */
int ntx_index_scan(ntidx_trace *t, const ntidx_index *from, const ntidx_index_options *o, ntidx_index **out,
                   ntx_err *err);

/*
 * Regions as the scan closes them (a --full build starts decoding them while
 * the scan goes on, src/ops/index_full.c). After each sequence point closes
 * a region, `region_closed` is called on the scanning thread with the index
 * so far: its section pointers and counts (x->blocks, nblocks, regions,
 * nregions, defs, ndefs, sps, nsps) bound to the entries written so far,
 * which are final. A shallow copy of *x taken then stays valid for reading
 * those entries until ntx_index_free_retired(x) or ntidx_index_close(): the
 * scan never frees or moves a buffer it outgrows while it has a sink. Nothing
 * of x may be written by the sink.
 */
typedef struct ntx_scan_sink {
    void (*region_closed)(void *ctx, const ntidx_index *x);
    void *ctx;
} ntx_scan_sink;
int ntx_index_scan_stream(ntidx_trace *t, const ntidx_index *from, const ntidx_index_options *o,
                          const ntx_scan_sink *sink, ntidx_index **out, ntx_err *err);
/* Free the buffers a scan with a sink outgrew (no copy of the index taken during the scan is used any more). */
void ntx_index_free_retired(ntidx_index *x);

/* The owned buffers of a built index (own[]). */
enum { NTX_OWN_BLOCKS, NTX_OWN_SPS, NTX_OWN_REGIONS, NTX_OWN_DEFS, NTX_OWN_FILTERS, NTX_OWN_RSTATS, NTX_OWN_TCOUNTS,
       NTX_OWN_THCOUNTS, NTX_OWN_DCOUNTS, NTX_OWN_STRINGS };
/* The region statistics sections of a loaded index, checked (index_summary.c); why: the problem. */
int ntx_index_check_summaries(const ntidx_index *x, char *why, size_t n);

/* Bind section pointers to the owned buffers. */
void ntx_index_finish(ntidx_index *x);
/* Fill the public info from the header facts. */
void ntx_index_fill_info(ntidx_index *x);

/*
 * Where ntidx_index_open() keeps a trace's index when given no path
 * (index_path.c): *path (malloc'ed) beside the trace, or in the index
 * directory (*in_dir; *private_dir: the user's cache, created 0700).
 * 0 or NTIDX_E_NOMEM.
 */
int ntx_index_locate(const char *trace_path, char **path, int *in_dir, int *private_dir);
/* Create the missing folders above file_path. 0, or NTIDX_E_IO with `err` naming the folder. */
int ntx_make_dirs(const char *file_path, int private_dir, ntx_err *err);

/* Identity helpers. */
uint64_t ntx_trace_head_hash(const ntidx_trace *t);
uint64_t ntx_trace_range_hash(const ntidx_trace *t, uint64_t off, uint64_t len);

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

/* --full region statistics present (REGION_STATS and the sections it points into). */
static inline int ntx_index_has_summaries(const ntidx_index *x) { return x->rstats != NULL; }

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
