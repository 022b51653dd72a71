/* Encoding primitives: strings and event-row headers (see encode.h). */
#include "encode.h"

#include <string.h>

size_t ntidx_w_varuint_len(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

/*
 * Decode one code point from UTF-8 at *s. Overlong forms, surrogates and
 * truncated sequences give U+FFFD and consume one byte, so any input makes
 * progress.
 */
static uint32_t utf8_next(const unsigned char **s)
{
    const unsigned char *p = *s;
    uint32_t c = p[0];
    if (c < 0x80) {
        *s = p + 1;
        return c;
    }
    int n;
    uint32_t min;
    if ((c & 0xE0) == 0xC0) {
        n = 1;
        c &= 0x1F;
        min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        n = 2;
        c &= 0x0F;
        min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        n = 3;
        c &= 0x07;
        min = 0x10000;
    } else {
        *s = p + 1;
        return 0xFFFD;
    }
    for (int i = 1; i <= n; i++) {
        if ((p[i] & 0xC0) != 0x80) { /* also stops at the NUL terminator */
            *s = p + 1;
            return 0xFFFD;
        }
        c = (c << 6) | (p[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
        *s = p + 1;
        return 0xFFFD;
    }
    *s = p + n + 1;
    return c;
}

size_t ntidx_w_utf16z_size(const char *s)
{
    size_t units = 0;
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p)
        units += utf8_next(&p) >= 0x10000 ? 2 : 1;
    return 2 * (units + 1);
}

void ntidx_w_put_utf16z(ntidx_buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        uint32_t c = utf8_next(&p);
        if (c >= 0x10000) {
            c -= 0x10000;
            ntx_buf_u16(b, (uint16_t)(0xD800 | (c >> 10)));
            ntx_buf_u16(b, (uint16_t)(0xDC00 | (c & 0x3FF)));
        } else {
            ntx_buf_u16(b, (uint16_t)c);
        }
    }
    ntx_buf_u16(b, 0);
}

void ntidx_w_put_str6(ntidx_buf *b, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    ntx_buf_varuint(b, n);
    ntx_buf_put(b, s, n);
}

/* Fields shared by the V5 and V6 compressed forms, in stream order up to StackId. */
static uint8_t *compressed_common(uint8_t *p, uint8_t *flags, const ntidx_w_hdr *prev,
                                  const ntidx_w_hdr *cur, uint32_t implicit_seq_step)
{
    if (cur->metadata_id != prev->metadata_id) {
        *flags |= NTIDX_W_HF_METADATA_ID;
        p = ntidx_w_varuint(p, cur->metadata_id);
    }
    if (cur->sequence_number != (uint32_t)(prev->sequence_number + implicit_seq_step) ||
        cur->capture_thread != prev->capture_thread ||
        cur->processor_number != prev->processor_number) {
        *flags |= NTIDX_W_HF_CAPTURE_THREAD_AND_SEQ;
        /* The reader adds 1 to the stored delta whenever this group is present. */
        p = ntidx_w_varuint(p, (uint32_t)(cur->sequence_number - prev->sequence_number - 1u));
        p = ntidx_w_varuint(p, cur->capture_thread);
        p = ntidx_w_varuint(p, cur->processor_number);
    }
    if (cur->thread != prev->thread) {
        *flags |= NTIDX_W_HF_THREAD;
        p = ntidx_w_varuint(p, cur->thread);
    }
    if (cur->stack_id != prev->stack_id) {
        *flags |= NTIDX_W_HF_STACK_ID;
        p = ntidx_w_varuint(p, cur->stack_id);
    }
    /* Events of different capture threads interleave, so the delta may be
     * negative: it is stored modulo 2^64 (10 bytes), as the runtime does. */
    p = ntidx_w_varuint(p, cur->timestamp - prev->timestamp);
    return p;
}

size_t ntidx_w_hdr_v5_compressed(uint8_t *out, ntidx_w_hdr *prev, const ntidx_w_hdr *cur,
                                 int is_sorted)
{
    uint8_t flags = is_sorted ? NTIDX_W_HF_SORTED : 0;
    uint8_t *p = compressed_common(out + 1, &flags, prev, cur, cur->metadata_id != 0 ? 1u : 0u);
    if (memcmp(cur->activity_id, prev->activity_id, 16) != 0) {
        flags |= NTIDX_W_HF_ACTIVITY_ID;
        memcpy(p, cur->activity_id, 16);
        p += 16;
    }
    if (memcmp(cur->related_activity_id, prev->related_activity_id, 16) != 0) {
        flags |= NTIDX_W_HF_RELATED_ACTIVITY_ID;
        memcpy(p, cur->related_activity_id, 16);
        p += 16;
    }
    if (cur->payload_size != prev->payload_size) {
        flags |= NTIDX_W_HF_PAYLOAD_SIZE;
        p = ntidx_w_varuint(p, cur->payload_size);
    }
    out[0] = flags;
    *prev = *cur;
    return (size_t)(p - out);
}

size_t ntidx_w_hdr_v6_compressed(uint8_t *out, ntidx_w_hdr *prev, const ntidx_w_hdr *cur,
                                 int is_sorted)
{
    uint8_t flags = is_sorted ? NTIDX_W_HF_SORTED : 0;
    uint8_t *p = compressed_common(out + 1, &flags, prev, cur, 1u);
    if (cur->label_list_id != prev->label_list_id) {
        flags |= NTIDX_W_HF_LABEL_LIST;
        p = ntidx_w_varuint(p, cur->label_list_id);
    }
    if (cur->payload_size != prev->payload_size) {
        flags |= NTIDX_W_HF_PAYLOAD_SIZE;
        p = ntidx_w_varuint(p, cur->payload_size);
    }
    out[0] = flags;
    *prev = *cur;
    return (size_t)(p - out);
}

size_t ntidx_w_hdr_v5_uncompressed(uint8_t *out, const ntidx_w_hdr *cur, int is_sorted,
                                   uint32_t padding)
{
    uint8_t *p = out;
    p = ntx_store32(p, (uint32_t)(NTIDX_W_V5_UNCOMPRESSED_HDR - 4) + cur->payload_size + padding);
    p = ntx_store32(p, (cur->metadata_id & 0x7FFFFFFFu) | (is_sorted ? 0 : NTIDX_W_NOT_SORTED_BIT));
    p = ntx_store32(p, cur->sequence_number);
    p = ntx_store64(p, cur->thread);
    p = ntx_store64(p, cur->capture_thread);
    p = ntx_store32(p, cur->processor_number);
    p = ntx_store32(p, cur->stack_id);
    p = ntx_store64(p, cur->timestamp);
    memcpy(p, cur->activity_id, 16);
    p += 16;
    memcpy(p, cur->related_activity_id, 16);
    p += 16;
    p = ntx_store32(p, cur->payload_size);
    return (size_t)(p - out);
}

size_t ntidx_w_hdr_v6_uncompressed(uint8_t *out, const ntidx_w_hdr *cur, int is_sorted)
{
    uint8_t *p = out;
    p = ntx_store32(p, (uint32_t)(NTIDX_W_V6_UNCOMPRESSED_HDR - 4) + cur->payload_size);
    p = ntx_store32(p, (cur->metadata_id & 0x7FFFFFFFu) | (is_sorted ? 0 : NTIDX_W_NOT_SORTED_BIT));
    p = ntx_store32(p, cur->sequence_number);
    p = ntx_store64(p, cur->thread);
    p = ntx_store64(p, cur->capture_thread);
    p = ntx_store32(p, cur->processor_number);
    p = ntx_store32(p, cur->stack_id);
    p = ntx_store64(p, cur->timestamp);
    p = ntx_store32(p, cur->label_list_id);
    p = ntx_store32(p, cur->payload_size);
    return (size_t)(p - out);
}
