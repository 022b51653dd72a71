/*
 * Building the side index: one pass over the block headers.
 *
 * For V4-V6 an event block's time range comes from its header when that can
 * be trusted (not 0/0, min <= max); otherwise, and always for V3 (which has
 * none), the block's event headers are decoded. Metadata, thread and
 * sequence-point blocks are read; everything else is only framed. Mapped
 * ranges already passed are released so memory stays flat whatever the
 * trace size. Each block is read (block_read.c) apart from being entered in
 * the index (add_block), so that on a large trace helper threads read ahead
 * in later parts (scan_split.h) and the scan enters their records where it
 * meets them. This is the index core's own scan: it needs the framing and
 * the decoders of event-block headers and sequence points, nothing above.
 * `--full` (per-block counts and filters, region statistics) is added by the
 * index lifecycle above the queries (src/ops/index_full.c).
 */
#include <stdlib.h>
#include <string.h>

#include "hash.h"

#include "block_read.h"
#include "definitions.h"
#include "index_internal.h"
#include "phases.h"
#include "scan_split.h"
#include "threads.h"

#define PROGRESS_EVERY (16ull << 20)
/* A helper thread's part of the header scan, at least: when the caller asks for threads, and when it
   leaves the number to the machine. A 64 MiB part is about a millisecond of reads, a thread and its
   search a tenth of that; smaller traces are read by one thread, which also spares the cores of a batch
   job that indexes many traces at once. */
#define SPLIT_MIN_ASKED (64ull << 10)
#define SPLIT_MIN_AUTO (64ull << 20)

enum {
    B_BLOCKS = NTX_OWN_BLOCKS,
    B_SPS = NTX_OWN_SPS,
    B_REGIONS = NTX_OWN_REGIONS,
    B_DEFS = NTX_OWN_DEFS,
    B_FILTERS = NTX_OWN_FILTERS
};

typedef struct builder {
    ntidx_trace *t;
    ntidx_index *x;
    ntx_err *err;
    const ntidx_index_options *o;
    /* the open region */
    uint32_t region_first;
    uint64_t region_min, region_max, region_start_ts;
    uint32_t meta_epoch, thread_epoch;
    uint64_t next_progress;
    ntx_block_reader rd;
    ntx_scan_split split; /* helper threads reading ahead (none: nparts 0) */
    const ntx_scan_sink *sink; /* told of each region closed (NULL: nobody) */
} builder;

/*
 * The identity hashes (the trace's first MiB, its last indexed block): the
 * range is asked of the kernel exactly first (one read when the trace is not
 * in the page cache; nothing when it is), then hashed from the mapping, whose
 * page faults read nothing more (random access advice).
 */
uint64_t ntx_trace_range_hash(const ntidx_trace *t, uint64_t off, uint64_t len)
{
    if (off > t->size || len > t->size - off)
        return 0;
    ntx_trace_prefetch(t, off, len);
    return ntx_xxh3(t->data + off, (size_t)len);
}

uint64_t ntx_trace_head_hash(const ntidx_trace *t)
{
    return ntx_trace_range_hash(t, 0, t->size < NTX_IDX_HEAD_HASH_BYTES ? t->size : NTX_IDX_HEAD_HASH_BYTES);
}

static int nomem(builder *b) { return ntx_err_set(b->err, NTIDX_E_NOMEM, "out of memory building the index"); }

/*
 * n zeroed bytes appended to section s: where to write them, or NULL when
 * out of memory. With a sink, a buffer that must grow is copied into a new
 * one and the old one kept (x->retired), never realloc'ed: the sink's
 * threads may be reading the entries in it.
 */
static uint8_t *sec_append(builder *b, int s, size_t n)
{
    ntidx_buf *buf = &b->x->own[s];
    if (b->sink && !buf->err && !(buf->cap > buf->len && n < buf->cap - buf->len)) {
        ntidx_index *x = b->x;
        size_t cap = buf->cap ? buf->cap : 4096;
        while (cap < buf->len + n + 1)
            cap *= 2;
        uint8_t *p = malloc(cap);
        void **r = realloc(x->retired, (x->nretired + 1) * sizeof *r);
        if (!p || !r) {
            free(p);
            if (r)
                x->retired = r;
            return NULL;
        }
        x->retired = r;
        if (buf->len)
            memcpy(p, buf->bytes, buf->len);
        if (buf->data)
            x->retired[x->nretired++] = buf->data;
        buf->bytes = p;
        buf->cap = cap;
    }
    return ntx_buf_append(buf, n);
}

static int add_def(builder *b, uint32_t block, uint8_t kind)
{
    uint8_t *p = sec_append(b, B_DEFS, NTX_DEF_ENTRY);
    if (!p)
        return nomem(b);
    ntx_store32(p, block);
    p[4] = kind;
    ntx_store32(p + 8, b->meta_epoch);
    ntx_store32(p + 12, b->thread_epoch);
    return 0;
}

static int close_region(builder *b, uint32_t end_block, int closed)
{
    uint8_t *p = sec_append(b, B_REGIONS, NTX_REGION_ENTRY);
    if (!p)
        return nomem(b);
    ntx_store32(p, b->region_first);
    ntx_store32(p + 4, end_block);
    ntx_store64(p + 8, b->region_min);
    ntx_store64(p + 16, b->region_max);
    ntx_store64(p + 24, b->region_start_ts);
    ntx_store32(p + 32, b->meta_epoch);
    ntx_store32(p + 36, b->thread_epoch);
    ntx_store32(p + 40, closed ? NTX_RF_CLOSED : 0);
    return 0;
}

static int progress(builder *b, uint64_t pos)
{
    if (b->o->progress && pos >= b->next_progress) {
        if (b->o->progress(b->o->progress_ctx, pos, b->t->size))
            return ntx_err_set(b->err, NTIDX_E_CANCELLED, "cancelled");
        b->next_progress = pos + PROGRESS_EVERY;
    }
    return 0;
}

/*
 * Enter one block read by ntx_block_read() into the index (rerr: its error).
 * 1: the scan goes on; 0: the trace ended (indexed_end says where); < 0: an
 * error, in b->err.
 */
static int add_block(builder *b, const ntx_scan_rec *rec, const ntx_err *rerr)
{
    ntidx_trace *t = b->t;
    ntidx_index *x = b->x;
    const ntidx_block *blk = &rec->blk;
    int rc;
    if (rec->rc == 0) {
        x->tb.flags |= NTX_IF_COMPLETE;
        x->indexed_end = rec->next;
        return 0;
    }
    if (rec->rc == NTIDX_E_TRUNCATED) {
        x->indexed_end = rec->at; /* a writer still going, or one that died: index what is complete */
        return 0;
    }
    if (rec->rc < 0 && !rec->framed) {
        *b->err = *rerr;
        return rec->rc;
    }
    if (blk->kind == NTIDX_BLOCK_TRACE)
        return 1; /* read at open; not part of the table */
    if (blk->size > UINT32_MAX)
        return ntx_err_at(b->err, NTIDX_E_CORRUPT, blk->offset, "block of %llu bytes is too large to index",
                          (unsigned long long)blk->size);
    uint64_t index = x->own[B_BLOCKS].len / NTX_BLOCK_ENTRY;
    if (index >= UINT32_MAX - 1)
        return ntx_err_at(b->err, NTIDX_E_UNSUPPORTED, blk->offset, "more than 2^32 blocks");
    if (rec->rc < 0) { /* its contents (events' headers, a sequence point) could not be read */
        *b->err = *rerr;
        return rec->rc;
    }
    uint8_t flags = rec->flags;
    if (blk->kind == NTIDX_BLOCK_EVENT) {
        if (flags & NTX_BF_RANGE) {
            if (rec->lo < b->region_min)
                b->region_min = rec->lo;
            if (rec->hi > b->region_max)
                b->region_max = rec->hi;
            if (rec->lo < x->first_ts)
                x->first_ts = rec->lo;
            if (rec->hi > x->last_ts)
                x->last_ts = rec->hi;
        }
        if ((flags & NTX_BF_METADATA) && (rc = add_def(b, (uint32_t)index, NTIDX_BLOCK_EVENT)) < 0)
            return rc;
    } else if (blk->kind == NTIDX_BLOCK_METADATA || blk->kind == NTIDX_BLOCK_THREAD ||
               blk->kind == NTIDX_BLOCK_REMOVE_THREAD) {
        if ((rc = add_def(b, (uint32_t)index, (uint8_t)blk->kind)) < 0)
            return rc;
    }
    uint8_t *p = sec_append(b, B_BLOCKS, NTX_BLOCK_ENTRY);
    if (!p)
        return nomem(b);
    ntx_store64(p, blk->offset);
    ntx_store32(p + 8, (uint32_t)blk->size);
    p[12] = (uint8_t)blk->kind;
    p[13] = flags;
    ntx_store32(p + 16, (uint32_t)(x->own[B_REGIONS].len / NTX_REGION_ENTRY));
    ntx_store32(p + 20, UINT32_MAX);
    ntx_store64(p + 24, rec->lo); /* 0 unless an event block's */
    ntx_store64(p + 32, rec->hi);
    x->last_block_off = blk->offset;
    x->indexed_end = rec->next;
    if (blk->kind == NTIDX_BLOCK_SEQUENCE_POINT) {
        uint8_t *s = sec_append(b, B_SPS, NTX_SP_ENTRY);
        if (!s)
            return nomem(b);
        ntx_store64(s, blk->offset);
        ntx_store64(s + 8, rec->sp_ts);
        ntx_store32(s + 16, rec->sp_flags);
        ntx_store32(s + 20, (uint32_t)index);
        if ((rc = close_region(b, (uint32_t)index + 1, 1)) < 0)
            return rc;
        /* Flushes take effect after the sequence point: the next region starts a new epoch. */
        const uint32_t flushes = ntx_sp_flushes(rec->sp_flags, t->gen == NTX_GEN_V6);
        b->meta_epoch += (flushes & NTX_FLUSH_METADATA) != 0;
        b->thread_epoch += (flushes & NTX_FLUSH_THREADS) != 0;
        b->region_first = (uint32_t)index + 1;
        b->region_min = UINT64_MAX;
        b->region_max = 0;
        b->region_start_ts = rec->sp_ts;
        if (b->sink) {
            ntx_index_finish(x);
            b->sink->region_closed(b->sink->ctx, x);
        }
    }
    return 1;
}

/*
 * The blocks from pos on, one after another. Where a helper thread has read
 * from the same position already (scan_split.h), its records are entered
 * instead of reading again.
 */
static int scan(builder *b, uint64_t pos)
{
    int rc;
    for (;;) {
        size_t n;
        const ntx_err *end_err;
        uint64_t end_pos, end_tag;
        const ntx_scan_rec *ahead =
            b->split.nparts ? ntx_scan_split_take(&b->split, pos, &n, &end_err, &end_pos, &end_tag) : NULL;
        if (ahead) {
            rc = 1;
            for (size_t i = 0; rc > 0 && i < n; i++)
                if ((rc = progress(b, ahead[i].at)) == 0)
                    rc = add_block(b, &ahead[i], end_err);
            ntx_block_reader_jump(&b->rd, pos, end_pos, end_tag);
            if (rc <= 0)
                return rc;
            pos = end_pos;
            continue;
        }
        if ((rc = progress(b, pos)) < 0)
            return rc;
        ntx_block_reader_release(&b->rd, pos);
        ntx_scan_rec rec;
        ntx_err rerr = {0};
        ntx_block_read(&b->rd, pos, &rec, &rerr);
        if ((rc = add_block(b, &rec, &rerr)) <= 0)
            return rc;
        pos = rec.next;
    }
}

void ntx_index_finish(ntidx_index *x)
{
    x->tb.blocks = x->own[B_BLOCKS].bytes;
    x->tb.nblocks = x->own[B_BLOCKS].len / NTX_BLOCK_ENTRY;
    x->tb.sps = x->own[B_SPS].bytes;
    x->tb.nsps = x->own[B_SPS].len / NTX_SP_ENTRY;
    x->tb.regions = x->own[B_REGIONS].bytes;
    x->tb.nregions = x->own[B_REGIONS].len / NTX_REGION_ENTRY;
    x->tb.defs = x->own[B_DEFS].bytes;
    x->tb.ndefs = x->own[B_DEFS].len / NTX_DEF_ENTRY;
    x->tb.filters = x->own[B_FILTERS].len ? x->own[B_FILTERS].bytes : NULL;
    x->tb.sb = NTX_BLOCK_ENTRY;
    x->tb.ss = NTX_SP_ENTRY;
    x->tb.sr = NTX_REGION_ENTRY;
    x->tb.sd = NTX_DEF_ENTRY;
    x->tb.sf = NTX_FILTER_ENTRY;
}

ntidx_index *ntx_index_snapshot(const ntidx_index *x, int regions_sorted)
{
    ntidx_index *snap = malloc(sizeof *snap);
    if (!snap)
        return NULL;
    *snap = *x; /* the tables as they are: the scan keeps the buffers they point into (retired) */
    snap->tb.flags = (x->tb.flags & ~(uint32_t)NTX_IF_REGIONS_SORTED) | (regions_sorted ? NTX_IF_REGIONS_SORTED : 0);
    return snap;
}

void ntx_index_snapshot_free(ntidx_index *snap) { free(snap); }

uint8_t *ntx_index_make_filters(ntidx_index *x, ntx_err *err)
{
    uint64_t nblocks = x->own[B_BLOCKS].len / NTX_BLOCK_ENTRY;
    /* ntx_buf_append() zeroes what it adds */
    if (!x->own[B_FILTERS].len && !ntx_buf_append(&x->own[B_FILTERS], (size_t)(nblocks * NTX_FILTER_ENTRY))) {
        ntx_err_set(err, NTIDX_E_NOMEM, "out of memory building the index");
        return NULL;
    }
    return x->own[B_FILTERS].bytes;
}

uint8_t *ntx_index_begin_counts(ntidx_index *x, ntx_err *err)
{
    uint64_t nblocks = x->own[B_BLOCKS].len / NTX_BLOCK_ENTRY;
    uint8_t *blocks = x->own[B_BLOCKS].bytes, *filters = ntx_index_make_filters(x, err);
    if (!filters)
        return NULL;
    for (uint64_t i = 0; i < nblocks; i++)
        ntx_store32(blocks + i * NTX_BLOCK_ENTRY + 20, 0);
    return filters;
}

void ntx_index_set_block_events(ntidx_index *x, uint64_t b, uint32_t events)
{
    ntx_store32(x->own[B_BLOCKS].bytes + b * NTX_BLOCK_ENTRY + 20, events);
}

void ntx_index_end_counts(ntidx_index *x, uint64_t events)
{
    x->events = events;
    x->tb.flags |= NTX_IF_FULL;
    ntx_index_finish(x); /* binds FILTERS: queries over x now use the counts */
}

/* Regions never going back in time make binary search valid. */
static int regions_sorted(const ntidx_index *x)
{
    uint64_t prev_max = 0;
    for (uint64_t i = 0; i < x->tb.nregions; i++) {
        uint64_t lo = ntx_rg_ts_min(x, i), hi = ntx_rg_ts_max(x, i);
        if (lo > hi)
            continue;
        if (lo < prev_max)
            return 0;
        prev_max = hi;
    }
    return 1;
}

int ntx_index_scan(ntidx_trace *t, const ntidx_index *from, const ntidx_index_options *o, ntidx_index **out,
                   ntx_err *err)
{
    return ntx_index_scan_stream(t, from, o, NULL, out, err);
}

int ntx_index_scan_stream(ntidx_trace *t, const ntidx_index *from, const ntidx_index_options *o,
                          const ntx_scan_sink *sink, ntidx_index **out, ntx_err *err)
{
    ntidx_index_options def;
    if (!o) {
        ntidx_index_options_defaults(&def);
        o = &def;
    }
    /* A lazily checked index is checked whole before its entries are copied. */
    int crc = from ? ntx_index_need_all(from, err) : 0;
    if (crc < 0)
        return crc;
    ntidx_index *x = calloc(1, sizeof *x);
    if (!x)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory building the index");
    builder b = {.t = t, .x = x, .err = err, .o = o, .region_min = UINT64_MAX, .sink = sink};
    const ntidx_trace_info *in = &t->info;
    x->minor = NTX_IDX_MINOR;
    x->trace_size = t->size;
    x->trace_mtime_ns = t->mtime_ns;
    x->trace_ctime_ns = t->ctime_ns;
    x->has_trace_stat = 1;
    x->head_hash = ntx_trace_head_hash(t);
    x->format_version = (uint32_t)in->format_version;
    x->pointer_size = in->pointer_size;
    x->sync_ticks = in->sync_ticks;
    x->tick_frequency = in->tick_frequency;
    x->first_ts = UINT64_MAX;
    x->last_ts = 0;
    x->events = UINT64_MAX;
    uint64_t pos, released = 0;
    int rc = 0;
    if (from) {
        /* Resume: copy the prefix, reopen its last region if no sequence point closed it. */
        const uint8_t *src[4] = {from->tb.blocks, from->tb.sps, from->tb.regions, from->tb.defs};
        uint64_t count[4] = {from->tb.nblocks, from->tb.nsps, from->tb.nregions, from->tb.ndefs};
        uint32_t stride[4] = {from->tb.sb, from->tb.ss, from->tb.sr, from->tb.sd};
        static const uint32_t entry[4] = {NTX_BLOCK_ENTRY, NTX_SP_ENTRY, NTX_REGION_ENTRY, NTX_DEF_ENTRY};
        for (int s = 0; s < 4; s++) {
            uint64_t len = count[s] * entry[s];
            uint8_t *p = len ? ntx_buf_append(&x->own[s], len) : NULL;
            if (len && !p) {
                rc = nomem(&b);
                goto fail;
            }
            /* A loaded index steps by its recorded entry size: a later minor version's entries are
               longer, and only the bytes this version knows are kept. */
            for (uint64_t i = 0; i < count[s]; i++)
                memcpy(p + i * entry[s], src[s] + i * stride[s], entry[s]);
        }
        x->first_block = from->first_block;
        x->first_ts = from->first_ts;
        x->last_ts = from->last_ts;
        x->last_block_off = from->last_block_off;
        uint64_t nr = from->tb.nregions;
        if (nr && !(ntx_rg_flags(from, nr - 1) & NTX_RF_CLOSED)) {
            b.region_first = ntx_rg_first(from, nr - 1);
            b.region_min = ntx_rg_ts_min(from, nr - 1);
            b.region_max = ntx_rg_ts_max(from, nr - 1);
            b.region_start_ts = ntx_rg_start_ts(from, nr - 1);
            b.meta_epoch = ntx_rg_meta_epoch(from, nr - 1);
            b.thread_epoch = ntx_rg_thread_epoch(from, nr - 1);
            x->own[B_REGIONS].len -= NTX_REGION_ENTRY;
        } else if (nr) {
            /* The last region was closed by a sequence point: the next one starts after it. */
            uint32_t spf = ntx_sp_flushes(from->tb.nsps ? ntx_sp_flags(from, from->tb.nsps - 1) : 0,
                                          t->gen == NTX_GEN_V6);
            b.region_first = ntx_rg_end(from, nr - 1);
            b.region_start_ts = from->tb.nsps ? ntx_sp_ts(from, from->tb.nsps - 1) : 0;
            b.meta_epoch = ntx_rg_meta_epoch(from, nr - 1) + ((spf & NTX_FLUSH_METADATA) != 0);
            b.thread_epoch = ntx_rg_thread_epoch(from, nr - 1) + ((spf & NTX_FLUSH_THREADS) != 0);
        }
        pos = from->indexed_end;
        released = pos & ~(uint64_t)4095;
    } else {
        /* Skip the trace block: the first block of the table is the one after it. */
        ntidx_block tb;
        pos = in->first_block_offset;
        ntx_err walk = {0};
        if (ntx_next_block(t, &pos, &tb, &walk) != 1) {
            *err = walk;
            rc = walk.code ? walk.code : NTIDX_E_CORRUPT;
            goto fail;
        }
        x->first_block = pos;
    }
    if (sink && x->own[B_REGIONS].len) { /* the regions of `from` closed by a sequence point */
        ntx_index_finish(x);
        sink->region_closed(sink->ctx, x);
    }
    ntx_block_reader_init(&b.rd, t, t->fd >= 0 && t->gen != NTX_GEN_NETPERF, released);
    /* A caller that reads the whole trace next (a --full build's workers, behind the scan) has it read
       once in large sequential steps: a cold trace at the disk's speed, not a small read per block. */
    b.rd.stream = o->full || o->read_all;
    x->indexed_end = pos;
    /* Split the scan (scan_split.h) when it is bound by the CPU. A stream on a cold trace is read in order, in
       large steps, not in parts at once: bound by the disk, which parts would only make seek. The same stream
       on a cached trace is all CPU (a --full build's scan was a twentieth of its one-thread time on 10 GB, a
       part that more threads could not divide): then it is split too, the workers behind it taking each
       region as the replayed records close it. */
    int split = b.rd.use_pread && (!b.rd.stream || ntx_trace_cached(t, pos));
    if (split)
        ntx_scan_split_start(&b.split, t, pos, ntx_thread_count(o->threads),
                             o->threads ? SPLIT_MIN_ASKED : SPLIT_MIN_AUTO);
    /* The scan is what more threads divide (ntx_scan_split), when it may be split: timed for the benchmarks. */
    double ph = split ? ntx_phase_begin() : 0;
    rc = scan(&b, pos);
    ntx_scan_split_end(&b.split);
    ntx_phase_end(ph);
    if (rc < 0)
        goto fail;
    uint64_t nblocks = x->own[B_BLOCKS].len / NTX_BLOCK_ENTRY;
    if (b.region_first < nblocks && (rc = close_region(&b, (uint32_t)nblocks, 0)) < 0)
        goto fail;
    if (nblocks)
        x->last_block_hash = ntx_trace_range_hash(t, x->last_block_off, ntx_load32(x->own[B_BLOCKS].bytes + (nblocks - 1) * NTX_BLOCK_ENTRY + 8));
    ntx_index_finish(x);
    if (regions_sorted(x))
        x->tb.flags |= NTX_IF_REGIONS_SORTED;
    if (t->map && !o->full) /* a --full build reads the trace again: it releases what it passed itself */
        ntx_trace_release(t, b.rd.released, t->size - b.rd.released);
    *out = x;
    return NTIDX_OK;
fail:
    if (sink && x->own[B_REGIONS].len)
        *out = x; /* the sink's readers may still be reading it: the caller closes it */
    else
        ntidx_index_close(&x);
    return rc;
}
