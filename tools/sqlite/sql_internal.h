/*
 * Inside the ntidx SQLite tables: the per-connection state (a cache of open
 * traces with their indexes, the last scan's bytes, the host's hooks) and
 * what the tables share. Every file here includes sqlite3ext.h: calls to
 * SQLite go through the API routines the entry point received.
 */
#ifndef NTIDX_TOOLS_SQL_INTERNAL_H
#define NTIDX_TOOLS_SQL_INTERNAL_H

#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <stdint.h>
#include <sys/stat.h>

#include <ntidx/batch.h>
#include <ntidx/index.h>
#include <ntidx/symbols.h>

#include "ntidx_sqlite.h"

/*
 * A stack as the trace defines it (ntidx_stacks). Its key is where its bytes
 * are in the file: unique across the trace, where the id is not (the runtime
 * numbers its stacks again after each sequence point, and V3 events carry
 * their stacks inline, without an id).
 */
typedef struct nsql_stack {
    uint64_t key;       /* the file offset of its instruction pointers */
    uint32_t id;        /* as events give it (stack_id); 0 in V3 */
    uint32_t size;      /* bytes of ips */
    const uint8_t *ips; /* into the trace's mapping */
} nsql_stack;

/* One thread's row of ntidx_threads. */
typedef struct nsql_thread {
    uint64_t thread, events, dropped;
    const char *name; /* from the trace's V6 thread blocks (in the source's thread list), or NULL */
    int64_t pid;      /* the same way; -1: not given */
} nsql_thread;

/* An open trace with its index, and what the companion tables compute from it once. */
typedef struct nsql_conn nsql_conn;

typedef struct nsql_source {
    nsql_conn *conn;
    int refs;                 /* the cache's own reference included, while it is cached */
    int cached;
    int remote;               /* a URL: kept for the connection's life (sql_source.c) */
    char *path, *index_path;  /* as given; index_path NULL: the default */
    struct stat st;           /* the file when opened: a change opens it again */
    ntidx_trace *trace;
    ntidx_index *index;
    ntidx_index *replaced;    /* the index nsql_source_recover() replaced (cursors over it resume over `index`) */
    ntidx_stats *stats;       /* lazily (types, threads) */
    char **type_fields;       /* lazily: per stats type, its fields as JSON */
    nsql_thread *threads;     /* lazily */
    ntidx_thread_list *thread_defs; /* lazily with them: the V6 thread blocks, which the names point into */
    size_t thread_count;
    ntidx_symbolizer *symbols;/* lazily (stacks) */
    nsql_stack *stacks;       /* lazily, every definition, sorted by key (file order) */
    size_t *stacks_by_id;     /* positions in stacks, sorted by (id, key) */
    size_t stack_count;
    int stacks_done;
    struct nsql_an_cache *an_cache; /* the analyses run on it, kept (sql_analysis.c) */
    struct nsql_source *next;
} nsql_source;

/* What one database connection's tables share. */
struct nsql_conn {
    ntidx_sqlite_hooks hooks;
    nsql_source *sources;     /* the cache */
    const void *last_scan;    /* the events cursor whose bytes ntidx_bytes_read() reports */
    uint64_t last_bytes;
    char *last_warning;       /* what ntidx_warning() reports: the last events scan's (NULL: none) */
    char *last_damaged;       /* what ntidx_damaged_regions() reports: the last events scan's regions left out (JSON) */
    char *last_analysis_stats;/* what ntidx_analysis_stats() reports: the last analysis scan's (JSON) */
};

/*
 * The source of `path` (with `index_path`, NULL: the default), opened and
 * indexed when not cached or when the file changed since. Returns SQLITE_OK
 * with a reference the caller gives back with nsql_source_put(), or an
 * error with its message ("FILE: offset N (0xN): what") in *err.
 */
int nsql_source_get(nsql_conn *c, const char *path, const char *index_path, nsql_source **out, char **err);
void nsql_source_put(nsql_source *s);
/* Close every cached source (the connection closes). */
void nsql_conn_free(void *conn);

/*
 * A call over `used` (s->index when it was made) returned `rc`. When that is NTIDX_E_INDEX_CORRUPT (a region of
 * a lazily checked index failed its check; the library changes no index it is given), s->index is rebuilt
 * (ntidx_index_recover(): saved where it was, the notice hook told), once per source, and 1 is returned: the
 * caller goes on over s->index (ntidx_query_resume(), or the call again). 0: anything else, a second failure,
 * or a rebuild that failed (ntidx_last_error()).
 */
int nsql_source_recover(nsql_source *s, const ntidx_index *used, int rc);

/* Lazily computed parts of a source; SQLITE_OK or an error with *err. */
int nsql_source_stats(nsql_conn *c, nsql_source *s, char **err);
int nsql_source_threads(nsql_conn *c, nsql_source *s, char **err);
int nsql_source_types(nsql_conn *c, nsql_source *s, char **err);
int nsql_source_stacks(nsql_conn *c, nsql_source *s, char **err);

/* The library's last error as an sqlite3_malloc'ed message, said to the host as bad input. */
char *nsql_library_error(nsql_conn *c);
/* Set a vtab's error message (taking ownership of msg) and return SQLITE_ERROR (SQLITE_NOMEM when msg is NULL). */
int nsql_vtab_error(sqlite3_vtab *vt, char *msg);
/* A failed read of a trace: the library's last error as the table's error, and its SQLite code (SQLITE_IOERR
   when the file could not be read or shrank while it was read, SQLITE_NOMEM, else SQLITE_ERROR). */
int nsql_library_fail(sqlite3_vtab *vt, nsql_conn *c);
int nsql_library_code(int ntidx_code);

/* A text result (copied), or NULL when s is. */
void nsql_result_text(sqlite3_context *ctx, const char *s);

/* "trace", 'trace', [trace] or trace: the text of a module argument without its quotes (sqlite3_malloc'ed). */
char *nsql_dequote(const char *s);
/* A module argument `index = 'path'` (the events and analysis tables take one): what follows '=', still
   quoted (nsql_dequote() it), or NULL when the argument is not of that form. */
const char *nsql_index_arg(const char *a);
/* A module argument `name = 'value'`: what follows '=', still quoted, or NULL when it is not of that form. */
const char *nsql_named_arg(const char *a, const char *name);

/* The modules. */
int nsql_register_events(sqlite3 *db, nsql_conn *c);
int nsql_register_companions(sqlite3 *db, nsql_conn *c);
int nsql_register_time(sqlite3 *db, nsql_conn *c);
int nsql_register_analyses(sqlite3 *db, nsql_conn *c);

/* The analyses kept for a source (sql_analysis.c), freed with it. */
void nsql_analysis_cache_free(nsql_source *s);

#endif
