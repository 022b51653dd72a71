#include "tbuild.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Buffer                                                              */
/* ------------------------------------------------------------------ */

void tb_init(tb *b)
{
    b->d = NULL;
    b->len = b->cap = 0;
}

void tb_free(tb *b)
{
    free(b->d);
    tb_init(b);
}

void tb_reset(tb *b) { b->len = 0; }

static void reserve(tb *b, size_t n)
{
    if (b->cap - b->len >= n)
        return;
    size_t ncap = b->cap ? b->cap : 256;
    while (ncap - b->len < n)
        ncap *= 2;
    uint8_t *nd = realloc(b->d, ncap);
    if (!nd) {
        fprintf(stderr, "tbuild: out of memory\n");
        abort();
    }
    b->d = nd;
    b->cap = ncap;
}

void tb_bytes(tb *b, const void *p, size_t n)
{
    if (!n)
        return;
    reserve(b, n);
    memcpy(b->d + b->len, p, n);
    b->len += n;
}

void tb_zeros(tb *b, size_t n)
{
    reserve(b, n);
    memset(b->d + b->len, 0, n);
    b->len += n;
}

void tb_u8(tb *b, uint8_t v) { tb_bytes(b, &v, 1); }

void tb_u16(tb *b, uint16_t v)
{
    uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    tb_bytes(b, x, 2);
}

void tb_u32(tb *b, uint32_t v)
{
    uint8_t x[4];
    for (int i = 0; i < 4; i++)
        x[i] = (uint8_t)(v >> (8 * i));
    tb_bytes(b, x, 4);
}

void tb_u64(tb *b, uint64_t v)
{
    uint8_t x[8];
    for (int i = 0; i < 8; i++)
        x[i] = (uint8_t)(v >> (8 * i));
    tb_bytes(b, x, 8);
}

void tb_varu(tb *b, uint64_t v)
{
    do {
        uint8_t c = v & 0x7f;
        v >>= 7;
        tb_u8(b, (uint8_t)(c | (v ? 0x80 : 0)));
    } while (v);
}

void tb_vari(tb *b, int64_t v) { tb_varu(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63)); }

void tb_str8(tb *b, const char *s)
{
    size_t n = strlen(s);
    tb_varu(b, n);
    tb_bytes(b, s, n);
}

/* Decode one UTF-8 sequence (valid input assumed: these are test literals). */
static uint32_t utf8_next(const unsigned char **pp)
{
    const unsigned char *p = *pp;
    uint32_t c = *p++;
    int extra = 0;
    if (c >= 0xf0) {
        c &= 0x07;
        extra = 3;
    } else if (c >= 0xe0) {
        c &= 0x0f;
        extra = 2;
    } else if (c >= 0xc0) {
        c &= 0x1f;
        extra = 1;
    }
    while (extra--)
        c = (c << 6) | (*p++ & 0x3f);
    *pp = p;
    return c;
}

void tb_utf16z(tb *b, const char *utf8)
{
    const unsigned char *p = (const unsigned char *)utf8;
    while (*p) {
        uint32_t c = utf8_next(&p);
        if (c >= 0x10000) {
            c -= 0x10000;
            tb_u16(b, (uint16_t)(0xd800 + (c >> 10)));
            tb_u16(b, (uint16_t)(0xdc00 + (c & 0x3ff)));
        } else {
            tb_u16(b, (uint16_t)c);
        }
    }
    tb_u16(b, 0);
}

void tb_tb(tb *b, const tb *src) { tb_bytes(b, src->d, src->len); }

void tb_put16(tb *b, size_t at, uint16_t v)
{
    b->d[at] = (uint8_t)v;
    b->d[at + 1] = (uint8_t)(v >> 8);
}

void tb_put32(tb *b, size_t at, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b->d[at + i] = (uint8_t)(v >> (8 * i));
}

void tb_pad4(tb *b)
{
    while (b->len & 3)
        tb_u8(b, 0);
}

void guid_fill(uint8_t g[16], uint8_t seed)
{
    for (int i = 0; i < 16; i++)
        g[i] = (uint8_t)(seed + i);
}

uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

/* ------------------------------------------------------------------ */
/* V6                                                                  */
/* ------------------------------------------------------------------ */

static void sync_time(tb *p)
{
    static const uint16_t st[8] = {2024, 1, 2, 2, 3, 4, 5, 6};
    for (int i = 0; i < 8; i++)
        tb_u16(p, st[i]);
}

void v6_stream_header(tb *f, uint32_t major, uint32_t minor)
{
    tb_bytes(f, "Nettrace", 8);
    tb_u32(f, 0);
    tb_u32(f, major);
    tb_u32(f, minor);
}

void v6_block(tb *f, uint8_t kind, const void *payload, size_t size)
{
    if (size > 0xffffff) {
        fprintf(stderr, "tbuild: V6 block too large\n");
        abort();
    }
    tb_u32(f, (uint32_t)size | ((uint32_t)kind << 24));
    tb_bytes(f, payload, size);
}

void v6_trace_block(tb *f, uint32_t pointer_size, uint64_t freq, const char *const *kv, uint32_t kv_pairs)
{
    tb p;
    tb_init(&p);
    sync_time(&p);
    tb_u64(&p, 1000);
    tb_u64(&p, freq);
    tb_u32(&p, pointer_size);
    tb_u32(&p, kv_pairs);
    for (uint32_t i = 0; i < 2 * kv_pairs; i++)
        tb_str8(&p, kv[i]);
    v6_block(f, 1, p.d, p.len);
    tb_free(&p);
}

void v6_end(tb *f) { tb_u32(f, 0); }

void v6_begin(tb *f)
{
    v6_stream_header(f, 6, 0);
    v6_trace_block(f, 8, 10000000, NULL, 0);
}

void eb_header(tb *p, uint16_t header_size, uint16_t flags, uint64_t min_ts, uint64_t max_ts)
{
    tb_u16(p, header_size);
    tb_u16(p, flags);
    tb_u64(p, min_ts);
    tb_u64(p, max_ts);
    for (unsigned i = 20; i < header_size; i++)
        tb_u8(p, 0xee);
}

void v6_event_row(tb *p, const ev6 *e)
{
    tb_u32(p, 48 + e->payload_size);
    tb_u32(p, e->metadata_id | (e->not_sorted ? 0x80000000u : 0));
    tb_u32(p, e->seq);
    tb_u64(p, e->thread);
    tb_u64(p, e->capture);
    tb_u32(p, e->proc);
    tb_u32(p, e->stack_id);
    tb_u64(p, e->ts);
    tb_u32(p, e->label_id);
    tb_u32(p, e->payload_size);
    tb_bytes(p, e->payload, e->payload_size);
}

void v6_metadata_row(tb *p, uint32_t id, const char *provider, uint32_t event_id, const char *name,
                     const tb *fields, const tb *optional, size_t trailing)
{
    tb c;
    tb_init(&c);
    tb_varu(&c, id);
    tb_str8(&c, provider);
    tb_varu(&c, event_id);
    tb_str8(&c, name);
    if (fields)
        tb_tb(&c, fields);
    else
        tb_u16(&c, 0);
    tb_u16(&c, optional ? (uint16_t)optional->len : 0);
    if (optional)
        tb_tb(&c, optional);
    for (size_t i = 0; i < trailing; i++)
        tb_u8(&c, 0xcc);
    tb_u16(p, (uint16_t)c.len);
    tb_tb(p, &c);
    tb_free(&c);
}

void v6_field(tb *fields, const char *name, const void *type, size_t type_len, size_t trailing)
{
    tb c;
    tb_init(&c);
    tb_str8(&c, name);
    tb_bytes(&c, type, type_len);
    for (size_t i = 0; i < trailing; i++)
        tb_u8(&c, 0xdd);
    tb_u16(fields, (uint16_t)c.len);
    tb_tb(fields, &c);
    tb_free(&c);
}

void v6_metadata_block(tb *f, const tb *rows)
{
    tb p;
    tb_init(&p);
    tb_u16(&p, 0);
    tb_tb(&p, rows);
    v6_block(f, 3, p.d, p.len);
    tb_free(&p);
}

void v6_simple_metadata(tb *f, uint32_t id, const char *provider, const char *name)
{
    tb rows;
    tb_init(&rows);
    v6_metadata_row(&rows, id, provider, id * 10, name, NULL, NULL, 0);
    v6_metadata_block(f, &rows);
    tb_free(&rows);
}

void v6_thread_row(tb *p, uint64_t index, const char *name, uint64_t pid, uint64_t tid)
{
    tb c;
    tb_init(&c);
    tb_varu(&c, index);
    if (name) {
        tb_u8(&c, 1);
        tb_str8(&c, name);
    }
    if (pid != UINT64_MAX) {
        tb_u8(&c, 2);
        tb_varu(&c, pid);
    }
    if (tid != UINT64_MAX) {
        tb_u8(&c, 3);
        tb_varu(&c, tid);
    }
    tb_u16(p, (uint16_t)c.len);
    tb_tb(p, &c);
    tb_free(&c);
}

void v6_sequence_point(tb *f, uint64_t ts, uint32_t flags, const uint64_t *threads, const uint32_t *seqs, uint32_t n)
{
    tb p;
    tb_init(&p);
    tb_u64(&p, ts);
    tb_u32(&p, flags);
    tb_u32(&p, n);
    for (uint32_t i = 0; i < n; i++) {
        tb_varu(&p, threads[i]);
        tb_varu(&p, seqs[i]);
    }
    v6_block(f, 4, p.d, p.len);
    tb_free(&p);
}

/* ------------------------------------------------------------------ */
/* FastSerialization                                                   */
/* ------------------------------------------------------------------ */

void fs_nettrace_header(tb *f)
{
    tb_bytes(f, "Nettrace", 8);
    fs_netperf_header(f);
}

void fs_netperf_header(tb *f)
{
    tb_u32(f, 20);
    tb_bytes(f, "!FastSerialization.1", 20);
}

static void type_header(tb *f, uint8_t begin_tag, const char *name, uint32_t version)
{
    tb_u8(f, begin_tag);
    tb_u8(f, begin_tag);
    tb_u8(f, 1);
    tb_u32(f, version);
    tb_u32(f, version);
    tb_u32(f, (uint32_t)strlen(name));
    tb_bytes(f, name, strlen(name));
    tb_u8(f, 6);
}

void fs_trace_object(tb *f, uint8_t begin_tag, uint32_t version, uint32_t pointer_size, uint64_t freq)
{
    type_header(f, begin_tag, "Trace", version);
    sync_time(f);
    tb_u64(f, 1000);
    tb_u64(f, freq);
    tb_u32(f, pointer_size);
    tb_u32(f, 4242);
    tb_u32(f, 8);
    tb_u32(f, 1000);
    tb_u8(f, 6);
}

size_t fs_begin_block(tb *f, uint8_t begin_tag, const char *name, uint32_t version)
{
    type_header(f, begin_tag, name, version);
    size_t at = f->len;
    tb_u32(f, 0);
    tb_pad4(f);
    return at;
}

void fs_end_block(tb *f, size_t size_off)
{
    tb_put32(f, size_off, (uint32_t)(f->len - fs_content_start(size_off)));
    tb_u8(f, 6);
}

void fs_block(tb *f, uint8_t begin_tag, const char *name, uint32_t version, const void *content, size_t size)
{
    size_t at = fs_begin_block(f, begin_tag, name, version);
    tb_bytes(f, content, size);
    fs_end_block(f, at);
}

void fs_end(tb *f) { tb_u8(f, 1); }

void v5_begin(tb *f)
{
    fs_nettrace_header(f);
    fs_trace_object(f, 5, 4, 8, 10000000);
}

void v5_event_row(tb *f, const ev5 *e)
{
    static const uint8_t zero[16];
    size_t at = f->len;
    tb_u32(f, 76 + e->payload_size);
    tb_u32(f, e->metadata_id | (e->not_sorted ? 0x80000000u : 0));
    tb_u32(f, e->seq);
    tb_u64(f, e->thread);
    tb_u64(f, e->capture);
    tb_u32(f, e->proc);
    tb_u32(f, e->stack_id);
    tb_u64(f, e->ts);
    tb_bytes(f, e->activity ? e->activity : zero, 16);
    tb_bytes(f, e->related ? e->related : zero, 16);
    tb_u32(f, e->payload_size);
    tb_bytes(f, e->payload, e->payload_size);
    size_t pad = (4 - (f->len & 3)) & 3;
    if (e->size_counts_padding)
        tb_put32(f, at, (uint32_t)(76 + e->payload_size + pad));
    tb_zeros(f, pad);
}

void v5_metadata_header(tb *p, uint32_t id, const char *provider, uint32_t event_id, const char *name,
                        uint64_t keywords, uint32_t version, uint32_t level)
{
    tb_u32(p, id);
    tb_utf16z(p, provider);
    tb_u32(p, event_id);
    tb_utf16z(p, name);
    tb_u64(p, keywords);
    tb_u32(p, version);
    tb_u32(p, level);
}

void v5_metadata_block(tb *f, const tb *blob)
{
    size_t at = fs_begin_block(f, 5, "MetadataBlock", 2);
    eb_header(f, 20, 0, 0, 0);
    ev5 e = {0};
    e.payload = blob->d;
    e.payload_size = (uint32_t)blob->len;
    v5_event_row(f, &e);
    fs_end_block(f, at);
}

void v5_simple_metadata(tb *f, uint32_t id, const char *provider, const char *name)
{
    tb blob;
    tb_init(&blob);
    v5_metadata_header(&blob, id, provider, id * 10, name, 0, 0, 4);
    tb_u32(&blob, 0);
    v5_metadata_block(f, &blob);
    tb_free(&blob);
}

void stack_block_payload(tb *p, uint32_t first, uint32_t count, const uint32_t *sizes)
{
    tb_u32(p, first);
    tb_u32(p, count);
    for (uint32_t i = 0; i < count; i++) {
        tb_u32(p, sizes[i]);
        for (uint32_t j = 0; j < sizes[i]; j++)
            tb_u8(p, (uint8_t)((first + i) * 16 + j));
    }
}

void v5_sequence_point(tb *f, uint64_t ts, const uint64_t *threads, const uint32_t *seqs, uint32_t n)
{
    size_t at = fs_begin_block(f, 5, "SPBlock", 2);
    tb_u64(f, ts);
    tb_u32(f, n);
    for (uint32_t i = 0; i < n; i++) {
        tb_u64(f, threads[i]);
        tb_u32(f, seqs[i]);
    }
    fs_end_block(f, at);
}

void v3_event(tb *p, const ev3 *e)
{
    static const uint8_t zero[16];
    tb_u32(p, 52 + e->payload_size + 4 + e->stack_size + e->extra);
    tb_u32(p, e->metadata_id);
    tb_u32(p, e->thread);
    tb_u64(p, e->ts);
    tb_bytes(p, e->activity ? e->activity : zero, 16);
    tb_bytes(p, e->related ? e->related : zero, 16);
    tb_u32(p, e->payload_size);
    tb_bytes(p, e->payload, e->payload_size);
    tb_u32(p, e->stack_size);
    tb_bytes(p, e->stack, e->stack_size);
    for (uint32_t i = 0; i < e->extra; i++)
        tb_u8(p, 0);
}

/* ------------------------------------------------------------------ */
/* Samples                                                             */
/* ------------------------------------------------------------------ */

unsigned sample_v6(tb *f)
{
    static const char *const kv[] = {"ProcessId", "100", "HardwareThreadCount", "4"};
    tb p, rows, fields;
    tb_init(&p);
    tb_init(&rows);
    tb_init(&fields);
    v6_stream_header(f, 6, 0);
    v6_trace_block(f, 8, 10000000, kv, 2);

    v6_thread_row(&p, 1, "main", 100, 1001);
    v6_thread_row(&p, 2, "worker", UINT64_MAX, 1002);
    v6_block(f, 6, p.d, p.len);

    /* metadata 1: {int32 x}; metadata 2: {varuint v, byte[] b} */
    tb_reset(&fields);
    tb_u16(&fields, 1);
    v6_field(&fields, "x", "\x09", 1, 0);
    v6_metadata_row(&rows, 1, "ProvA", 10, "EvA", &fields, NULL, 0);
    tb_reset(&fields);
    tb_u16(&fields, 2);
    v6_field(&fields, "v", "\x15", 1, 0);
    v6_field(&fields, "b", "\x13\x06", 2, 0);
    v6_metadata_row(&rows, 2, "ProvA", 20, "EvB", &fields, NULL, 0);
    v6_metadata_block(f, &rows);

    tb_reset(&p);
    stack_block_payload(&p, 1, 2, (const uint32_t[]){16, 8});
    v6_block(f, 5, p.d, p.len);

    tb_reset(&p);
    tb_u32(&p, 1);
    tb_u32(&p, 1);
    tb_u8(&p, 1);
    uint8_t g[16];
    guid_fill(g, 0x40);
    tb_bytes(&p, g, 16);
    tb_u8(&p, 0x85);
    tb_str8(&p, "k");
    tb_str8(&p, "v");
    v6_block(f, 8, p.d, p.len);

    /* uncompressed: two events on thread 1 */
    tb_reset(&p);
    eb_header(&p, 20, 0, 100, 110);
    uint8_t pl[4] = {1, 0, 0, 0};
    ev6 e = {.metadata_id = 1, .seq = 1, .thread = 1, .capture = 1, .proc = 0, .stack_id = 1, .ts = 100,
             .label_id = 1, .payload = pl, .payload_size = 4};
    v6_event_row(&p, &e);
    e.seq = 2;
    e.ts = 110;
    e.not_sorted = 1;
    v6_event_row(&p, &e);
    v6_block(f, 2, p.d, p.len);

    /* compressed: three events on thread 2 */
    tb_reset(&p);
    eb_header(&p, 20, 1, 120, 130);
    static const uint8_t pb[5] = {0x05, 2, 0, 7, 8};
    tb_u8(&p, 0xdf);
    tb_varu(&p, 2);   /* metadata */
    tb_varu(&p, 0);   /* seq delta: 0 + 0 + 1 */
    tb_varu(&p, 2);   /* capture */
    tb_varu(&p, 3);   /* proc */
    tb_varu(&p, 2);   /* thread */
    tb_varu(&p, 2);   /* stack */
    tb_varu(&p, 120); /* ts */
    tb_varu(&p, 1);   /* label list */
    tb_varu(&p, 5);   /* payload size */
    tb_bytes(&p, pb, 5);
    tb_u8(&p, 0x00);
    tb_varu(&p, 5);
    tb_bytes(&p, pb, 5);
    tb_u8(&p, 0x40);
    tb_varu(&p, 5);
    tb_bytes(&p, pb, 5);
    v6_block(f, 2, p.d, p.len);

    v6_sequence_point(f, 200, 0, (const uint64_t[]){1, 2}, (const uint32_t[]){2, 3}, 2);

    tb_reset(&p);
    stack_block_payload(&p, 1, 1, (const uint32_t[]){8});
    v6_block(f, 5, p.d, p.len);

    tb_reset(&p);
    eb_header(&p, 20, 1, 210, 211);
    tb_u8(&p, 0x8f);
    tb_varu(&p, 1);
    tb_varu(&p, 2); /* seq 0 + 2 + 1 = 3 */
    tb_varu(&p, 1);
    tb_varu(&p, 0);
    tb_varu(&p, 1);
    tb_varu(&p, 1);
    tb_varu(&p, 210);
    tb_varu(&p, 4);
    tb_bytes(&p, pl, 4);
    tb_u8(&p, 0x40);
    tb_varu(&p, 1);
    tb_bytes(&p, pl, 4);
    v6_block(f, 2, p.d, p.len);

    tb_reset(&p);
    tb_varu(&p, 2);
    tb_varu(&p, 3);
    v6_block(f, 7, p.d, p.len);

    v6_sequence_point(f, 250, 3, (const uint64_t[]){1}, (const uint32_t[]){4}, 1);

    tb_reset(&p);
    v6_thread_row(&p, 3, "late", 100, 1003);
    v6_block(f, 6, p.d, p.len);
    v6_simple_metadata(f, 1, "ProvB", "EvC");

    tb_reset(&p);
    eb_header(&p, 20, 0, 300, 300);
    e = (ev6){.metadata_id = 1, .seq = 1, .thread = 3, .capture = 3, .ts = 300};
    v6_event_row(&p, &e);
    v6_block(f, 2, p.d, p.len);

    v6_end(f);
    tb_free(&p);
    tb_free(&rows);
    tb_free(&fields);
    return 8;
}

unsigned sample_v5(tb *f)
{
    tb blob;
    tb_init(&blob);
    v5_begin(f);

    /* one metadata block with two rows */
    size_t at = fs_begin_block(f, 5, "MetadataBlock", 2);
    eb_header(f, 20, 0, 0, 0);
    v5_metadata_header(&blob, 1, "ProvA", 10, "EvA", 0xf0, 1, 4);
    tb_u32(&blob, 1);
    tb_u32(&blob, 9);
    tb_utf16z(&blob, "x");
    tb_u32(&blob, 1); /* opcode tag */
    tb_u8(&blob, 1);
    tb_u8(&blob, 10);
    ev5 m = {.payload = blob.d, .payload_size = (uint32_t)blob.len};
    v5_event_row(f, &m);
    tb_reset(&blob);
    v5_metadata_header(&blob, 2, "ProvA", 20, "EvB", 0, 0, 4);
    tb_u32(&blob, 0);
    tb v2;
    tb_init(&v2);
    tb_u32(&v2, 1);
    size_t fs = v2.len;
    tb_u32(&v2, 0);
    tb_utf16z(&v2, "arr");
    tb_u32(&v2, 19);
    tb_u32(&v2, 9);
    tb_put32(&v2, fs, (uint32_t)(v2.len - fs));
    tb_u32(&blob, (uint32_t)v2.len);
    tb_u8(&blob, 2);
    tb_tb(&blob, &v2);
    tb_free(&v2);
    m = (ev5){.payload = blob.d, .payload_size = (uint32_t)blob.len};
    v5_event_row(f, &m);
    fs_end_block(f, at);

    at = fs_begin_block(f, 5, "StackBlock", 2);
    stack_block_payload(f, 1, 2, (const uint32_t[]){8, 16});
    fs_end_block(f, at);

    uint8_t act[16];
    guid_fill(act, 0x10);
    uint8_t pl[4] = {9, 0, 0, 0};
    at = fs_begin_block(f, 5, "EventBlock", 2);
    eb_header(f, 20, 0, 100, 105);
    ev5 e = {.metadata_id = 1, .seq = 1, .thread = 10, .capture = 10, .stack_id = 1, .ts = 100, .activity = act,
             .payload = pl, .payload_size = 4};
    v5_event_row(f, &e);
    e.seq = 2;
    e.ts = 105;
    v5_event_row(f, &e);
    fs_end_block(f, at);

    at = fs_begin_block(f, 5, "EventBlock", 2);
    eb_header(f, 20, 1, 110, 113);
    static const uint8_t arr[10] = {2, 0, 1, 0, 0, 0, 2, 0, 0, 0};
    tb_u8(f, 0xff);
    tb_varu(f, 2);
    tb_varu(f, 0);
    tb_varu(f, 11);
    tb_varu(f, 1);
    tb_varu(f, 11);
    tb_varu(f, 2);
    tb_varu(f, 110);
    tb_bytes(f, act, 16);
    guid_fill(act, 0x20);
    tb_bytes(f, act, 16);
    tb_varu(f, 10);
    tb_bytes(f, arr, 10);
    tb_u8(f, 0x00);
    tb_varu(f, 3);
    tb_bytes(f, arr, 10);
    fs_end_block(f, at);

    v5_sequence_point(f, 200, (const uint64_t[]){10, 11}, (const uint32_t[]){2, 2}, 2);

    at = fs_begin_block(f, 5, "EventBlock", 2);
    eb_header(f, 20, 0, 300, 300);
    e = (ev5){.metadata_id = 2, .seq = 3, .thread = 10, .capture = 10, .ts = 300, .payload = arr,
              .payload_size = 10};
    v5_event_row(f, &e);
    fs_end_block(f, at);

    fs_end(f);
    tb_free(&blob);
    return 5;
}

unsigned sample_v3(tb *f)
{
    tb blob;
    tb_init(&blob);
    fs_netperf_header(f);
    fs_trace_object(f, 4, 3, 8, 1000000000);

    size_t at = fs_begin_block(f, 4, "EventBlock", 1);
    v5_metadata_header(&blob, 1, "ProvA", 10, "EvA", 0, 0, 4);
    tb_u32(&blob, 1);
    tb_u32(&blob, 9);
    tb_utf16z(&blob, "x");
    ev3 m = {.metadata_id = 0, .thread = 77, .ts = 50, .payload = blob.d, .payload_size = (uint32_t)blob.len};
    v3_event(f, &m);
    uint8_t pl[4] = {5, 0, 0, 0};
    uint8_t stack[16];
    for (int i = 0; i < 16; i++)
        stack[i] = (uint8_t)(0xa0 + i);
    ev3 e = {.metadata_id = 1, .thread = 77, .ts = 100, .payload = pl, .payload_size = 4, .stack = stack,
             .stack_size = 16};
    v3_event(f, &e);
    e.ts = 101;
    e.extra = 3;
    e.stack_size = 8;
    v3_event(f, &e);
    tb_reset(&blob);
    v5_metadata_header(&blob, 2, "ProvA", 20, "EvB", 0, 0, 4);
    m.payload = blob.d;
    m.payload_size = (uint32_t)blob.len;
    v3_event(f, &m);
    e = (ev3){.metadata_id = 2, .thread = 78, .ts = 102};
    v3_event(f, &e);
    fs_end_block(f, at);

    at = fs_begin_block(f, 4, "EventBlock", 1);
    e = (ev3){.metadata_id = 1, .thread = 77, .ts = 200, .payload = pl, .payload_size = 4};
    v3_event(f, &e);
    e.ts = 201;
    v3_event(f, &e);
    fs_end_block(f, at);

    fs_end(f);
    tb_free(&blob);
    return 5;
}
