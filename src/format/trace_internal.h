/*
 * The mapped trace: bytes, generation, header facts. Shared by the framing
 * files (which turn bytes into blocks) and the layers that decode them
 * (decode, reader, index); the layers above see trace_blocks.h and the
 * public API only.
 */
#ifndef NTIDX_TRACE_INTERNAL_H
#define NTIDX_TRACE_INTERNAL_H

#include "ntidx/ntidx.h"

#include "arena.h"
#include "error.h"
#include "map_guard.h"
#include "trace_blocks.h"

/* The three framings. V4 and V5 share one (they differ only in metadata tags). */
enum ntx_gen { NTX_GEN_NETPERF = 3, NTX_GEN_FASTSER = 4, NTX_GEN_V6 = 6 };

struct ntidx_trace {
    char *name;
    const uint8_t *data;
    uint64_t size;
    void *map;        /* mmap base, NULL for memory traces */
    size_t map_len;
    int64_t mtime_ns; /* identity for the side index (0 for memory traces) */
    int64_t ctime_ns; /* same: status change time (0 for memory traces) */
    int fd;           /* kept open for pread() header scans; -1 for memory traces */
    /* The mapping's chunks of NTX_STREAM_CHUNK bytes a pass has advised for streaming (ntx_trace_stream()),
       a bit each, set once: the advice is asked once per chunk, not once per read-ahead (each asks for the
       address space's lock, which every worker's page faults take too). NULL without a mapping. */
    _Atomic uint64_t *streamed;
    /* A trace read through a byte source without a mapping of its own (a URL, an embedder's callbacks;
       source.h): data is the source's demand mapping (source_demand.c), hints go to the source, and a range
       that could not be read is the source's error at the checkpoints. NULL for files and memory. */
    struct ntx_source *src;
    struct ntx_demand *demand;
    /* The SIGBUS guard (map_guard.h): where a read of the mapping first faulted, the file having shrunk under
       it (0: never, else 1 + the offset); the mapping's registry entry. */
    ntx_fault_word fault_at;
    struct ntx_guard_slot *guard;
    enum ntx_gen gen;
    ntidx_trace_info info;
    uint64_t after_trace_block; /* the first block after the trace block (the V4/V5 probe starts there) */
    ntx_arena arena;  /* key/value strings */
    /* This trace among every trace the process opened (1, 2, ...; never reused, unlike the address): what
       a cache kept across traces (the payload formatter's field names, values.c) is valid for. */
    uint64_t serial;
};

/*
 * Framing over a window of bytes: p holds `have` bytes of the file from
 * offset `at`. Returns as ntidx_trace_next_block(), or NTX_NEED_MORE when
 * the window is too short for the framing (the index scan reads headers
 * with small pread()s). FastSerialization blocks end with a tag byte after
 * their payload; when it lies outside the window its offset is returned in
 * *unchecked_tag for the caller to check.
 */
#define NTX_NEED_MORE 2
int ntx_v6_frame(const uint8_t *p, uint64_t have, uint64_t at, uint64_t file_size, uint64_t *pos, ntidx_block *out,
                 ntx_err *err);
int ntx_fastser_frame(const uint8_t *p, uint64_t have, uint64_t at, uint64_t file_size, uint64_t *pos,
                      ntidx_block *out, uint64_t *unchecked_tag, ntx_err *err);

/* Framing: read the block at *pos (see ntidx_trace_next_block). */
int ntx_v6_next_block(ntidx_trace *t, uint64_t *pos, ntidx_block *out, ntx_err *err);
int ntx_fastser_next_block(ntidx_trace *t, uint64_t *pos, ntidx_block *out, ntx_err *err);

/* The trace block's common head: SyncTimeUTC (8 x int16), SyncTimeTicks, TickFrequency, PointerSize. */
struct ntx_cur;
void ntx_read_sync_head(struct ntx_cur *c, ntidx_trace_info *in);

/* Open-time parsing of the trace block into t->info. */
int ntx_parse_trace_block_v6(ntidx_trace *t, const ntidx_block *b, ntx_err *err);
int ntx_parse_trace_object_fastser(ntidx_trace *t, const ntidx_block *b, ntx_err *err);

/*
 * The file shrank while it was read. A trace is mapped; the file truncated
 * under the mapping loses the pages past its new end, and a read of one of
 * them reads zeros instead (map_guard.h) and leaves its offset in
 * t->fault_at. Whatever was decoded from them is not the trace: every
 * operation checks at its checkpoints (each block framed, each event handed
 * out, each block of statistics rows, each payload decoded, the end of every
 * read and every error) and fails there.
 *
 * ntx_trace_faulted(): the checkpoints' question, a load.
 * ntx_trace_check(): NTIDX_OK, or the error, replacing what *err held:
 *   NTIDX_E_SHRUNK at the faulting offset, with the file's size now; NTIDX_E_IO
 *   when the file is as long as it was (a page that could not be read).
 * ntx_trace_check_end(): the same, and the file's size now (fstat), for the
 *   end of a read and its errors: bytes past the new end on the page that
 *   holds it read as zeros without a fault, and may have ended the read
 *   early (a zero V6 block header is the end-of-stream marker) or made an
 *   error of their own.
 */
static inline int ntx_trace_faulted(const ntidx_trace *t) { return ntx_fault_seen(&t->fault_at); }
int ntx_trace_check(const ntidx_trace *t, ntx_err *err);
/* ntx_trace_check_end(): trace_blocks.h */

/* Give back mapped pages of [off, off+len) (scans release what they passed). */
void ntx_trace_release(ntidx_trace *t, uint64_t off, uint64_t len);
/*
 * [off, off+len) holds definitions that other regions are primed with: a
 * remote trace's memory keeps its units once filled, and a release of a range
 * that holds them leaves them (ntx_demand_keep()), so the workers of parallel
 * statistics, each priming its regions with the definitions that another
 * worker's regions hold and release, do not ask for them again. Nothing for a
 * local trace: a page given back is read again from the page cache.
 */
void ntx_trace_keep(ntidx_trace *t, uint64_t off, uint64_t len);
/* Ask the kernel to read [off, off+len) of the trace now (asynchronously): exactly that range. */
void ntx_trace_prefetch(const ntidx_trace *t, uint64_t off, uint64_t len);
/*
 * A pass will read [off, off+len) in order: the mapping there advised
 * sequential access, so that its pages come in with the kernel's own
 * read-ahead when they are mapped or touched: large folios, the next ones
 * read while these are decoded. A forced read of exactly the range
 * (ntx_trace_prefetch(): MADV_WILLNEED) fills the page cache one page at a
 * time instead: a cold pass took twice as long, and every later pass over
 * the cached trace mapped it page by page (five times the kernel's time of
 * one whose cache holds 2 MB folios). The advice is given to the whole
 * NTX_STREAM_CHUNK-aligned chunks that hold the range, once each: a pass
 * whose plan skips blocks would otherwise cut the mapping into a piece per
 * range (each a kernel VMA; a process may hold 65530), and over-advising is
 * harmless (the pages read ahead around a range are ones a pass is about to
 * read or just skipped). A trace read through a source is prefetched as
 * before.
 */
#define NTX_STREAM_CHUNK (64ull << 20)
void ntx_trace_stream(const ntidx_trace *t, uint64_t off, uint64_t len);
/*
 * The range's pages mapped in one call, waiting for those not in the page
 * cache: for ranges about to be read whole (a plan's blocks), asked for
 * first with ntx_trace_prefetch(), every range of a read-ahead before the
 * first is mapped, so that their disk reads are under way together. The
 * mapping is advised random access, so each page read would otherwise cost
 * a page fault of its own.
 */
void ntx_trace_map_now(const ntidx_trace *t, uint64_t off, uint64_t len);
/*
 * A walk through the file reads ahead of itself: *ahead is where what it has
 * asked for ends (0 at first); called with the walk's position, it asks for
 * the next NTX_WALK_AHEAD bytes when fewer than half of them are left. The
 * mapping is advised random access, so nothing else reads ahead.
 */
#define NTX_WALK_AHEAD (8ull << 20)
void ntx_trace_walk_ahead(ntidx_trace *t, uint64_t pos, uint64_t *ahead);

/*
 * Whether the mapped file's bytes from `from` on are in the page cache: 1 when
 * all but a sixteenth of 256 pages sampled evenly over them are (mincore(); a
 * page or two the kernel let go does not make a trace cold), else 0 (and for
 * a trace not mapped from a file). What decides whether a pass that reads
 * everything is bound by the CPU (read in parts at once) or by the disk (read
 * in order, in large steps).
 */
int ntx_trace_cached(const ntidx_trace *t, uint64_t from);

/*
 * Map `path` (or take `size` bytes at `data`, not copied) and read its stream
 * header and trace block; format_version is 4 for every V4/V5 trace whose
 * Trace object says 4: ntidx_trace_open() (src/decode) then looks for V5
 * metadata tags. On failure *out is NULL and err says why.
 */
int ntx_trace_open_file(ntidx_trace **out, const char *path, ntx_err *err);
int ntx_trace_open_bytes(ntidx_trace **out, const void *data, size_t size, const char *name, ntx_err *err);
/* A trace read through `src` (owned from here on, also on failure): a URL's, an embedder's. */
struct ntx_source;
int ntx_trace_open_source(ntidx_trace **out, struct ntx_source *src, ntx_err *err);
/* Whether hints about the trace's ranges do anything: a mapped file's page cache, a source's requests (a memory
   trace has every byte already). */
static inline int ntx_trace_hinted(const ntidx_trace *t) { return t->map || t->demand; }
/* The trace's source when it is read through one (a remote trace), else NULL. */
static inline struct ntx_source *ntx_trace_source(const ntidx_trace *t) { return t->src; }

/* ntx_next_block(): trace_blocks.h (dispatch by generation). */

#endif
