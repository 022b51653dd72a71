/*
 * Writer API: options, lifetime, and the grouping of definitions and events
 * into blocks. The byte layouts live in encode.c, writer_v5.c, writer_v6.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "writer_internal.h"

NTIDX_API void ntidx_writer_options_defaults(ntidx_writer_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof(*o));
    o->format_version = 6;
    o->pointer_size = 8;
    /* 2026-01-01T00:00:00Z, a Thursday (DayOfWeek 4, Sunday = 0). */
    o->sync_time_utc.year = 2026;
    o->sync_time_utc.month = 1;
    o->sync_time_utc.day_of_week = 4;
    o->sync_time_utc.day = 1;
    o->sync_ticks = 0;
    o->tick_frequency = 10000000;
    o->compressed_headers = 1;
    o->max_event_block_bytes = 100000;
}

static int check_options(const ntidx_writer_options *o)
{
    if (o->format_version != 5 && o->format_version != 6)
        return NTIDX_E_INVALID_ARG;
    if (o->pointer_size != 4 && o->pointer_size != 8)
        return NTIDX_E_INVALID_ARG;
    if (o->tick_frequency <= 0)
        return NTIDX_E_INVALID_ARG;
    if (o->keyvalue_count && !o->keyvalues)
        return NTIDX_E_INVALID_ARG;
    /* Room for the block header and one small event; V6 sizes are 24-bit. */
    if (o->max_event_block_bytes < 64 ||
        (o->format_version == 6 && o->max_event_block_bytes > NTIDX_W_V6_MAX_BLOCK) ||
        o->max_event_block_bytes > INT32_MAX)
        return NTIDX_E_INVALID_ARG;
    return NTIDX_OK;
}

static void reset_event_block(ntidx_writer *w)
{
    w->ev.len = 0;
    w->ev_count = 0;
    memset(&w->ev_prev, 0, sizeof(w->ev_prev));
    w->ev_min_ts = UINT64_MAX;
    w->ev_max_ts = 0;
}

static void reset_metadata_block(ntidx_writer *w)
{
    w->meta.len = 0;
    w->meta_count = 0;
    memset(&w->meta_prev, 0, sizeof(w->meta_prev));
    w->meta_min_ts = UINT64_MAX;
    w->meta_max_ts = 0;
}

static void free_buffers(ntidx_writer *w)
{
    ntidx_buf_free(&w->ev);
    ntidx_buf_free(&w->meta);
    ntidx_buf_free(&w->stacks);
    ntidx_buf_free(&w->threads);
    ntidx_buf_free(&w->labels);
    ntidx_buf_free(&w->scratch);
}

/* A public call's failure published (the one error model): an output that cannot be written names the file
   and errno's text; anything else the call and the code. */
static int said(const ntidx_writer *w, const char *call, int rc)
{
    if (rc >= 0)
        return rc;
    const char *file = w ? w->path : NULL;
    if ((rc == NTIDX_E_WRITE || rc == NTIDX_E_IO) && w && w->sink.saved_errno)
        return ntx_failf(rc, file, NTIDX_NO_OFFSET, "cannot write: %s", strerror(w->sink.saved_errno));
    return ntx_failf(rc, file, NTIDX_NO_OFFSET, "%s: %s", call, ntidx_strerror(rc));
}

/* A writer into the file `path`, else into the caller's descriptor `fd` (>= 0) called `name`, else into memory. */
static int writer_open(ntidx_writer **out, const char *path, int fd, const char *name, const ntidx_writer_options *o)
{
    if (!out)
        return NTIDX_E_INVALID_ARG;
    *out = NULL;
    ntidx_writer_options defaults;
    if (!o) {
        ntidx_writer_options_defaults(&defaults);
        o = &defaults;
    }
    if (!ntx_reserved_zero(o->reserved, sizeof o->reserved))
        return NTIDX_E_INVALID_ARG;
    int rc = check_options(o);
    if (rc)
        return rc;
    ntidx_writer *w = calloc(1, sizeof(*w));
    if (!w)
        return NTIDX_E_NOMEM;
    w->o = *o;
    if (!path)
        path = name;
    w->path = path ? strdup(path) : NULL;
    if (path && !w->path) {
        free(w);
        return NTIDX_E_NOMEM;
    }
    w->v6 = o->format_version == 6;
    w->last_ts = (uint64_t)o->sync_ticks;
    reset_event_block(w);
    reset_metadata_block(w);

    rc = fd >= 0 ? ntidx_w_sink_open_fd(&w->sink, fd)
         : path  ? ntidx_w_sink_open_file(&w->sink, path)
                 : ntidx_w_sink_open_memory(&w->sink);
    if (rc) {
        int saved_errno = w->sink.saved_errno;
        free(w->path);
        free(w);
        if (saved_errno)
            errno = saved_errno; /* why open() failed, for the caller's message */
        return rc;
    }
    /* The event block never outgrows the limit, so reserve it once. */
    rc = ntx_buf_reserve(&w->ev, o->max_event_block_bytes);
    if (!rc)
        rc = w->v6 ? ntidx_w_v6_begin(w) : ntidx_w_v5_begin(w);
    /* The caller's key/value pairs are written now and not kept. */
    w->o.keyvalues = NULL;
    w->o.keyvalue_count = 0;
    if (rc) {
        ntidx_w_sink_close(&w->sink);
        free_buffers(w);
        free(w->path);
        free(w);
        return rc;
    }
    *out = w;
    return NTIDX_OK;
}

NTIDX_API int ntidx_writer_open_file(const char *path, const ntidx_writer_options *o, ntidx_writer **out)
{
    if (!path) {
        if (out)
            *out = NULL;
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_writer_open_file: NULL path");
    }
    int rc = writer_open(out, path, -1, NULL, o);
    if (rc == NTIDX_E_IO || rc == NTIDX_E_WRITE)
        return ntx_failf(rc, path, NTIDX_NO_OFFSET, "cannot create: %s", strerror(errno));
    return rc < 0 ? ntx_failf(rc, path, NTIDX_NO_OFFSET, "cannot start a trace: %s (writer options)", ntidx_strerror(rc))
                  : rc;
}

NTIDX_API int ntidx_writer_open_fd(int fd, const char *name, const ntidx_writer_options *o, ntidx_writer **out)
{
    if (fd < 0) {
        if (out)
            *out = NULL;
        return ntx_failf(NTIDX_E_INVALID_ARG, name, NTIDX_NO_OFFSET, "ntidx_writer_open_fd: no descriptor");
    }
    int rc = writer_open(out, NULL, fd, name, o);
    return rc < 0 ? ntx_failf(rc, name, NTIDX_NO_OFFSET, "cannot start a trace: %s", ntidx_strerror(rc)) : rc;
}

NTIDX_API int ntidx_writer_open_memory(const ntidx_writer_options *o, ntidx_writer **out)
{
    int rc = writer_open(out, NULL, -1, NULL, o);
    return rc < 0 ? ntx_failf(rc, NULL, NTIDX_NO_OFFSET, "cannot start a trace in memory: %s", ntidx_strerror(rc)) : rc;
}

NTIDX_API const uint8_t *ntidx_writer_memory(const ntidx_writer *w, size_t *size)
{
    if (!w || w->sink.fd >= 0) {
        if (size)
            *size = 0;
        return NULL;
    }
    if (size)
        *size = w->sink.len;
    return w->sink.buf;
}

uint8_t *ntidx_w_take_memory(ntidx_writer *w, size_t *size)
{
    uint8_t *p = w->sink.buf;
    *size = w->sink.len;
    w->sink.buf = NULL;
    w->sink.len = w->sink.cap = 0;
    return p;
}

NTIDX_API uint64_t ntidx_writer_bytes(const ntidx_writer *w)
{
    if (!w)
        return 0;
    /* Pending blocks are counted by content; their framing is a few bytes more. */
    uint64_t n = ntidx_w_sink_offset(&w->sink);
    if (w->ev_count)
        n += NTIDX_W_EVENT_BLOCK_HEADER + w->ev.len;
    return n + w->meta.len + w->stacks.len + w->threads.len + w->labels.len;
}

/* ---- writing pending blocks ---- */

static int write_block(ntidx_writer *w, ntidx_block_kind kind, const uint8_t *head, size_t hlen,
                       const uint8_t *body, size_t blen)
{
    int rc = w->v6 ? ntidx_w_v6_block(w, kind, head, hlen, body, blen)
                   : ntidx_w_v5_block(w, kind, head, hlen, body, blen);
    return rc ? ntidx_w_fail(w, rc) : 0;
}

/* Event and V5 metadata blocks share this 20-byte header. */
static void event_block_header(uint8_t *h, int compressed, uint64_t min_ts, uint64_t max_ts)
{
    ntx_store16(h, NTIDX_W_EVENT_BLOCK_HEADER);
    ntx_store16(h + 2, compressed ? 1 : 0);
    ntx_store64(h + 4, min_ts);
    ntx_store64(h + 12, max_ts);
}

static int flush_metadata(ntidx_writer *w)
{
    if (!w->meta_count)
        return 0;
    int rc;
    if (w->v6) {
        uint8_t h[2] = {0, 0}; /* HeaderSize 0: no extra header bytes */
        rc = write_block(w, NTIDX_BLOCK_METADATA, h, 2, w->meta.bytes, w->meta.len);
    } else {
        uint8_t h[NTIDX_W_EVENT_BLOCK_HEADER];
        event_block_header(h, w->o.compressed_headers, w->meta_min_ts, w->meta_max_ts);
        rc = write_block(w, NTIDX_BLOCK_METADATA, h, sizeof(h), w->meta.bytes, w->meta.len);
    }
    reset_metadata_block(w);
    return rc;
}

/* Stack and label-list blocks: uint32 FirstId, uint32 Count, entries. */
static int flush_id_block(ntidx_writer *w, ntidx_block_kind kind, ntidx_buf *b,
                          uint32_t *first, uint32_t *count)
{
    if (!*count)
        return 0;
    uint8_t h[8];
    ntx_store32(h, *first);
    ntx_store32(h + 4, *count);
    int rc = write_block(w, kind, h, 8, b->bytes, b->len);
    b->len = 0;
    *count = 0;
    return rc;
}

static int flush_threads(ntidx_writer *w)
{
    if (!w->thread_count)
        return 0;
    int rc = write_block(w, NTIDX_BLOCK_THREAD, NULL, 0, w->threads.bytes, w->threads.len);
    w->threads.len = 0;
    w->thread_count = 0;
    return rc;
}

static int flush_definitions(ntidx_writer *w)
{
    int rc = flush_metadata(w);
    if (!rc)
        rc = flush_threads(w);
    if (!rc)
        rc = flush_id_block(w, NTIDX_BLOCK_STACK, &w->stacks, &w->stack_first, &w->stack_count);
    if (!rc)
        rc = flush_id_block(w, NTIDX_BLOCK_LABEL_LIST, &w->labels, &w->label_first,
                            &w->label_count);
    return rc;
}

static int flush_events(ntidx_writer *w)
{
    if (!w->ev_count)
        return 0;
    uint8_t h[NTIDX_W_EVENT_BLOCK_HEADER];
    event_block_header(h, w->o.compressed_headers, w->ev_min_ts, w->ev_max_ts);
    int rc = write_block(w, NTIDX_BLOCK_EVENT, h, sizeof(h), w->ev.bytes, w->ev.len);
    reset_event_block(w);
    return rc;
}

/* Definitions first: events may only reference what precedes them. */
static int flush_pending(ntidx_writer *w)
{
    int rc = flush_definitions(w);
    return rc ? rc : flush_events(w);
}

static int usable(const ntidx_writer *w)
{
    if (!w)
        return NTIDX_E_INVALID_ARG;
    if (w->err)
        return w->err;
    return w->finished ? NTIDX_E_INVALID_ARG : 0;
}

/* ---- definitions ---- */

/*
 * Append one metadata definition already encoded in `s` (V6: a whole row,
 * Size included; V5: the metadata payload) to the pending metadata block.
 */
static int put_metadata_encoded(ntidx_writer *w, const ntidx_buf *s)
{
    int rc;
    size_t row_max = s->len + NTIDX_W_V5_UNCOMPRESSED_HDR + 3;
    if (w->meta_count && w->meta.len + row_max > NTIDX_W_DEF_BLOCK_LIMIT &&
        (rc = flush_metadata(w)))
        return rc;
    if (w->v6) {
        ntx_buf_put(&w->meta, s->bytes, s->len);
    } else {
        /* A V5 metadata row is an event blob with MetadataId 0, sequence 0,
         * thread 0, stamped with the latest event time. */
        ntidx_w_hdr h;
        memset(&h, 0, sizeof(h));
        h.timestamp = w->last_ts;
        h.payload_size = (uint32_t)s->len;
        uint8_t hb[NTIDX_W_V5_UNCOMPRESSED_HDR > NTIDX_W_MAX_COMPRESSED_HDR
                       ? NTIDX_W_V5_UNCOMPRESSED_HDR
                       : NTIDX_W_MAX_COMPRESSED_HDR];
        uint32_t pad = 0;
        size_t hn;
        if (w->o.compressed_headers) {
            hn = ntidx_w_hdr_v5_compressed(hb, &w->meta_prev, &h, 0);
        } else {
            pad = ntidx_w_pad4(s->len);
            /* Marked sorted so that the MetadataId word is a plain 0. */
            hn = ntidx_w_hdr_v5_uncompressed(hb, &h, 1, pad);
        }
        ntx_buf_put(&w->meta, hb, hn);
        ntx_buf_put(&w->meta, s->bytes, s->len);
        ntx_buf_zero(&w->meta, pad);
        if (h.timestamp < w->meta_min_ts)
            w->meta_min_ts = h.timestamp;
        if (h.timestamp > w->meta_max_ts)
            w->meta_max_ts = h.timestamp;
    }
    if (w->meta.err)
        return ntidx_w_fail(w, w->meta.err);
    w->meta_count++;
    return NTIDX_OK;
}

static int writer_add_metadata(ntidx_writer *w, const ntidx_metadata *m)
{
    int rc = usable(w);
    if (rc)
        return rc;
    if (!m)
        return NTIDX_E_INVALID_ARG;
    ntidx_buf *s = &w->scratch;
    s->len = 0;
    if (w->v6) {
        rc = ntidx_w_v6_metadata_row(s, m);
    } else {
        rc = ntidx_w_v5_metadata_payload(s, m);
        if (!rc && s->len > INT32_MAX)
            rc = NTIDX_E_INVALID_ARG;
    }
    if (rc)
        return rc == NTIDX_E_NOMEM ? ntidx_w_fail(w, rc) : rc;
    return put_metadata_encoded(w, s);
}

static int writer_add_metadata_raw(ntidx_writer *w, const uint8_t *data, size_t size)
{
    int rc = usable(w);
    if (rc)
        return rc;
    if (!data)
        return NTIDX_E_INVALID_ARG;
    if (w->v6) {
        /* uint16 Size, then Size bytes holding at least the id. */
        if (size < 3 || size - 2 != (size_t)(data[0] | (data[1] << 8)))
            return NTIDX_E_INVALID_ARG;
    } else if (size < 4 || size > INT32_MAX - 256) {
        return NTIDX_E_INVALID_ARG; /* at least the MetadataId */
    }
    ntidx_buf *s = &w->scratch;
    s->len = 0;
    ntx_buf_put(s, data, size);
    if (s->err)
        return ntidx_w_fail(w, s->err);
    return put_metadata_encoded(w, s);
}

static int writer_add_thread(ntidx_writer *w, const ntidx_thread *th)
{
    int rc = usable(w);
    if (rc)
        return rc;
    if (!th || !w->v6)
        return NTIDX_E_INVALID_ARG;
    ntidx_buf *s = &w->scratch;
    s->len = 0;
    rc = ntidx_w_v6_thread_row(s, th);
    if (rc)
        return rc == NTIDX_E_NOMEM ? ntidx_w_fail(w, rc) : rc;
    if (w->thread_count && w->threads.len + s->len > NTIDX_W_DEF_BLOCK_LIMIT &&
        (rc = flush_threads(w)))
        return rc;
    ntx_buf_put(&w->threads, s->bytes, s->len);
    if (w->threads.err)
        return ntidx_w_fail(w, w->threads.err);
    w->thread_count++;
    return NTIDX_OK;
}

static int writer_add_stack(ntidx_writer *w, uint32_t id, const uint8_t *ips,
                                     uint32_t size)
{
    int rc = usable(w);
    if (rc)
        return rc;
    if (size && !ips)
        return NTIDX_E_INVALID_ARG;
    /* A stack block numbers its stacks consecutively from FirstId. */
    if (w->stack_count && (id != w->stack_first + w->stack_count ||
                           w->stacks.len + 4 + (uint64_t)size > NTIDX_W_DEF_BLOCK_LIMIT) &&
        (rc = flush_id_block(w, NTIDX_BLOCK_STACK, &w->stacks, &w->stack_first,
                             &w->stack_count)))
        return rc;
    if (!w->stack_count)
        w->stack_first = id;
    ntx_buf_u32(&w->stacks, size);
    ntx_buf_put(&w->stacks, ips, size);
    if (w->stacks.err)
        return ntidx_w_fail(w, w->stacks.err);
    w->stack_count++;
    return NTIDX_OK;
}

static int writer_add_label_list(ntidx_writer *w, uint32_t id, const ntidx_label *labels,
                                          size_t n)
{
    int rc = usable(w);
    if (rc)
        return rc;
    if (!w->v6 || id == 0 || n == 0 || !labels)
        return NTIDX_E_INVALID_ARG;
    ntidx_buf *s = &w->scratch;
    s->len = 0;
    rc = ntidx_w_v6_label_list(s, labels, n);
    if (rc)
        return rc == NTIDX_E_NOMEM ? ntidx_w_fail(w, rc) : rc;
    if (w->label_count && (id != w->label_first + w->label_count ||
                           w->labels.len + s->len > NTIDX_W_DEF_BLOCK_LIMIT) &&
        (rc = flush_id_block(w, NTIDX_BLOCK_LABEL_LIST, &w->labels, &w->label_first,
                             &w->label_count)))
        return rc;
    if (!w->label_count)
        w->label_first = id;
    ntx_buf_put(&w->labels, s->bytes, s->len);
    if (w->labels.err)
        return ntidx_w_fail(w, w->labels.err);
    w->label_count++;
    return NTIDX_OK;
}

static int writer_add_thread_raw(ntidx_writer *w, const uint8_t *row, size_t size)
{
    int rc = usable(w);
    if (rc)
        return rc;
    if (!w->v6 || !row || size < 3 || size - 2 != (size_t)(row[0] | (row[1] << 8)))
        return NTIDX_E_INVALID_ARG;
    if (w->thread_count && w->threads.len + size > NTIDX_W_DEF_BLOCK_LIMIT &&
        (rc = flush_threads(w)))
        return rc;
    ntx_buf_put(&w->threads, row, size);
    if (w->threads.err)
        return ntidx_w_fail(w, w->threads.err);
    w->thread_count++;
    return NTIDX_OK;
}

static int writer_add_label_list_raw(ntidx_writer *w, uint32_t id, const uint8_t *labels,
                                              size_t size)
{
    int rc = usable(w);
    if (rc)
        return rc;
    if (!w->v6 || id == 0 || size == 0 || !labels || size > NTIDX_W_V6_MAX_BLOCK)
        return NTIDX_E_INVALID_ARG;
    if (w->label_count && (id != w->label_first + w->label_count ||
                           w->labels.len + size > NTIDX_W_DEF_BLOCK_LIMIT) &&
        (rc = flush_id_block(w, NTIDX_BLOCK_LABEL_LIST, &w->labels, &w->label_first,
                             &w->label_count)))
        return rc;
    if (!w->label_count)
        w->label_first = id;
    ntx_buf_put(&w->labels, labels, size);
    if (w->labels.err)
        return ntidx_w_fail(w, w->labels.err);
    w->label_count++;
    return NTIDX_OK;
}

/* ---- events ---- */

static const uint8_t zero_guid[16];

/* Encode one event row at the end of the pending block; returns its size. */
static size_t encode_event(ntidx_writer *w, const ntidx_w_hdr *h, const ntidx_event *ev)
{
    uint8_t *p = w->ev.bytes + w->ev.len;
    size_t hn;
    uint32_t pad = 0;
    if (w->o.compressed_headers) {
        hn = w->v6 ? ntidx_w_hdr_v6_compressed(p, &w->ev_prev, h, ev->is_sorted)
                   : ntidx_w_hdr_v5_compressed(p, &w->ev_prev, h, ev->is_sorted);
    } else if (w->v6) {
        hn = ntidx_w_hdr_v6_uncompressed(p, h, ev->is_sorted);
    } else {
        /* The block content starts 4-aligned in the file and every
         * uncompressed row keeps that alignment, so padding the payload to
         * a multiple of 4 pads the row to a 4-byte file offset. */
        pad = ntidx_w_pad4(h->payload_size);
        hn = ntidx_w_hdr_v5_uncompressed(p, h, ev->is_sorted, pad);
    }
    if (h->payload_size)
        memcpy(p + hn, ev->payload, h->payload_size);
    memset(p + hn + h->payload_size, 0, pad);
    return hn + h->payload_size + pad;
}

static int writer_add_event(ntidx_writer *w, const ntidx_event *ev)
{
    int rc = usable(w);
    if (rc)
        return rc;
    if (!ev || (ev->payload_size && !ev->payload))
        return NTIDX_E_INVALID_ARG;
    size_t row_max = (size_t)NTIDX_W_V5_UNCOMPRESSED_HDR + NTIDX_W_MAX_COMPRESSED_HDR +
                     ev->payload_size + 3;
    if (w->v6 && row_max + NTIDX_W_EVENT_BLOCK_HEADER > NTIDX_W_V6_MAX_BLOCK)
        return NTIDX_E_INVALID_ARG;
    if (!w->v6 && ev->payload_size > INT32_MAX - 256)
        return NTIDX_E_INVALID_ARG;
    if (ntx_buf_reserve(&w->ev, row_max))
        return ntidx_w_fail(w, w->ev.err);

    ntidx_w_hdr h;
    h.metadata_id = ev->metadata_id;
    h.sequence_number = ev->sequence_number;
    h.thread = ev->thread_index;
    h.capture_thread = ev->capture_thread_index;
    h.processor_number = ev->processor_number;
    h.stack_id = ev->stack_id;
    h.timestamp = ev->timestamp;
    if (w->v6) {
        memset(h.activity_id, 0, 16); /* unused in V6 */
        memset(h.related_activity_id, 0, 16);
    } else {
        memcpy(h.activity_id, ev->activity_id ? ev->activity_id : zero_guid, 16);
        memcpy(h.related_activity_id,
               ev->related_activity_id ? ev->related_activity_id : zero_guid, 16);
    }
    h.label_list_id = ev->label_list_id;
    h.payload_size = ev->payload_size;

    size_t n;
    if (NTIDX_W_EVENT_BLOCK_HEADER + w->ev.len + row_max <= w->o.max_event_block_bytes) {
        n = encode_event(w, &h, ev); /* fits whatever its header compresses to */
    } else {
        ntidx_w_hdr saved = w->ev_prev;
        n = encode_event(w, &h, ev);
        if (w->ev_count &&
            NTIDX_W_EVENT_BLOCK_HEADER + w->ev.len + n > w->o.max_event_block_bytes) {
            /* Does not fit: write the block without it and start a new one,
             * whose header compression starts from zero again. */
            w->ev_prev = saved;
            if ((rc = flush_pending(w)))
                return rc;
            n = encode_event(w, &h, ev);
        }
    }
    w->ev.len += n;
    w->ev_count++;
    if (h.timestamp < w->ev_min_ts)
        w->ev_min_ts = h.timestamp;
    if (h.timestamp > w->ev_max_ts)
        w->ev_max_ts = h.timestamp;
    if (h.timestamp > w->last_ts)
        w->last_ts = h.timestamp;
    return NTIDX_OK;
}

/* ---- stream structure ---- */

static int writer_sequence_point(ntidx_writer *w, uint64_t timestamp, uint32_t flags,
                                          const ntidx_thread_seq *threads, size_t n)
{
    int rc = usable(w);
    if (rc)
        return rc;
    if (n && !threads)
        return NTIDX_E_INVALID_ARG;
    if ((rc = flush_pending(w)))
        return rc;
    rc = w->v6 ? ntidx_w_v6_sequence_point(w, timestamp, flags, threads, n)
               : ntidx_w_v5_sequence_point(w, timestamp, threads, n);
    return rc ? ntidx_w_fail(w, rc) : 0;
}

static int writer_remove_threads(ntidx_writer *w, const ntidx_thread_seq *t, size_t n)
{
    int rc = usable(w);
    if (rc)
        return rc;
    if (!w->v6 || (n && !t))
        return NTIDX_E_INVALID_ARG;
    if ((rc = flush_pending(w)))
        return rc;
    rc = ntidx_w_v6_remove_threads(w, t, n);
    return rc ? ntidx_w_fail(w, rc) : 0;
}

static int writer_add_raw_block(ntidx_writer *w, ntidx_block_kind kind,
                                         const uint8_t *payload, size_t size)
{
    int rc = usable(w);
    if (rc)
        return rc;
    if (size && !payload)
        return NTIDX_E_INVALID_ARG;
    if (kind == NTIDX_BLOCK_END_OF_STREAM || kind == NTIDX_BLOCK_TRACE ||
        kind >= NTIDX_BLOCK_KIND_COUNT)
        return NTIDX_E_INVALID_ARG;
    if (!w->v6 && kind != NTIDX_BLOCK_EVENT && kind != NTIDX_BLOCK_METADATA &&
        kind != NTIDX_BLOCK_STACK && kind != NTIDX_BLOCK_SEQUENCE_POINT)
        return NTIDX_E_INVALID_ARG; /* no V5 object for it */
    if ((w->v6 && size > NTIDX_W_V6_MAX_BLOCK) || size > INT32_MAX)
        return NTIDX_E_INVALID_ARG;
    if ((rc = flush_pending(w)))
        return rc;
    rc = write_block(w, kind, NULL, 0, payload, size);
    if (rc)
        return rc;
    /* Later V5 metadata rows are stamped with the latest event time. */
    if (kind == NTIDX_BLOCK_EVENT && size >= NTIDX_W_EVENT_BLOCK_HEADER) {
        uint64_t max_ts = 0;
        for (int i = 0; i < 8; i++)
            max_ts |= (uint64_t)payload[12 + i] << (8 * i);
        if (max_ts > w->last_ts)
            w->last_ts = max_ts;
    }
    return NTIDX_OK;
}

static int writer_flush(ntidx_writer *w)
{
    int rc = usable(w);
    if (rc)
        return rc;
    if ((rc = flush_pending(w)))
        return rc;
    rc = ntidx_w_sink_flush(&w->sink);
    return rc ? ntidx_w_fail(w, rc) : 0;
}

static int writer_finish(ntidx_writer *w)
{
    int rc = usable(w);
    if (rc)
        return rc;
    if ((rc = flush_pending(w)))
        return rc;
    rc = w->v6 ? ntidx_w_v6_end(w) : ntidx_w_v5_end(w);
    if (!rc)
        rc = ntidx_w_sink_flush(&w->sink);
    w->finished = 1;
    return rc ? ntidx_w_fail(w, rc) : 0;
}

NTIDX_API int ntidx_writer_close(ntidx_writer **pw)
{
    if (!pw || !*pw)
        return NTIDX_OK;
    ntidx_writer *w = *pw;
    *pw = NULL;
    /* Unfinished: keep every complete block, as a writer that stopped
     * between two blocks would; only the end-of-stream marker is missing. */
    if (!w->err && !w->finished)
        flush_pending(w);
    int rc = ntidx_w_sink_close(&w->sink);
    if (w->err)
        rc = w->err;
    int saved_errno = w->sink.saved_errno;
    if (rc < 0)
        said(w, "ntidx_writer_close", rc);
    free_buffers(w);
    free(w->path);
    free(w);
    /* Callers report I/O failures with strerror(errno) too. */
    if ((rc == NTIDX_E_WRITE || rc == NTIDX_E_IO) && saved_errno)
        errno = saved_errno;
    return rc;
}

/* The rows a client fills end with reserved fields that a later version gives meaning to (docs/abi.md): this
   one refuses a row that sets them rather than write it without what they ask for. */
static int reserved_set(const ntidx_writer *w, const char *call, const char *what)
{
    return ntx_failf(NTIDX_E_INVALID_ARG, w ? w->path : NULL, NTIDX_NO_OFFSET,
                     "%s: the %s's reserved fields are not zero (start from {0}, or from what the reader gave)", call,
                     what);
}

/* The public calls: each publishes its failure. */
NTIDX_API int ntidx_writer_add_metadata(ntidx_writer *w, const ntidx_metadata *m)
{
    if (m && !ntx_reserved_zero(m->reserved, sizeof m->reserved))
        return reserved_set(w, "ntidx_writer_add_metadata", "metadata row");
    return said(w, "ntidx_writer_add_metadata", writer_add_metadata(w, m));
}

NTIDX_API int ntidx_writer_add_metadata_raw(ntidx_writer *w, const uint8_t *data, size_t size)
{
    return said(w, "ntidx_writer_add_metadata_raw", writer_add_metadata_raw(w, data, size));
}

NTIDX_API int ntidx_writer_add_thread(ntidx_writer *w, const ntidx_thread *th)
{
    if (th && !ntx_reserved_zero(th->reserved, sizeof th->reserved))
        return reserved_set(w, "ntidx_writer_add_thread", "thread");
    return said(w, "ntidx_writer_add_thread", writer_add_thread(w, th));
}

NTIDX_API int ntidx_writer_add_stack(ntidx_writer *w, uint32_t id, const uint8_t *ips,
                                     uint32_t size)
{
    return said(w, "ntidx_writer_add_stack", writer_add_stack(w, id, ips, size));
}

NTIDX_API int ntidx_writer_add_label_list(ntidx_writer *w, uint32_t id, const ntidx_label *labels,
                                          size_t n)
{
    for (size_t i = 0; labels && i < n; i++)
        if (!ntx_reserved_zero(labels[i].reserved, sizeof labels[i].reserved))
            return reserved_set(w, "ntidx_writer_add_label_list", "label");
    return said(w, "ntidx_writer_add_label_list", writer_add_label_list(w, id, labels, n));
}

NTIDX_API int ntidx_writer_add_thread_raw(ntidx_writer *w, const uint8_t *row, size_t size)
{
    return said(w, "ntidx_writer_add_thread_raw", writer_add_thread_raw(w, row, size));
}

NTIDX_API int ntidx_writer_add_label_list_raw(ntidx_writer *w, uint32_t id, const uint8_t *labels,
                                              size_t size)
{
    return said(w, "ntidx_writer_add_label_list_raw", writer_add_label_list_raw(w, id, labels, size));
}

NTIDX_API int ntidx_writer_add_event(ntidx_writer *w, const ntidx_event *ev)
{
    if (ev && !ntx_reserved_zero(ev->reserved, sizeof ev->reserved))
        return reserved_set(w, "ntidx_writer_add_event", "event");
    return said(w, "ntidx_writer_add_event", writer_add_event(w, ev));
}

NTIDX_API int ntidx_writer_sequence_point(ntidx_writer *w, uint64_t timestamp, uint32_t flags,
                                          const ntidx_thread_seq *threads, size_t n)
{
    return said(w, "ntidx_writer_sequence_point", writer_sequence_point(w, timestamp, flags, threads, n));
}

NTIDX_API int ntidx_writer_remove_threads(ntidx_writer *w, const ntidx_thread_seq *t, size_t n)
{
    return said(w, "ntidx_writer_remove_threads", writer_remove_threads(w, t, n));
}

NTIDX_API int ntidx_writer_add_raw_block(ntidx_writer *w, ntidx_block_kind kind,
                                         const uint8_t *payload, size_t size)
{
    return said(w, "ntidx_writer_add_raw_block", writer_add_raw_block(w, kind, payload, size));
}

NTIDX_API int ntidx_writer_flush(ntidx_writer *w)
{
    return said(w, "ntidx_writer_flush", writer_flush(w));
}

NTIDX_API int ntidx_writer_finish(ntidx_writer *w)
{
    return said(w, "ntidx_writer_finish", writer_finish(w));
}
