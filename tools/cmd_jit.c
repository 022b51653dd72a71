/*
 * ntidx jit TRACE [--from T] [--to T] [--thread TID] [--summary] [--lookahead S]
 *   [--format text|jsonl|csv|json] [--threads N] [--index PATH]
 * What a window JIT-compiled, as TraceEvent computes it (ntidx_jit_analyze):
 * for people, the totals per optimization tier (PerfView's JITStats), then
 * one row per compilation; for scripts, the rows (or with --summary the
 * totals) as jsonl or csv, or everything as one json document. ntidx-jit(1)
 * lists the keys.
 */
#include <inttypes.h>
#include <string.h>

#include <ntidx/analysis.h>

#include "analysis_cmd.h"
#include "analysis_print.h"
#include "cli.h"

static const cli_option options[] = {
    {"thread", 0, "TID", "only the methods this thread compiled (OS thread id where the trace gives one)"},
    {"summary", 0, NULL, "jsonl and csv: the totals per tier instead of the methods"},
    {"lookahead", 0, "S", "look this many seconds past --to for the ends of compilations (default 10)"},
    {NULL, 0, NULL, NULL}};

const cli_command cli_cmd_jit = {
    .name = "jit",
    .run = ntidx_cmd_jit,
    .summary = "the methods a window JIT-compiled, their sizes, times and tiers (TraceEvent's JITStats)",
    .groups = CLI_TRACE | CLI_WINDOW | CLI_INDEX | CLI_FORMAT | CLI_THREADS,
    .formats = "text|jsonl|csv|json",
    .options = options,
    .notes = "jsonl, csv and json keys: method_name il_size native_size jit_time_ms optimization_tier\n"
             "start_relative_ms is_complete pid thread ts method_id module_id version_id compilation_thread_kind\n"
             "(see ntidx-jit(1))\n",
};

static void incomplete_mark(const ntidx_analysis *a, size_t k, uint64_t row, char *buf, size_t n)
{
    snprintf(buf, n, "%s", ap_number(a, k, row, "is_complete") == 1 ? "" : "*");
}

static const ap_text_column summary_columns[] = {
    {"optimization_tier", "Tier", -26, 0, NULL},
    {"count", "Methods", 8, 0, NULL},
    {"total_jit_time_ms", "JIT ms", 11, 3, NULL},
    {"total_il_size", "IL bytes", 10, 0, NULL},
    {"total_native_size", "Native bytes", 13, 0, NULL},
    {"count_foreground", "Foreground", 11, 0, NULL},
    {"count_background_tiered_compilation", "Background", 11, 0, NULL},
    {"incomplete", "Incomplete", 11, 0, NULL},
};

static const ap_text_column method_columns[] = {
    {"start_relative_ms", "Start ms", 11, 3, NULL},
    {"jit_time_ms", "JIT ms", 9, 3, NULL},
    {"il_size", "IL", 7, 0, NULL},
    {"native_size", "Native", 7, 0, NULL},
    {NULL, "", 1, 0, incomplete_mark},
    {"optimization_tier", "Tier", -26, 0, NULL},
    {"method_name", "Method", 0, 0, NULL},
};

static int print_text(const ntidx_analysis *a, const void *ctx)
{
    (void)ctx;
    int jit = ap_table_index(a, "jit"), sum = ap_table_index(a, "jit_summary");
    ntidx_table tb, ts;
    if (jit < 0 || sum < 0 || ntidx_analysis_table(a, (size_t)jit, &tb) < 0 ||
        ntidx_analysis_table(a, (size_t)sum, &ts) < 0)
        return -1;
    double methods = 0, ms = 0;
    for (uint64_t r = 0; r < ts.rows; r++)
        if (!strcmp(ap_string(a, (size_t)sum, r, "optimization_tier"), "all")) {
            methods += ap_number(a, (size_t)sum, r, "count");
            ms += ap_number(a, (size_t)sum, r, "total_jit_time_ms");
        }
    printf("%.0f methods JIT-compiled in %.3f ms\n\n", methods, ms);
    if (ap_text_table(stdout, a, (size_t)sum, summary_columns, sizeof summary_columns / sizeof summary_columns[0]) < 0)
        return -1;
    putchar('\n');
    if (tb.rows) {
        if (ap_text_table(stdout, a, (size_t)jit, method_columns, sizeof method_columns / sizeof method_columns[0]) < 0)
            return -1;
        if (ntidx_analysis_get_stats(a)->incomplete)
            puts("* not complete: its load was not seen");
        putchar('\n');
    }
    ap_text_stats(stdout, a);
    return 0;
}

int ntidx_cmd_jit(int argc, char **argv)
{
    cli_ctx c;
    int rc = cli_begin(&cli_cmd_jit, argc, argv, &c);
    if (rc != CLI_GO_ON)
        return rc;
    ntidx_analysis_options o;
    if ((rc = cli_analysis_options(&c, &o)) != CLI_GO_ON)
        return rc;
    int summary = cli_opt(&c, "summary") != NULL;
    ntidx_analysis *a = NULL;
    if ((rc = cli_analysis_run(&c, "jit", &o, &a)) != CLI_GO_ON)
        return rc;
    return cli_analysis_write(&c, &a, summary ? "jit_summary" : "jit", print_text, NULL);
}
