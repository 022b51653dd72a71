/*
 * V6 framing and row encodings (nettrace-format-v6.md):
 *   "Nettrace" uint32(0) uint32(6) uint32(0)
 *   blocks: uint32 (BlockSize | BlockKind << 24), BlockSize bytes
 *   EndOfStream: a block of kind 0 and size 0.
 */
#include <stdio.h>
#include <string.h>

#include "writer_internal.h"

/* OptionalMetadata kinds. */
enum {
    OM_OPCODE = 1,
    OM_KEYWORDS = 3,
    OM_MESSAGE_TEMPLATE = 4,
    OM_DESCRIPTION = 5,
    OM_LEVEL = 8,
    OM_VERSION = 9,
};

/* OptionalThreadInfo kinds. */
enum { TI_NAME = 1, TI_OS_PROCESS_ID = 2, TI_OS_THREAD_ID = 3 };

int ntidx_w_v6_block(ntidx_writer *w, ntidx_block_kind kind, const uint8_t *head, size_t hlen,
                     const uint8_t *body, size_t blen)
{
    if (hlen + blen > NTIDX_W_V6_MAX_BLOCK)
        return NTIDX_E_INVALID_ARG;
    uint8_t fr[4];
    ntx_store32(fr, (uint32_t)(hlen + blen) | ((uint32_t)kind << 24));
    const ntidx_w_piece pieces[3] = {{fr, 4}, {head, hlen}, {body, blen}};
    return ntidx_w_sink_writev(&w->sink, pieces, 3);
}

static void put_kv(ntidx_buf *b, const char *k, const char *v)
{
    ntidx_w_put_str6(b, k);
    ntidx_w_put_str6(b, v);
}

static void put_kv_u32(ntidx_buf *b, const char *k, uint32_t v)
{
    char num[16];
    snprintf(num, sizeof(num), "%u", v);
    put_kv(b, k, num);
}

int ntidx_w_v6_begin(ntidx_writer *w)
{
    const ntidx_writer_options *o = &w->o;
    uint8_t hdr[20];
    memcpy(hdr, "Nettrace", 8);
    ntx_store32(hdr + 8, 0);
    ntx_store32(hdr + 12, 6);
    ntx_store32(hdr + 16, 0);
    int rc = ntidx_w_sink_write(&w->sink, hdr, sizeof(hdr));
    if (rc)
        return rc;

    ntidx_buf *b = &w->scratch;
    b->len = 0;
    const int16_t t[8] = {o->sync_time_utc.year,   o->sync_time_utc.month,
                          o->sync_time_utc.day_of_week, o->sync_time_utc.day,
                          o->sync_time_utc.hour,   o->sync_time_utc.minute,
                          o->sync_time_utc.second, o->sync_time_utc.millisecond};
    for (int i = 0; i < 8; i++)
        ntx_buf_u16(b, (uint16_t)t[i]);
    ntx_buf_u64(b, (uint64_t)o->sync_ticks);
    ntx_buf_u64(b, (uint64_t)o->tick_frequency);
    ntx_buf_u32(b, o->pointer_size);
    /* The V5 Trace fields survive as the keys the spec reserves for them. */
    uint32_t count = (uint32_t)o->keyvalue_count + (o->process_id != 0) +
                     (o->number_of_processors != 0) + (o->expected_cpu_sampling_rate != 0);
    ntx_buf_u32(b, count);
    if (o->number_of_processors)
        put_kv_u32(b, "HardwareThreadCount", o->number_of_processors);
    if (o->process_id)
        put_kv_u32(b, "ProcessId", o->process_id);
    if (o->expected_cpu_sampling_rate)
        put_kv_u32(b, "ExpectedCPUSamplingRate", o->expected_cpu_sampling_rate);
    for (size_t i = 0; i < o->keyvalue_count; i++)
        put_kv(b, o->keyvalues[i].key, o->keyvalues[i].value);
    if (b->err)
        return b->err;
    return ntidx_w_v6_block(w, NTIDX_BLOCK_TRACE, NULL, 0, b->bytes, b->len);
}

/* ---- metadata rows ---- */

static void put_field_list(ntidx_buf *b, const ntidx_field *f, uint32_t n, int *bad);

/* Type: uint8 code, [element Type], [uint16 ElementCount], [Object: FieldDescriptions]. */
static void put_type(ntidx_buf *b, const ntidx_field *f, int *bad)
{
    ntx_buf_u8(b, f->type_code);
    switch (f->type_code) {
    case NTIDX_TYPE_ARRAY:
    case NTIDX_TYPE_FIXED_ARRAY:
    case NTIDX_TYPE_RELLOC:
    case NTIDX_TYPE_DATALOC:
        if (!f->element) {
            *bad = 1;
            return;
        }
        put_type(b, f->element, bad);
        if (f->type_code == NTIDX_TYPE_FIXED_ARRAY)
            ntx_buf_u16(b, f->element_count);
        break;
    case NTIDX_TYPE_OBJECT:
        put_field_list(b, f->fields, f->field_count, bad);
        break;
    default:
        break;
    }
}

/* FieldDescriptions: uint16 Count, then per field uint16 FieldSize, name, Type. */
static void put_field_list(ntidx_buf *b, const ntidx_field *f, uint32_t n, int *bad)
{
    if (n > UINT16_MAX || (n && !f)) {
        *bad = 1;
        return;
    }
    ntx_buf_u16(b, (uint16_t)n);
    for (uint32_t i = 0; i < n; i++) {
        size_t at = b->len;
        ntx_buf_u16(b, 0);
        ntidx_w_put_str6(b, f[i].name);
        put_type(b, &f[i], bad);
        size_t size = b->len - at - 2;
        if (size > UINT16_MAX)
            *bad = 1;
        ntx_buf_patch_u16(b, at, (uint16_t)size);
    }
}

int ntidx_w_v6_metadata_row(ntidx_buf *b, const ntidx_metadata *m)
{
    /* OpCode, Level and Version are single bytes in V6. */
    if (m->opcode > 255 || m->level > 255 || m->version > 255)
        return NTIDX_E_INVALID_ARG;
    int bad = 0;
    size_t start = b->len;
    ntx_buf_u16(b, 0); /* Size, patched below */
    ntx_buf_varuint(b, m->id);
    ntidx_w_put_str6(b, m->provider);
    ntx_buf_varuint(b, m->event_id);
    ntidx_w_put_str6(b, m->name_in_trace ? m->name_in_trace : m->event_name); /* as stored, without the opcode suffix */
    /* FieldDescriptions are not optional in a V6 row: no layout is written as Count 0. */
    if (m->has_fields)
        put_field_list(b, m->fields, m->field_count, &bad);
    else
        ntx_buf_u16(b, 0);

    size_t om = b->len;
    ntx_buf_u16(b, 0);
    if (m->opcode >= 0) {
        ntx_buf_u8(b, OM_OPCODE);
        ntx_buf_u8(b, (uint8_t)m->opcode);
    }
    if (m->keywords) {
        ntx_buf_u8(b, OM_KEYWORDS);
        ntx_buf_u64(b, m->keywords);
    }
    if (m->message_template) {
        ntx_buf_u8(b, OM_MESSAGE_TEMPLATE);
        ntidx_w_put_str6(b, m->message_template);
    }
    if (m->description) {
        ntx_buf_u8(b, OM_DESCRIPTION);
        ntidx_w_put_str6(b, m->description);
    }
    if (m->level) {
        ntx_buf_u8(b, OM_LEVEL);
        ntx_buf_u8(b, (uint8_t)m->level);
    }
    if (m->version) {
        ntx_buf_u8(b, OM_VERSION);
        ntx_buf_u8(b, (uint8_t)m->version);
    }
    size_t om_size = b->len - om - 2;
    size_t row_size = b->len - start - 2;
    if (b->err)
        return b->err;
    if (bad || om_size > UINT16_MAX || row_size > UINT16_MAX) {
        b->len = start;
        return NTIDX_E_INVALID_ARG;
    }
    ntx_buf_patch_u16(b, om, (uint16_t)om_size);
    ntx_buf_patch_u16(b, start, (uint16_t)row_size);
    return 0;
}

int ntidx_w_v6_thread_row(ntidx_buf *b, const ntidx_thread *th)
{
    size_t start = b->len;
    ntx_buf_u16(b, 0);
    ntx_buf_varuint(b, th->index);
    if (th->name) {
        ntx_buf_u8(b, TI_NAME);
        ntidx_w_put_str6(b, th->name);
    }
    if (th->has_os_process_id) {
        ntx_buf_u8(b, TI_OS_PROCESS_ID);
        ntx_buf_varuint(b, th->os_process_id);
    }
    if (th->has_os_thread_id) {
        ntx_buf_u8(b, TI_OS_THREAD_ID);
        ntx_buf_varuint(b, th->os_thread_id);
    }
    size_t size = b->len - start - 2;
    if (b->err)
        return b->err;
    if (size > UINT16_MAX) {
        b->len = start;
        return NTIDX_E_INVALID_ARG;
    }
    ntx_buf_patch_u16(b, start, (uint16_t)size);
    return 0;
}

int ntidx_w_v6_label_list(ntidx_buf *b, const ntidx_label *l, size_t n)
{
    size_t start = b->len;
    for (size_t i = 0; i < n; i++) {
        uint8_t kind = l[i].kind;
        if (kind < NTIDX_LABEL_ACTIVITY_ID || kind > NTIDX_LABEL_VERSION) {
            b->len = start;
            return NTIDX_E_INVALID_ARG;
        }
        ntx_buf_u8(b, (uint8_t)(kind | (i + 1 == n ? 0x80 : 0)));
        switch (kind) {
        case NTIDX_LABEL_ACTIVITY_ID:
        case NTIDX_LABEL_RELATED_ACTIVITY_ID:
        case NTIDX_LABEL_TRACE_ID:
            ntx_buf_put(b, l[i].guid, 16);
            break;
        case NTIDX_LABEL_SPAN_ID:
            ntx_buf_u64(b, l[i].u);
            break;
        case NTIDX_LABEL_KEY_STRING:
            ntx_buf_varuint(b, l[i].key_len);
            ntx_buf_put(b, l[i].key, l[i].key_len);
            ntx_buf_varuint(b, l[i].str_len);
            ntx_buf_put(b, l[i].str, l[i].str_len);
            break;
        case NTIDX_LABEL_KEY_INT:
            ntx_buf_varuint(b, l[i].key_len);
            ntx_buf_put(b, l[i].key, l[i].key_len);
            ntx_buf_varuint(b, ntidx_w_zigzag(l[i].i));
            break;
        default: /* OPCODE, LEVEL, VERSION: uint8; KEYWORDS: uint64 */
            if (kind == NTIDX_LABEL_KEYWORDS) {
                ntx_buf_u64(b, l[i].u);
            } else {
                if (l[i].u > 255) {
                    b->len = start;
                    return NTIDX_E_INVALID_ARG;
                }
                ntx_buf_u8(b, (uint8_t)l[i].u);
            }
            break;
        }
    }
    return b->err;
}

int ntidx_w_v6_sequence_point(ntidx_writer *w, uint64_t ts, uint32_t flags,
                              const ntidx_thread_seq *t, size_t n)
{
    ntidx_buf *b = &w->scratch;
    b->len = 0;
    ntx_buf_u64(b, ts);
    ntx_buf_u32(b, flags);
    ntx_buf_u32(b, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        ntx_buf_varuint(b, t[i].thread);
        ntx_buf_varuint(b, t[i].sequence_number);
    }
    if (b->err)
        return b->err;
    return ntidx_w_v6_block(w, NTIDX_BLOCK_SEQUENCE_POINT, NULL, 0, b->bytes, b->len);
}

int ntidx_w_v6_remove_threads(ntidx_writer *w, const ntidx_thread_seq *t, size_t n)
{
    ntidx_buf *b = &w->scratch;
    b->len = 0;
    for (size_t i = 0; i < n; i++) {
        ntx_buf_varuint(b, t[i].thread);
        ntx_buf_varuint(b, t[i].sequence_number);
    }
    if (b->err)
        return b->err;
    return ntidx_w_v6_block(w, NTIDX_BLOCK_REMOVE_THREAD, NULL, 0, b->bytes, b->len);
}

int ntidx_w_v6_end(ntidx_writer *w)
{
    uint8_t eos[4] = {0, 0, 0, 0};
    return ntidx_w_sink_write(&w->sink, eos, 4);
}
