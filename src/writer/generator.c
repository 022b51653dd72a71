/*
 * Synthetic trace generator: a deterministic stream of events shaped like
 * what the .NET runtime writes, built on the public writer API.
 *
 * Shape of the stream
 * -------------------
 * - Time advances in "batches", like the runtime's flushes of its per-thread
 *   buffers: each batch is a window [b0, b0 + W) of ticks; every capture
 *   thread gets a run of events spread over the window, and the runs are
 *   written one thread after the other in a random order. So events
 *   interleave out of order across threads (A: 10 15 20, then B: 12 13 14)
 *   while each capture thread's own events stay in time order.
 * - IsSorted: the first event of every thread's run is marked, as the
 *   runtime does, and the runs of a batch are written in the order of their
 *   first timestamps, so "every later event in file order has timestamp >=
 *   it" holds (every later run starts no earlier, every later batch after
 *   this one ends). A reader may thus take the capture thread to change only
 *   at an IsSorted event: TraceEvent does, and attributes unmarked events to
 *   the thread of the last marked one.
 * - Sequence points close "regions" of 1 to 10 MB (fewer for small traces):
 *   the SP timestamp is the boundary between two batch windows, so every
 *   event before it is earlier and every event after it is later. Each SP
 *   lists every live thread with its last sequence number (attempted, so
 *   trailing drops are visible). After each SP the generator re-defines the
 *   stacks (ids 1..N) and, in V6, the label lists (ids 1..M), since both
 *   die at a sequence point.
 * - Drops: with probability drop_rate an event is skipped after its
 *   sequence number was taken. A thread never drops its first event after
 *   being (re)defined, nor a batch's IsSorted event, so the number a reader
 *   can see equals the number dropped.
 * - V6 options: metadata flushes (the metadata is re-defined under new ids
 *   after the SP), thread flushes (every thread re-defined under a new
 *   index, same OS thread id, sequence numbers from 1 again), thread removal
 *   (a RemoveThread block with the thread's final sequence number before an
 *   SP; a new thread index, with a new OS thread id, takes the slot).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ntidx/output.h>

#include "error.h"
#include "generator_internal.h"
#include "writer_internal.h"

#define GEN_STACKS 48
#define GEN_LABEL_LISTS 12
#define GEN_MAX_RUN 48        /* events per thread per batch, at most */
#define GEN_TICKS_PER_EVENT 200 /* 10 MHz, ~100 B/event: 1 GB spans ~3 minutes */
#define GEN_SYNC_TICKS 864000000000ll /* a QPC-like clock one day after boot */
#define GEN_PID 4242u
#define GEN_PID2 5151u /* V6: some threads belong to a second process */

NTIDX_API void ntidx_gen_options_defaults(ntidx_gen_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof(*o));
    o->format_version = 6;
    o->events = 100000;
    o->threads = 8;
    o->compressed_headers = 1;
    o->finish = 1;
}

typedef struct gthread {
    uint64_t index;  /* V6 thread index; V5 thread id */
    uint64_t os_tid;
    uint32_t pid;
    uint32_t seq;    /* last sequence number taken (emitted or dropped) */
    uint32_t cpu;
    int emitted;     /* an event was written since the thread was (re)defined */
    int retired;     /* removed, replacement pending (V6) */
    char name[40];
    uint8_t activity[16]; /* V5 current activity id */
} gthread;

typedef struct gen {
    ntidx_gen_options o;
    int v6;
    ntidx_writer *w;
    ntidx_w_rng rng;
    ntidx_w_gen_schema schema;
    gthread *th;
    uint32_t nth;
    uint64_t next_index, next_tid;
    uint32_t meta_base;

    uint8_t *stack_bytes;
    uint32_t stack_off[GEN_STACKS + 1];
    ntidx_label labels[GEN_LABEL_LISTS][4];
    uint32_t label_n[GEN_LABEL_LISTS];

    uint64_t now;            /* start of the next batch window */
    uint64_t events_target;  /* 0: bytes decide */
    uint64_t events_written;
    uint64_t region_start, region_budget, region_base;
    uint32_t regions;
    uint64_t drop_threshold; /* drop when rng < this (0: never) */
    int done;
    int rc;
    ntidx_w_gen_stats st;
    /* batch scratch */
    uint32_t *order, *run, *first, *step;
    ntidx_thread_seq *sp_list;
} gen;

static int check(int rc, gen *g)
{
    if (rc && !g->rc)
        g->rc = rc;
    return rc;
}

/* ---- definitions ---- */

static int define_thread(gen *g, gthread *t)
{
    ntidx_thread th = {t->index, 1, 1, t->os_tid, t->pid, t->name, {0}};
    t->emitted = 0;
    return check(ntidx_writer_add_thread(g->w, &th), g);
}

static void new_thread(gen *g, gthread *t, uint32_t slot)
{
    static const char *const names[] = {".NET ThreadPool Worker", ".NET TP Gate",
                                        ".NET Finalizer",        "Main",
                                        ".NET Timer",            "Kestrel IO"};
    memset(t, 0, sizeof(*t));
    t->os_tid = g->next_tid;
    g->next_tid += 1 + ntidx_w_rng_below(&g->rng, 97);
    t->index = g->v6 ? g->next_index++ : t->os_tid;
    t->pid = (g->v6 && slot % 4 == 3) ? GEN_PID2 : GEN_PID;
    t->cpu = ntidx_w_rng_below(&g->rng, 8);
    snprintf(t->name, sizeof(t->name), "%s #%llu", names[slot % 6],
             (unsigned long long)(g->v6 ? t->index : slot + 1));
}

static int define_metadata(gen *g)
{
    for (uint32_t t = 0; t < g->schema.count; t++) {
        ntidx_metadata m = g->schema.types[t].meta;
        m.id = g->meta_base + t + 1;
        if (!g->v6)
            m.message_template = m.description = NULL;
        if (check(ntidx_writer_add_metadata(g->w, &m), g))
            return g->rc;
    }
    return 0;
}

static int define_stacks_and_labels(gen *g)
{
    for (uint32_t i = 0; i < GEN_STACKS; i++)
        if (check(ntidx_writer_add_stack(g->w, i + 1, g->stack_bytes + g->stack_off[i],
                                         g->stack_off[i + 1] - g->stack_off[i]),
                  g))
            return g->rc;
    if (g->v6)
        for (uint32_t i = 0; i < GEN_LABEL_LISTS; i++)
            if (check(ntidx_writer_add_label_list(g->w, i + 1, g->labels[i], g->label_n[i]), g))
                return g->rc;
    return 0;
}

static int build_stacks(gen *g)
{
    /* Frames come from a few "modules" so stacks share prefixes, as real ones do. */
    static const uint64_t bases[] = {0x00007FFD88000000ull, 0x00007FFD98700000ull,
                                     0x00007FFCE1200000ull};
    size_t total = 0;
    uint32_t depth[GEN_STACKS];
    for (uint32_t i = 0; i < GEN_STACKS; i++) {
        depth[i] = 2 + ntidx_w_rng_below(&g->rng, 31);
        total += depth[i] * 8;
    }
    g->stack_bytes = malloc(total);
    if (!g->stack_bytes)
        return NTIDX_E_NOMEM;
    size_t off = 0;
    for (uint32_t i = 0; i < GEN_STACKS; i++) {
        g->stack_off[i] = (uint32_t)off;
        for (uint32_t d = 0; d < depth[i]; d++) {
            uint64_t ip = bases[(i + d) % 3] + ((uint64_t)ntidx_w_rng_below(&g->rng, 1u << 20));
            ntx_store64(g->stack_bytes + off, ip);
            off += 8;
        }
    }
    g->stack_off[GEN_STACKS] = (uint32_t)off;
    return 0;
}

static void random_guid(gen *g, uint8_t *out)
{
    uint64_t a = ntidx_w_rng_next(&g->rng), b = ntidx_w_rng_next(&g->rng);
    memcpy(out, &a, 8);
    memcpy(out + 8, &b, 8);
}

/* Label lists that together use every label kind. */
static void build_labels(gen *g)
{
    static const char *const keys[] = {"http.method", "user", "r\xC3\xA9gion", "tenant"};
    static const char *const vals[] = {"GET", "alice", "\xC3\x8Ele-de-France", "contoso"};
    static const char *const ikeys[] = {"http.status", "retry", "shard"};
    for (uint32_t j = 0; j < GEN_LABEL_LISTS; j++) {
        ntidx_label *l = g->labels[j];
        uint32_t n = 0;
        memset(l, 0, sizeof(g->labels[j]));
        switch (j % 6) {
        case 0:
            l[n].kind = NTIDX_LABEL_ACTIVITY_ID;
            random_guid(g, l[n++].guid);
            break;
        case 1:
            l[n].kind = NTIDX_LABEL_ACTIVITY_ID;
            random_guid(g, l[n++].guid);
            l[n].kind = NTIDX_LABEL_RELATED_ACTIVITY_ID;
            random_guid(g, l[n++].guid);
            break;
        case 2:
            l[n].kind = NTIDX_LABEL_TRACE_ID;
            random_guid(g, l[n++].guid);
            l[n].kind = NTIDX_LABEL_SPAN_ID;
            l[n++].u = ntidx_w_rng_next(&g->rng);
            break;
        case 3:
            l[n].kind = NTIDX_LABEL_KEY_STRING;
            l[n].key = keys[j % 4];
            l[n].key_len = (uint32_t)strlen(keys[j % 4]);
            l[n].str = vals[j % 4];
            l[n++].str_len = (uint32_t)strlen(vals[j % 4]);
            l[n].kind = NTIDX_LABEL_KEY_INT;
            l[n].key = ikeys[j % 3];
            l[n].key_len = (uint32_t)strlen(ikeys[j % 3]);
            l[n++].i = (int64_t)ntidx_w_rng_below(&g->rng, 1000) - 500;
            break;
        case 4:
            l[n].kind = NTIDX_LABEL_OPCODE;
            l[n++].u = 1 + ntidx_w_rng_below(&g->rng, 10);
            l[n].kind = NTIDX_LABEL_KEYWORDS;
            l[n++].u = ntidx_w_rng_next(&g->rng) & 0xFFFF00000000FFFFull;
            l[n].kind = NTIDX_LABEL_LEVEL;
            l[n++].u = 1 + ntidx_w_rng_below(&g->rng, 5);
            l[n].kind = NTIDX_LABEL_VERSION;
            l[n++].u = ntidx_w_rng_below(&g->rng, 3);
            break;
        default:
            l[n].kind = NTIDX_LABEL_TRACE_ID;
            random_guid(g, l[n++].guid);
            l[n].kind = NTIDX_LABEL_SPAN_ID;
            l[n++].u = ntidx_w_rng_next(&g->rng);
            l[n].kind = NTIDX_LABEL_KEY_STRING;
            l[n].key = keys[(j + 1) % 4];
            l[n].key_len = (uint32_t)strlen(keys[(j + 1) % 4]);
            l[n].str = vals[(j + 1) % 4];
            l[n++].str_len = (uint32_t)strlen(vals[(j + 1) % 4]);
            break;
        }
        g->label_n[j] = n;
    }
}

/* ---- regions and sequence points ---- */

static void plan_region(gen *g)
{
    g->region_start = ntidx_writer_bytes(g->w);
    g->region_budget = g->region_base / 2 + ntidx_w_rng_below(&g->rng, (uint32_t)g->region_base);
}

static int end_region(gen *g, int final)
{
    uint32_t flags = 0;
    if (g->v6 && !final) {
        uint32_t k = g->regions + 1;
        if (g->o.metadata_flush_every && k % g->o.metadata_flush_every == 0)
            flags |= NTIDX_SP_FLUSH_METADATA;
        if (g->o.thread_flush_every && k % g->o.thread_flush_every == 0)
            flags |= NTIDX_SP_FLUSH_THREADS;
        /* Every other region boundary retires one thread. */
        if (g->o.remove_threads && k % 2 == 1) {
            gthread *t = &g->th[ntidx_w_rng_below(&g->rng, g->nth)];
            ntidx_thread_seq r = {t->index, t->seq};
            if (check(ntidx_writer_remove_threads(g->w, &r, 1), g))
                return g->rc;
            t->retired = 1;
            g->st.threads_removed++;
        }
    }
    ntidx_thread_seq *list = g->sp_list;
    size_t n = 0;
    for (uint32_t i = 0; i < g->nth; i++)
        if (!g->th[i].retired) {
            list[n].thread = g->th[i].index;
            list[n].sequence_number = g->th[i].seq;
            n++;
        }
    if (check(ntidx_writer_sequence_point(g->w, g->now, flags, list, n), g))
        return g->rc;
    g->regions++;
    g->st.sequence_points++;
    g->st.metadata_flushes += (flags & NTIDX_SP_FLUSH_METADATA) != 0;
    g->st.thread_flushes += (flags & NTIDX_SP_FLUSH_THREADS) != 0;
    if (final)
        return 0;
    for (uint32_t i = 0; i < g->nth; i++) {
        gthread *t = &g->th[i];
        if (t->retired) {
            new_thread(g, t, i);
            if (define_thread(g, t))
                return g->rc;
        } else if (flags & NTIDX_SP_FLUSH_THREADS) {
            /* The reader forgot every thread: each comes back as a new thread
             * index (same OS thread) whose sequence numbers start at 1 again,
             * since a V6 reader counts a new index's events from 1. */
            t->index = g->next_index++;
            t->seq = 0;
            if (define_thread(g, t))
                return g->rc;
        }
    }
    if (flags & NTIDX_SP_FLUSH_METADATA) {
        /* Re-defined under new ids, as a writer that forgot the old ones would. */
        g->meta_base += 1000;
        if (define_metadata(g))
            return g->rc;
    }
    if (define_stacks_and_labels(g))
        return g->rc;
    plan_region(g);
    return 0;
}

/* ---- events ---- */

static void emit(gen *g, gthread *t, uint64_t ts, int sorted)
{
    ntidx_w_rng *r = &g->rng;
    t->seq++;
    uint64_t x = ntidx_w_rng_next(r);
    if (g->drop_threshold && t->emitted && !sorted && ntidx_w_rng_next(r) < g->drop_threshold) {
        g->st.dropped++;
        return;
    }

    const ntidx_w_gen_schema *s = &g->schema;
    uint32_t type = s->pick[x & (NTIDX_W_GEN_PICKS - 1)];
    size_t v = (size_t)type * NTIDX_W_GEN_PAYLOAD_VARIANTS + ((x >> 6) & (NTIDX_W_GEN_PAYLOAD_VARIANTS - 1));

    ntidx_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.metadata_id = g->meta_base + type + 1;
    ev.sequence_number = t->seq;
    ev.capture_thread_index = t->index;
    ev.thread_index = t->index;
    if (((x >> 12) & 31) == 0) {
        /* Now and then a thread records an event about another thread. */
        gthread *o = &g->th[(x >> 17) % g->nth];
        if (!o->retired)
            ev.thread_index = o->index;
    }
    if (((x >> 22) & 63) == 0)
        t->cpu = (uint32_t)((x >> 28) & 7);
    ev.processor_number = t->cpu;
    ev.stack_id = ((x >> 31) & 3) == 0 ? 0 : 1 + (uint32_t)((x >> 33) % GEN_STACKS);
    ev.timestamp = ts;
    ev.is_sorted = sorted;
    ev.payload = s->pool.bytes + s->variant_offset[v];
    ev.payload_size = (uint32_t)(s->variant_offset[v + 1] - s->variant_offset[v]);
    uint8_t related[16];
    if (g->v6) {
        ev.label_list_id = ((x >> 40) & 1) ? 0 : 1 + (uint32_t)((x >> 41) % GEN_LABEL_LISTS);
        /* Readers decode the runtime's events by their version (TraceEvent's parsers, ntidx's manifest):
           a list that overrode it would say another layout than the payload's. Those events take the
           next list instead of the one with a Version label. */
        if (ev.label_list_id && (ev.label_list_id - 1) % 6 == 4 && !strcmp(s->types[type].meta.provider, "Microsoft-Windows-DotNETRuntime"))
            ev.label_list_id = ev.label_list_id % GEN_LABEL_LISTS + 1;
    } else {
        /* Activities change now and then; the event that starts one names its parent. */
        if (((x >> 48) & 127) == 0) {
            memcpy(related, t->activity, 16);
            if ((x >> 55) & 3)
                random_guid(g, t->activity);
            else
                memset(t->activity, 0, 16);
            ev.related_activity_id = related;
        }
        ev.activity_id = t->activity;
    }
    if (check(ntidx_writer_add_event(g->w, &ev), g)) {
        g->done = 1;
        return;
    }
    t->emitted = 1;
    g->events_written++;
    g->st.sorted_marks += sorted != 0;
    if (g->events_target ? g->events_written >= g->events_target
                         : ntidx_writer_bytes(g->w) >= g->o.target_bytes)
        g->done = 1;
}

/* One batch: a run of events per thread inside one time window, thread after thread. */
static void emit_batch(gen *g)
{
    ntidx_w_rng *r = &g->rng;
    uint32_t n = g->nth, total = 0;
    for (uint32_t i = 0; i < n; i++) {
        g->order[i] = i;
        g->run[i] = 1 + ntidx_w_rng_below(r, GEN_MAX_RUN);
        total += g->run[i];
    }
    for (uint32_t i = n - 1; i > 0; i--) { /* Fisher-Yates */
        uint32_t j = ntidx_w_rng_below(r, i + 1), tmp = g->order[i];
        g->order[i] = g->order[j];
        g->order[j] = tmp;
    }
    uint64_t width = (uint64_t)total * GEN_TICKS_PER_EVENT / 2 +
                     ntidx_w_rng_below(r, total * GEN_TICKS_PER_EVENT);
    for (uint32_t i = 0; i < n; i++) {
        /* Thread i writes at b0 + first, then every `step` ticks (plus jitter). */
        g->first[i] = 1 + ntidx_w_rng_below(r, (uint32_t)(width / 4));
        g->step[i] = (uint32_t)((width - 1 - g->first[i]) / g->run[i]);
    }
    /* The runs go out in the order of their first timestamps (the shuffle breaks ties). */
    for (uint32_t k = 1; k < n; k++) {
        uint32_t v = g->order[k], j = k;
        for (; j > 0 && g->first[g->order[j - 1]] > g->first[v]; j--)
            g->order[j] = g->order[j - 1];
        g->order[j] = v;
    }
    for (uint32_t k = 0; k < n && !g->done; k++) {
        uint32_t i = g->order[k];
        gthread *t = &g->th[i];
        for (uint32_t e = 0; e < g->run[i] && !g->done; e++) {
            uint64_t ts = g->now + g->first[i] + (uint64_t)e * g->step[i];
            if (e)
                ts += ntidx_w_rng_below(r, g->step[i]);
            emit(g, t, ts, e == 0);
        }
    }
    g->now += width;
}

static int gen_options_check(const ntidx_gen_options *o)
{
#define BAD(...) return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, __VA_ARGS__)
    if (o->format_version != 5 && o->format_version != 6)
        BAD("generator: format version %d is neither 5 nor 6", o->format_version);
    if (o->shape != NTIDX_GEN_SHAPE_NTIDX && o->shape != NTIDX_GEN_SHAPE_ONE_COLLECT)
        BAD("generator: unknown shape %d", o->shape);
    if (o->shape == NTIDX_GEN_SHAPE_ONE_COLLECT && o->format_version != 6)
        BAD("generator: the one-collect shape is V6 (one-collect writes nothing else)");
    if (o->unknown_end && o->shape != NTIDX_GEN_SHAPE_ONE_COLLECT)
        BAD("generator: an unknown end of capture is a one-collect shape option");
    if (o->threads == 0 || o->threads > 4096)
        BAD("generator: %u threads (1 to 4096)", o->threads);
    if (!(o->drop_rate >= 0.0 && o->drop_rate < 1.0))
        BAD("generator: drop rate %g is not in [0, 1)", o->drop_rate);
    /* Flushes and thread removal are V6 features. */
    if (o->format_version == 5 &&
        (o->metadata_flush_every || o->thread_flush_every || o->remove_threads))
        BAD("generator: metadata and thread flushes and thread removal need format version 6");
    if (!ntx_reserved_zero(o->reserved, sizeof o->reserved))
        BAD("generator options: reserved fields are not zero (fill them with ntidx_gen_options_defaults())");
    return NTIDX_OK;
#undef BAD
}

int ntidx_w_gen_progress(const ntidx_gen_options *o, const ntidx_writer *w, uint64_t events, uint64_t *mark)
{
    if (!o->progress || events >> 12 == *mark)
        return 0;
    *mark = events >> 12;
    uint64_t total = o->target_bytes ? o->target_bytes : o->events ? o->events : 100000;
    uint64_t done = o->target_bytes ? ntidx_writer_bytes(w) : events;
    return o->progress(o->progress_ctx, done < total ? done : total, total) ? NTIDX_E_CANCELLED : 0;
}

static int gen_run(gen *g)
{
    const ntidx_gen_options *o = &g->o;
    ntidx_w_rng_seed(&g->rng, o->seed);
    int rc = ntidx_w_gen_schema_init(&g->schema, o->format_version, &g->rng);
    if (rc)
        return rc;
    g->nth = o->threads;
    g->th = calloc(g->nth, sizeof(*g->th));
    g->order = calloc((size_t)g->nth * 4, sizeof(uint32_t));
    g->sp_list = calloc(g->nth, sizeof(*g->sp_list));
    if (!g->th || !g->order || !g->sp_list || build_stacks(g))
        return NTIDX_E_NOMEM;
    g->run = g->order + g->nth;
    g->first = g->run + g->nth;
    g->step = g->first + g->nth;
    build_labels(g);

    g->events_target = o->target_bytes ? 0 : (o->events ? o->events : 100000);
    /* Regions of ~1/8 of the trace, between 16 KB and 6 MB on average
     * (the runtime's sequence points come every few MB). */
    double est = o->target_bytes ? (double)o->target_bytes
                                 : (double)g->events_target * (g->schema.mean_payload + 6);
    double base = est / 8;
    g->region_base = base < 16384 ? 16384 : base > 6e6 ? 6000000 : (uint64_t)base;
    if (o->drop_rate > 0)
        g->drop_threshold = (uint64_t)(o->drop_rate * 18446744073709551616.0);

    g->next_index = 1;
    g->next_tid = 0x1000 + ntidx_w_rng_below(&g->rng, 0x4000);
    g->now = (uint64_t)GEN_SYNC_TICKS + 10000;
    for (uint32_t i = 0; i < g->nth; i++) {
        new_thread(g, &g->th[i], i);
        if (g->v6 && define_thread(g, &g->th[i]))
            return g->rc;
    }
    if (define_metadata(g) || define_stacks_and_labels(g))
        return g->rc;
    plan_region(g);
    uint64_t progress_mark = 0;
    while (!g->done) {
        emit_batch(g);
        if (g->rc)
            return g->rc;
        if ((rc = ntidx_w_gen_progress(o, g->w, g->events_written, &progress_mark)) < 0)
            return rc;
        if (!g->done && ntidx_writer_bytes(g->w) - g->region_start >= g->region_budget &&
            end_region(g, 0))
            return g->rc;
    }
    /* A last sequence point bounds the final region and its drops. */
    if (end_region(g, 1))
        return g->rc;
    rc = o->finish ? ntidx_writer_finish(g->w) : ntidx_writer_flush(g->w);
    return check(rc, g);
}

static void gen_free(gen *g)
{
    ntidx_w_gen_schema_free(&g->schema);
    free(g->th);
    free(g->order);
    free(g->sp_list);
    free(g->stack_bytes);
}

int ntidx_w_generate(int fd, const char *name, const ntidx_gen_options *o, uint8_t **data, size_t *size,
                     ntidx_w_gen_stats *stats)
{
    ntidx_gen_options defaults;
    if (!o) {
        ntidx_gen_options_defaults(&defaults);
        o = &defaults;
    }
    int rc = gen_options_check(o);
    if (rc)
        return rc;
    gen *g = calloc(1, sizeof(*g));
    if (!g)
        return NTIDX_E_NOMEM;
    g->o = *o;
    g->v6 = o->format_version == 6;

    ntidx_writer_options wo;
    ntidx_writer_options_defaults(&wo);
    if (o->shape == NTIDX_GEN_SHAPE_ONE_COLLECT) {
        /* one-collect's trace block: a 1 GHz clock, the CPU count and the ns between samples */
        wo.format_version = 6;
        wo.sync_ticks = NTIDX_W_OC_SYNC;
        wo.tick_frequency = 1000000000;
        wo.number_of_processors = 8;
        wo.expected_cpu_sampling_rate = 1000000;
        rc = fd >= 0 ? ntidx_writer_open_fd(fd, name, &wo, &g->w) : ntidx_writer_open_memory(&wo, &g->w);
        if (!rc)
            rc = ntidx_w_generate_one_collect(g->w, o, &g->st);
        g->events_written = g->st.events;
        goto written;
    }
    wo.format_version = o->format_version;
    wo.sync_ticks = GEN_SYNC_TICKS;
    wo.process_id = GEN_PID;
    wo.number_of_processors = 8;
    wo.expected_cpu_sampling_rate = 1000000;
    wo.compressed_headers = o->compressed_headers;
    char seed[24];
    snprintf(seed, sizeof(seed), "%llu", (unsigned long long)o->seed);
    const ntidx_keyvalue kv[] = {{"MachineName", "ntidx-gen"},
                                 {"OSInformation", "Linux 6.1"},
                                 {"Generator", "ntidx gen"},
                                 {"GeneratorSeed", seed}};
    wo.keyvalues = kv;
    wo.keyvalue_count = sizeof(kv) / sizeof(kv[0]);

    rc = fd >= 0 ? ntidx_writer_open_fd(fd, name, &wo, &g->w) : ntidx_writer_open_memory(&wo, &g->w);
    if (!rc)
        rc = gen_run(g);
written:
    if (!rc && data) {
        *data = ntidx_w_take_memory(g->w, size);
        if (!*data)
            rc = NTIDX_E_NOMEM;
    }
    int crc = ntidx_writer_close(&g->w);
    if (!rc)
        rc = crc;
    g->st.events = g->events_written;
    if (stats)
        *stats = g->st;
    gen_free(g);
    free(g);
    return rc;
}

NTIDX_API int ntidx_generate_fd(int fd, const char *name, const ntidx_gen_options *o)
{
    if (fd < 0)
        return ntx_failf(NTIDX_E_INVALID_ARG, name, NTIDX_NO_OFFSET, "ntidx_generate_fd: no descriptor");
    unsigned long said = ntx_error_count();
    int rc = ntidx_w_generate(fd, name, o, NULL, NULL, NULL);
    return rc < 0 && ntx_error_count() == said
               ? ntx_failf(rc, name, NTIDX_NO_OFFSET, "cannot generate: %s", ntidx_strerror(rc))
               : rc;
}

NTIDX_API int ntidx_generate_file(const char *path, const ntidx_gen_options *o)
{
    if (!path)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_generate_file: NULL path");
    /* A temporary beside `path`, renamed over it when complete: a failed run leaves `path` as it was. */
    ntidx_output *out;
    int rc = ntidx_output_open(path, &out);
    if (rc < 0)
        return rc;
    rc = ntidx_generate_fd(ntidx_output_fd(out), path, o);
    if (rc < 0) {
        ntidx_output_discard(&out);
        return rc;
    }
    return ntidx_output_commit(&out);
}

NTIDX_API int ntidx_generate_memory(const ntidx_gen_options *o, uint8_t **data, size_t *size)
{
    if (!data || !size)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_generate_memory: NULL argument");
    *data = NULL;
    *size = 0;
    unsigned long said = ntx_error_count();
    int rc = ntidx_w_generate(-1, NULL, o, data, size, NULL);
    if (rc < 0 && ntx_error_count() == said)
        ntx_failf(rc, NULL, NTIDX_NO_OFFSET, "cannot generate: %s", ntidx_strerror(rc));
    if (rc) {
        free(*data);
        *data = NULL;
        *size = 0;
    }
    return rc;
}
