/*
 * The events of one or several traces as an SQL table: the `ntidx` module
 * (CREATE VIRTUAL TABLE ev USING ntidx('trace'[, 'trace'...][, index='path']))
 * and the table-valued function ntidx_events(path[, index]).
 *
 * The point is pushdown. xBestIndex takes the constraints on ts and time_s
 * (=, <, <=, >, >=, BETWEEN) as the index query's window, and those on
 * provider, event_name, event_id, thread (and trace) (=, IN) as its filters;
 * its costs come from ntidx_query_estimate() of that window, so SQLite
 * picks the narrow plan; ORDER BY ts (or time_s) is consumed when one trace
 * is scanned, in time order. SQLite still checks every constraint on the
 * rows it gets (omit stays 0): the scan reads a superset of the answer (a
 * time_s bound becomes ticks with a margin, event_name filters as the
 * library matches names), never less, and the filters are checked again
 * here exactly as SQL compares.
 *
 * The `fields` column (the payload as JSON) is decoded only when read.
 *
 * GROUP BY over columns of few values is a grouped scan (sql_group.c).
 *
 * on_error = 'skip' (a hidden column, or the module argument on_error='skip'): the damaged regions of a
 * scan's window are found before its first row and left out (skip_damaged(), damaged.h), and said.
 */
#include "sql_events.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <ntidx/batch.h>

static const char *const col_decl[C_COUNT] = {
    "ts INTEGER", "time_s REAL", "provider TEXT COLLATE NOCASE", "event_id INTEGER", "event_name TEXT", "version INTEGER",
    "thread INTEGER", "capture_thread INTEGER", "seq INTEGER", "stack_id INTEGER", "\"offset\" INTEGER",
    "fields JSON", "activity_id TEXT", "related_activity_id TEXT", "trace TEXT", "field_error TEXT HIDDEN",
    "path HIDDEN", "index_path HIDDEN", "stack_key INTEGER HIDDEN", "on_error TEXT HIDDEN"};

/* Declared orders. The arguments of ntidx_events(path, index) are its first hidden columns. */
static const uint8_t order_single[] = {C_TS, C_TIME_S, C_PROVIDER, C_EVENT_ID, C_EVENT_NAME, C_VERSION, C_THREAD,
                                       C_CAPTURE_THREAD, C_SEQ, C_STACK_ID, C_OFFSET, C_FIELDS, C_ACTIVITY_ID,
                                       C_RELATED_ACTIVITY_ID, C_PATH, C_INDEX, C_TRACE, C_FIELD_ERROR,
                                       C_STACK_KEY, C_ON_ERROR};
static const uint8_t order_multi[] = {C_TRACE, C_TS, C_TIME_S, C_PROVIDER, C_EVENT_ID, C_EVENT_NAME, C_VERSION,
                                      C_THREAD, C_CAPTURE_THREAD, C_SEQ, C_STACK_ID, C_OFFSET, C_FIELDS,
                                      C_ACTIVITY_ID, C_RELATED_ACTIVITY_ID, C_PATH, C_INDEX, C_FIELD_ERROR,
                                      C_STACK_KEY, C_ON_ERROR};

/* ------------------------------------------------------------------ */
/* Tables                                                              */
/* ------------------------------------------------------------------ */

static int declare(sqlite3 *db, ev_vtab *v)
{
    const uint8_t *order = v->multi ? order_multi : order_single;
    sqlite3_str *s = sqlite3_str_new(db);
    sqlite3_str_appendall(s, "CREATE TABLE x(");
    for (int i = 0; i < C_COUNT; i++) {
        v->col[i] = order[i];
        const char *d = col_decl[order[i]];
        if (order[i] == C_TRACE && !v->multi)
            d = "trace TEXT HIDDEN";
        sqlite3_str_appendf(s, "%s%s", i ? ", " : "", d);
    }
    sqlite3_str_appendall(s, ")");
    char *sql = sqlite3_str_finish(s);
    if (!sql)
        return SQLITE_NOMEM;
    int rc = sqlite3_declare_vtab(db, sql);
    sqlite3_free(sql);
    return rc;
}

static void vtab_free(ev_vtab *v)
{
    for (int i = 0; i < v->npaths; i++)
        sqlite3_free(v->paths[i]);
    sqlite3_free(v->paths);
    sqlite3_free(v->index_path);
    sqlite3_free(v);
}

static int ev_init(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out, char **err,
                   int create)
{
    nsql_conn *c = aux;
    ev_vtab *v = sqlite3_malloc64(sizeof *v);
    if (!v)
        return SQLITE_NOMEM;
    memset(v, 0, sizeof *v);
    v->conn = c;
    v->eponymous = !strcmp(argv[0], "ntidx_events");
    if (!v->eponymous) {
        v->paths = sqlite3_malloc64((size_t)(argc > 3 ? argc - 3 : 1) * sizeof *v->paths);
        if (!v->paths) {
            vtab_free(v);
            return SQLITE_NOMEM;
        }
        for (int i = 3; i < argc; i++) {
            const char *oe = nsql_named_arg(argv[i], "on_error");
            if (oe) {
                char *val = nsql_dequote(oe);
                if (!val) {
                    vtab_free(v);
                    return SQLITE_NOMEM;
                }
                int ok = !strcmp(val, "skip") || !strcmp(val, "raise");
                v->skip = !strcmp(val, "skip");
                if (!ok)
                    *err = sqlite3_mprintf("ntidx: on_error='%s': 'raise' (the default) or 'skip'", val);
                sqlite3_free(val);
                if (!ok) {
                    vtab_free(v);
                    return SQLITE_ERROR;
                }
                continue;
            }
            const char *ix = nsql_index_arg(argv[i]);
            char *val = nsql_dequote(ix ? ix : argv[i]);
            if (!val) {
                vtab_free(v);
                return SQLITE_NOMEM;
            }
            if (!*val) {
                *err = sqlite3_mprintf("ntidx: an empty argument (%s)", argv[i]);
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
            *err = sqlite3_mprintf("ntidx: no trace: CREATE VIRTUAL TABLE ev USING ntidx('trace.nettrace'[, index='path']"
                                   "[, on_error='skip'])");
            vtab_free(v);
            return SQLITE_ERROR;
        }
        if (v->index_path && v->npaths > 1) {
            *err = sqlite3_mprintf("ntidx: index='%s' names the index of one trace, and %d traces are given",
                                   v->index_path, v->npaths);
            vtab_free(v);
            return SQLITE_ERROR;
        }
        v->multi = v->npaths > 1;
    }
    int rc = declare(db, v);
    if (rc != SQLITE_OK) {
        vtab_free(v);
        return rc;
    }
    /* A new table opens its traces now, so that a missing or bad file is said by CREATE VIRTUAL TABLE;
       a table of a saved schema opens them when first read. */
    if (create)
        for (int i = 0; i < v->npaths; i++) {
            nsql_source *s;
            if ((rc = nsql_source_get(c, v->paths[i], v->index_path, &s, err)) != SQLITE_OK) {
                vtab_free(v);
                return rc;
            }
            nsql_source_put(s);
        }
    *out = &v->base;
    return SQLITE_OK;
}

static int ev_create(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out, char **err)
{
    return ev_init(db, aux, argc, argv, out, err, 1);
}

static int ev_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out, char **err)
{
    return ev_init(db, aux, argc, argv, out, err, 0);
}

static int ev_disconnect(sqlite3_vtab *tab)
{
    vtab_free((ev_vtab *)tab);
    return SQLITE_OK;
}

/* ------------------------------------------------------------------ */
/* Planning                                                            */
/* ------------------------------------------------------------------ */

static int text_collation_binary(sqlite3_index_info *info, int i)
{
    const char *coll = sqlite3_vtab_collation(info, i);
    return !coll || !sqlite3_stricmp(coll, "BINARY");
}

/* What a plan reads, from the index: the window's bytes and events over the table's traces. */
typedef struct estimate {
    double bytes, rows;
} estimate;

static void estimate_source(nsql_source *s, uint64_t t0, uint64_t t1, double s_lo, double s_hi, estimate *e)
{
    ntidx_query_options o;
    ntidx_query_options_defaults(&o);
    o.t0 = t0;
    o.t1 = t1;
    uint64_t a = nsql_seconds_to_ticks(s->trace, s_lo, 0), b = nsql_seconds_to_ticks(s->trace, s_hi, 1);
    if (a > o.t0)
        o.t0 = a;
    if (b < o.t1)
        o.t1 = b;
    ntidx_query_cost cost;
    if (ntidx_query_estimate(s->trace, s->index, &o, &cost) < 0) {
        e->bytes += 1e9, e->rows += 1e7;
        return;
    }
    const ntidx_index_info *xi = ntidx_index_get_info(s->index);
    double per_event = xi->events != UINT64_MAX && xi->events ? (double)xi->indexed_end / (double)xi->events : 64.0;
    e->bytes += (double)cost.bytes;
    e->rows += cost.events != UINT64_MAX ? (double)cost.events : (double)cost.bytes / per_event;
}

/* Columns of few distinct values, which a grouped scan counts by. */
static int groupable(int col)
{
    return col == C_PROVIDER || col == C_EVENT_ID || col == C_EVENT_NAME || col == C_VERSION || col == C_THREAD ||
           col == C_CAPTURE_THREAD || col == C_TRACE;
}

static int ev_best_index(sqlite3_vtab *tab, sqlite3_index_info *info)
{
    ev_vtab *v = (ev_vtab *)tab;
    char codes[2 * MAX_ARGS + 1];
    int nargs = 0, plan = 0, path_cons = -1, index_cons = -1, path_unusable = 0, on_error_cons = -1;
    /* the arguments of ntidx_events() come first */
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *k = &info->aConstraint[i];
        if (k->iColumn >= 0 && v->col[k->iColumn] == C_ON_ERROR && k->op == SQLITE_INDEX_CONSTRAINT_EQ &&
            k->usable && on_error_cons < 0)
            on_error_cons = i; /* on_error = 'skip' (either table) */
        if (!v->eponymous || k->iColumn < 0 || k->op != SQLITE_INDEX_CONSTRAINT_EQ)
            continue;
        int col = v->col[k->iColumn];
        if (col == C_PATH && !k->usable)
            path_unusable = 1;
        else if (col == C_PATH && path_cons < 0)
            path_cons = i;
        else if (col == C_INDEX && k->usable && index_cons < 0)
            index_cons = i;
    }
    if (v->eponymous && path_cons < 0) {
        if (path_unusable)
            return SQLITE_CONSTRAINT; /* the path comes from a table not yet read: another join order */
        plan |= PLAN_NO_PATH;         /* no path at all: xFilter says so */
    }
    if (path_cons >= 0) {
        info->aConstraintUsage[path_cons].argvIndex = ++nargs;
        info->aConstraintUsage[path_cons].omit = 1;
        codes[2 * nargs - 2] = 'a' + C_PATH, codes[2 * nargs - 1] = OP_EQ;
    }
    if (index_cons >= 0) {
        info->aConstraintUsage[index_cons].argvIndex = ++nargs;
        info->aConstraintUsage[index_cons].omit = 1;
        codes[2 * nargs - 2] = 'a' + C_INDEX, codes[2 * nargs - 1] = OP_EQ;
    }
    if (on_error_cons >= 0) {
        info->aConstraintUsage[on_error_cons].argvIndex = ++nargs;
        info->aConstraintUsage[on_error_cons].omit = 1;
        codes[2 * nargs - 2] = 'a' + C_ON_ERROR, codes[2 * nargs - 1] = OP_EQ;
    }
    /* the window and the filters, and what the estimate knows of them now */
    uint64_t t0 = 0, t1 = UINT64_MAX;
    double s_lo = -INFINITY, s_hi = INFINITY;
    double time_share = 1.0, filter_share = 1.0; /* guesses for values known only when the scan starts */
    int known_empty = 0;
    for (int i = 0; i < info->nConstraint && nargs < MAX_ARGS; i++) {
        const struct sqlite3_index_constraint *k = &info->aConstraint[i];
        if (!k->usable || k->iColumn < 0)
            continue;
        int col = v->col[k->iColumn], op = 0;
        switch (k->op) {
        case SQLITE_INDEX_CONSTRAINT_EQ: op = OP_EQ; break;
        case SQLITE_INDEX_CONSTRAINT_GT: op = OP_GT; break;
        case SQLITE_INDEX_CONSTRAINT_GE: op = OP_GE; break;
        case SQLITE_INDEX_CONSTRAINT_LT: op = OP_LT; break;
        case SQLITE_INDEX_CONSTRAINT_LE: op = OP_LE; break;
        default: continue;
        }
        sqlite3_value *rhs = NULL;
        int known = sqlite3_vtab_rhs_value(info, i, &rhs) == SQLITE_OK && rhs;
        if (col == C_TS || col == C_TIME_S) {
            if (known && col == C_TS)
                known_empty |= nsql_ts_bound(op, rhs, &t0, &t1);
            else if (known)
                known_empty |= nsql_seconds_bound(op, rhs, &s_lo, &s_hi);
            else
                time_share *= op == OP_EQ ? 1e-4 : 0.25;
        } else if (op == OP_EQ && (col == C_PROVIDER || col == C_EVENT_NAME || col == C_EVENT_ID ||
                                   col == C_THREAD || (col == C_TRACE && v->multi))) {
            if ((col == C_EVENT_NAME || col == C_TRACE) && !text_collation_binary(info, i))
                continue; /* `= 'x' COLLATE NOCASE`: SQLite compares */
            /* provider: the scan matches without regard to case, a superset of either collation's `=` */
            if (sqlite3_vtab_in(info, i, -1)) {
                sqlite3_vtab_in(info, i, 1); /* every value of the IN list in one scan */
                op = OP_IN;
            }
            filter_share *= col == C_TRACE ? 0.5 : 0.1;
        } else {
            continue;
        }
        info->aConstraintUsage[i].argvIndex = ++nargs;
        info->aConstraintUsage[i].omit = 0; /* SQLite checks the rows again: the scan reads a superset */
        codes[2 * nargs - 2] = (char)('a' + col), codes[2 * nargs - 1] = (char)op;
    }
    codes[2 * nargs] = 0;

    /* ORDER BY ts (or time_s) [, offset]: a time-order scan of one trace gives it */
    int one_trace = v->eponymous || v->npaths == 1;
    if (one_trace && info->nOrderBy >= 1 && info->nOrderBy <= 2) {
        int ok = 1;
        for (int j = 0; j < info->nOrderBy && ok; j++) {
            const struct sqlite3_index_orderby *o = &info->aOrderBy[j];
            int col = o->iColumn >= 0 ? v->col[o->iColumn] : -1;
            ok = !o->desc && (j == 0 ? (col == C_TS || col == C_TIME_S) : (col == C_OFFSET || col == -1));
        }
        if (ok) {
            info->orderByConsumed = 1;
            plan |= PLAN_TIME_ORDER;
        }
    }

    /* GROUP BY over columns of few values, and no other column read: a grouped scan */
    char group[C_COUNT + 4] = "";
    /* (not while damaged regions are left out: the grouped scan counts through the statistics, which the
       regions' check does not cover) */
    if (!(plan & PLAN_TIME_ORDER) && !v->skip && on_error_cons < 0 && info->nOrderBy > 0 && info->nOrderBy <= C_COUNT &&
        sqlite3_vtab_distinct(info) == 1) {
        uint64_t allowed = 0;
        for (int i = 0; i < C_COUNT; i++)
            if (groupable(v->col[i]) || v->col[i] == C_PATH || v->col[i] == C_INDEX)
                allowed |= 1ull << i;
        int ok = (info->colUsed & ~allowed) == 0, n = 0;
        for (int j = 0; j < info->nOrderBy && ok; j++) {
            int col = info->aOrderBy[j].iColumn >= 0 ? v->col[info->aOrderBy[j].iColumn] : -1;
            ok = col >= 0 && groupable(col);
            if (ok)
                group[n++] = (char)('a' + col);
        }
        group[n] = 0;
        if (ok) {
            for (int i = 0; i < C_COUNT; i++) /* the thread columns split the counts only when read */
                if (info->colUsed & (1ull << i) && (v->col[i] == C_THREAD || v->col[i] == C_CAPTURE_THREAD))
                    group[n++] = v->col[i] == C_THREAD ? '+' : '*';
            group[n] = 0;
            info->orderByConsumed = 1;
            plan |= PLAN_GROUPED;
        }
    }

    /* the cost: the bytes the index says the window reads, and its events */
    estimate e = {0, 0};
    int measured = 0;
    if (!v->eponymous) {
        for (int i = 0; i < v->npaths; i++) {
            nsql_source *s;
            char *err = NULL;
            if (nsql_source_get(v->conn, v->paths[i], v->index_path, &s, &err) == SQLITE_OK) {
                estimate_source(s, t0, t1, s_lo, s_hi, &e);
                nsql_source_put(s);
                measured = 1;
            }
            sqlite3_free(err); /* xFilter says it */
        }
    } else if (path_cons >= 0) {
        sqlite3_value *pv = NULL, *iv = NULL;
        if (sqlite3_vtab_rhs_value(info, path_cons, &pv) == SQLITE_OK && pv && sqlite3_value_text(pv) &&
            (index_cons < 0 || (sqlite3_vtab_rhs_value(info, index_cons, &iv) == SQLITE_OK && iv))) {
            nsql_source *s;
            char *err = NULL;
            const char *ip = iv ? (const char *)sqlite3_value_text(iv) : NULL;
            if (nsql_source_get(v->conn, (const char *)sqlite3_value_text(pv), ip, &s, &err) == SQLITE_OK) {
                estimate_source(s, t0, t1, s_lo, s_hi, &e);
                nsql_source_put(s);
                measured = 1;
            }
            sqlite3_free(err);
        }
    }
    if (!measured)
        e.bytes = 1e9, e.rows = 1e7; /* a trace of a gigabyte, unseen yet */
    if (known_empty)
        e.bytes = 0, e.rows = 0;
    /* bounds known only when the scan starts (a join's values) keep a guessed share */
    double bytes = e.bytes * time_share, rows = e.rows * time_share * filter_share;
    info->estimatedCost = 10.0 + bytes / 256.0 + rows * 0.05;
    info->estimatedRows = rows < 1 ? 1 : (sqlite3_int64)rows;
    info->idxNum = plan;
    info->idxStr = nsql_plan_text(codes, group);
    info->needToFreeIdxStr = 1;
    return info->idxStr ? SQLITE_OK : SQLITE_NOMEM;
}

/* ------------------------------------------------------------------ */
/* Cursors                                                             */
/* ------------------------------------------------------------------ */

static int ev_open(sqlite3_vtab *tab, sqlite3_vtab_cursor **out)
{
    ev_cursor *c = sqlite3_malloc64(sizeof *c);
    if (!c)
        return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    c->vt = (ev_vtab *)tab;
    c->conn = c->vt->conn;
    *out = &c->base;
    return SQLITE_OK;
}

void nsql_progress_end(ev_cursor *c)
{
    if (c->total_bytes && c->conn->hooks.progress_end)
        c->conn->hooks.progress_end(c->conn->hooks.ctx);
    c->total_bytes = 0;
}

static void reset(ev_cursor *c)
{
    ntidx_query_close(&c->q);
    damaged_scan_free(&c->dmg);
    c->skip = 0;
    nsql_progress_end(c);
    for (size_t i = 0; i < c->nsets; i++) {
        ev_set *s = &c->sets[i];
        for (size_t k = 0; s->text && k < s->n; k++)
            sqlite3_free(s->text[k]);
        sqlite3_free(s->text);
        sqlite3_free(s->num);
    }
    c->nsets = 0;
    for (int i = 0; i < c->nsrc; i++)
        nsql_source_put(c->src[i]);
    sqlite3_free(c->src);
    sqlite3_free(c->src_no);
    c->src = NULL;
    c->src_no = NULL;
    c->nsrc = c->at = 0;
    sqlite3_free(c->arg_path);
    sqlite3_free(c->arg_index);
    c->arg_path = c->arg_index = NULL;
    c->e = NULL;
    c->eof = 1;
    c->empty = 0;
    c->bytes_done = c->bytes = c->rows = 0;
    c->last_m = NULL;
    c->fields_state = 0;
    sqlite3_free(c->field_error);
    c->field_error = NULL;
    nsql_group_reset(c);
}

static int ev_close(sqlite3_vtab_cursor *cur)
{
    ev_cursor *c = (ev_cursor *)cur;
    reset(c);
    nsql_group_free(c);
    if (c->conn->last_scan == c)
        c->conn->last_scan = NULL; /* ntidx_bytes_read() keeps its figure */
    ntidx_buf_free(&c->fields);
    sqlite3_free(c);
    return SQLITE_OK;
}

static int cmp_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Providers: without regard to ASCII case (the column's NOCASE, and EventPipe's rule). */
static int cmp_nocase(const void *a, const void *b)
{
    return sqlite3_stricmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_num(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Add one value to a set as SQL's `col = value` would compare it; NULL and values no row can equal add nothing. */
static int set_add(ev_set *s, sqlite3_value *val, size_t *cap)
{
    if (s->n == *cap) {
        size_t n = *cap ? *cap * 2 : 4;
        if (s->text || s->col == C_PROVIDER || s->col == C_EVENT_NAME || s->col == C_TRACE) {
            char **t = sqlite3_realloc64(s->text, n * sizeof *t);
            if (!t)
                return SQLITE_NOMEM;
            s->text = t;
        } else {
            int64_t *t = sqlite3_realloc64(s->num, n * sizeof *t);
            if (!t)
                return SQLITE_NOMEM;
            s->num = t;
        }
        *cap = n;
    }
    if (sqlite3_value_type(val) == SQLITE_NULL)
        return SQLITE_OK;
    if (s->col == C_PROVIDER || s->col == C_EVENT_NAME || s->col == C_TRACE) {
        /* a TEXT column: SQLite compares a number as its text */
        const unsigned char *txt = sqlite3_value_text(val);
        if (!txt)
            return SQLITE_NOMEM;
        char *copy = sqlite3_mprintf("%s", (const char *)txt);
        if (!copy)
            return SQLITE_NOMEM;
        s->text[s->n++] = copy;
        return SQLITE_OK;
    }
    sqlite3_value *v = sqlite3_value_dup(val);
    if (!v)
        return SQLITE_NOMEM;
    int type = sqlite3_value_numeric_type(v);
    if (type == SQLITE_INTEGER) {
        s->num[s->n++] = sqlite3_value_int64(v);
    } else if (type == SQLITE_FLOAT) {
        double d = sqlite3_value_double(v);
        if (d == floor(d) && d >= -9.2e18 && d <= 9.2e18)
            s->num[s->n++] = (int64_t)d;
    } /* text or a blob equals no integer */
    sqlite3_value_free(v);
    return SQLITE_OK;
}

static int set_has_text(const ev_set *s, const char *x)
{
    return bsearch(&x, s->text, s->n, sizeof *s->text, s->col == C_PROVIDER ? cmp_nocase : cmp_text) != NULL;
}

static int set_has_num(const ev_set *s, int64_t x) { return bsearch(&x, s->num, s->n, sizeof *s->num, cmp_num) != NULL; }

int nsql_type_passes(const ev_cursor *c, const char *provider, const char *event_name, uint32_t event_id)
{
    int ok = 1;
    for (size_t i = 0; i < c->nsets && ok; i++) {
        const ev_set *s = &c->sets[i];
        if (s->col == C_PROVIDER)
            ok = set_has_text(s, provider);
        else if (s->col == C_EVENT_NAME)
            ok = set_has_text(s, event_name);
        else if (s->col == C_EVENT_ID)
            ok = set_has_num(s, (int64_t)event_id);
    }
    return ok;
}

int nsql_thread_filtered(const ev_cursor *c)
{
    for (size_t i = 0; i < c->nsets; i++)
        if (c->sets[i].col == C_THREAD)
            return 1;
    return 0;
}

/* The type filters, once per definition. */
static int type_passes(ev_cursor *c, const ntidx_metadata *m)
{
    if (m == c->last_m && ntidx_metadata_key(m) == c->last_m_offset)
        return c->last_m_ok;
    int ok = nsql_type_passes(c, m->provider, m->event_name, m->event_id);
    c->last_m = m;
    c->last_m_offset = ntidx_metadata_key(m); /* derived rows share the offset */
    c->last_m_ok = ok;
    return ok;
}

static int row_passes(ev_cursor *c, const ntidx_event *e)
{
    if (!type_passes(c, e->metadata))
        return 0;
    for (size_t i = 0; i < c->nsets; i++)
        if (c->sets[i].col == C_THREAD && !set_has_num(&c->sets[i], (int64_t)e->thread_id))
            return 0;
    return 1;
}

static const ev_set *single_set(const ev_cursor *c, int col)
{
    for (size_t i = 0; i < c->nsets; i++)
        if (c->sets[i].col == col && c->sets[i].n == 1)
            return &c->sets[i];
    return NULL;
}

/* The index query of source `i`: the window, and the filters the library applies (one value each). */
static void query_options(const ev_cursor *c, nsql_source *s, ntidx_query_options *o)
{
    ntidx_query_options_defaults(o);
    o->t0 = c->t0;
    o->t1 = c->t1;
    uint64_t a = nsql_seconds_to_ticks(s->trace, c->s_lo, 0), b = nsql_seconds_to_ticks(s->trace, c->s_hi, 1);
    if (a > o->t0)
        o->t0 = a;
    if (b < o->t1)
        o->t1 = b;
    o->order = c->time_order ? NTIDX_ORDER_TIME : NTIDX_ORDER_FILE;
    const ev_set *p = single_set(c, C_PROVIDER), *n = single_set(c, C_EVENT_NAME), *id = single_set(c, C_EVENT_ID),
                 *th = single_set(c, C_THREAD);
    if (p)
        o->provider = p->text[0];
    if (n)
        o->event_name = n->text[0]; /* the library matches names loosely: row_passes() compares exactly */
    if (id && id->num[0] >= 0 && id->num[0] <= UINT32_MAX)
        o->has_event_id = 1, o->event_id = (uint32_t)id->num[0];
    if (th && th->num[0] >= 0)
        o->has_thread = 1, o->thread = (uint64_t)th->num[0];
}

static int cursor_error(ev_cursor *c, char *msg)
{
    c->eof = 1;
    return nsql_vtab_error(&c->vt->base, msg);
}

/* The library's error, with its SQLite code (SQLITE_IOERR for a trace that shrank while it was read). */
static int cursor_library_error(ev_cursor *c)
{
    c->eof = 1;
    return nsql_library_fail(&c->vt->base, c->conn);
}

/* A JSON string literal of s, escaped by the library's one policy (invalid UTF-8 becomes U+FFFD). */
static void json_string(sqlite3_str *j, const char *s)
{
    ntidx_buf b = {0};
    if (ntidx_buf_append_json_string(&b, s, strlen(s)) == NTIDX_OK)
        sqlite3_str_append(j, b.data, (int)b.len);
    else
        sqlite3_str_appendall(j, "null");
    ntidx_buf_free(&b);
}

/*
 * on_error = 'skip': the regions of source s that the query `o` would fail on with damage inside them are
 * found first (damaged.h: each region read alone), and o reads the others only, so no row of a damaged region
 * is ever returned. Each region left out is said: sqlite3_log(SQLITE_WARNING), the host's warning hook (`ntidx
 * sql` prints it on stderr), ntidx_warning() and ntidx_damaged_regions(). 0, or the library's error (damage
 * outside a region: the definitions every region needs).
 */
static int skip_damaged(ev_cursor *c, nsql_source *s, ntidx_query_options *o)
{
    damaged_scan_free(&c->dmg);
    int rc = damaged_scan_run(s->trace, s->index, o, &c->dmg);
    if (nsql_source_recover(s, s->index, rc))
        rc = damaged_scan_run(s->trace, s->index, o, &c->dmg);
    if (rc < 0)
        return rc;
    if (!c->dmg.nbad)
        return 0;
    o->regions = c->dmg.good; /* not NULL: none at all when every region was damaged */
    o->region_count = c->dmg.ngood;
    sqlite3_str *m = sqlite3_str_new(NULL), *j = sqlite3_str_new(NULL);
    const char *prev = c->conn->last_damaged;
    sqlite3_str_appendf(j, "%.*s", prev ? (int)strlen(prev) - 1 : 0, prev ? prev : "");
    sqlite3_str_appendall(j, prev && strlen(prev) > 2 ? "," : prev ? "" : "[");
    sqlite3_str_appendf(m, "%llu damaged region%s left out of the scan", (unsigned long long)c->dmg.nbad,
                        c->dmg.nbad == 1 ? "" : "s");
    for (size_t i = 0; i < c->dmg.nbad; i++) {
        const damaged_region *d = &c->dmg.bad[i];
        sqlite3_str_appendf(m, "; region %llu (offset %llu, %llu bytes) skipped: %s", (unsigned long long)d->region,
                            (unsigned long long)d->offset, (unsigned long long)d->bytes, d->message);
        sqlite3_str_appendf(j, "%s{\"trace\":", i ? "," : "");
        json_string(j, s->path);
        sqlite3_str_appendf(j, ",\"region\":%llu,\"offset\":%llu,\"bytes\":%llu,\"at\":%llu,\"error\":",
                            (unsigned long long)d->region, (unsigned long long)d->offset,
                            (unsigned long long)d->bytes, (unsigned long long)d->at);
        json_string(j, d->message);
        sqlite3_str_appendall(j, "}");
    }
    sqlite3_str_appendall(j, "]");
    char *msg = sqlite3_str_finish(m), *json = sqlite3_str_finish(j);
    if (!msg || !json) {
        sqlite3_free(msg);
        sqlite3_free(json);
        return NTIDX_E_NOMEM;
    }
    sqlite3_free(c->conn->last_damaged);
    c->conn->last_damaged = json;
    sqlite3_log(SQLITE_WARNING, "ntidx: %s: %s", s->path, msg);
    char *all = c->conn->last_warning ? sqlite3_mprintf("%s; %s: %s", c->conn->last_warning, s->path, msg)
                                      : sqlite3_mprintf("%s: %s", s->path, msg);
    if (all) {
        sqlite3_free(c->conn->last_warning);
        c->conn->last_warning = all;
    }
    if (c->conn->hooks.damaged)
        c->conn->hooks.damaged(c->conn->hooks.ctx, s->path, msg);
    else if (c->conn->hooks.warning)
        c->conn->hooks.warning(c->conn->hooks.ctx, s->path, msg);
    sqlite3_free(msg);
    return 0;
}

/* Move to the next row: the next event of the current trace's query that passes, or of the next trace. */
int nsql_events_advance(ev_cursor *c)
{
    c->fields_state = 0;
    sqlite3_free(c->field_error);
    c->field_error = NULL;
    for (;;) {
        if (!c->q) {
            if (c->at >= c->nsrc) {
                c->eof = 1;
                nsql_progress_end(c);
                if (!c->rows)
                    nsql_nothing_found(c);
                return SQLITE_OK;
            }
            ntidx_query_options o;
            query_options(c, c->src[c->at], &o);
            if (c->skip && skip_damaged(c, c->src[c->at], &o) < 0)
                return cursor_library_error(c);
            c->q_index = c->src[c->at]->index;
            if (ntidx_query_open(c->src[c->at]->trace, c->q_index, &o, &c->q) < 0)
                return cursor_library_error(c);
        }
        const ntidx_event *e;
        int rc = ntidx_query_next(c->q, &e);
        if (nsql_source_recover(c->src[c->at], c->q_index, rc) &&
            (rc = ntidx_query_resume(c->q, c->src[c->at]->index)) == NTIDX_OK) {
            c->q_index = c->src[c->at]->index; /* went on from where it stopped: no row repeated or lost */
            rc = ntidx_query_next(c->q, &e);
        }
        if (rc < 0)
            return cursor_library_error(c);
        c->bytes = c->bytes_done + ntidx_query_get_stats(c->q)->bytes_read;
        if (c->conn->last_scan == c)
            c->conn->last_bytes = c->bytes;
        if (rc == 0) {
            c->bytes_done = c->bytes;
            ntidx_query_close(&c->q);
            c->at++;
            continue;
        }
        if (c->nsets && !row_passes(c, e))
            continue;
        c->e = e;
        if ((++c->rows & 4095) == 0 && c->total_bytes && c->conn->hooks.progress &&
            c->conn->hooks.progress(c->conn->hooks.ctx, "ntidx: scanning", c->bytes, c->total_bytes))
            return cursor_error(c, sqlite3_mprintf("ntidx: cancelled"));
        return SQLITE_OK;
    }
}

/* The name filters of the plan that name nothing in source `s`, said in `msg` ("" when each names something). */
static int names_message(ev_cursor *c, nsql_source *s, ntidx_buf *msg)
{
    const ev_set *p = NULL, *n = NULL, *id = NULL;
    for (size_t i = 0; i < c->nsets; i++) {
        const ev_set *x = &c->sets[i];
        if (x->col == C_PROVIDER && !p)
            p = x;
        else if (x->col == C_EVENT_NAME && !n)
            n = x;
        else if (x->col == C_EVENT_ID && !id)
            id = x;
    }
    int one = (!p || p->n == 1) && (!n || n->n == 1) && (!id || id->n == 1);
    for (int pass = 0; pass < (one ? 1 : 2); pass++) {
        /* one value each: the filters together, as the library checks them; IN lists: each name alone */
        const ev_set *set = one ? NULL : pass ? n : p;
        size_t count = one ? 1 : set ? set->n : 0;
        for (size_t k = 0; k < count; k++) {
            ntidx_query_options o;
            ntidx_query_options_defaults(&o);
            if (one) {
                o.provider = p ? p->text[0] : NULL;
                o.event_name = n ? n->text[0] : NULL;
                if (id && id->num[0] >= 0 && id->num[0] <= UINT32_MAX)
                    o.has_event_id = 1, o.event_id = (uint32_t)id->num[0];
            } else if (pass == 0) {
                o.provider = set->text[k];
            } else {
                o.event_name = set->text[k];
            }
            ntidx_buf part = {0};
            int rc = ntidx_index_check_names(s->trace, s->index, &o, &part);
            if (rc == 1 && ((msg->len && ntidx_buf_append(msg, "; ", 2) < 0) ||
                            ntidx_buf_append(msg, part.data, part.len) < 0))
                rc = NTIDX_E_NOMEM;
            ntidx_buf_free(&part);
            if (rc < 0)
                return rc;
        }
    }
    return 0;
}

void nsql_nothing_found(ev_cursor *c)
{
    if (c->names_checked || !c->nsrc)
        return;
    c->names_checked = 1;
    int named = 0;
    for (size_t i = 0; i < c->nsets; i++)
        named |= c->sets[i].col == C_PROVIDER || c->sets[i].col == C_EVENT_NAME || c->sets[i].col == C_EVENT_ID;
    if (!named)
        return;
    /* said only when the names name nothing in every trace read (a window may be empty in one of them) */
    ntidx_buf first = {0};
    for (int i = 0; i < c->nsrc; i++) {
        ntidx_buf msg = {0};
        int rc = names_message(c, c->src[i], &msg);
        int quiet = rc < 0 || !msg.len;
        if (i == 0 && !quiet)
            first = msg;
        else
            ntidx_buf_free(&msg);
        if (quiet) {
            ntidx_buf_free(&first);
            return;
        }
    }
    const char *trace = c->src[0]->path;
    sqlite3_log(SQLITE_WARNING, "ntidx: %s: %s", trace, first.data);
    sqlite3_free(c->conn->last_warning);
    c->conn->last_warning = sqlite3_mprintf("%s: %s", trace, first.data);
    if (c->conn->hooks.warning)
        c->conn->hooks.warning(c->conn->hooks.ctx, trace, first.data);
    ntidx_buf_free(&first);
}

static int ev_filter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr, int argc, sqlite3_value **argv)
{
    ev_cursor *c = (ev_cursor *)cur;
    ev_vtab *v = c->vt;
    reset(c);
    c->eof = 0;
    c->t0 = 0;
    c->t1 = UINT64_MAX;
    c->s_lo = -INFINITY;
    c->s_hi = INFINITY;
    c->time_order = (idxNum & PLAN_TIME_ORDER) != 0;
    c->skip = v->skip;
    sqlite3_free(c->conn->last_damaged);
    c->conn->last_damaged = NULL;
    c->conn->last_scan = c;
    c->conn->last_bytes = 0;
    sqlite3_free(c->conn->last_warning);
    c->conn->last_warning = NULL;
    if (idxNum & PLAN_NO_PATH)
        return cursor_error(c, sqlite3_mprintf("ntidx_events: which trace? ntidx_events('trace.nettrace'[, 'index'])"));
    char codes[2 * MAX_ARGS + 1], group[C_COUNT + 4];
    if (nsql_plan_parse(idxStr, codes, MAX_ARGS, group, sizeof group) < 0)
        return cursor_error(c, sqlite3_mprintf("ntidx: internal error: a plan it cannot read: %s", idxStr));
    size_t ncodes = strlen(codes) / 2;
    if (idxNum & PLAN_GROUPED) {
        c->grouped = 1;
        size_t n = 0;
        for (const char *g = group; *g; g++) {
            if (*g == '+')
                c->g_thread = 1;
            else if (*g == '*')
                c->g_capture = 1;
            else
                c->gcols[n++] = *g;
        }
        c->gcols[n] = 0;
    }
    for (size_t k = 0; k < ncodes && (int)k < argc; k++) {
        int col = codes[2 * k] - 'a', op = codes[2 * k + 1];
        sqlite3_value *a = argv[k];
        if (col == C_ON_ERROR) {
            const char *txt = (const char *)sqlite3_value_text(a);
            if (!txt || (strcmp(txt, "skip") && strcmp(txt, "raise")))
                return cursor_error(c, sqlite3_mprintf("ntidx: on_error = '%s': 'raise' (the default) or 'skip'",
                                                       txt ? txt : "NULL"));
            c->skip = !strcmp(txt, "skip");
            continue;
        }
        if (col == C_PATH || col == C_INDEX) {
            const unsigned char *txt = sqlite3_value_text(a);
            if (!txt) {
                if (col == C_PATH)
                    c->empty = 1; /* path = NULL: no trace */
                continue;
            }
            char **dst = col == C_PATH ? &c->arg_path : &c->arg_index;
            if (!(*dst = sqlite3_mprintf("%s", (const char *)txt)))
                return SQLITE_NOMEM;
        } else if (col == C_TS) {
            c->empty |= nsql_ts_bound(op, a, &c->t0, &c->t1);
        } else if (col == C_TIME_S) {
            c->empty |= nsql_seconds_bound(op, a, &c->s_lo, &c->s_hi);
        } else if (c->nsets < MAX_ARGS) {
            ev_set *s = &c->sets[c->nsets++];
            memset(s, 0, sizeof *s);
            s->col = col;
            size_t cap = 0;
            int rc = SQLITE_OK;
            if (op == OP_IN) {
                sqlite3_value *x;
                for (rc = sqlite3_vtab_in_first(a, &x); rc == SQLITE_OK && x; rc = sqlite3_vtab_in_next(a, &x))
                    if ((rc = set_add(s, x, &cap)) != SQLITE_OK)
                        break;
                if (rc == SQLITE_DONE)
                    rc = SQLITE_OK;
            } else {
                rc = set_add(s, a, &cap);
            }
            if (rc != SQLITE_OK)
                return rc;
            if (s->text)
                qsort(s->text, s->n, sizeof *s->text, s->col == C_PROVIDER ? cmp_nocase : cmp_text);
            if (s->num)
                qsort(s->num, s->n, sizeof *s->num, cmp_num);
            if (!s->n)
                c->empty = 1; /* `= NULL`, or only values no row can equal */
        }
    }
    if (c->empty) {
        c->eof = 1;
        return SQLITE_OK;
    }
    /* the traces to read */
    int n = v->eponymous ? 1 : v->npaths;
    c->src = sqlite3_malloc64((size_t)n * sizeof *c->src);
    c->src_no = sqlite3_malloc64((size_t)n * sizeof *c->src_no);
    if (!c->src || !c->src_no)
        return SQLITE_NOMEM;
    for (int i = 0; i < n; i++) {
        const char *path = v->eponymous ? c->arg_path : v->paths[i];
        int wanted = 1;
        for (size_t k = 0; k < c->nsets && wanted; k++)
            if (c->sets[k].col == C_TRACE)
                wanted = set_has_text(&c->sets[k], path);
        if (!wanted)
            continue;
        char *err = NULL;
        int rc = nsql_source_get(c->conn, path, v->eponymous ? c->arg_index : v->index_path, &c->src[c->nsrc], &err);
        if (rc != SQLITE_OK)
            return err ? cursor_error(c, err) : rc;
        c->src_no[c->nsrc++] = i;
    }
    if (c->conn->hooks.progress) {
        /* the bytes the scan will read, for a progress bar */
        estimate e = {0, 0};
        for (int i = 0; i < c->nsrc; i++)
            estimate_source(c->src[i], c->t0, c->t1, c->s_lo, c->s_hi, &e);
        c->total_bytes = (uint64_t)e.bytes;
    }
    return c->grouped ? nsql_group_scan(c) : nsql_events_advance(c);
}

static int ev_next(sqlite3_vtab_cursor *cur)
{
    ev_cursor *c = (ev_cursor *)cur;
    return c->grouped ? nsql_group_next(c) : nsql_events_advance(c);
}

static int ev_eof(sqlite3_vtab_cursor *cur) { return ((ev_cursor *)cur)->eof; }

/* The event's activity id (or related activity id): 16 bytes before V6, a label in V6; 0 when none or empty. */
static int activity(const ntidx_event *e, int related, uint8_t out[16])
{
    const uint8_t *g = related ? e->related_activity_id : e->activity_id;
    if (g) {
        memcpy(out, g, 16);
    } else if (e->label_list) {
        const uint8_t *p = e->label_list, *end = p + e->label_list_size;
        ntidx_label l;
        int want = related ? NTIDX_LABEL_RELATED_ACTIVITY_ID : NTIDX_LABEL_ACTIVITY_ID, found = 0;
        while (!found && ntidx_label_next(&p, end, &l) == 1)
            if (l.kind == want)
                memcpy(out, l.guid, 16), found = 1;
        if (!found)
            return 0;
    } else {
        return 0;
    }
    for (int i = 0; i < 16; i++)
        if (out[i])
            return 1;
    return 0;
}

/* Decode the payload once per row, for `fields` and `field_error`. */
static int decode_fields(ev_cursor *c)
{
    if (c->fields_state)
        return SQLITE_OK;
    c->fields.len = 0;
    int rc = ntidx_event_fields_json(c->src[c->at]->trace, c->e, &c->fields);
    if (rc == NTIDX_E_NOMEM)
        return SQLITE_NOMEM;
    if (rc < 0 && rc != NTIDX_E_PAYLOAD) /* not the payload's fault: the trace could not be read */
        return nsql_library_code(rc);
    if (rc < 0) {
        c->field_error = sqlite3_mprintf("%s", ntidx_last_error_info()->what);
        c->fields_state = 2;
    } else {
        c->fields_state = 1;
    }
    return SQLITE_OK;
}

/* A column of the current event (kept out of ev_column(), whose grouped rows come by the million). */
__attribute__((noinline)) static int event_column(ev_cursor *c, sqlite3_context *ctx, int i)
{
    const ntidx_event *e = c->e;
    const ntidx_metadata *m = e->metadata;
    nsql_source *s = c->src[c->at];
    switch (c->vt->col[i]) {
    case C_TS: sqlite3_result_int64(ctx, (sqlite3_int64)e->timestamp); break;
    case C_TIME_S: sqlite3_result_double(ctx, ntidx_ticks_to_seconds(s->trace, e->timestamp)); break;
    case C_PROVIDER: sqlite3_result_text(ctx, m->provider, -1, SQLITE_TRANSIENT); break;
    case C_EVENT_ID: sqlite3_result_int64(ctx, m->event_id); break;
    case C_EVENT_NAME: sqlite3_result_text(ctx, m->event_name, -1, SQLITE_TRANSIENT); break;
    case C_VERSION: sqlite3_result_int64(ctx, m->version); break;
    case C_THREAD: sqlite3_result_int64(ctx, (sqlite3_int64)e->thread_id); break;
    case C_CAPTURE_THREAD: sqlite3_result_int64(ctx, (sqlite3_int64)e->capture_thread_id); break;
    case C_SEQ: sqlite3_result_int64(ctx, e->sequence_number); break;
    case C_STACK_ID: sqlite3_result_int64(ctx, e->stack_id); break;
    case C_OFFSET: sqlite3_result_int64(ctx, (sqlite3_int64)e->offset); break;
    case C_FIELDS:
    case C_FIELD_ERROR: {
        int frc = decode_fields(c);
        if (frc == SQLITE_NOMEM) {
            sqlite3_result_error_nomem(ctx);
            break;
        }
        if (frc != SQLITE_OK) {
            sqlite3_free(nsql_library_error(c->conn)); /* the host told, as of a read's error */
            sqlite3_result_error(ctx, ntidx_last_error(), -1);
            sqlite3_result_error_code(ctx, frc);
            break;
        }
        if (c->vt->col[i] == C_FIELDS && c->fields_state == 1)
            sqlite3_result_text(ctx, c->fields.data, (int)c->fields.len, SQLITE_TRANSIENT);
        else if (c->vt->col[i] == C_FIELD_ERROR && c->fields_state == 2)
            sqlite3_result_text(ctx, c->field_error, -1, SQLITE_TRANSIENT);
        else
            sqlite3_result_null(ctx);
        break;
    }
    case C_ACTIVITY_ID:
    case C_RELATED_ACTIVITY_ID: {
        uint8_t g[16];
        char text[37];
        if (activity(e, c->vt->col[i] == C_RELATED_ACTIVITY_ID, g)) {
            ntidx_guid_format(g, text);
            sqlite3_result_text(ctx, text, 36, SQLITE_TRANSIENT);
        } else {
            sqlite3_result_null(ctx);
        }
        break;
    }
    case C_TRACE:
    case C_PATH: sqlite3_result_text(ctx, s->path, -1, SQLITE_TRANSIENT); break;
    case C_INDEX: nsql_result_text(ctx, s->index_path); break;
    case C_ON_ERROR: sqlite3_result_text(ctx, c->skip ? "skip" : "raise", -1, SQLITE_STATIC); break;
    case C_STACK_KEY:
        /* where the stack's bytes are in the file: the key of ntidx_stacks (stack ids are reused) */
        if (e->stack && e->stack_size)
            sqlite3_result_int64(ctx, (sqlite3_int64)(e->stack - ntidx_trace_data(s->trace, NULL)));
        else
            sqlite3_result_null(ctx);
        break;
    default: sqlite3_result_null(ctx); break;
    }
    return SQLITE_OK;
}

static int ev_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i)
{
    ev_cursor *c = (ev_cursor *)cur;
    return c->grouped ? nsql_group_column(c, ctx, c->vt->col[i]) : event_column(c, ctx, i);
}

static int ev_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
    ev_cursor *c = (ev_cursor *)cur;
    if (c->grouped) {
        *rowid = c->g_rowid;
        return SQLITE_OK;
    }
    /* the event's file offset, unique in its trace; with several traces, the trace's position above it */
    *rowid = (sqlite3_int64)(((uint64_t)c->src_no[c->at] << 48) | (c->e->offset & ((1ull << 48) - 1)));
    return SQLITE_OK;
}

/* The two modules share every method; only the created table has xCreate (the function is eponymous only). */
#define EVENTS_METHODS                                                                                           \
    .iVersion = 0, .xConnect = ev_connect, .xBestIndex = ev_best_index, .xDisconnect = ev_disconnect,           \
    .xDestroy = ev_disconnect, .xOpen = ev_open, .xClose = ev_close, .xFilter = ev_filter, .xNext = ev_next,     \
    .xEof = ev_eof, .xColumn = ev_column, .xRowid = ev_rowid

static sqlite3_module events_module = {EVENTS_METHODS, .xCreate = ev_create};
/* ntidx_events(path) */
static sqlite3_module events_function_module = {EVENTS_METHODS};

static void last_warning(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    nsql_result_text(ctx, ((nsql_conn *)sqlite3_user_data(ctx))->last_warning);
}

static void damaged_regions(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    const char *j = ((nsql_conn *)sqlite3_user_data(ctx))->last_damaged;
    sqlite3_result_text(ctx, j ? j : "[]", -1, SQLITE_TRANSIENT);
}

static void bytes_read(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    nsql_conn *c = sqlite3_user_data(ctx);
    sqlite3_result_int64(ctx, (sqlite3_int64)c->last_bytes);
}

int nsql_register_events(sqlite3 *db, nsql_conn *c)
{
    int rc = sqlite3_create_module_v2(db, "ntidx", &events_module, c, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_module_v2(db, "ntidx_events", &events_function_module, c, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "ntidx_bytes_read", 0, SQLITE_UTF8 | SQLITE_INNOCUOUS, c, bytes_read,
                                        NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "ntidx_damaged_regions", 0, SQLITE_UTF8 | SQLITE_INNOCUOUS, c,
                                        damaged_regions, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "ntidx_warning", 0, SQLITE_UTF8 | SQLITE_INNOCUOUS, c, last_warning,
                                        NULL, NULL, NULL);
    return rc;
}
