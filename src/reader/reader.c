/*
 * The reader: file-order decoding, block after block and event after event
 * (the compressed rows' loop inlined), and the public calls; time order on
 * top (reader_sort.c). The caches are reader_defs.c's, sequence numbers
 * reader_seq.c's, plans reader_plan.c's, memory given back reader_release.c's,
 * the statistics' rows reader_rows.c's. See reader_internal.h.
 */
#include <stdlib.h>
#include <string.h>

#include "metadata.h"
#include "reader_internal.h"
#include "reader_sort.h"

NTIDX_API void ntidx_reader_options_defaults(ntidx_reader_options *o)
{
    memset(o, 0, sizeof *o);
    o->order = NTIDX_ORDER_FILE;
}

int ntx_reader_fail(ntidx_reader *r, int code)
{
    if (!r->failed) {
        /* Whatever went wrong, a file that shrank under the read is why: its lost bytes read as zeros, which
           decode to anything (the error, or none, that stopped the read included). */
        ntx_err shrunk = {0};
        if (ntx_trace_check_end(r->t, &shrunk) < 0) {
            r->err = shrunk;
            code = shrunk.code;
        }
        r->failed = code;
    }
    r->at_end = 1;
    r->in_block = 0;
    return r->failed;
}

/* ------------------------------------------------------------------ */
/* Events                                                              */
/* ------------------------------------------------------------------ */

int ntx_reader_undefined(ntidx_reader *r, const ntx_hdr *h, const char *what, uint64_t id)
{
    return ntx_err_at(&r->err, NTIDX_E_UNDEFINED_REF, h->offset, "event references %s %llu, which is not defined here",
                      what, (unsigned long long)id);
}

/* The fields every event takes from its header as it stands, with its metadata row m; no thread, stack or
   label list yet (make_event() and the compressed rows' loop set those). */
static inline __attribute__((always_inline)) void fill_event(const ntidx_reader *r, const ntx_hdr *h,
                                                            const ntidx_metadata *m, ntidx_event *e)
{
    e->offset = h->offset;
    e->timestamp = h->timestamp;
    e->thread_index = e->thread_id = h->thread;
    e->capture_thread_index = e->capture_thread_id = h->capture;
    e->metadata_id = h->metadata_id;
    e->sequence_number = h->seq;
    e->processor_number = h->proc;
    e->stack_id = h->stack_id;
    e->label_list_id = h->label_id;
    e->payload_size = h->payload_size;
    e->is_sorted = h->is_sorted;
    e->payload = r->t->data + h->payload_off;
    e->activity_id = h->activity;
    e->related_activity_id = h->related;
    e->metadata = m;
    e->thread = NULL;
    e->stack = NULL;
    e->stack_size = 0;
    e->label_list = NULL;
    e->label_list_size = 0;
    /* zero in this version (docs/abi.md): a client hands the event to the writer as it came */
    for (size_t i = 0; i < sizeof e->reserved / sizeof e->reserved[0]; i++)
        e->reserved[i] = 0;
}

/* A V6 event's thread and capture thread: the thread record, and their OS ids where the trace gives them. */
static inline __attribute__((always_inline)) void set_v6_threads(ntidx_event *e, const ntidx_thread *th,
                                                                 const ntidx_thread *ct)
{
    e->thread = th;
    if (th->has_os_thread_id)
        e->thread_id = th->os_thread_id;
    if (ct->has_os_thread_id)
        e->capture_thread_id = ct->os_thread_id;
}

static int make_event(ntidx_reader *r, const ntx_hdr *h, ntidx_event *e)
{
    const ntidx_metadata *m = ntx_idmap_get(&r->metadata, h->metadata_id);
    if (!m)
        return ntx_reader_undefined(r, h, "metadata id", h->metadata_id);
    fill_event(r, h, m, e);
    ntidx_trace *t = r->t;
    if (t->gen == NTX_GEN_V6) {
        const ntidx_thread *th = ntx_idmap_get(&r->threads, h->thread);
        if (!th)
            return ntx_reader_undefined(r, h, "thread index", h->thread);
        const ntidx_thread *ct = h->capture == h->thread ? th : ntx_idmap_get(&r->threads, h->capture);
        if (!ct)
            return ntx_reader_undefined(r, h, "capture thread index", h->capture);
        set_v6_threads(e, th, ct);
        if (h->label_id) {
            const ntx_label_ref *l = ntx_idmap_get(&r->labels, h->label_id);
            if (!l)
                return ntx_reader_undefined(r, h, "label list id", h->label_id);
            e->label_list = l->labels;
            e->label_list_size = l->size;
            if (!(e->metadata = ntx_label_row(r, m, l)))
                return NTIDX_E_NOMEM;
        }
    }
    if (t->gen == NTX_GEN_NETPERF) {
        e->stack = h->stack;
        e->stack_size = h->stack_size;
    } else if (h->stack_id) {
        const ntx_stack_ref *s = ntx_idmap_get(&r->stacks, h->stack_id);
        if (!s)
            return ntx_reader_undefined(r, h, "stack id", h->stack_id);
        e->stack = s->ips;
        e->stack_size = s->size;
    }
    if (t->gen != NTX_GEN_NETPERF) {
        ntx_seqstate *s = ntx_reader_seqstate(r, h->capture);
        if (!s)
            return ntx_err_set(&r->err, NTIDX_E_NOMEM, "out of memory tracking sequence numbers");
        s->os_tid = e->capture_thread_id;
        ntx_seq_event(r, s, h->seq);
    }
    r->stats.events++;
    return 0;
}

/* Start decoding the rows of an event block or a V4/V5 metadata block. */
static int begin_rows(ntidx_reader *r, const ntidx_block *b, int is_metadata)
{
    int rc = ntx_hdr_block_init(&r->hb, r->t, b, &r->err);
    if (rc < 0)
        return rc;
    r->in_block = 1;
    r->block_is_metadata = is_metadata;
    r->block_metadata_only = 0;
    memset(&r->rc, 0, sizeof r->rc);
    return 0;
}

/* Blocks other than events: returns 0, or 2 when a sequence point is deferred. */
static int apply_block(ntidx_reader *r, const ntidx_block *b, int defer_barriers)
{
    r->block_offset = b->offset;
    switch (b->kind) {
    case NTIDX_BLOCK_EVENT: return begin_rows(r, b, 0);
    case NTIDX_BLOCK_METADATA:
        /* V4/V5 metadata blocks hold rows with event headers; V6 ones are definitions of their own */
        return r->t->gen == NTX_GEN_V6 ? ntx_reader_apply_definitions(r, b) : begin_rows(r, b, 1);
    case NTIDX_BLOCK_SEQUENCE_POINT:
        if (defer_barriers) {
            r->pending_barrier = *b;
            r->has_pending_barrier = 1;
            return 2;
        }
        return ntx_reader_apply_sequence_point(r, b);
    case NTIDX_BLOCK_STACK:
    case NTIDX_BLOCK_THREAD:
    case NTIDX_BLOCK_REMOVE_THREAD:
    case NTIDX_BLOCK_LABEL_LIST: return ntx_reader_apply_definitions(r, b);
    case NTIDX_BLOCK_TRACE: return 0; /* read at open */
    default: r->stats.unknown_blocks++; return 0;
    }
}

int ntx_reader_apply_barrier(ntidx_reader *r)
{
    if (r->pending_reset) {
        r->pending_reset = 0;
        ntx_reader_reset_caches(r);
        return 0;
    }
    r->has_pending_barrier = 0;
    int rc = ntx_reader_apply_sequence_point(r, &r->pending_barrier);
    return rc < 0 ? ntx_reader_fail(r, rc) : 0;
}

/*
 * The next row of the block being decoded: 1 an event in *e, 0 the block is
 * over (in_block cleared), <0 an error (sticky). Metadata rows (V4/V5
 * metadata blocks, V3 rows with metadata id 0) are applied on the way.
 */
int ntx_reader_next_row(ntidx_reader *r, ntidx_event *e)
{
    ntidx_trace *t = r->t;
    for (;;) {
        const ntx_hdr *hp;
        int rc = ntx_hdr_next_ref(&r->hb, &hp, &r->err);
        if (rc < 0)
            return ntx_reader_fail(r, rc);
        if (rc == 0) {
            r->in_block = 0;
            return 0;
        }
        if (r->block_metadata_only && hp->metadata_id != 0)
            continue; /* a V3 block visited for its definitions: its events are outside the query */
        if (r->block_is_metadata || (t->gen == NTX_GEN_NETPERF && hp->metadata_id == 0)) {
            ntidx_metadata *m;
            int v5 = 0;
            rc = ntx_metadata_parse_blob(&r->metadata_arena, t->data, hp->payload_off, hp->payload_size, &m, &v5,
                                         &r->err);
            if (rc == 0)
                rc = ntx_reader_put_metadata(r, m);
            if (rc < 0)
                return ntx_reader_fail(r, rc);
            continue;
        }
        rc = make_event(r, hp, e);
        if (rc < 0)
            return ntx_reader_fail(r, rc);
        return 1;
    }
}


/* The type filter's verdict on row `m` (defined at dense id `mid`), cached. */
static __attribute__((noinline)) uint64_t type_verdict(ntidx_reader *r, uint32_t mid, const ntidx_metadata *m)
{
    uint64_t v = (m->offset + 1) << 1 | (r->type_keep(r->type_keep_ctx, m) ? 1u : 0u);
    r->type_verdicts[mid] = v;
    return v;
}

void ntx_reader_set_type_filter(ntidx_reader *r, int (*keep)(void *ctx, const ntidx_metadata *m), void *ctx)
{
    free(r->type_verdicts);
    r->type_verdicts = keep ? calloc(NTX_IDMAP_DENSE, sizeof *r->type_verdicts) : NULL;
    r->type_keep = r->type_verdicts ? keep : NULL;
    r->type_keep_ctx = ctx;
}

/*
 * The references of row h in the common case that the rows' loops take
 * inline: ids in the dense arrays, defined, and the capture thread the last
 * one's (ss). V6 also needs its thread indexes and label list id there, and a
 * list that overrides nothing (a one-collect trace: a sampled thread at nearly
 * every event, one capture thread, a label list on each). 1 with them set
 * (st NULL without a stack, lr without a list); 0 for anything else, undefined
 * ids included, which make_event() makes or says what is wrong with.
 */
typedef struct row_refs {
    const ntidx_metadata *m;
    const ntx_stack_ref *st;
    const ntidx_thread *th, *ct; /* V6 */
    const ntx_label_ref *lr;     /* V6 */
} row_refs;

static inline __attribute__((always_inline)) int common_refs(const ntidx_reader *r, const ntx_hdr *h,
                                                             const ntx_seqstate *ss, const int v6, row_refs *o)
{
    const uint32_t mid = h->metadata_id, sid = h->stack_id;
    o->st = NULL;
    o->th = o->ct = NULL;
    o->lr = NULL;
    return !(__builtin_expect((mid | sid) >= NTX_IDMAP_DENSE, 0) || !(o->m = ntx_idmap_dense(&r->metadata)[mid]) ||
             (sid && !(o->st = ntx_idmap_dense(&r->stacks)[sid])) || !ss || ss->capture != h->capture ||
             (v6 && ((h->thread | h->capture | h->label_id) >= NTX_IDMAP_DENSE ||
                     !(o->th = ntx_idmap_dense(&r->threads)[h->thread]) ||
                     !(o->ct = ntx_idmap_dense(&r->threads)[h->capture]) ||
                     (h->label_id && (!(o->lr = ntx_idmap_dense(&r->labels)[h->label_id]) || o->lr->overrides)))));
}

/* A row the type filter refused (at `offset`), read as make_event() would and handed out to no one; the caller
   counts it. */
static inline __attribute__((always_inline)) void refuse_row(ntidx_reader *r, ntx_seqstate *ss, const ntx_hdr *h,
                                                             const ntidx_thread *ct, uint64_t offset, const int v6)
{
    ss->os_tid = v6 && ct->has_os_thread_id ? ct->os_thread_id : h->capture;
    ntx_seq_event(r, ss, h->seq);
    if (h->is_sorted) /* its mark holds for the events handed out after it */
        ntx_sort_mark(r, h->timestamp, offset);
}

static inline __attribute__((always_inline)) int decoded_row(ntidx_reader *r, ntidx_event *e, const int v6);

/*
 * ntx_reader_next_row() for a block of event rows with compressed headers (what every
 * runtime writes), once per event of a full pass: the header decoder inlined,
 * and before V6 the references looked up in the maps' dense arrays and the
 * capture thread's state taken from the last event's when it is the same
 * thread. Anything else (V6 threads and label lists, ids past the dense
 * arrays, an undefined reference) goes through make_event(), which makes
 * the same event or says what is wrong, so the events and errors are
 * ntx_reader_next_row()'s.
 */
static inline __attribute__((always_inline)) int next_compressed_row(ntidx_reader *r, ntidx_event *e, const int v6)
{
    ntx_hdr_block *hb = &r->hb;
    const uint8_t *at = hb->p, *p = at;
    if (p >= hb->end) {
        r->in_block = 0;
        return 0;
    }
    ntx_hdr *h = &hb->prev;
    const char *what;
    /* the rows' loop's prefetch: each row's place depends on the one before it */
    __builtin_prefetch(p + PREFETCH_AHEAD);
    __builtin_prefetch(p + PREFETCH_AHEAD + 64);
    if (__builtin_expect(!ntx_hdr_decode_compressed(h, &p, hb->end, v6, &what), 0))
        return ntx_reader_fail(r, ntx_hdr_row_error(hb, at, &r->err, what));
    h->offset = (uint64_t)(at - hb->base);
    h->payload_off = (uint64_t)(p - hb->base);
    hb->p = p + h->payload_size;
    return decoded_row(r, e, v6);
}

/* The rest of next_compressed_row(), for the row just decoded into hb->prev (its offsets set, hb->p past it):
   also skip_refused_rows()'s, for the first row it does not refuse. */
static inline __attribute__((always_inline)) int decoded_row(ntidx_reader *r, ntidx_event *e, const int v6)
{
    ntx_hdr *h = &r->hb.prev;
    ntx_seqstate *ss = r->last_seq;
    row_refs o;
    if (!common_refs(r, h, ss, v6, &o)) {
        int rc = make_event(r, h, e);
        return rc < 0 ? ntx_reader_fail(r, rc) : 1;
    }
    if (r->type_verdicts) {
        uint64_t v = r->type_verdicts[h->metadata_id];
        if (__builtin_expect(v >> 1 != o.m->offset + 1, 0))
            v = type_verdict(r, h->metadata_id, o.m);
        if (!(v & 1)) { /* not wanted */
            refuse_row(r, ss, h, o.ct, h->offset, v6);
            r->stats.events++;
            return 3;
        }
    }
    fill_event(r, h, o.m, e);
    if (v6) { /* as make_event() */
        set_v6_threads(e, o.th, o.ct);
        if (o.lr) {
            e->label_list = o.lr->labels;
            e->label_list_size = o.lr->size;
        }
    }
    if (o.st) {
        e->stack = o.st->ips;
        e->stack_size = o.st->size;
    }
    ss->os_tid = e->capture_thread_id;
    ntx_seq_event(r, ss, h->seq);
    r->stats.events++;
    return 1;
}

/*
 * next_compressed_row() behind a type filter (ntx_reader_set_type_filter()),
 * where most rows are refused (an analysis keeps one in ten, or one in a
 * thousand): the refused rows are walked in a loop of their own, the delta
 * state in locals (registers) rather than in the reader, written back only
 * when a row is handed out. A row the loop does not refuse by the common case
 * (a wanted one, an undefined id, another capture thread, a verdict not yet
 * cached) is handed, decoded, to the rest of next_compressed_row()
 * (decoded_row()), and a row that does not decode fails as it does there, so
 * the events, errors and sequence numbers are the same as row by row. Returns
 * what next_compressed_row() returns.
 */
static inline __attribute__((always_inline)) int skip_refused_rows(ntidx_reader *r, ntidx_event *e, const int v6)
{
    ntx_hdr_block *hb = &r->hb;
    ntx_hdr h = hb->prev;
    const uint8_t *p = hb->p, *const end = hb->end, *const base = hb->base;
    const uint64_t *verdicts = r->type_verdicts;
    ntx_seqstate *ss = r->last_seq;
    uint64_t skipped = 0;
    while (p < end) {
        const uint8_t *at = p;
        const char *what;
        __builtin_prefetch(p + PREFETCH_AHEAD);
        __builtin_prefetch(p + PREFETCH_AHEAD + 64);
        if (__builtin_expect(!ntx_hdr_decode_compressed(&h, &p, end, v6, &what), 0)) { /* as next_compressed_row() */
            hb->p = at;
            r->stats.events += skipped;
            return ntx_reader_fail(r, ntx_hdr_row_error(hb, at, &r->err, what));
        }
        row_refs o;
        uint64_t v;
        if (!common_refs(r, &h, ss, v6, &o) || (v = verdicts[h.metadata_id]) >> 1 != o.m->offset + 1 || (v & 1)) {
            /* not refused by the common case: the row is decoded; the rest of next_compressed_row() takes it */
            h.offset = (uint64_t)(at - base);
            h.payload_off = (uint64_t)(p - base);
            hb->prev = h;
            hb->p = p + h.payload_size;
            r->stats.events += skipped;
            return decoded_row(r, e, v6);
        }
        refuse_row(r, ss, &h, o.ct, (uint64_t)(at - base), v6);
        skipped++;
        p += h.payload_size;
    }
    hb->prev = h;
    hb->p = p;
    r->stats.events += skipped;
    r->in_block = 0; /* the block is over */
    return 0;
}

/*
 * The next block, applied (an event block is then being decoded: in_block):
 * 1, 0 at the end, 2 a sequence point is waiting (only with defer_barriers),
 * <0 an error (sticky).
 */
int ntx_reader_next_block(ntidx_reader *r, int defer_barriers)
{
    ntidx_trace *t = r->t;
    ntidx_block b;
    int rc;
    if (r->plan) {
        rc = ntx_reader_plan_next_block(r, &b, defer_barriers);
        if (rc == 0) {
            if (ntx_trace_check_end(t, &r->err) < 0)
                return ntx_reader_fail(r, r->err.code);
            r->at_end = 1;
            return 0;
        }
        if (rc == 2)
            return 2;
        if (rc < 0)
            return ntx_reader_fail(r, rc);
        if (b.kind < NTIDX_BLOCK_KIND_COUNT)
            r->stats.blocks[b.kind]++;
        r->stats.bytes_read += b.size;
        if (r->plan[r->plan_pos - 1].keep) /* another region's definitions: read again by other primings */
            ntx_trace_keep(t, b.offset, b.size);
        else
            ntx_reader_note_read(r, b.offset, b.size);
        if (rc == 3 && b.kind == NTIDX_BLOCK_EVENT) { /* context only: the block's metadata rows */
            if ((rc = begin_rows(r, &b, 0)) < 0)
                return ntx_reader_fail(r, rc);
            r->block_metadata_only = 1;
            return 1;
        }
        r->reading_context = rc == 3;
        rc = apply_block(r, &b, defer_barriers);
        r->reading_context = 0;
        if (rc < 0)
            return ntx_reader_fail(r, rc);
        return rc == 2 ? 2 : 1;
    }
    if (r->pos >= r->end_pos) {
        r->at_end = 1;
        return 0;
    }
    ntx_err walk = {0};
    ntx_trace_walk_ahead(t, r->pos, &r->ahead);
    rc = ntx_next_block(t, &r->pos, &b, &walk);
    if (rc == 0) {
        r->complete = 1;
        r->at_end = 1;
        r->stats.end_offset = r->pos;
        return 0;
    }
    if (rc == NTIDX_E_TRUNCATED) {
        /* A writer that stopped early: everything before here was read. */
        r->err = walk;
        r->err.code = 0;
        r->at_end = 1;
        r->stats.end_offset = r->pos;
        return 0;
    }
    if (rc < 0) {
        r->err = walk;
        return ntx_reader_fail(r, rc);
    }
    r->stats.end_offset = r->pos;
    r->stats.bytes_read += b.size;
    if (b.kind < NTIDX_BLOCK_KIND_COUNT)
        r->stats.blocks[b.kind]++;
    ntx_reader_note_read(r, b.offset, b.size);
    rc = apply_block(r, &b, defer_barriers);
    if (rc < 0)
        return ntx_reader_fail(r, rc);
    return rc == 2 ? 2 : 1;
}

/*
 * Advance in file order to the next event, applying every other block on
 * the way. Returns 1 (event in *e), 2 (a sequence point is waiting: only
 * with defer_barriers), 0 (end), <0 (error, sticky).
 */
int ntx_reader_file_next(ntidx_reader *r, ntidx_event *e, int defer_barriers)
{
    if (r->failed)
        return r->failed;
    for (;;) {
        if (r->in_block) {
            int rc;
            if (r->hb.compressed && !r->block_is_metadata && !r->block_metadata_only) {
                const int v6 = r->t->gen == NTX_GEN_V6;
                if (r->type_verdicts)
                    rc = v6 ? skip_refused_rows(r, e, 1) : skip_refused_rows(r, e, 0);
                else
                    rc = v6 ? next_compressed_row(r, e, 1) : next_compressed_row(r, e, 0);
            } else
                rc = ntx_reader_next_row(r, e);
            if (rc == 3)
                continue; /* a row the type filter refused */
            if (rc != 0)
                return rc;
            continue;
        }
        if (r->at_end)
            return 0;
        int rc = ntx_reader_next_block(r, defer_barriers);
        if (rc != 1)
            return rc;
    }
}

/* ------------------------------------------------------------------ */
/* Public API                                                          */
/* ------------------------------------------------------------------ */

int ntx_reader_fault(ntidx_reader *r) { return ntx_reader_fail(r, NTIDX_E_SHRUNK); }

int ntx_reader_next(ntidx_reader *r, const ntidx_event **ev)
{
    int rc;
    if (r->opt.order == NTIDX_ORDER_TIME) {
        rc = ntx_reader_time_next(r, ev);
    } else {
        rc = ntx_reader_file_next(r, &r->ev, 0);
        if (rc == 1)
            *ev = &r->ev;
    }
    /* The events' checkpoint: none read from the zeros of a file that shrank is handed out. */
    if (rc == 1 && __builtin_expect(ntx_trace_faulted(r->t), 0))
        return ntx_reader_fault(r);
    return rc;
}

const ntx_err *ntx_reader_error(const ntidx_reader *r) { return &r->err; }
int ntx_reader_saw_label_overrides(const ntidx_reader *r) { return r->saw_label_overrides; }
void ntx_reader_set_end(ntidx_reader *r, uint64_t end) { r->end_pos = end; }
void ntx_reader_set_time_floor(ntidx_reader *r, uint64_t ts) { r->time_floor = ts; }
void ntx_reader_set_time_ceiling(ntidx_reader *r, uint64_t ts) { r->time_ceiling = ts; }

NTIDX_API int ntidx_reader_open(ntidx_trace *t, const ntidx_reader_options *o, ntidx_reader **out)
{
    if (out)
        *out = NULL;
    if (!out || !t)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? t->name : NULL, NTIDX_NO_OFFSET, "ntidx_reader_open: NULL argument");
    ntidx_reader_options def;
    if (!o) {
        ntidx_reader_options_defaults(&def);
        o = &def;
    }
    if (o->order != NTIDX_ORDER_FILE && o->order != NTIDX_ORDER_TIME)
        return ntx_failf(NTIDX_E_INVALID_ARG, t->name, NTIDX_NO_OFFSET, "reader order %d is neither file nor time",
                         (int)o->order);
    if (!ntx_reserved_zero(o->reserved, sizeof o->reserved))
        return ntx_failf(NTIDX_E_INVALID_ARG, t->name, NTIDX_NO_OFFSET,
                         "reader options: reserved fields are not zero (fill them with ntidx_reader_options_defaults())");
    ntidx_reader *r = calloc(1, sizeof *r);
    if (!r)
        return ntx_failf(NTIDX_E_NOMEM, t->name, NTIDX_NO_OFFSET, "out of memory");
    r->seq_from_zero = 1; /* a read from the trace's start (a plan's first step forgets it) */
    r->t = t;
    r->opt = *o;
    r->pos = t->info.first_block_offset;
    r->end_pos = UINT64_MAX;
    r->live_lo = UINT64_MAX;
    ntx_idmap_init(&r->metadata);
    ntx_idmap_init(&r->derived);
    ntx_idmap_init(&r->threads);
    ntx_idmap_init(&r->stacks);
    ntx_idmap_init(&r->labels);
    ntx_idmap_init(&r->seqs);
    ntx_arena_init(&r->metadata_arena);
    ntx_arena_init(&r->thread_arena);
    ntx_arena_init(&r->stack_arena);
    ntx_arena_init(&r->label_arena);
    ntx_arena_init(&r->seq_arena);
    *out = r;
    return NTIDX_OK;
}

NTIDX_API int ntidx_reader_next(ntidx_reader *r, const ntidx_event **ev)
{
    if (!r || !ev)
        return ntx_failf(NTIDX_E_INVALID_ARG, r ? r->t->name : NULL, NTIDX_NO_OFFSET, "ntidx_reader_next: NULL argument");
    int rc = ntx_reader_next(r, ev);
    return rc < 0 ? ntx_fail(rc, r->t->name, &r->err) : rc;
}

NTIDX_API void ntidx_reader_close(ntidx_reader **rp)
{
    if (!rp || !*rp)
        return;
    ntidx_reader *r = *rp;
    r->heap_len = 0; /* nothing waits any more: everything read is given back */
    r->over_ceiling_waiting = 0;
    r->live_lo = UINT64_MAX;
    ntx_reader_release(r);
    free(r->type_verdicts);
    ntx_idmap_free(&r->metadata);
    ntx_idmap_free(&r->derived);
    ntx_idmap_free(&r->threads);
    ntx_idmap_free(&r->stacks);
    ntx_idmap_free(&r->labels);
    ntx_idmap_free(&r->seqs);
    ntx_arena_free(&r->metadata_arena);
    ntx_arena_free(&r->thread_arena);
    ntx_arena_free(&r->stack_arena);
    ntx_arena_free(&r->label_arena);
    ntx_arena_free(&r->seq_arena);
    ntx_sort_free(r);
    free(r->dropped);
    free(r);
    *rp = NULL;
}

NTIDX_API const char *ntidx_reader_incomplete_reason(const ntidx_reader *r)
{
    /* A truncated trace leaves its note in r->err with code 0 (it is not an error). */
    return r && r->at_end && !r->complete && !r->failed ? r->err.msg : "";
}
NTIDX_API int ntidx_reader_complete(const ntidx_reader *r) { return r ? r->complete : 0; }
NTIDX_API const ntidx_reader_stats *ntidx_reader_get_stats(const ntidx_reader *r) { return r ? &r->stats : NULL; }
