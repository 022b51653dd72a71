/* What a reader gives back of the mapped trace behind it (docs/architecture.md, "Memory and I/O"). */
#include "reader_internal.h"

/* A reader gives back what it has read every this many bytes of blocks. */
#define RELEASE_BYTES (32ull << 20)

/*
 * Give back the span of the blocks read since the last release, up to the page
 * boundary before its end (the page that holds the next block's start stays),
 * not past the first stack or label list block still cached (events point
 * into them), and in time order not past the first event still waiting to
 * be sorted (its payload, and those after it, are still to be handed out).
 * What is kept stays in the span for the next release.
 */
void ntx_reader_release(ntidx_reader *r)
{
    uint64_t end = r->rel_hi < r->live_lo ? r->rel_hi : r->live_lo;
    for (uint32_t i = 0; i < r->heap_len; i++)
        if (r->heap[i].off < end)
            end = r->heap[i].off;
    end &= ~(uint64_t)4095;
    if (end > r->rel_lo) {
        ntx_trace_release(r->t, r->rel_lo, end - r->rel_lo);
        r->rel_lo = end;
    }
    if (r->rel_lo >= r->rel_hi)
        r->rel_lo = r->rel_hi = 0;
    r->rel_bytes = 0;
}

/*
 * Block [off, off + size) is about to be read. Once the blocks read since the
 * last release add up to RELEASE_BYTES, their span is released first. A
 * plan's jumps back to the definitions that earlier regions hold are not
 * noted here (they are kept instead: ntx_trace_keep()): the span would reach
 * back over the regions between, which other threads may be reading (parallel
 * statistics), and a release of it would drop what they are about to read.
 */
void ntx_reader_note_read(ntidx_reader *r, uint64_t off, uint64_t size)
{
    if (!ntx_trace_hinted(r->t))
        return;
    if (r->rel_bytes >= RELEASE_BYTES)
        ntx_reader_release(r);
    if (r->rel_hi == r->rel_lo) {
        r->rel_lo = off;
        r->rel_hi = off + size;
    } else {
        if (off < r->rel_lo)
            r->rel_lo = off;
        if (off + size > r->rel_hi)
            r->rel_hi = off + size;
    }
    r->rel_bytes += size;
}
