/*
 * V5 ("NetTrace" + FastSerialization) framing and metadata encoding.
 *
 * Layout written (nettrace-format-v5.md, checked against traces written by
 * the .NET 5 runtime):
 *   "Nettrace" int(20) "!FastSerialization.1"
 *   Trace object: 5 [5 1 int(4) int(4) int(5) "Trace" 6] fields 6
 *   objects: 5 [5 1 int(2) int(2) int(len) name 6] int(BlockSize)
 *            zero padding to a 4-byte FILE offset, BlockSize bytes, 6
 *   NullReference (1) ends the stream.
 */
#include <string.h>

#include "writer_internal.h"

enum {
    FS_NULL_REFERENCE = 1,
    FS_BEGIN_PRIVATE_OBJECT = 5,
    FS_END_OBJECT = 6,
};

/* The runtime writes Trace object version 4 for both V4 and V5 traces. */
#define TRACE_OBJECT_VERSION 4
#define BLOCK_OBJECT_VERSION 2

/* V5 metadata tags after the V1 field list. */
enum { TAG_OPCODE = 1, TAG_V2PARAMS = 2 };

/* Append a FastSerialization type object: 5 1 version minReader len name 6. */
static void put_type(ntidx_buf *b, const char *name, int32_t version, int32_t min_version)
{
    size_t n = strlen(name);
    ntx_buf_u8(b, FS_BEGIN_PRIVATE_OBJECT);
    ntx_buf_u8(b, FS_NULL_REFERENCE);
    ntx_buf_u32(b, (uint32_t)version);
    ntx_buf_u32(b, (uint32_t)min_version);
    ntx_buf_u32(b, (uint32_t)n);
    ntx_buf_put(b, name, n);
    ntx_buf_u8(b, FS_END_OBJECT);
}

static void put_systime(ntidx_buf *b, const ntidx_systime *t)
{
    const int16_t v[8] = {t->year, t->month, t->day_of_week, t->day,
                          t->hour, t->minute, t->second, t->millisecond};
    for (int i = 0; i < 8; i++)
        ntx_buf_u16(b, (uint16_t)v[i]);
}

int ntidx_w_v5_begin(ntidx_writer *w)
{
    ntidx_buf *b = &w->scratch;
    b->len = 0;
    ntx_buf_put(b, "Nettrace", 8);
    ntx_buf_u32(b, 20);
    ntx_buf_put(b, "!FastSerialization.1", 20);
    ntx_buf_u8(b, FS_BEGIN_PRIVATE_OBJECT);
    put_type(b, "Trace", TRACE_OBJECT_VERSION, TRACE_OBJECT_VERSION);
    put_systime(b, &w->o.sync_time_utc);
    ntx_buf_u64(b, (uint64_t)w->o.sync_ticks);
    ntx_buf_u64(b, (uint64_t)w->o.tick_frequency);
    ntx_buf_u32(b, w->o.pointer_size);
    ntx_buf_u32(b, w->o.process_id);
    ntx_buf_u32(b, w->o.number_of_processors);
    ntx_buf_u32(b, w->o.expected_cpu_sampling_rate);
    ntx_buf_u8(b, FS_END_OBJECT);
    if (b->err)
        return b->err;
    return ntidx_w_sink_write(&w->sink, b->bytes, b->len);
}

static const char *object_name(ntidx_block_kind kind)
{
    switch (kind) {
    case NTIDX_BLOCK_EVENT:
        return "EventBlock";
    case NTIDX_BLOCK_METADATA:
        return "MetadataBlock";
    case NTIDX_BLOCK_STACK:
        return "StackBlock";
    case NTIDX_BLOCK_SEQUENCE_POINT:
        return "SPBlock";
    default:
        return NULL;
    }
}

int ntidx_w_v5_block(ntidx_writer *w, ntidx_block_kind kind, const uint8_t *head, size_t hlen,
                     const uint8_t *body, size_t blen)
{
    const char *name = object_name(kind);
    if (!name)
        return NTIDX_E_INVALID_ARG;
    if (hlen + blen > INT32_MAX)
        return NTIDX_E_INVALID_ARG;
    /* Object header: 1 + 1 + 1 + 4 + 4 + 4 + name + 1, then BlockSize and up to 3 pad bytes. */
    uint8_t fr[64];
    size_t nlen = strlen(name);
    uint8_t *p = fr;
    *p++ = FS_BEGIN_PRIVATE_OBJECT;
    *p++ = FS_BEGIN_PRIVATE_OBJECT;
    *p++ = FS_NULL_REFERENCE;
    p = ntx_store32(p, BLOCK_OBJECT_VERSION);
    p = ntx_store32(p, BLOCK_OBJECT_VERSION);
    p = ntx_store32(p, (uint32_t)nlen);
    memcpy(p, name, nlen);
    p += nlen;
    *p++ = FS_END_OBJECT;
    p = ntx_store32(p, (uint32_t)(hlen + blen));
    /* The padding aligns the block content to the FILE offset, not to the object. */
    uint32_t pad = ntidx_w_pad4(ntidx_w_sink_offset(&w->sink) + (uint64_t)(p - fr));
    memset(p, 0, pad);
    p += pad;
    static const uint8_t end = FS_END_OBJECT;
    const ntidx_w_piece pieces[4] = {
        {fr, (size_t)(p - fr)}, {head, hlen}, {body, blen}, {&end, 1}};
    return ntidx_w_sink_writev(&w->sink, pieces, 4);
}

/* ---- metadata ---- */

/* Does this field (or anything inside it) need the V2Params encoding?
 * V1 field lists know only the System.TypeCode values up to String (18). */
static int needs_v2(const ntidx_field *f)
{
    if (f->type_code == NTIDX_TYPE_OBJECT) {
        for (uint32_t i = 0; i < f->field_count; i++)
            if (needs_v2(&f->fields[i]))
                return 1;
        return 0;
    }
    return f->type_code > NTIDX_TYPE_UTF16_STRING;
}

static void put_fields_v1(ntidx_buf *b, const ntidx_field *f, uint32_t n);

/* V1 field: int TypeCode, [Object: nested field list], UTF-16 name. */
static void put_field_v1(ntidx_buf *b, const ntidx_field *f)
{
    ntx_buf_u32(b, f->type_code);
    if (f->type_code == NTIDX_TYPE_OBJECT)
        put_fields_v1(b, f->fields, f->field_count);
    ntidx_w_put_utf16z(b, f->name);
}

static void put_fields_v1(ntidx_buf *b, const ntidx_field *f, uint32_t n)
{
    ntx_buf_u32(b, n);
    for (uint32_t i = 0; i < n; i++)
        put_field_v1(b, &f[i]);
}

static void put_fields_v2(ntidx_buf *b, const ntidx_field *f, uint32_t n);

/* V2 type: int TypeCode, then the array's element type or the object's field list. */
static void put_type_v2(ntidx_buf *b, const ntidx_field *f)
{
    ntx_buf_u32(b, f->type_code);
    if (f->type_code == NTIDX_TYPE_ARRAY && f->element)
        put_type_v2(b, f->element);
    else if (f->type_code == NTIDX_TYPE_OBJECT)
        put_fields_v2(b, f->fields, f->field_count);
}

/*
 * One V2Params field. THE place that decides the per-field layout; the
 * layout used is nettrace-format-v5.md's, which is also what the .NET 5
 * runtime writes (eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace,
 * offset 0x111: 16 00 00 00 "arg0\0" 13 00 00 00 0a 00 00 00):
 *   int Size          bytes of this field description, Size itself included
 *   UTF-16 name, NUL-terminated
 *   int TypeCode      [int ElementTypeCode when TypeCode == Array (19)]
 *   nested description (Object: int count + V2 fields)
 * The alternative layout of nettrace-format-v4-v5.txt (no Size, name last)
 * would be: put_type_v2(b, f); ntidx_w_put_utf16z(b, f->name);
 */
static void put_field_v2(ntidx_buf *b, const ntidx_field *f)
{
    size_t at = b->len;
    ntx_buf_u32(b, 0); /* Size, patched below */
    ntidx_w_put_utf16z(b, f->name);
    put_type_v2(b, f);
    ntx_buf_patch_u32(b, at, (uint32_t)(b->len - at));
}

static void put_fields_v2(ntidx_buf *b, const ntidx_field *f, uint32_t n)
{
    ntx_buf_u32(b, n);
    for (uint32_t i = 0; i < n; i++)
        put_field_v2(b, &f[i]);
}

int ntidx_w_v5_metadata_payload(ntidx_buf *b, const ntidx_metadata *m)
{
    if (m->opcode > 255 || (m->has_fields && m->field_count && !m->fields))
        return NTIDX_E_INVALID_ARG;
    ntx_buf_u32(b, m->id);
    ntidx_w_put_utf16z(b, m->provider);
    ntx_buf_u32(b, m->event_id);
    ntidx_w_put_utf16z(b, m->name_in_trace ? m->name_in_trace : m->event_name); /* as stored, without the opcode suffix */
    ntx_buf_u64(b, m->keywords);
    ntx_buf_u32(b, m->version);
    ntx_buf_u32(b, m->level);

    int v2 = 0;
    if (m->has_fields)
        for (uint32_t i = 0; i < m->field_count && !v2; i++)
            v2 = needs_v2(&m->fields[i]);
    /* The runtime always writes a FieldCount (0 for events without a layout,
     * e.g. rundown events); a V2Params tag requires an empty V1 list. */
    if (m->has_fields && !v2)
        put_fields_v1(b, m->fields, m->field_count);
    else
        ntx_buf_u32(b, 0);

    if (m->opcode >= 0) {
        ntx_buf_u32(b, 1); /* TagPayloadBytes, the kind byte not included */
        ntx_buf_u8(b, TAG_OPCODE);
        ntx_buf_u8(b, (uint8_t)m->opcode);
    }
    if (v2) {
        size_t at = b->len;
        ntx_buf_u32(b, 0);
        ntx_buf_u8(b, TAG_V2PARAMS);
        put_fields_v2(b, m->fields, m->field_count);
        ntx_buf_patch_u32(b, at, (uint32_t)(b->len - at - 5));
    }
    return b->err;
}

int ntidx_w_v5_sequence_point(ntidx_writer *w, uint64_t ts, const ntidx_thread_seq *t, size_t n)
{
    ntidx_buf *b = &w->scratch;
    b->len = 0;
    ntx_buf_u64(b, ts);
    ntx_buf_u32(b, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        ntx_buf_u64(b, t[i].thread);
        ntx_buf_u32(b, t[i].sequence_number);
    }
    if (b->err)
        return b->err;
    return ntidx_w_v5_block(w, NTIDX_BLOCK_SEQUENCE_POINT, NULL, 0, b->bytes, b->len);
}

int ntidx_w_v5_end(ntidx_writer *w)
{
    uint8_t tag = FS_NULL_REFERENCE;
    return ntidx_w_sink_write(&w->sink, &tag, 1);
}
