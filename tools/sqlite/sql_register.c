/* Registration of the ntidx tables and functions on a connection (ntidx_sqlite.h). */
#include "sql_internal.h"

#include <string.h>

SQLITE_EXTENSION_INIT1

static void version(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    sqlite3_result_text(ctx, ntidx_version(), -1, SQLITE_STATIC);
}

int ntidx_sqlite_register(sqlite3 *db, char **err, const sqlite3_api_routines *api, const ntidx_sqlite_hooks *hooks)
{
    SQLITE_EXTENSION_INIT2(api);
    if (sqlite3_libversion_number() < 3038000) {
        /* sqlite3_vtab_in() and sqlite3_vtab_rhs_value() came with 3.38 */
        if (err)
            *err = sqlite3_mprintf("ntidx: SQLite %s is too old (3.38 or later is needed)", sqlite3_libversion());
        return SQLITE_ERROR;
    }
    nsql_conn *c = sqlite3_malloc64(sizeof *c);
    if (!c)
        return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    if (hooks)
        c->hooks = *hooks;
    /* the connection owns the state: ntidx_version()'s destructor frees it when the connection closes */
    int rc = sqlite3_create_function_v2(db, "ntidx_version", 0, SQLITE_UTF8 | SQLITE_INNOCUOUS | SQLITE_DETERMINISTIC,
                                        c, version, NULL, NULL, nsql_conn_free);
    if (rc != SQLITE_OK) {
        sqlite3_free(c);
        return rc;
    }
    rc = nsql_register_events(db, c);
    if (rc == SQLITE_OK)
        rc = nsql_register_companions(db, c);
    if (rc == SQLITE_OK)
        rc = nsql_register_time(db, c);
    if (rc == SQLITE_OK)
        rc = nsql_register_analyses(db, c);
    if (rc != SQLITE_OK && err)
        *err = sqlite3_mprintf("ntidx: cannot register the tables: %s", sqlite3_errmsg(db));
    return rc;
}
