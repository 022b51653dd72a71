/*
 * ntidx alloc TRACE [--from T] [--to T] [--thread TID] [--summary]
 *   [--format text|jsonl|csv|json] [--threads N] [--index PATH]
 * What a window allocated, from the runtime's allocation ticks
 * (ntidx_alloc_analyze): for people, the totals per kind (small, large,
 * pinned object heap), then one row per type and kind, the largest first;
 * for scripts, the rows (or with --summary the totals) as jsonl or csv, or
 * everything as one json document. ntidx-alloc(1) lists the keys.
 */
#include <inttypes.h>
#include <string.h>

#include <ntidx/analysis.h>

#include "analysis_cmd.h"
#include "analysis_print.h"
#include "cli.h"

static const cli_option options[] = {
    {"thread", 0, "TID", "only the allocations of this thread (OS thread id where the trace gives one)"},
    {"summary", 0, NULL, "jsonl and csv: the totals per kind instead of the types"},
    {NULL, 0, NULL, NULL}};

const cli_command cli_cmd_alloc = {
    .name = "alloc",
    .run = ntidx_cmd_alloc,
    .summary = "what a window allocated, per type and heap (GC/AllocationTick)",
    .groups = CLI_TRACE | CLI_WINDOW | CLI_INDEX | CLI_FORMAT | CLI_THREADS,
    .formats = "text|jsonl|csv|json",
    .options = options,
    .notes = "jsonl, csv and json keys: type_name kind count bytes first_ts last_ts first_relative_ms\n"
             "last_relative_ms (see ntidx-alloc(1))\n",
};

static void megabytes(const ntidx_analysis *a, size_t k, uint64_t row, char *buf, size_t n)
{
    snprintf(buf, n, "%.3f", ap_number(a, k, row, "bytes") / 1e6);
}

static const ap_text_column summary_columns[] = {
    {"kind", "Kind", 6, 0, NULL},
    {"count", "Ticks", 9, 0, NULL},
    {NULL, "Sampled MB", 12, 0, megabytes},
    {"type_count", "Types", 7, 0, NULL},
};

static const ap_text_column type_columns[] = {
    {"count", "Ticks", 9, 0, NULL},
    {NULL, "Sampled MB", 12, 0, megabytes},
    {"kind", "Kind", -6, 0, NULL},
    {"type_name", "Type", 0, 0, NULL},
};

static int print_text(const ntidx_analysis *a, const void *ctx)
{
    (void)ctx;
    int types = ap_table_index(a, "alloc"), sum = ap_table_index(a, "alloc_summary");
    ntidx_table tb, ts;
    if (types < 0 || sum < 0 || ntidx_analysis_table(a, (size_t)types, &tb) < 0 ||
        ntidx_analysis_table(a, (size_t)sum, &ts) < 0 || ts.rows == 0)
        return -1;
    uint64_t all = ts.rows - 1; /* the last summary row is "all" */
    printf("%.0f allocation ticks, %.3f MB sampled, %" PRIu64 " types\n\n", ap_number(a, (size_t)sum, all, "count"),
           ap_number(a, (size_t)sum, all, "bytes") / 1e6, (uint64_t)ap_number(a, (size_t)sum, all, "type_count"));
    if (ap_text_table(stdout, a, (size_t)sum, summary_columns, sizeof summary_columns / sizeof summary_columns[0]) < 0)
        return -1;
    putchar('\n');
    if (tb.rows) {
        if (ap_text_table(stdout, a, (size_t)types, type_columns, sizeof type_columns / sizeof type_columns[0]) < 0)
            return -1;
        putchar('\n');
    }
    ap_text_stats(stdout, a);
    return 0;
}

int ntidx_cmd_alloc(int argc, char **argv)
{
    cli_ctx c;
    int rc = cli_begin(&cli_cmd_alloc, argc, argv, &c);
    if (rc != CLI_GO_ON)
        return rc;
    ntidx_analysis_options o;
    if ((rc = cli_analysis_options(&c, &o)) != CLI_GO_ON)
        return rc;
    int summary = cli_opt(&c, "summary") != NULL;
    ntidx_analysis *a = NULL;
    if ((rc = cli_analysis_run(&c, "alloc", &o, &a)) != CLI_GO_ON)
        return rc;
    return cli_analysis_write(&c, &a, summary ? "alloc_summary" : "alloc", print_text, NULL);
}
