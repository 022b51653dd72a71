/*
 * The loadable SQLite extension: build/tools/sqlite/ntidx.so, entry point
 * sqlite3_ntidx_init (the name SQLite derives from the file name):
 *
 *   sqlite3> .load build/tools/sqlite/ntidx
 *   sqlite3> CREATE VIRTUAL TABLE ev USING ntidx('trace.nettrace');
 *
 *   >>> con.enable_load_extension(True); con.load_extension("build/tools/sqlite/ntidx")
 *
 * The tables themselves are the static library next to it (ntidx_sqlite.h),
 * which the ntidx command links too.
 */
#include <sqlite3ext.h>

#include "ntidx_sqlite.h"

__attribute__((visibility("default"))) int sqlite3_ntidx_init(sqlite3 *db, char **err, const sqlite3_api_routines *api);

int sqlite3_ntidx_init(sqlite3 *db, char **err, const sqlite3_api_routines *api)
{
    return ntidx_sqlite_register(db, err, api, NULL);
}
