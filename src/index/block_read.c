/*
 * Reading one block for the header scan (block_read.h).
 *
 * For V4-V6 an event block's time range comes from its header when that can
 * be trusted (not 0/0, min <= max); otherwise, and always for V3 (which has
 * none), the block's event headers are decoded from the mapping. Sequence
 * points are decoded; everything else is only framed.
 */
#include <string.h>
#include <unistd.h>

#include "block_read.h"
#include "definitions.h"
#include "event_header.h"
#include "index_format.h"

#define RELEASE_EVERY (64ull << 20)

void ntx_block_reader_init(ntx_block_reader *r, ntidx_trace *t, int use_pread, uint64_t released)
{
    memset(r, 0, offsetof(ntx_block_reader, win));
    r->t = t;
    r->fd = t->fd;
    r->use_pread = use_pread;
    r->pending_tag = UINT64_MAX;
    r->released = released;
    r->touched = 1;
}

/* Time range of an event block decoded from its events' headers (the header's cannot be trusted). */
static int event_block_range(ntidx_trace *t, const ntidx_block *blk, uint8_t *flags, uint64_t *lo, uint64_t *hi,
                             ntx_err *err)
{
    ntx_hdr_block hb;
    int rc = ntx_hdr_block_init(&hb, t, blk, err);
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
    while ((rc = ntx_hdr_next_ref(&hb, &h, err)) == 1) {
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
 * Framing sees FRAME_BYTES of the window from the block's start (the previous
 * end tag, when it comes first, is checked on its own), as if each block had
 * been read on its own: the same blocks, the same messages, whatever was read
 * before. `hdr` receives the event-block header bytes when they were in those
 * (else *hdr_len is 0); *whole points at the whole block when the window holds
 * it (else NULL).
 */
#define PREAD_WINDOW sizeof(((ntx_block_reader *)0)->win)
#define FRAME_BYTES 97
static int pread_block(ntx_block_reader *r, uint64_t *pos, ntidx_block *blk, uint8_t *hdr, size_t *hdr_len,
                       const uint8_t **whole, ntx_err *err)
{
    ntidx_trace *t = r->t;
    uint64_t at = *pos, read_at = at;
    size_t skip = 0;
    *hdr_len = 0;
    *whole = NULL;
    if (at > t->size)
        return ntx_err_at(err, NTIDX_E_CORRUPT, at, "block position is past the end of the file");
    if (r->pending_tag != UINT64_MAX) {
        read_at = r->pending_tag; /* the previous block's end tag, then this block */
        skip = 1;
    }
    uint64_t want = skip + (t->size - at < FRAME_BYTES ? t->size - at : FRAME_BYTES);
    if (read_at < r->win_at || read_at + want > r->win_at + r->win_len) {
        uint64_t len = t->size - read_at < PREAD_WINDOW ? t->size - read_at : PREAD_WINDOW;
        ssize_t n = len ? pread(r->fd, r->win, (size_t)len, (off_t)read_at) : 0;
        r->win_at = read_at;
        r->win_len = n > 0 ? (uint64_t)n : 0;
        if (n < 0 || (uint64_t)n < len) { /* the mapping says these bytes exist: a short read means trouble */
            int c = ntx_trace_check_end(t, err); /* the file shrank: say so, with its size now */
            return c < 0 ? c : ntx_err_at(err, NTIDX_E_CORRUPT, read_at, "cannot read the trace here");
        }
    }
    const uint8_t *buf = r->win + (read_at - r->win_at);
    if (skip) {
        if (buf[0] != 6)
            return ntx_err_at(err, NTIDX_E_CORRUPT, r->pending_tag, "expected the end-of-object tag (6), found %u", buf[0]);
        r->pending_tag = UINT64_MAX;
    }
    uint64_t have = want - skip, unchecked = UINT64_MAX;
    int rc = t->gen == NTX_GEN_V6 ? ntx_v6_frame(buf + skip, have, at, t->size, pos, blk, err)
                                  : ntx_fastser_frame(buf + skip, have, at, t->size, pos, blk, &unchecked, err);
    if (rc == NTX_NEED_MORE) { /* an unusually long object header: frame it from the mapping */
        r->touched = 1;
        return ntx_next_block(t, pos, blk, err);
    }
    if (rc == 1) {
        r->pending_tag = unchecked;
        uint64_t ho = blk->payload_offset - at;
        if (blk->kind == NTIDX_BLOCK_EVENT && ho + 20 <= have && blk->payload_size >= 20) {
            memcpy(hdr, buf + skip + ho, 20);
            *hdr_len = 20;
        }
        uint64_t win_end = r->win_at + r->win_len;
        if (blk->payload_offset >= r->win_at && blk->payload_offset <= win_end &&
            blk->payload_size <= win_end - blk->payload_offset)
            *whole = r->win + (blk->payload_offset - r->win_at);
    }
    return rc;
}

void ntx_block_reader_release(ntx_block_reader *r, uint64_t pos)
{
    if (pos - r->released >= RELEASE_EVERY) {
        /* Nothing to give back when the scan read only with pread() since (zapping a range walks it) */
        if (r->touched)
            ntx_trace_release(r->t, r->released, pos - r->released);
        r->touched = !r->use_pread;
        r->released = pos;
    }
}

static int block_read(ntx_block_reader *r, uint64_t at, ntx_scan_rec *rec, ntx_err *err)
{
    ntidx_trace *t = r->t;
    ntidx_block *blk = &rec->blk;
    uint64_t pos = at;
    uint8_t hdr[20] = {0};
    size_t hdr_len = 0;
    const uint8_t *payload = NULL; /* the block's payload, read already (else read from the mapping) */
    rec->at = at;
    rec->flags = 0;
    rec->lo = rec->hi = 0;
    rec->framed = 0;
    if (!r->use_pread || r->stream)
        ntx_trace_walk_ahead(t, pos, &r->ahead);
    int rc = r->use_pread ? pread_block(r, &pos, blk, hdr, &hdr_len, &payload, err) : ntx_next_block(t, &pos, blk, err);
    rec->next = pos;
    if (rc != 1)
        return rec->rc = rc;
    rec->framed = 1;
    /* Blocks the index refuses (index_scan.c) are not read further: it says so before anything else. */
    if (blk->kind == NTIDX_BLOCK_TRACE || blk->size > UINT32_MAX)
        return rec->rc = 1;
    if (blk->kind == NTIDX_BLOCK_EVENT) {
        uint16_t hs = hdr_len ? ntx_load16(hdr) : 0;
        uint64_t hmin = hdr_len ? ntx_load64(hdr + 4) : 0, hmax = hdr_len ? ntx_load64(hdr + 12) : 0;
        if (hdr_len && hs >= 20 && hs <= blk->payload_size && ntx_block_range_known(hmin, hmax)) {
            /* the header's range can be trusted: the block itself need not be touched */
            rec->lo = hmin;
            rec->hi = hmax;
            rec->flags |= NTX_BF_RANGE;
        } else {
            r->touched = 1; /* its events' headers are decoded from the mapping */
            if ((rc = event_block_range(t, blk, &rec->flags, &rec->lo, &rec->hi, err)) < 0)
                return rec->rc = rc;
        }
    } else if (blk->kind == NTIDX_BLOCK_SEQUENCE_POINT) {
        ntx_seqpoint sp;
        r->touched |= !payload;
        rc = payload ? ntx_decode_sequence_point_bytes(payload, blk, t->gen == NTX_GEN_V6, &sp, NULL, NULL, err)
                     : ntx_decode_sequence_point(t, blk, &sp, NULL, NULL, err);
        if (rc < 0)
            return rec->rc = rc;
        rec->sp_ts = sp.timestamp;
        rec->sp_flags = sp.flags;
    }
    return rec->rc = 1;
}

int ntx_block_read(ntx_block_reader *r, uint64_t at, ntx_scan_rec *rec, ntx_err *err)
{
    int rc = block_read(r, at, rec, err);
    /* What was decoded from the mapping (framing, an event block's headers, a sequence point) may be the zeros
       of a file that shrank under the scan; an error may be theirs. */
    if (rc < 0 || ntx_trace_faulted(r->t)) {
        int c = rc < 0 ? ntx_trace_check_end(r->t, err) : ntx_trace_check(r->t, err);
        if (c < 0)
            rc = rec->rc = c;
    }
    return rc;
}

void ntx_block_reader_jump(ntx_block_reader *r, uint64_t pos, uint64_t to, uint64_t pending_tag)
{
    if (r->touched && pos > r->released)
        ntx_trace_release(r->t, r->released, pos - r->released);
    r->touched = 0;
    r->released = to & ~(uint64_t)4095;
    r->pending_tag = pending_tag;
    r->win_at = r->win_len = 0;
}
