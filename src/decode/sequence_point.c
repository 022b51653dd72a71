/* Sequence points: region boundaries with per-thread sequence lower bounds. */
#include "cursor.h"
#include "definitions.h"
#include "trace_internal.h"

int ntx_decode_sequence_point_bytes(const uint8_t *payload, const ntidx_block *b, int v6, ntx_seqpoint *sp,
                                    ntx_thread_seq_cb cb, void *ctx, ntx_err *err)
{
    ntx_cur c;
    ntx_cur_init(&c, payload, 0, b->payload_size); /* offsets from the payload's start: messages add its offset */
    sp->timestamp = ntx_cur_u64(&c);
    sp->flags = v6 ? ntx_cur_u32(&c) : 0;
    sp->flushes = ntx_sp_flushes(sp->flags, v6);
    sp->thread_count = ntx_cur_u32(&c);
    if (c.err)
        return ntx_err_at(err, NTIDX_E_CORRUPT, b->payload_offset, "sequence point is too short for its header");
    /* V4/V5 entries are 12 bytes; V6 entries at least 2 (two varuints). */
    if (sp->thread_count > ntx_cur_left(&c) / (v6 ? 2 : 12))
        return ntx_err_at(err, NTIDX_E_CORRUPT, b->payload_offset,
                          "sequence point declares %u threads but holds only %llu bytes", sp->thread_count,
                          (unsigned long long)ntx_cur_left(&c));
    /* Fixed-size entries that fit (checked above) need no walk when nobody wants them. */
    if (!v6 && !cb)
        return NTIDX_OK;
    for (uint32_t i = 0; i < sp->thread_count; i++) {
        uint64_t at = b->payload_offset + ntx_cur_off(&c);
        uint64_t thread = v6 ? ntx_cur_varu64(&c) : ntx_cur_u64(&c);
        uint32_t seq = v6 ? ntx_cur_varu32(&c) : ntx_cur_u32(&c);
        if (c.err)
            return ntx_err_at(err, NTIDX_E_CORRUPT, at, "sequence point thread entry %u runs past the block", i);
        if (cb) {
            int rc = cb(ctx, thread, seq);
            if (rc < 0)
                return rc;
        }
    }
    return NTIDX_OK;
}

int ntx_decode_sequence_point(const ntidx_trace *t, const ntidx_block *b, ntx_seqpoint *sp, ntx_thread_seq_cb cb,
                              void *ctx, ntx_err *err)
{
    return ntx_decode_sequence_point_bytes(t->data + b->payload_offset, b, t->gen == NTX_GEN_V6, sp, cb, ctx, err);
}
