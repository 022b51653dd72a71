/*
 * ntidx exceptions TRACE [--from T] [--to T] [--thread TID]
 *   [--format text|jsonl|csv|json] [--threads N] [--index PATH]
 * The exceptions a window threw, per type, message and the method that
 * threw them (ntidx_exceptions_analyze): for people, one row each in the
 * order of their first throw; for scripts, the rows as jsonl or csv, or as
 * one json document. ntidx-exceptions(1) lists the keys.
 */
#include <inttypes.h>
#include <string.h>

#include <ntidx/analysis.h>

#include "analysis_cmd.h"
#include "analysis_print.h"
#include "cli.h"

static const cli_option options[] = {
    {"thread", 0, "TID", "only the exceptions of this thread (OS thread id where the trace gives one)"},
    {NULL, 0, NULL, NULL}};

const cli_command cli_cmd_exceptions = {
    .name = "exceptions",
    .run = ntidx_cmd_exceptions,
    .summary = "the exceptions of a window per type, message and the method that threw them",
    .groups = CLI_TRACE | CLI_WINDOW | CLI_INDEX | CLI_FORMAT | CLI_THREADS,
    .formats = "text|jsonl|csv|json",
    .options = options,
    .notes = "jsonl, csv and json keys: type message count first_relative_ms last_relative_ms thrown_by\n"
             "first_ts last_ts (see ntidx-exceptions(1))\n",
};

/* A message on one line of the table: line breaks and tabs as spaces. */
static void one_line(const ntidx_analysis *a, size_t k, uint64_t row, const char *key, char *buf, size_t n)
{
    snprintf(buf, n, "%s", ap_string(a, k, row, key));
    for (char *p = buf; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
}

static void type_col(const ntidx_analysis *a, size_t k, uint64_t row, char *buf, size_t n)
{
    one_line(a, k, row, "type", buf, n);
}

static void message_col(const ntidx_analysis *a, size_t k, uint64_t row, char *buf, size_t n)
{
    one_line(a, k, row, "message", buf, n);
}

static void thrower_col(const ntidx_analysis *a, size_t k, uint64_t row, char *buf, size_t n)
{
    const char *by = ap_string(a, k, row, "thrown_by");
    snprintf(buf, n, "%s", by[0] ? by : "?");
}

/* The width of the widest type or thrower (one line, at most `cap`), at least the header's: the typed rows read
   directly, as a table of hundreds of thousands of kinds is printed whole (one_line() changes no length; "?"
   stands for no thrower). */
static int widest(const ntidx_analysis *a, int thrower, const char *header, int cap)
{
    size_t w = strlen(header), n = ntidx_exceptions_count(a);
    for (size_t r = 0; r < n && w < (size_t)cap; r++) {
        const ntidx_exception_group *x = ntidx_exceptions_at(a, r);
        const char *s = thrower ? (x->thrown_by && x->thrown_by[0] ? x->thrown_by : "?") : x->type ? x->type : "";
        size_t len = strnlen(s, (size_t)cap);
        if (len > w)
            w = len;
    }
    return w < (size_t)cap ? (int)w : cap;
}

static int print_text(const ntidx_analysis *a, const void *ctx)
{
    (void)ctx;
    int k = ap_table_index(a, "exceptions");
    ntidx_table tb;
    if (k < 0 || ntidx_analysis_table(a, (size_t)k, &tb) < 0)
        return -1;
    double total = 0;
    for (size_t r = 0; r < ntidx_exceptions_count(a); r++)
        total += (double)ntidx_exceptions_at(a, r)->count;
    printf("%.0f exceptions thrown, %" PRIu64 " kinds (type, message, thrower)\n\n", total, tb.rows);
    if (tb.rows) {
        /* type and thrower left-aligned as wide as their longest (within reason), the message last */
        const ap_text_column columns[] = {
            {"count", "Count", 7, 0, NULL},
            {"first_relative_ms", "First ms", 11, 3, NULL},
            {"last_relative_ms", "Last ms", 11, 3, NULL},
            {NULL, "Type", -widest(a, 0, "Type", 60), 0, type_col},
            {NULL, "Thrown by", -widest(a, 1, "Thrown by", 100), 0, thrower_col},
            {NULL, "Message", 0, 0, message_col},
        };
        if (ap_text_table(stdout, a, (size_t)k, columns, sizeof columns / sizeof columns[0]) < 0)
            return -1;
        putchar('\n');
    }
    ap_text_stats(stdout, a);
    return 0;
}

int ntidx_cmd_exceptions(int argc, char **argv)
{
    cli_ctx c;
    int rc = cli_begin(&cli_cmd_exceptions, argc, argv, &c);
    if (rc != CLI_GO_ON)
        return rc;
    ntidx_analysis_options o;
    if ((rc = cli_analysis_options(&c, &o)) != CLI_GO_ON)
        return rc;
    ntidx_analysis *a = NULL;
    if ((rc = cli_analysis_run(&c, "exceptions", &o, &a)) != CLI_GO_ON)
        return rc;
    return cli_analysis_write(&c, &a, "exceptions", print_text, NULL);
}
