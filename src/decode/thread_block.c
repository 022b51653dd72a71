/* V6 thread and remove-thread blocks. */
#include "cursor.h"
#include "definitions.h"
#include "trace_internal.h"

enum { TH_NAME = 1, TH_PROCESS_ID = 2, TH_THREAD_ID = 3, TH_KEYVALUE = 4 };

int ntx_decode_thread_block(const ntidx_trace *t, const ntidx_block *b, ntx_arena *a, ntx_thread_cb cb, void *ctx,
                            ntx_err *err)
{
    ntx_cur c;
    ntx_cur_init(&c, t->data, b->payload_offset, b->payload_size);
    while (ntx_cur_left(&c) > 0) {
        uint64_t at = ntx_cur_off(&c);
        uint16_t size = ntx_cur_u16(&c);
        if (c.err || size > ntx_cur_left(&c))
            return ntx_err_at(err, NTIDX_E_CORRUPT, at, "thread row size %u runs past the block", size);
        ntx_cur r;
        ntx_cur_init(&r, t->data, ntx_cur_off(&c), size);
        ntx_cur_skip(&c, size);
        ntidx_thread th = {0};
        th.index = ntx_cur_varu64(&r);
        while (!r.err && ntx_cur_left(&r) > 0) {
            uint8_t kind = ntx_cur_u8(&r);
            if (kind == TH_NAME) {
                uint32_t n = ntx_cur_varu32(&r);
                const uint8_t *s = ntx_cur_bytes(&r, n);
                if (s && a && !(th.name = ntx_arena_strndup(a, (const char *)s, n)))
                    return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory reading thread names");
            } else if (kind == TH_PROCESS_ID) {
                th.os_process_id = ntx_cur_varu64(&r);
                th.has_os_process_id = 1;
            } else if (kind == TH_THREAD_ID) {
                th.os_thread_id = ntx_cur_varu64(&r);
                th.has_os_thread_id = 1;
            } else if (kind == TH_KEYVALUE) {
                for (int k = 0; k < 2; k++)
                    ntx_cur_skip(&r, ntx_cur_varu32(&r));
            } else {
                break; /* an unknown kind has no length: the rest of the row is for a later version */
            }
        }
        if (r.err)
            return ntx_err_at(err, NTIDX_E_CORRUPT, at, "thread row (index %llu) runs past its size",
                              (unsigned long long)th.index);
        ntx_thread_row row = {at, 2u + size};
        int rc = cb(ctx, &th, &row);
        if (rc < 0)
            return rc;
    }
    return NTIDX_OK;
}

int ntx_decode_remove_thread_block(const ntidx_trace *t, const ntidx_block *b, ntx_thread_seq_cb cb, void *ctx,
                                   ntx_err *err)
{
    ntx_cur c;
    ntx_cur_init(&c, t->data, b->payload_offset, b->payload_size);
    while (ntx_cur_left(&c) > 0) {
        uint64_t at = ntx_cur_off(&c);
        uint64_t index = ntx_cur_varu64(&c);
        uint32_t seq = ntx_cur_varu32(&c);
        if (c.err)
            return ntx_err_at(err, NTIDX_E_CORRUPT, at, "remove-thread entry runs past the block");
        int rc = cb(ctx, index, seq);
        if (rc < 0)
            return rc;
    }
    return NTIDX_OK;
}
