/*
 * The contention analysis: the runtime's Contention/Start - Contention/Stop
 * waits of a window (include/ntidx/analysis.h, ntidx_contention_analyze), as
 * docs/conformance.md defines them ("TraceEvent's definitions",
 * contention): a wait is a thread's Contention/Start and its next
 * Contention/Stop; its length is the stop's DurationNs where the runtime
 * writes one (Contention/Stop version 1 and later), else the stop's time
 * minus the start's; waits are summed per lock (Contention/Start's LockID,
 * version 2: .NET 8 and later; 0 before) and thread.
 *
 * A pair analysis: a wait is keyed by its process and thread, the events of
 * one thread are in order, so the pairs of pairs.h do the work: a unit pairs
 * what it holds and hands on its open waits and its stops without a start;
 * the merge closes the one with the other (a wait that starts in one region
 * and ends in the next). A start that finds a wait of its thread still open
 * (a stop lost) leaves that wait without an end: it is kept, incomplete, as
 * is a wait whose stop neither the window nor the lookahead holds. A stop
 * without a start is counted as unmatched.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"
#include "fields.h"
#include "pairs.h"
#include "sorted_runs.h"
#include "tape.h"
#include "time_sort.h"

#define RUNTIME "Microsoft-Windows-DotNETRuntime"
enum { EV_CONTENTION_START = 81, EV_CONTENTION_STOP = 91 };

static const ntx_event_type contention_types[] = {{RUNTIME, EV_CONTENTION_START}, {RUNTIME, EV_CONTENTION_STOP}};

/* What a Contention/Start carries. */
typedef struct start_info {
    uint64_t lock_id, owner;
    uint32_t flags;
    uint32_t has_owner;
} start_info;

/* What a Contention/Stop carries. */
typedef struct stop_info {
    double duration_ns;
    uint32_t has_duration;
    uint32_t pad;
} stop_info;

/* One wait. */
typedef struct cwait {
    uint64_t ts, end_ts;   /* the start's and the stop's timestamps (end_ts 0: no stop) */
    uint64_t thread;
    start_info s;
    uint32_t pid;
    int complete;
    double wait_ms;        /* NaN while incomplete */
} cwait;                   /* 64 bytes: a million of them are kept, sorted and merged */

typedef struct waits {
    cwait *v;
    size_t n, cap;
} waits;

/* A unit's waits are a tape (tape.h): a million of them on the real 1 GB trace, which from realloc() were
   copied at each doubling and faulted in 4 KB at a time, unit after unit (a seventh of the analysis). */
static int waits_add(waits *w, const cwait *c)
{
    if (w->n == w->cap && ntx_tape_grow((void **)&w->v, &w->cap, w->n + 1, sizeof *w->v) < 0)
        return NTIDX_E_NOMEM;
    w->v[w->n++] = *c;
    return 0;
}

static void waits_free(waits *w)
{
    ntx_tape_free(w->v, w->cap, sizeof *w->v);
    *w = (waits){0};
}

/* A unit's state, or the merge's. */
typedef struct cx {
    const ntx_an_ctx *ctx;
    ntx_pairs pairs;    /* open waits by (pid, thread) */
    waits done;         /* finished waits (complete, or left without a stop): a unit's, sorted at its end; the
                           merge's, those it finished itself (across units, past the window, left open) */
    waits *runs;        /* the merge's: the units' sorted waits, taken as they are */
    size_t nruns, runs_cap;
    uint64_t unmatched; /* the merge's: stops that found no wait */
    ntx_an_places start_places, stop_places; /* where the fields lie, per event type (read in place) */
} cx;

static int cx_new(const ntx_an_ctx *ctx, void **out)
{
    cx *c = calloc(1, sizeof *c);
    if (!c || ntx_pairs_init(&c->pairs, sizeof(start_info), sizeof(stop_info)) < 0) {
        free(c);
        return NTIDX_E_NOMEM;
    }
    c->ctx = ctx;
    *out = c;
    return 0;
}

static void cx_free(void *p)
{
    cx *c = p;
    ntx_pairs_free(&c->pairs);
    waits_free(&c->done);
    for (size_t i = 0; i < c->nruns; i++)
        waits_free(&c->runs[i]);
    free(c->runs);
    free(c);
}

/* A wait whose stop will not come. */
static int left_open(cx *c, ntx_pair_key k, const start_info *s, uint64_t ts)
{
    cwait w = {.ts = ts, .thread = k.b, .s = *s, .pid = (uint32_t)k.a, .wait_ms = NAN};
    return waits_add(&c->done, &w);
}

static int closed(cx *c, ntx_pair_key k, const start_info *s, uint64_t ts, const stop_info *e, uint64_t end_ts)
{
    cwait w = {.ts = ts, .end_ts = end_ts, .thread = k.b, .s = *s, .pid = (uint32_t)k.a, .complete = 1};
    w.wait_ms = e->has_duration ? e->duration_ns / 1e6 : ntx_an_ms(c->ctx, end_ts) - ntx_an_ms(c->ctx, ts);
    return waits_add(&c->done, &w);
}

static int merge_closed(void *ctx, ntx_pair_key k, const void *open, uint64_t open_ts, const void *end,
                        uint64_t end_ts)
{
    start_info s;
    stop_info e;
    memcpy(&s, open, sizeof s);
    memcpy(&e, end, sizeof e);
    return closed(ctx, k, &s, open_ts, &e, end_ts);
}

static int merge_replaced(void *ctx, ntx_pair_key k, const void *open, uint64_t open_ts)
{
    start_info s;
    memcpy(&s, open, sizeof s);
    return left_open(ctx, k, &s, open_ts);
}

/* An integer field, read in place: 1 read, 0 missing (a field error), < 0 with err set. */
static int int_field(const ntx_an_event *e, const ntx_field_place *p, const char *name, uint64_t *u, ntx_err *err)
{
    int64_t v;
    int rc = ntx_an_field_int(e, p, name, &v, err);
    if (rc == 1)
        *u = (uint64_t)v;
    return rc;
}

/* A number field as a double (DurationNs: a double the runtime writes; an integer taken too), read in place
   where it has a place: 1 read, 0 missing, < 0 with err set. */
static int double_field(const ntx_an_event *e, const ntx_field_place *p, const char *name, double *f, ntx_err *err)
{
    if (p->kind == NTX_PLACE_FLOAT)
        return ntx_field_place_double(p, e->ev, f);
    if (p->kind == NTX_PLACE_UINT || p->kind == NTX_PLACE_INT) {
        int64_t v;
        if (!ntx_field_place_int(p, e->ev, &v))
            return 0;
        *f = p->kind == NTX_PLACE_UINT ? (double)(uint64_t)v : (double)v;
        return 1;
    }
    const ntidx_values *v;
    int rc = ntx_an_values(e, &v, err);
    if (rc != 0)
        return rc < 0 ? rc : 0;
    const ntidx_value *x = ntidx_values_find(v, name);
    if (!x)
        return 0;
    switch (x->kind) {
    case NTIDX_VALUE_UINT:
    case NTIDX_VALUE_BOOL: *f = (double)x->u; return 1;
    case NTIDX_VALUE_INT: *f = (double)x->i; return 1;
    case NTIDX_VALUE_FLOAT: *f = x->f; return 1;
    }
    return 0;
}

/* A Contention/Start's fields: 1, or 0 when one its version has is missing, < 0 with err set. */
static int start_fields(cx *c, const ntx_an_event *e, start_info *s, ntx_err *err)
{
    static const char *const names[] = {"ContentionFlags", "LockID", "LockOwnerThreadID"};
    uint32_t ver = e->ev->metadata->version;
    memset(s, 0, sizeof *s);
    if (ver < 1)
        return 1;
    const ntx_field_place *at = ntx_an_places_of(&c->start_places, c->ctx->t, e->ev->metadata, names, 3);
    uint64_t flags = 0;
    int rc = int_field(e, &at[0], names[0], &flags, err);
    if (rc != 1)
        return rc;
    s->flags = (uint32_t)flags;
    if (ver >= 2) {
        if ((rc = int_field(e, &at[1], names[1], &s->lock_id, err)) != 1 ||
            (rc = int_field(e, &at[2], names[2], &s->owner, err)) != 1)
            return rc;
        s->has_owner = 1;
    }
    return 1;
}

/* A Contention/Stop's fields: DurationNs from version 1 (TraceEvent: Version >= 1). 1, 0 (missing), < 0. */
static int stop_fields(cx *c, const ntx_an_event *e, stop_info *s, ntx_err *err)
{
    static const char *const names[] = {"DurationNs"};
    memset(s, 0, sizeof *s);
    if (e->ev->metadata->version >= 1) {
        const ntx_field_place *at = ntx_an_places_of(&c->stop_places, c->ctx->t, e->ev->metadata, names, 1);
        int rc = double_field(e, &at[0], names[0], &s->duration_ns, err);
        if (rc != 1)
            return rc;
        s->has_duration = 1;
    }
    return 1;
}

static ntx_pair_key key_of(const ntx_an_event *e) { return (ntx_pair_key){e->pid, e->thread}; }

static int unit_event(void *unit, const ntx_an_event *e, ntx_err *err)
{
    cx *c = unit;
    int rc;
    if (e->ev->metadata->event_id == EV_CONTENTION_START) {
        start_info s, old;
        uint64_t old_ts;
        if ((rc = start_fields(c, e, &s, err)) != 1)
            return rc < 0 ? rc : 1;
        if ((rc = ntx_pairs_start(&c->pairs, key_of(e), e->ts, &s, &old, &old_ts)) == 1)
            rc = left_open(c, key_of(e), &old, old_ts);
    } else {
        stop_info s;
        start_info open;
        uint64_t open_ts;
        if ((rc = stop_fields(c, e, &s, err)) != 1)
            return rc < 0 ? rc : 1;
        if ((rc = ntx_pairs_end(&c->pairs, key_of(e), e->ts, &s, 1, &open, &open_ts)) == 1)
            rc = closed(c, key_of(e), &open, open_ts, &s, e->ts);
    }
    return rc < 0 ? ntx_err_set(err, rc, "out of memory") : 0;
}


static uint64_t open_count(const void *merged) { return ntx_pairs_open_count(&((const cx *)merged)->pairs); }

/* Past the window: a stop ends a wait of the window; a start on a thread still waiting means its stop was
   lost. Nothing starts there. */
static int lookahead_event(void *merged, const ntx_an_event *e, ntx_err *err)
{
    cx *m = merged;
    start_info open;
    uint64_t open_ts;
    int rc;
    if (e->ev->metadata->event_id == EV_CONTENTION_START) { /* its fields do not matter: it starts nothing */
        if ((rc = ntx_pairs_end(&m->pairs, key_of(e), e->ts, NULL, 0, &open, &open_ts)) == 1)
            rc = left_open(m, key_of(e), &open, open_ts);
    } else {
        stop_info s;
        if ((rc = stop_fields(m, e, &s, err)) != 1)
            return rc < 0 ? rc : 1;
        if ((rc = ntx_pairs_end(&m->pairs, key_of(e), e->ts, NULL, 0, &open, &open_ts)) == 1)
            rc = closed(m, key_of(e), &open, open_ts, &s, e->ts);
    }
    return rc < 0 ? ntx_err_set(err, rc, "out of memory") : 0;
}

/* ---- The result ---- */

typedef struct crow {
    uint64_t lock_id, thread; /* thread: UINT64_MAX in the per-lock rows */
    uint32_t pid;
    uint32_t lock_row;        /* a per-lock-and-thread row's per-lock row, while aggregate() adds the waits */
    uint64_t count, incomplete, threads;
    double total, max;
} crow;

typedef struct contention_result {
    cwait *waits;           /* a tape of waits_cap (tape.h) */
    size_t nwaits, waits_cap;
    ntidx_contention *rows; /* per lock and thread (table "contention") */
    size_t nrows;
    crow *locks;            /* per lock (table "contention_locks") */
    size_t nlocks;
    ntx_an_ctx clock;       /* the sync time and tick frequency alone, what ntx_an_ms() reads: a wait's start in ms */
} contention_result;

static void free_result(void *p)
{
    contention_result *r = p;
    if (!r)
        return;
    ntx_tape_free(r->waits, r->waits_cap, sizeof *r->waits);
    free(r->rows);
    free(r->locks);
    free(r);
}

/* Waits in the order of their starts; ties by process, thread and stop, so the sums do not depend on the cut
   into units. */
static int by_start(const void *a, const void *b)
{
    const cwait *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    return x->end_ts < y->end_ts ? -1 : x->end_ts > y->end_ts;
}

/*
 * Waits put in by_start()'s order: keys of their starts sorted (time_sort.h),
 * the few runs of one start then ordered by by_start() itself, and the waits
 * moved once. 0 or NTIDX_E_NOMEM.
 */
static int sort_waits(waits *w)
{
    size_t n = w->n;
    if (n < 2)
        return 0;
    ntx_time_key *keys = malloc(2 * n * sizeof *keys);
    if (!keys)
        return NTIDX_E_NOMEM;
    for (size_t i = 0; i < n; i++)
        keys[i] = (ntx_time_key){.ts = w->v[i].ts, .i = i};
    ntx_time_key *sorted = ntx_time_sort(keys, keys + n, n);
    for (size_t a = 0, b; a < n; a = b) { /* ties of start: insertion sort by the rest of by_start() */
        for (b = a + 1; b < n && sorted[b].ts == sorted[a].ts; b++) {
            ntx_time_key k = sorted[b];
            size_t j = b;
            while (j > a && by_start(&w->v[k.i], &w->v[sorted[j - 1].i]) < 0) {
                sorted[j] = sorted[j - 1];
                j--;
            }
            sorted[j] = k;
        }
    }
    ntx_time_permute(w->v, sizeof *w->v, sorted, n);
    free(keys);
    return 0;
}

/* The waits of the thread asked for (all without --thread), kept in place. */
static void keep_thread(const ntx_an_ctx *ctx, waits *w)
{
    if (!ctx->o->has_thread)
        return;
    size_t keep = 0;
    for (size_t i = 0; i < w->n; i++)
        if (w->v[i].thread == ctx->o->thread)
            w->v[keep++] = w->v[i];
    w->n = keep;
}

/* A unit's finished waits sorted on its worker: the merge takes them as they are, one sorted run each. */
static int unit_end(void *unit, ntx_err *err)
{
    cx *c = unit;
    keep_thread(c->ctx, &c->done);
    return sort_waits(&c->done) < 0 ? ntx_err_set(err, NTIDX_E_NOMEM, "out of memory") : 0;
}

static int merge_unit(void *merged, void *unit, ntx_err *err)
{
    cx *m = merged, *u = unit;
    int rc = ntx_pairs_merge(&m->pairs, &u->pairs, merge_closed, merge_replaced, m, &m->unmatched);
    if (rc == 0 && u->done.n) { /* the unit's run taken, not copied */
        if (m->nruns == m->runs_cap) {
            size_t nc = m->runs_cap ? 2 * m->runs_cap : 16;
            waits *nr = realloc(m->runs, nc * sizeof *nr);
            if (!nr)
                return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
            m->runs = nr;
            m->runs_cap = nc;
        }
        m->runs[m->nruns++] = u->done;
        u->done = (waits){0};
    }
    return rc < 0 ? ntx_err_set(err, rc, "out of memory") : 0;
}

static void add_wait(crow *r, const cwait *w)
{
    if (!w->complete) {
        r->incomplete++;
        return;
    }
    r->count++;
    r->total += w->wait_ms;
    if (r->count == 1 || w->wait_ms > r->max)
        r->max = w->wait_ms;
}

/* A (lock, process, thread) row's key and its number among the rows, in a table of the rows seen. */
typedef struct row_slot {
    uint64_t lock_id, thread;
    uint32_t pid;
    uint32_t row; /* + 1; 0: an empty slot */
} row_slot;

typedef struct row_table {
    row_slot *slots;
    size_t cap, n;
    crow *rows; /* in the order first seen */
    size_t rows_cap;
} row_table;

static size_t row_hash(uint64_t lock, uint32_t pid, uint64_t thread)
{
    uint64_t h = (lock ^ (thread * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)pid << 29)) * 0xD6E8FEB86659FD93ull;
    return (size_t)(h ^ (h >> 32));
}

/* The row of (lock, pid, thread), made when new: its number, or < 0 (NTIDX_E_NOMEM). */
static int64_t row_of(row_table *t, uint64_t lock, uint32_t pid, uint64_t thread)
{
    if (2 * (t->n + 1) > t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 64;
        row_slot *ns = calloc(nc, sizeof *ns);
        if (!ns)
            return NTIDX_E_NOMEM;
        for (size_t i = 0; i < t->cap; i++)
            if (t->slots[i].row) {
                size_t h = row_hash(t->slots[i].lock_id, t->slots[i].pid, t->slots[i].thread) & (nc - 1);
                while (ns[h].row)
                    h = (h + 1) & (nc - 1);
                ns[h] = t->slots[i];
            }
        free(t->slots);
        t->slots = ns;
        t->cap = nc;
    }
    size_t h = row_hash(lock, pid, thread) & (t->cap - 1);
    for (; t->slots[h].row; h = (h + 1) & (t->cap - 1))
        if (t->slots[h].lock_id == lock && t->slots[h].thread == thread && t->slots[h].pid == pid)
            return t->slots[h].row - 1;
    if (t->n == t->rows_cap) {
        size_t nc = t->rows_cap ? 2 * t->rows_cap : 64;
        crow *nr = realloc(t->rows, nc * sizeof *nr);
        if (!nr)
            return NTIDX_E_NOMEM;
        t->rows = nr;
        t->rows_cap = nc;
    }
    t->rows[t->n] = (crow){.lock_id = lock, .thread = thread, .pid = pid};
    t->slots[h] = (row_slot){lock, thread, pid, (uint32_t)++t->n};
    return (int64_t)t->n - 1;
}

/* Rows by lock, process, thread: the order of the rows (TraceEvent's dumper: lock, thread). */
static int row_by_lock(const void *a, const void *b)
{
    const crow *x = a, *y = b;
    if (x->lock_id != y->lock_id)
        return x->lock_id < y->lock_id ? -1 : 1;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return x->thread < y->thread ? -1 : x->thread > y->thread;
}

/*
 * The rows per lock and thread and per lock, from the waits (sorted by
 * start) in one pass: each wait added to its row and its lock in the order
 * of the starts, as one pass over the events adds them, so the sums do not
 * depend on the cut into units. The rows are found in a table of the few
 * (lock, process, thread) keys, each row's lock once when the row is new;
 * the waits are read in their order, not gathered row by row.
 */
static int aggregate(contention_result *r)
{
    size_t n = r->nwaits;
    row_table t = {0}, l = {0};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const cwait *w = &r->waits[i];
        size_t before = t.n;
        int64_t k = row_of(&t, w->s.lock_id, w->pid, w->thread);
        if (k < 0) {
            rc = (int)k;
            break;
        }
        if (t.n != before) { /* a new row: its lock found once, and one more thread waited for it */
            int64_t lk = row_of(&l, w->s.lock_id, w->pid, UINT64_MAX);
            if (lk < 0) {
                rc = (int)lk;
                break;
            }
            t.rows[k].lock_row = (uint32_t)lk;
            l.rows[lk].threads++;
        }
        add_wait(&t.rows[k], w);
        add_wait(&l.rows[t.rows[k].lock_row], w);
    }
    r->rows = rc == 0 ? malloc((t.n ? t.n : 1) * sizeof *r->rows) : NULL;
    if (rc == 0 && !r->rows)
        rc = NTIDX_E_NOMEM;
    if (rc == 0) {
        if (t.n > 1) /* (no rows: no table at all, and qsort() takes no NULL) */
            qsort(t.rows, t.n, sizeof *t.rows, row_by_lock);
        if (l.n > 1)
            qsort(l.rows, l.n, sizeof *l.rows, row_by_lock);
        for (size_t k = 0; k < t.n; k++) {
            const crow *c = &t.rows[k];
            r->rows[k] = (ntidx_contention){.lock_id = c->lock_id, .thread = c->thread, .pid = c->pid,
                                            .count = c->count, .incomplete = c->incomplete, .total_wait_ms = c->total,
                                            .max_wait_ms = c->count ? c->max : NAN};
        }
        r->nrows = t.n;
        r->locks = l.rows; /* per lock, thread UINT64_MAX */
        r->nlocks = l.n;
        l.rows = NULL;
    }
    free(t.slots);
    free(t.rows);
    free(l.slots);
    free(l.rows);
    return rc;
}

static void put_double(ntidx_table_cell *out, double v)
{
    out->f = v;
    out->is_null = isnan(v) || isinf(v);
}

enum { C_LOCK, C_THREAD, C_COUNT, C_TOTAL, C_MAX, C_MEAN, C_INCOMPLETE, C_PID, C_COLUMNS };

static const ntidx_column row_columns[C_COLUMNS] = {
    {"lock_id", NTIDX_COLUMN_UINT, "the lock (Contention/Start's LockID, .NET 8 and later; 0 before)"},
    {"thread", NTIDX_COLUMN_UINT, "the waiting thread"},
    {"count", NTIDX_COLUMN_UINT, "waits that ended"},
    {"total_wait_ms", NTIDX_COLUMN_DOUBLE, "their lengths added up, ms"},
    {"max_wait_ms", NTIDX_COLUMN_DOUBLE, "the longest, ms (null without a wait that ended)"},
    {"mean_wait_ms", NTIDX_COLUMN_DOUBLE, "the mean, ms (null without a wait that ended)"},
    {"incomplete", NTIDX_COLUMN_UINT, "waits whose stop was not found"},
    {"pid", NTIDX_COLUMN_UINT, "the process"},
};

static int row_cell(const void *data, uint64_t row, size_t col, ntidx_table_cell *out)
{
    const ntidx_contention *c = &((const contention_result *)data)->rows[row];
    switch (col) {
    case C_LOCK: out->u = c->lock_id; break;
    case C_THREAD: out->u = c->thread; break;
    case C_COUNT: out->u = c->count; break;
    case C_TOTAL: put_double(out, c->total_wait_ms); break;
    case C_MAX: put_double(out, c->max_wait_ms); break;
    case C_MEAN: put_double(out, c->count ? c->total_wait_ms / (double)c->count : NAN); break;
    case C_INCOMPLETE: out->u = c->incomplete; break;
    default: out->u = c->pid; break;
    }
    return NTIDX_OK;
}

enum { L_LOCK, L_THREADS, L_COUNT, L_TOTAL, L_MAX, L_MEAN, L_INCOMPLETE, L_PID, L_COLUMNS };

static const ntidx_column lock_columns[L_COLUMNS] = {
    {"lock_id", NTIDX_COLUMN_UINT, "the lock"},
    {"thread_count", NTIDX_COLUMN_UINT, "threads that waited for it"},
    {"count", NTIDX_COLUMN_UINT, "waits that ended"},
    {"total_wait_ms", NTIDX_COLUMN_DOUBLE, "their lengths added up, ms"},
    {"max_wait_ms", NTIDX_COLUMN_DOUBLE, "the longest, ms"},
    {"mean_wait_ms", NTIDX_COLUMN_DOUBLE, "the mean, ms"},
    {"incomplete", NTIDX_COLUMN_UINT, "waits whose stop was not found"},
    {"pid", NTIDX_COLUMN_UINT, "the process"},
};

static int lock_cell(const void *data, uint64_t row, size_t col, ntidx_table_cell *out)
{
    const crow *c = &((const contention_result *)data)->locks[row];
    switch (col) {
    case L_LOCK: out->u = c->lock_id; break;
    case L_THREADS: out->u = c->threads; break;
    case L_COUNT: out->u = c->count; break;
    case L_TOTAL: put_double(out, c->total); break;
    case L_MAX: put_double(out, c->count ? c->max : NAN); break;
    case L_MEAN: put_double(out, c->count ? c->total / (double)c->count : NAN); break;
    case L_INCOMPLETE: out->u = c->incomplete; break;
    default: out->u = c->pid; break;
    }
    return NTIDX_OK;
}

enum { W_TS, W_START, W_DURATION, W_THREAD, W_LOCK, W_OWNER, W_KIND, W_COMPLETE, W_PID, W_COLUMNS };

static const ntidx_column wait_columns[W_COLUMNS] = {
    {"ts", NTIDX_COLUMN_UINT, "Contention/Start's timestamp, raw ticks"},
    {"start_relative_ms", NTIDX_COLUMN_DOUBLE, "Contention/Start, ms since the trace's sync time"},
    {"duration_ms", NTIDX_COLUMN_DOUBLE, "the wait: DurationNs, else Stop - Start (null while incomplete)"},
    {"thread", NTIDX_COLUMN_UINT, "the waiting thread"},
    {"lock_id", NTIDX_COLUMN_UINT, "the lock (0 before .NET 8)"},
    {"lock_owner_thread", NTIDX_COLUMN_UINT, "the thread holding it (.NET 8 and later, else null)"},
    {"kind", NTIDX_COLUMN_STRING, "ContentionFlags: Managed or Native"},
    {"is_complete", NTIDX_COLUMN_BOOL, "its Contention/Stop was found"},
    {"pid", NTIDX_COLUMN_UINT, "the process"},
};

static int wait_cell(const void *data, uint64_t row, size_t col, ntidx_table_cell *out)
{
    const contention_result *r = data;
    const cwait *w = &r->waits[row];
    switch (col) {
    case W_TS: out->u = w->ts; break;
    case W_START: put_double(out, ntx_an_ms(&r->clock, w->ts)); break;
    case W_DURATION: put_double(out, w->wait_ms); break;
    case W_THREAD: out->u = w->thread; break;
    case W_LOCK: out->u = w->s.lock_id; break;
    case W_OWNER:
        out->u = w->s.owner;
        out->is_null = !w->s.has_owner;
        break;
    case W_KIND: out->s = w->s.flags == 1 ? "Native" : "Managed"; break;
    case W_COMPLETE: out->u = (uint64_t)w->complete; break;
    default: out->u = w->pid; break;
    }
    return NTIDX_OK;
}

static int add_open(void *ctx, ntx_pair_key k, const void *open, uint64_t ts)
{
    start_info s;
    memcpy(&s, open, sizeof s);
    return left_open(ctx, k, &s, ts);
}

static uint64_t start_key(const void *w) { return ((const cwait *)w)->ts; }

static int finish(void *merged, ntidx_analysis **out, ntx_an_counts *counts, ntx_err *err)
{
    cx *m = merged;
    int rc = ntx_pairs_each_open(&m->pairs, add_open, m);
    if (rc < 0)
        return ntx_err_set(err, rc, "out of memory");
    counts->unmatched += m->unmatched;
    contention_result *r = calloc(1, sizeof *r);
    if (!r)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    r->clock = (ntx_an_ctx){.sync_ticks = m->ctx->sync_ticks, .tick_frequency = m->ctx->tick_frequency};
    /* the waits of the thread asked for, in the order of their starts: the merge's own sorted, then every
       run merged on threads */
    keep_thread(m->ctx, &m->done);
    ntx_sorted_run *runs = sort_waits(&m->done) == 0 ? malloc((m->nruns + 1) * sizeof *runs) : NULL;
    size_t n = m->done.n;
    for (size_t i = 0; runs && i < m->nruns; i++) {
        runs[i] = (ntx_sorted_run){m->runs[i].v, m->runs[i].n};
        n += m->runs[i].n;
    }
    if (!runs || ntx_tape_grow((void **)&r->waits, &r->waits_cap, n ? n : 1, sizeof *r->waits) < 0) {
        free(runs);
        free_result(r);
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    }
    runs[m->nruns] = (ntx_sorted_run){m->done.v, m->done.n};
    rc = ntx_merge_runs(runs, m->nruns + 1, sizeof *r->waits, by_start, start_key, r->waits, m->ctx->o->threads);
    free(runs);
    r->nwaits = n;
    for (size_t i = 0; i < m->nruns; i++) /* what the merge wrote is all that is kept */
        waits_free(&m->runs[i]);
    m->nruns = 0;
    waits_free(&m->done);
    uint64_t incomplete = 0;
    for (size_t i = 0; i < r->nwaits; i++)
        incomplete += !r->waits[i].complete;
    if (rc < 0 || (rc = aggregate(r)) < 0 ||
        (rc = ntx_analysis_new("contention", NTX_ANALYSIS_CONTENTION, r, free_result, out)) < 0) {
        free_result(r);
        return ntx_err_set(err, rc, "out of memory");
    }
    ntx_analysis_stats(*out)->incomplete = incomplete;
    if (ntx_analysis_add_table(*out, "contention", row_columns, C_COLUMNS, r->nrows, row_cell, r) < 0 ||
        ntx_analysis_add_table(*out, "contention_locks", lock_columns, L_COLUMNS, r->nlocks, lock_cell, r) < 0 ||
        ntx_analysis_add_table(*out, "contention_waits", wait_columns, W_COLUMNS, r->nwaits, wait_cell, r) < 0) {
        ntidx_analysis_free(out);
        return ntx_err_set(err, NTIDX_E_INVALID_ARG, "too many tables");
    }
    return 0;
}

static const ntx_analysis_def contention_def = {
    .name = "contention",
    .types = contention_types,
    .ntypes = sizeof contention_types / sizeof contention_types[0],
    .lazy_payload = 1, /* the few fields read in place */
    /* a wait is one thread's Start and its next Stop, and a thread's events are in time order in the file (its
       buffer's, flushed in turn): nothing to sort; the waits are sorted by their starts at the end */
    .order_free = 1,
    .unit_new = cx_new,
    .unit_event = unit_event,
    .unit_end = unit_end,
    .unit_free = cx_free,
    .merge_new = cx_new,
    .merge_unit = merge_unit,
    .open_count = open_count,
    .lookahead_event = lookahead_event,
    .finish = finish,
    .merge_free = cx_free,
};

NTIDX_API int ntidx_contention_analyze(ntidx_trace *t, const ntidx_index *x, const ntidx_analysis_options *o,
                                       ntidx_analysis **out)
{
    return ntx_analysis_run(&contention_def, t, x, o, out);
}

static const ntidx_table contention_tables[] = {{"contention", C_COLUMNS, row_columns, 0},
                                                {"contention_locks", L_COLUMNS, lock_columns, 0},
                                                {"contention_waits", W_COLUMNS, wait_columns, 0}};

const ntidx_analysis_info ntx_contention_info = {
    .name = "contention",
    .summary = "the locks threads waited for, and how long, per lock and thread (Contention/Start-Stop)",
    .analyze = ntidx_contention_analyze,
    .table_count = sizeof contention_tables / sizeof contention_tables[0],
    .tables = contention_tables,
};

NTIDX_API size_t ntidx_contention_count(const ntidx_analysis *a)
{
    const contention_result *r = ntx_analysis_data(a, NTX_ANALYSIS_CONTENTION);
    return r ? r->nrows : 0;
}

NTIDX_API const ntidx_contention *ntidx_contention_at(const ntidx_analysis *a, size_t i)
{
    const contention_result *r = ntx_analysis_data(a, NTX_ANALYSIS_CONTENTION);
    return r && i < r->nrows ? &r->rows[i] : NULL;
}
