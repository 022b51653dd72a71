/*
 * Rows (reader_plan.h, ntx_reader_rows()): the statistics' loop, a block of
 * events at a time, with every check and count ntidx_reader_next() makes.
 */
#include "reader_internal.h"

/*
 * An event's references checked in make_event()'s order (metadata; V6: thread,
 * capture thread, label list; stack): 0, or the error of the first undefined
 * one. The rows' loop checks them together without a branch per reference
 * and comes here for the message.
 */
static int check_refs(ntidx_reader *r, const ntx_hdr *h, const ntidx_metadata **m)
{
    if (!(*m = ntx_idmap_get(&r->metadata, h->metadata_id)))
        return ntx_reader_undefined(r, h, "metadata id", h->metadata_id);
    if (r->t->gen == NTX_GEN_V6) {
        if (!ntx_idmap_get(&r->threads, h->thread))
            return ntx_reader_undefined(r, h, "thread index", h->thread);
        if (!ntx_idmap_get(&r->threads, h->capture))
            return ntx_reader_undefined(r, h, "capture thread index", h->capture);
        if (h->label_id && !ntx_idmap_get(&r->labels, h->label_id))
            return ntx_reader_undefined(r, h, "label list id", h->label_id);
    }
    if (r->t->gen != NTX_GEN_NETPERF && h->stack_id && !ntx_idmap_get(&r->stacks, h->stack_id))
        return ntx_reader_undefined(r, h, "stack id", h->stack_id);
    return 0;
}

/*
 * Up to `cap` rows of a block of compressed event headers (the headers every
 * runtime writes): the branch-free decoder (ntx_hdr_decode_compressed_fast)
 * while the block has room for the longest header, and the references checked
 * by unchecked loads from the maps' dense arrays, all at once. Threads come
 * in runs: a thread's OS id and its sequence-number state are looked up once
 * per run (nothing an event block refers to can change inside it: definitions
 * live in blocks of their own). The checks, their order and their messages
 * are make_event()'s (check_refs()). Returns the rows decoded (0: the block is
 * over, in_block cleared), <0 an error (sticky).
 */

static inline __attribute__((always_inline)) long rows_compressed_as(ntidx_reader *r, ntx_row *rows, size_t cap,
                                                                       const int v6)
{
    ntx_hdr_block *hb = &r->hb;
    ntx_hdr h = hb->prev; /* the delta state, in registers while the loop runs */
    const uint8_t *p = hb->p, *const end = hb->end, *const base = hb->base;
    void *const *mdense = ntx_idmap_dense(&r->metadata), *const *sdense = ntx_idmap_dense(&r->stacks);
    void *const *ldense = ntx_idmap_dense(&r->labels), *const *tdense = ntx_idmap_dense(&r->threads);
    ntx_row_cache *c = &r->rc;
    size_t n = 0;
    long rc = 0;
    while (n < cap) {
        if (p >= end) {
            r->in_block = 0;
            break;
        }
        const uint8_t *at = p;
        const char *what;
        /* Each row's place depends on the previous row's payload size: the next rows' bytes are asked for
           ahead, or every row waits for its cache line (a prefetch past the block's end is harmless). */
        __builtin_prefetch(p + PREFETCH_AHEAD);
        __builtin_prefetch(p + PREFETCH_AHEAD + 64);
        if (__builtin_expect(!ntx_hdr_decode_compressed(&h, &p, end, v6, &what), 0)) {
            hb->p = p;
            rc = ntx_hdr_row_error(hb, at, &r->err, what);
            break;
        }
        p += h.payload_size;
        const ntidx_metadata *m;
        const ntx_label_ref *l; /* V6: the event's label list (read with the checks) */
        const uint32_t mid = h.metadata_id, sid = h.stack_id, lid = v6 ? h.label_id : 0;
        if (__builtin_expect((mid | sid | lid) < NTX_IDMAP_DENSE, 1)) {
            m = mdense[mid];
            l = v6 ? ldense[lid] : NULL;
            if (__builtin_expect((m == NULL) | ((sid != 0) & (sdense[sid] == NULL)) | ((lid != 0) & (l == NULL)), 0)) {
                h.offset = (uint64_t)(at - base);
                rc = check_refs(r, &h, &m);
                if (rc == 0) /* the thread checks, which come before the label's and the stack's, failed it */
                    rc = ntx_err_set(&r->err, NTIDX_E_CORRUPT, "internal: references checked twice differently");
                break;
            }
        } else {
            h.offset = (uint64_t)(at - base);
            if ((rc = check_refs(r, &h, &m)) < 0)
                break;
            l = v6 ? ntx_idmap_get(&r->labels, lid) : NULL;
        }
        if (v6) {
            /* Events with and without a label list interleave at random: the list (or an empty one) is
               chosen without a branch, and only a list that overrides something costs one. */
            static const ntx_label_ref no_labels;
            const uintptr_t has = (uintptr_t)0 - (lid != 0); /* a mask, not a branch (compilers keep masks) */
            l = (const ntx_label_ref *)(((uintptr_t)l & has) | ((uintptr_t)&no_labels & ~has));
            if (__builtin_expect(l->overrides, 0) && !(m = ntx_label_row(r, m, l))) {
                rc = NTIDX_E_NOMEM; /* make_event()'s row: said by ntx_label_row() */
                break;
            }
        }
        uint64_t tid = h.thread, cid = h.capture;
        if (v6) {
            if (__builtin_expect(!c->have_thread || h.thread != c->thread, 0)) {
                /* A sampling trace changes thread at nearly every event: the dense array read inline */
                const ntidx_thread *th = h.thread < NTX_IDMAP_DENSE ? tdense[h.thread]
                                                                     : ntx_idmap_get(&r->threads, h.thread);
                if (!th) {
                    h.offset = (uint64_t)(at - base);
                    rc = check_refs(r, &h, &m);
                    break;
                }
                c->thread = h.thread;
                c->thread_id = th->has_os_thread_id ? th->os_thread_id : h.thread;
                c->have_thread = 1;
            }
            tid = c->thread_id;
            if (__builtin_expect(!c->seq || h.capture != c->capture, 0)) {
                const ntidx_thread *ct = ntx_idmap_get(&r->threads, h.capture);
                if (!ct) {
                    h.offset = (uint64_t)(at - base);
                    rc = check_refs(r, &h, &m);
                    break;
                }
                c->capture_id = ct->has_os_thread_id ? ct->os_thread_id : h.capture;
            }
            cid = c->capture_id;
        }
        if (__builtin_expect(!c->seq || h.capture != c->capture, 0)) {
            c->seq = ntx_reader_seqstate(r, h.capture);
            if (!c->seq) {
                rc = ntx_err_set(&r->err, NTIDX_E_NOMEM, "out of memory tracking sequence numbers");
                break;
            }
            c->capture = h.capture;
            c->seq->os_tid = cid; /* as make_event() sets it per event: the same for the whole run */
        }
        ntx_seq_event(r, c->seq, h.seq);
        rows[n++] = (ntx_row){m, tid, h.timestamp, h.payload_size};
    }
    r->stats.events += n;
    /* The state as ntx_hdr_next_compressed() leaves it: the last row decoded, the block's position. */
    h.offset = 0;
    hb->prev = h;
    if (rc < 0) {
        hb->p = hb->end; /* the block stops at an error */
        return ntx_reader_fail(r, (int)rc);
    }
    hb->p = p;
    return (long)n;
}

/* The loop compiled twice, V6 and V4/V5, so that neither tests the version per field of every row. */
static long rows_compressed(ntidx_reader *r, ntx_row *rows, size_t cap)
{
    return r->t->gen == NTX_GEN_V6 ? rows_compressed_as(r, rows, cap, 1) : rows_compressed_as(r, rows, cap, 0);
}

long ntx_reader_rows(ntidx_reader *r, ntx_row *rows, size_t cap, uint64_t *block_offset)
{
    if (r->failed)
        return r->failed;
    for (;;) {
        if (r->in_block) {
            *block_offset = r->block_offset;
            long n = 0;
            if (r->hb.compressed && !r->block_is_metadata && !r->block_metadata_only) {
                n = rows_compressed(r, rows, cap);
            } else {
                ntidx_event e;
                int rc = 1;
                while ((size_t)n < cap && (rc = ntx_reader_next_row(r, &e)) == 1)
                    rows[n++] = (ntx_row){e.metadata, e.thread_id, e.timestamp, e.payload_size};
                if (rc < 0)
                    return rc;
            }
            if (n != 0) /* the statistics' checkpoint: a block's rows read from zeros are not counted */
                return __builtin_expect(ntx_trace_faulted(r->t), 0) ? ntx_reader_fail(r, NTIDX_E_SHRUNK) : n;
            continue;
        }
        if (r->at_end)
            return 0;
        int rc = ntx_reader_next_block(r, 0);
        if (rc != 1)
            return rc;
    }
}
