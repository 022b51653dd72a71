/*
 * The schema a host sets up over its traces (ntidx_sqlite_schema(), ntidx_sqlite.h): `events` and its
 * companions, a table per analysis table. One text, so that `ntidx sql` and Python's Trace.sql() give a
 * statement the same tables.
 */
#include "sql_internal.h"

#include <string.h>

#include <ntidx/analysis.h>

char *ntidx_sqlite_schema(char *const *traces, int n, const char *index)
{
    return ntidx_sqlite_schema_skipping(traces, n, index, 0);
}

char *ntidx_sqlite_schema_skipping(char *const *traces, int n, const char *index, int skip_damaged)
{
    sqlite3_str *s = sqlite3_str_new(NULL);
    sqlite3_str_appendall(s, "CREATE VIRTUAL TABLE temp.events USING ntidx(");
    for (int i = 0; i < n; i++)
        sqlite3_str_appendf(s, "%s%Q", i ? ", " : "", traces[i]);
    if (index)
        sqlite3_str_appendf(s, ", index=%Q", index);
    if (skip_damaged)
        sqlite3_str_appendall(s, ", on_error='skip'");
    sqlite3_str_appendall(s, ");\n");
    static const char *const companions[] = {"types", "threads", "regions", "stacks"};
    for (size_t k = 0; k < sizeof companions / sizeof companions[0]; k++) {
        sqlite3_str_appendf(s, "CREATE TEMP VIEW %s AS ", companions[k]);
        for (int i = 0; i < n; i++) {
            if (i)
                sqlite3_str_appendall(s, " UNION ALL ");
            if (n > 1)
                sqlite3_str_appendf(s, "SELECT %Q AS trace, * FROM ntidx_%s(%Q, %Q)", traces[i], companions[k],
                                    traces[i], index);
            else
                sqlite3_str_appendf(s, "SELECT * FROM ntidx_%s(%Q, %Q)", companions[k], traces[i], index);
        }
        sqlite3_str_appendall(s, ";\n");
    }
    /* a table per table of every analysis of the library (gc, gc_summary, ...), over the traces */
    for (size_t k = 0; k < ntidx_analysis_count(); k++) {
        const ntidx_analysis_info *info = ntidx_analysis_info_at(k);
        for (size_t i = 0; i < info->table_count; i++) {
            const char *name = ntidx_sqlite_table_name(info->tables[i].name);
            int taken = !strcmp(name, "events");
            for (size_t j = 0; j < sizeof companions / sizeof companions[0]; j++)
                taken |= !strcmp(name, companions[j]);
            if (taken)
                continue; /* the events and their companions keep their names */
            sqlite3_str_appendf(s, "CREATE VIRTUAL TABLE temp.\"%w\" USING ntidx_analysis(\"%w\"", name, name);
            for (int t = 0; t < n; t++)
                sqlite3_str_appendf(s, ", %Q", traces[t]);
            if (index)
                sqlite3_str_appendf(s, ", index=%Q", index);
            sqlite3_str_appendall(s, ");\n");
        }
    }
    return sqlite3_str_finish(s);
}
