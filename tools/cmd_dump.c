/*
 * ntidx dump TRACE [--order file|time] [--format text|jsonl|csv]: every
 * event, one per line, by one pass of the reader (no index). jsonl keys are
 * a contract: ts, provider, event_id, event_name, version, thread,
 * capture_thread, seq, stack_id, offset, and fields (or field_error when the
 * payload does not fit its metadata).
 *
 * --skip-damaged: the events through the side index instead (built if missing), the damaged regions left out
 * (cli_skip_damaged()); a query over the whole trace gives the lines of the reader's pass, in either order.
 */
#include <unistd.h>

#include "cli.h"
#include "event_print.h"

static const cli_option options[] = {
    {"skip-damaged", 0, NULL, "through the index, leave out a region that cannot be read (said on stderr)"},
    {NULL, 0, NULL, NULL}};

const cli_command cli_cmd_dump = {
    .name = "dump",
    .run = ntidx_cmd_dump,
    .summary = "every event, one per line (text, jsonl or csv), file or time order",
    .groups = CLI_TRACE | CLI_STDIN | CLI_ORDER | CLI_FORMAT,
    .formats = "text|jsonl|csv",
    .file_order = 1,
    .options = options,
};

/* --skip-damaged: every event of the regions that can be read, through the index, as `ntidx query` prints them. */
static int dump_skipping(cli_ctx *c, enum event_format fmt)
{
    int rc = cli_skip_damaged(c);
    if (rc != CLI_GO_ON)
        return rc;
    ntidx_query *q;
    if (ntidx_query_open(c->trace, c->index, &c->query, &q) < 0) {
        cli_library_error();
        return cli_end(c, CLI_FAIL);
    }
    cli_fast_stdout();
    event_print_header(fmt);
    event_printer p = {.batch = 1};
    const ntidx_event *e;
    while ((rc = cli_query_next(c, q, &e)) == 1)
        if (event_print_stops(rc = event_print(&p, c->trace, e, fmt)))
            break;
    event_print_flush(&p);
    fflush(stdout);
    event_print_done(&p, c->trace_path);
    ntidx_query_close(&q);
    if (rc < 0 && rc != NTIDX_E_WRITE) /* standard output failed: main() says so */
        cli_library_error();
    if (rc >= 0)
        cli_skip_damaged_total(c, c->damaged.nbad, "dump");
    return cli_end(c, rc < 0 ? CLI_FAIL : CLI_OK);
}

int ntidx_cmd_dump(int argc, char **argv)
{
    cli_ctx c;
    int rc = cli_begin(&cli_cmd_dump, argc, argv, &c);
    if (rc != CLI_GO_ON)
        return rc;
    enum event_format fmt = event_format_parse(c.format);
    if (cli_opt(&c, "skip-damaged"))
        return dump_skipping(&c, fmt);
    ntidx_reader_options o;
    ntidx_reader_options_defaults(&o);
    o.order = c.query.order;
    ntidx_reader *r;
    if (ntidx_reader_open(c.trace, &o, &r) < 0) {
        cli_library_error();
        return cli_end(&c, CLI_FAIL);
    }
    cli_fast_stdout();
    event_print_header(fmt);
    event_printer p = {.batch = 1}; /* nothing else goes to stdout until the end */
    const ntidx_event *e;
    uint64_t n = 0, size = ntidx_trace_get_info(c.trace)->file_size;
    int show = !isatty(STDOUT_FILENO); /* on the terminal, the lines are the progress */
    cli_progress_label("ntidx: dumping");
    while ((rc = ntidx_reader_next(r, &e)) == 1) {
        if (event_print_stops(rc = event_print(&p, c.trace, e, fmt)))
            break;
        if ((++n & 4095) == 0 && show)
            cli_progress(NULL, e->offset, size); /* the reader goes through the file once, in order */
    }
    cli_progress_end();
    event_print_flush(&p);
    fflush(stdout);
    event_print_done(&p, c.trace_path);
    int ret = CLI_OK;
    if (rc == NTIDX_E_WRITE) {
        ret = CLI_FAIL; /* standard output failed: main() says so */
    } else if (rc < 0) {
        cli_library_error();
        ret = CLI_FAIL;
    } else if (!ntidx_reader_complete(r)) {
        cli_note("%s: warning: trace is incomplete: %s", c.trace_path, ntidx_reader_incomplete_reason(r));
    }
    ntidx_reader_close(&r);
    return cli_end(&c, ret);
}
