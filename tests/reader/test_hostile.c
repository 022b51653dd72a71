/*
 * Hostile input. For every real trace (the first 64 KiB of it) and for the
 * hand-built samples:
 *  - truncation at every byte offset: open + full read in file and time
 *    order never crashes, returns exactly the events of the blocks that end
 *    before the cut, and reports the trace incomplete with a message naming
 *    an offset;
 *  - single bit flips and garbage spans at deterministic pseudo-random
 *    positions: never crash, never loop without progress, every error
 *    carries a message.
 * Inputs are placed so that they end exactly at a PROT_NONE page: a read one
 * byte past the end faults even without a sanitizer. malloc/calloc/realloc
 * are wrapped (see meson.build) to check that no input makes the library ask
 * for a large block, including the "huge declared counts" cases.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "event_header.h"
#include "ntidx/ntidx.h"
#include "tbuild.h"
#include "trace_internal.h"

#define PREFIX_MAX (64 * 1024)
#define BIG_ALLOC (8u << 20) /* no input below needs a single block this large */

/* ------------------------------------------------------------------ */
/* Allocation tracking (linker --wrap)                                 */
/* ------------------------------------------------------------------ */

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);

static size_t g_max_alloc;

static void note_alloc(size_t n)
{
    if (n > g_max_alloc)
        g_max_alloc = n;
}

/* The wrappers -Wl,--wrap puts in place of malloc, calloc and realloc (tests/reader/meson.build). */
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);

void *__wrap_malloc(size_t n)
{
    note_alloc(n);
    return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t m)
{
    note_alloc(m && n > SIZE_MAX / m ? SIZE_MAX : n * m);
    return __real_calloc(n, m);
}

void *__wrap_realloc(void *p, size_t n)
{
    note_alloc(n);
    return __real_realloc(p, n);
}

#define assert_contains(hay, needle)                                                                   \
    do {                                                                                               \
        const char *h_ = (hay);                                                                        \
        if (!h_ || !strstr(h_, (needle)))                                                              \
            fail_msg("'%s' does not contain '%s'", h_ ? h_ : "(null)", (needle));                      \
    } while (0)

/* ------------------------------------------------------------------ */
/* Guarded buffers                                                     */
/* ------------------------------------------------------------------ */

typedef struct guarded {
    uint8_t *base;
    size_t usable; /* bytes before the guard page */
    size_t map_len;
} guarded;

static void guarded_init(guarded *g, size_t cap)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    g->usable = (cap + page - 1) / page * page;
    if (!g->usable)
        g->usable = page;
    g->map_len = g->usable + page;
    void *m = mmap(NULL, g->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(m != MAP_FAILED);
    g->base = m;
    assert_int_equal(mprotect(g->base + g->usable, page, PROT_NONE), 0);
}

static void guarded_free(guarded *g) { munmap(g->base, g->map_len); }

/* Copy n bytes so that they end at the guard page; returns where they start. */
static uint8_t *guarded_place(guarded *g, const uint8_t *src, size_t n)
{
    assert_true(n <= g->usable);
    uint8_t *d = g->base + g->usable - n;
    if (n)
        memcpy(d, src, n);
    return d;
}

/* ------------------------------------------------------------------ */
/* Reading everything a trace offers                                   */
/* ------------------------------------------------------------------ */

typedef struct outcome {
    int open_rc;
    int rc[2];
    uint64_t events[2];
    int complete[2];
} outcome;

static int in_range(const uint8_t *p, size_t len, const uint8_t *d, size_t n)
{
    return p >= d && (size_t)(p - d) <= n && len <= n - (size_t)(p - d);
}

/* An error from the reader or the walk: a message that names where. */
static void check_error_message(int rc, const char *msg, const char *what)
{
    if (!msg || !msg[0])
        fail_msg("%s: error %d (%s) without a message", what, rc, ntidx_strerror(rc));
    if (rc != NTIDX_E_NOMEM && !strstr(msg, "offset "))
        fail_msg("%s: message for error %d names no offset: %s", what, rc, msg);
}

static void check_event(const ntidx_trace *t, const ntidx_event *e, const uint8_t *d, size_t n, int deep)
{
    if (!in_range(e->payload, e->payload_size, d, n))
        fail_msg("payload of the event at %llu lies outside the input", (unsigned long long)e->offset);
    if (e->stack && !in_range(e->stack, e->stack_size, d, n))
        fail_msg("stack of the event at %llu lies outside the input", (unsigned long long)e->offset);
    if (e->label_list && !in_range(e->label_list, e->label_list_size, d, n))
        fail_msg("label list of the event at %llu lies outside the input", (unsigned long long)e->offset);
    if (e->activity_id && (const uint8_t *)e->activity_id >= d && !in_range(e->activity_id, 16, d, n))
        fail_msg("activity id lies outside the input");
    assert_true(e->offset < n);
    assert_non_null(e->metadata);
    assert_non_null(e->metadata->provider);
    if (!deep)
        return;
    ntidx_buf out = {0};
    int rc = ntidx_event_fields_json(t, e, &out);
    if (rc == NTIDX_E_PAYLOAD)
        assert_true(ntidx_last_error()[0] != 0);
    else
        assert_int_equal(rc, NTIDX_OK);
    rc = ntidx_event_fields_text(t, e, &out);
    assert_true(rc == NTIDX_OK || (rc == NTIDX_E_PAYLOAD && ntidx_last_error()[0]));
    ntidx_buf_free(&out);
    char name[128];
    (void)ntidx_event_display_name(e->metadata, name, sizeof name);
    /* timestamps and sync times are untrusted too: conversions either work or say CORRUPT */
    (void)ntidx_ticks_to_seconds(t, e->timestamp);
    int64_t ns;
    char iso[64];
    rc = ntidx_ticks_to_unix_ns(t, e->timestamp, &ns);
    assert_true(rc == NTIDX_OK || rc == NTIDX_E_CORRUPT);
    rc = ntidx_ticks_to_iso8601(t, e->timestamp, iso, sizeof iso);
    assert_true(rc == NTIDX_OK || rc == NTIDX_E_CORRUPT);
    if (e->label_list) {
        const uint8_t *p = e->label_list, *end = p + e->label_list_size;
        ntidx_label l;
        int k = 0, lrc;
        while ((lrc = ntidx_label_next(&p, end, &l)) == 1)
            assert_true(++k <= (int)e->label_list_size);
        assert_true(lrc == 0 || lrc == NTIDX_E_CORRUPT);
    }
}

static void read_everything(const uint8_t *d, size_t n, outcome *o, int deep)
{
    memset(o, 0, sizeof *o);
    ntidx_trace *t = NULL;
    o->open_rc = ntidx_trace_open_memory(d, n, "hostile", &t);
    if (o->open_rc != NTIDX_OK) {
        assert_null(t);
        check_error_message(o->open_rc, ntidx_last_error(), "open");
        return;
    }
    for (int order = 0; order < 2; order++) {
        ntidx_reader_options opt;
        ntidx_reader_options_defaults(&opt);
        opt.order = order ? NTIDX_ORDER_TIME : NTIDX_ORDER_FILE;
        ntidx_reader *r = NULL;
        assert_int_equal(ntidx_reader_open(t, &opt, &r), NTIDX_OK);
        const ntidx_event *e;
        int rc;
        uint64_t count = 0, last_ts = 0;
        /* every event takes at least two bytes of the input: more would be a loop without progress */
        while ((rc = ntidx_reader_next(r, &e)) == 1) {
            if (++count > n / 2 + 1)
                fail_msg("more events than the input can hold: the reader does not progress");
            check_event(t, e, d, n, deep && order == 0); /* formatting once is enough */
            if (order)
                last_ts = e->timestamp;
        }
        (void)last_ts;
        o->rc[order] = rc;
        o->events[order] = count;
        o->complete[order] = ntidx_reader_complete(r);
        if (rc < 0) {
            check_error_message(rc, ntidx_last_error(), "reader");
            assert_int_equal(ntidx_reader_next(r, &e), rc); /* sticky */
            assert_int_equal(o->complete[order], 0);
        } else if (!o->complete[order]) {
            check_error_message(NTIDX_E_TRUNCATED, ntidx_reader_incomplete_reason(r), "incomplete read");
        }
        const ntidx_dropped *dl;
        size_t dn;
        assert_int_equal(ntidx_reader_dropped(r, &dl, &dn), NTIDX_OK);
        const ntidx_reader_stats *st = ntidx_reader_get_stats(r);
        assert_true(st->events == count);
        assert_true(st->end_offset <= n);
        ntidx_reader_close(&r);
    }
    if (deep) {
        /* the block walk and block time ranges */
        uint64_t pos = ntidx_trace_get_info(t)->first_block_offset;
        ntidx_block b;
        int rc, blocks = 0;
        while ((rc = ntidx_trace_next_block(t, &pos, &b)) == 1) {
            if (++blocks > (int)(n / 4 + 2))
                fail_msg("more blocks than the input can hold");
            assert_true(b.offset + b.size <= n);
            assert_true(b.payload_offset + b.payload_size <= n);
            assert_true(pos == b.offset + b.size);
            if (b.kind == NTIDX_BLOCK_EVENT) {
                uint64_t lo, hi, cnt;
                int trc = ntidx_event_block_time_range(t, &b, &lo, &hi, &cnt);
                if (trc < 0)
                    check_error_message(trc, ntidx_last_error(), "block time range");
                else if (trc == 1)
                    assert_true(lo <= hi);
            }
        }
        if (rc < 0)
            check_error_message(rc, ntidx_last_error(), "block walk");
        ntidx_stats *s = NULL;
        rc = ntidx_stats_compute(t, &s);
        if (rc < 0)
            check_error_message(rc, ntidx_last_error(), "stats");
        else
            assert_true(s->events == o->events[0] || o->rc[0] < 0);
        ntidx_stats_free(&s);
    }
    ntidx_trace_close(&t);
}

/* ------------------------------------------------------------------ */
/* Inputs                                                              */
/* ------------------------------------------------------------------ */

typedef struct input {
    char name[256];
    uint8_t *data; /* the whole file */
    size_t size;
} input;

static input g_inputs[32];
static int g_ninputs;
static const char *g_traces_dir;

static void add_input(const char *name, const uint8_t *d, size_t n)
{
    assert_true(g_ninputs < 32);
    input *in = &g_inputs[g_ninputs++];
    snprintf(in->name, sizeof in->name, "%s", name);
    in->data = malloc(n ? n : 1);
    assert_non_null(in->data);
    memcpy(in->data, d, n);
    in->size = n;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int load_inputs(void **state)
{
    (void)state;
    DIR *dir = opendir(g_traces_dir);
    if (!dir) {
        fprintf(stderr, "cannot open the traces directory %s\n", g_traces_dir);
        return -1;
    }
    char *names[32];
    int nn = 0;
    struct dirent *de;
    while ((de = readdir(dir)) && nn < 32) {
        size_t l = strlen(de->d_name);
        if ((l > 9 && !strcmp(de->d_name + l - 9, ".nettrace")) || (l > 8 && !strcmp(de->d_name + l - 8, ".netperf")))
            names[nn++] = strdup(de->d_name);
    }
    closedir(dir);
    if (nn == 0) {
        fprintf(stderr, "no traces in %s\n", g_traces_dir);
        return -1;
    }
    qsort(names, (size_t)nn, sizeof names[0], cmp_str);
    for (int i = 0; i < nn; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", g_traces_dir, names[i]);
        FILE *fp = fopen(path, "rb");
        if (!fp)
            return -1;
        fseek(fp, 0, SEEK_END);
        long sz = ftell(fp);
        fseek(fp, 0, SEEK_SET);
        uint8_t *d = malloc((size_t)sz + 1);
        if (!d || fread(d, 1, (size_t)sz, fp) != (size_t)sz)
            return -1;
        fclose(fp);
        add_input(names[i], d, (size_t)sz);
        free(d);
        free(names[i]);
    }
    tb f;
    tb_init(&f);
    sample_v6(&f);
    add_input("sample_v6", f.d, f.len);
    tb_reset(&f);
    sample_v5(&f);
    add_input("sample_v5", f.d, f.len);
    tb_reset(&f);
    sample_v3(&f);
    add_input("sample_v3", f.d, f.len);
    tb_free(&f);
    return 0;
}

static int free_inputs(void **state)
{
    (void)state;
    for (int i = 0; i < g_ninputs; i++)
        free(g_inputs[i].data);
    g_ninputs = 0;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Truncation at every offset                                          */
/* ------------------------------------------------------------------ */

typedef struct block_events {
    uint64_t end;
    uint64_t events; /* events in the block, 0 for other kinds */
} block_events;

/*
 * From the untruncated file's block walk: the end offset of every block that
 * ends within `limit` and its number of events (decoded with the block-level
 * header decoder, not the reader).
 */
static size_t blocks_within(const input *in, size_t limit, block_events *out, size_t max)
{
    ntidx_trace *t = NULL;
    assert_int_equal(ntidx_trace_open_memory(in->data, in->size, in->name, &t), NTIDX_OK);
    uint64_t pos = ntidx_trace_get_info(t)->first_block_offset;
    ntidx_block b;
    size_t k = 0;
    int rc;
    while ((rc = ntidx_trace_next_block(t, &pos, &b)) == 1 && b.offset + b.size <= limit) {
        uint64_t cnt = 0;
        if (b.kind == NTIDX_BLOCK_EVENT) {
            ntx_hdr_block hb;
            ntx_err err = {0};
            assert_int_equal(ntx_hdr_block_init(&hb, t, &b, &err), 0);
            ntx_hdr h;
            int hrc;
            while ((hrc = ntx_hdr_next(&hb, &h, &err)) == 1)
                cnt += !(hb.version == 3 && h.metadata_id == 0); /* V3 metadata rows are not events */
            assert_int_equal(hrc, 0);
        }
        assert_true(k < max);
        out[k].end = b.offset + b.size;
        out[k].events = cnt;
        k++;
    }
    assert_true(rc == 1 || rc == 0);
    ntidx_trace_close(&t);
    return k;
}

/* End of the n-th complete event block (1-based), or 0. */
static uint64_t nth_event_block_end(const block_events *be, size_t nb, int n)
{
    for (size_t i = 0; i < nb; i++)
        if (be[i].events && --n == 0)
            return be[i].end;
    return 0;
}

static int near_a_boundary(const block_events *be, size_t nb, uint64_t cut)
{
    for (size_t i = 0; i < nb; i++)
        if (cut + 8 >= be[i].end && cut <= be[i].end + 8)
            return 1;
    return 0;
}

/*
 * Every cut in the first 64 KiB. Where the first event blocks of a trace end
 * later than that (large runtime blocks), the sweep goes on to the end of the
 * second complete event block (at most 256 KiB) with cuts around every block
 * boundary and every 257th byte, so block-level counts are checked too.
 */
static void truncation_sweep(const input *in)
{
    static block_events be[8192];
    size_t prefix = in->size < PREFIX_MAX ? in->size : PREFIX_MAX;
    size_t nb = blocks_within(in, 4 * PREFIX_MAX, be, 8192);
    size_t ext = prefix;
    uint64_t second = nth_event_block_end(be, nb, 2);
    if (second > ext)
        ext = (size_t)second;
    if (ext > in->size)
        ext = in->size;
    if (getenv("NTIDX_HOSTILE_VERBOSE")) {
        uint64_t tot = 0;
        int evb = 0;
        for (size_t i = 0; i < nb && be[i].end <= ext; i++) {
            tot += be[i].events;
            evb += be[i].events > 0;
        }
        fprintf(stderr, "  up to %zu: %d event blocks, %llu events\n", ext, evb, (unsigned long long)tot);
    }
    guarded g;
    guarded_init(&g, ext);
    size_t bi = 0;
    uint64_t expected = 0;
    int opened = 0;
    for (size_t cut = 0; cut <= ext; cut++) {
        while (bi < nb && be[bi].end <= cut)
            expected += be[bi++].events;
        if (cut > prefix && cut != ext && cut % 257 && !near_a_boundary(be, nb, cut))
            continue;
        const uint8_t *d = guarded_place(&g, in->data, cut);
        outcome o;
        g_max_alloc = 0;
        read_everything(d, cut, &o, cut % 211 == 0);
        if (g_max_alloc > BIG_ALLOC + 2 * cut)
            fail_msg("%s cut at %zu: an allocation of %zu bytes", in->name, cut, g_max_alloc);
        if (o.open_rc != NTIDX_OK) {
            if (expected != 0)
                fail_msg("%s cut at %zu: open failed (%d: %s) but %llu events are complete before the cut", in->name,
                         cut, o.open_rc, ntidx_last_error(), (unsigned long long)expected);
            if (opened)
                fail_msg("%s cut at %zu: open failed (%s) after shorter cuts opened", in->name, cut,
                         ntidx_last_error());
            continue;
        }
        opened = 1;
        for (int order = 0; order < 2; order++) {
            if (o.rc[order] != 0 || o.events[order] != expected)
                fail_msg("%s cut at %zu (%s order): rc %d, %llu events, want %llu", in->name, cut,
                         order ? "time" : "file", o.rc[order], (unsigned long long)o.events[order],
                         (unsigned long long)expected);
            int want_complete = cut == in->size;
            if (o.complete[order] != want_complete)
                fail_msg("%s cut at %zu: complete %d", in->name, cut, o.complete[order]);
        }
    }
    assert_true(opened);
    assert_true(expected > 0); /* the sweep reached complete event blocks */
    guarded_free(&g);
}

static void test_truncation_every_offset(void **state)
{
    (void)state;
    for (int i = 0; i < g_ninputs; i++) {
        clock_t c0 = clock();
        fprintf(stderr, "truncating %s (%zu bytes)\n", g_inputs[i].name,
                g_inputs[i].size < PREFIX_MAX ? g_inputs[i].size : (size_t)PREFIX_MAX);
        truncation_sweep(&g_inputs[i]);
        if (getenv("NTIDX_HOSTILE_VERBOSE"))
            fprintf(stderr, "  %.1f s\n", (double)(clock() - c0) / CLOCKS_PER_SEC);
    }
}

/* ------------------------------------------------------------------ */
/* Bit flips and garbage                                               */
/* ------------------------------------------------------------------ */

static void mutate_sweep(const input *in, uint64_t seed)
{
    size_t n = in->size < PREFIX_MAX ? in->size : PREFIX_MAX;
    guarded g;
    guarded_init(&g, n);
    uint8_t *work = malloc(n);
    assert_non_null(work);
    uint64_t s = seed;
    /* small inputs: every bit; large ones: 3000 positions */
    size_t flips = n * 8 <= 12000 ? n * 8 : 3000;
    for (size_t i = 0; i < flips; i++) {
        size_t bit = n * 8 <= 12000 ? i : (size_t)(rng_next(&s) % (n * 8));
        memcpy(work, in->data, n);
        work[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        outcome o;
        g_max_alloc = 0;
        read_everything(guarded_place(&g, work, n), n, &o, 1);
        if (g_max_alloc > BIG_ALLOC)
            fail_msg("%s bit %zu: an allocation of %zu bytes", in->name, bit, g_max_alloc);
    }
    for (int i = 0; i < 1000; i++) {
        memcpy(work, in->data, n);
        size_t at = (size_t)(rng_next(&s) % n);
        size_t len = 1 + (size_t)(rng_next(&s) % 64);
        if (len > n - at)
            len = n - at;
        int kind = (int)(rng_next(&s) % 4);
        for (size_t k = 0; k < len; k++) {
            uint64_t r = rng_next(&s);
            /* random bytes, or bytes that make sizes and counts extreme */
            work[at + k] = kind == 0 ? (uint8_t)r : kind == 1 ? 0xff : kind == 2 ? 0x00 : (uint8_t)(0x80 | r);
        }
        outcome o;
        g_max_alloc = 0;
        read_everything(guarded_place(&g, work, n), n, &o, 1);
        if (g_max_alloc > BIG_ALLOC)
            fail_msg("%s garbage at %zu+%zu: an allocation of %zu bytes", in->name, at, len, g_max_alloc);
    }
    free(work);
    guarded_free(&g);
}

static void test_bit_flips_and_garbage(void **state)
{
    (void)state;
    for (int i = 0; i < g_ninputs; i++) {
        fprintf(stderr, "mutating %s\n", g_inputs[i].name);
        clock_t c0 = clock();
        mutate_sweep(&g_inputs[i], 0x5eed0000u + (uint64_t)i);
        if (getenv("NTIDX_HOSTILE_VERBOSE"))
            fprintf(stderr, "  %.1f s\n", (double)(clock() - c0) / CLOCKS_PER_SEC);
    }
}

/* ------------------------------------------------------------------ */
/* Huge declared counts and deep nesting                               */
/* ------------------------------------------------------------------ */

/* Open and read; the failure must be `want` (at open when at_open), with a small peak allocation. */
static void expect_clean_failure(const tb *f, int want, int at_open, const char *what)
{
    guarded g;
    guarded_init(&g, f->len);
    const uint8_t *d = guarded_place(&g, f->d, f->len);
    g_max_alloc = 0;
    outcome o;
    read_everything(d, f->len, &o, 1);
    if (at_open) {
        if (o.open_rc != want)
            fail_msg("%s: open rc %d (%s), want %d", what, o.open_rc, ntidx_last_error(), want);
    } else {
        if (o.open_rc != NTIDX_OK)
            fail_msg("%s: open failed: %s", what, ntidx_last_error());
        if (o.rc[0] != want || o.rc[1] != want)
            fail_msg("%s: reader rc %d/%d, want %d", what, o.rc[0], o.rc[1], want);
    }
    if (g_max_alloc > (1u << 20))
        fail_msg("%s: an allocation of %zu bytes", what, g_max_alloc);
    guarded_free(&g);
}

static void v6_prelude(tb *f)
{
    v6_begin(f);
    tb p;
    tb_init(&p);
    v6_thread_row(&p, 1, "t", 1, 1);
    v6_block(f, 6, p.d, p.len);
    tb_free(&p);
}

static void test_huge_declared_counts(void **state)
{
    (void)state;
    static const uint32_t counts[] = {0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu};
    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
        uint32_t n = counts[ci];
        tb f, p;
        tb_init(&f);
        tb_init(&p);

        /* V6 trace block declaring n key/value pairs */
        v6_stream_header(&f, 6, 0);
        for (int i = 0; i < 8; i++)
            tb_u16(&p, 1);
        tb_u64(&p, 0);
        tb_u64(&p, 1000);
        tb_u32(&p, 8);
        tb_u32(&p, n);
        tb_str8(&p, "k");
        tb_str8(&p, "v");
        v6_block(&f, 1, p.d, p.len);
        v6_end(&f);
        expect_clean_failure(&f, NTIDX_E_CORRUPT, 1, "trace block key/value count");

        /* stack block with n stacks */
        tb_reset(&f);
        tb_reset(&p);
        v6_prelude(&f);
        tb_u32(&p, 1);
        tb_u32(&p, n);
        tb_u32(&p, 8);
        tb_u64(&p, 0x1234);
        v6_block(&f, 5, p.d, p.len);
        v6_end(&f);
        expect_clean_failure(&f, NTIDX_E_CORRUPT, 0, "stack count");

        /* V5 stack block too */
        tb_reset(&f);
        v5_begin(&f);
        size_t at = fs_begin_block(&f, 5, "StackBlock", 2);
        tb_u32(&f, 1);
        tb_u32(&f, n);
        tb_u32(&f, 0);
        fs_end_block(&f, at);
        fs_end(&f);
        expect_clean_failure(&f, NTIDX_E_CORRUPT, 0, "V5 stack count");

        /* label list block with n lists */
        tb_reset(&f);
        tb_reset(&p);
        v6_prelude(&f);
        tb_u32(&p, 1);
        tb_u32(&p, n);
        tb_u8(&p, 0x87);
        tb_u8(&p, 1);
        v6_block(&f, 8, p.d, p.len);
        v6_end(&f);
        expect_clean_failure(&f, NTIDX_E_CORRUPT, 0, "label list count");

        /* V5 metadata with n V1 fields */
        tb blob;
        tb_init(&blob);
        tb_reset(&f);
        v5_begin(&f);
        v5_metadata_header(&blob, 1, "P", 1, "E", 0, 0, 4);
        tb_u32(&blob, n);
        tb_u32(&blob, 9);
        tb_utf16z(&blob, "x");
        v5_metadata_block(&f, &blob);
        fs_end(&f);
        expect_clean_failure(&f, NTIDX_E_CORRUPT, 0, "V1 field count");

        /* V5 metadata with n V2Params fields */
        tb_reset(&f);
        tb_reset(&blob);
        v5_begin(&f);
        v5_metadata_header(&blob, 1, "P", 1, "E", 0, 0, 4);
        tb_u32(&blob, 0);
        tb_u32(&blob, 8);
        tb_u8(&blob, 2);
        tb_u32(&blob, n);
        tb_u32(&blob, 0);
        v5_metadata_block(&f, &blob);
        fs_end(&f);
        expect_clean_failure(&f, NTIDX_E_CORRUPT, 0, "V2Params field count");
        tb_free(&blob);

        /* sequence points with n threads (V6 and V5) */
        tb_reset(&f);
        tb_reset(&p);
        v6_prelude(&f);
        tb_u64(&p, 1);
        tb_u32(&p, 0);
        tb_u32(&p, n);
        tb_u8(&p, 1);
        tb_u8(&p, 1);
        v6_block(&f, 4, p.d, p.len);
        v6_end(&f);
        expect_clean_failure(&f, NTIDX_E_CORRUPT, 0, "V6 sequence point thread count");
        tb_reset(&f);
        v5_begin(&f);
        at = fs_begin_block(&f, 5, "SPBlock", 2);
        tb_u64(&f, 1);
        tb_u32(&f, n);
        tb_u64(&f, 1);
        tb_u32(&f, 1);
        fs_end_block(&f, at);
        fs_end(&f);
        expect_clean_failure(&f, NTIDX_E_CORRUPT, 0, "V5 sequence point thread count");

        tb_free(&f);
        tb_free(&p);
    }

    /* V6 metadata with the largest field count a row can declare */
    tb f, rows, fields;
    tb_init(&f);
    tb_init(&rows);
    tb_init(&fields);
    v6_prelude(&f);
    tb_u16(&fields, 0xffff);
    v6_field(&fields, "x", "\x09", 1, 0);
    v6_metadata_row(&rows, 1, "P", 1, "E", &fields, NULL, 0);
    v6_metadata_block(&f, &rows);
    v6_end(&f);
    expect_clean_failure(&f, NTIDX_E_CORRUPT, 0, "V6 field count");

    /* a V3 event whose PayloadSize is huge */
    tb_reset(&f);
    fs_netperf_header(&f);
    fs_trace_object(&f, 4, 3, 8, 1000);
    size_t at = fs_begin_block(&f, 4, "EventBlock", 1);
    ev3 e = {.metadata_id = 1, .thread = 1, .ts = 1};
    size_t row = f.len;
    v3_event(&f, &e);
    tb_put32(&f, row + 52, 0xfffffff0u);
    fs_end_block(&f, at);
    fs_end(&f);
    expect_clean_failure(&f, NTIDX_E_CORRUPT, 0, "V3 payload size");

    /* blocks declaring sizes far past the file: a truncation, not an allocation */
    tb_reset(&f);
    v6_prelude(&f);
    tb_u32(&f, 0xffffff | (2u << 24));
    tb_zeros(&f, 100);
    {
        guarded g;
        guarded_init(&g, f.len);
        g_max_alloc = 0;
        outcome o;
        read_everything(guarded_place(&g, f.d, f.len), f.len, &o, 1);
        assert_int_equal(o.open_rc, NTIDX_OK);
        assert_int_equal(o.rc[0], 0);
        assert_int_equal(o.complete[0], 0);
        assert_true(g_max_alloc < (1u << 20));
        guarded_free(&g);
    }
    tb_reset(&f);
    v5_begin(&f);
    size_t sat = fs_begin_block(&f, 5, "EventBlock", 2);
    tb_put32(&f, sat, 0x7ffffff0u);
    tb_zeros(&f, 64);
    {
        guarded g;
        guarded_init(&g, f.len);
        g_max_alloc = 0;
        outcome o;
        read_everything(guarded_place(&g, f.d, f.len), f.len, &o, 1);
        assert_int_equal(o.open_rc, NTIDX_OK);
        assert_int_equal(o.complete[0], 0);
        assert_true(g_max_alloc < (1u << 20));
        guarded_free(&g);
    }

    /* a payload array declaring 65535 objects in 4 bytes */
    tb_reset(&f);
    tb_reset(&rows);
    tb_reset(&fields);
    v6_prelude(&f);
    tb_u16(&fields, 1);
    v6_field(&fields, "a", "\x13\x01\x00\x00", 4, 0); /* array of empty objects */
    v6_metadata_row(&rows, 1, "P", 1, "E", &fields, NULL, 0);
    v6_metadata_block(&f, &rows);
    {
        tb p;
        tb_init(&p);
        eb_header(&p, 20, 0, 0, 0);
        ev6 ev = {.metadata_id = 1, .seq = 1, .thread = 1, .capture = 1, .ts = 1, .payload = "\xff\xff\x00\x00",
                  .payload_size = 4};
        v6_event_row(&p, &ev);
        v6_block(&f, 2, p.d, p.len);
        tb_free(&p);
    }
    v6_end(&f);
    {
        ntidx_trace *t;
        assert_int_equal(ntidx_trace_open_memory(f.d, f.len, "arr", &t), NTIDX_OK);
        ntidx_reader *r;
        assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
        const ntidx_event *ev;
        assert_int_equal(ntidx_reader_next(r, &ev), 1);
        ntidx_buf out = {0};
        g_max_alloc = 0;
        /* empty objects take no bytes: 65535 of them are "{}" each, bounded output */
        int rc = ntidx_event_fields_json(t, ev, &out);
        assert_true(rc == NTIDX_OK || rc == NTIDX_E_PAYLOAD);
        assert_true(g_max_alloc < (1u << 20));
        ntidx_buf_free(&out);
        ntidx_reader_close(&r);
        ntidx_trace_close(&t);
    }
    /* fixed arrays of fixed arrays of empty elements: 65535^2 values from a zero-byte payload */
    tb_reset(&f);
    tb_reset(&rows);
    tb_reset(&fields);
    v6_prelude(&f);
    tb_u16(&fields, 1);
    v6_field(&fields, "a", "\x16\x16\x00\xff\xff\xff\xff", 7, 0);
    v6_metadata_row(&rows, 1, "P", 1, "E", &fields, NULL, 0);
    v6_metadata_block(&f, &rows);
    {
        tb p;
        tb_init(&p);
        eb_header(&p, 20, 0, 0, 0);
        ev6 ev = {.metadata_id = 1, .seq = 1, .thread = 1, .capture = 1, .ts = 1};
        v6_event_row(&p, &ev);
        v6_block(&f, 2, p.d, p.len);
        tb_free(&p);
    }
    v6_end(&f);
    {
        ntidx_trace *t;
        assert_int_equal(ntidx_trace_open_memory(f.d, f.len, "empties", &t), NTIDX_OK);
        ntidx_reader *r;
        assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
        const ntidx_event *ev;
        assert_int_equal(ntidx_reader_next(r, &ev), 1);
        ntidx_buf out = {0};
        g_max_alloc = 0;
        assert_int_equal(ntidx_event_fields_json(t, ev, &out), NTIDX_E_PAYLOAD);
        assert_int_equal(ntidx_event_fields_text(t, ev, &out), NTIDX_E_PAYLOAD);
        assert_true(g_max_alloc < (1u << 20));
        ntidx_buf_free(&out);
        ntidx_reader_close(&r);
        ntidx_trace_close(&t);
    }
    tb_free(&f);
    tb_free(&rows);
    tb_free(&fields);
}

/*
 * Locations referencing the same bytes over and over: an Array of 20000
 * DataLoc fields each pointing at the same 60000-byte region would render
 * 1.2 billion numbers from a 140 KB payload. The formatter must refuse
 * before the output outgrows the input by orders of magnitude.
 */
static void test_location_amplification(void **state)
{
    (void)state;
    for (int rel = 0; rel < 2; rel++) {
        enum { N = 20000, S = 60000 };
        tb f, rows, fields, pl, p;
        tb_init(&f);
        tb_init(&rows);
        tb_init(&fields);
        tb_init(&pl);
        tb_init(&p);
        v6_prelude(&f);
        tb_u16(&fields, 1);
        v6_field(&fields, "a", rel ? "\x13\x18\x06" : "\x13\x19\x06", 3, 0); /* Array of RelLoc/DataLoc of Byte */
        v6_metadata_row(&rows, 1, "P", 1, "E", &fields, NULL, 0);
        v6_metadata_block(&f, &rows);
        /* every location: position 0, size S (DataLoc: the payload's first S bytes; RelLoc: the S bytes
           after the field, which the trailing S bytes keep inside the payload) */
        tb_u16(&pl, N);
        for (uint32_t i = 0; i < N; i++)
            tb_u32(&pl, (uint32_t)S << 16);
        for (int i = 0; i < S; i++)
            tb_u8(&pl, (uint8_t)i);
        eb_header(&p, 20, 0, 0, 0);
        ev6 e = {.metadata_id = 1, .seq = 1, .thread = 1, .capture = 1, .ts = 1, .payload = pl.d,
                 .payload_size = (uint32_t)pl.len};
        v6_event_row(&p, &e);
        v6_block(&f, 2, p.d, p.len);
        v6_end(&f);
        ntidx_trace *t;
        assert_int_equal(ntidx_trace_open_memory(f.d, f.len, "loc", &t), NTIDX_OK);
        ntidx_reader *r;
        assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
        const ntidx_event *ev;
        assert_int_equal(ntidx_reader_next(r, &ev), 1);
        ntidx_buf out = {0};
        g_max_alloc = 0;
        int rc = ntidx_event_fields_json(t, ev, &out);
        if (rc == NTIDX_OK && out.len > 64 * pl.len)
            fail_msg("%s: %zu bytes of JSON from a %zu-byte payload", rel ? "RelLoc" : "DataLoc", out.len, pl.len);
        assert_true(rc == NTIDX_OK || rc == NTIDX_E_PAYLOAD);
        if (g_max_alloc > 64 * pl.len)
            fail_msg("%s: an allocation of %zu bytes for a %zu-byte payload", rel ? "RelLoc" : "DataLoc", g_max_alloc,
                     pl.len);
        ntidx_buf_free(&out);
        ntidx_reader_close(&r);
        ntidx_trace_close(&t);
        tb_free(&f);
        tb_free(&rows);
        tb_free(&fields);
        tb_free(&pl);
        tb_free(&p);
    }
}

/*
 * A trace defining 200000 event types, each used once, plus a second
 * definition of one of them under another id: statistics must group by type
 * in (near) linear time, not compare every new type with every known one.
 */
static void test_many_event_types(void **state)
{
    (void)state;
    enum { TYPES = 200000 };
    tb f, rows, p;
    tb_init(&f);
    tb_init(&rows);
    tb_init(&p);
    v6_prelude(&f);
    char name[32];
    for (uint32_t i = 1; i <= TYPES + 1; i++) {
        /* id TYPES+1 repeats the identity of id 7 */
        uint32_t ident = i == TYPES + 1 ? 7 : i;
        snprintf(name, sizeof name, "E%u", ident);
        v6_metadata_row(&rows, i, "Prov", ident, name, NULL, NULL, 0);
        if (rows.len > 60000 || i == TYPES + 1) {
            v6_metadata_block(&f, &rows);
            tb_reset(&rows);
        }
    }
    eb_header(&p, 20, 1, 0, 0);
    for (uint32_t i = 1; i <= TYPES + 1; i++) {
        tb_u8(&p, 0x07); /* metadata, capture group, thread */
        tb_varu(&p, i);
        tb_varu(&p, 0);
        tb_varu(&p, 1);
        tb_varu(&p, 0);
        tb_varu(&p, 1);
        tb_varu(&p, 1);
        if (p.len > 60000 || i == TYPES + 1) {
            v6_block(&f, 2, p.d, p.len);
            tb_reset(&p);
            eb_header(&p, 20, 1, 0, 0);
        }
    }
    v6_end(&f);
    ntidx_trace *t;
    assert_int_equal(ntidx_trace_open_memory(f.d, f.len, "types", &t), NTIDX_OK);
    ntidx_stats *st = NULL;
    clock_t c0 = clock();
    assert_int_equal(ntidx_stats_compute(t, &st), NTIDX_OK);
    double secs = (double)(clock() - c0) / CLOCKS_PER_SEC;
    if (secs > 30)
        fail_msg("statistics over %d types took %.1f s", TYPES, secs);
    assert_int_equal(st->events, TYPES + 1);
    assert_int_equal(st->type_count, TYPES);
    int found = 0;
    for (size_t i = 0; i < st->type_count; i++) {
        if (st->types[i].event_id == 7) {
            assert_string_equal(st->types[i].event_name, "E7");
            assert_int_equal(st->types[i].count, 2);
            found = 1;
        } else {
            assert_int_equal(st->types[i].count, 1);
        }
    }
    assert_true(found);
    ntidx_stats_free(&st);
    ntidx_trace_close(&t);
    tb_free(&f);
    tb_free(&rows);
    tb_free(&p);
}

/* Nesting that would recurse once per level: refused at a fixed depth, whatever the size. */
static void test_deep_nesting(void **state)
{
    (void)state;
    enum { LEVELS = 2000000 };
    /* V5 V2Params: Array of Array of ... (4 bytes per level) */
    tb f, blob, v2;
    tb_init(&f);
    tb_init(&blob);
    tb_init(&v2);
    v5_metadata_header(&blob, 1, "P", 1, "E", 0, 0, 4);
    tb_u32(&blob, 0);
    tb_u32(&v2, 1);
    size_t at = v2.len;
    tb_u32(&v2, 0);
    tb_utf16z(&v2, "d");
    tb_u32(&v2, 19);
    for (int i = 0; i < LEVELS; i++)
        tb_u32(&v2, 19);
    tb_u32(&v2, 9);
    tb_put32(&v2, at, (uint32_t)(v2.len - at));
    tb_u32(&blob, (uint32_t)v2.len);
    tb_u8(&blob, 2);
    tb_tb(&blob, &v2);
    v5_begin(&f);
    v5_metadata_block(&f, &blob);
    fs_end(&f);
    expect_clean_failure(&f, NTIDX_E_CORRUPT, 0, "deep V2Params arrays");

    /* V5 V1: Object { Object { ... } } (8 bytes per level) */
    tb_reset(&f);
    tb_reset(&blob);
    v5_metadata_header(&blob, 1, "P", 1, "E", 0, 0, 4);
    tb_u32(&blob, 1);
    for (int i = 0; i < LEVELS; i++) {
        tb_u32(&blob, 1);
        tb_u32(&blob, 1);
    }
    tb_u32(&blob, 9);
    v5_begin(&f);
    v5_metadata_block(&f, &blob);
    fs_end(&f);
    expect_clean_failure(&f, NTIDX_E_CORRUPT, 0, "deep V1 objects");

    /* V6: arrays nested as deep as a 64 KiB row allows */
    tb_reset(&f);
    tb rows, fields;
    tb_init(&rows);
    tb_init(&fields);
    v6_prelude(&f);
    uint8_t *types = malloc(60000);
    assert_non_null(types);
    memset(types, 19, 60000);
    types[59999] = 9;
    tb_u16(&fields, 1);
    v6_field(&fields, "d", types, 60000, 0);
    free(types);
    v6_metadata_row(&rows, 1, "P", 1, "E", &fields, NULL, 0);
    v6_metadata_block(&f, &rows);
    v6_end(&f);
    expect_clean_failure(&f, NTIDX_E_CORRUPT, 0, "deep V6 arrays");
    tb_free(&f);
    tb_free(&blob);
    tb_free(&v2);
    tb_free(&rows);
    tb_free(&fields);
}

/* Sparse and extreme ids: the caches are maps, not arrays indexed by id. */
static void test_extreme_ids(void **state)
{
    (void)state;
    tb f, p, rows;
    tb_init(&f);
    tb_init(&p);
    tb_init(&rows);
    v6_begin(&f);
    v6_thread_row(&p, UINT64_MAX, "max", 1, 1);
    v6_thread_row(&p, 1ULL << 63, NULL, 1, 2);
    v6_block(&f, 6, p.d, p.len);
    v6_metadata_row(&rows, 0x7fffffff, "P", 1, "Max", NULL, NULL, 0);
    v6_metadata_row(&rows, 0xffffffffu, "P", 2, "AllBits", NULL, NULL, 0);
    v6_metadata_block(&f, &rows);
    tb_reset(&p);
    stack_block_payload(&p, 0xfffffffeu, 1, (const uint32_t[]){8});
    v6_block(&f, 5, p.d, p.len);
    tb_reset(&p);
    tb_u32(&p, 0xffffffffu);
    tb_u32(&p, 1);
    tb_u8(&p, 0x89);
    tb_u8(&p, 1);
    v6_block(&f, 8, p.d, p.len);
    tb_reset(&p);
    eb_header(&p, 20, 0, 0, 0);
    ev6 e = {.metadata_id = 0x7fffffff, .seq = 1, .thread = UINT64_MAX, .capture = 1ULL << 63, .ts = 1,
             .stack_id = 0xfffffffeu, .label_id = 0xffffffffu};
    v6_event_row(&p, &e);
    v6_block(&f, 2, p.d, p.len);
    v6_end(&f);
    g_max_alloc = 0;
    ntidx_trace *t;
    assert_int_equal(ntidx_trace_open_memory(f.d, f.len, "ids", &t), NTIDX_OK);
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    const ntidx_event *ev;
    assert_int_equal(ntidx_reader_next(r, &ev), 1);
    assert_int_equal(ev->metadata_id, 0x7fffffff);
    assert_string_equal(ev->metadata->event_name, "Max");
    assert_string_equal(ev->thread->name, "max");
    assert_int_equal(ev->capture_thread_id, 2);
    assert_int_equal(ev->stack_size, 8);
    assert_int_equal(ev->label_list_size, 2);
    assert_int_equal(ntidx_reader_next(r, &ev), 0);
    assert_true(g_max_alloc < (1u << 20));
    ntidx_reader_close(&r);
    ntidx_trace_close(&t);
    tb_free(&f);
    tb_free(&p);
    tb_free(&rows);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s TRACES_DIR\n", argv[0]);
        return 2;
    }
    g_traces_dir = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_huge_declared_counts),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_extreme_ids),
        cmocka_unit_test(test_location_amplification),
        cmocka_unit_test(test_many_event_types),
        cmocka_unit_test(test_truncation_every_offset),
        cmocka_unit_test(test_bit_flips_and_garbage),
    };
    return cmocka_run_group_tests_name("reader-hostile", tests, load_inputs, free_inputs);
}
