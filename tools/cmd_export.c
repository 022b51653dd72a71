/*
 * ntidx export TRACE [--from T] [--to T] --format chrome|speedscope|csv|jsonl -o OUT
 *   [--provider P] [--event ID|NAME] [--thread TID] [--index PATH]
 *
 * The events of a window (the whole trace without --from/--to), through the
 * side index and in time order, in a format another tool reads:
 *   chrome      Chrome Trace Event JSON for the Perfetto UI and chrome://tracing (export_chrome.c)
 *   speedscope  the sampled stacks, one profile per thread, at their times, for speedscope (export_speedscope.c)
 *   csv, jsonl  the rows and keys of `ntidx query --format csv|jsonl` (event_print.c)
 * OUT "-" is stdout. A regular file is written beside OUT and renamed over it
 * when complete, so a failed or interrupted export leaves no half-written
 * file (output.h).
 */
#include <inttypes.h>
#include <string.h>

#include <ntidx/index.h>

#include "cli.h"
#include "event_print.h"
#include "export.h"
#include "output.h"

enum { FMT_CHROME, FMT_SPEEDSCOPE, FMT_CSV, FMT_JSONL };

static const cli_option options[] = {
    {"skip-damaged", 0, NULL, "leave out a region that cannot be read (said on stderr) instead of failing"},
    {NULL, 0, NULL, NULL}};

const cli_command cli_cmd_export = {
    .name = "export",
    .run = ntidx_cmd_export,
    .summary = "a window as Chrome trace JSON, speedscope, CSV or JSONL for other tools",
    .groups = CLI_TRACE | CLI_STDIN | CLI_WINDOW | CLI_FILTER | CLI_FORMAT | CLI_OUTPUT | CLI_INDEX | CLI_VERIFY,
    .pass = CLI_PASS,
    .formats = "chrome|speedscope|csv|jsonl",
    .format_required = 1,
    .output_required = 1,
    .notes = "chrome: Chrome Trace Event JSON (Perfetto UI, chrome://tracing); speedscope: the sample profiler's\n"
             "stacks (or those of the events --provider/--event select) per thread; csv, jsonl: as ntidx query.\n"
             "The index is checked whole first (exports read it in several passes).\n",
    .options = options,
};

static int export_rows(export_job *job, enum event_format fmt, uint64_t *written)
{
    ntidx_query *q;
    if (ntidx_query_open(job->trace, job->index, &job->query, &q) < 0) {
        cli_library_error();
        return -1;
    }
    event_print_header(fmt);
    event_printer p = {0};
    const ntidx_event *e;
    uint64_t n = 0;
    int rc;
    export_progress_begin(job, &job->query);
    while ((rc = ntidx_query_next(q, &e)) == 1) {
        if (event_print_stops(rc = event_print(&p, job->trace, e, fmt)))
            break;
        export_progress(job, q, ++n);
    }
    event_print_done(&p, job->trace_path);
    /* A write that failed stops the rows; cli_output_commit() says what failed, naming OUT. */
    if (rc == NTIDX_E_WRITE)
        rc = 0;
    if (rc < 0)
        cli_library_error();
    ntidx_query_close(&q);
    *written = n;
    return rc < 0 ? -1 : 0;
}

int ntidx_cmd_export(int argc, char **argv)
{
    cli_ctx c;
    int rc = cli_begin(&cli_cmd_export, argc, argv, &c);
    if (rc != CLI_GO_ON)
        return rc;
    int fmt = !strcmp(c.format, "chrome") ? FMT_CHROME : !strcmp(c.format, "speedscope") ? FMT_SPEEDSCOPE
              : !strcmp(c.format, "csv") ? FMT_CSV : FMT_JSONL;
    if ((rc = cli_skip_damaged(&c)) != CLI_GO_ON)
        return rc;
    export_job job;
    memset(&job, 0, sizeof job);
    job.trace_path = c.trace_path;
    job.trace = c.trace;
    job.index = c.index;
    job.query = c.query;
    job.has_filter = c.query.event_name || c.query.has_event_id || c.query.provider;
    cli_fast_stdout();
    cli_output o;
    if (cli_output_open(&o, c.output) < 0 || cli_output_as_stdout(&o) < 0) {
        cli_output_discard(&o);
        return cli_end(&c, CLI_FAIL);
    }
    job.out = stdout;
    uint64_t n = 0;
    switch (fmt) {
    case FMT_CHROME: rc = export_chrome(&job, &n); break;
    case FMT_SPEEDSCOPE: rc = export_speedscope(&job, &n); break;
    case FMT_CSV: rc = export_rows(&job, EVENT_CSV, &n); break;
    default: rc = export_rows(&job, EVENT_JSONL, &n); break;
    }
    cli_progress_end();
    int ret = CLI_FAIL;
    if (rc == 0 && !n && !c.damaged.nbad)
        cli_names_warning(&c);
    if (rc == 0)
        cli_skip_damaged_total(&c, c.damaged.nbad, "export");
    if (rc < 0)
        cli_output_discard(&o);
    else if (cli_output_commit(&o) == 0) {
        if (!cli_output_is_stdout(&o))
            cli_note("%" PRIu64 " %s written to %s", n, fmt == FMT_SPEEDSCOPE ? "samples" : "events", c.output);
        ret = CLI_OK;
    }
    return cli_end(&c, ret);
}
