/*
 * Building the side index: one pass over the block headers.
 *
 * For V4-V6 an event block's time range comes from its header when that can
 * be trusted (not 0/0, min <= max); otherwise, and always for V3 (which has
 * none), the block's event headers are decoded. Metadata, thread and
 * sequence-point blocks are read; everything else is only framed. Mapped
 * ranges already passed are released so memory stays flat whatever the
 * trace size. This is the index core's own scan: it needs the framing and
 * the decoders of event-block headers and sequence points, nothing above.
 * `--full` (per-block counts and filters, region statistics) is added by the
 * index lifecycle above the queries (src/ops/index_full.c).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hash.h"

#include "definitions.h"
#include "event_header.h"
#include "index_internal.h"
#include "map.h"

#define RELEASE_EVERY (64ull << 20)
#define PROGRESS_EVERY (16ull << 20)

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
    uint64_t released, next_progress;
    uint64_t ahead; /* scans that read the mapping (V3: every block decoded) read ahead to here */
    /* pread() header scan: a FastSerialization end tag left to check with the next read */
    int use_pread;
    uint64_t pending_tag;
    /* the last pread(): PREAD_WINDOW bytes of the file from win_at (win_len of them) */
    uint64_t win_at, win_len;
    uint8_t win[512];
    int touched; /* the scan has read the mapping since its last release */
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

/* Time range of an event block: the header's when trustworthy, else decoded. */
static int event_block_range(builder *b, const ntidx_block *blk, uint8_t *flags, uint64_t *lo, uint64_t *hi)
{
    ntx_hdr_block hb;
    int rc = ntx_hdr_block_init(&hb, b->t, blk, b->err);
    if (rc < 0)
        return rc;
    if (hb.version != 3 && ntx_hdr_block_range_known(&hb)) {
        *lo = hb.min_ts;
        *hi = hb.max_ts;
        *flags |= NTX_BF_RANGE;
        return 0;
    }
    uint64_t mn = UINT64_MAX, mx = 0, n = 0;
    const ntx_hdr *h;
    while ((rc = ntx_hdr_next_ref(&hb, &h, b->err)) == 1) {
        if (hb.version == 3 && h->metadata_id == 0) {
            *flags |= NTX_BF_METADATA;
            continue;
        }
        n++;
        if (h->timestamp < mn)
            mn = h->timestamp;
        if (h->timestamp > mx)
            mx = h->timestamp;
    }
    if (rc < 0)
        return rc;
    *flags |= NTX_BF_DECODED;
    if (n) {
        *flags |= NTX_BF_RANGE;
        *lo = mn;
        *hi = mx;
    } else {
        *flags |= NTX_BF_NO_EVENTS;
    }
    return 0;
}

/*
 * Frame the block at *pos from a small pread() of its first bytes instead of
 * touching the mapping: on a cached multi-GB trace a page fault per block
 * costs about three times a pread(), and most blocks need nothing more than
 * their header. Each pread() reads PREAD_WINDOW bytes: blocks that start
 * within them (a runtime's small stack blocks between its event blocks, and
 * the event block after them) are framed from that read, without another.
 * Framing sees FRAME_BYTES of the window (one more when the previous end tag
 * comes first), as if each block had been read on its own: the same blocks,
 * the same messages. `hdr` receives the event-block header bytes when they
 * were in those (else *hdr_len is 0); *whole points at the whole block when
 * the window holds it (else NULL).
 */
#define PREAD_WINDOW sizeof(((builder *)0)->win)
#define FRAME_BYTES 96
static int pread_block(builder *b, uint64_t *pos, ntidx_block *blk, uint8_t *hdr, size_t *hdr_len,
                       const uint8_t **whole, ntx_err *err)
{
    ntidx_trace *t = b->t;
    uint64_t at = *pos, read_at = at;
    size_t skip = 0;
    *hdr_len = 0;
    *whole = NULL;
    if (at > t->size)
        return ntx_err_at(err, NTIDX_E_CORRUPT, at, "block position is past the end of the file");
    if (b->pending_tag != UINT64_MAX) {
        read_at = b->pending_tag; /* the previous block's end tag, then this block */
        skip = 1;
    }
    uint64_t want = t->size - read_at < FRAME_BYTES + 1 ? t->size - read_at : FRAME_BYTES + 1;
    if (read_at < b->win_at || read_at + want > b->win_at + b->win_len) {
        uint64_t len = t->size - read_at < PREAD_WINDOW ? t->size - read_at : PREAD_WINDOW;
        ssize_t n = len ? pread(t->fd, b->win, (size_t)len, (off_t)read_at) : 0;
        b->win_at = read_at;
        b->win_len = n > 0 ? (uint64_t)n : 0;
        if (n < 0 || (uint64_t)n < len) /* the mapping says these bytes exist: a short read means trouble */
            return ntx_err_at(err, NTIDX_E_CORRUPT, read_at, "cannot read the trace here (file shrank?)");
    }
    const uint8_t *buf = b->win + (read_at - b->win_at);
    if (skip) {
        if (buf[0] != 6)
            return ntx_err_at(err, NTIDX_E_CORRUPT, b->pending_tag, "expected the end-of-object tag (6), found %u", buf[0]);
        b->pending_tag = UINT64_MAX;
    }
    uint64_t have = want - skip, unchecked = UINT64_MAX;
    int rc = t->gen == NTX_GEN_V6 ? ntx_v6_frame(buf + skip, have, at, t->size, pos, blk, err)
                                  : ntx_fastser_frame(buf + skip, have, at, t->size, pos, blk, &unchecked, err);
    if (rc == NTX_NEED_MORE) { /* an unusually long object header: frame it from the mapping */
        b->touched = 1;
        return ntx_next_block(t, pos, blk, err);
    }
    if (rc == 1) {
        b->pending_tag = unchecked;
        uint64_t ho = blk->payload_offset - at;
        if (blk->kind == NTIDX_BLOCK_EVENT && ho + 20 <= have && blk->payload_size >= 20) {
            memcpy(hdr, buf + skip + ho, 20);
            *hdr_len = 20;
        }
        uint64_t win_end = b->win_at + b->win_len;
        if (blk->payload_offset >= b->win_at && blk->payload_offset <= win_end &&
            blk->payload_size <= win_end - blk->payload_offset)
            *whole = b->win + (blk->payload_offset - b->win_at);
    }
    return rc;
}

static void release_passed(builder *b, uint64_t pos)
{
    if (pos - b->released >= RELEASE_EVERY) {
        /* Nothing to give back when the scan read only with pread() since (zapping a range walks it) */
        if (b->touched)
            ntx_trace_release(b->t, b->released, pos - b->released);
        b->touched = !b->use_pread;
        b->released = pos;
    }
}

static int scan(builder *b, uint64_t pos)
{
    ntidx_trace *t = b->t;
    ntidx_index *x = b->x;
    ntidx_block blk;
    for (;;) {
        if (b->o->progress && pos >= b->next_progress) {
            if (b->o->progress(b->o->progress_ctx, pos, t->size))
                return ntx_err_set(b->err, NTIDX_E_CANCELLED, "cancelled");
            b->next_progress = pos + PROGRESS_EVERY;
        }
        release_passed(b, pos);
        uint64_t at = pos;
        ntx_err walk = {0};
        uint8_t hdr[20] = {0};
        size_t hdr_len = 0;
        const uint8_t *payload = NULL; /* the block's payload, read already (else read from the mapping) */
        if (!b->use_pread)
            ntx_trace_walk_ahead(t, pos, &b->ahead);
        int rc = b->use_pread ? pread_block(b, &pos, &blk, hdr, &hdr_len, &payload, &walk)
                              : ntx_next_block(t, &pos, &blk, &walk);
        if (rc == 0) {
            x->flags |= NTX_IF_COMPLETE;
            x->indexed_end = pos;
            return 0;
        }
        if (rc == NTIDX_E_TRUNCATED) {
            x->indexed_end = at; /* a writer still going, or one that died: index what is complete */
            return 0;
        }
        if (rc < 0) {
            *b->err = walk;
            return rc;
        }
        if (blk.kind == NTIDX_BLOCK_TRACE)
            continue; /* read at open; not part of the table */
        if (blk.size > UINT32_MAX)
            return ntx_err_at(b->err, NTIDX_E_CORRUPT, blk.offset, "block of %llu bytes is too large to index",
                              (unsigned long long)blk.size);
        uint64_t index = x->own[B_BLOCKS].len / NTX_BLOCK_ENTRY;
        if (index >= UINT32_MAX - 1)
            return ntx_err_at(b->err, NTIDX_E_UNSUPPORTED, blk.offset, "more than 2^32 blocks");
        uint8_t flags = 0;
        uint64_t lo = 0, hi = 0;
        if (blk.kind == NTIDX_BLOCK_EVENT) {
            uint16_t hs = hdr_len ? ntx_load16(hdr) : 0;
            uint64_t hmin = hdr_len ? ntx_load64(hdr + 4) : 0, hmax = hdr_len ? ntx_load64(hdr + 12) : 0;
            if (hdr_len && hs >= 20 && hs <= blk.payload_size && ntx_block_range_known(hmin, hmax)) {
                /* the header's range can be trusted: the block itself need not be touched */
                lo = hmin;
                hi = hmax;
                flags |= NTX_BF_RANGE;
            } else {
                b->touched = 1; /* its events' headers are decoded from the mapping */
                if ((rc = event_block_range(b, &blk, &flags, &lo, &hi)) < 0)
                    return rc;
            }
            if (flags & NTX_BF_RANGE) {
                if (lo < b->region_min)
                    b->region_min = lo;
                if (hi > b->region_max)
                    b->region_max = hi;
                if (lo < x->first_ts)
                    x->first_ts = lo;
                if (hi > x->last_ts)
                    x->last_ts = hi;
            }
            if ((flags & NTX_BF_METADATA) && (rc = add_def(b, (uint32_t)index, NTIDX_BLOCK_EVENT)) < 0)
                return rc;
        } else if (blk.kind == NTIDX_BLOCK_METADATA || blk.kind == NTIDX_BLOCK_THREAD ||
                   blk.kind == NTIDX_BLOCK_REMOVE_THREAD) {
            if ((rc = add_def(b, (uint32_t)index, (uint8_t)blk.kind)) < 0)
                return rc;
        }
        uint8_t *p = sec_append(b, B_BLOCKS, NTX_BLOCK_ENTRY);
        if (!p)
            return nomem(b);
        ntx_store64(p, blk.offset);
        ntx_store32(p + 8, (uint32_t)blk.size);
        p[12] = (uint8_t)blk.kind;
        p[13] = flags;
        ntx_store32(p + 16, (uint32_t)(x->own[B_REGIONS].len / NTX_REGION_ENTRY));
        ntx_store32(p + 20, UINT32_MAX);
        ntx_store64(p + 24, lo);
        ntx_store64(p + 32, hi);
        x->last_block_off = blk.offset;
        x->indexed_end = pos;
        if (blk.kind == NTIDX_BLOCK_SEQUENCE_POINT) {
            ntx_seqpoint sp;
            b->touched |= !payload;
            rc = payload ? ntx_decode_sequence_point_bytes(payload, &blk, t->gen == NTX_GEN_V6, &sp, NULL, NULL, b->err)
                         : ntx_decode_sequence_point(t, &blk, &sp, NULL, NULL, b->err);
            if (rc < 0)
                return rc;
            uint8_t *s = sec_append(b, B_SPS, NTX_SP_ENTRY);
            if (!s)
                return nomem(b);
            ntx_store64(s, blk.offset);
            ntx_store64(s + 8, sp.timestamp);
            ntx_store32(s + 16, sp.flags);
            ntx_store32(s + 20, (uint32_t)index);
            if ((rc = close_region(b, (uint32_t)index + 1, 1)) < 0)
                return rc;
            /* Flushes take effect after the sequence point: the next region starts a new epoch. */
            if (t->gen == NTX_GEN_V6 && (sp.flags & 2u))
                b->meta_epoch++;
            if (t->gen == NTX_GEN_V6 && (sp.flags & 1u))
                b->thread_epoch++;
            b->region_first = (uint32_t)index + 1;
            b->region_min = UINT64_MAX;
            b->region_max = 0;
            b->region_start_ts = sp.timestamp;
            if (b->sink) {
                ntx_index_finish(x);
                b->sink->region_closed(b->sink->ctx, x);
            }
        }
    }
}

void ntx_index_finish(ntidx_index *x)
{
    x->blocks = x->own[B_BLOCKS].bytes;
    x->nblocks = x->own[B_BLOCKS].len / NTX_BLOCK_ENTRY;
    x->sps = x->own[B_SPS].bytes;
    x->nsps = x->own[B_SPS].len / NTX_SP_ENTRY;
    x->regions = x->own[B_REGIONS].bytes;
    x->nregions = x->own[B_REGIONS].len / NTX_REGION_ENTRY;
    x->defs = x->own[B_DEFS].bytes;
    x->ndefs = x->own[B_DEFS].len / NTX_DEF_ENTRY;
    x->filters = x->own[B_FILTERS].len ? x->own[B_FILTERS].bytes : NULL;
    x->sb = NTX_BLOCK_ENTRY;
    x->ss = NTX_SP_ENTRY;
    x->sr = NTX_REGION_ENTRY;
    x->sd = NTX_DEF_ENTRY;
    x->sf = NTX_FILTER_ENTRY;
}

/* Regions never going back in time make binary search valid. */
static int regions_sorted(const ntidx_index *x)
{
    uint64_t prev_max = 0;
    for (uint64_t i = 0; i < x->nregions; i++) {
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
    uint64_t pos;
    int rc = 0;
    if (from) {
        /* Resume: copy the prefix, reopen its last region if no sequence point closed it. */
        const uint8_t *src[4] = {from->blocks, from->sps, from->regions, from->defs};
        uint64_t count[4] = {from->nblocks, from->nsps, from->nregions, from->ndefs};
        uint32_t stride[4] = {from->sb, from->ss, from->sr, from->sd};
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
        uint64_t nr = from->nregions;
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
            uint32_t spf = from->nsps ? ntx_sp_flags(from, from->nsps - 1) : 0;
            b.region_first = ntx_rg_end(from, nr - 1);
            b.region_start_ts = from->nsps ? ntx_sp_ts(from, from->nsps - 1) : 0;
            b.meta_epoch = ntx_rg_meta_epoch(from, nr - 1) + (t->gen == NTX_GEN_V6 && (spf & 2u));
            b.thread_epoch = ntx_rg_thread_epoch(from, nr - 1) + (t->gen == NTX_GEN_V6 && (spf & 1u));
        }
        pos = from->indexed_end;
        b.released = pos & ~(uint64_t)4095;
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
    b.pending_tag = UINT64_MAX;
    b.use_pread = t->fd >= 0 && t->gen != NTX_GEN_NETPERF;
    b.touched = 1; /* the identity hash read the trace's first MiB */
    x->indexed_end = pos;
    if ((rc = scan(&b, pos)) < 0)
        goto fail;
    uint64_t nblocks = x->own[B_BLOCKS].len / NTX_BLOCK_ENTRY;
    if (b.region_first < nblocks && (rc = close_region(&b, (uint32_t)nblocks, 0)) < 0)
        goto fail;
    if (nblocks)
        x->last_block_hash = ntx_trace_range_hash(t, x->last_block_off, ntx_load32(x->own[B_BLOCKS].bytes + (nblocks - 1) * NTX_BLOCK_ENTRY + 8));
    ntx_index_finish(x);
    if (regions_sorted(x))
        x->flags |= NTX_IF_REGIONS_SORTED;
    if (t->map && !o->full) /* a --full build reads the trace again: it releases what it passed itself */
        ntx_trace_release(t, b.released, t->size - b.released);
    *out = x;
    return NTIDX_OK;
fail:
    if (sink && x->own[B_REGIONS].len)
        *out = x; /* the sink's readers may still be reading it: the caller closes it */
    else
        ntidx_index_close(&x);
    return rc;
}
