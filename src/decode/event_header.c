#include "event_header.h"

#include <string.h>

#include "cursor.h"
#include "trace_internal.h"

static const uint8_t ZERO_GUID[16];

#define BLOCK_HEADER_MIN 20 /* HeaderSize, Flags, MinTs, MaxTs */
#define V3_HEADER 56
#define V4_HEADER 80
#define V6_HEADER 52
#define NOT_SORTED_BIT 0x80000000u


int ntx_hdr_block_init(ntx_hdr_block *hb, const ntidx_trace *t, const ntidx_block *b, ntx_err *err)
{
    memset(hb, 0, sizeof *hb);
    hb->base = t->data;
    hb->block_offset = b->offset;
    hb->p = t->data + b->payload_offset;
    hb->end = hb->p + b->payload_size;
    hb->prev.activity = hb->prev.related = ZERO_GUID;
    if (t->gen == NTX_GEN_NETPERF) {
        hb->version = 3;
        return NTIDX_OK;
    }
    hb->version = t->gen == NTX_GEN_V6 ? 6 : 4;
    ntx_cur c;
    ntx_cur_init(&c, t->data, b->payload_offset, b->payload_size);
    hb->header_size = ntx_cur_u16(&c);
    hb->flags = ntx_cur_u16(&c);
    hb->min_ts = ntx_cur_u64(&c);
    hb->max_ts = ntx_cur_u64(&c);
    if (c.err)
        return ntx_err_at(err, NTIDX_E_CORRUPT, b->payload_offset, "%s block of %llu bytes is too short for its header",
                          ntidx_block_kind_name(b->kind), (unsigned long long)b->payload_size);
    if (hb->header_size < BLOCK_HEADER_MIN || hb->header_size > b->payload_size)
        return ntx_err_at(err, NTIDX_E_CORRUPT, b->payload_offset, "%s block header size %u is outside [20, %llu]",
                          ntidx_block_kind_name(b->kind), hb->header_size, (unsigned long long)b->payload_size);
    hb->compressed = hb->flags & 1;
    if (hb->version == 6)
        hb->prev.activity = hb->prev.related = NULL;
    hb->p += hb->header_size; /* extra header bytes are reserved for later versions */
    return NTIDX_OK;
}

int ntx_hdr_row_error(ntx_hdr_block *hb, const uint8_t *at, ntx_err *err, const char *what)
{
    hb->p = hb->end; /* stop this block */
    return ntx_err_at(err, NTIDX_E_CORRUPT, (uint64_t)(at - hb->base), "event row: %s", what);
}

static int next_v3(ntx_hdr_block *hb, ntx_hdr *h, ntx_err *err)
{
    const uint8_t *at = hb->p;
    uint64_t left = (uint64_t)(hb->end - at);
    if (left < V3_HEADER)
        return ntx_hdr_row_error(hb, at, err, "fewer bytes left in the block than a V3 event header");
    uint32_t size = ntx_load32(at);
    memset(h, 0, sizeof *h);
    h->offset = (uint64_t)(at - hb->base);
    h->metadata_id = ntx_load32(at + 4);
    h->thread = h->capture = ntx_load32(at + 8);
    h->timestamp = ntx_load64(at + 12);
    h->activity = at + 20;
    h->related = at + 36;
    h->payload_size = ntx_load32(at + 52);
    /* EventSize counts everything after itself, stack and padding included. */
    if (size > left - 4 || size < V3_HEADER - 4 + 4ull + h->payload_size)
        return ntx_hdr_row_error(hb, at, err, "event size disagrees with its payload size or the block");
    h->payload_off = h->offset + V3_HEADER;
    const uint8_t *sp = at + V3_HEADER + h->payload_size;
    uint32_t stack_size = ntx_load32(sp);
    if (stack_size > (uint64_t)(at + 4 + size - (sp + 4)))
        return ntx_hdr_row_error(hb, at, err, "inline stack runs past the event");
    h->stack = stack_size ? sp + 4 : NULL;
    h->stack_size = stack_size;
    h->is_sorted = 1; /* V3 writers emit events in time order */
    hb->p = at + 4 + size;
    return 1;
}

/* Whether an uncompressed V4/V5 row can start at p (left bytes to the block's end): its sizes fit. */
static int plausible_v4_row(const uint8_t *p, uint64_t left)
{
    if (left < V4_HEADER)
        return 0;
    uint32_t size = ntx_load32(p);
    return size <= left - 4 && size >= V4_HEADER - 4 + (uint64_t)ntx_load32(p + 76);
}

static int next_uncompressed(ntx_hdr_block *hb, ntx_hdr *h, ntx_err *err)
{
    const uint8_t *at = hb->p;
    uint64_t left = (uint64_t)(hb->end - at);
    unsigned hsize = hb->version == 6 ? V6_HEADER : V4_HEADER;
    if (left < hsize)
        return ntx_hdr_row_error(hb, at, err, "fewer bytes left in the block than an uncompressed event header");
    uint32_t size = ntx_load32(at);
    uint32_t mid = ntx_load32(at + 4);
    memset(h, 0, sizeof *h);
    h->offset = (uint64_t)(at - hb->base);
    h->metadata_id = mid & ~NOT_SORTED_BIT;
    h->is_sorted = !(mid & NOT_SORTED_BIT);
    h->seq = ntx_load32(at + 8);
    h->thread = ntx_load64(at + 12);
    h->capture = ntx_load64(at + 20);
    h->proc = ntx_load32(at + 28);
    h->stack_id = ntx_load32(at + 32);
    h->timestamp = ntx_load64(at + 36);
    if (hb->version == 6) {
        h->label_id = ntx_load32(at + 44);
        h->payload_size = ntx_load32(at + 48);
        h->activity = h->related = NULL;
    } else {
        h->activity = at + 44;
        h->related = at + 60;
        h->payload_size = ntx_load32(at + 76);
    }
    if (size > left - 4 || size < hsize - 4 + (uint64_t)h->payload_size)
        return ntx_hdr_row_error(hb, at, err, "event size disagrees with its payload size or the block");
    h->payload_off = h->offset + hsize;
    const uint8_t *next = at + 4 + size;
    if (hb->version != 6 && ((uint64_t)(next - hb->base) & 3)) {
        /* V4/V5: the spec pads a row to a 4-byte file offset and its EventSize counts the padding (as the
           runtime and ntidx write it); TraceEvent's test writer pads nothing, and the next row starts
           right after the payload. A writer that pads without counting the padding is read too: up to
           three zero bytes are skipped when no row can start before them. */
        uint64_t pad = 4 - ((uint64_t)(next - hb->base) & 3);
        if (pad <= (uint64_t)(hb->end - next) && !memcmp(next, ZERO_GUID, pad) &&
            !plausible_v4_row(next, (uint64_t)(hb->end - next)))
            next += pad;
    }
    hb->p = next;
    return 1;
}

ntx_varu_read ntx_hdr_varu_slow(const uint8_t *p, const uint8_t *end, unsigned bits)
{
    ntx_varu_read r = {NULL, 0};
    if (ntx_varu64_fast(&p, end, &r.v) && (bits == 64 || r.v <= 0xffffffffu))
        r.p = p;
    return r;
}

int ntx_hdr_next_ref(ntx_hdr_block *hb, const ntx_hdr **h, ntx_err *err)
{
    if (hb->p >= hb->end)
        return 0;
    if (hb->compressed) {
        *h = &hb->prev;
        return ntx_hdr_next_compressed(hb, err);
    }
    *h = &hb->cur;
    return hb->version == 3 ? next_v3(hb, &hb->cur, err) : next_uncompressed(hb, &hb->cur, err);
}

int ntx_hdr_next(ntx_hdr_block *hb, ntx_hdr *h, ntx_err *err)
{
    const ntx_hdr *r;
    int rc = ntx_hdr_next_ref(hb, &r, err);
    if (rc == 1)
        *h = *r;
    return rc;
}

static int block_time_range(ntidx_trace *t, const ntidx_block *b, uint64_t *min_ts, uint64_t *max_ts,
                            uint64_t *events);

NTIDX_API int ntidx_event_block_time_range(ntidx_trace *t, const ntidx_block *b, uint64_t *min_ts, uint64_t *max_ts,
                                           uint64_t *events)
{
    if (!t || !b || !min_ts || !max_ts || b->kind != NTIDX_BLOCK_EVENT)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? t->name : NULL, NTIDX_NO_OFFSET,
                         "ntidx_event_block_time_range: NULL argument or not an event block");
    int rc = block_time_range(t, b, min_ts, max_ts, events);
    ntx_err err = {0};
    if (ntx_trace_faulted(t)) /* the headers were read from zeros (trace_internal.h) */
        return ntx_fail(ntx_trace_check(t, &err), t->name, &err);
    return rc;
}

static int block_time_range(ntidx_trace *t, const ntidx_block *b, uint64_t *min_ts, uint64_t *max_ts,
                            uint64_t *events)
{
    ntx_err err = {0};
    ntx_hdr_block hb;
    int rc = ntx_hdr_block_init(&hb, t, b, &err);
    if (rc < 0)
        return ntx_fail(rc, t->name, &err);
    if (events)
        *events = UINT64_MAX;
    if (hb.version != 3 && ntx_hdr_block_range_known(&hb)) {
        *min_ts = hb.min_ts;
        *max_ts = hb.max_ts;
        return 1;
    }
    uint64_t lo = UINT64_MAX, hi = 0, n = 0;
    ntx_hdr h;
    while ((rc = ntx_hdr_next(&hb, &h, &err)) == 1) {
        if (hb.version == 3 && h.metadata_id == 0)
            continue; /* V3 metadata rows live in event blocks */
        n++;
        if (h.timestamp < lo)
            lo = h.timestamp;
        if (h.timestamp > hi)
            hi = h.timestamp;
    }
    if (rc < 0)
        return ntx_fail(rc, t->name, &err);
    if (events)
        *events = n;
    if (!n)
        return 0;
    *min_ts = lo;
    *max_ts = hi;
    return 1;
}
