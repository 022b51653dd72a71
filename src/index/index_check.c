/*
 * Checking a loaded side index before anything relies on it.
 *
 * At load (ntx_index_check_tables): the small tables whole. Regions are
 * contiguous over every block, only the last one open, their epochs never
 * going back; sequence point i is the last block of closed region i;
 * definitions are in increasing block order and carry their region's epochs.
 * None of this reads BLOCKS.
 *
 * Per region (ntx_index_check_region): the region's BLOCKS and FILTERS
 * entries against REGION_SUMS (lazily checked indexes only: otherwise the
 * whole sections were hashed at load), then their structure. Blocks are
 * increasing and non-overlapping inside the indexed trace (the previous
 * region's last block included), have known kinds and flags, name their
 * region, have ordered time ranges; the closing block is a sequence point
 * exactly when the region is closed, at that sequence point's offset; the
 * definition entries that point into the region name the kind of the block.
 *
 * An index loaded whole runs the region check over every region at load. A
 * large 1.2 index runs it when a query first needs the region, so loading
 * costs O(regions) instead of O(blocks): a few microseconds instead of a
 * millisecond for a 10 GB trace.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hash.h"
#include "index_internal.h"
#include "search.h"

static int why_set(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int why_set(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return NTIDX_E_INDEX_CORRUPT;
}

#define BAD(...) return why_set(why, n, __VA_ARGS__)

struct key {
    const ntidx_index *x;
    uint64_t v;
};

static int region_ends_by(const void *ctx, uint64_t i)
{
    const struct key *k = ctx;
    return ntx_rg_end(k->x, i) <= k->v;
}

static int def_before_block(const void *ctx, uint64_t i)
{
    const struct key *k = ctx;
    return ntx_def_block(k->x, i) < k->v;
}

uint64_t ntx_index_region_of(const ntidx_index *x, uint64_t b)
{
    /* The first region whose end lies past b (region ends never decrease). */
    struct key k = {x, b};
    uint64_t r = ntx_lower_bound(x->tb.nregions, region_ends_by, &k);
    return r < x->tb.nregions ? r : x->tb.nregions - 1;
}

int ntx_index_check_tables(const ntidx_index *x, uint64_t trace_first_block, char *why, size_t n)
{
    if (x->indexed_end > x->trace_size)
        BAD("indexed end %llu is past the indexed trace size %llu", (unsigned long long)x->indexed_end,
            (unsigned long long)x->trace_size);
    /* The end-of-stream marker ends the file (framing): an index that says otherwise was built, before
       ntidx refused such traces, of a damaged one (zeros written over it read as the marker). */
    if ((x->tb.flags & NTX_IF_COMPLETE) && x->indexed_end != x->trace_size)
        BAD("the trace's end-of-stream marker ends at %llu, but the trace was %llu bytes long: the index was built "
            "of a damaged trace by an older ntidx",
            (unsigned long long)x->indexed_end, (unsigned long long)x->trace_size);
    if (x->first_block != trace_first_block)
        BAD("first block offset %llu does not match the trace's (%llu)", (unsigned long long)x->first_block,
            (unsigned long long)trace_first_block);
    if (x->tb.nblocks > UINT32_MAX)
        BAD("%llu blocks: more than block numbers can name", (unsigned long long)x->tb.nblocks);
    /* Regions: contiguous, covering every block, epochs never going back; closed ones first. */
    uint32_t expect_first = 0;
    uint64_t closed_regions = 0;
    for (uint64_t i = 0; i < x->tb.nregions; i++) {
        uint32_t f = ntx_rg_first(x, i), e = ntx_rg_end(x, i);
        if (f != expect_first || e < f || e > x->tb.nblocks)
            BAD("region %llu [%u, %u) does not follow the previous one", (unsigned long long)i, f, e);
        int closed = (ntx_rg_flags(x, i) & NTX_RF_CLOSED) != 0;
        if (closed && e == f)
            BAD("region %llu is closed but empty", (unsigned long long)i);
        if (!closed && i + 1 != x->tb.nregions)
            BAD("region %llu is open but not the last", (unsigned long long)i);
        if (i && (ntx_rg_meta_epoch(x, i) < ntx_rg_meta_epoch(x, i - 1) ||
                  ntx_rg_thread_epoch(x, i) < ntx_rg_thread_epoch(x, i - 1)))
            BAD("region %llu epochs go backwards", (unsigned long long)i);
        if (ntx_index_strict(x) &&
            ((ntx_rg_flags(x, i) & ~NTX_RF_KNOWN) || ntx_load32(x->tb.regions + i * x->tb.sr + 44) != 0))
            BAD("region %llu has reserved bits set (flags 0x%x)", (unsigned long long)i, ntx_rg_flags(x, i));
        closed_regions += closed;
        expect_first = e;
    }
    if (expect_first != x->tb.nblocks)
        BAD("regions cover %u of %llu blocks", expect_first, (unsigned long long)x->tb.nblocks);
    /* A sequence point closes the region it ends: sequence point i is the last block of region i. */
    if (x->tb.nsps != closed_regions)
        BAD("%llu sequence points for %llu closed regions", (unsigned long long)x->tb.nsps,
            (unsigned long long)closed_regions);
    for (uint64_t i = 0; !x->sps_hash_later && i < x->tb.nsps; i++) /* lazily: per region (region_structure) */
        if (ntx_sp_block(x, i) != ntx_rg_end(x, i) - 1)
            BAD("sequence point %llu is not the last block of region %llu", (unsigned long long)i,
                (unsigned long long)i);
    /* Definitions: increasing blocks, with the epochs of the region that holds them. */
    int64_t prev_def = -1;
    for (uint64_t i = 0; i < x->tb.ndefs; i++) {
        uint32_t b = ntx_def_block(x, i);
        if (b >= x->tb.nblocks || (int64_t)b <= prev_def)
            BAD("definition %llu names block %u out of order or past the last block", (unsigned long long)i, b);
        const uint8_t *de = x->tb.defs + i * x->tb.sd;
        if (ntx_index_strict(x) && (de[5] | de[6] | de[7]))
            BAD("definition %llu has reserved bytes set", (unsigned long long)i);
        uint64_t r = ntx_index_region_of(x, b);
        if (ntx_def_meta_epoch(x, i) != ntx_rg_meta_epoch(x, r) || ntx_def_thread_epoch(x, i) != ntx_rg_thread_epoch(x, r))
            BAD("definition %llu epochs disagree with its region %llu", (unsigned long long)i, (unsigned long long)r);
        prev_def = b;
    }
    return NTIDX_OK;
}

/* Region r's entries against REGION_SUMS (lazily checked indexes). */
static int region_sums_match(const ntidx_index *x, uint64_t r, char *why, size_t n)
{
    if (!x->region_sums)
        return NTIDX_OK;
    uint64_t f = ntx_rg_first(x, r), e = ntx_rg_end(x, r);
    const uint8_t *s = x->region_sums + r * x->srs;
    if (ntx_xxh3(x->tb.blocks + f * x->tb.sb, (size_t)((e - f) * x->tb.sb)) != ntx_load64(s))
        BAD("region %llu: its block entries fail their checksum", (unsigned long long)r);
    if (x->tb.filters && ntx_xxh3(x->tb.filters + f * x->tb.sf, (size_t)((e - f) * x->tb.sf)) != ntx_load64(s + 8))
        BAD("region %llu: its filter entries fail their checksum", (unsigned long long)r);
    return NTIDX_OK;
}

/* Whether block entry i lies inside the indexed trace; its end in *end. */
static int block_inside(const ntidx_index *x, uint64_t i, uint64_t *end)
{
    uint64_t off = ntx_blk_offset(x, i), size = ntx_blk_size(x, i);
    if (size == 0 || size > x->indexed_end || off > x->indexed_end - size)
        return 0;
    *end = off + size;
    return 1;
}

static int region_structure(const ntidx_index *x, uint64_t r, char *why, size_t n)
{
    uint64_t f = ntx_rg_first(x, r), e = ntx_rg_end(x, r), prev_end = x->first_block;
    if (f > 0) {
        /* The previous region's last block bounds this region's first: its entry must be sound too. */
        int rc = region_sums_match(x, r - 1, why, n);
        if (rc < 0)
            return rc;
        if (!block_inside(x, f - 1, &prev_end))
            BAD("block %llu lies outside the indexed trace", (unsigned long long)(f - 1));
    }
    for (uint64_t i = f; i < e; i++) {
        uint64_t off = ntx_blk_offset(x, i), end;
        uint8_t kind = ntx_blk_kind(x, i), flags = ntx_blk_flags(x, i);
        if (off < prev_end || !block_inside(x, i, &end))
            BAD("block %llu [%llu, +%u) overlaps the previous block or lies outside the indexed trace",
                (unsigned long long)i, (unsigned long long)off, ntx_blk_size(x, i));
        if ((kind > NTIDX_BLOCK_LABEL_LIST && kind != NTIDX_BLOCK_UNKNOWN) || kind == NTIDX_BLOCK_TRACE ||
            kind == NTIDX_BLOCK_END_OF_STREAM || (flags & ~NTX_BF_KNOWN) || (flags && kind != NTIDX_BLOCK_EVENT))
            BAD("block %llu has kind %u with flags 0x%x", (unsigned long long)i, kind, flags);
        if (ntx_index_strict(x) && ntx_load16(x->tb.blocks + i * x->tb.sb + 14) != 0)
            BAD("block %llu has its reserved field set", (unsigned long long)i);
        if (ntx_blk_region(x, i) != r)
            BAD("block %llu names region %u but lies in region %llu", (unsigned long long)i, ntx_blk_region(x, i),
                (unsigned long long)r);
        if ((flags & NTX_BF_RANGE) && ntx_blk_ts_min(x, i) > ntx_blk_ts_max(x, i))
            BAD("block %llu time range is inverted", (unsigned long long)i);
        prev_end = end;
    }
    int closed = (ntx_rg_flags(x, r) & NTX_RF_CLOSED) != 0;
    if (closed != (e > f && ntx_blk_kind(x, e - 1) == NTIDX_BLOCK_SEQUENCE_POINT))
        BAD("region %llu closed flag disagrees with its last block", (unsigned long long)r);
    if (closed && (r >= x->tb.nsps || ntx_sp_block(x, r) != e - 1 || ntx_blk_offset(x, e - 1) != ntx_sp_offset(x, r)))
        BAD("sequence point %llu does not match block %llu", (unsigned long long)r, (unsigned long long)(e - 1));
    /* The definitions that point into this region (DEFS is in block order). */
    struct key k = {x, f};
    for (uint64_t d = ntx_lower_bound(x->tb.ndefs, def_before_block, &k); d < x->tb.ndefs && ntx_def_block(x, d) < e; d++)
        if (ntx_blk_kind(x, ntx_def_block(x, d)) != ntx_def_kind(x, d))
            BAD("definition %llu does not match block %u", (unsigned long long)d, ntx_def_block(x, d));
    return NTIDX_OK;
}

int ntx_index_check_region_now(const ntidx_index *x, uint64_t r, char *why, size_t n)
{
    int rc = region_sums_match(x, r, why, n);
    return rc < 0 ? rc : region_structure(x, r, why, n);
}

int ntx_index_check_region(const ntidx_index *x, uint64_t r, ntx_err *err)
{
    if (!x->tb.region_ok)
        return 0;
    if (r >= x->tb.nregions)
        return ntx_err_set(err, NTIDX_E_INVALID_ARG, "no region %llu", (unsigned long long)r);
    uint8_t state = __atomic_load_n(&x->tb.region_ok[r], __ATOMIC_ACQUIRE);
    if (state == 0)
        ntx_index_prefetch_region(x, r); /* its pages in one read, not a fault per page */
    char why[256] = "";
    /* A region that failed before is checked again for the message (failures are rare; the check is pure). */
    int rc = state == 1 ? 0 : ntx_index_check_region_now(x, r, why, sizeof why);
    if (state == 0 || state == 3)
        __atomic_store_n(&x->tb.region_ok[r], (uint8_t)(rc < 0 ? 2 : 1), __ATOMIC_RELEASE);
    if (rc < 0)
        return ntx_err_set(err, rc, "%s: the index is corrupt", why);
    return 0;
}

int ntx_index_need_all(const ntidx_index *x, ntx_err *err)
{
    if (!x->tb.region_ok)
        return 0;
    ntx_index_prefetch_regions(x, 0, x->tb.nregions);
    /* A lazy load left REGION_SUMS' own checksum for later too: its entries beyond what a region check
       compares (the filter sums of a plain index, the bytes of longer entries) are covered by it alone. */
    if (x->region_sums && ntx_xxh3(x->region_sums, (size_t)(x->tb.nregions * x->srs)) != x->region_sums_hash)
        return ntx_err_set(err, NTIDX_E_INDEX_CORRUPT, "the region checksums (REGION_SUMS) fail their section checksum: the index is corrupt");
    /* So did SEQPOINTS' (queries do not read it; each region check compares the entry that closes it). */
    if (x->sps_hash_later && ntx_xxh3(x->tb.sps, (size_t)(x->tb.nsps * x->tb.ss)) != x->sps_hash)
        return ntx_err_set(err, NTIDX_E_INDEX_CORRUPT, "the sequence points closing the regions (SEQPOINTS) fail their section checksum: the index is corrupt");
    for (uint64_t r = 0; r < x->tb.nregions; r++) {
        int rc = ntx_index_need_region(x, r, err);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* The region statistics sections of a --full index (checked whole at load). */

int ntx_index_check_summaries(const ntidx_index *x, char *why, size_t n)
{
    if (!x->rstats)
        return NTIDX_OK;
    if (!x->strings_len || x->strings[x->strings_len - 1] != 0)
        BAD("the string section does not end with a NUL");
    uint64_t nt = 0, nth = 0, nd = 0;
    for (uint64_t r = 0; r < x->tb.nregions; r++) {
        const uint8_t *e = x->rstats + r * x->srst;
        if (ntx_load64(e) != nt || ntx_load64(e + 16) != nth || ntx_load64(e + 24) != nd)
            BAD("region %llu statistics do not follow the previous region's", (unsigned long long)r);
        nt += ntx_load32(e + 8);
        nth += ntx_load32(e + 12);
        nd += ntx_load32(e + 32);
    }
    if (nt != x->ntcounts || nth != x->nthcounts || nd != x->ndcounts)
        BAD("region statistics list %llu/%llu/%llu entries, the sections hold %llu/%llu/%llu",
            (unsigned long long)nt, (unsigned long long)nth, (unsigned long long)nd,
            (unsigned long long)x->ntcounts, (unsigned long long)x->nthcounts, (unsigned long long)x->ndcounts);
    for (uint64_t i = 0; i < x->ntcounts; i++) {
        const uint8_t *p = x->tcounts + i * x->stc;
        if (ntx_load64(p) >= x->strings_len || ntx_load64(p + 8) >= x->strings_len)
            BAD("type count %llu names a string past the string section", (unsigned long long)i);
    }
    return NTIDX_OK;
}
