/*
 * TraceEvent's GC computer as a state machine over compact events
 * (gc_machine.c), one per process ("lane"): what TraceLoadedDotNetRuntime's
 * handlers for GC/Start, GC/Stop, GC/HeapStats, GC/SuspendEEStart,
 * GC/SuspendEEStop, GC/RestartEEStop, GC/AllocationTick and
 * GC/PerHeapHistory do (src/TraceEvent/Computers/TraceManagedProcess.cs in
 * microsoft/perfview), for the fields ntidx reports; and its GCStats
 * (gc_final_pass()).
 *
 * The state a lane carries between events is split in two: records (the
 * GCs, in GC/Start order) and the scalars of gc_state, which refer to
 * records by index. The scalars are what gc.c compares when it merges work
 * units by replay (gc.c, "The merge").
 */
#ifndef NTX_GC_MACHINE_H
#define NTX_GC_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#include "ntidx/analysis.h"

#define GC_GENS 5        /* gen0, gen1, gen2, LOH, POH */
#define GC_NONE INT64_MIN /* "no time" / "no thread" in gc_state (TraceEvent's -1) */

/* One heap's GC/PerHeapHistory (v3+), reduced to what TraceEvent's GC figures read from it. */
typedef struct gc_heap_hist {
    uint32_t ngens;                 /* generations it gives (4, or 5 from .NET 5) */
    int64_t size_before[GC_GENS];   /* SizeBefore */
    int64_t obj_space_before[GC_GENS]; /* SizeBefore - FreeListBefore - FreeObjBefore */
    int64_t obj_size_after[GC_GENS];   /* SizeAfter - FreeListAfter - FreeObjAfter */
} gc_heap_hist;

/* One GC being built (TraceGC). */
typedef struct gc_rec {
    ntidx_gc pub;                   /* what is reported; derived fields filled by gc_final_pass() */
    int in_window;                  /* its pause started inside the window (not a lookahead's GC) */
    int is_concurrent;              /* TraceEvent's IsConcurrentGC: a RestartEE/Stop came before its GC/Stop */
    int has_heap_stats;
    int64_t pause_start_ts;         /* raw ticks of its pause start (GC_NONE: unknown) */
    uint64_t gen_size[GC_GENS], promoted[GC_GENS]; /* GC/HeapStats */
    double alloc_tick_mb[3];        /* AllocedSinceLastGCBasedOnAllocTickMB: small, large, pinned */
    /* what its GC/HeapStats (has_heap_stats) made alloc_tick_mb from, for gc.c's merge to make it again with an
       earlier unit's sums added (gc_rec_alloc_figures()) */
    int alloc_had_ticks;            /* has_alloc_ticks then */
    uint64_t alloc_reset;           /* gc_state.resets then: which GC/HeapStats */
    int64_t alloc_raw[3];           /* alloc_since then */
    int64_t alloc_clamped[3];       /* alloc_clamped then */
    double duration_since_last_restart_ms;
    gc_heap_hist *heaps;            /* PerHeapHistories (owned) */
    uint32_t nheaps, heaps_cap;
} gc_rec;

/* The scalars TraceEvent's GCStats keeps between events (m_stats), with references to records by index. */
typedef struct gc_state {
    int64_t susp_tid_other, susp_tid_bgc, susp_tid_gc; /* suspendThreadIDOther/BGC/GC (GC_NONE: -1) */
    int64_t susp_time, susp_end_time;  /* raw ticks of suspendTimeRelativeMSec, suspendEndTimeRelativeMSec */
    uint32_t last_susp_reason;
    int64_t last_restart_end;          /* raw ticks of lastRestartEndTimeRelativeMSec (GC_NONE: 0 ms) */
    /* allocTickCurrentMB - allocTickAtLastGC, in bytes (exact whatever the cut into units) */
    int64_t alloc_since[3];
    int64_t alloc_clamped[3];          /* the same sums with every amount clamped, as they are once a bad tick is
                                          seen (not compared: gc.c's merge takes them where a unit's run began
                                          before a bad tick the replay had seen) */
    int bad_alloc_tick;                /* SeenBadAllocTick */
    int has_alloc_ticks;               /* HasAllocTickEvents (not compared: see gc_state_equal_but_alloc) */
    int64_t last;                      /* the last GC of the list (-1: none) */
    int64_t bgc;                       /* currentBGC (-1: none) */
    uint64_t last_number;              /* the last GC's Number (compared instead of the index) */
    uint64_t resets;                   /* GC/HeapStats seen, each zeroing alloc_since (not compared: a count
                                          of the run's own, which gc.c's merge reads to find a unit's first) */
} gc_state;

/* The kinds of compact events. */
enum {
    GC_EV_SUSPEND_START = 1,
    GC_EV_SUSPEND_STOP,
    GC_EV_RESTART_STOP,
    GC_EV_START,
    GC_EV_END,
    GC_EV_HEAP_STATS,
    GC_EV_ALLOC,     /* a run of GC/AllocationTick events (gc_alloc_run) */
    GC_EV_PER_HEAP
};

/* Allocation ticks between two other events, added up (bytes). A tick whose amount is negative (an old
   runtime's) starts a run of its own: from it on, TraceEvent clamps every amount. */

typedef struct gc_alloc_run {
    int64_t raw[3], clamped[3];
    int starts_bad;
    unsigned kinds; /* bit k: a tick of kind k (small, large, pinned) is in it */
} gc_alloc_run;

/* GC/HeapStats' sizes, in the pool HEAP_STATS events index. */
typedef struct gc_heap_stats {
    uint64_t size[GC_GENS], promoted[GC_GENS];
} gc_heap_stats;

/* a + b as C#'s unchecked long arithmetic (TraceEvent's) computes it: wrapped, where an int64_t sum of
   amounts a trace can claim (AllocationAmount64 is any 64-bit value) would overflow, undefined in C. The
   sums stay exact for every real trace and independent of the cut into units for any. */
static inline int64_t gc_add_wrapping(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
/* a - b the same way: per-heap sizes (GC/PerHeapHistory's SizeBefore, FreeListBefore, ...) are the trace's
   claims too. */
static inline int64_t gc_sub_wrapping(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }

/* 40 bytes: a unit keeps a tape of a million of them (suspensions, restarts, tick runs). */
typedef struct gc_ev {
    uint8_t kind;
    uint8_t alloc_kind;      /* ALLOC: the allocation kind its sums are of (a run of several kinds is fed as one
                                event per kind: the sums add up the same) */
    uint8_t alloc_bad;       /* ALLOC: the run starts with a negative amount (gc_alloc_run.starts_bad) */
    int64_t ts;
    int64_t thread;
    union {
        uint32_t reason;                                   /* SUSPEND_START */
        struct { uint32_t count, depth, reason, type; } start; /* START */
        uint32_t heap_index;                               /* HEAP_STATS: its sizes in the owner's pool */
        struct { int64_t raw, clamped; } alloc;            /* ALLOC: of alloc_kind */
        struct { uint32_t index; int recognized; } per_heap; /* PER_HEAP: the heap in the owner's pool */
    } u;
} gc_ev;

/* A process's GCs and state. */
typedef struct gc_lane {
    uint32_t pid;
    gc_state st;
    gc_rec *recs;
    size_t nrecs, cap;
    uint64_t unmatched;      /* events that paired with nothing */
    int version_mismatch;    /* a GC/PerHeapHistory TraceEvent does not recognize (GCVersionInfoMismatch) */
} gc_lane;

/* What the machine needs beside the lane: time conversion, the window, the per-heap pool. */
typedef struct gc_env {
    int64_t sync_ticks, tick_frequency;
    uint64_t t1;                    /* the window's end: GCs whose pause starts later are not the window's */
    const gc_heap_hist *heaps;      /* the pool PER_HEAP events index */
    const gc_heap_stats *heap_stats; /* the pool HEAP_STATS events index */
} gc_env;

void gc_state_init(gc_state *s);
/* A lane with no GC and the fresh state. */
void gc_lane_init(gc_lane *l, uint32_t pid);
void gc_lane_free(gc_lane *l);

/* Feed one event. 0 or NTIDX_E_NOMEM. */
int gc_step(gc_lane *l, const gc_env *env, const gc_ev *e);

/* Nothing in progress: no GC of the list incomplete and no background GC running (TraceEvent's
   GetCurrentGC() is null). */
int gc_quiescent(const gc_lane *l);

/* Whether a state `a` (the merge's replay) and a quiescent state `b` (a unit's own run) go on alike from
   here but for the allocation ticks: every scalar equal, and the last GCs' numbers, aside from the sums since
   the last GC/HeapStats (alloc_since), has_alloc_ticks, and a bad tick `a` has seen and `b` not. Their
   figures then differ only in what those sums give the GCs their GC/HeapStats close, which gc.c's merge
   makes again from the sums a unit's GCs keep (alloc_raw, alloc_clamped). */
int gc_state_equal_but_alloc(const gc_state *a, const gc_state *b);

/* g's allocation figures (alloc_tick_mb) from the sums its GC/HeapStats gave it (alloc_raw), when ticks had been
   seen then (alloc_had_ticks): the machine's, and gc.c's merge's once it has added an earlier unit's sums. */
void gc_rec_alloc_figures(gc_rec *g);

/* GCs in progress in the window: the lookahead looks for their ends. */
uint64_t gc_open_in_window(const gc_lane *l);

/* TraceEvent's OnEnd() figures of every complete GC (heap size before, allocated since the last GC,
   pause percentage), over the lane's list as TraceEvent's GCStats.Calculate() computes them at the end. */
void gc_final_pass(gc_lane *l, const gc_env *env);

/* ms since sync of a raw time (TraceEvent's TimeStampRelativeMSec; GC_NONE is its -1). */
double gc_ms(const gc_env *env, int64_t ts);

#endif
