/*
 * ntidx export --format speedscope: the sampled stacks of a window as a
 * speedscope file (https://www.speedscope.app/file-format-schema.json).
 *
 *   {"$schema":"https://www.speedscope.app/file-format-schema.json",
 *    "exporter":"ntidx 0.1.0","name":"trace.nettrace","activeProfileIndex":0,
 *    "shared":{"frames":[{"name":"System.Private.CoreLib!System.Threading.Thread.Sleep(int32)",
 *                         "file":"/path/System.Private.CoreLib.dll"},{"name":"?!?"},...]},
 *    "profiles":[{"type":"evented","name":"Thread 1464011","unit":"milliseconds",
 *                 "startValue":0.2,"endValue":10471.8,
 *                 "events":[{"type":"O","frame":0,"at":0.2},...,{"type":"C","frame":0,"at":10471.8}]},...]}
 *
 * Samples: by default the sample profiler's events (provider
 * Microsoft-DotNETCore-SampleProfiler, event id 0, `Thread/Sample`); with
 * --provider or --event, the stacks of the events those select instead
 * (allocation ticks, exceptions...). Events without a stack are skipped; a
 * window with no sample left is an error that says how to pick events (no
 * empty profile is written). One profile per thread (OS thread id), ordered
 * by thread id; activeProfileIndex is the thread with the most samples. A
 * sample's stack (ntidx_event.stack: pointer-size instruction pointers, leaf
 * first) is written root first, as speedscope wants.
 *
 * The sample profiler's samples are an "evented" profile in milliseconds
 * since the trace's sync time, as dotnet-trace's speedscope export writes
 * them: each sample at its own time, so the time axis is the trace's. A
 * sample lasts the sampling interval (the trace's ExpectedCPUSamplingRate,
 * in nanoseconds; 1 ms, the runtime's default, when the trace gives none);
 * frames a sample shares with the one just before it (from the root, when
 * the two touch) stay open, the others close where it ends, and its own open
 * where it starts. A sample that comes before the previous one's end (or
 * within a thousandth of an interval after it) starts at that end, so every
 * sample lasts exactly one interval: a frame's open time is its samples
 * times the interval, as in a "sampled" profile. For other events, which have
 * no duration, a "sampled" profile in unit "none": each sample weighs 1 and
 * the values run from 0 to the count.
 *
 * Frames: named as TraceEvent's stack source names them (dotnet-trace's own
 * speedscope export is built from it): an instruction pointer inside a method
 * the runtime reported is "module!Namespace.Method(args)", with `file` the
 * module's path where the trace gives one; any other address is "?!?", one
 * frame. The library's symbolizer (include/ntidx/symbols.h) names them from
 * the method and module events of the WHOLE trace, each address at its
 * event's time and as it is (no return-address adjustment, as TraceEvent);
 * one frame per name, so samples in the same method merge.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <ntidx/symbols.h>

#include "cli.h"
#include "export.h"
#include "u64map.h"

#define SAMPLER_PROVIDER "Microsoft-DotNETCore-SampleProfiler"
#define RUNTIME_PROVIDER "Microsoft-Windows-DotNETRuntime"
#define RUNDOWN_PROVIDER "Microsoft-Windows-DotNETRuntimeRundown"

/* Growable arrays. */
#define VEC(T)                                                                                                         \
    struct {                                                                                                           \
        T *v;                                                                                                          \
        size_t n, cap;                                                                                                 \
    }
#define VEC_PUSH(vec, x, fail)                                                                                         \
    do {                                                                                                               \
        if ((vec).n == (vec).cap) {                                                                                    \
            size_t c_ = (vec).cap ? (vec).cap * 2 : 64;                                                                \
            void *p_ = realloc((vec).v, c_ * sizeof *(vec).v);                                                         \
            if (!p_)                                                                                                   \
                goto fail;                                                                                             \
            (vec).v = p_;                                                                                              \
            (vec).cap = c_;                                                                                            \
        }                                                                                                              \
        (vec).v[(vec).n++] = (x);                                                                                      \
    } while (0)

/* ------------------------------------------------------------------ */
/* Frames, stacks and profiles                                         */
/* ------------------------------------------------------------------ */

typedef struct frame {
    char *name;
    const char *file; /* a module's path (owned by the module table) or NULL */
} frame;

typedef struct profile {
    uint64_t tid, pid;
    char *thread_name;
    uint64_t first_ts, last_ts;
    VEC(uint32_t) samples; /* stack ids */
    VEC(uint64_t) times;   /* each sample's timestamp (ticks), in time order */
} profile;

typedef struct ss {
    export_job *job;
    const ntidx_trace_info *info;
    ntidx_symbolizer *symbols;
    VEC(frame) frames;
    /* Every address no method covers is one frame, "?!?", as dotnet-trace's speedscope export and PerfView
       name it (TraceEvent's module "?" and method "?"): profiles then compare frame by frame with theirs. */
    uint32_t unknown_frame; /* UINT32_MAX until the first such address */
    u64map method_frames; /* the symbolizer's frame id -> frame */
    /* Interned stacks: frame indices root first, in one pool. */
    VEC(uint32_t) pool;
    VEC(uint64_t) stack_at; /* stack id -> its first frame in the pool */
    VEC(uint32_t) stack_len;
    u64map stack_by_hash; /* chained through stack_next */
    VEC(uint32_t) stack_next;
    VEC(profile) profiles;
    u64map profile_by_tid;
    VEC(uint32_t) scratch;
    uint64_t no_stack, resolved_frames, total_frames;
} ss;

static char *dupn(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

/* The frame of an instruction pointer in an event at time `ts`; UINT32_MAX when out of memory. Frames are
   TraceEvent's: one per name ("module!method", "?!?"), addresses taken as they are. */
static uint32_t frame_of(ss *s, uint64_t ip, uint64_t ts)
{
    ntidx_symbol sym;
    s->total_frames++;
    frame fr = {NULL, NULL};
    int found = ntidx_symbolizer_lookup_at(s->symbols, ip, 0, ts, &sym);
    if (!found) {
        if (s->unknown_frame != UINT32_MAX)
            return s->unknown_frame;
        if (!(fr.name = dupn("?!?", 3)))
            return UINT32_MAX;
        VEC_PUSH(s->frames, fr, nomem_unknown);
        return s->unknown_frame = (uint32_t)(s->frames.n - 1);
    nomem_unknown:
        free(fr.name);
        return UINT32_MAX;
    }
    int seen;
    uint32_t *slot = u64map_slot(&s->method_frames, sym.frame_id, &seen);
    if (!slot)
        return UINT32_MAX;
    s->resolved_frames++;
    if (seen)
        return *slot;
    int n = ntidx_symbol_frame_name(&sym, NULL, 0);
    fr.name = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!fr.name)
        goto nomem;
    ntidx_symbol_frame_name(&sym, fr.name, (size_t)n + 1);
    fr.file = sym.module_path;
    VEC_PUSH(s->frames, fr, nomem);
    *slot = (uint32_t)(s->frames.n - 1);
    s->method_frames.count++;
    return *slot;
nomem:
    free(fr.name);
    /* The slot holds a key without a value: mark it empty again (no tombstones needed: nothing was probed past it). */
    *slot = UINT32_MAX;
    return UINT32_MAX;
}

static uint64_t hash_frames(const uint32_t *f, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull ^ n;
    for (size_t i = 0; i < n; i++)
        h = (h ^ f[i]) * 0x100000001b3ull;
    return h;
}

/* Intern the stack in s->scratch (root first): its id, or UINT32_MAX when out of memory. */
static uint32_t intern_stack(ss *s)
{
    const uint32_t *f = s->scratch.v;
    size_t n = s->scratch.n;
    uint64_t h = hash_frames(f, n);
    int found;
    uint32_t *slot = u64map_slot(&s->stack_by_hash, h, &found);
    if (!slot)
        return UINT32_MAX;
    if (found) {
        for (uint32_t id = *slot; id != UINT32_MAX; id = s->stack_next.v[id])
            if (s->stack_len.v[id] == n && (n == 0 || !memcmp(s->pool.v + s->stack_at.v[id], f, n * sizeof *f)))
                return id;
    }
    uint32_t id = (uint32_t)s->stack_at.n;
    uint32_t chain = found ? *slot : UINT32_MAX;
    VEC_PUSH(s->stack_at, (uint64_t)s->pool.n, nomem);
    VEC_PUSH(s->stack_len, (uint32_t)n, nomem);
    VEC_PUSH(s->stack_next, chain, nomem);
    for (size_t i = 0; i < n; i++)
        VEC_PUSH(s->pool, f[i], nomem);
    if (!found)
        s->stack_by_hash.count++;
    *slot = id;
    return id;
nomem:
    if (!found)
        *slot = UINT32_MAX;
    return UINT32_MAX;
}

static int add_sample(ss *s, const ntidx_event *e)
{
    uint32_t ps = s->info->pointer_size;
    size_t depth = e->stack ? e->stack_size / ps : 0;
    if (!depth) {
        s->no_stack++;
        return 0;
    }
    s->scratch.n = 0;
    for (size_t i = depth; i-- > 0;) { /* leaf first in the trace: root first here */
        const uint8_t *p = e->stack + i * ps;
        uint64_t ip = 0;
        for (uint32_t b = 0; b < ps; b++)
            ip |= (uint64_t)p[b] << (8 * b);
        uint32_t fi = frame_of(s, ip, e->timestamp);
        if (fi == UINT32_MAX)
            return NTIDX_E_NOMEM;
        VEC_PUSH(s->scratch, fi, nomem);
    }
    uint32_t sid = intern_stack(s);
    if (sid == UINT32_MAX)
        return NTIDX_E_NOMEM;
    int found;
    uint32_t *slot = u64map_slot(&s->profile_by_tid, e->thread_id, &found);
    if (!slot)
        return NTIDX_E_NOMEM;
    if (!found) {
        profile p = {0};
        p.tid = e->thread_id;
        p.pid = e->thread && e->thread->has_os_process_id ? e->thread->os_process_id : s->info->process_id;
        p.first_ts = e->timestamp;
        VEC_PUSH(s->profiles, p, nomem_slot);
        *slot = (uint32_t)(s->profiles.n - 1);
        s->profile_by_tid.count++;
    }
    profile *p = &s->profiles.v[*slot];
    if (!p->thread_name && e->thread && e->thread->name && e->thread->name[0]) {
        p->thread_name = dupn(e->thread->name, strlen(e->thread->name));
        if (!p->thread_name)
            return NTIDX_E_NOMEM;
    }
    p->last_ts = e->timestamp;
    VEC_PUSH(p->samples, sid, nomem);
    VEC_PUSH(p->times, e->timestamp, nomem);
    return 0;
nomem_slot:
    *slot = UINT32_MAX;
nomem:
    return NTIDX_E_NOMEM;
}

static int cmp_profile(const void *a, const void *b)
{
    const profile *x = a, *y = b;
    return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* A number with enough digits for nanoseconds in milliseconds, trailing zeros trimmed. */
static const char *format_number(char *buf, size_t len, long double v)
{
    snprintf(buf, len, "%.6Lf", v);
    char *dot = strchr(buf, '.');
    if (dot) {
        char *end = buf + strlen(buf);
        while (end > dot + 1 && end[-1] == '0')
            *--end = 0;
        if (end == dot + 1)
            *dot = 0;
    }
    return buf;
}

/* One open or close event of an evented profile. */
static void write_event(FILE *f, int *first, char type, uint32_t frame, long double at)
{
    char nb[64];
    fprintf(f, "%s{\"type\":\"%c\",\"frame\":%u,\"at\":%s}", *first ? "" : ",", type, frame,
            format_number(nb, sizeof nb, at));
    *first = 0;
}

/*
 * A thread's samples as open and close events at their times (milliseconds since the sync time), each
 * sample lasting `interval` (the file comment says how). `open` holds the open frames, root first (room
 * for the deepest stack). Returns the last event's time; *start the first's.
 */
static long double write_events(ss *s, const profile *p, long double interval, uint32_t *open, long double *start)
{
    FILE *f = s->job->out;
    int first = 1;
    size_t open_n = 0;
    long double end = 0; /* where the last sample ends */
    for (size_t k = 0; k < p->samples.n; k++) {
        uint32_t sid = p->samples.v[k];
        const uint32_t *fr = s->pool.v + s->stack_at.v[sid];
        size_t n = s->stack_len.v[sid];
        long double t = export_ticks_to_us(s->info, p->times.v[k]) / 1000.0L;
        int touches = k > 0 && t <= end + interval / 1000;
        long double at = k == 0 ? t : touches ? end : t;
        if (k == 0)
            *start = at;
        size_t same = 0;
        while (touches && same < open_n && same < n && open[same] == fr[same])
            same++;
        while (open_n > same)
            write_event(f, &first, 'C', open[--open_n], end);
        for (; open_n < n; open_n++)
            write_event(f, &first, 'O', open[open_n] = fr[open_n], at);
        end = at + interval;
    }
    while (open_n > 0)
        write_event(f, &first, 'C', open[--open_n], end);
    return end;
}

static int write_file(ss *s, int sampler, long double weight)
{
    FILE *f = s->job->out;
    const char *base = s->job->trace_path;
    for (const char *p = base; *p; p++)
        if (*p == '/')
            base = p + 1;
    if (s->profiles.n > 1) /* qsort(NULL, 0, ...) is undefined */
        qsort(s->profiles.v, s->profiles.n, sizeof *s->profiles.v, cmp_profile);
    size_t active = 0;
    for (size_t i = 1; i < s->profiles.n; i++)
        if (s->profiles.v[i].samples.n > s->profiles.v[active].samples.n)
            active = i;
    fprintf(f, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"exporter\":\"ntidx %s\",\"name\":",
            ntidx_version());
    cli_json_str(f, base);
    fprintf(f, ",\"activeProfileIndex\":%zu,\n\"shared\":{\"frames\":[", active);
    for (size_t i = 0; i < s->frames.n; i++) {
        fputs(i ? ",\n{\"name\":" : "\n{\"name\":", f);
        cli_json_str(f, s->frames.v[i].name);
        if (s->frames.v[i].file) {
            fputs(",\"file\":", f);
            cli_json_str(f, s->frames.v[i].file);
        }
        fputc('}', f);
    }
    fputs("]},\n\"profiles\":[", f);
    size_t deepest = 1;
    for (size_t i = 0; i < s->stack_len.n; i++)
        deepest = s->stack_len.v[i] > deepest ? s->stack_len.v[i] : deepest;
    uint32_t *open = malloc(deepest * sizeof *open);
    if (!open)
        return NTIDX_E_NOMEM;
    for (size_t i = 0; i < s->profiles.n; i++) {
        const profile *p = &s->profiles.v[i];
        char name[400];
        if (p->thread_name)
            snprintf(name, sizeof name, "%s (thread %" PRIu64 ")", p->thread_name, p->tid);
        else
            snprintf(name, sizeof name, "Thread %" PRIu64, p->tid);
        fprintf(f, "%s\n{\"type\":\"%s\",\"name\":", i ? "," : "", sampler ? "evented" : "sampled");
        cli_json_str(f, name);
        char nb[64];
        if (sampler) {
            /* the events first: startValue and endValue are their first and last times (JSON keys have no order) */
            fputs(",\"unit\":\"milliseconds\",\n\"events\":[", f);
            long double start = 0, end = write_events(s, p, weight, open, &start);
            fprintf(f, "],\n\"startValue\":%s", format_number(nb, sizeof nb, start));
            fprintf(f, ",\"endValue\":%s}", format_number(nb, sizeof nb, end));
            continue;
        }
        fprintf(f, ",\"unit\":\"none\",\"startValue\":0,\"endValue\":%zu", p->samples.n);
        fputs(",\n\"samples\":[", f);
        for (size_t k = 0; k < p->samples.n; k++) {
            uint32_t sid = p->samples.v[k];
            const uint32_t *fr = s->pool.v + s->stack_at.v[sid];
            fputs(k ? ",[" : "[", f);
            for (uint32_t d = 0; d < s->stack_len.v[sid]; d++)
                fprintf(f, d ? ",%u" : "%u", fr[d]);
            fputc(']', f);
        }
        fputs("],\n\"weights\":[", f);
        char w[64];
        format_number(w, sizeof w, weight);
        for (size_t k = 0; k < p->samples.n; k++) {
            if (k)
                fputc(',', f);
            fputs(w, f);
        }
        fputs("]}", f);
    }
    free(open);
    fputs("\n]}\n", f);
    return 0;
}

static void ss_free(ss *s)
{
    ntidx_symbolizer_close(&s->symbols);
    for (size_t i = 0; i < s->frames.n; i++)
        free(s->frames.v[i].name);
    for (size_t i = 0; i < s->profiles.n; i++) {
        free(s->profiles.v[i].thread_name);
        free(s->profiles.v[i].samples.v);
        free(s->profiles.v[i].times.v);
    }
    free(s->frames.v);
    free(s->profiles.v);
    free(s->pool.v);
    free(s->stack_at.v);
    free(s->stack_len.v);
    free(s->stack_next.v);
    free(s->scratch.v);
    u64map_free(&s->method_frames);
    u64map_free(&s->stack_by_hash);
    u64map_free(&s->profile_by_tid);
}

int export_speedscope(export_job *job, uint64_t *events_written)
{
    ss s;
    memset(&s, 0, sizeof s);
    s.unknown_frame = UINT32_MAX;
    s.job = job;
    s.info = ntidx_trace_get_info(job->trace);
    int ret = -1, rc;
    ntidx_query *q = NULL;
    if (ntidx_symbolizer_open(job->trace, job->index, &s.symbols) < 0) {
        cli_library_error();
        goto out;
    }

    ntidx_query_options o = job->query;
    int sampler = !job->has_filter;
    if (sampler) {
        o.provider = SAMPLER_PROVIDER;
        o.has_event_id = 1;
        o.event_id = 0;
        o.event_name = NULL;
    }
    rc = ntidx_query_open(job->trace, job->index, &o, &q);
    if (rc < 0) {
        cli_library_error();
        goto out;
    }
    const ntidx_event *e;
    uint64_t n = 0;
    export_progress_begin(job, &o);
    while ((rc = ntidx_query_next(q, &e)) == 1) {
        if ((rc = add_sample(&s, e)) < 0)
            break;
        export_progress(job, q, ++n);
    }
    if (rc < 0) {
        if (rc == NTIDX_E_NOMEM)
            cli_error("%s: out of memory", job->trace_path);
        else
            cli_library_error();
        goto out;
    }
    if (n == s.no_stack) {
        /* no profile of nothing: say what was there and how to choose other events */
        if (sampler)
            cli_error("%s: no samples to export: the window holds no %s Thread/Sample events with a stack "
                      "(a trace recorded without the sample profiler?); to export the stacks of other events, pick "
                      "them with --event NAME (GC/AllocationTick, Exception/Start, ...) or --provider P",
                      job->trace_path, SAMPLER_PROVIDER);
        else
            cli_error("%s: no samples to export: %" PRIu64 " events in the window match --provider/--event, none "
                      "with a stack; pick events that carry stacks with --event NAME (GC/AllocationTick, "
                      "Exception/Start, ...) or --provider P",
                      job->trace_path, n);
        goto out;
    }
    long double weight = 1;
    if (sampler && s.info->expected_cpu_sampling_rate)
        weight = (long double)s.info->expected_cpu_sampling_rate / 1e6L; /* ns -> ms */
    if (write_file(&s, sampler, weight) < 0) {
        cli_error("%s: out of memory", job->trace_path);
        goto out;
    }
    cli_note("speedscope: %" PRIu64 " samples on %zu threads (%" PRIu64 " without a stack, skipped); %zu methods "
             "known; %" PRIu64 " of %" PRIu64 " frames named",
             n - s.no_stack, s.profiles.n, s.no_stack, (size_t)ntidx_symbolizer_method_count(s.symbols),
             s.resolved_frames, s.total_frames);
    *events_written = n - s.no_stack;
    ret = 0;
out:
    ntidx_query_close(&q);
    ss_free(&s);
    return ret;
}
