/*
 * TraceEvent's StartStopActivityComputer as a state machine over compact
 * events (activity_machine.c): what its OnStart, OnStop and the deferred
 * stop (DoStopIfNecessary) do, and of the ActivityComputer it leans on, the
 * one thing an EventPipe trace drives: which task activity is current on a
 * thread (its own, until a thread pool thread goes back to wait and starts
 * afresh: AutoRestart). src/TraceEvent/Computers/StartStopActivityComputer.cs
 * and ActivityComputer.cs in microsoft/perfview.
 *
 * Which events are Starts and Stops, and of what, is activities.c's
 * business (TraceEvent's dispatch); the machine sees only act_ev.
 */
#ifndef NTX_ACTIVITY_MACHINE_H
#define NTX_ACTIVITY_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#include "keymap.h"

/* The kinds of compact events. */
enum {
    ACT_EV_START = 1, /* OnStart: an activity begins under `id` */
    ACT_EV_STOP,      /* OnStop: the activity open under `id` ends */
    ACT_EV_RESTART    /* ActivityComputer.AutoRestart: the thread's current task activity is a fresh one */
};

/* How a Start finds its creator. */
enum {
    ACT_CREATOR_RELATED = 0, /* the open activity of `related`, else the thread's current one */
    ACT_CREATOR_CURRENT = 1  /* GetCurrentStartStopActivity(thread, event) first (the event's own activity id
                                `context` as a backup), then as ACT_CREATOR_RELATED (SQL commands) */
};

typedef struct act_ev {
    uint64_t ts;
    uint64_t thread;
    uint8_t id[16];       /* the activity id a Start opens and a Stop closes */
    uint8_t related[16];  /* a Start's related activity id (zero: none) */
    uint8_t context[16];  /* ACT_CREATOR_CURRENT: the event's own activity id */
    uint32_t pid;
    uint32_t name;        /* a Start's task name, and */
    uint32_t provider;    /* its provider: string ids of the tape's table */
    uint8_t kind;
    uint8_t creator;      /* ACT_CREATOR_* */
    uint8_t pad[2];
} act_ev;

/* One activity (StartStopActivity), 56 bytes: a big trace holds millions of them, and the result keeps
   them as they are (activities.c). Times are raw ticks; the ms that TraceEvent keeps are computed from
   them when asked (act_start_ms(), act_duration_ms()), to the same bits. Its process and thread are a
   pair of the machine's table (act_pid(), act_thread()): a trace has a few thousand at most. */
typedef struct act {
    uint8_t id[16];
    uint64_t ts, stop_ts;     /* raw ticks of its Start and of the Stop that timed it (stop_seen) */
    int32_t creator;          /* index of its creator (-1: none) */
    uint32_t who;             /* its (pid, thread): index in the machine's who_pid and who_thread */
    uint32_t name, provider;  /* string ids of the merge's table */
    uint32_t depth;           /* creators above it (0: none) */
    uint8_t in_window;        /* started in the window (not in the lookahead) */
    uint8_t stop_seen;        /* its Stop was seen (TraceEvent's Stop callback fired) */
    uint8_t processed;        /* its stop was carried out (activityIndex Invalid) */
} act;

/* The most activities a machine holds (creator is an int32_t). */
#define ACT_MAX ((size_t)INT32_MAX)
typedef struct act_machine {
    act *acts;                /* every activity, in the order of their starts (a tape: tape.h) */
    size_t nacts, cap;
    /* m_activeStartStopActivities and what the lookahead waits for, in one table (one probe for both):
       (id, pid) key -> wopen << 32 | (index + 1). The low half: the activity the key names (0: none). The high
       half, wopen: activities of the window under the key not stopped, found or not; only those whose key is
       active can still stop (`reachable` counts them). */
    ntx_kmap keys;
    uint64_t reachable;
    int in_window;            /* the events fed are the window's (0: the lookahead's) */
    uint64_t unmatched;       /* the window's Stops that found no activity */
    uint32_t *who_pid;        /* the (pid, thread) pairs of the activities, each once */
    uint64_t *who_thread;
    size_t nwho, who_cap;
    /* (pid, thread) -> (current + 1) << 32 | (who + 1): the index + 1 of the activity its current task activity
       maps to (m_traceActivityToStartStopActivity[current]; 0: none), and the pair's index in who_pid and
       who_thread (0: not there yet) */
    ntx_kmap who;
    double (*ms)(const void *ctx, uint64_t ts); /* ts to ms since the sync time */
    const void *ms_ctx;
} act_machine;

void act_machine_init(act_machine *m, double (*ms)(const void *ctx, uint64_t ts), const void *ms_ctx);
void act_machine_free(act_machine *m);
/* One event (names and providers already in the merge's ids). 0 or NTIDX_E_NOMEM. */
int act_step(act_machine *m, const act_ev *e);
static inline uint32_t act_pid(const act_machine *m, const act *a) { return m->who_pid[a->who]; }
static inline uint64_t act_thread(const act_machine *m, const act *a) { return m->who_thread[a->who]; }
/* StartTimeRelativeMSec */
static inline double act_start_ms(const act_machine *m, const act *a) { return m->ms(m->ms_ctx, a->ts); }
/* DurationMSec: Stop - Start in ms (0 until stopped, as TraceEvent's; a Stop at the Start's ms leaves it 0) */
static inline double act_duration_ms(const act_machine *m, const act *a)
{
    return a->stop_seen ? m->ms(m->ms_ctx, a->stop_ts) - m->ms(m->ms_ctx, a->ts) : 0;
}
/* TraceEvent's IsStopped. */
static inline int act_is_stopped(const act_machine *m, const act *a) { return a->processed && act_duration_ms(m, a) != 0; }

/* StartStopActivityComputer.IsActivityPath: the id follows EventSource's activity path convention for
   process `pid`. */
int act_is_activity_path(const uint8_t id[16], uint32_t pid);
/* StartStopActivityComputer.ActivityPathString(id, pid): "/#PID/1/2/" for an activity path, else the GUID
   ("0000371c-0000-0000-0000-000073a89d59"). buf of at least 96 bytes. */
void act_path_string(const uint8_t id[16], uint32_t pid, char *buf, size_t n);

#endif
