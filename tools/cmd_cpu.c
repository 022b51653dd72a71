/*
 * ntidx cpu TRACE [--from T] [--to T] [--thread TID] [--by-thread]
 *   [--callers METHOD] [--callees METHOD] [--tree] [--top N] [--summary]
 *   [--format text|jsonl|csv|json] [--threads N] [--index PATH]
 * Where the CPU went in a window: the sample profiler's samples by method,
 * inclusive and exclusive, as PerfView's CPU Stacks "By Name" shows them and
 * TraceEvent names the frames (ntidx_cpu_analyze). For people, the methods
 * with the most exclusive samples first, then the callers and callees of
 * the methods asked for; for scripts, the rows of one table as jsonl or csv,
 * or every table as one json document. ntidx-cpu(1) lists the keys.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <ntidx/analysis.h>

#include "analysis_cmd.h"
#include "analysis_print.h"
#include "cli.h"

static const cli_option options[] = {
    {"thread", 0, "TID", "only the samples of this thread (OS thread id where the trace gives one)"},
    {"by-thread", 0, NULL, "one row per method and thread"},
    {"callers", 0, "METHOD", "also the frames that called METHOD directly (table cpu_callers)"},
    {"callees", 0, "METHOD", "also the frames METHOD called directly (table cpu_callees)"},
    {"tree", 0, NULL, "jsonl, csv and json: the call tree, what a flame graph draws (table cpu_tree)"},
    {"summary", 0, NULL, "jsonl and csv: the summary row instead of the methods"},
    {"top", 0, "N", "text: the N methods with the most exclusive samples (per thread; default 30, 0 all)"},
    {NULL, 0, NULL, NULL}};

const cli_command cli_cmd_cpu = {
    .name = "cpu",
    .run = ntidx_cmd_cpu,
    .summary = "where the CPU went: samples by method, inclusive and exclusive (PerfView's By Name)",
    .groups = CLI_TRACE | CLI_WINDOW | CLI_INDEX | CLI_FORMAT | CLI_THREADS,
    .formats = "text|jsonl|csv|json",
    .options = options,
    .notes = "METHOD: a frame's whole name (module!Namespace.Name(args)), the part after '!', or that part\n"
             "without its arguments (Namespace.Name).\n"
             "jsonl, csv and json keys: method inclusive exclusive inclusive_ms exclusive_ms inclusive_percent\n"
             "exclusive_percent, thread with --by-thread; callers and callees: focus and the same (see ntidx-cpu(1));\n"
             "jsonl and csv print the methods, or with --callers, --callees or --tree that table, or with --summary\n"
             "the summary. The tree's keys: node parent depth method inclusive exclusive inclusive_ms exclusive_ms.\n",
};

static void percent(double v, char *buf, size_t n) { snprintf(buf, n, "%.1f%%", isnan(v) ? 0.0 : v); }

/* Rows of table `k` in the text format: at most `top` per thread (0: all), the method last. */
static void print_rows(const ntidx_analysis *a, size_t k, int by_thread, uint64_t top, const char *focus)
{
    ntidx_table tb;
    if (ntidx_analysis_table(a, k, &tb) < 0)
        return;
    printf("%s%8s %8s %8s %8s  %s\n", by_thread ? "  Thread " : "", "Exc %", "Exc", "Inc %", "Inc", "Method");
    uint64_t shown = 0, thread = UINT64_MAX, skipped = 0;
    for (uint64_t r = 0; r < tb.rows; r++) {
        if (focus && strcmp(ap_string(a, k, r, "focus"), focus))
            continue;
        uint64_t th = by_thread ? (uint64_t)ap_number(a, k, r, "thread") : 0;
        if (th != thread) {
            thread = th;
            shown = 0;
        }
        if (top && shown >= top) {
            skipped++;
            continue;
        }
        shown++;
        char ep[16], ip[16];
        percent(ap_number(a, k, r, "exclusive_percent"), ep, sizeof ep);
        percent(ap_number(a, k, r, "inclusive_percent"), ip, sizeof ip);
        if (by_thread)
            printf("%8" PRIu64 " ", th);
        printf("%8s %8.0f %8s %8.0f  %s\n", ep, ap_number(a, k, r, "exclusive"), ip, ap_number(a, k, r, "inclusive"),
               ap_string(a, k, r, "method"));
    }
    if (skipped)
        printf("(%" PRIu64 " more; --top 0 shows all)\n", skipped);
}

/* The callers or callees tables: one block per focus frame. */
static void print_pairs(const ntidx_analysis *a, const char *table, const char *what, const char *none,
                        const char *asked, int by_thread, uint64_t top)
{
    int k = ap_table_index(a, table);
    ntidx_table tb;
    if (k < 0 || ntidx_analysis_table(a, (size_t)k, &tb) < 0)
        return;
    if (!tb.rows) {
        printf("\nNo sampled frame is named %s, or it has no %s.\n", asked, none);
        return;
    }
    /* one block per focus frame, in the order they first come */
    for (uint64_t r = 0; r < tb.rows; r++) {
        const char *focus = ap_string(a, (size_t)k, r, "focus");
        int seen = 0;
        for (uint64_t q = 0; q < r && !seen; q++)
            seen = !strcmp(ap_string(a, (size_t)k, q, "focus"), focus);
        if (seen)
            continue;
        printf("\n%s of %s:\n", what, focus);
        print_rows(a, (size_t)k, by_thread, top, focus);
    }
}

static int print_text(const ntidx_analysis *a, const ntidx_cpu_options *co, uint64_t top)
{
    int k = ap_table_index(a, "cpu"), s = ap_table_index(a, "cpu_summary");
    if (k < 0 || s < 0)
        return -1;
    double samples = ap_number(a, (size_t)s, 0, "samples");
    printf("%.0f samples (%.0f ms at TraceEvent's %.0f ms a sample) on %.0f threads, %.0f without a stack; %.0f "
           "methods\n\n",
           samples, ap_number(a, (size_t)s, 0, "total_ms"), ap_number(a, (size_t)s, 0, "interval_ms"),
           ap_number(a, (size_t)s, 0, "threads"), ap_number(a, (size_t)s, 0, "samples_without_stack"),
           ap_number(a, (size_t)s, 0, "methods"));
    print_rows(a, (size_t)k, co->by_thread, top, NULL);
    if (co->callers)
        print_pairs(a, "cpu_callers", "Callers", "callers", co->callers, co->by_thread, top);
    if (co->callees)
        print_pairs(a, "cpu_callees", "Callees", "callees", co->callees, co->by_thread, top);
    putchar('\n');
    ap_text_stats(stdout, a);
    return 0;
}

/* print_text()'s arguments, through cli_analysis_write() */
typedef struct cpu_text {
    const ntidx_cpu_options *co;
    uint64_t top;
} cpu_text;

static int print_cpu_text(const ntidx_analysis *a, const void *ctx)
{
    const cpu_text *t = ctx;
    return print_text(a, t->co, t->top);
}

int ntidx_cmd_cpu(int argc, char **argv)
{
    cli_ctx c;
    int rc = cli_begin(&cli_cmd_cpu, argc, argv, &c);
    if (rc != CLI_GO_ON)
        return rc;
    ntidx_analysis_options o;
    if ((rc = cli_analysis_options(&c, &o)) != CLI_GO_ON)
        return rc;
    ntidx_cpu_options co;
    ntidx_cpu_options_defaults(&co);
    co.by_thread = cli_opt(&c, "by-thread") != NULL;
    co.callers = cli_opt(&c, "callers");
    co.callees = cli_opt(&c, "callees");
    co.tree = cli_opt(&c, "tree") != NULL;
    const char *top_s = cli_opt(&c, "top");
    uint64_t top = 30;
    if (top_s && cli_parse_u64(top_s, &top, 0) < 0)
        return cli_end(&c, cli_bad_usage(c.cmd, "--top %s: a number of rows", top_s));
    int summary = cli_opt(&c, "summary") != NULL;
    int rows_format = !strcmp(c.format, "jsonl") || !strcmp(c.format, "csv");
    if (rows_format && summary + (co.callers != NULL) + (co.callees != NULL) + co.tree > 1)
        return cli_end(&c, cli_bad_usage(c.cmd, "--format %s prints one table: give one of --summary, --callers, "
                                                "--callees, --tree (--format json prints them all)", c.format));
    if (co.tree && !strcmp(c.format, "text"))
        return cli_end(&c, cli_bad_usage(c.cmd, "--tree: a table for scripts (--format jsonl, csv or json)"));
    /* its own options: not the registry's defaults (cli_analysis_run()) */
    ntidx_analysis *a = NULL;
    rc = ntidx_cpu_analyze(c.trace, c.index, &o, &co, &a);
    if (cli_recover(&c, rc))
        rc = ntidx_cpu_analyze(c.trace, c.index, &o, &co, &a);
    if (rc < 0) {
        cli_library_error();
        return cli_end(&c, CLI_FAIL);
    }
    cpu_text t = {&co, top};
    return cli_analysis_write(&c, &a,
                              summary      ? "cpu_summary"
                              : co.callers ? "cpu_callers"
                              : co.callees ? "cpu_callees"
                              : co.tree    ? "cpu_tree"
                                           : "cpu",
                              print_cpu_text, &t);
}
