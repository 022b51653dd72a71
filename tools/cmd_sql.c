/*
 * ntidx sql TRACE [TRACE...] STATEMENT [--format text|csv|jsonl|json] [--index PATH]
 *
 * SQL over traces. The statement sees the table `events` (the trace's
 * events, through the SQLite virtual table of tools/sqlite/, whose time
 * windows and filters become index queries) and its companions `types`,
 * `threads`, `regions` and `stacks`, and a table per table of every
 * analysis of the library (`gc`, `gc_summary`: tools/sqlite/sql_analysis.c);
 * with several traces, each holds all of them, with a `trace` column first. Several statements may be given,
 * separated by ';'; the rows of each are printed in the chosen format.
 *
 * Exit status: 0 success; 1 a trace or its index could not be read (the
 * message names the file, the offset and what was wrong); 2 a usage error or
 * a statement SQLite refused (its message).
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "cli.h"
#include "output.h"
#include "sqlite/ntidx_sqlite.h"

static const cli_option options[] = {
    {"skip-damaged", 0, NULL, "the events table leaves out a region that cannot be read (said on stderr)"},
    {NULL, 0, NULL, NULL}};

const cli_command cli_cmd_sql = {
    .name = "sql",
    .run = ntidx_cmd_sql,
    .summary = "SQL over traces: events, types, threads, regions and stacks as tables",
    .groups = CLI_ARGS | CLI_FORMAT | CLI_INDEX,
    .args = "TRACE [TRACE...] STATEMENT",
    .formats = "text|csv|jsonl|json",
    .options = options,
    .notes = "tables: events (ts, time_s, provider, event_id, event_name, version, thread, capture_thread, seq,\n"
             "stack_id, offset, fields, activity_id, related_activity_id), types, threads, regions, stacks, and\n"
             "the analyses' tables gc and gc_summary (the keys of `ntidx gc --format jsonl`); with\n"
             "several traces each has a `trace` column first. WHERE on ts or time_s and on provider, event_name,\n"
             "event_id or thread (=, IN) is a seek through the index; ntidx_bytes_read() tells what the last\n"
             "scan read. docs/sql.md is the cookbook. Exit status 2 also means SQLite refused the statement.\n",
};

/* ------------------------------------------------------------------ */
/* The hooks of the tables: index notices, progress, bad input         */
/* ------------------------------------------------------------------ */

typedef struct sql_host {
    int input_error;
    ntidx_sqlite_hooks hooks;
} sql_host;

static sql_host host;

static void on_notice(void *ctx, const char *trace, int action, const char *why)
{
    (void)ctx;
    cli_index_notice((void *)trace, action, why);
}

static int on_progress(void *ctx, const char *what, uint64_t done, uint64_t total)
{
    cli_progress_label(what);
    return cli_progress(ctx, done, total);
}

static void on_progress_end(void *ctx)
{
    (void)ctx;
    cli_progress_end();
}

static void on_opened(void *ctx, const char *trace, const ntidx_trace *t, const ntidx_index *x)
{
    (void)ctx;
    (void)t;
    const ntidx_index_info *i = ntidx_index_get_info(x);
    if (!i->complete)
        cli_note("%s: warning: trace is incomplete: read up to its last complete block (offset %" PRIu64 ")", trace,
                 i->indexed_end);
}

static void on_warning(void *ctx, const char *trace, const char *message)
{
    (void)ctx;
    cli_note("%s: warning: %s", trace, message);
}

static void on_input_error(void *ctx, const char *message)
{
    (void)ctx;
    (void)message;
    host.input_error = 1;
}

/* Every connection the command opens gets the tables, with the command's hooks (sqlite3_auto_extension). */
static int register_tables(sqlite3 *db, char **err, const sqlite3_api_routines *api)
{
    return ntidx_sqlite_register(db, err, api, &host.hooks);
}

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

enum { OUT_TEXT, OUT_CSV, OUT_JSONL, OUT_JSON };

/* A double as the shortest text that reads back as the same value ("0.1", not "0.10000000000000001"). */
static void format_double(double d, char *buf, size_t n)
{
    for (int p = 15; p <= 17; p++) {
        snprintf(buf, n, "%.*g", p, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    if (!strpbrk(buf, ".eEn")) /* keep it a real: "2.0", as SQLite shows it */
        strncat(buf, ".0", n - strlen(buf) - 1);
}

/* The text of a column as the text and CSV formats show it (NULL: empty). */
static const char *cell_text(sqlite3_stmt *st, int i, char *num, size_t n)
{
    switch (sqlite3_column_type(st, i)) {
    case SQLITE_NULL: return "";
    case SQLITE_FLOAT: format_double(sqlite3_column_double(st, i), num, n); return num;
    case SQLITE_BLOB: {
        /* hex, as SQLite's hex() writes it */
        const unsigned char *b = sqlite3_column_blob(st, i);
        int len = sqlite3_column_bytes(st, i);
        static char *hex;
        static size_t cap;
        if ((size_t)len * 2 + 1 > cap) {
            char *h = realloc(hex, (size_t)len * 2 + 1);
            if (!h)
                return "";
            hex = h;
            cap = (size_t)len * 2 + 1;
        }
        for (int k = 0; k < len; k++)
            snprintf(hex + 2 * k, 3, "%02X", b[k]);
        hex[2 * len] = 0;
        return hex;
    }
    default: {
        const char *t = (const char *)sqlite3_column_text(st, i);
        return t ? t : "";
    }
    }
}

static void csv_cell(const char *s)
{
    if (!strpbrk(s, ",\"\r\n") && !(s[0] == ' ' || (s[0] && s[strlen(s) - 1] == ' '))) {
        fputs(s, stdout);
        return;
    }
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

/* The keys of a JSON row, "name": written once per statement, not once per row. */
static char **json_keys(sqlite3_stmt *st, int ncol)
{
    char **keys = calloc((size_t)ncol + 1, sizeof *keys);
    for (int i = 0; keys && i < ncol; i++) {
        const char *name = sqlite3_column_name(st, i);
        ntidx_buf b = {0};
        ntidx_buf_append_json_string(&b, name ? name : "", name ? strlen(name) : 0);
        ntidx_buf_append(&b, ":", 1);
        keys[i] = b.err ? NULL : b.data;
        if (!keys[i]) {
            ntidx_buf_free(&b);
            keys[i] = strdup("\"\":");
        }
    }
    return keys;
}

static void free_keys(char **keys, int ncol)
{
    for (int i = 0; keys && i < ncol; i++)
        free(keys[i]);
    free(keys);
}

static void json_row(sqlite3_stmt *st, int ncol, char *const *keys)
{
    putchar('{');
    for (int i = 0; i < ncol; i++) {
        if (i)
            putchar(',');
        fputs(keys[i] ? keys[i] : "\"\":", stdout);
        char num[40];
        switch (sqlite3_column_type(st, i)) {
        case SQLITE_NULL: fputs("null", stdout); break;
        case SQLITE_INTEGER: {
            /* digits by hand: printf is a good part of a row's cost */
            long long v = (long long)sqlite3_column_int64(st, i);
            unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
            char *p = num + sizeof num;
            *--p = 0;
            do
                *--p = (char)('0' + u % 10);
            while (u /= 10);
            if (v < 0)
                *--p = '-';
            fputs(p, stdout);
            break;
        }
        case SQLITE_FLOAT: {
            double d = sqlite3_column_double(st, i);
            if (!isfinite(d)) {
                fputs("null", stdout);
                break;
            }
            format_double(d, num, sizeof num);
            fputs(num, stdout);
            break;
        }
        case SQLITE_BLOB: {
            char tmp[1];
            putchar('"');
            fputs(cell_text(st, i, tmp, sizeof tmp), stdout);
            putchar('"');
            break;
        }
        default: {
            /* a column the tables declare JSON (fields) is a JSON value, not a string holding one */
            const char *t = (const char *)sqlite3_column_text(st, i), *decl = sqlite3_column_decltype(st, i);
            if (t && decl && !strcmp(decl, "JSON") && (t[0] == '{' || t[0] == '['))
                fputs(t, stdout);
            else
                cli_json_str(stdout, t);
            break;
        }
        }
    }
    putchar('}');
}

/* Text: columns aligned on the widths of the first rows (held back until then), numbers to the right. */
#define TEXT_HOLD 1000

typedef struct text_out {
    int ncol;
    char **held;      /* TEXT_HOLD x ncol cells */
    int nheld, flushed;
    int *width, *right;
} text_out;

static void text_line(const text_out *t, char *const *cells)
{
    for (int i = 0; i < t->ncol; i++) {
        const char *s = cells[i] ? cells[i] : "";
        int last = i == t->ncol - 1;
        if (t->right[i])
            printf("%*s%s", t->width[i], s, last ? "" : "  ");
        else if (last)
            fputs(s, stdout);
        else
            printf("%-*s  ", t->width[i], s);
    }
    putchar('\n');
}

static void text_flush(text_out *t, sqlite3_stmt *st)
{
    char **names = calloc((size_t)t->ncol, sizeof *names);
    if (!names)
        return;
    for (int i = 0; i < t->ncol; i++) {
        names[i] = (char *)sqlite3_column_name(st, i);
        int w = (int)strlen(names[i]);
        if (w > t->width[i])
            t->width[i] = w;
    }
    text_line(t, names);
    for (int i = 0; i < t->ncol; i++) {
        for (int k = 0; k < t->width[i]; k++)
            putchar('-');
        fputs(i == t->ncol - 1 ? "\n" : "  ", stdout);
    }
    free(names);
    for (int r = 0; r < t->nheld; r++) {
        text_line(t, t->held + (size_t)r * t->ncol);
        for (int i = 0; i < t->ncol; i++)
            free(t->held[(size_t)r * t->ncol + i]);
    }
    t->nheld = 0;
    t->flushed = 1;
}

static int text_row(text_out *t, sqlite3_stmt *st)
{
    char num[40];
    if (t->flushed) {
        char *cells[256];
        int n = t->ncol < 256 ? t->ncol : 256;
        for (int i = 0; i < n; i++)
            cells[i] = strdup(cell_text(st, i, num, sizeof num));
        text_line(t, cells);
        for (int i = 0; i < n; i++)
            free(cells[i]);
        return 0;
    }
    char **row = t->held + (size_t)t->nheld * t->ncol;
    for (int i = 0; i < t->ncol; i++) {
        int type = sqlite3_column_type(st, i);
        row[i] = strdup(cell_text(st, i, num, sizeof num));
        if (!row[i])
            return -1;
        int w = (int)strlen(row[i]);
        if (w > 60)
            w = 60; /* a long value (fields) does not widen every line */
        if (w > t->width[i])
            t->width[i] = w;
        if (type == SQLITE_INTEGER || type == SQLITE_FLOAT)
            t->right[i] = t->nheld == 0 || t->right[i];
        else if (type != SQLITE_NULL)
            t->right[i] = 0;
    }
    if (++t->nheld == TEXT_HOLD)
        text_flush(t, st);
    return 0;
}

/* Run one prepared statement and print its rows. Returns SQLITE_DONE or the error code of the step. */
static int print_rows(sqlite3_stmt *st, int fmt, int *json_first_set)
{
    int ncol = sqlite3_column_count(st), rc;
    text_out t = {0};
    if (ncol && fmt == OUT_TEXT) {
        t.ncol = ncol;
        t.held = calloc((size_t)TEXT_HOLD * ncol, sizeof *t.held);
        t.width = calloc((size_t)ncol, sizeof *t.width);
        t.right = calloc((size_t)ncol, sizeof *t.right);
        if (!t.held || !t.width || !t.right) {
            free(t.held), free(t.width), free(t.right);
            return SQLITE_NOMEM;
        }
    }
    if (ncol && fmt == OUT_CSV) {
        for (int i = 0; i < ncol; i++) {
            if (i)
                putchar(',');
            csv_cell(sqlite3_column_name(st, i));
        }
        putchar('\n');
    }
    if (ncol && fmt == OUT_JSON)
        fputs(*json_first_set ? "[" : "\n[", stdout);
    char **keys = ncol && (fmt == OUT_JSON || fmt == OUT_JSONL) ? json_keys(st, ncol) : NULL;
    if (ncol && (fmt == OUT_JSON || fmt == OUT_JSONL) && !keys)
        return SQLITE_NOMEM;
    uint64_t rows = 0;
    char num[40];
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if ((rows & 1023) == 0 && cli_stdout_failed())
            break; /* standard output failed: no use computing the rest */
        switch (fmt) {
        case OUT_TEXT:
            if (text_row(&t, st) < 0)
                rc = SQLITE_NOMEM;
            break;
        case OUT_CSV:
            for (int i = 0; i < ncol; i++) {
                if (i)
                    putchar(',');
                if (sqlite3_column_type(st, i) == SQLITE_TEXT)
                    csv_cell((const char *)sqlite3_column_text(st, i));
                else
                    fputs(cell_text(st, i, num, sizeof num), stdout);
            }
            putchar('\n');
            break;
        case OUT_JSONL:
            json_row(st, ncol, keys);
            putchar('\n');
            break;
        case OUT_JSON:
            fputs(rows ? ",\n" : "\n", stdout);
            json_row(st, ncol, keys);
            break;
        }
        if (rc == SQLITE_NOMEM)
            break;
        rows++;
    }
    if (ncol && fmt == OUT_TEXT) {
        if (!t.flushed)
            text_flush(&t, st);
        for (int r = 0; r < t.nheld * ncol; r++)
            free(t.held[r]);
        free(t.held), free(t.width), free(t.right);
    }
    if (ncol && fmt == OUT_JSON) {
        fputs(rows ? "\n]\n" : "]\n", stdout);
        *json_first_set = 0;
    }
    free_keys(keys, ncol);
    return rc;
}

/* ------------------------------------------------------------------ */
/* The command                                                         */
/* ------------------------------------------------------------------ */

int ntidx_cmd_sql(int argc, char **argv)
{
    cli_ctx c;
    int rc = cli_begin(&cli_cmd_sql, argc, argv, &c);
    if (rc != CLI_GO_ON)
        return rc;
    if (c.nargs < 2)
        return cli_bad_usage(c.cmd, c.nargs ? "a statement after the traces, please" : "no trace given");
    int ntraces = c.nargs - 1;
    const char *statement = c.args[ntraces];
    if (c.index_path && ntraces > 1)
        return cli_bad_usage(c.cmd, "--index names the index of one trace, and %d traces are given", ntraces);
    int fmt = !strcmp(c.format, "csv") ? OUT_CSV : !strcmp(c.format, "jsonl") ? OUT_JSONL
              : !strcmp(c.format, "json") ? OUT_JSON : OUT_TEXT;

    host.hooks = (ntidx_sqlite_hooks){.notice = on_notice,
                                      .warning = on_warning,
                                      .progress = on_progress,
                                      .progress_end = on_progress_end,
                                      .opened = on_opened,
                                      .input_error = on_input_error,
                                      .verify = cli_verify_mode()};
    sqlite3_auto_extension((void (*)(void))register_tables);
    sqlite3 *db = NULL;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
        cli_error("cannot open an SQLite database: %s", db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        return CLI_FAIL;
    }
    /* the sorter of GROUP BY and ORDER BY stays in memory rather than in temporary files */
    sqlite3_exec(db, "PRAGMA temp_store = MEMORY", NULL, NULL, NULL);
    char *schema = ntidx_sqlite_schema_skipping(c.args, ntraces, c.index_path, cli_opt(&c, "skip-damaged") != NULL),
         *err = NULL;
    if (!schema || sqlite3_exec(db, schema, NULL, NULL, &err) != SQLITE_OK) {
        cli_error("%s", err ? err : "out of memory");
        sqlite3_free(err);
        sqlite3_free(schema);
        sqlite3_close(db);
        return CLI_FAIL; /* a trace or its index could not be read */
    }
    sqlite3_free(schema);

    cli_fast_stdout();
    int exit_code = CLI_OK, json_first = 1, statements = 0;
    const char *sql = statement;
    while (sql && *sql) {
        sqlite3_stmt *st = NULL;
        const char *tail = NULL;
        host.input_error = 0;
        if (sqlite3_prepare_v2(db, sql, -1, &st, &tail) != SQLITE_OK) {
            fflush(stdout);
            cli_error("sql: %s", sqlite3_errmsg(db));
            exit_code = host.input_error ? CLI_FAIL : CLI_USAGE;
            break;
        }
        sql = tail;
        if (!st)
            continue; /* whitespace or a comment */
        statements++;
        rc = print_rows(st, fmt, &json_first);
        fflush(stdout);
        if (cli_stdout_failed()) {
            exit_code = CLI_FAIL; /* main() says standard output failed */
            sqlite3_finalize(st);
            break;
        }
        if (rc != SQLITE_DONE) {
            cli_error("sql: %s", rc == SQLITE_NOMEM ? "out of memory" : sqlite3_errmsg(db));
            exit_code = host.input_error ? CLI_FAIL : CLI_USAGE;
            sqlite3_finalize(st);
            break;
        }
        sqlite3_finalize(st);
    }
    if (exit_code == CLI_OK && !statements) {
        cli_error("sql: no statement in '%s'", statement);
        exit_code = CLI_USAGE;
    }
    sqlite3_close(db);
    sqlite3_reset_auto_extension();
    return cli_end(&c, exit_code);
}
