/*
 * The on-disk side index, byte for byte. docs/index-format.md is the
 * authority; this header mirrors it. All integers are little-endian; entries
 * are read with explicit loads (never by casting mapped bytes to structs).
 *
 *   [header: NTX_IDX_HEADER_SIZE bytes, its xxh3 in its last 8 bytes]
 *   [sections, each 8-byte aligned, fixed-size entries]
 *   [footer: "NTIDXEND"]
 */
#ifndef NTIDX_INDEX_FORMAT_H
#define NTIDX_INDEX_FORMAT_H

#include <stdint.h>

#define NTX_IDX_MAGIC "NTIDX\0\r\n"   /* 8 bytes; \r\n catches text-mode mangling */
#define NTX_IDX_FOOTER "NTIDXEND"
#define NTX_IDX_MAJOR 1
#define NTX_IDX_MINOR 6
#define NTX_IDX_HEADER_SIZE 512 /* the least; more when the directory needs it (12 sections: 520) */
#define NTX_IDX_MAX_SECTIONS 12
#define NTX_IDX_HEAD_HASH_BYTES (1u << 20) /* identity: xxh3 of the trace's first MiB */

/* Header field offsets. */
enum {
    NTX_IH_MAGIC = 0,            /* u8[8] */
    NTX_IH_MAJOR = 8,            /* u16 */
    NTX_IH_MINOR = 10,           /* u16 */
    NTX_IH_HEADER_SIZE = 12,     /* u32 */
    NTX_IH_FLAGS = 16,           /* u32 */
    NTX_IH_SECTION_COUNT = 20,   /* u32 */
    NTX_IH_TRACE_SIZE = 24,      /* u64: trace size when indexed */
    NTX_IH_TRACE_MTIME = 32,     /* i64: trace mtime (ns) when indexed */
    NTX_IH_HEAD_HASH = 40,       /* u64: xxh3 of the first min(size, 1 MiB) bytes */
    NTX_IH_INDEXED_END = 48,     /* u64: end of the last complete block */
    NTX_IH_LAST_BLOCK_OFF = 56,  /* u64: offset of the last indexed block */
    NTX_IH_LAST_BLOCK_HASH = 64, /* u64: xxh3 of the last indexed block's bytes */
    NTX_IH_FORMAT_VERSION = 72,  /* u32 */
    NTX_IH_POINTER_SIZE = 76,    /* u32 */
    NTX_IH_SYNC_TICKS = 80,      /* i64 */
    NTX_IH_TICK_FREQ = 88,       /* i64 */
    NTX_IH_FIRST_TS = 96,        /* u64: earliest event (UINT64_MAX: none) */
    NTX_IH_LAST_TS = 104,        /* u64: latest event (0: none) */
    NTX_IH_EVENTS = 112,         /* u64: event count, UINT64_MAX unless FULL */
    NTX_IH_FIRST_BLOCK = 120,    /* u64: first block offset of the trace */
    NTX_IH_DIRECTORY = 128,      /* section directory: NTX_IDX_MAX_SECTIONS x 32 bytes */
    NTX_IH_HEADER_HASH = NTX_IDX_HEADER_SIZE - 8 /* u64: xxh3 of bytes [0, 504) */
};

/* Header flags. */
#define NTX_IF_FULL 1u         /* per-block counts and type/thread filters present */
#define NTX_IF_COMPLETE 2u     /* the trace's end-of-stream marker was indexed */
#define NTX_IF_REGIONS_SORTED 4u /* region time ranges never go backwards: binary search is valid */
#define NTX_IF_KNOWN 7u

/* Directory entry: {u32 id, u32 entry_size, u64 offset, u64 count, u64 xxh3}. */
#define NTX_IDX_DIRENT_SIZE 32
enum {
    NTX_SEC_BLOCKS = 1,
    NTX_SEC_SEQPOINTS = 2,
    NTX_SEC_REGIONS = 3,
    NTX_SEC_DEFS = 4,
    NTX_SEC_FILTERS = 5,
    NTX_SEC_TRACE_STAT = 6, /* 1.1 */
    NTX_SEC_REGION_SUMS = 7, /* 1.2 */
    /* 1.2, FULL only, all five or none: each region's statistics */
    NTX_SEC_REGION_STATS = 8,
    NTX_SEC_TYPE_COUNTS = 9,
    NTX_SEC_THREAD_COUNTS = 10,
    NTX_SEC_DROP_COUNTS = 11,
    NTX_SEC_STRINGS = 12
};

/*
 * BLOCKS (40 bytes): every block after the trace block, in file order.
 *   0 u64 offset   8 u32 size   12 u8 kind   13 u8 flags   14 u16 reserved
 *  16 u32 region  20 u32 events (UINT32_MAX: not counted)
 *  24 u64 ts_min  32 u64 ts_max   (event blocks with NTX_BF_RANGE)
 */
#define NTX_BLOCK_ENTRY 40
#define NTX_BF_RANGE 1u        /* ts_min/ts_max are valid */
#define NTX_BF_DECODED 2u      /* the range came from decoding, not from the block header */
#define NTX_BF_METADATA 4u     /* V3 event block holding metadata rows */
#define NTX_BF_NO_EVENTS 8u    /* event block without events (V3 metadata-only) */
#define NTX_BF_KNOWN 15u

/* SEQPOINTS (24 bytes): 0 u64 offset  8 u64 timestamp  16 u32 flags  20 u32 block index. */
#define NTX_SP_ENTRY 24

/*
 * REGIONS (48 bytes): the blocks between sequence points; a region ends
 * with (and includes) its sequence point block, except an open last region.
 *   0 u32 first_block  4 u32 end_block (exclusive)
 *   8 u64 ts_min  16 u64 ts_max   (events of the region; min > max: no events)
 *  24 u64 start_ts (the opening SP's timestamp, 0 for the first region)
 *  32 u32 metadata_epoch  36 u32 thread_epoch  40 u32 flags  44 u32 reserved
 */
#define NTX_REGION_ENTRY 48
#define NTX_RF_CLOSED 1u /* ends with a sequence point */
#define NTX_RF_KNOWN 1u

/*
 * DEFS (16 bytes): metadata, thread and remove-thread blocks (and V3 event
 * blocks holding metadata), in file order, with the flush epochs they
 * belong to. To read from block j of region k a reader first replays the
 * metadata defs of k's metadata epoch and the thread defs of k's thread
 * epoch that lie before j.
 *   0 u32 block  4 u8 kind  5 u8[3] reserved  8 u32 metadata_epoch  12 u32 thread_epoch
 */
#define NTX_DEF_ENTRY 16

/*
 * FILTERS (--full, 64 bytes per block, parallel to BLOCKS): two 256-bit
 * Bloom filters: event types (provider + event id) and threads.
 */
#define NTX_FILTER_ENTRY 64

/*
 * TRACE_STAT (1.1, one 8-byte entry): 0 i64 the trace's status change time
 * (st_ctim, ns) when indexed. Any write to the trace moves it and, unlike
 * the modification time, nothing can set it back: a trace rewritten in place
 * with its size and mtime kept is told from an unchanged one.
 */
#define NTX_TRACE_STAT_ENTRY 8

/*
 * REGION_SUMS (1.2, one 16-byte entry per region): 0 u64 xxh3 of the
 * region's BLOCKS entries (bytes [first * stride, end * stride) of the
 * section), 8 u64 xxh3 of its FILTERS entries (0 without FULL). A large
 * index is then checked region by region when a query first needs the
 * region, not all at load: loading costs O(regions), not O(blocks).
 */
#define NTX_REGION_SUM_ENTRY 16

/*
 * Region statistics (1.2, FULL): what a statistics worker computes for each
 * region read whole, so that statistics over a window skip the event blocks
 * of the regions that lie wholly inside it.
 * REGION_STATS (64 bytes, one per region): 0 u64 first TYPE_COUNTS entry,
 * 8 u32 type entries, 12 u32 thread entries, 16 u64 first THREAD_COUNTS
 * entry, 24 u64 first DROP_COUNTS entry, 32 u32 drop entries, 36 u32 event
 * blocks read, 40 u64 events, 48 u64 earliest event ts (UINT64_MAX: none),
 * 56 u64 latest event ts. Entries are contiguous, region after region.
 * TYPE_COUNTS (48): 0 u64 provider (STRINGS offset), 8 u64 event name
 * (STRINGS offset), 16 u32 event id, 20 u32 version, 24 u64 count, 32 u64
 * first ts, 40 u64 payload bytes.
 * THREAD_COUNTS (16): 0 u64 thread, 8 u64 count.
 * DROP_COUNTS (24): 0 u64 capture thread, 8 u64 its OS thread id, 16 u64
 * dropped events.
 * STRINGS (1): NUL-terminated UTF-8 strings; the section ends with a NUL.
 */
#define NTX_RSTAT_ENTRY 64
#define NTX_TCOUNT_ENTRY 48
#define NTX_THCOUNT_ENTRY 16
#define NTX_DCOUNT_ENTRY 24
#define NTX_STRING_ENTRY 1

/* BLOCKS sections up to this size are checked whole at load even when REGION_SUMS allows lazy checks. */
#define NTX_IDX_EAGER_BLOCK_BYTES (256u << 10)

/*
 * What a load reads: every section but BLOCKS and FILTERS is checksummed (and
 * its tables checked) at load, so from format 1.4 they are written right after
 * the header and BLOCKS and FILTERS, read a region at a time, come last
 * (REGION_SUMS too is read a region at a time by a lazily checked load). An
 * index up to this size is read whole at once.
 */
#define NTX_IDX_FIRST_READ (256u << 10)
/* A larger index: its header page and this many bytes at its end (the footer, the last region's entries)
   first, then exactly the sections the directory lists as read whole. */
#define NTX_IDX_TAIL_READ (8u << 10)
static inline int ntx_index_section_hot(uint32_t id) { return id != NTX_SEC_BLOCKS && id != NTX_SEC_FILTERS; }

#endif
