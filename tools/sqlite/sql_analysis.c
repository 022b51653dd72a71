/*
 * The library's analyses as SQL tables (docs/sql.md, "Analyses"): one table
 * per table of every analysis the library lists (ntidx_analysis_info_at():
 * gc, gc_summary, and those added later, with no change here).
 *
 *   ntidx_gc(path[, index[, window_start[, window_end[, window_thread]]]])
 *                    the table-valued function of table `gc` (one per table: ntidx_gc_summary, ...; a table
 *                    named otherwise in SQL by its SQL name: ntidx_allocations for `alloc`'s)
 *   ntidx_analysis   CREATE VIRTUAL TABLE gc USING ntidx_analysis(gc, 'trace'[, 'trace'...][, index='path'])
 *                    the table `gc` over one or several traces (a `trace` column first with several), as
 *                    `ntidx sql` makes one per analysis table
 *   ntidx_analysis_stats()  what the last scan of an analysis table read and met, as JSON
 *
 * Columns: the library's table, named by the contract, then hidden ones:
 * path and index_path (the function's arguments), window_start, window_end
 * and window_thread (the analysis's window as `ntidx gc --from --to
 * --thread` takes it: ticks, or text such as '1.5s', '250ms', ISO-8601 Z),
 * time_s (a table with `ts`: its seconds since the sync time) and trace.
 *
 * Pushdown: the window of the analysis comes from the constraints, as the
 * events table's window does. `ts` and `time_s` bounds (=, <, <=, >, >=,
 * BETWEEN) narrow it, and `thread = N` (a table with `thread`) is its thread
 * filter; SQLite checks these constraints again on every row (a `ts` is a
 * record's first event, and the analysis takes a record whose start, as it
 * defines it, lies in the window). window_start, window_end and
 * window_thread are taken as they are (the rows are those of that window).
 * An analysis of one window is computed once per source and kept (a few per
 * trace), so a join that scans the table again and again does not run it
 * again, and `gc` and `gc_summary` of one statement share a run.
 */
#include "sql_events.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <ntidx/analysis.h>

/* What a declared column is: a column of the library's table (>= 0), or one of these. */
enum { K_TRACE = -1, K_PATH = -2, K_INDEX = -3, K_WSTART = -4, K_WEND = -5, K_WTHREAD = -6, K_TIME_S = -7 };

/*
 * The SQL names of the library's tables whose names read otherwise in SQL (issue 30's contract names the
 * tables of `ntidx alloc` and of `ntidx cpu`'s methods so); every other table is named as the library
 * names it. A created table's argument may be either name.
 */
static const struct {
    const char *table, *sql;
} sql_names[] = {{"alloc", "allocations"}, {"cpu", "cpu_methods"}};

const char *ntidx_sqlite_table_name(const char *table)
{
    for (size_t i = 0; table && i < sizeof sql_names / sizeof sql_names[0]; i++)
        if (!strcmp(sql_names[i].table, table))
            return sql_names[i].sql;
    return table;
}

/* The names the hidden columns take; a library table that has one of them is not served (said at connect). */
static const char *const reserved[] = {"trace", "path", "index_path", "window_start", "window_end", "window_thread"};

/* One table of one analysis, the aux of its module. */
typedef struct an_def {
    nsql_conn *conn;
    const ntidx_analysis_info *info; /* NULL: the creatable module ntidx_analysis (the table is its argument) */
    size_t table;
} an_def;

typedef struct an_vtab {
    sqlite3_vtab base;
    nsql_conn *conn;
    const ntidx_analysis_info *info;
    size_t table;
    const ntidx_table *tb;
    int eponymous, multi, npaths;
    char **paths;
    char *index_path;
    int ncols;
    int kind[256];       /* declared column -> table column or K_* */
    int ts_col, thread_col; /* table columns, -1 when none */
} an_vtab;

/* ------------------------------------------------------------------ */
/* Results kept per source                                             */
/* ------------------------------------------------------------------ */

#define CACHE_SLOTS 4

typedef struct an_result {
    int refs;
    const char *name; /* the analysis's (static) */
    uint64_t t0, t1, thread;
    int has_thread;
    ntidx_analysis *a;
} an_result;

struct nsql_an_cache {
    an_result *slot[CACHE_SLOTS]; /* most recently used first */
};

static void result_put(an_result *r)
{
    if (r && --r->refs == 0) {
        ntidx_analysis_free(&r->a);
        sqlite3_free(r);
    }
}

void nsql_analysis_cache_free(nsql_source *s)
{
    if (!s->an_cache)
        return;
    for (int i = 0; i < CACHE_SLOTS; i++)
        result_put(s->an_cache->slot[i]);
    sqlite3_free(s->an_cache);
    s->an_cache = NULL;
}

/* The analysis of `o`'s window over source `s`: kept, or run now (and kept). A reference for the caller. */
static int result_get(nsql_conn *c, nsql_source *s, const ntidx_analysis_info *info, const ntidx_analysis_options *o,
                      an_result **out, char **err)
{
    *out = NULL;
    if (!s->an_cache) {
        if (!(s->an_cache = sqlite3_malloc64(sizeof *s->an_cache)))
            return SQLITE_NOMEM;
        memset(s->an_cache, 0, sizeof *s->an_cache);
    }
    an_result **slot = s->an_cache->slot;
    for (int i = 0; i < CACHE_SLOTS; i++) {
        an_result *r = slot[i];
        if (r && r->name == info->name && r->t0 == o->t0 && r->t1 == o->t1 && r->has_thread == o->has_thread &&
            (!o->has_thread || r->thread == o->thread)) {
            memmove(slot + 1, slot, (size_t)i * sizeof *slot);
            slot[0] = r;
            r->refs++;
            *out = r;
            return SQLITE_OK;
        }
    }
    an_result *r = sqlite3_malloc64(sizeof *r);
    if (!r)
        return SQLITE_NOMEM;
    memset(r, 0, sizeof *r);
    const ntidx_index *used = s->index;
    int rc = ntidx_analyze(info->name, s->trace, used, o, &r->a);
    if (nsql_source_recover(s, used, rc))
        rc = ntidx_analyze(info->name, s->trace, s->index, o, &r->a);
    if (rc < 0) {
        sqlite3_free(r);
        *err = nsql_library_error(c);
        return SQLITE_ERROR;
    }
    r->name = info->name;
    r->t0 = o->t0, r->t1 = o->t1, r->has_thread = o->has_thread, r->thread = o->thread;
    r->refs = 2; /* the cache's and the caller's */
    result_put(slot[CACHE_SLOTS - 1]);
    memmove(slot + 1, slot, (CACHE_SLOTS - 1) * sizeof *slot);
    slot[0] = r;
    *out = r;
    return SQLITE_OK;
}

/* ------------------------------------------------------------------ */
/* Tables                                                              */
/* ------------------------------------------------------------------ */

static const char *sql_type(int type)
{
    switch (type) {
    case NTIDX_COLUMN_DOUBLE: return "REAL";
    case NTIDX_COLUMN_STRING: return "TEXT";
    default: return "INTEGER";
    }
}

/* The table named `name` (its SQL name or the library's) among every analysis's; 0 when none. */
static int find_table(const char *name, const ntidx_analysis_info **info, size_t *table)
{
    for (size_t k = 0; k < ntidx_analysis_count(); k++) {
        const ntidx_analysis_info *a = ntidx_analysis_info_at(k);
        for (size_t i = 0; i < a->table_count; i++)
            if (!strcmp(a->tables[i].name, name) || !strcmp(ntidx_sqlite_table_name(a->tables[i].name), name)) {
                *info = a;
                *table = i;
                return 1;
            }
    }
    return 0;
}

static int add_col(an_vtab *v, sqlite3_str *s, const char *decl, int kind)
{
    if (v->ncols == (int)(sizeof v->kind / sizeof v->kind[0]))
        return -1;
    sqlite3_str_appendf(s, "%s%s", v->ncols ? ", " : "", decl);
    v->kind[v->ncols++] = kind;
    return 0;
}

static int declare(sqlite3 *db, an_vtab *v, char **err)
{
    const ntidx_table *tb = v->tb;
    v->ts_col = v->thread_col = -1;
    for (size_t c = 0; c < tb->column_count; c++) {
        for (size_t r = 0; r < sizeof reserved / sizeof reserved[0]; r++)
            if (!strcmp(tb->columns[c].name, reserved[r])) {
                *err = sqlite3_mprintf("ntidx: the %s table has a column named %s, which the SQL tables reserve",
                                       tb->name, reserved[r]);
                return SQLITE_ERROR;
            }
        if (!strcmp(tb->columns[c].name, "ts") && tb->columns[c].type != NTIDX_COLUMN_STRING &&
            tb->columns[c].type != NTIDX_COLUMN_DOUBLE)
            v->ts_col = (int)c;
        if (!strcmp(tb->columns[c].name, "thread") && tb->columns[c].type != NTIDX_COLUMN_STRING &&
            tb->columns[c].type != NTIDX_COLUMN_DOUBLE)
            v->thread_col = (int)c;
    }
    sqlite3_str *s = sqlite3_str_new(db);
    sqlite3_str_appendall(s, "CREATE TABLE x(");
    int bad = 0;
    if (v->multi)
        bad |= add_col(v, s, "trace TEXT", K_TRACE);
    for (size_t c = 0; c < tb->column_count; c++) {
        char *decl = sqlite3_mprintf("\"%w\" %s", tb->columns[c].name, sql_type(tb->columns[c].type));
        bad |= !decl || add_col(v, s, decl, (int)c);
        sqlite3_free(decl);
    }
    /* the function's arguments first, in this order: ntidx_gc(path, index, window_start, window_end, window_thread) */
    bad |= add_col(v, s, "path HIDDEN", K_PATH);
    bad |= add_col(v, s, "index_path HIDDEN", K_INDEX);
    bad |= add_col(v, s, "window_start HIDDEN", K_WSTART);
    bad |= add_col(v, s, "window_end HIDDEN", K_WEND);
    bad |= add_col(v, s, "window_thread HIDDEN", K_WTHREAD);
    int has_time_s = 0;
    for (size_t c = 0; c < tb->column_count; c++)
        has_time_s |= !strcmp(tb->columns[c].name, "time_s");
    if (v->ts_col >= 0 && !has_time_s)
        bad |= add_col(v, s, "time_s REAL HIDDEN", K_TIME_S);
    if (!v->multi)
        bad |= add_col(v, s, "trace TEXT HIDDEN", K_TRACE);
    sqlite3_str_appendall(s, ")");
    char *sql = sqlite3_str_finish(s);
    if (!sql || bad) {
        sqlite3_free(sql);
        return SQLITE_NOMEM;
    }
    int rc = sqlite3_declare_vtab(db, sql);
    sqlite3_free(sql);
    return rc;
}

static void vtab_free(an_vtab *v)
{
    for (int i = 0; i < v->npaths; i++)
        sqlite3_free(v->paths[i]);
    sqlite3_free(v->paths);
    sqlite3_free(v->index_path);
    sqlite3_free(v);
}

static int an_init(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out, char **err,
                   int create)
{
    const an_def *d = aux;
    an_vtab *v = sqlite3_malloc64(sizeof *v);
    if (!v)
        return SQLITE_NOMEM;
    memset(v, 0, sizeof *v);
    v->conn = d->conn;
    v->eponymous = d->info != NULL;
    if (v->eponymous) {
        v->info = d->info;
        v->table = d->table;
    } else {
        /* ntidx_analysis(TABLE, 'trace'[, 'trace'...][, index='path']) */
        char *name = argc > 3 ? nsql_dequote(argv[3]) : NULL;
        if (argc > 3 && !name) {
            vtab_free(v);
            return SQLITE_NOMEM;
        }
        if (!name || !find_table(name, &v->info, &v->table)) {
            sqlite3_str *known = sqlite3_str_new(NULL);
            for (size_t k = 0; k < ntidx_analysis_count(); k++)
                for (size_t i = 0; i < ntidx_analysis_info_at(k)->table_count; i++)
                    sqlite3_str_appendf(known, "%s%s", sqlite3_str_length(known) ? ", " : "",
                                        ntidx_sqlite_table_name(ntidx_analysis_info_at(k)->tables[i].name));
            char *list = sqlite3_str_finish(known);
            *err = name ? sqlite3_mprintf("ntidx_analysis: no analysis table '%s' (the library has: %s)", name,
                                          list ? list : "")
                        : sqlite3_mprintf("ntidx_analysis: which table? CREATE VIRTUAL TABLE gc USING "
                                          "ntidx_analysis(gc, 'trace.nettrace'[, index='path']) (tables: %s)",
                                          list ? list : "");
            sqlite3_free(list);
            sqlite3_free(name);
            vtab_free(v);
            return SQLITE_ERROR;
        }
        sqlite3_free(name);
        v->paths = sqlite3_malloc64((size_t)(argc > 4 ? argc - 4 : 1) * sizeof *v->paths);
        if (!v->paths) {
            vtab_free(v);
            return SQLITE_NOMEM;
        }
        for (int i = 4; i < argc; i++) {
            const char *ix = nsql_index_arg(argv[i]);
            char *val = nsql_dequote(ix ? ix : argv[i]);
            if (!val) {
                vtab_free(v);
                return SQLITE_NOMEM;
            }
            if (!*val) {
                *err = sqlite3_mprintf("ntidx_analysis: an empty argument (%s)", argv[i]);
                sqlite3_free(val);
                vtab_free(v);
                return SQLITE_ERROR;
            }
            if (ix) {
                sqlite3_free(v->index_path);
                v->index_path = val;
            } else {
                v->paths[v->npaths++] = val;
            }
        }
        if (!v->npaths) {
            const char *name = ntidx_sqlite_table_name(v->info->tables[v->table].name);
            *err = sqlite3_mprintf("ntidx_analysis: no trace: CREATE VIRTUAL TABLE %s USING ntidx_analysis(%s, "
                                   "'trace.nettrace'[, index='path'])", argv[2], name);
            vtab_free(v);
            return SQLITE_ERROR;
        }
        if (v->index_path && v->npaths > 1) {
            *err = sqlite3_mprintf("ntidx_analysis: index='%s' names the index of one trace, and %d traces are given",
                                   v->index_path, v->npaths);
            vtab_free(v);
            return SQLITE_ERROR;
        }
        v->multi = v->npaths > 1;
    }
    v->tb = &v->info->tables[v->table];
    int rc = declare(db, v, err);
    if (rc != SQLITE_OK) {
        vtab_free(v);
        return rc;
    }
    /* a new table opens its traces now, so that a missing or bad file is said by CREATE VIRTUAL TABLE */
    if (create)
        for (int i = 0; i < v->npaths; i++) {
            nsql_source *s;
            if ((rc = nsql_source_get(v->conn, v->paths[i], v->index_path, &s, err)) != SQLITE_OK) {
                vtab_free(v);
                return rc;
            }
            nsql_source_put(s);
        }
    *out = &v->base;
    return SQLITE_OK;
}

static int an_create(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out, char **err)
{
    return an_init(db, aux, argc, argv, out, err, 1);
}

static int an_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out, char **err)
{
    return an_init(db, aux, argc, argv, out, err, 0);
}

static int an_disconnect(sqlite3_vtab *tab)
{
    vtab_free((an_vtab *)tab);
    return SQLITE_OK;
}

/* ------------------------------------------------------------------ */
/* Planning                                                            */
/* ------------------------------------------------------------------ */

/*
 * The plan, as xBestIndex hands it to xFilter in idxStr: per argument, what
 * it constrains and the operator, as text people read in EXPLAIN QUERY PLAN
 * ("ts>= ts< window_thread="). idxNum: PLAN_NO_PATH when the function got no
 * path.
 */
enum { A_PATH, A_INDEX, A_WSTART, A_WEND, A_WTHREAD, A_TS, A_TIME_S, A_THREAD, A_TRACE, A_COUNT };
static const char *const arg_name[A_COUNT] = {"path", "index_path", "window_start", "window_end", "window_thread",
                                              "ts", "time_s", "thread", "trace"};
static const struct {
    char code;
    const char *text;
} op_text[] = {{OP_GE, ">="}, {OP_LE, "<="}, {OP_EQ, "="}, {OP_GT, ">"}, {OP_LT, "<"}};

#define MAX_PLAN 32

static int an_best_index(sqlite3_vtab *tab, sqlite3_index_info *info)
{
    an_vtab *v = (an_vtab *)tab;
    int nargs = 0, path_seen = 0, path_unusable = 0, taken[A_COUNT] = {0};
    sqlite3_str *plan = sqlite3_str_new(NULL);
    double share = 1.0;
    /* the function's path and index first, then the window's arguments, then the columns */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < info->nConstraint && nargs < MAX_PLAN; i++) {
            const struct sqlite3_index_constraint *k = &info->aConstraint[i];
            if (k->iColumn < 0)
                continue;
            int kind = v->kind[k->iColumn], arg = -1, op = 0;
            switch (k->op) {
            case SQLITE_INDEX_CONSTRAINT_EQ: op = OP_EQ; break;
            case SQLITE_INDEX_CONSTRAINT_GT: op = OP_GT; break;
            case SQLITE_INDEX_CONSTRAINT_GE: op = OP_GE; break;
            case SQLITE_INDEX_CONSTRAINT_LT: op = OP_LT; break;
            case SQLITE_INDEX_CONSTRAINT_LE: op = OP_LE; break;
            default: continue;
            }
            if (pass == 0) {
                if (op != OP_EQ || kind > K_PATH || kind < K_WTHREAD)
                    continue;
                arg = kind == K_PATH ? A_PATH : kind == K_INDEX ? A_INDEX : kind == K_WSTART ? A_WSTART
                      : kind == K_WEND ? A_WEND : A_WTHREAD;
                if ((arg == A_PATH || arg == A_INDEX) && !v->eponymous)
                    continue; /* a created table's traces are its own: path and index_path are columns like any */
                if (arg == A_PATH && !k->usable) {
                    path_unusable = 1;
                    continue;
                }
                if (!k->usable || taken[arg])
                    continue;
                path_seen |= arg == A_PATH;
                taken[arg] = 1;
                info->aConstraintUsage[i].argvIndex = ++nargs;
                info->aConstraintUsage[i].omit = 1; /* arguments: the rows are those of that window */
            } else {
                if (!k->usable)
                    continue;
                if ((kind >= 0 && kind == v->ts_col) || kind == K_TIME_S)
                    arg = kind == K_TIME_S ? A_TIME_S : A_TS;
                else if (kind >= 0 && kind == v->thread_col && op == OP_EQ && !taken[A_THREAD])
                    arg = A_THREAD;
                else if (kind == K_TRACE && v->multi && op == OP_EQ) {
                    const char *coll = sqlite3_vtab_collation(info, i);
                    if (coll && sqlite3_stricmp(coll, "BINARY"))
                        continue;
                    arg = A_TRACE;
                } else
                    continue;
                taken[arg] = 1;
                share *= op == OP_EQ ? (arg == A_TS || arg == A_TIME_S ? 1e-4 : 0.1) : 0.3;
                info->aConstraintUsage[i].argvIndex = ++nargs;
                info->aConstraintUsage[i].omit = 0; /* SQLite checks the rows again */
            }
            for (size_t o = 0; o < sizeof op_text / sizeof op_text[0]; o++)
                if (op_text[o].code == op)
                    sqlite3_str_appendf(plan, "%s%s%s", nargs > 1 ? " " : "", arg_name[arg], op_text[o].text);
        }
    if (v->eponymous && !path_seen && path_unusable) {
        sqlite3_free(sqlite3_str_finish(plan));
        return SQLITE_CONSTRAINT; /* the path comes from a table not yet read: another join order */
    }
    info->idxNum = v->eponymous && !path_seen;
    char *text = sqlite3_str_finish(plan);
    info->idxStr = text ? text : sqlite3_mprintf("%s", "");
    info->needToFreeIdxStr = 1;
    /* an analysis reads the window's events of its types once and is kept: cheap to scan again, dear to run */
    info->estimatedCost = 1e6 * share * (v->multi ? v->npaths : 1) + 10;
    info->estimatedRows = (sqlite3_int64)(1000 * share) + 1;
    return info->idxStr ? SQLITE_OK : SQLITE_NOMEM;
}

/* ------------------------------------------------------------------ */
/* Cursors                                                             */
/* ------------------------------------------------------------------ */

typedef struct an_cursor {
    sqlite3_vtab_cursor base;
    an_vtab *vt;
    /* the plan */
    uint64_t t0, t1;              /* ts bounds */
    double s_lo, s_hi;            /* time_s bounds */
    sqlite3_value *wstart, *wend; /* window_start, window_end (NULL: none) */
    int has_thread;
    uint64_t thread;
    int empty;
    char *arg_path, *arg_index;
    char **traces;                /* trace = ... values */
    int ntraces;
    /* the scan */
    nsql_source **src;
    int *src_no;
    int nsrc, at;
    an_result *res;               /* the current source's */
    uint64_t row, rows;
    uint64_t window_t0, window_t1;
    int eof;
    sqlite3_str *stats;           /* ntidx_analysis_stats() of this scan */
    uint64_t bytes;
} an_cursor;

static int an_open(sqlite3_vtab *tab, sqlite3_vtab_cursor **out)
{
    an_cursor *c = sqlite3_malloc64(sizeof *c);
    if (!c)
        return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    c->vt = (an_vtab *)tab;
    *out = &c->base;
    return SQLITE_OK;
}

static void reset(an_cursor *c)
{
    result_put(c->res);
    c->res = NULL;
    for (int i = 0; i < c->nsrc; i++)
        nsql_source_put(c->src[i]);
    sqlite3_free(c->src);
    sqlite3_free(c->src_no);
    c->src = NULL;
    c->src_no = NULL;
    c->nsrc = c->at = 0;
    sqlite3_value_free(c->wstart);
    sqlite3_value_free(c->wend);
    c->wstart = c->wend = NULL;
    sqlite3_free(c->arg_path);
    sqlite3_free(c->arg_index);
    c->arg_path = c->arg_index = NULL;
    for (int i = 0; i < c->ntraces; i++)
        sqlite3_free(c->traces[i]);
    sqlite3_free(c->traces);
    c->traces = NULL;
    c->ntraces = 0;
    sqlite3_free(sqlite3_str_finish(c->stats));
    c->stats = NULL;
    c->eof = 1;
    c->empty = c->has_thread = 0;
    c->row = c->rows = c->bytes = 0;
}

static int an_close(sqlite3_vtab_cursor *cur)
{
    an_cursor *c = (an_cursor *)cur;
    reset(c);
    if (c->vt->conn->last_scan == c)
        c->vt->conn->last_scan = NULL;
    sqlite3_free(c);
    return SQLITE_OK;
}

static int cursor_error(an_cursor *c, char *msg)
{
    c->eof = 1;
    return nsql_vtab_error(&c->vt->base, msg);
}

/* A window bound given as ticks (an integer) or as text ntidx_parse_time() reads ("1.5s", ISO-8601 Z). */
static int window_ticks(an_cursor *c, nsql_source *s, sqlite3_value *val, const char *what, uint64_t *out)
{
    if (sqlite3_value_type(val) == SQLITE_INTEGER) {
        sqlite3_int64 i = sqlite3_value_int64(val);
        if (i < 0)
            return cursor_error(c, sqlite3_mprintf("%s: %lld is not a tick (0 or more)", what, (long long)i));
        *out = (uint64_t)i;
        return SQLITE_OK;
    }
    const char *text = (const char *)sqlite3_value_text(val);
    if (!text)
        return SQLITE_NOMEM;
    if (ntidx_parse_time(s->trace, text, out) < 0) /* a mistake in the statement: not said as bad input */
        return cursor_error(c, sqlite3_mprintf("%s: %s", what, ntidx_last_error_info()->what));
    return SQLITE_OK;
}

/* Append what one analysis read and met to the scan's ntidx_analysis_stats(). */
static void add_stats(an_cursor *c, nsql_source *s, const ntidx_analysis *a)
{
    const ntidx_analysis_stats *st = ntidx_analysis_get_stats(a);
    if (!c->stats)
        c->stats = sqlite3_str_new(NULL);
    sqlite3_str_appendf(c->stats,
                        "%s{\"trace\":\"%w\",\"analysis\":\"%w\",\"t0\":%llu,\"t1\":%llu,\"events\":%llu,"
                        "\"field_errors\":%llu,\"unmatched\":%llu,\"incomplete\":%llu,\"regions\":%llu,\"units\":%llu,"
                        "\"threads\":%u,\"bytes_read\":%llu,\"blocks_read\":%llu,\"event_blocks_read\":%llu,"
                        "\"lookahead_events\":%llu,\"lookahead_bytes\":%llu}",
                        sqlite3_str_length(c->stats) ? "," : "", s->path, ntidx_analysis_name(a),
                        (unsigned long long)st->t0, (unsigned long long)st->t1, (unsigned long long)st->events,
                        (unsigned long long)st->field_errors, (unsigned long long)st->unmatched,
                        (unsigned long long)st->incomplete, (unsigned long long)st->regions,
                        (unsigned long long)st->units, st->threads, (unsigned long long)st->bytes_read,
                        (unsigned long long)st->blocks_read, (unsigned long long)st->event_blocks_read,
                        (unsigned long long)st->lookahead_events, (unsigned long long)st->lookahead_bytes);
    c->bytes += st->bytes_read;
}

/* The last scan's statistics for ntidx_analysis_stats() and ntidx_bytes_read(). */
static void publish(an_cursor *c)
{
    nsql_conn *conn = c->vt->conn;
    if (conn->last_scan != c)
        return;
    conn->last_bytes = c->bytes;
    sqlite3_free(conn->last_analysis_stats);
    conn->last_analysis_stats = sqlite3_mprintf("[%s]", c->stats ? sqlite3_str_value(c->stats) : "");
}

/* Stand on the first row of the next source that has one (eof after the last). */
static int next_source(an_cursor *c)
{
    an_vtab *v = c->vt;
    while (c->at < c->nsrc) {
        nsql_source *s = c->src[c->at];
        result_put(c->res);
        c->res = NULL;
        ntidx_analysis_options o;
        ntidx_analysis_options_defaults(&o);
        o.threads = v->conn->hooks.threads;
        o.t0 = c->t0;
        o.t1 = c->t1;
        uint64_t a = nsql_seconds_to_ticks(s->trace, c->s_lo, 0), b = nsql_seconds_to_ticks(s->trace, c->s_hi, 1);
        if (a > o.t0)
            o.t0 = a;
        if (b < o.t1)
            o.t1 = b;
        uint64_t w;
        int rc;
        if (c->wstart) {
            if ((rc = window_ticks(c, s, c->wstart, "window_start", &w)) != SQLITE_OK)
                return rc;
            if (w > o.t0)
                o.t0 = w;
        }
        if (c->wend) {
            if ((rc = window_ticks(c, s, c->wend, "window_end", &w)) != SQLITE_OK)
                return rc;
            if (w < o.t1)
                o.t1 = w;
        }
        o.has_thread = c->has_thread;
        o.thread = c->thread;
        c->window_t0 = o.t0;
        c->window_t1 = o.t1;
        if (o.t0 >= o.t1) {
            c->at++; /* an empty window: no record starts in it */
            continue;
        }
        char *err = NULL;
        rc = result_get(v->conn, s, v->info, &o, &c->res, &err);
        if (rc != SQLITE_OK)
            return err ? cursor_error(c, err) : rc;
        add_stats(c, s, c->res->a);
        publish(c); /* now: a statement may stop before the last row (LIMIT) */
        ntidx_table tb;
        if (ntidx_analysis_table(c->res->a, v->table, &tb) < 0 || strcmp(tb.name, v->tb->name))
            return cursor_error(c, sqlite3_mprintf("ntidx: the %s analysis gave no table %s", v->info->name,
                                                   v->tb->name));
        c->row = 0;
        c->rows = tb.rows;
        if (c->rows)
            return SQLITE_OK;
        c->at++;
    }
    c->eof = 1;
    publish(c);
    return SQLITE_OK;
}

static int an_filter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr, int argc, sqlite3_value **argv)
{
    an_cursor *c = (an_cursor *)cur;
    an_vtab *v = c->vt;
    reset(c);
    c->eof = 0;
    c->t0 = 0;
    c->t1 = UINT64_MAX;
    c->s_lo = -INFINITY;
    c->s_hi = INFINITY;
    v->conn->last_scan = c;
    v->conn->last_bytes = 0;
    if (idxNum) {
        const char *name = ntidx_sqlite_table_name(v->tb->name);
        return cursor_error(c, sqlite3_mprintf("ntidx_%s: which trace? ntidx_%s('trace.nettrace'[, 'index'])", name,
                                               name));
    }
    /* the plan's arguments, in the order of idxStr */
    const char *p = idxStr ? idxStr : "";
    for (int k = 0; k < argc && *p; k++) {
        size_t len = strcspn(p, " ");
        size_t n = strcspn(p, "=<>");
        int arg = -1, op = 0;
        for (int a = 0; a < A_COUNT; a++)
            if (strlen(arg_name[a]) == n && !memcmp(arg_name[a], p, n))
                arg = a;
        for (size_t o = 0; o < sizeof op_text / sizeof op_text[0]; o++)
            if (len - n == strlen(op_text[o].text) && !memcmp(p + n, op_text[o].text, len - n))
                op = op_text[o].code;
        p += len + (p[len] == ' ');
        if (arg < 0 || !op)
            return cursor_error(c, sqlite3_mprintf("ntidx: internal error: a plan it cannot read: %s", idxStr));
        sqlite3_value *val = argv[k];
        switch (arg) {
        case A_PATH:
        case A_INDEX: {
            const unsigned char *txt = sqlite3_value_text(val);
            if (!txt) {
                if (arg == A_PATH)
                    c->empty = 1; /* path = NULL: no trace */
                break;
            }
            char **dst = arg == A_PATH ? &c->arg_path : &c->arg_index;
            if (!(*dst = sqlite3_mprintf("%s", (const char *)txt)))
                return SQLITE_NOMEM;
            break;
        }
        case A_WSTART:
        case A_WEND:
            if (sqlite3_value_type(val) == SQLITE_NULL)
                break; /* no bound */
            if (!(*(arg == A_WSTART ? &c->wstart : &c->wend) = sqlite3_value_dup(val)))
                return SQLITE_NOMEM;
            break;
        case A_WTHREAD:
        case A_THREAD: {
            if (arg == A_THREAD && c->has_thread)
                break; /* window_thread given: SQLite checks thread itself */
            sqlite3_value *x = sqlite3_value_dup(val);
            if (!x)
                return SQLITE_NOMEM;
            int type = sqlite3_value_numeric_type(x);
            sqlite3_int64 i = sqlite3_value_int64(x);
            int exact = type == SQLITE_INTEGER || (type == SQLITE_FLOAT && sqlite3_value_double(x) == (double)i);
            sqlite3_value_free(x);
            if (type == SQLITE_NULL && arg == A_WTHREAD)
                break; /* every thread */
            if (!exact || i < 0) {
                if (arg == A_WTHREAD)
                    return cursor_error(c, sqlite3_mprintf("window_thread: %s is not a thread id",
                                                           (const char *)sqlite3_value_text(val)));
                c->empty = 1; /* no thread id equals it */
                break;
            }
            c->has_thread = 1;
            c->thread = (uint64_t)i;
            break;
        }
        case A_TS: c->empty |= nsql_ts_bound(op, val, &c->t0, &c->t1); break;
        case A_TIME_S: c->empty |= nsql_seconds_bound(op, val, &c->s_lo, &c->s_hi); break;
        case A_TRACE: {
            const unsigned char *txt = sqlite3_value_text(val);
            if (!txt) {
                c->empty = 1;
                break;
            }
            char **t = sqlite3_realloc64(c->traces, (size_t)(c->ntraces + 1) * sizeof *t);
            if (!t)
                return SQLITE_NOMEM;
            c->traces = t;
            if (!(c->traces[c->ntraces] = sqlite3_mprintf("%s", (const char *)txt)))
                return SQLITE_NOMEM;
            c->ntraces++;
            break;
        }
        }
    }
    if (c->empty) {
        c->eof = 1;
        publish(c);
        return SQLITE_OK;
    }
    int n = v->eponymous ? 1 : v->npaths;
    c->src = sqlite3_malloc64((size_t)n * sizeof *c->src);
    c->src_no = sqlite3_malloc64((size_t)n * sizeof *c->src_no);
    if (!c->src || !c->src_no)
        return SQLITE_NOMEM;
    for (int i = 0; i < n; i++) {
        const char *path = v->eponymous ? c->arg_path : v->paths[i];
        int wanted = 1;
        for (int k = 0; k < c->ntraces && wanted; k++)
            wanted = !strcmp(c->traces[k], path);
        if (!wanted)
            continue;
        char *err = NULL;
        int rc = nsql_source_get(v->conn, path, v->eponymous ? c->arg_index : v->index_path, &c->src[c->nsrc], &err);
        if (rc != SQLITE_OK)
            return err ? cursor_error(c, err) : rc;
        c->src_no[c->nsrc++] = i;
    }
    return next_source(c);
}

static int an_next(sqlite3_vtab_cursor *cur)
{
    an_cursor *c = (an_cursor *)cur;
    if (++c->row < c->rows)
        return SQLITE_OK;
    c->at++;
    return next_source(c);
}

static int an_eof(sqlite3_vtab_cursor *cur) { return ((an_cursor *)cur)->eof; }

static void result_cell(sqlite3_context *ctx, const ntidx_table_cell *v)
{
    if (v->is_null) {
        sqlite3_result_null(ctx);
        return;
    }
    switch (v->type) {
    case NTIDX_COLUMN_INT: sqlite3_result_int64(ctx, v->i); break;
    case NTIDX_COLUMN_UINT:
    case NTIDX_COLUMN_BOOL: sqlite3_result_int64(ctx, (sqlite3_int64)v->u); break;
    case NTIDX_COLUMN_DOUBLE: sqlite3_result_double(ctx, v->f); break;
    default: nsql_result_text(ctx, v->s); break;
    }
}

static int an_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i)
{
    an_cursor *c = (an_cursor *)cur;
    an_vtab *v = c->vt;
    nsql_source *s = c->src[c->at];
    int kind = v->kind[i];
    ntidx_table_cell cell;
    switch (kind) {
    case K_TRACE:
    case K_PATH: sqlite3_result_text(ctx, s->path, -1, SQLITE_TRANSIENT); break;
    case K_INDEX: nsql_result_text(ctx, s->index_path); break;
    case K_WSTART: sqlite3_result_int64(ctx, (sqlite3_int64)c->window_t0); break;
    case K_WEND:
        if (c->window_t1 > (uint64_t)INT64_MAX)
            sqlite3_result_null(ctx); /* to the end */
        else
            sqlite3_result_int64(ctx, (sqlite3_int64)c->window_t1);
        break;
    case K_WTHREAD:
        if (c->has_thread)
            sqlite3_result_int64(ctx, (sqlite3_int64)c->thread);
        else
            sqlite3_result_null(ctx);
        break;
    case K_TIME_S:
        if (ntidx_analysis_cell(c->res->a, v->table, c->row, (size_t)v->ts_col, &cell) < 0)
            return nsql_vtab_error(&v->base, sqlite3_mprintf("%s", ntidx_last_error()));
        if (cell.is_null)
            sqlite3_result_null(ctx);
        else
            sqlite3_result_double(ctx, ntidx_ticks_to_seconds(s->trace, cell.type == NTIDX_COLUMN_INT ? (uint64_t)cell.i
                                                                                                       : cell.u));
        break;
    default: {
        /* a string the analysis makes per cell (an activity's ids) is made into text and copied by SQLite
           (SQLITE_TRANSIENT): ntidx_analysis_cell() would keep it in the analysis, a whole table's worth */
        char text[NTIDX_CELL_BUF_SIZE];
        if (ntidx_analysis_cell_buf(c->res->a, v->table, c->row, (size_t)kind, &cell, text, sizeof text) < 0)
            return nsql_vtab_error(&v->base, sqlite3_mprintf("%s", ntidx_last_error()));
        result_cell(ctx, &cell);
        break;
    }
    }
    return SQLITE_OK;
}

static int an_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
    an_cursor *c = (an_cursor *)cur;
    *rowid = (sqlite3_int64)(((uint64_t)c->src_no[c->at] << 48) | (c->row & ((1ull << 48) - 1)));
    return SQLITE_OK;
}

#define ANALYSIS_METHODS                                                                                         \
    .iVersion = 0, .xConnect = an_connect, .xBestIndex = an_best_index, .xDisconnect = an_disconnect,           \
    .xDestroy = an_disconnect, .xOpen = an_open, .xClose = an_close, .xFilter = an_filter, .xNext = an_next,     \
    .xEof = an_eof, .xColumn = an_column, .xRowid = an_rowid

/* CREATE VIRTUAL TABLE ... USING ntidx_analysis(TABLE, ...) */
static sqlite3_module analysis_module = {ANALYSIS_METHODS, .xCreate = an_create};
/* ntidx_TABLE(path, ...): eponymous only */
static sqlite3_module analysis_function_module = {ANALYSIS_METHODS};

static void last_stats(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    nsql_result_text(ctx, ((nsql_conn *)sqlite3_user_data(ctx))->last_analysis_stats);
}

int nsql_register_analyses(sqlite3 *db, nsql_conn *c)
{
    an_def *d = sqlite3_malloc64(sizeof *d);
    if (!d)
        return SQLITE_NOMEM;
    *d = (an_def){c, NULL, 0};
    int rc = sqlite3_create_module_v2(db, "ntidx_analysis", &analysis_module, d, sqlite3_free);
    for (size_t k = 0; k < ntidx_analysis_count() && rc == SQLITE_OK; k++) {
        const ntidx_analysis_info *info = ntidx_analysis_info_at(k);
        for (size_t i = 0; i < info->table_count && rc == SQLITE_OK; i++) {
            char *name = sqlite3_mprintf("ntidx_%s", ntidx_sqlite_table_name(info->tables[i].name));
            if (!(d = sqlite3_malloc64(sizeof *d)) || !name) {
                sqlite3_free(d);
                sqlite3_free(name);
                return SQLITE_NOMEM;
            }
            *d = (an_def){c, info, i};
            rc = sqlite3_create_module_v2(db, name, &analysis_function_module, d, sqlite3_free);
            sqlite3_free(name);
        }
    }
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "ntidx_analysis_stats", 0, SQLITE_UTF8 | SQLITE_INNOCUOUS, c, last_stats,
                                        NULL, NULL, NULL);
    return rc;
}
