/* The input of a slice: its blocks through the index, and the walker of the definitions before them. */
#include "slice_internal.h"

/* ------------------------------------------------------------------ */
/* Input blocks                                                        */
/* ------------------------------------------------------------------ */

struct at_key {
    const ntidx_index *x;
    uint64_t v;
};

static int block_starts_at_or_before(const void *ctx, uint64_t i)
{
    const struct at_key *k = ctx;
    return ntx_blk_offset(k->x, i) <= k->v;
}

/* Index of the block holding file offset `off` (the last block starting at or before it). */
uint64_t sl_block_at(const ntidx_index *x, uint64_t off)
{
    struct at_key k = {x, off};
    uint64_t after = ntx_lower_bound(ntx_index_block_count(x), block_starts_at_or_before, &k);
    return after ? after - 1 : 0;
}

/* Read block i; `count`: add it to the bytes the slicer read besides the query. */
int sl_read_block_counted(slicer *s, uint64_t i, ntidx_block *b, int count)
{
    uint64_t pos = ntx_blk_offset(s->x, i);
    ntx_err walk = {0};
    int rc = ntx_next_block(s->t, &pos, b, &walk);
    if (rc != 1) {
        if (!s->err.code)
            ntx_err_at(&s->err, NTIDX_E_CORRUPT, ntx_blk_offset(s->x, i),
                       "the index points at a block here but the trace has none (%s)",
                       walk.msg[0] ? walk.msg : "end of stream");
        return s->err.code;
    }
    if (count)
        s->own_bytes += b->size;
    return 0;
}

int sl_read_block(slicer *s, uint64_t i, ntidx_block *b) { return sl_read_block_counted(s, i, b, 1); }

/* Rows of an event block, or -1 when it cannot be decoded (then it is not copied). */
int64_t sl_count_rows(slicer *s, const ntidx_block *b)
{
    ntx_hdr_block hb;
    ntx_err e = {0};
    if (ntx_hdr_block_init(&hb, s->t, b, &e) < 0)
        return -1;
    int64_t n = 0;
    const ntx_hdr *h;
    int rc;
    while ((rc = ntx_hdr_next_ref(&hb, &h, &e)) == 1)
        n++;
    return rc < 0 ? -1 : n;
}

/* ------------------------------------------------------------------ */
/* The walker: sequence points and V6 thread definitions               */
/* ------------------------------------------------------------------ */

static int list_push(slicer *s, uint64_t thread, uint32_t seq)
{
    if (s->list_len == s->list_cap) {
        size_t n = s->list_cap ? s->list_cap * 2 : 64;
        ntidx_thread_seq *p = realloc(s->list, n * sizeof *p);
        if (!p)
            return nomem(s);
        s->list = p;
        s->list_cap = n;
    }
    s->list[s->list_len++] = (ntidx_thread_seq){thread, seq};
    return 0;
}

/* A sequence point's (thread, seq) pair: kept for the threads the output knows. */
static int sp_entry(void *ctx, uint64_t thread, uint32_t seq)
{
    slicer *s = ctx;
    const sl_map *known = s->v6 ? &s->thread_out : &s->seen;
    if (!ntx_idmap_get(&known->m, thread))
        return 0;
    return list_push(s, thread, seq);
}

/* A sequence point of the input (its entries listed): written once the output has events, and the output's
   caches flushed as the input's are. */
static int sequence_point(void *ctx, uint64_t timestamp, uint32_t flags, uint32_t flushes)
{
    slicer *s = ctx;
    size_t n = s->list_len;
    s->list_len = 0;
    if (s->started) {
        int rc = ntidx_writer_sequence_point(s->w, timestamp, flags, s->list, n);
        if (rc < 0)
            return wfail(s, rc, "sequence point");
        s->st.sequence_points++;
    }
    /* what the input's readers forget, the output's do too: defined again when next used */
    if (flushes & NTX_FLUSH_STACKS)
        map_clear(&s->stack_out);
    if (flushes & NTX_FLUSH_LABEL_LISTS)
        map_clear(&s->label_out);
    if (flushes & NTX_FLUSH_THREADS) {
        map_clear(&s->thread_out);
        map_clear(&s->thread_in);
    }
    if (flushes & NTX_FLUSH_METADATA)
        map_clear(&s->meta_out);
    return 0;
}

/* A V6 thread row of the input: where it lies, for when an event needs the thread. */
static int thread_row(void *ctx, uint64_t thread, uint64_t row_offset, uint32_t row_size)
{
    slicer *s = ctx;
    int fresh;
    sl_def *d = map_slot(&s->thread_in, thread, sizeof *d, &fresh);
    if (!d)
        return nomem(s);
    d->off = row_offset;
    d->size = row_size;
    return 0;
}

/* A thread the input removes: removed from the output too when the output defines it. */
static int removed_thread(void *ctx, uint64_t index, uint32_t seq)
{
    slicer *s = ctx;
    ntx_idmap_remove(&s->thread_in.m, index);
    if (!ntx_idmap_remove(&s->thread_out.m, index))
        return 0;
    return list_push(s, index, seq);
}

static int removals_done(void *ctx)
{
    slicer *s = ctx;
    size_t n = s->list_len;
    s->list_len = 0;
    if (n) {
        int rc = ntidx_writer_remove_threads(s->w, s->list, n);
        if (rc < 0)
            return wfail(s, rc, "remove-thread");
        s->st.thread_removals += n;
    }
    return 0;
}

/* Apply every sequence point and V6 thread definition before block j; the walk starts, like a query's priming,
   at the first thread definition of the first event's thread epoch. */
int sl_walk_to(slicer *s, uint64_t j)
{
    if (!s->started) {
        const ntx_defs_visitor v = {sp_entry, sequence_point, thread_row, removed_thread, removals_done, s};
        ntx_defs_walk_start(&s->walk, s->t, s->x, &v, j);
    }
    return ntx_defs_walk_to(&s->walk, j, &s->err);
}
