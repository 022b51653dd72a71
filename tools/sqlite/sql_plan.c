/*
 * The events table's plan: the values of constraints as a window of ticks
 * (exactly as SQL compares an INTEGER column, or with a margin for time_s),
 * and the plan as the text of idxStr, which EXPLAIN QUERY PLAN shows.
 */
#include "sql_events.h"

#include <math.h>
#include <string.h>

static const char *const col_name[C_COUNT] = {
    "ts", "time_s", "provider", "event_id", "event_name", "version", "thread", "capture_thread", "seq",
    "stack_id", "offset", "fields", "activity_id", "related_activity_id", "trace", "field_error", "path",
    "index_path", "stack_key", "on_error"};

static const struct {
    char code;
    const char *text;
} op_text[] = {{OP_IN, "=ANY"}, {OP_GE, ">="}, {OP_LE, "<="}, {OP_EQ, "="}, {OP_GT, ">"}, {OP_LT, "<"}};

char *nsql_plan_text(const char *codes, const char *group)
{
    sqlite3_str *s = sqlite3_str_new(NULL);
    for (size_t k = 0; codes[2 * k]; k++)
        for (size_t i = 0; i < sizeof op_text / sizeof op_text[0]; i++)
            if (op_text[i].code == codes[2 * k + 1])
                sqlite3_str_appendf(s, "%s%s%s", k ? " " : "", col_name[codes[2 * k] - 'a'], op_text[i].text);
    if (*group) {
        sqlite3_str_appendf(s, "%sGROUP(", *codes ? " " : "");
        int n = 0, split = 0;
        for (const char *g = group; *g; g++)
            if (*g == '+' || *g == '*')
                split = 1;
            else
                sqlite3_str_appendf(s, "%s%s", n++ ? "," : "", col_name[*g - 'a']);
        sqlite3_str_appendall(s, ")");
        if (split) {
            sqlite3_str_appendall(s, " SPLIT(");
            n = 0;
            for (const char *g = group; *g; g++)
                if (*g == '+' || *g == '*')
                    sqlite3_str_appendf(s, "%s%s", n++ ? "," : "", *g == '+' ? "thread" : "capture_thread");
            sqlite3_str_appendall(s, ")");
        }
    }
    char *text = sqlite3_str_finish(s);
    return text ? text : sqlite3_mprintf("%s", ""); /* an empty string finishes as NULL */
}

static int col_by_name(const char *name, size_t n)
{
    for (int c = 0; c < C_COUNT; c++)
        if (strlen(col_name[c]) == n && !memcmp(col_name[c], name, n))
            return c;
    return -1;
}

/* nsql_plan_text() read back into codes (2 chars per argument) and group; 0, or -1 for a plan this code never made. */
int nsql_plan_parse(const char *text, char *codes, size_t max_args, char *group, size_t max_group)
{
    size_t nc = 0, ng = 0;
    for (const char *p = text; p && *p;) {
        const char *end = strchr(p, ' ');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > 6 && (!memcmp(p, "GROUP(", 6) || !memcmp(p, "SPLIT(", 6))) {
            int split = p[0] == 'S';
            for (const char *q = p + 6; q < p + len && *q != ')';) {
                size_t n = strcspn(q, ",)");
                int col = col_by_name(q, n);
                if (col < 0 || ng + 1 >= max_group)
                    return -1;
                group[ng++] = split ? (col == C_THREAD ? '+' : '*') : (char)('a' + col);
                q += n + (q[n] == ',');
            }
        } else {
            size_t n = strcspn(p, "=<>");
            int col = col_by_name(p, n), op = 0;
            for (size_t i = 0; i < sizeof op_text / sizeof op_text[0] && !op; i++)
                if (len - n == strlen(op_text[i].text) && !memcmp(p + n, op_text[i].text, len - n))
                    op = op_text[i].code;
            if (col < 0 || !op || nc >= max_args)
                return -1;
            codes[2 * nc] = (char)('a' + col), codes[2 * nc + 1] = (char)op;
            nc++;
        }
        p = end ? end + 1 : NULL;
    }
    codes[2 * nc] = 0;
    group[ng] = 0;
    return 0;
}
/* ------------------------------------------------------------------ */
/* Bounds                                                              */
/* ------------------------------------------------------------------ */

/*
 * Narrow [t0, t1) by `ts OP value` as SQL compares: integers exactly, reals
 * rounded outwards, text that looks like a number as that number (SQLite's
 * numeric affinity); other text and blobs sort after every integer, NULL
 * matches nothing. Returns 1 when no row can match.
 */
int nsql_ts_bound(int op, sqlite3_value *val, uint64_t *t0, uint64_t *t1)
{
    sqlite3_value *v = sqlite3_value_dup(val);
    if (!v)
        return 0; /* no narrowing: still a superset */
    int type = sqlite3_value_numeric_type(v), none = 0;
    if (type == SQLITE_NULL) {
        none = 1;
    } else if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) {
        /* the least integer that passes a lower bound, the least that fails an upper one */
        double d = sqlite3_value_double(v);
        int64_t i = sqlite3_value_int64(v);
        int exact = type == SQLITE_INTEGER;
        double lo_d = 0, hi_d = 0;
        int64_t lo = 0, hi = 0; /* exact: [lo, hi) */
        switch (op) {
        case OP_EQ: lo = i, hi = i + (i < INT64_MAX), lo_d = ceil(d), hi_d = floor(d) + 1; break;
        case OP_GT: lo = i + (i < INT64_MAX), hi = INT64_MAX, lo_d = floor(d) + 1, hi_d = 1e19; break;
        case OP_GE: lo = i, hi = INT64_MAX, lo_d = ceil(d), hi_d = 1e19; break;
        case OP_LT: lo = 0, hi = i, lo_d = 0, hi_d = ceil(d); break;
        case OP_LE: lo = 0, hi = i + (i < INT64_MAX), lo_d = 0, hi_d = floor(d) + 1; break;
        default: break;
        }
        if (exact) {
            if (op == OP_EQ && i < 0)
                none = 1;
            uint64_t a = lo < 0 ? 0 : (uint64_t)lo, b = hi < 0 ? 0 : (uint64_t)hi;
            if (op == OP_GT || op == OP_GE)
                b = UINT64_MAX;
            if (a > *t0)
                *t0 = a;
            if (b < *t1)
                *t1 = b;
        } else if (isnan(d)) {
            none = 1;
        } else {
            if (op == OP_EQ && d != floor(d))
                none = 1; /* no integer equals it */
            uint64_t a = lo_d <= 0 ? 0 : lo_d >= 1.8e19 ? UINT64_MAX : (uint64_t)lo_d;
            uint64_t b = hi_d <= 0 ? 0 : hi_d >= 1.8e19 ? UINT64_MAX : (uint64_t)hi_d;
            if (a > *t0)
                *t0 = a;
            if (b < *t1)
                *t1 = b;
        }
    } else if (op == OP_EQ || op == OP_GT || op == OP_GE) {
        none = 1; /* text or a blob: greater than every integer */
    }
    sqlite3_value_free(v);
    return none || *t0 >= *t1;
}

/* Narrow [lo, hi] (seconds) by `time_s OP value`; strictness is left to SQLite. Returns 1 when nothing matches. */
int nsql_seconds_bound(int op, sqlite3_value *val, double *lo, double *hi)
{
    sqlite3_value *v = sqlite3_value_dup(val);
    if (!v)
        return 0;
    int type = sqlite3_value_numeric_type(v), none = 0;
    if (type == SQLITE_NULL) {
        none = 1;
    } else if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) {
        double d = sqlite3_value_double(v);
        if (isnan(d))
            none = 1;
        else if (op == OP_EQ)
            *lo = d > *lo ? d : *lo, *hi = d < *hi ? d : *hi;
        else if (op == OP_GT || op == OP_GE)
            *lo = d > *lo ? d : *lo;
        else
            *hi = d < *hi ? d : *hi;
    } else if (op == OP_EQ || op == OP_GT || op == OP_GE) {
        none = 1;
    }
    sqlite3_value_free(v);
    return none || *lo > *hi;
}

/* Ticks of a time in seconds since the sync time, rounded down (up: `up`) with a margin: a superset. */
uint64_t nsql_seconds_to_ticks(const ntidx_trace *t, double s, int up)
{
    const ntidx_trace_info *i = ntidx_trace_get_info(t);
    if (isinf(s))
        return s < 0 ? 0 : UINT64_MAX;
    double ticks = s * (double)i->tick_frequency + (double)i->sync_ticks;
    double margin = 2 + fabs(ticks) * 1e-12;
    ticks = up ? ceil(ticks + margin) : floor(ticks - margin);
    if (ticks <= 0)
        return 0;
    if (ticks >= 1.8e19)
        return UINT64_MAX;
    return (uint64_t)ticks;
}

