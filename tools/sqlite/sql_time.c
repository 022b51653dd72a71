/*
 * Times as the command and the Python module take them, in SQL:
 * ntidx_ticks(path, time[, index]) is the tick of "1.5s", "250ms", an
 * ISO-8601 time ending in Z or ticks (ntidx_parse_time()), for WHERE
 * clauses on ts:
 *
 *   SELECT count(*) FROM events WHERE ts >= ntidx_ticks('t.nettrace', '2021-03-04T05:06:07Z')
 *
 * A time the trace's ticks do not reach is an error naming it, as it is
 * everywhere else (never the first or last tick).
 */
#include "sql_internal.h"

static void ticks(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    nsql_conn *c = sqlite3_user_data(ctx);
    const char *path = (const char *)sqlite3_value_text(argv[0]);
    if (!path || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
        sqlite3_result_null(ctx); /* NULL in, NULL out, as SQL functions go */
        return;
    }
    const char *index = argc > 2 ? (const char *)sqlite3_value_text(argv[2]) : NULL;
    nsql_source *s;
    char *err = NULL;
    if (nsql_source_get(c, path, index, &s, &err) != SQLITE_OK) {
        if (err)
            sqlite3_result_error(ctx, err, -1);
        else
            sqlite3_result_error_nomem(ctx);
        sqlite3_free(err);
        return;
    }
    /* an integer is ticks already; anything else is read as its text */
    const char *text = (const char *)sqlite3_value_text(argv[1]);
    uint64_t t;
    if (!text) {
        sqlite3_result_error_nomem(ctx);
    } else if (sqlite3_value_type(argv[1]) == SQLITE_INTEGER && sqlite3_value_int64(argv[1]) < 0) {
        char *msg = sqlite3_mprintf("ntidx_ticks: time '%s' is out of range: ticks run from 0 to "
                                    "18446744073709551615", text);
        sqlite3_result_error(ctx, msg ? msg : "out of memory", -1);
        sqlite3_free(msg);
    } else if (ntidx_parse_time(s->trace, text, &t) < 0) {
        /* a mistake in the statement, not bad input: the host's input_error hook is not told */
        char *msg = sqlite3_mprintf("ntidx_ticks: %s", ntidx_last_error_info()->what);
        sqlite3_result_error(ctx, msg ? msg : "out of memory", -1);
        sqlite3_free(msg);
    } else if (t > (uint64_t)INT64_MAX) {
        /* the ts column holds SQLite's integers too: such a tick cannot be compared with it */
        char *msg = sqlite3_mprintf("ntidx_ticks: time '%s' is tick %llu, beyond SQLite's integers "
                                    "(9223372036854775807)", text, (unsigned long long)t);
        sqlite3_result_error(ctx, msg ? msg : "out of memory", -1);
        sqlite3_free(msg);
    } else {
        sqlite3_result_int64(ctx, (sqlite3_int64)t);
    }
    nsql_source_put(s);
}

int nsql_register_time(sqlite3 *db, nsql_conn *c)
{
    /* it opens files: not for schemas (views, triggers) a database brings */
    int rc = sqlite3_create_function_v2(db, "ntidx_ticks", 2, SQLITE_UTF8 | SQLITE_DIRECTONLY, c, ticks, NULL, NULL,
                                        NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "ntidx_ticks", 3, SQLITE_UTF8 | SQLITE_DIRECTONLY, c, ticks, NULL,
                                        NULL, NULL);
    return rc;
}
