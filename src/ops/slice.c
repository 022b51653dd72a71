/*
 * ntidx_slice(): a window of a trace written as a new trace (see
 * include/ntidx/slice.h for what the output holds).
 *
 * How
 * ---
 * The events come from a file-order query over the window and filters, so
 * the selection is the query's by construction. The query yields events,
 * not the blocks around them, so the slice keeps its own view of the input
 * beside it, driven by the index:
 *
 *  - events are grouped by the input block that holds them (the index's
 *    BLOCKS, binary-searched by offset). When a block is done, every
 *    definition its events reference is written (if the output does not
 *    already hold that very definition), then the events: the block copied
 *    byte for byte when all of its rows were selected, else re-encoded;
 *  - before the events of block j, a walker applies, in file order, the
 *    sequence points (SEQPOINTS) and the V6 thread and remove-thread blocks
 *    (DEFS) that lie before j: it keeps the input's V6 thread rows, and once
 *    the output has events it writes each sequence point it passes (with
 *    the output's caches flushed as the input's are) and the removal of
 *    threads the output defines. It starts, like a query's priming, at the
 *    first thread definition of the first event's thread epoch;
 *  - metadata is found from the event's metadata (ntidx_metadata.offset is
 *    where its definition lies): a V6 row is copied whole; a V3-V5 payload
 *    needs its size, read from the row headers of the block holding it.
 *
 * Identity of definitions: a metadata row or V6 thread row is known by the
 * file offset of its definition, a stack or label list by the address of
 * its bytes in the mapping, so a redefinition under the same id is noticed
 * and written again.
 */
#include "slice_internal.h"

NTIDX_API void ntidx_slice_options_defaults(ntidx_slice_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->copy_blocks = 1;
    o->compressed_headers = -1;
    o->recover = 1;
}

/* ------------------------------------------------------------------ */
/* Events, block by block                                              */
/* ------------------------------------------------------------------ */

static int no_filters(const slicer *s)
{
    const ntidx_query_options *o = &s->qo;
    return !o->provider && !o->has_event_id && !o->event_name && !o->has_thread && !o->limit;
}

/* Could every row of block i be selected? Only then are its rows counted. */
static int may_copy(const slicer *s, uint64_t i)
{
    if (!s->so.copy_blocks || s->v3)
        return 0;
    const ntidx_index *x = s->x;
    if (ntx_index_is_full(x) && ntx_blk_events(x, i) == s->nev)
        return 1;
    uint8_t f = ntx_blk_flags(x, i);
    return no_filters(s) && (f & NTX_BF_RANGE) && ntx_blk_ts_min(x, i) >= s->qo.t0 &&
           ntx_blk_ts_max(x, i) < s->qo.t1;
}

/* Write the gathered events of the current block. */
static int flush_block(slicer *s)
{
    if (!s->have_block || !s->nev)
        return 0;
    int rc;
    for (size_t i = 0; i < s->nev; i++)
        if ((rc = sl_define_for(s, &s->evs[i])) < 0)
            return rc;
    if (!s->v3 && (rc = sl_define_refs(s, 0)) < 0)
        return rc;
    if (s->v6 && (rc = sl_define_refs(s, 1)) < 0)
        return rc;
    ntidx_block b;
    int copied = 0;
    if (may_copy(s, s->block)) {
        /* the query read this block already: its events came from it */
        if ((rc = sl_read_block_counted(s, s->block, &b, 0)) < 0)
            return rc;
        if (b.kind == NTIDX_BLOCK_EVENT && sl_count_rows(s, &b) == (int64_t)s->nev) {
            /* written straight from the trace's memory (write()): a source-read trace's parts that nobody read
               yet (the payloads the query did not look at) are filled first, as the kernel may not fill them */
            ntx_err unread = {0};
            if ((rc = ntx_trace_fill(s->t, b.payload_offset, b.payload_size, &unread)) < 0) {
                s->err = unread;
                s->err_is_output = 0;
                return rc;
            }
            rc = ntidx_writer_add_raw_block(s->w, NTIDX_BLOCK_EVENT, s->data + b.payload_offset,
                                            (size_t)b.payload_size);
            if (rc < 0)
                return wfail(s, rc, "event block");
            copied = 1;
            s->pending_capture = UINT64_MAX; /* the copied block ended the pending one */
            s->st.blocks_copied++;
            s->st.events_copied += s->nev;
        }
    }
    for (size_t i = 0; i < s->nev; i++) {
        const ntidx_event *e = &s->evs[i].e;
        if (!copied) {
            /* A reader may take the capture thread to change only at an IsSorted event or at the start
               of a block (TraceEvent files the rest under the last one's thread), as the runtime writes
               them. A run the window or a filter cut has lost its marked first event: it starts a
               block instead (marking it would claim an order that may not hold). */
            if (s->pending_capture != UINT64_MAX && e->capture_thread_index != s->pending_capture &&
                !e->is_sorted && (rc = ntidx_writer_flush(s->w)) < 0)
                return wfail(s, rc, "event block");
            if ((rc = ntidx_writer_add_event(s->w, e)) < 0)
                return wfail(s, rc, "event");
            s->pending_capture = e->capture_thread_index;
        }
        if (!s->v6) {
            static char mark;
            if (!ntx_idmap_get(&s->seen.m, e->capture_thread_index) &&
                ntx_idmap_put(&s->seen.m, e->capture_thread_index, &mark) != 0)
                return nomem(s);
        }
    }
    s->st.events += s->nev;
    s->nev = 0;
    return 0;
}

static int take_event(slicer *s, const ntidx_event *e)
{
    const ntidx_index *x = s->x;
    int rc;
    if (!s->have_block || e->offset < ntx_blk_offset(x, s->block) ||
        e->offset >= ntx_blk_offset(x, s->block) + ntx_blk_size(x, s->block)) {
        if ((rc = flush_block(s)) < 0)
            return rc;
        uint64_t j = sl_block_at(x, e->offset);
        if ((rc = sl_walk_to(s, j)) < 0)
            return rc;
        s->have_block = 1;
        s->block = j;
        s->started = 1;
    }
    if (s->nev == s->evcap) {
        size_t n = s->evcap ? s->evcap * 2 : 1024;
        sl_event *p = realloc(s->evs, n * sizeof *p);
        if (!p)
            return nomem(s);
        s->evs = p;
        s->evcap = n;
    }
    sl_event *ev = &s->evs[s->nev++];
    ev->e = *e;
    ev->meta_def = e->metadata->offset;
    ev->e.metadata = NULL;
    ev->e.thread = NULL;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Set-up                                                              */
/* ------------------------------------------------------------------ */

/*
 * V4 and V5 share a header: readers call a trace V5 when its first metadata
 * blocks carry V5 tags. For a V5 input, the first tagged row is defined
 * first. Returns 0 also when there is none.
 */
static int define_v5_marker(slicer *s)
{
    ntidx_trace *t = s->t;
    uint64_t pos = ntidx_trace_get_info(t)->first_block_offset;
    int seen = 0;
    ntx_err e = {0};
    for (int i = 0; i < 64 && seen < 4; i++) {
        ntidx_block b;
        if (ntx_next_block(t, &pos, &b, &e) != 1)
            return 0;
        if (b.kind != NTIDX_BLOCK_METADATA)
            continue;
        seen++;
        s->own_bytes += b.size;
        ntx_hdr_block hb;
        if (ntx_hdr_block_init(&hb, t, &b, &e) < 0)
            continue;
        ntx_hdr h;
        while (ntx_hdr_next(&hb, &h, &e) == 1) {
            ntx_arena a;
            ntx_arena_init(&a);
            ntidx_metadata *m;
            int v5 = 0;
            int rc = ntx_metadata_parse_blob(&a, s->data, h.payload_off, h.payload_size, &m, &v5, &e);
            uint32_t id = rc == 0 ? m->id : 0;
            ntx_arena_free(&a);
            if (rc < 0)
                break;
            if (!v5)
                continue;
            int fresh;
            sl_def *d = map_slot(&s->msize, h.payload_off, sizeof *d, &fresh);
            if (!d)
                return nomem(s);
            d->off = h.payload_off;
            d->size = h.payload_size;
            return sl_write_metadata(s, id, h.payload_off);
        }
    }
    return 0;
}

/* The input's compression of event headers: its first event block's flag. */
static int input_compressed(slicer *s)
{
    const ntidx_index *x = s->x;
    if (s->v3)
        return 1;
    for (uint64_t i = 0; i < ntx_index_block_count(x); i++) {
        if (ntx_blk_kind(x, i) != NTIDX_BLOCK_EVENT)
            continue;
        uint64_t pos = ntx_blk_offset(x, i);
        ntidx_block b;
        ntx_err e = {0};
        ntx_hdr_block hb;
        if (ntx_next_block(s->t, &pos, &b, &e) != 1 || ntx_hdr_block_init(&hb, s->t, &b, &e) < 0)
            return 1;
        return hb.compressed;
    }
    return 1;
}

static void writer_options(slicer *s, ntidx_writer_options *wo)
{
    const ntidx_trace_info *in = ntidx_trace_get_info(s->t);
    ntidx_writer_options_defaults(wo);
    wo->format_version = s->v6 ? 6 : 5;
    wo->pointer_size = in->pointer_size;
    wo->sync_time_utc = in->sync_time_utc;
    wo->sync_ticks = in->sync_ticks;
    wo->tick_frequency = in->tick_frequency;
    if (s->v6) {
        /* V6 keeps these as trace-block pairs: the input's pairs carry them already. */
        wo->keyvalues = in->keyvalues;
        wo->keyvalue_count = in->keyvalue_count;
    } else {
        wo->process_id = in->process_id;
        wo->number_of_processors = in->number_of_processors;
        wo->expected_cpu_sampling_rate = in->expected_cpu_sampling_rate;
    }
    wo->compressed_headers = s->so.compressed_headers >= 0 ? s->so.compressed_headers != 0 : input_compressed(s);
    if (s->so.max_event_block_bytes)
        wo->max_event_block_bytes = s->so.max_event_block_bytes;
}

static void slicer_free(slicer *s)
{
    ntidx_query_close(&s->q);
    /* Only the memory slice's writer is still open here (the fd path closed and checked its own): a
       memory writer fails at close only with the error run() already returned. */
    int close_rc = ntidx_writer_close(&s->w);
    (void)close_rc;
    sl_map *maps[] = {&s->meta_out, &s->stack_out, &s->label_out, &s->thread_out, &s->seen,
                      &s->thread_in, &s->msize, &s->v3stacks};
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
        map_free(maps[i]);
    free(s->evs);
    free(s->list);
    free(s->need);
}

/* Run the slice into s->w (opened by the caller). */
static int run_slice(slicer *s)
{
    int rc;
    if (!s->v6 && !s->v3 && ntidx_trace_get_info(s->t)->format_version == 5 && (rc = define_v5_marker(s)) < 0)
        return rc;
    ntidx_query_options qo = s->qo;
    qo.order = NTIDX_ORDER_FILE;
    if ((rc = ntidx_query_open(s->t, s->x, &qo, &s->q)) < 0)
        return ntx_err_from_last(&s->err, rc);
    /* progress: the bytes the query has read of those it will read, known from the index */
    ntidx_query_cost cost = {0};
    if (s->so.progress && ntidx_query_estimate(s->t, s->x, &qo, &cost) < 0)
        cost.bytes = 0;
    const ntidx_event *e;
    uint64_t n = 0;
    while ((rc = ntidx_query_next(s->q, &e)) == 1) {
        if ((rc = take_event(s, e)) < 0)
            return rc;
        if (cost.bytes && (++n & 4095) == 0 &&
            s->so.progress(s->so.progress_ctx, ntidx_query_get_stats(s->q)->bytes_read, cost.bytes))
            return FAIL(s, NTIDX_E_CANCELLED, "cancelled");
    }
    if (rc < 0)
        return ntx_err_from_last(&s->err, rc); /* the query said why */
    if ((rc = flush_block(s)) < 0)
        return rc;
    s->st.query_bytes_read = ntidx_query_get_stats(s->q)->bytes_read;
    if ((rc = ntidx_writer_finish(s->w)) < 0)
        return wfail(s, rc, "end of stream");
    s->st.bytes_written = ntidx_writer_bytes(s->w);
    return 0;
}

/*
 * Blocks, stacks and definitions are copied from the mapping: nothing of a file that shrank meanwhile is a
 * slice, and whatever stopped the slice then (a large block written straight from the mapping fails with
 * EFAULT, not a fault: the kernel reads it) is the shrink's doing.
 */
static int run(slicer *s)
{
    int rc = run_slice(s);
    ntx_err shrunk = {0};
    int c = ntx_trace_check_end(s->t, &shrunk);
    if (c < 0) {
        s->err = shrunk;
        s->err_is_output = 0;
        rc = c;
    }
    return rc;
}

static int slicer_init(slicer *s, ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *q,
                       const ntidx_slice_options *o)
{
    memset(s, 0, sizeof *s);
    s->pending_capture = UINT64_MAX;
    s->t = t;
    s->data = ntidx_trace_data(t, &s->size);
    s->x = x;
    if (q)
        s->qo = *q;
    else
        ntidx_query_options_defaults(&s->qo);
    if (o)
        s->so = *o;
    else
        ntidx_slice_options_defaults(&s->so);
    const ntidx_trace_info *in = ntidx_trace_get_info(t);
    s->v6 = in->format_version == 6;
    s->v3 = in->format_version == 3;
    s->st.format_version = s->v6 ? 6 : 5;
    sl_map *maps[] = {&s->meta_out, &s->stack_out, &s->label_out, &s->thread_out, &s->seen,
                      &s->thread_in, &s->msize, &s->v3stacks};
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
        map_init(maps[i]);
    if (in->pointer_size != 4 && in->pointer_size != 8)
        return FAIL(s, NTIDX_E_UNSUPPORTED, "pointer size %u is not 4 or 8: the writer cannot keep it",
                    in->pointer_size);
    if (in->tick_frequency <= 0)
        return FAIL(s, NTIDX_E_UNSUPPORTED, "the tick frequency is not positive");
    return 0;
}

/* The stats, and the error (if any) published: about the output or the trace. */
static int finish_report(slicer *s, int rc, ntidx_slice_stats *stats)
{
    s->st.bytes_read = s->st.query_bytes_read + s->own_bytes + s->walk.bytes;
    if (stats)
        *stats = s->st;
    if (rc >= 0)
        return NTIDX_OK;
    return ntx_fail(rc, s->err_is_output ? s->out_path : ntidx_trace_name(s->t), &s->err);
}

/* A slice looks blocks up by offset across the whole table: a lazily checked index is checked whole first,
   before anything is written (NTIDX_E_INDEX_CORRUPT: ntidx_index_recover() rebuilds it). */
static int index_ready(const ntidx_index *x)
{
    ntx_err ce = {0};
    int rc = ntx_index_need_all(x, &ce);
    return rc < 0 ? ntx_fail(rc, ntx_index_name(x), &ce) : NTIDX_OK;
}

NTIDX_API int ntidx_slice_fd(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *q,
                             const ntidx_slice_options *o, int fd, const char *name, ntidx_slice_stats *stats)
{
    if (!t || !x || fd < 0)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET,
                         "ntidx_slice_fd: NULL argument or no descriptor");
    if (o && !ntx_reserved_zero(o->reserved, sizeof o->reserved))
        return ntx_failf(NTIDX_E_INVALID_ARG, ntidx_trace_name(t), NTIDX_NO_OFFSET,
                         "slice options: reserved fields are not zero (fill them with ntidx_slice_options_defaults())");
    int rc = index_ready(x);
    if (rc < 0)
        return rc;
    slicer s;
    rc = slicer_init(&s, t, x, q, o);
    s.out_path = name ? name : "(output)";
    /* Writing into the input would pull the pages out from under its mapping. */
    struct stat b;
    if (!rc && fstat(fd, &b) == 0 && ntx_trace_is_file(t, &b))
        rc = FAIL(&s, NTIDX_E_INVALID_ARG, "the output %s is the input trace", s.out_path);
    if (!rc) {
        ntidx_writer_options wo;
        writer_options(&s, &wo);
        rc = ntidx_writer_open_fd(fd, s.out_path, &wo, &s.w);
        if (rc < 0) {
            s.err_is_output = 1;
            ntx_err_from_last(&s.err, rc); /* the writer said why */
        }
    }
    if (!rc)
        rc = run(&s);
    if (s.w) {
        int crc = ntidx_writer_close(&s.w);
        if (!rc && crc < 0)
            rc = wfail(&s, crc, "closing");
    }
    rc = finish_report(&s, rc, stats);
    slicer_free(&s);
    return rc;
}

NTIDX_API int ntidx_slice(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *q,
                          const ntidx_slice_options *o, const char *out_path, ntidx_slice_stats *stats)
{
    if (!t || !x || !out_path)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET,
                         "ntidx_slice: NULL argument");
    /* Before the temporary is made: replacing the input would be a surprise, whatever its mapping does. */
    struct stat b;
    if (stat(out_path, &b) == 0 && ntx_trace_is_file(t, &b))
        return ntx_failf(NTIDX_E_INVALID_ARG, ntidx_trace_name(t), NTIDX_NO_OFFSET,
                         "the output %s is the input trace", out_path);
    /* A temporary beside out_path, renamed over it when complete: a failed slice leaves out_path as it was
       (and a device or a FIFO is written in place, never removed). */
    ntidx_output *out;
    int rc = ntidx_output_open(out_path, &out);
    if (rc < 0)
        return rc;
    rc = ntidx_slice_fd(t, x, q, o, ntidx_output_fd(out), out_path, stats);
    if (rc < 0) {
        ntidx_output_discard(&out);
        return rc;
    }
    return ntidx_output_commit(&out);
}

NTIDX_API int ntidx_slice_memory(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *q,
                                 const ntidx_slice_options *o, uint8_t **data, size_t *size, ntidx_slice_stats *stats)
{
    if (!t || !x || !data || !size)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET,
                         "ntidx_slice_memory: NULL argument");
    *data = NULL;
    *size = 0;
    if (o && !ntx_reserved_zero(o->reserved, sizeof o->reserved))
        return ntx_failf(NTIDX_E_INVALID_ARG, ntidx_trace_name(t), NTIDX_NO_OFFSET,
                         "slice options: reserved fields are not zero (fill them with ntidx_slice_options_defaults())");
    int rc = index_ready(x);
    if (rc < 0)
        return rc;
    slicer s;
    rc = slicer_init(&s, t, x, q, o);
    if (!rc) {
        ntidx_writer_options wo;
        writer_options(&s, &wo);
        if ((rc = ntidx_writer_open_memory(&wo, &s.w)) < 0)
            ntx_err_from_last(&s.err, rc);
    }
    if (!rc)
        rc = run(&s);
    if (!rc) {
        size_t n;
        const uint8_t *p = ntidx_writer_memory(s.w, &n);
        uint8_t *copy = malloc(n ? n : 1);
        if (!copy) {
            rc = nomem(&s);
        } else {
            memcpy(copy, p, n);
            *data = copy;
            *size = n;
        }
    }
    rc = finish_report(&s, rc, stats);
    slicer_free(&s);
    return rc;
}
