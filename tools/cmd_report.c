/*
 * ntidx report TRACE [--from T] [--to T] -o OUT [--rows N] [--threads N] [--index PATH]
 *
 * One HTML page of a window's analyses, for people: the GC pauses on a time
 * axis with their summary per generation and one row per GC (as PerfView's
 * GCStats), the heap's size over time, the contended locks, the activities,
 * and the sections of every other analysis the command runs. The page is
 * self-contained: its style, its script (tools/report/, inlined at build
 * time) and its data (JSON, report_json.h) are all inside it, its charts are
 * SVG its own script draws, and it opens from disk with no network.
 *
 * The analyses are the library's, every one of them but the listings (ntidx_analysis_info_at()):
 * an analysis added to the library brings its tables to the page with no
 * change here (the page's script shows an analysis it has no section for as
 * plain tables; report.js's SECTIONS give the known ones their charts). OUT
 * is written beside itself and renamed into place (output.h); "-" is
 * standard output.
 */
#include <inttypes.h>
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim() */
#endif
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <ntidx/analysis.h>

#include "cli.h"
#include "output.h"
#include "report/report_page.h"
#include "report_json.h"

#define DEFAULT_ROWS 20000

static const cli_option options[] = {
    {"rows", 0, "N", "at most N rows of each table in the page (default 20000; the page says what it left out)"},
    {NULL, 0, NULL, NULL}};

const cli_command cli_cmd_report = {
    .name = "report",
    .run = ntidx_cmd_report,
    .summary = "every analysis of a window as one self-contained HTML page with charts",
    .groups = CLI_TRACE | CLI_WINDOW | CLI_INDEX | CLI_OUTPUT | CLI_THREADS,
    .output_required = 1,
    .options = options,
    .notes = "The page opens from disk with no network: its script, style and data are inside it.\n",
};

/* Analysis `name` as the registry runs it, but the CPU analysis with its call tree: the flame graph draws it. */
static int analyze(const char *name, ntidx_trace *t, const ntidx_index *x, const ntidx_analysis_options *o,
                   ntidx_analysis **out)
{
    if (!strcmp(name, "cpu")) {
        ntidx_cpu_options co;
        ntidx_cpu_options_defaults(&co);
        co.tree = 1;
        return ntidx_cpu_analyze(t, x, o, &co, out);
    }
    return ntidx_analyze(name, t, x, o, out);
}

/* Listings, not answers: one row per event (cpu_samples: every sample). The page holds what
 * they sum to (the CPU section's methods and call tree), not the rows themselves. */
static int on_the_page(const char *name) { return strcmp(name, "cpu_samples") != 0; }

static double ms_of(ntidx_trace *t, uint64_t ticks) { return ntidx_ticks_to_seconds(t, ticks) * 1000.0; }

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* What the page says about the trace and the window. */
static void put_header(FILE *f, const cli_ctx *c)
{
    ntidx_trace *t = c->trace;
    const ntidx_trace_info *in = ntidx_trace_get_info(t);
    const ntidx_index_info *xi = ntidx_index_get_info(c->index);
    int have_events = xi->first_ts <= xi->last_ts;
    fputs("{\"ntidx_version\":", f);
    report_json_string(f, ntidx_version());
    fputs(",\"trace\":{\"path\":", f);
    report_json_string(f, c->trace_path);
    fputs(",\"name\":", f);
    report_json_string(f, base_name(c->trace_path));
    fprintf(f, ",\"size\":%" PRIu64 ",\"format_version\":%d,\"pointer_size\":%u,\"process_id\":%u,\"processors\":%u",
            in->file_size, in->format_version, in->pointer_size, in->process_id, in->number_of_processors);
    char iso[64];
    fputs(",\"sync_time\":", f);
    if (ntidx_ticks_to_iso8601(t, (uint64_t)in->sync_ticks, iso, sizeof iso) == NTIDX_OK)
        report_json_string(f, iso);
    else
        fputs("null", f);
    fputs(",\"first_ms\":", f);
    report_json_double(f, have_events ? ms_of(t, xi->first_ts) : NAN);
    fputs(",\"last_ms\":", f);
    report_json_double(f, have_events ? ms_of(t, xi->last_ts) : NAN);
    /* The window as asked; without --from/--to it is the trace's events. */
    const ntidx_query_options *q = &c->query;
    int has_from = c->has_window && q->t0 > 0, has_to = c->has_window && q->t1 != UINT64_MAX;
    fputs("},\"window\":{\"from_ms\":", f);
    report_json_double(f, has_from ? ms_of(t, q->t0) : have_events ? ms_of(t, xi->first_ts) : NAN);
    fputs(",\"to_ms\":", f);
    report_json_double(f, has_to ? ms_of(t, q->t1) : have_events ? ms_of(t, xi->last_ts) : NAN);
    fprintf(f, ",\"whole_trace\":%s}", c->has_window ? "false" : "true");
}

int ntidx_cmd_report(int argc, char **argv)
{
    cli_ctx c;
    int rc = cli_begin(&cli_cmd_report, argc, argv, &c);
    if (rc != CLI_GO_ON)
        return rc;
    uint64_t max_rows = DEFAULT_ROWS;
    const char *rows = cli_opt(&c, "rows");
    if (rows && cli_parse_u64(rows, &max_rows, 0) < 0)
        return cli_end(&c, cli_bad_usage(c.cmd, "--rows %s: not a count", rows));
    ntidx_analysis_options o;
    ntidx_analysis_options_defaults(&o);
    o.t0 = c.query.t0;
    o.t1 = c.query.t1;
    o.threads = c.threads;
    /* Each analysis is written as the page's JSON (at most --rows rows a table) as soon as it is done, and
       freed: the page holds a bounded part of each, and only one analysis at a time is in memory (a big trace's
       activities are millions of records). A regular OUT is written to its temporary as the analyses go (a
       failure removes it: a trace that cannot be read leaves no file behind); standard output and what is
       written in place (a FIFO, a device) get the page only once every analysis is done, the JSON kept in
       memory until then. */
    size_t n = ntidx_analysis_count();
    char *json = NULL;
    size_t json_len = 0;
    FILE *m = NULL;
    int ret = CLI_FAIL;
    cli_fast_stdout();
    cli_output w;
    if (cli_output_open(&w, c.output) < 0) {
        cli_output_discard(&w);
        return cli_end(&c, CLI_FAIL);
    }
    int direct = !cli_output_in_place(&w);
    if (direct) {
        if (cli_output_as_stdout(&w) < 0)
            goto out;
        m = stdout;
        fwrite(report_page_head, 1, report_page_head_size, m);
        put_header(m, &c);
        fputs(",\"analyses\":[", m);
    } else if (!(m = open_memstream(&json, &json_len))) {
        cli_error("out of memory");
        goto out;
    }
    for (size_t i = 0, put = 0; i < n; i++) {
        const char *name = ntidx_analysis_info_at(i)->name;
        if (!on_the_page(name))
            continue;
        ntidx_analysis *a = NULL;
        if (analyze(name, c.trace, c.index, &o, &a) < 0) {
            cli_library_error();
            goto out;
        }
        if (put++)
            fputc(',', m);
        rc = report_json_analysis(m, a, max_rows);
        ntidx_analysis_free(&a);
#ifdef __GLIBC__
        /* what it freed goes back to the system before the next one runs: glibc's arenas (one per worker) keep
           their free pages otherwise, ~50 MB after the CPU and exceptions analyses of the real 1 GB trace */
        malloc_trim(0);
#endif
        if (rc < 0) {
            cli_library_error();
            goto out;
        }
    }
    if (!direct) {
        if (fflush(m) != 0) {
            cli_error("out of memory");
            goto out;
        }
        if (cli_output_as_stdout(&w) < 0)
            goto out;
        fwrite(report_page_head, 1, report_page_head_size, stdout);
        put_header(stdout, &c);
        fputs(",\"analyses\":[", stdout);
        fwrite(json, 1, json_len, stdout);
    }
    fputs("]}", stdout);
    fwrite(report_page_tail, 1, report_page_tail_size, stdout);
    /* a failed write is said by the commit, naming OUT; OUT is then as it was */
    if (cli_output_commit(&w) == 0) {
        if (!cli_output_is_stdout(&w))
            cli_note("report written to %s", c.output);
        ret = CLI_OK;
    }
out:
    if (ret != CLI_OK)
        cli_output_discard(&w);
    if (m && m != stdout)
        fclose(m);
    free(json);
    return cli_end(&c, ret);
}
