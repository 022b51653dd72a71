/*
 * fuzz_oracle: queries through an index equal a brute-force scan.
 *
 * The input builds a small valid trace, in one of two ways (first byte, bit 0):
 *   0  the generator (ntidx_generate_memory) with options taken from the input:
 *      version, events, threads, seed, drops, metadata/thread flushes, thread
 *      removal, compressed headers, end-of-stream marker;
 *   1  a program for the writer read from the input: events on up to four
 *      threads whose clocks advance by input-chosen steps, sorted events,
 *      sequence points (V6: flushing threads and/or metadata), flushes,
 *      stacks, label lists, thread removal, dropped sequence numbers, and
 *      event blocks as small as 64 bytes, so that a few hundred events make
 *      many blocks and regions;
 * then cut at an input-chosen byte or not (a trace whose writer is still
 * running). An index is built in memory (plain and --full), and for windows,
 * orders and filters derived from the input every query must return exactly
 * the events of a full file-order scan that fall in the window and pass the
 * filters, in file order or in (timestamp, offset) order, and seek must find
 * the first event at or after its time. An index of a prefix of the trace
 * extended to the whole must equal one built from scratch. The --full index
 * written and loaded back with its regions checked on first use
 * (NTIDX_VERIFY_ON_USE) must answer the same. Window statistics through the
 * plain index must count the scan's events, and through the --full index
 * (which takes whole regions from the statistics it stores) must equal
 * those of the plain index field for field. Any difference aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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


#define MAX_EVENTS 1000

/* ------------------------------------------------------------------ */
/* Building the trace                                                  */
/* ------------------------------------------------------------------ */

static int from_generator(fuzz_src *s, uint8_t **data, size_t *size)
{
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    uint8_t f = fuzz_u8(s);
    g.format_version = (f & 1) ? 5 : 6;
    g.compressed_headers = !(f & 2);
    g.finish = !(f & 4);
    g.events = 1 + fuzz_bytes_le(s, 2) % MAX_EVENTS;
    g.threads = 1 + fuzz_u8(s) % 8;
    g.seed = fuzz_bytes_le(s, 8);
    uint8_t d = fuzz_u8(s);
    g.drop_rate = d < 128 ? 0.0 : (double)(d - 128) / 400.0;
    if (g.format_version == 6) {
        uint8_t fl = fuzz_u8(s);
        g.metadata_flush_every = fl & 3;
        g.thread_flush_every = (fl >> 2) & 3;
        g.remove_threads = (fl >> 4) & 1;
    }
    int rc = ntidx_generate_memory(&g, data, size);
    FUZZ_CHECK(rc == NTIDX_OK, "generate: %d", rc);
    return 0;
}

#define NTH 4

typedef struct wprog {
    ntidx_writer *w;
    int v6;
    uint32_t pointer_size;
    uint64_t clock[NTH];
    uint32_t seq[NTH];
    uint64_t key[NTH];   /* V6 thread index (changes when a thread is redefined), V5 thread id */
    int alive[NTH];      /* V6: defined and not flushed or removed */
    uint64_t next_index; /* V6 thread indexes are never reused */
    int nth;
    int meta_alive, stack_alive, labels_alive;
    uint64_t sp_ts;
    uint32_t events;
} wprog;

static const ntidx_field f_int32[] = {{"v", NTIDX_TYPE_INT32, 0, NULL, NULL, 0}};

static void wcheck(int rc, const char *what) { FUZZ_CHECK(rc == NTIDX_OK, "writer %s: %d", what, rc); }

static void define_metadata(wprog *p)
{
    static const char *prov[3] = {"Fuzz-Provider-A", "Fuzz-Provider-A", "Fuzz-Provider-B"};
    static const char *name[3] = {"Alpha", "Beta", ""};
    for (int k = 0; k < 3; k++) {
        ntidx_metadata m;
        memset(&m, 0, sizeof m);
        m.id = (uint32_t)k + 1;
        m.provider = prov[k];
        m.event_id = (uint32_t)k + 10;
        m.event_name = name[k];
        m.version = 1;
        m.level = 4;
        m.opcode = -1;
        m.has_fields = k != 1;
        m.fields = k == 0 ? f_int32 : NULL;
        m.field_count = k == 0 ? 1 : 0;
        wcheck(ntidx_writer_add_metadata(p->w, &m), "metadata");
    }
    p->meta_alive = 1;
}

static void define_thread(wprog *p, int i)
{
    p->key[i] = p->next_index++;
    p->seq[i] = 0;
    if (!p->v6)
        return;
    ntidx_thread th;
    memset(&th, 0, sizeof th);
    th.index = p->key[i];
    th.has_os_thread_id = i != 3; /* one thread without an OS id: queries by index */
    th.os_thread_id = 0x700 + (uint64_t)i;
    th.has_os_process_id = 1;
    th.os_process_id = 42;
    th.name = i == 0 ? "main" : NULL;
    wcheck(ntidx_writer_add_thread(p->w, &th), "thread");
    p->alive[i] = 1;
}

static void sequence_point(wprog *p, uint32_t flags)
{
    uint64_t ts = p->sp_ts;
    for (int i = 0; i < p->nth; i++)
        if (p->clock[i] > ts)
            ts = p->clock[i];
    ntidx_thread_seq list[NTH];
    size_t n = 0;
    for (int i = 0; i < p->nth; i++)
        if (!p->v6 || p->alive[i])
            list[n++] = (ntidx_thread_seq){p->key[i], p->seq[i]};
    if (!p->v6)
        flags = 0;
    wcheck(ntidx_writer_sequence_point(p->w, ts, flags, list, n), "sequence point");
    p->sp_ts = ts;
    for (int i = 0; i < p->nth; i++)
        if (p->clock[i] < ts)
            p->clock[i] = ts;
    p->stack_alive = p->labels_alive = 0;
    if (flags & NTIDX_SP_FLUSH_THREADS)
        for (int i = 0; i < p->nth; i++)
            p->alive[i] = 0;
    if (flags & NTIDX_SP_FLUSH_METADATA)
        p->meta_alive = 0;
}

static void event(wprog *p, fuzz_src *s)
{
    uint8_t a = fuzz_u8(s), dt = fuzz_u8(s);
    int i = a % p->nth, sorted = (a >> 2) & 1;
    if (!p->meta_alive)
        define_metadata(p);
    if (p->v6 && !p->alive[i])
        define_thread(p, i);
    uint64_t step = dt >= 250 ? (uint64_t)dt * 1000 : dt;
    if (sorted) {
        /* sorted: nothing written later is earlier, so every clock moves up to it */
        uint64_t m = 0;
        for (int k = 0; k < p->nth; k++)
            m = p->clock[k] > m ? p->clock[k] : m;
        p->clock[i] = m + step;
        for (int k = 0; k < p->nth; k++)
            p->clock[k] = p->clock[i];
    } else {
        p->clock[i] += step;
    }
    if ((a >> 3) & 1)
        p->seq[i] += 1 + ((a >> 4) & 3); /* dropped events */
    uint8_t pay[12] = {0};
    uint32_t k = (a >> 6) % 3;
    ntidx_event e;
    memset(&e, 0, sizeof e);
    e.metadata_id = k + 1;
    e.sequence_number = ++p->seq[i];
    e.thread_index = e.capture_thread_index = p->key[i];
    e.processor_number = (uint32_t)i;
    e.timestamp = p->clock[i];
    e.is_sorted = sorted;
    e.stack_id = p->stack_alive && (dt & 1) ? 1 : 0;
    e.label_list_id = p->v6 && p->labels_alive && (dt & 2) ? 1 : 0;
    memcpy(pay, &p->events, 4);
    e.payload = pay;
    e.payload_size = k == 0 ? 4 : k == 1 ? dt % 12 : 0;
    wcheck(ntidx_writer_add_event(p->w, &e), "event");
    p->events++;
}

static int from_writer(fuzz_src *s, uint8_t **data, size_t *size)
{
    wprog p;
    memset(&p, 0, sizeof p);
    uint8_t f = fuzz_u8(s);
    p.v6 = !(f & 1);
    ntidx_writer_options wo;
    ntidx_writer_options_defaults(&wo);
    wo.format_version = p.v6 ? 6 : 5;
    wo.compressed_headers = !(f & 2);
    wo.pointer_size = (f & 8) ? 4 : 8;
    wo.max_event_block_bytes = 64 + 16u * fuzz_u8(s);
    p.pointer_size = wo.pointer_size;
    int finish = !(f & 4);
    wcheck(ntidx_writer_open_memory(&wo, &p.w), "open");
    p.nth = 1 + (f >> 4) % NTH;
    p.next_index = p.v6 ? 1 : 0x1000;
    for (int i = 0; i < p.nth; i++) {
        define_thread(&p, i);
        p.clock[i] = 1000;
    }
    define_metadata(&p);
    static const uint8_t ips[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    while (!fuzz_exhausted(s) && p.events < MAX_EVENTS) {
        uint8_t op = fuzz_u8(s) % 16;
        if (op < 10) {
            event(&p, s);
        } else if (op < 12) {
            sequence_point(&p, fuzz_u8(s) & 3);
        } else if (op == 12) {
            wcheck(ntidx_writer_flush(p.w), "flush");
        } else if (op == 13) {
            wcheck(ntidx_writer_add_stack(p.w, 1, ips, 2 * p.pointer_size), "stack");
            p.stack_alive = 1;
        } else if (op == 14 && p.v6) {
            int i = fuzz_u8(s) % p.nth;
            if (p.alive[i]) {
                ntidx_thread_seq r = {p.key[i], p.seq[i]};
                wcheck(ntidx_writer_remove_threads(p.w, &r, 1), "remove thread");
                p.alive[i] = 0;
            }
        } else if (op == 15 && p.v6) {
            ntidx_label l[2];
            memset(l, 0, sizeof l);
            l[0].kind = NTIDX_LABEL_ACTIVITY_ID;
            l[0].guid[0] = 7;
            l[1].kind = NTIDX_LABEL_KEYWORDS;
            l[1].u = 0x1234;
            wcheck(ntidx_writer_add_label_list(p.w, 1, l, 2), "label list");
            p.labels_alive = 1;
        }
    }
    if (finish)
        wcheck(ntidx_writer_finish(p.w), "finish");
    else
        wcheck(ntidx_writer_flush(p.w), "flush");
    const uint8_t *mem;
    size_t n;
    mem = ntidx_writer_memory(p.w, &n);
    *data = malloc(n ? n : 1);
    FUZZ_CHECK(*data != NULL, "malloc");
    memcpy(*data, mem, n);
    *size = n;
    wcheck(ntidx_writer_close(&p.w), "close");
    return 0;
}

/* ------------------------------------------------------------------ */
/* The brute-force side                                                */
/* ------------------------------------------------------------------ */

typedef struct ev {
    uint64_t ts, offset, thread;
    uint32_t event_id, type; /* type: index into the names table */
} ev;

typedef struct scan {
    ev *e;
    size_t n;
    struct {
        char *provider, *name;
        uint32_t event_id;
    } types[64];
    uint32_t ntypes;
} scan;

static uint32_t type_of(scan *s, const ntidx_metadata *m)
{
    for (uint32_t i = 0; i < s->ntypes; i++)
        if (s->types[i].event_id == m->event_id && !strcmp(s->types[i].provider, m->provider) &&
            !strcmp(s->types[i].name, m->event_name))
            return i;
    FUZZ_CHECK(s->ntypes < 64, "too many event types");
    s->types[s->ntypes].provider = strdup(m->provider);
    s->types[s->ntypes].name = strdup(m->event_name);
    s->types[s->ntypes].event_id = m->event_id;
    return s->ntypes++;
}

static void free_scan(scan *s)
{
    for (uint32_t i = 0; i < s->ntypes; i++) {
        free(s->types[i].provider);
        free(s->types[i].name);
    }
    free(s->e);
}

static void full_scan(ntidx_trace *t, scan *s)
{
    memset(s, 0, sizeof *s);
    ntidx_reader *r;
    FUZZ_CHECK(ntidx_reader_open(t, NULL, &r) == NTIDX_OK, "reader_open");
    size_t cap = 0;
    const ntidx_event *e;
    int rc;
    while ((rc = ntidx_reader_next(r, &e)) == 1) {
        if (s->n == cap) {
            cap = cap ? cap * 2 : 1024;
            s->e = realloc(s->e, cap * sizeof *s->e);
            FUZZ_CHECK(s->e != NULL, "realloc");
        }
        s->e[s->n++] = (ev){e->timestamp, e->offset, e->thread_id, e->metadata->event_id, type_of(s, e->metadata)};
    }
    FUZZ_CHECK(rc == 0, "a generated trace does not read: %s", ntidx_last_error());
    ntidx_reader_close(&r);
}

static int cmp_time(const void *a, const void *b)
{
    const ev *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int passes(const scan *s, const ev *e, const ntidx_query_options *o)
{
    if (e->ts < o->t0 || e->ts >= o->t1)
        return 0;
    if (o->provider && strcmp(o->provider, s->types[e->type].provider))
        return 0;
    if (o->has_event_id && o->event_id != e->event_id)
        return 0;
    if (o->has_thread && o->thread != e->thread)
        return 0;
    if (o->event_name) {
        ntidx_metadata m;
        memset(&m, 0, sizeof m);
        m.provider = s->types[e->type].provider;
        m.event_name = s->types[e->type].name;
        m.event_id = e->event_id;
        if (!ntidx_metadata_matches_name(&m, o->event_name))
            return 0;
    }
    return 1;
}

static void check_query(ntidx_trace *t, const ntidx_index *x, const scan *s, const ev *by_time,
                        const ntidx_query_options *o, const char *what)
{
    const ev *src = o->order == NTIDX_ORDER_TIME ? by_time : s->e;
    ntidx_query *q = NULL;
    int rc = ntidx_query_open(t, x, o, &q);
    FUZZ_CHECK(rc == NTIDX_OK, "%s: query_open %d", what, rc);
    size_t k = 0;
    uint64_t got = 0;
    const ntidx_event *e;
    while ((rc = ntidx_query_next(q, &e)) == 1) {
        while (k < s->n && !passes(s, &src[k], o))
            k++;
        FUZZ_CHECK(k < s->n, "%s: window [%llu,%llu) order %d: extra event at offset %llu", what,
                   (unsigned long long)o->t0, (unsigned long long)o->t1, o->order, (unsigned long long)e->offset);
        FUZZ_CHECK(src[k].offset == e->offset && src[k].ts == e->timestamp,
                   "%s: window [%llu,%llu) order %d event %llu: expected offset %llu ts %llu, got offset %llu ts %llu",
                   what, (unsigned long long)o->t0, (unsigned long long)o->t1, o->order, (unsigned long long)got,
                   (unsigned long long)src[k].offset, (unsigned long long)src[k].ts, (unsigned long long)e->offset,
                   (unsigned long long)e->timestamp);
        k++;
        got++;
    }
    FUZZ_CHECK(rc == 0, "%s: query error: %s", what, ntidx_last_error());
    if (!o->limit || got < o->limit) {
        while (k < s->n && !passes(s, &src[k], o))
            k++;
        FUZZ_CHECK(k == s->n, "%s: window [%llu,%llu) order %d (thread %d:%llu provider %s id %d:%u name %s): "
                              "missed the event at offset %llu ts %llu",
                   what, (unsigned long long)o->t0, (unsigned long long)o->t1, o->order, o->has_thread,
                   (unsigned long long)o->thread, o->provider ? o->provider : "-", o->has_event_id, o->event_id,
                   o->event_name ? o->event_name : "-", (unsigned long long)src[k].offset,
                   (unsigned long long)src[k].ts);
    }
    ntidx_query_close(&q);
}

static uint64_t pick_ts(fuzz_src *src, const scan *s, uint64_t lo, uint64_t hi)
{
    uint8_t how = fuzz_u8(src);
    uint64_t r = fuzz_bytes_le(src, 4);
    switch (how % 5) {
    case 0: return s->n ? s->e[r % s->n].ts : lo;
    case 1: return s->n ? s->e[r % s->n].ts + 1 : hi;
    case 2: return how & 8 ? 0 : UINT64_MAX;
    default: return lo + (hi > lo ? r % (hi - lo + 2) : 0);
    }
}

static void check_windows(ntidx_trace *t, const ntidx_index *x, const scan *s, const ev *by_time, fuzz_src *src,
                          const char *what)
{
    uint64_t lo = s->n ? by_time[0].ts : 0, hi = s->n ? by_time[s->n - 1].ts : 0;
    char name[200];
    for (int w = 0; w < 8; w++) {
        ntidx_query_options o;
        ntidx_query_options_defaults(&o);
        o.recover = 0; /* a corrupt index must be said, not rebuilt, here */
        if (w) {
            uint64_t a = pick_ts(src, s, lo, hi), b = pick_ts(src, s, lo, hi);
            o.t0 = a < b ? a : b;
            o.t1 = a < b ? b : a;
        }
        uint8_t f = fuzz_u8(src);
        o.order = (f & 1) ? NTIDX_ORDER_TIME : NTIDX_ORDER_FILE;
        if (s->n && (f & 2)) {
            const ev *pick = &s->e[fuzz_bytes_le(src, 2) % s->n];
            switch ((f >> 2) & 7) {
            case 0: o.provider = s->types[pick->type].provider; break;
            case 1:
                o.provider = s->types[pick->type].provider;
                o.has_event_id = 1;
                o.event_id = pick->event_id;
                break;
            case 2:
                o.has_thread = 1;
                o.thread = pick->thread;
                break;
            case 3:
                if (s->types[pick->type].name[0])
                    o.event_name = s->types[pick->type].name;
                break;
            case 4: /* Provider/Name or Provider/EventID(N), as ntidx_event_display_name() shows it */
            {
                ntidx_metadata m;
                memset(&m, 0, sizeof m);
                m.provider = s->types[pick->type].provider;
                m.event_name = s->types[pick->type].name;
                m.event_id = pick->event_id;
                o.event_name = ntidx_event_display_name(&m, name, sizeof name);
                break;
            }
            case 5:
                snprintf(name, sizeof name, "eventid(%u)", pick->event_id);
                o.event_name = name;
                o.has_thread = 1;
                o.thread = pick->thread;
                break;
            case 6:
                o.provider = "No-Such-Provider";
                break;
            default:
                o.has_event_id = 1;
                o.event_id = pick->event_id;
                break;
            }
        }
        if ((f >> 5) == 7)
            o.limit = 1 + fuzz_u8(src) % 20;
        check_query(t, x, s, by_time, &o, what);
    }
    for (int k = 0; k < 4; k++) {
        uint64_t T = k == 0 ? 0 : k == 1 ? hi + 1 : pick_ts(src, s, lo, hi);
        ntidx_query *h = NULL;
        const ntidx_event *e;
        int rc = seek_at(t, x, T, &h, &e);
        size_t i = 0;
        while (i < s->n && by_time[i].ts < T)
            i++;
        if (i == s->n) {
            FUZZ_CHECK(rc == 0, "%s: seek %llu found an event past the last (%d)", what, (unsigned long long)T, rc);
        } else {
            FUZZ_CHECK(rc == 1, "%s: seek %llu: %d", what, (unsigned long long)T, rc);
            FUZZ_CHECK(e->offset == by_time[i].offset, "%s: seek %llu: expected offset %llu, got %llu", what,
                       (unsigned long long)T, (unsigned long long)by_time[i].offset, (unsigned long long)e->offset);
        }
        ntidx_query_close(&h);
    }
}

/* Two statistics results are the same, field for field (not regions_from_index). */
static void same_stats(const ntidx_stats *a, const ntidx_stats *b, const char *what)
{
    FUZZ_CHECK(a->events == b->events && a->first_ts == b->first_ts && a->last_ts == b->last_ts &&
                   a->payload_bytes == b->payload_bytes && a->dropped_events == b->dropped_events &&
                   a->complete == b->complete &&
                   a->reader.blocks[NTIDX_BLOCK_EVENT] == b->reader.blocks[NTIDX_BLOCK_EVENT] &&
                   a->type_count == b->type_count && a->thread_count == b->thread_count &&
                   a->dropped_count == b->dropped_count,
               "%s: events %llu/%llu ts %llu-%llu/%llu-%llu payload %llu/%llu dropped %llu/%llu complete %d/%d "
               "event blocks %llu/%llu types %zu/%zu threads %zu/%zu capture threads %zu/%zu",
               what, (unsigned long long)a->events, (unsigned long long)b->events, (unsigned long long)a->first_ts,
               (unsigned long long)a->last_ts, (unsigned long long)b->first_ts, (unsigned long long)b->last_ts,
               (unsigned long long)a->payload_bytes, (unsigned long long)b->payload_bytes,
               (unsigned long long)a->dropped_events, (unsigned long long)b->dropped_events, a->complete, b->complete,
               (unsigned long long)a->reader.blocks[NTIDX_BLOCK_EVENT],
               (unsigned long long)b->reader.blocks[NTIDX_BLOCK_EVENT], a->type_count, b->type_count,
               a->thread_count, b->thread_count, a->dropped_count, b->dropped_count);
    for (size_t i = 0; i < a->type_count; i++) {
        const ntidx_type_stat *x = &a->types[i], *y = &b->types[i];
        FUZZ_CHECK(!strcmp(x->provider, y->provider) && !strcmp(x->event_name, y->event_name) &&
                       x->event_id == y->event_id && x->version == y->version && x->count == y->count &&
                       x->first_ts == y->first_ts && x->payload_bytes == y->payload_bytes,
                   "%s: type %zu: %s/%s id %u v%u count %llu first %llu bytes %llu, vs %s/%s id %u v%u count %llu "
                   "first %llu bytes %llu",
                   what, i, x->provider, x->event_name, x->event_id, x->version, (unsigned long long)x->count,
                   (unsigned long long)x->first_ts, (unsigned long long)x->payload_bytes, y->provider, y->event_name,
                   y->event_id, y->version, (unsigned long long)y->count, (unsigned long long)y->first_ts,
                   (unsigned long long)y->payload_bytes);
    }
    for (size_t i = 0; i < a->thread_count; i++)
        FUZZ_CHECK(a->threads[i].thread == b->threads[i].thread && a->threads[i].count == b->threads[i].count,
                   "%s: thread %zu: %llu x %llu vs %llu x %llu", what, i, (unsigned long long)a->threads[i].thread,
                   (unsigned long long)a->threads[i].count, (unsigned long long)b->threads[i].thread,
                   (unsigned long long)b->threads[i].count);
    for (size_t i = 0; i < a->dropped_count; i++)
        FUZZ_CHECK(a->dropped[i].capture_thread == b->dropped[i].capture_thread &&
                       a->dropped[i].capture_thread_id == b->dropped[i].capture_thread_id &&
                       a->dropped[i].dropped == b->dropped[i].dropped,
                   "%s: capture thread %zu: %llu (%llu) dropped %llu vs %llu (%llu) dropped %llu", what, i,
                   (unsigned long long)a->dropped[i].capture_thread,
                   (unsigned long long)a->dropped[i].capture_thread_id, (unsigned long long)a->dropped[i].dropped,
                   (unsigned long long)b->dropped[i].capture_thread,
                   (unsigned long long)b->dropped[i].capture_thread_id, (unsigned long long)b->dropped[i].dropped);
}

/*
 * Statistics of windows: through the plain index (every region decoded) they count exactly the
 * scan's events in the window, per type and per thread; through the --full index (built, or loaded
 * and checked on first use), which answers the regions inside the window from the statistics it
 * stores, on one thread and on two, they are the same field for field (also the OS thread id of
 * each capture thread with drops, whatever order the regions are merged in).
 */
static void check_stats(ntidx_trace *t, const ntidx_index *plain, const ntidx_index *full, const ntidx_index *lazy,
                        const scan *s, const ev *by_time, fuzz_src *src)
{
    uint64_t lo = s->n ? by_time[0].ts : 0, hi = s->n ? by_time[s->n - 1].ts : 0;
    for (int w = 0; w < 3; w++) {
        ntidx_stats_options o;
        ntidx_stats_options_defaults(&o);
        o.recover = 0; /* a corrupt index must be said, not rebuilt, here */
        if (w) {
            uint64_t a = pick_ts(src, s, lo, hi), b = pick_ts(src, s, lo, hi);
            o.t0 = a < b ? a : b;
            o.t1 = a < b ? b : a;
        }
        o.threads = 1;
        ntidx_stats *ref = NULL, *got = NULL;
        int rc = ntidx_stats_indexed(t, plain, &o, &ref);
        FUZZ_CHECK(rc == NTIDX_OK, "window stats [%llu,%llu), plain index: %d %s", (unsigned long long)o.t0,
                   (unsigned long long)o.t1, rc, ntidx_last_error());
        FUZZ_CHECK(ref->regions_from_index == 0, "a plain index gave region statistics");
        uint64_t n = 0, per_thread = 0;
        for (size_t i = 0; i < s->n; i++)
            if (s->e[i].ts >= o.t0 && s->e[i].ts < o.t1) {
                n++;
                per_thread += s->e[i].thread == s->e[0].thread;
            }
        FUZZ_CHECK(ref->events == n, "window stats [%llu,%llu) count %llu events, the scan %llu",
                   (unsigned long long)o.t0, (unsigned long long)o.t1, (unsigned long long)ref->events,
                   (unsigned long long)n);
        if (per_thread) {
            uint64_t c = 0;
            for (size_t i = 0; i < ref->thread_count; i++)
                if (ref->threads[i].thread == s->e[0].thread)
                    c = ref->threads[i].count;
            FUZZ_CHECK(c == per_thread, "window stats [%llu,%llu): thread %llu has %llu events, the scan %llu",
                       (unsigned long long)o.t0, (unsigned long long)o.t1, (unsigned long long)s->e[0].thread,
                       (unsigned long long)c, (unsigned long long)per_thread);
        }
        /* one worker (the same order every run), then two (regions shared out as they come) */
        for (o.threads = 1; o.threads <= 2; o.threads++) {
            const ntidx_index *x = (w & 1) && o.threads == 2 ? lazy : full;
            rc = ntidx_stats_indexed(t, x, &o, &got);
            FUZZ_CHECK(rc == NTIDX_OK, "window stats [%llu,%llu), %s index, %u threads: %d %s",
                       (unsigned long long)o.t0, (unsigned long long)o.t1, x == lazy ? "lazily checked" : "full",
                       o.threads, rc, ntidx_last_error());
            char what[160];
            snprintf(what, sizeof what, "window [%llu,%llu): stats through a %s--full index, %u threads",
                     (unsigned long long)o.t0, (unsigned long long)o.t1, x == lazy ? "lazily checked " : "",
                     o.threads);
            same_stats(ref, got, what);
            ntidx_stats_free(&got);
        }
        ntidx_stats_free(&ref);
    }
}

static void same_info(const ntidx_index_info *a, const ntidx_index_info *b)
{
    FUZZ_CHECK(a->full == b->full && a->complete == b->complete && a->trace_size == b->trace_size &&
                   a->indexed_end == b->indexed_end && a->blocks == b->blocks &&
                   a->sequence_points == b->sequence_points && a->regions == b->regions &&
                   a->definitions == b->definitions && a->first_ts == b->first_ts && a->last_ts == b->last_ts &&
                   a->events == b->events && a->bytes == b->bytes,
               "an extended index differs from a fresh one: blocks %llu/%llu regions %llu/%llu defs %llu/%llu "
               "ts %llu-%llu/%llu-%llu events %llu/%llu end %llu/%llu",
               (unsigned long long)a->blocks, (unsigned long long)b->blocks, (unsigned long long)a->regions,
               (unsigned long long)b->regions, (unsigned long long)a->definitions, (unsigned long long)b->definitions,
               (unsigned long long)a->first_ts, (unsigned long long)a->last_ts, (unsigned long long)b->first_ts,
               (unsigned long long)b->last_ts, (unsigned long long)a->events, (unsigned long long)b->events,
               (unsigned long long)a->indexed_end, (unsigned long long)b->indexed_end);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_src src;
    fuzz_src_init(&src, data, size);
    uint8_t mode = fuzz_u8(&src);
    uint8_t *bytes = NULL;
    size_t n = 0;
    if (mode & 1)
        from_writer(&src, &bytes, &n);
    else
        from_generator(&src, &bytes, &n);
    /* cut: a trace whose writer has not finished (any byte; the reader keeps the complete blocks) */
    uint64_t cut_r = fuzz_bytes_le(&src, 4);
    if (mode & 2) {
        n = (size_t)(cut_r % (n + 1));
        uint8_t *shorter = realloc(bytes, n ? n : 1); /* exact size: a read past the cut is caught */
        FUZZ_CHECK(shorter != NULL, "realloc");
        bytes = shorter;
    }
    ntidx_trace *t = NULL;
    if (ntidx_trace_open_memory(bytes, n, "oracle", &t) != NTIDX_OK) {
        free(bytes); /* cut inside the trace block */
        return 0;
    }
    scan s;
    full_scan(t, &s);
    ev *by_time = malloc((s.n + 1) * sizeof *by_time);
    FUZZ_CHECK(by_time != NULL, "malloc");
    if (s.n) /* s.e is NULL without events */
        memcpy(by_time, s.e, s.n * sizeof *by_time);
    qsort(by_time, s.n, sizeof *by_time, cmp_time);
    ntidx_index *built[2] = {NULL, NULL};
    for (int full = 0; full < 2; full++) {
        ntidx_index_options io;
        ntidx_index_options_defaults(&io);
        io.full = full;
        ntidx_index *x = NULL;
        int rc = ntidx_index_build(t, &io, &x);
        FUZZ_CHECK(rc == NTIDX_OK, "index build (full %d): %d %s", full, rc, ntidx_last_error());
        const ntidx_index_info *info = ntidx_index_get_info(x);
        if (full)
            FUZZ_CHECK(info->events == s.n, "full index counts %llu events, the scan %zu",
                       (unsigned long long)info->events, s.n);
        check_windows(t, x, &s, by_time, &src, full ? "full index" : "index");
        /* the same trace indexed in two steps: first a prefix (the writer had not got this far), then the rest */
        size_t cut2 = (size_t)(fuzz_bytes_le(&src, 4) % (n + 1));
        ntidx_trace *tp = NULL;
        if (ntidx_trace_open_memory(bytes, cut2, "oracle-prefix", &tp) == NTIDX_OK) {
            ntidx_index *xp = NULL, *xe = NULL;
            FUZZ_CHECK(ntidx_index_build(tp, &io, &xp) == NTIDX_OK, "prefix index build: %s", ntidx_last_error());
            if (!ntidx_index_get_info(xp)->complete) {
                rc = ntidx_index_extend(t, xp, &io, &xe);
                FUZZ_CHECK(rc == NTIDX_OK, "extend: %d %s", rc, ntidx_last_error());
                same_info(ntidx_index_get_info(xe), info);
                if (fuzz_u8(&src) & 1)
                    check_windows(t, xe, &s, by_time, &src, full ? "extended full index" : "extended index");
                ntidx_index_close(&xe);
            }
            ntidx_index_close(&xp);
            ntidx_trace_close(&tp);
        }
        built[full] = x;
    }
    /* the --full index written and loaded back, its regions checked when first needed (large indexes) */
    char path[64];
    fuzz_temp_file("", 0, path);
    FUZZ_CHECK(ntidx_index_write(built[1], path) == NTIDX_OK, "index write: %s", ntidx_last_error());
    ntidx_index *lazy = NULL;
    ntidx_index_state st;
    int rc = ntidx_index_load(t, path, NTIDX_VERIFY_ON_USE, &lazy, &st);
    unlink(path);
    FUZZ_CHECK(rc == NTIDX_OK && st == NTIDX_INDEX_CURRENT, "the written index does not load back: %d %s", rc, ntidx_last_error());
    check_windows(t, lazy, &s, by_time, &src, "lazily checked index");
    check_stats(t, built[0], built[1], lazy, &s, by_time, &src);
    ntidx_index_close(&lazy);
    ntidx_index_close(&built[1]);
    ntidx_index_close(&built[0]);
    free(by_time);
    free_scan(&s);
    ntidx_trace_close(&t);
    free(bytes);
    return 0;
}
