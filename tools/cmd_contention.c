/*
 * ntidx contention TRACE [--from T] [--to T] [--thread TID] [--locks | --waits] [--lookahead S]
 *   [--format text|jsonl|csv|json] [--threads N] [--index PATH]
 * The lock contention of a window (ntidx_contention_analyze): for people,
 * the locks waited for, then the waits per lock and thread; for scripts, the
 * rows per lock and thread (or with --locks per lock, with --waits per wait)
 * as jsonl or csv, or everything as one json document. ntidx-contention(1)
 * lists the keys.
 */
#include <inttypes.h>
#include <string.h>

#include <ntidx/analysis.h>

#include "analysis_cmd.h"
#include "analysis_print.h"
#include "cli.h"

static const cli_option options[] = {
    {"thread", 0, "TID", "only the waits of this thread (OS thread id where the trace gives one)"},
    {"locks", 0, NULL, "jsonl and csv: one row per lock instead of per lock and thread"},
    {"waits", 0, NULL, "jsonl and csv: one row per wait instead of per lock and thread"},
    {"lookahead", 0, "S", "look this many seconds past --to for the ends of waits still going on (default 10)"},
    {NULL, 0, NULL, NULL}};

const cli_command cli_cmd_contention = {
    .name = "contention",
    .run = ntidx_cmd_contention,
    .summary = "the locks threads waited for, and how long (Contention/Start-Stop)",
    .groups = CLI_TRACE | CLI_WINDOW | CLI_INDEX | CLI_FORMAT | CLI_THREADS,
    .formats = "text|jsonl|csv|json",
    .options = options,
    .notes = "jsonl, csv and json keys: lock_id thread count total_wait_ms max_wait_ms mean_wait_ms incomplete\n"
             "pid; --locks and --waits have their own (see ntidx-contention(1))\n",
};

static void incomplete_mark(const ntidx_analysis *a, size_t k, uint64_t row, char *buf, size_t n)
{
    double v = ap_number(a, k, row, "incomplete");
    if (v > 0)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%s", "");
}

static const ap_text_column lock_columns[] = {
    {"lock_id", "Lock", 18, 0, NULL},
    {"thread_count", "Threads", 8, 0, NULL},
    {"count", "Waits", 8, 0, NULL},
    {"total_wait_ms", "Total ms", 12, 3, NULL},
    {"max_wait_ms", "Max ms", 10, 3, NULL},
    {"mean_wait_ms", "Mean ms", 10, 3, NULL},
    {NULL, "Incomplete", 11, 0, incomplete_mark},
};

static const ap_text_column row_columns[] = {
    {"lock_id", "Lock", 18, 0, NULL},
    {"thread", "Thread", 8, 0, NULL},
    {"count", "Waits", 8, 0, NULL},
    {"total_wait_ms", "Total ms", 12, 3, NULL},
    {"max_wait_ms", "Max ms", 10, 3, NULL},
    {"mean_wait_ms", "Mean ms", 10, 3, NULL},
    {NULL, "Incomplete", 11, 0, incomplete_mark},
};

static int print_text(const ntidx_analysis *a, const void *ctx)
{
    (void)ctx;
    int rows = ap_table_index(a, "contention"), locks = ap_table_index(a, "contention_locks");
    ntidx_table tr, tl;
    if (rows < 0 || locks < 0 || ntidx_analysis_table(a, (size_t)rows, &tr) < 0 ||
        ntidx_analysis_table(a, (size_t)locks, &tl) < 0)
        return -1;
    double waits = 0, total = 0;
    for (uint64_t r = 0; r < tl.rows; r++) {
        waits += ap_number(a, (size_t)locks, r, "count");
        total += ap_number(a, (size_t)locks, r, "total_wait_ms");
    }
    printf("%.0f waits for %" PRIu64 " lock%s (%" PRIu64 " lock and thread pairs), %.3f ms in all; %" PRIu64
           " without their stop\n\n",
           waits, tl.rows, tl.rows == 1 ? "" : "s", tr.rows, total, ntidx_analysis_get_stats(a)->incomplete);
    if (ap_text_table(stdout, a, (size_t)locks, lock_columns, sizeof lock_columns / sizeof lock_columns[0]) < 0)
        return -1;
    putchar('\n');
    if (ap_text_table(stdout, a, (size_t)rows, row_columns, sizeof row_columns / sizeof row_columns[0]) < 0)
        return -1;
    putchar('\n');
    ap_text_stats(stdout, a);
    return 0;
}

int ntidx_cmd_contention(int argc, char **argv)
{
    cli_ctx c;
    int rc = cli_begin(&cli_cmd_contention, argc, argv, &c);
    if (rc != CLI_GO_ON)
        return rc;
    ntidx_analysis_options o;
    if ((rc = cli_analysis_options(&c, &o)) != CLI_GO_ON)
        return rc;
    int by_lock = cli_opt(&c, "locks") != NULL, by_wait = cli_opt(&c, "waits") != NULL;
    if (by_lock && by_wait)
        return cli_end(&c, cli_bad_usage(c.cmd, "--locks and --waits: one or the other"));
    ntidx_analysis *a = NULL;
    if ((rc = cli_analysis_run(&c, "contention", &o, &a)) != CLI_GO_ON)
        return rc;
    return cli_analysis_write(&c, &a, by_lock ? "contention_locks" : by_wait ? "contention_waits" : "contention", print_text, NULL);
}
