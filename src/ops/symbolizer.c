/*
 * The symbolizer (include/ntidx/symbols.h): the methods and modules the .NET
 * runtime reported in a trace, and lookups of instruction pointers in them,
 * named as TraceEvent's TraceLog names them (the conversion every TraceEvent
 * stack source reads: PerfView, dotnet-trace's speedscope export).
 *
 * What TraceLog does (src/TraceEvent/TraceLog.cs in microsoft/perfview), in
 * the order of the events:
 *
 *  - Code addresses. Every address of an event's stack becomes an
 *    "unresolved" code address of its process. A method event that resolves
 *    (AddMethod: Method/UnloadVerbose, Method/DCStopVerboseV2 of the runtime,
 *    Method/DCStopVerbose of the rundown) names every unresolved address in
 *    [MethodStartAddress, + MethodSize) and resolves it: an address seen
 *    after it waits for the next such event. A jitted method load
 *    (Method/LoadVerbose, DCStartVerboseV2, the rundown's DCStartVerbose, with
 *    MethodFlags' Jitted bit) only goes on a list that names, after the last
 *    event, what is still unresolved, in load order. So an address of a
 *    sample at time T gets the first resolving event after T that covers it,
 *    else the first jitted load that does; a method that is neither never
 *    names anything (a load of precompiled code without a rundown).
 *  - The method's name is MethodNamespace + "." + MethodName + the signature
 *    from its first '(' (TraceLog.GetFullName).
 *  - Its module is looked up by ModuleID *at the event's time* among the
 *    process's managed modules (TraceLoadedModules.FindManagedModuleAndIndex:
 *    the latest module of that id whose load time <= T < its unload time);
 *    when there is none, an empty one is made (GetOrCreateManagedModule),
 *    whose file has no name: "ManagedModule". A jitted load makes it at its
 *    own time too (InsertJITTEDMethod).
 *  - Module events (the runtime's Loader/ModuleLoad, ModuleUnload,
 *    ModuleDCStopV2; the rundown's ModuleDCStart, ModuleDCStop) find the
 *    module by id at their time, or make one whose file is looked up by path
 *    (case-insensitive) or created: a file created with a path keeps it in
 *    lower case (TraceModuleFile's constructor), a file made empty and named
 *    later keeps the case of the event that names it (SetModuleFileName).
 *    ModuleLoad sets the module's load time to the session's start (the
 *    trace's sync time); ModuleUnload its unload time. When the IL and native
 *    paths are equal, ".ni" is taken out of the IL path.
 *  - A module's name is its file's path ("ManagedModule" without one) after
 *    the last '/' or '\', without a ".dll" or ".exe" extension (any case).
 *    Names are final: a file named after a method took it is shown named.
 *  - Frames: "module!method"; an address no method covers is "?!?".
 *
 * The symbolizer replays that: it reads the method and module events of the
 * WHOLE trace (the rundown sits at the end, after any window) in file order,
 * replays them in time order to give each method event its module file, and
 * keeps a table sorted by address in which a lookup at time T picks the
 * method event TraceLog would. Where it departs (all rare): the empty module
 * a resolving event makes is made whether or not it named an address (TraceLog
 * makes it only then); a jitted load makes its module even when a load with
 * the same start address came before; one table for all processes; addresses
 * are never taken for the kernel's.
 *
 * Reading costs one pass over the trace restricted to those event types,
 * over an index in parallel (load()): with a --full index it reads only the
 * blocks whose type filters can hold them (a few per cent of a trace: a trace
 * reports each method once or twice); without one, every block is read once.
 */
#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "error.h"
#include "grow.h"
#include "hash.h"
#include "idmap.h"
#include "index_tables.h"
#include "ops_internal.h"
#include "query_internal.h"
#include "search.h"
#include "symbolizer_internal.h"
#include "threads.h"
#include "ntidx/symbols.h"

#define RUNTIME_PROVIDER "Microsoft-Windows-DotNETRuntime"
#define RUNDOWN_PROVIDER "Microsoft-Windows-DotNETRuntimeRundown"

/* The events read, by what they do in TraceLog. */
enum { K_NONE, K_JIT_LOAD, K_RESOLVE, K_MOD_LOAD, K_MOD_UNLOAD, K_MOD_RUNDOWN };

static const struct {
    ntx_event_type type;
    int kind;
} event_kinds[] = {
    {{RUNTIME_PROVIDER, 143}, K_JIT_LOAD},     /* Method/LoadVerbose (jitted ones) */
    {{RUNTIME_PROVIDER, 139}, K_JIT_LOAD},     /* Method/DCStartVerboseV2 */
    {{RUNDOWN_PROVIDER, 143}, K_JIT_LOAD},     /* Method/DCStartVerbose */
    {{RUNTIME_PROVIDER, 144}, K_RESOLVE},      /* Method/UnloadVerbose */
    {{RUNTIME_PROVIDER, 140}, K_RESOLVE},      /* Method/DCStopVerboseV2 */
    {{RUNDOWN_PROVIDER, 144}, K_RESOLVE},      /* Method/DCStopVerbose */
    {{RUNTIME_PROVIDER, 152}, K_MOD_LOAD},     /* Loader/ModuleLoad */
    {{RUNTIME_PROVIDER, 153}, K_MOD_UNLOAD},   /* Loader/ModuleUnload */
    {{RUNTIME_PROVIDER, 150}, K_MOD_RUNDOWN},  /* Loader/ModuleDCStopV2 */
    {{RUNDOWN_PROVIDER, 153}, K_MOD_RUNDOWN},  /* Loader/ModuleDCStart */
    {{RUNDOWN_PROVIDER, 154}, K_MOD_RUNDOWN},  /* Loader/ModuleDCStop */
};
#define NKINDS (sizeof event_kinds / sizeof event_kinds[0])

#define JITTED_FLAG 0x8u       /* MethodFlags: Jitted */
#define SEQ_JIT 0x80000000u    /* while reading: the event is a jitted load */
#define SEQ_MASK 0x7fffffffu
#define SCAN_BACK 64           /* entries looked at below a lookup's address (overlaps: code reused) */
#define MAX_WALK 1024          /* modules of one id looked at by a search (see find_module) */
#define UNKNOWN_FRAME UINT64_MAX

static int kind_of(const ntidx_metadata *m)
{
    for (size_t i = 0; i < NKINDS; i++)
        if (m->event_id == event_kinds[i].type.event_id && !strcmp(m->provider, event_kinds[i].type.provider))
            return event_kinds[i].kind;
    return K_NONE;
}

/* A non-negative integer field. */
static int u64_field(const ntidx_values *v, const char *name, uint64_t *out)
{
    const ntidx_value *f = ntidx_values_find(v, name);
    if (f && (f->kind == NTIDX_VALUE_UINT || f->kind == NTIDX_VALUE_BOOL)) {
        *out = f->u;
        return 1;
    }
    if (f && f->kind == NTIDX_VALUE_INT && f->i >= 0) {
        *out = (uint64_t)f->i;
        return 1;
    }
    return 0;
}

/* A string field; "" when missing (TraceEvent reads an absent string as empty). */
static const char *str_field(const ntidx_values *v, const char *name)
{
    const ntidx_value *f = ntidx_values_find(v, name);
    return f && f->kind == NTIDX_VALUE_STRING && f->str ? f->str : "";
}

/* The small index of a ModuleID (methods keep 32 bits of it). -1 out of memory. */
static int64_t id_index(ntidx_symbolizer *s, uint64_t id)
{
    void *v = ntx_idmap_get(&s->id_index, id);
    if (v)
        return (int64_t)(uintptr_t)v - 1;
    if (ntx_grow((void **)&s->ids, &s->capids, s->nids + 1, sizeof *s->ids, 64, 0) < 0 ||
        ntx_idmap_put(&s->id_index, id, (void *)(uintptr_t)(s->nids + 1)) != 0)
        return -1;
    s->ids[s->nids] = id;
    return (int64_t)s->nids++;
}

static size_t put_path(ntidx_symbolizer *s, const char *p, int *nomem)
{
    size_t n = strlen(p), at = s->paths.len;
    uint8_t *w = ntx_buf_append(&s->paths, n + 1);
    if (!w) {
        *nomem = 1;
        return 0;
    }
    memcpy(w, p, n + 1);
    return at;
}

/* The name at the end of the pool, [at, at + n), stored once: its offset (the pool cut back when it was there
   already), UINT32_MAX when it cannot be numbered, or -1 out of memory. */
static int64_t keep_name(ntidx_symbolizer *s, size_t at, size_t n)
{
    const char *name = (const char *)s->names.bytes + at;
    uint64_t h = ntx_xxh3(name, n);
    void *seen = ntx_idmap_get(&s->name_at, h);
    if (seen && !strcmp((const char *)s->names.bytes + ((uintptr_t)seen - 1), name)) {
        s->names.len = at;
        return (int64_t)((uintptr_t)seen - 1);
    }
    if (!seen && ntx_idmap_put(&s->name_at, h, (void *)(uintptr_t)(at + 1)) != 0)
        return -1;
    if (at >= UINT32_MAX) {
        s->names.len = at;
        return UINT32_MAX; /* the pool's numbering is full: the method stays unnamed */
    }
    return (int64_t)at;
}

/* TraceLog.GetFullName: Namespace + "." + Name + the signature from its first '(', stored once. Its offset,
   UINT32_MAX when it cannot be numbered, or -1 out of memory. */
static int64_t method_name(ntidx_symbolizer *s, const ntidx_values *v)
{
    const char *ns = str_field(v, "MethodNamespace"), *nm = str_field(v, "MethodName");
    const char *args = strchr(str_field(v, "MethodSignature"), '(');
    size_t nsl = strlen(ns), nml = strlen(nm), al = args ? strlen(args) : 0;
    size_t n = nsl + 1 + nml + al;
    if (n >= UINT32_MAX)
        return UINT32_MAX;
    /* The name is built at the end of the pool; if it was there already, the pool is cut back. */
    size_t at = s->names.len;
    char *name = (char *)ntx_buf_append(&s->names, n + 1);
    if (!name)
        return -1;
    memcpy(name, ns, nsl);
    name[nsl] = '.';
    memcpy(name + nsl + 1, nm, nml);
    if (al)
        memcpy(name + nsl + 1 + nml, args, al);
    name[n] = 0;
    return keep_name(s, at, n);
}

/* Record one method or module event. 0, or NTIDX_E_NOMEM. */
static int note(ntidx_symbolizer *s, const ntidx_trace *t, const ntidx_event *e, int kind)
{
    if (ntidx_values_decode(s->values, t, e) != NTIDX_OK)
        return 0; /* undecodable: TraceEvent would not read it either */
    const ntidx_values *v = s->values;
    if (s->seq == SEQ_MASK)
        return 0; /* two billion events of these types: the rest are not numbered */
    uint32_t seq = s->seq++;
    uint64_t id;
    if (!u64_field(v, "ModuleID", &id))
        return 0;
    if (kind >= K_MOD_LOAD) {
        if (ntx_grow((void **)&s->modevs, &s->capmodevs, s->nmodevs + 1, sizeof *s->modevs, 64, 0) < 0)
            return NTIDX_E_NOMEM;
        int nomem = 0;
        modev m = {e->timestamp, id, seq, (uint32_t)kind, 0, 0};
        m.il = put_path(s, str_field(v, "ModuleILPath"), &nomem);
        m.native = put_path(s, str_field(v, "ModuleNativePath"), &nomem);
        if (nomem)
            return NTIDX_E_NOMEM;
        s->modevs[s->nmodevs++] = m;
        return 0;
    }
    uint64_t start, size, flags = 0;
    if (!u64_field(v, "MethodStartAddress", &start) || !u64_field(v, "MethodSize", &size) || size > UINT32_MAX)
        return 0;
    u64_field(v, "MethodFlags", &flags);
    if (kind == K_JIT_LOAD && !(flags & JITTED_FLAG))
        return 0; /* TraceLog keeps only jitted loads: precompiled code is named by its rundown */
    if (s->nmethods >= SEQ_MASK)
        return 0;
    int64_t name = method_name(s, v), idx = id_index(s, id);
    if (name < 0 || idx < 0)
        return NTIDX_E_NOMEM;
    if (name == UINT32_MAX || idx >= UINT32_MAX)
        return 0;
    if (ntx_grow((void **)&s->methods, &s->capmethods, s->nmethods + 1, sizeof *s->methods, 64, 0) < 0)
        return NTIDX_E_NOMEM;
    s->methods[s->nmethods++] = (method){start, e->timestamp, (uint32_t)size, (uint32_t)name, (uint32_t)idx,
                                         seq | (kind == K_JIT_LOAD ? SEQ_JIT : 0)};
    return 0;
}

/* A symbolizer to read into (the whole one, or a unit's part); NULL out of memory. */
static ntidx_symbolizer *reading_new(uint64_t session_start)
{
    ntidx_symbolizer *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    ntx_idmap_init(&s->name_at);
    ntx_idmap_init(&s->id_index);
    ntx_idmap_init(&s->file_by_path);
    ntx_idmap_init(&s->group_of);
    s->session_start = session_start;
    if (ntidx_values_new(&s->values) < 0) {
        free(s);
        return NULL;
    }
    return s;
}

/* One pass of the reader over a trace without an index. */
static int load_all(ntidx_symbolizer *s, ntidx_trace *t)
{
    ntidx_reader *r;
    const ntidx_event *e;
    int rc;
    if ((rc = ntidx_reader_open(t, NULL, &r)) < 0)
        return rc;
    while ((rc = ntidx_reader_next(r, &e)) == 1) {
        int kind = kind_of(e->metadata);
        if (kind != K_NONE && (rc = note(s, t, e, kind)) < 0)
            break;
    }
    ntidx_reader_close(&r);
    return rc;
}

/*
 * With an index the events are read in parallel (the symbolizer's open was
 * the serial part of every analysis that names frames): the index's regions,
 * in file order, cut into runs of about equal bytes (units), each read by one
 * query restricted to the events' types into a part of its own, numbered from
 * 0; the parts are then joined in file order (join_part), which gives the
 * events, their file-order numbers and the names' store exactly as one query
 * over the whole index did. A --full index's query skips the blocks whose
 * type filters cannot hold these events.
 */
typedef struct sym_unit {
    size_t first, count;    /* regions[first .. first + count) */
    ntidx_symbolizer *part; /* what it read (NULL until read) */
} sym_unit;

typedef struct sym_shared {
    ntidx_trace *t;
    const ntidx_index *x;
    uint64_t session_start;
    uint64_t *regions;
    sym_unit *units;
    size_t nunits;
    atomic_size_t next;
    atomic_int failed;
} sym_shared;

/* Each on cache lines of its own (allocated aligned): no worker writes a line another one does. */
typedef struct sym_worker {
    alignas(64) sym_shared *sh;
    int rc;
    ntx_err err;
    char file[NTIDX_ERROR_MAX]; /* the file the error is about */
} sym_worker;

static int read_unit(sym_shared *sh, sym_unit *u)
{
    ntx_event_type types[NKINDS];
    for (size_t i = 0; i < NKINDS; i++)
        types[i] = event_kinds[i].type;
    if (!(u->part = reading_new(sh->session_start)))
        return NTIDX_E_NOMEM;
    ntidx_query_options o;
    ntidx_query_options_defaults(&o);
    o.order = NTIDX_ORDER_FILE;
    o.regions = &sh->regions[u->first];
    o.region_count = u->count;
    ntidx_query *q;
    int rc = ntidx_query_open(sh->t, sh->x, &o, &q);
    if (rc < 0)
        return rc;
    const ntidx_event *e;
    rc = ntx_query_restrict_types(q, types, NKINDS);
    while (rc == 0 && (rc = ntidx_query_next(q, &e)) == 1)
        rc = note(u->part, sh->t, e, kind_of(e->metadata));
    ntidx_query_close(&q);
    ntidx_values_free(&u->part->values);
    return rc;
}

static void *sym_work(void *arg)
{
    sym_worker *w = arg;
    sym_shared *sh = w->sh;
    while (!atomic_load(&sh->failed)) {
        size_t k = atomic_fetch_add(&sh->next, 1);
        if (k >= sh->nunits)
            break;
        unsigned long said = ntx_error_count();
        int rc = read_unit(sh, &sh->units[k]);
        if (rc < 0) {
            /* carried to the calling thread: the reader and queries said theirs on this one */
            if (ntx_error_count() != said) {
                ntx_err_from_last(&w->err, rc);
                snprintf(w->file, sizeof w->file, "%s", ntidx_last_error_info()->file);
            } else {
                ntx_err_set(&w->err, rc, "out of memory reading methods and modules");
                snprintf(w->file, sizeof w->file, "%s", ntidx_trace_name(sh->t));
            }
            w->rc = rc;
            atomic_store(&sh->failed, 1);
            break;
        }
    }
    return NULL;
}

/* Unit part `p`'s events after those read so far: their numbers moved past, their names, module ids and paths
   into s's stores. 0 or NTIDX_E_NOMEM. */
static int join_part(ntidx_symbolizer *s, const ntidx_symbolizer *p)
{
    uint32_t base = s->seq;
    /* numbers past SEQ_MASK are not given: the events beyond are not kept (as note() does) */
    s->seq = p->seq > SEQ_MASK - base ? SEQ_MASK : base + p->seq;
    int nomem = 0;
    for (size_t i = 0; i < p->nmodevs; i++) {
        modev m = p->modevs[i];
        if (m.seq >= SEQ_MASK - base)
            break;
        m.seq += base;
        m.il = put_path(s, (const char *)p->paths.bytes + p->modevs[i].il, &nomem);
        m.native = put_path(s, (const char *)p->paths.bytes + p->modevs[i].native, &nomem);
        if (nomem || ntx_grow((void **)&s->modevs, &s->capmodevs, s->nmodevs + 1, sizeof *s->modevs, 64, 0) < 0)
            return NTIDX_E_NOMEM;
        s->modevs[s->nmodevs++] = m;
    }
    /* the part's name offsets and module id indexes to s's, each looked up once */
    ntx_idmap name_of, id_of;
    ntx_idmap_init(&name_of);
    ntx_idmap_init(&id_of);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < p->nmethods; i++) {
        method m = p->methods[i];
        if ((m.seq & SEQ_MASK) >= SEQ_MASK - base || s->nmethods >= SEQ_MASK)
            break;
        m.seq += base;
        void *v = ntx_idmap_get(&name_of, m.name);
        int64_t name;
        if (v) {
            name = (int64_t)((uintptr_t)v - 1);
        } else {
            const char *pn = (const char *)p->names.bytes + m.name;
            size_t n = strlen(pn), at = s->names.len;
            uint8_t *w = ntx_buf_append(&s->names, n + 1);
            if (w)
                memcpy(w, pn, n + 1);
            if (!w || (name = keep_name(s, at, n)) < 0 ||
                ntx_idmap_put(&name_of, m.name, (void *)(uintptr_t)(name + 1)) != 0) {
                rc = NTIDX_E_NOMEM;
                break;
            }
        }
        if (name == UINT32_MAX)
            continue;
        v = ntx_idmap_get(&id_of, m.file);
        int64_t idx;
        if (v) {
            idx = (int64_t)((uintptr_t)v - 1);
        } else if ((idx = id_index(s, p->ids[m.file])) < 0 ||
                   ntx_idmap_put(&id_of, m.file, (void *)(uintptr_t)(idx + 1)) != 0) {
            rc = NTIDX_E_NOMEM;
            break;
        }
        if (idx >= UINT32_MAX)
            continue;
        if (ntx_grow((void **)&s->methods, &s->capmethods, s->nmethods + 1, sizeof *s->methods, 64, 0) < 0) {
            rc = NTIDX_E_NOMEM;
            break;
        }
        m.name = (uint32_t)name;
        m.file = (uint32_t)idx;
        s->methods[s->nmethods++] = m;
    }
    ntx_idmap_free(&name_of);
    ntx_idmap_free(&id_of);
    return rc;
}
/* Read the events into s: in parallel over the index's regions (`threads`, 0: one per core), or one reader
   pass without an index. 0, or an error; *err and *file say it when it was a worker's. */
static int load(ntidx_symbolizer *s, ntidx_trace *t, const ntidx_index *x, unsigned threads, ntx_err *err,
                char *file, size_t filelen)
{
    if (!x)
        return load_all(s, t);
    sym_shared sh = {.t = t, .x = x, .session_start = s->session_start};
    uint64_t nr = ntx_index_region_total(x), total = 0;
    unsigned nthreads = ntx_thread_count(threads);
    sh.regions = malloc((size_t)(nr ? nr : 1) * sizeof *sh.regions);
    sh.units = calloc((size_t)(nr ? nr : 1), sizeof *sh.units);
    sym_worker *ws = aligned_alloc(alignof(sym_worker), nthreads * sizeof *ws);
    if (!sh.regions || !sh.units || !ws) {
        free(sh.regions);
        free(sh.units);
        free(ws);
        return NTIDX_E_NOMEM;
    }
    memset(ws, 0, nthreads * sizeof *ws);
    for (uint64_t r = 0; r < nr; r++) {
        sh.regions[r] = r;
        total += ntx_rg_bytes(x, r);
    }
    /* Units of about a quarter of a thread's share of the bytes: threads finish together. */
    uint64_t target = total / ((uint64_t)nthreads * 4) + 1, acc = 0;
    for (size_t i = 0; i < nr; i++) {
        if (i == 0 || acc >= target) {
            sh.units[sh.nunits++] = (sym_unit){.first = i};
            acc = 0;
        }
        sh.units[sh.nunits - 1].count++;
        acc += ntx_rg_bytes(x, i);
    }
    if (nthreads > sh.nunits)
        nthreads = sh.nunits ? (unsigned)sh.nunits : 1;
    if (nr > 1)
        ntx_index_prefetch_regions(x, 0, nr);
    for (unsigned i = 0; i < nthreads; i++)
        ws[i].sh = &sh;
    ntx_run_threads_each(nthreads, sym_work, ws, sizeof *ws); /* the workers' part, timed for the benchmarks */
    int rc = 0;
    for (unsigned i = 0; rc == 0 && i < nthreads; i++)
        if (ws[i].rc < 0) {
            rc = ws[i].rc;
            *err = ws[i].err;
            snprintf(file, filelen, "%s", ws[i].file);
        }
    /* The parts, in file order. */
    for (size_t k = 0; k < sh.nunits; k++) {
        if (rc == 0 && (rc = join_part(s, sh.units[k].part)) < 0) {
            ntx_err_set(err, rc, "out of memory reading methods and modules");
            snprintf(file, filelen, "%s", ntidx_trace_name(t));
        }
        ntidx_symbolizer_close(&sh.units[k].part);
    }
    free(ws);
    free(sh.units);
    free(sh.regions);
    return rc;
}

/* ---- Sorting in place (qsort would allocate a copy of a table of millions: glibc sorts by merging) ---- */

/* Time order, as TraceEvent dispatches: timestamp, then file order. */
static int time_lt(const method *x, const method *y)
{
    if (x->when != y->when)
        return x->when < y->when;
    return (x->seq & SEQ_MASK) < (y->seq & SEQ_MASK);
}

/* Address order for lookups: start, size, then the order in which the entries would name an address. */
static int addr_lt(const method *x, const method *y)
{
    if (x->start != y->start)
        return x->start < y->start;
    if (x->size != y->size)
        return x->size < y->size;
    if (x->when != y->when)
        return x->when < y->when;
    return x->seq < y->seq;
}

static void sift_down(method *m, size_t i, size_t n, int (*lt)(const method *, const method *))
{
    method x = m[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && lt(&m[c], &m[c + 1]))
            c++;
        if (!lt(&x, &m[c]))
            break;
        m[i] = m[c];
        i = c;
    }
    m[i] = x;
}

static void heap_sort(method *m, size_t n, int (*lt)(const method *, const method *))
{
    for (size_t i = n / 2; i-- > 0;)
        sift_down(m, i, n, lt);
    for (size_t end = n; end-- > 1;) {
        method t = m[0];
        m[0] = m[end];
        m[end] = t;
        sift_down(m, 0, end, lt);
    }
}

/*
 * Introsort, in place: quicksort (median of three, Hoare's partition, the smaller side recursed on), heap sort
 * for a range that recursed past 2 log2 n levels, insertion sort below 16 entries. The orders are total (file
 * places are unique), so any correct sort gives the same table. It replaced heap sort alone, whose sift-downs
 * miss the cache at every level: on the generated 10 GB trace's 6.2 million method loads the two sorts were
 * most of a symbolizer's serial join.
 */
static inline void swap_methods(method *a, method *b)
{
    method t = *a;
    *a = *b;
    *b = t;
}

/* Hoare's partition of m[0, n) (n > 16) around the median of three: [0, left) holds nothing above the pivot,
   [left, n) nothing below it, both non-empty. Returns left. */
static size_t partition(method *m, size_t n, int (*lt)(const method *, const method *))
{
    size_t mid = n / 2;
    if (lt(&m[mid], &m[0]))
        swap_methods(&m[mid], &m[0]);
    if (lt(&m[n - 1], &m[0]))
        swap_methods(&m[n - 1], &m[0]);
    if (lt(&m[n - 1], &m[mid]))
        swap_methods(&m[n - 1], &m[mid]);
    const method pivot = m[mid];
    size_t i = 0, j = n - 1;
    for (;;) {
        while (lt(&m[i], &pivot))
            i++;
        while (lt(&pivot, &m[j]))
            j--;
        if (i >= j)
            break;
        swap_methods(&m[i++], &m[j--]);
    }
    return j + 1;
}

static void intro_sort(method *m, size_t n, unsigned depth, int (*lt)(const method *, const method *))
{
    while (n > 16) {
        if (depth-- == 0) {
            heap_sort(m, n, lt);
            return;
        }
        size_t left = partition(m, n, lt);
        if (left < n - left) {
            intro_sort(m, left, depth, lt);
            m += left;
            n -= left;
        } else {
            intro_sort(m + left, n - left, depth, lt);
            n = left;
        }
    }
    for (size_t i = 1; i < n; i++) {
        method x = m[i];
        size_t k = i;
        for (; k > 0 && lt(&x, &m[k - 1]); k--)
            m[k] = m[k - 1];
        m[k] = x;
    }
}

static unsigned sort_depth(size_t n)
{
    unsigned depth = 0;
    for (size_t k = n; k > 1; k >>= 1)
        depth += 2;
    return depth;
}

/*
 * The same sort on threads, in place (a table of millions of method events
 * is hundreds of MB: no copy): a range larger than SORT_TASK is partitioned,
 * its smaller side left on a shared stack for any thread to take, and the
 * larger one partitioned again; a range of SORT_TASK or less (or past its
 * depth) is sorted where it is, as intro_sort() sorts it. Only the first
 * partition (one pass over the table) has a thread alone. On the generated
 * 10 GB trace's 6.2 million method events, the two sorts on one thread were
 * the largest part of a symbolizer's serial join.
 */
#define SORT_TASK (1u << 15)
typedef struct sort_task {
    method *m;
    size_t n;
    unsigned depth;
} sort_task;

typedef struct psort {
    int (*lt)(const method *, const method *);
    pthread_mutex_t lock;
    pthread_cond_t more;
    sort_task *stack; /* room for every task there can be (sort_methods()) */
    size_t nstack;
    unsigned busy;    /* threads with a task in hand */
} psort;

static void *psort_work(void *arg)
{
    psort *ps = arg;
    pthread_mutex_lock(&ps->lock);
    for (;;) {
        while (!ps->nstack && ps->busy)
            pthread_cond_wait(&ps->more, &ps->lock);
        if (!ps->nstack) /* nothing left, and nobody who could leave more */
            break;
        sort_task t = ps->stack[--ps->nstack];
        ps->busy++;
        pthread_mutex_unlock(&ps->lock);
        while (t.n > SORT_TASK && t.depth > 0) {
            t.depth--;
            size_t left = partition(t.m, t.n, ps->lt);
            sort_task lo = {t.m, left, t.depth}, hi = {t.m + left, t.n - left, t.depth};
            int lo_smaller = lo.n < hi.n;
            t = lo_smaller ? hi : lo;
            pthread_mutex_lock(&ps->lock);
            ps->stack[ps->nstack++] = lo_smaller ? lo : hi;
            pthread_cond_signal(&ps->more);
            pthread_mutex_unlock(&ps->lock);
        }
        intro_sort(t.m, t.n, t.depth, ps->lt);
        pthread_mutex_lock(&ps->lock);
        if (--ps->busy == 0 && !ps->nstack)
            pthread_cond_broadcast(&ps->more);
    }
    pthread_mutex_unlock(&ps->lock);
    return NULL;
}

/* m[0, n) sorted by lt on `threads` threads (0: one per core). */
static void sort_methods(method *m, size_t n, int (*lt)(const method *, const method *), unsigned threads)
{
    unsigned nthreads = ntx_thread_count(threads);
    /* each task pushed is a side of a partition of a range of more than SORT_TASK: at most n / SORT_TASK of those
       at each of the sort's levels */
    size_t room = ((size_t)sort_depth(n) + 1) * (n / SORT_TASK + 1);
    /* on one thread too (the tasks cost nothing to speak of): the sort is then timed as the part more threads
       divide (NTIDX_PHASES, tools/bench/bench_serial.sh) */
    sort_task *stack = n > 4 * (size_t)SORT_TASK ? malloc(room * sizeof *stack) : NULL;
    if (!stack) { /* a table too small to share, or no memory for the tasks */
        intro_sort(m, n, sort_depth(n), lt);
        return;
    }
    psort ps = {.lt = lt, .stack = stack, .nstack = 1};
    stack[0] = (sort_task){m, n, sort_depth(n)};
    pthread_mutex_init(&ps.lock, NULL);
    pthread_cond_init(&ps.more, NULL);
    ntx_run_threads(nthreads, psort_work, &ps);
    pthread_cond_destroy(&ps.more);
    pthread_mutex_destroy(&ps.lock);
    free(stack);
}

static int modev_cmp(const void *a, const void *b)
{
    const modev *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* ---- The replay: TraceEvent's managed modules and module files ---- */

/* ASCII lower case (paths are ASCII in practice; other bytes are kept). */
static uint64_t path_key(const char *p)
{
    size_t n = strlen(p);
    char buf[512] = {0}; /* zeroed: an LTO build takes the hash of an empty path for a read of unset bytes */
    char *l = n < sizeof buf ? buf : malloc(n + 1);
    if (!l)
        return ntx_xxh3(p, n); /* out of memory: the key of the path as it is (a lookup may then miss) */
    for (size_t i = 0; i < n; i++)
        l[i] = (char)(p[i] >= 'A' && p[i] <= 'Z' ? p[i] + 32 : p[i]);
    uint64_t h = ntx_xxh3(l, n);
    if (l != buf)
        free(l);
    return h;
}

static char *dup_str(const char *p, int lower)
{
    size_t n = strlen(p);
    char *d = malloc(n + 1);
    if (!d)
        return NULL;
    for (size_t i = 0; i <= n; i++)
        d[i] = (char)(lower && p[i] >= 'A' && p[i] <= 'Z' ? p[i] + 32 : p[i]);
    return d;
}

/* TraceModuleFiles.GetOrCreateModuleFile(path, 0) (path NULL: a file without a name). -1 out of memory. */
static int64_t file_for(ntidx_symbolizer *s, const char *path)
{
    uint64_t key = 0;
    if (path) {
        key = path_key(path);
        void *v = ntx_idmap_get(&s->file_by_path, key);
        if (v) {
            const mfile *f = &s->files[(uintptr_t)v - 1];
            if (f->path && !strcasecmp(f->path, path))
                return (int64_t)((uintptr_t)v - 1);
        }
    }
    if (ntx_grow((void **)&s->files, &s->capfiles, s->nfiles + 1, sizeof *s->files, 64, 0) < 0)
        return -1;
    mfile f = {NULL, 0};
    if (path && !(f.path = dup_str(path, 1))) /* TraceModuleFile's constructor: "Normalize to lower case" */
        return -1;
    if (path && ntx_idmap_put(&s->file_by_path, key, (void *)(uintptr_t)(s->nfiles + 1)) != 0) {
        free(f.path);
        return -1;
    }
    s->files[s->nfiles] = f;
    return (int64_t)s->nfiles++;
}

/* SetModuleFileName: a file made without a name gets one, as the event spells it. 0 or -1. */
static int name_file(ntidx_symbolizer *s, uint32_t file, const char *path)
{
    char *p = dup_str(path, 0);
    if (!p || ntx_idmap_put(&s->file_by_path, path_key(path), (void *)(uintptr_t)(file + 1)) != 0) {
        free(p);
        return -1;
    }
    s->files[file].path = p;
    return 0;
}

/* The group of a ModuleID, made empty when new; NULL out of memory. */
static mgroup *group_of(ntidx_symbolizer *s, uint64_t id)
{
    void *v = ntx_idmap_get(&s->group_of, id);
    if (v)
        return &s->groups[(uintptr_t)v - 1];
    if (ntx_grow((void **)&s->groups, &s->capgroups, s->ngroups + 1, sizeof *s->groups, 64, 0) < 0 ||
        ntx_idmap_put(&s->group_of, id, (void *)(uintptr_t)(s->ngroups + 1)) != 0)
        return NULL;
    s->groups[s->ngroups] = (mgroup){NULL, 0, 0};
    return &s->groups[s->ngroups++];
}

/* FindManagedModuleAndIndex: from the last module of the id back, the first with load <= t < unload; the
   search stops at one already unloaded at t. *pos: where a new one goes. A real trace loads a module id a
   few times at most; a hostile one that makes thousands which events before the trace's start cannot find
   gets its search cut short (the new module then goes last), so that the replay stays linear. */
static mmod *find_module(ntidx_symbolizer *s, const mgroup *g, uint64_t t, uint32_t *pos)
{
    for (uint32_t i = g->n, steps = 0; i-- > 0;) {
        if (++steps > MAX_WALK) {
            *pos = g->n;
            return NULL;
        }
        mmod *m = &s->mods[g->mods[i]];
        if (!(t < m->unload)) {
            *pos = i + 1;
            return NULL;
        }
        if (m->load <= t)
            return m;
    }
    *pos = 0;
    return NULL;
}

/* A new module of file `file` at g's place `pos`; NULL out of memory. */
static mmod *insert_module(ntidx_symbolizer *s, mgroup *g, uint32_t pos, uint32_t file)
{
    size_t cap = g->cap;
    if (ntx_grow((void **)&s->mods, &s->capmods, s->nmods + 1, sizeof *s->mods, 64, 0) < 0 ||
        ntx_grow((void **)&g->mods, &cap, g->n + 1, sizeof *g->mods, 64, 0) < 0)
        return NULL;
    g->cap = (uint32_t)cap;
    memmove(g->mods + pos + 1, g->mods + pos, (g->n - pos) * sizeof *g->mods);
    g->mods[pos] = (uint32_t)s->nmods;
    g->n++;
    s->mods[s->nmods] = (mmod){0, UINT64_MAX, file};
    return &s->mods[s->nmods++];
}

/* GetOrCreateManagedModule(id, t): the module's file, or -1 out of memory. */
static int64_t module_file(ntidx_symbolizer *s, uint64_t id, uint64_t t)
{
    mgroup *g = group_of(s, id);
    if (!g)
        return -1;
    uint32_t pos;
    mmod *m = find_module(s, g, t, &pos);
    if (m)
        return m->file;
    int64_t f = file_for(s, NULL);
    if (f < 0)
        return -1;
    g = group_of(s, id); /* file_for() does not move groups, but stay safe */
    m = insert_module(s, g, pos, (uint32_t)f);
    return m ? (int64_t)m->file : -1;
}

/* ManagedModuleLoadOrUnload. 0 or -1. */
static int module_event(ntidx_symbolizer *s, const modev *e)
{
    const char *il0 = (const char *)s->paths.bytes + e->il, *native = (const char *)s->paths.bytes + e->native;
    char *il = dup_str(il0, 0);
    if (!il)
        return -1;
    size_t n = strlen(il);
    if (!strcmp(il, native) && n >= 7) {
        /* An NGEN image used as the IL image: ".ni" out of the IL path. TraceEvent looks for ".ni." in the
           last 7 characters (LastIndexOf(".ni.", Length, 8)), the last one there. */
        for (size_t p = n - 4 + 1; p-- > n - 7;)
            if (!strncasecmp(il + p, ".ni.", 4)) {
                memmove(il + p, il + p + 3, n - p - 3 + 1);
                break;
            }
    }
    mgroup *g = group_of(s, e->id);
    int rc = -1;
    if (!g)
        goto out;
    uint32_t pos;
    mmod *m = find_module(s, g, e->ts, &pos);
    if (!m) {
        int64_t f = file_for(s, il);
        if (f < 0 || !(m = insert_module(s, g, pos, (uint32_t)f)))
            goto out;
    }
    if (!s->files[m->file].path && name_file(s, m->file, il) < 0)
        goto out;
    if (e->kind == K_MOD_LOAD)
        m->load = s->session_start;
    else if (e->kind == K_MOD_UNLOAD)
        m->unload = e->ts;
    rc = 0;
out:
    free(il);
    return rc;
}

/* TraceLog.GetFileNameWithoutExtensionNoIllegalChars. */
static void module_name(const char *path, const char **at, size_t *len)
{
    const char *base = path;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\')
            base = p + 1;
    size_t n = strlen(base);
    const char *dot = strrchr(base, '.');
    if (dot && dot > base && (!strcasecmp(dot, ".dll") || !strcasecmp(dot, ".exe")))
        n = (size_t)(dot - base);
    *at = base;
    *len = n;
}

/* Replay the events in time order: each method event gets its module file. 0 or NTIDX_E_NOMEM. */
static int replay(ntidx_symbolizer *s, unsigned threads)
{
    sort_methods(s->methods, s->nmethods, time_lt, threads);
    if (s->nmodevs > 1)
        qsort(s->modevs, s->nmodevs, sizeof *s->modevs, modev_cmp);
    size_t j = 0;
    for (size_t i = 0; i < s->nmethods; i++) {
        method *m = &s->methods[i];
        while (j < s->nmodevs && (s->modevs[j].ts < m->when ||
                                  (s->modevs[j].ts == m->when && s->modevs[j].seq < (m->seq & SEQ_MASK))))
            if (module_event(s, &s->modevs[j++]) < 0)
                return NTIDX_E_NOMEM;
        int64_t f = module_file(s, s->ids[m->file], m->when);
        if (f < 0)
            return NTIDX_E_NOMEM;
        if (!(m->seq & SEQ_JIT)) {
            m->file = (uint32_t)f;
            m->seq &= SEQ_MASK;
            if (m->when == WHEN_END)
                m->when--; /* a resolving event at the last tick stays one */
        }
    }
    for (; j < s->nmodevs; j++)
        if (module_event(s, &s->modevs[j]) < 0)
            return NTIDX_E_NOMEM;
    /* After the last event, the jitted loads in load order, each looking its module up at its own time. */
    uint32_t order = 0;
    for (size_t i = 0; i < s->nmethods; i++) {
        method *m = &s->methods[i];
        if (!(m->seq & SEQ_JIT))
            continue;
        int64_t f = module_file(s, s->ids[m->file], m->when);
        if (f < 0)
            return NTIDX_E_NOMEM;
        m->file = (uint32_t)f;
        m->when = WHEN_END;
        m->seq = order++;
    }
    /* Module names, each stored once. */
    s->modnames = malloc((s->nfiles ? s->nfiles : 1) * sizeof *s->modnames);
    if (!s->modnames)
        return NTIDX_E_NOMEM;
    for (size_t i = 0; i < s->nfiles; i++) {
        const char *base;
        size_t n;
        module_name(s->files[i].path ? s->files[i].path : "ManagedModule", &base, &n);
        size_t k = 0;
        while (k < s->nmodnames && !(strlen(s->modnames[k]) == n && !memcmp(s->modnames[k], base, n)))
            k++;
        if (k == s->nmodnames) {
            char *d = malloc(n + 1);
            if (!d)
                return NTIDX_E_NOMEM;
            memcpy(d, base, n);
            d[n] = 0;
            s->modnames[s->nmodnames++] = d;
        }
        s->files[i].name_id = (uint32_t)k;
    }
    return 0;
}

/* The table for lookups: by address; of the entries of one range, those that can never name an address
   dropped (a later jitted load of the same range, a resolving event of the same range at the same time). */
static void build_table(ntidx_symbolizer *s, unsigned threads)
{
    sort_methods(s->methods, s->nmethods, addr_lt, threads);
    size_t w = 0;
    for (size_t i = 0; i < s->nmethods; i++) {
        const method *m = &s->methods[i];
        if (w && s->methods[w - 1].start == m->start && s->methods[w - 1].size == m->size &&
            s->methods[w - 1].when == m->when)
            continue;
        if (m->size > s->max_size)
            s->max_size = m->size;
        s->methods[w++] = *m;
    }
    s->nmethods = w;
}

static void free_replay(ntidx_symbolizer *s)
{
    for (size_t i = 0; i < s->ngroups; i++)
        free(s->groups[i].mods);
    free(s->groups);
    s->groups = NULL;
    s->ngroups = s->capgroups = 0;
    free(s->mods);
    s->mods = NULL;
    free(s->ids);
    s->ids = NULL;
    free(s->modevs);
    s->modevs = NULL;
    ntidx_buf_free(&s->paths);
    ntx_idmap_free(&s->group_of);
    ntx_idmap_free(&s->file_by_path);
    ntx_idmap_free(&s->id_index);
    ntx_idmap_free(&s->name_at);
}

int ntx_symbolizer_open_threads(ntidx_trace *t, const ntidx_index *x, unsigned threads, ntidx_symbolizer **out)
{
    if (out)
        *out = NULL;
    if (!t || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET,
                         "ntidx_symbolizer_open: NULL argument");
    int cached = ntx_symbol_cache_load(t, x, out); /* the table saved beside the index, when it is there */
    if (cached != 0)
        return cached > 0 ? NTIDX_OK
                          : ntx_failf(cached, ntidx_trace_name(t), NTIDX_NO_OFFSET, "out of memory");
    ntidx_symbolizer *s = reading_new((uint64_t)ntidx_trace_get_info(t)->sync_ticks);
    if (!s)
        return ntx_failf(NTIDX_E_NOMEM, ntidx_trace_name(t), NTIDX_NO_OFFSET, "out of memory");
    unsigned long said = ntx_error_count();
    ntx_err err = {0};
    char file[NTIDX_ERROR_MAX] = "";
    int rc = load(s, t, x, threads, &err, file, sizeof file);
    ntidx_values_free(&s->values);
    if (rc == 0)
        rc = replay(s, threads);
    free_replay(s);
    if (rc < 0) {
        ntidx_symbolizer_close(&s);
        if (err.code) /* a worker's error, said on its thread */
            ntx_fail(rc, file, &err);
        else if (ntx_error_count() == said) /* out of memory here; the reader and queries say their own errors */
            ntx_failf(rc, ntidx_trace_name(t), NTIDX_NO_OFFSET, "out of memory reading methods and modules");
        return rc;
    }
    build_table(s, threads);
    ntx_symbol_cache_save(s, t, x);
    *out = s;
    return NTIDX_OK;
}

/* ---- Read along with another pass (ops_internal.h) ---- */

size_t ntx_symbolizer_types(ntx_event_type *out, size_t cap)
{
    for (size_t i = 0; i < NKINDS && i < cap; i++)
        out[i] = event_kinds[i].type;
    return NKINDS;
}

ntidx_symbolizer *ntx_symbolizer_part_new(const ntidx_trace *t)
{
    return reading_new((uint64_t)ntidx_trace_get_info(t)->sync_ticks);
}

int ntx_symbolizer_part_note(ntidx_symbolizer *part, const ntidx_trace *t, const ntidx_event *e)
{
    int kind = kind_of(e->metadata);
    if (kind == K_NONE)
        return 0;
    int rc = note(part, t, e, kind);
    return rc < 0 ? rc : 1;
}

int ntx_symbolizer_join(ntidx_symbolizer **parts, size_t n, uint64_t session_start, unsigned threads,
                        ntidx_symbolizer **out)
{
    *out = NULL;
    ntidx_symbolizer *s = reading_new(session_start);
    int rc = s ? 0 : NTIDX_E_NOMEM;
    /* as load() joins its units' parts */
    for (size_t k = 0; k < n; k++) {
        if (rc == 0 && parts[k])
            rc = join_part(s, parts[k]);
        ntidx_symbolizer_close(&parts[k]);
    }
    if (!s)
        return rc;
    ntidx_values_free(&s->values);
    if (rc == 0)
        rc = replay(s, threads);
    free_replay(s);
    if (rc < 0) {
        ntidx_symbolizer_close(&s);
        return rc;
    }
    build_table(s, threads);
    *out = s;
    return 0;
}

NTIDX_API int ntidx_symbolizer_open(ntidx_trace *t, const ntidx_index *x, ntidx_symbolizer **out)
{
    return ntx_symbolizer_open_threads(t, x, 0, out);
}

struct key {
    const ntidx_symbolizer *s;
    uint64_t v;
};

static int method_starts_by(const void *ctx, uint64_t i)
{
    const struct key *k = ctx;
    return k->s->methods[i].start <= k->v;
}

int ntx_symbolizer_lookup_span(const ntidx_symbolizer *s, uint64_t ip, int return_address, uint64_t ts,
                               ntidx_symbol *out, uint64_t *valid_from, uint64_t *valid_to)
{
    *valid_from = 0;
    *valid_to = UINT64_MAX;
    if (!out)
        return 0;
    memset(out, 0, sizeof *out);
    out->frame_id = UNKNOWN_FRAME;
    if (!s)
        return 0;
    if (return_address && ip)
        ip--; /* a call can be a method's last instruction: look one byte before the return address */
    struct key k = {s, ip};
    size_t lo = (size_t)ntx_lower_bound(s->nmethods, method_starts_by, &k); /* first entry with start > ip */
    const method *best = NULL;
    size_t at = 0;
    /* The first resolving event after ts that covers ip, else the first jitted load that does. Entries of one
       range are in that order, and overlaps (code reused) are a few entries back at most. The answer depends
       on ts only through which resolving events covering ip are at or before it: it holds from the last of
       those to the first after it. */
    for (size_t i = lo, n = 0; i > 0 && n < SCAN_BACK; i--, n++) {
        const method *m = &s->methods[i - 1];
        if (ip - m->start >= s->max_size)
            break; /* starts only go down from here: nothing below covers ip */
        if (ip - m->start >= m->size)
            continue;
        int resolves = m->when != WHEN_END;
        if (resolves && m->when <= ts) {
            if (m->when > *valid_from)
                *valid_from = m->when;
            continue;
        }
        if (resolves && m->when < *valid_to)
            *valid_to = m->when;
        if (!best || (resolves && (best->when == WHEN_END || m->when < best->when ||
                                   (m->when == best->when && m->seq < best->seq))) ||
            (!resolves && best->when == WHEN_END && m->seq < best->seq)) {
            best = m;
            at = i - 1;
        }
    }
    if (!best)
        return 0;
    const mfile *f = &s->files[best->file];
    out->method = (const char *)s->names.bytes + best->name;
    out->module = s->modnames[f->name_id];
    out->module_path = f->path;
    out->method_start = best->start;
    out->method_size = best->size;
    out->method_index = at;
    out->frame_id = (uint64_t)best->name << 32 | f->name_id;
    return 1;
}

NTIDX_API int ntidx_symbolizer_lookup_at(const ntidx_symbolizer *s, uint64_t ip, int return_address, uint64_t ts,
                                         ntidx_symbol *out)
{
    uint64_t from, to;
    return ntx_symbolizer_lookup_span(s, ip, return_address, ts, out, &from, &to);
}

NTIDX_API int ntidx_symbolizer_lookup(const ntidx_symbolizer *s, uint64_t ip, int return_address, ntidx_symbol *out)
{
    return ntidx_symbolizer_lookup_at(s, ip, return_address, 0, out);
}

NTIDX_API int ntidx_symbol_frame_name(const ntidx_symbol *sym, char *buf, size_t buflen)
{
    if (!sym || !sym->method)
        return snprintf(buf, buflen, "?!?");
    return snprintf(buf, buflen, "%s!%s", sym->module ? sym->module : "?", sym->method);
}

NTIDX_API uint64_t ntidx_symbolizer_method_count(const ntidx_symbolizer *s) { return s ? s->nmethods : 0; }

NTIDX_API void ntidx_symbolizer_close(ntidx_symbolizer **sp)
{
    if (!sp || !*sp)
        return;
    ntidx_symbolizer *s = *sp;
    if (s->map.base) { /* mapped from the cache: only the arrays of pointers into it are its own */
        free(s->files);
        free(s->modnames);
        ntx_symbol_cache_unmap(s);
        free(s);
        *sp = NULL;
        return;
    }
    free_replay(s);
    ntidx_buf_free(&s->names);
    for (size_t i = 0; i < s->nfiles; i++)
        free(s->files[i].path);
    free(s->files);
    for (size_t i = 0; i < s->nmodnames; i++)
        free(s->modnames[i]);
    free(s->modnames);
    free(s->methods);
    ntidx_values_free(&s->values);
    free(s);
    *sp = NULL;
}
