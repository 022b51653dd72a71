/*
 * ntidx activities TRACE [--from T] [--to T] [--thread TID] [--summary] [--lookahead S]
 *   [--format text|jsonl|csv|json] [--threads N] [--index PATH]
 * The EventSource activities of a window, as TraceEvent's
 * StartStopActivityComputer pairs and nests them (ntidx_activities_analyze):
 * for people, a summary per provider and name, then every activity in the
 * order of their starts, nested under its creator; for scripts, the
 * activities (or with --summary the summary) as jsonl or csv, or everything
 * as one json document. ntidx-activities(1) lists the keys.
 */
#include <inttypes.h>
#include <string.h>

#include <ntidx/analysis.h>

#include "analysis_cmd.h"
#include "analysis_print.h"
#include "cli.h"
#include "double_text.h"

static const cli_option options[] = {
    {"thread", 0, "TID", "only the activities this thread started (OS thread id where the trace gives one)"},
    {"summary", 0, NULL, "jsonl and csv: the summary per provider and name instead of the activities"},
    {"lookahead", 0, "S", "look this many seconds past --to for the stops of activities still open (default 10)"},
    {NULL, 0, NULL, NULL}};

const cli_command cli_cmd_activities = {
    .name = "activities",
    .run = ntidx_cmd_activities,
    .summary = "EventSource Start/Stop activities, nested (TraceEvent's StartStopActivityComputer)",
    .groups = CLI_TRACE | CLI_WINDOW | CLI_INDEX | CLI_FORMAT | CLI_THREADS,
    .formats = "text|jsonl|csv|json",
    .options = options,
    .notes = "jsonl, csv and json keys: provider name activity_id parent_activity_id thread start_relative_ms\n"
             "duration_ms is_complete ts pid depth activity_path (see ntidx-activities(1))\n",
};

static void duration(const ntidx_analysis *a, size_t k, uint64_t row, char *buf, size_t n)
{
    if (ap_number(a, k, row, "is_complete") == 1)
        fixed_text(buf, n, ap_number(a, k, row, "duration_ms"), 3);
    else
        snprintf(buf, n, "%s", "incomplete");
}

/* The activity under its creator: indented by its depth, then provider/name and its id as a path. */
static void activity(const ntidx_analysis *a, size_t k, uint64_t row, char *buf, size_t n)
{
    double depth = ap_number(a, k, row, "depth");
    int indent = depth > 0 && depth < 16 ? 2 * (int)depth : depth >= 16 ? 32 : 0;
    snprintf(buf, n, "%*s%s/%s %s", indent, "", ap_string(a, k, row, "provider"), ap_string(a, k, row, "name"),
             ap_string(a, k, row, "activity_path"));
}

static void kind(const ntidx_analysis *a, size_t k, uint64_t row, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s", ap_string(a, k, row, "provider"), ap_string(a, k, row, "name"));
}

static void count_open(const ntidx_analysis *a, size_t k, uint64_t row, char *buf, size_t n)
{
    double v = ap_number(a, k, row, "incomplete");
    if (v > 0)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%s", "");
}

static const ap_text_column summary_columns[] = {
    {"count", "Count", 8, 0, NULL},
    {"total_duration_ms", "Total ms", 12, 3, NULL},
    {"mean_duration_ms", "Mean ms", 10, 3, NULL},
    {"max_duration_ms", "Max ms", 10, 3, NULL},
    {NULL, "Incomplete", 11, 0, count_open},
    {NULL, " Activity", 1, 0, kind},
};

static const ap_text_column activity_columns[] = {
    {"start_relative_ms", "Start ms", 12, 3, NULL},
    {NULL, "Duration ms", 12, 0, duration},
    {"thread", "Thread", 8, 0, NULL},
    {NULL, " Activity", 1, 0, activity},
};

static int print_text(const ntidx_analysis *a, const void *ctx)
{
    (void)ctx;
    int acts = ap_table_index(a, "activities"), sum = ap_table_index(a, "activities_summary");
    ntidx_table tb, ts;
    if (acts < 0 || sum < 0 || ntidx_analysis_table(a, (size_t)acts, &tb) < 0 ||
        ntidx_analysis_table(a, (size_t)sum, &ts) < 0)
        return -1;
    printf("%" PRIu64 " activities of %" PRIu64 " kinds, %" PRIu64 " without their stop\n\n", tb.rows, ts.rows,
           ntidx_analysis_get_stats(a)->incomplete);
    if (ap_text_table(stdout, a, (size_t)sum, summary_columns, sizeof summary_columns / sizeof summary_columns[0]) < 0)
        return -1;
    putchar('\n');
    if (ap_text_table(stdout, a, (size_t)acts, activity_columns,
                      sizeof activity_columns / sizeof activity_columns[0]) < 0)
        return -1;
    putchar('\n');
    ap_text_stats(stdout, a);
    return 0;
}

int ntidx_cmd_activities(int argc, char **argv)
{
    cli_ctx c;
    int rc = cli_begin(&cli_cmd_activities, argc, argv, &c);
    if (rc != CLI_GO_ON)
        return rc;
    ntidx_analysis_options o;
    if ((rc = cli_analysis_options(&c, &o)) != CLI_GO_ON)
        return rc;
    int summary = cli_opt(&c, "summary") != NULL;
    ntidx_analysis *a = NULL;
    if ((rc = cli_analysis_run(&c, "activities", &o, &a)) != CLI_GO_ON)
        return rc;
    return cli_analysis_write(&c, &a, summary ? "activities_summary" : "activities", print_text, NULL);
}
