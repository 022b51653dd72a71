/*
 * The activities analysis: EventSource Start/Stop pairs matched by activity
 * id and nested by their creators, as TraceEvent's
 * StartStopActivityComputer computes them (include/ntidx/analysis.h,
 * ntidx_activities_analyze), over the window's work units in parallel.
 *
 * Which events count (TraceEvent's dispatch to OnStart and OnStop) is
 * decided here, per event type (classify()); what a Start and a Stop do is
 * activity_machine.c.
 *
 * Why a replay, not pairs. A Stop ends the activity open under its id when
 * it comes, which is the latest Start of that id, or the creator of one that
 * stopped if it shares the id; and an activity's creator is the activity
 * open under its related id, else the one current on its thread, skipping
 * creators already stopped. Each answer depends on every Start and Stop
 * before it, of any id and any thread, not on a key's events alone. So the
 * units do what costs (reading the blocks, decoding the events, telling
 * which are Starts and Stops, and of what) in parallel, and keep each as a
 * compact event on a tape (what a Start or Stop tells the computer, ~25
 * bytes: see put_ev()); the merge runs the computer over the tapes in time order, a
 * hash lookup or two per event. Every activity is thus what one pass over
 * the window's events gives, whatever the number of threads and the cut
 * into units.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "activity_machine.h"
#include "tape.h"
#include "analysis_internal.h"
#include "cell_text.h"
#include "fields.h"
#include "idmap.h"
#include "keymap.h"
#include "search.h"
#include "trace_types.h"

#define RUNTIME "Microsoft-Windows-DotNETRuntime"
enum { EV_THREADPOOL_WAIT = 57, EV_EXCEPTION_CATCH_START = 250, EV_EXCEPTION_CATCH_STOP = 251 };
enum { OPCODE_INFO = 0, OPCODE_START = 1, OPCODE_STOP = 2 };

/* ---- Which events are Starts and Stops (StartStopActivityComputer's constructor) ---- */

enum {
    K_NONE = 0,
    K_START,          /* an EventSource Start whose activity id is an activity path */
    K_STOP,           /* its Stop */
    K_START_ANY,      /* a Start taken whatever its activity id (Microsoft-Diagnostics-ActivityTracking) */
    K_STOP_ANY,
    K_DS_START,       /* Microsoft-Diagnostics-DiagnosticSource: named by its EventName field */
    K_AI_START,       /* Microsoft-ApplicationInsights-Data Request/Start: not when it has a related id */
    K_EXC_START,      /* the runtime's ExceptionCatch/Start: "ExceptionHandling" */
    K_EXC_STOP,
    K_RESTART,        /* the runtime's ThreadPoolWorkerThread/Wait (ActivityComputer's AutoRestart) */
    K_ADO_BEGIN,      /* Microsoft-AdoNet-SystemData BeginExecute: "SQLCommand", keyed by its objectId */
    K_ADO_END         /* its EndExecute */
};

/* Providers whose TraceEvent GUID is not an EventSource's (TraceEventProviders.MaybeAnEventSource), or
   whose Starts TraceEvent takes only from ETW (ASP.NET, WCF): their Start/Stop opcodes are not activities. */
static const char *const not_event_sources[] = {
    "System.Threading.Tasks.TplEventSource",    "Microsoft-Windows-DotNETRuntimePrivate",
    "Microsoft-Windows-DotNETRuntimeRundown",   "Microsoft-Windows-DotNETRuntimeStress",
    "FrameworkEventSource",                     "Microsoft-Windows-Application Server-Applications",
    "Microsoft-Windows-ASPNET",
};

static int ends_ci(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    if (n < k)
        return 0;
    for (size_t i = 0; i < k; i++) {
        char a = s[n - k + i], b = suffix[i];
        if ((a >= 'A' && a <= 'Z' ? a + 32 : a) != (b >= 'A' && b <= 'Z' ? b + 32 : b))
            return 0;
    }
    return 1;
}

/* The event's opcode as TraceEvent takes it (the metadata's, else implied by a name ending in Start or Stop)
   and its TaskName (the name without that Start or Stop). */
static int task_of(const ntidx_metadata *m, const char **task, size_t *len)
{
    const char *name = m->name_in_trace ? m->name_in_trace : m->event_name ? m->event_name : "";
    size_t n = strlen(name);
    int op = m->opcode >= 0 ? m->opcode : ends_ci(name, n, "Start") ? OPCODE_START : ends_ci(name, n, "Stop") ? OPCODE_STOP : OPCODE_INFO;
    if (op == OPCODE_START && ends_ci(name, n, "Start"))
        n -= 5;
    else if (op == OPCODE_STOP && ends_ci(name, n, "Stop"))
        n -= 4;
    *task = name;
    *len = n;
    return op;
}

static int named(const char *s, size_t n, const char *want) { return strlen(want) == n && !memcmp(s, want, n); }

static int classify(const ntidx_metadata *m)
{
    const char *p = m->provider ? m->provider : "";
    if (!strcmp(p, RUNTIME))
        return m->event_id == EV_EXCEPTION_CATCH_START ? K_EXC_START
               : m->event_id == EV_EXCEPTION_CATCH_STOP ? K_EXC_STOP
               : m->event_id == EV_THREADPOOL_WAIT      ? K_RESTART
                                                        : K_NONE;
    for (size_t i = 0; i < sizeof not_event_sources / sizeof not_event_sources[0]; i++)
        if (!strcmp(p, not_event_sources[i]))
            return K_NONE;
    const char *task;
    size_t len;
    int op = task_of(m, &task, &len);
    if (op != OPCODE_START && op != OPCODE_STOP) {
        /* SqlClient's commands: Info events that TraceEvent makes Starts and Stops */
        if (op == OPCODE_INFO && !strcmp(p, "Microsoft-AdoNet-SystemData"))
            return m->event_id == 1 ? K_ADO_BEGIN : m->event_id == 2 ? K_ADO_END : K_NONE;
        /* OpenTelemetry's activities: Info events too, taken whatever their activity id */
        if (op == OPCODE_INFO && !strcmp(p, "OpenTelemetry-Sdk"))
            return named(task, len, "ActivityStarted") ? K_START_ANY : named(task, len, "ActivityStopped") ? K_STOP_ANY : K_NONE;
        return K_NONE;
    }
    int start = op == OPCODE_START;
    if (!strcmp(p, "Microsoft-ApplicationInsights-Data")) /* its Request pairs only */
        return !named(task, len, "Request") ? K_NONE : start ? K_AI_START : K_STOP_ANY;
    if (!strcmp(p, "Microsoft-Diagnostics-ActivityTracking"))
        return start ? K_START_ANY : K_STOP_ANY;
    if (!strcmp(p, "Microsoft-Diagnostics-DiagnosticSource"))
        return start ? K_DS_START : K_STOP;
    return start ? K_START : K_STOP;
}

/* A type the analysis reads; *saw_start set when it is a Start. */
static int wanted(void *saw_start, const ntidx_metadata *m)
{
    int k = classify(m);
    if (k == K_START || k == K_START_ANY || k == K_DS_START || k == K_AI_START || k == K_EXC_START || k == K_ADO_BEGIN)
        *(int *)saw_start = 1;
    return k != K_NONE;
}

/* The event types of the trace the analysis reads: those classify() takes, by provider and id; none when
   the trace defines no Start (its thread pool waits and Stops alone make no activity). */
static int plan_types(const ntx_an_ctx *ctx, ntx_event_type **out, size_t *n, ntx_err *err)
{
    int saw_start = 0;
    int rc = ntx_trace_types(ctx->t, ctx->x, ctx->o->threads, wanted, &saw_start, out, n, err);
    if (rc == 0 && !saw_start)
        *n = 0;
    return rc;
}

/* ---- Strings: providers and task names, each stored once ---- */

typedef struct strtab {
    char **v;
    size_t n, cap;
    ntx_kmap index; /* (hash, k) -> id: the k-th string with that hash */
} strtab;

static uint64_t str_hash(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 0x100000001b3ull;
    return h;
}

static void strtab_free(strtab *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->v[i]);
    free(t->v);
    ntx_kmap_free(&t->index);
    memset(t, 0, sizeof *t);
}

/* The id of s[0, n): 0 or NTIDX_E_NOMEM. */
static int intern(strtab *t, const char *s, size_t n, uint32_t *id)
{
    uint64_t h = str_hash(s, n), k = 0, v;
    for (; ntx_kmap_get(&t->index, h, k, &v); k++)
        if (strlen(t->v[v]) == n && !memcmp(t->v[v], s, n)) {
            *id = (uint32_t)v;
            return 0;
        }
    if (t->n == t->cap) {
        size_t nc = t->cap ? t->cap * 2 : 32;
        char **nv = realloc(t->v, nc * sizeof *nv);
        if (!nv)
            return NTIDX_E_NOMEM;
        t->v = nv;
        t->cap = nc;
    }
    char *copy = malloc(n + 1);
    if (!copy)
        return NTIDX_E_NOMEM;
    memcpy(copy, s, n);
    copy[n] = 0;
    if (ntx_kmap_put(&t->index, h, k, t->n) < 0) {
        free(copy);
        return NTIDX_E_NOMEM;
    }
    t->v[t->n] = copy;
    *id = (uint32_t)t->n++;
    return 0;
}

/* ---- Intake: an event to a compact one ---- */

/* What an event type is to the analysis, cached per type. */
typedef struct type_info {
    int kind;
    uint32_t task, provider; /* string ids */
} type_info;

typedef struct intake {
    strtab strings;
    ntx_idmap types;        /* ntidx_metadata_key() -> type_info (owned) */
    type_info **owned;
    size_t nowned, owned_cap;
} intake;

static void intake_free(intake *in)
{
    strtab_free(&in->strings);
    ntx_idmap_free(&in->types);
    for (size_t i = 0; i < in->nowned; i++)
        free(in->owned[i]);
    free(in->owned);
}

static const type_info *type_of(intake *in, const ntidx_metadata *m)
{
    uint64_t key = ntidx_metadata_key(m);
    type_info *ti = ntx_idmap_get(&in->types, key);
    if (ti)
        return ti;
    if (in->nowned == in->owned_cap) {
        size_t nc = in->owned_cap ? in->owned_cap * 2 : 16;
        type_info **no = realloc(in->owned, nc * sizeof *no);
        if (!no)
            return NULL;
        in->owned = no;
        in->owned_cap = nc;
    }
    ti = calloc(1, sizeof *ti);
    if (!ti)
        return NULL;
    in->owned[in->nowned++] = ti;
    ti->kind = classify(m);
    const char *task;
    size_t len;
    task_of(m, &task, &len);
    if (ti->kind == K_EXC_START) {
        task = "ExceptionHandling";
        len = strlen(task);
    } else if (ti->kind == K_ADO_BEGIN) {
        task = "SQLCommand";
        len = strlen(task);
    }
    const char *p = m->provider ? m->provider : "";
    if (intern(&in->strings, task, len, &ti->task) < 0 || intern(&in->strings, p, strlen(p), &ti->provider) < 0 ||
        ntx_idmap_put(&in->types, key, ti) < 0)
        return NULL;
    return ti;
}

/* The event's activity id and related activity id: the header's (V3-V5) or its labels' (V6); zero when it
   has none. */
static void ids_of(const ntidx_event *ev, uint8_t id[16], uint8_t related[16])
{
    memset(id, 0, 16);
    memset(related, 0, 16);
    if (ev->activity_id)
        memcpy(id, ev->activity_id, 16);
    if (ev->related_activity_id)
        memcpy(related, ev->related_activity_id, 16);
    if (ev->label_list) {
        const uint8_t *p = ev->label_list, *end = p + ev->label_list_size;
        ntidx_label l;
        while (ntidx_label_next(&p, end, &l) == 1)
            if (l.kind == NTIDX_LABEL_ACTIVITY_ID)
                memcpy(id, l.guid, 16);
            else if (l.kind == NTIDX_LABEL_RELATED_ACTIVITY_ID)
                memcpy(related, l.guid, 16);
    }
}

static int is_zero_id(const uint8_t id[16])
{
    for (int i = 0; i < 16; i++)
        if (id[i])
            return 0;
    return 1;
}

/* AdoNet's activity id of a command: its objectId, then 1234, 5, 7, 7, 8, ..., 13 (TraceEvent's SQL ids).
   0; 1 when the field is missing (or the payload does not fit its layout); < 0 with err set. */
static int ado_id(const ntx_an_event *e, uint8_t id[16], ntx_err *err)
{
    const ntidx_values *vals;
    int rc = ntx_an_values(e, &vals, err);
    if (rc != 0)
        return rc;
    const ntidx_value *v = ntidx_values_find(vals, "objectId");
    if (!v || (v->kind != NTIDX_VALUE_INT && v->kind != NTIDX_VALUE_UINT))
        return 1;
    uint32_t obj = v->kind == NTIDX_VALUE_INT ? (uint32_t)v->i : (uint32_t)v->u;
    static const uint8_t tail[12] = {0xD2, 0x04, 0x05, 0x00, 7, 7, 8, 9, 10, 11, 12, 13};
    for (int i = 0; i < 4; i++)
        id[i] = (uint8_t)(obj >> (8 * i));
    memcpy(id + 4, tail, 12);
    return 0;
}

/*
 * The event as the computer sees it, in *out: 1 when it is one (a Start, a
 * Stop, a thread pool thread going back to wait), 0 when TraceEvent's
 * computer would pass it by, 2 when a field it needs is missing (a field
 * error), < 0 with err set. Payloads are decoded only where a field is read
 * (lazy_payload): most Starts and Stops need none.
 */
static int take(intake *in, const ntx_an_event *e, act_ev *out, ntx_err *err)
{
    const type_info *ti = type_of(in, e->ev->metadata);
    if (!ti)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    int rc;
    if (ti->kind == K_NONE)
        return 0;
    memset(out, 0, sizeof *out);
    out->ts = e->ts;
    out->thread = e->thread;
    out->pid = e->pid;
    out->name = ti->task;
    out->provider = ti->provider;
    uint8_t related[16];
    ids_of(e->ev, out->id, related);
    switch (ti->kind) {
    case K_RESTART:
        out->kind = ACT_EV_RESTART;
        return 1;
    case K_START:
    case K_DS_START:
    case K_STOP:
        /* EventSource's Start/Stop pairs: only those whose id is an activity path */
        if (!act_is_activity_path(out->id, e->pid))
            return 0;
        break;
    case K_AI_START:
        /* a Request with a related activity is already tracked by an outer one (TraceEvent's default) */
        if (!is_zero_id(related)) {
            static const uint8_t one[16] = {1};
            if (memcmp(related, one, 16))
                return 0;
        }
        break;
    case K_ADO_BEGIN:
        memcpy(out->context, out->id, 16);
        if ((rc = ado_id(e, out->id, err)) != 0)
            return rc < 0 ? rc : 2;
        out->creator = ACT_CREATOR_CURRENT;
        break;
    case K_ADO_END:
        if ((rc = ado_id(e, out->id, err)) != 0)
            return rc < 0 ? rc : 2;
        break;
    }
    int start = ti->kind == K_START || ti->kind == K_DS_START || ti->kind == K_AI_START || ti->kind == K_START_ANY ||
                ti->kind == K_EXC_START || ti->kind == K_ADO_BEGIN;
    out->kind = start ? ACT_EV_START : ACT_EV_STOP;
    if (start)
        memcpy(out->related, related, 16);
    if (ti->kind == K_DS_START) { /* named by its EventName, when it is a string */
        const ntidx_values *vals;
        if ((rc = ntx_an_values(e, &vals, err)) != 0)
            return rc < 0 ? rc : 2;
        const ntidx_value *v = ntidx_values_find(vals, "EventName");
        if (v && v->kind == NTIDX_VALUE_STRING && intern(&in->strings, v->str, v->len, &out->name) < 0)
            return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    }
    return 1;
}

/* ---- Units: the tape ---- */

/*
 * A unit's compact events, one after the other, as few bytes as they take: a
 * unit holds an eighth of a big trace's Starts and Stops (millions), and the
 * units the merge has not reached yet wait in memory. An event is
 *   a byte of flags: its kind (TAPE_KIND), TAPE_CURRENT (creator
 *     ACT_CREATOR_CURRENT), TAPE_RELATED, TAPE_CONTEXT (the ids that follow),
 *     TAPE_PID (its pid follows: not the trace's);
 *   its ts minus the previous event's (zigzag, LEB128), its thread (LEB128),
 *     [its pid];
 *   a Start: its name and provider ids (LEB128);
 *   a Start or Stop: its id (16 bytes), [related (16)], [context (16)].
 */
enum { TAPE_KIND = 3, TAPE_CURRENT = 4, TAPE_RELATED = 8, TAPE_CONTEXT = 16, TAPE_PID = 32 };
#define TAPE_EV_MAX (1 + 3 * 10 + 2 * 5 + 3 * 16)

static uint8_t *put_varint(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

/* The tape is this unit's own writing: read without bounds checks beyond its end. */
static const uint8_t *get_varint(const uint8_t *p, uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned shift = 0;; shift += 7) {
        uint8_t b = *p++;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            break;
    }
    *v = x;
    return p;
}

/* e as the bytes above at p (at most TAPE_EV_MAX); returns the end. */
static uint8_t *put_ev(uint8_t *p, const act_ev *e, uint64_t prev_ts, uint32_t trace_pid)
{
    uint8_t flags = (uint8_t)e->kind;
    int start = e->kind == ACT_EV_START, with_id = start || e->kind == ACT_EV_STOP;
    int related = start && !is_zero_id(e->related), context = start && !is_zero_id(e->context);
    flags |= e->creator == ACT_CREATOR_CURRENT ? TAPE_CURRENT : 0;
    flags |= related ? TAPE_RELATED : 0;
    flags |= context ? TAPE_CONTEXT : 0;
    flags |= e->pid != trace_pid ? TAPE_PID : 0;
    *p++ = flags;
    int64_t d = (int64_t)(e->ts - prev_ts);
    p = put_varint(p, ((uint64_t)d << 1) ^ (uint64_t)(d >> 63));
    p = put_varint(p, e->thread);
    if (flags & TAPE_PID)
        p = put_varint(p, e->pid);
    if (start) {
        p = put_varint(p, e->name);
        p = put_varint(p, e->provider);
    }
    if (with_id) {
        memcpy(p, e->id, 16);
        p += 16;
    }
    if (related) {
        memcpy(p, e->related, 16);
        p += 16;
    }
    if (context) {
        memcpy(p, e->context, 16);
        p += 16;
    }
    return p;
}

/* The event put_ev() wrote at p, into e; returns its end. */
static const uint8_t *get_ev(const uint8_t *p, act_ev *e, uint64_t prev_ts, uint32_t trace_pid)
{
    memset(e, 0, sizeof *e);
    uint8_t flags = *p++;
    uint64_t v;
    e->kind = flags & TAPE_KIND;
    e->creator = flags & TAPE_CURRENT ? ACT_CREATOR_CURRENT : ACT_CREATOR_RELATED;
    p = get_varint(p, &v);
    e->ts = prev_ts + ((v >> 1) ^ ((uint64_t)0 - (v & 1)));
    p = get_varint(p, &e->thread);
    e->pid = trace_pid;
    if (flags & TAPE_PID) {
        p = get_varint(p, &v);
        e->pid = (uint32_t)v;
    }
    if (e->kind == ACT_EV_START) {
        p = get_varint(p, &v);
        e->name = (uint32_t)v;
        p = get_varint(p, &v);
        e->provider = (uint32_t)v;
    }
    if (e->kind == ACT_EV_START || e->kind == ACT_EV_STOP) {
        memcpy(e->id, p, 16);
        p += 16;
    }
    if (flags & TAPE_RELATED) {
        memcpy(e->related, p, 16);
        p += 16;
    }
    if (flags & TAPE_CONTEXT) {
        memcpy(e->context, p, 16);
        p += 16;
    }
    return p;
}

typedef struct unit {
    const ntx_an_ctx *ctx;
    intake in;
    uint8_t *tape;
    size_t len, cap;
    uint64_t last_ts;   /* the ts of the tape's last event */
} unit;

static int unit_new(const ntx_an_ctx *ctx, void **out)
{
    unit *u = calloc(1, sizeof *u);
    if (!u)
        return NTIDX_E_NOMEM;
    u->ctx = ctx;
    ntx_idmap_init(&u->in.types);
    *out = u;
    return 0;
}

static void unit_free(void *p)
{
    unit *u = p;
    intake_free(&u->in);
    free(u->tape);
    free(u);
}

static int unit_event(void *p, const ntx_an_event *e, ntx_err *err)
{
    unit *u = p;
    act_ev c;
    int rc = take(&u->in, e, &c, err);
    if (rc < 0)
        return rc;
    if (rc == 2)
        return 1;
    if (rc == 1) {
        if (u->cap - u->len < TAPE_EV_MAX) {
            size_t nc = u->cap ? u->cap * 2 : 4096;
            uint8_t *nt = realloc(u->tape, nc);
            if (!nt)
                return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
            u->tape = nt;
            u->cap = nc;
        }
        u->len = (size_t)(put_ev(u->tape + u->len, &c, u->last_ts, u->ctx->pid) - u->tape);
        u->last_ts = c.ts;
        rc = 0;
    }
    return rc < 0 ? ntx_err_set(err, rc, "out of memory") : 0;
}

static int unit_end(void *p, ntx_err *err)
{
    (void)p;
    (void)err;
    return 0;
}

/* ---- The merge: the computer over the tapes, in time order ---- */

typedef struct merged {
    const ntx_an_ctx *ctx;
    act_machine m;
    intake in; /* the merge's strings, and the lookahead's types */
} merged;

static double ms_of(const void *ctx, uint64_t ts) { return ntx_an_ms(ctx, ts); }

static int merge_new(const ntx_an_ctx *ctx, void **out)
{
    merged *g = calloc(1, sizeof *g);
    if (!g)
        return NTIDX_E_NOMEM;
    g->ctx = ctx;
    act_machine_init(&g->m, ms_of, ctx);
    ntx_idmap_init(&g->in.types);
    *out = g;
    return 0;
}

static void merge_free(void *p)
{
    merged *g = p;
    act_machine_free(&g->m);
    intake_free(&g->in);
    free(g);
}

static int merge_unit(void *p, void *q, ntx_err *err)
{
    merged *g = p;
    unit *u = q;
    /* the unit's string ids to the merge's */
    uint32_t *ids = malloc((u->in.strings.n ? u->in.strings.n : 1) * sizeof *ids);
    if (!ids)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < u->in.strings.n; i++)
        rc = intern(&g->in.strings, u->in.strings.v[i], strlen(u->in.strings.v[i]), &ids[i]);
    uint64_t ts = 0;
    /* a unit with no Start or Stop has no tape at all: NULL + 0 is not a pointer C allows */
    for (const uint8_t *t = u->tape, *end = u->tape ? u->tape + u->len : NULL; rc == 0 && t < end;) {
        act_ev c;
        t = get_ev(t, &c, ts, u->ctx->pid);
        ts = c.ts;
        if (c.kind == ACT_EV_START) {
            c.name = ids[c.name];
            c.provider = ids[c.provider];
        }
        rc = act_step(&g->m, &c);
    }
    free(ids);
    return rc < 0 ? ntx_err_set(err, rc, "out of memory") : 0;
}

static uint64_t open_count(const void *p) { return ((const merged *)p)->m.reachable; }

/* Past the window: the computer goes on (what starts there is not the window's, but takes ids and threads
   as it would), until no activity of the window can still stop. */
static int lookahead_event(void *p, const ntx_an_event *e, ntx_err *err)
{
    merged *g = p;
    g->m.in_window = 0;
    act_ev c;
    int rc = take(&g->in, e, &c, err);
    if (rc < 0)
        return rc;
    if (rc == 2)
        return 1;
    if (rc == 1)
        rc = act_step(&g->m, &c);
    return rc < 0 ? ntx_err_set(err, rc, "out of memory") : 0;
}

/* ---- The result ---- */

typedef struct act_sum {
    uint32_t provider, name;
    uint64_t count, incomplete;
    double total, max;
} act_sum;

/*
 * The activities as the machine left them (56 bytes each: a big trace has
 * millions), not copied into wider rows: the cells compute their ms from the
 * ticks and make the ids' text when asked (cell_text.h). The typed records
 * of ntidx_activity_at() are made on its first call.
 */
typedef struct activities_result {
    act *acts;               /* the window's activities and their creators, in the order of their starts (the
                                machine's tape, acts_cap long: tape.h) */
    size_t nacts, acts_cap;
    uint32_t *act_of;        /* row -> activity; NULL: row i is activity i */
    size_t n;                /* rows */
    uint32_t *who_pid;       /* the activities' (pid, thread) pairs (act.who; owned) */
    uint64_t *who_thread;
    act_sum *sums;
    size_t nsums;
    char **strings;          /* providers and names (owned) */
    size_t nstrings;
    ntx_an_ctx clock;        /* the trace's sync time and tick frequency, for ntx_an_ms() */
    _Atomic(ntidx_activity *) typed; /* ntidx_activity_at()'s records (NULL: not asked yet) */
} activities_result;

static void free_result(void *p)
{
    activities_result *r = p;
    if (!r)
        return;
    for (size_t i = 0; i < r->nstrings; i++)
        free(r->strings[i]);
    free(r->strings);
    ntx_tape_free(r->acts, r->acts_cap, sizeof *r->acts);
    free(r->act_of);
    free(r->who_pid);
    free(r->who_thread);
    free(r->sums);
    free(atomic_load(&r->typed));
    free(r);
}

static const act *act_at(const activities_result *r, uint64_t row) { return &r->acts[r->act_of ? r->act_of[row] : row]; }

/* The ms TraceEvent keeps, from the ticks, as the machine computed them (activity_machine.h). */
static double start_ms_of(const activities_result *r, const act *a) { return ntx_an_ms(&r->clock, a->ts); }

static double duration_ms_of(const activities_result *r, const act *a)
{
    return a->stop_seen ? ntx_an_ms(&r->clock, a->stop_ts) - ntx_an_ms(&r->clock, a->ts) : 0;
}

static void put_double(ntidx_table_cell *out, double v)
{
    out->f = v;
    out->is_null = isnan(v) || isinf(v);
}

enum {
    A_PROVIDER, A_NAME, A_ID, A_PARENT, A_THREAD, A_START, A_DURATION, A_COMPLETE, A_TS, A_PID, A_DEPTH, A_PATH,
    A_DUR, A_COLUMNS
};

static const ntidx_column act_columns[A_COLUMNS] = {
    {"provider", NTIDX_COLUMN_STRING, "the Start event's provider"},
    {"name", NTIDX_COLUMN_STRING, "TraceEvent's TaskName: the Start's name without Start (ExceptionHandling for catches)"},
    {"activity_id", NTIDX_COLUMN_STRING, "the id that pairs its Start and Stop"},
    {"parent_activity_id", NTIDX_COLUMN_STRING, "its creator's activity id (null: none)"},
    {"thread", NTIDX_COLUMN_UINT, "the Start event's thread"},
    {"start_relative_ms", NTIDX_COLUMN_DOUBLE, "the Start, ms since the trace's sync time"},
    {"duration_ms", NTIDX_COLUMN_DOUBLE, "Stop - Start (0 while incomplete)"},
    {"is_complete", NTIDX_COLUMN_BOOL, "its Stop was seen"},
    {"ts", NTIDX_COLUMN_UINT, "the Start's timestamp, raw ticks"},
    {"pid", NTIDX_COLUMN_UINT, "the process"},
    {"depth", NTIDX_COLUMN_UINT, "creators above it (0: none)"},
    {"activity_path", NTIDX_COLUMN_STRING, "the id as an EventSource activity path (/#PID/1/2/), else the GUID"},
    {"dur", NTIDX_COLUMN_UINT, "Stop - Start in raw ticks, as ts (null while incomplete)"},
};

/* A GUID's text takes 37 bytes and a path at most 96 (act_path_string()): both fit NTIDX_CELL_BUF_SIZE. */
_Static_assert(NTIDX_CELL_BUF_SIZE >= 96, "an activity path fits the cell's buffer");

static int act_cell(const void *data, uint64_t row, size_t col, ntidx_table_cell *out, char *buf, size_t n)
{
    const activities_result *r = data;
    const act *a = act_at(r, row);
    switch (col) {
    case A_PROVIDER: out->s = r->strings[a->provider]; break;
    case A_NAME: out->s = r->strings[a->name]; break;
    case A_ID:
        ntidx_guid_format(a->id, buf);
        out->s = buf;
        break;
    case A_PARENT:
        if (a->creator < 0) { /* none: null, over the text of 16 zero bytes (as ever) */
            out->s = "00000000-0000-0000-0000-000000000000";
            out->is_null = 1;
            break;
        }
        ntidx_guid_format(r->acts[a->creator].id, buf);
        out->s = buf;
        break;
    case A_THREAD: out->u = r->who_thread[a->who]; break;
    case A_START: put_double(out, start_ms_of(r, a)); break;
    case A_DURATION: put_double(out, duration_ms_of(r, a)); break;
    case A_COMPLETE: out->u = a->stop_seen; break;
    case A_TS: out->u = a->ts; break;
    case A_PID: out->u = r->who_pid[a->who]; break;
    case A_DEPTH: out->u = a->depth; break;
    case A_DUR:
        out->u = a->stop_seen && a->stop_ts >= a->ts ? a->stop_ts - a->ts : UINT64_MAX;
        out->is_null = out->u == UINT64_MAX;
        break;
    default:
        act_path_string(a->id, r->who_pid[a->who], buf, n);
        out->s = buf;
        break;
    }
    return NTIDX_OK;
}

enum { S_PROVIDER, S_NAME, S_COUNT, S_INCOMPLETE, S_TOTAL, S_MEAN, S_MAX, S_COLUMNS };

static const ntidx_column sum_columns[S_COLUMNS] = {
    {"provider", NTIDX_COLUMN_STRING, "the provider"},
    {"name", NTIDX_COLUMN_STRING, "the activities' name"},
    {"count", NTIDX_COLUMN_UINT, "activities that started"},
    {"incomplete", NTIDX_COLUMN_UINT, "of which never stopped"},
    {"total_duration_ms", NTIDX_COLUMN_DOUBLE, "the durations of the complete ones added up"},
    {"mean_duration_ms", NTIDX_COLUMN_DOUBLE, "their mean (null without one)"},
    {"max_duration_ms", NTIDX_COLUMN_DOUBLE, "the longest (null without one)"},
};

static int sum_cell(const void *data, uint64_t row, size_t col, ntidx_table_cell *out)
{
    const activities_result *r = data;
    const act_sum *s = &r->sums[row];
    uint64_t done = s->count - s->incomplete;
    switch (col) {
    case S_PROVIDER: out->s = r->strings[s->provider]; break;
    case S_NAME: out->s = r->strings[s->name]; break;
    case S_COUNT: out->u = s->count; break;
    case S_INCOMPLETE: out->u = s->incomplete; break;
    case S_TOTAL: put_double(out, s->total); break;
    case S_MEAN: put_double(out, done ? s->total / (double)done : NAN); break;
    default: put_double(out, done ? s->max : NAN); break;
    }
    return NTIDX_OK;
}

/* The summary row of (provider, name), made on first sight (rows in the order of their first activity). */
static act_sum *sum_of(activities_result *r, size_t *cap, ntx_kmap *index, uint32_t provider, uint32_t name)
{
    uint64_t v;
    if (ntx_kmap_get(index, provider, name, &v))
        return &r->sums[v];
    if (r->nsums == *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        act_sum *ns = realloc(r->sums, nc * sizeof *ns);
        if (!ns)
            return NULL;
        r->sums = ns;
        *cap = nc;
    }
    if (ntx_kmap_put(index, provider, name, r->nsums) < 0)
        return NULL;
    r->sums[r->nsums] = (act_sum){.provider = provider, .name = name};
    return &r->sums[r->nsums++];
}

static int finish(void *p, ntidx_analysis **out, ntx_an_counts *counts, ntx_err *err)
{
    merged *g = p;
    const ntidx_analysis_options *o = g->ctx->o;
    act_machine *m = &g->m;
    counts->unmatched += m->unmatched;
    activities_result *r = calloc(1, sizeof *r);
    int rc = r ? 0 : NTIDX_E_NOMEM;
    /* The window's activities come first (the lookahead's start after them); the lookahead's are dropped.
       Every row is one of them and its creator started before it. */
    size_t nwin = 0;
    while (nwin < m->nacts && m->acts[nwin].in_window)
        nwin++;
    if (rc == 0) {
        r->clock.sync_ticks = g->ctx->sync_ticks;
        r->clock.tick_frequency = g->ctx->tick_frequency;
        atomic_init(&r->typed, NULL);
        /* the activities and the strings move to the result */
        r->acts = m->acts;
        r->nacts = nwin;
        r->acts_cap = m->cap;
        m->acts = NULL;
        m->nacts = m->cap = 0;
        r->who_pid = m->who_pid;
        r->who_thread = m->who_thread;
        m->who_pid = NULL;
        m->who_thread = NULL;
        m->nwho = m->who_cap = 0;
        r->strings = g->in.strings.v;
        r->nstrings = g->in.strings.n;
        g->in.strings.v = NULL;
        g->in.strings.n = g->in.strings.cap = 0;
        if (o->has_thread && !(r->act_of = malloc((nwin ? nwin : 1) * sizeof *r->act_of)))
            rc = NTIDX_E_NOMEM;
    }
    ntx_kmap index;
    ntx_kmap_init(&index);
    size_t sums_cap = 0;
    uint64_t incomplete = 0;
    for (size_t i = 0; rc == 0 && i < nwin; i++) {
        const act *a = &r->acts[i];
        if (o->has_thread) {
            if (r->who_thread[a->who] != o->thread)
                continue;
            r->act_of[r->n] = (uint32_t)i;
        }
        r->n++;
        incomplete += !a->stop_seen;
        act_sum *s = sum_of(r, &sums_cap, &index, a->provider, a->name);
        if (!s) {
            rc = NTIDX_E_NOMEM;
            break;
        }
        s->count++;
        if (!a->stop_seen) {
            s->incomplete++;
        } else {
            double d = duration_ms_of(r, a);
            s->total += d;
            if (s->count - s->incomplete == 1 || d > s->max)
                s->max = d;
        }
    }
    ntx_kmap_free(&index);
    if (rc == 0)
        rc = ntx_analysis_new("activities", NTX_ANALYSIS_ACTIVITIES, r, free_result, out);
    if (rc < 0) {
        free_result(r);
        return ntx_err_set(err, rc, "out of memory");
    }
    ntx_analysis_stats(*out)->incomplete = incomplete;
    if ((rc = ntx_analysis_add_table_text(*out, "activities", act_columns, A_COLUMNS, r->n, act_cell, r)) < 0 ||
        (rc = ntx_analysis_add_table(*out, "activities_summary", sum_columns, S_COLUMNS, r->nsums, sum_cell, r)) < 0) {
        ntidx_analysis_free(out);
        return ntx_err_set(err, rc, rc == NTIDX_E_NOMEM ? "out of memory" : "too many tables");
    }
    return 0;
}

static const ntx_analysis_def activities_def = {
    .name = "activities",
    .plan_types = plan_types,
    .lazy_payload = 1,
    .unit_new = unit_new,
    .unit_event = unit_event,
    .unit_end = unit_end,
    .unit_free = unit_free,
    .merge_new = merge_new,
    .merge_unit = merge_unit,
    .open_count = open_count,
    .lookahead_event = lookahead_event,
    .finish = finish,
    .merge_free = merge_free,
};

NTIDX_API int ntidx_activities_analyze(ntidx_trace *t, const ntidx_index *x, const ntidx_analysis_options *o,
                                       ntidx_analysis **out)
{
    return ntx_analysis_run(&activities_def, t, x, o, out);
}

static const ntidx_table activities_tables[] = {{"activities", A_COLUMNS, act_columns, 0},
                                                 {"activities_summary", S_COLUMNS, sum_columns, 0}};

const ntidx_analysis_info ntx_activities_info = {
    .name = "activities",
    .summary = "EventSource Start/Stop activities, nested, as TraceEvent's StartStopActivityComputer pairs them",
    .analyze = ntidx_activities_analyze,
    .table_count = sizeof activities_tables / sizeof activities_tables[0],
    .tables = activities_tables,
};

NTIDX_API size_t ntidx_activity_count(const ntidx_analysis *a)
{
    const activities_result *r = ntx_analysis_data(a, NTX_ANALYSIS_ACTIVITIES);
    return r ? r->n : 0;
}

typedef struct act_of_key {
    const activities_result *r;
    size_t i;
} act_of_key;

static int act_of_before(const void *ctx, uint64_t k)
{
    const act_of_key *a = ctx;
    return a->r->act_of[k] < a->i;
}

/* The row of activity i (-1: not a row: another thread's). */
static int64_t row_of(const activities_result *r, size_t i)
{
    if (!r->act_of)
        return (int64_t)i;
    act_of_key key = {r, i}; /* act_of ascends */
    size_t lo = (size_t)ntx_lower_bound(r->n, act_of_before, &key);
    return lo < r->n && r->act_of[lo] == i ? (int64_t)lo : -1;
}

/* ntidx_activity_at()'s records, made on its first call (a C program's; the tables do without). */
static const ntidx_activity *typed_records(activities_result *r)
{
    ntidx_activity *t = atomic_load_explicit(&r->typed, memory_order_acquire);
    if (t || !r->n)
        return t;
    if (!(t = calloc(r->n, sizeof *t)))
        return NULL;
    for (size_t k = 0; k < r->n; k++) {
        const act *a = act_at(r, k);
        ntidx_activity *x = &t[k];
        x->provider = r->strings[a->provider];
        x->name = r->strings[a->name];
        memcpy(x->activity_id, a->id, 16);
        x->has_parent = a->creator >= 0;
        if (x->has_parent)
            memcpy(x->parent_activity_id, r->acts[a->creator].id, 16);
        x->parent = a->creator >= 0 ? row_of(r, (size_t)a->creator) : -1;
        x->depth = a->depth;
        x->thread = r->who_thread[a->who];
        x->pid = r->who_pid[a->who];
        x->ts = a->ts;
        x->start_relative_ms = start_ms_of(r, a);
        x->duration_ms = duration_ms_of(r, a);
        x->is_complete = a->stop_seen;
    }
    ntidx_activity *none = NULL;
    if (!atomic_compare_exchange_strong_explicit(&r->typed, &none, t, memory_order_acq_rel, memory_order_acquire)) {
        free(t); /* another thread made them first */
        t = none;
    }
    return t;
}

NTIDX_API const ntidx_activity *ntidx_activity_at(const ntidx_analysis *a, size_t i)
{
    activities_result *r = ntx_analysis_data(a, NTX_ANALYSIS_ACTIVITIES);
    if (!r || i >= r->n)
        return NULL;
    const ntidx_activity *t = typed_records(r);
    return t ? &t[i] : NULL;
}
