/*
 * Time order. The format guarantees that events between two sequence
 * points have timestamps between theirs, and that each capture thread's
 * events are in order; threads interleave out of order. So events wait in
 * a min-heap keyed by (timestamp, file offset) and leave when
 *  - an event marked IsSorted has been read: no later event is earlier
 *    than it, so everything up to its key may leave (this bounds memory to
 *    the writer's batches, ~100 ms in the runtime);
 *  - the region ends (sequence point, end of stream, error): everything
 *    leaves, and only then is the sequence point applied, so buffered
 *    events keep their stacks and metadata.
 * Ties on timestamp keep file order, so the output is deterministic.
 */
#include <stdlib.h>

#include "reader_sort.h"

static int key_le(uint64_t ts, uint64_t off, uint64_t wts, uint64_t woff)
{
    return ts < wts || (ts == wts && off <= woff);
}

static int item_lt(const ntx_heap_item *a, const ntx_heap_item *b)
{
    return a->ts < b->ts || (a->ts == b->ts && a->off < b->off);
}

static void heap_up(ntx_heap_item *h, uint32_t i)
{
    ntx_heap_item x = h[i];
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (!item_lt(&x, &h[p]))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = x;
}

static void heap_down(ntx_heap_item *h, uint32_t n, uint32_t i)
{
    ntx_heap_item x = h[i];
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && item_lt(&h[c + 1], &h[c]))
            c++;
        if (!item_lt(&h[c], &x))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

/* Pool slots hold waiting events; free slots form a list threaded through pool_next_free. */
static int push(ntidx_reader *r, const ntidx_event *e)
{
    if (r->pool_free_head == UINT32_MAX || r->pool_cap == 0) {
        uint32_t ncap = r->pool_cap ? r->pool_cap * 2 : 1024;
        if (ncap < r->pool_cap)
            return NTIDX_E_NOMEM;
        ntidx_event *np = realloc(r->pool, (size_t)ncap * sizeof *np);
        if (!np)
            return NTIDX_E_NOMEM;
        r->pool = np;
        uint32_t *nf = realloc(r->pool_next_free, (size_t)ncap * sizeof *nf);
        if (!nf)
            return NTIDX_E_NOMEM;
        r->pool_next_free = nf;
        for (uint32_t i = r->pool_cap; i < ncap; i++)
            nf[i] = i + 1 < ncap ? i + 1 : UINT32_MAX;
        r->pool_free_head = r->pool_cap;
        r->pool_cap = ncap;
        ntx_heap_item *nh = realloc(r->heap, (size_t)ncap * sizeof *nh);
        if (!nh)
            return NTIDX_E_NOMEM;
        r->heap = nh;
        r->heap_cap = ncap;
    }
    uint32_t slot = r->pool_free_head;
    r->pool_free_head = r->pool_next_free[slot];
    r->pool[slot] = *e;
    r->heap[r->heap_len] = (ntx_heap_item){e->timestamp, e->offset, slot};
    heap_up(r->heap, r->heap_len++);
    return 0;
}

/* An event marked IsSorted: nothing later is earlier than it, so everything up to its key may leave. */
static void raise_watermark(ntidx_reader *r, const ntidx_event *e)
{
    if (e->is_sorted)
        ntx_sort_mark(r, e->timestamp, e->offset);
}

int ntx_reader_time_next(ntidx_reader *r, const ntidx_event **ev)
{
    for (;;) {
        if (r->heap_len > 0) {
            ntx_heap_item top = r->heap[0];
            if (r->wm_all || key_le(top.ts, top.off, r->wm_ts, r->wm_off)) {
                r->heap[0] = r->heap[--r->heap_len];
                if (r->heap_len)
                    heap_down(r->heap, r->heap_len, 0);
                r->ev = r->pool[top.slot];
                if (r->time_ceiling && top.ts >= r->time_ceiling)
                    r->over_ceiling_waiting = 0;
                r->pool_next_free[top.slot] = r->pool_free_head;
                r->pool_free_head = top.slot;
                if (top.ts < r->last_ts_out)
                    r->stats.order_violations++; /* a writer broke its IsSorted promise */
                r->last_ts_out = top.ts;
                *ev = &r->ev;
                return 1;
            }
        } else if (r->wm_all) {
            /* Region drained: apply the sequence point that ended it, then start the next. */
            if (r->has_pending_barrier || r->pending_reset) {
                int rc = ntx_reader_apply_barrier(r);
                if (rc < 0)
                    return rc;
                r->wm_all = 0;
                r->wm_ts = r->wm_off = 0;
                continue;
            }
            if (r->at_end)
                return r->failed ? r->failed : 0;
            r->wm_all = 0;
        }
        ntidx_event e;
        int rc = ntx_reader_file_next(r, &e, 1);
        if (rc == 1) {
            if (e.timestamp < r->time_floor) { /* below the window: its IsSorted mark still moves the watermark */
                raise_watermark(r, &e);
                continue;
            }
            if (r->time_ceiling && e.timestamp >= r->time_ceiling) { /* past it: one waits, the others pass */
                if (r->over_ceiling_waiting) {
                    raise_watermark(r, &e);
                    continue;
                }
                r->over_ceiling_waiting = 1;
            }
            if (push(r, &e) != 0) {
                ntx_err_set(&r->err, NTIDX_E_NOMEM, "out of memory sorting events");
                r->failed = NTIDX_E_NOMEM;
                r->at_end = 1;
                r->wm_all = 1;
                continue;
            }
            raise_watermark(r, &e);
            continue;
        }
        /* 2: a sequence point ends the region; 0 or <0: the read ends. Drain either way. */
        r->wm_all = 1;
    }
}

void ntx_sort_free(ntidx_reader *r)
{
    free(r->pool);
    free(r->pool_next_free);
    free(r->heap);
    r->pool = NULL;
    r->heap = NULL;
    r->pool_next_free = NULL;
}
