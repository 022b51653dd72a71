/*
 * Sequence numbers and dropped events (reader_internal.h): each capture
 * thread's state, the checkpoints sequence points and remove-thread blocks
 * give, the baselines a plan starts from, and the public list of dropped
 * events. The per-event step (ntx_seq_event()) is inline in
 * reader_internal.h: the rows' loops take it once per event.
 */
#include <stdlib.h>

#include "reader_internal.h"

ntx_seqstate *ntx_reader_seqstate(ntidx_reader *r, uint64_t capture)
{
    /* Events come in runs per capture thread; states live until close, so the cache never dangles. */
    if (r->last_seq && r->last_seq->capture == capture)
        return r->last_seq;
    ntx_seqstate *s = ntx_idmap_get(&r->seqs, capture);
    if (s)
        return r->last_seq = s;
    s = ntx_arena_alloc(&r->seq_arena, sizeof *s);
    if (!s || ntx_idmap_put(&r->seqs, capture, s) != 0)
        return NULL;
    s->capture = s->os_tid = capture;
    /* V6 threads start counting at 0 when defined (TraceEvent does the same): a
       first event numbered N means N-1 were dropped. Before V6 a thread's first
       sighting is its baseline, and so is it for a query that enters the trace
       in the middle of each thread's numbering (seq_from_zero). */
    s->seen = r->t->gen == NTX_GEN_V6 && r->seq_from_zero;
    return r->last_seq = s;
}

/* A sequence point or remove-thread entry: the thread had tried to log at least `seq` events. */
int ntx_reader_seq_checkpoint(void *ctx, uint64_t thread, uint32_t seq)
{
    ntidx_reader *r = ctx;
    ntx_seqstate *s = ntx_reader_seqstate(r, thread);
    if (!s)
        return ntx_err_set(&r->err, NTIDX_E_NOMEM, "out of memory tracking sequence numbers");
    if (!s->seen || r->reading_context) { /* a plan's context counts nothing: its region is not being read */
        s->seen = 1;
        s->last = seq;
        return 0;
    }
    uint32_t gap = seq - s->last;
    if (gap != 0 && gap < 0x80000000u) {
        s->dropped += gap;
        r->stats.dropped_events += gap;
        s->last = seq;
    }
    return 0;
}
static void reset_seq(void *ctx, uint64_t key, void *val)
{
    (void)ctx;
    (void)key;
    ((ntx_seqstate *)val)->last = 0;
}

void ntx_reader_seq_threads_flushed(ntidx_reader *r) { ntx_idmap_each(&r->seqs, reset_seq, NULL); }

static void forget_seq(void *ctx, uint64_t key, void *val)
{
    (void)ctx;
    (void)key;
    ((ntx_seqstate *)val)->seen = 0;
}

/* Blocks were skipped: the next event of each thread is a new baseline, not a gap. */
void ntx_reader_forget_sequences(ntidx_reader *r)
{
    ntx_idmap_each(&r->seqs, forget_seq, NULL);
    r->seq_from_zero = 0;
}

static void seq_from_zero(void *ctx, uint64_t key, void *val)
{
    (void)ctx;
    (void)key;
    ntx_seqstate *s = val;
    s->seen = 1;
    s->last = 0;
}

void ntx_reader_seq_all_from_zero(ntidx_reader *r) { ntx_idmap_each(&r->seqs, seq_from_zero, NULL); }

static void restart_seq(void *ctx, uint64_t key, void *val)
{
    (void)ctx;
    (void)key;
    ntx_seqstate *s = val;
    s->os_tid = s->capture;
    s->dropped = 0;
    s->last = 0;
    s->seen = 0;
}

void ntx_reader_resume(ntidx_reader *r)
{
    /* Every state as ntx_reader_seqstate() makes a new one for a plan (never seen): what a new reader would have. */
    ntx_idmap_each(&r->seqs, restart_seq, NULL);
    r->seq_from_zero = 0;
    r->at_end = 0;
}

/* A sequence point as a starting line: each listed thread had tried to log `seq` events so far. */
int ntx_reader_seq_baseline(void *ctx, uint64_t thread, uint32_t seq)
{
    ntidx_reader *r = ctx;
    ntx_seqstate *s = ntx_reader_seqstate(r, thread);
    if (!s)
        return ntx_err_set(&r->err, NTIDX_E_NOMEM, "out of memory tracking sequence numbers");
    s->seen = 1;
    s->last = seq;
    return 0;
}

static int cmp_dropped(const void *a, const void *b)
{
    const ntidx_dropped *x = a, *y = b;
    return x->capture_thread < y->capture_thread ? -1 : x->capture_thread > y->capture_thread;
}

static void count_dropped(void *ctx, uint64_t key, void *val)
{
    (void)key;
    *(size_t *)ctx += ((const ntx_seqstate *)val)->dropped != 0;
}

struct dropped_fill {
    ntidx_dropped *d;
    size_t k;
};

static void fill_dropped(void *ctx, uint64_t key, void *val)
{
    (void)key;
    struct dropped_fill *f = ctx;
    const ntx_seqstate *s = val;
    if (s->dropped)
        f->d[f->k++] = (ntidx_dropped){s->capture, s->os_tid, s->dropped};
}

NTIDX_API int ntidx_reader_dropped(ntidx_reader *r, const ntidx_dropped **list, size_t *count)
{
    if (!r || !list || !count)
        return ntx_failf(NTIDX_E_INVALID_ARG, r ? r->t->name : NULL, NTIDX_NO_OFFSET, "ntidx_reader_dropped: NULL argument");
    size_t n = 0;
    ntx_idmap_each(&r->seqs, count_dropped, &n);
    ntidx_dropped *d = n ? calloc(n, sizeof *d) : NULL;
    if (n && !d)
        return ntx_failf(NTIDX_E_NOMEM, r->t->name, NTIDX_NO_OFFSET, "out of memory");
    struct dropped_fill f = {d, 0};
    ntx_idmap_each(&r->seqs, fill_dropped, &f);
    if (n)
        qsort(d, n, sizeof *d, cmp_dropped);
    free(r->dropped);
    r->dropped = d;
    r->dropped_len = n;
    *list = d;
    *count = n;
    return NTIDX_OK;
}
