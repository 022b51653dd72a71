/* The definitions before a block, walked through the index (index_walk.h). */
#include "definitions.h"
#include "index_tables.h"
#include "index_walk.h"
#include "search.h"
#include "trace_internal.h"

struct at_key {
    const ntidx_index *x;
    uint64_t v;
};

static int sp_before_block(const void *ctx, uint64_t i)
{
    const struct at_key *k = ctx;
    return ntx_sp_block(k->x, i) < k->v;
}

static int def_before_thread_epoch(const void *ctx, uint64_t i)
{
    const struct at_key *k = ctx;
    return ntx_def_thread_epoch(k->x, i) < k->v;
}

static int is_thread_def(const ntidx_index *x, uint64_t d)
{
    uint8_t k = ntx_def_kind(x, d);
    return k == NTIDX_BLOCK_THREAD || k == NTIDX_BLOCK_REMOVE_THREAD;
}

void ntx_defs_walk_start(ntx_defs_walk *w, ntidx_trace *t, const ntidx_index *x, const ntx_defs_visitor *v, uint64_t j)
{
    w->t = t;
    w->x = x;
    w->v = *v;
    w->v6 = t->gen == NTX_GEN_V6;
    w->bytes = 0;
    struct at_key k = {x, j};
    w->sp_next = ntx_lower_bound(ntx_index_sp_count(x), sp_before_block, &k);
    w->def_next = ntx_index_def_count(x);
    if (!w->v6)
        return;
    /* Threads live from their thread epoch's start: begin at its first definition. */
    k.v = ntx_rg_thread_epoch(x, ntx_blk_region(x, j));
    w->def_next = ntx_lower_bound(ntx_index_def_count(x), def_before_thread_epoch, &k);
}

/* Block i of the index, read from the trace. */
static int read_block(ntx_defs_walk *w, uint64_t i, ntidx_block *b, ntx_err *err)
{
    uint64_t pos = ntx_blk_offset(w->x, i);
    ntx_err walk = {0};
    if (ntx_next_block(w->t, &pos, b, &walk) != 1)
        return ntx_err_at(err, NTIDX_E_CORRUPT, ntx_blk_offset(w->x, i),
                          "the index points at a block here but the trace has none (%s)",
                          walk.msg[0] ? walk.msg : "end of stream");
    w->bytes += b->size;
    return 0;
}

static int sequence_point(ntx_defs_walk *w, uint64_t i, ntx_err *err)
{
    ntidx_block b;
    int rc = read_block(w, ntx_sp_block(w->x, i), &b, err);
    if (rc < 0)
        return rc;
    ntx_seqpoint sp;
    if ((rc = ntx_decode_sequence_point(w->t, &b, &sp, w->v.sp_thread, w->v.ctx, err)) < 0)
        return rc;
    return w->v.sequence_point(w->v.ctx, sp.timestamp, w->v6 ? sp.flags : 0, sp.flushes);
}

/* The decoders' callback for thread rows, handed on without the thread's name. */
static int thread_row(void *ctx, const ntidx_thread *th, const ntx_thread_row *row)
{
    const ntx_defs_walk *w = ctx;
    return w->v.thread_row(w->v.ctx, th->index, row->offset, row->size);
}

static int definition(ntx_defs_walk *w, uint64_t d, ntx_err *err)
{
    ntidx_block b;
    int rc = read_block(w, ntx_def_block(w->x, d), &b, err);
    if (rc < 0)
        return rc;
    if (b.kind == NTIDX_BLOCK_THREAD)
        return ntx_decode_thread_block(w->t, &b, NULL, thread_row, w, err);
    if ((rc = ntx_decode_remove_thread_block(w->t, &b, w->v.removed_thread, w->v.ctx, err)) < 0)
        return rc;
    return w->v.removals_done(w->v.ctx);
}

int ntx_defs_walk_to(ntx_defs_walk *w, uint64_t j, ntx_err *err)
{
    const ntidx_index *x = w->x;
    for (;;) {
        uint64_t sb = w->sp_next < ntx_index_sp_count(x) ? ntx_sp_block(x, w->sp_next) : UINT64_MAX;
        uint64_t db = UINT64_MAX;
        if (w->v6) {
            while (w->def_next < ntx_index_def_count(x) && !is_thread_def(x, w->def_next))
                w->def_next++;
            if (w->def_next < ntx_index_def_count(x))
                db = ntx_def_block(x, w->def_next);
        }
        if (sb >= j && db >= j)
            return 0;
        int rc = sb < db ? sequence_point(w, w->sp_next++, err) : definition(w, w->def_next++, err);
        if (rc < 0)
            return rc;
    }
}

typedef struct each_thread {
    int (*cb)(void *ctx, const ntidx_thread *th);
    void *ctx;
} each_thread;

static int each_thread_row(void *ctx, const ntidx_thread *th, const ntx_thread_row *row)
{
    (void)row;
    const each_thread *e = ctx;
    return e->cb(e->ctx, th);
}

int ntx_index_each_thread(ntidx_trace *t, const ntidx_index *x, ntx_arena *a,
                          int (*cb)(void *ctx, const ntidx_thread *th), void *ctx, ntx_err *err)
{
    each_thread e = {cb, ctx};
    for (uint64_t d = 0; d < ntx_index_def_count(x); d++) {
        if (ntx_def_kind(x, d) != NTIDX_BLOCK_THREAD)
            continue;
        uint64_t b = ntx_def_block(x, d);
        int rc = ntx_index_need_block(x, b, err);
        if (rc < 0)
            return rc;
        uint64_t pos = ntx_blk_offset(x, b);
        ntidx_block blk;
        rc = ntidx_trace_next_block(t, &pos, &blk);
        if (rc < 0)
            return ntx_err_from_last(err, rc);
        if (rc == 0 || blk.kind != NTIDX_BLOCK_THREAD)
            return ntx_err_at(err, NTIDX_E_CORRUPT, ntx_blk_offset(x, b), "the index lists a thread block here");
        if ((rc = ntx_decode_thread_block(t, &blk, a, each_thread_row, &e, err)) < 0)
            return rc;
    }
    return 0;
}
