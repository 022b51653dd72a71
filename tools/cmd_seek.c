/*
 * ntidx seek TRACE --at T [--provider P] [--event ID|NAME] [--thread TID]
 *   [--format text|jsonl] [--index PATH]: the first event at or after T
 * (time order) that the filters pass, with its file offset: a query with
 * the seek option (ntidx_query_options.seek).
 */
#include <inttypes.h>

#include "cli.h"
#include "event_print.h"

const cli_command cli_cmd_seek = {
    .name = "seek",
    .run = ntidx_cmd_seek,
    .summary = "the first event at or after a time",
    .groups = CLI_TRACE | CLI_STDIN | CLI_AT | CLI_FILTER | CLI_FORMAT | CLI_INDEX,
    .formats = "text|jsonl",
};

int ntidx_cmd_seek(int argc, char **argv)
{
    cli_ctx c;
    int rc = cli_begin(&cli_cmd_seek, argc, argv, &c);
    if (rc != CLI_GO_ON)
        return rc;
    ntidx_query *q;
    const ntidx_event *e = NULL;
    if ((rc = ntidx_query_open(c.trace, c.index, &c.query, &q)) == 0)
        rc = cli_query_next(&c, q, &e);
    if (rc < 0) {
        cli_library_error();
        ntidx_query_close(&q);
        return cli_end(&c, CLI_FAIL);
    }
    if (rc == 0) {
        cli_note("%s: no event at or after %" PRIu64 " ticks", c.trace_path, c.query.t0);
        cli_names_warning(&c);
    } else {
        enum event_format fmt = event_format_parse(c.format);
        event_printer p = {0};
        if (fmt == EVENT_TEXT)
            printf("offset %" PRIu64 ": ", e->offset);
        event_print(&p, c.trace, e, fmt);
        event_print_done(&p, c.trace_path);
    }
    ntidx_query_close(&q);
    return cli_end(&c, CLI_OK);
}
