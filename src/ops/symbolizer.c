/*
 * The symbolizer (include/ntidx/symbols.h): the methods and modules the .NET
 * runtime reported in a trace, and lookups of instruction pointers in them.
 *
 * Methods come from the method-load events and the rundown of the WHOLE
 * trace (the rundown sits at the end, after any window): every event with id
 * 143 or 144 of Microsoft-Windows-DotNETRuntime (Method/LoadVerbose,
 * Method/UnloadVerbose) and Microsoft-Windows-DotNETRuntimeRundown
 * (Method/DCStartVerbose, Method/DCStopVerbose) with MethodStartAddress,
 * MethodSize and MethodName; modules from ids 152-154 of the same providers
 * (the loader's module load, unload and rundown events) with ModuleID and
 * ModuleILPath. With a --full index, one query per such type: its block
 * filters skip the rest. Fields are read as typed values (ntidx_values).
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "error.h"
#include "hash.h"
#include "idmap.h"
#include "search.h"
#include "ntidx/symbols.h"

#define RUNTIME_PROVIDER "Microsoft-Windows-DotNETRuntime"
#define RUNDOWN_PROVIDER "Microsoft-Windows-DotNETRuntimeRundown"

/*
 * 32 bytes a method: a trace can report millions of them (the generated 10 GB
 * trace: 6.2 million method loads), and a batch worker's memory is watched.
 * Names are stored once each (a trace's methods share few distinct names
 * compared with their load events) in `names`.
 */
typedef struct method {
    uint64_t start, size;
    uint64_t module; /* while reading: the ModuleID (0: none); then 1 + the index of its module, or 0 */
    uint32_t name;   /* offset into names: "Namespace.Method(args)" */
    uint32_t seq;    /* the order methods were read in: ties of the sort keep it */
} method;

typedef struct module {
    uint64_t id;
    char *path;
    char *name; /* the path's file name without its extension */
} module;

struct ntidx_symbolizer {
    method *methods;
    size_t nmethods, capmethods;
    module *modules;
    size_t nmodules, capmodules;
    ntidx_values *values;
    ntidx_buf names; /* NUL-terminated names, each once */
    ntx_idmap name_at; /* xxh3 of a name -> its offset + 1 (a collision just stores the name again) */
};

static const uint32_t method_event_ids[] = {143, 144, 152, 153, 154};

static int is_runtime(const char *p) { return !strcmp(p, RUNTIME_PROVIDER) || !strcmp(p, RUNDOWN_PROVIDER); }

/* Is this one of the events note() reads? */
static int is_method_or_module(const ntidx_metadata *m)
{
    for (size_t i = 0; i < sizeof method_event_ids / sizeof method_event_ids[0]; i++)
        if (m->event_id == method_event_ids[i])
            return is_runtime(m->provider);
    return 0;
}

/* A non-negative integer field. */
static int u64_field(const ntidx_values *v, const char *name, uint64_t *out)
{
    const ntidx_value *f = ntidx_values_find(v, name);
    if (f && f->kind == NTIDX_VALUE_UINT) {
        *out = f->u;
        return 1;
    }
    if (f && f->kind == NTIDX_VALUE_INT && f->i >= 0) {
        *out = (uint64_t)f->i;
        return 1;
    }
    return 0;
}

static const char *str_field(const ntidx_values *v, const char *name)
{
    const ntidx_value *f = ntidx_values_find(v, name);
    return f && f->kind == NTIDX_VALUE_STRING ? f->str : NULL;
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    if (d)
        memcpy(d, s, n + 1);
    return d;
}

static int grow(void **p, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 64;
    void *np = realloc(*p, c * elem);
    if (!np)
        return NTIDX_E_NOMEM;
    *p = np;
    *cap = c;
    return 0;
}

/* Record one method or module event. 0, or NTIDX_E_NOMEM. */
static int note(ntidx_symbolizer *s, const ntidx_trace *t, const ntidx_event *e)
{
    if (ntidx_values_decode(s->values, t, e) != NTIDX_OK)
        return 0; /* undecodable: no name from it */
    const ntidx_values *v = s->values;
    if (e->metadata->event_id >= 152) {
        uint64_t id;
        const char *path = str_field(v, "ModuleILPath");
        if (!u64_field(v, "ModuleID", &id) || !path || !path[0])
            return 0;
        if (grow((void **)&s->modules, &s->capmodules, s->nmodules, sizeof *s->modules) < 0)
            return NTIDX_E_NOMEM;
        module md = {id, dup_str(path), NULL};
        if (!md.path)
            return NTIDX_E_NOMEM;
        /* PerfView's module name: the file name without directory or extension. */
        const char *base = md.path;
        for (const char *p = md.path; *p; p++)
            if (*p == '/' || *p == '\\')
                base = p + 1;
        size_t bl = strlen(base);
        const char *dot = strrchr(base, '.');
        if (dot && dot != base)
            bl = (size_t)(dot - base);
        md.name = malloc(bl + 1);
        if (!md.name) {
            free(md.path);
            return NTIDX_E_NOMEM;
        }
        memcpy(md.name, base, bl);
        md.name[bl] = 0;
        s->modules[s->nmodules++] = md;
        return 0;
    }
    uint64_t start, size, module_id = 0;
    if (!u64_field(v, "MethodStartAddress", &start) || !u64_field(v, "MethodSize", &size) || size == 0 ||
        start + size < start)
        return 0;
    u64_field(v, "ModuleID", &module_id);
    const char *ns = str_field(v, "MethodNamespace"), *nm = str_field(v, "MethodName");
    const char *sig = str_field(v, "MethodSignature");
    if (!nm || !nm[0])
        return 0;
    /* Namespace.Name(args): the signature is "ret  (args)"; keep the parenthesised part. */
    const char *args = sig ? strchr(sig, '(') : NULL;
    size_t nsl = ns && ns[0] ? strlen(ns) : 0, nml = strlen(nm), al = args ? strlen(args) : 0;
    size_t n = nsl + (nsl ? 1 : 0) + nml + al;
    if (s->nmethods >= UINT32_MAX || n >= UINT32_MAX)
        return 0; /* more than a method table can number, or a name longer than 4 GB: not named */
    /* The name is built at the end of the pool; if it was there already, the pool is cut back. */
    size_t at = s->names.len;
    char *name = (char *)ntx_buf_append(&s->names, n + 1);
    if (!name)
        return NTIDX_E_NOMEM;
    char *w = name;
    if (nsl) {
        memcpy(w, ns, nsl);
        w += nsl;
        *w++ = '.';
    }
    memcpy(w, nm, nml);
    w += nml;
    if (al)
        memcpy(w, args, al);
    name[n] = 0;
    uint64_t h = ntx_xxh3(name, n);
    void *seen = ntx_idmap_get(&s->name_at, h);
    uint64_t off = at;
    if (seen && !strcmp((const char *)s->names.bytes + ((uintptr_t)seen - 1), name)) {
        off = (uintptr_t)seen - 1;
        s->names.len = at;
    } else if (!seen && ntx_idmap_put(&s->name_at, h, (void *)(uintptr_t)(at + 1)) != 0) {
        return NTIDX_E_NOMEM;
    }
    if (off > UINT32_MAX) {
        s->names.len = at;
        return 0; /* the pool's numbering is full: the method stays unnamed */
    }
    if (grow((void **)&s->methods, &s->capmethods, s->nmethods, sizeof *s->methods) < 0)
        return NTIDX_E_NOMEM;
    s->methods[s->nmethods] = (method){start, size, module_id, (uint32_t)off, (uint32_t)s->nmethods};
    s->nmethods++;
    return 0;
}

/* Methods in order of start, size, then the order they were read in (so any sort gives one order). */
static int method_lt(const method *x, const method *y)
{
    if (x->start != y->start)
        return x->start < y->start;
    if (x->size != y->size)
        return x->size < y->size;
    return x->seq < y->seq;
}

/* Heapsort in place: qsort() would allocate a copy of the whole table (glibc sorts by merging). */
static void sift_down(method *m, size_t i, size_t n)
{
    method x = m[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && method_lt(&m[c], &m[c + 1]))
            c++;
        if (!method_lt(&x, &m[c]))
            break;
        m[i] = m[c];
        i = c;
    }
    m[i] = x;
}

static void sort_methods(method *m, size_t n)
{
    for (size_t i = n / 2; i-- > 0;)
        sift_down(m, i, n);
    for (size_t end = n; end-- > 1;) {
        method t = m[0];
        m[0] = m[end];
        m[end] = t;
        sift_down(m, 0, end);
    }
}

static int cmp_module(const void *a, const void *b)
{
    const module *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

struct key {
    const ntidx_symbolizer *s;
    uint64_t v;
};

static int module_before(const void *ctx, uint64_t i)
{
    const struct key *k = ctx;
    return k->s->modules[i].id < k->v;
}

static int method_starts_by(const void *ctx, uint64_t i)
{
    const struct key *k = ctx;
    return k->s->methods[i].start <= k->v;
}

static const module *find_module(const ntidx_symbolizer *s, uint64_t id)
{
    struct key k = {s, id};
    size_t lo = (size_t)ntx_lower_bound(s->nmodules, module_before, &k);
    return lo < s->nmodules && s->modules[lo].id == id ? &s->modules[lo] : NULL;
}

/* Read the events: one query per event type with a --full index, else one file-order pass. */
static int load(ntidx_symbolizer *s, ntidx_trace *t, const ntidx_index *x)
{
    int rc;
    const ntidx_event *e;
    if (x && ntidx_index_get_info(x)->full) {
        static const char *const providers[] = {RUNTIME_PROVIDER, RUNDOWN_PROVIDER};
        for (size_t p = 0; p < 2; p++) {
            for (size_t i = 0; i < sizeof method_event_ids / sizeof method_event_ids[0]; i++) {
                ntidx_query_options o;
                ntidx_query_options_defaults(&o);
                o.order = NTIDX_ORDER_FILE;
                o.provider = providers[p];
                o.has_event_id = 1;
                o.event_id = method_event_ids[i];
                ntidx_query *q;
                if ((rc = ntidx_query_open(t, x, &o, &q)) < 0)
                    return rc;
                while ((rc = ntidx_query_next(q, &e)) == 1)
                    if ((rc = note(s, t, e)) < 0)
                        break;
                ntidx_query_close(&q);
                if (rc < 0)
                    return rc;
            }
        }
        return 0;
    }
    ntidx_reader *r;
    if ((rc = ntidx_reader_open(t, NULL, &r)) < 0)
        return rc;
    while ((rc = ntidx_reader_next(r, &e)) == 1)
        if (is_method_or_module(e->metadata) && (rc = note(s, t, e)) < 0)
            break;
    ntidx_reader_close(&r);
    return rc;
}

NTIDX_API int ntidx_symbolizer_open(ntidx_trace *t, const ntidx_index *x, ntidx_symbolizer **out)
{
    if (out)
        *out = NULL;
    if (!t || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET,
                         "ntidx_symbolizer_open: NULL argument");
    ntidx_symbolizer *s = calloc(1, sizeof *s);
    if (!s)
        return ntx_failf(NTIDX_E_NOMEM, ntidx_trace_name(t), NTIDX_NO_OFFSET, "out of memory");
    ntx_idmap_init(&s->name_at);
    unsigned long said = ntx_error_count();
    int rc = ntidx_values_new(&s->values);
    if (rc == 0)
        rc = load(s, t, x);
    ntidx_values_free(&s->values);
    if (rc < 0) {
        ntidx_symbolizer_close(&s);
        if (ntx_error_count() == said) /* out of memory here; the reader and queries say their own errors */
            ntx_failf(rc, ntidx_trace_name(t), NTIDX_NO_OFFSET, "out of memory reading methods and modules");
        return rc;
    }
    /* Sorted by start; the same code reported twice (load, then rundown) is kept once (names are stored
       once each: the same name is the same offset). */
    ntx_idmap_free(&s->name_at);
    sort_methods(s->methods, s->nmethods);
    size_t w = 0;
    for (size_t i = 0; i < s->nmethods; i++) {
        if (w && s->methods[w - 1].start == s->methods[i].start && s->methods[w - 1].size == s->methods[i].size &&
            s->methods[w - 1].name == s->methods[i].name)
            continue;
        s->methods[w++] = s->methods[i];
    }
    s->nmethods = w;
    if (s->nmodules > 1)
        qsort(s->modules, s->nmodules, sizeof *s->modules, cmp_module);
    for (size_t i = 0; i < s->nmethods; i++) {
        const module *md = s->methods[i].module ? find_module(s, s->methods[i].module) : NULL;
        s->methods[i].module = md ? (uint64_t)(md - s->modules) + 1 : 0;
    }
    *out = s;
    return NTIDX_OK;
}

NTIDX_API int ntidx_symbolizer_lookup(const ntidx_symbolizer *s, uint64_t ip, int return_address, ntidx_symbol *out)
{
    if (!out)
        return 0;
    memset(out, 0, sizeof *out);
    if (!s)
        return 0;
    if (return_address && ip)
        ip--; /* a call can be a method's last instruction: look one byte before the return address */
    struct key k = {s, ip};
    size_t lo = (size_t)ntx_lower_bound(s->nmethods, method_starts_by, &k); /* first method with start > ip */
    /* Overlaps (code reused after an unload) pick the latest start; a few methods back at most. */
    for (size_t i = lo, k = 0; i > 0 && k < 16; i--, k++) {
        const method *m = &s->methods[i - 1];
        if (ip - m->start < m->size) {
            out->method = (const char *)s->names.bytes + m->name;
            out->method_start = m->start;
            out->method_size = m->size;
            out->method_index = i - 1;
            if (m->module) {
                const module *md = &s->modules[m->module - 1];
                out->module = md->name;
                out->module_path = md->path;
            }
            return 1;
        }
    }
    return 0;
}

NTIDX_API uint64_t ntidx_symbolizer_method_count(const ntidx_symbolizer *s) { return s ? s->nmethods : 0; }

NTIDX_API void ntidx_symbolizer_close(ntidx_symbolizer **sp)
{
    if (!sp || !*sp)
        return;
    ntidx_symbolizer *s = *sp;
    ntidx_buf_free(&s->names);
    ntx_idmap_free(&s->name_at);
    for (size_t i = 0; i < s->nmodules; i++) {
        free(s->modules[i].path);
        free(s->modules[i].name);
    }
    free(s->methods);
    free(s->modules);
    ntidx_values_free(&s->values);
    free(s);
    *sp = NULL;
}
