/*
 * The GC analysis: TraceEvent's TraceGC records and GCStats summaries
 * (include/ntidx/analysis.h), computed by the machine of gc_machine.c over
 * the window's work units in parallel.
 *
 * Why a replay, not pairs. TraceEvent's GC computer is one state machine
 * per process whose every step may depend on all the events before it (the
 * GC in progress, the background GC running, the suspension under way, the
 * last GC/HeapStats), not a set of pairs independent by key. A unit does not
 * know the state its first event meets, so it runs the machine from the
 * fresh state and keeps, beside the GCs it finishes:
 *  - the tape: its GC events, compact (gc_ev; allocation ticks summed into
 *    runs), what the merge replays;
 *  - snapshots of its state at the first points where nothing is in
 *    progress (gc_quiescent(): every GC of the list complete, no background
 *    GC running), with the number of GCs and of unmatched events so far.
 * The merge (merge_unit) carries the true state over the units in time
 * order: it replays a unit's tape from the carried state up to a snapshot;
 * where its state is then that snapshot's (gc_state_equal_but_alloc), the
 * unit's own run from there on is what the replay would compute, so its GCs
 * from that point and its state at its end are taken as they are, but for
 * the allocation sums since the last GC/HeapStats, which the replay's
 * exceed by amounts it adds where the unit's next GC/HeapStats takes them
 * (a unit in a stretch without GCs, whose sums never equal the replay's,
 * was replayed whole: on the serial path). The events before
 * the snapshot are the unit's "ends without a start" (the GC that began in
 * an earlier region and ends in this one is finished by the replay); its
 * state at the end is its "open pairs". A unit that never meets the carried
 * state (a background GC running through it) is replayed whole. Either way
 * every GC is what one pass over the window's events in time order gives,
 * whatever the number of threads and the cut into units.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"
#include "fields.h"
#include "gc_machine.h"
#include "grow.h"
#include "tape.h"

#define MAX_SNAPS 16

enum {
    EV_GC_START = 1, EV_GC_END = 2, EV_RESTART_STOP = 3, EV_HEAP_STATS = 4, EV_SUSPEND_STOP = 8,
    EV_SUSPEND_START = 9, EV_ALLOC_TICK = 10, EV_PER_HEAP = 204
};

#define RUNTIME "Microsoft-Windows-DotNETRuntime"
static const ntx_event_type gc_types[] = {
    {RUNTIME, EV_GC_START},       {RUNTIME, EV_GC_END},         {RUNTIME, EV_RESTART_STOP},
    {RUNTIME, EV_HEAP_STATS},     {RUNTIME, EV_SUSPEND_STOP},   {RUNTIME, EV_SUSPEND_START},
    {RUNTIME, EV_ALLOC_TICK},     {RUNTIME, EV_PER_HEAP},
};

/* ---- Intake: decoded events to compact ones ---- */

typedef struct snap {
    size_t pos;          /* tape entries before it */
    gc_state st;
    size_t nrecs;        /* GCs the unit's own run had then */
    uint64_t unmatched;
} snap;

/* A process as a unit or the merge sees it. */
typedef struct lane {
    gc_lane m;           /* the machine (the unit's own run, or the merge's true one) */
    gc_alloc_run run;    /* allocation ticks not yet fed */
    int run_open;
    /* units only: */
    gc_ev *tape;
    size_t ntape, tape_cap;
    snap snaps[MAX_SNAPS];
    size_t nsnaps;
    int64_t window_restart_end; /* the merge: lastRestartEnd at the window's end (ProcessDuration) */
} lane;

typedef struct gcx {
    const ntx_an_ctx *ctx;
    gc_env env;
    int is_unit;         /* a unit keeps a tape and snapshots */
    lane *lanes;
    size_t nlanes;
    gc_heap_hist *pool;  /* per-heap histories the tape's PER_HEAP events index */
    size_t npool, pool_cap;
    gc_heap_stats *hstats; /* GC/HeapStats' sizes the tape's HEAP_STATS events index */
    size_t nhstats, hstats_cap;
    int lookahead;       /* the merge: past the window's last unit */
    /* where the fields of the two types read by the million lie (the others are decoded) */
    ntx_an_places tick_places, suspend_places;
} gcx;

static int gcx_new(const ntx_an_ctx *ctx, int is_unit, void **out)
{
    gcx *g = calloc(1, sizeof *g);
    if (!g)
        return NTIDX_E_NOMEM;
    g->ctx = ctx;
    g->is_unit = is_unit;
    g->env.sync_ticks = ctx->sync_ticks;
    g->env.tick_frequency = ctx->tick_frequency;
    g->env.t1 = ctx->o->t1;
    *out = g;
    return 0;
}

static int unit_new(const ntx_an_ctx *ctx, void **out) { return gcx_new(ctx, 1, out); }
static int merge_new(const ntx_an_ctx *ctx, void **out) { return gcx_new(ctx, 0, out); }

static void gcx_free(void *p)
{
    gcx *g = p;
    for (size_t i = 0; i < g->nlanes; i++) {
        gc_lane_free(&g->lanes[i].m);
        ntx_tape_free(g->lanes[i].tape, g->lanes[i].tape_cap, sizeof *g->lanes[i].tape);
    }
    free(g->lanes);
    free(g->pool);
    free(g->hstats);
    free(g);
}

static lane *lane_of(gcx *g, uint32_t pid)
{
    for (size_t i = 0; i < g->nlanes; i++)
        if (g->lanes[i].m.pid == pid)
            return &g->lanes[i];
    lane *nl = realloc(g->lanes, (g->nlanes + 1) * sizeof *nl);
    if (!nl)
        return NULL;
    g->lanes = nl;
    lane *l = &g->lanes[g->nlanes++];
    memset(l, 0, sizeof *l);
    gc_lane_init(&l->m, pid);
    l->window_restart_end = GC_NONE;
    if (g->is_unit) /* the fresh state, before the unit's first event */
        l->snaps[l->nsnaps++] = (snap){0, l->m.st, 0, 0};
    return l;
}

/* Feed one compact event: to the tape (units), to the machine, and a snapshot where it leaves the unit's
   run with nothing in progress. */
static int feed(gcx *g, lane *l, const gc_ev *e)
{
    if (g->is_unit) {
        if (l->ntape == l->tape_cap && ntx_tape_grow((void **)&l->tape, &l->tape_cap, l->ntape + 1, sizeof *l->tape) < 0)
            return NTIDX_E_NOMEM;
        l->tape[l->ntape++] = *e;
    }
    int was_quiet = gc_quiescent(&l->m);
    g->env.heaps = g->pool;
    g->env.heap_stats = g->hstats;
    int rc = gc_step(&l->m, &g->env, e);
    if (rc < 0)
        return rc;
    if (g->is_unit && !was_quiet && gc_quiescent(&l->m) && l->nsnaps < MAX_SNAPS)
        l->snaps[l->nsnaps++] = (snap){l->ntape, l->m.st, l->m.nrecs, l->m.unmatched};
    return 0;
}

/* The allocation ticks added up since the last other event, fed as one. */
static int flush_run(gcx *g, lane *l)
{
    if (!l->run_open)
        return 0;
    gc_alloc_run r = l->run;
    l->run_open = 0;
    memset(&l->run, 0, sizeof l->run);
    /* one event per kind of tick in the run, the first one carrying its bad start */
    int first = 1;
    for (uint8_t k = 0; k < 3; k++) {
        if (!(r.kinds & 1u << k))
            continue;
        gc_ev e = {.kind = GC_EV_ALLOC, .alloc_kind = k, .alloc_bad = (uint8_t)(first && r.starts_bad)};
        e.u.alloc.raw = r.raw[k];
        e.u.alloc.clamped = r.clamped[k];
        first = 0;
        int rc = feed(g, l, &e);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* The fields per_heap() reads of a generation's entry, in the order the runtime's manifest lays them out. */
static const char *const gen_names[] = {"SizeBefore", "FreeListBefore", "FreeObjBefore",
                                        "SizeAfter",  "FreeListAfter",  "FreeObjAfter"};
#define GEN_FIELDS (sizeof gen_names / sizeof gen_names[0])

/* A generation's entry's fields, where the manifest puts them: 1 when each is there, named so and unsigned, 0
   otherwise (the event is then skipped as a field error). The manifest's template decodes PerHeapHistory
   whatever field list the trace gives, later versions than the template's included (as TraceEvent's parser
   does: manifest.c), so an entry is always laid out so; looking each field up by name among the entry's ten
   was half of reading the PerHeapHistory events of the real 1 GB trace. */
static int gen_fields(const ntidx_values *v, const ntidx_value *obj, int64_t out[GEN_FIELDS])
{
    const ntidx_value *c = obj->kind == NTIDX_VALUE_OBJECT ? ntidx_values_child(v, obj) : NULL;
    for (size_t k = 0; k < GEN_FIELDS; k++, c = ntidx_values_next(v, c)) {
        if (!c || !c->name || strcmp(c->name, gen_names[k]) || c->kind != NTIDX_VALUE_UINT)
            return 0;
        out[k] = (int64_t)c->u;
    }
    return 1;
}

/* GCAllocationTickTraceData.GetAllocAmount()'s inputs, into the lane's run (read in place: a million ticks a
   GB, each with a type name the GC does not read). 0, 1 (a field missing), < 0 with err set. */
static int alloc_tick(gcx *g, lane *l, const ntx_an_event *e, ntx_err *err)
{
    static const char *const names[] = {"AllocationAmount", "AllocationKind", "AllocationAmount64"};
    const ntx_field_place *at = ntx_an_places_of(&g->tick_places, g->ctx->t, e->ev->metadata, names, 3);
    int64_t amount32, kind, amount = 0;
    int rc;
    if ((rc = ntx_an_field_int(e, &at[0], names[0], &amount32, err)) != 1 ||
        (rc = ntx_an_field_int(e, &at[1], names[1], &kind, err)) != 1)
        return rc < 0 ? rc : 1;
    if (e->ev->metadata->version >= 2 && (rc = ntx_an_field_int(e, &at[2], names[2], &amount, err)) < 0)
        return rc;
    if (amount == 0)
        amount = (int32_t)(uint32_t)amount32; /* TraceEvent reads it as an int */
    int k = kind == 0 ? 0 : kind == 1 ? 1 : 2;
    if (amount < 0) { /* from here on TraceEvent clamps every amount: a run of its own */
        if (flush_run(g, l) < 0)
            return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
        l->run.starts_bad = 1;
    }
    int64_t clamped = amount < 90 * 1024 ? 90 * 1024 : amount;
    int64_t cap = kind == 0 ? 110 * 1024 : 2 * 1024 * 1024;
    l->run.raw[k] = gc_add_wrapping(l->run.raw[k], amount);
    l->run.clamped[k] = gc_add_wrapping(l->run.clamped[k], clamped < cap ? clamped : cap);
    l->run.kinds |= 1u << k;
    l->run_open = 1;
    return 0;
}

/* GC/PerHeapHistory v3 and later, into the pool. 1 when a field is missing. */
static int per_heap(gcx *g, const ntx_an_event *e, const ntidx_values *v, gc_ev *out)
{
    const ntidx_event *ev = e->ev;
    uint32_t ptr = ntidx_trace_get_info(g->ctx->t)->pointer_size;
    if (ev->metadata->version < 3)
        return 1; /* the layouts of .NET Framework's versions 0-2 are not decoded */
    int64_t count;
    const ntidx_value *vals = ntidx_values_find(v, "Values");
    if (!ntx_an_int(v, "Count", &count) || !vals || vals->kind != NTIDX_VALUE_ARRAY)
        return 1;
    /* GCPerHeapHistoryTraceData.VersionRecognized: at least 4 generations' data */
    out->u.per_heap.recognized = ev->payload_size >= 2 + 7 * ptr + 7 * 4 + 4 * 10 * ptr;
    gc_heap_hist h = {.ngens = count > GC_GENS ? GC_GENS : (uint32_t)count};
    uint32_t gen = 0;
    for (const ntidx_value *o = ntidx_values_child(v, vals); o && gen < h.ngens;
         o = ntidx_values_next(v, o), gen++) {
        int64_t f[GEN_FIELDS];
        if (!gen_fields(v, o, f))
            return 1;
        int64_t sb = f[0], flb = f[1], fob = f[2], sa = f[3], fla = f[4], foa = f[5];
        h.size_before[gen] = sb;
        h.obj_space_before[gen] = gc_sub_wrapping(gc_sub_wrapping(sb, flb), fob);
        h.obj_size_after[gen] = gc_sub_wrapping(sa, gc_add_wrapping(fla, foa));
    }
    if (gen < h.ngens)
        return 1;
    /* at most UINT32_MAX: the tape's events index the pool with a uint32_t */
    if (ntx_grow((void **)&g->pool, &g->pool_cap, g->npool + 1, sizeof *g->pool, 16, UINT32_MAX) < 0)
        return NTIDX_E_NOMEM;
    out->u.per_heap.index = (uint32_t)g->npool;
    g->pool[g->npool++] = h;
    return 0;
}

/* One event of the analysis's types: 0, 1 (a field it needs is missing: skipped), < 0 with err set. The
   ticks and suspensions, by the million, are read in place; the rarer GC events decoded. */
static int take(gcx *g, const ntx_an_event *e, ntx_err *err)
{
    lane *l = lane_of(g, e->pid);
    if (!l)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    uint32_t id = e->ev->metadata->event_id;
    if (id == EV_ALLOC_TICK)
        return alloc_tick(g, l, e, err);
    gc_ev c = {.ts = (int64_t)e->ts, .thread = (int64_t)e->thread};
    int64_t a = 0, b = 0;
    const ntidx_values *v = NULL;
    int rc = 0;
    if (id == EV_GC_START || id == EV_HEAP_STATS || id == EV_PER_HEAP) {
        if ((rc = ntx_an_values(e, &v, err)) != 0)
            return rc;
    }
    switch (id) {
    case EV_SUSPEND_START: {
        static const char *const names[] = {"Reason"};
        const ntx_field_place *at = ntx_an_places_of(&g->suspend_places, g->ctx->t, e->ev->metadata, names, 1);
        if ((rc = ntx_an_field_int(e, &at[0], names[0], &a, err)) != 1)
            return rc < 0 ? rc : 1;
        c.kind = GC_EV_SUSPEND_START;
        c.u.reason = (uint32_t)a;
        break;
    }
    case EV_SUSPEND_STOP:
        c.kind = GC_EV_SUSPEND_STOP;
        break;
    case EV_RESTART_STOP:
        c.kind = GC_EV_RESTART_STOP;
        break;
    case EV_GC_START:
        if (!ntx_an_int(v, "Count", &a) || !ntx_an_int(v, "Reason", &b))
            return 1;
        c.kind = GC_EV_START;
        c.u.start.count = (uint32_t)a;
        c.u.start.reason = (uint32_t)b;
        /* version 0 has neither: TraceEvent gives depth 0 and a blocking GC */
        c.u.start.depth = ntx_an_int(v, "Depth", &a) ? (uint32_t)a : 0;
        c.u.start.type = ntx_an_int(v, "Type", &a) ? (uint32_t)a : 0;
        break;
    case EV_GC_END:
        c.kind = GC_EV_END;
        break;
    case EV_HEAP_STATS: {
        static const char *const sizes[] = {"GenerationSize0", "GenerationSize1", "GenerationSize2",
                                            "GenerationSize3", "GenerationSize4"};
        static const char *const promoted[] = {"TotalPromotedSize0", "TotalPromotedSize1", "TotalPromotedSize2",
                                               "TotalPromotedSize3", "TotalPromotedSize4"};
        c.kind = GC_EV_HEAP_STATS;
        gc_heap_stats hs;
        for (int k = 0; k < GC_GENS; k++) {
            int have = ntx_an_int(v, sizes[k], &a) && ntx_an_int(v, promoted[k], &b);
            if (!have && k < 4)
                return 1;
            hs.size[k] = have ? (uint64_t)a : 0; /* the POH's from version 2 */
            hs.promoted[k] = have ? (uint64_t)b : 0;
        }
        if (ntx_grow((void **)&g->hstats, &g->hstats_cap, g->nhstats + 1, sizeof *g->hstats, 16, UINT32_MAX) < 0)
            return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
        c.u.heap_index = (uint32_t)g->nhstats;
        g->hstats[g->nhstats++] = hs;
        break;
    }
    case EV_PER_HEAP: {
        c.kind = GC_EV_PER_HEAP;
        rc = per_heap(g, e, v, &c);
        if (rc != 0)
            return rc < 0 ? ntx_err_set(err, rc, "out of memory") : rc;
        break;
    }
    default:
        return 0;
    }
    if (flush_run(g, l) < 0 || feed(g, l, &c) < 0)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    return 0;
}

static int unit_event(void *unit, const ntx_an_event *e, ntx_err *err) { return take(unit, e, err); }

static int unit_end(void *unit, ntx_err *err)
{
    gcx *g = unit;
    for (size_t i = 0; i < g->nlanes; i++)
        if (flush_run(g, &g->lanes[i]) < 0)
            return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    return 0;
}

/* ---- The merge ---- */

/* Replay tape[from, to) of a unit into the merge's lane. */
static int replay(gcx *m, lane *into, const lane *u, const gcx *owner, size_t from, size_t to)
{
    m->env.heaps = owner->pool;
    m->env.heap_stats = owner->hstats;
    for (size_t i = from; i < to; i++) {
        int rc = gc_step(&into->m, &m->env, &u->tape[i]);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/*
 * The unit's run agrees with the replay from snapshot s on, but for the allocation ticks. The replay's sums
 * since the last GC/HeapStats exceed the unit's (which began at zero, or at the snapshot's own) by the same
 * amounts until the unit's next GC/HeapStats zeroes both; that GC/HeapStats gives the sums to its GC, whose
 * figures are made again from the unit's sums and the difference (without one, the difference is carried in
 * the end state). Where the replay had seen a bad tick and the unit's run had not, every amount from the
 * snapshot on is clamped in truth: each GC of the unit's from there takes the clamped sums (alloc_clamped)
 * its run kept beside its own. Every other figure is the unit's as it is.
 */
static void fix_alloc(gc_rec *g, const int64_t base[3], const int64_t add[3], int had_ticks)
{
    for (int k = 0; k < 3; k++)
        g->alloc_raw[k] = gc_add_wrapping(base[k], add[k]);
    g->alloc_had_ticks |= had_ticks;
    gc_rec_alloc_figures(g);
}

static void add_alloc_difference(gc_lane *M, const gc_lane *U, const snap *s, size_t base, const gc_state *at)
{
    const int clamp = at->bad_alloc_tick && !s->st.bad_alloc_tick; /* the unit's sums were raw, truly clamped */
    int64_t diff[3], diff_clamped[3], zero[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        diff[k] = gc_sub_wrapping(at->alloc_since[k], clamp ? s->st.alloc_clamped[k] : s->st.alloc_since[k]);
        diff_clamped[k] = gc_sub_wrapping(at->alloc_clamped[k], s->st.alloc_clamped[k]);
    }
    if (!clamp && !diff[0] && !diff[1] && !diff[2] && !diff_clamped[0] && !diff_clamped[1] && !diff_clamped[2] &&
        (!at->has_alloc_ticks || s->st.has_alloc_ticks))
        return; /* the unit's figures are the replay's already */
    M->st.bad_alloc_tick |= at->bad_alloc_tick;
    if (U->st.resets == s->st.resets) { /* no GC/HeapStats after the snapshot: the sums go on */
        for (int k = 0; k < 3; k++) {
            M->st.alloc_since[k] = gc_add_wrapping(clamp ? U->st.alloc_clamped[k] : U->st.alloc_since[k], diff[k]);
            M->st.alloc_clamped[k] = gc_add_wrapping(U->st.alloc_clamped[k], diff_clamped[k]);
        }
        return;
    }
    if (clamp)
        memcpy(M->st.alloc_since, U->st.alloc_clamped, sizeof M->st.alloc_since);
    /* every GC the unit's run made after the snapshot (in GC/Start order, not that of their GC/HeapStats: a
       background GC's comes after the ephemeral GCs it ran beside) */
    for (size_t i = base; i < M->nrecs; i++) {
        gc_rec *g = &M->recs[i];
        if (!g->has_heap_stats) /* no GC/HeapStats gave it sums */
            continue;
        if (g->alloc_reset == s->st.resets) /* the GC the first GC/HeapStats after the snapshot closes */
            fix_alloc(g, clamp ? g->alloc_clamped : g->alloc_raw, diff, at->has_alloc_ticks);
        else if (clamp)
            fix_alloc(g, g->alloc_clamped, zero, at->has_alloc_ticks);
    }
}

/* The unit's run agrees with the replay from snapshot s on (gc_state_equal_but_alloc): take its GCs from
   there and its end state. */
static int splice(lane *into, lane *u, const snap *s)
{
    gc_lane *M = &into->m, *U = &u->m;
    const gc_state at = M->st; /* the replay's state at the snapshot */
    size_t base = M->nrecs, add = U->nrecs - s->nrecs;
    if (M->nrecs + add > M->cap) {
        size_t nc = M->nrecs + add;
        gc_rec *nr = realloc(M->recs, nc * sizeof *nr);
        if (!nr)
            return NTIDX_E_NOMEM;
        M->recs = nr;
        M->cap = nc;
    }
    for (size_t i = s->nrecs; i < U->nrecs; i++) {
        M->recs[M->nrecs++] = U->recs[i];
        U->recs[i].heaps = NULL; /* moved */
    }
    gc_state st = U->st;
    /* GCs the unit had at the snapshot are the merge's (they are complete: only the last one is referred
       to, by number, and it is the merge's last) */
    st.last = st.last < 0 ? -1 : (size_t)st.last < s->nrecs ? M->st.last : (int64_t)(base + (size_t)st.last - s->nrecs);
    st.bgc = st.bgc < 0 ? -1 : (size_t)st.bgc < s->nrecs ? M->st.bgc : (int64_t)(base + (size_t)st.bgc - s->nrecs);
    st.has_alloc_ticks |= M->st.has_alloc_ticks;
    M->st = st;
    M->unmatched += U->unmatched - s->unmatched;
    M->version_mismatch |= U->version_mismatch;
    add_alloc_difference(M, U, s, base, &at);
    return 0;
}

static int merge_lane(gcx *m, lane *into, lane *u, const gcx *owner)
{
    size_t pos = 0;
    for (size_t k = 0; k < u->nsnaps; k++) {
        const snap *s = &u->snaps[k];
        int rc = replay(m, into, u, owner, pos, s->pos);
        if (rc < 0)
            return rc;
        pos = s->pos;
        if (gc_quiescent(&into->m) && gc_state_equal_but_alloc(&into->m.st, &s->st))
            return splice(into, u, s);
    }
    return replay(m, into, u, owner, pos, u->ntape);
}

static int merge_unit(void *merged, void *unit, ntx_err *err)
{
    gcx *m = merged, *u = unit;
    for (size_t i = 0; i < u->nlanes; i++) {
        lane *into = lane_of(m, u->lanes[i].m.pid);
        int rc = into ? merge_lane(m, into, &u->lanes[i], u) : NTIDX_E_NOMEM;
        if (rc < 0)
            return ntx_err_set(err, rc, "out of memory");
    }
    return 0;
}

static uint64_t open_count(const void *merged)
{
    const gcx *m = merged;
    uint64_t n = 0;
    for (size_t i = 0; i < m->nlanes; i++)
        n += gc_open_in_window(&m->lanes[i].m);
    return n;
}

/* The window's end, before the lookahead moves the state on: what ProcessDuration ends with. */
static void window_ends(gcx *m)
{
    if (m->lookahead)
        return;
    m->lookahead = 1;
    for (size_t i = 0; i < m->nlanes; i++)
        m->lanes[i].window_restart_end = m->lanes[i].m.st.last_restart_end;
}

static int lookahead_event(void *merged, const ntx_an_event *e, ntx_err *err)
{
    gcx *m = merged;
    window_ends(m);
    lane *l = lane_of(m, e->pid);
    if (!l)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    uint64_t unmatched = l->m.unmatched;
    int rc = take(m, e, err);
    l->m.unmatched = unmatched; /* what pairs with nothing past the window is not the window's */
    return rc;
}

/* ---- The result ---- */

typedef struct gc_sum {
    uint32_t pid;
    int generation; /* 0, 1, 2; -1: all GCs (an int, as `generation` of table gc) */
    ntidx_gc_stats st;
} gc_sum;

typedef struct gc_result {
    ntidx_gc *gcs;
    char (*names)[2][24]; /* type and reason names per GC */
    size_t n;
    gc_sum *sums;
    size_t nsums;
} gc_result;

static void free_result(void *p)
{
    gc_result *r = p;
    if (!r)
        return;
    free(r->gcs);
    free(r->names);
    free(r->sums);
    free(r);
}

static const char *const type_names[] = {"NonConcurrentGC", "BackgroundGC", "ForegroundGC"};
static const char *const reason_names[] = {
    "AllocSmall",       "Induced",          "LowMemory", "Empty",         "AllocLarge",
    "OutOfSpaceSOH",    "OutOfSpaceLOH",    "InducedNotForced", "Internal", "InducedLowMemory",
    "InducedCompacting", "LowMemoryHost",   "PMFullGC",  "LowMemoryHostBlocking"};

NTIDX_API const char *ntidx_gc_type_name(int type, char *buf, size_t buflen)
{
    if (type >= 0 && type < (int)(sizeof type_names / sizeof type_names[0]))
        return type_names[type];
    if (buf && buflen)
        snprintf(buf, buflen, "%d", type);
    return buf ? buf : "";
}

NTIDX_API const char *ntidx_gc_reason_name(int reason, char *buf, size_t buflen)
{
    if (reason >= 0 && reason < (int)(sizeof reason_names / sizeof reason_names[0]))
        return reason_names[reason];
    if (buf && buflen)
        snprintf(buf, buflen, "%d", reason);
    return buf ? buf : "";
}

/* GCStats over the complete GCs among gcs[0, n) of process `pid` whose generation is `gen` (-1: all). */
static void summarize(const ntidx_gc *gcs, size_t n, uint32_t pid, int gen, double process_duration, ntidx_gc_stats *s)
{
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < n; i++) {
        const ntidx_gc *g = &gcs[i];
        if (g->pid != pid || !g->is_complete || (gen >= 0 && g->generation != gen))
            continue;
        s->count++;
        s->num_induced += g->reason == 1 || g->reason == 7;
        s->total_pause_time_ms += g->pause_duration_ms;
        s->total_allocated_mb += g->alloced_since_last_gc_mb;
        s->total_promoted_mb += g->promoted_mb;
        s->total_size_after_mb += g->heap_size_after_mb;
        if (g->pause_duration_ms > s->max_pause_duration_ms)
            s->max_pause_duration_ms = g->pause_duration_ms;
        if (g->suspend_duration_ms > s->max_suspend_duration_ms)
            s->max_suspend_duration_ms = g->suspend_duration_ms;
    }
    /* TraceEvent's means are NaN without GCs (0 / 0) */
    s->mean_pause_duration_ms = s->total_pause_time_ms / (double)s->count;
    s->mean_size_after_mb = s->total_size_after_mb / (double)s->count;
    s->process_duration_ms = process_duration;
    s->gc_pause_time_percentage = process_duration == 0 ? 0.0 : s->total_pause_time_ms * 100 / process_duration;
}

/* GCStats.ProcessDuration: the first complete GC's pause start to the window's last GC/HeapStats. */
static double process_duration(const gcx *m, const lane *l)
{
    double start = 0.0;
    for (size_t i = 0; i < l->m.nrecs; i++)
        if (l->m.recs[i].pub.is_complete && l->m.recs[i].in_window) {
            start = l->m.recs[i].pub.pause_start_relative_ms;
            break;
        }
    if (start == 0.0)
        return 0;
    double end = l->window_restart_end == GC_NONE ? 0.0 : gc_ms(&m->env, l->window_restart_end);
    return end - start;
}

enum {
    C_NUMBER, C_GENERATION, C_TYPE, C_REASON, C_START, C_DURATION, C_PAUSE_START, C_PAUSE, C_SUSPEND,
    C_BEFORE, C_AFTER, C_PROMOTED, C_COMPLETE, C_PID, C_TS, C_THREAD, C_GEN0, C_GEN1, C_GEN2, C_LOH, C_POH,
    C_ALLOCED, C_PAUSE_PCT, C_COUNT
};

static const ntidx_column gc_columns[C_COUNT] = {
    {"number", NTIDX_COLUMN_UINT, "the GC's number (GC/Start's Count; 1 for the process's first)"},
    {"generation", NTIDX_COLUMN_INT, "the generation collected: 0, 1 or 2"},
    {"type", NTIDX_COLUMN_STRING, "NonConcurrentGC (blocking), BackgroundGC or ForegroundGC"},
    {"reason", NTIDX_COLUMN_STRING, "why it ran: AllocSmall, Induced, LowMemory, AllocLarge, ..."},
    {"start_relative_ms", NTIDX_COLUMN_DOUBLE, "GC/Start, ms since the trace's sync time"},
    {"duration_ms", NTIDX_COLUMN_DOUBLE, "GC/Stop - GC/Start (0 without GC/Stop)"},
    {"pause_start_relative_ms", NTIDX_COLUMN_DOUBLE, "the suspension's start, ms since the sync time"},
    {"pause_duration_ms", NTIDX_COLUMN_DOUBLE, "time the runtime was suspended for it, suspension included"},
    {"suspend_duration_ms", NTIDX_COLUMN_DOUBLE, "time the suspension took"},
    {"heap_size_before_mb", NTIDX_COLUMN_DOUBLE, "heap size before it, MB (0 while incomplete)"},
    {"heap_size_after_mb", NTIDX_COLUMN_DOUBLE, "heap size after it, MB (-1 without GC/HeapStats)"},
    {"promoted_mb", NTIDX_COLUMN_DOUBLE, "bytes promoted, MB (-1 without GC/HeapStats)"},
    {"is_complete", NTIDX_COLUMN_BOOL, "its end was seen"},
    {"pid", NTIDX_COLUMN_UINT, "the process"},
    {"ts", NTIDX_COLUMN_UINT, "GC/Start's timestamp, raw ticks"},
    {"thread", NTIDX_COLUMN_UINT, "the thread of GC/Start"},
    {"gen0_size_after_mb", NTIDX_COLUMN_DOUBLE, "gen0's size after it, MB (GC/HeapStats)"},
    {"gen1_size_after_mb", NTIDX_COLUMN_DOUBLE, "gen1's size after it, MB"},
    {"gen2_size_after_mb", NTIDX_COLUMN_DOUBLE, "gen2's size after it, MB"},
    {"loh_size_after_mb", NTIDX_COLUMN_DOUBLE, "the large object heap's size after it, MB"},
    {"poh_size_after_mb", NTIDX_COLUMN_DOUBLE, "the pinned object heap's size after it, MB"},
    {"alloced_since_last_gc_mb", NTIDX_COLUMN_DOUBLE, "allocated since the previous GC, MB"},
    {"pause_time_percentage_since_last_gc", NTIDX_COLUMN_DOUBLE, "its pause as a percentage of the time since the previous GC"},
};

static void put_double(ntidx_table_cell *out, double v)
{
    out->f = v;
    out->is_null = isnan(v) || isinf(v);
}

static int gc_cell(const void *data, uint64_t row, size_t col, ntidx_table_cell *out)
{
    const gc_result *r = data;
    const ntidx_gc *g = &r->gcs[row];
    switch (col) {
    case C_NUMBER: out->u = g->number; break;
    case C_GENERATION: out->i = g->generation; break;
    case C_TYPE: out->s = r->names[row][0]; break;
    case C_REASON: out->s = r->names[row][1]; break;
    case C_START: put_double(out, g->start_relative_ms); break;
    case C_DURATION: put_double(out, g->duration_ms); break;
    case C_PAUSE_START: put_double(out, g->pause_start_relative_ms); break;
    case C_PAUSE: put_double(out, g->pause_duration_ms); break;
    case C_SUSPEND: put_double(out, g->suspend_duration_ms); break;
    case C_BEFORE: put_double(out, g->heap_size_before_mb); break;
    case C_AFTER: put_double(out, g->heap_size_after_mb); break;
    case C_PROMOTED: put_double(out, g->promoted_mb); break;
    case C_COMPLETE: out->u = (uint64_t)g->is_complete; break;
    case C_PID: out->u = g->pid; break;
    case C_TS: out->u = g->ts; break;
    case C_THREAD: out->u = g->thread; break;
    case C_ALLOCED: put_double(out, g->alloced_since_last_gc_mb); break;
    case C_PAUSE_PCT: put_double(out, g->pause_time_percentage_since_last_gc); break;
    default: put_double(out, g->gen_size_after_mb[col - C_GEN0]); break;
    }
    return NTIDX_OK;
}

enum {
    S_PID, S_GENERATION, S_COUNT, S_INDUCED, S_TOTAL_PAUSE, S_MEAN_PAUSE, S_MAX_PAUSE, S_MAX_SUSPEND, S_PCT,
    S_ALLOCATED, S_PROMOTED, S_SIZE_AFTER, S_MEAN_SIZE_AFTER, S_DURATION, S_COLUMNS
};

static const ntidx_column sum_columns[S_COLUMNS] = {
    {"pid", NTIDX_COLUMN_UINT, "the process"},
    {"generation", NTIDX_COLUMN_INT, "0, 1 or 2; -1 for the row of all GCs"},
    {"count", NTIDX_COLUMN_UINT, "complete GCs"},
    {"num_induced", NTIDX_COLUMN_UINT, "of which induced (Induced, InducedNotForced)"},
    {"total_pause_time_ms", NTIDX_COLUMN_DOUBLE, "their pauses added up"},
    {"mean_pause_duration_ms", NTIDX_COLUMN_DOUBLE, "the mean pause (null without GCs)"},
    {"max_pause_duration_ms", NTIDX_COLUMN_DOUBLE, "the longest pause"},
    {"max_suspend_duration_ms", NTIDX_COLUMN_DOUBLE, "the longest suspension"},
    {"gc_pause_time_percentage", NTIDX_COLUMN_DOUBLE, "pauses as a percentage of process_duration_ms"},
    {"total_allocated_mb", NTIDX_COLUMN_DOUBLE, "allocated, MB (alloced_since_last_gc_mb added up)"},
    {"total_promoted_mb", NTIDX_COLUMN_DOUBLE, "promoted, MB"},
    {"total_size_after_mb", NTIDX_COLUMN_DOUBLE, "heap sizes after them added up, MB"},
    {"mean_size_after_mb", NTIDX_COLUMN_DOUBLE, "the mean heap size after them, MB"},
    {"process_duration_ms", NTIDX_COLUMN_DOUBLE, "from the first complete GC's pause to the last GC/HeapStats"},
};

static int sum_cell(const void *data, uint64_t row, size_t col, ntidx_table_cell *out)
{
    const gc_sum *s = &((const gc_result *)data)->sums[row];
    const ntidx_gc_stats *st = &s->st;
    switch (col) {
    case S_PID: out->u = s->pid; break;
    case S_GENERATION: out->i = s->generation; break;
    case S_COUNT: out->u = st->count; break;
    case S_INDUCED: out->u = st->num_induced; break;
    case S_TOTAL_PAUSE: put_double(out, st->total_pause_time_ms); break;
    case S_MEAN_PAUSE: put_double(out, st->mean_pause_duration_ms); break;
    case S_MAX_PAUSE: put_double(out, st->max_pause_duration_ms); break;
    case S_MAX_SUSPEND: put_double(out, st->max_suspend_duration_ms); break;
    case S_PCT: put_double(out, st->gc_pause_time_percentage); break;
    case S_ALLOCATED: put_double(out, st->total_allocated_mb); break;
    case S_PROMOTED: put_double(out, st->total_promoted_mb); break;
    case S_SIZE_AFTER: put_double(out, st->total_size_after_mb); break;
    case S_MEAN_SIZE_AFTER: put_double(out, st->mean_size_after_mb); break;
    default: put_double(out, st->process_duration_ms); break;
    }
    return NTIDX_OK;
}

static int by_pid(const void *a, const void *b)
{
    uint32_t x = ((const lane *)a)->m.pid, y = ((const lane *)b)->m.pid;
    return x < y ? -1 : x > y;
}

static int finish(void *merged, ntidx_analysis **out, ntx_an_counts *counts, ntx_err *err)
{
    gcx *m = merged;
    const ntidx_analysis_options *o = m->ctx->o;
    window_ends(m);
    if (!m->nlanes && !lane_of(m, m->ctx->pid)) /* no GC event at all: still the process's (empty) summary */
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    qsort(m->lanes, m->nlanes, sizeof *m->lanes, by_pid);
    gc_result *r = calloc(1, sizeof *r);
    size_t total = 0;
    for (size_t i = 0; i < m->nlanes; i++)
        total += m->lanes[i].m.nrecs;
    if (r) {
        r->gcs = malloc((total ? total : 1) * sizeof *r->gcs);
        r->names = malloc((total ? total : 1) * sizeof *r->names);
        r->sums = malloc((m->nlanes ? m->nlanes : 1) * 4 * sizeof *r->sums);
    }
    if (!r || !r->gcs || !r->names || !r->sums) {
        free_result(r);
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    }
    uint64_t incomplete = 0;
    for (size_t i = 0; i < m->nlanes; i++) {
        lane *l = &m->lanes[i];
        gc_final_pass(&l->m, &m->env);
        counts->unmatched += l->m.unmatched;
        size_t first = r->n;
        for (size_t k = 0; k < l->m.nrecs; k++) {
            gc_rec *g = &l->m.recs[k];
            if (!g->in_window || (o->has_thread && g->pub.thread != o->thread))
                continue;
            g->pub.pid = l->m.pid;
            incomplete += !g->pub.is_complete;
            r->gcs[r->n] = g->pub;
            char num[24];
            snprintf(r->names[r->n][0], sizeof r->names[r->n][0], "%s", ntidx_gc_type_name(g->pub.type, num, sizeof num));
            snprintf(r->names[r->n][1], sizeof r->names[r->n][1], "%s",
                     ntidx_gc_reason_name(g->pub.reason, num, sizeof num));
            r->n++;
        }
        double pd = process_duration(m, l);
        for (int gen = 0; gen < 4; gen++) {
            gc_sum *s = &r->sums[r->nsums++];
            s->pid = l->m.pid;
            s->generation = gen < 3 ? gen : -1;
            summarize(r->gcs + first, r->n - first, l->m.pid, gen < 3 ? gen : -1, pd, &s->st);
        }
    }
    int rc = ntx_analysis_new("gc", NTX_ANALYSIS_GC, r, free_result, out);
    if (rc < 0) {
        free_result(r);
        return ntx_err_set(err, rc, "out of memory");
    }
    ntx_analysis_stats(*out)->incomplete = incomplete;
    if (ntx_analysis_add_table(*out, "gc", gc_columns, C_COUNT, r->n, gc_cell, r) < 0 ||
        ntx_analysis_add_table(*out, "gc_summary", sum_columns, S_COLUMNS, r->nsums, sum_cell, r) < 0) {
        ntidx_analysis_free(out);
        return ntx_err_set(err, NTIDX_E_INVALID_ARG, "too many tables");
    }
    return 0;
}

static const ntx_analysis_def gc_def = {
    .name = "gc",
    .types = gc_types,
    .ntypes = sizeof gc_types / sizeof gc_types[0],
    .lazy_payload = 1,
    .unit_new = unit_new,
    .unit_event = unit_event,
    .unit_end = unit_end,
    .unit_free = gcx_free,
    .merge_new = merge_new,
    .merge_unit = merge_unit,
    .open_count = open_count,
    .lookahead_event = lookahead_event,
    .finish = finish,
    .merge_free = gcx_free,
};

NTIDX_API int ntidx_gc_analyze(ntidx_trace *t, const ntidx_index *x, const ntidx_analysis_options *o,
                               ntidx_analysis **out)
{
    return ntx_analysis_run(&gc_def, t, x, o, out);
}

static const ntidx_table gc_tables[] = {{"gc", C_COUNT, gc_columns, 0}, {"gc_summary", S_COLUMNS, sum_columns, 0}};

const ntidx_analysis_info ntx_gc_info = {
    .name = "gc",
    .summary = "the GCs of a window, their pauses and why they ran (TraceEvent's GCStats)",
    .analyze = ntidx_gc_analyze,
    .table_count = sizeof gc_tables / sizeof gc_tables[0],
    .tables = gc_tables,
};

NTIDX_API size_t ntidx_gc_count(const ntidx_analysis *a)
{
    const gc_result *r = ntx_analysis_data(a, NTX_ANALYSIS_GC);
    return r ? r->n : 0;
}

NTIDX_API const ntidx_gc *ntidx_gc_at(const ntidx_analysis *a, size_t i)
{
    const gc_result *r = ntx_analysis_data(a, NTX_ANALYSIS_GC);
    return r && i < r->n ? &r->gcs[i] : NULL;
}

NTIDX_API const ntidx_gc_stats *ntidx_gc_summary(const ntidx_analysis *a, int generation)
{
    const gc_result *r = ntx_analysis_data(a, NTX_ANALYSIS_GC);
    if (!r || generation < -1 || generation > 2 || !r->nsums)
        return NULL;
    return &r->sums[generation < 0 ? 3 : generation].st;
}
