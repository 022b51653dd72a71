/*
 * TraceEvent's GC computer, event by event (gc_machine.h). Each handler
 * below follows its namesake in TraceLoadedDotNetRuntime (TraceEvent 3.x,
 * src/TraceEvent/Computers/TraceManagedProcess.cs, microsoft/perfview), for
 * the fields ntidx reports; the comments say where and why it departs.
 * Times are kept as raw ticks and turned into TraceEvent's milliseconds
 * where TraceEvent would compute with them, so every figure is the
 * difference TraceEvent computes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gc_machine.h"

enum { SUSPEND_OTHER = 0, SUSPEND_FOR_GC = 1, SUSPEND_FOR_GC_PREP = 6 };
enum { REASON_INDUCED = 1, REASON_INDUCED_NOT_FORCED = 7, REASON_PM_FULL_GC = 12 };

double gc_ms(const gc_env *env, int64_t ts)
{
    if (ts == GC_NONE)
        return -1.0;
    return (double)(int64_t)((uint64_t)ts - (uint64_t)env->sync_ticks) * 1000.0 / (double)env->tick_frequency;
}

/* lastRestartEndTimeRelativeMSec starts at 0, not -1. */
static double restart_ms(const gc_env *env, const gc_state *s)
{
    return s->last_restart_end == GC_NONE ? 0.0 : gc_ms(env, s->last_restart_end);
}

void gc_state_init(gc_state *s)
{
    memset(s, 0, sizeof *s);
    s->susp_tid_other = s->susp_tid_bgc = s->susp_tid_gc = GC_NONE;
    s->susp_time = s->susp_end_time = s->last_restart_end = GC_NONE;
    s->last = s->bgc = -1;
}

void gc_lane_init(gc_lane *l, uint32_t pid)
{
    memset(l, 0, sizeof *l);
    l->pid = pid;
    gc_state_init(&l->st);
}

void gc_lane_free(gc_lane *l)
{
    for (size_t i = 0; i < l->nrecs; i++)
        free(l->recs[i].heaps);
    free(l->recs);
    memset(l, 0, sizeof *l);
}

int gc_state_equal_but_alloc(const gc_state *a, const gc_state *b)
{
    return a->susp_tid_other == b->susp_tid_other && a->susp_tid_bgc == b->susp_tid_bgc &&
           a->susp_tid_gc == b->susp_tid_gc && a->susp_time == b->susp_time && a->susp_end_time == b->susp_end_time &&
           a->last_susp_reason == b->last_susp_reason && a->last_restart_end == b->last_restart_end &&
           (a->bad_alloc_tick || !b->bad_alloc_tick) && (a->last >= 0) == (b->last >= 0) &&
           (a->last < 0 || a->last_number == b->last_number) && (a->bgc >= 0) == (b->bgc >= 0);
}

void gc_rec_alloc_figures(gc_rec *g)
{
    if (g->alloc_had_ticks)
        for (int k = 0; k < 3; k++)
            g->alloc_tick_mb[k] = (double)g->alloc_raw[k] / 1000000.0;
}

/* TraceGarbageCollector.GetCurrentGC(): the last GC while incomplete, else the background GC running. */
static gc_rec *current_gc(gc_lane *l)
{
    if (l->st.last < 0)
        return NULL;
    if (!l->recs[l->st.last].pub.is_complete)
        return &l->recs[l->st.last];
    if (l->st.bgc >= 0)
        return &l->recs[l->st.bgc];
    return NULL;
}

int gc_quiescent(const gc_lane *l)
{
    return (l->st.last < 0 || l->recs[l->st.last].pub.is_complete) && l->st.bgc < 0;
}

uint64_t gc_open_in_window(const gc_lane *l)
{
    uint64_t n = 0;
    for (size_t i = 0; i < l->nrecs; i++)
        n += l->recs[i].in_window && !l->recs[i].pub.is_complete;
    return n;
}

/* TraceGC.OnEnd() marks it complete; its figures are computed at the end (gc_final_pass), as
   GCStats.Calculate() computes them again over the final list. */
static void on_end(gc_rec *g) { g->pub.is_complete = 1; }

/* GCStats.AddConcurrentPauseTime() */
static void add_concurrent_pause(const gc_env *env, const gc_state *s, gc_rec *g, int64_t restart_ts)
{
    if (s->susp_tid_bgc > 0)
        g->pub.pause_duration_ms += gc_ms(env, restart_ts) - gc_ms(env, s->susp_time);
    else
        g->pub.pause_duration_ms = gc_ms(env, restart_ts) - g->pub.pause_start_relative_ms;
}

/* source.Clr.GCSuspendEEStart */
static void suspend_start(gc_lane *l, const gc_ev *e)
{
    gc_state *s = &l->st;
    switch (e->u.reason) {
    case SUSPEND_FOR_GC:
        s->susp_tid_gc = e->thread;
        break;
    case SUSPEND_FOR_GC_PREP:
        s->susp_tid_bgc = e->thread;
        break;
    default:
        s->susp_tid_other = e->thread; /* a suspension for something else: not timed */
        return;
    }
    s->last_susp_reason = e->u.reason;
    s->susp_time = e->ts;
}

/* source.Clr.GCSuspendEEStop */
static void suspend_stop(gc_lane *l, const gc_env *env, const gc_ev *e)
{
    gc_state *s = &l->st;
    if (!(e->thread == s->susp_tid_bgc || e->thread == s->susp_tid_gc))
        return; /* the end of a suspension not for a GC */
    if (s->susp_tid_bgc > 0 && s->bgc >= 0)
        l->recs[s->bgc].pub.suspend_duration_ms += gc_ms(env, e->ts) - gc_ms(env, s->susp_time);
    s->susp_end_time = e->ts;
}

/* source.Clr.GCRestartEEStop */
static void restart_stop(gc_lane *l, const gc_env *env, const gc_ev *e)
{
    gc_state *s = &l->st;
    if (e->thread == s->susp_tid_other)
        s->susp_tid_other = GC_NONE;
    if (!(e->thread == s->susp_tid_bgc || e->thread == s->susp_tid_gc))
        return;
    gc_rec *g = current_gc(l);
    if (g) {
        if (g->pub.type == NTIDX_GC_BACKGROUND) {
            add_concurrent_pause(env, s, g, e->ts);
        } else if (g->pub.duration_ms == 0) {
            /* no GC/Stop yet: TraceEvent takes it for a 2.0 concurrent GC and only adds the pause */
            g->is_concurrent = 1;
            add_concurrent_pause(env, s, g, e->ts);
        } else {
            g->pub.pause_duration_ms = gc_ms(env, e->ts) - g->pub.pause_start_relative_ms;
            if (g->has_heap_stats)
                on_end(g);
        }
    }
    s->susp_time = GC_NONE;
    s->susp_tid_bgc = GC_NONE;
    s->susp_tid_gc = GC_NONE;
}

/* source.Clr.GCAllocationTick, a run at a time (GCAllocationTickTraceData.GetAllocAmount) */
static void alloc_ticks(gc_lane *l, const gc_ev *e)
{
    gc_state *s = &l->st;
    if (e->alloc_bad)
        s->bad_alloc_tick = 1;
    int k = e->alloc_kind < 3 ? e->alloc_kind : 2;
    s->alloc_since[k] = gc_add_wrapping(s->alloc_since[k], s->bad_alloc_tick ? e->u.alloc.clamped : e->u.alloc.raw);
    s->alloc_clamped[k] = gc_add_wrapping(s->alloc_clamped[k], e->u.alloc.clamped);
    s->has_alloc_ticks = 1;
}

static int push_rec(gc_lane *l)
{
    if (l->nrecs == l->cap) {
        size_t nc = l->cap ? l->cap * 2 : 16;
        gc_rec *nr = realloc(l->recs, nc * sizeof *nr);
        if (!nr)
            return NTIDX_E_NOMEM;
        l->recs = nr;
        l->cap = nc;
    }
    memset(&l->recs[l->nrecs], 0, sizeof l->recs[l->nrecs]);
    l->nrecs++;
    return 0;
}

/* source.Clr.GCStart */
static int gc_start(gc_lane *l, const gc_env *env, const gc_ev *e)
{
    gc_state *s = &l->st;
    uint32_t count = e->u.start.count;
    if (!(s->susp_tid_gc > 0 || s->susp_tid_other > 0)) {
        l->unmatched++; /* no suspension before it: TraceEvent ignores it */
        return 0;
    }
    if (s->last >= 0 && s->last_number == count)
        return 0; /* the second GC/Start of one GC, which some runtimes write */
    int eph_at_bgc_start = s->last >= 0 && l->recs[s->last].pub.type == NTIDX_GC_BACKGROUND &&
                           !l->recs[s->last].pub.is_complete && e->u.start.type == NTIDX_GC_NON_CONCURRENT;
    if (e->u.start.reason == REASON_PM_FULL_GC) {
        gc_rec *prev = current_gc(l);
        if (prev)
            on_end(prev);
    }
    if (push_rec(l) < 0)
        return NTIDX_E_NOMEM;
    gc_rec *g = &l->recs[l->nrecs - 1];
    g->pub.number = count;
    g->pub.generation = (int)e->u.start.depth;
    g->pub.reason = (int)e->u.start.reason;
    g->pub.type = (int)e->u.start.type;
    g->pub.thread = (uint64_t)e->thread;
    g->pub.ts = (uint64_t)e->ts;
    g->pub.heap_size_after_mb = g->pub.promoted_mb = -1.0;
    for (int k = 0; k < GC_GENS; k++)
        g->pub.gen_size_after_mb[k] = NAN;
    if (eph_at_bgc_start || e->u.start.reason == REASON_PM_FULL_GC) {
        g->pause_start_ts = e->ts;
        g->pub.pause_start_relative_ms = gc_ms(env, e->ts);
    } else {
        g->pause_start_ts = s->susp_time;
        g->pub.pause_start_relative_ms = gc_ms(env, s->susp_time);
        if (s->susp_end_time == GC_NONE)
            s->susp_end_time = e->ts;
        g->pub.suspend_duration_ms = gc_ms(env, s->susp_end_time) - gc_ms(env, s->susp_time);
    }
    g->pub.start_relative_ms = gc_ms(env, e->ts);
    /* the window's when its pause started inside it (a lookahead's GC past the window is not) */
    int64_t at = g->pause_start_ts != GC_NONE ? g->pause_start_ts : e->ts;
    g->in_window = (uint64_t)at < env->t1;
    s->last = (int64_t)(l->nrecs - 1);
    s->last_number = count;
    if (g->pub.type == NTIDX_GC_BACKGROUND) {
        s->bgc = s->last;
        g->pub.pause_duration_ms = g->pub.suspend_duration_ms;
    }
    return 0;
}

/* source.Clr.GCStop */
static void gc_end(gc_lane *l, const gc_env *env, const gc_ev *e)
{
    gc_rec *g = current_gc(l);
    if (!g) {
        l->unmatched++;
        return;
    }
    g->pub.duration_ms = gc_ms(env, e->ts) - g->pub.start_relative_ms;
}

/* source.Clr.GCHeapStats */
static void heap_stats(gc_lane *l, const gc_env *env, const gc_ev *e)
{
    gc_state *s = &l->st;
    gc_rec *g = current_gc(l);
    if (g) {
        g->has_heap_stats = 1;
        const gc_heap_stats *hs = &env->heap_stats[e->u.heap_index];
        uint64_t size = 0, promoted = 0;
        for (int k = 0; k < GC_GENS; k++) {
            g->gen_size[k] = hs->size[k];
            g->promoted[k] = hs->promoted[k];
            size += hs->size[k];
            promoted += hs->promoted[k];
            g->pub.gen_size_after_mb[k] = (double)(int64_t)hs->size[k] / 1000000.0;
        }
        g->pub.heap_size_after_mb = (double)(int64_t)size / 1000000.0;
        g->pub.promoted_mb = (double)(int64_t)promoted / 1000000.0;
        if (g->pub.type == NTIDX_GC_BACKGROUND)
            g->duration_since_last_restart_ms = gc_ms(env, e->ts) - restart_ms(env, s);
        else
            g->duration_since_last_restart_ms = g->pub.pause_start_relative_ms - restart_ms(env, s);
        g->alloc_had_ticks = s->has_alloc_ticks;
        g->alloc_reset = s->resets;
        memcpy(g->alloc_raw, s->alloc_since, sizeof g->alloc_raw);
        memcpy(g->alloc_clamped, s->alloc_clamped, sizeof g->alloc_clamped);
        gc_rec_alloc_figures(g);
        /* this is where a background GC ends */
        if (g->pub.type == NTIDX_GC_BACKGROUND && s->bgc >= 0) {
            on_end(&l->recs[s->bgc]);
            s->bgc = -1;
        }
        if (g->is_concurrent)
            on_end(g);
    } else {
        l->unmatched++;
    }
    memset(s->alloc_since, 0, sizeof s->alloc_since);
    memset(s->alloc_clamped, 0, sizeof s->alloc_clamped);
    s->resets++;
    s->last_restart_end = e->ts;
}

/* GCStats.ProcessPerHeapHistory() (GetLastGC() is GetCurrentGC() unless server GC is known: see
   docs/architecture.md, Analyses, GC) */
static int per_heap(gc_lane *l, const gc_env *env, const gc_ev *e)
{
    if (!e->u.per_heap.recognized) {
        l->version_mismatch = 1;
        return 0;
    }
    gc_rec *g = current_gc(l);
    if (!g) {
        l->unmatched++;
        return 0;
    }
    if (g->nheaps == g->heaps_cap) {
        uint32_t nc = g->heaps_cap ? g->heaps_cap * 2 : 4;
        gc_heap_hist *nh = realloc(g->heaps, nc * sizeof *nh);
        if (!nh)
            return NTIDX_E_NOMEM;
        g->heaps = nh;
        g->heaps_cap = nc;
    }
    g->heaps[g->nheaps++] = env->heaps[e->u.per_heap.index];
    return 0;
}

int gc_step(gc_lane *l, const gc_env *env, const gc_ev *e)
{
    switch (e->kind) {
    case GC_EV_SUSPEND_START:
        suspend_start(l, e);
        return 0;
    case GC_EV_SUSPEND_STOP:
        suspend_stop(l, env, e);
        return 0;
    case GC_EV_RESTART_STOP:
        restart_stop(l, env, e);
        return 0;
    case GC_EV_START:
        return gc_start(l, env, e);
    case GC_EV_END:
        gc_end(l, env, e);
        return 0;
    case GC_EV_HEAP_STATS:
        heap_stats(l, env, e);
        return 0;
    case GC_EV_ALLOC:
        alloc_ticks(l, e);
        return 0;
    case GC_EV_PER_HEAP:
        return per_heap(l, env, e);
    }
    return 0;
}

/* ---- The end: TraceGC.OnEnd()'s figures over the final list (GCStats.Calculate()) ---- */

enum { GEN_LOH = 3, GEN_POH = 4 };

/* TraceGC.ValidGenData() */
static int valid_gen(const gc_rec *g, int gen) { return g->nheaps > 0 && g->heaps[0].ngens > (uint32_t)gen; }

/* TraceGC.GetGenSizeBeforeMB() */
static double gen_size_before_mb(const gc_lane *l, size_t idx, int gen)
{
    const gc_rec *g = &l->recs[idx];
    if (valid_gen(g, gen)) {
        double ret = 0.0;
        for (uint32_t h = 0; h < g->nheaps; h++)
            if (g->heaps[h].ngens > (uint32_t)gen)
                ret += (double)g->heaps[h].size_before[gen] / 1000000.0;
        return ret;
    }
    /* Without per-heap histories only gen0, LOH and POH can be estimated. */
    double gen0_before = gen == 0 ? g->alloc_tick_mb[0] : 0;
    if (idx == 0)
        return gen == 0 ? gen0_before : 0;
    /* The previous GC/HeapStats; TraceEvent's loop never looks at the first GC's. */
    const gc_rec *prev = NULL;
    for (size_t j = idx - 1;; --j) {
        if (j == 0)
            return 0;
        if (l->recs[j].has_heap_stats) {
            prev = &l->recs[j];
            break;
        }
    }
    switch (gen) {
    case 0: {
        double p = (double)(int64_t)prev->gen_size[0] / 1000000.0;
        return p > gen0_before ? p : gen0_before;
    }
    case 1:
    case 2:
        return (double)(int64_t)prev->gen_size[gen] / 1000000.0;
    default: {
        int64_t p = (int64_t)prev->gen_size[gen], c = g->has_heap_stats ? (int64_t)g->gen_size[gen] : p;
        return (double)(p > c ? p : c) / 1000000.0;
    }
    }
}

/* TraceGC.GetUserAllocatedPerHeap() for per-heap histories of v3 and later (HasObjSpaceBefore) */
static double user_allocated_per_heap(const gc_lane *l, size_t idx, uint32_t heap, int gen)
{
    const gc_rec *g = &l->recs[idx];
    if (!valid_gen(g, gen) || g->heaps[heap].ngens <= (uint32_t)gen)
        return 0;
    int64_t prev_obj = 0;
    if (idx > 0) {
        const gc_rec *p = &l->recs[idx - 1];
        if (p->nheaps > 0 && heap < p->nheaps && p->heaps[heap].ngens > (uint32_t)gen) {
            prev_obj = p->heaps[heap].obj_size_after[gen];
            /* a gen0 GC leaves the LOH's and POH's size-after as they were */
            if ((gen == GEN_LOH || gen == GEN_POH) && prev_obj == 0 && p->pub.generation < 1)
                prev_obj = p->heaps[heap].obj_space_before[gen];
        }
    }
    return (double)gc_sub_wrapping(g->heaps[heap].obj_space_before[gen], prev_obj);
}

/* TraceGC.GetUserAllocated() */
static double user_allocated(const gc_lane *l, size_t idx, int gen)
{
    const gc_rec *g = &l->recs[idx];
    if (g->pub.type == NTIDX_GC_BACKGROUND && gen == 0)
        return g->alloc_tick_mb[0];
    if (g->nheaps > 0 && idx > 0 && l->recs[idx - 1].nheaps > 0) {
        double total = 0;
        for (uint32_t h = 0; h < g->nheaps; h++)
            total += user_allocated_per_heap(l, idx, h, gen) / 1000000.0;
        return total;
    }
    return g->alloc_tick_mb[gen == 0 ? 0 : 1];
}

/* TraceGC.GetPauseTimePercentageSinceLastGC() */
static double pause_percentage(const gc_lane *l, size_t idx)
{
    const gc_rec *g = &l->recs[idx];
    if (g->pub.type == NTIDX_GC_BACKGROUND) {
        double prev_stop = idx > 0 ? l->recs[idx - 1].pub.start_relative_ms + l->recs[idx - 1].pub.duration_ms
                                   : l->recs[0].pub.start_relative_ms;
        double total = (g->pub.start_relative_ms + g->pub.duration_ms) - prev_stop;
        return g->pub.pause_duration_ms * 100 / total;
    }
    double total = g->pub.pause_duration_ms + g->duration_since_last_restart_ms;
    return g->pub.pause_duration_ms * 100 / total;
}

void gc_final_pass(gc_lane *l, const gc_env *env)
{
    (void)env;
    for (size_t i = 0; i < l->nrecs; i++) {
        gc_rec *g = &l->recs[i];
        if (!g->pub.is_complete)
            continue;
        g->pub.alloced_since_last_gc_mb = user_allocated(l, i, 0) + user_allocated(l, i, GEN_LOH) +
                                          user_allocated(l, i, GEN_POH);
        double before = 0;
        for (int gen = 0; gen < GC_GENS; gen++)
            before += gen_size_before_mb(l, i, gen);
        g->pub.heap_size_before_mb = before;
        g->pub.pause_time_percentage_since_last_gc = pause_percentage(l, i);
    }
}
