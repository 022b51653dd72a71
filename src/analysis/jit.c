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
 * in the order their records began (unit, then event within it; a record
 * made from an end goes before the unit's first record begun after the end),
 * grouped by process.
 *
 * The result keeps the records as the merge left them, 56 bytes each, and
 * the units' tables of names (each name once per unit) and threads they
 * point into: the cells read them; ntidx_jit_at()'s public rows are made on
 * its first call.
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
#include "grow.h"
#include "hash.h"
#include "idmap.h"

enum { EV_METHOD_LOAD = 141, EV_METHOD_LOAD_VERBOSE = 143, EV_JITTING_STARTED = 145 };

#define RUNTIME "Microsoft-Windows-DotNETRuntime"
static const ntx_event_type jit_types[] = {
    {RUNTIME, EV_JITTING_STARTED}, {RUNTIME, EV_METHOD_LOAD_VERBOSE}, {RUNTIME, EV_METHOD_LOAD}};

enum { TIER_OSR = 5 };                         /* OptimizationTier.OptimizedTier1OSR */
enum { KIND_FOREGROUND = 0, KIND_TIERED = 2 }; /* CompilationThreadKind */
#define METHOD_FLAG_JITTED 0x8u

enum { REC_COMPLETE = 1, REC_IN_WINDOW = 2 };

/*
 * One record (TraceJittedMethod), 56 bytes: a trace of millions of methods
 * keeps millions, and the result keeps them as they are (the cells read
 * them; ntidx_jit_at()'s rows are made on its first call). Its name and its
 * process and thread are indexes into the tables of the unit that read it
 * (jtab): a unit stores each name once. Its compilation thread kind is not
 * kept: complete() sets the tier and the version together, and the kind
 * follows from them (kind_of()).
 */
typedef struct jrec {
    uint64_t start_ts;
    double jit_time_ms;      /* CompileCpuTimeMSec */
    uint64_t method_id, module_id;
    uint32_t name;           /* in its unit's names */
    uint32_t who;            /* its (pid, thread) in its unit's */
    int32_t il_size, native_size;
    int32_t version_id;
    uint8_t tier;
    uint8_t flags;           /* REC_COMPLETE: a load completed it; REC_IN_WINDOW: not begun by the lookahead */
} jrec;
_Static_assert(sizeof(jrec) <= 56, "a record stays 56 bytes");

/* A load of jitted code: what completes a record, or makes one. */
typedef struct jload {
    uint64_t ts, thread, method_id, module_id;
    uint32_t pid;
    uint32_t name, who;      /* in its unit's tables (name 0: "", a Method/Load) */
    uint32_t before;         /* the unit's records begun before it */
    int32_t size, rejit;
    uint8_t tier;
} jload;

/*
 * A unit's names and threads, which its records (and the records the merge
 * makes from its ends) name by index: moved whole into the merge, then into
 * the result. Names are kept once per unit (by_hash): a trace of millions of
 * compilations names far fewer methods.
 */
typedef struct jtab {
    const char **names;      /* [0] is "" (a Method/Load's) */
    size_t nnames, names_cap;
    uint32_t *who_pid;
    uint64_t *who_thread;
    size_t nwho, who_cap;
    ntx_arena bytes;         /* the names' */
    ntx_idmap by_hash;       /* a unit's: xxh3 of a name -> its index + 1 (freed when the merge takes the table) */
} jtab;

static void tab_free(jtab *t)
{
    free(t->names);
    free(t->who_pid);
    free(t->who_thread);
    ntx_arena_free(&t->bytes);
    ntx_idmap_free(&t->by_hash);
    memset(t, 0, sizeof *t);
}

/*
 * Records in chunks: a unit keeps one, which the merge adopts whole instead of copying its records (on a trace
 * of millions of methods that copy was a serial part of its own); the merge's own records (those made from
 * a unit's ends without a start, and the lookahead's) go in chunks of their own, one before each unit's that
 * has some, and one after the last for the lookahead. A record's index is its chunk << 32 | its place there.
 */
#define UNIT_LOOKAHEAD UINT32_MAX
typedef struct jchunk {
    jrec *recs;
    uint32_t *before;        /* own: how many of the unit's records began before each (the end that made it) */
    size_t n, cap;
    uint32_t unit;           /* the unit whose records they are, whose tables they name (UNIT_LOOKAHEAD: none) */
    int own;                 /* the merge's own */
} jchunk;

/* A thread's stack of open records (indexes into the state's records). */
typedef struct lane {
    uint32_t pid;
    uint32_t who;            /* a unit's: its index in the unit's table */
    uint64_t thread;
    uint64_t *stack;
    size_t n, cap;
    struct lane *next;       /* another process's thread of the same id */
    struct lane *all;        /* every lane, for freeing and walking */
} lane;

typedef struct jit_state {
    const ntx_an_ctx *ctx;
    int is_unit;
    jtab tab;                /* a unit's names and threads */
    jtab *tabs;              /* the merge: the units', by unit */
    size_t ntabs;
    char *scratch;           /* a unit's: a name being made */
    size_t scratch_cap;
    jchunk *chunks;          /* a unit's: one */
    size_t nchunks, chunks_cap;
    jload *ends;             /* a unit's ends without a start, in order */
    size_t nends, ends_cap;
    ntx_idmap by_thread;     /* thread id -> lane chain */
    lane *lanes;             /* every lane (linked by `all`), newest first */
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
    ntx_arena_init(&s->tab.bytes);
    ntx_idmap_init(&s->tab.by_hash);
    ntx_idmap_init(&s->by_thread);
    *out = s;
    return 0;
}

static int unit_new(const ntx_an_ctx *ctx, void **out) { return state_new(ctx, 1, out); }
static int merge_new(const ntx_an_ctx *ctx, void **out) { return state_new(ctx, 0, out); }

static void free_chunks(jchunk *chunks, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(chunks[i].recs);
        free(chunks[i].before);
    }
    free(chunks);
}

static void free_tabs(jtab *tabs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        tab_free(&tabs[i]);
    free(tabs);
}

static void state_free(void *p)
{
    jit_state *s = p;
    for (lane *l = s->lanes, *next; l; l = next) {
        next = l->all;
        free(l->stack);
        free(l);
    }
    ntx_idmap_free(&s->by_thread);
    tab_free(&s->tab);
    free_tabs(s->tabs, s->ntabs);
    free(s->scratch);
    free_chunks(s->chunks, s->nchunks);
    free(s->ends);
    free(s);
}

static lane *lane_of(jit_state *s, uint32_t pid, uint64_t thread)
{
    lane *first = ntx_idmap_get(&s->by_thread, thread);
    for (lane *l = first; l; l = l->next)
        if (l->pid == pid)
            return l;
    jtab *t = &s->tab;
    if (s->is_unit && t->nwho == t->who_cap) { /* a unit's threads are in its table, for its records to name */
        size_t nc = t->who_cap ? t->who_cap * 2 : 16;
        if (nc > UINT32_MAX)
            return NULL;
        uint32_t *np = realloc(t->who_pid, nc * sizeof *np);
        if (np)
            t->who_pid = np;
        uint64_t *nt = np ? realloc(t->who_thread, nc * sizeof *nt) : NULL;
        if (!nt)
            return NULL;
        t->who_thread = nt;
        t->who_cap = nc;
    }
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
    if (s->is_unit) {
        l->who = (uint32_t)t->nwho;
        t->who_pid[t->nwho] = pid;
        t->who_thread[t->nwho++] = thread;
    }
    return l;
}

static inline jrec *rec_at(const jit_state *s, uint64_t i) { return &s->chunks[i >> 32].recs[(uint32_t)i]; }

/* A chunk at the end of the list: 0, or NTIDX_E_NOMEM. */
static int add_chunk(jit_state *s, jchunk c)
{
    if (s->nchunks == s->chunks_cap) {
        size_t nc = s->chunks_cap ? s->chunks_cap * 2 : 8;
        jchunk *ch = realloc(s->chunks, nc * sizeof *ch);
        if (!ch)
            return NTIDX_E_NOMEM;
        s->chunks = ch;
        s->chunks_cap = nc;
    }
    s->chunks[s->nchunks++] = c;
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
    if (!s->is_unit && (rec_at(s, rec)->flags & REC_IN_WINDOW))
        s->open++;
    return 0;
}

/* A new record at the end of the list (its fields zero): a unit's in its one chunk, the merge's in its own
   chunk of `unit`'s (`before`: the unit's records begun before it). Its index, or UINT64_MAX when out of
   memory. */
static uint64_t new_rec(jit_state *s, uint32_t unit, uint32_t before)
{
    int own = !s->is_unit;
    jchunk *c = s->nchunks ? &s->chunks[s->nchunks - 1] : NULL;
    if ((!c || (own && (!c->own || c->unit != unit))) && add_chunk(s, (jchunk){.unit = unit, .own = own}) < 0)
        return UINT64_MAX;
    c = &s->chunks[s->nchunks - 1];
    if (c->n == c->cap) {
        size_t nc = c->cap ? c->cap * 2 : 64;
        jrec *nr = nc <= UINT32_MAX ? realloc(c->recs, nc * sizeof *nr) : NULL;
        if (!nr)
            return UINT64_MAX;
        c->recs = nr;
        if (own) {
            uint32_t *nb = realloc(c->before, nc * sizeof *nb);
            if (!nb)
                return UINT64_MAX;
            c->before = nb;
        }
        c->cap = nc;
    }
    memset(&c->recs[c->n], 0, sizeof c->recs[0]);
    if (own)
        c->before[c->n] = before;
    return (uint64_t)(s->nchunks - 1) << 32 | c->n++;
}

/* Still open: TraceEvent's FindIncompleteJitEventOnThread takes a record with neither a size nor a time. */
static int still_open(const jrec *r) { return !(r->native_size > 0 || r->jit_time_ms > 0); }

/* The compilation thread kind complete() gave it: no multicore JIT thread without the private provider;
   OSR and the default version in the foreground. Before a load completes it, tier and version are 0. */
static int kind_of(const jrec *r)
{
    return r->tier == TIER_OSR || r->version_id == 0 ? KIND_FOREGROUND : KIND_TIERED;
}

/* JITStats.MethodComplete on record r. */
static void complete(const jit_state *s, jrec *r, const jload *ld)
{
    r->native_size = ld->size;
    r->jit_time_ms = ntx_an_ms(s->ctx, ld->ts) - ntx_an_ms(s->ctx, r->start_ts);
    if (ld->tier != 0) /* SetOptimizationTier keeps the tier it has for Unknown */
        r->tier = ld->tier;
    r->version_id = ld->rejit;
    r->flags |= REC_COMPLETE;
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
        if (!s->is_unit && (r->flags & REC_IN_WINDOW))
            s->open--;
    }
    return 1;
}

/* A record made from unit `unit`'s end ld that found no open record (JITStats.LogJitStart with the load's
   data), completed by it; pushed when it still looks open. */
static int rec_from_load(jit_state *s, lane *l, const jload *ld, uint32_t unit)
{
    uint64_t i = new_rec(s, unit, ld->before);
    if (i == UINT64_MAX)
        return NTIDX_E_NOMEM;
    jrec *r = rec_at(s, i);
    *r = (jrec){.name = ld->name, .who = ld->who, .start_ts = ld->ts, .method_id = ld->method_id,
                .module_id = ld->module_id, .flags = REC_IN_WINDOW};
    complete(s, r, ld);
    return still_open(r) ? push(s, l, i) : 0;
}

/* MethodNamespace + "." + MethodName + MethodSignature from its first "(" (JITStats.GetMethodName): its index
   in the unit's names (*id), made once per name. 0; 1 when a field is missing; NTIDX_E_NOMEM. */
static int method_name(jit_state *s, const ntidx_values *v, uint32_t *id)
{
    size_t nsl = 0, nml = 0, sgl = 0;
    const char *ns = ntx_an_str(v, "MethodNamespace", &nsl), *nm = ntx_an_str(v, "MethodName", &nml);
    const char *sig = ntx_an_str(v, "MethodSignature", &sgl);
    if (!ns || !nm || !sig)
        return 1;
    const char *paren = memchr(sig, '(', sgl);
    size_t al = paren ? sgl - (size_t)(paren - sig) : 0, len = nsl + 1 + nml + al;
    if (len + 1 > s->scratch_cap) {
        char *b = realloc(s->scratch, len + 1);
        if (!b)
            return NTIDX_E_NOMEM;
        s->scratch = b;
        s->scratch_cap = len + 1;
    }
    char *name = s->scratch;
    memcpy(name, ns, nsl);
    name[nsl] = '.';
    memcpy(name + nsl + 1, nm, nml);
    if (al)
        memcpy(name + nsl + 1 + nml, paren, al);
    name[len] = 0;
    jtab *t = &s->tab;
    uint64_t h = ntx_xxh3(name, len);
    uintptr_t known = (uintptr_t)ntx_idmap_get(&t->by_hash, h);
    if (known) {
        const char *k = t->names[known - 1];
        if (strlen(k) == len && !memcmp(k, name, len)) {
            *id = (uint32_t)(known - 1);
            return 0;
        }
        /* another name of the same hash: stored again, not looked up (the table stays right, only larger) */
    }
    if (!t->nnames) { /* index 0 is a Method/Load's name */
        if (ntx_grow((void **)&t->names, &t->names_cap, 1, sizeof *t->names, 16, UINT32_MAX) < 0)
            return NTIDX_E_NOMEM;
        t->names[t->nnames++] = "";
    }
    if (ntx_grow((void **)&t->names, &t->names_cap, t->nnames + 1, sizeof *t->names, 16, UINT32_MAX) < 0)
        return NTIDX_E_NOMEM;
    char *copy = ntx_arena_strndup(&t->bytes, name, len);
    if (!copy || (!known && ntx_idmap_put(&t->by_hash, h, (void *)(uintptr_t)(t->nnames + 1)) < 0))
        return NTIDX_E_NOMEM;
    t->names[t->nnames] = copy;
    *id = (uint32_t)t->nnames++;
    return 0;
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
    uint32_t name = 0;
    if (!s->lookahead) { /* a record the lookahead begins is not reported: it needs no name */
        int rc = method_name(s, e->values, &name);
        if (rc)
            return rc;
    }
    /* a unit's record (the merge names its chunk's unit), or one the lookahead begins */
    uint64_t i = new_rec(s, UNIT_LOOKAHEAD, 0);
    if (i == UINT64_MAX)
        return NTIDX_E_NOMEM;
    jrec *r = rec_at(s, i);
    r->name = name;
    r->who = l->who;
    r->start_ts = e->ts;
    r->il_size = (int32_t)il;
    r->flags = s->lookahead ? 0 : REC_IN_WINDOW;
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
    jload ld = {.ts = e->ts, .thread = e->thread, .pid = e->pid, .size = (int32_t)size,
                .tier = (uint8_t)(((uint32_t)flags >> 7) & 7)};
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
    /* the merge (the lookahead aside) never reads events: this is a unit's end without a start */
    if (e->ev->metadata->event_id == EV_METHOD_LOAD_VERBOSE) {
        int rc = method_name(s, e->values, &ld.name);
        if (rc)
            return rc;
    }
    ld.who = l->who;
    ld.before = s->nchunks ? (uint32_t)s->chunks[0].n : 0;
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
    return e->ev->metadata->event_id == EV_JITTING_STARTED ? jit_start(s, e) : jit_load(s, e);
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
    /* 0. Its tables, which its records and those made from its ends name, by unit. */
    jtab *nt = realloc(m->tabs, (m->ntabs + 1) * sizeof *nt);
    if (!nt)
        return NTIDX_E_NOMEM;
    m->tabs = nt;
    m->tabs[m->ntabs++] = u->tab;
    ntx_idmap_free(&m->tabs[unit].by_hash); /* no more names come */
    memset(&u->tab, 0, sizeof u->tab);
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
        jchunk uc = u->chunks[0];
        uc.unit = unit;
        if (add_chunk(m, uc) < 0)
            return NTIDX_E_NOMEM;
        u->chunks[0] = (jchunk){0}; /* the records are the merge's now */
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

/*
 * The merge's records as they are (56 bytes each) and the units' tables of
 * names and threads, not copied into rows (ntidx_jit_method, 136 bytes and a
 * copy of the name each: 253 MB of rows on a trace of 1.86 million
 * methods). The cells read the records, computing the ms from the ticks with
 * the same ntx_an_ms() (the same bits); ntidx_jit_at()'s rows are made on its
 * first call.
 */
typedef struct jit_result {
    jchunk *chunks;          /* the records (the lookahead's chunk emptied) */
    size_t nchunks;
    jtab *tabs;              /* by unit */
    size_t ntabs;
    uint64_t *order;         /* row -> its record, chunk << 32 | place */
    size_t n;                /* rows */
    jit_sum *sums;
    size_t nsums;
    ntx_an_ctx clock;        /* the trace's sync time and tick frequency, for ntx_an_ms() */
    _Atomic(ntidx_jit_method *) typed; /* ntidx_jit_at()'s rows (NULL: not asked yet) */
} jit_result;

static void free_result(void *p)
{
    jit_result *r = p;
    if (!r)
        return;
    free_chunks(r->chunks, r->nchunks);
    free_tabs(r->tabs, r->ntabs);
    free(r->order);
    free(r->sums);
    free(atomic_load(&r->typed));
    free(r);
}

/* Row `row`'s record, and in *tab the tables it names. */
static inline const jrec *row_rec(const jit_result *r, uint64_t row, const jtab **tab)
{
    uint64_t i = r->order[row];
    const jchunk *c = &r->chunks[i >> 32];
    *tab = &r->tabs[c->unit];
    return &c->recs[(uint32_t)i];
}

static inline const char *name_of(const jtab *t, const jrec *j) { return j->name ? t->names[j->name] : ""; }

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
    const jit_result *r = data;
    const jtab *t;
    const jrec *j = row_rec(r, row, &t);
    switch (col) {
    case C_NAME: out->s = name_of(t, j); break;
    case C_IL: out->i = j->il_size; break;
    case C_NATIVE: out->i = j->native_size; break;
    case C_JIT_TIME: out->f = j->jit_time_ms; break;
    case C_TIER: out->s = ntidx_jit_tier_name(j->tier, NULL, 0); break;
    case C_START: out->f = ntx_an_ms(&r->clock, j->start_ts); break;
    case C_COMPLETE: out->u = (j->flags & REC_COMPLETE) != 0; break;
    case C_PID: out->u = t->who_pid[j->who]; break;
    case C_THREAD: out->u = t->who_thread[j->who]; break;
    case C_TS: out->u = j->start_ts; break;
    case C_METHOD_ID: out->u = j->method_id; break;
    case C_MODULE_ID: out->u = j->module_id; break;
    case C_VERSION: out->i = j->version_id; break;
    default: out->s = kind_names[kind_of(j)]; break;
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

static uint32_t pid_of_row(const jit_result *r, size_t row)
{
    const jtab *t;
    const jrec *j = row_rec(r, row, &t);
    return t->who_pid[j->who];
}

static void add_to(jit_sum *s, const jrec *j)
{
    if (!(j->flags & REC_COMPLETE)) {
        s->incomplete++;
        return;
    }
    s->count++;
    s->total_jit_time_ms += j->jit_time_ms;
    s->total_il_size += j->il_size;
    s->total_native_size += j->native_size;
    if (kind_of(j) == KIND_TIERED) {
        s->count_background_tiered++;
        s->background_tiered_ms += j->jit_time_ms;
    } else {
        s->count_foreground++;
        s->foreground_ms += j->jit_time_ms;
    }
}

/* One process's summary rows as its rows are added in their order: each sum adds its rows in row order (the
   same doubles whichever pass adds them). */
#define TIERS (sizeof tier_names / sizeof tier_names[0])
typedef struct process_sums {
    jit_sum tiers[TIERS], all;
    int any[TIERS];
} process_sums;

static void sums_begin(process_sums *p, uint32_t pid)
{
    for (size_t t = 0; t < TIERS; t++) {
        p->tiers[t] = (jit_sum){.pid = pid, .tier = tier_names[t]};
        p->any[t] = 0;
    }
    p->all = (jit_sum){.pid = pid, .tier = "all"};
}

static inline void sums_add(process_sums *p, const jrec *j)
{
    if (j->tier < TIERS) {
        add_to(&p->tiers[j->tier], j);
        p->any[j->tier] = 1;
    }
    add_to(&p->all, j);
}

/* Its rows: one per tier present (in the tiers' order) and one for all. */
static void sums_put(jit_result *r, const process_sums *p)
{
    for (size_t t = 0; t < TIERS; t++)
        if (p->any[t])
            r->sums[r->nsums++] = p->tiers[t];
    r->sums[r->nsums++] = p->all;
}

/*
 * The processes of the rows, known before a record is read: every pid of
 * the units' thread tables (few: a unit's threads), sorted, and each
 * thread's place among them. The ordering pass then counts each process's
 * rows and, for a few processes, adds up their totals as it goes: on a
 * trace of millions of methods every pass over the records (100 MB) is
 * most of the analysis's serial part.
 */
/* Processes whose totals the ordering pass adds up: a trace holds one, or a few; more (a trace can name a
   process per thread) take a pass of their own, not a table of totals per process. */
#define SUMMED_PROCESSES 4
typedef struct row_plan {
    uint32_t *pids;          /* distinct, ascending */
    size_t np;
    uint32_t *who_place;     /* tab k's thread w: its process's place in pids, at who_base[k] + w */
    size_t *who_base;
    uint64_t *count;         /* rows per process */
    uint32_t *row_place;     /* per row, its process's place (when np > 1) */
    process_sums *sums;      /* per process (when np <= SUMMED_PROCESSES) */
} row_plan;

static void plan_free(row_plan *pl)
{
    free(pl->pids);
    free(pl->who_place);
    free(pl->who_base);
    free(pl->count);
    free(pl->row_place);
    free(pl->sums);
}

static int by_pid(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* 0, or NTIDX_E_NOMEM. */
static int plan_rows(const jit_result *r, size_t total, row_plan *pl)
{
    memset(pl, 0, sizeof *pl);
    size_t w = 0;
    if (!(pl->who_base = malloc((r->ntabs ? r->ntabs : 1) * sizeof *pl->who_base)))
        return NTIDX_E_NOMEM;
    for (size_t k = 0; k < r->ntabs; k++) {
        pl->who_base[k] = w;
        w += r->tabs[k].nwho;
    }
    if (!(pl->pids = malloc((w ? w : 1) * sizeof *pl->pids)) ||
        !(pl->who_place = malloc((w ? w : 1) * sizeof *pl->who_place)))
        return NTIDX_E_NOMEM;
    for (size_t k = 0; k < r->ntabs; k++)
        if (r->tabs[k].nwho)
            memcpy(pl->pids + pl->who_base[k], r->tabs[k].who_pid, r->tabs[k].nwho * sizeof *pl->pids);
    qsort(pl->pids, w, sizeof *pl->pids, by_pid);
    for (size_t i = 0; i < w; i++)
        if (!pl->np || pl->pids[pl->np - 1] != pl->pids[i])
            pl->pids[pl->np++] = pl->pids[i];
    for (size_t k = 0; k < r->ntabs; k++)
        for (size_t i = 0; i < r->tabs[k].nwho; i++) {
            const uint32_t *at = bsearch(&r->tabs[k].who_pid[i], pl->pids, pl->np, sizeof *pl->pids, by_pid);
            pl->who_place[pl->who_base[k] + i] = (uint32_t)(at - pl->pids);
        }
    if (!(pl->count = calloc(pl->np ? pl->np : 1, sizeof *pl->count)))
        return NTIDX_E_NOMEM;
    if (pl->np > 1 && !(pl->row_place = malloc((total ? total : 1) * sizeof *pl->row_place)))
        return NTIDX_E_NOMEM;
    if (pl->np <= SUMMED_PROCESSES) {
        if (pl->np && !(pl->sums = malloc(pl->np * sizeof *pl->sums)))
            return NTIDX_E_NOMEM;
        for (size_t k = 0; k < pl->np; k++)
            sums_begin(&pl->sums[k], pl->pids[k]);
    }
    return 0;
}

/*
 * The window's records (of the thread asked for, if any) into r->order in
 * the order they began: unit by unit, each unit's own records (in the order
 * of its events) with those the merge made from its ends without a start
 * between them (each before the first of the unit's records that began after
 * its end: `before`). Each row's process counted (and its place kept), its
 * totals added when pl->sums.
 */
static void order_rows(jit_result *r, const ntidx_analysis_options *o, row_plan *pl)
{
    size_t n = 0;
    for (size_t c = 0; c < r->nchunks;) {
        const jchunk *own = NULL, *mine = NULL;
        size_t co = 0, cm = 0;
        if (r->chunks[c].own) {
            if (r->chunks[c].unit == UNIT_LOOKAHEAD) {
                c++;
                continue;
            }
            co = c;
            own = &r->chunks[c++];
        }
        if (c < r->nchunks && !r->chunks[c].own && (!own || r->chunks[c].unit == own->unit)) {
            cm = c;
            mine = &r->chunks[c++];
        }
        uint32_t unit = own ? own->unit : mine->unit;
        const jtab *t = &r->tabs[unit];
        const uint32_t *place = pl->who_place + pl->who_base[unit];
        size_t no = own ? own->n : 0, nm = mine ? mine->n : 0;
        for (size_t i = 0, k = 0; i < no || k < nm;) {
            uint64_t at;
            const jrec *j;
            if (i < no && (k >= nm || own->before[i] <= k)) {
                at = (uint64_t)co << 32 | i;
                j = &own->recs[i++];
            } else {
                at = (uint64_t)cm << 32 | k;
                j = &mine->recs[k++];
            }
            if (!(j->flags & REC_IN_WINDOW) || (o->has_thread && t->who_thread[j->who] != o->thread))
                continue;
            uint32_t p = place[j->who];
            pl->count[p]++;
            if (pl->row_place)
                pl->row_place[n] = p;
            if (pl->sums)
                sums_add(&pl->sums[p], j);
            r->order[n++] = at;
        }
    }
    r->n = n;
}

/* The rows grouped by process (by pid, each process's rows in their order), when they are of more than one:
   0, or NTIDX_E_NOMEM. */
static int group_by_process(jit_result *r, const row_plan *pl)
{
    size_t with_rows = 0;
    for (size_t k = 0; k < pl->np; k++)
        with_rows += pl->count[k] > 0;
    if (with_rows < 2)
        return 0; /* in that order already */
    uint64_t *start = malloc(pl->np * sizeof *start), *tmp = malloc(r->n * sizeof *tmp);
    if (!start || !tmp) {
        free(start);
        free(tmp);
        return NTIDX_E_NOMEM;
    }
    for (size_t k = 0, at = 0; k < pl->np; k++) {
        start[k] = at;
        at += pl->count[k];
    }
    for (size_t i = 0; i < r->n; i++)
        tmp[start[pl->row_place[i]]++] = r->order[i];
    free(start);
    free(r->order);
    r->order = tmp;
    return 0;
}

/* Rows per process (the rows grouped by process), in a pass of their own: one pass over a process's rows,
   where a pass per tier was most of the analysis's serial part on a trace of millions of methods. */
static void summarize(jit_result *r)
{
    for (size_t i = 0; i < r->n;) {
        uint32_t pid = pid_of_row(r, i);
        process_sums p;
        sums_begin(&p, pid);
        for (; i < r->n; i++) {
            const jtab *t;
            const jrec *j = row_rec(r, i, &t);
            if (t->who_pid[j->who] != pid)
                break;
            sums_add(&p, j);
        }
        sums_put(r, &p);
    }
}

static int finish(void *merged, ntidx_analysis **out, ntx_an_counts *counts, ntx_err *err)
{
    jit_state *m = merged;
    counts->unmatched += m->unmatched;
    jit_result *r = calloc(1, sizeof *r);
    if (!r)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    /* the records and the tables move to the result; the lookahead's records are not the window's */
    r->chunks = m->chunks;
    r->nchunks = m->nchunks;
    m->chunks = NULL;
    m->nchunks = m->chunks_cap = 0;
    r->tabs = m->tabs;
    r->ntabs = m->ntabs;
    m->tabs = NULL;
    m->ntabs = 0;
    r->clock.sync_ticks = m->ctx->sync_ticks;
    r->clock.tick_frequency = m->ctx->tick_frequency;
    atomic_init(&r->typed, NULL);
    size_t total = 0;
    for (size_t c = 0; c < r->nchunks; c++) {
        jchunk *ch = &r->chunks[c];
        if (ch->own && ch->unit == UNIT_LOOKAHEAD) {
            free(ch->recs);
            free(ch->before);
            *ch = (jchunk){.unit = UNIT_LOOKAHEAD, .own = 1};
        }
        total += ch->n;
    }
    row_plan pl;
    int rc = plan_rows(r, total, &pl);
    if (rc == 0 && !(r->order = malloc((total ? total : 1) * sizeof *r->order)))
        rc = NTIDX_E_NOMEM;
    if (rc == 0) {
        order_rows(r, m->ctx->o, &pl);
        rc = group_by_process(r, &pl);
    }
    size_t with_rows = 0;
    for (size_t k = 0; rc == 0 && k < pl.np; k++)
        with_rows += pl.count[k] > 0;
    if (rc == 0 && !(r->sums = malloc((with_rows * (TIERS + 1) + 1) * sizeof *r->sums))) /* the tiers and all */
        rc = NTIDX_E_NOMEM;
    uint64_t incomplete = 0;
    if (rc == 0) {
        if (!r->n) /* no record: the trace's process's "all" row, empty */
            r->sums[r->nsums++] = (jit_sum){.pid = m->ctx->pid, .tier = "all"};
        else if (!pl.sums)
            summarize(r);
        else
            for (size_t k = 0; k < pl.np; k++)
                if (pl.count[k])
                    sums_put(r, &pl.sums[k]);
        for (size_t k = 0; k < r->nsums; k++)
            if (!strcmp(r->sums[k].tier, "all"))
                incomplete += r->sums[k].incomplete;
    }
    plan_free(&pl);
    if (rc == 0)
        rc = ntx_analysis_new("jit", NTX_ANALYSIS_JIT, r, free_result, out);
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

/* ntidx_jit_at()'s rows, made on its first call (a C program's; the tables do without): NULL when out of
   memory. Another thread may make them at the same time: the first to finish gives them to both. */
static const ntidx_jit_method *typed_rows(jit_result *r)
{
    ntidx_jit_method *t = atomic_load_explicit(&r->typed, memory_order_acquire);
    if (t || !r->n)
        return t;
    if (!(t = calloc(r->n, sizeof *t)))
        return NULL;
    for (size_t i = 0; i < r->n; i++) {
        const jtab *tb;
        const jrec *j = row_rec(r, i, &tb);
        t[i] = (ntidx_jit_method){.method_name = name_of(tb, j), .il_size = j->il_size,
                                  .native_size = j->native_size, .jit_time_ms = j->jit_time_ms,
                                  .optimization_tier = j->tier, .is_complete = (j->flags & REC_COMPLETE) != 0,
                                  .pid = tb->who_pid[j->who], .thread = tb->who_thread[j->who], .ts = j->start_ts,
                                  .start_relative_ms = ntx_an_ms(&r->clock, j->start_ts), .method_id = j->method_id,
                                  .module_id = j->module_id, .version_id = j->version_id,
                                  .compilation_thread_kind = kind_of(j)};
    }
    ntidx_jit_method *none = NULL;
    if (!atomic_compare_exchange_strong_explicit(&r->typed, &none, t, memory_order_acq_rel, memory_order_acquire)) {
        free(t); /* another thread made them first */
        t = none;
    }
    return t;
}

NTIDX_API const ntidx_jit_method *ntidx_jit_at(const ntidx_analysis *a, size_t i)
{
    jit_result *r = ntx_analysis_data(a, NTX_ANALYSIS_JIT);
    if (!r || i >= r->n)
        return NULL;
    const ntidx_jit_method *t = typed_rows(r);
    return t ? &t[i] : NULL;
}
