/*
 * The side index in memory. Sections are kept in their on-disk byte layout
 * (index_format.h) whether the index was just built (owned buffers) or
 * loaded (pointers into the mapped file), so one set of accessors serves
 * both and loading needs no conversion pass. The index layer's own: the
 * layers above read an index through index_tables.h (and build one through
 * index_build.h), never through this struct.
 */
#ifndef NTIDX_INDEX_INTERNAL_H
#define NTIDX_INDEX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "cursor.h"
#include "error.h"
#include "index_format.h"
#include "index_build.h"
#include "index_summary.h"
#include "index_tables.h"
#include "ntidx/index.h"
#include "trace_internal.h"

struct ntidx_index {
    ntx_index_tables tb; /* first: ntx_tables() (index_tables.h) */

    /* header facts */
    uint16_t minor;    /* the file's minor version (built: this library's) */
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

    /* Lazy checking (index_tables.h, region_ok): the checksums the regions are checked against. */
    const uint8_t *region_sums;
    uint32_t srs; /* stride of region_sums */
    uint64_t region_sums_hash; /* the directory's checksum of REGION_SUMS, checked by ntx_index_need_all() */
    /* Lazily checked loads leave SEQPOINTS' checksum to ntx_index_need_all() too, and the check that
       sequence point i closes region i to region i's check: no query reads SEQPOINTS. */
    int sps_hash_later;
    uint64_t sps_hash;
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

/* The checks themselves (index_check.c): the small tables at load, and one region's blocks. */
int ntx_index_check_tables(const ntidx_index *x, uint64_t trace_first_block, char *why, size_t n);
int ntx_index_check_region_now(const ntidx_index *x, uint64_t r, char *why, size_t n);
/* The owned buffers of a built index (own[]). */
enum { NTX_OWN_BLOCKS, NTX_OWN_SPS, NTX_OWN_REGIONS, NTX_OWN_DEFS, NTX_OWN_FILTERS, NTX_OWN_RSTATS, NTX_OWN_TCOUNTS,
       NTX_OWN_THCOUNTS, NTX_OWN_DCOUNTS, NTX_OWN_STRINGS };
/* The region statistics sections of a loaded index, checked (index_check.c); why: the problem. */
int ntx_index_check_summaries(const ntidx_index *x, char *why, size_t n);

/* Bind the tables to the owned buffers (a built index). */
void ntx_index_finish(ntidx_index *x);

/* Identity helpers. */
uint64_t ntx_trace_head_hash(const ntidx_trace *t);
uint64_t ntx_trace_range_hash(const ntidx_trace *t, uint64_t off, uint64_t len);

/*
 * index_identity.c: how long after the trace's last change an index must
 * have been written for its recorded times alone to prove the trace
 * unchanged; whether they do (nothing of the trace need be read); the
 * index's identity compared with the trace as it is now (*state CURRENT or
 * GROWN, or NTIDX_E_INDEX_STALE said naming `path`).
 */
#define NTX_SETTLED_NS 2000000000LL
int ntx_index_times_prove_unchanged(const ntidx_index *x, const ntidx_trace *t);
int ntx_index_identity(const ntidx_index *x, const ntidx_trace *t, ntidx_index_state *state, const char *path);

/*
 * index_pages.c: what a load asks the kernel for, without waiting: its
 * first reads (a small index whole; a large one's header page and tail),
 * the sections a lazily checked load reads whole (offsets not trusted yet:
 * ranges outside the file are not asked for), the entries that checking
 * region r reads (clipped to their sections).
 */
void ntx_index_prefetch_ends(const uint8_t *m, uint64_t len);
void ntx_index_prefetch_hot_sections(uint8_t *m, uint64_t len, uint32_t nsec);
void ntx_index_prefetch_entries(const ntidx_index *x, uint64_t r);

#endif
