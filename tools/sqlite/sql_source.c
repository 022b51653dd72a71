/*
 * The traces the tables read, cached per connection: a trace is mapped and
 * its index opened (built, rebuilt or extended by ntidx_index_open()) once,
 * and opened again only when its file changed (a trace still being written
 * grows: its index is then extended). A remote trace (a URL) is kept for the
 * connection's life: its source pinned the object's version (ETag and size)
 * when it was opened and reads nothing of another (a change is the error
 * "the trace changed while it was read"), and what it fetched stays in its
 * cache for the next statement. An I/O error drops the connection's remote
 * traces: the next statement opens them again, a changed object as its new
 * version. What the companion tables need from
 * the whole trace (statistics, the types' field layouts, the stacks, the
 * symbolizer) is computed the first time a table asks for it.
 */
#include "sql_internal.h"

#include <ntidx/source.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

char *nsql_library_error(nsql_conn *c)
{
    const char *msg = ntidx_last_error();
    if (c->hooks.input_error)
        c->hooks.input_error(c->hooks.ctx, msg);
    return sqlite3_mprintf("%s", msg);
}

int nsql_vtab_error(sqlite3_vtab *vt, char *msg)
{
    sqlite3_free(vt->zErrMsg);
    vt->zErrMsg = msg;
    return msg ? SQLITE_ERROR : SQLITE_NOMEM;
}

int nsql_library_code(int ntidx_code)
{
    switch (ntidx_code) {
    case NTIDX_E_IO: case NTIDX_E_SHRUNK: return SQLITE_IOERR;
    case NTIDX_E_NOMEM: return SQLITE_NOMEM;
    default: return SQLITE_ERROR;
    }
}

static void uncache(nsql_conn *c, nsql_source *s);

int nsql_library_fail(sqlite3_vtab *vt, nsql_conn *c)
{
    int code = nsql_library_code(ntidx_last_error_info()->code);
    if (ntidx_last_error_info()->code == NTIDX_E_IO) /* a remote trace that failed is opened again next time */
        for (nsql_source *s = c->sources, *next; s; s = next) {
            next = s->next;
            if (s->remote)
                uncache(c, s); /* (cursors still reading it keep their reference) */
        }
    int rc = nsql_vtab_error(vt, nsql_library_error(c));
    return rc == SQLITE_ERROR ? code : rc;
}

void nsql_result_text(sqlite3_context *ctx, const char *s)
{
    if (s)
        sqlite3_result_text(ctx, s, -1, SQLITE_TRANSIENT);
    else
        sqlite3_result_null(ctx);
}

const char *nsql_named_arg(const char *a, const char *name)
{
    size_t n = strlen(name);
    while (*a == ' ' || *a == '\t' || *a == '\n')
        a++;
    if (sqlite3_strnicmp(a, name, (int)n))
        return NULL;
    a += n;
    while (*a == ' ' || *a == '\t')
        a++;
    return *a == '=' ? a + 1 : NULL;
}

const char *nsql_index_arg(const char *a) { return nsql_named_arg(a, "index"); }

char *nsql_dequote(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\n')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n'))
        n--;
    char q = n >= 2 ? s[0] : 0, close = q == '[' ? ']' : q;
    if ((q != '\'' && q != '"' && q != '[' && q != '`') || s[n - 1] != close)
        return sqlite3_mprintf("%.*s", (int)n, s);
    char *out = sqlite3_malloc64(n);
    if (!out)
        return NULL;
    size_t k = 0;
    for (size_t i = 1; i + 1 < n; i++) {
        out[k++] = s[i];
        if (s[i] == close && q != '[' && i + 2 < n && s[i + 1] == close)
            i++; /* a doubled quote is one */
    }
    out[k] = 0;
    return out;
}

/* ------------------------------------------------------------------ */
/* The cache                                                           */
/* ------------------------------------------------------------------ */

static void source_free(nsql_source *s)
{
    if (s->type_fields && s->stats)
        for (size_t i = 0; i < s->stats->type_count; i++)
            sqlite3_free(s->type_fields[i]);
    sqlite3_free(s->type_fields);
    sqlite3_free(s->threads);
    ntidx_thread_list_free(&s->thread_defs);
    sqlite3_free(s->stacks);
    sqlite3_free(s->stacks_by_id);
    nsql_analysis_cache_free(s);
    ntidx_symbolizer_close(&s->symbols);
    ntidx_stats_free(&s->stats);
    ntidx_index_close(&s->index);
    ntidx_index_close(&s->replaced);
    ntidx_trace_close(&s->trace);
    sqlite3_free(s->path);
    sqlite3_free(s->index_path);
    sqlite3_free(s);
}

void nsql_source_put(nsql_source *s)
{
    if (s && --s->refs == 0)
        source_free(s);
}

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
           a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
           a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

static int same_name(const char *a, const char *b) { return (!a && !b) || (a && b && !strcmp(a, b)); }

static void uncache(nsql_conn *c, nsql_source *s)
{
    for (nsql_source **p = &c->sources; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            s->cached = 0;
            nsql_source_put(s); /* the cache's reference */
            return;
        }
}

/* The index keeps its options for later recoveries: the callbacks' context is the source, which outlives it. */
static void on_notice(void *ctx, int action, const char *why)
{
    nsql_source *s = ctx;
    if (s->conn->hooks.notice)
        s->conn->hooks.notice(s->conn->hooks.ctx, s->path, action, why);
}

static int on_index_progress(void *ctx, uint64_t done, uint64_t total)
{
    nsql_source *s = ctx;
    const ntidx_sqlite_hooks *h = &s->conn->hooks;
    return h->progress ? h->progress(h->ctx, "ntidx: indexing", done, total) : 0;
}

static void progress_end(nsql_conn *c)
{
    if (c->hooks.progress_end)
        c->hooks.progress_end(c->hooks.ctx);
}

int nsql_source_get(nsql_conn *c, const char *path, const char *index_path, nsql_source **out, char **err)
{
    *out = NULL;
    struct stat st;
    int remote = ntidx_is_url(path), have_stat = !remote && stat(path, &st) == 0;
    for (nsql_source *s = c->sources; s; s = s->next) {
        if (strcmp(s->path, path) || !same_name(s->index_path, index_path))
            continue;
        if (remote || (have_stat && same_file(&s->st, &st))) {
            s->refs++;
            *out = s;
            return SQLITE_OK;
        }
        uncache(c, s); /* changed: open it again (cursors still reading the old one keep it) */
        break;
    }
    nsql_source *s = sqlite3_malloc64(sizeof *s);
    if (!s)
        return SQLITE_NOMEM;
    memset(s, 0, sizeof *s);
    s->refs = 1;
    s->path = sqlite3_mprintf("%s", path);
    s->index_path = index_path ? sqlite3_mprintf("%s", index_path) : NULL;
    if (!s->path || (index_path && !s->index_path)) {
        source_free(s);
        return SQLITE_NOMEM;
    }
    /* the library says what is wrong with a missing or bad file, with its name and the offset */
    if (ntidx_trace_open(path, &s->trace) < 0) {
        *err = nsql_library_error(c);
        source_free(s);
        return SQLITE_ERROR;
    }
    s->conn = c;
    s->remote = remote;
    if (have_stat)
        s->st = st; /* as before the open: a change since opens it again next time */
    ntidx_index_options o;
    ntidx_index_options_defaults(&o);
    o.verify = c->hooks.verify;
    o.notice = on_notice;
    o.notice_ctx = s;
    o.progress = on_index_progress;
    o.progress_ctx = s;
    int rc = ntidx_index_open(s->trace, s->index_path, &o, &s->index, NULL);
    progress_end(c);
    if (rc < 0) {
        *err = nsql_library_error(c);
        source_free(s);
        return SQLITE_ERROR;
    }
    if (c->hooks.opened)
        c->hooks.opened(c->hooks.ctx, s->path, s->trace, s->index);
    s->cached = 1;
    s->refs++; /* the cache's */
    s->next = c->sources;
    c->sources = s;
    *out = s;
    return SQLITE_OK;
}

int nsql_source_recover(nsql_source *s, const ntidx_index *used, int rc)
{
    if (rc != NTIDX_E_INDEX_CORRUPT)
        return 0;
    if (used != s->index)
        return s->index != NULL; /* another cursor rebuilt it meanwhile */
    if (s->replaced)
        return 0; /* the rebuilt index failed too */
    ntidx_index *nx = NULL;
    rc = ntidx_index_recover(s->trace, s->index, NULL, &nx); /* the options it was opened with: its hooks */
    progress_end(s->conn);
    if (rc < 0)
        return 0;
    s->replaced = s->index;
    s->index = nx;
    return 1;
}

void nsql_conn_free(void *conn)
{
    nsql_conn *c = conn;
    while (c->sources)
        uncache(c, c->sources);
    sqlite3_free(c->last_warning);
    sqlite3_free(c->last_damaged);
    sqlite3_free(c->last_analysis_stats);
    sqlite3_free(c);
}

/* ------------------------------------------------------------------ */
/* What the companion tables compute once                              */
/* ------------------------------------------------------------------ */

int nsql_source_stats(nsql_conn *c, nsql_source *s, char **err)
{
    if (s->stats)
        return SQLITE_OK;
    ntidx_stats_options o;
    ntidx_stats_options_defaults(&o);
    o.threads = c->hooks.threads;
    const ntidx_index *used = s->index;
    int rc = ntidx_stats_indexed(s->trace, used, &o, &s->stats);
    if (nsql_source_recover(s, used, rc))
        rc = ntidx_stats_indexed(s->trace, s->index, &o, &s->stats);
    if (rc < 0) {
        *err = nsql_library_error(c);
        return SQLITE_ERROR;
    }
    return SQLITE_OK;
}

static int cmp_thread(const void *a, const void *b)
{
    const nsql_thread *x = a, *y = b;
    return x->thread < y->thread ? -1 : x->thread > y->thread;
}

int nsql_source_threads(nsql_conn *c, nsql_source *s, char **err)
{
    if (s->threads || (s->stats && !s->stats->thread_count && !s->stats->dropped_count))
        return SQLITE_OK;
    int rc = nsql_source_stats(c, s, err);
    if (rc != SQLITE_OK)
        return rc;
    const ntidx_stats *st = s->stats;
    size_t cap = st->thread_count + st->dropped_count, n = 0;
    nsql_thread *v = sqlite3_malloc64((cap ? cap : 1) * sizeof *v);
    if (!v)
        return SQLITE_NOMEM;
    for (size_t i = 0; i < st->thread_count; i++)
        v[n++] = (nsql_thread){st->threads[i].thread, st->threads[i].count, 0, NULL, -1};
    qsort(v, n, sizeof *v, cmp_thread); /* sorted already; a binary search below relies on it */
    size_t with_events = n;
    for (size_t i = 0; i < st->dropped_count; i++) {
        nsql_thread key = {st->dropped[i].capture_thread_id, 0, 0, NULL, -1};
        nsql_thread *f = bsearch(&key, v, with_events, sizeof *v, cmp_thread);
        if (f)
            f->dropped += st->dropped[i].dropped;
        else
            v[n++] = (nsql_thread){key.thread, 0, st->dropped[i].dropped, NULL, -1}; /* lost all it had */
    }
    qsort(v, n, sizeof *v, cmp_thread);
    /* names and process ids where the trace defines its threads (V6 thread blocks), by the id the statistics
       give a thread (its OS id where the trace gives one, else its index); a later definition wins */
    ntidx_thread_list *defs = NULL;
    if (ntidx_index_threads(s->trace, s->index, &defs) < 0) {
        sqlite3_free(v);
        *err = nsql_library_error(c);
        return SQLITE_ERROR;
    }
    for (size_t i = 0; i < ntidx_thread_list_count(defs); i++) {
        const ntidx_thread *d = ntidx_thread_list_at(defs, i);
        nsql_thread key = {d->has_os_thread_id ? d->os_thread_id : d->index, 0, 0, NULL, -1};
        nsql_thread *f = bsearch(&key, v, n, sizeof *v, cmp_thread);
        if (!f)
            continue; /* a thread without events in the statistics */
        if (d->name && d->name[0])
            f->name = d->name;
        if (d->has_os_process_id && d->os_process_id <= INT64_MAX)
            f->pid = (int64_t)d->os_process_id;
    }
    s->thread_defs = defs;
    s->threads = v;
    s->thread_count = n;
    return SQLITE_OK;
}

/* ---- field layouts as JSON ---- */

static const char *type_name(uint8_t code)
{
    switch (code) {
    case NTIDX_TYPE_EMPTY: return "Empty";
    case NTIDX_TYPE_OBJECT: return "Object";
    case NTIDX_TYPE_BOOLEAN32: return "Boolean32";
    case NTIDX_TYPE_UTF16_CODE_UNIT: return "UTF16CodeUnit";
    case NTIDX_TYPE_SBYTE: return "SByte";
    case NTIDX_TYPE_BYTE: return "Byte";
    case NTIDX_TYPE_INT16: return "Int16";
    case NTIDX_TYPE_UINT16: return "UInt16";
    case NTIDX_TYPE_INT32: return "Int32";
    case NTIDX_TYPE_UINT32: return "UInt32";
    case NTIDX_TYPE_INT64: return "Int64";
    case NTIDX_TYPE_UINT64: return "UInt64";
    case NTIDX_TYPE_SINGLE: return "Single";
    case NTIDX_TYPE_DOUBLE: return "Double";
    case NTIDX_TYPE_DECIMAL: return "Decimal";
    case NTIDX_TYPE_DATETIME: return "DateTime";
    case NTIDX_TYPE_GUID: return "Guid";
    case NTIDX_TYPE_UTF16_STRING: return "String";
    case NTIDX_TYPE_ARRAY: return "Array";
    case NTIDX_TYPE_VARINT: return "VarInt";
    case NTIDX_TYPE_VARUINT: return "VarUInt";
    case NTIDX_TYPE_FIXED_ARRAY: return "FixedArray";
    case NTIDX_TYPE_UTF8_CODE_UNIT: return "UTF8CodeUnit";
    case NTIDX_TYPE_RELLOC: return "RelLoc";
    case NTIDX_TYPE_DATALOC: return "DataLoc";
    case NTIDX_TYPE_BOOLEAN8: return "Boolean8";
    case NTIDX_TYPE_POINTER: return "Pointer";
    case NTIDX_TYPE_COUNTED_ARRAY: return "CountedArray";
    case NTIDX_TYPE_ANSI_STRING: return "AnsiString";
    default: return "Unknown";
    }
}

static void field_json(ntidx_buf *b, const ntidx_field *f, int depth);

static void fields_json(ntidx_buf *b, const ntidx_field *fields, uint32_t count, int depth)
{
    ntidx_buf_append(b, "[", 1);
    for (uint32_t i = 0; i < count; i++) {
        if (i)
            ntidx_buf_append(b, ",", 1);
        field_json(b, &fields[i], depth + 1);
    }
    ntidx_buf_append(b, "]", 1);
}

/* {"name":N,"type":T[,"count":K][,"element":{...}][,"fields":[...]]}; layouts nest only as deep as metadata can */
static void field_json(ntidx_buf *b, const ntidx_field *f, int depth)
{
    ntidx_buf_append(b, "{", 1);
    if (f->name) {
        ntidx_buf_append(b, "\"name\":", 7);
        ntidx_buf_append_json_string(b, f->name, strlen(f->name));
        ntidx_buf_append(b, ",", 1);
    }
    ntidx_buf_append(b, "\"type\":\"", 8);
    const char *tn = type_name(f->type_code);
    ntidx_buf_append(b, tn, strlen(tn));
    ntidx_buf_append(b, "\"", 1);
    if (f->type_code == NTIDX_TYPE_FIXED_ARRAY) {
        char n[32];
        int k = snprintf(n, sizeof n, ",\"count\":%u", (unsigned)f->element_count);
        ntidx_buf_append(b, n, (size_t)k);
    }
    if (depth < 32 && f->element) {
        ntidx_buf_append(b, ",\"element\":", 11);
        field_json(b, f->element, depth + 1);
    }
    if (depth < 32 && f->fields) {
        ntidx_buf_append(b, ",\"fields\":", 10);
        fields_json(b, f->fields, f->field_count, depth);
    }
    ntidx_buf_append(b, "}", 1);
}

/* The metadata of one type of the statistics: the first event of the type, found by a seek to its first time. */
static int type_metadata_json(nsql_source *s, const ntidx_type_stat *ty, char **out)
{
    *out = NULL;
    ntidx_query_options o;
    ntidx_query_options_defaults(&o);
    o.t0 = ty->first_ts;
    o.provider = ty->provider;
    o.has_event_id = 1;
    o.event_id = ty->event_id;
    ntidx_query *q;
    if (ntidx_query_open(s->trace, s->index, &o, &q) < 0)
        return -1;
    const ntidx_event *e;
    int rc;
    while ((rc = ntidx_query_next(q, &e)) == 1) {
        const ntidx_metadata *m = e->metadata;
        if (m->version != ty->version || strcmp(m->event_name, ty->event_name))
            continue;
        if (m->has_fields) {
            ntidx_buf b = {0};
            fields_json(&b, m->fields, m->field_count, 0);
            if (b.err) {
                ntidx_buf_free(&b);
                ntidx_query_close(&q);
                return -2;
            }
            *out = sqlite3_mprintf("%s", b.data);
            ntidx_buf_free(&b);
            if (!*out) {
                ntidx_query_close(&q);
                return -2;
            }
        }
        break;
    }
    ntidx_query_close(&q);
    return rc < 0 ? -1 : 0;
}

int nsql_source_types(nsql_conn *c, nsql_source *s, char **err)
{
    if (s->type_fields)
        return SQLITE_OK;
    int rc = nsql_source_stats(c, s, err);
    if (rc != SQLITE_OK)
        return rc;
    size_t n = s->stats->type_count;
    char **v = sqlite3_malloc64((n ? n : 1) * sizeof *v);
    if (!v)
        return SQLITE_NOMEM;
    memset(v, 0, (n ? n : 1) * sizeof *v);
    for (size_t i = 0; i < n; i++) {
        int r = type_metadata_json(s, &s->stats->types[i], &v[i]);
        if (r < 0) {
            for (size_t k = 0; k < i; k++)
                sqlite3_free(v[k]);
            sqlite3_free(v);
            if (r == -2)
                return SQLITE_NOMEM;
            *err = nsql_library_error(c);
            return SQLITE_ERROR;
        }
    }
    s->type_fields = v;
    return SQLITE_OK;
}

/* ---- stacks ---- */

typedef struct stack_list {
    nsql_stack *v;
    size_t n, cap;
    const uint8_t *data; /* the mapping: keys are offsets into it */
} stack_list;

static int add_stack(void *ctx, uint32_t id, const uint8_t *ips, uint32_t size)
{
    stack_list *l = ctx;
    if (!size)
        return 0; /* no frames, no rows */
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 256;
        nsql_stack *v = sqlite3_realloc64(l->v, cap * sizeof *v);
        if (!v)
            return 1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = (nsql_stack){(uint64_t)(ips - l->data), id, size, ips};
    return 0;
}

static int cmp_by_id(const void *a, const void *b, void *ctx)
{
    const nsql_stack *v = ctx, *x = &v[*(const size_t *)a], *y = &v[*(const size_t *)b];
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->key < y->key ? -1 : x->key > y->key;
}

static int cmp_key(const void *a, const void *b)
{
    const nsql_stack *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key;
}

/* V3: the stacks events carry inline, one per event that has one (read by one pass over the events). */
static int inline_stacks(ntidx_trace *t, stack_list *l)
{
    ntidx_reader *r;
    ntidx_reader_options o;
    ntidx_reader_options_defaults(&o);
    if (ntidx_reader_open(t, &o, &r) < 0)
        return -1;
    const ntidx_event *e;
    int rc;
    while ((rc = ntidx_reader_next(r, &e)) == 1)
        if (e->stack && e->stack_size && add_stack(l, 0, e->stack, e->stack_size))
            rc = -2;
    ntidx_reader_close(&r);
    return rc;
}

int nsql_source_stacks(nsql_conn *c, nsql_source *s, char **err)
{
    if (s->stacks_done)
        return SQLITE_OK;
    if (!s->symbols && ntidx_symbolizer_open(s->trace, s->index, &s->symbols) < 0) {
        *err = nsql_library_error(c);
        return SQLITE_ERROR;
    }
    stack_list l = {0};
    l.data = ntidx_trace_data(s->trace, NULL);
    int rc = 0;
    if (ntidx_trace_get_info(s->trace)->format_version == 3) {
        rc = inline_stacks(s->trace, &l);
        if (rc == -2) {
            sqlite3_free(l.v);
            return SQLITE_NOMEM;
        }
    } else {
        /* every stack block of the trace (a walk over block headers), every stack it defines */
        uint64_t pos = ntidx_trace_get_info(s->trace)->first_block_offset;
        uint64_t end = ntidx_index_get_info(s->index)->indexed_end;
        ntidx_block b;
        while (pos < end && (rc = ntidx_trace_next_block(s->trace, &pos, &b)) == 1) {
            if (b.kind != NTIDX_BLOCK_STACK)
                continue;
            rc = ntidx_stack_block_stacks(s->trace, &b, add_stack, &l);
            if (rc == 1) {
                sqlite3_free(l.v);
                return SQLITE_NOMEM;
            }
            if (rc < 0)
                break;
        }
        if (rc == NTIDX_E_TRUNCATED)
            rc = 0; /* a truncated trace: the stacks of its complete blocks */
    }
    if (rc < 0) {
        sqlite3_free(l.v);
        *err = nsql_library_error(c);
        return SQLITE_ERROR;
    }
    qsort(l.v, l.n, sizeof *l.v, cmp_key); /* file order already; the lookups rely on it */
    size_t *by_id = sqlite3_malloc64((l.n ? l.n : 1) * sizeof *by_id);
    if (!by_id) {
        sqlite3_free(l.v);
        return SQLITE_NOMEM;
    }
    for (size_t i = 0; i < l.n; i++)
        by_id[i] = i;
    qsort_r(by_id, l.n, sizeof *by_id, cmp_by_id, l.v);
    s->stacks = l.v;
    s->stacks_by_id = by_id;
    s->stack_count = l.n;
    s->stacks_done = 1;
    return SQLITE_OK;
}
