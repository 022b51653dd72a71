/*
 * ntidx query TRACE [--from T] [--to T] [--provider P] [--event ID|NAME]
 *   [--thread TID] [--order time|file] [--format text|jsonl|csv] [--limit N]
 *   [--index PATH] [--stats]
 * The events of a time window, through the side index (built if missing).
 * jsonl keys as in `ntidx dump`. A region of the index that fails its check
 * makes the command rebuild the index (cli_recover()) and the output goes
 * on where it stopped (ntidx_query_resume()).
 */
#include <inttypes.h>

#include "cli.h"
#include "event_print.h"

static const cli_option options[] = {
    {"stats", 0, NULL, "print the regions, blocks and bytes of the trace read on stderr"},
    {"skip-damaged", 0, NULL, "leave out a region that cannot be read (said on stderr) instead of failing"},
    {NULL, 0, NULL, NULL}};

const cli_command cli_cmd_query = {
    .name = "query",
    .run = ntidx_cmd_query,
    .summary = "the events of a time window, filtered, through the index",
    .groups = CLI_TRACE | CLI_STDIN | CLI_WINDOW | CLI_FILTER | CLI_ORDER | CLI_FORMAT | CLI_LIMIT | CLI_INDEX,
    .pass = CLI_PASS,
    .formats = "text|jsonl|csv",
    .options = options,
};

int ntidx_cmd_query(int argc, char **argv)
{
    cli_ctx c;
    int rc = cli_begin(&cli_cmd_query, argc, argv, &c);
    if (rc != CLI_GO_ON)
        return rc;
    if ((rc = cli_skip_damaged(&c)) != CLI_GO_ON)
        return rc;
    enum event_format fmt = event_format_parse(c.format);
    ntidx_query *q;
    if (ntidx_query_open(c.trace, c.index, &c.query, &q) < 0) {
        cli_library_error();
        return cli_end(&c, CLI_FAIL);
    }
    cli_fast_stdout();
    event_print_header(fmt);
    event_printer p = {0};
    const ntidx_event *e;
    uint64_t n = 0;
    while ((rc = cli_query_next(&c, q, &e)) == 1) {
        n++;
        if (event_print_stops(rc = event_print(&p, c.trace, e, fmt)))
            break;
    }
    fflush(stdout);
    event_print_done(&p, c.trace_path);
    const ntidx_index_info *xi = ntidx_index_get_info(c.index);
    if (rc < 0 && rc != NTIDX_E_WRITE) /* standard output failed: main() says so */
        cli_library_error();
    if (rc >= 0 && !n && !c.damaged.nbad)
        cli_names_warning(&c);
    if (rc >= 0)
        cli_skip_damaged_total(&c, c.damaged.nbad, "answer");
    if (rc >= 0 && xi && !xi->complete) /* a window past the end of what was written is empty: say why */
        cli_note("%s: warning: trace is incomplete: read up to its last complete block (offset %" PRIu64 ")",
                 c.trace_path, xi->indexed_end);
    if (rc >= 0 && cli_opt(&c, "stats")) {
        const ntidx_query_stats *qs = ntidx_query_get_stats(q);
        fprintf(stderr, "query: %" PRIu64 " regions, %" PRIu64 " blocks (%" PRIu64 " event blocks), %" PRIu64
                        " bytes of the trace read\n",
                qs->regions_visited, qs->blocks_read, qs->event_blocks_read, qs->bytes_read);
    }
    ntidx_query_close(&q);
    return cli_end(&c, rc < 0 ? CLI_FAIL : CLI_OK);
}
