/*
 * V6 framing: a 20-byte stream header, then blocks of a 4-byte header
 * (24-bit size, 8-bit kind) and `size` bytes of content. No alignment.
 */
#include <stdio.h>
#include <string.h>

#include "cursor.h"
#include "trace_internal.h"

int ntx_v6_frame(const uint8_t *p, uint64_t have, uint64_t at, uint64_t file_size, uint64_t *pos, ntidx_block *out,
                 ntx_err *err)
{
    uint64_t left = file_size - at;
    if (left == 0)
        return ntx_err_at(err, NTIDX_E_TRUNCATED, at, "file ends without an end-of-stream block");
    if (left < 4)
        return ntx_err_at(err, NTIDX_E_TRUNCATED, at, "file ends inside a block header (%llu of 4 bytes)",
                          (unsigned long long)left);
    if (have < 4)
        return NTX_NEED_MORE;
    uint32_t x = ntx_load32(p);
    uint32_t size = x & 0xffffffu;
    uint32_t kind = x >> 24;
    if (kind == NTIDX_BLOCK_END_OF_STREAM) {
        /* EndOfStream may carry data in a future minor version: skip it, but it ends the walk. */
        if (size > left - 4)
            return ntx_err_at(err, NTIDX_E_TRUNCATED, at, "end-of-stream block declares %u bytes but only %llu remain",
                              size, (unsigned long long)(left - 4));
        /* It must end the file: a zero word is an end-of-stream block, so zeros written over the middle of a
           trace would otherwise end it there, silently, with everything after them unread. */
        if (size < left - 4) {
            int zeros = x == 0 && have >= 8 && ntx_load32(p + 4) == 0;
            return ntx_err_at(err, NTIDX_E_CORRUPT, at,
                              "end-of-stream block, but %llu bytes of the file follow it: the trace is damaged here%s",
                              (unsigned long long)(left - 4 - size), zeros ? " (zeros written over its blocks?)" : "");
        }
        *pos = at + 4 + size;
        return 0;
    }
    if (size > left - 4)
        return ntx_err_at(err, NTIDX_E_TRUNCATED, at, "block of kind %u declares %u bytes but only %llu remain",
                          kind, size, (unsigned long long)(left - 4));
    out->offset = at;
    out->size = 4 + (uint64_t)size;
    out->payload_offset = at + 4;
    out->payload_size = size;
    out->raw_kind = kind;
    out->kind = kind <= NTIDX_BLOCK_LABEL_LIST ? (ntidx_block_kind)kind : NTIDX_BLOCK_UNKNOWN;
    *pos = at + out->size;
    return 1;
}

int ntx_v6_next_block(ntidx_trace *t, uint64_t *pos, ntidx_block *out, ntx_err *err)
{
    uint64_t at = *pos;
    if (at > t->size)
        return ntx_err_at(err, NTIDX_E_CORRUPT, at, "block position is past the end of the file");
    return ntx_v6_frame(t->data + at, t->size - at, at, t->size, pos, out, err);
}

int ntx_parse_trace_block_v6(ntidx_trace *t, const ntidx_block *b, ntx_err *err)
{
    ntx_cur c;
    ntx_cur_init(&c, t->data, b->payload_offset, b->payload_size);
    ntidx_trace_info *in = &t->info;
    ntx_read_sync_head(&c, in);
    uint32_t kvcount = ntx_cur_u32(&c);
    if (c.err)
        return ntx_err_at(err, NTIDX_E_CORRUPT, b->offset, "trace block is %llu bytes, too short for its fixed fields",
                          (unsigned long long)b->payload_size);
    /* Each pair takes at least two length bytes: bound the count before allocating. */
    if (kvcount > ntx_cur_left(&c) / 2)
        return ntx_err_at(err, NTIDX_E_CORRUPT, ntx_cur_off(&c) - 4,
                          "trace block declares %u key/value pairs but holds only %llu bytes for them", kvcount,
                          (unsigned long long)ntx_cur_left(&c));
    ntidx_keyvalue *kv = kvcount ? ntx_arena_alloc(&t->arena, kvcount * sizeof *kv) : NULL;
    if (kvcount && !kv)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory reading trace block key/value pairs");
    for (uint32_t i = 0; i < kvcount; i++) {
        for (int k = 0; k < 2; k++) {
            uint64_t at = ntx_cur_off(&c);
            uint32_t len = ntx_cur_varu32(&c);
            const uint8_t *p = ntx_cur_bytes(&c, len);
            if (c.err)
                return ntx_err_at(err, NTIDX_E_CORRUPT, at, "trace block key/value pair %u runs past the block", i);
            char *str = ntx_arena_strndup(&t->arena, (const char *)p, len);
            if (!str)
                return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory reading trace block key/value pairs");
            if (k == 0)
                kv[i].key = str;
            else
                kv[i].value = str;
        }
        unsigned long long v = 0;
        if (!strcmp(kv[i].key, "ProcessId") && sscanf(kv[i].value, "%llu", &v) == 1)
            in->process_id = (uint32_t)v;
        else if (!strcmp(kv[i].key, "HardwareThreadCount") && sscanf(kv[i].value, "%llu", &v) == 1)
            in->number_of_processors = (uint32_t)v;
        else if (!strcmp(kv[i].key, "ExpectedCPUSamplingRate") && sscanf(kv[i].value, "%llu", &v) == 1)
            in->expected_cpu_sampling_rate = (uint32_t)v;
    }
    in->keyvalues = kv;
    in->keyvalue_count = kvcount;
    return NTIDX_OK;
}
