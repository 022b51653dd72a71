/*
 * fuzz_index_load: bytes as a side index of a small fixed generated trace.
 *
 * Input: one mode byte, then the index file.
 *   mode bit 0: repair the checksums first (every section's xxh3 named by the
 *               directory, the header's, the footer), so that mutations reach
 *               the directory, structure and identity checks behind them;
 *   mode bit 1: the trace is the V5 one (else the V6 one);
 *   mode bit 2: forward compatibility: the index is also rewritten as a later
 *               minor version may write it, every section's entries made
 *               longer (1 to 64 zero bytes, from the mode byte's high bits),
 *               directory and checksums fixed up. Readers must step by the
 *               recorded entry size and ignore the bytes they do not know
 *               (docs/index-format.md), so when the index loads, the longer
 *               one must load too, in the same state, and answer every query
 *               and seek event for event as it does, extended or not.
 * The fixed traces are ntidx_generate_memory() with the options below; the
 * seed corpus (make_corpus.py) builds its indexes from the same traces
 * written by `ntidx gen` with the same options.
 *
 * ntidx_index_load_memory() must refuse the bytes with a message or accept
 * them; an accepted index (CURRENT, or GROWN: then extended) must answer
 * queries, seeks and window statistics (decoded, and from a --full index's
 * region statistics) without a crash or a read outside the trace. The
 * answers of an index forged with repaired checksums are not compared with
 * anything: an index that validates is trusted.
 *
 * Every input is also loaded from a file with NTIDX_VERIFY_ON_USE (block and
 * filter entries checked region by region when first needed, what large
 * indexes get): it must refuse with a message or load, and its queries,
 * seeks and statistics must then work or fail with a message, whatever the
 * unchecked regions hold. When both loads accept the bytes and its
 * REGION_SUMS are right (repair mode recomputes them), the lazily checked
 * index must pass ntidx_index_verify_all() and answer every query and seek
 * as the eager one does; when the lazily checked index passes
 * ntidx_index_verify_all(), the eager load must accept it too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include <ntidx/index.h>
#include <ntidx/writer.h>

#include "fuzz_util.h"

/* A seek: the first event at or after ts, a query with the seek option (recovery off: errors are the point). */
static int seek_at(ntidx_trace *t, const ntidx_index *x, uint64_t ts, ntidx_query **h, const ntidx_event **e)
{
    ntidx_query_options o;
    ntidx_query_options_seek(&o, ts);
    o.recover = 0;
    int rc = ntidx_query_open(t, x, &o, h);
    return rc < 0 ? rc : ntidx_query_next(*h, e);
}


/* Keep in step with make_corpus.py (FIXED_TRACES). */
static void fixed_options(int v5, ntidx_gen_options *g)
{
    ntidx_gen_options_defaults(g);
    g->format_version = v5 ? 5 : 6;
    g->events = 3000;
    g->seed = v5 ? 2 : 1;
    g->threads = v5 ? 3 : 4;
    g->drop_rate = 0.05;
    if (!v5) {
        g->metadata_flush_every = 2;
        g->thread_flush_every = 3;
        g->remove_threads = 1;
    }
}

static uint8_t *g_trace_bytes[2];
static size_t g_trace_size[2];
static ntidx_trace *g_trace[2];
static unsigned long g_loaded, g_runs;

static ntidx_trace *fixed_trace(int v5)
{
    if (!g_trace[v5]) {
        ntidx_gen_options g;
        fixed_options(v5, &g);
        FUZZ_CHECK(ntidx_generate_memory(&g, &g_trace_bytes[v5], &g_trace_size[v5]) == NTIDX_OK, "generate");
        FUZZ_CHECK(ntidx_trace_open_memory(g_trace_bytes[v5], g_trace_size[v5], v5 ? "fixed-v5" : "fixed-v6", &g_trace[v5]) == NTIDX_OK,
                   "open the fixed trace");
    }
    return g_trace[v5];
}

static uint32_t ld32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t ld64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static void st64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* A section's entries when the directory entry at d describes bytes inside the file, else NULL. */
static uint8_t *section_at(uint8_t *m, size_t len, const uint8_t *d, uint32_t *entry, uint64_t *count)
{
    *entry = ld32(d + 4);
    uint64_t off = ld64(d + 8);
    *count = ld64(d + 16);
    if (!*entry || off > len - 8 || *count > (len - 8 - off) / *entry)
        return NULL;
    return m + off;
}

/* The directory entry of section `id` (the first one), or NULL. */
static uint8_t *find_section(uint8_t *m, uint32_t hsize, uint32_t id)
{
    uint32_t nsec = ld32(m + 20);
    for (uint32_t i = 0; i < nsec && i < 12; i++) {
        uint8_t *d = m + 128 + 32 * (size_t)i;
        if (d + 32 > m + hsize - 8)
            break;
        if (ld32(d) == id)
            return d;
    }
    return NULL;
}

/*
 * REGION_SUMS (id 7) as the writer computes them from REGIONS (3), BLOCKS (1) and FILTERS (5).
 * With `fix`, write them; else say whether they are all right (1) or not (0). Sums of regions
 * whose block range lies outside the tables are left as they are (and are not right).
 */
static int region_sums(uint8_t *m, size_t len, uint32_t hsize, int fix)
{
    uint8_t *ds = find_section(m, hsize, 7), *dr = find_section(m, hsize, 3), *db = find_section(m, hsize, 1),
            *df = find_section(m, hsize, 5);
    if (!ds || !dr || !db)
        return 0;
    uint32_t se, re, be, fe = 0;
    uint64_t sc, rc, bc, fc = 0;
    uint8_t *sums = section_at(m, len, ds, &se, &sc), *regions = section_at(m, len, dr, &re, &rc),
            *blocks = section_at(m, len, db, &be, &bc), *filters = df ? section_at(m, len, df, &fe, &fc) : NULL;
    if (!sums || !regions || !blocks || se < 16 || re < 8 || (df && !filters) || sc != rc)
        return 0;
    int ok = 1;
    for (uint64_t r = 0; r < rc; r++) {
        uint64_t f = ld32(regions + r * re), e = ld32(regions + r * re + 4);
        if (f > e || e > bc || (filters && e > fc)) {
            ok = 0;
            continue;
        }
        uint64_t bs = XXH3_64bits(blocks + f * be, (size_t)((e - f) * be));
        uint64_t fs = filters ? XXH3_64bits(filters + f * fe, (size_t)((e - f) * fe)) : 0;
        if (fix) {
            st64(sums + r * se, bs);
            st64(sums + r * se + 8, fs);
        } else if (ld64(sums + r * se) != bs || (filters && ld64(sums + r * se + 8) != fs)) {
            ok = 0;
        }
    }
    return ok;
}

/* 1 when the index has REGION_SUMS and they are right for its regions, blocks and filters. */
static int region_sums_right(uint8_t *m, size_t len)
{
    if (len < 520)
        return 0;
    uint32_t hsize = ld32(m + 12);
    if (hsize < 512 || hsize % 8 || hsize > len - 8)
        return 0;
    return region_sums(m, len, hsize, 0);
}

/* Make the checksums and the footer right for whatever the bytes say (docs/index-format.md). */
static void repair(uint8_t *m, size_t len)
{
    if (len < 520)
        return;
    memcpy(m + len - 8, "NTIDXEND", 8);
    uint32_t hsize = ld32(m + 12);
    if (hsize < 512 || hsize % 8 || hsize > len - 8)
        return;
    (void)region_sums(m, len, hsize, 1); /* before the directory's checksum of their section */
    uint32_t nsec = ld32(m + 20);
    for (uint32_t i = 0; i < nsec && i < 12; i++) {
        uint8_t *d = m + 128 + 32 * (size_t)i;
        if (d + 32 > m + hsize - 8)
            break;
        uint32_t entry = ld32(d + 4);
        uint64_t off = ld64(d + 8), count = ld64(d + 16);
        if (!entry || off > len - 8 || count > (len - 8 - off) / entry)
            continue;
        st64(d + 24, XXH3_64bits(m + off, (size_t)(count * entry)));
    }
    st64(m + hsize - 8, XXH3_64bits(m, hsize - 8));
}

/* Every section's entries `extra` bytes longer; NULL when the directory does not describe the file. */
static uint8_t *widen(const uint8_t *m, size_t len, uint32_t extra, size_t *out_len)
{
    if (len < 520)
        return NULL;
    uint32_t hsize = ld32(m + 12), nsec = ld32(m + 20);
    if (hsize < 512 || hsize % 8 || hsize > len - 8 || nsec > (hsize - 8 - 128) / 32)
        return NULL;
    uint64_t total = hsize;
    for (uint32_t i = 0; i < nsec; i++) {
        const uint8_t *d = m + 128 + 32 * (size_t)i;
        uint32_t entry = ld32(d + 4);
        uint64_t off = ld64(d + 8), count = ld64(d + 16);
        if (!entry || off < hsize || off > len - 8 || count > (len - 8 - off) / entry || count > (1u << 20))
            return NULL;
        total += (count * (entry + extra) + 7) & ~(uint64_t)7;
    }
    total += 8;
    uint8_t *w = calloc(1, (size_t)total);
    FUZZ_CHECK(w != NULL, "calloc");
    memcpy(w, m, hsize);
    uint64_t pos = hsize;
    for (uint32_t i = 0; i < nsec; i++) {
        uint8_t *d = w + 128 + 32 * (size_t)i;
        uint32_t entry = ld32(d + 4), wide = entry + extra;
        uint64_t off = ld64(d + 8), count = ld64(d + 16);
        for (uint64_t k = 0; k < count; k++)
            memcpy(w + pos + k * wide, m + off + k * entry, entry);
        memcpy(d + 4, &wide, 4);
        st64(d + 8, pos);
        st64(d + 24, XXH3_64bits(w + pos, (size_t)(count * wide)));
        pos += (count * wide + 7) & ~(uint64_t)7;
    }
    memcpy(w + pos, "NTIDXEND", 8);
    st64(w + hsize - 8, XXH3_64bits(w, hsize - 8));
    *out_len = (size_t)total;
    return w;
}

/* The same queries and seeks through two indexes give the same events. */
static void same_answers(ntidx_trace *t, const ntidx_index *a, const ntidx_index *b, fuzz_src *src)
{
    const ntidx_index_info *ia = ntidx_index_get_info(a), *ib = ntidx_index_get_info(b);
    FUZZ_CHECK(ia->blocks == ib->blocks && ia->regions == ib->regions && ia->sequence_points == ib->sequence_points &&
                   ia->definitions == ib->definitions && ia->first_ts == ib->first_ts && ia->last_ts == ib->last_ts &&
                   ia->events == ib->events && ia->indexed_end == ib->indexed_end && ia->complete == ib->complete &&
                   ia->full == ib->full,
               "a longer-entry index describes the trace differently: blocks %llu/%llu regions %llu/%llu end %llu/%llu",
               (unsigned long long)ia->blocks, (unsigned long long)ib->blocks, (unsigned long long)ia->regions,
               (unsigned long long)ib->regions, (unsigned long long)ia->indexed_end,
               (unsigned long long)ib->indexed_end);
    uint64_t lo = ia->first_ts, hi = ia->last_ts;
    if (lo > hi) {
        lo = 0;
        hi = 1;
    }
    for (int k = 0; k < 4; k++) {
        ntidx_query_options o;
        ntidx_query_options_defaults(&o);
        o.recover = 0; /* a corrupt index must be said, not rebuilt, here */
        if (k) {
            uint64_t span = hi - lo + 1, x = lo + fuzz_bytes_le(src, 4) % span, y = lo + fuzz_bytes_le(src, 4) % span;
            o.t0 = x < y ? x : y;
            o.t1 = (x < y ? y : x) + 1;
        }
        o.order = (k & 1) ? NTIDX_ORDER_TIME : NTIDX_ORDER_FILE;
        ntidx_query *qa = NULL, *qb = NULL;
        int ra = ntidx_query_open(t, a, &o, &qa), rb = ntidx_query_open(t, b, &o, &qb);
        FUZZ_CHECK(ra == rb, "query_open %d vs %d", ra, rb);
        if (ra == 0) {
            const ntidx_event *ea, *eb;
            uint64_t n = 0;
            for (;;) {
                ra = ntidx_query_next(qa, &ea);
                rb = ntidx_query_next(qb, &eb);
                FUZZ_CHECK(ra == rb, "window [%llu,%llu) order %d, event %llu: %d vs %d (longer entries)",
                           (unsigned long long)o.t0, (unsigned long long)o.t1, o.order, (unsigned long long)n, ra,
                           rb);
                if (ra != 1)
                    break;
                FUZZ_CHECK(ea->offset == eb->offset && ea->timestamp == eb->timestamp,
                           "window [%llu,%llu) order %d, event %llu: offset %llu vs %llu (longer entries)",
                           (unsigned long long)o.t0, (unsigned long long)o.t1, o.order, (unsigned long long)n,
                           (unsigned long long)ea->offset, (unsigned long long)eb->offset);
                n++;
            }
        }
        ntidx_query_close(&qa);
        ntidx_query_close(&qb);
    }
    uint64_t at = lo + fuzz_bytes_le(src, 4) % (hi - lo + 1);
    ntidx_query *ha = NULL, *hb = NULL;
    const ntidx_event *ea = NULL, *eb = NULL;
    int ra = seek_at(t, a, at, &ha, &ea), rb = seek_at(t, b, at, &hb, &eb);
    FUZZ_CHECK(ra == rb && (ra != 1 || ea->offset == eb->offset), "seek %llu differs (longer entries)",
               (unsigned long long)at);
    ntidx_query_close(&ha);
    ntidx_query_close(&hb);
}

/* Mode bit 2: the index with longer entries must behave exactly as the index does. */
static void forward_compatible(ntidx_trace *t, const uint8_t *m, size_t n, uint32_t extra, const ntidx_index *x,
                               ntidx_index_state st, fuzz_src *src)
{
    size_t wn;
    uint8_t *w = widen(m, n, extra, &wn);
    if (!w)
        return;
    ntidx_index *y = NULL;
    ntidx_index_state wst = (ntidx_index_state)-1;
    int rc = ntidx_index_load_memory(t, w, wn, "fuzz-wide.ntidx", NTIDX_VERIFY_AUTO, &y, &wst);
    FUZZ_CHECK(rc == NTIDX_OK && wst == st, "an index that loads does not load with %u more bytes per entry: %d %s",
               extra, rc, ntidx_last_error());
    same_answers(t, x, y, src);
    if (st == NTIDX_INDEX_GROWN) {
        ntidx_index *xe = NULL, *ye = NULL;
        int ra = ntidx_index_extend(t, x, NULL, &xe), rb = ntidx_index_extend(t, y, NULL, &ye);
        FUZZ_CHECK(ra == rb, "extend %d vs %d (longer entries)", ra, rb);
        if (ra == NTIDX_OK)
            same_answers(t, xe, ye, src);
        ntidx_index_close(&xe);
        ntidx_index_close(&ye);
    }
    ntidx_index_close(&y);
    free(w);
}

static void count_query(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *o)
{
    ntidx_query *q = NULL;
    if (ntidx_query_open(t, x, o, &q) < 0) {
        ntidx_query_close(&q);
        return;
    }
    uint64_t size;
    (void)ntidx_trace_data(t, &size);
    const ntidx_event *e;
    int rc;
    uint64_t k = 0;
    while ((rc = ntidx_query_next(q, &e)) == 1) {
        FUZZ_CHECK(++k <= size, "query does not progress");
        FUZZ_CHECK(e->timestamp >= o->t0 && e->timestamp < o->t1, "query event outside its window");
        FUZZ_CHECK(e->offset < size, "query event past the trace");
    }
    if (rc < 0)
        FUZZ_CHECK(ntidx_last_error()[0], "query error without a message");
    ntidx_query_close(&q);
}

static void exercise(ntidx_trace *t, const ntidx_index *x, fuzz_src *src)
{
    const ntidx_index_info *info = ntidx_index_get_info(x);
    FUZZ_CHECK(info != NULL, "info");
    uint64_t lo = info->first_ts, hi = info->last_ts;
    if (lo > hi) {
        lo = 0;
        hi = 1;
    }
    for (int k = 0; k < 4; k++) {
        ntidx_query_options o;
        ntidx_query_options_defaults(&o);
        o.recover = 0; /* a corrupt index must be said, not rebuilt, here */
        if (k) {
            uint64_t span = hi - lo + 1, a = lo + fuzz_bytes_le(src, 4) % span, b = lo + fuzz_bytes_le(src, 4) % span;
            o.t0 = a < b ? a : b;
            o.t1 = (a < b ? b : a) + 1;
        }
        o.order = (k & 1) ? NTIDX_ORDER_TIME : NTIDX_ORDER_FILE;
        uint8_t f = fuzz_u8(src);
        if (f & 1) {
            o.has_thread = 1;
            o.thread = f >> 4;
        }
        if (f & 2)
            o.provider = "MyCompany-MyProvider";
        if (f & 4) {
            o.has_event_id = 1;
            o.event_id = f >> 5;
        }
        if (f & 8)
            o.limit = 3;
        count_query(t, x, &o);
    }
    uint64_t at = lo + fuzz_bytes_le(src, 4) % (hi - lo + 1);
    ntidx_query *h = NULL;
    const ntidx_event *e;
    if (seek_at(t, x, at, &h, &e) == 1)
        FUZZ_CHECK(e->timestamp >= at, "seek returned an earlier event");
    ntidx_query_close(&h);
    ntidx_stats *s = NULL;
    ntidx_stats_options wo;
    ntidx_stats_options_defaults(&wo);
    wo.recover = 0; /* a corrupt index must be said, not rebuilt, here */
    wo.t0 = lo;
    wo.t1 = hi + 1;
    wo.threads = 1;
    wo.recover = 0;
    if (ntidx_stats_indexed(t, x, &wo, &s) < 0)
        FUZZ_CHECK(ntidx_last_error()[0], "window stats error without a message");
    ntidx_stats_free(&s);
    ntidx_stats_options so;
    ntidx_stats_options_defaults(&so);
    so.recover = 0; /* a corrupt index must be said, not rebuilt, here */
    so.threads = 1;
    so.buckets = 5;
    if (ntidx_stats_indexed(t, x, &so, &s) < 0)
        FUZZ_CHECK(ntidx_last_error()[0], "indexed stats error without a message");
    ntidx_stats_free(&s);
    /* without a histogram a --full index answers the regions inside the window from its statistics */
    so.buckets = 0;
    so.threads = 1 + (fuzz_u8(src) & 1);
    if (fuzz_u8(src) & 1) {
        so.t0 = lo + fuzz_bytes_le(src, 4) % (hi - lo + 1);
        so.t1 = so.t0 + fuzz_bytes_le(src, 4) % (hi - lo + 2);
    }
    if (ntidx_stats_indexed(t, x, &so, &s) < 0)
        FUZZ_CHECK(ntidx_last_error()[0], "indexed stats error without a message");
    else
        FUZZ_CHECK(s->events >= s->thread_count && s->events >= s->type_count, "stats: %llu events of %zu types",
                   (unsigned long long)s->events, s->type_count);
    ntidx_stats_free(&s);
}

/* The same bytes loaded from a file, checked region by region on first use. */
static void lazily(ntidx_trace *t, uint8_t *m, size_t n, int eager_rc, const ntidx_index *x, ntidx_index_state st,
                   fuzz_src *src)
{
    char path[64];
    fuzz_temp_file(m, n, path);
    ntidx_index *y = NULL;
    ntidx_index_state yst = (ntidx_index_state)-1;
    int rc = ntidx_index_load(t, path, NTIDX_VERIFY_ON_USE, &y, &yst);
    unlink(path);
    if (rc < 0) {
        FUZZ_CHECK(y == NULL, "failed lazy load returned an index");
        FUZZ_CHECK(rc == NTIDX_E_INDEX_CORRUPT || rc == NTIDX_E_INDEX_STALE || rc == NTIDX_E_INDEX_VERSION,
                   "lazy load returned %d", rc);
        FUZZ_CHECK(ntidx_last_error()[0], "lazy load error %d without a message", rc);
        FUZZ_CHECK(eager_rc < 0 || !region_sums_right(m, n), "an index that loads whole does not load lazily: %s",
                   ntidx_last_error());
        return;
    }
    FUZZ_CHECK(yst == NTIDX_INDEX_CURRENT || yst == NTIDX_INDEX_GROWN, "lazy state %d", (int)yst);
    if (eager_rc == NTIDX_OK && region_sums_right(m, n)) {
        FUZZ_CHECK(yst == st, "lazy state %d, eager %d", (int)yst, (int)st);
        FUZZ_CHECK(ntidx_index_verify_all(y) == NTIDX_OK,
                   "an index that loads whole fails a region check: %s", ntidx_last_error());
        same_answers(t, x, y, src);
    } else {
        exercise(t, y, src);
        rc = ntidx_index_verify_all(y);
        FUZZ_CHECK(rc == NTIDX_OK || (rc == NTIDX_E_INDEX_CORRUPT && ntidx_last_error()[0]), "verify_all %d", rc);
        FUZZ_CHECK(rc < 0 || eager_rc == NTIDX_OK, "an index that passes every region check does not load whole (%d)",
                   eager_rc);
        if (rc == NTIDX_OK) /* everything checked now: queries may not fail */
            exercise(t, y, src);
    }
    ntidx_index_close(&y);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    g_runs++;
    uint8_t mode = data[0];
    ntidx_trace *t = fixed_trace((mode >> 1) & 1);
    size_t n = size - 1;
    uint8_t *m = malloc(n ? n : 1); /* exact size: a read past the end is caught */
    FUZZ_CHECK(m != NULL, "malloc");
    memcpy(m, data + 1, n);
    if (mode & 1)
        repair(m, n);
    fuzz_src src;
    fuzz_src_init(&src, data, size);
    ntidx_index *x = NULL;
    ntidx_index_state st = (ntidx_index_state)-1;
    int rc = ntidx_index_load_memory(t, m, n, "fuzz.ntidx", NTIDX_VERIFY_AUTO, &x, &st);
    if (rc < 0) {
        FUZZ_CHECK(x == NULL, "failed load returned an index");
        FUZZ_CHECK(rc == NTIDX_E_INDEX_CORRUPT || rc == NTIDX_E_INDEX_STALE || rc == NTIDX_E_INDEX_VERSION,
                   "load returned %d", rc);
        FUZZ_CHECK(ntidx_last_error()[0], "load error %d without a message", rc);
    } else {
        g_loaded++;
        FUZZ_CHECK(st == NTIDX_INDEX_CURRENT || st == NTIDX_INDEX_GROWN, "state %d", (int)st);
        if (mode & 4)
            forward_compatible(t, m, n, 1u + (mode >> 3) * 2u, x, st, &src);
        exercise(t, x, &src);
        if (st == NTIDX_INDEX_GROWN) {
            ntidx_index *y = NULL;
            if (ntidx_index_extend(t, x, NULL, &y) == NTIDX_OK) {
                exercise(t, y, &src);
                ntidx_index_close(&y);
            } else {
                FUZZ_CHECK(y == NULL, "failed extend returned an index");
            }
        }
    }
    lazily(t, m, n, rc, x, st, &src);
    ntidx_index_close(&x);
    free(m);
    return 0;
}

/* Replay (replay_main.c): with NTIDX_FUZZ_REQUIRE_LOAD set, some input must have loaded. */
int fuzz_replay_summary(void)
{
    fprintf(stderr, "fuzz_index_load: %lu of %lu inputs loaded as an index\n", g_loaded, g_runs);
    return getenv("NTIDX_FUZZ_REQUIRE_LOAD") && g_loaded == 0;
}
