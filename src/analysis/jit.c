/*
 * The JIT analysis: TraceEvent's TraceJittedMethod records and JITStats
 * totals (include/ntidx/analysis.h) over a window's work units in parallel.
 *
 * TraceEvent's computer (TraceLoadedDotNetRuntime's handlers for
 * Method/JittingStarted, Method/LoadVerbose and Method/Load; JITStats.
 * LogJitStart and MethodComplete) keeps one list of records per process. A
 * JittingStarted appends a record. A load of jitted code completes the
 * latest record of its thread that is still open (FindIncompleteJitEvent-
 * OnThread: neither a native size nor a JIT time yet), or, when the thread
 * has none, appends a record made from the load itself. So per thread the
 * open records form a stack: a start pushes, a load completes the top (and
 * pops it once it has a size or a time).
 *
 * Across units: a unit runs the same stacks from empty. A load that finds
 * its thread's stack empty in the unit may belong to a record an earlier
 * unit left open: the unit keeps it, in order, as an end without a start.
 * The merge carries the stacks over the units in time order: a unit's ends
 * without a start, in their order, complete the tops of the carried stacks
 * (or make records of their own, at their place in the unit, when a stack is
 * empty: unmatched); then the unit's records are appended and those it left
 * open pushed on the carried stacks. Those come after every end the unit
 * kept on their thread (a unit keeps an end only while its own stack for
 * the thread is empty), so the stacks are exactly those of one pass over the
 * window's events in time order, whatever the cut and the threads. Rows are
 * sorted by the order their records began (unit, then event within it).
 *
 * Past the window the lookahead runs the carried stacks on: a start pushes a
 * record that is not the window's (a later load completes it, not one of the
 * window's), a load completes the top; a load with an empty stack is not the
 * window's business.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"
#include "arena.h"
#include "fields.h"
#include "idmap.h"
#include "threads.h"

enum { EV_METHOD_LOAD = 141, EV_METHOD_LOAD_VERBOSE = 143, EV_JITTING_STARTED = 145 };

#define RUNTIME "Microsoft-Windows-DotNETRuntime"
static const ntx_event_type jit_types[] = {
    {RUNTIME, EV_JITTING_STARTED}, {RUNTIME, EV_METHOD_LOAD_VERBOSE}, {RUNTIME, EV_METHOD_LOAD}};

enum { TIER_OSR = 5 };                         /* OptimizationTier.OptimizedTier1OSR */
enum { KIND_FOREGROUND = 0, KIND_TIERED = 2 }; /* CompilationThreadKind */
#define METHOD_FLAG_JITTED 0x8u

/* One record (TraceJittedMethod). */
typedef struct jrec {
    const char *name;        /* in an arena of the unit that made it */
    uint64_t start_ts;
    double jit_time_ms;      /* CompileCpuTimeMSec */
    uint64_t thread;
    uint64_t method_id, module_id;
    uint64_t ordinal;        /* its beginning event's place in its unit */
    uint32_t unit;           /* the unit (finish() sets it from its chunk; the merge's own records carry theirs) */
    uint32_t pid;
    int32_t il_size, native_size;
    int32_t version_id;
    uint16_t completed;      /* loads that completed it (saturating) */
    uint8_t tier, kind;
    uint8_t in_window;       /* 0: begun by the lookahead, past the window */
} jrec;

/* A load of jitted code: what completes a record, or makes one. */
typedef struct jload {
    const char *name;        /* "" for Method/Load */
    uint64_t ts, thread, method_id, module_id, ordinal;
    uint32_t pid;
    int32_t size, rejit;
    uint8_t tier;
} jload;

/*
 * Records in chunks: a unit keeps one, which the merge adopts whole instead of copying its records (on a trace
 * of millions of methods that copy was a serial part of its own); the merge's own records (those made from
 * an end without a start, and the lookahead's) go in chunks of its own between the units'. A record's index
 * is its chunk << 32 | its place there.
 */
#define UNIT_OWN UINT32_MAX
typedef struct jchunk {
    jrec *recs;
    size_t n, cap;
    uint32_t unit;           /* the unit whose records they are; UNIT_OWN: the merge's own (each carries its unit) */
} jchunk;

/* A thread's stack of open records (indexes into the state's records). */
typedef struct lane {
    uint32_t pid;
    uint64_t thread;
    uint64_t *stack;
    size_t n, cap;
    struct lane *next;       /* another process's thread of the same id */
    struct lane *all;        /* every lane, for freeing and walking */
} lane;

typedef struct jit_state {
    const ntx_an_ctx *ctx;
    int is_unit;
    ntx_arena names;         /* a unit's names */
    ntx_arena *arenas;       /* the merge: the units' names, kept for the result */
    size_t narenas;
    jchunk *chunks;          /* a unit's: one */
    size_t nchunks, chunks_cap;
    jload *ends;             /* a unit's ends without a start, in order */
    size_t nends, ends_cap;
    ntx_idmap by_thread;     /* thread id -> lane chain */
    lane *lanes;             /* every lane (linked by `all`), newest first */
    uint64_t ordinal;        /* a unit's events so far */
    uint32_t units;          /* the merge: units merged */
    uint64_t open;           /* the merge: window records on the stacks */
    uint64_t unmatched;
    int lookahead;           /* the merge: past the window */
} jit_state;

static int state_new(const ntx_an_ctx *ctx, int is_unit, void **out)
{
    jit_state *s = calloc(1, sizeof *s);
    if (!s)
        return NTIDX_E_NOMEM;
    s->ctx = ctx;
    s->is_unit = is_unit;
    ntx_arena_init(&s->names);
    ntx_idmap_init(&s->by_thread);
    *out = s;
    return 0;
}

static int unit_new(const ntx_an_ctx *ctx, void **out) { return state_new(ctx, 1, out); }
static int merge_new(const ntx_an_ctx *ctx, void **out) { return state_new(ctx, 0, out); }

static void state_free(void *p)
{
    jit_state *s = p;
    for (lane *l = s->lanes, *next; l; l = next) {
        next = l->all;
        free(l->stack);
        free(l);
    }
    ntx_idmap_free(&s->by_thread);
    for (size_t i = 0; i < s->narenas; i++)
        ntx_arena_free(&s->arenas[i]);
    free(s->arenas);
    ntx_arena_free(&s->names);
    for (size_t i = 0; i < s->nchunks; i++)
        free(s->chunks[i].recs);
    free(s->chunks);
    free(s->ends);
    free(s);
}

static lane *lane_of(jit_state *s, uint32_t pid, uint64_t thread)
{
    lane *first = ntx_idmap_get(&s->by_thread, thread);
    for (lane *l = first; l; l = l->next)
        if (l->pid == pid)
            return l;
    lane *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->pid = pid;
    l->thread = thread;
    l->next = first;
    if (ntx_idmap_put(&s->by_thread, thread, l) < 0) {
        free(l);
        return NULL;
    }
    l->all = s->lanes;
    s->lanes = l;
    return l;
}

static inline jrec *rec_at(const jit_state *s, uint64_t i) { return &s->chunks[i >> 32].recs[(uint32_t)i]; }

/* A chunk at the end of the list (none in it yet): 0, or NTIDX_E_NOMEM. */
static int add_chunk(jit_state *s, jrec *recs, size_t n, size_t cap, uint32_t unit)
{
    if (s->nchunks == s->chunks_cap) {
        size_t nc = s->chunks_cap ? s->chunks_cap * 2 : 8;
        jchunk *ch = realloc(s->chunks, nc * sizeof *ch);
        if (!ch)
            return NTIDX_E_NOMEM;
        s->chunks = ch;
        s->chunks_cap = nc;
    }
    s->chunks[s->nchunks++] = (jchunk){.recs = recs, .n = n, .cap = cap, .unit = unit};
    return 0;
}

static int push(jit_state *s, lane *l, uint64_t rec)
{
    if (l->n == l->cap) {
        size_t nc = l->cap ? l->cap * 2 : 4;
        uint64_t *ns = realloc(l->stack, nc * sizeof *ns);
        if (!ns)
            return NTIDX_E_NOMEM;
        l->stack = ns;
        l->cap = nc;
    }
    l->stack[l->n++] = rec;
    if (!s->is_unit && rec_at(s, rec)->in_window)
        s->open++;
    return 0;
}

/* A new record at the end of the list (its fields zero), in the state's own last chunk: its index, or
   UINT64_MAX when out of memory. */
static uint64_t new_rec(jit_state *s)
{
    if ((!s->nchunks || s->chunks[s->nchunks - 1].unit != UNIT_OWN) && add_chunk(s, NULL, 0, 0, UNIT_OWN) < 0)
        return UINT64_MAX;
    jchunk *c = &s->chunks[s->nchunks - 1];
    if (c->n == c->cap) {
        size_t nc = c->cap ? c->cap * 2 : 64;
        jrec *nr = nc <= UINT32_MAX ? realloc(c->recs, nc * sizeof *nr) : NULL;
        if (!nr)
            return UINT64_MAX;
        c->recs = nr;
        c->cap = nc;
    }
    memset(&c->recs[c->n], 0, sizeof c->recs[0]);
    return (uint64_t)(s->nchunks - 1) << 32 | c->n++;
}

/* Still open: TraceEvent's FindIncompleteJitEventOnThread takes a record with neither a size nor a time. */
static int still_open(const jrec *r) { return !(r->native_size > 0 || r->jit_time_ms > 0); }

/* JITStats.MethodComplete on record r. */
static void complete(const jit_state *s, jrec *r, const jload *ld)
{
    r->native_size = ld->size;
    r->jit_time_ms = ntx_an_ms(s->ctx, ld->ts) - ntx_an_ms(s->ctx, r->start_ts);
    if (ld->tier != 0) /* SetOptimizationTier keeps the tier it has for Unknown */
        r->tier = ld->tier;
    r->version_id = ld->rejit;
    /* no multicore JIT thread without the private provider: OSR and the default version in the foreground */
    r->kind = r->tier == TIER_OSR || r->version_id == 0 ? KIND_FOREGROUND : KIND_TIERED;
    if (r->completed < UINT16_MAX)
        r->completed++;
}

/* Complete the top of lane l's stack with ld; pop it if it no longer looks open. Returns 0 when the stack is
   empty (nothing completed), 1 otherwise. */
static int complete_top(jit_state *s, lane *l, const jload *ld)
{
    if (!l->n)
        return 0;
    jrec *r = rec_at(s, l->stack[l->n - 1]);
    complete(s, r, ld);
    if (!still_open(r)) {
        l->n--;
        if (!s->is_unit && r->in_window)
            s->open--;
    }
    return 1;
}

/* A record made from a load that found no open record (JITStats.LogJitStart with the load's data), completed
   by it; pushed when it still looks open. */
static int rec_from_load(jit_state *s, lane *l, const jload *ld, uint32_t unit)
{
    uint64_t i = new_rec(s);
    if (i == UINT64_MAX)
        return NTIDX_E_NOMEM;
    jrec *r = rec_at(s, i);
    *r = (jrec){.name = ld->name, .start_ts = ld->ts, .thread = ld->thread, .method_id = ld->method_id,
                .module_id = ld->module_id, .ordinal = ld->ordinal, .unit = unit, .pid = ld->pid, .in_window = 1};
    complete(s, r, ld);
    return still_open(r) ? push(s, l, i) : 0;
}

/* MethodNamespace + "." + MethodName + MethodSignature from its first "(" (JITStats.GetMethodName), in the
   arena. NULL when a field is missing (*nomem set when out of memory). */
static const char *method_name(ntx_arena *a, const ntidx_values *v, int *nomem)
{
    size_t nsl = 0, nml = 0, sgl = 0;
    const char *ns = ntx_an_str(v, "MethodNamespace", &nsl), *nm = ntx_an_str(v, "MethodName", &nml);
    const char *sig = ntx_an_str(v, "MethodSignature", &sgl);
    if (!ns || !nm || !sig)
        return NULL;
    const char *paren = memchr(sig, '(', sgl);
    size_t al = paren ? sgl - (size_t)(paren - sig) : 0;
    char *name = ntx_arena_alloc(a, nsl + 1 + nml + al + 1);
    if (!name) {
        *nomem = 1;
        return NULL;
    }
    memcpy(name, ns, nsl);
    name[nsl] = '.';
    memcpy(name + nsl + 1, nm, nml);
    if (al)
        memcpy(name + nsl + 1 + nml, paren, al);
    name[nsl + 1 + nml + al] = 0;
    return name;
}

static int u64_of(const ntidx_values *v, const char *name, uint64_t *out)
{
    int64_t x;
    if (!ntx_an_int(v, name, &x))
        return 0;
    *out = (uint64_t)x;
    return 1;
}

/* A Method/JittingStarted: 0; 1 when a field is missing; < 0 out of memory. */
static int jit_start(jit_state *s, const ntx_an_event *e)
{
    int64_t il;
    if (!ntx_an_int(e->values, "MethodILSize", &il))
        return 1;
    lane *l = lane_of(s, e->pid, e->thread);
    if (!l)
        return NTIDX_E_NOMEM;
    const char *name = "";
    if (!s->lookahead) { /* a record the lookahead begins is not reported: it needs no name */
        int nomem = 0;
        if (!(name = method_name(&s->names, e->values, &nomem)))
            return nomem ? NTIDX_E_NOMEM : 1;
    }
    uint64_t i = new_rec(s);
    if (i == UINT64_MAX)
        return NTIDX_E_NOMEM;
    jrec *r = rec_at(s, i);
    r->name = name;
    r->start_ts = e->ts;
    r->thread = e->thread;
    r->pid = e->pid;
    r->il_size = (int32_t)il;
    r->ordinal = s->ordinal;
    r->in_window = !s->lookahead;
    u64_of(e->values, "MethodID", &r->method_id);
    u64_of(e->values, "ModuleID", &r->module_id);
    return push(s, l, i);
}

/* A Method/LoadVerbose or Method/Load: 0; 1 when a field is missing; < 0 out of memory. */
static int jit_load(jit_state *s, const ntx_an_event *e)
{
    int64_t flags, size;
    if (!ntx_an_int(e->values, "MethodFlags", &flags) || !ntx_an_int(e->values, "MethodSize", &size))
        return 1;
    if (!((uint32_t)flags & METHOD_FLAG_JITTED))
        return 0; /* precompiled code: not a JIT compilation */
    jload ld = {.name = "", .ts = e->ts, .thread = e->thread, .pid = e->pid, .ordinal = s->ordinal,
                .size = (int32_t)size, .tier = (uint8_t)(((uint32_t)flags >> 7) & 7)};
    int64_t rejit;
    if (e->ev->metadata->event_id == EV_METHOD_LOAD_VERBOSE && ntx_an_int(e->values, "ReJITID", &rejit))
        ld.rejit = (int32_t)rejit;
    u64_of(e->values, "MethodID", &ld.method_id);
    u64_of(e->values, "ModuleID", &ld.module_id);
    lane *l = lane_of(s, e->pid, e->thread);
    if (!l)
        return NTIDX_E_NOMEM;
    if (complete_top(s, l, &ld))
        return 0;
    if (s->lookahead)
        return 0; /* it would make a record of its own: past the window, not the window's */
    if (e->ev->metadata->event_id == EV_METHOD_LOAD_VERBOSE) {
        int nomem = 0;
        if (!(ld.name = method_name(&s->names, e->values, &nomem)))
            return nomem ? NTIDX_E_NOMEM : 1;
    }
    /* the merge (the lookahead aside) never reads events: this is a unit's end without a start */
    if (s->nends == s->ends_cap) {
        size_t nc = s->ends_cap ? s->ends_cap * 2 : 16;
        jload *ne = realloc(s->ends, nc * sizeof *ne);
        if (!ne)
            return NTIDX_E_NOMEM;
        s->ends = ne;
        s->ends_cap = nc;
    }
    s->ends[s->nends++] = ld;
    return 0;
}

static int take(jit_state *s, const ntx_an_event *e)
{
    int rc = e->ev->metadata->event_id == EV_JITTING_STARTED ? jit_start(s, e) : jit_load(s, e);
    s->ordinal++;
    return rc;
}

static int unit_event(void *unit, const ntx_an_event *e, ntx_err *err)
{
    int rc = take(unit, e);
    return rc < 0 ? ntx_err_set(err, rc, "out of memory") : rc;
}

static int unit_end(void *unit, ntx_err *err)
{
    (void)unit;
    (void)err;
    return 0;
}

/* ---- The merge ---- */

static int merge(jit_state *m, jit_state *u)
{
    uint32_t unit = m->units++;
    /* 1. The unit's ends without a start complete what the units before left open, in their order. */
    for (size_t i = 0; i < u->nends; i++) {
        const jload *ld = &u->ends[i];
        lane *l = lane_of(m, ld->pid, ld->thread);
        if (!l)
            return NTIDX_E_NOMEM;
        if (complete_top(m, l, ld))
            continue;
        m->unmatched++;
        int rc = rec_from_load(m, l, ld, unit);
        if (rc < 0)
            return rc;
    }
    /* 2. Its records join the list (its chunk adopted); 3. those it left open go on the carried stacks (after
       every end it kept on their thread). */
    uint64_t base = 0; /* the adopted chunk's indexes */
    if (u->nchunks && u->chunks[0].n) {
        const jchunk *uc = &u->chunks[0];
        if (add_chunk(m, uc->recs, uc->n, uc->cap, unit) < 0)
            return NTIDX_E_NOMEM;
        u->chunks[0] = (jchunk){.unit = UNIT_OWN}; /* the records are the merge's now */
        base = (uint64_t)(m->nchunks - 1) << 32;
    }
    for (const lane *ul = u->lanes; ul; ul = ul->all) {
        if (!ul->n)
            continue;
        lane *l = lane_of(m, ul->pid, ul->thread);
        if (!l)
            return NTIDX_E_NOMEM;
        for (size_t k = 0; k < ul->n; k++) /* a unit's indexes are places in its one chunk */
            if (push(m, l, base | ul->stack[k]) < 0)
                return NTIDX_E_NOMEM;
    }
    /* 4. The names the records point to move with them. */
    ntx_arena *na = realloc(m->arenas, (m->narenas + 1) * sizeof *na);
    if (!na)
        return NTIDX_E_NOMEM;
    m->arenas = na;
    m->arenas[m->narenas++] = u->names;
    ntx_arena_init(&u->names);
    return 0;
}

static int merge_unit(void *merged, void *unit, ntx_err *err)
{
    int rc = merge(merged, unit);
    return rc < 0 ? ntx_err_set(err, rc, "out of memory") : 0;
}

static uint64_t open_count(const void *merged) { return ((const jit_state *)merged)->open; }

static int lookahead_event(void *merged, const ntx_an_event *e, ntx_err *err)
{
    jit_state *m = merged;
    m->lookahead = 1;
    int rc = take(m, e);
    return rc < 0 ? ntx_err_set(err, rc, "out of memory") : rc;
}

/* ---- The result ---- */

static const char *const tier_names[] = {"Unknown",        "MinOptJitted",      "Optimized",
                                         "QuickJitted",    "OptimizedTier1",    "OptimizedTier1OSR",
                                         "QuickJittedInstrumented", "OptimizedTier1Instrumented"};
static const char *const kind_names[] = {"Foreground", "MulticoreJitBackground", "TieredCompilationBackground"};

NTIDX_API const char *ntidx_jit_tier_name(int tier, char *buf, size_t buflen)
{
    if (tier >= 0 && tier < (int)(sizeof tier_names / sizeof tier_names[0]))
        return tier_names[tier];
    if (buf && buflen)
        snprintf(buf, buflen, "%d", tier);
    return buf ? buf : "";
}

/* JITStats of one tier or of all (table "jit_summary"), over the complete records. */
typedef struct jit_sum {
    uint32_t pid;
    const char *tier;  /* a tier's name, or "all" */
    uint64_t count, incomplete;
    double total_jit_time_ms;
    int64_t total_il_size, total_native_size;
    uint64_t count_foreground, count_background_tiered;
    double foreground_ms, background_tiered_ms;
} jit_sum;

typedef struct jit_result {
    ntidx_jit_method *rows;
    size_t n;
    jit_sum *sums;
    size_t nsums;
    ntx_arena *arenas;   /* the names */
    size_t narenas;
} jit_result;

static void free_result(void *p)
{
    jit_result *r = p;
    if (!r)
        return;
    for (size_t i = 0; i < r->narenas; i++)
        ntx_arena_free(&r->arenas[i]);
    free(r->arenas);
    free(r->rows);
    free(r->sums);
    free(r);
}

enum {
    C_NAME, C_IL, C_NATIVE, C_JIT_TIME, C_TIER, C_START, C_COMPLETE, C_PID, C_THREAD, C_TS, C_METHOD_ID, C_MODULE_ID,
    C_VERSION, C_KIND, C_COLUMNS
};

static const ntidx_column jit_columns[C_COLUMNS] = {
    {"method_name", NTIDX_COLUMN_STRING, "Namespace.Name(args) of the method compiled"},
    {"il_size", NTIDX_COLUMN_INT, "its IL bytes (Method/JittingStarted; 0 without)"},
    {"native_size", NTIDX_COLUMN_INT, "its native code bytes (Method/LoadVerbose; 0 until then)"},
    {"jit_time_ms", NTIDX_COLUMN_DOUBLE, "Method/LoadVerbose - Method/JittingStarted (0 until then)"},
    {"optimization_tier", NTIDX_COLUMN_STRING, "QuickJitted, OptimizedTier1, Optimized, ... (Unknown until loaded)"},
    {"start_relative_ms", NTIDX_COLUMN_DOUBLE, "Method/JittingStarted, ms since the trace's sync time"},
    {"is_complete", NTIDX_COLUMN_BOOL, "its Method/LoadVerbose was seen"},
    {"pid", NTIDX_COLUMN_UINT, "the process"},
    {"thread", NTIDX_COLUMN_UINT, "the thread that compiled it"},
    {"ts", NTIDX_COLUMN_UINT, "Method/JittingStarted's timestamp, raw ticks"},
    {"method_id", NTIDX_COLUMN_UINT, "the runtime's MethodID"},
    {"module_id", NTIDX_COLUMN_UINT, "the runtime's ModuleID"},
    {"version_id", NTIDX_COLUMN_INT, "the code version (the load's ReJITID; 0 the default one)"},
    {"compilation_thread_kind", NTIDX_COLUMN_STRING, "Foreground or TieredCompilationBackground"},
};

static int jit_cell(const void *data, uint64_t row, size_t col, ntidx_table_cell *out)
{
    const ntidx_jit_method *j = &((const jit_result *)data)->rows[row];
    switch (col) {
    case C_NAME: out->s = j->method_name; break;
    case C_IL: out->i = j->il_size; break;
    case C_NATIVE: out->i = j->native_size; break;
    case C_JIT_TIME: out->f = j->jit_time_ms; break;
    case C_TIER: out->s = ntidx_jit_tier_name(j->optimization_tier, NULL, 0); break;
    case C_START: out->f = j->start_relative_ms; break;
    case C_COMPLETE: out->u = (uint64_t)j->is_complete; break;
    case C_PID: out->u = j->pid; break;
    case C_THREAD: out->u = j->thread; break;
    case C_TS: out->u = j->ts; break;
    case C_METHOD_ID: out->u = j->method_id; break;
    case C_MODULE_ID: out->u = j->module_id; break;
    case C_VERSION: out->i = j->version_id; break;
    default: out->s = kind_names[j->compilation_thread_kind == KIND_TIERED ? 2 : 0]; break;
    }
    return NTIDX_OK;
}

enum { S_PID, S_TIER, S_COUNT, S_TIME, S_IL, S_NATIVE, S_FG, S_FG_TIME, S_BG, S_BG_TIME, S_INCOMPLETE, S_COLUMNS };

static const ntidx_column sum_columns[S_COLUMNS] = {
    {"pid", NTIDX_COLUMN_UINT, "the process"},
    {"optimization_tier", NTIDX_COLUMN_STRING, "a tier, or all"},
    {"count", NTIDX_COLUMN_UINT, "methods compiled (complete records)"},
    {"total_jit_time_ms", NTIDX_COLUMN_DOUBLE, "their JIT times added up"},
    {"total_il_size", NTIDX_COLUMN_INT, "their IL bytes"},
    {"total_native_size", NTIDX_COLUMN_INT, "their native code bytes"},
    {"count_foreground", NTIDX_COLUMN_UINT, "of which compiled in the foreground"},
    {"total_foreground_jit_time_ms", NTIDX_COLUMN_DOUBLE, "their JIT times"},
    {"count_background_tiered_compilation", NTIDX_COLUMN_UINT, "of which by tiered compilation's background thread"},
    {"total_background_tiered_compilation_jit_time_ms", NTIDX_COLUMN_DOUBLE, "their JIT times"},
    {"incomplete", NTIDX_COLUMN_UINT, "records whose load was not seen (not counted above)"},
};

static int sum_cell(const void *data, uint64_t row, size_t col, ntidx_table_cell *out)
{
    const jit_sum *s = &((const jit_result *)data)->sums[row];
    switch (col) {
    case S_PID: out->u = s->pid; break;
    case S_TIER: out->s = s->tier; break;
    case S_COUNT: out->u = s->count; break;
    case S_TIME: out->f = s->total_jit_time_ms; break;
    case S_IL: out->i = s->total_il_size; break;
    case S_NATIVE: out->i = s->total_native_size; break;
    case S_FG: out->u = s->count_foreground; break;
    case S_FG_TIME: out->f = s->foreground_ms; break;
    case S_BG: out->u = s->count_background_tiered; break;
    case S_BG_TIME: out->f = s->background_tiered_ms; break;
    default: out->u = s->incomplete; break;
    }
    return NTIDX_OK;
}

/* By process, then in the order the records began. */
static int by_begin(const void *a, const void *b)
{
    const jrec *x = *(const jrec *const *)a, *y = *(const jrec *const *)b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->unit != y->unit)
        return x->unit < y->unit ? -1 : 1;
    return (x->ordinal > y->ordinal) - (x->ordinal < y->ordinal);
}

/*
 * sorted[0, n) into by_begin() order when it holds a few processes whose records interleave (each process's
 * records mostly in order already): a stable pass into one bucket per process, then a sort of the buckets
 * that are not in order. 0 when there are too many processes for it (then qsort()). A merge on one thread:
 * O(n), where a qsort() of hundreds of thousands of records was most of the analysis's serial part.
 */
#define MAX_BUCKETS 64
static int sort_by_process(const jrec **sorted, size_t n)
{
    uint32_t pids[MAX_BUCKETS];
    size_t count[MAX_BUCKETS] = {0}, start[MAX_BUCKETS], np = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        while (k < np && pids[k] != sorted[i]->pid)
            k++;
        if (k == np) {
            if (np == MAX_BUCKETS)
                return 0;
            pids[np++] = sorted[i]->pid;
        }
        count[k]++;
    }
    size_t order[MAX_BUCKETS]; /* the buckets by pid */
    for (size_t k = 0; k < np; k++) {
        size_t j = k;
        while (j > 0 && pids[order[j - 1]] > pids[k]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = k;
    }
    size_t at = 0;
    for (size_t j = 0; j < np; j++) {
        start[order[j]] = at;
        at += count[order[j]];
    }
    const jrec **tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp)
        return 0;
    size_t fill[MAX_BUCKETS];
    memcpy(fill, start, sizeof fill);
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        while (pids[k] != sorted[i]->pid)
            k++;
        tmp[fill[k]++] = sorted[i];
    }
    for (size_t k = 0; k < np; k++) {
        const jrec **b = tmp + start[k];
        for (size_t i = 1; i < count[k]; i++)
            if (by_begin(&b[i - 1], &b[i]) > 0) {
                qsort(b, count[k], sizeof *b, by_begin);
                break;
            }
    }
    memcpy(sorted, tmp, n * sizeof *tmp);
    free(tmp);
    return 1;
}

static void add_to(jit_sum *s, const ntidx_jit_method *j)
{
    if (!j->is_complete) {
        s->incomplete++;
        return;
    }
    s->count++;
    s->total_jit_time_ms += j->jit_time_ms;
    s->total_il_size += j->il_size;
    s->total_native_size += j->native_size;
    if (j->compilation_thread_kind == KIND_TIERED) {
        s->count_background_tiered++;
        s->background_tiered_ms += j->jit_time_ms;
    } else {
        s->count_foreground++;
        s->foreground_ms += j->jit_time_ms;
    }
}

/* Rows per process: one per tier present (in the tiers' order) and one for all. One pass over a process's
   rows: each sum still adds its rows in row order (the same doubles), where a pass per tier was most of the
   analysis's serial part on a trace of millions of methods. */
#define TIERS (sizeof tier_names / sizeof tier_names[0])
static void summarize(jit_result *r)
{
    for (size_t i = 0; i < r->n;) {
        uint32_t pid = r->rows[i].pid;
        jit_sum tiers[TIERS], all = {.pid = pid, .tier = "all"};
        int any[TIERS] = {0};
        for (size_t t = 0; t < TIERS; t++)
            tiers[t] = (jit_sum){.pid = pid, .tier = tier_names[t]};
        size_t end = i;
        for (; end < r->n && r->rows[end].pid == pid; end++) {
            const ntidx_jit_method *j = &r->rows[end];
            if (j->optimization_tier >= 0 && (size_t)j->optimization_tier < TIERS) {
                add_to(&tiers[j->optimization_tier], j);
                any[j->optimization_tier] = 1;
            }
            add_to(&all, j);
        }
        for (size_t t = 0; t < TIERS; t++)
            if (any[t])
                r->sums[r->nsums++] = tiers[t];
        r->sums[r->nsums++] = all;
        i = end;
    }
}

/* Rows per process (summarize()); without any record, the trace's process's "all" row, empty. */
static void summarize_or_empty(jit_result *r, uint32_t pid)
{
    summarize(r);
    if (!r->nsums)
        r->sums[r->nsums++] = (jit_sum){.pid = pid, .tier = "all"};
}

/*
 * The result's rows from the records in their order, on threads: a piece of FILL_PIECE rows at a time. On a
 * trace of millions of methods the rows are hundreds of MB of new memory, whose pages the kernel clears as
 * they are first written: most of what the analysis's finish did on one thread.
 */
#define FILL_PIECE 16384
typedef struct filler {
    const jrec **sorted;
    ntidx_jit_method *rows;
    size_t n;
    const ntx_an_ctx *ctx;
    atomic_size_t next;           /* the next piece */
    atomic_uint_fast64_t incomplete; /* records no load completed */
} filler;

static void *fill_rows(void *arg)
{
    filler *f = arg;
    uint64_t incomplete = 0;
    for (;;) {
        size_t i0 = atomic_fetch_add(&f->next, 1) * FILL_PIECE;
        if (i0 >= f->n)
            break;
        for (size_t i = i0; i < f->n && i < i0 + FILL_PIECE; i++) {
            const jrec *j = f->sorted[i];
            incomplete += j->completed == 0;
            f->rows[i] = (ntidx_jit_method){.method_name = j->name, .il_size = j->il_size,
                                            .native_size = j->native_size, .jit_time_ms = j->jit_time_ms,
                                            .optimization_tier = j->tier, .is_complete = j->completed > 0,
                                            .pid = j->pid, .thread = j->thread, .ts = j->start_ts,
                                            .start_relative_ms = ntx_an_ms(f->ctx, j->start_ts),
                                            .method_id = j->method_id, .module_id = j->module_id,
                                            .version_id = j->version_id, .compilation_thread_kind = j->kind};
        }
    }
    atomic_fetch_add(&f->incomplete, incomplete);
    return NULL;
}

static int finish(void *merged, ntidx_analysis **out, ntx_an_counts *counts, ntx_err *err)
{
    jit_state *m = merged;
    const ntidx_analysis_options *o = m->ctx->o;
    counts->unmatched += m->unmatched;
    jit_result *r = calloc(1, sizeof *r);
    size_t total = 0, n = 0;
    for (size_t c = 0; c < m->nchunks; c++)
        total += m->chunks[c].n;
    const jrec **sorted = malloc((total ? total : 1) * sizeof *sorted);
    if (r && sorted) {
        for (size_t c = 0; c < m->nchunks; c++) {
            const jchunk *ch = &m->chunks[c];
            for (size_t i = 0; i < ch->n; i++) {
                jrec *j = &ch->recs[i];
                if (ch->unit != UNIT_OWN)
                    j->unit = ch->unit;
                if (j->in_window && (!o->has_thread || j->thread == o->thread))
                    sorted[n++] = j;
            }
        }
        r->rows = malloc((n ? n : 1) * sizeof *r->rows);
        r->sums = malloc((n * 9 + 1) * sizeof *r->sums); /* at most 8 tiers and all per process */
    }
    if (!r || !sorted || !r->rows || !r->sums) {
        free_result(r);
        free(sorted);
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    }
    /* Usually in that order already: the merge appends each unit's records in the order they began, and only a
       load that completed nothing (unmatched) or a second process puts one out of it. */
    size_t out_of_order = 0;
    for (size_t i = 1; i < n && !out_of_order; i++)
        out_of_order = by_begin(&sorted[i - 1], &sorted[i]) > 0;
    if (out_of_order && !sort_by_process(sorted, n))
        qsort(sorted, n, sizeof *sorted, by_begin);
    filler fl = {.sorted = sorted, .rows = r->rows, .n = n, .ctx = m->ctx};
    atomic_init(&fl.next, 0);
    atomic_init(&fl.incomplete, 0);
    size_t pieces = (n + FILL_PIECE - 1) / FILL_PIECE;
    unsigned nthreads = ntx_thread_count(o->threads);
    ntx_run_threads(pieces < nthreads ? (unsigned)(pieces ? pieces : 1) : nthreads, fill_rows, &fl);
    uint64_t incomplete = atomic_load(&fl.incomplete);
    r->n = n;
    free(sorted);
    summarize_or_empty(r, m->ctx->pid);
    /* the names move with the rows */
    r->arenas = m->arenas;
    r->narenas = m->narenas;
    m->arenas = NULL;
    m->narenas = 0;
    int rc = ntx_analysis_new("jit", NTX_ANALYSIS_JIT, r, free_result, out);
    if (rc < 0) {
        free_result(r);
        return ntx_err_set(err, rc, "out of memory");
    }
    ntx_analysis_stats(*out)->incomplete = incomplete;
    if (ntx_analysis_add_table(*out, "jit", jit_columns, C_COLUMNS, r->n, jit_cell, r) < 0 ||
        ntx_analysis_add_table(*out, "jit_summary", sum_columns, S_COLUMNS, r->nsums, sum_cell, r) < 0) {
        ntidx_analysis_free(out);
        return ntx_err_set(err, NTIDX_E_INVALID_ARG, "too many tables");
    }
    return 0;
}

static const ntx_analysis_def jit_def = {
    .name = "jit",
    .types = jit_types,
    .ntypes = sizeof jit_types / sizeof jit_types[0],
    .unit_new = unit_new,
    .unit_event = unit_event,
    .unit_end = unit_end,
    .unit_free = state_free,
    .merge_new = merge_new,
    .merge_unit = merge_unit,
    .open_count = open_count,
    .lookahead_event = lookahead_event,
    .finish = finish,
    .merge_free = state_free,
};

NTIDX_API int ntidx_jit_analyze(ntidx_trace *t, const ntidx_index *x, const ntidx_analysis_options *o,
                                ntidx_analysis **out)
{
    return ntx_analysis_run(&jit_def, t, x, o, out);
}

static const ntidx_table jit_tables[] = {{"jit", C_COLUMNS, jit_columns, 0}, {"jit_summary", S_COLUMNS, sum_columns, 0}};

const ntidx_analysis_info ntx_jit_info = {
    .name = "jit",
    .summary = "the methods a window JIT-compiled, their sizes, times and tiers (TraceEvent's JITStats)",
    .analyze = ntidx_jit_analyze,
    .table_count = sizeof jit_tables / sizeof jit_tables[0],
    .tables = jit_tables,
};

NTIDX_API size_t ntidx_jit_count(const ntidx_analysis *a)
{
    const jit_result *r = ntx_analysis_data(a, NTX_ANALYSIS_JIT);
    return r ? r->n : 0;
}

NTIDX_API const ntidx_jit_method *ntidx_jit_at(const ntidx_analysis *a, size_t i)
{
    const jit_result *r = ntx_analysis_data(a, NTX_ANALYSIS_JIT);
    return r && i < r->n ? &r->rows[i] : NULL;
}
