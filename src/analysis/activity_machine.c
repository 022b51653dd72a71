/*
 * TraceEvent's StartStopActivityComputer over compact events
 * (activity_machine.h). Each function names the one of TraceEvent it
 * follows.
 *
 * TraceEvent carries a stop out when the next Start or Stop comes (so that
 * the Stop event still looks inside its activity to whoever asks in
 * between). Nothing asks in between here, and every Start and Stop first
 * carries out the stop pending, so the stop is carried out at once, with
 * the same effect.
 *
 * The thread's current task activity. TraceEvent maps each task activity
 * (ActivityComputer's TraceActivity: the thread itself, a task, a work item)
 * to the start-stop activity it runs in. In an EventPipe trace without the
 * TPL's task events and the runtime's thread pool work events, a thread's
 * current task activity is the thread's own until ThreadPoolWorkerThread/Wait
 * replaces it with a fresh one (AutoRestart), which maps to nothing; a stop
 * is always carried out while the thread's task activity of the Stop is
 * still current. So the map is kept per thread: `threads` holds the
 * start-stop activity of the thread's current task activity.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "activity_machine.h"
#include "tape.h"
#include "ntidx/ntidx.h"

static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint32_t le32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

static int is_zero(const uint8_t id[16])
{
    for (int i = 0; i < 16; i++)
        if (id[i])
            return 0;
    return 1;
}

/* TraceEvent's key of the active table: the GUID's second 8 bytes plus the process id (StartStopKey). */
typedef struct akey {
    uint64_t a, b;
} akey;

static akey key_of(const uint8_t id[16], uint32_t pid) { return (akey){le64(id), le64(id + 8) + (uint64_t)(int64_t)(int32_t)pid}; }

void act_machine_init(act_machine *m, double (*ms)(const void *ctx, uint64_t ts), const void *ms_ctx)
{
    memset(m, 0, sizeof *m);
    ntx_kmap_init(&m->keys);
    ntx_kmap_init(&m->who);
    m->in_window = 1;
    m->ms = ms;
    m->ms_ctx = ms_ctx;
}

void act_machine_free(act_machine *m)
{
    ntx_tape_free(m->acts, m->cap, sizeof *m->acts);
    ntx_kmap_free(&m->keys);
    ntx_kmap_free(&m->who);
    free(m->who_pid);
    free(m->who_thread);
    memset(m, 0, sizeof *m);
}

/* ---- The active table, with the count of what the lookahead waits for ---- */

#define LOW 0xffffffffull

static int active_get(const act_machine *m, akey k, int64_t *idx)
{
    const uint64_t *v = ntx_kmap_find(&m->keys, k.a, k.b);
    if (!v || !(*v & LOW))
        return 0;
    *idx = (int64_t)(*v & LOW) - 1;
    return 1;
}

/* SetActiveStartStopActivityTable, on the key's entry v (from ntx_kmap_ref() or ntx_kmap_find()). */
static void active_put(act_machine *m, uint64_t *v, int64_t idx)
{
    if (!(*v & LOW))
        m->reachable += *v >> 32;
    *v = (*v & ~LOW) | (uint64_t)(idx + 1);
}

/* RemoveActiveStartStopActivityTable: the entry v without its activity (0: the key can go). */
static uint64_t active_cleared(act_machine *m, uint64_t v)
{
    if (!(v & LOW))
        return v;
    m->reachable -= v >> 32;
    return v & ~LOW;
}

/* A window activity under the key of entry v opens (+1) or stops (-1): the entry is not left 0 by it (a
   stop is of an activity the entry names). */
static void wopen_step(act_machine *m, uint64_t *v, int delta)
{
    if (*v & LOW)
        m->reachable += (uint64_t)(int64_t)delta;
    uint64_t n = (*v >> 32) + (uint64_t)(int64_t)delta;
    *v = n << 32 | (*v & LOW);
}

/* ---- The thread's current task activity's start-stop activity ---- */

/* The start-stop activity of the thread's current task activity, from its `who` entry (-1: none). */
static int64_t current_of(const uint64_t *entry) { return (int64_t)(*entry >> 32) - 1; }

/* A `who` entry with the thread's current activity made idx (>= 0), its index kept. */
static void put_current(uint64_t *entry, int64_t idx) { *entry = (uint64_t)(idx + 1) << 32 | (*entry & LOW); }

static int set_thread_current(act_machine *m, uint32_t pid, uint64_t thread, int64_t idx)
{
    if (idx < 0) {
        uint64_t *v = ntx_kmap_find(&m->who, pid, thread);
        if (v && !(*v &= LOW))
            ntx_kmap_remove(&m->who, pid, thread);
        return 0;
    }
    uint64_t *v = ntx_kmap_ref(&m->who, pid, thread);
    if (!v)
        return NTIDX_E_NOMEM;
    put_current(v, idx);
    return 0;
}

/* The first of idx and its creators that is not stopped (GetStartStopActivityForActivity's loop). */
static int64_t first_running(const act_machine *m, int64_t idx)
{
    while (idx >= 0 && act_is_stopped(m, &m->acts[idx]))
        idx = m->acts[idx].creator;
    return idx;
}

/* GetCurrentStartStopActivity(thread, context), `current` being the thread's (current_of()) */
static int64_t current_start_stop(const act_machine *m, const act_ev *e, int64_t current)
{
    int64_t ret = current;
    if (ret < 0 && !is_zero(e->context) && !active_get(m, key_of(e->context, e->pid), &ret))
        ret = -1;
    return first_running(m, ret);
}

/* The index of (pid, thread) in the machine's table, added on first sight; *entry: its entry in `who` (valid
   until `who` is changed). 0 or NTIDX_E_NOMEM. */
static int who_of(act_machine *m, uint32_t pid, uint64_t thread, uint32_t *out, uint64_t **entry)
{
    uint64_t *v = ntx_kmap_ref(&m->who, pid, thread);
    if (!v)
        return NTIDX_E_NOMEM;
    *entry = v;
    if (*v & LOW) {
        *out = (uint32_t)(*v & LOW) - 1;
        return 0;
    }
    if (m->nwho == m->who_cap) {
        if (m->nwho >= UINT32_MAX - 1)
            return NTIDX_E_NOMEM;
        size_t nc = m->who_cap ? m->who_cap * 2 : 64;
        uint32_t *np = realloc(m->who_pid, nc * sizeof *np);
        if (!np)
            return NTIDX_E_NOMEM;
        m->who_pid = np;
        uint64_t *nt = realloc(m->who_thread, nc * sizeof *nt);
        if (!nt)
            return NTIDX_E_NOMEM;
        m->who_thread = nt;
        m->who_cap = nc;
    }
    m->who_pid[m->nwho] = pid;
    m->who_thread[m->nwho] = thread;
    *v |= (uint64_t)(m->nwho + 1);
    *out = (uint32_t)m->nwho++;
    return 0;
}

/* OnStart. The thread's entry in `who` and the id's in `keys` are each found once: the lookups that
   TraceEvent makes one after the other on each table (the current activity, then setting it; the count the
   lookahead waits for, then the active activity) read and write one entry, in one probe, in the same order. */
static int on_start(act_machine *m, const act_ev *e)
{
    uint32_t who;
    uint64_t *who_entry; /* nothing below changes `who` before the thread's current is set in it */
    if (who_of(m, e->pid, e->thread, &who, &who_entry) < 0)
        return NTIDX_E_NOMEM;
    const int64_t current = current_of(who_entry);
    int64_t creator = e->creator == ACT_CREATOR_CURRENT ? current_start_stop(m, e, current) : -1;
    if (creator < 0) {
        if (!is_zero(e->related) && !active_get(m, key_of(e->related, e->pid), &creator))
            creator = -1;
        /* no related activity id, or it names no live activity: the thread's current one */
        if (creator < 0)
            creator = first_running(m, current);
    }
    /* a tape (tape.h): a million activities a GB, moved to the result whole */
    if (m->nacts == m->cap &&
        (m->nacts >= ACT_MAX || ntx_tape_grow((void **)&m->acts, &m->cap, m->nacts + 1, sizeof *m->acts) < 0))
        return NTIDX_E_NOMEM;
    akey k = key_of(e->id, e->pid);
    uint64_t *v = ntx_kmap_ref(&m->keys, k.a, k.b);
    if (!v)
        return NTIDX_E_NOMEM;
    int64_t idx = (int64_t)m->nacts++;
    act *a = &m->acts[idx];
    memset(a, 0, sizeof *a);
    memcpy(a->id, e->id, 16);
    a->who = who;
    a->name = e->name;
    a->provider = e->provider;
    a->creator = (int32_t)creator;
    a->depth = creator >= 0 ? m->acts[creator].depth + 1 : 0; /* a creator always started before */
    a->ts = e->ts;
    a->in_window = (uint8_t)m->in_window;
    if (m->in_window)
        wopen_step(m, v, +1);
    active_put(m, v, idx);
    put_current(who_entry, idx); /* set_thread_current() */
    return 0;
}

/* OnStop, then DoStopIfNecessary; the id's entry in `keys` found once, as in on_start(). */
static int on_stop(act_machine *m, const act_ev *e)
{
    akey k = key_of(e->id, e->pid);
    uint64_t *v = ntx_kmap_find(&m->keys, k.a, k.b);
    if (!v || !(*v & LOW)) {
        m->unmatched += m->in_window != 0;
        return 0;
    }
    int64_t idx = (int64_t)(*v & LOW) - 1;
    act *a = &m->acts[idx];
    if (a->in_window && !a->stop_seen)
        wopen_step(m, v, -1); /* the entry names a (its low half is set): it stays */
    if (act_duration_ms(m, a) == 0) /* RememberStop: the duration is set once it is not 0 */
        a->stop_ts = e->ts;
    a->stop_seen = 1;
    a->processed = 1;
    /* the deferred stop: the thread's task activity goes back to the first creator still running, and so
       does the id when that creator shares it; else the id is free */
    int64_t creator = first_running(m, a->creator);
    if (creator >= 0 && !memcmp(m->acts[creator].id, a->id, 16) && act_pid(m, &m->acts[creator]) == act_pid(m, a))
        active_put(m, v, creator);
    else if (!(*v = active_cleared(m, *v)))
        ntx_kmap_remove(&m->keys, k.a, k.b);
    /* `who` is another table: v was valid until here */
    return set_thread_current(m, e->pid, e->thread, creator);
}

int act_step(act_machine *m, const act_ev *e)
{
    switch (e->kind) {
    case ACT_EV_START:
        return on_start(m, e);
    case ACT_EV_STOP:
        return on_stop(m, e);
    case ACT_EV_RESTART:
        return set_thread_current(m, e->pid, e->thread, -1);
    }
    return 0;
}

/* ---- Activity ids as text ---- */

int act_is_activity_path(const uint8_t id[16], uint32_t pid)
{
    uint32_t sum = le32(id) + le32(id + 4) + le32(id + 8) + 0x599D99ADu, last = le32(id + 12);
    if (pid == 0) /* the process id is not known: its upper 12 bits are those of a pid under 2^20 */
        return (sum & 0xFFF00000u) == (last & 0xFFF00000u);
    return (sum ^ pid) == last || sum == last; /* the id of this process, or the older form without it */
}

/*
 * The numbers of an activity path. The first 12 bytes are a list of numbers
 * read a nibble at a time: 0 ends it, 1-10 is the number itself, 12-15 say
 * that 1-4 bytes follow (little-endian; when the nibble is the high one of
 * its byte, the low one gives the number's top bits), 11 marks an overflow
 * number (shown after '$' instead of '/'). The last 4 bytes hold the
 * process id (act_is_activity_path). What TraceEvent cannot read it shows as
 * the plain GUID, and so does this.
 */
/* The path's text as snprintf() would write it (len counts what did not fit), without its cost: it is
   written once per activity, a million times in a big trace. */
typedef struct path_out {
    char *buf;
    size_t n, len;
} path_out;

static void put_char(path_out *o, char c)
{
    if (o->len + 1 < o->n)
        o->buf[o->len] = c;
    o->len++;
}

static void put_u32(path_out *o, uint32_t v)
{
    char d[10];
    int k = 0;
    do
        d[k++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (k)
        put_char(o, d[--k]);
}

static void guid_string(const uint8_t id[16], char *buf, size_t n)
{
    char guid[37];
    ntidx_guid_format(id, guid);
    snprintf(buf, n, "%s", guid);
}

void act_path_string(const uint8_t id[16], uint32_t pid, char *buf, size_t n)
{
    if (!act_is_activity_path(id, pid)) {
        guid_string(id, buf, n);
        return;
    }
    path_out o = {buf, n, 0};
    uint32_t path_pid = (le32(id) + le32(id + 4) + le32(id + 8) + 0x599D99ADu) ^ le32(id + 12);
    put_char(&o, '/');
    if (path_pid) { /* "/#%d" */
        put_char(&o, '#');
        if ((int32_t)path_pid < 0) {
            put_char(&o, '-');
            put_u32(&o, 0u - path_pid);
        } else
            put_u32(&o, path_pid);
    }
    size_t i = 0;
    char sep = '/';
    while (i < 12) {
        unsigned nib = id[i] >> 4;
        int low_half = 0;
        for (;;) { /* the high nibble, then (for an immediate value) the low one */
            if (nib == 0)
                goto done;
            if (nib <= 10) {
                put_char(&o, '/');
                put_u32(&o, nib);
                if (low_half)
                    break;
                nib = id[i] & 0xF;
                low_half = 1;
                continue;
            }
            break;
        }
        if (nib <= 10) { /* both nibbles were values */
            i++;
            continue;
        }
        if (nib == 11) { /* an overflow number: the code of its length comes next */
            if (!low_half) {
                nib = id[i] & 0xF; /* read as TraceEvent reads it: the length's nibble stays the "high" one */
            } else {
                if (++i >= 12)
                    break;
                nib = id[i] >> 4;
            }
            if (nib < 12) { /* not a length: TraceEvent gives up and shows the GUID */
                guid_string(id, buf, n);
                return;
            }
            sep = '$';
        }
        uint32_t nbytes = nib - 12 + 1;
        uint32_t value = low_half ? 0 : (uint32_t)(id[i] & 0xF);
        i++;
        if (i + nbytes > 12)
            break;
        for (uint32_t b = nbytes; b-- > 0;)
            value = (value << 8) + id[i + b];
        put_char(&o, sep);
        put_u32(&o, value);
        i += nbytes;
    }
done:
    put_char(&o, '/');
    if (n)
        buf[o.len < n ? o.len : n - 1] = '\0';
    if (o.len >= n && n)
        guid_string(id, buf, n); /* too long for buf: the GUID */
}
_Static_assert(sizeof(act) == 56, "an activity stays 56 bytes: a big trace holds millions");
