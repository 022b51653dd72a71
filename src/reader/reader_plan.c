/*
 * Plans (reader_plan.h): the blocks a query visits, in file order, and the
 * read-ahead that asks the kernel for them exactly, ahead of the reader.
 */
#include "definitions.h"
#include "reader_internal.h"

void ntx_reader_set_plan(ntidx_reader *r, ntx_plan_refill_fn refill, void *ctx)
{
    static const ntx_plan_step none[1];
    r->plan = none;
    r->plan_len = 0;
    r->plan_pos = 0;
    r->plan_ahead = 0;
    r->plan_asked = 0;
    r->plan_refill = refill;
    r->plan_ctx = ctx;
}

/*
 * A plan reads ahead of itself: the blocks it is about to read are asked of
 * the kernel exactly (adjacent ones in one range), so a trace that is not in
 * the page cache is read with a few reads of what the plan needs, never with
 * page faults that pull in read-ahead around them (the mapping is advised
 * random access). Not the whole plan at once: a seek or a query with a limit
 * may stop after its first blocks. The first read-ahead of a reader is
 * PLAN_AHEAD_FIRST bytes of blocks (a 10 ms window's or a seek's blocks of a
 * runtime's trace), each next one twice the last, up to PLAN_AHEAD_MAX; each
 * is mapped when the reader reaches it.
 *
 * A reader that goes on past its first read-aheads is a pass: from then on
 * the kernel is also asked for the next read-ahead's blocks while the reader
 * decodes this one's (and, by ntx_reader_ask_ahead(), for the next region's
 * while it reads the last of this one), so a cold pass reads the disk while
 * it decodes instead of in turns with it.
 */
#define PLAN_AHEAD_FIRST (256u << 10)
#define PLAN_AHEAD_MAX (4u << 20)
#define PLAN_PASS (1u << 20) /* read-aheads this large are a pass's */

/* Steps from `*from` holding up to `bytes` bytes of blocks: each run of adjacent blocks handed to `use`. */
static size_t plan_ranges(ntidx_reader *r, size_t from, uint64_t bytes,
                          void (*use)(const ntidx_trace *, uint64_t, uint64_t))
{
    uint64_t ahead = 0, lo = 0, hi = 0;
    while (from < r->plan_len && ahead < bytes) {
        const ntx_plan_step *st = &r->plan[from++];
        if (!st->size)
            continue;
        if (hi > lo && st->offset != hi) {
            use(r->t, lo, hi - lo);
            lo = hi = 0;
        }
        if (hi == lo)
            lo = st->offset;
        hi = st->offset + st->size;
        ahead += st->size;
    }
    if (hi > lo)
        use(r->t, lo, hi - lo);
    return from;
}

static void plan_read_ahead(ntidx_reader *r)
{
    if (!ntx_trace_hinted(r->t))
        return;
    if (r->plan_ahead < r->plan_pos)
        r->plan_ahead = r->plan_pos;
    r->plan_ahead_bytes = !r->plan_ahead_bytes ? PLAN_AHEAD_FIRST
                          : r->plan_ahead_bytes < PLAN_AHEAD_MAX ? 2 * r->plan_ahead_bytes
                                                                 : PLAN_AHEAD_MAX;
    /* Every range of the read-ahead asked for first, then each mapped: a cold window's ranges (its
       definitions and stacks, its event blocks, apart in the file) are read from the disk at the same
       time, not each after the last one's wait. */
    /* a pass's ranges streamed (ntx_trace_stream()); a window's read exactly */
    int pass = r->plan_ahead_bytes >= PLAN_PASS;
    plan_ranges(r, r->plan_ahead, r->plan_ahead_bytes, pass ? ntx_trace_stream : ntx_trace_prefetch);
    r->plan_ahead = plan_ranges(r, r->plan_ahead, r->plan_ahead_bytes, ntx_trace_map_now);
    if (pass && r->plan_asked < r->plan_ahead + r->plan_ahead_bytes / 4096)
        r->plan_asked = plan_ranges(r, r->plan_ahead > r->plan_asked ? r->plan_ahead : r->plan_asked,
                                    r->plan_ahead_bytes, ntx_trace_stream);
}

void ntx_reader_ask_ahead(ntidx_reader *r, uint64_t off, uint64_t len)
{
    if (r->plan_ahead_bytes >= PLAN_PASS)
        ntx_trace_stream(r->t, off, len);
}

/* Next block of the plan; 0 at its end. */
int ntx_reader_plan_next_block(ntidx_reader *r, ntidx_block *b, int defer_barriers)
{
    for (;;) {
        if (r->plan_pos >= r->plan_len) {
            int rc = r->plan_refill ? r->plan_refill(r->plan_ctx, &r->plan, &r->plan_len, &r->err) : 0;
            if (rc <= 0)
                return rc < 0 ? ntx_err_set(&r->err, rc, "cannot plan the query") : 0;
            r->plan_pos = 0;
            r->plan_ahead = 0;
            r->plan_asked = 0;
            continue;
        }
        if (r->plan_ahead <= r->plan_pos)
            plan_read_ahead(r);
        const ntx_plan_step *st = &r->plan[r->plan_pos++];
        if (st->forget_seq)
            ntx_reader_forget_sequences(r);
        if (st->op == NTX_OP_RESET) {
            if (defer_barriers) {
                r->pending_reset = 1;
                return 2;
            }
            ntx_reader_reset_caches(r);
            continue;
        }
        if (st->op == NTX_OP_ORIGIN) {
            r->seq_from_zero = 1;
            continue;
        }
        uint64_t pos = st->offset;
        ntx_err walk = {0};
        int rc = ntx_next_block(r->t, &pos, b, &walk);
        if (rc != 1) {
            /* The index was validated against this trace: a miss means the file changed under us. */
            return ntx_err_at(&r->err, NTIDX_E_CORRUPT, st->offset,
                              "the index points at a block here but the trace has none (%s)",
                              walk.msg[0] ? walk.msg : "end of stream");
        }
        if (st->op == NTX_OP_BASELINE) {
            if (st->keep) /* another region's, which its own reader releases */
                ntx_trace_keep(r->t, b->offset, b->size);
            ntx_seqpoint sp;
            if ((rc = ntx_decode_sequence_point(r->t, b, &sp, ntx_reader_seq_baseline, r, &r->err)) < 0)
                return rc;
            if (sp.flushes & NTX_FLUSH_THREADS) {
                /* it flushed the threads: as after a full read's checks, every thread counts from 0 */
                ntx_reader_seq_all_from_zero(r);
                r->seq_from_zero = 1;
            }
            continue;
        }
        return st->op == NTX_OP_CONTEXT ? 3 : 1;
    }
}
