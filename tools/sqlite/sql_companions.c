/*
 * The companion tables of a trace, table-valued functions of its path:
 *
 * Each takes the trace's path and, optionally, its index's: ntidx_types(path[, index]).
 *
 *   ntidx_types(path)    one row per event type, as `ntidx stats` counts them: provider, event_id, version,
 *                        event_name, count, first_ts, and fields (the payload layout as a JSON array of
 *                        {"name", "type"[, "element"][, "fields"][, "count"]}; NULL when none is known)
 *   ntidx_threads(path)  one row per thread: thread, events, dropped (events lost on it as a capture thread),
 *                        name and pid where the trace defines its threads (V6 thread blocks; else NULL)
 *   ntidx_regions(path)  the index's regions (its units of work): region, first_ts, last_ts, start_s, end_s,
 *                        offset, bytes, blocks, event_blocks, events (NULL unless the index is --full)
 *   ntidx_stacks(path)   one row per frame of every stack the trace defines: stack_id, depth (0: the leaf),
 *                        ip, method, module (named by the library's symbolizer; NULL when unknown), and
 *                        stack_key, where the stack is defined (the file offset of its bytes), which events
 *                        give as their hidden column stack_key: the .NET runtime numbers its stacks again
 *                        after each sequence point, so a stack_id names several stacks, a stack_key one
 *
 * Types and threads come from the statistics of the whole trace through its
 * index; stacks from its stack blocks (V3: from the events, which carry them
 * inline). A `stack_key = X` or `stack_id = X` constraint on ntidx_stacks is
 * a binary search, so a join from events to stacks looks each stack up.
 */
#include "sql_internal.h"

#include <stdlib.h>
#include <string.h>

enum { T_TYPES, T_THREADS, T_REGIONS, T_STACKS };

typedef struct comp_def {
    const char *name;
    const char *schema;
    int ncols; /* columns before the hidden arguments path and index_path */
} comp_def;

static const comp_def defs[] = {
    [T_TYPES] = {"ntidx_types",
                 "CREATE TABLE x(provider TEXT COLLATE NOCASE, event_id INTEGER, version INTEGER, event_name TEXT, count INTEGER, "
                 "first_ts INTEGER, fields JSON, path HIDDEN, index_path HIDDEN)",
                 7},
    [T_THREADS] = {"ntidx_threads",
                   "CREATE TABLE x(thread INTEGER, events INTEGER, dropped INTEGER, name TEXT, pid INTEGER, "
                   "path HIDDEN, index_path HIDDEN)",
                   5},
    [T_REGIONS] = {"ntidx_regions",
                   "CREATE TABLE x(region INTEGER, first_ts INTEGER, last_ts INTEGER, start_s REAL, end_s REAL, "
                   "\"offset\" INTEGER, bytes INTEGER, blocks INTEGER, event_blocks INTEGER, events INTEGER, "
                   "path HIDDEN, index_path HIDDEN)",
                   10},
    [T_STACKS] = {"ntidx_stacks",
                  "CREATE TABLE x(stack_id INTEGER, depth INTEGER, ip INTEGER, method TEXT, module TEXT, "
                  "stack_key INTEGER, path HIDDEN, index_path HIDDEN)",
                  6},
};

enum { PLAN_PATH = 1, PLAN_STACK_ID = 2, PLAN_INDEX = 4, PLAN_STACK_KEY = 8 };

typedef struct comp_vtab {
    sqlite3_vtab base;
    nsql_conn *conn;
    int kind;
} comp_vtab;

typedef struct comp_cursor {
    sqlite3_vtab_cursor base;
    comp_vtab *vt;
    nsql_source *src;
    uint64_t row, end;    /* rows [row, end): types, threads, regions; stacks [row, end) of s->stacks */
    const size_t *order;  /* stacks by id: positions [row, end) of s->stacks_by_id; NULL: of s->stacks */
    uint32_t depth;       /* stacks: the frame within stack `row` */
    ntidx_region region;  /* regions: the current one */
    ntidx_symbol sym;     /* stacks: the current frame's names */
    int sym_found, sym_done;
} comp_cursor;

static int comp_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out, char **err)
{
    (void)argc;
    (void)err;
    int kind = -1;
    for (int i = 0; i < (int)(sizeof defs / sizeof defs[0]); i++)
        if (!strcmp(argv[0], defs[i].name))
            kind = i;
    if (kind < 0)
        return SQLITE_ERROR;
    int rc = sqlite3_declare_vtab(db, defs[kind].schema);
    if (rc != SQLITE_OK)
        return rc;
    comp_vtab *v = sqlite3_malloc64(sizeof *v);
    if (!v)
        return SQLITE_NOMEM;
    memset(v, 0, sizeof *v);
    v->conn = aux;
    v->kind = kind;
    *out = &v->base;
    return SQLITE_OK;
}

static int comp_disconnect(sqlite3_vtab *tab)
{
    sqlite3_free(tab);
    return SQLITE_OK;
}

static int comp_best_index(sqlite3_vtab *tab, sqlite3_index_info *info)
{
    comp_vtab *v = (comp_vtab *)tab;
    int path = -1, index = -1, stack_id = -1, stack_key = -1, path_unusable = 0;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *k = &info->aConstraint[i];
        if (k->op != SQLITE_INDEX_CONSTRAINT_EQ)
            continue;
        if (k->iColumn == defs[v->kind].ncols) {
            if (!k->usable)
                path_unusable = 1;
            else if (path < 0)
                path = i;
        } else if (k->iColumn == defs[v->kind].ncols + 1 && k->usable && index < 0) {
            index = i;
        } else if (v->kind == T_STACKS && k->iColumn == 0 && k->usable && stack_id < 0) {
            stack_id = i;
        } else if (v->kind == T_STACKS && k->iColumn == 5 && k->usable && stack_key < 0) {
            stack_key = i;
        }
    }
    if (path < 0 && path_unusable)
        return SQLITE_CONSTRAINT;
    int n = 0;
    info->idxNum = 0;
    if (path >= 0) {
        info->aConstraintUsage[path].argvIndex = ++n;
        info->aConstraintUsage[path].omit = 1;
        info->idxNum |= PLAN_PATH;
    }
    if (index >= 0) {
        info->aConstraintUsage[index].argvIndex = ++n;
        info->aConstraintUsage[index].omit = 1;
        info->idxNum |= PLAN_INDEX;
    }
    if (stack_key >= 0) {
        info->aConstraintUsage[stack_key].argvIndex = ++n;
        info->aConstraintUsage[stack_key].omit = 1; /* exact: the frames of that stack, found by a binary search */
        info->idxNum |= PLAN_STACK_KEY;
    }
    if (stack_id >= 0) {
        info->aConstraintUsage[stack_id].argvIndex = ++n;
        info->aConstraintUsage[stack_id].omit = 1; /* exact: the rows of that id, found by a binary search */
        info->idxNum |= PLAN_STACK_ID;
    }
    /* small tables; a stack looked up by its key (or id) is cheaper than any scan */
    info->estimatedCost = stack_key >= 0 ? 2.0 : stack_id >= 0 ? 5.0 : 1000.0;
    info->estimatedRows = stack_key >= 0 ? 10 : stack_id >= 0 ? 20 : 1000;
    return SQLITE_OK;
}

static int comp_open(sqlite3_vtab *tab, sqlite3_vtab_cursor **out)
{
    comp_cursor *c = sqlite3_malloc64(sizeof *c);
    if (!c)
        return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    c->vt = (comp_vtab *)tab;
    *out = &c->base;
    return SQLITE_OK;
}

static int comp_close(sqlite3_vtab_cursor *cur)
{
    comp_cursor *c = (comp_cursor *)cur;
    nsql_source_put(c->src);
    sqlite3_free(c);
    return SQLITE_OK;
}

/* The stack at cursor position i. */
static const nsql_stack *stack_at(const comp_cursor *c, uint64_t i)
{
    return &c->src->stacks[c->order ? c->order[i] : i];
}

static uint32_t frames(const comp_cursor *c, uint64_t i)
{
    return stack_at(c, i)->size / ntidx_trace_get_info(c->src->trace)->pointer_size;
}

/* Regions are read from the index as the cursor reaches them (a lazily checked region can fail its check). */
static int load_row(comp_cursor *c)
{
    c->sym_done = 0;
    if (c->vt->kind == T_STACKS) {
        while (c->row < c->end && c->depth >= frames(c, c->row))
            c->row++, c->depth = 0; /* past the last frame (or an empty stack) */
    } else if (c->vt->kind == T_REGIONS && c->row < c->end) {
        if (ntidx_index_region(c->src->index, c->row, &c->region) < 0)
            return nsql_vtab_error(&c->vt->base, nsql_library_error(c->vt->conn));
    }
    return SQLITE_OK;
}

/* An integer argument as SQL's `= value` compares it with an INTEGER column; 0 when no integer equals it. */
static int int_arg(sqlite3_value *val, sqlite3_int64 *out)
{
    sqlite3_value *x = sqlite3_value_dup(val);
    if (!x)
        return -1;
    int type = sqlite3_value_numeric_type(x);
    *out = sqlite3_value_int64(x);
    int exact = type == SQLITE_INTEGER || (type == SQLITE_FLOAT && sqlite3_value_double(x) == (double)*out);
    sqlite3_value_free(x);
    return exact;
}

static int comp_filter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr, int argc, sqlite3_value **argv)
{
    (void)idxStr;
    comp_cursor *c = (comp_cursor *)cur;
    comp_vtab *v = c->vt;
    nsql_source_put(c->src);
    c->src = NULL;
    c->row = c->end = 0;
    c->order = NULL;
    c->depth = 0;
    if (!(idxNum & PLAN_PATH))
        return nsql_vtab_error(&v->base, sqlite3_mprintf("%s: which trace? %s('trace.nettrace')", defs[v->kind].name,
                                                         defs[v->kind].name));
    const unsigned char *path = argc > 0 ? sqlite3_value_text(argv[0]) : NULL;
    if (!path)
        return SQLITE_OK; /* path = NULL: no rows */
    const unsigned char *index = idxNum & PLAN_INDEX ? sqlite3_value_text(argv[1]) : NULL;
    char *err = NULL;
    int rc = nsql_source_get(v->conn, (const char *)path, (const char *)index, &c->src, &err);
    if (rc != SQLITE_OK)
        return err ? nsql_vtab_error(&v->base, err) : rc;
    nsql_source *s = c->src;
    switch (v->kind) {
    case T_TYPES:
        rc = nsql_source_types(v->conn, s, &err);
        c->end = rc == SQLITE_OK ? s->stats->type_count : 0;
        break;
    case T_THREADS:
        rc = nsql_source_threads(v->conn, s, &err);
        c->end = rc == SQLITE_OK ? s->thread_count : 0;
        break;
    case T_REGIONS: c->end = ntidx_index_region_count(s->index); break;
    case T_STACKS: {
        rc = nsql_source_stacks(v->conn, s, &err);
        if (rc != SQLITE_OK)
            break;
        c->end = s->stack_count;
        c->order = NULL;
        int at = 1 + ((idxNum & PLAN_INDEX) != 0);
        sqlite3_int64 key = -1, id = -1;
        if (idxNum & PLAN_STACK_KEY) {
            int r = int_arg(argv[at++], &key);
            if (r < 0)
                return SQLITE_NOMEM;
            if (!r || key < 0)
                c->end = 0;
        }
        if (idxNum & PLAN_STACK_ID) {
            int r = int_arg(argv[at++], &id);
            if (r < 0)
                return SQLITE_NOMEM;
            if (!r || id < 0 || id > UINT32_MAX)
                c->end = 0;
        }
        if (c->end && (idxNum & PLAN_STACK_KEY)) {
            /* one stack: a binary search by key (file order) */
            uint64_t lo = 0, hi = s->stack_count;
            while (lo < hi) {
                uint64_t mid = lo + (hi - lo) / 2;
                if (s->stacks[mid].key < (uint64_t)key)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            int hit = lo < s->stack_count && s->stacks[lo].key == (uint64_t)key &&
                      (id < 0 || s->stacks[lo].id == (uint64_t)id);
            c->row = lo, c->end = hit ? lo + 1 : lo;
        } else if (c->end && (idxNum & PLAN_STACK_ID)) {
            /* the stacks of one id: a range of the positions sorted by id */
            uint64_t lo = 0, hi = s->stack_count;
            while (lo < hi) {
                uint64_t mid = lo + (hi - lo) / 2;
                if (s->stacks[s->stacks_by_id[mid]].id < (uint64_t)id)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            uint64_t e = lo;
            while (e < s->stack_count && s->stacks[s->stacks_by_id[e]].id == (uint64_t)id)
                e++;
            c->order = s->stacks_by_id;
            c->row = lo, c->end = e;
        }
        break;
    }
    default: break;
    }
    if (rc != SQLITE_OK)
        return err ? nsql_vtab_error(&v->base, err) : rc;
    return load_row(c);
}

static int comp_next(sqlite3_vtab_cursor *cur)
{
    comp_cursor *c = (comp_cursor *)cur;
    if (c->vt->kind == T_STACKS)
        c->depth++;
    else
        c->row++;
    return load_row(c);
}

static int comp_eof(sqlite3_vtab_cursor *cur)
{
    comp_cursor *c = (comp_cursor *)cur;
    return c->row >= c->end;
}

static void result_u64(sqlite3_context *ctx, uint64_t v) { sqlite3_result_int64(ctx, (sqlite3_int64)v); }


static int comp_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
    comp_cursor *c = (comp_cursor *)cur;
    nsql_source *s = c->src;
    if (col == defs[c->vt->kind].ncols) {
        sqlite3_result_text(ctx, s->path, -1, SQLITE_TRANSIENT);
        return SQLITE_OK;
    }
    if (col == defs[c->vt->kind].ncols + 1) {
        nsql_result_text(ctx, s->index_path);
        return SQLITE_OK;
    }
    switch (c->vt->kind) {
    case T_TYPES: {
        const ntidx_type_stat *t = &s->stats->types[c->row];
        switch (col) {
        case 0: sqlite3_result_text(ctx, t->provider, -1, SQLITE_TRANSIENT); break;
        case 1: result_u64(ctx, t->event_id); break;
        case 2: result_u64(ctx, t->version); break;
        case 3: sqlite3_result_text(ctx, t->event_name, -1, SQLITE_TRANSIENT); break;
        case 4: result_u64(ctx, t->count); break;
        case 5: result_u64(ctx, t->first_ts); break;
        case 6: nsql_result_text(ctx, s->type_fields[c->row]); break;
        }
        break;
    }
    case T_THREADS: {
        const nsql_thread *t = &s->threads[c->row];
        if (col == 3)
            nsql_result_text(ctx, t->name);
        else if (col == 4 && t->pid >= 0)
            sqlite3_result_int64(ctx, t->pid);
        else if (col == 4)
            sqlite3_result_null(ctx);
        else
            result_u64(ctx, col == 0 ? t->thread : col == 1 ? t->events : t->dropped);
        break;
    }
    case T_REGIONS: {
        const ntidx_region *r = &c->region;
        int empty = r->first_ts > r->last_ts; /* a region without events has no time */
        switch (col) {
        case 0: result_u64(ctx, r->number); break;
        case 1:
        case 3:
            if (empty)
                sqlite3_result_null(ctx);
            else if (col == 1)
                result_u64(ctx, r->first_ts);
            else
                sqlite3_result_double(ctx, ntidx_ticks_to_seconds(s->trace, r->first_ts));
            break;
        case 2:
        case 4:
            if (empty)
                sqlite3_result_null(ctx);
            else if (col == 2)
                result_u64(ctx, r->last_ts);
            else
                sqlite3_result_double(ctx, ntidx_ticks_to_seconds(s->trace, r->last_ts));
            break;
        case 5: result_u64(ctx, r->offset); break;
        case 6: result_u64(ctx, r->bytes); break;
        case 7: result_u64(ctx, r->blocks); break;
        case 8: result_u64(ctx, r->event_blocks); break;
        case 9:
            if (r->events == UINT64_MAX)
                sqlite3_result_null(ctx);
            else
                result_u64(ctx, r->events);
            break;
        }
        break;
    }
    case T_STACKS: {
        const nsql_stack *st = stack_at(c, c->row);
        uint32_t psize = ntidx_trace_get_info(s->trace)->pointer_size;
        const uint8_t *p = st->ips + (size_t)c->depth * psize;
        uint64_t ip = 0;
        for (uint32_t b = 0; b < psize; b++)
            ip |= (uint64_t)p[b] << (8 * b);
        if (col >= 3 && !c->sym_done) {
            /* frames above the leaf are return addresses */
            c->sym_found = ntidx_symbolizer_lookup(s->symbols, ip, c->depth > 0, &c->sym);
            c->sym_done = 1;
        }
        switch (col) {
        case 0: result_u64(ctx, st->id); break;
        case 1: result_u64(ctx, c->depth); break;
        case 2: result_u64(ctx, ip); break;
        case 3: nsql_result_text(ctx, c->sym_found ? c->sym.method : NULL); break;
        case 4: nsql_result_text(ctx, c->sym_found ? c->sym.module : NULL); break;
        case 5: result_u64(ctx, st->key); break;
        }
        break;
    }
    default: sqlite3_result_null(ctx); break;
    }
    return SQLITE_OK;
}

static int comp_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
    comp_cursor *c = (comp_cursor *)cur;
    *rowid = (sqlite3_int64)((c->row << 16) | (c->vt->kind == T_STACKS ? c->depth & 0xffff : 0));
    return SQLITE_OK;
}

static sqlite3_module companion_module = {
    .iVersion = 0,
    .xCreate = NULL, /* eponymous only: table-valued functions */
    .xConnect = comp_connect,
    .xBestIndex = comp_best_index,
    .xDisconnect = comp_disconnect,
    .xDestroy = comp_disconnect,
    .xOpen = comp_open,
    .xClose = comp_close,
    .xFilter = comp_filter,
    .xNext = comp_next,
    .xEof = comp_eof,
    .xColumn = comp_column,
    .xRowid = comp_rowid,
};

int nsql_register_companions(sqlite3 *db, nsql_conn *c)
{
    int rc = SQLITE_OK;
    for (size_t i = 0; i < sizeof defs / sizeof defs[0] && rc == SQLITE_OK; i++)
        rc = sqlite3_create_module_v2(db, defs[i].name, &companion_module, c, NULL);
    return rc;
}
