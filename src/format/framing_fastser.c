/*
 * FastSerialization framing (V3 NetPerf, V4 and V5 NetTrace).
 *
 * An object is: BeginObject tag (4 in V3, BeginPrivateObject 5 from V4),
 * its type object (begin tag, NullReference 1, int version, int minimum
 * reader version, int name length, name, EndObject 6), the content, and
 * EndObject 6. Block objects' content is `int BlockSize`, zero padding to a
 * 4-byte FILE offset, then BlockSize bytes. The Trace object's content is
 * fixed (48 bytes). A NullReference tag where an object would start ends
 * the stream.
 */
#include <stdint.h>
#include <string.h>

#include "cursor.h"
#include "trace_internal.h"

enum { FS_NULLREF = 1, FS_BEGIN_OBJECT = 4, FS_BEGIN_PRIVATE_OBJECT = 5, FS_END_OBJECT = 6 };

#define FS_TRACE_FIELDS_SIZE 48 /* SyncTimeUTC 16 + QPC 8 + freq 8 + 4 ints */
#define FS_MAX_TYPE_NAME 64

static ntidx_block_kind kind_of(const uint8_t *name, uint32_t len)
{
    static const struct { const char *n; ntidx_block_kind k; } names[] = {
        {"Trace", NTIDX_BLOCK_TRACE},       {"EventBlock", NTIDX_BLOCK_EVENT},
        {"MetadataBlock", NTIDX_BLOCK_METADATA}, {"StackBlock", NTIDX_BLOCK_STACK},
        {"SPBlock", NTIDX_BLOCK_SEQUENCE_POINT},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i].n) == len && !memcmp(names[i].n, name, len))
            return names[i].k;
    return NTIDX_BLOCK_UNKNOWN;
}

static int is_begin(uint8_t tag) { return tag == FS_BEGIN_OBJECT || tag == FS_BEGIN_PRIVATE_OBJECT; }

/*
 * The reason a framing read failed: bytes still in the file but not in the
 * window mean "read more"; no bytes left mean a truncated file; otherwise
 * the bytes are wrong.
 */
#define FS_FAIL(what)                                                                                  \
    do {                                                                                               \
        if (!c.err)                                                                                    \
            return ntx_err_at(err, NTIDX_E_CORRUPT, at + (uint64_t)(c.p - p) - 1, "bad %s", what);     \
        if (have < left)                                                                               \
            return NTX_NEED_MORE;                                                                      \
        return ntx_err_at(err, NTIDX_E_TRUNCATED, at, "file ends inside %s", what);                    \
    } while (0)

int ntx_fastser_frame(const uint8_t *p, uint64_t have, uint64_t at, uint64_t file_size, uint64_t *pos,
                      ntidx_block *out, uint64_t *unchecked_tag, ntx_err *err)
{
    uint64_t left = file_size - at;
    if (have > left)
        have = left;
    *unchecked_tag = UINT64_MAX;
    if (left == 0)
        return ntx_err_at(err, NTIDX_E_TRUNCATED, at, "file ends without an end-of-stream tag");
    ntx_cur c = {.p = p, .end = p + have, .base = p, .err = 0};
    uint8_t tag = ntx_cur_u8(&c);
    if (c.err)
        FS_FAIL("an object tag");
    if (tag == FS_NULLREF) {
        /* The end-of-stream tag must end the file: what follows it would otherwise go unread, silently.
           Up to three zero bytes may: TraceEvent's test writer writes the tag as a 4-byte int. */
        uint64_t tail = left - 1;
        int zeros = tail <= 3;
        if (zeros && have < left)
            return NTX_NEED_MORE;
        for (uint64_t i = 1; zeros && i <= tail; i++)
            zeros = p[i] == 0;
        if (!zeros)
            return ntx_err_at(err, NTIDX_E_CORRUPT, at,
                              "end-of-stream tag, but %llu bytes of the file follow it: the trace is damaged here",
                              (unsigned long long)tail);
        *pos = file_size;
        return 0;
    }
    if (!is_begin(tag))
        return ntx_err_at(err, NTIDX_E_CORRUPT, at, "expected an object tag (4 or 5) or the end-of-stream tag (1), found %u",
                          tag);
    uint8_t ttag = ntx_cur_u8(&c);
    uint8_t tnull = ntx_cur_u8(&c);
    if (c.err || !is_begin(ttag) || tnull != FS_NULLREF)
        FS_FAIL("an object's type header");
    uint32_t version = ntx_cur_u32(&c);
    (void)ntx_cur_u32(&c); /* minimum reader version */
    uint32_t namelen = ntx_cur_u32(&c);
    if (!c.err && namelen > FS_MAX_TYPE_NAME)
        return ntx_err_at(err, NTIDX_E_CORRUPT, at + (uint64_t)(c.p - p) - 4, "object type name length %u is implausible",
                          namelen);
    const uint8_t *name = ntx_cur_bytes(&c, namelen);
    uint8_t tend = ntx_cur_u8(&c);
    if (c.err || tend != FS_END_OBJECT)
        FS_FAIL("an object's type header");
    ntidx_block_kind kind = kind_of(name, namelen);
    uint64_t payload_off, payload_size;
    uint64_t here = at + (uint64_t)(c.p - p); /* file offset of the cursor */
    if (kind == NTIDX_BLOCK_TRACE) {
        payload_off = here;
        payload_size = FS_TRACE_FIELDS_SIZE;
    } else {
        uint32_t bsize = ntx_cur_u32(&c);
        if (c.err)
            FS_FAIL("a block size");
        if (bsize > 0x7fffffffu)
            return ntx_err_at(err, NTIDX_E_CORRUPT, here, "negative block size %d", (int32_t)bsize);
        here += 4;
        payload_off = here + ((4 - (here & 3)) & 3); /* alignment is relative to the file start */
        payload_size = bsize;
    }
    /* The payload need not be in the window: only its end, checked against the file. */
    uint64_t tag_off = payload_off + payload_size;
    if (payload_off > file_size || payload_size > file_size - payload_off || tag_off >= file_size)
        return ntx_err_at(err, NTIDX_E_TRUNCATED, at, "block declares %llu bytes but the file ends first",
                          (unsigned long long)payload_size);
    if (tag_off - at < have) {
        uint8_t end = p[tag_off - at];
        if (end != FS_END_OBJECT)
            return ntx_err_at(err, NTIDX_E_CORRUPT, tag_off,
                              "expected the end-of-object tag (6) after the %.*s block, found %u", (int)namelen,
                              (const char *)name, end);
    } else {
        *unchecked_tag = tag_off; /* the caller checks it with its next read */
    }
    out->offset = at;
    out->size = tag_off + 1 - at;
    out->payload_offset = payload_off;
    out->payload_size = payload_size;
    out->kind = kind;
    out->raw_kind = version;
    *pos = tag_off + 1;
    return 1;
}

int ntx_fastser_next_block(ntidx_trace *t, uint64_t *pos, ntidx_block *out, ntx_err *err)
{
    uint64_t at = *pos;
    if (at > t->size)
        return ntx_err_at(err, NTIDX_E_CORRUPT, at, "block position is past the end of the file");
    uint64_t unchecked;
    /* The whole rest of the file is in the window, so the end tag is always checked here. */
    return ntx_fastser_frame(t->data + at, t->size - at, at, t->size, pos, out, &unchecked, err);
}

int ntx_parse_trace_object_fastser(ntidx_trace *t, const ntidx_block *b, ntx_err *err)
{
    ntx_cur c;
    ntx_cur_init(&c, t->data, b->payload_offset, b->payload_size);
    ntidx_trace_info *in = &t->info;
    ntx_read_sync_head(&c, in);
    in->process_id = ntx_cur_u32(&c);
    in->number_of_processors = ntx_cur_u32(&c);
    in->expected_cpu_sampling_rate = ntx_cur_u32(&c);
    in->trace_object_version = b->raw_kind;
    return c.err ? ntx_err_at(err, NTIDX_E_TRUNCATED, b->offset, "trace object is incomplete") : NTIDX_OK;
}
