/* Stack blocks (V4-V6): interned stacks, referenced by id until the next sequence point. */
#include "cursor.h"
#include "definitions.h"
#include "trace_internal.h"

int ntx_decode_stack_block(const ntidx_trace *t, const ntidx_block *b, ntx_stack_cb cb, void *ctx, ntx_err *err)
{
    ntx_cur c;
    ntx_cur_init(&c, t->data, b->payload_offset, b->payload_size);
    uint32_t first = ntx_cur_u32(&c);
    uint32_t count = ntx_cur_u32(&c);
    if (c.err)
        return ntx_err_at(err, NTIDX_E_CORRUPT, b->payload_offset, "stack block is too short for its header");
    if (count > ntx_cur_left(&c) / 4)
        return ntx_err_at(err, NTIDX_E_CORRUPT, b->payload_offset + 4,
                          "stack block declares %u stacks but holds only %llu bytes", count,
                          (unsigned long long)ntx_cur_left(&c));
    for (uint32_t i = 0; i < count; i++) {
        uint64_t at = ntx_cur_off(&c);
        uint32_t size = ntx_cur_u32(&c);
        const uint8_t *ips = ntx_cur_bytes(&c, size);
        if (c.err)
            return ntx_err_at(err, NTIDX_E_CORRUPT, at, "stack %u of %u (id %u) runs past the block", i + 1, count,
                              first + i);
        if (size % t->info.pointer_size)
            return ntx_err_at(err, NTIDX_E_CORRUPT, at, "stack id %u is %u bytes, not a multiple of the pointer size %u",
                              first + i, size, t->info.pointer_size);
        int rc = cb(ctx, first + i, size ? ips : NULL, size);
        if (rc < 0)
            return rc;
    }
    return NTIDX_OK;
}
