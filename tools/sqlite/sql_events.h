/*
 * Inside the events table (sql_events.c): its columns, the plan xBestIndex
 * hands xFilter (sql_plan.c: constraint values as a window, the plan as
 * text), the cursor, and the grouped scan (sql_group.c).
 */
#ifndef NTIDX_TOOLS_SQL_EVENTS_H
#define NTIDX_TOOLS_SQL_EVENTS_H

#include "sql_internal.h"
#include "damaged.h"

/* The columns, in the order of this enum inside; each table declares them in its own order (ev_vtab.col). */
enum {
    C_TS, C_TIME_S, C_PROVIDER, C_EVENT_ID, C_EVENT_NAME, C_VERSION, C_THREAD, C_CAPTURE_THREAD, C_SEQ,
    C_STACK_ID, C_OFFSET, C_FIELDS, C_ACTIVITY_ID, C_RELATED_ACTIVITY_ID, C_TRACE, C_FIELD_ERROR, C_PATH, C_INDEX,
    C_STACK_KEY, C_ON_ERROR, C_COUNT
};

/* idxNum bits */
enum { PLAN_TIME_ORDER = 1, PLAN_NO_PATH = 2, PLAN_GROUPED = 4 };
/*
 * The plan, as xBestIndex hands it to xFilter: per argument the column
 * ('a' + C_*) and the operator; the GROUP BY columns of a grouped scan; '+'
 * and '*' when its counts are split by thread and capture thread. idxStr
 * carries it as text people can read in EXPLAIN QUERY PLAN:
 * "ts>= ts<= provider=ANY GROUP(event_name) SPLIT(thread)".
 */
enum { OP_EQ = 'e', OP_GT = 'g', OP_GE = 'G', OP_LT = 'l', OP_LE = 'L', OP_IN = 'i' };

/* Constraints one plan takes at most (the rest are left to SQLite). */
#define MAX_ARGS 48

typedef struct ev_vtab {
    sqlite3_vtab base;
    nsql_conn *conn;
    int eponymous;    /* ntidx_events(path): the trace is an argument */
    int multi;        /* several traces: `trace` is the first column */
    int npaths;
    char **paths;     /* created tables */
    char *index_path; /* created tables: index='path' */
    int skip;         /* created tables: on_error='skip' (the default of their scans) */
    uint8_t col[C_COUNT]; /* declared position -> C_* */
} ev_vtab;

/* A filter: the column's value must be one of these (sorted, for a binary search). */
typedef struct ev_set {
    int col;
    size_t n;
    char **text;  /* provider, event_name, trace */
    int64_t *num; /* event_id, thread */
} ev_set;

/* Grouped scans: an event type interned, and the count of one distinct value tuple. */
typedef struct ev_type {
    char *provider, *event_name;
    int provider_len, event_name_len;
    uint32_t event_id, version;
} ev_type;

typedef struct ev_group {
    uint32_t src, type;
    uint64_t thread, capture;
    uint64_t count; /* 0: a free slot of the hash table */
} ev_group;

#define TYPE_CACHE 1024

typedef struct ev_cursor {
    sqlite3_vtab_cursor base;
    ev_vtab *vt;
    nsql_conn *conn;
    /* the plan */
    uint64_t t0, t1;          /* from ts */
    double s_lo, s_hi;        /* from time_s (seconds since the sync time), -inf..inf when none */
    int empty;                /* the constraints admit no row */
    int time_order;
    ev_set sets[MAX_ARGS];
    size_t nsets;
    char *arg_path, *arg_index;
    nsql_source **src;
    int *src_no;              /* each source's position among the table's traces (rowids) */
    int nsrc, at;
    /* the scan */
    ntidx_query *q;
    const ntidx_index *q_index; /* the index q reads through (its source's, or the one a recovery replaced) */
    const ntidx_event *e;
    int eof;
    uint64_t bytes_done, bytes, total_bytes, rows;
    /* verdict of the type filters per metadata definition */
    const ntidx_metadata *last_m;
    uint64_t last_m_offset;
    int last_m_ok;
    int skip;                 /* on_error = 'skip': damaged regions left out (damaged.h) */
    damaged_scan dmg;         /* the current source's */
    int names_checked;        /* nsql_nothing_found() looked once (a join may scan the table again and again) */
    /* fields, decoded on demand */
    int fields_state; /* 0 not yet, 1 decoded, 2 the payload does not fit its metadata */
    ntidx_buf fields;
    char *field_error;
    /* a grouped scan */
    int grouped, g_thread, g_capture;
    char gcols[C_COUNT + 1]; /* the GROUP BY columns ('a' + C_*), in order */
    ev_type *types;
    size_t ntypes, cap_types;
    struct {
        const ntidx_metadata *m;
        uint64_t offset;
        uint32_t type;
    } type_cache[TYPE_CACHE];
    ev_group *groups;
    size_t ngroups, cap_groups; /* a hash table while scanning, then a sorted array */
    size_t last_slot;           /* the slot the previous event counted in + 1 (events come in runs), 0: none */
    size_t gi;                  /* the group being handed out */
    uint64_t g_left;            /* and how many more times */
    sqlite3_int64 g_rowid;
} ev_cursor;

/* ---- sql_plan.c ---- */

/* The plan as text for idxStr, and back (0, or -1 for a text this code never made). */
char *nsql_plan_text(const char *codes, const char *group);
int nsql_plan_parse(const char *text, char *codes, size_t max_args, char *group, size_t max_group);
/* Narrow [t0, t1) by `ts OP value` as SQL compares; 1 when no row can match. */
int nsql_ts_bound(int op, sqlite3_value *val, uint64_t *t0, uint64_t *t1);
/* Narrow [lo, hi] (seconds) by `time_s OP value`; 1 when no row can match. */
int nsql_seconds_bound(int op, sqlite3_value *val, double *lo, double *hi);
/* Ticks of a time in seconds since the sync time, rounded down (up: `up`) with a margin: a superset. */
uint64_t nsql_seconds_to_ticks(const ntidx_trace *t, double s, int up);

/* ---- sql_events.c ---- */

/* Move the cursor to the next event that passes (eof at the end); SQLITE_OK or an error set on the table. */
int nsql_events_advance(ev_cursor *c);
/* The type filters (provider, event_name, event_id) of the plan, exactly as SQL compares. */
int nsql_type_passes(const ev_cursor *c, const char *provider, const char *event_name, uint32_t event_id);
/* 1 when the plan filters by thread. */
int nsql_thread_filtered(const ev_cursor *c);
/* The scan is over: the progress bar, if any, goes. */
void nsql_progress_end(ev_cursor *c);
/* The scan found no row: a name filter that names nothing is said (a warning: sqlite3_log, hook, ntidx_warning()). */
void nsql_nothing_found(ev_cursor *c);

/* ---- sql_group.c ---- */

/* Scan the whole window, counting each distinct tuple, and stand on the first group's first row. */
int nsql_group_scan(ev_cursor *c);
/* The next row of a grouped scan. */
int nsql_group_next(ev_cursor *c);
/* A column of the current row: the values of its group. */
int nsql_group_column(ev_cursor *c, sqlite3_context *ctx, int col);
/* Forget a grouped scan's counts (the names it interned stay: SQLite may still hold them, see sql_group.c). */
void nsql_group_reset(ev_cursor *c);
/* Free what a grouped scan holds (the cursor closes). */
void nsql_group_free(ev_cursor *c);

#endif
