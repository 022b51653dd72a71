/* V6 label lists: key/value sets events reference by id until the next sequence point. */
#include <string.h>

#include "cursor.h"
#include "definitions.h"
#include "trace_internal.h"

#define LAST_LABEL 0x80

/* Decode one label at the cursor; returns the raw kind byte or -1. */
static int read_label(ntx_cur *c, ntidx_label *l)
{
    uint8_t raw = ntx_cur_u8(c);
    memset(l, 0, sizeof *l);
    l->kind = raw & 0x7f;
    switch (l->kind) {
    case NTIDX_LABEL_ACTIVITY_ID:
    case NTIDX_LABEL_RELATED_ACTIVITY_ID:
    case NTIDX_LABEL_TRACE_ID: {
        const uint8_t *g = ntx_cur_bytes(c, 16);
        if (g)
            memcpy(l->guid, g, 16);
        break;
    }
    case NTIDX_LABEL_SPAN_ID: l->u = ntx_cur_u64(c); break;
    case NTIDX_LABEL_KEY_STRING:
    case NTIDX_LABEL_KEY_INT:
        l->key_len = ntx_cur_varu32(c);
        l->key = (const char *)ntx_cur_bytes(c, l->key_len);
        if (l->kind == NTIDX_LABEL_KEY_STRING) {
            l->str_len = ntx_cur_varu32(c);
            l->str = (const char *)ntx_cur_bytes(c, l->str_len);
        } else {
            l->i = ntx_cur_vari64(c);
        }
        break;
    case NTIDX_LABEL_OPCODE:
    case NTIDX_LABEL_LEVEL:
    case NTIDX_LABEL_VERSION: l->u = ntx_cur_u8(c); break;
    case NTIDX_LABEL_KEYWORDS: l->u = ntx_cur_u64(c); break;
    default: return -1; /* unknown kinds have no length */
    }
    return c->err ? -1 : raw;
}

NTIDX_API int ntidx_label_next(const uint8_t **p, const uint8_t *end, ntidx_label *out)
{
    if (!p || !*p || *p >= end)
        return 0;
    ntx_cur c = {.p = *p, .end = end, .base = *p, .err = 0};
    if (read_label(&c, out) < 0)
        return ntx_failf(NTIDX_E_CORRUPT, NULL, NTIDX_NO_OFFSET,
                         "label list: a label of unknown kind, or one that runs past the list");
    *p = c.p;
    return 1;
}

int ntx_decode_label_list_block(const ntidx_trace *t, const ntidx_block *b, ntx_label_list_cb cb, void *ctx,
                                ntx_err *err)
{
    ntx_cur c;
    ntx_cur_init(&c, t->data, b->payload_offset, b->payload_size);
    uint32_t first = ntx_cur_u32(&c);
    uint32_t count = ntx_cur_u32(&c);
    if (c.err)
        return ntx_err_at(err, NTIDX_E_CORRUPT, b->payload_offset, "label list block is too short for its header");
    if (first == 0)
        return ntx_err_at(err, NTIDX_E_CORRUPT, b->payload_offset, "label list block first index is 0 (must be >= 1)");
    if (count > ntx_cur_left(&c))
        return ntx_err_at(err, NTIDX_E_CORRUPT, b->payload_offset + 4,
                          "label list block declares %u lists but holds only %llu bytes", count,
                          (unsigned long long)ntx_cur_left(&c));
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *start = c.p;
        ntidx_label l;
        int raw;
        do {
            uint64_t at = ntx_cur_off(&c);
            raw = read_label(&c, &l);
            if (raw < 0)
                return ntx_err_at(err, NTIDX_E_CORRUPT, at, "label list %u: bad or truncated label (kind %u)",
                                  first + i, l.kind);
        } while (!(raw & LAST_LABEL));
        int rc = cb(ctx, first + i, start, (uint32_t)(c.p - start));
        if (rc < 0)
            return rc;
    }
    return NTIDX_OK;
}

int ntx_label_list_overrides(const uint8_t *p, uint32_t size, ntx_label_overrides *o)
{
    o->opcode = o->version = o->level = -1;
    o->has_keywords = 0;
    o->keywords = 0;
    ntx_cur c = {.p = p, .end = p + size, .base = p, .err = 0};
    int any = 0;
    while (c.p < c.end) {
        ntidx_label l;
        if (read_label(&c, &l) < 0)
            break; /* validated when the block was read; a bad tail overrides nothing */
        switch (l.kind) {
        case NTIDX_LABEL_OPCODE: o->opcode = (int)l.u; any = 1; break;
        case NTIDX_LABEL_VERSION: o->version = (int)l.u; any = 1; break;
        case NTIDX_LABEL_LEVEL: o->level = (int)l.u; any = 1; break;
        case NTIDX_LABEL_KEYWORDS: o->has_keywords = 1; o->keywords = l.u; any = 1; break;
        default: break;
        }
    }
    return any;
}
