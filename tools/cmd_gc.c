/*
 * ntidx gc TRACE [--from T] [--to T] [--thread TID] [--summary] [--lookahead S]
 *   [--format text|jsonl|csv|json] [--threads N] [--index PATH]
 * The GCs of a window as TraceEvent computes them (ntidx_gc_analyze): for
 * people, a summary per generation first, then one row per GC, as PerfView's
 * GCStats shows them; for scripts, the rows (or with --summary the summary)
 * as jsonl or csv, or everything as one json document. ntidx-gc(1) lists
 * the keys.
 */
#include <inttypes.h>
#include <string.h>

#include <ntidx/analysis.h>

#include "analysis_cmd.h"
#include "analysis_print.h"
#include "cli.h"

static const cli_option options[] = {
    {"thread", 0, "TID", "only the GCs this thread started (OS thread id where the trace gives one)"},
    {"summary", 0, NULL, "jsonl and csv: the summary per generation instead of the GCs"},
    {"lookahead", 0, "S", "look this many seconds past --to for the ends of GCs still running (default 10)"},
    {NULL, 0, NULL, NULL}};

const cli_command cli_cmd_gc = {
    .name = "gc",
    .run = ntidx_cmd_gc,
    .summary = "the GCs of a window, their pauses and why they ran (TraceEvent's GCStats)",
    .groups = CLI_TRACE | CLI_WINDOW | CLI_INDEX | CLI_FORMAT | CLI_THREADS,
    .formats = "text|jsonl|csv|json",
    .options = options,
    .notes = "jsonl, csv and json keys: number generation type reason start_relative_ms duration_ms\n"
             "pause_start_relative_ms pause_duration_ms suspend_duration_ms heap_size_before_mb heap_size_after_mb\n"
             "promoted_mb is_complete pid ts thread gen0_size_after_mb ... poh_size_after_mb (see ntidx-gc(1))\n",
};

/* PerfView's name of a GC: generation, N(on-concurrent)/B(ackground)/F(oreground), I(nduced)/i(nduced, not
   forced) (TraceGC.GCGenerationName). */
static void gen_name(const ntidx_analysis *a, size_t k, uint64_t row, char *buf, size_t n)
{
    const char *type = ap_string(a, k, row, "type"), *reason = ap_string(a, k, row, "reason");
    const char *t = !strcmp(type, "NonConcurrentGC") ? "N" : !strcmp(type, "BackgroundGC") ? "B"
                    : !strcmp(type, "ForegroundGC") ? "F" : "";
    const char *i = !strcmp(reason, "Induced") ? "I" : !strcmp(reason, "InducedNotForced") ? "i" : "";
    snprintf(buf, n, "%.0f%s%s", ap_number(a, k, row, "generation"), t, i);
}

static void complete_mark(const ntidx_analysis *a, size_t k, uint64_t row, char *buf, size_t n)
{
    snprintf(buf, n, "%s", ap_number(a, k, row, "is_complete") == 1 ? "" : "incomplete");
}

static void gen_label(const ntidx_analysis *a, size_t k, uint64_t row, char *buf, size_t n)
{
    double g = ap_number(a, k, row, "generation"); /* -1: the row of all GCs */
    if (g < 0)
        snprintf(buf, n, "All");
    else
        snprintf(buf, n, "%.0f", g);
}

static void percent(const ntidx_analysis *a, size_t k, uint64_t row, char *buf, size_t n)
{
    snprintf(buf, n, "%.2f%%", ap_number(a, k, row, "gc_pause_time_percentage"));
}

static const ap_text_column summary_columns[] = {
    {"generation", "Gen", 4, 0, gen_label},
    {"count", "Count", 7, 0, NULL},
    {"num_induced", "Induced", 8, 0, NULL},
    {"max_pause_duration_ms", "Max pause ms", 13, 3, NULL},
    {"mean_pause_duration_ms", "Mean pause ms", 14, 3, NULL},
    {"total_pause_time_ms", "Total pause ms", 15, 3, NULL},
    {NULL, "% paused", 9, 0, percent},
    {"total_allocated_mb", "Allocated MB", 13, 3, NULL},
    {"total_promoted_mb", "Promoted MB", 12, 3, NULL},
};

static const ap_text_column gc_columns[] = {
    {"number", "GC", 6, 0, NULL},
    {NULL, "Gen", 4, 0, gen_name},
    {"reason", "Reason", 17, 0, NULL},
    {"pause_start_relative_ms", "Pause start ms", 15, 3, NULL},
    {"suspend_duration_ms", "Suspend ms", 11, 3, NULL},
    {"pause_duration_ms", "Pause ms", 10, 3, NULL},
    {"duration_ms", "GC ms", 9, 3, NULL},
    {"heap_size_before_mb", "Before MB", 10, 3, NULL},
    {"heap_size_after_mb", "After MB", 9, 3, NULL},
    {"promoted_mb", "Promoted MB", 12, 3, NULL},
    {"alloced_since_last_gc_mb", "Alloc MB", 9, 3, NULL},
    {NULL, "", 10, 0, complete_mark},
};

static int print_text(const ntidx_analysis *a, const void *ctx)
{
    (void)ctx;
    int gc = ap_table_index(a, "gc"), sum = ap_table_index(a, "gc_summary");
    ntidx_table tb;
    if (gc < 0 || sum < 0 || ntidx_analysis_table(a, (size_t)gc, &tb) < 0)
        return -1;
    const ntidx_gc_stats *all = ntidx_gc_summary(a, -1);
    printf("%" PRIu64 " GCs; %.3f ms paused, %.2f%% of the %.3f ms from the first pause to the last GC/HeapStats\n\n",
           tb.rows, all ? all->total_pause_time_ms : 0.0, all ? all->gc_pause_time_percentage : 0.0,
           all ? all->process_duration_ms : 0.0);
    if (ap_text_table(stdout, a, (size_t)sum, summary_columns, sizeof summary_columns / sizeof summary_columns[0]) < 0)
        return -1;
    putchar('\n');
    if (ap_text_table(stdout, a, (size_t)gc, gc_columns, sizeof gc_columns / sizeof gc_columns[0]) < 0)
        return -1;
    putchar('\n');
    ap_text_stats(stdout, a);
    return 0;
}

int ntidx_cmd_gc(int argc, char **argv)
{
    cli_ctx c;
    int rc = cli_begin(&cli_cmd_gc, argc, argv, &c);
    if (rc != CLI_GO_ON)
        return rc;
    ntidx_analysis_options o;
    if ((rc = cli_analysis_options(&c, &o)) != CLI_GO_ON)
        return rc;
    int summary = cli_opt(&c, "summary") != NULL;
    ntidx_analysis *a = NULL;
    if ((rc = cli_analysis_run(&c, "gc", &o, &a)) != CLI_GO_ON)
        return rc;
    return cli_analysis_write(&c, &a, summary ? "gc_summary" : "gc", print_text, NULL);
}
