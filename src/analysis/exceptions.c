/*
 * The exceptions analysis: the runtime's Exception/Start events of a window
 * per type, message and the method that threw them
 * (include/ntidx/analysis.h), as the reference dumper groups the events
 * TraceEvent parses (docs/conformance.md, "TraceEvent's definitions").
 *
 * Units count their exceptions per type, message and stack (the stack's
 * instruction pointers as the key: nothing is named while reading), and the
 * merge adds the counts up (groups.h). Names come last: when the window has
 * exceptions with stacks, finish() opens a symbolizer (include/ntidx/
 * symbols.h: the trace's method and module events), names each distinct
 * stack's thrower once (the lookups on the analysis's threads), and adds the
 * groups up again per type, message and thrower. So the result does not depend on the cut into units, and a
 * window without exceptions reads no method events. A run over the whole
 * trace reads the method and module events along with the exceptions
 * instead (take_symbols(): the driver's one pass, not two), the symbolizer
 * being made of the same events either way.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis_internal.h"
#include "fields.h"
#include "groups.h"
#include "ops_internal.h"
#include "search.h"
#include "threads.h"
#include "ntidx/symbols.h"

#define EV_EXCEPTION_START 80

static const ntx_event_type exception_types[] = {{"Microsoft-Windows-DotNETRuntime", EV_EXCEPTION_START}};

typedef struct exc_state {
    const ntx_an_ctx *ctx;
    ntx_groups g;   /* key: type, message, the stack's IPs (8 bytes each; absent without a stack) */
    uint64_t *ips;  /* a unit's scratch for one stack */
    size_t ips_cap;
    ntx_an_places places;      /* ExceptionType and ExceptionMessage, read in place */
    ntx_an_text type, message; /* theirs, as UTF-8 */
    ntidx_symbolizer *sym; /* merged: the symbolizer read along with the exceptions (take_symbols()), or NULL */
} exc_state;

static int state_new(const ntx_an_ctx *ctx, void **out)
{
    exc_state *s = calloc(1, sizeof *s);
    if (!s)
        return NTIDX_E_NOMEM;
    s->ctx = ctx;
    ntx_groups_init(&s->g);
    *out = s;
    return 0;
}

static void state_free(void *p)
{
    exc_state *s = p;
    ntx_groups_free(&s->g);
    free(s->ips);
    free(s->type.data);
    free(s->message.data);
    ntidx_symbolizer_close(&s->sym);
    free(s);
}

/* One Exception/Start. Version 0 has no fields: its type and message are empty. */
static int unit_event(void *unit, const ntx_an_event *e, ntx_err *err)
{
    exc_state *s = unit;
    const ntidx_analysis_options *o = s->ctx->o;
    if (o->has_thread && e->thread != o->thread)
        return 0;
    static const char *const names[] = {"ExceptionType", "ExceptionMessage"};
    const ntx_field_place *at = ntx_an_places_of(&s->places, s->ctx->t, e->ev->metadata, names, 2);
    size_t tl = 0, ml = 0;
    const char *type = NULL, *msg = NULL;
    int rc;
    if ((rc = ntx_an_field_str(e, &at[0], names[0], &s->type, &type, &tl, err)) < 0 ||
        (rc = ntx_an_field_str(e, &at[1], names[1], &s->message, &msg, &ml, err)) < 0)
        return rc;
    size_t depth = ntidx_event_stack_depth(s->ctx->t, e->ev);
    if (depth > s->ips_cap) {
        uint64_t *n = realloc(s->ips, depth * sizeof *n);
        if (!n)
            return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
        s->ips = n;
        s->ips_cap = depth;
    }
    for (size_t i = 0; i < depth; i++)
        s->ips[i] = ntidx_event_stack_ip(s->ctx->t, e->ev, i);
    ntx_blob key[NTX_GROUP_PARTS] = {{type ? type : "", type ? tl : 0},
                                     {msg ? msg : "", msg ? ml : 0},
                                     {depth ? s->ips : NULL, depth * sizeof *s->ips}};
    rc = ntx_groups_add(&s->g, key, 0, 1, 0, e->ts, e->ts);
    return rc < 0 ? ntx_err_set(err, rc, "out of memory") : 0;
}

/* The whole trace's run read the method and module events with the exceptions: the throwers are named with
   those, and no second pass reads them. */
static int take_symbols(void *merged, ntidx_symbolizer *sym, ntx_err *err)
{
    (void)err;
    exc_state *m = merged;
    ntidx_symbolizer_close(&m->sym);
    m->sym = sym;
    return 0;
}

static int merge_unit(void *merged, void *unit, ntx_err *err)
{
    int rc = ntx_groups_merge(&((exc_state *)merged)->g, &((exc_state *)unit)->g);
    return rc < 0 ? ntx_err_set(err, rc, "out of memory") : 0;
}

/* ---- The thrower ---- */

/* The runtime's managed exception dispatch (System.Private.CoreLib's System.Runtime.EH, .NET 9 and later): the
   innermost frames of every Exception/Start stack, not the thrower. The module is compared without case, and a
   frame whose module the trace does not name is taken as CoreLib's: only the runtime has that namespace. */
static int is_dispatch(const ntidx_symbol *s)
{
    static const char ns[] = "System.Runtime.EH.";
    return !strncmp(s->method, ns, sizeof ns - 1) && (!s->module || !strcasecmp(s->module, "System.Private.CoreLib"));
}

/*
 * What name_work() keeps from group to group on its thread: the groups of
 * one thrower differ by message, so their stacks repeat, and so do the
 * answers. An address's answer is kept by the ops layer's memo (with the
 * times it holds for, as the CPU analysis keeps its frames), and a frame's
 * name by its frame_id, which is equal exactly when the names are: a group
 * costs a few probes and a copy of its thrower's name, not a binary search
 * per frame and a snprintf().
 */
#define NAME_SLOTS 1024
typedef struct thrower_memo {
    ntx_symbol_memo *at;
    struct {
        uint64_t frame_id;
        char *name; /* NULL: an empty slot */
        size_t len;
    } names[NAME_SLOTS];
} thrower_memo;

static size_t name_slot(uint64_t key) { return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 54); }

static thrower_memo *memo_new(void)
{
    thrower_memo *m = calloc(1, sizeof *m);
    if (m && !(m->at = ntx_symbol_memo_new())) {
        free(m);
        m = NULL;
    }
    return m;
}

static void memo_free(thrower_memo *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < NAME_SLOTS; i++)
        free(m->names[i].name);
    ntx_symbol_memo_free(m->at);
    free(m);
}

/* The frame name of s (ntidx_symbol_frame_name()), malloc'ed in *out, through the memo. 0 or NTIDX_E_NOMEM. */
static int frame_name(thrower_memo *m, const ntidx_symbol *s, char **out)
{
    size_t k = name_slot(s->frame_id);
    if (!m->names[k].name || m->names[k].frame_id != s->frame_id) {
        int len = ntidx_symbol_frame_name(s, NULL, 0);
        char *name = len >= 0 ? malloc((size_t)len + 1) : NULL;
        if (!name)
            return NTIDX_E_NOMEM;
        ntidx_symbol_frame_name(s, name, (size_t)len + 1);
        free(m->names[k].name);
        m->names[k].frame_id = s->frame_id;
        m->names[k].name = name;
        m->names[k].len = (size_t)len;
    }
    if (!(*out = malloc(m->names[k].len + 1)))
        return NTIDX_E_NOMEM;
    memcpy(*out, m->names[k].name, m->names[k].len + 1);
    return 0;
}

/*
 * The name of the innermost frame of `ips` (leaf first) that lies in a known
 * method, past the dispatch, as TraceEvent's stack source names a frame
 * (ntidx_symbol_frame_name(): "module!method", "ManagedModule!method" for a
 * module the trace does not name), malloc'ed in *out; *out NULL when no frame
 * is in a known method. The addresses are looked up as they are, at `ts`, the
 * time of the throw: TraceLog names an address by the method events after the
 * time it was seen (ntidx_symbolizer_lookup_at()). 0 or NTIDX_E_NOMEM.
 */
static int thrower(const ntidx_symbolizer *sym, const uint64_t *ips, size_t n, uint64_t ts, thrower_memo *memo,
                   char **out)
{
    *out = NULL;
    for (size_t i = 0; i < n; i++) {
        ntidx_symbol scratch;
        uint64_t from, to;
        const ntidx_symbol *s = ntx_symbol_memo_lookup(memo->at, sym, ips[i], ts, &scratch, &from, &to);
        if (s->method && !is_dispatch(s))
            return frame_name(memo, s, out);
    }
    return 0;
}

/* ---- The result ---- */

typedef struct exc_result {
    ntx_groups *parts; /* the groups by type, message and thrower, cut by their hash (name_throwers()); they own
                          the strings (the first also the merge's types and messages) */
    size_t nparts;
    ntidx_exception_group *rows;
    size_t n;
} exc_result;

static void free_result(void *p)
{
    exc_result *r = p;
    if (!r)
        return;
    for (size_t i = 0; i < r->nparts; i++)
        ntx_groups_free(&r->parts[i]);
    free(r->parts);
    free(r->rows);
    free(r);
}

/* In the order of their first throw; then by type, message and thrower, so that the order is one. */
static int by_first(const void *a, const void *b)
{
    const ntidx_exception_group *x = a, *y = b;
    if (x->first_ts != y->first_ts)
        return x->first_ts < y->first_ts ? -1 : 1;
    int c = strcmp(x->type, y->type);
    if (!c)
        c = strcmp(x->message, y->message);
    if (!c && (!x->thrown_by || !y->thrown_by))
        c = (x->thrown_by != NULL) - (y->thrown_by != NULL);
    if (!c && x->thrown_by)
        c = strcmp(x->thrown_by, y->thrown_by);
    return c;
}

enum { C_TYPE, C_MESSAGE, C_COUNT, C_FIRST_MS, C_LAST_MS, C_THROWN_BY, C_FIRST_TS, C_LAST_TS, C_COLUMNS };

static const ntidx_column exc_columns[C_COLUMNS] = {
    {"type", NTIDX_COLUMN_STRING, "the exception's type (Exception/Start's ExceptionType)"},
    {"message", NTIDX_COLUMN_STRING, "its message (ExceptionMessage)"},
    {"count", NTIDX_COLUMN_UINT, "throws (a rethrow counts again)"},
    {"first_relative_ms", NTIDX_COLUMN_DOUBLE, "the first throw, ms since the trace's sync time"},
    {"last_relative_ms", NTIDX_COLUMN_DOUBLE, "the last throw, ms since the trace's sync time"},
    {"thrown_by", NTIDX_COLUMN_STRING, "the method that threw: module!method (null: no known method on its stack)"},
    {"first_ts", NTIDX_COLUMN_UINT, "the first throw's timestamp, raw ticks"},
    {"last_ts", NTIDX_COLUMN_UINT, "the last throw's timestamp, raw ticks"},
};

static int exc_cell(const void *data, uint64_t row, size_t col, ntidx_table_cell *out)
{
    const ntidx_exception_group *x = &((const exc_result *)data)->rows[row];
    switch (col) {
    case C_TYPE: out->s = x->type; break;
    case C_MESSAGE: out->s = x->message; break;
    case C_COUNT: out->u = x->count; break;
    case C_FIRST_MS: out->f = x->first_relative_ms; break;
    case C_LAST_MS: out->f = x->last_relative_ms; break;
    case C_THROWN_BY:
        out->s = x->thrown_by;
        out->is_null = x->thrown_by == NULL;
        break;
    case C_FIRST_TS: out->u = x->first_ts; break;
    default: out->u = x->last_ts; break;
    }
    return NTIDX_OK;
}

/*
 * The throwers of the merged groups, named on threads (a window can have
 * hundreds of thousands of distinct stacks, and each lookup is independent),
 * then the groups added up per type, message and thrower, on threads too:
 * cut by their key's hash into parts that share no key, each part's table
 * made by one thread. A table of a few hundred thousand keys made by one
 * thread was most of the serial part of the analysis.
 */
typedef struct namer {
    const ntidx_symbolizer *sym;
    const ntx_groups *g;
    char **by;          /* group i's thrower (NULL: none) */
    uint64_t *hash;     /* group i's key (type, message, thrower) hashed */
    size_t *order;      /* the groups by part, in their order within each (part_at[p] .. part_at[p + 1]) */
    size_t *part_at;
    ntx_groups *parts;
    size_t nparts;
    atomic_size_t next; /* the next chunk of groups, then the next part */
    atomic_int failed;
} namer;

#define NAME_CHUNK 512

static size_t part_of(uint64_t hash, size_t nparts) { return (size_t)((hash >> 40) % nparts); }

static void *name_work(void *arg)
{
    namer *nm = arg;
    const ntx_groups *g = nm->g;
    thrower_memo *memo = nm->sym ? memo_new() : NULL;
    if (nm->sym && !memo) {
        atomic_store(&nm->failed, 1);
        return NULL;
    }
    for (;;) {
        size_t i0 = atomic_fetch_add(&nm->next, 1) * NAME_CHUNK;
        if (i0 >= g->n || atomic_load(&nm->failed))
            break;
        for (size_t i = i0; i < g->n && i < i0 + NAME_CHUNK; i++) {
            const ntx_group *x = &g->v[i];
            if (nm->sym && x->key[2].p &&
                thrower(nm->sym, x->key[2].p, x->key[2].n / sizeof(uint64_t), x->first_ts, memo, &nm->by[i]) < 0) {
                atomic_store(&nm->failed, 1);
                memo_free(memo);
                return NULL;
            }
            const char *by = nm->by[i];
            ntx_blob key[NTX_GROUP_PARTS] = {x->key[0], x->key[1], {by, by ? strlen(by) : 0}};
            nm->hash[i] = ntx_groups_hash(key, 0);
        }
    }
    memo_free(memo);
    return NULL;
}

/* The parts' tables, a part per turn. The types and messages stay where the merge keeps them (the first part
   adopted their bytes); the throwers are copied. */
static void *group_work(void *arg)
{
    namer *nm = arg;
    const ntx_groups *g = nm->g;
    for (size_t p; (p = atomic_fetch_add(&nm->next, 1)) < nm->nparts && !atomic_load(&nm->failed);) {
        ntx_groups *t = &nm->parts[p];
        for (size_t j = nm->part_at[p]; j < nm->part_at[p + 1]; j++) {
            if (j + NTX_GROUPS_AHEAD < nm->part_at[p + 1])
                ntx_groups_prefetch(t, nm->hash[nm->order[j + NTX_GROUPS_AHEAD]]);
            size_t i = nm->order[j];
            const ntx_group *x = &g->v[i];
            const char *by = nm->by[i];
            ntx_blob key[NTX_GROUP_PARTS] = {x->key[0], x->key[1], {by, by ? strlen(by) : 0}};
            if (ntx_groups_add_owned(t, key, 1u << 0 | 1u << 1, 0, nm->hash[i], x->count, 0, x->first_ts,
                                     x->last_ts) < 0) {
                atomic_store(&nm->failed, 1);
                return NULL;
            }
        }
    }
    return NULL;
}

/* The merged groups (type, message, stack) added up per type, message and thrower into r's parts, which take
   the bytes of m's keys (m is freed after, its groups not read again). */
static int name_throwers(exc_state *m, exc_result *r, ntx_err *err)
{
    ntx_groups *g = &m->g;
    /* the one read along (take_symbols()), else one opened here when a stack needs it */
    ntidx_symbolizer *sym = m->sym;
    m->sym = NULL;
    int rc = 0;
    for (size_t i = 0; i < g->n && !sym; i++)
        if (g->v[i].key[2].p) {
            if ((rc = ntx_symbolizer_open_threads(m->ctx->t, m->ctx->x, m->ctx->o->threads, &sym)) < 0)
                return ntx_err_from_last(err, rc);
        }
    unsigned nthreads = ntx_thread_count(m->ctx->o->threads);
    /* parts enough for the threads to finish together, and none below a few thousand groups */
    size_t nparts = g->n / 4096 + 1;
    if (nparts > 4 * (size_t)nthreads)
        nparts = 4 * (size_t)nthreads;
    size_t n1 = g->n ? g->n : 1;
    namer nm = {.sym = sym, .g = g, .by = calloc(n1, sizeof *nm.by), .hash = malloc(n1 * sizeof *nm.hash),
                .order = malloc(n1 * sizeof *nm.order), .part_at = calloc(nparts + 1, sizeof *nm.part_at),
                .parts = calloc(nparts, sizeof *nm.parts), .nparts = nparts};
    if (!nm.by || !nm.hash || !nm.order || !nm.part_at || !nm.parts) {
        free(nm.by);
        free(nm.hash);
        free(nm.order);
        free(nm.part_at);
        free(nm.parts);
        ntidx_symbolizer_close(&sym);
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    }
    for (size_t p = 0; p < nparts; p++)
        ntx_groups_init(&nm.parts[p]);
    atomic_init(&nm.next, 0);
    atomic_init(&nm.failed, 0);
    size_t chunks = (g->n + NAME_CHUNK - 1) / NAME_CHUNK;
    ntx_run_threads(nthreads < chunks ? nthreads : chunks ? (unsigned)chunks : 1, name_work, &nm);
    if (!atomic_load(&nm.failed)) {
        /* each group's place among its part's, in the order of the merge's groups (a counting sort) */
        for (size_t i = 0; i < g->n; i++)
            nm.part_at[part_of(nm.hash[i], nparts) + 1]++;
        for (size_t p = 0; p < nparts; p++)
            nm.part_at[p + 1] += nm.part_at[p];
        size_t *fill = malloc(nparts * sizeof *fill);
        if (fill) {
            memcpy(fill, nm.part_at, nparts * sizeof *fill);
            for (size_t i = 0; i < g->n; i++)
                nm.order[fill[part_of(nm.hash[i], nparts)]++] = i;
            free(fill);
            atomic_store(&nm.next, 0);
            ntx_run_threads(nthreads < nparts ? nthreads : (unsigned)nparts, group_work, &nm);
        } else {
            atomic_store(&nm.failed, 1);
        }
    }
    if (atomic_load(&nm.failed))
        rc = NTIDX_E_NOMEM;
    ntx_groups_adopt(&nm.parts[0], g); /* even after a failure: groups added before it point into it */
    r->parts = nm.parts;
    r->nparts = nparts;
    for (size_t i = 0; i < g->n; i++)
        free(nm.by[i]);
    free(nm.by);
    free(nm.hash);
    free(nm.order);
    free(nm.part_at);
    ntidx_symbolizer_close(&sym);
    return rc < 0 ? ntx_err_set(err, rc, "out of memory") : 0;
}

/*
 * The rows in the order of their first throw, made and sorted on threads (a
 * sort of hundreds of thousands of rows on one thread was most of what was
 * left of the analysis's serial part): a sample sort. The groups' first
 * throws, sampled, give bounds that cut the times into buckets; each part's
 * groups are counted per bucket, every (bucket, part) given its place among
 * the rows, each part's rows written there, and each bucket sorted. Rows of
 * one first throw share a bucket, so the buckets in order, each sorted, are
 * the rows in by_first() order.
 */
typedef struct sorter {
    const ntx_an_ctx *ctx;
    exc_result *r;
    uint64_t *bounds;  /* bucket b: the groups with bounds[b - 1] < first_ts <= bounds[b] (the last: past them) */
    size_t nbounds, nbuckets;
    size_t *at;        /* part p's rows of bucket b: counted at [p * nbuckets + b], then where the next one goes */
    size_t *bucket_at; /* nbuckets + 1: where each bucket's rows start */
    atomic_size_t next;
} sorter;

typedef struct bound_of {
    const uint64_t *bounds;
    uint64_t ts;
} bound_of;

static int bound_before(const void *ctx, uint64_t i)
{
    const bound_of *b = ctx;
    return b->bounds[i] < b->ts;
}

static size_t bucket_of(const sorter *s, uint64_t ts)
{
    bound_of b = {s->bounds, ts};
    return (size_t)ntx_lower_bound(s->nbounds, bound_before, &b);
}

static void *count_work(void *arg)
{
    sorter *s = arg;
    for (size_t p; (p = atomic_fetch_add(&s->next, 1)) < s->r->nparts;) {
        const ntx_groups *g = &s->r->parts[p];
        for (size_t i = 0; i < g->n; i++)
            s->at[p * s->nbuckets + bucket_of(s, g->v[i].first_ts)]++;
    }
    return NULL;
}

static void *write_work(void *arg)
{
    sorter *s = arg;
    for (size_t p; (p = atomic_fetch_add(&s->next, 1)) < s->r->nparts;) {
        const ntx_groups *g = &s->r->parts[p];
        for (size_t i = 0; i < g->n; i++) {
            const ntx_group *x = &g->v[i];
            s->r->rows[s->at[p * s->nbuckets + bucket_of(s, x->first_ts)]++] = (ntidx_exception_group){
                .type = x->key[0].p, .message = x->key[1].p, .thrown_by = x->key[2].p, .count = x->count,
                .first_ts = x->first_ts, .last_ts = x->last_ts, .first_relative_ms = ntx_an_ms(s->ctx, x->first_ts),
                .last_relative_ms = ntx_an_ms(s->ctx, x->last_ts)};
        }
    }
    return NULL;
}

static void *sort_work(void *arg)
{
    sorter *s = arg;
    for (size_t b; (b = atomic_fetch_add(&s->next, 1)) < s->nbuckets;) {
        size_t n = s->bucket_at[b + 1] - s->bucket_at[b];
        if (n > 1)
            qsort(s->r->rows + s->bucket_at[b], n, sizeof *s->r->rows, by_first);
    }
    return NULL;
}

/* r->rows made from r's parts, in by_first() order. 0 or NTIDX_E_NOMEM. */
static int order_rows(const ntx_an_ctx *ctx, exc_result *r)
{
    unsigned nthreads = ntx_thread_count(ctx->o->threads);
    sorter s = {.ctx = ctx, .r = r, .nbuckets = r->n < 8192 ? 1 : 4 * (size_t)nthreads};
    /* the bounds: quantiles of a sample of 64 first throws a bucket, each bound once */
    size_t nsample = s.nbuckets > 1 ? 64 * s.nbuckets : 0, k = 0;
    uint64_t *sample = malloc((nsample ? nsample : 1) * sizeof *sample);
    s.bounds = malloc(s.nbuckets * sizeof *s.bounds);
    s.at = calloc(r->nparts * s.nbuckets, sizeof *s.at);
    s.bucket_at = calloc(s.nbuckets + 1, sizeof *s.bucket_at);
    int rc = sample && s.bounds && s.at && s.bucket_at ? 0 : NTIDX_E_NOMEM;
    for (size_t p = 0; rc == 0 && p < r->nparts && nsample; p++)
        for (size_t i = 0; i < r->parts[p].n; i += r->n / nsample + 1)
            if (k < nsample)
                sample[k++] = r->parts[p].v[i].first_ts;
    if (rc == 0 && k) {
        s.nbounds = ntx_sample_bounds(sample, k, s.nbuckets, s.bounds);
        s.nbuckets = s.nbounds + 1;
    }
    free(sample);
    unsigned tp = nthreads < r->nparts ? nthreads : (unsigned)(r->nparts ? r->nparts : 1);
    if (rc == 0) {
        atomic_init(&s.next, 0);
        ntx_run_threads(tp, count_work, &s);
        /* every (bucket, part) its place: the buckets in order, the parts in order within each */
        size_t pos = 0;
        for (size_t b = 0; b < s.nbuckets; b++) {
            s.bucket_at[b] = pos;
            for (size_t p = 0; p < r->nparts; p++) {
                size_t c = s.at[p * s.nbuckets + b];
                s.at[p * s.nbuckets + b] = pos;
                pos += c;
            }
        }
        s.bucket_at[s.nbuckets] = pos;
        atomic_store(&s.next, 0);
        ntx_run_threads(tp, write_work, &s);
        atomic_store(&s.next, 0);
        ntx_run_threads(nthreads < s.nbuckets ? nthreads : (unsigned)s.nbuckets, sort_work, &s);
    }
    free(s.bounds);
    free(s.at);
    free(s.bucket_at);
    return rc;
}

static int finish(void *merged, ntidx_analysis **out, ntx_an_counts *counts, ntx_err *err)
{
    (void)counts; /* nothing pairs */
    exc_state *m = merged;
    exc_result *r = calloc(1, sizeof *r);
    if (!r)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    int rc = name_throwers(m, r, err);
    if (rc < 0) {
        free_result(r);
        return rc;
    }
    for (size_t p = 0; p < r->nparts; p++)
        r->n += r->parts[p].n;
    r->rows = malloc((r->n ? r->n : 1) * sizeof *r->rows);
    if (!r->rows) {
        free_result(r);
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    }
    if (order_rows(m->ctx, r) < 0) {
        free_result(r);
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    }
    rc = ntx_analysis_new("exceptions", NTX_ANALYSIS_EXCEPTIONS, r, free_result, out);
    if (rc < 0) {
        free_result(r);
        return ntx_err_set(err, rc, "out of memory");
    }
    if (ntx_analysis_add_table(*out, "exceptions", exc_columns, C_COLUMNS, r->n, exc_cell, r) < 0) {
        ntidx_analysis_free(out);
        return ntx_err_set(err, NTIDX_E_INVALID_ARG, "too many tables");
    }
    return 0;
}

static const ntx_analysis_def exceptions_def = {
    .name = "exceptions",
    .types = exception_types,
    .ntypes = sizeof exception_types / sizeof exception_types[0],
    .lazy_payload = 1,
    .order_free = 1, /* counts, first and last throws per group */
    .unit_new = state_new,
    .unit_event = unit_event,
    .unit_free = state_free,
    .merge_new = state_new,
    .merge_unit = merge_unit,
    .finish = finish,
    .merge_free = state_free,
    .take_symbols = take_symbols,
};

NTIDX_API int ntidx_exceptions_analyze(ntidx_trace *t, const ntidx_index *x, const ntidx_analysis_options *o,
                                       ntidx_analysis **out)
{
    return ntx_analysis_run(&exceptions_def, t, x, o, out);
}

static const ntidx_table exceptions_tables[] = {{"exceptions", C_COLUMNS, exc_columns, 0}};

const ntidx_analysis_info ntx_exceptions_info = {
    .name = "exceptions",
    .summary = "the exceptions of a window per type, message and the method that threw them",
    .analyze = ntidx_exceptions_analyze,
    .table_count = sizeof exceptions_tables / sizeof exceptions_tables[0],
    .tables = exceptions_tables,
};

NTIDX_API size_t ntidx_exceptions_count(const ntidx_analysis *a)
{
    const exc_result *r = ntx_analysis_data(a, NTX_ANALYSIS_EXCEPTIONS);
    return r ? r->n : 0;
}

NTIDX_API const ntidx_exception_group *ntidx_exceptions_at(const ntidx_analysis *a, size_t i)
{
    const exc_result *r = ntx_analysis_data(a, NTX_ANALYSIS_EXCEPTIONS);
    return r && i < r->n ? &r->rows[i] : NULL;
}
