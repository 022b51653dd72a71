/*
 * Columnar batches (include/ntidx/batch.h): a query's events written into
 * arrays, with a type table and a string table instead of per-event text.
 *
 * Per event the work is a handful of stores: the event's metadata definition
 * is looked up once per run of events of the same definition (a cache by the
 * definition's file offset), and gives the type's row and, when field
 * columns are asked for, which top-level field goes to which column, so an
 * event whose type has none of the fields is never decoded. Payloads that
 * are decoded go through the typed values (ntidx_values_decode()); texts are
 * interned (one copy per distinct text, found by its xxh3).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "error.h"
#include "grow.h"
#include "hash.h"
#include "idmap.h"
#include "metadata.h"
#include "ntidx/batch.h"
#include "query_internal.h"

#define DEFAULT_ROWS 65536

/* What a batch knows of one metadata definition. */
typedef struct def_info {
    uint64_t offset;    /* the definition's key (ntx_metadata_key: its file offset, or that with label overrides) */
    uint32_t type;      /* row of the type table */
    uint32_t nfields;   /* top-level fields of its layout */
    const char **names; /* their names (copies: the reader's cache may be reset) */
    int32_t *col;       /* per top-level field: its column, or -1 */
    int32_t max_col;    /* the largest column it fills, -1 when none: no decode needed */
} def_info;

struct ntidx_batch {
    ntidx_trace *t;
    ntidx_query *q;
    ntidx_values *vals;
    int all_fields;
    size_t rows_per_next;

    /* field columns: names (arena copies) */
    char **names;
    size_t nnames, capnames;

    /* type table */
    ntidx_batch_type *types;
    size_t ntypes, captypes;
    ntx_idmap type_by_hash;

    /* definitions met: file offset -> def_info */
    ntx_idmap defs;
    def_info *last_def;

    /* string table: numbers from 1 */
    struct interned {
        const char *s;
        size_t len;
    } *strs;
    size_t nstrs, capstrs;
    ntx_idmap str_by_hash;

    ntx_arena arena; /* names, types' strings, definitions, strings */
    ntidx_buf scratch;

    /* an event held back by ntidx_batch_fill() for columns the caller had no room for */
    const ntidx_event *pending;
    int stopped_for_columns;
    int done;
    ntx_err err; /* sticky: an error ends the batch */
    char *err_file; /* the file it is about (the index for NTIDX_E_INDEX_CORRUPT), NULL: the trace */

    /* ntidx_batch_next(): the batch's own columns */
    ntidx_columns own;
    size_t own_fields_cap; /* field columns allocated */
    size_t own_named;      /* of which named so far */
    ntidx_field_column *view;
    size_t view_cap;
};

NTIDX_API void ntidx_batch_options_defaults(ntidx_batch_options *o)
{
    if (o)
        memset(o, 0, sizeof *o);
}

/* ------------------------------------------------------------------ */
/* Tables                                                              */
/* ------------------------------------------------------------------ */

/* The column of a field name, or -1. Few names (a data frame's columns): a linear search, done once per
   definition, not per event. */
static long column_of(const ntidx_batch *b, const char *name)
{
    for (size_t i = 0; i < b->nnames; i++)
        if (!strcmp(b->names[i], name))
            return (long)i;
    return -1;
}

static long add_column(ntidx_batch *b, const char *name)
{
    if (ntx_grow((void **)&b->names, &b->capnames, b->nnames + 1, sizeof *b->names, 16, 0) < 0)
        return -1;
    char *c = ntx_arena_strndup(&b->arena, name, strlen(name));
    if (!c)
        return -1;
    b->names[b->nnames] = c;
    return (long)b->nnames++;
}

/* Number of a text in the string table, added when new; 0 out of memory. */
static uint64_t intern(ntidx_batch *b, const char *s, size_t n)
{
    uint64_t key = ntx_xxh3(s, n);
    for (;;) {
        void *v = ntx_idmap_get(&b->str_by_hash, key);
        if (!v)
            break;
        uint64_t id = (uintptr_t)v;
        if (b->strs[id - 1].len == n && !memcmp(b->strs[id - 1].s, s, n))
            return id;
        key = ntx_idmap_hash(key + 1); /* another text with this hash: the next key */
    }
    if (ntx_grow((void **)&b->strs, &b->capstrs, b->nstrs + 1, sizeof *b->strs, 16, 0) < 0)
        return 0;
    char *c = ntx_arena_strndup(&b->arena, s, n);
    if (!c)
        return 0;
    b->strs[b->nstrs].s = c;
    b->strs[b->nstrs].len = n;
    uint64_t id = ++b->nstrs;
    if (ntx_idmap_put(&b->str_by_hash, key, (void *)(uintptr_t)id) != 0)
        return 0;
    return id;
}

/* The type row of a definition: types are (provider, event id, version, name), as statistics count them. */
static long type_of(ntidx_batch *b, const ntidx_metadata *m)
{
    const char *provider = m->provider ? m->provider : "", *name = m->event_name ? m->event_name : "";
    ntidx_buf *s = &b->scratch;
    ntx_buf_reset(s);
    ntx_buf_puts(s, provider);
    ntx_buf_u8(s, 0);
    ntx_buf_puts(s, name);
    ntx_buf_u8(s, 0);
    ntx_buf_u32(s, m->event_id);
    ntx_buf_u32(s, m->version);
    if (s->err)
        return -1;
    uint64_t key = ntx_xxh3(s->data, s->len);
    for (;;) {
        void *v = ntx_idmap_get(&b->type_by_hash, key);
        if (!v)
            break;
        const ntidx_batch_type *ty = &b->types[(uintptr_t)v - 1];
        if (ty->event_id == m->event_id && ty->version == m->version && !strcmp(ty->provider, provider) &&
            !strcmp(ty->event_name, name))
            return (long)((uintptr_t)v - 1);
        key = ntx_idmap_hash(key + 1);
    }
    if (ntx_grow((void **)&b->types, &b->captypes, b->ntypes + 1, sizeof *b->types, 16, 0) < 0)
        return -1;
    ntidx_batch_type *ty = &b->types[b->ntypes];
    memset(ty, 0, sizeof *ty);
    ty->provider = ntx_arena_strndup(&b->arena, provider, strlen(provider));
    ty->event_name = ntx_arena_strndup(&b->arena, name, strlen(name));
    if (!ty->provider || !ty->event_name)
        return -1;
    ty->event_id = m->event_id;
    ty->version = m->version;
    ty->level = m->level;
    ty->opcode = m->opcode;
    ty->keywords = m->keywords;
    b->ntypes++;
    if (ntx_idmap_put(&b->type_by_hash, key, (void *)(uintptr_t)b->ntypes) != 0)
        return -1;
    return (long)b->ntypes - 1;
}

/* What the batch knows of e's definition, learnt the first time it is met (with all_fields, its field
   names become columns then). NULL out of memory. */
static def_info *def_of(ntidx_batch *b, const ntidx_metadata *m)
{
    /* keyed as the statistics key types: a row that V6 label lists derived (another opcode, version or
       layout) shares its definition's offset but is a type of its own */
    uint64_t key = ntx_metadata_key(m);
    if (b->last_def && b->last_def->offset == key)
        return b->last_def;
    def_info *d = ntx_idmap_get(&b->defs, key);
    if (d)
        return b->last_def = d;
    d = ntx_arena_alloc(&b->arena, sizeof *d);
    if (!d)
        return NULL;
    long ty = type_of(b, m);
    if (ty < 0)
        return NULL;
    d->offset = key;
    d->type = (uint32_t)ty;
    d->max_col = -1;
    d->nfields = m->fields ? m->field_count : 0;
    if (d->nfields) {
        d->col = ntx_arena_alloc(&b->arena, d->nfields * sizeof *d->col);
        d->names = ntx_arena_alloc(&b->arena, d->nfields * sizeof *d->names);
        if (!d->col || !d->names)
            return NULL;
    }
    for (uint32_t i = 0; i < d->nfields; i++) {
        const char *name = m->fields[i].name ? m->fields[i].name : "";
        if (!(d->names[i] = ntx_arena_strndup(&b->arena, name, strlen(name))))
            return NULL;
        long c = column_of(b, name);
        if (c < 0 && b->all_fields && (c = add_column(b, name)) < 0)
            return NULL;
        d->col[i] = (int32_t)c;
        if (c > d->max_col)
            d->max_col = (int32_t)c;
    }
    if (ntx_idmap_put(&b->defs, key, d) != 0)
        return NULL;
    return b->last_def = d;
}

/* ------------------------------------------------------------------ */
/* Rows                                                                */
/* ------------------------------------------------------------------ */

static int nomem(ntidx_batch *b) { return ntx_err_set(&b->err, NTIDX_E_NOMEM, "out of memory filling a batch"); }

/* One value into its cell. 0, or NTIDX_E_NOMEM. */
static int put_cell(ntidx_batch *b, const ntidx_value *v, uint8_t *kind, ntidx_cell *cell)
{
    ntidx_buf *s = &b->scratch;
    uint64_t id;
    switch (v->kind) {
    case NTIDX_VALUE_NULL: cell->u = 0; break;
    case NTIDX_VALUE_BOOL: case NTIDX_VALUE_UINT: cell->u = v->u; break;
    case NTIDX_VALUE_INT: cell->i = v->i; break;
    case NTIDX_VALUE_FLOAT: cell->f = v->f; break;
    case NTIDX_VALUE_STRING:
        ntx_buf_reset(s);
        if (ntx_buf_utf8(s, v->str, v->len))
            return NTIDX_E_NOMEM;
        if (!(id = intern(b, s->data, s->len)))
            return NTIDX_E_NOMEM;
        cell->str = id;
        break;
    default: { /* GUID, TIME, DECIMAL: the JSON's text without its quotes; arrays and objects: their JSON */
        ntx_buf_reset(s);
        if (ntidx_value_json(b->vals, v, s) != NTIDX_OK)
            return NTIDX_E_NOMEM;
        int quoted = v->kind != NTIDX_VALUE_ARRAY && v->kind != NTIDX_VALUE_OBJECT && s->len >= 2 && s->data[0] == '"';
        if (!(id = quoted ? intern(b, s->data + 1, s->len - 2) : intern(b, s->data, s->len)))
            return NTIDX_E_NOMEM;
        cell->str = id;
        break;
    }
    }
    *kind = v->kind;
    return 0;
}

/* The payload fields of event e (definition d) into row `row` of the field columns [0, nf). */
static int put_fields(ntidx_batch *b, const ntidx_event *e, const def_info *d, const ntidx_columns *c, size_t nf,
                      size_t row, uint64_t *error_id)
{
    for (size_t j = 0; j < nf; j++)
        if (c->fields[j].kind)
            c->fields[j].kind[row] = NTIDX_BATCH_MISSING;
    *error_id = 0;
    if (d->max_col < 0 || !nf)
        return 0;
    int rc = ntidx_values_decode(b->vals, b->t, e);
    if (rc == NTIDX_E_PAYLOAD) { /* listed with the reason, as the JSON lists it with field_error */
        const char *what = ntidx_last_error_info()->what;
        if (!(*error_id = intern(b, what, strlen(what))))
            return NTIDX_E_NOMEM;
        return 0;
    }
    if (rc < 0)
        return rc;
    uint32_t i = 0;
    for (const ntidx_value *v = ntidx_values_at(b->vals, 0); v; v = ntidx_values_next(b->vals, v), i++) {
        long col;
        if (i < d->nfields && v->name && !strcmp(v->name, d->names[i]))
            col = d->col[i];
        else /* a layout whose values do not follow its fields one to one: by name */
            col = v->name ? column_of(b, v->name) : -1;
        if (col < 0 || (size_t)col >= nf || !c->fields[col].kind || !c->fields[col].cell)
            continue;
        if (put_cell(b, v, &c->fields[col].kind[row], &c->fields[col].cell[row]) < 0)
            return NTIDX_E_NOMEM;
    }
    return 0;
}

/* The query's error, published on this thread, kept as the batch's (sticky): with the file it is about. */
static int keep_query_error(ntidx_batch *b, int rc)
{
    const ntidx_error_info *ei = ntidx_last_error_info();
    ntx_err_clear(&b->err);
    free(b->err_file);
    b->err_file = NULL;
    if (ei->file[0] && strcmp(ei->file, ntidx_trace_name(b->t)))
        b->err_file = strdup(ei->file);
    return ntx_err_from_last(&b->err, rc);
}

/* Fill the caller's columns. 1 rows (room ran out), 2 stopped before an event that needs more field
   columns than the caller has room for, 0 the end, < 0 an error (in b->err). *rows: rows written. */
static int fill(ntidx_batch *b, const ntidx_columns *c, size_t *rows)
{
    size_t n = 0, cap = c->capacity;
    *rows = 0;
    while (n < cap) {
        const ntidx_event *e = b->pending;
        b->pending = NULL;
        if (!e) {
            int rc = ntidx_query_next(b->q, &e);
            if (rc == 0) {
                b->done = 1;
                break;
            }
            if (rc < 0) {
                *rows = n;
                return keep_query_error(b, rc);
            }
        }
        def_info *d = def_of(b, e->metadata);
        if (!d) {
            *rows = n;
            return nomem(b);
        }
        if (b->all_fields && d->max_col >= 0 && (size_t)d->max_col >= c->field_capacity) {
            b->pending = e; /* valid: the query is not asked again before it is taken */
            if (!n && b->stopped_for_columns) {
                *rows = 0;
                return ntx_err_set(&b->err, NTIDX_E_INVALID_ARG,
                                   "batch columns: room for %zu field columns, the batch has %zu "
                                   "(ntidx_batch_field_count())",
                                   c->field_capacity, b->nnames);
            }
            b->stopped_for_columns = 1;
            *rows = n;
            return 2;
        }
        b->stopped_for_columns = 0;
        if (c->timestamp)
            c->timestamp[n] = e->timestamp;
        if (c->type)
            c->type[n] = d->type;
        if (c->thread)
            c->thread[n] = e->thread_id;
        if (c->capture_thread)
            c->capture_thread[n] = e->capture_thread_id;
        if (c->sequence)
            c->sequence[n] = e->sequence_number;
        if (c->stack_id)
            c->stack_id[n] = e->stack_id;
        if (c->offset)
            c->offset[n] = e->offset;
        if (c->processor)
            c->processor[n] = e->processor_number;
        if (c->payload_size)
            c->payload_size[n] = e->payload_size;
        uint64_t error_id = 0;
        /* with all_fields, columns appear as definitions are met */
        size_t nf = !c->fields ? 0 : b->nnames < c->field_capacity ? b->nnames : c->field_capacity;
        if (nf || c->field_error) {
            int rc = put_fields(b, e, d, c, nf, n, &error_id);
            if (rc < 0) {
                *rows = n;
                return rc == NTIDX_E_NOMEM ? nomem(b) : ntx_err_from_last(&b->err, rc);
            }
        }
        if (c->field_error)
            c->field_error[n] = error_id;
        n++;
    }
    *rows = n;
    return n ? 1 : 0;
}

/* A sticky error published again (a batch that failed stays failed). */
static int failed(const ntidx_batch *b)
{
    return ntx_fail(b->err.code, b->err_file ? b->err_file : ntidx_trace_name(b->t), &b->err);
}

NTIDX_API int ntidx_batch_fill(ntidx_batch *b, const ntidx_columns *cols, size_t *rows)
{
    if (rows)
        *rows = 0;
    if (!b || !cols || !rows)
        return ntx_failf(NTIDX_E_INVALID_ARG, b ? ntidx_trace_name(b->t) : NULL, NTIDX_NO_OFFSET, "ntidx_batch_fill: NULL argument");
    if (!cols->capacity || !ntx_reserved_zero(cols->reserved, sizeof cols->reserved))
        return ntx_failf(NTIDX_E_INVALID_ARG, ntidx_trace_name(b->t), NTIDX_NO_OFFSET,
                         "batch columns: no room (capacity 0), or reserved fields not zero");
    if (b->err.code)
        return failed(b);
    if (b->done)
        return 0;
    int rc = fill(b, cols, rows);
    if (rc < 0)
        return failed(b);
    return rc == 2 ? 1 : rc;
}

/* Room in the batch's own columns for its field columns; new ones are MISSING in rows [0, filled). */
static int own_fields(ntidx_batch *b, size_t filled)
{
    size_t need = b->nnames, rows = b->rows_per_next;
    if (need > b->own_fields_cap) {
        size_t cap = b->own_fields_cap, j;
        if (ntx_grow((void **)&b->own.fields, &cap, need, sizeof *b->own.fields, 16, 0) < 0)
            return -1;
        /* own_fields_cap counts the columns allocated: the ones past it are never freed */
        for (j = b->own_fields_cap; j < cap; j++) {
            uint8_t *kind = malloc(rows);
            ntidx_cell *cell = malloc(rows * sizeof *cell);
            if (!kind || !cell) {
                free(kind);
                free(cell);
                break;
            }
            b->own.fields[j] = (ntidx_field_column){kind, cell};
            b->own_fields_cap = j + 1;
        }
        if (j < cap)
            return -1;
    }
    /* columns named since the last call: nothing in the rows already filled */
    for (size_t j = b->own_named; j < need; j++)
        memset(b->own.fields[j].kind, NTIDX_BATCH_MISSING, filled);
    b->own_named = need;
    /* exactly the columns named: a fill stops before a new one, which comes here to be made MISSING above */
    b->own.field_capacity = need;
    if (ntx_grow((void **)&b->view, &b->view_cap, b->own_fields_cap ? b->own_fields_cap : 1, sizeof *b->view, 16, 0) < 0)
        return -1;
    return 0;
}

static int own_columns(ntidx_batch *b)
{
    if (b->own.timestamp)
        return 0;
    size_t r = b->rows_per_next;
    ntidx_columns *c = &b->own;
    c->capacity = r;
    c->timestamp = malloc(r * sizeof *c->timestamp);
    c->type = malloc(r * sizeof *c->type);
    c->thread = malloc(r * sizeof *c->thread);
    c->capture_thread = malloc(r * sizeof *c->capture_thread);
    c->sequence = malloc(r * sizeof *c->sequence);
    c->stack_id = malloc(r * sizeof *c->stack_id);
    c->offset = malloc(r * sizeof *c->offset);
    c->processor = malloc(r * sizeof *c->processor);
    c->payload_size = malloc(r * sizeof *c->payload_size);
    c->field_error = malloc(r * sizeof *c->field_error);
    if (!c->timestamp || !c->type || !c->thread || !c->capture_thread || !c->sequence || !c->stack_id ||
        !c->offset || !c->processor || !c->payload_size || !c->field_error)
        return -1;
    return own_fields(b, 0);
}

NTIDX_API int ntidx_batch_next(ntidx_batch *b, const ntidx_columns **cols, size_t *rows)
{
    if (rows)
        *rows = 0;
    if (cols)
        *cols = NULL;
    if (!b || !cols || !rows)
        return ntx_failf(NTIDX_E_INVALID_ARG, b ? ntidx_trace_name(b->t) : NULL, NTIDX_NO_OFFSET, "ntidx_batch_next: NULL argument");
    if (b->err.code)
        return failed(b);
    if (own_columns(b) < 0) {
        nomem(b);
        return failed(b);
    }
    *cols = &b->own;
    size_t n = 0;
    int rc = 1;
    while (!b->done && n < b->rows_per_next) {
        /* a view of the own columns from row n on */
        const ntidx_columns *o = &b->own;
        ntidx_columns v = *o;
        v.capacity = o->capacity - n;
        v.timestamp += n, v.type += n, v.thread += n, v.capture_thread += n, v.sequence += n;
        v.stack_id += n, v.offset += n, v.processor += n, v.payload_size += n, v.field_error += n;
        for (size_t j = 0; j < b->own_fields_cap; j++)
            b->view[j] = (ntidx_field_column){o->fields[j].kind + n, o->fields[j].cell + n};
        v.fields = b->view;
        size_t k;
        rc = fill(b, &v, &k);
        n += k;
        if (rc < 0) {
            *rows = n;
            return failed(b);
        }
        if (rc == 2 && own_fields(b, n) < 0) { /* new field columns: make room and go on */
            *rows = n;
            nomem(b);
            return failed(b);
        }
        if (rc == 0)
            break;
    }
    *rows = n;
    return n ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* Open, accessors, close                                              */
/* ------------------------------------------------------------------ */

NTIDX_API int ntidx_batch_open(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *q,
                               const ntidx_batch_options *o, ntidx_batch **out)
{
    if (out)
        *out = NULL;
    if (!t || !x || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET,
                         "ntidx_batch_open: NULL argument");
    const char *name = ntidx_trace_name(t);
    ntidx_batch_options def;
    if (!o) {
        ntidx_batch_options_defaults(&def);
        o = &def;
    }
    if (!ntx_reserved_zero(o->reserved, sizeof o->reserved))
        return ntx_failf(NTIDX_E_INVALID_ARG, name, NTIDX_NO_OFFSET,
                         "batch options: reserved fields are not zero (fill them with ntidx_batch_options_defaults())");
    if (o->field_count && !o->fields)
        return ntx_failf(NTIDX_E_INVALID_ARG, name, NTIDX_NO_OFFSET, "batch options: field_count without fields");
    for (size_t i = 0; i < o->field_count; i++)
        if (!o->fields[i])
            return ntx_failf(NTIDX_E_INVALID_ARG, name, NTIDX_NO_OFFSET, "batch options: field %zu is NULL", i);
    ntidx_batch *b = calloc(1, sizeof *b);
    if (!b)
        return ntx_failf(NTIDX_E_NOMEM, name, NTIDX_NO_OFFSET, "out of memory");
    b->t = t;
    b->all_fields = o->all_fields != 0;
    b->rows_per_next = o->rows ? o->rows : DEFAULT_ROWS;
    ntx_idmap_init(&b->type_by_hash);
    ntx_idmap_init(&b->defs);
    ntx_idmap_init(&b->str_by_hash);
    ntx_arena_init(&b->arena);
    int rc = NTIDX_OK;
    for (size_t i = 0; i < o->field_count; i++)
        if (column_of(b, o->fields[i]) < 0 && add_column(b, o->fields[i]) < 0)
            rc = ntx_failf(NTIDX_E_NOMEM, name, NTIDX_NO_OFFSET, "out of memory");
    if (rc == NTIDX_OK && ntidx_values_new(&b->vals) < 0)
        rc = NTIDX_E_NOMEM; /* said */
    if (rc == NTIDX_OK)
        rc = ntidx_query_open(t, x, q, &b->q); /* said */
    if (rc < 0) {
        ntidx_batch_close(&b);
        return rc;
    }
    *out = b;
    return NTIDX_OK;
}

NTIDX_API int ntidx_batch_resume(ntidx_batch *b, const ntidx_index *x)
{
    if (!b || !x)
        return ntx_failf(NTIDX_E_INVALID_ARG, b ? ntidx_trace_name(b->t) : NULL, NTIDX_NO_OFFSET,
                         "ntidx_batch_resume: NULL argument");
    /* An event held back for columns (it points into the reader the query is about to replace) is read
       again: the query passes over the events before it. */
    int held = b->pending != NULL;
    b->pending = NULL;
    int rc = ntx_query_resume_after(b->q, x, ntx_query_returned(b->q) - (uint64_t)held);
    const ntidx_event *e;
    if (rc == NTIDX_OK && held && (rc = ntx_query_next(b->q, &e)) == 1)
        b->pending = e;
    else if (rc == 0 && held)
        rc = ntx_failf(NTIDX_E_CORRUPT, ntidx_trace_name(b->t), NTIDX_NO_OFFSET,
                       "the index gives fewer events than the one it replaced");
    if (rc < 0)
        return keep_query_error(b, rc);
    ntx_err_clear(&b->err);
    free(b->err_file);
    b->err_file = NULL;
    b->done = 0;
    return NTIDX_OK;
}

NTIDX_API size_t ntidx_batch_type_count(const ntidx_batch *b) { return b ? b->ntypes : 0; }

NTIDX_API const ntidx_batch_type *ntidx_batch_type_at(const ntidx_batch *b, size_t i)
{
    return b && i < b->ntypes ? &b->types[i] : NULL;
}

NTIDX_API size_t ntidx_batch_field_count(const ntidx_batch *b) { return b ? b->nnames : 0; }

NTIDX_API const char *ntidx_batch_field_name(const ntidx_batch *b, size_t i)
{
    return b && i < b->nnames ? b->names[i] : NULL;
}

NTIDX_API uint64_t ntidx_batch_string_count(const ntidx_batch *b) { return b ? b->nstrs : 0; }

NTIDX_API const char *ntidx_batch_string(const ntidx_batch *b, uint64_t id, size_t *len)
{
    if (len)
        *len = 0;
    if (!b || !id || id > b->nstrs)
        return NULL;
    if (len)
        *len = b->strs[id - 1].len;
    return b->strs[id - 1].s;
}

NTIDX_API const ntidx_query_stats *ntidx_batch_query_stats(const ntidx_batch *b)
{
    return b ? ntidx_query_get_stats(b->q) : NULL;
}

NTIDX_API void ntidx_batch_close(ntidx_batch **bp)
{
    if (!bp || !*bp)
        return;
    ntidx_batch *b = *bp;
    ntidx_query_close(&b->q);
    ntidx_values_free(&b->vals);
    free(b->names);
    free(b->types);
    free(b->strs);
    free(b->err_file);
    ntx_idmap_free(&b->type_by_hash);
    ntx_idmap_free(&b->defs);
    ntx_idmap_free(&b->str_by_hash);
    ntx_arena_free(&b->arena);
    ntidx_buf_free(&b->scratch);
    ntidx_columns *c = &b->own;
    free(c->timestamp);
    free(c->type);
    free(c->thread);
    free(c->capture_thread);
    free(c->sequence);
    free(c->stack_id);
    free(c->offset);
    free(c->processor);
    free(c->payload_size);
    free(c->field_error);
    for (size_t j = 0; j < b->own_fields_cap; j++) {
        free(c->fields[j].kind);
        free(c->fields[j].cell);
    }
    free(c->fields);
    free(b->view);
    free(b);
    *bp = NULL;
}
